/* unearth CLI — the directory walk of a batch: every file below the roots in a fixed order, a
 * record for whatever cannot be read, and symbolic links to directories followed only on request,
 * each directory then entered once (device + inode), so a link loop ends. */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/batch.h"

/* ---- records ------------------------------------------------------------------------------ */

bool batch_records_push(batch_records *l, batch_record *r) {
    if (l->count == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 256; /* doubling: linear work for any folder */
        batch_record **grown = realloc(l->items, cap * sizeof *grown);
        if (!grown) return false;
        l->items = grown;
        l->cap = cap;
    }
    l->items[l->count++] = r;
    return true;
}

batch_record *batch_record_add(batch_records *l, batch_kind kind, const char *input) {
    batch_record *r = calloc(1, sizeof *r);
    char *copy = strdup(input);
    if (!r || !copy || !batch_records_push(l, r)) {
        free(r), free(copy);
        return NULL;
    }
    r->kind = kind;
    r->input = copy;
    return r;
}

static void forget_images(batch_record *r) {
    for (size_t i = 0; i < r->image_count; i++) free(r->images[i]);
    free(r->images);
    free(r->image_ids);
    r->images = NULL;
    r->image_ids = NULL;
    r->image_count = 0;
}

void batch_record_unname(batch_record *r) {
    free(r->output);
    free(r->companion);
    r->output = r->companion = NULL;
    forget_images(r);
    free(r->gallery.thumbnail);
    r->gallery.thumbnail = NULL;
}

bool batch_record_set_images(batch_record *r, const char *const *paths, size_t count) {
    forget_images(r);
    if (!count) return true;
    r->images = calloc(count, sizeof *r->images);
    r->image_ids = calloc(count, sizeof *r->image_ids);
    bool ok = r->images && r->image_ids;
    for (size_t i = 0; ok && i < count; i++) ok = (r->images[r->image_count++] = strdup(paths[i])) != NULL;
    if (!ok) forget_images(r);
    return ok;
}

size_t batch_record_side_count(const batch_record *r) { return r->image_count + (r->companion != NULL); }

const char *batch_record_side(const batch_record *r, size_t i, const batch_file_id **id) {
    bool image = i < r->image_count;
    if (id) *id = image ? &r->image_ids[i] : &r->companion_id;
    return image ? r->images[i] : r->companion;
}

void batch_record_set(batch_record *r, batch_status status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->reason, sizeof r->reason, fmt, ap);
    va_end(ap);
    r->status = status;
}

void batch_record_fail(batch_record *r, ue_result result) {
    r->status = BATCH_FAILED;
    for (size_t i = 0; i < r->diag.count; i++)
        if (r->diag.items[i].severity == UE_SEV_ERROR) {
            ue_diag_format(&r->diag.items[i], r->reason, sizeof r->reason);
            return;
        }
    snprintf(r->reason, sizeof r->reason, "%s", ue_result_name(result));
}

void batch_record_left(batch_record *r, const char *root, const char *path) {
    char full[8300];
    snprintf(full, sizeof full, "%s/%s", root, path);
    ue_diag_add(&r->diag, UE_SEV_WARNING, "io.output.not_ours", UE_NO_OFFSET, full,
                "a file that is not this batch's output stands here (changed since the batch placed it, "
                "or put here by somebody else); left as it is, the model not converted");
    snprintf(r->reason, sizeof r->reason, "%s: not this batch's output (changed since it was placed, or put "
             "there by somebody else); left as it is", full);
    r->status = BATCH_LEFT;
}

void batch_records_free(batch_records *l) {
    for (size_t i = 0; i < l->count; i++) {
        if (!l->items[i]) continue; /* moved to another list */
        free(l->items[i]->input);
        free(l->items[i]->rel);
        free(l->items[i]->source.path);
        batch_record_unname(l->items[i]);
        free(l->items[i]->json);
        for (size_t k = 0; k < l->items[i]->gallery.warning_count; k++) free(l->items[i]->gallery.warnings[k]);
        free(l->items[i]->gallery.warnings);
        ue_diag_free(&l->items[i]->diag);
        free(l->items[i]);
    }
    free(l->items);
    l->items = NULL;
    l->count = l->cap = 0;
}

/* ---- the walk ----------------------------------------------------------------------------- */

typedef struct walk {
    bool follow_links;
    batch_names *seen; /* every directory entered, as "DEVICE:INODE" (a hash set: linear work) */
    batch_names *real; /* --follow-links: every directory reachable from the roots without a link */
    batch_records *out;
    bool nomem;
} walk;

enum { MAX_WALK_DEPTH = 256 }; /* deeper trees are reported, not descended (stack bound) */

static void dir_key(const struct stat *st, char key[64]) {
    snprintf(key, 64, "%llx:%llx", (unsigned long long)st->st_dev, (unsigned long long)st->st_ino);
}

/* Marks a directory entered; false when it was entered before (a loop or a second link). */
static bool first_visit(walk *w, const struct stat *st) {
    char key[64];
    dir_key(st, key);
    if (batch_names_has(w->seen, key)) return false;
    if (batch_names_reserve(w->seen, key) != UE_OK) w->nomem = true;
    return !w->nomem;
}

static batch_record *note(walk *w, batch_kind kind, const char *path, batch_status status,
                          const char *why) {
    batch_record *r = batch_record_add(w->out, kind, path);
    if (!r) w->nomem = true;
    else batch_record_set(r, status, "%s", why);
    return r;
}

static void add_file(walk *w, const char *path, const char *rel, const struct stat *st) {
    batch_record *r = batch_record_add(w->out, BATCH_FILE, path);
    if (r && !(r->rel = strdup(rel))) w->nomem = true;
    if (!r) w->nomem = true;
    if (r) r->size = (uint64_t)st->st_size;
}

static int by_name(const struct dirent **a, const struct dirent **b) {
    return strcmp((*a)->d_name, (*b)->d_name); /* bytes, not the locale: the same order everywhere */
}

static int not_hidden(const struct dirent *e) { return e->d_name[0] != '.'; }

static void walk_dir(walk *w, const char *path, const char *rel, int depth);

/* Only the root "/" ends in a slash (tidy_root): its children are "/x", not "//x". */
static bool ends_in_slash(const char *path) { return path[0] && path[strlen(path) - 1] == '/'; }

/* Whether a directory a link leads to is also reached by real folders alone: then that path
 * is where its models land, whichever of the two comes first in byte order. */
static bool reached_without_link(const walk *w, const struct stat *st) {
    char key[64];
    dir_key(st, key);
    return w->real && batch_names_has(w->real, key);
}

/* --follow-links, before the walk: every directory below `path` reached without a link goes
 * into w->real (one more listing per directory, and only with that option). */
static void mark_real(walk *w, const char *path, int depth) {
    struct dirent **names;
    int n = depth > MAX_WALK_DEPTH ? -1 : scandir(path, &names, not_hidden, by_name);
    for (int i = 0; i < n; i++) {
        char child[4096];
        struct stat st;
        int a = snprintf(child, sizeof child, "%s%s%s", path, ends_in_slash(path) ? "" : "/", names[i]->d_name);
        bool dir_like = names[i]->d_type == DT_DIR || names[i]->d_type == DT_UNKNOWN;
        if (!w->nomem && dir_like && a > 0 && (size_t)a < sizeof child && lstat(child, &st) == 0 &&
            S_ISDIR(st.st_mode)) {
            char key[64];
            dir_key(&st, key);
            if (batch_names_has(w->real, key)) {
                free(names[i]);
                continue; /* a bind mount seen twice: once is enough */
            }
            if (batch_names_reserve(w->real, key) != UE_OK) w->nomem = true;
            else mark_real(w, child, depth + 1);
        }
        free(names[i]);
    }
    if (n >= 0) free(names);
}


/* One name found in a directory: `path` on disk, `rel` its mirrored path. A regular file as
 * the directory says (d_type) is recorded without a stat, its size 0 (unknown): the reader
 * learns it when it opens the file, so a file costs the walk no system call. */
static void walk_child(walk *w, const char *path, const char *rel, unsigned char type, int depth) {
    struct stat lst, st;
    if (type == DT_REG) {
        lst.st_size = 0;
        add_file(w, path, rel, &lst);
        return;
    }
    if (lstat(path, &lst) != 0) {
        note(w, BATCH_FILE, path, BATCH_FAILED, strerror(errno));
        return;
    }
    bool link = S_ISLNK(lst.st_mode);
    if (link && stat(path, &st) != 0) {
        note(w, BATCH_LINK, path, BATCH_SKIPPED, "symbolic link to nothing");
        return;
    }
    if (!link) st = lst;
    if (S_ISDIR(st.st_mode)) {
        if (link && !w->follow_links)
            note(w, BATCH_LINK, path, BATCH_SKIPPED,
                 "symbolic link to a directory, not followed (use --follow-links)");
        else if (link && reached_without_link(w, &st))
            note(w, BATCH_LINK, path, BATCH_SKIPPED,
                 "directory already visited (by its own path, which wins over a link to it)");
        else if (!first_visit(w, &st))
            note(w, link ? BATCH_LINK : BATCH_DIRECTORY, path, BATCH_SKIPPED,
                 "directory already visited (a link loop or a second link to it)");
        else walk_dir(w, path, rel, depth + 1);
    } else if (S_ISREG(st.st_mode)) {
        add_file(w, path, rel, &st);
    } else {
        note(w, BATCH_FILE, path, BATCH_SKIPPED, "not a regular file");
    }
}

static void walk_dir(walk *w, const char *path, const char *rel, int depth) {
    if (depth > MAX_WALK_DEPTH) {
        note(w, BATCH_DIRECTORY, path, BATCH_FAILED, "directories nested too deep");
        return;
    }
    struct dirent **names;
    int n = scandir(path, &names, not_hidden, by_name);
    if (n < 0) {
        char why[300];
        snprintf(why, sizeof why, "cannot read directory: %s", strerror(errno));
        note(w, BATCH_DIRECTORY, path, BATCH_FAILED, why);
        return;
    }
    for (int i = 0; i < n; i++) {
        char child[4096], child_rel[4096];
        int a = snprintf(child, sizeof child, "%s%s%s", path, ends_in_slash(path) ? "" : "/", names[i]->d_name);
        int b = snprintf(child_rel, sizeof child_rel, "%s%s%s", rel, rel[0] ? "/" : "", names[i]->d_name);
        if (a < 0 || b < 0 || (size_t)a >= sizeof child || (size_t)b >= sizeof child_rel)
            note(w, BATCH_FILE, path, BATCH_FAILED, "path too long");
        else if (!w->nomem)
            walk_child(w, child, child_rel, names[i]->d_type, depth);
        free(names[i]);
    }
    free(names);
}

/* The last component of a root, which names it in OUT when there are several. */
static const char *root_name(const char *root, char *buf, size_t cap) {
    snprintf(buf, cap, "%s", root);
    size_t n = strlen(buf);
    while (n > 1 && buf[n - 1] == '/') buf[--n] = 0;
    const char *slash = strrchr(buf, '/');
    const char *name = slash && slash[1] ? slash + 1 : buf;
    /* "." and ".." name no folder: the root's real name is unknown here, so "input" stands in. */
    return !strcmp(name, ".") || !strcmp(name, "..") || !strcmp(name, "/") ? "input" : name;
}

/* A root as given, without repeated or trailing slashes ("demo//x/" is "demo/x", "/" stays), so
 * no path below it is printed or recorded with a doubled slash. */
static const char *tidy_root(const char *root, char *buf, size_t cap) {
    if (strlen(root) >= cap) return root; /* too long to be a path: as given, its stat fails */
    size_t n = 0;
    for (const char *c = root; *c; c++)
        if (!(*c == '/' && n > 0 && buf[n - 1] == '/')) buf[n++] = *c;
    buf[n] = 0;
    while (n > 1 && buf[n - 1] == '/') buf[--n] = 0;
    return buf;
}

/* A root named on the command line is followed even when it is a link: the user chose it. */
static void walk_root(walk *w, const char *root, bool several) {
    char buf[4096];
    const char *name = root_name(root, buf, sizeof buf);
    struct stat st;
    if (stat(root, &st) != 0 && strchr(root, ':')) {
        /* ARCHIVE:ENTRY: read through the archive layer (its size is unknown here). */
        st.st_size = (off_t)INT64_MAX;
        add_file(w, root, name, &st);
    } else if (stat(root, &st) != 0) {
        note(w, BATCH_FILE, root, BATCH_FAILED, strerror(errno));
    } else if (S_ISDIR(st.st_mode)) {
        if (first_visit(w, &st)) walk_dir(w, root, several ? name : "", 0);
        else note(w, BATCH_DIRECTORY, root, BATCH_SKIPPED, "directory already visited");
    } else if (S_ISREG(st.st_mode)) {
        add_file(w, root, name, &st);
    } else {
        note(w, BATCH_FILE, root, BATCH_SKIPPED, "not a regular file");
    }
}

/* A root is a real path (the user chose it), and so is everything below it without a link. */
static void mark_roots(walk *w, const char *root) {
    struct stat st;
    if (stat(root, &st) != 0 || !S_ISDIR(st.st_mode)) return;
    char key[64];
    dir_key(&st, key);
    if (batch_names_has(w->real, key)) return;
    if (batch_names_reserve(w->real, key) != UE_OK) w->nomem = true;
    else mark_real(w, root, 0);
}

ue_result batch_walk(const char *const *roots, size_t root_count, bool follow_links,
                     batch_records *out) {
    walk w = {follow_links, batch_names_new(), follow_links ? batch_names_new() : NULL, out, false};
    w.nomem = !w.seen || (follow_links && !w.real);
    for (size_t i = 0; i < root_count && !w.nomem && follow_links; i++) mark_roots(&w, roots[i]);
    for (size_t i = 0; i < root_count && !w.nomem; i++) {
        char root[4096];
        walk_root(&w, tidy_root(roots[i], root, sizeof root), root_count > 1);
    }
    batch_names_free(w.seen);
    if (w.real) batch_names_free(w.real);
    return w.nomem ? UE_ERR_NOMEM : UE_OK;
}
