/* unearth tests — edit-mode clips (src/hsd/hsd_import_clips.c): quaternion → HSD Euler angles with
 * continuity against angles made into quaternions by the scene layer's own product of axis turns, and
 * the key fit read back through the key codec and evaluated by the runtime's rules at every frame. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "hsd/hsd_import_int.h"
#include "unearth/hsd_anim.h"
#include "unearth/scene.h"

#define PI 3.141592653589793

/* A path that winds X through several turns, swings Y and unwinds Z: consecutive frames 0.05 to
 * 0.12 rad apart, every sign of the quaternion flipped on odd frames. Each frame's angles come back
 * exactly (within 1e-9), not wrapped into (-π, π]. */
static void test_unwrap(void) {
    double near[3] = {-1.0, 0.0, 2.0};
    int exact = 0;
    for (int f = 0; f <= 240; f++) {
        double want[3] = {-1.0 + 0.06 * f, 0.7 * sin(f / 20.0), 2.0 - 0.05 * f}, q[4], got[3];
        ue_euler_to_quat(want, UE_EULER_XYZ, q); /* R = Rz · Ry · Rx, the joints' order */
        if (f % 2)
            for (int k = 0; k < 4; k++) q[k] = -q[k];
        hsd_quat_to_euler_near(q, near, got);
        exact += fabs(got[0] - want[0]) < 1e-9 && fabs(got[1] - want[1]) < 1e-9 && fabs(got[2] - want[2]) < 1e-9;
        memcpy(near, got, sizeof near);
    }
    CHECK_EQ_U(exact, 241);
    CHECK(near[0] > 13.0 && near[2] < -9.0); /* 14.4 and -10: past two turns, no wrap */
}

/* Of the two angle sets of one rotation, the one nearer `near`: (a + π, π − b, c + π) is chosen
 * when near lies there. At gimbal lock (Y = ±π/2) X keeps near's angle and the rotation is kept. */
static void test_branches(void) {
    double want[3] = {0.4, 0.3, -0.2}, q[4], got[3];
    ue_euler_to_quat(want, UE_EULER_XYZ, q);
    double other[3] = {0.4 + PI, PI - 0.3, -0.2 + PI};
    hsd_quat_to_euler_near(q, other, got);
    CHECK(fabs(got[0] - other[0]) < 1e-9 && fabs(got[1] - other[1]) < 1e-9 && fabs(got[2] - other[2]) < 1e-9);
    double lock[3] = {0.9, PI / 2, 0.3}, near[3] = {0.5, 1.5, 0.0}, back[4];
    ue_euler_to_quat(lock, UE_EULER_XYZ, q);
    hsd_quat_to_euler_near(q, near, got);
    CHECK(fabs(got[0] - 0.5) < 1e-12 && fabs(got[1] - PI / 2) < 1e-6);
    ue_euler_to_quat(got, UE_EULER_XYZ, back);
    double dot = 0;
    for (int k = 0; k < 4; k++) dot += q[k] * back[k];
    CHECK(fabs(fabs(dot) - 1) < 1e-9);
}

/* The fitted keys, encoded, decoded and evaluated as the game does, at every frame against the
 * samples; returns the largest error over the bound (≤ 1 passes) and counts the keys and SPL keys. */
static double fit_error(const float *v, uint32_t n, size_t *keys_out, size_t *splines) {
    ue_hsd_key *keys = NULL, *back = NULL;
    size_t count = 0, back_count = 0;
    ue_buf bytes = {0};
    ue_diag d = {0};
    double worst = INFINITY;
    if (hsd_fit_keys(v, n, &keys, &count) == UE_OK &&
        ue_hsd_keys_encode(keys, count, UE_HSD_FMT_FLOAT, UE_HSD_FMT_FLOAT, &bytes) == UE_OK &&
        ue_hsd_keys_decode(bytes.data, bytes.size, UE_HSD_FMT_FLOAT, UE_HSD_FMT_FLOAT, UE_MODE_STRICT, &back,
                           &back_count, &d, "test", 0) == UE_OK) {
        worst = 0;
        for (uint32_t f = 0; f < n; f++) {
            float got;
            if (!ue_hsd_keys_eval(back, back_count, 0, (float)f, &got)) return INFINITY;
            worst = fmax(worst, fabs((double)got - v[f]) / hsd_clip_error_bound(v[f]));
        }
    }
    *keys_out = *splines = 0;
    for (size_t k = 0; k < count; k++) {
        *keys_out += keys[k].op != UE_HSD_KEY_SLP;
        *splines += keys[k].op == UE_HSD_KEY_SPL;
    }
    free(keys), free(back);
    ue_buf_free(&bytes);
    ue_diag_free(&d);
    return worst;
}

static void test_fit(void) {
    enum { N = 241 };
    float v[N];
    size_t keys, splines;
    /* A straight ramp: two keys, both linear. */
    for (int f = 0; f < N; f++) v[f] = 0.25f + 0.01f * (float)f;
    CHECK(fit_error(v, N, &keys, &splines) <= 1.0);
    CHECK_EQ_U(keys, 3); /* 0, 120 (the longest segment), 240 */
    CHECK_EQ_U(splines, 0);
    /* A smooth swing: Hermite segments, far fewer keys than frames, within the bound everywhere. */
    for (int f = 0; f < N; f++) v[f] = (float)(1.3 * sin(f / 25.0));
    CHECK(fit_error(v, N, &keys, &splines) <= 1.0);
    CHECK(keys < N / 4 && splines > 0);
    /* A ramp, a hold and a jump (a curve neither form reproduces across the jump): still within. */
    for (int f = 0; f < N; f++) v[f] = f < 60 ? 0.05f * (float)f : f < 150 ? 3.0f : -2.0f + 0.001f * (float)(f * f);
    CHECK(fit_error(v, N, &keys, &splines) <= 1.0);
    /* One frame only: one key. */
    CHECK(fit_error(v, 1, &keys, &splines) <= 1.0);
    CHECK_EQ_U(keys, 1);
}

int main(void) {
    RUN(test_unwrap);
    RUN(test_branches);
    RUN(test_fit);
    return TEST_SUMMARY();
}
