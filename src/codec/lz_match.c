/* unearth — LZ77 match finding for our encoders: 3-byte hash chains over "ring fill + input"
 * so matches may start in the decoder's pre-filled ring, with optional one-step lazy matching. */
#include <stdlib.h>
#include <string.h>

#include "codec/lz_match.h"

#define RING 4096u
#define HASH_BITS 14
#define HASH_SIZE (1u << HASH_BITS)
#define WINDOW 8192u /* prev[] span: a power of two ≥ every max_distance + max_match */
#define NIL UINT32_MAX

typedef struct finder {
    const uint8_t *v;
    size_t vsize;
    size_t max_match, max_distance;
    unsigned max_chain;
    uint32_t head[HASH_SIZE];
    uint32_t prev[WINDOW];
} finder;

static inline uint32_t hash3(const uint8_t *p) {
    uint32_t x = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
    return (x * 2654435761u) >> (32 - HASH_BITS);
}

static inline void insert(finder *f, size_t pos) {
    if (pos + 3 > f->vsize) return;
    uint32_t h = hash3(f->v + pos);
    f->prev[pos & (WINDOW - 1)] = f->head[h];
    f->head[h] = (uint32_t)pos;
}

/* Longest match for the string at `pos` (0 if shorter than 3); its start goes to *from. */
static size_t longest(const finder *f, size_t pos, size_t *from) {
    size_t limit = f->vsize - pos;
    if (limit > f->max_match) limit = f->max_match;
    if (limit < 3) return 0;
    size_t best = 0;
    const uint8_t *cur = f->v + pos;
    uint32_t cand = f->head[hash3(cur)];
    unsigned chain = f->max_chain;
    while (cand != NIL && chain-- > 0 && cand < pos && pos - cand <= f->max_distance) {
        const uint8_t *src = f->v + cand;
        if (src[best] == cur[best] && src[0] == cur[0]) {
            size_t len = 0;
            while (len < limit && src[len] == cur[len]) len++;
            if (len > best) {
                best = len;
                *from = cand;
                if (len == limit) break;
            }
        }
        /* Entries older than the window were overwritten; chains only ever go back in time. */
        uint32_t next = f->prev[cand & (WINDOW - 1)];
        if (next == NIL || next >= cand) break;
        cand = next;
    }
    return best >= 3 ? best : 0;
}

ue_result ue_lz_parse(const ue_lz_params *p, const uint8_t *in, size_t in_size, ue_lz_emit emit,
                      void *user) {
    if (p->max_distance + p->max_match > WINDOW || p->max_distance > RING) return UE_ERR_USAGE;
    if (in_size > (size_t)UINT32_MAX - 2 * RING) return UE_ERR_NOMEM;
    int level = p->level < 0 ? 0 : (p->level > 9 ? 9 : p->level);
    finder *f = malloc(sizeof *f);
    uint8_t *v = malloc(RING + in_size);
    if (!f || !v) {
        free(f);
        free(v);
        return UE_ERR_NOMEM;
    }
    memset(v, p->fill, RING);
    if (in_size) memcpy(v + RING, in, in_size);
    f->v = v;
    f->vsize = RING + in_size;
    f->max_match = p->max_match;
    f->max_distance = p->max_distance;
    static const unsigned chains[10] = {2, 4, 8, 16, 32, 64, 128, 512, 1024, 4096};
    f->max_chain = chains[level];
    const bool lazy = level >= 3;
    /* NIL is all one bits, so a byte fill sets every slot. prev[] needs no fill: a slot is
     * only read for a position already inserted, which wrote it. */
    memset(f->head, 0xFF, sizeof f->head);
    /* Of the fill, only the last max_match positions can win: an older one holds the same
     * max_match fill bytes (so never a strictly longer match) farther back, and chains visit
     * the newer first. Indexing the rest only cost time, so the chosen matches do not change. */
    size_t first_fill = RING - (p->max_match < p->max_distance ? p->max_match : p->max_distance);
    for (size_t pos = first_fill; pos < RING; pos++) insert(f, pos);

    size_t pos = RING, pending_len = 0, pending_from = 0;
    bool have_pending = false;
    while (pos < f->vsize) {
        size_t len, from = 0;
        if (have_pending) {
            len = pending_len;
            from = pending_from;
            have_pending = false;
        } else {
            len = longest(f, pos, &from);
        }
        insert(f, pos);
        if (len && lazy && len < p->max_match && pos + 1 < f->vsize) {
            size_t from2 = 0, len2 = longest(f, pos + 1, &from2);
            if (len2 > len) { /* a literal now buys a longer match next */
                len = 0;
                pending_len = len2;
                pending_from = from2;
                have_pending = true;
            }
        }
        if (len == 0) {
            emit(user, pos - RING, 0, 0);
            pos++;
            continue;
        }
        emit(user, pos - RING, len, pos - from);
        for (size_t k = 1; k < len; k++) insert(f, pos + k);
        pos += len;
    }
    free(v);
    free(f);
    return UE_OK;
}
