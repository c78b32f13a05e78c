/* unearth internal — the cache of companion lookups (ue_cache, public in common.h): values made
 * once per key (outside the lock), kept read-only for every later caller, freed with the cache. */
#ifndef UE_COMMON_CACHE_H
#define UE_COMMON_CACHE_H

#include "unearth/common.h"

/* Makes the value of `key` (NULL is an answer too: "not found" is kept like any other) and its
 * size in bytes. `shared` says whether the value may be kept for later callers (it is unless
 * it would take the cache past UE_CACHE_MAX_BYTES), so a costly answer to more than was asked
 * (a whole archive's index) is worth making. */
typedef void *(*ue_cache_make_fn)(const char *key, void *arg, bool shared, size_t *bytes);
typedef void (*ue_cache_drop_fn)(void *value);

/* The value of `key`, made by `make` on its first use. With a cache the value stays the
 * cache's (read-only, shared) and *owned is false; without one (c NULL), or when the cache
 * cannot hold it (the values kept and this one would pass UE_CACHE_MAX_BYTES), it is made for
 * this call alone and *owned is true: the caller drops it. `make` runs without the cache's lock,
 * so other keys are answered meanwhile; a second caller of the same key waits for that one
 * value. `make` may ask the cache for other keys, never for its own. */
void *ue_cache_get(ue_cache *c, const char *key, ue_cache_make_fn make, ue_cache_drop_fn drop, void *arg,
                   bool *owned);

#define UE_CACHE_MAX_BYTES ((size_t)1 << 30)

#endif
