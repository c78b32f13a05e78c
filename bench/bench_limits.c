/* Benchmark: the CLI's container verbs timed as whole processes side by side with the limit
 * plain tools set (cp -r, tar -cf), alternating runs, medians of the pair-by-pair ratios. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "unearth/gamecube.h"
#include "unearth/msh.h"
#include "unearth/nres.h"

/* "DATA": a type id whose bytes unearth does not check (a Texm id would make validate decode them). */
#define PAYLOAD_TYPE 0x41544144u

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;
static uint64_t rng(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static char dir[512] = "/tmp/unearth-bench-limits";
static char unearth[1024];

/* Runs `cmd` through the shell; its wall time, or a negative value when it failed. */
static double timed(const char *cmd) {
    double t0 = now();
    pid_t pid = fork();
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    double t = now() - t0;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? t : -1.0;
}

static int quiet(const char *fmt, const char *a) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd, fmt, a, a, a, a);
    return timed(cmd) < 0;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct stats {
    double min, median, max;
} stats;

static stats stats_of(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    stats s = {v[0], n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2, v[n - 1]};
    return s;
}

/* One row: A and B in turn, `runs` times after one warm-up; `reset` (untimed) before each, and
 * `check` (untimed, may be NULL) right after A, so a verification is not charged to A. */
static int pair(const char *label, const char *a, const char *b, const char *reset,
                const char *check, int runs, double mib) {
    double ta[64], tb[64], ratio[64];
    for (int i = -1; i < runs; i++) {
        if (timed(reset) < 0) return 1;
        sync();
        double x = timed(a);
        if (x >= 0 && check && timed(check) < 0) {
            fprintf(stderr, "%s: the check after A failed:\n  %s\n", label, check);
            return 1;
        }
        if (timed(reset) < 0) return 1;
        sync();
        double y = b ? timed(b) : 1.0;
        if (x < 0 || y < 0) {
            fprintf(stderr, "%s: a command failed:\n  %s\n  %s\n", label, a, b ? b : "");
            return 1;
        }
        if (i < 0) continue; /* warm-up: page cache, binaries */
        ta[i] = x, tb[i] = y, ratio[i] = x / y;
    }
    stats sa = stats_of(ta, runs), sb = stats_of(tb, runs), sr = stats_of(ratio, runs);
    if (b)
        printf("%-34s %6.3f s  %6.3f s  %5.2f× (%.2f–%.2f)  %7.1f MB/s\n", label, sa.median,
               sb.median, sr.median, sr.min, sr.max, mib * 1.048576 / sa.median);
    else
        printf("%-34s %6.3f s (%.3f–%.3f)          %7.1f MB/s (%.1f–%.1f)\n", label, sa.median,
               sa.min, sa.max, mib * 1.048576 / sa.median, mib * 1.048576 / sa.max,
               mib * 1.048576 / sa.min);
    return 0;
}

static int save(const char *name, ue_buf *b) {
    char path[700];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    int bad = !f || fwrite(b->data, 1, b->size, f) != b->size;
    if (f) bad |= fclose(f) != 0;
    ue_buf_free(b);
    return bad;
}

/* 20,000 entries of 1–9 KiB (100 MB): the per-file costs dominate, as in a real game. */
static int make_small_entries(double *mib) {
    ue_nres n;
    ue_nres_init(&n);
    uint8_t buf[9216];
    for (int e = 0; e < 20000; e++) {
        size_t sz = 1024 + rng() % 8192;
        for (size_t i = 0; i < sz; i++) buf[i] = (uint8_t)(i & 64 ? rng() : i);
        char name[32];
        snprintf(name, sizeof name, "E%05d.bin", e);
        if (ue_nres_add(&n, PAYLOAD_TYPE, (uint32_t)e, 0, 0, name, buf, sz) != UE_OK) return 1;
    }
    ue_buf out = {0};
    if (ue_nres_write(&n, UE_NRES_CANONICAL, &out, NULL) != UE_OK) return 1;
    ue_nres_free(&n);
    *mib = (double)out.size / 1048576.0;
    return save("small.rlb", &out);
}

/* One small model (two LODs of a grid) written by the MSH writer. */
static int make_model(size_t grid, ue_buf *out) {
    uint16_t parent = 0xFFFF;
    ue_msh m;
    if (ue_msh_new(&m, 1, &parent, NULL) != UE_OK) return 1;
    size_t nv = (grid + 1) * (grid + 1), ni = grid * grid * 6;
    float pos[3 * 81], nrm[3 * 81], uv[2 * 81];
    uint16_t idx[6 * 64];
    for (size_t v = 0; v < nv; v++) {
        pos[3 * v] = (float)(v % (grid + 1)), pos[3 * v + 1] = (float)(v / (grid + 1));
        pos[3 * v + 2] = (float)(rng() % 100) / 100.0f;
        nrm[3 * v] = 0, nrm[3 * v + 1] = 0, nrm[3 * v + 2] = 1;
        uv[2 * v] = pos[3 * v] / (float)grid, uv[2 * v + 1] = pos[3 * v + 1] / (float)grid;
    }
    for (size_t q = 0, k = 0; q < grid * grid; q++) {
        uint16_t a = (uint16_t)(q / grid * (grid + 1) + q % grid), c = (uint16_t)(a + grid + 1);
        idx[k++] = a, idx[k++] = c, idx[k++] = (uint16_t)(a + 1);
        idx[k++] = (uint16_t)(a + 1), idx[k++] = c, idx[k++] = (uint16_t)(c + 1);
    }
    ue_result r = UE_OK;
    for (int lod = 0; lod < 2 && r == UE_OK; lod++) {
        size_t slot;
        r = ue_msh_add_slot(&m, 0, lod, 0, &slot);
        ue_msh_geometry g = {pos, nrm, uv, NULL, nv, idx, ni, 0};
        if (r == UE_OK) r = ue_msh_replace_slot_geometry(&m, slot, &g, NULL);
    }
    if (r == UE_OK) r = ue_msh_write(&m, out, NULL);
    ue_msh_free(&m);
    return r != UE_OK;
}

/* 2,000 models of about 5 KB in one NRes (10 MB): what validate --strict walks. */
static int make_models(double *mib) {
    ue_nres n;
    ue_nres_init(&n);
    for (int e = 0; e < 2000; e++) {
        ue_buf m = {0};
        if (make_model(5 + (size_t)(rng() % 4), &m)) return 1;
        char name[32];
        snprintf(name, sizeof name, "M%04d.msh", e);
        ue_result r = ue_nres_add(&n, 0x6873656D, (uint32_t)e, 0, 0, name, m.data, m.size);
        ue_buf_free(&m);
        if (r != UE_OK) return 1;
    }
    ue_buf out = {0};
    if (ue_nres_write(&n, UE_NRES_CANONICAL, &out, NULL) != UE_OK) return 1;
    ue_nres_free(&n);
    *mib = (double)out.size / 1048576.0;
    return save("models.rlb", &out);
}

/* DAT-like bytes: runs of noise and repeats of earlier stretches, so LZSS has work to do. */
static void compressible(uint8_t *p, size_t n) {
    for (size_t i = 0; i < n;) {
        size_t len = 8 + rng() % 120;
        if (len > n - i) len = n - i;
        if (i > 4096 && rng() % 3) {
            size_t from = i - 1 - rng() % 4000;
            for (size_t k = 0; k < len; k++) p[i + k] = p[from + k];
        } else {
            for (size_t k = 0; k < len; k++) p[i + k] = (uint8_t)(rng() % 16);
        }
        i += len;
    }
}

/* FSYS archives of one and of two 16 MiB LZSS entries, extracted, each payload then edited
 * by one byte so that pack has to compress it again. */
static int make_fsys(int entries) {
    size_t sz = 16u << 20;
    ue_fsys_write_entry w[2];
    memset(w, 0, sizeof w);
    uint8_t *data[2] = {malloc(sz), malloc(sz)};
    for (int i = 0; i < entries; i++) {
        compressible(data[i], sz);
        w[i].short_name = i ? "b" : "a";
        w[i].type_code = 4;
        w[i].data = data[i];
        w[i].size = sz;
        w[i].compressed = true;
    }
    ue_fsys_write_options opt = {0x201, 1, true, NULL, 0, 6};
    ue_buf out = {0};
    if (ue_fsys_write(&opt, w, (size_t)entries, &out, NULL) != UE_OK) return 1;
    free(data[0]), free(data[1]);
    char name[32], cmd[4096];
    snprintf(name, sizeof name, "fsys%d.fsys", entries);
    if (save(name, &out)) return 1;
    snprintf(cmd, sizeof cmd,
             "cd %s && %s extract -q fsys%d.fsys -o fsys%d && for f in fsys%d/entries/*; do "
             "printf x | dd of=$f bs=1 seek=100 conv=notrunc status=none; done",
             dir, unearth, entries, entries, entries);
    return timed(cmd) < 0;
}

/* The reference for pack --level 9: a greedy encoder that always takes the longest match in
 * the whole window (what the Okumura binary-tree encoder of FSYSTOOL emits, up to ties, which
 * do not change the size). Independent of lz_match.c: exhaustive hash chains, no limit. */
static size_t greedy_longest_size(const uint8_t *in, size_t n) {
    const size_t ring = 4096, max_len = 18, max_dist = 4078;
    uint8_t *v = calloc(ring + n, 1); /* the decoder's ring starts zero-filled */
    int32_t *head = malloc(65536 * sizeof *head), *prev = malloc((ring + n) * sizeof *prev);
    memcpy(v + ring, in, n);
    for (size_t i = 0; i < 65536; i++) head[i] = -1;
    size_t items = 0, bytes = 0;
    for (size_t pos = 0; pos < ring + n;) {
        size_t best = 0;
        if (pos >= ring && pos + 3 <= ring + n) {
            size_t limit = ring + n - pos < max_len ? ring + n - pos : max_len;
            for (int32_t c = head[v[pos] << 8 | v[pos + 1]]; c >= 0 && pos - (size_t)c <= max_dist;
                 c = prev[c]) {
                size_t len = 0;
                while (len < limit && v[(size_t)c + len] == v[pos + len]) len++;
                if (len > best) best = len;
                if (best == limit) break;
            }
        }
        size_t step = pos < ring ? 1 : (best >= 3 ? best : 1);
        if (pos >= ring) items++, bytes += best >= 3 ? 2 : 1;
        for (size_t k = 0; k < step; k++, pos++) {
            if (pos + 2 > ring + n) continue;
            int32_t h = v[pos] << 8 | v[pos + 1];
            prev[pos] = head[h];
            head[h] = (int32_t)pos;
        }
    }
    free(v), free(head), free(prev);
    return 16 + (items + 7) / 8 + bytes;
}

/* Output size of the default level, of --level 9 and of the greedy reference. */
static int lzss_sizes(void) {
    size_t n = 4u << 20;
    uint8_t *data = malloc(n);
    compressible(data, n);
    size_t ref = greedy_longest_size(data, n);
    printf("LZSS on %zu MiB: greedy longest match (FSYSTOOL-like) %zu bytes", n >> 20, ref);
    for (int level = 6; level <= 9; level += 3) {
        ue_buf b = {0};
        if (ue_gclzss_encode(data, n, level, 0, &b) != UE_OK) return 1;
        printf("; level %d %zu (%+.2f%%)", level, b.size, 100.0 * ((double)b.size / (double)ref - 1));
        ue_buf_free(&b);
    }
    printf("\n");
    free(data);
    return 0;
}

/* Archive sizes of the edited two-entry FSYS packed at the default level and at 9. */
static int fsys_level_sizes(void) {
    char cmd[4096];
    long size[2];
    for (int k = 0; k < 2; k++) {
        snprintf(cmd, sizeof cmd, "%s pack -q -f %s %s/fsys2 -o %s/fl.fsys", unearth,
                 k ? "--level 9" : "", dir, dir);
        if (timed(cmd) < 0) return 1;
        snprintf(cmd, sizeof cmd, "%s/fl.fsys", dir);
        FILE *f = fopen(cmd, "rb");
        if (!f || fseek(f, 0, SEEK_END) != 0) return 1;
        size[k] = ftell(f);
        fclose(f);
    }
    printf("FSYS 2×16 MiB packed: default level %ld bytes, --level 9 %ld (%+.2f%%)\n", size[0],
           size[1], 100.0 * ((double)size[1] / (double)size[0] - 1));
    return 0;
}

static void find_unearth(const char *argv0) {
    char here[900];
    snprintf(here, sizeof here, "%s", argv0);
    char *slash = strrchr(here, '/');
    if (slash) *slash = 0;
    else snprintf(here, sizeof here, ".");
    char *abs = realpath(here, NULL);
    snprintf(unearth, sizeof unearth, "%s/../unearth", abs ? abs : here);
    free(abs);
}

/* The reset between runs moves the last output aside instead of deleting it: ext4 without a
 * journal will not reuse an inode deleted in the last 60 s (360 s while its table block is
 * dirty) and scans past every such inode on each create, so creating 20,000 files right after
 * deleting 20,000 costs seconds, for unearth and cp alike. Everything set aside is deleted at
 * the end. */
static void set_aside(char *cmd, size_t n, const char *a, const char *b) {
    snprintf(cmd, n,
             "mkdir -p %s/aside && for p in %s %s; do if [ -e \"$p\" ]; then "
             "mv \"$p\" %s/aside/$(date +%%s%%N); fi; done",
             dir, a, b ? b : "", dir);
}

static int run_rows(int runs, const char *only, double small_mib, double models_mib) {
    char a[4096], b[4096], reset[4096], check[4096], x[600], p1[600], p2[600];
    int bad = 0;
    printf("%-34s %8s  %8s  %-18s %s\n", "row (A vs B)", "A", "B", "A/B median (range)",
           "A throughput");
    if (!only || !strcmp(only, "extract")) {
        snprintf(x, sizeof x, "%s/x", dir);
        snprintf(a, sizeof a, "%s extract -q %s/small.rlb -o %s", unearth, dir, x);
        snprintf(b, sizeof b, "cp -r %s/tree %s", dir, x);
        set_aside(reset, sizeof reset, x, NULL);
        bad |= pair("extract 100 MB/20k vs cp -r", a, b, reset, NULL, runs, small_mib);
    }
    if (!only || !strcmp(only, "pack")) {
        snprintf(p1, sizeof p1, "%s/p.rlb", dir);
        snprintf(p2, sizeof p2, "%s/p.tar", dir);
        snprintf(a, sizeof a, "%s pack -q %s/tree -o %s", unearth, dir, p1);
        snprintf(check, sizeof check, "cmp -s %s %s/small.rlb", p1, dir);
        snprintf(b, sizeof b, "tar -cf %s -C %s/tree .", p2, dir);
        set_aside(reset, sizeof reset, p1, p2);
        bad |= pair("pack of that tree vs tar -cf", a, b, reset, check, runs, small_mib);
    }
    if (!only || !strcmp(only, "validate")) {
        snprintf(a, sizeof a, "%s validate --strict %s/models.rlb >/dev/null", unearth, dir);
        bad |= pair("validate --strict 2,000 models", a, NULL, "true", NULL, runs, models_mib);
        /* Control: reading the same bytes with cat, the limit of the disk (page cache) for
         * this file under the machine's load at the time. */
        snprintf(a, sizeof a, "cat %s/models.rlb >/dev/null", dir);
        bad |= pair("  control: cat of that file", a, NULL, "true", NULL, runs, models_mib);
    }
    if (!only || !strcmp(only, "fsys")) {
        /* The control for the 2-vs-1 rows: two CPU-bound shell loops at once against one. On two
         * idle cores 1.0×; the figure is what a second thread can gain at this moment. */
        const char *spin = "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done";
        snprintf(a, sizeof a, "(%s) & (%s) & wait", spin, spin);
        bad |= pair("control: 2 CPU loops vs 1", a, spin, "true", NULL, runs, 0.0);
        snprintf(p1, sizeof p1, "%s/f1.fsys", dir);
        snprintf(p2, sizeof p2, "%s/f2.fsys", dir);
        snprintf(a, sizeof a, "%s pack -q %s/fsys2 -o %s", unearth, dir, p2);
        snprintf(b, sizeof b, "%s pack -q %s/fsys1 -o %s", unearth, dir, p1);
        set_aside(reset, sizeof reset, p1, p2);
        bad |= pair("FSYS pack 2×16 MiB vs 1×16 MiB", a, b, reset, NULL, runs, 32.0);
        /* The same edited trees at --level 9: what the deeper search costs, and its size. */
        snprintf(a, sizeof a, "%s pack -q --level 9 %s/fsys2 -o %s", unearth, dir, p2);
        snprintf(b, sizeof b, "%s pack -q %s/fsys2 -o %s", unearth, dir, p1);
        bad |= pair("FSYS pack --level 9 vs default", a, b, reset, NULL, runs, 32.0);
        bad |= fsys_level_sizes();
        /* Extract decodes the two entries in parallel: the second should cost little. */
        snprintf(p1, sizeof p1, "%s/fx1", dir);
        snprintf(p2, sizeof p2, "%s/fx2", dir);
        snprintf(a, sizeof a, "%s extract -q %s/fsys2.fsys -o %s", unearth, dir, p2);
        snprintf(b, sizeof b, "%s extract -q %s/fsys1.fsys -o %s", unearth, dir, p1);
        set_aside(reset, sizeof reset, p1, p2);
        bad |= pair("FSYS extract 2×16 MiB vs 1×16 MiB", a, b, reset, NULL, runs, 32.0);
        /* The limit: copying a tree of the same files (the extracted, edited fsys2). */
        snprintf(b, sizeof b, "cp -r %s/fsys2 %s", dir, p1);
        bad |= pair("FSYS extract 2×16 MiB vs cp -r", a, b, reset, NULL, runs, 32.0);
        /* extract gives each LZSS entry to a thread of its own, as far as the cores go. */
        long cores = sysconf(_SC_NPROCESSORS_ONLN), threads = cores < 2 ? 1 : 2;
        printf("  (unearth: the 2 entries on %ld thread%s of %ld core%s; cp -r: 1 thread)\n", threads,
               threads > 1 ? "s" : "", cores, cores > 1 ? "s" : "");
    }
    if (!only || !strcmp(only, "lzss")) bad |= lzss_sizes();
    return bad;
}

int main(int argc, char **argv) {
    int runs = 5;
    const char *only = NULL;
    bool keep = false;
    find_unearth(argv[0]);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--dir") && i + 1 < argc) snprintf(dir, sizeof dir, "%s", argv[++i]);
        else if (!strcmp(argv[i], "--unearth") && i + 1 < argc)
            snprintf(unearth, sizeof unearth, "%s", argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
        else if (!strcmp(argv[i], "--keep")) keep = true; /* leave the corpus for profiling */
        else {
            fprintf(stderr, "usage: %s [--runs N] [--dir D] [--unearth PATH] "
                            "[--only extract|pack|validate|fsys|lzss] [--keep]\n", argv[0]);
            return 2;
        }
    }
    if (runs < 1 || runs > 64) runs = 5;
    if (quiet("rm -rf %s && mkdir -p %s", dir)) return 3;
    double small_mib = 0, models_mib = 0;
    double t0 = now();
    /* The NRes corpora only for the rows that read them. */
    bool nres = !only || !strcmp(only, "extract") || !strcmp(only, "pack") || !strcmp(only, "validate");
    if (nres && (make_small_entries(&small_mib) || make_models(&models_mib))) return 3;
    if ((!only || !strcmp(only, "fsys")) && (make_fsys(1) || make_fsys(2))) return 3;
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s extract -q %s/small.rlb -o %s/tree", unearth, dir, dir);
    if (nres && timed(cmd) < 0) return 3;
    if (nres)
        printf("corpus: %.1f MiB NRes of 20,000 entries, %.1f MiB NRes of 2,000 models, ", small_mib,
               models_mib);
    else
        printf("corpus: ");
    printf("FSYS of 16 MiB LZSS entries (%.1f s); %d runs each, medians\n", now() - t0, runs);
    int bad = run_rows(runs, only, small_mib, models_mib);
    if (!keep) quiet("rm -rf %s", dir);
    return bad;
}
