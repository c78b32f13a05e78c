/* unearth — internal: the rows of the sample creature (gamecube_creature.c) that its animations
 * (gamecube_creature_anim.c) bind to, and the builder of those animation tables. */
#ifndef UNEARTH_SAMPLES_GAMECUBE_CREATURE_H
#define UNEARTH_SAMPLES_GAMECUBE_CREATURE_H

#include "unearth/hsd_model.h"

/* Joints in pre-order, DObjs, TObjs and images of the creature (docs/hsd-creature.md). */
enum { J_ROOT, J_HIPS, J_CHEST, J_HEAD, J_JAW, J_ARM_L, J_ARM_R, J_TAIL, JOINTS };
enum { D_BODY, D_LIMBS, D_HEAD, D_EYES, D_MOUTH, DOBJS };
enum { T_SKIN, T_HEAD, T_EYES, T_MOUTH, TOBJS };
enum { IM_SKIN, IM_HEAD, IM_EYES, IM_MOUTH_CLOSED, IM_MOUTH_OPEN, IM_MOUTH_WIDE, IMAGES };

/* Storage of the creature's animation tables (docs/hsd-animation.md, "Sample creature
 * animations"): two skeletal clips and one material clip; key bytes made by ue_hsd_keys_encode. */
#define CREATURE_CLIPS 3
#define CREATURE_TARGETS 24
#define CREATURE_AOBJS 16
#define CREATURE_TRACKS 24
typedef struct creature_anims {
    ue_hsd_clip clips[CREATURE_CLIPS];
    ue_hsd_anim_target targets[CREATURE_TARGETS];
    ue_hsd_aobj aobjs[CREATURE_AOBJS];
    ue_hsd_track tracks[CREATURE_TRACKS];
    int32_t images[3];
    ue_buf keys[CREATURE_TRACKS];
} creature_anims;

/* Fills `a` and points `out` at it (`out` borrows `a`). */
ue_result creature_anims_build(creature_anims *a, ue_hsd_anims *out);
void creature_anims_free(creature_anims *a);

/* The creature's 17 PKX 0xD0 animation entries (XD layout, docs/formats/pkx.md#animation-entry): slot 0 idle → anims[0],
 * slot 2 (physical A) → anims[1], the others idle; 17 × 0xD0 bytes, malloc'd. */
uint8_t *creature_pkx_anim_entries(void);
/* The PKX species number: not 0 (a trainer, whose slots mean other things) and no real species
 * (XD's national numbers end at 386). */
#define CREATURE_SPECIES 999u
/* After ue_pkx_build: the XD preamble's blink block (PartAnimData 2) names matanims[0]. */
void creature_pkx_blink(uint8_t *pkx, size_t size);

#endif
