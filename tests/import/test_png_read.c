/* unearth tests — the PNG reader of texture import: images from the library's own encoder (every
 * row filter it picks) and hand-built ones (grey, palette with tRNS), and each refusal. */
#include <stdlib.h>
#include <zlib.h>

#include "test.h"
#include "import/png_read.h"
#include "unearth/image.h"

static void put_be32(ue_buf *b, uint32_t v) { ue_buf_put_u32be(b, v); }

/* A chunk with its CRC, written here (not by the encoder under comparison). */
static void chunk(ue_buf *b, const char *type, const uint8_t *data, uint32_t n) {
    put_be32(b, n);
    ue_buf_put(b, type, 4);
    ue_buf_put(b, data, n);
    uLong crc = crc32(0L, (const Bytef *)type, 4);
    if (n) crc = crc32(crc, data, n); /* crc32(crc, NULL, 0) would restart at 0 */
    put_be32(b, (uint32_t)crc);
}

/* An 8-bit PNG of colour type `ctype` with rows already filtered (each starts with its filter). */
static void hand_png(ue_buf *b, uint32_t w, uint32_t h, uint8_t ctype, uint8_t depth, uint8_t interlace,
                     const uint8_t *rows, size_t rows_size, const uint8_t *plte, uint32_t plte_n,
                     const uint8_t *trns, uint32_t trns_n) {
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    ue_buf_put(b, sig, 8);
    uint8_t ihdr[13] = {(uint8_t)(w >> 24), (uint8_t)(w >> 16), (uint8_t)(w >> 8), (uint8_t)w,
                        (uint8_t)(h >> 24), (uint8_t)(h >> 16), (uint8_t)(h >> 8), (uint8_t)h,
                        depth, ctype, 0, 0, interlace};
    chunk(b, "IHDR", ihdr, 13);
    if (plte) chunk(b, "PLTE", plte, plte_n);
    if (trns) chunk(b, "tRNS", trns, trns_n);
    uint8_t z[512];
    uLongf zn = sizeof z;
    compress(z, &zn, rows, (uLong)rows_size);
    chunk(b, "IDAT", z, (uint32_t)zn);
    chunk(b, "IEND", NULL, 0);
}

static void test_own_encoder(void) {
    enum { W = 13, H = 7 };
    uint8_t px[W * H * 4];
    for (size_t i = 0; i < sizeof px; i++) px[i] = (uint8_t)(i * 31 + (i / 52) * 7);
    for (int opaque = 0; opaque < 2; opaque++) {
        if (opaque)
            for (size_t i = 3; i < sizeof px; i += 4) px[i] = 255; /* stored as RGB */
        ue_buf png = {0};
        REQUIRE(ue_png_encode_rgba(W, H, px, &png) == UE_OK);
        uint32_t w, h;
        uint8_t *rgba;
        ue_diag d = {0};
        CHECK_EQ_U(ue_png_decode_rgba(png.data, png.size, &w, &h, &rgba, &d), UE_OK);
        CHECK(w == W && h == H);
        if (rgba) CHECK_MEM(rgba, px, sizeof px);
        free(rgba);
        ue_buf_free(&png);
        ue_diag_free(&d);
    }
}

/* ue_png_has_text finds the tEXt mark ue_png_encode_rgba_text puts right after IHDR, from the
 * file's first bytes alone (8 signature + 25 IHDR + 8 chunk head + "Software" NUL "me" = 52). */
static void test_text_mark(void) {
    uint8_t px[4 * 4] = {0};
    ue_buf marked = {0}, plain = {0};
    REQUIRE(ue_png_encode_rgba_text(2, 2, px, "Software", "me", &marked) == UE_OK);
    REQUIRE(ue_png_encode_rgba(2, 2, px, &plain) == UE_OK);
    CHECK(ue_png_has_text(marked.data, 52, "Software", "me"));
    CHECK(ue_png_has_text(marked.data, marked.size, "Software", "me"));
    CHECK(!ue_png_has_text(marked.data, 51, "Software", "me")); /* cut inside the text */
    CHECK(!ue_png_has_text(marked.data, marked.size, "Software", "m")); /* another length */
    CHECK(!ue_png_has_text(marked.data, marked.size, "Software", "mE"));
    CHECK(!ue_png_has_text(marked.data, marked.size, "Softwarf", "me"));
    CHECK(!ue_png_has_text(plain.data, plain.size, "Software", "me"));
    marked.data[1] = 'p'; /* not a PNG signature */
    CHECK(!ue_png_has_text(marked.data, marked.size, "Software", "me"));
    ue_buf_free(&marked);
    ue_buf_free(&plain);
}

static void test_grey_and_palette(void) {
    /* grey 2 × 2, row 0 "Sub" (10, +5 → 15), row 1 "Up" (+1 over row 0: 11, 16) */
    const uint8_t grey_rows[] = {1, 10, 5, 2, 1, 1};
    ue_buf b = {0};
    hand_png(&b, 2, 2, 0, 8, 0, grey_rows, sizeof grey_rows, NULL, 0, NULL, 0);
    uint32_t w, h;
    uint8_t *rgba;
    REQUIRE(ue_png_decode_rgba(b.data, b.size, &w, &h, &rgba, NULL) == UE_OK);
    const uint8_t want[] = {10, 10, 10, 255, 15, 15, 15, 255, 11, 11, 11, 255, 16, 16, 16, 255};
    CHECK_MEM(rgba, want, sizeof want);
    free(rgba);
    ue_buf_free(&b);
    /* palette 3 × 1 with tRNS for entry 1 only */
    const uint8_t rows[] = {0, 0, 1, 2}, plte[] = {1, 2, 3, 40, 50, 60, 7, 8, 9}, trns[] = {255, 128};
    hand_png(&b, 3, 1, 3, 8, 0, rows, sizeof rows, plte, 9, trns, 2);
    REQUIRE(ue_png_decode_rgba(b.data, b.size, &w, &h, &rgba, NULL) == UE_OK);
    const uint8_t want_pal[] = {1, 2, 3, 255, 40, 50, 60, 128, 7, 8, 9, 255};
    CHECK_MEM(rgba, want_pal, sizeof want_pal);
    free(rgba);
    ue_buf_free(&b);
}

static void expect_refused(const ue_buf *b, ue_result want, const char *code) {
    uint32_t w, h;
    uint8_t *rgba = (uint8_t *)b; /* must come back NULL */
    ue_diag d = {0};
    CHECK_EQ_U(ue_png_decode_rgba(b->data, b->size, &w, &h, &rgba, &d), want);
    CHECK(rgba == NULL);
    if (!has_code(&d, code)) dump_diag(&d);
    CHECK(has_code(&d, code));
    ue_diag_free(&d);
}

static void test_refusals(void) {
    const uint8_t rows[] = {0, 1, 2}, idx_rows[] = {0, 5};
    ue_buf b = {0};
    hand_png(&b, 2, 1, 0, 8, 1, rows, sizeof rows, NULL, 0, NULL, 0);
    expect_refused(&b, UE_ERR_UNSUPPORTED, "png.interlace");
    ue_buf_free(&b);
    hand_png(&b, 2, 1, 0, 16, 0, rows, sizeof rows, NULL, 0, NULL, 0);
    expect_refused(&b, UE_ERR_UNSUPPORTED, "png.depth");
    ue_buf_free(&b);
    hand_png(&b, 2, 1, 0, 8, 0, rows, 2, NULL, 0, NULL, 0); /* one byte short */
    expect_refused(&b, UE_ERR_INVALID, "png.idat");
    ue_buf_free(&b);
    const uint8_t plte[] = {1, 2, 3};
    hand_png(&b, 1, 1, 3, 8, 0, idx_rows, sizeof idx_rows, plte, 3, NULL, 0); /* index 5 of 1 */
    expect_refused(&b, UE_ERR_INVALID, "png.index");
    ue_buf_free(&b);
    hand_png(&b, 2, 1, 0, 8, 0, rows, sizeof rows, NULL, 0, NULL, 0);
    b.data[8 + 8 + 13] ^= 1; /* IHDR's CRC */
    expect_refused(&b, UE_ERR_INVALID, "png.crc");
    b.data[8 + 8 + 13] ^= 1;
    b.size -= 5; /* cut inside IEND */
    expect_refused(&b, UE_ERR_INVALID, "png.truncated");
    ue_buf_free(&b);
    hand_png(&b, 20000, 1, 0, 8, 0, rows, sizeof rows, NULL, 0, NULL, 0);
    expect_refused(&b, UE_ERR_LIMIT, "png.limit");
    ue_buf_free(&b);
    /* 16384 × 16384 declared over a few bytes of IDAT: refused before anything is sized */
    hand_png(&b, 16384, 16384, 6, 8, 0, rows, sizeof rows, NULL, 0, NULL, 0);
    expect_refused(&b, UE_ERR_INVALID, "png.idat");
    ue_buf_free(&b);
    ue_buf not_png = {(uint8_t *)"GIF89a..", 8, 8, 0, false};
    expect_refused(&not_png, UE_ERR_INVALID, "png.signature");
}

int main(void) {
    RUN(test_own_encoder);
    RUN(test_grey_and_palette);
    RUN(test_text_mark);
    RUN(test_refusals);
    return TEST_SUMMARY();
}
