/* unearth tests — the choices of a new HSD model (src/hsd/hsd_new_formats.c) against computations
 * written here: Euler angles rebuilt as Rz·Ry·Rx from elementary rotations and compared with the
 * quaternion's matrix, format choices against hand-worked ranges and errors, texture sides, resampling. */
#include <math.h>
#include <string.h>

#include "test.h"
#include "hsd/hsd_import_int.h"
#include "hsd/hsd_new_int.h"

static void mat3_mul(const double a[3][3], const double b[3][3], double o[3][3]) {
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) o[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
}

/* Rz(z)·Ry(y)·Rx(x), each elementary rotation written out. */
static void euler_matrix(const float e[3], double out[3][3]) {
    double cx = cos(e[0]), sx = sin(e[0]), cy = cos(e[1]), sy = sin(e[1]), cz = cos(e[2]), sz = sin(e[2]);
    double rx[3][3] = {{1, 0, 0}, {0, cx, -sx}, {0, sx, cx}};
    double ry[3][3] = {{cy, 0, sy}, {0, 1, 0}, {-sy, 0, cy}};
    double rz[3][3] = {{cz, -sz, 0}, {sz, cz, 0}, {0, 0, 1}};
    double zy[3][3];
    mat3_mul(rz, ry, zy);
    mat3_mul(zy, rx, out);
}

/* The rotation a unit quaternion makes, by the half-angle formula q·v·q*. */
static void quat_matrix(const double q[4], double out[3][3]) {
    for (int c = 0; c < 3; c++) {
        double v[3] = {c == 0, c == 1, c == 2}, x = q[0], y = q[1], z = q[2], w = q[3];
        /* t = 2 q×v, v' = v + w t + q×t */
        double t[3] = {2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0])};
        double r[3] = {v[0] + w * t[0] + (y * t[2] - z * t[1]), v[1] + w * t[1] + (z * t[0] - x * t[2]),
                       v[2] + w * t[2] + (x * t[1] - y * t[0])};
        for (int k = 0; k < 3; k++) out[k][c] = r[k];
    }
}

static bool euler_matches(const double q[4]) {
    float qf[4] = {(float)q[0], (float)q[1], (float)q[2], (float)q[3]}, e[3];
    hsd_euler_from_quaternion(qf, e);
    double a[3][3], b[3][3];
    euler_matrix(e, a);
    quat_matrix(q, b);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (fabs(a[i][j] - b[i][j]) > 2e-5) return false;
    return true;
}

static void test_euler(void) {
    const double h = sqrt(0.5);
    /* Identity, quarter turns about each axis (Y at the pole: gimbal lock), a half turn. */
    const double fixed[][4] = {{0, 0, 0, 1}, {h, 0, 0, h}, {0, h, 0, h}, {0, 0, h, h}, {0, -h, 0, h},
                               {0, 1, 0, 0}, {0.5, 0.5, 0.5, 0.5}, {h, h, 0, 0}};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) CHECK(euler_matches(fixed[i]));
    /* A quarter turn about X alone is exactly x = π/2. */
    float e[3], qx[4] = {(float)h, 0, 0, (float)h};
    hsd_euler_from_quaternion(qx, e);
    CHECK(fabs(e[0] - 2 * atan(1.0)) < 1e-6 && fabs(e[1]) < 1e-6 && fabs(e[2]) < 1e-6);
    /* Many arbitrary ones (a fixed linear congruential sequence), and near the poles. */
    uint32_t seed = 12345;
    for (int n = 0; n < 2000; n++) {
        double q[4], len = 0;
        for (int k = 0; k < 4; k++) {
            seed = seed * 1664525u + 1013904223u;
            q[k] = (double)(seed >> 8) / (1 << 24) * 2 - 1;
            len += q[k] * q[k];
        }
        if (n % 10 == 0) q[0] = q[2] = 1e-4, q[1] = 0.7071, q[3] = 0.7071, len = q[1] * q[1] * 2 + 2e-8;
        for (int k = 0; k < 4; k++) q[k] /= sqrt(len);
        CHECK(euler_matches(q));
    }
}

static void test_components(void) {
    /* -1, 0.5, 1: U8 holds no negative; S8's largest shift is 6 (1 · 2^7 = 128 > 127), exact. */
    const float a[3] = {-1, 0.5f, 1};
    hsd_comp_choice c = hsd_choose_component(a, 3, 0, false);
    CHECK(c.comp_type == HSD_COMP_S8 && c.frac == 6 && c.max_error == 0);
    /* 0, 0.25, 1.5: U8 with shift 7 (1.5 · 128 = 192 ≤ 255), exact. */
    const float b[3] = {0, 0.25f, 1.5f};
    c = hsd_choose_component(b, 3, 0, false);
    CHECK(c.comp_type == HSD_COMP_U8 && c.frac == 7);
    /* 0.1, -3.3 within 1e-3: S8 shift 5 (3.3 · 32 = 105.6 → 106) errs 0.4/32 = 0.0125;
     * S16 shift 13 (3.3 · 8192 = 27033.6 ≤ 32767, · 2 is not) errs at most 2^-14. */
    const float d[2] = {0.1f, -3.3f};
    c = hsd_choose_component(d, 2, 1e-3, false);
    double e0 = fabs(round(0.1f * 8192.0) / 8192 - 0.1f), e1 = fabs(round(-3.3f * 8192.0) / 8192 + 3.3f);
    CHECK(c.comp_type == HSD_COMP_S16 && c.frac == 13 && fabs(c.max_error - fmax(e0, e1)) < 1e-12);
    CHECK(hsd_choose_component(d, 2, 0.0125 + 1e-6, false).comp_type == HSD_COMP_S8);
    CHECK(hsd_choose_component(d, 2, 0.0124, false).comp_type == HSD_COMP_S16);
    /* Too large for any integer type at shift 0: F32. */
    const float big[2] = {1e10f, -5};
    CHECK(hsd_choose_component(big, 2, 1, false).comp_type == HSD_COMP_F32);
    /* Normals: S8 /64 when on its grid, else S16 /16384. */
    const float axis[3] = {0, 0, 1}, tilted[3] = {0.6f, 0.8f, 0};
    c = hsd_choose_component(axis, 3, 1.0 / 4096, true);
    CHECK(c.comp_type == HSD_COMP_S8 && c.frac == 6);
    c = hsd_choose_component(tilted, 3, 1.0 / 4096, true);
    CHECK(c.comp_type == HSD_COMP_S16 && c.frac == 14 && c.max_error <= 1.0 / 32768);
}

static void test_colors(void) {
    /* Pure channels are on every grid: RGB565. */
    const float pure[8] = {1, 0, 0, 1, 0, 1, 0, 1};
    CHECK(hsd_choose_color_format(pure, 2) == 0);
    /* 0.5 grey: 5 bits give 16 → 132/255 (off by 0.018); 8 bits 128/255 (0.5/255 off): RGB8. */
    const float grey[4] = {0.5f, 0.5f, 0.5f, 1};
    CHECK(hsd_choose_color_format(grey, 1) == 1);
    /* Transparent white: 4 bits hold 0 and 1 exactly: RGBA4. Half alpha grey: RGBA8. */
    const float clear[4] = {1, 1, 1, 0}, half[4] = {0.5f, 0.5f, 0.5f, 0.5f};
    CHECK(hsd_choose_color_format(clear, 1) == 3);
    CHECK(hsd_choose_color_format(half, 1) == 5);
    /* 17/255 per channel is 4-bit 1 → 0x11 exactly, alpha 1: RGB565 cannot (5 bits: 2 → 16). */
    const float seventeen[4] = {17 / 255.0f, 17 / 255.0f, 17 / 255.0f, 1};
    CHECK(hsd_choose_color_format(seventeen, 1) == 3);
}

static void test_textures(void) {
    CHECK(hsd_texture_side(1) == 1 && hsd_texture_side(3) == 2 && hsd_texture_side(12) == 8);
    CHECK(hsd_texture_side(512) == 512 && hsd_texture_side(1000) == 512 && hsd_texture_side(4096) == 512);
    /* 4 × 2 → 2 × 1: each target texel the mean of a 2 × 2 block. */
    uint8_t src[4 * 2 * 4], dst[2 * 1 * 4];
    for (int i = 0; i < 32; i++) src[i] = (uint8_t)(i * 7);
    hsd_resample_rgba(src, 4, 2, dst, 2, 1);
    for (int x = 0; x < 2; x++)
        for (int c = 0; c < 4; c++) {
            int sum = src[4 * (2 * x) + c] + src[4 * (2 * x + 1) + c] + src[16 + 4 * (2 * x) + c] + src[16 + 4 * (2 * x + 1) + c];
            CHECK(dst[4 * x + c] == (uint8_t)lround(sum / 4.0));
        }
    /* 3 × 1 → 2 × 1: texel 0 covers sources [0, 1.5): a whole and half of b. */
    const uint8_t row[12] = {0, 0, 0, 255, 90, 30, 60, 255, 200, 200, 200, 0};
    uint8_t two[8];
    hsd_resample_rgba(row, 3, 1, two, 2, 1);
    CHECK(two[0] == 30 && two[1] == 10 && two[2] == 20 && two[3] == 255);
    CHECK(two[4] == (uint8_t)lround((0.5 * 90 + 200) / 1.5) && two[7] == (uint8_t)lround(0.5 * 255 / 1.5));
}

int main(void) {
    RUN(test_euler);
    RUN(test_components);
    RUN(test_colors);
    RUN(test_textures);
    return TEST_SUMMARY();
}
