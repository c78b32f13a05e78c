/* unearth — the `images` hook of HSD .dat models (model_format.h): every distinct image and
 * palette pair a TObj samples, decoded with all its mip levels, for the `textures` verb. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsd/hsd_material.h"
#include "hsd/hsd_to_scene.h"
#include "unearth/gx.h"
#include "unearth/hsd.h"
#include "unearth/advanced/buffers.h"

/* Has an earlier TObj already listed this (image, palette) pair? Walks the per-image chain. */
static bool listed_before(const ue_hsd_model *m, const int32_t *first, const int32_t *next,
                          size_t tobj) {
    const ue_hsd_tobj *t = &m->tobjs[tobj];
    size_t steps = 0;
    for (int32_t k = first[t->image]; k >= 0 && steps++ < m->tobj_count; k = next[k])
        if (m->tobjs[k].tlut == t->tlut) return true;
    return false;
}

/* Decodes the levels of tobj's image into a new list item; a level that fails ends the item's
 * levels there (tolerant) or fails the call (strict, reported through pc). */
static ue_result list_tobj(const ue_hsd_model *m, size_t tobj, bool all_levels, ue_parse_ctx *pc,
                           uint64_t *budget, ue_model_images *out) {
    const ue_hsd_tobj *t = &m->tobjs[tobj];
    const ue_hsd_image *im = &m->images[t->image];
    uint32_t levels = all_levels ? im->levels : 1;
    if (levels == 0) levels = 1;
    if (levels > UE_GX_MAX_LEVEL + 1) levels = UE_GX_MAX_LEVEL + 1;
    char name[64], path[64];
    const char *fmt = ue_gx_format_name(im->format);
    snprintf(name, sizeof name, "tex%zu_%s", out->count, fmt ? fmt : "GX");
    uint8_t *px[UE_GX_MAX_LEVEL + 1] = {0};
    uint32_t w[UE_GX_MAX_LEVEL + 1], h[UE_GX_MAX_LEVEL + 1], got = 0;
    for (; got < levels; got++) {
        snprintf(path, sizeof path, "dat/tobj[%zu]/image/level[%u]", tobj, got);
        ue_result r = hsd_decode_tobj_level(m, tobj, got, pc, path, budget, &px[got], &w[got], &h[got]);
        if (r == UE_ERR_NOMEM || ue_parse_failed(pc)) {
            for (uint32_t k = 0; k < got; k++) free(px[k]);
            return r == UE_ERR_NOMEM ? r : pc->failure;
        }
        if (r != UE_OK) break; /* tolerant: keep the levels that decoded */
    }
    if (got == 0) return UE_OK;
    ue_model_image *img = ue_model_images_add(out, name, got);
    if (!img) {
        for (uint32_t k = 0; k < got; k++) free(px[k]);
        return UE_ERR_NOMEM;
    }
    for (uint32_t k = 0; k < got; k++)
        img->levels[k] = (ue_model_image_level){w[k], h[k], px[k]};
    img->source = hsd_source_id(HSD_KIND_TOBJ, t->offset, tobj); /* the first TObj to sample it */
    return UE_OK;
}

static ue_result list_model(const ue_hsd_model *m, bool all_levels, ue_parse_ctx *pc,
                            ue_model_images *out) {
    int32_t *first = ue_malloc_items(m->image_count, sizeof *first);
    int32_t *next = ue_malloc_items(m->tobj_count, sizeof *next);
    ue_result r = first && next ? UE_OK : UE_ERR_NOMEM;
    for (size_t i = 0; r == UE_OK && i < m->image_count; i++) first[i] = -1;
    uint64_t budget = hsd_rgba_budget(m);
    for (size_t i = 0; r == UE_OK && i < m->tobj_count; i++) {
        const ue_hsd_tobj *t = &m->tobjs[i];
        if (t->image < 0 || (size_t)t->image >= m->image_count) continue;
        if (listed_before(m, first, next, i)) continue;
        next[i] = first[t->image];
        first[t->image] = (int32_t)i;
        r = list_tobj(m, i, all_levels, pc, &budget, out);
    }
    free(first);
    free(next);
    return r;
}

ue_result hsd_model_images(const uint8_t *data, size_t size, ue_mode mode, bool all_levels,
                           ue_model_images *out, ue_diag *d) {
    ue_dat dat;
    ue_hsd_model m;
    memset(&dat, 0, sizeof dat);
    memset(&m, 0, sizeof m);
    ue_result r = ue_dat_parse(data, size, mode, &dat, d);
    if (r == UE_OK) r = ue_hsd_model_read(&dat, mode, &m, d);
    size_t before = out->count;
    if (r == UE_OK) {
        ue_parse_ctx pc = ue_parse_begin(mode, d);
        r = list_model(&m, all_levels, &pc, out);
    }
    if (r != UE_OK) { /* nothing appended on failure */
        /* Indices, not a pointer to the tail: an empty list's items are NULL, and NULL + 0 is
         * undefined behaviour (clang's UBSan reports it). */
        for (size_t i = before; i < out->count; i++)
            for (uint32_t k = 0; k < out->items[i].level_count; k++) free(out->items[i].levels[k].rgba);
        out->count = before;
    }
    ue_hsd_model_free(&m);
    ue_dat_free(&dat);
    return r;
}
