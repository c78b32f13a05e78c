/* unearth tests — container entry names as text (docs/text.md): Windows-1251 bytes shown in
 * UTF-8 with only non-text bytes escaped, the way back for pack, and payload file names. */
#include "archive/container.h"
#include "test.h"

/* Expected UTF-8 is written as bytes, from the Unicode charts: Р U+0420 = D0 A0, О U+041E =
 * D0 9E, Б U+0411 = D0 91, Т U+0422 = D0 A2, Ё U+0401 = D0 81, № U+2116 = E2 84 96. */
#define ROBOT_UTF8 "\xD0\xA0\xD0\x9E\xD0\x91\xD0\x9E\xD0\xA2"
static const uint8_t robot_cp1251[] = {0xD0, 0xCE, 0xC1, 0xCE, 0xD2};

static void cp1251_bytes_shown_in_utf8(void) {
    uint8_t raw[36] = {0};
    char out[256];
    memcpy(raw, robot_cp1251, 5);
    memcpy(raw + 5, ".msh", 4);
    ue_cp1251_entry_name(raw, sizeof raw, out, sizeof out);
    CHECK_STR(out, ROBOT_UTF8 ".msh");
    /* Ё and № from the 0x80-0xBF block; controls, 0x98 and '\' stay escaped. */
    const uint8_t mixed[] = {0xA8, 0xB9, '1', 0x98, 0x01, 0x7F, '\\', 0};
    ue_cp1251_entry_name(mixed, sizeof mixed, out, sizeof out);
    CHECK_STR(out, "\xD0\x81\xE2\x84\x96" "1\\x98\\x01\\x7F\\\\");
    /* The field's length bounds the name even without a NUL. */
    ue_cp1251_entry_name((const uint8_t *)"ABCDEFGHIJKLMN", 12, out, sizeof out);
    CHECK_STR(out, "ABCDEFGHIJKL");
    /* A full buffer never holds half a character: 5 bytes fit "Р", "О" and the NUL. */
    ue_cp1251_entry_name(robot_cp1251, sizeof robot_cp1251, out, 6);
    CHECK_STR(out, "\xD0\xA0\xD0\x9E");
}

static void text_back_to_cp1251(void) {
    uint8_t bytes[40];
    size_t len = 0;
    ue_diag d = {0};
    CHECK(ue_cp1251_name_parse(ROBOT_UTF8 ".msh", bytes, 35, &len, "w", &d) == UE_OK);
    CHECK_EQ_U(len, 9);
    CHECK_MEM(bytes, robot_cp1251, 5);
    /* The all-escaped form of older manifests gives the same bytes. */
    CHECK(ue_cp1251_name_parse("\\xD0\\xCE\\xC1\\xCE\\xD2.msh", bytes, 35, &len, "w", &d) == UE_OK);
    CHECK_EQ_U(len, 9);
    CHECK_MEM(bytes, robot_cp1251, 5);
    CHECK(ue_cp1251_name_parse("\xD0\x81\xE2\x84\x96\\x98\\x01\\\\", bytes, 35, &len, "w", &d) == UE_OK);
    const uint8_t want[] = {0xA8, 0xB9, 0x98, 0x01, '\\'};
    CHECK_EQ_U(len, sizeof want);
    CHECK_MEM(bytes, want, sizeof want);
    CHECK_EQ_U(d.count, 0);
    /* 名 (U+540D) has no CP1251 byte; the diagnostic names it and its code point. */
    CHECK(ue_cp1251_name_parse("A\xE5\x90\x8D", bytes, 35, &len, "manifest/entries[4]", &d) == UE_ERR_INVALID);
    REQUIRE(d.count == 1);
    CHECK_STR(d.items[0].path, "manifest/entries[4]");
    CHECK(strstr(d.items[0].message, "'\xE5\x90\x8D' (U+540D) has no Windows-1251 code") != NULL);
    /* Malformed UTF-8 and a \x without two hex digits are refused; quietly without a list. */
    CHECK(ue_cp1251_name_parse("A\xC3", bytes, 35, &len, "w", &d) == UE_ERR_INVALID);
    CHECK(strstr(d.items[1].message, "byte 0xC3 at offset 1") != NULL);
    CHECK(ue_cp1251_name_parse("A\\xZ1", bytes, 35, &len, "w", &d) == UE_ERR_INVALID);
    CHECK(ue_cp1251_name_parse("\xEF\xBF\xBD", bytes, 35, &len, NULL, NULL) == UE_ERR_INVALID);
    /* 13 letters do not fit RsLi's 12 bytes. */
    CHECK(ue_cp1251_name_parse("ABCDEFGHIJKLM", bytes, 12, &len, NULL, NULL) == UE_ERR_USAGE);
    ue_diag_free(&d);
}

static void manifest_name_rule(void) {
    uint8_t raw[36] = {0};
    bool renamed = true;
    ue_diag d = {0};
    /* The raw field keeps its bytes after the NUL while the text still names it. */
    memcpy(raw, robot_cp1251, 5);
    raw[30] = 0x77;
    CHECK(ue_manifest_cp1251_name(ROBOT_UTF8, true, raw, 36, 35, "w", &renamed, &d) == UE_OK);
    CHECK(!renamed);
    CHECK_EQ_U(raw[30], 0x77);
    CHECK(ue_manifest_cp1251_name("\\xD0\\xCE\\xC1\\xCE\\xD2", true, raw, 36, 35, "w", &renamed, &d) == UE_OK);
    CHECK(!renamed);
    /* An edited name replaces the field, zero-padded. */
    CHECK(ue_manifest_cp1251_name("\xD0\xA2\xD0\x9E", true, raw, 36, 35, "w", &renamed, &d) == UE_OK);
    CHECK(renamed);
    const uint8_t to[4] = {0xD2, 0xCE, 0, 0};
    CHECK_MEM(raw, to, 4);
    CHECK_EQ_U(raw[30], 0);
    CHECK_EQ_U(d.count, 0);
    /* Too long, empty without raw bytes, and missing both are errors at `where`. */
    CHECK(ue_manifest_cp1251_name("0123456789ABC", false, raw, 12, 12, "e1", &renamed, &d) == UE_ERR_INVALID);
    CHECK(ue_manifest_cp1251_name("", false, raw, 36, 35, "e2", &renamed, &d) == UE_ERR_INVALID);
    CHECK(ue_manifest_cp1251_name(NULL, false, raw, 36, 35, "e3", &renamed, &d) == UE_ERR_INVALID);
    REQUIRE(d.count == 3);
    CHECK(strstr(d.items[0].message, "longer than 12 bytes") != NULL);
    CHECK_STR(d.items[2].path, "e3");
    ue_diag_free(&d);
}

static void payload_file_names(void) {
    char out[300];
    ue_entry_file_name(6, ROBOT_UTF8 ".msh", ".bin", out, sizeof out);
    CHECK_STR(out, "0006_" ROBOT_UTF8 ".msh");
    /* ASCII punctuation outside ._-+# and space, separators and controls become '_'. */
    ue_entry_file_name(1, "a/b\\c(d)\x01!+#-. e", ".bin", out, sizeof out);
    CHECK_STR(out, "0001_a_b_c_d___+#-. e");
    /* Nothing left of the name: the index and the fallback extension. */
    ue_entry_file_name(12, "..", ".bin", out, sizeof out);
    CHECK_STR(out, "0012.bin");
    /* FSYS passes escaped names: they keep today's file names. */
    ue_entry_file_name(3, "A\\xC3B", NULL, out, sizeof out);
    CHECK_STR(out, "0003_A_xC3B");
}

int main(void) {
    RUN(cp1251_bytes_shown_in_utf8);
    RUN(text_back_to_cp1251);
    RUN(manifest_name_rule);
    RUN(payload_file_names);
    return TEST_SUMMARY();
}
