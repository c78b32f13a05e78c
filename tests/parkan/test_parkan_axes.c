/* Tests of Parkan's axis rule (src/parkan/parkan_axes.c): each direction undoes the other, the
 * mapping matches docs/parkan-msh.md, and a rotation converted with it turns converted vectors
 * exactly as the engine's rotation turns the originals (checked by rotating both ways). */
#include <math.h>
#include <stdbool.h>

#include "parkan/parkan_axes.h"
#include "test.h"

/* v' = q v q*, for a unit quaternion x, y, z, w. */
static void rotate(const float q[4], const float v[3], float out[3]) {
    float x = q[0], y = q[1], z = q[2], w = q[3];
    float tx = 2 * (y * v[2] - z * v[1]), ty = 2 * (z * v[0] - x * v[2]), tz = 2 * (x * v[1] - y * v[0]);
    out[0] = v[0] + w * tx + (y * tz - z * ty);
    out[1] = v[1] + w * ty + (z * tx - x * tz);
    out[2] = v[2] + w * tz + (x * ty - y * tx);
}

static bool near3(const float a[3], const float b[3]) {
    return fabsf(a[0] - b[0]) < 1e-5f && fabsf(a[1] - b[1]) < 1e-5f && fabsf(a[2] - b[2]) < 1e-5f;
}

static void vectors_swap_y_and_z_both_ways(void) {
    const float engine[3] = {1, 2, 3};
    float gltf[3], back[3];
    ue_parkan_vec_to_gltf(engine, gltf);
    CHECK(gltf[0] == 1 && gltf[1] == 3 && gltf[2] == 2); /* engine Z (up) is glTF Y (up) */
    ue_parkan_vec_from_gltf(gltf, back);
    CHECK(back[0] == 1 && back[1] == 2 && back[2] == 3);
    float same[3] = {4, 5, 6};
    ue_parkan_vec_to_gltf(same, same); /* in place, as the OBJ import uses it */
    CHECK(same[0] == 4 && same[1] == 6 && same[2] == 5);
}

static void rotations_commute_with_the_rule(void) {
    /* 90° about engine Z (up), and a general rotation */
    const float s = sqrtf(0.5f);
    const float quats[2][4] = {{0, 0, s, s}, {0.1825742f, 0.3651484f, 0.5477226f, 0.7302967f}};
    const float v[3] = {1, -2, 0.5f};
    for (int k = 0; k < 2; k++) {
        float rotated[3], want[3], gq[4], gv[3], got[3], back[4];
        rotate(quats[k], v, rotated);
        ue_parkan_vec_to_gltf(rotated, want);
        ue_parkan_quat_to_gltf(quats[k], gq);
        ue_parkan_vec_to_gltf(v, gv);
        rotate(gq, gv, got);
        CHECK(near3(got, want));
        ue_parkan_quat_from_gltf(gq, back);
        CHECK(back[0] == quats[k][0] && back[1] == quats[k][1] && back[2] == quats[k][2] && back[3] == quats[k][3]);
    }
    /* The documented form: (qx, qy, qz, qw) → (−qx, −qz, −qy, qw). */
    const float q[4] = {0.1f, 0.2f, 0.3f, 0.9f};
    float g[4];
    ue_parkan_quat_to_gltf(q, g);
    CHECK(g[0] == -0.1f && g[1] == -0.3f && g[2] == -0.2f && g[3] == 0.9f);
}

static void winding_reverses_each_triangle(void) {
    static const size_t want[6] = {0, 2, 1, 3, 5, 4};
    for (size_t i = 0; i < 6; i++) CHECK_EQ_U(ue_parkan_winding_corner(i), want[i]);
    for (size_t i = 0; i < 6; i++) CHECK_EQ_U(ue_parkan_winding_corner(ue_parkan_winding_corner(i)), i);
}

int main(void) {
    RUN(vectors_swap_y_and_z_both_ways);
    RUN(rotations_commute_with_the_rule);
    RUN(winding_reverses_each_triangle);
    return TEST_SUMMARY();
}
