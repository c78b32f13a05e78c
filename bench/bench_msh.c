/* Benchmark: generates a corpus of synthetic MSH models (≥ 2,000 by default) with the writer,
 * then measures validate and glTF-export throughput on one core and peak memory per phase, and
 * the same for a corpus of animated models (export with clips, engine pose evaluation). */
#define _DEFAULT_SOURCE
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "unearth/gltf.h"
#include "unearth/msh.h"

#include "bench_msh_corpus.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A key track for one node: `frames` long, keys 1..5 frames apart, random turns and moves. */
static ue_result add_track(ue_msh *m, size_t node, uint32_t frames) {
    ue_msh_key keys[256];
    size_t n = 0;
    for (uint32_t f = 0; n < 256; f += 1 + rnd() % 5) {
        if (f > frames) f = frames;
        float axis[3] = {(float)(rnd() % 100) - 50, (float)(rnd() % 100) - 50, (float)(rnd() % 100) + 1};
        float len = sqrtf(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
        float half = (float)(rnd() % 314) / 200.0f, q[4];
        for (int c = 0; c < 3; c++) q[c] = sinf(half) * axis[c] / len;
        q[3] = cosf(half);
        ue_msh_key *k = &keys[n++];
        k->time = (float)f;
        for (int c = 0; c < 3; c++) k->position[c] = (float)(rnd() % 1000) / 500.0f;
        ue_msh_encode_quat(q, k->quat);
        if (f == frames) break;
    }
    return ue_msh_set_track(m, node, keys, n, NULL);
}

typedef struct model {
    uint8_t *data;
    size_t size;
} model;

static int phase_validate(model *ms, size_t n, double *seconds) {
    double t0 = now();
    for (size_t i = 0; i < n; i++) {
        ue_msh m;
        if (ue_msh_parse(ms[i].data, ms[i].size, UE_MODE_STRICT, &m, NULL) != UE_OK) return 1;
        ue_msh_free(&m);
    }
    *seconds = now() - t0;
    return 0;
}

/* Heap in use (glibc); the difference around one model is that model's working memory. */
static size_t heap_in_use(void) { return mallinfo2().uordblks; }
static size_t worst_model_heap, worst_model_input;

static int phase_export(model *ms, size_t n, double *seconds, size_t *out_bytes) {
    double t0 = now();
    *out_bytes = 0;
    for (size_t i = 0; i < n; i++) {
        size_t before = heap_in_use();
        ue_msh m;
        if (ue_msh_parse(ms[i].data, ms[i].size, UE_MODE_STRICT, &m, NULL) != UE_OK) return 1;
        ue_scene s;
        ue_scene_init(&s);
        ue_buf glb = {0};
        ue_gltf_options o = {0};
        o.format = UE_GLTF_GLB;
        if (ue_msh_to_scene(&m, "m", NULL, &s, NULL) != UE_OK || ue_gltf_export(&s, &o, &glb, NULL, NULL) != UE_OK)
            return 1;
        *out_bytes += glb.size;
        size_t used = heap_in_use() - before;
        if (used > worst_model_heap) worst_model_heap = used, worst_model_input = ms[i].size;
        ue_buf_free(&glb);
        ue_scene_free(&s);
        ue_msh_free(&m);
    }
    *seconds = now() - t0;
    return 0;
}

static long child_peak_kb(int which, model *ms, size_t n, double *seconds, size_t *extra) {
    int fds[2];
    if (pipe(fds) != 0) return -1;
    fflush(stdout); /* or the child repeats what is still buffered */
    pid_t pid = fork();
    if (pid == 0) {
        double s = 0;
        size_t e = 0;
        int rc = which == 0 ? phase_validate(ms, n, &s) : phase_export(ms, n, &s, &e);
        if (which == 1)
            printf("export working memory: at most %.1f KiB per model (%.1f× its %.1f KiB input)\n",
                   (double)worst_model_heap / 1024.0, (double)worst_model_heap / (double)worst_model_input,
                   (double)worst_model_input / 1024.0);
        fflush(stdout);
        if (write(fds[1], &s, sizeof s) != sizeof s || write(fds[1], &e, sizeof e) != sizeof e) rc = 1;
        _exit(rc);
    }
    struct rusage ru;
    int status;
    wait4(pid, &status, 0, &ru);
    if (read(fds[0], seconds, sizeof *seconds) != sizeof *seconds || read(fds[0], extra, sizeof *extra) != sizeof *extra)
        return -1;
    close(fds[0]), close(fds[1]);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? ru.ru_maxrss : -1;
}

/* Animated models: 1–12 nodes with small grids, every node on a track of 60–240 frames. */
static int generate_animated(model *ms, size_t count, size_t *total) {
    *total = 0;
    for (size_t i = 0; i < count; i++) {
        size_t nodes = 1 + rnd() % 12;
        uint16_t parents[16];
        for (size_t k = 0; k < nodes; k++) parents[k] = k ? (uint16_t)(rnd() % k) : 0xFFFF;
        ue_msh m;
        if (ue_msh_new(&m, nodes, parents, NULL) != UE_OK) return 3;
        uint32_t frames = 60 + rnd() % 181;
        for (size_t k = 0; k < nodes; k++)
            if (add_grid(&m, k, 0, 4, (uint16_t)(k % 4)) != UE_OK || add_track(&m, k, frames) != UE_OK) return 3;
        ue_buf b = {0};
        if (ue_msh_write(&m, &b, NULL) != UE_OK) return 3;
        ms[i].data = ue_buf_take(&b, &ms[i].size);
        *total += ms[i].size;
        ue_msh_free(&m);
    }
    return 0;
}

/* Engine poses per second: every node at every half frame of every model. */
static double evaluate_rate(model *ms, size_t count, double *poses) {
    double t0 = now();
    *poses = 0;
    ue_msh_pose buf[16];
    for (size_t i = 0; i < count; i++) {
        ue_msh m;
        if (ue_msh_parse(ms[i].data, ms[i].size, UE_MODE_STRICT, &m, NULL) != UE_OK) return -1;
        for (uint32_t h = 0; h < 2 * m.frame_count; h++) ue_msh_evaluate(&m, (float)h * 0.5f, buf);
        *poses += 2.0 * m.frame_count * (double)m.node_count;
        ue_msh_free(&m);
    }
    return now() - t0;
}

static int animated_phase(size_t count) {
    model *ms = calloc(count, sizeof *ms);
    size_t total, glb_bytes = 0;
    if (!ms || generate_animated(ms, count, &total) != 0) return 3;
    double mb = (double)total / 1048576.0, es = 0, poses = 0;
    long peak = child_peak_kb(1, ms, count, &es, &glb_bytes);
    double ev = evaluate_rate(ms, count, &poses);
    if (peak < 0 || ev < 0) return 1;
    printf("animated corpus: %zu models, %.1f MiB, every node animated over 60–240 frames\n", count, mb);
    printf("%-9s %9.2f %10.1f %10.0f %8.1f MiB\n", "anim-exp", es, mb / es, (double)count / es, (double)peak / 1024.0);
    printf("engine evaluation: %.0f node poses/s (%.2f s); glTF written: %.1f MiB\n", poses / ev, ev,
           (double)glb_bytes / 1048576.0);
    for (size_t i = 0; i < count; i++) free(ms[i].data);
    free(ms);
    return 0;
}

int main(int argc, char **argv) {
    size_t count = 2000;
    if (argc > 1) count = strtoul(argv[1], NULL, 10);
    model *ms = calloc(count, sizeof *ms);
    size_t total = 0, largest = 0;
    double t0 = now();
    for (size_t i = 0; i < count; i++) {
        ue_buf b = {0};
        if (corpus_model(&b) != UE_OK) return 3;
        ms[i].data = ue_buf_take(&b, &ms[i].size);
        total += ms[i].size;
        if (ms[i].size > largest) largest = ms[i].size;
    }
    double mb = (double)total / 1048576.0;
    printf("corpus: %zu models, %.1f MiB, largest %.1f KiB (generated in %.1f s)\n", count, mb,
           (double)largest / 1024.0, now() - t0);
    struct rusage self;
    getrusage(RUSAGE_SELF, &self);
    double vs = 0, es = 0;
    size_t none = 0, glb_bytes = 0;
    long vpeak = child_peak_kb(0, ms, count, &vs, &none);
    long epeak = child_peak_kb(1, ms, count, &es, &glb_bytes);
    if (vpeak < 0 || epeak < 0) {
        fprintf(stderr, "a phase failed\n");
        return 1;
    }
    printf("%-9s %9s %10s %10s %12s\n", "phase", "seconds", "MB/s", "models/s", "peak RSS");
    printf("%-9s %9.2f %10.1f %10.0f %8.1f MiB\n", "validate", vs, mb / vs, (double)count / vs,
           (double)vpeak / 1024.0);
    printf("%-9s %9.2f %10.1f %10.0f %8.1f MiB\n", "export", es, mb / es, (double)count / es,
           (double)epeak / 1024.0);
    printf("(peak RSS includes the %.1f MiB corpus held in memory by the generator)\n",
           (double)self.ru_maxrss / 1024.0);
    printf("glTF written: %.1f MiB\n", (double)glb_bytes / 1048576.0);
    for (size_t i = 0; i < count; i++) free(ms[i].data);
    free(ms);
    return animated_phase(count / 4 > 100 ? count / 4 : 100);
}
