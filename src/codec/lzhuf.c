/* unearth — LZHUF (RsLi method 0x080): LZSS with a 4096-byte ring and matches of 3..60 whose
 * symbols go through Okumura's adaptive Huffman tree; decoder and an encoder it accepts. */
#include <stdlib.h>
#include <string.h>

#include "codec/lz_match.h"
#include "unearth/codec.h"

#define N UE_LZHUF_RING
#define RING_MASK (N - 1u)
#define F UE_LZHUF_MAX_MATCH
#define THRESHOLD 2u
#define N_CHAR (256u - THRESHOLD + F) /* 314 symbols: 256 literals + match lengths 3..60 */
#define T (N_CHAR * 2u - 1u)          /* 627 tree nodes */
#define ROOT (T - 1u)                 /* 626 */
#define MAX_FREQ 0x8000u

/* ---- adaptive Huffman tree (shared by both directions so they stay in lock-step) --------- */

typedef struct huff {
    /* freq[T] is a sentinel larger than any real count, so the "find the last node with a
     * smaller count" scan in update() always stops inside the array. */
    uint32_t freq[T + 1];
    /* prnt[0..T-1]: parent of an internal position; prnt[T + sym]: position holding leaf sym. */
    uint16_t prnt[T + N_CHAR];
    /* son[i] >= T: leaf (symbol son[i] - T); otherwise the left child (right is son[i] + 1). */
    uint16_t son[T];
} huff;

static void huff_start(huff *h) {
    for (unsigned i = 0; i < N_CHAR; i++) {
        h->freq[i] = 1;
        h->son[i] = (uint16_t)(i + T);
        h->prnt[i + T] = (uint16_t)i;
    }
    for (unsigned i = 0, j = N_CHAR; j <= ROOT; i += 2, j++) {
        h->freq[j] = h->freq[i] + h->freq[i + 1];
        h->son[j] = (uint16_t)i;
        h->prnt[i] = h->prnt[i + 1] = (uint16_t)j;
    }
    h->freq[T] = 0xFFFFu;
    h->prnt[ROOT] = 0;
}

/* Halves every count and rebuilds the internal nodes, keeping freq[] non-decreasing. Okumura's
 * memmove of "(j - k) * 2" bytes assumed 16-bit ints; the intent (move j - k nodes) is kept. */
static void huff_reconstruct(huff *h) {
    unsigned j = 0;
    for (unsigned i = 0; i < T; i++) {
        if (h->son[i] >= T) {
            h->freq[j] = (h->freq[i] + 1u) / 2u;
            h->son[j] = h->son[i];
            j++;
        }
    }
    for (unsigned i = 0, jj = N_CHAR; jj < T; i += 2, jj++) {
        uint32_t f = h->freq[i] + h->freq[i + 1];
        unsigned k = jj;
        /* Insert after every node with a count <= f (k never drops below i + 2 because the
         * two summed nodes precede jj and each is <= f). */
        while (k > 0 && f < h->freq[k - 1]) k--;
        for (unsigned m = jj; m > k; m--) {
            h->freq[m] = h->freq[m - 1];
            h->son[m] = h->son[m - 1];
        }
        h->freq[k] = f;
        h->son[k] = (uint16_t)i;
    }
    for (unsigned i = 0; i < T; i++) {
        unsigned k = h->son[i];
        if (k >= T) {
            h->prnt[k] = (uint16_t)i;
        } else {
            h->prnt[k] = h->prnt[k + 1] = (uint16_t)i;
        }
    }
}

/* Counts one more occurrence of `sym` and restores the sibling property by swapping the
 * incremented node with the last node of a smaller count, all the way up to the root. */
static void huff_update(huff *h, unsigned sym) {
    if (h->freq[ROOT] == MAX_FREQ) huff_reconstruct(h);
    unsigned c = h->prnt[sym + T];
    do {
        uint32_t k = ++h->freq[c];
        unsigned l = c + 1;
        if (k > h->freq[l]) {
            /* freq[] is non-decreasing (the sibling property), so the last node with a count
             * below k can be found by galloping then bisecting; this gives the node Okumura's
             * linear scan finds without crawling through long runs of equal counts. The
             * sentinel freq[T] bounds every probe. */
            unsigned step = 1, hi;
            for (;;) {
                hi = l + step;
                if (hi >= T || h->freq[hi] >= k) break;
                l = hi;
                step <<= 1;
            }
            if (hi > T) hi = T;
            while (hi - l > 1) {
                unsigned mid = l + (hi - l) / 2;
                if (h->freq[mid] < k) l = mid;
                else hi = mid;
            }
            h->freq[c] = h->freq[l];
            h->freq[l] = k;

            unsigned i = h->son[c];
            h->prnt[i] = (uint16_t)l;
            if (i < T) h->prnt[i + 1] = (uint16_t)l;

            unsigned j = h->son[l];
            h->son[l] = (uint16_t)i;
            h->prnt[j] = (uint16_t)c;
            if (j < T) h->prnt[j + 1] = (uint16_t)c;
            h->son[c] = (uint16_t)j;

            c = l;
        }
        c = h->prnt[c];
    } while (c != 0);
}

/* ---- position code tables ------------------------------------------------------------------ */

/* The upper 6 bits of a match position use a fixed prefix code of 3..8 bits: groups of
 * 1, 3, 8, 12, 24, 16 codes with those lengths. Indexed by the next 8 input bits, d_code gives
 * the upper bits and d_len the prefix length; p_code/p_len are the inverse for the encoder. */
typedef struct pos_tables {
    uint8_t d_code[256], d_len[256];
    uint8_t p_code[64], p_len[64];
} pos_tables;

static void pos_tables_build(pos_tables *t) {
    static const uint8_t codes[6] = {1, 3, 8, 12, 24, 16};
    unsigned i = 0, code = 0;
    for (unsigned g = 0; g < 6; g++) {
        unsigned len = 3 + g, reps = 1u << (8 - len);
        for (unsigned c = 0; c < codes[g]; c++, code++) {
            t->p_len[code] = (uint8_t)len;
            t->p_code[code] = (uint8_t)(i >> (8 - len));
            for (unsigned r = 0; r < reps; r++, i++) {
                t->d_code[i] = (uint8_t)code;
                t->d_len[i] = (uint8_t)len;
            }
        }
    }
}

/* ---- decoder ------------------------------------------------------------------------------- */

typedef struct bit_reader {
    const uint8_t *in;
    size_t bit_pos;
    size_t bit_end;
    bool exhausted;
} bit_reader;

static inline unsigned get_bit(bit_reader *b) {
    if (b->bit_pos >= b->bit_end) {
        b->exhausted = true;
        return 0;
    }
    size_t p = b->bit_pos++;
    return (b->in[p >> 3] >> (7u - (p & 7u))) & 1u;
}

static inline unsigned get_byte(bit_reader *b) {
    if (b->bit_end - b->bit_pos < 8) {
        b->exhausted = true;
        b->bit_pos = b->bit_end;
        return 0;
    }
    size_t p = b->bit_pos;
    unsigned sh = (unsigned)(p & 7u);
    unsigned v = (unsigned)b->in[p >> 3] << 8;
    if (sh) v |= b->in[(p >> 3) + 1]; /* in range: the 8 bits straddle into this byte */
    b->bit_pos += 8;
    return (v >> (8u - sh)) & 0xFFu;
}

typedef struct lzhuf_dec {
    huff h;
    pos_tables t;
    uint8_t ring[N];
} lzhuf_dec;

/* Fewest bits a match can cost: one for its symbol (a leaf may sit right under the root),
 * 8 + at least 1 for its position. */
#define MIN_MATCH_BITS 10u

#define MAX_BYTES_PER_INPUT_BYTE (8u * F / MIN_MATCH_BITS) /* 48 */

uint64_t ue_lzhuf_max_output(size_t in_size) {
    if ((uint64_t)in_size > UINT64_MAX / MAX_BYTES_PER_INPUT_BYTE) return UINT64_MAX;
    return (uint64_t)in_size * MAX_BYTES_PER_INPUT_BYTE;
}

ue_result ue_lzhuf_decode(const uint8_t *in, size_t in_size, uint8_t *out, size_t out_size,
                          ue_codec_stats *stats, ue_diag *d, uint64_t diag_base,
                          const char *diag_path) {
    if (stats) stats->consumed = stats->produced = 0;
    if (out_size == 0) return UE_OK;
    if ((uint64_t)out_size > ue_lzhuf_max_output(in_size)) {
        ue_diag_add(d, UE_SEV_ERROR, "lzhuf.size_limit", diag_base, diag_path,
                    "declared size %zu cannot come from %zu LZHUF bytes (at most %llu)", out_size,
                    in_size, (unsigned long long)ue_lzhuf_max_output(in_size));
        return UE_ERR_INVALID;
    }
    lzhuf_dec *s = malloc(sizeof *s);
    if (!s) return UE_ERR_NOMEM;
    huff_start(&s->h);
    pos_tables_build(&s->t);
    /* The whole ring starts as spaces (Okumura fills only N - F; his encoder never reads the
     * rest before writing it, so the two agree on every stream such an encoder makes). */
    memset(s->ring, 0x20, sizeof s->ring);
    unsigned r = N - F;

    bit_reader b = {in, 0, in_size > SIZE_MAX / 8 ? SIZE_MAX : in_size * 8, false};
    size_t op = 0;
    ue_result result = UE_OK;
    size_t sym_start = 0;
    huff *h = &s->h;
    while (op < out_size) {
        sym_start = b.bit_pos;
        unsigned c = h->son[ROOT];
        while (c < T) c = h->son[c + get_bit(&b)];
        c -= T;
        if (b.exhausted) goto truncated;
        huff_update(h, c);
        if (c < 256) {
            out[op++] = (uint8_t)c;
            s->ring[r] = (uint8_t)c;
            r = (r + 1) & RING_MASK;
            continue;
        }
        unsigned len = c - 253u; /* symbols 256..313 are lengths 3..60 */
        unsigned i = get_byte(&b);
        unsigned upper = (unsigned)s->t.d_code[i] << 6;
        for (unsigned k = s->t.d_len[i] - 2u; k > 0; k--) i = (i << 1) | get_bit(&b);
        if (b.exhausted) goto truncated;
        unsigned pos = upper | (i & 0x3Fu);
        if (len > out_size - op) {
            ue_diag_add(d, UE_SEV_ERROR, "lzhuf.overflow", diag_base + sym_start / 8, diag_path,
                        "match of %u bytes at output byte %zu passes the declared size %zu",
                        len, op, out_size);
            result = UE_ERR_INVALID;
            break;
        }
        unsigned from = (r - pos - 1u) & RING_MASK;
        for (unsigned k = 0; k < len; k++) {
            uint8_t v = s->ring[(from + k) & RING_MASK];
            out[op++] = v;
            s->ring[r] = v;
            r = (r + 1) & RING_MASK;
        }
    }
    if (stats) {
        stats->consumed = (b.bit_pos + 7) / 8;
        stats->produced = op;
    }
    free(s);
    return result;

truncated:
    if (stats) {
        stats->consumed = in_size;
        stats->produced = op;
    }
    ue_diag_add(d, UE_SEV_ERROR, "lzhuf.truncated", diag_base + in_size, diag_path,
                "input ends at offset %zu inside the symbol that starts at bit %zu, having "
                "produced %zu of %zu bytes",
                in_size, sym_start, op, out_size);
    free(s);
    return UE_ERR_INVALID;
}

/* ---- encoder ------------------------------------------------------------------------------- */

typedef struct bit_writer {
    ue_buf *out;
    uint32_t acc;
    unsigned n;
} bit_writer;

static inline void put_bits(bit_writer *w, uint32_t value, unsigned count) {
    /* count <= 24 so acc (holding < 8 pending bits) never overflows. */
    w->acc = (w->acc << count) | (value & ((1u << count) - 1u));
    w->n += count;
    while (w->n >= 8) {
        w->n -= 8;
        ue_buf_put_u8(w->out, (uint8_t)(w->acc >> w->n));
    }
    w->acc &= (1u << w->n) - 1u;
}

static void put_symbol(bit_writer *w, huff *h, unsigned sym) {
    /* Walk leaf → root; a node's parity says which child it is (left children always sit at
     * even positions), so the bits come out reversed and are replayed from the stack. */
    uint8_t path[T];
    unsigned len = 0;
    unsigned k = h->prnt[sym + T];
    do {
        path[len++] = (uint8_t)(k & 1u);
        k = h->prnt[k];
    } while (k != ROOT && len < T);
    while (len > 0) put_bits(w, path[--len], 1);
    huff_update(h, sym);
}

/* Okumura's encoder reaches back at most N - F bytes: a source byte is then never overwritten
 * while its own copy runs, and the unfilled ring tail of his decoder is never read. */
#define MAX_DISTANCE (N - F)

typedef struct lzhuf_writer {
    huff h;
    pos_tables t;
    bit_writer w;
    const uint8_t *in;
} lzhuf_writer;

static void put_token(void *user, size_t at, size_t len, size_t distance) {
    lzhuf_writer *e = user;
    if (len == 0) {
        put_symbol(&e->w, &e->h, e->in[at]);
        return;
    }
    put_symbol(&e->w, &e->h, (unsigned)(253 + len));
    unsigned p = (unsigned)(distance - 1); /* 0..MAX_DISTANCE-1 */
    unsigned upper = p >> 6;
    put_bits(&e->w, e->t.p_code[upper], e->t.p_len[upper]);
    put_bits(&e->w, p & 0x3Fu, 6);
}

ue_result ue_lzhuf_encode(int level, const uint8_t *in, size_t in_size, ue_buf *out) {
    lzhuf_writer *e = malloc(sizeof *e);
    if (!e) return UE_ERR_NOMEM;
    huff_start(&e->h);
    pos_tables_build(&e->t);
    e->w = (bit_writer){out, 0, 0};
    e->in = in;
    /* The ring starts as spaces; input byte n lands at ring position (N − F + n) mod N. */
    ue_lz_params lp = {0x20, F, MAX_DISTANCE, level};
    ue_result r = ue_lz_parse(&lp, in, in_size, put_token, e);
    if (r == UE_OK && e->w.n) put_bits(&e->w, 0, 8 - e->w.n);
    free(e);
    if (r != UE_OK) return r;
    return out->failed ? UE_ERR_NOMEM : UE_OK;
}
