/* unearth — LZSS codec shared by Parkan RsLi (method 0x40) and GameCube FSYS entries.
 * The decoder works on the output buffer (no ring copy); the encoder uses hash chains with
 * optional lazy matching over a virtual buffer "ring fill + input". */
#include <stdlib.h>
#include <string.h>

#include "codec/lz_match.h"
#include "unearth/lzss.h"

const ue_lzss_params UE_LZSS_PARKAN = {0x20, UE_LZSS_START, false, 0};
const ue_lzss_params UE_LZSS_GAMECUBE = {0x00, UE_LZSS_START, false, 0};

#define RING_MASK (UE_LZSS_RING - 1u)
/* Matches reach back at most N - F bytes, as Okumura's encoder does, so a reference never
 * depends on ring bytes the same copy is about to overwrite in any decoder variant. */
#define MAX_DISTANCE (UE_LZSS_RING - UE_LZSS_MAX_MATCH)

uint64_t ue_lzss_max_output(size_t in_size) {
    /* Flag bytes produce nothing; a reference gives 18 bytes for 2, a literal 1 for 1. */
    uint64_t groups = in_size / 17u, tail = in_size % 17u;
    uint64_t most = groups * 8u * UE_LZSS_MAX_MATCH;
    if (tail > 0) most += (tail - 1u) / 2u * UE_LZSS_MAX_MATCH + (tail - 1u) % 2u;
    return most;
}

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
            /* Fast path for a whole group of 8 items: with 17 input bytes, 8 × 18 bytes of
             * output room, and every reference inside the output already written (op ≥ ring
             * size), no check is needed per item. */
            if (in_size - ip >= 17 && out_size - op >= 8 * UE_LZSS_MAX_MATCH && op >= UE_LZSS_RING &&
                ip < in_size) {
                unsigned f = in[ip++];
                for (int k = 0; k < 8; k++, f >>= 1) {
                    if (f & 1u) {
                        out[op++] = in[ip++];
                        continue;
                    }
                    unsigned b0 = in[ip], b1 = in[ip + 1];
                    ip += 2;
                    size_t pos = b0 | ((b1 & 0xF0u) << 4), len = (b1 & 0x0Fu) + 3;
                    size_t dist = ((start + op) - pos) & RING_MASK;
                    if (dist == 0) dist = UE_LZSS_RING;
                    const uint8_t *src = out + op - dist;
                    uint8_t *dst = out + op;
                    if (dist >= UE_LZSS_MAX_MATCH) {
                        memcpy(dst, src, UE_LZSS_MAX_MATCH); /* extra bytes are rewritten later */
                    } else {
                        for (size_t c = 0; c < len; c++) dst[c] = src[c]; /* overlap intended */
                    }
                    op += len;
                }
                continue;
            }
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

typedef struct lzss_writer {
    ue_buf *out;
    size_t flag_at;
    unsigned items;    /* items behind the current flag byte */
    size_t ring_start;
    const uint8_t *in;
} lzss_writer;

static void put_token(void *user, size_t at, size_t len, size_t distance) {
    lzss_writer *w = user;
    if (w->items == 8) {
        w->flag_at = w->out->size;
        ue_buf_put_u8(w->out, 0);
        w->items = 0;
    }
    if (len == 0) {
        if (!w->out->failed) w->out->data[w->flag_at] |= (uint8_t)(1u << w->items);
        ue_buf_put_u8(w->out, w->in[at]);
    } else {
        /* The source's ring position: input byte j lives at (start + j) mod N. */
        size_t ring_pos = (w->ring_start + at - distance) & RING_MASK;
        ue_buf_put_u8(w->out, (uint8_t)(ring_pos & 0xFF));
        ue_buf_put_u8(w->out, (uint8_t)(((ring_pos >> 4) & 0xF0) | (len - 3)));
    }
    w->items++;
}

ue_result ue_lzss_encode(const ue_lzss_params *p, int level, const uint8_t *in, size_t in_size,
                         ue_buf *out) {
    ue_lz_params lp = {p->fill, UE_LZSS_MAX_MATCH, MAX_DISTANCE, level};
    lzss_writer w = {out, 0, 8, p->start & RING_MASK, in};
    ue_result r = ue_lz_parse(&lp, in, in_size, put_token, &w);
    if (r != UE_OK) return r;
    return out->failed ? UE_ERR_NOMEM : UE_OK;
}
