/* unearth tests — the preview rasteriser against images computed by hand: a textured quad (texels,
 * wraps, filters, UV transforms), a depth-crossing pair, alpha mask and blend, light, a skinned joint. */
#include <math.h>

#include "test.h"
#include "unearth/preview.h"

/* Every scene below is framed the same way: its bounds 2 × 2 in X and Y, seen from the front
 * at 22 pixels, so the image spans 2 × 1.1 = 2.2 units: 10 pixels a unit, the bounds' edges on
 * pixel boundaries 1 and 21. Pixel column px has its centre at x = (px + 0.5) / 10 - 1.1, row
 * py at y = 1.1 - (py + 0.5) / 10. */
#define SIDE 22

static const uint8_t TEXELS[4][4] = {
    {200, 10, 20, 255}, {30, 180, 40, 255}, /* top-left, top-right */
    {50, 60, 220, 255}, {240, 230, 70, 255}, /* bottom-left, bottom-right */
};

/* A 2 × 2 texture of TEXELS with the given alpha per texel. */
static int32_t add_texture(ue_scene *s, bool nearest, ue_wrap wrap, const uint8_t alpha[4]) {
    int32_t t = ue_scene_add_texture(s, "tex", 2, 2);
    ue_scene_texture *tex = &s->textures[t];
    for (int i = 0; i < 4; i++) {
        memcpy(tex->rgba + 4 * i, TEXELS[i], 4);
        if (alpha) tex->rgba[4 * i + 3] = alpha[i];
    }
    tex->nearest = nearest;
    tex->wrap_s = tex->wrap_t = wrap;
    return t;
}

static int32_t add_material(ue_scene *s, int32_t texture, ue_alpha_mode mode, bool unlit) {
    int32_t m = ue_scene_add_material(s, "mat");
    ue_scene_material *mat = &s->materials[m];
    for (int i = 0; i < 4; i++) mat->base_color[i] = 1;
    mat->alpha_mode = mode;
    mat->alpha_cutoff = 0.5f;
    mat->unlit = unlit;
    if (texture >= 0) ue_scene_add_texture_slot(s, m, UE_TEX_BASE_COLOR, texture, 0);
    return m;
}

/* A quad over x, y in -1..1 at depth z = zx·x + z0, counter-clockwise seen from +Z, UV (0,0) at
 * its top-left corner; drawn by a new node. Returns the primitive. */
static ue_scene_primitive *add_quad(ue_scene *s, int32_t material, float zx, float z0, unsigned attrs) {
    int32_t mesh = ue_scene_add_mesh(s, "quad");
    ue_scene_primitive *p = ue_scene_add_primitive(s, mesh);
    if (ue_scene_primitive_alloc(p, 4, 6, attrs | UE_ATTR_UV0) != UE_OK) return NULL;
    static const float xy[4][2] = {{-1, 1}, {1, 1}, {-1, -1}, {1, -1}};
    static const uint32_t tris[6] = {0, 2, 1, 1, 2, 3};
    for (int v = 0; v < 4; v++) {
        p->positions[3 * v] = xy[v][0];
        p->positions[3 * v + 1] = xy[v][1];
        p->positions[3 * v + 2] = zx * xy[v][0] + z0;
        p->uv[0][2 * v] = (xy[v][0] + 1) / 2;
        p->uv[0][2 * v + 1] = (1 - xy[v][1]) / 2;
    }
    memcpy(p->indices, tris, sizeof tris);
    p->material = material;
    int32_t node = ue_scene_add_node(s, "quad", -1);
    s->nodes[node].mesh = mesh;
    return p;
}

static ue_result render(const ue_scene *s, bool transparent, const uint8_t bg[3], uint8_t *out) {
    ue_preview_options o;
    ue_preview_options_default(&o);
    o.size = SIDE;
    o.view = UE_VIEW_FRONT;
    o.transparent = transparent;
    if (bg) memcpy(o.background_rgb, bg, 3);
    ue_diag d = {0};
    ue_result r = ue_preview_render(s, &o, out, &d);
    dump_diag(&d);
    ue_diag_free(&d);
    return r;
}

static const uint8_t *px(const uint8_t *img, int x, int y) { return img + ((size_t)y * SIDE + (size_t)x) * 4; }

#define CHECK_PIXEL(img, x, y, r, g, b, a)                                                         \
    do {                                                                                           \
        const uint8_t *p_ = px(img, x, y);                                                         \
        CHECK_EQ_U(p_[0], r);                                                                      \
        CHECK_EQ_U(p_[1], g);                                                                      \
        CHECK_EQ_U(p_[2], b);                                                                      \
        CHECK_EQ_U(p_[3], a);                                                                      \
    } while (0)

/* A pixel within one step of the expected value (bilinear weights in float). */
static void check_near(const uint8_t *p, const double want[3], int line) {
    for (int k = 0; k < 3; k++)
        if (fabs(p[k] - want[k]) > 1.0) {
            fprintf(stderr, "line %d: channel %d is %u, want %.2f\n", line, k, p[k], want[k]);
            ue_test_failed_checks++;
        }
}

static void textured_quad_nearest(void) {
    ue_scene s;
    ue_scene_init(&s);
    add_quad(&s, add_material(&s, add_texture(&s, true, UE_WRAP_CLAMP, NULL), UE_ALPHA_OPAQUE, true), 0, 0, 0);
    uint8_t img[SIDE * SIDE * 4];
    REQUIRE(render(&s, true, NULL, img) == UE_OK);
    /* u = (px - 0.5) / 20: columns 1..10 read texel column 0, 11..20 column 1; rows alike */
    CHECK_PIXEL(img, 5, 5, 200, 10, 20, 255);
    CHECK_PIXEL(img, 1, 10, 200, 10, 20, 255);
    CHECK_PIXEL(img, 11, 10, 30, 180, 40, 255);
    CHECK_PIXEL(img, 15, 5, 30, 180, 40, 255);
    CHECK_PIXEL(img, 5, 15, 50, 60, 220, 255);
    CHECK_PIXEL(img, 20, 20, 240, 230, 70, 255);
    CHECK_PIXEL(img, 0, 0, 0, 0, 0, 0); /* outside the quad: the transparent background */
    CHECK_PIXEL(img, 21, 21, 0, 0, 0, 0);
    CHECK_PIXEL(img, 10, 21, 0, 0, 0, 0);
    ue_scene_free(&s);
}

/* The bilinear mix at a pixel whose texel-space position is fx, fy past texel (0, 0)'s centre;
 * `wrapped`: the texel before column/row 0 is column/row 1 (repeat) rather than 0 (clamp). */
static void bilinear_want(double fx, double fy, double want[3]) {
    for (int k = 0; k < 3; k++)
        want[k] = TEXELS[0][k] * (1 - fx) * (1 - fy) + TEXELS[1][k] * fx * (1 - fy) + TEXELS[2][k] * (1 - fx) * fy +
                  TEXELS[3][k] * fx * fy;
}

static void textured_quad_bilinear_wraps(void) {
    uint8_t img[SIDE * SIDE * 4];
    double want[3];
    ue_wrap wraps[3] = {UE_WRAP_REPEAT, UE_WRAP_CLAMP, UE_WRAP_MIRROR};
    for (int w = 0; w < 3; w++) {
        ue_scene s;
        ue_scene_init(&s);
        add_quad(&s, add_material(&s, add_texture(&s, false, wraps[w], NULL), UE_ALPHA_OPAQUE, true), 0, 0, 0);
        REQUIRE(render(&s, true, NULL, img) == UE_OK);
        /* pixel (10, 10): u = v = 0.475, texel position 0.95 - 0.5 = 0.45 past texel 0's centre */
        bilinear_want(0.45, 0.45, want);
        check_near(px(img, 10, 10), want, __LINE__);
        /* pixel (1, 1): u = v = 0.025, position -0.45: 0.55 of texel 0 and 0.45 of the texel
         * before it, which is texel 1 when repeating and texel 0 when clamped or mirrored */
        if (wraps[w] == UE_WRAP_REPEAT) bilinear_want(0.45, 0.45, want);
        else bilinear_want(0, 0, want);
        check_near(px(img, 1, 1), want, __LINE__);
        ue_scene_free(&s);
    }
}

static void texture_transforms(void) {
    uint8_t img[SIDE * SIDE * 4];
    ue_scene s;
    ue_scene_init(&s);
    int32_t m = add_material(&s, add_texture(&s, true, UE_WRAP_REPEAT, NULL), UE_ALPHA_OPAQUE, true);
    add_quad(&s, m, 0, 0, 0);
    ue_uv_transform *t = &s.materials[m].slots[0].transform;
    t->enabled = true;
    t->offset[0] = 0.5f; /* u + 0.5: the left half reads the right texel column */
    REQUIRE(render(&s, true, NULL, img) == UE_OK);
    CHECK_PIXEL(img, 5, 5, 30, 180, 40, 255);
    CHECK_PIXEL(img, 15, 5, 200, 10, 20, 255);
    /* a quarter turn counter-clockwise: (u, v) -> (-v, u). Pixel (5, 15): u = 0.225, v = 0.725
     * -> (-0.725, 0.225) = (0.275, 0.225) repeated: the top-left texel (unrotated: bottom-left) */
    t->offset[0] = 0;
    t->rotation = (float)(acos(-1.0) / 2);
    REQUIRE(render(&s, true, NULL, img) == UE_OK);
    CHECK_PIXEL(img, 5, 15, 200, 10, 20, 255);
    /* pixel (15, 15): (0.725, 0.725) -> (-0.725, 0.725) = (0.275, 0.725): bottom-left */
    CHECK_PIXEL(img, 15, 15, 50, 60, 220, 255);
    /* scale 2 in u: pixel (8, 5), u = 0.375 -> 0.75: the right column */
    t->rotation = 0;
    t->scale[0] = 2;
    REQUIRE(render(&s, true, NULL, img) == UE_OK);
    CHECK_PIXEL(img, 8, 5, 30, 180, 40, 255);
    CHECK_PIXEL(img, 3, 5, 200, 10, 20, 255); /* u = 0.125 -> 0.25 */
    ue_scene_free(&s);
}

static void depth_crossing_pair(void) {
    /* Red at z = x and green at z = -x cross at x = 0; the camera is on +Z, so the larger z is
     * nearer: green wins left of the crossing, red right of it, in either drawing order. */
    for (int order = 0; order < 2; order++) {
        ue_scene s;
        ue_scene_init(&s);
        int32_t red = add_material(&s, -1, UE_ALPHA_OPAQUE, true), green = add_material(&s, -1, UE_ALPHA_OPAQUE, true);
        s.materials[red].base_color[1] = s.materials[red].base_color[2] = 0;
        s.materials[green].base_color[0] = s.materials[green].base_color[2] = 0;
        add_quad(&s, order ? green : red, order ? -1.0f : 1.0f, 0, 0);
        add_quad(&s, order ? red : green, order ? 1.0f : -1.0f, 0, 0);
        uint8_t img[SIDE * SIDE * 4];
        REQUIRE(render(&s, true, NULL, img) == UE_OK);
        CHECK_PIXEL(img, 5, 10, 0, 255, 0, 255);  /* x = -0.55: green at z 0.55, red at -0.55 */
        CHECK_PIXEL(img, 10, 3, 0, 255, 0, 255);  /* x = -0.05 */
        CHECK_PIXEL(img, 11, 3, 255, 0, 0, 255);  /* x = 0.05 */
        CHECK_PIXEL(img, 18, 17, 255, 0, 0, 255);
        ue_scene_free(&s);
    }
}

static void alpha_mask_cutout(void) {
    ue_scene s;
    ue_scene_init(&s);
    static const uint8_t alpha[4] = {100, 200, 127, 128}; /* cutoff 0.5 = 127.5 of 255 */
    add_quad(&s, add_material(&s, add_texture(&s, true, UE_WRAP_CLAMP, alpha), UE_ALPHA_MASK, true), 0, 0, 0);
    uint8_t img[SIDE * SIDE * 4];
    REQUIRE(render(&s, true, NULL, img) == UE_OK);
    CHECK_PIXEL(img, 5, 5, 0, 0, 0, 0);          /* 100 < 127.5: cut out */
    CHECK_PIXEL(img, 15, 5, 30, 180, 40, 255);   /* 200: kept, opaque */
    CHECK_PIXEL(img, 5, 15, 0, 0, 0, 0);         /* 127 < 127.5 */
    CHECK_PIXEL(img, 15, 15, 240, 230, 70, 255); /* 128 */
    ue_scene_free(&s);
}

static void alpha_blend_sorted(void) {
    /* Near red (z 0.5) and far green (z -0.5), both alpha 0.5, the near one first in the scene,
     * over opaque black: back to front gives green then red over it, (127.5, 63.75, 0). */
    ue_scene s;
    ue_scene_init(&s);
    int32_t red = add_material(&s, -1, UE_ALPHA_BLEND, true), green = add_material(&s, -1, UE_ALPHA_BLEND, true);
    float red_c[4] = {1, 0, 0, 0.5f}, green_c[4] = {0, 1, 0, 0.5f};
    memcpy(s.materials[red].base_color, red_c, sizeof red_c);
    memcpy(s.materials[green].base_color, green_c, sizeof green_c);
    add_quad(&s, red, 0, 0.5f, 0);
    add_quad(&s, green, 0, -0.5f, 0);
    uint8_t img[SIDE * SIDE * 4];
    static const uint8_t black[3] = {0, 0, 0}, blue[3] = {0, 0, 255};
    REQUIRE(render(&s, false, black, img) == UE_OK);
    CHECK_PIXEL(img, 10, 10, 128, 64, 0, 255);
    CHECK_PIXEL(img, 0, 10, 0, 0, 0, 255);
    ue_scene_free(&s);
    /* one quarter-opaque red over blue: (63.75, 0, 191.25) */
    ue_scene_init(&s);
    red = add_material(&s, -1, UE_ALPHA_BLEND, true);
    float quarter[4] = {1, 0, 0, 0.25f};
    memcpy(s.materials[red].base_color, quarter, sizeof quarter);
    add_quad(&s, red, 0, 0, 0);
    REQUIRE(render(&s, false, blue, img) == UE_OK);
    CHECK_PIXEL(img, 10, 10, 64, 0, 191, 255);
    ue_scene_free(&s);
}

static void light_colours_and_culling(void) {
    /* The key light in camera axes is (-1, 2, 2) / 3: a face toward the camera gets
     * 0.4 + 0.6 × 2/3 = 0.8 (204), from its normals or, without them, from its winding. */
    uint8_t img[SIDE * SIDE * 4];
    for (int with_normals = 0; with_normals < 2; with_normals++) {
        ue_scene s;
        ue_scene_init(&s);
        ue_scene_primitive *p = add_quad(&s, add_material(&s, -1, UE_ALPHA_OPAQUE, false), 0, 0,
                                         with_normals ? UE_ATTR_NORMAL : 0);
        for (int v = 0; with_normals && v < 4; v++) p->normals[3 * v + 2] = 1;
        REQUIRE(render(&s, true, NULL, img) == UE_OK);
        CHECK_PIXEL(img, 7, 13, 204, 204, 204, 255);
        ue_scene_free(&s);
    }
    /* Seen from behind the quad is a back face: culled, unless its material is two-sided, which
     * lights it from the side the camera sees (the normal turned to it): 0.8 again. */
    ue_scene s;
    ue_scene_init(&s);
    int32_t m = add_material(&s, -1, UE_ALPHA_OPAQUE, false);
    add_quad(&s, m, 0, 0, 0);
    ue_preview_options o;
    ue_preview_options_default(&o);
    o.size = SIDE;
    o.view = UE_VIEW_BACK;
    REQUIRE(ue_preview_render(&s, &o, img, NULL) == UE_OK);
    CHECK_PIXEL(img, 7, 13, 0, 0, 0, 0);
    s.materials[m].double_sided = true;
    REQUIRE(ue_preview_render(&s, &o, img, NULL) == UE_OK);
    CHECK_PIXEL(img, 7, 13, 204, 204, 204, 255);
    ue_scene_free(&s);
    /* vertex colours multiply: (0.5, 1, 0.25) unlit -> (128, 255, 64) */
    ue_scene_init(&s);
    ue_scene_primitive *p = add_quad(&s, add_material(&s, -1, UE_ALPHA_OPAQUE, true), 0, 0, UE_ATTR_COLOR);
    for (int v = 0; v < 4; v++) {
        float c[4] = {0.5f, 1, 0.25f, 1};
        memcpy(p->colors[0] + 4 * v, c, sizeof c);
    }
    REQUIRE(render(&s, true, NULL, img) == UE_OK);
    CHECK_PIXEL(img, 12, 4, 128, 255, 64, 255);
    ue_scene_free(&s);
}

/* A joint at (1, 0, 0) whose clip turns it about Z, at 10 fps, from rest (t = 0) to half a turn
 * (t = 1 s); a triangle A (1,0,0), B (2,0,0), C (1,1,0) bound to it with the inverse bind
 * matrix translate(-1, 0, 0). */
static void skinned_scene(ue_scene *s) {
    ue_scene_init(s);
    int32_t m = add_material(s, -1, UE_ALPHA_OPAQUE, true);
    s->materials[m].double_sided = true;
    int32_t mesh = ue_scene_add_mesh(s, "tri");
    ue_scene_primitive *p = ue_scene_add_primitive(s, mesh);
    ue_scene_primitive_alloc(p, 3, 3, UE_ATTR_SKIN);
    static const float pos[9] = {1, 0, 0, 2, 0, 0, 1, 1, 0};
    memcpy(p->positions, pos, sizeof pos);
    for (uint32_t i = 0; i < 3; i++) {
        p->indices[i] = i;
        p->joints[4 * i] = 0;
        p->weights[4 * i] = 1;
    }
    p->material = m;
    int32_t holder = ue_scene_add_node(s, "skinned", -1), joint = ue_scene_add_node(s, "bone", -1);
    s->nodes[joint].translation[0] = 1;
    int32_t skin = ue_scene_add_skin(s, "skin", 1);
    s->skins[skin].joints[0] = joint;
    s->skins[skin].inverse_bind[12] = -1;
    s->nodes[holder].mesh = mesh;
    s->nodes[holder].skin = skin;
    int32_t a = ue_scene_add_animation(s, "turn");
    s->animations[a].fps = 10;
    ue_anim_channel *c = ue_scene_add_channel(s, a, UE_TARGET_ROTATION, UE_INTERP_LINEAR, 2);
    c->node = joint;
    c->times[1] = 1;
    float keys[8] = {0, 0, 0, 1, 0, 0, 1, 0};
    memcpy(c->values, keys, sizeof keys);
}

static void skinned_joint_at_frame(void) {
    ue_scene s;
    skinned_scene(&s);
    uint8_t img[SIDE * SIDE * 4];
    ue_preview_options o;
    ue_preview_options_default(&o);
    o.size = SIDE;
    o.view = UE_VIEW_FRONT;
    /* Bind pose: bounds x 1..2, y 0..1 (1 × 1: 20 pixels a unit, the bounds on pixels 1..21):
     * A at pixel corner (1, 21), B (21, 21), C (1, 1); covered where column <= row. */
    REQUIRE(ue_preview_render(&s, &o, img, NULL) == UE_OK);
    CHECK_PIXEL(img, 2, 12, 255, 255, 255, 255);
    CHECK_PIXEL(img, 20, 2, 0, 0, 0, 0);
    /* Frame 5 at 10 fps = 0.5 s: a quarter turn about the joint at (1, 0, 0). A stays, B goes to
     * (1, 1, 0), C to (0, 0, 0); bounds x 0..1, y 0..1: A at (21, 21), B at (21, 1), C at (1, 21);
     * covered where column + row >= 22 (centres at +0.5). */
    o.clip = "turn";
    o.frame = 5;
    ue_preview_camera cam;
    REQUIRE(ue_preview_camera_get(&s, &o, &cam, NULL) == UE_OK);
    CHECK(fabs(cam.center[0] - 0.5) < 1e-6 && fabs(cam.center[1] - 0.5) < 1e-6);
    CHECK(fabs(cam.extent - 1.1) < 1e-6);
    REQUIRE(ue_preview_render(&s, &o, img, NULL) == UE_OK);
    CHECK_PIXEL(img, 20, 2, 255, 255, 255, 255); /* B's corner: (20.5, 2.5) is inside */
    CHECK_PIXEL(img, 2, 12, 0, 0, 0, 0);
    CHECK_PIXEL(img, 10, 10, 0, 0, 0, 0);        /* 10.5 + 10.5 = 21 < 22 */
    CHECK_PIXEL(img, 12, 11, 255, 255, 255, 255);
    /* frame 0 is the rest pose */
    o.frame = 0;
    REQUIRE(ue_preview_render(&s, &o, img, NULL) == UE_OK);
    CHECK_PIXEL(img, 2, 12, 255, 255, 255, 255);
    /* a frame past the end (10) and a clip the scene has not: usage errors that say so */
    ue_diag d = {0};
    o.frame = 11;
    CHECK(ue_preview_render(&s, &o, img, &d) == UE_ERR_USAGE && has_code(&d, "preview.frame"));
    o.clip = "walk";
    o.frame = 0;
    CHECK(ue_preview_render(&s, &o, img, &d) == UE_ERR_USAGE && has_code(&d, "preview.clip"));
    ue_diag_free(&d);
    ue_scene_free(&s);
}

static void options_and_views(void) {
    ue_preview_view v;
    CHECK(ue_preview_view_parse("ISO", &v) == UE_OK && v == UE_VIEW_ISO);
    CHECK(ue_preview_view_parse("left", &v) == UE_OK && v == UE_VIEW_LEFT);
    CHECK(ue_preview_view_parse("side", &v) == UE_ERR_USAGE);
    CHECK(ue_preview_view_parse("fron", &v) == UE_ERR_USAGE);
    CHECK_STR(ue_preview_view_name(UE_VIEW_TOP), "top");
    ue_preview_options o;
    ue_preview_options_default(&o);
    CHECK(o.size == 256 && o.view == UE_VIEW_ISO && o.transparent && !o.clip);
    ue_scene s;
    ue_scene_init(&s);
    uint8_t img[4];
    o.size = 0;
    CHECK(ue_preview_render(&s, &o, img, NULL) == UE_ERR_USAGE);
    o.size = 1; /* nothing to draw: the background alone */
    o.transparent = false;
    o.background_rgb[0] = 9;
    CHECK(ue_preview_render(&s, &o, img, NULL) == UE_OK && img[0] == 9 && img[3] == 255);
    /* the iso camera looks along -(1, 1, 1) with +Y up: right is (1, 0, -1) / sqrt 2 */
    ue_preview_camera cam;
    o.view = UE_VIEW_ISO;
    REQUIRE(ue_preview_camera_get(&s, &o, &cam, NULL) == UE_OK);
    CHECK(cam.empty && fabs(cam.right[0] - sqrt(0.5)) < 1e-12 && fabs(cam.right[2] + sqrt(0.5)) < 1e-12);
    CHECK(fabs(cam.up[1] - sqrt(2.0 / 3)) < 1e-12);
    o.view = UE_VIEW_TOP; /* from +Y, the model's front (+Z) at the bottom: up is -Z, right +X */
    REQUIRE(ue_preview_camera_get(&s, &o, &cam, NULL) == UE_OK);
    CHECK(cam.up[2] == -1 && cam.right[0] == 1);
    /* the four side views' forward, up and right, as docs/preview.md#views gives them */
    static const struct { ue_preview_view view; double axes[3][3]; } sides[4] = {
        {UE_VIEW_FRONT, {{0, 0, -1}, {0, 1, 0}, {1, 0, 0}}},
        {UE_VIEW_BACK, {{0, 0, 1}, {0, 1, 0}, {-1, 0, 0}}},
        {UE_VIEW_LEFT, {{-1, 0, 0}, {0, 1, 0}, {0, 0, -1}}},
        {UE_VIEW_RIGHT, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}},
    };
    for (int i = 0; i < 4; i++) {
        o.view = sides[i].view;
        REQUIRE(ue_preview_camera_get(&s, &o, &cam, NULL) == UE_OK);
        const double *got[3] = {cam.forward, cam.up, cam.right};
        for (int a = 0; a < 3; a++)
            for (int k = 0; k < 3; k++) CHECK(got[a][k] == sides[i].axes[a][k]);
    }
    ue_scene_free(&s);
}

static void contact_sheet(void) {
    uint8_t red[4 * 4 * 4], wide[4 * 2 * 4];
    for (int i = 0; i < 16; i++) memcpy(red + 4 * i, (uint8_t[]){255, 0, 0, 255}, 4);
    for (int i = 0; i < 8; i++) memcpy(wide + 4 * i, (uint8_t[]){0, 0, 255, 255}, 4);
    ue_sheet_cell cells[3] = {{red, 4, 4, "a"}, {wide, 4, 2, "b"}, {red, 4, 4, "a-very-long-name-cut"}};
    ue_sheet_options o;
    ue_sheet_options_default(&o);
    o.cell = 16;
    uint8_t *img = NULL;
    uint32_t w, h;
    REQUIRE(ue_sheet_compose(cells, 3, &o, &img, &w, &h, NULL) == UE_OK);
    /* two columns: 4 + 2 × (16 + 4) = 44 wide; two rows of 16 + 12 label + 4 */
    CHECK_EQ_U(w, 44);
    CHECK_EQ_U(h, 4 + 2 * (16 + 12 + 4));
    CHECK(img[(4 * w + 4) * 4] == 255 && img[(4 * w + 4) * 4 + 3] == 255); /* cell 0's first pixel */
    /* cell 1 (x 24..39, y 4..19) holds the 4 × 2 image scaled to 16 × 8, centred: rows 8..15 */
    CHECK(img[(7 * w + 24) * 4 + 3] == 0);
    CHECK(img[(8 * w + 24) * 4 + 2] == 255 && img[(15 * w + 39) * 4 + 2] == 255);
    CHECK(img[(16 * w + 24) * 4 + 3] == 0);
    /* the label 'a' under cell 0 (centred: x = 4 + (16 - 6 + 1) / 2 = 9), glyph row 2 is 0x0E:
     * pixels 1..3 of the glyph, at y = 4 + 16 + 1 + 1 + 2 */
    size_t row = 4 + 16 + 1 + 1 + 2;
    CHECK(img[(row * w + 9) * 4 + 3] == 0 && img[(row * w + 10) * 4 + 3] == 255 && img[(row * w + 12) * 4 + 3] == 255);
    free(img);
    CHECK(ue_sheet_compose(cells, 0, &o, &img, &w, &h, NULL) == UE_ERR_USAGE);
}

int main(void) {
    RUN(textured_quad_nearest);
    RUN(textured_quad_bilinear_wraps);
    RUN(texture_transforms);
    RUN(depth_crossing_pair);
    RUN(alpha_mask_cutout);
    RUN(alpha_blend_sorted);
    RUN(light_colours_and_culling);
    RUN(skinned_joint_at_frame);
    RUN(options_and_views);
    RUN(contact_sheet);
    return TEST_SUMMARY();
}
