/* unearth tests — the edit-mode quantiser (src/hsd/hsd_quantise.c) against values computed here:
 * q = v · 2^frac rounded half away from zero, type ranges, F32 bits, and every colour format's
 * channels against bit replication written out in the test. */
#include <math.h>
#include <string.h>

#include "test.h"
#include "hsd/hsd_import_int.h"

static int32_t be_signed(const uint8_t *b, uint32_t n, bool is_signed) {
    uint32_t v = 0;
    for (uint32_t i = 0; i < n; i++) v = v << 8 | b[i];
    if (is_signed && n == 1) return (int8_t)v;
    if (is_signed && n == 2) return (int16_t)v;
    return (int32_t)v;
}

static void test_integers(void) {
    uint8_t out[4];
    double lo, hi;
    /* S16 with 8 fractional bits: every grid value comes back to its own q. */
    for (int32_t q = -32768; q <= 32767; q += 97) {
        CHECK(hsd_quantise_component(q / 256.0, HSD_COMP_S16, 8, out, &lo, &hi));
        CHECK(be_signed(out, 2, true) == q);
    }
    /* Halves round away from zero: 2.5/16 → 3, -2.5/16 → -3; just below a half rounds down. */
    CHECK(hsd_quantise_component(2.5 / 16, HSD_COMP_S16, 4, out, &lo, &hi) && be_signed(out, 2, true) == 3);
    CHECK(hsd_quantise_component(-2.5 / 16, HSD_COMP_S16, 4, out, &lo, &hi) && be_signed(out, 2, true) == -3);
    CHECK(hsd_quantise_component(2.49 / 16, HSD_COMP_S16, 4, out, &lo, &hi) && be_signed(out, 2, true) == 2);
    /* S8 frac 6 (normals: 64 = 1.0): 1.0 → 64 = 0x40, -1.0 → 0xC0; 2.0 is past 127/64. */
    CHECK(hsd_quantise_component(1.0, HSD_COMP_S8, 6, out, &lo, &hi) && out[0] == 0x40);
    CHECK(hsd_quantise_component(-1.0, HSD_COMP_S8, 6, out, &lo, &hi) && out[0] == 0xC0);
    CHECK(!hsd_quantise_component(2.0, HSD_COMP_S8, 6, out, &lo, &hi));
    CHECK(lo == -2.0 && hi == 127.0 / 64);
    /* U8 frac 7: 0.75 → 96; negative values do not fit; U16 holds 65535 · 2^-frac. */
    CHECK(hsd_quantise_component(0.75, HSD_COMP_U8, 7, out, &lo, &hi) && out[0] == 96);
    CHECK(!hsd_quantise_component(-0.01, HSD_COMP_U8, 7, out, &lo, &hi) && lo == 0 && hi == 255.0 / 128);
    CHECK(hsd_quantise_component(65535 / 4.0, HSD_COMP_U16, 2, out, &lo, &hi) && out[0] == 0xFF && out[1] == 0xFF);
    CHECK(!hsd_quantise_component(65536 / 4.0, HSD_COMP_U16, 2, out, &lo, &hi));
    /* S16 frac 4: the range the CLI message names, -2048 … 2047.9375. */
    CHECK(!hsd_quantise_component(3000, HSD_COMP_S16, 4, out, &lo, &hi) && lo == -2048 && hi == 2047.9375);
    CHECK(hsd_component_bytes(HSD_COMP_U8) == 1 && hsd_component_bytes(HSD_COMP_S16) == 2 &&
          hsd_component_bytes(HSD_COMP_F32) == 4 && hsd_component_bytes(7) == 0);
}

static void test_float(void) {
    uint8_t out[4];
    double lo, hi;
    /* 1.5f = 0x3FC00000, -0.1f = 0xBDCCCCCD, big-endian. */
    CHECK(hsd_quantise_component(1.5, HSD_COMP_F32, 0, out, &lo, &hi));
    CHECK(out[0] == 0x3F && out[1] == 0xC0 && out[2] == 0 && out[3] == 0);
    CHECK(hsd_quantise_component(-0.1, HSD_COMP_F32, 0, out, &lo, &hi));
    CHECK(out[0] == 0xBD && out[1] == 0xCC && out[2] == 0xCC && out[3] == 0xCD);
    CHECK(!hsd_quantise_component(1e39, HSD_COMP_F32, 0, out, &lo, &hi));
}

/* Bit replication of an n-bit channel to 8 bits, as the GX vertex loader expands it. */
static unsigned expand(unsigned v, unsigned bits) {
    unsigned out = v << (8 - bits);
    for (unsigned have = bits; have < 8; have += bits) out |= out >> bits;
    return out & 0xFF;
}

static void test_colors(void) {
    const char *why = NULL;
    uint8_t out[4];
    /* Every value of every channel width comes back to its own bits from its expanded colour. */
    const unsigned widths[4] = {4, 5, 6, 8};
    for (int w = 0; w < 4; w++)
        for (unsigned q = 0; q < (1u << widths[w]); q++) {
            float c = (float)expand(q, widths[w]) / 255.0f, rgba[4] = {c, c, c, 1.0f};
            if (widths[w] == 4) {
                CHECK(hsd_encode_vertex_color(rgba, 3, out, &why));
                CHECK((out[0] >> 4) == q && (out[0] & 15) == q && (out[1] >> 4) == q && (out[1] & 15) == 15);
            } else if (widths[w] == 5) {
                CHECK(hsd_encode_vertex_color(rgba, 0, out, &why));
                CHECK((unsigned)(out[0] >> 3) == q && (unsigned)(out[1] & 31) == q);
            } else if (widths[w] == 6) {
                CHECK(hsd_encode_vertex_color(rgba, 4, out, &why));
                uint32_t v = (uint32_t)out[0] << 16 | (uint32_t)out[1] << 8 | out[2];
                CHECK((v >> 18) == q && ((v >> 12) & 63) == q && ((v >> 6) & 63) == q && (v & 63) == 63);
            } else {
                CHECK(hsd_encode_vertex_color(rgba, 5, out, &why));
                CHECK(out[0] == q && out[1] == q && out[2] == q && out[3] == 255);
            }
        }
    /* Known words: red in RGB565 is 0xF800; (1, 0.5, 0, 1) in RGBA4 is 0xF80F (7.5 rounds to 8). */
    const float red[4] = {1, 0, 0, 1}, orange[4] = {1, 0.5f, 0, 1};
    CHECK(hsd_encode_vertex_color(red, 0, out, &why) && out[0] == 0xF8 && out[1] == 0x00);
    CHECK(hsd_encode_vertex_color(orange, 3, out, &why) && out[0] == 0xF8 && out[1] == 0x0F);
    /* RGBX8 keeps its fourth byte; formats without alpha refuse an alpha other than 1. */
    out[3] = 0x5A;
    CHECK(hsd_encode_vertex_color(orange, 2, out, &why) && out[0] == 255 && out[1] == 128 && out[3] == 0x5A);
    const float half_alpha[4] = {1, 1, 1, 0.5f}, over[4] = {1.5f, 0, 0, 1};
    CHECK(!hsd_encode_vertex_color(half_alpha, 1, out, &why) && strstr(why, "alpha"));
    CHECK(hsd_encode_vertex_color(half_alpha, 5, out, &why) && out[3] == 128);
    CHECK(!hsd_encode_vertex_color(over, 5, out, &why) && strstr(why, "0..1"));
    CHECK(!hsd_encode_vertex_color(red, 9, out, &why));
}

/* Values no integer type can hold (NaN, the infinities, 1e300 shifted by 31 bits) and colours
 * with a NaN channel are refused and nothing is written (UBSan runs this without a report). */
static void test_non_finite(void) {
    const double bad[] = {NAN, INFINITY, -INFINITY, 1e300, -1e300};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        for (uint32_t type = HSD_COMP_U8; type <= HSD_COMP_F32; type++)
            for (uint32_t frac = 0; frac <= 31; frac += 31) {
                uint8_t out[4] = {0xAA, 0xAA, 0xAA, 0xAA};
                double lo, hi;
                CHECK(!hsd_quantise_component(bad[i], type, frac, out, &lo, &hi));
                for (int b = 0; b < 4; b++) CHECK_EQ_U(out[b], 0xAA);
            }
    for (int channel = 0; channel < 4; channel++)
        for (uint32_t format = 0; format <= 5; format++) {
            float rgba[4] = {0.5f, 0.5f, 0.5f, 1.0f};
            rgba[channel] = NAN;
            uint8_t out[4] = {0xAA, 0xAA, 0xAA, 0xAA};
            const char *why = NULL;
            CHECK(!hsd_encode_vertex_color(rgba, format, out, &why));
            CHECK(why != NULL);
            for (int b = 0; b < 4; b++) CHECK_EQ_U(out[b], 0xAA);
        }
}

int main(void) {
    RUN(test_integers);
    RUN(test_float);
    RUN(test_colors);
    RUN(test_non_finite);
    return TEST_SUMMARY();
}
