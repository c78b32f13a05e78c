/* unearth — internal: the state the three files of the new-model importer share (node tree and
 * slot matrix in msh_import.c, geometry in msh_import_mesh.c, the clip in msh_import_anim.c). */
#ifndef UE_PARKAN_MSH_IMPORT_INT_H
#define UE_PARKAN_MSH_IMPORT_INT_H

#include "common/parse.h"
#include "unearth/msh_import.h"

/* What a scene node becomes (msh_of_scene values below 0). */
#define UE_IMPORT_WRAPPER (-1) /* the model's root node that convert adds: not a model node */
#define UE_IMPORT_HOLDER (-2)  /* "<node>_lod<l>_group<g>": a slot of its parent, not a node */

#define UE_IMPORT_CELLS (UE_MSH_LODS * UE_MSH_GROUPS)

/* One cell of a node's slot matrix: the scene mesh drawn there and the scene node that holds
 * it (the model node itself, or a holder whose transform is baked into the geometry). */
typedef struct ue_import_cell {
    int32_t mesh;   /* -1: no slot */
    int32_t holder; /* scene node carrying the mesh */
} ue_import_cell;

typedef struct ue_msh_import {
    const ue_scene *s;
    ue_msh *m;
    ue_parse_ctx c;           /* strict: every refusal is an error naming the glTF path */
    float fps;
    int32_t *msh_of_scene;    /* per scene node: model node index or UE_IMPORT_* */
    int32_t *scene_of_msh;    /* per model node: its scene node */
    size_t node_count;
    ue_import_cell (*cells)[UE_IMPORT_CELLS]; /* per model node, [lod * 5 + group] */
    uint16_t *material_row;   /* per scene material: the batch material index (WEAR row) */
    char clip_path[32];       /* "/animations/N" of the clip imported (ue_msh_import_node_clip) */
} ue_msh_import;

/* Slots, vertices, Res6/Res13 batches and Res7 descriptors for every cell (msh_import_mesh.c). */
ue_result ue_msh_import_geometry(ue_msh_import *im);
/* Res8/Res19 from the scene's node clip (ue_msh_import_node_clip), resampled to engine frames, and every node's
 * rest key (msh_import_anim.c). */
ue_result ue_msh_import_animation(ue_msh_import *im);

/* The clip an MSH holds: the first that moves a node (translation, rotation or scale), or -1.
 * Clips that drive only materials (the MAT0 phase clips convert writes) are not the model's
 * and are passed over; *others counts the further clips that move nodes, which MSH cannot hold. */
int32_t ue_msh_import_node_clip(const ue_scene *s, size_t *others);

#endif
