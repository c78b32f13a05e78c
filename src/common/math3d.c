/* unearth — shared 3D math: matrix products, inverses and transforms, quaternion products and
 * rotations, written once for the scene IR, the exporters and the formats' writers. */
#include "common/math3d.h"

#include <math.h>
#include <string.h>

void ue_mat4_mul(const float a[16], const float b[16], float out[16]) {
    float t[16];
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            double acc = 0;
            for (int k = 0; k < 4; k++) acc += (double)a[k * 4 + r] * b[c * 4 + k];
            t[c * 4 + r] = (float)acc;
        }
    memcpy(out, t, sizeof t);
}

/* Cofactor expansion: the 2×2 minors of the top and bottom row pairs, reused for all 16. */
bool ue_mat4_invert(const float m[16], float out[16]) {
    double a[16];
    for (int i = 0; i < 16; i++) a[i] = m[i];
    double s0 = a[0] * a[5] - a[4] * a[1], s1 = a[0] * a[6] - a[4] * a[2];
    double s2 = a[0] * a[7] - a[4] * a[3], s3 = a[1] * a[6] - a[5] * a[2];
    double s4 = a[1] * a[7] - a[5] * a[3], s5 = a[2] * a[7] - a[6] * a[3];
    double c5 = a[10] * a[15] - a[14] * a[11], c4 = a[9] * a[15] - a[13] * a[11];
    double c3 = a[9] * a[14] - a[13] * a[10], c2 = a[8] * a[15] - a[12] * a[11];
    double c1 = a[8] * a[14] - a[12] * a[10], c0 = a[8] * a[13] - a[12] * a[9];
    double det = s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0;
    if (!isfinite(det) || det == 0) return false;
    double k = 1.0 / det, r[16];
    r[0] = (a[5] * c5 - a[6] * c4 + a[7] * c3) * k;
    r[4] = (-a[4] * c5 + a[6] * c2 - a[7] * c1) * k;
    r[8] = (a[4] * c4 - a[5] * c2 + a[7] * c0) * k;
    r[12] = (-a[4] * c3 + a[5] * c1 - a[6] * c0) * k;
    r[1] = (-a[1] * c5 + a[2] * c4 - a[3] * c3) * k;
    r[5] = (a[0] * c5 - a[2] * c2 + a[3] * c1) * k;
    r[9] = (-a[0] * c4 + a[1] * c2 - a[3] * c0) * k;
    r[13] = (a[0] * c3 - a[1] * c1 + a[2] * c0) * k;
    r[2] = (a[13] * s5 - a[14] * s4 + a[15] * s3) * k;
    r[6] = (-a[12] * s5 + a[14] * s2 - a[15] * s1) * k;
    r[10] = (a[12] * s4 - a[13] * s2 + a[15] * s0) * k;
    r[14] = (-a[12] * s3 + a[13] * s1 - a[14] * s0) * k;
    r[3] = (-a[9] * s5 + a[10] * s4 - a[11] * s3) * k;
    r[7] = (a[8] * s5 - a[10] * s2 + a[11] * s1) * k;
    r[11] = (-a[8] * s4 + a[9] * s2 - a[11] * s0) * k;
    r[15] = (a[8] * s3 - a[9] * s1 + a[10] * s0) * k;
    for (int i = 0; i < 16; i++) out[i] = (float)r[i];
    return true;
}

double ue_mat4_det3(const float m[16]) {
    return (double)m[0] * ((double)m[5] * m[10] - (double)m[9] * m[6]) -
           (double)m[4] * ((double)m[1] * m[10] - (double)m[9] * m[2]) +
           (double)m[8] * ((double)m[1] * m[6] - (double)m[5] * m[2]);
}

void ue_mat4_transform_point(const float m[16], const float p[3], double out[3]) {
    for (int r = 0; r < 3; r++)
        out[r] = (double)m[r] * p[0] + (double)m[4 + r] * p[1] + (double)m[8 + r] * p[2] +
                 (double)m[12 + r];
}

/* The cofactor matrix is the inverse transpose up to the determinant, and only the
 * determinant's sign matters once the result is renormalised. */
void ue_mat4_transform_normal(const float m[16], const float n[3], double out[3]) {
    double a[3][3];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) a[r][c] = m[c * 4 + r];
    double cof[3][3];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            int r1 = (r + 1) % 3, r2 = (r + 2) % 3, c1 = (c + 1) % 3, c2 = (c + 2) % 3;
            cof[r][c] = a[r1][c1] * a[r2][c2] - a[r1][c2] * a[r2][c1];
        }
    double det = a[0][0] * cof[0][0] + a[0][1] * cof[0][1] + a[0][2] * cof[0][2];
    double sign = det < 0 ? -1.0 : 1.0;
    for (int r = 0; r < 3; r++)
        out[r] = sign * (cof[r][0] * n[0] + cof[r][1] * n[1] + cof[r][2] * n[2]);
    double l = sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2]);
    if (l > 0)
        for (int r = 0; r < 3; r++) out[r] /= l;
}

void ue_quat_mul(const double a[4], const double b[4], double out[4]) {
    double x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    double y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    double z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    double w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    out[0] = x, out[1] = y, out[2] = z, out[3] = w;
}

/* v' = v + 2w(q×v) + 2 q×(q×v) */
void ue_quat_rotate(const double q[4], const double v[3], double out[3]) {
    double t[3] = {2 * (q[1] * v[2] - q[2] * v[1]), 2 * (q[2] * v[0] - q[0] * v[2]),
                   2 * (q[0] * v[1] - q[1] * v[0])};
    double r[3] = {v[0] + q[3] * t[0] + (q[1] * t[2] - q[2] * t[1]),
                   v[1] + q[3] * t[1] + (q[2] * t[0] - q[0] * t[2]),
                   v[2] + q[3] * t[2] + (q[0] * t[1] - q[1] * t[0])};
    memcpy(out, r, sizeof r);
}

void ue_quat_slerp(const float a[4], const float b[4], double t, double out[4]) {
    double dot = 0, sign = 1;
    for (int i = 0; i < 4; i++) dot += (double)a[i] * b[i];
    if (dot < 0) dot = -dot, sign = -1;
    double wa = 1 - t, wb = t;
    if (dot < UE_SLERP_LERP_DOT) {
        double angle = acos(dot), s = sin(angle);
        wa = sin((1 - t) * angle) / s;
        wb = sin(t * angle) / s;
    }
    for (int i = 0; i < 4; i++) out[i] = wa * a[i] + sign * wb * b[i];
}

void ue_quat_about_axis(int axis, double angle, double q[4]) {
    q[0] = q[1] = q[2] = 0;
    q[3] = cos(angle * 0.5);
    q[axis >= 0 && axis < 3 ? axis : 0] = sin(angle * 0.5);
}
