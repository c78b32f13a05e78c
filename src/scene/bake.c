/* unearth — baking source animation curves into glTF-ready samplers: per-component scalar
 * curves (step, linear, Hermite, each with its own key times) and Euler angle tracks. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/math3d.h"
#include "scene/scene_int.h"
#include "unearth/scene.h"

/* Sample cap: a clip of an hour at 240 Hz stays well under it, a hostile range does not. */
#define UE_BAKE_MAX_SAMPLES ((size_t)1 << 20)

static bool curve_ok(const ue_curve *c) {
    if (c->count && !c->keys) return false;
    if (!isfinite(c->rest)) return false;
    for (size_t k = 0; k < c->count; k++) {
        const ue_curve_key *key = &c->keys[k];
        if (!isfinite(key->time) || !isfinite(key->value) || !isfinite(key->in_tangent) ||
            !isfinite(key->out_tangent) || (unsigned)key->interp > UE_CURVE_HERMITE)
            return false;
        if (k && !(key->time > c->keys[k - 1].time)) return false;
    }
    return true;
}

/* Cubic Hermite on [t0, t1] with slopes m0 (leaving key 0) and m1 (arriving at key 1); the
 * basis functions act on s = (t - t0) / (t1 - t0), so slopes scale by the segment length. */
static double hermite(double s, double dt, double v0, double m0, double v1, double m1) {
    double s2 = s * s, s3 = s2 * s;
    return (2 * s3 - 3 * s2 + 1) * v0 + (s3 - 2 * s2 + s) * dt * m0 + (-2 * s3 + 3 * s2) * v1 +
           (s3 - s2) * dt * m1;
}

/* Index of the last key at or before t (binary search; the keys are validated sorted). */
static size_t segment_of(const ue_curve *c, double t) {
    size_t lo = 0, hi = c->count - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo + 1) / 2;
        if (c->keys[mid].time <= t) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

static double eval_unchecked(const ue_curve *c, double t) {
    if (c->count == 0) return c->rest;
    if (t <= c->keys[0].time) return c->keys[0].value;
    if (t >= c->keys[c->count - 1].time) return c->keys[c->count - 1].value;
    const ue_curve_key *a = &c->keys[segment_of(c, t)], *b = a + 1;
    double dt = (double)b->time - a->time, s = (t - a->time) / dt;
    switch (a->interp) {
    case UE_CURVE_STEP: return a->value;
    case UE_CURVE_LINEAR: return a->value + s * ((double)b->value - a->value);
    default: return hermite(s, dt, a->value, a->out_tangent, b->value, b->in_tangent);
    }
}

ue_result ue_curve_eval(const ue_curve *c, double t, double *out) {
    if (!c || !out || !isfinite(t)) return UE_ERR_USAGE;
    if (!curve_ok(c)) return UE_ERR_INVALID;
    *out = eval_unchecked(c, t);
    return UE_OK;
}

void ue_euler_to_quat(const double angles[3], ue_euler_order order, double q[4]) {
    /* The axes in the order they apply; each later rotation multiplies from the left. */
    static const int axes[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    const int *seq = axes[(unsigned)order < 6 ? order : 0];
    double acc[4] = {0, 0, 0, 1};
    for (int i = 0; i < 3; i++) {
        double r[4];
        ue_quat_about_axis(seq[i], angles[seq[i]], r);
        ue_quat_mul(r, acc, acc);
    }
    memcpy(q, acc, sizeof acc);
}

static float sample_time(double start, double end, double rate, size_t k, size_t n) {
    return k + 1 == n ? (float)end : (float)(start + (double)k / rate);
}

/* Sample times start, start + 1/rate, ... and end itself as the last key. The times are
 * stored as float, so a rate too fine for float at these times (two equal samples; glTF needs
 * strictly increasing times) is refused before anything is added to the scene. */
static ue_result sample_count(double start, double end, double rate, size_t *n) {
    if (!isfinite(start) || !isfinite(end) || !isfinite(rate) || start < 0 || end < start ||
        rate <= 0)
        return UE_ERR_USAGE;
    double steps = ceil((end - start) * rate - 1e-9);
    if (steps + 1 > (double)UE_BAKE_MAX_SAMPLES) return UE_ERR_LIMIT;
    *n = (size_t)steps + 1;
    for (size_t k = 1; k < *n; k++)
        if (!(sample_time(start, end, rate, k, *n) > sample_time(start, end, rate, k - 1, *n)))
            return UE_ERR_USAGE;
    return UE_OK;
}

ue_result ue_bake_curves(ue_scene *s, int32_t animation, ue_anim_target target,
                         const ue_curve *curves, double start, double end, double rate,
                         ue_anim_channel **out) {
    uint32_t comps = ue_anim_target_components(target);
    size_t n = 0;
    if (!s || !curves || comps == 0 || target == UE_TARGET_VISIBILITY ||
        target == UE_TARGET_TEXTURE_INDEX)
        return UE_ERR_USAGE; /* discrete targets are STEP keys, not samples */
    ue_result r = sample_count(start, end, rate, &n);
    if (r != UE_OK) return r;
    for (uint32_t c = 0; c < comps; c++)
        if (!curve_ok(&curves[c])) return UE_ERR_INVALID;
    ue_anim_channel *ch = ue_scene_add_channel(s, animation, target, UE_INTERP_LINEAR, (uint32_t)n);
    if (!ch) return animation < 0 || (size_t)animation >= s->animation_count ? UE_ERR_USAGE
                                                                                 : UE_ERR_NOMEM;
    for (size_t k = 0; k < n; k++) {
        ch->times[k] = sample_time(start, end, rate, k, n);
        for (uint32_t c = 0; c < comps; c++)
            ch->values[k * comps + c] = (float)eval_unchecked(&curves[c], ch->times[k]);
    }
    if (out) *out = ch;
    return UE_OK;
}

ue_result ue_bake_euler(ue_scene *s, int32_t animation, int32_t node, const ue_curve xyz[3],
                        ue_euler_order order, double start, double end, double rate,
                        ue_anim_channel **out) {
    size_t n = 0;
    if (!s || !xyz || (unsigned)order > UE_EULER_ZYX) return UE_ERR_USAGE;
    ue_result r = sample_count(start, end, rate, &n);
    if (r != UE_OK) return r;
    for (int c = 0; c < 3; c++)
        if (!curve_ok(&xyz[c])) return UE_ERR_INVALID;
    ue_anim_channel *ch =
        ue_scene_add_channel(s, animation, UE_TARGET_ROTATION, UE_INTERP_LINEAR, (uint32_t)n);
    if (!ch) return animation < 0 || (size_t)animation >= s->animation_count ? UE_ERR_USAGE
                                                                                 : UE_ERR_NOMEM;
    ch->node = node;
    double prev[4] = {0, 0, 0, 1};
    for (size_t k = 0; k < n; k++) {
        ch->times[k] = sample_time(start, end, rate, k, n);
        double angles[3], q[4];
        for (int c = 0; c < 3; c++) angles[c] = eval_unchecked(&xyz[c], ch->times[k]);
        ue_euler_to_quat(angles, order, q);
        /* q and -q are one rotation; pick the one nearer the previous key so that glTF's
         * interpolation between neighbours turns the short way. */
        double dot = q[0] * prev[0] + q[1] * prev[1] + q[2] * prev[2] + q[3] * prev[3];
        if (k > 0 && dot < 0)
            for (int i = 0; i < 4; i++) q[i] = -q[i];
        for (int i = 0; i < 4; i++) ch->values[k * 4 + (size_t)i] = (float)q[i];
        memcpy(prev, q, sizeof prev);
    }
    if (out) *out = ch;
    return UE_OK;
}

/* ---- sampling a glTF channel ------------------------------------------------------------------ */

void ue_anim_channel_interval(const ue_anim_channel *c, double t, uint32_t *k, double *f) {
    uint32_t n = c->key_count, lo = 0, hi = n - 1;
    *k = t >= c->times[n - 1] ? n - 1 : 0, *f = 0;
    if (n == 1 || t <= c->times[0] || t >= c->times[n - 1]) return;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (c->times[mid] <= t) lo = mid;
        else hi = mid;
    }
    *k = lo;
    *f = (t - c->times[lo]) / ((double)c->times[hi] - c->times[lo]);
}

ue_result ue_anim_channel_sample(const ue_anim_channel *c, double t, double *out) {
    if (!c || !out || !c->key_count || !c->times || !c->values || c->components > 4) return UE_ERR_USAGE;
    uint32_t n = c->components, k;
    double f;
    ue_anim_channel_interval(c, t, &k, &f);
    bool cubic = c->interpolation == UE_INTERP_CUBIC;
    size_t stride = cubic ? 3u * n : n;
    const float *v0 = c->values + k * stride + (cubic ? n : 0);
    if (f == 0 || c->interpolation == UE_INTERP_STEP) {
        for (uint32_t i = 0; i < n; i++) out[i] = v0[i];
    } else if (cubic) {
        const float *v1 = v0 + stride, *out_tan = v0 + n, *in_tan = v1 - n;
        double dt = (double)c->times[k + 1] - c->times[k], f2 = f * f, f3 = f2 * f;
        for (uint32_t i = 0; i < n; i++)
            out[i] = (2 * f3 - 3 * f2 + 1) * v0[i] + (f3 - 2 * f2 + f) * dt * out_tan[i] + (-2 * f3 + 3 * f2) * v1[i] +
                     (f3 - f2) * dt * in_tan[i];
    } else if (c->target == UE_TARGET_ROTATION) {
        ue_quat_slerp(v0, v0 + stride, f, out);
    } else {
        for (uint32_t i = 0; i < n; i++) out[i] = (1 - f) * v0[i] + f * v0[stride + i];
    }
    if (c->target == UE_TARGET_ROTATION) {
        double len = sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
        for (int i = 0; i < 4; i++) out[i] = len > 0 ? out[i] / len : (i == 3);
    }
    return UE_OK;
}
