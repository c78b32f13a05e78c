/* unearth tests — the RsLi codecs: XOR keystream, LZHUF and raw Deflate, checked against
 * vectors derived by hand (and by an independent reference) from docs/formats/rsli.md#table-xor, docs/formats/rsli.md#methods. */
#include <zlib.h>

#include "test.h"
#include "unearth/codec.h"

static const uint8_t *find_code(const ue_diag *d, const char *code) {
    for (size_t i = 0; i < d->count; i++)
        if (strcmp(d->items[i].code, code) == 0) return (const uint8_t *)&d->items[i];
    return NULL;
}

static uint64_t code_offset(const ue_diag *d, const char *code) {
    for (size_t i = 0; i < d->count; i++)
        if (strcmp(d->items[i].code, code) == 0) return d->items[i].offset;
    return UE_NO_OFFSET;
}

/* ---- XOR ------------------------------------------------------------------------------------ */

static void test_xor_vector(void) {
    uint8_t b[4] = {0x00, 0x01, 0x02, 0x03};
    ue_xor_buffer(0x1234, b, 4);
    const uint8_t want[4] = {0x7A, 0x86, 0xB2, 0x8C};
    CHECK_MEM(b, want, 4);
    /* Symmetric: applying it again restores the input. */
    ue_xor_buffer(0x1234, b, 4);
    const uint8_t orig[4] = {0, 1, 2, 3};
    CHECK_MEM(b, orig, 4);
}

static void test_xor_key_zero_and_streaming(void) {
    uint8_t z[64];
    memset(z, 0x5A, sizeof z);
    ue_xor_buffer(0, z, sizeof z);
    for (size_t i = 0; i < sizeof z; i++) CHECK_EQ_U(z[i], 0x5A);

    /* The state runs on across calls: pieces equal the one-shot stream. */
    uint8_t a[100], b[100];
    for (size_t i = 0; i < 100; i++) a[i] = b[i] = (uint8_t)(i * 7);
    ue_xor_buffer(0xBEEF, a, 100);
    ue_xor_state s;
    ue_xor_init(&s, 0xBEEF);
    ue_xor_apply(&s, b, 33);
    ue_xor_apply(&s, b + 33, 1);
    ue_xor_apply(&s, b + 34, 66);
    CHECK_MEM(a, b, 100);
    /* First keystream byte for key 0xBEEF by hand: lo = 0xBE ^ ((0xEF << 1) & 0xFF) = 0xBE ^
     * 0xDE = 0x60. */
    uint8_t one = 0;
    ue_xor_buffer(0xBEEF, &one, 1);
    CHECK_EQ_U(one, 0x60);
}

/* ---- LZHUF ------------------------------------------------------------------------------- */

static ue_result lzhuf(const uint8_t *in, size_t n, uint8_t *out, size_t out_size, ue_diag *d) {
    return ue_lzhuf_decode(in, n, out, out_size, NULL, d, 0, "t");
}

/* In a fresh tree the internal node j (314..626) has children 2(j-314) and 2(j-314)+1, so the
 * root's all-left path 626→624→620→612→596→564→500→372→116 reaches leaf 116 ('t') in 8 bits,
 * and the all-right path 625→623→619→611→595→563→499→371→115 reaches 's' in 9 bits. */
static void test_lzhuf_fresh_tree(void) {
    uint8_t out[4];
    const uint8_t zero[1] = {0x00};
    CHECK_EQ_U(lzhuf(zero, 1, out, 1, NULL), UE_OK);
    CHECK_EQ_U(out[0], 't');
    const uint8_t ones[2] = {0xFF, 0x80};
    CHECK_EQ_U(lzhuf(ones, 2, out, 1, NULL), UE_OK);
    CHECK_EQ_U(out[0], 's');
    /* Symbol 256 (match length 3): path 625,622,616,604,581,535,442,256 = bits 1000 1100, then
     * position 0 = prefix 000 + six 0 bits; copies 3 bytes from ring 4035 (spaces). */
    const uint8_t match[3] = {0x8C, 0x00, 0x00};
    ue_codec_stats st;
    CHECK_EQ_U(ue_lzhuf_decode(match, 3, out, 3, &st, NULL, 0, "t"), UE_OK);
    CHECK_MEM(out, "   ", 3);
    CHECK_EQ_U(st.consumed, 3);
    CHECK_EQ_U(st.produced, 3);
}

/* Streams produced by an independent Python transcription of docs/formats/rsli.md#methods (tree updates, position
 * code), not by our encoder. */
static void test_lzhuf_reference_streams(void) {
    uint8_t out[80];
    /* 'A','B', match len 5 at position 1 (distance 2), '!' */
    const uint8_t s1[] = {0xe6, 0xf3, 0xa3, 0x80, 0x3a, 0xd0};
    CHECK_EQ_U(lzhuf(s1, sizeof s1, out, 8, NULL), UE_OK);
    CHECK_MEM(out, "ABABABA!", 8);
    /* 'x', match len 60 at position 99 (the initial spaces), 'y' */
    const uint8_t s2[] = {0x04, 0x04, 0x28, 0xc1, 0x40};
    CHECK_EQ_U(lzhuf(s2, sizeof s2, out, 62, NULL), UE_OK);
    CHECK_EQ_U(out[0], 'x');
    for (size_t i = 1; i < 61; i++) CHECK_EQ_U(out[i], ' ');
    CHECK_EQ_U(out[61], 'y');
    /* 40 literals that force node swaps, then a 10-byte match at distance 4 */
    const uint8_t s3[] = {0xf7, 0x7b, 0xf5, 0x98, 0x98, 0x77, 0xf0, 0xdd, 0x7e, 0x2f, 0xb6, 0xfc,
                          0x0b, 0xee, 0x56, 0xbd, 0xdb, 0x95, 0xe9, 0xad, 0x36, 0x53, 0x6d, 0x96,
                          0x5b, 0x59, 0xca, 0x9c, 0xeb, 0x59, 0x4e, 0xb5, 0xb5, 0x80, 0xc0};
    CHECK_EQ_U(lzhuf(s3, sizeof s3, out, 50, NULL), UE_OK);
    CHECK_MEM(out, "bc c     ba a b abaca bababba bacb  ab  ab  ab  ab", 50);
}

/* 40 000 bytes with no repeated 3-byte string (big-endian u16 counter 0x3000..): every encoder
 * emits literals only, and 40 000 symbols pass MAX_FREQ, so the tree is rebuilt once. The checksum
 * is of the stream the independent reference produced for the same literals. */
static void test_lzhuf_reconstruct_matches_reference(void) {
    size_t n = 40000;
    uint8_t *data = malloc(n), *back = malloc(n);
    REQUIRE(data && back);
    for (size_t i = 0; i < n / 2; i++) {
        unsigned v = 0x3000u + (unsigned)i;
        data[2 * i] = (uint8_t)(v >> 8);
        data[2 * i + 1] = (uint8_t)v;
    }
    ue_buf b = {0};
    CHECK_EQ_U(ue_lzhuf_encode(9, data, n, &b), UE_OK);
    CHECK_EQ_U(b.size, 38423);
    uint32_t h = 0x811c9dc5u; /* FNV-1a, computed the same way by the reference */
    for (size_t i = 0; i < b.size; i++) h = (h ^ b.data[i]) * 0x01000193u;
    CHECK_EQ_U(h, 0x1e01b451u);
    CHECK_EQ_U(ue_lzhuf_decode(b.data, b.size, back, n, NULL, NULL, 0, "t"), UE_OK);
    CHECK_MEM(back, data, n);
    ue_buf_free(&b);
    free(data);
    free(back);
}

static void test_lzhuf_errors(void) {
    uint8_t out[8];
    ue_diag d = {0};
    /* 't' uses all 8 bits of the only byte; the second symbol finds no input at offset 1. */
    const uint8_t zero[1] = {0x00};
    CHECK_EQ_U(ue_lzhuf_decode(zero, 1, out, 2, NULL, &d, 100, "x"), UE_ERR_INVALID);
    CHECK(find_code(&d, "lzhuf.truncated") != NULL);
    CHECK_EQ_U(code_offset(&d, "lzhuf.truncated"), 101);
    ue_diag_free(&d);
    /* Empty input, non-empty output: no stream of 0 bytes gives 1, so it is refused up front. */
    CHECK_EQ_U(ue_lzhuf_decode(zero, 0, out, 1, NULL, &d, 0, "x"), UE_ERR_INVALID);
    CHECK_EQ_U(code_offset(&d, "lzhuf.size_limit"), 0);
    ue_diag_free(&d);
    /* A match that runs past the declared size. */
    const uint8_t match[3] = {0x8C, 0x00, 0x00};
    CHECK_EQ_U(ue_lzhuf_decode(match, 3, out, 2, NULL, &d, 0, "x"), UE_ERR_INVALID);
    CHECK(find_code(&d, "lzhuf.overflow") != NULL);
    ue_diag_free(&d);
    /* Match symbol present but its position bits are cut. */
    CHECK_EQ_U(ue_lzhuf_decode(match, 1, out, 3, NULL, &d, 0, "x"), UE_ERR_INVALID);
    CHECK(find_code(&d, "lzhuf.truncated") != NULL);
    ue_diag_free(&d);
    /* Zero output needs no input at all. */
    CHECK_EQ_U(ue_lzhuf_decode(NULL, 0, out, 0, NULL, NULL, 0, "x"), UE_OK);
}

/* A match costs at least 10 bits (1-bit symbol, 9 position bits) for 60 bytes: 48 per byte. */
static void test_lzhuf_size_limit(void) {
    CHECK_EQ_U(ue_lzhuf_max_output(0), 0);
    CHECK_EQ_U(ue_lzhuf_max_output(1), 48);
    CHECK_EQ_U(ue_lzhuf_max_output(1000), 48000);
    /* 16 bytes claiming 1 GiB: refused before anything is decoded, so a 1-byte buffer is safe
     * (ASan would see any write past it). */
    uint8_t stream[16] = {0}, one = 0xAA;
    ue_diag d = {0};
    CHECK_EQ_U(ue_lzhuf_decode(stream, sizeof stream, &one, (size_t)1 << 30, NULL, &d, 0x40, "x"),
               UE_ERR_INVALID);
    CHECK_EQ_U(code_offset(&d, "lzhuf.size_limit"), 0x40);
    CHECK_EQ_U(d.count, 1);
    CHECK_EQ_U(one, 0xAA);
    ue_diag_free(&d);
    /* At the bound the stream is decoded (and here found short), not refused. */
    uint8_t *out = malloc(16 * 48);
    REQUIRE(out);
    CHECK_EQ_U(ue_lzhuf_decode(stream, sizeof stream, out, 16 * 48, NULL, &d, 0, "x"),
               UE_ERR_INVALID);
    CHECK(find_code(&d, "lzhuf.size_limit") == NULL);
    CHECK(find_code(&d, "lzhuf.truncated") != NULL || find_code(&d, "lzhuf.overflow") != NULL);
    ue_diag_free(&d);
    free(out);
    /* Our encoder's densest stream (zeros) stays inside the bound. */
    size_t n = (size_t)1 << 20;
    uint8_t *zeros = calloc(n, 1);
    REQUIRE(zeros);
    ue_buf b = {0};
    REQUIRE(ue_lzhuf_encode(9, zeros, n, &b) == UE_OK);
    CHECK(ue_lzhuf_max_output(b.size) >= n);
    ue_buf_free(&b);
    free(zeros);
}

static void fill_mixed(uint8_t *p, size_t n, uint32_t seed, int kind) {
    uint32_t x = seed;
    static const char words[] = "the engine loads sprites and fonts from libraries; ";
    for (size_t i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        switch (kind) {
        case 0: p[i] = (uint8_t)(x >> 24); break;                               /* random */
        case 1: p[i] = (uint8_t)((i / 700) & 0xFF); break;                      /* runs */
        case 2: { /* text: 37-byte slices of a sentence starting at pseudo-random points */
            uint32_t seg = (uint32_t)(i / 37) * 2654435761u;
            p[i] = (uint8_t)words[(seg % (sizeof words - 1) + i % 37) % (sizeof words - 1)];
            break;
        }
        default: p[i] = (i % 64 < 40) ? (uint8_t)(i & 0x0F) : (uint8_t)(x >> 24); break;
        }
    }
}

static void roundtrip_lzhuf(const uint8_t *data, size_t n, int level) {
    ue_buf b = {0};
    CHECK_EQ_U(ue_lzhuf_encode(level, data, n, &b), UE_OK);
    uint8_t *back = malloc(n ? n : 1);
    if (!back) {
        ue_buf_free(&b);
        return;
    }
    ue_codec_stats st = {0, 0};
    CHECK_EQ_U(ue_lzhuf_decode(b.data, b.size, back, n, &st, NULL, 0, "t"), UE_OK);
    CHECK_EQ_U(st.produced, n);
    if (n) CHECK_EQ_U(st.consumed, b.size); /* the encoder's last byte holds used bits */
    if (n) CHECK_MEM(back, data, n);
    free(back);
    ue_buf_free(&b);
}

static void test_lzhuf_roundtrips(void) {
    roundtrip_lzhuf(NULL, 0, 6);
    const uint8_t one = 0x42;
    roundtrip_lzhuf(&one, 1, 6);
    size_t n = 200 * 1024; /* > 64 KiB and far past MAX_FREQ: several tree rebuilds */
    uint8_t *p = malloc(n);
    REQUIRE(p);
    for (int kind = 0; kind < 4; kind++) {
        fill_mixed(p, n, (uint32_t)kind + 1, kind);
        roundtrip_lzhuf(p, n, kind == 0 ? 0 : 9);
        roundtrip_lzhuf(p, 5000, 6);
    }
    /* Compressible input must actually shrink. */
    fill_mixed(p, n, 3, 2);
    ue_buf b = {0};
    CHECK_EQ_U(ue_lzhuf_encode(6, p, n, &b), UE_OK);
    CHECK(b.size < n / 3);
    ue_buf_free(&b);
    memset(p, 0x20, 1000); /* all spaces: one long chain of matches into the initial ring */
    roundtrip_lzhuf(p, 1000, 6);
    free(p);
}

/* ---- raw Deflate ------------------------------------------------------------------------- */

static void test_deflate_hand_stored_block(void) {
    /* BFINAL=1 BTYPE=00, aligned, LEN=3, NLEN=~3, "ABC" (RFC 1951, section 3.2.4). */
    const uint8_t s[] = {0x01, 0x03, 0x00, 0xFC, 0xFF, 'A', 'B', 'C'};
    uint8_t out[8];
    ue_codec_stats st;
    CHECK_EQ_U(ue_deflate_raw_decode(s, sizeof s, out, 3, &st, NULL, 0, "t"), UE_OK);
    CHECK_MEM(out, "ABC", 3);
    CHECK_EQ_U(st.consumed, 8);
    /* Fixed-Huffman block holding only end-of-block (bits 1, 01, 0000000): bytes 03 00. */
    const uint8_t empty[] = {0x03, 0x00};
    CHECK_EQ_U(ue_deflate_raw_decode(empty, sizeof empty, out, 0, NULL, NULL, 0, "t"), UE_OK);
}

static void test_deflate_errors(void) {
    const uint8_t s[] = {0x01, 0x03, 0x00, 0xFC, 0xFF, 'A', 'B', 'C'};
    uint8_t out[8];
    ue_diag d = {0};
    CHECK_EQ_U(ue_deflate_raw_decode(s, sizeof s, out, 2, NULL, &d, 0, "t"), UE_ERR_INVALID);
    CHECK(find_code(&d, "deflate.overflow") != NULL);
    ue_diag_free(&d);
    CHECK_EQ_U(ue_deflate_raw_decode(s, sizeof s, out, 4, NULL, &d, 0, "t"), UE_ERR_INVALID);
    CHECK(find_code(&d, "deflate.short") != NULL);
    ue_diag_free(&d);
    CHECK_EQ_U(ue_deflate_raw_decode(s, 6, out, 3, NULL, &d, 0, "t"), UE_ERR_INVALID);
    CHECK(find_code(&d, "deflate.truncated") != NULL);
    ue_diag_free(&d);
    const uint8_t bad_nlen[] = {0x01, 0x03, 0x00, 0xFC, 0xFE, 'A', 'B', 'C'};
    CHECK_EQ_U(ue_deflate_raw_decode(bad_nlen, sizeof bad_nlen, out, 3, NULL, &d, 0, "t"),
               UE_ERR_INVALID);
    CHECK(find_code(&d, "deflate.corrupt") != NULL);
    ue_diag_free(&d);
    const uint8_t type3[] = {0x07, 0x00};
    CHECK_EQ_U(ue_deflate_raw_decode(type3, sizeof type3, out, 3, NULL, &d, 0, "t"), UE_ERR_INVALID);
    ue_diag_free(&d);

    /* zlib-wrapped: compress() output must be refused even though it inflates with zlib. */
    const char text[] = "hello hello hello hello";
    uint8_t z[128];
    uLongf zn = sizeof z;
    REQUIRE(compress(z, &zn, (const Bytef *)text, sizeof text - 1) == Z_OK);
    CHECK(ue_deflate_looks_zlib(z, zn));
    uint8_t big[64];
    CHECK_EQ_U(ue_deflate_raw_decode(z, zn, big, sizeof text - 1, NULL, &d, 0, "t"),
               UE_ERR_INVALID);
    CHECK(find_code(&d, "deflate.zlib_wrapped") != NULL);
    CHECK_EQ_U(code_offset(&d, "deflate.zlib_wrapped"), 0);
    ue_diag_free(&d);
}

static void test_deflate_roundtrips(void) {
    size_t n = 300 * 1024;
    uint8_t *p = malloc(n), *back = malloc(n);
    REQUIRE(p && back);
    for (int kind = 0; kind < 4; kind++) {
        fill_mixed(p, n, 9u + (uint32_t)kind, kind);
        ue_buf b = {0};
        CHECK_EQ_U(ue_deflate_raw_encode(6, p, n, &b), UE_OK);
        CHECK(!ue_deflate_looks_zlib(b.data, b.size) || kind == 0);
        ue_codec_stats st;
        CHECK_EQ_U(ue_deflate_raw_decode(b.data, b.size, back, n, &st, NULL, 0, "t"), UE_OK);
        CHECK_MEM(back, p, n);
        CHECK_EQ_U(st.consumed, b.size);
        ue_buf_free(&b);
    }
    ue_buf b = {0};
    CHECK_EQ_U(ue_deflate_raw_encode(9, NULL, 0, &b), UE_OK);
    CHECK(b.size > 0);
    CHECK_EQ_U(ue_deflate_raw_decode(b.data, b.size, back, 0, NULL, NULL, 0, "t"), UE_OK);
    ue_buf_free(&b);
    /* No bytes at all (NULL, 0) hold no final block: truncated, reported without touching NULL. */
    ue_diag d = {0};
    CHECK_EQ_U(ue_deflate_raw_decode(NULL, 0, NULL, 0, NULL, &d, 0, "t"), UE_ERR_INVALID);
    CHECK(d.count == 1 && !strcmp(d.items[0].code, "deflate.truncated"));
    ue_diag_free(&d);
    free(p);
    free(back);
}

/* zlib itself compresses zeros at close to Deflate's 1032:1 ceiling: the bound must hold for
 * its stream, and a small stream claiming far more is refused before zlib is even set up. */
static void test_deflate_size_limit(void) {
    CHECK_EQ_U(ue_deflate_max_output(0), 0);
    CHECK_EQ_U(ue_deflate_max_output(1), 1032);
    CHECK_EQ_U(ue_deflate_max_output(1000), 1032000);
    size_t n = (size_t)1 << 20;
    uint8_t *zeros = calloc(n, 1);
    REQUIRE(zeros);
    z_stream z;
    memset(&z, 0, sizeof z);
    REQUIRE(deflateInit2(&z, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY) == Z_OK);
    uint8_t packed[4096];
    z.next_in = zeros;
    z.avail_in = (uInt)n;
    z.next_out = packed;
    z.avail_out = sizeof packed;
    CHECK(deflate(&z, Z_FINISH) == Z_STREAM_END);
    size_t packed_n = sizeof packed - z.avail_out;
    deflateEnd(&z);
    CHECK(ue_deflate_max_output(packed_n) >= n);
    CHECK(packed_n < 1100); /* about 1020 bytes: the ceiling is nearly reached */
    uint8_t *back = malloc(n);
    REQUIRE(back);
    CHECK_EQ_U(ue_deflate_raw_decode(packed, packed_n, back, n, NULL, NULL, 0, "t"), UE_OK);
    free(back);
    free(zeros);

    uint8_t one = 0xAA;
    ue_diag d = {0};
    CHECK_EQ_U(ue_deflate_raw_decode(packed, 10, &one, (size_t)1 << 30, NULL, &d, 0x80, "t"),
               UE_ERR_INVALID);
    CHECK_EQ_U(code_offset(&d, "deflate.size_limit"), 0x80);
    CHECK_EQ_U(d.count, 1);
    CHECK_EQ_U(one, 0xAA);
    ue_diag_free(&d);
}

int main(void) {
    RUN(test_xor_vector);
    RUN(test_xor_key_zero_and_streaming);
    RUN(test_lzhuf_fresh_tree);
    RUN(test_lzhuf_reference_streams);
    RUN(test_lzhuf_reconstruct_matches_reference);
    RUN(test_lzhuf_errors);
    RUN(test_lzhuf_size_limit);
    RUN(test_lzhuf_roundtrips);
    RUN(test_deflate_hand_stored_block);
    RUN(test_deflate_errors);
    RUN(test_deflate_roundtrips);
    RUN(test_deflate_size_limit);
    return TEST_SUMMARY();
}
