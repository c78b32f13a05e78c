/* unearth — glTF meshes into IR meshes, primitive for primitive: vertex attributes, indices
 * (strips and fans become lists), materials; what the IR cannot hold is an error at its path. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/gltf_read_int.h"
#include "scene/scene_int.h"

#define FLOATS (GR_CT(GR_FLOAT))
#define NORM_INTS (GR_CT(GR_BYTE) | GR_CT(GR_UBYTE) | GR_CT(GR_SHORT) | GR_CT(GR_USHORT))
#define UINTS (GR_CT(GR_UBYTE) | GR_CT(GR_USHORT) | GR_CT(GR_UINT))
#define COMPS(n) (1u << (n))

/* What one primitive's attributes read into before they go to the IR. */
typedef struct prim_in {
    uint32_t vertex_count;
    uint32_t *joints[2];        /* JOINTS_0/1, 4 per vertex */
    float *weights[2];          /* WEIGHTS_0/1 */
} prim_in;

/* Reads one attribute's accessor, checking its count against the vertex count. */
static bool read_attr(gr_ctx *c, const ue_jv *attrs, const char *name, const char *base,
                      const gr_acc_rule *rule, uint32_t vertex_count, gr_acc *out) {
    char path[160];
    snprintf(path, sizeof path, "%s/attributes/%s", base, name);
    int32_t acc;
    if (!gr_index(c, attrs, name, gr_accessor_count(c), true, path, &acc) ||
        !gr_accessor(c, acc, path, rule, out))
        return false;
    if (vertex_count && out->count != vertex_count) {
        free(out->f);
        free(out->u);
        return gr_fail(c, "gltf.attribute.count", UE_NO_OFFSET, path,
                       "%u elements but POSITION has %u", out->count, vertex_count);
    }
    return true;
}

/* Float attributes: POSITION, NORMAL, TANGENT, TEXCOORD_n, COLOR_n (vec3 colours get alpha 1). */
static bool read_float_attr(gr_ctx *c, const ue_jv *attrs, const char *name, const char *base,
                            ue_scene_primitive *p, float **dst, uint32_t comps, bool color) {
    /* normals and tangents take normalized integers (KHR_mesh_quantization), UVs plain ones too */
    gr_acc_rule rule = {COMPS(comps), FLOATS | NORM_INTS, comps != 2, false};
    if (color) rule = (gr_acc_rule){COMPS(3) | COMPS(4), FLOATS | NORM_INTS, true, false};
    gr_acc a;
    if (!read_attr(c, attrs, name, base, &rule, p->vertex_count, &a)) return false;
    if (color && a.comps == 3) {
        float *rgba = malloc((size_t)a.count * 4 * sizeof *rgba);
        if (!rgba) {
            free(a.f);
            ue_parse_fail(&c->pc, UE_ERR_NOMEM);
            return false;
        }
        for (size_t i = 0; i < a.count; i++) {
            memcpy(rgba + i * 4, a.f + i * 3, 3 * sizeof *rgba);
            rgba[i * 4 + 3] = 1.0f;
        }
        free(a.f);
        a.f = rgba;
    }
    *dst = a.f;
    return true;
}

/* "TEXCOORD_3" → 3 for prefix "TEXCOORD_"; -1 if it is not that prefix and a number. */
static int set_number(const char *name, const char *prefix) {
    size_t n = strlen(prefix);
    if (strncmp(name, prefix, n) != 0 || !name[n]) return -1;
    int v = 0;
    for (const char *q = name + n; *q; q++) {
        if (*q < '0' || *q > '9' || v > 1000) return -1;
        v = v * 10 + (*q - '0');
    }
    return v;
}

static bool read_skin_attr(gr_ctx *c, const ue_jv *attrs, const char *name, const char *base,
                           prim_in *in, int set, bool joints) {
    char path[160];
    snprintf(path, sizeof path, "%s/attributes/%s", base, name);
    if (set >= UE_MAX_INFLUENCES / 4)
        return gr_fail(c, "gltf.attribute.limit", UE_NO_OFFSET, path,
                       "more than %d joint influences per vertex", UE_MAX_INFLUENCES);
    gr_acc_rule rule = joints ? (gr_acc_rule){COMPS(4), GR_CT(GR_UBYTE) | GR_CT(GR_USHORT), false, true}
                              : (gr_acc_rule){COMPS(4), FLOATS | GR_CT(GR_UBYTE) | GR_CT(GR_USHORT),
                                              true, false};
    gr_acc a;
    if (!read_attr(c, attrs, name, base, &rule, in->vertex_count, &a)) return false;
    if (joints) in->joints[set] = a.u;
    else in->weights[set] = a.f;
    return true;
}

/* One attribute by name. */
static bool read_one_attr(gr_ctx *c, const ue_jv *attrs, const char *name, const char *base,
                          ue_scene_primitive *p, prim_in *in) {
    char path[160];
    snprintf(path, sizeof path, "%s/attributes/%s", base, name);
    int uv = set_number(name, "TEXCOORD_"), col = set_number(name, "COLOR_");
    int jo = set_number(name, "JOINTS_"), we = set_number(name, "WEIGHTS_");
    if (strcmp(name, "POSITION") == 0) return true;
    if (strcmp(name, "NORMAL") == 0)
        return read_float_attr(c, attrs, name, base, p, &p->normals, 3, false);
    if (strcmp(name, "TANGENT") == 0)
        return read_float_attr(c, attrs, name, base, p, &p->tangents, 4, false);
    if (uv >= UE_MAX_UV_SETS || col >= UE_MAX_COLOR_SETS)
        return gr_fail(c, "gltf.attribute.limit", UE_NO_OFFSET, path,
                       "the IR holds %d UV and %d colour sets", UE_MAX_UV_SETS, UE_MAX_COLOR_SETS);
    if (uv >= 0) return read_float_attr(c, attrs, name, base, p, &p->uv[uv], 2, false);
    if (col >= 0) return read_float_attr(c, attrs, name, base, p, &p->colors[col], 4, true);
    if (jo >= 0) return read_skin_attr(c, attrs, name, base, in, jo, true);
    if (we >= 0) return read_skin_attr(c, attrs, name, base, in, we, false);
    if (name[0] == '_') {
        gr_warn(c, "gltf.attribute.skipped", path, "application-specific attribute left out");
        return true;
    }
    return gr_fail(c, "gltf.attribute.unknown", UE_NO_OFFSET, path, "unknown attribute semantic");
}

/* JOINTS_n / WEIGHTS_n pairs into the IR's influences × vertex rows. */
static bool merge_skin(gr_ctx *c, const char *base, ue_scene_primitive *p, prim_in *in) {
    int sets = 0;
    for (int k = 0; k < 2; k++) {
        if (!in->joints[k] != !in->weights[k] || (k == 1 && in->joints[1] && !in->joints[0]))
            return gr_fail(c, "gltf.attribute.skin", UE_NO_OFFSET, base,
                           "JOINTS_%d and WEIGHTS_%d must come together, in order", k, k);
        if (in->joints[k]) sets = k + 1;
    }
    if (!sets) return true;
    uint32_t inf = (uint32_t)sets * 4, n = p->vertex_count;
    p->joints = malloc((size_t)n * inf * sizeof *p->joints);
    p->weights = malloc((size_t)n * inf * sizeof *p->weights);
    if (!p->joints || !p->weights) {
        ue_parse_fail(&c->pc, UE_ERR_NOMEM);
        return false;
    }
    p->influences = inf;
    for (size_t v = 0; v < n; v++)
        for (uint32_t k = 0; k < inf; k++) {
            uint32_t j = in->joints[k / 4][v * 4 + k % 4];
            p->joints[v * inf + k] = (uint16_t)j; /* u8/u16 accessors: always fits */
            p->weights[v * inf + k] = in->weights[k / 4][v * 4 + k % 4];
        }
    return true;
}

static void free_prim_in(prim_in *in) {
    for (int k = 0; k < 2; k++) {
        free(in->joints[k]);
        free(in->weights[k]);
    }
}

/* UV and colour sets must be used in order (uv[k] needs uv[k - 1]). */
static bool check_set_order(gr_ctx *c, const char *base, const ue_scene_primitive *p) {
    for (int k = 1; k < UE_MAX_UV_SETS; k++)
        if (p->uv[k] && !p->uv[k - 1])
            return gr_fail(c, "gltf.attribute.gap", UE_NO_OFFSET, base,
                           "TEXCOORD_%d without TEXCOORD_%d", k, k - 1);
    for (int k = 1; k < UE_MAX_COLOR_SETS; k++)
        if (p->colors[k] && !p->colors[k - 1])
            return gr_fail(c, "gltf.attribute.gap", UE_NO_OFFSET, base,
                           "COLOR_%d without COLOR_%d", k, k - 1);
    return true;
}

static bool read_attributes(gr_ctx *c, const ue_jv *prim, const char *base, ue_scene_primitive *p) {
    bool ok = true;
    const ue_jv *attrs = gr_object(c, prim, "attributes", base, &ok);
    if (!ok) return false;
    if (!attrs || !ue_jv_get(attrs, "POSITION"))
        return gr_fail(c, "gltf.attribute.missing", UE_NO_OFFSET, base, "no POSITION attribute");
    gr_acc_rule rule = {COMPS(3), FLOATS | NORM_INTS, false, false};
    gr_acc pos;
    if (!read_attr(c, attrs, "POSITION", base, &rule, 0, &pos)) return false;
    p->positions = pos.f;
    p->vertex_count = pos.count;
    p->positions_quantized = pos.ctype != GR_FLOAT;
    if (pos.count > UE_SCENE_MAX_VERTICES)
        return gr_fail(c, "gltf.attribute.limit", UE_NO_OFFSET, base, "%u vertices", pos.count);
    prim_in in = {0};
    in.vertex_count = pos.count;
    UE_JV_FOR_MEMBERS(attrs, m) {
        if (!(ok = read_one_attr(c, attrs, m->key, base, p, &in))) break;
    }
    ok = ok && merge_skin(c, base, p, &in) && check_set_order(c, base, p);
    free_prim_in(&in);
    return ok;
}

/* Strip and fan index lists into a triangle list, as the glTF spec numbers their triangles. */
static uint32_t *to_list(const uint32_t *src, uint32_t n, int mode, uint32_t *out_n) {
    uint32_t tris = n >= 3 ? n - 2 : 0;
    uint32_t *t = malloc(((size_t)tris * 3 + 1) * sizeof *t);
    if (!t) return NULL;
    for (uint32_t i = 0; i < tris; i++) {
        uint32_t a = src ? src[i] : i, b = src ? src[i + 1] : i + 1, d = src ? src[i + 2] : i + 2;
        uint32_t *o = t + (size_t)i * 3;
        if (mode == 6) {
            uint32_t first = src ? src[0] : 0;
            o[0] = b, o[1] = d, o[2] = first;
        } else if (i % 2) {
            o[0] = b, o[1] = a, o[2] = d;
        } else {
            o[0] = a, o[1] = b, o[2] = d;
        }
    }
    *out_n = tris * 3;
    return t;
}

static bool read_indices(gr_ctx *c, const ue_jv *prim, const char *base, int mode, ue_scene_primitive *p) {
    char path[160];
    snprintf(path, sizeof path, "%s/indices", base);
    int32_t acc;
    gr_acc a = {0};
    gr_acc_rule rule = {COMPS(1), UINTS, false, true};
    if (!gr_index(c, prim, "indices", gr_accessor_count(c), false, base, &acc)) return false;
    if (acc >= 0 && !gr_accessor(c, acc, path, &rule, &a)) return false;
    for (uint32_t i = 0; i < a.count; i++)
        if (a.u[i] >= p->vertex_count) {
            uint32_t bad = a.u[i];
            free(a.u);
            return gr_fail(c, "gltf.index.vertex", UE_NO_OFFSET, path,
                           "index %u at position %u is not below the vertex count %u", bad, i,
                           p->vertex_count);
        }
    if (mode == 4) {
        p->indices = a.u;
        p->index_count = a.count;
        if (p->index_count % 3 || (!a.u && p->vertex_count % 3))
            return gr_fail(c, "gltf.index.count", UE_NO_OFFSET, acc >= 0 ? path : base,
                           "%u %s: not whole triangles", a.u ? a.count : p->vertex_count,
                           a.u ? "indices" : "vertices");
        return true;
    }
    p->indices = to_list(a.u, a.u ? a.count : p->vertex_count, mode, &p->index_count);
    free(a.u);
    if (!p->indices) ue_parse_fail(&c->pc, UE_ERR_NOMEM);
    return p->indices != NULL;
}

static bool read_primitive(gr_ctx *c, const ue_jv *prim, const char *base, ue_scene_primitive *p) {
    uint64_t mode;
    if (!ue_jv_is(prim, UE_JV_OBJECT))
        return gr_fail(c, "gltf.json.type", UE_NO_OFFSET, base, "expected an object");
    if (!gr_uint(c, prim, "mode", 6, 4, false, base, &mode)) return false;
    if (mode < 4)
        return gr_fail(c, "gltf.primitive.mode", UE_NO_OFFSET, base,
                       "mode %d (%s): only triangles can be imported", (int)mode,
                       mode == 0 ? "points" : "lines");
    if (ue_jv_get(prim, "targets"))
        return gr_fail(c, "gltf.primitive.targets", UE_NO_OFFSET, base,
                       "morph targets: the IR cannot hold them");
    return read_attributes(c, prim, base, p) && read_indices(c, prim, base, (int)mode, p) &&
           gr_index(c, prim, "material", c->s->material_count, false, base, &p->material) &&
           gr_other_extensions(c, prim, base, NULL) &&
           gr_extras(c, prim, base, &p->source, NULL, NULL);
}

static bool read_mesh(gr_ctx *c, const ue_jv *mesh, size_t m) {
    char path[48], name[64];
    snprintf(path, sizeof path, "/meshes/%zu", m);
    bool ok = true;
    if (!ue_jv_is(mesh, UE_JV_OBJECT))
        return gr_fail(c, "gltf.json.type", UE_NO_OFFSET, path, "expected an object");
    const ue_jv *prims = gr_array(c, mesh, "primitives", path, &ok);
    if (!ok || !gr_name(c, mesh, path, name)) return false;
    int32_t mi = ue_scene_add_mesh(c->s, name);
    if (mi < 0) {
        ue_parse_fail(&c->pc, UE_ERR_NOMEM);
        return false;
    }
    ue_scene_mesh *me = &c->s->meshes[mi];
    if (!gr_extras(c, mesh, path, &me->source, &me->extras, NULL)) return false;
    if (ue_jv_items(prims) == 0)
        return gr_fail(c, "gltf.mesh.empty", UE_NO_OFFSET, path, "no primitives");
    for (size_t i = 0; i < ue_jv_items(prims); i++) {
        char pp[64];
        snprintf(pp, sizeof pp, "%s/primitives/%zu", path, i);
        ue_scene_primitive *p = ue_scene_add_primitive(c->s, mi);
        if (!p) {
            ue_parse_fail(&c->pc, UE_ERR_NOMEM);
            return false;
        }
        if (!read_primitive(c, ue_jv_at(prims, i), pp, p)) return false;
    }
    return true;
}

bool gr_read_meshes(gr_ctx *c) {
    bool ok = true;
    const ue_jv *meshes = gr_array(c, c->root, "meshes", "", &ok);
    for (size_t m = 0; ok && m < ue_jv_items(meshes); m++)
        ok = read_mesh(c, ue_jv_at(meshes, m), m);
    return ok;
}
