/* unearth — internal: the tables of a new HSD model being built from a scene (hsd_new.c joints and
 * assembly, hsd_new_mesh.c PObjs, hsd_new_material.c MObjs and images). */
#ifndef UNEARTH_HSD_NEW_H
#define UNEARTH_HSD_NEW_H

#include "hsd/hsd_new_int.h"

#define HSD_NEW_MAX_POBJS 240     /* the runtime's about-240 PObjs per model (issue 23) */
#define HSD_NEW_MAX_DEPTH 1024    /* the struct reader's joint depth */

typedef struct hsd_new {
    const ue_scene *s;
    const ue_hsd_new_options *o;
    ue_diag *d;
    ue_hsd_model m;
    size_t joint_cap, dobj_cap, pobj_cap, attr_cap, mobj_cap, tobj_cap, image_cap;
    int32_t *joint_of_node;       /* scene node → joint */
    int32_t *mobj_of_material;    /* scene material + 1 (0: the default) → mobj, -1 not made yet */
    int32_t *image_of_texture;    /* scene texture → image */
    uint8_t *material_colours;    /* scene material + 1: bit 1 vertex colours drawn, bit 2 with alpha < 1 */
    ue_buf **bufs;                /* owned bytes the tables point into (stable addresses) */
    size_t buf_count, buf_cap;
    ue_hsd_new_stats st;
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

/* ---- clips (hsd_new_clips.c) ---- */
struct hsd_clip_plan;
/* The scene's animations planned and put into b->m's animation tables (before the DAT is written). */
ue_result hsd_new_clips(hsd_new *b, struct hsd_clip_plan *plan);
/* The written DAT's clips evaluated at every frame against the glTF's curves (import.hsd.internal;
 * `out` is emptied on failure). */
ue_result hsd_new_clips_check(const struct hsd_clip_plan *plan, ue_buf *out, ue_diag *d);
void hsd_new_clips_free(hsd_new *b, struct hsd_clip_plan *plan);

#endif
