/* unearth tests — RsLi: hand-built byte images straight from docs/formats/rsli.md (own table XOR, own row
 * layout), every method, lookup, bad inputs, lossless and edited writes, extract/pack. */
#include <zlib.h>

#include "test.h"
#include "unearth/archive.h"
#include "unearth/rsli.h"
#include "samples/samples.h"
#include "common/io.h"

/* ---- an image builder independent of the library's writer -------------------------------- */

/* docs/formats/rsli.md#table-xor transcribed again here so the reader and the tests do not share one routine. */
static void spec_xor(uint16_t key, uint8_t *p, size_t n) {
    unsigned lo = key & 0xFFu, hi = key >> 8;
    for (size_t i = 0; i < n; i++) {
        lo = (hi ^ (lo << 1)) & 0xFFu;
        p[i] ^= (uint8_t)lo;
        hi = (lo ^ (hi >> 1)) & 0xFFu;
    }
}

typedef struct row {
    const char *name;
    uint16_t flags, sort;
    uint32_t unpacked, offset, packed;
} row;

typedef struct image {
    uint8_t b[4096];
    size_t size;
} image;

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) {
    for (int k = 0; k < 4; k++) p[k] = (uint8_t)(v >> (8 * k));
}

/* Header: "NL", 0, 1, count, presorted flag, seed; then the rows XORed as one stream. */
static void image_header(image *im, int16_t count, uint16_t flag, uint32_t seed, const row *rows,
                         size_t nrows) {
    memset(im, 0, sizeof *im);
    im->b[0] = 'N';
    im->b[1] = 'L';
    im->b[3] = 1;
    put16(im->b + 4, (uint16_t)count);
    im->b[6] = 0xEE; /* unused bytes that must be preserved */
    put16(im->b + 0x0E, flag);
    put32(im->b + 0x14, seed);
    im->b[0x1F] = 0x99;
    for (size_t i = 0; i < nrows; i++) {
        uint8_t *r = im->b + 32 + 32 * i;
        memcpy(r, rows[i].name, strlen(rows[i].name));
        r[12] = 0xA0; r[13] = 0xA1; r[14] = (uint8_t)i; r[15] = 0xA3; /* service bytes */
        put16(r + 0x10, rows[i].flags);
        put16(r + 0x12, rows[i].sort);
        put32(r + 0x14, rows[i].unpacked);
        put32(r + 0x18, rows[i].offset);
        put32(r + 0x1C, rows[i].packed);
    }
    spec_xor((uint16_t)(seed & 0xFFFF), im->b + 32, 32 * nrows);
    im->size = 32 + 32 * nrows;
}

static void image_put(image *im, size_t at, const void *p, size_t n) {
    memcpy(im->b + at, p, n);
    if (at + n > im->size) im->size = at + n;
}

/* Parses, reads entry i and compares with want. */
static void expect_payload(const ue_rsli *l, size_t i, const char *want, size_t n) {
    uint8_t *p = NULL;
    size_t size = 0;
    ue_diag d = {0};
    ue_result r = ue_rsli_read(l, i, &p, &size, &d);
    CHECK_EQ_U(r, UE_OK);
    if (r == UE_OK) {
        CHECK_EQ_U(size, n);
        if (size == n) CHECK_MEM(p, want, n);
    } else {
        for (size_t k = 0; k < d.count; k++) fprintf(stderr, "  %s: %s\n", d.items[k].code, d.items[k].message);
    }
    free(p);
    ue_diag_free(&d);
}

static void expect_identical_write(const ue_rsli *l, const image *im) {
    ue_buf out = {0};
    CHECK_EQ_U(ue_rsli_write(l, &out, NULL), UE_OK);
    CHECK_EQ_U(out.size, im->size);
    if (out.size == im->size) CHECK_MEM(out.data, im->b, im->size);
    ue_buf_free(&out);
}

/* ---- hand images --------------------------------------------------------------------------- */

/* One stored entry; the table seed is the spec's vector key. */
static void test_single_stored(void) {
    row rows[1] = {{"HELLO.TXT", 0x0000, 0, 5, 64, 5}};
    image im;
    image_header(&im, 1, 0, 0x00001234, rows, 1);
    image_put(&im, 64, "hello", 5);
    /* Spot-check the obfuscation: the first name byte 'H' XORed with keystream byte 0x7A. */
    CHECK_EQ_U(im.b[32], 'H' ^ 0x7A);
    ue_source src = ue_source_memory(im.b, im.size);
    ue_rsli l;
    ue_diag d = {0};
    REQUIRE(ue_rsli_parse(&src, UE_MODE_STRICT, NULL, &l, &d) == UE_OK);
    CHECK_EQ_U(l.count, 1);
    char name[16];
    ue_rsli_entry_name(&l.entries[0], name, sizeof name);
    CHECK_STR(name, "HELLO.TXT");
    CHECK_EQ_U(l.entries[0].service[2], 0);
    CHECK_EQ_U(l.entries[0].service[3], 0xA3);
    CHECK_EQ_U(l.entries[0].data_offset, 64);
    CHECK_EQ_U(l.gap_count, 0);
    expect_payload(&l, 0, "hello", 5);
    size_t idx = 99;
    CHECK(ue_rsli_find(&l, "hello.txt", &idx));
    CHECK_EQ_U(idx, 0);
    CHECK(!ue_rsli_find(&l, "HELLO", &idx));
    expect_identical_write(&l, &im);
    ue_rsli_free(&l);
    ue_diag_free(&d);
}

/* The LZHUF reference stream from test_codecs ("ABABABA!"). */
static const uint8_t LZHUF_ABAB[] = {0xe6, 0xf3, 0xa3, 0x80, 0x3a, 0xd0};
static const uint8_t LZSS_ABC[] = {0x07, 0x41, 0x42, 0x43};
static const uint8_t DEFLATE_ABC[] = {0x01, 0x03, 0x00, 0xFC, 0xFF, 'A', 'B', 'C'};

/* Seven entries, one per method. Names sort in reverse row order, so the strcmp permutation is
 * row i → 6 - i, and the XOR keys of rows 1, 3, 5 are 5, 3, 1. */
static void build_all_methods(image *im, bool presorted) {
    static const char *names[7] = {"G_STORED", "F_XOR", "E_LZSS", "D_XLZSS", "C_LZHUF", "B_XLZHUF", "A_DEFL"};
    static const uint16_t flags[7] = {0x000, 0x020, 0x040, 0x060, 0x080, 0x0A0, 0x100};
    const uint8_t *packed[7] = {(const uint8_t *)"ABC", (const uint8_t *)"ABC", LZSS_ABC, LZSS_ABC,
                                LZHUF_ABAB, LZHUF_ABAB, DEFLATE_ABC};
    const uint32_t psize[7] = {3, 3, 4, 4, 6, 6, 8};
    const uint32_t usize[7] = {3, 3, 3, 3, 8, 8, 3};
    row rows[7];
    uint32_t at = 32 + 7 * 32;
    for (int i = 0; i < 7; i++) {
        /* Without 0xABBA the stored values are ignored (rebuilt); put nonsense there. */
        uint16_t sort = presorted ? (uint16_t)(6 - i) : (uint16_t)(0x7770 + i);
        rows[i] = (row){names[i], flags[i], sort, usize[i], at, psize[i]};
        at += psize[i];
    }
    image_header(im, 7, presorted ? 0xABBA : 0x0000, 0x0BAD5EED, rows, 7);
    for (int i = 0; i < 7; i++) {
        uint8_t tmp[16];
        memcpy(tmp, packed[i], psize[i]);
        if (flags[i] & 0x20) spec_xor((uint16_t)(6 - i), tmp, psize[i]);
        image_put(im, rows[i].offset, tmp, psize[i]);
    }
}

static void check_all_methods(const image *im) {
    ue_source src = ue_source_memory(im->b, im->size);
    ue_rsli l;
    ue_diag d = {0};
    REQUIRE(ue_rsli_parse(&src, UE_MODE_STRICT, NULL, &l, &d) == UE_OK);
    CHECK_EQ_U(ue_diag_count(&d, UE_SEV_WARNING), 0);
    CHECK_EQ_U(l.count, 7);
    CHECK(l.sort_valid);
    for (size_t i = 0; i < 7; i++) CHECK_EQ_U(l.entries[i].sort_value, 6 - i);
    expect_payload(&l, 0, "ABC", 3);
    expect_payload(&l, 1, "ABC", 3);
    expect_payload(&l, 2, "ABC", 3);
    expect_payload(&l, 3, "ABC", 3);
    expect_payload(&l, 4, "ABABABA!", 8);
    expect_payload(&l, 5, "ABABABA!", 8);
    expect_payload(&l, 6, "ABC", 3);
    size_t idx = 99;
    CHECK(ue_rsli_find(&l, "a_defl", &idx));
    CHECK_EQ_U(idx, 6);
    CHECK(ue_rsli_find(&l, "D_XLZSS", &idx));
    CHECK_EQ_U(idx, 3);
    CHECK(ue_rsli_find(&l, "g_stored", &idx));
    CHECK_EQ_U(idx, 0);
    CHECK(!ue_rsli_find(&l, "H", &idx));
    CHECK(!ue_rsli_find(&l, "G_STORED_AND_A_VERY_LONG_TAIL", &idx));
    expect_identical_write(&l, im);
    ue_rsli_free(&l);
    ue_diag_free(&d);
}

static void test_all_methods_presorted(void) {
    image im;
    build_all_methods(&im, true);
    check_all_methods(&im);
}

/* Without 0xABBA the engine rebuilds the table; the XOR keys are the rebuilt values. */
static void test_all_methods_rebuilt_sort(void) {
    image im;
    build_all_methods(&im, false);
    check_all_methods(&im);
}

/* A presorted table that is a permutation but out of order: strict refuses, tolerant finds
 * names through the linear fallback. */
static void test_presorted_wrong_order(void) {
    row rows[2] = {{"AAA", 0, 1, 1, 96, 1}, {"BBB", 0, 0, 1, 97, 1}};
    image im;
    image_header(&im, 2, 0xABBA, 0, rows, 2);
    image_put(&im, 96, "ab", 2);
    ue_source src = ue_source_memory(im.b, im.size);
    ue_rsli l;
    ue_diag d = {0};
    CHECK_EQ_U(ue_rsli_parse(&src, UE_MODE_STRICT, NULL, &l, &d), UE_ERR_INVALID);
    CHECK(has_code(&d, "rsli.sort.order"));
    ue_diag_free(&d);
    REQUIRE(ue_rsli_parse(&src, UE_MODE_TOLERANT, NULL, &l, &d) == UE_OK);
    CHECK(!l.sort_valid);
    size_t idx = 9;
    CHECK(ue_rsli_find(&l, "aaa", &idx));
    CHECK_EQ_U(idx, 0);
    CHECK(ue_rsli_find(&l, "bbb", &idx));
    CHECK_EQ_U(idx, 1);
    expect_identical_write(&l, &im);
    ue_rsli_free(&l);
    ue_diag_free(&d);
}

/* AO trailer: offsets are relative to the overlay. */
static void test_ao_trailer(void) {
    row rows[1] = {{"AO.DAT", 0, 0, 4, 100 - 40, 4}};
    image im;
    image_header(&im, 1, 0, 7, rows, 1);
    image_put(&im, 100, "WXYZ", 4);
    const uint8_t ao[6] = {'A', 'O', 40, 0, 0, 0};
    image_put(&im, 104, ao, 6);
    ue_source src = ue_source_memory(im.b, im.size);
    ue_rsli l;
    ue_diag d = {0};
    REQUIRE(ue_rsli_parse(&src, UE_MODE_STRICT, NULL, &l, &d) == UE_OK);
    CHECK(l.has_ao);
    CHECK_EQ_U(l.overlay, 40);
    CHECK_EQ_U(l.entries[0].file_offset, 100);
    expect_payload(&l, 0, "WXYZ", 4);
    CHECK(has_code(&d, "rsli.ao"));
    /* Bytes 64..99 belong to no entry: kept as an unindexed region. */
    CHECK_EQ_U(l.gap_count, 1);
    CHECK_EQ_U(l.gaps[0].offset, 64);
    CHECK_EQ_U(l.gaps[0].size, 36);
    expect_identical_write(&l, &im);
    ue_rsli_free(&l);
    ue_diag_free(&d);
}

/* sprites.lib's quirk: the last Deflate entry declares one byte past EOF. */
static void test_deflate_eof_plus_one(void) {
    row rows[1] = {{"INTERF8.TEX", 0x100, 0, 3, 64, 9}};
    image im;
    image_header(&im, 1, 0, 0, rows, 1);
    image_put(&im, 64, DEFLATE_ABC, 8);
    ue_source src = ue_source_memory(im.b, im.size);
    ue_rsli l;
    ue_diag d = {0};
    REQUIRE(ue_rsli_parse(&src, UE_MODE_STRICT, NULL, &l, &d) == UE_OK);
    CHECK(l.entries[0].eof_plus_one);
    CHECK_EQ_U(l.entries[0].stored_bytes, 8);
    CHECK(has_code(&d, "rsli.entry.deflate_eof_plus_one"));
    expect_payload(&l, 0, "ABC", 3);
    expect_identical_write(&l, &im);
    ue_rsli_free(&l);
    ue_diag_free(&d);
    /* Two bytes past EOF is a plain range error. */
    rows[0].packed = 10;
    image_header(&im, 1, 0, 0, rows, 1);
    image_put(&im, 64, DEFLATE_ABC, 8);
    src = ue_source_memory(im.b, im.size);
    CHECK_EQ_U(ue_rsli_parse(&src, UE_MODE_STRICT, NULL, &l, &d), UE_ERR_INVALID);
    CHECK(has_code(&d, "rsli.entry.range"));
    ue_diag_free(&d);
}

/* ---- bad inputs ---------------------------------------------------------------------------- */

static ue_result parse_image(const image *im, ue_mode mode, ue_rsli *l, ue_diag *d) {
    ue_source src = ue_source_memory(im->b, im->size);
    ue_result r = ue_rsli_parse(&src, mode, NULL, l, d);
    /* The source is a stack copy: only keep parsed structures whose payloads we do not read. */
    return r;
}

static void test_bad_headers(void) {
    image im;
    ue_rsli l;
    ue_diag d = {0};
    row one[1] = {{"X", 0, 0, 1, 64, 1}};
    image_header(&im, 1, 0, 0, one, 1);
    image_put(&im, 64, "x", 1);

    image t = im;
    t.size = 31; /* truncated header */
    CHECK_EQ_U(parse_image(&t, UE_MODE_TOLERANT, &l, &d), UE_ERR_INVALID);
    CHECK(has_code(&d, "rsli.header.truncated"));
    ue_diag_free(&d);

    t = im;
    t.b[0] = 'N';
    t.b[1] = 'R';
    CHECK_EQ_U(parse_image(&t, UE_MODE_TOLERANT, &l, &d), UE_ERR_INVALID);
    CHECK(has_code(&d, "rsli.header.magic"));
    ue_diag_free(&d);

    t = im;
    put16(t.b + 4, 0xFFFF); /* -1 */
    CHECK_EQ_U(parse_image(&t, UE_MODE_TOLERANT, &l, &d), UE_ERR_INVALID);
    const ue_diag_item *it = diag_find(&d, "rsli.header.count", NULL);
    CHECK(it != NULL);
    if (it) CHECK_EQ_U(it->offset, 4);
    ue_diag_free(&d);

    t = im;
    put16(t.b + 4, 3); /* table of 3 rows in a 65-byte file */
    CHECK_EQ_U(parse_image(&t, UE_MODE_TOLERANT, &l, &d), UE_ERR_INVALID);
    CHECK(has_code(&d, "rsli.table.range"));
    ue_diag_free(&d);

    t = im;
    t.b[3] = 2; /* version */
    CHECK_EQ_U(parse_image(&t, UE_MODE_STRICT, &l, &d), UE_ERR_INVALID);
    CHECK(has_code(&d, "rsli.header.version"));
    ue_diag_free(&d);
    CHECK_EQ_U(parse_image(&t, UE_MODE_TOLERANT, &l, &d), UE_OK);
    CHECK_EQ_U(ue_diag_count(&d, UE_SEV_ERROR), 0);
    ue_rsli_free(&l);
    ue_diag_free(&d);

    /* Zero entries is a valid (empty) library. */
    image_header(&t, 0, 0, 0, NULL, 0);
    CHECK_EQ_U(parse_image(&t, UE_MODE_STRICT, &l, &d), UE_OK);
    CHECK_EQ_U(l.count, 0);
    ue_rsli_free(&l);
    ue_diag_free(&d);
}

static void test_bad_entries(void) {
    image im;
    ue_rsli l;
    ue_diag d = {0};

    /* Packed range past EOF: strict error; tolerant marks the entry damaged. */
    row past[2] = {{"OK", 0, 0, 2, 96, 2}, {"PAST", 0, 0, 10, 98, 10}};
    image_header(&im, 2, 0, 0x55, past, 2);
    image_put(&im, 96, "okXY", 4);
    ue_source src = ue_source_memory(im.b, im.size);
    CHECK_EQ_U(ue_rsli_parse(&src, UE_MODE_STRICT, NULL, &l, &d), UE_ERR_INVALID);
    const ue_diag_item *it = diag_find(&d, "rsli.entry.range", NULL);
    CHECK(it != NULL);
    if (it) {
        CHECK_STR(it->path, "rsli/entry[1]/packed_size");
        CHECK_EQ_U(it->offset, 32 + 32 + 0x18);
    }
    ue_diag_free(&d);
    REQUIRE(ue_rsli_parse(&src, UE_MODE_TOLERANT, NULL, &l, &d) == UE_OK);
    CHECK(!l.entries[0].damaged);
    CHECK(l.entries[1].damaged);
    expect_payload(&l, 0, "ok", 2);
    uint8_t *p;
    size_t n;
    CHECK_EQ_U(ue_rsli_read(&l, 1, &p, &n, &d), UE_ERR_INVALID);
    /* The lossless writer still reproduces the damaged file. */
    expect_identical_write(&l, &im);
    ue_rsli_free(&l);
    ue_diag_free(&d);

    /* Unknown method 0x1C0. */
    row bad[1] = {{"M", 0x1C0, 0, 1, 64, 1}};
    image_header(&im, 1, 0, 0, bad, 1);
    image_put(&im, 64, "m", 1);
    src = ue_source_memory(im.b, im.size);
    CHECK_EQ_U(ue_rsli_parse(&src, UE_MODE_STRICT, NULL, &l, &d), UE_ERR_UNSUPPORTED);
    CHECK(has_code(&d, "rsli.entry.method"));
    ue_diag_free(&d);
    REQUIRE(ue_rsli_parse(&src, UE_MODE_TOLERANT, NULL, &l, &d) == UE_OK);
    CHECK(l.entries[0].damaged);
    CHECK_EQ_U(ue_rsli_read(&l, 0, &p, &n, &d), UE_ERR_UNSUPPORTED);
    ue_rsli_free(&l);
    ue_diag_free(&d);

    /* 0xABBA with a non-permutation (0, 0). */
    row dup[2] = {{"A", 0, 0, 1, 96, 1}, {"B", 0, 0, 1, 97, 1}};
    image_header(&im, 2, 0xABBA, 0, dup, 2);
    image_put(&im, 96, "ab", 2);
    src = ue_source_memory(im.b, im.size);
    CHECK_EQ_U(ue_rsli_parse(&src, UE_MODE_STRICT, NULL, &l, &d), UE_ERR_INVALID);
    it = diag_find(&d, "rsli.sort.permutation", NULL);
    CHECK(it != NULL);
    if (it) CHECK_STR(it->path, "rsli/entry[1]/sort_to_original");
    ue_diag_free(&d);
    REQUIRE(ue_rsli_parse(&src, UE_MODE_TOLERANT, NULL, &l, &d) == UE_OK);
    CHECK(!l.sort_valid);
    size_t idx = 9;
    CHECK(ue_rsli_find(&l, "B", &idx));
    CHECK_EQ_U(idx, 1);
    ue_rsli_free(&l);
    ue_diag_free(&d);

    /* Value out of range (7 of 2). */
    dup[1].sort = 7;
    image_header(&im, 2, 0xABBA, 0, dup, 2);
    image_put(&im, 96, "ab", 2);
    src = ue_source_memory(im.b, im.size);
    CHECK_EQ_U(ue_rsli_parse(&src, UE_MODE_STRICT, NULL, &l, &d), UE_ERR_INVALID);
    CHECK(has_code(&d, "rsli.sort.permutation"));
    ue_diag_free(&d);

    /* Stored entry whose sizes disagree. */
    row sz[1] = {{"S", 0, 0, 4, 64, 2}};
    image_header(&im, 1, 0, 0, sz, 1);
    image_put(&im, 64, "ss", 2);
    src = ue_source_memory(im.b, im.size);
    CHECK_EQ_U(ue_rsli_parse(&src, UE_MODE_STRICT, NULL, &l, &d), UE_ERR_INVALID);
    CHECK(has_code(&d, "rsli.entry.size"));
    ue_diag_free(&d);
}

/* One entry of the given method and sizes around a packed stream; returns the read result. */
static ue_result read_one(uint16_t flags, const uint8_t *packed, uint32_t psize, uint32_t usize,
                          ue_diag *d) {
    row r1[1] = {{"E", flags, 0, usize, 64, psize}};
    image im;
    image_header(&im, 1, 0, 0, r1, 1);
    image_put(&im, 64, packed, psize);
    ue_source src = ue_source_memory(im.b, im.size);
    ue_rsli l;
    ue_result r = ue_rsli_parse(&src, UE_MODE_STRICT, NULL, &l, d);
    if (r != UE_OK) return r;
    uint8_t *p = NULL;
    size_t n;
    r = ue_rsli_read(&l, 0, &p, &n, d);
    free(p);
    ue_rsli_free(&l);
    return r;
}

static void test_stream_size_mismatches(void) {
    ue_diag d = {0};
    /* spec vectors */
    CHECK_EQ_U(read_one(0x040, LZSS_ABC, 4, 3, NULL), UE_OK);
    const uint8_t spaces[] = {0x00, 0xFF, 0xF1};
    CHECK_EQ_U(read_one(0x040, spaces, 3, 4, NULL), UE_OK);
    {
        row r1[1] = {{"E", 0x040, 0, 4, 64, 3}};
        image im;
        image_header(&im, 1, 0, 0, r1, 1);
        image_put(&im, 64, spaces, 3);
        ue_source src = ue_source_memory(im.b, im.size);
        ue_rsli l;
        REQUIRE(ue_rsli_parse(&src, UE_MODE_STRICT, NULL, &l, NULL) == UE_OK);
        expect_payload(&l, 0, "    ", 4);
        ue_rsli_free(&l);
    }
    /* overflow: LZSS produces 3, declared 2 */
    CHECK_EQ_U(read_one(0x040, LZSS_ABC, 4, 2, &d), UE_ERR_INVALID);
    CHECK(has_code(&d, "rsli.lzss.overflow"));
    ue_diag_free(&d);
    /* underflow: LZSS produces 3, declared 5 */
    CHECK_EQ_U(read_one(0x040, LZSS_ABC, 4, 5, &d), UE_ERR_INVALID);
    const ue_diag_item *it = diag_find(&d, "rsli.lzss.truncated", NULL);
    CHECK(it != NULL);
    if (it) CHECK_EQ_U(it->offset, 64 + 4);
    ue_diag_free(&d);
    /* LZHUF: "ABABABA!" declared 7 (the match fits, '!' is one more symbol: not seen) and 6
     * (the 5-byte match crosses the end). */
    CHECK_EQ_U(read_one(0x080, LZHUF_ABAB, 6, 3, &d), UE_ERR_INVALID);
    CHECK(has_code(&d, "lzhuf.overflow"));
    ue_diag_free(&d);
    CHECK_EQ_U(read_one(0x080, LZHUF_ABAB, 6, 20, &d), UE_ERR_INVALID);
    CHECK(has_code(&d, "lzhuf.truncated"));
    ue_diag_free(&d);
    /* Deflate */
    CHECK_EQ_U(read_one(0x100, DEFLATE_ABC, 8, 2, &d), UE_ERR_INVALID);
    CHECK(has_code(&d, "deflate.overflow"));
    ue_diag_free(&d);
    CHECK_EQ_U(read_one(0x100, DEFLATE_ABC, 8, 4, &d), UE_ERR_INVALID);
    CHECK(has_code(&d, "deflate.short"));
    ue_diag_free(&d);
    /* zlib-wrapped Deflate */
    uint8_t z[64];
    uLongf zn = sizeof z;
    REQUIRE(compress(z, &zn, (const Bytef *)"ABCABCABC", 9) == Z_OK);
    CHECK_EQ_U(read_one(0x100, z, (uint32_t)zn, 9, &d), UE_ERR_INVALID);
    it = diag_find(&d, "deflate.zlib_wrapped", NULL);
    CHECK(it != NULL);
    if (it) {
        CHECK_EQ_U(it->offset, 64);
        CHECK_STR(it->path, "rsli/entry[0]");
    }
    ue_diag_free(&d);
    /* Trailing packed bytes after a complete Deflate stream: a warning only. */
    uint8_t trailing[10];
    memcpy(trailing, DEFLATE_ABC, 8);
    trailing[8] = trailing[9] = 0xEE;
    CHECK_EQ_U(read_one(0x100, trailing, 10, 3, &d), UE_OK);
    CHECK(has_code(&d, "rsli.unpack.trailing"));
    ue_diag_free(&d);
    /* XOR entry keyed with the wrong value decodes to other bytes (key = row value, not 0). */
    uint8_t x[3] = {'A', 'B', 'C'};
    spec_xor(1, x, 3);
    row r1[1] = {{"E", 0x020, 0, 3, 64, 3}};
    image im;
    image_header(&im, 1, 0, 0, r1, 1);
    image_put(&im, 64, x, 3);
    ue_source src = ue_source_memory(im.b, im.size);
    ue_rsli l;
    REQUIRE(ue_rsli_parse(&src, UE_MODE_STRICT, NULL, &l, NULL) == UE_OK);
    uint8_t *p;
    size_t n;
    REQUIRE(ue_rsli_read(&l, 0, &p, &n, NULL) == UE_OK);
    CHECK(memcmp(p, "ABC", 3) != 0); /* the row value (rebuilt) is 0 */
    free(p);
    ue_rsli_free(&l);
}

/* ---- writer, editing, sample ---------------------------------------------------------------- */

static void test_pack_unpack_every_method(void) {
    static const uint32_t methods[7] = {0x000, 0x020, 0x040, 0x060, 0x080, 0x0A0, 0x100};
    size_t n = 70000;
    uint8_t *data = malloc(n);
    REQUIRE(data);
    for (size_t i = 0; i < n; i++) data[i] = (uint8_t)((unsigned char)"Parkan RsLi "[i % 12] + i / 5000);
    for (size_t m = 0; m < 7; m++) {
        ue_buf b = {0};
        CHECK_EQ_U(ue_rsli_pack_plain(methods[m], data, n, &b), UE_OK);
        if (methods[m] & 0x20) { /* the writer's XOR layer, with a key of our choice */
            spec_xor(0x4321, b.data, b.size);
        }
        uint8_t *out = NULL;
        CHECK_EQ_U(ue_rsli_unpack(methods[m], 0x4321, b.data, b.size, n, &out, NULL, 0, "t"), UE_OK);
        if (out) CHECK_MEM(out, data, n);
        if (methods[m] >= 0x40) CHECK(b.size < n / 4);
        free(out);
        ue_buf_free(&b);
    }
    free(data);
}

static void test_sample(void) {
    ue_buf b = {0};
    REQUIRE(ue_sample_rsli(&b) == UE_OK);
    ue_source src = ue_source_memory(b.data, b.size);
    ue_rsli l;
    ue_diag d = {0};
    REQUIRE(ue_rsli_parse(&src, UE_MODE_STRICT, NULL, &l, &d) == UE_OK);
    CHECK_EQ_U(l.count, 7);
    CHECK(l.presorted);
    CHECK(l.sort_valid);
    CHECK_EQ_U(l.gap_count, 0);
    static const uint32_t methods[7] = {0x000, 0x020, 0x040, 0x060, 0x080, 0x0A0, 0x100};
    for (size_t i = 0; i < l.count; i++) {
        CHECK_EQ_U(l.entries[i].flags & UE_RSLI_METHOD_MASK, methods[i]);
        uint8_t *p;
        size_t n;
        REQUIRE(ue_rsli_read(&l, i, &p, &n, &d) == UE_OK);
        char name[16];
        ue_rsli_entry_name(&l.entries[i], name, sizeof name);
        CHECK(n > 100 && memcmp(p, name, strlen(name)) == 0);
        if (methods[i] >= 0x40) CHECK(l.entries[i].packed_size < l.entries[i].unpacked_size);
        free(p);
    }
    /* Deterministic, and the lossless writer reproduces it. */
    ue_buf b2 = {0};
    REQUIRE(ue_sample_rsli(&b2) == UE_OK);
    CHECK_EQ_U(b2.size, b.size);
    CHECK_MEM(b2.data, b.data, b.size);
    ue_buf out = {0};
    CHECK_EQ_U(ue_rsli_write(&l, &out, NULL), UE_OK);
    CHECK_EQ_U(out.size, b.size);
    CHECK_MEM(out.data, b.data, b.size);
    ue_buf_free(&out);
    ue_buf_free(&b2);
    ue_rsli_free(&l);
    ue_diag_free(&d);
    ue_buf_free(&b);
}

/* Editing a library that was not presorted but holds XOR entries: the rebuilt file sets 0xABBA
 * and re-keys the untouched XOR payloads to their new rows. */
static void test_edit_rekeys_xor(void) {
    image im;
    build_all_methods(&im, false);
    ue_source src = ue_source_memory(im.b, im.size);
    ue_rsli l;
    REQUIRE(ue_rsli_parse(&src, UE_MODE_STRICT, NULL, &l, NULL) == UE_OK);
    /* Removing G_STORED shifts every row up; adding "0FIRST" sorts first: every key moves. */
    CHECK_EQ_U(ue_rsli_remove(&l, 0), UE_OK);
    const char added[] = "a new XOR+LZHUF entry, a new XOR+LZHUF entry";
    CHECK_EQ_U(ue_rsli_add(&l, "0FIRST", UE_RSLI_XOR_LZHUF, added, sizeof added - 1, NULL), UE_OK);
    CHECK_EQ_U(ue_rsli_replace(&l, 0, "replaced xor", 12, NULL), UE_OK); /* F_XOR */
    CHECK_EQ_U(ue_rsli_add(&l, "ZZ", UE_RSLI_XOR, "zz!", 3, NULL), UE_OK);
    CHECK_EQ_U(ue_rsli_add(&l, "bad/name/too-long", 0, "x", 1, NULL), UE_ERR_USAGE);
    CHECK_EQ_U(ue_rsli_add(&l, "M", 0x1C0, "x", 1, NULL), UE_ERR_UNSUPPORTED);
    ue_buf out = {0};
    REQUIRE(ue_rsli_write(&l, &out, NULL) == UE_OK);
    ue_rsli_free(&l);

    ue_source s2 = ue_source_memory(out.data, out.size);
    ue_diag d = {0};
    REQUIRE(ue_rsli_parse(&s2, UE_MODE_STRICT, NULL, &l, &d) == UE_OK);
    CHECK(l.presorted);
    CHECK(l.sort_valid);
    CHECK_EQ_U(l.count, 8);
    /* rows: F_XOR E_LZSS D_XLZSS C_LZHUF B_XLZHUF A_DEFL 0FIRST ZZ; sorted:
     * 0FIRST(6) A_DEFL(5) B_XLZHUF(4) C_LZHUF(3) D_XLZSS(2) E_LZSS(1) F_XOR(0) ZZ(7) */
    static const uint16_t want_sort[8] = {6, 5, 4, 3, 2, 1, 0, 7};
    for (size_t i = 0; i < 8; i++) CHECK_EQ_U(l.entries[i].sort_disk, want_sort[i]);
    expect_payload(&l, 0, "replaced xor", 12);
    expect_payload(&l, 1, "ABC", 3);
    expect_payload(&l, 2, "ABC", 3);
    expect_payload(&l, 3, "ABABABA!", 8);
    expect_payload(&l, 4, "ABABABA!", 8);
    expect_payload(&l, 5, "ABC", 3);
    expect_payload(&l, 6, added, sizeof added - 1);
    expect_payload(&l, 7, "zz!", 3);
    /* The unused header bytes survive edits. */
    CHECK_EQ_U(out.data[6], 0xEE);
    CHECK_EQ_U(out.data[0x1F], 0x99);
    /* And the re-emitted edited file is itself lossless. */
    ue_buf again = {0};
    CHECK_EQ_U(ue_rsli_write(&l, &again, NULL), UE_OK);
    CHECK_EQ_U(again.size, out.size);
    CHECK_MEM(again.data, out.data, out.size);
    ue_buf_free(&again);
    ue_rsli_free(&l);
    ue_diag_free(&d);
    ue_buf_free(&out);
}

static ue_result write_file(const char *path, const void *p, size_t n) {
    return ue_file_write_atomic(path, p, n, true, NULL);
}

/* extract → pack through the generic archive layer: byte-identical, and an edited payload is
 * re-packed with its method. */
static void test_extract_pack(void) {
    ue_buf b = {0};
    REQUIRE(ue_sample_rsli(&b) == UE_OK);
    const char *dir = "test_rsli_extract";
    ue_remove_tree(dir);
    ue_archive *a;
    ue_diag d = {0};
    REQUIRE(ue_archive_open_memory(b.data, b.size, "sample.lib", UE_MODE_STRICT, &a, &d) == UE_OK);
    CHECK_STR(ue_archive_format(a), "rsli");
    CHECK_EQ_U(ue_archive_count(a), 7);
    ue_entry_info info;
    ue_archive_entry(a, 4, &info);
    CHECK_STR(info.name, "LZHUF.TXT");
    CHECK_STR(info.method, "lzhuf");
    size_t idx;
    CHECK_EQ_U(ue_archive_find(a, "deflate.txt", &idx), UE_OK);
    CHECK_EQ_U(idx, 6);
    CHECK_EQ_U(ue_archive_validate(a, &d), UE_OK);
    ue_buf re = {0};
    CHECK_EQ_U(ue_archive_reencode(a, &re, &d), UE_OK);
    CHECK_EQ_U(re.size, b.size);
    CHECK_MEM(re.data, b.data, b.size);
    ue_buf_free(&re);
    char *js = ue_archive_list_json(a);
    CHECK(js && strstr(js, "\"xor+lzhuf\"") && strstr(js, "\"sort_value\""));
    free(js);
    REQUIRE(ue_archive_extract(a, dir, true, &d) == UE_OK);
    ue_archive_close(a);

    ue_buf packed = {0};
    CHECK_EQ_U(ue_archive_pack(dir, &packed, &d), UE_OK);
    CHECK_EQ_U(packed.size, b.size);
    if (packed.size == b.size) CHECK_MEM(packed.data, b.data, b.size);
    ue_buf_free(&packed);

    /* Edit the XOR+LZSS payload and the stored one. */
    char path[256];
    const char xl[] = "edited XOR+LZSS text, edited XOR+LZSS text, edited XOR+LZSS text";
    snprintf(path, sizeof path, "%s/entries/0003_XORLZSS.TXT", dir);
    REQUIRE(write_file(path, xl, sizeof xl - 1) == UE_OK);
    snprintf(path, sizeof path, "%s/entries/0000_STORED.TXT", dir);
    REQUIRE(write_file(path, "tiny", 4) == UE_OK);
    CHECK_EQ_U(ue_archive_pack(dir, &packed, &d), UE_OK);
    ue_source src = ue_source_memory(packed.data, packed.size);
    ue_rsli l;
    REQUIRE(ue_rsli_parse(&src, UE_MODE_STRICT, NULL, &l, &d) == UE_OK);
    CHECK_EQ_U(l.count, 7);
    CHECK_EQ_U(l.entries[3].flags & UE_RSLI_METHOD_MASK, UE_RSLI_XOR_LZSS);
    expect_payload(&l, 3, xl, sizeof xl - 1);
    expect_payload(&l, 0, "tiny", 4);
    uint8_t *p;
    size_t n;
    REQUIRE(ue_rsli_read(&l, 5, &p, &n, &d) == UE_OK); /* untouched XOR+LZHUF still decodes */
    CHECK(memcmp(p, "XORLZHUF.TXT line 00", 20) == 0);
    free(p);
    ue_rsli_free(&l);
    ue_buf_free(&packed);
    ue_remove_tree(dir);
    ue_diag_free(&d);
    ue_buf_free(&b);
}

/* Tolerant extract of a damaged file: pack refuses to write it back, since the entry that
 * does not decode fails validate's strict check (pack never writes what validate rejects),
 * unless asked to with UE_MODE_TOLERANT: then it comes back byte-identical. */
static void test_extract_pack_damaged(void) {
    row rows[2] = {{"GOOD", 0x040, 0, 3, 96, 4}, {"BROKEN", 0x040, 0, 50, 100, 4}};
    image im;
    image_header(&im, 2, 0, 0x77, rows, 2);
    image_put(&im, 96, LZSS_ABC, 4);
    image_put(&im, 100, LZSS_ABC, 4); /* decodes to 3 bytes, not 50 */
    image_put(&im, 104, "gap!", 4);    /* unindexed bytes */
    const char *dir = "test_rsli_damaged";
    ue_remove_tree(dir);
    ue_archive *a;
    ue_diag d = {0};
    REQUIRE(ue_archive_open_memory(im.b, im.size, "dmg.lib", UE_MODE_TOLERANT, &a, &d) == UE_OK);
    REQUIRE(ue_archive_extract(a, dir, true, &d) == UE_OK);
    ue_entry_info info;
    ue_archive_entry(a, 1, &info);
    CHECK(info.damaged);
    ue_archive_close(a);
    ue_buf packed = {0};
    ue_diag why = {0};
    CHECK_EQ_U(ue_archive_pack(dir, &packed, &why), UE_ERR_INVALID);
    CHECK_EQ_U(packed.size, 0);
    bool refused = false;
    for (size_t i = 0; i < why.count; i++) refused |= !strcmp(why.items[i].code, "manifest.invalid");
    CHECK(refused);
    ue_diag_free(&why);
    /* Asked to (tolerant), pack writes it back as it was: byte-identical, the damage a warning. */
    const ue_pack_options tolerant = {UE_PACK_LEVEL_MANIFEST, UE_MODE_TOLERANT};
    ue_diag warned = {0};
    CHECK_EQ_U(ue_archive_pack_opts(dir, &tolerant, &packed, &warned), UE_OK);
    CHECK_EQ_U(packed.size, im.size);
    if (packed.size == im.size) CHECK_MEM(packed.data, im.b, im.size);
    bool warning = false;
    for (size_t i = 0; i < warned.count; i++)
        warning |= !strcmp(warned.items[i].code, "manifest.invalid") && warned.items[i].severity == UE_SEV_WARNING;
    CHECK(warning);
    ue_diag_free(&warned);
    ue_buf_free(&packed);
    ue_remove_tree(dir);
    ue_diag_free(&d);
}

/* A declared size no stream of the packed length could produce is refused before any
 * allocation, with the bound computed per method. */
static void test_impossible_sizes_refused(void) {
    const uint8_t packed[70] = {0};
    struct {
        uint32_t method;
        size_t packed, ok, bad;
    } cases[] = {
        {UE_RSLI_STORED, 70, 70, 71},
        {UE_RSLI_LZSS, 68, (68 / 17 + 1) * 144 - 200, (68 / 17 + 1) * 144 + 1},
        {UE_RSLI_LZHUF, 70, 100, 70 * 48 + 61},
        {UE_RSLI_DEFLATE, 70, 1000, 0x7FFFFFF0},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        uint8_t *out = NULL;
        ue_diag d = {0};
        CHECK_EQ_U(ue_rsli_unpack(cases[c].method, 0, packed, cases[c].packed, cases[c].bad, &out, &d, 0x40,
                                  "rsli/entry[0]"),
                   UE_ERR_INVALID);
        CHECK(out == NULL);
        REQUIRE(d.count == 1);
        CHECK_STR(d.items[0].code, "rsli.unpack.size");
        CHECK_EQ_U(d.items[0].offset, 0x40);
        ue_diag_free(&d);
        /* Below the bound the size is accepted by this check (the stream itself may still fail). */
        ue_rsli_unpack(cases[c].method, 0, packed, cases[c].packed, cases[c].ok, &out, &d, 0, "t");
        for (size_t k = 0; k < d.count; k++) CHECK(strcmp(d.items[k].code, "rsli.unpack.size") != 0);
        free(out);
        ue_diag_free(&d);
    }
}

/* Bounded work: two rows naming the same packed bytes. Strict mode refuses the library;
 * tolerant mode keeps the first and never decodes the second. */
static void test_shared_packed_bytes(void) {
    row rows[2] = {{"A", 0x000, 0, 3, 96, 3}, {"B", 0x000, 1, 3, 96, 3}};
    image im;
    image_header(&im, 2, 0, 0x1234, rows, 2);
    image_put(&im, 96, "ABC", 3);
    ue_source src = ue_source_memory(im.b, im.size);
    ue_rsli l;
    ue_diag d = {0};
    CHECK_EQ_U(ue_rsli_parse(&src, UE_MODE_STRICT, NULL, &l, &d), UE_ERR_INVALID);
    const ue_diag_item *it = diag_find(&d, "rsli.entry.overlap", NULL);
    REQUIRE(it);
    CHECK_EQ_U(it->offset, 32 + 32 + 0x18); /* row 1's data_offset field */
    ue_diag_free(&d);
    REQUIRE(ue_rsli_parse(&src, UE_MODE_TOLERANT, NULL, &l, &d) == UE_OK);
    CHECK(!l.entries[0].damaged && !l.entries[0].shares_bytes);
    CHECK(l.entries[1].damaged && l.entries[1].shares_bytes);
    expect_payload(&l, 0, "ABC", 3);
    ue_rsli_free(&l);
    ue_diag_free(&d);
}

int main(void) {
    RUN(test_impossible_sizes_refused);
    RUN(test_single_stored);
    RUN(test_all_methods_presorted);
    RUN(test_all_methods_rebuilt_sort);
    RUN(test_presorted_wrong_order);
    RUN(test_ao_trailer);
    RUN(test_deflate_eof_plus_one);
    RUN(test_bad_headers);
    RUN(test_bad_entries);
    RUN(test_stream_size_mismatches);
    RUN(test_pack_unpack_every_method);
    RUN(test_sample);
    RUN(test_edit_rekeys_xor);
    RUN(test_extract_pack);
    RUN(test_extract_pack_damaged);
    RUN(test_shared_packed_bytes);
    return TEST_SUMMARY();
}
