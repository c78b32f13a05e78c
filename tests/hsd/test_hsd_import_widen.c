/* unearth tests — the wide arrays of the edit-mode import (src/hsd/hsd_import_widen.c): old elements
 * decoded exactly, the format chosen (the old one, S16 with the old shift, F32) and the bytes against values computed here. */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "hsd/hsd_import_int.h"

/* A DAT-like buffer: the 0x20-byte header, then the array at data offset 0. */
static void put_elements(uint8_t *dat, const uint8_t *elements, size_t n) {
    memset(dat, 0, 0x20);
    memcpy(dat + 0x20, elements, n);
}

static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

/* S8 normals with 6 fractional bits (64 = 1.0): a value of 3 fits no S8 but S16 with 6 bits. */
static void test_s8_to_s16(void) {
    const uint8_t el[6] = {0x40, 0xC0, 0x20, 0x00, 0x01, 0xFF}; /* (1, -1, 0.5), (0, 1/64, -1/64) */
    uint8_t dat[0x20 + 6];
    put_elements(dat, el, sizeof el);
    ue_hsd_vtx_attr a = {.attr = UE_GX_VA_NRM, .comp_type = HSD_COMP_S8, .frac = 6, .stride = 3, .array_offset = 0};
    hsd_wide_attr w;
    CHECK(hsd_wide_init(&w, 0, 1, &a, 3, 2, dat, sizeof dat) == UE_OK);
    CHECK(w.vals[0] == 1.0 && w.vals[1] == -1.0 && w.vals[2] == 0.5 && w.vals[4] == 1.0 / 64 && w.vals[5] == -1.0 / 64);
    const double v[3] = {3.0, 0, 0};
    CHECK(hsd_wide_put(&w, 1, v) == 1);
    CHECK(hsd_wide_put(&w, 1, v) == 0);          /* the same value again: no change */
    const double other[3] = {2.0, 0, 0};
    CHECK(hsd_wide_put(&w, 1, other) == -1);     /* another value for one element: a conflict */
    CHECK(hsd_wide_finish(&w));
    CHECK(w.comp_type == HSD_COMP_S16 && w.frac == 6 && w.array.size == 12);
    /* 1 → 64, -1 → -64, 0.5 → 32; 3 → 192, 0, 0. */
    const uint8_t want[12] = {0x00, 0x40, 0xFF, 0xC0, 0x00, 0x20, 0x00, 0xC0, 0, 0, 0, 0};
    CHECK(!memcmp(w.array.data, want, sizeof want));
    hsd_wide_free(&w);
}

/* S16 positions with 4 fractional bits hold -2048 … 2047.94: 5000 makes the array F32. */
static void test_s16_to_f32(void) {
    const uint8_t el[2] = {0x7F, 0xFF}; /* 32767 / 16 */
    uint8_t dat[0x20 + 2];
    put_elements(dat, el, sizeof el);
    ue_hsd_vtx_attr a = {.attr = UE_GX_VA_TEX0, .comp_type = HSD_COMP_S16, .frac = 4, .stride = 2};
    hsd_wide_attr w;
    CHECK(hsd_wide_init(&w, 0, 0, &a, 1, 2, dat, sizeof dat) == UE_OK); /* element 1 lies past the buffer: 0 */
    const double far = 5000.0;
    CHECK(hsd_wide_put(&w, 1, &far) == 1);
    CHECK(hsd_wide_finish(&w));
    CHECK(w.comp_type == HSD_COMP_F32 && w.array.size == 8);
    CHECK(be32(w.array.data) == 0x44FFFE00u);     /* 2047.9375 = 0x1.FFFCp10 */
    CHECK(be32(w.array.data + 4) == 0x459C4000u); /* 5000 */
    hsd_wide_free(&w);
}

/* A copy of one's own (re-weighted vertices): values that fit keep the format; appended elements
 * are shared by equal values. */
static void test_own_copy(void) {
    const uint8_t el[2] = {96, 128}; /* U8, 7 fractional bits: 0.75, 1.0 */
    uint8_t dat[0x20 + 2];
    put_elements(dat, el, sizeof el);
    ue_hsd_vtx_attr a = {.attr = UE_GX_VA_TEX0, .comp_type = HSD_COMP_U8, .frac = 7, .stride = 1};
    hsd_wide_attr w;
    CHECK(hsd_wide_init(&w, 0, 0, &a, 1, 2, dat, sizeof dat) == UE_OK);
    const double x = 1.5, y = 0.25;
    CHECK(hsd_wide_append(&w, &x) == 2);
    CHECK(hsd_wide_append(&w, &x) == 2);
    CHECK(hsd_wide_append(&w, &y) == 3);
    CHECK(w.count == 4);
    CHECK(hsd_wide_finish(&w));
    CHECK(w.comp_type == HSD_COMP_U8 && w.frac == 7 && w.array.size == 4);
    const uint8_t want[4] = {96, 128, 192, 32};
    CHECK(!memcmp(w.array.data, want, sizeof want));
    hsd_wide_free(&w);
}

/* Many appended elements (the table and the arrays grown many times): each distinct value once,
 * in order of first appearance, an old element's value appended anew (only appended ones are
 * shared), every value found again at its index. */
static void test_many_appended(void) {
    const uint8_t el[4] = {0, 1, 0, 2}; /* U16 pairs, 0 fractional bits: (1, 2) */
    uint8_t dat[0x20 + 4];
    put_elements(dat, el, sizeof el);
    ue_hsd_vtx_attr a = {.attr = UE_GX_VA_TEX0, .comp_type = HSD_COMP_U16, .frac = 0, .stride = 4};
    hsd_wide_attr w;
    CHECK(hsd_wide_init(&w, 0, 0, &a, 2, 3, dat, sizeof dat) == UE_OK); /* (1, 2), then two past the file: zeros */
    CHECK(w.vals[0] == 1 && w.vals[1] == 2 && w.vals[2] == 0 && w.vals[5] == 0);
    enum { N = 5000 };
    for (int i = 0; i < N; i++) {
        const double v[2] = {i % 1000, i / 1000}; /* 1000 × 5 distinct pairs */
        CHECK(hsd_wide_append(&w, v) == 3 + i);
    }
    for (int i = 0; i < N; i += 7) {
        const double v[2] = {i % 1000, i / 1000};
        CHECK(hsd_wide_append(&w, v) == 3 + i);
    }
    CHECK(w.count == 3 + N);
    CHECK(w.vals[2 * (3 + 4321)] == 321 && w.vals[2 * (3 + 4321) + 1] == 4);
    const double old[2] = {1, 2};
    CHECK(hsd_wide_append(&w, old) == 3 + 2001); /* 2001 is (1, 2): appended, not the old element 0 */
    hsd_wide_free(&w);
}

int main(void) {
    RUN(test_many_appended);
    RUN(test_s8_to_s16);
    RUN(test_s16_to_f32);
    RUN(test_own_copy);
    return TEST_SUMMARY();
}
