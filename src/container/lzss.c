/* unearth — LZSS codec shared by Parkan RsLi (method 0x40) and GameCube FSYS entries.
 * The decoder works on the output buffer (no ring copy); the encoder uses hash chains with
 * optional lazy matching over a virtual buffer "ring fill + input". */
#include <stdlib.h>
#include <string.h>

#include "unearth/lzss.h"

const ue_lzss_params UE_LZSS_PARKAN = {0x20, UE_LZSS_START, false, 0};
const ue_lzss_params UE_LZSS_GAMECUBE = {0x00, UE_LZSS_START, false, 0};

#define RING_MASK (UE_LZSS_RING - 1u)
/* Matches reach back at most N - F bytes, as Okumura's encoder does, so a reference never
 * depends on ring bytes the same copy is about to overwrite in any decoder variant. */
#define MAX_DISTANCE (UE_LZSS_RING - UE_LZSS_MAX_MATCH)

ue_result ue_lzss_decode(const ue_lzss_params *p, const uint8_t *in, size_t in_size,
                         uint8_t *out, size_t out_size, ue_lzss_stats *stats, ue_diag *d,
                         uint64_t diag_base, const char *diag_path) {
    size_t ip = 0, op = 0;
    unsigned flags = 0;
    const uint8_t fill = p->fill;
    const size_t start = p->start & RING_MASK;
    ue_result result = UE_OK;

    while (op < out_size) {
        if ((flags & 0x100u) == 0) {
            if (ip >= in_size) goto truncated;
            flags = in[ip++] | 0xFF00u;
        }
        if (flags & 1u) {
            if (ip >= in_size) goto truncated;
            out[op++] = in[ip++];
        } else {
            if (in_size - ip < 2) goto truncated;
            unsigned b0 = in[ip], b1 = in[ip + 1];
            ip += 2;
            size_t pos = b0 | ((b1 & 0xF0u) << 4);
            size_t len = (b1 & 0x0Fu) + 3;
            /* Ring position → distance back from the current write position. */
            size_t head = (start + op) & RING_MASK;
            size_t dist = (head - pos) & RING_MASK;
            if (dist == 0) dist = UE_LZSS_RING;
            if (len > out_size - op) len = out_size - op;
            if (p->forbid_prefill && dist > op + p->prefill_reach) {
                ue_diag_add(d, UE_SEV_ERROR, "lzss.before_start", diag_base + ip - 2, diag_path,
                            "back-reference %zu bytes back at output byte %zu reaches before "
                            "the start of the output",
                            dist, op);
                result = UE_ERR_INVALID;
                break;
            }
            if (dist <= op) {
                const uint8_t *src = out + op - dist;
                uint8_t *dst = out + op;
                for (size_t k = 0; k < len; k++) dst[k] = src[k]; /* overlap is intended */
            } else {
                for (size_t k = 0; k < len; k++) {
                    size_t at = op + k;
                    out[at] = at >= dist ? out[at - dist] : fill;
                }
            }
            op += len;
        }
        flags >>= 1;
    }
    if (stats) {
        stats->consumed = ip;
        stats->produced = op;
    }
    return result;

truncated:
    if (stats) {
        stats->consumed = ip;
        stats->produced = op;
    }
    ue_diag_add(d, UE_SEV_ERROR, "lzss.truncated", diag_base + ip, diag_path,
                "compressed stream ends after %zu bytes, having produced %zu of %zu bytes", ip,
                op, out_size);
    return UE_ERR_INVALID;
}

/* ---- encoder ----------------------------------------------------------------------------- */

#define HASH_BITS 14
#define HASH_SIZE (1u << HASH_BITS)
#define NIL UINT32_MAX

typedef struct encoder {
    const uint8_t *v;   /* virtual buffer: RING fill bytes, then the input */
    size_t vsize;
    uint32_t head[HASH_SIZE];
    uint32_t prev[UE_LZSS_RING];
    unsigned max_chain;
} encoder;

static inline uint32_t hash3(const uint8_t *p) {
    uint32_t x = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
    return (x * 2654435761u) >> (32 - HASH_BITS);
}

static inline void insert(encoder *e, size_t pos) {
    if (pos + 3 > e->vsize) return;
    uint32_t h = hash3(e->v + pos);
    e->prev[pos & RING_MASK] = e->head[h];
    e->head[h] = (uint32_t)pos;
}

/* Longest match for the string at `pos`; returns its length (0 if < 3) and source in *from. */
static size_t find_match(const encoder *e, size_t pos, size_t *from) {
    size_t limit = e->vsize - pos;
    if (limit > UE_LZSS_MAX_MATCH) limit = UE_LZSS_MAX_MATCH;
    if (limit < 3) return 0;
    size_t best = 0;
    uint32_t cand = e->head[hash3(e->v + pos)];
    unsigned chain = e->max_chain;
    const uint8_t *cur = e->v + pos;
    while (cand != NIL && chain-- > 0) {
        if (cand >= pos) break;
        size_t dist = pos - cand;
        if (dist > MAX_DISTANCE) break;
        const uint8_t *src = e->v + cand;
        if (src[best] == cur[best] && src[0] == cur[0]) {
            size_t len = 0;
            while (len < limit && src[len] == cur[len]) len++;
            if (len > best) {
                best = len;
                *from = cand;
                if (len == limit) break;
            }
        }
        uint32_t next = e->prev[cand & RING_MASK];
        if (next == NIL || next >= cand) break;
        cand = next;
    }
    return best >= 3 ? best : 0;
}

ue_result ue_lzss_encode(const ue_lzss_params *p, int level, const uint8_t *in, size_t in_size,
                         ue_buf *out) {
    if (level < 0) level = 0;
    if (level > 9) level = 9;
    if (in_size > (size_t)UINT32_MAX - 2 * UE_LZSS_RING) return UE_ERR_NOMEM;
    encoder *e = malloc(sizeof *e);
    uint8_t *v = malloc(UE_LZSS_RING + in_size);
    if (!e || !v) {
        free(e);
        free(v);
        return UE_ERR_NOMEM;
    }
    memset(v, p->fill, UE_LZSS_RING);
    if (in_size) memcpy(v + UE_LZSS_RING, in, in_size);
    e->v = v;
    e->vsize = UE_LZSS_RING + in_size;
    static const unsigned chains[10] = {2, 4, 8, 16, 32, 64, 128, 512, 1024, 4096};
    e->max_chain = chains[level];
    const bool lazy = level >= 3;
    for (size_t i = 0; i < HASH_SIZE; i++) e->head[i] = NIL;
    for (size_t i = 0; i < UE_LZSS_RING; i++) e->prev[i] = NIL;
    /* Only the fill bytes a reference can still reach are worth indexing. */
    for (size_t pos = UE_LZSS_RING - MAX_DISTANCE; pos < UE_LZSS_RING; pos++) insert(e, pos);

    const size_t ring_start = p->start & RING_MASK;
    size_t flag_at = 0;
    unsigned nitems = 8;
    size_t pos = UE_LZSS_RING;
    size_t pending_len = 0, pending_from = 0;
    bool have_pending = false;

    while (pos < e->vsize) {
        size_t len, from = 0;
        if (have_pending) {
            len = pending_len;
            from = pending_from;
            have_pending = false;
        } else {
            len = find_match(e, pos, &from);
        }
        if (len && lazy && len < UE_LZSS_MAX_MATCH && pos + 1 < e->vsize) {
            insert(e, pos);
            size_t from2 = 0;
            size_t len2 = find_match(e, pos + 1, &from2);
            if (len2 > len) {
                len = 0; /* emit a literal now, take the longer match next */
                pending_len = len2;
                pending_from = from2;
                have_pending = true;
            }
        } else {
            insert(e, pos);
        }
        if (nitems == 8) {
            flag_at = out->size;
            ue_buf_put_u8(out, 0);
            nitems = 0;
        }
        if (len == 0) {
            if (!out->failed) out->data[flag_at] |= (uint8_t)(1u << nitems);
            ue_buf_put_u8(out, v[pos]);
            pos++;
        } else {
            size_t ring_pos = (ring_start + from) & RING_MASK; /* from - RING ≡ from (mod RING) */
            ue_buf_put_u8(out, (uint8_t)(ring_pos & 0xFF));
            ue_buf_put_u8(out, (uint8_t)(((ring_pos >> 4) & 0xF0) | (len - 3)));
            for (size_t k = 1; k < len; k++) insert(e, pos + k);
            pos += len;
        }
        nitems++;
    }
    free(v);
    free(e);
    return out->failed ? UE_ERR_NOMEM : UE_OK;
}
