/* unearth — LZSS codec shared by Parkan RsLi (method 0x40) and GameCube FSYS entries.
 * The decoder works on the output buffer (no ring copy), or on a sliding window handed out in
 * pieces (lzss_stream.h); the encoder uses hash chains with
 * optional lazy matching over a virtual buffer "ring fill + input". */
#include <stdlib.h>
#include <string.h>

#include "codec/lz_match.h"
#include "codec/lzss_stream.h"
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

/* Input a fast group may read from its flag byte on: the flag, seven references of 2 bytes,
 * then the 8-byte copy of a literal run. */
#define FAST_GROUP_INPUT (1u + 7u * 2u + 8u)

/* How many literals the flag bits `f` (at most 8 of them, the rest zero) begin with. */
static inline unsigned literal_run(unsigned f) {
#if defined(__GNUC__)
    return (unsigned)__builtin_ctz(~f | 0x100u);
#else
    unsigned n = 0;
    for (; f & 1u; f >>= 1) n++;
    return n;
#endif
}

/* Where a decode stands: the input position, the flag bits left, and the output written so far
 * into `out` (the caller's whole buffer, or a window whose first byte is output byte `base`). */
typedef struct decode_state {
    size_t ip, op;
    unsigned flags;
    uint64_t base;
    size_t start; /* ring position of out[0]: (params start + base) mod ring */
} decode_state;

/* Decodes items into `out` from st->op while st->op < op_stop, or until the first error; an
 * item may end past op_stop but never past op_limit, where the output ends or the buffer does
 * (a reference is cut only there). References reach back at most one ring: a window keeps
 * UE_LZSS_RING bytes of history before st->op once base > 0. */
static ue_result decode_run(const ue_lzss_params *p, const uint8_t *in, size_t in_size,
                            uint8_t *out, size_t op_stop, size_t op_limit, decode_state *st,
                            uint64_t total, ue_diag *d, uint64_t diag_base, const char *diag_path) {
    size_t ip = st->ip, op = st->op;
    unsigned flags = st->flags;
    const uint8_t fill = p->fill;
    const size_t start = st->start;
    ue_result result = UE_OK;

    while (op < op_stop) {
        if ((flags & 0x100u) == 0) {
            /* Fast path for a whole group of 8 items: with FAST_GROUP_INPUT input bytes, 8 × 18
             * bytes of output room, and every reference inside the output already written
             * (op ≥ ring size), no check is needed per item. */
            if (in_size - ip >= FAST_GROUP_INPUT && op_limit - op >= 8 * UE_LZSS_MAX_MATCH &&
                op >= UE_LZSS_RING) {
                unsigned f = in[ip++];
                if (f == 0xFFu) { /* eight literals: incompressible data */
                    memcpy(out + op, in + ip, 8);
                    op += 8, ip += 8;
                    continue;
                }
                unsigned items = 8;
                for (;;) {
                    /* A run of literals is one 8-byte copy, not a branch per flag bit (literal
                     * or reference is a coin toss on real data); bytes past the run are
                     * rewritten by the next items. */
                    unsigned run = literal_run(f);
                    memcpy(out + op, in + ip, 8);
                    op += run, ip += run, f >>= run, items -= run;
                    if (items == 0) break;
                    unsigned b0 = in[ip], b1 = in[ip + 1];
                    ip += 2;
                    size_t pos = b0 | ((b1 & 0xF0u) << 4), len = (b1 & 0x0Fu) + 3;
                    size_t dist = ((start + op) - pos) & RING_MASK;
                    if (dist == 0) dist = UE_LZSS_RING;
                    const uint8_t *src = out + op - dist;
                    uint8_t *dst = out + op;
                    if (dist >= UE_LZSS_MAX_MATCH) {
                        memcpy(dst, src, UE_LZSS_MAX_MATCH); /* extra bytes are rewritten later */
                    } else if (dist >= 8) {
                        memcpy(dst, src, 8); /* 8-byte steps never read what they write */
                        memcpy(dst + 8, src + 8, 8);
                        memcpy(dst + 16, src + 16, 2);
                    } else {
                        for (size_t c = 0; c < len; c++) dst[c] = src[c]; /* overlap intended */
                    }
                    op += len;
                    f >>= 1;
                    if (--items == 0) break;
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
            if (len > op_limit - op) len = op_limit - op;
            if (p->forbid_prefill && dist > op + p->prefill_reach) {
                ue_diag_add(d, UE_SEV_ERROR, "lzss.before_start", diag_base + ip - 2, diag_path,
                            "back-reference %zu bytes back at output byte %llu reaches before "
                            "the start of the output",
                            dist, (unsigned long long)(st->base + op));
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
    st->ip = ip, st->op = op, st->flags = flags;
    return result;

truncated:
    st->ip = ip, st->op = op, st->flags = flags;
    ue_diag_add(d, UE_SEV_ERROR, "lzss.truncated", diag_base + ip, diag_path,
                "compressed stream ends after %zu bytes, having produced %llu of %llu bytes", ip,
                (unsigned long long)(st->base + op), (unsigned long long)total);
    return UE_ERR_INVALID;
}

ue_result ue_lzss_decode(const ue_lzss_params *p, const uint8_t *in, size_t in_size,
                         uint8_t *out, size_t out_size, ue_lzss_stats *stats, ue_diag *d,
                         uint64_t diag_base, const char *diag_path) {
    decode_state st = {0, 0, 0, 0, p->start & RING_MASK};
    ue_result r = decode_run(p, in, in_size, out, out_size, out_size, &st, out_size, d, diag_base,
                             diag_path);
    if (stats) {
        stats->consumed = st.ip;
        stats->produced = st.op;
    }
    return r;
}

ue_result ue_lzss_decode_pieces(const ue_lzss_params *p, const uint8_t *in, size_t in_size,
                                uint8_t *out, size_t out_size, size_t piece, ue_lzss_emit_fn emit,
                                void *ctx, ue_lzss_stats *stats, ue_diag *d, uint64_t diag_base,
                                const char *diag_path) {
    if (piece == 0) return UE_ERR_USAGE;
    decode_state st = {0, 0, 0, 0, p->start & RING_MASK};
    ue_result r = UE_OK;
    /* Stopping between items and going on later is the same decode as one run to the end. */
    while (r == UE_OK && st.op < out_size) {
        size_t from = st.op, stop = out_size - from > piece ? from + piece : out_size;
        r = decode_run(p, in, in_size, out, stop, out_size, &st, out_size, d, diag_base, diag_path);
        if (r == UE_OK) r = emit(ctx, from, out + from, st.op - from);
    }
    if (stats) {
        stats->consumed = st.ip;
        stats->produced = st.op;
    }
    return r;
}

ue_result ue_lzss_decode_chunks(const ue_lzss_params *p, const uint8_t *in, size_t in_size,
                                uint64_t out_size, uint8_t *window, size_t window_size,
                                ue_lzss_emit_fn emit, void *ctx, ue_lzss_stats *stats,
                                ue_diag *d, uint64_t diag_base, const char *diag_path) {
    if (window_size < UE_LZSS_WINDOW_MIN) return UE_ERR_USAGE;
    decode_state st = {0, 0, 0, 0, p->start & RING_MASK};
    size_t emitted = 0; /* window bytes already handed to emit */
    ue_result r = UE_OK;
    while (r == UE_OK && st.base + st.op < out_size) {
        /* Items start before `stop`, so the longest one still ends inside the window. */
        uint64_t left = out_size - st.base;
        size_t limit = left < window_size ? (size_t)left : window_size;
        size_t stop = limit < window_size ? limit : window_size - UE_LZSS_MAX_MATCH;
        r = decode_run(p, in, in_size, window, stop, limit, &st, out_size, d, diag_base, diag_path);
        if (r == UE_OK) r = emit(ctx, st.base + emitted, window + emitted, st.op - emitted);
        emitted = st.op;
        if (r != UE_OK || st.base + st.op >= out_size) break;
        /* Slide: the last ring's worth of output stays as the history references reach. */
        size_t keep = UE_LZSS_RING, drop = st.op - keep;
        memmove(window, window + drop, keep);
        st.base += drop;
        st.op = emitted = keep;
        st.start = (st.start + drop) & RING_MASK;
    }
    if (stats) {
        stats->consumed = st.ip;
        stats->produced = (size_t)(st.base + st.op);
    }
    return r;
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
