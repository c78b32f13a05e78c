/* unearth — the neutral scene IR: construction helpers, ownership, transforms and the
 * validation every exporter runs first, so exporters can trust indices, counts and values. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/math3d.h"
#include "unearth/scene.h"

/* Caps on what one scene may ask us to allocate; far above any real game asset and low
 * enough that size arithmetic (× 16 bytes per vertex component group) cannot overflow. */
#define UE_SCENE_MAX_OBJECTS ((size_t)1 << 24)
#define UE_SCENE_MAX_VERTICES ((uint32_t)1 << 26)
#define UE_SCENE_MAX_TEXTURE_SIDE 16384u

void ue_scene_init(ue_scene *s) { memset(s, 0, sizeof *s); }

static void free_primitive(ue_scene_primitive *p) {
    free(p->positions);
    free(p->normals);
    free(p->tangents);
    for (int k = 0; k < UE_MAX_UV_SETS; k++) free(p->uv[k]);
    for (int k = 0; k < UE_MAX_COLOR_SETS; k++) free(p->colors[k]);
    free(p->joints);
    free(p->weights);
    free(p->indices);
}

void ue_scene_free(ue_scene *s) {
    if (!s) return;
    for (size_t i = 0; i < s->node_count; i++) ue_extras_free(&s->nodes[i].extras);
    for (size_t i = 0; i < s->material_count; i++) ue_extras_free(&s->materials[i].extras);
    for (size_t i = 0; i < s->mesh_count; i++) {
        for (size_t j = 0; j < s->meshes[i].primitive_count; j++)
            free_primitive(&s->meshes[i].primitives[j]);
        free(s->meshes[i].primitives);
        ue_extras_free(&s->meshes[i].extras);
    }
    for (size_t i = 0; i < s->texture_count; i++) free(s->textures[i].rgba);
    for (size_t i = 0; i < s->skin_count; i++) {
        free(s->skins[i].joints);
        free(s->skins[i].inverse_bind);
    }
    for (size_t i = 0; i < s->animation_count; i++) {
        for (size_t j = 0; j < s->animations[i].channel_count; j++) {
            free(s->animations[i].channels[j].times);
            free(s->animations[i].channels[j].values);
        }
        free(s->animations[i].channels);
        ue_extras_free(&s->animations[i].extras);
    }
    free(s->nodes);
    free(s->meshes);
    free(s->materials);
    free(s->textures);
    free(s->skins);
    free(s->animations);
    ue_scene_init(s);
}

/* Grows an array by one zeroed element. The scene keeps no hidden capacity: callers may
 * install arrays of their own (calloc + count), and a capacity field could fall out of step
 * with them. realloc by one is cheap for the object counts game assets have. */
static void *grow_one(void *arr, size_t count, size_t elem) {
    if (count >= UE_SCENE_MAX_OBJECTS) return NULL;
    uint8_t *n = realloc(arr, (count + 1) * elem);
    if (!n) return NULL;
    memset(n + count * elem, 0, elem);
    return n;
}

static void copy_name(char dst[64], const char *name) {
    snprintf(dst, 64, "%s", name ? name : "");
}

int32_t ue_scene_add_node(ue_scene *s, const char *name, int32_t parent) {
    ue_scene_node *n = grow_one(s->nodes, s->node_count, sizeof *n);
    if (!n) return -1;
    s->nodes = n;
    ue_scene_node *node = &n[s->node_count];
    copy_name(node->name, name);
    node->parent = parent;
    node->rotation[3] = 1.0f;
    node->scale[0] = node->scale[1] = node->scale[2] = 1.0f;
    node->mesh = -1;
    node->skin = -1;
    node->source.offset = UINT64_MAX;
    return (int32_t)s->node_count++;
}

int32_t ue_scene_add_mesh(ue_scene *s, const char *name) {
    ue_scene_mesh *m = grow_one(s->meshes, s->mesh_count, sizeof *m);
    if (!m) return -1;
    s->meshes = m;
    copy_name(m[s->mesh_count].name, name);
    m[s->mesh_count].source.offset = UINT64_MAX;
    return (int32_t)s->mesh_count++;
}

ue_scene_primitive *ue_scene_add_primitive(ue_scene *s, int32_t mesh) {
    if (mesh < 0 || (size_t)mesh >= s->mesh_count) return NULL;
    ue_scene_mesh *m = &s->meshes[mesh];
    ue_scene_primitive *p = grow_one(m->primitives, m->primitive_count, sizeof *p);
    if (!p) return NULL;
    m->primitives = p;
    ue_scene_primitive *prim = &p[m->primitive_count++];
    prim->material = -1;
    prim->source.offset = UINT64_MAX;
    return prim;
}

int32_t ue_scene_add_material(ue_scene *s, const char *name) {
    ue_scene_material *m = grow_one(s->materials, s->material_count, sizeof *m);
    if (!m) return -1;
    s->materials = m;
    ue_scene_material *mat = &m[s->material_count];
    copy_name(mat->name, name);
    for (int i = 0; i < 4; i++) mat->base_color[i] = 1.0f;
    mat->metallic = 0.0f;  /* game assets are dielectric; glTF's default of 1 would be black */
    mat->roughness = 1.0f;
    mat->alpha_cutoff = 0.5f;
    mat->source.offset = UINT64_MAX;
    return (int32_t)s->material_count++;
}

int32_t ue_scene_add_texture_slot(ue_scene *s, int32_t material, ue_texture_role role,
                                  int32_t texture, uint32_t uv_set) {
    if (material < 0 || (size_t)material >= s->material_count) return -1;
    ue_scene_material *m = &s->materials[material];
    if (m->slot_count >= UE_MAX_TEXTURE_SLOTS) return -1;
    ue_texture_slot *sl = &m->slots[m->slot_count];
    memset(sl, 0, sizeof *sl);
    sl->role = role;
    sl->texture = texture;
    sl->uv_set = uv_set;
    sl->strength = 1.0f;
    sl->transform.scale[0] = sl->transform.scale[1] = 1.0f;
    return (int32_t)m->slot_count++;
}

int32_t ue_scene_material_texture(const ue_scene_material *m, ue_texture_role role) {
    for (size_t i = 0; i < m->slot_count && i < UE_MAX_TEXTURE_SLOTS; i++)
        if (m->slots[i].role == role) return m->slots[i].texture;
    return -1;
}

int32_t ue_scene_add_texture(ue_scene *s, const char *name, uint32_t width, uint32_t height) {
    if (width == 0 || height == 0 || width > UE_SCENE_MAX_TEXTURE_SIDE ||
        height > UE_SCENE_MAX_TEXTURE_SIDE)
        return -1;
    uint8_t *px = calloc((size_t)width * height, 4);
    if (!px) return -1;
    ue_scene_texture *t = grow_one(s->textures, s->texture_count, sizeof *t);
    if (!t) {
        free(px);
        return -1;
    }
    s->textures = t;
    ue_scene_texture *tex = &t[s->texture_count];
    copy_name(tex->name, name);
    tex->width = width;
    tex->height = height;
    tex->rgba = px;
    tex->source.offset = UINT64_MAX;
    return (int32_t)s->texture_count++;
}

static bool primitive_has_arrays(const ue_scene_primitive *p) {
    bool any = p->positions || p->indices || p->normals || p->tangents || p->joints || p->weights;
    for (int k = 0; k < UE_MAX_UV_SETS; k++) any = any || p->uv[k];
    for (int k = 0; k < UE_MAX_COLOR_SETS; k++) any = any || p->colors[k];
    return any;
}

static void clear_arrays(ue_scene_primitive *p) {
    free_primitive(p);
    p->positions = p->normals = p->tangents = p->weights = NULL;
    for (int k = 0; k < UE_MAX_UV_SETS; k++) p->uv[k] = NULL;
    for (int k = 0; k < UE_MAX_COLOR_SETS; k++) p->colors[k] = NULL;
    p->joints = NULL;
    p->indices = NULL;
}

ue_result ue_scene_primitive_alloc(ue_scene_primitive *p, uint32_t vertex_count,
                                   uint32_t index_count, unsigned attrs) {
    if (primitive_has_arrays(p)) return UE_ERR_USAGE;
    if (vertex_count > UE_SCENE_MAX_VERTICES || index_count > UE_SCENE_MAX_VERTICES * 3u)
        return UE_ERR_LIMIT;
    size_t v = vertex_count ? vertex_count : 1, ix = index_count ? index_count : 1;
    bool ok = true;
    p->positions = calloc(v * 3, sizeof(float));
    p->indices = calloc(ix, sizeof(uint32_t));
    ok = p->positions && p->indices;
    if (attrs & UE_ATTR_NORMAL) ok = ok && (p->normals = calloc(v * 3, sizeof(float)));
    if (attrs & UE_ATTR_TANGENT) ok = ok && (p->tangents = calloc(v * 4, sizeof(float)));
    if (attrs & (UE_ATTR_UV0 | UE_ATTR_UV1)) ok = ok && (p->uv[0] = calloc(v * 2, sizeof(float)));
    if (attrs & UE_ATTR_UV1) ok = ok && (p->uv[1] = calloc(v * 2, sizeof(float)));
    if (attrs & (UE_ATTR_COLOR | UE_ATTR_COLOR1))
        ok = ok && (p->colors[0] = calloc(v * 4, sizeof(float)));
    if (attrs & UE_ATTR_COLOR1) ok = ok && (p->colors[1] = calloc(v * 4, sizeof(float)));
    uint32_t influences = (attrs & UE_ATTR_SKIN8) ? 8 : (attrs & UE_ATTR_SKIN) ? 4 : 0;
    if (influences) {
        ok = ok && (p->joints = calloc(v * influences, sizeof(uint16_t)));
        ok = ok && (p->weights = calloc(v * influences, sizeof(float)));
    }
    if (!ok) {
        clear_arrays(p);
        return UE_ERR_NOMEM;
    }
    p->influences = influences;
    p->vertex_count = vertex_count;
    p->index_count = index_count;
    return UE_OK;
}

int32_t ue_scene_add_skin(ue_scene *s, const char *name, size_t joint_count) {
    if (joint_count == 0 || joint_count > 65536) return -1;
    int32_t *joints = calloc(joint_count, sizeof *joints);
    float *ibm = malloc(joint_count * 16 * sizeof *ibm);
    ue_scene_skin *k = (joints && ibm) ? grow_one(s->skins, s->skin_count, sizeof *k) : NULL;
    if (!k) {
        free(joints);
        free(ibm);
        return -1;
    }
    for (size_t j = 0; j < joint_count; j++)
        for (int e = 0; e < 16; e++) ibm[j * 16 + (size_t)e] = (e % 5 == 0) ? 1.0f : 0.0f;
    s->skins = k;
    ue_scene_skin *skin = &k[s->skin_count];
    copy_name(skin->name, name);
    skin->joints = joints;
    skin->joint_count = joint_count;
    skin->inverse_bind = ibm;
    skin->skeleton = -1;
    return (int32_t)s->skin_count++;
}

int32_t ue_scene_add_animation(ue_scene *s, const char *name) {
    ue_scene_animation *a = grow_one(s->animations, s->animation_count, sizeof *a);
    if (!a) return -1;
    s->animations = a;
    copy_name(a[s->animation_count].name, name);
    return (int32_t)s->animation_count++;
}

uint32_t ue_anim_target_components(ue_anim_target target) {
    static const uint32_t comps[UE_TARGET_COUNT] = {3, 4, 3, 1, 4, 1, 2, 2, 1, 1};
    return (unsigned)target < UE_TARGET_COUNT ? comps[target] : 0;
}

ue_anim_channel *ue_scene_add_channel(ue_scene *s, int32_t animation, ue_anim_target target,
                                      ue_interp interp, uint32_t key_count) {
    uint32_t components = ue_anim_target_components(target);
    if (animation < 0 || (size_t)animation >= s->animation_count) return NULL;
    if (key_count == 0 || key_count > UE_SCENE_MAX_VERTICES || components == 0 ||
        (unsigned)interp > UE_INTERP_CUBIC)
        return NULL;
    size_t nvals = (size_t)key_count * components * (interp == UE_INTERP_CUBIC ? 3u : 1u);
    float *times = calloc(key_count, sizeof *times);
    float *values = calloc(nvals, sizeof *values);
    ue_scene_animation *a = &s->animations[animation];
    ue_anim_channel *c =
        (times && values) ? grow_one(a->channels, a->channel_count, sizeof *c) : NULL;
    if (!c) {
        free(times);
        free(values);
        return NULL;
    }
    a->channels = c;
    ue_anim_channel *ch = &c[a->channel_count++];
    ch->target = target;
    ch->node = ch->material = ch->slot = -1;
    ch->interpolation = interp;
    ch->key_count = key_count;
    ch->times = times;
    ch->values = values;
    ch->components = components;
    ch->source.offset = UINT64_MAX;
    return ch;
}

/* ---- extras ---------------------------------------------------------------------------- */

static bool extra_key_ok(const char *key) {
    size_t n = key ? strlen(key) : 0;
    return n > 0 && n < sizeof ((ue_extra *)0)->key && strcmp(key, "unearth_source") != 0 &&
           strcmp(key, "unearth_clip") != 0;
}

/* The entry for `key`, appended (zeroed, key set) when absent; NULL when out of memory. */
static ue_extra *extra_slot(ue_extras *x, const char *key) {
    for (size_t i = 0; i < x->count; i++)
        if (strcmp(x->items[i].key, key) == 0) return &x->items[i];
    ue_extra *n = grow_one(x->items, x->count, sizeof *n);
    if (!n) return NULL;
    x->items = n;
    snprintf(n[x->count].key, sizeof n[x->count].key, "%s", key);
    return &n[x->count++];
}

ue_result ue_extras_set_number(ue_extras *x, const char *key, double value) {
    if (!x || !extra_key_ok(key) || !isfinite(value)) return UE_ERR_USAGE;
    ue_extra *e = extra_slot(x, key);
    if (!e) return UE_ERR_NOMEM;
    e->kind = UE_EXTRA_NUMBER;
    e->number = value;
    e->text[0] = 0;
    return UE_OK;
}

ue_result ue_extras_set_string(ue_extras *x, const char *key, const char *value) {
    if (!x || !extra_key_ok(key) || !value) return UE_ERR_USAGE;
    ue_extra *e = extra_slot(x, key);
    if (!e) return UE_ERR_NOMEM;
    e->kind = UE_EXTRA_STRING;
    e->number = 0;
    snprintf(e->text, sizeof e->text, "%s", value);
    return UE_OK;
}

void ue_extras_free(ue_extras *x) {
    if (!x) return;
    free(x->items);
    x->items = NULL;
    x->count = 0;
}

/* ---- transforms ------------------------------------------------------------------------ */

void ue_scene_local_matrix(const ue_scene_node *n, float out[16]) {
    double x = n->rotation[0], y = n->rotation[1], z = n->rotation[2], w = n->rotation[3];
    double len = sqrt(x * x + y * y + z * z + w * w);
    if (len > 0) {
        x /= len; y /= len; z /= len; w /= len;
    } else {
        x = y = z = 0; w = 1;
    }
    double r[9] = {
        1 - 2 * (y * y + z * z), 2 * (x * y + z * w),     2 * (x * z - y * w),
        2 * (x * y - z * w),     1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
        2 * (x * z + y * w),     2 * (y * z - x * w),     1 - 2 * (x * x + y * y),
    };
    for (int c = 0; c < 3; c++) {
        for (int row = 0; row < 3; row++) out[c * 4 + row] = (float)(r[c * 3 + row] * n->scale[c]);
        out[c * 4 + 3] = 0.0f;
    }
    out[12] = n->translation[0];
    out[13] = n->translation[1];
    out[14] = n->translation[2];
    out[15] = 1.0f;
}

ue_result ue_scene_world_matrix(const ue_scene *s, int32_t node, float out[16]) {
    if (node < 0 || (size_t)node >= s->node_count) return UE_ERR_INVALID;
    ue_scene_local_matrix(&s->nodes[node], out);
    int32_t p = s->nodes[node].parent;
    for (size_t steps = 0; p >= 0; steps++) {
        if ((size_t)p >= s->node_count || steps >= s->node_count) return UE_ERR_INVALID;
        float local[16];
        ue_scene_local_matrix(&s->nodes[p], local);
        ue_mat4_mul(local, out, out);
        p = s->nodes[p].parent;
    }
    return UE_OK;
}

/* ---- validation -------------------------------------------------------------------------- */

typedef struct vctx {
    ue_diag *d;
    size_t errors;
    bool forest_ok; /* parent links are in range and acyclic, so ancestry walks terminate */
} vctx;

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static void verr(vctx *v, const char *code, const char *path, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    ue_diag_addv(v->d, UE_SEV_ERROR, code, UE_NO_OFFSET, path, fmt, ap);
    va_end(ap);
    v->errors++;
}

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static void vwarn(vctx *v, const char *code, const char *path, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    ue_diag_addv(v->d, UE_SEV_WARNING, code, UE_NO_OFFSET, path, fmt, ap);
    va_end(ap);
}

/* Reports the first non-finite value of an array (and how many there are), rather than
 * one diagnostic per value: a corrupt mesh would otherwise flood the list. */
static void check_finite(vctx *v, const char *base, const char *what, const float *a, size_t n) {
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(a[i]) && bad++ == 0) first = i;
    if (bad) {
        char path[160];
        snprintf(path, sizeof path, "%s/%s[%zu]", base, what, first);
        verr(v, "scene.value.nonfinite", path, "%zu non-finite value(s) in %s", bad, what);
    }
}

static bool name_ok(const char *name) { return memchr(name, 0, 64) != NULL; }

static void validate_extras(vctx *v, const ue_extras *x, const char *base) {
    if (x->count && !x->items) {
        verr(v, "scene.extras", base, "extras array is NULL while its count is not zero");
        return;
    }
    for (size_t i = 0; i < x->count; i++) {
        const ue_extra *e = &x->items[i];
        char path[200];
        snprintf(path, sizeof path, "%s/extras[%zu]", base, i);
        bool key_ok = memchr(e->key, 0, sizeof e->key) && e->key[0] &&
                      strcmp(e->key, "unearth_source") != 0 && strcmp(e->key, "unearth_clip") != 0;
        if (!key_ok) {
            verr(v, "scene.extras.key", path, "empty, unterminated or reserved key");
            continue;
        }
        if ((unsigned)e->kind > UE_EXTRA_STRING ||
            (e->kind == UE_EXTRA_NUMBER && !isfinite(e->number)) ||
            (e->kind == UE_EXTRA_STRING && !memchr(e->text, 0, sizeof e->text)))
            verr(v, "scene.extras.value", path, "unknown kind, non-finite number or "
                 "unterminated string");
        for (size_t k = 0; k < i; k++)
            if (strncmp(x->items[k].key, e->key, sizeof e->key) == 0) {
                verr(v, "scene.extras.key", path, "key \"%s\" given twice", e->key);
                break;
            }
    }
}


static void validate_nodes(vctx *v, const ue_scene *s) {
    /* 0 = unvisited, 1 = on the current parent walk, 2 = known to reach a root */
    uint8_t *state = calloc(s->node_count ? s->node_count : 1, 1);
    if (!state) {
        verr(v, "scene.nomem", "scene/nodes", "out of memory while validating");
        return;
    }
    for (size_t i = 0; i < s->node_count; i++) {
        const ue_scene_node *n = &s->nodes[i];
        char path[160];
        snprintf(path, sizeof path, "scene/nodes[%zu]", i);
        if (!name_ok(n->name)) verr(v, "scene.name", path, "name is not NUL-terminated");
        validate_extras(v, &n->extras, path);
        if (n->parent < -1 || n->parent >= (int64_t)s->node_count) {
            verr(v, "scene.node.parent", path, "parent %d out of range (%zu nodes)",
                 (int)n->parent, s->node_count);
            state[i] = 2; /* do not walk through it */
            v->forest_ok = false;
        }
        if (n->mesh < -1 || n->mesh >= (int64_t)s->mesh_count)
            verr(v, "scene.node.mesh", path, "mesh %d out of range (%zu meshes)", (int)n->mesh,
                 s->mesh_count);
        if (n->skin < -1 || n->skin >= (int64_t)s->skin_count)
            verr(v, "scene.node.skin", path, "skin %d out of range (%zu skins)", (int)n->skin,
                 s->skin_count);
        float trs[10];
        memcpy(trs, n->translation, 12);
        memcpy(trs + 3, n->rotation, 16);
        memcpy(trs + 7, n->scale, 12);
        check_finite(v, path, "trs", trs, 10);
        double q = 0;
        for (int k = 0; k < 4; k++) q += (double)n->rotation[k] * n->rotation[k];
        if (isfinite(q) && q < 1e-12)
            verr(v, "scene.node.rotation", path, "rotation quaternion has zero length");
    }
    /* Cycle detection: walk each parent chain, marking the walk; meeting a node of the current
     * walk is a cycle, meeting a finished node ends the walk early (linear overall). */
    for (size_t i = 0; i < s->node_count; i++) {
        if (state[i]) continue;
        size_t cur = i;
        bool cycle = false;
        for (;;) {
            if (state[cur] == 2) break;
            if (state[cur] == 1) {
                cycle = true;
                break;
            }
            state[cur] = 1;
            int32_t p = s->nodes[cur].parent;
            if (p < 0) break;
            cur = (size_t)p;
        }
        if (cycle) {
            char path[160];
            snprintf(path, sizeof path, "scene/nodes[%zu]/parent", cur);
            verr(v, "scene.node.cycle", path, "parent links form a cycle through node %zu", cur);
            v->forest_ok = false;
        }
        for (size_t k = i;;) { /* mark the walk finished; a cycle is reported only once */
            if (state[k] == 2) break;
            state[k] = 2;
            int32_t p = s->nodes[k].parent;
            if (p < 0) break;
            k = (size_t)p;
        }
    }
    free(state);
}

/* The topmost ancestor of a node (the node itself for a root); assumes no cycles. */
static size_t root_of(const ue_scene *s, size_t n) {
    for (size_t steps = 0; s->nodes[n].parent >= 0 && steps <= s->node_count; steps++)
        n = (size_t)s->nodes[n].parent;
    return n;
}
static bool is_ancestor_or_self(const ue_scene *s, size_t anc, size_t n) {
    for (size_t steps = 0; steps <= s->node_count; steps++) {
        if (n == anc) return true;
        if (s->nodes[n].parent < 0) return false;
        n = (size_t)s->nodes[n].parent;
    }
    return false;
}

/* UV and colour sets: finite, colours in [0, 1], and used in order (glTF numbers them
 * TEXCOORD_0, _1 … without gaps). */
static void validate_vertex_sets(vctx *v, const ue_scene_primitive *p, const char *base) {
    char path[160], what[16];
    size_t vc = p->vertex_count;
    for (int k = 0; k < UE_MAX_UV_SETS; k++) {
        if (!p->uv[k]) continue;
        snprintf(what, sizeof what, "uv%d", k);
        check_finite(v, base, what, p->uv[k], vc * 2);
        if (k > 0 && !p->uv[k - 1])
            verr(v, "scene.prim.uv", base, "uv set %d is given but set %d is not", k, k - 1);
    }
    for (int k = 0; k < UE_MAX_COLOR_SETS; k++) {
        const float *c = p->colors[k];
        if (!c) continue;
        snprintf(what, sizeof what, "colors%d", k);
        check_finite(v, base, what, c, vc * 4);
        if (k > 0 && !p->colors[k - 1])
            verr(v, "scene.prim.color", base, "colour set %d is given but set %d is not", k,
                 k - 1);
        for (size_t i = 0; i < vc * 4; i++)
            if (c[i] < 0.0f || c[i] > 1.0f) {
                snprintf(path, sizeof path, "%s/%s[%zu]", base, what, i);
                verr(v, "scene.prim.color", path, "colour component %g outside [0, 1]",
                     (double)c[i]);
                break;
            }
    }
}

/* Joint influences: 1..8 per vertex, weights non-negative summing to 1, no joint twice. */
static void validate_skinning(vctx *v, const ue_scene_primitive *p, const char *base) {
    char path[160];
    if (!p->joints != !p->weights)
        verr(v, "scene.prim.skin", base, "joints and weights must be given together");
    if (!p->weights) return;
    size_t n = p->influences;
    if (n == 0 || n > UE_MAX_INFLUENCES) {
        verr(v, "scene.prim.influences", base, "%zu influences per vertex (1..%d allowed)", n,
             UE_MAX_INFLUENCES);
        return;
    }
    check_finite(v, base, "weights", p->weights, (size_t)p->vertex_count * n);
    for (size_t i = 0; i < p->vertex_count; i++) {
        const float *w = p->weights + i * n;
        double sum = 0;
        bool neg = false;
        for (size_t k = 0; k < n; k++) {
            sum += w[k];
            if (w[k] < 0) neg = true;
        }
        if (neg || !(fabs(sum - 1.0) <= 1e-3)) {
            snprintf(path, sizeof path, "%s/weights[%zu]", base, i);
            verr(v, "scene.prim.weights", path,
                 "weights must be non-negative and sum to 1 (sum %.6g)", sum);
            return;
        }
        if (!p->joints) continue;
        const uint16_t *j = p->joints + i * n;
        for (size_t a = 0; a < n; a++)
            for (size_t b = a + 1; b < n; b++)
                if (w[a] != 0 && w[b] != 0 && j[a] == j[b]) {
                    snprintf(path, sizeof path, "%s/joints[%zu]", base, i);
                    verr(v, "scene.prim.joints", path,
                         "a joint appears twice with non-zero weights");
                    return;
                }
    }
}

static void validate_primitive(vctx *v, const ue_scene *s, size_t mi, size_t pi) {
    const ue_scene_primitive *p = &s->meshes[mi].primitives[pi];
    char base[160], path[160];
    snprintf(base, sizeof base, "scene/meshes[%zu]/primitives[%zu]", mi, pi);
    if (p->vertex_count == 0 || !p->positions) {
        verr(v, "scene.prim.empty", base, "primitive has no vertices/positions");
        return;
    }
    if (p->vertex_count > UE_SCENE_MAX_VERTICES) {
        verr(v, "scene.prim.cap", base, "%u vertices exceed the cap", (unsigned)p->vertex_count);
        return;
    }
    size_t vc = p->vertex_count;
    check_finite(v, base, "positions", p->positions, vc * 3);
    if (p->normals) {
        check_finite(v, base, "normals", p->normals, vc * 3);
        for (size_t i = 0; i < vc; i++) {
            const float *nv = p->normals + i * 3;
            double l = sqrt((double)nv[0] * nv[0] + (double)nv[1] * nv[1] + (double)nv[2] * nv[2]);
            if (isfinite(l) && l < 1e-6) {
                snprintf(path, sizeof path, "%s/normals[%zu]", base, i);
                verr(v, "scene.prim.normal", path, "zero-length normal");
                break;
            }
        }
    }
    if (p->tangents) {
        check_finite(v, base, "tangents", p->tangents, vc * 4);
        for (size_t i = 0; i < vc; i++) {
            const float *t = p->tangents + i * 4;
            double l = sqrt((double)t[0] * t[0] + (double)t[1] * t[1] + (double)t[2] * t[2]);
            if (isfinite(l) && (l < 1e-6 || (t[3] != 1.0f && t[3] != -1.0f))) {
                snprintf(path, sizeof path, "%s/tangents[%zu]", base, i);
                verr(v, "scene.prim.tangent", path, "zero-length tangent or w not ±1");
                break;
            }
        }
    }
    validate_vertex_sets(v, p, base);
    validate_skinning(v, p, base);
    if (p->index_count % 3 != 0) {
        snprintf(path, sizeof path, "%s/index_count", base);
        verr(v, "scene.prim.indices", path, "index count %u is not a multiple of 3",
             (unsigned)p->index_count);
    }
    if (p->index_count && !p->indices) {
        verr(v, "scene.prim.indices", base, "index_count %u but no index array",
             (unsigned)p->index_count);
    } else {
        for (size_t i = 0; i < p->index_count; i++)
            if (p->indices[i] >= p->vertex_count) {
                snprintf(path, sizeof path, "%s/indices[%zu]", base, i);
                verr(v, "scene.prim.index", path, "index %u >= vertex count %u",
                     (unsigned)p->indices[i], (unsigned)p->vertex_count);
                break;
            }
    }
    if (p->index_count == 0 && p->vertex_count % 3 != 0)
        verr(v, "scene.prim.indices", base,
             "non-indexed primitive needs a vertex count that is a multiple of 3");
    if (p->material < -1 || p->material >= (int64_t)s->material_count) {
        snprintf(path, sizeof path, "%s/material", base);
        verr(v, "scene.prim.material", path, "material %d out of range (%zu materials)",
             (int)p->material, s->material_count);
    } else if (p->material >= 0) {
        const ue_scene_material *m = &s->materials[p->material];
        for (size_t k = 0; k < m->slot_count && k < UE_MAX_TEXTURE_SLOTS; k++) {
            uint32_t set = m->slots[k].uv_set;
            if (set < UE_MAX_UV_SETS && !p->uv[set]) {
                verr(v, "scene.prim.uv", base,
                     "material %d slot %zu reads uv set %u, which the primitive lacks",
                     (int)p->material, k, (unsigned)set);
                break;
            }
        }
    }
}

static void validate_skins(vctx *v, const ue_scene *s) {
    for (size_t i = 0; i < s->skin_count; i++) {
        const ue_scene_skin *k = &s->skins[i];
        char base[160], path[160];
        snprintf(base, sizeof base, "scene/skins[%zu]", i);
        if (!name_ok(k->name)) verr(v, "scene.name", base, "name is not NUL-terminated");
        if (k->joint_count == 0 || !k->joints) {
            verr(v, "scene.skin.joints", base, "skin has no joints");
            continue;
        }
        bool range_ok = true;
        for (size_t j = 0; j < k->joint_count; j++) {
            if (k->joints[j] < 0 || k->joints[j] >= (int64_t)s->node_count) {
                snprintf(path, sizeof path, "%s/joints[%zu]", base, j);
                verr(v, "scene.skin.joint", path, "joint node %d out of range", (int)k->joints[j]);
                range_ok = false;
                continue;
            }
            for (size_t j2 = 0; j2 < j; j2++)
                if (k->joints[j2] == k->joints[j]) {
                    snprintf(path, sizeof path, "%s/joints[%zu]", base, j);
                    verr(v, "scene.skin.joint", path, "joint node %d listed twice",
                         (int)k->joints[j]);
                }
        }
        if (k->inverse_bind) {
            check_finite(v, base, "inverse_bind", k->inverse_bind, k->joint_count * 16);
            for (size_t j = 0; j < k->joint_count; j++) {
                const float *m = k->inverse_bind + j * 16;
                if (fabsf(m[3]) > 1e-4f || fabsf(m[7]) > 1e-4f || fabsf(m[11]) > 1e-4f ||
                    fabsf(m[15] - 1.0f) > 1e-4f) {
                    snprintf(path, sizeof path, "%s/inverse_bind[%zu]", base, j);
                    verr(v, "scene.skin.ibm", path,
                         "inverse bind matrix is not affine (last row must be 0 0 0 1)");
                    break;
                }
            }
        }
        if (k->skeleton < -1 || k->skeleton >= (int64_t)s->node_count) {
            snprintf(path, sizeof path, "%s/skeleton", base);
            verr(v, "scene.skin.skeleton", path, "skeleton node %d out of range", (int)k->skeleton);
        }
        if (!range_ok || !v->forest_ok) continue; /* ancestry needs a sound node forest */
        size_t root = root_of(s, (size_t)k->joints[0]);
        for (size_t j = 1; j < k->joint_count; j++)
            if (root_of(s, (size_t)k->joints[j]) != root) {
                snprintf(path, sizeof path, "%s/joints[%zu]", base, j);
                verr(v, "scene.skin.root", path, "joints do not share a common root");
                break;
            }
        if (k->skeleton >= 0)
            for (size_t j = 0; j < k->joint_count; j++)
                if (!is_ancestor_or_self(s, (size_t)k->skeleton, (size_t)k->joints[j])) {
                    snprintf(path, sizeof path, "%s/skeleton", base);
                    verr(v, "scene.skin.skeleton", path,
                         "skeleton node %d is not an ancestor of joint node %d",
                         (int)k->skeleton, (int)k->joints[j]);
                    break;
                }
    }
}

/* Cross-checks between nodes, meshes and skins that glTF imposes on skinned meshes. */
static void validate_instancing(vctx *v, const ue_scene *s) {
    for (size_t i = 0; i < s->node_count; i++) {
        const ue_scene_node *n = &s->nodes[i];
        if (n->mesh < 0 || n->mesh >= (int64_t)s->mesh_count) continue;
        if (n->skin >= (int64_t)s->skin_count) continue;
        const ue_scene_mesh *m = &s->meshes[n->mesh];
        if (!m->primitives) continue;
        char path[160];
        snprintf(path, sizeof path, "scene/nodes[%zu]", i);
        for (size_t p = 0; p < m->primitive_count; p++) {
            const ue_scene_primitive *pr = &m->primitives[p];
            if (n->skin < 0 && pr->joints) {
                verr(v, "scene.node.skin", path,
                     "mesh %d has joints/weights but the node has no skin", (int)n->mesh);
                break;
            }
            if (n->skin >= 0 && !pr->joints) {
                verr(v, "scene.node.skin", path,
                     "node has a skin but mesh %d primitive %zu has no joints/weights",
                     (int)n->mesh, p);
                break;
            }
            if (n->skin >= 0 && pr->joints && pr->positions && pr->weights &&
                pr->vertex_count <= UE_SCENE_MAX_VERTICES) {
                size_t jc = s->skins[n->skin].joint_count, per = pr->influences;
                if (per == 0 || per > UE_MAX_INFLUENCES) continue; /* reported per primitive */
                for (size_t e = 0; e < (size_t)pr->vertex_count * per; e++)
                    if (pr->weights[e] != 0 && pr->joints[e] >= jc) {
                        char jp[160];
                        snprintf(jp, sizeof jp, "scene/meshes[%d]/primitives[%zu]/joints[%zu]",
                                 (int)n->mesh, p, e / per);
                        verr(v, "scene.prim.joint", jp, "joint %u >= skin %d joint count %zu",
                             (unsigned)pr->joints[e], (int)n->skin, jc);
                        break;
                    }
            }
        }
        if (n->skin >= 0) {
            /* glTF ignores these transforms for skinned meshes; viewers differ in the warning
             * they show, so the format readers should place skinned meshes at the root. */
            if (n->parent >= 0)
                vwarn(v, "scene.node.skin_nonroot", path, "skinned mesh node is not a root");
            const float *t = n->translation, *r = n->rotation, *sc = n->scale;
            if (t[0] != 0 || t[1] != 0 || t[2] != 0 || r[0] != 0 || r[1] != 0 || r[2] != 0 ||
                sc[0] != 1 || sc[1] != 1 || sc[2] != 1)
                vwarn(v, "scene.node.skin_transform", path,
                      "skinned mesh node has local transforms that glTF ignores");
        }
    }
}

/* The object a channel drives exists: a node for node targets, a material (and one of its
 * slots for UV and texture-index targets) for the others. */
static void validate_channel_target(vctx *v, const ue_scene *s, const ue_anim_channel *ch,
                                    const char *base) {
    bool node_target = ch->target <= UE_TARGET_VISIBILITY;
    bool slot_target = ch->target >= UE_TARGET_UV_OFFSET;
    if (node_target) {
        if (ch->node < 0 || ch->node >= (int64_t)s->node_count)
            verr(v, "scene.anim.node", base, "target node %d out of range", (int)ch->node);
        else if (s->nodes[ch->node].skin >= 0 && ch->target != UE_TARGET_VISIBILITY)
            vwarn(v, "scene.anim.skinned_node", base,
                  "animating the skinned mesh node %d has no effect in glTF", (int)ch->node);
        return;
    }
    if (ch->material < 0 || ch->material >= (int64_t)s->material_count) {
        verr(v, "scene.anim.material", base, "target material %d out of range",
             (int)ch->material);
        return;
    }
    const ue_scene_material *m = &s->materials[ch->material];
    if (slot_target && (ch->slot < 0 || (size_t)ch->slot >= m->slot_count))
        verr(v, "scene.anim.slot", base, "material %d has no texture slot %d",
             (int)ch->material, (int)ch->slot);
}

/* Key times: finite, non-negative, strictly increasing. */
static void validate_times(vctx *v, const ue_anim_channel *ch, const char *base) {
    char path[160];
    check_finite(v, base, "times", ch->times, ch->key_count);
    for (size_t k = 0; k < ch->key_count; k++) {
        if (ch->times[k] < 0) {
            snprintf(path, sizeof path, "%s/times[%zu]", base, k);
            verr(v, "scene.anim.time", path, "negative time %g", (double)ch->times[k]);
            return;
        }
        if (k && !(ch->times[k] > ch->times[k - 1])) {
            snprintf(path, sizeof path, "%s/times[%zu]", base, k);
            verr(v, "scene.anim.time", path, "times not strictly increasing (%g after %g)",
                 (double)ch->times[k], (double)ch->times[k - 1]);
            return;
        }
    }
}

/* Values: finite, non-zero rotation keys, whole texture indices in range. */
static void validate_values(vctx *v, const ue_scene *s, const ue_anim_channel *ch,
                            const char *base) {
    char path[160];
    size_t per = ch->interpolation == UE_INTERP_CUBIC ? 3 : 1;
    size_t nv = (size_t)ch->key_count * ch->components * per;
    check_finite(v, base, "values", ch->values, nv);
    if (ch->target == UE_TARGET_ROTATION)
        for (size_t k = 0; k < ch->key_count; k++) {
            const float *q = ch->values + (k * per + (per == 3 ? 1 : 0)) * 4;
            double l = (double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] +
                       (double)q[3] * q[3];
            if (isfinite(l) && l < 1e-12) {
                snprintf(path, sizeof path, "%s/values[%zu]", base, k);
                verr(v, "scene.anim.rotation", path, "zero-length rotation key");
                return;
            }
        }
    if (ch->target == UE_TARGET_TEXTURE_INDEX)
        for (size_t k = 0; k < ch->key_count; k++) {
            float t = ch->values[k];
            if (!(t >= 0 && t < (float)s->texture_count && t == floorf(t))) {
                snprintf(path, sizeof path, "%s/values[%zu]", base, k);
                verr(v, "scene.anim.texture", path, "texture index %g is not one of %zu textures",
                     (double)t, s->texture_count);
                return;
            }
        }
}

static bool same_target(const ue_anim_channel *a, const ue_anim_channel *b) {
    return a->target == b->target && a->node == b->node && a->material == b->material &&
           a->slot == b->slot;
}

static void validate_channel(vctx *v, const ue_scene *s, const ue_scene_animation *an,
                             size_t c, const char *base) {
    const ue_anim_channel *ch = &an->channels[c];
    uint32_t want = ue_anim_target_components(ch->target);
    if (want == 0) {
        verr(v, "scene.anim.target", base, "unknown target %d", (int)ch->target);
        return;
    }
    if ((unsigned)ch->interpolation > UE_INTERP_CUBIC) {
        verr(v, "scene.anim.interp", base, "unknown interpolation %d", (int)ch->interpolation);
        return;
    }
    bool discrete = ch->target == UE_TARGET_VISIBILITY || ch->target == UE_TARGET_TEXTURE_INDEX;
    if (discrete && ch->interpolation != UE_INTERP_STEP)
        verr(v, "scene.anim.interp", base, "visibility and texture-index keys must be STEP");
    validate_channel_target(v, s, ch, base);
    if (ch->components != want) {
        verr(v, "scene.anim.components", base, "%u components, the target needs %u",
             (unsigned)ch->components, (unsigned)want);
        return;
    }
    if (ch->key_count == 0 || !ch->times || !ch->values) {
        verr(v, "scene.anim.keys", base, "channel has no keys");
        return;
    }
    if (ch->key_count > UE_SCENE_MAX_VERTICES) {
        verr(v, "scene.anim.keys", base, "%u keys exceed the cap", (unsigned)ch->key_count);
        return;
    }
    if (ch->interpolation == UE_INTERP_CUBIC && ch->key_count < 2)
        verr(v, "scene.anim.keys", base, "cubic spline needs at least 2 keys");
    validate_times(v, ch, base);
    validate_values(v, s, ch, base);
    /* glTF forbids two channels of one animation driving the same property. */
    for (size_t c2 = 0; c2 < c; c2++)
        if (same_target(&an->channels[c2], ch)) {
            verr(v, "scene.anim.duplicate", base, "same target as channel %zu", c2);
            break;
        }
}

static void validate_clip(vctx *v, const ue_scene_animation *an, const char *base) {
    if (!name_ok(an->name)) verr(v, "scene.name", base, "name is not NUL-terminated");
    float meta[3] = {an->fps, an->start_frame, an->end_frame};
    check_finite(v, base, "clip", meta, 3);
    if (an->fps < 0) verr(v, "scene.anim.fps", base, "negative frame rate %g", (double)an->fps);
    if (an->end_frame < an->start_frame)
        verr(v, "scene.anim.range", base, "end frame %g before start frame %g",
             (double)an->end_frame, (double)an->start_frame);
}

static void validate_animations(vctx *v, const ue_scene *s) {
    for (size_t a = 0; a < s->animation_count; a++) {
        const ue_scene_animation *an = &s->animations[a];
        char base[160];
        snprintf(base, sizeof base, "scene/animations[%zu]", a);
        validate_clip(v, an, base);
        validate_extras(v, &an->extras, base);
        if (an->channel_count && !an->channels) {
            verr(v, "scene.array", base, "channels NULL while the count is not zero");
            continue;
        }
        for (size_t c = 0; c < an->channel_count; c++) {
            snprintf(base, sizeof base, "scene/animations[%zu]/channels[%zu]", a, c);
            validate_channel(v, s, an, c, base);
        }
    }
}

static void validate_slot(vctx *v, const ue_scene *s, const ue_texture_slot *sl,
                          const char *path) {
    if ((unsigned)sl->role > UE_TEX_OTHER)
        verr(v, "scene.material.role", path, "unknown texture role %d", (int)sl->role);
    if (sl->texture < 0 || sl->texture >= (int64_t)s->texture_count)
        verr(v, "scene.material.texture", path, "texture %d out of range (%zu textures)",
             (int)sl->texture, s->texture_count);
    if (sl->uv_set >= UE_MAX_UV_SETS)
        verr(v, "scene.material.uv_set", path, "uv set %u out of range (%d sets)",
             (unsigned)sl->uv_set, UE_MAX_UV_SETS);
    const ue_uv_transform *t = &sl->transform;
    float f[6] = {sl->strength, t->offset[0], t->offset[1], t->rotation, t->scale[0], t->scale[1]};
    check_finite(v, path, "transform", f, 6);
}

static void validate_material(vctx *v, const ue_scene *s, size_t i) {
    const ue_scene_material *m = &s->materials[i];
    char path[160];
    snprintf(path, sizeof path, "scene/materials[%zu]", i);
    if (!name_ok(m->name)) verr(v, "scene.name", path, "name is not NUL-terminated");
    float f[10] = {m->base_color[0], m->base_color[1], m->base_color[2], m->base_color[3],
                   m->metallic,      m->roughness,     m->emissive[0],   m->emissive[1],
                   m->emissive[2],   m->alpha_cutoff};
    check_finite(v, path, "factors", f, 10);
    for (int k = 0; k < 9; k++)
        if (f[k] < 0.0f || f[k] > 1.0f) {
            verr(v, "scene.material.range", path,
                 "base colour / metallic / roughness / emissive factors must lie in [0, 1]");
            break;
        }
    if (m->alpha_cutoff < 0.0f)
        verr(v, "scene.material.cutoff", path, "alpha cutoff is negative");
    if ((unsigned)m->alpha_mode > UE_ALPHA_BLEND)
        verr(v, "scene.material.alpha", path, "unknown alpha mode %d", (int)m->alpha_mode);
    if (m->slot_count > UE_MAX_TEXTURE_SLOTS) {
        verr(v, "scene.material.slots", path, "%zu texture slots (at most %d)", m->slot_count,
             UE_MAX_TEXTURE_SLOTS);
        return;
    }
    for (size_t k = 0; k < m->slot_count; k++) {
        char sp[200];
        snprintf(sp, sizeof sp, "%s/slots[%zu]", path, k);
        validate_slot(v, s, &m->slots[k], sp);
    }
    validate_extras(v, &m->extras, path);
}

ue_result ue_scene_validate(const ue_scene *s, ue_diag *d) {
    vctx v = {d, 0, true};
    if (!s) return UE_ERR_USAGE;
    if ((s->node_count && !s->nodes) || (s->mesh_count && !s->meshes) ||
        (s->material_count && !s->materials) || (s->texture_count && !s->textures) ||
        (s->skin_count && !s->skins) || (s->animation_count && !s->animations)) {
        verr(&v, "scene.array", "scene", "an array is NULL while its count is not zero");
        return UE_ERR_INVALID;
    }
    if (!name_ok(s->name)) verr(&v, "scene.name", "scene", "name is not NUL-terminated");
    validate_nodes(&v, s);
    for (size_t i = 0; i < s->mesh_count; i++) {
        const ue_scene_mesh *m = &s->meshes[i];
        char path[160];
        snprintf(path, sizeof path, "scene/meshes[%zu]", i);
        if (!name_ok(m->name)) verr(&v, "scene.name", path, "name is not NUL-terminated");
        validate_extras(&v, &m->extras, path);
        if (m->primitive_count == 0 || !m->primitives) {
            verr(&v, "scene.mesh.empty", path, "mesh has no primitives");
            continue;
        }
        for (size_t p = 0; p < m->primitive_count; p++) validate_primitive(&v, s, i, p);
    }
    for (size_t i = 0; i < s->material_count; i++) validate_material(&v, s, i);
    for (size_t i = 0; i < s->texture_count; i++) {
        const ue_scene_texture *t = &s->textures[i];
        char path[160];
        snprintf(path, sizeof path, "scene/textures[%zu]", i);
        if (!name_ok(t->name)) verr(&v, "scene.name", path, "name is not NUL-terminated");
        if (!t->rgba || t->width == 0 || t->height == 0 || t->width > UE_SCENE_MAX_TEXTURE_SIDE ||
            t->height > UE_SCENE_MAX_TEXTURE_SIDE)
            verr(&v, "scene.texture.size", path, "texture %ux%u has no pixels or is too large",
                 (unsigned)t->width, (unsigned)t->height);
        if ((unsigned)t->wrap_s > UE_WRAP_MIRROR || (unsigned)t->wrap_t > UE_WRAP_MIRROR)
            verr(&v, "scene.texture.wrap", path, "unknown wrap mode");
    }
    validate_skins(&v, s);
    validate_instancing(&v, s);
    validate_animations(&v, s);
    return v.errors ? UE_ERR_INVALID : UE_OK;
}
