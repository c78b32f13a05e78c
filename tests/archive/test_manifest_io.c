/* Tests of manifest I/O: the streaming writer prints what jansson's json_dumps printed (its text
 * for the same values, recorded below), and extract → pack through it gives the input back. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/json_doc.h"
#include "common/json_writer.h"
#include "unearth/archive.h"
#include "unearth/nres.h"
#include "test.h"

static void writer_prints_what_jansson_printed(void) {
    static const char tricky[] = "q\"b\\s/\b\f\n\r\t\x01\x1f\x7f \xD0\x96 \xE2\x80\xA8";
    ue_buf b = {0};
    ue_json w;
    ue_json_init_lines(&w, &b);
    ue_json_object_begin(&w);
    ue_json_key_int(&w, "n", -9223372036854775807LL - 1);
    ue_json_key_string(&w, tricky, tricky);
    ue_json_key(&w, "empty_object");
    ue_json_object_begin(&w);
    ue_json_object_end(&w);
    ue_json_key(&w, "empty_array");
    ue_json_array_begin(&w);
    ue_json_array_end(&w);
    ue_json_key(&w, "a");
    ue_json_array_begin(&w);
    ue_json_int(&w, 7);
    ue_json_bool(&w, false);
    ue_json_array_begin(&w);
    ue_json_object_begin(&w);
    ue_json_key(&w, "t");
    ue_json_bool(&w, true);
    ue_json_object_end(&w);
    ue_json_array_end(&w);
    ue_json_string(&w, "");
    ue_json_array_end(&w);
    ue_json_key_string(&w, "not_utf8", "\xC3\x28"); /* left out, as json_string refused it */
    ue_json_object_end(&w);
    ue_buf_put_u8(&b, '\n');
    ue_buf_put_u8(&b, 0);
    CHECK(!ue_json_failed(&w));

    /* jansson 2.14's json_dumps(JSON_INDENT(2) | JSON_PRESERVE_ORDER) of the same values, plus
     * extract's final '\n' (the text non-UTF-8 value left out: json_string refused it). */
    static const char want[] =
        "{\n"
        "  \"n\": -9223372036854775808,\n"
        "  \"q\\\"b\\\\s/\\b\\f\\n\\r\\t\\u0001\\u001F\x7F"" \xD0""\x96"" \xE2""\x80""\xA8""\": \"q\\\"b\\\\s/\\b\\f\\n\\r\\t\\u0001\\u001F\x7F"" \xD0""\x96"" \xE2""\x80""\xA8""\",\n"
        "  \"empty_object\": {},\n"
        "  \"empty_array\": [],\n"
        "  \"a\": [\n"
        "    7,\n"
        "    false,\n"
        "    [\n"
        "      {\n"
        "        \"t\": true\n"
        "      }\n"
        "    ],\n"
        "    \"\"\n"
        "  ]\n"
        "}\n";
    CHECK_STR((const char *)b.data, want);
    /* And a hand-written piece of it, so the check does not only compare two renderings. */
    CHECK(strstr((const char *)b.data, "\"empty_object\": {},\n  \"empty_array\": [],\n") != NULL);
    CHECK(strstr((const char *)b.data, "\\u0001\\u001F\x7f") != NULL);
    ue_buf_free(&b);
}

/* An NRes whose names need every kind of escaping, in memory. */
static void build_nres(ue_buf *out) {
    ue_nres n;
    ue_nres_init(&n);
    REQUIRE(ue_nres_add(&n, 0x74786574 /* "text": no type unearth checks */, 1, 2, 3, "q\"b\\s.txt", "hello", 5) == UE_OK);
    REQUIRE(ue_nres_add(&n, 7, 0, 0, 0, "\xD0\xCE\xC1\xCE\xD2.msh", "robot!", 6) == UE_OK);
    REQUIRE(ue_nres_add(&n, 8, 4294967295u, 0, 0, "ctl\x01.bin", "", 0) == UE_OK);
    REQUIRE(ue_nres_write(&n, UE_NRES_LOSSLESS, out, NULL) == UE_OK);
    ue_nres_free(&n);
}

static char *read_text(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *text = calloc(1, 1 << 16);
    if (text && fread(text, 1, (1 << 16) - 1, f) == 0) text[0] = 0;
    fclose(f);
    return text;
}

static void nres_extract_and_pack(void) {
    ue_buf img = {0};
    build_nres(&img);
    ue_archive *a;
    REQUIRE(ue_archive_open_memory(img.data, img.size, "in \"x\".rlb", UE_MODE_STRICT, &a,
                                   NULL) == UE_OK);
    char dir[] = "/tmp/ue_manifest_io_XXXXXX";
    REQUIRE(mkdtemp(dir));
    char out[128], path[160];
    snprintf(out, sizeof out, "%s/x", dir);
    REQUIRE(ue_archive_extract(a, out, false, NULL) == UE_OK);
    ue_archive_close(a);
    snprintf(path, sizeof path, "%s/manifest.json", out);
    char *text = read_text(path);
    REQUIRE(text);
    /* Read and written again, the manifest is the same text (the reader and writer agree). */
    ue_jdoc m;
    ue_jdoc_error err;
    REQUIRE(ue_jdoc_parse(text, strlen(text), &m, &err) == UE_OK);
    ue_buf again = {0};
    ue_json w;
    ue_json_init_lines(&w, &again);
    ue_json_value(&w, &m.root);
    REQUIRE(ue_json_finish(&w, NULL) == UE_OK);
    ue_buf_put(&again, "\n", 2);
    CHECK_STR((const char *)again.data, text);
    ue_buf_free(&again);
    ue_jdoc_free(&m);
    /* Values written by hand from the archive built above. */
    CHECK(strstr(text, "\"file\": \"in \\\"x\\\".rlb\"") != NULL);
    CHECK(strstr(text, "\"name\": \"q\\\"b\\\\\\\\s.txt\"") != NULL); /* \ shown as \\ */
    CHECK(strstr(text, "\"name\": \"\xD0\xA0\xD0\x9E\xD0\x91\xD0\x9E\xD0\xA2.msh\"") != NULL);
    CHECK(strstr(text, "\"name\": \"ctl\\\\x01.bin\"") != NULL);
    CHECK(strstr(text, "\"attr1\": 4294967295") != NULL);
    CHECK(strstr(text, "\"unindexed\": []\n}\n") != NULL);
    ue_buf packed = {0};
    CHECK_EQ_U(ue_archive_pack(out, &packed, NULL), UE_OK);
    CHECK(packed.size == img.size && memcmp(packed.data, img.data, img.size) == 0);
    /* A broken manifest is refused with the place of the fault. */
    FILE *f = fopen(path, "wb");
    REQUIRE(f);
    fputs("{\n  \"format\": \"nres\",\n  \"entries\": [1,]\n}\n", f);
    fclose(f);
    ue_diag d = {0};
    packed.size = 0;
    CHECK_EQ_U(ue_archive_pack(out, &packed, &d), UE_ERR_INVALID);
    const ue_diag_item *it = diag_find(&d, "manifest.parse", NULL);
    CHECK(it && it->offset == 38 && strstr(it->message, "line 3, column 17") != NULL);
    ue_diag_free(&d);
    ue_buf_free(&packed);
    free(text);
    ue_buf_free(&img);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
}

/* Pack reads small payload files ahead in batches (at most 256 files or 8 MiB, files up to
 * 256 KiB): an archive whose entries cross every batch limit, with larger payloads between,
 * packs back to its own bytes through a file; a payload deleted after extract is named. */
static void nres_pack_across_read_ahead_batches(void) {
    ue_nres n;
    ue_nres_init(&n);
    const size_t pool = (300u << 10) + 700; /* entry i takes its bytes from offset i */
    uint8_t *bytes = malloc(pool);
    REQUIRE(bytes);
    uint32_t x = 12345;
    for (size_t i = 0; i < pool; i++) bytes[i] = (uint8_t)((x = x * 1103515245u + 12345u) >> 16);
    for (int i = 0; i < 700; i++) {
        size_t size = 1 + (size_t)(i * 37 % 9000);
        if (i % 100 == 50) size = 300u << 10;               /* never read ahead */
        if (i >= 300 && i < 340) size = (250u << 10) + (size_t)i; /* 40 of these exceed 8 MiB */
        char name[32];
        snprintf(name, sizeof name, "E%04d.bin", i);
        REQUIRE(ue_nres_add(&n, 1, (uint32_t)i, 0, 0, name, bytes + i, size) == UE_OK);
    }
    ue_buf img = {0};
    REQUIRE(ue_nres_write(&n, UE_NRES_LOSSLESS, &img, NULL) == UE_OK);
    ue_nres_free(&n);
    free(bytes);
    char dir[] = "/tmp/ue_read_ahead_XXXXXX";
    REQUIRE(mkdtemp(dir));
    char tree[128], archive[128], gone[200];
    snprintf(tree, sizeof tree, "%s/tree", dir);
    snprintf(archive, sizeof archive, "%s/packed.rlb", dir);
    ue_archive *a;
    REQUIRE(ue_archive_open_memory(img.data, img.size, "big.rlb", UE_MODE_STRICT, &a, NULL) == UE_OK);
    REQUIRE(ue_archive_extract(a, tree, false, NULL) == UE_OK);
    ue_archive_close(a);
    CHECK_EQ_U(ue_archive_pack_file(tree, archive, false, NULL), UE_OK);
    uint8_t *packed = NULL;
    size_t packed_size = 0;
    REQUIRE(ue_file_read(archive, 64u << 20, &packed, &packed_size, NULL) == UE_OK);
    CHECK(packed_size == img.size && memcmp(packed, img.data, img.size) == 0);
    free(packed);
    snprintf(gone, sizeof gone, "%s/entries/0333_E0333.bin", tree);
    REQUIRE(unlink(gone) == 0);
    ue_diag d = {0};
    ue_buf out = {0};
    CHECK_EQ_U(ue_archive_pack(tree, &out, &d), UE_ERR_INVALID);
    const ue_diag_item *it = diag_find(&d, "io.open", NULL);
    CHECK(it && strstr(it->path, "0333_E0333.bin") && strstr(it->message, "cannot open"));
    ue_diag_free(&d);
    ue_buf_free(&out);
    ue_buf_free(&img);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
}

int main(void) {
    RUN(writer_prints_what_jansson_printed);
    RUN(nres_extract_and_pack);
    RUN(nres_pack_across_read_ahead_batches);
    return TEST_SUMMARY();
}
