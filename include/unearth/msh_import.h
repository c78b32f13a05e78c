/* unearth — a scene IR (read from glTF) back into a Parkan MSH: a new model built by the writer
 * rules of docs/formats/msh.md#writer-rules, docs/formats/msh.md#conversion-rules, or an edit of an existing model that keeps every byte it can. */
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
    /* Edit mode only. `reference`: the base's export ue_msh_edit_reference made for the same
     * base, scene and options, which ue_msh_apply_scene matches the scene with instead of
     * exporting the base itself; NULL: it exports the base. `base_exports`: when given, each
     * export of the base adds one (the library's count of docs/architecture.md#one-read-per-input). */
    const ue_scene *reference;
    size_t *base_exports;
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

/* Edit mode's one export of `base`, shared by ue_msh_apply_scene (o->reference) and
 * ue_msh_texture_edits (reference), so that an edit exports its base once: the model as `convert`
 * exported the scene — the selection the scene records (asset.extras.unearth_selection), else
 * the one its names show, at the frame rate ue_msh_apply_scene compares times at (o->fps, else
 * the scene's clip's) — with its materials resolved from `origin` as convert resolves them
 * (NULL: not resolved). Adds one to *o->base_exports when given. A base that does not convert
 * with that selection is UE_ERR_INVALID (import.base.tree). `ref` is initialised here;
 * ue_scene_free it. */
UE_API ue_result ue_msh_edit_reference(const ue_msh *base, const ue_scene *s, const ue_msh_import_options *o,
                                       const char *origin, ue_scene *ref, ue_diag *d);

/* ---- texture edits of edit mode (docs/import.md#textures-back-into-the-game) ---------------- */

/* One texture the scene changed, re-encoded as a Texm like the original. */
typedef struct ue_texture_edit {
    char name[64];      /* the Texm entry's name in the texture archive (UTF-8) */
    int32_t texture;    /* the scene texture it comes from */
    uint32_t format, width, height, mip_count; /* the original's, which the new Texm keeps */
    uint8_t *texm;      /* the new Texm (malloc) */
    size_t size;
} ue_texture_edit;

typedef struct ue_texture_edits {
    ue_texture_edit *items;
    size_t count;
    size_t unchanged;   /* scene textures matched to a Texm whose pixels the scene kept */
} ue_texture_edits;

typedef struct ue_texture_edit_options {
    const char *origin;   /* the base model's path, FILE or ARCHIVE:ENTRY: its WEAR table and
                             Material.lib are found from there, as `convert` finds them */
    const char *library;  /* the texture archive (NRes or RsLi) holding the original Texm entries;
                             NULL: no texture is compared, only the untextured materials' colours */
    const ue_scene *reference; /* the base from ue_msh_edit_reference (or ue_msh_texture_reference),
                                  or NULL: made here from `base` and `origin` */
    size_t *base_exports; /* when given, the export made here (reference NULL) adds one */
} ue_texture_edit_options;

/* The base as `convert` exports it to compare edits with: every LOD, materials resolved from
 * `origin` (NULL: not resolved), so also the clips of animated materials. `ref` is initialised
 * here; ue_scene_free it. */
UE_API ue_result ue_msh_texture_reference(const ue_msh *base, const char *origin, ue_scene *ref);

/* Edit mode's textures: each scene texture is matched to the Texm it was exported from — by
 * its name (an exporter's ".001" suffix or dropped extension undone), else through the
 * material that shows it (extras.texture, else the base material of the same name or WEAR
 * row) — never by order; its pixels (times a changed baseColorFactor of its materials) are
 * compared with the original's level 0 as the original's format stores them, and a changed
 * one is re-encoded in that format with the original's size, mip count (regenerated), flags
 * and Page rects (indexed: a new palette, median cut past 256 colours). An image of another
 * size, a changed phase atlas, materials sharing a texture with different factors are
 * UE_ERR_INVALID, named. An unmatched texture is a warning, and so is a changed factor of an
 * untextured material (import.material.color: not written back). Linear in the scene's
 * textures and materials (n log n for the library's names). `out` is initialised here; free
 * it with ue_texture_edits_free. */
UE_API ue_result ue_msh_texture_edits(const ue_msh *base, const ue_scene *s, const ue_texture_edit_options *o,
                                      ue_texture_edits *out, ue_diag *d);
UE_API void ue_texture_edits_free(ue_texture_edits *e);

/* Appends to `out` a copy of the texture archive at `library` with every edit's entry replaced
 * (ue_archive_put_many: one rebuild): with no edits, the archive byte for byte. */
UE_API ue_result ue_texture_edits_put(const ue_texture_edits *e, const char *library, ue_buf *out, ue_diag *d);

/* The Texm texture archive the material chain of the model at `origin` reads (Textures.lib
 * beside it or in a parent folder, any letter case; docs/parkan-materials.md): its path into
 * `out`, UE_ERR_INVALID when there is none. */
UE_API ue_result ue_msh_texture_library(const char *origin, char *out, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
