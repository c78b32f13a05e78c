/* unearth — edit mode's clip: the glTF clip compared with the base model's, node by node;
 * a changed node's track re-keyed in engine terms. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parkan/msh_import_edit_int.h"
#include "parkan/parkan_axes.h"

/* ---- animation: channels compared per node, a changed node's track resampled to frames ---- */

/* A node's translation and rotation channels in one clip (NULL when absent). */
typedef struct node_channels {
    const ue_anim_channel *t, *r;
} node_channels;

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

static bool channel_same(const ue_anim_channel *a, const ue_anim_channel *b) {
    if (!a || !b) return a == b;
    if (a->target != b->target || a->interpolation != b->interpolation || a->key_count != b->key_count) return false;
    for (uint32_t k = 0; k < a->key_count; k++)
        if (a->times[k] != b->times[k]) return false;
    size_t n = (size_t)a->key_count * a->components * (a->interpolation == UE_INTERP_CUBIC ? 3 : 1);
    float tol = a->target == UE_TARGET_ROTATION ? QUAT_TOL : 0;
    for (size_t i = 0; i < n; i++)
        if (fabsf(a->values[i] - b->values[i]) > tol || (tol == 0 && a->values[i] != b->values[i])) return false;
    return true;
}

/* The glTF value of a channel at time t (clamped at both ends): STEP, LINEAR (slerp for
 * rotations) or CUBICSPLINE (Hermite), rotations normalised. */
static void channel_eval(const ue_anim_channel *c, float t, float *out) {
    uint32_t n = c->key_count, comps = c->components, lo = 0, hi = n;
    bool cubic = c->interpolation == UE_INTERP_CUBIC;
    size_t stride = cubic ? 3 * (size_t)comps : comps, at = cubic ? comps : 0;
    while (lo + 1 < hi) { /* the last key with time <= t */
        uint32_t mid = lo + (hi - lo) / 2;
        if (c->times[mid] <= t) lo = mid;
        else hi = mid;
    }
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
        } else if (comps == 4) {
            ue_msh_anim_slerp(v0, v1, a, out);
        } else {
            for (uint32_t k = 0; k < comps; k++) out[k] = v0[k] + (v1[k] - v0[k]) * a;
        }
    }
    if (comps == 4) {
        float len = sqrtf(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
        for (int k = 0; k < 4; k++) out[k] = len > 0 ? out[k] / len : (k == 3);
    }
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* The frames a changed track is keyed at: the channels' own key times when they all fall on
 * whole frames (and none is CUBICSPLINE), else every frame up to the last key. */
static ue_result key_frames(edit_ctx *x, const node_channels *c, uint32_t **frames, size_t *count,
                            const char *path) {
    const ue_anim_channel *chs[2] = {c->t, c->r};
    bool whole = true;
    double last = 0;
    size_t total = 1;
    for (int i = 0; i < 2; i++)
        for (uint32_t k = 0; chs[i] && k < chs[i]->key_count; k++) {
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
            for (uint32_t k = 0; chs[i] && k < chs[i]->key_count; k++)
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

/* The node's new track in engine terms; a missing channel holds the node's own transform. */
static ue_result apply_track(edit_ctx *x, size_t n, const node_channels *c, const ue_scene_node *sn,
                             const char *path) {
    uint32_t *frames = NULL;
    size_t count = 0;
    ue_result r = key_frames(x, c, &frames, &count, path);
    if (r != UE_OK) return r;
    ue_msh_key *keys = calloc(count, sizeof *keys);
    for (size_t i = 0; keys && i < count; i++) {
        float t[3], q[4], et[3], eq[4], sec = (float)frames[i] / x->fps;
        memcpy(t, sn->translation, sizeof t);
        memcpy(q, sn->rotation, sizeof q);
        if (c->t) channel_eval(c->t, sec, t);
        if (c->r) channel_eval(c->r, sec, q);
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

static ue_result apply_changed_tracks(edit_ctx *x, const node_channels *sc, const node_channels *bc) {
    int32_t *s_of_b = malloc((x->base.node_count + 1) * sizeof *s_of_b);
    if (!s_of_b) return UE_ERR_NOMEM;
    for (size_t i = 0; i < x->s->node_count; i++)
        if (x->b_of_s[i] >= 0) s_of_b[x->b_of_s[i]] = (int32_t)i; /* -1: a client's wrapper */
    ue_result r = UE_OK;
    for (size_t b = 0; b < x->base.node_count && r == UE_OK; b++) {
        if (x->msh_of_b[b] < 0 || (channel_same(sc[b].t, bc[b].t) && channel_same(sc[b].r, bc[b].r))) continue;
        char path[48];
        snprintf(path, sizeof path, "/nodes/%d", s_of_b[b]);
        r = apply_track(x, (size_t)x->msh_of_b[b], &sc[b], &x->s->nodes[s_of_b[b]], path);
    }
    free(s_of_b);
    return r;
}

ue_result ue_msh_edit_apply_animation(edit_ctx *x) {
    size_t others = 0, base_others = 0;
    int32_t clip = ue_msh_import_node_clip(x->s, &others);
    if (clip < 0) {
        if (ue_msh_import_node_clip(&x->base, &base_others) >= 0)
            ue_diag_add(x->d, UE_SEV_WARNING, "import.anim.absent", UE_NO_OFFSET, "/animations",
                        "the glTF has no animation that moves nodes; the base model's animation is kept");
        return UE_OK;
    }
    if (others)
        ue_diag_add(x->d, UE_SEV_WARNING, "import.anim.extra", UE_NO_OFFSET, "/animations",
                    "MSH holds one animation: /animations/%d is imported, %zu more that move nodes "
                    "are not", (int)clip, others);
    node_channels *sc = calloc(x->base.node_count + 1, sizeof *sc), *bc = calloc(x->base.node_count + 1, sizeof *bc);
    ue_result r = sc && bc ? UE_OK : UE_ERR_NOMEM;
    if (r == UE_OK) r = collect_channels(x, x->s, true, sc);
    if (r == UE_OK) r = collect_channels(x, &x->base, false, bc);
    if (r == UE_OK) r = apply_changed_tracks(x, sc, bc);
    free(sc);
    free(bc);
    return r;
}

