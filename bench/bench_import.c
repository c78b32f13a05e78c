/* Benchmark: glTF → MSH import next to MSH → glTF convert on one corpus (2,000 generated models by
 * default, as bench_msh makes them): models per second of each direction and their ratio. */
#define _DEFAULT_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static double wall(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    double w0 = wall();
    size_t count = argc > 1 ? strtoul(argv[1], NULL, 10) : 2000, bytes = 0, glb_bytes = 0;
    int rounds = argc > 2 ? atoi(argv[2]) : 2;
    item *it = calloc(count ? count : 1, sizeof *it);
    if (!it || generate(it, count, &bytes)) return 3;
    printf("corpus: %zu models, %.1f MiB of MSH\n", count, (double)bytes / 1048576.0);
    printf("models per CPU second (one thread):\n%-5s %14s %14s %14s %12s %12s\n", "round", "convert m/s", "import m/s", "edit m/s",
           "import/conv", "edit/conv");
    for (int round = 1; round <= rounds; round++) {
        double tc, ti, te;
        size_t same_new, same_edit;
        if (phase_convert(it, count, &tc) || phase_import(it, count, false, &ti, &same_new) ||
            phase_import(it, count, true, &te, &same_edit))
            return 1;
        double c = (double)count / tc, n = (double)count / ti, e = (double)count / te;
        printf("%-5d %14.0f %14.0f %14.0f %11.2fx %11.2fx\n", round, c, n, e, n / c, e / c);
        if (round == rounds) {
            for (size_t i = 0; i < count; i++) glb_bytes += it[i].glb_size;
            printf("GLB corpus: %.1f MiB; byte-identical to the source: new %zu/%zu, edit %zu/%zu\n",
                   (double)glb_bytes / 1048576.0, same_new, count, same_edit, count);
        }
    }
    printf("wall time of the whole run: %.1f s\n", wall() - w0);
    for (size_t i = 0; i < count; i++) free(it[i].msh), free(it[i].glb);
    free(it);
    return 0;
}
