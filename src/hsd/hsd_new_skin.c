/* unearth — a new model's skinning (docs/hsd-import.md#skinned-meshes): SKELETON joints and their
 * inverse binds, envelopes from the glTF weights (4 at most, deduplicated), PObjs split at 10 matrices. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsd/hsd_new.h"
#include "hsd/hsd_pose.h"

/* ---- one vertex's envelope ------------------------------------------------------------------ */

/* The vertex's distinct joints with a weight (`j`, `w`: HSD_ENV_MAX_INPUT entries), a repeated
 * joint's weights added; how many, or a HSD_ENV_* refusal. */
static int gather_influences(const uint16_t *joints, const float *weights, uint32_t n, uint32_t joint_count,
                             uint32_t *j, double *w) {
    if (n > HSD_ENV_MAX_INPUT) return HSD_ENV_TOO_MANY;
    int m = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!isfinite(weights[i]) || weights[i] < 0) return HSD_ENV_BAD_WEIGHT;
        if (weights[i] == 0) continue;
        if (joints[i] >= joint_count) return HSD_ENV_BAD_JOINT;
        int k = 0;
        while (k < m && j[k] != joints[i]) k++;
        if (k == m) {
            j[m] = joints[i];
            w[m] = 0;
            m++;
        }
        w[k] += weights[i];
    }
    return m;
}

/* Largest weight first, the lower joint first on a tie (insertion sort: at most 8). */
static void sort_influences(uint32_t *j, double *w, int m) {
    for (int a = 1; a < m; a++)
        for (int b = a; b > 0 && (w[b] > w[b - 1] || (w[b] == w[b - 1] && j[b] < j[b - 1])); b--) {
            double tw = w[b];
            uint32_t tj = j[b];
            w[b] = w[b - 1];
            j[b] = j[b - 1];
            w[b - 1] = tw;
            j[b - 1] = tj;
        }
}

int hsd_envelope_of_vertex(const uint16_t *joints, const float *weights, uint32_t n, uint32_t joint_count,
                           hsd_influences *out) {
    uint32_t j[HSD_ENV_MAX_INPUT];
    double w[HSD_ENV_MAX_INPUT];
    memset(out, 0, sizeof *out);
    int m = gather_influences(joints, weights, n, joint_count, j, w);
    if (m <= 0) return m;
    sort_influences(j, w, m);
    uint32_t kept = m < HSD_NEW_MAX_INFLUENCES ? (uint32_t)m : HSD_NEW_MAX_INFLUENCES;
    double sum = 0;
    for (uint32_t k = 0; k < kept; k++) sum += w[k];
    if (!(sum > 0)) return 0;
    out->count = kept;
    for (uint32_t k = 0; k < kept; k++) {
        out->joint[k] = j[k];
        out->weight[k] = (float)(w[k] / sum);
    }
    if (out->weight[0] >= 1.0f - FLT_EPSILON) { /* what the runtime draws for such an envelope */
        out->count = 1;
        out->weight[0] = 1.0f;
    }
    return m;
}

/* ---- rounded weights ------------------------------------------------------------------------- */

/* The first weight nudged (a few ulps at most) until w0 + w1 + … added in float order is 1. */
static void sum_to_one(hsd_influences *e) {
    for (int tries = 0; tries < 16; tries++) {
        float sum = e->weight[0];
        for (uint32_t k = 1; k < e->count; k++) sum += e->weight[k];
        if (sum == 1.0f) return;
        e->weight[0] = nextafterf(e->weight[0], sum < 1.0f ? 2.0f : 0.0f);
    }
}

/* Largest units first, the lower joint on a tie; joints without units dropped. */
static void sort_units(hsd_influences *e, uint32_t *u) {
    uint32_t m = 0;
    for (uint32_t k = 0; k < e->count; k++)
        if (u[k]) {
            e->joint[m] = e->joint[k];
            u[m++] = u[k];
        }
    e->count = m;
    for (uint32_t a = 1; a < m; a++)
        for (uint32_t b = a; b > 0 && (u[b] > u[b - 1] || (u[b] == u[b - 1] && e->joint[b] < e->joint[b - 1])); b--) {
            uint32_t tu = u[b], tj = e->joint[b];
            u[b] = u[b - 1];
            e->joint[b] = e->joint[b - 1];
            u[b - 1] = tu;
            e->joint[b - 1] = tj;
        }
}

double hsd_quantise_envelope(hsd_influences *e, uint32_t units) {
    if (!e->count) return 0;
    double sum = 0, x[HSD_NEW_MAX_INFLUENCES], before[HSD_NEW_MAX_INFLUENCES], change = 0;
    uint32_t u[HSD_NEW_MAX_INFLUENCES], given = 0, n = e->count;
    bool bumped[HSD_NEW_MAX_INFLUENCES] = {0};
    if (!units) {
        sum_to_one(e);
        return 0;
    }
    for (uint32_t k = 0; k < n; k++) sum += e->weight[k];
    for (uint32_t k = 0; k < n; k++) {
        before[k] = e->weight[k] / sum;
        x[k] = before[k] * units;
        u[k] = (uint32_t)floor(x[k]);
        given += u[k];
    }
    for (uint32_t k = 0; given < units && k < n; k++, given++) { /* the leftover units, largest remainder first */
        uint32_t best = UINT32_MAX;
        for (uint32_t i = 0; i < n; i++)
            if (!bumped[i] && (best == UINT32_MAX || x[i] - u[i] > x[best] - u[best])) best = i;
        bumped[best] = true;
        u[best]++;
    }
    if (given < units) u[0] += units - given; /* unreachable: the remainders add up to fewer than n units */
    for (uint32_t k = 0; k < n; k++) {
        double d = fabs((double)u[k] / units - before[k]);
        change = d > change ? d : change;
    }
    sort_units(e, u);
    for (uint32_t k = 0; k < e->count; k++) e->weight[k] = (float)((double)u[k] / units);
    for (uint32_t k = e->count; k < HSD_NEW_MAX_INFLUENCES; k++) {
        e->joint[k] = 0;
        e->weight[k] = 0;
    }
    sum_to_one(e);
    return change;
}

/* ---- sets of distinct envelopes ------------------------------------------------------------- */

static uint32_t hash_of(const hsd_influences *e) {
    uint32_t h = 2166136261u;
    for (uint32_t k = 0; k < e->count; k++) {
        uint32_t w;
        memcpy(&w, &e->weight[k], 4);
        h = (h ^ e->joint[k]) * 16777619u;
        h = (h ^ w) * 16777619u;
    }
    /* Mixed down (murmur3's finaliser): rounded weights differ only in their high mantissa bits,
     * and the table is indexed by the low bits, which FNV alone leaves the same for them all. */
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

static bool same_envelope(const hsd_influences *a, const hsd_influences *b) {
    if (a->count != b->count) return false;
    for (uint32_t k = 0; k < a->count; k++)
        if (a->joint[k] != b->joint[k] || a->weight[k] != b->weight[k]) return false;
    return true;
}

static bool grow_hash(hsd_env_set *s) {
    size_t cap = s->hash_cap ? s->hash_cap * 2 : 256;
    int32_t *h = malloc(cap * sizeof *h);
    if (!h) return false;
    for (size_t i = 0; i < cap; i++) h[i] = -1;
    for (size_t e = 0; e < s->count; e++) {
        size_t at = hash_of(&s->envs[e]) & (cap - 1);
        while (h[at] >= 0) at = (at + 1) & (cap - 1);
        h[at] = (int32_t)e;
    }
    free(s->hash);
    s->hash = h, s->hash_cap = cap;
    return true;
}

int32_t hsd_env_set_id(hsd_env_set *s, const hsd_influences *e) {
    if (2 * (s->count + 1) > s->hash_cap && !grow_hash(s)) return -1;
    size_t at = hash_of(e) & (s->hash_cap - 1);
    for (; s->hash[at] >= 0; at = (at + 1) & (s->hash_cap - 1))
        if (same_envelope(&s->envs[s->hash[at]], e)) return s->hash[at];
    if (s->count == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        hsd_influences *grown = cap < INT32_MAX ? realloc(s->envs, cap * sizeof *grown) : NULL;
        if (!grown) return -1;
        s->envs = grown, s->cap = cap;
    }
    s->envs[s->count] = *e;
    s->hash[at] = (int32_t)s->count;
    return (int32_t)s->count++;
}

void hsd_env_set_free(hsd_env_set *s) {
    free(s->envs), free(s->hash);
    memset(s, 0, sizeof *s);
}

/* ---- triangles into PObjs of at most max_slots envelopes ------------------------------------ */

void hsd_env_split_free(hsd_env_split *s) {
    free(s->order), free(s->tri_end), free(s->env), free(s->env_end);
    memset(s, 0, sizeof *s);
}

/* The split's working state: per envelope the live triangles using it (a slice of `list`, placed
 * ones dropped as they are met), the PObj being filled, and a stamp per triangle for each pass. */
typedef struct split_state {
    const uint32_t *tri_env;
    size_t *start, *live;         /* per envelope: its slice of `list` and how much of it is live */
    uint32_t *list, *cand, *stamp;
    uint8_t *placed, *in_set;
    uint32_t *set, n, pass;       /* the PObj's envelopes (slot order), how many */
    size_t taken;
} split_state;

static int by_index(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* How many envelopes of triangle t the PObj lacks (a repeated corner counted once). */
static uint32_t lacking(const split_state *st, uint32_t t) {
    const uint32_t *e = st->tri_env + 3 * (size_t)t;
    return !st->in_set[e[0]] + (!st->in_set[e[1]] && e[1] != e[0]) + (!st->in_set[e[2]] && e[2] != e[0] && e[2] != e[1]);
}

static void take(split_state *st, hsd_env_split *out, size_t *placed, uint32_t t) {
    for (int k = 0; k < 3; k++) {
        uint32_t e = st->tri_env[3 * (size_t)t + (size_t)k];
        if (!st->in_set[e]) {
            st->in_set[e] = 1;
            st->set[st->n++] = e;
        }
    }
    st->placed[t] = 1;
    out->order[(*placed)++] = t;
    st->taken++;
}

/* The frontier, ascending: every unplaced triangle with a corner in the PObj's envelopes. */
static size_t frontier(split_state *st) {
    size_t count = 0;
    st->pass++;
    for (uint32_t i = 0; i < st->n; i++) {
        uint32_t e = st->set[i];
        uint32_t *l = st->list + st->start[e];
        for (size_t j = 0; j < st->live[e];) {
            uint32_t t = l[j];
            if (st->placed[t]) {
                l[j] = l[--st->live[e]];
                continue;
            }
            if (st->stamp[t] != st->pass) {
                st->stamp[t] = st->pass;
                st->cand[count++] = t;
            }
            j++;
        }
    }
    qsort(st->cand, count, sizeof *st->cand, by_index);
    return count;
}

/* One PObj from the seed triangle: passes over the frontier until nothing more fits. */
static void fill_pobj(split_state *st, hsd_env_split *out, size_t *placed, uint32_t seed, uint32_t max_slots,
                      size_t max_tris, size_t tri_count) {
    size_t next_at = seed, *next = &next_at;
    st->n = 0;
    st->taken = 0;
    take(st, out, placed, seed);
    while (st->taken < max_tris) {
        size_t count = frontier(st);
        uint32_t best = UINT32_MAX, best_new = UINT32_MAX;
        for (size_t i = 0; i < count && st->taken < max_tris; i++) {
            uint32_t t = st->cand[i], lack = lacking(st, t);
            if (!lack) take(st, out, placed, t);
            else if (st->n + lack <= max_slots && lack < best_new) {
                best = t;
                best_new = lack;
            }
        }
        if (st->taken == max_tris) break;
        if (best == UINT32_MAX) { /* the patch is done: the first triangle left, if it fits */
            while (*next < tri_count && st->placed[*next]) (*next)++;
            if (*next == tri_count || st->n + lacking(st, (uint32_t)*next) > max_slots) break;
            best = (uint32_t)*next;
        }
        take(st, out, placed, best);
    }
    for (uint32_t i = 0; i < st->n; i++) st->in_set[st->set[i]] = 0;
}

static void split_state_free(split_state *st) {
    free(st->start), free(st->live), free(st->list), free(st->cand), free(st->stamp), free(st->placed), free(st->in_set);
}

/* Per envelope, the triangles using it (each once). */
static bool split_state_init(split_state *st, const uint32_t *tri_env, size_t tri_count) {
    memset(st, 0, sizeof *st);
    st->tri_env = tri_env;
    uint32_t envs = 0;
    for (size_t i = 0; i < 3 * tri_count; i++) envs = tri_env[i] >= envs ? tri_env[i] + 1 : envs;
    st->start = calloc((size_t)envs + 1, sizeof *st->start);
    st->live = calloc((size_t)envs + 1, sizeof *st->live);
    st->list = malloc((3 * tri_count + 1) * sizeof *st->list);
    st->cand = malloc((tri_count + 1) * sizeof *st->cand);
    st->stamp = calloc(tri_count + 1, sizeof *st->stamp);
    st->placed = calloc(tri_count + 1, 1);
    st->in_set = calloc((size_t)envs + 1, 1);
    if (!st->start || !st->live || !st->list || !st->cand || !st->stamp || !st->placed || !st->in_set) return false;
    for (size_t t = 0; t < tri_count; t++)
        for (int k = 0; k < 3; k++) {
            const uint32_t *e = tri_env + 3 * t;
            if ((k < 1 || e[k] != e[0]) && (k < 2 || e[k] != e[1])) st->live[e[k]]++;
        }
    for (uint32_t e = 0; e < envs; e++) st->start[e + 1] = st->start[e] + st->live[e], st->live[e] = 0;
    for (size_t t = 0; t < tri_count; t++)
        for (int k = 0; k < 3; k++) {
            const uint32_t *e = tri_env + 3 * t;
            if ((k < 1 || e[k] != e[0]) && (k < 2 || e[k] != e[1])) st->list[st->start[e[k]] + st->live[e[k]]++] = (uint32_t)t;
        }
    return true;
}

ue_result hsd_envelope_split(const uint32_t *tri_env, size_t tri_count, uint32_t max_slots, size_t max_tris,
                             size_t max_pobjs, hsd_env_split *out) {
    memset(out, 0, sizeof *out);
    if (max_slots < 3 || !max_tris) return UE_ERR_USAGE;
    size_t cap = tri_count < max_pobjs ? tri_count : max_pobjs; /* every PObj takes a triangle */
    split_state st;
    bool ok = split_state_init(&st, tri_env, tri_count);
    out->order = malloc((tri_count ? tri_count : 1) * sizeof *out->order);
    out->tri_end = malloc((cap + 1) * sizeof *out->tri_end);
    out->env = malloc((cap + 1) * max_slots * sizeof *out->env);
    out->env_end = malloc((cap + 1) * sizeof *out->env_end);
    if (!ok || !out->order || !out->tri_end || !out->env || !out->env_end) {
        split_state_free(&st);
        hsd_env_split_free(out);
        return UE_ERR_NOMEM;
    }
    size_t placed = 0, env_at = 0, seed = 0;
    ue_result r = UE_OK;
    while (placed < tri_count) {
        if (out->count == max_pobjs) {
            r = UE_ERR_LIMIT;
            break;
        }
        while (st.placed[seed]) seed++;
        st.set = out->env + env_at;
        fill_pobj(&st, out, &placed, (uint32_t)seed, max_slots, max_tris, tri_count);
        env_at += st.n;
        out->tri_end[out->count] = placed;
        out->env_end[out->count] = env_at;
        out->count++;
    }
    split_state_free(&st);
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
    const double *g = &b->node_world[16 * (size_t)sk->joints[k]];
    double ibm[16], inv[16], t[16];
    for (int i = 0; i < 16; i++) ibm[i] = sk->inverse_bind ? sk->inverse_bind[16 * k + (size_t)i] : HSD_MAT_IDENTITY[i];
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

/* ---- a primitive's envelopes fitted to the PObjs left -------------------------------------- */

static uint32_t coarser(uint32_t units) { return units ? units / 2 : 1024; }

/* How many distinct envelopes the triangles use (`seen`: a zeroed flag per envelope of the set). */
static size_t envelopes_used(const uint32_t *tri_env, size_t corners, uint8_t *seen) {
    size_t used = 0;
    for (size_t i = 0; i < corners; i++)
        if (!seen[tri_env[i]]) {
            seen[tri_env[i]] = 1;
            used++;
        }
    return used;
}

/* One try: every vertex rounded to 1/units and found in `set` (emptied first); the largest change. */
static ue_result round_all(const hsd_influences *exact, size_t n, uint32_t units, hsd_env_set *set, uint32_t *vertex_env,
                           double *change) {
    hsd_env_set_free(set);
    *change = 0;
    for (size_t v = 0; v < n; v++) {
        hsd_influences e = exact[v];
        double d = hsd_quantise_envelope(&e, units);
        *change = d > *change ? d : *change;
        int32_t id = hsd_env_set_id(set, &e);
        if (id < 0) return UE_ERR_NOMEM;
        vertex_env[v] = (uint32_t)id;
    }
    return UE_OK;
}

ue_result hsd_fit_envelopes(const hsd_influences *exact, size_t n, const uint32_t *indices, size_t tri_count,
                            uint32_t units, size_t max_tris, size_t max_pobjs, hsd_env_set *set, uint32_t *vertex_env,
                            hsd_env_split *split, uint32_t *units_used, double *change) {
    memset(split, 0, sizeof *split);
    uint32_t *tri_env = malloc((3 * tri_count + 1) * sizeof *tri_env);
    if (!tri_env) return UE_ERR_NOMEM;
    ue_result r;
    for (uint32_t u = units;; u = coarser(u)) {
        r = round_all(exact, n, u, set, vertex_env, change);
        uint8_t *seen = r == UE_OK ? calloc(set->count + 1, 1) : NULL;
        if (r == UE_OK && !seen) r = UE_ERR_NOMEM;
        for (size_t i = 0; r == UE_OK && i < 3 * tri_count; i++) tri_env[i] = vertex_env[indices[i]];
        if (r == UE_OK) /* each PObj holds 10 envelopes at most: fewer PObjs cannot hold them all */
            r = envelopes_used(tri_env, 3 * tri_count, seen) > HSD_NEW_MAX_SLOTS * max_pobjs
                    ? UE_ERR_LIMIT
                    : hsd_envelope_split(tri_env, tri_count, HSD_NEW_MAX_SLOTS, max_tris, max_pobjs, split);
        free(seen);
        *units_used = u;
        if (r != UE_ERR_LIMIT || u == 1) break;
    }
    free(tri_env);
    return r;
}

/* Each vertex's envelope as the glTF gives it (HSD joints); refused when a vertex has no weight,
 * a bad one, or names no joint of the skin. */
static ue_result exact_envelopes(hsd_new *b, const ue_scene_primitive *p, int32_t skin, hsd_influences *out,
                                 const char *path) {
    const ue_scene_skin *sk = &b->s->skins[skin];
    for (uint32_t v = 0; v < p->vertex_count; v++) {
        hsd_influences *e = &out[v];
        const uint16_t *js = p->joints + (size_t)v * p->influences;
        int got = hsd_envelope_of_vertex(js, p->weights + (size_t)v * p->influences, p->influences,
                                         (uint32_t)sk->joint_count, e);
        const char *why = got == HSD_ENV_BAD_WEIGHT  ? "a weight is negative or not finite"
                          : got == HSD_ENV_BAD_JOINT ? "a joint with a weight is past the skin's joints"
                          : got == HSD_ENV_TOO_MANY  ? "more than 8 influences (JOINTS_0 and JOINTS_1 hold 8)"
                          : got == 0                 ? "no joint has a weight"
                                                     : NULL;
        if (why) {
            ue_diag_add(b->d, UE_SEV_ERROR, "import.hsd.new.skin", UE_NO_OFFSET, path, "vertex %u: %s", (unsigned)v, why);
            return UE_ERR_INVALID;
        }
        if (got > HSD_NEW_MAX_INFLUENCES) b->sk.cut_vertices++;
        for (uint32_t k = 0; k < e->count; k++) e->joint[k] = (uint32_t)b->joint_of_node[sk->joints[e->joint[k]]];
    }
    return UE_OK;
}

static uint32_t asked_units(const hsd_new *b) {
    uint32_t u = b->o->weight_units;
    return u == UE_HSD_WEIGHTS_EXACT ? 0 : u ? u : HSD_NEW_WEIGHT_UNITS;
}

static void tell_step(char *out, size_t cap, uint32_t units) {
    if (units) snprintf(out, cap, "1/%u", (unsigned)units);
    else snprintf(out, cap, "as given");
}

ue_result hsd_new_skin_fit(hsd_new *b, const ue_scene_primitive *p, int32_t skin, size_t max_tris, hsd_env_set *set,
                           uint32_t *vertex_env, hsd_env_split *split, const char *path) {
    memset(split, 0, sizeof *split);
    hsd_influences *exact = malloc(((size_t)p->vertex_count + 1) * sizeof *exact);
    if (!exact) return UE_ERR_NOMEM;
    ue_result r = exact_envelopes(b, p, skin, exact, path);
    size_t budget = HSD_NEW_MAX_POBJS - (b->m.pobj_count < HSD_NEW_MAX_POBJS ? b->m.pobj_count : HSD_NEW_MAX_POBJS);
    uint32_t units = asked_units(b), used = units;
    double change = 0;
    if (r == UE_OK)
        r = hsd_fit_envelopes(exact, p->vertex_count, p->indices, p->index_count / 3, units, max_tris, budget, set,
                              vertex_env, split, &used, &change);
    free(exact);
    char asked[24], taken[24];
    tell_step(asked, sizeof asked, units);
    tell_step(taken, sizeof taken, used);
    if (r == UE_ERR_LIMIT) {
        ue_diag_add(b->d, UE_SEV_ERROR, "import.hsd.new.limit", UE_NO_OFFSET, path,
                    "the model needs more than %d PObjs even with one joint a vertex (each vertex drawn by its largest "
                    "weight); the runtime draws about %d per model (merge primitives or meshes, or use fewer joints)",
                    HSD_NEW_MAX_POBJS, HSD_NEW_MAX_POBJS);
        return UE_ERR_INVALID;
    }
    if (r == UE_OK && used != units)
        ue_diag_add(b->d, UE_SEV_WARNING, "import.hsd.new.weights", UE_NO_OFFSET, path,
                    "weights %s need more than the %zu PObjs left (10 matrices each): rounded to %s instead, "
                    "%zu envelopes, the largest change of a weight %.4f",
                    asked, budget, taken, set->count, change);
    return r;
}

/* ---- the model's envelopes -------------------------------------------------------------------- */

/* The model's id of envelope `e` (HSD joints), its weights appended to the weight rows when new;
 * -1 on no memory. */
static int32_t envelope_id(hsd_new *b, const hsd_influences *e) {
    hsd_new_skin *sk = &b->sk;
    size_t before = sk->set.count;
    int32_t id = hsd_env_set_id(&sk->set, e);
    if (id < 0 || sk->set.count == before) return id;
    if (sk->set.count > sk->first_weight_cap) {
        size_t cap = sk->set.cap;
        uint32_t *grown = realloc(sk->first_weight, cap * sizeof *grown);
        if (!grown) return -1;
        sk->first_weight = grown, sk->first_weight_cap = cap;
    }
    sk->first_weight[id] = (uint32_t)b->m.weight_count;
    for (uint32_t k = 0; k < e->count; k++) {
        int32_t w = hsd_new_row((void **)&b->m.weights, &b->m.weight_count, &sk->weight_cap, sizeof *b->m.weights);
        if (w < 0) return -1;
        b->m.weights[w] = (ue_hsd_weight){(int32_t)e->joint[k], e->weight[k]};
    }
    return id;
}

int32_t hsd_new_envelope_rows(hsd_new *b, const hsd_env_set *local, const uint32_t *ids, size_t n) {
    int32_t first = (int32_t)b->m.envelope_count;
    for (size_t i = 0; i < n; i++) {
        const hsd_influences *e = &local->envs[ids[i]];
        int32_t id = envelope_id(b, e);
        int32_t row = id < 0 ? -1
                             : hsd_new_row((void **)&b->m.envelopes, &b->m.envelope_count, &b->sk.envelope_cap,
                                           sizeof *b->m.envelopes);
        if (row < 0) return -1;
        b->m.envelopes[row].first_weight = b->sk.first_weight[id];
        b->m.envelopes[row].weight_count = e->count;
    }
    return first;
}

void hsd_new_skin_free(hsd_new_skin *sk) {
    free(sk->bind), free(sk->first_weight);
    hsd_env_set_free(&sk->set);
}
