/* unearth — edit-mode import of HSD images (docs/hsd-import.md#images): a glTF image whose pixels
 * differ from the base's export, re-encoded in its image's own GX format and size, written in place. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/parse.h"
#include "gamecube/gx_encode.h"
#include "hsd/hsd_import_int.h"
#include "hsd/hsd_int.h"
#include "hsd/hsd_material.h"
#include "hsd/hsd_to_scene.h"
#include "unearth/gx.h"

enum { IMAGE_KEPT = 1, IMAGE_WRITTEN = 2 }; /* bits of image_state */

typedef struct image_ctx {
    const hsd_image_edit_in *in;
    uint8_t *image_state;  /* per base image: IMAGE_KEPT / IMAGE_WRITTEN */
    size_t changed, errors, off_palette;
} image_ctx;

void hsd_import_error(ue_diag *d, const char *code, uint64_t offset, const char *table, int32_t index,
                      const char *fmt, ...) {
    char path[48];
    snprintf(path, sizeof path, "/%s/%d", table, (int)index);
    va_list ap;
    va_start(ap, fmt);
    ue_diag_addv(d, UE_SEV_ERROR, code, offset, path, fmt, ap);
    va_end(ap);
}

#define image_error(x, code, offset, texture, ...) \
    ((x)->errors++, hsd_import_error((x)->in->d, code, offset, "textures", texture, __VA_ARGS__))

/* ---- the texture pairs: through matched primitives' materials ------------------------------ */

/* The k-th slot of `role` in a material, or -1. */
static int32_t slot_texture(const ue_scene_material *m, ue_texture_role role, size_t k) {
    for (size_t i = 0; i < m->slot_count; i++)
        if (m->slots[i].role == role && k-- == 0) return m->slots[i].texture;
    return -1;
}

static size_t role_rank(const ue_scene_material *m, size_t slot) {
    size_t k = 0;
    for (size_t i = 0; i < slot; i++) k += m->slots[i].role == m->slots[slot].role;
    return k;
}

/* ---- one image --------------------------------------------------------------------------- */

/* The colours a palette decodes to (its first `n` entries, n ≤ 256), through the decoder. */
static ue_result palette_colours(const ue_hsd_model *m, int32_t tlut, size_t n, uint8_t *rgba) {
    uint8_t idx[256];
    for (size_t i = 0; i < n; i++) idx[i] = (uint8_t)i;
    ue_buf enc = {0};
    ue_result r = ue_gx_encode_indices(UE_GX_C8, idx, (uint32_t)n, 1, &enc);
    const ue_hsd_tlut *p = &m->tluts[tlut];
    ue_gx_image g = {enc.data, enc.size, (uint32_t)n, 1, UE_GX_C8, p->data, (size_t)p->n_entries * 2u,
                     p->n_entries, p->format};
    ue_diag local = {0};
    if (r == UE_OK) r = ue_gx_decode_level(&g, 0, UE_MODE_STRICT, rgba, n * 4, &local, 0, "palette");
    ue_diag_free(&local);
    ue_buf_free(&enc);
    return r;
}

static unsigned rgba_dist2(const uint8_t *a, const uint8_t *b) {
    unsigned d = 0;
    for (int c = 0; c < 4; c++) d += (unsigned)((a[c] - b[c]) * (a[c] - b[c]));
    return d;
}

/* C4/C8 with the TObj's own palette kept: each texel the nearest entry (RGBA distance, ties to
 * the lower index); texels no entry holds exactly are counted for a warning. */
static ue_result encode_indexed(image_ctx *x, const ue_hsd_tobj *t, uint32_t format, const uint8_t *px, uint32_t w,
                                uint32_t h, ue_buf *out) {
    const ue_hsd_model *m = x->in->m;
    size_t n = m->tluts[t->tlut].n_entries, cap = format == UE_GX_C4 ? 16 : 256;
    if (n > cap) n = cap;
    uint8_t pal[256 * 4];
    uint8_t *idx = malloc((size_t)w * h);
    ue_result r = idx ? palette_colours(m, t->tlut, n, pal) : UE_ERR_NOMEM;
    for (size_t i = 0; r == UE_OK && i < (size_t)w * h; i++) {
        unsigned best = UINT32_MAX;
        for (size_t k = 0; k < n; k++) {
            unsigned dd = rgba_dist2(px + 4 * i, pal + 4 * k);
            if (dd < best) best = dd, idx[i] = (uint8_t)k;
        }
        x->off_palette += best != 0;
    }
    if (r == UE_OK) r = ue_gx_encode_indices(format, idx, w, h, out);
    free(idx);
    return r;
}

/* The next mip level: each texel the rounded mean of the 2 × 2 texels above it (edges repeat). */
static void half_level(const uint8_t *src, uint32_t w, uint32_t h, uint8_t *dst, uint32_t dw, uint32_t dh) {
    for (uint32_t y = 0; y < dh; y++)
        for (uint32_t x = 0; x < dw; x++)
            for (int c = 0; c < 4; c++) {
                unsigned sum = 0;
                for (uint32_t k = 0; k < 4; k++) {
                    uint32_t sx = 2 * x + (k & 1), sy = 2 * y + (k >> 1);
                    sum += src[((size_t)(sy < h ? sy : h - 1) * w + (sx < w ? sx : w - 1)) * 4 + (size_t)c];
                }
                dst[((size_t)y * dw + x) * 4 + (size_t)c] = (uint8_t)((sum + 2) / 4);
            }
}

/* Every level of the image, encoded: level 0 from the glTF, the rest halved from it. */
static ue_result encode_levels(image_ctx *x, const ue_hsd_tobj *t, const uint8_t *px, ue_buf *out) {
    const ue_hsd_image *im = &x->in->m->images[t->image];
    uint32_t w = im->width, h = im->height;
    uint8_t *level = malloc((size_t)w * h * 4);
    if (!level) return UE_ERR_NOMEM;
    memcpy(level, px, (size_t)w * h * 4);
    ue_result r = UE_OK;
    for (uint32_t k = 0; r == UE_OK && k < (im->levels ? im->levels : 1); k++) {
        uint32_t lw, lh;
        r = ue_gx_level_size(im->format, im->width, im->height, k, &lw, &lh, NULL, NULL);
        if (r == UE_OK && k > 0) {
            uint8_t *next = malloc((size_t)lw * lh * 4);
            if (!next) r = UE_ERR_NOMEM;
            else half_level(level, w, h, next, lw, lh);
            free(level);
            level = next, w = lw, h = lh;
        }
        if (r != UE_OK) break;
        if (im->format == UE_GX_C4 || im->format == UE_GX_C8) r = encode_indexed(x, t, im->format, level, w, h, out);
        else r = ue_gx_encode_rgba(im->format, level, w, h, out);
    }
    free(level);
    return r;
}

/* Puts the encoded bytes over the image's; two textures giving one image different bytes conflict. */
static void put_image(image_ctx *x, const ue_hsd_tobj *t, int32_t texture, const ue_buf *enc) {
    const ue_hsd_image *im = &x->in->m->images[t->image];
    uint64_t at = hsd_file_at(im->data_offset);
    if (enc->size > im->size || at + enc->size > x->in->size) return; /* the reader checked the levels */
    uint8_t *dst = x->in->bytes + at, *mark = x->in->written + at;
    if (!memcmp(dst, enc->data, enc->size)) return;
    for (size_t i = 0; i < enc->size; i++)
        if (mark[i] && dst[i] != enc->data[i]) {
            image_error(x, "import.hsd.conflict", at, texture,
                        "another glTF texture gave image %d (at 0x%llx) different pixels; textures of one image "
                        "must be edited alike", (int)t->image, (unsigned long long)at);
            return;
        }
    memcpy(dst, enc->data, enc->size);
    memset(mark, 1, enc->size);
    x->image_state[t->image] |= IMAGE_WRITTEN;
    x->changed++;
}

/* The base TObj's image decoded as it is stored (level 0); NULL when it does not decode. */
static uint8_t *stored_pixels(const ue_hsd_model *m, const ue_hsd_tobj *t) {
    uint64_t budget = UINT64_MAX;
    ue_parse_ctx pc = ue_parse_begin(UE_MODE_STRICT, NULL);
    uint8_t *px = NULL;
    uint32_t w, h;
    if (hsd_decode_image_level(m, t->image, t->tlut, 0, &pc, "image", &budget, &px, &w, &h) != UE_OK) return NULL;
    return px;
}

bool hsd_texture_is_baked(const ue_hsd_model *m, const ue_scene_texture *tex) {
    if (tex->source.type != HSD_KIND_TOBJ || tex->source.index >= m->tobj_count || !tex->rgba) return false;
    const ue_hsd_tobj *t = &m->tobjs[tex->source.index];
    if (t->image < 0 || (size_t)t->image >= m->image_count) return false;
    const ue_hsd_image *im = &m->images[t->image];
    if (tex->width != im->width || tex->height != im->height) return true;
    uint8_t *stored = stored_pixels(m, t);
    bool baked = !stored || memcmp(stored, tex->rgba, (size_t)tex->width * tex->height * 4);
    free(stored);
    return baked;
}

/* How far a channel may lie from the luma and still come back as itself: the luma's own rounding
 * in the 8-bit formats, half a step in the 4-bit ones. */
static int intensity_rounding(uint32_t format) { return format == UE_GX_I4 || format == UE_GX_IA4 ? 8 : 1; }

/* An intensity format stores the luma and gives it back as R, G and B, and I4 and I8 as alpha
 * too (what `convert` exports): an edited texel whose colour, or I4/I8 alpha, lies farther from its
 * luma than rounding loses it, and the user is told which (docs/hsd-import.md#images). */
static void warn_dropped_channels(image_ctx *x, const ue_scene_texture *g, const ue_hsd_image *im, int32_t gt) {
    bool intensity = im->format == UE_GX_I4 || im->format == UE_GX_I8;
    if (!intensity && im->format != UE_GX_IA4 && im->format != UE_GX_IA8) return;
    int tol = intensity_rounding(im->format);
    bool colour = false, alpha = false;
    for (size_t i = 0; i < (size_t)g->width * g->height; i++) {
        const uint8_t *p = &g->rgba[4 * i];
        int luma = (int)((77u * p[0] + 150u * p[1] + 29u * p[2] + 128u) >> 8);
        for (int c = 0; c < 3; c++) colour |= abs(p[c] - luma) > tol;
        alpha |= abs(p[3] - luma) > tol;
    }
    alpha &= intensity;
    if (!colour && !alpha) return;
    char path[48];
    snprintf(path, sizeof path, "/textures/%d", (int)gt);
    ue_diag_add(x->in->d, UE_SEV_WARNING, "import.hsd.image_channels", hsd_file_at(im->offset), path,
                "image '%s' is stored as %s, which holds %s: its %s", g->name, ue_gx_format_name(im->format),
                intensity ? "intensity only" : "intensity and alpha",
                colour && alpha ? "colour and alpha are dropped (the colour stored as luma, read back as alpha too)"
                : colour        ? "colour is dropped (stored as luma)"
                                : "alpha is dropped (the luma is read back as alpha)");
}

static ue_result edit_texture(image_ctx *x, int32_t gt, int32_t rt) {
    const ue_scene_texture *g = &x->in->s->textures[gt], *r = &x->in->ref->textures[rt];
    const ue_hsd_model *m = x->in->m;
    if (r->source.type != HSD_KIND_TOBJ || r->source.index >= m->tobj_count) return UE_OK;
    const ue_hsd_tobj *t = &m->tobjs[r->source.index];
    if (t->image < 0 || (size_t)t->image >= m->image_count) return UE_OK;
    const ue_hsd_image *im = &m->images[t->image];
    const char *fmt = ue_gx_format_name(im->format);
    uint64_t desc = hsd_file_at(im->offset);
    if (g->width != r->width || g->height != r->height) {
        image_error(x, "import.hsd.image_size", desc, gt,
                    "image '%s' is %u × %u; the base's %s image is %u × %u, and edit mode keeps an image's size",
                    g->name, g->width, g->height, fmt ? fmt : "GX", r->width, r->height);
        return UE_OK;
    }
    size_t bytes = (size_t)g->width * g->height * 4;
    if (!g->rgba || !r->rgba || !memcmp(g->rgba, r->rgba, bytes)) {
        x->image_state[t->image] |= IMAGE_KEPT;
        return UE_OK;
    }
    if (hsd_texture_is_baked(m, r)) {
        image_error(x, "import.hsd.baked", desc, gt,
                    "image '%s' was baked from several texture layers of its material; edit the layers' images "
                    "(not written back yet)", g->name);
        return UE_OK;
    }
    bool palette = im->format == UE_GX_C4 || im->format == UE_GX_C8;
    if (im->format == UE_GX_C14X2 || (palette && (t->tlut < 0 || (size_t)t->tlut >= m->tlut_count))) {
        image_error(x, "import.hsd.image_format", desc, gt,
                    "image '%s' is %s%s, which edit mode does not re-encode", g->name, fmt ? fmt : "an unknown format",
                    palette ? " without a palette" : "");
        return UE_OK;
    }
    warn_dropped_channels(x, g, im, gt);
    ue_buf enc = {0};
    ue_result res = encode_levels(x, t, g->rgba, &enc);
    if (res == UE_OK && enc.failed) res = UE_ERR_NOMEM;
    if (res == UE_OK) put_image(x, t, gt, &enc);
    ue_buf_free(&enc);
    return res;
}

/* Pairs each slot of a matched primitive's base material with the glTF material's slot of the
 * same role and rank, and edits the glTF texture's image there. */
static ue_result edit_pairs(image_ctx *x) {
    const hsd_image_edit_in *in = x->in;
    for (size_t p = 0; p < in->material_pair_count; p++) {
        const ue_scene_material *gm = &in->s->materials[in->material_pairs[2 * p]];
        const ue_scene_material *rm = &in->ref->materials[in->material_pairs[2 * p + 1]];
        for (size_t k = 0; k < rm->slot_count; k++) {
            int32_t rt = rm->slots[k].texture;
            int32_t gt = slot_texture(gm, rm->slots[k].role, role_rank(rm, k));
            if (rt < 0 || gt < 0 || (size_t)rt >= in->ref->texture_count || (size_t)gt >= in->s->texture_count) continue;
            ue_result r = edit_texture(x, gt, rt);
            if (r != UE_OK) return r;
        }
    }
    return UE_OK;
}

ue_result hsd_edit_images(const hsd_image_edit_in *in, size_t *changed, size_t *errors) {
    image_ctx x = {in, calloc(in->m->image_count + 1, 1), 0, 0, 0};
    if (!x.image_state) return UE_ERR_NOMEM;
    ue_result r = edit_pairs(&x);
    size_t both = 0;
    for (size_t i = 0; i < in->m->image_count; i++) both += x.image_state[i] == (IMAGE_KEPT | IMAGE_WRITTEN);
    if (r == UE_OK && !x.errors && both)
        ue_diag_add(in->d, UE_SEV_WARNING, "import.hsd.shared", UE_NO_OFFSET, "/textures",
                    "%zu rewritten images are also drawn by glTF textures left unchanged (one image, several "
                    "samplers or palettes): those change with the edit", both);
    if (r == UE_OK && !x.errors && x.off_palette)
        ue_diag_add(in->d, UE_SEV_WARNING, "import.hsd.palette", UE_NO_OFFSET, "/textures",
                    "%zu texels of edited palette images have no exact palette entry and take the nearest; "
                    "the palettes are kept", x.off_palette);
    free(x.image_state);
    *changed = x.changed, *errors = x.errors;
    return r;
}
