/* unearth — HSD materials to the scene IR (docs/formats/hsd-materials.md): MObj colour, render mode and
 * PE to a glTF-style material, the first base-colour TObj to a texture slot, samplers, UV matrix. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsd/hsd_material.h"
#include "hsd/hsd_scene.h"
#include "hsd/hsd_to_scene.h"
#include "unearth/gx.h"
#include "unearth/hsd.h"
#include "unearth/advanced/buffers.h"


static uint64_t file_offset(uint32_t data_offset) { return (uint64_t)data_offset + UE_DAT_HEADER; }

/* ---- map ---------------------------------------------------------------------------------- */

static int32_t *filled(size_t n) {
    int32_t *a = ue_malloc_items(n, sizeof *a);
    for (size_t i = 0; a && i < n; i++) a[i] = -1;
    return a;
}

uint64_t hsd_rgba_budget(const ue_hsd_model *m) {
    uint64_t dat_size = m && m->dat ? (uint64_t)m->dat->size : 0;
    return ((uint64_t)64 << 20) + 64u * dat_size;
}

ue_result hsd_material_map_init(hsd_material_map *map, const ue_hsd_model *m) {
    memset(map, 0, sizeof *map);
    map->scene_material = filled(m->mobj_count);
    map->scene_material_two_sided = filled(m->mobj_count);
    map->scene_texture = filled(m->tobj_count);
    map->next_tobj_same_image = filled(m->tobj_count);
    map->image_first_tobj = filled(m->image_count);
    map->base_tobj = filled(m->mobj_count);
    map->baked_texture = filled(m->mobj_count);
    map->baked_count = filled(m->mobj_count);
    map->rgba_budget = hsd_rgba_budget(m);
    if (map->scene_material && map->scene_material_two_sided && map->scene_texture &&
        map->next_tobj_same_image && map->image_first_tobj && map->base_tobj && map->baked_texture &&
        map->baked_count)
        return UE_OK;
    hsd_material_map_free(map);
    return UE_ERR_NOMEM;
}

void hsd_material_map_free(hsd_material_map *map) {
    free(map->scene_material);
    free(map->scene_material_two_sided);
    free(map->scene_texture);
    free(map->next_tobj_same_image);
    free(map->image_first_tobj);
    free(map->base_tobj);
    free(map->baked_texture);
    free(map->baked_count);
    memset(map, 0, sizeof *map);
}

/* ---- the texture matrix: the one rule (docs/hsd-materials.md) -------------------------------- */

/* Rz(rz)·Ry(ry)·Rx(rx), the joint rotation of docs/formats/hsd-model.md#joint-matrices, row-major 3×3. */
static void rotation_zyx(double rx, double ry, double rz, double r[9]) {
    double cx = cos(rx), sx = sin(rx), cy = cos(ry), sy = sin(ry), cz = cos(rz), sz = sin(rz);
    r[0] = cz * cy, r[1] = cz * sy * sx - sz * cx, r[2] = cz * sy * cx + sz * sx;
    r[3] = sz * cy, r[4] = sz * sy * sx + cz * cx, r[5] = sz * sy * cx - sx * cz;
    r[6] = -sy, r[7] = cy * sx, r[8] = cy * cx;
}

/* MakeTextureMtx: M = Scale(repeat/scale) · Rzyx(rot.x, rot.y, −rot.z) · Translate(−translate,
 * the MIRROR term on t), applied to (s, t, 0, 1); only the s and t rows matter. */
void hsd_tobj_uv_affine(const ue_hsd_tobj *t, double a[4], double b[2], bool *repeat_ok) {
    double scl[2];
    const uint8_t rep[2] = {t->repeat_s, t->repeat_t};
    for (int i = 0; i < 2; i++)
        scl[i] = fabs((double)t->scale[i]) < FLT_EPSILON ? 0.0 : rep[i] / (double)t->scale[i];
    double mirror = t->wrap_t == 2 && t->repeat_t ? (double)t->scale[1] / t->repeat_t : 0.0;
    double tr[3] = {-(double)t->translation[0], -((double)t->translation[1] + mirror),
                    (double)t->translation[2]};
    double r[9];
    rotation_zyx(t->rotation[0], t->rotation[1], -(double)t->rotation[2], r);
    for (int i = 0; i < 2; i++) {
        a[2 * i] = scl[i] * r[3 * i];
        a[2 * i + 1] = scl[i] * r[3 * i + 1];
        b[i] = scl[i] * (r[3 * i] * tr[0] + r[3 * i + 1] * tr[1] + r[3 * i + 2] * tr[2]);
    }
    if (repeat_ok) *repeat_ok = t->repeat_s && t->repeat_t;
}

/* No −0 in the JSON. NaN and values past float range are kept (as NaN / ±inf) so that
 * add_base_slot reports them as hsd.tobj.matrix instead of writing a silent 0. */
static float clean(double v) { return v == 0.0 ? 0.0f : (float)v; }

/* KHR: A = Rk(θ)·diag(kx, ky), so A's first column is kx·(cos θ, −sin θ) and its second
 * ky·(sin θ, cos θ); what of the second column lies along the first is shear glTF lacks. */
bool hsd_uv_affine_to_khr(const double a[4], const double b[2], ue_uv_transform *out) {
    double kx = hypot(a[0], a[2]), theta;
    if (kx > 1e-12) theta = atan2(-a[2], a[0]);
    else theta = atan2(a[1], a[3]);
    double c = cos(theta), s = sin(theta);
    double ky = a[1] * s + a[3] * c, shear = a[1] * c - a[3] * s;
    memset(out, 0, sizeof *out);
    out->offset[0] = clean(b[0]), out->offset[1] = clean(b[1]);
    out->rotation = clean(theta);
    out->scale[0] = clean(kx), out->scale[1] = clean(ky);
    out->enabled = out->offset[0] != 0.0f || out->offset[1] != 0.0f || out->rotation != 0.0f ||
                   out->scale[0] != 1.0f || out->scale[1] != 1.0f;
    return fabs(shear) <= 1e-6 * (fabs(kx) + fabs(ky) + 1.0);
}

bool hsd_tobj_uv_transform(const ue_hsd_tobj *t, ue_uv_transform *out) {
    double a[4], b[2];
    hsd_tobj_uv_affine(t, a, b, NULL);
    return hsd_uv_affine_to_khr(a, b, out);
}

/* ---- decoding a TObj's image -------------------------------------------------------------- */

static void first_error(const ue_diag *local, char *msg, size_t cap) {
    snprintf(msg, cap, "the decoder refused it");
    for (size_t i = 0; i < local->count; i++)
        if (local->items[i].severity == UE_SEV_ERROR) {
            snprintf(msg, cap, "%s [%s]", local->items[i].message, local->items[i].code);
            return;
        }
}

static void pass_on(ue_diag *d, const ue_diag *local) {
    for (size_t i = 0; d && i < local->count; i++) {
        const ue_diag_item *it = &local->items[i];
        ue_diag_add(d, it->severity, it->code, it->offset, it->path, "%s", it->message);
    }
}

static ue_gx_image gx_view(const ue_hsd_model *m, int32_t image, int32_t tlut) {
    const ue_hsd_image *im = &m->images[image];
    ue_gx_image g = {im->data, im->size, im->width, im->height, im->format, NULL, 0, 0, 0};
    if (tlut >= 0 && (size_t)tlut < m->tlut_count) {
        const ue_hsd_tlut *p = &m->tluts[tlut];
        g.tlut = p->data;
        g.tlut_size = p->data ? (size_t)p->n_entries * 2u : 0;
        g.tlut_count = p->n_entries;
        g.tlut_format = p->format;
    }
    return g;
}

static ue_result refuse(ue_parse_ctx *pc, ue_result r, const char *code, uint64_t off,
                        const char *path, const char *why) {
    ue_violation_as(pc, r, code, off, path, "texture left out: %s", why);
    return r;
}

ue_result hsd_decode_image_level(const ue_hsd_model *m, int32_t image, int32_t tlut, unsigned level,
                                 ue_parse_ctx *pc, const char *path, uint64_t *budget,
                                 uint8_t **rgba, uint32_t *w, uint32_t *h) {
    *rgba = NULL;
    const ue_hsd_image *im = &m->images[image];
    uint64_t at = file_offset(im->data_offset);
    uint32_t lw, lh;
    if (ue_gx_level_size(im->format, im->width, im->height, level, &lw, &lh, NULL, NULL) != UE_OK)
        return refuse(pc, UE_ERR_INVALID, "hsd.texture.size", file_offset(im->offset), path,
                      "its format or size is no GX texture");
    uint64_t bytes = (uint64_t)lw * lh * 4u;
    if (bytes > *budget)
        return refuse(pc, UE_ERR_LIMIT, "hsd.texture.budget", at, path,
                      "the model's decoded textures would outgrow the file more than 64-fold");
    uint8_t *px = malloc((size_t)bytes);
    if (!px) return UE_ERR_NOMEM;
    ue_gx_image g = gx_view(m, image, tlut);
    ue_diag local = {0};
    ue_result r = ue_gx_decode_level(&g, level, pc->mode, px, (size_t)bytes, &local, at, path);
    if (r != UE_OK) {
        char why[300];
        first_error(&local, why, sizeof why);
        ue_diag_free(&local);
        free(px);
        return refuse(pc, r == UE_ERR_NOMEM ? UE_ERR_INVALID : r, "hsd.texture.decode", at, path,
                      why);
    }
    pass_on(pc->d, &local);
    ue_diag_free(&local);
    *budget -= bytes;
    *rgba = px, *w = lw, *h = lh;
    return UE_OK;
}

ue_result hsd_decode_tobj_level(const ue_hsd_model *m, size_t tobj, unsigned level,
                                ue_parse_ctx *pc, const char *path, uint64_t *budget,
                                uint8_t **rgba, uint32_t *w, uint32_t *h) {
    *rgba = NULL;
    const ue_hsd_tobj *t = &m->tobjs[tobj];
    if (t->image < 0 || (size_t)t->image >= m->image_count)
        return refuse(pc, UE_ERR_INVALID, "hsd.texture.image", file_offset(t->offset), path,
                      "the TObj has no image");
    return hsd_decode_image_level(m, t->image, t->tlut, level, pc, path, budget, rgba, w, h);
}

/* ---- textures ------------------------------------------------------------------------------- */

static ue_wrap wrap_of(uint32_t gx_wrap) {
    return gx_wrap == 0 ? UE_WRAP_CLAMP : gx_wrap == 2 ? UE_WRAP_MIRROR : UE_WRAP_REPEAT;
}

/* A texture made earlier from the same image, palette and sampler, or -1. */
static int32_t texture_made(const ue_hsd_model *m, const hsd_material_map *map, const ue_scene *s,
                            size_t tobj) {
    const ue_hsd_tobj *t = &m->tobjs[tobj];
    size_t steps = 0;
    for (int32_t k = map->image_first_tobj[t->image]; k >= 0 && steps++ < m->tobj_count;
         k = map->next_tobj_same_image[k]) {
        const ue_hsd_tobj *o = &m->tobjs[k];
        const ue_scene_texture *tex = &s->textures[map->scene_texture[k]];
        if (o->tlut == t->tlut && tex->wrap_s == wrap_of(t->wrap_s) &&
            tex->wrap_t == wrap_of(t->wrap_t) && tex->nearest == (t->mag_filter == 0))
            return map->scene_texture[k];
    }
    return -1;
}

/* A new scene texture of `w` × `h` pixels (taken over) with TObj `tobj`'s sampler and source. */
static int32_t texture_from_pixels(const ue_hsd_model *m, size_t tobj, const char *name,
                                   uint8_t *px, uint32_t w, uint32_t h, ue_scene *s) {
    const ue_hsd_tobj *t = &m->tobjs[tobj];
    int32_t idx = ue_scene_add_texture(s, name, w, h);
    if (idx >= 0) {
        ue_scene_texture *tex = &s->textures[idx];
        memcpy(tex->rgba, px, (size_t)w * h * 4u);
        tex->wrap_s = wrap_of(t->wrap_s), tex->wrap_t = wrap_of(t->wrap_t);
        tex->nearest = t->mag_filter == 0;
        tex->source = hsd_source_id(HSD_KIND_TOBJ, t->offset, tobj); /* the TObj that made it */
    }
    free(px);
    return idx;
}

static ue_result new_texture(const ue_hsd_model *m, size_t tobj, ue_parse_ctx *pc,
                             const char *path, ue_scene *s, hsd_material_map *map, int32_t *out) {
    const ue_hsd_tobj *t = &m->tobjs[tobj];
    uint8_t *px;
    uint32_t w, h;
    ue_result r = hsd_decode_tobj_level(m, tobj, 0, pc, path, &map->rgba_budget, &px, &w, &h);
    if (r != UE_OK) return r;
    const ue_hsd_image *im = &m->images[t->image];
    char name[64];
    const char *fmt = ue_gx_format_name(im->format);
    if (t->name && t->name[0]) snprintf(name, sizeof name, "%s", t->name);
    else snprintf(name, sizeof name, "tex%zu_%s", s->texture_count, fmt ? fmt : "GX");
    int32_t idx = texture_from_pixels(m, tobj, name, px, w, h, s);
    if (idx < 0) return UE_ERR_NOMEM;
    map->next_tobj_same_image[tobj] = map->image_first_tobj[t->image];
    map->image_first_tobj[t->image] = (int32_t)tobj;
    *out = idx;
    return UE_OK;
}

/* The scene texture of `tobj` (made on first use); -1 in *out when it was left out. */
static ue_result tobj_texture(const ue_hsd_model *m, size_t tobj, ue_parse_ctx *pc,
                              const char *path, ue_scene *s, hsd_material_map *map, int32_t *out) {
    *out = map->scene_texture[tobj];
    if (*out >= 0) return UE_OK;
    const ue_hsd_tobj *t = &m->tobjs[tobj];
    if (t->image >= 0 && (size_t)t->image < m->image_count) *out = texture_made(m, map, s, tobj);
    if (*out >= 0) {
        map->scene_texture[tobj] = *out;
        return UE_OK;
    }
    ue_result r = new_texture(m, tobj, pc, path, s, map, out);
    if (r == UE_ERR_NOMEM) return r;
    if (r != UE_OK) {
        *out = -1;
        return ue_parse_failed(pc) ? pc->failure : UE_OK; /* tolerant: no slot */
    }
    map->scene_texture[tobj] = *out;
    return UE_OK;
}

/* ---- base colour, alpha, sidedness ----------------------------------------------------------- */

static float srgb_to_linear(uint8_t v) {
    double c = v / 255.0;
    return (float)(c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4));
}

bool hsd_material_uses_vertex_color(uint32_t render_mode) {
    return (render_mode & HSD_RENDER_DIFFUSE_MASK) >= 2;
}

static float clamp01(float v) { return v > 1.0f ? 1.0f : v >= 0.0f ? v : 0.0f; } /* NaN → 0 */

/* Factor glTF multiplies with COLOR_0 and the texture: the material colour when the diffuse
 * source includes MAT (BOTH: material × vertex, as the GX channel does), white for VTX alone;
 * alpha likewise from the alpha source (COMPAT follows the diffuse source). A base TObj whose
 * colour (alpha) op is REPLACE makes the RGB (alpha) factor 1: the texel replaces the colour. */
void hsd_material_base_color(const ue_hsd_model *m, size_t mobj, const ue_hsd_material *values,
                             int32_t base_tobj, bool baked, float out[4]) {
    const ue_hsd_mobj *mo = &m->mobjs[mobj];
    uint32_t diffuse = mo->render_mode & HSD_RENDER_DIFFUSE_MASK;
    uint32_t alpha = (mo->render_mode >> HSD_RENDER_ALPHA_SHIFT) & 3u;
    if (alpha == 0) alpha = diffuse;
    for (int i = 0; i < 4; i++) out[i] = 1.0f;
    if (values && diffuse != 2)
        for (int i = 0; i < 3; i++) out[i] = srgb_to_linear(values->diffuse[i]);
    if (values && alpha != 2) out[3] = clamp01(values->alpha);
    if (base_tobj < 0 || (size_t)base_tobj >= m->tobj_count) return;
    uint32_t f = m->tobjs[base_tobj].flags;
    bool baked_rgb, baked_alpha; /* the bake multiplied the factor in already */
    hsd_bake_factor_use(m, mobj, base_tobj, &baked_rgb, &baked_alpha);
    baked_rgb = baked_rgb && baked, baked_alpha = baked_alpha && baked; /* a bake that was skipped carries nothing */
    if (HSD_TOBJ_COLOR_OP(f) == HSD_COLOR_OP_REPLACE || baked_rgb)
        for (int i = 0; i < 3; i++) out[i] = 1.0f;
    if (HSD_TOBJ_ALPHA_OP(f) == HSD_ALPHA_OP_REPLACE || baked_alpha) out[3] = 1.0f;
}

static bool gx_compare(uint8_t fn, unsigned a, unsigned ref) {
    switch (fn & 7u) {
    case 0: return false;
    case 1: return a < ref;
    case 2: return a == ref;
    case 3: return a <= ref;
    case 4: return a > ref;
    case 5: return a != ref;
    case 6: return a >= ref;
    default: return true;
    }
}

static bool alpha_test_passes(const ue_hsd_pe *pe, unsigned a) {
    bool x = gx_compare(pe->alpha_comp0, a, pe->ref0), y = gx_compare(pe->alpha_comp1, a, pe->ref1);
    switch (pe->alpha_op & 3u) {
    case 0: return x && y;
    case 1: return x || y;
    case 2: return x != y;
    default: return x == y;
    }
}

int hsd_alpha_threshold(const ue_hsd_pe *pe) {
    int k = -1;
    for (unsigned a = 0; a < 256; a++) {
        bool pass = alpha_test_passes(pe, a);
        if (pass && k < 0) k = (int)a;
        if (!pass && k >= 0) return -1;
    }
    return k;
}

static void alpha_mode(const ue_hsd_mobj *mo, ue_scene_material *mat, ue_diag *d,
                       const char *path) {
    mat->alpha_mode = UE_ALPHA_OPAQUE;
    if (mo->render_mode & HSD_RENDER_XLU) {
        mat->alpha_mode = UE_ALPHA_BLEND; /* an alpha test besides blending has no glTF form */
        return;
    }
    if (!mo->has_pe) return;
    int k = hsd_alpha_threshold(&mo->pe);
    if (k > 0) {
        mat->alpha_mode = UE_ALPHA_MASK;
        mat->alpha_cutoff = (float)k / 255.0f;
    } else if (k < 0) {
        ue_diag_add(d, UE_SEV_INFO, "hsd.material.alpha_test", file_offset(mo->offset), path,
                    "alpha test (compare %u/%u ref %u/%u, op %u) has no glTF cutoff; drawn opaque",
                    mo->pe.alpha_comp0, mo->pe.alpha_comp1, mo->pe.ref0, mo->pe.ref1,
                    mo->pe.alpha_op);
    }
}

/* ---- the texture chain ---------------------------------------------------------------------- */

/* Can TObj `t` be glTF's baseColorTexture: plain UV coordinates of a set glTF has, the diffuse
 * light map (or none), a colour op that puts the texel into the base colour, no bump. */
static bool is_base_color(const ue_hsd_tobj *t) {
    uint32_t f = t->flags, op = HSD_TOBJ_COLOR_OP(f), lightmap = f & HSD_TOBJ_LIGHTMAP_MASK;
    if ((f & HSD_TOBJ_COORD_MASK) != 0 || (f & HSD_TOBJ_BUMP)) return false;
    if (lightmap != 0 && !(lightmap & HSD_TOBJ_LIGHTMAP_DIFFUSE)) return false;
    if (op != HSD_COLOR_OP_MODULATE && op != HSD_COLOR_OP_REPLACE && op != HSD_COLOR_OP_BLEND)
        return false;
    return t->src >= 4 && t->src - 4 < UE_MAX_UV_SETS;
}

static bool transform_finite(const ue_uv_transform *t) {
    return isfinite(t->offset[0]) && isfinite(t->offset[1]) && isfinite(t->rotation) &&
           isfinite(t->scale[0]) && isfinite(t->scale[1]);
}

/* The base slot's texture: the base with its diffuse layers baked in (made once per MObj), or
 * the base TObj's own texture when no layer bakes. */
static ue_result base_texture(const ue_hsd_model *m, size_t mobj, size_t tobj, ue_parse_ctx *pc,
                              const char *path, ue_scene *s, hsd_material_map *map, int32_t *out) {
    if (map->baked_texture[mobj] >= 0) {
        *out = map->baked_texture[mobj];
        return UE_OK;
    }
    uint8_t *px;
    uint32_t w, h;
    size_t baked;
    ue_result r = hsd_bake_base(m, mobj, (int32_t)tobj, pc, &map->rgba_budget, &px, &w, &h, &baked);
    if (r != UE_OK || !px) return r != UE_OK ? r : tobj_texture(m, tobj, pc, path, s, map, out);
    const ue_hsd_tobj *t = &m->tobjs[tobj];
    char name[64];
    snprintf(name, sizeof name, "%.50s_baked", t->name && t->name[0] ? t->name : "tex");
    *out = texture_from_pixels(m, tobj, name, px, w, h, s);
    if (*out < 0) return UE_ERR_NOMEM;
    map->baked_texture[mobj] = *out;
    map->baked_count[mobj] = (int32_t)baked;
    return UE_OK;
}

static ue_result add_base_slot(const ue_hsd_model *m, size_t mobj, size_t tobj, int32_t mat_index,
                               ue_parse_ctx *pc, const char *path, ue_scene *s,
                               hsd_material_map *map) {
    const ue_hsd_tobj *t = &m->tobjs[tobj];
    if (!t->repeat_s || !t->repeat_t)
        ue_violation(pc, "hsd.tobj.repeat", file_offset(t->offset) + 0x3C, path,
                     "repeat %u × %u: a tiling count must be non-zero (that axis samples one texel)",
                     t->repeat_s, t->repeat_t);
    int32_t tex;
    ue_result r = ue_parse_failed(pc) ? pc->failure : base_texture(m, mobj, tobj, pc, path, s, map, &tex);
    if (r != UE_OK || tex < 0) return r;
    int32_t slot = ue_scene_add_texture_slot(s, mat_index, UE_TEX_BASE_COLOR, tex, t->src - 4);
    if (slot < 0) return UE_ERR_NOMEM;
    ue_scene_material *mat = &s->materials[mat_index];
    ue_uv_transform *tt = &mat->slots[slot].transform;
    bool exact = hsd_tobj_uv_transform(t, tt);
    if (!transform_finite(tt)) {
        ue_violation(pc, "hsd.tobj.matrix", file_offset(t->offset) + 0x10, path,
                     "rotation, scale or translation gives a texture matrix that is not finite");
        ue_uv_transform none = {false, {0, 0}, 0, {1, 1}};
        *tt = none; /* tolerant: the texture as the UVs address it */
        if (ue_parse_failed(pc)) return pc->failure;
    } else if (!exact) {
        ue_diag_add(pc->d, UE_SEV_INFO, "hsd.tobj.shear", file_offset(t->offset), path,
                    "the texture matrix shears (rotation with unequal scale, or rot.x/rot.y); "
                    "glTF gets the nearest rotation and scale");
    }
    map->base_tobj[mobj] = (int32_t)tobj;
    return UE_OK;
}

static const char *const COORD_NAMES[] = {"uv", "reflection", "highlight", "shadow",
                                           "toon", "gradation", "backlight"};
static const char *const COLOR_OP_NAMES[] = {"none", "alpha_mask", "rgb_mask", "blend", "modulate",
                                             "replace", "pass", "add", "sub"};
static const char *const ALPHA_OP_NAMES[] = {"none", "alpha_mask", "blend", "modulate",
                                             "replace", "pass", "add", "sub"};

/* What a TObj glTF has no place for does in the material (docs/hsd-materials.md, "Layers"). */
static ue_texture_role layer_role(uint32_t f) {
    uint32_t coord = f & HSD_TOBJ_COORD_MASK;
    if (f & HSD_TOBJ_BUMP) return UE_TEX_OTHER;
    if (coord == 1) return UE_TEX_REFLECTION;
    if (coord == 2 || (coord == 0 && (f & HSD_TOBJ_LIGHTMAP_SPECULAR))) return UE_TEX_SPECULAR;
    return UE_TEX_OTHER;
}

static void light_map_name(uint32_t f, char *out, size_t cap) {
    static const char *const names[] = {"diffuse", "specular", "ambient", "ext", "shadow"};
    out[0] = 0;
    for (unsigned i = 0; i < 5; i++)
        if (f & (HSD_TOBJ_LIGHTMAP_DIFFUSE << i))
            snprintf(out + strlen(out), cap - strlen(out), "%s%s", out[0] ? "+" : "", names[i]);
    if (!out[0]) snprintf(out, cap, "none");
}

/* The slot's notes for a script that wires it: coordinate source, light map, colour and alpha
 * op, blend factor, bump, and the raw flags. */
static ue_result layer_notes(const ue_hsd_tobj *t, ue_extras *x) {
    uint32_t f = t->flags, coord = f & HSD_TOBJ_COORD_MASK;
    uint32_t cop = HSD_TOBJ_COLOR_OP(f), aop = HSD_TOBJ_ALPHA_OP(f);
    char lm[48], src[16];
    light_map_name(f, lm, sizeof lm);
    snprintf(src, sizeof src, "mode %u", coord);
    ue_result r = ue_extras_set_string(x, "coordinate", coord < 7 ? COORD_NAMES[coord] : src);
    if (r == UE_OK) r = ue_extras_set_string(x, "light_map", lm);
    if (r == UE_OK) r = ue_extras_set_string(x, "blend", cop <= 8 ? COLOR_OP_NAMES[cop] : "unknown");
    if (r == UE_OK) r = ue_extras_set_string(x, "alpha_blend", aop <= 7 ? ALPHA_OP_NAMES[aop] : "unknown");
    if (r == UE_OK && (cop == HSD_COLOR_OP_BLEND || aop == HSD_ALPHA_OP_BLEND) && isfinite(t->blending))
        r = ue_extras_set_number(x, "blend_factor", t->blending);
    if (r == UE_OK && (f & HSD_TOBJ_BUMP)) r = ue_extras_set_number(x, "bump", 1);
    if (r == UE_OK && t->tev_offset) r = ue_extras_set_number(x, "tev_stage", 1);
    if (r == UE_OK) r = ue_extras_set_number(x, "hsd_tobj_flags", f);
    return r;
}

/* A TObj that is neither the base nor baked into it: a slot of its role, kept in the material's
 * extras by the glTF exporter. UV coordinates of a set the IR has keep their set and transform;
 * reflection, highlight … (and sets past the IR's) are generated. */
static ue_result add_layer_slot(const ue_hsd_model *m, size_t tobj, int32_t mat_index,
                                ue_parse_ctx *pc, const char *path, ue_scene *s,
                                hsd_material_map *map) {
    const ue_hsd_tobj *t = &m->tobjs[tobj];
    int32_t tex;
    ue_result r = tobj_texture(m, tobj, pc, path, s, map, &tex);
    if (r != UE_OK || tex < 0) return r;
    bool uv = (t->flags & HSD_TOBJ_COORD_MASK) == 0 && t->src >= 4 && t->src - 4 < UE_MAX_UV_SETS;
    int32_t slot = ue_scene_add_texture_slot(s, mat_index, layer_role(t->flags), tex, uv ? t->src - 4 : 0);
    if (slot < 0) return UE_ERR_NOMEM;
    ue_texture_slot *sl = &s->materials[mat_index].slots[slot];
    sl->generated = !uv;
    if (uv) {
        hsd_tobj_uv_transform(t, &sl->transform);
        if (!transform_finite(&sl->transform)) sl->transform = (ue_uv_transform){false, {0, 0}, 0, {1, 1}};
    }
    ue_diag_add(pc->d, UE_SEV_INFO, "hsd.tobj.layer", file_offset(t->offset), path,
                "texture (flags 0x%08x) is no base colour glTF can draw: kept as a %s slot in the "
                "material's extras", t->flags, uv ? "UV" : "generated-coordinate");
    return layer_notes(t, &sl->extras) == UE_OK ? UE_OK : UE_ERR_NOMEM;
}

/* The first enabled TObj (render-mode bit TEXn for the n-th) that can be the base colour, or -1. */
static int32_t find_base(const ue_hsd_model *m, const ue_hsd_mobj *mo) {
    unsigned n = 0;
    for (int32_t k = mo->first_tobj; k >= 0 && (size_t)k < m->tobj_count && n < HSD_MAX_CHAIN;
         k = m->tobjs[k].next, n++)
        if ((mo->render_mode & (HSD_RENDER_TEX0 << n)) && is_base_color(&m->tobjs[k])) return k;
    return -1;
}

/* Walks the chain: the base slot first (with the layers that bake into it), then every other
 * enabled TObj as a slot of its role, so no texture is left out. */
static ue_result texture_chain(const ue_hsd_model *m, size_t mobj, int32_t mat_index,
                               ue_parse_ctx *pc, ue_scene *s, hsd_material_map *map) {
    const ue_hsd_mobj *mo = &m->mobjs[mobj];
    int32_t base = find_base(m, mo);
    int32_t baked[HSD_MAX_CHAIN];
    size_t nbaked = 0;
    unsigned n = 0;
    if (base >= 0) {
        for (int32_t k = mo->first_tobj; k != base; k = m->tobjs[k].next) n++;
        char path[96];
        snprintf(path, sizeof path, "dat/mobj[%zu]/tobj[%u]", mobj, n);
        ue_result r = add_base_slot(m, mobj, (size_t)base, mat_index, pc, path, s, map);
        if (r != UE_OK) return r;
        if (map->baked_texture[mobj] >= 0) nbaked = hsd_baked_layers(m, mobj, base, baked);
    }
    n = 0;
    for (int32_t k = mo->first_tobj; k >= 0 && (size_t)k < m->tobj_count && n < HSD_MAX_CHAIN;
         k = m->tobjs[k].next, n++) {
        if (!(mo->render_mode & (HSD_RENDER_TEX0 << n)) || k == base) continue;
        bool is_baked = false;
        for (size_t i = 0; i < nbaked; i++) is_baked = is_baked || baked[i] == k;
        if (is_baked) continue;
        char path[96];
        snprintf(path, sizeof path, "dat/mobj[%zu]/tobj[%u]", mobj, n);
        ue_result r = add_layer_slot(m, (size_t)k, mat_index, pc, path, s, map);
        if (r != UE_OK) return r;
    }
    return UE_OK;
}

/* ---- the material ------------------------------------------------------------------------- */

static ue_result make_material(const ue_hsd_model *m, size_t mobj, bool two_sided, ue_mode mode,
                               ue_scene *s, hsd_material_map *map, int32_t *out, ue_diag *d) {
    const ue_hsd_mobj *mo = &m->mobjs[mobj];
    char name[64], path[64];
    snprintf(path, sizeof path, "dat/mobj[%zu]", mobj);
    if (mo->name && mo->name[0]) snprintf(name, sizeof name, "%s", mo->name);
    else snprintf(name, sizeof name, "mobj_%05x", (unsigned)mo->offset);
    int32_t idx = ue_scene_add_material(s, name);
    if (idx < 0) return UE_ERR_NOMEM;
    ue_scene_material *mat = &s->materials[idx];
    mat->source = hsd_source_id(HSD_KIND_MOBJ, mo->offset, mobj);
    mat->double_sided = two_sided;
    mat->unlit = !(mo->render_mode & HSD_RENDER_LIGHTING);
    alpha_mode(mo, mat, d, path);
    if (ue_extras_set_number(&mat->extras, "hsd_render_mode", mo->render_mode) != UE_OK)
        return UE_ERR_NOMEM;
    ue_parse_ctx pc = ue_parse_begin(mode, d);
    ue_result r = texture_chain(m, mobj, idx, &pc, s, map);
    if (r == UE_OK && ue_parse_failed(&pc)) r = pc.failure;
    mat = &s->materials[idx];
    hsd_material_base_color(m, mobj, mo->has_material ? &mo->material : NULL, map->base_tobj[mobj],
                            map->baked_texture[mobj] >= 0, mat->base_color);
    if (r == UE_OK && map->baked_texture[mobj] >= 0 &&
        ue_extras_set_number(&mat->extras, "hsd_baked_layers", map->baked_count[mobj]) != UE_OK)
        r = UE_ERR_NOMEM;
    if (r == UE_OK) *out = idx;
    return r;
}

ue_result hsd_scene_material_culled(const ue_hsd_model *m, size_t mobj, uint16_t pobj_flags,
                                    ue_mode mode, ue_scene *s, hsd_material_map *map,
                                    int32_t *material, ue_diag *d) {
    if (!m || !s || !map || !material || mobj >= m->mobj_count) return UE_ERR_USAGE;
    bool two_sided = !(pobj_flags & (UE_POBJ_CULL_FRONT | UE_POBJ_CULL_BACK));
    int32_t *slot = two_sided ? &map->scene_material_two_sided[mobj] : &map->scene_material[mobj];
    if (*slot < 0) {
        ue_result r = make_material(m, mobj, two_sided, mode, s, map, slot, d);
        if (r != UE_OK) return r;
    }
    *material = *slot;
    return UE_OK;
}

ue_result hsd_scene_material(const ue_hsd_model *m, size_t mobj, ue_mode mode, ue_scene *s,
                             hsd_material_map *map, int32_t *material, ue_diag *d) {
    return hsd_scene_material_culled(m, mobj, UE_POBJ_CULL_BACK, mode, s, map, material, d);
}
