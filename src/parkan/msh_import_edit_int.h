/* unearth — internal to edit mode (`import --base`): the edit context shared by the node
 * matcher (msh_import_match.c), the geometry and pose edits (msh_import_edit.c) and the clip
 * comparison (msh_import_edit_anim.c). */
#ifndef UE_MSH_IMPORT_EDIT_INT_H
#define UE_MSH_IMPORT_EDIT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parkan/msh_import_int.h"
#include "unearth/msh_import.h"

/* "Changed" (docs/import.md#edit-mode---base): more than half a quantisation step of the field
 * as MSH stores it; positions are floats on both sides, so any difference. */
#define NORMAL_TOL (0.5f / 127.0f)
#define UV_TOL (0.5f / 1024.0f)
#define COLOR_TOL (0.5f / 255.0f)
#define QUAT_TOL (0.5f / 32767.0f)
#define SCALE_TOL 1e-6f
/* Node translations (rest poses and clip values) are float32 on both sides, but a client
 * rebuilds them from its own matrices or re-samples a curve in float32, a few float32 steps
 * off: a difference of at most TRANSLATION_TOL × max(1, |a|, |b|) per component is none. */
#define TRANSLATION_TOL 1e-5f
#define MAX_KEY_FRAMES 65535u
/* Positions are float32 on both sides, but quantising clients (gltf-transform's 14-bit default)
 * move them by up to a step of the model's size: one such step is the tolerance. */
#define POSITION_TOL_FRACTION (1.0f / 16384.0f)

typedef struct slot_bounds {
    float aabb_min[3], aabb_max[3], sphere_center[3], sphere_radius;
} slot_bounds;

/* What a quantising client (gltf-transform `quantize`) put between a node and its mesh, folded
 * back into the geometry (msh_import_edit_fold.c); one per scene node. */
typedef struct node_fold {
    int32_t mesh;                /* the mesh the node shows: its own, or its carrier's; -1 none */
    int32_t carrier;             /* the client's mesh-only child node holding it, -1 none */
    bool pose_folded;            /* the node's own transform differs from the base's by the fold
                                    alone: its pose is the base's */
    bool geom;                   /* xf applies: scene mesh space → the base mesh's space */
    double xf[16];               /* column-major, as glTF */
} node_fold;

typedef struct edit_ctx {
    ue_msh *m;
    const ue_scene *s;           /* the edited scene (from glTF) */
    const ue_scene *base;        /* the base model as convert exports it: o->reference, or own_base */
    ue_scene own_base;           /* the export made here when no reference was given */
    const ue_scene *reference;   /* o->reference: ue_msh_edit_reference's export, or NULL */
    size_t *base_exports;        /* o->base_exports: counts the export made here, or NULL */
    ue_msh_export_options eo;    /* the selection the scene was exported with */
    int32_t *b_of_s;             /* scene node → base scene node; -1 only for a root a client
                                    wrapped the model in (identity, no mesh: three.js's scene) */
    int32_t *msh_of_b;           /* base scene node → model node (-1: the root, a group child) */
    /* The matcher's maps (msh_import_match.c), -1 where nothing matched: */
    int32_t *bmesh_of_s;         /* scene mesh → base mesh (through the matched nodes) */
    int32_t *bmat_of_s;          /* scene material → base material */
    int32_t *btex_of_s;          /* scene texture → base texture */
    size_t *sprim_first;         /* scene mesh m's primitives start at sprim_first[m] in: */
    int32_t *bprim_of_s;         /* ue_msh_edit_base_primitive's answers */
    node_fold *fold;             /* per scene node, NULL until the matcher allocates it */
    uint8_t *moved;              /* per model vertex: its position changed */
    uint8_t *mesh_done;          /* per scene mesh: applied (cells of --lod all share meshes) */
    bool *slot_touched;          /* per original slot: its bounds must be recomputed */
    slot_bounds *saved;          /* the original slot bounds, restored where nothing moved */
    size_t slot_count0, vertex_count0; /* before any slot was added or rebuilt */
    bool bounds_dirty;           /* something the header hull depends on changed */
    float fps;
    float pos_tol;               /* POSITION_TOL_FRACTION of the reference's size */
    int32_t *material_row;       /* per scene material: the WEAR row it stands for, -1 unknown */
    ue_diag *d;
} edit_ctx;

/* A glTF corner paired with the reference corner it shows: the glTF primitive and vertex, the
 * reference (base scene) primitive and vertex holding the stored value, the model vertex. */
typedef struct edit_pair {
    uint32_t prim, vertex, base_prim, base_vertex, model;
} edit_pair;

/* An error of the edit, named by its glTF path; returns UE_ERR_INVALID. */
ue_result ue_msh_edit_fail(edit_ctx *x, const char *code, const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Same source id (format, table, offset, index). */
bool ue_msh_edit_same_source(const ue_source_id *a, const ue_source_id *b);

/* The selection the scene was exported with: the one it records (asset.extras.unearth_selection,
 * *recorded true), else inferred from its names; eo->fps is left as it is. */
void ue_msh_edit_selection(const ue_scene *s, ue_msh_export_options *eo, bool *recorded);
/* The frame rate an edit compares times at: o->fps, else the scene's node clip's, else the default. */
float ue_msh_edit_fps(const ue_scene *s, const ue_msh_import_options *o);

/* Exports the base once with the selection the scene records (else infers it from the
 * scene's names) into x->own_base unless o->reference is that export already, fills x->msh_of_b (base scene node → model node) and matches
 * every scene node (x->b_of_s, set on success but for a client's wrappers; a base node no
 * scene node matched is a model node the glTF deleted), mesh, material, texture and primitive
 * to it. msh_import_match.c; ue_msh_edit_match_free frees the maps. */
ue_result ue_msh_edit_match_selection(edit_ctx *x);
void ue_msh_edit_match_free(edit_ctx *x);
/* The scene's name is the base's, or the base's with a client's ".NNN" uniqueness suffix
 * (Blender's "arm.001" for a second "arm"): no rename. */
bool ue_msh_edit_same_name(const char *scene_name, const char *base_name);
/* The base primitive (index in the base mesh x->bmesh_of_s[smesh]) that primitive p of scene
 * mesh smesh is, or -1 (a client merged primitives of one material, or added one). */
int32_t ue_msh_edit_base_primitive(const edit_ctx *x, int32_t smesh, size_t p);

/* Pairs every triangle of scene mesh `sm` (one of x->s's, or its folded copy) with one of base
 * mesh `bmesh` (rotation-free, winding kept, any vertex and triangle order): *pairs gets one per
 * glTF vertex and model vertex it shows (in the order of first use), or NULL with *unpaired the
 * triangles left on either side when the topology differs. msh_import_edit_pair.c */
ue_result ue_msh_edit_pair_mesh(edit_ctx *x, const ue_scene_mesh *sm, int32_t bmesh, edit_pair **pairs,
                                size_t *count, size_t *unpaired);
float ue_msh_edit_position_tolerance(const ue_scene *base);

/* Folding (msh_import_edit_fold.c). ue_msh_edit_find_carriers, once nodes are matched by
 * identity: marks in `passed` the unnamed (or unmatched) mesh-only leaves a quantising client
 * moved a mesh into, and gives their mesh and transform to the parent (allocates x->fold).
 * ue_msh_edit_fold_poses, once every node is matched: a quantised leaf whose transform differs
 * from the base's by a translation and a positive scale alone gets that difference as its fold. */
ue_result ue_msh_edit_find_carriers(edit_ctx *x, bool *passed);
ue_result ue_msh_edit_fold_poses(edit_ctx *x);
/* The mesh scene node si shows (its carrier's included), -1 none. */
int32_t ue_msh_edit_node_mesh(const edit_ctx *x, size_t si);
bool ue_msh_edit_pose_folded(const edit_ctx *x, size_t si);
/* Scene mesh sm as node si shows it in the base mesh's space: *out a copy with positions and
 * normals through the node's fold (shared other arrays), *folded false (and *out untouched)
 * when it has none. Free with ue_msh_edit_folded_mesh_free. */
ue_result ue_msh_edit_folded_mesh(const edit_ctx *x, size_t si, int32_t sm, ue_scene_mesh *out, bool *folded);
void ue_msh_edit_folded_mesh_free(ue_scene_mesh *me);

/* The node's mesh: vertex edits in place, else the slot rebuilt; bounds afterwards.
 * msh_import_edit_mesh.c */
ue_result ue_msh_edit_apply_mesh(edit_ctx *x, size_t si);
void ue_msh_edit_material_rows(edit_ctx *x);
void ue_msh_edit_save_bounds(edit_ctx *x);
void ue_msh_edit_finish_bounds(edit_ctx *x);

/* A node translation or a rotation (q and -q alike) differs by more than its tolerance above.
 * msh_import_edit_anim.c */
bool ue_msh_edit_translation_differs(const float a[3], const float b[3]);
bool ue_msh_edit_quat_differs(const float a[4], const float b[4]);

/* The clip: changed node tracks re-keyed. msh_import_edit_anim.c */
ue_result ue_msh_edit_apply_animation(edit_ctx *x);

#endif
