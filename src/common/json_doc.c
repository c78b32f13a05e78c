/* unearth — the read-only JSON document parser: values, keys and strings go into a few large
 * arena blocks; each container's children wait on a scratch stack until it closes. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json_doc.h"
#include "common/collections.h"
#include "common/text.h"

/* Arena blocks start near the text's size (a small document takes one small block) and
 * double up to BLOCK_MAX, so a big manifest takes a few blocks and a tiny one little memory. */
#define BLOCK_MIN ((size_t)4096)
#define BLOCK_MAX ((size_t)8 << 20)
/* Objects larger than this check duplicate keys by sorting once instead of comparing each new
 * key with the earlier ones (quadratic for a hostile object of a million keys), and keep that
 * order as an index after their members, so ue_jv_get searches them in log time. */
#define LINEAR_KEY_CHECK 16

typedef struct ue_jdoc_block {
    struct ue_jdoc_block *next;
    size_t used, size;
    _Alignas(max_align_t) unsigned char data[];
} ue_jdoc_block;

/* A member waiting for its object to close, with where its key began (for the duplicate
 * message). */
typedef struct pending_member {
    ue_jmember m;
    size_t at;
    size_t pos; /* in its object (set in the sorted copy only) */
} pending_member;

typedef struct parser {
    const char *p, *end, *start;
    ue_jdoc *doc;
    ue_jdoc_error *err;
    ue_jv *items; /* scratch stack of array items */
    size_t nitems, items_cap;
    pending_member *members; /* scratch stack of object members */
    size_t nmembers, members_cap;
    int depth;
    bool failed, nomem;
} parser;

static void *arena_alloc(ue_jdoc *doc, size_t n) {
    n = (n + _Alignof(max_align_t) - 1) & ~(size_t)(_Alignof(max_align_t) - 1);
    ue_jdoc_block *b = doc->blocks;
    if (!b || b->size - b->used < n) {
        size_t size = n > doc->block_size ? n : doc->block_size;
        if (doc->block_size < BLOCK_MAX) doc->block_size *= 2;
        b = malloc(sizeof *b + size);
        if (!b) return NULL;
        b->size = size;
        b->used = 0;
        b->next = doc->blocks;
        doc->blocks = b;
    }
    void *out = b->data + b->used;
    b->used += n;
    return out;
}

static bool fail_at(parser *ps, const char *at, const char *fmt, ...) {
    if (ps->failed) return false;
    ps->failed = true;
    ue_jdoc_error *e = ps->err;
    if (!e) return false;
    e->offset = (size_t)(at - ps->start);
    e->line = 1;
    const char *line_start = ps->start;
    for (const char *q = ps->start; q < at; q++)
        if (*q == '\n') e->line++, line_start = q + 1;
    e->column = (size_t)(at - line_start) + 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->text, sizeof e->text, fmt, ap);
    va_end(ap);
    /* The message may quote a key or a byte of hostile input (a character cut by the buffer's
     * end too): printed as it is, it could break its line. */
    char shown[sizeof e->text];
    ue_text_printable(e->text, shown, sizeof shown);
    memcpy(e->text, shown, sizeof shown);
    return false;
}

static bool out_of_memory(parser *ps, const char *at) {
    ps->nomem = true;
    return fail_at(ps, at, "out of memory");
}

static void skip_space(parser *ps) {
    while (ps->p < ps->end &&
           (*ps->p == ' ' || *ps->p == '\n' || *ps->p == '\r' || *ps->p == '\t'))
        ps->p++;
}

static bool parse_value(parser *ps, ue_jv *out);

static bool literal(parser *ps, const char *word, ue_jv_kind kind, ue_jv *out) {
    size_t n = strlen(word);
    if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0)
        return fail_at(ps, ps->p, "invalid token");
    ps->p += n;
    out->kind = kind;
    return true;
}

static size_t digits(const char *p, const char *end) {
    size_t n = 0;
    while (p + n < end && p[n] >= '0' && p[n] <= '9') n++;
    return n;
}

/* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? exactly; integers stay exact in int64. */
static bool parse_number(parser *ps, ue_jv *out) {
    const char *s = ps->p, *q = s;
    if (q < ps->end && *q == '-') q++;
    size_t whole = digits(q, ps->end);
    if (whole == 0 || (whole > 1 && *q == '0')) return fail_at(ps, s, "invalid number");
    q += whole;
    bool real = false;
    if (q < ps->end && *q == '.') {
        size_t frac = digits(q + 1, ps->end);
        if (!frac) return fail_at(ps, q, "invalid number: no digit after '.'");
        q += 1 + frac, real = true;
    }
    if (q < ps->end && (*q == 'e' || *q == 'E')) {
        const char *e = q + 1;
        if (e < ps->end && (*e == '+' || *e == '-')) e++;
        size_t exp = digits(e, ps->end);
        if (!exp) return fail_at(ps, q, "invalid number: no digit in the exponent");
        q = e + exp, real = true;
    }
    ps->p = q;
    if (!real) {
        bool neg = *s == '-';
        uint64_t v = 0, limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
        for (const char *d = s + neg; d < q; d++) {
            unsigned digit = (unsigned)(*d - '0');
            if (v > (limit - digit) / 10) return fail_at(ps, s, "integer too big for 64 bits");
            v = v * 10 + digit;
        }
        out->kind = UE_JV_INTEGER;
        out->u.integer = neg ? (int64_t)(0 - v) : (int64_t)v;
        return true;
    }
    char buf[64];
    size_t len = (size_t)(q - s);
    char *copy = len < sizeof buf ? buf : malloc(len + 1);
    if (!copy) return out_of_memory(ps, s);
    memcpy(copy, s, len);
    copy[len] = 0;
    errno = 0;
    double v = ue_parse_double(copy, NULL);
    bool overflow = errno == ERANGE && (v > 1.0 || v < -1.0);
    if (copy != buf) free(copy);
    if (overflow) return fail_at(ps, s, "real number overflow");
    out->kind = UE_JV_REAL;
    out->u.real = v;
    return true;
}

static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* The four hex digits after "\u" at p, or -1. */
static long hex4(const char *p, const char *end) {
    if (end - p < 4) return -1;
    long v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hex_value(p[i]);
        if (h < 0) return -1;
        v = v * 16 + h;
    }
    return v;
}

/* "\uXXXX" (with its low half when it is a high surrogate) at p → code point; the escape's
 * length in *used, 0 on error (reported). */
static uint32_t unicode_escape(parser *ps, const char *p, size_t *used) {
    *used = 0;
    long hi = hex4(p + 2, ps->end);
    if (hi < 0) return fail_at(ps, p, "invalid \\u escape: four hex digits expected"), 0;
    if (hi >= 0xDC00 && hi <= 0xDFFF)
        return fail_at(ps, p, "invalid \\u escape: low surrogate without a high one"), 0;
    if (hi < 0xD800 || hi > 0xDBFF) {
        if (hi == 0) return fail_at(ps, p, "\\u0000 is not allowed in a string"), 0;
        *used = 6;
        return (uint32_t)hi;
    }
    long lo = ps->end - p >= 12 && p[6] == '\\' && p[7] == 'u' ? hex4(p + 8, ps->end) : -1;
    if (lo < 0xDC00 || lo > 0xDFFF)
        return fail_at(ps, p, "invalid \\u escape: high surrogate without a low one"), 0;
    *used = 12;
    return 0x10000 + (((uint32_t)hi - 0xD800) << 10) + ((uint32_t)lo - 0xDC00);
}

/* One escape at p (p[0] == '\\') decoded into o; its source length, 0 on error. */
static size_t escape(parser *ps, const char *p, char *o, size_t *out_len) {
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    if (p + 1 >= ps->end) return fail_at(ps, p, "unterminated string"), 0;
    const char *k = p[1] ? strchr(from, p[1]) : NULL;
    if (k) {
        *o = to[k - from];
        *out_len = 1;
        return 2;
    }
    if (p[1] != 'u') return fail_at(ps, p, "invalid escape '\\%c'", p[1]), 0;
    size_t used;
    uint32_t cp = unicode_escape(ps, p, &used);
    if (!used) return 0;
    *out_len = ue_utf8_encode(cp, o);
    return used;
}

/* The end of the string whose opening quote is at p (the closing quote), or NULL. */
static const char *string_end(const char *p, const char *end) {
    for (p++; p < end; p++) {
        if (*p == '"') return p;
        if (*p == '\\') p++;
    }
    return NULL;
}

/* Decodes the string at ps->p (its opening quote) into the arena: never longer than its
 * source, since every escape is at least as long as what it stands for. */
static const char *parse_string(parser *ps, size_t *len) {
    const char *close = string_end(ps->p, ps->end);
    if (!close) return fail_at(ps, ps->p, "unterminated string"), NULL;
    char *out = arena_alloc(ps->doc, (size_t)(close - ps->p));
    if (!out) return out_of_memory(ps, ps->p), NULL;
    size_t o = 0;
    for (const char *p = ps->p + 1; p < close;) {
        unsigned char c = (unsigned char)*p;
        if (c == '\\') {
            size_t n = 0, used = escape(ps, p, out + o, &n);
            if (!used) return NULL;
            p += used, o += n;
        } else if (c < 0x20) {
            return fail_at(ps, p, "control character 0x%02X in a string", c), NULL;
        } else if (c < 0x80) {
            out[o++] = *p++;
        } else {
            uint32_t cp;
            size_t n = ue_utf8_decode(p, (size_t)(close - p), &cp);
            if (!n) return fail_at(ps, p, "string is not valid UTF-8"), NULL;
            memcpy(out + o, p, n);
            p += n, o += n;
        }
    }
    out[o] = 0;
    *len = o;
    ps->p = close + 1;
    return out;
}

static int compare_pending(const void *a, const void *b) {
    const pending_member *x = a, *y = b;
    int c = strcmp(x->m.key, y->m.key);
    return c ? c : (x->at > y->at) - (x->at < y->at);
}

/* Duplicate keys of a large object, found by sorting a copy of its members; the positions in
 * key order go to `index` (n entries). */
static bool sort_keys(parser *ps, const pending_member *m, size_t n, size_t *index) {
    pending_member *sorted = malloc(n * sizeof *sorted);
    if (!sorted) return out_of_memory(ps, ps->p);
    for (size_t i = 0; i < n; i++) sorted[i] = m[i], sorted[i].pos = i;
    qsort(sorted, n, sizeof *sorted, compare_pending);
    bool ok = true;
    for (size_t i = 1; i < n && ok; i++)
        if (!strcmp(sorted[i].m.key, sorted[i - 1].m.key))
            ok = fail_at(ps, ps->start + sorted[i].at, "duplicate key \"%s\"", sorted[i].m.key);
    for (size_t i = 0; i < n; i++) index[i] = sorted[i].pos;
    free(sorted);
    return ok;
}

static bool push_member(parser *ps, size_t base, const char *key, size_t at) {
    size_t n = ps->nmembers - base;
    if (n < LINEAR_KEY_CHECK)
        for (size_t i = base; i < ps->nmembers; i++)
            if (!strcmp(ps->members[i].m.key, key))
                return fail_at(ps, ps->start + at, "duplicate key \"%s\"", key);
    if (ue_array_reserve((void **)&ps->members, &ps->members_cap, ps->nmembers + 1,
                         sizeof *ps->members, SIZE_MAX) != UE_OK)
        return out_of_memory(ps, ps->p);
    pending_member *pm = &ps->members[ps->nmembers++];
    pm->m.key = key;
    pm->at = at;
    return true;
}

/* "key": value, ... after the '{' (already consumed), up to and including the '}'. */
static bool parse_members(parser *ps, size_t base) {
    skip_space(ps);
    if (ps->p < ps->end && *ps->p == '}') return ps->p++, true;
    for (;;) {
        skip_space(ps);
        if (ps->p >= ps->end || *ps->p != '"') return fail_at(ps, ps->p, "string or '}' expected");
        size_t at = (size_t)(ps->p - ps->start), len;
        const char *key = parse_string(ps, &len);
        if (!key || !push_member(ps, base, key, at)) return false;
        skip_space(ps);
        if (ps->p >= ps->end || *ps->p != ':') return fail_at(ps, ps->p, "':' expected");
        ps->p++;
        ue_jv v;
        if (!parse_value(ps, &v)) return false;
        ps->members[ps->nmembers - 1].m.value = v; /* the stack may have moved */
        skip_space(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            continue;
        }
        if (ps->p < ps->end && *ps->p == '}') return ps->p++, true;
        return fail_at(ps, ps->p, "',' or '}' expected");
    }
}

static bool parse_object(parser *ps, ue_jv *out) {
    size_t base = ps->nmembers;
    ps->p++;
    if (!parse_members(ps, base)) return false;
    size_t n = ps->nmembers - base;
    bool indexed = n >= LINEAR_KEY_CHECK;
    ue_jmember *m = arena_alloc(ps->doc, n * sizeof *m + (indexed ? n * sizeof(size_t) : 1));
    if (!m) return out_of_memory(ps, ps->p);
    if (indexed && !sort_keys(ps, ps->members + base, n, (size_t *)(m + n))) return false;
    for (size_t i = 0; i < n; i++) m[i] = ps->members[base + i].m;
    ps->nmembers = base;
    out->kind = UE_JV_OBJECT;
    out->count = n;
    out->u.members = m;
    return true;
}

static bool parse_items(parser *ps) {
    skip_space(ps);
    if (ps->p < ps->end && *ps->p == ']') return ps->p++, true;
    for (;;) {
        ue_jv v;
        if (!parse_value(ps, &v)) return false;
        if (ue_array_reserve((void **)&ps->items, &ps->items_cap, ps->nitems + 1,
                             sizeof *ps->items, SIZE_MAX) != UE_OK)
            return out_of_memory(ps, ps->p);
        ps->items[ps->nitems++] = v;
        skip_space(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            continue;
        }
        if (ps->p < ps->end && *ps->p == ']') return ps->p++, true;
        return fail_at(ps, ps->p, "',' or ']' expected");
    }
}

static bool parse_array(parser *ps, ue_jv *out) {
    size_t base = ps->nitems;
    ps->p++;
    if (!parse_items(ps)) return false;
    size_t n = ps->nitems - base;
    ue_jv *items = arena_alloc(ps->doc, n * sizeof *items + 1);
    if (!items) return out_of_memory(ps, ps->p);
    if (n) memcpy(items, ps->items + base, n * sizeof *items);
    ps->nitems = base;
    out->kind = UE_JV_ARRAY;
    out->count = n;
    out->u.items = items;
    return true;
}

static bool parse_container(parser *ps, ue_jv *out) {
    if (ps->depth >= UE_JDOC_MAX_DEPTH)
        return fail_at(ps, ps->p, "nesting deeper than %d levels", UE_JDOC_MAX_DEPTH);
    ps->depth++;
    bool ok = *ps->p == '{' ? parse_object(ps, out) : parse_array(ps, out);
    ps->depth--;
    return ok;
}

static bool parse_value(parser *ps, ue_jv *out) {
    memset(out, 0, sizeof *out);
    skip_space(ps);
    if (ps->p >= ps->end) return fail_at(ps, ps->p, "unexpected end of input");
    switch (*ps->p) {
    case '{':
    case '[': return parse_container(ps, out);
    case '"': {
        const char *s = parse_string(ps, &out->count);
        out->kind = UE_JV_STRING;
        out->u.string = s;
        return s != NULL;
    }
    case 't': return literal(ps, "true", UE_JV_TRUE, out);
    case 'f': return literal(ps, "false", UE_JV_FALSE, out);
    case 'n': return literal(ps, "null", UE_JV_NULL, out);
    default:
        if (*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9')) return parse_number(ps, out);
        return fail_at(ps, ps->p, "invalid token");
    }
}

ue_result ue_jdoc_parse(const char *text, size_t size, ue_jdoc *doc, ue_jdoc_error *err) {
    memset(doc, 0, sizeof *doc);
    if (err) memset(err, 0, sizeof *err);
    doc->block_size = size < BLOCK_MIN ? BLOCK_MIN : size > BLOCK_MAX ? BLOCK_MAX : size;
    parser ps = {.p = text, .end = text + size, .start = text, .doc = doc, .err = err};
    bool ok = parse_value(&ps, &doc->root);
    if (ok) {
        skip_space(&ps);
        if (ps.p < ps.end) ok = fail_at(&ps, ps.p, "end of input expected after the value");
    }
    free(ps.items);
    free(ps.members);
    if (ok) return UE_OK;
    memset(&doc->root, 0, sizeof doc->root);
    return ps.nomem ? UE_ERR_NOMEM : UE_ERR_INVALID;
}

void ue_jdoc_free(ue_jdoc *doc) {
    if (!doc) return;
    for (ue_jdoc_block *b = doc->blocks, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    doc->blocks = NULL;
    memset(&doc->root, 0, sizeof doc->root);
}

const ue_jv *ue_jv_get(const ue_jv *object, const char *key) {
    if (!object || object->kind != UE_JV_OBJECT) return NULL;
    const ue_jmember *m = object->u.members;
    if (object->count < LINEAR_KEY_CHECK) {
        for (size_t i = 0; i < object->count; i++)
            if (!strcmp(m[i].key, key)) return &m[i].value;
        return NULL;
    }
    const size_t *index = (const size_t *)(m + object->count); /* positions in key order */
    size_t lo = 0, hi = object->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(m[index[mid]].key, key);
        if (!c) return &m[index[mid]].value;
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

size_t ue_jv_items(const ue_jv *v) { return v && v->kind == UE_JV_ARRAY ? v->count : 0; }

bool ue_jv_is_number(const ue_jv *v) { return v && (v->kind == UE_JV_INTEGER || v->kind == UE_JV_REAL); }

double ue_jv_number(const ue_jv *v) {
    if (!v) return 0;
    return v->kind == UE_JV_INTEGER ? (double)v->u.integer : v->kind == UE_JV_REAL ? v->u.real : 0;
}

int64_t ue_jv_integer(const ue_jv *v) { return v && v->kind == UE_JV_INTEGER ? v->u.integer : 0; }

bool ue_jv_is_bool(const ue_jv *v) { return v && (v->kind == UE_JV_TRUE || v->kind == UE_JV_FALSE); }

const ue_jv *ue_jv_at(const ue_jv *array, size_t i) {
    if (!array || array->kind != UE_JV_ARRAY || i >= array->count) return NULL;
    return &array->u.items[i];
}

size_t ue_jv_size(const ue_jv *v) {
    return v && (v->kind == UE_JV_ARRAY || v->kind == UE_JV_OBJECT) ? v->count : 0;
}

const char *ue_jv_string(const ue_jv *v) {
    return v && v->kind == UE_JV_STRING ? v->u.string : NULL;
}

bool ue_jv_is(const ue_jv *v, ue_jv_kind kind) { return v && v->kind == kind; }
