/* unearth — helpers shared by every container's extract/pack: safe file names for entries,
 * printable names, and typed reads of manifest.json fields with clear diagnostics. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/container.h"
#include "common/bytes.h"
#include "common/io.h"

void ue_printable_name(const uint8_t *raw, size_t n, char *out, size_t out_size) {
    size_t o = 0;
    if (out_size == 0) return;
    for (size_t i = 0; i < n && raw[i]; i++) {
        unsigned char c = raw[i];
        char tmp[5];
        size_t len;
        if (c == '\\') {
            memcpy(tmp, "\\\\", 2);
            len = 2;
        } else if (c >= 0x20 && c < 0x7F) {
            tmp[0] = (char)c;
            len = 1;
        } else {
            snprintf(tmp, sizeof tmp, "\\x%02X", c);
            len = 4;
        }
        if (o + len >= out_size) break;
        memcpy(out + o, tmp, len);
        o += len;
    }
    out[o] = 0;
}

bool ue_unescape_name(const char *text, uint8_t *out, size_t cap, size_t *len) {
    size_t n = 0;
    for (const char *p = text; *p; p++) {
        if (n >= cap) return false;
        if (p[0] == '\\' && p[1] == 'x' && p[2] && p[3]) {
            char hex[3] = {p[2], p[3], 0};
            size_t one;
            if (!ue_hex_decode(hex, &out[n], 1, &one)) return false;
            n++;
            p += 3;
        } else if (p[0] == '\\' && p[1] == '\\') {
            out[n++] = '\\';
            p++;
        } else {
            out[n++] = (uint8_t)*p;
        }
    }
    *len = n;
    return true;
}

void ue_entry_file_name(size_t index, const char *name, const char *fallback_ext, char *out,
                        size_t out_size) {
    char clean[200];
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)name; *p && o + 1 < sizeof clean; p++) {
        unsigned char c = *p;
        bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '-' || c == ' ' || c == '+' || c == '#';
        clean[o++] = safe ? (char)c : '_';
    }
    clean[o] = 0;
    /* A name made only of dots would address a directory. */
    if (strspn(clean, ".") == o) o = 0, clean[0] = 0;
    if (o == 0)
        snprintf(out, out_size, "%04zu%s", index, fallback_ext ? fallback_ext : "");
    else
        snprintf(out, out_size, "%04zu_%s", index, clean);
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

ue_result ue_manifest_file_path(const char *dir, const json_t *entry, const char *key,
                                char **path_out, uint64_t *size, ue_diag *d) {
    *path_out = NULL;
    const char *rel = json_string_value(json_object_get(entry, key));
    if (!rel || !safe_relative(rel)) {
        ue_diag_add(d, UE_SEV_ERROR, "manifest.file", UE_NO_OFFSET, "manifest",
                    "\"%s\" must be a relative path inside the directory (got %s)", key,
                    rel ? rel : "nothing");
        return UE_ERR_INVALID;
    }
    size_t len = strlen(dir) + strlen(rel) + 2;
    char *path = malloc(len);
    if (!path) return UE_ERR_NOMEM;
    snprintf(path, len, "%s/%s", dir, rel);
    ue_source src;
    ue_result r = ue_source_open_file(path, &src, d);
    if (r != UE_OK) {
        free(path);
        return UE_ERR_INVALID; /* the manifest names a file that is not there */
    }
    *size = src.size;
    ue_source_close(&src);
    *path_out = path;
    return UE_OK;
}

ue_result ue_manifest_load_file(const char *dir, const json_t *entry, const char *key,
                                size_t cap, uint8_t **data, size_t *size, bool *changed,
                                ue_diag *d) {
    *data = NULL;
    *size = 0;
    *changed = true;
    const char *rel = json_string_value(json_object_get(entry, key));
    if (!rel || !safe_relative(rel)) {
        ue_diag_add(d, UE_SEV_ERROR, "manifest.file", UE_NO_OFFSET, "manifest",
                    "\"%s\" must be a relative path inside the directory (got %s)", key,
                    rel ? rel : "nothing");
        return UE_ERR_INVALID;
    }
    char path[4096];
    int n = snprintf(path, sizeof path, "%s/%s", dir, rel);
    if (n < 0 || (size_t)n >= sizeof path) return UE_ERR_USAGE;
    ue_result r = ue_file_read(path, cap, data, size, d);
    if (r != UE_OK) return r == UE_ERR_IO ? UE_ERR_INVALID : r;
    const char *want = json_string_value(json_object_get(entry, "xxh64"));
    if (want) {
        char have[17];
        ue_xxh64_hex(*data, *size, have);
        *changed = strcmp(have, want) != 0;
    }
    return UE_OK;
}

bool ue_json_u64(const json_t *obj, const char *key, uint64_t *out, const char *where,
                 ue_diag *d) {
    const json_t *v = json_object_get(obj, key);
    if (!json_is_integer(v) || json_integer_value(v) < 0) {
        if (where)
            ue_diag_add(d, UE_SEV_ERROR, "manifest.field", UE_NO_OFFSET, where,
                        "\"%s\" missing or not a non-negative integer", key);
        return false;
    }
    *out = (uint64_t)json_integer_value(v);
    return true;
}

bool ue_json_u32(const json_t *obj, const char *key, uint32_t *out, const char *where,
                 ue_diag *d) {
    uint64_t v;
    if (!ue_json_u64(obj, key, &v, where, d)) return false;
    if (v > UINT32_MAX) {
        if (where)
            ue_diag_add(d, UE_SEV_ERROR, "manifest.field", UE_NO_OFFSET, where,
                        "\"%s\" = %llu does not fit 32 bits", key, (unsigned long long)v);
        return false;
    }
    *out = (uint32_t)v;
    return true;
}

bool ue_json_hex(const json_t *obj, const char *key, uint8_t *out, size_t n, size_t *len,
                 const char *where, ue_diag *d) {
    const char *s = json_string_value(json_object_get(obj, key));
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

json_t *ue_json_hex_new(const uint8_t *p, size_t n) {
    char *hex = malloc(2 * n + 1);
    if (!hex) return json_null();
    ue_hex_encode(p, n, hex);
    json_t *s = json_string(hex);
    free(hex);
    return s;
}

json_t *ue_json_xxh64(const uint8_t *p, size_t n) {
    char hex[17];
    ue_xxh64_hex(p, n, hex);
    return json_string(hex);
}

/* ---- recognising a previous extract output ------------------------------------------------ */

typedef struct string_set {
    const char **items;
    size_t count, cap;
} string_set;

static int compare_strings(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every string value anywhere in the manifest: the files an extract wrote are among them. */
static bool collect_strings(const json_t *j, string_set *set) {
    if (json_is_string(j)) {
        if (set->count == set->cap) {
            size_t cap = set->cap ? set->cap * 2 : 64;
            const char **grown = realloc(set->items, cap * sizeof *grown);
            if (!grown) return false;
            set->items = grown;
            set->cap = cap;
        }
        set->items[set->count++] = json_string_value(j);
        return true;
    }
    size_t i;
    const char *key;
    const json_t *v;
    if (json_is_array(j)) {
        json_array_foreach(j, i, v) if (!collect_strings(v, set)) return false;
    } else if (json_is_object(j)) {
        json_object_foreach((json_t *)j, key, v) if (!collect_strings(v, set)) return false;
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
    json_t *m = json_load_file(path, 0, NULL);
    bool ours = false;
    string_set set = {0};
    if (m && json_is_integer(json_object_get(m, "unearth_manifest")) && collect_strings(m, &set)) {
        if (set.count) qsort(set.items, set.count, sizeof *set.items, compare_strings);
        ours = ue_dir_holds_only(dir, listed_in_manifest, &set);
    }
    free(set.items);
    json_decref(m);
    return ours;
}
