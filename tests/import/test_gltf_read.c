/* Tests of the glTF reader: scenes exported by ue_gltf_export (GLB and .gltf + .bin, the fixture
 * scenes and the sample robot and creature) read back to the same IR; hand-written documents in
 * the styles other exporters write; and every class of bad input, each with its glTF path. */
#define _DEFAULT_SOURCE
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gltf_scenes.h"
#include "samples/samples.h"
#include "test.h"
#include "unearth/gltf.h"
#include "unearth/gltf_read.h"
#include "unearth/image.h"
#include "unearth/model.h"
#include "common/bytes.h"

/* ---- helpers ------------------------------------------------------------------------------ */

static bool near(double a, double b, double tol) { return fabs(a - b) <= tol * (1 + fabs(b)); }

#define CHECK_NEAR(a, b, tol)                                                                 \
    do {                                                                                      \
        double ue_a_ = (a), ue_b_ = (b);                                                      \
        if (!near(ue_a_, ue_b_, (tol))) {                                                     \
            fprintf(stderr, "%s:%d: %s ~ %s failed: %.9g != %.9g\n", __FILE__, __LINE__, #a, #b, \
                    ue_a_, ue_b_);                                                            \
            ue_test_failed_checks++;                                                          \
        }                                                                                     \
    } while (0)

/* A scratch directory for .gltf + .bin pairs. */
static const char *tmp_dir(void) {
    static char dir[512];
    if (dir[0]) return dir;
    const char *base = getenv("UE_TEST_TMP");
    snprintf(dir, sizeof dir, "%s/gltf_read_XXXXXX", base && base[0] ? base : "/tmp");
    if (base && base[0]) mkdir(base, 0755);
    if (!mkdtemp(dir)) snprintf(dir, sizeof dir, "/tmp");
    return dir;
}

static bool write_file(const char *dir, const char *name, const void *data, size_t n) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = n == 0 || fwrite(data, 1, n, f) == n; /* no data: an empty file */
    return fclose(f) == 0 && ok;
}

/* Exports `src` as GLB or .gltf + .bin and reads it back into `out` (strict). */
static ue_result roundtrip(const ue_scene *src, ue_gltf_format fmt, ue_scene *out, ue_diag *d) {
    ue_gltf_options o = {fmt, "model.bin", false, false};
    ue_buf main_out = {0}, bin = {0};
    ue_result r = ue_gltf_export(src, &o, &main_out, &bin, d);
    ue_scene_init(out);
    if (r != UE_OK) return r;
    if (fmt == UE_GLTF_GLB) {
        r = ue_gltf_read(main_out.data, main_out.size, NULL, UE_MODE_STRICT, out, d);
    } else {
        char path[1024];
        write_file(tmp_dir(), "model.bin", bin.data, bin.size);
        write_file(tmp_dir(), "model.gltf", main_out.data, main_out.size);
        snprintf(path, sizeof path, "%s/model.gltf", tmp_dir());
        r = ue_gltf_read_file(path, UE_MODE_STRICT, out, d);
    }
    ue_buf_free(&main_out);
    ue_buf_free(&bin);
    return r;
}

static void same_source(const ue_source_id *a, const ue_source_id *b) {
    CHECK_STR(a->format, b->format);
    CHECK_EQ_U(a->type, b->type);
    CHECK_EQ_U(a->offset, b->offset);
    CHECK_EQ_U(a->index, b->index);
}

static void same_extras(const ue_extras *a, const ue_extras *b) {
    CHECK_EQ_U(a->count, b->count);
    for (size_t i = 0; i < a->count && i < b->count; i++) {
        CHECK_STR(a->items[i].key, b->items[i].key);
        CHECK_EQ_U(a->items[i].kind, b->items[i].kind);
        CHECK_NEAR(a->items[i].number, b->items[i].number, 1e-9);
        CHECK_STR(a->items[i].text, b->items[i].text);
    }
}

static void same_floats(const float *a, const float *b, size_t n, double tol) {
    CHECK((a == NULL) == (b == NULL));
    if (!a || !b) return;
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        if (!near(a[i], b[i], tol) && bad++ == 0)
            fprintf(stderr, "  float %zu: %.9g != %.9g\n", i, (double)a[i], (double)b[i]);
    CHECK_EQ_U(bad, 0);
}

static void quat_normalised(const float q[4], float out[4]) {
    double l = sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3]);
    for (int k = 0; k < 4; k++) out[k] = (float)(q[k] / l);
}

static void same_nodes(const ue_scene *a, const ue_scene *b) {
    REQUIRE(a->node_count == b->node_count);
    for (size_t i = 0; i < a->node_count; i++) {
        const ue_scene_node *x = &a->nodes[i], *y = &b->nodes[i];
        float q[4];
        CHECK_STR(x->name, y->name);
        CHECK(x->parent == y->parent && x->mesh == y->mesh && x->skin == y->skin);
        CHECK(x->hidden == y->hidden);
        same_floats(x->translation, y->translation, 3, 0);
        same_floats(x->scale, y->scale, 3, 0);
        quat_normalised(y->rotation, q);
        same_floats(x->rotation, q, 4, 1e-6);
        same_source(&x->source, &y->source);
        same_extras(&x->extras, &y->extras);
    }
}

/* Joints and weights as the exporter writes them: reduced to 4, renormalised. */
static void same_skinning(const ue_scene_primitive *x, const ue_scene_primitive *y) {
    CHECK((x->weights == NULL) == (y->weights == NULL));
    if (!x->weights || !y->weights) return;
    CHECK_EQ_U(x->influences, 4);
    for (uint32_t v = 0; v < y->vertex_count; v++) {
        uint16_t j[4];
        float w[4];
        ue_gltf_reduce_influences(y->joints + v * y->influences, y->weights + v * y->influences,
                                  y->influences, j, w);
        double sum = w[0] + w[1] + w[2] + w[3];
        for (uint32_t k = 0; k < 4; k++) {
            CHECK_NEAR(x->weights[v * 4 + k], w[k] / sum, 1e-5);
            if (w[k] > 0) CHECK_EQ_U(x->joints[v * 4 + k], j[k]);
        }
    }
}

static void same_primitive(const ue_scene_primitive *x, const ue_scene_primitive *y) {
    size_t n = y->vertex_count;
    REQUIRE(x->vertex_count == y->vertex_count && x->index_count == y->index_count);
    same_floats(x->positions, y->positions, n * 3, 0);
    if (y->normals) { /* the exporter writes unit normals */
        float *unit = malloc(n * 3 * sizeof *unit);
        REQUIRE(unit);
        for (size_t v = 0; v < n; v++) {
            const float *q = y->normals + v * 3;
            double l = sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2]);
            for (size_t k = 0; k < 3; k++) unit[v * 3 + k] = (float)(q[k] / l);
        }
        same_floats(x->normals, unit, n * 3, 1e-6);
        free(unit);
    } else {
        CHECK(x->normals == NULL);
    }
    same_floats(x->tangents, y->tangents, n * 4, 1e-6);
    for (int k = 0; k < UE_MAX_UV_SETS; k++) same_floats(x->uv[k], y->uv[k], n * 2, 0);
    for (int k = 0; k < UE_MAX_COLOR_SETS; k++) same_floats(x->colors[k], y->colors[k], n * 4, 0);
    if (x->index_count && y->index_count)
        CHECK_MEM(x->indices, y->indices, y->index_count * sizeof *y->indices);
    CHECK(x->material == y->material);
    same_source(&x->source, &y->source);
    same_skinning(x, y);
}

static void same_meshes(const ue_scene *a, const ue_scene *b) {
    REQUIRE(a->mesh_count == b->mesh_count);
    for (size_t m = 0; m < a->mesh_count; m++) {
        CHECK_STR(a->meshes[m].name, b->meshes[m].name);
        same_source(&a->meshes[m].source, &b->meshes[m].source);
        same_extras(&a->meshes[m].extras, &b->meshes[m].extras);
        REQUIRE(a->meshes[m].primitive_count == b->meshes[m].primitive_count);
        for (size_t p = 0; p < a->meshes[m].primitive_count; p++)
            same_primitive(&a->meshes[m].primitives[p], &b->meshes[m].primitives[p]);
    }
}

static void same_slot(const ue_texture_slot *x, const ue_texture_slot *y) {
    CHECK(x->role == y->role && x->texture == y->texture);
    CHECK_EQ_U(x->uv_set, y->uv_set);
    CHECK_NEAR(x->strength, y->strength, 0);
    CHECK(x->transform.enabled == y->transform.enabled);
    if (y->transform.enabled) {
        same_floats(x->transform.offset, y->transform.offset, 2, 0);
        same_floats(x->transform.scale, y->transform.scale, 2, 0);
        CHECK_NEAR(x->transform.rotation, y->transform.rotation, 0);
    }
}

static void same_materials(const ue_scene *a, const ue_scene *b) {
    REQUIRE(a->material_count == b->material_count);
    for (size_t i = 0; i < a->material_count; i++) {
        const ue_scene_material *x = &a->materials[i], *y = &b->materials[i];
        CHECK_STR(x->name, y->name);
        same_floats(x->base_color, y->base_color, 4, 0);
        same_floats(x->emissive, y->emissive, 3, 0);
        CHECK(x->metallic == y->metallic && x->roughness == y->roughness);
        CHECK(x->alpha_mode == y->alpha_mode && x->double_sided == y->double_sided);
        CHECK(x->unlit == y->unlit);
        if (y->alpha_mode == UE_ALPHA_MASK) CHECK(x->alpha_cutoff == y->alpha_cutoff);
        REQUIRE(x->slot_count == y->slot_count);
        for (size_t k = 0; k < x->slot_count; k++) same_slot(&x->slots[k], &y->slots[k]);
        same_source(&x->source, &y->source);
        same_extras(&x->extras, &y->extras);
    }
    REQUIRE(a->texture_count == b->texture_count);
    for (size_t t = 0; t < a->texture_count; t++) {
        const ue_scene_texture *x = &a->textures[t], *y = &b->textures[t];
        CHECK_STR(x->name, y->name);
        REQUIRE(x->width == y->width && x->height == y->height);
        CHECK_MEM(x->rgba, y->rgba, (size_t)x->width * x->height * 4);
        CHECK(x->wrap_s == y->wrap_s && x->wrap_t == y->wrap_t && x->nearest == y->nearest);
        same_source(&x->source, &y->source);
    }
}

static void same_skins(const ue_scene *a, const ue_scene *b) {
    REQUIRE(a->skin_count == b->skin_count);
    for (size_t k = 0; k < a->skin_count; k++) {
        const ue_scene_skin *x = &a->skins[k], *y = &b->skins[k];
        REQUIRE(x->joint_count == y->joint_count);
        CHECK_MEM(x->joints, y->joints, x->joint_count * sizeof *x->joints);
        CHECK(x->skeleton == y->skeleton);
        for (size_t j = 0; j < x->joint_count; j++) { /* the exporter forces the last row */
            float want[16];
            memcpy(want, y->inverse_bind + j * 16, sizeof want);
            want[3] = want[7] = want[11] = 0, want[15] = 1;
            same_floats(x->inverse_bind + j * 16, want, 16, 0);
        }
    }
}

/* Channel c of the read clip against the source channel with the same typed target. */
static void same_channel(const ue_anim_channel *x, const ue_scene_animation *src) {
    const ue_anim_channel *y = NULL;
    for (size_t c = 0; c < src->channel_count && !y; c++)
        if (src->channels[c].target == x->target && src->channels[c].node == x->node &&
            src->channels[c].material == x->material && src->channels[c].slot == x->slot)
            y = &src->channels[c];
    REQUIRE(y != NULL);
    REQUIRE(x->key_count == y->key_count && x->interpolation == y->interpolation);
    same_floats(x->times, y->times, x->key_count, 0);
    size_t per = y->interpolation == UE_INTERP_CUBIC ? 3 : 1, n = x->key_count * per;
    for (size_t i = 0; i < n; i++) {
        float want[4];
        memcpy(want, y->values + i * y->components, y->components * sizeof *want);
        bool value = per == 1 || i % 3 == 1;
        if (y->target == UE_TARGET_ROTATION && value) quat_normalised(want, want);
        if (y->target == UE_TARGET_VISIBILITY) want[0] = want[0] > 0.5f ? 1.0f : 0.0f;
        same_floats(x->values + i * x->components, want, x->components, 1e-6);
    }
    same_source(&x->source, &y->source);
}

static void same_animations(const ue_scene *a, const ue_scene *b) {
    REQUIRE(a->animation_count == b->animation_count);
    for (size_t i = 0; i < a->animation_count; i++) {
        const ue_scene_animation *x = &a->animations[i], *y = &b->animations[i];
        CHECK_STR(x->name, y->name);
        CHECK(x->fps == y->fps && x->loop == y->loop);
        CHECK(x->start_frame == y->start_frame && x->end_frame == y->end_frame);
        same_source(&x->source, &y->source);
        same_extras(&x->extras, &y->extras);
        CHECK(x->channel_count <= y->channel_count);
        for (size_t c = 0; c < x->channel_count; c++) same_channel(&x->channels[c], y);
    }
}

static void same_scene(const ue_scene *read, const ue_scene *src) {
    CHECK_STR(read->name, src->name);
    same_nodes(read, src);
    same_meshes(read, src);
    same_materials(read, src);
    same_skins(read, src);
    same_animations(read, src);
    CHECK(ue_scene_validate(read, NULL) == UE_OK);
}

/* Exports a fixture both ways and checks that each reads back to the same IR (after `expect`
 * changed the source into what the export is meant to say, when it differs). */
static void check_roundtrip_as(void (*build)(ue_scene *), void (*expect)(ue_scene *)) {
    ue_scene src, got;
    ue_scene_init(&src);
    build(&src);
    for (int fmt = 0; fmt < 2; fmt++) {
        ue_diag d = {0};
        ue_result r = roundtrip(&src, (ue_gltf_format)fmt, &got, &d);
        if (r != UE_OK) dump_diag(&d);
        CHECK(r == UE_OK);
        if (expect) {
            ue_scene_free(&src);
            build(&src);
            expect(&src);
        }
        if (r == UE_OK) same_scene(&got, &src);
        ue_scene_free(&got);
        ue_diag_free(&d);
        if (expect) {
            ue_scene_free(&src);
            build(&src);
        }
    }
    ue_scene_free(&src);
}

static void check_roundtrip(void (*build)(ue_scene *)) { check_roundtrip_as(build, NULL); }

/* The stray CP1251 byte 0xC0 of gs_misc is written as \u00C0, so it reads back as U+00C0. */
static void misc_as_written(ue_scene *s) { memcpy(s->nodes[2].name, "bad\xc3\x80name", 10); }

/* ---- round trips ---------------------------------------------------------------------------- */

static void roundtrip_textured_cube(void) { check_roundtrip(gs_textured_cube); }
static void roundtrip_skinned(void) { check_roundtrip(gs_skinned); }
static void roundtrip_pointer(void) { check_roundtrip(gs_pointer); }
static void roundtrip_misc(void) { check_roundtrip_as(gs_misc, misc_as_written); }
static void roundtrip_empty(void) { check_roundtrip(gs_empty); }
static void roundtrip_big(void) { check_roundtrip(gs_big); }

/* gs_layers: 8 influences come back as the exporter's 4, alpha folded into base colour. */
static void roundtrip_layers(void) {
    ue_scene src, got;
    ue_scene_init(&src);
    gs_layers(&src);
    ue_diag d = {0};
    ue_result r = roundtrip(&src, UE_GLTF_GLB, &got, &d);
    if (r != UE_OK) dump_diag(&d);
    REQUIRE(r == UE_OK);
    same_nodes(&got, &src);
    same_meshes(&got, &src);
    same_materials(&got, &src);
    same_skins(&got, &src);
    REQUIRE(got.animation_count == 1);
    const ue_scene_animation *an = &got.animations[0];
    CHECK(an->fps == 30 && an->start_frame == 0 && an->end_frame == 45 && an->loop);
    same_extras(&an->extras, &src.animations[0].extras);
    /* visibility, base colour (+ its alpha), "fade" alpha as base colour, UV rotation */
    CHECK_EQ_U(an->channel_count, 4);
    size_t colours = 0, vis = 0, uvrot = 0;
    for (size_t c = 0; c < an->channel_count; c++) {
        colours += an->channels[c].target == UE_TARGET_BASE_COLOR;
        vis += an->channels[c].target == UE_TARGET_VISIBILITY;
        uvrot += an->channels[c].target == UE_TARGET_UV_ROTATION;
        if (an->channels[c].target == UE_TARGET_UV_ROTATION)
            CHECK(an->channels[c].slot == 1 && an->channels[c].material == 0);
    }
    CHECK(colours == 2 && vis == 1 && uvrot == 1);
    ue_scene_free(&got);
    ue_scene_free(&src);
    ue_diag_free(&d);
}

static void roundtrip_model(ue_result (*make)(ue_buf *), const char *name) {
    ue_buf bytes = {0};
    REQUIRE(make(&bytes) == UE_OK);
    ue_model_found m = {{0}, ue_model_probe(bytes.data, bytes.size), bytes.data, bytes.size};
    snprintf(m.name, sizeof m.name, "%s", name);
    REQUIRE(m.format != NULL);
    ue_scene src, got;
    ue_scene_init(&src);
    REQUIRE(ue_model_to_scene(&m, name, UE_MODE_STRICT, NULL, &src, NULL) == UE_OK);
    CHECK(src.mesh_count > 0 && src.node_count > 0);
    for (int fmt = 0; fmt < 2; fmt++) {
        ue_diag d = {0};
        ue_result r = roundtrip(&src, (ue_gltf_format)fmt, &got, &d);
        if (r != UE_OK) dump_diag(&d);
        CHECK(r == UE_OK);
        if (r == UE_OK) same_scene(&got, &src);
        ue_scene_free(&got);
        ue_diag_free(&d);
    }
    ue_scene_free(&src);
    ue_buf_free(&bytes);
}

static void roundtrip_sample_robot(void) { roundtrip_model(ue_sample_robot, "robot"); }
static void roundtrip_sample_creature(void) { roundtrip_model(ue_sample_creature_dat, "creature"); }

/* ---- hand-written documents ---------------------------------------------------------------- */

/* A binary buffer assembled value by value, each part 4-byte aligned. */
typedef struct bin {
    uint8_t b[4096];
    size_t n;
} bin;

static size_t bin_put(bin *b, const void *p, size_t n) {
    while (b->n % 4) b->b[b->n++] = 0;
    size_t at = b->n;
    memcpy(b->b + b->n, p, n);
    b->n += n;
    return at;
}

/* JSON written with ' for " (readable in C), turned into real JSON here. */
static char *json_text(const char *q) {
    char *t = malloc(strlen(q) + 1);
    if (!t) abort();
    for (size_t i = 0; i <= strlen(q); i++) t[i] = q[i] == '\'' ? '"' : q[i];
    return t;
}

/* A GLB of the JSON (quotes as ') and an optional BIN chunk. */
static void make_glb(const char *json_q, const bin *b, ue_buf *out) {
    char *json = json_text(json_q);
    size_t jn = (strlen(json) + 3) & ~(size_t)3, bn = b ? (b->n + 3) & ~(size_t)3 : 0;
    size_t total = 12 + 8 + jn + (b ? 8 + bn : 0);
    ue_buf_put(out, "glTF", 4);
    ue_buf_put_u32le(out, 2);
    ue_buf_put_u32le(out, (uint32_t)total);
    ue_buf_put_u32le(out, (uint32_t)jn);
    ue_buf_put(out, "JSON", 4);
    ue_buf_put(out, json, strlen(json));
    for (size_t i = strlen(json); i < jn; i++) ue_buf_put_u8(out, ' ');
    if (b) {
        ue_buf_put_u32le(out, (uint32_t)bn);
        ue_buf_put(out, "BIN\0", 4);
        ue_buf_put(out, b->b, b->n);
        ue_buf_put_zeros(out, bn - b->n);
    }
    free(json);
}

static ue_result read_glb(const char *json_q, const bin *b, ue_scene *s, ue_diag *d) {
    ue_buf glb = {0};
    make_glb(json_q, b, &glb);
    ue_scene_init(s);
    ue_result r = ue_gltf_read(glb.data, glb.size, NULL, UE_MODE_STRICT, s, d);
    ue_buf_free(&glb);
    return r;
}

static ue_result read_json(const char *json_q, const char *base_dir, ue_scene *s, ue_diag *d) {
    char *json = json_text(json_q);
    ue_scene_init(s);
    ue_result r = ue_gltf_read((const uint8_t *)json, strlen(json), base_dir, UE_MODE_STRICT, s, d);
    free(json);
    return r;
}

static void b64(const uint8_t *p, size_t n, char *out) {
    static const char al[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
                     (i + 2 < n ? p[i + 2] : 0);
        out[o++] = al[v >> 18];
        out[o++] = al[(v >> 12) & 63];
        out[o++] = i + 1 < n ? al[(v >> 6) & 63] : '=';
        out[o++] = i + 2 < n ? al[v & 63] : '=';
    }
    out[o] = 0;
}

#define ASSET "'asset':{'version':'2.0','generator':'Khronos glTF Blender I/O v4.1.63'}"

/* Blender-like: one view per attribute, u16 indices, normalized u16 UVs, a matrix parent. */
static void blender_separate_views(void) {
    bin b = {0};
    const float pos[12] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0};
    const float nrm[12] = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
    const uint16_t uv[8] = {0, 65535, 65535, 65535, 65535, 0, 32768, 0};
    const uint16_t idx[6] = {0, 1, 2, 0, 2, 3};
    CHECK_EQ_U(bin_put(&b, pos, sizeof pos), 0);
    CHECK_EQ_U(bin_put(&b, nrm, sizeof nrm), 48);
    CHECK_EQ_U(bin_put(&b, uv, sizeof uv), 96);
    CHECK_EQ_U(bin_put(&b, idx, sizeof idx), 112);
    const char *doc = "{" ASSET ",'scene':0,'scenes':[{'name':'Scene','nodes':[0]}],"
        "'nodes':[{'name':'root','children':[1],'matrix':[0,2,0,0, -2,0,0,0, 0,0,2,0, 1,2,3,1]},"
        "{'name':'quad','mesh':0,'translation':[0,0,1]}],"
        "'meshes':[{'name':'Plane','primitives':[{'attributes':{'POSITION':0,'NORMAL':1,"
        "'TEXCOORD_0':2},'indices':3,'material':0}]}],"
        "'materials':[{'name':'mat','doubleSided':true,'alphaMode':'MASK','alphaCutoff':0.3,"
        "'pbrMetallicRoughness':{'baseColorFactor':[0.5,0.25,1,1],'metallicFactor':0,"
        "'roughnessFactor':0.5}}],"
        "'accessors':[{'bufferView':0,'componentType':5126,'count':4,'type':'VEC3',"
        "'min':[9,9,9],'max':[-9,-9,-9]},"
        "{'bufferView':1,'componentType':5126,'count':4,'type':'VEC3'},"
        "{'bufferView':2,'componentType':5123,'normalized':true,'count':4,'type':'VEC2'},"
        "{'bufferView':3,'componentType':5123,'count':6,'type':'SCALAR'}],"
        "'bufferViews':[{'buffer':0,'byteLength':48},{'buffer':0,'byteOffset':48,'byteLength':48},"
        "{'buffer':0,'byteOffset':96,'byteLength':16},{'buffer':0,'byteOffset':112,'byteLength':12}],"
        "'buffers':[{'byteLength':124}]}";
    ue_scene s;
    ue_diag d = {0};
    ue_result r = read_glb(doc, &b, &s, &d);
    if (r != UE_OK) dump_diag(&d);
    REQUIRE(r == UE_OK);
    CHECK_STR(s.name, "Scene");
    REQUIRE(s.node_count == 2 && s.mesh_count == 1 && s.material_count == 1);
    /* matrix: 90° about Z, uniform scale 2, translation 1 2 3 */
    const ue_scene_node *root = &s.nodes[0];
    const float t[3] = {1, 2, 3}, sc[3] = {2, 2, 2}, q[4] = {0, 0, 0.70710678f, 0.70710678f};
    same_floats(root->translation, t, 3, 0);
    same_floats(root->scale, sc, 3, 1e-7);
    same_floats(root->rotation, q, 4, 1e-7);
    CHECK(s.nodes[1].parent == 0 && s.nodes[1].mesh == 0 && s.nodes[1].translation[2] == 1);
    const ue_scene_primitive *p = &s.meshes[0].primitives[0];
    REQUIRE(p->vertex_count == 4 && p->index_count == 6);
    same_floats(p->positions, pos, 12, 0);
    same_floats(p->normals, nrm, 12, 0);
    const float uvf[8] = {0, 1, 1, 1, 1, 0, 32768.0f / 65535.0f, 0};
    same_floats(p->uv[0], uvf, 8, 1e-7);
    const uint32_t want_idx[6] = {0, 1, 2, 0, 2, 3};
    CHECK_MEM(p->indices, want_idx, sizeof want_idx);
    CHECK(p->material == 0 && p->uv[1] == NULL && p->colors[0] == NULL && p->joints == NULL);
    const ue_scene_material *m = &s.materials[0];
    const float bc[4] = {0.5f, 0.25f, 1, 1};
    same_floats(m->base_color, bc, 4, 0);
    CHECK(m->metallic == 0 && m->roughness == 0.5f && m->double_sided);
    CHECK(m->alpha_mode == UE_ALPHA_MASK && m->alpha_cutoff == 0.3f && !m->unlit);
    CHECK_EQ_U(ue_diag_count(&d, UE_SEV_WARNING), 0);
    ue_scene_free(&s);
    ue_diag_free(&d);
}

/* Interleaved POSITION/NORMAL/TEXCOORD_0 in one strided view, u8 indices. */
static void interleaved_u8_indices(void) {
    bin b = {0};
    const float v[24] = {0, 0, 0, 0, 0, 1, 0.25f, 0.75f,  /* pos, normal, uv */
                         2, 0, 0, 0, 1, 0, 1, 0,
                         0, 3, 0, 1, 0, 0, 0.5f, 0.5f};
    const uint8_t idx[3] = {2, 0, 1};
    bin_put(&b, v, sizeof v);
    bin_put(&b, idx, sizeof idx);
    const char *doc = "{" ASSET ",'nodes':[{'mesh':0}],"
        "'meshes':[{'primitives':[{'attributes':{'POSITION':0,'NORMAL':1,'TEXCOORD_0':2},"
        "'indices':3}]}],"
        "'accessors':[{'bufferView':0,'componentType':5126,'count':3,'type':'VEC3'},"
        "{'bufferView':0,'byteOffset':12,'componentType':5126,'count':3,'type':'VEC3'},"
        "{'bufferView':0,'byteOffset':24,'componentType':5126,'count':3,'type':'VEC2'},"
        "{'bufferView':1,'componentType':5121,'count':3,'type':'SCALAR'}],"
        "'bufferViews':[{'buffer':0,'byteLength':96,'byteStride':32,'target':34962},"
        "{'buffer':0,'byteOffset':96,'byteLength':3}],'buffers':[{'byteLength':99}]}";
    ue_scene s;
    ue_diag d = {0};
    ue_result r = read_glb(doc, &b, &s, &d);
    if (r != UE_OK) dump_diag(&d);
    REQUIRE(r == UE_OK);
    const ue_scene_primitive *p = &s.meshes[0].primitives[0];
    const float pos[9] = {0, 0, 0, 2, 0, 0, 0, 3, 0}, nrm[9] = {0, 0, 1, 0, 1, 0, 1, 0, 0};
    const float uv[6] = {0.25f, 0.75f, 1, 0, 0.5f, 0.5f};
    const uint32_t want[3] = {2, 0, 1};
    same_floats(p->positions, pos, 9, 0);
    same_floats(p->normals, nrm, 9, 0);
    same_floats(p->uv[0], uv, 6, 0);
    REQUIRE(p->index_count == 3);
    CHECK_MEM(p->indices, want, sizeof want);
    CHECK(s.node_count == 1 && s.nodes[0].parent == -1 && s.nodes[0].mesh == 0);
    ue_scene_free(&s);
    ue_diag_free(&d);
}

/* KHR_mesh_quantization style: u16 positions (plain integers), i8 normalized normals padded
 * to a 4-byte stride, u8 normalized UVs, i8 normalized colours as VEC3. */
static void quantized_attributes(void) {
    bin b = {0};
    const uint16_t pos[9] = {0, 0, 0, 1000, 0, 0, 0, 65535, 0};
    const int8_t nrm[12] = {0, 0, 127, 0, 0, 0, -128, 0, 0, 0, 127, 0}; /* xyz + a pad byte */
    const uint8_t uv[6] = {0, 255, 51, 102, 255, 0};
    const int8_t col[9] = {127, 0, 0, 0, 127, 0, 0, 0, 127};
    bin_put(&b, pos, sizeof pos);   /* 0, 18 */
    bin_put(&b, nrm, sizeof nrm);   /* 20, 12 */
    bin_put(&b, uv, sizeof uv);     /* 32, 6 */
    bin_put(&b, col, sizeof col);   /* 40, 9 */
    const char *doc = "{" ASSET ",'extensionsRequired':['KHR_mesh_quantization'],"
        "'extensionsUsed':['KHR_mesh_quantization'],"
        "'meshes':[{'primitives':[{'attributes':{'POSITION':0,'NORMAL':1,'TEXCOORD_0':2,'COLOR_0':3}}]}],"
        "'accessors':[{'bufferView':0,'componentType':5123,'count':3,'type':'VEC3'},"
        "{'bufferView':1,'componentType':5120,'normalized':true,'count':3,'type':'VEC3'},"
        "{'bufferView':2,'componentType':5121,'normalized':true,'count':3,'type':'VEC2'},"
        "{'bufferView':3,'componentType':5120,'normalized':true,'count':3,'type':'VEC3'}],"
        "'bufferViews':[{'buffer':0,'byteLength':18},{'buffer':0,'byteOffset':20,'byteLength':12,"
        "'byteStride':4},{'buffer':0,'byteOffset':32,'byteLength':6},{'buffer':0,'byteOffset':40,"
        "'byteLength':9}],'buffers':[{'byteLength':49}]}";
    ue_scene s;
    ue_diag d = {0};
    ue_result r = read_glb(doc, &b, &s, &d);
    if (r != UE_OK) dump_diag(&d);
    REQUIRE(r == UE_OK);
    const ue_scene_primitive *p = &s.meshes[0].primitives[0];
    const float want_pos[9] = {0, 0, 0, 1000, 0, 0, 0, 65535, 0};
    const float want_nrm[9] = {0, 0, 1, 0, 0, -1, 0, 0, 1}; /* -128 clamps to -1 */
    const float want_uv[6] = {0, 1, 0.2f, 0.4f, 1, 0};
    const float want_col[12] = {1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1};
    same_floats(p->positions, want_pos, 9, 0);
    same_floats(p->normals, want_nrm, 9, 0);
    same_floats(p->uv[0], want_uv, 6, 1e-7);
    same_floats(p->colors[0], want_col, 12, 0);
    ue_scene_free(&s);
    ue_diag_free(&d);
}

/* A u32-indexed triangle strip and a non-indexed fan become lists (glTF's triangle order). */
static void strips_and_fans(void) {
    bin b = {0};
    const float pos[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
    const uint32_t idx[4] = {0, 1, 2, 3};
    bin_put(&b, pos, sizeof pos);
    bin_put(&b, idx, sizeof idx);
    const char *doc = "{" ASSET ",'meshes':[{'primitives':["
        "{'attributes':{'POSITION':0},'indices':1,'mode':5},{'attributes':{'POSITION':0},'mode':6}]}],"
        "'accessors':[{'bufferView':0,'componentType':5126,'count':4,'type':'VEC3'},"
        "{'bufferView':1,'componentType':5125,'count':4,'type':'SCALAR'}],"
        "'bufferViews':[{'buffer':0,'byteLength':48},{'buffer':0,'byteOffset':48,'byteLength':16}],"
        "'buffers':[{'byteLength':64}]}";
    ue_scene s;
    ue_diag d = {0};
    ue_result r = read_glb(doc, &b, &s, &d);
    if (r != UE_OK) dump_diag(&d);
    REQUIRE(r == UE_OK && s.meshes[0].primitive_count == 2);
    const uint32_t strip[6] = {0, 1, 2, 2, 1, 3}, fan[6] = {1, 2, 0, 2, 3, 0};
    REQUIRE(s.meshes[0].primitives[0].index_count == 6 && s.meshes[0].primitives[1].index_count == 6);
    CHECK_MEM(s.meshes[0].primitives[0].indices, strip, sizeof strip);
    CHECK_MEM(s.meshes[0].primitives[1].indices, fan, sizeof fan);
    ue_scene_free(&s);
    ue_diag_free(&d);
}

/* Sparse accessors: over a view, and over zeros (no bufferView). */
static void sparse_accessors(void) {
    bin b = {0};
    const float pos[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    const uint8_t sidx[2] = {0, 2};
    const float sval[6] = {5, 6, 7, 8, 9, 10};
    bin_put(&b, pos, sizeof pos);       /* 0 */
    bin_put(&b, sidx, sizeof sidx);     /* 36 */
    bin_put(&b, sval, sizeof sval);     /* 40 */
    const char *doc = "{" ASSET ",'meshes':[{'primitives':[{'attributes':{'POSITION':0,'NORMAL':1}}]}],"
        "'accessors':[{'bufferView':0,'componentType':5126,'count':3,'type':'VEC3',"
        "'sparse':{'count':1,'indices':{'bufferView':1,'byteOffset':1,'componentType':5121},"
        "'values':{'bufferView':2}}},"
        "{'componentType':5126,'count':3,'type':'VEC3','sparse':{'count':2,"
        "'indices':{'bufferView':1,'componentType':5121},'values':{'bufferView':2}}}],"
        "'bufferViews':[{'buffer':0,'byteLength':36},{'buffer':0,'byteOffset':36,'byteLength':2},"
        "{'buffer':0,'byteOffset':40,'byteLength':24}],'buffers':[{'byteLength':64}]}";
    ue_scene s;
    ue_diag d = {0};
    ue_result r = read_glb(doc, &b, &s, &d);
    (void)r; /* the zero normal of vertex 1 fails validation: checked below */
    const ue_scene_primitive *p = s.mesh_count ? &s.meshes[0].primitives[0] : NULL;
    REQUIRE(p && p->positions && p->normals);
    const float want_pos[9] = {0, 0, 0, 1, 0, 0, 5, 6, 7}, want_nrm[9] = {5, 6, 7, 0, 0, 0, 8, 9, 10};
    same_floats(p->positions, want_pos, 9, 0);
    same_floats(p->normals, want_nrm, 9, 0);
    CHECK(r == UE_ERR_INVALID && has_code(&d, "gltf.scene.invalid"));
    ue_scene_free(&s);
    ue_diag_free(&d);
}

/* A skin with u8 joints, normalized u8 weights and inverse bind matrices; a CUBICSPLINE
 * translation and a LINEAR rotation from normalized shorts. */
static void skin_and_cubicspline(void) {
    bin b = {0};
    const float pos[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    const uint8_t joints[12] = {0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0};
    const uint8_t weights[12] = {255, 0, 0, 0, 255, 0, 0, 0, 128, 127, 0, 0};
    float ibm[32] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
                     1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1};
    const float times[2] = {0, 0.5f};
    const float cubic[18] = {0, 0, 0, 1, 2, 3, 0.5f, 0, 0, -1, 0, 0, 4, 5, 6, 0, 0, 0};
    const int16_t rot[8] = {0, 0, 0, 32767, 0, 32767, 0, 0};
    bin_put(&b, pos, sizeof pos);         /* 0, 36 */
    bin_put(&b, joints, sizeof joints);   /* 36, 12 */
    bin_put(&b, weights, sizeof weights); /* 48, 12 */
    bin_put(&b, ibm, sizeof ibm);         /* 60, 128 */
    bin_put(&b, times, sizeof times);     /* 188, 8 */
    bin_put(&b, cubic, sizeof cubic);     /* 196, 72 */
    bin_put(&b, rot, sizeof rot);         /* 268, 16 */
    const char *doc = "{" ASSET ",'nodes':[{'name':'body','mesh':0,'skin':0},"
        "{'name':'hips','children':[2]},{'name':'spine','translation':[0,1,0]}],"
        "'skins':[{'joints':[1,2],'inverseBindMatrices':3,'skeleton':1}],"
        "'meshes':[{'primitives':[{'attributes':{'POSITION':0,'JOINTS_0':1,'WEIGHTS_0':2}}]}],"
        "'animations':[{'name':'walk','channels':[{'sampler':0,'target':{'node':1,'path':'translation'}},"
        "{'sampler':1,'target':{'node':2,'path':'rotation'}}],"
        "'samplers':[{'input':4,'output':5,'interpolation':'CUBICSPLINE'},{'input':4,'output':6}]}],"
        "'accessors':[{'bufferView':0,'componentType':5126,'count':3,'type':'VEC3'},"
        "{'bufferView':1,'componentType':5121,'count':3,'type':'VEC4'},"
        "{'bufferView':2,'componentType':5121,'normalized':true,'count':3,'type':'VEC4'},"
        "{'bufferView':3,'componentType':5126,'count':2,'type':'MAT4'},"
        "{'bufferView':4,'componentType':5126,'count':2,'type':'SCALAR','min':[0],'max':[0.5]},"
        "{'bufferView':5,'componentType':5126,'count':6,'type':'VEC3'},"
        "{'bufferView':6,'componentType':5122,'normalized':true,'count':2,'type':'VEC4'}],"
        "'bufferViews':[{'buffer':0,'byteLength':36},{'buffer':0,'byteOffset':36,'byteLength':12},"
        "{'buffer':0,'byteOffset':48,'byteLength':12},{'buffer':0,'byteOffset':60,'byteLength':128},"
        "{'buffer':0,'byteOffset':188,'byteLength':8},{'buffer':0,'byteOffset':196,'byteLength':72},"
        "{'buffer':0,'byteOffset':268,'byteLength':16}],'buffers':[{'byteLength':284}]}";
    ue_scene s;
    ue_diag d = {0};
    ue_result r = read_glb(doc, &b, &s, &d);
    if (r != UE_OK) dump_diag(&d);
    REQUIRE(r == UE_OK);
    REQUIRE(s.skin_count == 1 && s.skins[0].joint_count == 2);
    CHECK(s.skins[0].joints[0] == 1 && s.skins[0].joints[1] == 2 && s.skins[0].skeleton == 1);
    same_floats(s.skins[0].inverse_bind, ibm, 32, 0);
    const ue_scene_primitive *p = &s.meshes[0].primitives[0];
    REQUIRE(p->influences == 4 && p->joints && p->weights);
    CHECK(p->joints[4] == 1 && p->joints[9] == 1 && p->joints[8] == 0);
    CHECK_NEAR(p->weights[8], 128.0 / 255.0, 1e-7);
    CHECK_NEAR(p->weights[9], 127.0 / 255.0, 1e-7);
    CHECK(p->weights[0] == 1.0f && p->weights[1] == 0.0f);
    REQUIRE(s.animation_count == 1 && s.animations[0].channel_count == 2);
    const ue_anim_channel *tr = &s.animations[0].channels[0], *rc = &s.animations[0].channels[1];
    CHECK(tr->target == UE_TARGET_TRANSLATION && tr->node == 1 && tr->interpolation == UE_INTERP_CUBIC);
    REQUIRE(tr->key_count == 2);
    same_floats(tr->times, times, 2, 0);
    same_floats(tr->values, cubic, 18, 0); /* in, value, out per key, as glTF stores them */
    CHECK(rc->target == UE_TARGET_ROTATION && rc->node == 2 && rc->interpolation == UE_INTERP_LINEAR);
    const float q[8] = {0, 0, 0, 1, 0, 1, 0, 0};
    same_floats(rc->values, q, 8, 0);
    ue_scene_free(&s);
    ue_diag_free(&d);
}

/* A .gltf whose buffer is a data: URI, with pointer channels: base colour is read, a
 * metallic-factor pointer has no IR target and is reported. */
static void data_uri_and_pointers(void) {
    bin b = {0};
    const float pos[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    const float times[2] = {0, 1}, colour[8] = {1, 0, 0, 1, 0, 0, 1, 0.5f}, metal[2] = {0, 1};
    bin_put(&b, pos, sizeof pos);
    bin_put(&b, times, sizeof times);
    bin_put(&b, colour, sizeof colour);
    bin_put(&b, metal, sizeof metal);
    char enc[256], doc[4096];
    b64(b.b, b.n, enc);
    snprintf(doc, sizeof doc, "{" ASSET ",'extensionsUsed':['KHR_animation_pointer'],"
        "'nodes':[{'mesh':0,'extras':{'flag':7,'label':'x','nested':{'a':1}}}],"
        "'meshes':[{'primitives':[{'attributes':{'POSITION':0},'material':0}]}],"
        "'materials':[{'name':'glow'}],"
        "'animations':[{'channels':[{'sampler':0,'target':{'path':'pointer','extensions':"
        "{'KHR_animation_pointer':{'pointer':'/materials/0/pbrMetallicRoughness/baseColorFactor'}}}},"
        "{'sampler':1,'target':{'path':'pointer','extensions':{'KHR_animation_pointer':"
        "{'pointer':'/materials/0/pbrMetallicRoughness/metallicFactor'}}}},"
        "{'sampler':1,'target':{'path':'pointer'}}],"
        "'samplers':[{'input':1,'output':2},{'input':1,'output':3}]}],"
        "'accessors':[{'bufferView':0,'componentType':5126,'count':3,'type':'VEC3'},"
        "{'bufferView':1,'componentType':5126,'count':2,'type':'SCALAR'},"
        "{'bufferView':2,'componentType':5126,'count':2,'type':'VEC4'},"
        "{'bufferView':3,'componentType':5126,'count':2,'type':'SCALAR'}],"
        "'bufferViews':[{'buffer':0,'byteLength':36},{'buffer':0,'byteOffset':36,'byteLength':8},"
        "{'buffer':0,'byteOffset':44,'byteLength':32},{'buffer':0,'byteOffset':76,'byteLength':8}],"
        "'buffers':[{'byteLength':%zu,'uri':'data:application/octet-stream;base64,%s'}]}", b.n, enc);
    ue_scene s;
    ue_diag d = {0};
    ue_result r = read_json(doc, NULL, &s, &d);
    if (r != UE_OK) dump_diag(&d);
    REQUIRE(r == UE_OK);
    same_floats(s.meshes[0].primitives[0].positions, pos, 9, 0);
    CHECK(s.materials[0].metallic == 1 && s.materials[0].roughness == 1); /* glTF defaults */
    REQUIRE(s.animation_count == 1 && s.animations[0].channel_count == 1);
    const ue_anim_channel *c = &s.animations[0].channels[0];
    CHECK(c->target == UE_TARGET_BASE_COLOR && c->material == 0 && c->key_count == 2);
    same_floats(c->values, colour, 8, 0);
    CHECK(diag_has(&d, "gltf.anim.pointer", "/animations/0/channels/1"));
    CHECK(diag_has(&d, "gltf.anim.pointer", "/animations/0/channels/2")); /* the pointer dropped by its writer */
    CHECK(diag_has(&d, "gltf.extras.skipped", "/nodes/0/extras"));
    REQUIRE(s.nodes[0].extras.count == 2);
    CHECK(s.nodes[0].extras.items[0].number == 7);
    CHECK_STR(s.nodes[0].extras.items[1].text, "x");
    ue_scene_free(&s);
    ue_diag_free(&d);
}

/* A .gltf with its buffer in a file beside it (a percent-encoded name), read by path; URIs
 * that leave the folder are refused. */
static void external_buffer_files(void) {
    const float pos[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    char path[1024];
    REQUIRE(write_file(tmp_dir(), "my buffer.bin", pos, sizeof pos));
    const char *doc_q = "{" ASSET ",'meshes':[{'primitives':[{'attributes':{'POSITION':0}}]}],"
        "'accessors':[{'bufferView':0,'componentType':5126,'count':3,'type':'VEC3'}],"
        "'bufferViews':[{'buffer':0,'byteLength':36}],"
        "'buffers':[{'byteLength':36,'uri':'my%20buffer.bin'}]}";
    char *doc = json_text(doc_q);
    REQUIRE(write_file(tmp_dir(), "ext.gltf", doc, strlen(doc)));
    snprintf(path, sizeof path, "%s/ext.gltf", tmp_dir());
    ue_scene s;
    ue_diag d = {0};
    ue_scene_init(&s);
    ue_result r = ue_gltf_read_file(path, UE_MODE_STRICT, &s, &d);
    if (r != UE_OK) dump_diag(&d);
    REQUIRE(r == UE_OK);
    same_floats(s.meshes[0].primitives[0].positions, pos, 9, 0);
    ue_scene_free(&s);
    /* the same document from memory without a base directory */
    CHECK(ue_gltf_read((const uint8_t *)doc, strlen(doc), NULL, UE_MODE_STRICT, &s, &d) == UE_ERR_INVALID);
    CHECK(diag_has(&d, "gltf.uri.external", "/buffers/0"));
    ue_scene_free(&s);
    free(doc);
    static const char *const escapes[] = {"../my%20buffer.bin", "/etc/passwd", "http://example.com/a.bin",
                                          "sub/../../x.bin", "C:/x.bin", "a%2F..%2F..%2Fx.bin"};
    for (size_t i = 0; i < sizeof escapes / sizeof *escapes; i++) {
        char q[1024];
        ue_diag_free(&d);
        snprintf(q, sizeof q, "{" ASSET ",'buffers':[{'byteLength':4,'uri':'%s'}]}", escapes[i]);
        CHECK(read_json(q, tmp_dir(), &s, &d) == UE_ERR_INVALID);
        CHECK(diag_has(&d, "gltf.uri.external", "/buffers/0"));
        ue_scene_free(&s);
    }
    /* a safe name whose file is not there is missing, not refused, and the message says where */
    ue_diag_free(&d);
    CHECK(read_json("{" ASSET ",'buffers':[{'byteLength':4,'uri':'absent.bin'}]}", tmp_dir(), &s, &d) != UE_OK);
    const ue_diag_item *miss = diag_find(&d, "gltf.uri.missing", "/buffers/0");
    char want[1100];
    snprintf(want, sizeof want, "%s/absent.bin", tmp_dir());
    CHECK(miss && strstr(miss->message, want));
    CHECK(!diag_has(&d, "gltf.uri.external", "/buffers/0"));
    ue_scene_free(&s);
    ue_diag_free(&d);
}

/* A PNG file beside the .gltf as a base colour texture with a transform, a NEAREST/CLAMP
 * sampler and an unlit material, the way Blender writes "glTF Separate". */
static void external_png_texture(void) {
    const uint8_t px[8] = {255, 0, 0, 255, 0, 0, 255, 128};
    ue_buf png = {0};
    REQUIRE(ue_png_encode_rgba(2, 1, px, &png) == UE_OK);
    REQUIRE(write_file(tmp_dir(), "tex.png", png.data, png.size));
    ue_buf_free(&png);
    const float pos[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0}, uv[6] = {0, 0, 1, 0, 0, 1};
    bin b = {0};
    bin_put(&b, pos, sizeof pos);
    bin_put(&b, uv, sizeof uv);
    REQUIRE(write_file(tmp_dir(), "tri.bin", b.b, b.n));
    const char *doc = "{" ASSET ",'extensionsUsed':['KHR_texture_transform','KHR_materials_unlit'],"
        "'extensionsRequired':['KHR_texture_transform'],"
        "'meshes':[{'primitives':[{'attributes':{'POSITION':0,'TEXCOORD_0':1},'material':0}]}],"
        "'materials':[{'name':'sign','extensions':{'KHR_materials_unlit':{}},'alphaMode':'BLEND',"
        "'pbrMetallicRoughness':{'baseColorTexture':{'index':0,'extensions':{'KHR_texture_transform':"
        "{'offset':[0.5,0.25],'rotation':0.125,'scale':[2,3]}}}}}],"
        "'textures':[{'source':0,'sampler':0}],'images':[{'name':'tex','uri':'tex.png'}],"
        "'samplers':[{'magFilter':9728,'minFilter':9728,'wrapS':33071,'wrapT':33648}],"
        "'accessors':[{'bufferView':0,'componentType':5126,'count':3,'type':'VEC3'},"
        "{'bufferView':1,'componentType':5126,'count':3,'type':'VEC2'}],"
        "'bufferViews':[{'buffer':0,'byteLength':36},{'buffer':0,'byteOffset':36,'byteLength':24}],"
        "'buffers':[{'byteLength':60,'uri':'tri.bin'}]}";
    ue_scene s;
    ue_diag d = {0};
    ue_result r = read_json(doc, tmp_dir(), &s, &d);
    if (r != UE_OK) dump_diag(&d);
    REQUIRE(r == UE_OK);
    REQUIRE(s.texture_count == 1 && s.material_count == 1);
    const ue_scene_texture *t = &s.textures[0];
    CHECK_STR(t->name, "tex");
    REQUIRE(t->width == 2 && t->height == 1);
    CHECK_MEM(t->rgba, px, sizeof px);
    CHECK(t->nearest && t->wrap_s == UE_WRAP_CLAMP && t->wrap_t == UE_WRAP_MIRROR);
    const ue_scene_material *m = &s.materials[0];
    CHECK(m->unlit && m->alpha_mode == UE_ALPHA_BLEND && m->slot_count == 1);
    const ue_texture_slot *sl = &m->slots[0];
    CHECK(sl->role == UE_TEX_BASE_COLOR && sl->texture == 0 && sl->uv_set == 0);
    CHECK(sl->transform.enabled && sl->transform.rotation == 0.125f);
    CHECK(sl->transform.offset[0] == 0.5f && sl->transform.offset[1] == 0.25f);
    CHECK(sl->transform.scale[0] == 2 && sl->transform.scale[1] == 3);
    same_floats(s.meshes[0].primitives[0].uv[0], uv, 6, 0);
    ue_scene_free(&s);
    ue_diag_free(&d);
}

/* Matrices: a mirror reads as a negative X scale; shear is the nearest TRS with a warning. An
 * extension the reader does not read (a light) is reported, not dropped silently. */
static void matrix_nodes(void) {
    ue_scene s;
    ue_diag d = {0};
    const char *doc = "{" ASSET ",'nodes':[{'matrix':[-1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1],"
                      "'extensions':{'KHR_lights_punctual':{'light':0}}},"
                      "{'matrix':[1,0,0,0, 0.5,1,0,0, 0,0,1,0, 4,5,6,1]}]}";
    REQUIRE(read_json(doc, NULL, &s, &d) == UE_OK);
    const float mirror_s[3] = {-1, 1, 1}, id[4] = {0, 0, 0, 1}, t[3] = {4, 5, 6};
    same_floats(s.nodes[0].scale, mirror_s, 3, 0);
    same_floats(s.nodes[0].rotation, id, 4, 0);
    same_floats(s.nodes[1].translation, t, 3, 0);
    CHECK(diag_has(&d, "gltf.node.shear", "/nodes/1"));
    CHECK(!diag_has(&d, "gltf.node.shear", "/nodes/0"));
    CHECK(diag_has(&d, "gltf.extension.skipped", "/nodes/0/extensions/KHR_lights_punctual"));
    ue_scene_free(&s);
    ue_diag_free(&d);
}

/* ---- bad input ------------------------------------------------------------------------------ */

/* The buffer every bad case shares (96 bytes). */
static void bad_bin(bin *b) {
    const float pos[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    const uint16_t idx[3] = {0, 1, 2}, bad_idx[3] = {0, 1, 5};
    const float times[3] = {0, 1, 1};
    float nan3[3] = {NAN, 0, 0}, inf4[4] = {INFINITY, 0, 0, 0};
    memset(b, 0, sizeof *b);
    bin_put(b, pos, sizeof pos);         /* 0: view 0 */
    bin_put(b, idx, sizeof idx);         /* 36: view 1 */
    bin_put(b, times, sizeof times);     /* 44: view 2 */
    bin_put(b, nan3, sizeof nan3);       /* 56: view 3 */
    bin_put(b, bad_idx, sizeof bad_idx); /* 68: view 4 */
    bin_put(b, inf4, sizeof inf4);       /* 76: view 5 */
    b->n = 96;
}

#define VIEWS "'bufferViews':[{'buffer':0,'byteLength':36},{'buffer':0,'byteOffset':36,'byteLength':6}," \
    "{'buffer':0,'byteOffset':44,'byteLength':12},{'buffer':0,'byteOffset':56,'byteLength':12}," \
    "{'buffer':0,'byteOffset':68,'byteLength':6},{'buffer':0,'byteOffset':76,'byteLength':16}]"
#define ACCS "'accessors':[{'bufferView':0,'componentType':5126,'count':3,'type':'VEC3'}," \
    "{'bufferView':1,'componentType':5123,'count':3,'type':'SCALAR'}," \
    "{'bufferView':2,'componentType':5126,'count':3,'type':'SCALAR'}," \
    "{'bufferView':3,'componentType':5126,'count':1,'type':'VEC3'}," \
    "{'bufferView':4,'componentType':5123,'count':3,'type':'SCALAR'}," \
    "{'bufferView':5,'componentType':5126,'count':1,'type':'VEC4'}," \
    "{'bufferView':0,'componentType':5126,'count':1,'type':'VEC3'}," \
    "{'bufferView':3,'componentType':5126,'count':3,'type':'SCALAR'}," \
    "{'bufferView':5,'componentType':5121,'count':1,'type':'VEC4'}," \
    "{'bufferView':5,'componentType':5121,'normalized':true,'count':3,'type':'VEC4'}," \
    "{'componentType':5121,'count':3,'type':'VEC4'}]"
#define BUF "'buffers':[{'byteLength':96}]"
#define STD VIEWS "," ACCS "," BUF
#define PRIM(attrs, more) "'meshes':[{'primitives':[{'attributes':{" attrs "}" more "}]}]"
#define TRI PRIM("'POSITION':0", ",'indices':1")

typedef struct bad_case {
    const char *what, *doc, *code, *path;
} bad_case;

static const bad_case BAD[] = {
    {"malformed JSON", "{" ASSET ",'nodes':[", "gltf.json.syntax", "/"},
    {"duplicate key", "{" ASSET "," ASSET "}", "gltf.json.syntax", "/"},
    {"no asset", "{'nodes':[]}", "gltf.asset", "/asset"},
    {"glTF 1", "{'asset':{'version':'1.0'}}", "gltf.asset", "/asset/version"},
    {"nodes not an array", "{" ASSET ",'nodes':5}", "gltf.json.type", "/nodes"},
    {"mesh index a string", "{" ASSET ",'nodes':[{'mesh':'a'}]}", "gltf.index.range", "/nodes/0/mesh"},
    {"mesh index out of range", "{" ASSET ",'nodes':[{'mesh':0}]}", "gltf.index.range", "/nodes/0/mesh"},
    {"view past its buffer", "{" ASSET ",'bufferViews':[{'buffer':0,'byteOffset':80,'byteLength':36}],"
     ACCS "," BUF "," TRI "}", "gltf.view.range", "/bufferViews/0"},
    {"buffer longer than the BIN chunk", "{" ASSET "," VIEWS "," ACCS ",'buffers':[{'byteLength':200}]}",
     "gltf.buffer.short", "/buffers/0"},
    {"accessor past its view", "{" ASSET "," VIEWS ",'accessors':[{'bufferView':0,'componentType':5126,"
     "'count':4,'type':'VEC3'}]," BUF "," PRIM("'POSITION':0", "") "}", "gltf.accessor.range", "/accessors/0"},
    {"accessor offset past its view", "{" ASSET "," VIEWS ",'accessors':[{'bufferView':0,'byteOffset':4,"
     "'componentType':5126,'count':3,'type':'VEC3'}]," BUF "," PRIM("'POSITION':0", "") "}",
     "gltf.accessor.range", "/accessors/0"},
    {"count x size overflow", "{" ASSET "," VIEWS ",'accessors':[{'bufferView':0,'componentType':5126,"
     "'count':4294967295,'type':'MAT4'}]," BUF "," PRIM("'POSITION':0", "") "}", "gltf.accessor.type",
     "/meshes/0/primitives/0/attributes/POSITION"},
    {"count x stride overflow", "{" ASSET ",'bufferViews':[{'buffer':0,'byteLength':96,'byteStride':252}],"
     "'accessors':[{'bufferView':0,'componentType':5126,'count':4294967295,'type':'VEC3'}]," BUF ","
     PRIM("'POSITION':0", "") "}", "gltf.accessor.range", "/accessors/0"},
    {"stride below the element size", "{" ASSET ",'bufferViews':[{'buffer':0,'byteLength':36,'byteStride':8}],"
     ACCS "," BUF "," TRI "}", "gltf.accessor.stride", "/accessors/0"},
    {"index past the vertex count", "{" ASSET "," STD "," PRIM("'POSITION':0", ",'indices':4") "}",
     "gltf.index.vertex", "/meshes/0/primitives/0/indices"},
    {"NaN position", "{" ASSET "," STD "," PRIM("'POSITION':3", "") "}", "gltf.accessor.nonfinite",
     "/accessors/3"},
    {"Inf weight", "{" ASSET "," STD ",'nodes':[{'mesh':0,'skin':0}],'skins':[{'joints':[0]}],"
     PRIM("'POSITION':6,'JOINTS_0':8,'WEIGHTS_0':5", "") "}", "gltf.accessor.nonfinite", "/accessors/5"},
    {"NaN time", "{" ASSET "," STD ",'nodes':[{}],'animations':[{'channels':[{'sampler':0,'target':"
     "{'node':0,'path':'translation'}}],'samplers':[{'input':7,'output':0}]}]}", "gltf.accessor.nonfinite",
     "/accessors/7"},
    {"times not increasing", "{" ASSET "," STD ",'nodes':[{}],'animations':[{'channels':[{'sampler':0,"
     "'target':{'node':0,'path':'translation'}}],'samplers':[{'input':2,'output':0}]}]}", "gltf.anim.times",
     "/animations/0/samplers/0/input"},
    {"cubic output count", "{" ASSET "," STD ",'nodes':[{}],'animations':[{'channels':[{'sampler':0,"
     "'target':{'node':0,'path':'translation'}}],'samplers':[{'input':7,'output':0,"
     "'interpolation':'CUBICSPLINE'}]}]}", "gltf.accessor.nonfinite", "/accessors/7"},
    {"morph weights channel", "{" ASSET "," STD ",'nodes':[{}],'animations':[{'channels':[{'sampler':0,"
     "'target':{'node':0,'path':'weights'}}],'samplers':[{'input':2,'output':0}]}]}", "gltf.anim.weights",
     "/animations/0/channels/0/target"},
    {"node cycle", "{" ASSET ",'nodes':[{'children':[1]},{'children':[0]}]}", "gltf.node.cycle", "/nodes/0"},
    {"two parents", "{" ASSET ",'nodes':[{'children':[2]},{'children':[2]},{}]}", "gltf.node.parent",
     "/nodes/1/children/0"},
    {"own child", "{" ASSET ",'nodes':[{'children':[0]}]}", "gltf.node.parent", "/nodes/0/children/0"},
    {"child out of range", "{" ASSET ",'nodes':[{'children':[7]}]}", "gltf.index.range", "/nodes/0/children/0"},
    {"singular matrix", "{" ASSET ",'nodes':[{'matrix':[0,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]}]}",
     "gltf.node.matrix", "/nodes/0"},
    {"projective matrix", "{" ASSET ",'nodes':[{'matrix':[1,0,0,1, 0,1,0,0, 0,0,1,0, 0,0,0,1]}]}",
     "gltf.node.matrix", "/nodes/0"},
    {"huge count, no data", "{" ASSET ",'accessors':[{'componentType':5126,'count':4294967295,'type':'VEC4'}],"
     PRIM("'POSITION':0", "") "}", "gltf.accessor.type", "/meshes/0/primitives/0/attributes/POSITION"},
    {"huge count of zeros", "{" ASSET ",'accessors':[{'componentType':5126,'count':4294967295,'type':'VEC3'}],"
     PRIM("'POSITION':0", "") "}", "gltf.limit", "/accessors/0"},
    {"points", "{" ASSET "," STD "," PRIM("'POSITION':0", ",'mode':0") "}", "gltf.primitive.mode",
     "/meshes/0/primitives/0"},
    {"lines", "{" ASSET "," STD "," PRIM("'POSITION':0", ",'mode':1") "}", "gltf.primitive.mode",
     "/meshes/0/primitives/0"},
    {"morph targets", "{" ASSET "," STD "," PRIM("'POSITION':0", ",'targets':[{'POSITION':0}]") "}",
     "gltf.primitive.targets", "/meshes/0/primitives/0"},
    {"five UV sets", "{" ASSET "," STD "," PRIM("'POSITION':0,'TEXCOORD_4':0", "") "}",
     "gltf.attribute.limit", "/meshes/0/primitives/0/attributes/TEXCOORD_4"},
    {"UV set gap", "{" ASSET ",'bufferViews':[{'buffer':0,'byteLength':96}],'accessors':["
     "{'bufferView':0,'componentType':5126,'count':3,'type':'VEC3'},{'bufferView':0,'componentType':5126,"
     "'count':3,'type':'VEC2'}]," BUF "," PRIM("'POSITION':0,'TEXCOORD_1':1", "") "}", "gltf.attribute.gap",
     "/meshes/0/primitives/0"},
    {"twelve influences", "{" ASSET "," STD "," PRIM("'POSITION':6,'JOINTS_2':8", "") "}",
     "gltf.attribute.limit", "/meshes/0/primitives/0/attributes/JOINTS_2"},
    {"attribute count", "{" ASSET "," STD "," PRIM("'POSITION':0,'NORMAL':6", "") "}",
     "gltf.attribute.count", "/meshes/0/primitives/0/attributes/NORMAL"},
    {"float indices", "{" ASSET "," STD "," PRIM("'POSITION':0", ",'indices':2") "}", "gltf.accessor.type",
     "/meshes/0/primitives/0/indices"},
    {"unknown required extension", "{" ASSET ",'extensionsRequired':['KHR_draco_mesh_compression']}",
     "gltf.extension", "/extensionsRequired"},
    {"JPEG image", "{" ASSET ",'images':[{'uri':'data:image/jpeg;base64,/9j/4AAQSkZJRgABAQAAAQABAAD/2wBD'}],"
     "'textures':[{'source':0}]}", "gltf.image.format", "/images/0"},
    {"bad base64", "{" ASSET ",'buffers':[{'byteLength':3,'uri':'data:application/octet-stream;base64,AA*A'}]}",
     "gltf.uri.data", "/buffers/0"},
    {"data URI shorter than byteLength", "{" ASSET ",'buffers':[{'byteLength':4,"
     "'uri':'data:application/octet-stream;base64,AAAA'}]}", "gltf.buffer.short", "/buffers/0"},
    {"sparse index not increasing", "{" ASSET "," VIEWS ",'accessors':[{'bufferView':0,'componentType':5126,"
     "'count':3,'type':'VEC3','sparse':{'count':2,'indices':{'bufferView':2,'componentType':5123},"
     "'values':{'bufferView':0}}}]," BUF "," PRIM("'POSITION':0", "") "}", "gltf.sparse.index",
     "/accessors/0/sparse/indices"},
    {"weights not summing to 1", "{" ASSET "," STD ",'nodes':[{'mesh':0,'skin':0}],'skins':[{'joints':[0]}],"
     PRIM("'POSITION':0,'JOINTS_0':10,'WEIGHTS_0':9", "") "}", "gltf.scene.invalid", "/"},
    {"weights as plain integers", "{" ASSET "," STD ",'nodes':[{'mesh':0,'skin':0}],'skins':[{'joints':[0]}],"
     PRIM("'POSITION':6,'JOINTS_0':8,'WEIGHTS_0':8", "") "}", "gltf.accessor.type",
     "/meshes/0/primitives/0/attributes/WEIGHTS_0"},
};

static void bad_inputs(void) {
    bin b;
    bad_bin(&b);
    for (size_t i = 0; i < sizeof BAD / sizeof *BAD; i++) {
        ue_scene s;
        ue_diag d = {0};
        ue_result r = read_glb(BAD[i].doc, &b, &s, &d);
        if (r == UE_OK || !diag_has(&d, BAD[i].code, BAD[i].path)) {
            fprintf(stderr, "bad case \"%s\": result %d, expected %s at %s; got:\n", BAD[i].what,
                    (int)r, BAD[i].code, BAD[i].path);
            dump_diag(&d);
            ue_test_failed_checks++;
        }
        if (strcmp(BAD[i].code, "gltf.limit") == 0) CHECK(r == UE_ERR_LIMIT);
        else CHECK(r == UE_ERR_INVALID);
        ue_scene_free(&s);
        ue_diag_free(&d);
    }
}

/* Bounded work: 400 primitives naming one 256 KB accessor would decode 100 MB from a 270 KB
 * file; the reader stops at its budget (32 × the input + 64 MiB) with gltf.limit. */
/* ue_gltf_probe tells a glTF from a model by its first bytes: GLB magic or a JSON object. */
static void probe_tells_gltf_apart(void) {
    const uint8_t glb[] = {'g', 'l', 'T', 'F', 2, 0, 0, 0};
    const uint8_t json[] = "\xef\xbb\xbf \r\n\t{\"asset\":{}}";
    CHECK(ue_gltf_probe(glb, sizeof glb));
    CHECK(ue_gltf_probe(json, sizeof json - 1));
    CHECK(ue_gltf_probe((const uint8_t *)"{", 1));
    CHECK(!ue_gltf_probe((const uint8_t *)"glT", 3));           /* magic cut short */
    CHECK(!ue_gltf_probe((const uint8_t *)"NRes\0\1\0\0", 8)); /* a Parkan archive */
    CHECK(!ue_gltf_probe((const uint8_t *)"  [1]", 5));         /* JSON, but no object */
    CHECK(!ue_gltf_probe((const uint8_t *)"\xef\xbb\xbf  ", 5)); /* nothing after the mark */
    CHECK(!ue_gltf_probe(NULL, 0));
}

static void one_accessor_named_many_times(void) {
    const uint32_t verts = 21846, prims = 400;
    size_t bytes = (size_t)verts * 12;
    ue_buf json = {0}, glb = {0};
    ue_buf_printf(&json, "{\"asset\":{\"version\":\"2.0\"},\"meshes\":[{\"primitives\":[");
    for (uint32_t p = 0; p < prims; p++)
        ue_buf_printf(&json, "%s{\"attributes\":{\"POSITION\":0}}", p ? "," : "");
    ue_buf_printf(&json, "]}],\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":%u,"
                  "\"type\":\"VEC3\"}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":%zu}],"
                  "\"buffers\":[{\"byteLength\":%zu}]}", verts, bytes, bytes);
    ue_buf_put_u8(&json, 0);
    REQUIRE(!json.failed);
    uint8_t *zeros = calloc(bytes, 1);
    REQUIRE(zeros);
    size_t jn = (json.size - 1 + 3) & ~(size_t)3;
    ue_buf_put(&glb, "glTF", 4);
    ue_buf_put_u32le(&glb, 2);
    ue_buf_put_u32le(&glb, (uint32_t)(12 + 8 + jn + 8 + bytes));
    ue_buf_put_u32le(&glb, (uint32_t)jn);
    ue_buf_put(&glb, "JSON", 4);
    ue_buf_put(&glb, json.data, json.size - 1);
    for (size_t k = json.size - 1; k < jn; k++) ue_buf_put_u8(&glb, ' ');
    ue_buf_put_u32le(&glb, (uint32_t)bytes);
    ue_buf_put(&glb, "BIN\0", 4);
    ue_buf_put(&glb, zeros, bytes);
    free(zeros);
    ue_scene s;
    ue_diag d = {0};
    ue_scene_init(&s);
    CHECK(ue_gltf_read(glb.data, glb.size, NULL, UE_MODE_STRICT, &s, &d) == UE_ERR_LIMIT);
    CHECK(diag_has(&d, "gltf.limit", "/accessors/0"));
    /* the budget ran out after about (32 × input + 64 MiB) / 256 KB primitives, not all 400 */
    CHECK(s.mesh_count == 1);
    if (s.mesh_count) {
        size_t want = (32 * glb.size + ((size_t)64 << 20)) / bytes;
        CHECK(s.meshes[0].primitive_count >= want && s.meshes[0].primitive_count <= want + 1);
    }
    ue_scene_free(&s);
    ue_diag_free(&d);
    ue_buf_free(&glb);
    ue_buf_free(&json);
}

/* GLB framing: version, total length, chunk lengths, a JSON chunk first. */
static void bad_glb_framing(void) {
    bin b;
    bad_bin(&b);
    ue_buf glb = {0};
    make_glb("{" ASSET "," STD "," TRI "}", &b, &glb);
    ue_scene s;
    ue_diag d = {0};
    ue_scene_init(&s);
    REQUIRE(ue_gltf_read(glb.data, glb.size, NULL, UE_MODE_STRICT, &s, &d) == UE_OK);
    ue_scene_free(&s);
    struct { size_t at; uint32_t value; const char *code; uint64_t off; } cases[] = {
        {4, 1, "gltf.glb.version", 4},
        {8, (uint32_t)glb.size + 4, "gltf.glb.length", 8},
        {12, (uint32_t)glb.size, "gltf.glb.chunk", 12},
        {16, 0x4E4942u, "gltf.glb.chunk", 16}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        uint8_t *copy = malloc(glb.size);
        REQUIRE(copy);
        memcpy(copy, glb.data, glb.size);
        ue_store_u32le(copy + cases[i].at, cases[i].value);
        ue_scene_init(&s);
        CHECK(ue_gltf_read(copy, glb.size, NULL, UE_MODE_STRICT, &s, &d) == UE_ERR_INVALID);
        const ue_diag_item *it = diag_find(&d, cases[i].code, NULL);
        CHECK(it != NULL);
        if (it) CHECK_EQ_U(it->offset, cases[i].off);
        ue_scene_free(&s);
        ue_diag_free(&d);
        free(copy);
    }
    /* cut short: every prefix fails cleanly */
    for (size_t n = 0; n < glb.size; n += 7) {
        ue_scene_init(&s);
        CHECK(ue_gltf_read(glb.data, n, NULL, UE_MODE_STRICT, &s, NULL) != UE_OK);
        ue_scene_free(&s);
    }
    ue_buf_free(&glb);
}

int main(void) {
    RUN(roundtrip_textured_cube);
    RUN(roundtrip_skinned);
    RUN(roundtrip_pointer);
    RUN(roundtrip_misc);
    RUN(roundtrip_empty);
    RUN(roundtrip_big);
    RUN(roundtrip_layers);
    RUN(roundtrip_sample_robot);
    RUN(roundtrip_sample_creature);
    RUN(blender_separate_views);
    RUN(interleaved_u8_indices);
    RUN(quantized_attributes);
    RUN(strips_and_fans);
    RUN(sparse_accessors);
    RUN(skin_and_cubicspline);
    RUN(data_uri_and_pointers);
    RUN(external_buffer_files);
    RUN(external_png_texture);
    RUN(matrix_nodes);
    RUN(bad_inputs);
    RUN(bad_glb_framing);
    RUN(one_accessor_named_many_times);
    RUN(probe_tells_gltf_apart);
    return TEST_SUMMARY();
}
