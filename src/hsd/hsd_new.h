/* unearth — internal: the tables of a new HSD model being built from a scene (hsd_new.c joints and
 * assembly, hsd_new_mesh.c PObjs, hsd_new_material.c MObjs and images). */
#ifndef UNEARTH_HSD_NEW_H
#define UNEARTH_HSD_NEW_H

#include "hsd/hsd_new_int.h"
#include "hsd/hsd_pose.h"

#define HSD_NEW_MAX_POBJS 240     /* the runtime's about-240 PObjs per model (issue 23) */
#define HSD_NEW_MAX_DEPTH 1024    /* the struct reader's joint depth */

/* A skinned scene's state (hsd_new_skin.c). */
typedef struct hsd_new_skin {
    int32_t owner;                /* the joint whose DObj list holds every skinned mesh (the tree root), or -1 */
    double *bind;                 /* 16 per joint (column-major): the inverse bind of SKELETON joints */
    hsd_env_set set;              /* the model's distinct envelopes (HSD joints), as PObjs use them */
    uint32_t *first_weight;       /* per envelope of `set`: its run in the model's weight rows */
    size_t first_weight_cap, weight_cap, envelope_cap;
    size_t cut_vertices;          /* vertices that had more than 4 influences */
} hsd_new_skin;

typedef struct hsd_new {
    const ue_scene *s;
    const ue_hsd_new_options *o;
    ue_diag *d;
    ue_hsd_model m;
    size_t joint_cap, dobj_cap, pobj_cap, attr_cap, mobj_cap, tobj_cap, image_cap;
    int32_t *joint_of_node;       /* scene node → joint */
    double *node_world;           /* scene node → its glTF world matrix (16 each), made once */
    int32_t *mobj_of_material;    /* scene material + 1 (0: the default) → mobj, -1 not made yet */
    int32_t *image_of_texture;    /* scene texture → image */
    uint8_t *material_colours;    /* scene material + 1: bit 1 vertex colours drawn, bit 2 with alpha < 1 */
    ue_buf **bufs;                /* owned bytes the tables point into (stable addresses) */
    size_t buf_count, buf_cap;
    ue_hsd_new_stats st;
    hsd_new_skin sk;
} hsd_new;

/* Growth of a table (*p, count *n, capacity *cap) by one zeroed row; its index or -1 (no memory). */
int32_t hsd_new_row(void **p, size_t *n, size_t *cap, size_t elem);
/* A new owned byte buffer, or NULL. */
ue_buf *hsd_new_buf(hsd_new *b);

/* The DObjs and PObjs of node `node`'s mesh under joint `joint`; vertices taken by `to_joint`
 * (4×4 column-major, double: glTF node world → the joint's HSD world) first. */
ue_result hsd_new_mesh(hsd_new *b, int32_t node, int32_t joint, const double to_joint[16]);
/* The MObj of scene material `material` (-1: the default), made on first use. -1 on failure. */
int32_t hsd_new_material(hsd_new *b, int32_t material);

/* ---- skinned meshes (hsd_new_skin.c) ---- */

/* Whether node `node` draws a skinned mesh (a primitive with joints). */
bool hsd_new_skinned(const ue_scene *s, int32_t node);
/* Whether node `node` is a joint of some skin. */
bool hsd_new_skin_joint(const ue_scene *s, int32_t node);
/* SKELETON and the inverse bind W_hsd⁻¹ · W_gltf · IBM on every skin joint (`pose`: the HSD rest
 * pose); refused (import.hsd.new.skin) when two skins bind a node differently. */
ue_result hsd_new_skin_binds(hsd_new *b, const hsd_pose *pose);
/* The envelopes of primitive `p` of a node with skin `skin` (HSD joints) in `set`, vertex_env[v]
 * each vertex's, and the PObj split of its triangles (ids into `set`), weights rounded to the
 * option's step and coarser while the PObjs left cannot hold them (hsd_fit_envelopes; warning
 * import.hsd.new.weights); refused when a vertex has no weight or names no joint
 * (import.hsd.new.skin) or even one joint a vertex does not fit (import.hsd.new.limit). */
ue_result hsd_new_skin_fit(hsd_new *b, const ue_scene_primitive *p, int32_t skin, size_t max_tris, hsd_env_set *set,
                           uint32_t *vertex_env, hsd_env_split *split, const char *path);
/* Envelope rows (the PObj's list) for the envelopes ids[0 … n) of `local`, contiguous, each found
 * in or added to the model's; the first row's index, or -1 on no memory. */
int32_t hsd_new_envelope_rows(hsd_new *b, const hsd_env_set *local, const uint32_t *ids, size_t n);
void hsd_new_skin_free(hsd_new_skin *sk);
/* The skinned primitives of node `node`'s mesh as DObjs of the owner joint (hsd_new_mesh.c). */
ue_result hsd_new_skinned_mesh(hsd_new *b, int32_t node);
/* ---- clips (hsd_new_clips.c) ---- */
struct hsd_clip_plan;
/* The scene's animations planned and put into b->m's animation tables (before the DAT is written). */
ue_result hsd_new_clips(hsd_new *b, struct hsd_clip_plan *plan);
/* The written DAT's clips evaluated at every frame against the glTF's curves (import.hsd.internal;
 * `out` is emptied on failure). */
ue_result hsd_new_clips_check(const struct hsd_clip_plan *plan, ue_buf *out, ue_diag *d);
void hsd_new_clips_free(hsd_new *b, struct hsd_clip_plan *plan);

#endif
