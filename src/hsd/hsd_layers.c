/* unearth — HSD diffuse layers baked into the base colour (docs/hsd-materials.md, "Layers"): which
 * TObjs the TEV combines with the base over the same UVs, and the per-texel formula of each op. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsd/hsd_material.h"
#include "unearth/gx.h"

#define BAKE_MAX_SIDE 1024u /* the GX limit of a texture side */

/* ---- which layers bake -------------------------------------------------------------------- */

/* The layer's map relative to the base's: st_layer = diag(ratio) · st_base + offset, with whole
 * positive ratios; false when the relation is anything else (rotation, shear, a fraction). */
static bool relative_map(const ue_hsd_tobj *base, const ue_hsd_tobj *layer, double ratio[2],
                         double offset[2]) {
    double ab[4], bb[2], al[4], bl[2];
    hsd_tobj_uv_affine(base, ab, bb, NULL);
    hsd_tobj_uv_affine(layer, al, bl, NULL);
    double det = ab[0] * ab[3] - ab[1] * ab[2];
    if (!isfinite(det) || fabs(det) < 1e-12) return false;
    double inv[4] = {ab[3] / det, -ab[1] / det, -ab[2] / det, ab[0] / det};
    double rel[4] = {al[0] * inv[0] + al[1] * inv[2], al[0] * inv[1] + al[1] * inv[3],
                     al[2] * inv[0] + al[3] * inv[2], al[2] * inv[1] + al[3] * inv[3]};
    if (fabs(rel[1]) > 1e-6 || fabs(rel[2]) > 1e-6) return false;
    for (int i = 0; i < 2; i++) {
        ratio[i] = rel[3 * i];
        if (!isfinite(ratio[i]) || ratio[i] < 0.5 || ratio[i] > BAKE_MAX_SIDE ||
            fabs(ratio[i] - floor(ratio[i] + 0.5)) > 1e-6)
            return false;
        ratio[i] = floor(ratio[i] + 0.5);
    }
    offset[0] = bl[0] - ratio[0] * bb[0];
    offset[1] = bl[1] - ratio[1] * bb[1];
    return isfinite(offset[0]) && isfinite(offset[1]);
}

/* Per axis the layer must repeat the same way over the base's texture space: the same wrap at
 * ratio 1 without offset, or both REPEAT (then any whole ratio and any offset tile alike). */
static bool wraps_agree(uint32_t base_wrap, uint32_t layer_wrap, double ratio, double offset) {
    if (base_wrap == 1 && layer_wrap == 1) return true;
    return ratio == 1.0 && base_wrap == layer_wrap && fabs(offset) < 1e-9;
}

bool hsd_layer_bakes(const ue_hsd_model *m, size_t base, size_t layer) {
    const ue_hsd_tobj *b = &m->tobjs[base], *t = &m->tobjs[layer];
    uint32_t f = t->flags;
    if ((f & HSD_TOBJ_COORD_MASK) != 0 || (f & HSD_TOBJ_BUMP) || !(f & HSD_TOBJ_LIGHTMAP_DIFFUSE))
        return false;
    if (t->tev_offset != 0 || t->src != b->src || HSD_TOBJ_COLOR_OP(f) > HSD_COLOR_OP_SUB)
        return false;
    if (t->image < 0 || (size_t)t->image >= m->image_count || !t->repeat_s || !t->repeat_t)
        return false;
    double ratio[2], offset[2];
    if (!relative_map(b, t, ratio, offset)) return false;
    return wraps_agree(b->wrap_s, t->wrap_s, ratio[0], offset[0]) &&
           wraps_agree(b->wrap_t, t->wrap_t, ratio[1], offset[1]);
}

size_t hsd_baked_layers(const ue_hsd_model *m, size_t mobj, int32_t base_tobj,
                        int32_t out[HSD_MAX_CHAIN]) {
    const ue_hsd_mobj *mo = &m->mobjs[mobj];
    size_t count = 0;
    bool after_base = false;
    unsigned n = 0;
    for (int32_t k = mo->first_tobj; k >= 0 && (size_t)k < m->tobj_count && n < HSD_MAX_CHAIN;
         k = m->tobjs[k].next, n++) {
        if (k == base_tobj) after_base = true;
        else if (after_base && (mo->render_mode & (HSD_RENDER_TEX0 << n)) &&
                 hsd_layer_bakes(m, (size_t)base_tobj, (size_t)k))
            out[count++] = k;
    }
    return count;
}

/* Ops that commute with a factor multiplied afterwards: op(F·P, T) = F·op(P, T). */
static bool colour_op_scales(uint32_t op) {
    return op == HSD_COLOR_OP_MODULATE || op == HSD_COLOR_OP_PASS || op == HSD_COLOR_OP_NONE;
}
static bool alpha_op_scales(uint32_t op) {
    return op == HSD_ALPHA_OP_MODULATE || op == HSD_ALPHA_OP_PASS || op == HSD_ALPHA_OP_NONE;
}

void hsd_bake_factor_use(const ue_hsd_model *m, size_t mobj, int32_t base_tobj, bool *rgb,
                         bool *alpha) {
    *rgb = *alpha = false;
    if (base_tobj < 0 || (size_t)base_tobj >= m->tobj_count) return;
    int32_t layers[HSD_MAX_CHAIN];
    size_t n = hsd_baked_layers(m, mobj, base_tobj, layers);
    uint32_t bf = m->tobjs[base_tobj].flags;
    for (size_t i = 0; i < n; i++) {
        uint32_t f = m->tobjs[layers[i]].flags;
        if (HSD_TOBJ_COLOR_OP(bf) != HSD_COLOR_OP_REPLACE && !colour_op_scales(HSD_TOBJ_COLOR_OP(f)))
            *rgb = true;
        if (HSD_TOBJ_ALPHA_OP(bf) != HSD_ALPHA_OP_REPLACE && !alpha_op_scales(HSD_TOBJ_ALPHA_OP(f)))
            *alpha = true;
    }
}

/* ---- the TEV ops (TObjMakeTExp: one stage, out = d + (1 − c)·a + c·b, clamped) -------------- */

static double clamp01d(double v) { return v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v; }

double hsd_tev_colour(uint32_t op, double prev, double tex, double tex_alpha, double blending) {
    switch (op) {
    case HSD_COLOR_OP_ALPHA_MASK: return prev * (1.0 - tex_alpha) + tex * tex_alpha;
    case HSD_COLOR_OP_RGB_MASK: return prev * (1.0 - tex) + tex * tex;
    case HSD_COLOR_OP_BLEND: return clamp01d(prev * (1.0 - blending) + tex * blending);
    case HSD_COLOR_OP_MODULATE: return prev * tex;
    case HSD_COLOR_OP_REPLACE: return tex;
    case HSD_COLOR_OP_ADD: return clamp01d(prev + tex);
    case HSD_COLOR_OP_SUB: return clamp01d(prev - tex);
    default: return prev; /* NONE, PASS */
    }
}

double hsd_tev_alpha(uint32_t op, double prev, double tex_alpha, double blending) {
    switch (op) {
    case HSD_ALPHA_OP_ALPHA_MASK: return prev * (1.0 - tex_alpha) + tex_alpha * tex_alpha;
    case HSD_ALPHA_OP_BLEND: return clamp01d(prev * (1.0 - blending) + tex_alpha * blending);
    case HSD_ALPHA_OP_MODULATE: return prev * tex_alpha;
    case HSD_ALPHA_OP_REPLACE: return tex_alpha;
    case HSD_ALPHA_OP_ADD: return clamp01d(prev + tex_alpha);
    case HSD_ALPHA_OP_SUB: return clamp01d(prev - tex_alpha);
    default: return prev; /* NONE, PASS */
    }
}

/* ---- sampling ------------------------------------------------------------------------------- */

/* A coordinate wrapped into [0, 1) as the sampler does (CLAMP, REPEAT, MIRROR). */
static double wrap01(double s, uint32_t wrap) {
    if (wrap == 1) return s - floor(s);
    if (wrap == 2) {
        double p = s - 2.0 * floor(s / 2.0);
        return p < 1.0 ? p : 2.0 - p;
    }
    return s < 0.0 ? 0.0 : s;
}

static uint32_t texel_of(double s, uint32_t size) {
    double x = floor(s * size);
    return x < 0 ? 0 : x >= size ? size - 1 : (uint32_t)x;
}

typedef struct layer_img {
    uint8_t *rgba;
    uint32_t w, h;
    double ratio[2], offset[2];
    const ue_hsd_tobj *t;
} layer_img;

/* Nearest texel of `im` at the base's texture coordinate (s, t). */
static const uint8_t *sample(const layer_img *im, double s, double t) {
    double u = wrap01(im->ratio[0] * s + im->offset[0], im->t->wrap_s);
    double v = wrap01(im->ratio[1] * t + im->offset[1], im->t->wrap_t);
    return im->rgba + 4u * ((size_t)texel_of(v, im->h) * im->w + texel_of(u, im->w));
}

static uint8_t to_byte(double v) { return (uint8_t)floor(clamp01d(v) * 255.0 + 0.5); }

/* One baked texel: the base texel (times the factor when the bake carries it), then each layer's
 * colour and alpha op in chain order. */
static void bake_texel(const layer_img *im, size_t n, const double factor[4], double s, double t,
                       uint8_t out[4]) {
    const uint8_t *b = sample(&im[0], s, t);
    double c[4];
    for (int i = 0; i < 4; i++) c[i] = factor[i] * (b[i] / 255.0);
    for (size_t k = 1; k < n; k++) {
        const uint8_t *x = sample(&im[k], s, t);
        uint32_t f = im[k].t->flags;
        double ta = x[3] / 255.0, blend = im[k].t->blending;
        for (int i = 0; i < 3; i++)
            c[i] = hsd_tev_colour(HSD_TOBJ_COLOR_OP(f), c[i], x[i] / 255.0, ta, blend);
        c[3] = hsd_tev_alpha(HSD_TOBJ_ALPHA_OP(f), c[3], ta, blend);
    }
    for (int i = 0; i < 4; i++) out[i] = to_byte(c[i]);
}

static uint32_t baked_side(uint32_t base, uint32_t layer, double ratio) {
    double want = fmax((double)base, (double)layer * ratio);
    return want > BAKE_MAX_SIDE ? (base > BAKE_MAX_SIDE ? base : BAKE_MAX_SIDE) : (uint32_t)want;
}

/* The factor the bake starts from: the material colour (sRGB bytes as the TEV sees them) where
 * hsd_bake_factor_use says the bake carries it, else 1. */
static void start_factor(const ue_hsd_model *m, size_t mobj, int32_t base_tobj, double f[4]) {
    bool rgb, alpha;
    hsd_bake_factor_use(m, mobj, base_tobj, &rgb, &alpha);
    const ue_hsd_mobj *mo = &m->mobjs[mobj];
    uint32_t diffuse = mo->render_mode & HSD_RENDER_DIFFUSE_MASK;
    uint32_t asrc = (mo->render_mode >> HSD_RENDER_ALPHA_SHIFT) & 3u;
    if (asrc == 0) asrc = diffuse;
    for (int i = 0; i < 4; i++) f[i] = 1.0;
    if (rgb && mo->has_material && diffuse != 2)
        for (int i = 0; i < 3; i++) f[i] = mo->material.diffuse[i] / 255.0;
    if (alpha && mo->has_material && asrc != 2) f[3] = clamp01d(mo->material.alpha);
}

ue_result hsd_bake_base(const ue_hsd_model *m, size_t mobj, int32_t base_tobj, ue_parse_ctx *pc,
                        uint64_t *budget, uint8_t **rgba, uint32_t *w, uint32_t *h, size_t *baked) {
    *rgba = NULL, *baked = 0;
    int32_t layers[HSD_MAX_CHAIN];
    size_t n = hsd_baked_layers(m, mobj, base_tobj, layers);
    if (n == 0) return UE_OK;
    layer_img im[HSD_MAX_CHAIN + 1] = {{0}};
    size_t got = 0;
    ue_result r = UE_OK;
    for (size_t k = 0; k <= n && r == UE_OK; k++) {
        size_t tobj = (size_t)(k == 0 ? base_tobj : layers[k - 1]);
        char path[64];
        snprintf(path, sizeof path, "dat/tobj[%zu]", tobj);
        layer_img *li = &im[got];
        r = hsd_decode_tobj_level(m, tobj, 0, pc, path, budget, &li->rgba, &li->w, &li->h);
        if (r == UE_ERR_NOMEM || ue_parse_failed(pc)) break;
        if (r != UE_OK && k == 0) break; /* no base: nothing to bake onto */
        li->t = &m->tobjs[tobj];
        li->ratio[0] = li->ratio[1] = 1.0;
        if (k > 0) relative_map(im[0].t, li->t, li->ratio, li->offset);
        if (r == UE_OK) got++;
        r = UE_OK; /* tolerant: a layer that fails to decode is not applied */
    }
    if (r == UE_OK && !ue_parse_failed(pc) && got > 1) {
        uint32_t W = im[0].w, H = im[0].h;
        for (size_t k = 1; k < got; k++) {
            W = baked_side(W, im[k].w, im[k].ratio[0]);
            H = baked_side(H, im[k].h, im[k].ratio[1]);
        }
        uint64_t bytes = (uint64_t)W * H * 4u;
        uint8_t *px = bytes <= *budget ? malloc((size_t)bytes) : NULL;
        if (!px) r = bytes <= *budget ? UE_ERR_NOMEM : UE_OK; /* over budget: the base alone */
        double factor[4];
        start_factor(m, mobj, base_tobj, factor);
        for (uint32_t y = 0; px && y < H; y++)
            for (uint32_t x = 0; x < W; x++)
                bake_texel(im, got, factor, (x + 0.5) / W, (y + 0.5) / H, px + 4u * ((size_t)y * W + x));
        if (px) *budget -= bytes, *rgba = px, *w = W, *h = H, *baked = got - 1;
    }
    for (size_t k = 0; k < got; k++) free(im[k].rgba);
    if (ue_parse_failed(pc)) return pc->failure;
    return r == UE_ERR_NOMEM ? r : UE_OK; /* tolerant: a base that fails is drawn unbaked */
}
