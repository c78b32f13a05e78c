/* unearth tests — the naming rule of texture files (src/cli/texture_files.c): the IMAGE part of
 * odd names, and which textures of a scene share a file (same name and pixels) or get "~N". */
#include <stdio.h>
#include <string.h>

#include "cli/texture_files.h"
#include "test.h"

static void part(const char *image, const char *want) {
    char out[256];
    texture_file_part(image, out, sizeof out);
    CHECK_STR(out, want);
}

/* Letters of every script stay; dots, spaces, separators, controls and broken UTF-8 do not. */
static void image_parts_are_safe(void) {
    part("ROBOT_BODY.0", "ROBOT_BODY_0");
    part("a/b\\c:d*e", "a_b_c_d_e");
    part("x y\t#z", "x_y__z");
    part("РОБОТ.кожа", "РОБОТ_кожа");
    part("a\xC2\xA0" "b", "a_b");       /* U+00A0, a space an MTL reader may split at */
    part("a\xE3\x80\x80" "b", "a_b");   /* U+3000 */
    part("bad\xC0\xAF", "bad__");       /* an overlong '/' is two bytes that are not UTF-8 */
    part("..", "__");
    part("", "image");
}

static int32_t texture(ue_scene *s, const char *name, uint8_t value) {
    int32_t t = ue_scene_add_texture(s, name, 2, 2);
    if (t >= 0) memset(s->textures[t].rgba, value, 16);
    return t;
}

/* 0 and 1: one name, one image → one file; 2: that name, other pixels → ~2; 3: the name in
 * other letter case → ~3 (a file system that ignores case); 4: a new name. */
static void equal_images_share_a_file(void) {
    ue_scene s;
    ue_scene_init(&s);
    REQUIRE(texture(&s, "skin", 10) == 0 && texture(&s, "skin", 10) == 1 && texture(&s, "skin", 20) == 2 &&
            texture(&s, "SKIN", 30) == 3 && texture(&s, "eye.0", 10) == 4);
    texture_files f;
    REQUIRE(texture_files_make(&s, "robot", false, &f) == UE_OK);
    CHECK_EQ_U(f.count, 4);
    CHECK_STR(f.of_texture[0], "robot.skin.png");
    CHECK(f.of_texture[1] == f.of_texture[0]);
    CHECK_STR(f.of_texture[2], "robot.skin~2.png");
    CHECK_STR(f.of_texture[3], "robot.SKIN~3.png");
    CHECK_STR(f.of_texture[4], "robot.eye_0.png");
    CHECK(f.files[0].png.size > 8 && !memcmp(f.files[0].png.data, "\x89PNG", 4));
    texture_files_free(&f);
    /* map_kd_only: only the base colours of materials get files */
    int32_t m = ue_scene_add_material(&s, "body");
    REQUIRE(m >= 0 && ue_scene_add_texture_slot(&s, m, UE_TEX_BASE_COLOR, 2, 0) >= 0);
    REQUIRE(texture_files_make(&s, "robot", true, &f) == UE_OK);
    CHECK_EQ_U(f.count, 1);
    CHECK_STR(f.of_texture[2], "robot.skin.png");
    CHECK(f.of_texture[0] == NULL && f.of_texture[4] == NULL);
    texture_files_free(&f);
    ue_scene_free(&s);
}

int main(void) {
    RUN(image_parts_are_safe);
    RUN(equal_images_share_a_file);
    return TEST_SUMMARY();
}
