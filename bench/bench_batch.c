/* Benchmark: `convert -r` of a generated game folder (2,000 models by default: bare MSH files and
 * NRes archives holding one, in 20 folders) with -j 1 and -j 2 side by side, as whole processes,
 * alternating A B A B; prints each run, the medians and the pairwise speed-up -j 1 / -j 2, next
 * to what a perfectly parallel CPU-bound control gains on the machine at the same moment.
 * With --gallery: `convert -r -j 2` without and with --gallery instead, and the cost of the gallery,
 * on that corpus (the worst case: tiny models) and on one shaped like a converted game folder. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hsd_big_model.h"
#include "samples/samples.h"
#include "unearth/nres.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int write_file(const char *path, const uint8_t *data, size_t size) {
    FILE *f = fopen(path, "wb");
    if (!f) return 1;
    size_t put = fwrite(data, 1, size, f);
    return (fclose(f) != 0 || put != size) ? 1 : 0;
}

static const ue_sample_file *sample(const ue_sample_list *l, const char *path) {
    for (size_t i = 0; i < l->count; i++)
        if (!strcmp(l->items[i].path, path)) return &l->items[i];
    return NULL;
}

/* `models` models: per folder of 100, 95 bare robot models and 5 archives with one each. */
static int make_corpus(const char *dir, size_t models) {
    ue_sample_list l = {0};
    if (ue_samples_parkan(&l) != UE_OK) return 1;
    const ue_sample_file *robot = sample(&l, "parkan/robot.msh"), *archive = sample(&l, "parkan/objects.rlb");
    int rc = robot && archive ? 0 : 1;
    mkdir(dir, 0755);
    for (size_t i = 0; i < models && !rc; i++) {
        char folder[4200], path[4300];
        snprintf(folder, sizeof folder, "%s/area%02zu", dir, i / 100);
        mkdir(folder, 0755);
        bool packed = i % 100 >= 95;
        snprintf(path, sizeof path, "%s/%s%03zu.%s", folder, packed ? "pack" : "unit", i % 100, packed ? "rlb" : "msh");
        const ue_sample_file *f = packed ? archive : robot;
        rc = write_file(path, f->data, f->size);
    }
    ue_sample_list_free(&l);
    return rc;
}

/* The sample archive objects.rlb with `copies` textured robots in all (ROBOT.msh and copies
 * ROBOT2.msh ...; each resolves the archive's own textures and materials). */
static int many_robot_archive(const ue_sample_file *archive, uint32_t copies, ue_buf *out) {
    ue_source src = ue_source_memory(archive->data, archive->size);
    ue_nres n;
    ue_result r = ue_nres_parse(&src, UE_MODE_STRICT, &n, NULL);
    size_t robot = 0;
    if (r == UE_OK && !ue_nres_find(&n, "ROBOT.msh", &robot)) r = UE_ERR_INVALID;
    const uint8_t *data = NULL;
    uint8_t *to_free = NULL;
    if (r == UE_OK) r = ue_nres_payload(&n, robot, &data, &to_free, NULL);
    ue_nres_entry e = r == UE_OK ? n.entries[robot] : (ue_nres_entry){0};
    for (uint32_t k = 2; r == UE_OK && k <= copies; k++) {
        char name[32];
        snprintf(name, sizeof name, "ROBOT%u.msh", k);
        r = ue_nres_add(&n, e.type_id, e.attr1, e.attr2, e.attr3, name, data, e.size);
    }
    if (r == UE_OK) r = ue_nres_write(&n, UE_NRES_CANONICAL, out, NULL);
    free(to_free);
    ue_nres_free(&n);
    return r != UE_OK;
}

/* A corpus shaped like a converted game folder, `models` models in folders of 10: per folder
 * GAME_DATS real-size HSD models (hsd_big_model.h: 48 joints, 50 textured meshes, 24 clips;
 * about 1 MB each) and GAME_ARCHIVES Parkan archives of GAME_ROBOTS textured robots each. */
enum { GAME_DATS = 2, GAME_ARCHIVES = 2, GAME_ROBOTS = 4, GAME_FOLDER = GAME_DATS + GAME_ARCHIVES * GAME_ROBOTS };

static int make_game_corpus(const char *dir, size_t models) {
    ue_sample_list l = {0};
    ue_buf dat = {0}, rlb = {0};
    hsd_big_shape shape = HSD_BIG_REAL;
    const ue_sample_file *archive = ue_samples_parkan(&l) == UE_OK ? sample(&l, "parkan/objects.rlb") : NULL;
    int rc = !archive || hsd_big_model_dat(&shape, &dat) != UE_OK || many_robot_archive(archive, GAME_ROBOTS, &rlb);
    mkdir(dir, 0755);
    for (size_t f = 0; !rc && f * GAME_FOLDER < models; f++) {
        char folder[4200], path[4300];
        snprintf(folder, sizeof folder, "%s/stage%02zu", dir, f);
        mkdir(folder, 0755);
        for (int k = 0; k < GAME_DATS && !rc; k++) {
            snprintf(path, sizeof path, "%s/fighter%d.dat", folder, k);
            rc = write_file(path, dat.data, dat.size);
        }
        for (int k = 0; k < GAME_ARCHIVES && !rc; k++) {
            snprintf(path, sizeof path, "%s/objects%d.rlb", folder, k);
            rc = write_file(path, rlb.data, rlb.size);
        }
    }
    ue_buf_free(&dat);
    ue_buf_free(&rlb);
    ue_sample_list_free(&l);
    return rc;
}

/* CPU seconds (user + system) of every child waited for so far. */
static double children_cpu(void) {
    struct rusage u;
    getrusage(RUSAGE_CHILDREN, &u);
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

/* One whole `convert -r` process into a fresh OUT; seconds of wall time, < 0 on failure; *cpu
 * gets its CPU seconds (user + system, all threads): unlike the wall time, the other load on the
 * machine barely moves it, and two threads that contend in the kernel show up in it. */
static double run_batch(const char *unearth, const char *corpus, const char *out, int jobs, const char *extra,
                        double *cpu) {
    char cmd[13000];
    /* The previous output is moved aside, not deleted (deleted with the corpus at the end):
     * ext4 without a journal scans past every inode deleted in the last 60 s on each create,
     * which would charge thousands of earlier deletions to this run. */
    snprintf(cmd, sizeof cmd, "if [ -e '%s' ]; then mkdir -p '%s.aside' && mv '%s' '%s.aside/'$(date +%%s%%N); fi",
             out, out, out, out);
    if (system(cmd) != 0) return -1;
    sync(); /* the previous run's writeback must not land inside this one */
    snprintf(cmd, sizeof cmd, "'%s' convert -r '%s' -o '%s' -j %d -q %s", unearth, corpus, out, jobs, extra);
    double c0 = children_cpu(), t0 = now();
    int rc = system(cmd);
    double t = now() - t0;
    *cpu = children_cpu() - c0;
    return rc == 0 ? t : -1;
}

/* The control: a fixed CPU-bound loop in one process, then the same loop in two processes at
 * once. On two idle cores the pair takes as long as one (ceiling 2.0x); on a shared machine
 * the ceiling says how much a second thread can gain at that moment, whatever the program. */
static void spin(void) {
    volatile unsigned long x = 0;
    for (unsigned long i = 0; i < 200000000ul; i++) x += i;
    (void)x;
}

static double spin_processes(int n) {
    double t0 = now();
    for (int i = 0; i < n; i++)
        if (fork() == 0) {
            spin();
            _exit(0);
        }
    while (wait(NULL) > 0) continue;
    return now() - t0;
}

static double ceiling(void) { return 2 * spin_processes(1) / spin_processes(2); }

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, size_t n) {
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

enum { MAX_RUNS = 50 };

static int compare(const char *unearth, const char *dir, size_t models, size_t runs) {
    char corpus[4200], out1[4200], out2[4200];
    snprintf(corpus, sizeof corpus, "%s/corpus", dir);
    snprintf(out1, sizeof out1, "%s/out-j1", dir);
    snprintf(out2, sizeof out2, "%s/out-j2", dir);
    double a[MAX_RUNS], b[MAX_RUNS], ratio[MAX_RUNS], ceil[MAX_RUNS], ca[MAX_RUNS], cb[MAX_RUNS];
    /* one warm-up of each: page cache and binary loaded */
    if (run_batch(unearth, corpus, out1, 1, "", &ca[0]) < 0 || run_batch(unearth, corpus, out2, 2, "", &cb[0]) < 0) return 1;
    for (size_t r = 0; r < runs; r++) {
        a[r] = run_batch(unearth, corpus, out1, 1, "", &ca[r]);
        b[r] = run_batch(unearth, corpus, out2, 2, "", &cb[r]);
        if (a[r] < 0 || b[r] < 0) return 1;
        ratio[r] = a[r] / b[r];
        ceil[r] = ceiling();
        printf("run %zu: -j 1 %.3f s (CPU %.2f s), -j 2 %.3f s (CPU %.2f s), speed-up %.2fx (machine ceiling now "
               "%.2fx)\n", r + 1, a[r], ca[r], b[r], cb[r], ratio[r], ceil[r]);
    }
    char cmd[9000];
    snprintf(cmd, sizeof cmd, "diff -r -x unearth-batch.json '%s' '%s' >/dev/null", out1, out2);
    bool same = system(cmd) == 0;
    /* median() sorts in place: afterwards ratio[0] is the smallest, ratio[runs - 1] the largest */
    double ma = median(a, runs), mb = median(b, runs), mr = median(ratio, runs);
    printf("models %zu: -j 1 median %.3f s (%.0f models/s), -j 2 median %.3f s (%.0f models/s)\n", models, ma,
           (double)models / ma, mb, (double)models / mb);
    printf("speed-up -j 1 / -j 2: median %.2fx, min %.2fx, max %.2fx (goal >= 1.6x)\n", mr, ratio[0],
           ratio[runs - 1]);
    double mca = median(ca, runs), mcb = median(cb, runs);
    printf("CPU time (user + system, all threads): -j 1 median %.2f s (%.2f - %.2f), -j 2 median %.2f s (%.2f - "
           "%.2f): -j 2 costs %.2fx the CPU of -j 1\n", mca, ca[0], ca[runs - 1], mcb, cb[0], cb[runs - 1], mcb / mca);
    double mc = median(ceil, runs);
    printf("machine ceiling (2 CPU-bound processes vs 1): median %.2fx, min %.2fx, max %.2fx\n", mc, ceil[0],
           ceil[runs - 1]);
    printf("outputs of -j 1 and -j 2: %s\n", same ? "identical" : "DIFFERENT");
    return same ? 0 : 1;
}

/* One corpus's figures with and without --gallery (medians and ranges). */
typedef struct gallery_row {
    const char *label;
    size_t models;
    double plain, plain_lo, plain_hi, with, with_lo, with_hi;
    double wall, wall_lo, wall_hi, cpu, cpu_lo, cpu_hi;
} gallery_row;

/* The gallery's cost: the same batch at -j 2 without and with --gallery (a thumbnail per model,
 * index.html, the viewer's files copied), alternating; the ratio of wall and of CPU time, with
 * the machine's load average, since other work on it moves the wall time. */
static int compare_gallery(const char *unearth, const char *dir, const char *name, size_t runs, gallery_row *row) {
    char corpus[4200], plain[4200], gallery[4200];
    snprintf(corpus, sizeof corpus, "%s/%s", dir, name);
    snprintf(plain, sizeof plain, "%s/out-%s-plain", dir, name);
    snprintf(gallery, sizeof gallery, "%s/out-%s-gallery", dir, name);
    double a[MAX_RUNS], b[MAX_RUNS], ratio[MAX_RUNS], ca[MAX_RUNS], cb[MAX_RUNS], cratio[MAX_RUNS], load[3];
    if (run_batch(unearth, corpus, plain, 2, "", &ca[0]) < 0 || run_batch(unearth, corpus, gallery, 2, "--gallery", &cb[0]) < 0)
        return 1;
    printf("%s (%zu models):\n", row->label, row->models);
    for (size_t r = 0; r < runs; r++) {
        a[r] = run_batch(unearth, corpus, plain, 2, "", &ca[r]);
        b[r] = run_batch(unearth, corpus, gallery, 2, "--gallery", &cb[r]);
        if (a[r] < 0 || b[r] < 0) return 1;
        ratio[r] = b[r] / a[r], cratio[r] = cb[r] / ca[r];
        if (getloadavg(load, 1) < 1) load[0] = -1;
        printf("  run %zu: convert -r -j 2 %.3f s (CPU %.2f s), with --gallery %.3f s (CPU %.2f s): %.2fx wall, %.2fx "
               "CPU (load average %.2f)\n", r + 1, a[r], ca[r], b[r], cb[r], ratio[r], cratio[r], load[0]);
    }
    /* median() sorts in place: afterwards [0] is the smallest, [runs - 1] the largest */
    row->plain = median(a, runs), row->plain_lo = a[0], row->plain_hi = a[runs - 1];
    row->with = median(b, runs), row->with_lo = b[0], row->with_hi = b[runs - 1];
    row->wall = median(ratio, runs), row->wall_lo = ratio[0], row->wall_hi = ratio[runs - 1];
    row->cpu = median(cratio, runs), row->cpu_lo = cratio[0], row->cpu_hi = cratio[runs - 1];
    return 0;
}

static void print_gallery_row(const gallery_row *r) {
    printf("%-32s without %.3f s (%.3f - %.3f), with %.3f s (%.3f - %.3f); --gallery costs wall %.2fx (%.2f - "
           "%.2f), CPU %.2fx (%.2f - %.2f): %.2f of the 1.50x goal\n", r->label, r->plain, r->plain_lo, r->plain_hi,
           r->with, r->with_lo, r->with_hi, r->wall, r->wall_lo, r->wall_hi, r->cpu, r->cpu_lo, r->cpu_hi,
           r->cpu / 1.5);
}

/* Both rows: the worst case (tiny models) and the game-like corpus, then the two side by side. */
static int gallery_rows(const char *unearth, const char *dir, size_t models, size_t game_models, size_t runs) {
    char game[4300];
    snprintf(game, sizeof game, "%s/game", dir);
    size_t folders = (game_models + GAME_FOLDER - 1) / GAME_FOLDER;
    gallery_row rows[2] = {{.label = "tiny robots (worst case)", .models = models},
                           {.label = "game-like folders", .models = folders * GAME_FOLDER}};
    if (make_game_corpus(game, game_models)) {
        fprintf(stderr, "cannot make the game-like corpus in %s\n", game);
        return 1;
    }
    if (compare_gallery(unearth, dir, "corpus", runs, &rows[0]) || compare_gallery(unearth, dir, "game", runs, &rows[1]))
        return 1;
    printf("game-like corpus: %zu folders of %d HSD models (%u joints, %u materials, %u clips) and %d Parkan archives "
           "of %d textured robots\n", folders, GAME_DATS, HSD_BIG_REAL.joints, HSD_BIG_REAL.materials,
           HSD_BIG_REAL.clips, GAME_ARCHIVES, GAME_ROBOTS);
    for (int i = 0; i < 2; i++) print_gallery_row(&rows[i]);
    return 0;
}

int main(int argc, char **argv) {
    const char *unearth = "./unearth", *dir = "/tmp/unearth-bench-batch";
    size_t models = 2000, runs = 5, game_models = 100;
    bool keep = false, gallery = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--unearth") && i + 1 < argc) unearth = argv[++i];
        else if (!strcmp(argv[i], "--dir") && i + 1 < argc) dir = argv[++i];
        else if (!strcmp(argv[i], "--models") && i + 1 < argc) models = strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--keep")) keep = true; /* leave the corpus for farm runs */
        else if (!strcmp(argv[i], "--gallery")) gallery = true;
        else if (!strcmp(argv[i], "--game-models") && i + 1 < argc) game_models = strtoul(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: %s [--unearth PATH] [--dir D] [--models N] [--runs R] [--keep] [--gallery [--game-models N]]\n", argv[0]);
            return 2;
        }
    }
    if (runs < 1 || runs > MAX_RUNS || models < 1 || game_models < 1) return 2;
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    char corpus[4300];
    snprintf(corpus, sizeof corpus, "%s/corpus", dir);
    if (system(cmd) != 0 || mkdir(dir, 0755) != 0 || make_corpus(corpus, models) != 0) {
        fprintf(stderr, "cannot make the corpus in %s\n", corpus);
        return 3;
    }
    int rc = gallery ? gallery_rows(unearth, dir, models, game_models, runs) : compare(unearth, dir, models, runs);
    if (!keep && system(cmd) != 0) return 3;
    return rc ? 1 : 0;
}
