/* unearth — what the scene IR's construction (scene.c) and its validation (scene_validate.c,
 * scene_validate_mesh.c) share: the allocation caps and the validation context and reporters. */
#ifndef UE_SCENE_INT_H
#define UE_SCENE_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "unearth/scene.h"

/* Caps on what one scene may ask us to allocate; far above any real game asset and low
 * enough that size arithmetic (× 16 bytes per vertex component group) cannot overflow. */
#define UE_SCENE_MAX_OBJECTS ((size_t)1 << 24)
#define UE_SCENE_MAX_VERTICES ((uint32_t)1 << 26)
#define UE_SCENE_MAX_TEXTURE_SIDE 16384u

typedef struct vctx {
    ue_diag *d;
    size_t errors;
    bool forest_ok; /* parent links are in range and acyclic, so ancestry walks terminate */
} vctx;

/* Reporters: an error (counted, so validation fails) or a warning at `path`. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
void ue_scene_verr(vctx *v, const char *code, const char *path, const char *fmt, ...);
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
void ue_scene_vwarn(vctx *v, const char *code, const char *path, const char *fmt, ...);

/* Reports the first non-finite value of `a[0..n)` (and how many there are) under base/what. */
void ue_scene_check_finite(vctx *v, const char *base, const char *what, const float *a, size_t n);

/* Whether a 64-byte name field is NUL-terminated. */
bool ue_scene_name_ok(const char *name);

/* ue_scene_add_channel with arrays the caller filled (malloc'd: key_count times, key_count ×
 * components (× 3 for CUBIC) values): the scene takes them over, no copy. NULL (the arrays
 * still the caller's) where ue_scene_add_channel would fail. */
ue_anim_channel *ue_scene_take_channel(ue_scene *s, int32_t animation, ue_anim_target target, ue_interp interp,
                                       uint32_t key_count, float *times, float *values);

/* The mesh-side checks (scene_validate_mesh.c) that ue_scene_validate runs. */
void ue_scene_validate_primitive(vctx *v, const ue_scene *s, size_t mi, size_t pi);
void ue_scene_validate_skins(vctx *v, const ue_scene *s);
void ue_scene_validate_instancing(vctx *v, const ue_scene *s);

/* The key k of a channel with keys (key_count > 0) whose times[k] <= t < times[k + 1], and how far
 * between them (0 at or outside the ends): a binary search, shared by every sampler of glTF curves
 * (ue_anim_channel_sample, the HSD clip import's nlerp) so that sampling costs log(keys). */
void ue_anim_channel_interval(const ue_anim_channel *c, double t, uint32_t *k, double *f);

#endif
