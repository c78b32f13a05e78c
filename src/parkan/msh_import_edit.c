/* unearth — glTF edit mode (`import --base`): a scene compared with what the base model itself
 * exports to, and only what differs written back, by the dependency matrix of seed 000 §8.3. */

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parkan/msh_import_edit_int.h"
#include "parkan/msh_materials.h"
#include "parkan/parkan_axes.h"
ue_result ue_msh_edit_fail(edit_ctx *x, const char *code, const char *path, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    ue_diag_addv(x->d, UE_SEV_ERROR, code, UE_NO_OFFSET, path, fmt, ap);
    va_end(ap);
    return UE_ERR_INVALID;
}

/* ---- nodes: names and rest poses --------------------------------------------------------- */

static ue_result apply_name(edit_ctx *x, size_t si, size_t n) {
    const char *want = x->s->nodes[si].name, *had = x->base.nodes[x->b_of_s[si]].name;
    if (ue_msh_edit_same_name(want, had)) return UE_OK;
    char stored[sizeof x->s->nodes[0].name];
    size_t len = 0, at = 0;
    uint32_t bad = 0;
    char path[48];
    snprintf(path, sizeof path, "/nodes/%zu/name", si);
    if (ue_utf8_to_cp1251(want, stored, sizeof stored, &len, &bad, &at) != UE_OK)
        return ue_msh_edit_fail(x, "import.name.cp1251", path,
                "\"%s\" has a character Windows-1251 lacks (at byte %zu); Parkan names are stored in it",
                want, at);
    return ue_msh_rename_node(x->m, n, stored);
}

static bool quat_differs(const float a[4], const float b[4]) {
    float plus = 0, minus = 0;
    for (int k = 0; k < 4; k++) {
        plus = fmaxf(plus, fabsf(a[k] - b[k]));
        minus = fmaxf(minus, fabsf(a[k] + b[k]));
    }
    return fminf(plus, minus) > QUAT_TOL;
}

/* The same code and path as a new model's refusal (msh_import.c): MSH nodes have no scale. */
static ue_result check_scale(edit_ctx *x, size_t si) {
    const ue_scene_node *sn = &x->s->nodes[si];
    char path[48];
    snprintf(path, sizeof path, "/nodes/%zu/scale", si);
    for (int k = 0; k < 3; k++)
        if (fabsf(sn->scale[k] - 1.0f) > SCALE_TOL)
            return ue_msh_edit_fail(x, "msh.import.scale", path,
                                    "node '%s' has scale (%g, %g, %g); MSH nodes have translation and rotation only "
                                    "(apply the scale to the mesh)", sn->name, sn->scale[0], sn->scale[1], sn->scale[2]);
    return UE_OK;
}

/* A node with no model node behind it (the wrapper root convert adds, a group's child) has no
 * key to hold a transform; moving every model node under it would also rewrite their tracks,
 * so a changed transform there is refused rather than dropped. */
static ue_result check_unmapped_pose(edit_ctx *x, size_t si) {
    const ue_scene_node *sn = &x->s->nodes[si], *bn = &x->base.nodes[x->b_of_s[si]];
    char path[48];
    bool moved = sn->translation[0] != bn->translation[0] || sn->translation[1] != bn->translation[1] ||
                 sn->translation[2] != bn->translation[2];
    snprintf(path, sizeof path, "/nodes/%zu/%s", si, moved ? "translation" : "rotation");
    if (moved || quat_differs(sn->rotation, bn->rotation))
        return ue_msh_edit_fail(x, "import.node.transform", path,
                                "node '%s' is no MSH node (convert adds it to hold the model) and has no transform "
                                "of its own; move the model's nodes instead", sn->name);
    return UE_OK;
}

/* A static node's rest pose is its one key; an animated node's is its last key, owned by the
 * animation, so a differing node transform there is reported and the animation decides. */
static ue_result apply_rest_pose(edit_ctx *x, size_t si, size_t n) {
    const ue_scene_node *sn = &x->s->nodes[si], *bn = &x->base.nodes[x->b_of_s[si]];
    char path[48];
    snprintf(path, sizeof path, "/nodes/%zu", si);
    bool moved = sn->translation[0] != bn->translation[0] || sn->translation[1] != bn->translation[1] ||
                 sn->translation[2] != bn->translation[2];
    if (!moved && !quat_differs(sn->rotation, bn->rotation)) return UE_OK;
    if (x->m->nodes[n].anim_map_start != UE_MSH_NONE && ue_msh_is_animated(x->m)) {
        ue_diag_add(x->d, UE_SEV_WARNING, "import.node.animated", UE_NO_OFFSET, path,
                    "the node is animated: its rest pose is its last animation key, so the changed "
                    "transform is not used (edit the animation instead)");
        return UE_OK;
    }
    float t[3], q[4];
    ue_parkan_vec_from_gltf(sn->translation, t);
    ue_parkan_quat_from_gltf(sn->rotation, q);
    x->bounds_dirty = true;
    return ue_msh_set_rest_pose(x->m, n, t, q);
}

/* ---- geometry ------------------------------------------------------------------------------ */

/* The model vertices of batch b in the order convert writes them: first use in Res6 order. */
static ue_result batch_vertices(const ue_msh *m, size_t b, uint32_t **out, uint32_t *count) {
    const ue_msh_batch *bt = &m->batches[b];
    size_t n = bt->index_count - bt->index_count % 3;
    uint32_t *list = malloc((n ? n : 1) * sizeof *list);
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

static bool differs(const float *a, const float *b, int n, float tol) {
    for (int k = 0; k < n; k++)
        if (fabsf(a[k] - b[k]) > tol || (tol == 0 && a[k] != b[k])) return true;
    return false;
}

/* Per-vertex edits of one primitive whose topology is unchanged. */
static void apply_vertex(edit_ctx *x, uint32_t v, const ue_scene_primitive *sp, const ue_scene_primitive *bp,
                         size_t o) {
    ue_msh *m = x->m;
    if (differs(&sp->positions[3 * o], &bp->positions[3 * o], 3, 0)) {
        ue_parkan_vec_from_gltf(&sp->positions[3 * o], &m->positions[3 * (size_t)v]);
        x->moved[v] = 1;
        m->dirty[UE_MSH_POSITIONS] = true;
    }
    if (sp->normals && bp->normals && differs(&sp->normals[3 * o], &bp->normals[3 * o], 3, NORMAL_TOL)) {
        float n[3];
        ue_parkan_vec_from_gltf(&sp->normals[3 * o], n);
        for (int k = 0; k < 3; k++) m->normals[4 * (size_t)v + (size_t)k] = ue_msh_encode_normal(n[k]);
        m->dirty[UE_MSH_NORMALS] = true; /* nw, the fourth byte, is kept */
    }
    if (sp->uv[0] && bp->uv[0] && differs(&sp->uv[0][2 * o], &bp->uv[0][2 * o], 2, UV_TOL)) {
        for (int k = 0; k < 2; k++) m->uv0[2 * (size_t)v + (size_t)k] = ue_msh_encode_uv(sp->uv[0][2 * o + (size_t)k]);
        m->dirty[UE_MSH_UV0] = true;
    }
    if (sp->colors[0] && bp->colors[0] && differs(&sp->colors[0][4 * o], &bp->colors[0][4 * o], 4, COLOR_TOL)) {
        static const int bgra[4] = {2, 1, 0, 3}; /* Res18 is a D3DCOLOR, as msh_scene.c reads it */
        for (int k = 0; k < 4; k++) {
            float c = roundf(sp->colors[0][4 * o + (size_t)bgra[k]] * 255.0f);
            m->colors[4 * (size_t)v + (size_t)k] = (uint8_t)(c < 0 ? 0 : c > 255 ? 255 : c);
        }
        m->dirty[UE_MSH_COLORS] = true;
    }
}

static bool same_topology(const ue_scene_primitive *a, const ue_scene_primitive *b) {
    return a->vertex_count == b->vertex_count && a->index_count == b->index_count &&
           !memcmp(a->indices, b->indices, (size_t)a->index_count * sizeof *a->indices);
}

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

/* The WEAR row of a rebuilt primitive: its material's wear_row extra, else the batch its
 * material came from, else the slot's first batch. */
static uint16_t wear_row(const edit_ctx *x, const ue_scene_primitive *p, uint16_t fallback) {
    if (p->material < 0 || (size_t)p->material >= x->s->material_count) return fallback;
    const ue_scene_material *mat = &x->s->materials[p->material];
    for (size_t k = 0; k < mat->extras.count; k++) {
        const ue_extra *e = &mat->extras.items[k];
        if (!strcmp(e->key, UE_MSH_WEAR_ROW_KEY) && e->kind == UE_EXTRA_NUMBER && e->number >= 0 &&
            e->number <= UINT16_MAX && e->number == floor(e->number))
            return (uint16_t)e->number;
    }
    if (!strcmp(mat->source.format, "msh") && mat->source.type == UE_MSH_BATCHES &&
        mat->source.index < x->m->batch_count)
        return x->m->batches[mat->source.index].material;
    return fallback;
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
static ue_result rebuild_slot(edit_ctx *x, size_t slot, int32_t smesh) {
    const ue_scene_mesh *me = &x->s->meshes[smesh];
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

static ue_result apply_primitives(edit_ctx *x, int32_t smesh, int32_t bmesh) {
    const ue_scene_mesh *sm = &x->s->meshes[smesh], *bm = &x->base.meshes[bmesh];
    for (size_t p = 0; p < sm->primitive_count && p < bm->primitive_count; p++) {
        const ue_scene_primitive *sp = &sm->primitives[p], *bp = &bm->primitives[p];
        uint32_t *verts = NULL, nv = 0;
        ue_result r = batch_vertices(x->m, bp->source.index, &verts, &nv);
        if (r != UE_OK) return r;
        for (uint32_t o = 0; o < nv && o < sp->vertex_count; o++) apply_vertex(x, verts[o], sp, bp, o);
        free(verts);
    }
    return UE_OK;
}

static bool mesh_topology_same(const ue_scene_mesh *a, const ue_scene_mesh *b) {
    if (a->primitive_count != b->primitive_count) return false;
    for (size_t p = 0; p < a->primitive_count; p++)
        if (!same_topology(&a->primitives[p], &b->primitives[p])) return false;
    return true;
}

/* The slot a base node's mesh shows, or for a node without one the slot the selection names
 * (added when the scene gives the node a mesh). */
static ue_result slot_of(edit_ctx *x, int32_t b, int32_t bmesh, size_t *slot) {
    if (bmesh >= 0) {
        *slot = x->base.meshes[bmesh].source.index;
        return *slot < x->m->slot_count ? UE_OK : UE_ERR_INVALID;
    }
    int32_t n = x->msh_of_b[b];
    if (n < 0 || x->eo.group < 0 || x->eo.lod < 0) return UE_ERR_UNSUPPORTED;
    uint16_t si = ue_msh_slot_index(x->m, (size_t)n, x->eo.lod, x->eo.group, 0);
    if (si != UE_MSH_NONE) return *slot = si, UE_OK;
    return ue_msh_add_slot(x->m, (size_t)n, x->eo.lod, x->eo.group, slot);
}

static ue_result apply_mesh(edit_ctx *x, size_t si) {
    int32_t b = x->b_of_s[si], sm = x->s->nodes[si].mesh, bm = x->base.nodes[b].mesh;
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
    for (size_t p = 0; p < x->s->meshes[sm].primitive_count; p++) {
        char ppath[64];
        snprintf(ppath, sizeof ppath, "/meshes/%d/primitives/%zu", sm, p);
        ue_result r = check_primitive(x, &x->s->meshes[sm].primitives[p], ppath);
        if (r != UE_OK) return r;
    }
    if (bm >= 0 && mesh_topology_same(&x->s->meshes[sm], &x->base.meshes[bm])) return apply_primitives(x, sm, bm);
    size_t slot = 0;
    ue_result r = slot_of(x, b, bm, &slot);
    if (r == UE_ERR_UNSUPPORTED)
        return ue_msh_edit_fail(x, "import.mesh.new", path, "a mesh on a node that has no slot for it");
    return r == UE_OK ? rebuild_slot(x, slot, sm) : r;
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
 * from the slot's tri_start, parkan-formats.md §4.5); flags, links and selectors are kept. */
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

static void save_bounds(edit_ctx *x) {
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
static void finish_bounds(edit_ctx *x) {
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

/* ---- the entry point ------------------------------------------------------------------------ */

static ue_result edit_alloc(edit_ctx *x) {
    size_t nodes = x->s->node_count + 1, verts = x->m->vertex_count + 1, slots = x->m->slot_count + 1;
    x->b_of_s = calloc(nodes, sizeof *x->b_of_s);
    x->msh_of_b = calloc(nodes, sizeof *x->msh_of_b);
    x->moved = calloc(verts, 1);
    x->mesh_done = calloc(x->s->mesh_count + 1, 1);
    x->slot_touched = calloc(slots, sizeof *x->slot_touched);
    x->saved = calloc(slots, sizeof *x->saved);
    x->slot_count0 = x->m->slot_count;
    x->vertex_count0 = x->m->vertex_count;
    return x->b_of_s && x->msh_of_b && x->moved && x->mesh_done && x->slot_touched && x->saved ? UE_OK
                                                                                                  : UE_ERR_NOMEM;
}

static void edit_free(edit_ctx *x) {
    ue_msh_edit_match_free(x);
    ue_scene_free(&x->base);
    free(x->b_of_s);
    free(x->msh_of_b);
    free(x->moved);
    free(x->mesh_done);
    free(x->slot_touched);
    free(x->saved);
}

static ue_result apply_nodes(edit_ctx *x) {
    ue_result r = UE_OK;
    for (size_t si = 0; si < x->s->node_count && r == UE_OK; si++) {
        if (x->b_of_s[si] < 0) continue; /* a client's identity wrapper above the model */
        int32_t n = x->msh_of_b[x->b_of_s[si]];
        r = check_scale(x, si);
        if (r == UE_OK && n < 0) r = check_unmapped_pose(x, si);
        if (r == UE_OK && n >= 0) r = apply_name(x, si, (size_t)n);
        if (r == UE_OK && n >= 0) r = apply_rest_pose(x, si, (size_t)n);
        if (r == UE_OK) r = apply_mesh(x, si);
    }
    return r;
}

ue_result ue_msh_apply_scene(ue_msh *base, const ue_scene *s, const ue_msh_import_options *o, ue_diag *d) {
    if (!base || !s) return UE_ERR_USAGE;
    if (base->legacy_nodes || !base->nodes) {
        ue_diag_add(d, UE_SEV_ERROR, "import.base.nodes", UE_NO_OFFSET, "msh/res1",
                    "the base model has no decodable node table (legacy stride-24 models are copy-through only)");
        return UE_ERR_UNSUPPORTED;
    }
    edit_ctx x;
    memset(&x, 0, sizeof x);
    x.m = base, x.s = s, x.d = d;
    /* Times compare only at the rate the glTF was written with: the option, else the clip's. */
    x.fps = UE_MSH_DEFAULT_FPS;
    size_t others = 0;
    int32_t clip = ue_msh_import_node_clip(s, &others);
    if (clip >= 0 && s->animations[clip].fps > 0 && s->animations[clip].fps <= 1000) x.fps = s->animations[clip].fps;
    if (o && o->fps > 0) x.fps = o->fps;
    ue_scene_init(&x.base);
    ue_result r = edit_alloc(&x);
    if (r == UE_OK && ue_scene_validate(s, d) != UE_OK)
        r = ue_msh_edit_fail(&x, "import.scene", "/", "the glTF scene is not consistent (see the messages above)");
    if (r == UE_OK) r = ue_msh_edit_match_selection(&x);
    if (r == UE_OK) {
        ue_msh_edit_map_model_nodes(&x);
        save_bounds(&x);
        r = apply_nodes(&x);
    }
    if (r == UE_OK) r = ue_msh_edit_apply_animation(&x);
    if (r == UE_OK) finish_bounds(&x);
    edit_free(&x);
    return r;
}
