/* unearth — the neutral scene IR between format readers and exporters: nodes, meshes,
 * materials, textures, skins and animations, each carrying the source id it came from. */
#ifndef UNEARTH_SCENE_H
#define UNEARTH_SCENE_H

#include "unearth/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where a scene object came from, for diagnostics and glTF extras. */
typedef struct ue_source_id {
    char format[8];     /* "msh", "hsd", ... */
    uint32_t type;      /* resource type (Parkan Res number) or struct kind */
    uint64_t offset;    /* byte offset of the record in its resource/file, UINT64_MAX if n/a */
    uint32_t index;     /* record index within its table */
} ue_source_id;

typedef struct ue_scene_node {
    char name[64];
    int32_t parent;              /* index into nodes, -1 for a root */
    float translation[3];
    float rotation[4];           /* quaternion x, y, z, w */
    float scale[3];
    int32_t mesh;                /* index into meshes, -1 if none */
    int32_t skin;                /* index into skins, -1 if none */
    ue_source_id source;
} ue_scene_node;

typedef enum ue_alpha_mode { UE_ALPHA_OPAQUE = 0, UE_ALPHA_MASK = 1, UE_ALPHA_BLEND = 2 } ue_alpha_mode;

typedef struct ue_scene_primitive {
    uint32_t vertex_count;
    float *positions;            /* 3 × vertex_count, required */
    float *normals;              /* 3 × vertex_count or NULL (unit length) */
    float *uv0;                  /* 2 × vertex_count or NULL (glTF convention: v down) */
    float *colors;               /* 4 × vertex_count RGBA in [0,1] or NULL */
    uint16_t *joints;            /* 4 × vertex_count (indices into the skin's joints) or NULL */
    float *weights;              /* 4 × vertex_count, each row sums to 1, or NULL */
    uint32_t *indices;           /* triangle list, index_count a multiple of 3 */
    uint32_t index_count;
    int32_t material;            /* index into materials, -1 for the default */
    ue_source_id source;
} ue_scene_primitive;

typedef struct ue_scene_mesh {
    char name[64];
    ue_scene_primitive *primitives;
    size_t primitive_count;
    ue_source_id source;
} ue_scene_mesh;

/* Sampler wrap modes (glTF REPEAT / CLAMP_TO_EDGE / MIRRORED_REPEAT); zero is the glTF default. */
typedef enum ue_wrap { UE_WRAP_REPEAT = 0, UE_WRAP_CLAMP = 1, UE_WRAP_MIRROR = 2 } ue_wrap;

typedef struct ue_scene_texture {
    char name[64];
    uint32_t width, height;
    uint8_t *rgba;               /* width × height × 4 bytes, rows top to bottom */
    ue_source_id source;
    /* Appended: sampler state (zero = repeat + linear filtering, the glTF default). */
    ue_wrap wrap_s, wrap_t;
    bool nearest;                /* point sampling (pixel-art / palette textures) */
} ue_scene_texture;

typedef struct ue_scene_material {
    char name[64];
    float base_color[4];         /* linear RGBA factor */
    int32_t base_color_texture;  /* index into textures, -1 if none */
    float metallic, roughness;
    ue_alpha_mode alpha_mode;
    float alpha_cutoff;
    bool double_sided;
    bool unlit;                  /* KHR_materials_unlit */
    ue_source_id source;
    /* Appended: KHR_texture_transform on the base colour texture, written when uv_transform
     * is set and a texture is bound; it is also what UV-scroll pointer channels animate
     * (".../baseColorTexture/extensions/KHR_texture_transform/offset"). */
    bool uv_transform;
    float uv_offset[2];
    float uv_rotation;           /* radians, counter-clockwise */
    float uv_scale[2];           /* ue_scene_add_material sets 1, 1 */
} ue_scene_material;

typedef struct ue_scene_skin {
    char name[64];
    int32_t *joints;             /* node indices */
    size_t joint_count;
    float *inverse_bind;         /* 16 × joint_count, column-major, or NULL (identity) */
    int32_t skeleton;            /* root node or -1 */
} ue_scene_skin;

typedef enum ue_anim_path {
    UE_PATH_TRANSLATION = 0,
    UE_PATH_ROTATION = 1,
    UE_PATH_SCALE = 2,
    UE_PATH_POINTER = 3          /* KHR_animation_pointer; `pointer` holds the JSON pointer */
} ue_anim_path;

typedef enum ue_interp { UE_INTERP_LINEAR = 0, UE_INTERP_STEP = 1, UE_INTERP_CUBIC = 2 } ue_interp;

typedef struct ue_anim_channel {
    int32_t node;                /* target node (-1 for pointer channels) */
    ue_anim_path path;
    char pointer[128];           /* e.g. "/materials/0/pbrMetallicRoughness/baseColorFactor" */
    ue_interp interpolation;
    uint32_t key_count;
    float *times;                /* key_count seconds, strictly increasing */
    float *values;               /* key_count × components (× 3 for CUBIC) */
    uint32_t components;         /* 3 translation/scale, 4 rotation, n for pointers */
} ue_anim_channel;

typedef struct ue_scene_animation {
    char name[64];
    ue_anim_channel *channels;
    size_t channel_count;
} ue_scene_animation;

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
} ue_scene;

void ue_scene_init(ue_scene *s);
void ue_scene_free(ue_scene *s);
/* Growth helpers: return the new object's index, or -1 when out of memory. Each new object
 * is zeroed and given identity transforms / -1 links. */
int32_t ue_scene_add_node(ue_scene *s, const char *name, int32_t parent);
int32_t ue_scene_add_mesh(ue_scene *s, const char *name);
ue_scene_primitive *ue_scene_add_primitive(ue_scene *s, int32_t mesh);
int32_t ue_scene_add_material(ue_scene *s, const char *name);
int32_t ue_scene_add_texture(ue_scene *s, const char *name, uint32_t width, uint32_t height);
/* Checks indices, counts and finite values; reports problems as diagnostics. */
ue_result ue_scene_validate(const ue_scene *s, ue_diag *d);

/* ---- appended helpers ----------------------------------------------------------------- */

/* Which optional vertex arrays ue_scene_primitive_alloc allocates besides positions. */
enum {
    UE_ATTR_NORMAL = 1u << 0,
    UE_ATTR_UV0 = 1u << 1,
    UE_ATTR_COLOR = 1u << 2,
    UE_ATTR_SKIN = 1u << 3      /* joints + weights */
};
/* Allocates zeroed arrays for a primitive that has none yet (positions, indices and the
 * `attrs` ones); UE_ERR_NOMEM on failure or over a size cap, UE_ERR_USAGE if already set. */
ue_result ue_scene_primitive_alloc(ue_scene_primitive *p, uint32_t vertex_count,
                                   uint32_t index_count, unsigned attrs);
/* A skin with joint_count joints (all 0, to be filled) and identity inverse bind matrices. */
int32_t ue_scene_add_skin(ue_scene *s, const char *name, size_t joint_count);
int32_t ue_scene_add_animation(ue_scene *s, const char *name);
/* A channel with zeroed times and values (key_count × components, × 3 for CUBIC);
 * node = -1 and pointer empty, for the caller to set. NULL when out of memory. */
ue_anim_channel *ue_scene_add_channel(ue_scene *s, int32_t animation, ue_anim_path path,
                                      ue_interp interp, uint32_t key_count, uint32_t components);
/* Column-major 4×4 matrices: a node's local TRS, and its world matrix (product of the parent
 * chain). UE_ERR_INVALID for an out-of-range node or a parent cycle. */
void ue_scene_local_matrix(const ue_scene_node *n, float out[16]);
ue_result ue_scene_world_matrix(const ue_scene *s, int32_t node, float out[16]);

#ifdef __cplusplus
}
#endif
#endif
