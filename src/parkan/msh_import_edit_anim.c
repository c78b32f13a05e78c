/* unearth — edit mode's clip: the glTF clip compared with the base model's curve by curve at
 * each side's own key times (any rate or interpolation); a changed track re-keyed on the model's frames. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parkan/msh_import_edit_int.h"
#include "parkan/parkan_axes.h"

/* ---- values: equal within what MSH stores, or what a client's float32 arithmetic loses ---- */

bool ue_msh_edit_translation_differs(const float a[3], const float b[3]) {
    for (int k = 0; k < 3; k++) {
        float scale = fmaxf(1.0f, fmaxf(fabsf(a[k]), fabsf(b[k])));
        if (!(fabsf(a[k] - b[k]) <= TRANSLATION_TOL * scale)) return true;
    }
    return false;
}

bool ue_msh_edit_quat_differs(const float a[4], const float b[4]) {
    float plus = 0, minus = 0;
    for (int k = 0; k < 4; k++) {
        plus = fmaxf(plus, fabsf(a[k] - b[k]));
        minus = fmaxf(minus, fabsf(a[k] + b[k]));
    }
    return !(fminf(plus, minus) <= QUAT_TOL);
}

static bool values_differ(const float *a, const float *b, uint32_t comps) {
    return comps == 4 ? ue_msh_edit_quat_differs(a, b) : ue_msh_edit_translation_differs(a, b);
}

static void normalise_quat(float *q) {
    float len = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int k = 0; k < 4; k++) q[k] = len > 0 ? q[k] / len : (k == 3);
}

/* ---- curves: a channel of the clip, or the node's own transform held when it has none ---- */

/* A property's curve over time. `held_*` back the one-key STEP channel of a node the clip does
 * not animate in that property; a curve is filled in place and not moved (ch points into it). */
typedef struct curve {
    ue_anim_channel ch;
    float held_time, held_value[4];
} curve;

/* A node's translation and rotation channels in one clip. */
typedef struct node_channels {
    const ue_anim_channel *t, *r; /* the clip's channels, NULL when absent */
} node_channels;

static void curve_init(curve *c, const ue_anim_channel *ch, ue_anim_target target, const ue_scene_node *node) {
    memset(c, 0, sizeof *c);
    if (ch) {
        c->ch = *ch;
        return;
    }
    bool rot = target == UE_TARGET_ROTATION;
    c->ch.target = target;
    c->ch.node = -1;
    c->ch.material = -1;
    c->ch.interpolation = UE_INTERP_STEP;
    c->ch.key_count = 1;
    c->ch.components = rot ? 4 : 3;
    c->ch.times = &c->held_time;
    c->ch.values = c->held_value;
    memcpy(c->held_value, rot ? node->rotation : node->translation, (rot ? 4 : 3) * sizeof(float));
}

/* Key k's value (the middle one of a CUBICSPLINE triple), rotations normalised. */
static void key_value(const ue_anim_channel *c, uint32_t k, float *out) {
    bool cubic = c->interpolation == UE_INTERP_CUBIC;
    size_t stride = (cubic ? 3u : 1u) * c->components;
    memcpy(out, &c->values[k * stride + (cubic ? c->components : 0)], c->components * sizeof *out);
    if (c->components == 4) normalise_quat(out);
}

/* The last key at or before t (0 when t is before the first). */
static uint32_t key_before(const ue_anim_channel *c, float t) {
    uint32_t lo = 0, hi = c->key_count;
    while (lo + 1 < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (c->times[mid] <= t) lo = mid;
        else hi = mid;
    }
    return lo;
}

/* The glTF value of a channel at time t (clamped at both ends): STEP, LINEAR or CUBICSPLINE
 * (Hermite), rotations normalised. LINEAR rotations slerp as glTF says, or with `nlerp` lerp
 * each component and normalise, as clients that keep quaternions in per-component curves do
 * (Blender): the same arc between two keys, walked at another pace. */
static void channel_eval(const ue_anim_channel *c, float t, bool nlerp, float *out) {
    uint32_t n = c->key_count, comps = c->components, lo = key_before(c, t);
    bool cubic = c->interpolation == UE_INTERP_CUBIC;
    size_t stride = cubic ? 3 * (size_t)comps : comps, at = cubic ? comps : 0;
    const float *v0 = &c->values[lo * stride + at];
    if (t <= c->times[0] || lo + 1 >= n || c->interpolation == UE_INTERP_STEP) {
        memcpy(out, t <= c->times[0] ? &c->values[at] : v0, comps * sizeof *out);
    } else {
        const float *v1 = &c->values[(lo + 1) * stride + at];
        float dt = c->times[lo + 1] - c->times[lo], a = (t - c->times[lo]) / dt;
        if (cubic) {
            const float *out0 = v0 + comps, *in1 = v1 - comps;
            float a2 = a * a, a3 = a2 * a;
            for (uint32_t k = 0; k < comps; k++)
                out[k] = (2 * a3 - 3 * a2 + 1) * v0[k] + (a3 - 2 * a2 + a) * dt * out0[k] +
                         (-2 * a3 + 3 * a2) * v1[k] + (a3 - a2) * dt * in1[k];
        } else if (comps == 4 && !nlerp) {
            ue_msh_anim_slerp(v0, v1, a, out);
        } else {
            float dot = 0;
            for (uint32_t k = 0; k < comps; k++) dot += v0[k] * v1[k];
            float sign = comps == 4 && dot < 0 ? -1.0f : 1.0f; /* the short way, as slerp goes */
            for (uint32_t k = 0; k < comps; k++) out[k] = v0[k] + (sign * v1[k] - v0[k]) * a;
        }
    }
    if (comps == 4) normalise_quat(out);
}

/* The value v lies on the curve at time t (a LINEAR rotation: slerped or nlerped). */
static bool on_curve(const ue_anim_channel *c, float t, const float *v) {
    float e[4];
    channel_eval(c, t, false, e);
    if (!values_differ(e, v, c->components)) return true;
    if (c->components != 4 || c->interpolation != UE_INTERP_LINEAR) return false;
    channel_eval(c, t, true, e);
    return !values_differ(e, v, 4);
}

/* A base key at time t that a client sampling every `step` seconds could not have hit: it falls
 * between two of the client's keys one step apart, or less than one step outside its range (a
 * client that samples whole frames ends at the last whole frame before the clip's end). */
static bool between_samples(const ue_anim_channel *c, float t, float step) {
    uint32_t n = c->key_count, lo = key_before(c, t);
    float slack = step * 1.001f;
    if (t < c->times[0]) return c->times[0] - t < slack;
    if (t > c->times[n - 1]) return t - c->times[n - 1] < slack;
    return lo + 1 < n && c->times[lo + 1] - c->times[lo] < slack;
}

/* Unchanged (docs/import.md, what "unchanged" means for a clip): every key of the client lies
 * on the base's curve at the client's own time, and every key of the base that the client's
 * sampling could have hit lies on the client's curve (so a dropped key is a change); whatever
 * the key count, interpolation or rate. */
static bool curve_unchanged(const ue_anim_channel *client, const ue_anim_channel *base, float step) {
    float v[4];
    for (uint32_t k = 0; k < client->key_count; k++) {
        key_value(client, k, v);
        if (!on_curve(base, client->times[k], v)) return false;
    }
    for (uint32_t k = 0; k < base->key_count; k++) {
        if (between_samples(client, base->times[k], step)) continue;
        key_value(base, k, v);
        if (!on_curve(client, base->times[k], v)) return false;
    }
    return true;
}

/* The client's sampling step: the shortest interval between two keys of any channel of the clip
 * (1/24 s for Blender's default scene rate); 0 when no channel has two keys. */
static float clip_step(const ue_scene_animation *an) {
    float step = 0;
    for (size_t c = 0; c < an->channel_count; c++) {
        const ue_anim_channel *ch = &an->channels[c];
        for (uint32_t k = 1; k < ch->key_count; k++) {
            float d = ch->times[k] - ch->times[k - 1];
            if (d > 0 && (step == 0 || d < step)) step = d;
        }
    }
    return step;
}

/* The clip's channels per base node; only node translations and rotations of model nodes. */
static ue_result collect_channels(edit_ctx *x, const ue_scene *sc, bool edited, node_channels *out) {
    size_t others = 0;
    int32_t clip = ue_msh_import_node_clip(sc, &others);
    if (clip < 0) return UE_OK;
    const ue_scene_animation *an = &sc->animations[clip];
    for (size_t c = 0; c < an->channel_count; c++) {
        const ue_anim_channel *ch = &an->channels[c];
        char path[64];
        snprintf(path, sizeof path, "/animations/%d/channels/%zu", (int)clip, c);
        bool node_ok = ch->node >= 0 && (size_t)ch->node < sc->node_count;
        int32_t b = !node_ok ? -1 : edited ? x->b_of_s[ch->node] : ch->node;
        if (ch->target != UE_TARGET_TRANSLATION && ch->target != UE_TARGET_ROTATION)
            return ue_msh_edit_fail(x, "import.anim.target", path, "MSH animates node translation and rotation only");
        if (b < 0 || x->msh_of_b[b] < 0)
            return ue_msh_edit_fail(x, "import.anim.node", path, "the channel drives a node that is not a model node");
        const ue_anim_channel **slot = ch->target == UE_TARGET_ROTATION ? &out[b].r : &out[b].t;
        if (*slot)
            return ue_msh_edit_fail(x, "import.anim.twice", path, "a second channel for the same node and property");
        *slot = ch;
    }
    return UE_OK;
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* The frames a changed track is keyed at: the curves' own key times when they all fall on
 * whole frames at the model's rate (and none is CUBICSPLINE), else every frame up to the last
 * key: a client's 24 fps samples come back on the model's frames, not on the client's. */
static ue_result key_frames(edit_ctx *x, const ue_anim_channel *const chs[2], uint32_t **frames, size_t *count,
                            const char *path) {
    bool whole = true;
    double last = 0;
    size_t total = 1;
    for (int i = 0; i < 2; i++)
        for (uint32_t k = 0; k < chs[i]->key_count; k++) {
            double f = (double)chs[i]->times[k] * x->fps;
            whole = whole && chs[i]->interpolation != UE_INTERP_CUBIC && f >= 0 && fabs(f - floor(f + 0.5)) < 1e-3;
            last = f > last ? f : last;
            total++;
        }
    if (!(last < MAX_KEY_FRAMES))
        return ue_diag_add(x->d, UE_SEV_ERROR, "import.anim.limit", UE_NO_OFFSET, path,
                           "the animation lasts %.0f frames at %g fps; MSH tracks hold at most %u", last, (double)x->fps,
                           MAX_KEY_FRAMES), UE_ERR_LIMIT;
    size_t n = whole ? total : (size_t)ceil(last - 1e-3) + 1;
    uint32_t *f = malloc(n * sizeof *f);
    if (!f) return UE_ERR_NOMEM;
    if (whole) {
        size_t o = 0;
        f[o++] = 0;
        for (int i = 0; i < 2; i++)
            for (uint32_t k = 0; k < chs[i]->key_count; k++)
                f[o++] = (uint32_t)floor((double)chs[i]->times[k] * x->fps + 0.5);
        qsort(f, o, sizeof *f, cmp_u32);
        n = 0;
        for (size_t i = 0; i < o; i++)
            if (n == 0 || f[i] != f[n - 1]) f[n++] = f[i];
    } else {
        for (size_t i = 0; i < n; i++) f[i] = (uint32_t)i;
    }
    *frames = f;
    *count = n;
    return UE_OK;
}

/* The node's new track in engine terms, each frame's pose the glTF value of the two curves. */
static ue_result apply_track(edit_ctx *x, size_t n, const ue_anim_channel *t_curve, const ue_anim_channel *r_curve,
                             const char *path) {
    const ue_anim_channel *const chs[2] = {t_curve, r_curve};
    uint32_t *frames = NULL;
    size_t count = 0;
    ue_result r = key_frames(x, chs, &frames, &count, path);
    if (r != UE_OK) return r;
    ue_msh_key *keys = calloc(count, sizeof *keys);
    for (size_t i = 0; keys && i < count; i++) {
        float t[3], q[4], et[3], eq[4], sec = (float)frames[i] / x->fps;
        channel_eval(t_curve, sec, false, t);
        channel_eval(r_curve, sec, false, q);
        ue_parkan_vec_from_gltf(t, et);
        ue_parkan_quat_from_gltf(q, eq);
        memcpy(keys[i].position, et, sizeof et);
        keys[i].time = (float)frames[i];
        ue_msh_encode_quat(eq, keys[i].quat);
    }
    r = keys ? ue_msh_set_track(x->m, n, keys, count, x->d) : UE_ERR_NOMEM;
    free(keys);
    free(frames);
    if (r == UE_OK) x->bounds_dirty = true;
    return r;
}

/* Base node b's track, re-keyed when its translation or rotation curve changed; the property
 * that did not change keeps the base's curve, so its keys stay exact. */
static ue_result apply_node_track(edit_ctx *x, size_t b, size_t si, const node_channels *client,
                                  const node_channels *base, float step) {
    curve ct, cr, bt, br;
    curve_init(&ct, client->t, UE_TARGET_TRANSLATION, &x->s->nodes[si]);
    curve_init(&cr, client->r, UE_TARGET_ROTATION, &x->s->nodes[si]);
    curve_init(&bt, base->t, UE_TARGET_TRANSLATION, &x->base->nodes[b]);
    curve_init(&br, base->r, UE_TARGET_ROTATION, &x->base->nodes[b]);
    bool t_same = curve_unchanged(&ct.ch, &bt.ch, step), r_same = curve_unchanged(&cr.ch, &br.ch, step);
    if (t_same && r_same) return UE_OK;
    char path[48];
    snprintf(path, sizeof path, "/nodes/%zu", si);
    return apply_track(x, (size_t)x->msh_of_b[b], t_same ? &bt.ch : &ct.ch, r_same ? &br.ch : &cr.ch, path);
}

/* Nodes that neither clip animates are left to their rest pose (msh_import_edit.c). */
static ue_result apply_changed_tracks(edit_ctx *x, const node_channels *sc, const node_channels *bc, float step) {
    int32_t *s_of_b = malloc((x->base->node_count + 1) * sizeof *s_of_b);
    if (!s_of_b) return UE_ERR_NOMEM;
    for (size_t b = 0; b < x->base->node_count; b++) s_of_b[b] = -1; /* a node the glTF deleted */
    for (size_t i = 0; i < x->s->node_count; i++)
        if (x->b_of_s[i] >= 0) s_of_b[x->b_of_s[i]] = (int32_t)i; /* -1: a client's wrapper */
    ue_result r = UE_OK;
    for (size_t b = 0; b < x->base->node_count && r == UE_OK; b++) {
        bool animated = sc[b].t || sc[b].r || bc[b].t || bc[b].r;
        if (x->msh_of_b[b] >= 0 && s_of_b[b] >= 0 && animated)
            r = apply_node_track(x, b, (size_t)s_of_b[b], &sc[b], &bc[b], step);
    }
    free(s_of_b);
    return r;
}

ue_result ue_msh_edit_apply_animation(edit_ctx *x) {
    size_t others = 0, base_others = 0;
    int32_t clip = ue_msh_import_node_clip(x->s, &others);
    if (clip < 0) {
        if (ue_msh_import_node_clip(x->base, &base_others) >= 0)
            ue_diag_add(x->d, UE_SEV_WARNING, "import.anim.absent", UE_NO_OFFSET, "/animations",
                        "the glTF has no animation that moves nodes; the base model's animation is kept");
        return UE_OK;
    }
    if (others)
        ue_diag_add(x->d, UE_SEV_WARNING, "import.anim.extra", UE_NO_OFFSET, "/animations",
                    "MSH holds one animation: /animations/%d is imported, %zu more that move nodes "
                    "are not", (int)clip, others);
    node_channels *sc = calloc(x->base->node_count + 1, sizeof *sc), *bc = calloc(x->base->node_count + 1, sizeof *bc);
    ue_result r = sc && bc ? UE_OK : UE_ERR_NOMEM;
    if (r == UE_OK) r = collect_channels(x, x->s, true, sc);
    if (r == UE_OK) r = collect_channels(x, x->base, false, bc);
    if (r == UE_OK) r = apply_changed_tracks(x, sc, bc, clip_step(&x->s->animations[clip]));
    free(sc);
    free(bc);
    return r;
}
