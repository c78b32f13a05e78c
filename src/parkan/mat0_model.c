/* unearth — bare MAT0 payloads (NAME.mat0) and WEAR texts (NAME.wea) as registry formats without
 * geometry: info, validate and roundtrip run the same readers as NRes's deep check. */
#include <stdio.h>
#include <string.h>

#include "common/bytes.h"
#include "common/json_writer.h"
#include "common/text.h"
#include "parkan/mat0_model.h"
#include "parkan/mat0_phases.h"
#include "unearth/parkan_material.h"

/* Neither format has a magic number: the bytes alone never claim a file (only the name does). */
static bool never(const uint8_t *data, size_t size) {
    (void)data, (void)size;
    return false;
}

/* validate's per-model keys are the same for every format (docs/schema/validate.schema.json):
 * a material has no geometry. */
void ue_parkan_no_geometry_counts(ue_json *w) {
    ue_json_key_int(w, "nodes", 0);
    ue_json_key_int(w, "batches", 0);
    ue_json_key_int(w, "vertices", 0);
    ue_json_key_int(w, "triangles", 0);
}

static ue_result no_geometry_json(ue_buf *stats) {
    ue_json w;
    ue_json_init_record(&w, stats);
    ue_json_object_begin(&w);
    ue_parkan_no_geometry_counts(&w);
    ue_json_object_end(&w);
    return ue_json_finish(&w, NULL) == UE_OK ? UE_OK : UE_ERR_NOMEM;
}

static const char *mode_name(uint32_t mode) {
    static const char *const names[] = {"loop", "ping-pong", "one-shot", "random"};
    return mode <= UE_MAT0_MODE_RANDOM ? names[mode] : "unknown";
}

/* ---- MAT0 -------------------------------------------------------------------------------------- */

static void write_anim(ue_json *w, const ue_mat0_anim *a) {
    ue_json_object_begin(w);
    ue_json_key_string(w, "mode", mode_name(ue_mat0_anim_mode(a)));
    ue_json_key_int(w, "interpolation_mask", a->header >> 3);
    ue_json_key_int(w, "cycle_ms", ue_mat0_cycle(a));
    ue_json_key(w, "keys");
    ue_json_array_begin(w);
    for (size_t k = 0; k < a->key_count; k++) {
        ue_json_object_begin(w);
        ue_json_key_int(w, "phase", a->keys[k].k0);
        ue_json_key_int(w, "time", a->keys[k].k1);
        ue_json_key_int(w, "k2", a->keys[k].k2);
        ue_json_object_end(w);
    }
    ue_json_array_end(w);
    ue_json_object_end(w);
}

static ue_result mat0_json(const ue_mat0 *m, ue_buf *stats) {
    ue_json w;
    ue_json_init_record(&w, stats);
    ue_json_object_begin(&w);
    ue_json_key_int(&w, "version", m->version);
    ue_json_key(&w, "meta");
    ue_json_array_begin(&w);
    ue_json_int(&w, m->meta_a);
    ue_json_int(&w, m->meta_b);
    ue_json_int(&w, m->meta_c);
    ue_json_int(&w, m->meta_d);
    ue_json_array_end(&w);
    ue_json_key(&w, "phase_textures");
    ue_json_array_begin(&w);
    for (size_t p = 0; p < m->phase_count; p++) {
        char tex[UE_MAT0_NAME_BYTES + 1], utf8[64];
        ue_mat0_texture_name(&m->phases[p], tex);
        ue_cp1251_to_utf8(tex, utf8, sizeof utf8);
        if (ue_json_is_utf8(utf8)) ue_json_string(&w, utf8);
    }
    ue_json_array_end(&w);
    ue_json_key(&w, "animations");
    ue_json_array_begin(&w);
    for (size_t i = 0; i < m->anim_count; i++) write_anim(&w, &m->anims[i]);
    ue_json_array_end(&w);
    ue_json_object_end(&w);
    return ue_json_finish(&w, NULL) == UE_OK ? UE_OK : UE_ERR_NOMEM;
}

static void mat0_text(const ue_mat0 *m, ue_buf *text) {
    ue_buf_printf(text, "  MAT0 version %u (assumed for a bare file), %u phases, %u animation blocks\n", m->version,
                  m->phase_count, m->anim_count);
    for (size_t p = 0; p < m->phase_count; p++) {
        char tex[UE_MAT0_NAME_BYTES + 1], utf8[64];
        ue_mat0_texture_name(&m->phases[p], tex);
        ue_cp1251_to_utf8(tex, utf8, sizeof utf8);
        ue_buf_printf(text, "  phase %zu: texture %s\n", p, utf8[0] ? utf8 : "(none)");
    }
    for (size_t i = 0; i < m->anim_count; i++) {
        const ue_mat0_anim *a = &m->anims[i];
        ue_buf_printf(text, "  block %zu: %s, interpolation mask 0x%X, %u keys, cycle %u ms\n", i,
                      mode_name(ue_mat0_anim_mode(a)), a->header >> 3, a->key_count, ue_mat0_cycle(a));
    }
}

static ue_result mat0_info(const uint8_t *data, size_t size, ue_mode mode, ue_buf *stats, ue_buf *text,
                           ue_diag *d) {
    ue_mat0 m;
    ue_result r = ue_mat0_parse(data, size, UE_MAT0_BARE_VERSION, 0, mode, &m, d);
    if (r != UE_OK) return r;
    if (stats) r = mat0_json(&m, stats);
    if (text) mat0_text(&m, text);
    ue_mat0_free(&m);
    return r;
}

static ue_result mat0_validate(const uint8_t *data, size_t size, ue_mode mode, ue_model_check *out, ue_diag *d) {
    memset(out, 0, sizeof *out);
    if (no_geometry_json(&out->stats) != UE_OK) return UE_ERR_NOMEM;
    ue_mat0 m;
    ue_result r = ue_mat0_parse(data, size, UE_MAT0_BARE_VERSION, 0, mode, &m, d);
    if (r != UE_OK) return r;
    size_t keys = 0;
    for (size_t i = 0; i < m.anim_count; i++) keys += m.anims[i].key_count;
    snprintf(out->summary, sizeof out->summary, "MAT0 version %u, %u phases, %u animation blocks, %zu keys",
             m.version, m.phase_count, m.anim_count, keys);
    ue_mat0_free(&m);
    return UE_OK;
}

static ue_result mat0_roundtrip(const uint8_t *data, size_t size, ue_mode mode, ue_model_check *out, ue_diag *d) {
    memset(out, 0, sizeof *out);
    ue_mat0 m;
    ue_buf again = {0};
    ue_result r = ue_mat0_parse(data, size, UE_MAT0_BARE_VERSION, 0, mode, &m, d);
    if (r != UE_OK) return r;
    r = ue_mat0_write(&m, &again, d);
    if (r == UE_OK && (again.size != size || memcmp(again.data, data, size) != 0)) r = UE_ERR_MISMATCH;
    if (r == UE_OK)
        snprintf(out->summary, sizeof out->summary, "%u phases and %u animation blocks written back", m.phase_count,
                 m.anim_count);
    ue_mat0_free(&m);
    ue_buf_free(&again);
    return r;
}

const ue_model_format ue_mat0_model_format = {
    "mat0",      "Parkan MAT0 material (no geometry)",
    NULL,        0,
    never,       NULL, /* no geometry */
    mat0_info,   mat0_validate,
    mat0_roundtrip,
    NULL, /* its textures live in Textures.lib */
    NULL,
};

/* ---- WEAR -------------------------------------------------------------------------------------- */

/* A row whose id is not UTF-8 is left out, as it always was (such text has no JSON string). */
static void write_rows(ue_json *w, const char *key, const ue_wear_row *rows, size_t n) {
    ue_json_key(w, key);
    ue_json_array_begin(w);
    for (size_t i = 0; i < n; i++) {
        char utf8[3 * UE_WEAR_NAME_MAX];
        ue_cp1251_to_utf8(rows[i].name, utf8, sizeof utf8);
        if (!ue_json_is_utf8(rows[i].legacy_id) || !ue_json_is_utf8(utf8)) continue;
        ue_json_object_begin(w);
        ue_json_key_string(w, "id", rows[i].legacy_id);
        ue_json_key_string(w, "name", utf8);
        ue_json_object_end(w);
    }
    ue_json_array_end(w);
}

static ue_result wear_json(const ue_wear *t, ue_buf *stats) {
    ue_json w;
    ue_json_init_record(&w, stats);
    ue_json_object_begin(&w);
    write_rows(&w, "materials", t->materials, t->material_count);
    write_rows(&w, "lightmaps", t->lightmaps, t->lightmap_count);
    ue_json_key_bool(&w, "crlf", t->crlf);
    ue_json_key_bool(&w, "canonical", t->canonical);
    ue_json_object_end(&w);
    return ue_json_finish(&w, NULL) == UE_OK ? UE_OK : UE_ERR_NOMEM;
}

static ue_result wear_info(const uint8_t *data, size_t size, ue_mode mode, ue_buf *stats, ue_buf *text,
                           ue_diag *d) {
    ue_wear w;
    ue_result r = ue_wear_parse(data, size, 0, mode, &w, d);
    if (r != UE_OK) return r;
    if (stats) r = wear_json(&w, stats);
    for (size_t i = 0; text && i < w.material_count; i++) {
        char utf8[3 * UE_WEAR_NAME_MAX];
        ue_cp1251_to_utf8(w.materials[i].name, utf8, sizeof utf8);
        ue_buf_printf(text, "  material row %zu: %s\n", i, utf8);
    }
    for (size_t i = 0; text && i < w.lightmap_count; i++) {
        char utf8[3 * UE_WEAR_NAME_MAX];
        ue_cp1251_to_utf8(w.lightmaps[i].name, utf8, sizeof utf8);
        ue_buf_printf(text, "  lightmap row %zu: %s\n", i, utf8);
    }
    ue_wear_free(&w);
    return r;
}

static ue_result wear_validate(const uint8_t *data, size_t size, ue_mode mode, ue_model_check *out, ue_diag *d) {
    memset(out, 0, sizeof *out);
    if (no_geometry_json(&out->stats) != UE_OK) return UE_ERR_NOMEM;
    ue_wear w;
    ue_result r = ue_wear_parse(data, size, 0, mode, &w, d);
    if (r != UE_OK) return r;
    snprintf(out->summary, sizeof out->summary, "WEAR table, %zu materials, %zu lightmaps", w.material_count,
             w.lightmap_count);
    ue_wear_free(&w);
    return UE_OK;
}

/* The writer is canonical: a file with extra spaces reads the same but is rewritten
 * differently, which is a mismatch here (docs/parkan-materials.md). */
static ue_result wear_roundtrip(const uint8_t *data, size_t size, ue_mode mode, ue_model_check *out, ue_diag *d) {
    memset(out, 0, sizeof *out);
    ue_wear w;
    ue_buf again = {0};
    ue_result r = ue_wear_parse(data, size, 0, mode, &w, d);
    if (r != UE_OK) return r;
    r = ue_wear_write(&w, &again, d);
    if (r == UE_OK && (again.size != size || memcmp(again.data, data, size) != 0)) r = UE_ERR_MISMATCH;
    if (r == UE_OK)
        snprintf(out->summary, sizeof out->summary, "%zu material and %zu lightmap rows written back",
                 w.material_count, w.lightmap_count);
    ue_wear_free(&w);
    ue_buf_free(&again);
    return r;
}

const ue_model_format ue_wear_model_format = {
    "wear",      "Parkan WEAR material table (no geometry)",
    NULL,        0,
    never,       NULL, /* no geometry */
    wear_info,   wear_validate,
    wear_roundtrip,
    NULL,
    NULL,
};
