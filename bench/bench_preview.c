/* Benchmark: the preview rasteriser — a textured, lit sphere of 20,000 triangles drawn at 512 × 512
 * (iso view) on one thread; prints the median CPU time and its ratio to the 30 ms goal. Never pass/fail. */
#define _DEFAULT_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "unearth/preview.h"

#define RINGS 100
#define SEGMENTS 100 /* 2 × RINGS × SEGMENTS = 20,000 triangles */
#define SIDE 512
#define GOAL_MS 30.0
#define RUNS 21

/* CPU time of this thread: the work of one core, whatever else the machine runs. */
static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A UV sphere of radius 1 with normals and a 256 × 256 checker texture, repeat + bilinear. */
static int build(ue_scene *s) {
    ue_scene_init(s);
    int32_t tex = ue_scene_add_texture(s, "checker", 256, 256);
    if (tex < 0) return 1;
    for (uint32_t y = 0; y < 256; y++)
        for (uint32_t x = 0; x < 256; x++) {
            uint8_t *p = s->textures[tex].rgba + (y * 256 + x) * 4;
            int on = ((x / 16) + (y / 16)) & 1;
            p[0] = on ? 230 : 40, p[1] = on ? 180 : 90, p[2] = (uint8_t)x, p[3] = 255;
        }
    int32_t mat = ue_scene_add_material(s, "mat");
    for (int i = 0; i < 4; i++) s->materials[mat].base_color[i] = 1;
    ue_scene_add_texture_slot(s, mat, UE_TEX_BASE_COLOR, tex, 0);
    int32_t mesh = ue_scene_add_mesh(s, "sphere");
    ue_scene_primitive *p = ue_scene_add_primitive(s, mesh);
    uint32_t verts = (RINGS + 1) * (SEGMENTS + 1);
    if (ue_scene_primitive_alloc(p, verts, 6 * RINGS * SEGMENTS, UE_ATTR_NORMAL | UE_ATTR_UV0) != UE_OK) return 1;
    for (uint32_t r = 0; r <= RINGS; r++)
        for (uint32_t g = 0; g <= SEGMENTS; g++) {
            double theta = M_PI * r / RINGS, phi = 2 * M_PI * g / SEGMENTS;
            uint32_t v = r * (SEGMENTS + 1) + g;
            double n[3] = {sin(theta) * cos(phi), cos(theta), -sin(theta) * sin(phi)};
            for (int k = 0; k < 3; k++) p->positions[3 * v + k] = p->normals[3 * v + k] = (float)n[k];
            p->uv[0][2 * v] = (float)(4.0 * g / SEGMENTS);
            p->uv[0][2 * v + 1] = (float)(2.0 * r / RINGS);
        }
    uint32_t *ix = p->indices;
    for (uint32_t r = 0; r < RINGS; r++)
        for (uint32_t g = 0; g < SEGMENTS; g++) {
            uint32_t a = r * (SEGMENTS + 1) + g, b = a + SEGMENTS + 1;
            *ix++ = a, *ix++ = b, *ix++ = a + 1;
            *ix++ = a + 1, *ix++ = b, *ix++ = b + 1;
        }
    p->material = mat;
    int32_t node = ue_scene_add_node(s, "sphere", -1);
    s->nodes[node].mesh = mesh;
    return 0;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(void) {
    ue_scene s;
    if (build(&s)) return 3;
    ue_preview_options o;
    ue_preview_options_default(&o);
    o.size = SIDE;
    uint8_t *rgba = malloc((size_t)SIDE * SIDE * 4);
    if (!rgba) return 3;
    double times[RUNS];
    for (int i = 0; i < RUNS; i++) {
        double t0 = now();
        if (ue_preview_render(&s, &o, rgba, NULL) != UE_OK) return 1;
        times[i] = (now() - t0) * 1000;
    }
    qsort(times, RUNS, sizeof times[0], by_value);
    size_t covered = 0;
    for (size_t i = 0; i < (size_t)SIDE * SIDE; i++) covered += rgba[i * 4 + 3] != 0;
    printf("preview: %d triangles, textured and lit, %dx%d iso, %zu pixels covered\n", 2 * RINGS * SEGMENTS, SIDE,
           SIDE, covered);
    printf("  median %.2f ms of CPU (min %.2f, max %.2f over %d runs); goal %.0f ms: %.2fx the goal\n", times[RUNS / 2],
           times[0], times[RUNS - 1], RUNS, GOAL_MS, times[RUNS / 2] / GOAL_MS);
    free(rgba);
    ue_scene_free(&s);
    return 0;
}
