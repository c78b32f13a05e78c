/* unearth — Parkan's axis rule, the one place that says how the engine's space maps to glTF's:
 * used by the export (msh_scene.c) and, inverted, by everything that brings geometry back. */
#ifndef UE_PARKAN_AXES_H
#define UE_PARKAN_AXES_H

#include <stddef.h>

/* The engine is left-handed with Z up; glTF is right-handed with Y up. Swapping Y and Z is a
 * reflection, so it is its own inverse for points and directions, and it reverses the winding
 * of every triangle. Each direction still has its own name so that a caller says which way it
 * goes, and so that a later rule (a scale, a rotation) changes here and nowhere else. */
void ue_parkan_vec_to_gltf(const float engine[3], float gltf[3]);
void ue_parkan_vec_from_gltf(const float gltf[3], float engine[3]);
/* Rotations conjugate by the reflection: the axis maps like a vector and the angle changes
 * sign. Quaternions are x, y, z, w. */
void ue_parkan_quat_to_gltf(const float engine[4], float gltf[4]);
void ue_parkan_quat_from_gltf(const float gltf[4], float engine[4]);
/* A triangle list's corner i after the winding reversal: (a, b, c) → (a, c, b). The engine's
 * clockwise front faces become glTF's counter-clockwise ones, and back again. */
size_t ue_parkan_winding_corner(size_t i);

#endif
