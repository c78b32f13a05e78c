/* unearth — edit mode's matcher: which selection (LOD, group) a glTF was converted with, and
 * which node, mesh, primitive, material and texture of the base model's own export each of its
 * objects is, whatever order, names and extras the client that re-wrote the glTF left. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parkan/msh_import_edit_int.h"
#include "parkan/msh_materials.h"

bool ue_msh_edit_same_source(const ue_source_id *a, const ue_source_id *b) {
    return !strcmp(a->format, b->format) && a->type == b->type && a->offset == b->offset && a->index == b->index;
}

static bool is_msh_node_source(const ue_source_id *id) { return !strcmp(id->format, "msh") && id->type == UE_MSH_NODES; }

/* ---- names as clients give them back ------------------------------------------------------ */

/* The length of `name` without the ".NNN" a client appends to keep names unique (Blender:
 * "arm", "arm.001", "arm.002"), or its whole length when it has none. */
static size_t unsuffixed_len(const char *name) {
    size_t n = strlen(name), d = n;
    while (d > 0 && name[d - 1] >= '0' && name[d - 1] <= '9') d--;
    return n - d >= 3 && d > 1 && name[d - 1] == '.' ? d - 1 : n;
}

/* The length of `name` without its last ".ext": Blender names an exported image after its
 * own name with os.path.splitext applied ("ROBOT_BODY.0" comes back "ROBOT_BODY"). */
static size_t stem_len(const char *name) {
    const char *dot = strrchr(name, '.');
    return dot && dot != name ? (size_t)(dot - name) : strlen(name);
}

/* Base objects by name (or a prefix of it), sorted once so that each look-up is O(log n). */
typedef struct name_key { const char *text; size_t len; int32_t index; } name_key;

static int name_key_cmp(const void *pa, const void *pb) {
    const name_key *a = pa, *b = pb;
    int c = memcmp(a->text, b->text, a->len < b->len ? a->len : b->len);
    if (c) return c;
    if (a->len != b->len) return a->len < b->len ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

/* n names at `first`, `stride` bytes apart, each cut to cut(name) bytes (NULL: whole). */
static name_key *index_names(const char *first, size_t stride, size_t n, size_t (*cut)(const char *)) {
    name_key *k = malloc((n + 1) * sizeof *k);
    for (size_t i = 0; k && i < n; i++) {
        const char *t = first + i * stride;
        k[i] = (name_key){t, cut ? cut(t) : strlen(t), (int32_t)i};
    }
    if (k) qsort(k, n, sizeof *k, name_key_cmp);
    return k;
}

/* The one object whose key is text[0..len), or -1 when none or several are. */
static int32_t find_unique(const name_key *k, size_t n, const char *text, size_t len) {
    size_t lo = 0, hi = n;
    name_key probe = {text, len, -1};
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (name_key_cmp(&k[mid], &probe) < 0) lo = mid + 1;
        else hi = mid;
    }
    name_key after = {text, len, INT32_MAX};
    if (lo >= n || name_key_cmp(&k[lo], &after) > 0) return -1;
    if (lo + 1 < n && name_key_cmp(&k[lo + 1], &after) < 0) return -1;
    return k[lo].index;
}

/* three.js's rule for node names (PropertyBinding.sanitizeNodeName): white space becomes '_',
 * and "[", "]", ".", ":" and "/" are dropped ("robot.msh" comes back "robotmsh"). */
static void sanitise(const char *in, char out[64]) {
    size_t o = 0;
    for (; *in && o < 63; in++) {
        if (strchr("[].:/", *in)) continue;
        out[o++] = strchr(" \t\n\r\f\v", *in) ? '_' : *in;
    }
    out[o] = 0;
}

/* The length of `name` without the "_N" three.js appends to a name met before ("arm_1"). */
static size_t unnumbered_len(const char *name) {
    size_t n = strlen(name), d = n;
    while (d > 0 && name[d - 1] >= '0' && name[d - 1] <= '9') d--;
    return d < n && d > 1 && name[d - 1] == '_' ? d - 1 : n;
}

/* The base objects' names, whole, as stems (for images) and as three.js sanitises them. */
typedef struct name_index {
    name_key *full, *stems, *clean;
    char (*clean_text)[64];
    size_t n;
} name_index;

static bool name_index_build(name_index *ix, const char *first, size_t stride, size_t n, bool stems) {
    memset(ix, 0, sizeof *ix);
    ix->n = n;
    ix->clean_text = malloc((n + 1) * sizeof *ix->clean_text);
    for (size_t i = 0; ix->clean_text && i < n; i++) sanitise(first + i * stride, ix->clean_text[i]);
    ix->full = index_names(first, stride, n, NULL);
    ix->stems = stems ? index_names(first, stride, n, stem_len) : NULL;
    ix->clean = ix->clean_text ? index_names(ix->clean_text[0], sizeof ix->clean_text[0], n, NULL) : NULL;
    return ix->full && ix->clean && (!stems || ix->stems);
}

static void name_index_free(name_index *ix) {
    free(ix->full);
    free(ix->stems);
    free(ix->clean);
    free(ix->clean_text);
}

/* The base object a scene name stands for: the very name; or, `loosely` (a second pass, once
 * every exact name has taken its own), the name with a client's change undone: Blender's
 * ".NNN" suffix, Blender's image stem, three.js's sanitising and its "_N" suffix. */
static int32_t find_by_name(const name_index *ix, const char *name, bool loosely) {
    size_t len = strlen(name), u = unsuffixed_len(name), t = unnumbered_len(name);
    if (!loosely) return find_unique(ix->full, ix->n, name, len);
    int32_t b = u < len ? find_unique(ix->full, ix->n, name, u) : -1;
    if (b < 0 && ix->stems) b = find_unique(ix->stems, ix->n, name, len);
    if (b < 0) b = find_unique(ix->clean, ix->n, name, len);
    if (b < 0 && t < len) b = find_unique(ix->clean, ix->n, name, t);
    return b;
}

bool ue_msh_edit_same_name(const char *scene_name, const char *base_name) {
    size_t u = unsuffixed_len(scene_name);
    char clean[64];
    sanitise(base_name, clean);
    return !strcmp(scene_name, base_name) || (u == strlen(base_name) && !memcmp(scene_name, base_name, u)) ||
           !strcmp(scene_name, clean);
}

/* ---- base objects by source id ------------------------------------------------------------- */

typedef struct keyed { ue_source_id id; int32_t index; } keyed;

static int keyed_cmp(const void *pa, const void *pb) {
    const keyed *a = pa, *b = pb;
    int c = strcmp(a->id.format, b->id.format);
    if (c) return c;
    if (a->id.type != b->id.type) return a->id.type < b->id.type ? -1 : 1;
    if (a->id.index != b->id.index) return a->id.index < b->id.index ? -1 : 1;
    if (a->id.offset != b->id.offset) return a->id.offset < b->id.offset ? -1 : 1;
    return 0;
}

/* n source ids at `first`, `stride` bytes apart (objects without one are left out). */
static keyed *index_sources(const char *first, size_t stride, size_t n, size_t *kn) {
    keyed *k = malloc((n + 1) * sizeof *k);
    *kn = 0;
    for (size_t i = 0; k && i < n; i++) {
        const ue_source_id *id = (const ue_source_id *)(const void *)(first + i * stride);
        if (id->format[0]) k[(*kn)++] = (keyed){*id, (int32_t)i};
    }
    if (k) qsort(k, *kn, sizeof *k, keyed_cmp);
    return k;
}

/* The one base object with source id `id`, or -1. */
static int32_t find_source(const keyed *k, size_t n, const ue_source_id *id) {
    if (!id->format[0]) return -1;
    keyed probe = {*id, 0};
    const keyed *hit = bsearch(&probe, k, n, sizeof *k, keyed_cmp);
    if (!hit) return -1;
    bool twice = (hit > k && !keyed_cmp(hit - 1, &probe)) || (hit + 1 < k + n && !keyed_cmp(hit + 1, &probe));
    return twice ? -1 : hit->index;
}

/* ---- the node trees ------------------------------------------------------------------------ */

/* Children lists of a scene: node i's children are kids[first[i]..first[i + 1]), the roots
 * (and nodes whose parent is out of range) those of the virtual node n. */
typedef struct tree { int32_t *first, *kids; size_t n; } tree;

/* Node i's parent in the tree that is matched: -1 for a root, and for the child of a node the
 * client wrapped the model in (`wrapper`, may be NULL). */
static int32_t matched_parent(const ue_scene *s, const bool *wrapper, size_t i) {
    int32_t p = s->nodes[i].parent;
    return p < 0 || (size_t)p >= s->node_count || (wrapper && wrapper[p]) ? -1 : p;
}

/* Wrappers are in no list. */
static bool tree_build(tree *t, const ue_scene *s, const bool *wrapper) {
    size_t n = s->node_count;
    t->n = n;
    t->first = calloc(n + 3, sizeof *t->first);
    t->kids = malloc((n + 1) * sizeof *t->kids);
    if (!t->first || !t->kids) return false;
    for (size_t i = 0; i < n; i++) {
        int32_t p = matched_parent(s, wrapper, i);
        if (!wrapper || !wrapper[i]) t->first[(p < 0 ? n : (size_t)p) + 2]++;
    }
    for (size_t i = 2; i < n + 3; i++) t->first[i] += t->first[i - 1];
    for (size_t i = 0; i < n; i++) { /* counting sort: siblings keep their order */
        int32_t p = matched_parent(s, wrapper, i);
        if (!wrapper || !wrapper[i]) t->kids[t->first[(p < 0 ? n : (size_t)p) + 1]++] = (int32_t)i;
    }
    return true;
}

/* A root with one child, no mesh or skin and an identity transform: a wrapper, convert's own
 * (the node named after the model) or a client's (three.js puts its scene above the model). */
static bool is_plain_root(const ue_scene *s, int32_t i, const int32_t *child) {
    const ue_scene_node *nd = &s->nodes[i];
    bool identity = nd->rotation[3] == 1.0f;
    for (int k = 0; k < 3; k++)
        identity = identity && nd->translation[k] == 0.0f && nd->rotation[k] == 0.0f && nd->scale[k] == 1.0f;
    return identity && nd->mesh < 0 && nd->skin < 0 && child[i] >= 0;
}

/* The chain of plain roots from the one root down: its length, and each node's one child in
 * only_child (-1 for none or several). */
static size_t plain_root_chain(const ue_scene *s, int32_t *only_child, int32_t *top) {
    size_t roots = 0, len = 0;
    for (size_t i = 0; i < s->node_count; i++) only_child[i] = -2;
    for (size_t i = 0; i < s->node_count; i++) {
        int32_t p = s->nodes[i].parent;
        if (p < 0 || (size_t)p >= s->node_count) roots++, *top = (int32_t)i;
        else only_child[p] = only_child[p] == -2 ? (int32_t)i : -1;
    }
    for (size_t i = 0; i < s->node_count; i++) only_child[i] = only_child[i] < 0 ? -1 : only_child[i];
    for (int32_t at = roots == 1 ? *top : -1; at >= 0 && len < s->node_count && is_plain_root(s, at, only_child);
         at = only_child[at])
        len++;
    return roots == 1 ? len : 0;
}


static void tree_free(tree *t) {
    free(t->first);
    free(t->kids);
}

/* The last resort: what a node shows, which a client keeps while it renames and reorders: its
 * translation and number of children, and its mesh's triangle count and bounds (vertices are
 * re-split by clients, triangles and bounds are not), quantised to 1/1024 so that a re-written
 * float still compares equal. */
enum { GEO_KEYS = 11 };
typedef struct geo_key { long long v[GEO_KEYS]; int32_t index; } geo_key;

static long long quantise(float f) { return (long long)(f * 1024.0f + (f < 0 ? -0.5f : 0.5f)); }

/* A mesh's triangle count and quantised bounds, worked out once per mesh however many nodes
 * show it (a hostile glTF may show one large mesh from thousands of nodes). */
typedef struct mesh_box {
    bool done;
    long long tris, lo[3], hi[3];
} mesh_box;

static const mesh_box *mesh_box_of(const ue_scene_mesh *me, mesh_box *box) {
    if (box->done) return box;
    float lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    bool any = false;
    for (size_t p = 0; p < me->primitive_count; p++) {
        const ue_scene_primitive *pr = &me->primitives[p];
        box->tris += pr->index_count / 3;
        for (size_t v = 0; pr->positions && v < pr->vertex_count; v++, any = true)
            for (int k = 0; k < 3; k++) {
                float c = pr->positions[3 * v + (size_t)k];
                lo[k] = !any || c < lo[k] ? c : lo[k];
                hi[k] = !any || c > hi[k] ? c : hi[k];
            }
    }
    for (int k = 0; k < 3; k++) box->lo[k] = quantise(lo[k]), box->hi[k] = quantise(hi[k]);
    box->done = true;
    return box;
}

/* `boxes`: one per mesh of `s`, filled as they are first needed. */
static geo_key geometry_of(const ue_scene *s, const tree *t, int32_t i, mesh_box *boxes) {
    const ue_scene_node *nd = &s->nodes[i];
    geo_key g = {{0}, i};
    for (int k = 0; k < 3; k++) g.v[7 + k] = quantise(nd->translation[k]);
    g.v[10] = t->first[i + 1] - t->first[i];
    if (nd->mesh < 0 || (size_t)nd->mesh >= s->mesh_count) return g.v[0] = -1, g;
    const mesh_box *box = mesh_box_of(&s->meshes[nd->mesh], &boxes[nd->mesh]);
    g.v[0] = box->tris;
    for (int k = 0; k < 3; k++) g.v[1 + k] = box->lo[k], g.v[4 + k] = box->hi[k];
    return g;
}

static int geo_cmp(const void *pa, const void *pb) {
    const geo_key *a = pa, *b = pb;
    for (int k = 0; k < GEO_KEYS; k++)
        if (a->v[k] != b->v[k]) return a->v[k] < b->v[k] ? -1 : 1;
    return 0;
}

typedef struct matcher {
    edit_ctx *x;
    tree st, bt;       /* scene and base children lists */
    bool *taken;       /* per base node: matched */
    bool *wrapper;     /* per scene node: a node the client added that matches none: a root it
                          wrapped the model in, or a child it moved a quantised mesh into */
    int32_t *s_left, *b_left; /* scratch: one sibling group's unmatched nodes */
    geo_key *geo;      /* scratch: their geometry */
    mesh_box *sbox, *bbox; /* per scene / base mesh: its geometry, once */
} matcher;

/* The client's wrappers: the plain roots above the model that the base's export lacks. */
static bool find_wrappers(matcher *mt) {
    const ue_scene *s = mt->x->s, *b = mt->x->base;
    int32_t *child = malloc(((s->node_count > b->node_count ? s->node_count : b->node_count) + 1) * sizeof *child);
    if (!child) return false;
    int32_t top = -1, btop = -1;
    size_t bl = plain_root_chain(b, child, &btop), sl = plain_root_chain(s, child, &top);
    for (size_t k = 0; sl > bl && k < sl - bl; k++, top = child[top]) mt->wrapper[top] = true;
    free(child);
    return true;
}

static void pair(matcher *mt, int32_t s, int32_t b) {
    mt->x->b_of_s[s] = b;
    mt->taken[b] = true;
}

/* The unmatched children of scene node sp and of base node bp (-1: the roots), paired: one
 * each is the same node (renamed); several are paired by what they show, when that is unique. */
static void match_children(matcher *mt, int32_t sp, int32_t bp) {
    const tree *st = &mt->st, *bt = &mt->bt;
    size_t si = sp < 0 ? st->n : (size_t)sp, bi = bp < 0 ? bt->n : (size_t)bp, ns = 0, nb = 0;
    for (int32_t k = st->first[si]; k < st->first[si + 1]; k++)
        if (mt->x->b_of_s[st->kids[k]] < 0) mt->s_left[ns++] = st->kids[k];
    for (int32_t k = bt->first[bi]; k < bt->first[bi + 1]; k++)
        if (!mt->taken[bt->kids[k]]) mt->b_left[nb++] = bt->kids[k];
    if (ns > 1 && nb > 1) {
        for (size_t k = 0; k < nb; k++) mt->geo[k] = geometry_of(mt->x->base, bt, mt->b_left[k], mt->bbox);
        qsort(mt->geo, nb, sizeof *mt->geo, geo_cmp);
        for (size_t k = 0; k < ns; k++) {
            geo_key g = geometry_of(mt->x->s, st, mt->s_left[k], mt->sbox);
            geo_key *hit = bsearch(&g, mt->geo, nb, sizeof *mt->geo, geo_cmp);
            bool unique = hit && !(hit > mt->geo && !geo_cmp(hit - 1, &g)) &&
                          !(hit + 1 < mt->geo + nb && !geo_cmp(hit + 1, &g));
            if (unique && !mt->taken[hit->index]) pair(mt, mt->s_left[k], hit->index);
        }
        size_t s1 = 0, b1 = 0;
        int32_t sl = -1, bl = -1;
        for (size_t k = 0; k < ns; k++)
            if (mt->x->b_of_s[mt->s_left[k]] < 0) s1++, sl = mt->s_left[k];
        for (size_t k = 0; k < nb; k++)
            if (!mt->taken[mt->b_left[k]]) b1++, bl = mt->b_left[k];
        if (s1 == 1 && b1 == 1) pair(mt, sl, bl);
    } else if (ns == 1 && nb == 1) {
        pair(mt, mt->s_left[0], mt->b_left[0]);
    }
}

/* By source id, then by name (the client's renames undone), for every node at once. */
static bool match_by_identity(matcher *mt) {
    edit_ctx *x = mt->x;
    size_t kn = 0, nb = x->base->node_count;
    keyed *k = index_sources((const char *)&x->base->nodes[0].source, sizeof x->base->nodes[0], nb, &kn);
    name_index ix;
    bool ok = name_index_build(&ix, x->base->nodes[0].name, sizeof x->base->nodes[0], nb, false) && k;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; ok && i < x->s->node_count; i++) {
            const ue_scene_node *sn = &x->s->nodes[i];
            bool sourced = is_msh_node_source(&sn->source);
            if (x->b_of_s[i] >= 0 || mt->wrapper[i] || (sourced && pass)) continue;
            int32_t b = sourced ? find_source(k, kn, &sn->source) : find_by_name(&ix, sn->name, pass);
            if (b >= 0 && !mt->taken[b]) pair(mt, (int32_t)i, b);
        }
    free(k);
    name_index_free(&ix);
    return ok;
}

/* By tree position, parents first: the roots, then the children of every matched node. */
static bool match_by_position(matcher *mt) {
    size_t n = mt->x->s->node_count, head = 0, tail = 0;
    int32_t *queue = malloc((n + 1) * sizeof *queue);
    if (!queue) return false;
    match_children(mt, -1, -1);
    for (int32_t k = mt->st.first[n]; k < mt->st.first[n + 1]; k++) queue[tail++] = mt->st.kids[k];
    while (head < tail) {
        int32_t i = queue[head++];
        if (mt->x->b_of_s[i] >= 0) match_children(mt, i, mt->x->b_of_s[i]);
        for (int32_t k = mt->st.first[i]; k < mt->st.first[i + 1]; k++) queue[tail++] = mt->st.kids[k];
    }
    free(queue);
    return true;
}

/* The first base node left unmatched that is not part of a deleted subtree, or the base's node
 * count: a deletion takes a model node (not convert's root nor a holder) whose parent is
 * there, with everything under it, as clients delete (edit mode then removes them). */
static size_t first_not_deleted(const matcher *mt) {
    const ue_scene *b = mt->x->base;
    for (size_t i = 0; i < b->node_count; i++) {
        int32_t p = b->nodes[i].parent;
        if (mt->taken[i] || (p >= 0 && !mt->taken[p])) continue; /* matched, or under a deleted node */
        if (p < 0 || mt->x->msh_of_b[i] < 0) return i;
    }
    return b->node_count;
}

/* Every node matched once, the same parents, each slot on its node; else why not, naming the
 * first node that differs (scene order, then base order). */
static bool check_tree(const matcher *mt, char *why, size_t cap) {
    const edit_ctx *x = mt->x;
    size_t ns = x->s->node_count, nb = x->base->node_count, fs = ns, fb = nb;
    for (size_t i = 0; i < ns && fs == ns; i++)
        if (x->b_of_s[i] < 0 && !mt->wrapper[i]) fs = i;
    for (size_t b = 0; b < nb && fb == nb; b++)
        if (!mt->taken[b]) fb = b;
    if (fs < ns && fb == nb)
        return snprintf(why, cap, "/nodes/%zu (\"%s\") is not in the base model: import --base adds no nodes", fs,
                        x->s->nodes[fs].name), false;
    if (fs == ns && fb < nb && (fb = first_not_deleted(mt)) < nb)
        return snprintf(why, cap, "the base model's node \"%s\" is missing, and is no model node deleted with its "
                        "subtree (import --base removes only those)", x->base->nodes[fb].name), false;
    if (fs < ns)
        return snprintf(why, cap, "/nodes/%zu (\"%s\") matches no node of the base model (the first left unmatched "
                        "there is \"%s\")", fs, x->s->nodes[fs].name, x->base->nodes[fb].name), false;
    for (size_t i = 0; i < ns; i++) {
        if (mt->wrapper[i]) continue;
        int32_t sp = matched_parent(x->s, mt->wrapper, i), bp = x->base->nodes[x->b_of_s[i]].parent;
        int32_t want = sp < 0 ? -1 : x->b_of_s[sp];
        if (want != bp)
            return snprintf(why, cap, "/nodes/%zu (\"%s\") has a different parent than in the base model (\"%s\", "
                            "not \"%s\")", i, x->s->nodes[i].name, bp < 0 ? "(none)" : x->base->nodes[bp].name,
                            want < 0 ? "(none)" : x->base->nodes[want].name), false;
        int32_t sm = ue_msh_edit_node_mesh(x, i), bm = x->base->nodes[x->b_of_s[i]].mesh, c = x->fold[i].carrier;
        if (c >= 0 && bm < 0)
            return snprintf(why, cap, "/nodes/%d (\"%s\") is not in the base model: import --base adds no nodes", c,
                            x->s->nodes[c].name), false;
        if (sm < 0 || (size_t)sm >= x->s->mesh_count || strcmp(x->s->meshes[sm].source.format, "msh")) continue;
        if (bm < 0 || !ue_msh_edit_same_source(&x->s->meshes[sm].source, &x->base->meshes[bm].source))
            return snprintf(why, cap, "/nodes/%zu: its mesh is another slot than the base model's", i), false;
    }
    return true;
}

static ue_result match_nodes(edit_ctx *x, char *why, size_t cap, bool *matched) {
    matcher mt = {x, {0}, {0}, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    size_t nb = x->base->node_count + 1, ns = x->s->node_count + 1;
    for (size_t i = 0; i < x->s->node_count; i++) x->b_of_s[i] = -1;
    mt.taken = calloc(nb, sizeof *mt.taken);
    mt.wrapper = calloc(ns, sizeof *mt.wrapper);
    mt.s_left = malloc(ns * sizeof *mt.s_left);
    mt.b_left = malloc(nb * sizeof *mt.b_left);
    mt.geo = malloc(nb * sizeof *mt.geo);
    mt.sbox = calloc(x->s->mesh_count + 1, sizeof *mt.sbox);
    mt.bbox = calloc(x->base->mesh_count + 1, sizeof *mt.bbox);
    bool ok = mt.taken && mt.wrapper && mt.s_left && mt.b_left && mt.geo && mt.sbox && mt.bbox && find_wrappers(&mt) &&
              match_by_identity(&mt) && ue_msh_edit_find_carriers(x, mt.wrapper) == UE_OK &&
              tree_build(&mt.st, x->s, mt.wrapper) && tree_build(&mt.bt, x->base, NULL) && match_by_position(&mt);
    if (ok) *matched = check_tree(&mt, why, cap);
    tree_free(&mt.st);
    tree_free(&mt.bt);
    free(mt.taken);
    free(mt.wrapper);
    free(mt.s_left);
    free(mt.b_left);
    free(mt.geo);
    free(mt.sbox);
    free(mt.bbox);
    return ok ? UE_OK : UE_ERR_NOMEM;
}

/* Base node → model node (x->msh_of_b, -1 for convert's root and the holders): regular nodes
 * carry their Res1 record offset, group children a slot word of it. */
static bool map_model_nodes(edit_ctx *x) {
    x->msh_of_b = malloc((x->base->node_count + 1) * sizeof *x->msh_of_b);
    if (!x->msh_of_b) return false;
    int32_t e = x->m->entry_of[UE_MSH_NODES];
    uint64_t res1 = e < 0 ? 0 : x->m->container.entries[e].data_offset;
    for (size_t b = 0; b < x->base->node_count; b++) {
        const ue_source_id *id = &x->base->nodes[b].source;
        x->msh_of_b[b] = -1;
        if (is_msh_node_source(id) && id->index < x->m->node_count &&
            id->offset == res1 + (uint64_t)UE_MSH_NODE_STRIDE * id->index)
            x->msh_of_b[b] = (int32_t)id->index;
    }
    return true;
}

/* ---- meshes, materials, textures, primitives ---------------------------------------------- */

/* Scene mesh → base mesh through the matched nodes that show them. */
static void match_meshes(edit_ctx *x) {
    for (size_t i = 0; i < x->s->node_count; i++) {
        if (x->b_of_s[i] < 0) continue; /* a client's wrapper or carrier */
        int32_t sm = ue_msh_edit_node_mesh(x, i), bm = x->base->nodes[x->b_of_s[i]].mesh;
        if (sm >= 0 && (size_t)sm < x->s->mesh_count && bm >= 0 && x->bmesh_of_s[sm] < 0) x->bmesh_of_s[sm] = bm;
    }
}

/* Scene objects of one kind as the matcher sees them: `count` of them `stride` bytes apart,
 * the first one's name and source id at `names` and `sources`. */
typedef struct object_list { const char *names, *sources; size_t stride, count; } object_list;

#define OBJECTS(items, count) \
    ((object_list){(const char *)(items)[0].name, (const char *)&(items)[0].source, sizeof (items)[0], (count)})

/* By source id, then by the very name, then loosely by name (with `stems`: a base name whose
 * stem it is), each base object taken once; out[i] is left as it is where nothing matched. */
static bool match_listed(object_list sl, object_list bl, bool stems, int32_t *out, bool *taken) {
    size_t kn = 0, nb = bl.count;
    keyed *k = index_sources(bl.sources, bl.stride, nb, &kn);
    name_index ix;
    bool ok = name_index_build(&ix, bl.names, bl.stride, nb, stems) && k;
    for (int pass = 0; pass < 3; pass++)
        for (size_t i = 0; ok && i < sl.count; i++) {
            const char *name = sl.names + i * sl.stride;
            const ue_source_id *id = (const ue_source_id *)(const void *)(sl.sources + i * sl.stride);
            int32_t b = out[i] >= 0 ? -1 : pass ? find_by_name(&ix, name, pass == 2) : find_source(k, kn, id);
            if (b >= 0 && !taken[b]) out[i] = b, taken[b] = true;
        }
    free(k);
    name_index_free(&ix);
    return ok;
}

/* Materials by source id, then by name; the rest by what they are attached to: the material of
 * primitive p of a matched mesh whose primitive count agrees. */
static bool match_materials(edit_ctx *x) {
    size_t nb = x->base->material_count;
    bool *taken = calloc(nb + 1, sizeof *taken);
    bool ok = taken && (!nb || !x->s->material_count ||
                        match_listed(OBJECTS(x->s->materials, x->s->material_count),
                                     OBJECTS(x->base->materials, nb), false, x->bmat_of_s, taken));
    for (size_t m = 0; ok && m < x->s->mesh_count; m++) {
        int32_t bm = x->bmesh_of_s[m];
        if (bm < 0 || x->s->meshes[m].primitive_count != x->base->meshes[bm].primitive_count) continue;
        for (size_t p = 0; p < x->s->meshes[m].primitive_count; p++) {
            int32_t sa = x->s->meshes[m].primitives[p].material, ba = x->base->meshes[bm].primitives[p].material;
            if (sa >= 0 && (size_t)sa < x->s->material_count && ba >= 0 && x->bmat_of_s[sa] < 0 && !taken[ba])
                x->bmat_of_s[sa] = ba, taken[ba] = true;
        }
    }
    free(taken);
    return ok;
}

/* Textures by source id, then by name (the image's stem too), then by the slot of the same
 * role in a matched material. */
static bool match_textures(edit_ctx *x) {
    size_t nb = x->base->texture_count;
    bool *taken = calloc(nb + 1, sizeof *taken);
    bool ok = taken && (!nb || !x->s->texture_count ||
                        match_listed(OBJECTS(x->s->textures, x->s->texture_count),
                                     OBJECTS(x->base->textures, nb), true, x->btex_of_s, taken));
    for (size_t m = 0; ok && m < x->s->material_count; m++) {
        const ue_scene_material *sm = &x->s->materials[m];
        if (x->bmat_of_s[m] < 0) continue;
        const ue_scene_material *bm = &x->base->materials[x->bmat_of_s[m]];
        for (size_t a = 0; a < sm->slot_count && a < UE_MAX_TEXTURE_SLOTS; a++) {
            int32_t st = sm->slots[a].texture, bt = ue_scene_material_texture(bm, sm->slots[a].role);
            if (st >= 0 && (size_t)st < x->s->texture_count && bt >= 0 && x->btex_of_s[st] < 0 && !taken[bt])
                x->btex_of_s[st] = bt, taken[bt] = true;
        }
    }
    free(taken);
    return ok;
}

/* Base primitives of one mesh ordered by (material, index): those of one material in turn. */
typedef struct prim_key { int32_t material, index; } prim_key;

static int prim_key_cmp(const void *pa, const void *pb) {
    const prim_key *a = pa, *b = pb;
    if (a->material != b->material) return a->material < b->material ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

/* The primitives of scene mesh m against its base mesh: each takes the next unused base
 * primitive of its (matched) material; the rest pair in order. A client that merged the
 * primitives of one material leaves base primitives over (-1 for none). */
static bool match_primitives(edit_ctx *x, size_t m) {
    const ue_scene_mesh *sm = &x->s->meshes[m];
    int32_t *out = &x->bprim_of_s[x->sprim_first[m]];
    for (size_t p = 0; p < sm->primitive_count; p++) out[p] = -1;
    if (x->bmesh_of_s[m] < 0) return true;
    const ue_scene_mesh *bm = &x->base->meshes[x->bmesh_of_s[m]];
    size_t nb = bm->primitive_count;
    prim_key *k = malloc((nb + 1) * sizeof *k);
    bool *used = calloc(nb + 1, sizeof *used);
    if (!k || !used) return free(k), free(used), false;
    for (size_t b = 0; b < nb; b++) k[b] = (prim_key){bm->primitives[b].material, (int32_t)b};
    qsort(k, nb, sizeof *k, prim_key_cmp);
    for (size_t p = 0; p < sm->primitive_count; p++) {
        int32_t sa = sm->primitives[p].material;
        int32_t want = sa >= 0 && (size_t)sa < x->s->material_count ? x->bmat_of_s[sa] : -1;
        prim_key probe = {want, -1};
        size_t lo = 0, hi = nb;
        while (want >= 0 && lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (prim_key_cmp(&k[mid], &probe) < 0) lo = mid + 1;
            else hi = mid;
        }
        while (want >= 0 && lo < nb && k[lo].material == want && used[k[lo].index]) lo++;
        if (want >= 0 && lo < nb && k[lo].material == want) out[p] = k[lo].index, used[k[lo].index] = true;
    }
    for (size_t p = 0, b = 0; p < sm->primitive_count; p++) {
        if (out[p] >= 0) continue;
        while (b < nb && used[b]) b++;
        if (b < nb) out[p] = (int32_t)b, used[b] = true;
    }
    free(k);
    free(used);
    return true;
}

static ue_result match_the_rest(edit_ctx *x) {
    size_t prims = 0;
    x->bmesh_of_s = malloc((x->s->mesh_count + 1) * sizeof *x->bmesh_of_s);
    x->bmat_of_s = malloc((x->s->material_count + 1) * sizeof *x->bmat_of_s);
    x->btex_of_s = malloc((x->s->texture_count + 1) * sizeof *x->btex_of_s);
    x->sprim_first = malloc((x->s->mesh_count + 1) * sizeof *x->sprim_first);
    for (size_t m = 0; x->sprim_first && m < x->s->mesh_count; m++)
        x->sprim_first[m] = prims, prims += x->s->meshes[m].primitive_count;
    x->bprim_of_s = malloc((prims + 1) * sizeof *x->bprim_of_s);
    if (!x->bmesh_of_s || !x->bmat_of_s || !x->btex_of_s || !x->sprim_first || !x->bprim_of_s) return UE_ERR_NOMEM;
    for (size_t m = 0; m < x->s->mesh_count; m++) x->bmesh_of_s[m] = -1;
    for (size_t m = 0; m < x->s->material_count; m++) x->bmat_of_s[m] = -1;
    for (size_t t = 0; t < x->s->texture_count; t++) x->btex_of_s[t] = -1;
    match_meshes(x);
    bool ok = match_materials(x) && match_textures(x);
    for (size_t m = 0; ok && m < x->s->mesh_count; m++) ok = match_primitives(x, m);
    return ok ? UE_OK : UE_ERR_NOMEM;
}

int32_t ue_msh_edit_base_primitive(const edit_ctx *x, int32_t smesh, size_t p) {
    if (!x->bprim_of_s || smesh < 0 || (size_t)smesh >= x->s->mesh_count ||
        p >= x->s->meshes[smesh].primitive_count)
        return -1;
    return x->bprim_of_s[x->sprim_first[smesh] + p];
}

void ue_msh_edit_match_free(edit_ctx *x) {
    free(x->fold);
    free(x->bmesh_of_s);
    free(x->bmat_of_s);
    free(x->btex_of_s);
    free(x->sprim_first);
    free(x->bprim_of_s);
}

/* ---- the selection ------------------------------------------------------------------------ */

/* "_lod<l>" or "_lod<l>_group<g>" at the end of name[0..len): the LOD (and *group, or -1), or -1. */
static int lod_suffix(const char *name, size_t len, int *group) {
    *group = -1;
    if (len >= 12 && !memcmp(name + len - 12, "_lod", 4) && !memcmp(name + len - 7, "_group", 6)) {
        char l = name[len - 8], g = name[len - 1];
        if (l < '0' || l >= '0' + UE_MSH_LODS || g < '0' || g >= '0' + UE_MSH_GROUPS) return -1;
        *group = g - '0';
        return l - '0';
    }
    if (len >= 5 && !memcmp(name + len - 5, "_lod", 4) && name[len - 1] >= '0' && name[len - 1] < '0' + UE_MSH_LODS)
        return name[len - 1] - '0';
    return -1;
}

/* Node i is a holder convert adds under its parent: "<parent>_lod<l>_group<g>" (lod_all) or
 * "<parent>_group<g>", the client's ".NNN" suffixes undone. */
static bool is_holder(const ue_scene *s, size_t i, bool lod_all) {
    int32_t p = s->nodes[i].parent;
    if (p < 0 || (size_t)p >= s->node_count) return false;
    const char *name = s->nodes[i].name, *parent = s->nodes[p].name;
    size_t len = unsuffixed_len(name), plen = unsuffixed_len(parent), tail = lod_all ? 12 : 7;
    if (len != plen + tail || memcmp(name, parent, plen)) return false;
    const char *t = name + plen;
    if (lod_all)
        return !memcmp(t, "_lod", 4) && t[4] >= '0' && t[4] < '0' + UE_MSH_LODS && !memcmp(t + 5, "_group", 6) &&
               t[11] >= '0' && t[11] < '0' + UE_MSH_GROUPS;
    return !memcmp(t, "_group", 6) && t[6] >= '0' && t[6] < '0' + UE_MSH_GROUPS;
}

/* Without convert's record: the holder nodes say `--lod all` or `--group all`, the meshes'
 * names ("<node>_lod<l>", "<node>_lod<l>_group<g>") the LOD; the group is 0 otherwise. */
static void infer_selection(const ue_scene *s, ue_msh_export_options *eo) {
    bool lod_all = false, group_all = false;
    for (size_t i = 0; i < s->node_count && !lod_all; i++) lod_all = is_holder(s, i, true);
    for (size_t i = 0; i < s->node_count && !lod_all && !group_all; i++) group_all = is_holder(s, i, false);
    eo->lod = lod_all ? UE_MSH_LOD_ALL : 0;
    eo->group = lod_all ? 0 : group_all ? UE_MSH_GROUP_ALL : 0;
    for (size_t m = 0; m < s->mesh_count && !lod_all; m++) {
        int g, l = lod_suffix(s->meshes[m].name, unsuffixed_len(s->meshes[m].name), &g);
        if (l >= 0) {
            eo->lod = l;
            break;
        }
    }
}

/* The selection convert recorded (asset.extras.unearth_selection), if it is a model's. */
static bool recorded_selection(const ue_scene *s, ue_msh_export_options *eo) {
    const ue_scene_selection *sel = &s->selection;
    if (!sel->recorded || !sel->has_lod || strcmp(sel->format, "msh") || sel->lod >= UE_MSH_LODS ||
        sel->group >= UE_MSH_GROUPS)
        return false;
    eo->lod = sel->lod == UE_SELECTION_ALL ? UE_MSH_LOD_ALL : sel->lod;
    eo->group = sel->group == UE_SELECTION_ALL ? UE_MSH_GROUP_ALL : sel->group;
    return true;
}

static void describe_selection(const ue_msh_export_options *eo, char *out, size_t cap) {
    if (eo->lod == UE_MSH_LOD_ALL) snprintf(out, cap, "--lod all");
    else if (eo->group == UE_MSH_GROUP_ALL) snprintf(out, cap, "LOD %d, --group all", eo->lod);
    else snprintf(out, cap, "LOD %d, group %d", eo->lod, eo->group);
}

void ue_msh_edit_selection(const ue_scene *s, ue_msh_export_options *eo, bool *recorded) {
    *recorded = recorded_selection(s, eo);
    if (!*recorded) infer_selection(s, eo);
}

static ue_result refuse_selection(ue_diag *d, const ue_msh_export_options *eo, bool recorded) {
    char which[64];
    describe_selection(eo, which, sizeof which);
    ue_diag_add(d, UE_SEV_ERROR, "import.base.tree", UE_NO_OFFSET, "/nodes", "the base model does not convert with %s (%s)",
                which, recorded ? "recorded by convert" : "inferred from the glTF's names");
    return UE_ERR_INVALID;
}

/* The base as convert exported the scene: its selection and frame rate, materials resolved
 * from `origin` when given (NULL: the matcher's own export, which needs none). */
static ue_result export_base(const ue_msh *base, const ue_scene *s, const ue_msh_import_options *o,
                             const char *origin, ue_scene *out, ue_diag *d) {
    ue_msh_export_options eo;
    bool recorded;
    ue_msh_edit_selection(s, &eo, &recorded);
    eo.fps = ue_msh_edit_fps(s, o);
    ue_diag scratch = {0};
    ue_parkan_search where = {.origin = origin};
    ue_result r = ue_msh_to_scene(base, "model", &eo, out, &scratch);
    if (r == UE_OK && origin) r = ue_msh_resolve_materials(out, 0, &where, UE_MODE_TOLERANT, &scratch);
    ue_diag_free(&scratch);
    if (o && o->base_exports) ++*o->base_exports;
    return r == UE_OK || r == UE_ERR_NOMEM ? r : refuse_selection(d, &eo, recorded);
}

ue_result ue_msh_edit_reference(const ue_msh *base, const ue_scene *s, const ue_msh_import_options *o,
                                const char *origin, ue_scene *ref, ue_diag *d) {
    if (ref) ue_scene_init(ref);
    if (!base || !s || !ref) return UE_ERR_USAGE;
    ue_result r = export_base(base, s, o, origin, ref, d);
    if (r != UE_OK) ue_scene_free(ref);
    return r;
}

/* The base exported once with the glTF's selection (or the caller's export of it), and every
 * object matched to it. */
ue_result ue_msh_edit_match_selection(edit_ctx *x) {
    bool recorded;
    ue_msh_edit_selection(x->s, &x->eo, &recorded);
    x->eo.fps = x->fps;
    char which[64], why[384] = "";
    describe_selection(&x->eo, which, sizeof which);
    ue_msh_import_options io = {.fps = x->fps, .base_exports = x->base_exports};
    ue_result r = UE_OK;
    x->base = x->reference ? x->reference : &x->own_base;
    if (!x->reference) r = export_base(x->m, x->s, &io, NULL, &x->own_base, x->d);
    if (r != UE_OK) return r;
    bool matched = false;
    if (!map_model_nodes(x)) return UE_ERR_NOMEM;
    r = match_nodes(x, why, sizeof why, &matched);
    if (r != UE_OK) return r;
    if (!matched)
        return ue_msh_edit_fail(x, "import.base.tree", "/nodes",
                                "the node tree does not match the base model converted with %s (%s): %s", which,
                                recorded ? "recorded by convert" : "inferred from the glTF's names", why);
    r = ue_msh_edit_fold_poses(x);
    return r == UE_OK ? match_the_rest(x) : r;
}
