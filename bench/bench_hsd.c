/* Benchmark: DAT → glb throughput on one core (parse, struct reader, bind pose, skinning,
 * display lists, materials, glTF export) over a corpus of copies of the sample creature. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "samples/samples.h"
#include "unearth/gltf.h"
#include "unearth/model.h"

/* The peer: the Blender GameCube addon's pure-Python import (parse and describe phases) takes
 * about 15 ms for an 11 KB creature (issue 8). */
#define PEER_SECONDS_PER_MODEL 0.015
#define PEER_BYTES_PER_MODEL 11000.0

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One DAT to one .glb in memory, through the registry as `unearth convert` does; with
 * glb_bytes NULL, only to the scene IR (what the peer's parse and describe phases do: read the
 * structs, bake the bind pose, decode the textures). */
static int convert_one(const uint8_t *dat, size_t size, size_t *glb_bytes) {
    ue_model_found m = {"creature.dat", ue_model_probe(dat, size), (uint8_t *)(uintptr_t)dat, size};
    if (!m.format) return 1;
    ue_scene s;
    ue_scene_init(&s);
    ue_buf glb = {0};
    ue_gltf_options o = {UE_GLTF_GLB, NULL, false, false};
    ue_result r = ue_model_to_scene(&m, "creature", UE_MODE_STRICT, NULL, &s, NULL);
    if (r == UE_OK && glb_bytes) r = ue_gltf_export(&s, &o, &glb, NULL, NULL);
    if (glb_bytes) *glb_bytes += glb.size;
    ue_buf_free(&glb);
    ue_scene_free(&s);
    return r != UE_OK;
}

int main(int argc, char **argv) {
    size_t copies = argc > 1 ? strtoul(argv[1], NULL, 10) : 2000;
    ue_buf one = {0};
    if (ue_sample_creature_dat(&one) != UE_OK) return 1;
    /* A corpus of separate copies, so each conversion reads its own memory. */
    uint8_t *corpus = malloc(one.size * copies);
    if (!corpus) return 1;
    for (size_t i = 0; i < copies; i++) memcpy(corpus + i * one.size, one.data, one.size);
    size_t glb_bytes = 0;
    if (convert_one(corpus, one.size, &glb_bytes)) return 1; /* warm-up, and a check */
    double peer_mb_s = PEER_BYTES_PER_MODEL / PEER_SECONDS_PER_MODEL / 1e6;
    printf("hsd: %zu creatures of %zu bytes, one core; peer (Blender addon, ~15 ms per 11 KB "
           "creature): %.0f models/s, %.2f MB/s\n", copies, one.size, 1.0 / PEER_SECONDS_PER_MODEL, peer_mb_s);
    for (int phase = 0; phase < 2; phase++) {
        glb_bytes = 0;
        double t0 = now();
        for (size_t i = 0; i < copies; i++)
            if (convert_one(corpus + i * one.size, one.size, phase ? &glb_bytes : NULL)) return 1;
        double dt = now() - t0;
        double models_s = (double)copies / dt, mb_s = (double)(one.size * copies) / dt / 1e6;
        printf("  %-34s %8.0f models/s %7.2f MB/s of DAT  ratio %5.0fx models/s, %5.0fx MB/s (goal 100x)\n",
               phase ? "DAT -> glb (PNG + glTF written):" : "DAT -> scene IR (peer's phases):", models_s,
               mb_s, models_s * PEER_SECONDS_PER_MODEL, mb_s / peer_mb_s);
    }
    free(corpus);
    ue_buf_free(&one);
    return 0;
}
