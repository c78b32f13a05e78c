/* unearth — internal: the HSD material rules besides hsd_scene_material (hsd_scene.h): the one
 * texture-matrix rule, the render-mode questions the scene converter asks, and the images hook. */
#ifndef UNEARTH_HSD_MATERIAL_H
#define UNEARTH_HSD_MATERIAL_H

#include "common/parse.h"
#include "hsd/hsd_scene.h"
#include "unearth/hsd_model.h"
#include "unearth/model_format.h"
#include "unearth/scene.h"

/* Render-mode bits (docs/formats/hsd-materials.md#render-mode) the material mapping reads. */
#define HSD_RENDER_DIFFUSE_MASK 0x3u   /* 0 MAT0, 1 MAT, 2 VTX, 3 BOTH */
#define HSD_RENDER_LIGHTING 0x4u       /* DIFFUSE: lit; clear = the colour is drawn as is */
#define HSD_RENDER_TEX0 0x10u          /* TEXn = HSD_RENDER_TEX0 << n */
#define HSD_RENDER_ALPHA_SHIFT 13u     /* 0 COMPAT (as diffuse), 1 MAT, 2 VTX, 3 BOTH */
#define HSD_RENDER_XLU 0x40000000u

/* TObj flag fields (docs/formats/hsd-materials.md#tobj-flags) and the colour / alpha ops of TObjMakeTExp. */
#define HSD_TOBJ_COORD_MASK 0xFu        /* 0 UV, 1 REFLECTION, 2 HIGHLIGHT, 3 SHADOW, 4 TOON, … */
#define HSD_TOBJ_LIGHTMAP_MASK 0x1F0u   /* 0x10 DIFFUSE, 0x20 SPECULAR, 0x40 AMBIENT, 0x80 EXT, … */
#define HSD_TOBJ_LIGHTMAP_DIFFUSE 0x10u
#define HSD_TOBJ_LIGHTMAP_SPECULAR 0x20u
#define HSD_TOBJ_COLOR_OP(f) (((f) >> 16) & 0xFu)
#define HSD_TOBJ_ALPHA_OP(f) (((f) >> 20) & 0xFu)
#define HSD_TOBJ_BUMP 0x1000000u
enum {
    HSD_COLOR_OP_NONE, HSD_COLOR_OP_ALPHA_MASK, HSD_COLOR_OP_RGB_MASK, HSD_COLOR_OP_BLEND,
    HSD_COLOR_OP_MODULATE, HSD_COLOR_OP_REPLACE, HSD_COLOR_OP_PASS, HSD_COLOR_OP_ADD, HSD_COLOR_OP_SUB
};
enum {
    HSD_ALPHA_OP_NONE, HSD_ALPHA_OP_ALPHA_MASK, HSD_ALPHA_OP_BLEND, HSD_ALPHA_OP_MODULATE,
    HSD_ALPHA_OP_REPLACE, HSD_ALPHA_OP_PASS, HSD_ALPHA_OP_ADD, HSD_ALPHA_OP_SUB
};
#define HSD_MAX_CHAIN 8u /* render-mode bits TEX0..TEX7 gate at most eight TObjs */

/* Does the MObj's colour take the vertex colours (diffuse source VTX or BOTH)? The scene
 * converter keeps COLOR_0 only then: with MAT the game ignores them, and glTF would not. */
bool hsd_material_uses_vertex_color(uint32_t render_mode);

/* The texture matrix of docs/formats/hsd-materials.md#texture-matrix (MakeTextureMtx) as a 2D affine map of the vertex UV
 * (s, t) to the sampled (s', t'): s' = a[0]·s + a[1]·t + b[0], t' = a[2]·s + a[3]·t + b[1].
 * *repeat_ok is false when repeat_s or repeat_t is 0 (the map then uses 0 for that axis). */
void hsd_tobj_uv_affine(const ue_hsd_tobj *t, double a[4], double b[2], bool *repeat_ok);

/* The same map as KHR_texture_transform (uv' = offset + Rk(rotation) · diag(scale) · uv with
 * Rk(θ) = [[cos θ, sin θ], [−sin θ, cos θ]], the matrix glTF viewers implement). Returns false
 * when glTF cannot express it exactly (the map shears: non-uniform scale with rotation, or
 * rot.x / rot.y tilting the plane); *out is then the nearest rotation + scale. out->enabled is
 * false for the identity. */
bool hsd_tobj_uv_transform(const ue_hsd_tobj *t, ue_uv_transform *out);

/* The KHR_texture_transform form of any 2D affine UV map st' = A·st + b (A row-major 2×2), the
 * decomposition hsd_tobj_uv_transform uses; false when the map shears (nearest given). */
bool hsd_uv_affine_to_khr(const double a[4], const double b[2], ue_uv_transform *out);

/* The linear RGBA base-colour factor of MObj `mobj` drawn with Material colours `values` (NULL:
 * none, white) and base TObj `base_tobj` (-1: no texture slot); `baked`: the base texture really
 * is the bake (a bake skipped, over budget or undecodable, leaves the factor in glTF). The one
 * rule for the static material and every animated frame (docs/hsd-materials.md). */
void hsd_material_base_color(const ue_hsd_model *m, size_t mobj, const ue_hsd_material *values,
                             int32_t base_tobj, bool baked, float out[4]);

/* The PE alpha test as a glTF cutoff: the least passing alpha k when exactly the alphas ≥ k pass
 * (cutoff k/255 keeps the same 8-bit texels); 0 when every alpha passes; -1 when no threshold
 * describes it (LESS, EQUAL, nothing passes …). */
int hsd_alpha_threshold(const ue_hsd_pe *pe);

/* ---- diffuse layers baked into the base colour (hsd_layers.c, docs/hsd-materials.md) ---- */

/* Does TObj `layer` bake into the base colour texture of TObj `base`: a diffuse light map on UV
 * coordinates, no bump and no TObjTevDesc, the base's UV set, a texture matrix that is the base's
 * times whole repeat ratios, and wrap modes that tile alike. */
bool hsd_layer_bakes(const ue_hsd_model *m, size_t base, size_t layer);
/* The enabled TObjs after `base_tobj` in MObj `mobj`'s chain that bake into it, in chain order. */
size_t hsd_baked_layers(const ue_hsd_model *m, size_t mobj, int32_t base_tobj,
                        int32_t out[HSD_MAX_CHAIN]);
/* Whether the bake carries the material's RGB (alpha) factor: a baked op that does not commute
 * with a factor multiplied afterwards (BLEND, ADD, REPLACE … over a MODULATE base). The glTF
 * factor is then 1 for those channels (hsd_material_base_color). */
void hsd_bake_factor_use(const ue_hsd_model *m, size_t mobj, int32_t base_tobj, bool *rgb,
                         bool *alpha);
/* One TEV stage of a layer on [0, 1] values (TObjMakeTExp): `prev` the colour so far, `tex` /
 * `tex_alpha` the layer's texel, `blending` the TObj's blend factor. */
double hsd_tev_colour(uint32_t op, double prev, double tex, double tex_alpha, double blending);
double hsd_tev_alpha(uint32_t op, double prev, double tex_alpha, double blending);
/* The base texture of `base_tobj` with its baked layers (none: *rgba NULL, *baked 0), at the
 * largest side any layer needs (at most 1024), nearest-texel sampling; charges *budget. A layer
 * that fails to decode is reported through pc and not applied (tolerant). */
ue_result hsd_bake_base(const ue_hsd_model *m, size_t mobj, int32_t base_tobj, ue_parse_ctx *pc,
                        uint64_t *budget, uint8_t **rgba, uint32_t *w, uint32_t *h, size_t *baked);

/* hsd_scene_material for a PObj with `pobj_flags` (UE_POBJ_*): a PObj that culls neither face
 * draws both, so it gets the material's double-sided variant (made on first use as well);
 * hsd_scene_material itself is the single-sided one. */
ue_result hsd_scene_material_culled(const ue_hsd_model *m, size_t mobj, uint16_t pobj_flags,
                                    ue_mode mode, ue_scene *s, hsd_material_map *map,
                                    int32_t *material, ue_diag *d);

/* RGBA bytes a model may decode in all: 64 MiB plus 64 per byte of its DAT, so shared images
 * drawn through many palettes cannot make the work grow faster than the file. */
uint64_t hsd_rgba_budget(const ue_hsd_model *m);

/* Decodes mip `level` of TObj `tobj`'s image with its palette into a new *rgba (*w × *h),
 * charging *budget. A failure (no image, data shorter than the level, a bad palette, the
 * budget spent) is reported once through `pc` at `path` (strict: error; tolerant: warning)
 * and returns its result with *rgba NULL; decoder warnings go to pc->d. */
ue_result hsd_decode_tobj_level(const ue_hsd_model *m, size_t tobj, unsigned level,
                                ue_parse_ctx *pc, const char *path, uint64_t *budget,
                                uint8_t **rgba, uint32_t *w, uint32_t *h);

/* The same for any image row `image` drawn with palette row `tlut` (-1: none): the images of a
 * TexAnim's table (texture swaps). */
ue_result hsd_decode_image_level(const ue_hsd_model *m, int32_t image, int32_t tlut, unsigned level,
                                 ue_parse_ctx *pc, const char *path, uint64_t *budget,
                                 uint8_t **rgba, uint32_t *w, uint32_t *h);

/* The model-format `images` hook of an HSD .dat: every distinct (image, palette) pair that a
 * TObj of any model set samples, decoded (level 0, or every level with all_levels), named
 * "texN_FORMAT" in TObj table order. */
ue_result hsd_model_images(const uint8_t *data, size_t size, ue_mode mode, bool all_levels,
                           ue_model_images *out, ue_diag *d);

#endif
