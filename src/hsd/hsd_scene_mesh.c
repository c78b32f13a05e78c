/* unearth — HSD meshes → scene IR: one primitive per (DObj, PObj), its vertices taken to the bind
 * pose by the slot matrices of docs/formats/hsd-model.md#skinning, with joint influences of the model set's skin. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsd/hsd_int.h"
#include "hsd/hsd_material.h"
#include "hsd/hsd_to_scene.h"

/* Every vertex must select a slot the PObj loads (docs/formats/hsd-model.md#skinning): PNMTXIDX a multiple of 3 below 30. */
static bool slots_ok(hsd_scene_ctx *x, const ue_hsd_geometry *g, const hsd_pobj_skin *sk, uint64_t off,
                     const char *path) {
    for (uint32_t v = 0; v < g->vertex_count; v++) {
        unsigned idx = g->pnmtx ? g->pnmtx[v] : 0;
        if (idx % 3 == 0 && idx / 3 < HSD_SKIN_SLOTS && sk->slot[idx / 3].used) continue;
        ue_violation(&x->c, "hsd.skin.pnmtx", off, path,
                     "vertex %u selects matrix slot %u, which the PObj does not load", v, idx);
        return false;
    }
    return true;
}

static bool finite_n(const float *v, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i])) return false;
    return true;
}

/* glTF (and the scene IR) take finite numbers only: a PObj whose F32 data holds NaN/Inf, or
 * whose positions overflow once skinned, is a violation and is left out. Needs slots_ok. */
static bool values_ok(hsd_scene_ctx *x, const ue_hsd_geometry *g, const hsd_pobj_skin *sk, uint64_t off,
                      const char *path) {
    bool ok = true;
    for (uint32_t v = 0; v < g->vertex_count && ok; v++) {
        float out[3];
        hsd_skin_point(&sk->slot[g->pnmtx ? g->pnmtx[v] / 3 : 0], &g->positions[3 * (size_t)v], out);
        ok = finite_n(out, 3);
        for (int k = 0; k < 2 && ok; k++)
            ok = (!g->uv[k] || finite_n(&g->uv[k][2 * (size_t)v], 2)) &&
                 (!g->colors[k] || finite_n(&g->colors[k][4 * (size_t)v], 4));
    }
    if (!ok) ue_violation(&x->c, "hsd.scene.nan", off, path, "a vertex value is not finite (or overflows when skinned)");
    return ok;
}

/* A skin joint index for a model joint; an influence from another model set (broken data)
 * falls back to the owner. */
static uint16_t skin_joint(const hsd_scene_ctx *x, int32_t joint, int32_t owner, int32_t skin) {
    if (joint >= 0 && x->joint_skin[joint] == skin) return (uint16_t)x->skin_index[joint];
    return (uint16_t)x->skin_index[owner];
}

/* The vertex's joints and weights. Two influences that land on one skin joint (a joint of
 * another model set falls back to the owner) are one influence with the summed weight, as glTF
 * wants each joint once per vertex. */
static void write_influences(ue_scene_primitive *p, uint32_t v, const hsd_skin_slot *sl,
                             const hsd_scene_ctx *x, int32_t owner, int32_t skin) {
    uint16_t *joints = &p->joints[p->influences * (size_t)v];
    float *weights = &p->weights[p->influences * (size_t)v];
    uint32_t n = 0;
    for (uint32_t i = 0; i < sl->count; i++) {
        uint16_t j = skin_joint(x, sl->joint[i], owner, skin);
        uint32_t k = 0;
        while (k < n && joints[k] != j) k++;
        if (k == n) joints[n] = j, weights[n++] = 0;
        weights[k] += sl->weight[i];
    }
}

static unsigned prim_attrs(const ue_hsd_geometry *g, const hsd_pobj_skin *sk) {
    unsigned a = UE_ATTR_SKIN;
    for (int k = 0; k < HSD_SKIN_SLOTS; k++)
        if (sk->slot[k].used && sk->slot[k].count > 4) a = UE_ATTR_SKIN8;
    if (g->normals) a |= UE_ATTR_NORMAL;
    if (g->uv[0]) a |= UE_ATTR_UV0 | (g->uv[1] ? UE_ATTR_UV1 : 0u);
    if (g->colors[0]) a |= UE_ATTR_COLOR | (g->colors[1] ? UE_ATTR_COLOR1 : 0u);
    return a;
}

static void fill_vertex(hsd_scene_ctx *x, ue_scene_primitive *p, const ue_hsd_geometry *g,
                        const hsd_pobj_skin *sk, uint32_t v, int32_t owner, int32_t skin) {
    const hsd_skin_slot *sl = &sk->slot[g->pnmtx ? g->pnmtx[v] / 3 : 0];
    hsd_skin_point(sl, &g->positions[3 * (size_t)v], &p->positions[3 * (size_t)v]);
    if (p->normals && !hsd_skin_normal(sl, &g->normals[3 * (size_t)v], &p->normals[3 * (size_t)v])) {
        float *n = &p->normals[3 * (size_t)v];
        n[0] = 0, n[1] = 1, n[2] = 0; /* glTF wants unit normals; counted and reported */
        x->zero_normals++;
    }
    for (int k = 0; k < 2; k++) {
        if (p->uv[k] && g->uv[k]) memcpy(&p->uv[k][2 * (size_t)v], &g->uv[k][2 * (size_t)v], 2 * sizeof(float));
        if (p->colors[k]) memcpy(&p->colors[k][4 * (size_t)v], &g->colors[k][4 * (size_t)v], 4 * sizeof(float));
    }
    write_influences(p, v, sl, x, owner, skin);
}

/* A material may sample a UV set the PObj does not carry (GX then feeds the texgen zeros):
 * those sets are added as zeros, so that the scene (and glTF) stays valid, and counted. */
static ue_result add_missing_uv_sets(hsd_scene_ctx *x, ue_scene_primitive *p) {
    if (p->material < 0) return UE_OK;
    const ue_scene_material *mat = &x->s->materials[p->material];
    uint32_t need = 0;
    for (size_t i = 0; i < mat->slot_count; i++)
        if (mat->slots[i].uv_set + 1 > need) need = mat->slots[i].uv_set + 1;
    bool added = false;
    for (uint32_t k = 0; k < need && k < UE_MAX_UV_SETS; k++) {
        if (p->uv[k]) continue;
        p->uv[k] = calloc((size_t)p->vertex_count * 2, sizeof(float));
        if (!p->uv[k]) return UE_ERR_NOMEM;
        added = true;
    }
    x->zero_uv_primitives += added;
    return UE_OK;
}

/* The primitive of one decoded PObj. The mesh is made with its first primitive (glTF has no
 * empty meshes); `mesh` is -1 until then. */
static ue_result add_primitive(hsd_scene_ctx *x, const ue_hsd_geometry *g, const hsd_pobj_skin *sk, size_t pobj,
                               int32_t owner, int32_t material, int32_t *mesh, const char *mesh_name) {
    int32_t skin = x->joint_skin[owner];
    if (*mesh < 0) {
        *mesh = ue_scene_add_mesh(x->s, mesh_name);
        if (*mesh < 0) return UE_ERR_NOMEM;
        x->s->meshes[*mesh].source = hsd_source_id(HSD_KIND_JOBJ, x->m->joints[owner].offset, (size_t)owner);
    }
    ue_scene_primitive *p = ue_scene_add_primitive(x->s, *mesh);
    if (!p) return UE_ERR_NOMEM;
    p->source = hsd_source_id(HSD_KIND_POBJ, x->m->pobjs[pobj].offset, pobj);
    p->material = material;
    if (g->index_count > UINT32_MAX) return UE_ERR_LIMIT;
    ue_result r = ue_scene_primitive_alloc(p, g->vertex_count, (uint32_t)g->index_count, prim_attrs(g, sk));
    if (r != UE_OK) return r;
    memcpy(p->indices, g->indices, g->index_count * sizeof *p->indices);
    for (uint32_t v = 0; v < g->vertex_count; v++) fill_vertex(x, p, g, sk, v, owner, skin);
    x->primitives++;
    return add_missing_uv_sets(x, p);
}

/* The material of a PObj drawn with MObj `mobj` (-1: none): its cull bits choose the single-
 * or double-sided variant (docs/hsd-materials.md); a failure leaves the default material. */
static ue_result pobj_material(hsd_scene_ctx *x, int32_t mobj, const ue_hsd_pobj *po, int32_t *material) {
    *material = -1;
    if (mobj < 0) return UE_OK;
    ue_result r = hsd_scene_material_culled(x->m, (size_t)mobj, po->flags, x->c.mode, x->s, &x->materials,
                                            material, x->c.d);
    if (r == UE_ERR_NOMEM) return r;
    if (r != UE_OK) ue_parse_fail(&x->c, r), *material = -1;
    return UE_OK;
}

/* The game ignores vertex colours unless the render mode's diffuse source takes them; glTF would
 * multiply them in, so they are left out then. */
static void drop_unused_colors(const ue_hsd_model *m, int32_t mobj, ue_hsd_geometry *g) {
    if (mobj < 0 || hsd_material_uses_vertex_color(m->mobjs[mobj].render_mode)) return;
    for (int k = 0; k < 2; k++) free(g->colors[k]), g->colors[k] = NULL;
}

/* Decodes one PObj and adds it; damage in tolerant mode leaves the PObj out (reported). */
static ue_result convert_pobj(hsd_scene_ctx *x, size_t pobj, int32_t owner, int32_t mobj, int32_t *mesh,
                              const char *mesh_name, const char *path) {
    const ue_hsd_pobj *po = &x->m->pobjs[pobj];
    uint64_t off = (uint64_t)po->offset + UE_DAT_HEADER;
    if ((po->flags & (UE_POBJ_CULL_FRONT | UE_POBJ_CULL_BACK)) == (UE_POBJ_CULL_FRONT | UE_POBJ_CULL_BACK)) {
        ue_diag_add(x->c.d, UE_SEV_INFO, "hsd.scene.culled", off, path, "both faces culled: the game draws nothing");
        return UE_OK;
    }
    hsd_pobj_skin sk;
    ue_result r = hsd_pobj_skin_compute(x->m, &x->pose, pobj, owner, x->c.mode, path, &sk, x->c.d);
    if (r != UE_OK) {
        ue_parse_fail(&x->c, r);
        return UE_OK;
    }
    int32_t material;
    r = pobj_material(x, mobj, po, &material);
    if (r != UE_OK) return r;
    ue_hsd_geometry g;
    memset(&g, 0, sizeof g);
    r = hsd_pobj_decode_at(x->m, pobj, path, x->c.mode, &g, x->c.d);
    if (r == UE_OK) drop_unused_colors(x->m, mobj, &g);
    if (r == UE_ERR_NOMEM) return r;
    if (r != UE_OK) ue_damage_reported(&x->c);
    else if (g.vertex_count && g.index_count >= 3 && g.index_count % 3 == 0 && slots_ok(x, &g, &sk, off, path) &&
             values_ok(x, &g, &sk, off, path))
        r = add_primitive(x, &g, &sk, pobj, owner, material, mesh, mesh_name);
    ue_hsd_geometry_free(&g);
    return r == UE_ERR_NOMEM || r == UE_ERR_LIMIT ? r : UE_OK;
}

/* A row already converted through another pointer is drawn once (linear work); said once. */
static bool first_visit(hsd_scene_ctx *x, size_t slot, uint64_t off, const char *path) {
    if (!x->drawn[slot]) return x->drawn[slot] = 1, true;
    ue_diag_add(x->c.d, UE_SEV_WARNING, "hsd.scene.shared", off, path,
                "already drawn through another joint or DObj: converted once");
    return false;
}

static ue_result convert_dobj(hsd_scene_ctx *x, size_t dobj, size_t j, int32_t *mesh, const char *mesh_name,
                              const char *dpath) {
    const ue_hsd_model *m = x->m;
    int32_t mobj = m->dobjs[dobj].mobj >= 0 && (size_t)m->dobjs[dobj].mobj < m->mobj_count ? m->dobjs[dobj].mobj : -1;
    ue_result r = UE_OK;
    int32_t po = m->dobjs[dobj].first_pobj;
    for (size_t k = 0; po >= 0 && (size_t)po < m->pobj_count && k < m->pobj_count; k++, po = m->pobjs[po].next) {
        char path[160];
        snprintf(path, sizeof path, "%s/pobj[%zu]", dpath, k);
        if (!first_visit(x, m->dobj_count + (size_t)po, (uint64_t)m->pobjs[po].offset + UE_DAT_HEADER, path)) continue;
        r = convert_pobj(x, (size_t)po, (int32_t)j, mobj, mesh, mesh_name, path);
        if (r != UE_OK) return r;
    }
    return UE_OK;
}

ue_result hsd_scene_joint_meshes(hsd_scene_ctx *x, size_t j) {
    const ue_hsd_model *m = x->m;
    int32_t mesh = -1;
    char mesh_name[64];
    snprintf(mesh_name, sizeof mesh_name, "%.50s_mesh", x->s->nodes[x->joint_node[j]].name);
    int32_t dobj = m->joints[j].first_dobj;
    for (size_t k = 0; dobj >= 0 && (size_t)dobj < m->dobj_count && k < m->dobj_count; k++, dobj = m->dobjs[dobj].next) {
        char dpath[96];
        snprintf(dpath, sizeof dpath, "dat/joint[%zu]/dobj[%zu]", j, k);
        if (!first_visit(x, (size_t)dobj, (uint64_t)m->dobjs[dobj].offset + UE_DAT_HEADER, dpath)) continue;
        ue_result r = convert_dobj(x, (size_t)dobj, j, &mesh, mesh_name, dpath);
        if (r != UE_OK) return r;
    }
    if (mesh < 0) return UE_OK;
    /* A root: glTF ignores a skinned node's transform, and wants it where none is inherited. */
    int32_t node = ue_scene_add_node(x->s, mesh_name, -1);
    if (node < 0) return UE_ERR_NOMEM;
    x->s->nodes[node].mesh = mesh;
    x->s->nodes[node].skin = x->joint_skin[j];
    x->s->nodes[node].hidden = (m->joints[j].flags & UE_JOBJ_HIDDEN) != 0;
    x->s->nodes[node].source = hsd_source_id(HSD_KIND_JOBJ, m->joints[j].offset, j);
    return UE_OK;
}
