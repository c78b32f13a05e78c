/* unearth — edit mode's node matcher: which node of the base model's own export each glTF
 * node is, and which selection (LOD, group) the glTF was exported with. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parkan/msh_import_edit_int.h"

/* ---- matching the node trees ---------------------------------------------------------- */

bool ue_msh_edit_same_source(const ue_source_id *a, const ue_source_id *b) {
    return !strcmp(a->format, b->format) && a->type == b->type && a->offset == b->offset && a->index == b->index;
}

static bool is_msh_node_source(const ue_source_id *id) { return !strcmp(id->format, "msh") && id->type == UE_MSH_NODES; }

/* Base scene nodes by source id: sorted once, so matching is O(n log n) whatever the scene. */
typedef struct keyed { ue_source_id id; int32_t node; } keyed;

static int keyed_cmp(const void *pa, const void *pb) {
    const keyed *a = pa, *b = pb;
    if (a->id.index != b->id.index) return a->id.index < b->id.index ? -1 : 1;
    if (a->id.offset != b->id.offset) return a->id.offset < b->id.offset ? -1 : 1;
    return 0;
}

static int32_t find_keyed(const keyed *k, size_t n, const ue_source_id *id) {
    size_t lo = 0, hi = n;
    keyed probe = {*id, 0};
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = keyed_cmp(&k[mid], &probe);
        if (c == 0) return ue_msh_edit_same_source(&k[mid].id, id) ? k[mid].node : -1;
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return -1;
}

/* Base nodes by name, for scene nodes that lost their source id (an exporter that drops
 * extras, such as Blender without "custom properties"). */
typedef struct named { const char *name; int32_t node; } named;

static int named_cmp(const void *pa, const void *pb) {
    const named *a = pa, *b = pb;
    int c = strcmp(a->name, b->name);
    return c ? c : (a->node > b->node) - (a->node < b->node);
}

/* The one base node called `name`, or -1 when none or several are. */
static int32_t find_named(const named *nm, size_t n, const char *name) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(nm[mid].name, name) < 0) lo = mid + 1;
        else hi = mid;
    }
    if (lo >= n || strcmp(nm[lo].name, name) || (lo + 1 < n && !strcmp(nm[lo + 1].name, name))) return -1;
    return nm[lo].node;
}

/* Scene node i → base node: by source id; without one by its unique name, else the node at
 * the same index. */
static int32_t base_node_for(const edit_ctx *x, size_t i, const keyed *k, size_t kn, const named *nm) {
    const ue_scene_node *sn = &x->s->nodes[i];
    if (is_msh_node_source(&sn->source)) return find_keyed(k, kn, &sn->source);
    int32_t b = find_named(nm, x->base.node_count, sn->name);
    return b >= 0 ? b : (int32_t)i;
}

static bool map_nodes(edit_ctx *x, const keyed *k, size_t kn, const named *nm, bool *taken, char *why,
                      size_t cap) {
    for (size_t i = 0; i < x->s->node_count; i++) {
        const ue_scene_node *sn = &x->s->nodes[i];
        int32_t b = base_node_for(x, i, k, kn, nm);
        if (b < 0 || (size_t)b >= x->base.node_count || taken[b]) {
            snprintf(why, cap, "/nodes/%zu (\"%s\") matches no node of the base model", i, sn->name);
            return false;
        }
        taken[b] = true;
        x->b_of_s[i] = b;
    }
    for (size_t i = 0; i < x->s->node_count; i++) {
        int32_t sp = x->s->nodes[i].parent, bp = x->base.nodes[x->b_of_s[i]].parent;
        int32_t want = sp < 0 || (size_t)sp >= x->s->node_count ? -1 : x->b_of_s[sp];
        if (want != bp) {
            snprintf(why, cap, "/nodes/%zu (\"%s\") has a different parent than in the base model", i,
                     x->s->nodes[i].name);
            return false;
        }
    }
    return true;
}

/* Every scene mesh that names its slot must sit where the base put that slot. */
static bool meshes_agree(const edit_ctx *x, char *why, size_t cap) {
    for (size_t i = 0; i < x->s->node_count; i++) {
        int32_t sm = x->s->nodes[i].mesh, bm = x->base.nodes[x->b_of_s[i]].mesh;
        if (sm < 0 || (size_t)sm >= x->s->mesh_count || strcmp(x->s->meshes[sm].source.format, "msh")) continue;
        if (bm < 0 || !ue_msh_edit_same_source(&x->s->meshes[sm].source, &x->base.meshes[bm].source)) {
            snprintf(why, cap, "/nodes/%zu: its mesh is another slot than the base model's", i);
            return false;
        }
    }
    return true;
}

static bool tree_matches(edit_ctx *x, char *why, size_t cap) {
    if (x->s->node_count != x->base.node_count) {
        snprintf(why, cap, "the glTF has %zu nodes, the base model exports to %zu", x->s->node_count,
                 x->base.node_count);
        return false;
    }
    keyed *k = malloc((x->base.node_count + 1) * sizeof *k);
    named *nm = malloc((x->base.node_count + 1) * sizeof *nm);
    bool *taken = calloc(x->base.node_count + 1, sizeof *taken);
    size_t kn = 0;
    bool ok = k && nm && taken;
    for (size_t b = 0; ok && b < x->base.node_count; b++) {
        if (is_msh_node_source(&x->base.nodes[b].source)) k[kn++] = (keyed){x->base.nodes[b].source, (int32_t)b};
        nm[b] = (named){x->base.nodes[b].name, (int32_t)b};
    }
    if (ok) qsort(k, kn, sizeof *k, keyed_cmp);
    if (ok) qsort(nm, x->base.node_count, sizeof *nm, named_cmp);
    ok = ok && map_nodes(x, k, kn, nm, taken, why, cap) && meshes_agree(x, why, cap);
    free(k);
    free(nm);
    free(taken);
    return ok;
}

/* Base node → model node: regular nodes carry their Res1 record offset, group children a slot
 * word of it. */
void ue_msh_edit_map_model_nodes(edit_ctx *x) {
    int32_t e = x->m->entry_of[UE_MSH_NODES];
    uint64_t res1 = e < 0 ? 0 : x->m->container.entries[e].data_offset;
    for (size_t b = 0; b < x->base.node_count; b++) {
        const ue_source_id *id = &x->base.nodes[b].source;
        x->msh_of_b[b] = -1;
        if (is_msh_node_source(id) && id->index < x->m->node_count &&
            id->offset == res1 + (uint64_t)UE_MSH_NODE_STRIDE * id->index)
            x->msh_of_b[b] = (int32_t)id->index;
    }
}

/* The selections convert writes, the default first: (LOD, group) with UE_MSH_LOD_ALL for the
 * whole slot matrix and UE_MSH_GROUP_ALL for every group of one LOD. */
static const int selections[][2] = {{0, 0}, {0, UE_MSH_GROUP_ALL}, {UE_MSH_LOD_ALL, 0}, {1, 0},
                                    {1, UE_MSH_GROUP_ALL}, {2, 0}, {2, UE_MSH_GROUP_ALL}};

/* The selection the glTF was exported with: the first whose export of the base has this node
 * tree and these slots. */
ue_result ue_msh_edit_match_selection(edit_ctx *x) {
    char why[256] = "", first[256] = "";
    for (size_t k = 0; k < sizeof selections / sizeof selections[0]; k++) {
        ue_scene_free(&x->base);
        ue_scene_init(&x->base);
        x->eo.lod = selections[k][0];
        x->eo.group = selections[k][1];
        x->eo.fps = x->fps;
        ue_diag scratch = {0};
        ue_result r = ue_msh_to_scene(x->m, "model", &x->eo, &x->base, &scratch);
        ue_diag_free(&scratch);
        if (r == UE_ERR_NOMEM) return r;
        if (r == UE_OK && tree_matches(x, why, sizeof why)) return UE_OK;
        if (!first[0]) snprintf(first, sizeof first, "%s", r == UE_OK ? why : "the base model does not convert");
    }
    return ue_msh_edit_fail(x, "import.base.tree", "/nodes", "the node tree does not match the base model: %s", first);
}

