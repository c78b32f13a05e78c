/* Benchmark: DAT → glb throughput on one core (parse, struct reader, bind pose, skinning,
 * display lists, materials, animations, glTF export) over copies of the sample creature, animated
 * and with its animations stripped. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "samples/samples.h"
#include "unearth/gltf.h"
#include "unearth/hsd.h"
#include "unearth/hsd_model.h"
#include "unearth/model.h"

/* The peer: the Blender GameCube addon's pure-Python import (parse and describe phases) takes
 * about 15 ms for an 11 KB creature (issue 8). */
#define PEER_SECONDS_PER_MODEL 0.015
#define PEER_BYTES_PER_MODEL 11000.0

/* CPU time of this process: on a machine shared with other jobs, wall time measures the load;
 * the rates below are per CPU-second of one core. */
static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
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
    ue_gltf_options o = {UE_GLTF_GLB, NULL, false, false, false};
    ue_result r = ue_model_to_scene(&m, "creature", UE_MODE_STRICT, NULL, &s, NULL);
    if (r == UE_OK && glb_bytes) r = ue_gltf_export(&s, &o, &glb, NULL, NULL);
    if (glb_bytes) *glb_bytes += glb.size;
    ue_buf_free(&glb);
    ue_scene_free(&s);
    return r != UE_OK;
}

/* The creature without its animations: read, anim tables emptied, written again. */
static int strip_animations(const ue_buf *dat_bytes, ue_buf *out) {
    ue_dat dat;
    ue_hsd_model m;
    memset(&m, 0, sizeof m);
    if (ue_dat_parse(dat_bytes->data, dat_bytes->size, UE_MODE_STRICT, &dat, NULL) != UE_OK) return 1;
    ue_result r = ue_hsd_model_read(&dat, UE_MODE_STRICT, &m, NULL);
    ue_hsd_anims kept = m.anims;
    memset(&m.anims, 0, sizeof m.anims);
    if (r == UE_OK) r = ue_hsd_model_write(&m, out, NULL);
    m.anims = kept; /* freed with the model */
    ue_hsd_model_free(&m);
    ue_dat_free(&dat);
    return r != UE_OK;
}

/* Times `copies` conversions of one DAT (separate copies, so each reads its own memory), to the
 * scene IR (phase 0) or to a glb (phase 1); prints the rates and the ratio to the peer. */
static int run(const char *what, const ue_buf *one, size_t copies, int phase, double *seconds) {
    uint8_t *corpus = malloc(one->size * copies);
    if (!corpus) return 1;
    for (size_t i = 0; i < copies; i++) memcpy(corpus + i * one->size, one->data, one->size);
    size_t glb_bytes = 0;
    if (convert_one(corpus, one->size, &glb_bytes)) return 1; /* warm-up, and a check */
    double peer_mb_s = PEER_BYTES_PER_MODEL / PEER_SECONDS_PER_MODEL / 1e6;
    double t0 = now();
    for (size_t i = 0; i < copies; i++)
        if (convert_one(corpus + i * one->size, one->size, phase ? &glb_bytes : NULL)) return 1;
    double dt = now() - t0;
    double models_s = (double)copies / dt, mb_s = (double)(one->size * copies) / dt / 1e6;
    printf("  %-40s %8.0f models/s %7.2f MB/s of DAT  ratio %5.0fx models/s, %5.0fx MB/s (goal 100x)\n",
           what, models_s, mb_s, models_s * PEER_SECONDS_PER_MODEL, mb_s / peer_mb_s);
    free(corpus);
    *seconds = dt;
    return 0;
}

int main(int argc, char **argv) {
    size_t copies = argc > 1 ? strtoul(argv[1], NULL, 10) : 2000;
    ue_buf one = {0}, still = {0};
    if (ue_sample_creature_dat(&one) != UE_OK || strip_animations(&one, &still)) return 1;
    printf("hsd: %zu creatures of %zu bytes (%zu without animations), per CPU-second of one core; peer "
           "(Blender addon, ~15 ms per 11 KB creature): %.0f models/s, %.2f MB/s\n",
           copies, one.size, still.size, 1.0 / PEER_SECONDS_PER_MODEL,
           PEER_BYTES_PER_MODEL / PEER_SECONDS_PER_MODEL / 1e6);
    double t_scene, t_glb, t_still;
    if (run("DAT -> scene IR (peer's phases):", &one, copies, 0, &t_scene) ||
        run("DAT -> glb (PNG + glTF, the 3 clips):", &one, copies, 1, &t_glb) ||
        run("DAT -> glb, animations stripped:", &still, copies, 1, &t_still))
        return 1;
    printf("  animations cost %.2fx the time of the still creature's DAT -> glb\n", t_glb / t_still);
    ue_buf_free(&one);
    ue_buf_free(&still);
    return 0;
}
