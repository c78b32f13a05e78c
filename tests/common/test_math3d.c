/* Tests of the shared 3D math against independent computations: a matrix times its inverse is
 * the identity, normals stay perpendicular to transformed surfaces, quaternions compose. */
#include <math.h>
#include <string.h>

#include "common/math3d.h"
#include "test.h"

static const double PI = 3.14159265358979323846;

static bool near(double a, double b, double tol) { return fabs(a - b) <= tol; }

/* A rotation of 30° about Z, a non-uniform scale (2, 3, 0.5) and a translation (1, -2, 4). */
static void sample_trs(float m[16]) {
    double c = cos(PI / 6), s = sin(PI / 6);
    float r[16] = {(float)(2 * c), (float)(2 * s), 0, 0, (float)(-3 * s), (float)(3 * c), 0, 0,
                   0, 0, 0.5f, 0, 1, -2, 4, 1};
    memcpy(m, r, sizeof r);
}

static void inverse_times_matrix_is_identity(void) {
    float m[16], inv[16], prod[16];
    sample_trs(m);
    REQUIRE(ue_mat4_invert(m, inv));
    ue_mat4_mul(m, inv, prod);
    for (int i = 0; i < 16; i++) CHECK(near(prod[i], i % 5 == 0 ? 1.0 : 0.0, 1e-6));
    float singular[16] = {1, 2, 3, 0, 2, 4, 6, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    CHECK(!ue_mat4_invert(singular, inv));
    float nan_m[16] = {NAN, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    CHECK(!ue_mat4_invert(nan_m, inv));
}

static void points_and_mirrors(void) {
    float m[16];
    sample_trs(m);
    double p[3];
    ue_mat4_transform_point(m, (const float[3]){1, 0, 0}, p);
    /* x axis scaled by 2 and turned 30°: (2cos30 + 1, 2sin30 − 2, 4) */
    CHECK(near(p[0], 2 * cos(PI / 6) + 1, 1e-6) && near(p[1], -1, 1e-6) && near(p[2], 4, 1e-6));
    CHECK(near(ue_mat4_det3(m), 2 * 3 * 0.5, 1e-6));
    float mirror[16] = {-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    CHECK(ue_mat4_det3(mirror) < 0);
}

/* A normal must stay perpendicular to every tangent of its surface after the transform. */
static void normals_stay_perpendicular(void) {
    float m[16];
    sample_trs(m);
    const float t1[3] = {1, -1, 0}, t2[3] = {0, 1, -1};
    const float n[3] = {1 / sqrtf(3), 1 / sqrtf(3), 1 / sqrtf(3)}; /* ⟂ t1 and t2 */
    double tn[3], a[3], b[3], o[3];
    ue_mat4_transform_normal(m, n, tn);
    ue_mat4_transform_point(m, t1, a);
    ue_mat4_transform_point(m, (const float[3]){0, 0, 0}, o);
    ue_mat4_transform_point(m, t2, b);
    double da = 0, db = 0, len = 0;
    for (int k = 0; k < 3; k++) {
        da += tn[k] * (a[k] - o[k]);
        db += tn[k] * (b[k] - o[k]);
        len += tn[k] * tn[k];
    }
    CHECK(near(da, 0, 1e-6) && near(db, 0, 1e-6) && near(len, 1, 1e-9));
}

static void quaternions_compose(void) {
    double qx[4], qz[4], q[4], v[3];
    ue_quat_about_axis(0, PI / 2, qx);
    ue_quat_about_axis(2, PI / 2, qz);
    /* X first, then Z: Y → Z (about X) → Z stays (about Z). */
    ue_quat_mul(qz, qx, q);
    ue_quat_rotate(q, (const double[3]){0, 1, 0}, v);
    CHECK(near(v[0], 0, 1e-12) && near(v[1], 0, 1e-12) && near(v[2], 1, 1e-12));
    /* X → X (about X) → Y (about Z). */
    ue_quat_rotate(q, (const double[3]){1, 0, 0}, v);
    CHECK(near(v[0], 0, 1e-12) && near(v[1], 1, 1e-12) && near(v[2], 0, 1e-12));
}

/* Halfway from the identity to a quarter turn about Z is an eighth turn: (0, 0, sin π/8, cos π/8);
 * the same from the negated quarter turn (the short way); a nearly equal pair takes linear weights. */
static void slerp_short_way(void) {
    const float id[4] = {0, 0, 0, 1}, quarter[4] = {0, 0, (float)sqrt(0.5), (float)sqrt(0.5)};
    const float negated[4] = {0, 0, -quarter[2], -quarter[3]};
    double q[4], pi = acos(-1.0);
    ue_quat_slerp(id, quarter, 0.5, q);
    CHECK(fabs(q[2] - sin(pi / 8)) < 1e-7 && fabs(q[3] - cos(pi / 8)) < 1e-7 && q[0] == 0 && q[1] == 0);
    ue_quat_slerp(id, negated, 0.5, q);
    CHECK(fabs(q[2] - sin(pi / 8)) < 1e-7 && fabs(q[3] - cos(pi / 8)) < 1e-7);
    const float near[4] = {0, 0, 1e-4f, 1}; /* dot 1 > UE_SLERP_LERP_DOT: 0.25 × near + 0.75 × id */
    ue_quat_slerp(id, near, 0.25, q);
    CHECK(q[2] == 0.25 * (double)1e-4f && q[3] == 1);
}

int main(void) {
    RUN(inverse_times_matrix_is_identity);
    RUN(points_and_mirrors);
    RUN(normals_stay_perpendicular);
    RUN(quaternions_compose);
    RUN(slerp_short_way);
    return TEST_SUMMARY();
}
