/* unearth tests — a joint's TRS straight from its SRT (hsd_srt_to_trs) against the decomposition of
 * its matrix: translation and scale bit for bit, the quaternion no farther from the true rotation. */
#include <math.h>
#include <stdlib.h>

#include "../../bench/hsd_big_model.h"
#include "hsd/hsd_anim_eval.h"
#include "hsd/hsd_pose.h"
#include "hsd/hsd_to_scene.h"
#include "test.h"
#include "unearth/hsd.h"
#include "unearth/hsd_model.h"

/* The true rotation's quaternion, independently of both ways under test: R = Rz·Ry·Rx built in
 * long double (64-bit mantissa: its error is far below a float's last bit) from the full angles,
 * turned into a quaternion by the largest of 4w², 4x², 4y², 4z² (1 ± the trace terms), and signed
 * towards `hemisphere`. */
static void reference_quat(const float euler[3], const float hemisphere[4], long double q[4]) {
    long double sx = sinl(euler[0]), cx = cosl(euler[0]), sy = sinl(euler[1]), cy = cosl(euler[1]);
    long double sz = sinl(euler[2]), cz = cosl(euler[2]);
    long double r00 = cz * cy, r01 = cz * sy * sx - sz * cx, r02 = cz * sy * cx + sz * sx;
    long double r10 = sz * cy, r11 = sz * sy * sx + cz * cx, r12 = sz * sy * cx - sx * cz;
    long double r20 = -sy, r21 = cy * sx, r22 = cy * cx;
    long double w4 = 1 + r00 + r11 + r22, x4 = 1 + r00 - r11 - r22, y4 = 1 - r00 + r11 - r22, z4 = 1 - r00 - r11 + r22;
    if (w4 >= x4 && w4 >= y4 && w4 >= z4) {
        long double w = sqrtl(w4) / 2;
        q[3] = w, q[0] = (r21 - r12) / (4 * w), q[1] = (r02 - r20) / (4 * w), q[2] = (r10 - r01) / (4 * w);
    } else if (x4 >= y4 && x4 >= z4) {
        long double x = sqrtl(x4) / 2;
        q[0] = x, q[3] = (r21 - r12) / (4 * x), q[1] = (r01 + r10) / (4 * x), q[2] = (r02 + r20) / (4 * x);
    } else if (y4 >= z4) {
        long double y = sqrtl(y4) / 2;
        q[1] = y, q[3] = (r02 - r20) / (4 * y), q[0] = (r01 + r10) / (4 * y), q[2] = (r12 + r21) / (4 * y);
    } else {
        long double z = sqrtl(z4) / 2;
        q[2] = z, q[3] = (r10 - r01) / (4 * z), q[0] = (r02 + r20) / (4 * z), q[1] = (r12 + r21) / (4 * z);
    }
    long double d = 0;
    for (int k = 0; k < 4; k++) d += q[k] * hemisphere[k];
    if (d < 0)
        for (int k = 0; k < 4; k++) q[k] = -q[k];
}

/* |f − ref| in units of the float step at ref (the step of the smallest normal float below that). */
static double ulp_error(float f, long double ref) {
    float r = fabsf((float)ref);
    if (r < 1.17549435e-38f) r = 1.17549435e-38f;
    double step = (double)nextafterf(r, INFINITY) - r;
    return (double)fabsl((long double)f - ref) / step;
}

typedef struct tally {
    size_t cases, differ, old_worse, new_worse;
    double worst_old, worst_new;
} tally;

/* One SRT both ways: the direct TRS is taken (the scale is in its range), t and s are the
 * decomposition's bits, q lies in the same hemisphere, and per component the direct error is at
 * most the decomposition's or at most one float step. */
static void check_srt(const float rot[3], const float scale[3], const float trans[3], tally *t) {
    double local[16], scl[3];
    bool has;
    float t0[3], q0[4], s0[3], t1[3], q1[4], s1[3];
    hsd_joint_local(rot, scale, trans, false, NULL, local, scl, &has);
    hsd_local_to_trs_unchecked(local, t0, q0, s0);
    CHECK(hsd_srt_to_trs(rot, scale, trans, t1, q1, s1));
    CHECK(memcmp(t0, t1, sizeof t0) == 0 && memcmp(s0, s1, sizeof s0) == 0);
    long double ref[4];
    reference_quat(rot, q0, ref);
    double dot = 0;
    for (int k = 0; k < 4; k++) dot += (double)q0[k] * q1[k];
    CHECK(dot > 0.99);
    t->cases++;
    t->differ += memcmp(q0, q1, sizeof q0) != 0;
    for (int k = 0; k < 4; k++) {
        double e0 = ulp_error(q0[k], ref[k]), e1 = ulp_error(q1[k], ref[k]);
        if (!(e1 <= e0 || e1 <= 1.0)) {
            printf("  rot (%.9g %.9g %.9g) component %d: direct %.9g (%.3g steps), decomposed %.9g (%.3g steps)\n",
                   rot[0], rot[1], rot[2], k, q1[k], e1, q0[k], e0);
            CHECK(e1 <= e0 || e1 <= 1.0);
        }
        t->old_worse += e0 > e1, t->new_worse += e1 > e0;
        t->worst_old = fmax(t->worst_old, e0), t->worst_new = fmax(t->worst_new, e1);
    }
}

static void report(const char *what, const tally *t) {
    printf("  %s: %zu rotations, %zu quaternions differ; a component nearer the reference: direct %zu, "
           "decomposed %zu; worst error direct %.3g, decomposed %.3g float steps\n",
           what, t->cases, t->differ, t->old_worse, t->new_worse, t->worst_new, t->worst_old);
}

/* Every joint of the bench's real-size model at every frame of its 24 clips, as the clips bake it. */
static void test_bench_model_joints(void) {
    ue_buf buf = {0};
    CHECK(hsd_big_model_dat(&HSD_BIG_REAL, &buf) == UE_OK);
    ue_dat dat;
    ue_hsd_model m;
    ue_diag d = {0};
    CHECK(ue_dat_parse(buf.data, buf.size, UE_MODE_STRICT, &dat, &d) == UE_OK);
    CHECK(ue_hsd_model_read(&dat, UE_MODE_STRICT, &m, &d) == UE_OK);
    CHECK(m.anims.clip_count == 24 && m.joint_count == 48);
    tally t = {0};
    hsd_joint_state *states = calloc(m.joint_count, sizeof *states);
    for (size_t c = 0; c < m.anims.clip_count; c++) {
        size_t tracks = hsd_anim_clip_tracks(&m, c);
        hsd_key_cursor *cursors = calloc(tracks ? tracks : 1, sizeof *cursors);
        for (size_t k = 0; k < tracks; k++) hsd_key_cursor_reset(&cursors[k]);
        for (float f = 0; f <= m.anims.clips[c].end_frame; f++) {
            hsd_anim_joint_states_at(&m, c, f, cursors, states);
            for (size_t j = 0; j < m.joint_count; j++)
                check_srt(states[j].rotation, states[j].scale, states[j].translation, &t);
        }
        free(cursors);
    }
    report("bench model", &t);
    CHECK(t.cases > 100000);
    free(states);
    ue_hsd_model_free(&m);
    ue_dat_free(&dat);
    ue_diag_free(&d);
    free(buf.data);
}

/* Constructed rotations: every combination of angles around the places where a decomposition
 * loses digits (0, small, ±π/2 where Y locks X and Z, π where w vanishes, large multiples of 2π),
 * then random angles and scales (negative z too: a mirror the decomposition keeps in the scale). */
static void test_constructed(void) {
    static const float angles[] = {0,       1e-7f,    -3e-5f,   0.01f,       0.5f,    -1.0f, 1.5707963f, -1.5707964f,
                                   2.0943951f, 3.1415927f, -3.1415925f, 4.712389f, 6.2831855f, 100.0f, -1234.5f};
    const size_t n = sizeof angles / sizeof *angles;
    const float scale[3] = {1, 1, 1}, trans[3] = {0.5f, -2, 3};
    tally t = {0};
    for (size_t a = 0; a < n; a++)
        for (size_t b = 0; b < n; b++)
            for (size_t c = 0; c < n; c++) {
                float rot[3] = {angles[a], angles[b], angles[c]};
                check_srt(rot, scale, trans, &t);
            }
    report("angle grid", &t);
    tally r = {0};
    uint32_t seed = 12345;
    for (int i = 0; i < 200000; i++) {
        float v[6];
        for (int k = 0; k < 6; k++) seed = seed * 1664525u + 1013904223u, v[k] = (float)(seed >> 8) / 16777216.0f;
        float rot[3] = {(v[0] - 0.5f) * 7, (v[1] - 0.5f) * 7, (v[2] - 0.5f) * 7};
        float sc[3] = {0.01f + v[3] * 4, 0.01f + v[4] * 4, (v[5] - 0.5f) * 6};
        if (sc[2] == 0) sc[2] = 1;
        check_srt(rot, sc, trans, &r);
    }
    report("random", &r);
}

/* Where the decomposition would turn axes or fall back, the direct way declines. */
static void test_declines(void) {
    const float rot[3] = {0.1f, 0.2f, 0.3f}, trans[3] = {0, 0, 0};
    float t[3], q[4], s[3];
    const float negative_x[3] = {-1, 1, 1}, zero_y[3] = {1, 0, 1}, zero_z[3] = {1, 1, 0}, ok[3] = {1, 1, -1};
    CHECK(!hsd_srt_to_trs(rot, negative_x, trans, t, q, s));
    CHECK(!hsd_srt_to_trs(rot, zero_y, trans, t, q, s));
    CHECK(!hsd_srt_to_trs(rot, zero_z, trans, t, q, s));
    CHECK(hsd_srt_to_trs(rot, ok, trans, t, q, s));
    const float nan_rot[3] = {NAN, 0, 0};
    CHECK(!hsd_srt_to_trs(nan_rot, ok, trans, t, q, s));
    const double uniform[3] = {2, 2, 2}, skewed[3] = {1, 2, 1};
    CHECK(!hsd_joint_compensates(NULL) && !hsd_joint_compensates(uniform) && hsd_joint_compensates(skewed));
}

int main(void) {
    RUN(test_bench_model_joints);
    RUN(test_constructed);
    RUN(test_declines);
    return TEST_SUMMARY();
}
