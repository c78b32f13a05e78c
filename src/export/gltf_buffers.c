/* unearth — the binary side of the glTF writer: every primitive, skin and animation sampler
 * becomes 4-aligned bufferViews and accessors in one buffer, images as PNG views after them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/gltf_exporter.h"
#include "unearth/image.h"
#include "common/json_writer.h"
#include "common/bytes.h"
#include "common/io.h"
#include "common/write_pool.h"

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
    uint8_t le[4];
    memcpy(&u, &f, 4);
    ue_store_u32le(le, u);
    ue_buf_put_fast(b, le, 4);
}

/* Room for `bytes` more at the end of the binary buffer, filled by the caller, which then adds
 * them to its size; NULL when the buffer cannot grow (it is then marked failed). One check per
 * array instead of one per float. */
static uint8_t *bin_room(exporter *e, size_t bytes) {
    return ue_buf_reserve(&e->bin, bytes) ? e->bin.data + e->bin.size : NULL;
}

/* A float as glTF stores it: little-endian, -0 as +0 so bounds and data agree in every reader. */
static void store_f32(uint8_t *at, float f) {
    uint32_t u;
    if (f == 0) f = 0;
    memcpy(&u, &f, 4);
    ue_store_u32le(at, u);
}

static void put_u16(ue_buf *b, uint16_t v) {
    uint8_t le[2];
    ue_store_u16le(le, v);
    ue_buf_put_fast(b, le, 2);
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
    uint8_t *out = bin_room(e, n * 4);
    if (!out) n = 0;
    for (size_t i = 0; i < n; i++) {
        float f = data[i];
        if (f == 0) f = 0; /* store -0 as +0 so bounds and data agree in every reader */
        store_f32(out + 4 * i, f);
        if (minmax && ncomp <= 4) {
            size_t c = i % ncomp;
            if (i < ncomp || f < mn[c]) mn[c] = f;
            if (i < ncomp || f > mx[c]) mx[c] = f;
        }
    }
    e->bin.size += n * 4;
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
        for (int k = 0; k < 4; k++) put_u16(&e->bin, w[k] > 0 ? j[k] : 0);
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
            if (small) put_u16(&e->bin, (uint16_t)p->indices[i]);
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

/* Channels keyed at the same times share one input accessor: an open-addressing table of the
 * written inputs by their times' hash, so a file of many clips pays once per channel, not once
 * per pair of channels. */
typedef struct input_slot {
    const float *times;
    uint32_t count;
    bool used;
    int32_t input;
    uint64_t hash;
} input_slot;

typedef struct input_table {
    input_slot *slot;
    size_t mask;
} input_table;

static bool input_table_init(input_table *t, size_t channels) {
    size_t n = 16;
    while (n < 2 * channels) n *= 2;
    t->mask = n - 1;
    t->slot = calloc(n, sizeof *t->slot);
    return t->slot != NULL;
}

/* The slot holding these times, or the free slot where they belong. */
static input_slot *input_find(const input_table *t, const ue_anim_channel *ch, uint64_t h) {
    for (size_t i = (size_t)h & t->mask;; i = (i + 1) & t->mask) {
        input_slot *sl = &t->slot[i];
        if (!sl->used || (sl->hash == h && sl->count == ch->key_count &&
                          (!ch->key_count || memcmp(sl->times, ch->times, ch->key_count * sizeof(float)) == 0)))
            return sl;
    }
}

static int32_t channel_input(exporter *e, input_table *t, const ue_anim_channel *ch) {
    uint64_t h = ch->key_count ? ue_xxh64(ch->times, ch->key_count * sizeof(float), 0) : 0;
    input_slot *sl = input_find(t, ch, h);
    if (sl->used) return sl->input;
    int32_t in = float_accessor(e, ch->times, ch->key_count, 1, 0, true);
    if (in >= 0) *sl = (input_slot){ch->times, ch->key_count, true, in, h};
    return in;
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
    size_t start = view_begin(e), bytes = (size_t)count * ch->components * 4;
    uint8_t *room = bin_room(e, bytes);
    for (size_t k = 0; k < count && room; k++) {
        const float *v = ch->values + k * ch->components;
        uint8_t *out = room + k * ch->components * 4;
        /* Quaternion keys must be unit; cubic-spline tangents (k % 3 != 1) are not. */
        if (quat && (per == 1 || k % 3 == 1)) {
            float q[4];
            normalize4(v, q);
            for (int i = 0; i < 4; i++) store_f32(out + 4 * i, q[i]);
        } else {
            for (uint32_t i = 0; i < ch->components; i++) store_f32(out + 4 * i, v[i]);
        }
    }
    if (room) e->bin.size += bytes;
    return add_accessor(e, view_end(e, start, 0, 0), GL_FLOAT, count, ch->components);
}

static void write_channel(exporter *e, input_table *inputs, size_t a, size_t c) {
    const ue_scene_animation *an = &e->s->animations[a];
    const ue_anim_channel *ch = &an->channels[c];
    const chan_plan *pl = &e->plans[e->chan_base[a] + c];
    sampler_acc *sa = &e->samplers[e->chan_base[a] + c];
    sa->input = channel_input(e, inputs, ch);
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

/* ---- images: one PNG per distinct pixel content ------------------------------------------- */

/* A texture as the search for shared images sorts it: a .gltf's textures by the PNG file the
 * caller named (one image per file), the others (no file: a NULL entry of image_uris, or a
 * .glb) by their pixels' hash and size. Those with a file sort first, so the two kinds never
 * meet in one run. */
typedef struct image_key {
    uint64_t hash;
    uint32_t width, height;
    const char *uri;
    size_t texture;
} image_key;

static int image_key_order(const void *pa, const void *pb) {
    const image_key *a = pa, *b = pb;
    if (!a->uri != !b->uri) return a->uri ? -1 : 1;
    int c = a->uri ? strcmp(a->uri, b->uri) : 0;
    if (c) return c;
    if (a->uri) return (a->texture > b->texture) - (a->texture < b->texture); /* the first one heads it */
    if (a->hash != b->hash) return a->hash < b->hash ? -1 : 1;
    if (a->width != b->width) return a->width < b->width ? -1 : 1;
    if (a->height != b->height) return a->height < b->height ? -1 : 1;
    return (a->texture > b->texture) - (a->texture < b->texture);
}

static bool same_image(const ue_scene *s, const image_key *a, const image_key *b) {
    if (a->uri || b->uri) return a->uri && b->uri && !strcmp(a->uri, b->uri);
    return a->hash == b->hash && a->width == b->width && a->height == b->height &&
           !memcmp(s->textures[a->texture].rgba, s->textures[b->texture].rgba, (size_t)a->width * a->height * 4u);
}

/* twin[t]: the lowest-numbered texture whose image t shares (t itself when none). Sorting keeps
 * the search n log n, whatever the count. */
static bool find_twins(const exporter *e, size_t *twin) {
    const ue_scene *s = e->s;
    image_key *keys = ue_malloc_items(s->texture_count, sizeof *keys);
    if (!keys) return false;
    for (size_t t = 0; t < s->texture_count; t++) {
        const ue_scene_texture *tx = &s->textures[t];
        const char *uri = image_uri(e, t);
        uint64_t h = uri ? 0 : ue_xxh64(tx->rgba, (size_t)tx->width * tx->height * 4u, 0);
        keys[t] = (image_key){h, tx->width, tx->height, uri, t};
        twin[t] = t;
    }
    qsort(keys, s->texture_count, sizeof *keys, image_key_order);
    for (size_t i = 1, run = 0; i < s->texture_count; i++) {
        if (same_image(s, &keys[run], &keys[i])) twin[keys[i].texture] = keys[run].texture;
        else run = i;
    }
    free(keys);
    return true;
}

/* PNGs are encoded on every processor, a window at a time (at most IMAGE_WINDOW_PIXELS of
 * pixels, so the encoded images held at once stay bounded), each into its own buffer, then
 * appended in texture order: the bytes do not depend on the threads. The first window is encoded
 * while one thread writes the accessor data (meshes, skins, clips), which precedes the images in
 * the buffer and touches nothing the encoders touch. */
#define IMAGE_WINDOW_PIXELS (4u << 20)

typedef struct png_job {
    exporter *e;
    bool with_accessors;   /* item 0 writes the accessor data, the PNGs are items 1 … */
    const size_t *texture; /* the window's textures to encode */
    ue_buf *png;           /* one per texture */
    ue_result *r;
} png_job;

static void write_accessor_data(exporter *e);

static void encode_one(void *ctx, size_t i) {
    png_job *j = ctx;
    if (j->with_accessors && i-- == 0) {
        write_accessor_data(j->e);
        return;
    }
    const ue_scene_texture *tx = &j->e->s->textures[j->texture[i]];
    j->r[i] = ue_png_encode_rgba(tx->width, tx->height, tx->rgba, &j->png[i]);
}

/* Encodes the window texture[0..n) (with the accessor data beside it when with_accessors) and
 * appends each as an image view; false for no memory. */
static bool encode_window(exporter *e, const size_t *texture, size_t n, bool with_accessors) {
    ue_buf *png = calloc(n ? n : 1, sizeof *png);
    ue_result *r = malloc((n ? n : 1) * sizeof *r);
    bool ok = png && r;
    png_job j = {e, with_accessors, texture, png, r};
    if (ok) ue_parallel_for(n + with_accessors, ue_cpu_count(), encode_one, &j);
    else if (with_accessors) write_accessor_data(e);
    ok = ok && !e->nomem;
    for (size_t i = 0; i < n && ok; i++) {
        size_t start = view_begin(e);
        ue_buf_put(&e->bin, png[i].data, png[i].size);
        ok = r[i] == UE_OK && !e->bin.failed;
        if (ok) e->image_view[texture[i]] = view_end(e, start, 0, 0);
    }
    for (size_t i = 0; png && i < n; i++) ue_buf_free(&png[i]);
    free(png), free(r);
    return ok;
}

/* Identical pixels are stored once (the key is the decoded pixels; each texture keeps its own
 * sampler), so a model that repeats an image under other names or samplers pays for it once; a
 * .gltf's images are the PNG files the caller named, one image per file. The accessor data is
 * written beside the first window (or alone when there is none). */
static void write_accessors_and_images(exporter *e) {
    const ue_scene *s = e->s;
    size_t *twin = ue_malloc_items(s->texture_count, sizeof *twin);
    size_t *encode = ue_malloc_items(s->texture_count, sizeof *encode);
    if (!twin || !encode || !find_twins(e, twin)) {
        free(twin), free(encode);
        e->nomem = true;
        return;
    }
    int32_t images = 0;
    size_t queued = 0;
    for (size_t t = 0; t < s->texture_count; t++) {
        const ue_scene_texture *tx = &s->textures[t];
        e->texture_sampler[t] = sampler_index(e, tx);
        e->image_view[t] = -1;
        if (twin[t] != t) {
            e->texture_image[t] = e->texture_image[twin[t]];
            continue;
        }
        e->texture_image[t] = images++;
        if (!image_uri(e, t)) encode[queued++] = t; /* else a PNG file of its own, written by the caller */
    }
    bool accessors = true;
    for (size_t first = 0; (first < queued || accessors) && !e->nomem;) {
        size_t end = first;
        for (uint64_t pixels = 0; end < queued; end++) {
            uint64_t own = (uint64_t)s->textures[encode[end]].width * s->textures[encode[end]].height;
            if (end > first && pixels + own > IMAGE_WINDOW_PIXELS) break;
            pixels += own;
        }
        if (!encode_window(e, encode + first, end - first, accessors)) e->nomem = true;
        accessors = false, first = end;
    }
    free(twin), free(encode);
}

/* The meshes' primitives, the skins' inverse binds and the clips' channels, in that order. */
static void write_accessor_data(exporter *e) {
    const ue_scene *s = e->s;
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

    size_t channels = s->animation_count ? e->chan_base[s->animation_count - 1] +
                                               s->animations[s->animation_count - 1].channel_count
                                         : 0;
    input_table inputs;
    if (!input_table_init(&inputs, channels)) e->nomem = true;
    for (size_t a = 0; a < s->animation_count && !e->nomem; a++)
        for (size_t c = 0; c < s->animations[a].channel_count && !e->nomem; c++)
            if (e->plans[e->chan_base[a] + c].sampler >= 0) write_channel(e, &inputs, a, c);
    free(inputs.slot);
}

void ue_gltf_write_binary(exporter *e) {
    const ue_scene *s = e->s;
    size_t nprim = 0;
    for (size_t m = 0; m < s->mesh_count; m++) {
        e->prim_base[m] = nprim;
        nprim += s->meshes[m].primitive_count;
    }
    write_accessors_and_images(e);
    ue_buf_align(&e->bin, 4);
    if (e->bin.failed) e->nomem = true;
}
