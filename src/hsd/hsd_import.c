/* unearth — edit-mode import of HSD models (docs/hsd-import.md): the vertex values a glTF changed,
 * written in place into a copy of the base DAT through the inverse skinning, every other byte kept. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "hsd/hsd_import_int.h"
#include "hsd/hsd_int.h"
#include "hsd/hsd_pose.h"
#include "hsd/hsd_to_scene.h"
#include "unearth/hsd_import.h"

/* How far a glTF position may lie from the base's own export and still be the same (hsd_import_vertices.c). */
#define POS_TOLERANCE HSD_POS_TOLERANCE

void hsd_edit_error(hsd_edit_ctx *x, const char *code, uint64_t offset, const char *path, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    ue_diag_addv(x->d, UE_SEV_ERROR, code, offset, path, fmt, ap);
    va_end(ap);
    x->errors++;
}

/* ---- matching (docs/hsd-import.md#matching) ------------------------------------------------- */

/* A glTF node name against the base's: equal, or equal once a client's ".NNN" suffix is cut. */
bool hsd_names_match(const char *gltf, const char *ref) {
    if (!strcmp(gltf, ref)) return true;
    size_t n = strlen(ref);
    if (strncmp(gltf, ref, n) || gltf[n] != '.' || !gltf[n + 1]) return false;
    for (const char *p = gltf + n + 1; *p; p++)
        if (*p < '0' || *p > '9') return false;
    return true;
}

static bool same_triangles(const ue_scene_primitive *a, const ue_scene_primitive *b) {
    return a->vertex_count == b->vertex_count && a->index_count == b->index_count &&
           (a->index_count == 0 || !memcmp(a->indices, b->indices, a->index_count * sizeof *a->indices));
}

/* Vertices whose positions are those of the base primitive: ranks candidates of equal triangles. */
static size_t position_score(const ue_scene_primitive *a, const ue_scene_primitive *b) {
    size_t n = 0;
    for (uint32_t v = 0; v < b->vertex_count && v < a->vertex_count; v++)
        n += hsd_close_to(&a->positions[3 * (size_t)v], &b->positions[3 * (size_t)v], 3, POS_TOLERANCE, POS_TOLERANCE);
    return n;
}

typedef struct ref_match {
    int32_t mesh, node;
    size_t prim;
    bool named;       /* some base mesh node has the glTF node's name */
    bool same_counts; /* some unclaimed primitive has the counts but other triangles */
    bool rebuild;     /* matched by its vertices: the triangles differ, the list is rebuilt */
    bool taken;       /* a primitive with the same counts was claimed by an earlier glTF node */
} ref_match;

/* The base primitive for glTF primitive `gp` of node `gnode`: an unclaimed primitive of a base
 * mesh node of the same name with the same triangles; among several, the one with the most
 * unmoved positions. With `rebuild`, one with as many vertices or fewer and other triangles, more
 * than half of its positions unmoved (convert's vertices, triangles added or deleted, new vertices
 * after the base's). */
static ref_match find_ref(const hsd_edit_ctx *x, const ue_scene_node *gnode, const ue_scene_primitive *gp, bool rebuild) {
    ref_match best = {-1, -1, 0, false, false, rebuild, false};
    size_t best_score = 0;
    for (size_t n = 0; n < x->ref->node_count; n++) {
        const ue_scene_node *rn = &x->ref->nodes[n];
        if (rn->mesh < 0 || !hsd_names_match(gnode->name, rn->name)) continue;
        best.named = true;
        const ue_scene_mesh *rm = &x->ref->meshes[rn->mesh];
        for (size_t p = 0; p < rm->primitive_count; p++) {
            const ue_scene_primitive *rp = &rm->primitives[p];
            if (x->claimed[x->claim_first[rn->mesh] + p]) {
                best.taken |= gp->vertex_count == rp->vertex_count && gp->index_count == rp->index_count;
                continue;
            }
            bool same = same_triangles(gp, rp);
            if (!same) best.same_counts |= gp->vertex_count == rp->vertex_count && gp->index_count == rp->index_count;
            if (same == rebuild || (rebuild && gp->vertex_count < rp->vertex_count)) continue;
            size_t score = position_score(gp, rp);
            if (rebuild && 2 * score <= rp->vertex_count) continue;
            if (best.mesh < 0 || score > best_score) {
                best.mesh = rn->mesh, best.node = (int32_t)n, best.prim = p;
                best_score = score;
            }
        }
    }
    return best;
}

/* ---- the whole scene ----------------------------------------------------------------------- */

static void report_unmatched(hsd_edit_ctx *x, const ue_scene_node *gn, int mesh, size_t p, const ref_match *rm) {
    char gpath[96];
    snprintf(gpath, sizeof gpath, "/meshes/%d/primitives/%zu", mesh, p);
    if (!rm->named)
        hsd_edit_error(x, "import.hsd.unmatched", UE_NO_OFFSET, gpath,
                   "node '%s' names no mesh of the base (convert names them <joint>_mesh); new meshes are not "
                   "written in edit mode yet", gn->name);
    else if (rm->taken && !rm->same_counts)
        hsd_edit_error(x, "import.hsd.duplicate", UE_NO_OFFSET, gpath,
                   "node '%s': the base's PObj with this primitive's %u vertices and %u triangles is already "
                   "edited by another glTF node of the same name (a duplicated node?); each PObj takes one",
                   gn->name, x->s->meshes[mesh].primitives[p].vertex_count,
                   x->s->meshes[mesh].primitives[p].index_count / 3);
    else if (rm->same_counts)
        hsd_edit_error(x, "import.hsd.topology", UE_NO_OFFSET, gpath,
                   "node '%s': the triangles or their vertex order differ from the base's PObj; edit mode keeps "
                   "the base's triangles", gn->name);
    else
        hsd_edit_error(x, "import.hsd.topology", UE_NO_OFFSET, gpath,
                   "node '%s': no PObj of the base has this primitive's %u vertices and %u triangles; edit mode "
                   "keeps the base's triangles", gn->name, x->s->meshes[mesh].primitives[p].vertex_count,
                   x->s->meshes[mesh].primitives[p].index_count / 3);
}

/* The materials of a matched primitive pair, once each, for the image and material edits. */
static void note_materials(hsd_edit_ctx *x, int32_t gltf, int32_t ref) {
    if (gltf < 0 || ref < 0) return;
    for (size_t i = 0; i < x->material_pair_count; i++)
        if (x->material_pairs[2 * i] == gltf && x->material_pairs[2 * i + 1] == ref) return;
    x->material_pairs[2 * x->material_pair_count] = gltf;
    x->material_pairs[2 * x->material_pair_count++ + 1] = ref;
}

/* Convert's own vertex order: every primitive of the node matched to a base primitive with the
 * same triangle list, then the rest to one with the same vertices (its list rebuilt), claimed in
 * found[]; false, nothing claimed, when one is left. */
static bool match_by_index(hsd_edit_ctx *x, const ue_scene_node *gn, ref_match *found, ref_match *first_miss) {
    const ue_scene_mesh *gm = &x->s->meshes[gn->mesh];
    bool all = true;
    for (int rebuild = 0; rebuild < 2; rebuild++)
        for (size_t p = 0; p < gm->primitive_count; p++) {
            if (rebuild && found[p].mesh >= 0) continue;
            found[p] = find_ref(x, gn, &gm->primitives[p], rebuild);
            if (found[p].mesh >= 0) x->claimed[x->claim_first[found[p].mesh] + found[p].prim] = true;
            else if (rebuild && all) *first_miss = found[p], all = false;
        }
    for (size_t p = 0; !all && p < gm->primitive_count; p++)
        if (found[p].mesh >= 0) x->claimed[x->claim_first[found[p].mesh] + found[p].prim] = false;
    return all;
}

static ue_result apply_by_index(hsd_edit_ctx *x, const ue_scene_node *gn, const ref_match *found) {
    const ue_scene_mesh *gm = &x->s->meshes[gn->mesh];
    bool nomem;
    free(x->joint_map);
    x->joint_map = hsd_skin_joint_map(x->s, (int32_t)(gn - x->s->nodes), x->ref, &x->joint_map_count, &nomem);
    if (nomem) return UE_ERR_NOMEM;
    for (size_t p = 0; p < gm->primitive_count && !x->errors; p++) {
        const ue_scene_primitive *rp = &x->ref->meshes[found[p].mesh].primitives[found[p].prim];
        note_materials(x, gm->primitives[p].material, rp->material);
        size_t pobjs = x->stats.pobjs;
        hsd_list_rebuild *rb = NULL;
        if (found[p].rebuild) {
            rb = &x->rebuilds[x->rebuild_count++];
            memset(rb, 0, sizeof *rb);
            rb->pobj = rp->source.index, rb->gp = &gm->primitives[p];
            snprintf(rb->gpath, sizeof rb->gpath, "/meshes/%d/primitives/%zu", gn->mesh, p);
        }
        ue_result r = hsd_apply_primitive(x, &gm->primitives[p], rp, gn->mesh, p, rp->source.index,
                                      (int32_t)x->ref->nodes[found[p].node].source.index, rb);
        if (r != UE_OK) return r;
        if (rb) x->stats.pobjs = pobjs + 1;
    }
    return UE_OK;
}

/* The base mesh node of gn's name none of whose primitives is claimed yet, or -1. */
static int32_t free_ref_node(const hsd_edit_ctx *x, const ue_scene_node *gn) {
    for (size_t n = 0; n < x->ref->node_count; n++) {
        const ue_scene_node *rn = &x->ref->nodes[n];
        if (rn->mesh < 0 || !hsd_names_match(gn->name, rn->name)) continue;
        bool any = false;
        for (size_t p = 0; p < x->ref->meshes[rn->mesh].primitive_count; p++) any |= x->claimed[x->claim_first[rn->mesh] + p];
        if (!any) return (int32_t)n;
    }
    return -1;
}

/* A client's re-export: the node's triangles found on the base mesh's by geometry. */
/* What matching by geometry found, reported: an error for what edit mode cannot take (triangles
 * without partners, too much work, no inverse, conflicting edits), a note when it matched. */
static void report_geometry(hsd_edit_ctx *x, const ue_scene_node *gn, const ue_scene_mesh *rm, const hsd_geometry_match *g,
                            const char *gpath) {
    if (g->over_budget)
        hsd_edit_error(x, "import.hsd.limit", UE_NO_OFFSET, gpath,
                   "node '%s': matching its triangles by geometry stopped after 50 million comparisons (many "
                   "triangles at one place)", gn->name);
    else if (g->unmatched_ref || g->unmatched_gltf)
        hsd_edit_error(x, "import.hsd.topology", UE_NO_OFFSET, gpath,
                   "node '%s': %zu of the base's triangles have no glTF triangle at the same place (corners at "
                   "the same positions or UVs) and %zu glTF triangles are left over; edit mode keeps the base's "
                   "triangles", gn->name, g->unmatched_ref, g->unmatched_gltf);
    else if (!g->conflicts)
        ue_diag_add(x->d, UE_SEV_INFO, "import.hsd.geometry", UE_NO_OFFSET, gpath,
                    "node '%s': vertices matched by their triangles' geometry (the glTF's vertex order or "
                    "primitives differ from the base's)", gn->name);
    if (!x->errors && g->singular)
        hsd_edit_error(x, "import.hsd.singular", UE_DAT_HEADER + (uint64_t)rm->primitives[g->singular_prim].source.offset,
                   gpath, "node '%s': %zu edited vertices (the first: vertex %u of PObj %zu) are placed by a matrix "
                   "that has no inverse (an envelope whose joints' blend flattens space), so their positions cannot "
                   "be taken back into the stored space", gn->name, g->singular, g->singular_vertex,
                   (size_t)rm->primitives[g->singular_prim].source.index);
    if (!x->errors && g->conflicts)
        hsd_edit_error(x, "import.hsd.conflict", UE_NO_OFFSET, gpath,
                   "node '%s': %zu base vertices are edited differently by the glTF corners drawn there (a split "
                   "vertex given two values)", gn->name, g->conflicts);
}

static ue_result apply_by_geometry(hsd_edit_ctx *x, const ue_scene_node *gn, int32_t ref_node) {
    const ue_scene_node *rn = &x->ref->nodes[ref_node];
    const ue_scene_mesh *gm = &x->s->meshes[gn->mesh], *rm = &x->ref->meshes[rn->mesh];
    char gpath[64];
    snprintf(gpath, sizeof gpath, "/meshes/%d", gn->mesh);
    hsd_geometry_match g;
    free(x->joint_map); /* a client's re-export keeps the base's weights */
    x->joint_map = NULL, x->joint_map_count = 0;
    ue_result r = hsd_match_geometry(x->s, (int32_t)(gn - x->s->nodes), x->ref, ref_node, &g);
    if (r == UE_ERR_INVALID) {
        hsd_edit_error(x, "import.hsd.topology", UE_NO_OFFSET, gpath,
                   "node '%s': its skin's joints or its node have no world matrix (a parent cycle)", gn->name);
        r = UE_OK, g.over_budget = false, g.unmatched_ref = g.unmatched_gltf = g.conflicts = 0;
    }
    if (r == UE_OK) report_geometry(x, gn, rm, &g, gpath);
    for (size_t p = 0; r == UE_OK && !x->errors && p < rm->primitive_count; p++) {
        const ue_scene_primitive *rp = &rm->primitives[p];
        x->claimed[x->claim_first[rn->mesh] + p] = true;
        int32_t gp = g.gltf_prim[p];
        if (gp >= 0) note_materials(x, gm->primitives[gp].material, rp->material);
        r = hsd_apply_primitive(x, &g.virt[p], rp, gn->mesh, gp >= 0 ? (size_t)gp : 0, rp->source.index,
                            (int32_t)rn->source.index, NULL);
    }
    hsd_geometry_match_free(&g);
    return r;
}

static ue_result apply_nodes(hsd_edit_ctx *x) {
    for (size_t n = 0; n < x->s->node_count && !x->errors; n++) {
        const ue_scene_node *gn = &x->s->nodes[n];
        if (gn->mesh < 0) continue;
        const ue_scene_mesh *gm = &x->s->meshes[gn->mesh];
        ref_match *found = malloc((gm->primitive_count + 1) * sizeof *found), miss = {-1, -1, 0, false, false, false, false};
        if (!found) return UE_ERR_NOMEM;
        ue_result r = UE_OK;
        int32_t ref_node;
        if (match_by_index(x, gn, found, &miss)) r = apply_by_index(x, gn, found);
        else if ((ref_node = free_ref_node(x, gn)) >= 0) r = apply_by_geometry(x, gn, ref_node);
        else report_unmatched(x, gn, gn->mesh, 0, &miss);
        free(found);
        if (r != UE_OK) return r;
    }
    return UE_OK;
}

/* A rebuilt PObj that another DObj draws too would change that mesh with it: refused (one drawn
 * by two rebuilt primitives hsd_rebuild_lists refuses itself). */
static void check_shared_rebuilds(hsd_edit_ctx *x) {
    for (size_t i = 0; i < x->rebuild_count && !x->errors; i++) {
        const hsd_list_rebuild *rb = &x->rebuilds[i];
        size_t users = 0; /* DObjs whose PObj chain holds it (convert draws a shared one once) */
        for (size_t o = 0; o < x->m->dobj_count; o++) {
            size_t steps = 0;
            for (int32_t p = x->m->dobjs[o].first_pobj; p >= 0 && (size_t)p < x->m->pobj_count &&
                                                        steps++ < x->m->pobj_count; p = x->m->pobjs[p].next)
                if ((size_t)p == rb->pobj) {
                    users++;
                    break;
                }
        }
        if (users > 1)
            hsd_edit_error(x, "import.hsd.conflict", UE_DAT_HEADER + (uint64_t)x->m->pobjs[rb->pobj].offset, rb->gpath,
                       "PObj %zu, whose triangles this primitive changes, is drawn by %zu DObjs of the base (a shared "
                       "PObj): the others would change with it; rebuilding a shared PObj is a later step",
                       rb->pobj, users);
    }
}

/* Every PObj the base draws must be in the glTF: deleting geometry is a later step. */
static void check_all_claimed(hsd_edit_ctx *x) {
    for (size_t n = 0; n < x->ref->node_count && !x->errors; n++) {
        const ue_scene_node *rn = &x->ref->nodes[n];
        if (rn->mesh < 0) continue;
        const ue_scene_mesh *rm = &x->ref->meshes[rn->mesh];
        for (size_t p = 0; p < rm->primitive_count; p++)
            if (!x->claimed[x->claim_first[rn->mesh] + p]) {
                hsd_edit_error(x, "import.hsd.missing", UE_DAT_HEADER + (uint64_t)rm->primitives[p].source.offset, "/meshes",
                           "the glTF has no primitive for PObj %zu of mesh node '%s' (%u vertices, %u triangles); "
                           "edit mode does not delete geometry", (size_t)rm->primitives[p].source.index, rn->name,
                           rm->primitives[p].vertex_count, rm->primitives[p].index_count / 3);
                return;
            }
    }
}

/* An edited array element that vertices the glTF left unchanged use too (PObjs sharing an array,
 * or records that share one element): they change with it, and the user is told. */
static void note_shared(hsd_edit_ctx *x) {
    size_t bytes = 0, first = 0;
    for (size_t i = 0; i < x->size; i++)
        if (x->written[i] && x->kept[i]) first = bytes++ ? first : i;
    if (bytes)
        ue_diag_add(x->d, UE_SEV_WARNING, "import.hsd.shared", first, "/meshes",
                    "%zu edited bytes of attribute arrays (the first at 0x%zx) are also used by vertices the glTF "
                    "left unchanged (PObjs sharing an array, or vertices sharing an element): those vertices change "
                    "with the edit", bytes, first);
}

/* Images and materials of the matched primitives (hsd_import_images.c, hsd_import_materials.c). */
static ue_result apply_images(hsd_edit_ctx *x) {
    hsd_image_edit_in in = {x->m, x->s, x->ref, x->bytes, x->written, x->size, x->material_pairs,
                            x->material_pair_count, x->d};
    size_t errors = 0;
    ue_result r = hsd_edit_images(&in, &x->stats.images, &errors);
    x->errors += errors;
    if (r != UE_OK || x->errors) return r;
    errors = 0;
    r = hsd_edit_materials(&in, &x->stats.materials, &errors);
    x->errors += errors;
    return r;
}

static ue_result ctx_init(hsd_edit_ctx *x, const uint8_t *base, size_t size) {
    size_t prims = 0;
    x->claim_first = malloc((x->ref->mesh_count + 1) * sizeof *x->claim_first);
    if (!x->claim_first) return UE_ERR_NOMEM;
    for (size_t i = 0; i < x->ref->mesh_count; i++) x->claim_first[i] = prims, prims += x->ref->meshes[i].primitive_count;
    x->claimed = calloc(prims + 1, sizeof *x->claimed);
    x->material_pairs = malloc((2 * prims + 2) * sizeof *x->material_pairs); /* one pair per claimed primitive */
    x->rebuilds = malloc((prims + 1) * sizeof *x->rebuilds);
    x->bytes = malloc(size ? size : 1);
    x->written = calloc(size ? size : 1, 1);
    x->kept = calloc(size ? size : 1, 1);
    if (!x->claimed || !x->material_pairs || !x->rebuilds || !x->bytes || !x->written || !x->kept) return UE_ERR_NOMEM;
    memcpy(x->bytes, base, size);
    x->size = size;
    return UE_OK;
}

static void ctx_free(hsd_edit_ctx *x) {
    free(x->claim_first);
    free(x->claimed);
    free(x->material_pairs);
    for (size_t i = 0; x->rebuilds && i < x->rebuild_count; i++) {
        free(x->rebuilds[i].new_records), free(x->rebuilds[i].new_index);
        free(x->rebuilds[i].base_at);
    }
    free(x->rebuilds);
    free(x->bytes);
    free(x->written);
    free(x->kept);
    free(x->joint_map);
    hsd_layout_edits_free(&x->layout);
    hsd_pose_free(&x->pose);
}

/* The edited bytes read back as the game's loader and unearth's strict reader would. */
static ue_result check_result(const uint8_t *bytes, size_t size, ue_diag *d) {
    ue_dat dat;
    ue_hsd_model m;
    memset(&m, 0, sizeof m);
    ue_result r = ue_dat_parse(bytes, size, UE_MODE_STRICT, &dat, d);
    if (r == UE_OK) r = ue_hsd_model_read(&dat, UE_MODE_STRICT, &m, d);
    ue_hsd_model_free(&m);
    ue_dat_free(&dat);
    return r;
}

/* Set `set`'s position among the model's scene_data ModelSets (0: what a PKX plays), -1 for none or
 * a `*_joint` root's set. */
static int32_t scene_model_position(const ue_hsd_model *m, int32_t set) {
    int32_t position = 0;
    for (int32_t i = 0; set >= 0 && (size_t)set < m->set_count && i <= set; i++) {
        bool scene = m->sets[i].root_name && !strcmp(m->sets[i].root_name, "scene_data");
        if (i == set) return scene ? position : -1;
        position += scene;
    }
    return -1;
}

/* The in-place edits of every matched node, then the checks over all of them and the images and
 * materials: x->errors counts the refusals. */
static ue_result apply_edits(hsd_edit_ctx *x, const uint8_t *base, size_t size) {
    ue_result r = hsd_pose_compute(x->m, UE_MODE_STRICT, &x->pose, x->d);
    if (r == UE_OK) r = ctx_init(x, base, size);
    if (r == UE_OK) r = apply_nodes(x);
    if (r == UE_OK) check_all_claimed(x);
    if (r == UE_OK) check_shared_rebuilds(x);
    if (r == UE_OK && !x->errors) r = apply_images(x);
    if (r == UE_OK && !x->errors) note_shared(x);
    if (r == UE_OK && x->errors) r = UE_ERR_INVALID;
    return r;
}

/* The edited DAT into `out`: x->bytes as edited in place, or, when the edits change the file's
 * structure (new envelopes or arrays, rebuilt lists, clips), laid out anew in one writer pass. */
static ue_result write_result(hsd_edit_ctx *x, const uint8_t *base, size_t size, hsd_clip_plan *clips, ue_buf *out) {
    bool restructured = x->layout.envelope_count || x->layout.wide_count;
    bool relayout = restructured || x->rebuild_count || clips->count;
    ue_buf relaid = {0};
    ue_result r = UE_OK;
    if (restructured) r = hsd_check_layout(x->m, base, size, "a new envelope or a widened attribute", x->d);
    if (r == UE_OK && relayout)
        r = hsd_rebuild_lists(x->bytes, x->size, restructured ? &x->layout : NULL, x->rebuilds, x->rebuild_count,
                              clips, &relaid, &x->stats.triangles, x->d);
    const uint8_t *result = relayout ? relaid.data : x->bytes;
    size_t result_size = relayout ? relaid.size : x->size;
    if (r == UE_OK) r = check_result(result, result_size, x->d);
    if (r == UE_OK && !ue_buf_try_reserve(out, result_size)) r = UE_ERR_NOMEM;
    if (r == UE_OK) ue_buf_put(out, result, result_size);
    ue_buf_free(&relaid);
    return r;
}

static void count_clips(hsd_edit_ctx *x, const hsd_clip_plan *clips, const ue_hsd_edit_stats *stats, ue_result r) {
    x->stats.lists = x->rebuild_count;
    x->stats.clips = clips->count - clips->added, x->stats.clips_added = clips->added, x->stats.clips_kept = clips->kept;
    x->stats.anim_index = stats ? stats->anim_index : NULL;
    if (r == UE_OK && x->stats.anim_index && x->s->animation_count)
        memcpy(x->stats.anim_index, clips->anim_index, x->s->animation_count * sizeof *clips->anim_index);
    x->stats.anim_model = stats ? stats->anim_model : NULL;
    for (size_t a = 0; r == UE_OK && x->stats.anim_model && a < x->s->animation_count; a++)
        x->stats.anim_model[a] = scene_model_position(x->m, clips->anim_set[a]);
}

static ue_result edit_model(const ue_hsd_model *m, const uint8_t *base, size_t size, const char *name,
                            const ue_scene *s, ue_buf *out, ue_hsd_edit_stats *stats, ue_diag *d) {
    ue_scene ref;
    ue_scene_init(&ref);
    ue_diag conv = {0};
    ue_result r = hsd_model_to_scene(m, name, UE_MODE_STRICT, &ref, &conv);
    if (r != UE_OK) ue_diag_append(d, &conv, UE_SEV_INFO);
    ue_diag_free(&conv);
    hsd_edit_ctx x;
    memset(&x, 0, sizeof x);
    x.m = m, x.s = s, x.ref = &ref, x.d = d;
    if (r == UE_OK) r = apply_edits(&x, base, size);
    hsd_clip_plan clips = {0};
    if (r == UE_OK) r = hsd_plan_clips(m, s, &ref, &clips, d);
    if (r == UE_OK) r = write_result(&x, base, size, &clips, out);
    count_clips(&x, &clips, stats, r);
    hsd_clip_plan_free(&clips);
    if (r == UE_OK && stats) *stats = x.stats;
    ctx_free(&x);
    ue_scene_free(&ref);
    return r;
}

ue_result ue_hsd_apply_scene(const uint8_t *base, size_t size, const char *name, const ue_scene *s, ue_buf *out,
                             ue_hsd_edit_stats *stats, ue_diag *d) {
    if (!base || !s || !out) return UE_ERR_USAGE;
    int32_t *anim_index = stats ? stats->anim_index : NULL, *anim_model = stats ? stats->anim_model : NULL;
    if (stats) memset(stats, 0, sizeof *stats), stats->anim_index = anim_index, stats->anim_model = anim_model;
    ue_dat dat;
    ue_hsd_model m;
    memset(&m, 0, sizeof m);
    ue_result r = ue_dat_parse(base, size, UE_MODE_STRICT, &dat, d);
    if (r == UE_OK) r = ue_hsd_model_read(&dat, UE_MODE_STRICT, &m, d);
    if (r == UE_OK) r = edit_model(&m, base, size, name, s, out, stats, d);
    ue_hsd_model_free(&m);
    ue_dat_free(&dat);
    return r;
}
