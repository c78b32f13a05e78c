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
#include "unearth/model.h"

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
    bool ok = fwrite(data, 1, n, f) == n;
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
        for (int k = 0; k < 4; k++) {
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
            for (int k = 0; k < 3; k++) unit[v * 3 + k] = (float)(q[k] / l);
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
    return TEST_SUMMARY();
}
