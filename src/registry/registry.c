/* unearth — the model registry (model.h) over the families' table (families.c) and the generic
 * model walk: probing, name rules and collecting read every family's lists, naming none. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/io.h"
#include "archive/container.h"
#include "common/text.h"
#include "registry/families.h"
#include "registry/model_walk.h"
#include "unearth/archive.h"
#include "unearth/model.h"
#include "unearth/advanced/buffers.h"

#define MAX_DEPTH 6 /* containers inside containers; deeper nesting is not walked */

const ue_model_format *ue_model_format_find(const char *name) {
    const ue_model_format *f;
    for (size_t i = 0; (f = ue_family_format(i)); i++)
        if (!strcmp(f->name, name)) return f;
    return NULL;
}

/* Probe order matters: a model that is itself a container (MSH is a nested NRes) must be
 * recognised before the walk opens it as one (the families' table keeps that order). */
const ue_model_format *ue_model_probe(const uint8_t *data, size_t size) {
    const ue_model_format *f;
    for (size_t i = 0; (f = ue_family_format(i)); i++)
        if (f->probe(data, size)) return f;
    return NULL;
}

/* The first answer of a family's name rule (`named` or `plain_named`, see family.h), or NULL. */
static const ue_model_format *name_rule(const char *name, const uint8_t *data, size_t size, bool plain) {
    size_t count;
    const ue_family *const *families = ue_families(&count);
    for (size_t i = 0; i < count; i++) {
        const ue_model_format *(*rule)(const char *, const uint8_t *, size_t) =
            plain ? families[i]->plain_named : families[i]->named;
        const ue_model_format *f = rule ? rule(name, data, size) : NULL;
        if (f) return f;
    }
    return NULL;
}

/* Whether a format other than `settled` claims the bytes. */
static bool claimed_by_another(const ue_model_format *settled, const uint8_t *data, size_t size) {
    const ue_model_format *f;
    for (size_t i = 0; (f = ue_family_format(i)); i++)
        if (f != settled && f->probe(data, size)) return true;
    return false;
}

/* The probe, plus what a name says (a family's `named` rule: an NRes named *.msh is a model even
 * when it lacks the resources the probe looks for, so its parse reports what is missing). The
 * name settles it unless another format claims the bytes; asking those first gives the answer
 * of the probe order without parsing the NRes directory once more only to probe it. */
static const ue_model_format *probe_named(const char *name, const uint8_t *data, size_t size) {
    const ue_model_format *settled = name_rule(name, data, size, false);
    if (settled && !claimed_by_another(settled, data, size)) return settled;
    return ue_model_probe(data, size);
}

/* For a file that is no container, the families' `plain_named` rules as well (a cut-short
 * .dat, bare MAT0 and WEAR files); never for entries, which their container checks. */
static const ue_model_format *probe_plain(const char *name, const uint8_t *data, size_t size) {
    const ue_model_format *f = probe_named(name, data, size);
    return f ? f : name_rule(name, data, size, true);
}

size_t ue_model_title_length(const ue_model_found *m) {
    size_t len = strlen(m->name);
    return m->title_length && m->title_length < len ? m->title_length : len;
}

/* The title of `address`, an entry of `a`: the archive's own when `a` made the entry's name up
 * (a PKX's model.dat: ue_archive_names_made_up), else the whole address. */
static size_t entry_title(const ue_archive *a, size_t outer_title, const char *address) {
    size_t len = strlen(address);
    return ue_archive_names_made_up(a) && outer_title < len ? outer_title : len;
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
                    "%s has no option %s; its options: %s", f->description, key, known);
        return UE_ERR_USAGE;
    }
    return UE_OK;
}

ue_result ue_model_to_scene(const ue_model_found *m, const char *name, ue_mode mode,
                            const ue_model_options *opts, ue_scene *s, ue_diag *d) {
    ue_result r = ue_model_options_check(m->format, opts, d);
    if (r != UE_OK) return r;
    if (!m->format->to_scene) {
        ue_diag_add(d, UE_SEV_ERROR, "model.no_geometry", UE_NO_OFFSET, m->format->name,
                    "%s is a %s: it has no geometry to convert", m->name, m->format->description);
        return UE_ERR_UNSUPPORTED;
    }
    return m->format->to_scene(m->data, m->size, name, mode, opts, s, d);
}

ue_result ue_model_validate_kept(const ue_model_format *f, const uint8_t *data, size_t size, ue_mode mode,
                                 ue_model_check *out, ue_diag *d, ue_model_kept **kept) {
    if (kept) *kept = NULL;
    if (kept && f->read_once) return f->read_once->validate(data, size, mode, out, d, kept);
    return f->validate(data, size, mode, out, d);
}

ue_result ue_model_to_scene_kept(const ue_model_found *m, ue_model_kept *kept, const char *name, ue_mode mode,
                                 const ue_model_options *opts, ue_scene *s, ue_diag *d) {
    if (!kept) return ue_model_to_scene(m, name, mode, opts, s, d);
    ue_result r = ue_model_options_check(m->format, opts, d);
    if (r != UE_OK) {
        ue_model_kept_free(m->format, kept);
        return r;
    }
    return m->format->read_once->to_scene(kept, name, mode, opts, s, d);
}

void ue_model_kept_free(const ue_model_format *f, ue_model_kept *kept) {
    if (kept) f->read_once->free(kept);
}

/* ---- walking and collecting models ---------------------------------------------------- */

/* The walk lends each model's bytes to a visit; collecting is the visit that copies them. */
typedef struct walker {
    ue_mode mode;
    ue_model_visit_fn fn;
    void *ctx;
    ue_diag *d;
    ue_read_stats *stats; /* the counts of the archive walked (ue_archive_count_reads), or NULL */
} walker;

/* Names are cut as a ue_model_found's would be, so both ways of walking show the same text;
 * `title` is how much of `name` names the model (ue_model_title_length). */
static ue_result visit(const walker *w, const char *name, size_t title, const ue_model_format *f,
                       const uint8_t *data, size_t size) {
    char shown[sizeof ((ue_model_found *)0)->name];
    snprintf(shown, sizeof shown, "%s", name);
    ue_model_seen m = {shown, f, data, size, title < strlen(shown) ? title : strlen(shown)};
    return w->fn(&m, w->ctx);
}

/* "outer:ENTRY" in UTF-8: entry names are shown with Windows-1251 bytes escaped, a model's
 * name is text; a long chain is cut between characters. */
static void entry_address(const char *outer, const char *shown, char *out, size_t cap) {
    char entry[256], joined[1024];
    ue_entry_name_to_utf8(shown, entry, sizeof entry);
    snprintf(joined, sizeof joined, "%s:%s", outer, entry);
    ue_utf8_copy(joined, out, cap);
}

static ue_result walk(const walker *w, ue_archive *a, const char *display, size_t title, int depth);

/* A model that is no container (an HSD .dat, a Texm) is only found by probing its bytes: the
 * entries a family's `walk_entry` names are read and probed as well. */
static bool may_be_plain_model(const ue_entry_info *info) {
    size_t count;
    const ue_family *const *families = ue_families(&count);
    for (size_t i = 0; i < count; i++)
        if (families[i]->walk_entry && families[i]->walk_entry(info)) return true;
    return false;
}

/* One entry's bytes (lent): a model, or a container to walk where it lies, or neither. */
static ue_result visit_entry(const walker *w, const char *name, size_t title, const uint8_t *data,
                             size_t size, int depth) {
    const ue_model_format *f = probe_named(name, data, size);
    if (f) return visit(w, name, title, f, data, size);
    ue_result r = UE_OK;
    ue_archive *inner;
    if (depth < MAX_DEPTH &&
        ue_archive_open_view(data, size, name, w->mode, &inner, NULL) == UE_OK) {
        if (w->stats) ue_archive_count_reads(inner, w->stats);
        r = walk(w, inner, name, title, depth + 1);
        ue_archive_close(inner);
    }
    return r;
}

static ue_result walk(const walker *w, ue_archive *a, const char *display, size_t title, int depth) {
    size_t n = ue_archive_count(a);
    for (size_t i = 0; i < n; i++) {
        ue_entry_info info;
        ue_archive_entry(a, i, &info);
        /* Only entries that hold a container, or that the container types as a model that is
         * no container (an HSD .dat), can be (or hold) a model; damaged ones were already
         * reported by the container. */
        if (!(info.nested[0] || may_be_plain_model(&info)) || info.damaged) continue;
        const uint8_t *data;
        uint8_t *to_free;
        size_t size;
        ue_result r = ue_archive_borrow(a, i, &data, &size, &to_free, w->d);
        if (r == UE_OK) {
            char name[sizeof ((ue_model_found *)0)->name];
            entry_address(display, info.name, name, sizeof name);
            r = visit_entry(w, name, entry_title(a, title, name), data, size, depth);
        } else {
            r = UE_OK; /* an entry that cannot be read holds no model to show */
        }
        free(to_free);
        if (r != UE_OK) return r;
    }
    return UE_OK;
}

/* The bytes at `path` taken as they are, for a model that is no container: a plain file, or
 * the last entry of an OUTER:ENTRY chain (read through the archive layer, not opened), and
 * how much of `path` names them. */
static ue_result plain_bytes(const char *path, ue_mode mode, uint8_t **data, size_t *size, size_t *title) {
    *data = NULL;
    *title = strlen(path);
    ue_address at;
    ue_result split = ue_address_split(path, 0, &at);
    if (split == UE_OK && !at.last_entry) return ue_file_read(path, (size_t)1 << 30, data, size, NULL);
    char outer[4096];
    if (split == UE_ERR_USAGE || !at.last_entry || at.parent_length >= sizeof outer) return UE_ERR_UNSUPPORTED;
    memcpy(outer, path, at.parent_length);
    outer[at.parent_length] = 0;
    ue_archive *a;
    size_t index;
    ue_result r = ue_archive_open(outer, mode, &a, NULL);
    if (r != UE_OK) return r;
    r = ue_archive_find(a, at.last_entry, &index);
    if (r == UE_OK) r = ue_archive_read(a, index, data, size, NULL);
    *title = entry_title(a, ue_archive_title_length(a), path);
    ue_archive_close(a);
    return r;
}

/* Opens `path` as a container; when it is none, a model that is no container (its bytes probe
 * as one) is returned in *model_data instead, and the container's complaint is dropped.
 * `mapped`: the file is mapped once so that the walk lends stored entries where they lie. Only
 * the walk asks for it: a mapped file that shrinks under us raises SIGBUS, and collect and load
 * copy every model anyway, so they read with pread and report a shrunk file as an error. */
static ue_result open_or_plain(const char *path, ue_mode mode, bool mapped, ue_archive **a,
                               uint8_t **model_data, size_t *model_size, size_t *model_title,
                               const ue_model_format **f, ue_diag *d) {
    ue_diag tried = {0};
    *model_data = NULL;
    ue_result r = mapped ? ue_archive_open_mapped(path, mode, a, &tried)
                         : ue_archive_open(path, mode, a, &tried);
    if (r != UE_OK && r != UE_ERR_IO && plain_bytes(path, mode, model_data, model_size, model_title) == UE_OK) {
        *f = probe_plain(path, *model_data, *model_size);
        if (*f) {
            ue_diag_free(&tried);
            return UE_OK;
        }
        free(*model_data);
        *model_data = NULL;
    }
    for (size_t i = 0; i < tried.count; i++) {
        const ue_diag_item *it = &tried.items[i];
        ue_diag_add(d, it->severity, it->code, it->offset, it->path, "%s", it->message);
    }
    ue_diag_free(&tried);
    return r;
}

/* The models of an opened container: the container itself when a format claims its bytes,
 * else every model inside it. */
static ue_result walk_archive(const walker *w, ue_archive *a, const char *name) {
    /* Whether the file itself is a model is decided on a view: a 100 MB archive that is not
     * one is not read whole for it (only its header and directory are looked at). */
    const uint8_t *view;
    size_t size;
    const ue_model_format *f = NULL;
    size_t title = ue_archive_title_length(a);
    ue_result r = ue_archive_view(a, &view, &size);
    if (r == UE_OK) {
        f = probe_named(name, view, size);
        if (f) r = visit(w, name, title, f, view, size);
        ue_archive_unview(a, view);
    } else if (r == UE_ERR_UNSUPPORTED) {
        r = UE_OK; /* nothing to view: an empty file is no model */
    }
    if (r == UE_OK && !f) r = walk(w, a, name, title, 0);
    return r;
}

/* The same, closing the container. */
static ue_result walk_opened(const walker *w, ue_archive *a, const char *name) {
    ue_result r = walk_archive(w, a, name);
    ue_archive_close(a);
    return r;
}

ue_result ue_model_walk_archive(ue_archive *a, const char *name, ue_mode mode,
                                ue_model_visit_fn fn, void *ctx, ue_diag *d) {
    walker w = {mode, fn, ctx, d, ue_archive_read_stats(a)};
    return walk_archive(&w, a, name);
}

/* ---- the walk inside validation: each entry read once for both ------------------------- */

/* Where the checked walk stands: the container being walked, as walk() takes it. */
typedef struct walk_frame {
    const walker *w;
    char display[sizeof ((ue_model_found *)0)->name];
    size_t title;
    int depth;
    ue_result r; /* a visit's failure: nothing more is visited */
} walk_frame;

static bool entry_wanted(const ue_entry_info *info) { return may_be_plain_model(info); }

/* What walk() does with one entry, on the bytes validation lent: a model is visited, a
 * container's entries are walked under the frame returned (validation opens and checks it). */
static void *frame_enter(void *frame, ue_archive *a, const ue_entry_info *info, const uint8_t *data,
                         size_t size) {
    walk_frame *f = frame;
    if (f->r != UE_OK) return NULL;
    char name[sizeof f->display];
    entry_address(f->display, info->name, name, sizeof name);
    size_t title = entry_title(a, f->title, name);
    if (!info->nested[0]) { /* no container validation opens: walked here, as walk() would */
        f->r = visit_entry(f->w, name, title, data, size, f->depth);
        return NULL;
    }
    const ue_model_format *fmt = probe_named(name, data, size);
    if (fmt) {
        f->r = visit(f->w, name, title, fmt, data, size);
        return NULL;
    }
    walk_frame *child = f->depth < MAX_DEPTH ? malloc(sizeof *child) : NULL;
    if (!child) {
        if (f->depth < MAX_DEPTH) f->r = UE_ERR_NOMEM;
        return NULL;
    }
    *child = (walk_frame){f->w, "", title, f->depth + 1, UE_OK};
    memcpy(child->display, name, sizeof name);
    return child;
}

static void frame_leave(void *frame, void *child) {
    walk_frame *f = frame, *c = child;
    if (f->r == UE_OK) f->r = c->r;
    free(c);
}

void ue_archive_extract_follows(ue_archive *a) { ue_archive_extract_follows_walk(a, may_be_plain_model); }

ue_result ue_model_walk_validated(ue_archive *a, const char *name, ue_mode mode, ue_model_visit_fn fn,
                                  void *ctx, ue_result *checked, bool *walked_all, ue_diag *d) {
    walker w = {mode, fn, ctx, NULL, ue_archive_read_stats(a)};
    const uint8_t *view;
    size_t size;
    const ue_model_format *f = NULL;
    ue_result r = ue_archive_view(a, &view, &size);
    if (r == UE_OK) {
        f = probe_named(name, view, size);
        if (f) r = visit(&w, name, ue_archive_title_length(a), f, view, size);
        ue_archive_unview(a, view);
    } else if (r == UE_ERR_UNSUPPORTED) {
        r = UE_OK; /* nothing to view: an empty file is no model */
    }
    walk_frame top = {&w, "", ue_archive_title_length(a), 0, UE_OK};
    snprintf(top.display, sizeof top.display, "%s", name);
    ue_entry_visitor v = {entry_wanted, frame_enter, frame_leave, false};
    /* The file is a model itself: its entries are no models of their own (walk_archive). */
    *checked = ue_archive_validate_visit(a, f || r != UE_OK ? NULL : &v, &top, d);
    *walked_all = !v.incomplete;
    return r != UE_OK ? r : top.r;
}

ue_result ue_model_walk(const char *path, ue_mode mode, ue_model_visit_fn fn, void *ctx,
                        ue_diag *d) {
    ue_archive *a;
    uint8_t *plain;
    size_t plain_size;
    size_t title;
    const ue_model_format *pf;
    ue_result r = open_or_plain(path, mode, true, &a, &plain, &plain_size, &title, &pf, d);
    if (r != UE_OK) return r;
    walker w = {mode, fn, ctx, d, NULL};
    if (!plain) return walk_opened(&w, a, path);
    r = visit(&w, path, title, pf, plain, plain_size);
    free(plain);
    return r;
}

typedef struct found_list {
    ue_model_found *items;
    size_t count;
} found_list;

/* One found model: its name (cut to the field), its bytes (taken) and its title's length. */
static void found_fill(ue_model_found *item, const char *name, size_t title, const ue_model_format *f,
                       uint8_t *data, size_t size) {
    snprintf(item->name, sizeof item->name, "%s", name);
    item->format = f;
    item->data = data;
    item->size = size;
    item->title_length = title < strlen(item->name) ? title : strlen(item->name);
}

/* Takes `data` (freed on failure too); `title` as in ue_model_found. */
static ue_result push(found_list *l, const char *name, size_t title, const ue_model_format *f,
                      uint8_t *data, size_t size) {
    ue_model_found *grown = realloc(l->items, (l->count + 1) * sizeof *grown);
    if (!grown) {
        free(data);
        return UE_ERR_NOMEM;
    }
    l->items = grown;
    found_fill(&l->items[l->count++], name, title, f, data, size);
    return UE_OK;
}

/* The visit of collecting: the lent bytes become the item's own. */
static ue_result collect_one(const ue_model_seen *m, void *ctx) {
    uint8_t *copy = ue_malloc_items(m->size, 1);
    if (!copy) return UE_ERR_NOMEM;
    if (m->size) memcpy(copy, m->data, m->size);
    return push(ctx, m->name, m->title_length, m->format, copy, m->size);
}

static ue_result collect_opened(ue_archive *a, const char *name, ue_mode mode, ue_model_found **items,
                                size_t *count, ue_diag *d) {
    found_list l = {NULL, 0};
    walker w = {mode, collect_one, &l, d, NULL};
    ue_result r = walk_opened(&w, a, name);
    if (r != UE_OK) {
        ue_model_found_free(l.items, l.count);
        return r;
    }
    *items = l.items;
    *count = l.count;
    return UE_OK;
}

/* A model that is no container, found in place of one: the whole list. Takes `data`. */
static ue_result collect_plain(const char *name, size_t title, const ue_model_format *f, uint8_t *data,
                               size_t size, ue_model_found **items, size_t *count) {
    found_list one = {NULL, 0};
    ue_result r = push(&one, name, title, f, data, size);
    if (r == UE_OK) *items = one.items, *count = 1;
    return r;
}

ue_result ue_model_collect(const char *path, ue_mode mode, ue_model_found **items, size_t *count,
                           ue_diag *d) {
    *items = NULL;
    *count = 0;
    ue_archive *a;
    uint8_t *plain;
    size_t plain_size, title;
    const ue_model_format *pf;
    ue_result r = open_or_plain(path, mode, false, &a, &plain, &plain_size, &title, &pf, d);
    if (r != UE_OK) return r;
    if (plain) return collect_plain(path, title, pf, plain, plain_size, items, count);
    return collect_opened(a, path, mode, items, count, d);
}

ue_result ue_model_collect_memory(const uint8_t *data, size_t size, const char *name, ue_mode mode,
                                  ue_model_found **items, size_t *count, ue_diag *d) {
    *items = NULL;
    *count = 0;
    ue_archive *a;
    ue_diag tried = {0};
    /* Opened on the caller's bytes, which outlive the walk: models are copied out of them. */
    ue_result r = ue_archive_open_view(data, size, name, mode, &a, &tried);
    if (r == UE_OK) {
        ue_diag_free(&tried);
        return collect_opened(a, name, mode, items, count, d);
    }
    /* No container: the bytes may still be a model that is none (an HSD .dat). */
    const ue_model_format *f = r != UE_ERR_IO ? probe_plain(name, data, size) : NULL;
    uint8_t *copy = f ? ue_malloc_items(size, 1) : NULL;
    if (copy) {
        ue_diag_free(&tried);
        memcpy(copy, data, size);
        return collect_plain(name, strlen(name), f, copy, size, items, count);
    }
    ue_diag_append(d, &tried, UE_SEV_INFO);
    ue_diag_free(&tried);
    return f ? UE_ERR_NOMEM : r;
}

ue_result ue_model_load(const char *path, ue_mode mode, ue_model_found *item, ue_diag *d) {
    memset(item, 0, sizeof *item);
    ue_archive *a;
    uint8_t *data;
    size_t size, title;
    const ue_model_format *f = NULL;
    ue_result r = open_or_plain(path, mode, false, &a, &data, &size, &title, &f, d);
    if (r != UE_OK) return r;
    if (!data) {
        title = ue_archive_title_length(a);
        r = ue_archive_bytes(a, &data, &size);
        ue_archive_close(a);
        if (r != UE_OK) return r;
        f = probe_named(path, data, size);
    }
    if (!f) {
        free(data);
        return UE_ERR_UNSUPPORTED;
    }
    found_fill(item, path, title, f, data, size);
    return UE_OK;
}

void ue_model_found_free(ue_model_found *items, size_t count) {
    for (size_t i = 0; i < count; i++) free(items[i].data);
    free(items);
}
