/* Tests of animated MAT0 phases: the engine's phase clock per mode against keys worked out by
 * hand, STEP keys equal to it at every tick, the atlas against the Texm decode, and the chain. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "test.h"
#include "unearth/gltf.h"
#include "unearth/nres.h"
#include "unearth/texm.h"
#include "common/bytes.h"
#include "parkan/mat0_phases.h"
#include "parkan/msh_materials.h"

#define FOURCC(a, b, c, d) ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)

/* Phases 0, 1, 2 from 0, 300 and 700 ms; the cycle ends at 1000 ms on phase 0 again. */
static ue_mat0_key four_keys[4] = {{0, 0, 0}, {1, 300, 0}, {2, 700, 0}, {0, 1000, 0}};

static ue_mat0_anim block(uint32_t mode, ue_mat0_key *keys, uint16_t n) {
    return (ue_mat0_anim){mode | 0x10u /* an interpolation mask must not change the mode */, n, keys};
}

static void clock_loop(void) {
    ue_mat0_anim a = block(UE_MAT0_MODE_LOOP, four_keys, 4);
    CHECK_EQ_U(ue_mat0_cycle(&a), 1000);
    static const uint32_t at[] = {0, 299, 300, 699, 700, 999, 1000, 2350, 4294967295u};
    /* 4294967295 % 1000 = 295: key 0 (the clock is taken modulo 2^32 before this). */
    static const long want[] = {0, 0, 1, 1, 2, 2, 0, 1, 0};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) CHECK_EQ_U(ue_mat0_key_at(&a, at[i]), want[i]);
}

static void clock_pingpong(void) {
    ue_mat0_anim a = block(UE_MAT0_MODE_PINGPONG, four_keys, 4);
    /* Odd cycles run back: position = 1000 - delta % 1000. At 1000 the position is 1000 (the last
     * key), at 1300 it is 700 (key 2 still), at 1301 it is 699 (key 1), at 1701 299 (key 0). */
    static const uint32_t at[] = {500, 1000, 1001, 1300, 1301, 1700, 1701, 1999, 2000, 2300};
    static const long want[] = {1, 3, 2, 2, 1, 1, 0, 0, 0, 1};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) CHECK_EQ_U(ue_mat0_key_at(&a, at[i]), want[i]);
}

static void clock_oneshot_and_random(void) {
    ue_mat0_anim a = block(UE_MAT0_MODE_ONESHOT, four_keys, 4);
    CHECK_EQ_U(ue_mat0_key_at(&a, 500), 1);
    CHECK_EQ_U(ue_mat0_key_at(&a, 999), 2);
    CHECK_EQ_U(ue_mat0_key_at(&a, 1000), 3); /* clamped to the last key */
    CHECK_EQ_U(ue_mat0_key_at(&a, 50000), 3);
    ue_mat0_anim r = block(UE_MAT0_MODE_RANDOM, four_keys, 4);
    CHECK(ue_mat0_key_at(&r, 10) == -1);
    ue_mat0_step *st;
    size_t n;
    uint32_t span;
    bool loop;
    CHECK(ue_mat0_steps(&r, &st, &n, &span, &loop) == UE_ERR_UNSUPPORTED);
    ue_mat0_anim six = {6, 4, four_keys};
    CHECK(ue_mat0_key_at(&six, 10) == -1); /* modes 4..7 are not the engine's */
    ue_mat0_key still[1] = {{1, 0, 0}};
    ue_mat0_anim one = block(UE_MAT0_MODE_LOOP, still, 1);
    CHECK_EQ_U(ue_mat0_key_at(&one, 12345), 0); /* a cycle of 0 ms: no division, key 0 */
    CHECK(ue_mat0_steps(&one, &st, &n, &span, &loop) == UE_ERR_UNSUPPORTED);
}

/* Before the first key the segment that wraps from the last key is shown. */
static void clock_before_first_key(void) {
    ue_mat0_key late[2] = {{1, 200, 0}, {0, 600, 0}};
    ue_mat0_anim a = block(UE_MAT0_MODE_LOOP, late, 2);
    CHECK_EQ_U(ue_mat0_key_at(&a, 100), 1);
    CHECK_EQ_U(ue_mat0_key_at(&a, 200), 0);
    CHECK_EQ_U(ue_mat0_key_at(&a, 599), 0);
    CHECK_EQ_U(ue_mat0_key_at(&a, 600), 1); /* position 0 again */
}

/* glTF's STEP curve at `tick` (clip time wrapped for a looping clip, held after the end). */
static uint32_t step_key(const ue_mat0_step *st, size_t n, uint32_t span, bool loop, uint32_t tick) {
    uint32_t t = loop ? tick % span : (tick > span ? span : tick);
    uint32_t key = st[0].key;
    for (size_t i = 0; i < n && st[i].tick <= t; i++) key = st[i].key;
    return key;
}

static void steps_equal_clock_at_every_tick(void) {
    ue_mat0_key late[3] = {{1, 150, 0}, {0, 150, 0}, {2, 401, 0}}; /* a repeated time, first key late */
    struct { ue_mat0_key *keys; uint16_t n; } sets[] = {{four_keys, 4}, {late, 3}};
    for (uint32_t mode = 0; mode <= UE_MAT0_MODE_ONESHOT; mode++)
        for (size_t k = 0; k < 2; k++) {
            ue_mat0_anim a = block(mode, sets[k].keys, sets[k].n);
            ue_mat0_step *st;
            size_t n;
            uint32_t span;
            bool loop;
            REQUIRE(ue_mat0_steps(&a, &st, &n, &span, &loop) == UE_OK);
            CHECK_EQ_U(span, (mode == UE_MAT0_MODE_PINGPONG ? 2 : 1) * ue_mat0_cycle(&a));
            CHECK(loop == (mode != UE_MAT0_MODE_ONESHOT));
            CHECK_EQ_U(st[n - 1].tick, span);
            size_t wrong = 0;
            for (uint32_t t = 0; t < 3 * span; t++)
                wrong += step_key(st, n, span, loop, t) != (uint32_t)ue_mat0_key_at(&a, t);
            CHECK_EQ_U(wrong, 0);
            free(st);
        }
}

static void steps_pingpong_by_hand(void) {
    ue_mat0_anim a = block(UE_MAT0_MODE_PINGPONG, four_keys, 4);
    ue_mat0_step *st;
    size_t n;
    uint32_t span;
    bool loop;
    REQUIRE(ue_mat0_steps(&a, &st, &n, &span, &loop) == UE_OK);
    /* Forward at the key times, back one tick after 2000 - 300, 2000 - 700, 2000 - 1000. */
    static const ue_mat0_step want[] = {{0, 0}, {300, 1}, {700, 2}, {1000, 3}, {1001, 2}, {1301, 1}, {1701, 0}, {2000, 0}};
    REQUIRE(n == sizeof want / sizeof want[0]);
    for (size_t i = 0; i < n; i++) CHECK(st[i].tick == want[i].tick && st[i].key == want[i].key);
    free(st);
}

/* ---- the atlas against the Texm decode ------------------------------------------------------- */

/* A w × h Texm 8888 (bytes A, R, G, B) whose texel (x, y) is A 255, R 10x, G 10y, B `tag`. */
static void texm_8888(ue_buf *b, uint32_t w, uint32_t h, uint8_t tag) {
    uint32_t head[8] = {FOURCC('T', 'e', 'x', 'm'), w, h, 1, 0, 0, 0, 8888};
    for (int i = 0; i < 8; i++) ue_buf_put_u32le(b, head[i]);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint8_t px[4] = {255, (uint8_t)(10 * x), (uint8_t)(10 * y), tag};
            ue_buf_put(b, px, 4);
        }
}

/* Level 0 through the Texm decoder (NULL on failure, which the caller's checks then see). */
static uint8_t *decode(const ue_buf *b, uint32_t *w, uint32_t *h) {
    ue_texm t;
    *w = *h = 0;
    if (ue_texm_parse(b->data, b->size, UE_MODE_STRICT, &t, NULL) != UE_OK) return NULL;
    *w = t.width, *h = t.height;
    uint8_t *rgba = malloc((size_t)*w * *h * 4);
    if (rgba && ue_texm_decode_level(&t, 0, NULL, rgba, (size_t)*w * *h * 4, NULL) != UE_OK) free(rgba), rgba = NULL;
    ue_texm_free(&t);
    return rgba;
}

static const uint8_t *texel(const ue_atlas *a, const uint8_t *rgba, uint32_t x, uint32_t y) {
    return rgba + 4 * ((size_t)y * a->width + x);
}

static void atlas_cells_are_the_decoded_textures(void) {
    ue_buf big = {0}, small = {0}, third = {0};
    texm_8888(&big, 4, 4, 1);
    texm_8888(&small, 2, 2, 2);
    texm_8888(&third, 4, 4, 3);
    ue_atlas_image img[3];
    uint8_t *px[3];
    px[0] = decode(&big, &img[0].width, &img[0].height);
    px[1] = decode(&small, &img[1].width, &img[1].height);
    px[2] = decode(&third, &img[2].width, &img[2].height);
    for (int i = 0; i < 3; i++) {
        REQUIRE(px[i] != NULL);
        img[i].rgba = px[i];
    }
    CHECK_MEM(px[0] + 4 * (2 * 4 + 3), ((uint8_t[]){30, 20, 1, 255}), 4); /* the decode: R G B A */
    ue_atlas a;
    REQUIRE(ue_atlas_layout(img, 3, &ue_mat0_atlas_style, &a) == UE_OK);
    /* 3 cells: 2 columns, 2 rows of 6 × 6 (4 × 4 and the gutter) → 12 × 12 → 16 × 16. */
    CHECK(a.cols == 2 && a.rows == 2 && a.cell_w == 4 && a.cell_h == 4 && a.width == 16 && a.height == 16);
    uint8_t *at = calloc(16 * 16, 4);
    REQUIRE(at != NULL);
    ue_atlas_paint(&a, img, at);
    size_t wrong = 0;
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 4; x++) {
            wrong += memcmp(texel(&a, at, 1 + x, 1 + y), px[0] + 4 * (y * 4 + x), 4) != 0;          /* cell 0 */
            wrong += memcmp(texel(&a, at, 7 + x, 1 + y), px[1] + 4 * ((y / 2) * 2 + x / 2), 4) != 0; /* cell 1, ×2 */
            wrong += memcmp(texel(&a, at, 1 + x, 7 + y), px[2] + 4 * (y * 4 + x), 4) != 0;          /* cell 2 */
        }
    CHECK_EQ_U(wrong, 0);
    CHECK_MEM(texel(&a, at, 0, 0), px[0], 4);                   /* gutter corner = texel (0, 0) */
    CHECK_MEM(texel(&a, at, 5, 2), px[0] + 4 * (1 * 4 + 3), 4); /* right gutter, row 1 = texel (3, 1) */
    CHECK_MEM(texel(&a, at, 9, 5), px[1] + 4 * (1 * 2 + 1), 4); /* cell 1's bottom gutter */
    CHECK_MEM(texel(&a, at, 13, 13), ((uint8_t[]){0, 0, 0, 0}), 4); /* the unused fourth cell */
    ue_uv_transform uv;
    ue_atlas_cell_transform(&a, 1, &uv);
    CHECK(uv.offset[0] == 7.0f / 16 && uv.offset[1] == 1.0f / 16 && uv.scale[0] == 0.25f && uv.scale[1] == 0.25f);
    ue_atlas_cell_transform(&a, 2, &uv);
    CHECK(uv.offset[0] == 1.0f / 16 && uv.offset[1] == 7.0f / 16);
    ue_atlas_free(&a);
    free(at);
    for (int i = 0; i < 3; i++) free(px[i]);
    ue_buf_free(&big), ue_buf_free(&small), ue_buf_free(&third);
    /* A side above the limit is refused, not allocated. */
    ue_atlas_image huge = {UE_MAT0_ATLAS_MAX_SIDE, 1, (const uint8_t *)"\xff\xff\xff\xff"};
    CHECK(ue_atlas_layout(&huge, 1, &ue_mat0_atlas_style, &a) == UE_ERR_LIMIT);
    CHECK_EQ_U(a.width, 16384); /* 8192 + the gutter, rounded up: the size the message names */
}

/* ---- the chain: Material.lib → atlas and clip ------------------------------------------------ */

static void write_file(const char *dir, const char *name, const void *data, size_t size) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    REQUIRE(f != NULL);
    REQUIRE(fwrite(data, 1, size, f) == size);
    fclose(f);
}

static void write_nres(const char *dir, const char *name, ue_nres *n) {
    ue_buf b = {0};
    REQUIRE(ue_nres_write(n, UE_NRES_CANONICAL, &b, NULL) == UE_OK);
    write_file(dir, name, b.data, b.size);
    ue_buf_free(&b);
    ue_nres_free(n);
}

/* A version-6 MAT0 of two phases (A.0, B.0) and one block of `mode` with four_keys' times on
 * phases 0, 1, 0, 0. */
static void add_blinking_mat0(ue_nres *n, const char *name, uint32_t mode) {
    ue_mat0_phase ph[2];
    memset(ph, 0, sizeof ph);
    memcpy(ph[0].texture, "A.0", 3);
    memcpy(ph[1].texture, "b.0", 3); /* any letter case finds B.0 */
    ue_mat0_key keys[4] = {{0, 0, 0}, {1, 300, 0}, {0, 700, 0}, {0, 1000, 0}};
    ue_mat0_anim anim = {mode, 4, keys};
    ue_mat0 m = {6, 2, 1, 255, 255, 0x3F800000u, 0, ph, &anim};
    ue_buf b = {0};
    REQUIRE(ue_mat0_write(&m, &b, NULL) == UE_OK);
    REQUIRE(ue_nres_add(n, UE_MAT0_TYPE, 0, 6, 0, name, b.data, b.size) == UE_OK);
    ue_buf_free(&b);
}

/* A scene of three WEAR rows, each drawn by one primitive with UVs (u, u) at its two vertices. */
static void scene_of_rows(ue_scene *s, const float *u_max) {
    ue_scene_init(s);
    int32_t mesh = ue_scene_add_mesh(s, "m");
    for (int r = 0; r < 3; r++) {
        int32_t mi = ue_scene_add_material(s, "placeholder");
        REQUIRE(mi >= 0 && ue_extras_set_number(&s->materials[mi].extras, UE_MSH_WEAR_ROW_KEY, r) == UE_OK);
        ue_scene_primitive *p = ue_scene_add_primitive(s, mesh);
        REQUIRE(p && ue_scene_primitive_alloc(p, 2, 0, UE_ATTR_UV0) == UE_OK);
        p->uv[0][2] = p->uv[0][3] = u_max[r];
        p->material = mi;
    }
}

static void chain_builds_atlas_and_clip(void) {
    char root[64] = "/tmp/ue_phases_XXXXXX", origin[128];
    REQUIRE(mkdtemp(root) != NULL);
    static const char wear[] = "3\r\n0 BLINK\r\n1 TILED\r\n2 DICE\r\n";
    write_file(root, "m.wea", wear, sizeof wear - 1);
    ue_nres n;
    ue_nres_init(&n);
    add_blinking_mat0(&n, "BLINK", UE_MAT0_MODE_PINGPONG);
    add_blinking_mat0(&n, "TILED", UE_MAT0_MODE_LOOP);
    add_blinking_mat0(&n, "DICE", UE_MAT0_MODE_RANDOM);
    write_nres(root, "Material.lib", &n);
    ue_nres_init(&n);
    ue_buf ta = {0}, tb = {0};
    texm_8888(&ta, 4, 2, 7);
    texm_8888(&tb, 4, 2, 9);
    REQUIRE(ue_nres_add(&n, FOURCC('T', 'e', 'x', 'm'), 0, 0, 0, "A.0", ta.data, ta.size) == UE_OK);
    REQUIRE(ue_nres_add(&n, FOURCC('T', 'e', 'x', 'm'), 0, 0, 0, "B.0", tb.data, tb.size) == UE_OK);
    write_nres(root, "Textures.lib", &n);
    snprintf(origin, sizeof origin, "%s/m.msh", root);
    ue_scene s;
    scene_of_rows(&s, (const float[]){1.0f, 2.0f, 0.5f}); /* TILED's UVs reach 2 */
    ue_diag d = {0};
    ue_parkan_search where = {origin, NULL};
    REQUIRE(ue_msh_resolve_materials(&s, 0, &where, UE_MODE_STRICT, &d) == UE_OK);
    /* BLINK: one atlas (cells A.0, B.0 of 6 × 4 → 12 × 4 → 16 × 4), a transform on cell 0. */
    const ue_scene_material *m = &s.materials[0];
    REQUIRE(m->slot_count == 1);
    const ue_scene_texture *t = &s.textures[m->slots[0].texture];
    CHECK_STR(t->name, "BLINK.phases");
    CHECK(t->width == 16 && t->height == 4);
    uint32_t w, h;
    uint8_t *b = decode(&tb, &w, &h);
    REQUIRE(b != NULL && w == 4 && h == 2);
    size_t wrong = 0;
    for (uint32_t y = 0; y < 2; y++) /* cell 1's inner texels are B.0, pixel for pixel */
        wrong += memcmp(t->rgba + 4 * ((1 + y) * 16 + 7), b + 4 * (y * 4), 16) != 0;
    CHECK_EQ_U(wrong, 0);
    free(b);
    CHECK(m->slots[0].transform.enabled && m->slots[0].transform.offset[0] == 1.0f / 16);
    CHECK(m->slots[0].transform.scale[0] == 0.25f && m->slots[0].transform.scale[1] == 0.5f);
    /* Its clip: ping-pong over 2000 ms, cells 0, 1, 0 forward and back. */
    REQUIRE(s.animation_count == 1);
    const ue_scene_animation *an = &s.animations[0];
    CHECK_STR(an->name, "BLINK");
    CHECK(an->loop && an->fps == 1000.0f && an->end_frame == 2000.0f);
    REQUIRE(an->channel_count == 1 && an->channels[0].interpolation == UE_INTERP_STEP);
    const ue_anim_channel *ch = &an->channels[0];
    CHECK(ch->target == UE_TARGET_UV_OFFSET && ch->material == 0 && ch->slot == 0);
    /* Changes at 0 (A), 0.3 (B), 0.7 (A); back: position 700 until 1.3 s, below it B from 1.301
     * s, below 300 A from 1.701 s; the end at 2 s. */
    static const float times[] = {0.0f, 0.3f, 0.7f, 1.301f, 1.701f, 2.0f};
    static const float u[] = {1.0f / 16, 7.0f / 16, 1.0f / 16, 7.0f / 16, 1.0f / 16, 1.0f / 16};
    REQUIRE(ch->key_count == 6);
    for (size_t k = 0; k < 6; k++) CHECK(ch->times[k] == times[k] && ch->values[2 * k] == u[k]);
    CHECK(ue_gltf_check_pointers(&s, NULL) == UE_OK);
    /* TILED and DICE keep phase 0 (A.0 itself), each with an info naming it. */
    CHECK(s.materials[1].slot_count == 1 && !s.materials[1].slots[0].transform.enabled);
    CHECK_STR(s.textures[s.materials[1].slots[0].texture].name, "A.0");
    CHECK(s.materials[2].slots[0].texture == s.materials[1].slots[0].texture);
    int infos = 0;
    for (size_t i = 0; i < d.count; i++)
        if (!strcmp(d.items[i].code, "msh.material.phases") && d.items[i].severity == UE_SEV_INFO)
            infos += strstr(d.items[i].message, "TILED") || strstr(d.items[i].message, "DICE");
    CHECK_EQ_U(infos, 2);
    ue_diag_free(&d);
    ue_scene_free(&s);
    ue_buf_free(&ta), ue_buf_free(&tb);
}

/* 65 phases of 65 different textures: more than an atlas takes (64 cells); phase 0 and an info,
 * decided before any texture is decoded. */
static void too_many_cells_keep_phase_0(void) {
    char root[64] = "/tmp/ue_phases_XXXXXX", origin[128];
    REQUIRE(mkdtemp(root) != NULL);
    static const char wear[] = "1\r\n0 MANY\r\n";
    write_file(root, "m.wea", wear, sizeof wear - 1);
    ue_mat0_phase ph[65];
    ue_mat0_key keys[65];
    memset(ph, 0, sizeof ph);
    for (uint16_t i = 0; i < 65; i++) {
        snprintf(ph[i].texture, sizeof ph[i].texture, "T%u.0", i);
        keys[i] = (ue_mat0_key){i, (uint16_t)(10 * i + 10), 0};
    }
    ue_mat0_anim anim = {UE_MAT0_MODE_LOOP, 65, keys};
    ue_mat0 m = {6, 65, 1, 255, 255, 0x3F800000u, 0, ph, &anim};
    ue_buf b = {0};
    REQUIRE(ue_mat0_write(&m, &b, NULL) == UE_OK);
    ue_nres n;
    ue_nres_init(&n);
    REQUIRE(ue_nres_add(&n, UE_MAT0_TYPE, 0, 6, 0, "MANY", b.data, b.size) == UE_OK);
    ue_buf_free(&b);
    write_nres(root, "Material.lib", &n);
    snprintf(origin, sizeof origin, "%s/m.msh", root);
    ue_scene s;
    scene_of_rows(&s, (const float[]){1.0f, 1.0f, 1.0f});
    ue_diag d = {0};
    ue_parkan_search where = {origin, NULL};
    REQUIRE(ue_msh_resolve_materials(&s, 0, &where, UE_MODE_STRICT, &d) == UE_OK);
    const ue_diag_item *info = diag_find(&d, "msh.material.phases", NULL);
    CHECK(info != NULL && strstr(info->message, "MANY") && strstr(info->message, "64 cells"));
    CHECK_EQ_U(s.animation_count, 0);
    ue_diag_free(&d);
    ue_scene_free(&s);
}

int main(void) {
    RUN(clock_loop);
    RUN(clock_pingpong);
    RUN(clock_oneshot_and_random);
    RUN(clock_before_first_key);
    RUN(steps_equal_clock_at_every_tick);
    RUN(steps_pingpong_by_hand);
    RUN(atlas_cells_are_the_decoded_textures);
    RUN(chain_builds_atlas_and_clip);
    RUN(too_many_cells_keep_phase_0);
    return TEST_SUMMARY();
}
