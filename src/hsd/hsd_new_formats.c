/* unearth — the choices of a new HSD model (docs/hsd-import.md#new-models): joint Euler angles
 * from quaternions, the smallest vertex formats within their errors, texture sides and resampling. */
#include <math.h>
#include <string.h>

#include "hsd/hsd_import_int.h"
#include "hsd/hsd_new_int.h"

void hsd_euler_from_quaternion(const float q[4], float euler[3]) {
    const double qd[4] = {q[0], q[1], q[2], q[3]}, zero[3] = {0, 0, 0};
    double e[3];
    hsd_quat_to_euler_near(qd, zero, e); /* the clips' conversion, nearest no turn at all */
    euler[0] = (float)e[0], euler[1] = (float)e[1], euler[2] = (float)e[2];
}

/* The largest shift 0…31 at which every value fits the integer type, or -1. */
static int largest_frac(const float *v, size_t n, double lo, double hi) {
    double vmin = 0, vmax = 0;
    for (size_t i = 0; i < n; i++) {
        if (v[i] < vmin) vmin = v[i];
        if (v[i] > vmax) vmax = v[i];
    }
    for (int f = 31; f >= 0; f--) {
        double s = ldexp(1.0, f);
        if (round(vmin * s) >= lo && round(vmax * s) <= hi) return f;
    }
    return -1;
}

static double max_error(const float *v, size_t n, int frac) {
    double s = ldexp(1.0, frac), e = 0;
    for (size_t i = 0; i < n; i++) {
        double d = fabs(round((double)v[i] * s) / s - v[i]);
        if (d > e) e = d;
    }
    return e;
}

hsd_comp_choice hsd_choose_component(const float *v, size_t n, double tolerance, bool normal) {
    static const double lo[4] = {0, -128, 0, -32768}, hi[4] = {255, 127, 65535, 32767};
    for (uint32_t t = HSD_COMP_U8; t <= HSD_COMP_S16; t++) {
        if (normal && t != HSD_COMP_S8 && t != HSD_COMP_S16) continue;
        int f = normal ? (t == HSD_COMP_S8 ? 6 : 14) : largest_frac(v, n, lo[t], hi[t]);
        if (f < 0 || (normal && largest_frac(v, n, lo[t], hi[t]) < f)) continue;
        double e = max_error(v, n, f);
        if (e <= tolerance) return (hsd_comp_choice){t, (uint32_t)f, e};
    }
    return (hsd_comp_choice){HSD_COMP_F32, 0, 0};
}

/* A channel through an n-bit field and back by bit replication, as the decoder widens it. */
static double through_bits(double c, unsigned bits) {
    unsigned q = (unsigned)lround(c * ((1u << bits) - 1)), wide = q << (8 - bits);
    for (unsigned sh = bits; sh < 8; sh += bits) wide |= q << (8 - bits) >> sh;
    return (bits == 8 ? q : (wide & 255u)) / 255.0;
}

uint32_t hsd_choose_color_format(const float *rgba, size_t n) {
    /* By size: RGB565 (0), RGBA4 (3), RGB8 (1), RGBA6 (4), RGBA8 (5); bits per channel r g b a. */
    static const struct { uint32_t format; unsigned bits[4]; } order[5] = {
        {0, {5, 6, 5, 0}}, {3, {4, 4, 4, 4}}, {1, {8, 8, 8, 0}}, {4, {6, 6, 6, 6}}, {5, {8, 8, 8, 8}}};
    const double tolerance = 0.5 / 255 + 1e-6;
    for (int k = 0; k < 5; k++) {
        bool fits = true;
        for (size_t i = 0; i < n && fits; i++)
            for (int c = 0; c < 4 && fits; c++) {
                double v = rgba[4 * i + c];
                unsigned b = order[k].bits[c];
                fits = b ? fabs(through_bits(v, b) - v) <= tolerance : fabs(v - 1.0) <= tolerance;
            }
        if (fits) return order[k].format;
    }
    return 5;
}

uint32_t hsd_texture_side(uint32_t side) {
    uint32_t p = 1;
    while (p * 2 <= side && p < 512) p *= 2;
    return p;
}

/* The weights of source cells [0, s) under target cell t of d: cell t covers [t·s/d, (t+1)·s/d). */
static double coverage(uint32_t i, uint32_t t, uint32_t s, uint32_t d) {
    double a = (double)t * s / d, b = (double)(t + 1) * s / d;
    double lo = a > i ? a : i, hi = b < i + 1.0 ? b : i + 1.0;
    return hi > lo ? hi - lo : 0;
}

void hsd_resample_rgba(const uint8_t *src, uint32_t sw, uint32_t sh, uint8_t *dst, uint32_t dw, uint32_t dh) {
    for (uint32_t ty = 0; ty < dh; ty++)
        for (uint32_t tx = 0; tx < dw; tx++) {
            double sum[4] = {0, 0, 0, 0}, area = 0;
            uint32_t y0 = (uint32_t)((uint64_t)ty * sh / dh), x0 = (uint32_t)((uint64_t)tx * sw / dw);
            for (uint32_t y = y0; y < sh; y++) {
                double wy = coverage(y, ty, sh, dh);
                if (wy == 0) break;
                for (uint32_t x = x0; x < sw; x++) {
                    double wx = coverage(x, tx, sw, dw);
                    if (wx == 0) break;
                    const uint8_t *p = src + 4 * ((size_t)y * sw + x);
                    for (int c = 0; c < 4; c++) sum[c] += wx * wy * p[c];
                    area += wx * wy;
                }
            }
            for (int c = 0; c < 4; c++) dst[4 * ((size_t)ty * dw + tx) + c] = (uint8_t)lround(sum[c] / area);
        }
}
