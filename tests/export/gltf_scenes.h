/* unearth tests — hand-built scene IR fixtures shared by the glTF/OBJ unit tests and the
 * program that writes files for the Khronos validator run. */
#ifndef UE_TEST_GLTF_SCENES_H
#define UE_TEST_GLTF_SCENES_H

#include "unearth/scene.h"

/* Root "root" (T 1,2,3; R 90° about Y) with child "cube" (T 0,0.5,0; S 2) holding a cube of
 * half-size 0.3: 24 vertices, 5 faces with textured material 0 (4×4 RGBA checker, with
 * KHR_texture_transform), 1 face with unlit MASK material 1. */
void gs_textured_cube(ue_scene *s);
/* Mesh node 0 (skin 0, root), armature 1 → bone0 2 → bone1 3 (T 0,1,0); a 2-quad column
 * bound to both bones; "Animation_0": LINEAR rotation of bone1 (3 keys, quaternions not unit),
 * STEP translation of bone0 (same 3 times), CUBICSPLINE scale of the armature (2 keys). */
void gs_skinned(ue_scene *s);
/* A textured quad node; "uv_scroll": STEP UV-offset channel on the base colour slot,
 * LINEAR base colour channel, LINEAR rotation channel on node 0. */
void gs_pointer(ue_scene *s);
/* Odd corners: a non-indexed coloured triangle with the default material under a node named
 * in UTF-8 Cyrillic, an unnamed empty node, a name with a stray CP1251 byte. */
void gs_misc(ue_scene *s);
/* "layered" (mesh: a quad with 2 UV and 2 colour sets, material "layers" with base colour,
 * normal (uv 1, transform), emissive, occlusion and metallic-roughness slots; a plain
 * triangle with BLEND material "fade"), its hidden child "lamp", a skinned "blob" whose 4
 * vertices have 8 influences (GS_EIGHT_WEIGHTS, joints rotated by the vertex index) over
 * j0..j7 under "rig"; extras on node, material, mesh and clip; clip "clip" (30 fps, frames
 * 0..45, looping): visibility of lamp, base colour + alpha of "layers" (same keys), alpha
 * alone of "fade", UV rotation of the normal slot. */
void gs_layers(ue_scene *s);
extern const float GS_EIGHT_WEIGHTS[8];
/* Nothing at all but a scene name. */
void gs_empty(ue_scene *s);
/* One node with a 256 × 257 vertex grid (65792 vertices → 32-bit indices). */
void gs_big(ue_scene *s);

#endif
