/* unearth — small collection helpers the parsers share: a growable array that doubles (so n
 * appends cost linear time) and the walk over the gaps that a set of byte ranges leaves. */
#ifndef UE_COMMON_COLLECTIONS_H
#define UE_COMMON_COLLECTIONS_H

#include "unearth/common.h"

/* Makes room for `need` elements of `elem` bytes in *items (capacity *cap, doubled as needed,
 * new room zeroed). UE_ERR_NOMEM when out of memory or when `need` exceeds `max`; *items and
 * *cap are unchanged then. */
ue_result ue_array_reserve(void **items, size_t *cap, size_t need, size_t elem, size_t max);

/* Room for element number `count` of an array that keeps no capacity field: the capacity is
 * implied by the count, so the array is reallocated (doubling) only when `count` is 0 or a
 * power of two. UE_ERR_NOMEM when out of memory or when count + 1 exceeds `max`. */
ue_result ue_array_make_room(void **items, size_t count, size_t elem, size_t max);

/* A half-open byte range [start, end). */
typedef struct ue_span {
    uint64_t start, end;
} ue_span;

/* Sorts `spans` by start and calls `gap` for every maximal range of [lo, hi) that no span
 * covers, in file order (overlapping and touching spans merge). Stops at, and returns, the
 * first result that is not UE_OK. */
ue_result ue_for_each_gap(ue_span *spans, size_t n, uint64_t lo, uint64_t hi,
                          ue_result (*gap)(uint64_t start, uint64_t end, void *ctx), void *ctx);

#endif
