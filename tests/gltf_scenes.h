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
/* A textured quad node; "uv_scroll": STEP pointer channel on the texture transform offset,
 * LINEAR pointer channel on baseColorFactor, LINEAR pointer channel on /nodes/0/rotation. */
void gs_pointer(ue_scene *s);
/* Odd corners: a non-indexed coloured triangle with the default material under a node named
 * in UTF-8 Cyrillic, an unnamed empty node, a name with a stray CP1251 byte. */
void gs_misc(ue_scene *s);
/* Nothing at all but a scene name. */
void gs_empty(ue_scene *s);
/* One node with a 256 × 257 vertex grid (65792 vertices → 32-bit indices). */
void gs_big(ue_scene *s);

#endif
