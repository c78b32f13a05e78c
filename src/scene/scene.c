/* unearth — the neutral scene IR: construction helpers, ownership, transforms and the
 * validation every exporter runs first, so exporters can trust indices, counts and values. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    free(p->uv0);
    free(p->colors);
    free(p->joints);
    free(p->weights);
    free(p->indices);
}

void ue_scene_free(ue_scene *s) {
    if (!s) return;
    for (size_t i = 0; i < s->mesh_count; i++) {
        for (size_t j = 0; j < s->meshes[i].primitive_count; j++)
            free_primitive(&s->meshes[i].primitives[j]);
        free(s->meshes[i].primitives);
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
    mat->base_color_texture = -1;
    mat->metallic = 0.0f;  /* game assets are dielectric; glTF's default of 1 would be black */
    mat->roughness = 1.0f;
    mat->alpha_cutoff = 0.5f;
    mat->uv_scale[0] = mat->uv_scale[1] = 1.0f;
    mat->source.offset = UINT64_MAX;
    return (int32_t)s->material_count++;
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

ue_result ue_scene_primitive_alloc(ue_scene_primitive *p, uint32_t vertex_count,
                                   uint32_t index_count, unsigned attrs) {
    if (p->positions || p->indices || p->normals || p->uv0 || p->colors || p->joints ||
        p->weights)
        return UE_ERR_USAGE;
    if (vertex_count > UE_SCENE_MAX_VERTICES || index_count > UE_SCENE_MAX_VERTICES * 3u)
        return UE_ERR_NOMEM;
    size_t v = vertex_count ? vertex_count : 1, ix = index_count ? index_count : 1;
    bool ok = true;
    p->positions = calloc(v * 3, sizeof(float));
    p->indices = calloc(ix, sizeof(uint32_t));
    ok = p->positions && p->indices;
    if (attrs & UE_ATTR_NORMAL) ok = ok && (p->normals = calloc(v * 3, sizeof(float)));
    if (attrs & UE_ATTR_UV0) ok = ok && (p->uv0 = calloc(v * 2, sizeof(float)));
    if (attrs & UE_ATTR_COLOR) ok = ok && (p->colors = calloc(v * 4, sizeof(float)));
    if (attrs & UE_ATTR_SKIN) {
        ok = ok && (p->joints = calloc(v * 4, sizeof(uint16_t)));
        ok = ok && (p->weights = calloc(v * 4, sizeof(float)));
    }
    if (!ok) {
        free_primitive(p);
        p->positions = p->normals = p->uv0 = p->colors = p->weights = NULL;
        p->joints = NULL;
        p->indices = NULL;
        return UE_ERR_NOMEM;
    }
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

ue_anim_channel *ue_scene_add_channel(ue_scene *s, int32_t animation, ue_anim_path path,
                                      ue_interp interp, uint32_t key_count, uint32_t components) {
    if (animation < 0 || (size_t)animation >= s->animation_count) return NULL;
    if (key_count == 0 || key_count > UE_SCENE_MAX_VERTICES || components == 0 || components > 16)
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
    ch->node = -1;
    ch->path = path;
    ch->interpolation = interp;
    ch->key_count = key_count;
    ch->times = times;
    ch->values = values;
    ch->components = components;
    return ch;
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

static void mat_mul(const float a[16], const float b[16], float out[16]) {
    float t[16];
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            double acc = 0;
            for (int k = 0; k < 4; k++) acc += (double)a[k * 4 + r] * b[c * 4 + k];
            t[c * 4 + r] = (float)acc;
        }
    memcpy(out, t, sizeof t);
}

ue_result ue_scene_world_matrix(const ue_scene *s, int32_t node, float out[16]) {
    if (node < 0 || (size_t)node >= s->node_count) return UE_ERR_INVALID;
    ue_scene_local_matrix(&s->nodes[node], out);
    int32_t p = s->nodes[node].parent;
    for (size_t steps = 0; p >= 0; steps++) {
        if ((size_t)p >= s->node_count || steps >= s->node_count) return UE_ERR_INVALID;
        float local[16];
        ue_scene_local_matrix(&s->nodes[p], local);
        mat_mul(local, out, out);
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
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    v->errors++;
    ue_diag_add(v->d, UE_SEV_ERROR, code, UE_NO_OFFSET, path, "%s", msg);
}

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static void vwarn(vctx *v, const char *code, const char *path, const char *fmt, ...) {
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ue_diag_add(v->d, UE_SEV_WARNING, code, UE_NO_OFFSET, path, "%s", msg);
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
    if (p->uv0) check_finite(v, base, "uv0", p->uv0, vc * 2);
    if (p->colors) {
        check_finite(v, base, "colors", p->colors, vc * 4);
        for (size_t i = 0; i < vc * 4; i++)
            if (p->colors[i] < 0.0f || p->colors[i] > 1.0f) {
                snprintf(path, sizeof path, "%s/colors[%zu]", base, i);
                verr(v, "scene.prim.color", path, "colour component %g outside [0, 1]",
                     (double)p->colors[i]);
                break;
            }
    }
    if (!p->joints != !p->weights)
        verr(v, "scene.prim.skin", base, "joints and weights must be given together");
    if (p->weights) {
        check_finite(v, base, "weights", p->weights, vc * 4);
        for (size_t i = 0; i < vc; i++) {
            const float *w = p->weights + i * 4;
            double sum = 0;
            bool neg = false;
            for (int k = 0; k < 4; k++) {
                sum += w[k];
                if (w[k] < 0) neg = true;
            }
            if (neg || !(fabs(sum - 1.0) <= 1e-3)) {
                snprintf(path, sizeof path, "%s/weights[%zu]", base, i);
                verr(v, "scene.prim.weights", path,
                     "weights must be non-negative and sum to 1 (sum %.6g)", sum);
                break;
            }
            if (p->joints) {
                const uint16_t *j = p->joints + i * 4;
                bool dup = false;
                for (int a = 0; a < 4; a++)
                    for (int b = a + 1; b < 4; b++)
                        if (w[a] != 0 && w[b] != 0 && j[a] == j[b]) dup = true;
                if (dup) {
                    snprintf(path, sizeof path, "%s/joints[%zu]", base, i);
                    verr(v, "scene.prim.joints", path,
                         "a joint appears twice with non-zero weights");
                    break;
                }
            }
        }
    }
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
    } else if (p->material >= 0 && s->materials[p->material].base_color_texture >= 0 && !p->uv0) {
        verr(v, "scene.prim.uv", base, "material %d is textured but the primitive has no uv0",
             (int)p->material);
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
                size_t jc = s->skins[n->skin].joint_count;
                for (size_t e = 0; e < (size_t)pr->vertex_count * 4; e++)
                    if (pr->weights[e] != 0 && pr->joints[e] >= jc) {
                        char jp[160];
                        snprintf(jp, sizeof jp, "scene/meshes[%d]/primitives[%zu]/joints[%zu]",
                                 (int)n->mesh, p, e / 4);
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

static void validate_animations(vctx *v, const ue_scene *s) {
    for (size_t a = 0; a < s->animation_count; a++) {
        const ue_scene_animation *an = &s->animations[a];
        if (!name_ok(an->name)) {
            char p[64];
            snprintf(p, sizeof p, "scene/animations[%zu]", a);
            verr(v, "scene.name", p, "name is not NUL-terminated");
        }
        for (size_t c = 0; c < an->channel_count; c++) {
            const ue_anim_channel *ch = &an->channels[c];
            char base[160], path[160];
            snprintf(base, sizeof base, "scene/animations[%zu]/channels[%zu]", a, c);
            uint32_t want = 0;
            switch (ch->path) {
            case UE_PATH_TRANSLATION:
            case UE_PATH_SCALE: want = 3; break;
            case UE_PATH_ROTATION: want = 4; break;
            case UE_PATH_POINTER: want = 0; break;
            default:
                verr(v, "scene.anim.path", base, "unknown target path %d", (int)ch->path);
                continue;
            }
            if (ch->interpolation != UE_INTERP_LINEAR && ch->interpolation != UE_INTERP_STEP &&
                ch->interpolation != UE_INTERP_CUBIC) {
                verr(v, "scene.anim.interp", base, "unknown interpolation %d",
                     (int)ch->interpolation);
                continue;
            }
            if (ch->path == UE_PATH_POINTER) {
                if (memchr(ch->pointer, 0, sizeof ch->pointer) == NULL || ch->pointer[0] != '/')
                    verr(v, "scene.anim.pointer", base,
                         "pointer must be a NUL-terminated JSON pointer starting with '/'");
                if (ch->components == 0 || ch->components > 16)
                    verr(v, "scene.anim.components", base, "pointer channel has %u components",
                         (unsigned)ch->components);
            } else {
                if (ch->node < 0 || ch->node >= (int64_t)s->node_count)
                    verr(v, "scene.anim.node", base, "target node %d out of range",
                         (int)ch->node);
                else if (s->nodes[ch->node].skin >= 0)
                    vwarn(v, "scene.anim.skinned_node", base,
                          "animating the skinned mesh node %d has no effect in glTF",
                          (int)ch->node);
                if (ch->components != want)
                    verr(v, "scene.anim.components", base, "%u components, the path needs %u",
                         (unsigned)ch->components, (unsigned)want);
            }
            if (ch->key_count == 0 || !ch->times || !ch->values) {
                verr(v, "scene.anim.keys", base, "channel has no keys");
                continue;
            }
            if (ch->key_count > UE_SCENE_MAX_VERTICES || ch->components > 16 ||
                ch->components == 0)
                continue;
            if (ch->interpolation == UE_INTERP_CUBIC && ch->key_count < 2)
                verr(v, "scene.anim.keys", base, "cubic spline needs at least 2 keys");
            check_finite(v, base, "times", ch->times, ch->key_count);
            for (size_t k = 0; k < ch->key_count; k++) {
                if (ch->times[k] < 0) {
                    snprintf(path, sizeof path, "%s/times[%zu]", base, k);
                    verr(v, "scene.anim.time", path, "negative time %g", (double)ch->times[k]);
                    break;
                }
                if (k && !(ch->times[k] > ch->times[k - 1])) {
                    snprintf(path, sizeof path, "%s/times[%zu]", base, k);
                    verr(v, "scene.anim.time", path, "times not strictly increasing (%g after %g)",
                         (double)ch->times[k], (double)ch->times[k - 1]);
                    break;
                }
            }
            size_t per = ch->interpolation == UE_INTERP_CUBIC ? 3 : 1;
            size_t nv = (size_t)ch->key_count * ch->components * per;
            check_finite(v, base, "values", ch->values, nv);
            bool is_rot = ch->path == UE_PATH_ROTATION;
            if (is_rot)
                for (size_t k = 0; k < ch->key_count; k++) {
                    const float *q = ch->values + (k * per + (per == 3 ? 1 : 0)) * 4;
                    double l = (double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] +
                               (double)q[3] * q[3];
                    if (isfinite(l) && l < 1e-12) {
                        snprintf(path, sizeof path, "%s/values[%zu]", base, k);
                        verr(v, "scene.anim.rotation", path, "zero-length rotation key");
                        break;
                    }
                }
            /* glTF forbids two channels of one animation driving the same property. */
            for (size_t c2 = 0; c2 < c; c2++) {
                const ue_anim_channel *o = &an->channels[c2];
                bool same = o->path == ch->path &&
                            (ch->path == UE_PATH_POINTER
                                 ? strncmp(o->pointer, ch->pointer, sizeof ch->pointer) == 0
                                 : o->node == ch->node);
                if (same) {
                    verr(v, "scene.anim.duplicate", base, "same target as channel %zu", c2);
                    break;
                }
            }
        }
    }
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
        if (m->primitive_count == 0 || !m->primitives) {
            verr(&v, "scene.mesh.empty", path, "mesh has no primitives");
            continue;
        }
        for (size_t p = 0; p < m->primitive_count; p++) validate_primitive(&v, s, i, p);
    }
    for (size_t i = 0; i < s->material_count; i++) {
        const ue_scene_material *m = &s->materials[i];
        char path[160];
        snprintf(path, sizeof path, "scene/materials[%zu]", i);
        if (!name_ok(m->name)) verr(&v, "scene.name", path, "name is not NUL-terminated");
        float f[12] = {m->base_color[0], m->base_color[1], m->base_color[2], m->base_color[3],
                       m->metallic,      m->roughness,     m->alpha_cutoff,  m->uv_offset[0],
                       m->uv_offset[1],  m->uv_rotation,   m->uv_scale[0],   m->uv_scale[1]};
        check_finite(&v, path, "factors", f, 12);
        for (int k = 0; k < 6; k++)
            if (f[k] < 0.0f || f[k] > 1.0f) {
                verr(&v, "scene.material.range", path,
                     "base colour / metallic / roughness factors must lie in [0, 1]");
                break;
            }
        if (m->alpha_cutoff < 0.0f)
            verr(&v, "scene.material.cutoff", path, "alpha cutoff is negative");
        if ((unsigned)m->alpha_mode > UE_ALPHA_BLEND)
            verr(&v, "scene.material.alpha", path, "unknown alpha mode %d", (int)m->alpha_mode);
        if (m->base_color_texture < -1 || m->base_color_texture >= (int64_t)s->texture_count)
            verr(&v, "scene.material.texture", path, "texture %d out of range (%zu textures)",
                 (int)m->base_color_texture, s->texture_count);
    }
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
