/* unearth — internal: HSD joint matrices at the rest pose (docs/formats/hsd-model.md#joint-matrices) and the skinning
 * rule of docs/formats/hsd-model.md#skinning that takes each stored vertex to where the game draws it. */
#ifndef UNEARTH_HSD_POSE_H
#define UNEARTH_HSD_POSE_H

#include <math.h>

#include "unearth/hsd_model.h"
#include "unearth/scene.h"

/* Matrices here are 4×4, column-major (element (row r, column c) at [c * 4 + r]), in double:
 * the conversion multiplies several of them per vertex and keeps float for its output only. */

/* Every joint's matrices (docs/formats/hsd-model.md#joint-matrices). */
typedef struct hsd_pose {
    size_t joint_count;
    double *local;       /* 16 per joint: P⁻¹·R·S·P with the translation column */
    double *world;       /* 16 per joint: world(parent) · local */
    double *scl;         /* 3 per joint: the accumulated scale `scl` of docs/formats/hsd-model.md#joint-matrices ... */
    bool *has_scl;       /* ... or none (a CLASSICAL_SCALE chain from the root) */
    double *inverse_bind;/* 16 per joint: the stored 3×4 IB with row 0 0 0 1, identity when absent */
} hsd_pose;

/* Computes every joint's matrices in table order (a parent precedes its children in the
 * depth-first pre-order of the joint table; a joint listed before its parent is treated as a
 * root with a violation). A rotation, scale, translation or inverse bind that is not finite is
 * a violation (`hsd.pose.nan`, path dat/joint[i], offset of the JObj): strict fails, tolerant
 * replaces the value with the identity's. UE_ERR_NOMEM when out of memory. hsd_pose_free is safe
 * after a failure. */
ue_result hsd_pose_compute(const ue_hsd_model *m, ue_mode mode, hsd_pose *p, ue_diag *d);
void hsd_pose_free(hsd_pose *p);

/* How one PNMTXIDX slot of a PObj takes a stored vertex to bind-pose model space, and which joints
 * (model joint indices) with which normalised weights move it. */
#define HSD_SKIN_SLOTS 10        /* GX_PNMTX0 .. PNMTX9: PNMTXIDX 0, 3, .., 27 */
#define HSD_SKIN_INFLUENCES 8    /* the scene IR's UE_MAX_INFLUENCES */
typedef struct hsd_skin_slot {
    bool used;                   /* false: a vertex selecting this slot is out of range */
    double matrix[16];           /* stored space → model space (docs/formats/hsd-model.md#skinning) */
    uint32_t count;              /* influences, 1..HSD_SKIN_INFLUENCES */
    int32_t joint[HSD_SKIN_INFLUENCES];
    float weight[HSD_SKIN_INFLUENCES]; /* sum to 1 */
} hsd_skin_slot;

typedef struct hsd_pobj_skin {
    hsd_skin_slot slot[HSD_SKIN_SLOTS];
} hsd_pobj_skin;

/* The slots of PObj `pobj` drawn by joint `owner` (docs/formats/hsd-model.md#skinning): SKIN → slot 0 = W(owner) (and slot 1 =
 * W(J) for the shared-vertex joint J); ENVELOPE → slot k from envelope E[k] with the "R" matrix
 * of the owner (single-weight envelopes W(j)·IB(j)·R or W(j), multi-weight Σ w·W·IB · R);
 * SHAPEANIM → rigid like SKIN. A broken envelope (no joint, weights not positive, more than ten
 * envelopes or eight weights) is a violation with the PObj's path `path`; tolerant mode keeps what
 * is usable. */
ue_result hsd_pobj_skin_compute(const ue_hsd_model *m, const hsd_pose *p, size_t pobj, int32_t owner,
                                ue_mode mode, const char *path, hsd_pobj_skin *out, ue_diag *d);

/* One vertex through a slot: the position, and the normal by the inverse transpose of the
 * slot's 3×3, normalised (false when it has no length; the normal is then left as 0 0 0). */
void hsd_skin_point(const hsd_skin_slot *s, const float in[3], float out[3]);
bool hsd_skin_normal(const hsd_skin_slot *s, const float in[3], float out[3]);

/* docs/formats/hsd-model.md#joint-matrices for one joint: the rule the bind pose and every animated frame share: the local matrix
 * [P⁻¹·R·diag(scale)·P | translation] with P = diag(parent_scl) (identity when parent_scl is NULL:
 * a root, or a CLASSICAL_SCALE chain from the root), and the joint's own accumulated scale. */
void hsd_joint_local(const float rot[3], const float scale[3], const float trans[3], bool classical,
                     const double *parent_scl, double local[16], double scl[3], bool *has_scl);
/* Whether a parent's accumulated scale (NULL: none) changes its child's local matrix: only a
 * non-uniform one does (p_k / p_i is exactly 1 otherwise), and the matrix is then T·R·S.
 * Inline, as the next one: every animated joint at every frame asks. */
static inline bool hsd_joint_compensates(const double *p) {
    return p && !(p[0] == p[1] && p[1] == p[2] && isfinite(p[0]) && p[0] != 0);
}
/* The joint's own accumulated scale, as hsd_joint_local gives it. */
static inline void hsd_joint_scl(const float scale[3], bool classical, const double *parent_scl, double scl[3],
                                 bool *has_scl) {
    *has_scl = classical ? parent_scl != NULL : true;
    for (int k = 0; k < 3; k++) {
        double own = classical ? 1.0 : scale[k];
        scl[k] = parent_scl ? own * parent_scl[k] : own;
    }
}

/* Small double matrix helpers shared by the scene conversion and the tests. */
extern const double HSD_MAT_IDENTITY[16];
void hsd_mat_identity(double m[16]);
/* A normal through the upper 3×3 of m (transposed: of its transpose; the inverse transpose of a
 * matrix M is M⁻¹ transposed), made unit; 0 0 0 when it has no length. `in` may be `out`. */
void hsd_mat_normal(const double m[16], bool transposed, const float in[3], float out[3]);
/* Every glTF node's world matrix (16 doubles a node, column-major) in one pass over the tree, each
 * from its parent's (unscaled: every node's scale taken as 1); UE_ERR_INVALID on a parent out of
 * range or a cycle. */
ue_result hsd_scene_worlds(const ue_scene *s, bool unscaled, double *out);
void hsd_mat_mul(const double a[16], const double b[16], double out[16]);
bool hsd_mat_invert(const double m[16], double out[16]);
/* R = Rz·Ry·Rx of docs/formats/hsd-model.md#joint-matrices into the upper 3×3 of an identity matrix. */
void hsd_mat_rotation_zyx(const float euler[3], double out[16]);

#endif
