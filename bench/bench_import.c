/* Benchmark: glTF → MSH import next to MSH → glTF convert on two corpora (2,000 generated models by
 * default, as bench_msh makes them, and N/4 grids of 8,192 triangles): models per second of each
 * direction, their ratio, and peak memory. */
#define _DEFAULT_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "unearth/gltf.h"
#include "unearth/gltf_read.h"
#include "unearth/msh.h"
#include "unearth/msh_import.h"

#include "bench_msh_corpus.h"

/* CPU seconds of this process: on a shared machine the other jobs do not count (the wall
 * time of the whole run is printed at the end). */
static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct item {
    uint8_t *msh, *glb;
    size_t msh_size, glb_size;
} item;

/* bench_msh's corpus: 1–12 nodes, each with a LOD 0 grid of 4..23 and a LOD 1 grid of 2..5. */
static int generate(item *it, size_t count, size_t *bytes) {
    for (size_t i = 0; i < count; i++) {
        ue_buf b = {0};
        if (corpus_model(&b) != UE_OK) return 3;
        it[i].msh = ue_buf_take(&b, &it[i].msh_size);
        *bytes += it[i].msh_size;
    }
    return 0;
}

/* convert: MSH → scene → GLB, every model (the GLBs are kept as the import corpus). */
static int phase_convert(item *it, size_t count, double *seconds) {
    double t0 = now();
    for (size_t i = 0; i < count; i++) {
        ue_msh m;
        ue_scene s;
        ue_scene_init(&s);
        ue_buf glb = {0};
        ue_gltf_options o = {0};
        o.format = UE_GLTF_GLB;
        if (ue_msh_parse(it[i].msh, it[i].msh_size, UE_MODE_STRICT, &m, NULL) != UE_OK) return 1;
        if (ue_msh_to_scene(&m, "m", NULL, &s, NULL) != UE_OK || ue_gltf_export(&s, &o, &glb, NULL, NULL) != UE_OK)
            return 1;
        free(it[i].glb);
        it[i].glb = ue_buf_take(&glb, &it[i].glb_size);
        ue_scene_free(&s);
        ue_msh_free(&m);
    }
    *seconds = now() - t0;
    return 0;
}

/* import: GLB → scene → MSH bytes, as a new model or (edit) against its base; *same counts the
 * outputs byte-identical to the base. */
static int phase_import(item *it, size_t count, bool edit, double *seconds, size_t *same) {
    double t0 = now();
    *same = 0;
    for (size_t i = 0; i < count; i++) {
        ue_scene s;
        ue_scene_init(&s);
        ue_msh m;
        ue_buf out = {0};
        ue_result r = ue_gltf_read(it[i].glb, it[i].glb_size, NULL, UE_MODE_STRICT, &s, NULL);
        if (r == UE_OK && edit) {
            r = ue_msh_parse(it[i].msh, it[i].msh_size, UE_MODE_STRICT, &m, NULL);
            if (r == UE_OK) r = ue_msh_apply_scene(&m, &s, NULL, NULL);
        } else if (r == UE_OK) {
            r = ue_msh_from_scene(&s, NULL, &m, NULL);
        }
        if (r == UE_OK) r = ue_msh_write(&m, &out, NULL);
        if (r != UE_OK) return fprintf(stderr, "model %zu: %s\n", i, ue_result_name(r)), 1;
        if (out.size == it[i].msh_size && !memcmp(out.data, it[i].msh, out.size)) (*same)++;
        ue_buf_free(&out);
        ue_msh_free(&m);
        ue_scene_free(&s);
    }
    *seconds = now() - t0;
    return 0;
}

/* One node with a 64 × 64-quad wavy grid in LOD 0: 4,225 vertices, 8,192 triangles, the most a
 * slot's 16-bit indices allow at this shape; every copy alike (the work per model is what counts). */
static int generate_grids(item *it, size_t count, size_t *bytes) {
    uint16_t root = 0xFFFF;
    for (size_t i = 0; i < count; i++) {
        ue_msh m;
        ue_buf b = {0};
        ue_result r = ue_msh_new(&m, 1, &root, NULL);
        if (r != UE_OK) return 3;
        r = add_grid(&m, 0, 0, 64, 0);
        if (r == UE_OK) r = ue_msh_write(&m, &b, NULL);
        ue_msh_free(&m);
        if (r != UE_OK) return 3;
        it[i].msh = ue_buf_take(&b, &it[i].msh_size);
        *bytes += it[i].msh_size;
    }
    return 0;
}

/* The three phases ROUNDS times on one corpus, a line per round. */
static int run_rounds(const char *name, item *it, size_t count, size_t bytes, int rounds) {
    printf("\n%s: %zu models, %.1f MiB of MSH\n", name, count, (double)bytes / 1048576.0);
    printf("models per CPU second (one thread):\n%-5s %14s %14s %14s %12s %12s\n", "round", "convert m/s",
           "import m/s", "edit m/s", "import/conv", "edit/conv");
    for (int round = 1; round <= rounds; round++) {
        double tc, ti, te;
        size_t same_new, same_edit;
        if (phase_convert(it, count, &tc) || phase_import(it, count, false, &ti, &same_new) ||
            phase_import(it, count, true, &te, &same_edit))
            return 1;
        double c = (double)count / tc, n = (double)count / ti, e = (double)count / te;
        printf("%-5d %14.0f %14.0f %14.0f %11.2fx %11.2fx\n", round, c, n, e, n / c, e / c);
        if (round < rounds) continue;
        size_t glb_bytes = 0;
        for (size_t i = 0; i < count; i++) glb_bytes += it[i].glb_size;
        printf("GLB corpus: %.1f MiB (import: %.1f MB/s of glb); byte-identical to the source: new %zu/%zu, "
               "edit %zu/%zu\n", (double)glb_bytes / 1048576.0, (double)glb_bytes / ti / 1e6, same_new, count,
               same_edit, count);
    }
    return 0;
}

static void free_items(item *it, size_t count) {
    for (size_t i = 0; it && i < count; i++) free(it[i].msh), free(it[i].glb);
    free(it);
}

static double wall(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    double w0 = wall();
    size_t count = argc > 1 ? strtoul(argv[1], NULL, 10) : 2000, grids = count / 4 ? count / 4 : 1;
    size_t bytes = 0, grid_bytes = 0;
    int rounds = argc > 2 ? atoi(argv[2]) : 2;
    item *it = calloc(count ? count : 1, sizeof *it), *grid = calloc(grids, sizeof *grid);
    int rc = it && grid ? 0 : 3;
    if (!rc) rc = generate(it, count, &bytes);
    if (!rc) rc = run_rounds("bench_msh corpus (1-12 nodes of small grids, two LODs)", it, count, bytes, rounds);
    free_items(it, count); /* before the grids: peak memory is one corpus at a time */
    if (!rc) rc = generate_grids(grid, grids, &grid_bytes);
    if (!rc) rc = run_rounds("grid corpus (1 node, 4,225 vertices, 8,192 triangles)", grid, grids, grid_bytes, rounds);
    free_items(grid, grids);
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    printf("\npeak RSS %ld MiB (the corpus held in memory); wall time of the whole run: %.1f s\n", u.ru_maxrss / 1024,
           wall() - w0);
    return rc;
}
