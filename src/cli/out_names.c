/* unearth CLI — the one naming rule of outputs (docs/text.md#outputs-of-one-run): names given out
 * once per run, compared ignoring case; a later output that would meet one takes "~2", "~3", ... */
#define _DEFAULT_SOURCE
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/out_names.h"
#include "unearth/advanced/text.h"
#include "unearth/gltf.h"
#include "unearth/model.h"
#include "unearth/obj.h"

/* ---- the tables ------------------------------------------------------------------------- */

static ue_result table_init(out_name_table *t, size_t cap) {
    t->cap = cap;
    t->count = 0;
    t->slots = calloc(cap, sizeof *t->slots);
    return t->slots ? UE_OK : UE_ERR_NOMEM;
}

static void table_free(out_name_table *t) {
    for (size_t i = 0; t->slots && i < t->cap; i++) {
        free(t->slots[i].key);
        free(t->slots[i].path);
    }
    free(t->slots);
    t->slots = NULL;
}

static out_name_slot *slot_of(out_name_slot *slots, size_t cap, const char *key) {
    size_t i = (size_t)ue_xxh64(key, strlen(key), 0) & (cap - 1);
    while (slots[i].key && strcmp(slots[i].key, key)) i = (i + 1) & (cap - 1);
    return &slots[i];
}

/* The slot of `key`: filled when the key is in the table, else the free one it would take. */
static out_name_slot *table_slot(const out_name_table *t, const char *key) { return slot_of(t->slots, t->cap, key); }

/* Room for one more key (at most half full). */
static ue_result table_room(out_name_table *t) {
    if ((t->count + 1) * 2 <= t->cap) return UE_OK;
    size_t cap = t->cap * 2;
    out_name_slot *slots = calloc(cap, sizeof *slots);
    if (!slots) return UE_ERR_NOMEM;
    for (size_t i = 0; i < t->cap; i++)
        if (t->slots[i].key) *slot_of(slots, cap, t->slots[i].key) = t->slots[i];
    free(t->slots);
    t->slots = slots;
    t->cap = cap;
    return UE_OK;
}

/* Files `key` (taken, freed when it was filed already or on failure) with `path` (copied, may
 * be NULL) and `kind`; an existing entry is left as it is unless `replace`. */
static ue_result table_put(out_name_table *t, char *key, const char *path, int kind, bool replace) {
    if (table_room(t) != UE_OK) {
        free(key);
        return UE_ERR_NOMEM;
    }
    out_name_slot *s = table_slot(t, key);
    if (s->key && !replace) {
        free(key);
        return UE_OK;
    }
    char *copy = path ? strdup(path) : NULL;
    if (path && !copy) {
        free(key);
        return UE_ERR_NOMEM;
    }
    if (s->key) {
        free(key);
        free(s->path);
    } else {
        s->key = key;
        t->count++;
    }
    s->path = copy;
    s->kind = kind;
    return UE_OK;
}

/* A key of the tables, malloc'd: `fmt` printed, then folded (ue_file_name_fold keeps lengths)
 * when `fold`. */
static char *key_printf(bool fold, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *text = len < 0 ? NULL : malloc((size_t)len + 1);
    if (!text) return NULL;
    va_start(ap, fmt);
    vsnprintf(text, (size_t)len + 1, fmt, ap);
    va_end(ap);
    if (!fold) return text;
    char *folded = malloc((size_t)len + 1);
    if (folded) ue_file_name_fold(text, folded, (size_t)len + 1);
    free(text);
    return folded;
}

/* ---- the set ----------------------------------------------------------------------------- */

ue_result out_names_init(out_names *n) {
    memset(n, 0, sizeof *n);
    if (table_init(&n->given, 256) == UE_OK && table_init(&n->next, 64) == UE_OK) return UE_OK;
    out_names_free(n);
    return UE_ERR_NOMEM;
}

void out_names_free(out_names *n) {
    table_free(&n->given);
    table_free(&n->next);
}

int out_names_kind(const out_names *n, const char *path, const char **given) {
    char *key = key_printf(true, "%s", path);
    const out_name_slot *s = key ? table_slot(&n->given, key) : NULL;
    free(key);
    if (s && !s->key) s = NULL;
    if (given) *given = s ? s->path : NULL;
    return s ? s->kind : 0;
}

ue_result out_names_add(out_names *n, const char *path, int kind) {
    char *key = key_printf(true, "%s", path);
    return key ? table_put(&n->given, key, path, kind, false) : UE_ERR_NOMEM;
}

/* ---- where a "~N" sequence goes on ------------------------------------------------------- */

/* Keys of n->next, one letter first so that the kinds never meet: a file sequence is
 * "f" + folded DIR/STEM + "\x01" + EXT, a folder sequence "d" + folded DIR/PART, a folder's
 * spelling "s" + DIR/PART as it is. */

/* The number a sequence goes on from: every smaller one is taken (names are never given back). */
static int sequence_next(const out_names *n, const char *seq) {
    const out_name_slot *s = table_slot(&n->next, seq);
    return s->key ? s->kind : 1;
}

/* Records that `number` of sequence `seq` was given out (takes `seq`). */
static ue_result sequence_taken(out_names *n, char *seq, int number) {
    if (number < sequence_next(n, seq)) {
        free(seq);
        return UE_OK;
    }
    return table_put(&n->next, seq, NULL, number + 1, true);
}

/* ---- one file and its companion ---------------------------------------------------------- */

void out_names_companion(const char *file, const char *ext, char *out, size_t cap) {
    out[0] = 0;
    if (!strcmp(ext, "obj")) ue_obj_mtl_file_name(file, out, cap);
    else if (!strcmp(ext, "gltf") && !ue_gltf_bin_path(file, out, cap)) out[0] = 0;
}

static bool is_free(const out_names *n, const char *path) {
    return !path[0] || !out_names_kind(n, path, NULL);
}

ue_result out_names_place_file(out_names *n, const char *dir, const char *stem, const char *ext,
                               char *out, size_t out_cap, char *companion, size_t companion_cap) {
    const char *sep = dir[0] ? "/" : "";
    char *seq = key_printf(true, "f%s%s%s\x01%s", dir, sep, stem, ext);
    if (!seq) return UE_ERR_NOMEM;
    /* Past INT_MAX (never met: the names would not fit in memory) the path is "too long". */
    for (int again = sequence_next(n, seq); again < INT_MAX; again++) {
        char file[600], side[600];
        if (again == 1) snprintf(file, sizeof file, "%s.%s", stem, ext);
        else snprintf(file, sizeof file, "%s~%d.%s", stem, again, ext);
        out_names_companion(file, ext, side, sizeof side);
        int a = snprintf(out, out_cap, "%s%s%s", dir, sep, file);
        int b = side[0] ? snprintf(companion, companion_cap, "%s%s%s", dir, sep, side)
                        : snprintf(companion, companion_cap, "%s", "");
        if (a < 0 || b < 0 || (size_t)a >= out_cap || (size_t)b >= companion_cap) break;
        n->tries++;
        if (!is_free(n, out) || !is_free(n, companion)) continue;
        ue_result r = out_names_add(n, out, OUT_NAME_FILE);
        if (r == UE_OK && companion[0]) r = out_names_add(n, companion, OUT_NAME_FILE);
        if (r == UE_OK) return sequence_taken(n, seq, again);
        free(seq);
        return r;
    }
    free(seq);
    return UE_ERR_USAGE;
}

/* ---- one folder -------------------------------------------------------------------------- */

/* Tries folder number `again` of PART below dir[0..at): 1 when shared or made, 0 when taken
 * by another name, -1 when the path does not fit; *r is the result of making it. */
static int try_dir(out_names *n, char *dir, size_t cap, size_t at, const char *part, int again,
                   out_names_make_dir_fn make, void *ctx, ue_result *r) {
    const char *sep = at ? "/" : "";
    int w = again == 1 ? snprintf(dir + at, cap - at, "%s%s", sep, part)
                       : snprintf(dir + at, cap - at, "%s%s~%d", sep, part, again);
    if (w < 0 || (size_t)w >= cap - at) return -1;
    n->tries++;
    const char *given;
    int kind = out_names_kind(n, dir, &given);
    if (kind == OUT_NAME_DIR && !strcmp(given, dir)) return 1;
    if (kind) return 0;
    *r = make(dir, ctx);
    if (*r == UE_OK) *r = out_names_add(n, dir, OUT_NAME_DIR);
    return 1;
}

ue_result out_names_place_dir(out_names *n, char *dir, size_t cap, const char *part,
                              out_names_make_dir_fn make, void *ctx) {
    size_t at = strlen(dir);
    char *spelling = key_printf(false, "s%s%s%s", dir, at ? "/" : "", part);
    if (!spelling) return UE_ERR_NOMEM;
    const out_name_slot *had = table_slot(&n->next, spelling);
    if (had->key) {
        bool fits = strlen(had->path) < cap;
        if (fits) memcpy(dir, had->path, strlen(had->path) + 1);
        free(spelling);
        return fits ? UE_OK : UE_ERR_USAGE;
    }
    char *seq = key_printf(true, "d%s%s%s", dir, at ? "/" : "", part);
    ue_result r = seq ? UE_OK : UE_ERR_NOMEM;
    /* PART itself first (shared when it is this very folder), then on from where the sequence
     * stopped: the numbers below are names given out to others. */
    int again = 1, found = 0;
    while (r == UE_OK && !found) {
        found = try_dir(n, dir, cap, at, part, again, make, ctx, &r);
        if (found) break;
        int next = sequence_next(n, seq);
        again = again == 1 && next > 2 ? next : again + 1;
        if (again == INT_MAX) found = -1; /* never met: the names would not fit in memory */
    }
    if (r == UE_OK && found != 1) r = UE_ERR_USAGE;
    if (r == UE_OK) {
        r = sequence_taken(n, seq, again); /* takes seq */
        seq = NULL;
    }
    /* A folder past PART itself is found again at once the next time this spelling comes. */
    if (r == UE_OK && again > 1) {
        r = table_put(&n->next, spelling, dir, OUT_NAME_DIR, false); /* takes spelling */
        spelling = NULL;
    }
    free(seq);
    free(spelling);
    return r;
}

/* ---- a model's own name ------------------------------------------------------------------ */

void out_names_model_title(const ue_model_found *m, char *out, size_t cap) {
    char title[sizeof m->name];
    snprintf(title, sizeof title, "%.*s", (int)ue_model_title_length(m), m->name);
    ue_utf8_copy(ue_address_leaf(title), out, cap);
}

void out_names_model_stem(const ue_model_found *m, char *stem, size_t cap) {
    char base[512];
    out_names_model_title(m, base, sizeof base);
    char *dot = strrchr(base, '.');
    if (dot && dot != base) *dot = 0;
    if (ue_file_name_component(base, stem, cap) == 0) snprintf(stem, cap, "model");
}
