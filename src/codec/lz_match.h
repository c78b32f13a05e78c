/* unearth internal — the LZ77 parser shared by the LZSS and LZHUF encoders: hash chains over a
 * virtual buffer "ring fill + input", greedy or lazy matching, tokens handed to a callback. */
#ifndef UE_LZ_MATCH_H
#define UE_LZ_MATCH_H

#include "unearth/common.h"

typedef struct ue_lz_params {
    uint8_t fill;          /* the decoder's initial ring contents */
    size_t max_match;      /* 18 for LZSS, 60 for LZHUF */
    size_t max_distance;   /* N − F: a reference never reaches bytes its own copy overwrites */
    int level;             /* 0–9: chain depth; lazy matching from 3 */
} ue_lz_params;

/* One token: a literal (len 0, the byte is in[at]) or a match of `len` bytes copied from
 * `distance` bytes back (which may reach into the ring fill before the input). */
typedef void (*ue_lz_emit)(void *user, size_t at, size_t len, size_t distance);

ue_result ue_lz_parse(const ue_lz_params *p, const uint8_t *in, size_t in_size, ue_lz_emit emit,
                      void *user);

#endif
