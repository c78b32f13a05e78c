/* Tests of the shared LZSS codec: the spec's hand-made vectors for both ring fills, overlap
 * semantics, truncation errors, and encoder output checked by an independent ring decoder. */
#include "test.h"
#include "unearth/lzss.h"
#include "codec/lzss_stream.h"

/* The decoder exactly as the spec writes it (a real 4096-byte ring), kept separate from the
 * library's ring-free decoder so the two cannot share a misunderstanding. */
static int ring_decode(uint8_t fill, const uint8_t *in, size_t n, uint8_t *out, size_t out_size) {
    uint8_t ring[4096];
    memset(ring, fill, sizeof ring);
    size_t r = 0xFEE, ip = 0, op = 0;
    unsigned flags = 0;
    while (op < out_size) {
        if ((flags & 0x100) == 0) {
            if (ip >= n) return -1;
            flags = in[ip++] | 0xFF00u;
        }
        if (flags & 1) {
            if (ip >= n) return -1;
            uint8_t c = in[ip++];
            out[op++] = c;
            ring[r] = c;
            r = (r + 1) & 0xFFF;
        } else {
            if (ip + 2 > n) return -1;
            size_t pos = in[ip] | ((in[ip + 1] & 0xF0u) << 4);
            size_t len = (in[ip + 1] & 0x0Fu) + 3;
            ip += 2;
            for (size_t k = 0; k < len && op < out_size; k++) {
                uint8_t c = ring[(pos + k) & 0xFFF];
                out[op++] = c;
                ring[r] = c;
                r = (r + 1) & 0xFFF;
            }
        }
        flags >>= 1;
    }
    return (int)ip;
}

static void spec_vectors_parkan(void) {
    uint8_t out[8];
    const uint8_t abc[] = {0x07, 0x41, 0x42, 0x43};
    ue_lzss_stats st;
    CHECK_EQ_U(ue_lzss_decode(&UE_LZSS_PARKAN, abc, sizeof abc, out, 3, &st, NULL, 0, "t"), UE_OK);
    CHECK_MEM(out, "ABC", 3);
    CHECK_EQ_U(st.consumed, 4);
    const uint8_t spaces[] = {0x00, 0xFF, 0xF1}; /* ring position 0xFFF, length 4 */
    CHECK_EQ_U(ue_lzss_decode(&UE_LZSS_PARKAN, spaces, sizeof spaces, out, 4, NULL, NULL, 0, "t"), UE_OK);
    CHECK_MEM(out, "    ", 4);
}

static void gamecube_ring_starts_with_zeros(void) {
    uint8_t out[4] = {1, 1, 1, 1};
    const uint8_t zeros[] = {0x00, 0xFF, 0xF1};
    CHECK_EQ_U(ue_lzss_decode(&UE_LZSS_GAMECUBE, zeros, sizeof zeros, out, 4, NULL, NULL, 0, "t"), UE_OK);
    const uint8_t want[4] = {0, 0, 0, 0};
    CHECK_MEM(out, want, 4);
    /* The same stream is an error when references before the output start are forbidden. */
    ue_lzss_params strict = UE_LZSS_GAMECUBE;
    strict.forbid_prefill = true;
    ue_diag d = {0};
    CHECK_EQ_U(ue_lzss_decode(&strict, zeros, sizeof zeros, out, 4, NULL, &d, 0x20, "lzss"), UE_ERR_INVALID);
    REQUIRE(d.count == 1);
    CHECK_STR(d.items[0].code, "lzss.before_start");
    CHECK_EQ_U(d.items[0].offset, 0x21); /* the reference's first byte, after the flag byte */
    ue_diag_free(&d);
}

static void overlapping_match_repeats(void) {
    /* Literal 'A' at ring 0xFEE, then copy 5 bytes from 0xFEE: "AAAAAA". Then literals "xy". */
    const uint8_t s[] = {0x0D, 0x41, 0xEE, 0xF2, 'x', 'y'};
    uint8_t out[8];
    CHECK_EQ_U(ue_lzss_decode(&UE_LZSS_GAMECUBE, s, sizeof s, out, 8, NULL, NULL, 0, "t"), UE_OK);
    CHECK_MEM(out, "AAAAAAxy", 8);
    uint8_t ref[8];
    CHECK_EQ_U(ring_decode(0, s, sizeof s, ref, 8), 6);
    CHECK_MEM(out, ref, 8);
}

static void truncated_stream_names_offset(void) {
    const uint8_t s[] = {0xFF, 'a', 'b'};
    uint8_t out[10];
    ue_diag d = {0};
    ue_lzss_stats st;
    CHECK_EQ_U(ue_lzss_decode(&UE_LZSS_PARKAN, s, sizeof s, out, 10, &st, &d, 100, "rsli/entry[0]"),
               UE_ERR_INVALID);
    REQUIRE(d.count == 1);
    CHECK_STR(d.items[0].code, "lzss.truncated");
    CHECK_EQ_U(d.items[0].offset, 103);
    CHECK_EQ_U(st.produced, 2);
    ue_diag_free(&d);
    /* A back-reference cut in half is also truncation. */
    const uint8_t half[] = {0x00, 0xEE};
    CHECK_EQ_U(ue_lzss_decode(&UE_LZSS_PARKAN, half, sizeof half, out, 3, NULL, NULL, 0, "t"), UE_ERR_INVALID);
}

static uint8_t *make_corpus(size_t n, int kind) {
    uint8_t *p = malloc(n ? n : 1);
    uint32_t x = 12345u + (uint32_t)kind;
    static const char words[][8] = {"robot ", "mesh ", "node ", "tex ", "\x00\x00\x00\x00", "LOD0 "};
    size_t i = 0;
    while (i < n) {
        x = x * 1664525u + 1013904223u;
        if (kind == 0) {
            p[i++] = (uint8_t)(x >> 24);
        } else if (kind == 1) {
            const char *w = words[(x >> 16) % 6];
            size_t len = (x >> 16) % 6 == 4 ? 4 : strlen(w);
            for (size_t k = 0; k < len && i < n; k++) p[i++] = (uint8_t)w[k];
        } else {
            size_t run = (x >> 20) % 40 + 1;
            uint8_t c = (x >> 10) & 1 ? 0 : (uint8_t)(x >> 24);
            for (size_t k = 0; k < run && i < n; k++) p[i++] = c;
        }
    }
    return p;
}

static void encoder_round_trips(void) {
    const size_t sizes[] = {0, 1, 2, 3, 17, 18, 19, 4095, 4096, 4097, 70000};
    const ue_lzss_params *params[] = {&UE_LZSS_PARKAN, &UE_LZSS_GAMECUBE};
    for (size_t p = 0; p < 2; p++)
        for (int kind = 0; kind < 3; kind++)
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
                for (int level = 0; level <= 9; level += 9) {
                    size_t n = sizes[s];
                    uint8_t *src = make_corpus(n, kind);
                    ue_buf enc = {0};
                    REQUIRE(ue_lzss_encode(params[p], level, src, n, &enc) == UE_OK);
                    uint8_t *dec = malloc(n + 1), *ref = malloc(n + 1);
                    ue_lzss_stats st = {0};
                    CHECK_EQ_U(ue_lzss_decode(params[p], enc.data, enc.size, dec, n, &st, NULL, 0, "t"), UE_OK);
                    CHECK(n == 0 || memcmp(dec, src, n) == 0);
                    CHECK_EQ_U(st.consumed, enc.size);
                    /* The spec's ring decoder reads the same stream to the same bytes. */
                    int used = ring_decode(params[p]->fill, enc.data, enc.size, ref, n);
                    CHECK(used >= 0 && (size_t)used == enc.size);
                    CHECK(n == 0 || memcmp(ref, src, n) == 0);
                    free(src);
                    free(dec);
                    free(ref);
                    ue_buf_free(&enc);
                }
}

static void leading_run_uses_the_ring_fill(void) {
    /* 64 zero bytes with the GameCube ring: the encoder may reference the zero fill, so the
     * whole run costs far fewer bytes than literals would. */
    uint8_t zeros[64] = {0};
    ue_buf enc = {0};
    REQUIRE(ue_lzss_encode(&UE_LZSS_GAMECUBE, 6, zeros, sizeof zeros, &enc) == UE_OK);
    CHECK(enc.size <= 10);
    uint8_t dec[64];
    CHECK_EQ_U(ring_decode(0, enc.data, enc.size, dec, 64), enc.size);
    CHECK_MEM(dec, zeros, 64);
    ue_buf_free(&enc);
}

static void lazy_beats_or_ties_greedy(void) {
    size_t n = 200000;
    uint8_t *src = make_corpus(n, 1);
    ue_buf greedy = {0}, lazy = {0};
    REQUIRE(ue_lzss_encode(&UE_LZSS_GAMECUBE, 0, src, n, &greedy) == UE_OK);
    REQUIRE(ue_lzss_encode(&UE_LZSS_GAMECUBE, 9, src, n, &lazy) == UE_OK);
    CHECK(lazy.size <= greedy.size);
    CHECK(lazy.size < n / 2); /* text-like data compresses at least 2:1 */
    free(src);
    ue_buf_free(&greedy);
    ue_buf_free(&lazy);
}

/* Hand-counted bounds: a flag byte alone gives nothing, a literal 1 byte, a reference 18; a
 * whole group (flag + 8 references = 17 bytes) 144. */
static void max_output_counts_flags_and_references(void) {
    CHECK_EQ_U(ue_lzss_max_output(0), 0);
    CHECK_EQ_U(ue_lzss_max_output(1), 0);
    CHECK_EQ_U(ue_lzss_max_output(2), 1);
    CHECK_EQ_U(ue_lzss_max_output(3), 18);
    CHECK_EQ_U(ue_lzss_max_output(4), 19);
    CHECK_EQ_U(ue_lzss_max_output(17), 144);
    CHECK_EQ_U(ue_lzss_max_output(18), 144);
    CHECK_EQ_U(ue_lzss_max_output(20), 162);
    CHECK_EQ_U(ue_lzss_max_output(1700), 14400);
}

/* A group of eight 18-byte references to the ring start (EE FF: position 0xFEE, length 18)
 * reaches the bound exactly; asking for more, even 1 MiB, only decodes what the 17 bytes hold. */
static void small_stream_claiming_more_stays_bounded(void) {
    uint8_t s[17] = {0x00};
    for (int k = 0; k < 8; k++) {
        s[1 + 2 * k] = 0xEE;
        s[2 + 2 * k] = 0xFF;
    }
    uint8_t out[144];
    ue_lzss_stats st;
    CHECK_EQ_U(ue_lzss_decode(&UE_LZSS_PARKAN, s, sizeof s, out, sizeof out, &st, NULL, 0, "t"),
               UE_OK);
    CHECK_EQ_U(st.consumed, 17);
    uint8_t spaces[144];
    memset(spaces, ' ', sizeof spaces);
    CHECK_MEM(out, spaces, sizeof spaces);

    size_t big = (size_t)1 << 20;
    uint8_t *buf = malloc(big);
    REQUIRE(buf);
    ue_diag d = {0};
    CHECK_EQ_U(ue_lzss_decode(&UE_LZSS_PARKAN, s, sizeof s, buf, big, &st, &d, 0, "t"),
               UE_ERR_INVALID);
    CHECK_EQ_U(st.produced, ue_lzss_max_output(sizeof s));
    CHECK_EQ_U(st.consumed, 17);
    CHECK_STR(d.items[0].code, "lzss.truncated");
    ue_diag_free(&d);
    free(buf);

    /* Our encoder's densest stream (zeros with the zero fill) respects the same bound. */
    uint8_t *zeros = calloc(big, 1);
    REQUIRE(zeros);
    ue_buf b = {0};
    REQUIRE(ue_lzss_encode(&UE_LZSS_GAMECUBE, 9, zeros, big, &b) == UE_OK);
    CHECK(ue_lzss_max_output(b.size) >= big);
    ue_buf_free(&b);
    free(zeros);
}

/* The chunked decoder: what it hands out, in order and without gaps, is what the whole
 * decode writes, for windows that slide many times, and its failures read the same. */
typedef struct collected {
    uint8_t *out;
    uint64_t next;
} collected;

static ue_result collect(void *ctx, uint64_t at, const uint8_t *data, size_t n) {
    collected *c = ctx;
    CHECK_EQ_U(at, c->next);
    memcpy(c->out + at, data, n);
    c->next = at + n;
    return UE_OK;
}

static void chunked_decode_equals_whole(void) {
    const size_t sizes[] = {0, 1, 8191, 8192, 8193, 70000, 300000};
    const size_t windows[] = {UE_LZSS_WINDOW_MIN, UE_LZSS_WINDOW_MIN + 1, 20000, 65536};
    uint8_t window[65536];
    for (int kind = 0; kind < 3; kind++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            size_t n = sizes[s];
            uint8_t *src = make_corpus(n, kind);
            ue_buf enc = {0};
            REQUIRE(ue_lzss_encode(&UE_LZSS_GAMECUBE, 6, src, n, &enc) == UE_OK);
            for (size_t w = 0; w < sizeof windows / sizeof windows[0]; w++) {
                collected c = {malloc(n + 1), 0};
                ue_lzss_stats st = {0};
                CHECK_EQ_U(ue_lzss_decode_chunks(&UE_LZSS_GAMECUBE, enc.data, enc.size, n, window,
                                                 windows[w], collect, &c, &st, NULL, 0, "t"),
                           UE_OK);
                CHECK_EQ_U(c.next, n);
                CHECK(n == 0 || memcmp(c.out, src, n) == 0);
                CHECK_EQ_U(st.consumed, enc.size);
                CHECK_EQ_U(st.produced, n);
                free(c.out);
            }
            /* Cut short: the same error at the same offset, after the same output. */
            if (n > 8192) {
                uint8_t *whole = malloc(n);
                ue_diag d1 = {0}, d2 = {0};
                ue_lzss_stats s1, s2;
                collected c = {malloc(n), 0};
                size_t cut = enc.size / 2;
                CHECK_EQ_U(ue_lzss_decode(&UE_LZSS_GAMECUBE, enc.data, cut, whole, n, &s1, &d1, 7, "t"),
                           UE_ERR_INVALID);
                CHECK_EQ_U(ue_lzss_decode_chunks(&UE_LZSS_GAMECUBE, enc.data, cut, n, window,
                                                 UE_LZSS_WINDOW_MIN, collect, &c, &s2, &d2, 7, "t"),
                           UE_ERR_INVALID);
                REQUIRE(d1.count == 1 && d2.count == 1);
                CHECK_STR(d2.items[0].message, d1.items[0].message);
                CHECK_EQ_U(d2.items[0].offset, d1.items[0].offset);
                CHECK_EQ_U(s2.produced, s1.produced);
                ue_diag_free(&d1), ue_diag_free(&d2);
                free(whole), free(c.out);
            }
            free(src);
            ue_buf_free(&enc);
        }
    /* A window too small to hold a ring of history is refused. */
    collected none = {NULL, 0};
    CHECK_EQ_U(ue_lzss_decode_chunks(&UE_LZSS_GAMECUBE, NULL, 0, 0, window, UE_LZSS_RING, collect,
                                     &none, NULL, NULL, 0, "t"),
               UE_ERR_USAGE);
}

/* The whole-buffer decoder that hands out its pieces: each piece is the stretch of the output
 * just decoded (in order, no gaps, at most one group of 8 items past the piece size), the output is the
 * whole decode's, and a stream cut short fails as the whole decode does. */
typedef struct pieces_seen {
    const uint8_t *out;
    uint64_t next;
    size_t piece, largest;
} pieces_seen;

static ue_result see_piece(void *ctx, uint64_t at, const uint8_t *data, size_t n) {
    pieces_seen *p = ctx;
    CHECK_EQ_U(at, p->next);
    CHECK(data == p->out + at);
    CHECK(n > 0);
    if (n > p->largest) p->largest = n;
    p->next = at + n;
    return UE_OK;
}

static void pieces_decode_equals_whole(void) {
    const size_t sizes[] = {0, 1, 4096, 70000, 300000};
    const size_t pieces[] = {1, 100, 4096, 65536};
    for (int kind = 0; kind < 3; kind++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            size_t n = sizes[s];
            uint8_t *src = make_corpus(n, kind), *out = malloc(n + 1);
            ue_buf enc = {0};
            REQUIRE(ue_lzss_encode(&UE_LZSS_GAMECUBE, 6, src, n, &enc) == UE_OK);
            for (size_t k = 0; k < sizeof pieces / sizeof pieces[0]; k++) {
                pieces_seen p = {out, 0, pieces[k], 0};
                ue_lzss_stats st = {0};
                memset(out, 0xA5, n + 1);
                CHECK_EQ_U(ue_lzss_decode_pieces(&UE_LZSS_GAMECUBE, enc.data, enc.size, out, n,
                                                 pieces[k], see_piece, &p, &st, NULL, 0, "t"),
                           UE_OK);
                CHECK_EQ_U(p.next, n);
                CHECK(p.largest < pieces[k] + 8 * UE_LZSS_MAX_MATCH); /* one group of items past */
                CHECK(n == 0 || memcmp(out, src, n) == 0);
                CHECK_EQ_U(st.consumed, enc.size);
                CHECK_EQ_U(st.produced, n);
            }
            if (n > 8192) { /* cut short: the same error at the same offset, after the same output */
                uint8_t *whole = malloc(n);
                ue_diag d1 = {0}, d2 = {0};
                ue_lzss_stats s1, s2;
                pieces_seen p = {out, 0, 4096, 0};
                size_t cut = enc.size / 2;
                CHECK_EQ_U(ue_lzss_decode(&UE_LZSS_GAMECUBE, enc.data, cut, whole, n, &s1, &d1, 7, "t"),
                           UE_ERR_INVALID);
                CHECK_EQ_U(ue_lzss_decode_pieces(&UE_LZSS_GAMECUBE, enc.data, cut, out, n, 4096,
                                                 see_piece, &p, &s2, &d2, 7, "t"),
                           UE_ERR_INVALID);
                REQUIRE(d1.count == 1 && d2.count == 1);
                CHECK_STR(d2.items[0].message, d1.items[0].message);
                CHECK_EQ_U(d2.items[0].offset, d1.items[0].offset);
                CHECK_EQ_U(s2.produced, s1.produced);
                CHECK(p.next <= s1.produced); /* the failed stretch is not handed out */
                CHECK(memcmp(out, whole, s1.produced) == 0);
                ue_diag_free(&d1), ue_diag_free(&d2);
                free(whole);
            }
            free(src), free(out);
            ue_buf_free(&enc);
        }
    CHECK_EQ_U(ue_lzss_decode_pieces(&UE_LZSS_GAMECUBE, NULL, 0, NULL, 0, 0, see_piece, NULL,
                                     NULL, NULL, 0, "t"),
               UE_ERR_USAGE);
}

int main(void) {
    RUN(spec_vectors_parkan);
    RUN(gamecube_ring_starts_with_zeros);
    RUN(overlapping_match_repeats);
    RUN(truncated_stream_names_offset);
    RUN(encoder_round_trips);
    RUN(leading_run_uses_the_ring_fill);
    RUN(lazy_beats_or_ties_greedy);
    RUN(max_output_counts_flags_and_references);
    RUN(small_stream_claiming_more_stays_bounded);
    RUN(chunked_decode_equals_whole);
    RUN(pieces_decode_equals_whole);
    return TEST_SUMMARY();
}
