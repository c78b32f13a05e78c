/* unearth — helpers shared by every container's extract/pack: safe file names for entries,
 * printable names, and typed reads of manifest.json fields with clear diagnostics. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>

#include "common/text.h"
#include "common/parse.h"
#include "archive/container.h"
#include "common/bytes.h"
#include "common/io.h"
#include "common/collections.h"
#include "common/write_pool.h"


/* ASCII characters an entry's file name keeps as they are (the rest become '_'), as before
 * non-ASCII letters were kept: extract's file names stay what they were for ASCII names. */
static bool ascii_kept(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           strchr("._- +#", c) != NULL;
}

void ue_entry_file_name(size_t index, const char *name, const char *fallback_ext, char *out,
                        size_t out_size) {
    char clean[200];
    /* Letters of every script stay; separators, controls and bytes that are not UTF-8 do not. */
    size_t o = ue_file_name_component(name, clean, sizeof clean);
    for (size_t i = 0; i < o; i++)
        if ((unsigned char)clean[i] < 0x80 && !ascii_kept(clean[i])) clean[i] = '_';
    if (o == 0)
        snprintf(out, out_size, "%04zu%s", index, fallback_ext ? fallback_ext : "");
    else
        snprintf(out, out_size, "%04zu_%s", index, clean);
}

/* ---- Parkan entry names: CP1251 bytes shown as UTF-8 text ---------------------------------- */

/* Appends len bytes when they fit with the NUL, so a character is never cut in two. */
static bool append_whole(char *out, size_t out_size, size_t *o, const char *p, size_t len) {
    if (*o + len >= out_size) return false;
    memcpy(out + *o, p, len);
    *o += len;
    return true;
}

/* One walk for both name forms: backslash and bytes that are not text are escaped; the rest is
 * copied as ASCII (GameCube names) or decoded from CP1251 (Parkan names). */
static void shown_name(const uint8_t *raw, size_t n, bool cp1251, char *out, size_t out_size) {
    size_t o = 0;
    if (out_size == 0) return;
    for (size_t i = 0; i < n && raw[i]; i++) {
        unsigned char c = raw[i];
        char seq[8];
        size_t len;
        if (c == '\\') {
            len = (size_t)snprintf(seq, sizeof seq, "\\\\");
        } else if (c < 0x20 || c == 0x7F || (cp1251 ? c == 0x98 : c >= 0x80)) {
            /* Controls are not text, and 0x98 is the one byte CP1251 gives no character. */
            len = (size_t)snprintf(seq, sizeof seq, "\\x%02X", c);
        } else {
            const char one[2] = {(char)c, 0};
            len = ue_cp1251_to_utf8(one, seq, sizeof seq); /* ASCII maps to itself */
        }
        if (!append_whole(out, out_size, &o, seq, len)) break;
    }
    out[o] = 0;
}

void ue_printable_name(const uint8_t *raw, size_t n, char *out, size_t out_size) {
    shown_name(raw, n, false, out, out_size);
}

void ue_cp1251_entry_name(const uint8_t *raw, size_t n, char *out, size_t out_size) {
    shown_name(raw, n, true, out, out_size);
}

/* One "\xHH" or "\\" escape at p: its byte and length, or 0 when p starts no escape. A
 * "\x" without two hex digits is an error (*bad), as it cannot be what unearth wrote. */
static size_t name_escape(const char *p, uint8_t *byte, bool *bad) {
    *bad = false;
    if (p[0] != '\\') return 0;
    if (p[1] == '\\') {
        *byte = '\\';
        return 2;
    }
    if (p[1] != 'x') return 0;
    size_t got = 0;
    char hex[3] = {p[2], p[2] ? p[3] : 0, 0};
    if (!ue_hex_decode(hex, byte, 1, &got) || got != 1) {
        *bad = true;
        return 0;
    }
    return 4;
}

/* The CP1251 byte of the UTF-8 character at p (len bytes), or -1 when the code page lacks it. */
static int cp1251_of(const char *p, size_t len) {
    char one[5] = {0}, byte[2];
    memcpy(one, p, len);
    return ue_utf8_to_cp1251(one, byte, sizeof byte, NULL, NULL, NULL) == UE_OK
               ? (unsigned char)byte[0]
               : -1;
}

/* Why text cannot be a stored name, for the diagnostic (quiet when d is NULL). */
static ue_result name_refused(ue_diag *d, const char *where, const char *raw_text, size_t at,
                              size_t len, uint32_t cp) {
    char text[160];
    ue_text_printable(raw_text, text, sizeof text);
    if (len == 0)
        ue_diag_add(d, UE_SEV_ERROR, "manifest.name", UE_NO_OFFSET, where,
                    "name \"%s\" is not UTF-8 text (byte 0x%02X at offset %zu)", text,
                    (unsigned char)raw_text[at], at);
    else if (cp == '\\')
        ue_diag_add(d, UE_SEV_ERROR, "manifest.name", UE_NO_OFFSET, where,
                    "name \"%s\": \\x at offset %zu needs two hex digits", text, at);
    else
        ue_diag_add(d, UE_SEV_ERROR, "manifest.name", UE_NO_OFFSET, where,
                    "name \"%s\": '%.*s' (U+%04X) has no Windows-1251 code; Parkan names are "
                    "stored in that code page (Latin, Cyrillic and common signs)",
                    text, (int)len, raw_text + at, (unsigned)cp);
    return UE_ERR_INVALID;
}

ue_result ue_cp1251_name_parse(const char *text, uint8_t *out, size_t cap, size_t *len,
                               const char *where, ue_diag *d) {
    size_t n = 0, size = strlen(text);
    for (size_t at = 0; at < size;) {
        uint8_t byte = 0;
        bool bad;
        size_t used = name_escape(text + at, &byte, &bad);
        if (bad) return name_refused(d, where, text, at, 1, '\\');
        if (!used) {
            uint32_t cp = 0;
            used = ue_utf8_decode(text + at, size - at, &cp);
            int mapped = used ? cp1251_of(text + at, used) : -1;
            if (mapped < 0) return name_refused(d, where, text, at, used, cp);
            byte = (uint8_t)mapped;
        }
        if (n == cap) return UE_ERR_USAGE; /* too long: the caller names its limit */
        out[n++] = byte;
        at += used;
    }
    *len = n;
    return UE_OK;
}

bool ue_printable_name_parse(const char *text, uint8_t *out, size_t cap, size_t *len) {
    size_t n = 0;
    for (const char *p = text; *p;) {
        uint8_t byte = (uint8_t)*p;
        bool bad;
        size_t used = name_escape(p, &byte, &bad);
        if (bad || (!used && (byte < 0x20 || byte > 0x7E)) || byte == 0 || n == cap) return false;
        out[n++] = byte;
        p += used ? used : 1;
    }
    *len = n;
    return true;
}

ue_result ue_manifest_cp1251_name(const char *text, bool have_raw, uint8_t *raw, size_t raw_size,
                                  size_t max_len, const char *where, bool *renamed, ue_diag *d) {
    *renamed = false;
    if (!text) {
        if (have_raw) return UE_OK;
        ue_diag_add(d, UE_SEV_ERROR, "manifest.name", UE_NO_OFFSET, where,
                    "entry has neither \"name\" nor \"name_hex\"");
        return UE_ERR_INVALID;
    }
    uint8_t bytes[256];
    size_t len = 0;
    if (max_len > sizeof bytes || raw_size < max_len) return UE_ERR_USAGE;
    char shown[4 * sizeof bytes + 1];
    if (have_raw) {
        /* Unchanged text: even a damaged raw name (no NUL in its field) is kept as it was. */
        ue_cp1251_entry_name(raw, raw_size, shown, sizeof shown);
        if (!strcmp(shown, text)) return UE_OK;
    }
    ue_result r = ue_cp1251_name_parse(text, bytes, max_len, &len, where, d);
    if (r == UE_ERR_INVALID) return r;
    /* The raw bytes win while the text still names them (whatever follows their NUL). */
    size_t raw_len = 0;
    while (have_raw && raw_len < raw_size && raw[raw_len]) raw_len++;
    if (r == UE_OK && have_raw && len == raw_len && !memcmp(bytes, raw, len)) return UE_OK;
    if (r != UE_OK || len == 0) {
        ue_text_printable(text, shown, sizeof shown);
        ue_diag_add(d, UE_SEV_ERROR, "manifest.name", UE_NO_OFFSET, where,
                    "name \"%s\" is empty or longer than %zu bytes", shown, max_len);
        return UE_ERR_INVALID;
    }
    memset(raw, 0, raw_size);
    memcpy(raw, bytes, len);
    *renamed = true;
    return UE_OK;
}

static bool safe_relative(const char *rel) {
    if (!rel[0] || rel[0] == '/') return false;
    for (const char *p = rel; *p;) {
        const char *slash = strchr(p, '/');
        size_t len = slash ? (size_t)(slash - p) : strlen(p);
        if (len == 0 || (len == 2 && p[0] == '.' && p[1] == '.') || (len == 1 && p[0] == '.'))
            return false;
        p += len + (slash ? 1 : 0);
    }
    return true;
}

/* The relative path `rel` found under `key` of a manifest entry, or NULL (with a diagnostic)
 * when it is missing or could leave the manifest's directory. */
static const char *checked_rel_path(const char *rel, const char *key, ue_diag *d) {
    if (rel && safe_relative(rel)) return rel;
    char shown[160];
    ue_text_printable(rel ? rel : "nothing", shown, sizeof shown);
    ue_diag_add(d, UE_SEV_ERROR, "manifest.file", UE_NO_OFFSET, "manifest",
                "\"%s\" must be a relative path inside the directory (got %s)", key, shown);
    return NULL;
}

/* Edit distance of two short keys (Levenshtein, keys longer than 31 bytes count as far). */
static size_t key_distance(const char *a, const char *b) {
    size_t na = strlen(a), nb = strlen(b), row[32];
    if (na > 31 || nb > 31) return SIZE_MAX;
    for (size_t j = 0; j <= nb; j++) row[j] = j;
    for (size_t i = 1; i <= na; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            diag = up;
            row[j] = best;
        }
    }
    return row[nb];
}

/* `entry "robot.wea": ` before a message about an entry, nothing otherwise; the name as
 * printable text (it comes from the manifest). */
static void entry_prefix(const char *entry, char *out, size_t out_size) {
    char shown[121];
    if (entry) ue_text_printable(entry, shown, sizeof shown);
    if (entry) snprintf(out, out_size, "entry \"%s\": ", shown);
    else if (out_size) out[0] = 0;
}

/* The known key nearest to `key` (at most two letters off), or NULL. */
static const char *nearest_known(const char *const *known, const char *key) {
    const char *nearest = NULL;
    size_t best = 3; /* a typo: at most two letters off */
    for (const char *const *k = known; *k; k++) {
        size_t dist = key_distance(*k, key);
        if (dist < best) best = dist, nearest = *k;
    }
    return nearest;
}

/* Whether `key` is known. Manifests list keys in the order extract writes them, which is the
 * order of `known`: the search starts after the previous match (*next), so a clean manifest
 * costs one comparison per key. */
static bool is_known(const char *const *known, size_t nknown, const char *key, size_t *next) {
    for (size_t j = 0; j < nknown; j++) {
        size_t at = (*next + j) % nknown;
        if (!strcmp(known[at], key)) {
            *next = at + 1;
            return true;
        }
    }
    return false;
}

void ue_manifest_unknown_keys_jv(const ue_jv *obj, const char *const *known, const char *where,
                                 const char *entry, ue_diag *d) {
    if (!ue_jv_is(obj, UE_JV_OBJECT)) return;
    size_t nknown = 0, next = 0;
    while (known[nknown]) nknown++;
    for (size_t m = 0; m < obj->count; m++) {
        const char *key = obj->u.members[m].key;
        if (is_known(known, nknown, key, &next)) continue;
        if (ue_diag_full(d)) { /* dropped (and counted): no suggestion is worked out for it */
            ue_diag_add(d, UE_SEV_WARNING, "manifest.key", UE_NO_OFFSET, where, "unknown key");
            continue;
        }
        const char *nearest = nearest_known(known, key);
        char prefix[140], shown[100];
        entry_prefix(entry, prefix, sizeof prefix);
        ue_text_printable(key, shown, sizeof shown);
        if (nearest)
            ue_diag_add(d, UE_SEV_WARNING, "manifest.key", UE_NO_OFFSET, where,
                        "%sunknown key \"%s\" is ignored; did you mean \"%s\"?", prefix, shown,
                        nearest);
        else
            ue_diag_add(d, UE_SEV_WARNING, "manifest.key", UE_NO_OFFSET, where,
                        "%sunknown key \"%s\" is ignored (unearth does not read it)", prefix,
                        shown);
    }
}

/* Text from the manifest (or from what pack wrote of it) quoted as printable text. */
static void show_string(const char *text, char *out, size_t out_size) {
    char shown[101];
    ue_text_printable(text, shown, sizeof shown);
    snprintf(out, out_size, "\"%s\"", shown);
}

bool ue_manifest_file_unchanged(const char *path, const char *xxh64) {
    ue_source src;
    if (!xxh64 || ue_source_open_file(path, &src, NULL) != UE_OK) return false;
    uint64_t hash = 0;
    bool same = false;
    if (src.size <= SIZE_MAX && ue_source_xxh64(&src, 0, (size_t)src.size, &hash) == UE_OK) {
        char hex[17];
        ue_xxh64_format(hash, hex);
        same = !strcmp(hex, xxh64);
    }
    ue_source_close(&src);
    return same;
}

void ue_jv_show(const ue_jv *v, char *out, size_t out_size) {
    if (!v) snprintf(out, out_size, "nothing");
    else if (v->kind == UE_JV_INTEGER) snprintf(out, out_size, "%lld", (long long)v->u.integer);
    else if (v->kind == UE_JV_REAL) snprintf(out, out_size, "%.17g", v->u.real);
    else if (v->kind == UE_JV_STRING) show_string(v->u.string, out, out_size);
    else if (v->kind == UE_JV_TRUE || v->kind == UE_JV_FALSE)
        snprintf(out, out_size, "%s", v->kind == UE_JV_TRUE ? "true" : "false");
    else if (v->kind == UE_JV_NULL) snprintf(out, out_size, "null");
    else snprintf(out, out_size, "%s", v->kind == UE_JV_ARRAY ? "an array" : "an object");
}

void ue_manifest_informational(const char *where, const char *entry, const char *key,
                               const char *given, const char *written, const char *advice,
                               ue_diag *d) {
    char prefix[140], shown_key[100];
    entry_prefix(entry, prefix, sizeof prefix);
    ue_text_printable(key, shown_key, sizeof shown_key);
    ue_diag_add(d, UE_SEV_WARNING, "manifest.informational", UE_NO_OFFSET, where,
                "%s\"%s\" is %s but pack writes %s (the key is informational): %s", prefix,
                shown_key, given, written, advice);
}

typedef struct block_check {
    const char *const *skip;
    const char *where, *advice;
    ue_diag *d;
    size_t reported, more;
} block_check;

#define BLOCK_REPORTS 8u /* differences listed one by one; the rest are counted */

/* The key of `parent` nearest to `key` (at most two letters off), or NULL. */
static const char *nearest_key(const ue_jv *parent, const char *key) {
    const char *nearest = NULL;
    size_t best = 3;
    UE_JV_FOR_MEMBERS(parent, m) {
        size_t dist = key_distance(m->key, key);
        if (dist < best) best = dist, nearest = m->key;
    }
    return nearest;
}

/* `given` at `path` differs from `written` (NULL: the packed file has no such key, whose name in
 * `parent` is `key`). */
static void block_difference(block_check *c, const char *path, const ue_jv *given,
                             const ue_jv *written, const ue_jv *parent, const char *key) {
    if (c->reported == BLOCK_REPORTS) {
        c->more++;
        return;
    }
    c->reported++;
    char g[128], w[128], shown_path[200];
    ue_jv_show(given, g, sizeof g);
    const char *near = written ? NULL : nearest_key(parent, key);
    ue_text_printable(path, shown_path, sizeof shown_path);
    if (!written && near)
        ue_diag_add(c->d, UE_SEV_WARNING, "manifest.key", UE_NO_OFFSET, c->where,
                    "unknown key \"%s\" is ignored; did you mean \"%s\"?", shown_path, near);
    else if (!written)
        ue_diag_add(c->d, UE_SEV_WARNING, "manifest.key", UE_NO_OFFSET, c->where,
                    "unknown key \"%s\" is ignored (unearth does not read it)", shown_path);
    if (!written) return;
    ue_jv_show(written, w, sizeof w);
    ue_manifest_informational(c->where, NULL, path, g, w, c->advice, c->d);
}

static bool same_scalar(const ue_jv *g, const ue_jv *w) {
    switch (g->kind) {
    case UE_JV_INTEGER: return ue_jv_is(w, UE_JV_INTEGER) && w->u.integer == g->u.integer;
    case UE_JV_REAL: return ue_jv_is_number(w) && ue_jv_number(w) == g->u.real;
    case UE_JV_STRING: return ue_jv_is(w, UE_JV_STRING) && !strcmp(w->u.string, g->u.string);
    case UE_JV_TRUE:
    case UE_JV_FALSE:
    case UE_JV_NULL: return ue_jv_is(w, g->kind);
    default: return false;
    }
}

static bool is_skipped(const block_check *c, const char *key) {
    for (const char *const *k = c->skip; k && *k; k++)
        if (!strcmp(*k, key)) return true;
    return false;
}

static void block_walk(block_check *c, const char *path, const ue_jv *g, const ue_jv *w,
                       const ue_jv *parent, const char *key) {
    char sub[200];
    if (g->kind == UE_JV_OBJECT && ue_jv_is(w, UE_JV_OBJECT)) {
        for (size_t m = 0; m < g->count; m++) {
            const char *member = g->u.members[m].key;
            if (is_skipped(c, member)) continue;
            snprintf(sub, sizeof sub, "%s.%s", path, member);
            block_walk(c, sub, &g->u.members[m].value, ue_jv_get(w, member), w, member);
        }
    } else if (g->kind == UE_JV_ARRAY && ue_jv_is(w, UE_JV_ARRAY) && g->count == w->count) {
        for (size_t i = 0; i < g->count; i++) {
            snprintf(sub, sizeof sub, "%s[%zu]", path, i);
            block_walk(c, sub, &g->u.items[i], ue_jv_at(w, i), NULL, NULL);
        }
    } else if (!w || !same_scalar(g, w)) {
        block_difference(c, path, g, w, parent, key);
    }
}

void ue_manifest_check_info(const ue_container_ops *ops, const uint8_t *packed, size_t size,
                            const ue_jv *given, const char *key, const char *const *skip,
                            const char *advice, ue_diag *d) {
    if (!given) return;
    void *state = NULL;
    ue_source src = ue_source_memory(packed, size);
    if (ops->open(&src, UE_MODE_TOLERANT, &state, NULL) != UE_OK) {
        if (state) ops->close(state);
        return; /* pack's own output: its writer's tests cover it */
    }
    /* What pack wrote, as text and read back: both sides are then the same kind of value. */
    ue_buf text = {0};
    ue_json w;
    ue_json_init(&w, &text, 0);
    ops->info_json(state, &w);
    ops->close(state);
    ue_jdoc written = {0};
    ue_jdoc_error err;
    if (ue_json_finish(&w, NULL) != UE_OK || ue_jdoc_parse((const char *)text.data, text.size, &written, &err) != UE_OK) {
        ue_buf_free(&text);
        ue_jdoc_free(&written);
        return;
    }
    ue_buf_free(&text);
    char where[64];
    snprintf(where, sizeof where, "manifest/%s", key);
    block_check c = {skip, where, advice, d, 0, 0};
    block_walk(&c, key, given, &written.root, NULL, key);
    if (c.more)
        ue_diag_add(d, UE_SEV_WARNING, "manifest.informational", UE_NO_OFFSET, where,
                    "%zu more keys of \"%s\" differ from what pack writes", c.more, key);
    ue_jdoc_free(&written);
}

/* dir/rel in a new string, or NULL when out of memory. */
static char *join_path(const char *dir, const char *rel) {
    size_t len = strlen(dir) + strlen(rel) + 2;
    char *path = malloc(len);
    if (path) snprintf(path, len, "%s/%s", dir, rel);
    return path;
}

struct ue_manifest_stat {
    char *path; /* NULL: no hint */
    int failed; /* errno of stat, 0 when it succeeded */
    bool regular;
    uint64_t size;
};

static void stat_one(void *ctx, size_t i) {
    ue_manifest_stat *h = &((ue_manifest_stat *)ctx)[i];
    struct stat st;
    if (!h->path) return;
    h->failed = stat(h->path, &st) != 0 ? errno : 0;
    h->regular = !h->failed && S_ISREG(st.st_mode);
    h->size = h->failed ? 0 : (uint64_t)st.st_size;
}

ue_result ue_manifest_prestat_jv(const char *dir, const ue_jv *entries, const char *key,
                                 ue_manifest_stats *out) {
    size_t n = ue_jv_size(entries);
    out->count = 0;
    out->items = calloc(n ? n : 1, sizeof *out->items);
    if (!out->items) return UE_ERR_NOMEM;
    out->count = n;
    for (size_t i = 0; i < n; i++) {
        const char *rel = ue_jv_string(ue_jv_get(ue_jv_at(entries, i), key));
        if (rel && safe_relative(rel)) out->items[i].path = join_path(dir, rel);
    }
    ue_parallel_for(n, 2, stat_one, out->items);
    return UE_OK;
}

void ue_manifest_stats_free(ue_manifest_stats *s) {
    for (size_t i = 0; i < s->count; i++) free(s->items[i].path);
    free(s->items);
    s->items = NULL;
    s->count = 0;
}

/* Below the lookup of a field: these take the field's value as found (NULL when absent).
 * `hint` (may be NULL) is the stat already taken of this path. */
static ue_result file_path(const char *dir, const char *rel_value, const char *key,
                           ue_manifest_stat *hint, char **path_out, uint64_t *size, ue_diag *d) {
    *path_out = NULL;
    const char *rel = checked_rel_path(rel_value, key, d);
    if (!rel) return UE_ERR_INVALID;
    char *path = join_path(dir, rel);
    if (!path) return UE_ERR_NOMEM;
    /* A stat, not an open: the writer opens the file once when it copies the payload (and
     * checks the size again then). */
    ue_manifest_stat now = {path, 0, false, 0};
    if (hint && hint->path && !strcmp(hint->path, path))
        now.failed = hint->failed, now.regular = hint->regular, now.size = hint->size;
    else
        stat_one(&now, 0);
    if (now.failed || !now.regular) {
        if (now.failed)
            ue_diag_add(d, UE_SEV_ERROR, "io.open", UE_NO_OFFSET, path, "cannot open: %s",
                        strerror(now.failed));
        else
            ue_diag_add(d, UE_SEV_ERROR, "io.open", UE_NO_OFFSET, path, "not a regular file");
        free(path);
        return UE_ERR_INVALID; /* the manifest names a file that is not there */
    }
    *size = now.size;
    *path_out = path;
    return UE_OK;
}

static ue_result load_file(const char *dir, const char *rel_value, const char *want_xxh64,
                           const char *key, size_t cap, uint8_t **data, size_t *size,
                           bool *changed, ue_diag *d) {
    *data = NULL;
    *size = 0;
    *changed = true;
    const char *rel = checked_rel_path(rel_value, key, d);
    if (!rel) return UE_ERR_INVALID;
    char path[4096];
    int n = snprintf(path, sizeof path, "%s/%s", dir, rel);
    if (n < 0 || (size_t)n >= sizeof path) return UE_ERR_USAGE;
    ue_result r = ue_file_read(path, cap, data, size, d);
    if (r != UE_OK) return r == UE_ERR_IO ? UE_ERR_INVALID : r;
    if (want_xxh64) {
        char have[17];
        ue_xxh64_hex(*data, *size, have);
        *changed = strcmp(have, want_xxh64) != 0;
    }
    return UE_OK;
}

/* `is_integer` and `value`: what the field holds; false (reported when `where`) unless it is
 * a non-negative integer. */
static bool u64_field(bool is_integer, int64_t value, const char *key, uint64_t *out,
                      const char *where, ue_diag *d) {
    if (!is_integer || value < 0) {
        if (where)
            ue_diag_add(d, UE_SEV_ERROR, "manifest.field", UE_NO_OFFSET, where,
                        "\"%s\" missing or not a non-negative integer", key);
        return false;
    }
    *out = (uint64_t)value;
    return true;
}

static bool u32_field(bool ok, uint64_t v, const char *key, uint32_t *out, const char *where,
                      ue_diag *d) {
    if (!ok) return false;
    if (v > UINT32_MAX) {
        if (where)
            ue_diag_add(d, UE_SEV_ERROR, "manifest.field", UE_NO_OFFSET, where,
                        "\"%s\" = %llu does not fit 32 bits", key, (unsigned long long)v);
        return false;
    }
    *out = (uint32_t)v;
    return true;
}

static bool hex_field(const char *s, const char *key, uint8_t *out, size_t n, size_t *len,
                      const char *where, ue_diag *d) {
    size_t got = 0;
    if (!s || !ue_hex_decode(s, out, n, &got) || (n && got != n && !len)) {
        if (where)
            ue_diag_add(d, UE_SEV_ERROR, "manifest.field", UE_NO_OFFSET, where,
                        "\"%s\" missing or not %zu hex-encoded bytes", key, n);
        return false;
    }
    if (len) *len = got;
    else if (n && got != n) return false;
    return true;
}

ue_result ue_manifest_file_path_hinted_jv(const char *dir, const ue_jv *entry, const char *key,
                                          const ue_manifest_stats *hints, size_t i,
                                          char **path_out, uint64_t *size, ue_diag *d) {
    ue_manifest_stat *hint = hints && i < hints->count ? &hints->items[i] : NULL;
    return file_path(dir, ue_jv_string(ue_jv_get(entry, key)), key, hint, path_out, size, d);
}

ue_result ue_manifest_load_file_jv(const char *dir, const ue_jv *entry, const char *key,
                                   size_t cap, uint8_t **data, size_t *size, bool *changed,
                                   ue_diag *d) {
    return load_file(dir, ue_jv_string(ue_jv_get(entry, key)),
                     ue_jv_string(ue_jv_get(entry, "xxh64")), key, cap, data, size, changed, d);
}

bool ue_jv_u64(const ue_jv *obj, const char *key, uint64_t *out, const char *where,
               ue_diag *d) {
    const ue_jv *v = ue_jv_get(obj, key);
    bool is_integer = ue_jv_is(v, UE_JV_INTEGER);
    return u64_field(is_integer, is_integer ? v->u.integer : 0, key, out, where, d);
}

bool ue_jv_u32(const ue_jv *obj, const char *key, uint32_t *out, const char *where,
               ue_diag *d) {
    uint64_t v = 0;
    bool ok = ue_jv_u64(obj, key, &v, where, d); /* before v is read */
    return u32_field(ok, v, key, out, where, d);
}

bool ue_jv_hex(const ue_jv *obj, const char *key, uint8_t *out, size_t n, size_t *len,
               const char *where, ue_diag *d) {
    return hex_field(ue_jv_string(ue_jv_get(obj, key)), key, out, n, len, where, d);
}

bool ue_jv_hex_alloc(const ue_jv *obj, const char *key, size_t cap, uint8_t **out, size_t *n) {
    *out = NULL;
    *n = 0;
    const char *hex = ue_jv_string(ue_jv_get(obj, key));
    if (!hex) return false;
    size_t len = strlen(hex) / 2;
    if (len > cap) return false;
    *out = malloc(len ? len : 1);
    if (!*out) return false;
    if (!ue_hex_decode(hex, *out, len, n)) {
        free(*out);
        *out = NULL;
        return false;
    }
    return true;
}

void ue_json_hex(ue_json *w, const uint8_t *p, size_t n) {
    char *hex = malloc(2 * n + 1);
    if (!hex) {
        ue_json_null(w);
        return;
    }
    ue_hex_encode(p, n, hex);
    ue_json_string(w, hex);
    free(hex);
}

void ue_json_xxh64(ue_json *w, const uint8_t *p, size_t n) {
    char hex[17];
    ue_xxh64_hex(p, n, hex);
    ue_json_string(w, hex);
}

/* ---- recognising a previous extract output ------------------------------------------------ */

typedef struct string_set {
    const char **items;
    size_t count, cap;
} string_set;

static int compare_strings(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The keys under which a manifest names a file the extract wrote ("file", "stored_file"). */
static bool names_a_file(const char *key) {
    size_t n = strlen(key);
    return !strcmp(key, "file") || (n > 5 && !strcmp(key + n - 5, "_file"));
}

/* Every file the manifest names, at any depth: only those an extract wrote may be replaced.
 * "source" at the top names the archive the extract came from, which is not in the directory. */
static bool collect_files(const ue_jv *j, bool top, string_set *set) {
    if (ue_jv_is(j, UE_JV_ARRAY)) {
        for (size_t i = 0; i < j->count; i++)
            if (!collect_files(&j->u.items[i], false, set)) return false;
        return true;
    }
    for (size_t i = 0; ue_jv_is(j, UE_JV_OBJECT) && i < j->count; i++) {
        const ue_jmember *m = &j->u.members[i];
        if (top && !strcmp(m->key, "source")) continue;
        if (ue_jv_is(&m->value, UE_JV_STRING) && names_a_file(m->key)) {
            if (ue_array_reserve((void **)&set->items, &set->cap, set->count + 1,
                                 sizeof *set->items, SIZE_MAX) != UE_OK)
                return false;
            set->items[set->count++] = m->value.u.string;
        } else if (!collect_files(&m->value, false, set)) {
            return false;
        }
    }
    return true;
}

static bool listed_in_manifest(const char *rel, void *ctx) {
    const string_set *set = ctx;
    if (!strcmp(rel, "manifest.json")) return true;
    return bsearch(&rel, set->items, set->count, sizeof *set->items, compare_strings) != NULL;
}

bool ue_manifest_dir_is_extract(const char *dir, void *unused) {
    (void)unused;
    char path[4096];
    if (snprintf(path, sizeof path, "%s/manifest.json", dir) >= (int)sizeof path) return false;
    uint8_t *text = NULL;
    size_t size = 0;
    if (ue_file_read(path, UE_CAP_ENTRY_BYTES, &text, &size, NULL) != UE_OK) return false;
    ue_jdoc doc;
    bool ours = false;
    string_set set = {0};
    if (ue_jdoc_parse((const char *)text, size, &doc, NULL) == UE_OK &&
        ue_jv_is(ue_jv_get(&doc.root, "unearth_manifest"), UE_JV_INTEGER) &&
        collect_files(&doc.root, true, &set)) {
        if (set.count) qsort(set.items, set.count, sizeof *set.items, compare_strings);
        ours = ue_dir_holds_only(dir, listed_in_manifest, &set);
    }
    free(set.items);
    ue_jdoc_free(&doc);
    free(text);
    return ours;
}
