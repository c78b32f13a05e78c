/* Unit tests of ue_archive_put on the Parkan containers: an added entry goes last in directory
 * and data with the type its bytes call for, a replace keeps the entry's place, an unchanged one
 * gives the archive back, and what cannot be put is refused with a result and a diagnostic. */
#include <stdlib.h>
#include <string.h>

#include "samples/samples.h"
#include "test.h"
#include "unearth/archive.h"
#include "unearth/msh.h"
#include "unearth/nres.h"
#include "unearth/rsli.h"
#include "unearth/texm.h"
#include "common/bytes.h"

/* An NRes of two stored entries (5 and 11 bytes), as our canonical writer lays it out. */
static void two_entry_nres(ue_buf *out) {
    ue_nres n;
    ue_nres_init(&n);
    REQUIRE(ue_nres_add(&n, 1, 0, 0, 0, "b_first", "12345", 5) == UE_OK);
    REQUIRE(ue_nres_add(&n, 2, 0, 0, 0, "A_second", "hello world", 11) == UE_OK);
    REQUIRE(ue_nres_write(&n, UE_NRES_CANONICAL, out, NULL) == UE_OK);
    ue_nres_free(&n);
}

/* Directory entry i of an NRes image: the u32 at `field` (spec §2.3 offsets). */
static uint32_t dir_u32(const ue_buf *b, size_t i, size_t field) {
    uint32_t count = ue_load_u32le(b->data + 8);
    size_t dir = b->size - (size_t)count * UE_NRES_ENTRY_SIZE;
    return ue_load_u32le(b->data + dir + i * UE_NRES_ENTRY_SIZE + field);
}

static ue_result put(const ue_buf *archive, const char *name, const void *data, size_t size, ue_buf *out,
                     bool *added, ue_diag *d) {
    ue_archive *a = NULL;
    ue_result r = ue_archive_open_memory(archive->data, archive->size, "test", UE_MODE_STRICT, &a, d);
    if (r == UE_OK) r = ue_archive_put(a, name, data, size, out, added, d);
    ue_archive_close(a);
    return r;
}

static void nres_add_goes_last_with_its_type(void) {
    ue_buf in = {0}, out = {0};
    two_entry_nres(&in);
    uint8_t texm[40] = {'T', 'e', 'x', 'm'};
    bool added = false;
    ue_diag d = {0};
    REQUIRE(put(&in, "new.tex", texm, sizeof texm, &out, &added, &d) == UE_OK);
    CHECK(added);
    CHECK_EQ_U(ue_load_u32le(out.data + 8), 3);
    /* 16 + 5 → 24, + 11 → 40: the new payload starts at 40, after both old ones */
    CHECK_EQ_U(dir_u32(&out, 0, 0x38), 16);
    CHECK_EQ_U(dir_u32(&out, 1, 0x38), 24);
    CHECK_EQ_U(dir_u32(&out, 2, 0x38), 40);
    CHECK_EQ_U(dir_u32(&out, 2, 0x00), UE_TEXM_MAGIC);
    CHECK_MEM(out.data + 40, texm, sizeof texm);
    /* sort table (lower-case order): A_second (1), b_first (0), new.tex (2) */
    CHECK_EQ_U(dir_u32(&out, 0, 0x3C), 1);
    CHECK_EQ_U(dir_u32(&out, 1, 0x3C), 0);
    CHECK_EQ_U(dir_u32(&out, 2, 0x3C), 2);
    /* The old bytes are where they were. */
    CHECK_MEM(out.data + 16, in.data + 16, 24 - 16 + 11);
    ue_buf_free(&in);
    ue_buf_free(&out);
    ue_diag_free(&d);
}

static void nres_replace_keeps_place(void) {
    ue_buf in = {0}, out = {0};
    two_entry_nres(&in);
    bool added = true;
    REQUIRE(put(&in, "B_FIRST", "12345", 5, &out, &added, NULL) == UE_OK);
    CHECK(!added);
    CHECK(out.size == in.size && !memcmp(out.data, in.data, in.size)); /* unchanged: same bytes */
    out.size = 0;
    REQUIRE(put(&in, "b_first", "a longer payload", 16, &out, &added, NULL) == UE_OK);
    CHECK_EQ_U(dir_u32(&out, 0, 0x38), 16);
    CHECK_EQ_U(dir_u32(&out, 0, 0x0C), 16);
    CHECK_EQ_U(dir_u32(&out, 1, 0x38), 32); /* the later payload moved up behind it */
    CHECK_MEM(out.data + 32, "hello world", 11);
    ue_buf_free(&in);
    ue_buf_free(&out);
}

static void refusals(void) {
    ue_buf in = {0}, out = {0};
    two_entry_nres(&in);
    bool added;
    ue_diag d = {0};
    CHECK_EQ_U(put(&in, "x.bin", "plain", 5, &out, &added, &d), UE_ERR_UNSUPPORTED);
    CHECK(diag_find(&d, "archive.put.type", NULL) != NULL);
    CHECK_EQ_U(put(&in, "abcdefghijabcdefghijabcdefghijabcdef", "12345", 5, &out, &added, &d), UE_ERR_USAGE);
    CHECK(diag_find(&d, "archive.put.name", NULL) != NULL);
    CHECK_EQ_U(out.size, 0);
    ue_buf robot = {0};
    REQUIRE(ue_sample_robot(&robot) == UE_OK);
    CHECK_EQ_U(put(&robot, "x.msh", robot.data, robot.size, &out, &added, &d), UE_ERR_USAGE);
    CHECK(diag_find(&d, "archive.put.model", NULL) != NULL);
    /* A model added to an archive of models is typed as the game types them. */
    REQUIRE(put(&in, "ROBOT.msh", robot.data, robot.size, &out, &added, NULL) == UE_OK);
    CHECK_EQ_U(dir_u32(&out, 2, 0x00), UE_MSH_ENTRY_TYPE);
    ue_buf_free(&robot);
    /* A container without the operation says so. */
    ue_sample_list gc = {0};
    REQUIRE(ue_samples_gamecube(&gc) == UE_OK);
    for (size_t i = 0; i < gc.count; i++) {
        if (!strstr(gc.items[i].path, ".fsys")) continue;
        ue_buf fsys = {.data = gc.items[i].data, .size = gc.items[i].size};
        out.size = 0;
        CHECK_EQ_U(put(&fsys, "x", "1", 1, &out, &added, &d), UE_ERR_UNSUPPORTED);
        CHECK(diag_find(&d, "archive.put.unsupported", NULL) != NULL);
        break;
    }
    ue_sample_list_free(&gc);
    ue_buf_free(&in);
    ue_buf_free(&out);
    ue_diag_free(&d);
}

static void rsli_add_and_unchanged_replace(void) {
    ue_rsli l;
    ue_rsli_init(&l);
    REQUIRE(ue_rsli_add(&l, "ONE", UE_RSLI_STORED, "first", 5, NULL) == UE_OK);
    ue_buf in = {0}, out = {0}, again = {0};
    REQUIRE(ue_rsli_write(&l, &in, NULL) == UE_OK);
    ue_rsli_free(&l);
    bool added = false;
    REQUIRE(put(&in, "two.bin", "second!", 7, &out, &added, NULL) == UE_OK);
    CHECK(added);
    ue_source src = ue_source_memory(out.data, out.size);
    REQUIRE(ue_rsli_parse(&src, UE_MODE_STRICT, NULL, &l, NULL) == UE_OK);
    CHECK_EQ_U(l.count, 2);
    char name[16];
    ue_rsli_entry_name(&l.entries[1], name, sizeof name);
    CHECK_STR(name, "TWO.BIN");
    CHECK(l.entries[1].data_offset >= l.entries[0].data_offset + l.entries[0].packed_size);
    ue_rsli_free(&l);
    REQUIRE(put(&out, "TWO.BIN", "second!", 7, &again, &added, NULL) == UE_OK);
    CHECK(!added);
    CHECK(again.size == out.size && !memcmp(again.data, out.data, out.size));
    ue_buf_free(&in);
    ue_buf_free(&out);
    ue_buf_free(&again);
}

int main(void) {
    RUN(nres_add_goes_last_with_its_type);
    RUN(nres_replace_keeps_place);
    RUN(refusals);
    RUN(rsli_add_and_unchanged_replace);
    return TEST_SUMMARY();
}
