/* unearth — the growable array and the gap walk over byte ranges (see collections.h), shared
 * by the containers' lossless readers and writers. */
#include "common/collections.h"

#include <stdlib.h>
#include <string.h>

ue_result ue_array_reserve(void **items, size_t *cap, size_t need, size_t elem, size_t max) {
    if (need <= *cap) return UE_OK;
    if (need > max || elem == 0 || need > SIZE_MAX / elem) return UE_ERR_NOMEM;
    size_t grown = *cap ? *cap : 4;
    while (grown < need) grown = grown > max / 2 ? max : grown * 2;
    if (grown > SIZE_MAX / elem) grown = need;
    unsigned char *p = realloc(*items, grown * elem);
    if (!p) return UE_ERR_NOMEM;
    memset(p + *cap * elem, 0, (grown - *cap) * elem);
    *items = p;
    *cap = grown;
    return UE_OK;
}

ue_result ue_array_make_room(void **items, size_t count, size_t elem, size_t max) {
    if (count >= max || elem == 0) return UE_ERR_NOMEM;
    if (count & (count - 1)) return UE_OK; /* not a power of two: room was made before */
    size_t grown = count ? 2 * count : 1;
    if (grown > SIZE_MAX / elem) return UE_ERR_NOMEM;
    void *p = realloc(*items, grown * elem);
    if (!p) return UE_ERR_NOMEM;
    *items = p;
    return UE_OK;
}

static int span_by_start(const void *a, const void *b) {
    const ue_span *x = a, *y = b;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    return x->end < y->end ? -1 : x->end > y->end;
}

ue_result ue_for_each_gap(ue_span *spans, size_t n, uint64_t lo, uint64_t hi,
                          ue_result (*gap)(uint64_t start, uint64_t end, void *ctx), void *ctx) {
    if (n) qsort(spans, n, sizeof *spans, span_by_start);
    uint64_t at = lo;
    for (size_t k = 0; k <= n && at < hi; k++) {
        uint64_t next = k < n && spans[k].start < hi ? spans[k].start : hi;
        if (next > at) {
            ue_result r = gap(at, next, ctx);
            if (r != UE_OK) return r;
        }
        if (k < n && spans[k].end > at) at = spans[k].end;
    }
    return UE_OK;
}
