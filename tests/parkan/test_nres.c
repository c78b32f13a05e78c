/* Tests of the NRes module against byte images written by hand from the format (docs/formats/nres.md): parse
 * values, engine lookup and lower-case sort, lossless/canonical writers, edits, bad input. */
#include "test.h"
#include "unearth/nres.h"
#include "common/bytes.h"

static void put32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

static void dir_entry(uint8_t *e, uint32_t type, uint32_t a1, uint32_t a2, uint32_t size, uint32_t a3,
                      const char *name, uint32_t off, uint32_t sort) {
    memset(e, 0, 64);
    put32(e, type); put32(e + 4, a1); put32(e + 8, a2); put32(e + 12, size); put32(e + 16, a3);
    memcpy(e + 20, name, strlen(name));
    put32(e + 56, off); put32(e + 60, sort);
}

/* Canonical three-entry archive, by hand:
 *   0x00 header; 0x10 "hello" + 3 pad; 0x18 "AB..." 9 bytes + 7 pad; 0x28 empty? no:
 * entries in directory order: [0] "b_two" 5 bytes @0x10, [1] "AB" 9 bytes @0x18,
 * [2] "A_B" 0 bytes @0x28. Lower-case order: "a_b" < "ab" < "b_two" → sort = [2, 1, 0]. */
static size_t build_image(uint8_t *img) {
    memset(img, 0, 256);
    memcpy(img, "NRes", 4);
    put32(img + 4, 0x100);
    put32(img + 8, 3);
    memcpy(img + 0x10, "hello", 5);
    memcpy(img + 0x18, "ABCDEFGHI", 9);
    uint32_t dir = 0x28;
    dir_entry(img + dir, 0x6D786554, 1, 2, 5, 3, "b_two", 0x10, 2);
    dir_entry(img + dir + 64, 7, 0, 0, 9, 0, "AB", 0x18, 1);
    dir_entry(img + dir + 128, 7, 0, 0, 0, 0, "A_B", 0x28, 0);
    put32(img + 12, dir + 192);
    return dir + 192;
}

static void parses_hand_built_image(void) {
    uint8_t img[256];
    size_t size = build_image(img);
    ue_source src = ue_source_memory(img, size);
    ue_nres n;
    ue_diag d = {0};
    REQUIRE(ue_nres_parse(&src, UE_MODE_STRICT, &n, &d) == UE_OK);
    CHECK_EQ_U(d.count, 0);
    CHECK_EQ_U(n.count, 3);
    CHECK_EQ_U(n.dir_offset, 0x28);
    CHECK_EQ_U(n.entries[0].type_id, 0x6D786554);
    CHECK_EQ_U(n.entries[0].attr1, 1);
    CHECK_EQ_U(n.entries[0].attr2, 2);
    CHECK_EQ_U(n.entries[0].attr3, 3);
    CHECK_EQ_U(n.entries[1].size, 9);
    CHECK_EQ_U(n.entries[1].data_offset, 0x18);
    CHECK(n.sort_valid);
    char name[40];
    ue_nres_entry_name(&n.entries[2], name, sizeof name);
    CHECK_STR(name, "A_B");
    size_t idx = 99;
    CHECK(ue_nres_find(&n, "ab", &idx) && idx == 1);
    CHECK(ue_nres_find(&n, "B_TWO", &idx) && idx == 0);
    CHECK(ue_nres_find(&n, "a_b", &idx) && idx == 2);
    CHECK(!ue_nres_find(&n, "A", &idx));
    const uint8_t *p;
    uint8_t *tmp;
    REQUIRE(ue_nres_payload(&n, 1, &p, &tmp, &d) == UE_OK);
    CHECK_MEM(p, "ABCDEFGHI", 9);
    free(tmp);
    ue_nres_free(&n);
    ue_diag_free(&d);
}

static void lower_case_sort_order(void) {
    /* '_' (0x5F) lies between 'Z' and 'a': folded to lower case "a_b" < "ab", while an
     * upper-case fold would give "AB" < "A_B". */
    CHECK(ue_nres_name_compare("A_B", "AB") < 0);
    CHECK(ue_nres_name_compare("ab", "AB") == 0);
    CHECK(ue_nres_name_compare("abc", "ab") > 0);  /* shorter is smaller */
    CHECK(ue_nres_name_compare("[", "a") < 0);
    CHECK(ue_nres_name_compare("\xE0", "z") > 0);  /* bytes compare unsigned */
}

static void writers_reproduce_the_image(void) {
    uint8_t img[256];
    size_t size = build_image(img);
    ue_source src = ue_source_memory(img, size);
    ue_nres n;
    REQUIRE(ue_nres_parse(&src, UE_MODE_STRICT, &n, NULL) == UE_OK);
    ue_buf a = {0}, c = {0};
    CHECK_EQ_U(ue_nres_write(&n, UE_NRES_LOSSLESS, &a, NULL), UE_OK);
    CHECK_EQ_U(a.size, size);
    CHECK_MEM(a.data, img, size);
    /* The hand-built image is canonical, so the canonical writer gives it too. */
    CHECK_EQ_U(ue_nres_write(&n, UE_NRES_CANONICAL, &c, NULL), UE_OK);
    CHECK_EQ_U(c.size, size);
    CHECK_MEM(c.data, img, size);
    ue_buf_free(&a);
    ue_buf_free(&c);
    ue_nres_free(&n);
}

static void unindexed_bytes_survive(void) {
    uint8_t img[256];
    size_t size = build_image(img);
    img[0x15] = 0xAB; /* a padding byte after "hello" that no entry claims */
    ue_source src = ue_source_memory(img, size);
    ue_nres n;
    ue_diag d = {0};
    REQUIRE(ue_nres_parse(&src, UE_MODE_STRICT, &n, &d) == UE_OK);
    CHECK_EQ_U(n.gap_count, 1);
    CHECK_EQ_U(n.gaps[0].offset, 0x15);
    CHECK_EQ_U(n.gaps[0].size, 3);
    REQUIRE(d.count == 1);
    CHECK_STR(d.items[0].code, "nres.padding.nonzero");
    CHECK_EQ_U(d.items[0].offset, 0x15);
    ue_buf a = {0};
    CHECK_EQ_U(ue_nres_write(&n, UE_NRES_LOSSLESS, &a, NULL), UE_OK);
    CHECK(a.size == size && memcmp(a.data, img, size) == 0);
    ue_buf_free(&a);
    ue_nres_free(&n);
    ue_diag_free(&d);
}

static void edits_give_valid_archives(void) {
    uint8_t img[256];
    size_t size = build_image(img);
    ue_source src = ue_source_memory(img, size);
    ue_nres n;
    REQUIRE(ue_nres_parse(&src, UE_MODE_STRICT, &n, NULL) == UE_OK);
    CHECK_EQ_U(ue_nres_replace(&n, 0, "hello world", 11), UE_OK);
    CHECK_EQ_U(ue_nres_rename(&n, 1, "zz_last"), UE_OK);
    CHECK_EQ_U(ue_nres_add(&n, 0x52414557, 0, 0, 1, "Added.wea", "1\r\n", 3), UE_OK);
    CHECK_EQ_U(ue_nres_remove(&n, 2), UE_OK);
    CHECK_EQ_U(ue_nres_rename(&n, 0, "this-name-is-much-longer-than-35-bytes!"), UE_ERR_USAGE);
    ue_buf out = {0};
    REQUIRE(ue_nres_write(&n, UE_NRES_LOSSLESS, &out, NULL) == UE_OK);
    /* Independent check of the layout: 16 + 16 ("hello world" padded) + 16 (9 padded) + 8. */
    CHECK_EQ_U(out.size, 16 + 16 + 16 + 8 + 3 * 64);
    CHECK_EQ_U(ue_load_u32le(out.data + 12), out.size);
    ue_source s2 = ue_source_memory(out.data, out.size);
    ue_nres m;
    ue_diag d = {0};
    REQUIRE(ue_nres_parse(&s2, UE_MODE_STRICT, &m, &d) == UE_OK);
    CHECK_EQ_U(d.count, 0);
    CHECK_EQ_U(m.count, 3);
    size_t idx;
    CHECK(ue_nres_find(&m, "ADDED.WEA", &idx) && idx == 2);
    CHECK(ue_nres_find(&m, "zz_last", &idx) && idx == 1);
    /* Sorted order: added.wea, b_two, zz_last → [2, 0, 1]. */
    CHECK_EQ_U(m.entries[0].sort_index, 2);
    CHECK_EQ_U(m.entries[1].sort_index, 0);
    CHECK_EQ_U(m.entries[2].sort_index, 1);
    const uint8_t *p;
    uint8_t *tmp;
    REQUIRE(ue_nres_payload(&m, 0, &p, &tmp, NULL) == UE_OK);
    CHECK_MEM(p, "hello world", 11);
    ue_nres_free(&m);
    ue_nres_free(&n);
    ue_buf_free(&out);
    ue_diag_free(&d);
}

/* The source must outlive the parsed archive, which reads payloads through it (nres.h): one
 * static slot, since these tests hold one parsed image at a time. (It lived on this helper's
 * stack, and ue_nres_payload read it after the return: clang's ASan reports that.) */
static ue_source parsed_source;

static ue_result parse_bytes(const uint8_t *img, size_t size, ue_mode mode, ue_diag *d, ue_nres *n) {
    parsed_source = ue_source_memory(img, size);
    return ue_nres_parse(&parsed_source, mode, n, d);
}

static void expect_code_at(const ue_diag *d, const char *code, uint64_t offset) {
    bool found = false;
    for (size_t i = 0; i < d->count; i++)
        if (!strcmp(d->items[i].code, code) && d->items[i].offset == offset) found = true;
    if (!found) {
        fprintf(stderr, "  expected diagnostic %s @0x%llx; got:\n", code, (unsigned long long)offset);
        for (size_t i = 0; i < d->count; i++)
            fprintf(stderr, "    %s @0x%llx %s\n", d->items[i].code,
                    (unsigned long long)d->items[i].offset, d->items[i].message);
    }
    CHECK(found);
}

static void bad_input_is_reported(void) {
    uint8_t img[256];
    size_t size = build_image(img);
    ue_nres n;
    ue_diag d = {0};

    CHECK_EQ_U(parse_bytes(img, 10, UE_MODE_STRICT, &d, &n), UE_ERR_INVALID);
    expect_code_at(&d, "nres.header.truncated", 0);
    ue_diag_free(&d);

    uint8_t bad[256];
    memcpy(bad, img, size);
    bad[0] = 'X';
    CHECK_EQ_U(parse_bytes(bad, size, UE_MODE_TOLERANT, &d, &n), UE_ERR_INVALID);
    expect_code_at(&d, "nres.header.magic", 0);
    ue_diag_free(&d);

    memcpy(bad, img, size);
    put32(bad + 8, 0x7FFFFFFF); /* absurd count */
    CHECK_EQ_U(parse_bytes(bad, size, UE_MODE_TOLERANT, &d, &n), UE_ERR_INVALID);
    expect_code_at(&d, "nres.header.count", 8);
    ue_diag_free(&d);

    memcpy(bad, img, size);
    put32(bad + 8, 0xFFFFFFFF); /* negative count */
    CHECK_EQ_U(parse_bytes(bad, size, UE_MODE_TOLERANT, &d, &n), UE_ERR_INVALID);
    ue_diag_free(&d);

    memcpy(bad, img, size);
    put32(bad + 12, (uint32_t)size + 8); /* total_size lies */
    CHECK_EQ_U(parse_bytes(bad, size, UE_MODE_STRICT, &d, &n), UE_ERR_INVALID);
    expect_code_at(&d, "nres.header.total_size", 12);
    ue_diag_free(&d);

    memcpy(bad, img, size);
    put32(bad + 4, 0x200);
    CHECK_EQ_U(parse_bytes(bad, size, UE_MODE_STRICT, &d, &n), UE_ERR_INVALID);
    expect_code_at(&d, "nres.header.version", 4);
    ue_diag_free(&d);

    /* Entry 1's range runs into the directory: strict fails, tolerant marks it damaged. */
    memcpy(bad, img, size);
    put32(bad + 0x28 + 64 + 12, 0x100);
    CHECK_EQ_U(parse_bytes(bad, size, UE_MODE_STRICT, &d, &n), UE_ERR_INVALID);
    expect_code_at(&d, "nres.entry.range", 0x28 + 64 + 56);
    ue_diag_free(&d);
    REQUIRE(parse_bytes(bad, size, UE_MODE_TOLERANT, &d, &n) == UE_OK);
    CHECK(n.entries[1].damaged);
    CHECK(!n.entries[0].damaged);
    const uint8_t *p;
    uint8_t *tmp;
    CHECK_EQ_U(ue_nres_payload(&n, 1, &p, &tmp, NULL), UE_ERR_INVALID);
    CHECK_EQ_U(ue_nres_payload(&n, 0, &p, &tmp, NULL), UE_OK);
    ue_nres_free(&n);
    ue_diag_free(&d);

    /* Overlapping payloads. */
    memcpy(bad, img, size);
    put32(bad + 0x28 + 64 + 56, 0x12);
    CHECK_EQ_U(parse_bytes(bad, size, UE_MODE_STRICT, &d, &n), UE_ERR_INVALID);
    expect_code_at(&d, "nres.entry.overlap", 0x28 + 64 + 56);
    ue_diag_free(&d);
    REQUIRE(parse_bytes(bad, size, UE_MODE_TOLERANT, &d, &n) == UE_OK);
    CHECK(n.entries[1].damaged); /* bounded work: shared bytes are not read twice */
    CHECK(!n.entries[0].damaged);
    ue_nres_free(&n);
    ue_diag_free(&d);

    /* A sort table that is not a permutation: tolerant falls back to a linear lookup. */
    memcpy(bad, img, size);
    put32(bad + 0x28 + 60, 1);
    CHECK_EQ_U(parse_bytes(bad, size, UE_MODE_STRICT, &d, &n), UE_ERR_INVALID);
    ue_diag_free(&d);
    REQUIRE(parse_bytes(bad, size, UE_MODE_TOLERANT, &d, &n) == UE_OK);
    CHECK(!n.sort_valid);
    size_t idx;
    CHECK(ue_nres_find(&n, "a_b", &idx) && idx == 2);
    ue_nres_free(&n);
    ue_diag_free(&d);

    /* A name that fills all 36 bytes with no NUL. */
    memcpy(bad, img, size);
    memset(bad + 0x28 + 20, 'N', 36);
    CHECK_EQ_U(parse_bytes(bad, size, UE_MODE_STRICT, &d, &n), UE_ERR_INVALID);
    expect_code_at(&d, "nres.entry.name.nul", 0x28 + 20);
    ue_diag_free(&d);
}

static void truncation_sweep_never_crashes(void) {
    uint8_t img[256];
    size_t size = build_image(img);
    for (size_t cut = 0; cut < size; cut++) {
        uint8_t *copy = malloc(cut ? cut : 1);
        memcpy(copy, img, cut);
        ue_nres n;
        ue_diag d = {0};
        /* Every prefix breaks total_size: strict refuses it, tolerant reports it. */
        CHECK(parse_bytes(copy, cut, UE_MODE_STRICT, &d, &n) != UE_OK);
        ue_diag_free(&d);
        if (parse_bytes(copy, cut, UE_MODE_TOLERANT, &d, &n) == UE_OK) ue_nres_free(&n);
        CHECK(d.count > 0);
        ue_diag_free(&d);
        free(copy);
    }
}

int main(void) {
    RUN(parses_hand_built_image);
    RUN(lower_case_sort_order);
    RUN(writers_reproduce_the_image);
    RUN(unindexed_bytes_survive);
    RUN(edits_give_valid_archives);
    RUN(bad_input_is_reported);
    RUN(truncation_sweep_never_crashes);
    return TEST_SUMMARY();
}
