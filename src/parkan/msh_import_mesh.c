/* unearth — geometry of a new MSH from the scene IR: one slot per matrix cell, primitives split
 * into Res13 batches that 16-bit indices address (base vertex), quantised Res4/Res5, Res7
 * descriptors with face normals and neighbour links (docs/import.md#new-models). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/collections.h"
#include "common/math3d.h"
#include "parkan/msh_import_int.h"
#include "parkan/parkan_axes.h"

#define BATCH_VERTICES 65536u /* a u16 index past base_vertex */
#define BATCH_INDICES 65535u  /* Res13 index_count is a u16 (a multiple of 3) */
#define SLOT_TRIS 65535u      /* Res2 tri_start / tri_count are u16 */
#define MAX_VERTICES (1u << 28)

typedef struct builder {
    ue_msh_import *im;
    ue_msh *m;
    size_t cap_pos, cap_nrm, cap_uv, cap_col, cap_idx, cap_tri, cap_batch, cap_corner;
    uint8_t *colors;           /* Res18 for every vertex; kept only if some primitive has colours */
    bool any_colors;
    uint32_t *corners;         /* the current slot's triangles as model vertex indices */
    size_t corner_count;
} builder;

/* The source of one primitive while it is split into batches. */
typedef struct prim_src {
    const ue_scene_primitive *p;
    const float *normals;      /* the primitive's, or computed ones */
    float matrix[16];          /* holder transform (column-major), identity on the node itself */
    bool moved;                /* matrix is not the identity */
    char path[48];
} prim_src;

static ue_result grow_vertices(builder *b, size_t need) {
    ue_msh *m = b->m;
    if (need > MAX_VERTICES) return UE_ERR_LIMIT;
    ue_result r = ue_array_reserve((void **)&m->positions, &b->cap_pos, need, 3 * sizeof(float), MAX_VERTICES);
    if (r == UE_OK) r = ue_array_reserve((void **)&m->normals, &b->cap_nrm, need, 4, MAX_VERTICES);
    if (r == UE_OK) r = ue_array_reserve((void **)&m->uv0, &b->cap_uv, need, 2 * sizeof(int16_t), MAX_VERTICES);
    if (r == UE_OK) r = ue_array_reserve((void **)&b->colors, &b->cap_col, need, 4, MAX_VERTICES);
    return r;
}

static uint8_t color_byte(float c) {
    float v = roundf(c * 255.0f);
    return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

/* Appends scene vertex v of the primitive: holder transform, axes, quantisation. */
static void put_vertex(builder *b, const prim_src *ps, uint32_t v) {
    ue_msh *m = b->m;
    const ue_scene_primitive *p = ps->p;
    size_t at = m->vertex_count++;
    float pos[3], nrm[3];
    memcpy(pos, &p->positions[3 * (size_t)v], sizeof pos);
    memcpy(nrm, &ps->normals[3 * (size_t)v], sizeof nrm);
    if (ps->moved) {
        double tp[3], tn[3];
        ue_mat4_transform_point(ps->matrix, pos, tp);
        ue_mat4_transform_normal(ps->matrix, nrm, tn);
        double len = sqrt(tn[0] * tn[0] + tn[1] * tn[1] + tn[2] * tn[2]);
        for (int k = 0; k < 3; k++) {
            pos[k] = (float)tp[k];
            nrm[k] = len > 0 ? (float)(tn[k] / len) : nrm[k];
        }
    }
    ue_parkan_vec_from_gltf(pos, &m->positions[3 * at]);
    ue_parkan_vec_from_gltf(nrm, nrm);
    for (int k = 0; k < 3; k++) m->normals[4 * at + (size_t)k] = ue_msh_encode_normal(nrm[k]);
    m->normals[4 * at + 3] = 0;
    for (int k = 0; k < 2; k++)
        m->uv0[2 * at + (size_t)k] = p->uv[0] ? ue_msh_encode_uv(p->uv[0][2 * (size_t)v + (size_t)k]) : 0;
    uint8_t *c = &b->colors[4 * at];
    if (p->colors[0]) {
        const float *rgba = &p->colors[0][4 * (size_t)v];
        /* Res18 is a D3DCOLOR: bytes B, G, R, A (the reading of msh_scene.c). */
        c[0] = color_byte(rgba[2]), c[1] = color_byte(rgba[1]), c[2] = color_byte(rgba[0]), c[3] = color_byte(rgba[3]);
    } else {
        c[0] = c[1] = c[2] = c[3] = 0xFF;
    }
}

/* Face normal of a triangle in engine space, as Res7 stores it (×32767). */
static void face_normal(const ue_msh *m, const uint32_t v[3], int16_t out[3]) {
    const float *a = &m->positions[3 * (size_t)v[0]], *b = &m->positions[3 * (size_t)v[1]],
                *c = &m->positions[3 * (size_t)v[2]];
    double u[3], w[3], n[3];
    for (int k = 0; k < 3; k++) u[k] = (double)b[k] - a[k], w[k] = (double)c[k] - a[k];
    n[0] = u[1] * w[2] - u[2] * w[1];
    n[1] = u[2] * w[0] - u[0] * w[2];
    n[2] = u[0] * w[1] - u[1] * w[0];
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (int k = 0; k < 3; k++) out[k] = (int16_t)(len > 0 ? lround(n[k] / len * 32767.0) : 0);
}

/* A primitive without indices (index_count 0) is a plain list: corner i is vertex i. */
static size_t corner_count(const ue_scene_primitive *p) { return p->index_count ? p->index_count : p->vertex_count; }
static uint32_t corner(const ue_scene_primitive *p, size_t i) { return p->index_count ? p->indices[i] : (uint32_t)i; }

/* Closes the open batch [first_vertex, first_index) of material `row`. */
static ue_result close_batch(builder *b, size_t first_vertex, size_t first_index, uint16_t row) {
    ue_msh *m = b->m;
    if (m->index_count == first_index) return UE_OK;
    if (ue_array_reserve((void **)&m->batches, &b->cap_batch, m->batch_count + 1, sizeof *m->batches, UE_MSH_NONE) != UE_OK)
        return UE_ERR_NOMEM;
    ue_msh_batch *bt = &m->batches[m->batch_count++];
    memset(bt, 0, sizeof *bt);
    bt->material = row;
    bt->index_count = (uint16_t)(m->index_count - first_index);
    bt->index_start = (uint32_t)first_index;
    bt->base_vertex = (uint32_t)first_vertex;
    return UE_OK;
}

static ue_result reserve_triangle(builder *b) {
    ue_msh *m = b->m;
    ue_result r = ue_array_reserve((void **)&m->indices, &b->cap_idx, m->index_count + 3, sizeof *m->indices, SIZE_MAX / 8);
    if (r == UE_OK) r = ue_array_reserve((void **)&m->tris, &b->cap_tri, m->tri_count + 1, sizeof *m->tris, SIZE_MAX / 32);
    if (r == UE_OK)
        r = ue_array_reserve((void **)&b->corners, &b->cap_corner, b->corner_count + 3, sizeof *b->corners, SIZE_MAX / 8);
    if (r == UE_OK) r = grow_vertices(b, b->m->vertex_count + 3);
    return r;
}

/* One primitive as batches: triangles in order, each batch collecting the vertices it uses
 * (first use, engine winding) until one more triangle would pass 65536 vertices or 65535
 * indices. `stamp`/`local` (vertex_count each) remember each vertex's place in the open batch. */
static ue_result split_primitive(builder *b, const prim_src *ps, uint16_t row, bool mirrored, uint32_t *stamp,
                                 uint32_t *local) {
    ue_msh *m = b->m;
    const ue_scene_primitive *p = ps->p;
    uint32_t batch = 1, used = 0;
    size_t first_vertex = m->vertex_count, first_index = m->index_count;
    for (size_t t = 0; t + 3 <= corner_count(p); t += 3) {
        uint32_t v[3], fresh = 0;
        for (size_t k = 0; k < 3; k++) {
            v[k] = corner(p, mirrored ? t + k : ue_parkan_winding_corner(t + k));
            fresh += stamp[v[k]] != batch;
        }
        if (m->index_count - first_index + 3 > BATCH_INDICES || used + fresh > BATCH_VERTICES) {
            if (close_batch(b, first_vertex, first_index, row) != UE_OK) return UE_ERR_NOMEM;
            batch++, used = 0;
            first_vertex = m->vertex_count, first_index = m->index_count;
        }
        ue_result r = reserve_triangle(b);
        if (r != UE_OK) return r;
        uint32_t global[3];
        for (size_t k = 0; k < 3; k++) {
            if (stamp[v[k]] != batch) {
                stamp[v[k]] = batch;
                local[v[k]] = used++;
                put_vertex(b, ps, v[k]);
            }
            m->indices[m->index_count++] = (uint16_t)local[v[k]];
            global[k] = (uint32_t)first_vertex + local[v[k]];
            b->corners[b->corner_count++] = global[k];
        }
        ue_msh_tri *td = &m->tris[m->tri_count++];
        memset(td, 0, sizeof *td);
        td->link[0] = td->link[1] = td->link[2] = UE_MSH_NONE;
        td->sel_packed = 0x3F; /* every selector "none" until a neighbour is found */
        face_normal(m, global, td->normal);
    }
    return close_batch(b, first_vertex, first_index, row);
}

/* What MSH cannot hold in a primitive: each an error naming /meshes/M/primitives/P. */
static void check_primitive(builder *b, const prim_src *ps) {
    const ue_scene_primitive *p = ps->p;
    ue_parse_ctx *c = &b->im->c;
    const char *why = NULL;
    if (p->uv[1]) why = "a second UV set (TEXCOORD_1): MSH holds one (Res5)";
    else if (p->colors[1]) why = "a second colour set (COLOR_1): MSH holds one (Res18)";
    else if (p->index_count % 3) why = "not a triangle list";
    if (why) ue_parse_error(c, "msh.import.primitive", UE_NO_OFFSET, ps->path, "%s", why);
    for (size_t i = 0; p->uv[0] && i < 2 * (size_t)p->vertex_count; i++) {
        float q = roundf(p->uv[0][i] * 1024.0f);
        if (q >= -32768.0f && q <= 32767.0f) continue;
        ue_parse_error(c, "msh.import.uv", UE_NO_OFFSET, ps->path,
                       "vertex %zu: UV %c = %g is outside what Res5 holds (-32..31.999, stored x1024 in 16 bits)",
                       i / 2, i % 2 ? 'v' : 'u', p->uv[0][i]);
        break;
    }
    if (p->tangents)
        ue_diag_add(c->d, UE_SEV_WARNING, "msh.import.tangents", UE_NO_OFFSET, ps->path,
                    "tangents are not kept: MSH has no tangent stream (viewers recompute them)");
}

/* Normals for a primitive without them: each vertex the normalised, area-weighted sum of the
 * faces around it (MSH stores one normal per vertex; glTF's flat default would need split
 * vertices). */
static float *computed_normals(const ue_scene_primitive *p) {
    float *n = calloc(3 * (size_t)p->vertex_count + 1, sizeof *n);
    if (!n) return NULL;
    for (size_t t = 0; t + 3 <= corner_count(p); t += 3) {
        uint32_t v[3];
        for (size_t k = 0; k < 3; k++) v[k] = corner(p, t + k);
        const float *a = &p->positions[3 * (size_t)v[0]], *b = &p->positions[3 * (size_t)v[1]],
                    *c = &p->positions[3 * (size_t)v[2]];
        float u[3], w[3], f[3];
        for (int k = 0; k < 3; k++) u[k] = b[k] - a[k], w[k] = c[k] - a[k];
        f[0] = u[1] * w[2] - u[2] * w[1], f[1] = u[2] * w[0] - u[0] * w[2], f[2] = u[0] * w[1] - u[1] * w[0];
        for (size_t k = 0; k < 3; k++)
            for (int j = 0; j < 3; j++) n[3 * (size_t)v[k] + (size_t)j] += f[j];
    }
    for (size_t v = 0; v < p->vertex_count; v++) {
        float *x = &n[3 * v], len = sqrtf(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
        if (len > 0) x[0] /= len, x[1] /= len, x[2] /= len;
        else x[0] = 0, x[1] = 1, x[2] = 0; /* a vertex of no real face: glTF "up" */
    }
    return n;
}

static ue_result add_primitive(builder *b, prim_src *ps, bool mirrored) {
    const ue_scene_primitive *p = ps->p;
    check_primitive(b, ps);
    if (b->im->c.failure != UE_OK || corner_count(p) < 3) return UE_OK;
    float *own = p->normals ? NULL : computed_normals(p);
    uint32_t *stamp = calloc((size_t)p->vertex_count + 1, sizeof *stamp);
    uint32_t *local = malloc(((size_t)p->vertex_count + 1) * sizeof *local);
    ue_result r = UE_ERR_NOMEM;
    if (stamp && local && (p->normals || own)) {
        ps->normals = p->normals ? p->normals : own;
        int32_t mat = p->material;
        uint16_t row = mat >= 0 ? b->im->material_row[mat] : 0;
        r = split_primitive(b, ps, row, mirrored, stamp, local);
        b->any_colors = b->any_colors || p->colors[0];
    }
    free(own);
    free(stamp);
    free(local);
    return r;
}

/* An edge of a slot triangle, keyed by its two end positions (lower first) so that the
 * neighbour across it is found whatever the vertex split (flat-shaded corners share none). */
typedef struct edge {
    float ends[6];
    uint32_t tri;
    uint32_t side;
} edge;

static void edge_key(const ue_msh *m, uint32_t va, uint32_t vb, float ends[6]) {
    float p[6];
    for (int k = 0; k < 3; k++) {
        p[k] = m->positions[3 * (size_t)va + (size_t)k] + 0.0f; /* -0 and +0 are one point */
        p[3 + k] = m->positions[3 * (size_t)vb + (size_t)k] + 0.0f;
    }
    bool swap = memcmp(p, p + 3, 3 * sizeof(float)) > 0;
    memcpy(ends, swap ? p + 3 : p, 3 * sizeof(float));
    memcpy(ends + 3, swap ? p : p + 3, 3 * sizeof(float));
}

/* The bucket of an edge's end positions (XXH64: float bytes of nearby points differ only in a
 * few bits, which a weaker hash would leave clustered). */
static size_t edge_hash(const float ends[6]) { return (size_t)ue_xxh64(ends, 6 * sizeof(float), 0); }

/* One bucket of the edge table: the first two edges with one key, and how many have it. */
typedef struct edge_bucket {
    uint32_t first, second, count; /* count 0 = empty */
} edge_bucket;

/* Groups the edges by key in an open-addressing table of `size` (a power of two > count). */
static void group_edges(const edge *e, size_t count, edge_bucket *table, size_t size) {
    for (size_t i = 0; i < count; i++) {
        size_t at = edge_hash(e[i].ends) & (size - 1);
        while (table[at].count && memcmp(e[table[at].first].ends, e[i].ends, sizeof e[i].ends))
            at = (at + 1) & (size - 1);
        edge_bucket *bk = &table[at];
        if (bk->count == 0) bk->first = (uint32_t)i;
        else if (bk->count == 1) bk->second = (uint32_t)i;
        bk->count++;
    }
}

static void link_pair(ue_msh *m, size_t tri_start, const edge *me, const edge *other) {
    ue_msh_tri *td = &m->tris[tri_start + me->tri];
    td->link[me->side] = (uint16_t)(tri_start + other->tri);
    td->sel_packed = (uint16_t)((td->sel_packed & ~(3u << (2 * me->side))) | (other->side << (2 * me->side)));
}

/* Res7 links of the slot's triangles (from tri_start): a triangle's side k (corner k to k + 1)
 * links the one other triangle of the slot that has the same edge, and selector k says which
 * side of that neighbour it is (3 = none). An edge shared by three or more triangles links
 * none of them. docs/import.md states this reading of the unconfirmed fields. Linear time: the
 * edges are grouped by hashing. */
static ue_result link_neighbours(builder *b, size_t tri_start) {
    ue_msh *m = b->m;
    size_t n = b->corner_count / 3, size = 16;
    while (size < 6 * n) size *= 2;
    edge *e = malloc((3 * n + 1) * sizeof *e);
    edge_bucket *table = calloc(size, sizeof *table);
    if (!e || !table) {
        free(e);
        free(table);
        return UE_ERR_NOMEM;
    }
    for (size_t t = 0; t < n; t++)
        for (uint32_t k = 0; k < 3; k++) {
            edge *x = &e[3 * t + k];
            edge_key(m, b->corners[3 * t + k], b->corners[3 * t + (k + 1) % 3], x->ends);
            x->tri = (uint32_t)t;
            x->side = k;
        }
    group_edges(e, 3 * n, table, size);
    for (size_t i = 0; i < size; i++) {
        const edge_bucket *bk = &table[i];
        if (bk->count != 2 || e[bk->first].tri == e[bk->second].tri) continue;
        link_pair(m, tri_start, &e[bk->first], &e[bk->second]);
        link_pair(m, tri_start, &e[bk->second], &e[bk->first]);
    }
    free(e);
    free(table);
    return UE_OK;
}

#define RIGID_WEIGHT 0.999f /* a vertex is bound to one joint when that joint has this much */

/* The joint node that carries every vertex of a skinned primitive whole, or -1 (reported) when
 * the weights spread over joints or vertices follow different joints: MSH moves geometry
 * rigidly with one node, and has no weights. */
static int32_t rigid_joint(builder *b, const prim_src *ps, const ue_scene_skin *skin) {
    const ue_scene_primitive *p = ps->p;
    int32_t joint = -1;
    for (size_t v = 0; v < p->vertex_count; v++) {
        size_t best = 0, n = p->influences;
        for (size_t k = 1; k < n; k++)
            if (p->weights[v * n + k] > p->weights[v * n + best]) best = k;
        uint16_t j = p->joints[v * n + best];
        int32_t node = j < skin->joint_count ? skin->joints[j] : -1;
        if (p->weights[v * n + best] < RIGID_WEIGHT || node < 0 || (joint >= 0 && node != joint)) {
            ue_parse_error(&b->im->c, "msh.import.skin", UE_NO_OFFSET, ps->path,
                           "vertex %zu is not bound whole to the joint of the others (weight %g on "
                           "joint %u): MSH geometry moves rigidly with one node, it has no skin weights",
                           v, (double)p->weights[v * n + best], (unsigned)j);
            return -1;
        }
        joint = node;
    }
    return joint;
}

/* A skinned primitive in its node's space: glTF ignores the mesh node's transform and draws
 * joint_world × inverse_bind × v, so with every vertex on the model node's own joint the
 * node-local position is inverse_bind × v. A joint that is another node is refused. */
static bool skinned_space(builder *b, prim_src *ps, const ue_import_cell *cell, size_t node) {
    const ue_scene *s = b->im->s;
    int32_t si = s->nodes[cell->holder].skin;
    if (si < 0 || (size_t)si >= s->skin_count) {
        ue_parse_error(&b->im->c, "msh.import.skin", UE_NO_OFFSET, ps->path, "joints without a skin on the node");
        return false;
    }
    const ue_scene_skin *skin = &s->skins[si];
    int32_t joint = rigid_joint(b, ps, skin);
    if (joint < 0) return false;
    if (joint != b->im->scene_of_msh[node]) {
        ue_parse_error(&b->im->c, "msh.import.skin", UE_NO_OFFSET, ps->path,
                       "bound to node '%s', but the mesh is a slot of node '%s': MSH keeps geometry in "
                       "the slot of the node it moves with (put the mesh on '%s')", s->nodes[joint].name,
                       s->nodes[b->im->scene_of_msh[node]].name, s->nodes[joint].name);
        return false;
    }
    size_t j = 0;
    while (skin->joints[j] != joint) j++;
    static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    memcpy(ps->matrix, skin->inverse_bind ? skin->inverse_bind + 16 * j : identity, sizeof ps->matrix);
    ps->moved = true;
    return true;
}

static void prim_path(prim_src *ps, int32_t mesh, size_t prim) {
    snprintf(ps->path, sizeof ps->path, "/meshes/%d/primitives/%zu", mesh, prim);
}

/* The slot of one cell: every primitive of the cell's mesh, in the holder's space when the mesh
 * hangs on a holder, then the links. Res2 ranges are 16-bit and Res7 links too, so the whole
 * model holds at most 65535 triangles. */
/* Where a primitive's vertices are: the holder's space (its TRS), the node's own, or for a
 * skinned primitive its joint's bind space. False when refused. */
static bool primitive_space(builder *b, prim_src *ps, const ue_import_cell *cell, size_t node) {
    const ue_scene *s = b->im->s;
    if (ps->p->joints && ps->p->weights) return skinned_space(b, ps, cell, node);
    ue_scene_local_matrix(&s->nodes[cell->holder], ps->matrix);
    ps->moved = b->im->msh_of_scene[cell->holder] == UE_IMPORT_HOLDER;
    return true;
}

static ue_result fill_slot(builder *b, size_t node, size_t slot, const ue_import_cell *cell) {
    ue_msh *m = b->m;
    const ue_scene_mesh *mesh = &b->im->s->meshes[cell->mesh];
    prim_src ps;
    memset(&ps, 0, sizeof ps);
    size_t tri_start = m->tri_count, batch_start = m->batch_count;
    b->corner_count = 0;
    ue_result r = UE_OK;
    for (size_t k = 0; k < mesh->primitive_count && r == UE_OK && b->im->c.failure == UE_OK; k++) {
        ps.p = &mesh->primitives[k];
        prim_path(&ps, cell->mesh, k);
        if (!primitive_space(b, &ps, cell, node)) break;
        r = add_primitive(b, &ps, ps.moved && ue_mat4_det3(ps.matrix) < 0);
        if (r == UE_OK && m->tri_count > SLOT_TRIS)
            ue_violation_as(&b->im->c, UE_ERR_LIMIT, "msh.import.limit", UE_NO_OFFSET, ps.path,
                            "the model passes 65535 triangles here: Res2 triangle ranges and Res7 links are 16-bit");
    }
    if (r == UE_ERR_LIMIT)
        ue_violation_as(&b->im->c, UE_ERR_LIMIT, "msh.import.limit", UE_NO_OFFSET, ps.path,
                        "more vertices than the importer takes (2^28)");
    if (r != UE_OK || b->im->c.failure != UE_OK) return r == UE_ERR_LIMIT ? UE_OK : r;
    ue_msh_slot *sl = &m->slots[slot];
    sl->tri_start = (uint16_t)tri_start;
    sl->tri_count = (uint16_t)(m->tri_count - tri_start);
    sl->batch_start = (uint16_t)batch_start;
    sl->batch_count = (uint16_t)(m->batch_count - batch_start);
    return link_neighbours(b, tri_start);
}

/* The cells of one node: a mesh that several cells of the node show is one slot. */
static ue_result node_slots(builder *b, size_t node) {
    const ue_import_cell *cells = b->im->cells[node];
    ue_result r = UE_OK;
    for (int c = 0; c < UE_IMPORT_CELLS && r == UE_OK && b->im->c.failure == UE_OK; c++) {
        if (cells[c].mesh < 0) continue;
        int first = 0;
        while (cells[first].mesh != cells[c].mesh) first++;
        if (first < c) {
            b->m->nodes[node].slot[c] = b->m->nodes[node].slot[first];
            continue;
        }
        size_t slot;
        r = ue_msh_add_slot(b->m, node, c / UE_MSH_GROUPS, c % UE_MSH_GROUPS, &slot);
        if (r == UE_ERR_USAGE) {
            ue_parse_error(&b->im->c, "msh.import.limit", UE_NO_OFFSET, "/meshes", "more than 65534 slots");
            return UE_OK;
        }
        if (r == UE_OK) r = fill_slot(b, node, slot, &cells[c]);
    }
    return r;
}

ue_result ue_msh_import_geometry(ue_msh_import *im) {
    builder b;
    memset(&b, 0, sizeof b);
    b.im = im;
    b.m = im->m;
    ue_msh *m = im->m;
    ue_result r = UE_OK;
    for (size_t n = 0; n < im->node_count && r == UE_OK && im->c.failure == UE_OK; n++) r = node_slots(&b, n);
    if (r == UE_OK && im->c.failure == UE_OK && m->tri_count == 0)
        ue_parse_error(&im->c, "msh.import.empty", UE_NO_OFFSET, "/meshes",
                       "no model node has a mesh with triangles: nothing to build a model from");
    m->normal_count = m->uv_count = m->vertex_count;
    if (r == UE_OK && b.any_colors) {
        free(m->colors);
        m->colors = b.colors;
        m->color_count = m->vertex_count;
        b.colors = NULL;
        m->dirty[UE_MSH_COLORS] = true;
    }
    free(b.colors);
    free(b.corners);
    static const int tables[] = {UE_MSH_NODES, UE_MSH_HEADER, UE_MSH_POSITIONS, UE_MSH_NORMALS, UE_MSH_UV0,
                                 UE_MSH_INDICES, UE_MSH_TRIS, UE_MSH_BATCHES};
    for (size_t k = 0; k < sizeof tables / sizeof tables[0]; k++) m->dirty[tables[k]] = true;
    return r;
}
