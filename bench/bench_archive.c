/* Benchmark: generates a large synthetic NRes corpus (≥ 500 MB by default), then times
 * `cp` of the same files, extract and pack, and reports MB/s and each phase's peak memory. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "unearth/archive.h"
#include "unearth/nres.h"

/* "DATA": a type id whose bytes unearth does not check (a Texm id would make validate decode them). */
#define PAYLOAD_TYPE 0x41544144u

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rng(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Entry sizes spread log-uniformly from 256 B to 8 MiB, like textures and models mixed. */
static size_t entry_size(void) {
    double e = 8.0 + (double)(rng() % 1000) / 1000.0 * 15.0;
    return (size_t)(1ull << (int)e) + rng() % 256;
}

static void fill(uint8_t *p, size_t n) {
    for (size_t i = 0; i + 8 <= n; i += 8) {
        uint64_t v = (i & 64) ? 0 : rng();
        memcpy(p + i, &v, 8);
    }
    for (size_t i = n & ~(size_t)7; i < n; i++) p[i] = (uint8_t)i;
}

typedef struct phase {
    double seconds;
    long peak_kb;
    int status;
} phase;

/* Runs fn in a child so each phase has its own peak RSS. */
static phase run_phase(int (*fn)(void *), void *arg) {
    phase ph = {0};
    sync(); /* each phase starts without the previous one's dirty pages to write back */
    double t0 = now();
    pid_t pid = fork();
    if (pid == 0) _exit(fn(arg));
    struct rusage ru;
    int status = 0;
    wait4(pid, &status, 0, &ru);
    ph.seconds = now() - t0;
    ph.peak_kb = ru.ru_maxrss;
    ph.status = WIFEXITED(status) ? WEXITSTATUS(status) : 99;
    return ph;
}

typedef struct corpus {
    char dir[512];
    int files;
    size_t total_bytes;
    size_t largest_entry;
} corpus;

static int do_cp(void *arg) {
    corpus *c = arg;
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "mkdir -p %s/cp && cp %s/a*.rlb %s/cp/", c->dir, c->dir, c->dir);
    return system(cmd) == 0 ? 0 : 1;
}

/* The same bytes as extract writes, in the same number of files: what file creation costs. */
static int do_cp_tree(void *arg) {
    corpus *c = arg;
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "mkdir -p %s/cptree && for d in %s/x*; do cp -r \"$d\" %s/cptree/; done", c->dir,
             c->dir, c->dir);
    return system(cmd) == 0 ? 0 : 1;
}

static int do_extract(void *arg) {
    corpus *c = arg;
    for (int i = 0; i < c->files; i++) {
        char in[700], out[700];
        snprintf(in, sizeof in, "%s/a%02d.rlb", c->dir, i);
        snprintf(out, sizeof out, "%s/x%02d", c->dir, i);
        ue_archive *a;
        if (ue_archive_open(in, UE_MODE_STRICT, &a, NULL) != UE_OK) return 1;
        ue_result r = ue_archive_extract(a, out, true, NULL);
        ue_archive_close(a);
        if (r != UE_OK) return 1;
    }
    return 0;
}

static int do_pack(void *arg) {
    corpus *c = arg;
    for (int i = 0; i < c->files; i++) {
        char in[700], out[700];
        snprintf(in, sizeof in, "%s/x%02d", c->dir, i);
        snprintf(out, sizeof out, "%s/p%02d.rlb", c->dir, i);
        if (ue_archive_pack_file(in, out, true, NULL) != UE_OK) return 1;
    }
    return 0;
}

static bool same_file(const char *a, const char *b) {
    char cmd[1500];
    snprintf(cmd, sizeof cmd, "cmp -s %s %s", a, b);
    return system(cmd) == 0;
}

int main(int argc, char **argv) {
    size_t target_mb = 512;
    bool keep = false;
    corpus c = {0};
    snprintf(c.dir, sizeof c.dir, "/tmp/unearth-bench-archive");
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--size-mb") && i + 1 < argc) target_mb = strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--keep")) keep = true; /* leave the corpus for profiling */
        else if (!strcmp(argv[i], "--dir") && i + 1 < argc) snprintf(c.dir, sizeof c.dir, "%s", argv[++i]);
        else {
            fprintf(stderr, "usage: %s [--size-mb N] [--dir DIR] [--keep]\n", argv[0]);
            return 2;
        }
    }
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", c.dir, c.dir);
    if (system(cmd) != 0) return 3;

    /* Generate: archives of ~64 MiB each until the target is reached. */
    const size_t per_archive = 64u << 20;
    uint8_t *buf = malloc(9u << 20);
    double t0 = now();
    while (c.total_bytes < target_mb << 20) {
        ue_nres n;
        ue_nres_init(&n);
        size_t bytes = 0;
        for (int e = 0; bytes < per_archive; e++) {
            size_t sz = entry_size();
            fill(buf, sz);
            char name[32];
            snprintf(name, sizeof name, "ENTRY_%04d.bin", e);
            if (ue_nres_add(&n, PAYLOAD_TYPE, (uint32_t)e, 0, 0, name, buf, sz) != UE_OK) return 3;
            bytes += sz;
            if (sz > c.largest_entry) c.largest_entry = sz;
        }
        ue_buf out = {0};
        if (ue_nres_write(&n, UE_NRES_CANONICAL, &out, NULL) != UE_OK) return 3;
        char path[700];
        snprintf(path, sizeof path, "%s/a%02d.rlb", c.dir, c.files++);
        if (ue_file_write_atomic(path, out.data, out.size, true, NULL) != UE_OK) return 3;
        c.total_bytes += out.size;
        ue_buf_free(&out);
        ue_nres_free(&n);
    }
    free(buf);
    double mb = (double)c.total_bytes / (1024.0 * 1024.0);
    printf("corpus: %d NRes archives, %.1f MiB, largest entry %.1f MiB (generated in %.1f s)\n",
           c.files, mb, (double)c.largest_entry / 1048576.0, now() - t0);

    phase cp = run_phase(do_cp, &c);
    phase ex = run_phase(do_extract, &c);
    phase pk = run_phase(do_pack, &c);
    phase ct = run_phase(do_cp_tree, &c);
    if (cp.status || ex.status || pk.status || ct.status) {
        fprintf(stderr, "a phase failed (cp %d, extract %d, pack %d)\n", cp.status, ex.status, pk.status);
        return 1;
    }
    int identical = 0;
    for (int i = 0; i < c.files; i++) {
        char a[700], b[700];
        snprintf(a, sizeof a, "%s/a%02d.rlb", c.dir, i);
        snprintf(b, sizeof b, "%s/p%02d.rlb", c.dir, i);
        identical += same_file(a, b);
    }
    printf("%-8s %9s %9s %10s %12s\n", "phase", "seconds", "MB/s", "vs cp", "peak RSS");
    printf("%-8s %9.2f %9.1f %9.0f%% %9.1f MiB\n", "cp", cp.seconds, mb / cp.seconds, 100.0,
           (double)cp.peak_kb / 1024.0);
    printf("%-8s %9.2f %9.1f %9.0f%% %9.1f MiB\n", "extract", ex.seconds, mb / ex.seconds,
           100.0 * cp.seconds / ex.seconds, (double)ex.peak_kb / 1024.0);
    printf("%-8s %9.2f %9.1f %9.0f%% %9.1f MiB\n", "pack", pk.seconds, mb / pk.seconds,
           100.0 * cp.seconds / pk.seconds, (double)pk.peak_kb / 1024.0);
    printf("%-8s %9.2f %9.1f %9.0f%%   (cp -r of the extracted trees: same bytes, same file count;\n"
           "                                      extract runs at %.0f%% of it)\n",
           "cp -r", ct.seconds, mb / ct.seconds, 100.0 * cp.seconds / ct.seconds, 100.0 * ct.seconds / ex.seconds);
    printf("repacked archives byte-identical: %d/%d\n", identical, c.files);
    printf("extract peak RSS over the cp phase (same process baseline): %.1f MiB; largest entry %.1f MiB\n",
           (double)(ex.peak_kb - cp.peak_kb) / 1024.0, (double)c.largest_entry / 1048576.0);
    snprintf(cmd, sizeof cmd, "rm -rf %s", c.dir);
    if (!keep && system(cmd) != 0) return 3;
    return identical == c.files ? 0 : 1;
}
