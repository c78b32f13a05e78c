/* Tests of the files the glTF reader opens: a file named by many buffers and images is read,
 * kept and counted once (peak memory stays that of one copy), and the list it reports. */
#include "peak_rss.h" /* first: it sets _GNU_SOURCE for wait4 */
#include <stdlib.h>
#include <sys/stat.h>

#include "test.h"
#include "unearth/gltf_read.h"

#define SHARED_BYTES ((size_t)4 << 20) /* one 4 MiB .bin */
#define NAMINGS 64                      /* buffers naming it: 256 MiB if each kept its own copy */

static char dir[512];

/* A .gltf whose NAMINGS buffers all name one.bin, spelled two ways ("one.bin", "./one.bin"). */
static bool make_fixture(void) {
    const char *base = getenv("UE_TEST_TMP");
    snprintf(dir, sizeof dir, "%s/gltf_files_XXXXXX", base && base[0] ? base : "/tmp");
    if (base && base[0]) mkdir(base, 0755);
    if (!mkdtemp(dir)) return false;
    char path[600];
    snprintf(path, sizeof path, "%s/one.bin", dir);
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fseek(f, (long)SHARED_BYTES - 1, SEEK_SET) == 0 && fputc(7, f) == 7;
    ok = fclose(f) == 0 && ok;
    snprintf(path, sizeof path, "%s/many.gltf", dir);
    f = fopen(path, "wb");
    if (!f) return false;
    fprintf(f, "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[");
    for (int i = 0; i < NAMINGS; i++)
        fprintf(f, "%s{\"uri\":\"%sone.bin\",\"byteLength\":%zu}", i ? "," : "", i % 2 ? "./" : "",
                SHARED_BYTES);
    fprintf(f, "]}");
    return fclose(f) == 0 && ok;
}

/* Child work: read the document (it must succeed and list the document and one.bin once). */
static int read_many(void *arg) {
    (void)arg;
    char path[600];
    snprintf(path, sizeof path, "%s/many.gltf", dir);
    ue_scene s;
    ue_scene_init(&s);
    ue_gltf_files opened = {0};
    ue_diag d = {0};
    ue_result r = ue_gltf_read_file_listed(path, UE_MODE_STRICT, &s, &opened, &d);
    bool ok = r == UE_OK && opened.count == 2 && strcmp(opened.paths[0], path) == 0 &&
              strlen(opened.paths[1]) > 8 &&
              strcmp(opened.paths[1] + strlen(opened.paths[1]) - 8, "/one.bin") == 0;
    if (!ok) fprintf(stderr, "  read %s, %zu files listed\n", ue_result_name(r), opened.count);
    ue_gltf_files_free(&opened);
    ue_scene_free(&s);
    ue_diag_free(&d);
    return ok ? 0 : 1;
}

static int nothing(void *arg) {
    (void)arg;
    return 0;
}

static void one_file_named_by_many_buffers(void) {
    REQUIRE(make_fixture());
    long base_kib, read_kib;
    REQUIRE(ue_run_measured(nothing, NULL, &base_kib));
    CHECK(ue_run_measured(read_many, NULL, &read_kib));
    /* one copy is 4 MiB; 64 copies would be 256 MiB: allow two copies plus 8 MiB of noise */
    long over = read_kib - base_kib;
    CHECK(over < (long)(2 * SHARED_BYTES / 1024) + 8 * 1024);
    if (over >= (long)(2 * SHARED_BYTES / 1024) + 8 * 1024) fprintf(stderr, "  peak +%ld KiB\n", over);
}

/* A read that fails still lists what it opened; the list frees to empty. */
static void listed_on_failure(void) {
    ue_scene s;
    ue_scene_init(&s);
    ue_gltf_files opened = {0};
    ue_diag d = {0};
    char path[600];
    snprintf(path, sizeof path, "%s/absent.gltf", dir);
    CHECK(ue_gltf_read_file_listed(path, UE_MODE_STRICT, &s, &opened, &d) == UE_ERR_IO);
    CHECK_EQ_U(opened.count, 1);
    if (opened.count) CHECK_STR(opened.paths[0], path);
    ue_gltf_files_free(&opened);
    CHECK(opened.count == 0 && opened.paths == NULL);
    ue_scene_free(&s);
    ue_diag_free(&d);
}

int main(void) {
    RUN(one_file_named_by_many_buffers);
    RUN(listed_on_failure);
    return TEST_SUMMARY();
}
