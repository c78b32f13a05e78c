/* unearth — finds the MSH models behind a path: a bare model file, every *.msh nested in an
 * archive (recursively), or an ARCHIVE:ENTRY address; the CLI's model verbs start here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unearth/archive.h"
#include "unearth/msh.h"
#include "common/text.h"

#define MAX_DEPTH 6

typedef struct found_list {
    ue_msh_found *items;
    size_t count;
} found_list;

static ue_result push(found_list *l, const char *name, uint8_t *data, size_t size) {
    ue_msh_found *g = realloc(l->items, (l->count + 1) * sizeof *g);
    if (!g) {
        free(data);
        return UE_ERR_NOMEM;
    }
    l->items = g;
    ue_msh_found *f = &l->items[l->count++];
    snprintf(f->name, sizeof f->name, "%s", name);
    f->data = data;
    f->size = size;
    return UE_OK;
}

/* True when the bytes are an NRes holding the core model resources. */
static bool is_model_bytes(const uint8_t *data, size_t size) {
    if (size < 16 || memcmp(data, "NRes", 4) != 0) return false;
    ue_source src = ue_source_memory(data, size);
    ue_nres n;
    if (ue_nres_parse(&src, UE_MODE_TOLERANT, &n, NULL) != UE_OK) return false;
    bool model = ue_msh_is_model(&n);
    ue_nres_free(&n);
    return model;
}

static ue_result walk(ue_archive *a, const char *display, ue_mode mode, found_list *l, ue_diag *d,
                      int depth) {
    size_t n = ue_archive_count(a);
    for (size_t i = 0; i < n; i++) {
        ue_entry_info info;
        ue_archive_entry(a, i, &info);
        if (!info.nested[0] || info.damaged) continue;
        uint8_t *data;
        size_t size;
        if (ue_archive_read(a, i, &data, &size, d) != UE_OK) continue;
        /* Entry names are Windows-1251 bytes shown escaped; a model's name is UTF-8 text. */
        char entry[256], joined[1024], name[sizeof l->items[0].name];
        ue_entry_name_to_utf8(info.name, entry, sizeof entry);
        snprintf(joined, sizeof joined, "%s:%s", display, entry);
        ue_utf8_copy(joined, name, sizeof name); /* a long chain is cut between characters */
        if (is_model_bytes(data, size)) {
            ue_result r = push(l, name, data, size);
            if (r != UE_OK) return r;
            continue;
        }
        if (depth < MAX_DEPTH) {
            ue_archive *inner;
            if (ue_archive_open_memory(data, size, name, mode, &inner, NULL) == UE_OK) {
                ue_result r = walk(inner, name, mode, l, d, depth + 1);
                ue_archive_close(inner);
                if (r != UE_OK) {
                    free(data);
                    return r;
                }
            }
        }
        free(data);
    }
    return UE_OK;
}

ue_result ue_msh_collect(const char *path, ue_mode mode, ue_msh_found **items, size_t *count,
                         ue_diag *d) {
    *items = NULL;
    *count = 0;
    ue_archive *a;
    ue_result r = ue_archive_open(path, mode, &a, d);
    if (r != UE_OK) return r;
    found_list l = {NULL, 0};
    uint8_t *data;
    size_t size;
    r = ue_archive_bytes(a, &data, &size);
    if (r == UE_OK) {
        if (is_model_bytes(data, size)) {
            r = push(&l, path, data, size);
        } else {
            free(data);
            r = walk(a, path, mode, &l, d, 0);
        }
    }
    ue_archive_close(a);
    if (r != UE_OK) {
        ue_msh_found_free(l.items, l.count);
        return r;
    }
    *items = l.items;
    *count = l.count;
    return UE_OK;
}

ue_result ue_msh_load(const char *path, ue_mode mode, ue_msh_found *item, ue_diag *d) {
    memset(item, 0, sizeof *item);
    ue_archive *a;
    ue_result r = ue_archive_open(path, mode, &a, d);
    if (r != UE_OK) return r;
    uint8_t *data;
    size_t size;
    r = ue_archive_bytes(a, &data, &size);
    ue_archive_close(a);
    if (r != UE_OK) return r;
    if (!is_model_bytes(data, size)) {
        free(data);
        return UE_ERR_UNSUPPORTED;
    }
    snprintf(item->name, sizeof item->name, "%s", path);
    item->data = data;
    item->size = size;
    return UE_OK;
}

void ue_msh_found_free(ue_msh_found *items, size_t count) {
    for (size_t i = 0; i < count; i++) free(items[i].data);
    free(items);
}
