/* unearth — a scene IR back into a new Parkan MSH (docs/formats/msh.md#conversion-rules): the node tree, names, rest
 * poses, the LOD/group slot matrix of docs/import.md and the material rows; geometry and the
 * clip are built by msh_import_mesh.c and msh_import_anim.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parkan/msh_import_int.h"
#include "parkan/parkan_axes.h"

#define TRS_EPS 1e-4f /* how far from identity a transform may be and still count as identity */

static bool near(float a, float b) { return fabsf(a - b) <= TRS_EPS; }

static bool unit_scale(const ue_scene_node *n) {
    return near(n->scale[0], 1) && near(n->scale[1], 1) && near(n->scale[2], 1);
}

static bool identity_trs(const ue_scene_node *n) {
    const float *t = n->translation, *q = n->rotation;
    bool rot = near(q[0], 0) && near(q[1], 0) && near(q[2], 0) && near(fabsf(q[3]), 1);
    return near(t[0], 0) && near(t[1], 0) && near(t[2], 0) && rot && unit_scale(n);
}

/* Which scene nodes some animation channel moves (any clip, any node target). */
static bool *animated_nodes(const ue_scene *s) {
    bool *a = calloc(s->node_count + 1, sizeof *a);
    if (!a) return NULL;
    for (size_t k = 0; k < s->animation_count; k++)
        for (size_t c = 0; c < s->animations[k].channel_count; c++) {
            const ue_anim_channel *ch = &s->animations[k].channels[c];
            if (ch->node >= 0 && (size_t)ch->node < s->node_count) a[ch->node] = true;
        }
    return a;
}

/* The root node convert adds (named after the model): the only root, without mesh, skin or
 * animation, at identity, with children. A scene with several roots, or whose root carries
 * anything, has no wrapper: every node is a model node. */
static int32_t find_wrapper(const ue_scene *s, const bool *animated) {
    int32_t root = -1;
    for (size_t i = 0; i < s->node_count; i++) {
        if (s->nodes[i].parent >= 0) continue;
        if (root >= 0) return -1;
        root = (int32_t)i;
    }
    if (root < 0) return -1;
    const ue_scene_node *n = &s->nodes[root];
    bool has_child = false;
    for (size_t i = 0; i < s->node_count && !has_child; i++) has_child = s->nodes[i].parent == root;
    return n->mesh < 0 && n->skin < 0 && !animated[root] && identity_trs(n) && has_child ? root : -1;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* "<parent>_lod<l>_group<g>" or "<parent>_group<g>" (LOD 0): the cell, or false. A parent name
 * cut to fit the IR's 63 bytes still matches as a prefix. */
static bool holder_name(const char *child, const char *parent, int *lod, int *group) {
    size_t n = strlen(child), suffix = 7;
    if (n < 7 || strncmp(child + n - 7, "_group", 6) != 0 || !is_digit(child[n - 1])) return false;
    *group = child[n - 1] - '0';
    *lod = 0;
    if (n >= 12 && !strncmp(child + n - 12, "_lod", 4) && is_digit(child[n - 8])) {
        *lod = child[n - 8] - '0';
        suffix = 12;
    }
    if (*lod >= UE_MSH_LODS || *group >= UE_MSH_GROUPS) return false;
    size_t prefix = n - suffix, plen = strlen(parent);
    return strncmp(child, parent, prefix) == 0 && (prefix == plen || (prefix < plen && n == 63));
}

/* Children of every scene node as one array of runs (first[i] .. first[i + 1]), scene order. */
typedef struct child_lists {
    size_t *first;
    int32_t *items;
} child_lists;

static bool child_lists_build(const ue_scene *s, child_lists *cl) {
    cl->first = calloc(s->node_count + 2, sizeof *cl->first);
    cl->items = malloc((s->node_count + 1) * sizeof *cl->items);
    if (!cl->first || !cl->items) return false;
    for (size_t i = 0; i < s->node_count; i++)
        if (s->nodes[i].parent >= 0) cl->first[s->nodes[i].parent + 2]++;
    for (size_t i = 2; i < s->node_count + 2; i++) cl->first[i] += cl->first[i - 1];
    for (size_t i = 0; i < s->node_count; i++)
        if (s->nodes[i].parent >= 0) cl->items[cl->first[s->nodes[i].parent + 1]++] = (int32_t)i;
    return true;
}

static void child_lists_free(child_lists *cl) {
    free(cl->first);
    free(cl->items);
}

static size_t child_count(const child_lists *cl, size_t node) { return cl->first[node + 1] - cl->first[node]; }

/* Holders: children named after their parent's cell, carrying a mesh. They may not have
 * children or animation of their own (MSH has nothing to keep them in). */
static void mark_holders(ue_msh_import *im, const bool *animated, const child_lists *cl) {
    const ue_scene *s = im->s;
    for (size_t i = 0; i < s->node_count; i++) {
        const ue_scene_node *n = &s->nodes[i];
        int lod, group;
        if (n->parent < 0 || n->mesh < 0 || im->msh_of_scene[n->parent] == UE_IMPORT_WRAPPER ||
            !holder_name(n->name, s->nodes[n->parent].name, &lod, &group))
            continue;
        char path[32];
        snprintf(path, sizeof path, "/nodes/%zu", i);
        if (child_count(cl, i) > 0 || animated[i])
            ue_parse_error(&im->c, "msh.import.holder", UE_NO_OFFSET, path,
                           "node '%s' holds LOD %d group %d of its parent, so it can have neither "
                           "children nor animation", n->name, lod, group);
        im->msh_of_scene[i] = UE_IMPORT_HOLDER;
    }
}

#define PENDING (-3) /* a model node not numbered yet */

/* Model nodes in scene order when every parent comes before its children (convert's output,
 * so a converted model keeps its node indices), else parents first by generations, siblings
 * in scene order. Linear: the IR's parent links are acyclic (ue_scene_validate). */
static size_t order_nodes(ue_msh_import *im, const child_lists *cl) {
    const ue_scene *s = im->s;
    bool scene_order = true;
    for (size_t i = 0; i < s->node_count; i++) {
        int32_t p = s->nodes[i].parent;
        if (im->msh_of_scene[i] == PENDING && p >= 0 && (size_t)p > i) scene_order = false;
    }
    size_t count = 0;
    for (size_t i = 0; i < s->node_count; i++) {
        bool top = s->nodes[i].parent < 0 || im->msh_of_scene[s->nodes[i].parent] != PENDING;
        if (im->msh_of_scene[i] == PENDING && (scene_order || top)) im->scene_of_msh[count++] = (int32_t)i;
    }
    for (size_t at = 0; !scene_order && at < count; at++) {
        size_t p = (size_t)im->scene_of_msh[at];
        for (size_t k = cl->first[p]; k < cl->first[p + 1]; k++)
            if (im->msh_of_scene[cl->items[k]] == PENDING) im->scene_of_msh[count++] = cl->items[k];
    }
    for (size_t k = 0; k < count; k++) im->msh_of_scene[im->scene_of_msh[k]] = (int32_t)k;
    return count;
}

/* Res10 name of model node k in CP1251; "" for none (an empty name, or "node_<k>", which
 * convert writes for a node without one). */
static void node_name(ue_msh_import *im, size_t k, char out[64]) {
    const ue_scene_node *n = &im->s->nodes[im->scene_of_msh[k]];
    char fallback[32];
    snprintf(fallback, sizeof fallback, "node_%zu", k);
    out[0] = 0;
    if (!n->name[0] || !strcmp(n->name, fallback)) return;
    uint32_t bad = 0;
    size_t at = 0;
    if (ue_utf8_to_cp1251(n->name, out, 64, NULL, &bad, &at) == UE_OK) return;
    char path[32];
    snprintf(path, sizeof path, "/nodes/%d/name", im->scene_of_msh[k]);
    if (bad == UINT32_MAX)
        ue_parse_error(&im->c, "msh.import.name", UE_NO_OFFSET, path,
                       "node name '%s' is not UTF-8 at byte %zu", n->name, at);
    else
        ue_parse_error(&im->c, "msh.import.name", UE_NO_OFFSET, path,
                       "node name '%s' holds U+%04X at byte %zu, which Windows-1251 (the code page "
                       "of Res10) lacks", n->name, (unsigned)bad, at);
    out[0] = 0;
}

/* A node's glTF rest transform as its fallback key, in engine axes. Scale has no place in
 * Res8, so a node with one is refused. */
static void rest_key(ue_msh_import *im, size_t k) {
    const ue_scene_node *n = &im->s->nodes[im->scene_of_msh[k]];
    if (!unit_scale(n)) {
        char path[32];
        snprintf(path, sizeof path, "/nodes/%d/scale", im->scene_of_msh[k]);
        ue_parse_error(&im->c, "msh.import.scale", UE_NO_OFFSET, path,
                       "node '%s' has scale (%g, %g, %g); MSH nodes have translation and rotation only "
                       "(apply the scale to the mesh)", n->name, n->scale[0], n->scale[1], n->scale[2]);
    }
    ue_msh_key *key = &im->m->keys[im->m->nodes[k].fallback_key];
    float q[4], len = 0;
    ue_parkan_vec_from_gltf(n->translation, key->position);
    ue_parkan_quat_from_gltf(n->rotation, q);
    for (int c = 0; c < 4; c++) len += q[c] * q[c];
    len = sqrtf(len);
    for (int c = 0; c < 4; c++) q[c] = len > 0 ? q[c] / len : (c == 3);
    ue_msh_encode_quat(q, key->quat);
}

/* The batch material index of a scene material: extras.wear_row (what convert writes), else a
 * name "material_<n>", else -1. */
static long explicit_row(const ue_scene_material *mat) {
    for (size_t k = 0; k < mat->extras.count; k++) {
        const ue_extra *x = &mat->extras.items[k];
        if (!strcmp(x->key, "wear_row") && x->kind == UE_EXTRA_NUMBER && x->number >= 0 &&
            x->number <= 65535 && x->number == floor(x->number))
            return (long)x->number;
    }
    const char *digits = !strncmp(mat->name, "material_", 9) ? mat->name + 9 : NULL;
    if (!digits || !digits[0] || strlen(digits) > 5 || strspn(digits, "0123456789") != strlen(digits)) return -1;
    long row = strtol(digits, NULL, 10);
    return row <= 65535 ? row : -1;
}

/* Rows for every scene material: explicit ones kept, the others numbered after the highest
 * explicit row in material order (docs/import.md). */
static ue_result material_rows(ue_msh_import *im) {
    const ue_scene *s = im->s;
    im->material_row = calloc(s->material_count + 1, sizeof *im->material_row);
    if (!im->material_row) return UE_ERR_NOMEM;
    long next = 0;
    for (size_t i = 0; i < s->material_count; i++) {
        long row = explicit_row(&s->materials[i]);
        if (row >= next) next = row + 1;
    }
    for (size_t i = 0; i < s->material_count; i++) {
        long row = explicit_row(&s->materials[i]);
        if (row < 0) row = next <= 65535 ? next++ : 65535;
        im->material_row[i] = (uint16_t)row;
    }
    return UE_OK;
}

/* `convert --group all --lod L` names its holders "<node>_group<g>" and their meshes
 * "<node>_lod<L>_group<g>": the mesh name gives such a holder its LOD back. */
static bool lod_suffix(const char *name, int *lod, int *group) {
    size_t n = strlen(name);
    if (n < 12 || strncmp(name + n - 12, "_lod", 4) != 0 || !is_digit(name[n - 8]) ||
        strncmp(name + n - 7, "_group", 6) != 0 || !is_digit(name[n - 1]))
        return false;
    *lod = name[n - 8] - '0', *group = name[n - 1] - '0';
    return true;
}

static int lod_of_group_holder(const ue_scene *s, const ue_scene_node *holder, int lod, int group) {
    int named_lod, named_group, mesh_lod, mesh_group;
    if (lod_suffix(holder->name, &named_lod, &named_group)) return lod; /* its own name says */
    if (!lod_suffix(s->meshes[holder->mesh].name, &mesh_lod, &mesh_group) || mesh_group != group ||
        mesh_lod >= UE_MSH_LODS)
        return lod;
    return mesh_lod;
}

/* The slot matrix: a model node's own mesh is LOD 0 group 0, each holder child its cell. */
static void fill_cells(ue_msh_import *im) {
    const ue_scene *s = im->s;
    for (size_t k = 0; k < im->node_count; k++)
        for (int c = 0; c < UE_IMPORT_CELLS; c++) im->cells[k][c] = (ue_import_cell){-1, -1};
    for (size_t i = 0; i < s->node_count; i++) {
        const ue_scene_node *n = &s->nodes[i];
        int32_t k = im->msh_of_scene[i];
        int lod = 0, group = 0;
        if (n->mesh < 0 || k == UE_IMPORT_WRAPPER) continue;
        if (k == UE_IMPORT_HOLDER) {
            k = im->msh_of_scene[n->parent];
            holder_name(n->name, s->nodes[n->parent].name, &lod, &group);
            lod = lod_of_group_holder(s, &s->nodes[i], lod, group);
        }
        ue_import_cell *cell = &im->cells[k][lod * UE_MSH_GROUPS + group];
        if (cell->mesh >= 0) {
            char path[32];
            snprintf(path, sizeof path, "/nodes/%zu", i);
            ue_parse_error(&im->c, "msh.import.cell", UE_NO_OFFSET, path,
                           "LOD %d group %d of node '%s' is already given by node %d", lod, group,
                           s->nodes[im->scene_of_msh[k]].name, cell->holder);
            continue;
        }
        *cell = (ue_import_cell){n->mesh, (int32_t)i};
    }
}

/* Nodes: the wrapper left out, holders folded into their parent's cells, the rest numbered. */
static ue_result classify(ue_msh_import *im) {
    const ue_scene *s = im->s;
    bool *animated = animated_nodes(s);
    child_lists cl = {NULL, NULL};
    im->msh_of_scene = malloc((s->node_count + 1) * sizeof *im->msh_of_scene);
    im->scene_of_msh = malloc((s->node_count + 1) * sizeof *im->scene_of_msh);
    ue_result r = UE_ERR_NOMEM;
    if (animated && im->msh_of_scene && im->scene_of_msh && child_lists_build(s, &cl)) {
        for (size_t i = 0; i < s->node_count; i++) im->msh_of_scene[i] = PENDING;
        int32_t wrapper = find_wrapper(s, animated);
        if (wrapper >= 0) im->msh_of_scene[wrapper] = UE_IMPORT_WRAPPER;
        mark_holders(im, animated, &cl);
        im->node_count = order_nodes(im, &cl);
        r = UE_OK;
    }
    free(animated);
    child_lists_free(&cl);
    return r;
}

/* The model: ue_msh_new with parents and CP1251 names, and every node's rest key. */
static ue_result build_nodes(ue_msh_import *im) {
    size_t count = im->node_count;
    if (count == 0 || count >= UE_MSH_NONE) {
        ue_parse_error(&im->c, "msh.import.nodes", UE_NO_OFFSET, "/nodes",
                       "%zu model nodes: MSH holds 1..65534", count);
        return UE_OK;
    }
    uint16_t *parents = malloc(count * sizeof *parents);
    char (*names)[64] = malloc(count * sizeof *names);
    const char **name_of = malloc(count * sizeof *name_of);
    ue_result r = UE_ERR_NOMEM;
    if (parents && names && name_of) {
        for (size_t k = 0; k < count; k++) {
            int32_t p = im->s->nodes[im->scene_of_msh[k]].parent;
            parents[k] = p >= 0 && im->msh_of_scene[p] >= 0 ? (uint16_t)im->msh_of_scene[p] : UE_MSH_NONE;
            node_name(im, k, names[k]);
            name_of[k] = names[k];
        }
        r = ue_msh_new(im->m, count, parents, name_of);
        for (size_t k = 0; k < count && r == UE_OK; k++) rest_key(im, k);
    }
    free(parents);
    free(names);
    free(name_of);
    return r;
}

static void import_free(ue_msh_import *im) {
    free(im->msh_of_scene);
    free(im->scene_of_msh);
    free(im->cells);
    free(im->material_row);
}

/* The promise of the header: the model is written and parsed again in strict mode (what
 * `validate --strict` does with the file), and the parsed model, with its container laid out,
 * is what the caller gets. */
static ue_result reparse_strictly(ue_msh *m, ue_diag *d) {
    ue_buf bytes = {0};
    ue_result r = ue_msh_write(m, &bytes, d);
    ue_msh parsed;
    if (r == UE_OK) r = ue_msh_parse(bytes.data, bytes.size, UE_MODE_STRICT, &parsed, d);
    ue_buf_free(&bytes);
    if (r != UE_OK) return r;
    ue_msh_free(m);
    *m = parsed;
    return UE_OK;
}

ue_result ue_msh_from_scene(const ue_scene *s, const ue_msh_import_options *o, ue_msh *out, ue_diag *d) {
    ue_msh_init(out);
    if (!s) return UE_ERR_USAGE;
    float fps = o && o->fps > 0 ? o->fps : UE_MSH_DEFAULT_FPS;
    if (!(fps <= 1000)) {
        ue_diag_add(d, UE_SEV_ERROR, "msh.import.fps", UE_NO_OFFSET, "msh", "fps must be 1..1000");
        return UE_ERR_USAGE;
    }
    if (ue_scene_validate(s, d) != UE_OK) return UE_ERR_INVALID;
    ue_msh_import im;
    memset(&im, 0, sizeof im);
    im.s = s;
    im.m = out;
    im.c = ue_parse_begin(UE_MODE_STRICT, d);
    im.fps = fps;
    ue_result r = classify(&im);
    if (r == UE_OK && im.c.failure == UE_OK) r = build_nodes(&im);
    if (r == UE_OK && im.c.failure == UE_OK) {
        im.cells = malloc(im.node_count * sizeof *im.cells);
        r = im.cells ? material_rows(&im) : UE_ERR_NOMEM;
    }
    if (r == UE_OK && im.c.failure == UE_OK) fill_cells(&im);
    if (r == UE_OK && im.c.failure == UE_OK) r = ue_msh_import_geometry(&im);
    if (r == UE_OK && im.c.failure == UE_OK) r = ue_msh_import_animation(&im);
    if (r == UE_OK && im.c.failure == UE_OK) ue_msh_recompute_bounds(out);
    if (r == UE_OK) r = im.c.failure;
    if (r == UE_OK) r = reparse_strictly(out, d);
    import_free(&im);
    if (r != UE_OK) {
        ue_msh_free(out);
        ue_msh_init(out);
    }
    return r;
}
