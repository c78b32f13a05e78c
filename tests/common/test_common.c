/* Tests of the common layer: bounded reads, buffer, XXH64 vectors, diagnostics, atomic
 * writes and output directories. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"
#include "common/xxh64.h"
#include "unearth/common.h"
#include "unearth/version.h"
#include "common/bytes.h"
#include "common/io.h"
#include "common/text.h"

/* Every result has its own value and name: callers tell a round-trip mismatch and a size limit
 * apart from plain invalid input and from a failed allocation. */
static void results_are_distinct_and_named(void) {
    const ue_result all[] = {UE_OK, UE_ERR_INVALID, UE_ERR_USAGE, UE_ERR_IO, UE_ERR_NOMEM,
                             UE_ERR_UNSUPPORTED, UE_ERR_MISMATCH, UE_ERR_LIMIT};
    const size_t n = sizeof all / sizeof all[0];
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            CHECK(all[i] != all[j]);
            CHECK(strcmp(ue_result_name(all[i]), ue_result_name(all[j])) != 0);
        }
    CHECK_STR(ue_result_name(UE_ERR_MISMATCH), "round-trip mismatch");
    CHECK_STR(ue_result_name(UE_ERR_LIMIT), "over a size limit");
    CHECK_STR(ue_result_name(UE_ERR_NOMEM), "out of memory");
    CHECK_STR(ue_result_name((ue_result)99), "unknown");
}

/* The run-time version is the one the headers name, and the string spells the three numbers. */
static void version_macros_agree(void) {
    char spelled[32];
    snprintf(spelled, sizeof spelled, "%d.%d.%d", UE_VERSION_MAJOR, UE_VERSION_MINOR,
             UE_VERSION_PATCH);
    CHECK_STR(UE_VERSION, spelled);
    CHECK_STR(ue_version(), UE_VERSION);
    CHECK(UE_VERSION_NUMBER == UE_VERSION_MAJOR * 10000 + UE_VERSION_MINOR * 100 + UE_VERSION_PATCH);
}

static void bounded_reads_fail_past_end(void) {
    const uint8_t b[6] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06};
    uint32_t v32 = 0xAAAAAAAA;
    uint16_t v16 = 0;
    CHECK(ue_rd_u32le(b, 6, 2, &v32));
    CHECK_EQ_U(v32, 0x06050403u);
    CHECK(ue_rd_u32be(b, 6, 0, &v32));
    CHECK_EQ_U(v32, 0x01020304u);
    CHECK(ue_rd_u16be(b, 6, 4, &v16));
    CHECK_EQ_U(v16, 0x0506u);
    v32 = 0x12345678;
    CHECK(!ue_rd_u32le(b, 6, 3, &v32));
    CHECK_EQ_U(v32, 0x12345678u); /* untouched on failure */
    CHECK(!ue_rd_u16le(b, 6, 5, &v16));
    CHECK(!ue_rd_u32le(b, 6, SIZE_MAX - 1, &v32)); /* offset arithmetic must not wrap */
    uint8_t v8;
    CHECK(!ue_rd_u8(b, 6, 6, &v8));
    float f;
    const uint8_t one[4] = {0x00, 0x00, 0x80, 0x3F};
    CHECK(ue_rd_f32le(one, 4, 0, &f));
    CHECK(f == 1.0f);
}

static void size_arithmetic_detects_overflow(void) {
    size_t r;
    CHECK(ue_add_size(1, 2, &r) && r == 3);
    CHECK(!ue_add_size(SIZE_MAX, 1, &r));
    CHECK(ue_mul_size(1u << 20, 64, &r) && r == (size_t)64 << 20);
    CHECK(!ue_mul_size(SIZE_MAX / 2 + 1, 2, &r));
    CHECK(ue_range_ok(10, 6, 16));
    CHECK(!ue_range_ok(10, 7, 16));
    CHECK(!ue_range_ok(UINT64_MAX, 2, 16));
}

static void buffer_appends_and_caps(void) {
    ue_buf b = {0};
    ue_buf_put_u32le(&b, 0x11223344);
    ue_buf_put_u16be(&b, 0xA1B2);
    ue_buf_align(&b, 8);
    CHECK_EQ_U(b.size, 8);
    const uint8_t want[8] = {0x44, 0x33, 0x22, 0x11, 0xA1, 0xB2, 0, 0};
    CHECK_MEM(b.data, want, 8);
    ue_buf_free(&b);
    ue_buf capped = {0};
    capped.limit = 4;
    ue_buf_put_u32le(&capped, 1);
    CHECK(!capped.failed);
    ue_buf_put_u8(&capped, 1);
    CHECK(capped.failed);
    CHECK_EQ_U(capped.size, 4);
    ue_buf_free(&capped);
}

static void xxh64_matches_reference_vectors(void) {
    /* Values printed by the reference tool (`xxhsum -H64`). */
    char hex[17];
    ue_xxh64_hex("", 0, hex);
    CHECK_STR(hex, "ef46db3751d8e999");
    ue_xxh64_hex("abc", 3, hex);
    CHECK_STR(hex, "44bc2cf5ad770999");
    CHECK_EQ_U(ue_xxh64("abc", 3, 0), 0x44BC2CF5AD770999ull);
    /* Lengths that cross every tail branch give different, stable hashes. */
    uint8_t buf[100];
    for (int i = 0; i < 100; i++) buf[i] = (uint8_t)i;
    ue_xxh64_hex(buf, 100, hex); /* four 32-byte stripes, then 8-, 4- and 1-byte tails */
    CHECK_STR(hex, "6ac1e58032166597");
    ue_xxh64_hex(buf, 37, hex);
    CHECK_STR(hex, "d93fa2dfee5c24c9");
    CHECK(ue_xxh64(buf, 100, 0) != ue_xxh64(buf, 100, 1));
}

/* Fed in pieces of every split, the hash is the reference tool's hash of the whole. */
static void xxh64_in_pieces_equals_whole(void) {
    uint8_t buf[100];
    for (int i = 0; i < 100; i++) buf[i] = (uint8_t)i;
    for (size_t a = 0; a <= 100; a += 3)
        for (size_t b = a; b <= 100; b += 7) {
            ue_xxh64_state st;
            ue_xxh64_init(&st, 0);
            ue_xxh64_update(&st, buf, a);
            ue_xxh64_update(&st, buf + a, b - a);
            ue_xxh64_update(&st, buf + b, 100 - b);
            CHECK_EQ_U(ue_xxh64_digest(&st), 0x6ac1e58032166597ull);
        }
    ue_xxh64_state st;
    ue_xxh64_init(&st, 0);
    ue_xxh64_update(&st, "ab", 2);
    ue_xxh64_update(&st, "c", 1);
    CHECK_EQ_U(ue_xxh64_digest(&st), 0x44BC2CF5AD770999ull);
}

static void hex_round_trip_and_rejects(void) {
    uint8_t out[4];
    size_t len;
    CHECK(ue_hex_decode("00fFa5", out, sizeof out, &len));
    CHECK_EQ_U(len, 3);
    CHECK_EQ_U(out[1], 0xFF);
    CHECK(!ue_hex_decode("abc", out, sizeof out, &len));
    CHECK(!ue_hex_decode("zz", out, sizeof out, &len));
    CHECK(!ue_hex_decode("0011223344", out, sizeof out, &len));
}

static void diagnostics_carry_offset_and_path(void) {
    ue_diag d = {0};
    d.base_offset = 0x100;
    snprintf(d.path_prefix, sizeof d.path_prefix, "outer/entry[2]");
    ue_diag_add(&d, UE_SEV_ERROR, "x.y", 0x10, "nres/header", "bad %d", 7);
    ue_diag_add(&d, UE_SEV_WARNING, "x.z", UE_NO_OFFSET, "", "w");
    REQUIRE(d.count == 2);
    CHECK_EQ_U(d.items[0].offset, 0x110);
    CHECK_STR(d.items[0].path, "outer/entry[2]/nres/header");
    CHECK_STR(d.items[0].message, "bad 7");
    CHECK_EQ_U(d.items[1].offset, UE_NO_OFFSET);
    CHECK_EQ_U(ue_diag_count(&d, UE_SEV_ERROR), 1);
    CHECK_EQ_U(ue_diag_count(&d, UE_SEV_WARNING), 2);
    char line[400];
    ue_diag_format(&d.items[0], line, sizeof line);
    CHECK_STR(line, "error: outer/entry[2]/nres/header @0x110: bad 7 [x.y]");
    ue_diag_free(&d);
    /* Appending a scratch list keeps severities at or above the threshold, rebased. */
    ue_diag scratch = {0}, into = {0};
    ue_diag_add(&scratch, UE_SEV_INFO, "s.info", 1, "p", "i");
    ue_diag_add(&scratch, UE_SEV_ERROR, "s.err", 2, "p", "e");
    into.base_offset = 0x10;
    ue_diag_append(&into, &scratch, UE_SEV_WARNING);
    REQUIRE(into.count == 1);
    CHECK_STR(into.items[0].code, "s.err");
    CHECK_EQ_U(into.items[0].offset, 0x12);
    ue_diag_free(&scratch);
    ue_diag_free(&into);
    ue_diag capped = {0};
    capped.max_items = 2;
    for (int i = 0; i < 5; i++) ue_diag_add(&capped, UE_SEV_INFO, "c", 0, "p", "m");
    CHECK_EQ_U(capped.count, 2);
    CHECK_EQ_U(capped.dropped, 3);
    ue_diag_free(&capped);
}

static void atomic_write_never_clobbers(void) {
    char dir[] = "/tmp/ue_test_common_XXXXXX";
    REQUIRE(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/out.bin", dir);
    ue_diag d = {0};
    CHECK_EQ_U(ue_file_write_atomic(path, "abc", 3, false, &d), UE_OK);
    CHECK_EQ_U(ue_file_write_atomic(path, "xyz", 3, false, &d), UE_ERR_USAGE);
    uint8_t *data;
    size_t size;
    CHECK_EQ_U(ue_file_read(path, 100, &data, &size, &d), UE_OK);
    CHECK(size == 3 && memcmp(data, "abc", 3) == 0);
    free(data);
    CHECK_EQ_U(ue_file_write_atomic(path, "xyzw", 4, true, &d), UE_OK);
    CHECK_EQ_U(ue_file_read(path, 100, &data, &size, &d), UE_OK);
    CHECK(size == 4 && memcmp(data, "xyzw", 4) == 0);
    free(data);
    CHECK_EQ_U(ue_file_read(path, 2, &data, &size, &d), UE_ERR_LIMIT); /* over the cap */

    /* An aborted output directory leaves nothing behind. */
    char out[256];
    snprintf(out, sizeof out, "%s/extracted", dir);
    ue_outdir o;
    REQUIRE(ue_outdir_begin(&o, out, false, NULL, &d) == UE_OK);
    CHECK_EQ_U(ue_outdir_write(&o, "a/b.bin", "1", 1, &d), UE_OK);
    ue_outdir_abort(&o);
    CHECK(!ue_path_exists(out));
    REQUIRE(ue_outdir_begin(&o, out, false, NULL, &d) == UE_OK);
    CHECK_EQ_U(ue_outdir_write(&o, "a/b.bin", "1", 1, &d), UE_OK);
    CHECK_EQ_U(ue_outdir_commit(&o, &d), UE_OK);
    snprintf(path, sizeof path, "%s/a/b.bin", out);
    CHECK(ue_path_exists(path));
    ue_remove_tree(dir);
    CHECK(!ue_path_exists(dir));
    ue_diag_free(&d);
}

static bool only_a_txt(const char *rel, void *ctx) {
    (void)ctx;
    return !strcmp(rel, "a.txt");
}

static bool owns_if_only_a_txt(const char *dir, void *ctx) {
    return ue_dir_holds_only(dir, only_a_txt, ctx);
}

static void outputs_never_touch_inputs(void) {
    char dir[] = "/tmp/ue_test_outputs_XXXXXX";
    REQUIRE(mkdtemp(dir));
    char in[256], in_dir[256], link_path[256], path[256];
    snprintf(in_dir, sizeof in_dir, "%s/src", dir);
    snprintf(in, sizeof in, "%s/src/model.msh", dir);
    REQUIRE(ue_mkdirs(in_dir, NULL) == UE_OK);
    REQUIRE(ue_file_write_atomic(in, "M", 1, false, NULL) == UE_OK);
    ue_diag d = {0};
    /* Compared by device and inode: another spelling or a hard link is still the input. */
    snprintf(path, sizeof path, "%s/src/../src/./model.msh", dir);
    CHECK_EQ_U(ue_output_check_input(path, in, &d), UE_ERR_USAGE);
    snprintf(link_path, sizeof link_path, "%s/hard.glb", dir);
    REQUIRE(link(in, link_path) == 0);
    CHECK_EQ_U(ue_output_check_input(link_path, in, &d), UE_ERR_USAGE);
    CHECK(strstr(d.items[d.count - 1].message, "is the input") != NULL);
    /* An OUTER:ENTRY input protects its outer file. */
    snprintf(path, sizeof path, "%s:entry.msh", in);
    CHECK_EQ_U(ue_output_check_input(in, path, &d), UE_ERR_USAGE);
    /* Inside an input directory (even where nothing exists yet), or containing the input. */
    snprintf(path, sizeof path, "%s/new/deeper/out.glb", in_dir);
    CHECK_EQ_U(ue_output_check_input(path, in_dir, &d), UE_ERR_USAGE);
    CHECK(strstr(d.items[d.count - 1].message, "lies inside") != NULL);
    CHECK_EQ_U(ue_output_check_input(dir, in, &d), UE_ERR_USAGE);
    CHECK(strstr(d.items[d.count - 1].message, "contains") != NULL);
    /* Neighbours are fine, and so is an input that does not exist. */
    snprintf(path, sizeof path, "%s/out.glb", dir);
    CHECK_EQ_U(ue_output_check_input(path, in, &d), UE_OK);
    CHECK_EQ_U(ue_output_check_input(path, "/no/such/input", &d), UE_OK);

    /* Directories: empty is accepted without -f; a non-empty one only when owned and with -f;
     * a file is never replaced by a directory. */
    ue_outdir o;
    char out[256];
    snprintf(out, sizeof out, "%s/out", dir);
    REQUIRE(ue_mkdirs(out, NULL) == UE_OK);
    const ue_outdir_owner owner = {"a test output", owns_if_only_a_txt, NULL};
    REQUIRE(ue_outdir_begin(&o, out, false, &owner, &d) == UE_OK);
    CHECK_EQ_U(ue_outdir_write(&o, "a.txt", "1", 1, &d), UE_OK);
    CHECK_EQ_U(ue_outdir_commit(&o, &d), UE_OK);
    CHECK_EQ_U(ue_outdir_begin(&o, out, false, &owner, &d), UE_ERR_USAGE);
    CHECK_EQ_U(ue_outdir_begin(&o, out, true, NULL, &d), UE_ERR_USAGE);
    REQUIRE(ue_outdir_begin(&o, out, true, &owner, &d) == UE_OK);
    snprintf(path, sizeof path, "%s/foreign.txt", out);
    REQUIRE(ue_file_write_atomic(path, "F", 1, false, NULL) == UE_OK);
    CHECK_EQ_U(ue_outdir_commit(&o, &d), UE_ERR_USAGE); /* the foreign file arrived meanwhile */
    CHECK(ue_path_exists(path));
    CHECK_EQ_U(ue_outdir_begin(&o, in, true, &owner, &d), UE_ERR_USAGE);
    CHECK_EQ_U(ue_file_write_atomic(out, "x", 1, true, &d), UE_ERR_USAGE); /* a directory */
    ue_remove_tree(dir);
    ue_diag_free(&d);
}

static void cp1251_becomes_utf8(void) {
    char out[64];
    CHECK_EQ_U(ue_cp1251_to_utf8("\xC1\xE0\xE7\xE0_01", out, sizeof out), 11);
    CHECK_STR(out, "\xD0\x91\xD0\xB0\xD0\xB7\xD0\xB0_01"); /* "База_01" */
    ue_cp1251_to_utf8("\xA8\xB8\xB9", out, sizeof out);        /* Ё ё № */
    CHECK_STR(out, "\xD0\x81\xD1\x91\xE2\x84\x96");
    ue_cp1251_to_utf8("a\x98", out, sizeof out);                 /* unassigned → U+FFFD */
    CHECK_STR(out, "a\xEF\xBF\xBD");
    /* A full buffer never ends in half a character: "Б" needs 2 bytes, 2 are left with NUL. */
    CHECK_EQ_U(ue_cp1251_to_utf8("ab\xC1", out, 4), 2);
    CHECK_STR(out, "ab");
}

static void utf8_becomes_cp1251(void) {
    char out[64];
    size_t len = 0, at = 0;
    uint32_t bad = 0;
    /* "Антенна_2": А U+0410 → 0xC0 and а..я U+0430.. → 0xE0.. (the code page's letter rows). */
    CHECK_EQ_U(ue_utf8_to_cp1251("\xD0\x90\xD0\xBD\xD1\x82\xD0\xB5\xD0\xBD\xD0\xBD\xD0\xB0_2", out,
                                 sizeof out, &len, &bad, &at), UE_OK);
    CHECK_EQ_U(len, 9);
    CHECK_STR(out, "\xC0\xED\xF2\xE5\xED\xED\xE0_2");
    CHECK_EQ_U(ue_utf8_to_cp1251("\xD0\x81\xD1\x91\xE2\x84\x96\xE2\x82\xAC", out, sizeof out, &len, NULL, NULL),
               UE_OK); /* Ё ё № € */
    CHECK_STR(out, "\xA8\xB8\xB9\x88");
    /* "ab名": U+540D is not in the code page; the error names it and where it is. */
    CHECK_EQ_U(ue_utf8_to_cp1251("ab\xE5\x90\x8D", out, sizeof out, &len, &bad, &at), UE_ERR_INVALID);
    CHECK_EQ_U(bad, 0x540D);
    CHECK_EQ_U(at, 2);
    /* Malformed input: a cut sequence, an overlong '/', a surrogate. */
    CHECK_EQ_U(ue_utf8_to_cp1251("x\xC3(", out, sizeof out, NULL, &bad, &at), UE_ERR_INVALID);
    CHECK_EQ_U(bad, UINT32_MAX);
    CHECK_EQ_U(at, 1);
    CHECK_EQ_U(ue_utf8_to_cp1251("\xC0\xAF", out, sizeof out, NULL, &bad, NULL), UE_ERR_INVALID);
    CHECK_EQ_U(ue_utf8_to_cp1251("\xED\xA0\x80", out, sizeof out, NULL, &bad, NULL), UE_ERR_INVALID);
    /* U+FFFD only stands for the unassigned 0x98 on the way in; it has no byte to go back to. */
    CHECK_EQ_U(ue_utf8_to_cp1251("\xEF\xBF\xBD", out, sizeof out, NULL, &bad, NULL), UE_ERR_INVALID);
    CHECK_EQ_U(bad, 0xFFFD);
    CHECK_EQ_U(ue_utf8_to_cp1251("abc", out, 3, NULL, NULL, NULL), UE_ERR_USAGE); /* no room for NUL */
    /* Every assigned byte survives the trip to UTF-8 and back. */
    size_t same = 0;
    for (unsigned b = 1; b < 256; b++) {
        char one[2] = {(char)b, 0}, utf8[8], back[4];
        ue_cp1251_to_utf8(one, utf8, sizeof utf8);
        if (ue_utf8_to_cp1251(utf8, back, sizeof back, &len, NULL, NULL) == UE_OK && len == 1 &&
            (unsigned char)back[0] == b)
            same++;
    }
    CHECK_EQ_U(same, 254); /* 255 bytes minus 0x98 */
}

static void utf8_decode_and_copy(void) {
    uint32_t cp = 0;
    CHECK_EQ_U(ue_utf8_decode("\xE2\x82\xAC", 3, &cp), 3);
    CHECK_EQ_U(cp, 0x20AC);
    CHECK_EQ_U(ue_utf8_decode("\xF0\x9F\x98\x80", 4, &cp), 4);
    CHECK_EQ_U(cp, 0x1F600);
    CHECK_EQ_U(ue_utf8_decode("\xE2\x82\xAC", 2, &cp), 0); /* cut by the length */
    CHECK_EQ_U(ue_utf8_decode("\xF4\x90\x80\x80", 4, &cp), 0); /* beyond U+10FFFF */
    char out[8];
    /* "абв" is 6 bytes; with the NUL only two letters fit in 6, and none is cut in half. */
    CHECK_EQ_U(ue_utf8_copy("\xD0\xB0\xD0\xB1\xD0\xB2", out, 6), 4);
    CHECK_STR(out, "\xD0\xB0\xD0\xB1");
}

/* Folding as a file system that ignores case compares: each capital below is written out by
 * its code point, and its small letter is the one Unicode's case tables pair with it. */
static void file_names_fold_case(void) {
    char out[64];
    CHECK_EQ_U(ue_file_name_fold("ROBOT.Msh", out, sizeof out), 9);
    CHECK_STR(out, "robot.msh");
    ue_file_name_fold("\xD0\xA0\xD0\x9E\xD0\x91\xD0\x9E\xD0\xA2", out, sizeof out); /* РОБОТ (U+0420 ...) */
    CHECK_STR(out, "\xD1\x80\xD0\xBE\xD0\xB1\xD0\xBE\xD1\x82");                   /* робот (U+0440 ...) */
    ue_file_name_fold("\xD0\x81\xD0\x8E\xD2\x90", out, sizeof out); /* Ё U+0401, Ў U+040E, Ґ U+0490 */
    CHECK_STR(out, "\xD1\x91\xD1\x9E\xD2\x91");                   /* ё U+0451, ў U+045E, ґ U+0491 */
    ue_file_name_fold("\xC3\x84\xC3\x97\xC3\x9F\xC5\x81\xC5\xB8", out, sizeof out); /* Ä × ß Ł Ÿ */
    CHECK_STR(out, "\xC3\xA4\xC3\x97\xC3\x9F\xC5\x82\xC3\xBF");                   /* ä × ß ł ÿ */
    ue_file_name_fold("\xCE\xA3\xCE\x86\xCE\xA9", out, sizeof out); /* Σ U+03A3, Ά U+0386, Ω U+03A9 */
    CHECK_STR(out, "\xCF\x83\xCE\xAC\xCF\x89");                   /* σ U+03C3, ά U+03AC, ω U+03C9 */
    ue_file_name_fold("A\xFF\xE4\xB8\x80", out, sizeof out); /* a byte that is no UTF-8, a CJK letter */
    CHECK_STR(out, "a\xFF\xE4\xB8\x80");
    CHECK_EQ_U(ue_file_name_fold("\xD0\x96\xD0\x96\xD0\x96", out, 6), 4); /* cut between letters */
    CHECK_STR(out, "\xD0\xB6\xD0\xB6");
}

static void entry_names_and_file_names(void) {
    char out[64];
    /* An NRes entry "РОБОТ.msh" as ue_entry_info shows it. */
    ue_entry_name_to_utf8("\\xD0\\xCE\\xC1\\xCE\\xD2.msh", out, sizeof out);
    CHECK_STR(out, "\xD0\xA0\xD0\x9E\xD0\x91\xD0\x9E\xD0\xA2.msh");
    ue_entry_name_to_utf8("\\xe0", out, sizeof out);
    CHECK_STR(out, "\xD0\xB0");
    ue_entry_name_to_utf8("a\\x01b\\\\c\\x", out, sizeof out); /* controls and "\\" stay escaped */
    CHECK_STR(out, "a\\x01b\\\\c\\x");

    CHECK_EQ_U(ue_file_name_component("\xD0\xA0\xD0\xBE/1:2*", out, sizeof out), 9);
    CHECK_STR(out, "\xD0\xA0\xD0\xBE_1_2_"); /* "Ро_1_2_" */
    CHECK_EQ_U(ue_file_name_component("..", out, sizeof out), 0);
    CHECK_STR(out, "");
    CHECK_EQ_U(ue_file_name_component(".", out, sizeof out), 0);
    ue_file_name_component("a\x01" "b\x7F\xC2\x85" "c", out, sizeof out); /* C0, DEL, C1 (U+0085) */
    CHECK_STR(out, "a_b__c");
    ue_file_name_component("\xC3(\\", out, sizeof out); /* a cut sequence, a backslash */
    CHECK_STR(out, "_(_");
    CHECK_EQ_U(ue_file_name_component("\xD0\x96\xD0\x96\xD0\x96", out, 6), 4);
    CHECK_STR(out, "\xD0\x96\xD0\x96");
    ue_file_name_component("a..b", out, sizeof out); /* dots inside a name are fine */
    CHECK_STR(out, "a..b");
}

/* Room for large payloads: writable to the last byte and freed with free(); from 4 MiB on
 * aligned to 2 MiB where the system can be asked for huge pages; an impossible size is NULL. */
static void large_allocations_align_for_huge_pages(void) {
    const size_t sizes[] = {0, 100, ((size_t)4 << 20) - 1, ((size_t)5 << 20) + 3};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        uint8_t *p = ue_malloc_large(sizes[i]);
        REQUIRE(p != NULL);
        if (sizes[i]) {
            memset(p, 0xA5, sizes[i]);
            CHECK_EQ_U(p[sizes[i] - 1], 0xA5);
        }
#ifdef MADV_HUGEPAGE
        if (sizes[i] >= ((size_t)4 << 20)) CHECK_EQ_U((uintptr_t)p % ((size_t)2 << 20), 0);
#endif
        free(p);
    }
    CHECK(ue_malloc_large(SIZE_MAX) == NULL);
}

/* Numbers use '.', whatever LC_NUMERIC says. The machine may lack a comma locale (CI images
 * often have only C and C.UTF-8); then the second half says so and checks nothing more. */
static void numbers_ignore_the_locale(void) {
    char *end;
    CHECK(setlocale(LC_NUMERIC, "C.UTF-8") != NULL || setlocale(LC_NUMERIC, "C") != NULL);
    CHECK(ue_parse_double("1.5", &end) == 1.5 && *end == 0);
    CHECK(ue_parse_double(" -2.25e1x", &end) == -22.5 && *end == 'x');
    CHECK(ue_parse_float("0.125", &end) == 0.125f && *end == 0);
    CHECK(ue_parse_double("1,5", &end) == 1.0 && *end == ',');
    errno = 0;
    CHECK(ue_parse_double("1e999", NULL) == HUGE_VAL && errno == ERANGE);
    static const char *const comma_locales[] = {"de_DE.UTF-8", "de_DE.utf8", "ru_RU.UTF-8", "ru_RU.utf8",
                                                "fr_FR.UTF-8", "fr_FR.utf8", "de_DE", "ru_RU"};
    const char *comma = NULL;
    for (size_t i = 0; i < sizeof comma_locales / sizeof comma_locales[0] && !comma; i++)
        if (setlocale(LC_NUMERIC, comma_locales[i]) && !strcmp(localeconv()->decimal_point, ","))
            comma = comma_locales[i];
    if (!comma) {
        printf("  (no comma-decimal locale installed: the LC_NUMERIC=de_DE half is skipped)\n");
    } else {
        CHECK(strtod("1.5", NULL) == 1.0); /* the locale does bite plain strtod */
        CHECK(ue_parse_double("1.5", &end) == 1.5 && *end == 0);
        CHECK(ue_parse_float("-0.75", &end) == -0.75f && *end == 0);
        CHECK(!strcmp(localeconv()->decimal_point, ",")); /* and is still the caller's afterwards */
    }
    setlocale(LC_NUMERIC, "C");
}

/* ue_text_indexed spells what snprintf spells, cut at every length as snprintf cuts. */
static void indexed_paths_are_snprintf_s(void) {
    static const uint64_t values[] = {0, 7, 10, 99, 12345, 4294967296u, UINT64_MAX};
    char want[80], got[80];
    for (size_t k = 0; k < sizeof values / sizeof *values; k++)
        for (size_t cap = 0; cap <= 64; cap++) {
            uint64_t i = values[k], j = values[(k + 3) % 7];
            memset(got, 'x', sizeof got);
            snprintf(want, cap ? cap : 1, "scene/animations[%llu]/channels[%llu]", (unsigned long long)i,
                     (unsigned long long)j);
            ue_text_indexed(got, cap, "scene/animations[", i, "]/channels[", j, "]");
            if (cap) CHECK_STR(got, want);
            else CHECK(got[0] == 'x');
            snprintf(want, cap ? cap : 1, "/nodes/%llu/rotation", (unsigned long long)i);
            ue_text_indexed(got, cap, "/nodes/", i, "/rotation", 0, NULL);
            if (cap) CHECK_STR(got, want);
        }
}

int main(void) {
    RUN(indexed_paths_are_snprintf_s);
    RUN(numbers_ignore_the_locale);
    RUN(large_allocations_align_for_huge_pages);
    RUN(xxh64_in_pieces_equals_whole);
    RUN(results_are_distinct_and_named);
    RUN(version_macros_agree);
    RUN(cp1251_becomes_utf8);
    RUN(utf8_becomes_cp1251);
    RUN(utf8_decode_and_copy);
    RUN(entry_names_and_file_names);
    RUN(file_names_fold_case);
    RUN(bounded_reads_fail_past_end);
    RUN(size_arithmetic_detects_overflow);
    RUN(buffer_appends_and_caps);
    RUN(xxh64_matches_reference_vectors);
    RUN(hex_round_trip_and_rejects);
    RUN(diagnostics_carry_offset_and_path);
    RUN(atomic_write_never_clobbers);
    RUN(outputs_never_touch_inputs);
    return TEST_SUMMARY();
}
