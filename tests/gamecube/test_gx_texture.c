/* unearth tests — GX texture decoders: hand-tiled images of every format (docs/formats/hsd-materials.md#gx-texel-formats, palettes
 * docs/formats/hsd-materials.md#palette) checked against expected texels from the test's own bit-replication and tiling formulas. */
#include <stdlib.h>

#include "test.h"
#include "unearth/gx.h"

/* ---- the test's own model of the formats ---------------------------------------------------- */

/* Bit replication written out: the n-bit pattern repeated from the top bit down to bit 0. */
static unsigned rep(unsigned v, unsigned n) {
    unsigned out = 0;
    for (unsigned i = 0; i < 8; i++) {
        unsigned src_bit = n - 1 - (i % n);
        out |= ((v >> src_bit) & 1u) << (7 - i);
    }
    return out;
}

/* Index of texel (x, y) in the tiled stream: blocks of bw × bh left to right, top to bottom
 * over the width padded to whole blocks; row-major inside a block. */
static size_t tiled(unsigned x, unsigned y, unsigned w, unsigned bw, unsigned bh) {
    unsigned blocks_x = (w + bw - 1) / bw;
    size_t block = (size_t)(y / bh) * blocks_x + x / bw;
    return block * bw * bh + (y % bh) * bw + x % bw;
}

typedef struct px4 { unsigned r, g, b, a; } px4;

static px4 from_565(unsigned v) {
    px4 p = {rep(v >> 11, 5), rep((v >> 5) & 63, 6), rep(v & 31, 5), 255};
    return p;
}
static px4 from_5a3(unsigned v) {
    if (v >> 15) {
        px4 p = {rep((v >> 10) & 31, 5), rep((v >> 5) & 31, 5), rep(v & 31, 5), 255};
        return p;
    }
    px4 p = {rep((v >> 8) & 15, 4), rep((v >> 4) & 15, 4), rep(v & 15, 4), rep(v >> 12, 3)};
    return p;
}
static px4 from_ia8(unsigned v) {
    px4 p = {v & 255, v & 255, v & 255, v >> 8};
    return p;
}

static void put16(uint8_t *p, size_t i, unsigned v) {
    p[2 * i] = (uint8_t)(v >> 8);
    p[2 * i + 1] = (uint8_t)v;
}

static ue_gx_image image(const uint8_t *data, size_t size, unsigned w, unsigned h, uint32_t fmt) {
    ue_gx_image img;
    memset(&img, 0, sizeof img);
    img.data = data;
    img.size = size;
    img.width = w;
    img.height = h;
    img.format = fmt;
    return img;
}

/* Decodes level 0 (strict) and returns a fresh RGBA buffer, or NULL on failure. */
static uint8_t *decode(const ue_gx_image *img, unsigned level) {
    uint32_t lw = 0, lh = 0;
    if (ue_gx_level_size(img->format, img->width, img->height, level, &lw, &lh, NULL, NULL) != UE_OK)
        return NULL;
    uint8_t *out = malloc((size_t)lw * lh * 4);
    if (!out) return NULL;
    memset(out, 0xCD, (size_t)lw * lh * 4);
    if (ue_gx_decode_level(img, level, UE_MODE_STRICT, out, (size_t)lw * lh * 4, NULL, 0, NULL) != UE_OK) {
        free(out);
        return NULL;
    }
    return out;
}

static int pixel_mismatches;
static void expect_px(const uint8_t *rgba, unsigned w, unsigned x, unsigned y, px4 e) {
    const uint8_t *p = rgba + 4 * ((size_t)y * w + x);
    if (p[0] != e.r || p[1] != e.g || p[2] != e.b || p[3] != e.a) {
        if (pixel_mismatches++ < 8)
            fprintf(stderr, "  texel (%u,%u) = %u,%u,%u,%u, expected %u,%u,%u,%u\n", x, y, p[0], p[1],
                    p[2], p[3], e.r, e.g, e.b, e.a);
        ue_test_failed_checks++;
    }
}

/* ---- direct formats ----------------------------------------------------------------------- */

static void test_i4(void) { /* 16×8: two 8×8 blocks side by side */
    uint8_t data[64] = {0};
    for (unsigned y = 0; y < 8; y++)
        for (unsigned x = 0; x < 16; x++) {
            unsigned v = (x * 3 + y * 5) & 15;
            size_t t = tiled(x, y, 16, 8, 8);
            data[t / 2] |= (uint8_t)(t % 2 ? v : v << 4); /* high nibble = left texel */
        }
    ue_gx_image img = image(data, sizeof data, 16, 8, UE_GX_I4);
    uint8_t *out = decode(&img, 0);
    REQUIRE(out);
    for (unsigned y = 0; y < 8; y++)
        for (unsigned x = 0; x < 16; x++) {
            unsigned i = rep((x * 3 + y * 5) & 15, 4);
            expect_px(out, 16, x, y, (px4){i, i, i, i});
        }
    /* one texel by hand: (1,0) is 3 → 0x33 */
    CHECK_EQ_U(out[4], 0x33);
    free(out);
}

static void test_i8(void) { /* 8×8: two 8×4 blocks stacked */
    uint8_t data[64];
    for (unsigned y = 0; y < 8; y++)
        for (unsigned x = 0; x < 8; x++) data[tiled(x, y, 8, 8, 4)] = (uint8_t)(x * 37 + y * 11);
    ue_gx_image img = image(data, sizeof data, 8, 8, UE_GX_I8);
    uint8_t *out = decode(&img, 0);
    REQUIRE(out);
    for (unsigned y = 0; y < 8; y++)
        for (unsigned x = 0; x < 8; x++) {
            unsigned i = (x * 37 + y * 11) & 255;
            expect_px(out, 8, x, y, (px4){i, i, i, i});
        }
    CHECK_EQ_U(data[32], 44); /* (0,4) starts the second block: 4·11 */
    free(out);
}

static void test_ia4(void) { /* 8×4: high nibble alpha, low nibble intensity */
    uint8_t data[32];
    for (unsigned k = 0; k < 32; k++) data[k] = (uint8_t)(k * 29 + 7);
    ue_gx_image img = image(data, sizeof data, 8, 4, UE_GX_IA4);
    uint8_t *out = decode(&img, 0);
    REQUIRE(out);
    for (unsigned y = 0; y < 4; y++)
        for (unsigned x = 0; x < 8; x++) {
            unsigned v = data[tiled(x, y, 8, 8, 4)];
            unsigned i = rep(v & 15, 4);
            expect_px(out, 8, x, y, (px4){i, i, i, rep(v >> 4, 4)});
        }
    /* by hand: byte 0 is 0x07 → I 0x77, A 0x00 */
    CHECK_EQ_U(out[0], 0x77);
    CHECK_EQ_U(out[3], 0x00);
    free(out);
}

static void test_ia8(void) { /* 8×4: two 4×4 blocks side by side; byte 0 alpha, byte 1 I */
    uint8_t data[64];
    for (unsigned y = 0; y < 4; y++)
        for (unsigned x = 0; x < 8; x++)
            put16(data, tiled(x, y, 8, 4, 4), (x * 0x2F1u + y * 0x1C3u + 0x40u) & 0xFFFFu);
    ue_gx_image img = image(data, sizeof data, 8, 4, UE_GX_IA8);
    uint8_t *out = decode(&img, 0);
    REQUIRE(out);
    for (unsigned y = 0; y < 4; y++)
        for (unsigned x = 0; x < 8; x++)
            expect_px(out, 8, x, y, from_ia8((x * 0x2F1u + y * 0x1C3u + 0x40u) & 0xFFFFu));
    free(out);
}

static unsigned v565(unsigned x, unsigned y) { return (x * 0x1357u + y * 0x2468u + 0x0F0Fu) & 0xFFFFu; }

static void test_rgb565(void) { /* 4×8: two 4×4 blocks stacked */
    uint8_t data[64];
    for (unsigned y = 0; y < 8; y++)
        for (unsigned x = 0; x < 4; x++) put16(data, tiled(x, y, 4, 4, 4), v565(x, y));
    ue_gx_image img = image(data, sizeof data, 4, 8, UE_GX_RGB565);
    uint8_t *out = decode(&img, 0);
    REQUIRE(out);
    for (unsigned y = 0; y < 8; y++)
        for (unsigned x = 0; x < 4; x++) expect_px(out, 4, x, y, from_565(v565(x, y)));
    /* by hand: 0x0F0F = r 00001 g 111000 b 01111 → 0x08, 0xE3, 0x7B */
    CHECK_EQ_U(out[0], 0x08);
    CHECK_EQ_U(out[1], 0xE3);
    CHECK_EQ_U(out[2], 0x7B);
    CHECK_EQ_U(out[3], 0xFF);
    free(out);
}

static void test_rgb5a3(void) { /* 4×4, both encodings */
    uint8_t data[32];
    for (unsigned k = 0; k < 16; k++) put16(data, k, ((k * 0x3A5Du + 0x1234u) & 0x7FFFu) | (k % 2 ? 0x8000u : 0));
    ue_gx_image img = image(data, sizeof data, 4, 4, UE_GX_RGB5A3);
    uint8_t *out = decode(&img, 0);
    REQUIRE(out);
    for (unsigned y = 0; y < 4; y++)
        for (unsigned x = 0; x < 4; x++) {
            unsigned k = (unsigned)tiled(x, y, 4, 4, 4);
            expect_px(out, 4, x, y, from_5a3(((k * 0x3A5Du + 0x1234u) & 0x7FFFu) | (k % 2 ? 0x8000u : 0)));
        }
    /* by hand: texel 0 = 0x1234 → A3RGB4 a=1 → 0x24, r 2 → 0x22, g 3 → 0x33, b 4 → 0x44 */
    CHECK_EQ_U(out[0], 0x22);
    CHECK_EQ_U(out[1], 0x33);
    CHECK_EQ_U(out[2], 0x44);
    CHECK_EQ_U(out[3], 0x24);
    free(out);
}

static void test_rgba8(void) { /* 8×4: two 64-byte blocks, AR pairs then GB pairs */
    uint8_t data[128];
    for (unsigned y = 0; y < 4; y++)
        for (unsigned x = 0; x < 8; x++) {
            size_t t = tiled(x, y, 8, 4, 4), blk = t / 16, k = t % 16;
            uint8_t *b = data + 64 * blk;
            b[2 * k] = (uint8_t)(200 + x + y);       /* A */
            b[2 * k + 1] = (uint8_t)(x * 16 + y);    /* R */
            b[32 + 2 * k] = (uint8_t)(x * 3 + 100);  /* G */
            b[32 + 2 * k + 1] = (uint8_t)(y * 50);   /* B */
        }
    ue_gx_image img = image(data, sizeof data, 8, 4, UE_GX_RGBA8);
    uint8_t *out = decode(&img, 0);
    REQUIRE(out);
    for (unsigned y = 0; y < 4; y++)
        for (unsigned x = 0; x < 8; x++)
            expect_px(out, 8, x, y, (px4){x * 16 + y, x * 3 + 100, y * 50, 200 + x + y});
    free(out);
}

/* ---- palette formats ---------------------------------------------------------------------- */

static void test_c4_rgb565(void) { /* 8×8, 16-entry RGB565 palette */
    uint8_t data[32] = {0}, tlut[32];
    for (unsigned i = 0; i < 16; i++) put16(tlut, i, (i * 0x1111u) ^ 0xA5C3u);
    for (unsigned y = 0; y < 8; y++)
        for (unsigned x = 0; x < 8; x++) {
            unsigned v = (x + 2 * y) & 15;
            size_t t = tiled(x, y, 8, 8, 8);
            data[t / 2] |= (uint8_t)(t % 2 ? v : v << 4);
        }
    ue_gx_image img = image(data, sizeof data, 8, 8, UE_GX_C4);
    img.tlut = tlut;
    img.tlut_size = sizeof tlut;
    img.tlut_count = 16;
    img.tlut_format = UE_GX_TLUT_RGB565;
    uint8_t *out = decode(&img, 0);
    REQUIRE(out);
    for (unsigned y = 0; y < 8; y++)
        for (unsigned x = 0; x < 8; x++)
            expect_px(out, 8, x, y, from_565((((x + 2 * y) & 15) * 0x1111u) ^ 0xA5C3u));
    free(out);
}

static void test_c8_ia8(void) { /* 16×4: two 8×4 blocks, 256-entry IA8 palette */
    uint8_t data[64], tlut[512];
    for (unsigned i = 0; i < 256; i++) put16(tlut, i, (255 - i) << 8 | ((i * 7) & 255));
    for (unsigned y = 0; y < 4; y++)
        for (unsigned x = 0; x < 16; x++) data[tiled(x, y, 16, 8, 4)] = (uint8_t)(x * 13 + y * 61);
    ue_gx_image img = image(data, sizeof data, 16, 4, UE_GX_C8);
    img.tlut = tlut;
    img.tlut_size = sizeof tlut;
    img.tlut_count = 256;
    img.tlut_format = UE_GX_TLUT_IA8;
    uint8_t *out = decode(&img, 0);
    REQUIRE(out);
    for (unsigned y = 0; y < 4; y++)
        for (unsigned x = 0; x < 16; x++) {
            unsigned i = (x * 13 + y * 61) & 255;
            expect_px(out, 16, x, y, (px4){(i * 7) & 255, (i * 7) & 255, (i * 7) & 255, 255 - i});
        }
    free(out);
}

static void test_c14x2_rgb5a3(void) { /* 4×4, the top two index bits ignored */
    uint8_t data[32], tlut[40];
    for (unsigned i = 0; i < 20; i++) put16(tlut, i, i % 2 ? 0x8000u | (i * 0x0421u) : i * 0x0123u);
    for (unsigned k = 0; k < 16; k++) put16(data, k, ((k * 3) % 20) | ((k & 3u) << 14));
    ue_gx_image img = image(data, sizeof data, 4, 4, UE_GX_C14X2);
    img.tlut = tlut;
    img.tlut_size = sizeof tlut;
    img.tlut_count = 20;
    img.tlut_format = UE_GX_TLUT_RGB5A3;
    uint8_t *out = decode(&img, 0);
    REQUIRE(out);
    for (unsigned y = 0; y < 4; y++)
        for (unsigned x = 0; x < 4; x++) {
            unsigned i = ((unsigned)tiled(x, y, 4, 4, 4) * 3) % 20;
            expect_px(out, 4, x, y, from_5a3(i % 2 ? 0x8000u | (i * 0x0421u) : i * 0x0123u));
        }
    free(out);
}

static void test_palette_errors(void) {
    /* C8 texels: 0, 0x12 (past a 2-entry palette), then zeros */
    uint8_t data[32] = {0x00, 0x12}, tlut[4] = {0xFF, 0xFF, 0x00, 0x00};
    ue_gx_image img = image(data, sizeof data, 8, 4, UE_GX_C8);
    uint8_t out[8 * 4 * 4];
    ue_diag d = {0};
    CHECK_EQ_U(ue_gx_decode_level(&img, 0, UE_MODE_STRICT, out, sizeof out, &d, 0, "t"), UE_ERR_INVALID);
    CHECK(d.count == 1 && strcmp(d.items[0].code, "gx.tlut.missing") == 0);
    ue_diag_free(&d);
    img.tlut = tlut;
    img.tlut_size = sizeof tlut;
    img.tlut_count = 3; /* more entries than bytes */
    img.tlut_format = UE_GX_TLUT_IA8;
    CHECK_EQ_U(ue_gx_decode_level(&img, 0, UE_MODE_STRICT, out, sizeof out, &d, 0, "t"), UE_ERR_INVALID);
    CHECK(d.count == 1 && strcmp(d.items[0].code, "gx.tlut.short") == 0);
    ue_diag_free(&d);
    img.tlut_count = 2;
    img.tlut_format = 3;
    CHECK_EQ_U(ue_gx_decode_level(&img, 0, UE_MODE_STRICT, out, sizeof out, &d, 0, "t"), UE_ERR_UNSUPPORTED);
    ue_diag_free(&d);
    img.tlut_format = UE_GX_TLUT_IA8;
    CHECK_EQ_U(ue_gx_decode_level(&img, 0, UE_MODE_STRICT, out, sizeof out, &d, 0, "t"), UE_ERR_INVALID);
    CHECK(d.count == 1 && strcmp(d.items[0].code, "gx.tlut.index") == 0 && d.items[0].severity == UE_SEV_ERROR);
    ue_diag_free(&d);
    memset(out, 0xCD, sizeof out);
    CHECK_EQ_U(ue_gx_decode_level(&img, 0, UE_MODE_TOLERANT, out, sizeof out, &d, 0, "t"), UE_OK);
    CHECK(d.count == 1 && d.items[0].severity == UE_SEV_WARNING);
    ue_diag_free(&d);
    const uint8_t first[4] = {0xFF, 0xFF, 0xFF, 0xFF}, past[4] = {0, 0, 0, 0};
    CHECK_MEM(out, first, 4);    /* entry 0: alpha 0xFF, intensity 0xFF */
    CHECK_MEM(out + 4, past, 4); /* index 0x12: transparent black */
}

/* ---- CMPR --------------------------------------------------------------------------------- */

/* One 8×8 block: sub-blocks TL, TR, BL, BR; selectors MSB-first per row. */
static void test_cmpr(void) {
    static const uint8_t block[32] = {
        0xF8, 0x00, 0x00, 0x1F, 0x1B, 0xE4, 0x00, 0xFF, /* TL: red > blue, 4-colour */
        0x00, 0x1F, 0xF8, 0x00, 0x1B, 0xE4, 0x55, 0xAA, /* TR: blue < red, 3-colour */
        0x7B, 0xEF, 0x7B, 0xEF, 0x1B, 0x1B, 0x1B, 0x1B, /* BL: c0 == c1, 3-colour */
        0x07, 0xE0, 0x00, 0x00, 0x1B, 0x00, 0x00, 0x00, /* BR: green > black */
    };
    ue_gx_image img = image(block, sizeof block, 8, 8, UE_GX_CMPR);
    uint8_t *out = decode(&img, 0);
    REQUIRE(out);
    /* TL: p0 red (255,0,0), p1 blue; p2 = 5/8 red + 3/8 blue = (159,0,95); p3 = (95,0,159). */
    const px4 tl[4] = {{255, 0, 0, 255}, {0, 0, 255, 255}, {159, 0, 95, 255}, {95, 0, 159, 255}};
    for (unsigned x = 0; x < 4; x++) {
        expect_px(out, 8, x, 0, tl[x]);     /* 0x1B: 0 1 2 3 */
        expect_px(out, 8, x, 1, tl[3 - x]); /* 0xE4: 3 2 1 0 */
        expect_px(out, 8, x, 2, tl[0]);
        expect_px(out, 8, x, 3, tl[3]);
    }
    /* TR: p0 blue, p1 red, p2 = half (127,0,127), p3 transparent black. */
    const px4 tr[4] = {{0, 0, 255, 255}, {255, 0, 0, 255}, {127, 0, 127, 255}, {0, 0, 0, 0}};
    for (unsigned x = 0; x < 4; x++) {
        expect_px(out, 8, 4 + x, 0, tr[x]);
        expect_px(out, 8, 4 + x, 1, tr[3 - x]);
        expect_px(out, 8, 4 + x, 2, tr[1]);
        expect_px(out, 8, 4 + x, 3, tr[2]);
    }
    /* BL: 0x7BEF = r 15 g 31 b 15 → 123, 125, 123 for p0, p1 and p2; p3 transparent black. */
    const px4 g = {123, 125, 123, 255}, bl[4] = {g, g, g, {0, 0, 0, 0}};
    for (unsigned y = 4; y < 8; y++)
        for (unsigned x = 0; x < 4; x++) expect_px(out, 8, x, y, bl[x]);
    /* BR: green 0x07E0 vs black; p2 = 5·255/8 = 159, p3 = 3·255/8 = 95 (integer division). */
    unsigned p2 = (5 * 255) / 8, p3 = (3 * 255) / 8;
    const px4 br[4] = {{0, 255, 0, 255}, {0, 0, 0, 255}, {0, p2, 0, 255}, {0, p3, 0, 255}};
    for (unsigned x = 0; x < 4; x++) {
        expect_px(out, 8, 4 + x, 4, br[x]);
        for (unsigned y = 5; y < 8; y++) expect_px(out, 8, 4 + x, y, br[0]);
    }
    free(out);
}

/* A CMPR texture of 12×4 spans two macro-blocks; only their top-left / top-right halves show. */
static void test_cmpr_clip(void) {
    uint8_t data[64] = {0};
    /* block 0 TR sub-block: solid white (selector 0 everywhere); block 1 TL: solid c1 = blue */
    data[8] = 0xFF, data[9] = 0xFF;
    data[32 + 0] = 0xFF, data[32 + 1] = 0xFF, data[32 + 2] = 0x00, data[32 + 3] = 0x1F;
    memset(data + 32 + 4, 0x55, 4); /* selector 1 everywhere */
    ue_gx_image img = image(data, sizeof data, 12, 4, UE_GX_CMPR);
    uint8_t *out = decode(&img, 0);
    REQUIRE(out);
    for (unsigned y = 0; y < 4; y++)
        for (unsigned x = 0; x < 12; x++) {
            px4 e = x < 4 ? (px4){0, 0, 0, 255} : x < 8 ? (px4){255, 255, 255, 255} : (px4){0, 0, 255, 255};
            expect_px(out, 12, x, y, e);
        }
    free(out);
}

/* Blends of colours whose 565 → 8-bit expansion is not a shift: 0x8410 = (16, 32, 16) →
 * (132, 130, 132), 0x4208 = (8, 16, 8) → (66, 65, 66); worked by hand, integer truncation. */
static void test_cmpr_rounding(void) {
    uint8_t block[32] = {0};
    static const uint8_t four[8] = {0x84, 0x10, 0x42, 0x08, 0x1B, 0x1B, 0x1B, 0x1B};
    static const uint8_t three[8] = {0x42, 0x08, 0x84, 0x10, 0x1B, 0x1B, 0x1B, 0x1B};
    memcpy(block, four, 8);       /* TL: c0 > c1, four colours */
    memcpy(block + 8, three, 8);  /* TR: the same two colours swapped, three colours */
    ue_gx_image img = image(block, sizeof block, 8, 4, UE_GX_CMPR);
    uint8_t *out = decode(&img, 0);
    REQUIRE(out);
    /* p2 = ((5·132 + 3·66) >> 3, (5·130 + 3·65) >> 3, …) = (107, 105, 107);
     * p3 = ((3·132 + 5·66) >> 3, (3·130 + 5·65) >> 3, …) = (90, 89, 90) */
    const px4 tl[4] = {{132, 130, 132, 255}, {66, 65, 66, 255}, {107, 105, 107, 255}, {90, 89, 90, 255}};
    /* p2 = ((66 + 132) / 2, (65 + 130) / 2, …) = (99, 97, 99); p3 transparent black */
    const px4 tr[4] = {{66, 65, 66, 255}, {132, 130, 132, 255}, {99, 97, 99, 255}, {0, 0, 0, 0}};
    for (unsigned y = 0; y < 4; y++)
        for (unsigned x = 0; x < 4; x++) {
            expect_px(out, 8, x, y, tl[x]);
            expect_px(out, 8, 4 + x, y, tr[x]);
        }
    free(out);
}

/* C4 8×8 with three more levels (4×4, 2×2, 1×1), each one padded 8×8 block of 32 bytes; the
 * palette (16 RGB5A3 entries) serves every level. */
static void test_mip_palette(void) {
    uint8_t data[4 * 32] = {0}, pal[32];
    for (unsigned i = 0; i < 16; i++) put16(pal, i, i & 1 ? 0x8000u | (i * 0x0421u) : (i << 8) | 0x3000u);
    for (unsigned lv = 1; lv < 4; lv++) {
        unsigned side = 8u >> lv;
        for (unsigned y = 0; y < side; y++)
            for (unsigned x = 0; x < side; x++) {
                unsigned idx = (x + 2 * y + lv) & 15u, at = y * 8 + x;
                data[32 * lv + at / 2] |= (uint8_t)(at & 1u ? idx : idx << 4);
            }
    }
    ue_gx_image img = image(data, sizeof data, 8, 8, UE_GX_C4);
    img.tlut = pal, img.tlut_size = sizeof pal, img.tlut_count = 16, img.tlut_format = UE_GX_TLUT_RGB5A3;
    size_t off = 0, bytes = 0;
    uint32_t lw = 0, lh = 0;
    CHECK(ue_gx_level_size(UE_GX_C4, 8, 8, 3, &lw, &lh, &bytes, &off) == UE_OK);
    CHECK(lw == 1 && lh == 1 && bytes == 32 && off == 96);
    for (unsigned lv = 1; lv < 4; lv++) {
        uint8_t *out = decode(&img, lv);
        REQUIRE(out);
        unsigned side = 8u >> lv;
        for (unsigned y = 0; y < side; y++)
            for (unsigned x = 0; x < side; x++) {
                unsigned idx = (x + 2 * y + lv) & 15u;
                expect_px(out, side, x, y, from_5a3((unsigned)pal[2 * idx] << 8 | pal[2 * idx + 1]));
            }
        free(out);
    }
    img.size = 127; /* level 3 lacks a byte: refused, the levels before it still decode */
    CHECK(decode(&img, 3) == NULL);
    uint8_t *two = decode(&img, 2);
    CHECK(two != NULL);
    free(two);
}

/* CMPR 8×8 with levels 1..3: each level is one 32-byte macro-block of which only the top-left
 * sub-block (cropped to 4×4, 2×2, 1×1) shows. */
static void test_mip_cmpr(void) {
    uint8_t data[4 * 32] = {0};
    static const uint8_t l1[8] = {0xF8, 0x00, 0x00, 0x00, 0x1B, 0x1B, 0x1B, 0x1B}; /* red > black */
    static const uint8_t l2[8] = {0x00, 0x1F, 0x07, 0xE0, 0x1B, 0xE4, 0, 0};       /* blue < green */
    static const uint8_t l3[8] = {0xFF, 0xFF, 0x00, 0x00, 0x00, 0, 0, 0};          /* white */
    memcpy(data + 32, l1, 8), memcpy(data + 64, l2, 8), memcpy(data + 96, l3, 8);
    ue_gx_image img = image(data, sizeof data, 8, 8, UE_GX_CMPR);
    uint8_t *out = decode(&img, 1);
    REQUIRE(out);
    const px4 red[4] = {{255, 0, 0, 255}, {0, 0, 0, 255}, {159, 0, 0, 255}, {95, 0, 0, 255}};
    for (unsigned y = 0; y < 4; y++)
        for (unsigned x = 0; x < 4; x++) expect_px(out, 4, x, y, red[x]);
    free(out);
    out = decode(&img, 2);
    REQUIRE(out);
    expect_px(out, 2, 0, 0, (px4){0, 0, 255, 255});
    expect_px(out, 2, 1, 0, (px4){0, 255, 0, 255});
    expect_px(out, 2, 0, 1, (px4){0, 0, 0, 0});       /* selector 3: transparent black */
    expect_px(out, 2, 1, 1, (px4){0, 127, 127, 255}); /* selector 2: the half blend */
    free(out);
    out = decode(&img, 3);
    REQUIRE(out);
    expect_px(out, 1, 0, 0, (px4){255, 255, 255, 255});
    free(out);
}

/* ---- sizes, clipping, mip levels, refusals ---------------------------------------------------- */

static void test_non_multiple(void) { /* RGB565 6×5: 2×2 blocks over a padded 8×8 */
    uint8_t data[128];
    for (unsigned y = 0; y < 8; y++)
        for (unsigned x = 0; x < 8; x++) put16(data, tiled(x, y, 8, 4, 4), v565(x, y));
    ue_gx_image img = image(data, sizeof data, 6, 5, UE_GX_RGB565);
    uint8_t *out = decode(&img, 0);
    REQUIRE(out);
    for (unsigned y = 0; y < 5; y++)
        for (unsigned x = 0; x < 6; x++) expect_px(out, 6, x, y, from_565(v565(x, y)));
    free(out);
    /* I4 3×10: one column of two 8×8 blocks (64 bytes) */
    uint8_t i4[64] = {0};
    for (unsigned y = 0; y < 16; y++)
        for (unsigned x = 0; x < 8; x++) {
            size_t t = tiled(x, y, 8, 8, 8);
            i4[t / 2] |= (uint8_t)(t % 2 ? (x ^ y) & 15 : ((x ^ y) & 15) << 4);
        }
    img = image(i4, sizeof i4, 3, 10, UE_GX_I4);
    out = decode(&img, 0);
    REQUIRE(out);
    for (unsigned y = 0; y < 10; y++)
        for (unsigned x = 0; x < 3; x++) {
            unsigned i = rep((x ^ y) & 15, 4);
            expect_px(out, 3, x, y, (px4){i, i, i, i});
        }
    free(out);
}

static void level(uint32_t fmt, unsigned w, unsigned h, unsigned lv, unsigned ew, unsigned eh,
                  size_t ebytes, size_t eoff) {
    uint32_t lw = 0, lh = 0;
    size_t bytes = 0, off = 0;
    CHECK_EQ_U(ue_gx_level_size(fmt, w, h, lv, &lw, &lh, &bytes, &off), UE_OK);
    CHECK_EQ_U(lw, ew);
    CHECK_EQ_U(lh, eh);
    CHECK_EQ_U(bytes, ebytes);
    CHECK_EQ_U(off, eoff);
}

static void test_level_sizes(void) {
    /* CMPR 32×16: 4×2 blocks = 256; 16×8: 64 @256; 8×4: 32 @320; 4×2: 32 @352; 1×1 @416 */
    level(UE_GX_CMPR, 32, 16, 0, 32, 16, 256, 0);
    level(UE_GX_CMPR, 32, 16, 1, 16, 8, 64, 256);
    level(UE_GX_CMPR, 32, 16, 2, 8, 4, 32, 320);
    level(UE_GX_CMPR, 32, 16, 3, 4, 2, 32, 352);
    level(UE_GX_CMPR, 32, 16, 5, 1, 1, 32, 416);
    /* RGBA8 8×8: 4 blocks of 64 = 256; then 64-byte single blocks */
    level(UE_GX_RGBA8, 8, 8, 0, 8, 8, 256, 0);
    level(UE_GX_RGBA8, 8, 8, 1, 4, 4, 64, 256);
    level(UE_GX_RGBA8, 8, 8, 3, 1, 1, 64, 384);
    /* I8 16×4 → 64; level 1 8×2 → 32 @64. C14X2 1024×1024 → 2 MiB */
    level(UE_GX_I8, 16, 4, 1, 8, 2, 32, 64);
    level(UE_GX_C14X2, 1024, 1024, 0, 1024, 1024, (size_t)2 << 20, 0);
    /* I4 1024×2 level 10 is 1×1 after levels 0..9 of one block row each: 128 + 64 + 32 + 16 + 8
     * + 4 + 2 + 1 + 1 + 1 = 257 blocks of 32 bytes */
    level(UE_GX_I4, 1024, 2, 10, 1, 1, 32, 257 * 32);
    CHECK_EQ_U(ue_gx_level_size(UE_GX_I4, 1024, 1024, 11, NULL, NULL, NULL, NULL), UE_ERR_LIMIT);
    CHECK_EQ_U(ue_gx_level_size(UE_GX_I4, 1025, 4, 0, NULL, NULL, NULL, NULL), UE_ERR_LIMIT);
    CHECK_EQ_U(ue_gx_level_size(UE_GX_I4, 0, 4, 0, NULL, NULL, NULL, NULL), UE_ERR_INVALID);
    CHECK_EQ_U(ue_gx_level_size(7, 4, 4, 0, NULL, NULL, NULL, NULL), UE_ERR_UNSUPPORTED);
    CHECK(ue_gx_format_name(7) == NULL);
    CHECK_STR(ue_gx_format_name(UE_GX_CMPR), "CMPR");
}

static void test_mip_decode(void) { /* RGBA8 8×8 + level 1 (4×4) + level 2 (2×2) */
    uint8_t data[256 + 64 + 64];
    memset(data, 0, 256);
    for (unsigned k = 0; k < 16; k++) {
        uint8_t *b = data + 256;
        b[2 * k] = (uint8_t)(0x80 + k), b[2 * k + 1] = (uint8_t)k;
        b[32 + 2 * k] = (uint8_t)(2 * k), b[32 + 2 * k + 1] = (uint8_t)(3 * k);
        b += 64;
        b[2 * k] = 0x11, b[2 * k + 1] = (uint8_t)(0x40 + k);
        b[32 + 2 * k] = 0x22, b[32 + 2 * k + 1] = 0x33;
    }
    ue_gx_image img = image(data, sizeof data, 8, 8, UE_GX_RGBA8);
    uint8_t *out = decode(&img, 1);
    REQUIRE(out);
    for (unsigned y = 0; y < 4; y++)
        for (unsigned x = 0; x < 4; x++) {
            unsigned k = y * 4 + x;
            expect_px(out, 4, x, y, (px4){k, 2 * k, 3 * k, 0x80 + k});
        }
    free(out);
    out = decode(&img, 2);
    REQUIRE(out);
    expect_px(out, 2, 1, 1, (px4){0x40 + 5, 0x22, 0x33, 0x11}); /* (1,1) is texel 5 of the block */
    free(out);
}

static void test_short_data(void) {
    uint8_t data[160] = {0}, out[8 * 8 * 4];
    ue_diag d = {0};
    ue_gx_image img = image(data, 127, 8, 8, UE_GX_RGB565); /* needs 128 */
    CHECK_EQ_U(ue_gx_decode_level(&img, 0, UE_MODE_TOLERANT, out, sizeof out, &d, 0x1000, "img"), UE_ERR_INVALID);
    REQUIRE(d.count == 1);
    CHECK_STR(d.items[0].code, "gx.data.short");
    CHECK_EQ_U(d.items[0].offset, 0x1000);
    ue_diag_free(&d);
    img.size = 128 + 31; /* level 0 fits, level 1 (4×4, 32 bytes @128) does not */
    CHECK_EQ_U(ue_gx_decode_level(&img, 0, UE_MODE_STRICT, out, sizeof out, &d, 0x1000, "img"), UE_OK);
    CHECK_EQ_U(ue_gx_decode_level(&img, 1, UE_MODE_STRICT, out, sizeof out, &d, 0x1000, "img"), UE_ERR_INVALID);
    REQUIRE(d.count == 1);
    CHECK_EQ_U(d.items[0].offset, 0x1000 + 128);
    ue_diag_free(&d);
    img.data = NULL;
    CHECK_EQ_U(ue_gx_decode_level(&img, 0, UE_MODE_STRICT, out, sizeof out, &d, 0, "img"), UE_ERR_INVALID);
    ue_diag_free(&d);
    img = image(data, sizeof data, 2000, 8, UE_GX_RGB565);
    CHECK_EQ_U(ue_gx_decode_level(&img, 0, UE_MODE_STRICT, out, sizeof out, &d, 0, "img"), UE_ERR_LIMIT);
    CHECK(d.count == 1 && strcmp(d.items[0].code, "gx.size") == 0);
    ue_diag_free(&d);
    img = image(data, sizeof data, 8, 8, 0xB);
    CHECK_EQ_U(ue_gx_decode_level(&img, 0, UE_MODE_STRICT, out, sizeof out, &d, 0, "img"), UE_ERR_UNSUPPORTED);
    CHECK(d.count == 1 && strcmp(d.items[0].code, "gx.format") == 0);
    ue_diag_free(&d);
    img = image(data, sizeof data, 8, 8, UE_GX_RGB565); /* output buffer one byte short */
    CHECK_EQ_U(ue_gx_decode_level(&img, 0, UE_MODE_STRICT, out, sizeof out - 1, &d, 0, "img"), UE_ERR_USAGE);
    ue_diag_free(&d);
}

int main(void) {
    RUN(test_i4);
    RUN(test_i8);
    RUN(test_ia4);
    RUN(test_ia8);
    RUN(test_rgb565);
    RUN(test_rgb5a3);
    RUN(test_rgba8);
    RUN(test_c4_rgb565);
    RUN(test_c8_ia8);
    RUN(test_c14x2_rgb5a3);
    RUN(test_palette_errors);
    RUN(test_cmpr);
    RUN(test_cmpr_clip);
    RUN(test_cmpr_rounding);
    RUN(test_mip_palette);
    RUN(test_mip_cmpr);
    RUN(test_non_multiple);
    RUN(test_level_sizes);
    RUN(test_mip_decode);
    RUN(test_short_data);
    return TEST_SUMMARY();
}
