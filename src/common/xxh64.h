/* unearth internal — XXH64 fed piece by piece (the one-shot ue_xxh64 is public, in common.h):
 * a payload is hashed as it is written, without being held whole. */
#ifndef UE_COMMON_XXH64_H
#define UE_COMMON_XXH64_H

#include <stddef.h>
#include <stdint.h>

typedef struct ue_xxh64_state {
    uint64_t v[4], total, seed;
    uint8_t buf[32]; /* the bytes of a stripe not yet complete */
    size_t buffered;
} ue_xxh64_state;

void ue_xxh64_init(ue_xxh64_state *s, uint64_t seed);
void ue_xxh64_update(ue_xxh64_state *s, const void *data, size_t n);
/* The hash of everything fed so far: equal to ue_xxh64 of those bytes at once. */
uint64_t ue_xxh64_digest(const ue_xxh64_state *s);

#endif
