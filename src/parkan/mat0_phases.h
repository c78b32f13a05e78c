/* unearth internal — animated MAT0 phases (docs/formats/materials.md#phase-clock): the engine's phase clock, the STEP keys
 * that reproduce it over one glTF clip, and the atlas of phase textures that glTF can switch. */
#ifndef UE_PARKAN_MAT0_PHASES_H
#define UE_PARKAN_MAT0_PHASES_H

#include "unearth/parkan_material.h"
#include "scene/scene_atlas.h"
#include "unearth/scene.h"

/* Key times (k1) count the engine's game time in milliseconds (docs/parkan-materials.md:
 * the clock is an unsigned 32-bit tick count taken modulo 2^32, as timeGetTime() gives). */
#define UE_MAT0_TICKS_PER_SECOND 1000u
/* Largest side of a generated atlas: every glTF viewer's GPU takes 8192. */
#define UE_MAT0_ATLAS_MAX_SIDE 8192u

typedef enum ue_mat0_mode {
    UE_MAT0_MODE_LOOP = 0,
    UE_MAT0_MODE_PINGPONG = 1,
    UE_MAT0_MODE_ONESHOT = 2,
    UE_MAT0_MODE_RANDOM = 3
} ue_mat0_mode;

/* The block's mode (header & 7) and its cycle: the time of its last key (0 without keys). */
uint32_t ue_mat0_anim_mode(const ue_mat0_anim *a);
uint32_t ue_mat0_cycle(const ue_mat0_anim *a);

/* The key whose phase the engine shows `delta` ticks after the WEAR row's start time (loop,
 * ping-pong, one-shot; keys in time order): the last key at or before the cycle position,
 * the last key when the position lies before the first key (the segment that wraps to key 0).
 * -1 for random or unknown modes and for a block without keys. */
long ue_mat0_key_at(const ue_mat0_anim *a, uint32_t delta);

/* One STEP key: from `tick` on, the engine shows key `key`. */
typedef struct ue_mat0_step {
    uint32_t tick;
    uint32_t key;
} ue_mat0_step;

/* The STEP keys that equal ue_mat0_key_at at every whole tick of one clip: one cycle for loop
 * and one-shot, forward then back (2 cycles) for ping-pong; the last step is at `*span` (the
 * clip's length). `*loop` says whether the clip repeats. UE_ERR_UNSUPPORTED for random or
 * unknown modes and for a cycle of length 0 (nothing moves). Work is linear in key_count. */
ue_result ue_mat0_steps(const ue_mat0_anim *a, ue_mat0_step **steps, size_t *count, uint32_t *span, bool *loop);

/* The phase atlas's style (docs/parkan-materials.md#animated-phases): a one-texel gutter that
 * repeats each cell's edge (linear filtering at a border sees the cell's own texels), images
 * smaller than the largest scaled to the cell by nearest neighbour, power-of-two sides (mipmapped
 * in every viewer; WebGL 1 refuses mips of other sizes), at most UE_MAT0_ATLAS_MAX_SIDE. */
extern const ue_atlas_style ue_mat0_atlas_style;

/* Gives material `material` scene texture `texture` (an atlas of `atlas`'s layout, made by
 * ue_atlas_texture, so several materials share one image) as its base-colour texture and a
 * new clip named after the material with one STEP UV-offset channel: `cell_of_key[k]` is the
 * atlas cell of key k of `a`. */
ue_result ue_mat0_animate(ue_scene *s, int32_t material, const ue_mat0_anim *a, const ue_atlas *atlas,
                          const uint32_t *cell_of_key, int32_t texture);

#endif
