/* unearth — edit mode's geometry correspondence: every triangle of a glTF mesh paired with one of
 * its slot's, whatever split, weld, order or quantisation the client gave vertices and triangles. */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "parkan/msh_import_edit_int.h"

#define NONE UINT32_MAX
/* Entries looked at per hash probe: a mesh whose vertices pile up in one cell (hostile or
 * degenerate) stays linear; what is not found there is paired through its triangles or rebuilt. */
#define CHAIN_WALK_CAP 64u

/* How much of a vertex must agree: everything; everything but the position (a moved vertex);
 * only UV and colour (a vertex moved and re-shaded). */
enum { LEVEL_ALL, LEVEL_NO_POSITION, LEVEL_UV_ONLY };

/* ---- a chained hash over entries numbered 0..n-1, keyed by 64-bit cell hashes -------------- */

typedef struct chain {
    uint32_t *head, *next;
    uint64_t *key;
    size_t mask;
} chain;

static ue_result chain_init(chain *c, size_t entries) {
    size_t buckets = 16;
    while (buckets < 2 * entries) buckets *= 2;
    c->mask = buckets - 1;
    c->head = malloc(buckets * sizeof *c->head);
    c->next = ue_malloc_items(entries, sizeof *c->next);
    c->key = ue_malloc_items(entries, sizeof *c->key);
    if (!c->head || !c->next || !c->key) return UE_ERR_NOMEM;
    memset(c->head, 0xff, buckets * sizeof *c->head);
    return UE_OK;
}

static void chain_add(chain *c, uint64_t key, uint32_t e) {
    size_t b = (size_t)(key & c->mask);
    c->key[e] = key;
    c->next[e] = c->head[b];
    c->head[b] = e;
}

static void chain_free(chain *c) {
    free(c->head);
    free(c->next);
    free(c->key);
    memset(c, 0, sizeof *c);
}

static uint64_t mix(uint64_t h, uint64_t v) {
    h = (h ^ v) * 0xff51afd7ed558ccdull;
    return h ^ (h >> 33);
}

/* ---- vertices: attribute views, tolerances, hash cells ------------------------------------ */

typedef struct vattr {
    const float *pos, *nrm, *uv, *col;
} vattr;

static vattr vattr_of(const ue_scene_primitive *p, uint32_t o) {
    vattr a = {&p->positions[3 * (size_t)o], p->normals ? &p->normals[3 * (size_t)o] : NULL,
               p->uv[0] ? &p->uv[0][2 * (size_t)o] : NULL, p->colors[0] ? &p->colors[0][4 * (size_t)o] : NULL};
    return a;
}

/* Largest difference in steps of `tol` (1 = the tolerance itself). */
static float steps(const float *a, const float *b, int n, float tol) {
    float worst = 0;
    for (int k = 0; k < n; k++) worst = fmaxf(worst, fabsf(a[k] - b[k]) / tol);
    return worst;
}

/* How far apart two vertices are at `level`, in tolerance steps: ≤ 1 is the same vertex. An
 * attribute one side lacks is not compared (its stored value is kept). */
static float distance(float pos_tol, vattr g, vattr b, int level) {
    float d = 0;
    if (level == LEVEL_ALL) d = steps(g.pos, b.pos, 3, pos_tol);
    if (level != LEVEL_UV_ONLY && g.nrm && b.nrm) d = fmaxf(d, steps(g.nrm, b.nrm, 3, NORMAL_TOL));
    if (g.uv && b.uv) d = fmaxf(d, steps(g.uv, b.uv, 2, UV_TOL));
    if (g.col && b.col) d = fmaxf(d, steps(g.col, b.col, 4, COLOR_TOL));
    return d;
}

/* The hash cells of a vertex: up to 8 coordinates, each with one or two candidate cells. A
 * reference vertex is filed under its first cells; a glTF vertex looks in every combination,
 * so a value within the tolerance of the reference finds it even across a cell border. */
typedef struct cells {
    int n;
    int64_t cell[8][2];
    int options[8];
} cells;

/* Cells 16 tolerances wide, so a value within one tolerance of a reference lies in the
 * reference's cell or, near a border, the neighbour on that side: most lookups probe one cell
 * per coordinate (the 1.25 margin absorbs rounding at the border). `inv_width` is 1 / (16 tol). */
#define CELL_TOLS 16.0f
static void add_cell(cells *c, float v, float inv_width) {
    float q = v * inv_width, f = floorf(q), frac = q - f, near = 1.25f / CELL_TOLS;
    f = f < -4.0e18f ? -4.0e18f : f > 4.0e18f ? 4.0e18f : f;
    c->cell[c->n][0] = (int64_t)f;
    c->cell[c->n][1] = (int64_t)f + (frac < 0.5f ? -1 : 1);
    c->options[c->n++] = frac < near || frac > 1.0f - near ? 2 : 1;
}

/* UVs as MSH stores them are multiples of 1/1024, so the reference sits on the lattice and a
 * value within half a step rounds to it: one cell, two only at an exact tie. */
static void add_lattice(cells *c, float v) {
    float q = v * 1024.0f, r = floorf(q + 0.5f);
    r = r < -4.0e18f ? -4.0e18f : r > 4.0e18f ? 4.0e18f : r;
    c->cell[c->n][0] = (int64_t)r;
    c->cell[c->n][1] = (int64_t)r - 1;
    c->options[c->n++] = q - floorf(q) == 0.5f ? 2 : 1;
}

typedef struct keying {
    float pos_tol, inv_pos_width;
    bool uv, nrm; /* keyed by UV / normals: both sides of the mesh have them */
} keying;

static cells cells_of(const keying *k, vattr a, int level) {
    cells c;
    c.n = 0;
    if (level == LEVEL_ALL)
        for (int i = 0; i < 3; i++) add_cell(&c, a.pos[i], k->inv_pos_width);
    if (level == LEVEL_NO_POSITION && k->nrm && !k->uv)
        for (int i = 0; i < 3; i++) add_cell(&c, a.nrm[i], 1.0f / (CELL_TOLS * NORMAL_TOL));
    if (k->uv)
        for (int i = 0; i < 2; i++) add_lattice(&c, a.uv[i]);
    return c;
}

/* The key of combination `pick` (bit i: the second cell of coordinate i). */
static uint64_t cells_key(const cells *c, unsigned pick) {
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < c->n; i++) h = mix(h, (uint64_t)c->cell[i][(pick >> i) & 1u]);
    return h;
}

/* The coordinates with two candidate cells, as a mask: the combinations are its subsets. */
static unsigned cells_choices(const cells *c) {
    unsigned mask = 0;
    for (int i = 0; i < c->n; i++)
        if (c->options[i] == 2) mask |= 1u << i;
    return mask;
}

/* ---- the pairing of one mesh ---------------------------------------------------------------- */

typedef struct base_tri {
    uint32_t cls[3], model[3];
    uint16_t row;
    uint8_t used, exempt, rot; /* rot: the corner its key starts at */
} base_tri;

typedef struct gl_tri {
    uint32_t v[3];
    uint32_t prim, base;
    uint8_t rot; /* glTF corner k shows base corner (k + rot) % 3 */
} gl_tri;

typedef struct pairing {
    edit_ctx *x;
    const ue_scene_mesh *sm, *bm;
    keying key;
    /* the reference: its vertices up to exact equality ("classes"), its triangles */
    uint32_t ncls, *rep_prim, *rep_vertex;
    base_tri *bt;
    size_t nbt;
    chain tri_hash, edge_hash, vert_hash;
    /* the glTF mesh */
    uint32_t ngv, *gv_prim, *gv_vertex, *mapped, *adj_start, *adj;
    gl_tri *gt;
    size_t ngt, paired;
    uint32_t *queue;
    size_t q_head, q_tail;
    uint8_t *queued;
} pairing;

static vattr class_attr(const pairing *q, uint32_t c) {
    return vattr_of(&q->bm->primitives[q->rep_prim[c]], q->rep_vertex[c]);
}

static vattr gl_attr(const pairing *q, uint32_t g) {
    return vattr_of(&q->sm->primitives[q->gv_prim[g]], q->gv_vertex[g]);
}

static bool same_bits(const float *a, const float *b, size_t n) {
    return (!a && !b) || (a && b && !memcmp(a, b, n * sizeof *a));
}

static uint64_t bits_key(vattr a) {
    uint64_t h = 0x51ed270b27a3b5c1ull;
    const float *parts[4] = {a.pos, a.nrm, a.uv, a.col};
    static const int len[4] = {3, 3, 2, 4};
    for (int p = 0; p < 4; p++)
        for (int k = 0; parts[p] && k < len[p]; k++) {
            uint32_t u;
            memcpy(&u, &parts[p][k], 4);
            h = mix(h, u);
        }
    return h;
}

/* The model vertices of batch b in the order convert writes them: first use in Res6 order. */
static ue_result batch_vertices(const ue_msh *m, size_t b, uint32_t **out, uint32_t *count) {
    const ue_msh_batch *bt = &m->batches[b];
    size_t n = bt->index_count - bt->index_count % 3;
    uint32_t *list = ue_malloc_items(n, sizeof *list);
    if (!list) return UE_ERR_NOMEM;
    uint32_t lo = UINT32_MAX, hi = 0, nv = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t v = bt->base_vertex + m->indices[bt->index_start + i];
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    uint8_t *seen = calloc(n ? (size_t)hi - lo + 1 : 1, 1);
    if (!seen) {
        free(list);
        return UE_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t v = bt->base_vertex + m->indices[bt->index_start + i];
        if (!seen[v - lo]) seen[v - lo] = 1, list[nv++] = v;
    }
    free(seen);
    *out = list;
    *count = nv;
    return UE_OK;
}

/* Vertices of the reference up to bit equality: copies of one value (a vertex two batches
 * share, duplicates in the model) are one class, so a glTF vertex has one class to find. */
static ue_result build_classes(pairing *q, uint32_t **cls_of, uint32_t **model_of, size_t *nentries) {
    size_t n = 0;
    for (size_t p = 0; p < q->bm->primitive_count; p++) n += q->bm->primitives[p].vertex_count;
    if (n >= NONE) return UE_ERR_LIMIT;
    uint32_t *cls = ue_malloc_items(n, sizeof *cls), *model = ue_malloc_items(n, sizeof *model);
    q->rep_prim = ue_malloc_items(n, sizeof *q->rep_prim);
    q->rep_vertex = ue_malloc_items(n, sizeof *q->rep_vertex);
    chain h = {0};
    ue_result r = cls && model && q->rep_prim && q->rep_vertex ? chain_init(&h, n) : UE_ERR_NOMEM;
    size_t e = 0;
    for (size_t p = 0; p < q->bm->primitive_count && r == UE_OK; p++) {
        const ue_scene_primitive *bp = &q->bm->primitives[p];
        uint32_t *verts = NULL, nv = 0;
        r = batch_vertices(q->x->m, bp->source.index, &verts, &nv);
        for (uint32_t o = 0; r == UE_OK && o < bp->vertex_count; o++, e++) {
            vattr a = vattr_of(bp, o);
            uint64_t k = bits_key(a);
            uint32_t c = NONE, walked = 0;
            for (uint32_t i = h.head[k & h.mask]; i != NONE && walked < CHAIN_WALK_CAP && c == NONE;
                 i = h.next[i], walked++) {
                vattr b = class_attr(q, i);
                if (h.key[i] == k && same_bits(a.pos, b.pos, 3) && same_bits(a.nrm, b.nrm, 3) &&
                    same_bits(a.uv, b.uv, 2) && same_bits(a.col, b.col, 4))
                    c = i;
            }
            if (c == NONE) {
                c = q->ncls++;
                q->rep_prim[c] = (uint32_t)p, q->rep_vertex[c] = o;
                chain_add(&h, k, c);
            }
            cls[e] = c;
            model[e] = o < nv ? verts[o] : NONE;
        }
        free(verts);
    }
    chain_free(&h);
    *cls_of = cls, *model_of = model, *nentries = n;
    return r;
}

/* The triangle key: its classes from the smallest, winding kept. */
static uint64_t tri_key(const uint32_t c[3], int *rot) {
    int r = 0;
    for (int k = 1; k < 3; k++) {
        const uint32_t a[3] = {c[k], c[(k + 1) % 3], c[(k + 2) % 3]}, b[3] = {c[r], c[(r + 1) % 3], c[(r + 2) % 3]};
        if (a[0] < b[0] || (a[0] == b[0] && (a[1] < b[1] || (a[1] == b[1] && a[2] < b[2])))) r = k;
    }
    *rot = r;
    return mix(mix(mix(0x2545f4914f6cdd1dull, c[r]), c[(r + 1) % 3]), c[(r + 2) % 3]);
}

static uint64_t edge_key(uint32_t a, uint32_t b) { return mix(mix(0x27d4eb2f165667c5ull, a), b); }

static ue_result build_base_tris(pairing *q) {
    uint32_t *cls = NULL, *model = NULL;
    size_t ne = 0, nt = 0;
    ue_result r = build_classes(q, &cls, &model, &ne);
    for (size_t p = 0; r == UE_OK && p < q->bm->primitive_count; p++) nt += q->bm->primitives[p].index_count / 3;
    if (r == UE_OK && nt >= NONE / 3) r = UE_ERR_LIMIT;
    q->bt = r == UE_OK ? ue_calloc_items(nt, sizeof *q->bt) : NULL;
    if (r == UE_OK && !q->bt) r = UE_ERR_NOMEM;
    if (r == UE_OK) r = chain_init(&q->tri_hash, nt);
    size_t e0 = 0;
    for (size_t p = 0; r == UE_OK && p < q->bm->primitive_count; p++) {
        const ue_scene_primitive *bp = &q->bm->primitives[p];
        uint16_t row = q->x->m->batches[bp->source.index].material;
        for (uint32_t i = 0; i + 3 <= bp->index_count; i += 3) {
            base_tri *t = &q->bt[q->nbt];
            for (int k = 0; k < 3; k++) {
                t->cls[k] = cls[e0 + bp->indices[i + (uint32_t)k]];
                t->model[k] = model[e0 + bp->indices[i + (uint32_t)k]];
            }
            t->row = row;
            /* Two corners of one value: no area, nothing a client can show or keep. */
            t->exempt = t->cls[0] == t->cls[1] || t->cls[1] == t->cls[2] || t->cls[0] == t->cls[2];
            int rot;
            chain_add(&q->tri_hash, tri_key(t->cls, &rot), (uint32_t)q->nbt);
            t->rot = (uint8_t)rot;
            q->nbt++;
        }
        e0 += bp->vertex_count;
    }
    free(cls);
    free(model);
    return r;
}

/* The reference's directed edges, filed the first time a triangle is not found by its corners
 * (an unedited mesh never needs them). */
static ue_result file_edges(pairing *q) {
    if (q->edge_hash.head) return UE_OK;
    ue_result r = chain_init(&q->edge_hash, 3 * q->nbt);
    for (size_t i = 0; r == UE_OK && i < q->nbt; i++)
        for (int k = 0; k < 3; k++)
            chain_add(&q->edge_hash, edge_key(q->bt[i].cls[k], q->bt[i].cls[(k + 1) % 3]), (uint32_t)(3 * i + (size_t)k));
    return r;
}

static ue_result build_gl_side(pairing *q) {
    size_t nv = 0, nt = 0;
    for (size_t p = 0; p < q->sm->primitive_count; p++) {
        nv += q->sm->primitives[p].vertex_count;
        nt += q->sm->primitives[p].index_count / 3;
    }
    if (nv >= NONE || nt >= NONE / 3) return UE_ERR_LIMIT;
    q->ngv = (uint32_t)nv, q->ngt = nt;
    q->gv_prim = ue_malloc_items(nv, sizeof *q->gv_prim);
    q->gv_vertex = ue_malloc_items(nv, sizeof *q->gv_vertex);
    q->mapped = ue_malloc_items(nv, sizeof *q->mapped);
    q->adj_start = calloc(nv + 2, sizeof *q->adj_start);
    q->adj = ue_malloc_items(3 * nt, sizeof *q->adj);
    q->gt = ue_malloc_items(nt, sizeof *q->gt);
    q->queue = ue_malloc_items(nt, sizeof *q->queue);
    q->queued = ue_calloc_items(nt, 1);
    if (!q->gv_prim || !q->gv_vertex || !q->mapped || !q->adj_start || !q->adj || !q->gt || !q->queue || !q->queued)
        return UE_ERR_NOMEM;
    uint32_t g0 = 0;
    size_t t = 0;
    for (size_t p = 0; p < q->sm->primitive_count; p++) {
        const ue_scene_primitive *sp = &q->sm->primitives[p];
        for (uint32_t o = 0; o < sp->vertex_count; o++) q->gv_prim[g0 + o] = (uint32_t)p, q->gv_vertex[g0 + o] = o;
        for (uint32_t i = 0; i + 3 <= sp->index_count; i += 3, t++) {
            gl_tri *gt = &q->gt[t];
            for (int k = 0; k < 3; k++) {
                gt->v[k] = g0 + sp->indices[i + (uint32_t)k];
                q->adj_start[gt->v[k] + 2]++;
            }
            gt->prim = (uint32_t)p, gt->base = NONE, gt->rot = 0;
        }
        g0 += sp->vertex_count;
    }
    for (uint32_t g = 0; g < q->ngv; g++) q->adj_start[g + 2] += q->adj_start[g + 1];
    for (size_t i = 0; i < nt; i++)
        for (int k = 0; k < 3; k++) q->adj[q->adj_start[q->gt[i].v[k] + 1]++] = (uint32_t)i;
    memset(q->mapped, 0xff, (nv ? nv : 1) * sizeof *q->mapped);
    return UE_OK;
}

/* ---- finding vertices by value -------------------------------------------------------------- */

/* The class nearest to glTF vertex g among those `table` files at `level` (within tolerance),
 * or NONE; with `unique`, NONE also when two different classes qualify. */
static uint32_t find_class(const pairing *q, const chain *table, uint32_t g, int level, bool unique) {
    vattr a = gl_attr(q, g);
    cells c = cells_of(&q->key, a, level);
    uint32_t best = NONE;
    float best_d = 2.0f;
    unsigned choices = cells_choices(&c);
    for (unsigned pick = choices;; pick = (pick - 1) & choices) {
        uint64_t k = cells_key(&c, pick);
        uint32_t walked = 0;
        for (uint32_t i = table->head[k & table->mask]; i != NONE && walked < CHAIN_WALK_CAP; i = table->next[i], walked++) {
            if (table->key[i] != k) continue;
            float d = distance(q->key.pos_tol, a, class_attr(q, i), level);
            if (d > 1.0f) continue;
            if (unique && best != NONE && best != i) return NONE;
            if (d < best_d) best = i, best_d = d;
        }
        if (!pick) break;
    }
    return best;
}

/* Files every class (or only those no glTF vertex found, `free_only`) by its cells at `level`. */
static ue_result file_classes(pairing *q, int level, const uint8_t *taken) {
    chain_free(&q->vert_hash);
    ue_result r = chain_init(&q->vert_hash, q->ncls);
    for (uint32_t c = 0; r == UE_OK && c < q->ncls; c++) {
        if (taken && taken[c]) continue;
        cells cl = cells_of(&q->key, class_attr(q, c), level);
        chain_add(&q->vert_hash, cells_key(&cl, 0), c);
    }
    return r;
}

/* ---- pairing triangles ------------------------------------------------------------------------ */

static void enqueue(pairing *q, uint32_t t) {
    if (q->queued[t] || q->gt[t].base != NONE) return;
    q->queued[t] = 1;
    q->queue[q->q_tail++ % q->ngt] = t;
}

static void map_vertex(pairing *q, uint32_t g, uint32_t cls) {
    if (q->mapped[g] != NONE) return;
    q->mapped[g] = cls;
    for (uint32_t i = q->adj_start[g]; i < q->adj_start[g + 1]; i++) enqueue(q, q->adj[i]);
}

/* The WEAR row a glTF primitive's material stands for, learnt from the first triangle paired
 * when neither its extras nor its source say: later triangles of that material must agree. */
static bool row_fits(pairing *q, const gl_tri *t, const base_tri *b) {
    int32_t mat = q->sm->primitives[t->prim].material;
    if (mat < 0 || (size_t)mat >= q->x->s->material_count) return true;
    int32_t *row = &q->x->material_row[mat];
    if (*row < 0) *row = b->row;
    return *row == b->row;
}

static void pair_tri(pairing *q, uint32_t t, uint32_t b, int rot) {
    gl_tri *gt = &q->gt[t];
    gt->base = b, gt->rot = (uint8_t)rot;
    q->bt[b].used = 1;
    q->paired++;
    for (int k = 0; k < 3; k++) map_vertex(q, gt->v[k], q->bt[b].cls[(k + rot) % 3]);
}

static bool pair_by_corners(pairing *q, uint32_t t) {
    gl_tri *gt = &q->gt[t];
    uint32_t c[3] = {q->mapped[gt->v[0]], q->mapped[gt->v[1]], q->mapped[gt->v[2]]};
    if (c[0] == NONE || c[1] == NONE || c[2] == NONE) return false;
    int rot_g;
    uint64_t k = tri_key(c, &rot_g);
    uint32_t walked = 0;
    for (uint32_t i = q->tri_hash.head[k & q->tri_hash.mask]; i != NONE && walked < CHAIN_WALK_CAP;
         i = q->tri_hash.next[i], walked++) {
        base_tri *b = &q->bt[i];
        int rot_b = b->rot;
        if (q->tri_hash.key[i] != k || b->used) continue;
        if (b->cls[rot_b] != c[rot_g] || b->cls[(rot_b + 1) % 3] != c[(rot_g + 1) % 3] ||
            b->cls[(rot_b + 2) % 3] != c[(rot_g + 2) % 3] || !row_fits(q, gt, b))
            continue;
        pair_tri(q, t, i, ((rot_b - rot_g) % 3 + 3) % 3);
        return true;
    }
    return false;
}

/* How well glTF vertex g fits class c as the third corner of an edge already paired: 3 it is
 * that vertex, 2 it moved but keeps normal and UV, 1 it moved and changed, 0 it is another. */
static int third_corner_fit(const pairing *q, uint32_t g, uint32_t c) {
    if (q->mapped[g] == c) return 3;
    vattr a = gl_attr(q, g), b = class_attr(q, c);
    if (distance(q->key.pos_tol, a, b, LEVEL_ALL) <= 1.0f) return 3;
    if (q->mapped[g] != NONE) return 0;
    return distance(q->key.pos_tol, a, b, LEVEL_NO_POSITION) <= 1.0f ? 2 : 1;
}

/* A triangle with a paired edge: the reference's triangle on the same directed edge. */
static bool pair_by_edge(pairing *q, uint32_t t) {
    gl_tri *gt = &q->gt[t];
    for (int k = 0; k < 3; k++) {
        uint32_t a = q->mapped[gt->v[k]], b = q->mapped[gt->v[(k + 1) % 3]];
        if (a == NONE || b == NONE) continue;
        uint64_t key = edge_key(a, b);
        uint32_t best = NONE, best_third = NONE, walked = 0;
        int best_fit = 0, best_rot = 0;
        bool tie = false;
        for (uint32_t e = q->edge_hash.head[key & q->edge_hash.mask]; e != NONE && walked < CHAIN_WALK_CAP;
             e = q->edge_hash.next[e], walked++) {
            uint32_t i = e / 3, j = e % 3;
            base_tri *bt = &q->bt[i];
            if (q->edge_hash.key[e] != key || bt->used || bt->cls[j] != a || bt->cls[(j + 1) % 3] != b) continue;
            uint32_t third = bt->cls[(j + 2) % 3];
            int fit = third_corner_fit(q, gt->v[(k + 2) % 3], third);
            if (fit == 0 || fit < best_fit) continue;
            if (fit == best_fit && best != NONE) {
                tie = tie || third != best_third;
                continue;
            }
            best = i, best_third = third, best_fit = fit, tie = false;
            best_rot = (((int)j - k) % 3 + 3) % 3;
        }
        if (best != NONE && !tie && row_fits(q, gt, &q->bt[best])) {
            pair_tri(q, t, best, best_rot);
            return true;
        }
    }
    return false;
}

static ue_result propagate(pairing *q) {
    while (q->q_head < q->q_tail) {
        uint32_t t = q->queue[q->q_head++ % q->ngt];
        q->queued[t] = 0;
        if (q->gt[t].base != NONE || pair_by_corners(q, t)) continue;
        ue_result r = file_edges(q);
        if (r != UE_OK) return r;
        pair_by_edge(q, t);
    }
    return UE_OK;
}

/* Vertices still unknown after the triangles stalled (a whole part moved: no position matches)
 * are looked up without their position among the classes nobody found, where one alone fits. */
static ue_result seed(pairing *q, int level) {
    uint8_t *taken = ue_calloc_items(q->ncls, 1);
    if (!taken) return UE_ERR_NOMEM;
    for (uint32_t g = 0; g < q->ngv; g++)
        if (q->mapped[g] != NONE) taken[q->mapped[g]] = 1;
    ue_result r = file_classes(q, level, taken);
    free(taken);
    for (size_t t = 0; r == UE_OK && t < q->ngt; t++) {
        if (q->gt[t].base != NONE) continue;
        for (int k = 0; k < 3; k++) {
            uint32_t g = q->gt[t].v[k];
            if (q->mapped[g] != NONE) continue;
            uint32_t c = find_class(q, &q->vert_hash, g, level, true);
            if (c != NONE) map_vertex(q, g, c);
        }
    }
    return r == UE_OK ? propagate(q) : r;
}

static void pairing_free(pairing *q) {
    free(q->rep_prim), free(q->rep_vertex), free(q->bt);
    chain_free(&q->tri_hash), chain_free(&q->edge_hash), chain_free(&q->vert_hash);
    free(q->gv_prim), free(q->gv_vertex), free(q->mapped), free(q->adj_start), free(q->adj);
    free(q->gt), free(q->queue), free(q->queued);
}

static bool all_attributes(const ue_scene_mesh *me, bool uv) {
    for (size_t p = 0; p < me->primitive_count; p++)
        if (uv ? !me->primitives[p].uv[0] : !me->primitives[p].normals) return false;
    return me->primitive_count > 0;
}

/* A glTF vertex shows one model vertex in each of its triangles (six, in a smooth mesh): one
 * pair per glTF vertex and model vertex is enough, as the pairs only carry values to compare
 * and write, and fewer make the pass over them short. Kept in first-use order. */
static ue_result emit_pairs(pairing *q, edit_pair **pairs, size_t *count) {
    edit_pair *out = ue_malloc_items(3 * q->ngt, sizeof *out);
    uint32_t *last_model = ue_malloc_items(q->ngv, sizeof *last_model);
    if (!out || !last_model) {
        free(out);
        free(last_model);
        return UE_ERR_NOMEM;
    }
    memset(last_model, 0xff, (q->ngv ? q->ngv : 1) * sizeof *last_model);
    size_t n = 0;
    for (size_t t = 0; t < q->ngt; t++) {
        const gl_tri *gt = &q->gt[t];
        const base_tri *b = &q->bt[gt->base];
        for (int k = 0; k < 3; k++) {
            uint32_t j = (uint32_t)((k + gt->rot) % 3), g = gt->v[k], c = b->cls[j];
            if (last_model[g] == b->model[j] && b->model[j] != NONE) continue;
            last_model[g] = b->model[j];
            edit_pair e = {q->gv_prim[g], q->gv_vertex[g], q->rep_prim[c], q->rep_vertex[c], b->model[j]};
            out[n++] = e;
        }
    }
    free(last_model);
    *pairs = out;
    *count = n;
    return UE_OK;
}

ue_result ue_msh_edit_pair_mesh(edit_ctx *x, const ue_scene_mesh *sm, int32_t bmesh, edit_pair **pairs,
                                size_t *count, size_t *unpaired) {
    pairing q;
    memset(&q, 0, sizeof q);
    q.x = x, q.sm = sm, q.bm = &x->base->meshes[bmesh];
    q.key.pos_tol = x->pos_tol;
    q.key.inv_pos_width = 1.0f / (CELL_TOLS * x->pos_tol);
    q.key.uv = all_attributes(q.sm, true) && all_attributes(q.bm, true);
    q.key.nrm = all_attributes(q.sm, false) && all_attributes(q.bm, false);
    *pairs = NULL, *count = 0, *unpaired = 0;
    ue_result r = build_base_tris(&q);
    if (r == UE_OK) r = build_gl_side(&q);
    if (r == UE_OK) r = file_classes(&q, LEVEL_ALL, NULL);
    for (uint32_t g = 0; r == UE_OK && g < q.ngv; g++)
        q.mapped[g] = find_class(&q, &q.vert_hash, g, LEVEL_ALL, false);
    for (size_t t = 0; r == UE_OK && t < q.ngt; t++) enqueue(&q, (uint32_t)t);
    if (r == UE_OK) r = propagate(&q);
    if (r == UE_OK && q.paired < q.ngt && (q.key.uv || q.key.nrm)) r = seed(&q, LEVEL_NO_POSITION);
    if (r == UE_OK && q.paired < q.ngt && q.key.uv) r = seed(&q, LEVEL_UV_ONLY);
    size_t left = q.ngt - q.paired;
    for (size_t i = 0; r == UE_OK && i < q.nbt; i++) left += !q.bt[i].used && !q.bt[i].exempt;
    *unpaired = left;
    if (r == UE_OK && left == 0) r = emit_pairs(&q, pairs, count);
    pairing_free(&q);
    return r;
}

float ue_msh_edit_position_tolerance(const ue_scene *base) {
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t m = 0; m < base->mesh_count; m++)
        for (size_t p = 0; p < base->meshes[m].primitive_count; p++) {
            const ue_scene_primitive *bp = &base->meshes[m].primitives[p];
            for (size_t i = 0; i < 3 * (size_t)bp->vertex_count; i++) {
                lo[i % 3] = fminf(lo[i % 3], bp->positions[i]);
                hi[i % 3] = fmaxf(hi[i % 3], bp->positions[i]);
            }
        }
    float extent = 0;
    for (int k = 0; k < 3; k++) extent = hi[k] >= lo[k] ? fmaxf(extent, hi[k] - lo[k]) : extent;
    float tol = extent * POSITION_TOL_FRACTION;
    return tol > 1e-20f ? tol : 1e-20f; /* a model of one point still gets cells */
}
