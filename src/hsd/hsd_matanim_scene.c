/* unearth — HSD material and texture animation → scene IR: colour and alpha to base-colour channels
 * of every material made from the MObj, UV tracks and image swaps (one atlas) to the slot's transform. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsd/hsd_anim_eval.h"
#include "hsd/hsd_anim_scene.h"
#include "hsd/hsd_material.h"
#include "scene/scene_atlas.h"
#include "scene/scene_int.h" /* UE_SCENE_MAX_TEXTURE_SIDE */

#define MAX_CELLS UE_ATLAS_MAX_CELLS /* images one atlas takes: the base plus its TexAnim tables */

/* The scene materials made from MObj `mobj`: its single- and double-sided variants, found
 * through the material map (never by output order). */
static size_t variants_of(const hsd_scene_ctx *x, int32_t mobj, int32_t out[2]) {
    size_t n = 0;
    if (mobj < 0 || (size_t)mobj >= x->m->mobj_count) return 0;
    if (x->materials.scene_material[mobj] >= 0) out[n++] = x->materials.scene_material[mobj];
    if (x->materials.scene_material_two_sided[mobj] >= 0) out[n++] = x->materials.scene_material_two_sided[mobj];
    return n;
}

static int32_t target_mobj(const ue_hsd_model *m, const ue_hsd_anim_target *t) {
    if (t->dobj < 0 || (size_t)t->dobj >= m->dobj_count) return -1;
    int32_t mo = m->dobjs[t->dobj].mobj;
    return mo >= 0 && (size_t)mo < m->mobj_count ? mo : -1;
}

static void target_path(size_t clip, size_t target, char *path, size_t cap) {
    snprintf(path, cap, "dat/anim[%zu]/target[%zu]", clip, target);
}

/* ---- colour and alpha ------------------------------------------------------------------------ */

/* The runtime stores an animated colour as (u8)(255·v); the small bias keeps a rest byte b, which
 * the evaluator gives back as b/255 in float, from truncating to b − 1. */
static uint8_t colour_byte(float v) {
    double b = floor(255.0 * (double)v + 1e-3);
    return (uint8_t)(b < 0 ? 0 : b > 255 ? 255 : b);
}

static ue_result colour_target(hsd_scene_ctx *x, size_t target, int32_t anim, const hsd_frames *f) {
    const ue_hsd_model *m = x->m;
    const ue_hsd_anim_target *t = &m->anims.targets[target];
    if (!hsd_aobj_has_track(m, t->aobj, UE_HSD_MT_DIFFUSE_R, UE_HSD_MT_DIFFUSE_B) &&
        !hsd_aobj_has_track(m, t->aobj, UE_HSD_MT_ALPHA, UE_HSD_MT_ALPHA))
        return UE_OK;
    int32_t mobj = target_mobj(m, t), mats[2];
    size_t nv = variants_of(x, mobj, mats);
    if (nv == 0) return UE_OK; /* the MObj draws nothing glTF has (no primitive made it) */
    float *v = malloc((size_t)f->count * 4 * sizeof *v);
    if (!v) return UE_ERR_NOMEM;
    const ue_hsd_mobj *mo = &m->mobjs[mobj];
    int32_t base_tobj = x->materials.base_tobj[mobj];
    for (uint32_t fi = 0; fi < f->count; fi++) {
        hsd_material_state st;
        hsd_anim_material_state(m, target, f->frame[fi], &st);
        ue_hsd_material vals = mo->has_material ? mo->material : (ue_hsd_material){{0}, {255, 255, 255, 255}, {0}, 1, 0};
        for (int k = 0; k < 3; k++) vals.diffuse[k] = colour_byte(st.diffuse[k]);
        vals.alpha = st.alpha;
        hsd_material_base_color(m, (size_t)mobj, &vals, base_tobj, x->materials.baked_texture[mobj] >= 0,
                                &v[4 * (size_t)fi]);
    }
    ue_interp interp = hsd_aobj_steps(m, t->aobj, UE_HSD_MT_AMBIENT_R, UE_HSD_MT_ALPHA) ? UE_INTERP_STEP
                                                                                      : UE_INTERP_LINEAR;
    ue_result r = UE_OK;
    for (size_t k = 0; k < nv && r == UE_OK; k++) {
        ue_anim_channel *ch;
        r = hsd_anim_add_sampled(x->s, anim, UE_TARGET_BASE_COLOR, interp, f, v, &ch);
        if (r == UE_OK) ch->material = mats[k], ch->source = hsd_source_id(HSD_KIND_MATANIM, t->offset, target);
    }
    free(v);
    return r;
}

/* ---- texture swaps: one atlas --------------------------------------------------------------- */

/* The images a TexAnim can show (cell 0: the TObj's own), laid out by the scene layer's atlas
 * helper on a grid of equal cells as large as the largest image, each image at its own size in
 * its cell's top-left corner, no gutter, sides exactly the grid's (docs/hsd-animation.md). */
static const ue_atlas_style swap_style = {0, false, false, UE_SCENE_MAX_TEXTURE_SIDE};

struct hsd_atlas {
    uint32_t count;
    int32_t image[MAX_CELLS];
    int32_t mobj;          /* the MObj whose base slot the TObj is */
    ue_atlas layout;       /* set once the images are decoded */
};
typedef hsd_atlas atlas;

static int32_t cell_of(const atlas *a, int32_t image) {
    for (uint32_t k = 0; k < a->count; k++)
        if (a->image[k] == image) return (int32_t)k;
    return 0;
}

/* Adds a TexAnim's table to the TObj's cells (an image already in a cell keeps it). */
static void atlas_add_table(const ue_hsd_model *m, const ue_hsd_anim_target *t, atlas *a) {
    for (uint32_t i = 0; i < t->image_count && (size_t)t->first_image + i < m->anims.image_count; i++) {
        int32_t im = m->anims.images[t->first_image + i];
        if (im < 0 || (size_t)im >= m->image_count || a->count >= MAX_CELLS) continue;
        if (cell_of(a, im) == 0 && im != a->image[0]) a->image[a->count++] = im;
    }
}

/* The base-colour slot made from `tobj` in scene material `mat`, or -1 (the TObj is not drawn). */
static int32_t slot_of(const hsd_scene_ctx *x, int32_t mobj, size_t tobj, int32_t mat) {
    if (x->materials.base_tobj[mobj] != (int32_t)tobj) return -1;
    const ue_scene_material *sm = &x->s->materials[mat];
    for (size_t k = 0; k < sm->slot_count; k++)
        if (sm->slots[k].role == UE_TEX_BASE_COLOR) return (int32_t)k;
    return -1;
}

/* The texture to put the atlas in: the slot's own when nothing but the swapped slots uses it
 * (so no unused texture is left in the file), else a new one. */
static int32_t reusable_texture(const hsd_scene_ctx *x, int32_t mobj, size_t tobj) {
    int32_t mats[2], tex = -1;
    size_t nv = variants_of(x, mobj, mats), mine = 0, uses = 0;
    for (size_t k = 0; k < nv; k++) {
        int32_t sl = slot_of(x, mobj, tobj, mats[k]);
        if (sl >= 0) tex = x->s->materials[mats[k]].slots[sl].texture, mine++;
    }
    for (size_t i = 0; tex >= 0 && i < x->s->material_count; i++)
        for (size_t k = 0; k < x->s->materials[i].slot_count; k++) uses += x->s->materials[i].slots[k].texture == tex;
    return tex >= 0 && uses == mine ? tex : -1;
}

/* Checks the atlas's size against the scene's and the model's RGBA budget (reported). */
static bool atlas_fits(hsd_scene_ctx *x, const ue_hsd_tobj *t, ue_result laid_out, const ue_atlas *a,
                       const char *path) {
    uint64_t W = a->width, H = a->height;
    if (laid_out == UE_OK && W * H * 4u <= x->materials.rgba_budget) return true;
    ue_violation_as(&x->c, UE_ERR_LIMIT, "hsd.texture.budget", (uint64_t)t->offset + UE_DAT_HEADER, path,
                    "the texture-swap atlas (%llu × %llu) is larger than a texture may be or the file "
                    "allows; swaps left out", (unsigned long long)W, (unsigned long long)H);
    return false;
}

/* Decodes every cell's image with the TObj's palette and lays them out; -1 in *out (reported)
 * when an image cannot be decoded or the atlas is too large. */
static ue_result atlas_texture(hsd_scene_ctx *x, size_t tobj, atlas *a, const char *path, int32_t *out) {
    const ue_hsd_model *m = x->m;
    const ue_hsd_tobj *t = &m->tobjs[tobj];
    uint8_t *px[MAX_CELLS] = {0};
    ue_atlas_image img[MAX_CELLS];
    ue_result r = UE_OK;
    *out = -1;
    for (uint32_t k = 0; k < a->count && r == UE_OK; k++) {
        r = hsd_decode_image_level(m, a->image[k], t->tlut, 0, &x->c, path, &x->materials.rgba_budget, &px[k],
                                   &img[k].width, &img[k].height);
        img[k].rgba = px[k];
    }
    if (r == UE_OK) {
        ue_result laid = ue_atlas_layout(img, a->count, &swap_style, &a->layout);
        if (laid == UE_ERR_NOMEM) r = laid;
        else if (!atlas_fits(x, t, laid, &a->layout, path)) r = UE_ERR_LIMIT;
    }
    if (r == UE_OK) {
        char name[64];
        snprintf(name, sizeof name, "%.40s_atlas", t->name && t->name[0] ? t->name : "tobj");
        *out = ue_atlas_texture(x->s, &a->layout, img, name, reusable_texture(x, a->mobj, tobj));
        if (*out < 0) r = UE_ERR_NOMEM;
    }
    if (r == UE_OK) {
        ue_scene_texture *tex = &x->s->textures[*out];
        x->materials.rgba_budget -= (uint64_t)tex->width * tex->height * 4u;
        tex->wrap_s = tex->wrap_t = UE_WRAP_CLAMP; /* a cell cannot repeat inside an atlas */
        tex->nearest = t->mag_filter == 0;
        tex->source = hsd_source_id(HSD_KIND_TOBJ, t->offset, tobj);
    }
    for (uint32_t k = 0; k < a->count; k++) free(px[k]);
    return r == UE_ERR_NOMEM ? r : UE_OK;
}

/* ---- UV transform -------------------------------------------------------------------------- */

/* The glTF transform of the TObj at one state: the TObj's texture matrix through the one rule of
 * hsd_material.c (hsd_tobj_uv_affine), then the atlas cell of the image it shows. */
static bool uv_at(const ue_hsd_tobj *rest, const float tr[3], const float sc[3], const float rot[3],
                  const atlas *a, int32_t image, ue_uv_transform *out) {
    ue_hsd_tobj t = *rest;
    memcpy(t.translation, tr, sizeof t.translation);
    memcpy(t.scale, sc, sizeof t.scale);
    memcpy(t.rotation, rot, sizeof t.rotation);
    double A[4], b[2];
    hsd_tobj_uv_affine(&t, A, b, NULL);
    if (a) ue_atlas_compose(&a->layout, (size_t)cell_of(a, image), A, b);
    hsd_uv_affine_to_khr(A, b, out);
    return isfinite(out->offset[0]) && isfinite(out->offset[1]) && isfinite(out->scale[0]) &&
           isfinite(out->scale[1]) && isfinite(out->rotation);
}

typedef struct uv_job {
    size_t clip, target, tobj;
    int32_t mobj, mats[2], slots[2];
    size_t nv;
    atlas *cells;          /* NULL without a texture swap */
    bool rotates;
} uv_job;

/* Samples the transform at every frame into off (2), scl (2), rot (1) per frame. */
static void uv_samples(hsd_scene_ctx *x, const uv_job *j, const hsd_frames *f, const ue_uv_transform *rest,
                       float *off, float *scl, float *rot) {
    const ue_hsd_model *m = x->m;
    bool reported = false;
    for (uint32_t fi = 0; fi < f->count; fi++) {
        hsd_texture_state st;
        hsd_anim_texture_state(m, j->target, f->frame[fi], &st);
        ue_uv_transform u;
        if (!uv_at(&m->tobjs[j->tobj], st.translation, st.scale, st.rotation, j->cells, st.image, &u)) {
            if (!reported) {
                char path[64];
                target_path(j->clip, j->target, path, sizeof path);
                ue_violation(&x->c, "hsd.anim.nan", (uint64_t)m->anims.targets[j->target].offset + UE_DAT_HEADER,
                             path, "the animated texture matrix is not finite at frame %g; the rest one is held",
                             (double)f->frame[fi]);
                reported = true;
            }
            u = *rest;
        }
        memcpy(&off[2 * fi], u.offset, 2 * sizeof *off);
        memcpy(&scl[2 * fi], u.scale, 2 * sizeof *scl);
        rot[fi] = u.rotation;
    }
}

static ue_result uv_channels(hsd_scene_ctx *x, const uv_job *j, int32_t anim, const hsd_frames *f, ue_interp interp) {
    const ue_hsd_model *m = x->m;
    const ue_hsd_tobj *t = &m->tobjs[j->tobj];
    ue_uv_transform rest;
    if (!uv_at(t, t->translation, t->scale, t->rotation, j->cells, t->image, &rest)) return UE_OK; /* reported */
    float *v = malloc((size_t)f->count * 5 * sizeof *v);
    if (!v) return UE_ERR_NOMEM;
    uv_samples(x, j, f, &rest, v, v + 2 * (size_t)f->count, v + 4 * (size_t)f->count);
    ue_result r = UE_OK;
    for (size_t k = 0; k < j->nv && r == UE_OK; k++) {
        ue_texture_slot *slot = &x->s->materials[j->mats[k]].slots[j->slots[k]];
        slot->transform = rest; /* the same as hsd_swaps_prepare's with an atlas */
        slot->transform.enabled = true; /* the pointer needs the KHR_texture_transform object */
        ue_source_id src = hsd_source_id(HSD_KIND_TEXANIM, m->anims.targets[j->target].offset, j->target);
        for (int p = 0; p < 3 && r == UE_OK; p++) {
            if (p == 2 && !j->rotates) continue;
            static const ue_anim_target tg[3] = {UE_TARGET_UV_OFFSET, UE_TARGET_UV_SCALE, UE_TARGET_UV_ROTATION};
            ue_anim_channel *ch;
            r = hsd_anim_add_sampled(x->s, anim, tg[p], interp, f, v + (size_t)(2 * p) * f->count, &ch);
            if (r == UE_OK) ch->material = j->mats[k], ch->slot = j->slots[k], ch->source = src;
        }
    }
    free(v);
    return r;
}

static ue_result texture_target(hsd_scene_ctx *x, hsd_atlas *const *atlases, size_t clip, size_t target,
                                int32_t anim, const hsd_frames *f) {
    const ue_hsd_model *m = x->m;
    const ue_hsd_anim_target *t = &m->anims.targets[target];
    bool swaps = hsd_aobj_has_track(m, t->aobj, UE_HSD_TT_TIMG, UE_HSD_TT_TIMG) && t->tobj >= 0 &&
                 (size_t)t->tobj < m->tobj_count && atlases[t->tobj];
    bool uv = hsd_aobj_has_track(m, t->aobj, UE_HSD_TT_TRAU, UE_HSD_TT_ROTZ);
    if ((!swaps && !uv) || t->tobj < 0 || (size_t)t->tobj >= m->tobj_count) return UE_OK;
    uv_job j = {clip, target, (size_t)t->tobj, target_mobj(m, t), {-1, -1}, {-1, -1}, 0, NULL, false};
    j.rotates = hsd_aobj_has_track(m, t->aobj, UE_HSD_TT_ROTX, UE_HSD_TT_ROTZ);
    int32_t mats[2];
    size_t nv = variants_of(x, j.mobj, mats);
    if (nv == 0) return UE_OK; /* the MObj draws nothing glTF has (no primitive made it) */
    for (size_t k = 0; k < nv; k++) {
        int32_t sl = slot_of(x, j.mobj, j.tobj, mats[k]);
        if (sl >= 0) j.mats[j.nv] = mats[k], j.slots[j.nv++] = sl;
    }
    char path[64];
    target_path(clip, target, path, sizeof path);
    if (j.nv == 0) {
        ue_diag_add(x->c.d, UE_SEV_INFO, "hsd.anim.unmapped", (uint64_t)t->offset + UE_DAT_HEADER, path,
                    "texture animation of a TObj that glTF does not draw (not the base-colour slot); left out");
        return UE_OK;
    }
    j.cells = atlases[j.tobj];
    if (!uv && !j.cells) return UE_OK;
    /* A swap steps; UV tracks step only when all their keys are CON / KEY. */
    bool steps = hsd_aobj_steps(m, t->aobj, UE_HSD_TT_TRAU, UE_HSD_TT_ROTZ);
    return uv_channels(x, &j, anim, f, steps ? UE_INTERP_STEP : UE_INTERP_LINEAR);
}

static bool same_property(const ue_anim_channel *a, const ue_anim_channel *b) {
    return a->target == b->target && a->node == b->node && a->material == b->material && a->slot == b->slot;
}

/* A DObj (or MObj) shared by several joints gets one MatAnim per joint; the runtime's
 * HSD_MObjAddAnim (mobj.c) replaces the MObj's animation each time, so the last binding in
 * tree order drives it. glTF wants one channel per property: earlier ones from this clip go. */
static void keep_last_binding(hsd_scene_ctx *x, int32_t anim, size_t first, size_t clip) {
    ue_scene_animation *an = &x->s->animations[anim];
    size_t w = first, dropped = 0;
    for (size_t c = first; c < an->channel_count; c++) {
        bool later = false;
        for (size_t k = c + 1; k < an->channel_count && !later; k++) later = same_property(&an->channels[c], &an->channels[k]);
        if (later) {
            free(an->channels[c].times);
            free(an->channels[c].values);
            dropped++;
        } else {
            an->channels[w++] = an->channels[c];
        }
    }
    an->channel_count = w;
    if (dropped)
        ue_diag_add(x->c.d, UE_SEV_INFO, "hsd.anim.rebound", UE_NO_OFFSET, "dat",
                    "clip %zu animates a shared material %zu more time(s); the last binding wins, as in "
                    "the runtime", clip, dropped);
}

ue_result hsd_matanim_to_scene(hsd_scene_ctx *x, hsd_atlas *const *atlases, size_t clip, int32_t anim,
                              const hsd_frames *f) {
    const ue_hsd_model *m = x->m;
    const ue_hsd_clip *c = &m->anims.clips[clip];
    size_t first = x->s->animations[anim].channel_count;
    ue_result r = UE_OK;
    for (uint32_t i = 0; i < c->target_count && r == UE_OK && !ue_parse_failed(&x->c); i++) {
        size_t target = (size_t)c->first_target + i;
        if (target >= m->anims.target_count) break;
        const ue_hsd_anim_target *t = &m->anims.targets[target];
        if (t->kind == UE_HSD_ANIM_MATERIAL) r = colour_target(x, target, anim, f);
        else if (t->kind == UE_HSD_ANIM_TEXTURE) r = texture_target(x, atlases, clip, target, anim, f);
    }
    if (r == UE_OK) keep_last_binding(x, anim, first, clip);
    return r;
}

/* ---- the atlases, made once per TObj before any clip ---------------------------------------- */

/* Collects, per TObj drawn as a base slot, the images of every TexAnim table that swaps it. */
static ue_result collect_cells(hsd_scene_ctx *x, atlas **by_tobj) {
    const ue_hsd_model *m = x->m;
    for (size_t i = 0; i < m->anims.target_count; i++) {
        const ue_hsd_anim_target *t = &m->anims.targets[i];
        if (t->kind != UE_HSD_ANIM_TEXTURE || t->tobj < 0 || (size_t)t->tobj >= m->tobj_count ||
            !hsd_aobj_has_track(m, t->aobj, UE_HSD_TT_TIMG, UE_HSD_TT_TIMG))
            continue;
        int32_t mobj = target_mobj(m, t), mats[2];
        if (variants_of(x, mobj, mats) == 0 || slot_of(x, mobj, (size_t)t->tobj, mats[0]) < 0) continue;
        atlas *a = by_tobj[t->tobj];
        if (!a) {
            a = by_tobj[t->tobj] = calloc(1, sizeof *a);
            if (!a) return UE_ERR_NOMEM;
            a->image[a->count++] = m->tobjs[t->tobj].image;
            a->mobj = mobj;
        }
        atlas_add_table(m, t, a);
    }
    return UE_OK;
}

/* The atlas texture replaces the slot's texture in every variant, with the rest transform
 * composed with cell 0 (the TObj's own image). */
static ue_result install_atlas(hsd_scene_ctx *x, size_t tobj, atlas *a) {
    const ue_hsd_model *m = x->m;
    const ue_hsd_tobj *t = &m->tobjs[tobj];
    char path[64];
    snprintf(path, sizeof path, "dat/tobj[%zu]/atlas", tobj);
    int32_t tex, mats[2];
    ue_result r = atlas_texture(x, tobj, a, path, &tex);
    if (r != UE_OK || tex < 0) return r == UE_OK ? UE_ERR_INVALID : r;
    ue_uv_transform rest;
    if (!uv_at(t, t->translation, t->scale, t->rotation, a, t->image, &rest)) return UE_ERR_INVALID;
    rest.enabled = true;
    size_t nv = variants_of(x, a->mobj, mats);
    for (size_t k = 0; k < nv; k++) {
        int32_t sl = slot_of(x, a->mobj, tobj, mats[k]);
        if (sl < 0) continue;
        x->s->materials[mats[k]].slots[sl].texture = tex;
        x->s->materials[mats[k]].slots[sl].transform = rest;
    }
    return UE_OK;
}

ue_result hsd_swaps_prepare(hsd_scene_ctx *x, hsd_atlas ***out) {
    size_t n = x->m->tobj_count ? x->m->tobj_count : 1;
    atlas **by_tobj = calloc(n, sizeof *by_tobj);
    *out = by_tobj;
    if (!by_tobj) return UE_ERR_NOMEM;
    ue_result r = collect_cells(x, by_tobj);
    for (size_t i = 0; i < x->m->tobj_count && r == UE_OK; i++) {
        if (!by_tobj[i]) continue;
        r = by_tobj[i]->count >= 2 ? install_atlas(x, i, by_tobj[i]) : UE_ERR_INVALID;
        if (r == UE_ERR_INVALID) { /* nothing swaps, or the atlas was left out (reported) */
            ue_atlas_free(&by_tobj[i]->layout);
            free(by_tobj[i]);
            by_tobj[i] = NULL;
            r = UE_OK;
        }
    }
    return r;
}

void hsd_swaps_free(hsd_atlas **atlases, size_t tobj_count) {
    for (size_t i = 0; atlases && i < tobj_count; i++) {
        if (atlases[i]) ue_atlas_free(&atlases[i]->layout);
        free(atlases[i]);
    }
    free(atlases);
}
