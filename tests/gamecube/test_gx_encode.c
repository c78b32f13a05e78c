/* unearth tests — GX texture encoders: images of exactly representable texels go through
 * encode → ue_gx_decode_level unchanged; known texels give the bytes docs/formats/hsd-materials.md#gx-texel-formats prescribes. */
#include <stdlib.h>

#include "test.h"
#include "unearth/gx.h"
#include "gamecube/gx_encode.h"

/* Bit replication, written out by hand for the widths used here. */
static uint8_t x5(unsigned v) { return (uint8_t)(v * 8 + v / 4); }
static uint8_t x6(unsigned v) { return (uint8_t)(v * 4 + v / 16); }
static uint8_t x4(unsigned v) { return (uint8_t)(v * 17); }
static uint8_t x3(unsigned v) { return (uint8_t)(v * 32 + v * 4 + v / 2); }

static void set(uint8_t *p, unsigned r, unsigned g, unsigned b, unsigned a) {
    p[0] = (uint8_t)r, p[1] = (uint8_t)g, p[2] = (uint8_t)b, p[3] = (uint8_t)a;
}

/* Decodes level 0 of `bytes` and compares it with `rgba`. */
static bool decodes_to(uint32_t fmt, const ue_buf *bytes, unsigned w, unsigned h,
                       const uint8_t *rgba, const ue_buf *tlut, uint32_t tlut_fmt) {
    ue_gx_image img = {bytes->data, bytes->size, w, h, fmt, NULL, 0, 0, 0};
    if (tlut) {
        img.tlut = tlut->data;
        img.tlut_size = tlut->size;
        img.tlut_count = tlut->size / 2;
        img.tlut_format = tlut_fmt;
    }
    size_t bytes_needed = 0;
    if (ue_gx_level_size(fmt, w, h, 0, NULL, NULL, &bytes_needed, NULL) != UE_OK ||
        bytes_needed != bytes->size)
        return false;
    uint8_t *out = malloc((size_t)w * h * 4);
    ue_diag d = {0};
    bool ok = out && ue_gx_decode_level(&img, 0, UE_MODE_STRICT, out, (size_t)w * h * 4, &d, 0,
                                        "t") == UE_OK &&
              memcmp(out, rgba, (size_t)w * h * 4) == 0;
    free(out);
    ue_diag_free(&d);
    return ok;
}

/* 5 × 6 (padding in both directions) of varied representable texels. */
static void test_rgb5a3(void) {
    uint8_t px[5 * 6 * 4];
    for (unsigned i = 0; i < 30; i++) {
        if (i % 3) set(px + 4 * i, x5(i), x5(31 - i), x5((7 * i) & 31), 255);
        else set(px + 4 * i, x4(i & 15), x4(15 - (i & 15)), x4((3 * i) & 15), x3(i % 7));
    }
    ue_buf b = {0};
    REQUIRE(ue_gx_encode_rgba(UE_GX_RGB5A3, px, 5, 6, &b) == UE_OK);
    CHECK(decodes_to(UE_GX_RGB5A3, &b, 5, 6, px, NULL, 0));
    /* texel 1 is opaque (1, 30, 7) in 5 bits: 1 00001 11110 00111 = 0x87C7 */
    CHECK_EQ_U((b.data[2] << 8) | b.data[3], 0x87C7);
    /* texel 0: alpha 0, colour (0, 15, 0): 0 000 0000 1111 0000 = 0x00F0 */
    CHECK_EQ_U((b.data[0] << 8) | b.data[1], 0x00F0);
    ue_buf_free(&b);
}

static void test_rgb565_ia8_i8(void) {
    uint8_t c[9 * 5 * 4], grey[9 * 5 * 4], ia[9 * 5 * 4];
    for (unsigned i = 0; i < 45; i++) {
        set(c + 4 * i, x5(i % 32), x6((5 * i) % 64), x5((i * 3) % 32), 255);
        set(grey + 4 * i, 5 * i, 5 * i, 5 * i, 5 * i);
        set(ia + 4 * i, 200 - i, 200 - i, 200 - i, 3 * i);
    }
    ue_buf b = {0};
    REQUIRE(ue_gx_encode_rgba(UE_GX_RGB565, c, 9, 5, &b) == UE_OK);
    CHECK(decodes_to(UE_GX_RGB565, &b, 9, 5, c, NULL, 0));
    ue_buf_free(&b);
    REQUIRE(ue_gx_encode_rgba(UE_GX_I8, grey, 9, 5, &b) == UE_OK);
    CHECK(decodes_to(UE_GX_I8, &b, 9, 5, grey, NULL, 0));
    /* I8 blocks are 8 × 4: texel (0, 1) is byte 8 of the first block, (8, 0) starts block 1 */
    CHECK_EQ_U(b.data[8], 45);
    CHECK_EQ_U(b.data[32], 40);
    ue_buf_free(&b);
    REQUIRE(ue_gx_encode_rgba(UE_GX_IA8, ia, 9, 5, &b) == UE_OK);
    CHECK(decodes_to(UE_GX_IA8, &b, 9, 5, ia, NULL, 0));
    CHECK_EQ_U(b.data[2], 3);   /* texel 1: alpha first */
    CHECK_EQ_U(b.data[3], 199); /* then intensity */
    ue_buf_free(&b);
}

/* C4 with an RGB5A3 palette and C8 with an RGB565 palette, 10 × 9 texels. */
static void test_palettes(void) {
    uint8_t pal5a3[16 * 4], pal565[200 * 4], idx4[90], idx8[90], want4[90 * 4], want8[90 * 4];
    for (unsigned i = 0; i < 16; i++) /* alpha 7 is the opaque 5-bit form */
        if (i % 8 == 7) set(pal5a3 + 4 * i, x5(2 * i), x5(31 - i), x5(i), 255);
        else set(pal5a3 + 4 * i, x4(i), x4(15 - i), x4(i / 2), x3(i % 8));
    for (unsigned i = 0; i < 200; i++) set(pal565 + 4 * i, x5(i % 32), x6(i % 64), x5(31 - i % 32), 255);
    for (unsigned i = 0; i < 90; i++) {
        idx4[i] = (uint8_t)((i * 7) % 16);
        idx8[i] = (uint8_t)((i * 13) % 200);
        memcpy(want4 + 4 * i, pal5a3 + 4 * idx4[i], 4);
        memcpy(want8 + 4 * i, pal565 + 4 * idx8[i], 4);
    }
    ue_buf px = {0}, tl = {0};
    REQUIRE(ue_gx_encode_indices(UE_GX_C4, idx4, 10, 9, &px) == UE_OK);
    REQUIRE(ue_gx_encode_palette(UE_GX_TLUT_RGB5A3, pal5a3, 16, &tl) == UE_OK);
    CHECK(decodes_to(UE_GX_C4, &px, 10, 9, want4, &tl, UE_GX_TLUT_RGB5A3));
    CHECK_EQ_U(px.data[0], (0u << 4) | 7u); /* texels 0 and 1: high nibble first */
    ue_buf_free(&px);
    ue_buf_free(&tl);
    REQUIRE(ue_gx_encode_indices(UE_GX_C8, idx8, 10, 9, &px) == UE_OK);
    REQUIRE(ue_gx_encode_palette(UE_GX_TLUT_RGB565, pal565, 200, &tl) == UE_OK);
    CHECK(decodes_to(UE_GX_C8, &px, 10, 9, want8, &tl, UE_GX_TLUT_RGB565));
    ue_buf_free(&px);
    ue_buf_free(&tl);
    uint8_t too_big = 16;
    CHECK(ue_gx_encode_indices(UE_GX_C4, &too_big, 1, 1, &px) == UE_ERR_USAGE);
    ue_buf_free(&px);
}

/* CMPR: yellow 0xFFE0 and blue 0x001F; 4-colour mode adds (5·255 + 3·0) >> 3 = 159 and
 * (3·255) >> 3 = 95 per channel; 3-colour mode adds the half (127) and transparent black. */
static void test_cmpr(void) {
    uint8_t px[8 * 8 * 4];
    static const uint8_t four[4][4] = {{255, 255, 0, 255}, {0, 0, 255, 255},
                                       {159, 159, 95, 255}, {95, 95, 159, 255}};
    static const uint8_t three[4][4] = {{255, 255, 0, 255}, {0, 0, 255, 255},
                                        {127, 127, 127, 255}, {0, 0, 0, 0}};
    for (unsigned y = 0; y < 8; y++)
        for (unsigned x = 0; x < 8; x++) {
            unsigned k = (x + 3 * y) % 4;
            memcpy(px + 4 * (y * 8 + x), x < 4 ? four[k] : three[k], 4);
        }
    ue_buf b = {0};
    REQUIRE(ue_gx_encode_rgba(UE_GX_CMPR, px, 8, 8, &b) == UE_OK);
    REQUIRE(b.size == 32);
    CHECK(decodes_to(UE_GX_CMPR, &b, 8, 8, px, NULL, 0));
    /* sub-block 0 (top-left) is 4-colour: c0 > c1; sub-block 1 (top-right) 3-colour: c0 <= c1 */
    CHECK_EQ_U((b.data[0] << 8) | b.data[1], 0xFFE0);
    CHECK_EQ_U((b.data[2] << 8) | b.data[3], 0x001F);
    CHECK_EQ_U((b.data[8] << 8) | b.data[9], 0x001F);
    CHECK_EQ_U((b.data[10] << 8) | b.data[11], 0xFFE0);
    /* row 0 of sub-block 0 uses colours 0, 1, 2, 3 left to right: 00 01 10 11 */
    CHECK_EQ_U(b.data[4], 0x1B);
    ue_buf_free(&b);
    /* one colour only: both end points equal, every selector 0, decodes back */
    for (unsigned i = 0; i < 64; i++) set(px + 4 * i, x5(9), x6(40), x5(20), 255);
    REQUIRE(ue_gx_encode_rgba(UE_GX_CMPR, px, 8, 8, &b) == UE_OK);
    CHECK(decodes_to(UE_GX_CMPR, &b, 8, 8, px, NULL, 0));
    ue_buf_free(&b);
}

/* I4 (8 × 8 blocks, two texels a byte), IA4 (8 × 4, alpha in the high nibble) and RGBA8 (4 × 4,
 * A R pairs then G B pairs) on 9 × 10 texels; off-grid values round to the nearest step. */
static void test_i4_ia4_rgba8(void) {
    uint8_t grey4[9 * 10 * 4], ia4[9 * 10 * 4], full[9 * 10 * 4];
    for (unsigned i = 0; i < 90; i++) {
        set(grey4 + 4 * i, x4(i % 16), x4(i % 16), x4(i % 16), x4(i % 16));
        set(ia4 + 4 * i, x4((3 * i) % 16), x4((3 * i) % 16), x4((3 * i) % 16), x4(15 - i % 16));
        set(full + 4 * i, (i * 7) & 255, (i * 11) & 255, 255 - i, (i * 29) & 255);
    }
    ue_buf b = {0};
    REQUIRE(ue_gx_encode_rgba(UE_GX_I4, grey4, 9, 10, &b) == UE_OK);
    CHECK(decodes_to(UE_GX_I4, &b, 9, 10, grey4, NULL, 0));
    CHECK_EQ_U(b.data[0], 0x01);         /* texels 0 and 1: intensities 0 and 1 */
    CHECK_EQ_U(b.data[4], (9u << 4) | 10u); /* row 1 starts at texel 9 */
    ue_buf_free(&b);
    REQUIRE(ue_gx_encode_rgba(UE_GX_IA4, ia4, 9, 10, &b) == UE_OK);
    CHECK(decodes_to(UE_GX_IA4, &b, 9, 10, ia4, NULL, 0));
    CHECK_EQ_U(b.data[1], (14u << 4) | 3u); /* texel 1: alpha 15 − 1, intensity 3 */
    ue_buf_free(&b);
    REQUIRE(ue_gx_encode_rgba(UE_GX_RGBA8, full, 9, 10, &b) == UE_OK);
    CHECK(decodes_to(UE_GX_RGBA8, &b, 9, 10, full, NULL, 0));
    CHECK_EQ_U(b.data[2], 29);  /* texel 1: A, R */
    CHECK_EQ_U(b.data[3], 7);
    CHECK_EQ_U(b.data[34], 11); /* then G, B */
    CHECK_EQ_U(b.data[35], 254);
    ue_buf_free(&b);
    /* Off the grid: intensity 100 is 100·15/255 = 5.88 → 6 (102); alpha 30 → 1.76 → 2 (34). */
    uint8_t odd[4] = {100, 100, 100, 30};
    REQUIRE(ue_gx_encode_rgba(UE_GX_IA4, odd, 1, 1, &b) == UE_OK);
    CHECK_EQ_U(b.data[0], (2u << 4) | 6u);
    ue_buf_free(&b);
    REQUIRE(ue_gx_encode_rgba(UE_GX_I4, odd, 1, 1, &b) == UE_OK);
    CHECK_EQ_U(b.data[0] >> 4, 6);
    ue_buf_free(&b);
}

static void test_usage(void) {
    uint8_t px[4] = {0};
    ue_buf b = {0};
    CHECK(ue_gx_encode_rgba(UE_GX_C14X2, px, 1, 1, &b) == UE_ERR_USAGE);
    CHECK(ue_gx_encode_rgba(UE_GX_I8, px, 0, 1, &b) == UE_ERR_USAGE);
    CHECK(ue_gx_encode_rgba(UE_GX_I8, px, 1025, 1, &b) == UE_ERR_USAGE);
    CHECK(ue_gx_encode_palette(7, px, 1, &b) == UE_ERR_USAGE);
    CHECK_EQ_U(b.size, 0);
    ue_buf_free(&b);
}

int main(void) {
    RUN(test_rgb5a3);
    RUN(test_rgb565_ia8_i8);
    RUN(test_palettes);
    RUN(test_cmpr);
    RUN(test_i4_ia4_rgba8);
    RUN(test_usage);
    return TEST_SUMMARY();
}
