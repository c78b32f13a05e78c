/* Unit tests of contact sheets (src/render/sheet.c): the grid computed before drawing, cells drawn
 * one at a time, labels of any length keeping their end, and text drawn at any pen position. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "unearth/preview.h"

/* The sheet of one 64-pixel cell with `label` under it; the caller frees it (NULL on failure). */
static uint8_t *sheet_of(const char *label, uint32_t *w, uint32_t *h) {
    static const uint8_t grey[4] = {128, 128, 128, 255};
    ue_sheet_cell cell = {grey, 1, 1, label};
    ue_sheet_options o;
    ue_sheet_options_default(&o);
    o.cell = 64; /* 64 / 6: labels of 10 characters fit */
    uint8_t *img = NULL;
    CHECK(ue_sheet_compose(&cell, 1, &o, &img, w, h, NULL) == UE_OK);
    return img;
}

/* A label of 600 bytes is drawn as ".." and its last 8 characters, as a short one is. */
static void long_label_keeps_its_end(void) {
    char long_label[601];
    memset(long_label, 'x', 600);
    memcpy(long_label + 592, "/END.msh", 8);
    long_label[600] = 0;
    uint32_t w1, h1, w2, h2;
    uint8_t *a = sheet_of(long_label, &w1, &h1);
    uint8_t *b = sheet_of("../END.msh", &w2, &h2); /* 10 characters: drawn as they are */
    uint8_t *c = sheet_of("..xxxxxxxx", &w2, &h2); /* what a label cut from the front shows */
    REQUIRE(a && b && c && w1 == w2 && h1 == h2);
    CHECK(memcmp(a, b, (size_t)w1 * h1 * 4) == 0);
    CHECK(memcmp(a, c, (size_t)w1 * h1 * 4) != 0);
    free(a), free(b), free(c);
}

/* The pen near INT32_MAX draws nothing and stops; a pen left of the image draws the glyphs that
 * fall inside it ('I' at -6 is off, the 'I' after it at 0 is drawn: its top row is 0x0E). */
static void font_at_any_pen(void) {
    uint8_t img[12 * 9 * 4] = {0};
    const uint8_t white[3] = {255, 255, 255};
    ue_font_draw(img, 12, 9, INT32_MAX - 3, 0, "IIII", white);
    uint8_t zero[sizeof img] = {0};
    CHECK(memcmp(img, zero, sizeof img) == 0);
    ue_font_draw(img, 12, 9, -6, 0, "II", white);
    CHECK(img[(1 * 12 + 0) * 4 + 3] == 0 && img[(1 * 12 + 1) * 4 + 3] == 255 && img[(1 * 12 + 3) * 4 + 3] == 255);
    CHECK(img[(1 * 12 + 4) * 4 + 3] == 0 && img[(1 * 12 + 7) * 4 + 3] == 0);
}

/* The grid alone: 10 cells of 64 make 4 columns and 3 rows; too many cells for 16384 pixels are
 * refused before anything is allocated; cells put one by one give the composed sheet's bytes. */
static void layout_then_put(void) {
    ue_sheet_options o;
    ue_sheet_options_default(&o);
    o.cell = 64;
    ue_sheet_grid g;
    REQUIRE(ue_sheet_layout(10, &o, &g, NULL) == UE_OK);
    CHECK_EQ_U(g.columns, 4);
    CHECK_EQ_U(g.rows, 3);
    CHECK_EQ_U(g.width, 4 + 4 * (64 + 4));
    CHECK_EQ_U(g.height, 4 + 3 * (64 + 12 + 4));
    o.cell = 1024; /* 16 columns of 1028 make 16452 > 16384 */
    CHECK(ue_sheet_layout(16 * 16, &o, &g, NULL) == UE_ERR_LIMIT);
    CHECK(ue_sheet_layout(0, &o, &g, NULL) == UE_ERR_USAGE);

    o.cell = 16;
    const uint8_t red[4] = {255, 0, 0, 255}, blue[4] = {0, 0, 255, 255};
    ue_sheet_cell cells[3] = {{red, 1, 1, "r"}, {blue, 1, 1, "b"}, {red, 1, 1, "r2"}};
    uint8_t *whole = NULL, *piecewise = NULL;
    uint32_t w, h;
    REQUIRE(ue_sheet_compose(cells, 3, &o, &whole, &w, &h, NULL) == UE_OK);
    REQUIRE(ue_sheet_layout(3, &o, &g, NULL) == UE_OK);
    REQUIRE(ue_sheet_begin(&g, &o, &piecewise) == UE_OK);
    for (size_t i = 3; i-- > 0;) ue_sheet_put(piecewise, &g, &o, i, &cells[i]);
    REQUIRE(g.width == w && g.height == h);
    CHECK(memcmp(whole, piecewise, (size_t)w * h * 4) == 0);
    free(whole), free(piecewise);
}

int main(void) {
    RUN(long_label_keeps_its_end);
    RUN(font_at_any_pen);
    RUN(layout_then_put);
    return TEST_SUMMARY();
}
