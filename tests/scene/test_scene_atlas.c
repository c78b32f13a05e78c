/* Tests of the scene layer's atlas helper in the style the two families do not share (HSD swaps:
 * images at their own size, no gutter, exact sides), against texels and UV maps worked out by hand. */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "scene/scene_atlas.h"

static const ue_atlas_style swap_style = {0, false, false, 16384};

/* Image k: w × h texels whose red byte is 100·k + 10·y + x (alpha 255). */
static uint8_t *image(uint32_t k, uint32_t w, uint32_t h) {
    uint8_t *px = malloc((size_t)w * h * 4);
    for (uint32_t y = 0; px && y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint8_t *t = px + 4 * ((size_t)y * w + x);
            t[0] = (uint8_t)(100 * k + 10 * y + x), t[1] = t[2] = 0, t[3] = 255;
        }
    return px;
}

/* 4 × 2, 2 × 2 and 3 × 1 images: 2 columns (2² ≥ 3), 2 rows of 4 × 2 cells → 8 × 4 texels. */
static void three_images(ue_atlas_image img[3]) {
    static const uint32_t size[3][2] = {{4, 2}, {2, 2}, {3, 1}};
    for (uint32_t k = 0; k < 3; k++) img[k] = (ue_atlas_image){size[k][0], size[k][1], image(k, size[k][0], size[k][1])};
}

static void free_images(ue_atlas_image img[3]) {
    for (int k = 0; k < 3; k++) free((void *)img[k].rgba);
}

static void swap_layout_and_texels(void) {
    ue_atlas_image img[3];
    three_images(img);
    ue_atlas a;
    REQUIRE(ue_atlas_layout(img, 3, &swap_style, &a) == UE_OK);
    CHECK(a.cols == 2 && a.rows == 2 && a.cell_w == 4 && a.cell_h == 2 && a.width == 8 && a.height == 4);
    uint8_t px[8 * 4 * 4] = {0};
    ue_atlas_paint(&a, img, px);
    /* Row by row, the red byte ('-': transparent black, outside every image). */
    static const int want[4][8] = {{0, 1, 2, 3, 100, 101, -1, -1},
                                   {10, 11, 12, 13, 110, 111, -1, -1},
                                   {200, 201, 202, -1, -1, -1, -1, -1},
                                   {-1, -1, -1, -1, -1, -1, -1, -1}};
    size_t wrong = 0;
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 8; x++) {
            const uint8_t *t = px + 4 * (y * 8 + x);
            wrong += want[y][x] < 0 ? (t[0] | t[3]) != 0 : t[0] != want[y][x] || t[3] != 255;
        }
    CHECK_EQ_U(wrong, 0);
    double scale[2], off[2];
    ue_atlas_cell_map(&a, 1, scale, off); /* x 4..5 of 8, y 0..1 of 4 */
    CHECK(off[0] == 0.5 && off[1] == 0.0 && scale[0] == 0.25 && scale[1] == 0.5);
    ue_atlas_cell_map(&a, 2, scale, off); /* x 0..2 of 8, y 2 of 4 */
    CHECK(off[0] == 0.0 && off[1] == 0.5 && scale[0] == 0.375 && scale[1] == 0.25);
    /* uv → [[1 2] [3 4]]·uv + (0.5, 0.25), then cell 1: rows scaled by (0.25, 0.5), shifted by (0.5, 0). */
    double A[4] = {1, 2, 3, 4}, b[2] = {0.5, 0.25};
    ue_atlas_compose(&a, 1, A, b);
    CHECK(A[0] == 0.25 && A[1] == 0.5 && A[2] == 1.5 && A[3] == 2.0 && b[0] == 0.625 && b[1] == 0.125);
    ue_atlas_free(&a);
    free_images(img);
}

/* A new texture and a reused one get the same texels; the reused one its new name and size. */
static void texture_new_and_reused(void) {
    ue_atlas_image img[3];
    three_images(img);
    ue_atlas a;
    REQUIRE(ue_atlas_layout(img, 3, &swap_style, &a) == UE_OK);
    ue_scene s;
    ue_scene_init(&s);
    int32_t old = ue_scene_add_texture(&s, "old", 2, 2);
    int32_t fresh = ue_atlas_texture(&s, &a, img, "fresh_atlas", -1);
    int32_t reused = ue_atlas_texture(&s, &a, img, "eyes_atlas", old);
    REQUIRE(old == 0 && fresh == 1 && reused == 0 && s.texture_count == 2);
    CHECK_STR(s.textures[0].name, "eyes_atlas");
    CHECK_STR(s.textures[1].name, "fresh_atlas");
    CHECK(s.textures[0].width == 8 && s.textures[0].height == 4);
    CHECK_MEM(s.textures[0].rgba, s.textures[1].rgba, 8 * 4 * 4);
    CHECK_EQ_U(s.textures[1].rgba[4 * (1 * 8 + 5)], 111); /* image 1's texel (1, 1) */
    ue_scene_free(&s);
    ue_atlas_free(&a);
    free_images(img);
}

static void step_channel_and_rest(void) {
    ue_atlas_image img[3];
    three_images(img);
    ue_atlas a;
    REQUIRE(ue_atlas_layout(img, 3, &swap_style, &a) == UE_OK);
    ue_scene s;
    ue_scene_init(&s);
    int32_t tex = ue_atlas_texture(&s, &a, img, "atlas", -1), mat = ue_scene_add_material(&s, "m");
    int32_t slot = ue_scene_add_texture_slot(&s, mat, UE_TEX_BASE_COLOR, tex, 0);
    int32_t clip = ue_scene_add_animation(&s, "swap");
    REQUIRE(tex >= 0 && mat >= 0 && slot >= 0 && clip >= 0);
    ue_atlas_cell_transform(&a, 2, &s.materials[mat].slots[slot].transform);
    const ue_uv_transform *t = &s.materials[mat].slots[slot].transform;
    CHECK(t->enabled && t->offset[0] == 0.0f && t->offset[1] == 0.5f && t->scale[0] == 0.375f && t->scale[1] == 0.25f);
    static const ue_atlas_key keys[3] = {{0.0f, 0}, {0.5f, 1}, {1.25f, 2}};
    ue_anim_channel *ch = ue_atlas_step_channel(&s, clip, mat, slot, &a, keys, 3);
    REQUIRE(ch != NULL);
    CHECK(ch->target == UE_TARGET_UV_OFFSET && ch->interpolation == UE_INTERP_STEP && ch->key_count == 3);
    CHECK(ch->material == mat && ch->slot == slot && ch->node == -1);
    CHECK(ch->times[0] == 0.0f && ch->times[1] == 0.5f && ch->times[2] == 1.25f);
    static const float want[6] = {0.0f, 0.0f, 0.5f, 0.0f, 0.0f, 0.5f};
    CHECK_MEM(ch->values, want, sizeof want);
    CHECK(ue_atlas_step_channel(&s, clip + 1, mat, slot, &a, keys, 3) == NULL); /* no such clip */
    ue_scene_free(&s);
    ue_atlas_free(&a);
    free_images(img);
}

static void refusals(void) {
    static const uint8_t texel[4] = {1, 2, 3, 4};
    ue_atlas_image one = {1, 1, texel}, empty = {0, 1, texel}, none = {1, 1, NULL};
    ue_atlas a;
    CHECK(ue_atlas_layout(&one, 0, &swap_style, &a) == UE_ERR_USAGE);
    CHECK(ue_atlas_layout(&empty, 1, &swap_style, &a) == UE_ERR_USAGE);
    CHECK(ue_atlas_layout(&none, 1, &swap_style, &a) == UE_ERR_USAGE);
    ue_atlas_image *many = malloc((UE_ATLAS_MAX_CELLS + 1) * sizeof *many);
    REQUIRE(many != NULL);
    for (size_t i = 0; i <= UE_ATLAS_MAX_CELLS; i++) many[i] = one;
    CHECK(ue_atlas_layout(many, UE_ATLAS_MAX_CELLS + 1, &swap_style, &a) == UE_ERR_USAGE);
    /* 256 cells of 1 × 1: 16 × 16 exactly. */
    REQUIRE(ue_atlas_layout(many, UE_ATLAS_MAX_CELLS, &swap_style, &a) == UE_OK);
    CHECK(a.cols == 16 && a.rows == 16 && a.width == 16 && a.height == 16);
    ue_atlas_free(&a);
    free(many);
    /* 5 images of 5000 × 1: 3 columns (3² ≥ 5) → 15000 wide, within 16384; one 6000 wide: 18000 is not. */
    ue_atlas_image wide[5];
    for (int i = 0; i < 5; i++) wide[i] = (ue_atlas_image){5000, 1, texel};
    REQUIRE(ue_atlas_layout(wide, 5, &swap_style, &a) == UE_OK);
    CHECK(a.width == 15000 && a.height == 2);
    ue_atlas_free(&a);
    wide[4].width = 6000;
    CHECK(ue_atlas_layout(wide, 5, &swap_style, &a) == UE_ERR_LIMIT);
    CHECK(a.width == 18000 && a.height == 2 && a.image_size == NULL); /* for the caller's message */
    ue_atlas_free(&a);
}

int main(void) {
    RUN(swap_layout_and_texels);
    RUN(texture_new_and_reused);
    RUN(step_channel_and_rest);
    RUN(refusals);
    return TEST_SUMMARY();
}
