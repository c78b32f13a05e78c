/* unearth — the MSH animation as a scene clip: per moving node, translation and rotation curves
 * that equal the engine's pose (ue_msh_sample_node) at every integer and half-integer frame, in
 * glTF axes (parkan_axes.c), keyed on the source keys when they reproduce it, else baked. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parkan/msh_anim.h"
#include "parkan/parkan_axes.h"

#define MATCH_EPS 1e-4f /* the promise of msh.h: within 1e-4 at integer and half-integer frames */

/* A node's curve in glTF axes: per key a frame time, a translation and a unit rotation. */
typedef struct curve {
    float *frames;
    float (*t)[3];
    float (*q)[4];
    size_t count;
} curve;

static void curve_free(curve *c) {
    free(c->frames);
    free(c->t);
    free(c->q);
    memset(c, 0, sizeof *c);
}

static bool curve_alloc(curve *c, size_t n) {
    c->frames = malloc(n * sizeof *c->frames);
    c->t = malloc(n * sizeof *c->t);
    c->q = malloc(n * sizeof *c->q);
    c->count = 0;
    return c->frames && c->t && c->q;
}

/* The engine pose in glTF axes with a unit quaternion (glTF requires one; all-zero = identity). */
static bool pose_to_gltf(const ue_msh_pose *p, float t[3], float q[4]) {
    float len = 0, unit[4] = {0, 0, 0, 1};
    for (int c = 0; c < 4; c++) len += p->rotation[c] * p->rotation[c];
    len = sqrtf(len);
    if (len > 0)
        for (int c = 0; c < 4; c++) unit[c] = p->rotation[c] / len;
    ue_parkan_vec_to_gltf(p->translation, t);
    ue_parkan_quat_to_gltf(unit, q);
    bool finite = isfinite(len);
    for (int c = 0; c < 3; c++) finite = finite && isfinite(t[c]);
    return finite;
}

/* Appends a key, turning its quaternion into the previous key's hemisphere (the same rotation)
 * so that interpolation takes the short way, as the engine's SLERP does. */
static void curve_push(curve *c, float frame, const float t[3], const float q[4]) {
    size_t i = c->count++;
    c->frames[i] = frame;
    memcpy(c->t[i], t, sizeof c->t[i]);
    float s = 1.0f;
    if (i > 0 && q[0] * c->q[i - 1][0] + q[1] * c->q[i - 1][1] + q[2] * c->q[i - 1][2] + q[3] * c->q[i - 1][3] < 0)
        s = -1.0f;
    for (int k = 0; k < 4; k++) c->q[i][k] = s * q[k];
}

/* glTF LINEAR sampling at `frame` (clamped at both ends); *cursor walks forward. */
static void curve_eval(const curve *c, float frame, size_t *cursor, float t[3], float q[4]) {
    size_t i = *cursor;
    while (i + 1 < c->count && c->frames[i + 1] <= frame) i++;
    *cursor = i;
    if (frame <= c->frames[0] || i + 1 >= c->count) {
        size_t k = frame <= c->frames[0] ? 0 : c->count - 1;
        memcpy(t, c->t[k], 3 * sizeof *t);
        memcpy(q, c->q[k], 4 * sizeof *q);
        return;
    }
    float a = (frame - c->frames[i]) / (c->frames[i + 1] - c->frames[i]);
    for (int k = 0; k < 3; k++) t[k] = c->t[i][k] + (c->t[i + 1][k] - c->t[i][k]) * a;
    ue_msh_anim_slerp(c->q[i], c->q[i + 1], a, q);
    float len = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int k = 0; k < 4; k++) q[k] /= len;
}

static bool close_pose(const float ta[3], const float qa[4], const float tb[3], const float qb[4]) {
    float dq_plus = 0, dq_minus = 0, dt = 0;
    for (int k = 0; k < 3; k++) dt = fmaxf(dt, fabsf(ta[k] - tb[k]));
    for (int k = 0; k < 4; k++) {
        dq_plus = fmaxf(dq_plus, fabsf(qa[k] - qb[k]));
        dq_minus = fmaxf(dq_minus, fabsf(qa[k] + qb[k]));
    }
    return dt <= MATCH_EPS && fminf(dq_plus, dq_minus) <= MATCH_EPS;
}

/* The frames checked: every half frame from 0 to F (F itself already gives the fallback key). */
static size_t checked_samples(const ue_msh *m) { return 2 * (size_t)m->frame_count + 1; }

static bool curve_matches_engine(const ue_msh *m, size_t node, const curve *c) {
    size_t cursor = 0;
    for (size_t h = 0; h < checked_samples(m); h++) {
        ue_msh_pose p;
        float et[3], eq[4], ct[3], cq[4];
        ue_msh_sample_node(m, node, (float)h * 0.5f, &p);
        if (!pose_to_gltf(&p, et, eq)) return false;
        curve_eval(c, (float)h * 0.5f, &cursor, ct, cq);
        if (!close_pose(et, eq, ct, cq)) return false;
    }
    return true;
}

/* The source keys a node's map reaches (the lowest mapped key up to the fallback), when their
 * times increase: the natural keying of a canonical track. */
static bool source_curve(const ue_msh *m, size_t node, curve *c) {
    const ue_msh_node *nd = &m->nodes[node];
    size_t lo = nd->fallback_key;
    for (uint32_t f = 0; f < m->frame_count; f++) {
        uint16_t k = m->frame_map[nd->anim_map_start + f];
        if (k < lo) lo = k;
    }
    if (!curve_alloc(c, (size_t)nd->fallback_key - lo + 1)) return false;
    for (size_t k = lo; k <= nd->fallback_key; k++) {
        ue_msh_pose p;
        float t[3], q[4];
        const ue_msh_key *key = &m->keys[k];
        if (!isfinite(key->time) || key->time < 0 || (k > lo && !(key->time > m->keys[k - 1].time))) return false;
        memcpy(p.translation, key->position, sizeof p.translation);
        for (int i = 0; i < 4; i++) p.rotation[i] = (float)key->quat[i] / 32767.0f;
        if (!pose_to_gltf(&p, t, q)) return false;
        curve_push(c, key->time, t, q);
    }
    return true;
}

/* Otherwise the engine itself, sampled at every half frame: UE_ERR_INVALID when a pose is not
 * finite. */
static ue_result baked_curve(const ue_msh *m, size_t node, curve *c) {
    if (!curve_alloc(c, checked_samples(m))) return UE_ERR_NOMEM;
    for (size_t h = 0; h < checked_samples(m); h++) {
        ue_msh_pose p;
        float t[3], q[4];
        ue_msh_sample_node(m, node, (float)h * 0.5f, &p);
        if (!pose_to_gltf(&p, t, q)) return UE_ERR_INVALID;
        curve_push(c, (float)h * 0.5f, t, q);
    }
    return UE_OK;
}

static bool varies(const curve *c, bool rotation) {
    for (size_t i = 1; i < c->count; i++)
        if (rotation ? memcmp(c->q[i], c->q[0], sizeof c->q[0]) : memcmp(c->t[i], c->t[0], sizeof c->t[0]))
            return true;
    return false;
}

static ue_source_id track_source(const ue_msh *m, size_t node) {
    ue_source_id id;
    memset(&id, 0, sizeof id);
    memcpy(id.format, "msh", 4);
    id.type = UE_MSH_FRAME_MAP;
    int32_t e = m->entry_of[UE_MSH_FRAME_MAP];
    id.offset = e < 0 ? UINT64_MAX
                      : m->container.entries[e].data_offset + 2 * (uint64_t)m->nodes[node].anim_map_start;
    id.index = (uint32_t)node;
    return id;
}

/* The clip of the model, made when its first channel is. */
static int32_t clip_for(const ue_msh *m, ue_scene *s, int32_t *clip, const char *name, float fps) {
    if (*clip >= 0) return *clip;
    *clip = ue_scene_add_animation(s, name && name[0] ? name : "animation");
    if (*clip < 0) return -1;
    ue_scene_animation *an = &s->animations[*clip];
    an->fps = fps;
    an->start_frame = 0;
    an->end_frame = (float)(m->frame_count - 1);
    memcpy(an->source.format, "msh", 4);
    an->source.type = UE_MSH_FRAME_MAP;
    int32_t e = m->entry_of[UE_MSH_FRAME_MAP];
    an->source.offset = e < 0 ? UINT64_MAX : m->container.entries[e].data_offset;
    return *clip;
}

static ue_result add_channels(const ue_msh *m, size_t node, const curve *c, int32_t target_node,
                              const char *name, float fps, int32_t *clip, ue_scene *s) {
    for (int rot = 0; rot < 2; rot++) {
        if (!varies(c, rot)) continue;
        if (clip_for(m, s, clip, name, fps) < 0) return UE_ERR_NOMEM;
        ue_anim_channel *ch = ue_scene_add_channel(s, *clip, rot ? UE_TARGET_ROTATION : UE_TARGET_TRANSLATION,
                                                   UE_INTERP_LINEAR, (uint32_t)c->count);
        if (!ch) return UE_ERR_NOMEM;
        ch->node = target_node;
        ch->source = track_source(m, node);
        for (size_t i = 0; i < c->count; i++) {
            ch->times[i] = c->frames[i] / fps;
            if (rot) memcpy(&ch->values[4 * i], c->q[i], 4 * sizeof(float));
            else memcpy(&ch->values[3 * i], c->t[i], 3 * sizeof(float));
        }
    }
    return UE_OK;
}

/* The node's curve: its source keys when they give the engine's pose, else the baked engine. */
static ue_result node_curve(const ue_msh *m, size_t node, curve *c) {
    if (source_curve(m, node, c) && c->count > 0 && curve_matches_engine(m, node, c)) return UE_OK;
    curve_free(c);
    return baked_curve(m, node, c);
}

/* A node moves only through a map block inside Res19 (elsewhere it holds its fallback key). */
static bool block_in_range(const ue_msh *m, size_t node) {
    const ue_msh_node *nd = &m->nodes[node];
    return nd->anim_map_start != UE_MSH_NONE && nd->fallback_key < m->key_count &&
           (uint64_t)nd->anim_map_start + m->frame_count <= m->frame_map_count;
}

ue_result ue_msh_anim_to_scene(const ue_msh *m, const int32_t *scene_node, const char *name, float fps,
                               ue_scene *s, ue_diag *d) {
    if (!ue_msh_is_animated(m) || !m->frame_map) return UE_OK;
    /* Work per node is linear in the frame count; overlapping blocks could multiply it, so the
     * total stays within a budget proportional to Res19 and Res8. */
    uint64_t budget = 2 * ((uint64_t)m->frame_map_count + m->key_count) + 64, spent = 0;
    int32_t clip = -1;
    ue_result r = UE_OK;
    for (size_t n = 0; n < m->node_count && r == UE_OK; n++) {
        if (!block_in_range(m, n)) continue;
        spent += m->frame_count;
        if (spent > budget) {
            ue_diag_add(d, UE_SEV_WARNING, "msh.anim.limit", UE_NO_OFFSET, "msh/res19",
                        "frame map blocks overlap: nodes from %zu on are exported without animation", n);
            break;
        }
        curve c = {0};
        r = node_curve(m, n, &c);
        if (r == UE_ERR_INVALID) {
            char path[48];
            snprintf(path, sizeof path, "msh/res1/node[%zu]", n);
            ue_diag_add(d, UE_SEV_WARNING, "msh.anim.nonfinite", UE_NO_OFFSET, path,
                        "the node's animated pose is not finite; exported without animation");
            r = UE_OK;
        } else if (r == UE_OK) {
            r = add_channels(m, n, &c, scene_node[n], name, fps, &clip, s);
        }
        curve_free(&c);
    }
    return r;
}
