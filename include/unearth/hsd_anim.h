/* unearth — HSD animation (docs/formats/hsd-animation.md): key streams (FObj) decoded, evaluated and encoded, and
 * the animation trees (AnimJoint, MatAnimJoint → MatAnim → TexAnim) bound to a model's tables. */
#ifndef UNEARTH_HSD_ANIM_H
#define UNEARTH_HSD_ANIM_H

#include "unearth/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- key streams (docs/formats/hsd-animation.md#key-streams) -------------------------------- */

/* Opcodes of a key stream entry (low nibble of a pack header). */
typedef enum ue_hsd_key_op {
    UE_HSD_KEY_NONE = 0, /* end of stream */
    UE_HSD_KEY_CON = 1,  /* constant until the next key */
    UE_HSD_KEY_LIN = 2,  /* linear to the next key */
    UE_HSD_KEY_SPL0 = 3, /* hermite, slope 0 */
    UE_HSD_KEY_SPL = 4,  /* hermite with its own slope */
    UE_HSD_KEY_SLP = 5,  /* a slope only: overrides the outgoing tangent; not a key */
    UE_HSD_KEY_KEY = 6   /* step key */
} ue_hsd_key_op;

/* Value / slope formats (FObjDesc +0x0D / +0x0E): bits 5–7 the type, bits 0–4 the fraction
 * (integer types are divided by 2^frac; FLOAT ignores the fraction, as the runtime does). */
#define UE_HSD_FMT_FLOAT 0x00u
#define UE_HSD_FMT_S16 0x20u
#define UE_HSD_FMT_U16 0x40u
#define UE_HSD_FMT_S8 0x60u
#define UE_HSD_FMT_U8 0x80u
#define UE_HSD_FMT_TYPE(f) ((uint8_t)((f)&0xE0u))
#define UE_HSD_FMT_FRAC(f) ((uint8_t)((f)&0x1Fu))

/* One decoded entry, in stream order. A key's `time` is its local time (key 0 at 0, each next
 * key `wait` frames later); an SLP entry carries only `slope` and the time of the key before
 * it (wait 0). Values and slopes are already divided by 2^frac. */
typedef struct ue_hsd_key {
    uint8_t op;                    /* ue_hsd_key_op, never NONE */
    float time;
    float value;                   /* 0 for SLP */
    float slope;                   /* SPL, SLP; 0 otherwise */
    uint32_t wait;                 /* frames to the next key as stored; 0 for SLP */
} ue_hsd_key;

/* Decodes `length` bytes of key data (values and slopes LITTLE-endian, waits LEB128, KEY read
 * with its wait as the runtime does). Stops at the end or at an opcode 0. Refused (strict) or
 * cut at the damage (tolerant, keeping the entries before it): a stream running past `length`,
 * an unknown opcode or format type, a wait or total time past UE_HSD_MAX_FRAMES, NaN/Inf. `path`
 * names the stream in diagnostics and `base_offset` is the file offset of data[0]. Work and
 * memory are linear in `length`. *keys is malloc'd (free with free()); NULL when *count is 0. */
#define UE_HSD_MAX_FRAMES 1000000u
UE_API ue_result ue_hsd_keys_decode(const uint8_t *data, size_t length, uint8_t value_format,
                                    uint8_t slope_format, ue_mode mode, ue_hsd_key **keys,
                                    size_t *count, ue_diag *d, const char *path,
                                    uint64_t base_offset);

/* Encodes entries back into a key stream (pack headers grouping runs of one opcode, the writer's
 * inverse of ue_hsd_keys_decode; `time` is ignored, `wait` is written). Integer formats round to
 * the nearest step of 2^-frac. UE_ERR_USAGE for a value the format cannot hold. */
UE_API ue_result ue_hsd_keys_encode(const ue_hsd_key *keys, size_t count, uint8_t value_format,
                                    uint8_t slope_format, ue_buf *out);

/* The track's value at clip frame `frame` (docs/formats/hsd-animation.md#evaluation: local time = frame + start_frame; the
 * interpolation register rules; hermite tangents in value units per frame). Before the first
 * key returns false (the caller keeps the rest value); after the last key, the last value. */
UE_API bool ue_hsd_keys_eval(const ue_hsd_key *keys, size_t count, float start_frame, float frame,
                             float *value);

/* ---- animation trees bound to a model (docs/formats/hsd-animation.md: trees, AObj, games, roots) -- */

/* AObj flags. */
#define UE_AOBJ_NO_UPDATE 0x10000000u
#define UE_AOBJ_LOOP 0x20000000u
#define UE_AOBJ_NO_ANIM 0x40000000u

/* Joint track types (docs/formats/hsd-animation.md#track-types). */
enum {
    UE_HSD_JT_ROTX = 1, UE_HSD_JT_ROTY = 2, UE_HSD_JT_ROTZ = 3, UE_HSD_JT_PATH = 4,
    UE_HSD_JT_TRAX = 5, UE_HSD_JT_TRAY = 6, UE_HSD_JT_TRAZ = 7,
    UE_HSD_JT_SCAX = 8, UE_HSD_JT_SCAY = 9, UE_HSD_JT_SCAZ = 10,
    UE_HSD_JT_NODE = 11, UE_HSD_JT_BRANCH = 12
};
/* Material track types. */
enum {
    UE_HSD_MT_AMBIENT_R = 1, UE_HSD_MT_DIFFUSE_R = 4, UE_HSD_MT_DIFFUSE_G = 5, UE_HSD_MT_DIFFUSE_B = 6,
    UE_HSD_MT_SPECULAR_R = 7, UE_HSD_MT_ALPHA = 10 /* transparency: alpha = 1 − v */
};
/* Texture track types. */
enum {
    UE_HSD_TT_TIMG = 1, UE_HSD_TT_TRAU = 2, UE_HSD_TT_TRAV = 3, UE_HSD_TT_SCAU = 4,
    UE_HSD_TT_SCAV = 5, UE_HSD_TT_ROTX = 6, UE_HSD_TT_ROTY = 7, UE_HSD_TT_ROTZ = 8,
    UE_HSD_TT_BLEND = 9, UE_HSD_TT_TCLT = 10
};

/* One FObjDesc (0x14) with its key stream decoded into the model's `anim_keys`. */
typedef struct ue_hsd_track {
    uint32_t offset;               /* the FObjDesc's data offset */
    uint8_t type;                  /* track type (docs/formats/hsd-animation.md#track-types); its meaning depends on the target's kind */
    uint8_t value_format, slope_format; /* +0x0D, +0x0E as stored */
    float start_frame;             /* +0x08 */
    uint32_t data_offset;          /* the key bytes' data offset */
    const uint8_t *data;           /* the key bytes as stored (the writer writes exactly these) */
    uint32_t length;
    uint32_t first_key, key_count; /* into anim_keys */
} ue_hsd_track;

typedef struct ue_hsd_aobj {       /* AObjDesc (0x10) */
    uint32_t offset;
    uint32_t flags;                /* UE_AOBJ_* and the other bits as stored */
    float end_frame;
    uint32_t first_track, track_count; /* into anim_tracks, in list order */
    uint32_t obj_offset;           /* +0x0C kept raw (the PATH spline joint), 0 when NULL */
} ue_hsd_aobj;

typedef enum ue_hsd_anim_kind {
    UE_HSD_ANIM_JOINT = 0,         /* an AnimJoint node, bound to the joint at the same place */
    UE_HSD_ANIM_MATERIAL = 1,      /* a MatAnim, bound to the k-th DObj of its joint (its MObj) */
    UE_HSD_ANIM_TEXTURE = 2        /* a TexAnim of that MatAnim, bound to the TObj with its id */
} ue_hsd_anim_kind;

/* One node of an animation tree, bound to what it animates. Every AnimJoint, MatAnim and TexAnim
 * node read is a row (also with no AObj), in tree pre-order, so the writer rebuilds the tree. */
typedef struct ue_hsd_anim_target {
    ue_hsd_anim_kind kind;
    uint32_t offset;               /* the node's data offset */
    int32_t joint;                 /* joints: the joint this node sits on (every kind) */
    int32_t dobj;                  /* MATERIAL, TEXTURE: dobjs (the MatAnim's DObj), else -1 */
    int32_t tobj;                  /* TEXTURE: tobjs (first TObj of the MObj with the id), or -1 */
    int32_t aobj;                  /* anim_aobjs, -1 when the node has none */
    uint32_t flags;                /* JOINT: AnimJoint +0x10; TEXTURE: the TexAnim's id; else 0 */
    uint32_t first_image, image_count; /* TEXTURE: the TIMG table, into anim_images */
    uint32_t first_tlut, tlut_count;   /* TEXTURE: the TCLT table, into anim_tluts */
    uint32_t raw_offset;           /* JOINT: RObjAnimJoint +0x0C; MATERIAL: RenderAnim +0x0C;
                                      kept raw, 0 when NULL */
} ue_hsd_anim_target;

/* One animation: the tree at index `index` of a ModelSet's anims[] (skeletal) or matanims[]
 * (material), or a standalone `*_animjoint` / `*_matanim_joint` root bound to the set's joints. */
typedef struct ue_hsd_clip {
    uint32_t set;                  /* sets */
    uint32_t index;                /* position in its array: the animation index PKX entries use */
    bool material;                 /* a MatAnimJoint tree (else an AnimJoint tree) */
    const char *root_name;         /* the public root it came from for standalone trees, else NULL */
    uint32_t offset;               /* the tree root's data offset */
    float end_frame;               /* the largest end_frame of its AObjs */
    uint32_t first_target, target_count; /* into anim_targets */
    bool figatree;                 /* a Melee FigaTree (docs/formats/hsd-animation.md#figatree) bound by joint index, named by its root */
} ue_hsd_clip;

/* What a model holds of animation (part of ue_hsd_model, read by ue_hsd_model_read). The TIMG /
 * TCLT tables name rows of the model's images / tluts (a table image is one more image row,
 * shared like every struct); -1 for a NULL table entry. */
typedef struct ue_hsd_anims {
    ue_hsd_clip *clips;
    size_t clip_count;
    ue_hsd_anim_target *targets;
    size_t target_count;
    ue_hsd_aobj *aobjs;
    size_t aobj_count;
    ue_hsd_track *tracks;
    size_t track_count;
    ue_hsd_key *keys;
    size_t key_count;
    int32_t *images;
    size_t image_count;
    int32_t *tluts;
    size_t tlut_count;
    uint64_t attached_bytes;       /* bytes of the files FigaTree clips came from (convert --anims) */
} ue_hsd_anims;

#ifdef __cplusplus
}
#endif
#endif
