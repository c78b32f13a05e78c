/* unearth — a scene IR (read from glTF) back into a Parkan MSH: a new model built by the writer
 * rules of seed 000 §8 and §10.2, or an edit of an existing model that keeps every byte it can. */
#ifndef UNEARTH_MSH_IMPORT_H
#define UNEARTH_MSH_IMPORT_H

#include "unearth/common.h"
#include "unearth/msh.h"
#include "unearth/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ue_msh_import_options {
    float fps;        /* frames per second that animation times are resampled at; 0 = UE_MSH_DEFAULT_FPS */
    const char *name; /* the model's name in diagnostics, or NULL */
} ue_msh_import_options;

/* A new model from a scene: glTF axes back to the engine's (the inverse of ue_msh_to_scene),
 * the LOD/group slot matrix from the node naming convention `convert` writes (holder children
 * "<node>_lod<l>_group<g>"; a mesh on a node itself is LOD 0 group 0; docs/import.md),
 * normals and UVs quantised, Res6/Res13 batches within 16-bit limits, Res7 triangle
 * descriptors, Res2 bounds, Res10 names (UTF-8 → CP1251), Res8/Res19 from the first node-moving TRS
 * animation resampled at o->fps. The model is written and parsed again in strict mode before
 * it is returned (its container laid out, ready for ue_msh_write). UE_ERR_INVALID (or
 * UE_ERR_LIMIT past a 16-bit range) with a diagnostic naming the glTF path for what MSH cannot
 * hold, and `out` empty. `out` is initialised here; free it with ue_msh_free. */
UE_API ue_result ue_msh_from_scene(const ue_scene *s, const ue_msh_import_options *o, ue_msh *out,
                                   ue_diag *d);

/* Edit mode: `base` (a parsed model) takes what the scene changed, and nothing else: positions,
 * normals, UVs, topology, names and animation, compared within the tolerances of
 * docs/import.md; an unchanged scene leaves `base` byte-identical when written. Objects are
 * matched by source id; a scene whose node tree does not match `base` is UE_ERR_INVALID. */
UE_API ue_result ue_msh_apply_scene(ue_msh *base, const ue_scene *s, const ue_msh_import_options *o,
                                    ue_diag *d);

#ifdef __cplusplus
}
#endif
#endif
