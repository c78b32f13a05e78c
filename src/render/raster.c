/* unearth render layer — the triangle rasteriser: edge functions on a 1/256-pixel fixed-point grid
 * (exact, so shared edges are drawn once by the top-left rule), a z-buffer, texture sampling. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "render/render_int.h"

#define SUBPIXEL 256 /* fixed-point steps per pixel */

ue_result render_target_init(render_target *t, uint32_t size, render_rect rect) {
    size_t pixels = (size_t)rect.width * rect.height;
    t->size = size;
    t->rect = rect;
    t->color = calloc(pixels ? pixels * 4 : 1, sizeof *t->color);
    t->depth = malloc((pixels ? pixels : 1) * sizeof *t->depth);
    if (!t->color || !t->depth) {
        render_target_free(t);
        return UE_ERR_NOMEM;
    }
    for (size_t i = 0; i < pixels; i++) t->depth[i] = INFINITY;
    return UE_OK;
}

void render_target_free(render_target *t) {
    free(t->color);
    free(t->depth);
    t->color = t->depth = NULL;
}

/* ---- textures ---------------------------------------------------------------------------- */

/* floor(c) without a library call for |c| < 2^52 (exactly floor's value, -0 included): the
 * sampler takes four per textured pixel. */
static double floor_quick(double c) {
    if (!(fabs(c) < 4503599627370496.0)) return floor(c);
    double f = (double)(int64_t)c;
    return f == c ? c : f > c ? f - 1 : f;
}

/* A coordinate brought into one period of its wrap mode first, so that huge values cannot
 * overflow the texel index (NaN and ±infinity count as 0: one period of infinity is NaN). */
static double reduce(double c, ue_wrap wrap) {
    if (!isfinite(c)) return 0;
    switch (wrap) {
    case UE_WRAP_CLAMP: return c < -1 ? -1 : c > 2 ? 2 : c;
    case UE_WRAP_MIRROR: return c - 2 * floor_quick(c / 2);
    default: return c - floor_quick(c);
    }
}

/* A texel index of a reduced coordinate (one period, plus one texel either side for the bilinear
 * neighbours) into 0..n-1: one step back into the period, no division. */
static int32_t wrap_index(int32_t i, int32_t n, ue_wrap wrap) {
    if (wrap == UE_WRAP_CLAMP) return i < 0 ? 0 : i >= n ? n - 1 : i;
    int32_t period = wrap == UE_WRAP_MIRROR ? 2 * n : n;
    if (i < 0) i += period;
    else if (i >= period) i -= period;
    if (i < 0 || i >= period) i = 0; /* not reached: reduce() keeps the coordinate in its period */
    return i < n ? i : period - 1 - i;
}

static const uint8_t *texel(const ue_scene_texture *tex, int32_t x, int32_t y) {
    return tex->rgba + ((size_t)y * tex->width + (size_t)x) * 4;
}

#ifdef __SSE2__
/* A texel's four bytes as floats. */
static __m128 texel_ps(const uint8_t *p) {
    __m128i bytes = _mm_cvtsi32_si128((int)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24));
    __m128i zero = _mm_setzero_si128();
    return _mm_cvtepi32_ps(_mm_unpacklo_epi16(_mm_unpacklo_epi8(bytes, zero), zero));
}
#endif

void render_sample(const ue_scene_texture *tex, float u, float v, float out[4]) {
    int32_t w = (int32_t)tex->width, h = (int32_t)tex->height;
    double x = reduce(u, tex->wrap_s) * w, y = reduce(v, tex->wrap_t) * h;
    if (tex->nearest) {
        const uint8_t *p = texel(tex, wrap_index((int32_t)floor_quick(x), w, tex->wrap_s),
                                 wrap_index((int32_t)floor_quick(y), h, tex->wrap_t));
        for (int c = 0; c < 4; c++) out[c] = (float)p[c] / 255.0f;
        return;
    }
    x -= 0.5, y -= 0.5; /* texel centres lie at half-integers */
    double x0 = floor_quick(x), y0 = floor_quick(y);
    float fx = (float)(x - x0), fy = (float)(y - y0);
    int32_t xa = wrap_index((int32_t)x0, w, tex->wrap_s), xb = wrap_index((int32_t)x0 + 1, w, tex->wrap_s);
    int32_t ya = wrap_index((int32_t)y0, h, tex->wrap_t), yb = wrap_index((int32_t)y0 + 1, h, tex->wrap_t);
    const uint8_t *p00 = texel(tex, xa, ya), *p10 = texel(tex, xb, ya), *p01 = texel(tex, xa, yb),
                  *p11 = texel(tex, xb, yb);
    float w00 = (1 - fx) * (1 - fy), w10 = fx * (1 - fy), w01 = (1 - fx) * fy, w11 = fx * fy;
    /* the four texels summed in this order, channel by channel (SSE2: the same operations, four
     * channels at once, the same bits) */
#ifdef __SSE2__
    __m128 acc = _mm_mul_ps(_mm_set1_ps(w00), texel_ps(p00));
    acc = _mm_add_ps(acc, _mm_mul_ps(_mm_set1_ps(w10), texel_ps(p10)));
    acc = _mm_add_ps(acc, _mm_mul_ps(_mm_set1_ps(w01), texel_ps(p01)));
    acc = _mm_add_ps(acc, _mm_mul_ps(_mm_set1_ps(w11), texel_ps(p11)));
    _mm_storeu_ps(out, _mm_div_ps(acc, _mm_set1_ps(255.0f)));
#else
    for (int c = 0; c < 4; c++)
        out[c] = (w00 * (float)p00[c] + w10 * (float)p10[c] + w01 * (float)p01[c] + w11 * (float)p11[c]) / 255.0f;
#endif
}

/* ---- one pixel --------------------------------------------------------------------------- */

typedef struct tri_setup {
    const render_vertex *v[3];
    int side;                  /* which shade set: 0 front, 1 back */
    double inv_area;
} tri_setup;

#ifdef __SSE2__
/* two floats loaded as one 64-bit lane (SSE2's unaligned, aliasing-safe load) */
static __m128 load2(const float *p) { return _mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(const void *)p)); }
static __m128d widen2(const float *p) { return _mm_cvtps_pd(load2(p)); }
#endif

/* The vertex shades (divided by w) interpolated with weights b, divided by the interpolated 1/w,
 * times the base colour. The SSE2 form does the same IEEE operations in the same order two
 * channels at a time, so both give the same bits. */
static void interpolate_shade(const double b[3], const render_vertex *const *v, int side, double inv_w,
                              const float base[4], float color[4]) {
#ifdef __SSE2__
    for (int c = 0; c < 4; c += 2) {
        __m128d s = _mm_mul_pd(_mm_set1_pd(b[0]), widen2(&v[0]->shade_w[side][c]));
        s = _mm_add_pd(s, _mm_mul_pd(_mm_set1_pd(b[1]), widen2(&v[1]->shade_w[side][c])));
        s = _mm_add_pd(s, _mm_mul_pd(_mm_set1_pd(b[2]), widen2(&v[2]->shade_w[side][c])));
        __m128 q = _mm_mul_ps(_mm_cvtpd_ps(_mm_div_pd(s, _mm_set1_pd(inv_w))), load2(&base[c]));
        float out[4];
        _mm_storeu_ps(out, q);
        color[c] = out[0], color[c + 1] = out[1];
    }
#else
    for (int c = 0; c < 4; c++) {
        double s = b[0] * v[0]->shade_w[side][c] + b[1] * v[1]->shade_w[side][c] + b[2] * v[2]->shade_w[side][c];
        color[c] = (float)(s / inv_w) * base[c];
    }
#endif
}

/* Colours the pixel at index i of the target (its rectangle, row by row) with barycentric weights
 * b; returns without writing when the alpha mask discards it. */
static void shade_pixel(render_target *t, size_t i, const double b[3], float z, const tri_setup *ts,
                        const render_paint *paint) {
    const render_vertex *const *v = ts->v;
    double inv_w = b[0] * v[0]->inv_w + b[1] * v[1]->inv_w + b[2] * v[2]->inv_w;
    float color[4];
    interpolate_shade(b, v, ts->side, inv_w, paint->base_color, color);
    if (paint->texture) {
        float uv[2], tx[4];
        for (int k = 0; k < 2; k++)
            uv[k] = (float)((b[0] * v[0]->uv_w[k] + b[1] * v[1]->uv_w[k] + b[2] * v[2]->uv_w[k]) / inv_w);
        render_sample(paint->texture, uv[0], uv[1], tx);
        for (int c = 0; c < 4; c++) color[c] *= tx[c];
    }
    float *dst = t->color + i * 4;
    if (paint->alpha_mode == UE_ALPHA_MASK && !(color[3] >= paint->alpha_cutoff)) return;
    if (paint->alpha_mode != UE_ALPHA_BLEND) {
        memcpy(dst, color, 3 * sizeof *dst);
        dst[3] = 1;
    } else {
        float a = color[3] < 0 ? 0 : color[3] > 1 ? 1 : color[3], da = dst[3], out_a = a + da * (1 - a);
        for (int c = 0; c < 3; c++) dst[c] = out_a > 0 ? (color[c] * a + dst[c] * da * (1 - a)) / out_a : 0;
        dst[3] = out_a;
    }
    if (paint->depth_write) t->depth[i] = z;
}

/* ---- one triangle ------------------------------------------------------------------------ */

/* a / SUBPIXEL rounded down, negative values included */
static int64_t floor_div(int64_t a) {
    return a >= 0 ? a / SUBPIXEL : -((-a + SUBPIXEL - 1) / SUBPIXEL);
}

/* Whether edge a→b is a top or a left edge of a triangle of positive area (y down): a pixel
 * centre exactly on it belongs to this triangle, not to its neighbour. */
static bool top_left(int64_t ax, int64_t ay, int64_t bx, int64_t by) {
    return (by == ay && bx > ax) || by < ay;
}

/* The pixels of one row inside the triangle, as offsets from the row's first pixel (0..last):
 * where every edge function E_k + step_x_k × d, biased by the top-left rule, is >= 0. Solved
 * in integers per edge, so the span is exactly the pixels a per-pixel test would accept; false
 * when the row holds none. */
static bool row_span(const int64_t e[3], const int64_t step_x[3], const int64_t bias[3], int64_t last,
                     int64_t *from, int64_t *to) {
    int64_t lo = 0, hi = last;
    for (int k = 0; k < 3; k++) {
        int64_t base = e[k] + bias[k], s = step_x[k];
        if (s > 0 && base < 0) { /* rising edge: inside from the first d with base + s·d >= 0 */
            int64_t first = (-base + s - 1) / s;
            lo = first > lo ? first : lo;
        } else if (s < 0) { /* falling edge: inside up to the last d with base + s·d >= 0 */
            if (base < 0) return false;
            int64_t final = base / -s;
            hi = final < hi ? final : hi;
        } else if (s == 0 && base < 0) {
            return false;
        }
    }
    *from = lo, *to = hi;
    return lo <= hi;
}

void render_triangle(render_target *t, const render_vertex *v0, const render_vertex *v1,
                     const render_vertex *v2, bool back, const render_paint *paint) {
    tri_setup ts = {{v0, v1, v2}, back ? 1 : 0, 0};
    /* a corner 16 image sides or more from the centre: not drawn (no clipping) */
    double centre = 0.5 * t->size, limit = 16.0 * t->size;
    int64_t X[3], Y[3];
    for (int k = 0; k < 3; k++) {
        if (!(fabs(ts.v[k]->x - centre) < limit && fabs(ts.v[k]->y - centre) < limit)) return;
        X[k] = llround(ts.v[k]->x * SUBPIXEL);
        Y[k] = llround(ts.v[k]->y * SUBPIXEL);
    }
    int64_t area = (X[1] - X[0]) * (Y[2] - Y[0]) - (Y[1] - Y[0]) * (X[2] - X[0]);
    if (area == 0) return;
    if (area < 0) { /* one orientation for the edge functions; the caller culled already */
        const render_vertex *sv = ts.v[1];
        ts.v[1] = ts.v[2], ts.v[2] = sv;
        int64_t sx = X[1], sy = Y[1];
        X[1] = X[2], Y[1] = Y[2], X[2] = sx, Y[2] = sy;
        area = -area;
    }
    ts.inv_area = 1.0 / (double)area;
    int64_t min_x = X[0], max_x = X[0], min_y = Y[0], max_y = Y[0];
    for (int k = 1; k < 3; k++) {
        min_x = X[k] < min_x ? X[k] : min_x, max_x = X[k] > max_x ? X[k] : max_x;
        min_y = Y[k] < min_y ? Y[k] : min_y, max_y = Y[k] > max_y ? Y[k] : max_y;
    }
    const int64_t half = SUBPIXEL / 2;
    const render_rect *r = &t->rect;
    /* pixels whose centre (p + 1/2) lies in the bounding box, inside the drawn rectangle */
    int64_t px0 = floor_div(min_x - half + SUBPIXEL - 1), px1 = floor_div(max_x - half);
    int64_t py0 = floor_div(min_y - half + SUBPIXEL - 1), py1 = floor_div(max_y - half);
    px0 = px0 < r->x0 ? r->x0 : px0, py0 = py0 < r->y0 ? r->y0 : py0;
    px1 = px1 > (int64_t)r->x0 + r->width - 1 ? (int64_t)r->x0 + r->width - 1 : px1;
    py1 = py1 > (int64_t)r->y0 + r->height - 1 ? (int64_t)r->y0 + r->height - 1 : py1;
    if (px0 > px1 || py0 > py1) return;
    /* edge k runs between the two other vertices; E_k / area is vertex k's weight */
    int64_t e_row[3], step_x[3], step_y[3], bias[3];
    for (int k = 0; k < 3; k++) {
        int a = (k + 1) % 3, b = (k + 2) % 3;
        int64_t cx = px0 * SUBPIXEL + half, cy = py0 * SUBPIXEL + half;
        e_row[k] = (X[b] - X[a]) * (cy - Y[a]) - (Y[b] - Y[a]) * (cx - X[a]);
        step_x[k] = -(Y[b] - Y[a]) * SUBPIXEL;
        step_y[k] = (X[b] - X[a]) * SUBPIXEL;
        bias[k] = top_left(X[a], Y[a], X[b], Y[b]) ? 0 : -1;
    }
    for (int64_t py = py0; py <= py1; py++) {
        int64_t from, to;
        if (row_span(e_row, step_x, bias, px1 - px0, &from, &to)) {
            float *depth = t->depth + (size_t)(py - r->y0) * r->width + (size_t)(px0 - r->x0);
            for (int64_t d = from; d <= to; d++) {
                int64_t e[3] = {e_row[0] + step_x[0] * d, e_row[1] + step_x[1] * d, e_row[2] + step_x[2] * d};
                double b[3] = {(double)e[0] * ts.inv_area, (double)e[1] * ts.inv_area, (double)e[2] * ts.inv_area};
                float z = (float)(b[0] * ts.v[0]->z + b[1] * ts.v[1]->z + b[2] * ts.v[2]->z);
                if (z < depth[d]) shade_pixel(t, (size_t)(depth + d - t->depth), b, z, &ts, paint);
            }
        }
        for (int k = 0; k < 3; k++) e_row[k] += step_y[k];
    }
}
