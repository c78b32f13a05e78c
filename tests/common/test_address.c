/* unearth tests — the one rule of FILE[:ENTRY[:ENTRY...]] addresses (src/common/address.c,
 * docs/addresses.md): the longest existing part is the file, a ':' in a file name works, nested
 * entries split at every ':', and what a missing file or entry gives. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <stdlib.h>
#include <unistd.h>

#include "archive/container.h"
#include "samples/samples.h"
#include "test.h"
#include "unearth/archive.h"

static char dir[] = "/tmp/ue_test_address_XXXXXX";

static void path_of(const char *name, char *out, size_t cap) { snprintf(out, cap, "%s/%s", dir, name); }

static void write_file(const char *name, const void *data, size_t size) {
    char path[512];
    path_of(name, path, sizeof path);
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fwrite(data, 1, size, f);
    fclose(f);
}

/* The sample pack's parkan/objects.rlb (an NRes holding ROBOT.msh and textures_inner.lib, itself
 * an NRes holding GRID_01), written under `name`. */
static bool write_objects_rlb(const char *name) {
    ue_sample_list samples = {0};
    bool written = false;
    if (ue_samples_parkan(&samples) != UE_OK) return false;
    for (size_t i = 0; i < samples.count; i++)
        if (!strcmp(samples.items[i].path, "parkan/objects.rlb")) {
            write_file(name, samples.items[i].data, samples.items[i].size);
            written = true;
        }
    ue_sample_list_free(&samples);
    return written;
}

/* An address of `name` under the test folder, followed by `tail`. */
static const char *address_of(const char *name, const char *tail) {
    static char buf[1024];
    snprintf(buf, sizeof buf, "%s/%s%s", dir, name, tail);
    return buf;
}

static void file_alone(void) {
    const char *a = address_of("objects.rlb", "");
    ue_address at;
    CHECK_EQ_U(ue_address_split(a, 0, &at), UE_OK);
    CHECK_STR(at.file, a);
    CHECK_STR(at.entries, "");
    CHECK(at.last_entry == NULL);
    CHECK_EQ_U(at.parent_length, strlen(a));
    CHECK_STR(ue_address_leaf(a), "objects.rlb");
}

static void one_entry(void) {
    const char *a = address_of("objects.rlb", ":ROBOT.msh");
    ue_address at;
    CHECK_EQ_U(ue_address_split(a, 0, &at), UE_OK);
    CHECK_STR(at.file, address_of("objects.rlb", ""));
    a = address_of("objects.rlb", ":ROBOT.msh"); /* address_of's buffer was reused */
    CHECK_STR(at.entries, "ROBOT.msh");
    CHECK_STR(at.last_entry, "ROBOT.msh");
    CHECK_EQ_U(at.parent_length, strlen(a) - strlen(":ROBOT.msh"));
    CHECK_STR(ue_address_leaf(a), "ROBOT.msh");
}

/* Entries nest: each ':' after FILE starts the name of an entry inside the one before. */
static void nested_entries(void) {
    char a[1024];
    snprintf(a, sizeof a, "%s", address_of("objects.rlb", ":textures_inner.lib:GRID_01"));
    ue_address at;
    CHECK_EQ_U(ue_address_split(a, 0, &at), UE_OK);
    CHECK_STR(at.file, address_of("objects.rlb", ""));
    CHECK_STR(at.entries, "textures_inner.lib:GRID_01");
    CHECK_STR(at.last_entry, "GRID_01");
    CHECK_EQ_U(at.parent_length, strlen(a) - strlen(":GRID_01"));
    char name[64];
    const char *rest = ue_address_next_entry(at.entries, name, sizeof name);
    CHECK_STR(name, "textures_inner.lib");
    CHECK_STR(rest, "GRID_01");
    rest = ue_address_next_entry(rest, name, sizeof name);
    CHECK_STR(name, "GRID_01");
    CHECK(rest == NULL);
    /* A name longer than the room given is cut, the chain still moves on. */
    rest = ue_address_next_entry(at.entries, name, 5);
    CHECK_STR(name, "text");
    CHECK_STR(rest, "GRID_01");
    /* The archive layer reads by the same rule: GRID_01, the inner archive's 160-byte Texm. */
    uint8_t *data = NULL;
    size_t size = 0;
    ue_diag d = {0};
    CHECK_EQ_U(ue_archive_read_address(a, UE_MODE_STRICT, 1 << 20, &data, &size, &d), UE_OK);
    CHECK_EQ_U(size, 160);
    CHECK(size >= 4 && !memcmp(data, "Texm", 4));
    free(data);
    ue_diag_free(&d);
}

/* A ':' in a file name: the longest existing part is the file, so the name works whole, and an
 * entry after it is still found. */
static void colon_in_file_name(void) {
    REQUIRE(write_objects_rlb("my:objects.rlb"));
    char a[1024];
    snprintf(a, sizeof a, "%s", address_of("my:objects.rlb", ""));
    ue_address at;
    CHECK_EQ_U(ue_address_split(a, 0, &at), UE_OK);
    CHECK_STR(at.file, a);
    CHECK(at.last_entry == NULL);
    CHECK_STR(ue_address_leaf(a), "my:objects.rlb");
    snprintf(a, sizeof a, "%s", address_of("my:objects.rlb", ":ROBOT.msh"));
    CHECK_EQ_U(ue_address_split(a, 0, &at), UE_OK);
    CHECK_STR(at.file, address_of("my:objects.rlb", ""));
    CHECK_STR(at.entries, "ROBOT.msh");
    ue_archive *arc = NULL;
    CHECK_EQ_U(ue_archive_open(a, UE_MODE_STRICT, &arc, NULL), UE_OK);
    CHECK(arc && !strcmp(ue_archive_format(arc), "nres"));
    ue_archive_close(arc);
}

/* A file named like ARCHIVE:ENTRY beside the archive: read as that file (the longer name), but
 * where an entry must be named (UE_ADDRESS_NAMES_ENTRY) the archive is the shorter one. */
static void file_named_like_an_address(void) {
    write_file("objects.rlb:ROBOT.msh", "not an archive", 14);
    char a[1024];
    snprintf(a, sizeof a, "%s", address_of("objects.rlb", ":ROBOT.msh"));
    ue_address at;
    CHECK_EQ_U(ue_address_split(a, 0, &at), UE_OK);
    CHECK_STR(at.file, a);
    CHECK(at.last_entry == NULL);
    CHECK_EQ_U(ue_address_split(a, UE_ADDRESS_NAMES_ENTRY, &at), UE_OK);
    CHECK_STR(at.file, address_of("objects.rlb", ""));
    CHECK_STR(at.entries, "ROBOT.msh");
    CHECK_STR(at.last_entry, "ROBOT.msh");
    /* One more entry: the longest existing part is now the file named like an address. */
    snprintf(a, sizeof a, "%s", address_of("objects.rlb", ":ROBOT.msh:inner"));
    CHECK_EQ_U(ue_address_split(a, 0, &at), UE_OK);
    CHECK_STR(at.file, address_of("objects.rlb:ROBOT.msh", ""));
    CHECK_STR(at.entries, "inner");
    char path[512];
    path_of("objects.rlb:ROBOT.msh", path, sizeof path);
    unlink(path);
}

/* No part exists: UE_ERR_IO, the fields as if FILE ended at the first ':'. */
static void missing_file(void) {
    char a[1024];
    snprintf(a, sizeof a, "%s", address_of("none.rlb", ":inner.lib:GRID_01"));
    ue_address at;
    CHECK_EQ_U(ue_address_split(a, 0, &at), UE_ERR_IO);
    CHECK_STR(at.file, address_of("none.rlb", ""));
    CHECK_STR(at.entries, "inner.lib:GRID_01");
    CHECK_STR(at.last_entry, "GRID_01");
    snprintf(a, sizeof a, "%s", address_of("none.rlb", ""));
    CHECK_EQ_U(ue_address_split(a, 0, &at), UE_ERR_IO);
    CHECK_STR(at.file, a);
    CHECK(at.last_entry == NULL);
    /* "FILE:" names an empty entry, not the file. */
    snprintf(a, sizeof a, "%s", address_of("objects.rlb", ":"));
    CHECK_EQ_U(ue_address_split(a, 0, &at), UE_OK);
    CHECK_STR(at.entries, "");
    CHECK_STR(at.last_entry, "");
}

/* The parser does not look inside the archive: a missing entry is the archive layer's error,
 * which names the entry and the archive. */
static void missing_entry(void) {
    char a[1024];
    snprintf(a, sizeof a, "%s", address_of("objects.rlb", ":textures_inner.lib:GRID_02"));
    ue_address at;
    CHECK_EQ_U(ue_address_split(a, 0, &at), UE_OK);
    CHECK_STR(at.last_entry, "GRID_02");
    ue_archive *arc = NULL;
    ue_diag d = {0};
    CHECK_EQ_U(ue_archive_open(a, UE_MODE_STRICT, &arc, &d), UE_ERR_INVALID);
    CHECK(arc == NULL);
    const ue_diag_item *it = diag_find(&d, "archive.entry.missing", NULL);
    CHECK(it && strstr(it->message, "GRID_02") && strstr(it->message, "GRID_01"));
    CHECK(it && strstr(it->path, "objects.rlb:textures_inner.lib"));
    ue_diag_free(&d);
}

static void too_long(void) {
    static char a[5000];
    memset(a, 'x', sizeof a - 10);
    memcpy(a + sizeof a - 10, ":entry", 7);
    ue_address at;
    CHECK_EQ_U(ue_address_split(a, 0, &at), UE_ERR_USAGE);
}

int main(void) {
    if (!mkdtemp(dir) || !write_objects_rlb("objects.rlb")) {
        fprintf(stderr, "cannot set up %s\n", dir);
        return 1;
    }
    RUN(file_alone);
    RUN(one_entry);
    RUN(nested_entries);
    RUN(colon_in_file_name);
    RUN(file_named_like_an_address);
    RUN(missing_file);
    RUN(missing_entry);
    RUN(too_long);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return TEST_SUMMARY();
}
