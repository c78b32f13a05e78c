/* unearth — the manifest writer: jansson's indented, order-preserving layout (two spaces a
 * level, "key": value, empty containers as {} and []) produced straight into a buffer. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "archive/manifest_writer.h"
#include "common/text.h"

void ue_mw_init(ue_mw *w, ue_buf *out) {
    memset(w, 0, sizeof *w);
    w->out = out;
}

static void put(ue_mw *w, const char *s, size_t n) { ue_buf_put(w->out, s, n); }

/* A line break and two spaces a level: depth never exceeds UE_MW_MAX_DEPTH (open_container
 * refuses to go deeper), so one literal covers every line. */
static void newline_indent(ue_mw *w, int depth) {
    static const char spaces[] = "\n" "                                                                ";
    _Static_assert(sizeof spaces == 2 + 2 * UE_MW_MAX_DEPTH, "one space pair per level");
    put(w, spaces, 1 + 2 * (size_t)depth);
}

/* What precedes any value: nothing after a key; inside an array, the comma and line break. */
static void before_value(ue_mw *w) {
    if (w->after_key) {
        w->after_key = false;
        return;
    }
    if (w->depth == 0) return;
    if (!w->empty[w->depth - 1]) put(w, ",", 1);
    w->empty[w->depth - 1] = false;
    newline_indent(w, w->depth);
}

static void open_container(ue_mw *w, char c) {
    before_value(w);
    put(w, &c, 1);
    if (w->depth >= UE_MW_MAX_DEPTH) {
        w->out->failed = true;
        return;
    }
    w->empty[w->depth++] = true;
}

static void close_container(ue_mw *w, char c) {
    if (w->depth == 0) {
        w->out->failed = true;
        return;
    }
    w->depth--;
    if (!w->empty[w->depth]) newline_indent(w, w->depth);
    put(w, &c, 1);
}

void ue_mw_object_begin(ue_mw *w) { open_container(w, '{'); }
void ue_mw_object_end(ue_mw *w) { close_container(w, '}'); }
void ue_mw_array_begin(ue_mw *w) { open_container(w, '['); }
void ue_mw_array_end(ue_mw *w) { close_container(w, ']'); }

static void quoted(ue_mw *w, const char *s) {
    put(w, "\"", 1);
    const char *run = s;
    for (const char *p = s;; p++) {
        unsigned char c = (unsigned char)*p;
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        put(w, run, (size_t)(p - run));
        if (!c) break;
        char seq[8] = {'\\', 0};
        switch (c) {
        case '"': seq[1] = '"'; break;
        case '\\': seq[1] = '\\'; break;
        case '\b': seq[1] = 'b'; break;
        case '\f': seq[1] = 'f'; break;
        case '\n': seq[1] = 'n'; break;
        case '\r': seq[1] = 'r'; break;
        case '\t': seq[1] = 't'; break;
        default: snprintf(seq, sizeof seq, "\\u%04X", c); /* jansson's upper-case form */
        }
        put(w, seq, seq[1] == 'u' ? 6 : 2);
        run = p + 1;
    }
    put(w, "\"", 1);
}

void ue_mw_key(ue_mw *w, const char *key) {
    before_value(w);
    quoted(w, key);
    put(w, ": ", 2);
    w->after_key = true;
}

void ue_mw_string(ue_mw *w, const char *s) {
    before_value(w);
    quoted(w, s);
}

void ue_mw_int(ue_mw *w, int64_t v) {
    before_value(w);
    char text[24];
    int n = snprintf(text, sizeof text, "%" PRId64, v);
    put(w, text, (size_t)n);
}

void ue_mw_bool(ue_mw *w, bool v) {
    before_value(w);
    put(w, v ? "true" : "false", v ? 4 : 5);
}

/* jansson refused text that is not UTF-8 (json_string gave NULL) and the member went missing;
 * the same happens here, so such a path still gives the bytes it gave. */
static bool is_utf8(const char *s) {
    for (size_t n = strlen(s), i = 0; i < n;) {
        uint32_t cp;
        size_t len = (unsigned char)s[i] < 0x80 ? 1 : ue_utf8_decode(s + i, n - i, &cp);
        if (!len) return false;
        i += len;
    }
    return true;
}

void ue_mw_key_string(ue_mw *w, const char *key, const char *s) {
    if (!is_utf8(s)) return;
    ue_mw_key(w, key);
    ue_mw_string(w, s);
}

void ue_mw_key_int(ue_mw *w, const char *key, int64_t v) {
    ue_mw_key(w, key);
    ue_mw_int(w, v);
}

bool ue_mw_failed(const ue_mw *w) { return w->out->failed; }
