/* unearth — edit-mode import of HSD clips (docs/hsd-import.md#clips): a glTF animation on the skeleton
 * that differs from the base's own bake becomes AnimJoint tracks (Euler ZYX, keys at 60 fps, bounded error). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
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
#define MAX_SPAN 120u            /* frames one key segment may cover: bounds the fit's work */
#define MAX_CLIP_FRAMES 100000u  /* about 28 minutes at 60 fps */
#define MAX_SCENE_SAMPLES 4194304.0  /* (joints + channels + 1) × frames, summed over a scene's clips */
#define MAX_COMPARE_WORK 1073741824.0 /* keys × (joints + channels) of the unedited tests, summed likewise */
#define PI 3.141592653589793
#define TWO_PI (2 * PI)

/* The error every written component keeps at every frame (radians for rotations). */
double hsd_clip_error_bound(double v) { return HSD_CLIP_ERROR * (fabs(v) > 1 ? fabs(v) : 1); }

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

/* The base's joint nodes and the glTF's nodes that stand for them (by name, as meshes are). */
typedef struct joint_map {
    int32_t *ref_node;   /* per joint: its node in the base's export, or -1 */
    int32_t *gltf_node;  /* per joint: the glTF node of that name, or -1 */
    int32_t *ref_joint;  /* per ref node: its joint, or -1 */
    int32_t *gltf_joint; /* per glTF node: its joint, or -1 */
} joint_map;

static void map_free(joint_map *j) {
    free(j->ref_node), free(j->gltf_node), free(j->ref_joint), free(j->gltf_joint);
}

/* What a plan's curves are sampled from: kept with the plan, so the check of the written DAT samples
 * each clip again instead of keeping every clip's samples. */
struct hsd_clip_source {
    const ue_hsd_model *m;
    const ue_scene *s, *ref;
    joint_map jm;
};

/* The map's rows for `joints` joints, `nodes` glTF and `ref_nodes` reference nodes, joints unmapped. */
static ue_result map_alloc(joint_map *jm, size_t joints, size_t nodes, size_t ref_nodes) {
    jm->ref_node = malloc((joints + 1) * sizeof(int32_t)), jm->gltf_node = malloc((joints + 1) * sizeof(int32_t));
    jm->ref_joint = malloc((ref_nodes + 1) * sizeof(int32_t)), jm->gltf_joint = malloc((nodes + 1) * sizeof(int32_t));
    if (!jm->ref_node || !jm->gltf_node || !jm->ref_joint || !jm->gltf_joint) return UE_ERR_NOMEM;
    for (size_t j = 0; j <= joints; j++) jm->ref_node[j] = jm->gltf_node[j] = -1;
    return UE_OK;
}

static ue_result map_joints(const ue_hsd_model *m, const ue_scene *s, const ue_scene *ref, joint_map *jm) {
    if (map_alloc(jm, m->joint_count, s->node_count, ref->node_count) != UE_OK) return UE_ERR_NOMEM;
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

/* Where joints' poses are sampled: a scene with its joint → node and node → joint maps, and the
 * base's export, whose node gives the rest of a joint the scene has no node for. */
typedef struct pose_source {
    const ue_scene *scene;
    const int32_t *joint_node, *node_joint;
    const ue_scene *fallback;
    const int32_t *fallback_node;
    size_t joints;
} pose_source;

/* The glTF's joints, and the base's export's. */
static pose_source gltf_poses(const ue_hsd_model *m, const ue_scene *s, const ue_scene *ref, const joint_map *jm) {
    return (pose_source){s, jm->gltf_node, jm->gltf_joint, ref, jm->ref_node, m->joint_count};
}

static pose_source base_poses(const ue_hsd_model *m, const ue_scene *ref, const joint_map *jm) {
    return (pose_source){ref, jm->ref_node, jm->ref_joint, ref, jm->ref_node, m->joint_count};
}

/* Every joint's TRS (t[3] q[4] s[3]) at time t: its node's rest, then the animation's channels
 * (LINEAR rotations slerped, or with `nlerp` as rotation_nlerp plays them). */
static void sample_pose_as(const pose_source *ps, const ue_scene_animation *an, double t, bool nlerp, double *trs) {
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

static void sample_pose(const pose_source *ps, const ue_scene_animation *an, double t, double *trs) {
    sample_pose_as(ps, an, t, false, trs);
}

/* The clip's end frame: its last key over every channel that moves a joint. */
static double clip_end(const ue_scene_animation *an, const int32_t *node_joint, size_t node_count) {
    double end = 0;
    for (size_t c = 0; c < an->channel_count; c++) {
        const ue_anim_channel *ch = &an->channels[c];
        if (ch->node < 0 || (size_t)ch->node >= node_count || node_joint[ch->node] < 0 || !ch->key_count) continue;
        double last = (double)ch->times[ch->key_count - 1] * FPS;
        if (isfinite(last) && last > end) end = last;
    }
    return end;
}

static bool moves_joints(const ue_scene_animation *an, const int32_t *node_joint, size_t node_count) {
    for (size_t c = 0; c < an->channel_count; c++) {
        const ue_anim_channel *ch = &an->channels[c];
        if (ch->node >= 0 && (size_t)ch->node < node_count && node_joint[ch->node] >= 0 &&
            (ch->target == UE_TARGET_TRANSLATION || ch->target == UE_TARGET_ROTATION || ch->target == UE_TARGET_SCALE))
            return true;
    }
    return false;
}

static bool close(double a, double b) { return fabs(a - b) <= SAME_CLIP_TOLERANCE * fmax(1.0, fabs(b)); }

static bool same_trs(const double *a, const double *b) {
    bool q_same = true, q_opposite = true;
    for (int k = 0; k < 4; k++) q_same &= close(a[3 + k], b[3 + k]), q_opposite &= close(a[3 + k], -b[3 + k]);
    for (int k = 0; k < 3; k++)
        if (!close(a[k], b[k]) || !close(a[7 + k], b[7 + k])) return false;
    return q_same || q_opposite;
}

/* Each joint's world matrix along the base's joint tree from sampled TRS (the nodes above the
 * root joint left out: a client may add an armature node there). */
static void joint_worlds(const ue_hsd_model *m, const double *trs, double *world) {
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
 * the inverted rest worlds, scales left out: rest_inverses): a client that re-expresses joints
 * (Blender turns its bones and drops their rest scales) keeps it. */
static void joint_motion(const ue_hsd_model *m, const double *trs, const double *rest_inv, double *world, double *out) {
    joint_worlds(m, trs, world);
    for (size_t j = 0; j < m->joint_count; j++) hsd_mat_mul(&world[16 * j], &rest_inv[16 * j], &out[16 * j]);
}

/* The inverted rest worlds composed of translations and rotations only (each rest scale set to 1 in
 * trs): Blender builds its bones so and moves the rest scales into the vertices and the clip's
 * poses, so a clip it re-exports moves each joint as the base's does from that rest (the mesh is
 * compared in the same frames: hsd_import_match.c). */
static bool rest_inverses(const ue_hsd_model *m, double *trs, double *world, double *inv) {
    for (size_t j = 0; j < m->joint_count; j++) trs[10 * j + 7] = trs[10 * j + 8] = trs[10 * j + 9] = 1;
    joint_worlds(m, trs, world);
    for (size_t j = 0; j < m->joint_count; j++)
        if (!hsd_mat_invert(&world[16 * j], &inv[16 * j])) return false;
    return true;
}

static bool same_motion(const ue_hsd_model *m, const double *a, const double *b) {
    for (size_t j = 0; j < m->joint_count; j++)
        for (int c = 0; c < 4; c++)
            for (int i = 0; i < 3; i++)
                if (!close(a[16 * j + 4 * (size_t)c + (size_t)i], b[16 * j + 4 * (size_t)c + (size_t)i])) return false;
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

/* The rest worlds a re-expressed glTF clip is read against: the glTF's inverted and the base's own,
 * both of translations and rotations only (rest_inverses). */
typedef struct reexpression {
    double *gltf_rest_inv, *base_rest, *world, *motion;
} reexpression;

static void reexpression_free(reexpression *x) {
    free(x->gltf_rest_inv), free(x->base_rest), free(x->world), free(x->motion);
    memset(x, 0, sizeof *x);
}

static ue_result reexpression_init(const ue_hsd_model *m, const ue_scene *s, const ue_scene *ref, const joint_map *jm,
                                   reexpression *x) {
    size_t n = m->joint_count + 1;
    double *trs = malloc(n * 10 * sizeof *trs), *inv = malloc(n * 16 * sizeof *inv);
    x->gltf_rest_inv = malloc(n * 16 * sizeof(double)), x->base_rest = malloc(n * 16 * sizeof(double));
    x->world = malloc(n * 16 * sizeof(double)), x->motion = malloc(n * 16 * sizeof(double));
    ue_result r = trs && inv && x->gltf_rest_inv && x->base_rest && x->world && x->motion ? UE_OK : UE_ERR_NOMEM;
    if (r == UE_OK) {
        pose_source g = gltf_poses(m, s, ref, jm), b = base_poses(m, ref, jm);
        sample_pose(&g, NULL, 0, trs);
        if (!rest_inverses(m, trs, x->world, x->gltf_rest_inv)) r = UE_ERR_INVALID;
        sample_pose(&b, NULL, 0, trs);
        if (r == UE_OK && !rest_inverses(m, trs, x->base_rest, inv)) r = UE_ERR_INVALID;
    }
    free(trs), free(inv);
    return r;
}

/* A pose of a client that re-expressed the skeleton (Blender: other bone axes, no rest scales) in
 * the base's joint frames: each joint moves from the base's rest as the glTF's moves from its own
 * (world(t) = motion(t) · base rest, rests without scale, as unedited() compares), and its local
 * matrix under its parent's world is decomposed as convert decomposes the base's joints. */
static bool to_base_frames(const ue_hsd_model *m, const reexpression *x, double *trs) {
    joint_motion(m, trs, x->gltf_rest_inv, x->world, x->motion);
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
        if (!close(ch->values[i], tangent ? 0 : rest[in_key % 3])) return false;
    }
    return true;
}

/* Per joint: whether the animation keys its scale away from the glTF's rest (marks `keyed`). */
static void scales_keyed(const ue_scene_animation *an, const ue_scene *s, const joint_map *jm, size_t joints,
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
static void hold_base_scales(const ue_scene *ref, const joint_map *jm, const bool *keyed, size_t joints, double *trs) {
    for (size_t j = 0; j < joints; j++)
        for (int k = 0; !keyed[j] && jm->ref_node[j] >= 0 && k < 3; k++)
            trs[10 * j + 7 + (size_t)k] = ref->nodes[jm->ref_node[j]].scale[k];
}

/* The glTF clip of edit e in HSD terms at every frame: (*out)[(j · 9 + component) · frames + frame],
 * malloc'd (also on failure: the caller frees it). */
static ue_result clip_srt(const struct hsd_clip_source *src, const reexpression *reexpressed, const hsd_clip_edit *e,
                          float **out) {
    const ue_hsd_model *m = src->m;
    const ue_scene *s = src->s, *ref = src->ref;
    const joint_map *jm = &src->jm;
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
    pose_source g = gltf_poses(m, s, ref, jm);
    for (uint32_t f = 0; f < e->frames && r == UE_OK; f++) {
        double t = fmin((double)f, e->end_frame) / FPS;
        sample_pose(&g, an, t, trs);
        if (reexpressed && !to_base_frames(m, reexpressed, trs)) {
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

/* ---- key fitting ------------------------------------------------------------------------------ */

/* The runtime's Hermite (hsd_keys_eval.c) from frame a to b with per-frame slopes da, db. */
static double hermite(double pa, double pb, double da, double db, double t, double span) {
    double u = t / span, u2 = u * u, u3 = u2 * u;
    return pa * (2 * u3 - 3 * u2 + 1) + pb * (-2 * u3 + 3 * u2) + span * da * (u3 - 2 * u2 + u) + span * db * (u3 - u2);
}

static bool span_fits(const float *v, const float *slope, uint32_t a, uint32_t b, bool spline) {
    double span = (double)(b - a);
    for (uint32_t k = a + 1; k < b; k++) {
        double t = (double)(k - a);
        double y = spline ? hermite(v[a], v[b], slope[a], slope[b], t, span) : v[a] + ((double)v[b] - v[a]) * (t / span);
        if (!(fabs(y - v[k]) <= hsd_clip_error_bound(v[k]))) return false;
    }
    return true;
}

static bool put_key(ue_hsd_key **keys, size_t *count, uint8_t op, float value, float slope, uint32_t wait) {
    ue_hsd_key *grown = realloc(*keys, (*count + 1) * sizeof **keys);
    if (!grown) return false;
    *keys = grown;
    grown[(*count)++] = (ue_hsd_key){op, 0, value, slope, wait};
    return true;
}

/* Keys for samples v[0 … n−1] (one per frame): greedy segments from each key, as long as a straight
 * line or a Hermite with central-difference slopes reproduces every frame within the bound (the
 * longer wins, a line on ties). A Hermite segment's end key carries its slope: SPL when the next
 * segment is a Hermite too (or it is the last key), else an SLP entry before a LIN key. */
ue_result hsd_fit_keys(const float *v, uint32_t n, ue_hsd_key **keys, size_t *count) {
    *keys = NULL, *count = 0;
    if (!n) return UE_OK; /* no frame, no key */
    float *slope = malloc((n + 1) * sizeof *slope);
    if (!slope) return UE_ERR_NOMEM;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t lo = k ? k - 1 : k, hi = k + 1 < n ? k + 1 : k;
        slope[k] = hi > lo ? (float)(((double)v[hi] - v[lo]) / (hi - lo)) : 0.0f;
    }
    bool ok = true, prev_spline = false;
    for (uint32_t a = 0; ok && a + 1 < n;) {
        uint32_t lin = a + 1, spl = a + 1;
        for (uint32_t b = a + 2; b < n && b - a <= MAX_SPAN; b++) {
            bool l = span_fits(v, slope, a, b, false), s = span_fits(v, slope, a, b, true);
            if (l) lin = b;
            if (s) spl = b;
            if (!l && !s) break;
        }
        bool spline = spl > lin;
        uint32_t b = spline ? spl : lin;
        if (prev_spline && !spline) ok = put_key(keys, count, UE_HSD_KEY_SLP, 0, slope[a], 0);
        ok = ok && put_key(keys, count, spline ? UE_HSD_KEY_SPL : UE_HSD_KEY_LIN, v[a], slope[a], b - a);
        prev_spline = spline;
        a = b;
    }
    if (ok) ok = put_key(keys, count, prev_spline ? UE_HSD_KEY_SPL : UE_HSD_KEY_LIN, v[n - 1], slope[n - 1], 0);
    free(slope);
    return ok ? UE_OK : UE_ERR_NOMEM;
}

/* The tracks of one joint: a component that stays within the bound of the joint's rest value at
 * every frame gets none (the runtime keeps the rest), every other one its fitted keys. */
static ue_result joint_tracks(const ue_hsd_model *m, size_t j, const float *srt, hsd_clip_edit *e) {
    const ue_hsd_joint *jt = &m->joints[j];
    const float *rest[3] = {jt->rotation, jt->translation, jt->scale};
    ue_result r = UE_OK;
    for (int c = 0; c < 9 && r == UE_OK; c++) {
        const float *v = &srt[((size_t)j * 9 + (size_t)c) * e->frames];
        float at_rest = rest[c / 3][c % 3];
        bool moves = false;
        for (uint32_t f = 0; f < e->frames && !moves; f++) moves = !(fabs((double)v[f] - at_rest) <= hsd_clip_error_bound(v[f]));
        if (!moves) continue;
        ue_hsd_key *keys;
        size_t count;
        r = hsd_fit_keys(v, e->frames, &keys, &count);
        hsd_clip_track *grown = r == UE_OK ? realloc(e->tracks, (e->track_count + 1) * sizeof *e->tracks) : NULL;
        if (r == UE_OK && !grown) r = UE_ERR_NOMEM;
        if (r == UE_OK) {
            e->tracks = grown;
            hsd_clip_track *t = &e->tracks[e->track_count++];
            memset(t, 0, sizeof *t);
            t->joint = (int32_t)j;
            t->type = (uint8_t)(c < 3 ? UE_HSD_JT_ROTX + c : c < 6 ? UE_HSD_JT_TRAX + c - 3 : UE_HSD_JT_SCAX + c - 6);
            t->key_count = count;
            if (ue_hsd_keys_encode(keys, count, UE_HSD_FMT_FLOAT, UE_HSD_FMT_FLOAT, &t->bytes) != UE_OK) r = UE_ERR_NOMEM;
        }
        free(keys);
    }
    return r;
}

/* ---- the plan --------------------------------------------------------------------------------- */

/* The skeletal clip the base's export named `name` (convert's Animation_N, or a FigaTree's name). */
static int32_t base_clip(const ue_hsd_model *m, const ue_scene *ref, const char *name, int32_t *ref_anim) {
    *ref_anim = -1;
    for (size_t i = 0; i < ref->animation_count; i++) {
        if (strcmp(ref->animations[i].name, name)) continue;
        *ref_anim = (int32_t)i;
        size_t c = ref->animations[i].source.index;
        return c < m->anims.clip_count && !m->anims.clips[c].material ? (int32_t)c : -1;
    }
    return -1;
}

/* The glTF clip equal to the base's bake of it: each joint's motion from its rest the same (within
 * SAME_CLIP_TOLERANCE) at every key time of the glTF's channels, between which glTF interpolates:
 * convert keeps the keys its reduction needs, and a client that resampled the clip at its own rate
 * sampled the base's curve there. */
typedef struct motion_work {
    pose_source gltf, base;
    double *a, *b, *world, *inv_a, *inv_b, *ma, *mb;
} motion_work;

static bool same_at(const ue_hsd_model *m, const ue_scene_animation *an, const ue_scene_animation *ran,
                    const motion_work *w, double t) {
    sample_pose(&w->gltf, an, t, w->a);
    sample_pose(&w->base, ran, t, w->b);
    joint_motion(m, w->a, w->inv_a, w->world, w->ma);
    joint_motion(m, w->b, w->inv_b, w->world, w->mb);
    if (same_motion(m, w->ma, w->mb)) return true;
    /* A client that sampled the base's LINEAR rotation keys as Blender plays them (nlerp). */
    sample_pose_as(&w->base, ran, t, true, w->b);
    joint_motion(m, w->b, w->inv_b, w->world, w->mb);
    return same_motion(m, w->ma, w->mb);
}

static bool unedited(const ue_hsd_model *m, const ue_scene *s, const ue_scene *ref, const joint_map *jm,
                     const ue_scene_animation *an, const ue_scene_animation *ran, double end) {
    if (fabs(clip_end(ran, jm->ref_joint, ref->node_count) - end) > 1e-2) return false;
    size_t n = m->joint_count + 1;
    motion_work w = {gltf_poses(m, s, ref, jm), base_poses(m, ref, jm), NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    double **rows[7] = {&w.a, &w.b, &w.world, &w.inv_a, &w.inv_b, &w.ma, &w.mb};
    bool same = true;
    for (int k = 0; k < 7; k++) same &= (*rows[k] = malloc(n * 16 * sizeof(double))) != NULL;
    if (same) { /* the rests: the nodes' own TRS */
        sample_pose(&w.gltf, NULL, 0, w.a);
        sample_pose(&w.base, NULL, 0, w.b);
        same = rest_inverses(m, w.a, w.world, w.inv_a) && rest_inverses(m, w.b, w.world, w.inv_b);
    }
    for (size_t c = 0; same && c < an->channel_count; c++) {
        const ue_anim_channel *ch = &an->channels[c];
        if (ch->node < 0 || (size_t)ch->node >= s->node_count || jm->gltf_joint[ch->node] < 0) continue;
        for (uint32_t k = 0; same && k < ch->key_count; k++) same = same_at(m, an, ran, &w, ch->times[k]);
    }
    for (int k = 0; k < 7; k++) free(*rows[k]);
    return same;
}

static void clip_error(ue_diag *d, const char *code, size_t anim, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void clip_error(ue_diag *d, const char *code, size_t anim, const char *fmt, ...) {
    char path[48];
    snprintf(path, sizeof path, "/animations/%zu", anim);
    va_list ap;
    va_start(ap, fmt);
    ue_diag_addv(d, UE_SEV_ERROR, code, UE_NO_OFFSET, path, fmt, ap);
    va_end(ap);
}

/* The first set with ModelSet animation arrays (a scene_data root), or -1. */
static int32_t scene_data_set(const ue_hsd_model *m) {
    for (size_t i = 0; i < m->set_count; i++)
        if (m->sets[i].root_name && !strcmp(m->sets[i].root_name, "scene_data") && m->sets[i].root_joint >= 0)
            return (int32_t)i;
    return -1;
}

/* The next free slot of the set's anims[] array, after the base's clips and the new ones planned. */
static uint32_t next_index(const ue_hsd_model *m, const hsd_clip_plan *plan, uint32_t set) {
    uint32_t next = 0;
    for (size_t i = 0; i < m->anims.clip_count; i++) {
        const ue_hsd_clip *c = &m->anims.clips[i];
        if (c->set == set && !c->material && !c->root_name && !c->figatree && c->index + 1 > next) next = c->index + 1;
    }
    for (size_t i = 0; i < plan->count; i++)
        if (plan->edits[i].set == set && plan->edits[i].index + 1 > next) next = plan->edits[i].index + 1;
    return next;
}

/* The set's joints in the order the reader walks its tree (child before next sibling, the root's
 * siblings included), each once. *order is malloc'd. */
static ue_result set_joints(const ue_hsd_model *m, uint32_t set, int32_t **order, size_t *count) {
    size_t n = m->joint_count;
    int32_t *stack = malloc((2 * n + 2) * sizeof *stack);
    uint8_t *seen = calloc(n + 1, 1);
    *order = malloc((n + 1) * sizeof **order), *count = 0;
    ue_result r = stack && seen && *order ? UE_OK : UE_ERR_NOMEM;
    size_t top = 0;
    if (r == UE_OK) stack[top++] = m->sets[set].root_joint;
    while (r == UE_OK && top) {
        int32_t j = stack[--top];
        if (j < 0 || (size_t)j >= n || seen[j]) continue;
        seen[j] = 1;
        (*order)[(*count)++] = j;
        stack[top++] = m->joints[j].next_sibling;
        stack[top++] = m->joints[j].first_child;
    }
    free(stack), free(seen);
    return r;
}

/* Clip row `clip`'s index in its ModelSet's anims[] (what a PKX animation slot names), or -1 for
 * none or a clip elsewhere (a FigaTree, a material clip, a `*_joint` root's). */
static int32_t model_set_index(const ue_hsd_model *m, int32_t clip) {
    const ue_hsd_clip *c = clip >= 0 ? &m->anims.clips[clip] : NULL;
    return c && !c->material && !c->root_name && !c->figatree ? (int32_t)c->index : -1;
}

/* Joints the glTF moves away from their rest but that the clip's AnimJoint tree has no node for. */
static ue_result check_reach(const ue_hsd_model *m, const hsd_clip_edit *e, const float *srt, ue_diag *d) {
    const ue_hsd_clip *c = &m->anims.clips[e->clip];
    for (size_t j = 0; j < m->joint_count; j++) {
        bool node = false, moves = false;
        for (uint32_t k = 0; k < c->target_count && !node; k++) node = m->anims.targets[c->first_target + k].joint == (int32_t)j;
        if (node) continue;
        const ue_hsd_joint *jt = &m->joints[j];
        const float *rest[3] = {jt->rotation, jt->translation, jt->scale};
        for (int k = 0; k < 9 && !moves; k++)
            for (uint32_t f = 0; f < e->frames && !moves; f++) {
                float v = srt[((size_t)j * 9 + (size_t)k) * e->frames + f];
                moves = !(fabs((double)v - rest[k / 3][k % 3]) <= hsd_clip_error_bound(v));
            }
        if (moves) {
            char path[48];
            snprintf(path, sizeof path, "/animations/%d", (int)e->anim);
            ue_diag_add(d, UE_SEV_ERROR, "import.hsd.clip", UE_DAT_HEADER + (uint64_t)c->offset, path,
                        "the animation moves joint %zu, which the base clip's AnimJoint tree has no node for; adding "
                        "nodes to a clip is not written yet", j);
            return UE_ERR_INVALID;
        }
    }
    return UE_OK;
}

/* glTF animation `a` planned as base clip `clip` (its tracks on the joints its AnimJoint tree has
 * nodes for), or with clip -1 as a new clip at the set's next free index (every joint of the set
 * gets a node): its curve sampled at every frame and its keys fitted. */
static ue_result plan_edit(size_t a, int32_t clip, uint32_t set, double end, const reexpression *x, hsd_clip_plan *plan,
                           ue_diag *d) {
    const ue_hsd_model *m = plan->source->m;
    const ue_scene_animation *an = &plan->source->s->animations[a];
    uint32_t new_index = clip < 0 ? next_index(m, plan, set) : 0;
    hsd_clip_edit *grown = realloc(plan->edits, (plan->count + 1) * sizeof *plan->edits);
    if (!grown) return UE_ERR_NOMEM;
    plan->edits = grown;
    hsd_clip_edit *e = &plan->edits[plan->count++];
    memset(e, 0, sizeof *e);
    e->clip = clip, e->anim = (int32_t)a;
    e->set = set;
    e->index = clip >= 0 ? m->anims.clips[clip].index : new_index;
    plan->anim_index[a] = (int32_t)e->index, plan->anim_set[a] = (int32_t)set;
    plan->added += clip < 0;
    e->end_frame = (float)end;
    e->loop = an->loop;
    e->frames = (uint32_t)ceil(end) + 1;
    e->reexpressed = x != NULL;
    float *srt = NULL;
    ue_result r = clip_srt(plan->source, x, e, &srt);
    if (r == UE_ERR_INVALID)
        clip_error(d, "import.hsd.clip", a, "animation '%s' poses a joint whose world flattens space: it cannot be "
                   "read in the base's joint frames", an->name);
    if (clip < 0) { /* every joint of the set gets a node */
        int32_t *order = NULL;
        size_t count = 0;
        if (r == UE_OK) r = set_joints(m, e->set, &order, &count);
        for (size_t k = 0; k < count && r == UE_OK; k++) r = joint_tracks(m, (size_t)order[k], srt, e);
        free(order);
    } else {
        const ue_hsd_clip *c = &m->anims.clips[clip];
        for (uint32_t k = 0; k < c->target_count && r == UE_OK; k++) {
            const ue_hsd_anim_target *t = &m->anims.targets[c->first_target + k];
            if (t->kind == UE_HSD_ANIM_JOINT && t->joint >= 0 && (size_t)t->joint < m->joint_count)
                r = joint_tracks(m, (size_t)t->joint, srt, e);
        }
        if (r == UE_OK) r = check_reach(m, e, srt, d);
    }
    free(srt); /* fitted: the check of the written DAT samples the curve again */
    return r;
}

/* Edit e's curve sampled again, as plan_edit sampled it: *srt malloc'd (also on failure). */
static ue_result resample(const struct hsd_clip_source *src, const hsd_clip_edit *e, float **srt) {
    reexpression x = {0};
    *srt = NULL;
    ue_result r = e->reexpressed ? reexpression_init(src->m, src->s, src->ref, &src->jm, &x) : UE_OK;
    if (r == UE_OK) r = clip_srt(src, e->reexpressed ? &x : NULL, e, srt);
    reexpression_free(&x);
    return r;
}

/* Whether the glTF's joints rest elsewhere than the base's (a client re-expressed them: Blender's
 * bones); then clips are read through to_base_frames. */
static bool rests_differ(const ue_hsd_model *m, const ue_scene *s, const ue_scene *ref, const joint_map *jm) {
    for (size_t j = 0; j < m->joint_count; j++) {
        const ue_scene_node *g = jm->gltf_node[j] >= 0 ? &s->nodes[jm->gltf_node[j]] : NULL;
        const ue_scene_node *b = jm->ref_node[j] >= 0 ? &ref->nodes[jm->ref_node[j]] : NULL;
        double gt[10], bt[10];
        if (!g || !b) continue;
        for (int k = 0; k < 3; k++) gt[k] = g->translation[k], gt[7 + k] = g->scale[k], bt[k] = b->translation[k], bt[7 + k] = b->scale[k];
        for (int k = 0; k < 4; k++) gt[3 + k] = g->rotation[k], bt[3 + k] = b->rotation[k];
        if (!same_trs(gt, bt)) return true;
    }
    return false;
}

/* Whether comparing every animation named as a base clip with that clip's bake (unedited, at each of
 * its keys) stays within MAX_COMPARE_WORK in all; else refused, before any comparison. */
static bool compare_within_budget(const ue_hsd_model *m, const ue_scene *s, const ue_scene *ref, const joint_map *jm,
                                  ue_diag *d) {
    double work = 0;
    for (size_t a = 0; a < s->animation_count; a++) {
        const ue_scene_animation *an = &s->animations[a];
        int32_t ref_anim = -1;
        if (moves_joints(an, jm->gltf_joint, s->node_count)) base_clip(m, ref, an->name, &ref_anim);
        if (ref_anim < 0) continue;
        double keys = 0;
        for (size_t c = 0; c < an->channel_count; c++) keys += an->channels[c].key_count;
        work += keys * (double)(m->joint_count + an->channel_count + ref->animations[ref_anim].channel_count + 1);
    }
    if (work <= MAX_COMPARE_WORK) return true;
    ue_diag_add(d, UE_SEV_ERROR, "import.hsd.limit", UE_NO_OFFSET, "/animations",
                "comparing the glTF's animations with the base's clips of their names would take %.0f samples (keys "
                "× (joints + channels), summed); at most 2^30 are taken for one scene", work);
    return false;
}

/* What becomes of one glTF animation: sampled as clip `clip` (-1: a new clip of `set`) up to frame
 * `end`, or not at all (kept as the base has it, or left out). */
typedef struct clip_choice {
    bool sampled;
    int32_t clip;
    uint32_t set;
    double end;
} clip_choice;

/* Every sampled clip within MAX_CLIP_FRAMES, all of them together within MAX_SCENE_SAMPLES (what
 * clip_srt takes per frame: every joint, and the channels it reads); checked before any is sampled. */
static bool samples_within_budget(const ue_hsd_model *m, const ue_scene *s, const clip_choice *choice, ue_diag *d) {
    double total = 0;
    bool ok = true;
    for (size_t a = 0; a < s->animation_count; a++) {
        if (!choice[a].sampled) continue;
        double end = choice[a].end;
        total += (end + 1) * (double)(m->joint_count + s->animations[a].channel_count + 1);
        if (end + 1 <= MAX_CLIP_FRAMES) continue;
        clip_error(d, "import.hsd.limit", a, "animation '%s' lasts %g frames; a clip is written of up to 100000 "
                   "frames", s->animations[a].name, end);
        ok = false;
    }
    if (ok && total > MAX_SCENE_SAMPLES) {
        ue_diag_add(d, UE_SEV_ERROR, "import.hsd.limit", UE_NO_OFFSET, "/animations",
                    "the glTF's clips take %.0f samples (frames × (joints + channels + 1), summed over the clips to "
                    "write); at most 4194304 (4 million) are taken for one scene", total);
        ok = false;
    }
    return ok;
}

/* glTF animation `a` planned as `clip` (-1: new in `set`), read in the base's joint frames when the
 * glTF's joints rest elsewhere. */
static ue_result plan_rebased(size_t a, const clip_choice *ch, hsd_clip_plan *plan, ue_diag *d) {
    const struct hsd_clip_source *src = plan->source;
    const ue_hsd_model *m = src->m;
    const ue_scene *s = src->s, *ref = src->ref;
    const joint_map *jm = &src->jm;
    bool reexpressed = rests_differ(m, s, ref, jm);
    reexpression x = {0};
    ue_result r = reexpressed ? reexpression_init(m, s, ref, jm, &x) : UE_OK;
    if (r == UE_ERR_INVALID)
        clip_error(d, "import.hsd.clip", a, "animation '%s': the glTF's joints rest elsewhere than the base's and "
                   "a rest flattens space, so the clip cannot be read in the base's joint frames", s->animations[a].name);
    if (r == UE_OK) r = plan_edit(a, ch->clip, ch->set, ch->end, reexpressed ? &x : NULL, plan, d);
    reexpression_free(&x);
    return r;
}

/* One glTF animation: kept (unedited), to be sampled as the replacement of its base clip or as a new
 * clip, or left out (with a warning). */
static void choose_one(const ue_hsd_model *m, const ue_scene *s, const ue_scene *ref, const joint_map *jm,
                       size_t a, hsd_clip_plan *plan, clip_choice *choice, ue_diag *d) {
    const ue_scene_animation *an = &s->animations[a];
    memset(choice, 0, sizeof *choice);
    if (!moves_joints(an, jm->gltf_joint, s->node_count)) return; /* material or visibility only */
    int32_t ref_anim;
    int32_t clip = base_clip(m, ref, an->name, &ref_anim);
    double end = clip_end(an, jm->gltf_joint, s->node_count);
    if (ref_anim >= 0 && unedited(m, s, ref, jm, an, &ref->animations[ref_anim], end)) {
        plan->kept++;
        plan->anim_index[a] = model_set_index(m, clip);
        plan->anim_set[a] = clip >= 0 ? (int32_t)m->anims.clips[clip].set : -1;
        return;
    }
    int32_t set = ref_anim < 0 ? scene_data_set(m) : -1; /* a name the base's export does not have: a new clip */
    if (clip < 0 && set < 0) { /* a FigaTree's or a material clip's name, or no ModelSet to take it */
        char path[48];
        snprintf(path, sizeof path, "/animations/%zu", a);
        ue_diag_add(d, UE_SEV_WARNING, "import.hsd.clip", UE_NO_OFFSET, path,
                    "animation '%s' is no skeletal clip of the base's AnimJoint arrays and cannot be added to "
                    "them (a FigaTree or material clip's name, or a model without scene_data); it is left out",
                    an->name);
        return;
    }
    *choice = (clip_choice){true, clip, clip >= 0 ? m->anims.clips[clip].set : (uint32_t)set, end};
}

/* An empty plan with each animation's index at -1, sampling from m, s and ref (its joint map to fill). */
static ue_result plan_init(hsd_clip_plan *plan, const ue_hsd_model *m, const ue_scene *s, const ue_scene *ref) {
    memset(plan, 0, sizeof *plan);
    plan->anim_index = malloc((s->animation_count + 1) * sizeof *plan->anim_index);
    plan->anim_set = malloc((s->animation_count + 1) * sizeof *plan->anim_set);
    plan->source = calloc(1, sizeof *plan->source);
    for (size_t a = 0; plan->anim_index && plan->anim_set && a < s->animation_count; a++)
        plan->anim_index[a] = plan->anim_set[a] = -1;
    if (!plan->anim_index || !plan->anim_set || !plan->source) return UE_ERR_NOMEM;
    plan->source->m = m, plan->source->s = s, plan->source->ref = ref;
    return UE_OK;
}

/* The chosen clips, within the budget, sampled and fitted one at a time. */
static ue_result plan_chosen(const clip_choice *choice, hsd_clip_plan *plan, ue_diag *d) {
    const struct hsd_clip_source *src = plan->source;
    if (!samples_within_budget(src->m, src->s, choice, d)) return UE_ERR_INVALID;
    ue_result r = UE_OK;
    for (size_t a = 0; a < src->s->animation_count && r == UE_OK; a++)
        if (choice[a].sampled) r = plan_rebased(a, &choice[a], plan, d);
    return r;
}

/* Each joint's rest position in the world, scales left out (as Blender builds its bones), from the
 * poses of `ps` at rest: pos[3 · j]. */
static void rest_positions(const ue_hsd_model *m, const pose_source *ps, double *trs, double *world, double *pos) {
    sample_pose(ps, NULL, 0, trs);
    for (size_t j = 0; j < m->joint_count; j++) trs[10 * j + 7] = trs[10 * j + 8] = trs[10 * j + 9] = 1;
    joint_worlds(m, trs, world);
    for (size_t j = 0; j < m->joint_count; j++)
        for (int k = 0; k < 3; k++) pos[3 * j + (size_t)k] = world[16 * j + 12 + (size_t)k];
}

/* The joint whose rest the glTF edited so that joint j's rest position moved, or -1: j itself when its
 * own rest changed, its parent when only the parent turned, none when it moved with its parent. */
static int32_t moved_by(const ue_hsd_model *m, const ue_scene *s, const ue_scene *ref, const joint_map *jm,
                        const bool *moved, size_t j) {
    if (!moved[j]) return -1;
    const ue_scene_node *g = &s->nodes[jm->gltf_node[j]], *b = &ref->nodes[jm->ref_node[j]];
    bool own = false;
    for (int k = 0; k < 3; k++) own |= !close(g->translation[k], b->translation[k]);
    for (int k = 0; k < 4; k++) own |= !close(g->rotation[k], b->rotation[k]) && !close(g->rotation[k], -b->rotation[k]);
    int32_t parent = m->joints[j].parent;
    if (own || parent < 0 || (size_t)parent >= j) return (int32_t)j;
    return moved[parent] ? -1 : parent;
}

/* Rest edits the glTF makes that no re-expression explains (which keeps every joint's rest position,
 * scales left out, and holds either the base's scale or none): a warning naming the joints, since
 * edit mode keeps the base's rests and reads clips against them. */
static ue_result warn_rest_edits(const ue_hsd_model *m, const ue_scene *s, const ue_scene *ref, const joint_map *jm,
                                 ue_diag *d) {
    size_t n = m->joint_count + 1;
    double *trs = malloc(n * 10 * sizeof *trs), *world = malloc(n * 16 * sizeof *world);
    double *gpos = malloc(n * 3 * sizeof *gpos), *bpos = malloc(n * 3 * sizeof *bpos);
    bool *moved = calloc(n, sizeof *moved), *edited = calloc(n, sizeof *edited);
    ue_result r = trs && world && gpos && bpos && moved && edited ? UE_OK : UE_ERR_NOMEM;
    if (r == UE_OK) {
        pose_source g = gltf_poses(m, s, ref, jm), b = base_poses(m, ref, jm);
        rest_positions(m, &g, trs, world, gpos), rest_positions(m, &b, trs, world, bpos);
    }
    for (size_t j = 0; r == UE_OK && j < m->joint_count; j++) {
        if (jm->gltf_node[j] < 0 || jm->ref_node[j] < 0) continue;
        const float *gs = s->nodes[jm->gltf_node[j]].scale, *bs = ref->nodes[jm->ref_node[j]].scale;
        bool own_scale = false;
        for (int k = 0; k < 3; k++) moved[j] |= !close(gpos[3 * j + (size_t)k], bpos[3 * j + (size_t)k]);
        for (int k = 0; k < 3; k++) own_scale |= !close(gs[k], bs[k]) && !(close(gs[0], 1) && close(gs[1], 1) && close(gs[2], 1));
        int32_t by = moved_by(m, s, ref, jm, moved, j);
        if (by >= 0) edited[by] = true;
        edited[j] |= own_scale;
    }
    char names[256] = "";
    size_t count = 0, len = 0;
    for (size_t j = 0; r == UE_OK && j < m->joint_count; j++) {
        if (!edited[j] || jm->ref_node[j] < 0) continue;
        if (len < sizeof names - 64)
            len += (size_t)snprintf(names + len, sizeof names - len, "%s'%s'", count ? ", " : "", ref->nodes[jm->ref_node[j]].name);
        count++;
    }
    if (count)
        ue_diag_add(d, UE_SEV_WARNING, "import.hsd.clip", UE_NO_OFFSET, "/nodes",
                    "the glTF changes the rest of joint%s %s%s beyond a re-expression of the skeleton; edit mode keeps "
                    "the base's rests (a rest edit is not written) and reads the clips against them",
                    count > 1 ? "s" : "", names, len >= sizeof names - 64 ? ", ..." : "");
    free(trs), free(world), free(gpos), free(bpos), free(moved), free(edited);
    return r;
}

/* Two animations that would replace the same base clip: refused before either is sampled. */
static bool choices_conflict(const ue_scene *s, const clip_choice *choice, ue_diag *d) {
    bool conflict = false;
    for (size_t a = 0; a < s->animation_count; a++)
        for (size_t k = 0; k < a && choice[a].sampled && choice[a].clip >= 0; k++)
            if (choice[k].sampled && choice[k].clip == choice[a].clip) {
                clip_error(d, "import.hsd.conflict", a, "animation '%s' replaces a clip another animation of the "
                           "glTF replaces too", s->animations[a].name);
                conflict = true;
                break;
            }
    return conflict;
}

ue_result hsd_plan_clips(const ue_hsd_model *m, const ue_scene *s, const ue_scene *ref, hsd_clip_plan *plan,
                         ue_diag *d) {
    ue_result r = plan_init(plan, m, s, ref);
    joint_map *jm = plan->source ? &plan->source->jm : NULL;
    clip_choice *choice = malloc((s->animation_count + 1) * sizeof *choice);
    if (r == UE_OK && !choice) r = UE_ERR_NOMEM;
    if (r == UE_OK) r = map_joints(m, s, ref, jm);
    if (r == UE_OK) r = warn_rest_edits(m, s, ref, jm, d);
    if (r == UE_OK && !compare_within_budget(m, s, ref, jm, d)) r = UE_ERR_INVALID;
    for (size_t a = 0; a < s->animation_count && r == UE_OK; a++) choose_one(m, s, ref, jm, a, plan, &choice[a], d);
    if (r == UE_OK && choices_conflict(s, choice, d)) r = UE_ERR_INVALID;
    if (r == UE_OK) r = plan_chosen(choice, plan, d);
    free(choice);
    return r;
}

/* A new model: joint j stands for scene node joint_node[j] (-1: a joint of its own, at identity),
 * the scene is its own reference. */
static ue_result map_new_joints(const ue_hsd_model *m, const ue_scene *s, const int32_t *joint_of_node, joint_map *jm) {
    if (map_alloc(jm, m->joint_count, s->node_count, s->node_count) != UE_OK) return UE_ERR_NOMEM;
    for (size_t i = 0; i < s->node_count; i++) {
        int32_t j = joint_of_node[i];
        jm->ref_joint[i] = jm->gltf_joint[i] = j >= 0 && (size_t)j < m->joint_count ? j : -1;
        if (jm->gltf_joint[i] >= 0) jm->ref_node[j] = jm->gltf_node[j] = (int32_t)i;
    }
    return UE_OK;
}

ue_result hsd_plan_new_clips(const ue_hsd_model *m, const ue_scene *s, const int32_t *joint_of_node, hsd_clip_plan *plan,
                             ue_diag *d) {
    ue_result r = plan_init(plan, m, s, s);
    if (r != UE_OK || !s->animation_count) return r;
    joint_map *jm = &plan->source->jm;
    clip_choice *choice = calloc(s->animation_count, sizeof *choice);
    r = choice ? map_new_joints(m, s, joint_of_node, jm) : UE_ERR_NOMEM;
    for (size_t a = 0; a < s->animation_count && r == UE_OK; a++) {
        const ue_scene_animation *an = &s->animations[a];
        if (!moves_joints(an, jm->gltf_joint, s->node_count)) {
            char path[48];
            snprintf(path, sizeof path, "/animations/%zu", a);
            ue_diag_add(d, UE_SEV_WARNING, "import.hsd.new.clips", UE_NO_OFFSET, path,
                        "animation '%s' moves no joint (material and visibility clips are not written); it is left out",
                        an->name);
            continue;
        }
        choice[a] = (clip_choice){true, -1, 0, clip_end(an, jm->gltf_joint, s->node_count)};
    }
    if (r == UE_OK) r = plan_chosen(choice, plan, d);
    free(choice);
    return r;
}

void hsd_clip_plan_free(hsd_clip_plan *plan) {
    for (size_t i = 0; i < plan->count; i++) {
        for (size_t t = 0; t < plan->edits[i].track_count; t++) ue_buf_free(&plan->edits[i].tracks[t].bytes);
        free(plan->edits[i].tracks);
    }
    if (plan->source) map_free(&plan->source->jm);
    free(plan->source);
    free(plan->edits);
    free(plan->anim_index);
    free(plan->anim_set);
    memset(plan, 0, sizeof *plan);
}

/* ---- into the model --------------------------------------------------------------------------- */

static bool track_is_srt(uint8_t type) {
    return type >= UE_HSD_JT_ROTX && type <= UE_HSD_JT_SCAZ && type != UE_HSD_JT_PATH;
}

/* Room for `more` rows at the end of an anims table. */
static bool grow_rows(void **rows, size_t count, size_t more, size_t size) {
    void *grown = realloc(*rows, (count + more + 1) * size);
    if (grown) *rows = grown;
    return grown != NULL;
}

/* One AnimJoint node's new AObj: the edit's tracks of its joint, then its old tracks of other
 * types (PATH, visibility); its old flags and PATH joint; none when it is left without tracks. */
static ue_result node_aobj(ue_hsd_model *m, ue_hsd_anim_target *t, const hsd_clip_edit *e) {
    ue_hsd_anims *a = &m->anims;
    const ue_hsd_aobj *old = t->aobj >= 0 ? &a->aobjs[t->aobj] : NULL;
    size_t more = old ? old->track_count : 0;
    for (size_t k = 0; k < e->track_count; k++) more += e->tracks[k].joint == t->joint;
    if (!grow_rows((void **)&a->tracks, a->track_count, more, sizeof *a->tracks) ||
        !grow_rows((void **)&a->aobjs, a->aobj_count, 1, sizeof *a->aobjs))
        return UE_ERR_NOMEM;
    old = t->aobj >= 0 ? &a->aobjs[t->aobj] : NULL; /* the table moved */
    ue_hsd_aobj ao = {0, old ? old->flags : (e->loop ? UE_AOBJ_LOOP : 0), e->end_frame, (uint32_t)a->track_count, 0,
                      old ? old->obj_offset : 0};
    for (size_t k = 0; k < e->track_count; k++) {
        const hsd_clip_track *nt = &e->tracks[k];
        if (nt->joint != t->joint) continue;
        a->tracks[a->track_count++] = (ue_hsd_track){0, nt->type, UE_HSD_FMT_FLOAT, UE_HSD_FMT_FLOAT, 0, 0,
                                                     nt->bytes.data, (uint32_t)nt->bytes.size, 0, 0};
    }
    for (uint32_t k = 0; old && k < old->track_count; k++)
        if (!track_is_srt(a->tracks[old->first_track + k].type)) a->tracks[a->track_count++] = a->tracks[old->first_track + k];
    ao.track_count = (uint32_t)(a->track_count - ao.first_track);
    if (!ao.track_count) {
        t->aobj = -1;
        return UE_OK;
    }
    a->aobjs[a->aobj_count] = ao;
    t->aobj = (int32_t)a->aobj_count++;
    return UE_OK;
}

/* A new clip row at slot e->index of its set's anims[], one AnimJoint node per joint of the set. */
static ue_result add_clip(ue_hsd_model *m, const hsd_clip_edit *e) {
    ue_hsd_anims *a = &m->anims;
    int32_t *order = NULL;
    size_t count = 0;
    ue_result r = set_joints(m, e->set, &order, &count);
    if (r == UE_OK && (!grow_rows((void **)&a->targets, a->target_count, count, sizeof *a->targets) ||
                       !grow_rows((void **)&a->clips, a->clip_count, 1, sizeof *a->clips)))
        r = UE_ERR_NOMEM;
    if (r == UE_OK) {
        a->clips[a->clip_count++] = (ue_hsd_clip){e->set, e->index, false, NULL, 0, e->end_frame,
                                                  (uint32_t)a->target_count, (uint32_t)count, false};
        for (size_t k = 0; k < count; k++)
            a->targets[a->target_count++] = (ue_hsd_anim_target){UE_HSD_ANIM_JOINT, 0, order[k], -1, -1, -1, 0, 0, 0, 0, 0, 0};
    }
    free(order);
    return r;
}

ue_result hsd_apply_clip_plan(ue_hsd_model *m, const hsd_clip_plan *plan) {
    ue_result r = UE_OK;
    for (size_t i = 0; i < plan->count && r == UE_OK; i++) {
        const hsd_clip_edit *e = &plan->edits[i];
        int32_t row = e->clip >= 0 ? e->clip : (r = add_clip(m, e), (int32_t)m->anims.clip_count - 1);
        ue_hsd_clip *c = &m->anims.clips[row];
        for (uint32_t k = 0; k < c->target_count && r == UE_OK; k++)
            r = node_aobj(m, &m->anims.targets[c->first_target + k], e);
        c->end_frame = e->end_frame;
    }
    return r;
}

/* The written clip evaluated by the runtime's rules at every frame against the glTF's curve. */
ue_result hsd_verify_clips(const ue_hsd_model *m, const hsd_clip_plan *plan, ue_diag *d) {
    hsd_joint_state *st = malloc((m->joint_count + 1) * sizeof *st);
    ue_result r = st ? UE_OK : UE_ERR_NOMEM;
    for (size_t i = 0; i < plan->count && r == UE_OK; i++) {
        const hsd_clip_edit *e = &plan->edits[i];
        size_t row = 0;
        while (row < m->anims.clip_count && !(m->anims.clips[row].set == e->set && m->anims.clips[row].index == e->index &&
                                              !m->anims.clips[row].material && !m->anims.clips[row].root_name))
            row++;
        if (row == m->anims.clip_count) {
            ue_diag_add(d, UE_SEV_ERROR, "import.hsd.internal", UE_NO_OFFSET, "/animations",
                        "the written DAT has no clip at anims[%u]", e->index);
            r = UE_ERR_MISMATCH;
            break;
        }
        size_t tracks = hsd_anim_clip_tracks(m, row);
        hsd_key_cursor *cursors = malloc((tracks + 1) * sizeof *cursors); /* O(keys + frames) per track */
        float *srt;
        r = resample(plan->source, e, &srt);
        if (r == UE_OK && !cursors) r = UE_ERR_NOMEM;
        for (size_t t = 0; t < tracks && r == UE_OK; t++) hsd_key_cursor_reset(&cursors[t]);
        for (uint32_t f = 0; f < e->frames && r == UE_OK; f++) {
            hsd_anim_joint_states_at(m, row, (float)f, cursors, st);
            for (size_t j = 0; j < m->joint_count && r == UE_OK; j++)
                for (int c = 0; c < 9 && r == UE_OK; c++) {
                    float got = c < 3 ? st[j].rotation[c] : c < 6 ? st[j].translation[c - 3] : st[j].scale[c - 6];
                    float want = srt[((size_t)j * 9 + (size_t)c) * e->frames + f];
                    if (fabs((double)got - want) <= hsd_clip_error_bound(want) * 1.001 + 1e-6 * fabs(want)) continue;
                    ue_diag_add(d, UE_SEV_ERROR, "import.hsd.internal", UE_NO_OFFSET, "/animations",
                                "anims[%u], joint %zu, component %d at frame %u: the written track gives %g, the glTF %g",
                                e->index, j, c, f, (double)got, (double)want);
                    r = UE_ERR_MISMATCH;
                }
        }
        free(cursors), free(srt);
    }
    free(st);
    return r;
}

ue_result hsd_verify_written_clips(const uint8_t *bytes, size_t size, const hsd_clip_plan *plan, ue_diag *d) {
    ue_dat dat;
    ue_hsd_model m;
    memset(&m, 0, sizeof m);
    ue_result r = ue_dat_parse(bytes, size, UE_MODE_STRICT, &dat, d);
    if (r == UE_OK) r = ue_hsd_model_read(&dat, UE_MODE_STRICT, &m, d);
    if (r == UE_OK) r = hsd_verify_clips(&m, plan, d);
    ue_hsd_model_free(&m);
    ue_dat_free(&dat);
    return r;
}
