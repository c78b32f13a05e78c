/* unearth — internal: the runtime's evaluation of a whole HSD clip on a model (docs/formats/hsd-animation.md#tree-shapes,
 * docs/formats/hsd-animation.md#track-types): joint, material and texture states at a frame, the reference the glTF conversion meets. */
#ifndef UNEARTH_HSD_ANIM_EVAL_H
#define UNEARTH_HSD_ANIM_EVAL_H

#include "unearth/hsd_model.h"

/* One track's key walk kept between frames (hsd_keys_eval_at), so sampling a track of K keys at
 * F increasing frames costs O(K + F) instead of O(K·F). Reset it before a track's first frame. */
typedef struct hsd_key_cursor {
    double p0, p1, d0, d1, t_a, t_b, last;
    size_t next;
    uint8_t op_intrp, prev_op;
    bool have_key, pending;
} hsd_key_cursor;
void hsd_key_cursor_reset(hsd_key_cursor *c);
/* ue_hsd_keys_eval's value, resumed from *c (any frame order; increasing frames are the fast case). */
bool hsd_keys_eval_at(hsd_key_cursor *c, const ue_hsd_key *keys, size_t count, float start_frame, float frame,
                      float *value);

/* The value `t` frames into the cursor's segment of `span` frames, by its interpolation opcode. */
static inline double hsd_cursor_segment(const hsd_key_cursor *c, double t, double span) {
    switch (c->op_intrp) {
    case UE_HSD_KEY_LIN:
        return span > 0 ? c->p0 + (c->p1 - c->p0) * (t / span) : c->p1;
    case UE_HSD_KEY_SPL0:
    case UE_HSD_KEY_SPL:
    case UE_HSD_KEY_SLP: {
        if (!(span > 0)) return c->p1;
        double u = t / span, u2 = u * u, u3 = u2 * u;
        return c->p0 * (2 * u3 - 3 * u2 + 1) + c->p1 * (-2 * u3 + 3 * u2) +
               span * c->d0 * (u3 - 2 * u2 + u) + span * c->d1 * (u3 - u2);
    }
    default: /* CON, KEY: the earlier key's value until the next key */
        return c->p0;
    }
}

/* hsd_keys_eval_at for the usual next frame, inlined: still inside the segment the cursor holds,
 * or past the track's last key; any other frame takes the walk. The same value either way. */
static inline bool hsd_keys_eval_next(hsd_key_cursor *c, const ue_hsd_key *keys, size_t count, float start_frame,
                                      float frame, float *value) {
    double local = (double)frame + (double)start_frame;
    if (c->have_key && local >= c->last && keys && (c->pending ? local < c->t_b : c->next >= count)) {
        c->last = local;
        *value = (float)(c->pending ? hsd_cursor_segment(c, local - c->t_a, c->t_b - c->t_a) : c->p1);
        return true;
    }
    return hsd_keys_eval_at(c, keys, count, start_frame, frame, value);
}

/* `frame` is a clip frame, not clamped to the clip's end frame (the caller samples 0 … end).
 * Tracks whose local time has not reached their first key leave the value as it was; PATH and
 * the game-callback tracks are not applied. Indices that point outside the model's tables are
 * skipped (the reader has reported them), so hand-built models cannot make these read astray. */

typedef struct hsd_joint_state { float rotation[3], scale[3], translation[3]; bool visible; bool classical_scale; } hsd_joint_state;
typedef struct hsd_material_state { float ambient[3], diffuse[3], specular[3]; float alpha; uint32_t animated; /* bit per track type 1..13 that has a key at or before frame */ } hsd_material_state;
typedef struct hsd_texture_state { float translation[3], scale[3], rotation[3]; int32_t image; int32_t tlut; float blending; uint32_t animated; } hsd_texture_state;
/* Rest values of every joint, then the clip's JOINT targets applied at `frame` (absolute values replacing rest components; |scale| < 1e-3 clamped to ±1e-3; NODE/BRANCH visibility, BRANCH for the subtree; classical_scale from AnimJoint flags bit 0, else the joint's own flag). `out` has m->joint_count rows. */
void hsd_anim_joint_states(const ue_hsd_model *m, size_t clip, float frame, hsd_joint_state *out);
/* The same with one cursor per track of the clip's joint targets (hsd_anim_clip_tracks of them,
 * reset before the first frame), for frames sampled in increasing order. */
size_t hsd_anim_clip_tracks(const ue_hsd_model *m, size_t clip);
void hsd_anim_joint_states_at(const ue_hsd_model *m, size_t clip, float frame, hsd_key_cursor *cursors,
                              hsd_joint_state *out);
/* A skeletal clip resolved once for sampling at increasing frames: its tracks in application
 * order with a cursor each, and every joint's rest state. hsd_joint_clip_states gives
 * hsd_anim_joint_states_at's states; make returns false when out of memory. */
typedef struct hsd_joint_op hsd_joint_op;
typedef struct hsd_joint_clip {
    hsd_joint_op *ops;
    hsd_key_cursor *cursors;
    size_t op_count;
    hsd_joint_state *rest;
} hsd_joint_clip;
bool hsd_joint_clip_make(const ue_hsd_model *m, size_t clip, hsd_joint_clip *c);
void hsd_joint_clip_states(const ue_hsd_model *m, hsd_joint_clip *c, float frame, hsd_joint_state *out);
void hsd_joint_clip_free(hsd_joint_clip *c);
/* One MATERIAL target at `frame`, starting from its MObj's Material (colours /255, alpha); ALPHA track → alpha = 1 − v. */
void hsd_anim_material_state(const ue_hsd_model *m, size_t target, float frame, hsd_material_state *out);
/* One TEXTURE target at `frame`, from its TObj's rest SRT and image; TIMG → m->anims.images[first_image + (int)v] unless that entry is -1 or out of range (then the image stays); TCLT likewise. */
void hsd_anim_texture_state(const ue_hsd_model *m, size_t target, float frame, hsd_texture_state *out);

/* Notes on the three calls above: a visibility track shows its joint (or subtree) when its value
 * is > 0.5; colour tracks (material types 1–9) and ALPHA give values clamped to 0..1 (the runtime
 * stores them as (u8)(255·v) and 1 − v); a MObj without a Material starts white and opaque.
 * Texture types 2–8 overwrite the TObj's translation U/V, scale U/V and rotation X/Y/Z, BLEND its
 * blending; the `animated` bits are set (1 << type) by every track with a key at or before
 * `frame`, also those of types applied elsewhere (PE, LOD, TEV). */

#endif
