/* Benchmark: GameCube containers — LZSS decode/encode throughput and ratio per level (greedy
 * levels 0-2 against lazy 3-9) on DAT-like data, and FSYS extract next to `cp` of the same bytes. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "unearth/archive.h"
#include "unearth/gamecube.h"
#include "unearth/lzss.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint32_t rs = 0xC0105EEDu;
static uint32_t rnd(void) {
    rs ^= rs << 13;
    rs ^= rs >> 17;
    rs ^= rs << 5;
    return rs;
}

/* DAT-like: 0x40-byte records of flags, offsets and floats (many repeats, some noise), plus
 * runs of zeros and vertex-like arrays of small big-endian shorts. */
static void fill_dat_like(uint8_t *p, size_t n) {
    size_t i = 0;
    while (i < n) {
        uint32_t kind = rnd() % 8;
        size_t len = 0x40 * (1 + rnd() % 8);
        if (len > n - i) len = n - i;
        for (size_t k = 0; k < len; k += 4) {
            uint32_t w;
            if (kind < 3) w = (k % 16 == 0) ? 0x3F800000u : (rnd() % 4 == 0 ? rnd() : 0);
            else if (kind < 6) w = ((rnd() % 64) << 16) | (rnd() % 64);
            else if (kind == 6) w = 0;
            else w = 0x80000000u | (uint32_t)(i + k);
            uint8_t b[4] = {(uint8_t)(w >> 24), (uint8_t)(w >> 16), (uint8_t)(w >> 8), (uint8_t)w};
            size_t take = len - k < 4 ? len - k : 4;
            memcpy(p + i + k, b, take);
        }
        i += len;
    }
}

static long peak_kb(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* PKX extract and pack of an XD PKX around the data (a DAT-sized payload, one animation entry)
 * next to cp of the same file: whether its three parts would be worth threads. */
static int pkx_rows(const uint8_t *data, size_t n, const char *dir) {
    uint8_t anim[UE_PKX_ANIM_ENTRY] = {0};
    ue_buf b = {0};
    if (ue_pkx_build(UE_PKX_XD, data, n, data, n / 8, anim, 1, 1, &b) != UE_OK) return 1;
    char path[256], cmd[700], out[300], packed[300];
    snprintf(path, sizeof path, "%s/bench.pkx", dir);
    snprintf(out, sizeof out, "%s/pkx_x", dir);
    snprintf(packed, sizeof packed, "%s/re.pkx", dir);
    if (ue_file_write_atomic(path, b.data, b.size, true, NULL) != UE_OK) return 1;
    double mb = (double)b.size / 1e6;
    ue_buf_free(&b);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s/copy.pkx'", path, dir);
    double t0 = now();
    if (system(cmd) != 0) return 1;
    double t_cp = now() - t0;
    t0 = now();
    ue_archive *a;
    if (ue_archive_open(path, UE_MODE_STRICT, &a, NULL) != UE_OK) return 1;
    if (ue_archive_extract(a, out, true, NULL) != UE_OK) return 1;
    ue_archive_close(a);
    double t_x = now() - t0;
    t0 = now();
    if (ue_archive_pack_file(out, packed, true, NULL) != UE_OK) return 1;
    double t_p = now() - t0;
    t0 = now();
    uint64_t h = ue_xxh64(data, n, 0) ^ ue_xxh64(data, n / 8, 0); /* extract's hashing alone */
    double t_h = now() - t0;
    printf("PKX (XD, DAT + GPT1), %.1f MB: extract %.1f MB/s, pack %.1f MB/s, cp %.1f MB/s; "
           "XXH64 of the parts %.1f ms (%llx)\n",
           mb, mb / t_x, mb / t_p, mb / t_cp, t_h * 1e3, (unsigned long long)(h & 0xF));
    return 0;
}

int main(int argc, char **argv) {
    size_t mb = argc > 1 ? (size_t)atoi(argv[1]) : 32;
    if (mb == 0) mb = 32;
    size_t n = mb << 20;
    uint8_t *data = malloc(n), *back = malloc(n);
    if (!data || !back) return 3;
    fill_dat_like(data, n);
    printf("GameCube containers benchmark: %zu MiB of DAT-like data, one core\n\n", mb);

    printf("%-22s %10s %10s %10s\n", "LZSS encoder", "MB/s", "ratio", "bytes");
    ue_buf enc6 = {0};
    static const int levels[] = {0, 1, 2, 3, 6, 9};
    size_t greedy_best = 0;
    for (size_t li = 0; li < sizeof levels / sizeof levels[0]; li++) {
        ue_buf b = {0};
        double t0 = now();
        if (ue_gclzss_encode(data, n, levels[li], 0, &b) != UE_OK) return 3;
        double dt = now() - t0;
        printf("level %d (%s)%*s %10.1f %10.3f %10zu\n", levels[li],
               levels[li] < 3 ? "greedy" : "lazy", levels[li] < 3 ? 6 : 8, "", (double)n / 1e6 / dt,
               (double)b.size / (double)n, b.size);
        if (levels[li] == 2) greedy_best = b.size;
        if (levels[li] == 9 && greedy_best)
            printf("  lazy level 9 vs greedy level 2: %.2f%% smaller\n",
                   100.0 * (1.0 - (double)b.size / (double)greedy_best));
        if (levels[li] == 6) enc6 = b;
        else ue_buf_free(&b);
    }

    /* Decode: best of several runs, MB/s of output. */
    double best = 1e9;
    for (int rep = 0; rep < 5; rep++) {
        uint8_t *out;
        size_t on;
        double t0 = now();
        if (ue_gclzss_decode(enc6.data, enc6.size, UE_MODE_STRICT, &out, &on, NULL, 0, "b") != UE_OK)
            return 3;
        double dt = now() - t0;
        if (dt < best) best = dt;
        if (on != n || memcmp(out, data, n) != 0) {
            fprintf(stderr, "decode mismatch\n");
            return 1;
        }
        free(out);
    }
    printf("\nLZSS decode (strict, level-6 stream): %.1f MB/s of output (goal >= 300)\n",
           (double)n / 1e6 / best);

    /* FSYS extract against cp of the same archive. */
    size_t entries = 64, each = n / entries;
    ue_fsys_write_entry *w = calloc(entries, sizeof *w);
    char (*names)[32] = calloc(entries, 32);
    if (!w || !names) return 3;
    for (size_t i = 0; i < entries; i++) {
        snprintf(names[i], 32, "entry_%03zu", i);
        w[i].short_name = names[i];
        w[i].type_code = 0x04;
        w[i].file_id = (uint16_t)i;
        w[i].data = data + i * each;
        w[i].size = each;
    }
    char dir[] = "/tmp/ue_bench_gc_XXXXXX";
    if (!mkdtemp(dir)) return 3;
    char path[256], cmd[600], out_dir[300];
    for (int compressed = 0; compressed < 2; compressed++) {
        for (size_t i = 0; i < entries; i++) w[i].compressed = compressed;
        ue_fsys_write_options opt = {0x201, 1, true, NULL, 0, 6};
        ue_buf f = {0};
        if (ue_fsys_write(&opt, w, entries, &f, NULL) != UE_OK) return 3;
        snprintf(path, sizeof path, "%s/bench%d.fsys", dir, compressed);
        if (ue_file_write_atomic(path, f.data, f.size, true, NULL) != UE_OK) return 3;
        size_t fsize = f.size;
        ue_buf_free(&f);
        snprintf(cmd, sizeof cmd, "cp '%s' '%s/copy.bin'", path, dir);
        double t0 = now();
        if (system(cmd) != 0) return 3;
        double t_cp = now() - t0;
        snprintf(out_dir, sizeof out_dir, "%s/x%d", dir, compressed);
        t0 = now();
        ue_archive *a;
        if (ue_archive_open(path, UE_MODE_STRICT, &a, NULL) != UE_OK) return 3;
        if (ue_archive_extract(a, out_dir, true, NULL) != UE_OK) return 3;
        ue_archive_close(a);
        double t_x = now() - t0;
        printf("FSYS extract, %zu %s entries, %.1f MB archive: %.1f MB/s (cp: %.1f MB/s)\n", entries,
               compressed ? "LZSS" : "stored", (double)fsize / 1e6, (double)fsize / 1e6 / t_x,
               (double)fsize / 1e6 / t_cp);
    }
    if (pkx_rows(data, n, dir)) return 3;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    printf("\npeak memory: %ld KiB\n", peak_kb());
    ue_buf_free(&enc6);
    free(w);
    free(names);
    free(data);
    free(back);
    return 0;
}
