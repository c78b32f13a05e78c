/* unearth — the neutral scene IR: construction helpers, ownership and extras; transforms are in
 * scene_transform.c and the validation every exporter runs first in scene_validate*.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/scene_int.h"
#include "unearth/scene.h"

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
    for (size_t i = 0; i < s->material_count; i++) {
        ue_extras_free(&s->materials[i].extras);
        for (size_t k = 0; k < s->materials[i].slot_count && k < UE_MAX_TEXTURE_SLOTS; k++)
            ue_extras_free(&s->materials[i].slots[k].extras);
    }
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
 * with them. So the array is asked each time for the power of two that holds count + 1: realloc
 * to the size a block already has returns it in place, and a block moves only when the count
 * passes a power of two, so n additions copy O(n) elements, not O(n^2) (a clip's channels, a
 * model's nodes). An array a caller installed at its exact size is grown like any other. */
static void *grow_one(void *arr, size_t count, size_t elem) {
    if (count >= UE_SCENE_MAX_OBJECTS) return NULL;
    size_t room = 4;
    while (room < count + 1) room *= 2; /* UE_SCENE_MAX_OBJECTS bounds it */
    uint8_t *n = realloc(arr, room * elem);
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

static bool channel_admitted(const ue_scene *s, int32_t animation, ue_anim_target target, ue_interp interp,
                             uint32_t key_count) {
    return animation >= 0 && (size_t)animation < s->animation_count && key_count != 0 &&
           key_count <= UE_SCENE_MAX_VERTICES && ue_anim_target_components(target) != 0 &&
           (unsigned)interp <= UE_INTERP_CUBIC;
}

ue_anim_channel *ue_scene_take_channel(ue_scene *s, int32_t animation, ue_anim_target target, ue_interp interp,
                                       uint32_t key_count, float *times, float *values) {
    if (!times || !values || !channel_admitted(s, animation, target, interp, key_count)) return NULL;
    ue_scene_animation *a = &s->animations[animation];
    ue_anim_channel *c = grow_one(a->channels, a->channel_count, sizeof *c);
    if (!c) return NULL;
    a->channels = c;
    ue_anim_channel *ch = &c[a->channel_count++];
    ch->target = target;
    ch->node = ch->material = ch->slot = -1;
    ch->interpolation = interp;
    ch->key_count = key_count;
    ch->times = times;
    ch->values = values;
    ch->components = ue_anim_target_components(target);
    ch->source.offset = UINT64_MAX;
    return ch;
}

ue_anim_channel *ue_scene_add_channel(ue_scene *s, int32_t animation, ue_anim_target target,
                                      ue_interp interp, uint32_t key_count) {
    if (!channel_admitted(s, animation, target, interp, key_count)) return NULL;
    size_t nvals = (size_t)key_count * ue_anim_target_components(target) * (interp == UE_INTERP_CUBIC ? 3u : 1u);
    float *times = calloc(key_count, sizeof *times);
    float *values = calloc(nvals, sizeof *values);
    ue_anim_channel *ch = ue_scene_take_channel(s, animation, target, interp, key_count, times, values);
    if (!ch) free(times), free(values);
    return ch;
}

/* ---- extras ---------------------------------------------------------------------------- */

static bool extra_key_ok(const char *key) {
    size_t n = key ? strlen(key) : 0;
    return n > 0 && n < sizeof ((ue_extra *)0)->key && strcmp(key, "unearth_source") != 0 &&
           strcmp(key, "unearth_clip") != 0 && strcmp(key, "fps") != 0 &&
           strcmp(key, "unearth_textures") != 0;
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
