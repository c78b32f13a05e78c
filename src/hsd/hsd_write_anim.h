/* unearth — internal: the HSD model writer's animation part (docs/formats/hsd-animation.md#tree-shapes, docs/formats/hsd-model.md#scene-data): the
 * checks on a model's anim tables and the AnimJoint / MatAnimJoint trees laid out in a new DAT. */
#ifndef UE_HSD_WRITE_ANIM_H
#define UE_HSD_WRITE_ANIM_H

#include "unearth/hsd_model.h"
#include "hsd/dat_builder.h"

#define HSD_WRITE_NOWHERE UINT32_MAX

/* Where the model writer placed the rows the animation trees point at (data offsets, indexed
 * like the model's tables; HSD_WRITE_NOWHERE for a set written as a plain joint root). */
typedef struct hsd_anim_links {
    const uint32_t *joint_at, *image_at, *tlut_at, *set_at;
} hsd_anim_links;

/* Checks m->anims against the model's tables before anything is written: links in range, clip
 * indices without holes or twins, kinds matching the clip, every tree node reachable in
 * lock-step with its set's JObj tree, MatAnims covering a prefix of their joint's DObj list.
 * UE_ERR_USAGE with a "hsd.write.anim" diagnostic naming the row. */
ue_result hsd_write_anims_check(const ue_hsd_model *m, ue_diag *d);

/* Places and fills every clip (trees, AObjs, FObj lists, key bytes, TexAnim tables), the
 * ModelSet anims[] / matanims[] arrays and the standalone roots. Only after the check passed;
 * an allocation failure is recorded in the builder (b->failed) or returned as UE_ERR_NOMEM. */
ue_result hsd_write_anims(ue_dat_builder *b, const ue_hsd_model *m, const hsd_anim_links *l);

#endif
