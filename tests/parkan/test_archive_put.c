/* Unit tests of ue_archive_put on the Parkan containers: an added entry goes last in directory
 * and data with the type its bytes call for, a replace keeps the entry's place, an unchanged one
 * gives the archive back, a changed archive comes out in directory order, and what cannot be put
 * (damaged entries, bytes that are not the entry's type, RsLi bytes outside every entry) is
 * refused with a result and a diagnostic. */
#include <stdlib.h>
#include <string.h>

#include "samples/samples.h"
#include "test.h"
#include "unearth/archive.h"
#include "unearth/msh.h"
#include "unearth/nres.h"
#include "unearth/parkan_material.h"
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

/* Directory entry i of an NRes image: the u32 at `field` (docs/formats/nres.md#directory-entry offsets). */
static uint32_t dir_u32(const ue_buf *b, size_t i, size_t field) {
    uint32_t count = ue_load_u32le(b->data + 8);
    size_t dir = b->size - (size_t)count * UE_NRES_ENTRY_SIZE;
    return ue_load_u32le(b->data + dir + i * UE_NRES_ENTRY_SIZE + field);
}

static ue_result put_in_mode(const ue_buf *archive, ue_mode mode, const char *name, const void *data,
                             size_t size, ue_buf *out, bool *added, ue_diag *d) {
    ue_archive *a = NULL;
    ue_result r = ue_archive_open_memory(archive->data, archive->size, "test", mode, &a, d);
    if (r == UE_OK) r = ue_archive_put(a, name, data, size, out, added, d);
    ue_archive_close(a);
    return r;
}

static ue_result put(const ue_buf *archive, const char *name, const void *data, size_t size, ue_buf *out,
                     bool *added, ue_diag *d) {
    return put_in_mode(archive, UE_MODE_STRICT, name, data, size, out, added, d);
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
    /* A container without the operation says so (a standalone LZSS file); an FSYS takes no new entry. */
    ue_sample_list gc = {0};
    REQUIRE(ue_samples_gamecube(&gc) == UE_OK);
    size_t refused = 0;
    for (size_t i = 0; i < gc.count; i++) {
        bool lzss = strstr(gc.items[i].path, ".lzss") != NULL, fsys = strstr(gc.items[i].path, ".fsys") != NULL;
        if (!lzss && !fsys) continue;
        ue_buf archive = {.data = gc.items[i].data, .size = gc.items[i].size};
        out.size = 0;
        CHECK_EQ_U(put(&archive, "x", "1", 1, &out, &added, &d), lzss ? UE_ERR_UNSUPPORTED : UE_ERR_USAGE);
        CHECK(diag_find(&d, lzss ? "archive.put.unsupported" : "archive.put.absent", NULL) != NULL);
        CHECK_EQ_U(out.size, 0);
        refused++;
    }
    CHECK(refused >= 2);
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

/* Sets directory entry i's u32 at `field` of an NRes image. */
static void set_dir_u32(ue_buf *b, size_t i, size_t field, uint32_t value) {
    uint32_t count = ue_load_u32le(b->data + 8);
    size_t dir = b->size - (size_t)count * UE_NRES_ENTRY_SIZE;
    ue_store_u32le(b->data + dir + i * UE_NRES_ENTRY_SIZE + field, value);
}

/* Opened tolerant, an entry whose range lies outside the data region is damaged: rewritten,
 * it would keep its size and lose its bytes, so put refuses the archive. */
static void nres_damaged_entry_refused(void) {
    ue_buf in = {0}, out = {0};
    two_entry_nres(&in);
    set_dir_u32(&in, 1, 0x0C, 4096); /* "hello world" now claims 4096 bytes past the directory */
    bool added = false;
    ue_diag d = {0};
    CHECK_EQ_U(put_in_mode(&in, UE_MODE_TOLERANT, "b_first", "new bytes", 9, &out, &added, &d), UE_ERR_INVALID);
    const ue_diag_item *it = diag_find(&d, "archive.put.damaged", NULL);
    CHECK(it != NULL && strstr(it->message, "entry 1 \"A_second\" is damaged") != NULL);
    CHECK_EQ_U(out.size, 0);
    CHECK(!added);
    ue_buf_free(&in);
    ue_diag_free(&d);
}

/* A replaced entry keeps its type: a model or texture cannot go into a WEAR entry, nor plain
 * bytes into a Texm entry; an NRes typed entry takes an NRes. */
static void nres_replace_keeps_the_type(void) {
    ue_nres n;
    ue_nres_init(&n);
    REQUIRE(ue_nres_add(&n, UE_WEAR_TYPE, 0, 0, 1, "robot.wea", "1\r\nrow 0\r\n", 10) == UE_OK);
    REQUIRE(ue_nres_add(&n, UE_TEXM_MAGIC, 0, 0, 0, "skin.tex", "Texm....", 8) == UE_OK);
    REQUIRE(ue_nres_add(&n, UE_NRES_ENTRY_TYPE, 0, 0, 0, "inner.lib", "NRes....", 8) == UE_OK);
    ue_buf in = {0}, out = {0};
    REQUIRE(ue_nres_write(&n, UE_NRES_CANONICAL, &in, NULL) == UE_OK);
    ue_nres_free(&n);
    uint8_t texm[40] = {'T', 'e', 'x', 'm'};
    bool added;
    ue_diag d = {0};
    CHECK_EQ_U(put(&in, "ROBOT.WEA", texm, sizeof texm, &out, &added, &d), UE_ERR_USAGE);
    const ue_diag_item *it = diag_find(&d, "archive.put.entry_type", NULL);
    CHECK(it != NULL && strstr(it->message, "typed WEAR (a WEAR table), and what is put is a Texm texture") != NULL);
    ue_diag_free(&d);
    CHECK_EQ_U(put(&in, "skin.tex", "plain", 5, &out, &added, &d), UE_ERR_USAGE);
    it = diag_find(&d, "archive.put.entry_type", NULL);
    CHECK(it != NULL && strstr(it->message, "typed Texm (a Texm texture), and what is put is bytes that are neither") != NULL);
    ue_diag_free(&d);
    CHECK_EQ_U(put(&in, "inner.lib", texm, sizeof texm, &out, &added, &d), UE_ERR_USAGE);
    CHECK_EQ_U(out.size, 0);
    ue_buf empty_nres = {0};
    ue_nres_init(&n);
    REQUIRE(ue_nres_write(&n, UE_NRES_CANONICAL, &empty_nres, NULL) == UE_OK);
    CHECK_EQ_U(put(&in, "inner.lib", empty_nres.data, empty_nres.size, &out, &added, NULL), UE_OK);
    CHECK_EQ_U(put(&in, "skin.tex", texm, sizeof texm, &out, &added, NULL), UE_OK);
    ue_buf_free(&empty_nres);
    ue_buf_free(&in);
    ue_buf_free(&out);
    ue_diag_free(&d);
}

/* Payloads out of directory order, a non-zero region before them and one after entry 1's:
 * 16: region R0 (8), 24: entry 2 "c" (8), 32: entry 0 "a" (8), 40: region R1 (8), 48: entry 1
 * "b" (8); the directory at 56. */
static void out_of_order_nres(ue_buf *b) {
    ue_buf_put(b, "NRes", 4);
    static const uint8_t header[12] = {0x00, 0x01, 0, 0, 3, 0, 0, 0, 56 + 3 * 64, 0, 0, 0};
    ue_buf_put(b, header, sizeof header);
    ue_buf_put(b, "region 0CCCCCCCCAAAAAAAAregion 1BBBBBBBB", 56 - 16);
    static const struct { const char *name; uint32_t offset, sort; } dir[] = {{"a", 32, 0}, {"b", 48, 1}, {"c", 24, 2}};
    for (size_t i = 0; i < 3; i++) {
        uint8_t row[UE_NRES_ENTRY_SIZE] = {0};
        ue_store_u32le(row, 7);
        ue_store_u32le(row + 12, 8);
        memcpy(row + 20, dir[i].name, 1);
        ue_store_u32le(row + 56, dir[i].offset);
        ue_store_u32le(row + 60, dir[i].sort);
        ue_buf_put(b, row, sizeof row);
    }
}

/* A changed entry: the copy is in directory order (docs/formats/nres.md#data-region), each kept region right after the
 * payload it followed in the file (R0, which no payload preceded, first); an unchanged put
 * gives the archive back. */
static void nres_changed_archive_in_directory_order(void) {
    ue_buf in = {0}, out = {0};
    out_of_order_nres(&in);
    bool added;
    REQUIRE(put(&in, "B", "BBBBBBBB", 8, &out, &added, NULL) == UE_OK);
    CHECK(out.size == in.size && !memcmp(out.data, in.data, in.size));
    out.size = 0;
    REQUIRE(put(&in, "b", "bbbbbbbb", 8, &out, &added, NULL) == UE_OK);
    CHECK_EQ_U(out.size, in.size);
    CHECK_MEM(out.data + 16, "region 0AAAAAAAAregion 1bbbbbbbbCCCCCCCC", 40);
    CHECK_EQ_U(dir_u32(&out, 0, 0x38), 24);
    CHECK_EQ_U(dir_u32(&out, 1, 0x38), 40);
    CHECK_EQ_U(dir_u32(&out, 2, 0x38), 48);
    CHECK_EQ_U(ue_load_u32le(out.data + 12), out.size);
    ue_buf_free(&in);
    ue_buf_free(&out);
}

/* RsLi is rebuilt back to back: non-zero bytes outside every entry have no place there, so a
 * change is refused (an unchanged put still gives the library back, those bytes included). */
static void rsli_unindexed_bytes_refused(void) {
    ue_rsli l;
    ue_rsli_init(&l);
    REQUIRE(ue_rsli_add(&l, "ONE", UE_RSLI_STORED, "first", 5, NULL) == UE_OK);
    ue_buf in = {0}, out = {0};
    REQUIRE(ue_rsli_write(&l, &in, NULL) == UE_OK);
    ue_rsli_free(&l);
    size_t gap_at = in.size;
    ue_buf_put(&in, "trailing", 8);
    bool added;
    ue_diag d = {0};
    CHECK_EQ_U(put(&in, "two.bin", "second!", 7, &out, &added, &d), UE_ERR_UNSUPPORTED);
    const ue_diag_item *it = diag_find(&d, "archive.put.unindexed", NULL);
    CHECK(it != NULL && it->offset == gap_at && strstr(it->message, "8 bytes outside every entry") != NULL);
    CHECK_EQ_U(out.size, 0);
    REQUIRE(put(&in, "one", "first", 5, &out, &added, NULL) == UE_OK);
    CHECK(out.size == in.size && !memcmp(out.data, in.data, in.size));
    ue_buf_free(&in);
    ue_buf_free(&out);
    ue_diag_free(&d);
}

/* Several entries in one rebuild: the same bytes as one put after the other (NRes and RsLi),
 * the added ones counted; none gives the archive byte for byte. */
static void put_many_is_puts_in_a_row(void) {
    ue_buf nres = {0}, rsli = {0};
    two_entry_nres(&nres);
    ue_rsli l;
    ue_rsli_init(&l);
    REQUIRE(ue_rsli_add(&l, "ONE", UE_RSLI_STORED, "first", 5, NULL) == UE_OK);
    REQUIRE(ue_rsli_write(&l, &rsli, NULL) == UE_OK);
    ue_rsli_free(&l);
    uint8_t texm[40] = {'T', 'e', 'x', 'm'};
    const ue_buf *archives[2] = {&nres, &rsli};
    const char *replaced[2] = {"b_first", "one"};
    for (int k = 0; k < 2; k++) {
        ue_buf step = {0}, in_a_row = {0}, many = {0}, none = {0};
        bool added;
        REQUIRE(put(archives[k], replaced[k], "54321", 5, &step, &added, NULL) == UE_OK);
        REQUIRE(put(&step, "new.tex", texm, sizeof texm, &in_a_row, &added, NULL) == UE_OK);
        ue_archive_put_entry entries[2] = {{replaced[k], "54321", 5}, {"new.tex", texm, sizeof texm}};
        ue_archive *a = NULL;
        size_t count = 9;
        REQUIRE(ue_archive_open_memory(archives[k]->data, archives[k]->size, "t", UE_MODE_STRICT, &a, NULL) == UE_OK);
        REQUIRE(ue_archive_put_many(a, entries, 2, &many, &count, NULL) == UE_OK);
        CHECK_EQ_U(count, 1);
        CHECK(many.size == in_a_row.size && !memcmp(many.data, in_a_row.data, many.size));
        REQUIRE(ue_archive_put_many(a, entries, 0, &none, &count, NULL) == UE_OK);
        CHECK_EQ_U(count, 0);
        CHECK(none.size == archives[k]->size && !memcmp(none.data, archives[k]->data, none.size));
        ue_archive_close(a);
        ue_buf_free(&step);
        ue_buf_free(&in_a_row);
        ue_buf_free(&many);
        ue_buf_free(&none);
    }
    ue_buf_free(&nres);
    ue_buf_free(&rsli);
}

int main(void) {
    RUN(put_many_is_puts_in_a_row);
    RUN(nres_add_goes_last_with_its_type);
    RUN(nres_replace_keeps_place);
    RUN(refusals);
    RUN(rsli_add_and_unchanged_replace);
    RUN(nres_damaged_entry_refused);
    RUN(nres_replace_keeps_the_type);
    RUN(nres_changed_archive_in_directory_order);
    RUN(rsli_unindexed_bytes_refused);
    return TEST_SUMMARY();
}
