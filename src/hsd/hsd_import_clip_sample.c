/* unearth — the sampling half of edit-mode clip import (docs/hsd-import.md#clips): glTF clips sampled per
 * frame on the base's joints, and each joint's TRS as HSD SRT with Euler ZYX angles kept continuous. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hsd/hsd_anim_eval.h"
#include "hsd/hsd_import_int.h"
#include "hsd/hsd_int.h"
#include "hsd/hsd_pose.h"
#include "hsd/hsd_to_scene.h"
#include "scene/scene_int.h" /* ue_anim_channel_interval */

#define FPS 60.0
#define SAME_CLIP_TOLERANCE 1e-4 /* a glTF clip this close to the base's bake at every frame is unedited */
#define PI 3.141592653589793
#define TWO_PI (2 * PI)

/* ---- quaternion → Euler ZYX with continuity --------------------------------------------------- */

static void quat_matrix(const double q[4], double r[9]) { /* row-major, q = (x, y, z, w) */
    double x = q[0], y = q[1], z = q[2], w = q[3], n = x * x + y * y + z * z + w * w;
    double s = n > 0 ? 2 / n : 0;
    r[0] = 1 - s * (y * y + z * z), r[1] = s * (x * y - z * w), r[2] = s * (x * z + y * w);
    r[3] = s * (x * y + z * w), r[4] = 1 - s * (x * x + z * z), r[5] = s * (y * z - x * w);
    r[6] = s * (x * z - y * w), r[7] = s * (y * z + x * w), r[8] = 1 - s * (x * x + y * y);
}

/* `a` plus the multiple of 2π that brings it nearest to `near`. */
static double unwrap(double a, double near) { return a + TWO_PI * nearbyint((near - a) / TWO_PI); }

static double distance3(const double a[3], const double b[3]) {
    return fabs(a[0] - b[0]) + fabs(a[1] - b[1]) + fabs(a[2] - b[2]);
}

/* R = Rz(c)·Ry(b)·Rx(a) (row-major) → (a, b, c) nearest to `near`: of the two solutions (a, b, c)
 * and (a + π, π − b, c + π), each angle unwrapped towards near's, the closer one; at gimbal lock
 * (cos b = 0) X keeps near's angle and Z takes the rest. */
void hsd_matrix_to_euler_near(const double r[9], const double near[3], double out[3]) {
    double sb = -r[6] > 1 ? 1 : -r[6] < -1 ? -1 : -r[6];
    double cb = hypot(r[7], r[8]);
    double sol[2][3];
    if (cb < 1e-9) {
        double a = near[0], b = sb > 0 ? PI / 2 : -PI / 2;
        double c = sb > 0 ? a - atan2(r[1], r[4]) : atan2(-r[1], r[4]) - a;
        sol[0][0] = sol[1][0] = a, sol[0][1] = sol[1][1] = b, sol[0][2] = sol[1][2] = c;
    } else {
        sol[0][0] = atan2(r[7], r[8]), sol[0][1] = atan2(sb, cb), sol[0][2] = atan2(r[3], r[0]);
        sol[1][0] = sol[0][0] + PI, sol[1][1] = PI - sol[0][1], sol[1][2] = sol[0][2] + PI;
    }
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < 3; k++) sol[s][k] = unwrap(sol[s][k], near[k]);
    memcpy(out, sol[distance3(sol[1], near) < distance3(sol[0], near) ? 1 : 0], 3 * sizeof *out);
}

void hsd_quat_to_euler_near(const double q[4], const double near[3], double out[3]) {
    double r[9];
    quat_matrix(q, r);
    hsd_matrix_to_euler_near(r, near, out);
}

/* ---- sampling glTF clips ---------------------------------------------------------------------- */

void hsd_joint_map_free(hsd_joint_map *j) {
    free(j->ref_node), free(j->gltf_node), free(j->ref_joint), free(j->gltf_joint);
}

/* The map's rows for `joints` joints, `nodes` glTF and `ref_nodes` reference nodes, joints unmapped. */
ue_result hsd_joint_map_alloc(hsd_joint_map *jm, size_t joints, size_t nodes, size_t ref_nodes) {
    jm->ref_node = malloc((joints + 1) * sizeof(int32_t)), jm->gltf_node = malloc((joints + 1) * sizeof(int32_t));
    jm->ref_joint = malloc((ref_nodes + 1) * sizeof(int32_t)), jm->gltf_joint = malloc((nodes + 1) * sizeof(int32_t));
    if (!jm->ref_node || !jm->gltf_node || !jm->ref_joint || !jm->gltf_joint) return UE_ERR_NOMEM;
    for (size_t j = 0; j <= joints; j++) jm->ref_node[j] = jm->gltf_node[j] = -1;
    return UE_OK;
}

ue_result hsd_map_joints(const ue_hsd_model *m, const ue_scene *s, const ue_scene *ref, hsd_joint_map *jm) {
    if (hsd_joint_map_alloc(jm, m->joint_count, s->node_count, ref->node_count) != UE_OK) return UE_ERR_NOMEM;
    for (size_t i = 0; i < ref->node_count; i++) {
        const ue_scene_node *rn = &ref->nodes[i];
        bool joint = rn->mesh < 0 && rn->source.type == HSD_KIND_JOBJ && rn->source.index < m->joint_count &&
                     !strcmp(rn->source.format, "hsd");
        jm->ref_joint[i] = joint ? (int32_t)rn->source.index : -1;
        if (joint && jm->ref_node[rn->source.index] < 0) jm->ref_node[rn->source.index] = (int32_t)i;
    }
    for (size_t i = 0; i < s->node_count; i++) {
        jm->gltf_joint[i] = -1;
        if (s->nodes[i].mesh >= 0) continue;
        for (size_t j = 0; j < m->joint_count && jm->gltf_joint[i] < 0; j++)
            if (jm->ref_node[j] >= 0 && jm->gltf_node[j] < 0 && hsd_names_match(s->nodes[i].name, ref->nodes[jm->ref_node[j]].name))
                jm->gltf_joint[i] = (int32_t)j, jm->gltf_node[j] = (int32_t)i;
    }
    return UE_OK;
}

/* A LINEAR rotation channel at time t as Blender plays it: the keys' components interpolated
 * (the short way) and the result made unit length, where glTF slerps. Held outside the keys. */
static void rotation_nlerp(const ue_anim_channel *ch, double t, double *q) {
    uint32_t k;
    double u, dot = 0, len = 0;
    ue_anim_channel_interval(ch, t, &k, &u); /* log(keys): it runs at every key time of a compared clip */
    const float *a = &ch->values[4 * (size_t)k], *b = k + 1 < ch->key_count ? a + 4 : a;
    for (int i = 0; i < 4; i++) dot += (double)a[i] * b[i];
    for (int i = 0; i < 4; i++) q[i] = a[i] + u * ((dot < 0 ? -b[i] : b[i]) - a[i]), len += q[i] * q[i];
    len = sqrt(len);
    for (int i = 0; i < 4; i++) q[i] = len > 0 ? q[i] / len : (i == 3);
}

/* The glTF's joints, and the base's export's. */
hsd_pose_source hsd_gltf_poses(const ue_hsd_model *m, const ue_scene *s, const ue_scene *ref, const hsd_joint_map *jm) {
    return (hsd_pose_source){s, jm->gltf_node, jm->gltf_joint, ref, jm->ref_node, m->joint_count};
}

hsd_pose_source hsd_base_poses(const ue_hsd_model *m, const ue_scene *ref, const hsd_joint_map *jm) {
    return (hsd_pose_source){ref, jm->ref_node, jm->ref_joint, ref, jm->ref_node, m->joint_count};
}

/* Every joint's TRS (t[3] q[4] s[3]) at time t: its node's rest, then the animation's channels
 * (LINEAR rotations slerped, or with `nlerp` as rotation_nlerp plays them). */
void hsd_sample_pose_as(const hsd_pose_source *ps, const ue_scene_animation *an, double t, bool nlerp, double *trs) {
    const ue_scene *sc = ps->scene;
    for (size_t j = 0; j < ps->joints; j++) {
        const ue_scene_node *n = ps->joint_node[j] >= 0 ? &sc->nodes[ps->joint_node[j]]
                                 : ps->fallback_node[j] >= 0 ? &ps->fallback->nodes[ps->fallback_node[j]] : NULL;
        double *o = &trs[10 * j];
        for (int k = 0; k < 3; k++) o[k] = n ? n->translation[k] : 0, o[7 + k] = n ? n->scale[k] : 1;
        for (int k = 0; k < 4; k++) o[3 + k] = n ? n->rotation[k] : (k == 3);
    }
    for (size_t c = 0; an && c < an->channel_count; c++) {
        const ue_anim_channel *ch = &an->channels[c];
        if (ch->node < 0 || (size_t)ch->node >= sc->node_count || ps->node_joint[ch->node] < 0) continue;
        double *o = &trs[10 * (size_t)ps->node_joint[ch->node]];
        if (ch->target == UE_TARGET_TRANSLATION) ue_anim_channel_sample(ch, t, o);
        else if (ch->target == UE_TARGET_ROTATION && nlerp && ch->interpolation == UE_INTERP_LINEAR && ch->key_count)
            rotation_nlerp(ch, t, o + 3);
        else if (ch->target == UE_TARGET_ROTATION) ue_anim_channel_sample(ch, t, o + 3);
        else if (ch->target == UE_TARGET_SCALE) ue_anim_channel_sample(ch, t, o + 7);
    }
}

void hsd_sample_pose(const hsd_pose_source *ps, const ue_scene_animation *an, double t, double *trs) {
    hsd_sample_pose_as(ps, an, t, false, trs);
}

/* The clip's end frame: its last key over every channel that moves a joint. */
double hsd_clip_end(const ue_scene_animation *an, const int32_t *node_joint, size_t node_count) {
    double end = 0;
    for (size_t c = 0; c < an->channel_count; c++) {
        const ue_anim_channel *ch = &an->channels[c];
        if (ch->node < 0 || (size_t)ch->node >= node_count || node_joint[ch->node] < 0 || !ch->key_count) continue;
        double last = (double)ch->times[ch->key_count - 1] * FPS;
        if (isfinite(last) && last > end) end = last;
    }
    return end;
}

bool hsd_moves_joints(const ue_scene_animation *an, const int32_t *node_joint, size_t node_count) {
    for (size_t c = 0; c < an->channel_count; c++) {
        const ue_anim_channel *ch = &an->channels[c];
        if (ch->node >= 0 && (size_t)ch->node < node_count && node_joint[ch->node] >= 0 &&
            (ch->target == UE_TARGET_TRANSLATION || ch->target == UE_TARGET_ROTATION || ch->target == UE_TARGET_SCALE))
            return true;
    }
    return false;
}

bool hsd_clip_close(double a, double b) { return fabs(a - b) <= SAME_CLIP_TOLERANCE * fmax(1.0, fabs(b)); }

bool hsd_same_trs(const double *a, const double *b) {
    bool q_same = true, q_opposite = true;
    for (int k = 0; k < 4; k++) q_same &= hsd_clip_close(a[3 + k], b[3 + k]), q_opposite &= hsd_clip_close(a[3 + k], -b[3 + k]);
    for (int k = 0; k < 3; k++)
        if (!hsd_clip_close(a[k], b[k]) || !hsd_clip_close(a[7 + k], b[7 + k])) return false;
    return q_same || q_opposite;
}

/* Each joint's world matrix along the base's joint tree from sampled TRS (the nodes above the
 * root joint left out: a client may add an armature node there). */
void hsd_joint_worlds(const ue_hsd_model *m, const double *trs, double *world) {
    for (size_t j = 0; j < m->joint_count; j++) {
        const double *o = &trs[10 * j];
        double r[9], local[16];
        quat_matrix(o + 3, r);
        hsd_mat_identity(local);
        for (int i = 0; i < 3; i++) {
            for (int k = 0; k < 3; k++) local[k * 4 + i] = r[3 * i + k] * o[7 + k];
            local[12 + i] = o[i];
        }
        int32_t parent = m->joints[j].parent;
        if (parent >= 0 && (size_t)parent < j) hsd_mat_mul(&world[16 * (size_t)parent], local, &world[16 * j]);
        else memcpy(&world[16 * j], local, sizeof local);
    }
}

/* Each joint's motion from its rest, world(t) · world(rest)⁻¹ (what skinning applies; rest_inv holds
 * the inverted rest worlds, scales left out: hsd_rest_inverses): a client that re-expresses joints
 * (Blender turns its bones and drops their rest scales) keeps it. */
void hsd_joint_motion(const ue_hsd_model *m, const double *trs, const double *rest_inv, double *world, double *out) {
    hsd_joint_worlds(m, trs, world);
    for (size_t j = 0; j < m->joint_count; j++) hsd_mat_mul(&world[16 * j], &rest_inv[16 * j], &out[16 * j]);
}

/* The inverted rest worlds composed of translations and rotations only (each rest scale set to 1 in
 * trs): Blender builds its bones so and moves the rest scales into the vertices and the clip's
 * poses, so a clip it re-exports moves each joint as the base's does from that rest (the mesh is
 * compared in the same frames: hsd_import_match.c). */
bool hsd_rest_inverses(const ue_hsd_model *m, double *trs, double *world, double *inv) {
    for (size_t j = 0; j < m->joint_count; j++) trs[10 * j + 7] = trs[10 * j + 8] = trs[10 * j + 9] = 1;
    hsd_joint_worlds(m, trs, world);
    for (size_t j = 0; j < m->joint_count; j++)
        if (!hsd_mat_invert(&world[16 * j], &inv[16 * j])) return false;
    return true;
}

bool hsd_same_motion(const ue_hsd_model *m, const double *a, const double *b) {
    for (size_t j = 0; j < m->joint_count; j++)
        for (int c = 0; c < 4; c++)
            for (int i = 0; i < 3; i++)
                if (!hsd_clip_close(a[16 * j + 4 * (size_t)c + (size_t)i], b[16 * j + 4 * (size_t)c + (size_t)i])) return false;
    return true;
}

/* ---- glTF TRS → HSD SRT ----------------------------------------------------------------------- */

/* One joint's SRT (rx ry rz tx ty tz sx sy sz, the track types' order) whose local matrix
 * (docs/formats/hsd-model.md#joint-matrices) is the glTF node's T·R·S: with a uniform or no parent
 * scale that is the glTF's own translation and scale and R's Euler angles; under a non-uniform
 * parent scale P the joint's R·S is P·(R_q·S)·P⁻¹, its scale the column lengths. */
static void trs_to_srt(const double *trs, const double *p, const double near[3], double srt[9]) {
    double r[9], s[3] = {trs[7], trs[8], trs[9]};
    quat_matrix(trs + 3, r);
    if (hsd_joint_compensates(p)) {
        double a[9], det;
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++) a[3 * i + k] = r[3 * i + k] * s[k] * p[i] / p[k];
        for (int k = 0; k < 3; k++) s[k] = sqrt(a[k] * a[k] + a[3 + k] * a[3 + k] + a[6 + k] * a[6 + k]);
        det = a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6]) + a[2] * (a[3] * a[7] - a[4] * a[6]);
        if (det < 0) s[0] = -s[0];
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++) r[3 * i + k] = s[k] != 0 ? a[3 * i + k] / s[k] : (i == k);
    }
    hsd_matrix_to_euler_near(r, near, srt);
    for (int k = 0; k < 3; k++) srt[3 + k] = trs[k], srt[6 + k] = s[k];
}

/* Under a non-uniform parent scale the glTF's TRS is convert's decomposition of P⁻¹·R·S·P, which
 * may shear: the SRT whose local matrix convert decomposes into that TRS is found by correcting the
 * first guess with what convert's own decomposition (hsd_local_to_trs_unchecked) makes of it, a few
 * rounds until it gives the glTF's values back to float noise. */
static void solve_srt(const double *trs, const double *p, bool classical, const double near[3], double srt[9]) {
    double first[9];
    trs_to_srt(trs, p, near, first);
    memcpy(srt, first, sizeof first);
    if (!hsd_joint_compensates(p)) return;
    for (int round = 0; round < 12; round++) {
        float rot[3], scale[3], trans[3], t[3], q[4], s[3];
        for (int k = 0; k < 3; k++) rot[k] = (float)srt[k], trans[k] = (float)srt[3 + k], scale[k] = (float)srt[6 + k];
        double local[16], scl[3];
        bool has_scl;
        hsd_joint_local(rot, scale, trans, classical, p, local, scl, &has_scl);
        hsd_local_to_trs_unchecked(local, t, q, s);
        double made[10], again[9], worst = 0;
        for (int k = 0; k < 3; k++) made[k] = t[k], made[7 + k] = s[k];
        for (int k = 0; k < 4; k++) made[3 + k] = q[k];
        trs_to_srt(made, p, srt, again);
        for (int k = 0; k < 9; k++) {
            double step = first[k] - again[k];
            srt[k] += step;
            worst = fmax(worst, fabs(step) / fmax(1.0, fabs(srt[k])));
        }
        if (!(worst > 1e-7)) break;
    }
}

/* Whether joint j scales classically in clip `clip` (its AnimJoint flags bit 0, else its own flag). */
static bool joint_classical(const ue_hsd_model *m, int32_t clip, size_t j) {
    if (clip >= 0) {
        const ue_hsd_clip *c = &m->anims.clips[clip];
        for (uint32_t k = 0; k < c->target_count; k++) {
            const ue_hsd_anim_target *t = &m->anims.targets[c->first_target + k];
            if (t->joint == (int32_t)j && t->kind == UE_HSD_ANIM_JOINT && (t->flags & 1u)) return true;
        }
    }
    return (m->joints[j].flags & UE_JOBJ_CLASSICAL_SCALE) != 0;
}

void hsd_reexpression_free(hsd_reexpression *x) {
    free(x->gltf_rest_inv), free(x->base_rest), free(x->world), free(x->motion);
    memset(x, 0, sizeof *x);
}

ue_result hsd_reexpression_init(const ue_hsd_model *m, const ue_scene *s, const ue_scene *ref, const hsd_joint_map *jm,
                                hsd_reexpression *x) {
    size_t n = m->joint_count + 1;
    double *trs = malloc(n * 10 * sizeof *trs), *inv = malloc(n * 16 * sizeof *inv);
    x->gltf_rest_inv = malloc(n * 16 * sizeof(double)), x->base_rest = malloc(n * 16 * sizeof(double));
    x->world = malloc(n * 16 * sizeof(double)), x->motion = malloc(n * 16 * sizeof(double));
    ue_result r = trs && inv && x->gltf_rest_inv && x->base_rest && x->world && x->motion ? UE_OK : UE_ERR_NOMEM;
    if (r == UE_OK) {
        hsd_pose_source g = hsd_gltf_poses(m, s, ref, jm), b = hsd_base_poses(m, ref, jm);
        hsd_sample_pose(&g, NULL, 0, trs);
        if (!hsd_rest_inverses(m, trs, x->world, x->gltf_rest_inv)) r = UE_ERR_INVALID;
        hsd_sample_pose(&b, NULL, 0, trs);
        if (r == UE_OK && !hsd_rest_inverses(m, trs, x->base_rest, inv)) r = UE_ERR_INVALID;
    }
    free(trs), free(inv);
    return r;
}

/* A pose of a client that re-expressed the skeleton (Blender: other bone axes, no rest scales) in
 * the base's joint frames: each joint moves from the base's rest as the glTF's moves from its own
 * (world(t) = motion(t) · base rest, rests without scale, as unedited() compares), and its local
 * matrix under its parent's world is decomposed as convert decomposes the base's joints. */
bool hsd_to_base_frames(const ue_hsd_model *m, const hsd_reexpression *x, double *trs) {
    hsd_joint_motion(m, trs, x->gltf_rest_inv, x->world, x->motion);
    for (size_t j = 0; j < m->joint_count; j++) hsd_mat_mul(&x->motion[16 * j], &x->base_rest[16 * j], &x->world[16 * j]);
    for (size_t j = 0; j < m->joint_count; j++) {
        int32_t parent = m->joints[j].parent;
        double local[16], parent_inv[16];
        if (parent >= 0 && (size_t)parent < j) {
            if (!hsd_mat_invert(&x->world[16 * (size_t)parent], parent_inv)) return false;
            hsd_mat_mul(parent_inv, &x->world[16 * j], local);
        } else memcpy(local, &x->world[16 * j], sizeof local);
        float t[3], q[4], sc[3];
        hsd_local_to_trs_unchecked(local, t, q, sc);
        for (int k = 0; k < 3; k++) trs[10 * j + (size_t)k] = t[k], trs[10 * j + 7 + (size_t)k] = sc[k];
        for (int k = 0; k < 4; k++) trs[10 * j + 3 + (size_t)k] = q[k];
    }
    return true;
}

/* Whether a scale channel keeps its node at the node's rest scale at every key (Blender's exporter
 * keys every bone, those the action leaves alone at their rest); a cubic one with flat tangents. */
static bool scale_stays_at_rest(const ue_anim_channel *ch, const float rest[3]) {
    bool cubic = ch->interpolation == UE_INTERP_CUBIC;
    size_t per_key = cubic ? 9 : 3;
    for (size_t i = 0; i < (size_t)ch->key_count * per_key; i++) {
        size_t in_key = i % per_key;
        bool tangent = cubic && (in_key < 3 || in_key >= 6);
        if (!hsd_clip_close(ch->values[i], tangent ? 0 : rest[in_key % 3])) return false;
    }
    return true;
}

/* Per joint: whether the animation keys its scale away from the glTF's rest (marks `keyed`). */
static void scales_keyed(const ue_scene_animation *an, const ue_scene *s, const hsd_joint_map *jm, size_t joints,
                         bool *keyed) {
    memset(keyed, 0, (joints + 1) * sizeof *keyed);
    for (size_t c = 0; c < an->channel_count; c++) {
        const ue_anim_channel *ch = &an->channels[c];
        if (ch->target == UE_TARGET_SCALE && ch->node >= 0 && (size_t)ch->node < s->node_count &&
            jm->gltf_joint[ch->node] >= 0 && !scale_stays_at_rest(ch, s->nodes[ch->node].scale))
            keyed[jm->gltf_joint[ch->node]] = true;
    }
}

/* A re-expressed pose's joints whose scale the clip does not key (or keys at the glTF's rest only)
 * hold the base's rest scale (a client's rest scale, 1 for Blender's bones, is no edit that edit
 * mode writes: the creature's head stays 1.5 × 1 × 0.8 through a clip made in Blender). */
static void hold_base_scales(const ue_scene *ref, const hsd_joint_map *jm, const bool *keyed, size_t joints, double *trs) {
    for (size_t j = 0; j < joints; j++)
        for (int k = 0; !keyed[j] && jm->ref_node[j] >= 0 && k < 3; k++)
            trs[10 * j + 7 + (size_t)k] = ref->nodes[jm->ref_node[j]].scale[k];
}

/* The glTF clip of edit e in HSD terms at every frame: (*out)[(j · 9 + component) · frames + frame],
 * malloc'd (also on failure: the caller frees it). */
ue_result hsd_clip_srt(const struct hsd_clip_source *src, const hsd_reexpression *reexpressed, const hsd_clip_edit *e,
                       float **out) {
    const ue_hsd_model *m = src->m;
    const ue_scene *s = src->s, *ref = src->ref;
    const hsd_joint_map *jm = &src->jm;
    const ue_scene_animation *an = &s->animations[e->anim];
    size_t n = m->joint_count;
    double *trs = malloc((n + 1) * 10 * sizeof *trs), *scl = malloc((n + 1) * 3 * sizeof *scl);
    double *prev = malloc((n + 1) * 3 * sizeof *prev);
    bool *has_scl = malloc((n + 1) * sizeof *has_scl), *keyed = malloc((n + 1) * sizeof *keyed);
    float *samples = *out = malloc(((size_t)n * 9 * e->frames + 1) * sizeof *samples);
    ue_result r = trs && scl && prev && has_scl && keyed && samples ? UE_OK : UE_ERR_NOMEM;
    if (r == UE_OK) scales_keyed(an, s, jm, n, keyed);
    for (size_t j = 0; j < n && r == UE_OK; j++)
        for (int k = 0; k < 3; k++) prev[3 * j + k] = m->joints[j].rotation[k];
    hsd_pose_source g = hsd_gltf_poses(m, s, ref, jm);
    for (uint32_t f = 0; f < e->frames && r == UE_OK; f++) {
        double t = fmin((double)f, e->end_frame) / FPS;
        hsd_sample_pose(&g, an, t, trs);
        if (reexpressed && !hsd_to_base_frames(m, reexpressed, trs)) {
            r = UE_ERR_INVALID;
            break;
        }
        if (reexpressed) hold_base_scales(ref, jm, keyed, n, trs);
        for (size_t j = 0; j < n; j++) {
            int32_t parent = m->joints[j].parent;
            const double *p = parent >= 0 && (size_t)parent < j && has_scl[parent] ? &scl[3 * (size_t)parent] : NULL;
            double srt[9];
            bool classical = joint_classical(m, e->clip, j);
            solve_srt(&trs[10 * j], p, classical, &prev[3 * j], srt);
            memcpy(&prev[3 * j], srt, 3 * sizeof *srt);
            for (int c = 0; c < 9; c++) samples[((size_t)j * 9 + (size_t)c) * e->frames + f] = (float)srt[c];
            float sf[3] = {(float)srt[6], (float)srt[7], (float)srt[8]};
            hsd_joint_scl(sf, classical, p, &scl[3 * j], &has_scl[j]);
        }
    }
    free(trs), free(scl), free(prev), free(has_scl), free(keyed);
    return r;
}
