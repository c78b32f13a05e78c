/* unearth — the neutral scene IR between format readers and exporters: nodes, meshes,
 * materials, textures, skins and animations, each carrying the source id it came from. */
#ifndef UNEARTH_SCENE_H
#define UNEARTH_SCENE_H

#include "unearth/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the IR carries per primitive and material; docs/scene-ir.md explains each field. */
#define UE_MAX_UV_SETS 4        /* texture coordinate sets per primitive */
#define UE_MAX_COLOR_SETS 2     /* vertex colour sets per primitive */
#define UE_MAX_INFLUENCES 8     /* joint influences per vertex */
#define UE_MAX_TEXTURE_SLOTS 8  /* texture slots per material */

/* Where a scene object came from, for diagnostics and glTF extras. */
typedef struct ue_source_id {
    char format[8];     /* "msh", "hsd", ... */
    uint32_t type;      /* resource type (Parkan Res number) or struct kind */
    uint64_t offset;    /* byte offset of the record in its resource/file, UINT64_MAX if n/a */
    uint32_t index;     /* record index within its table */
} ue_source_id;

/* Free-form metadata a reader wants to keep (engine flags, original names): key/value pairs,
 * each a number or a string, written to glTF "extras". Keys are unique per object and
 * "unearth_source", "unearth_clip", "unearth_textures" and "fps" are reserved for the
 * exporter. */
typedef enum ue_extra_kind { UE_EXTRA_NUMBER = 0, UE_EXTRA_STRING = 1 } ue_extra_kind;
typedef struct ue_extra {
    char key[48];
    ue_extra_kind kind;
    double number;               /* UE_EXTRA_NUMBER, finite */
    char text[128];              /* UE_EXTRA_STRING, UTF-8 */
} ue_extra;
typedef struct ue_extras {
    ue_extra *items;             /* owned by the scene */
    size_t count;
} ue_extras;

typedef struct ue_scene_node {
    char name[64];
    int32_t parent;              /* index into nodes, -1 for a root */
    float translation[3];
    float rotation[4];           /* quaternion x, y, z, w */
    float scale[3];
    int32_t mesh;                /* index into meshes, -1 if none */
    int32_t skin;                /* index into skins, -1 if none */
    bool hidden;                 /* rest state of the visibility target (false = shown) */
    ue_source_id source;
    ue_extras extras;
} ue_scene_node;

typedef enum ue_alpha_mode { UE_ALPHA_OPAQUE = 0, UE_ALPHA_MASK = 1, UE_ALPHA_BLEND = 2 } ue_alpha_mode;

typedef struct ue_scene_primitive {
    uint32_t vertex_count;
    float *positions;            /* 3 × vertex_count, required */
    float *normals;              /* 3 × vertex_count or NULL (unit length) */
    float *tangents;             /* 4 × vertex_count or NULL: unit xyz, w = ±1 (bitangent sign) */
    float *uv[UE_MAX_UV_SETS];   /* 2 × vertex_count each or NULL (glTF convention: v down);
                                    sets are used in order: uv[k] needs uv[k - 1] */
    float *colors[UE_MAX_COLOR_SETS]; /* 4 × vertex_count RGBA in [0,1] or NULL; in order */
    uint32_t influences;         /* joint influences per vertex, 1..UE_MAX_INFLUENCES */
    uint16_t *joints;            /* influences × vertex_count (indices into the skin's joints) */
    float *weights;              /* influences × vertex_count, each row sums to 1 */
    uint32_t *indices;           /* triangle list, index_count a multiple of 3 */
    uint32_t index_count;
    int32_t material;            /* index into materials, -1 for the default */
    ue_source_id source;
    bool positions_quantized;    /* POSITION was stored as integers (KHR_mesh_quantization): the
                                    client put the dequantising offset and scale on a node */
} ue_scene_primitive;

typedef struct ue_scene_mesh {
    char name[64];
    ue_scene_primitive *primitives;
    size_t primitive_count;
    ue_source_id source;
    ue_extras extras;
} ue_scene_mesh;

/* Sampler wrap modes (glTF REPEAT / CLAMP_TO_EDGE / MIRRORED_REPEAT); zero is the glTF default. */
typedef enum ue_wrap { UE_WRAP_REPEAT = 0, UE_WRAP_CLAMP = 1, UE_WRAP_MIRROR = 2 } ue_wrap;

typedef struct ue_scene_texture {
    char name[64];
    uint32_t width, height;
    uint8_t *rgba;               /* width × height × 4 bytes, rows top to bottom */
    ue_source_id source;
    /* Sampler state (zero = repeat + linear filtering, the glTF default). */
    ue_wrap wrap_s, wrap_t;
    bool nearest;                /* point sampling (pixel-art / palette textures) */
} ue_scene_texture;

/* What a texture does in its material. Roles without a glTF slot (specular, reflection,
 * other) are kept in the IR and reported by the glTF exporter. */
typedef enum ue_texture_role {
    UE_TEX_BASE_COLOR = 0,
    UE_TEX_NORMAL = 1,
    UE_TEX_EMISSIVE = 2,
    UE_TEX_OCCLUSION = 3,
    UE_TEX_METALLIC_ROUGHNESS = 4,
    UE_TEX_SPECULAR = 5,
    UE_TEX_REFLECTION = 6,
    UE_TEX_OTHER = 7
} ue_texture_role;

/* A UV transform applied to one slot's coordinates (glTF: KHR_texture_transform). */
typedef struct ue_uv_transform {
    bool enabled;                /* written (and animatable) only when set */
    float offset[2];
    float rotation;              /* radians, counter-clockwise */
    float scale[2];              /* ue_scene_add_texture_slot sets 1, 1 */
} ue_uv_transform;

typedef struct ue_texture_slot {
    ue_texture_role role;
    int32_t texture;             /* index into textures */
    uint32_t uv_set;             /* which primitive uv[] set it reads (unless generated) */
    bool generated;              /* coordinates the source computes at draw time (reflection,
                                    highlight … from normals): no uv[] set is read, and glTF
                                    has no place for the slot */
    float strength;              /* normal scale / occlusion strength; 1 by default */
    ue_uv_transform transform;
    ue_extras extras;            /* the reader's notes on the slot (how the source combines it) */
} ue_texture_slot;

typedef struct ue_scene_material {
    char name[64];
    float base_color[4];         /* linear RGBA factor */
    float emissive[3];           /* linear RGB emissive factor; 0 = none */
    float metallic, roughness;
    ue_alpha_mode alpha_mode;
    float alpha_cutoff;
    bool double_sided;
    bool unlit;                  /* KHR_materials_unlit */
    ue_texture_slot slots[UE_MAX_TEXTURE_SLOTS];
    size_t slot_count;
    ue_source_id source;
    ue_extras extras;
} ue_scene_material;

typedef struct ue_scene_skin {
    char name[64];
    int32_t *joints;             /* node indices */
    size_t joint_count;
    float *inverse_bind;         /* 16 × joint_count, column-major, or NULL (identity) */
    int32_t skeleton;            /* root node or -1 */
} ue_scene_skin;

/* What an animation channel drives. Each target implies its value layout (components). */
typedef enum ue_anim_target {
    UE_TARGET_TRANSLATION = 0,   /* node; 3 */
    UE_TARGET_ROTATION = 1,      /* node; 4, quaternion x y z w */
    UE_TARGET_SCALE = 2,         /* node; 3 */
    UE_TARGET_VISIBILITY = 3,    /* node; 1, STEP only: > 0.5 shown, else hidden */
    UE_TARGET_BASE_COLOR = 4,    /* material; 4, linear RGBA */
    UE_TARGET_ALPHA = 5,         /* material; 1, the base colour's alpha */
    UE_TARGET_UV_OFFSET = 6,     /* material + slot; 2 */
    UE_TARGET_UV_SCALE = 7,      /* material + slot; 2 */
    UE_TARGET_UV_ROTATION = 8,   /* material + slot; 1, radians */
    UE_TARGET_TEXTURE_INDEX = 9  /* material + slot; 1, STEP only: a texture index (flipbook) */
} ue_anim_target;
#define UE_TARGET_COUNT 10

typedef enum ue_interp { UE_INTERP_LINEAR = 0, UE_INTERP_STEP = 1, UE_INTERP_CUBIC = 2 } ue_interp;

typedef struct ue_anim_channel {
    ue_anim_target target;
    int32_t node;                /* node targets, else -1 */
    int32_t material;            /* material targets, else -1 */
    int32_t slot;                /* UV / texture-index targets: index into the material's slots */
    ue_interp interpolation;
    uint32_t key_count;
    float *times;                /* key_count seconds, strictly increasing */
    float *values;               /* key_count × components (× 3 for CUBIC: in, value, out) */
    uint32_t components;         /* set by ue_scene_add_channel from the target */
    ue_source_id source;         /* the source track, written to the channel's extras */
} ue_anim_channel;

typedef struct ue_scene_animation {
    char name[64];
    ue_anim_channel *channels;
    size_t channel_count;
    /* Clip metadata from the source (written to extras.unearth_clip when any is set). */
    float fps;                   /* source frame rate, 0 if unknown */
    float start_frame, end_frame;/* source frame range, both 0 if unknown */
    bool loop;
    ue_source_id source;
    ue_extras extras;
} ue_scene_animation;

/* What a scene was converted from and with which options, so that an importer knows it rather
 * than guessing: written to glTF asset.extras.unearth_selection and read back
 * (docs/gltf-output.md). All zero: nothing recorded. */
#define UE_SELECTION_ALL (-1)    /* lod / group: every one (the CLI's `all`) */
typedef struct ue_scene_selection {
    bool recorded;               /* the fields below were set by a converter or read back */
    char format[8];              /* the source's format ("msh"), "" if unknown */
    char file[128];              /* the source file's name without its folder, "" if unknown */
    char entry[128];             /* the model's entry inside that file ("" for a bare model) */
    bool has_lod;                /* the format has LODs and groups (lod and group are set) */
    int lod, group;              /* ≥ 0, or UE_SELECTION_ALL */
    float fps;                   /* clip frame rate chosen, 0 if none */
    double scale;                /* convert --scale, 0 if unknown (1 = none) */
} ue_scene_selection;

typedef struct ue_scene {
    ue_scene_node *nodes;
    size_t node_count;
    ue_scene_mesh *meshes;
    size_t mesh_count;
    ue_scene_material *materials;
    size_t material_count;
    ue_scene_texture *textures;
    size_t texture_count;
    ue_scene_skin *skins;
    size_t skin_count;
    ue_scene_animation *animations;
    size_t animation_count;
    char name[64];               /* scene name (source file name) */
    ue_scene_selection selection;
} ue_scene;

/* An empty scene. The scene owns everything added to it (names are copied into it);
 * ue_scene_free releases all of it, and is safe on a scene that failed half-way. */
UE_API void ue_scene_init(ue_scene *s);
UE_API void ue_scene_free(ue_scene *s);
/* Growth helpers: return the new object's index, or -1 when out of memory. Each new object
 * is zeroed and given identity transforms / -1 links. */
UE_API int32_t ue_scene_add_node(ue_scene *s, const char *name, int32_t parent);
UE_API int32_t ue_scene_add_mesh(ue_scene *s, const char *name);
UE_API ue_scene_primitive *ue_scene_add_primitive(ue_scene *s, int32_t mesh);
UE_API int32_t ue_scene_add_material(ue_scene *s, const char *name);
UE_API int32_t ue_scene_add_texture(ue_scene *s, const char *name, uint32_t width, uint32_t height);
/* Appends a texture slot (strength 1, identity transform, disabled) to a material; returns
 * its index, or -1 when the material is out of range or its slots are full. */
UE_API int32_t ue_scene_add_texture_slot(ue_scene *s, int32_t material, ue_texture_role role,
                                         int32_t texture, uint32_t uv_set);
/* The texture of the first slot with `role`, or -1. */
UE_API int32_t ue_scene_material_texture(const ue_scene_material *m, ue_texture_role role);
/* Checks indices, counts and finite values; reports problems as diagnostics. */
UE_API ue_result ue_scene_validate(const ue_scene *s, ue_diag *d);

/* Which optional vertex arrays ue_scene_primitive_alloc allocates besides positions. */
enum {
    UE_ATTR_NORMAL = 1u << 0,
    UE_ATTR_UV0 = 1u << 1,
    UE_ATTR_COLOR = 1u << 2,    /* colour set 0 */
    UE_ATTR_SKIN = 1u << 3,     /* joints + weights, 4 influences */
    UE_ATTR_UV1 = 1u << 4,
    UE_ATTR_COLOR1 = 1u << 5,   /* colour set 1 */
    UE_ATTR_SKIN8 = 1u << 6,    /* joints + weights, 8 influences */
    UE_ATTR_TANGENT = 1u << 7
};
/* Allocates zeroed arrays for a primitive that has none yet (positions, indices and the
 * `attrs` ones; the scene owns them). UE_ERR_LIMIT over 1 << 26 vertices (or 3 × that many
 * indices), UE_ERR_NOMEM when an allocation fails, UE_ERR_USAGE if already set. */
UE_API ue_result ue_scene_primitive_alloc(ue_scene_primitive *p, uint32_t vertex_count,
                                          uint32_t index_count, unsigned attrs);
/* A skin with joint_count joints (all 0, to be filled) and identity inverse bind matrices. */
UE_API int32_t ue_scene_add_skin(ue_scene *s, const char *name, size_t joint_count);
UE_API int32_t ue_scene_add_animation(ue_scene *s, const char *name);
/* Components a target's values have (0 for an unknown target). */
UE_API uint32_t ue_anim_target_components(ue_anim_target target);
/* A channel with zeroed times and values (key_count × components, × 3 for CUBIC) and
 * node = material = slot = -1, for the caller to set. NULL when out of memory or invalid. */
UE_API ue_anim_channel *ue_scene_add_channel(ue_scene *s, int32_t animation, ue_anim_target target,
                                             ue_interp interp, uint32_t key_count);
/* Adds (or replaces) one extra; UE_ERR_USAGE for an empty, too long or reserved key or a
 * non-finite number, UE_ERR_NOMEM when out of memory. Strings longer than 127 bytes are cut. */
UE_API ue_result ue_extras_set_number(ue_extras *x, const char *key, double value);
UE_API ue_result ue_extras_set_string(ue_extras *x, const char *key, const char *value);
UE_API void ue_extras_free(ue_extras *x);
/* Column-major 4×4 matrices: a node's local TRS, and its world matrix (product of the parent
 * chain). UE_ERR_INVALID for an out-of-range node or a parent cycle. */
UE_API void ue_scene_local_matrix(const ue_scene_node *n, float out[16]);
UE_API ue_result ue_scene_world_matrix(const ue_scene *s, int32_t node, float out[16]);

/* ---- baking helpers (src/scene/bake.c) -------------------------------------------------- */

/* How a curve goes from one key to the next. */
typedef enum ue_curve_interp {
    UE_CURVE_STEP = 0,           /* hold the key's value */
    UE_CURVE_LINEAR = 1,
    UE_CURVE_HERMITE = 2         /* cubic Hermite from this key's out and the next key's in */
} ue_curve_interp;

/* One key of a scalar curve. Tangents are slopes in value units per second (a per-frame
 * slope times the frame rate). */
typedef struct ue_curve_key {
    float time;                  /* seconds, strictly increasing along the curve */
    float value;
    float in_tangent, out_tangent;
    ue_curve_interp interp;      /* segment from this key to the next */
} ue_curve_key;

/* A scalar curve; before its first key and after its last it holds the end value, and a curve
 * without keys is the constant `rest`. */
typedef struct ue_curve {
    const ue_curve_key *keys;
    size_t count;
    float rest;
} ue_curve;

/* The order in which per-axis rotations apply to a vector, about fixed (parent) axes:
 * UE_EULER_XYZ rotates about X first, then Y, then Z, so R = Rz · Ry · Rx. */
typedef enum ue_euler_order {
    UE_EULER_XYZ = 0, UE_EULER_XZY = 1, UE_EULER_YXZ = 2,
    UE_EULER_YZX = 3, UE_EULER_ZXY = 4, UE_EULER_ZYX = 5
} ue_euler_order;

/* Evaluates a curve at time t (seconds); UE_ERR_INVALID for keys out of order or non-finite. */
UE_API ue_result ue_curve_eval(const ue_curve *c, double t, double *out);
/* A channel's value at time t (seconds) as glTF plays it: held before the first key and after
 * the last, STEP, LINEAR (rotations slerped the short way) or CUBICSPLINE; rotations come back
 * unit length. out holds the target's components. UE_ERR_USAGE for a channel without keys. */
UE_API ue_result ue_anim_channel_sample(const ue_anim_channel *c, double t, double *out);
/* The unit quaternion (x, y, z, w) of Euler angles (radians) applied in `order`. */
UE_API void ue_euler_to_quat(const double angles[3], ue_euler_order order, double q[4]);
/* Bakes `components` curves (one per value component, each with its own key times) into a new
 * LINEAR channel of `animation` driving `target`, sampled at `rate` per second from `start`
 * to `end` (both included); the caller sets the channel's node / material / slot through
 * *out. Nothing is added on failure. UE_ERR_USAGE for a bad range/rate/target, UE_ERR_INVALID for a
 * bad curve, UE_ERR_LIMIT over 1 << 20 samples, UE_ERR_NOMEM when out of memory. */
UE_API ue_result ue_bake_curves(ue_scene *s, int32_t animation, ue_anim_target target,
                                const ue_curve *curves, double start, double end, double rate,
                                ue_anim_channel **out);
/* Bakes three Euler angle curves (X, Y, Z, radians) into a LINEAR rotation channel on `node`,
 * keeping consecutive quaternions in one hemisphere so interpolation takes the short way. */
UE_API ue_result ue_bake_euler(ue_scene *s, int32_t animation, int32_t node, const ue_curve xyz[3],
                               ue_euler_order order, double start, double end, double rate,
                               ue_anim_channel **out);

#ifdef __cplusplus
}
#endif
#endif
