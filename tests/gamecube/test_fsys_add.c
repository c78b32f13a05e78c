/* unearth tests — ue_fsys_add: a new FSYS entry's type code, file id and storage chosen from the
 * archive's entries (docs/formats/fsys.md#adding-an-entry), every other entry kept, refusals by name. */
#include <stdlib.h>

#include "gamecube/gamecube_int.h"
#include "test.h"
#include "unearth/gamecube.h"

/* An FSYS of `count` entries written by the canonical writer. */
static void build(const ue_fsys_write_entry *e, size_t count, uint32_t version, ue_buf *out) {
    ue_fsys_write_options opt = {.version = version, .group_id = 3, .full_names = version >= 0x200, .level = 6};
    REQUIRE(ue_fsys_write(&opt, e, count, out, NULL) == UE_OK);
}

/* The archive `b` read back strictly; the caller frees it with ue_fsys_free. */
static fsys_state *parse(const ue_buf *b) {
    ue_source src = ue_source_memory(b->data, b->size);
    fsys_state *s = NULL;
    ue_diag d = {0};
    if (ue_fsys_parse(&src, UE_MODE_STRICT, "t.fsys", &s, &d) != UE_OK) dump_diag(&d);
    ue_diag_free(&d);
    return s;
}

/* Entry i's decoded bytes equal `want` (n bytes). */
static bool entry_is(fsys_state *s, size_t i, const void *want, size_t n) {
    uint8_t *got = NULL;
    size_t size = 0;
    bool same = ue_fsys_read_entry(s, i, &got, &size, NULL) == UE_OK && size == n && !memcmp(got, want, n);
    free(got);
    return same;
}

static const char payload[] = "a new model's bytes, long enough to be worth compressing: abcabcabcabcabcabc";

static void dat_after_compressed_dats(void) {
    const ue_fsys_write_entry e[] = {
        {"one", NULL, 0x04, 0x0301, true, (const uint8_t *)"first dat first dat", 19, NULL, 0, NULL, 0},
        {"two", NULL, 0x1E, 0x0305, false, (const uint8_t *)"pkx bytes", 9, NULL, 0, NULL, 0},
        {"three", NULL, 0x04, 0x0302, true, (const uint8_t *)"third dat third dat", 19, NULL, 0, NULL, 0},
    };
    ue_buf in = {0}, out = {0};
    build(e, 3, 0x201, &in);
    ue_fsys_added info = {0};
    ue_diag d = {0};
    REQUIRE(ue_fsys_add(in.data, in.size, "new.dat", payload, sizeof payload, &out, &info, &d) == UE_OK);
    CHECK_EQ_U(info.type_code, 0x04); /* the code the DATs share */
    CHECK_EQ_U(info.file_id, 0x0306); /* the largest id (0x0305, the PKX's) + 1 */
    CHECK(info.compressed);           /* as both DATs are */
    fsys_state *s = parse(&out);
    REQUIRE(s && s->count == 4);
    CHECK_EQ_U(s->e[3].type_code, 0x04);
    CHECK_EQ_U(s->e[3].file_id, 0x0306);
    CHECK(s->e[3].compressed);
    CHECK(entry_is(s, 3, payload, sizeof payload));
    for (size_t i = 0; i < 3; i++) {
        CHECK_EQ_U(s->e[i].file_id, e[i].file_id);
        CHECK_EQ_U(s->e[i].type_code, e[i].type_code);
        CHECK(entry_is(s, i, e[i].data, e[i].size));
    }
    ue_fsys_free(s);
    ue_buf_free(&in), ue_buf_free(&out), ue_diag_free(&d);
}

static void pkx_and_rdat(void) {
    const ue_fsys_write_entry e[] = {
        {"room", NULL, 0x02, 0x0410, false, (const uint8_t *)"room", 4, NULL, 0, NULL, 0},
        {"mon", NULL, 0x1E, 0x0400, true, (const uint8_t *)"pkx pkx pkx pkx", 15, NULL, 0, NULL, 0},
    };
    ue_buf in = {0}, out = {0};
    build(e, 2, 0x100, &in); /* Colosseum: no full names */
    ue_fsys_added info = {0};
    REQUIRE(ue_fsys_add(in.data, in.size, "room2.dat", "r", 1, &out, &info, NULL) == UE_OK);
    CHECK_EQ_U(info.type_code, 0x02); /* the archive's DATs are rdat */
    CHECK_EQ_U(info.file_id, 0x0411);
    CHECK(!info.compressed); /* the one rdat is stored */
    ue_buf_free(&out);
    REQUIRE(ue_fsys_add(in.data, in.size, "mon2.pkx", "p", 1, &out, &info, NULL) == UE_OK);
    CHECK_EQ_U(info.type_code, 0x1E);
    CHECK(info.compressed); /* the one pkx is */
    fsys_state *s = parse(&out);
    REQUIRE(s && s->count == 3);
    char name[256];
    ue_fsys_display_name(s, 2, name, sizeof name);
    CHECK_STR(name, "mon2.pkx"); /* short name "mon2" and the type's extension */
    ue_fsys_free(s);
    ue_buf_free(&in), ue_buf_free(&out);
}

static void refusals(void) {
    const ue_fsys_write_entry e[] = {
        {"a", NULL, 0x04, 0x05FF, false, (const uint8_t *)"a", 1, NULL, 0, NULL, 0},
        {"b", NULL, 0x02, 0x0501, false, (const uint8_t *)"b", 1, NULL, 0, NULL, 0},
    };
    ue_buf in = {0}, out = {0};
    build(e, 2, 0x201, &in);
    static const struct { const char *name, *code; } cases[] = {
        {"c.pkx", "archive.add.id"},     /* 0x05FF + 1 leaves group 0x05 */
        {"c.dat", "archive.add.type"},   /* dat and rdat both there */
        {"c.bin", "archive.add.type"},   /* no type from the extension */
        {"a.dat", "archive.add.exists"}, /* "a" is a short name there */
        {"b.pkx", "archive.add.exists"},
        {"x y.dat", "archive.add.name"},
        {"d/e.dat", "archive.add.name"},
        {"", "archive.add.name"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        ue_diag d = {0};
        CHECK(ue_fsys_add(in.data, in.size, cases[k].name, "x", 1, &out, NULL, &d) == UE_ERR_USAGE);
        CHECK(has_code(&d, cases[k].code));
        CHECK_EQ_U(out.size, 0);
        ue_diag_free(&d);
    }
    ue_buf_free(&in);
}

int main(void) {
    RUN(dat_after_compressed_dats);
    RUN(pkx_and_rdat);
    RUN(refusals);
    TEST_SUMMARY();
}
