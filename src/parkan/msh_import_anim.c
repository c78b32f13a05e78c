/* unearth — Res8/Res19 of a new MSH from the scene's first clip: each moving node's translation
 * and rotation sampled at every engine frame (STEP, LINEAR and CUBICSPLINE as glTF defines
 * them), converted to engine axes, held runs folded, and laid out by docs/formats/msh-anim.md#canonical-layout. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/math3d.h"
#include "parkan/msh_anim.h"
#include "parkan/msh_import_int.h"
#include "parkan/parkan_axes.h"

#define MAX_SAMPLES (1u << 22) /* frames × moving nodes sampled at most (about 100 MB of keys) */
#define FRAME_SNAP 1e-3        /* a clip end this close to a whole frame ends on that frame */

/* The translation and rotation channels of each model node in the clip. */
typedef struct node_channels {
    const ue_anim_channel *move, *turn;
} node_channels;

static const float *key_value(const ue_anim_channel *ch, size_t k) {
    size_t n = ch->components, stride = ch->interpolation == UE_INTERP_CUBIC ? 3 * n : n;
    return ch->values + k * stride + (ch->interpolation == UE_INTERP_CUBIC ? n : 0);
}

static void normalise4(float q[4]) {
    float len = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int c = 0; c < 4; c++) q[c] = len > 0 ? q[c] / len : (c == 3);
}

/* glTF's spherical interpolation: the short way, normalised. */
static void slerp(const float a[4], const float b[4], float t, float out[4]) {
    double q[4];
    ue_quat_slerp(a, b, t, q);
    for (int c = 0; c < 4; c++) out[c] = (float)q[c];
    normalise4(out);
}

/* Cubic Hermite between keys i and i + 1 (glTF: tangents scaled by the key interval). */
static void hermite(const ue_anim_channel *ch, size_t i, float a, float dt, float *out) {
    size_t n = ch->components;
    const float *p0 = ch->values + i * 3 * n, *p1 = ch->values + (i + 1) * 3 * n;
    double a2 = (double)a * a, a3 = a2 * a;
    for (size_t c = 0; c < n; c++) {
        double v0 = p0[n + c], b0 = p0[2 * n + c] * dt, v1 = p1[n + c], a1 = p1[c] * dt;
        out[c] = (float)((2 * a3 - 3 * a2 + 1) * v0 + (a3 - 2 * a2 + a) * b0 + (-2 * a3 + 3 * a2) * v1 +
                         (a3 - a2) * a1);
    }
}

/* The channel's value at t seconds (held before the first and after the last key); *cursor
 * walks forward with t. */
static void channel_eval(const ue_anim_channel *ch, float t, size_t *cursor, float *out) {
    size_t n = ch->components, last = ch->key_count - 1, i = *cursor;
    if (t <= ch->times[0] || t >= ch->times[last]) {
        memcpy(out, key_value(ch, t <= ch->times[0] ? 0 : last), n * sizeof *out);
        return;
    }
    while (i + 1 < last && ch->times[i + 1] <= t) i++;
    *cursor = i;
    float t0 = ch->times[i], t1 = ch->times[i + 1], a = (t - t0) / (t1 - t0);
    const float *v0 = key_value(ch, i), *v1 = key_value(ch, i + 1);
    if (ch->interpolation == UE_INTERP_STEP) {
        memcpy(out, v0, n * sizeof *out);
    } else if (ch->interpolation == UE_INTERP_CUBIC) {
        hermite(ch, i, a, t1 - t0, out);
    } else if (n == 4) {
        slerp(v0, v1, a, out);
    } else {
        for (size_t c = 0; c < n; c++) out[c] = v0[c] + (v1[c] - v0[c]) * a;
    }
    if (n == 4) normalise4(out);
}

static bool scale_is_one(const ue_anim_channel *ch) {
    for (size_t k = 0; k < ch->key_count; k++)
        for (int c = 0; c < 3; c++)
            if (fabsf(key_value(ch, k)[c] - 1.0f) > 1e-4f) return false;
    return true;
}

/* Sorts the clip's channels onto model nodes; returns the clip's last key time (or -1 when no
 * model node moves). What MSH cannot keep is an error (scale) or a warning (other targets). */
static float collect(ue_msh_import *im, const ue_scene_animation *an, node_channels *nc) {
    float last = -1;
    for (size_t c = 0; c < an->channel_count; c++) {
        const ue_anim_channel *ch = &an->channels[c];
        char path[64];
        snprintf(path, sizeof path, "%s/channels/%zu", im->clip_path, c);
        int32_t k = ch->node >= 0 ? im->msh_of_scene[ch->node] : -1;
        bool node_target = ch->target <= UE_TARGET_SCALE;
        if (!node_target || k < 0) {
            ue_diag_add(im->c.d, UE_SEV_WARNING, "msh.import.channel", UE_NO_OFFSET, path,
                        "not kept: MSH animates the translation and rotation of model nodes only");
            continue;
        }
        if (ch->target == UE_TARGET_SCALE) {
            if (!scale_is_one(ch))
                ue_parse_error(&im->c, "msh.import.scale", UE_NO_OFFSET, path,
                               "a scale animation: MSH keys hold translation and rotation only");
            continue;
        }
        if (ch->target == UE_TARGET_TRANSLATION) nc[k].move = ch;
        else nc[k].turn = ch;
        if (ch->times[ch->key_count - 1] > last) last = ch->times[ch->key_count - 1];
    }
    return last;
}

/* Node k's pose at frame f in engine axes as a key (the node's rest values where a channel is
 * missing). */
static ue_msh_key sample(const ue_msh_import *im, size_t k, const node_channels *nc, uint32_t f, size_t cursor[2]) {
    const ue_scene_node *n = &im->s->nodes[im->scene_of_msh[k]];
    float t = (float)f / im->fps, move[3], turn[4], q[4];
    memcpy(move, n->translation, sizeof move);
    memcpy(turn, n->rotation, sizeof turn);
    if (nc->move) channel_eval(nc->move, t, &cursor[0], move);
    if (nc->turn) channel_eval(nc->turn, t, &cursor[1], turn);
    ue_msh_key key;
    memset(&key, 0, sizeof key);
    key.time = (float)f;
    ue_parkan_vec_from_gltf(move, key.position);
    ue_parkan_quat_from_gltf(turn, q);
    normalise4(q);
    ue_msh_encode_quat(q, key.quat);
    return key;
}

static bool same_pose(const ue_msh_key *a, const ue_msh_key *b) {
    return !memcmp(a->position, b->position, sizeof a->position) && !memcmp(a->quat, b->quat, sizeof a->quat);
}

/* Frames 0..last as keys, then folded: a key equal to both neighbours is what the engine's
 * interpolation gives anyway, and a final run of equal keys ends at its first (after the last
 * key the engine holds it). A track that never changes is one key at time 0. */
static size_t fold(ue_msh_key *keys, size_t count) {
    while (count > 1 && same_pose(&keys[count - 1], &keys[count - 2])) count--;
    if (count == 1) {
        keys[0].time = 0;
        return 1;
    }
    size_t out = 1;
    for (size_t f = 1; f + 1 < count; f++)
        if (!same_pose(&keys[f - 1], &keys[f]) || !same_pose(&keys[f], &keys[f + 1])) keys[out++] = keys[f];
    keys[out++] = keys[count - 1];
    return out;
}

/* The clip's last frame: its end time in frames, a whole frame when within FRAME_SNAP of one,
 * else the next. UE_ERR_LIMIT past the 16-bit frame range or the sampling budget. */
static ue_result last_frame(ue_msh_import *im, float last, size_t moving, uint32_t *out) {
    double frames = (double)last * im->fps, whole = floor(frames + 0.5);
    double f = fabs(frames - whole) <= FRAME_SNAP ? whole : ceil(frames);
    if (!(f >= 0)) f = 0; /* a clip that ends before time 0 holds its first pose */
    if (f > 65534 || (f + 1) * (double)moving > MAX_SAMPLES) {
        ue_diag_add(im->c.d, UE_SEV_ERROR, "msh.import.limit", UE_NO_OFFSET, im->clip_path,
                    "the clip ends at frame %.0f at %g fps with %zu moving nodes: past the 65534 frames "
                    "of Res8 times or the %u samples the importer takes", f, (double)im->fps, moving,
                    MAX_SAMPLES);
        return UE_ERR_LIMIT;
    }
    *out = (uint32_t)f;
    return UE_OK;
}

/* Res8 indices and Res19 map starts are 16-bit: the folded tracks must fit the layout of docs/formats/msh-anim.md#canonical-layout
 * (every key once; one block of frame_count words per animated node). */
static bool fits_res8(ue_msh_import *im, const ue_msh_key *const *keys, const size_t *counts) {
    size_t total = 0, mapped = 0;
    double frames = 1;
    for (size_t k = 0; k < im->node_count; k++) {
        total += counts[k];
        mapped += counts[k] > 1;
        frames = fmax(frames, (double)keys[k][counts[k] - 1].time + 1);
    }
    if (total <= 0xFFFF && (mapped == 0 || (double)(mapped - 1) * frames < 0xFFFF)) return true;
    ue_diag_add(im->c.d, UE_SEV_ERROR, "msh.import.limit", UE_NO_OFFSET, im->clip_path,
                "%zu keys, %zu moving nodes x %.0f frames after resampling: past Res8's 65535 keys "
                "or Res19's 16-bit map starts", total, mapped, frames);
    return false;
}

/* Tracks of every node (moving ones sampled and folded, the others their rest key) to
 * ue_msh_set_all_tracks. */
static ue_result lay_out_clip(ue_msh_import *im, const node_channels *nc, uint32_t frames) {
    ue_msh *m = im->m;
    size_t moving = 0;
    for (size_t k = 0; k < im->node_count; k++) moving += nc[k].move || nc[k].turn;
    ue_msh_key *pool = malloc((moving * ((size_t)frames + 1) + im->node_count) * sizeof *pool);
    const ue_msh_key **keys = malloc(im->node_count * sizeof *keys);
    size_t *counts = malloc(im->node_count * sizeof *counts);
    ue_result r = UE_ERR_NOMEM;
    if (pool && keys && counts) {
        size_t at = 0;
        for (size_t k = 0; k < im->node_count; k++) {
            keys[k] = pool + at;
            if (nc[k].move || nc[k].turn) {
                size_t cursor[2] = {0, 0};
                for (uint32_t f = 0; f <= frames; f++) pool[at + f] = sample(im, k, &nc[k], f, cursor);
                counts[k] = fold(pool + at, (size_t)frames + 1);
            } else {
                pool[at] = m->keys[m->nodes[k].fallback_key];
                counts[k] = 1;
            }
            at += counts[k];
        }
        r = fits_res8(im, keys, counts) ? ue_msh_set_all_tracks(m, keys, counts, im->c.d) : UE_ERR_LIMIT;
    }
    free(pool);
    free(keys);
    free(counts);
    return r;
}

static bool moves_a_node(const ue_scene_animation *an) {
    for (size_t c = 0; c < an->channel_count; c++) {
        ue_anim_target t = an->channels[c].target;
        if (t == UE_TARGET_TRANSLATION || t == UE_TARGET_ROTATION || t == UE_TARGET_SCALE) return true;
    }
    return false;
}

int32_t ue_msh_import_node_clip(const ue_scene *s, size_t *others) {
    int32_t first = -1;
    *others = 0;
    for (size_t k = 0; k < s->animation_count; k++)
        if (moves_a_node(&s->animations[k])) {
            if (first < 0) first = (int32_t)k;
            else ++*others;
        }
    return first;
}

ue_result ue_msh_import_animation(ue_msh_import *im) {
    const ue_scene *s = im->s;
    size_t others = 0;
    int32_t clip = ue_msh_import_node_clip(s, &others);
    if (clip < 0) return UE_OK;
    snprintf(im->clip_path, sizeof im->clip_path, "/animations/%d", (int)clip);
    if (others)
        ue_diag_add(im->c.d, UE_SEV_WARNING, "msh.import.clips", UE_NO_OFFSET, "/animations",
                    "%zu clips move nodes: MSH holds one, the first ('%s') is kept", others + 1,
                    s->animations[clip].name);
    node_channels *nc = calloc(im->node_count + 1, sizeof *nc);
    if (!nc) return UE_ERR_NOMEM;
    float last = collect(im, &s->animations[clip], nc);
    size_t moving = 0;
    for (size_t k = 0; k < im->node_count; k++) moving += nc[k].move || nc[k].turn;
    uint32_t frames = 0;
    ue_result r = UE_OK;
    if (moving && im->c.failure == UE_OK) {
        r = last_frame(im, last, moving, &frames);
        if (r == UE_OK) r = lay_out_clip(im, nc, frames);
        if (r == UE_ERR_LIMIT || r == UE_ERR_INVALID) ue_parse_fail(&im->c, r);
        if (r == UE_ERR_LIMIT || r == UE_ERR_INVALID) r = UE_OK;
    }
    free(nc);
    return r;
}
