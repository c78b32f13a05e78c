/* unearth advanced API — Parkan's axis rule, the one place that says how the engine's space maps to
 * glTF's: used by the export and, inverted, by everything that brings geometry back. */
#ifndef UNEARTH_ADVANCED_PARKAN_H
#define UNEARTH_ADVANCED_PARKAN_H

#include <stddef.h>
#include <stdint.h>

#include "unearth/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The engine is left-handed with Z up; glTF is right-handed with Y up. Swapping Y and Z is a
 * reflection, so it is its own inverse for points and directions, and it reverses the winding
 * of every triangle. Each direction still has its own name so that a caller says which way it
 * goes, and so that a later rule (a scale, a rotation) changes here and nowhere else. */
UE_API void ue_parkan_vec_to_gltf(const float engine[3], float gltf[3]);
UE_API void ue_parkan_vec_from_gltf(const float gltf[3], float engine[3]);
/* Rotations conjugate by the reflection: the axis maps like a vector and the angle changes
 * sign. Quaternions are x, y, z, w. */
UE_API void ue_parkan_quat_to_gltf(const float engine[4], float gltf[4]);
UE_API void ue_parkan_quat_from_gltf(const float gltf[4], float engine[4]);
/* A triangle list's corner i after the winding reversal: (a, b, c) → (a, c, b). The engine's
 * clockwise front faces become glTF's counter-clockwise ones, and back again. */
UE_API size_t ue_parkan_winding_corner(size_t i);

/* Geometry in glTF's axes brought back to the engine's in place (an OBJ or glTF as convert wrote
 * it): `vertex_count` positions and normals (xyz each; normals may be NULL) by the rule above,
 * and the triangle list `indices` (index_count, whole triangles first, each < 65536) into
 * `engine_indices` with the winding reversed; a trailing part triangle is copied as it is. */
UE_API void ue_parkan_geometry_from_gltf(float *positions, float *normals, size_t vertex_count,
                                  const uint32_t *indices, size_t index_count, uint16_t *engine_indices);

#ifdef __cplusplus
}
#endif
#endif
