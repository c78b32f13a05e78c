/* unearth — the table of model formats and the generic model walk (model.h): the one file of
 * the library that names every family's models; adding a family adds one line here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/container.h"
#include "common/text.h"
#include "unearth/archive.h"
#include "unearth/model.h"
#include "unearth/msh.h"

/* Probe order matters: a model that is itself a container (MSH is a nested NRes) must be
 * recognised before the walk opens it as one. */
static const ue_model_format *const formats[] = {
    &ue_msh_model_format,
};

#define FORMAT_COUNT (sizeof formats / sizeof formats[0])
#define MAX_DEPTH 6 /* containers inside containers; deeper nesting is not walked */

const ue_model_format *const *ue_model_formats(size_t *count) {
    *count = FORMAT_COUNT;
    return formats;
}

const ue_model_format *ue_model_format_find(const char *name) {
    for (size_t i = 0; i < FORMAT_COUNT; i++)
        if (!strcmp(formats[i]->name, name)) return formats[i];
    return NULL;
}

const ue_model_format *ue_model_probe(const uint8_t *data, size_t size) {
    for (size_t i = 0; i < FORMAT_COUNT; i++)
        if (formats[i]->probe(data, size)) return formats[i];
    return NULL;
}

static bool format_has_option(const ue_model_format *f, const char *key) {
    for (size_t i = 0; i < f->option_count; i++)
        if (!strcmp(f->options[i].key, key)) return true;
    return false;
}

ue_result ue_model_options_check(const ue_model_format *f, const ue_model_options *opts,
                                 ue_diag *d) {
    for (size_t i = 0; opts && i < opts->count; i++) {
        const char *key = opts->items[i].key ? opts->items[i].key : "";
        if (format_has_option(f, key)) continue;
        char known[160] = "none";
        size_t at = 0;
        for (size_t k = 0; k < f->option_count && at < sizeof known; k++) {
            int w = snprintf(known + at, sizeof known - at, "%s%s", k ? ", " : "", f->options[k].key);
            at = w < 0 ? sizeof known : at + (size_t)w;
        }
        ue_diag_add(d, UE_SEV_ERROR, "model.option.unknown", UE_NO_OFFSET, f->name,
                    "a %s (%s) has no option %s; its options: %s", f->name, f->description, key, known);
        return UE_ERR_USAGE;
    }
    return UE_OK;
}

ue_result ue_model_to_scene(const ue_model_found *m, const char *name, ue_mode mode,
                            const ue_model_options *opts, ue_scene *s, ue_diag *d) {
    ue_result r = ue_model_options_check(m->format, opts, d);
    if (r != UE_OK) return r;
    return m->format->to_scene(m->data, m->size, name, mode, opts, s, d);
}

/* ---- collecting models ---------------------------------------------------------------- */

typedef struct found_list {
    ue_model_found *items;
    size_t count;
} found_list;

/* Takes `data` (freed on failure too). */
static ue_result push(found_list *l, const char *name, const ue_model_format *f, uint8_t *data,
                      size_t size) {
    ue_model_found *grown = realloc(l->items, (l->count + 1) * sizeof *grown);
    if (!grown) {
        free(data);
        return UE_ERR_NOMEM;
    }
    l->items = grown;
    ue_model_found *item = &l->items[l->count++];
    snprintf(item->name, sizeof item->name, "%s", name);
    item->format = f;
    item->data = data;
    item->size = size;
    return UE_OK;
}

/* "outer:ENTRY" in UTF-8: entry names are shown with Windows-1251 bytes escaped, a model's
 * name is text; a long chain is cut between characters. */
static void entry_address(const char *outer, const char *shown, char *out, size_t cap) {
    char entry[256], joined[1024];
    ue_entry_name_to_utf8(shown, entry, sizeof entry);
    snprintf(joined, sizeof joined, "%s:%s", outer, entry);
    ue_utf8_copy(joined, out, cap);
}

static ue_result walk(ue_archive *a, const char *display, ue_mode mode, found_list *l, ue_diag *d,
                      int depth);

/* One entry's bytes (taken): a model, or a container to walk, or neither. */
static ue_result visit_entry(const char *name, uint8_t *data, size_t size, ue_mode mode,
                             found_list *l, ue_diag *d, int depth) {
    const ue_model_format *f = ue_model_probe(data, size);
    if (f) return push(l, name, f, data, size);
    ue_result r = UE_OK;
    ue_archive *inner;
    if (depth < MAX_DEPTH && ue_archive_open_memory(data, size, name, mode, &inner, NULL) == UE_OK) {
        r = walk(inner, name, mode, l, d, depth + 1);
        ue_archive_close(inner);
    }
    free(data);
    return r;
}

static ue_result walk(ue_archive *a, const char *display, ue_mode mode, found_list *l, ue_diag *d,
                      int depth) {
    size_t n = ue_archive_count(a);
    for (size_t i = 0; i < n; i++) {
        ue_entry_info info;
        ue_archive_entry(a, i, &info);
        /* Only entries that hold a container can be (or hold) a model; damaged ones were
         * already reported by the container. */
        if (!info.nested[0] || info.damaged) continue;
        uint8_t *data;
        size_t size;
        if (ue_archive_read(a, i, &data, &size, d) != UE_OK) continue;
        char name[sizeof l->items[0].name];
        entry_address(display, info.name, name, sizeof name);
        ue_result r = visit_entry(name, data, size, mode, l, d, depth);
        if (r != UE_OK) return r;
    }
    return UE_OK;
}

/* The models of an opened container: the container itself when a format claims its bytes,
 * else every model inside it. */
static ue_result collect_opened(ue_archive *a, const char *name, ue_mode mode, ue_model_found **items,
                                size_t *count, ue_diag *d) {
    found_list l = {NULL, 0};
    /* Whether the file itself is a model is decided on a view: a 100 MB archive that is not
     * one is not read whole for it (only its header and directory are looked at). */
    const uint8_t *view;
    size_t size;
    const ue_model_format *f = NULL;
    ue_result r = ue_archive_view(a, &view, &size);
    if (r == UE_OK) {
        f = ue_model_probe(view, size);
        ue_archive_unview(a, view);
    } else if (r == UE_ERR_UNSUPPORTED) {
        r = UE_OK; /* nothing to view: an empty file is no model */
    }
    uint8_t *data;
    if (r == UE_OK && f) {
        r = ue_archive_bytes(a, &data, &size);
        if (r == UE_OK) r = push(&l, name, f, data, size);
    } else if (r == UE_OK) {
        r = walk(a, name, mode, &l, d, 0);
    }
    ue_archive_close(a);
    if (r != UE_OK) {
        ue_model_found_free(l.items, l.count);
        return r;
    }
    *items = l.items;
    *count = l.count;
    return UE_OK;
}

ue_result ue_model_collect(const char *path, ue_mode mode, ue_model_found **items, size_t *count,
                           ue_diag *d) {
    *items = NULL;
    *count = 0;
    ue_archive *a;
    ue_result r = ue_archive_open(path, mode, &a, d);
    return r == UE_OK ? collect_opened(a, path, mode, items, count, d) : r;
}

ue_result ue_model_collect_memory(const uint8_t *data, size_t size, const char *name, ue_mode mode,
                                  ue_model_found **items, size_t *count, ue_diag *d) {
    *items = NULL;
    *count = 0;
    ue_archive *a;
    ue_result r = ue_archive_open_memory(data, size, name, mode, &a, d);
    return r == UE_OK ? collect_opened(a, name, mode, items, count, d) : r;
}

ue_result ue_model_load(const char *path, ue_mode mode, ue_model_found *item, ue_diag *d) {
    memset(item, 0, sizeof *item);
    ue_archive *a;
    ue_result r = ue_archive_open(path, mode, &a, d);
    if (r != UE_OK) return r;
    uint8_t *data;
    size_t size;
    r = ue_archive_bytes(a, &data, &size);
    ue_archive_close(a);
    if (r != UE_OK) return r;
    const ue_model_format *f = ue_model_probe(data, size);
    if (!f) {
        free(data);
        return UE_ERR_UNSUPPORTED;
    }
    snprintf(item->name, sizeof item->name, "%s", path);
    item->format = f;
    item->data = data;
    item->size = size;
    return UE_OK;
}

void ue_model_found_free(ue_model_found *items, size_t count) {
    for (size_t i = 0; i < count; i++) free(items[i].data);
    free(items);
}
