/* unearth — HSD joint matrices by the runtime rule of docs/formats/hsd-model.md#joint-matrices (Z·Y·X Euler, the scale
 * compensation through the accumulated `scl`, CLASSICAL_SCALE) with NaN/Inf checks. */
#include "hsd/hsd_pose.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/parse.h"

const double HSD_MAT_IDENTITY[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

void hsd_mat_identity(double m[16]) {
    memcpy(m, HSD_MAT_IDENTITY, sizeof HSD_MAT_IDENTITY);
}

void hsd_mat_normal(const double m[16], bool transposed, const float in[3], float out[3]) {
    double d[3], len = 0;
    for (int r = 0; r < 3; r++) {
        d[r] = 0;
        for (int k = 0; k < 3; k++) d[r] += (transposed ? m[4 * r + k] : m[4 * k + r]) * in[k];
        len += d[r] * d[r];
    }
    len = sqrt(len);
    for (int r = 0; r < 3; r++) out[r] = len > 0 ? (float)(d[r] / len) : 0.0f;
}

/* Node n's world from its parent's (done already, or n a root). */
static void scene_world_of(const ue_scene *s, int32_t n, bool unscaled, double *out) {
    ue_scene_node node = s->nodes[n];
    if (unscaled) node.scale[0] = node.scale[1] = node.scale[2] = 1;
    float lf[16];
    double local[16];
    ue_scene_local_matrix(&node, lf);
    for (int i = 0; i < 16; i++) local[i] = lf[i];
    if (node.parent < 0) memcpy(&out[16 * (size_t)n], local, sizeof local);
    else hsd_mat_mul(&out[16 * (size_t)node.parent], local, &out[16 * (size_t)n]);
}

ue_result hsd_scene_worlds(const ue_scene *s, bool unscaled, double *out) {
    enum { TODO, WAITING, DONE };
    uint8_t *state = calloc(s->node_count + 1, 1);
    int32_t *chain = malloc((s->node_count + 1) * sizeof *chain);
    ue_result r = state && chain ? UE_OK : UE_ERR_NOMEM;
    /* Each node's undone ancestors climbed once, then worked out from the top down: linear in nodes. */
    for (size_t i = 0; r == UE_OK && i < s->node_count; i++) {
        size_t len = 0;
        for (int32_t n = (int32_t)i; n >= 0; n = s->nodes[n].parent) {
            if ((size_t)n >= s->node_count || state[n] == WAITING) {
                r = UE_ERR_INVALID;
                break;
            }
            if (state[n] == DONE) break;
            state[n] = WAITING;
            chain[len++] = n;
        }
        while (r == UE_OK && len) {
            int32_t n = chain[--len];
            scene_world_of(s, n, unscaled, out);
            state[n] = DONE;
        }
    }
    free(state);
    free(chain);
    return r;
}

void hsd_mat_mul(const double a[16], const double b[16], double out[16]) {
    double t[16];
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            double acc = 0;
            for (int k = 0; k < 4; k++) acc += a[k * 4 + r] * b[c * 4 + k];
            t[c * 4 + r] = acc;
        }
    memcpy(out, t, sizeof t);
}

/* Gauss-Jordan with partial pivoting: the matrices here are affine and well scaled, and one
 * general routine keeps the shear cases (compensated scale) honest. */
bool hsd_mat_invert(const double m[16], double out[16]) {
    double a[4][8];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            a[r][c] = m[c * 4 + r];
            a[r][c + 4] = r == c;
        }
    for (int col = 0; col < 4; col++) {
        int piv = col;
        for (int r = col + 1; r < 4; r++)
            if (fabs(a[r][col]) > fabs(a[piv][col])) piv = r;
        if (!(fabs(a[piv][col]) > 1e-300)) return false;
        if (piv != col)
            for (int c = 0; c < 8; c++) {
                double t = a[col][c];
                a[col][c] = a[piv][c];
                a[piv][c] = t;
            }
        double k = 1.0 / a[col][col];
        for (int c = 0; c < 8; c++) a[col][c] *= k;
        for (int r = 0; r < 4; r++) {
            if (r == col || a[r][col] == 0) continue;
            double f = a[r][col];
            for (int c = 0; c < 8; c++) a[r][c] -= f * a[col][c];
        }
    }
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            if (!isfinite(a[r][c + 4])) return false;
            out[c * 4 + r] = a[r][c + 4];
        }
    return true;
}

/* R = Rz·Ry·Rx as its nine elements, row-major: r[3 * row + column]. */
static void rotation_zyx(const float euler[3], double r[9]) {
    double sx = sin(euler[0]), cx = cos(euler[0]);
    double sy = sin(euler[1]), cy = cos(euler[1]);
    double sz = sin(euler[2]), cz = cos(euler[2]);
    r[0] = cz * cy, r[1] = cz * sy * sx - sz * cx, r[2] = cz * sy * cx + sz * sx;
    r[3] = sz * cy, r[4] = sz * sy * sx + cz * cx, r[5] = sz * sy * cx - sx * cz;
    r[6] = -sy, r[7] = cy * sx, r[8] = cy * cx;
}

void hsd_mat_rotation_zyx(const float euler[3], double out[16]) {
    double r[9];
    rotation_zyx(euler, r);
    hsd_mat_identity(out);
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) out[k * 4 + i] = r[3 * i + k];
}

static bool all_finite(const double *v, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i])) return false;
    return true;
}

/* The joint's SRT with every non-finite value reported and (tolerant) set to the identity's. */
static void joint_srt(const ue_hsd_joint *j, size_t index, ue_parse_ctx *c, float rot[3], float scale[3],
                      float trans[3]) {
    bool bad = false;
    for (int k = 0; k < 3; k++) {
        rot[k] = isfinite(j->rotation[k]) ? j->rotation[k] : (bad = true, 0.0f);
        scale[k] = isfinite(j->scale[k]) ? j->scale[k] : (bad = true, 1.0f);
        trans[k] = isfinite(j->translation[k]) ? j->translation[k] : (bad = true, 0.0f);
    }
    if (!bad) return;
    char path[48];
    snprintf(path, sizeof path, "dat/joint[%zu]", index);
    ue_violation(c, "hsd.pose.nan", (uint64_t)j->offset + UE_DAT_HEADER, path,
                 "rotation, scale or translation is not a finite number");
}

/* Local = [P⁻¹·R·diag(scale)·P | t], P = diag(parent scl) or I (docs/formats/hsd-model.md#joint-matrices): element (i, k) is
 * R_ik · s_k · p_k / p_i. scl: CLASSICAL_SCALE passes the parent's on (its own scale then shears
 * the children); otherwise the joint's scale multiplies into it. */
void hsd_joint_local(const float rot[3], const float scale[3], const float trans[3], bool classical,
                     const double *parent_scl, double local[16], double scl[3], bool *has_scl) {
    double r[9];
    rotation_zyx(rot, r);
    /* p_k / p_i is exactly 1 when the parent's scale is uniform (finite, not 0), and a product
     * by 1 changes no bit: the nine divisions are only needed for a non-uniform parent. */
    const double *p = parent_scl;
    bool uniform = !hsd_joint_compensates(p);
    for (int i = 0; i < 3; i++) {
        for (int k = 0; k < 3; k++)
            local[k * 4 + i] = uniform ? r[3 * i + k] * scale[k] : r[3 * i + k] * scale[k] * (p[k] / p[i]);
        local[i * 4 + 3] = 0;
        local[12 + i] = trans[i];
    }
    local[15] = 1;
    hsd_joint_scl(scale, classical, parent_scl, scl, has_scl);
}


static void inverse_bind_of(const ue_hsd_joint *j, size_t index, ue_parse_ctx *c, double out[16]) {
    hsd_mat_identity(out);
    if (!j->has_inverse_bind) return;
    double ib[16];
    hsd_mat_identity(ib);
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 4; k++) ib[k * 4 + r] = j->inverse_bind[r * 4 + k];
    if (all_finite(ib, 16)) {
        memcpy(out, ib, sizeof ib);
        return;
    }
    char path[64];
    snprintf(path, sizeof path, "dat/joint[%zu]/inverse_bind", index);
    ue_violation(c, "hsd.pose.nan", (uint64_t)j->offset + UE_DAT_HEADER + 0x38, path,
                 "the inverse bind matrix holds a value that is not a finite number");
}

static void pose_joint(const ue_hsd_model *m, hsd_pose *p, size_t i, ue_parse_ctx *c) {
    const ue_hsd_joint *j = &m->joints[i];
    int32_t parent = j->parent;
    char path[48];
    snprintf(path, sizeof path, "dat/joint[%zu]", i);
    if (parent != UE_HSD_NONE && (parent < 0 || (size_t)parent >= i)) {
        ue_violation(c, "hsd.pose.order", (uint64_t)j->offset + UE_DAT_HEADER, path,
                     "the parent joint %d does not precede the joint in the table", (int)parent);
        parent = UE_HSD_NONE;
    }
    float rot[3], scale[3], trans[3];
    joint_srt(j, i, c, rot, scale, trans);
    bool pscl = parent != UE_HSD_NONE && p->has_scl[parent];
    bool classical = (j->flags & UE_JOBJ_CLASSICAL_SCALE) != 0;
    hsd_joint_local(rot, scale, trans, classical, pscl ? &p->scl[3 * (size_t)parent] : NULL,
                    &p->local[16 * i], &p->scl[3 * i], &p->has_scl[i]);
    if (!all_finite(&p->local[16 * i], 16)) {
        ue_violation(c, "hsd.pose.nan", (uint64_t)j->offset + UE_DAT_HEADER, path,
                     "the local matrix is not finite (a parent scale of 0 cannot be compensated)");
        hsd_mat_identity(&p->local[16 * i]);
    }
    if (parent == UE_HSD_NONE) memcpy(&p->world[16 * i], &p->local[16 * i], 16 * sizeof(double));
    else hsd_mat_mul(&p->world[16 * (size_t)parent], &p->local[16 * i], &p->world[16 * i]);
    if (!all_finite(&p->world[16 * i], 16)) {
        ue_violation(c, "hsd.pose.nan", (uint64_t)j->offset + UE_DAT_HEADER, path, "the world matrix is not finite");
        hsd_mat_identity(&p->world[16 * i]);
    }
    inverse_bind_of(j, i, c, &p->inverse_bind[16 * i]);
}

ue_result hsd_pose_compute(const ue_hsd_model *m, ue_mode mode, hsd_pose *p, ue_diag *d) {
    memset(p, 0, sizeof *p);
    size_t n = m->joint_count ? m->joint_count : 1;
    p->local = malloc(n * 16 * sizeof *p->local);
    p->world = malloc(n * 16 * sizeof *p->world);
    p->inverse_bind = malloc(n * 16 * sizeof *p->inverse_bind);
    p->scl = malloc(n * 3 * sizeof *p->scl);
    p->has_scl = malloc(n * sizeof *p->has_scl);
    if (!p->local || !p->world || !p->inverse_bind || !p->scl || !p->has_scl) return UE_ERR_NOMEM;
    p->joint_count = m->joint_count;
    ue_parse_ctx c = ue_parse_begin(mode, d);
    for (size_t i = 0; i < m->joint_count; i++) pose_joint(m, p, i, &c);
    return c.failure;
}

void hsd_pose_free(hsd_pose *p) {
    free(p->local);
    free(p->world);
    free(p->inverse_bind);
    free(p->scl);
    free(p->has_scl);
    memset(p, 0, sizeof *p);
}
