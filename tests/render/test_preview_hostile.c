/* unearth tests — the preview rasteriser on hostile scenes: overflowing texture transforms, NaN
 * colours, parent links out of range, overflowing node scales (run under UBSan by the asan preset). */
#include "peak_rss.h" /* first: it needs _GNU_SOURCE before any system header */

#include <math.h>

#include "render/render_int.h"
#include "test.h"
#include "unearth/preview.h"

/* As in test_preview.c: a 2 × 2 quad seen from the front at 22 pixels, 10 pixels a unit. */
#define SIDE 22

static const uint8_t TEXELS[4][4] = {
    {200, 10, 20, 255}, {30, 180, 40, 255}, /* top-left, top-right */
    {50, 60, 220, 255}, {240, 230, 70, 255}, /* bottom-left, bottom-right */
};

/* An unlit opaque quad over x, y in -1..1 at z = 0, drawn by a new node under `parent`, with a
 * material of the given texture (or none: -1). Returns the primitive. */
static ue_scene_primitive *add_quad(ue_scene *s, int32_t texture, int32_t parent, unsigned attrs) {
    int32_t m = ue_scene_add_material(s, "mat");
    for (int i = 0; i < 4; i++) s->materials[m].base_color[i] = 1;
    s->materials[m].unlit = true;
    if (texture >= 0) ue_scene_add_texture_slot(s, m, UE_TEX_BASE_COLOR, texture, 0);
    int32_t mesh = ue_scene_add_mesh(s, "quad");
    ue_scene_primitive *p = ue_scene_add_primitive(s, mesh);
    if (ue_scene_primitive_alloc(p, 4, 6, attrs | UE_ATTR_UV0) != UE_OK) return NULL;
    static const float xy[4][2] = {{-1, 1}, {1, 1}, {-1, -1}, {1, -1}};
    static const uint32_t tris[6] = {0, 2, 1, 1, 2, 3};
    for (int v = 0; v < 4; v++) {
        p->positions[3 * v] = xy[v][0];
        p->positions[3 * v + 1] = xy[v][1];
        p->uv[0][2 * v] = (xy[v][0] + 1) / 2;
        p->uv[0][2 * v + 1] = (1 - xy[v][1]) / 2;
    }
    memcpy(p->indices, tris, sizeof tris);
    p->material = m;
    int32_t node = ue_scene_add_node(s, "quad", parent);
    s->nodes[node].mesh = mesh;
    return p;
}

static ue_result render(const ue_scene *s, uint8_t *out, ue_diag *d) {
    ue_preview_options o;
    ue_preview_options_default(&o);
    o.size = SIDE;
    o.view = UE_VIEW_FRONT;
    return ue_preview_render(s, &o, out, d);
}

static const uint8_t *px(const uint8_t *img, int x, int y) { return img + ((size_t)y * SIDE + (size_t)x) * 4; }

static bool pixel_is(const uint8_t *img, int x, int y, const uint8_t want[4]) {
    const uint8_t *p = px(img, x, y);
    bool same = memcmp(p, want, 4) == 0;
    if (!same)
        fprintf(stderr, "pixel (%d, %d) is %u %u %u %u, want %u %u %u %u\n", x, y, p[0], p[1], p[2], p[3], want[0],
                want[1], want[2], want[3]);
    return same;
}

/* UVs of 1e30 scaled by 1e30 overflow a float: clamped to ±FLT_MAX, an integer, whose place in a
 * repeat or mirror period is 0 (the top-left texel) and which clamp-to-edge takes to the last
 * texel (bottom-right). Unclamped, infinity reached the texel index as NaN (UB). */
static void uv_transform_overflow(void) {
    ue_wrap wraps[3] = {UE_WRAP_REPEAT, UE_WRAP_MIRROR, UE_WRAP_CLAMP};
    for (int w = 0; w < 3; w++) {
        for (int sign = -1; sign <= 1; sign += 2) {
            ue_scene s;
            ue_scene_init(&s);
            int32_t t = ue_scene_add_texture(&s, "tex", 2, 2);
            for (int i = 0; i < 4; i++) memcpy(s.textures[t].rgba + 4 * i, TEXELS[i], 4);
            s.textures[t].nearest = true;
            s.textures[t].wrap_s = s.textures[t].wrap_t = wraps[w];
            ue_scene_primitive *p = add_quad(&s, t, -1, 0);
            REQUIRE(p);
            for (int i = 0; i < 8; i++) p->uv[0][i] = 1e30f;
            ue_uv_transform *tr = &s.materials[p->material].slots[0].transform;
            tr->enabled = true;
            tr->scale[0] = tr->scale[1] = (float)sign * 1e30f;
            uint8_t img[SIDE * SIDE * 4];
            REQUIRE(render(&s, img, NULL) == UE_OK);
            const uint8_t *want = wraps[w] != UE_WRAP_CLAMP ? TEXELS[0] : sign > 0 ? TEXELS[3] : TEXELS[0];
            CHECK(pixel_is(img, 10, 10, want));
            CHECK(pixel_is(img, 3, 17, want));
            ue_scene_free(&s);
        }
    }
}

/* A NaN vertex colour channel comes out as 0, the others as they are: (NaN, 1, 0.25) → (0, 255, 64). */
static void nan_vertex_colour(void) {
    ue_scene s;
    ue_scene_init(&s);
    ue_scene_primitive *p = add_quad(&s, -1, -1, UE_ATTR_COLOR);
    REQUIRE(p);
    for (int v = 0; v < 4; v++) {
        float c[4] = {NAN, 1, 0.25f, 1};
        memcpy(p->colors[0] + 4 * v, c, sizeof c);
    }
    uint8_t img[SIDE * SIDE * 4];
    REQUIRE(render(&s, img, NULL) == UE_OK);
    static const uint8_t want[4] = {0, 255, 64, 255};
    CHECK(pixel_is(img, 12, 4, want));
    ue_scene_free(&s);
}

/* A parent index just past the table, far past it, or negative beyond -1 (a root): the first two
 * are refused by name before any read out of the table (ASan), the last is drawn as a root. */
static void parent_out_of_range(void) {
    int32_t parents[3] = {2, 1000, -7};
    for (int i = 0; i < 3; i++) {
        ue_scene s;
        ue_scene_init(&s);
        ue_scene_add_node(&s, "root", -1);
        add_quad(&s, -1, 0, 0);
        s.nodes[1].parent = parents[i];
        uint8_t img[SIDE * SIDE * 4];
        ue_diag d = {0};
        ue_result r = render(&s, img, &d);
        if (parents[i] >= 0) {
            CHECK(r == UE_ERR_INVALID && has_code(&d, "preview.nodes"));
        } else {
            static const uint8_t white[4] = {255, 255, 255, 255};
            CHECK(r == UE_OK && pixel_is(img, 10, 10, white));
        }
        ue_diag_free(&d);
        ue_scene_free(&s);
    }
}

/* Nested scales of 1e30 × 1e30 overflow a float world matrix (NaN where infinity meets 0), of
 * 3e38 × 2 in x and y its diagonal alone (positions ±infinity, z finite): such vertices are left out of the bounds and their
 * triangles out of the image. Alone, there is nothing finite to frame: refused by name; beside a
 * plain quad, the quad is framed and drawn as if alone (extent 2.2, centre 0), with a warning, the
 * overflowing quad (blended) sorted among finite depths only. */
static void overflowing_node_scales(void) {
    for (int variant = 0; variant < 4; variant++) {
        int with_plain = variant & 1;
        ue_scene s;
        ue_scene_init(&s);
        int32_t outer = ue_scene_add_node(&s, "outer", -1), inner = ue_scene_add_node(&s, "inner", outer);
        for (int k = 0; k < 3; k++) {
            s.nodes[outer].scale[k] = variant < 2 ? 1e30f : k < 2 ? 3e38f : 1;
            s.nodes[inner].scale[k] = variant < 2 ? 1e30f : k < 2 ? 2 : 1;
        }
        ue_scene_primitive *huge = add_quad(&s, -1, inner, 0);
        REQUIRE(huge);
        s.materials[huge->material].alpha_mode = UE_ALPHA_BLEND;
        if (with_plain) add_quad(&s, -1, -1, 0);
        uint8_t img[SIDE * SIDE * 4];
        ue_diag d = {0};
        ue_result r = render(&s, img, &d);
        CHECK(has_code(&d, "preview.nonfinite"));
        ue_preview_options o;
        ue_preview_options_default(&o);
        o.size = SIDE;
        o.view = UE_VIEW_FRONT;
        ue_preview_camera cam;
        ue_result rc = ue_preview_camera_get(&s, &o, &cam, NULL);
        if (!with_plain) {
            CHECK(r == UE_ERR_INVALID && rc == UE_ERR_INVALID);
        } else {
            static const uint8_t white[4] = {255, 255, 255, 255}, clear[4] = {0, 0, 0, 0};
            CHECK(r == UE_OK && pixel_is(img, 10, 10, white) && pixel_is(img, 1, 1, white) && pixel_is(img, 0, 0, clear));
            REQUIRE(rc == UE_OK);
            CHECK(fabs(cam.extent - 2.2) < 1e-9 && cam.center[0] == 0 && cam.center[1] == 0 && cam.center[2] == 0);
            CHECK(cam.near_depth == 0 && cam.far_depth == 0);
        }
        ue_diag_free(&d);
        ue_scene_free(&s);
    }
}

/* A rows × rows grid of vertices over x, y in -1..1 (two triangles a cell, normals +Z), drawn by
 * `nodes` nodes, node i moved by offsets[i] in x (0 past the array). */
static void add_instanced_grid(ue_scene *s, uint32_t rows, size_t nodes, const float *offsets, size_t offset_count) {
    int32_t m = ue_scene_add_material(s, "mat");
    for (int i = 0; i < 4; i++) s->materials[m].base_color[i] = 1;
    s->materials[m].unlit = true;
    int32_t mesh = ue_scene_add_mesh(s, "grid");
    ue_scene_primitive *p = ue_scene_add_primitive(s, mesh);
    uint32_t cells = rows - 1;
    if (ue_scene_primitive_alloc(p, rows * rows, 6 * cells * cells, UE_ATTR_NORMAL) != UE_OK) return;
    for (uint32_t y = 0; y < rows; y++)
        for (uint32_t x = 0; x < rows; x++) {
            float *v = p->positions + 3 * (y * rows + x);
            v[0] = -1 + 2.0f * (float)x / (float)cells, v[1] = 1 - 2.0f * (float)y / (float)cells;
            p->normals[3 * (y * rows + x) + 2] = 1;
        }
    uint32_t *idx = p->indices;
    for (uint32_t y = 0; y < cells; y++)
        for (uint32_t x = 0; x < cells; x++) {
            uint32_t a = y * rows + x, b = a + 1, c = a + rows, d = c + 1; /* a b over c d */
            uint32_t quad[6] = {a, c, b, b, c, d};
            memcpy(idx, quad, sizeof quad);
            idx += 6;
        }
    p->material = m;
    for (size_t i = 0; i < nodes; i++) {
        int32_t n = ue_scene_add_node(s, "instance", -1);
        s->nodes[n].mesh = mesh;
        s->nodes[n].translation[0] = i < offset_count ? offsets[i] : 0;
    }
}

/* Each node drawing a shared mesh is posed in its own place, one instance at a time: two quads at
 * x = -2 and 2 frame x -3..3 (extent 6.6, 22/6.6 pixels a unit): their centres at columns 4.3
 * and 17.7, the gap between them (x = 0) at column 11. */
static void instanced_mesh_drawn_in_place(void) {
    ue_scene s;
    ue_scene_init(&s);
    static const float offsets[2] = {-2, 2};
    add_instanced_grid(&s, 3, 2, offsets, 2);
    uint8_t img[SIDE * SIDE * 4];
    REQUIRE(render(&s, img, NULL) == UE_OK);
    static const uint8_t white[4] = {255, 255, 255, 255}, clear[4] = {0, 0, 0, 0};
    CHECK(pixel_is(img, 4, 11, white) && pixel_is(img, 17, 11, white) && pixel_is(img, 11, 11, clear));
    ue_scene_free(&s);
}

typedef struct render_job {
    const ue_scene *scene;
    uint8_t *img;
} render_job;

static int render_in_child(void *arg) {
    const render_job *job = arg;
    return render(job->scene, job->img, NULL) == UE_OK ? 0 : 1;
}

/* A 128 × 128 grid (16384 vertices with normals, 32258 triangles: 48643 of work with the
 * primitive itself) drawn by 37 nodes is within the limit, 2^20 + 16 × 48643 = 1826864 (37 ×
 * 48643 = 1799791): drawn in the memory of one instance, where posing all 37 at once held 37 ×
 * 16384 × 24 bytes = 14.5 MB. 38 nodes are over it: refused by name. */
static void instanced_mesh_bounded(void) {
    ue_scene one, many, over;
    ue_scene_init(&one), ue_scene_init(&many), ue_scene_init(&over);
    add_instanced_grid(&one, 128, 1, NULL, 0);
    add_instanced_grid(&many, 128, 37, NULL, 0);
    add_instanced_grid(&over, 128, 38, NULL, 0);
    uint8_t img[SIDE * SIDE * 4];
    render_job jobs[2] = {{&one, img}, {&many, img}};
    long peak[2];
    for (int i = 0; i < 2; i++) REQUIRE(ue_run_measured(render_in_child, &jobs[i], &peak[i]));
    fprintf(stderr, "peak RSS: one instance %ld KiB, 37 instances %ld KiB\n", peak[0], peak[1]);
    CHECK(peak[1] - peak[0] < 4 * 1024);
    ue_diag d = {0};
    CHECK(render(&over, img, &d) == UE_ERR_LIMIT && has_code(&d, "preview.limit"));
    ue_diag_free(&d);
    ue_scene_free(&one), ue_scene_free(&many), ue_scene_free(&over);
}

/* A corner 16 image sides or more from the image's centre keeps the triangle out (there is no
 * clipping): on a 4-pixel target, centre 2 and limit 64, x = 65 is 63 from the centre (drawn:
 * (0, 0), (65, 0), (0, 4) covers pixel (0, 1), centre (0.5, 1.5)), x = -63 is 65 from it (not
 * drawn: (0, 0), (-63, 4), (4, 4) would cover it too). */
static void triangle_reach_from_centre(void) {
    double far_x[2] = {65, -63};
    for (int i = 0; i < 2; i++) {
        render_target t;
        REQUIRE(render_target_init(&t, 4, (render_rect){0, 0, 4, 4}) == UE_OK);
        render_vertex v[3] = {{0}};
        v[1].x = far_x[i], v[2].y = 4;
        if (far_x[i] < 0) v[1].y = 4, v[2].x = 4;
        for (int k = 0; k < 3; k++) {
            v[k].inv_w = 1;
            for (int c = 0; c < 4; c++) v[k].shade_w[0][c] = v[k].shade_w[1][c] = 1;
        }
        render_paint paint = {NULL, {1, 1, 1, 1}, UE_ALPHA_OPAQUE, 0.5f, true};
        render_triangle(&t, &v[0], &v[1], &v[2], false, &paint);
        CHECK(t.color[(1 * 4 + 0) * 4 + 3] == (far_x[i] > 0 ? 1.0f : 0.0f));
        render_target_free(&t);
    }
}

int main(void) {
    RUN(uv_transform_overflow);
    RUN(nan_vertex_colour);
    RUN(parent_out_of_range);
    RUN(overflowing_node_scales);
    RUN(instanced_mesh_drawn_in_place);
    RUN(instanced_mesh_bounded);
    RUN(triangle_reach_from_centre);
    return TEST_SUMMARY();
}
