/* unearth — a bare Texm as a registry format (model_format.h): probe, info, validate,
 * roundtrip and images for the `textures` verb; no geometry, so to_scene refuses it clearly. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "common/json_writer.h"
#include "parkan/mat0_model.h"
#include "unearth/texm.h"

static bool texm_probe(const uint8_t *data, size_t size) {
    return size >= 4 && ue_load_u32le(data) == UE_TEXM_MAGIC; /* a cut header is reported */
}

static ue_result stats_json(const ue_texm *t, ue_buf *stats) {
    const char *fmt = ue_texm_format_name(t->format);
    ue_json w;
    ue_json_init_record(&w, stats);
    ue_json_object_begin(&w);
    ue_json_key_int(&w, "width", t->width);
    ue_json_key_int(&w, "height", t->height);
    ue_json_key_string(&w, "pixel_format", fmt ? fmt : "unknown");
    ue_json_key_int(&w, "format_code", t->format);
    ue_json_key_int(&w, "mip_count", t->mip_count);
    ue_json_key_int(&w, "levels", t->level_count);
    ue_json_key_int(&w, "flags4", t->flags4);
    ue_json_key_int(&w, "flags5", t->flags5);
    ue_json_key_int(&w, "unknown6", t->unknown6);
    ue_json_key(&w, "page_rects");
    ue_json_array_begin(&w);
    for (uint32_t i = 0; i < t->rect_count; i++) {
        ue_json_object_begin(&w);
        ue_json_key_int(&w, "x", t->rects[i].x);
        ue_json_key_int(&w, "w", t->rects[i].w);
        ue_json_key_int(&w, "y", t->rects[i].y);
        ue_json_key_int(&w, "h", t->rects[i].h);
        ue_json_object_end(&w);
    }
    ue_json_array_end(&w);
    ue_json_object_end(&w);
    return ue_json_finish(&w, NULL) == UE_OK ? UE_OK : UE_ERR_NOMEM;
}

/* validate's per-model keys are the same for every format (docs/schema/validate.schema.json):
 * a texture has no geometry, so those counts are 0, and its own figures go under "texture"
 * (not for a texture that does not parse, `t` NULL). */
static ue_result validate_json(const ue_texm *t, ue_buf *stats) {
    ue_json w;
    ue_json_init_record(&w, stats);
    ue_json_object_begin(&w);
    ue_parkan_no_geometry_counts(&w);
    if (t) {
        const char *fmt = ue_texm_format_name(t->format);
        ue_json_key(&w, "texture");
        ue_json_object_begin(&w);
        ue_json_key_int(&w, "width", t->width);
        ue_json_key_int(&w, "height", t->height);
        ue_json_key_string(&w, "pixel_format", fmt ? fmt : "unknown");
        ue_json_key_int(&w, "mip_count", t->mip_count);
        ue_json_key_int(&w, "levels", t->level_count);
        ue_json_object_end(&w);
    }
    ue_json_object_end(&w);
    return ue_json_finish(&w, NULL) == UE_OK ? UE_OK : UE_ERR_NOMEM;
}

static ue_result texm_info(const uint8_t *data, size_t size, ue_mode mode, ue_buf *stats,
                           ue_buf *text, ue_diag *d) {
    ue_texm t;
    ue_result r = ue_texm_parse(data, size, mode, &t, d);
    if (r != UE_OK) return r;
    if (stats) r = stats_json(&t, stats);
    if (text) {
        const char *fmt = ue_texm_format_name(t.format);
        ue_buf_printf(text, "  texture: %u x %u, format %s, %u mip levels\n", t.width, t.height,
                  fmt ? fmt : "?", t.level_count);
        ue_buf_printf(text, "  flags4 0x%08X, flags5 0x%08X, unknown6 0x%08X\n", t.flags4, t.flags5,
                  t.unknown6);
        for (uint32_t i = 0; i < t.rect_count; i++)
            ue_buf_printf(text, "  page rect %u: x %d w %d y %d h %d\n", i, t.rects[i].x, t.rects[i].w,
                      t.rects[i].y, t.rects[i].h);
    }
    ue_texm_free(&t);
    return r;
}

static ue_result texm_validate(const uint8_t *data, size_t size, ue_mode mode, ue_model_check *out,
                               ue_diag *d) {
    memset(out, 0, sizeof *out);
    ue_texm t;
    ue_result r = ue_texm_parse(data, size, mode, &t, d);
    if (r != UE_OK) {
        validate_json(NULL, &out->stats);
        return r;
    }
    if (validate_json(&t, &out->stats) != UE_OK) r = UE_ERR_NOMEM;
    out->lost_parts = t.level_count < t.mip_count;
    const char *fmt = ue_texm_format_name(t.format);
    snprintf(out->summary, sizeof out->summary, "%u x %u texture, format %s, %u of %u mip levels",
             t.width, t.height, fmt ? fmt : "?", t.level_count, t.mip_count);
    ue_texm_free(&t);
    return r;
}

static ue_result texm_roundtrip(const uint8_t *data, size_t size, ue_mode mode, ue_model_check *out,
                                ue_diag *d) {
    memset(out, 0, sizeof *out);
    ue_texm t;
    ue_buf again = {0};
    ue_result r = ue_texm_parse(data, size, mode, &t, d);
    if (r != UE_OK) return r;
    r = ue_texm_write(&t, &again);
    if (r == UE_OK && (again.size != size || memcmp(again.data, data, size) != 0)) r = UE_ERR_MISMATCH;
    if (r == UE_OK)
        snprintf(out->summary, sizeof out->summary, "header, %u mip level%s%s written back",
                 t.level_count, t.level_count == 1 ? "" : "s", t.has_page ? " and Page chunk" : "");
    ue_texm_free(&t);
    ue_buf_free(&again);
    return r;
}

/* Every level asked for, decoded into one new list item; nothing appended on failure. */
static ue_result texm_images(const uint8_t *data, size_t size, ue_mode mode, bool all_levels,
                             ue_model_images *out, ue_diag *d) {
    ue_texm t;
    ue_result r = ue_texm_parse(data, size, mode, &t, d);
    if (r != UE_OK) return r;
    uint32_t levels = all_levels ? t.level_count : 1;
    const char *fmt = ue_texm_format_name(t.format);
    ue_model_image *img = ue_model_images_add(out, fmt ? fmt : "texm", levels);
    if (!img) r = UE_ERR_NOMEM;
    for (uint32_t i = 0; r == UE_OK && i < levels; i++) {
        const ue_texm_level *lv = &t.levels[i];
        size_t bytes = (size_t)lv->width * lv->height * 4;
        img->levels[i] = (ue_model_image_level){lv->width, lv->height, malloc(bytes)};
        if (!img->levels[i].rgba) r = UE_ERR_NOMEM;
        else r = ue_texm_decode_level(&t, i, NULL, img->levels[i].rgba, bytes, d);
    }
    if (img) {
        img->source = (ue_source_id){"texm", UE_TEXM_MAGIC, 0, 0};
        if (r != UE_OK) { /* drop the half-filled item */
            for (uint32_t i = 0; i < levels; i++) free(img->levels[i].rgba);
            out->count--;
        }
    }
    ue_texm_free(&t);
    return r;
}

const ue_model_format ue_texm_model_format = {
    "texm",
    "Parkan Texm texture (no geometry)",
    NULL,
    0,
    texm_probe,
    NULL, /* no geometry: convert passes a texture over (docs/models.md) */
    texm_info,
    texm_validate,
    texm_roundtrip,
    texm_images,
    NULL, /* read once: nothing to convert */
};
