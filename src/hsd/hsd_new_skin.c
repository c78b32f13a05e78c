/* unearth — a new model's skinning (docs/hsd-import.md#skinned-meshes): SKELETON joints and their
 * inverse binds, envelopes from the glTF weights (4 at most, deduplicated), PObjs split at 10 matrices. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hsd/hsd_new.h"
#include "hsd/hsd_pose.h"

/* ---- one vertex's envelope ------------------------------------------------------------------ */

int hsd_envelope_of_vertex(const uint16_t *joints, const float *weights, uint32_t n, hsd_influences *out) {
    enum { MAX_IN = 8 };
    uint32_t j[MAX_IN];
    double w[MAX_IN];
    uint32_t m = 0;
    memset(out, 0, sizeof *out);
    for (uint32_t i = 0; i < n && i < MAX_IN; i++) {
        if (!isfinite(weights[i]) || weights[i] < 0) return -1;
        if (weights[i] == 0) continue;
        uint32_t k = 0;
        while (k < m && j[k] != joints[i]) k++;
        if (k == m) j[m] = joints[i], w[m++] = 0;
        w[k] += weights[i];
    }
    /* Largest first, the lower joint first on a tie (insertion sort: at most 8). */
    for (uint32_t a = 1; a < m; a++)
        for (uint32_t b = a; b > 0 && (w[b] > w[b - 1] || (w[b] == w[b - 1] && j[b] < j[b - 1])); b--) {
            double tw = w[b];
            uint32_t tj = j[b];
            w[b] = w[b - 1], j[b] = j[b - 1], w[b - 1] = tw, j[b - 1] = tj;
        }
    uint32_t kept = m < HSD_NEW_MAX_INFLUENCES ? m : HSD_NEW_MAX_INFLUENCES;
    double sum = 0;
    for (uint32_t k = 0; k < kept; k++) sum += w[k];
    if (kept == 0 || !(sum > 0)) return 0;
    out->count = kept;
    for (uint32_t k = 0; k < kept; k++) out->joint[k] = j[k], out->weight[k] = (float)(w[k] / sum);
    if (out->weight[0] >= 1.0f - FLT_EPSILON) out->count = 1, out->weight[0] = 1.0f;
    return (int)m;
}

/* ---- triangles into PObjs of at most max_slots envelopes ------------------------------------ */

void hsd_env_split_free(hsd_env_split *s) {
    free(s->order), free(s->tri_end), free(s->env), free(s->env_end);
    memset(s, 0, sizeof *s);
}

/* The envelopes of triangle `t` not yet in set[0 … n), each once, in corner order. */
static uint32_t new_envelopes(const uint32_t *tri_env, uint32_t t, const uint32_t *set, uint32_t n, uint32_t fresh[3]) {
    uint32_t count = 0;
    for (int k = 0; k < 3; k++) {
        uint32_t e = tri_env[3 * (size_t)t + k];
        bool known = false;
        for (uint32_t i = 0; i < n && !known; i++) known = set[i] == e;
        for (uint32_t i = 0; i < count && !known; i++) known = fresh[i] == e;
        if (!known) fresh[count++] = e;
    }
    return count;
}

ue_result hsd_envelope_split(const uint32_t *tri_env, size_t tri_count, uint32_t max_slots, size_t max_tris,
                             size_t max_pobjs, hsd_env_split *out) {
    memset(out, 0, sizeof *out);
    if (max_slots < 3 || !max_tris) return UE_ERR_USAGE;
    size_t cap = tri_count < max_pobjs ? tri_count : max_pobjs; /* every PObj takes a triangle */
    uint32_t *pending = malloc((tri_count ? tri_count : 1) * sizeof *pending);
    out->order = malloc((tri_count ? tri_count : 1) * sizeof *out->order);
    out->tri_end = malloc((cap + 1) * sizeof *out->tri_end);
    out->env = malloc((cap + 1) * max_slots * sizeof *out->env);
    out->env_end = malloc((cap + 1) * sizeof *out->env_end);
    if (!pending || !out->order || !out->tri_end || !out->env || !out->env_end) {
        free(pending);
        hsd_env_split_free(out);
        return UE_ERR_NOMEM;
    }
    for (size_t i = 0; i < tri_count; i++) pending[i] = (uint32_t)i;
    size_t left = tri_count, placed = 0, env_at = 0;
    ue_result r = UE_OK;
    while (left && r == UE_OK) {
        if (out->count == max_pobjs) {
            r = UE_ERR_LIMIT;
            break;
        }
        uint32_t *set = out->env + env_at, n = 0;
        size_t taken = 0;
        for (;;) {
            size_t keep = 0, best_at = SIZE_MAX;
            uint32_t best_new = UINT32_MAX, fresh[3];
            for (size_t i = 0; i < left; i++) {
                uint32_t t = pending[i];
                uint32_t nn = taken < max_tris ? new_envelopes(tri_env, t, set, n, fresh) : UINT32_MAX;
                if (nn == 0) {
                    out->order[placed++] = t, taken++;
                    continue;
                }
                if (nn != UINT32_MAX && n + nn <= max_slots && nn < best_new) best_new = nn, best_at = keep;
                pending[keep++] = t;
            }
            left = keep;
            if (best_at == SIZE_MAX || taken == max_tris) break;
            uint32_t t = pending[best_at];
            n += new_envelopes(tri_env, t, set, n, set + n);
            out->order[placed++] = t, taken++;
            memmove(pending + best_at, pending + best_at + 1, (left - best_at - 1) * sizeof *pending);
            left--;
        }
        env_at += n;
        out->tri_end[out->count] = placed;
        out->env_end[out->count] = env_at;
        out->count++;
    }
    free(pending);
    if (r != UE_OK) hsd_env_split_free(out);
    return r;
}

/* ---- the skeleton ---------------------------------------------------------------------------- */

bool hsd_new_skinned(const ue_scene *s, int32_t node) {
    const ue_scene_node *n = &s->nodes[node];
    if (n->mesh < 0 || (size_t)n->mesh >= s->mesh_count) return false;
    for (size_t p = 0; p < s->meshes[n->mesh].primitive_count; p++)
        if (s->meshes[n->mesh].primitives[p].joints) return true;
    return false;
}

bool hsd_new_skin_joint(const ue_scene *s, int32_t node) {
    for (size_t k = 0; k < s->skin_count; k++)
        for (size_t i = 0; i < s->skins[k].joint_count; i++)
            if (s->skins[k].joints[i] == node) return true;
    return false;
}

static bool close_matrix(const double a[16], const double b[16]) {
    for (int i = 0; i < 16; i++)
        if (fabs(a[i] - b[i]) > 1e-4 * (1 + fabs(a[i]))) return false;
    return true;
}

static ue_result skin_refusal(hsd_new *b, const char *path, const char *why, size_t skin, size_t k) {
    ue_diag_add(b->d, UE_SEV_ERROR, "import.hsd.new.skin", UE_NO_OFFSET, path, "skin %zu, joint %zu: %s", skin, k, why);
    return UE_ERR_INVALID;
}

/* The HSD inverse bind of skin `s`'s joint k: IB = W_hsd(j)⁻¹ · W_gltf(node) · IBM, so that
 * W_hsd·IB is the glTF skin matrix W_gltf·IBM (they differ only where HSD's scale rule does). */
static ue_result bind_of(hsd_new *b, const hsd_pose *pose, size_t skin, size_t k, int32_t j, double ib[16]) {
    const ue_scene_skin *sk = &b->s->skins[skin];
    float gw[16];
    double g[16], ibm[16], inv[16], t[16];
    ue_result r = ue_scene_world_matrix(b->s, sk->joints[k], gw);
    if (r != UE_OK) return r;
    for (int i = 0; i < 16; i++) g[i] = gw[i], ibm[i] = sk->inverse_bind ? sk->inverse_bind[16 * k + (size_t)i] : i % 5 == 0;
    if (fabs(ibm[3]) + fabs(ibm[7]) + fabs(ibm[11]) + fabs(ibm[15] - 1) > 1e-6)
        return skin_refusal(b, "/skins", "the inverse bind matrix is not affine (its last row is not 0 0 0 1)", skin, k);
    if (!hsd_mat_invert(&pose->world[16 * (size_t)j], inv)) {
        ue_diag_add(b->d, UE_SEV_ERROR, "import.hsd.new.joint", UE_NO_OFFSET, "/nodes", "node %d (%s) has no inverse (a zero scale on it or a parent)",
                    (int)sk->joints[k], b->s->nodes[sk->joints[k]].name);
        return UE_ERR_INVALID;
    }
    hsd_mat_mul(inv, g, t);
    hsd_mat_mul(t, ibm, ib);
    for (int i = 0; i < 16; i++)
        if (!isfinite(ib[i])) return skin_refusal(b, "/skins", "the inverse bind matrix is not finite", skin, k);
    return UE_OK;
}

ue_result hsd_new_skin_binds(hsd_new *b, const hsd_pose *pose) {
    const ue_scene *s = b->s;
    b->sk.bind = calloc(b->m.joint_count * 16 + 1, sizeof *b->sk.bind);
    if (!b->sk.bind) return UE_ERR_NOMEM;
    for (size_t skin = 0; skin < s->skin_count; skin++)
        for (size_t k = 0; k < s->skins[skin].joint_count; k++) {
            int32_t node = s->skins[skin].joints[k];
            if (node < 0 || (size_t)node >= s->node_count) return skin_refusal(b, "/skins", "names no node", skin, k);
            int32_t j = b->joint_of_node[node];
            double ib[16], *have = &b->sk.bind[16 * (size_t)j];
            ue_result r = bind_of(b, pose, skin, k, j, ib);
            if (r != UE_OK) return r;
            ue_hsd_joint *jt = &b->m.joints[j];
            if (jt->has_inverse_bind && !close_matrix(have, ib))
                return skin_refusal(b, "/skins", "another skin binds this node with another inverse bind matrix; "
                                                 "one inverse bind per joint is all HSD stores", skin, k);
            memcpy(have, ib, sizeof ib);
            jt->flags |= UE_JOBJ_SKELETON;
            jt->has_inverse_bind = true;
            for (int row = 0; row < 3; row++)
                for (int col = 0; col < 4; col++) jt->inverse_bind[row * 4 + col] = (float)ib[col * 4 + row];
        }
    return UE_OK;
}

/* ---- distinct envelopes --------------------------------------------------------------------- */

static uint32_t hash_of(const hsd_influences *e) {
    uint32_t h = 2166136261u;
    for (uint32_t k = 0; k < e->count; k++) {
        uint32_t w;
        memcpy(&w, &e->weight[k], 4);
        h = (h ^ e->joint[k]) * 16777619u;
        h = (h ^ w) * 16777619u;
    }
    return h;
}

static bool same_envelope(const hsd_influences *a, const hsd_influences *b) {
    if (a->count != b->count) return false;
    for (uint32_t k = 0; k < a->count; k++)
        if (a->joint[k] != b->joint[k] || a->weight[k] != b->weight[k]) return false;
    return true;
}

static ue_result grow_hash(hsd_new_skin *sk) {
    size_t cap = sk->hash_cap ? sk->hash_cap * 2 : 256;
    int32_t *h = malloc(cap * sizeof *h);
    if (!h) return UE_ERR_NOMEM;
    for (size_t i = 0; i < cap; i++) h[i] = -1;
    for (size_t e = 0; e < sk->env_count; e++) {
        size_t at = hash_of(&sk->envs[e].inf) & (cap - 1);
        while (h[at] >= 0) at = (at + 1) & (cap - 1);
        h[at] = (int32_t)e;
    }
    free(sk->hash);
    sk->hash = h, sk->hash_cap = cap;
    return UE_OK;
}

/* The id of envelope `e` (HSD joints) in the model's table of distinct envelopes, its weights
 * appended to the model's weight rows when new; -1 on no memory. */
static int32_t envelope_id(hsd_new *b, const hsd_influences *e) {
    hsd_new_skin *sk = &b->sk;
    if (2 * (sk->env_count + 1) > sk->hash_cap && grow_hash(sk) != UE_OK) return -1;
    size_t at = hash_of(e) & (sk->hash_cap - 1);
    for (; sk->hash[at] >= 0; at = (at + 1) & (sk->hash_cap - 1))
        if (same_envelope(&sk->envs[sk->hash[at]].inf, e)) return sk->hash[at];
    int32_t id = hsd_new_row((void **)&sk->envs, &sk->env_count, &sk->env_cap, sizeof *sk->envs);
    if (id < 0) return -1;
    sk->envs[id].inf = *e;
    sk->envs[id].first_weight = (uint32_t)b->m.weight_count;
    for (uint32_t k = 0; k < e->count; k++) {
        int32_t w = hsd_new_row((void **)&b->m.weights, &b->m.weight_count, &sk->weight_cap, sizeof *b->m.weights);
        if (w < 0) return -1;
        b->m.weights[w] = (ue_hsd_weight){(int32_t)e->joint[k], e->weight[k]};
    }
    sk->hash[at] = id;
    return id;
}

ue_result hsd_new_vertex_envelopes(hsd_new *b, const ue_scene_primitive *p, int32_t skin, int32_t *env_of_vertex,
                                   const char *path) {
    const ue_scene_skin *sk = &b->s->skins[skin];
    for (uint32_t v = 0; v < p->vertex_count; v++) {
        hsd_influences e;
        const uint16_t *js = p->joints + (size_t)v * p->influences;
        int got = hsd_envelope_of_vertex(js, p->weights + (size_t)v * p->influences, p->influences, &e);
        const char *why = got < 0 ? "a weight is negative or not finite" : got == 0 ? "no joint has a weight" : NULL;
        for (uint32_t k = 0; !why && k < e.count; k++)
            if (e.joint[k] >= sk->joint_count) why = "a joint index is past the skin's joints";
        if (why) {
            ue_diag_add(b->d, UE_SEV_ERROR, "import.hsd.new.skin", UE_NO_OFFSET, path, "vertex %u: %s", (unsigned)v, why);
            return UE_ERR_INVALID;
        }
        if (got > HSD_NEW_MAX_INFLUENCES) b->sk.cut_vertices++;
        for (uint32_t k = 0; k < e.count; k++) e.joint[k] = (uint32_t)b->joint_of_node[sk->joints[e.joint[k]]];
        env_of_vertex[v] = envelope_id(b, &e);
        if (env_of_vertex[v] < 0) return UE_ERR_NOMEM;
    }
    return UE_OK;
}

int32_t hsd_new_envelope_rows(hsd_new *b, const uint32_t *ids, size_t n) {
    int32_t first = (int32_t)b->m.envelope_count;
    for (size_t i = 0; i < n; i++) {
        int32_t row = hsd_new_row((void **)&b->m.envelopes, &b->m.envelope_count, &b->sk.envelope_cap, sizeof *b->m.envelopes);
        if (row < 0) return -1;
        b->m.envelopes[row].first_weight = b->sk.envs[ids[i]].first_weight;
        b->m.envelopes[row].weight_count = b->sk.envs[ids[i]].inf.count;
    }
    return first;
}

void hsd_new_skin_free(hsd_new_skin *sk) {
    free(sk->bind), free(sk->envs), free(sk->hash);
}
