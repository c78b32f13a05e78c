/* unearth — the 3D math every layer shares: column-major 4×4 matrices (float storage, double
 * accumulation), point and normal transforms, and quaternions (x, y, z, w) with Euler angles. */
#ifndef UE_COMMON_MATH3D_H
#define UE_COMMON_MATH3D_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* out = a × b (out may alias a or b). */
void ue_mat4_mul(const float a[16], const float b[16], float out[16]);
/* The inverse of m; false (out untouched) when m is singular or not finite. */
bool ue_mat4_invert(const float m[16], float out[16]);
/* The determinant of the upper 3×3 part: negative for a mirroring transform. */
double ue_mat4_det3(const float m[16]);
void ue_mat4_transform_point(const float m[16], const float p[3], double out[3]);
/* Normals go through the inverse transpose of the 3×3 part and come back unit length. */
void ue_mat4_transform_normal(const float m[16], const float n[3], double out[3]);

/* out = a × b: b's rotation first, then a's (out may alias a or b). */
void ue_quat_mul(const double a[4], const double b[4], double out[4]);
/* v rotated by the unit quaternion q. */
void ue_quat_rotate(const double q[4], const double v[3], double out[3]);
/* glTF's spherical interpolation from unit quaternion a (t = 0) to b (t = 1), the short way;
 * linear weights when |a · b| ≥ UE_SLERP_LERP_DOT (sin θ too small to divide by). Not
 * renormalised. */
#define UE_SLERP_LERP_DOT 0.9999995
void ue_quat_slerp(const float a[4], const float b[4], double t, double out[4]);
/* The rotation by `angle` radians about axis 0 (X), 1 (Y) or 2 (Z). */
void ue_quat_about_axis(int axis, double angle, double q[4]);

/* n floats all finite: no exponent field all ones. One unsigned maximum over the magnitudes' bits,
 * which the compiler vectorises (inlined: it runs at every vertex, joint and frame). */
static inline bool ue_floats_finite(const float *v, size_t n) {
    uint32_t most = 0;
    for (size_t k = 0; k < n; k++) {
        uint32_t u;
        memcpy(&u, &v[k], sizeof u);
        u &= 0x7FFFFFFFu;
        most = u > most ? u : most;
    }
    return most < 0x7F800000u;
}

#endif
