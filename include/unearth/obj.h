/* unearth — Wavefront OBJ + MTL export of the scene IR: the bind pose in world space, one
 * object per node that has a mesh, deterministic text with '.' decimals in any locale. */
#ifndef UNEARTH_OBJ_H
#define UNEARTH_OBJ_H

#include "unearth/common.h"
#include "unearth/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ue_obj_options {
    const char *mtl_name;     /* written as "mtllib <mtl_name>"; NULL → no mtllib line; must be
                                 UTF-8 without whitespace, '#' or controls (UE_ERR_USAGE) */
    const char *texture_dir;  /* prefix of map_Kd paths, e.g. "textures/"; NULL → "" */
    const char *const *texture_files; /* per scene texture, the file map_Kd names (after
                                         texture_dir); NULL (the array or an entry) →
                                         ue_obj_texture_file_name. Each must obey the mtllib
                                         rule above (UE_ERR_USAGE) */
} ue_obj_options;

/* Validates the scene (errors refuse it, like the glTF exporter) and appends the OBJ text to
 * obj_out and, when mtl_out is not NULL, the MTL text to mtl_out. Skinned meshes are posed by
 * their skins (joint world matrix × inverse bind matrix, blended by weight); UVs get v
 * flipped back to OBJ's bottom-up convention; mirrored nodes get their winding reversed. */
UE_API ue_result ue_obj_export(const ue_scene *s, const ue_obj_options *o, ue_buf *obj_out,
                               ue_buf *mtl_out, ue_diag *d);

/* The MTL file name for an OBJ file name (without its directory): the same stem with
 * whitespace, '#', controls and non-UTF-8 bytes as '_', then ".mtl" ("my robot.obj" →
 * "my_robot.mtl"), so `mtllib` can name it. UTF-8 letters are kept. */
UE_API void ue_obj_mtl_file_name(const char *obj_name, char *out, size_t cap);

/* The file name the MTL uses for texture `index` (under texture_dir), e.g. "3_wood.png":
 * index first for uniqueness, then the name with whitespace, '#', controls, path separators and
 * the characters Windows forbids as '_' (UTF-8 letters are kept). Callers write
 * ue_png_encode_rgba output there. */
UE_API void ue_obj_texture_file_name(const ue_scene *s, size_t index, char *out, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
