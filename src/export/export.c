/* unearth — glTF 2.0 writer: lays the scene's arrays into one binary buffer (every view
 * 4-aligned), then streams the JSON in a fixed order, and wraps both as .glb or .gltf + .bin. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/gltf_int.h"
#include "unearth/image.h"
#include "export/json.h"
#include "common/io.h"

/* strnlen is POSIX, not C11: the length of a fixed-size name field that may lack its NUL. */
static size_t bounded_len(const char *s, size_t max) {
    const char *z = memchr(s, 0, max);
    return z ? (size_t)(z - s) : max;
}

/* glTF enums */
#define GL_FLOAT 5126u
#define GL_UNSIGNED_BYTE 5121u
#define GL_UNSIGNED_SHORT 5123u
#define GL_UNSIGNED_INT 5125u
#define GL_ARRAY_BUFFER 34962u
#define GL_ELEMENT_ARRAY_BUFFER 34963u

typedef struct accessor {
    uint32_t view;
    uint32_t component_type;
    uint32_t count;
    uint32_t ncomp;          /* components per element (16 for MAT4) */
    bool minmax;
    float min[4], max[4];    /* only for ≤ 4 components (POSITION, animation input) */
} accessor;

typedef struct view {
    size_t offset, length;
    uint32_t stride;         /* 0 = omitted */
    uint32_t target;         /* 0 = omitted */
} view;

typedef struct prim_acc {
    int32_t pos, nrm, tan, jnt, wgt, idx;
    int32_t uv[UE_MAX_UV_SETS];
    int32_t col[UE_MAX_COLOR_SETS];
} prim_acc;

typedef struct sampler_acc {
    int32_t input, output;
} sampler_acc;

/* How one IR channel is written: its form, its pointer, its sampler index within the written
 * animation (-1 when not written) and, for a base colour channel, the alpha folded into it. */
typedef struct chan_plan {
    ue_gltf_channel_form form;
    int32_t sampler;
    int32_t alpha;
    char pointer[192];
} chan_plan;

typedef struct gl_sampler {
    ue_wrap wrap_s, wrap_t;
    bool nearest;
} gl_sampler;

typedef struct exporter {
    const ue_scene *s;
    const ue_gltf_options *o;
    ue_diag *d;
    ue_buf bin;
    accessor *acc;
    size_t nacc, cap_acc;
    view *views;
    size_t nviews, cap_views;
    prim_acc *prims;          /* flattened over meshes, in mesh then primitive order */
    size_t *prim_base;        /* first flattened primitive of each mesh */
    int32_t *skin_ibm;
    sampler_acc *samplers;    /* flattened over animations, one per channel */
    chan_plan *plans;         /* flattened like samplers */
    bool *node_visibility;    /* per node: gets a KHR_node_visibility object */
    size_t *chan_base;
    int32_t *image_view;
    int32_t *texture_sampler;
    size_t *child_start;      /* children of node i: child_list[child_start[i] .. [i + 1]) */
    size_t *child_list;
    gl_sampler *gl_samplers;
    size_t ngl_samplers;
    bool nomem;
} exporter;

static bool grow(void **arr, size_t *cap, size_t need, size_t elem) {
    if (need <= *cap) return true;
    size_t nc = *cap ? *cap * 2 : 64;
    while (nc < need) nc *= 2;
    void *n = realloc(*arr, nc * elem);
    if (!n) return false;
    *arr = n;
    *cap = nc;
    return true;
}

static void put_f32(ue_buf *b, float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    ue_buf_put_u32le(b, u);
}

/* Starts a bufferView at the next 4-byte boundary (glTF requires accessor offsets aligned
 * to their component size; 4 covers all our types, MAT4 and images included). */
static size_t view_begin(exporter *e) {
    ue_buf_align(&e->bin, 4);
    return e->bin.size;
}

static int32_t view_end(exporter *e, size_t start, uint32_t stride, uint32_t target) {
    if (!grow((void **)&e->views, &e->cap_views, e->nviews + 1, sizeof *e->views)) {
        e->nomem = true;
        return -1;
    }
    view *v = &e->views[e->nviews];
    v->offset = start;
    v->length = e->bin.size - start;
    v->stride = stride;
    v->target = target;
    return (int32_t)e->nviews++;
}

static int32_t add_accessor(exporter *e, int32_t viewi, uint32_t ctype, uint32_t count,
                            uint32_t ncomp) {
    if (viewi < 0) return -1;
    if (!grow((void **)&e->acc, &e->cap_acc, e->nacc + 1, sizeof *e->acc)) {
        e->nomem = true;
        return -1;
    }
    accessor *a = &e->acc[e->nacc];
    memset(a, 0, sizeof *a);
    a->view = (uint32_t)viewi;
    a->component_type = ctype;
    a->count = count;
    a->ncomp = ncomp;
    return (int32_t)e->nacc++;
}

/* Writes `count` float elements of `ncomp` components as a view + accessor; with `minmax`
 * the bounds are computed from exactly the floats written, so they match bit for bit. */
static int32_t float_accessor(exporter *e, const float *data, uint32_t count, uint32_t ncomp,
                              uint32_t target, bool minmax) {
    size_t start = view_begin(e);
    size_t n = (size_t)count * ncomp;
    float mn[4] = {0}, mx[4] = {0};
    for (size_t i = 0; i < n; i++) {
        float f = data[i];
        if (f == 0) f = 0; /* store -0 as +0 so bounds and data agree in every reader */
        put_f32(&e->bin, f);
        if (minmax && ncomp <= 4) {
            size_t c = i % ncomp;
            if (i < ncomp || f < mn[c]) mn[c] = f;
            if (i < ncomp || f > mx[c]) mx[c] = f;
        }
    }
    uint32_t stride = target == GL_ARRAY_BUFFER ? 4 * ncomp : 0;
    int32_t a = add_accessor(e, view_end(e, start, stride, target), GL_FLOAT, count, ncomp);
    if (a >= 0 && minmax && ncomp <= 4) {
        e->acc[a].minmax = true;
        memcpy(e->acc[a].min, mn, sizeof mn);
        memcpy(e->acc[a].max, mx, sizeof mx);
    }
    return a;
}

static void normalize3(const float *in, float *out) {
    double x = in[0], y = in[1], z = in[2], l = sqrt(x * x + y * y + z * z);
    out[0] = (float)(x / l);
    out[1] = (float)(y / l);
    out[2] = (float)(z / l);
}

static void normalize4(const float *in, float *out) {
    double x = in[0], y = in[1], z = in[2], w = in[3], l = sqrt(x * x + y * y + z * z + w * w);
    out[0] = (float)(x / l);
    out[1] = (float)(y / l);
    out[2] = (float)(z / l);
    out[3] = (float)(w / l);
}

/* Sum in float32, in order, of the non-zero weights: how the Khronos validator adds them. */
static float f32_sum(const float w[4]) {
    float acc = 0.0f;
    for (int k = 0; k < 4; k++)
        if (w[k] != 0) acc = (float)(acc + w[k]);
    return acc;
}

/* Renormalises one weight row so its float32 sum is 1 to within the validator's tolerance
 * (2e-7 per non-zero weight): divide by the exact sum, then push the float rounding residue
 * into the largest weight. */
static void normalize_weights(const float in[4], float out[4]) {
    double sum = 0;
    for (int k = 0; k < 4; k++) sum += in[k] > 0 ? in[k] : 0;
    int big = 0;
    for (int k = 0; k < 4; k++) {
        out[k] = in[k] > 0 ? (float)(in[k] / sum) : 0.0f;
        if (out[k] > out[big]) big = k;
    }
    for (int iter = 0; iter < 4; iter++) {
        float s = f32_sum(out);
        if (s == 1.0f) break;
        out[big] = (float)(out[big] + (1.0 - (double)s));
    }
}

/* glTF viewers read 4 influences (JOINTS_0/WEIGHTS_0); the IR allows up to 8. Rows with more
 * keep their 4 largest weights (the earlier influence wins a tie), in their original order,
 * and normalize_weights then makes them sum to 1 again. Rows with 4 or fewer pass unchanged,
 * padded with zero weights. */
void ue_gltf_reduce_influences(const uint16_t *joints, const float *weights, uint32_t n,
                               uint16_t out_joints[4], float out_weights[4]) {
    bool keep[UE_MAX_INFLUENCES] = {false};
    uint32_t m = n < UE_MAX_INFLUENCES ? n : UE_MAX_INFLUENCES;
    for (uint32_t pick = 0; pick < 4 && pick < m; pick++) {
        int best = -1;
        for (uint32_t k = 0; k < m; k++)
            if (!keep[k] && (best < 0 || weights[k] > weights[best])) best = (int)k;
        keep[best] = true;
    }
    uint32_t w = 0;
    for (uint32_t k = 0; k < m; k++)
        if (keep[k]) {
            out_joints[w] = joints[k];
            out_weights[w++] = weights[k];
        }
    for (; w < 4; w++) {
        out_joints[w] = 0;
        out_weights[w] = 0.0f;
    }
}

static void write_skinning(exporter *e, const ue_scene_primitive *p, prim_acc *pa) {
    uint32_t vc = p->vertex_count, n = p->influences;
    size_t start = view_begin(e);
    for (size_t v = 0; v < vc; v++) {
        uint16_t j[4];
        float w[4];
        ue_gltf_reduce_influences(p->joints + v * n, p->weights + v * n, n, j, w);
        /* A zero weight keeps joint 0: a non-zero joint index with zero weight draws a
         * validator warning and means nothing. */
        for (int k = 0; k < 4; k++) ue_buf_put_u16le(&e->bin, w[k] > 0 ? j[k] : 0);
    }
    pa->jnt = add_accessor(e, view_end(e, start, 8, GL_ARRAY_BUFFER), GL_UNSIGNED_SHORT, vc, 4);
    start = view_begin(e);
    for (size_t v = 0; v < vc; v++) {
        uint16_t j[4];
        float w[4], nw[4];
        ue_gltf_reduce_influences(p->joints + v * n, p->weights + v * n, n, j, w);
        normalize_weights(w, nw);
        for (int k = 0; k < 4; k++) put_f32(&e->bin, nw[k]);
    }
    pa->wgt = add_accessor(e, view_end(e, start, 16, GL_ARRAY_BUFFER), GL_FLOAT, vc, 4);
}

static void write_primitive(exporter *e, const ue_scene_primitive *p, prim_acc *pa) {
    uint32_t vc = p->vertex_count;
    size_t n3 = (size_t)vc * 3;
    pa->pos = float_accessor(e, p->positions, vc, 3, GL_ARRAY_BUFFER, true);
    pa->nrm = pa->tan = pa->jnt = pa->wgt = pa->idx = -1;
    for (int k = 0; k < UE_MAX_UV_SETS; k++) pa->uv[k] = -1;
    for (int k = 0; k < UE_MAX_COLOR_SETS; k++) pa->col[k] = -1;
    if (p->normals) {
        /* glTF requires unit normals (validator tolerance ~0.7 %); renormalise on the way out. */
        size_t start = view_begin(e);
        for (size_t i = 0; i < n3; i += 3) {
            float nv[3];
            normalize3(p->normals + i, nv);
            for (int k = 0; k < 3; k++) put_f32(&e->bin, nv[k] == 0 ? 0.0f : nv[k]);
        }
        pa->nrm = add_accessor(e, view_end(e, start, 12, GL_ARRAY_BUFFER), GL_FLOAT, vc, 3);
    }
    if (p->tangents) {
        /* xyz renormalised like normals; w is the bitangent sign, validated as ±1. */
        size_t start = view_begin(e);
        for (size_t i = 0; i < (size_t)vc * 4; i += 4) {
            float tv[3];
            normalize3(p->tangents + i, tv);
            for (int k = 0; k < 3; k++) put_f32(&e->bin, tv[k] == 0 ? 0.0f : tv[k]);
            put_f32(&e->bin, p->tangents[i + 3]);
        }
        pa->tan = add_accessor(e, view_end(e, start, 16, GL_ARRAY_BUFFER), GL_FLOAT, vc, 4);
    }
    for (int k = 0; k < UE_MAX_UV_SETS && p->uv[k]; k++)
        pa->uv[k] = float_accessor(e, p->uv[k], vc, 2, GL_ARRAY_BUFFER, false);
    for (int k = 0; k < UE_MAX_COLOR_SETS && p->colors[k]; k++)
        pa->col[k] = float_accessor(e, p->colors[k], vc, 4, GL_ARRAY_BUFFER, false);
    if (p->joints && p->weights) write_skinning(e, p, pa);
    if (p->index_count) {
        uint32_t max = 0;
        for (size_t i = 0; i < p->index_count; i++)
            if (p->indices[i] > max) max = p->indices[i];
        /* 65535 is the primitive-restart value of 16-bit indices, so it needs 32 bits. */
        bool small = max < 65535u;
        size_t start = view_begin(e);
        for (size_t i = 0; i < p->index_count; i++) {
            if (small) ue_buf_put_u16le(&e->bin, (uint16_t)p->indices[i]);
            else ue_buf_put_u32le(&e->bin, p->indices[i]);
        }
        pa->idx = add_accessor(e, view_end(e, start, 0, GL_ELEMENT_ARRAY_BUFFER),
                               small ? GL_UNSIGNED_SHORT : GL_UNSIGNED_INT, p->index_count, 1);
    }
}

static int32_t sampler_index(exporter *e, const ue_scene_texture *t) {
    for (size_t i = 0; i < e->ngl_samplers; i++)
        if (e->gl_samplers[i].wrap_s == t->wrap_s && e->gl_samplers[i].wrap_t == t->wrap_t &&
            e->gl_samplers[i].nearest == t->nearest)
            return (int32_t)i;
    gl_sampler *g = &e->gl_samplers[e->ngl_samplers]; /* sized to texture_count up front */
    g->wrap_s = t->wrap_s;
    g->wrap_t = t->wrap_t;
    g->nearest = t->nearest;
    return (int32_t)e->ngl_samplers++;
}

/* Channels keyed at the same times share one input accessor. */
static int32_t shared_input(exporter *e, size_t a, size_t c) {
    const ue_scene *s = e->s;
    const ue_anim_channel *ch = &s->animations[a].channels[c];
    for (size_t a2 = 0; a2 <= a; a2++) {
        const ue_scene_animation *an2 = &s->animations[a2];
        size_t lim = a2 == a ? c : an2->channel_count;
        for (size_t c2 = 0; c2 < lim; c2++) {
            const ue_anim_channel *o = &an2->channels[c2];
            int32_t in = e->samplers[e->chan_base[a2] + c2].input;
            if (in >= 0 && o->key_count == ch->key_count &&
                memcmp(o->times, ch->times, ch->key_count * sizeof(float)) == 0)
                return in;
        }
    }
    return -1;
}

/* Visibility is a glTF bool: unsigned bytes, 1 for shown. */
static int32_t visibility_output(exporter *e, const ue_anim_channel *ch) {
    size_t start = view_begin(e);
    for (size_t k = 0; k < ch->key_count; k++) ue_buf_put_u8(&e->bin, ch->values[k] > 0.5f);
    return add_accessor(e, view_end(e, start, 0, 0), GL_UNSIGNED_BYTE, ch->key_count, 1);
}

/* baseColorFactor keys: RGBA from a colour channel and/or an alpha channel with the same keys.
 * Without a colour channel RGB holds the material's factor (and zero cubic tangents). */
static int32_t color_output(exporter *e, const ue_anim_channel *color,
                            const ue_anim_channel *alpha, const float rest[4]) {
    const ue_anim_channel *keys = color ? color : alpha;
    uint32_t per = keys->interpolation == UE_INTERP_CUBIC ? 3 : 1;
    uint32_t count = keys->key_count * per;
    size_t start = view_begin(e);
    for (size_t k = 0; k < count; k++) {
        bool tangent = per == 3 && k % 3 != 1;
        float px[4];
        for (int i = 0; i < 4; i++)
            px[i] = color ? color->values[k * 4 + (size_t)i] : (tangent ? 0.0f : rest[i]);
        if (alpha) px[3] = alpha->values[k];
        for (int i = 0; i < 4; i++) put_f32(&e->bin, px[i] == 0 ? 0.0f : px[i]);
    }
    return add_accessor(e, view_end(e, start, 0, 0), GL_FLOAT, count, 4);
}

static int32_t float_output(exporter *e, const ue_anim_channel *ch) {
    bool quat = ch->target == UE_TARGET_ROTATION;
    uint32_t per = ch->interpolation == UE_INTERP_CUBIC ? 3 : 1;
    uint32_t count = ch->key_count * per;
    size_t start = view_begin(e);
    for (size_t k = 0; k < count; k++) {
        const float *v = ch->values + k * ch->components;
        /* Quaternion keys must be unit; cubic-spline tangents (k % 3 != 1) are not. */
        if (quat && (per == 1 || k % 3 == 1)) {
            float q[4];
            normalize4(v, q);
            for (int i = 0; i < 4; i++) put_f32(&e->bin, q[i] == 0 ? 0.0f : q[i]);
        } else {
            for (uint32_t i = 0; i < ch->components; i++)
                put_f32(&e->bin, v[i] == 0 ? 0.0f : v[i]);
        }
    }
    return add_accessor(e, view_end(e, start, 0, 0), GL_FLOAT, count, ch->components);
}

static void write_channel(exporter *e, size_t a, size_t c) {
    const ue_scene_animation *an = &e->s->animations[a];
    const ue_anim_channel *ch = &an->channels[c];
    const chan_plan *pl = &e->plans[e->chan_base[a] + c];
    sampler_acc *sa = &e->samplers[e->chan_base[a] + c];
    sa->input = shared_input(e, a, c);
    if (sa->input < 0) sa->input = float_accessor(e, ch->times, ch->key_count, 1, 0, true);
    if (ch->target == UE_TARGET_VISIBILITY) {
        sa->output = visibility_output(e, ch);
    } else if (ch->target == UE_TARGET_BASE_COLOR) {
        sa->output = color_output(e, ch, pl->alpha >= 0 ? &an->channels[pl->alpha] : NULL,
                                  e->s->materials[ch->material].base_color);
    } else if (ch->target == UE_TARGET_ALPHA) {
        sa->output = color_output(e, NULL, ch, e->s->materials[ch->material].base_color);
    } else {
        sa->output = float_output(e, ch);
    }
}

static const char *target_name(ue_anim_target t) {
    static const char *const names[UE_TARGET_COUNT] = {
        "translation", "rotation",  "scale",    "visibility", "base colour",
        "alpha",       "UV offset", "UV scale", "UV rotation", "texture index"};
    return (unsigned)t < UE_TARGET_COUNT ? names[t] : "unknown";
}

/* Decides how every channel is written and numbers the written samplers per animation;
 * what glTF cannot express is reported as a warning naming it, never dropped silently. */
static void plan_channels(exporter *e) {
    const ue_scene *s = e->s;
    /* The same rule as ue_gltf_node_has_visibility, in one pass instead of one per node. */
    for (size_t i = 0; i < s->node_count; i++) e->node_visibility[i] = s->nodes[i].hidden;
    for (size_t a = 0; a < s->animation_count; a++)
        for (size_t c = 0; c < s->animations[a].channel_count; c++) {
            const ue_anim_channel *ch = &s->animations[a].channels[c];
            if (ch->target == UE_TARGET_VISIBILITY) e->node_visibility[ch->node] = true;
        }
    size_t nch = 0;
    for (size_t a = 0; a < s->animation_count; a++) {
        e->chan_base[a] = nch;
        nch += s->animations[a].channel_count;
    }
    for (size_t a = 0; a < s->animation_count; a++) {
        const ue_scene_animation *an = &s->animations[a];
        int32_t written = 0;
        for (size_t c = 0; c < an->channel_count; c++) {
            chan_plan *pl = &e->plans[e->chan_base[a] + c];
            const char *why = NULL;
            pl->form = ue_gltf_channel_pointer(s, a, c, pl->pointer, sizeof pl->pointer, &why);
            pl->alpha = -1;
            pl->sampler = -1;
            e->samplers[e->chan_base[a] + c].input = e->samplers[e->chan_base[a] + c].output = -1;
            if (pl->form == UE_GLTF_CHANNEL_UNSUPPORTED) {
                char path[160];
                snprintf(path, sizeof path, "scene/animations[%zu]/channels[%zu]", a, c);
                ue_diag_add(e->d, UE_SEV_WARNING, "gltf.anim.unsupported", UE_NO_OFFSET, path,
                            "%s channel of animation \"%.64s\" left out: %s",
                            target_name(an->channels[c].target), an->name, why);
            } else if (pl->form != UE_GLTF_CHANNEL_MERGED) {
                pl->sampler = written++;
            }
        }
        /* An alpha folded into a colour channel is written by that channel. */
        for (size_t c = 0; c < an->channel_count; c++) {
            if (e->plans[e->chan_base[a] + c].form != UE_GLTF_CHANNEL_MERGED) continue;
            for (size_t c2 = 0; c2 < an->channel_count; c2++)
                if (an->channels[c2].target == UE_TARGET_BASE_COLOR &&
                    an->channels[c2].material == an->channels[c].material)
                    e->plans[e->chan_base[a] + c2].alpha = (int32_t)c;
        }
        if (written == 0 && an->channel_count) {
            char path[64];
            snprintf(path, sizeof path, "scene/animations[%zu]", a);
            ue_diag_add(e->d, UE_SEV_WARNING, "gltf.anim.empty", UE_NO_OFFSET, path,
                        "animation \"%.64s\" has no channel glTF can express; left out",
                        an->name);
        }
    }
}

/* Texture slots whose role glTF has no place for (or a second slot of one role). */
static void report_unwritten_slots(exporter *e) {
    static const char *const roles[] = {"base colour", "normal",     "emissive", "occlusion",
                                        "metallic-roughness", "specular", "reflection", "other"};
    for (size_t i = 0; i < e->s->material_count; i++) {
        const ue_scene_material *m = &e->s->materials[i];
        for (size_t k = 0; k < m->slot_count; k++) {
            if (ue_gltf_slot_location(m, k)) continue;
            char path[160];
            snprintf(path, sizeof path, "scene/materials[%zu]/slots[%zu]", i, k);
            ue_diag_add(e->d, UE_SEV_WARNING, "gltf.material.slot", UE_NO_OFFSET, path,
                        "%s texture slot of material \"%.64s\" left out: glTF has no place "
                        "for it (or an earlier slot has the same role)",
                        roles[m->slots[k].role], m->name);
        }
    }
}

static void write_binary(exporter *e) {
    const ue_scene *s = e->s;
    size_t nprim = 0;
    for (size_t m = 0; m < s->mesh_count; m++) {
        e->prim_base[m] = nprim;
        nprim += s->meshes[m].primitive_count;
    }
    for (size_t m = 0; m < s->mesh_count && !e->nomem; m++)
        for (size_t p = 0; p < s->meshes[m].primitive_count; p++)
            write_primitive(e, &s->meshes[m].primitives[p], &e->prims[e->prim_base[m] + p]);

    for (size_t k = 0; k < s->skin_count && !e->nomem; k++) {
        const ue_scene_skin *sk = &s->skins[k];
        e->skin_ibm[k] = -1;
        if (!sk->inverse_bind) continue;
        size_t start = view_begin(e);
        for (size_t j = 0; j < sk->joint_count; j++)
            for (int c = 0; c < 16; c++) {
                float f = sk->inverse_bind[j * 16 + (size_t)c];
                /* The validator wants the affine row exact; validation allowed 1e-4 slack. */
                if (c == 3 || c == 7 || c == 11) f = 0.0f;
                if (c == 15) f = 1.0f;
                put_f32(&e->bin, f == 0 ? 0.0f : f);
            }
        e->skin_ibm[k] = add_accessor(e, view_end(e, start, 0, 0), GL_FLOAT,
                                      (uint32_t)sk->joint_count, 16);
    }

    for (size_t a = 0; a < s->animation_count && !e->nomem; a++)
        for (size_t c = 0; c < s->animations[a].channel_count && !e->nomem; c++)
            if (e->plans[e->chan_base[a] + c].sampler >= 0) write_channel(e, a, c);

    for (size_t t = 0; t < s->texture_count && !e->nomem; t++) {
        const ue_scene_texture *tx = &s->textures[t];
        size_t start = view_begin(e);
        ue_result r = ue_png_encode_rgba(tx->width, tx->height, tx->rgba, &e->bin);
        if (r != UE_OK) {
            e->nomem = true;
            break;
        }
        e->image_view[t] = view_end(e, start, 0, 0);
        e->texture_sampler[t] = sampler_index(e, tx);
    }
    ue_buf_align(&e->bin, 4);
    if (e->bin.failed) e->nomem = true;
}

/* ---- JSON ------------------------------------------------------------------------------ */

static void key_int(ue_json *j, const char *k, int64_t v) {
    ue_json_key(j, k);
    ue_json_int(j, v);
}
static void key_str(ue_json *j, const char *k, const char *v) {
    ue_json_key(j, k);
    ue_json_string(j, v);
}
static void key_floats(ue_json *j, const char *k, const float *v, size_t n) {
    ue_json_key(j, k);
    ue_json_array_begin(j);
    for (size_t i = 0; i < n; i++) ue_json_float(j, v[i]);
    ue_json_array_end(j);
}
static void key_name(ue_json *j, const char *name) {
    size_t n = bounded_len(name, 64);
    if (n == 0) return;
    ue_json_key(j, "name");
    ue_json_string_n(j, name, n);
}

static bool clip_has_meta(const ue_scene_animation *an) {
    return an->fps > 0 || an->loop || an->end_frame > an->start_frame;
}

static void write_source(ue_json *j, const ue_source_id *src) {
    ue_json_key(j, "unearth_source");
    ue_json_object_begin(j);
    ue_json_key(j, "format");
    ue_json_string_n(j, src->format, bounded_len(src->format, sizeof src->format));
    key_int(j, "type", src->type);
    if (src->offset != UINT64_MAX) {
        ue_json_key(j, "offset");
        ue_json_uint(j, src->offset);
    }
    key_int(j, "index", src->index);
    ue_json_object_end(j);
}

static void write_clip(ue_json *j, const ue_scene_animation *an) {
    ue_json_key(j, "unearth_clip");
    ue_json_object_begin(j);
    if (an->fps > 0) {
        ue_json_key(j, "fps");
        ue_json_float(j, an->fps);
    }
    ue_json_key(j, "start_frame");
    ue_json_float(j, an->start_frame);
    ue_json_key(j, "end_frame");
    ue_json_float(j, an->end_frame);
    ue_json_key(j, "loop");
    ue_json_bool(j, an->loop);
    ue_json_object_end(j);
}

/* Whole numbers below 2^53 are written as integers, so ids and flags keep every digit. */
static void write_user_extras(ue_json *j, const ue_extras *x) {
    for (size_t i = 0; i < x->count; i++) {
        const ue_extra *it = &x->items[i];
        ue_json_key(j, it->key);
        if (it->kind == UE_EXTRA_STRING) ue_json_string(j, it->text);
        else if (it->number == floor(it->number) && fabs(it->number) < 9007199254740992.0)
            ue_json_int(j, (int64_t)it->number);
        else ue_json_float(j, it->number);
    }
}

/* "extras": the source id (unless no_extras), clip metadata, then the reader's own pairs. */
static void write_extras_full(exporter *e, ue_json *j, const ue_source_id *src,
                              const ue_extras *x, const ue_scene_animation *clip) {
    bool source = !e->o->no_extras && src && src->format[0] != 0;
    bool meta = clip && clip_has_meta(clip);
    bool user = x && x->count;
    if (!source && !meta && !user) return;
    ue_json_key(j, "extras");
    ue_json_object_begin(j);
    if (source) write_source(j, src);
    if (meta) write_clip(j, clip);
    if (user) write_user_extras(j, x);
    ue_json_object_end(j);
}

static void write_extras(exporter *e, ue_json *j, const ue_source_id *src) {
    write_extras_full(e, j, src, NULL, NULL);
}

static bool material_has_transform(const ue_scene_material *m) {
    for (size_t k = 0; k < m->slot_count; k++)
        if (m->slots[k].transform.enabled && ue_gltf_slot_location(m, k)) return true;
    return false;
}

static bool animation_written(const exporter *e, size_t a) {
    for (size_t c = 0; c < e->s->animations[a].channel_count; c++)
        if (e->plans[e->chan_base[a] + c].sampler >= 0) return true;
    return false;
}

/* Percent-encodes everything outside RFC 3986 unreserved/sub-delims and '/', so a file name
 * with spaces or non-ASCII bytes is still a valid relative URI reference. */
static void uri_encode(const char *in, char *out, size_t cap) {
    static const char hex[] = "0123456789ABCDEF";
    size_t w = 0;
    for (const unsigned char *p = (const unsigned char *)in; *p && w + 4 < cap; p++) {
        unsigned char c = *p;
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
            strchr("-._~!$&'()*+,;=@/", c)) {
            out[w++] = (char)c;
        } else {
            out[w++] = '%';
            out[w++] = hex[c >> 4];
            out[w++] = hex[c & 15];
        }
    }
    out[w] = 0;
}

static const char *type_name(uint32_t ncomp) {
    switch (ncomp) {
    case 1: return "SCALAR";
    case 2: return "VEC2";
    case 3: return "VEC3";
    case 4: return "VEC4";
    case 16: return "MAT4";
    default: return "SCALAR";
    }
}

/* A slot's textureInfo; the UV set goes to texCoord, and to KHR_texture_transform's own
 * texCoord as well, since that one overrides the textureInfo's when present. */
static void write_texture_info(ue_json *j, const char *key, const ue_texture_slot *sl) {
    ue_json_key(j, key);
    ue_json_object_begin(j);
    key_int(j, "index", sl->texture);
    if (sl->uv_set) key_int(j, "texCoord", sl->uv_set);
    if (sl->role == UE_TEX_NORMAL && sl->strength != 1.0f) {
        ue_json_key(j, "scale");
        ue_json_float(j, sl->strength);
    }
    if (sl->role == UE_TEX_OCCLUSION && sl->strength != 1.0f) {
        ue_json_key(j, "strength");
        ue_json_float(j, sl->strength);
    }
    if (sl->transform.enabled) {
        const ue_uv_transform *t = &sl->transform;
        ue_json_key(j, "extensions");
        ue_json_object_begin(j);
        ue_json_key(j, "KHR_texture_transform");
        ue_json_object_begin(j);
        key_floats(j, "offset", t->offset, 2);
        ue_json_key(j, "rotation");
        ue_json_float(j, t->rotation);
        key_floats(j, "scale", t->scale, 2);
        if (sl->uv_set) key_int(j, "texCoord", sl->uv_set);
        ue_json_object_end(j);
        ue_json_object_end(j);
    }
    ue_json_object_end(j);
}

/* The slot the exporter writes for `role` (the first one of that role), or NULL. */
static const ue_texture_slot *slot_for(const ue_scene_material *m, ue_texture_role role) {
    for (size_t k = 0; k < m->slot_count; k++)
        if (m->slots[k].role == role) return ue_gltf_slot_location(m, k) ? &m->slots[k] : NULL;
    return NULL;
}

static void write_material(exporter *e, ue_json *j, const ue_scene_material *m) {
    ue_json_object_begin(j);
    key_name(j, m->name);
    ue_json_key(j, "pbrMetallicRoughness");
    ue_json_object_begin(j);
    /* All factors are written even at their defaults: animation pointers target them
     * and readers should not need to know glTF's defaults to see the material. */
    key_floats(j, "baseColorFactor", m->base_color, 4);
    const ue_texture_slot *sl = slot_for(m, UE_TEX_BASE_COLOR);
    if (sl) write_texture_info(j, "baseColorTexture", sl);
    sl = slot_for(m, UE_TEX_METALLIC_ROUGHNESS);
    if (sl) write_texture_info(j, "metallicRoughnessTexture", sl);
    ue_json_key(j, "metallicFactor");
    ue_json_float(j, m->metallic);
    ue_json_key(j, "roughnessFactor");
    ue_json_float(j, m->roughness);
    ue_json_object_end(j);
    if ((sl = slot_for(m, UE_TEX_NORMAL))) write_texture_info(j, "normalTexture", sl);
    if ((sl = slot_for(m, UE_TEX_OCCLUSION))) write_texture_info(j, "occlusionTexture", sl);
    if ((sl = slot_for(m, UE_TEX_EMISSIVE))) write_texture_info(j, "emissiveTexture", sl);
    if (m->emissive[0] != 0 || m->emissive[1] != 0 || m->emissive[2] != 0)
        key_floats(j, "emissiveFactor", m->emissive, 3);
    if (m->alpha_mode == UE_ALPHA_MASK) {
        key_str(j, "alphaMode", "MASK");
        ue_json_key(j, "alphaCutoff");
        ue_json_float(j, m->alpha_cutoff);
    } else if (m->alpha_mode == UE_ALPHA_BLEND) {
        key_str(j, "alphaMode", "BLEND");
    }
    if (m->double_sided) {
        ue_json_key(j, "doubleSided");
        ue_json_bool(j, true);
    }
    if (m->unlit) {
        ue_json_key(j, "extensions");
        ue_json_object_begin(j);
        ue_json_key(j, "KHR_materials_unlit");
        ue_json_object_begin(j);
        ue_json_object_end(j);
        ue_json_object_end(j);
    }
    write_extras_full(e, j, &m->source, &m->extras, NULL);
    ue_json_object_end(j);
}

static void write_channel_target(ue_json *j, const ue_anim_channel *ch, const chan_plan *pl) {
    static const char *const paths[] = {"translation", "rotation", "scale"};
    ue_json_key(j, "target");
    ue_json_object_begin(j);
    if (pl->form == UE_GLTF_CHANNEL_POINTER) {
        key_str(j, "path", "pointer");
        ue_json_key(j, "extensions");
        ue_json_object_begin(j);
        ue_json_key(j, "KHR_animation_pointer");
        ue_json_object_begin(j);
        key_str(j, "pointer", pl->pointer);
        ue_json_object_end(j);
        ue_json_object_end(j);
    } else {
        key_int(j, "node", ch->node);
        key_str(j, "path", paths[ch->target]);
    }
    ue_json_object_end(j);
}

static void write_animation(exporter *e, ue_json *j, size_t a) {
    static const char *const interp[] = {"LINEAR", "STEP", "CUBICSPLINE"};
    const ue_scene_animation *an = &e->s->animations[a];
    const chan_plan *plans = &e->plans[e->chan_base[a]];
    ue_json_object_begin(j);
    key_name(j, an->name);
    ue_json_key(j, "channels");
    ue_json_array_begin(j);
    for (size_t c = 0; c < an->channel_count; c++) {
        if (plans[c].sampler < 0) continue;
        ue_json_object_begin(j);
        key_int(j, "sampler", plans[c].sampler);
        write_channel_target(j, &an->channels[c], &plans[c]);
        write_extras(e, j, &an->channels[c].source);
        ue_json_object_end(j);
    }
    ue_json_array_end(j);
    ue_json_key(j, "samplers");
    ue_json_array_begin(j);
    for (size_t c = 0; c < an->channel_count; c++) {
        if (plans[c].sampler < 0) continue;
        const sampler_acc *sa = &e->samplers[e->chan_base[a] + c];
        ue_json_object_begin(j);
        key_int(j, "input", sa->input);
        key_str(j, "interpolation", interp[an->channels[c].interpolation]);
        key_int(j, "output", sa->output);
        ue_json_object_end(j);
    }
    ue_json_array_end(j);
    write_extras_full(e, j, &an->source, &an->extras, an);
    ue_json_object_end(j);
}

/* ---- the glTF JSON, one top-level property per function, in the order they are written ---- */

/* "key": [ — every top-level list and most nested ones open this way. */
static void key_array_begin(ue_json *j, const char *k) {
    ue_json_key(j, k);
    ue_json_array_begin(j);
}

static void write_asset(ue_json *j) {
    ue_json_key(j, "asset");
    ue_json_object_begin(j);
    key_str(j, "generator", "unearth");
    key_str(j, "version", "2.0");
    ue_json_object_end(j);
}

static bool uses_pointer_channels(const exporter *e) {
    const ue_scene *s = e->s;
    for (size_t a = 0; a < s->animation_count; a++)
        for (size_t c = 0; c < s->animations[a].channel_count; c++)
            if (e->plans[e->chan_base[a] + c].form == UE_GLTF_CHANNEL_POINTER) return true;
    return false;
}

static void write_extensions_used(const exporter *e, ue_json *j) {
    const ue_scene *s = e->s;
    bool unlit = false, texform = false, visibility = false;
    bool pointer = uses_pointer_channels(e);
    for (size_t i = 0; i < s->material_count; i++) {
        unlit = unlit || s->materials[i].unlit;
        texform = texform || material_has_transform(&s->materials[i]);
    }
    for (size_t i = 0; i < s->node_count; i++) visibility = visibility || e->node_visibility[i];
    if (!(unlit || texform || pointer || visibility)) return;
    /* Alphabetical; none is required, since a viewer without them still shows the model. */
    key_array_begin(j, "extensionsUsed");
    if (pointer) ue_json_string(j, "KHR_animation_pointer");
    if (unlit) ue_json_string(j, "KHR_materials_unlit");
    if (visibility) ue_json_string(j, "KHR_node_visibility");
    if (texform) ue_json_string(j, "KHR_texture_transform");
    ue_json_array_end(j);
}

/* One scene holding the root nodes. */
static void write_scenes(const exporter *e, ue_json *j) {
    const ue_scene *s = e->s;
    key_int(j, "scene", 0);
    key_array_begin(j, "scenes");
    ue_json_object_begin(j);
    key_name(j, s->name);
    if (s->node_count) {
        key_array_begin(j, "nodes");
        for (size_t i = 0; i < s->node_count; i++)
            if (s->nodes[i].parent < 0) ue_json_int(j, (int64_t)i);
        ue_json_array_end(j);
    }
    ue_json_object_end(j);
    ue_json_array_end(j);
}

/* TRS, each only when it is not the identity (the rotation normalised, -0 written as 0). */
static void write_node_transform(ue_json *j, const ue_scene_node *n) {
    const float *t = n->translation, *sc = n->scale;
    float q[4];
    normalize4(n->rotation, q);
    if (t[0] != 0 || t[1] != 0 || t[2] != 0) key_floats(j, "translation", t, 3);
    if (q[0] != 0 || q[1] != 0 || q[2] != 0 || q[3] != 1) {
        for (int k = 0; k < 4; k++) q[k] = q[k] == 0 ? 0.0f : q[k];
        key_floats(j, "rotation", q, 4);
    }
    if (sc[0] != 1 || sc[1] != 1 || sc[2] != 1) key_floats(j, "scale", sc, 3);
}

static void write_node_visibility(ue_json *j, const ue_scene_node *n) {
    ue_json_key(j, "extensions");
    ue_json_object_begin(j);
    ue_json_key(j, "KHR_node_visibility");
    ue_json_object_begin(j);
    ue_json_key(j, "visible");
    ue_json_bool(j, !n->hidden);
    ue_json_object_end(j);
    ue_json_object_end(j);
}

static void write_node(exporter *e, ue_json *j, size_t i) {
    const ue_scene_node *n = &e->s->nodes[i];
    ue_json_object_begin(j);
    key_name(j, n->name);
    if (e->child_start[i + 1] > e->child_start[i]) {
        key_array_begin(j, "children");
        for (size_t c = e->child_start[i]; c < e->child_start[i + 1]; c++)
            ue_json_int(j, (int64_t)e->child_list[c]);
        ue_json_array_end(j);
    }
    write_node_transform(j, n);
    if (n->mesh >= 0) key_int(j, "mesh", n->mesh);
    if (n->skin >= 0) key_int(j, "skin", n->skin);
    if (e->node_visibility[i]) write_node_visibility(j, n);
    write_extras_full(e, j, &n->source, &n->extras, NULL);
    ue_json_object_end(j);
}

static void write_nodes(exporter *e, ue_json *j) {
    if (!e->s->node_count) return;
    key_array_begin(j, "nodes");
    for (size_t i = 0; i < e->s->node_count; i++) write_node(e, j, i);
    ue_json_array_end(j);
}

/* "PREFIX_k": accessor for each set k in use; the sets in use come first, so -1 ends them. */
static void write_attribute_sets(ue_json *j, const char *prefix, const int32_t *acc, int max) {
    for (int k = 0; k < max && acc[k] >= 0; k++) {
        char name[16];
        snprintf(name, sizeof name, "%s_%d", prefix, k);
        key_int(j, name, acc[k]);
    }
}

static void write_attributes(ue_json *j, const prim_acc *pa) {
    ue_json_key(j, "attributes");
    ue_json_object_begin(j);
    key_int(j, "POSITION", pa->pos);
    if (pa->nrm >= 0) key_int(j, "NORMAL", pa->nrm);
    if (pa->tan >= 0) key_int(j, "TANGENT", pa->tan);
    write_attribute_sets(j, "TEXCOORD", pa->uv, UE_MAX_UV_SETS);
    write_attribute_sets(j, "COLOR", pa->col, UE_MAX_COLOR_SETS);
    if (pa->jnt >= 0) key_int(j, "JOINTS_0", pa->jnt);
    if (pa->wgt >= 0) key_int(j, "WEIGHTS_0", pa->wgt);
    ue_json_object_end(j);
}

static void write_mesh(exporter *e, ue_json *j, size_t m) {
    const ue_scene_mesh *me = &e->s->meshes[m];
    ue_json_object_begin(j);
    key_name(j, me->name);
    key_array_begin(j, "primitives");
    for (size_t p = 0; p < me->primitive_count; p++) {
        const prim_acc *pa = &e->prims[e->prim_base[m] + p];
        ue_json_object_begin(j);
        write_attributes(j, pa);
        if (pa->idx >= 0) key_int(j, "indices", pa->idx);
        if (me->primitives[p].material >= 0) key_int(j, "material", me->primitives[p].material);
        write_extras(e, j, &me->primitives[p].source);
        ue_json_object_end(j);
    }
    ue_json_array_end(j);
    write_extras_full(e, j, &me->source, &me->extras, NULL);
    ue_json_object_end(j);
}

static void write_meshes(exporter *e, ue_json *j) {
    if (!e->s->mesh_count) return;
    key_array_begin(j, "meshes");
    for (size_t m = 0; m < e->s->mesh_count; m++) write_mesh(e, j, m);
    ue_json_array_end(j);
}

static void write_materials(exporter *e, ue_json *j) {
    const ue_scene *s = e->s;
    if (!s->material_count) return;
    key_array_begin(j, "materials");
    for (size_t i = 0; i < s->material_count; i++) write_material(e, j, &s->materials[i]);
    ue_json_array_end(j);
}

/* Texture t reads image t (a PNG in a buffer view) through its sampler. */
static void write_textures_and_images(exporter *e, ue_json *j) {
    const ue_scene *s = e->s;
    key_array_begin(j, "textures");
    for (size_t t = 0; t < s->texture_count; t++) {
        ue_json_object_begin(j);
        key_name(j, s->textures[t].name);
        key_int(j, "sampler", e->texture_sampler[t]);
        key_int(j, "source", (int64_t)t);
        write_extras(e, j, &s->textures[t].source);
        ue_json_object_end(j);
    }
    ue_json_array_end(j);
    key_array_begin(j, "images");
    for (size_t t = 0; t < s->texture_count; t++) {
        ue_json_object_begin(j);
        key_name(j, s->textures[t].name);
        key_int(j, "bufferView", e->image_view[t]);
        key_str(j, "mimeType", "image/png");
        ue_json_object_end(j);
    }
    ue_json_array_end(j);
}

/* GL enums: NEAREST/LINEAR, their mipmap forms, and REPEAT (the default, left out) /
 * CLAMP_TO_EDGE / MIRRORED_REPEAT. */
static void write_samplers(const exporter *e, ue_json *j) {
    static const int64_t wrap_gl[] = {10497, 33071, 33648};
    key_array_begin(j, "samplers");
    for (size_t i = 0; i < e->ngl_samplers; i++) {
        const gl_sampler *g = &e->gl_samplers[i];
        ue_json_object_begin(j);
        key_int(j, "magFilter", g->nearest ? 9728 : 9729);
        key_int(j, "minFilter", g->nearest ? 9984 : 9987);
        if (g->wrap_s != UE_WRAP_REPEAT) key_int(j, "wrapS", wrap_gl[g->wrap_s]);
        if (g->wrap_t != UE_WRAP_REPEAT) key_int(j, "wrapT", wrap_gl[g->wrap_t]);
        ue_json_object_end(j);
    }
    ue_json_array_end(j);
}

static void write_skins(const exporter *e, ue_json *j) {
    const ue_scene *s = e->s;
    if (!s->skin_count) return;
    key_array_begin(j, "skins");
    for (size_t k = 0; k < s->skin_count; k++) {
        const ue_scene_skin *sk = &s->skins[k];
        ue_json_object_begin(j);
        key_name(j, sk->name);
        if (e->skin_ibm[k] >= 0) key_int(j, "inverseBindMatrices", e->skin_ibm[k]);
        key_array_begin(j, "joints");
        for (size_t i = 0; i < sk->joint_count; i++) ue_json_int(j, sk->joints[i]);
        ue_json_array_end(j);
        if (sk->skeleton >= 0) key_int(j, "skeleton", sk->skeleton);
        ue_json_object_end(j);
    }
    ue_json_array_end(j);
}

/* Only clips with at least one channel written (glTF forbids empty animations). */
static void write_animations(exporter *e, ue_json *j) {
    bool any = false;
    for (size_t a = 0; a < e->s->animation_count; a++) any = any || animation_written(e, a);
    if (!any) return;
    key_array_begin(j, "animations");
    for (size_t a = 0; a < e->s->animation_count; a++)
        if (animation_written(e, a)) write_animation(e, j, a);
    ue_json_array_end(j);
}

static void write_accessors(const exporter *e, ue_json *j) {
    if (!e->nacc) return;
    key_array_begin(j, "accessors");
    for (size_t i = 0; i < e->nacc; i++) {
        const accessor *a = &e->acc[i];
        ue_json_object_begin(j);
        key_int(j, "bufferView", a->view);
        key_int(j, "componentType", a->component_type);
        key_int(j, "count", a->count);
        key_str(j, "type", type_name(a->ncomp));
        if (a->minmax) {
            key_floats(j, "min", a->min, a->ncomp);
            key_floats(j, "max", a->max, a->ncomp);
        }
        ue_json_object_end(j);
    }
    ue_json_array_end(j);
}

static void write_buffer_views(const exporter *e, ue_json *j) {
    if (!e->nviews) return;
    key_array_begin(j, "bufferViews");
    for (size_t i = 0; i < e->nviews; i++) {
        const view *v = &e->views[i];
        ue_json_object_begin(j);
        key_int(j, "buffer", 0);
        if (v->offset) key_int(j, "byteOffset", (int64_t)v->offset);
        key_int(j, "byteLength", (int64_t)v->length);
        if (v->stride) key_int(j, "byteStride", v->stride);
        if (v->target) key_int(j, "target", v->target);
        ue_json_object_end(j);
    }
    ue_json_array_end(j);
}

/* One buffer: the GLB's BIN chunk (no uri) or the .bin file beside a .gltf. */
static void write_buffers(const exporter *e, ue_json *j) {
    if (!e->bin.size) return;
    key_array_begin(j, "buffers");
    ue_json_object_begin(j);
    if (e->o->format == UE_GLTF_SEPARATE) {
        char uri[1024];
        uri_encode(e->o->bin_uri ? e->o->bin_uri : "buffer.bin", uri, sizeof uri);
        key_str(j, "uri", uri);
    }
    key_int(j, "byteLength", (int64_t)e->bin.size);
    ue_json_object_end(j);
    ue_json_array_end(j);
}

/* The key order is fixed (and pinned by tests/cli/golden): the output is deterministic. */
static void write_json(exporter *e, ue_json *j) {
    ue_json_object_begin(j);
    write_asset(j);
    write_extensions_used(e, j);
    write_scenes(e, j);
    write_nodes(e, j);
    write_meshes(e, j);
    write_materials(e, j);
    if (e->s->texture_count) {
        write_textures_and_images(e, j);
        write_samplers(e, j);
    }
    write_skins(e, j);
    write_animations(e, j);
    write_accessors(e, j);
    write_buffer_views(e, j);
    write_buffers(e, j);
    ue_json_object_end(j);
}

static void exporter_free(exporter *e) {
    ue_buf_free(&e->bin);
    free(e->acc);
    free(e->views);
    free(e->prims);
    free(e->prim_base);
    free(e->skin_ibm);
    free(e->samplers);
    free(e->plans);
    free(e->node_visibility);
    free(e->chan_base);
    free(e->image_view);
    free(e->texture_sampler);
    free(e->gl_samplers);
    free(e->child_start);
    free(e->child_list);
}

/* Children in ascending node order, by counting sort over the parent links (validated). */
static void build_children(exporter *e) {
    const ue_scene *s = e->s;
    for (size_t i = 0; i < s->node_count; i++)
        if (s->nodes[i].parent >= 0) e->child_start[(size_t)s->nodes[i].parent + 1]++;
    for (size_t i = 0; i < s->node_count; i++) e->child_start[i + 1] += e->child_start[i];
    size_t *cursor = calloc(s->node_count + 1, sizeof *cursor);
    if (!cursor) {
        e->nomem = true;
        return;
    }
    memcpy(cursor, e->child_start, (s->node_count + 1) * sizeof *cursor);
    for (size_t i = 0; i < s->node_count; i++)
        if (s->nodes[i].parent >= 0) e->child_list[cursor[s->nodes[i].parent]++] = i;
    free(cursor);
}

static void *calloc1(size_t n, size_t size) { return calloc(n ? n : 1, size); }

ue_result ue_gltf_export(const ue_scene *s, const ue_gltf_options *o, ue_buf *main_out,
                         ue_buf *bin_out, ue_diag *d) {
    static const ue_gltf_options defaults;
    if (!o) o = &defaults;
    if (!s || !main_out || (o->format == UE_GLTF_SEPARATE && !bin_out) ||
        (o->format != UE_GLTF_GLB && o->format != UE_GLTF_SEPARATE)) {
        ue_diag_add(d, UE_SEV_ERROR, "gltf.usage", UE_NO_OFFSET, "gltf",
                    "missing scene/output buffer or unknown format");
        return UE_ERR_USAGE;
    }
    /* Refuse what would produce an invalid file; warnings pass through to the caller. */
    ue_diag local = {0};
    ue_diag *vd = d ? d : &local;
    size_t before = ue_diag_count(vd, UE_SEV_ERROR);
    ue_result vr = ue_scene_validate(s, vd);
    ue_result pr = vr == UE_OK ? ue_gltf_check_pointers(s, vd) : UE_OK;
    bool refused = vr != UE_OK || pr != UE_OK || ue_diag_count(vd, UE_SEV_ERROR) > before;
    ue_diag_free(&local);
    if (refused) return UE_ERR_INVALID;

    exporter e = {0};
    e.s = s;
    e.o = o;
    e.d = d;
    size_t nprim = 0, nch = 0;
    for (size_t m = 0; m < s->mesh_count; m++) nprim += s->meshes[m].primitive_count;
    for (size_t a = 0; a < s->animation_count; a++) nch += s->animations[a].channel_count;
    e.prims = calloc1(nprim, sizeof *e.prims);
    e.prim_base = calloc1(s->mesh_count, sizeof *e.prim_base);
    e.skin_ibm = calloc1(s->skin_count, sizeof *e.skin_ibm);
    e.samplers = calloc1(nch, sizeof *e.samplers);
    e.plans = calloc1(nch, sizeof *e.plans);
    e.node_visibility = calloc1(s->node_count, sizeof *e.node_visibility);
    e.chan_base = calloc1(s->animation_count, sizeof *e.chan_base);
    e.image_view = calloc1(s->texture_count, sizeof *e.image_view);
    e.texture_sampler = calloc1(s->texture_count, sizeof *e.texture_sampler);
    e.gl_samplers = calloc1(s->texture_count, sizeof *e.gl_samplers);
    e.child_start = calloc(s->node_count + 1, sizeof *e.child_start);
    e.child_list = calloc1(s->node_count, sizeof *e.child_list);
    ue_result rc = UE_ERR_NOMEM;
    ue_buf json = {0};
    if (!e.prims || !e.prim_base || !e.skin_ibm || !e.samplers || !e.plans ||
        !e.node_visibility || !e.chan_base ||
        !e.image_view || !e.texture_sampler || !e.gl_samplers || !e.child_start || !e.child_list)
        goto out;
    build_children(&e);
    plan_channels(&e);
    report_unwritten_slots(&e);
    write_binary(&e);
    if (e.nomem) goto out;

    ue_json j;
    ue_json_init(&j, &json, o->pretty ? 2 : 0);
    write_json(&e, &j);
    rc = ue_json_finish(&j, d);
    if (rc != UE_OK) goto out;

    if (o->format == UE_GLTF_GLB) {
        size_t jpad = (4 - json.size % 4) % 4;
        uint64_t total = 12 + 8 + (uint64_t)json.size + jpad + (e.bin.size ? 8 + e.bin.size : 0);
        if (total > UINT32_MAX) {
            ue_diag_add(d, UE_SEV_ERROR, "gltf.glb.size", UE_NO_OFFSET, "gltf",
                        "GLB would be %llu bytes, over the 4 GiB the format allows",
                        (unsigned long long)total);
            rc = UE_ERR_NOMEM;
            goto out;
        }
        size_t start = main_out->size;
        ue_buf_put(main_out, "glTF", 4);
        ue_buf_put_u32le(main_out, 2);
        ue_buf_put_u32le(main_out, (uint32_t)total);
        ue_buf_put_u32le(main_out, (uint32_t)(json.size + jpad));
        ue_buf_put(main_out, "JSON", 4);
        ue_buf_put(main_out, json.data, json.size);
        for (size_t i = 0; i < jpad; i++) ue_buf_put_u8(main_out, ' ');
        if (e.bin.size) {
            ue_buf_put_u32le(main_out, (uint32_t)e.bin.size); /* already 4-aligned */
            ue_buf_put(main_out, "BIN\0", 4);
            ue_buf_put(main_out, e.bin.data, e.bin.size);
        }
        if (main_out->failed) {
            if (main_out->size > start) main_out->size = start;
            rc = UE_ERR_NOMEM;
        }
    } else {
        size_t m0 = main_out->size, b0 = bin_out->size;
        ue_buf_put(main_out, json.data, json.size);
        ue_buf_put(bin_out, e.bin.data, e.bin.size);
        if (main_out->failed || bin_out->failed) {
            if (main_out->size > m0) main_out->size = m0;
            if (bin_out->size > b0) bin_out->size = b0;
            rc = UE_ERR_NOMEM;
        }
    }
out:
    if (rc == UE_ERR_NOMEM && ue_diag_count(d, UE_SEV_ERROR) == 0)
        ue_diag_add(d, UE_SEV_ERROR, "gltf.nomem", UE_NO_OFFSET, "gltf",
                    "out of memory or over an output size limit");
    ue_buf_free(&json);
    exporter_free(&e);
    return rc;
}

/* Extensions match in any case ("X.GLB"), as file managers and the CLI treat them. */
static bool has_extension(const char *path, size_t n, const char *ext) {
    size_t k = strlen(ext);
    if (n < k) return false;
    for (size_t i = 0; i < k; i++) {
        char c = path[n - k + i];
        if ((c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c) != ext[i]) return false;
    }
    return true;
}

bool ue_gltf_bin_path(const char *gltf_path, char *out, size_t cap) {
    size_t n = strlen(gltf_path);
    if (!has_extension(gltf_path, n, ".gltf") || n + 1 > cap) return false;
    memcpy(out, gltf_path, n - 5);
    memcpy(out + n - 5, ".bin", 5);
    return true;
}

ue_result ue_gltf_write_file(const ue_scene *s, const char *path, bool pretty, bool overwrite,
                             ue_diag *d) {
    size_t n = path ? strlen(path) : 0;
    bool glb = has_extension(path, n, ".glb");
    bool gltf = has_extension(path, n, ".gltf");
    if (!glb && !gltf) {
        ue_diag_add(d, UE_SEV_ERROR, "gltf.usage", UE_NO_OFFSET, "gltf",
                    "output name must end in .glb or .gltf");
        return UE_ERR_USAGE;
    }
    char bin_path[4096];
    const char *bin_name = NULL;
    if (gltf) {
        if (!ue_gltf_bin_path(path, bin_path, sizeof bin_path)) return UE_ERR_USAGE;
        const char *slash = strrchr(bin_path, '/');
        bin_name = slash ? slash + 1 : bin_path;
    }
    /* Both names are checked before anything is written, so a refused run leaves no file. */
    const char *taken = !overwrite && ue_path_exists(path) ? path
                        : (!overwrite && gltf && ue_path_exists(bin_path) ? bin_path : NULL);
    if (taken) {
        ue_diag_add(d, UE_SEV_ERROR, "io.exists", UE_NO_OFFSET, taken,
                    "output exists (use -f to overwrite)");
        return UE_ERR_USAGE;
    }
    ue_gltf_options o = {glb ? UE_GLTF_GLB : UE_GLTF_SEPARATE, bin_name, pretty, false};
    ue_buf main_out = {0}, bin_out = {0};
    ue_result rc = ue_gltf_export(s, &o, &main_out, &bin_out, d);
    /* The .bin goes first: a .gltf never appears without the buffer it names. */
    if (rc == UE_OK && gltf && bin_out.size)
        rc = ue_file_write_atomic(bin_path, bin_out.data, bin_out.size, overwrite, d);
    if (rc == UE_OK) rc = ue_file_write_atomic(path, main_out.data, main_out.size, overwrite, d);
    ue_buf_free(&main_out);
    ue_buf_free(&bin_out);
    return rc;
}
