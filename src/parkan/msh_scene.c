/* unearth — MSH → scene IR: nodes from Res1 with rest poses from Res8, meshes from the slots
 * of one LOD and group (or every group, or the whole matrix, one child node each), one
 * primitive per batch, the clip (msh_anim_scene.c), and the axis change to glTF. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parkan/msh_anim.h"
#include "parkan/msh_materials.h"
#include "parkan/parkan_axes.h"
#include "unearth/msh.h"
#include "common/bytes.h"

bool ue_msh_is_model(const ue_nres *n) {
    static const uint32_t required[] = {1, 2, 3, 6, 13};
    for (size_t r = 0; r < sizeof required / sizeof required[0]; r++) {
        bool found = false;
        for (size_t i = 0; i < n->count && !found; i++) found = n->entries[i].type_id == required[r];
        if (!found) return false;
    }
    return true;
}

/* The axis change to glTF (parkan_axes.c) is applied here, once, to positions, normals, rest
 * poses and winding. */

static ue_source_id sid(uint32_t type, uint64_t offset, size_t index) {
    ue_source_id s;
    memset(&s, 0, sizeof s);
    memcpy(s.format, "msh", 4);
    s.type = type;
    s.offset = offset;
    s.index = (uint32_t)index;
    return s;
}

static uint64_t record_offset(const ue_msh *m, int type, size_t header, size_t stride, size_t i) {
    int32_t e = m->entry_of[type];
    if (e < 0) return UINT64_MAX;
    return (uint64_t)m->container.entries[e].data_offset + header + stride * i;
}

typedef struct material_map {
    int32_t *scene_index; /* per WEAR row, -1 until used */
    size_t count;
} material_map;

static int32_t material_for(ue_scene *s, material_map *mm, uint16_t row, size_t batch, uint64_t off) {
    if (row >= mm->count) {
        size_t nc = (size_t)row + 1;
        int32_t *g = realloc(mm->scene_index, nc * sizeof *g);
        if (!g) return -2;
        for (size_t i = mm->count; i < nc; i++) g[i] = -1;
        mm->scene_index = g;
        mm->count = nc;
    }
    if (mm->scene_index[row] < 0) {
        char name[32];
        snprintf(name, sizeof name, "material_%u", row);
        int32_t mi = ue_scene_add_material(s, name);
        if (mi < 0) return -2;
        /* Materials come from WEAR/MAT0 (a later stage); a neutral grey keeps batches apart. */
        ue_scene_material *mat = &s->materials[mi];
        for (int c = 0; c < 3; c++) mat->base_color[c] = 0.8f;
        mat->base_color[3] = 1.0f;
        mat->metallic = 0.0f;
        mat->roughness = 0.8f;
        mat->source = sid(13, off, batch);
        mat->source.type = 13;
        /* The row is the material's key for the WEAR → MAT0 chain (msh_materials.c). */
        if (ue_extras_set_number(&mat->extras, UE_MSH_WEAR_ROW_KEY, row) != UE_OK) return -2;
        mm->scene_index[row] = mi;
    }
    return mm->scene_index[row];
}

/* One primitive per batch: the batch's referenced vertices compacted and converted. */
static ue_result add_batch(const ue_msh *m, ue_scene *s, int32_t *mesh_io, const char *mesh_name,
                           ue_source_id mesh_source, size_t b, material_map *mm, size_t *bad_normals) {
    const ue_msh_batch *bt = &m->batches[b];
    if (!ue_range_ok(bt->index_start, bt->index_count, m->index_count)) return UE_OK;
    size_t count = bt->index_count - bt->index_count % 3;
    if (count == 0) return UE_OK;
    uint32_t lo = UINT32_MAX, hi = 0;
    for (size_t i = 0; i < count; i++) {
        uint64_t v = (uint64_t)bt->base_vertex + m->indices[bt->index_start + i];
        /* Tolerant models: a batch reaching past the vertices or onto a non-finite position
         * is dropped, the rest of the model still exports. */
        if (v >= m->vertex_count || !isfinite(m->positions[3 * v]) || !isfinite(m->positions[3 * v + 1]) ||
            !isfinite(m->positions[3 * v + 2]))
            return UE_OK;
        if (v < lo) lo = (uint32_t)v;
        if (v > hi) hi = (uint32_t)v;
    }
    size_t span = (size_t)hi - lo + 1;
    /* The mesh appears with its first primitive: glTF forbids meshes without primitives. */
    if (*mesh_io < 0) {
        *mesh_io = ue_scene_add_mesh(s, mesh_name);
        if (*mesh_io < 0) return UE_ERR_NOMEM;
        s->meshes[*mesh_io].source = mesh_source;
    }
    int32_t mesh = *mesh_io;
    uint32_t *remap = malloc(span * sizeof *remap);
    if (!remap) return UE_ERR_NOMEM;
    for (size_t i = 0; i < span; i++) remap[i] = UINT32_MAX;
    uint32_t nv = 0;
    for (size_t i = 0; i < count; i++) {
        uint32_t v = bt->base_vertex + m->indices[bt->index_start + i] - lo;
        if (remap[v] == UINT32_MAX) remap[v] = nv++;
    }
    ue_scene_primitive *p = ue_scene_add_primitive(s, mesh);
    if (!p) {
        free(remap);
        return UE_ERR_NOMEM;
    }
    uint64_t off = record_offset(m, UE_MSH_BATCHES, 0, 20, b);
    p->source = sid(13, off, b);
    p->vertex_count = nv;
    p->index_count = (uint32_t)count;
    p->positions = malloc(nv * 3 * sizeof(float));
    p->indices = malloc(count * sizeof(uint32_t));
    bool has_normals = m->normals && m->normal_count == m->vertex_count;
    bool has_uv = m->uv0 && m->uv_count == m->vertex_count;
    bool has_colors = m->colors && m->color_count == m->vertex_count;
    if (has_normals) p->normals = malloc(nv * 3 * sizeof(float));
    if (has_uv) p->uv[0] = malloc(nv * 2 * sizeof(float));
    if (has_colors) p->colors[0] = malloc(nv * 4 * sizeof(float));
    if (!p->positions || !p->indices || (has_normals && !p->normals) || (has_uv && !p->uv[0]) ||
        (has_colors && !p->colors[0])) {
        free(remap);
        return UE_ERR_NOMEM;
    }
    for (size_t i = 0; i < count; i++) {
        size_t from = ue_parkan_winding_corner(i);
        p->indices[i] = remap[bt->base_vertex + m->indices[bt->index_start + from] - lo];
    }
    for (size_t k = 0; k < span; k++) {
        uint32_t o = remap[k];
        if (o == UINT32_MAX) continue;
        size_t v = lo + k;
        ue_parkan_vec_to_gltf(&m->positions[3 * v], &p->positions[3 * o]);
        if (has_normals) {
            float n[3] = {ue_msh_decode_normal(m->normals[4 * v]), ue_msh_decode_normal(m->normals[4 * v + 1]),
                          ue_msh_decode_normal(m->normals[4 * v + 2])};
            float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
            if (len < 1e-6f) {
                /* glTF needs unit normals; a zero packed normal gets "up". */
                n[0] = 0, n[1] = 0, n[2] = 1, len = 1;
                (*bad_normals)++;
            }
            for (int c = 0; c < 3; c++) n[c] /= len;
            ue_parkan_vec_to_gltf(n, &p->normals[3 * o]);
        }
        if (has_uv) {
            p->uv[0][2 * o] = ue_msh_decode_uv(m->uv0[2 * v]);
            p->uv[0][2 * o + 1] = ue_msh_decode_uv(m->uv0[2 * v + 1]);
        }
        if (has_colors) {
            /* Res18 is read as a D3DCOLOR (bytes B, G, R, A), the engine's colour layout. */
            const uint8_t *c = &m->colors[4 * v];
            float *rgba = &p->colors[0][4 * o];
            rgba[0] = c[2] / 255.0f;
            rgba[1] = c[1] / 255.0f;
            rgba[2] = c[0] / 255.0f;
            rgba[3] = c[3] / 255.0f;
        }
    }
    free(remap);
    int32_t mat = material_for(s, mm, bt->material, b, off);
    if (mat < -1) return UE_ERR_NOMEM;
    /* ue_scene_add_material may have moved the primitive array; look the primitive up again. */
    s->meshes[mesh].primitives[s->meshes[mesh].primitive_count - 1].material = mat;
    return UE_OK;
}

/* Triangles that a LOD and group selection reaches (UE_MSH_GROUP_ALL: every group). */
static size_t selection_triangles(const ue_msh *m, int lod, int group) {
    size_t tris = 0;
    if (lod == UE_MSH_LOD_ALL) {
        for (int l = 0; l < UE_MSH_LODS; l++) tris += selection_triangles(m, l, UE_MSH_GROUP_ALL);
        return tris;
    }
    for (size_t n = 0; n < m->node_count; n++)
        for (int g = 0; g < UE_MSH_GROUPS; g++) {
            uint16_t si = group < 0 || g == group ? ue_msh_slot_index(m, n, lod, g, 0) : UE_MSH_NONE;
            if (si == UE_MSH_NONE) continue;
            const ue_msh_slot *sl = &m->slots[si];
            for (size_t b = sl->batch_start; b < (size_t)sl->batch_start + sl->batch_count && b < m->batch_count; b++)
                tris += m->batches[b].index_count / 3;
        }
    return tris;
}

/* What the model does hold, for the message of an empty selection:
 * "LOD 0 (groups 0, 1), LOD 1 (group 0)". */
static void describe_geometry(const ue_msh *m, char *out, size_t cap) {
    size_t o = 0;
    out[0] = 0;
    for (int lod = 0; lod < UE_MSH_LODS; lod++) {
        int groups[UE_MSH_GROUPS], count = 0;
        for (int g = 0; g < UE_MSH_GROUPS; g++)
            if (selection_triangles(m, lod, g) > 0) groups[count++] = g;
        for (int k = 0; k < count && o < cap; k++) {
            int w = k == 0 ? snprintf(out + o, cap - o, "%sLOD %d (group%s %d", o ? ", " : "", lod,
                                      count > 1 ? "s" : "", groups[k])
                           : snprintf(out + o, cap - o, ", %d", groups[k]);
            o = w < 0 ? cap : o + (size_t)w;
        }
        if (count && o < cap) {
            int w = snprintf(out + o, cap - o, ")");
            o = w < 0 ? cap : o + (size_t)w;
        }
    }
    if (!out[0]) snprintf(out, cap, "no geometry in any LOD");
}

/* Converting nothing is a mistake in the options (or a model whose batches were all dropped),
 * not a valid empty file: say what the model has instead. */
ue_result ue_msh_refuse_empty_selection(const ue_msh *m, const ue_msh_export_options *o, ue_diag *d) {
    ue_msh_export_options def = {0, 0, 0};
    if (!o) o = &def;
    char have[160], which[32] = "", lod[16] = "every LOD";
    describe_geometry(m, have, sizeof have);
    if (o->group >= 0 && o->lod != UE_MSH_LOD_ALL) snprintf(which, sizeof which, " group %d", o->group);
    if (o->lod != UE_MSH_LOD_ALL) snprintf(lod, sizeof lod, "LOD %d", o->lod);
    if (selection_triangles(m, o->lod, o->group) > 0)
        ue_diag_add(d, UE_SEV_ERROR, "msh.export.empty", UE_NO_OFFSET, "msh",
                    "nothing in %s%s could be exported (every batch is damaged)", lod, which);
    else
        ue_diag_add(d, UE_SEV_ERROR, "msh.export.empty", UE_NO_OFFSET, "msh",
                    "%s%s has no geometry; the model has %s", lod, which, have);
    return UE_ERR_INVALID;
}

/* Every batch of slot `si` as primitives of one mesh (*mesh stays -1 when none exports). */
static ue_result add_slot_mesh(const ue_msh *m, ue_scene *s, uint16_t si, const char *mesh_name,
                               material_map *mm, size_t *bad_normals, int32_t *mesh) {
    const ue_msh_slot *sl = &m->slots[si];
    ue_source_id msrc = sid(2, record_offset(m, UE_MSH_HEADER, UE_MSH_HEADER_SIZE, UE_MSH_SLOT_SIZE, si), si);
    ue_result r = UE_OK;
    for (size_t b = sl->batch_start; b < (size_t)sl->batch_start + sl->batch_count && r == UE_OK; b++) {
        if (b >= m->batch_count) break;
        r = add_batch(m, s, mesh, mesh_name, msrc, b, mm, bad_normals);
    }
    return r;
}

typedef struct node_export {
    const ue_msh *m;
    const ue_msh_export_options *o;
    ue_scene *s;
    material_map *mm;
    size_t *bad_normals;
} node_export;

/* One group: the slot's mesh sits on the node itself, as the engine draws it. */
static ue_result add_group_mesh(node_export *x, size_t n, const char *nm, int32_t scene_node) {
    uint16_t si = ue_msh_slot_index(x->m, n, x->o->lod, x->o->group, 0);
    if (si == UE_MSH_NONE) return UE_OK;
    char mname[80];
    snprintf(mname, sizeof mname, "%s_lod%d", nm, x->o->lod);
    int32_t mesh = -1;
    ue_result r = add_slot_mesh(x->m, x->s, si, mname, x->mm, x->bad_normals, &mesh);
    if (mesh >= 0) x->s->nodes[scene_node].mesh = mesh;
    return r;
}

static bool slot_seen_in_earlier_group(const ue_msh *m, size_t n, int lod, int group, uint16_t si) {
    for (int g = 0; g < group; g++)
        if (ue_msh_slot_index(m, n, lod, g, 0) == si) return true;
    return false;
}

/* Every group: each group's slot under a child node "<node>_group<g>" (identity transform) so
 * a viewer can switch the alternatives on and off; a slot several groups share appears once,
 * under the first of them. */
static ue_result add_every_group(node_export *x, size_t n, const char *nm, int32_t scene_node) {
    ue_result r = UE_OK;
    for (int g = 0; g < UE_MSH_GROUPS && r == UE_OK; g++) {
        uint16_t si = ue_msh_slot_index(x->m, n, x->o->lod, g, 0);
        if (si == UE_MSH_NONE || slot_seen_in_earlier_group(x->m, n, x->o->lod, g, si)) continue;
        char mname[96], cname[sizeof x->s->nodes[0].name];
        snprintf(mname, sizeof mname, "%s_lod%d_group%d", nm, x->o->lod, g);
        int32_t mesh = -1;
        r = add_slot_mesh(x->m, x->s, si, mname, x->mm, x->bad_normals, &mesh);
        if (r != UE_OK || mesh < 0) continue;
        snprintf(cname, sizeof cname, "%.*s_group%d", (int)sizeof cname - 8, nm, g);
        int32_t child = ue_scene_add_node(x->s, cname, scene_node);
        if (child < 0) return UE_ERR_NOMEM;
        ue_scene_node *cn = &x->s->nodes[child];
        /* The child's source is the node's slot word for this LOD and group. */
        cn->source = sid(1, record_offset(x->m, UE_MSH_NODES, 8 + 2 * (size_t)(x->o->lod * UE_MSH_GROUPS + g),
                                          UE_MSH_NODE_STRIDE, n), n);
        cn->mesh = mesh;
    }
    return r;
}

/* The whole slot matrix (UE_MSH_LOD_ALL): each cell's slot under a child node
 * "<node>_lod<l>_group<g>" (identity transform), the convention the importer reads back
 * (docs/import.md#new-models). Cells of one node that share a slot share one mesh, so the
 * sharing survives the round trip. */
static ue_result add_every_cell(node_export *x, size_t n, const char *nm, int32_t scene_node) {
    int32_t cell_mesh[UE_MSH_LODS * UE_MSH_GROUPS];
    ue_result r = UE_OK;
    for (int c = 0; c < UE_MSH_LODS * UE_MSH_GROUPS && r == UE_OK; c++) {
        int lod = c / UE_MSH_GROUPS, g = c % UE_MSH_GROUPS, first = 0;
        uint16_t si = ue_msh_slot_index(x->m, n, lod, g, 0);
        cell_mesh[c] = -1;
        if (si == UE_MSH_NONE) continue;
        while (first < c && ue_msh_slot_index(x->m, n, first / UE_MSH_GROUPS, first % UE_MSH_GROUPS, 0) != si) first++;
        char cname[sizeof x->s->nodes[0].name];
        snprintf(cname, sizeof cname, "%.*s_lod%d_group%d", (int)sizeof cname - 13, nm, lod, g);
        if (first < c) {
            cell_mesh[c] = cell_mesh[first];
        } else {
            r = add_slot_mesh(x->m, x->s, si, cname, x->mm, x->bad_normals, &cell_mesh[c]);
        }
        if (r != UE_OK || cell_mesh[c] < 0) continue;
        int32_t child = ue_scene_add_node(x->s, cname, scene_node);
        if (child < 0) return UE_ERR_NOMEM;
        ue_scene_node *cn = &x->s->nodes[child];
        cn->source = sid(1, record_offset(x->m, UE_MSH_NODES, 8 + 2 * (size_t)c, UE_MSH_NODE_STRIDE, n), n);
        cn->mesh = cell_mesh[c];
    }
    return r;
}

/* The node tree in Res1 order; each node's rest pose from its fallback key. */
static ue_result add_node(node_export *x, size_t n, int32_t root, int32_t *scene_node) {
    const ue_msh *m = x->m;
    ue_scene *s = x->s;
    const char *raw = ue_msh_node_name(m, n);
    char nm[sizeof s->nodes[0].name];
    if (raw) ue_cp1251_to_utf8(raw, nm, sizeof nm); /* Res10 text is Windows-1251 */
    else snprintf(nm, sizeof nm, "node_%zu", n);
    uint16_t parent = m->nodes[n].parent;
    int32_t sp = parent != UE_MSH_NONE && parent < n ? scene_node[parent] : root;
    int32_t idx = ue_scene_add_node(s, nm, sp);
    if (idx < 0) return UE_ERR_NOMEM;
    scene_node[n] = idx;
    ue_scene_node *sn = &s->nodes[idx];
    sn->source = sid(1, record_offset(m, UE_MSH_NODES, 0, UE_MSH_NODE_STRIDE, n), n);
    float t[3], q[4];
    ue_msh_rest_pose(m, n, t, q);
    ue_parkan_vec_to_gltf(t, sn->translation);
    ue_parkan_quat_to_gltf(q, sn->rotation);
    if (x->o->lod == UE_MSH_LOD_ALL) return add_every_cell(x, n, nm, idx);
    return x->o->group == UE_MSH_GROUP_ALL ? add_every_group(x, n, nm, idx) : add_group_mesh(x, n, nm, idx);
}

/* The selection, so that import --base reads it rather than guessing (the file, entry and
 * scale are the caller's to add). With --lod all every group is shown too. */
static void record_selection(const ue_msh_export_options *o, ue_scene_selection *sel) {
    sel->recorded = true;
    snprintf(sel->format, sizeof sel->format, "msh");
    sel->has_lod = true;
    sel->lod = o->lod == UE_MSH_LOD_ALL ? UE_SELECTION_ALL : o->lod;
    sel->group = o->lod == UE_MSH_LOD_ALL || o->group == UE_MSH_GROUP_ALL ? UE_SELECTION_ALL : o->group;
    sel->fps = o->fps > 0 ? o->fps : UE_MSH_DEFAULT_FPS;
}

ue_result ue_msh_to_scene(const ue_msh *m, const char *name, const ue_msh_export_options *o,
                          ue_scene *s, ue_diag *d) {
    ue_msh_export_options def = {0, 0, 0};
    if (!o) o = &def;
    if (o->lod < UE_MSH_LOD_ALL || o->lod >= UE_MSH_LODS || o->group < UE_MSH_GROUP_ALL || o->group >= UE_MSH_GROUPS ||
        !(o->fps >= 0 && o->fps <= 1000)) {
        ue_diag_add(d, UE_SEV_ERROR, "msh.export.options", UE_NO_OFFSET, "msh",
                    "LOD must be 0..2 (or all), group 0..4 (or all) and fps 0..1000 (0 = default)");
        return UE_ERR_USAGE;
    }
    if (m->legacy_nodes || !m->nodes) {
        ue_diag_add(d, UE_SEV_ERROR, "msh.export.nodes", UE_NO_OFFSET, "msh/res1",
                    "no decodable node table (legacy stride-24 models are copy-through only)");
        return UE_ERR_UNSUPPORTED;
    }
    int32_t root = ue_scene_add_node(s, name && name[0] ? name : "model", -1);
    if (root < 0) return UE_ERR_NOMEM;
    int32_t *scene_node = malloc(m->node_count * sizeof *scene_node);
    material_map mm = {NULL, 0};
    if (!scene_node) return UE_ERR_NOMEM;
    size_t bad_normals = 0;
    node_export x = {m, o, s, &mm, &bad_normals};
    ue_result r = UE_OK;
    for (size_t n = 0; n < m->node_count && r == UE_OK; n++) r = add_node(&x, n, root, scene_node);
    if (r == UE_OK)
        r = ue_msh_anim_to_scene(m, scene_node, name, o->fps > 0 ? o->fps : UE_MSH_DEFAULT_FPS, s, d);
    if (bad_normals)
        ue_diag_add(d, UE_SEV_WARNING, "msh.export.zero_normal", UE_NO_OFFSET, "msh/res4",
                    "%zu zero normals exported as +Z (engine space)", bad_normals);
    free(scene_node);
    free(mm.scene_index);
    if (r == UE_OK) record_selection(o, &s->selection);
    return r;
}
