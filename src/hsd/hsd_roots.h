/* unearth — internal: the kind of every root of a DAT, by its name (dat_roots.c) and by the shape
 * of the struct it names (hsd_roots.c), and the check of every root's structures for `validate`. */
#ifndef UE_HSD_ROOTS_H
#define UE_HSD_ROOTS_H

#include "unearth/hsd.h"

/* The length of the name before its kind's suffix: "x_matanim_joint" → 1; the whole name for an
 * exact or prefix rule and for an unknown name. Roots of one model share this stem (docs/formats/hsd-animation.md#root-naming). */
size_t hsd_root_stem_len(const char *name);

/* Fills kinds[i] for every root i: the kind its name announces when the struct it names has
 * that kind's shape (checked strictly, nothing reported), else UE_HSD_ROOT_UNKNOWN. A damaged
 * root is unknown. UE_ERR_NOMEM when memory ran out. */
ue_result hsd_roots_classify(const ue_dat *dat, ue_hsd_root_kind *kinds);

/* Checks the structures of every root whose name announces a kind, in `mode` (violations are
 * errors in strict mode, warnings in tolerant mode). `skip_model_roots`: leave out the roots
 * the model reader walks itself (scene_data, *_joint, *_animjoint, *_matanim_joint). */
ue_result hsd_roots_check(const ue_dat *dat, ue_mode mode, bool skip_model_roots, ue_diag *d);

#endif
