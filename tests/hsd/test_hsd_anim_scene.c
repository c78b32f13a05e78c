/* unearth tests — HSD clips → scene IR → glTF against the runtime evaluation: the written curves
 * (sampled here) equal the HSD local matrices at every frame, exact end frames, the split-MObj
 * binding, the UV sign rule and the atlas by sampling texels, STEP, --no-animation-pointer. */
#include <math.h>

#include "hsd/hsd_anim_eval.h"
#include "hsd/hsd_anim_scene.h"
#include "hsd/hsd_to_scene.h"
#include "samples/samples.h"
#include "test.h"
#include "unearth/gltf.h"
#include "unearth/gx.h"

#define PI_2 1.57079632679489661923f

/* ---- the model: J0 (J1 (J2), J3 (J4)); J0 draws MObj 0 split into a single- and a double-sided
 * PObj, then MObj 1; J4 draws MObj 1. J1 has the non-uniform scale (2, 1, .5). ---------------- */

static ue_hsd_joint joints[5];
static ue_hsd_dobj dobjs[3];
static ue_hsd_pobj pobjs[4];
static ue_hsd_vtx_attr attrs[1];
static ue_hsd_mobj mobjs[2];
static ue_hsd_tobj tobjs[1];
static ue_hsd_image images[3];
static uint8_t pixels[3][64];  /* 8×8 I8 (one tile column: the bytes are row-major) */
static ue_hsd_model_set set;
static ue_hsd_model model;
static uint8_t dl[64];

static ue_hsd_key keys[64];
static ue_hsd_track tracks[16];
static ue_hsd_aobj aobjs[8];
static ue_hsd_anim_target targets[10];
static ue_hsd_clip clips[3];
static int32_t table[3] = {0, 1, 2};
static size_t nkeys, ntracks, naobjs, ntargets;

static size_t put_f32(uint8_t *p, size_t at, float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    p[at] = (uint8_t)(u >> 24), p[at + 1] = (uint8_t)(u >> 16), p[at + 2] = (uint8_t)(u >> 8), p[at + 3] = (uint8_t)u;
    return at + 4;
}

static void geometry(void) {
    memset(dl, 0, sizeof dl);
    size_t at = 0;
    dl[at++] = 0x90, dl[at++] = 0, dl[at++] = 3; /* GX_TRIANGLES, 3 vertices, POS f32 */
    const float v[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    for (int k = 0; k < 9; k++) at = put_f32(dl, at, v[k]);
    memset(attrs, 0, sizeof attrs);
    attrs[0].attr = UE_GX_VA_POS, attrs[0].type = UE_GX_DIRECT, attrs[0].comp_count = 1, attrs[0].comp_type = 4;
    static const uint16_t cull[4] = {UE_POBJ_CULL_BACK, 0, UE_POBJ_CULL_BACK, UE_POBJ_CULL_BACK};
    static const int32_t next[4] = {1, -1, -1, -1};
    for (int p = 0; p < 4; p++) {
        memset(&pobjs[p], 0, sizeof pobjs[p]);
        pobjs[p].offset = 0x300u + 0x20u * (unsigned)p, pobjs[p].next = next[p];
        pobjs[p].flags = (uint16_t)(UE_POBJ_SKIN | cull[p]), pobjs[p].n_display = 2;
        pobjs[p].attr_count = 1, pobjs[p].dl = dl, pobjs[p].dl_size = sizeof dl, pobjs[p].skin_joint = -1;
    }
    dobjs[0] = (ue_hsd_dobj){0x200, NULL, 1, 0, 0, 0};
    dobjs[1] = (ue_hsd_dobj){0x210, NULL, -1, 1, 2, 0};
    dobjs[2] = (ue_hsd_dobj){0x220, NULL, -1, 1, 3, 4};
}

static void materials(void) {
    memset(mobjs, 0, sizeof mobjs);
    mobjs[0].offset = 0x500, mobjs[0].name = "eyes", mobjs[0].render_mode = 0x1u | 0x4u | 0x10u;
    mobjs[0].first_tobj = 0, mobjs[0].has_material = true;
    mobjs[0].material = (ue_hsd_material){{0}, {200, 100, 50, 255}, {0}, 1.0f, 0};
    mobjs[1].offset = 0x520, mobjs[1].name = "mouth", mobjs[1].render_mode = 0x1u | 0x4u;
    mobjs[1].first_tobj = -1, mobjs[1].has_material = true;
    mobjs[1].material = (ue_hsd_material){{0}, {10, 20, 30, 255}, {0}, 1.0f, 0};
    memset(tobjs, 0, sizeof tobjs);
    ue_hsd_tobj *t = &tobjs[0];
    t->offset = 0x600, t->next = -1, t->src = 4, t->image = 0, t->tlut = -1;
    t->scale[0] = t->scale[1] = t->scale[2] = 1;
    t->repeat_s = t->repeat_t = 1, t->wrap_s = t->wrap_t = 1, t->mag_filter = 0;
    t->flags = 4u << 16; /* MODULATE */
    for (int i = 0; i < 3; i++) {
        for (int k = 0; k < 64; k++) pixels[i][k] = (uint8_t)(i * 64 + k); /* texel (x, y) = 64i + 8y + x */
        images[i] = (ue_hsd_image){0x700u + 0x20u * (unsigned)i, 0x800u + 0x40u * (unsigned)i, pixels[i], 64, 8, 8,
                                   UE_GX_I8, false, 0, 0, 1};
    }
}

static void skeleton(void) {
    static const int32_t parent[5] = {-1, 0, 1, 0, 3}, child[5] = {1, 2, -1, 4, -1}, sibling[5] = {-1, 3, -1, -1, -1};
    static const uint32_t depth[5] = {0, 1, 2, 1, 2};
    static const int32_t dobj[5] = {0, -1, -1, -1, 2};
    memset(joints, 0, sizeof joints);
    for (int j = 0; j < 5; j++) {
        joints[j].offset = 0x40u * (uint32_t)j, joints[j].parent = parent[j], joints[j].first_child = child[j];
        joints[j].next_sibling = sibling[j], joints[j].depth = depth[j], joints[j].first_dobj = dobj[j];
        joints[j].flags = j ? UE_JOBJ_SKELETON : UE_JOBJ_SKELETON_ROOT;
        for (int k = 0; k < 3; k++) joints[j].scale[k] = 1;
    }
    joints[0].translation[0] = 1, joints[0].translation[1] = 2, joints[0].translation[2] = 3;
    joints[1].scale[0] = 2, joints[1].scale[2] = 0.5f, joints[1].translation[1] = 1;
    joints[2].rotation[0] = PI_2, joints[2].translation[0] = 1;
    joints[3].translation[2] = 1;
    joints[4].translation[1] = 1;
}

/* ---- animation tables, built as the reader would fill them --------------------------------- */

static uint32_t track(uint8_t type, float start, const uint8_t *ops, const float *values, const float *slopes,
                      const uint32_t *waits, size_t n) {
    ue_hsd_track *t = &tracks[ntracks];
    memset(t, 0, sizeof *t);
    t->offset = 0x1000u + 0x14u * (uint32_t)ntracks, t->type = type, t->start_frame = start;
    t->first_key = (uint32_t)nkeys, t->key_count = (uint32_t)n;
    float time = 0;
    for (size_t k = 0; k < n; k++) {
        keys[nkeys++] = (ue_hsd_key){ops[k], time, values[k], slopes ? slopes[k] : 0, waits[k]};
        time += (float)waits[k];
    }
    return (uint32_t)ntracks++;
}

static int32_t aobj(uint32_t flags, float end, uint32_t first_track, uint32_t count) {
    aobjs[naobjs] = (ue_hsd_aobj){0x2000u + 0x10u * (uint32_t)naobjs, flags, end, first_track, count, 0};
    return (int32_t)naobjs++;
}

static void target(ue_hsd_anim_kind kind, int32_t joint, int32_t dobj, int32_t tobj, int32_t ao) {
    ue_hsd_anim_target *t = &targets[ntargets];
    memset(t, 0, sizeof *t);
    t->kind = kind, t->offset = 0x3000u + 0x18u * (uint32_t)ntargets, t->joint = joint, t->dobj = dobj;
    t->tobj = tobj, t->aobj = ao;
    if (kind == UE_HSD_ANIM_TEXTURE) t->first_image = 0, t->image_count = 3;
    ntargets++;
}

/* Clip 0 (anims[0], end 20): J0 ROTY linear + TRAX hermite, J1 SCAY linear (non-uniform parent
 * scale for J2), J2 ROTZ hermite with start frame −3 (its first key plays at frame 3); J3, J4 no
 * AObj. Clip 1 (matanims[0], end 24): MObj 0 DIFFUSE_R linear + ALPHA step; TObj 0 TIMG
 * 0 → 1 → 2 at frames 8, 16, TRAU / TRAV / SCAV steps at 12. Clip 2 (anims[1], end 7.5, LOOP):
 * J4 NODE 1 → 0 → 1 at frames 3, 6 and SCAX 0 (clamped to 1e-3). */
static void animations(void) {
    nkeys = ntracks = naobjs = ntargets = 0;
    const uint8_t LIN = UE_HSD_KEY_LIN, SPL = UE_HSD_KEY_SPL, SPL0 = UE_HSD_KEY_SPL0, CON = UE_HSD_KEY_CON,
                  KEY = UE_HSD_KEY_KEY;
    uint32_t t0 = track(UE_HSD_JT_ROTY, 0, (uint8_t[]){LIN, LIN}, (float[]){0, 0.6f}, NULL, (uint32_t[]){20, 0}, 2);
    track(UE_HSD_JT_TRAX, 0, (uint8_t[]){SPL, SPL, SPL}, (float[]){1, 3, 2}, (float[]){0.1f, -0.2f, 0},
          (uint32_t[]){10, 10, 0}, 3);
    int32_t a0 = aobj(0, 20, t0, 2);
    uint32_t t2 = track(UE_HSD_JT_SCAY, 0, (uint8_t[]){LIN, LIN}, (float[]){1, 3}, NULL, (uint32_t[]){20, 0}, 2);
    int32_t a1 = aobj(0, 20, t2, 1);
    uint32_t t3 = track(UE_HSD_JT_ROTZ, -3, (uint8_t[]){SPL0, SPL0}, (float[]){0.3f, 1.2f}, NULL, (uint32_t[]){10, 0}, 2);
    int32_t a2 = aobj(0, 20, t3, 1);
    target(UE_HSD_ANIM_JOINT, 0, -1, -1, a0);
    target(UE_HSD_ANIM_JOINT, 1, -1, -1, a1);
    target(UE_HSD_ANIM_JOINT, 2, -1, -1, a2);
    target(UE_HSD_ANIM_JOINT, 3, -1, -1, -1);
    target(UE_HSD_ANIM_JOINT, 4, -1, -1, -1);
    clips[0] = (ue_hsd_clip){0, 0, false, NULL, 0x4000, 20, 0, 5};

    uint32_t t4 = track(UE_HSD_MT_DIFFUSE_R, 0, (uint8_t[]){LIN, LIN}, (float[]){0.2f, 1}, NULL, (uint32_t[]){24, 0}, 2);
    track(UE_HSD_MT_ALPHA, 0, (uint8_t[]){CON, CON}, (float[]){0, 0.5f}, NULL, (uint32_t[]){12, 0}, 2);
    int32_t a3 = aobj(0, 24, t4, 2);
    uint32_t t6 = track(UE_HSD_TT_TIMG, 0, (uint8_t[]){KEY, KEY, KEY}, (float[]){0, 1, 2}, NULL, (uint32_t[]){8, 8, 0}, 3);
    track(UE_HSD_TT_TRAU, 0, (uint8_t[]){CON, CON}, (float[]){0.25f, 0.5f}, NULL, (uint32_t[]){12, 0}, 2);
    track(UE_HSD_TT_TRAV, 0, (uint8_t[]){CON, CON}, (float[]){0.125f, -0.25f}, NULL, (uint32_t[]){12, 0}, 2);
    track(UE_HSD_TT_SCAV, 0, (uint8_t[]){CON, CON}, (float[]){1, 2}, NULL, (uint32_t[]){12, 0}, 2);
    int32_t a4 = aobj(0, 24, t6, 4);
    size_t first = ntargets;
    target(UE_HSD_ANIM_MATERIAL, 0, 0, -1, a3);
    target(UE_HSD_ANIM_TEXTURE, 0, 0, 0, a4);
    clips[1] = (ue_hsd_clip){0, 0, true, NULL, 0x4100, 24, (uint32_t)first, 2};

    uint32_t t10 = track(UE_HSD_JT_NODE, 0, (uint8_t[]){KEY, KEY, KEY}, (float[]){1, 0, 1}, NULL, (uint32_t[]){3, 3, 0}, 3);
    track(UE_HSD_JT_SCAX, 0, (uint8_t[]){CON}, (float[]){0}, NULL, (uint32_t[]){0}, 1);
    int32_t a5 = aobj(UE_AOBJ_LOOP, 7.5f, t10, 2);
    first = ntargets;
    target(UE_HSD_ANIM_JOINT, 4, -1, -1, a5);
    clips[2] = (ue_hsd_clip){0, 1, false, NULL, 0x4200, 7.5f, (uint32_t)first, 1};

    ue_hsd_anims *a = &model.anims;
    a->clips = clips, a->clip_count = 3, a->targets = targets, a->target_count = ntargets;
    a->aobjs = aobjs, a->aobj_count = naobjs, a->tracks = tracks, a->track_count = ntracks;
    a->keys = keys, a->key_count = nkeys, a->images = table, a->image_count = 3;
}

static void build(void) {
    skeleton();
    geometry();
    materials();
    set = (ue_hsd_model_set){0, "scene_data", 0, 0, 0, 0};
    memset(&model, 0, sizeof model);
    model.sets = &set, model.set_count = 1;
    model.joints = joints, model.joint_count = 5;
    model.dobjs = dobjs, model.dobj_count = 3;
    model.pobjs = pobjs, model.pobj_count = 4;
    model.attrs = attrs, model.attr_count = 1;
    model.mobjs = mobjs, model.mobj_count = 2;
    model.tobjs = tobjs, model.tobj_count = 1;
    model.images = images, model.image_count = 3;
    animations();
}

static ue_result convert(ue_scene *s, ue_diag *d) {
    ue_scene_init(s);
    ue_result r = hsd_model_to_scene(&model, "creature", UE_MODE_STRICT, s, d);
    if (r != UE_OK) dump_diag(d);
    return r;
}

/* ---- an independent reading of the written curves ----------------------------------------- */

/* A channel's value at time t as a glTF viewer computes it: STEP holds the key at or before t,
 * LINEAR interpolates (slerp for rotations), the ends hold. */
static void sample(const ue_anim_channel *ch, double t_seconds, double out[4]) {
    uint32_t n = ch->key_count, c = ch->components, k = 0;
    float t = (float)t_seconds; /* the float time a glTF reader compares with the float keys */
    while (k + 1 < n && ch->times[k + 1] <= t) k++;
    const float *a = &ch->values[k * c];
    for (uint32_t i = 0; i < c; i++) out[i] = a[i];
    if (k + 1 >= n || t <= ch->times[k] || ch->interpolation == UE_INTERP_STEP) return;
    const float *b = &ch->values[(k + 1) * c];
    double u = ((double)t - ch->times[k]) / ((double)ch->times[k + 1] - ch->times[k]);
    if (ch->target != UE_TARGET_ROTATION) {
        for (uint32_t i = 0; i < c; i++) out[i] = a[i] + u * ((double)b[i] - a[i]);
        return;
    }
    double d = 0, wa = 1 - u, wb = u;
    for (int i = 0; i < 4; i++) d += (double)a[i] * b[i];
    if (d < 0.9999999) {
        double th = acos(d), s = sin(th);
        wa = sin((1 - u) * th) / s, wb = sin(u * th) / s;
    }
    for (int i = 0; i < 4; i++) out[i] = wa * a[i] + wb * b[i];
}

static const ue_anim_channel *find_channel(const ue_scene_animation *an, ue_anim_target target, int32_t node,
                                           int32_t material) {
    for (size_t c = 0; c < an->channel_count; c++) {
        const ue_anim_channel *ch = &an->channels[c];
        if (ch->target == target && ch->node == node && ch->material == material) return ch;
    }
    return NULL;
}

static int32_t joint_node(const ue_scene *s, size_t j, bool mesh) {
    for (size_t n = 0; n < s->node_count; n++)
        if (s->nodes[n].source.type == HSD_KIND_JOBJ && s->nodes[n].source.index == j && (s->nodes[n].mesh >= 0) == mesh)
            return (int32_t)n;
    return -1;
}

/* T·R(q)·S column-major, from the channel values at t (or the node's rest TRS). */
static void gltf_local(const ue_scene *s, const ue_scene_animation *an, int32_t node, double t, double m[16]) {
    const ue_scene_node *nd = &s->nodes[node];
    double tr[4] = {nd->translation[0], nd->translation[1], nd->translation[2], 0};
    double q[4] = {nd->rotation[0], nd->rotation[1], nd->rotation[2], nd->rotation[3]};
    double sc[4] = {nd->scale[0], nd->scale[1], nd->scale[2], 0};
    const ue_anim_channel *ch;
    if ((ch = find_channel(an, UE_TARGET_TRANSLATION, node, -1))) sample(ch, t, tr);
    if ((ch = find_channel(an, UE_TARGET_ROTATION, node, -1))) sample(ch, t, q);
    if ((ch = find_channel(an, UE_TARGET_SCALE, node, -1))) sample(ch, t, sc);
    double l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]), x = q[0] / l, y = q[1] / l, z = q[2] / l,
           w = q[3] / l;
    double r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
                   2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
                   2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)};
    memset(m, 0, 16 * sizeof *m);
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < 3; i++) m[c * 4 + i] = r[c * 3 + i] * sc[c];
    for (int i = 0; i < 3; i++) m[12 + i] = tr[i];
    m[15] = 1;
}

/* docs/formats/hsd-model.md#joint-matrices written out again here: R = Rz·Ry·Rx, element (i, k) = R_ik·s_k·p_k/p_i, scl = s ⊙ p. */
static void hsd_local(const hsd_joint_state *st, const double *p, double m[16], double scl[3]) {
    double cx = cos(st->rotation[0]), sx = sin(st->rotation[0]), cy = cos(st->rotation[1]), sy = sin(st->rotation[1]);
    double cz = cos(st->rotation[2]), sz = sin(st->rotation[2]);
    double r[3][3] = {{cz * cy, cz * sy * sx - sz * cx, cz * sy * cx + sz * sx},
                      {sz * cy, sz * sy * sx + cz * cx, sz * sy * cx - sx * cz},
                      {-sy, cy * sx, cy * cx}};
    memset(m, 0, 16 * sizeof *m);
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) m[k * 4 + i] = r[i][k] * st->scale[k] * (p ? p[k] / p[i] : 1.0);
    for (int i = 0; i < 3; i++) m[12 + i] = st->translation[i], scl[i] = st->scale[i] * (p ? p[i] : 1.0);
    m[15] = 1;
}

static void mul(const double a[16], const double b[16], double out[16]) {
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            double acc = 0;
            for (int k = 0; k < 4; k++) acc += a[k * 4 + r] * b[c * 4 + k];
            out[c * 4 + r] = acc;
        }
}

static double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* What T·R·S cannot hold of a linear part L = Q·U (Gram–Schmidt): U's off-diagonal terms. */
static double shear_norm(const double L[16]) {
    double c0[3] = {L[0], L[1], L[2]}, c1[3] = {L[4], L[5], L[6]}, c2[3] = {L[8], L[9], L[10]}, q0[3], q1[3];
    double n0 = sqrt(dot3(c0, c0));
    for (int i = 0; i < 3; i++) q0[i] = c0[i] / n0;
    double u01 = dot3(q0, c1);
    for (int i = 0; i < 3; i++) q1[i] = c1[i] - u01 * q0[i];
    double n1 = sqrt(dot3(q1, q1));
    for (int i = 0; i < 3; i++) q1[i] /= n1;
    double u02 = dot3(q0, c2), u12 = dot3(q1, c2);
    return sqrt(u01 * u01 + u02 * u02 + u12 * u12);
}

static double frobenius3(const double m[16]) {
    double acc = 0;
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < 3; i++) acc += m[c * 4 + i] * m[c * 4 + i];
    return sqrt(acc);
}

static double max_diff(const double *a, const double *b, int n) {
    double d = 0;
    for (int i = 0; i < n; i++) d = fmax(d, fabs(a[i] - b[i]));
    return d;
}

static double worst_shear_error; /* reported at the end: the measured approximation */

/* ---- cases ---------------------------------------------------------------------------------- */

/* Every integer frame 0 … end, and end itself when fractional. */
static size_t frames_of(double end, double *out) {
    size_t n = 0;
    for (double f = 0; f <= end; f += 1) out[n++] = f;
    if (out[n - 1] < end) out[n++] = end;
    return n;
}

/* The glTF curves against the HSD evaluation at every frame of a skeletal clip: local matrices of
 * J0, J1, J3, J4 within 1e-4; J2 (under J1's non-uniform scale) by its world matrix within the
 * stated bound ‖W(J1)‖_F · ‖shear(L(J2))‖ (docs/hsd-animation.md). */
static void check_skeleton(const ue_scene *s, size_t a, size_t clip, double end) {
    double frames[64];
    size_t nf = frames_of(end, frames);
    const ue_scene_animation *an = &s->animations[a];
    for (size_t fi = 0; fi < nf; fi++) {
        hsd_joint_state st[5];
        hsd_anim_joint_states(&model, clip, (float)frames[fi], st);
        double hl[5][16], hw[5][16], gl[5][16], gw[5][16], scl[5][3];
        for (size_t j = 0; j < 5; j++) {
            int32_t p = joints[j].parent;
            hsd_local(&st[j], p >= 0 ? scl[p] : NULL, hl[j], scl[j]);
            gltf_local(s, an, joint_node(s, j, false), frames[fi] / 60.0, gl[j]);
            if (p >= 0) mul(hw[p], hl[j], hw[j]), mul(gw[p], gl[j], gw[j]);
            else memcpy(hw[j], hl[j], sizeof hw[j]), memcpy(gw[j], gl[j], sizeof gw[j]);
        }
        for (size_t j = 0; j < 5; j++) {
            if (j == 2) continue;
            double e = max_diff(gl[j], hl[j], 16);
            if (e > 1e-4) fprintf(stderr, "clip %zu frame %g joint %zu: local differs by %g\n", clip, frames[fi], j, e);
            CHECK(e <= 1e-4);
        }
        double err = max_diff(gw[2], hw[2], 16), bound = frobenius3(hw[1]) * shear_norm(hl[2]) + 1e-4;
        if (err > bound) fprintf(stderr, "frame %g: J2 world error %g over the bound %g\n", frames[fi], err, bound);
        CHECK(err <= bound);
        CHECK(max_diff(&gw[2][12], &hw[2][12], 3) <= 1e-4); /* translations stay exact */
        worst_shear_error = fmax(worst_shear_error, err);
    }
}

static void skeletal_curves_match_the_runtime(void) {
    build();
    ue_scene s;
    ue_diag d = {0};
    REQUIRE(convert(&s, &d) == UE_OK);
    REQUIRE(s.animation_count == 2);
    CHECK_STR(s.animations[0].name, "Animation_0");
    CHECK_STR(s.animations[1].name, "Animation_1");
    check_skeleton(&s, 0, 0, 24);
    check_skeleton(&s, 1, 2, 7.5);
    /* The shear is real in this clip (J2 rotates under scale (2, 1..3, .5)): the bound is used. */
    CHECK(worst_shear_error > 1e-3);
    /* Negative start frame: J2's first key plays at frame 3, so frames 0..2 keep the rest node. */
    const ue_anim_channel *rot = find_channel(&s.animations[0], UE_TARGET_ROTATION, joint_node(&s, 2, false), -1);
    REQUIRE(rot != NULL);
    const float *rest = s.nodes[joint_node(&s, 2, false)].rotation;
    for (int f = 0; f < 3; f++) {
        double q[4];
        sample(rot, f / 60.0, q);
        for (int k = 0; k < 4; k++) CHECK(fabs(q[k] - rest[k]) <= 1e-6);
    }
    double q3[4];
    sample(rot, 3 / 60.0, q3);
    CHECK(fabs(q3[2] - rest[2]) > 1e-2 || fabs(q3[1] - rest[1]) > 1e-2);
    /* Quaternion keys are unit and never flip sign between neighbours. */
    for (size_t c = 0; c < s.animations[0].channel_count; c++) {
        const ue_anim_channel *ch = &s.animations[0].channels[c];
        if (ch->target != UE_TARGET_ROTATION) continue;
        for (uint32_t k = 0; k < ch->key_count; k++) {
            const float *q = &ch->values[4 * k];
            CHECK(fabs(sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]) - 1) < 1e-5);
            if (k) CHECK(q[0] * q[-4] + q[1] * q[-3] + q[2] * q[-2] + q[3] * q[-1] >= 0);
        }
    }
    ue_scene_free(&s);
    ue_diag_free(&d);
}

/* Clip lengths: the last key of every channel sits at exactly end / 60, none past it, the first at 0;
 * the clip metadata says 60 fps, the end frame and LOOP. */
static void end_frames_exact(void) {
    build();
    ue_scene s;
    ue_diag d = {0};
    REQUIRE(convert(&s, &d) == UE_OK);
    REQUIRE(s.animation_count == 2);
    const float ends[2] = {24, 7.5f};
    for (size_t a = 0; a < 2; a++) {
        const ue_scene_animation *an = &s.animations[a];
        CHECK(an->fps == 60 && an->start_frame == 0 && an->end_frame == ends[a]);
        CHECK(an->channel_count > 0);
        for (size_t c = 0; c < an->channel_count; c++) {
            const ue_anim_channel *ch = &an->channels[c];
            CHECK(ch->times[0] == 0);
            CHECK(ch->times[ch->key_count - 1] == (float)(ends[a] / 60.0));
        }
    }
    CHECK(s.animations[1].channels[0].times[s.animations[1].channels[0].key_count - 1] == 0.125f);
    CHECK(!s.animations[0].loop && s.animations[1].loop);
    ue_scene_free(&s);
    ue_diag_free(&d);
}

/* J3 and J4 have no AObj in clip 0: no channel of Animation_0 drives them or J4's mesh node. In
 * Animation_1 only J4 moves: its scale x is the clamped 1e-3, never 0, and its mesh node blinks. */
static void untracked_subtree_and_zero_scale(void) {
    build();
    ue_scene s;
    ue_diag d = {0};
    REQUIRE(convert(&s, &d) == UE_OK);
    int32_t j3 = joint_node(&s, 3, false), j4 = joint_node(&s, 4, false), m4 = joint_node(&s, 4, true);
    REQUIRE(j3 >= 0 && j4 >= 0 && m4 >= 0);
    for (size_t c = 0; c < s.animations[0].channel_count; c++) {
        int32_t n = s.animations[0].channels[c].node;
        CHECK(n != j3 && n != j4 && n != m4);
    }
    for (size_t c = 0; c < s.animations[1].channel_count; c++) {
        const ue_anim_channel *ch = &s.animations[1].channels[c];
        CHECK(ch->node == j4 || ch->node == m4);
    }
    for (size_t a = 0; a < s.animation_count; a++)
        for (size_t c = 0; c < s.animations[a].channel_count; c++) {
            const ue_anim_channel *ch = &s.animations[a].channels[c];
            if (ch->target != UE_TARGET_SCALE) continue;
            for (uint32_t k = 0; k < 3 * ch->key_count; k++) CHECK(fabs(ch->values[k]) >= 0.999e-3);
        }
    const ue_anim_channel *sc = find_channel(&s.animations[1], UE_TARGET_SCALE, j4, -1);
    REQUIRE(sc != NULL);
    CHECK(fabs(sc->values[0] - 1e-3) < 1e-7);
    const ue_anim_channel *vis = find_channel(&s.animations[1], UE_TARGET_VISIBILITY, m4, -1);
    REQUIRE(vis != NULL);
    CHECK(vis->interpolation == UE_INTERP_STEP);
    double frames[16];
    size_t nf = frames_of(7.5, frames);
    for (size_t i = 0; i < nf; i++) {
        double v[4];
        sample(vis, frames[i] / 60.0, v);
        CHECK(v[0] == (frames[i] >= 3 && frames[i] < 6 ? 0.0 : 1.0));
    }
    ue_scene_free(&s);
    ue_diag_free(&d);
}

static double srgb(unsigned byte) {
    double c = byte / 255.0;
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static int32_t material_of_pobj(const ue_scene *s, size_t pobj) {
    for (size_t m = 0; m < s->mesh_count; m++)
        for (size_t p = 0; p < s->meshes[m].primitive_count; p++)
            if (s->meshes[m].primitives[p].source.type == HSD_KIND_POBJ && s->meshes[m].primitives[p].source.index == pobj)
                return s->meshes[m].primitives[p].material;
    return -1;
}

/* MObj 0 is drawn by two PObjs, one single- and one double-sided: two scene materials. The colour
 * channel drives both, and nothing drives MObj 1's material, which follows in output order. The
 * values are worked out here: R = (u8)(255 · (0.2 + 0.8 f/24)) through sRGB → linear, G, B the
 * rest bytes 100, 50, alpha 1 − 0 then 1 − 0.5 from frame 12. */
static void colour_drives_every_primitive_of_the_mobj(void) {
    build();
    ue_scene s;
    ue_diag d = {0};
    REQUIRE(convert(&s, &d) == UE_OK);
    int32_t single = material_of_pobj(&s, 0), twin = material_of_pobj(&s, 1), mouth = material_of_pobj(&s, 2);
    REQUIRE(single >= 0 && twin >= 0 && mouth >= 0);
    CHECK(single != twin && single != mouth && twin != mouth);
    CHECK(!s.materials[single].double_sided && s.materials[twin].double_sided);
    const ue_scene_animation *an = &s.animations[0];
    size_t colour = 0;
    for (size_t c = 0; c < an->channel_count; c++)
        if (an->channels[c].target == UE_TARGET_BASE_COLOR || an->channels[c].target == UE_TARGET_ALPHA) {
            colour++;
            CHECK(an->channels[c].material == single || an->channels[c].material == twin);
        }
    CHECK(colour == 2);
    for (int k = 0; k < 2; k++) {
        const ue_anim_channel *ch = find_channel(an, UE_TARGET_BASE_COLOR, -1, k ? twin : single);
        REQUIRE(ch != NULL);
        for (int f = 0; f <= 24; f++) {
            double v[4], r = 0.2f + (1.0f - 0.2f) * (float)f / 24.0f;
            sample(ch, f / 60.0, v);
            double want[4] = {srgb((unsigned)floor(255 * r + 1e-3)), srgb(100), srgb(50), f < 12 ? 1.0 : 0.5};
            CHECK(max_diff(v, want, 4) <= 1e-4);
        }
    }
    ue_scene_free(&s);
    ue_diag_free(&d);
}

/* The atlas: 3 images → a 2 × 2 grid of 8 × 8 cells, image k in cell k (row-major), top-left. */
static void check_atlas(const ue_scene_texture *t) {
    CHECK(t->width == 16 && t->height == 16);
    if (t->width != 16 || t->height != 16) return;
    for (unsigned k = 0; k < 3; k++)
        for (unsigned y = 0; y < 8; y++)
            for (unsigned x = 0; x < 8; x++) {
                unsigned ax = (k % 2) * 8 + x, ay = (k / 2) * 8 + y;
                CHECK_EQ_U(t->rgba[(ay * 16 + ax) * 4], 64 * k + 8 * y + x);
            }
}

/* The sign rule by sampling, on both axes: at every frame, a UV taken through the slot's glTF
 * transform (offset + Rk(rotation)·diag(scale)·uv) into the atlas picks the texel that the
 * GameCube's matrix st' = S·(st − translate) picks in the image the TIMG track shows. */
static size_t sample_frame(const ue_scene *s, const ue_texture_slot *slot, const ue_anim_channel *off,
                           const ue_anim_channel *scl, int f) {
    const ue_scene_texture *tex = &s->textures[slot->texture];
    int image = f < 8 ? 0 : f < 16 ? 1 : 2;
    double tu = f < 12 ? 0.25 : 0.5, tv = f < 12 ? 0.125 : -0.25, sv = f < 12 ? 1 : 2, o[4], k[4];
    sample(off, f / 60.0, o);
    sample(scl, f / 60.0, k);
    double th = slot->transform.rotation;
    size_t compared = 0;
    for (double sx = -1.013; sx < 2; sx += 0.0371)
        for (double ty = -1.007; ty < 2; ty += 0.0371) {
            double s1 = (sx - tu) / 1.0, t1 = (ty - tv) / sv; /* repeat 1, scale (1, sv) */
            if (s1 <= 0.001 || s1 >= 0.999 || t1 <= 0.001 || t1 >= 0.999) continue;
            double gx = s1 * 8, gy = t1 * 8;
            if (fabs(gx - round(gx)) < 1e-3 || fabs(gy - round(gy)) < 1e-3) continue;
            unsigned game = (unsigned)(64 * image + 8 * (int)floor(gy) + (int)floor(gx));
            double u = o[0] + cos(th) * k[0] * sx + sin(th) * k[1] * ty;
            double v = o[1] - sin(th) * k[0] * sx + cos(th) * k[1] * ty;
            int ax = (int)floor(u * tex->width), ay = (int)floor(v * tex->height);
            if (ax < 0 || ay < 0 || ax >= (int)tex->width || ay >= (int)tex->height) {
                fprintf(stderr, "frame %d: uv (%g, %g) leaves the atlas\n", f, u, v);
                ue_test_failed_checks++;
                return 0;
            }
            CHECK_EQ_U(tex->rgba[((size_t)ay * tex->width + (size_t)ax) * 4], game);
            compared++;
        }
    return compared;
}

static void uv_sign_rule_and_atlas_by_sampling(void) {
    build();
    ue_scene s;
    ue_diag d = {0};
    REQUIRE(convert(&s, &d) == UE_OK);
    int32_t mats[2] = {material_of_pobj(&s, 0), material_of_pobj(&s, 1)};
    const ue_scene_animation *an = &s.animations[0];
    CHECK(s.texture_count == 1); /* the atlas took the place of the eyes' texture */
    for (int k = 0; k < 2; k++) {
        REQUIRE(mats[k] >= 0 && s.materials[mats[k]].slot_count == 1);
        const ue_texture_slot *slot = &s.materials[mats[k]].slots[0];
        CHECK(slot->transform.enabled);
        check_atlas(&s.textures[slot->texture]);
        const ue_anim_channel *off = NULL, *scl = NULL;
        for (size_t c = 0; c < an->channel_count; c++) {
            const ue_anim_channel *ch = &an->channels[c];
            if (ch->material != mats[k]) continue;
            CHECK(ch->target != UE_TARGET_UV_ROTATION); /* no rotation track: no channel */
            if (ch->target == UE_TARGET_UV_OFFSET) off = ch;
            if (ch->target == UE_TARGET_UV_SCALE) scl = ch;
        }
        REQUIRE(off && scl && off->slot == 0 && scl->slot == 0);
        CHECK(off->interpolation == UE_INTERP_STEP && scl->interpolation == UE_INTERP_STEP);
        /* Steps at frames 8 (image), 12 (translate, scale) and 16 (image), nothing else. */
        CHECK(off->key_count == 5);
        for (int f = 0; f <= 24; f++) CHECK(sample_frame(&s, slot, off, scl, f) > 100);
        /* Only offsets animate at frame 8: the tiling (scale) keeps its base, never 0. */
        for (uint32_t i = 0; i < 2 * scl->key_count; i++) CHECK(scl->values[i] > 0.2f);
    }
    ue_scene_free(&s);
    ue_diag_free(&d);
}

/* A key that overflows the joint transform (a scale of 3e38 compensated in the child) is
 * hsd.anim.nan naming the joint: strict fails, tolerant holds the bind pose, and every value
 * written stays finite. */
static void overflowing_transform_is_rejected(void) {
    build();
    keys[tracks[2].first_key + 1].value = 3e38f; /* J1 SCAY's last key */
    ue_scene s;
    ue_diag d = {0};
    ue_scene_init(&s);
    CHECK(hsd_model_to_scene(&model, "creature", UE_MODE_STRICT, &s, &d) == UE_ERR_INVALID);
    CHECK(diag_has(&d, "hsd.anim.nan", NULL));
    ue_scene_free(&s);
    ue_diag_free(&d);
    ue_scene_init(&s);
    REQUIRE(hsd_model_to_scene(&model, "creature", UE_MODE_TOLERANT, &s, &d) == UE_OK);
    CHECK(diag_has(&d, "hsd.anim.nan", NULL));
    for (size_t a = 0; a < s.animation_count; a++)
        for (size_t c = 0; c < s.animations[a].channel_count; c++) {
            const ue_anim_channel *ch = &s.animations[a].channels[c];
            for (uint32_t k = 0; k < ch->key_count * ch->components; k++) CHECK(isfinite(ch->values[k]));
        }
    CHECK(ue_scene_validate(&s, NULL) == UE_OK);
    ue_scene_free(&s);
    ue_diag_free(&d);
}

/* An absurd end frame in a small model is refused before any sampling: strict fails with
 * UE_ERR_LIMIT naming the clip, tolerant converts the rest and leaves that clip out. */
static void absurd_end_frame_is_refused(void) {
    build();
    clips[2].end_frame = 900000, aobjs[5].end_frame = 900000;
    ue_scene s;
    ue_diag d = {0};
    ue_scene_init(&s);
    CHECK(hsd_model_to_scene(&model, "creature", UE_MODE_STRICT, &s, &d) == UE_ERR_LIMIT);
    bool named = false;
    for (size_t i = 0; i < d.count; i++)
        named = named || (!strcmp(d.items[i].code, "hsd.anim.budget") && !strcmp(d.items[i].path, "dat/anim[2]") &&
                          d.items[i].offset == 0x4200 + UE_DAT_HEADER);
    CHECK(named);
    ue_scene_free(&s);
    ue_diag_free(&d);
    ue_scene_init(&s);
    REQUIRE(hsd_model_to_scene(&model, "creature", UE_MODE_TOLERANT, &s, &d) == UE_OK);
    CHECK(s.animation_count == 1);
    CHECK_STR(s.animations[0].name, "Animation_0");
    ue_scene_free(&s);
    ue_diag_free(&d);
}

static size_t count_code(const ue_diag *d, const char *code) {
    size_t n = 0;
    for (size_t i = 0; i < d->count; i++) n += !strcmp(d->items[i].code, code);
    return n;
}

/* Three array slots naming one AnimJoint tree share the model's sample budget (16 × 2^21 =
 * 33554432 without a DAT): clip 2 costs (16 × 5 joints + 4 keys + 1 target + 1) × (end + 2) =
 * 86 × 300002 = 25800172 samples, so the first slot fits and the other two are refused (a
 * per-clip budget took all 3). */
static void clips_share_one_budget(void) {
    build();
    aobjs[5].end_frame = 300000;
    const ue_hsd_clip shared = {0, 0, false, NULL, 0x4200, 300000, clips[2].first_target, 1};
    for (uint32_t i = 0; i < 3; i++) clips[i] = shared, clips[i].index = i;
    ue_scene s;
    ue_diag d = {0};
    ue_scene_init(&s);
    REQUIRE(hsd_model_to_scene(&model, "creature", UE_MODE_TOLERANT, &s, &d) == UE_OK);
    CHECK(s.animation_count == 1);
    CHECK(count_code(&d, "hsd.anim.budget") == 2);
    ue_scene_free(&s);
    ue_diag_free(&d);
    ue_scene_init(&s);
    CHECK(hsd_model_to_scene(&model, "creature", UE_MODE_STRICT, &s, &d) == UE_ERR_LIMIT);
    ue_scene_free(&s);
    ue_diag_free(&d);
}

/* A model with nothing to draw is refused before its clips are looked at: the absurd clip 2
 * draws no hsd.anim.budget, only hsd.export.empty. */
static void empty_model_refused_before_clips(void) {
    build();
    for (size_t j = 0; j < 5; j++) joints[j].first_dobj = -1;
    clips[2].end_frame = 900000, aobjs[5].end_frame = 900000;
    ue_scene s;
    ue_diag d = {0};
    ue_scene_init(&s);
    CHECK(hsd_model_to_scene(&model, "creature", UE_MODE_TOLERANT, &s, &d) == UE_ERR_INVALID);
    CHECK(count_code(&d, "hsd.export.empty") == 1);
    CHECK(count_code(&d, "hsd.anim.budget") == 0);
    CHECK(s.animation_count == 0);
    ue_scene_free(&s);
    ue_diag_free(&d);
}

static const char *json_of(const ue_buf *glb, size_t *len) {
    uint32_t n = (uint32_t)glb->data[12] | (uint32_t)glb->data[13] << 8 | (uint32_t)glb->data[14] << 16 |
                 (uint32_t)glb->data[15] << 24;
    *len = n;
    return (const char *)glb->data + 20;
}

static bool contains(const char *hay, size_t n, const char *needle) {
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (!memcmp(hay + i, needle, k)) return true;
    return false;
}

static const char *out_dir;

static void write_file(const ue_scene *s, const char *name, bool no_pointer) {
    if (!out_dir) return;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", out_dir, name);
    ue_gltf_options o = {UE_GLTF_GLB, NULL, false, false, no_pointer};
    ue_diag d = {0};
    CHECK(ue_gltf_write_file_opts(s, path, &o, true, &d) == UE_OK);
    ue_diag_free(&d);
    printf("%s\n", path);
}

/* The export: pointers resolve, no error or warning; with no_animation_pointer the JSON names no
 * pointer (nor KHR_node_visibility, which only the visibility channel needed), the skeletal
 * channels stay, and one info diagnostic says so. With an output directory the files are written
 * for the Khronos validator and the independent pointer resolver (hsd_anim_gltf.sh). */
static void export_with_and_without_pointers(void) {
    build();
    ue_scene s;
    ue_diag d = {0};
    REQUIRE(convert(&s, &d) == UE_OK);
    ue_diag_free(&d);
    CHECK(ue_gltf_check_pointers(&s, &d) == UE_OK);
    for (int no_pointer = 0; no_pointer < 2; no_pointer++) {
        ue_buf glb = {0};
        ue_gltf_options o = {UE_GLTF_GLB, NULL, false, false, no_pointer != 0};
        ue_diag e = {0};
        REQUIRE(ue_gltf_export(&s, &o, &glb, NULL, &e) == UE_OK);
        size_t infos = 0;
        for (size_t i = 0; i < e.count; i++) {
            if (e.items[i].severity != UE_SEV_INFO) dump_diag(&e);
            CHECK(e.items[i].severity == UE_SEV_INFO);
            infos += !strcmp(e.items[i].code, "gltf.anim.no_pointer");
        }
        CHECK(infos == (size_t)no_pointer);
        size_t n;
        const char *json = json_of(&glb, &n);
        CHECK(contains(json, n, "KHR_animation_pointer") == !no_pointer);
        CHECK(contains(json, n, "KHR_node_visibility") == !no_pointer);
        CHECK(contains(json, n, "KHR_texture_transform"));
        CHECK(contains(json, n, "\"Animation_0\"") && contains(json, n, "\"Animation_1\""));
        CHECK(contains(json, n, "\"path\":\"rotation\""));
        ue_buf_free(&glb);
        ue_diag_free(&e);
    }
    write_file(&s, "hsd_anim.glb", false);
    write_file(&s, "hsd_anim.gltf", false);
    write_file(&s, "hsd_anim_nopointer.glb", true);
    ue_scene_free(&s);
    ue_diag_free(&d);
}


/* ---- every clip of the sample creature (src/samples) ---------------------------------------- */

/* docs/formats/hsd-model.md#joint-matrices with CLASSICAL_SCALE, for any joint table: parent scl passed on unchanged by a classical
 * joint (its own scale then shears the children), multiplied in otherwise. */
static void hsd_local_any(const hsd_joint_state *st, const double *p, double m[16], double scl[3], bool *has) {
    hsd_local(st, p, m, scl);
    *has = st->classical_scale ? p != NULL : true;
    for (int i = 0; i < 3; i++) scl[i] = st->classical_scale ? (p ? p[i] : 1.0) : scl[i];
}

/* One skeletal clip of a read model: joints whose runtime local matrix has no shear must match the
 * glTF curves within 1e-4 at every frame; every channel ends at end / 60. */
static size_t check_model_clip(const ue_hsd_model *m, const ue_scene *s, size_t a, size_t clip) {
    double end = m->anims.clips[clip].end_frame, *frames = malloc(((size_t)end + 2) * sizeof *frames);
    size_t nf = frames_of(end, frames), J = m->joint_count, compared = 0;
    hsd_joint_state *st = malloc(J * sizeof *st);
    double *hl = malloc(J * 16 * sizeof *hl), *scl = malloc(J * 3 * sizeof *scl), gl[16];
    bool *has = malloc(J * sizeof *has);
    for (size_t fi = 0; fi < nf && st && hl && scl && has; fi++) {
        hsd_anim_joint_states(m, clip, (float)frames[fi], st);
        for (size_t j = 0; j < J; j++) {
            int32_t p = m->joints[j].parent;
            hsd_local_any(&st[j], p >= 0 && has[p] ? &scl[3 * (size_t)p] : NULL, &hl[16 * j], &scl[3 * j], &has[j]);
            int32_t node = joint_node(s, j, false);
            if (node < 0 || shear_norm(&hl[16 * j]) > 1e-6) continue;
            gltf_local(s, &s->animations[a], node, frames[fi] / 60.0, gl);
            double e = max_diff(gl, &hl[16 * j], 16);
            if (e > 1e-4) fprintf(stderr, "sample clip %zu frame %g joint %zu: local differs by %g\n", clip, frames[fi], j, e);
            CHECK(e <= 1e-4);
            compared++;
        }
    }
    for (size_t c = 0; c < s->animations[a].channel_count; c++) {
        const ue_anim_channel *ch = &s->animations[a].channels[c];
        CHECK(ch->times[ch->key_count - 1] == (float)(s->animations[a].end_frame / 60.0));
    }
    free(frames), free(st), free(hl), free(scl), free(has);
    return compared;
}

static void sample_creature_clips_match_the_runtime(void) {
    ue_buf dat_bytes = {0};
    REQUIRE(ue_sample_creature_dat(&dat_bytes) == UE_OK);
    ue_dat dat;
    ue_hsd_model m;
    memset(&m, 0, sizeof m);
    REQUIRE(ue_dat_parse(dat_bytes.data, dat_bytes.size, UE_MODE_STRICT, &dat, NULL) == UE_OK);
    REQUIRE(ue_hsd_model_read(&dat, UE_MODE_STRICT, &m, NULL) == UE_OK);
    ue_scene s;
    ue_scene_init(&s);
    ue_diag d = {0};
    ue_result r = hsd_model_to_scene(&m, "creature", UE_MODE_STRICT, &s, &d);
    if (r != UE_OK) dump_diag(&d);
    CHECK(r == UE_OK);
    size_t skeletal = 0, compared = 0;
    for (size_t c = 0; c < m.anims.clip_count && r == UE_OK; c++) {
        const ue_hsd_clip *cl = &m.anims.clips[c];
        if (cl->material || cl->root_name) continue;
        char name[64];
        snprintf(name, sizeof name, "Animation_%u", (unsigned)cl->index);
        for (size_t a = 0; a < s.animation_count; a++)
            if (!strcmp(s.animations[a].name, name)) compared += check_model_clip(&m, &s, a, c), skeletal++;
    }
    CHECK(skeletal >= 2 && compared > 100); /* the creature's two skeletal clips were compared */
    ue_scene_free(&s);
    ue_diag_free(&d);
    ue_hsd_model_free(&m);
    ue_dat_free(&dat);
    ue_buf_free(&dat_bytes);
}

/* Key reduction keeps the first and last keys and each key where a straight run (or a slerp arc)
 * stops reproducing the keys it drops, within 1e-6 relative, runs of at most 256 keys. */
static uint32_t kept_times(ue_anim_target target, const float *values, uint32_t n, float *times_out) {
    float frame[300], time[300];
    for (uint32_t i = 0; i < n; i++) frame[i] = (float)i, time[i] = (float)(i / 60.0);
    hsd_frames f = {frame, time, n, true}; /* (strictly increasing times) */
    ue_scene s;
    ue_scene_init(&s);
    int32_t anim = ue_scene_add_animation(&s, "a");
    ue_anim_channel *ch = NULL;
    uint32_t kept = 0;
    if (anim >= 0 && hsd_anim_add_sampled(&s, anim, target, UE_INTERP_LINEAR, &f, values, &ch) == UE_OK && ch) {
        kept = ch->key_count;
        for (uint32_t k = 0; k < kept; k++) times_out[k] = ch->times[k] * 60.0f;
    }
    ue_scene_free(&s);
    return kept;
}

static void key_reduction_keeps_the_corners(void) {
    static float v[300 * 4];
    float t[300];
    /* x rises 0.5 per frame to frame 5 then holds; y = 2 throughout; z falls from frame 7 on */
    for (uint32_t i = 0; i < 10; i++)
        v[3 * i] = 0.5f * (float)(i < 5 ? i : 5), v[3 * i + 1] = 2, v[3 * i + 2] = i < 7 ? 0 : -(float)(i - 7);
    REQUIRE(kept_times(UE_TARGET_TRANSLATION, v, 10, t) == 4);
    CHECK(fabsf(t[0]) < 1e-3f && fabsf(t[1] - 5) < 1e-3f && fabsf(t[2] - 7) < 1e-3f && fabsf(t[3] - 9) < 1e-3f);
    /* a key 1e-3 off a straight line is kept, one 1e-7 off is not */
    for (uint32_t i = 0; i < 10; i++) v[3 * i] = (float)i, v[3 * i + 1] = v[3 * i + 2] = 0;
    v[3 * 4] += 1e-3f, v[3 * 6 + 1] = 1e-7f;
    REQUIRE(kept_times(UE_TARGET_TRANSLATION, v, 10, t) == 5); /* 0, 3, 4, 5, 9 */
    CHECK(fabsf(t[1] - 3) < 1e-3f && fabsf(t[2] - 4) < 1e-3f && fabsf(t[3] - 5) < 1e-3f);
    /* a straight line of 300 keys: runs of at most 256 keys, so 0, 256, 299 */
    for (uint32_t i = 0; i < 300; i++) v[3 * i] = 0.25f * (float)i, v[3 * i + 1] = v[3 * i + 2] = 0;
    REQUIRE(kept_times(UE_TARGET_SCALE, v, 300, t) == 3);
    CHECK(fabsf(t[1] - 256) < 1e-2f);
    /* one value held (a joint's untouched translation, an unturned rotation): the same runs */
    for (uint32_t i = 0; i < 300; i++) v[3 * i] = 1.5f, v[3 * i + 1] = -2, v[3 * i + 2] = 1e6f;
    REQUIRE(kept_times(UE_TARGET_TRANSLATION, v, 300, t) == 3);
    CHECK(fabsf(t[1] - 256) < 1e-2f && fabsf(t[2] - 299) < 1e-2f);
    REQUIRE(kept_times(UE_TARGET_TRANSLATION, v, 256, t) == 2);
    REQUIRE(kept_times(UE_TARGET_TRANSLATION, v, 258, t) == 3);
    for (uint32_t i = 0; i < 300; i++) v[4 * i] = v[4 * i + 1] = v[4 * i + 2] = 0, v[4 * i + 3] = 1;
    REQUIRE(kept_times(UE_TARGET_ROTATION, v, 300, t) == 3);
    CHECK(fabsf(t[1] - 256) < 1e-2f);
    /* a turn about Y at 0.05 rad per frame is one slerp arc; a kink at frame 12 (then 0.1 rad per
     * frame) adds that key */
    for (uint32_t i = 0; i < 20; i++) {
        double h = 0.5 * (i <= 12 ? 0.05 * i : 0.6 + 0.1 * (i - 12));
        v[4 * i] = 0, v[4 * i + 1] = (float)sin(h), v[4 * i + 2] = 0, v[4 * i + 3] = (float)cos(h);
    }
    REQUIRE(kept_times(UE_TARGET_ROTATION, v, 13, t) == 2);
    REQUIRE(kept_times(UE_TARGET_ROTATION, v, 20, t) == 3);
    CHECK(fabsf(t[1] - 12) < 1e-3f);
}

/* The clip resolved once into a flat track list (the baking's path) gives, at every frame and
 * after a jump back, the states of the walk over targets, AObjs and tracks: rotations, Hermite
 * and linear translation and scale, a NODE step track, the clamp of a zero scale, and
 * CLASSICAL_SCALE from the AnimJoint flags (the last target of a joint deciding). */
static void flat_track_list_matches_the_walk(void) {
    build();
    CHECK(ntargets == 8 && clips[2].first_target == 7 && targets[7].joint == 4);
    targets[0].flags = 1; /* joint 0 classical by its AnimJoint in clip 0 */
    targets[7].flags = 1; /* joint 4 too in clip 2, then a second target for it says not (that one wins) */
    targets[8] = targets[7];
    targets[8].flags = 0, targets[8].aobj = -1;
    ntargets = 9, clips[2].target_count = 2;
    model.anims.target_count = ntargets;
    const float frames[] = {0, 0.5f, 1, 2.25f, 3, 4, 6, 7.5f, 9.99f, 10, 13, 19, 20, 21, 5, 6, 25};
    size_t compared = 0, classical = 0, hidden = 0;
    for (size_t c = 0; c < model.anims.clip_count; c++) {
        if (model.anims.clips[c].material) continue;
        hsd_joint_clip plan;
        CHECK(hsd_joint_clip_make(&model, c, &plan));
        for (size_t fi = 0; fi < sizeof frames / sizeof *frames; fi++) {
            hsd_joint_state walk[5], flat[5];
            memset(walk, 0, sizeof walk), memset(flat, 0, sizeof flat);
            hsd_anim_joint_states(&model, c, frames[fi], walk);
            hsd_joint_clip_states(&model, &plan, frames[fi], flat);
            for (size_t j = 0; j < model.joint_count; j++) {
                CHECK(!memcmp(walk[j].rotation, flat[j].rotation, sizeof walk[j].rotation));
                CHECK(!memcmp(walk[j].scale, flat[j].scale, sizeof walk[j].scale));
                CHECK(!memcmp(walk[j].translation, flat[j].translation, sizeof walk[j].translation));
                CHECK(walk[j].visible == flat[j].visible && walk[j].classical_scale == flat[j].classical_scale);
                classical += flat[j].classical_scale, hidden += !flat[j].visible;
                compared++;
            }
        }
        hsd_joint_clip_free(&plan);
    }
    CHECK(compared == 2 * 17 * 5);
    CHECK(classical == 17);  /* joint 0 in clip 0 only; joint 4's second target clears it in clip 2 */
    CHECK(hidden >= 1);      /* J4's NODE track hides it from frame 3 to 6 of clip 2 */
}

int main(int argc, char **argv) {
    out_dir = argc > 1 ? argv[1] : NULL;
    RUN(skeletal_curves_match_the_runtime);
    RUN(end_frames_exact);
    RUN(untracked_subtree_and_zero_scale);
    RUN(colour_drives_every_primitive_of_the_mobj);
    RUN(uv_sign_rule_and_atlas_by_sampling);
    RUN(overflowing_transform_is_rejected);
    RUN(absurd_end_frame_is_refused);
    RUN(clips_share_one_budget);
    RUN(empty_model_refused_before_clips);
    RUN(export_with_and_without_pointers);
    RUN(sample_creature_clips_match_the_runtime);
    RUN(key_reduction_keeps_the_corners);
    RUN(flat_track_list_matches_the_walk);
    fprintf(stderr, "largest world-matrix error of the sheared joint (bounded): %.3g\n", worst_shear_error);
    return TEST_SUMMARY();
}
