/* unearth tests — no texture is dropped: the sample creature with a diffuse detail layer (baked
 * pixels against an independent computation), a reflection-only material, repeated images. */
#include <math.h>

#include "common/bytes.h"
#include "hsd/hsd_to_scene.h"
#include "samples/samples.h"
#include "test.h"
#include "common/json_doc.h"
#include "unearth/gltf.h"
#include "unearth/gx.h"
#include "unearth/hsd.h"
#include "unearth/hsd_model.h"
#include "unearth/image.h"


static const char *out_dir; /* with an argument: the glb files go there for the validator */

/* The sample creature, read back from its DAT, with room for one more TObj and image. */
typedef struct creature {
    ue_buf dat;
    ue_dat d;
    ue_hsd_model m;
} creature;

static void creature_open(creature *c) {
    memset(c, 0, sizeof *c);
    REQUIRE(ue_sample_creature_dat(&c->dat) == UE_OK);
    REQUIRE(ue_dat_parse(c->dat.data, c->dat.size, UE_MODE_STRICT, &c->d, NULL) == UE_OK);
    REQUIRE(ue_hsd_model_read(&c->d, UE_MODE_STRICT, &c->m, NULL) == UE_OK);
    ue_hsd_tobj *t = realloc(c->m.tobjs, (c->m.tobj_count + 1) * sizeof *t);
    ue_hsd_image *im = realloc(c->m.images, (c->m.image_count + 1) * sizeof *im);
    REQUIRE(t && im);
    c->m.tobjs = t, c->m.images = im;
}

static void creature_close(creature *c) {
    ue_hsd_model_free(&c->m);
    ue_dat_free(&c->d);
    ue_buf_free(&c->dat);
}

static int32_t mobj_named(const ue_hsd_model *m, const char *name) {
    for (size_t i = 0; i < m->mobj_count; i++)
        if (m->mobjs[i].name && !strcmp(m->mobjs[i].name, name)) return (int32_t)i;
    return -1;
}

static int32_t material_named(const ue_scene *s, const char *name) {
    for (size_t i = 0; i < s->material_count; i++)
        if (!strcmp(s->materials[i].name, name)) return (int32_t)i;
    return -1;
}

/* Level 0 of an image decoded by the GX decoder (its own tests check it against the spec). */
static uint8_t *decode(const ue_hsd_model *m, int32_t image, int32_t tlut) {
    const ue_hsd_image *im = &m->images[image];
    ue_gx_image g = {im->data, im->size, im->width, im->height, im->format, NULL, 0, 0, 0};
    if (tlut >= 0) {
        g.tlut = m->tluts[tlut].data, g.tlut_size = m->tluts[tlut].n_entries * 2u;
        g.tlut_count = m->tluts[tlut].n_entries, g.tlut_format = m->tluts[tlut].format;
    }
    size_t n = (size_t)im->width * im->height * 4u;
    uint8_t *px = malloc(n);
    if (px && ue_gx_decode_level(&g, 0, UE_MODE_STRICT, px, n, NULL, 0, "test") == UE_OK) return px;
    free(px);
    return NULL; /* the caller's REQUIRE fails */
}

static ue_result to_scene(const creature *c, ue_scene *s, ue_diag *d) {
    ue_scene_init(s);
    ue_result r = hsd_model_to_scene(&c->m, "creature", UE_MODE_STRICT, s, d);
    if (r != UE_OK) dump_diag(d);
    return r;
}

static void export_glb(const ue_scene *s, ue_buf *glb, const char *file) {
    ue_diag d = {0};
    REQUIRE(ue_gltf_export(s, NULL, glb, NULL, &d) == UE_OK);
    CHECK_EQ_U(ue_diag_count(&d, UE_SEV_ERROR) + ue_diag_count(&d, UE_SEV_WARNING), 0);
    ue_diag_free(&d);
    if (!out_dir) return;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", out_dir, file);
    FILE *f = fopen(path, "wb");
    REQUIRE(f && fwrite(glb->data, 1, glb->size, f) == glb->size && fclose(f) == 0);
    printf("%s\n", path);
}

/* The glb's JSON in `doc` (free it with ue_jdoc_free); NULL when it does not parse. */
static const ue_jv *glb_json(const ue_buf *glb, ue_jdoc *doc) {
    uint32_t n = ue_load_u32le(glb->data + 12);
    ue_jdoc_error err;
    return ue_jdoc_parse((const char *)glb->data + 20, n, doc, &err) == UE_OK ? &doc->root : NULL;
}

/* ---- a detail layer over the body ------------------------------------------------------------ */

#define DETAIL 8     /* the detail image: 8 × 8 I8 */
#define REPEAT 4     /* tiled 4 × over the body's 16 × 16 skin: the bake is 32 × 32 */
#define BLENDING 0.25f

/* I8 tiles are 8 × 4 texels: texel (x, y) of an 8-wide image at (y / 4) · 32 + (y % 4) · 8 + x. */
static void detail_pixels(uint8_t out[DETAIL * DETAIL]) {
    for (unsigned y = 0; y < DETAIL; y++)
        for (unsigned x = 0; x < DETAIL; x++)
            out[(y / 4) * 32 + (y % 4) * 8 + x] = (uint8_t)(x * 32 + y * 3);
}

/* The body's skin (MODULATE, REPEAT) gets a second TObj on its UV set: BLEND 0.25 on the diffuse
 * light map, repeat 4 × 4, REPEAT. The runtime's TEV stage for BLEND is
 * out = prev·(1 − blending) + tex·blending; the alpha op NONE passes the skin's alpha. */
static void detail_layer_is_baked_into_the_base_colour(void) {
    creature c;
    creature_open(&c);
    uint8_t i8[DETAIL * DETAIL];
    detail_pixels(i8);
    ue_hsd_model *m = &c.m;
    int32_t body = mobj_named(m, "body_mat");
    REQUIRE(body >= 0);
    int32_t skin = m->mobjs[body].first_tobj;
    size_t dt = m->tobj_count++, di = m->image_count++;
    m->images[di] = (ue_hsd_image){0, 0, i8, sizeof i8, DETAIL, DETAIL, UE_GX_I8, false, 0, 0, 1};
    ue_hsd_tobj t = m->tobjs[skin];
    t.name = "detail";
    t.next = -1, t.image = (int32_t)di, t.tlut = -1;
    t.repeat_s = t.repeat_t = REPEAT, t.wrap_s = t.wrap_t = 1;
    t.flags = 0x10u | (3u << 16); /* LIGHTMAP_DIFFUSE, COLORMAP_BLEND, ALPHAMAP_NONE */
    t.blending = BLENDING;
    m->tobjs[dt] = t;
    m->tobjs[skin].next = (int32_t)dt;
    m->mobjs[body].render_mode |= 0x20u; /* TEX1 */

    ue_scene s;
    ue_diag d = {0};
    REQUIRE(to_scene(&c, &s, &d) == UE_OK);
    int32_t mat = material_named(&s, "body_mat");
    REQUIRE(mat >= 0);
    const ue_scene_material *sm = &s.materials[mat];
    REQUIRE(sm->slot_count == 1); /* the layer is in the base, not a slot of its own */
    const ue_scene_texture *tex = &s.textures[sm->slots[0].texture];
    CHECK_STR(tex->name, "skin_baked");
    REQUIRE(tex->width == 16 * REPEAT / 2 && tex->height == 16 * REPEAT / 2); /* 8 · 4 > 16 */
    CHECK(tex->wrap_s == UE_WRAP_REPEAT);
    /* the independent computation: nearest texels by integer arithmetic, the BLEND stage in
     * 8-bit values; the body's colour comes from the vertices (factor white), kept as it was */
    const ue_hsd_tobj *st = &m->tobjs[skin];
    uint8_t *base = decode(m, st->image, st->tlut), *det = decode(m, (int32_t)di, -1);
    REQUIRE(base && det);
    unsigned bad = 0;
    for (unsigned y = 0; y < tex->height; y++)
        for (unsigned x = 0; x < tex->width; x++) {
            const uint8_t *b = base + 4u * ((y * 16u / tex->height) * 16u + x * 16u / tex->width);
            unsigned dx = x * REPEAT * DETAIL / tex->width % DETAIL;
            unsigned dy = y * REPEAT * DETAIL / tex->height % DETAIL;
            const uint8_t *p = det + 4u * (dy * DETAIL + dx);
            const uint8_t *got = tex->rgba + 4u * (y * tex->width + x);
            for (int k = 0; k < 3; k++) {
                double want = b[k] * (1.0 - BLENDING) + p[k] * BLENDING;
                bad += fabs(got[k] - want) > 0.5 + 1e-9;
            }
            bad += got[3] != b[3];
        }
    CHECK_EQ_U(bad, 0);
    CHECK(fabs(sm->base_color[0] - 1.0) < 1e-6);
    bool noted = false;
    for (size_t i = 0; i < sm->extras.count; i++)
        noted = noted || (!strcmp(sm->extras.items[i].key, "hsd_baked_layers") &&
                          sm->extras.items[i].number == 1);
    CHECK(noted);
    ue_buf glb = {0};
    export_glb(&s, &glb, "creature_detail.glb");
    ue_buf_free(&glb);
    free(base);
    free(det);
    ue_scene_free(&s);
    ue_diag_free(&d);
    creature_close(&c);
}

/* A BLEND layer over the MAT-coloured body carries the colour into the bake; when its image
 * does not decode (tolerant), there is no bake, so the glTF factor must keep the colour. */
static void skipped_bake_keeps_the_material_colour(void) {
    creature c;
    creature_open(&c);
    static const uint8_t one_byte[1] = {0x80}; /* an 8×8 I8 image needs 64 bytes */
    ue_hsd_model *m = &c.m;
    int32_t body = mobj_named(m, "body_mat");
    REQUIRE(body >= 0);
    int32_t skin = m->mobjs[body].first_tobj;
    size_t dt = m->tobj_count++, di = m->image_count++;
    m->images[di] = (ue_hsd_image){0, 0, one_byte, sizeof one_byte, DETAIL, DETAIL, UE_GX_I8, false, 0, 0, 1};
    ue_hsd_tobj t = m->tobjs[skin];
    t.name = "detail";
    t.next = -1, t.image = (int32_t)di, t.tlut = -1;
    t.repeat_s = t.repeat_t = REPEAT, t.wrap_s = t.wrap_t = 1;
    t.flags = 0x10u | (3u << 16); /* LIGHTMAP_DIFFUSE, COLORMAP_BLEND */
    t.blending = BLENDING;
    m->tobjs[dt] = t;
    m->tobjs[skin].next = (int32_t)dt;
    ue_hsd_mobj *mo = &m->mobjs[body];
    mo->render_mode = (mo->render_mode & ~0x3u) | 0x20u | 1u; /* TEX1, diffuse from MAT */
    mo->has_material = true;
    mo->material.diffuse[0] = 200, mo->material.diffuse[1] = 100, mo->material.diffuse[2] = 50;

    ue_scene s;
    ue_scene_init(&s);
    ue_diag d = {0};
    REQUIRE(hsd_model_to_scene(&c.m, "creature", UE_MODE_TOLERANT, &s, &d) == UE_OK);
    int32_t mat = material_named(&s, "body_mat");
    REQUIRE(mat >= 0);
    const ue_scene_material *sm = &s.materials[mat];
    CHECK(sm->slot_count >= 1 && strcmp(s.textures[sm->slots[0].texture].name, "skin_baked") != 0);
    const uint8_t want[3] = {200, 100, 50};
    for (int k = 0; k < 3; k++) { /* sRGB → linear, IEC 61966-2-1 */
        double v = want[k] / 255.0, lin = v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
        CHECK(fabs(sm->base_color[k] - lin) < 1e-5);
    }
    ue_scene_free(&s);
    ue_diag_free(&d);
    creature_close(&c);
}

/* ---- a reflection-only material -------------------------------------------------------------- */

/* The eyes' only TObj becomes a reflection map (COORD_REFLECTION, LIGHTMAP_EXT, MODULATE): no
 * base colour, and the texture is still in the glb, named in the material's extras with its role,
 * generated coordinates and blend. */
static void reflection_only_material_keeps_its_texture(void) {
    creature c;
    creature_open(&c);
    int32_t eye = mobj_named(&c.m, "eye_mat");
    REQUIRE(eye >= 0);
    int32_t t = c.m.mobjs[eye].first_tobj;
    c.m.tobjs[t].flags = 0x1u | 0x80u | (4u << 16);
    ue_scene s;
    ue_diag d = {0};
    REQUIRE(to_scene(&c, &s, &d) == UE_OK);
    int32_t mat = material_named(&s, "eye_mat");
    REQUIRE(mat >= 0 && s.materials[mat].slot_count == 1);
    const ue_texture_slot *sl = &s.materials[mat].slots[0];
    CHECK(sl->role == UE_TEX_REFLECTION && sl->generated);
    ue_buf glb = {0};
    export_glb(&s, &glb, "creature_reflection.glb");
    ue_jdoc doc;
    const ue_jv *j = glb_json(&glb, &doc);
    REQUIRE(j);
    const ue_jv *jm = ue_jv_at(ue_jv_get(j, "materials"), (size_t)mat);
    CHECK(!ue_jv_get(ue_jv_get(jm, "pbrMetallicRoughness"), "baseColorTexture"));
    const ue_jv *list = ue_jv_get(ue_jv_get(jm, "extras"), "unearth_textures");
    REQUIRE(ue_jv_items(list) == 1);
    const ue_jv *e = ue_jv_at(list, 0);
    CHECK_STR(ue_jv_string(ue_jv_get(e, "role")), "reflection");
    CHECK_STR(ue_jv_string(ue_jv_get(e, "coordinate")), "reflection");
    CHECK_STR(ue_jv_string(ue_jv_get(e, "light_map")), "ext");
    CHECK_STR(ue_jv_string(ue_jv_get(e, "blend")), "modulate");
    CHECK(ue_jv_is(ue_jv_get(e, "generated"), UE_JV_TRUE));
    int64_t idx = ue_jv_integer(ue_jv_get(e, "index"));
    CHECK(idx == sl->texture);
    const ue_jv *jt = ue_jv_at(ue_jv_get(j, "textures"), (size_t)idx);
    REQUIRE(jt);
    int64_t src = ue_jv_integer(ue_jv_get(jt, "source"));
    CHECK(ue_jv_at(ue_jv_get(j, "images"), (size_t)src) != NULL);
    /* the eye atlas's pixels, decoded independently, are the texture's */
    const ue_hsd_tobj *to = &c.m.tobjs[t];
    uint8_t *px = decode(&c.m, to->image, to->tlut);
    REQUIRE(px);
    const ue_scene_texture *tex = &s.textures[sl->texture];
    CHECK(!memcmp(px, tex->rgba, (size_t)tex->width * tex->height * 4u));
    free(px);
    ue_jdoc_free(&doc);
    ue_buf_free(&glb);
    ue_scene_free(&s);
    ue_diag_free(&d);
    creature_close(&c);
}

/* ---- repeated images ------------------------------------------------------------------------- */

static size_t png_size(const ue_scene_texture *t) {
    ue_buf b = {0};
    size_t n = ue_png_encode_rgba(t->width, t->height, t->rgba, &b) == UE_OK ? b.size : 0;
    ue_buf_free(&b);
    return n;
}

/* The head draws a second image record with the skin's pixels under another sampler (CLAMP):
 * two textures, one image. Counted independently: the images the glb holds are the distinct pixel
 * contents of the scene's textures, and their bytes those distinct PNGs. */
static void repeated_images_are_stored_once(void) {
    creature c;
    creature_open(&c);
    int32_t body = mobj_named(&c.m, "body_mat"), head = mobj_named(&c.m, "head_mat");
    REQUIRE(body >= 0 && head >= 0);
    int32_t skin = c.m.mobjs[body].first_tobj, ht = c.m.mobjs[head].first_tobj;
    size_t copy = c.m.image_count++;
    c.m.images[copy] = c.m.images[c.m.tobjs[skin].image];
    c.m.tobjs[ht].image = (int32_t)copy, c.m.tobjs[ht].tlut = -1;
    c.m.tobjs[ht].wrap_s = c.m.tobjs[ht].wrap_t = 0;
    ue_scene s;
    ue_diag d = {0};
    REQUIRE(to_scene(&c, &s, &d) == UE_OK);
    size_t distinct = 0, bytes = 0;
    for (size_t i = 0; i < s.texture_count; i++) {
        bool seen = false;
        for (size_t k = 0; k < i && !seen; k++)
            seen = s.textures[k].width == s.textures[i].width &&
                   s.textures[k].height == s.textures[i].height &&
                   !memcmp(s.textures[k].rgba, s.textures[i].rgba,
                           (size_t)s.textures[i].width * s.textures[i].height * 4u);
        size_t png = seen ? 0 : png_size(&s.textures[i]);
        CHECK(seen || png > 0);
        if (!seen) distinct++, bytes += png;
    }
    CHECK(distinct + 1 == s.texture_count); /* the skin's pixels are there twice */
    ue_buf glb = {0};
    export_glb(&s, &glb, "creature_repeated.glb");
    ue_jdoc doc;
    const ue_jv *j = glb_json(&glb, &doc);
    REQUIRE(j);
    const ue_jv *images = ue_jv_get(j, "images");
    CHECK_EQ_U(ue_jv_items(ue_jv_get(j, "textures")), s.texture_count);
    CHECK_EQ_U(ue_jv_items(images), distinct);
    size_t stored = 0;
    const ue_jv *views = ue_jv_get(j, "bufferViews");
    for (size_t i = 0; i < ue_jv_items(images); i++) {
        int64_t v = ue_jv_integer(ue_jv_get(ue_jv_at(images, i), "bufferView"));
        stored += (size_t)ue_jv_integer(ue_jv_get(ue_jv_at(views, (size_t)v), "byteLength"));
    }
    CHECK_EQ_U(stored, bytes);
    ue_jdoc_free(&doc);
    ue_buf_free(&glb);
    ue_scene_free(&s);
    ue_diag_free(&d);
    creature_close(&c);
}

int main(int argc, char **argv) {
    out_dir = argc > 1 ? argv[1] : NULL;
    RUN(detail_layer_is_baked_into_the_base_colour);
    RUN(skipped_bake_keeps_the_material_colour);
    RUN(reflection_only_material_keeps_its_texture);
    RUN(repeated_images_are_stored_once);
    return TEST_SUMMARY();
}
