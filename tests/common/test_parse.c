/* Tests of how parsers report (src/common/parse.h) and of ue_diag_addv: severity by mode, the
 * failed flag and its first reason, printf formatting, and long text cut safely. */
#include <stdarg.h>

#include "common/parse.h"
#include "test.h"
#include "unearth/common.h"

static void strict_violation_is_an_error_and_fails(void) {
    ue_diag d = {0};
    d.base_offset = 0x100;
    snprintf(d.path_prefix, sizeof d.path_prefix, "outer.rlb:a.msh");
    ue_parse_ctx c = ue_parse_begin(UE_MODE_STRICT, &d);
    CHECK(!ue_parse_failed(&c));
    ue_violation(&c, "x.rule", 0x24, "x/entry[3]/size", "size %u is not a multiple of %d", 37u, 4);
    CHECK(ue_parse_failed(&c));
    CHECK_EQ_U(c.failure, UE_ERR_INVALID);
    REQUIRE(d.count == 1);
    CHECK_EQ_U(d.items[0].severity, UE_SEV_ERROR);
    CHECK_STR(d.items[0].code, "x.rule");
    CHECK_EQ_U(d.items[0].offset, 0x124u); /* rebased on the outer file */
    CHECK_STR(d.items[0].path, "outer.rlb:a.msh/x/entry[3]/size");
    CHECK_STR(d.items[0].message, "size 37 is not a multiple of 4");
    ue_diag_free(&d);
}

static void tolerant_violation_is_a_warning_and_goes_on(void) {
    ue_diag d = {0};
    ue_parse_ctx c = ue_parse_begin(UE_MODE_TOLERANT, &d);
    ue_violation(&c, "x.rule", UE_NO_OFFSET, "x", "%s", "bad");
    ue_violation_as(&c, UE_ERR_UNSUPPORTED, "x.method", 4, "x/flags", "method %#x", 0x1c0u);
    CHECK(!ue_parse_failed(&c));
    CHECK_EQ_U(c.failure, UE_OK);
    REQUIRE(d.count == 2);
    CHECK_EQ_U(d.items[0].severity, UE_SEV_WARNING);
    CHECK_EQ_U(d.items[0].offset, UE_NO_OFFSET);
    CHECK_EQ_U(d.items[1].severity, UE_SEV_WARNING);
    CHECK_STR(d.items[1].message, "method 0x1c0");
    ue_diag_free(&d);
}

static void first_failure_is_the_result(void) {
    ue_diag d = {0};
    ue_parse_ctx c = ue_parse_begin(UE_MODE_STRICT, &d);
    ue_violation_as(&c, UE_ERR_UNSUPPORTED, "x.method", 4, "x", "unknown method");
    ue_violation(&c, "x.rule", 8, "x", "later breach");
    CHECK_EQ_U(c.failure, UE_ERR_UNSUPPORTED);
    ue_parse_fail(&c, UE_OK); /* not a failure: changes nothing */
    CHECK_EQ_U(c.failure, UE_ERR_UNSUPPORTED);
    CHECK_EQ_U(d.count, 2u);
    CHECK_EQ_U(d.items[1].severity, UE_SEV_ERROR);
    ue_diag_free(&d);
}

static void damage_and_errors_by_mode(void) {
    for (int m = 0; m < 2; m++) {
        ue_mode mode = m ? UE_MODE_TOLERANT : UE_MODE_STRICT;
        ue_diag d = {0};
        ue_parse_ctx c = ue_parse_begin(mode, &d);
        ue_damage(&c, "x.range", 16, "x/entry[0]", "payload outside the file");
        /* damage: an error in both modes, fatal only in strict mode */
        CHECK_EQ_U(c.failure, mode == UE_MODE_STRICT ? UE_ERR_INVALID : UE_OK);
        ue_parse_error(&c, "x.missing", UE_NO_OFFSET, "x/res1", "required part %d missing", 1);
        CHECK_EQ_U(c.failure, UE_ERR_INVALID); /* fatal in both modes */
        REQUIRE(d.count == 2);
        CHECK_EQ_U(d.items[0].severity, UE_SEV_ERROR);
        CHECK_EQ_U(d.items[1].severity, UE_SEV_ERROR);
        CHECK_STR(d.items[1].message, "required part 1 missing");
        ue_diag_free(&d);
    }
}

static void verdict_is_kept_without_a_list(void) {
    ue_parse_ctx c = ue_parse_begin(UE_MODE_STRICT, NULL);
    ue_violation(&c, "x.rule", 0, "x", "nobody listens");
    CHECK_EQ_U(c.failure, UE_ERR_INVALID);
    ue_diag d = {0};
    d.max_items = 1; /* a full list drops the item, not the verdict */
    c = ue_parse_begin(UE_MODE_STRICT, &d);
    ue_diag_add(&d, UE_SEV_INFO, "x.note", 0, "x", "fills the list");
    ue_violation(&c, "x.rule", 0, "x", "dropped");
    CHECK_EQ_U(c.failure, UE_ERR_INVALID);
    CHECK_EQ_U(d.count, 1u);
    CHECK_EQ_U(d.dropped, 1u);
    ue_diag_free(&d);
}

static void add_through_va_list(ue_diag *d, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    ue_diag_addv(d, UE_SEV_INFO, "x.va", 2, "x/va", fmt, ap);
    va_end(ap);
}

static void addv_formats_like_printf(void) {
    ue_diag d = {0};
    add_through_va_list(&d, "%s has %zu bytes at 0x%04X (%.2f%%)", "entry", (size_t)12, 0xABu,
                        12.5);
    REQUIRE(d.count == 1);
    CHECK_STR(d.items[0].message, "entry has 12 bytes at 0x00AB (12.50%)");
    CHECK_STR(d.items[0].code, "x.va");
    CHECK_EQ_U(d.items[0].offset, 2u);
    ue_diag_free(&d);
}

/* A message of `ascii` letters followed by `tail`, formatted through ue_violation. */
static size_t message_length(const char *tail, size_t ascii, char *last_bytes) {
    char text[400];
    memset(text, 'a', ascii);
    snprintf(text + ascii, sizeof text - ascii, "%s", tail);
    ue_diag d = {0};
    ue_parse_ctx c = ue_parse_begin(UE_MODE_TOLERANT, &d);
    ue_violation(&c, "x.long", 0, "x", "%s", text);
    size_t n = d.count == 1 ? strlen(d.items[0].message) : 0;
    if (n >= 3) memcpy(last_bytes, d.items[0].message + n - 3, 3);
    ue_diag_free(&d);
    return n;
}

static void long_messages_are_cut_whole(void) {
    char last[3] = {0};
    const size_t room = sizeof ((ue_diag_item *)0)->message - 1; /* 255 characters + NUL */
    CHECK_EQ_U(message_length("", 390, last), room);
    /* "é" (2 bytes) ending exactly at byte 255 fits whole */
    CHECK_EQ_U(message_length("\xC3\xA9", room - 2, last), room);
    CHECK_MEM(last + 1, "\xC3\xA9", 2);
    /* one byte later it would be cut in half: it is dropped whole */
    CHECK_EQ_U(message_length("\xC3\xA9", room - 1, last), room - 1);
    CHECK_EQ_U((unsigned char)last[2], 'a');
    /* "€" (3 bytes) with two bytes of room, and a 4-byte emoji with three */
    CHECK_EQ_U(message_length("\xE2\x82\xAC", room - 2, last), room - 2);
    CHECK_EQ_U(message_length("\xF0\x9F\x99\x82z", room - 3, last), room - 3);
    CHECK_EQ_U((unsigned char)last[2], 'a');
    /* text that is not cut keeps even malformed bytes (raw names are shown as they are) */
    CHECK_EQ_U(message_length("\xC3", 10, last), 11u);
}

static void long_paths_are_cut_whole(void) {
    ue_diag d = {0};
    char path[300];
    const size_t room = sizeof d.items->path - 1;
    memset(path, 'p', room - 1);
    snprintf(path + room - 1, sizeof path - (room - 1), "\xD0\xB6/rest"); /* "ж" across the cut */
    ue_diag_add(&d, UE_SEV_WARNING, "x.path", 0, path, "m");
    REQUIRE(d.count == 1);
    CHECK_EQ_U(strlen(d.items[0].path), room - 1);
    CHECK_EQ_U((unsigned char)d.items[0].path[room - 2], 'p');
    ue_diag_free(&d);
}

/* What a tolerant read stepped over: an info note is not a violation; a violation (a warning in
 * tolerant mode), damage (an error) and an item dropped at the list's cap each are; without a
 * list nothing is known, so the answer is yes. */
static void warned_since_tells_a_step_over(void) {
    ue_diag d = {0};
    ue_diag_add(&d, UE_SEV_WARNING, "x.before", 0, "x", "reported before the mark");
    ue_diag_mark m = ue_diag_mark_at(&d);
    CHECK(!ue_diag_warned_since(m));
    ue_diag_add(&d, UE_SEV_INFO, "x.note", 0, "x", "a note in both modes");
    CHECK(!ue_diag_warned_since(m));
    ue_parse_ctx c = ue_parse_begin(UE_MODE_TOLERANT, &d);
    ue_violation(&c, "x.rule", 0, "x", "bad");
    CHECK(ue_diag_warned_since(m));
    m = ue_diag_mark_at(&d);
    ue_damage(&c, "x.damage", 0, "x", "unusable");
    CHECK(ue_diag_warned_since(m));
    ue_diag_free(&d);
    ue_diag full = {0};
    full.max_items = 1;
    ue_diag_add(&full, UE_SEV_INFO, "x.note", 0, "x", "fills the list");
    m = ue_diag_mark_at(&full);
    ue_diag_add(&full, UE_SEV_INFO, "x.note", 0, "x", "dropped");
    CHECK_EQ_U(full.count, 1);
    CHECK(ue_diag_warned_since(m));
    ue_diag_free(&full);
    CHECK(ue_diag_warned_since(ue_diag_mark_at(NULL)));
}

int main(void) {
    RUN(strict_violation_is_an_error_and_fails);
    RUN(tolerant_violation_is_a_warning_and_goes_on);
    RUN(first_failure_is_the_result);
    RUN(damage_and_errors_by_mode);
    RUN(verdict_is_kept_without_a_list);
    RUN(addv_formats_like_printf);
    RUN(long_messages_are_cut_whole);
    RUN(long_paths_are_cut_whole);
    RUN(warned_since_tells_a_step_over);
    return TEST_SUMMARY();
}
