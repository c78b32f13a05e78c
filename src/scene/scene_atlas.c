/* unearth — the one texture-atlas helper of both families (HSD texture swaps, MAT0 phases): layout,
 * texels, each cell's UV map and the STEP UV-offset channel that switches cells. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/scene_atlas.h"

static uint64_t pow2_at_least(uint64_t v) {
    uint64_t p = 1;
    while (p < v) p <<= 1;
    return p;
}

static uint32_t saturate_u32(uint64_t v) { return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v; }

/* The grid and the sides; false when a side exceeds the style's limit. */
static bool grid(ue_atlas *a, size_t count) {
    uint64_t cols = 1, g2 = 2ull * a->style.gutter;
    while (cols * cols < count) cols++; /* a near-square grid keeps both sides small */
    uint64_t rows = (count + cols - 1) / cols;
    uint64_t w = cols * (a->cell_w + g2), h = rows * (a->cell_h + g2);
    if (a->style.pow2) w = pow2_at_least(w), h = pow2_at_least(h);
    a->cols = (uint32_t)cols, a->rows = (uint32_t)rows;
    a->width = saturate_u32(w), a->height = saturate_u32(h);
    return w <= a->style.max_side && h <= a->style.max_side;
}

ue_result ue_atlas_layout(const ue_atlas_image *images, size_t count, const ue_atlas_style *style, ue_atlas *out) {
    memset(out, 0, sizeof *out);
    out->style = *style;
    if (!count || count > UE_ATLAS_MAX_CELLS) return UE_ERR_USAGE;
    for (size_t i = 0; i < count; i++) {
        if (!images[i].width || !images[i].height || !images[i].rgba) return UE_ERR_USAGE;
        if (images[i].width > out->cell_w) out->cell_w = images[i].width;
        if (images[i].height > out->cell_h) out->cell_h = images[i].height;
    }
    out->count = (uint32_t)count;
    if (!grid(out, count)) return UE_ERR_LIMIT;
    out->image_size = malloc(2 * count * sizeof *out->image_size);
    if (!out->image_size) return UE_ERR_NOMEM;
    for (size_t i = 0; i < count; i++) out->image_size[2 * i] = images[i].width, out->image_size[2 * i + 1] = images[i].height;
    return UE_OK;
}

void ue_atlas_free(ue_atlas *a) {
    free(a->image_size);
    a->image_size = NULL;
}

/* The size an image is drawn at inside its cell (without the gutter). */
static void drawn_size(const ue_atlas *a, size_t cell, uint32_t *w, uint32_t *h) {
    *w = a->style.fit ? a->cell_w : a->image_size[2 * cell];
    *h = a->style.fit ? a->cell_h : a->image_size[2 * cell + 1];
}

/* Source index of drawn position p (gutter included) on a side drawn `dw` wide from `iw` texels:
 * the gutter repeats the edge, inner texels are picked by nearest neighbour (1:1 when dw = iw). */
static uint64_t source_index(uint32_t p, uint32_t gutter, uint32_t dw, uint32_t iw) {
    uint32_t i = p < gutter ? 0 : p - gutter >= dw ? dw - 1 : p - gutter;
    return (uint64_t)i * iw / dw;
}

static void paint_cell(const ue_atlas *a, const ue_atlas_image *img, size_t cell, uint8_t *rgba) {
    uint32_t g = a->style.gutter, dw, dh;
    drawn_size(a, cell, &dw, &dh);
    size_t x0 = (cell % a->cols) * ((size_t)a->cell_w + 2 * g), y0 = (cell / a->cols) * ((size_t)a->cell_h + 2 * g);
    for (uint32_t y = 0; y < dh + 2 * g; y++) {
        uint64_t sy = source_index(y, g, dh, img->height);
        uint8_t *row = rgba + 4 * ((y0 + y) * a->width + x0);
        if (dw == img->width && !g) { /* the common 1:1 case: one copy a row */
            memcpy(row, img->rgba + 4 * sy * img->width, 4 * (size_t)dw);
            continue;
        }
        for (uint32_t x = 0; x < dw + 2 * g; x++)
            memcpy(row + 4 * (size_t)x, img->rgba + 4 * (sy * img->width + source_index(x, g, dw, img->width)), 4);
    }
}

void ue_atlas_paint(const ue_atlas *a, const ue_atlas_image *images, uint8_t *rgba) {
    for (size_t i = 0; i < a->count; i++) paint_cell(a, &images[i], i, rgba);
}

int32_t ue_atlas_texture(ue_scene *s, const ue_atlas *a, const ue_atlas_image *images, const char *name,
                         int32_t reuse) {
    int32_t ti = reuse;
    if (reuse < 0) {
        ti = ue_scene_add_texture(s, name, a->width, a->height); /* zeroed texels */
        if (ti < 0) return -1;
    } else {
        uint8_t *px = calloc((size_t)a->width * a->height, 4);
        if (!px) return -1;
        ue_scene_texture *tex = &s->textures[reuse];
        free(tex->rgba);
        tex->rgba = px, tex->width = a->width, tex->height = a->height;
        snprintf(tex->name, sizeof tex->name, "%s", name);
    }
    ue_atlas_paint(a, images, s->textures[ti].rgba);
    return ti;
}

void ue_atlas_cell_map(const ue_atlas *a, size_t cell, double scale[2], double offset[2]) {
    uint32_t g = a->style.gutter, dw, dh;
    drawn_size(a, cell, &dw, &dh);
    uint64_t col = cell % a->cols, row = cell / a->cols;
    /* Whole texel counts first, one division each: the same doubles whatever the style. */
    offset[0] = (double)(col * (a->cell_w + 2ull * g) + g) / a->width;
    offset[1] = (double)(row * (a->cell_h + 2ull * g) + g) / a->height;
    scale[0] = (double)dw / a->width;
    scale[1] = (double)dh / a->height;
}

void ue_atlas_compose(const ue_atlas *a, size_t cell, double A[4], double b[2]) {
    double cs[2], co[2];
    ue_atlas_cell_map(a, cell, cs, co);
    for (int i = 0; i < 2; i++) A[2 * i] *= cs[i], A[2 * i + 1] *= cs[i], b[i] = co[i] + cs[i] * b[i];
}

void ue_atlas_cell_transform(const ue_atlas *a, size_t cell, ue_uv_transform *out) {
    double scale[2], offset[2];
    ue_atlas_cell_map(a, cell, scale, offset);
    out->enabled = true;
    out->rotation = 0.0f;
    for (int i = 0; i < 2; i++) out->offset[i] = (float)offset[i], out->scale[i] = (float)scale[i];
}

ue_anim_channel *ue_atlas_step_channel(ue_scene *s, int32_t clip, int32_t material, int32_t slot,
                                       const ue_atlas *a, const ue_atlas_key *keys, size_t n) {
    if (n > UINT32_MAX) return NULL;
    ue_anim_channel *ch = ue_scene_add_channel(s, clip, UE_TARGET_UV_OFFSET, UE_INTERP_STEP, (uint32_t)n);
    if (!ch) return NULL;
    ch->material = material;
    ch->slot = slot;
    for (size_t i = 0; i < n; i++) {
        double scale[2], offset[2];
        ue_atlas_cell_map(a, keys[i].cell, scale, offset);
        ch->times[i] = keys[i].time;
        ch->values[2 * i] = (float)offset[0], ch->values[2 * i + 1] = (float)offset[1];
    }
    return ch;
}
