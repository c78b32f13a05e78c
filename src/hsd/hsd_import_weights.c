/* unearth — edit-mode import of HSD models: skin weights read back (docs/hsd-import.md#skin-weights).
 * A vertex whose JOINTS_0/WEIGHTS_0 changed takes the envelope of its PObj's list that matches, or a new one. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "hsd/hsd_import_int.h"
#include "hsd/hsd_pose.h"
#include "hsd/hsd_to_scene.h"

int32_t *hsd_skin_joint_map(const ue_scene *s, int32_t gnode, const ue_scene *ref, size_t *count, bool *nomem) {
    *count = 0, *nomem = false;
    int32_t skin = s->nodes[gnode].skin;
    if (skin < 0 || (size_t)skin >= s->skin_count) return NULL;
    const ue_scene_skin *sk = &s->skins[skin];
    int32_t *map = malloc((sk->joint_count + 1) * sizeof *map);
    if (!map) return *nomem = true, NULL;
    for (size_t j = 0; j < sk->joint_count; j++) {
        map[j] = -1;
        int32_t node = sk->joints[j];
        if (node < 0 || (size_t)node >= s->node_count) continue;
        for (size_t n = 0; n < ref->node_count && map[j] < 0; n++) {
            const ue_scene_node *rn = &ref->nodes[n];
            if (rn->source.type == HSD_KIND_JOBJ && !strcmp(rn->source.format, "hsd") &&
                hsd_names_match(s->nodes[node].name, rn->name))
                map[j] = (int32_t)rn->source.index;
        }
    }
    *count = sk->joint_count;
    return map;
}

/* A set of influences: distinct joints, weights summing to 1. */
typedef struct influence_set {
    uint32_t count;
    int32_t joint[HSD_SKIN_INFLUENCES];
    double weight[HSD_SKIN_INFLUENCES];
} influence_set;

static void add_to_set(influence_set *a, int32_t joint, double w) {
    for (uint32_t i = 0; i < a->count; i++)
        if (a->joint[i] == joint) {
            a->weight[i] += w;
            return;
        }
    if (a->count < HSD_SKIN_INFLUENCES) a->joint[a->count] = joint, a->weight[a->count++] = w;
}

/* The `keep` largest weights (the earlier on a tie), renormalised; true when some were dropped. */
static bool keep_largest(influence_set *a, uint32_t keep) {
    bool dropped = false;
    while (a->count > keep) {
        uint32_t low = 0;
        for (uint32_t i = 1; i < a->count; i++)
            if (a->weight[i] <= a->weight[low]) low = i;
        memmove(&a->joint[low], &a->joint[low + 1], (a->count - low - 1) * sizeof a->joint[0]);
        memmove(&a->weight[low], &a->weight[low + 1], (a->count - low - 1) * sizeof a->weight[0]);
        a->count--, dropped = true;
    }
    double sum = 0;
    for (uint32_t i = 0; i < a->count; i++) sum += a->weight[i];
    for (uint32_t i = 0; sum > 0 && i < a->count; i++) a->weight[i] /= sum;
    return dropped;
}

static double weight_of(const influence_set *a, int32_t joint) {
    for (uint32_t i = 0; i < a->count; i++)
        if (a->joint[i] == joint) return a->weight[i];
    return 0;
}

/* Every joint of either set within HSD_WEIGHT_TOLERANCE of its weight in the other. */
static bool same_influences(const influence_set *a, const influence_set *b) {
    for (uint32_t i = 0; i < a->count; i++)
        if (fabs(a->weight[i] - weight_of(b, a->joint[i])) > HSD_WEIGHT_TOLERANCE) return false;
    for (uint32_t i = 0; i < b->count; i++)
        if (fabs(b->weight[i] - weight_of(a, b->joint[i])) > HSD_WEIGHT_TOLERANCE) return false;
    return true;
}

static influence_set slot_influences(const hsd_skin_slot *s) {
    influence_set a = {0};
    for (uint32_t i = 0; i < s->count; i++) add_to_set(&a, s->joint[i], s->weight[i]);
    return a;
}

/* Vertex v's glTF influences as model joints; -1 and *bad_joint for a skin joint the base lacks
 * (-1 for a weight that is not finite). */
static int glTF_influences(const hsd_reweight_in *in, uint32_t v, influence_set *out, int32_t *bad_joint) {
    const ue_scene_primitive *gp = in->gp;
    memset(out, 0, sizeof *out);
    for (uint32_t k = 0; k < gp->influences; k++) {
        double w = gp->weights[(size_t)v * gp->influences + k];
        uint16_t j = gp->joints[(size_t)v * gp->influences + k];
        if (!isfinite(w)) return *bad_joint = -1, -1;
        if (!(w > 0)) continue;
        if (j >= in->joint_map_count || in->joint_map[j] < 0) return *bad_joint = j, -1;
        add_to_set(out, in->joint_map[j], w);
    }
    return 0;
}

/* The matrix convert gives an envelope of these weights in this PObj (the owner's R rule): the
 * skinning code run on a model whose one envelope list holds only it. */
static bool envelope_matrix(const hsd_reweight_in *in, const hsd_new_envelope *ne, hsd_skin_slot *out) {
    ue_hsd_model one = *in->m;
    ue_hsd_pobj po = in->m->pobjs[in->pobj];
    ue_hsd_envelope env = {0, 0, ne->count};
    ue_hsd_weight w[HSD_NEW_INFLUENCES];
    for (uint32_t i = 0; i < ne->count; i++) w[i] = (ue_hsd_weight){ne->joint[i], ne->weight[i]};
    po.env_first = 0, po.env_count = 1;
    one.pobjs = &po, one.pobj_count = 1, one.envelopes = &env, one.envelope_count = 1;
    one.weights = w, one.weight_count = ne->count;
    hsd_pobj_skin sk;
    ue_diag scratch = {0};
    ue_result r = hsd_pobj_skin_compute(&one, in->pose, 0, in->owner, UE_MODE_STRICT, in->gpath, &sk, &scratch);
    ue_diag_free(&scratch);
    if (r != UE_OK || !sk.slot[0].used) return false;
    *out = sk.slot[0];
    return true;
}

typedef struct reweight_ctx {
    const hsd_reweight_in *in;
    hsd_pobj_skin *skin;
    hsd_layout_edits *e;
    uint32_t slots;          /* slots the PObj's list fills (at most HSD_SKIN_SLOTS) */
    size_t *errors;
} reweight_ctx;

static void refuse(reweight_ctx *c, const char *code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void refuse(reweight_ctx *c, const char *code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    ue_diag_addv(c->in->d, UE_SEV_ERROR, code, UE_DAT_HEADER + (uint64_t)c->in->m->pobjs[c->in->pobj].offset,
                 c->in->gpath, fmt, ap);
    va_end(ap);
    (*c->errors)++;
}

/* The slot of an envelope with the weights `a`: a matching one of the list, or a new one appended
 * (its matrix into the skin). -1 after a refusal. */
static int find_or_add_slot(reweight_ctx *c, const influence_set *a, uint32_t v) {
    for (uint32_t k = 0; k < c->slots; k++) {
        if (!c->skin->slot[k].used) continue;
        influence_set have = slot_influences(&c->skin->slot[k]);
        if (same_influences(&have, a)) return (int)k;
    }
    if (c->slots >= HSD_SKIN_SLOTS || c->in->m->pobjs[c->in->pobj].env_count > HSD_SKIN_SLOTS) {
        refuse(c, "import.hsd.envelopes",
               "vertex %u: its new weights match none of PObj %zu's envelopes, and the PObj already addresses %u "
               "matrices, the GX limit (PNMTX0 … 9, PNMTXIDX 0 … 27); splitting a PObj is a later step", v,
               c->in->pobj, HSD_SKIN_SLOTS);
        return -1;
    }
    hsd_new_envelope ne = {c->in->pobj, a->count, {0}, {0}};
    for (uint32_t i = 0; i < a->count; i++) ne.joint[i] = a->joint[i], ne.weight[i] = (float)a->weight[i];
    hsd_skin_slot s;
    if (!envelope_matrix(c->in, &ne, &s)) {
        refuse(c, "import.hsd.singular", "vertex %u: its new envelope has no matrix in PObj %zu", v, c->in->pobj);
        return -1;
    }
    hsd_new_envelope *grown = realloc(c->e->envelopes, (c->e->envelope_count + 1) * sizeof *grown);
    if (!grown) return -2;
    c->e->envelopes = grown;
    grown[c->e->envelope_count++] = ne;
    c->skin->slot[c->slots] = s;
    return (int)c->slots++;
}

static bool in_some_envelope(const ue_hsd_model *m, int32_t joint) {
    for (size_t i = 0; i < m->weight_count; i++)
        if (m->weights[i].joint == joint) return true;
    return false;
}

/* A new weight set's joints: each a joint the base skins with (one with an inverse bind matrix,
 * or one an envelope of the base already names). */
static bool joints_deform(reweight_ctx *c, const influence_set *a, uint32_t v) {
    for (uint32_t i = 0; i < a->count; i++) {
        const ue_hsd_joint *j = &c->in->m->joints[a->joint[i]];
        if (j->has_inverse_bind || in_some_envelope(c->in->m, a->joint[i])) continue;
        refuse(c, "import.hsd.weights",
               "vertex %u: joint %d ('%s') has no inverse bind matrix and no envelope of the base names it (it "
               "deforms no vertex); weights on it are not written", v, (int)a->joint[i],
               j->class_name ? j->class_name : "unnamed");
        return false;
    }
    return true;
}

ue_result hsd_reweight(const hsd_reweight_in *in, hsd_pobj_skin *skin, uint8_t *new_slot, hsd_layout_edits *e,
                       size_t *errors, size_t *trimmed) {
    const ue_scene_primitive *gp = in->gp;
    memset(new_slot, 0xFF, gp->vertex_count);
    const ue_hsd_pobj *po = &in->m->pobjs[in->pobj];
    bool enveloped = (po->flags & UE_POBJ_TYPE_MASK) == UE_POBJ_ENVELOPE && in->g->pnmtx;
    reweight_ctx c = {in, skin, e, 0, errors};
    if (!gp->joints || !gp->weights || !in->joint_map) {
        if (enveloped && gp->vertex_count > in->g->vertex_count)
            refuse(&c, "import.hsd.weights", "vertex %u: new in PObj %zu, whose vertices take envelopes, and the glTF "
                   "gives it no JOINTS_0/WEIGHTS_0", in->g->vertex_count, in->pobj);
        return UE_OK;
    }
    while (c.slots < HSD_SKIN_SLOTS && skin->slot[c.slots].used) c.slots++;
    if ((po->flags & UE_POBJ_TYPE_MASK) == UE_POBJ_ENVELOPE)
        c.slots = po->env_count < HSD_SKIN_SLOTS ? po->env_count : HSD_SKIN_SLOTS;
    for (uint32_t v = 0; v < gp->vertex_count; v++) {
        bool fresh = v >= in->g->vertex_count; /* a new vertex: it takes an envelope whatever its weights */
        uint32_t slot = in->g->pnmtx && !fresh ? in->g->pnmtx[v] / 3u : 0;
        if (slot >= HSD_SKIN_SLOTS) { /* the strict decoder refused such a PObj: not reached */
            refuse(&c, "import.hsd.internal", "vertex %u: PNMTXIDX %u names no matrix slot of PObj %zu", v,
                   (unsigned)in->g->pnmtx[v], in->pobj);
            return UE_OK;
        }
        influence_set want, have = slot_influences(&skin->slot[slot]);
        int32_t bad = 0;
        if (glTF_influences(in, v, &want, &bad) < 0) {
            if (bad < 0) refuse(&c, "import.hsd.weights", "vertex %u: a weight is not finite", v);
            else refuse(&c, "import.hsd.weights", "vertex %u: JOINTS_0 names skin joint %d, which is no joint of the base",
                        v, (int)bad);
            return UE_OK;
        }
        keep_largest(&have, HSD_NEW_INFLUENCES); /* as the export wrote them */
        influence_set given = want;
        keep_largest(&given, HSD_SKIN_INFLUENCES);
        if (same_influences(&given, &have) && (!fresh || !enveloped)) continue;
        if (!want.count) {
            refuse(&c, "import.hsd.weights", "vertex %u: every weight is 0", v);
            return UE_OK;
        }
        if (!enveloped) {
            refuse(&c, "import.hsd.weights",
                   "vertex %u: its weights changed, but PObj %zu is drawn %s; giving it envelopes is a later step", v,
                   in->pobj, in->g->pnmtx ? "rigidly by its joint" : "without matrix indices (PNMTXIDX)");
            return UE_OK;
        }
        *trimmed += keep_largest(&want, HSD_NEW_INFLUENCES);
        if (!joints_deform(&c, &want, v)) return UE_OK;
        int k = find_or_add_slot(&c, &want, v);
        if (k == -2) return UE_ERR_NOMEM;
        if (k < 0) return UE_OK;
        if (fresh || (uint32_t)k != slot) new_slot[v] = (uint8_t)k;
    }
    return UE_OK;
}
