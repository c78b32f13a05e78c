/* unearth internal — animated MAT0 phases (spec §5.3): the engine's phase clock, the STEP keys
 * that reproduce it over one glTF clip, and the atlas of phase textures that glTF can switch. */
#ifndef UE_PARKAN_MAT0_PHASES_H
#define UE_PARKAN_MAT0_PHASES_H

#include "unearth/parkan_material.h"
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

/* One decoded phase image. */
typedef struct ue_mat0_image {
    uint32_t width, height;
    const uint8_t *rgba;         /* width × height × 4, rows top first */
} ue_mat0_image;

/* An atlas: `cols` × `rows` cells of (cell_w + 2) × (cell_h + 2) texels from the top left, cell
 * i at column i % cols, row i / cols (cols = the smallest c with c² ≥ count), both sides rounded
 * up to a power of two; each image fills its cell's inner cell_w × cell_h (scaled by nearest
 * neighbour when smaller than the largest image) and a one-texel gutter repeats its edge, so
 * linear filtering at a cell's border sees the cell's own texels. */
typedef struct ue_mat0_atlas {
    uint32_t width, height, cols, rows, cell_w, cell_h;
    uint8_t *rgba;
} ue_mat0_atlas;

/* UE_ERR_LIMIT when a side would exceed UE_MAT0_ATLAS_MAX_SIDE. */
ue_result ue_mat0_atlas_build(const ue_mat0_image *images, size_t count, ue_mat0_atlas *out);
void ue_mat0_atlas_free(ue_mat0_atlas *a);
/* The KHR_texture_transform offset and scale that map UV [0,1]² onto cell `cell`. */
void ue_mat0_atlas_cell_uv(const ue_mat0_atlas *a, size_t cell, float offset[2], float scale[2]);

/* A new scene texture named `name` holding the atlas's texels; its index, or -1 out of memory. */
int32_t ue_mat0_atlas_texture(ue_scene *s, const ue_mat0_atlas *atlas, const char *name);

/* Gives material `material` scene texture `texture` (an atlas of `atlas`'s layout, made by
 * ue_mat0_atlas_texture; atlas->rgba is not read, so several materials share one image) as
 * its base-colour texture and a new clip named after the material with one STEP UV-offset
 * channel: `cell_of_key[k]` is the atlas cell of key k of `a`. */
ue_result ue_mat0_animate(ue_scene *s, int32_t material, const ue_mat0_anim *a, const ue_mat0_atlas *atlas,
                          const uint32_t *cell_of_key, int32_t texture);

#endif
