/* unearth tests — FSYS: hand-built byte images written straight from the spec (not by our
 * writer), names and type rules of docs/formats/fsys.md, every defensive rule of docs/formats/fsys.md#defensive-rules, writer round trips. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <unistd.h>

#include "archive/container.h"
#include "gamecube/gamecube_int.h"
#include "test.h"
#include "common/json_doc.h"
#include "unearth/archive.h"
#include "samples/samples.h"
#include "unearth/gamecube.h"
#include "common/bytes.h"
#include "common/io.h"
#include "common/json_writer.h"

/* A manifest read back into `doc` (free it with ue_jdoc_free); its root, or NULL. */
static const ue_jv *load_manifest(const char *path, ue_jdoc *doc) {
    uint8_t *data = NULL;
    size_t size = 0;
    ue_jdoc_error err;
    memset(doc, 0, sizeof *doc);
    if (ue_file_read(path, (size_t)1 << 30, &data, &size, NULL) != UE_OK) return NULL;
    ue_result r = ue_jdoc_parse((const char *)data, size, doc, &err);
    free(data);
    return r == UE_OK ? &doc->root : NULL;
}


/* ---- hand-built image ------------------------------------------------------------------------
 * 0x000 header | 0x040 offsets table | 0x060 entry list | 0x080 names | 0x100 records (0x50 each)
 * | 0x200.. payloads, 0x40 apart | footer. Three entries:
 *   0: full name "alpha.dat", type 0x04, stored, "hello world!"
 *   1: short name "beta" (no ext), type 0x1E, LZSS-compressed "ABABABAB"
 *   2: no names, unknown type 0x16, stored "raw?"                                              */
enum { IMG = 0x320, REC = 0x100 };

static void put32(uint8_t *p, size_t off, uint32_t v) { ue_store_u32be(p + off, v); }

static void hand_image(uint8_t *p) {
    memset(p, 0, IMG);
    memcpy(p, "FSYS", 4);
    put32(p, 0x04, 0x100);   /* v1: 0x50-byte records */
    put32(p, 0x08, 7);       /* group id */
    put32(p, 0x0C, 3);       /* entries */
    put32(p, 0x10, 0x80000001u);
    put32(p, 0x18, 0x40);
    put32(p, 0x1C, 0x200);
    put32(p, 0x20, IMG);
    put32(p, 0x40, 0x60);    /* entry pointer list (docs/formats/fsys.md#header) */
    put32(p, 0x44, 0x80);
    put32(p, 0x48, 0x200);
    for (uint32_t i = 0; i < 3; i++) put32(p, 0x60 + 4 * i, REC + 0x50 * i);
    memcpy(p + 0x80, "alpha\0beta\0\0alpha.dat\0", 22); /* short names, then full names */
    /* entry 0 */
    uint8_t *e = p + REC;
    put32(e, 0x00, 0x00110400u);
    put32(e, 0x04, 0x200);
    put32(e, 0x08, 12);
    put32(e, 0x14, 12);
    put32(e, 0x1C, 0x80 + 12);
    put32(e, 0x20, 2);
    put32(e, 0x24, 0x80);
    memcpy(p + 0x200, "hello world!", 12);
    /* entry 1: LZSS blob of the hand-computed stream 03 'A' 'B' EE F3 */
    e = p + REC + 0x50;
    put32(e, 0x00, 0x00121E00u);
    put32(e, 0x04, 0x240);
    put32(e, 0x08, 8);
    put32(e, 0x0C, 0x80000000u);
    put32(e, 0x14, 21);
    put32(e, 0x20, 15);
    put32(e, 0x24, 0x86);
    const uint8_t blob[21] = {'L', 'Z', 'S', 'S', 0, 0, 0, 8, 0, 0, 0, 21, 0, 0, 0, 0,
                              0x03, 'A', 'B', 0xEE, 0xF3};
    memcpy(p + 0x240, blob, sizeof blob);
    /* entry 2: both name pointers 0 → fallback name */
    e = p + REC + 0xA0;
    put32(e, 0x00, 0x00131600u);
    put32(e, 0x04, 0x280);
    put32(e, 0x08, 4);
    put32(e, 0x14, 4);
    put32(e, 0x20, 11);
    memcpy(p + 0x280, "raw?", 4);
    memcpy(p + IMG - 4, "FSYS", 4);
}

/* Whether `code` was reported, and at which byte offset. */
static bool has_code_at(const ue_diag *d, const char *code, uint64_t *off) {
    const ue_diag_item *it = diag_find(d, code, NULL);
    if (it && off) *off = it->offset;
    return it != NULL;
}

/* Entry i's display name (names are read from the archive on demand). */
static const char *name_of(const fsys_state *s, size_t i) {
    static char buf[256];
    ue_fsys_display_name(s, i, buf, sizeof buf);
    return buf;
}

static ue_result parse(const uint8_t *p, size_t n, ue_mode mode, fsys_state **s, ue_diag *d) {
    ue_source src = ue_source_memory(p, n);
    return ue_fsys_parse(&src, mode, "pkx_001", s, d);
}

static void reads_hand_image(void) {
    uint8_t img[IMG];
    hand_image(img);
    fsys_state *s;
    ue_diag d = {0};
    REQUIRE(parse(img, IMG, UE_MODE_STRICT, &s, &d) == UE_OK);
    CHECK_EQ_U(s->count, 3);
    CHECK_EQ_U(s->version, 0x100);
    CHECK_EQ_U(s->group_id, 7);
    CHECK(s->footer_ok);
    CHECK_STR(name_of(s, 0), "alpha.dat");       /* full name wins */
    CHECK_STR(name_of(s, 1), "beta.pkx");        /* short name + extension of the type */
    CHECK_STR(name_of(s, 2), "pkx_001_entry_2.bin"); /* docs/formats/fsys.md#names fallback; unknown type → .bin */
    CHECK_EQ_U(s->e[0].file_id, 0x11);
    CHECK_EQ_U(s->e[1].type_code, 0x1E);
    CHECK(s->e[1].compressed && !s->e[0].compressed);
    uint8_t *p;
    size_t n;
    REQUIRE(ue_fsys_read_entry(s, 0, &p, &n, &d) == UE_OK);
    CHECK(n == 12 && memcmp(p, "hello world!", 12) == 0);
    free(p);
    REQUIRE(ue_fsys_read_entry(s, 1, &p, &n, &d) == UE_OK);
    CHECK(n == 8 && memcmp(p, "ABABABAB", 8) == 0);
    free(p);
    /* Rule 5: the unknown type is listed and kept raw (no decoding, no nested guess); the
     * listing shows its code, so no note is printed on every command (issue 13 point 10). */
    CHECK(!has_code_at(&d, "fsys.entry.type_unknown", NULL));
    CHECK_EQ_U(d.count, 0);
    REQUIRE(ue_fsys_read_entry(s, 2, &p, &n, &d) == UE_OK);
    CHECK(n == 4 && memcmp(p, "raw?", 4) == 0);
    free(p);
    ue_entry_info info;
    ue_fsys_ops.entry(s, 2, &info);
    CHECK_STR(info.type, "0x16");
    CHECK_STR(info.nested, "");
    ue_fsys_ops.entry(s, 1, &info);
    CHECK_STR(info.nested, "pkx");
    CHECK_STR(info.method, "lzss");
    CHECK_EQ_U(info.size, 8);
    size_t idx;
    CHECK(ue_fsys_ops.find(s, "beta", &idx) && idx == 1);
    CHECK(ue_fsys_ops.find(s, "alpha.dat", &idx) && idx == 0);
    CHECK_EQ_U(ue_diag_count(&d, UE_SEV_ERROR), 0);
    ue_fsys_free(s);
    ue_diag_free(&d);
}

/* Expects strict parse (or read of entry `entry` when >= 0) to fail with `code` at `off`. */
static void expect_bad(const uint8_t *img, size_t n, int entry, const char *code, uint64_t off) {
    fsys_state *s = NULL;
    ue_diag d = {0};
    ue_result r = parse(img, n, UE_MODE_STRICT, &s, &d);
    if (entry >= 0 && r == UE_OK) {
        uint8_t *p = NULL;
        size_t pn;
        r = ue_fsys_read_entry(s, (size_t)entry, &p, &pn, &d);
        CHECK(p == NULL);
        ue_fsys_free(s);
    }
    CHECK(r == UE_ERR_INVALID);
    uint64_t at = 0;
    bool found = has_code_at(&d, code, &at);
    CHECK(found);
    if (found) CHECK_EQ_U(at, off);
    if (!found || at != off) fprintf(stderr, "  expected %s @0x%llx\n", code, (unsigned long long)off);
    ue_diag_free(&d);
}

static void defensive_rules(void) {
    uint8_t img[IMG];
    /* Missing magic. */
    hand_image(img);
    img[1] = 'X';
    expect_bad(img, IMG, -1, "fsys.magic", 0);
    /* Rule 1: bounded reads — header shorter than the entry-list word. */
    hand_image(img);
    expect_bad(img, 0x42, -1, "fsys.header.truncated", 0);
    /* Rule 1: a record that would be read past the end. */
    hand_image(img);
    put32(img, 0x64, IMG - 8);
    expect_bad(img, IMG, -1, "fsys.entry.pointer", 0x64);
    /* Entry pointer list outside the file (count huge). */
    hand_image(img);
    put32(img, 0x0C, 0x10000);
    expect_bad(img, IMG, -1, "fsys.header.entry_list", 0x40);
    /* Rule 2: a payload slice outside the file. */
    hand_image(img);
    put32(img, REC + 0x14, IMG);
    expect_bad(img, IMG, -1, "fsys.entry.data_range", REC + 4);
    /* Rule 3: a name pointer outside the file. */
    hand_image(img);
    put32(img, REC + 0x24, 0x10000);
    expect_bad(img, IMG, -1, "fsys.name.range", REC + 0x24);
    /* Rule 4: strings end at the first NUL; a name with none before the end is refused. */
    hand_image(img);
    put32(img, REC + 0x50 + 0x24, IMG - 3); /* "YS" then the end: no NUL */
    expect_bad(img, IMG, -1, "fsys.name.unterminated", IMG - 3);
    hand_image(img);
    memcpy(img + 0x80, "al\0ha", 5);
    {
        fsys_state *s;
        put32(img, REC + 0x1C, 0); /* no full name: the short one shows */
        REQUIRE(parse(img, IMG, UE_MODE_STRICT, &s, NULL) == UE_OK);
        CHECK_STR(name_of(s, 0), "al.dat");
        ue_fsys_free(s);
    }
    /* Rule 6: compressed flag without the LZSS magic. */
    hand_image(img);
    img[0x240] = 'X';
    expect_bad(img, IMG, -1, "lzss.magic", 0x240);
    /* Back-reference before the output start (ring position 0 at output 0). */
    hand_image(img);
    img[0x250] = 0x00;
    img[0x251] = 0x00;
    img[0x252] = 0x00;
    expect_bad(img, IMG, 1, "lzss.before_start", 0x251);
    /* Declared sizes larger than the data: LZSS and record say 36 decoded bytes (the most a
     * 5-byte stream could give, so it is decoded and found short rather than refused). */
    hand_image(img);
    put32(img, 0x244, 36);
    put32(img, REC + 0x50 + 0x08, 36);
    expect_bad(img, IMG, 1, "lzss.truncated", 0x255);
    /* Record and LZSS header disagree on the decoded size. */
    hand_image(img);
    put32(img, REC + 0x50 + 0x08, 9);
    expect_bad(img, IMG, -1, "fsys.entry.size_mismatch", REC + 0x50 + 8);
}

static void tolerant_marks_damage(void) {
    uint8_t img[IMG];
    hand_image(img);
    put32(img, REC + 0x14, IMG);           /* entry 0 payload out of range */
    put32(img, REC + 0x50 + 0x24, 0x9999); /* entry 1 name out of range */
    fsys_state *s;
    ue_diag d = {0};
    REQUIRE(parse(img, IMG, UE_MODE_TOLERANT, &s, &d) == UE_OK);
    CHECK(s->e[0].damaged);
    CHECK(!s->e[1].damaged);
    CHECK_STR(name_of(s, 1), "pkx_001_entry_1.pkx");
    uint8_t *p;
    size_t n;
    CHECK(ue_fsys_read_entry(s, 0, &p, &n, &d) == UE_ERR_INVALID);
    REQUIRE(ue_fsys_read_entry(s, 1, &p, &n, &d) == UE_OK);
    CHECK(n == 8);
    free(p);
    ue_fsys_free(s);
    ue_diag_free(&d);
}

static void size_fallback_in_archive(void) {
    uint8_t img[IMG];
    hand_image(img);
    put32(img, 0x248, 0xFFFF); /* LZSS +0x08 unusable → the whole 21-byte slice (docs/formats/lzss.md#size-fallback) */
    fsys_state *s;
    ue_diag d = {0};
    REQUIRE(parse(img, IMG, UE_MODE_STRICT, &s, &d) == UE_OK);
    CHECK(has_code_at(&d, "lzss.size_fallback", NULL));
    uint8_t *p;
    size_t n;
    REQUIRE(ue_fsys_read_entry(s, 1, &p, &n, &d) == UE_OK);
    CHECK(n == 8 && memcmp(p, "ABABABAB", 8) == 0);
    free(p);
    ue_fsys_free(s);
    ue_diag_free(&d);
}

static void writer_layout(void) {
    uint8_t big[5000];
    for (size_t i = 0; i < sizeof big; i++) big[i] = (uint8_t)(i % 97 < 50 ? 'a' : i);
    const ue_fsys_write_entry e[] = {
        {"one", NULL, 0x04, 1, false, (const uint8_t *)"12345", 5, NULL, 0, NULL, 0},
        {"two", NULL, 0x1E, 2, true, big, sizeof big, NULL, 0, NULL, 0},
        {"three", "three.cam", 0x18, 3, false, (const uint8_t *)"x", 1, NULL, 0, NULL, 0},
    };
    for (int v = 0; v < 2; v++) {
        ue_fsys_write_options opt = {v ? 0x201u : 0x100u, 9, v == 1, NULL, 0, 6};
        ue_buf b = {0};
        REQUIRE(ue_fsys_write(&opt, e, 3, &b, NULL) == UE_OK);
        CHECK(memcmp(b.data + b.size - 4, "FSYS", 4) == 0);
        CHECK_EQ_U(ue_load_u32be(b.data + 0x20), b.size);
        fsys_state *s;
        REQUIRE(parse(b.data, b.size, UE_MODE_STRICT, &s, NULL) == UE_OK);
        CHECK_EQ_U(s->count, 3);
        for (size_t i = 0; i < 3; i++) {
            /* Rule 8: explicit 32-byte alignment of every payload. */
            CHECK_EQ_U(s->e[i].data_off % 32, 0);
            uint8_t *p;
            size_t n;
            REQUIRE(ue_fsys_read_entry(s, i, &p, &n, NULL) == UE_OK);
            CHECK(n == e[i].size && memcmp(p, e[i].data, n) == 0);
            free(p);
        }
        CHECK_STR(name_of(s, 0), v ? "one.dat" : "one.dat");
        CHECK_STR(name_of(s, 2), v ? "three.cam" : "three.cam");
        CHECK_EQ_U(s->e[1].rec_len, v ? 0x70 : 0x50);
        ue_fsys_free(s);
        ue_buf_free(&b);
    }
}

static char tmp_root[256];

static void archive_api_roundtrip(void) {
    uint8_t img[IMG];
    hand_image(img);
    /* Entry 1 typed "cam" (0x18), not "pkx" (0x1E): its bytes hold no PKX, which validate and
     * so pack's read-back refuse (pack_refuses_fake_pkx). */
    img[REC + 0x50 + 2] = 0x18;
    ue_archive *a;
    ue_diag d = {0};
    REQUIRE(ue_archive_open_memory(img, IMG, "hand.fsys", UE_MODE_STRICT, &a, &d) == UE_OK);
    CHECK_STR(ue_archive_format(a), "fsys");
    char dir[300];
    snprintf(dir, sizeof dir, "%s/hand", tmp_root);
    REQUIRE(ue_archive_extract(a, dir, true, &d) == UE_OK);
    ue_buf b = {0};
    REQUIRE(ue_archive_pack(dir, &b, &d) == UE_OK);
    CHECK(b.size == IMG && memcmp(b.data, img, IMG) == 0);
    ue_buf_free(&b);
    REQUIRE(ue_archive_reencode(a, &b, &d) == UE_OK);
    CHECK(b.size == IMG && memcmp(b.data, img, IMG) == 0);
    ue_buf_free(&b);
    ue_archive_close(a);

    /* Replace entry 1's payload: the writer recompresses it and lays the archive out anew. */
    char path[400];
    snprintf(path, sizeof path, "%s/entries/0001_beta.cam", dir);
    const char *repl = "a completely different payload, a completely different payload";
    REQUIRE(ue_file_write_atomic(path, repl, strlen(repl), true, NULL) == UE_OK);
    REQUIRE(ue_archive_pack(dir, &b, &d) == UE_OK);
    REQUIRE(ue_archive_open_memory(b.data, b.size, "new.fsys", UE_MODE_STRICT, &a, &d) == UE_OK);
    uint8_t *p;
    size_t n;
    REQUIRE(ue_archive_read(a, 1, &p, &n, &d) == UE_OK);
    CHECK(n == strlen(repl) && memcmp(p, repl, n) == 0);
    free(p);
    ue_entry_info info;
    ue_archive_entry(a, 1, &info);
    CHECK_STR(info.method, "lzss");
    REQUIRE(ue_archive_read(a, 0, &p, &n, &d) == UE_OK);
    CHECK(n == 12 && memcmp(p, "hello world!", 12) == 0);
    free(p);
    CHECK_EQ_U(ue_diag_count(&d, UE_SEV_ERROR), 0);
    ue_archive_close(a);
    ue_buf_free(&b);
    ue_diag_free(&d);
}

static void no_partial_output(void) {
    uint8_t img[IMG];
    hand_image(img);
    img[0x250] = img[0x251] = img[0x252] = 0; /* entry 1 cannot be decoded */
    ue_archive *a;
    ue_diag d = {0};
    REQUIRE(ue_archive_open_memory(img, IMG, "bad.fsys", UE_MODE_STRICT, &a, &d) == UE_OK);
    char dir[300];
    snprintf(dir, sizeof dir, "%s/bad", tmp_root);
    CHECK(ue_archive_extract(a, dir, true, &d) == UE_ERR_INVALID);
    CHECK(!ue_path_exists(dir));
    CHECK(ue_archive_validate(a, &d) == UE_ERR_INVALID);
    ue_archive_close(a);
    ue_diag_free(&d);
}

static void samples_roundtrip(void) {
    ue_sample_list l = {0};
    REQUIRE(ue_samples_gamecube(&l) == UE_OK);
    CHECK(l.count >= 5);
    for (size_t i = 0; i < l.count; i++) {
        /* gamecube/dat/ holds bare DATs, models rather than containers, beside the animation bank
         * (a container); tests/cli/cli_demo_dats.sh checks all three */
        if (!strncmp(l.items[i].path, "gamecube/dat/", 13) && !strstr(l.items[i].path, "_anims.dat")) continue;
        ue_archive *a;
        ue_diag d = {0};
        ue_result r = ue_archive_open_memory(l.items[i].data, l.items[i].size, l.items[i].path,
                                             UE_MODE_STRICT, &a, &d);
        CHECK(r == UE_OK);
        if (r != UE_OK) {
            fprintf(stderr, "  %s does not open\n", l.items[i].path);
            continue;
        }
        CHECK(ue_archive_validate(a, &d) == UE_OK);
        ue_buf b = {0};
        CHECK(ue_archive_reencode(a, &b, &d) == UE_OK);
        CHECK(b.size == l.items[i].size && memcmp(b.data, l.items[i].data, b.size) == 0);
        ue_buf_free(&b);
        char dir[300];
        snprintf(dir, sizeof dir, "%s/sample%zu", tmp_root, i);
        CHECK(ue_archive_extract(a, dir, true, &d) == UE_OK);
        CHECK(ue_archive_pack(dir, &b, &d) == UE_OK);
        CHECK(b.size == l.items[i].size && memcmp(b.data, l.items[i].data, b.size) == 0);
        ue_buf_free(&b);
        CHECK_EQ_U(ue_diag_count(&d, UE_SEV_ERROR), 0);
        ue_archive_close(a);
        ue_diag_free(&d);
    }
    ue_sample_list_free(&l);
}

/* ---- parallel extract, pack --level ----------------------------------------------------------
 * Many LZSS entries (more than one batch of the parallel extract: over 64 entries, and big ones
 * over its 8 MiB byte bound) extract to exactly the payloads the writer was given. */
enum { MANY = 72, BIG = 3 };

/* Compressible, entry-specific bytes shaped like a DAT: runs of 4-bit noise and copies of
 * earlier stretches up to 4000 bytes back, drawn by a small LCG seeded with the entry index. */
static uint32_t lcg(uint32_t *x) {
    *x = *x * 1103515245u + 12345u;
    return *x >> 8;
}

static uint8_t *dat_like(size_t n, uint32_t seed) {
    uint8_t *p = malloc(n ? n : 1);
    uint32_t x = seed * 2654435761u + 1u;
    for (size_t i = 0; i < n;) {
        size_t len = 8 + lcg(&x) % 120;
        if (len > n - i) len = n - i;
        bool copy = i > 4096 && lcg(&x) % 3;
        size_t from = copy ? i - 1 - lcg(&x) % 4000 : 0;
        for (size_t k = 0; k < len; k++) p[i + k] = copy ? p[from + k] : (uint8_t)(lcg(&x) % 16);
        i += len;
    }
    return p;
}

typedef struct many_fsys {
    ue_fsys_write_entry e[MANY + BIG];
    char names[MANY + BIG][16];
    uint8_t *data[MANY + BIG];
    ue_buf bytes;
} many_fsys;

static void many_build(many_fsys *m, int level) {
    memset(m, 0, sizeof *m);
    for (size_t i = 0; i < MANY + BIG; i++) {
        size_t n = i < MANY ? 6000 + 997 * i : ((size_t)3 << 20) + i;
        m->data[i] = dat_like(n, (uint32_t)i);
        snprintf(m->names[i], sizeof m->names[i], "e%zu", i);
        m->e[i] = (ue_fsys_write_entry){.short_name = m->names[i], .type_code = 0x04,
                                        .file_id = (uint16_t)i, .compressed = i % 9 != 4,
                                        .data = m->data[i], .size = n};
    }
    ue_fsys_write_options opt = {.version = 0x201, .level = level};
    REQUIRE(ue_fsys_write(&opt, m->e, MANY + BIG, &m->bytes, NULL) == UE_OK);
}

static void many_free(many_fsys *m) {
    for (size_t i = 0; i < MANY + BIG; i++) free(m->data[i]);
    ue_buf_free(&m->bytes);
}

static bool file_is(const char *dir, const char *rel, const uint8_t *want, size_t n) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    uint8_t *got;
    size_t got_n;
    if (ue_file_read(path, (size_t)64 << 20, &got, &got_n, NULL) != UE_OK) return false;
    bool same = got_n == n && memcmp(got, want, n) == 0;
    free(got);
    return same;
}

static void parallel_extract_many(void) {
    many_fsys m;
    many_build(&m, 0);
    ue_archive *a;
    ue_diag d = {0};
    REQUIRE(ue_archive_open_memory(m.bytes.data, m.bytes.size, "many.fsys", UE_MODE_STRICT, &a,
                                   &d) == UE_OK);
    char dir[300];
    snprintf(dir, sizeof dir, "%s/many", tmp_root);
    REQUIRE(ue_archive_extract(a, dir, true, &d) == UE_OK);
    size_t wrong = 0;
    for (size_t i = 0; i < MANY + BIG; i++) {
        ue_entry_info info;
        ue_archive_entry(a, i, &info);
        char rel[64];
        snprintf(rel, sizeof rel, "entries/%04zu_e%zu.dat", i, i);
        wrong += !file_is(dir, rel, m.data[i], m.e[i].size);
        if (m.e[i].compressed) {
            /* The stored blob is the archive's own bytes at the entry's offset. */
            snprintf(rel, sizeof rel, "entries/%04zu_e%zu.dat.lzss", i, i);
            wrong += !file_is(dir, rel, m.bytes.data + info.offset, (size_t)info.stored_size);
        }
    }
    CHECK_EQ_U(wrong, 0);
    /* The manifest's hashes, taken piece by piece as the payloads were written, are the
     * one-shot hashes of the bytes the archive was made from. */
    char manifest[400];
    snprintf(manifest, sizeof manifest, "%s/manifest.json", dir);
    ue_jdoc doc;
    const ue_jv *root = load_manifest(manifest, &doc);
    for (size_t i = MANY; i < MANY + BIG; i++) {
        char want[17];
        ue_xxh64_hex(m.data[i], m.e[i].size, want);
        const ue_jv *entry = ue_jv_at(ue_jv_get(root, "entries"), i);
        CHECK_STR(ue_jv_string(ue_jv_get(entry, "xxh64")), want);
    }
    ue_jdoc_free(&doc);
    ue_buf b = {0};
    REQUIRE(ue_archive_pack(dir, &b, &d) == UE_OK);
    CHECK(b.size == m.bytes.size && memcmp(b.data, m.bytes.data, b.size) == 0);
    CHECK_EQ_U(ue_diag_count(&d, UE_SEV_ERROR), 0);
    ue_buf_free(&b);
    ue_archive_close(a);
    ue_diag_free(&d);
    many_free(&m);
}

/* A damaged LZSS entry among good ones: extract and validate fail with exactly the diagnostics
 * the entry's own decode gives (none from the entries decoded beside it); extract leaves
 * nothing. */
static void damaged_among_parallel(void) {
    many_fsys m;
    many_build(&m, 0);
    const size_t bad = 61; /* in the second batch, decoded on a worker beside others */
    ue_archive *a;
    REQUIRE(ue_archive_open_memory(m.bytes.data, m.bytes.size, "m.fsys", UE_MODE_STRICT, &a,
                                   NULL) == UE_OK);
    ue_entry_info info;
    ue_archive_entry(a, bad, &info);
    ue_archive_close(a);
    /* The first item a reference to ring position 0, 0xFEE bytes before the output starts:
     * strict decoding refuses it (the header, which open checks, stays intact). */
    uint8_t *blob = m.bytes.data + info.offset;
    blob[16] = 0x00;
    blob[17] = 0x00;
    blob[18] = 0x00;
    ue_diag want = {0};
    char path[64];
    snprintf(path, sizeof path, "fsys/entry[%zu]/lzss", bad);
    uint8_t *plain = NULL;
    size_t plain_n;
    CHECK(ue_gclzss_decode(blob, (size_t)info.stored_size, UE_MODE_STRICT, &plain, &plain_n,
                           &want, info.offset, path) == UE_ERR_INVALID);
    free(plain);
    REQUIRE(want.count >= 1);
    for (int round = 0; round < 4; round++) {
        ue_diag d = {0};
        REQUIRE(ue_archive_open_memory(m.bytes.data, m.bytes.size, "m.fsys", UE_MODE_STRICT, &a,
                                       NULL) == UE_OK);
        char dir[300];
        snprintf(dir, sizeof dir, "%s/damaged", tmp_root);
        CHECK(ue_archive_extract(a, dir, true, &d) == UE_ERR_INVALID);
        CHECK(!ue_path_exists(dir));
        /* validate decodes in parallel too: the same list, in the same order */
        ue_diag v = {0};
        CHECK(ue_archive_validate(a, &v) == UE_ERR_INVALID);
        for (int list = 0; list < 2; list++) {
            const ue_diag *got = list ? &v : &d;
            CHECK_EQ_U(got->count, want.count);
            for (size_t k = 0; k < got->count && k < want.count; k++) {
                CHECK_STR(got->items[k].code, want.items[k].code);
                CHECK_STR(got->items[k].path, want.items[k].path);
                CHECK_STR(got->items[k].message, want.items[k].message);
                CHECK_EQ_U(got->items[k].offset, want.items[k].offset);
            }
        }
        ue_archive_close(a);
        ue_diag_free(&v);
        ue_diag_free(&d);
    }
    /* Tolerant: a big entry whose stream ends halfway (its LZSS header says so) is found
     * damaged after several windows were written: its payload file is gone, its stored bytes
     * are kept and the manifest marks it; the entries beside it are whole. */
    const size_t cut = MANY;
    REQUIRE(ue_archive_open_memory(m.bytes.data, m.bytes.size, "m.fsys", UE_MODE_STRICT, &a,
                                   NULL) == UE_OK);
    ue_archive_entry(a, cut, &info);
    ue_archive_close(a);
    uint8_t *cut_blob = m.bytes.data + info.offset;
    ue_store_u32be(cut_blob + 8, (uint32_t)(info.stored_size / 2));
    REQUIRE(ue_archive_open_memory(m.bytes.data, m.bytes.size, "m.fsys", UE_MODE_TOLERANT, &a,
                                   NULL) == UE_OK);
    char dir[300], rel[64], manifest[400];
    snprintf(dir, sizeof dir, "%s/salvaged", tmp_root);
    CHECK(ue_archive_extract(a, dir, true, NULL) == UE_OK);
    snprintf(rel, sizeof rel, "%s/entries/%04zu_e%zu.dat", dir, cut, cut);
    CHECK(!ue_path_exists(rel));
    snprintf(rel, sizeof rel, "entries/%04zu_e%zu.dat.lzss", cut, cut);
    CHECK(file_is(dir, rel, cut_blob, (size_t)info.stored_size));
    snprintf(rel, sizeof rel, "entries/%04zu_e%zu.dat", cut + 1, cut + 1);
    CHECK(file_is(dir, rel, m.data[cut + 1], m.e[cut + 1].size));
    snprintf(manifest, sizeof manifest, "%s/manifest.json", dir);
    ue_jdoc doc;
    const ue_jv *root = load_manifest(manifest, &doc);
    const ue_jv *entry = ue_jv_at(ue_jv_get(root, "entries"), cut);
    CHECK(ue_jv_is(ue_jv_get(entry, "damaged"), UE_JV_TRUE));
    CHECK(ue_jv_get(entry, "file") == NULL);
    ue_jdoc_free(&doc);
    ue_archive_close(a);
    ue_diag_free(&want);
    many_free(&m);
}

/* pack --level: the default keeps the manifest route's bytes; level 9 of edited entries is no
 * bigger than level 6; the flag wins over the manifest's "lzss_level". */
static ue_result pack_at(const char *dir, int level, ue_buf *out) {
    ue_pack_options o = {level, UE_MODE_STRICT};
    out->size = 0;
    return ue_archive_pack_opts(dir, &o, out, NULL);
}

static void set_manifest_level(const char *dir, int level) {
    char path[400];
    snprintf(path, sizeof path, "%s/manifest.json", dir);
    ue_jdoc doc;
    const ue_jv *m = load_manifest(path, &doc);
    REQUIRE(m != NULL);
    /* The manifest again with "lzss_level" set in its place (or last), or left out. */
    ue_buf text = {0};
    ue_json w;
    ue_json_init_lines(&w, &text);
    ue_json_object_begin(&w);
    bool set = false;
    UE_JV_FOR_MEMBERS(m, f) {
        bool level_key = !strcmp(f->key, "lzss_level");
        if (level_key && level < 0) continue;
        if (level_key) ue_json_key_int(&w, f->key, level), set = true;
        else ue_json_key(&w, f->key), ue_json_value(&w, &f->value);
    }
    if (!set && level >= 0) ue_json_key_int(&w, "lzss_level", level);
    ue_json_object_end(&w);
    REQUIRE(ue_json_finish(&w, NULL) == UE_OK);
    FILE *out = fopen(path, "wb");
    REQUIRE(out && fwrite(text.data, 1, text.size, out) == text.size && fclose(out) == 0);
    ue_buf_free(&text);
    ue_jdoc_free(&doc);
}

static void pack_level(void) {
    many_fsys m;
    many_build(&m, 0);
    ue_archive *a;
    REQUIRE(ue_archive_open_memory(m.bytes.data, m.bytes.size, "lv.fsys", UE_MODE_STRICT, &a,
                                   NULL) == UE_OK);
    char dir[300];
    snprintf(dir, sizeof dir, "%s/level", tmp_root);
    REQUIRE(ue_archive_extract(a, dir, true, NULL) == UE_OK);
    ue_archive_close(a);
    ue_buf b = {0}, ref = {0};
    /* Unchanged entries keep their (level 0) bytes whatever the level asked for. */
    REQUIRE(pack_at(dir, 9, &b) == UE_OK);
    CHECK(b.size == m.bytes.size && memcmp(b.data, m.bytes.data, b.size) == 0);
    /* Edit the small entries (one byte each): they are compressed again, the big ones kept. */
    for (size_t i = 0; i < MANY; i++) {
        char path[400];
        snprintf(path, sizeof path, "%s/entries/%04zu_e%zu.dat", dir, i, i);
        m.data[i][0] = 'X';
        REQUIRE(ue_file_write_atomic(path, m.data[i], m.e[i].size, true, NULL) == UE_OK);
    }
    size_t at[10];
    for (int lv = 0; lv <= 9; lv += 3) {
        REQUIRE(pack_at(dir, lv, &b) == UE_OK);
        at[lv] = b.size;
    }
    REQUIRE(pack_at(dir, 9, &b) == UE_OK); /* b: the --level 9 archive */
    CHECK(at[9] <= at[6] && at[6] <= at[0] && at[9] < at[0]);
    /* No flag: the manifest's absent level means 6, its "lzss_level" is honoured ... */
    REQUIRE(pack_at(dir, UE_PACK_LEVEL_MANIFEST, &ref) == UE_OK);
    CHECK_EQ_U(ref.size, at[6]);
    set_manifest_level(dir, 0);
    REQUIRE(pack_at(dir, UE_PACK_LEVEL_MANIFEST, &ref) == UE_OK);
    CHECK_EQ_U(ref.size, at[0]);
    /* ... and the flag wins over it: bytes of --level 9 with "lzss_level": 0 in the manifest. */
    ue_buf flag = {0};
    REQUIRE(pack_at(dir, 9, &flag) == UE_OK);
    CHECK(flag.size == b.size && memcmp(flag.data, b.data, b.size) == 0);
    set_manifest_level(dir, 9);
    REQUIRE(pack_at(dir, UE_PACK_LEVEL_MANIFEST, &ref) == UE_OK);
    CHECK(ref.size == b.size && memcmp(ref.data, b.data, b.size) == 0);
    CHECK(pack_at(dir, 10, &ref) == UE_ERR_USAGE);
    ue_buf_free(&b);
    ue_buf_free(&ref);
    ue_buf_free(&flag);
    many_free(&m);
}

int main(void) {
    snprintf(tmp_root, sizeof tmp_root, "/tmp/ue_test_fsys_XXXXXX");
    if (!mkdtemp(tmp_root)) return 3;
    RUN(reads_hand_image);
    RUN(defensive_rules);
    RUN(tolerant_marks_damage);
    RUN(size_fallback_in_archive);
    RUN(writer_layout);
    RUN(archive_api_roundtrip);
    RUN(no_partial_output);
    RUN(samples_roundtrip);
    RUN(parallel_extract_many);
    RUN(damaged_among_parallel);
    RUN(pack_level);
    ue_remove_tree(tmp_root);
    return TEST_SUMMARY();
}
