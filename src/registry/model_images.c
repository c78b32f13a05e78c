/* unearth — the registry call that asks a model's format for its decoded textures (model.h), for
 * the `textures` verb; the images list itself is the scene layer's (scene/model_images.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unearth/model.h"
#include "unearth/advanced/buffers.h"

/* Drops what was appended after `before` (the "nothing appended on failure" rule). */
static void images_truncate(ue_model_images *out, size_t before) {
    for (size_t i = before; i < out->count; i++)
        for (uint32_t k = 0; k < out->items[i].level_count; k++) free(out->items[i].levels[k].rgba);
    out->count = before;
}

/* One scene texture as an image of one level (a copy of its pixels). */
static ue_result add_scene_texture(const ue_scene_texture *tex, ue_model_images *out) {
    size_t bytes = (size_t)tex->width * tex->height * 4;
    uint8_t *copy = ue_malloc_items(bytes, 1);
    ue_model_image *img = copy ? ue_model_images_add(out, tex->name, 1) : NULL;
    if (!img) {
        free(copy);
        return UE_ERR_NOMEM;
    }
    memcpy(copy, tex->rgba, bytes);
    img->levels[0] = (ue_model_image_level){tex->width, tex->height, copy};
    img->source = tex->source;
    return UE_OK;
}

static bool declares_option(const ue_model_format *f, const char *key) {
    for (size_t i = 0; i < f->option_count; i++)
        if (!strcmp(f->options[i].key, key)) return true;
    return false;
}

/* A format without an `images` hook gives the textures its scene carries, level 0: for a
 * Parkan model, the textures its materials resolve to (told where the model lies through the
 * option "origin" when the format declares it, as `convert` does, after the caller's options). */
static ue_result scene_images(const ue_model_found *m, ue_mode mode, const ue_model_options *given,
                              ue_model_images *out, ue_diag *d) {
    ue_model_option items[UE_MODEL_IMAGES_MAX_OPTIONS + 1];
    size_t n = 0;
    for (size_t i = 0; given && i < given->count && n < UE_MODEL_IMAGES_MAX_OPTIONS; i++) items[n++] = given->items[i];
    if (declares_option(m->format, "origin")) items[n++] = (ue_model_option){"origin", m->name};
    ue_model_options opts = {items, n, given ? given->cache : NULL};
    ue_scene s;
    ue_scene_init(&s);
    size_t before = out->count;
    ue_result r = m->format->to_scene(m->data, m->size, m->name, mode, &opts, &s, d);
    for (size_t t = 0; r == UE_OK && t < s.texture_count; t++)
        if (s.textures[t].rgba) r = add_scene_texture(&s.textures[t], out);
    if (r != UE_OK) images_truncate(out, before);
    ue_scene_free(&s);
    return r;
}

ue_result ue_model_images_get(const ue_model_found *m, ue_mode mode, bool all_levels,
                              ue_model_images *out, ue_diag *d) {
    return ue_model_images_get_with(m, mode, all_levels, NULL, out, d);
}

ue_result ue_model_images_get_with(const ue_model_found *m, ue_mode mode, bool all_levels,
                                   const ue_model_options *opts, ue_model_images *out, ue_diag *d) {
    if (!m || !m->format || !out) return UE_ERR_USAGE;
    if (opts && opts->count > UE_MODEL_IMAGES_MAX_OPTIONS) return UE_ERR_USAGE;
    if (!m->format->images && m->format->to_scene) return scene_images(m, mode, opts, out, d);
    if (!m->format->images) {
        ue_diag_add(d, UE_SEV_ERROR, "model.images.none", UE_NO_OFFSET, m->name,
                    "a %s (%s) carries no images the library can decode", m->format->name,
                    m->format->description);
        return UE_ERR_UNSUPPORTED;
    }
    return m->format->images(m->data, m->size, mode, all_levels, out, d);
}
