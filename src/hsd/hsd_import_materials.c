/* unearth — edit-mode import of HSD materials (docs/hsd-import.md#materials): a glTF material's
 * base colour factor and alpha mode written back into its MObj, the inverse of how convert reads them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "hsd/hsd_import_int.h"
#include "hsd/hsd_int.h"
#include "hsd/hsd_material.h"
#include "hsd/hsd_to_scene.h"

#define FACTOR_TOLERANCE 1e-5 /* float noise of a client's re-export */
#define CUTOFF_TOLERANCE (0.25 / 255.0)

/* GX alpha compare functions and the PEDesc bytes of the alpha test (docs/formats/hsd-materials.md). */
enum { GX_GEQUAL = 6, GX_ALWAYS = 7, GX_AOP_AND = 0 };
enum { PE_REF0 = 1, PE_ALPHA_COMP0 = 9, PE_ALPHA_OP = 10, PE_ALPHA_COMP1 = 11 };

typedef struct material_ctx {
    const hsd_image_edit_in *in;
    uint8_t *touched;       /* per MObj: some byte of it changed */
    size_t errors;
} material_ctx;

#define material_error(x, code, offset, material, ...) \
    ((x)->errors++, hsd_import_error((x)->in->d, code, offset, "materials", material, __VA_ARGS__))

/* `n` bytes at file offset `at` for MObj `mobj`; two glTF materials disagreeing about them conflict. */
static void put(material_ctx *x, size_t mobj, int32_t material, uint64_t at, const uint8_t *val, size_t n) {
    uint8_t *dst = x->in->bytes + at, *mark = x->in->written + at;
    if (at + n > x->in->size || !memcmp(dst, val, n)) return;
    for (size_t i = 0; i < n; i++)
        if (mark[i] && dst[i] != val[i]) {
            material_error(x, "import.hsd.conflict", at, material,
                           "another glTF material gave MObj %zu a different value here; the glTF materials of "
                           "one MObj must be edited alike", mobj);
            return;
        }
    memcpy(dst, val, n);
    memset(mark, 1, n);
    x->touched[mobj] = 1;
}

/* The data offset a pointer field of the MObj holds (the reader followed and checked it). */
static uint64_t pointee(const material_ctx *x, const ue_hsd_mobj *mo, uint32_t field) {
    return hsd_file_at(ue_load_u32be(x->in->bytes + hsd_file_at(mo->offset + field)));
}

/* ---- base colour ----------------------------------------------------------------------------- */

static uint8_t linear_to_srgb_byte(double c) {
    double v = c <= 0.0031308 ? c * 12.92 : 1.055 * pow(c, 1.0 / 2.4) - 0.055;
    v = round(v * 255.0);
    return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

/* The base TObj and whether its texture was baked, as convert decided them for `ref`. */
static int32_t base_tobj_of(const material_ctx *x, const ue_scene_material *ref, bool *baked) {
    int32_t tex = ue_scene_material_texture(ref, UE_TEX_BASE_COLOR);
    *baked = false;
    if (tex < 0 || (size_t)tex >= x->in->ref->texture_count) return -1;
    const ue_scene_texture *t = &x->in->ref->textures[tex];
    if (t->source.type != HSD_KIND_TOBJ || t->source.index >= x->in->m->tobj_count) return -1;
    *baked = hsd_texture_is_baked(x->in->m, t);
    return (int32_t)t->source.index;
}

static const char *const CHANNEL[4] = {"red", "green", "blue", "alpha"};

static void edit_base_color(material_ctx *x, int32_t gi, const ue_scene_material *g, const ue_scene_material *r,
                            size_t mobj) {
    const ue_hsd_mobj *mo = &x->in->m->mobjs[mobj];
    bool edited[4], any = false;
    for (int c = 0; c < 4; c++) any |= edited[c] = fabs((double)g->base_color[c] - r->base_color[c]) > FACTOR_TOLERANCE;
    if (!any) return;
    uint64_t desc = hsd_file_at(mo->offset);
    if (!mo->has_material) {
        material_error(x, "import.hsd.material", desc, gi,
                       "baseColorFactor changed, but MObj %zu has no Material struct to hold it (adding one is "
                       "not written yet)", mobj);
        return;
    }
    bool baked;
    int32_t base = base_tobj_of(x, r, &baked);
    ue_hsd_material v = mo->material;
    for (int c = 0; c < 4; c++) {
        if (!edited[c]) continue;
        /* Does the material drive this channel of the factor? Probe with a different value. */
        ue_hsd_material probe = v;
        float a[4], b[4];
        if (c < 3) probe.diffuse[c] ^= 0x80;
        else probe.alpha = v.alpha > 0.5f ? 0.0f : 1.0f;
        hsd_material_base_color(x->in->m, mobj, &v, base, baked, a);
        hsd_material_base_color(x->in->m, mobj, &probe, base, baked, b);
        if (a[c] == b[c]) {
            material_error(x, "import.hsd.material", desc, gi,
                           "baseColorFactor %s changed to %g, but MObj %zu takes it from elsewhere (the render mode's "
                           "vertex colour source, a texture that replaces it, or a bake): edit that instead",
                           CHANNEL[c], g->base_color[c], mobj);
            continue;
        }
        if (c < 3) v.diffuse[c] = linear_to_srgb_byte(g->base_color[c]);
        else v.alpha = g->base_color[3];
    }
    uint64_t at = pointee(x, mo, 0x0C);
    put(x, mobj, gi, at + 4, v.diffuse, 3);
    uint8_t alpha[4];
    uint32_t bits;
    memcpy(&bits, &v.alpha, 4);
    ue_store_u32be(alpha, bits);
    put(x, mobj, gi, at + 0x0C, alpha, 4);
}

/* ---- alpha mode ------------------------------------------------------------------------------ */

static void put_render_mode(material_ctx *x, size_t mobj, int32_t gi, uint32_t mode) {
    uint8_t b[4];
    ue_store_u32be(b, mode);
    put(x, mobj, gi, hsd_file_at(x->in->m->mobjs[mobj].offset + 4), b, 4);
}

/* The PE alpha test set to pass the alphas ≥ k (k = 0: every alpha). */
static void put_alpha_test(material_ctx *x, size_t mobj, int32_t gi, unsigned k) {
    const ue_hsd_mobj *mo = &x->in->m->mobjs[mobj];
    uint64_t pe = pointee(x, mo, 0x14);
    uint8_t ref0 = (uint8_t)k, comp0 = k ? GX_GEQUAL : GX_ALWAYS, op = GX_AOP_AND, comp1 = GX_ALWAYS;
    put(x, mobj, gi, pe + PE_REF0, &ref0, 1);
    put(x, mobj, gi, pe + PE_ALPHA_COMP0, &comp0, 1);
    put(x, mobj, gi, pe + PE_ALPHA_OP, &op, 1);
    put(x, mobj, gi, pe + PE_ALPHA_COMP1, &comp1, 1);
}

static void edit_alpha_mode(material_ctx *x, int32_t gi, const ue_scene_material *g, const ue_scene_material *r,
                            size_t mobj) {
    const ue_hsd_mobj *mo = &x->in->m->mobjs[mobj];
    bool same_cutoff = g->alpha_mode != UE_ALPHA_MASK || fabs((double)g->alpha_cutoff - r->alpha_cutoff) <= CUTOFF_TOLERANCE;
    if (g->alpha_mode == r->alpha_mode && same_cutoff) return;
    uint32_t mode = g->alpha_mode == UE_ALPHA_BLEND ? mo->render_mode | HSD_RENDER_XLU : mo->render_mode & ~HSD_RENDER_XLU;
    if (g->alpha_mode == UE_ALPHA_BLEND) {
        put_render_mode(x, mobj, gi, mode); /* an alpha test beside it stays */
        return;
    }
    double k = ceil((double)g->alpha_cutoff * 255.0 - 255.0 * CUTOFF_TOLERANCE);
    /* OPAQUE: an alpha test that lets some alpha fail must go, else convert reads MASK back. */
    bool test_needed = g->alpha_mode == UE_ALPHA_MASK || (mo->has_pe && hsd_alpha_threshold(&mo->pe) > 0);
    if (test_needed && !mo->has_pe) {
        material_error(x, "import.hsd.material", hsd_file_at(mo->offset), gi,
                       "alphaMode %s needs an alpha test, and MObj %zu has no PE block to hold one (adding one is "
                       "not written yet)", g->alpha_mode == UE_ALPHA_MASK ? "MASK" : "OPAQUE", mobj);
        return;
    }
    if (g->alpha_mode == UE_ALPHA_MASK && !(k >= 0 && k <= 255)) {
        material_error(x, "import.hsd.material", hsd_file_at(mo->offset), gi,
                       "alphaCutoff %g: the PE alpha test compares 8-bit alphas against 0 … 255 (cutoff 0 … 1)",
                       g->alpha_cutoff);
        return;
    }
    put_render_mode(x, mobj, gi, mode);
    if (test_needed) put_alpha_test(x, mobj, gi, g->alpha_mode == UE_ALPHA_MASK ? (unsigned)k : 0);
}

ue_result hsd_edit_materials(const hsd_image_edit_in *in, size_t *changed, size_t *errors) {
    material_ctx x = {in, calloc(in->m->mobj_count + 1, 1), 0};
    if (!x.touched) return UE_ERR_NOMEM;
    for (size_t p = 0; p < in->material_pair_count; p++) {
        int32_t gi = in->material_pairs[2 * p];
        const ue_scene_material *g = &in->s->materials[gi], *r = &in->ref->materials[in->material_pairs[2 * p + 1]];
        if (r->source.type != HSD_KIND_MOBJ || r->source.index >= in->m->mobj_count) continue;
        edit_base_color(&x, gi, g, r, r->source.index);
        edit_alpha_mode(&x, gi, g, r, r->source.index);
    }
    *changed = 0;
    for (size_t i = 0; i < in->m->mobj_count; i++) *changed += x.touched[i];
    *errors = x.errors;
    free(x.touched);
    return UE_OK;
}
