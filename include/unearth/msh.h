/* unearth — Parkan MSH models (a nested NRes of typed resources): decoded core tables, strict
 * and tolerant validation, a lossless writer/editor, and the engine's runtime lookups. */
#ifndef UNEARTH_MSH_H
#define UNEARTH_MSH_H

#include "unearth/common.h"
#include "unearth/model_format.h"
#include "unearth/nres.h"
#include "unearth/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Resource type ids inside a model NRes. */
enum {
    UE_MSH_NODES = 1, UE_MSH_HEADER = 2, UE_MSH_POSITIONS = 3, UE_MSH_NORMALS = 4,
    UE_MSH_UV0 = 5, UE_MSH_INDICES = 6, UE_MSH_TRIS = 7, UE_MSH_KEYS = 8,
    UE_MSH_NAMES = 10, UE_MSH_BATCHES = 13, UE_MSH_RES15 = 15, UE_MSH_RES16 = 16,
    UE_MSH_COLORS = 18, UE_MSH_FRAME_MAP = 19, UE_MSH_RES20 = 20,
    UE_MSH_TYPE_LIMIT = 22
};

/* 'MESH': the NRes type of a model kept in an outer archive (objects.rlb); ue_archive_put gives
 * it to a model it adds. */
#define UE_MSH_ENTRY_TYPE 0x4853454Du

#define UE_MSH_NODE_STRIDE 38u
#define UE_MSH_NODE_STRIDE_LEGACY 24u
#define UE_MSH_HEADER_SIZE 0x8Cu
#define UE_MSH_SLOT_SIZE 68u
#define UE_MSH_LODS 3
#define UE_MSH_GROUPS 5
#define UE_MSH_NONE 0xFFFFu

typedef struct ue_msh_node {
    uint16_t flags;           /* hdr0: semantics unknown, preserved */
    uint16_t parent;          /* 0xFFFF = root, else < own index */
    uint16_t anim_map_start;  /* first Res19 word, 0xFFFF = no frame map */
    uint16_t fallback_key;    /* Res8 index of the node's rest/last key */
    uint16_t slot[UE_MSH_LODS * UE_MSH_GROUPS]; /* [lod][group], 0xFFFF = none */
} ue_msh_node;

typedef struct ue_msh_slot {
    uint16_t tri_start, tri_count, batch_start, batch_count;
    float aabb_min[3], aabb_max[3];
    float sphere_center[3], sphere_radius;
    uint32_t opaque[5];       /* unk30..unk40, preserved */
} ue_msh_slot;

typedef struct ue_msh_batch {
    uint16_t flags;
    uint16_t material;        /* row in the model's WEAR table */
    uint16_t opaque4, opaque6;
    uint16_t index_count;
    uint32_t index_start;     /* in elements */
    uint16_t opaque14;
    uint32_t base_vertex;
} ue_msh_batch;

typedef struct ue_msh_tri {
    uint16_t flags;
    uint16_t link[3];         /* neighbour triangle or 0xFFFF */
    int16_t normal[3];        /* decode ×1/32767 */
    uint16_t sel_packed;      /* three 2-bit selectors, 3 = none */
} ue_msh_tri;

typedef struct ue_msh_key {
    float position[3];
    float time;               /* frames */
    int16_t quat[4];          /* x, y, z, w; decode ×1/32767 */
} ue_msh_key;

typedef struct ue_msh_name {
    bool present;             /* len > 0 */
    uint32_t length;
    char *text;               /* length bytes + NUL */
} ue_msh_name;

/* The model: the NRes container (entry order, attrs, unknown resources kept raw) plus the
 * decoded core tables. Tables are NULL/0 when their resource is absent. */
typedef struct ue_msh {
    ue_nres container;
    int32_t entry_of[UE_MSH_TYPE_LIMIT]; /* container entry index per type, -1 if absent */
    bool legacy_nodes;                    /* Res1 stride 24 (MTCHECK): copied through raw */

    ue_msh_node *nodes;      size_t node_count;
    uint8_t header[UE_MSH_HEADER_SIZE];   /* hull (8×vec3), sphere (vec4), capsule (7 f32) */
    ue_msh_slot *slots;      size_t slot_count;
    float *positions;        size_t vertex_count;   /* 3 per vertex */
    int8_t *normals;         size_t normal_count;   /* 4 per vertex (nw preserved) */
    int16_t *uv0;            size_t uv_count;       /* 2 per vertex */
    uint16_t *indices;       size_t index_count;
    ue_msh_tri *tris;        size_t tri_count;
    ue_msh_batch *batches;   size_t batch_count;
    ue_msh_name *names;      size_t name_count;
    uint8_t *colors;         size_t color_count;    /* Res18, 4 bytes per vertex */
    ue_msh_key *keys;        size_t key_count;
    uint16_t *frame_map;     size_t frame_map_count;
    uint32_t frame_count;    /* Res19 attr2 */

    bool dirty[UE_MSH_TYPE_LIMIT]; /* decoded table edited: re-encode and recompute attrs */
    uint8_t *owned_bytes;    /* the model bytes when parsed from memory we own */
} ue_msh;

/* Parses a model NRes held in memory. Copies: the model owns every byte it keeps, so `data`
 * may be freed as soon as the call returns. Free `out` with ue_msh_free whatever the result.
 * Strict: any violation of docs/formats/msh.md#invariants is an error. Tolerant: damaged tables are dropped
 * (NULL) with a warning and everything that can be checked safely is kept. */
UE_API ue_result ue_msh_parse(const uint8_t *data, size_t size, ue_mode mode, ue_msh *out, ue_diag *d);
/* Runs the invariants of docs/formats/msh.md#invariants on the decoded tables (ue_msh_parse calls it). */
UE_API ue_result ue_msh_check(const ue_msh *m, ue_mode mode, ue_diag *d);
UE_API void ue_msh_free(ue_msh *m);
/* An empty model (no resources) to build with the setters below. */
UE_API void ue_msh_init(ue_msh *m);

/* Serialises, appending to `out` (the caller's buffer): unchanged tables keep their bytes and
 * attrs (byte-identical round trip); edited ones are re-encoded with attrs recomputed per seed
 * docs/formats/msh.md#writer-rules; NRes layout 8-byte aligned. */
UE_API ue_result ue_msh_write(ue_msh *m, ue_buf *out, ue_diag *d);

/* Encodes one decoded table as the writer would (for round-trip proofs); UE_ERR_USAGE if the
 * type is not decoded. */
UE_API ue_result ue_msh_encode_table(const ue_msh *m, int type, ue_buf *out);
/* Re-encodes every decoded table and compares it with the stored resource bytes; returns
 * UE_ERR_MISMATCH (with a diagnostic per differing table) on any difference. */
UE_API ue_result ue_msh_verify_tables(const ue_msh *m, size_t *tables_checked, ue_diag *d);

/* ---- engine-equivalent runtime helpers (docs/formats/msh.md#slot-lookup, docs/formats/msh.md#loader-order) ---- */

/* Order in which the engine loader looks resources up. */
UE_API extern const uint8_t UE_MSH_LOAD_ORDER[15];
/* Slot lookup: lod −1 means `current_lod`; returns 0xFFFF when absent or out of range. */
UE_API uint16_t ue_msh_slot_index(const ue_msh *m, size_t node, int lod, int group, int current_lod);
/* Node name or NULL (len 0 or no Res10). */
UE_API const char *ue_msh_node_name(const ue_msh *m, size_t node);
UE_API float ue_msh_decode_normal(int8_t v);      /* clamp(v / 127, −1, 1) */
UE_API int8_t ue_msh_encode_normal(float v);
UE_API float ue_msh_decode_uv(int16_t v);         /* v / 1024 */
UE_API int16_t ue_msh_encode_uv(float v);
UE_API float ue_msh_decode_tri_normal(int16_t v); /* v / 32767 */
/* selPacked → selector i (0..2); 3 becomes 0xFFFF. */
UE_API uint16_t ue_msh_tri_selector(uint16_t sel_packed, int i);

/* A node's rest transform: its fallback key's translation (non-finite components read as 0)
 * and quaternion x, y, z, w normalised (all zero = identity); identity without a key. */
UE_API void ue_msh_rest_pose(const ue_msh *m, size_t node, float translation[3], float rotation[4]);

/* Calls fn for every vertex the render traversal of docs/formats/msh.md#render-traversal visits for (lod, group):
 * node, batch, position in the batch, final vertex index. Stops early if fn returns false. */
typedef bool (*ue_msh_visit_fn)(void *user, size_t node, size_t batch, size_t i, uint32_t vertex);
UE_API ue_result ue_msh_traverse(const ue_msh *m, int lod, int group, ue_msh_visit_fn fn, void *user);

typedef struct ue_msh_stats {
    size_t nodes, slots, batches, vertices, triangles, lods, groups;
    size_t triangles_per_lod[UE_MSH_LODS];
} ue_msh_stats;
UE_API void ue_msh_stats_compute(const ue_msh *m, ue_msh_stats *s);

/* ---- animation: Res8 keys and the Res19 frame map (docs/formats/msh-anim.md, docs/parkan-msh.md) ---- */

/* One node's pose as the engine computes it, in engine axes: the translation and the quaternion
 * x, y, z, w decoded ×1/32767 and interpolated by the engine's SLERP (not renormalised). */
typedef struct ue_msh_pose {
    float translation[3];
    float rotation[4];
} ue_msh_pose;

/* The frame index the engine picks at time t (frames): FISTP(t − 0.5) with the x87 unit at
 * 24-bit precision and round-to-nearest-even, so odd integers k give k − 1. INT32_MIN (the
 * x87 "integer indefinite") for NaN and values outside int32. */
UE_API int32_t ue_msh_anim_frame(float t);
/* The engine's SLERP (g_FastProc[17]) of quaternions x, y, z, w: shortest way, linear weights
 * when 1 − |dot| ≤ 9.9999997e-6, no renormalisation. */
UE_API void ue_msh_anim_slerp(const float q0[4], const float q1[4], float a, float out[4]);
/* A node's pose at time t (frames) by the engine's key selection (docs/formats/msh-anim.md#key-selection): the exact fallback
 * key outside the timeline, without a frame map or when the map says so; the exact key on an
 * exact time match; else lerp/SLERP between the mapped key and the next. Indices the engine
 * would read out of range (tolerant models) give the fallback key; UE_ERR_INVALID (identity
 * pose) when the node or its fallback key does not exist. */
UE_API ue_result ue_msh_sample_node(const ue_msh *m, size_t node, float t, ue_msh_pose *out);
/* Every node's pose at time t: `poses` holds node_count entries. UE_ERR_INVALID when some
 * node has no fallback key (its pose is the identity); the others are still filled. */
UE_API ue_result ue_msh_evaluate(const ue_msh *m, float t, ue_msh_pose *poses);
/* True when the model is animated: a timeline of more than one frame and a node with a map. */
UE_API bool ue_msh_is_animated(const ue_msh *m);
/* x, y, z, w → the stored int16 form: round(q × 32767) clamped to ±32767 (NaN → 0). */
UE_API void ue_msh_encode_quat(const float q[4], int16_t out[4]);
/* Replaces node's key track and lays Res8, Res19 and every node's map start and fallback key
 * out again by the canonical rules of docs/formats/msh-anim.md#canonical-layout (tracks in node order, one key for a static node,
 * frame count = last key time + 1, one map block per animated node). `keys` are the node's
 * records in time order: one key at time 0 (static), or ≥ 2 with integer times from 0,
 * strictly increasing. The model's current animation must be canonical (ue_msh_check clean);
 * UE_ERR_INVALID with a diagnostic otherwise or for bad keys, UE_ERR_LIMIT past 65535 keys
 * or a map start past 65534. Bounds are recomputed (the rest pose is the last key). */
UE_API ue_result ue_msh_set_track(ue_msh *m, size_t node, const ue_msh_key *keys, size_t count,
                                  ue_diag *d);

/* ---- editing (docs/formats/msh.md#edit-dependencies) ------------------------------------- */

/* Moves/deforms vertices: positions[v] = M · positions[v] + t for every v in [first, first+n);
 * normals are rotated by M (re-quantised) and Res2 bounds (header and slots) recomputed. */
UE_API ue_result ue_msh_transform_vertices(ue_msh *m, size_t first, size_t n, const float linear[9],
                                           const float translate[3]);
/* Scales the whole model about the origin by s: every vertex (node-local) and the translation
 * of every Res8 key (each node's rest offset and every animation key), so the model's world
 * geometry at every frame is s × the original; normals and rotations stay; Res2 bounds are
 * recomputed. s == 1 changes nothing (the model writes back byte-identical). UE_ERR_USAGE
 * for s ≤ 0 (a mirror would turn every face inside out) or s not finite; UE_ERR_LIMIT, the
 * model unchanged, when a scaled coordinate would pass 1e18 (bounds square them in float). */
UE_API ue_result ue_msh_scale(ue_msh *m, float s);
/* Recomputes slot AABB/sphere (node-local) and the header hull/sphere/capsule from geometry. */
UE_API void ue_msh_recompute_bounds(ue_msh *m);
UE_API ue_result ue_msh_rename_node(ue_msh *m, size_t node, const char *name /* NULL or "" = none */);

/* New geometry for one slot: vertices appended to the streams, indices to Res6, one batch per
 * material run, tri descriptors with face normals; the slot's ranges and bounds updated. */
typedef struct ue_msh_geometry {
    const float *positions;   /* 3 × vertex_count */
    const float *normals;     /* 3 × vertex_count or NULL (face normals are used) */
    const float *uvs;         /* 2 × vertex_count or NULL */
    const uint8_t *colors;    /* 4 × vertex_count or NULL (only if the model has Res18) */
    size_t vertex_count;
    const uint16_t *indices;  /* triangle list, local to these vertices */
    size_t index_count;
    uint16_t material;
} ue_msh_geometry;
UE_API ue_result ue_msh_replace_slot_geometry(ue_msh *m, size_t slot, const ue_msh_geometry *g,
                                              ue_diag *d);

/* Appends an empty slot and points node's [lod][group] at it. */
UE_API ue_result ue_msh_add_slot(ue_msh *m, size_t node, int lod, int group, size_t *slot_index);
/* Removes every node with marked[n] set (node_count entries) and everything under it, as
 * editors delete a subtree: the kept Res1 records keep their order and are renumbered, with
 * their parent links and slot indices; the Res10 names of removed nodes go; a Res2 slot only
 * removed nodes show goes and the others are renumbered; the kept nodes' tracks are laid out
 * again by docs/formats/msh-anim.md#canonical-layout (ue_msh_set_track's layout: keys and map blocks of removed nodes gone, the
 * frame count that of the longest track left) and the header hull recomputed; the other
 * slots keep their bounds. The removed slots' vertices, indices, triangles and batches stay
 * in Res3–Res7/Res13, unreferenced (as ue_msh_replace_slot_geometry leaves a slot's old
 * geometry). Resources kept as raw bytes (Res9, Res17, Res20, …) are not renumbered: a
 * warning msh.edit.opaque names each non-empty one. Nothing marked changes nothing.
 * UE_ERR_INVALID (msh.edit.remove, or the track layout's violations) when the node table,
 * names or tracks cannot be read as docs/formats/msh.md lays them out; UE_ERR_USAGE when no node would
 * be left. On UE_ERR_NOMEM after the tables started to change the model must be freed. */
UE_API ue_result ue_msh_remove_nodes(ue_msh *m, const bool *marked, ue_diag *d);
/* Adds a Res18 vertex-colour stream (opaque white) if the model has none. */
UE_API ue_result ue_msh_enable_colors(ue_msh *m);
/* Sets a node's rest transform (its fallback key): translation and quaternion x, y, z, w. */
UE_API ue_result ue_msh_set_rest_pose(ue_msh *m, size_t node, const float translation[3],
                                      const float rotation[4]);

/* Builds a model from scratch: `nodes` parents and names, one slot per (node, lod, group) in
 * `slot_of` (0xFFFF = none); used by the sample pack and importers. */
UE_API ue_result ue_msh_new(ue_msh *m, size_t node_count, const uint16_t *parents,
                            const char *const *names);

/* ---- conversion to the scene IR ----------------------------------------------------------- */

/* True when an NRes holds the core model resources (types 1, 2, 3, 6 and 13). */
UE_API bool ue_msh_is_model(const ue_nres *n);
/* True when the bytes are an NRes that holds them, or that holds two or more of them and only
 * MSH resource types (types below UE_MSH_TYPE_LIMIT): a model that lacks a required resource is
 * still a model, and its parse names what is missing (the model registry's probe). */
UE_API bool ue_msh_probe(const uint8_t *data, size_t size);
/* The probe, or an NRes whose file or entry name ends in ".msh" (any case): for callers that
 * know the name (the registry's model walk). */
UE_API bool ue_msh_probe_named(const char *name, const uint8_t *data, size_t size);

/* ue_msh_export_options.group for every group (the CLI's `--group all`). */
#define UE_MSH_GROUP_ALL (-1)

/* ue_msh_export_options.lod for the whole slot matrix (the CLI's `--lod all`): every LOD and
 * group, each cell under a child node "<node>_lod<l>_group<g>", which ue_msh_from_scene reads
 * back to the same matrix (docs/import.md). */
#define UE_MSH_LOD_ALL (-1)

typedef struct ue_msh_export_options {
    int lod;     /* 0..2 (default 0), or UE_MSH_LOD_ALL (every LOD and group; group is then ignored) */
    int group;   /* 0..4 (default 0, what the engine draws), or UE_MSH_GROUP_ALL */
    float fps;   /* frames per second of the animation clip; 0 = UE_MSH_DEFAULT_FPS */
} ue_msh_export_options;

/* The frame rate of exported clips when none is given: no source states the engine's clock;
 * docs/parkan-msh.md#frame-rate says why 30. */
#define UE_MSH_DEFAULT_FPS 30.0f

/* Node tree from Res1 parents (rest pose from each node's fallback key); for one group, the
 * node's slot of the chosen LOD and group as the node's mesh; for UE_MSH_GROUP_ALL, each
 * group's slot as the mesh of a child node "<node>_group<g>" (identity transform), a slot that
 * several groups of the node share only once; for UE_MSH_LOD_ALL, every cell's slot as the mesh
 * of a child node "<node>_lod<l>_group<g>" (cells sharing a slot share the mesh); one primitive per batch, names from Res10, decoded normals/UVs,
 * Res18 colours, and for an animated model one clip named `name` with translation/rotation
 * channels on the nodes that move (equal to ue_msh_sample_node at every integer and
 * half-integer frame within 1e-4, times = frames / fps); converted from the engine's
 * left-handed Z-up axes to glTF's right-handed Y-up (docs/parkan-msh.md). Appends to `s` under a root node named `name`. A selection
 * without geometry gives a scene of nodes only; see ue_msh_refuse_empty_selection. `m` is only
 * read and may be freed afterwards: the scene holds copies (free it with ue_scene_free). */
UE_API ue_result ue_msh_to_scene(const ue_msh *m, const char *name, const ue_msh_export_options *o,
                                 ue_scene *s, ue_diag *d);
/* For callers that want geometry (the CLI's convert): adds the error msh.export.empty, which
 * names the LODs and groups that do hold geometry (or says every batch of the selection was
 * dropped as damaged), and returns UE_ERR_INVALID. */
UE_API ue_result ue_msh_refuse_empty_selection(const ue_msh *m, const ue_msh_export_options *o, ue_diag *d);

/* ---- the model registry's view of MSH (docs/models.md) ------------------------------------ */

/* The options `lod` (0..2 or `all`, default 0), `group` (0..4, or `all` / -1 for every group; default 0)
 * and `fps` (1..1000, default 30) as export options; UE_ERR_USAGE with model.option.value when a value is out of range. */
UE_API ue_result ue_msh_parse_options(const ue_model_options *opts, ue_msh_export_options *out, ue_diag *d);
/* MSH in the model registry (model.h): probe, to_scene (with the options above; an empty
 * selection is an error), info, validate and the table round trip. */
UE_API extern const ue_model_format ue_msh_model_format;

#ifdef __cplusplus
}
#endif
#endif
