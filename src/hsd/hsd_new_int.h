/* unearth — internal: a new HSD model from any glTF (hsd_new*.c, docs/hsd-import.md#new-models):
 * the pure choices (Euler angles, attribute formats, texture sides) shared with their unit tests. */
#ifndef UNEARTH_HSD_NEW_INT_H
#define UNEARTH_HSD_NEW_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "unearth/hsd_import.h"
#include "unearth/hsd_model.h"
#include "unearth/scene.h"

/* The joint Euler angles (radians, applied X, then Y, then Z: R = Rz·Ry·Rx) of a quaternion x, y, z, w
 * (normalised here): hsd_quat_to_euler_near's solution nearest (0, 0, 0), so each angle lies in
 * −π … π; at gimbal lock (cos y = 0) x is 0 and z takes the rest. */
void hsd_euler_from_quaternion(const float q[4], float euler[3]);

/* A GX component format for `n` values: the first of U8, S8, U16, S16 (in that order, each with
 * the largest fractional shift 0…31 whose range holds every value) whose largest error
 * |q / 2^frac − v| is within `tolerance`, else F32. `normal`: only S8 with shift 6 and S16 with
 * shift 14 (the scales the hardware uses for normals). */
typedef struct hsd_comp_choice {
    uint32_t comp_type;            /* HSD_COMP_* */
    uint32_t frac;
    double max_error;              /* 0 for F32 */
} hsd_comp_choice;
hsd_comp_choice hsd_choose_component(const float *v, size_t n, double tolerance, bool normal);

/* The smallest GX vertex colour format (RGB565, RGBA4, RGB8, RGBA6, RGBA8; 0…5 as the descriptor
 * numbers them) whose decoded channels (bit replication) are within 0.5/255 of every value;
 * formats without alpha only when every alpha is 1. `rgba` holds n colours. */
uint32_t hsd_choose_color_format(const float *rgba, size_t n);

/* A texture side for GX: the largest power of two not above the side, capped at 512. */
uint32_t hsd_texture_side(uint32_t side);
/* Area-average resampling of an RGBA8 image to a side each not larger than the source's: every
 * target texel the mean of the source texels under it, each weighted by the part it covers. */
void hsd_resample_rgba(const uint8_t *src, uint32_t sw, uint32_t sh, uint8_t *dst, uint32_t dw, uint32_t dh);

/* ---- skinned meshes (hsd_new_skin.c) -------------------------------------------------------- */

#define HSD_NEW_MAX_INFLUENCES 4  /* joints an envelope keeps per vertex */
#define HSD_NEW_MAX_SLOTS 10      /* matrices a PObj loads (PNMTXIDX 0, 3, …, 27) */

/* One vertex's envelope: `count` joints, largest weight first (the lower joint first on a tie),
 * the weights summing to 1. */
typedef struct hsd_influences {
    uint32_t count;
    uint32_t joint[HSD_NEW_MAX_INFLUENCES];
    float weight[HSD_NEW_MAX_INFLUENCES];
} hsd_influences;

/* The envelope of a vertex from its `n` glTF influences: a joint named twice gets the sum of its
 * weights, zero weights are dropped, the 4 largest are kept (the lower joint on a tie) and divided
 * by their sum; when the largest then reaches 1 − FLT_EPSILON the envelope is that joint alone,
 * weight 1 (what the runtime draws for such an envelope). Every influence is checked, not only
 * the kept ones. Returns the number of joints with a positive weight before the cut (above 4: the
 * vertex lost some), 0 when there is none, or a refusal: HSD_ENV_BAD_WEIGHT (a weight negative or
 * not finite), HSD_ENV_BAD_JOINT (a joint with a weight at or past joint_count), HSD_ENV_TOO_MANY
 * (n past HSD_ENV_MAX_INPUT). */
#define HSD_ENV_MAX_INPUT UE_MAX_INFLUENCES /* influences a vertex may give */
enum { HSD_ENV_BAD_WEIGHT = -1, HSD_ENV_BAD_JOINT = -2, HSD_ENV_TOO_MANY = -3 };
int hsd_envelope_of_vertex(const uint16_t *joints, const float *weights, uint32_t n, uint32_t joint_count,
                           hsd_influences *out);

/* Envelope weights rounded to whole units of 1/units (docs/hsd-import.md#rounded-weights): each
 * weight × units is floored and the units left over go one each to the largest remainders (the
 * earlier joint on a tie), so every weight moves by less than 1/units and the units add up to
 * `units`; joints left with none are dropped, the rest sorted again (largest first, the lower joint
 * on a tie) and the first weight set so that w0 + w1 + w2 + w3, added in that order in float, is 1.
 * units 0 leaves the weights as they are but for that sum. Returns the largest change of a weight. */
double hsd_quantise_envelope(hsd_influences *e, uint32_t units);

#define HSD_NEW_WEIGHT_UNITS 64   /* the default step: weights in 1/64 */

/* Distinct envelopes found by value (open addressing). */
typedef struct hsd_env_set {
    hsd_influences *envs;
    size_t count, cap;
    int32_t *hash;                /* -1: empty */
    size_t hash_cap;
} hsd_env_set;
/* The id of `e` in the set, added when new; -1 on no memory. */
int32_t hsd_env_set_id(hsd_env_set *s, const hsd_influences *e);
void hsd_env_set_free(hsd_env_set *s);

/* Triangles (three envelope ids each) in PObjs of at most `max_slots` envelopes and `max_tris`
 * triangles, grown over shared envelopes so each PObj is one patch of the mesh. A PObj starts with
 * the first triangle (input order) not yet placed; each pass looks at the frontier (the triangles
 * not yet placed with a corner whose envelope the PObj has), ascending: it takes every one whose
 * envelopes the PObj has, and remembers the first of the others that fits with the fewest new
 * envelopes; that one is then taken (its new envelopes appended in corner order) and another pass
 * made. When none on the frontier fits, the first triangle not yet placed is taken if it fits; the
 * PObj closes when that does not fit either or it has max_tris. */
typedef struct hsd_env_split {
    uint32_t *order;              /* every triangle once, PObj by PObj, in the order taken */
    size_t *tri_end;              /* per PObj: the end of its run in `order` */
    uint32_t *env;                /* per PObj: its envelope ids in slot order */
    size_t *env_end;              /* per PObj: the end of its run in `env` */
    size_t count;                 /* PObjs */
} hsd_env_split;
/* UE_ERR_LIMIT when more than `max_pobjs` PObjs would be needed (the work stops there),
 * UE_ERR_USAGE for max_slots < 3 or max_tris 0, UE_ERR_NOMEM. Work: each pass reads the PObj's
 * envelopes' live triangles (placed ones dropped as met), at most 11 passes a PObj. */
ue_result hsd_envelope_split(const uint32_t *tri_env, size_t tri_count, uint32_t max_slots, size_t max_tris,
                             size_t max_pobjs, hsd_env_split *out);
void hsd_env_split_free(hsd_env_split *s);

/* A skinned primitive's envelopes fitted to `max_pobjs` PObjs: the vertices' envelopes (`exact`,
 * n of them) rounded to 1/units (units 0: as given) and split (hsd_envelope_split over `indices`,
 * tri_count triangles); while the distinct envelopes cannot fit (more than 10 × max_pobjs) or the
 * split needs more PObjs, the step is made coarser (units halved, rounded down; from 0 the first
 * is 1024) down to one unit, one joint a vertex. On success `set` holds the distinct envelopes,
 * vertex_env[v] each vertex's id in it, `split` the PObjs (ids into `set`), *units_used the units
 * taken (0: as given) and *change the largest change of a weight. UE_ERR_LIMIT when even one unit
 * does not fit, UE_ERR_NOMEM. Work: at most 12 roundings of the n vertices, a split only where
 * the envelope count allows it. */
ue_result hsd_fit_envelopes(const hsd_influences *exact, size_t n, const uint32_t *indices, size_t tri_count,
                            uint32_t units, size_t max_tris, size_t max_pobjs, hsd_env_set *set, uint32_t *vertex_env,
                            hsd_env_split *split, uint32_t *units_used, double *change);

#endif
