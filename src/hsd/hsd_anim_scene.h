/* unearth — internal: HSD animation clips (ue_hsd_model.anims) → scene IR animations, sampled from
 * the runtime evaluation (hsd_anim_eval.h) at the game's 60 frames per second (docs/hsd-animation.md). */
#ifndef UNEARTH_HSD_ANIM_SCENE_H
#define UNEARTH_HSD_ANIM_SCENE_H

#include "hsd/hsd_to_scene.h"

#define HSD_ANIM_FPS 60.0

/* The frames a clip is sampled at: 0, 1, …, floor(end_frame), and end_frame itself when it is
 * fractional; `time` is frame / 60 seconds, so the last key sits exactly at end_frame / 60. */
typedef struct hsd_frames {
    float *frame;
    float *time;
    uint32_t count;
    bool increasing; /* every time after the one before it (checked once for all channels) */
} hsd_frames;

/* The meshes and materials (`meshes`, called once with `arg`), then every clip of every model set
 * (hsd_anim_scene.c): glTF animation N = anims[N] and matanims[N] of a set together, named
 * Animation_N; standalone roots continue the numbering. Called by hsd_model_to_scene once the
 * joint nodes exist; the first skeletal clips are evaluated on the other processors while
 * `meshes` runs (it alone touches the scene and x->c then), and no clip is added when it fails
 * or fails the parse. Damage is reported through x->c: strict fails, tolerant leaves out the clip
 * (or the channel) and goes on. */
typedef ue_result (*hsd_meshes_fn)(hsd_scene_ctx *x, void *arg);
ue_result hsd_meshes_and_anims(hsd_scene_ctx *x, hsd_meshes_fn meshes, void *arg);

/* Texture swaps (hsd_matanim_scene.c): per TObj drawn as a base slot and swapped by a TIMG track
 * of any clip, one atlas of its image and every image of those TexAnim tables, which replaces the
 * slot's texture (the rest transform then selects cell 0). *out has one entry per model TObj
 * (NULL: no atlas); free it with hsd_swaps_free. */
typedef struct hsd_atlas hsd_atlas;
ue_result hsd_swaps_prepare(hsd_scene_ctx *x, hsd_atlas ***out);
void hsd_swaps_free(hsd_atlas **atlases, size_t tobj_count);

/* The MATERIAL and TEXTURE targets of material clip `clip` into animation `anim`. */
ue_result hsd_matanim_to_scene(hsd_scene_ctx *x, hsd_atlas *const *atlases, size_t clip, int32_t anim,
                              const hsd_frames *f);

/* Appends a channel of `anim` on `target` from one sample per frame (`values`: f->count ×
 * components). STEP keeps a key where the value changes (and the last); LINEAR drops interior
 * keys that interpolation between their neighbours reproduces within 1e-6 (relative), slerp for
 * rotations. *out is the channel (NULL on failure); the caller sets node / material / slot. */
ue_result hsd_anim_add_sampled(ue_scene *s, int32_t anim, ue_anim_target target, ue_interp interp,
                               const hsd_frames *f, const float *values, ue_anim_channel **out);

/* Whether every track of AObj `aobj` steps (CON and KEY keys only): such targets get STEP. */
bool hsd_aobj_steps(const ue_hsd_model *m, int32_t aobj, uint8_t first_type, uint8_t last_type);
/* Whether AObj `aobj` has a track of a type in first_type..last_type. */
bool hsd_aobj_has_track(const ue_hsd_model *m, int32_t aobj, uint8_t first_type, uint8_t last_type);

#endif
