/* Benchmark: glTF → MSH. Builds a corpus of .glb files in memory (N = 1,000 by default of
 * each: the sample robot converted with `--lod all`, each copy scaled a little, and a
 * 64 × 64-quad grid model), then measures read + ue_msh_from_scene + write in CPU seconds on one core, and
 * peak memory. */
#define _DEFAULT_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "samples/samples.h"
#include "unearth/gltf.h"
#include "unearth/gltf_read.h"
#include "unearth/msh.h"
#include "unearth/msh_import.h"

/* CPU time of this process: the machine may be shared, and the work is on one core. */
static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long peak_rss_kb(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

/* A wavy grid of n × n quads on one node, as a scene. */
static ue_result grid_scene(size_t n, float phase, ue_scene *s) {
    ue_scene_init(s);
    int32_t node = ue_scene_add_node(s, "grid", -1), mesh = ue_scene_add_mesh(s, "grid");
    ue_scene_primitive *p = node >= 0 && mesh >= 0 ? ue_scene_add_primitive(s, mesh) : NULL;
    uint32_t nv = (uint32_t)((n + 1) * (n + 1)), ni = (uint32_t)(n * n * 6);
    if (!p || ue_scene_primitive_alloc(p, nv, ni, UE_ATTR_NORMAL | UE_ATTR_UV0) != UE_OK) return UE_ERR_NOMEM;
    s->nodes[node].mesh = mesh;
    for (size_t y = 0, v = 0; y <= n; y++)
        for (size_t x = 0; x <= n; x++, v++) {
            p->positions[3 * v] = (float)x / (float)n;
            p->positions[3 * v + 1] = 0.05f * sinf((float)(x + y) + phase);
            p->positions[3 * v + 2] = (float)y / (float)n;
            p->normals[3 * v + 1] = 1;
            p->uv[0][2 * v] = p->positions[3 * v], p->uv[0][2 * v + 1] = p->positions[3 * v + 2];
        }
    for (size_t y = 0, k = 0; y < n; y++)
        for (size_t x = 0; x < n; x++) {
            uint32_t a = (uint32_t)(y * (n + 1) + x), b = a + 1, c = a + (uint32_t)n + 1, d = c + 1;
            uint32_t q[6] = {a, c, b, b, c, d};
            memcpy(&p->indices[k], q, sizeof q);
            k += 6;
        }
    return UE_OK;
}

static ue_result robot_scene(const ue_msh *robot, float shift, ue_scene *s) {
    ue_scene_init(s);
    ue_msh_export_options o = {UE_MSH_LOD_ALL, 0, 0};
    ue_result r = ue_msh_to_scene(robot, "robot", &o, s, NULL);
    for (size_t k = 0; k < s->mesh_count && r == UE_OK; k++)
        for (size_t p = 0; p < s->meshes[k].primitive_count; p++) {
            ue_scene_primitive *pr = &s->meshes[k].primitives[p];
            for (size_t v = 0; v < 3 * (size_t)pr->vertex_count; v++) pr->positions[v] *= 1.0f + shift;
        }
    return r;
}

/* Reads, imports and writes every .glb; returns the seconds taken (negative on a failure). */
static double run(ue_buf *corpus, size_t count, size_t *msh_bytes) {
    double t0 = now();
    *msh_bytes = 0;
    for (size_t i = 0; i < count; i++) {
        ue_scene s;
        ue_msh m;
        ue_buf out = {0};
        ue_scene_init(&s);
        ue_result r = ue_gltf_read(corpus[i].data, corpus[i].size, NULL, UE_MODE_STRICT, &s, NULL);
        if (r == UE_OK) r = ue_msh_from_scene(&s, NULL, &m, NULL);
        if (r == UE_OK) r = ue_msh_write(&m, &out, NULL);
        if (r == UE_OK) ue_msh_free(&m);
        *msh_bytes += out.size;
        ue_buf_free(&out);
        ue_scene_free(&s);
        if (r != UE_OK) return -1;
    }
    return now() - t0;
}

static void report(const char *what, ue_buf *corpus, size_t count) {
    size_t in = 0, out = 0;
    for (size_t i = 0; i < count; i++) in += corpus[i].size;
    double t = run(corpus, count, &out);
    if (t < 0) {
        printf("%-28s FAILED\n", what);
        return;
    }
    printf("%-28s %6zu models  %8.1f models/s  %7.1f MB/s of glb  (%.1f MB glb → %.1f MB msh)  peak RSS %ld MB\n",
           what, count, (double)count / t, (double)in / t / 1e6, (double)in / 1e6, (double)out / 1e6,
           peak_rss_kb() / 1024);
}

int main(int argc, char **argv) {
    size_t count = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 1000;
    ue_buf img = {0}, *robots = calloc(count + 1, sizeof *robots), *grids = calloc(count + 1, sizeof *grids);
    ue_msh robot;
    if (!robots || !grids || ue_sample_robot(&img) != UE_OK ||
        ue_msh_parse(img.data, img.size, UE_MODE_STRICT, &robot, NULL) != UE_OK)
        return 3;
    ue_gltf_options go = {UE_GLTF_GLB, NULL, false, false};
    for (size_t i = 0; i < count; i++) {
        ue_scene a, b;
        if (robot_scene(&robot, (float)i * 1e-4f, &a) != UE_OK || grid_scene(64, (float)i, &b) != UE_OK ||
            ue_gltf_export(&a, &go, &robots[i], NULL, NULL) != UE_OK ||
            ue_gltf_export(&b, &go, &grids[i], NULL, NULL) != UE_OK)
            return 3;
        ue_scene_free(&a);
        ue_scene_free(&b);
    }
    printf("glTF -> MSH (ue_gltf_read + ue_msh_from_scene + ue_msh_write), one core\n");
    report("robot (--lod all, animated)", robots, count);
    report("grid 64x64 quads", grids, count);
    for (size_t i = 0; i < count; i++) ue_buf_free(&robots[i]), ue_buf_free(&grids[i]);
    free(robots);
    free(grids);
    ue_msh_free(&robot);
    ue_buf_free(&img);
    return 0;
}
