/* unearth — animated MAT0 phases (docs/formats/materials.md#phase-clock) for glTF: the engine's phase clock, STEP keys equal
 * to it at every game tick, an atlas of the phase textures and the clip that switches its cells. */
#include <stdlib.h>
#include <string.h>

#include "parkan/mat0_phases.h"

uint32_t ue_mat0_anim_mode(const ue_mat0_anim *a) { return a->header & 7u; }

uint32_t ue_mat0_cycle(const ue_mat0_anim *a) {
    return a->key_count && a->keys ? a->keys[a->key_count - 1].k1 : 0;
}

/* Where in the cycle the engine stands `delta` ticks after the start (docs/formats/materials.md#phase-clock, sub_100031F0):
 * loop wraps, ping-pong runs back on odd cycles, one-shot stops at the end. */
static uint32_t cycle_position(uint32_t mode, uint32_t len, uint32_t delta) {
    if (!len) return 0; /* one instant: nothing to divide by */
    uint32_t r = delta % len;
    if (mode == UE_MAT0_MODE_PINGPONG) return (delta / len) & 1u ? len - r : r;
    if (mode == UE_MAT0_MODE_ONESHOT) return delta < len ? delta : len;
    return r;
}

/* The last key at or before `r` (binary search over the time-ordered keys); before the
 * first key, the last one, whose segment wraps to key 0. */
static uint32_t key_for_position(const ue_mat0_anim *a, uint32_t r) {
    uint32_t lo = 0, hi = a->key_count; /* first key later than r lies in [lo, hi] */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (a->keys[mid].k1 <= r) lo = mid + 1;
        else hi = mid;
    }
    return lo ? lo - 1 : (uint32_t)a->key_count - 1;
}

long ue_mat0_key_at(const ue_mat0_anim *a, uint32_t delta) {
    uint32_t mode = ue_mat0_anim_mode(a);
    if (!a->key_count || !a->keys || mode > UE_MAT0_MODE_ONESHOT) return -1;
    return (long)key_for_position(a, cycle_position(mode, ue_mat0_cycle(a), delta));
}

static int compare_u32(const void *x, const void *y) {
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

/* Every tick at which the shown key can change within [0, span): the key times, and for
 * ping-pong's backward half the tick just after the position falls below a key time
 * (position len - x < b first holds at x = len - b + 1 whole ticks). */
static size_t change_ticks(const ue_mat0_anim *a, uint32_t mode, uint32_t len, uint32_t *out) {
    size_t n = 0;
    out[n++] = 0;
    for (size_t k = 0; k < a->key_count; k++)
        if (a->keys[k].k1 > 0 && a->keys[k].k1 < len) out[n++] = a->keys[k].k1;
    if (mode != UE_MAT0_MODE_PINGPONG) return n;
    out[n++] = len;
    for (size_t k = 0; k < a->key_count; k++) {
        uint32_t b = a->keys[k].k1;
        if (b > 1 && b <= len) out[n++] = 2 * len - b + 1;
    }
    return n;
}

ue_result ue_mat0_steps(const ue_mat0_anim *a, ue_mat0_step **steps, size_t *count, uint32_t *span, bool *loop) {
    *steps = NULL;
    *count = 0;
    uint32_t mode = ue_mat0_anim_mode(a), len = ue_mat0_cycle(a);
    if (mode > UE_MAT0_MODE_ONESHOT || !a->key_count || !a->keys || !len) return UE_ERR_UNSUPPORTED;
    size_t cap = 2 * (size_t)a->key_count + 3;
    uint32_t *ticks = malloc(cap * sizeof *ticks);
    ue_mat0_step *out = malloc(cap * sizeof *out);
    if (!ticks || !out) {
        free(ticks);
        free(out);
        return UE_ERR_NOMEM;
    }
    *span = mode == UE_MAT0_MODE_PINGPONG ? 2 * len : len;
    *loop = mode != UE_MAT0_MODE_ONESHOT;
    size_t n = change_ticks(a, mode, len, ticks), m = 0;
    qsort(ticks, n, sizeof *ticks, compare_u32);
    for (size_t i = 0; i < n; i++) {
        uint32_t key = (uint32_t)ue_mat0_key_at(a, ticks[i]);
        if (m && (out[m - 1].tick == ticks[i] || out[m - 1].key == key)) continue;
        out[m++] = (ue_mat0_step){ticks[i], key};
    }
    out[m++] = (ue_mat0_step){*span, (uint32_t)ue_mat0_key_at(a, *span)}; /* the clip's length */
    free(ticks);
    *steps = out;
    *count = m;
    return UE_OK;
}

/* ---- the atlas (src/scene/scene_atlas.c lays it out) ------------------------------------------ */

const ue_atlas_style ue_mat0_atlas_style = {1, true, true, UE_MAT0_ATLAS_MAX_SIDE};

/* ---- the scene -------------------------------------------------------------------------------- */

/* The steps with consecutive equal cells merged; the last step (the clip's end) is kept. */
static size_t merge_cells(ue_mat0_step *st, size_t n, const uint32_t *cell_of_key) {
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m && i + 1 < n && cell_of_key[st[m - 1].key] == cell_of_key[st[i].key]) continue;
        st[m++] = st[i];
    }
    return m;
}

static ue_result add_clip(ue_scene *s, int32_t material, int32_t slot, const ue_atlas *atlas,
                          const ue_mat0_step *st, size_t n, uint32_t span, bool loop, const uint32_t *cell_of_key) {
    int32_t clip = ue_scene_add_animation(s, s->materials[material].name);
    ue_atlas_key *keys = malloc(n * sizeof *keys);
    if (clip < 0 || !keys) {
        free(keys);
        return UE_ERR_NOMEM;
    }
    ue_scene_animation *an = &s->animations[clip];
    an->fps = (float)UE_MAT0_TICKS_PER_SECOND; /* one frame = one game tick */
    an->end_frame = (float)span;
    an->loop = loop;
    an->source = s->materials[material].source;
    for (size_t i = 0; i < n; i++)
        keys[i] = (ue_atlas_key){(float)((double)st[i].tick / UE_MAT0_TICKS_PER_SECOND), cell_of_key[st[i].key]};
    ue_anim_channel *ch = ue_atlas_step_channel(s, clip, material, slot, atlas, keys, n);
    free(keys);
    if (!ch) return UE_ERR_NOMEM;
    ch->source = s->materials[material].source;
    return UE_OK;
}

ue_result ue_mat0_animate(ue_scene *s, int32_t material, const ue_mat0_anim *a, const ue_atlas *atlas,
                          const uint32_t *cell_of_key, int32_t texture) {
    ue_mat0_step *st;
    size_t n;
    uint32_t span;
    bool loop;
    ue_result r = ue_mat0_steps(a, &st, &n, &span, &loop);
    if (r != UE_OK) return r;
    n = merge_cells(st, n, cell_of_key);
    int32_t slot = ue_scene_add_texture_slot(s, material, UE_TEX_BASE_COLOR, texture, 0);
    if (slot < 0) r = UE_ERR_NOMEM;
    if (r == UE_OK) {
        /* the rest pose: the cell shown at tick 0 */
        ue_atlas_cell_transform(atlas, cell_of_key[st[0].key], &s->materials[material].slots[slot].transform);
        r = add_clip(s, material, slot, atlas, st, n, span, loop, cell_of_key);
    }
    free(st);
    return r;
}
