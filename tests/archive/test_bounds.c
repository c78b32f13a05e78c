/* unearth tests — bounded work (docs/bounded-work.md): for every container a small file that
 * claims a lot, parsed in a forked child whose peak memory (wait4 ru_maxrss) must stay linear. */
#define _DEFAULT_SOURCE
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"
#include "unearth/archive.h"
#include "unearth/gamecube.h"
#include "unearth/nres.h"
#include "unearth/rsli.h"
#include "samples/samples.h"
#include "common/bytes.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

#define MIB ((size_t)1 << 20)

/* ---- measuring a child ---------------------------------------------------------------------- */

typedef void (*child_fn)(const uint8_t *p, size_t n);

static void noop(const uint8_t *p, size_t n) {
    (void)p;
    (void)n;
}

/* Runs fn in a child; returns its peak RSS in bytes and whether every check in it passed. */
static size_t child_peak(child_fn fn, const uint8_t *p, size_t n, bool *passed) {
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        fn(p, n);
        fflush(NULL);
        _exit(ue_test_failed_checks ? 1 : 0);
    }
    int status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    *passed = pid > 0 && wait4(pid, &status, 0, &ru) == pid && WIFEXITED(status) &&
              WEXITSTATUS(status) == 0;
    return (size_t)ru.ru_maxrss * 1024u; /* Linux reports kilobytes */
}

/* Checks fn's result and that its memory beyond a do-nothing child stays within
 * per_byte x n + base (skipped under ASan, whose shadow memory and quarantine dwarf it). */
static void expect_bounded(const char *what, child_fn fn, const uint8_t *p, size_t n,
                           size_t per_byte, size_t base) {
    bool ok_noop, ok;
    size_t floor = child_peak(noop, p, n, &ok_noop);
    size_t peak = child_peak(fn, p, n, &ok);
    size_t used = peak > floor ? peak - floor : 0;
    fprintf(stderr, "  %s: %zu-byte input, %zu KiB above the %zu KiB floor\n", what, n,
            used / 1024, floor / 1024);
    CHECK(ok_noop);
    CHECK(ok);
    if (!UNDER_ASAN) CHECK(used <= per_byte * n + base);
}

/* ---- FSYS: a million pointers naming one record (the 4 MiB reproducer) -------------- */

enum { FSYS_POINTERS = 1000000 };

static void put32be(uint8_t *p, size_t off, uint32_t v) { ue_store_u32be(p + off, v); }

static uint8_t *fsys_one_record(size_t *size) {
    const size_t list = 0x60, rec = list + 4u * FSYS_POINTERS, name = rec + 0x70;
    const size_t data = (name + 16 + 31) / 32 * 32, total = data + 0x40;
    uint8_t *p = calloc(1, total);
    if (!p) return NULL;
    memcpy(p, "FSYS", 4);
    put32be(p, 0x04, 0x201);
    put32be(p, 0x0C, FSYS_POINTERS);
    put32be(p, 0x10, 0x80000000u);
    put32be(p, 0x18, 0x40);
    put32be(p, 0x1C, (uint32_t)data);
    put32be(p, 0x20, (uint32_t)total);
    put32be(p, 0x40, (uint32_t)list);
    put32be(p, 0x44, (uint32_t)name);
    put32be(p, 0x48, (uint32_t)data);
    for (size_t i = 0; i < FSYS_POINTERS; i++) put32be(p, list + 4 * i, (uint32_t)rec);
    put32be(p, rec + 0x00, 0x00010400u); /* file id 1, type 0x04 (dat) */
    put32be(p, rec + 0x04, (uint32_t)data);
    put32be(p, rec + 0x08, 12);
    put32be(p, rec + 0x14, 12);
    put32be(p, rec + 0x20, 2);
    put32be(p, rec + 0x24, (uint32_t)name);
    memcpy(p + name, "one", 4);
    memcpy(p + data, "hello world!", 12);
    memcpy(p + total - 4, "FSYS", 4);
    *size = total;
    return p;
}

static void fsys_strict_child(const uint8_t *p, size_t n) {
    ue_archive *a = NULL;
    ue_diag d = {0};
    CHECK_EQ_U(ue_archive_open_memory(p, n, "one.fsys", UE_MODE_STRICT, &a, &d), UE_ERR_INVALID);
    CHECK(has_code(&d, "fsys.entry.overlap"));
    CHECK(d.count < 20); /* the million overlaps are summed up, not listed */
    ue_archive_close(a);
    ue_diag_free(&d);
}

static void fsys_tolerant_child(const uint8_t *p, size_t n) {
    ue_archive *a = NULL;
    ue_diag d = {0};
    REQUIRE(ue_archive_open_memory(p, n, "one.fsys", UE_MODE_TOLERANT, &a, &d) == UE_OK);
    CHECK_EQ_U(ue_archive_count(a), 1); /* the record is kept once, the rest dropped */
    CHECK(has_code(&d, "fsys.entry.dropped"));
    CHECK_EQ_U(ue_archive_validate(a, &d), UE_OK);
    ue_entry_info info;
    ue_archive_entry(a, 0, &info);
    CHECK_STR(info.name, "one.dat");
    ue_archive_close(a);
    ue_diag_free(&d);
}

/* Every pointer names a place past the end: tolerant mode keeps UE_FSYS_MAX_BAD_ENTRIES. */
static void fsys_outside_child(const uint8_t *p, size_t n) {
    uint8_t *c = malloc(n);
    if (!c) return;
    memcpy(c, p, n);
    for (size_t i = 0; i < FSYS_POINTERS; i++) put32be(c, 0x60 + 4 * i, 0xFFFFFF00u);
    ue_archive *a = NULL;
    ue_diag d = {0};
    CHECK_EQ_U(ue_archive_open_memory(c, n, "out.fsys", UE_MODE_STRICT, &a, &d), UE_ERR_INVALID);
    CHECK(has_code(&d, "fsys.entry.pointer"));
    ue_diag_free(&d);
    ue_result r = ue_archive_open_memory(c, n, "out.fsys", UE_MODE_TOLERANT, &a, &d);
    CHECK_EQ_U(r, UE_OK);
    if (r == UE_OK) {
        CHECK_EQ_U(ue_archive_count(a), 4096);
        ue_entry_info info;
        ue_archive_entry(a, 4095, &info);
        CHECK(info.damaged);
        ue_archive_close(a);
    }
    ue_diag_free(&d);
    free(c);
}

static void fsys_pointers_to_one_record(void) {
    size_t n;
    uint8_t *p = fsys_one_record(&n);
    REQUIRE(p);
    /* Before the bounded reader this took ~935 MiB (about 230 bytes per input byte). */
    expect_bounded("fsys strict", fsys_strict_child, p, n, 6, 8 * MIB);
    expect_bounded("fsys tolerant", fsys_tolerant_child, p, n, 6, 8 * MIB);
    /* Two more copies of the input (ours and the archive's) are part of this child's cost. */
    expect_bounded("fsys outside", fsys_outside_child, p, n, 8, 8 * MIB);
    free(p);
}

/* ---- FSYS: overlapping records and payloads, a file cut short ------------------------------- */

static ue_result open_fsys(const uint8_t *p, size_t n, ue_mode mode, ue_archive **a, ue_diag *d) {
    return ue_archive_open_memory(p, n, "x.fsys", mode, a, d);
}

static const ue_sample_file *sample(const ue_sample_list *l, const char *path) {
    for (size_t i = 0; i < l->count; i++)
        if (strcmp(l->items[i].path, path) == 0) return &l->items[i];
    return NULL;
}

static void fsys_overlaps_and_truncation(void) {
    ue_sample_list l = {0};
    REQUIRE(ue_samples_gamecube(&l) == UE_OK);
    const ue_sample_file *f = sample(&l, "gamecube/demo_colo.fsys");
    REQUIRE(f && f->size > 0x70);
    uint8_t *p = malloc(f->size);
    REQUIRE(p);
    ue_archive *a = NULL;
    ue_diag d = {0};
    /* Cut short by one byte: strict says invalid, tolerant keeps every entry with warnings. */
    CHECK_EQ_U(open_fsys(f->data, f->size - 1, UE_MODE_STRICT, &a, &d), UE_ERR_INVALID);
    CHECK(has_code(&d, "fsys.header.total_size"));
    ue_diag_free(&d);
    CHECK_EQ_U(open_fsys(f->data, f->size - 1, UE_MODE_TOLERANT, &a, &d), UE_OK);
    if (a) CHECK_EQ_U(ue_archive_count(a), 5);
    ue_archive_close(a);
    ue_diag_free(&d);
    /* Entry 1's pointer names the header. */
    memcpy(p, f->data, f->size);
    uint32_t list = ue_load_u32be(p + 0x40);
    ue_store_u32be(p + list + 4, 0x10);
    CHECK_EQ_U(open_fsys(p, f->size, UE_MODE_STRICT, &a, &d), UE_ERR_INVALID);
    CHECK(has_code(&d, "fsys.entry.overlap"));
    ue_diag_free(&d);
    CHECK_EQ_U(open_fsys(p, f->size, UE_MODE_TOLERANT, &a, &d), UE_OK);
    if (a) CHECK_EQ_U(ue_archive_count(a), 4);
    ue_archive_close(a);
    ue_diag_free(&d);
    /* Entry 3's payload moved onto entry 1's (both stored, 48 <= 828 bytes). */
    memcpy(p, f->data, f->size);
    uint32_t rec1 = ue_load_u32be(p + list + 4), rec3 = ue_load_u32be(p + list + 12);
    ue_store_u32be(p + rec3 + 4, ue_load_u32be(p + rec1 + 4) + 8);
    CHECK_EQ_U(open_fsys(p, f->size, UE_MODE_STRICT, &a, &d), UE_ERR_INVALID);
    CHECK(has_code(&d, "fsys.entry.data_overlap"));
    ue_diag_free(&d);
    CHECK_EQ_U(open_fsys(p, f->size, UE_MODE_TOLERANT, &a, &d), UE_OK);
    if (a) {
        ue_entry_info info;
        ue_archive_entry(a, 3, &info);
        CHECK(info.damaged);
        ue_archive_entry(a, 1, &info);
        CHECK(!info.damaged);
    }
    ue_archive_close(a);
    ue_diag_free(&d);
    free(p);
    ue_sample_list_free(&l);
}

/* ---- NRes: two thousand directory entries naming one nested 1 MiB archive ------------------- */

enum { NRES_ALIASES = 2000 };

static uint8_t *nres_shared_nested(size_t *size) {
    ue_nres inner;
    ue_nres_init(&inner);
    uint8_t *payload = malloc(MIB);
    if (!payload) return NULL;
    for (size_t i = 0; i < MIB; i++) payload[i] = (uint8_t)(i * 7);
    ue_buf ib = {0};
    bool ok = ue_nres_add(&inner, 1, 0, 0, 0, "blob", payload, MIB) == UE_OK &&
              ue_nres_write(&inner, UE_NRES_CANONICAL, &ib, NULL) == UE_OK;
    ue_nres_free(&inner);
    free(payload);
    if (!ok) return NULL;
    /* By hand: header, the inner archive at 0x10, then NRES_ALIASES rows all pointing at it. */
    size_t data_end = (0x10 + ib.size + 7) / 8 * 8, total = data_end + 64u * NRES_ALIASES;
    uint8_t *p = calloc(1, total);
    if (!p) return NULL;
    memcpy(p, "NRes", 4);
    ue_store_u32le(p + 4, 0x100);
    ue_store_u32le(p + 8, NRES_ALIASES);
    ue_store_u32le(p + 12, (uint32_t)total);
    memcpy(p + 0x10, ib.data, ib.size);
    for (uint32_t i = 0; i < NRES_ALIASES; i++) {
        uint8_t *row = p + data_end + 64u * i;
        ue_store_u32le(row + 0, 1);
        ue_store_u32le(row + 12, (uint32_t)ib.size);
        snprintf((char *)row + 20, 36, "e%05u", i);
        ue_store_u32le(row + 56, 0x10);
        ue_store_u32le(row + 60, i);
    }
    ue_buf_free(&ib);
    *size = total;
    return p;
}

static void nres_strict_child(const uint8_t *p, size_t n) {
    ue_archive *a = NULL;
    ue_diag d = {0};
    CHECK_EQ_U(ue_archive_open_memory(p, n, "x.rlb", UE_MODE_STRICT, &a, &d), UE_ERR_INVALID);
    CHECK(has_code(&d, "nres.entry.overlap"));
    ue_archive_close(a);
    ue_diag_free(&d);
}

static void nres_tolerant_child(const uint8_t *p, size_t n) {
    ue_archive *a = NULL;
    ue_diag d = {0};
    REQUIRE(ue_archive_open_memory(p, n, "x.rlb", UE_MODE_TOLERANT, &a, &d) == UE_OK);
    CHECK_EQ_U(ue_archive_count(a), NRES_ALIASES);
    /* Every alias but the first is damaged: validating them all would read 2000 MiB. */
    size_t damaged = 0;
    for (size_t i = 0; i < NRES_ALIASES; i++) {
        ue_entry_info info;
        ue_archive_entry(a, i, &info);
        damaged += info.damaged;
    }
    CHECK_EQ_U(damaged, NRES_ALIASES - 1);
    CHECK_EQ_U(ue_archive_validate(a, &d), UE_ERR_INVALID);
    ue_archive_close(a);
    ue_diag_free(&d);
}

static void nres_entries_sharing_a_nested_archive(void) {
    size_t n;
    uint8_t *p = nres_shared_nested(&n);
    REQUIRE(p);
    expect_bounded("nres strict", nres_strict_child, p, n, 3, 8 * MIB);
    expect_bounded("nres tolerant", nres_tolerant_child, p, n, 4, 8 * MIB);
    free(p);
}

/* ---- RsLi: one Deflate entry that decodes to 80 MiB from ~80 KiB ---------------------------- */

static uint8_t *rsli_huge_entry(size_t *size) {
    ue_rsli l;
    ue_rsli_init(&l);
    uint8_t *zeros = calloc(1, 80 * MIB);
    ue_buf out = {0};
    bool ok = zeros && ue_rsli_add(&l, "BIG", UE_RSLI_DEFLATE, zeros, 80 * MIB, NULL) == UE_OK &&
              ue_rsli_write(&l, &out, NULL) == UE_OK;
    free(zeros);
    ue_rsli_free(&l);
    if (!ok) {
        ue_buf_free(&out);
        return NULL;
    }
    return ue_buf_take(&out, size);
}

static void rsli_strict_child(const uint8_t *p, size_t n) {
    ue_archive *a = NULL;
    ue_diag d = {0};
    CHECK_EQ_U(ue_archive_open_memory(p, n, "x.lib", UE_MODE_STRICT, &a, &d), UE_ERR_LIMIT);
    CHECK(has_code(&d, "rsli.entry.unpacked_size"));
    ue_archive_close(a);
    ue_diag_free(&d);
}

static void rsli_tolerant_child(const uint8_t *p, size_t n) {
    ue_archive *a = NULL;
    ue_diag d = {0};
    REQUIRE(ue_archive_open_memory(p, n, "x.lib", UE_MODE_TOLERANT, &a, &d) == UE_OK);
    ue_entry_info info;
    ue_archive_entry(a, 0, &info);
    CHECK(info.damaged); /* listed, never decoded */
    CHECK_EQ_U(ue_archive_validate(a, &d), UE_ERR_INVALID);
    ue_archive_close(a);
    ue_diag_free(&d);
}

static void rsli_entry_claiming_80_mib(void) {
    size_t n;
    uint8_t *p = rsli_huge_entry(&n);
    REQUIRE(p);
    CHECK(n < 200 * 1024); /* deflate makes 80 MiB of zeros about 80 KiB */
    CHECK(80 * MIB > ue_cap_decoded(n));
    expect_bounded("rsli strict", rsli_strict_child, p, n, 4, 4 * MIB);
    expect_bounded("rsli tolerant", rsli_tolerant_child, p, n, 4, 4 * MIB);
    free(p);
}

/* Two Deflate entries of 48 MiB each: either fits the per-entry cap, both together do not,
 * so validate stops at the second with a limit error instead of decoding 96 MiB. */
static uint8_t *rsli_two_big_entries(size_t *size) {
    ue_rsli l;
    ue_rsli_init(&l);
    uint8_t *zeros = calloc(1, 48 * MIB);
    ue_buf out = {0};
    bool ok = zeros && ue_rsli_add(&l, "ONE", UE_RSLI_DEFLATE, zeros, 48 * MIB, NULL) == UE_OK &&
              ue_rsli_add(&l, "TWO", UE_RSLI_DEFLATE, zeros, 48 * MIB, NULL) == UE_OK &&
              ue_rsli_write(&l, &out, NULL) == UE_OK;
    free(zeros);
    ue_rsli_free(&l);
    if (!ok) {
        ue_buf_free(&out);
        return NULL;
    }
    return ue_buf_take(&out, size);
}

static void rsli_budget_child(const uint8_t *p, size_t n) {
    ue_archive *a = NULL;
    ue_diag d = {0};
    REQUIRE(ue_archive_open_memory(p, n, "x.lib", UE_MODE_STRICT, &a, &d) == UE_OK);
    CHECK_EQ_U(ue_archive_validate(a, &d), UE_ERR_LIMIT);
    CHECK(has_code(&d, "rsli.limit"));
    ue_archive_close(a);
    ue_diag_free(&d);
}

static void rsli_entries_together_over_the_cap(void) {
    size_t n;
    uint8_t *p = rsli_two_big_entries(&n);
    REQUIRE(p);
    CHECK(48 * MIB <= ue_cap_decoded(n) && 96 * MIB > ue_cap_decoded(n));
    /* One entry is decoded at a time: 48 MiB, within 32 x input + 64 MiB. */
    expect_bounded("rsli budget", rsli_budget_child, p, n, UE_CAP_DECODED_PER_BYTE,
                   UE_CAP_DECODED_BASE + 4 * MIB);
    free(p);
}

/* ---- PKX: headers that claim 4 billion animations or a 4 GiB GPT1 block ------------------- */

static void pkx_child(const uint8_t *p, size_t n) {
    uint8_t *c = malloc(n);
    if (!c) return;
    ue_pkx_info info;
    ue_diag d = {0};
    memcpy(c, p, n);
    ue_store_u32be(c + 0x10, 0xFFFFFFFFu); /* XD's animation count */
    CHECK_EQ_U(ue_pkx_parse(c, n, UE_MODE_STRICT, &info, &d), UE_ERR_INVALID);
    CHECK(has_code(&d, "pkx.anim_count"));
    ue_diag_free(&d);
    memcpy(c, p, n);
    ue_store_u32be(c + 0x08, 0xFFFFFF00u); /* XD's GPT1 length */
    CHECK_EQ_U(ue_pkx_parse(c, n, UE_MODE_TOLERANT, &info, &d), UE_ERR_INVALID);
    CHECK(has_code(&d, "pkx.gpt1_range"));
    ue_diag_free(&d);
    memcpy(c, p, n);
    ue_store_u32be(c + 0x00, 0xFFFFFFF0u); /* declared DAT size: the DAT's own word is used */
    CHECK_EQ_U(ue_pkx_parse(c, n, UE_MODE_TOLERANT, &info, &d), UE_OK);
    CHECK(info.dat_size_fallback && info.dat_size < n);
    ue_diag_free(&d);
    free(c);
}

static void pkx_claiming_huge_counts(void) {
    ue_sample_list l = {0};
    REQUIRE(ue_samples_gamecube(&l) == UE_OK);
    const ue_sample_file *f = sample(&l, "gamecube/demo_xd.pkx");
    REQUIRE(f && f->size > 0x84);
    expect_bounded("pkx", pkx_child, f->data, f->size, 4, 2 * MIB);
    ue_sample_list_free(&l);
}

/* ---- OUTER:ENTRY: NRes nested twelve deep --------------------------------------------------- */

static void nested_child(const uint8_t *p, size_t n) {
    ue_archive *a = NULL;
    ue_diag d = {0};
    REQUIRE(ue_archive_open_memory(p, n, "deep.rlb", UE_MODE_STRICT, &a, &d) == UE_OK);
    CHECK_EQ_U(ue_archive_validate(a, &d), UE_ERR_INVALID);
    CHECK(has_code(&d, "archive.nesting"));
    ue_archive_close(a);
    ue_diag_free(&d);
}

static void deep_nesting(void) {
    ue_buf cur = {0};
    ue_buf_put(&cur, "leaf", 4);
    for (int level = 0; level < 12 && !cur.failed; level++) {
        ue_nres n;
        ue_nres_init(&n);
        ue_buf next = {0};
        if (ue_nres_add(&n, 1, 0, 0, 0, "inner", cur.data, cur.size) != UE_OK ||
            ue_nres_write(&n, UE_NRES_CANONICAL, &next, NULL) != UE_OK)
            next.failed = true;
        ue_nres_free(&n);
        ue_buf_free(&cur);
        cur = next;
    }
    REQUIRE(!cur.failed);
    /* Twelve levels of a ~1 KiB file: each level open at once costs a copy. */
    expect_bounded("nested chain", nested_child, cur.data, cur.size, 16, 2 * MIB);
    /* OUTER:ENTRY deeper than the nesting limit is refused. */
    char dir[] = "/tmp/ue_bounds_XXXXXX";
    REQUIRE(mkdtemp(dir));
    char path[256], chain[512];
    snprintf(path, sizeof path, "%s/deep.rlb", dir);
    REQUIRE(ue_file_write_atomic(path, cur.data, cur.size, true, NULL) == UE_OK);
    int len = snprintf(chain, sizeof chain, "%s", path);
    for (int i = 0; i < 10; i++) len += snprintf(chain + len, sizeof chain - (size_t)len, ":inner");
    ue_archive *a = NULL;
    ue_diag d = {0};
    CHECK_EQ_U(ue_archive_open(chain, UE_MODE_STRICT, &a, &d), UE_ERR_INVALID);
    CHECK(has_code(&d, "archive.nesting"));
    ue_archive_close(a);
    ue_diag_free(&d);
    /* Eight levels are followed: deep.rlb:inner x 8 is the fourth-innermost archive. */
    len = snprintf(chain, sizeof chain, "%s", path);
    for (int i = 0; i < 8; i++) len += snprintf(chain + len, sizeof chain - (size_t)len, ":inner");
    CHECK_EQ_U(ue_archive_open(chain, UE_MODE_STRICT, &a, NULL), UE_OK);
    if (a) CHECK_STR(ue_archive_format(a), "nres");
    ue_archive_close(a);
    unlink(path);
    rmdir(dir);
    ue_buf_free(&cur);
}

int main(void) {
    RUN(fsys_pointers_to_one_record);
    RUN(fsys_overlaps_and_truncation);
    RUN(nres_entries_sharing_a_nested_archive);
    RUN(rsli_entry_claiming_80_mib);
    RUN(rsli_entries_together_over_the_cap);
    RUN(pkx_claiming_huge_counts);
    RUN(deep_nesting);
    return TEST_SUMMARY();
}
