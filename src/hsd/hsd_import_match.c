/* unearth — edit-mode import of HSD models: the vertices of a client's re-export (split, welded,
 * reordered, primitives merged) found by their triangles' geometry (docs/hsd-import.md#matching). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hsd/hsd_import_int.h"
#include "hsd/hsd_pose.h"

/* Corner values within these are the same vertex (the float noise of a re-export). */
#define POS_TOL HSD_POS_TOLERANCE
#define UV_TOL 1e-5
#define COLOR_TOL (1.5 / 255) /* absolute: Blender keeps vertex colours as sRGB bytes */
#define NORMAL_TOL 1e-3 /* absolute: a client may store normals as 16-bit integers */
#define PAIR_BUDGET 4000000.0 /* triangle pairs the last, unsorted pass may compare */
#define WORK_BUDGET 50000000.0 /* candidates all passes together may visit, claimed or not (coincident triangles) */

typedef struct tri {
    uint32_t prim, v[3];  /* a primitive of its mesh and its three vertices */
    double key;           /* sum of the corners' x (positions) or s (UVs): the sort key */
    bool claimed;
} tri;

typedef struct tri_set {
    tri *t;
    size_t n;
} tri_set;

/* One mesh as drawn at rest: per primitive and vertex, the matrix that places it (its skin's
 * blend of joint world × inverse bind, else its node's world matrix) and its world position and
 * normal. Both sides are compared there, with the joints' scale left out: a client may
 * re-express a skinned mesh with other joint axes and no joint scale (Blender's bones), which
 * keeps each vertex's place relative to its joint's position and orientation. */
typedef struct side {
    const ue_scene_mesh *mesh;
    double **mat;
    float **pos, **nrm;
} side;

static void to_double(const float *f, double *d) {
    for (int i = 0; i < 16; i++) d[i] = f[i];
}

/* The joint matrices of the node's skin (world without scale × inverse bind), or the node's own
 * world matrix alone. A joint's world here is composed of its own and its ancestors' translations
 * and rotations only, every scale left out (hsd_scene_worlds, unscaled, once for every node).
 * Blender's bones hold no scale: its importer builds each bone from that chain (a child's offset
 * is not stretched by its parent's scale either) and moves what the scales did into the vertices,
 * so a mesh re-exported by it is drawn at rest exactly as the base's is through these matrices.
 * A client that keeps the scales gives both sides the same matrices. */
static ue_result joint_matrices(const ue_scene *s, int32_t node, double **out, size_t *count) {
    const ue_scene_node *n = &s->nodes[node];
    const ue_scene_skin *sk = n->skin >= 0 && (size_t)n->skin < s->skin_count ? &s->skins[n->skin] : NULL;
    *count = sk ? sk->joint_count : 1;
    *out = malloc((*count + 1) * 16 * sizeof **out);
    if (!*out) return UE_ERR_NOMEM;
    float w[16];
    if (!sk) {
        if (ue_scene_world_matrix(s, node, w) != UE_OK) return UE_ERR_INVALID;
        to_double(w, *out);
        return UE_OK;
    }
    double *worlds = malloc((s->node_count + 1) * 16 * sizeof *worlds);
    ue_result r = worlds ? hsd_scene_worlds(s, true, worlds) : UE_ERR_NOMEM;
    for (size_t j = 0; r == UE_OK && j < sk->joint_count; j++) {
        double ib[16];
        if (sk->joints[j] < 0 || (size_t)sk->joints[j] >= s->node_count) r = UE_ERR_INVALID;
        else if (sk->inverse_bind) to_double(&sk->inverse_bind[16 * j], ib);
        else hsd_mat_identity(ib);
        if (r == UE_OK) hsd_mat_mul(&worlds[16 * (size_t)sk->joints[j]], ib, &(*out)[16 * j]);
    }
    free(worlds);
    return r;
}

static void place_vertex(const ue_scene_primitive *p, uint32_t v, const double *joints, size_t count, bool skinned,
                         double *m, float *pos, float *nrm) {
    if (!skinned || !p->joints || !p->weights) memcpy(m, joints, 16 * sizeof *m);
    else {
        memset(m, 0, 16 * sizeof *m);
        for (uint32_t k = 0; k < p->influences; k++) {
            size_t j = p->joints[(size_t)v * p->influences + k];
            double wt = p->weights[(size_t)v * p->influences + k];
            if (j >= count || wt == 0) continue;
            for (int i = 0; i < 16; i++) m[i] += wt * joints[16 * j + (size_t)i];
        }
    }
    const float *a = &p->positions[3 * (size_t)v];
    for (int r = 0; r < 3; r++) pos[r] = (float)(m[r] * a[0] + m[4 + r] * a[1] + m[8 + r] * a[2] + m[12 + r]);
    if (!nrm) return;
    /* A normal goes through the inverse transpose, here as the cofactors of the 3 × 3. */
    const float *n = &p->normals[3 * (size_t)v];
    double c[3], len = 0;
    for (int r = 0; r < 3; r++) {
        int r1 = (r + 1) % 3, r2 = (r + 2) % 3;
        double cof[3];
        for (int k = 0; k < 3; k++) {
            int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
            cof[k] = m[k1 * 4 + r1] * m[k2 * 4 + r2] - m[k2 * 4 + r1] * m[k1 * 4 + r2];
        }
        c[r] = cof[0] * n[0] + cof[1] * n[1] + cof[2] * n[2];
        len += c[r] * c[r];
    }
    len = sqrt(len);
    for (int r = 0; r < 3; r++) nrm[r] = (float)(len > 0 ? c[r] / len : 0);
}

static ue_result side_init(side *sd, const ue_scene *s, int32_t node) {
    const ue_scene_mesh *m = &s->meshes[s->nodes[node].mesh];
    sd->mesh = m;
    sd->mat = calloc(m->primitive_count + 1, sizeof *sd->mat);
    sd->pos = calloc(m->primitive_count + 1, sizeof *sd->pos);
    sd->nrm = calloc(m->primitive_count + 1, sizeof *sd->nrm);
    double *joints = NULL;
    size_t count = 0;
    ue_result r = sd->mat && sd->pos && sd->nrm ? joint_matrices(s, node, &joints, &count) : UE_ERR_NOMEM;
    bool skinned = s->nodes[node].skin >= 0;
    for (size_t p = 0; r == UE_OK && p < m->primitive_count; p++) {
        const ue_scene_primitive *pr = &m->primitives[p];
        size_t v = pr->vertex_count;
        sd->mat[p] = malloc((16 * v + 1) * sizeof **sd->mat);
        sd->pos[p] = malloc((3 * v + 1) * sizeof **sd->pos);
        sd->nrm[p] = pr->normals ? malloc((3 * v + 1) * sizeof **sd->nrm) : NULL;
        if (!sd->mat[p] || !sd->pos[p] || (pr->normals && !sd->nrm[p])) r = UE_ERR_NOMEM;
        for (uint32_t i = 0; r == UE_OK && i < pr->vertex_count; i++)
            place_vertex(pr, i, joints, count, skinned, &sd->mat[p][16 * (size_t)i], &sd->pos[p][3 * (size_t)i],
                         sd->nrm[p] ? &sd->nrm[p][3 * (size_t)i] : NULL);
    }
    free(joints);
    return r;
}

static void side_free(side *sd) {
    for (size_t p = 0; sd->mesh && p < sd->mesh->primitive_count; p++) {
        if (sd->mat) free(sd->mat[p]);
        if (sd->pos) free(sd->pos[p]);
        if (sd->nrm) free(sd->nrm[p]);
    }
    free(sd->mat), free(sd->pos), free(sd->nrm);
}

static bool near(const float *a, const float *b, int n, double tol) { return hsd_close_to(a, b, n, tol, tol); }

static const float *pos_of(const side *m, const tri *t, int k) { return &m->pos[t->prim][3 * (size_t)t->v[k]]; }

static const float *uv_of(const side *m, const tri *t, int k) {
    const float *uv = m->mesh->primitives[t->prim].uv[0];
    return uv ? &uv[2 * (size_t)t->v[k]] : NULL;
}

enum { SAME_POS = 1, SAME_UV = 2 }; /* what a corner shares with its counterpart */

static unsigned corner_match(const side *gm, const tri *g, int gk, const side *rm, const tri *r,
                             int rk) {
    unsigned m = near(pos_of(gm, g, gk), pos_of(rm, r, rk), 3, POS_TOL) ? SAME_POS : 0;
    const float *gu = uv_of(gm, g, gk), *ru = uv_of(rm, r, rk);
    if (gu && ru && near(gu, ru, 2, UV_TOL)) m |= SAME_UV;
    return m;
}

/* The rotation of g's corners (0..2) under which every corner has `need`, or -1; with
 * need == SAME_POS and two_of_three, two corners with the same position suffice. */
static int rotation(const side *gm, const tri *g, const side *rm, const tri *r, unsigned need,
                    bool two_of_three) {
    for (int rot = 0; rot < 3; rot++) {
        int hits = 0;
        for (int k = 0; k < 3; k++) hits += (corner_match(gm, g, (k + rot) % 3, rm, r, k) & need) == need;
        if (hits == 3 || (two_of_three && hits == 2)) return rot;
    }
    return -1;
}

static int by_key(const void *a, const void *b) {
    double x = ((const tri *)a)->key, y = ((const tri *)b)->key;
    return x < y ? -1 : x > y;
}

static ue_result collect(const ue_scene_mesh *m, tri_set *out) {
    size_t n = 0;
    for (size_t p = 0; p < m->primitive_count; p++) n += m->primitives[p].index_count / 3;
    out->t = calloc(n + 1, sizeof *out->t);
    if (!out->t) return UE_ERR_NOMEM;
    out->n = 0;
    for (size_t p = 0; p < m->primitive_count; p++) {
        const ue_scene_primitive *pr = &m->primitives[p];
        for (uint32_t i = 0; i + 2 < pr->index_count; i += 3) {
            tri *t = &out->t[out->n];
            bool ok = true;
            for (int k = 0; k < 3; k++) ok &= (t->v[k] = pr->indices[i + (uint32_t)k]) < pr->vertex_count;
            if (ok) t->prim = (uint32_t)p, out->n++;
        }
    }
    return UE_OK;
}

static void set_keys(const side *m, tri_set *s, bool by_uv) {
    for (size_t i = 0; i < s->n; i++) {
        tri *t = &s->t[i];
        t->key = 0;
        for (int k = 0; k < 3; k++) {
            const float *v = by_uv ? uv_of(m, t, k) : pos_of(m, t, k);
            t->key += v ? v[0] : 0;
        }
    }
    qsort(s->t, s->n, sizeof *s->t, by_key);
}

/* ---- the virtual primitives: the glTF's values in the base primitive's vertex order ---------- */

typedef struct match_ctx {
    const side *gm, *rm;
    ue_scene_primitive *virt;   /* per ref primitive */
    uint8_t **seen;             /* per ref primitive, per vertex: which attributes a corner edited */
    int32_t *gltf_prim;         /* per ref primitive: the glTF primitive of its first matched triangle */
    size_t conflicts;
    double work;                /* triangle pairs compared so far */
    size_t singular, singular_prim; /* edited vertices put_position could not place; the first */
    uint32_t singular_vertex;
} match_ctx;

/* A glTF position (world) back into the base vertex's space: the inverse of its matrix; false
 * (dst kept) when the matrix has none. */
static bool put_position(float *dst, const float *world, const double *m) {
    double inv[16];
    if (!hsd_skin_invert(m, inv)) return false;
    for (int r = 0; r < 3; r++)
        dst[r] = (float)(inv[r] * world[0] + inv[4 + r] * world[1] + inv[8 + r] * world[2] + inv[12 + r]);
    return true;
}

/* Whether two vertices are placed by one matrix (within float noise): a glTF whose skeleton was not
 * re-expressed places each vertex as the base does, and then only the inverse transpose carries
 * normals (direct_normal's exception holds under a re-expressed joint alone). */
static bool same_matrix(const double *a, const double *b) {
    for (int i = 0; i < 16; i++)
        if (!(fabs(a[i] - b[i]) <= 1e-4 * fmax(1.0, fabs(b[i])))) return false;
    return true;
}

/* Is the corner's value an edit of the base vertex's; a vertex two corners edit differently is a
 * conflict (then false). `edited` marks vertices an earlier corner edited. */
static bool edit_of(const float *g, const float *r, int n, double tol, bool *edited, const float *earlier,
                    size_t *conflicts) {
    if (!g || near(g, r, n, tol)) return false;
    if (*edited && earlier && !near(g, earlier, n, tol)) {
        (*conflicts)++;
        return false;
    }
    return *edited = true;
}

static void assign(match_ctx *x, const tri *g, int rot, const tri *r) {
    const ue_scene_primitive *gp = &x->gm->mesh->primitives[g->prim], *rp = &x->rm->mesh->primitives[r->prim];
    ue_scene_primitive *vp = &x->virt[r->prim];
    if (x->gltf_prim[r->prim] < 0) x->gltf_prim[r->prim] = (int32_t)g->prim;
    for (int k = 0; k < 3; k++) {
        size_t gv = g->v[(k + rot) % 3], rv = r->v[k];
        uint8_t *seen = &x->seen[r->prim][rv]; /* bits: position, normal, uv0, uv1, colour0, colour1 edited */
        const double *m = &x->rm->mat[r->prim][16 * rv];
        bool e;
        const float *gpos = &x->gm->pos[g->prim][3 * gv], *rpos = &x->rm->pos[r->prim][3 * rv];
        e = *seen & 1;
        if (edit_of(gpos, rpos, 3, POS_TOL, &e, NULL, &x->conflicts) && !put_position(&vp->positions[3 * rv], gpos, m) &&
            !x->singular++)
            x->singular_prim = r->prim, x->singular_vertex = (uint32_t)rv;
        *seen |= e;
        if (vp->normals && x->gm->nrm[g->prim] && x->rm->nrm[r->prim]) {
            const float *gn = &x->gm->nrm[g->prim][3 * gv], *rn = &x->rm->nrm[r->prim][3 * rv];
            float blender_rn[3];
            /* how Blender's importer carries a base normal into a re-expressed joint: by the matrix itself,
             * not its inverse transpose (the same direction unless a joint scale is non-uniform); a glTF
             * normal equal to it is the base's own, unedited, where the glTF's joints are re-expressed */
            bool reexpressed = !same_matrix(&x->gm->mat[g->prim][16 * gv], m);
            if (reexpressed) hsd_mat_normal(m, false, &rp->normals[3 * rv], blender_rn);
            e = *seen & 2;
            if (!(reexpressed && near(gn, blender_rn, 3, NORMAL_TOL)) && edit_of(gn, rn, 3, NORMAL_TOL, &e, NULL, &x->conflicts))
                hsd_mat_normal(m, true, gn, &vp->normals[3 * rv]); /* the transpose undoes the inverse transpose */
            *seen |= (uint8_t)(e << 1);
        }
        for (int s = 0; s < 2; s++) {
            e = *seen & (4 << s);
            if (vp->uv[s] && gp->uv[s] &&
                edit_of(&gp->uv[s][2 * gv], &rp->uv[s][2 * rv], 2, UV_TOL, &e, &vp->uv[s][2 * rv], &x->conflicts))
                memcpy(&vp->uv[s][2 * rv], &gp->uv[s][2 * gv], 2 * sizeof(float));
            *seen |= (uint8_t)(e << (2 + s));
            e = *seen & (16 << s);
            if (vp->colors[s] && gp->colors[s] &&
                edit_of(&gp->colors[s][4 * gv], &rp->colors[s][4 * rv], 4, COLOR_TOL, &e, &vp->colors[s][4 * rv],
                        &x->conflicts))
                memcpy(&vp->colors[s][4 * rv], &gp->colors[s][4 * gv], 4 * sizeof(float));
            *seen |= (uint8_t)(e << (4 + s));
        }
    }
}

/* One pass: each unclaimed ref triangle to an unclaimed glTF triangle under `need`. Sorted passes
 * look only at glTF triangles whose key lies near the ref triangle's; `unique` passes take a
 * candidate only when it is the one. */
static void pass(match_ctx *x, tri_set *gs, tri_set *rs, unsigned need, bool two_of_three, bool unique,
                 bool sorted) {
    for (size_t i = 0; i < rs->n; i++) {
        tri *r = &rs->t[i];
        if (r->claimed) continue;
        double win = 3 * POS_TOL * (1 + fabs(r->key));
        size_t lo = 0;
        if (sorted) {
            size_t a = 0, b = gs->n;
            while (a < b) {
                size_t mid = (a + b) / 2;
                if (gs->t[mid].key < r->key - win) a = mid + 1;
                else b = mid;
            }
            lo = a;
        }
        tri *pick = NULL;
        int pick_rot = -1, found = 0;
        for (size_t j = lo; j < gs->n && found < 2; j++) {
            tri *g = &gs->t[j];
            if (sorted && g->key > r->key + win) break;
            if (++x->work > WORK_BUDGET) return; /* a claimed candidate too: runs of them cost the same */
            if (g->claimed) continue;
            int rot = rotation(x->gm, g, x->rm, r, need, two_of_three);
            if (rot < 0) continue;
            if (!found++) pick = g, pick_rot = rot;
            if (!unique) break;
        }
        if (!pick || (unique && found > 1)) continue;
        pick->claimed = r->claimed = true;
        assign(x, pick, pick_rot, r);
    }
}

static size_t unclaimed(const tri_set *s) {
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++) n += !s->t[i].claimed;
    return n;
}

static ue_result alloc_virtual(match_ctx *x) {
    size_t n = x->rm->mesh->primitive_count;
    x->virt = calloc(n + 1, sizeof *x->virt);
    x->seen = calloc(n + 1, sizeof *x->seen);
    x->gltf_prim = malloc((n + 1) * sizeof *x->gltf_prim);
    if (!x->virt || !x->seen || !x->gltf_prim) return UE_ERR_NOMEM;
    for (size_t p = 0; p < n; p++) {
        const ue_scene_primitive *rp = &x->rm->mesh->primitives[p];
        ue_scene_primitive *vp = &x->virt[p];
        size_t v = rp->vertex_count;
        x->gltf_prim[p] = -1;
        vp->vertex_count = rp->vertex_count;
        vp->index_count = rp->index_count;
        vp->indices = rp->indices; /* borrowed: the base's triangles */
        vp->material = rp->material;
        vp->source = rp->source;
        x->seen[p] = calloc(v + 1, 1);
        vp->positions = malloc((3 * v + 1) * sizeof(float));
        if (!x->seen[p] || !vp->positions) return UE_ERR_NOMEM;
        memcpy(vp->positions, rp->positions, 3 * v * sizeof(float));
        float **dst[5] = {&vp->normals, &vp->uv[0], &vp->uv[1], &vp->colors[0], &vp->colors[1]};
        const float *src[5] = {rp->normals, rp->uv[0], rp->uv[1], rp->colors[0], rp->colors[1]};
        static const size_t width[5] = {3, 2, 2, 4, 4};
        for (int a = 0; a < 5; a++) {
            if (!src[a]) continue;
            *dst[a] = malloc((width[a] * v + 1) * sizeof(float));
            if (!*dst[a]) return UE_ERR_NOMEM;
            memcpy(*dst[a], src[a], width[a] * v * sizeof(float));
        }
    }
    return UE_OK;
}

static void virtual_free(ue_scene_primitive *virt, size_t count) {
    for (size_t p = 0; virt && p < count; p++) {
        free(virt[p].positions);
        free(virt[p].normals);
        for (int s = 0; s < 2; s++) free(virt[p].uv[s]), free(virt[p].colors[s]);
    }
    free(virt);
}

ue_result hsd_match_geometry(const ue_scene *gs, int32_t gnode, const ue_scene *rs, int32_t rnode,
                             hsd_geometry_match *out) {
    memset(out, 0, sizeof *out);
    side g = {0}, r = {0};
    match_ctx x = {&g, &r, NULL, NULL, NULL, 0, 0, 0, 0, 0};
    tri_set gt = {0}, rt = {0};
    ue_result res = side_init(&g, gs, gnode);
    if (res == UE_OK) res = side_init(&r, rs, rnode);
    if (res == UE_OK) res = alloc_virtual(&x);
    if (res == UE_OK) res = collect(g.mesh, &gt);
    if (res == UE_OK) res = collect(r.mesh, &rt);
    if (res == UE_OK) {
        /* Unedited triangles first (position and UV), then UV edits (position), then moved
         * vertices (UV), then moved vertices without UVs (two corners in place), each unique. */
        set_keys(&g, &gt, false), set_keys(&r, &rt, false);
        pass(&x, &gt, &rt, SAME_POS | SAME_UV, false, false, true);
        pass(&x, &gt, &rt, SAME_POS, false, false, true);
        set_keys(&g, &gt, true), set_keys(&r, &rt, true);
        pass(&x, &gt, &rt, SAME_UV, false, true, true);
        if ((double)unclaimed(&gt) * (double)unclaimed(&rt) <= PAIR_BUDGET)
            pass(&x, &gt, &rt, SAME_POS, true, true, false);
        out->unmatched_ref = unclaimed(&rt);
        out->unmatched_gltf = unclaimed(&gt);
        out->conflicts = x.conflicts;
        out->singular = x.singular, out->singular_prim = x.singular_prim, out->singular_vertex = x.singular_vertex;
        out->over_budget = x.work > WORK_BUDGET;
    }
    for (size_t p = 0; x.seen && p < r.mesh->primitive_count; p++) free(x.seen[p]);
    free(x.seen);
    free(gt.t);
    free(rt.t);
    out->virt = x.virt, out->gltf_prim = x.gltf_prim, out->count = r.mesh ? r.mesh->primitive_count : 0;
    side_free(&g);
    side_free(&r);
    return res;
}

void hsd_geometry_match_free(hsd_geometry_match *m) {
    virtual_free(m->virt, m->count);
    free(m->gltf_prim);
    memset(m, 0, sizeof *m);
}
