/* unearth — HSD skinning (docs/formats/hsd-model.md#skinning): the matrix of each PNMTXIDX slot of a PObj (rigid,
 * shared-vertex, envelope with the "R" rule of skeleton roots) and its joint influences. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/parse.h"
#include "hsd/hsd_pose.h"

static const double *world_of(const hsd_pose *p, int32_t j) { return &p->world[16 * (size_t)j]; }

static void rigid_slot(hsd_skin_slot *s, const hsd_pose *p, int32_t joint) {
    s->used = true;
    memcpy(s->matrix, world_of(p, joint), sizeof s->matrix);
    s->count = 1;
    s->joint[0] = joint;
    s->weight[0] = 1.0f;
}

/* The nearest ancestor-or-self of `owner` with SKELETON or SKELETON_ROOT, or -1. The walk is
 * bounded by the joint count, so a parent cycle in a hand-made table cannot loop. */
static int32_t skeleton_of(const ue_hsd_model *m, int32_t owner) {
    int32_t j = owner;
    for (size_t steps = 0; j >= 0 && (size_t)j < m->joint_count && steps <= m->joint_count; steps++) {
        if (m->joints[j].flags & (UE_JOBJ_SKELETON | UE_JOBJ_SKELETON_ROOT)) return j;
        j = m->joints[j].parent;
    }
    return UE_HSD_NONE;
}

/* The right matrix R (docs/formats/hsd-model.md#skinning) of an envelope PObj's owner; false when there is none (the owner is a
 * skeleton root, or no ancestor is a skeleton). */
static bool right_matrix(const ue_hsd_model *m, const hsd_pose *p, int32_t owner, double r[16]) {
    if (m->joints[owner].flags & UE_JOBJ_SKELETON_ROOT) return false;
    int32_t x = skeleton_of(m, owner);
    if (x < 0) return false;
    double inv[16], wib[16];
    if (x == owner) return hsd_mat_invert(&p->inverse_bind[16 * (size_t)x], r);
    if (m->joints[x].flags & UE_JOBJ_SKELETON_ROOT) {
        if (!hsd_mat_invert(world_of(p, x), inv)) return false;
    } else {
        hsd_mat_mul(world_of(p, x), &p->inverse_bind[16 * (size_t)x], wib);
        if (!hsd_mat_invert(wib, inv)) return false;
    }
    hsd_mat_mul(inv, world_of(p, owner), r);
    return true;
}

/* Keeps the HSD_SKIN_INFLUENCES largest weights (earlier on a tie) and normalises them. A joint
 * named twice in one envelope gets the sum of its weights: the runtime adds the two W·IB terms. */
static void add_influence(hsd_skin_slot *s, int32_t joint, float w) {
    for (uint32_t i = 0; i < s->count; i++)
        if (s->joint[i] == joint) {
            s->weight[i] += w;
            return;
        }
    uint32_t at = s->count;
    if (at == HSD_SKIN_INFLUENCES) {
        uint32_t low = 0;
        for (uint32_t i = 1; i < at; i++)
            if (s->weight[i] < s->weight[low]) low = i;
        if (!(w > s->weight[low])) return;
        memmove(&s->joint[low], &s->joint[low + 1], (at - low - 1) * sizeof s->joint[0]);
        memmove(&s->weight[low], &s->weight[low + 1], (at - low - 1) * sizeof s->weight[0]);
        at--;
    }
    s->joint[at] = joint;
    s->weight[at] = w;
    s->count = at + 1;
}

static void normalise_influences(hsd_skin_slot *s) {
    double sum = 0;
    for (uint32_t i = 0; i < s->count; i++) sum += s->weight[i];
    for (uint32_t i = 0; i < s->count; i++) s->weight[i] = (float)(s->weight[i] / sum);
}

/* Checks one envelope's weights; false (with a violation) when it cannot be used. */
static bool envelope_ok(const ue_hsd_model *m, const ue_hsd_envelope *e, ue_parse_ctx *c, const char *path,
                        size_t k) {
    char ep[200];
    snprintf(ep, sizeof ep, "%s/envelope[%zu]", path, k);
    uint64_t off = (uint64_t)e->offset + UE_DAT_HEADER;
    if (e->weight_count == 0 || e->first_weight > m->weight_count || e->weight_count > m->weight_count - e->first_weight) {
        ue_violation(c, "hsd.skin.envelope", off, ep, "the envelope has no weights");
        return false;
    }
    for (uint32_t i = 0; i < e->weight_count; i++) {
        const ue_hsd_weight *w = &m->weights[e->first_weight + i];
        if (w->joint < 0 || (size_t)w->joint >= m->joint_count || !isfinite(w->weight) || w->weight < 0) {
            ue_violation(c, "hsd.skin.weight", off + 8u * i, ep,
                         "weight %u names no joint or is not a finite non-negative number", i);
            return false;
        }
        if ((m->joints[w->joint].flags & UE_JOBJ_SKELETON) && !m->joints[w->joint].has_inverse_bind)
            ue_violation(c, "hsd.skin.no_inverse_bind", off + 8u * i, ep,
                         "joint %d is a deformer without an inverse bind matrix (identity used)", (int)w->joint);
    }
    return true;
}

/* Slot k of an envelope PObj: a single-weight envelope uses its joint alone, W(j)·IB(j)·R (or
 * W(j) with no R: the vertices sit in the bone's local space); otherwise Σ w·W(j)·IB(j) · R. */
static void envelope_slot(const ue_hsd_model *m, const hsd_pose *p, const ue_hsd_envelope *e, const double *r,
                          hsd_skin_slot *s) {
    const ue_hsd_weight *w = &m->weights[e->first_weight];
    double sum[16] = {0}, wib[16];
    s->used = true;
    if (w[0].weight >= 1.0f - FLT_EPSILON) {
        if (r) {
            hsd_mat_mul(world_of(p, w[0].joint), &p->inverse_bind[16 * (size_t)w[0].joint], wib);
            hsd_mat_mul(wib, r, s->matrix);
        } else {
            memcpy(s->matrix, world_of(p, w[0].joint), sizeof s->matrix);
        }
        s->count = 1;
        s->joint[0] = w[0].joint;
        s->weight[0] = 1.0f;
        return;
    }
    for (uint32_t i = 0; i < e->weight_count; i++) {
        hsd_mat_mul(world_of(p, w[i].joint), &p->inverse_bind[16 * (size_t)w[i].joint], wib);
        for (int k = 0; k < 16; k++) sum[k] += w[i].weight * wib[k];
        if (w[i].weight > 0) add_influence(s, w[i].joint, w[i].weight);
    }
    if (r) hsd_mat_mul(sum, r, s->matrix);
    else memcpy(s->matrix, sum, sizeof sum);
    if (s->count == 0) s->used = false; /* every weight 0: nothing moves the vertex */
    else normalise_influences(s);
}

static void envelope_slots(const ue_hsd_model *m, const hsd_pose *p, const ue_hsd_pobj *po, int32_t owner,
                           ue_parse_ctx *c, const char *path, hsd_pobj_skin *out) {
    uint64_t off = (uint64_t)po->offset + UE_DAT_HEADER;
    size_t count = po->env_count;
    if (po->env_first > m->envelope_count || count > m->envelope_count - po->env_first) {
        ue_violation(c, "hsd.skin.envelope", off + 0x14, path, "the envelope list is outside the model's table");
        return;
    }
    /* The runtime fills PNMTX0..9 from the head of the list and never reads the rest (the
     * reader warns with hsd.envelope.count); a vertex reaching past them is hsd.skin.pnmtx. */
    if (count > HSD_SKIN_SLOTS) count = HSD_SKIN_SLOTS;
    double r[16];
    bool has_r = right_matrix(m, p, owner, r);
    for (size_t k = 0; k < count; k++) {
        const ue_hsd_envelope *e = &m->envelopes[po->env_first + k];
        if (envelope_ok(m, e, c, path, k)) envelope_slot(m, p, e, has_r ? r : NULL, &out->slot[k]);
    }
}

ue_result hsd_pobj_skin_compute(const ue_hsd_model *m, const hsd_pose *p, size_t pobj, int32_t owner,
                                ue_mode mode, const char *path, hsd_pobj_skin *out, ue_diag *d) {
    memset(out, 0, sizeof *out);
    ue_parse_ctx c = ue_parse_begin(mode, d);
    if (pobj >= m->pobj_count || owner < 0 || (size_t)owner >= m->joint_count || p->joint_count != m->joint_count) {
        ue_parse_error(&c, "hsd.skin.owner", UE_NO_OFFSET, path, "the PObj or its owner joint is out of range");
        return c.failure;
    }
    const ue_hsd_pobj *po = &m->pobjs[pobj];
    if ((po->flags & UE_POBJ_TYPE_MASK) == UE_POBJ_ENVELOPE) {
        envelope_slots(m, p, po, owner, &c, path, out);
        return c.failure;
    }
    /* SKIN and SHAPEANIM: the owner's matrix, and the shared-vertex joint's in slot 1. */
    rigid_slot(&out->slot[0], p, owner);
    if (po->skin_joint >= 0 && (size_t)po->skin_joint < m->joint_count) rigid_slot(&out->slot[1], p, po->skin_joint);
    return c.failure;
}

void hsd_skin_point(const hsd_skin_slot *s, const float in[3], float out[3]) {
    const double *a = s->matrix;
    for (int r = 0; r < 3; r++)
        out[r] = (float)(a[r] * in[0] + a[4 + r] * in[1] + a[8 + r] * in[2] + a[12 + r]);
}

/* The inverse transpose of the 3×3 is the cofactor matrix over the determinant; the scale
 * drops out in the normalisation, so the cofactors alone do (and a singular matrix is caught
 * by the zero length). */
bool hsd_skin_normal(const hsd_skin_slot *s, const float in[3], float out[3]) {
    const double *a = s->matrix;
#define M(r, c) a[(c) * 4 + (r)]
    double cof[3][3];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            int r1 = (r + 1) % 3, r2 = (r + 2) % 3, c1 = (c + 1) % 3, c2 = (c + 2) % 3;
            cof[r][c] = M(r1, c1) * M(r2, c2) - M(r1, c2) * M(r2, c1);
        }
#undef M
    double det = a[0] * cof[0][0] + a[4] * cof[0][1] + a[8] * cof[0][2];
    double sign = det < 0 ? -1.0 : 1.0;
    double v[3], len = 0;
    for (int r = 0; r < 3; r++) {
        v[r] = sign * (cof[r][0] * in[0] + cof[r][1] * in[1] + cof[r][2] * in[2]);
        len += v[r] * v[r];
    }
    len = sqrt(len);
    for (int r = 0; r < 3; r++) out[r] = len > 1e-30 && isfinite(len) ? (float)(v[r] / len) : 0.0f;
    return len > 1e-30 && isfinite(len);
}
