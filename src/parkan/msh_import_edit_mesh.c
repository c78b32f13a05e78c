/* unearth — edit mode's geometry (`import --base`): a node's mesh written back as vertex edits
 * where its triangles pair with the slot's (msh_import_edit_pair.c), else as a rebuilt slot. */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parkan/msh_import_edit_int.h"
#include "parkan/msh_materials.h"
#include "parkan/parkan_axes.h"

/* Attributes MSH keeps only in one form: anything else in a primitive is refused by name. */
static ue_result check_primitive(edit_ctx *x, const ue_scene_primitive *p, const char *path) {
    if (p->uv[1]) return ue_msh_edit_fail(x, "import.primitive.uv1", path, "a second UV set; MSH has one (Res5)");
    if (p->joints) return ue_msh_edit_fail(x, "import.primitive.skin", path, "skin weights; MSH nodes are rigid");
    size_t floats = 3 * (size_t)p->vertex_count;
    for (size_t i = 0; i < floats; i++)
        if (!isfinite(p->positions[i]) || (p->normals && !isfinite(p->normals[i])))
            return ue_msh_edit_fail(x, "import.primitive.nonfinite", path,
                                    "a position or normal is not finite (vertex %zu)", i / 3);
    for (size_t i = 0; p->uv[0] && i < 2 * (size_t)p->vertex_count; i++)
        if (!isfinite(p->uv[0][i]))
            return ue_msh_edit_fail(x, "import.primitive.nonfinite", path, "TEXCOORD_0 is not finite (vertex %zu)",
                                    i / 2);
    for (uint32_t i = 0; i < p->index_count; i++)
        if (p->indices[i] >= p->vertex_count)
            return ue_msh_edit_fail(x, "import.primitive.index", path, "index %u is past the vertex count %u",
                                    p->indices[i], p->vertex_count);
    return UE_OK;
}

/* The WEAR row a material names: its wear_row extra, else the batch its source names, else -1. */
static int32_t known_row(const edit_ctx *x, const ue_scene_material *mat) {
    for (size_t k = 0; k < mat->extras.count; k++) {
        const ue_extra *e = &mat->extras.items[k];
        if (!strcmp(e->key, UE_MSH_WEAR_ROW_KEY) && e->kind == UE_EXTRA_NUMBER && e->number >= 0 &&
            e->number <= UINT16_MAX && e->number == floor(e->number))
            return (int32_t)e->number;
    }
    if (!strcmp(mat->source.format, "msh") && mat->source.type == UE_MSH_BATCHES &&
        mat->source.index < x->m->batch_count)
        return x->m->batches[mat->source.index].material;
    return -1;
}

void ue_msh_edit_material_rows(edit_ctx *x) {
    for (size_t i = 0; i < x->s->material_count; i++) x->material_row[i] = known_row(x, &x->s->materials[i]);
}

/* The WEAR row of a rebuilt primitive: the row its material names or was paired with, else the
 * slot's first batch. */
static uint16_t wear_row(const edit_ctx *x, const ue_scene_primitive *p, uint16_t fallback) {
    if (p->material < 0 || (size_t)p->material >= x->s->material_count) return fallback;
    int32_t row = x->material_row[p->material];
    return row >= 0 ? (uint16_t)row : fallback;
}

/* One primitive as slot geometry in engine axes (winding reversed back). */
static ue_result rebuild_primitive(edit_ctx *x, size_t slot, const ue_scene_primitive *p, uint16_t row,
                                   const char *path) {
    if (p->vertex_count > 65536u || p->index_count > UINT16_MAX - UINT16_MAX % 3)
        return ue_msh_edit_fail(x, "import.primitive.limit", path,
                                "%u vertices / %u indices: an edited batch holds at most 65536 and 65535 (import "
                                "without --base splits)", p->vertex_count, p->index_count);
    size_t nv = p->vertex_count;
    float *pos = malloc(3 * nv * sizeof *pos), *nrm = p->normals ? malloc(3 * nv * sizeof *nrm) : NULL;
    uint16_t *idx = malloc(((size_t)p->index_count + 1) * sizeof *idx);
    uint8_t *col = p->colors[0] && x->m->colors ? malloc(4 * nv) : NULL;
    ue_result r = pos && idx && (!p->normals || nrm) && (!p->colors[0] || !x->m->colors || col) ? UE_OK : UE_ERR_NOMEM;
    for (size_t v = 0; r == UE_OK && v < nv; v++) {
        ue_parkan_vec_from_gltf(&p->positions[3 * v], &pos[3 * v]);
        if (nrm) ue_parkan_vec_from_gltf(&p->normals[3 * v], &nrm[3 * v]);
        for (int k = 0; col && k < 4; k++) {
            float c = roundf(p->colors[0][4 * v + (size_t)(k == 3 ? 3 : 2 - k)] * 255.0f);
            col[4 * v + (size_t)k] = (uint8_t)(c < 0 ? 0 : c > 255 ? 255 : c);
        }
    }
    for (size_t i = 0; r == UE_OK && i < p->index_count; i++)
        idx[i] = (uint16_t)p->indices[ue_parkan_winding_corner(i)];
    if (r == UE_OK) {
        ue_msh_geometry g = {pos, nrm, p->uv[0], col, nv, idx, p->index_count, row};
        r = ue_msh_replace_slot_geometry(x->m, slot, &g, x->d);
    }
    free(pos);
    free(nrm);
    free(idx);
    free(col);
    return r;
}

/* New topology: every primitive of the mesh becomes a fresh batch run at the end of Res13/Res7
 * (the editor's rule), and the slot's ranges cover them all. */
static ue_result rebuild_slot(edit_ctx *x, size_t slot, const ue_scene_mesh *me, int32_t smesh) {
    ue_msh_slot *sl = &x->m->slots[slot];
    uint16_t fallback = sl->batch_count && sl->batch_start < x->m->batch_count ? x->m->batches[sl->batch_start].material : 0;
    size_t first_batch = x->m->batch_count, first_tri = x->m->tri_count, tris = 0;
    ue_result r = UE_OK;
    for (size_t p = 0; p < me->primitive_count && r == UE_OK; p++) {
        char path[64];
        snprintf(path, sizeof path, "/meshes/%d/primitives/%zu", smesh, p);
        const ue_scene_primitive *pr = &me->primitives[p];
        r = rebuild_primitive(x, slot, pr, wear_row(x, pr, fallback), path);
        tris += pr->index_count / 3;
    }
    if (r != UE_OK) return r;
    sl = &x->m->slots[slot];
    sl->batch_start = (uint16_t)first_batch;
    sl->batch_count = (uint16_t)(x->m->batch_count - first_batch);
    sl->tri_start = (uint16_t)first_tri;
    sl->tri_count = (uint16_t)tris;
    if (slot < x->slot_count0) x->slot_touched[slot] = true;
    x->bounds_dirty = true;
    return UE_OK;
}

/* ---- vertex edits through the pairs ------------------------------------------------------ */

enum { ATTR_POSITION, ATTR_NORMAL, ATTR_UV, ATTR_COLOR, ATTR_COUNT };
static const int attr_len[ATTR_COUNT] = {3, 3, 2, 4};

static const float *attr_at(const ue_scene_primitive *p, int attr, uint32_t o) {
    const float *base = attr == ATTR_POSITION ? p->positions
                        : attr == ATTR_NORMAL ? p->normals
                        : attr == ATTR_UV     ? p->uv[0]
                                              : p->colors[0];
    return base ? &base[(size_t)attr_len[attr] * o] : NULL;
}

static float attr_tol(const edit_ctx *x, int attr) {
    return attr == ATTR_POSITION ? x->pos_tol : attr == ATTR_NORMAL ? NORMAL_TOL : attr == ATTR_UV ? UV_TOL : COLOR_TOL;
}

static bool within(const float *a, const float *b, int n, float tol) {
    for (int k = 0; k < n; k++)
        if (!(fabsf(a[k] - b[k]) <= tol)) return false;
    return true;
}

typedef struct mesh_pairs {
    const ue_scene_mesh *sm, *bm;
    edit_pair *p;
    size_t count;
} mesh_pairs;

static const float *copy_value(const mesh_pairs *mp, size_t i, int attr) {
    return attr_at(&mp->sm->primitives[mp->p[i].prim], attr, mp->p[i].vertex);
}

/* Of the glTF copies [i0, i1) of one model vertex, the value of `attr` to write: NULL when every
 * copy holds the stored value (within tolerance). Copies that carry different edits (a seam
 * torn, a vertex given two UVs) need more vertices than the model has: *split is set. */
static const float *edited_value(const edit_ctx *x, const mesh_pairs *mp, size_t i0, size_t i1, int attr, bool *split) {
    const float *stored = attr_at(&mp->bm->primitives[mp->p[i0].base_prim], attr, mp->p[i0].base_vertex);
    if (!stored) return NULL;
    int n = attr_len[attr];
    float tol = attr_tol(x, attr);
    const float *edit = NULL;
    for (size_t i = i0; i < i1 && !edit; i++) {
        const float *v = copy_value(mp, i, attr);
        if (v && !within(v, stored, n, tol)) edit = v;
    }
    for (size_t i = i0; i < i1 && edit; i++) {
        const float *v = copy_value(mp, i, attr);
        if (v && !within(v, edit, n, tol)) *split = true;
    }
    return edit;
}

static void write_value(edit_ctx *x, uint32_t v, int attr, const float *val) {
    ue_msh *m = x->m;
    if (attr == ATTR_POSITION) {
        ue_parkan_vec_from_gltf(val, &m->positions[3 * (size_t)v]);
        x->moved[v] = 1;
        m->dirty[UE_MSH_POSITIONS] = true;
    } else if (attr == ATTR_NORMAL) {
        float n[3];
        ue_parkan_vec_from_gltf(val, n);
        for (int k = 0; k < 3; k++) m->normals[4 * (size_t)v + (size_t)k] = ue_msh_encode_normal(n[k]);
        m->dirty[UE_MSH_NORMALS] = true; /* nw, the fourth byte, is kept */
    } else if (attr == ATTR_UV) {
        for (int k = 0; k < 2; k++) m->uv0[2 * (size_t)v + (size_t)k] = ue_msh_encode_uv(val[k]);
        m->dirty[UE_MSH_UV0] = true;
    } else {
        static const int bgra[4] = {2, 1, 0, 3}; /* Res18 is a D3DCOLOR, as msh_scene.c reads it */
        for (int k = 0; k < 4; k++) {
            float c = roundf(val[bgra[k]] * 255.0f);
            m->colors[4 * (size_t)v + (size_t)k] = (uint8_t)(c < 0 ? 0 : c > 255 ? 255 : c);
        }
        m->dirty[UE_MSH_COLORS] = true;
    }
}

/* The pairs grouped by model vertex (a counting sort over the mesh's span of vertices: one
 * batch spans at most 65536, so the span stays near the mesh's own size). */
static ue_result group_by_model_vertex(mesh_pairs *mp) {
    uint32_t lo = UINT32_MAX, hi = 0;
    for (size_t i = 0; i < mp->count; i++) {
        lo = mp->p[i].model < lo ? mp->p[i].model : lo;
        hi = mp->p[i].model > hi ? mp->p[i].model : hi;
    }
    if (!mp->count) return UE_OK;
    size_t span = (size_t)hi - lo + 1;
    size_t *start = calloc(span + 1, sizeof *start);
    edit_pair *sorted = malloc(mp->count * sizeof *sorted);
    if (!start || !sorted) {
        free(start);
        free(sorted);
        return UE_ERR_NOMEM;
    }
    for (size_t i = 0; i < mp->count; i++) start[mp->p[i].model - lo + 1]++;
    for (size_t k = 1; k <= span; k++) start[k] += start[k - 1];
    for (size_t i = 0; i < mp->count; i++) sorted[start[mp->p[i].model - lo]++] = mp->p[i];
    free(start);
    free(mp->p);
    mp->p = sorted;
    return UE_OK;
}

/* Every model vertex the mesh shows gets the edits its copies agree on; nothing is written when
 * some vertex's copies disagree (*split), so the slot can be rebuilt from untouched data. */
static ue_result apply_pairs(edit_ctx *x, mesh_pairs *mp, bool *split) {
    ue_result r = group_by_model_vertex(mp);
    bool edits = false;
    for (int pass = 0; pass < 2 && !*split && r == UE_OK && (pass == 0 || edits); pass++)
        for (size_t i0 = 0, i1; i0 < mp->count; i0 = i1) {
            for (i1 = i0 + 1; i1 < mp->count && mp->p[i1].model == mp->p[i0].model;) i1++;
            for (int attr = 0; attr < ATTR_COUNT; attr++) {
                const float *val = edited_value(x, mp, i0, i1, attr, split);
                edits = edits || val;
                if (val && pass == 1) write_value(x, mp->p[i0].model, attr, val);
            }
        }
    return r;
}

/* The slot a base node's mesh shows, or for a node without one the slot the selection names
 * (added when the scene gives the node a mesh). */
static ue_result slot_of(edit_ctx *x, int32_t b, int32_t bmesh, size_t *slot) {
    if (bmesh >= 0) {
        *slot = x->base->meshes[bmesh].source.index;
        return *slot < x->m->slot_count ? UE_OK : UE_ERR_INVALID;
    }
    int32_t n = x->msh_of_b[b];
    if (n < 0 || x->eo.group < 0 || x->eo.lod < 0) return UE_ERR_UNSUPPORTED;
    uint16_t si = ue_msh_slot_index(x->m, (size_t)n, x->eo.lod, x->eo.group, 0);
    if (si != UE_MSH_NONE) return *slot = si, UE_OK;
    return ue_msh_add_slot(x->m, (size_t)n, x->eo.lod, x->eo.group, slot);
}

/* ---- the unedited mesh in its own order: no pairing needed -------------------------------- */

static bool same_presence(const ue_scene_primitive *g, const ue_scene_primitive *b) {
    return !g->normals == !b->normals && !g->uv[0] == !b->uv[0] && !g->colors[0] == !b->colors[0];
}

/* Every attribute of every vertex within its tolerance of the same vertex of the reference. */
static bool same_values(const edit_ctx *x, const ue_scene_primitive *g, const ue_scene_primitive *b) {
    for (int attr = 0; attr < ATTR_COUNT; attr++) {
        const float *a = attr_at(g, attr, 0), *r = attr_at(b, attr, 0);
        size_t n = (size_t)attr_len[attr] * g->vertex_count;
        if (!a || !r || !memcmp(a, r, n * sizeof *a)) continue; /* bit-identical: the common case */
        float tol = attr_tol(x, attr);
        for (size_t i = 0; i < n; i++)
            if (!(fabsf(a[i] - r[i]) <= tol)) return false;
    }
    return true;
}

/* The WEAR row primitive p of the reference stands for, or -1 when its batch is unknown. */
static int32_t reference_row(const edit_ctx *x, const ue_scene_primitive *b) {
    size_t batch = b->source.index;
    return batch < x->m->batch_count ? x->m->batches[batch].material : -1;
}

/* The rows the glTF's materials would learn from the pairing (row_fits in msh_import_edit_pair.c)
 * agree with what is known: each primitive's material stands for its reference's row. */
static bool rows_agree(const edit_ctx *x, const ue_scene_mesh *sm, const ue_scene_mesh *bm, bool commit) {
    for (size_t p = 0; p < sm->primitive_count; p++) {
        int32_t mat = sm->primitives[p].material, row = reference_row(x, &bm->primitives[p]);
        if (row < 0) return false;
        if (mat < 0 || (size_t)mat >= x->s->material_count || sm->primitives[p].index_count < 3) continue;
        if (commit && x->material_row[mat] < 0) x->material_row[mat] = row;
        if (x->material_row[mat] >= 0 && x->material_row[mat] != row) return false;
        for (size_t q = 0; q < p && !commit; q++) /* one material, two rows: the pairing decides */
            if (sm->primitives[q].material == mat && sm->primitives[q].index_count >= 3 &&
                reference_row(x, &bm->primitives[q]) != row)
                return false;
    }
    return true;
}

/* A client that kept the reference's vertices and triangles in their order, every value within
 * its tolerance (an unedited round trip: Blender renormalises normals, nothing else moves): the
 * pairing would be the identity and carry no edit, so it is skipped. Any difference in counts,
 * indices, attributes present or a value leaves the mesh to the pairing. */
static bool unedited_in_order(edit_ctx *x, const ue_scene_mesh *sm, const ue_scene_mesh *bm) {
    if (sm->primitive_count != bm->primitive_count || !sm->primitive_count) return false;
    for (size_t p = 0; p < sm->primitive_count; p++) {
        const ue_scene_primitive *g = &sm->primitives[p], *b = &bm->primitives[p];
        if (g->vertex_count != b->vertex_count || g->index_count != b->index_count || !same_presence(g, b) ||
            (g->index_count && memcmp(g->indices, b->indices, (size_t)g->index_count * sizeof *g->indices)) ||
            !same_values(x, g, b))
            return false;
    }
    if (!rows_agree(x, sm, bm, false)) return false;
    rows_agree(x, sm, bm, true);
    return true;
}

/* The mesh's triangles paired with the slot's: the vertex edits they carry written in place.
 * *rebuild when the triangles differ or one model vertex would need two values. */
static ue_result edit_in_place(edit_ctx *x, const ue_scene_mesh *me, int32_t bm, const char *path, bool *rebuild) {
    mesh_pairs mp = {me, &x->base->meshes[bm], NULL, 0};
    size_t unpaired = 0;
    bool split = false;
    if (unedited_in_order(x, mp.sm, mp.bm)) {
        *rebuild = false;
        return UE_OK;
    }
    ue_result r = ue_msh_edit_pair_mesh(x, me, bm, &mp.p, &mp.count, &unpaired);
    if (r == UE_OK && mp.p) r = apply_pairs(x, &mp, &split);
    free(mp.p);
    if (r != UE_OK) return r;
    *rebuild = unpaired > 0 || split;
    if (unpaired)
        ue_diag_add(x->d, UE_SEV_INFO, "import.mesh.topology", UE_NO_OFFSET, path,
                    "%zu triangles of the glTF mesh and the model's slot have no partner (faces added, removed "
                    "or re-assigned); the slot is rebuilt from the glTF", unpaired);
    else if (split)
        ue_diag_add(x->d, UE_SEV_INFO, "import.mesh.split", UE_NO_OFFSET, path,
                    "copies of one model vertex were given different values (a seam torn or a vertex given two "
                    "normals or UVs); the slot is rebuilt from the glTF");
    return UE_OK;
}

/* The checks, then vertex edits in place, else the slot rebuilt, for mesh `me` (scene mesh sm, or
 * its copy through the node's fold) that scene node si (base node b) shows. */
static ue_result apply_node_mesh(edit_ctx *x, size_t si, const ue_scene_mesh *me, int32_t sm) {
    int32_t b = x->b_of_s[si], bm = x->base->nodes[b].mesh;
    for (size_t p = 0; p < me->primitive_count; p++) {
        char ppath[64];
        snprintf(ppath, sizeof ppath, "/meshes/%d/primitives/%zu", sm, p);
        ue_result r = check_primitive(x, &me->primitives[p], ppath);
        if (r != UE_OK) return r;
    }
    bool rebuild = true;
    char mpath[32];
    snprintf(mpath, sizeof mpath, "/meshes/%d", sm);
    ue_result r = bm >= 0 ? edit_in_place(x, me, bm, mpath, &rebuild) : UE_OK;
    if (r != UE_OK || !rebuild) return r;
    size_t slot = 0;
    r = slot_of(x, b, bm, &slot);
    if (r == UE_ERR_UNSUPPORTED) {
        char path[48];
        snprintf(path, sizeof path, "/nodes/%zu/mesh", si);
        return ue_msh_edit_fail(x, "import.mesh.new", path, "a mesh on a node that has no slot for it");
    }
    return r == UE_OK ? rebuild_slot(x, slot, me, sm) : r;
}

ue_result ue_msh_edit_apply_mesh(edit_ctx *x, size_t si) {
    int32_t b = x->b_of_s[si], sm = ue_msh_edit_node_mesh(x, si), bm = x->base->nodes[b].mesh;
    char path[48];
    snprintf(path, sizeof path, "/nodes/%zu/mesh", si);
    if (sm < 0 && bm < 0) return UE_OK;
    if (sm < 0) {
        ue_diag_add(x->d, UE_SEV_WARNING, "import.mesh.removed", UE_NO_OFFSET, path,
                    "the node lost its mesh; the model's slot is kept (delete its faces instead)");
        return UE_OK;
    }
    if ((size_t)sm >= x->s->mesh_count) return ue_msh_edit_fail(x, "import.mesh.index", path, "no such mesh");
    if (x->mesh_done[sm]) return UE_OK;
    x->mesh_done[sm] = 1;
    ue_scene_mesh folded;
    bool is_folded = false;
    ue_result r = ue_msh_edit_folded_mesh(x, si, sm, &folded, &is_folded);
    if (r != UE_OK) return r;
    r = apply_node_mesh(x, si, is_folded ? &folded : &x->s->meshes[sm], sm);
    if (is_folded) ue_msh_edit_folded_mesh_free(&folded);
    return r;
}

/* ---- bounds and triangle normals: only where geometry moved ------------------------------ */

static bool slot_moved(const edit_ctx *x, size_t s) {
    const ue_msh *m = x->m;
    const ue_msh_slot *sl = &m->slots[s];
    for (size_t b = sl->batch_start; b < (size_t)sl->batch_start + sl->batch_count && b < m->batch_count; b++) {
        const ue_msh_batch *bt = &m->batches[b];
        for (size_t i = 0; i < bt->index_count && bt->index_start + i < m->index_count; i++) {
            size_t v = (size_t)bt->base_vertex + m->indices[bt->index_start + i];
            if (v < x->vertex_count0 && x->moved[v]) return true;
        }
    }
    return false;
}

static void face_normal(const ue_msh *m, const size_t v[3], int16_t out[3]) {
    const float *a = &m->positions[3 * v[0]], *b = &m->positions[3 * v[1]], *c = &m->positions[3 * v[2]];
    float u[3], w[3], n[3];
    for (int k = 0; k < 3; k++) u[k] = b[k] - a[k], w[k] = c[k] - a[k];
    n[0] = u[1] * w[2] - u[2] * w[1];
    n[1] = u[2] * w[0] - u[0] * w[2];
    n[2] = u[0] * w[1] - u[1] * w[0];
    float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (int k = 0; k < 3; k++) out[k] = (int16_t)(len > 1e-20f ? lroundf(n[k] / len * 32767.0f) : 0);
}

/* Res7 face normals of the triangles with a moved corner (triangles are consumed per batch
 * from the slot's tri_start, docs/formats/msh.md#res7-triangles); flags, links and selectors are kept. */
static void refresh_tri_normals(edit_ctx *x, size_t s) {
    ue_msh *m = x->m;
    const ue_msh_slot *sl = &m->slots[s];
    size_t t = sl->tri_start;
    for (size_t b = sl->batch_start; b < (size_t)sl->batch_start + sl->batch_count && b < m->batch_count; b++) {
        const ue_msh_batch *bt = &m->batches[b];
        for (size_t i = 0; i + 3 <= bt->index_count && t < m->tri_count; i += 3, t++) {
            size_t v[3];
            bool any = false, ok = true;
            for (int k = 0; k < 3; k++) {
                size_t at = bt->index_start + i + (size_t)k;
                v[k] = at < m->index_count ? (size_t)bt->base_vertex + m->indices[at] : SIZE_MAX;
                ok = ok && v[k] < x->vertex_count0; /* moved[] covers the original vertices */
                any = any || (ok && x->moved[v[k]]);
            }
            if (!ok || !any) continue;
            face_normal(m, v, m->tris[t].normal);
            m->dirty[UE_MSH_TRIS] = true;
        }
    }
}

void ue_msh_edit_save_bounds(edit_ctx *x) {
    for (size_t s = 0; s < x->slot_count0; s++) {
        const ue_msh_slot *sl = &x->m->slots[s];
        slot_bounds *b = &x->saved[s];
        memcpy(b->aabb_min, sl->aabb_min, sizeof b->aabb_min);
        memcpy(b->aabb_max, sl->aabb_max, sizeof b->aabb_max);
        memcpy(b->sphere_center, sl->sphere_center, sizeof b->sphere_center);
        b->sphere_radius = sl->sphere_radius;
    }
}

/* Bounds of slots whose vertices moved or were rebuilt, and the header hull, are recomputed;
 * every other slot keeps its stored bounds byte for byte (the editor's setters recompute all). */
void ue_msh_edit_finish_bounds(edit_ctx *x) {
    bool any_moved = false;
    for (size_t s = 0; s < x->slot_count0; s++) {
        if (x->slot_touched[s] || !slot_moved(x, s)) continue; /* rebuilt slots are fresh already */
        x->slot_touched[s] = any_moved = true;
        refresh_tri_normals(x, s);
    }
    if (!any_moved && !x->bounds_dirty) return;
    ue_msh_recompute_bounds(x->m);
    for (size_t s = 0; s < x->slot_count0; s++) {
        if (x->slot_touched[s]) continue;
        ue_msh_slot *sl = &x->m->slots[s];
        const slot_bounds *b = &x->saved[s];
        memcpy(sl->aabb_min, b->aabb_min, sizeof b->aabb_min);
        memcpy(sl->aabb_max, b->aabb_max, sizeof b->aabb_max);
        memcpy(sl->sphere_center, b->sphere_center, sizeof b->sphere_center);
        sl->sphere_radius = b->sphere_radius;
    }
}

