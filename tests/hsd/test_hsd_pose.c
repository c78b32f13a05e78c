/* unearth tests — HSD joint matrices (docs/formats/hsd-model.md#joint-matrices) and skinning (docs/formats/hsd-model.md#skinning) against products worked
 * out by hand in the comments below: a 3-joint chain, classical and compensated scale. */
#include <math.h>

#include "hsd/hsd_pose.h"
#include "hsd/hsd_to_scene.h"
#include "test.h"

#define PI_2 1.57079632679489661923f

/* The chain (column vectors, v' = M·v):
 *   J0 root: rotation Z 90° (x → y, y → −x), translation (1, 2, 3), scale 1
 *   J1 child of J0: scale (2, 1, 0.5), translation (0, 1, 0)
 *   J2 child of J1: rotation X 90° (y → z, z → −y), translation (1, 0, 0), scale 1
 * Compensated (docs/formats/hsd-model.md#joint-matrices): scl(J0) = 1, so L1 = [diag(2, 1, .5) | (0, 1, 0)] and
 *   W1 = [[0,-1,0],[2,0,0],[0,0,.5]] | (0, 2, 3).
 *   scl(J1) = (2, 1, .5) = P for J2: L2(i,k) = Rx(i,k)·p_k/p_i = [[1,0,0],[0,0,-.5],[0,2,0]],
 *   W2 = W1·L2 = [[0,0,.5],[2,0,0],[0,1,0]] | W1·(1,0,0) = (0, 4, 3).
 * Classical J1 (CLASSICAL_SCALE): scl(J1) = scl(J0) = 1, so L2 = Rx and
 *   W2 = [[0,-1,0],[2,0,0],[0,0,.5]]·Rx = [[0,0,1],[2,0,0],[0,.5,0]] | (0, 4, 3). */
static ue_hsd_joint joints[3];
static ue_hsd_model model;

static void chain(uint32_t j1_flags) {
    memset(joints, 0, sizeof joints);
    memset(&model, 0, sizeof model);
    for (int j = 0; j < 3; j++) {
        joints[j].parent = j - 1;
        joints[j].first_child = j < 2 ? j + 1 : -1;
        joints[j].next_sibling = -1;
        joints[j].first_dobj = -1;
        joints[j].offset = 0x40u * (uint32_t)j;
        for (int k = 0; k < 3; k++) joints[j].scale[k] = 1;
    }
    joints[0].rotation[2] = PI_2;
    joints[0].translation[0] = 1, joints[0].translation[1] = 2, joints[0].translation[2] = 3;
    joints[1].scale[0] = 2, joints[1].scale[2] = 0.5f;
    joints[1].translation[1] = 1;
    joints[1].flags = j1_flags;
    joints[2].rotation[0] = PI_2;
    joints[2].translation[0] = 1;
    model.joints = joints;
    model.joint_count = 3;
}

/* rows: the 3×3 row by row, then the translation */
static void check_matrix(const double *m, const double rows[9], const double t[3], int line) {
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 3; c++)
            if (fabs(m[c * 4 + r] - rows[r * 3 + c]) > 1e-6) {
                fprintf(stderr, "line %d: element (%d,%d) = %.9g, expected %.9g\n", line, r, c, m[c * 4 + r], rows[r * 3 + c]);
                ue_test_failed_checks++;
            }
        if (fabs(m[12 + r] - t[r]) > 1e-6) {
            fprintf(stderr, "line %d: translation %d = %.9g, expected %.9g\n", line, r, m[12 + r], t[r]);
            ue_test_failed_checks++;
        }
        if (fabs(m[r * 4 + 3] - (r == 3)) > 0) ue_test_failed_checks++;
    }
}

static void check_vec(const float *v, double x, double y, double z, int line) {
    if (fabs(v[0] - x) > 1e-5 || fabs(v[1] - y) > 1e-5 || fabs(v[2] - z) > 1e-5) {
        fprintf(stderr, "line %d: (%.7g, %.7g, %.7g), expected (%.7g, %.7g, %.7g)\n", line, v[0], v[1], v[2], x, y, z);
        ue_test_failed_checks++;
    }
}

static void test_world_compensated(void) {
    chain(0);
    hsd_pose p;
    ue_diag d = {0};
    REQUIRE(hsd_pose_compute(&model, UE_MODE_STRICT, &p, &d) == UE_OK);
    check_matrix(&p.world[0], (const double[9]){0, -1, 0, 1, 0, 0, 0, 0, 1}, (const double[3]){1, 2, 3}, __LINE__);
    check_matrix(&p.world[16], (const double[9]){0, -1, 0, 2, 0, 0, 0, 0, .5}, (const double[3]){0, 2, 3}, __LINE__);
    check_matrix(&p.local[32], (const double[9]){1, 0, 0, 0, 0, -.5, 0, 2, 0}, (const double[3]){1, 0, 0}, __LINE__);
    check_matrix(&p.world[32], (const double[9]){0, 0, .5, 2, 0, 0, 0, 1, 0}, (const double[3]){0, 4, 3}, __LINE__);
    CHECK(p.has_scl[2] && p.scl[6] == 2 && p.scl[7] == 1 && p.scl[8] == 0.5);
    hsd_pose_free(&p);
    ue_diag_free(&d);
}

static void test_world_classical(void) {
    chain(UE_JOBJ_CLASSICAL_SCALE);
    hsd_pose p;
    REQUIRE(hsd_pose_compute(&model, UE_MODE_STRICT, &p, NULL) == UE_OK);
    check_matrix(&p.world[16], (const double[9]){0, -1, 0, 2, 0, 0, 0, 0, .5}, (const double[3]){0, 2, 3}, __LINE__);
    check_matrix(&p.world[32], (const double[9]){0, 0, 1, 2, 0, 0, 0, .5, 0}, (const double[3]){0, 4, 3}, __LINE__);
    CHECK(p.scl[3] == 1 && p.scl[4] == 1 && p.scl[5] == 1);
    hsd_pose_free(&p);
}

/* An inverse bind as stored (3×4 rows): a translation. */
static void set_ib_translation(ue_hsd_joint *j, float x, float y, float z) {
    memset(j->inverse_bind, 0, sizeof j->inverse_bind);
    j->inverse_bind[0] = j->inverse_bind[5] = j->inverse_bind[10] = 1;
    j->inverse_bind[3] = x, j->inverse_bind[7] = y, j->inverse_bind[11] = z;
    j->has_inverse_bind = true;
}

static ue_hsd_pobj pobj;
static ue_hsd_envelope envelopes[2];
static ue_hsd_weight weights[3];

/* E[0] = {J2: 1}, E[1] = {J1: .25, J2: .75}; IB(J1) = T(−1, 0, 0), IB(J2) = T(0, 0, −1). */
static void envelope_model(uint32_t owner_flags, int owner) {
    chain(0);
    joints[0].flags = owner == 0 ? owner_flags : UE_JOBJ_SKELETON_ROOT;
    if (owner != 0) joints[owner].flags |= owner_flags;
    joints[1].flags |= UE_JOBJ_SKELETON, joints[2].flags |= UE_JOBJ_SKELETON;
    set_ib_translation(&joints[1], -1, 0, 0);
    set_ib_translation(&joints[2], 0, 0, -1);
    weights[0] = (ue_hsd_weight){2, 1.0f};
    weights[1] = (ue_hsd_weight){1, 0.25f};
    weights[2] = (ue_hsd_weight){2, 0.75f};
    envelopes[0] = (ue_hsd_envelope){0x100, 0, 1};
    envelopes[1] = (ue_hsd_envelope){0x110, 1, 2};
    memset(&pobj, 0, sizeof pobj);
    pobj.flags = UE_POBJ_ENVELOPE;
    pobj.next = -1;
    pobj.skin_joint = -1;
    pobj.env_first = 0, pobj.env_count = 2;
    model.pobjs = &pobj, model.pobj_count = 1;
    model.envelopes = envelopes, model.envelope_count = 2;
    model.weights = weights, model.weight_count = 3;
}

/* Rigid: v = (1, 1, 1) in J2's space → W2·v = (.5, 2, 1) + (0, 4, 3) = (.5, 6, 4). The normal
 * (1, 0, 1) of J1 goes through W1's inverse transpose Rz·diag(1/2, 1, 2): (.5, 0, 2) → Rz →
 * (0, .5, 2), normalised (0, 0.2425356, 0.9701425). */
static void test_rigid(void) {
    chain(0);
    memset(&pobj, 0, sizeof pobj);
    pobj.skin_joint = -1;
    model.pobjs = &pobj, model.pobj_count = 1;
    hsd_pose p;
    REQUIRE(hsd_pose_compute(&model, UE_MODE_STRICT, &p, NULL) == UE_OK);
    hsd_pobj_skin sk;
    REQUIRE(hsd_pobj_skin_compute(&model, &p, 0, 2, UE_MODE_STRICT, "t", &sk, NULL) == UE_OK);
    CHECK(sk.slot[0].used && !sk.slot[1].used && sk.slot[0].count == 1 && sk.slot[0].joint[0] == 2);
    float out[3];
    hsd_skin_point(&sk.slot[0], (const float[3]){1, 1, 1}, out);
    check_vec(out, 0.5, 6, 4, __LINE__);
    REQUIRE(hsd_pobj_skin_compute(&model, &p, 0, 1, UE_MODE_STRICT, "t", &sk, NULL) == UE_OK);
    CHECK(hsd_skin_normal(&sk.slot[0], (const float[3]){1, 0, 1}, out));
    check_vec(out, 0, 0.2425356, 0.9701425, __LINE__);
    /* The shared-vertex joint J (PObj +0x14) is slot 1 (PNMTXIDX 3): W(J). */
    pobj.skin_joint = 0;
    REQUIRE(hsd_pobj_skin_compute(&model, &p, 0, 2, UE_MODE_STRICT, "t", &sk, NULL) == UE_OK);
    hsd_skin_point(&sk.slot[1], (const float[3]){1, 0, 0}, out);
    check_vec(out, 1, 3, 3, __LINE__); /* Rz·(1,0,0) = (0,1,0), + (1,2,3) */
    hsd_pose_free(&p);
}

/* SKELETON_ROOT owner (J0): no R. E[0] single weight → M = W2 (bone-local vertices): (1,1,1) →
 * (.5, 6, 4). E[1] → .25·W1·IB1·v + .75·W2·IB2·v: W1·(0,1,1) = (−1, 2, 3.5), W2·(1,1,0) =
 * (0, 6, 4), so (−.25, 5, 3.875). */
static void test_envelope_skeleton_root(void) {
    envelope_model(UE_JOBJ_SKELETON_ROOT, 0);
    hsd_pose p;
    REQUIRE(hsd_pose_compute(&model, UE_MODE_STRICT, &p, NULL) == UE_OK);
    hsd_pobj_skin sk;
    ue_diag d = {0};
    REQUIRE(hsd_pobj_skin_compute(&model, &p, 0, 0, UE_MODE_STRICT, "t", &sk, &d) == UE_OK);
    float out[3];
    hsd_skin_point(&sk.slot[0], (const float[3]){1, 1, 1}, out);
    check_vec(out, 0.5, 6, 4, __LINE__);
    hsd_skin_point(&sk.slot[1], (const float[3]){1, 1, 1}, out);
    check_vec(out, -0.25, 5, 3.875, __LINE__);
    CHECK(sk.slot[1].count == 2 && sk.slot[1].joint[0] == 1 && sk.slot[1].joint[1] == 2);
    CHECK(fabsf(sk.slot[1].weight[0] - 0.25f) < 1e-7f && fabsf(sk.slot[1].weight[1] - 0.75f) < 1e-7f);
    CHECK(!sk.slot[2].used);
    CHECK(d.count == 0);
    hsd_pose_free(&p);
    ue_diag_free(&d);
}

/* Owner J1 (no skeleton flag) under the SKELETON_ROOT J0: R = inv(W0)·W1. E[0] single weight →
 * M = W2·IB2·R: W1·(1,1,1) = (−1, 4, 3.5); inv(W0): −(1,2,3) → (−2, 2, .5), Rz(−90°) →
 * (2, 2, .5); IB2 → (2, 2, −.5); W2 → (−.25, 4, 2) + (0, 4, 3) = (−.25, 8, 5). */
static void test_envelope_right_matrix(void) {
    envelope_model(0, 1);
    joints[1].flags = 0;
    hsd_pose p;
    REQUIRE(hsd_pose_compute(&model, UE_MODE_STRICT, &p, NULL) == UE_OK);
    hsd_pobj_skin sk;
    REQUIRE(hsd_pobj_skin_compute(&model, &p, 0, 1, UE_MODE_STRICT, "t", &sk, NULL) == UE_OK);
    float out[3];
    hsd_skin_point(&sk.slot[0], (const float[3]){1, 1, 1}, out);
    check_vec(out, -0.25, 8, 5, __LINE__);
    hsd_pose_free(&p);
}

/* Owner J1 is itself a SKELETON joint: R = inv(IB(J1)) = T(1, 0, 0). E[0] → W2·IB2·R: (1,1,1) →
 * (2, 1, 1) → (2, 1, 0) → W2: (0, 4, 1) + (0, 4, 3) = (0, 8, 4). */
static void test_envelope_owner_is_skeleton(void) {
    envelope_model(0, 1);
    hsd_pose p;
    REQUIRE(hsd_pose_compute(&model, UE_MODE_STRICT, &p, NULL) == UE_OK);
    hsd_pobj_skin sk;
    REQUIRE(hsd_pobj_skin_compute(&model, &p, 0, 1, UE_MODE_STRICT, "t", &sk, NULL) == UE_OK);
    float out[3];
    hsd_skin_point(&sk.slot[0], (const float[3]){1, 1, 1}, out);
    check_vec(out, 0, 8, 4, __LINE__);
    hsd_pose_free(&p);
}

static void test_bad_values(void) {
    chain(0);
    joints[1].rotation[1] = NAN;
    hsd_pose p;
    ue_diag d = {0};
    CHECK(hsd_pose_compute(&model, UE_MODE_STRICT, &p, &d) == UE_ERR_INVALID);
    const ue_diag_item *it = diag_find(&d, "hsd.pose.nan", "dat/joint[1]");
    CHECK(it && it->offset == 0x40 + UE_DAT_HEADER);
    hsd_pose_free(&p);
    ue_diag_free(&d);
    /* Tolerant: the rotation is taken as 0 and the chain goes on as if it were. */
    CHECK(hsd_pose_compute(&model, UE_MODE_TOLERANT, &p, NULL) == UE_OK);
    check_matrix(&p.world[32], (const double[9]){0, 0, .5, 2, 0, 0, 0, 1, 0}, (const double[3]){0, 4, 3}, __LINE__);
    hsd_pose_free(&p);
    /* An envelope weight naming no joint. */
    envelope_model(UE_JOBJ_SKELETON_ROOT, 0);
    weights[2].joint = 7;
    REQUIRE(hsd_pose_compute(&model, UE_MODE_STRICT, &p, NULL) == UE_OK);
    hsd_pobj_skin sk;
    CHECK(hsd_pobj_skin_compute(&model, &p, 0, 0, UE_MODE_STRICT, "dat/joint[0]/dobj[0]/pobj[0]", &sk, &d) ==
          UE_ERR_INVALID);
    CHECK(diag_has(&d, "hsd.skin.weight", "dat/joint[0]/dobj[0]/pobj[0]/envelope[1]"));
    CHECK(hsd_pobj_skin_compute(&model, &p, 0, 0, UE_MODE_TOLERANT, "t", &sk, NULL) == UE_OK);
    CHECK(sk.slot[0].used && !sk.slot[1].used);
    hsd_pose_free(&p);
    ue_diag_free(&d);
}

/* Local matrices as node TRS: exact for R·S; a compensated child of a non-uniform parent under a
 * 45° rotation has sheared columns (c0·c1 = 1.5·cos·sin ≠ 0) and is reported as not exact. */
static void test_trs(void) {
    chain(0);
    hsd_pose p;
    REQUIRE(hsd_pose_compute(&model, UE_MODE_STRICT, &p, NULL) == UE_OK);
    float t[3], q[4], s[3];
    CHECK(hsd_local_to_trs(&p.local[16], t, q, s));
    check_vec(s, 2, 1, 0.5, __LINE__);
    CHECK(fabsf(q[3]) > 0.9999999f);
    CHECK(hsd_local_to_trs(&p.local[0], t, q, s));
    check_vec(t, 1, 2, 3, __LINE__);
    check_vec(q, 0, 0, 0.70710678, __LINE__); /* Z 90°: (0, 0, sin 45°, cos 45°) */
    hsd_pose_free(&p);
    joints[2].rotation[0] = 0, joints[2].rotation[2] = PI_2 / 2;
    REQUIRE(hsd_pose_compute(&model, UE_MODE_STRICT, &p, NULL) == UE_OK);
    CHECK(!hsd_local_to_trs(&p.local[32], t, q, s));
    hsd_pose_free(&p);
}

/* A parent of uniform scale compensates nothing (p_k / p_i = 1): the local matrix is bit for bit
 * the one without a parent, and the accumulated scale is the product. A non-uniform parent gives
 * element (i, k) = R_ik · s_k · p_k / p_i: with R = I, s = (1, 3, 1) and P = (1, 2, 4), the diagonal
 * (1, 3, 1) and nothing off it; under Z 90° (R = [[0,-1,0],[1,0,0],[0,0,1]]) element (0, 1) is
 * −1·3·2/1 = −6 and element (1, 0) is 1·1·1/2 = 0.5. */
static void test_joint_local_parent_scale(void) {
    const float rot[3] = {0.3f, -1.1f, 2.5f}, scale[3] = {1.5f, 0.75f, 2.0f}, trans[3] = {1, 2, 3};
    const double uniform[3] = {2.5, 2.5, 2.5};
    double alone[16], under[16], scl[3], scl2[3];
    bool has, has2;
    hsd_joint_local(rot, scale, trans, false, NULL, alone, scl, &has);
    hsd_joint_local(rot, scale, trans, false, uniform, under, scl2, &has2);
    CHECK(memcmp(alone, under, sizeof alone) == 0);
    CHECK(has && has2 && scl2[0] == 1.5 * 2.5 && scl2[1] == 0.75 * 2.5 && scl2[2] == 2.0 * 2.5);
    const double p[3] = {1, 2, 4};
    const float none[3] = {0, 0, 0}, s[3] = {1, 3, 1}, z90[3] = {0, 0, PI_2};
    double l[16];
    hsd_joint_local(none, s, trans, false, p, l, scl, &has);
    CHECK(l[0] == 1 && l[5] == 3 && l[10] == 1 && l[4] == 0 && l[1] == 0 && l[15] == 1 && l[3] == 0);
    hsd_joint_local(z90, s, trans, false, p, l, scl, &has);
    CHECK(fabs(l[4] - -6.0) < 1e-6 && fabs(l[1] - 0.5) < 1e-6 && fabs(l[0]) < 1e-6 && l[12] == 1 && l[14] == 3);
}

/* The clips' decomposition is the nodes' one without the exactness check: the same floats, also
 * for a sheared matrix the check refuses. */
static void test_trs_unchecked(void) {
    const double sheared[16] = {1, 0.5, 0, 0, 0.25, 2, 0.1, 0, 0.3, -0.2, 0.5, 0, 4, 5, 6, 1};
    float t[3], q[4], s[3], t2[3], q2[4], s2[3];
    CHECK(!hsd_local_to_trs(sheared, t, q, s));
    hsd_local_to_trs_unchecked(sheared, t2, q2, s2);
    CHECK(memcmp(t, t2, sizeof t) == 0 && memcmp(q, q2, sizeof q) == 0 && memcmp(s, s2, sizeof s) == 0);
    check_vec(t2, 4, 5, 6, __LINE__);
}

static void test_names(void) {
    char out[64];
    hsd_name_utf8("Bone_01", out, sizeof out);
    CHECK_STR(out, "Bone_01");
    hsd_name_utf8("\x83\x7B\x81\x5B\x83\x93", out, sizeof out); /* ボーン in Shift-JIS */
    CHECK_STR(out, "\xE3\x83\x9C\xE3\x83\xBC\xE3\x83\xB3");
    hsd_name_utf8("a\xFF" "b", out, sizeof out); /* 0xFF is no Shift-JIS lead byte */
    CHECK_STR(out, "a\\xFFb");
}

int main(void) {
    RUN(test_world_compensated);
    RUN(test_world_classical);
    RUN(test_rigid);
    RUN(test_envelope_skeleton_root);
    RUN(test_envelope_right_matrix);
    RUN(test_envelope_owner_is_skeleton);
    RUN(test_bad_values);
    RUN(test_trs);
    RUN(test_joint_local_parent_scale);
    RUN(test_trs_unchecked);
    RUN(test_names);
    return TEST_SUMMARY();
}
