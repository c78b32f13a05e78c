/* unearth — glTF edits back into an HSD model (docs/hsd-import.md): edit mode keeps every byte
 * of the base DAT and rewrites, in place, the vertex values a scene read from a glTF changed. */
#ifndef UNEARTH_HSD_IMPORT_H
#define UNEARTH_HSD_IMPORT_H

#include "unearth/common.h"
#include "unearth/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What an edit rewrote: attribute elements (an array element, or a direct value wherever the
 * display list repeats its vertex) whose bytes changed, the PObjs they belong to (or whose
 * triangles changed), the images and materials (MObjs) whose bytes changed, and the display
 * lists rebuilt as strips with the triangles they draw. */
typedef struct ue_hsd_edit_stats {
    size_t positions, normals, uvs, colors;
    size_t pobjs;
    size_t images, materials;
    size_t lists, triangles;
    size_t clips, clips_added, clips_kept; /* skeletal clips replaced, appended; equal to the base's, kept */
    int32_t *anim_index; /* in: NULL, or room for one entry per animation of the scene; out: each one's index
                            in its ModelSet's anims[] in the result (what a PKX animation slot names), -1 if none */
    int32_t *anim_model; /* in: NULL, or room as for anim_index; out: that ModelSet's position among the DAT's
                            scene_data ModelSets (0: scene_data's models[0], the one a PKX plays), -1 if none */
    size_t reweighted, envelopes, trimmed;  /* vertices given another envelope, envelopes added, vertices
                                               whose influences past 4 were dropped */
    size_t widened;                         /* attributes written as a new array in a wider format */
    size_t new_vertices;                    /* glTF vertices past their PObj's, appended */
} ue_hsd_edit_stats;

/* Edit mode: `base` (a DAT of `size` bytes with a model, read strictly) with the vertex
 * positions, normals, UV sets 0–1, colour sets 0–1, images, base colour factors and
 * alpha modes of the scene `s` (a glTF as
 * ue_gltf_read reads it) written back where they differ from the base's own conversion. Each
 * glTF mesh node is matched to the base's `<joint>_mesh` by name, each primitive to a PObj by
 * its triangle list, or, for a client's re-export, each triangle by its geometry
 * (docs/hsd-import.md#matching); values go back through the inverse of the
 * vertex's skinning matrix and are re-quantised in the attribute's own format. Everything else
 * of the base is kept byte for byte, so an unedited scene gives `base` back. Refused
 * (UE_ERR_INVALID, errors naming the glTF path and the DAT offset, `out` untouched): a mesh or
 * primitive that matches nothing, a PObj the scene lacks, new vertices in a client's re-export, a value a direct
 * attribute's format cannot hold, two different values for one stored element, an image of another size or one
 * baked from several layers (images: docs/hsd-import.md#images). `name` names the model in
 * messages. `stats` may be NULL. A primitive with the PObj's vertices and other triangles gets a
 * display list of strips, and the DAT is laid out anew by ue_hsd_model_write (only for a base it
 * writes back byte for byte; docs/hsd-import.md#triangles), as it is when an indexed attribute is
 * widened to hold a value or a vertex's JOINTS_0/WEIGHTS_0 give it another envelope
 * (docs/hsd-import.md#widening, #skin-weights). The result is read back strictly before it is
 * returned. */
UE_API ue_result ue_hsd_apply_scene(const uint8_t *base, size_t size, const char *name, const ue_scene *s,
                                    ue_buf *out, ue_hsd_edit_stats *stats, ue_diag *d);


/* ---- new models (docs/hsd-import.md#new-models) ------------------------------------------- */

#define UE_HSD_TEXTURE_AUTO UINT32_MAX /* CMPR for opaque images, RGB5A3 for images with alpha */

#define UE_HSD_WEIGHTS_EXACT UINT32_MAX /* skin weights kept as given (no rounding) */

typedef struct ue_hsd_new_options {
    uint32_t texture_format;       /* UE_HSD_TEXTURE_AUTO, or UE_GX_CMPR, UE_GX_RGB5A3, UE_GX_RGBA8, UE_GX_RGB565 */
    uint32_t weight_units;         /* skin weights rounded to multiples of 1/weight_units; 0: the default 1/64,
                                    * UE_HSD_WEIGHTS_EXACT: as given (docs/hsd-import.md#rounded-weights) */
} ue_hsd_new_options;

typedef struct ue_hsd_new_stats {
    size_t joints, dobjs, pobjs, triangles, materials, images, resized_images;
    size_t f32_attributes;         /* descriptors no integer format held within its error */
    size_t envelopes;              /* distinct envelopes of the skinned meshes (0: none skinned) */
    size_t clips;                  /* glTF animations written as AnimJoint clips */
    int32_t *anim_index; /* in: NULL, or room for one entry per animation of the scene; out: each one's index
                          * in the ModelSet's anims[], or -1 (left out: it moves no joint) */
} ue_hsd_new_stats;

/* A new DAT from a scene (a glTF as ue_gltf_read reads it): a joint per node (names kept, TRS as
 * Euler XYZ; an identity root added when the scene has several roots, a rotated one, or one that
 * is a skin joint), each rigid primitive a DObj under its node's joint, each skinned one a DObj of
 * the root (SKELETON_ROOT) with ENVELOPE PObjs of at most 10 envelopes (skin joints SKELETON with
 * inverse binds), PObjs of quantised attributes and strip display lists, a MObj per material (TObj
 * and GX image for the base colour texture), written by ue_hsd_model_write under a `scene_data`
 * root and read back strictly. Refused (UE_ERR_INVALID, errors `import.hsd.new.*` naming the glTF
 * path, `out` untouched): a scene without triangles, unusable skin weights, a model past the
 * runtime's limits. `stats` may be NULL. */
UE_API ue_result ue_hsd_from_scene(const ue_scene *s, const ue_hsd_new_options *o, ue_buf *out,
                                   ue_hsd_new_stats *stats, ue_diag *d);

#ifdef __cplusplus
}
#endif
#endif
