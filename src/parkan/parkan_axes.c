/* unearth — Parkan's engine ↔ glTF axis rule (parkan_axes.h): positions, normals, rotations
 * and triangle winding, written once for the export and for every import or edit. */
#include "parkan/parkan_axes.h"

/* (x, y, z) ↔ (x, z, y): copied through locals so that in and out may be the same array. */
static void swap_y_z(const float in[3], float out[3]) {
    float x = in[0], y = in[1], z = in[2];
    out[0] = x;
    out[1] = z;
    out[2] = y;
}

void ue_parkan_vec_to_gltf(const float engine[3], float gltf[3]) { swap_y_z(engine, gltf); }
void ue_parkan_vec_from_gltf(const float gltf[3], float engine[3]) { swap_y_z(gltf, engine); }

/* q = (v sin a/2, cos a/2) under a reflection R: v → R v and a → −a, i.e. (−R v, w). */
static void reflect_quat(const float in[4], float out[4]) {
    float x = in[0], y = in[1], z = in[2], w = in[3];
    out[0] = -x;
    out[1] = -z;
    out[2] = -y;
    out[3] = w;
}

void ue_parkan_quat_to_gltf(const float engine[4], float gltf[4]) { reflect_quat(engine, gltf); }
void ue_parkan_quat_from_gltf(const float gltf[4], float engine[4]) { reflect_quat(gltf, engine); }

size_t ue_parkan_winding_corner(size_t i) {
    size_t corner = i % 3;
    return i - corner + (corner == 0 ? 0 : 3 - corner);
}

void ue_parkan_geometry_from_gltf(float *positions, float *normals, size_t vertex_count,
                                  const uint32_t *indices, size_t index_count, uint16_t *engine_indices) {
    for (size_t v = 0; v < vertex_count; v++) {
        ue_parkan_vec_from_gltf(&positions[3 * v], &positions[3 * v]);
        if (normals) ue_parkan_vec_from_gltf(&normals[3 * v], &normals[3 * v]);
    }
    size_t whole = index_count - index_count % 3;
    for (size_t i = 0; i < index_count; i++)
        engine_indices[i] = (uint16_t)indices[i < whole ? ue_parkan_winding_corner(i) : i];
}
