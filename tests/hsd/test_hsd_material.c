/* unearth tests — HSD materials to the scene IR from in-memory model tables: colours, render
 * modes, PE alpha tests, samplers, palette textures, damaged images and the UV matrix by sampling. */
#include <math.h>

#include "hsd/hsd_material.h"
#include "hsd/hsd_scene.h"
#include "test.h"
#include "unearth/gx.h"

#define EPS 1e-5
#define TOBJ_FLAGS_MODULATE_DIFFUSE ((4u << 16) | 0x10u) /* colour op MODULATE, diffuse light map */

static int near(double a, double b, double eps) { return fabs(a - b) <= eps; }
#define CHECK_NEAR(a, b, eps)                                                                  \
    do {                                                                                       \
        double x_ = (double)(a), y_ = (double)(b);                                             \
        if (!near(x_, y_, (eps))) {                                                            \
            fprintf(stderr, "%s:%d: %s ≈ %s failed: %.9g != %.9g\n", __FILE__, __LINE__, #a,   \
                    #b, x_, y_);                                                               \
            ue_test_failed_checks++;                                                           \
        }                                                                                      \
    } while (0)

/* ---- a small model: up to 4 mobjs, 4 tobjs, 2 images, 2 palettes ---------------------------- */

typedef struct fixture {
    ue_hsd_model m;
    ue_hsd_mobj mobjs[4];
    ue_hsd_tobj tobjs[4];
    ue_hsd_image images[2];
    ue_hsd_tlut tluts[2];
    uint8_t c4[32];         /* 8×8 C4: texel (x, y) has index (x + y) & 3 */
    uint8_t pal0[8], pal1[8];
} fixture;

static ue_hsd_tobj plain_tobj(int32_t image, int32_t tlut) {
    ue_hsd_tobj t;
    memset(&t, 0, sizeof t);
    t.next = -1, t.src = 4, t.image = image, t.tlut = tlut;
    t.scale[0] = t.scale[1] = t.scale[2] = 1.0f;
    t.repeat_s = t.repeat_t = 1, t.wrap_s = t.wrap_t = 1, t.mag_filter = 1;
    t.flags = TOBJ_FLAGS_MODULATE_DIFFUSE;
    return t;
}

static void fixture_init(fixture *f) {
    memset(f, 0, sizeof *f);
    /* C4 tiles: one 8×8 block, high nibble = left texel. */
    for (unsigned y = 0; y < 8; y++)
        for (unsigned x = 0; x < 8; x += 2)
            f->c4[y * 4 + x / 2] = (uint8_t)((((x + y) & 3u) << 4) | ((x + 1 + y) & 3u));
    /* RGB565 palettes: 0 red, 1 green, 2 blue, 3 white / 0 black, 1 … reversed */
    static const uint8_t p0[8] = {0xF8, 0x00, 0x07, 0xE0, 0x00, 0x1F, 0xFF, 0xFF};
    static const uint8_t p1[8] = {0xFF, 0xFF, 0x00, 0x1F, 0x07, 0xE0, 0xF8, 0x00};
    memcpy(f->pal0, p0, 8), memcpy(f->pal1, p1, 8);
    f->images[0] = (ue_hsd_image){0x100, 0x200, f->c4, sizeof f->c4, 8, 8, UE_GX_C4, false, 0, 0, 1};
    f->images[1] = f->images[0];
    f->images[1].offset = 0x120, f->images[1].size = 31; /* one byte short */
    f->tluts[0] = (ue_hsd_tlut){0x140, 0x300, f->pal0, UE_GX_TLUT_RGB565, 0, 4};
    f->tluts[1] = (ue_hsd_tlut){0x150, 0x310, f->pal1, UE_GX_TLUT_RGB565, 0, 4};
    for (int i = 0; i < 4; i++) {
        f->tobjs[i] = plain_tobj(0, 0);
        f->tobjs[i].offset = 0x400u + 0x60u * (unsigned)i;
        f->mobjs[i].offset = 0x40u + 0x18u * (unsigned)i;
        f->mobjs[i].first_tobj = -1;
        f->mobjs[i].render_mode = HSD_RENDER_LIGHTING | 1u;
    }
    f->m.mobjs = f->mobjs, f->m.mobj_count = 4;
    f->m.tobjs = f->tobjs, f->m.tobj_count = 4;
    f->m.images = f->images, f->m.image_count = 2;
    f->m.tluts = f->tluts, f->m.tlut_count = 2;
}

/* Converts mobj `i` into a fresh scene `s` (the caller frees s and map). */
static ue_result convert(fixture *f, size_t i, ue_mode mode, ue_scene *s, hsd_material_map *map,
                         int32_t *mat, ue_diag *d) {
    ue_scene_init(s);
    if (hsd_material_map_init(map, &f->m) != UE_OK) return UE_ERR_NOMEM;
    return hsd_scene_material(&f->m, i, mode, s, map, mat, d);
}

static bool has_sev(const ue_diag *d, const char *code, ue_severity sev) {
    for (size_t i = 0; i < d->count; i++)
        if (!strcmp(d->items[i].code, code) && d->items[i].severity == sev) return true;
    return false;
}

/* ---- colours and render modes ---------------------------------------------------------------- */

static void base_colour_is_linear_diffuse_times_alpha(void) {
    fixture f;
    fixture_init(&f);
    ue_hsd_mobj *mo = &f.mobjs[0];
    mo->has_material = true;
    mo->material = (ue_hsd_material){{0, 0, 0, 255}, {255, 128, 0, 7}, {0}, 0.5f, 1.0f};
    ue_scene s;
    hsd_material_map map;
    ue_diag d = {0};
    int32_t mat = -1;
    REQUIRE(convert(&f, 0, UE_MODE_STRICT, &s, &map, &mat, &d) == UE_OK);
    REQUIRE(mat == 0 && s.material_count == 1);
    const ue_scene_material *m = &s.materials[0];
    /* sRGB → linear: 1, ((128/255 + 0.055) / 1.055)^2.4 = 0.2158605, 0; alpha from the float. */
    CHECK_NEAR(m->base_color[0], 1.0, EPS);
    CHECK_NEAR(m->base_color[1], 0.2158605, EPS);
    CHECK_NEAR(m->base_color[2], 0.0, EPS);
    CHECK_NEAR(m->base_color[3], 0.5, EPS);
    CHECK(!m->unlit && !m->double_sided && m->alpha_mode == UE_ALPHA_OPAQUE);
    CHECK(m->slot_count == 0 && s.texture_count == 0);
    CHECK_STR(m->source.format, "hsd");
    CHECK_EQ_U(m->source.offset, 0x40); /* ("hsd", MObj kind, data offset, index) */
    CHECK_EQ_U(m->source.type, 4);
    CHECK_EQ_U(m->source.index, 0);
    /* asked again: the same material, nothing new */
    int32_t again = -1;
    CHECK(hsd_scene_material(&f.m, 0, UE_MODE_STRICT, &s, &map, &again, &d) == UE_OK);
    CHECK(again == 0 && s.material_count == 1);
    /* a PObj culling nothing gets the double-sided variant */
    CHECK(hsd_scene_material_culled(&f.m, 0, 0, UE_MODE_STRICT, &s, &map, &again, &d) == UE_OK);
    CHECK(again == 1 && s.materials[1].double_sided);
    CHECK(hsd_scene_material_culled(&f.m, 0, UE_POBJ_CULL_FRONT, UE_MODE_STRICT, &s, &map, &again,
                                    &d) == UE_OK);
    CHECK(again == 0);
    CHECK(ue_scene_validate(&s, &d) == UE_OK);
    hsd_material_map_free(&map);
    ue_scene_free(&s);
    ue_diag_free(&d);
}

static void vertex_colour_sources(void) {
    fixture f;
    fixture_init(&f);
    ue_hsd_mobj *mo = &f.mobjs[0];
    mo->has_material = true;
    mo->material = (ue_hsd_material){{0}, {0, 0, 255, 255}, {0}, 0.25f, 1.0f};
    mo->render_mode = 2u; /* VTX, alpha COMPAT (= VTX), no lighting */
    ue_scene s;
    hsd_material_map map;
    int32_t mat;
    REQUIRE(convert(&f, 0, UE_MODE_STRICT, &s, &map, &mat, NULL) == UE_OK);
    const float white[4] = {1, 1, 1, 1};
    CHECK_MEM(s.materials[mat].base_color, white, sizeof white);
    CHECK(s.materials[mat].unlit);
    CHECK(hsd_material_uses_vertex_color(mo->render_mode));
    hsd_material_map_free(&map);
    ue_scene_free(&s);
    /* VTX colour, MAT alpha: white RGB, the material's alpha */
    mo->render_mode = 2u | (1u << HSD_RENDER_ALPHA_SHIFT);
    REQUIRE(convert(&f, 0, UE_MODE_STRICT, &s, &map, &mat, NULL) == UE_OK);
    CHECK_NEAR(s.materials[mat].base_color[0], 1.0, EPS);
    CHECK_NEAR(s.materials[mat].base_color[3], 0.25, EPS);
    hsd_material_map_free(&map);
    ue_scene_free(&s);
    /* BOTH: the material colour (glTF multiplies it with COLOR_0, as the GX channel does) */
    mo->render_mode = 3u;
    REQUIRE(convert(&f, 0, UE_MODE_STRICT, &s, &map, &mat, NULL) == UE_OK);
    CHECK_NEAR(s.materials[mat].base_color[0], 0.0, EPS);
    CHECK_NEAR(s.materials[mat].base_color[2], 1.0, EPS);
    CHECK_NEAR(s.materials[mat].base_color[3], 0.25, EPS);
    CHECK(hsd_material_uses_vertex_color(3u) && !hsd_material_uses_vertex_color(1u) &&
          !hsd_material_uses_vertex_color(0u));
    hsd_material_map_free(&map);
    ue_scene_free(&s);
}

/* ---- alpha modes --------------------------------------------------------------------------- */

static ue_alpha_mode alpha_of(fixture *f, float *cutoff, ue_diag *d) {
    ue_scene s;
    hsd_material_map map;
    int32_t mat;
    ue_alpha_mode mode = (ue_alpha_mode)99;
    if (convert(f, 0, UE_MODE_STRICT, &s, &map, &mat, d) == UE_OK) {
        mode = s.materials[mat].alpha_mode;
        *cutoff = s.materials[mat].alpha_cutoff;
    }
    hsd_material_map_free(&map);
    ue_scene_free(&s);
    return mode;
}

static void alpha_modes_from_render_mode_and_pe(void) {
    fixture f;
    fixture_init(&f);
    ue_hsd_mobj *mo = &f.mobjs[0];
    float cut = 0;
    ue_diag d = {0};
    CHECK(alpha_of(&f, &cut, &d) == UE_ALPHA_OPAQUE); /* no PE, no XLU */
    mo->has_pe = true;
    /* GEQUAL 128 AND ALWAYS: alphas 128..255 pass → MASK, cutoff 128/255 */
    mo->pe = (ue_hsd_pe){0, 128, 0, 0, 0, 0, 0, 0, 3, 6, 0, 7};
    CHECK(alpha_of(&f, &cut, &d) == UE_ALPHA_MASK);
    CHECK_NEAR(cut, 128.0 / 255.0, 1e-7);
    /* GREATER 127 is the same test */
    mo->pe.alpha_comp0 = 4, mo->pe.ref0 = 127;
    CHECK(alpha_of(&f, &cut, &d) == UE_ALPHA_MASK);
    CHECK_NEAR(cut, 128.0 / 255.0, 1e-7);
    /* GREATER 0 OR NEVER: anything not fully transparent */
    mo->pe = (ue_hsd_pe){0, 0, 0, 0, 0, 0, 0, 0, 3, 4, 1, 0};
    CHECK(alpha_of(&f, &cut, &d) == UE_ALPHA_MASK);
    CHECK_NEAR(cut, 1.0 / 255.0, 1e-7);
    /* ALWAYS AND ALWAYS: no test at all */
    mo->pe = (ue_hsd_pe){0, 0, 0, 0, 0, 0, 0, 0, 3, 7, 0, 7};
    CHECK(alpha_of(&f, &cut, &d) == UE_ALPHA_OPAQUE);
    CHECK(d.count == 0);
    /* LESS 64: no glTF cutoff keeps the low alphas → opaque, noted */
    mo->pe = (ue_hsd_pe){0, 64, 0, 0, 0, 0, 0, 0, 3, 1, 0, 7};
    CHECK(alpha_of(&f, &cut, &d) == UE_ALPHA_OPAQUE);
    CHECK(has_sev(&d, "hsd.material.alpha_test", UE_SEV_INFO));
    /* XLU wins over an alpha test */
    mo->pe = (ue_hsd_pe){0, 128, 0, 0, 0, 0, 0, 0, 3, 6, 0, 7};
    mo->render_mode |= HSD_RENDER_XLU;
    CHECK(alpha_of(&f, &cut, &d) == UE_ALPHA_BLEND);
    ue_diag_free(&d);
}

/* ---- textures -------------------------------------------------------------------------------- */

static void expect_texel(const ue_scene_texture *t, unsigned x, unsigned y, uint8_t r, uint8_t g,
                         uint8_t b, uint8_t a) {
    const uint8_t *p = t->rgba + ((size_t)y * t->width + x) * 4;
    const uint8_t want[4] = {r, g, b, a};
    CHECK_MEM(p, want, 4);
}

static void palette_texture_slot_and_sampler(void) {
    fixture f;
    fixture_init(&f);
    ue_hsd_mobj *mo = &f.mobjs[0];
    mo->first_tobj = 0;
    mo->render_mode |= HSD_RENDER_TEX0;
    f.tobjs[0].wrap_s = 0, f.tobjs[0].wrap_t = 2, f.tobjs[0].mag_filter = 0; /* CLAMP, MIRROR, NEAR */
    ue_scene s;
    hsd_material_map map;
    int32_t mat;
    ue_diag d = {0};
    REQUIRE(convert(&f, 0, UE_MODE_STRICT, &s, &map, &mat, &d) == UE_OK);
    REQUIRE(s.texture_count == 1 && s.materials[mat].slot_count == 1);
    const ue_texture_slot *sl = &s.materials[mat].slots[0];
    CHECK(sl->role == UE_TEX_BASE_COLOR && sl->texture == 0 && sl->uv_set == 0);
    const ue_scene_texture *t = &s.textures[0];
    CHECK(t->width == 8 && t->height == 8);
    CHECK(t->wrap_s == UE_WRAP_CLAMP && t->wrap_t == UE_WRAP_MIRROR && t->nearest);
    CHECK_EQ_U(t->source.offset, 0x400); /* the TObj that made it: kind 5 */
    CHECK_EQ_U(t->source.type, 5);
    /* index (x + y) & 3 through palette 0: red, green, blue, white */
    expect_texel(t, 0, 0, 255, 0, 0, 255);
    expect_texel(t, 1, 0, 0, 255, 0, 255);
    expect_texel(t, 1, 1, 0, 0, 255, 255);
    expect_texel(t, 3, 0, 255, 255, 255, 255);
    expect_texel(t, 7, 6, 0, 255, 0, 255); /* 13 & 3 = 1: green */
    hsd_material_map_free(&map);
    ue_scene_free(&s);
    ue_diag_free(&d);
}

static void textures_shared_by_image_palette_and_sampler(void) {
    fixture f;
    fixture_init(&f);
    for (int i = 0; i < 4; i++) {
        f.mobjs[i].first_tobj = i;
        f.mobjs[i].render_mode |= HSD_RENDER_TEX0;
    }
    f.tobjs[2].tlut = 1;      /* same image, other palette: a texture of its own */
    f.tobjs[3].wrap_s = 0;    /* same image and palette, other sampler: its own too */
    ue_scene s;
    hsd_material_map map;
    int32_t mat[4];
    REQUIRE(convert(&f, 0, UE_MODE_STRICT, &s, &map, &mat[0], NULL) == UE_OK);
    for (size_t i = 1; i < 4; i++)
        REQUIRE(hsd_scene_material(&f.m, i, UE_MODE_STRICT, &s, &map, &mat[i], NULL) == UE_OK);
    CHECK_EQ_U(s.texture_count, 3);
    CHECK(s.materials[mat[0]].slots[0].texture == s.materials[mat[1]].slots[0].texture);
    CHECK(map.scene_texture[0] == 0 && map.scene_texture[1] == 0);
    CHECK(map.scene_texture[2] == 1 && map.scene_texture[3] == 2);
    expect_texel(&s.textures[1], 0, 0, 255, 255, 255, 255); /* palette 1 entry 0: white */
    expect_texel(&s.textures[1], 3, 0, 255, 0, 0, 255);     /* entry 3: red */
    hsd_material_map_free(&map);
    ue_scene_free(&s);
}

static void chain_gating_and_uv_set(void) {
    fixture f;
    fixture_init(&f);
    ue_hsd_mobj *mo = &f.mobjs[0];
    mo->first_tobj = 0;
    f.tobjs[0].next = 1;
    f.tobjs[1].next = 2;
    f.tobjs[1].flags = (4u << 16) | 0x20u; /* specular light map: not a base colour */
    f.tobjs[2].src = 5;                    /* UV set 1 */
    f.tobjs[2].flags |= 5u << 16;          /* REPLACE */
    f.tobjs[2].tlut = 1;
    mo->render_mode |= (HSD_RENDER_TEX0 << 1) | (HSD_RENDER_TEX0 << 2); /* TEX0 off */
    mo->has_material = true;
    mo->material = (ue_hsd_material){{0}, {10, 20, 30, 255}, {0}, 1.0f, 1.0f};
    ue_scene s;
    hsd_material_map map;
    int32_t mat;
    ue_diag d = {0};
    REQUIRE(convert(&f, 0, UE_MODE_STRICT, &s, &map, &mat, &d) == UE_OK);
    /* the REPLACE TObj on UV set 1 is the base (slot 0); the specular one, though earlier in
     * the chain, is kept as a specular slot on its own UV set; the disabled TObj 0 is not drawn */
    REQUIRE(s.materials[mat].slot_count == 2);
    CHECK(s.materials[mat].slots[0].role == UE_TEX_BASE_COLOR && s.materials[mat].slots[0].uv_set == 1);
    CHECK(s.materials[mat].slots[1].role == UE_TEX_SPECULAR && s.materials[mat].slots[1].uv_set == 0);
    CHECK(!s.materials[mat].slots[1].generated);
    CHECK(map.scene_texture[0] == -1 && map.scene_texture[1] == 1 && map.scene_texture[2] == 0);
    CHECK(has_sev(&d, "hsd.tobj.layer", UE_SEV_INFO));
    CHECK_NEAR(s.materials[mat].base_color[0], 1.0, EPS); /* REPLACE: the texel alone */
    hsd_material_map_free(&map);
    ue_scene_free(&s);
    ue_diag_free(&d);
}

static void short_image_strict_error_tolerant_warning(void) {
    fixture f;
    fixture_init(&f);
    f.mobjs[0].first_tobj = 0;
    f.mobjs[0].render_mode |= HSD_RENDER_TEX0;
    f.tobjs[0].image = 1; /* 31 of 32 bytes */
    ue_scene s;
    hsd_material_map map;
    int32_t mat = -1;
    ue_diag d = {0};
    CHECK(convert(&f, 0, UE_MODE_STRICT, &s, &map, &mat, &d) == UE_ERR_INVALID);
    CHECK(has_sev(&d, "hsd.texture.decode", UE_SEV_ERROR));
    CHECK(d.count > 0 && d.items[d.count - 1].offset == 0x200 + UE_DAT_HEADER);
    CHECK_STR(d.items[d.count - 1].path, "dat/mobj[0]/tobj[0]");
    hsd_material_map_free(&map);
    ue_scene_free(&s);
    ue_diag_free(&d);
    CHECK(convert(&f, 0, UE_MODE_TOLERANT, &s, &map, &mat, &d) == UE_OK);
    CHECK(has_sev(&d, "hsd.texture.decode", UE_SEV_WARNING));
    CHECK(!has_sev(&d, "hsd.texture.decode", UE_SEV_ERROR));
    CHECK(mat == 0 && s.materials[0].slot_count == 0 && s.texture_count == 0);
    hsd_material_map_free(&map);
    ue_scene_free(&s);
    ue_diag_free(&d);
    /* a palette format without its palette, and a zero tiling count */
    f.tobjs[0].image = 0, f.tobjs[0].tlut = -1;
    CHECK(convert(&f, 0, UE_MODE_STRICT, &s, &map, &mat, &d) == UE_ERR_INVALID);
    hsd_material_map_free(&map);
    ue_scene_free(&s);
    ue_diag_free(&d);
    f.tobjs[0].tlut = 0, f.tobjs[0].repeat_t = 0;
    CHECK(convert(&f, 0, UE_MODE_STRICT, &s, &map, &mat, &d) == UE_ERR_INVALID);
    CHECK(has_sev(&d, "hsd.tobj.repeat", UE_SEV_ERROR));
    hsd_material_map_free(&map);
    ue_scene_free(&s);
    ue_diag_free(&d);
    /* a matrix past float range (repeat / scale 1e-3 times translation 1e38 → inf), then a NaN
     * scale: strict error, tolerant warning with the texture kept and no transform, and a
     * scene that still validates */
    f.tobjs[0].repeat_t = 1, f.tobjs[0].scale[0] = 1e-3f, f.tobjs[0].translation[0] = 1e38f;
    CHECK(convert(&f, 0, UE_MODE_STRICT, &s, &map, &mat, &d) == UE_ERR_INVALID);
    CHECK(has_sev(&d, "hsd.tobj.matrix", UE_SEV_ERROR));
    hsd_material_map_free(&map);
    ue_scene_free(&s);
    ue_diag_free(&d);
    CHECK(convert(&f, 0, UE_MODE_TOLERANT, &s, &map, &mat, &d) == UE_OK);
    CHECK(has_sev(&d, "hsd.tobj.matrix", UE_SEV_WARNING));
    CHECK(s.materials[mat].slot_count == 1 && !s.materials[mat].slots[0].transform.enabled);
    CHECK(ue_scene_validate(&s, &d) == UE_OK);
    hsd_material_map_free(&map);
    ue_scene_free(&s);
    ue_diag_free(&d);
    f.tobjs[0].scale[0] = NAN, f.tobjs[0].translation[0] = 0;
    CHECK(convert(&f, 0, UE_MODE_STRICT, &s, &map, &mat, &d) == UE_ERR_INVALID);
    CHECK(has_sev(&d, "hsd.tobj.matrix", UE_SEV_ERROR));
    hsd_material_map_free(&map);
    ue_scene_free(&s);
    ue_diag_free(&d);
}

/* ---- the texture matrix, by sampling ---------------------------------------------------------- */

/* docs/formats/hsd-materials.md#texture-matrix written out as 4×4 matrices (row-major, column vectors): Scale · Rz·Ry·Rx · Translate. */
static void mul4(const double a[16], const double b[16], double out[16]) {
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            double v = 0;
            for (int k = 0; k < 4; k++) v += a[i * 4 + k] * b[k * 4 + j];
            out[i * 4 + j] = v;
        }
}

static void hsd_sample(const ue_hsd_tobj *t, double u, double v, double out[2]) {
    double sx = fabs(t->scale[0]) < 1.1920929e-7 ? 0 : t->repeat_s / (double)t->scale[0];
    double sy = fabs(t->scale[1]) < 1.1920929e-7 ? 0 : t->repeat_t / (double)t->scale[1];
    double ty = -(t->translation[1] + (t->wrap_t == 2 ? t->scale[1] / (double)t->repeat_t : 0));
    double S[16] = {sx, 0, 0, 0, 0, sy, 0, 0, 0, 0, t->scale[2], 0, 0, 0, 0, 1};
    double T[16] = {1, 0, 0, -t->translation[0], 0, 1, 0, ty, 0, 0, 1, t->translation[2], 0, 0, 0, 1};
    double x = t->rotation[0], y = t->rotation[1], z = -t->rotation[2];
    double Rx[16] = {1, 0, 0, 0, 0, cos(x), -sin(x), 0, 0, sin(x), cos(x), 0, 0, 0, 0, 1};
    double Ry[16] = {cos(y), 0, sin(y), 0, 0, 1, 0, 0, -sin(y), 0, cos(y), 0, 0, 0, 0, 1};
    double Rz[16] = {cos(z), -sin(z), 0, 0, sin(z), cos(z), 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    double a[16], b[16], M[16];
    mul4(Rz, Ry, a), mul4(a, Rx, b), mul4(S, b, a), mul4(a, T, M);
    out[0] = M[0] * u + M[1] * v + M[3];
    out[1] = M[4] * u + M[5] * v + M[7];
}

/* KHR_texture_transform as its specification writes it: GLSL column-major mat3s,
 * translation · rotation · scale with rotation = mat3(cos, −sin, 0, sin, cos, 0, 0, 0, 1). */
static void khr_sample(const ue_uv_transform *k, double u, double v, double out[2]) {
    double c = cos(k->rotation), s = sin(k->rotation);
    double su = k->scale[0] * u, sv = k->scale[1] * v;
    /* column 0 = (c, −s), column 1 = (s, c) */
    out[0] = c * su + s * sv + k->offset[0];
    out[1] = -s * su + c * sv + k->offset[1];
}

static void compare_by_sampling(const ue_hsd_tobj *t) {
    ue_uv_transform k;
    CHECK(hsd_tobj_uv_transform(t, &k));
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++) {
            double u = -0.5 + 0.45 * i, v = 1.25 - 0.4 * j, h[2], g[2];
            hsd_sample(t, u, v, h);
            if (k.enabled) khr_sample(&k, u, v, g);
            else g[0] = u, g[1] = v;
            CHECK_NEAR(g[0], h[0], 1e-5);
            CHECK_NEAR(g[1], h[1], 1e-5);
        }
}

static void texture_matrix_matches_khr_by_sampling(void) {
    ue_hsd_tobj t = plain_tobj(0, 0);
    ue_uv_transform k;
    CHECK(hsd_tobj_uv_transform(&t, &k) && !k.enabled); /* identity */
    compare_by_sampling(&t);
    t.translation[0] = 0.25f, t.translation[1] = 0.5f, t.scale[0] = 2.0f, t.scale[1] = 4.0f;
    compare_by_sampling(&t);
    CHECK(hsd_tobj_uv_transform(&t, &k));
    CHECK_NEAR(k.scale[0], 0.5, EPS); /* repeat / scale */
    CHECK_NEAR(k.scale[1], 0.25, EPS);
    CHECK_NEAR(k.offset[0], -0.125, EPS); /* −S · translate */
    CHECK_NEAR(k.offset[1], -0.125, EPS);
    t.repeat_s = 3, t.repeat_t = 2;
    compare_by_sampling(&t);
    t.wrap_t = 2; /* MIRROR adds scale.y / repeat_t to the t translation */
    compare_by_sampling(&t);
    CHECK(hsd_tobj_uv_transform(&t, &k));
    CHECK_NEAR(k.offset[1], -(2.0 / 4.0) * (0.5 + 4.0 / 2.0), EPS);
    /* rotation about z with uniform scale: glTF's rotation is +rot.z */
    t = plain_tobj(0, 0);
    t.rotation[2] = 0.5f, t.scale[0] = t.scale[1] = 2.0f, t.translation[0] = 0.1f;
    t.translation[1] = -0.3f, t.repeat_s = t.repeat_t = 4;
    compare_by_sampling(&t);
    CHECK(hsd_tobj_uv_transform(&t, &k));
    CHECK_NEAR(k.rotation, 0.5, EPS);
    CHECK_NEAR(k.scale[0], 2.0, EPS);
    t.rotation[2] = -2.5f;
    compare_by_sampling(&t);
    /* a negative scale mirrors: still exact */
    t = plain_tobj(0, 0);
    t.scale[1] = -1.0f, t.translation[1] = 0.25f;
    compare_by_sampling(&t);
    /* zero scale samples one column: exact as scale 0 */
    t = plain_tobj(0, 0);
    t.scale[0] = 0.0f;
    compare_by_sampling(&t);
    /* non-uniform scale with a rotation shears: glTF cannot say it, and we say so */
    t = plain_tobj(0, 0);
    t.rotation[2] = 0.7f, t.scale[0] = 1.0f, t.scale[1] = 3.0f;
    CHECK(!hsd_tobj_uv_transform(&t, &k));
}

int main(void) {
    RUN(base_colour_is_linear_diffuse_times_alpha);
    RUN(vertex_colour_sources);
    RUN(alpha_modes_from_render_mode_and_pe);
    RUN(palette_texture_slot_and_sampler);
    RUN(textures_shared_by_image_palette_and_sampler);
    RUN(chain_gating_and_uv_set);
    RUN(short_image_strict_error_tolerant_warning);
    RUN(texture_matrix_matches_khr_by_sampling);
    return TEST_SUMMARY();
}
