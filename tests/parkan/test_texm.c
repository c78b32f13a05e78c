/* unearth tests — Texm: hand-built byte images straight from docs/formats/texm.md (own header writer, pixel
 * values worked out by hand from the channel table), palettes and docs/formats/texm.md#palette-names, bad inputs, writer. */
#include <stdlib.h>

#include "test.h"
#include "unearth/texm.h"

/* ---- an image builder independent of the library's writer ------------------------------- */

typedef struct image {
    uint8_t b[8192];
    size_t n;
} image;

static void put32(image *im, uint32_t v) {
    for (int i = 0; i < 4; i++) im->b[im->n++] = (uint8_t)(v >> (8 * i));
}
static void put16(image *im, uint16_t v) {
    im->b[im->n++] = (uint8_t)v;
    im->b[im->n++] = (uint8_t)(v >> 8);
}
static void put_bytes(image *im, const uint8_t *p, size_t n) {
    memcpy(im->b + im->n, p, n);
    im->n += n;
}

static void header(image *im, uint32_t w, uint32_t h, uint32_t mips, uint32_t format) {
    im->n = 0;
    put32(im, 0x6D786554u); /* "Texm" */
    put32(im, w);
    put32(im, h);
    put32(im, mips);
    put32(im, 0x20);        /* flags4, observed value */
    put32(im, 0x04000000);  /* flags5, observed value */
    put32(im, 0xDEADBEEF);  /* unknown6: must survive a write */
    put32(im, format);
}

/* Parses strictly, decodes `level` and compares with `want` (w × h × 4 bytes). */
static void check_decode(const image *im, uint32_t level, const uint8_t *want, size_t want_size) {
    ue_texm t;
    ue_diag d = {0};
    ue_result r = ue_texm_parse(im->b, im->n, UE_MODE_STRICT, &t, &d);
    if (r != UE_OK) dump_diag(&d);
    CHECK_EQ_U(r, UE_OK);
    if (r == UE_OK) {
        uint8_t out[256];
        CHECK_EQ_U(t.levels[level].width * t.levels[level].height * 4, want_size);
        CHECK_EQ_U(ue_texm_decode_level(&t, level, NULL, out, sizeof out, &d), UE_OK);
        CHECK_MEM(out, want, want_size);
        ue_buf again = {0};
        CHECK_EQ_U(ue_texm_write(&t, &again), UE_OK);
        CHECK_EQ_U(again.size, im->n);
        CHECK(again.size == im->n && memcmp(again.data, im->b, im->n) == 0);
        ue_buf_free(&again);
        ue_texm_free(&t);
    }
    ue_diag_free(&d);
}

/* ---- every pixel format, values worked out by hand from docs/formats/texm.md#pixel-formats ---- */

static void test_565(void) {
    image im;
    header(&im, 2, 2, 1, 565);
    put16(&im, 0xF800), put16(&im, 0x07E0), put16(&im, 0x001F);
    put16(&im, 0x8410); /* R 16 → (16·255+15)/31 = 132, G 32 → (32·255+31)/63 = 130, B 16 → 132 */
    const uint8_t want[] = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 132, 130, 132, 255};
    check_decode(&im, 0, want, sizeof want);
}

static void test_556(void) {
    image im;
    header(&im, 2, 1, 1, 556);
    put16(&im, 0xFFFF);
    put16(&im, 0x0041); /* G = bits 10–6 = 1 → 270/31 = 8, B = bits 5–0 = 1 → 286/63 = 4 */
    const uint8_t want[] = {255, 255, 255, 255, 0, 8, 4, 255};
    check_decode(&im, 0, want, sizeof want);
}

static void test_4444(void) {
    image im;
    header(&im, 2, 1, 1, 4444);
    put16(&im, 0x8F40); /* A 8 → 136, R 15 → 255, G 4 → 68, B 0 */
    put16(&im, 0x1234); /* A 1, R 2, G 3, B 4, each ×17 */
    const uint8_t want[] = {255, 68, 0, 136, 34, 51, 68, 17};
    check_decode(&im, 0, want, sizeof want);
}

static void test_88(void) {
    image im;
    header(&im, 1, 1, 1, 88);
    const uint8_t px[] = {0x40, 0xC8}; /* u16 0xC840: L = high byte 200, A = low byte 64 */
    put_bytes(&im, px, 2);
    const uint8_t want[] = {200, 200, 200, 64};
    check_decode(&im, 0, want, sizeof want);
}

static void test_888_and_8888(void) {
    image im;
    header(&im, 2, 1, 1, 888);
    const uint8_t px888[] = {10, 20, 30, 99, 0, 0, 255, 7}; /* byte 3 unused, kept on write */
    put_bytes(&im, px888, sizeof px888);
    const uint8_t want888[] = {10, 20, 30, 255, 0, 0, 255, 255};
    check_decode(&im, 0, want888, sizeof want888);
    header(&im, 2, 1, 1, 8888);
    const uint8_t px8888[] = {0x80, 1, 2, 3, 0xFF, 250, 251, 252}; /* A, R, G, B */
    put_bytes(&im, px8888, sizeof px8888);
    const uint8_t want8888[] = {1, 2, 3, 128, 250, 251, 252, 255};
    check_decode(&im, 0, want8888, sizeof want8888);
}

static void indexed_image(image *im) {
    header(im, 2, 1, 1, 0);
    uint8_t pal[1024] = {0};
    const uint8_t e5[] = {1, 2, 3, 4}, e255[] = {0xFF, 0, 0x80, 0}; /* B, G, R, unused */
    memcpy(pal + 4 * 5, e5, 4);
    memcpy(pal + 4 * 255, e255, 4);
    put_bytes(im, pal, sizeof pal);
    const uint8_t idx[] = {5, 255};
    put_bytes(im, idx, 2);
}

static void test_indexed_palettes(void) {
    image im;
    indexed_image(&im);
    const uint8_t want[] = {3, 2, 1, 255, 128, 0, 255, 255};
    check_decode(&im, 0, want, sizeof want);
    ue_texm t;
    REQUIRE(ue_texm_parse(im.b, im.n, UE_MODE_STRICT, &t, NULL) == UE_OK);
    CHECK(t.palette == t.data + 32);
    uint8_t other[1024] = {0}, out[8];
    other[4 * 5 + 0] = 9; /* B */
    other[4 * 5 + 2] = 7; /* R */
    CHECK_EQ_U(ue_texm_decode_level(&t, 0, other, out, sizeof out, NULL), UE_OK);
    const uint8_t want_other[] = {7, 0, 9, 255, 0, 0, 0, 255};
    CHECK_MEM(out, want_other, 8);
    CHECK_EQ_U(ue_texm_decode_level(&t, 0, NULL, out, 7, NULL), UE_ERR_USAGE); /* too small */
    CHECK_EQ_U(ue_texm_decode_level(&t, 1, NULL, out, sizeof out, NULL), UE_ERR_USAGE);
    ue_texm_free(&t);
}

static void test_palette_names(void) {
    CHECK_EQ_U(ue_texm_palette_slot("WALL.A"), 0);
    CHECK_EQ_U(ue_texm_palette_slot("wall.b3"), 11 + 3 + 1);
    CHECK_EQ_U(ue_texm_palette_slot("X.Z9"), 25 * 11 + 10);
    CHECK_EQ_U(ue_texm_palette_slot("NAME.0"), -1); /* ('0' − 'A') · 11 < 0: no palette */
    CHECK_EQ_U(ue_texm_palette_slot("NAME"), -1);
    CHECK_EQ_U(ue_texm_palette_slot("NAME."), -1);
    CHECK_EQ_U(ue_texm_palette_slot("A.["), 26 * 11); /* past the table: for validate */
    char name[8];
    CHECK_EQ_U(ue_texm_palette_name(15, name, sizeof name), UE_OK);
    CHECK_STR(name, "B3.PAL");
    CHECK_EQ_U(ue_texm_palette_name(0, name, sizeof name), UE_OK);
    CHECK_STR(name, "A.PAL");
    CHECK_EQ_U(ue_texm_palette_name(285, name, sizeof name), UE_OK);
    CHECK_STR(name, "Z9.PAL");
    CHECK_EQ_U(ue_texm_palette_name(286, name, sizeof name), UE_ERR_USAGE);
}

/* ---- mip chains and Page chunks ----------------------------------------------------------- */

/* 4 × 2, three 565 levels (4×2, 2×1, 1×1: 8 + 2 + 1 pixels), level 2 pure green. */
static void mip_image(image *im, uint32_t mips_declared, uint32_t levels_present) {
    header(im, 4, 2, mips_declared, 565);
    const uint32_t px[] = {8, 2, 1};
    for (uint32_t l = 0; l < levels_present; l++)
        for (uint32_t i = 0; i < px[l]; i++) put16(im, l == 2 ? 0x07E0 : (uint16_t)(0x1000 * l + i));
}

static void test_mip_chain(void) {
    image im;
    mip_image(&im, 3, 3);
    const uint8_t green[] = {0, 255, 0, 255};
    check_decode(&im, 2, green, 4);
    ue_texm t;
    REQUIRE(ue_texm_parse(im.b, im.n, UE_MODE_STRICT, &t, NULL) == UE_OK);
    CHECK_EQ_U(t.level_count, 3);
    CHECK_EQ_U(t.levels[0].offset, 32);
    CHECK_EQ_U(t.levels[1].offset, 48);
    CHECK_EQ_U(t.levels[1].width, 2);
    CHECK_EQ_U(t.levels[1].height, 1);
    CHECK_EQ_U(t.levels[2].offset, 52);
    CHECK_EQ_U(t.flags4, 0x20);
    CHECK_EQ_U(t.flags5, 0x04000000);
    CHECK_EQ_U(t.unknown6, 0xDEADBEEF);
    ue_texm_free(&t);
}

static void test_page_chunk(void) {
    image im;
    mip_image(&im, 3, 3);
    put32(&im, 0x65676150u); /* "Page" */
    put32(&im, 2);
    put16(&im, 0), put16(&im, 2), put16(&im, 0), put16(&im, 1); /* x w y h */
    put16(&im, 2), put16(&im, 2), put16(&im, 0), put16(&im, 2);
    const uint8_t green[] = {0, 255, 0, 255};
    check_decode(&im, 2, green, 4); /* and the byte-exact write */
    ue_texm t;
    REQUIRE(ue_texm_parse(im.b, im.n, UE_MODE_STRICT, &t, NULL) == UE_OK);
    CHECK(t.has_page);
    CHECK_EQ_U(t.rect_count, 2);
    CHECK_EQ_U(t.rects[1].x, 2);
    CHECK_EQ_U(t.rects[1].w, 2);
    CHECK_EQ_U(t.rects[1].h, 2);
    ue_texm_free(&t);
    /* a rect reaching past the 4 × 2 texture: strict error at its offset */
    im.b[54 + 8 + 8] = 3; /* rect[1].x = 3, x + w = 5 */
    ue_diag d = {0};
    CHECK_EQ_U(ue_texm_parse(im.b, im.n, UE_MODE_STRICT, &t, &d), UE_ERR_INVALID);
    const ue_diag_item *it = diag_find(&d, "texm.page.rect", "texm/page/rect[1]");
    CHECK(it && it->offset == 54 + 16);
    ue_diag_free(&d);
}

/* ---- bad input ---------------------------------------------------------------------------- */

static void expect_bad(const image *im, ue_mode mode, ue_result want, const char *code,
                       const char *path, uint64_t offset) {
    ue_texm t;
    ue_diag d = {0};
    ue_result r = ue_texm_parse(im->b, im->n, mode, &t, &d);
    CHECK_EQ_U(r, want);
    const ue_diag_item *it = diag_find(&d, code, path);
    if (!it) dump_diag(&d);
    CHECK(it != NULL);
    if (it) CHECK_EQ_U(it->offset, offset);
    if (r == UE_OK) ue_texm_free(&t);
    else CHECK(t.data == NULL && t.rects == NULL);
    ue_diag_free(&d);
}

static void test_bad_headers(void) {
    image im;
    mip_image(&im, 3, 3);
    im.n = 20;
    expect_bad(&im, UE_MODE_TOLERANT, UE_ERR_INVALID, "texm.header.truncated", "texm/header", 0);
    header(&im, 0, 4, 1, 565);
    expect_bad(&im, UE_MODE_TOLERANT, UE_ERR_INVALID, "texm.header.zero", "texm/header", 4);
    header(&im, 4, 4, 0, 565);
    expect_bad(&im, UE_MODE_TOLERANT, UE_ERR_INVALID, "texm.header.zero", "texm/header", 12);
    header(&im, 100000, 4, 1, 565);
    expect_bad(&im, UE_MODE_TOLERANT, UE_ERR_LIMIT, "texm.header.limit", "texm/header", 4);
    header(&im, 4, 4, 1000, 565);
    expect_bad(&im, UE_MODE_TOLERANT, UE_ERR_LIMIT, "texm.header.limit", "texm/header", 12);
    header(&im, 4, 4, 1, 1555);
    expect_bad(&im, UE_MODE_TOLERANT, UE_ERR_INVALID, "texm.format", "texm/header/format", 28);
    /* the largest allowed sides with no pixels: refused by size, nothing allocated for them */
    header(&im, 8192, 8192, 14, 8888);
    expect_bad(&im, UE_MODE_STRICT, UE_ERR_INVALID, "texm.level.truncated", "texm/level[0]", 32);
    header(&im, 2, 1, 1, 0);
    im.n += 100;
    expect_bad(&im, UE_MODE_STRICT, UE_ERR_INVALID, "texm.palette.truncated", "texm/palette", 32);
}

static void test_bad_chains(void) {
    image im;
    mip_image(&im, 3, 2); /* level 2 missing */
    expect_bad(&im, UE_MODE_STRICT, UE_ERR_INVALID, "texm.level.truncated", "texm/level[2]", 52);
    expect_bad(&im, UE_MODE_TOLERANT, UE_OK, "texm.level.truncated", "texm/level[2]", 52);
    ue_texm t;
    REQUIRE(ue_texm_parse(im.b, im.n, UE_MODE_TOLERANT, &t, NULL) == UE_OK);
    CHECK_EQ_U(t.level_count, 2);
    ue_buf again = {0};
    CHECK_EQ_U(ue_texm_write(&t, &again), UE_OK);
    CHECK(again.size == im.n && memcmp(again.data, im.b, im.n) == 0);
    ue_buf_free(&again);
    ue_texm_free(&t);
    /* a 2 × 2 chain ends at 1×1 after 2 levels; 3 declared (and stored) */
    header(&im, 2, 2, 3, 8888);
    for (int i = 0; i < 6; i++) put32(&im, 0x11223344u);
    expect_bad(&im, UE_MODE_STRICT, UE_ERR_INVALID, "texm.mips.count", "texm/header/mip_count", 12);
    expect_bad(&im, UE_MODE_TOLERANT, UE_OK, "texm.mips.count", "texm/header/mip_count", 12);
}

static void test_bad_tails(void) {
    image im;
    mip_image(&im, 3, 3);
    put32(&im, 0x44434241u); /* "ABCD": no Page chunk */
    expect_bad(&im, UE_MODE_STRICT, UE_ERR_INVALID, "texm.tail", "texm/tail", 54);
    ue_texm t;
    REQUIRE(ue_texm_parse(im.b, im.n, UE_MODE_TOLERANT, &t, NULL) == UE_OK);
    CHECK_EQ_U(t.tail_size, 4);
    ue_buf again = {0};
    CHECK_EQ_U(ue_texm_write(&t, &again), UE_OK);
    CHECK(again.size == im.n && memcmp(again.data, im.b, im.n) == 0);
    ue_buf_free(&again);
    ue_texm_free(&t);
    mip_image(&im, 3, 3);
    put32(&im, 0x65676150u);
    put32(&im, 3); /* three rects declared, one stored */
    put16(&im, 0), put16(&im, 1), put16(&im, 0), put16(&im, 1);
    expect_bad(&im, UE_MODE_STRICT, UE_ERR_INVALID, "texm.page.size", "texm/page", 54);
    mip_image(&im, 3, 3);
    put32(&im, 0x65676150u);
    put32(&im, 0xFFFFFFFFu); /* a hostile count: compared against what is there, never sized */
    expect_bad(&im, UE_MODE_STRICT, UE_ERR_INVALID, "texm.page.size", "texm/page", 54);
}

/* ---- building from RGBA (what PNG → Texm uses) -------------------------------------------- */

static void build_and_decode(uint32_t w, uint32_t h, const uint8_t *rgba, uint32_t format) {
    ue_buf b = {0};
    ue_texm_build how = {format, 1, 0, 0, 0, NULL, 0, false};
    CHECK_EQ_U(ue_texm_build_rgba(w, h, rgba, &how, &b, NULL), UE_OK);
    ue_texm t;
    REQUIRE(ue_texm_parse(b.data, b.size, UE_MODE_STRICT, &t, NULL) == UE_OK);
    uint8_t *out = malloc((size_t)w * h * 4);
    REQUIRE(out);
    CHECK_EQ_U(ue_texm_decode_level(&t, 0, NULL, out, (size_t)w * h * 4, NULL), UE_OK);
    CHECK_MEM(out, rgba, (size_t)w * h * 4);
    free(out);
    ue_texm_free(&t);
    ue_buf_free(&b);
}

static void test_build_lossless(void) {
    uint8_t rgba[4 * 4 * 4];
    for (size_t i = 0; i < sizeof rgba; i++) rgba[i] = (uint8_t)(i * 37 + 11);
    build_and_decode(4, 4, rgba, 8888);
    for (size_t i = 3; i < sizeof rgba; i += 4) rgba[i] = 255;
    build_and_decode(4, 4, rgba, 888);
    for (size_t i = 0; i < sizeof rgba; i++) rgba[i] = (uint8_t)(17 * (i % 16)); /* 4-bit exact */
    build_and_decode(4, 4, rgba, 4444);
    /* three colours: an indexed Texm holds them exactly */
    const uint8_t three[] = {1, 2, 3, 255, 200, 100, 50, 255, 1, 2, 3, 255, 9, 9, 9, 255};
    build_and_decode(2, 2, three, 0);
}

/* Every one of the 65536 565 values survives decode → encode (and so PNG → Texm of a decoded
 * texture gives back the same bytes). */
static void test_565_all_values(void) {
    size_t n = 256 * 256;
    uint8_t *texm = malloc(32 + 2 * n), *rgba = malloc(4 * n);
    REQUIRE(texm && rgba);
    image h;
    header(&h, 256, 256, 1, 565);
    memcpy(texm, h.b, 32);
    for (size_t v = 0; v < n; v++) texm[32 + 2 * v] = (uint8_t)v, texm[33 + 2 * v] = (uint8_t)(v >> 8);
    ue_texm t;
    ue_buf b = {0};
    REQUIRE(ue_texm_parse(texm, 32 + 2 * n, UE_MODE_STRICT, &t, NULL) == UE_OK);
    CHECK_EQ_U(ue_texm_decode_level(&t, 0, NULL, rgba, 4 * n, NULL), UE_OK);
    ue_texm_build how = {565, 1, 0x20, 0x04000000, 0xDEADBEEF, NULL, 0, false};
    CHECK_EQ_U(ue_texm_build_rgba(256, 256, rgba, &how, &b, NULL), UE_OK);
    CHECK(b.size == 32 + 2 * n && memcmp(b.data, texm, b.size) == 0);
    ue_buf_free(&b);
    ue_texm_free(&t);
    free(texm);
    free(rgba);
}

static void test_build_mips_and_page(void) {
    /* 2 × 2 → 1 × 1 box filter: per channel (a + b + c + d + 2) / 4, by hand */
    const uint8_t px[] = {0, 0, 0, 0, 255, 255, 255, 255, 10, 20, 30, 40, 11, 21, 31, 41};
    const ue_texm_rect rects[] = {{0, 1, 0, 2}};
    ue_texm_build how = {8888, 0, 0, 0, 0, rects, 1, false};
    ue_buf b = {0};
    CHECK_EQ_U(ue_texm_build_rgba(2, 2, px, &how, &b, NULL), UE_OK);
    ue_texm t;
    REQUIRE(ue_texm_parse(b.data, b.size, UE_MODE_STRICT, &t, NULL) == UE_OK);
    CHECK_EQ_U(t.mip_count, 2);
    CHECK(t.has_page && t.rect_count == 1 && t.rects[0].h == 2);
    uint8_t out[4];
    CHECK_EQ_U(ue_texm_decode_level(&t, 1, NULL, out, 4, NULL), UE_OK);
    const uint8_t want[] = {69, 74, 79, 84};
    CHECK_MEM(out, want, 4);
    ue_texm_free(&t);
    ue_buf_free(&b);
    /* refusals: too many levels, too many colours for a palette */
    how.mip_count = 3;
    CHECK_EQ_U(ue_texm_build_rgba(2, 2, px, &how, &b, NULL), UE_ERR_USAGE);
    uint8_t many[32 * 32 * 4];
    for (size_t i = 0; i < 32 * 32; i++) /* 1024 distinct colours */
        many[4 * i] = (uint8_t)i, many[4 * i + 1] = (uint8_t)(i >> 8), many[4 * i + 2] = 0,
        many[4 * i + 3] = 255;
    ue_texm_build idx = {0, 1, 0, 0, 0, NULL, 0, false};
    ue_buf_free(&b);
    CHECK_EQ_U(ue_texm_build_rgba(32, 32, many, &idx, &b, NULL), UE_ERR_UNSUPPORTED);
    ue_buf_free(&b);
}

/* More than 256 colours with `quantise`: median cut (docs/parkan-textures.md#the-quantiser).
 * 512 colours (r, g) with r = 0..255 and g = 0 or 2 in equal counts: 256 boxes of about two
 * colours each, so every texel decodes within 1 of its colour on each channel. */
static void test_median_cut(void) {
    uint8_t px[32 * 16 * 4];
    for (size_t i = 0; i < 32 * 16; i++)
        px[4 * i] = (uint8_t)(i & 255), px[4 * i + 1] = (uint8_t)(i >> 8 ? 2 : 0), px[4 * i + 2] = 40,
        px[4 * i + 3] = 255;
    ue_texm_build how = {0, 1, 0, 0, 0, NULL, 0, true};
    ue_buf b = {0};
    ue_texm t;
    CHECK_EQ_U(ue_texm_build_rgba(32, 16, px, &how, &b, NULL), UE_OK);
    CHECK_EQ_U(ue_texm_parse(b.data, b.size, UE_MODE_STRICT, &t, NULL), UE_OK);
    uint8_t out[32 * 16 * 4];
    CHECK_EQ_U(ue_texm_decode_level(&t, 0, NULL, out, sizeof out, NULL), UE_OK);
    int worst = 0;
    for (size_t i = 0; i < sizeof out; i++) {
        int e = abs((int)out[i] - (int)px[i]);
        worst = e > worst ? e : worst;
    }
    CHECK(worst <= 1);
    bool used[256] = {false};
    for (size_t i = 0; i < 32 * 16; i++) used[t.data[t.levels[0].offset + i]] = true;
    size_t entries = 0;
    for (int k = 0; k < 256; k++) entries += used[k];
    CHECK_EQ_U(entries, 256); /* every box is an entry some texel takes */
    ue_texm_free(&t);
    ue_buf_free(&b);
}

int main(void) {
    RUN(test_median_cut);
    RUN(test_565);
    RUN(test_556);
    RUN(test_4444);
    RUN(test_88);
    RUN(test_888_and_8888);
    RUN(test_indexed_palettes);
    RUN(test_palette_names);
    RUN(test_mip_chain);
    RUN(test_page_chunk);
    RUN(test_bad_headers);
    RUN(test_bad_chains);
    RUN(test_bad_tails);
    RUN(test_build_lossless);
    RUN(test_565_all_values);
    RUN(test_build_mips_and_page);
    return TEST_SUMMARY();
}
