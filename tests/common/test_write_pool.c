/* Tests of the writer threads and the parallel loop (src/common/write_pool.c), and of the
 * output directory's pooled small payloads and buffered file sink (src/common/io.c). */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/io.h"
#include "common/write_pool.h"
#include "test.h"

static char root[256];

/* The whole file, or NULL; its size in *n. */
static uint8_t *slurp(const char *path, size_t *n) {
    uint8_t *data = NULL;
    return ue_file_read(path, 1 << 24, &data, n, NULL) == UE_OK ? data : NULL;
}

static char *dup_path(const char *fmt, int i) {
    char buf[512];
    snprintf(buf, sizeof buf, fmt, root, i);
    return strdup(buf);
}

/* 300 files through 2 threads: every one holds its own bytes (i repeated i % 50 + 1 times). */
static void pool_writes_every_file(void) {
    ue_write_pool *p = ue_write_pool_start(2);
    REQUIRE(p != NULL);
    for (int i = 0; i < 300; i++) {
        size_t n = (size_t)(i % 50 + 1);
        uint8_t *data = malloc(n);
        memset(data, i & 0xFF, n);
        CHECK(ue_write_pool_put(p, dup_path("%s/f%03d", i), data, n));
    }
    char failed[256] = "";
    CHECK_EQ_U(ue_write_pool_finish(p, failed, sizeof failed), 0);
    CHECK_STR(failed, "");
    for (int i = 0; i < 300; i += 37) {
        char *path = dup_path("%s/f%03d", i);
        size_t n = 0;
        uint8_t *got = slurp(path, &n);
        CHECK_EQ_U(n, (size_t)(i % 50 + 1));
        CHECK(got && got[0] == (uint8_t)i && got[n - 1] == (uint8_t)i);
        free(got);
        free(path);
    }
}

/* A file that cannot be created (its directory is missing) is the error finish reports. */
static void pool_reports_first_failure(void) {
    ue_write_pool *p = ue_write_pool_start(2);
    REQUIRE(p != NULL);
    uint8_t *data = malloc(4);
    memcpy(data, "abcd", 4);
    ue_write_pool_put(p, dup_path("%s/missing/x%d", 1), data, 4);
    char failed[256] = "";
    int err = ue_write_pool_finish(p, failed, sizeof failed);
    CHECK_EQ_U(err, ENOENT);
    char want[300];
    snprintf(want, sizeof want, "%s/missing/x1", root);
    CHECK_STR(failed, want);
}

static void add_square(void *ctx, size_t i) { ((uint64_t *)ctx)[i] = (uint64_t)i * i; }

/* Every index is visited once: the sum of squares below 1000 is 332,833,500. */
static void parallel_for_visits_each_index(void) {
    uint64_t *v = calloc(1000, sizeof *v);
    ue_parallel_for(1000, 3, add_square, v);
    uint64_t sum = 0;
    for (size_t i = 0; i < 1000; i++) sum += v[i];
    CHECK_EQ_U(sum, 332833500u);
    ue_parallel_for(0, 2, add_square, v); /* nothing to do: returns at once */
    free(v);
}

/* A loop inside a loop of several threads runs on its caller's thread: each inner index
 * records the thread that ran it, and each must be the thread of its outer index. A loop inside
 * a one-thread loop is not held back (its own indices are still all visited). */
typedef struct nested {
    pthread_t outer[8], inner[8][50];
} nested;

typedef struct inner_ctx {
    nested *n;
    size_t outer;
} inner_ctx;

static void inner_step(void *ctx, size_t i) {
    inner_ctx *c = ctx;
    c->n->inner[c->outer][i] = pthread_self();
    usleep(200); /* long enough for other threads, were there any, to take indices */
}

static void outer_step(void *ctx, size_t i) {
    nested *n = ctx;
    n->outer[i] = pthread_self();
    inner_ctx c = {n, i};
    ue_parallel_for(50, 4, inner_step, &c);
}

static void nested_loops_run_inner_on_the_caller(void) {
    nested *n = calloc(1, sizeof *n);
    ue_parallel_for(8, 2, outer_step, n);
    size_t same = 0;
    for (size_t o = 0; o < 8; o++)
        for (size_t i = 0; i < 50; i++) same += pthread_equal(n->inner[o][i], n->outer[o]) != 0;
    CHECK_EQ_U(same, 8u * 50u);
    uint64_t *v = calloc(1000, sizeof *v);
    ue_parallel_for(1, 1, outer_step, n); /* one thread outside: the inner loop may spread */
    ue_parallel_for(1000, 3, add_square, v);   /* and after the loops, a loop is free again */
    uint64_t sum = 0;
    for (size_t i = 0; i < 1000; i++) sum += v[i];
    CHECK_EQ_U(sum, 332833500u);
    free(v);
    free(n);
}

/* Payloads from a file source go through the pool; the tree appears whole on commit, with the
 * bytes and hashes of each range. */
static void outdir_extracts_small_payloads(void) {
    char src_path[300], out[300];
    snprintf(src_path, sizeof src_path, "%s/src.bin", root);
    snprintf(out, sizeof out, "%s/out", root);
    uint8_t bytes[10000];
    for (size_t i = 0; i < sizeof bytes; i++) bytes[i] = (uint8_t)(i * 7);
    REQUIRE(ue_file_write_atomic(src_path, bytes, sizeof bytes, false, NULL) == UE_OK);
    ue_source src;
    REQUIRE(ue_source_open_file(src_path, &src, NULL) == UE_OK);
    ue_outdir o;
    REQUIRE(ue_outdir_begin(&o, out, false, NULL, NULL) == UE_OK);
    uint64_t hash[100];
    for (int i = 0; i < 100; i++) {
        char rel[64];
        snprintf(rel, sizeof rel, "entries/e%02d", i);
        CHECK_EQ_U(ue_outdir_copy(&o, rel, &src, (uint64_t)i * 100, 100, &hash[i], NULL), UE_OK);
    }
    CHECK(!ue_path_exists(out)); /* nothing shows before the commit */
    CHECK_EQ_U(ue_outdir_commit(&o, NULL), UE_OK);
    ue_source_close(&src);
    for (int i = 0; i < 100; i += 33) {
        char path[400];
        snprintf(path, sizeof path, "%s/entries/e%02d", out, i);
        size_t n = 0;
        uint8_t *got = slurp(path, &n);
        CHECK_EQ_U(n, 100);
        CHECK(got && memcmp(got, bytes + i * 100, 100) == 0);
        CHECK_EQ_U(hash[i], ue_xxh64(bytes + i * 100, 100, 0));
        free(got);
    }
}

/* Many small writes and small copies through the buffered sink come out in order. */
static void file_sink_buffers_in_order(void) {
    char src_path[300], out[300];
    snprintf(src_path, sizeof src_path, "%s/src.bin", root);
    snprintf(out, sizeof out, "%s/sink.bin", root);
    ue_source src;
    REQUIRE(ue_source_open_file(src_path, &src, NULL) == UE_OK);
    ue_file_sink f;
    REQUIRE(ue_file_sink_begin(&f, out, false, NULL) == UE_OK);
    /* 3,000 rounds of "copy 90 bytes at 10·k, put the byte k": 273,000 bytes, past one buffer */
    for (int k = 0; k < 3000; k++) {
        uint8_t mark = (uint8_t)k;
        CHECK_EQ_U(ue_sink_copy(&f.sink, &src, (uint64_t)(k % 900) * 10, 90), UE_OK);
        CHECK_EQ_U(ue_sink_put(&f.sink, &mark, 1), UE_OK);
    }
    CHECK_EQ_U(ue_file_sink_commit(&f, NULL), UE_OK);
    ue_source_close(&src);
    size_t n = 0;
    uint8_t *got = slurp(out, &n);
    REQUIRE(got != NULL);
    CHECK_EQ_U(n, 3000 * 91);
    int k = 2999; /* the last round: bytes i*7 for i from 10·(2999 % 900), then the mark */
    size_t at = (size_t)k * 91, from = (size_t)(k % 900) * 10;
    CHECK_EQ_U(got[at], (uint8_t)(from * 7));
    CHECK_EQ_U(got[at + 89], (uint8_t)((from + 89) * 7));
    CHECK_EQ_U(got[at + 90], (uint8_t)k);
    free(got);
}

int main(void) {
    snprintf(root, sizeof root, "/tmp/ue_test_write_pool.%ld", (long)getpid());
    ue_remove_tree(root);
    if (mkdir(root, 0755) != 0) return 1;
    RUN(pool_writes_every_file);
    RUN(pool_reports_first_failure);
    RUN(parallel_for_visits_each_index);
    RUN(nested_loops_run_inner_on_the_caller);
    RUN(outdir_extracts_small_payloads);
    RUN(file_sink_buffers_in_order);
    ue_remove_tree(root);
    return TEST_SUMMARY();
}
