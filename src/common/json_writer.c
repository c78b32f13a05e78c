/* unearth — the streaming JSON writer of glTF, manifests and reports: output is a pure function
 * of the calls made, with locale-independent numbers and strict UTF-8 strings; or the calls
 * themselves, checked the same way, handed to a sink or recorded to be made again. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/bytes.h"
#include "common/json_doc.h"
#include "common/json_writer.h"
#include "common/text.h"

void ue_json_init(ue_json *j, ue_buf *out, int indent) {
    memset(j, 0, sizeof *j);
    j->out = out;
    j->indent = indent < 0 ? 0 : (indent > 8 ? 8 : indent);
}

void ue_json_init_lines(ue_json *j, ue_buf *out) {
    ue_json_init(j, out, 2);
    j->lines = true;
}

void ue_json_init_sink(ue_json *j, ue_json_sink sink, void *ctx) {
    memset(j, 0, sizeof *j);
    j->sink = sink;
    j->sink_ctx = ctx;
}

/* Hands one call to the sink of a writer set up by ue_json_init_sink. */
static void emit(ue_json *j, ue_json_event e) { j->sink(j->sink_ctx, &e); }

static void fail(ue_json *j, const char *why) {
    if (!j->error) j->error = why;
}

static void put_byte(ue_buf *b, char c) { ue_buf_put_fast(b, &c, 1); }

/* A line break and the indentation of the current depth, a run of spaces at a time (a 20,000-
 * entry manifest has a quarter of a million lines). */
static void newline(ue_json *j) {
    static const char spaces[] = "                                                                ";
    if (!j->indent) return;
    put_byte(j->out, '\n');
    for (size_t left = (size_t)(j->depth * j->indent); left;) {
        size_t n = left < sizeof spaces - 1 ? left : sizeof spaces - 1;
        ue_buf_put_fast(j->out, spaces, n);
        left -= n;
    }
}

/* Everything that precedes a value: the comma and, in pretty mode, the line break. Scalars
 * inside arrays stay on one line so vectors and matrices remain readable (not in `lines`). */
static bool before_value(ue_json *j, bool container) {
    if (j->error) return false;
    if (j->skipping) { /* a dropped member's value: a scalar ends it, a container is counted */
        if (container) j->skip_nest++;
        else if (!j->skip_nest) j->skipping = false;
        return false;
    }
    if (j->done) {
        fail(j, "a second top-level value");
        return false;
    }
    if (j->depth > 0 && j->in_object[j->depth - 1]) {
        if (!j->key_pending) {
            fail(j, "object member without a key");
            return false;
        }
        j->key_pending = false;
        return true; /* the key already wrote comma and indentation */
    }
    if (j->depth > 0) {
        if (j->has_items[j->depth - 1] && !j->sink) {
            bool spaced = j->indent && !container && !j->lines;
            ue_buf_put_fast(j->out, spaced ? ", " : ",", spaced ? 2 : 1);
        }
        if (container || j->lines) {
            newline(j);
            j->multiline[j->depth - 1] = true;
        }
        j->has_items[j->depth - 1] = true;
    }
    return true;
}

static void after_value(ue_json *j) {
    if (j->depth == 0) j->done = true;
}

static void open_container(ue_json *j, bool object, char c) {
    if (!before_value(j, true)) return;
    if (j->depth >= UE_JSON_MAX_DEPTH) {
        fail(j, "nesting deeper than UE_JSON_MAX_DEPTH");
        return;
    }
    if (j->sink) emit(j, (ue_json_event){.kind = object ? UE_JSON_OBJECT_BEGIN : UE_JSON_ARRAY_BEGIN});
    else put_byte(j->out, c);
    j->in_object[j->depth] = object;
    j->has_items[j->depth] = false;
    j->multiline[j->depth] = false;
    j->depth++;
}

static void close_container(ue_json *j, bool object, char c) {
    if (j->error) return;
    if (j->skipping) {
        j->skipping = --j->skip_nest > 0;
        return;
    }
    if (j->depth == 0 || j->in_object[j->depth - 1] != object || j->key_pending) {
        fail(j, "unbalanced close");
        return;
    }
    bool had = j->has_items[j->depth - 1];
    j->depth--;
    /* Objects always break before '}'; arrays only when their items were on lines of their own. */
    if (had && j->indent && (object || j->multiline[j->depth])) newline(j);
    if (j->sink) emit(j, (ue_json_event){.kind = object ? UE_JSON_OBJECT_END : UE_JSON_ARRAY_END});
    else put_byte(j->out, c);
    after_value(j);
}

void ue_json_object_begin(ue_json *j) { open_container(j, true, '{'); }
void ue_json_object_end(ue_json *j) { close_container(j, true, '}'); }
void ue_json_array_begin(ue_json *j) { open_container(j, false, '['); }
void ue_json_array_end(ue_json *j) { close_container(j, false, ']'); }

/* Printable ASCII other than '"' and '\\': copied as it is. */
static bool plain_byte(uint8_t c) { return c >= 0x20 && c < 0x7F && c != '"' && c != '\\'; }

/* Eight bytes all plain_byte: none below 0x20 or from 0x7F up, none '"' or '\\' (the classic
 * has-zero-byte test on w, on w ^ '"' and on w ^ '\\'; the high bits catch bytes past 0x7F). */
static bool plain_word(uint64_t w) {
    const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    uint64_t below_space = (w - ones * 0x20) & ~w;      /* a byte < 0x20 (or ≥ 0x80) sets its high bit */
    uint64_t del_up = (w + ones * 0x01) | w;             /* a byte ≥ 0x7F sets its high bit */
    uint64_t q = w ^ (ones * '"'), bs = w ^ (ones * '\\');
    uint64_t quote = (q - ones) & ~q, backslash = (bs - ones) & ~bs;
    return ((below_space | del_up | quote | backslash) & highs) == 0;
}

/* The usual string (a key, a name: printable ASCII) quoted straight into the buffer while it is
 * checked, when the buffer has room; false, nothing written, when it needs escapes or room. */
static bool put_plain_quoted(ue_buf *b, const uint8_t *p, size_t n) {
    if (!b->data || b->failed || n + 2 > b->capacity - b->size || (b->limit && n + 2 > b->limit - b->size))
        return false;
    uint8_t *dst = b->data + b->size + 1;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) { /* eight bytes at a time while none needs a look */
        uint64_t w;
        memcpy(&w, p + i, 8);
        if (!plain_word(w)) break;
        memcpy(dst + i, &w, 8);
    }
    for (; i < n; i++) {
        if (!plain_byte(p[i])) return false;
        dst[i] = p[i];
    }
    dst[-1] = '"', dst[n] = '"';
    b->size += n + 2;
    return true;
}

static void put_escaped(ue_buf *b, const char *s, size_t n, bool lines) {
    const char *hex = lines ? "0123456789ABCDEF" : "0123456789abcdef";
    const uint8_t *p = (const uint8_t *)s;
    if (put_plain_quoted(b, p, n)) return;
    put_byte(b, '"');
    size_t i = 0;
    while (i < n) {
        size_t plain = i; /* printable ASCII needs no escape: copied as one run */
        while (plain < n && plain_byte(p[plain])) plain++;
        if (plain > i) {
            ue_buf_put_fast(b, p + i, plain - i);
            i = plain;
            continue;
        }
        uint8_t c = p[i];
        const char *esc = NULL;
        switch (c) {
        case '"': esc = "\\\""; break;
        case '\\': esc = "\\\\"; break;
        case '\b': esc = "\\b"; break;
        case '\f': esc = "\\f"; break;
        case '\n': esc = "\\n"; break;
        case '\r': esc = "\\r"; break;
        case '\t': esc = "\\t"; break;
        default: break;
        }
        if (esc) {
            ue_buf_put_fast(b, esc, 2);
            i++;
            continue;
        }
        uint32_t cp;
        size_t len = ue_utf8_decode((const char *)p + i, n - i, &cp);
        if (c < 0x20 || (c == 0x7F && !lines) || len == 0) {
            /* Control characters, and bytes that are not UTF-8 (legacy code pages), become
             * \u00XX: the output stays valid JSON and the byte value stays visible. */
            char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            ue_buf_put_fast(b, u, 6);
            i++;
            continue;
        }
        ue_buf_put_fast(b, p + i, len);
        i += len;
    }
    put_byte(b, '"');
}

/* A member ue_json_skip_keys drops: the key is not written, nor the value that follows. */
static bool skipped_key(ue_json *j, const char *key) {
    if (j->skipping) return true;
    if (!j->skip_keys || j->depth != j->skip_depth) return false;
    for (const char *const *k = j->skip_keys; *k; k++)
        if (!strcmp(*k, key)) return j->skipping = true, j->skip_nest = 0, true;
    return false;
}

void ue_json_skip_keys(ue_json *j, const char *const *keys) {
    j->skip_keys = keys;
    j->skip_depth = j->depth + 1;
}

void ue_json_key(ue_json *j, const char *key) {
    if (j->error || skipped_key(j, key)) return;
    if (j->depth == 0 || !j->in_object[j->depth - 1] || j->key_pending) {
        fail(j, "key outside an object or two keys in a row");
        return;
    }
    bool comma = j->has_items[j->depth - 1];
    j->has_items[j->depth - 1] = true;
    j->key_pending = true;
    if (j->sink) {
        emit(j, (ue_json_event){.kind = UE_JSON_KEY, .text = key, .size = strlen(key)});
        return;
    }
    if (comma) put_byte(j->out, ',');
    newline(j);
    put_escaped(j->out, key, strlen(key), j->lines);
    ue_buf_put_fast(j->out, j->indent ? ": " : ":", j->indent ? 2 : 1);
}

void ue_json_string_n(ue_json *j, const char *s, size_t n) {
    if (!before_value(j, false)) return;
    if (j->sink) emit(j, (ue_json_event){.kind = UE_JSON_STRING, .text = s, .size = n});
    else put_escaped(j->out, s, n, j->lines);
    after_value(j);
}
void ue_json_string(ue_json *j, const char *s) { ue_json_string_n(j, s, strlen(s)); }

/* A number, true, false or null: its text, or the call `e` to a sink. */
static void put_scalar(ue_json *j, const char *txt, ue_json_event e) {
    if (!before_value(j, false)) return;
    if (j->sink) emit(j, e);
    else ue_buf_put_fast(j->out, txt, strlen(txt));
    after_value(j);
}

/* Decimal digits of v, sign first, as "%lld" / "%llu" spell them (no locale touches integers):
 * a glTF file is mostly indices, and printf's machinery cost more than the digits. */
static const char *decimal(uint64_t v, bool negative, char t[24]) {
    char *p = t + 23;
    *p = 0;
    do *--p = (char)('0' + v % 10); while ((v /= 10) != 0);
    if (negative) *--p = '-';
    return p;
}

void ue_json_int(ue_json *j, int64_t v) {
    char t[24];
    uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    put_scalar(j, decimal(mag, v < 0, t), (ue_json_event){.kind = UE_JSON_INT, .v.integer = v});
}
void ue_json_uint(ue_json *j, uint64_t v) {
    char t[24];
    put_scalar(j, decimal(v, false, t), (ue_json_event){.kind = UE_JSON_UINT, .v.uinteger = v});
}
void ue_json_bool(ue_json *j, bool v) {
    put_scalar(j, v ? "true" : "false", (ue_json_event){.kind = UE_JSON_BOOL, .v.boolean = v});
}
void ue_json_null(ue_json *j) { put_scalar(j, "null", (ue_json_event){.kind = UE_JSON_NULL}); }

size_t ue_format_float(double v, char out[32]) {
    if (!isfinite(v)) {
        out[0] = 0;
        return 0;
    }
    if (v == 0) v = 0; /* -0 → 0: same value, one spelling */
    int n = snprintf(out, 32, "%.9g", v);
    if (n <= 0 || n >= 32) {
        out[0] = 0;
        return 0;
    }
    /* %g honours LC_NUMERIC; the only byte it can localise is the decimal point, and every
     * other byte of %g output is a digit, sign or exponent letter. */
    for (int i = 0; i < n; i++) {
        char c = out[i];
        if (!((c >= '0' && c <= '9') || c == '-' || c == '+' || c == 'e')) out[i] = '.';
    }
    /* A multi-byte locale decimal point would leave several '.'; collapse them. */
    size_t w = 0;
    for (int i = 0; i < n; i++) {
        if (out[i] == '.' && w > 0 && out[w - 1] == '.') continue;
        out[w++] = out[i];
    }
    out[w] = 0;
    return w;
}

void ue_json_float(ue_json *j, double v) {
    char t[32];
    if (ue_format_float(v, t) == 0) {
        fail(j, "NaN or infinity has no JSON form");
        return;
    }
    put_scalar(j, t, (ue_json_event){.kind = UE_JSON_FLOAT, .v.real = v});
}

size_t ue_format_real17(double v, char out[40]) {
    if (!isfinite(v)) {
        out[0] = 0;
        return 0;
    }
    int n = snprintf(out, 40, "%.17g", v);
    if (n <= 0 || n >= 36) {
        out[0] = 0;
        return 0;
    }
    for (int i = 0; i < n; i++) /* the locale's decimal point, as in ue_format_float */
        if (!((out[i] >= '0' && out[i] <= '9') || out[i] == '-' || out[i] == '+' || out[i] == 'e')) out[i] = '.';
    size_t len = (size_t)n;
    if (!strchr(out, '.') && !strchr(out, 'e')) {
        memcpy(out + len, ".0", 3); /* still a real when read back */
        return len + 2;
    }
    char *e = strchr(out, 'e');
    if (e) { /* "1e+20" → "1e20", "1e-05" → "1e-5" */
        char *start = e + 1, *digits = start;
        if (*digits == '+' || *digits == '-') digits++;
        if (*start == '-') start++;
        while (*digits == '0' && digits[1]) digits++;
        memmove(start, digits, strlen(digits) + 1);
        len = strlen(out);
    }
    return len;
}

void ue_json_real(ue_json *j, double v) {
    char t[40];
    if (ue_format_real17(v, t) == 0) {
        fail(j, "NaN or infinity has no JSON form");
        return;
    }
    put_scalar(j, t, (ue_json_event){.kind = UE_JSON_REAL, .v.real = v});
}

bool ue_json_is_utf8(const char *s) {
    for (size_t n = strlen(s), i = 0; i < n;) {
        uint32_t cp;
        size_t len = ue_utf8_decode(s + i, n - i, &cp);
        if (!len) return false;
        i += len;
    }
    return true;
}

void ue_json_key_string(ue_json *j, const char *key, const char *s) {
    if (!ue_json_is_utf8(s)) return;
    ue_json_key(j, key);
    ue_json_string(j, s);
}

void ue_json_key_string_or_null(ue_json *j, const char *key, const char *s) {
    if (s) {
        ue_json_key_string(j, key, s);
        return;
    }
    ue_json_key(j, key);
    ue_json_null(j);
}

void ue_json_key_int(ue_json *j, const char *key, int64_t v) {
    ue_json_key(j, key);
    ue_json_int(j, v);
}

void ue_json_key_real(ue_json *j, const char *key, double v) {
    if (!isfinite(v)) return;
    ue_json_key(j, key);
    ue_json_real(j, v);
}

void ue_json_key_bool(ue_json *j, const char *key, bool v) {
    ue_json_key(j, key);
    ue_json_bool(j, v);
}

void ue_json_value(ue_json *j, const ue_jv *v) {
    if (!v) return;
    switch (v->kind) {
    case UE_JV_NULL: ue_json_null(j); break;
    case UE_JV_FALSE: ue_json_bool(j, false); break;
    case UE_JV_TRUE: ue_json_bool(j, true); break;
    case UE_JV_INTEGER: ue_json_int(j, v->u.integer); break;
    case UE_JV_REAL: ue_json_real(j, v->u.real); break;
    case UE_JV_STRING: ue_json_string_n(j, v->u.string, v->count); break;
    case UE_JV_ARRAY:
        ue_json_array_begin(j);
        for (size_t i = 0; i < v->count; i++) ue_json_value(j, &v->u.items[i]);
        ue_json_array_end(j);
        break;
    case UE_JV_OBJECT:
        ue_json_object_begin(j);
        UE_JV_FOR_MEMBERS(v, m) {
            ue_json_key(j, m->key);
            ue_json_value(j, &m->value);
        }
        ue_json_object_end(j);
        break;
    }
}

/* ---- events ------------------------------------------------------------------------------ */

void ue_json_put_event(ue_json *j, const ue_json_event *e) {
    switch (e->kind) {
    case UE_JSON_OBJECT_BEGIN: ue_json_object_begin(j); break;
    case UE_JSON_OBJECT_END: ue_json_object_end(j); break;
    case UE_JSON_ARRAY_BEGIN: ue_json_array_begin(j); break;
    case UE_JSON_ARRAY_END: ue_json_array_end(j); break;
    case UE_JSON_KEY: ue_json_key(j, e->text); break;
    case UE_JSON_STRING: ue_json_string_n(j, e->text, e->size); break;
    case UE_JSON_INT: ue_json_int(j, e->v.integer); break;
    case UE_JSON_UINT: ue_json_uint(j, e->v.uinteger); break;
    case UE_JSON_FLOAT: ue_json_float(j, e->v.real); break;
    case UE_JSON_REAL: ue_json_real(j, e->v.real); break;
    case UE_JSON_BOOL: ue_json_bool(j, e->v.boolean); break;
    case UE_JSON_NULL: ue_json_null(j); break;
    }
}

/* A recording is one record per call: the kind's byte, then for a key or string its size (8
 * bytes), its bytes and a NUL, for a number its 8 bytes, for a bool one byte. */
static void record_event(void *ctx, const ue_json_event *e) {
    ue_buf *b = ctx;
    ue_buf_put_u8(b, (uint8_t)e->kind);
    switch (e->kind) {
    case UE_JSON_KEY:
    case UE_JSON_STRING: {
        uint64_t n = e->size;
        ue_buf_put(b, &n, sizeof n);
        ue_buf_put(b, e->text, e->size);
        ue_buf_put_u8(b, 0);
        break;
    }
    case UE_JSON_INT:
    case UE_JSON_UINT:
    case UE_JSON_FLOAT:
    case UE_JSON_REAL: ue_buf_put(b, &e->v, 8); break;
    case UE_JSON_BOOL: ue_buf_put_u8(b, e->v.boolean); break;
    default: break;
    }
}

void ue_json_init_record(ue_json *j, ue_buf *calls) {
    ue_json_init_sink(j, record_event, calls);
    j->out = calls; /* so that ue_json_finish reports a buffer that could not grow */
}

/* The call recorded at *at, which moves past it; false at the end or where the recording is cut. */
static bool next_event(const ue_buf *calls, size_t *at, ue_json_event *e) {
    const uint8_t *p = calls->data;
    size_t n = calls->size, i = *at;
    if (!p || i >= n || p[i] > UE_JSON_NULL) return false;
    memset(e, 0, sizeof *e);
    e->kind = (ue_json_event_kind)p[i++];
    if (e->kind == UE_JSON_KEY || e->kind == UE_JSON_STRING) {
        uint64_t len;
        if (n - i < sizeof len) return false;
        memcpy(&len, p + i, sizeof len);
        i += sizeof len;
        if (len >= n - i || p[i + len] != 0) return false; /* its bytes and the NUL after them */
        /* a key is read up to its NUL, so one inside it would cut it short */
        if (e->kind == UE_JSON_KEY && memchr(p + i, 0, (size_t)len)) return false;
        e->text = (const char *)p + i;
        e->size = (size_t)len;
        i += e->size + 1;
    } else if (e->kind >= UE_JSON_INT && e->kind <= UE_JSON_REAL) {
        if (n - i < 8) return false;
        memcpy(&e->v, p + i, 8);
        i += 8;
    } else if (e->kind == UE_JSON_BOOL) {
        if (i >= n) return false;
        e->v.boolean = p[i++] != 0;
    }
    *at = i;
    return true;
}

void ue_json_replay(const ue_buf *calls, ue_json *w) {
    ue_json_event e;
    for (size_t at = 0; next_event(calls, &at, &e);) ue_json_put_event(w, &e);
}

void ue_json_replay_members(const ue_buf *calls, ue_json *w) {
    ue_json_event e;
    size_t at = 0;
    if (!next_event(calls, &at, &e) || e.kind != UE_JSON_OBJECT_BEGIN) return;
    for (int depth = 1; next_event(calls, &at, &e);) {
        depth += e.kind == UE_JSON_OBJECT_BEGIN || e.kind == UE_JSON_ARRAY_BEGIN;
        depth -= e.kind == UE_JSON_OBJECT_END || e.kind == UE_JSON_ARRAY_END;
        if (depth == 0) return; /* the object's own end */
        ue_json_put_event(w, &e);
    }
}

bool ue_json_failed(const ue_json *j) { return j->error != NULL || (j->out && j->out->failed); }

void ue_json_init_items(ue_json *part, ue_buf *out, const ue_json *parent, bool items_before) {
    ue_json_init(part, out, parent->indent);
    part->lines = parent->lines;
    if (parent->sink || parent->skip_keys || parent->key_pending || parent->depth >= UE_JSON_MAX_DEPTH) {
        fail(part, "array items apart from a writer that cannot have them");
        return;
    }
    part->depth = parent->depth + 1;
    memcpy(part->in_object, parent->in_object, (size_t)parent->depth * sizeof *part->in_object);
    part->in_object[parent->depth] = false;
    part->has_items[parent->depth] = items_before;
}

void ue_json_append_items(ue_json *parent, const ue_json *part) {
    if (parent->error) return;
    int level = parent->depth - 1;
    if (part->error || part->depth != parent->depth || level < 0 || parent->in_object[level] || !part->out) {
        fail(parent, part->error ? part->error : "array items appended where no such array is open");
        return;
    }
    if (!part->out->failed) ue_buf_put(parent->out, part->out->data, part->out->size);
    else parent->out->failed = true;
    parent->has_items[level] = parent->has_items[level] || part->has_items[level];
    parent->multiline[level] = parent->multiline[level] || part->multiline[level];
}

ue_result ue_json_finish(ue_json *j, ue_diag *d) {
    if (!j->error && (j->depth != 0 || !j->done)) j->error = "incomplete JSON value";
    if (j->error) {
        ue_diag_add(d, UE_SEV_ERROR, "json.usage", UE_NO_OFFSET, "json", "%s", j->error);
        return UE_ERR_USAGE;
    }
    if (j->out && j->out->failed) {
        ue_diag_add(d, UE_SEV_ERROR, "json.nomem", UE_NO_OFFSET, "json",
                    "out of memory or over the output size limit");
        return UE_ERR_NOMEM;
    }
    return UE_OK;
}
