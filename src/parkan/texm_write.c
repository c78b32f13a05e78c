/* unearth — Texm writer: a parsed Texm back to bytes (byte-exact), and a new Texm built from
 * RGBA pixels in any format of docs/formats/texm.md#pixel-formats with a box-filtered mip chain and an optional Page chunk. */
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "parkan/texm_pixels.h"
#include "parkan/texm_quantise.h"
#include "unearth/texm.h"

static void put_header(ue_buf *out, uint32_t w, uint32_t h, uint32_t mips, uint32_t flags4,
                       uint32_t flags5, uint32_t unknown6, uint32_t format) {
    const uint32_t fields[8] = {UE_TEXM_MAGIC, w, h, mips, flags4, flags5, unknown6, format};
    for (int i = 0; i < 8; i++) ue_buf_put_u32le(out, fields[i]);
}

static void put_page(ue_buf *out, const ue_texm_rect *rects, uint32_t count) {
    ue_buf_put_u32le(out, UE_TEXM_PAGE_MAGIC);
    ue_buf_put_u32le(out, count);
    for (uint32_t i = 0; i < count; i++) {
        ue_buf_put_u16le(out, (uint16_t)rects[i].x);
        ue_buf_put_u16le(out, (uint16_t)rects[i].w);
        ue_buf_put_u16le(out, (uint16_t)rects[i].y);
        ue_buf_put_u16le(out, (uint16_t)rects[i].h);
    }
}

ue_result ue_texm_write(const ue_texm *t, ue_buf *out) {
    if (!t || !t->data) return UE_ERR_USAGE;
    put_header(out, t->width, t->height, t->mip_count, t->flags4, t->flags5, t->unknown6, t->format);
    if (t->palette) ue_buf_put(out, t->palette, UE_TEXM_PALETTE_SIZE);
    for (uint32_t i = 0; i < t->level_count; i++)
        ue_buf_put(out, t->data + t->levels[i].offset, t->levels[i].size);
    if (t->has_page) put_page(out, t->rects, t->rect_count);
    if (t->tail_size) ue_buf_put(out, t->data + t->tail_offset, t->tail_size);
    return out->failed ? UE_ERR_NOMEM : UE_OK;
}

/* The next level of a chain: each pixel the rounded mean of the 2×2 box it covers (a side of 1
 * stays 1, so the box degenerates to 2×1 or 1×2). */
static uint8_t *box_halve(const uint8_t *src, uint32_t w, uint32_t h, uint32_t *nw, uint32_t *nh) {
    *nw = w > 1 ? w / 2 : 1, *nh = h > 1 ? h / 2 : 1;
    uint8_t *dst = malloc((size_t)*nw * *nh * 4);
    if (!dst) return NULL;
    for (uint32_t y = 0; y < *nh; y++)
        for (uint32_t x = 0; x < *nw; x++) {
            uint32_t x0 = w > 1 ? 2 * x : 0, y0 = h > 1 ? 2 * y : 0;
            uint32_t x1 = w > 1 ? x0 + 1 : 0, y1 = h > 1 ? y0 + 1 : 0;
            const uint8_t *a = src + ((size_t)y0 * w + x0) * 4, *b = src + ((size_t)y0 * w + x1) * 4;
            const uint8_t *e = src + ((size_t)y1 * w + x0) * 4, *f = src + ((size_t)y1 * w + x1) * 4;
            uint8_t *o = dst + ((size_t)y * *nw + x) * 4;
            for (int c = 0; c < 4; c++) o[c] = (uint8_t)((a[c] + b[c] + e[c] + f[c] + 2u) / 4u);
        }
    return dst;
}

/* Palette of the distinct colours of level 0 (first-seen order), or false if above 256. */
static bool build_palette(const uint8_t *rgba, size_t pixels, uint8_t colours[256][4], unsigned *n) {
    *n = 0;
    for (size_t i = 0; i < pixels; i++) {
        const uint8_t *c = rgba + 4 * i;
        unsigned k = 0;
        while (k < *n && memcmp(colours[k], c, 3) != 0) k++; /* alpha is not stored */
        if (k < *n) continue;
        if (*n == 256) return false;
        memcpy(colours[(*n)++], c, 4);
    }
    return true;
}

/* Index of the nearest palette colour (exact for level 0; filtered levels take the closest). */
static uint8_t nearest(const uint8_t colours[256][4], unsigned n, const uint8_t *c) {
    unsigned best = 0;
    long best_d = -1;
    for (unsigned k = 0; k < n; k++) {
        long dr = colours[k][0] - c[0], dg = colours[k][1] - c[1], db = colours[k][2] - c[2];
        long dist = dr * dr + dg * dg + db * db;
        if (best_d < 0 || dist < best_d) best_d = dist, best = k;
    }
    return (uint8_t)best;
}

/* The palette, and the entry last found for each of 4096 colour hashes: a texture of few
 * colours costs one search per colour rather than per pixel. */
#define NEAREST_CACHE 4096u
typedef struct palette_state {
    uint8_t colours[256][4];
    unsigned n;
    uint32_t cached_rgb[NEAREST_CACHE]; /* 0xRRGGBB | 1 << 24 when set */
    uint8_t cached_index[NEAREST_CACHE];
} palette_state;

static uint8_t nearest_cached(palette_state *pal, const uint8_t *c) {
    uint32_t rgb = (uint32_t)c[0] << 16 | (uint32_t)c[1] << 8 | c[2];
    uint32_t slot = (rgb * 2654435761u) >> 20; /* Fibonacci hashing to 12 bits */
    if (pal->cached_rgb[slot] != (rgb | 1u << 24)) {
        pal->cached_rgb[slot] = rgb | 1u << 24;
        pal->cached_index[slot] = nearest((const uint8_t(*)[4])pal->colours, pal->n, c);
    }
    return pal->cached_index[slot];
}

static void put_level(ue_buf *out, uint32_t format, const uint8_t *rgba, size_t pixels,
                      palette_state *pal) {
    uint32_t bpp = ue_texm_bpp(format);
    if (!ue_buf_reserve(out, pixels * bpp)) return;
    for (size_t i = 0; i < pixels; i++) {
        uint8_t px[4];
        if (format == UE_TEXM_INDEXED) px[0] = nearest_cached(pal, rgba + 4 * i);
        else texm_pixel_encode(format, rgba + 4 * i, px);
        ue_buf_put(out, px, bpp);
    }
}

static ue_result check_build(uint32_t w, uint32_t h, const uint8_t *rgba, const ue_texm_build *how,
                             uint32_t *mips, ue_diag *d) {
    if (!rgba || !how || w == 0 || h == 0 || w > UE_TEXM_MAX_SIDE || h > UE_TEXM_MAX_SIDE) {
        ue_diag_add(d, UE_SEV_ERROR, "texm.build.size", UE_NO_OFFSET, "texm",
                    "a Texm is 1 to %u pixels on each side, not %u × %u", UE_TEXM_MAX_SIDE, w, h);
        return UE_ERR_USAGE;
    }
    if (ue_texm_bpp(how->format) == 0) {
        ue_diag_add(d, UE_SEV_ERROR, "texm.build.format", UE_NO_OFFSET, "texm",
                    "format %u is none of 0, 565, 556, 4444, 88, 888, 8888", how->format);
        return UE_ERR_USAGE;
    }
    uint32_t full = 1;
    for (uint32_t side = w > h ? w : h; side > 1; side >>= 1) full++;
    *mips = how->mip_count ? how->mip_count : full;
    if (*mips > full) {
        ue_diag_add(d, UE_SEV_ERROR, "texm.build.mips", UE_NO_OFFSET, "texm",
                    "%u mip levels asked, a %u × %u chain has %u", *mips, w, h, full);
        return UE_ERR_USAGE;
    }
    return UE_OK;
}

ue_result ue_texm_build_rgba(uint32_t w, uint32_t h, const uint8_t *rgba, const ue_texm_build *how,
                             ue_buf *out, ue_diag *d) {
    uint32_t mips;
    ue_result r = check_build(w, h, rgba, how, &mips, d);
    if (r != UE_OK) return r;
    palette_state *pal = NULL;
    if (how->format == UE_TEXM_INDEXED) {
        pal = calloc(1, sizeof *pal);
        if (!pal) return UE_ERR_NOMEM;
        bool have_palette = build_palette(rgba, (size_t)w * h, pal->colours, &pal->n);
        if (!have_palette && how->quantise) {
            pal->n = texm_median_cut(rgba, (size_t)w * h, pal->colours);
            if (pal->n == 0) {
                free(pal);
                return UE_ERR_NOMEM;
            }
            have_palette = true;
        }
        if (!have_palette) {
            free(pal);
            ue_diag_add(d, UE_SEV_ERROR, "texm.build.colours", UE_NO_OFFSET, "texm",
                        "the image has more than 256 colours; an indexed Texm holds 256");
            return UE_ERR_UNSUPPORTED;
        }
    }
    put_header(out, w, h, mips, how->flags4, how->flags5, how->unknown6, how->format);
    for (unsigned k = 0; pal && k < 256; k++) {
        uint8_t e[4] = {0, 0, 0, 0};
        if (k < pal->n) texm_palette_encode(pal->colours[k], e);
        ue_buf_put(out, e, 4);
    }
    const uint8_t *level = rgba;
    uint8_t *owned = NULL;
    for (uint32_t i = 0; i < mips && r == UE_OK; i++) {
        put_level(out, how->format, level, (size_t)w * h, pal);
        if (i + 1 == mips) break;
        uint8_t *next = box_halve(level, w, h, &w, &h);
        free(owned);
        owned = next, level = next;
        if (!next) r = UE_ERR_NOMEM;
    }
    free(owned);
    free(pal);
    if (r == UE_OK && how->rects) put_page(out, how->rects, how->rect_count);
    return r == UE_OK && out->failed ? UE_ERR_NOMEM : r;
}
