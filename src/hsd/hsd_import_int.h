/* unearth — internal: how an edited value goes back into a GX vertex attribute (hsd_quantise.c,
 * shared by the edit-mode import and its unit test) and the image edits (hsd_import_images.c). */
#ifndef UNEARTH_HSD_IMPORT_INT_H
#define UNEARTH_HSD_IMPORT_INT_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "hsd/hsd_int.h"
#include "hsd/hsd_pose.h"
#include "unearth/hsd_import.h"
#include "unearth/hsd_model.h"
#include "unearth/scene.h"

/* GX component types of POS, NRM and TEX descriptors. */
enum { HSD_COMP_U8 = 0, HSD_COMP_S8 = 1, HSD_COMP_U16 = 2, HSD_COMP_S16 = 3, HSD_COMP_F32 = 4 };

/* One component `v` in `comp_type` with `frac` fractional bits, big-endian into `out` (1, 2 or
 * 4 bytes): q = v · 2^frac rounded to the nearest integer, halves away from zero; F32 stores
 * (float)v. False when q lies outside the type; *lo and *hi then give the values the type can
 * hold (min · 2^-frac … max · 2^-frac). */
bool hsd_quantise_component(double v, uint32_t comp_type, uint32_t frac, uint8_t *out, double *lo, double *hi);

/* The bytes of one component of `comp_type` (1, 2 or 4; 0 for an unknown type). */
uint32_t hsd_component_bytes(uint32_t comp_type);

/* An RGBA colour (each channel 0..1) in GX vertex colour format `format` (0 RGB565, 1 RGB8,
 * 2 RGBX8, 3 RGBA4, 4 RGBA6, 5 RGBA8) into `out` (2, 3 or 4 bytes; RGBX8's fourth byte is left
 * as `out` holds it): each n-bit channel is round(c · (2^n − 1)), so a value the decoder
 * expanded by bit replication comes back to its own bits. False, with *why, when a channel lies
 * outside 0..1 or a format without alpha is given an alpha other than 1. */
bool hsd_encode_vertex_color(const float rgba[4], uint32_t format, uint8_t *out, const char **why);

/* An edit-mode error at glTF path "/TABLE/INDEX" (e.g. "/textures/2") and DAT file offset `offset`. */
void hsd_import_error(ue_diag *d, const char *code, uint64_t offset, const char *table, int32_t index,
                      const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* The inverse of a skinning matrix (an envelope's blend, a joint's world): false when the matrix
 * flattens space (its 3 × 3 part's determinant is under 1e-6 of its columns' lengths' product),
 * so an edited position cannot be taken back into the PObj's stored space (import.hsd.singular). */
bool hsd_skin_invert(const double m[16], double inv[16]);

/* Positions within this (relative, at least absolute) are the same: a re-export's float noise. */
#define HSD_POS_TOLERANCE 1e-5

/* Each of n values of a within b's own magnitude × rel, or at least floor_abs, of b's. */
static inline bool hsd_close_to(const float *a, const float *b, int n, double rel, double floor_abs) {
    for (int i = 0; i < n; i++) {
        double tol = fabs((double)b[i]) * rel;
        if (!(fabs((double)a[i] - (double)b[i]) <= (tol > floor_abs ? tol : floor_abs))) return false;
    }
    return true;
}

/* A glTF mesh matched to the base's mesh of the same name by its triangles' geometry, for
 * clients that split, weld, reorder vertices or merge primitives. Positions and normals are
 * compared as drawn at rest (through each side's own skin or node matrix). Per base primitive,
 * `virt` has the base's vertices and triangles with each glTF edit in place, taken back into the
 * base's space (a value within float noise of the base's stays the base's), and gltf_prim the glTF primitive its first triangle matched. */
typedef struct hsd_geometry_match {
    ue_scene_primitive *virt;
    int32_t *gltf_prim;
    size_t count;                          /* the base mesh's primitives */
    size_t unmatched_ref, unmatched_gltf;  /* triangles left without a partner */
    size_t conflicts;                      /* vertices two corners edited differently */
    size_t singular;                       /* edited vertices whose matrix has no inverse (hsd_skin_invert) */
    size_t singular_prim;                  /* the first of them: base primitive and vertex */
    uint32_t singular_vertex;
    bool over_budget;                      /* stopped after 50M candidates looked at */
} hsd_geometry_match;

/* Each base triangle to one glTF triangle (winding kept, corners rotated as needed) in passes:
 * all corners at the same position and UV; the same positions (a UV edit); the same UVs, one
 * candidate only (moved vertices); two corners at the same position, one candidate only (moved
 * vertices without UVs; skipped past 4M corner pairs). docs/hsd-import.md#matching. */
ue_result hsd_match_geometry(const ue_scene *gltf, int32_t gltf_node, const ue_scene *ref, int32_t ref_node,
                             hsd_geometry_match *out);
void hsd_geometry_match_free(hsd_geometry_match *m);

/* The images of an edit: the glTF `s`, the base's own export `ref`, the base model `m` and the
 * copy of its bytes being edited (`written` marks bytes an edit put there). material_pairs holds
 * material_pair_count (glTF material, ref material) pairs, one per matched primitive's materials. */
typedef struct hsd_image_edit_in {
    const ue_hsd_model *m;
    const ue_scene *s, *ref;
    uint8_t *bytes, *written;
    size_t size;
    const int32_t *material_pairs;
    size_t material_pair_count;
    ue_diag *d;
} hsd_image_edit_in;

/* Each glTF texture a matched material shows in a slot of its base material's role and rank,
 * compared with the base's export of that slot: an image whose pixels differ is re-encoded in
 * its GX format (mip levels remade by 2 × 2 means; C4/C8 keep their palette, each texel its
 * nearest entry) and written over the image's bytes. *changed counts rewritten images, *errors
 * the refusals (a size change, a baked texture, C14X2, two textures disagreeing about one image),
 * each reported into in->d. UE_ERR_NOMEM only. docs/hsd-import.md#images. */
ue_result hsd_edit_images(const hsd_image_edit_in *in, size_t *changed, size_t *errors);

/* A texture of the base's export that is not its TObj's stored image (level 0): one `convert`
 * baked from several layers. */
bool hsd_texture_is_baked(const ue_hsd_model *m, const ue_scene_texture *tex);

/* Each matched material's baseColorFactor, alphaMode and alphaCutoff, where they differ from the
 * base's export, written into its MObj within each field's own format: the diffuse colour
 * (sRGB bytes) and alpha (F32) of the Material struct where the render mode takes the colour
 * from the material, the render mode's XLU bit, the PE block's alpha test. *changed counts the
 * MObjs whose bytes changed, *errors the refusals (reported into in->d).
 * docs/hsd-import.md#materials. */
ue_result hsd_edit_materials(const hsd_image_edit_in *in, size_t *changed, size_t *errors);

/* A PObj whose triangles the glTF changed: glTF primitive `gp` has the PObj's vertices (convert's
 * order, vertex i the i-th distinct record its list draws) and other triangles. */
typedef struct hsd_list_rebuild {
    size_t pobj;
    const ue_scene_primitive *gp;
    char gpath[96];                        /* "/meshes/M/primitives/P" */
    /* The base's vertex records: per vertex, its offset in the list. The edited list holds them at
     * the same places, though an edit may have made two equal (decoding it again would merge them). */
    uint32_t base_count;
    uint32_t *base_at;
    /* glTF vertices from the PObj's own count on are new (docs/hsd-import.md#new-vertices): */
    uint32_t new_count;
    uint8_t *new_records;                  /* new_count records in the PObj's record layout (index fields unset) */
    uint32_t *new_index;                   /* new_count × the PObj's descriptors: the element an indexed one names */
} hsd_list_rebuild;

struct hsd_clip_plan;

struct hsd_layout_edits;

/* The edited DAT `bytes` laid out anew by the model writer (ue_hsd_model_write), in one pass, with
 * the new envelopes and arrays of `e` (NULL: none), each rebuild's PObj drawing its primitive's
 * triangles (strips of hsd_strips_build over the PObj's own vertex records and the new ones) and
 * the clips: the rest of the model as read. Refused (UE_ERR_INVALID, errors into d): a
 * DAT the writer does not give back byte for byte (import.hsd.layout; with `e`, the caller checked
 * the base), a PObj that also draws lines or points or would draw nothing, a list past 65535 × 32
 * bytes, two primitives rebuilding one PObj. *triangles adds the triangles drawn.
 * docs/hsd-import.md#triangles. */
ue_result hsd_rebuild_lists(const uint8_t *bytes, size_t size, const struct hsd_layout_edits *e,
                            const hsd_list_rebuild *rebuilds, size_t count, const struct hsd_clip_plan *clips,
                            ue_buf *out, size_t *triangles, ue_diag *d);

/* A glTF node name against the base's: equal, or equal once a client's ".NNN" suffix is cut. */
bool hsd_names_match(const char *gltf, const char *ref);

/* ---- clips (hsd_import_clips.c, docs/hsd-import.md#clips) ---- */

/* Every written track component stays within HSD_CLIP_ERROR · max(1, |v|) of the glTF curve's
 * value v at every frame (radians for rotations, the glTF's units otherwise). */
#define HSD_CLIP_ERROR 1e-4
double hsd_clip_error_bound(double v);

/* One new track of an edited clip: its joint, type (UE_HSD_JT_*) and FLOAT key bytes. */
typedef struct hsd_clip_track {
    int32_t joint;
    uint8_t type;
    size_t key_count;
    ue_buf bytes;
} hsd_clip_track;

/* A glTF animation that replaces skeletal clip `clip` of the base, or is appended: its tracks, fitted to
 * the curve sampled per frame 0 … frames − 1 (the samples are not kept: the check of the written DAT
 * samples the curve again, one clip at a time, so memory stays one clip's samples). */
typedef struct hsd_clip_edit {
    int32_t clip, anim;    /* the model's clip row (-1: a new clip); the glTF animation */
    uint32_t set, index;   /* the clip's set and its slot in the set's anims[] */
    float end_frame;
    bool loop;
    bool reexpressed;      /* read through the base's joint frames (the glTF's joints rest elsewhere) */
    uint32_t frames;
    hsd_clip_track *tracks;
    size_t track_count;
} hsd_clip_edit;

struct hsd_clip_source;
typedef struct hsd_clip_plan {
    hsd_clip_edit *edits;
    size_t count;
    size_t kept;           /* glTF clips equal to the base's bake: their bytes stay */
    size_t added;          /* edits that are new clips */
    int32_t *anim_index;   /* per glTF animation: its index in its ModelSet's anims[] once written, or -1 */
    int32_t *anim_set;     /* per glTF animation with an index: that ModelSet (a row of m->sets), else -1 */
    struct hsd_clip_source *source; /* what the curves are sampled from (the model, scenes and joint map
                                     * the plan was made with: they must outlive the plan) */
} hsd_clip_plan;

/* Each glTF animation that moves joints, against the base's clip of its name: equal to the base's
 * bake (1e-4 at every frame) it is kept; else planned as that clip's new tracks. Refused
 * (UE_ERR_INVALID, errors into d): a name that is no skeletal clip of the base (import.hsd.clip), a
 * joint moved that the clip's tree has no node for, a clip past the frame limit or clips past the
 * scene's sample budget (import.hsd.limit, before anything is sampled). */
ue_result hsd_plan_clips(const ue_hsd_model *m, const ue_scene *s, const ue_scene *ref, hsd_clip_plan *plan,
                         ue_diag *d);
/* A new model's clips: each glTF animation that moves joints becomes a new clip of set 0 (which
 * m->sets must hold), at anims[0], [1], … in glTF order; joint j of m stands for scene node n where
 * joint_of_node[n] == j (a joint no node stands for stays at identity). An animation that moves no
 * joint is left out with a warning (import.hsd.new.clips); clips past the limits are refused. */
ue_result hsd_plan_new_clips(const ue_hsd_model *m, const ue_scene *s, const int32_t *joint_of_node, hsd_clip_plan *plan,
                             ue_diag *d);
void hsd_clip_plan_free(hsd_clip_plan *plan);
/* The plan into the model's tables (new AObj and track rows; the clip's nodes point at them). */
ue_result hsd_apply_clip_plan(ue_hsd_model *m, const hsd_clip_plan *plan);
/* The written model's clips evaluated at every frame against the plan's curves, each sampled again
 * (import.hsd.internal). */
ue_result hsd_verify_clips(const ue_hsd_model *m, const hsd_clip_plan *plan, ue_diag *d);
/* The same of a written DAT, parsed and read strictly first. */
ue_result hsd_verify_written_clips(const uint8_t *bytes, size_t size, const hsd_clip_plan *plan, ue_diag *d);

/* ---- clip sampling and key fitting (hsd_import_clip_sample.c, hsd_clip_keys.c): the plan's parts in
 * hsd_import_clips.c ---- */

/* The base's joint nodes and the glTF's nodes that stand for them (by name, as meshes are). */
typedef struct hsd_joint_map {
    int32_t *ref_node;   /* per joint: its node in the base's export, or -1 */
    int32_t *gltf_node;  /* per joint: the glTF node of that name, or -1 */
    int32_t *ref_joint;  /* per ref node: its joint, or -1 */
    int32_t *gltf_joint; /* per glTF node: its joint, or -1 */
} hsd_joint_map;

/* What a plan's curves are sampled from: kept with the plan, so the check of the written DAT samples
 * each clip again instead of keeping every clip's samples. */
struct hsd_clip_source {
    const ue_hsd_model *m;
    const ue_scene *s, *ref;
    hsd_joint_map jm;
};

/* Where joints' poses are sampled: a scene with its joint → node and node → joint maps, and the
 * base's export, whose node gives the rest of a joint the scene has no node for. */
typedef struct hsd_pose_source {
    const ue_scene *scene;
    const int32_t *joint_node, *node_joint;
    const ue_scene *fallback;
    const int32_t *fallback_node;
    size_t joints;
} hsd_pose_source;

/* The rest worlds a re-expressed glTF clip is read against: the glTF's inverted and the base's own,
 * both of translations and rotations only (hsd_rest_inverses). */
typedef struct hsd_reexpression {
    double *gltf_rest_inv, *base_rest, *world, *motion;
} hsd_reexpression;

/* Sampling glTF clips and glTF TRS → HSD SRT (hsd_import_clip_sample.c; each documented there). */
void hsd_joint_map_free(hsd_joint_map *j);
ue_result hsd_joint_map_alloc(hsd_joint_map *jm, size_t joints, size_t nodes, size_t ref_nodes);
ue_result hsd_map_joints(const ue_hsd_model *m, const ue_scene *s, const ue_scene *ref, hsd_joint_map *jm);
hsd_pose_source hsd_gltf_poses(const ue_hsd_model *m, const ue_scene *s, const ue_scene *ref, const hsd_joint_map *jm);
hsd_pose_source hsd_base_poses(const ue_hsd_model *m, const ue_scene *ref, const hsd_joint_map *jm);
void hsd_sample_pose_as(const hsd_pose_source *ps, const ue_scene_animation *an, double t, bool nlerp, double *trs);
void hsd_sample_pose(const hsd_pose_source *ps, const ue_scene_animation *an, double t, double *trs);
double hsd_clip_end(const ue_scene_animation *an, const int32_t *node_joint, size_t node_count);
bool hsd_moves_joints(const ue_scene_animation *an, const int32_t *node_joint, size_t node_count);
bool hsd_clip_close(double a, double b);
bool hsd_same_trs(const double *a, const double *b);
void hsd_joint_worlds(const ue_hsd_model *m, const double *trs, double *world);
void hsd_joint_motion(const ue_hsd_model *m, const double *trs, const double *rest_inv, double *world, double *out);
bool hsd_rest_inverses(const ue_hsd_model *m, double *trs, double *world, double *inv);
bool hsd_same_motion(const ue_hsd_model *m, const double *a, const double *b);
void hsd_reexpression_free(hsd_reexpression *x);
ue_result hsd_reexpression_init(const ue_hsd_model *m, const ue_scene *s, const ue_scene *ref, const hsd_joint_map *jm,
                                hsd_reexpression *x);
bool hsd_to_base_frames(const ue_hsd_model *m, const hsd_reexpression *x, double *trs);
ue_result hsd_clip_srt(const struct hsd_clip_source *src, const hsd_reexpression *reexpressed, const hsd_clip_edit *e,
                       float **out);

/* The tracks of one joint: its components that leave the rest, fitted (hsd_clip_keys.c). */
ue_result hsd_joint_tracks(const ue_hsd_model *m, size_t j, const float *srt, hsd_clip_edit *e);

/* Keys for one sample per frame within hsd_clip_error_bound (LIN and SPL keys, SLP where a Hermite
 * segment ends on a LIN key). *keys is malloc'd. */
ue_result hsd_fit_keys(const float *v, uint32_t n, ue_hsd_key **keys, size_t *count);

/* R = Rz·Ry·Rx (row-major 3×3), or a unit quaternion (x, y, z, w), to the HSD Euler angles nearest
 * `near` (each unwrapped by 2π, the nearer of the two solutions; at gimbal lock X keeps near's). */
void hsd_matrix_to_euler_near(const double r[9], const double near[3], double out[3]);
void hsd_quat_to_euler_near(const double q[4], const double near[3], double out[3]);

/* ---- skin weights and widened attributes (hsd_import_weights.c, hsd_import_widen.c) ---- */

/* Two weights within this are the same (a client may store weights as normalised bytes). */
#define HSD_WEIGHT_TOLERANCE (1.0 / 255)
#define HSD_NEW_INFLUENCES 4 /* influences kept of a re-weighted vertex */

/* An envelope appended to PObj `pobj`'s list, in the order added. */
typedef struct hsd_new_envelope {
    size_t pobj;
    uint32_t count;
    int32_t joint[HSD_NEW_INFLUENCES];
    float weight[HSD_NEW_INFLUENCES];
} hsd_new_envelope;

/* One indexed attribute of one PObj written as a new array in a wider format: every element its
 * PObj's list indexes (0 … count − 1), old values exact, edits in place (docs/hsd-import.md#widening). */
typedef struct hsd_wide_attr {
    size_t pobj;
    uint32_t attr;                 /* the descriptor's place in the PObj's list */
    uint32_t comps, count;
    uint32_t own_first;            /* elements from here on were appended for re-weighted vertices */
    uint32_t from_type, from_frac, comp_type, frac;
    double *vals;                  /* count × comps */
    uint8_t *set;                  /* per element: an edit put a value there */
    uint32_t cap;                  /* elements vals and set have room for */
    uint32_t *slots;               /* appended elements by value: open addressing, index + 1 (0: empty) */
    uint32_t slot_count;           /* a power of two, at least twice the appended elements */
    ue_buf array;                  /* the encoded array (hsd_wide_finish) */
} hsd_wide_attr;
void hsd_wide_free(hsd_wide_attr *w);

/* The edits that change the DAT's structure: the file is laid out anew (hsd_relayout_edits). */
typedef struct hsd_layout_edits {
    hsd_new_envelope *envelopes;
    size_t envelope_count;
    hsd_wide_attr *wide;
    size_t wide_count;
} hsd_layout_edits;
void hsd_layout_edits_free(hsd_layout_edits *e);

/* The glTF skin of mesh node `gnode` as model joints: per skin joint, the base joint of the same
 * name (-1 for none). NULL (and *count 0) for a node without a skin; *nomem on failure. */
int32_t *hsd_skin_joint_map(const ue_scene *s, int32_t gnode, const ue_scene *ref, size_t *count, bool *nomem);

struct hsd_pose;
struct hsd_pobj_skin;

/* The weights of one glTF primitive matched by index against its PObj's envelopes. */
typedef struct hsd_reweight_in {
    const ue_hsd_model *m;
    const struct hsd_pose *pose;
    size_t pobj;
    int32_t owner;
    const ue_scene_primitive *gp;
    const int32_t *joint_map;
    size_t joint_map_count;
    const ue_hsd_geometry *g;
    const char *gpath;
    ue_diag *d;
} hsd_reweight_in;

/* Per vertex whose JOINTS_0/WEIGHTS_0 differ from its envelope's (beyond HSD_WEIGHT_TOLERANCE):
 * new_slot[v] = the envelope list slot whose weights match the new ones, an existing one or one
 * appended to e (at most HSD_NEW_INFLUENCES kept, renormalised, *trimmed counted); skin gets the
 * appended slots' matrices. 0xFF for an unchanged vertex. *errors counts refusals reported into
 * in->d (a rigid PObj, an unknown or non-deforming joint, past the 10-matrix limit). */
ue_result hsd_reweight(const hsd_reweight_in *in, struct hsd_pobj_skin *skin, uint8_t *new_slot, hsd_layout_edits *e,
                       size_t *errors, size_t *trimmed);

/* A wide copy of attribute `attr` (descriptor `a`, `comps` components) of PObj `pobj` whose
 * elements `count` are decoded from `bytes` (the DAT) in the old format. */
ue_result hsd_wide_init(hsd_wide_attr *w, size_t pobj, uint32_t attr, const ue_hsd_vtx_attr *a, uint32_t comps,
                        uint32_t count, const uint8_t *bytes, size_t size);
/* Element `index` takes `val`: 0 no change, 1 changed, -1 an earlier edit gave it another value. */
int hsd_wide_put(hsd_wide_attr *w, uint32_t index, const double *val);
/* A new element at the array's end holding `val` (or an appended one that already does, found by
 * hashing its bits): its index, -1 when out of memory. Amortised O(1). */
int64_t hsd_wide_append(hsd_wide_attr *w, const double *val);
/* The format: the old one when every value fits, else S16 with the old shift when the old type
 * is U8, S8 or U16 and every value fits, else F32; the array encoded. False when a value is not
 * finite even as F32. */
bool hsd_wide_finish(hsd_wide_attr *w);
const char *hsd_comp_type_name(uint32_t comp_type);

/* New envelopes and widened arrays put into the model's tables (rows added; the arrays are e's). */
ue_result hsd_apply_layout_edits(ue_hsd_model *m, const hsd_layout_edits *e);

/* PObj `pobj`'s descriptor rows, its own: copied to the table's end when another PObj shares them. */
ue_result hsd_own_descriptors(ue_hsd_model *m, size_t pobj);

/* The model writer gives `bytes` back from `m` byte for byte; else import.hsd.layout, naming `why`. */
ue_result hsd_check_layout(const ue_hsd_model *m, const uint8_t *bytes, size_t size, const char *why, ue_diag *d);

/* ---- the edit of one base (hsd_import.c, hsd_import_elements.c, hsd_import_vertices.c) ---- */

/* What an edit-mode import works on: the glTF, the base and the copy of its bytes being edited. */
typedef struct hsd_edit_ctx {
    const ue_hsd_model *m;
    const ue_scene *s;     /* the glTF */
    const ue_scene *ref;   /* the base as convert exports it */
    hsd_pose pose;
    uint8_t *bytes;        /* the copy being edited: the whole DAT */
    size_t size;
    uint8_t *written;      /* per byte of `bytes`: changed by an edit */
    uint8_t *kept;         /* per byte: an array element a vertex the glTF left unchanged uses */
    size_t *claim_first;   /* per ref mesh: its first slot in `claimed` */
    bool *claimed;         /* per ref primitive: matched to a glTF primitive */
    int32_t *material_pairs; /* (glTF material, ref material) of each matched primitive */
    size_t material_pair_count;
    hsd_list_rebuild *rebuilds; /* PObjs whose triangles changed, one per matched primitive at most */
    size_t rebuild_count;
    hsd_layout_edits layout;    /* new envelopes and widened attributes: the DAT is laid out anew */
    int32_t *joint_map;         /* the current glTF node's skin joints as base joints (hsd_skin_joint_map) */
    bool nomem;
    size_t joint_map_count;
    ue_hsd_edit_stats stats;
    ue_diag *d;
    size_t errors;
} hsd_edit_ctx;

/* An edit-mode error at glTF path `path` and DAT file offset `offset`, counted in x->errors. */
void hsd_edit_error(hsd_edit_ctx *x, const char *code, uint64_t offset, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* How an attribute's values go: into its bytes; only checked against its format (a first pass
 * that finds whether it must be widened); into the wide copy of its array. */
enum { HSD_SITE_WRITE, HSD_SITE_PROBE, HSD_SITE_WIDE };

/* Where one attribute of one PObj lies: its descriptor, layout, byte position in the vertex
 * record, and the records of the decoded vertices. */
typedef struct hsd_attr_site {
    const ue_hsd_pobj *po;
    const ue_hsd_vtx_attr *a;
    hsd_attr_layout lay;
    uint32_t field;
    const hsd_records *rec;
    const int32_t *head, *next; /* per vertex: its drawn records, chained */
    size_t pobj;
    char gpath[160];            /* "/meshes/M/primitives/P/attributes/NAME" */
    int mode;                   /* HSD_SITE_* */
    bool overflow;              /* HSD_SITE_PROBE: a value its format cannot hold */
    hsd_wide_attr *wide;        /* HSD_SITE_WIDE */
    const uint8_t *own;         /* HSD_SITE_WIDE: per vertex, != 0xFF: re-weighted, its value goes to an element of its own */
    bool stopped;               /* an index limit was reported: the site's other vertices would repeat it */
} hsd_attr_site;

/* Writing one element (hsd_import_elements.c): the data offset of vertex v's array element. */
uint64_t hsd_element_at(const hsd_attr_site *t, uint32_t v);
/* The current bytes of vertex v's element (its first place). */
const uint8_t *hsd_element_bytes(const hsd_edit_ctx *x, const hsd_attr_site *t, uint32_t v);
/* Vertex v is unchanged: its array element should stay as it is (a direct value is its own). */
void hsd_mark_kept(hsd_edit_ctx *x, const hsd_attr_site *t, uint32_t v);
/* Vertex v's new element bytes into its array element, or into every record of a direct value. */
void hsd_put_element(hsd_edit_ctx *x, const hsd_attr_site *t, uint32_t v, const uint8_t *val, size_t *counter);
/* Components into element bytes; false after a range error naming the attribute and the limit
 * (in HSD_SITE_PROBE, the overflow is only noted). */
bool hsd_quantise_value(hsd_edit_ctx *x, hsd_attr_site *t, uint32_t v, const double *val, uint32_t comps,
                        uint8_t *out, const char *what);
/* Vertex v's new value: re-quantised into its element (HSD_SITE_WRITE), checked (HSD_SITE_PROBE), or
 * into the wide copy of the array (HSD_SITE_WIDE). */
void hsd_store_value(hsd_edit_ctx *x, hsd_attr_site *t, uint32_t v, const double *val, uint32_t comps,
                     const char *what, size_t *counter);

/* glTF primitive gp over base primitive rp (PObj `pobj` of joint `owner`), its vertex values and new
 * vertices (hsd_import_vertices.c); rb, when its triangles changed: its new vertices' records go there. */
ue_result hsd_apply_primitive(hsd_edit_ctx *x, const ue_scene_primitive *gp, const ue_scene_primitive *rp, int mesh,
                              size_t prim, size_t pobj, int32_t owner, hsd_list_rebuild *rb);

#endif
