/* Tests of the arena JSON document: every syntax class parsed to the values written by hand,
 * escapes and surrogates to their UTF-8 bytes, and each refusal with its offset, line and column. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/json_doc.h"
#include "common/json_writer.h"
#include "test.h"

/* Parses NUL-terminated text; the result, with the document left for the caller to free. */
static ue_result parse(const char *text, ue_jdoc *doc, ue_jdoc_error *err) {
    return ue_jdoc_parse(text, strlen(text), doc, err);
}

/* The refusal of `text`: its offset, line, column and message start. */
static void check_refused(const char *text, size_t offset, size_t line, size_t column,
                          const char *message_start) {
    ue_jdoc doc;
    ue_jdoc_error err;
    ue_result r = parse(text, &doc, &err);
    CHECK_EQ_U(r, UE_ERR_INVALID);
    CHECK_EQ_U(err.offset, offset);
    CHECK_EQ_U(err.line, line);
    CHECK_EQ_U(err.column, column);
    bool message_ok = strncmp(err.text, message_start, strlen(message_start)) == 0;
    if (!message_ok)
        fprintf(stderr, "  for %s: message \"%s\", want \"%s...\"\n", text, err.text,
                message_start);
    CHECK(message_ok);
    CHECK(doc.root.kind == UE_JV_NULL);
    ue_jdoc_free(&doc);
}

static void scalars_and_containers(void) {
    ue_jdoc doc;
    ue_jdoc_error err;
    const char *text = " {\"n\": null, \"t\": true, \"f\": false, \"i\": -42, \"z\": -0,"
                       " \"big\": 9223372036854775807, \"small\": -9223372036854775808,"
                       " \"r\": 1.5e3, \"e\": 2E-1, \"s\": \"ab\", \"a\": [1, [], {}, [2]],"
                       " \"o\": {\"k\": \"v\"}}\n\t";
    REQUIRE(parse(text, &doc, &err) == UE_OK);
    const ue_jv *root = &doc.root;
    CHECK(ue_jv_is(root, UE_JV_OBJECT));
    CHECK_EQ_U(ue_jv_size(root), 12);
    CHECK_STR(root->u.members[0].key, "n"); /* members keep the document's order */
    CHECK_STR(root->u.members[11].key, "o");
    CHECK(ue_jv_is(ue_jv_get(root, "n"), UE_JV_NULL));
    CHECK(ue_jv_is(ue_jv_get(root, "t"), UE_JV_TRUE));
    CHECK(ue_jv_is(ue_jv_get(root, "f"), UE_JV_FALSE));
    CHECK(ue_jv_get(root, "i")->kind == UE_JV_INTEGER && ue_jv_get(root, "i")->u.integer == -42);
    CHECK(ue_jv_get(root, "z")->kind == UE_JV_INTEGER && ue_jv_get(root, "z")->u.integer == 0);
    CHECK(ue_jv_get(root, "big")->u.integer == INT64_MAX);
    CHECK(ue_jv_get(root, "small")->u.integer == INT64_MIN);
    CHECK(ue_jv_get(root, "r")->kind == UE_JV_REAL && ue_jv_get(root, "r")->u.real == 1500.0);
    CHECK(ue_jv_get(root, "e")->kind == UE_JV_REAL && ue_jv_get(root, "e")->u.real == 0.2);
    CHECK_STR(ue_jv_string(ue_jv_get(root, "s")), "ab");
    CHECK_EQ_U(ue_jv_get(root, "s")->count, 2);
    const ue_jv *a = ue_jv_get(root, "a");
    CHECK_EQ_U(ue_jv_size(a), 4);
    CHECK(ue_jv_at(a, 0)->u.integer == 1);
    CHECK(ue_jv_is(ue_jv_at(a, 1), UE_JV_ARRAY) && ue_jv_size(ue_jv_at(a, 1)) == 0);
    CHECK(ue_jv_is(ue_jv_at(a, 2), UE_JV_OBJECT) && ue_jv_size(ue_jv_at(a, 2)) == 0);
    CHECK(ue_jv_at(ue_jv_at(a, 3), 0)->u.integer == 2);
    CHECK(ue_jv_at(a, 4) == NULL);
    CHECK_STR(ue_jv_string(ue_jv_get(ue_jv_get(root, "o"), "k")), "v");
    /* Lookups on the wrong kind or NULL answer "absent", so chains need no checks. */
    CHECK(ue_jv_get(a, "k") == NULL && ue_jv_get(NULL, "k") == NULL);
    CHECK(ue_jv_string(ue_jv_get(root, "i")) == NULL && ue_jv_size(NULL) == 0);
    CHECK(ue_jv_get(root, "missing") == NULL);
    ue_jdoc_free(&doc);
    /* Any value may stand at the top. */
    REQUIRE(parse("7", &doc, &err) == UE_OK);
    CHECK(doc.root.kind == UE_JV_INTEGER && doc.root.u.integer == 7);
    ue_jdoc_free(&doc);
}

static void escapes_and_surrogates(void) {
    ue_jdoc doc;
    ue_jdoc_error err;
    /* \" \\ \/ \b \f \n \r \t, U+00E9, U+20AC, U+1F600 (a surrogate pair) and raw UTF-8 (Ж). */
    const char *text = "[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\", \"\\u00e9\\u20AC\\ud83d\\ude00\","
                       " \"\xD0\x96\"]";
    REQUIRE(parse(text, &doc, &err) == UE_OK);
    CHECK_STR(ue_jv_string(ue_jv_at(&doc.root, 0)), "\"\\/\b\f\n\r\t");
    CHECK_EQ_U(ue_jv_at(&doc.root, 0)->count, 8);
    CHECK_STR(ue_jv_string(ue_jv_at(&doc.root, 1)), "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
    CHECK_EQ_U(ue_jv_at(&doc.root, 1)->count, 9);
    CHECK_STR(ue_jv_string(ue_jv_at(&doc.root, 2)), "\xD0\x96");
    ue_jdoc_free(&doc);
}

/* The writer's escapes of one byte at every position of a longer string (the writer copies
 * plain ASCII eight bytes at a time): each special byte as JSON spells it, found by hand. */
static void written_escapes_at_every_position(void) {
    static const struct {
        const char *bytes, *spelled;
    } special[] = {{"\x01", "\\u0001"}, {"\x1f", "\\u001f"}, {"\n", "\\n"},     {"\"", "\\\""},
                   {"\\", "\\\\"},   {"\x7f", "\\u007f"}, {"\x80", "\\u0080"}, {"\xff", "\\u00ff"},
                   {" ", " "},         {"~", "~"},           {"\xC3\xA9", "\xC3\xA9"}};
    for (size_t k = 0; k < sizeof special / sizeof *special; k++)
        for (size_t at = 0; at < 18; at++) {
            char in[40] = "", want[80] = "";
            size_t len = strlen(special[k].bytes);
            memset(in, 'a', 20);
            memcpy(in + at, special[k].bytes, len);
            in[20] = 0;
            snprintf(want, sizeof want, "{\"%.*s%s%s\":\"%.*s%s%s\"}", (int)at, in, special[k].spelled, in + at + len,
                     (int)at, in, special[k].spelled, in + at + len);
            ue_buf out = {0};
            ue_json w;
            ue_json_init(&w, &out, 0);
            ue_json_object_begin(&w);
            ue_json_key(&w, in);
            ue_json_string(&w, in);
            ue_json_object_end(&w);
            REQUIRE(ue_json_finish(&w, NULL) == UE_OK);
            CHECK(out.size == strlen(want) && memcmp(out.data, want, out.size) == 0);
            ue_buf_free(&out);
        }
}

/* One item of the arrays below: an object with a nested array of scalars and a string. */
static void write_item(ue_json *w, int i) {
    ue_json_object_begin(w);
    ue_json_key(w, "i");
    ue_json_int(w, i);
    ue_json_key(w, "v");
    ue_json_array_begin(w);
    for (int k = 0; k < i % 3; k++) ue_json_int(w, k);
    ue_json_array_end(w);
    ue_json_key_string(w, "s", "x\"y");
    ue_json_object_end(w);
}

/* An array written in parts apart (ue_json_init_items) and appended is the array written in
 * line, byte for byte, in every layout: compact, indented, one item a line. */
static void items_written_apart_are_the_same_text(void) {
    for (int layout = 0; layout < 3; layout++)
        for (int cut = 0; cut <= 7; cut++) {
            ue_buf whole = {0}, apart = {0}, first = {0}, second = {0};
            ue_json a, b, p1, p2;
            if (layout == 2) ue_json_init_lines(&a, &whole), ue_json_init_lines(&b, &apart);
            else ue_json_init(&a, &whole, layout * 2), ue_json_init(&b, &apart, layout * 2);
            ue_json_object_begin(&a);
            ue_json_key(&a, "list");
            ue_json_array_begin(&a);
            for (int i = 0; i < 7; i++) write_item(&a, i);
            ue_json_array_end(&a);
            ue_json_object_end(&a);
            ue_json_object_begin(&b);
            ue_json_init_items(&p1, &first, &b, false);
            ue_json_init_items(&p2, &second, &b, cut > 0);
            for (int i = 0; i < 7; i++) write_item(i < cut ? &p1 : &p2, i);
            ue_json_key(&b, "list");
            ue_json_array_begin(&b);
            ue_json_append_items(&b, &p1);
            ue_json_append_items(&b, &p2);
            ue_json_array_end(&b);
            ue_json_object_end(&b);
            REQUIRE(ue_json_finish(&a, NULL) == UE_OK && ue_json_finish(&b, NULL) == UE_OK);
            CHECK(whole.size == apart.size && memcmp(whole.data, apart.data, whole.size) == 0);
            ue_buf_free(&whole), ue_buf_free(&apart), ue_buf_free(&first), ue_buf_free(&second);
        }
    /* appended where no array is open: refused */
    ue_buf out = {0}, part = {0};
    ue_json w, p;
    ue_json_init(&w, &out, 0);
    ue_json_object_begin(&w);
    ue_json_init_items(&p, &part, &w, false);
    write_item(&p, 1);
    ue_json_append_items(&w, &p);
    CHECK(ue_json_finish(&w, NULL) == UE_ERR_USAGE);
    ue_buf_free(&out), ue_buf_free(&part);
}

static void syntax_errors_name_their_place(void) {
    check_refused("", 0, 1, 1, "unexpected end of input");
    check_refused("{\"a\": 1,}", 8, 1, 9, "string or '}' expected");
    check_refused("[1 2]", 3, 1, 4, "',' or ']' expected");
    check_refused("{\"a\" 1}", 5, 1, 6, "':' expected");
    check_refused("{\n  \"a\": tru\n}", 9, 2, 8, "invalid token");
    check_refused("[01]", 1, 1, 2, "invalid number");
    check_refused("[1.]", 2, 1, 3, "invalid number: no digit after '.'");
    check_refused("[1e+]", 2, 1, 3, "invalid number: no digit in the exponent");
    check_refused("[-]", 1, 1, 2, "invalid number");
    check_refused("[9223372036854775808]", 1, 1, 2, "integer too big for 64 bits");
    check_refused("[1e999]", 1, 1, 2, "real number overflow");
    check_refused("{} x", 3, 1, 4, "end of input expected");
    check_refused("[NaN]", 1, 1, 2, "invalid token");
}

static void bad_strings(void) {
    check_refused("[\"abc", 1, 1, 2, "unterminated string");
    check_refused("[\"a\\", 1, 1, 2, "unterminated string");
    check_refused("[\"a\\q\"]", 3, 1, 4, "invalid escape '\\q'");
    check_refused("[\"\\u12G4\"]", 2, 1, 3, "invalid \\u escape: four hex digits");
    check_refused("[\"\\ud83d\"]", 2, 1, 3, "invalid \\u escape: high surrogate without");
    check_refused("[\"\\ud83d\\u0041\"]", 2, 1, 3, "invalid \\u escape: high surrogate");
    check_refused("[\"\\ude00\"]", 2, 1, 3, "invalid \\u escape: low surrogate without");
    check_refused("[\"\\u0000\"]", 2, 1, 3, "\\u0000 is not allowed");
    check_refused("[\"a\tb\"]", 3, 1, 4, "control character 0x09");
    check_refused("[\"\xC3\x28\"]", 2, 1, 3, "string is not valid UTF-8");
    check_refused("[\"\xED\xA0\x80\"]", 2, 1, 3, "string is not valid UTF-8"); /* surrogate */
    check_refused("[\"\xC0\xAF\"]", 2, 1, 3, "string is not valid UTF-8");     /* overlong */
}

static void duplicate_keys_are_refused(void) {
    check_refused("{\"a\": 1, \"b\": 2, \"a\": 3}", 17, 1, 18, "duplicate key \"a\"");
    /* A large object is checked by sorting: the later of the two is named. */
    char text[1024];
    size_t o = 0;
    text[o++] = '{';
    for (int i = 0; i < 40; i++)
        o += (size_t)snprintf(text + o, sizeof text - o, "%s\"k%02d\":%d", i ? "," : "",
                              i == 33 ? 7 : i, i);
    snprintf(text + o, sizeof text - o, "}");
    size_t at33 = (size_t)(strstr(text, "\"k07\":33") - text);
    check_refused(text, at33, 1, at33 + 1, "duplicate key \"k07\"");
}

/* A message quoting hostile input is printable: control bytes of a key are shown as \xNN (no
 * terminal escape reaches the user), a bad escape byte too, and a character the message's
 * 120 bytes cut in half is not left as a lone lead byte. */
static void messages_are_printable(void) {
    check_refused("{\"\\u001b[2J\": 1, \"\\u001b[2J\": 2}", 17, 1, 18,
                  "duplicate key \"\\x1B[2J\"");
    check_refused("[\"\\\xC3\xA9\"]", 2, 1, 3, "invalid escape '\\\\xC3'");
    char text[400];
    size_t o = (size_t)snprintf(text, sizeof text, "{\"");
    for (int i = 0; i < 101; i++) text[o++] = 'a';
    for (int i = 0; i < 20; i++) text[o++] = '\xC3', text[o++] = '\xA9';
    text[o] = 0;
    char key[300];
    snprintf(key, sizeof key, "%s", text + 1);
    snprintf(text + o, sizeof text - o, "\":1,%s\":2}", key);
    ue_jdoc doc;
    ue_jdoc_error err;
    CHECK_EQ_U(parse(text, &doc, &err), UE_ERR_INVALID);
    CHECK(strncmp(err.text, "duplicate key \"aaaa", 19) == 0);
    size_t n = strlen(err.text);
    CHECK(n > 100 && n < 120);
    /* It ends on a whole character: the last lead byte is followed by its continuation. */
    size_t last = n;
    while (last > 0 && ((unsigned char)err.text[last - 1] & 0xC0) == 0x80) last--;
    CHECK(last == n || (n - last == 1 && (unsigned char)err.text[last - 1] == 0xC3));
    for (size_t i = 0; i < n; i++) CHECK((unsigned char)err.text[i] >= 0x20);
    ue_jdoc_free(&doc);
}

static void depth_is_limited(void) {
    size_t n = UE_JDOC_MAX_DEPTH;
    char *text = malloc(2 * n + 3);
    REQUIRE(text);
    memset(text, '[', n);
    memset(text + n, ']', n);
    text[2 * n] = 0;
    ue_jdoc doc;
    ue_jdoc_error err;
    CHECK_EQ_U(parse(text, &doc, &err), UE_OK); /* exactly the limit */
    ue_jdoc_free(&doc);
    memset(text, '[', n + 1);
    memset(text + n + 1, ']', n + 1);
    text[2 * n + 2] = 0;
    CHECK_EQ_U(parse(text, &doc, &err), UE_ERR_INVALID);
    CHECK_EQ_U(err.offset, n);
    CHECK(strstr(err.text, "nesting deeper than") != NULL);
    ue_jdoc_free(&doc);
    free(text);
}

/* Every cut of a valid document is refused (none reads past the end), and the whole parses. */
static void truncated_input_is_refused(void) {
    const char *text = "{\"a\": [1, -2.5e1, \"x\\u00e9\\ud83d\\ude00\"], \"b\": {\"c\": null}}";
    size_t size = strlen(text);
    for (size_t cut = 0; cut < size; cut++) {
        char *copy = malloc(cut ? cut : 1); /* exactly cut bytes: ASan sees any overread */
        REQUIRE(copy);
        memcpy(copy, text, cut);
        ue_jdoc doc;
        ue_jdoc_error err;
        CHECK_EQ_U(ue_jdoc_parse(copy, cut, &doc, &err), UE_ERR_INVALID);
        CHECK(err.offset <= cut);
        ue_jdoc_free(&doc);
        free(copy);
    }
    ue_jdoc doc;
    CHECK_EQ_U(ue_jdoc_parse(text, size, &doc, NULL), UE_OK);
    ue_jdoc_free(&doc);
}

/* A large array parses into blocks that grow with the text (many values, one arena). */
static void many_values(void) {
    size_t n = 100000;
    char *text = malloc(n * 8 + 2);
    REQUIRE(text);
    size_t o = 0;
    text[o++] = '[';
    for (size_t i = 0; i < n; i++) o += (size_t)sprintf(text + o, "%s%zu", i ? "," : "", i);
    text[o++] = ']';
    ue_jdoc doc;
    ue_jdoc_error err;
    REQUIRE(ue_jdoc_parse(text, o, &doc, &err) == UE_OK);
    CHECK_EQ_U(ue_jv_size(&doc.root), n);
    CHECK_EQ_U((uint64_t)ue_jv_at(&doc.root, n - 1)->u.integer, n - 1);
    CHECK_EQ_U((uint64_t)ue_jv_at(&doc.root, 12345)->u.integer, 12345);
    ue_jdoc_free(&doc);
    free(text);
}

/* Objects of 16 keys or more are searched through their sorted index: every key of a large
 * object (written in reverse order, so document order and key order differ) finds its own value,
 * keys that sort before, between and after them find nothing, and members keep document order. */
static void large_objects_are_searched(void) {
    static const size_t sizes[] = {15, 16, 17, 600}; /* below, at and above the index threshold */
    static char text[16384];
    for (size_t t = 0; t < sizeof sizes / sizeof *sizes; t++) {
        size_t count = sizes[t], o = 0;
        text[o++] = '{';
        for (size_t i = 0; i < count; i++) {
            size_t key = count - 1 - i;
            o += (size_t)snprintf(text + o, sizeof text - o, "%s\"k%04zu\":%zu", i ? "," : "", 2 * key + 1, key);
        }
        snprintf(text + o, sizeof text - o, "}");
        ue_jdoc doc;
        ue_jdoc_error err;
        REQUIRE(parse(text, &doc, &err) == UE_OK);
        CHECK_EQ_U(ue_jv_size(&doc.root), count);
        CHECK_EQ_U(ue_jv_items(&doc.root), 0); /* an object has no items */
        bool all_found = true, none_extra = true;
        for (size_t k = 0; k < count; k++) {
            char key[8], gap[8];
            snprintf(key, sizeof key, "k%04zu", 2 * k + 1);
            snprintf(gap, sizeof gap, "k%04zu", 2 * k);
            all_found = all_found && ue_jv_integer(ue_jv_get(&doc.root, key)) == (int64_t)k;
            none_extra = none_extra && ue_jv_get(&doc.root, gap) == NULL;
        }
        CHECK(all_found);
        CHECK(none_extra);
        CHECK(ue_jv_get(&doc.root, "zzz") == NULL && ue_jv_get(&doc.root, "") == NULL);
        size_t seen = 0;
        bool in_document_order = true;
        UE_JV_FOR_MEMBERS(&doc.root, m) {
            in_document_order = in_document_order && ue_jv_integer(&m->value) == (int64_t)(count - 1 - seen);
            seen++;
        }
        CHECK(in_document_order && seen == count);
        ue_jdoc_free(&doc);
    }
}

/* The number getters: an integer and a real both read as numbers, anything else as 0. */
static void number_getters(void) {
    ue_jdoc doc;
    REQUIRE(parse("[7, 2.5, \"7\", true, null]", &doc, NULL) == UE_OK);
    const ue_jv *a = &doc.root;
    CHECK(ue_jv_is_number(ue_jv_at(a, 0)) && ue_jv_number(ue_jv_at(a, 0)) == 7.0);
    CHECK(ue_jv_is_number(ue_jv_at(a, 1)) && ue_jv_number(ue_jv_at(a, 1)) == 2.5);
    CHECK(ue_jv_integer(ue_jv_at(a, 0)) == 7 && ue_jv_integer(ue_jv_at(a, 1)) == 0);
    CHECK(!ue_jv_is_number(ue_jv_at(a, 2)) && ue_jv_number(ue_jv_at(a, 2)) == 0);
    CHECK(ue_jv_is_bool(ue_jv_at(a, 3)) && !ue_jv_is_bool(ue_jv_at(a, 4)));
    CHECK_EQ_U(ue_jv_items(a), 5);
    ue_jdoc_free(&doc);
}

/* ue_json_real spells reals as jansson 2.14 did (checked against its json_dumps of the same
 * doubles): %.17g, ".0" after integral values, exponents without '+' or leading zeros. */
static void reals_are_spelled_as_jansson_did(void) {
    const double v[] = {1.0, 0.1, 1e20, 1e-5, -0.0, (double)0.1f, 1e300, 123456789.0, -2.5e-300};
    ue_buf out = {0};
    ue_json j;
    ue_json_init(&j, &out, 0);
    ue_json_array_begin(&j);
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) ue_json_real(&j, v[i]);
    ue_json_array_end(&j);
    REQUIRE(ue_json_finish(&j, NULL) == UE_OK);
    const char *want = "[1.0,0.10000000000000001,1e20,1.0000000000000001e-5,-0.0,0.10000000149011612,"
                       "1.0000000000000001e300,123456789.0,-2.5e-300]";
    CHECK_STR((ue_buf_put(&out, "", 1), (const char *)out.data), want);
    ue_buf_free(&out);
}

/* A parsed document written again gives its text back: order, integers, reals, escapes; and a
 * NaN key is left out, as jansson left it out. */
static void values_are_written_back(void) {
    const char *text = "{\"a\":[1,-2,{}],\"r\":0.5,\"x\":[],\"s\":\"q\\\"\\n\",\"t\":true,\"f\":false,\"n\":null}";
    ue_jdoc doc;
    ue_jdoc_error err;
    REQUIRE(parse(text, &doc, &err) == UE_OK);
    ue_buf out = {0};
    ue_json j;
    ue_json_init(&j, &out, 0);
    ue_json_value(&j, &doc.root);
    REQUIRE(ue_json_finish(&j, NULL) == UE_OK);
    ue_buf_put(&out, "", 1);
    CHECK_STR((const char *)out.data, "{\"a\":[1,-2,{}],\"r\":0.5,\"x\":[],\"s\":\"q\\\"\\n\",\"t\":true,\"f\":false,\"n\":null}");
    ue_jdoc_free(&doc);
    ue_buf_free(&out);
    ue_buf o2 = {0};
    ue_json_init(&j, &o2, 0);
    ue_json_object_begin(&j);
    ue_json_key_real(&j, "nan", NAN);
    ue_json_key_real(&j, "one", 1);
    ue_json_object_end(&j);
    REQUIRE(ue_json_finish(&j, NULL) == UE_OK);
    ue_buf_put(&o2, "", 1);
    CHECK_STR((const char *)o2.data, "{\"one\":1.0}");
    ue_buf_free(&o2);
}

/* ue_json_skip_keys: the next object drops the members named, nested values and all, at its
 * own level only; the others keep their order and commas; NULL writes everything again. */
static void skipped_members(void) {
    static const char *const drop[] = {"index", "name", NULL};
    ue_buf out = {0};
    ue_json w;
    ue_json_init(&w, &out, 0);
    ue_json_object_begin(&w);
    ue_json_key(&w, "extra");
    ue_json_skip_keys(&w, drop);
    ue_json_object_begin(&w);
    ue_json_key_int(&w, "index", 3);
    ue_json_key(&w, "name");
    ue_json_object_begin(&w);
    ue_json_key(&w, "deep");
    ue_json_array_begin(&w);
    ue_json_int(&w, 1);
    ue_json_array_end(&w);
    ue_json_object_end(&w);
    ue_json_key(&w, "kept");
    ue_json_object_begin(&w);
    ue_json_key_int(&w, "index", 7); /* a level below: kept */
    ue_json_object_end(&w);
    ue_json_key_string(&w, "type", "x");
    ue_json_object_end(&w);
    ue_json_skip_keys(&w, NULL);
    ue_json_key_int(&w, "index", 1);
    ue_json_object_end(&w);
    CHECK_EQ_U(ue_json_finish(&w, NULL), UE_OK);
    ue_buf_put_u8(&out, 0);
    CHECK_STR((const char *)out.data, "{\"extra\":{\"kept\":{\"index\":7},\"type\":\"x\"},\"index\":1}");
    ue_buf_free(&out);
}

/* Every kind of call, nested, with strings that need escapes (a NUL, a byte that is not UTF-8,
 * a control character, DEL) and members ue_json_skip_keys drops. */
static void write_every_call(ue_json *w) {
    static const char *const drop[] = {"dropped", NULL};
    ue_json_object_begin(w);
    ue_json_key_string(w, "name", "crate \"A\"");
    ue_json_key(w, "bytes");
    ue_json_string_n(w, "a\0b\xff\x01\x7f", 6);
    ue_json_key_int(w, "min", INT64_MIN);
    ue_json_key(w, "max");
    ue_json_uint(w, UINT64_MAX);
    ue_json_key(w, "numbers");
    ue_json_array_begin(w);
    ue_json_float(w, 0.1f);
    ue_json_real(w, 1e20);
    ue_json_real(w, -0.0);
    ue_json_bool(w, false);
    ue_json_null(w);
    ue_json_array_begin(w);
    ue_json_array_end(w);
    ue_json_array_end(w);
    ue_json_key(w, "records");
    ue_json_skip_keys(w, drop);
    ue_json_object_begin(w);
    ue_json_key_int(w, "dropped", 1);
    ue_json_key_bool(w, "kept", true);
    ue_json_object_end(w);
    ue_json_skip_keys(w, NULL);
    ue_json_object_end(w);
}

static char *written_text(const ue_buf *calls, bool lines) {
    ue_buf out = {0};
    ue_json w;
    if (lines) ue_json_init_lines(&w, &out);
    else ue_json_init(&w, &out, 2);
    if (calls) ue_json_replay(calls, &w);
    else write_every_call(&w);
    CHECK_EQ_U(ue_json_finish(&w, NULL), UE_OK);
    ue_buf_put_u8(&out, 0);
    return (char *)out.data;
}

/* Calls recorded and replayed give the text the same calls give made directly, in both layouts. */
static void recorded_calls_replay_the_same_text(void) {
    ue_buf calls = {0};
    ue_json rec;
    ue_json_init_record(&rec, &calls);
    write_every_call(&rec);
    CHECK_EQ_U(ue_json_finish(&rec, NULL), UE_OK);
    for (int lines = 0; lines < 2; lines++) {
        char *direct = written_text(NULL, lines), *replayed = written_text(&calls, lines);
        CHECK_STR(replayed, direct);
        free(direct);
        free(replayed);
    }
    char *compact = written_text(&calls, true);
    CHECK(strstr(compact, "\"bytes\": \"a\\u0000b\\u00FF\\u0001\x7f\"") != NULL);
    CHECK(strstr(compact, "\"max\": 18446744073709551615") != NULL);
    CHECK(strstr(compact, "\"records\": {\n    \"kept\": true\n  }") != NULL);
    free(compact);
    ue_buf_free(&calls);
}

/* A recorded object's members go into an object the caller has open, after its own. */
static void recorded_members_join_an_object(void) {
    ue_buf calls = {0}, out = {0};
    ue_json rec, w;
    ue_json_init_record(&rec, &calls);
    ue_json_object_begin(&rec);
    ue_json_key_int(&rec, "nodes", 6);
    ue_json_key(&rec, "table");
    ue_json_array_begin(&rec);
    ue_json_object_begin(&rec);
    ue_json_key_int(&rec, "x", 1);
    ue_json_object_end(&rec);
    ue_json_array_end(&rec);
    ue_json_object_end(&rec);
    CHECK_EQ_U(ue_json_finish(&rec, NULL), UE_OK);
    ue_json_init(&w, &out, 0);
    ue_json_object_begin(&w);
    ue_json_key_string(&w, "model", "robot");
    ue_json_replay_members(&calls, &w);
    ue_json_replay_members(&(ue_buf){0}, &w); /* nothing recorded: nothing added */
    ue_json_key_int(&w, "errors", 0);
    ue_json_object_end(&w);
    CHECK_EQ_U(ue_json_finish(&w, NULL), UE_OK);
    ue_buf_put_u8(&out, 0);
    CHECK_STR((const char *)out.data, "{\"model\":\"robot\",\"nodes\":6,\"table\":[{\"x\":1}],\"errors\":0}");
    ue_buf_free(&out);
    ue_buf_free(&calls);
}

/* A sink gets the calls a text writer would write, checked the same way: a misuse is refused
 * and nothing after it reaches the sink. */
static void tally_event(void *ctx, const ue_json_event *e) {
    static const char marks[] = "{}[]ks#u.rb0";
    ue_buf_put_u8(ctx, (uint8_t)marks[e->kind]);
}

static void sinks_get_the_calls(void) {
    ue_buf seen = {0};
    ue_json w;
    ue_json_init_sink(&w, tally_event, &seen);
    write_every_call(&w);
    CHECK_EQ_U(ue_json_finish(&w, NULL), UE_OK);
    ue_buf_put_u8(&seen, 0);
    CHECK_STR((const char *)seen.data, "{ksksk#kuk[.rrb0[]]k{kb}}");
    seen.size = 0;
    ue_json_init_sink(&w, tally_event, &seen);
    ue_json_object_begin(&w);
    ue_json_int(&w, 1); /* no key */
    ue_json_key_int(&w, "late", 2);
    CHECK_EQ_U(ue_json_finish(&w, NULL), UE_ERR_USAGE);
    ue_buf_put_u8(&seen, 0);
    CHECK_STR((const char *)seen.data, "{");
    ue_buf_free(&seen);
}

/* A recording cut anywhere replays what it holds up to the cut and no further. */
static void cut_recordings_stop_at_the_cut(void) {
    ue_buf calls = {0};
    ue_json rec;
    ue_json_init_record(&rec, &calls);
    write_every_call(&rec);
    CHECK_EQ_U(ue_json_finish(&rec, NULL), UE_OK);
    size_t complete = 0;
    for (size_t n = 0; n <= calls.size; n++) {
        /* each prefix in a block of its own size, so that a read past it is caught under ASan */
        uint8_t *prefix = malloc(n ? n : 1);
        CHECK(prefix != NULL);
        if (!prefix) break;
        if (n) memcpy(prefix, calls.data, n);
        ue_buf cut = {prefix, n, n, 0, false}, out = {0};
        ue_json w;
        ue_json_init(&w, &out, 0);
        ue_json_replay(&cut, &w);
        complete += ue_json_finish(&w, NULL) == UE_OK;
        ue_buf_free(&out);
        free(prefix);
    }
    CHECK_EQ_U(complete, 1); /* the whole recording alone */
    ue_buf_free(&calls);
}

/* A key whose terminating NUL is missing, or which holds a NUL, is where replay stops: the
 * key's text is read up to its NUL, past the recording or short of its size. */
static void damaged_keys_stop_the_replay(void) {
    for (int damage = 0; damage < 2; damage++) {
        ue_buf calls = {0}, seen = {0};
        ue_json rec, w;
        ue_json_init_record(&rec, &calls);
        ue_json_object_begin(&rec);
        ue_json_key(&rec, "abc"); /* cut here: the key's record ends the recording */
        size_t size = calls.size;
        uint8_t *copy = malloc(size);
        CHECK(copy != NULL);
        if (!copy) return;
        memcpy(copy, calls.data, size);
        if (damage == 0) copy[size - 1] = 'x'; /* its NUL */
        else copy[size - 3] = 0;               /* "a\0c" */
        ue_buf cut = {copy, size, size, 0, false};
        ue_json_init_sink(&w, tally_event, &seen);
        ue_json_replay(&cut, &w);
        ue_buf_put_u8(&seen, 0);
        CHECK_STR((const char *)seen.data, "{");
        free(copy);
        ue_buf_free(&seen);
        ue_buf_free(&calls);
    }
}

int main(void) {
    RUN(reals_are_spelled_as_jansson_did);
    RUN(skipped_members);
    RUN(recorded_calls_replay_the_same_text);
    RUN(recorded_members_join_an_object);
    RUN(sinks_get_the_calls);
    RUN(cut_recordings_stop_at_the_cut);
    RUN(damaged_keys_stop_the_replay);
    RUN(values_are_written_back);
    RUN(written_escapes_at_every_position);
    RUN(items_written_apart_are_the_same_text);
    RUN(scalars_and_containers);
    RUN(escapes_and_surrogates);
    RUN(syntax_errors_name_their_place);
    RUN(bad_strings);
    RUN(duplicate_keys_are_refused);
    RUN(messages_are_printable);
    RUN(depth_is_limited);
    RUN(truncated_input_is_refused);
    RUN(many_values);
    RUN(large_objects_are_searched);
    RUN(number_getters);
    return TEST_SUMMARY();
}
