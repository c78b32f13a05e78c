/* unearth — output safety: an output may not be its input or hold it, and only an empty
 * directory or one this command made may be replaced (ue_path_within). POSIX only. */
#define _GNU_SOURCE /* copy_file_range */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "unearth/common.h"
#include "common/bytes.h"
#include "common/io.h"
#include "common/io_internal.h"
#include "common/write_pool.h"

/* ---- output safety ----------------------------------------------------------------------- */

typedef struct file_id {
    dev_t dev;
    ino_t ino;
} file_id;

static bool file_id_of(const char *path, file_id *id) {
    struct stat st;
    if (stat(path, &st) != 0) return false;
    id->dev = st.st_dev;
    id->ino = st.st_ino;
    return true;
}

static bool same_file(const file_id *a, const file_id *b) {
    return a->dev == b->dev && a->ino == b->ino;
}

/* Cuts the last component off a canonical path ("/a/b" -> "/a", "/a" -> "/"); false at "/". */
static bool parent_of(char *path) {
    char *slash = strrchr(path, '/');
    if (!slash || (slash == path && path[1] == 0)) return false;
    if (slash == path) slash[1] = 0;
    else *slash = 0;
    return true;
}

/* True when `id` is the canonical path `path` or one of its ancestors. */
static bool is_path_or_ancestor(const char *path, const file_id *id) {
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    do {
        file_id here;
        if (file_id_of(buf, &here) && same_file(&here, id)) return true;
    } while (parent_of(buf));
    return false;
}

/* The part of an OUTER:ENTRY chain that exists on disk (the address rule), canonicalised;
 * false if none does. */
static bool input_real_path(const char *input, char out[PATH_MAX]) {
    ue_address at;
    return ue_address_split(input, 0, &at) == UE_OK && realpath(at.file, out) != NULL;
}

/* Appends one component to the canonical path `out`, resolving it as the kernel would: "."
 * stays, ".." climbs, an existing name is canonicalised (links followed), and a name that
 * does not exist yet is appended as it is: it cannot be a link, so a later ".." simply
 * comes back (so "new/../x" is "x", where the kernel will put it once "new" is made). */
static bool append_component(char out[PATH_MAX], const char *name, size_t len) {
    if (len == 0 || (len == 1 && name[0] == '.')) return true;
    if (len == 2 && name[0] == '.' && name[1] == '.') {
        parent_of(out);
        return true;
    }
    size_t at = strlen(out);
    if (at + 1 + len + 1 > PATH_MAX) return false;
    if (at > 1) out[at++] = '/'; /* "/" itself already ends in one */
    memcpy(out + at, name, len);
    out[at + len] = 0;
    char real[PATH_MAX];
    if (realpath(out, real)) memcpy(out, real, strlen(real) + 1);
    return true;
}

/* Where `output` really lands, canonicalised, even when some of its directories do not exist
 * yet; *exists tells whether it exists now. */
static bool output_real_path(const char *output, char out[PATH_MAX], bool *exists) {
    if (output[0] == '/') snprintf(out, PATH_MAX, "/");
    else if (!getcwd(out, PATH_MAX)) return false;
    for (const char *p = output; *p;) {
        size_t len = strcspn(p, "/");
        if (!append_component(out, p, len)) return false;
        p += len;
        while (*p == '/') p++;
    }
    struct stat st;
    *exists = stat(out, &st) == 0;
    return true;
}

bool ue_path_within(const char *path, const char *dir) {
    char p[PATH_MAX], q[PATH_MAX];
    bool exists;
    if (!output_real_path(path, p, &exists) || !output_real_path(dir, q, &exists)) return false;
    size_t n = strlen(q);
    if (strncmp(p, q, n) != 0) return false;
    return p[n] == 0 || p[n] == '/' || (n == 1 && q[0] == '/');
}

ue_result ue_output_check_input(const char *output, const char *input, ue_diag *d) {
    char in_path[PATH_MAX], out_path[PATH_MAX];
    file_id in_id, out_id;
    bool out_exists;
    if (!input_real_path(input, in_path) || !file_id_of(in_path, &in_id)) return UE_OK;
    if (!output_real_path(output, out_path, &out_exists)) return UE_OK;
    const char *why = NULL;
    if (out_exists && file_id_of(out_path, &out_id) && same_file(&out_id, &in_id))
        why = "is the input";
    else if (is_path_or_ancestor(out_path, &in_id))
        why = "lies inside the input";
    else if (out_exists && file_id_of(out_path, &out_id) && is_path_or_ancestor(in_path, &out_id))
        why = "contains the input";
    if (!why) return UE_OK;
    ue_diag_add(d, UE_SEV_ERROR, "io.output.input", UE_NO_OFFSET, output,
                "output %s %s; choose another output, -f or not", why, input);
    return UE_ERR_USAGE;
}

/* Walks `dir`/`rel`; counts the listed files it holds, so that an empty subdirectory (which
 * no writer of ours leaves) makes the tree foreign. It goes on past the first foreign entry, so
 * `listed` sees every regular file (a caller may name the ones it does not list). */
static bool dir_walk_holds_only(const char *dir, char *rel, size_t rel_len,
                                bool (*listed)(const char *, void *), void *ctx, bool empty_ok,
                                size_t *files) {
    char full[PATH_MAX];
    if (snprintf(full, sizeof full, "%s%s%s", dir, rel_len ? "/" : "", rel) >= (int)sizeof full)
        return false;
    DIR *h = opendir(full);
    if (!h) return false;
    bool ok = true;
    struct dirent *e;
    while ((e = readdir(h)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        size_t n = strlen(e->d_name), child_len = rel_len, inside = 0;
        if (rel_len + n + 2 >= PATH_MAX) {
            ok = false;
            break;
        }
        if (rel_len) rel[child_len++] = '/';
        memcpy(rel + child_len, e->d_name, n + 1);
        child_len += n;
        struct stat st;
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, rel);
        bool seen = lstat(path, &st) == 0, fits = false; /* unreadable, a link, a device...: foreign */
        if (seen && S_ISDIR(st.st_mode))
            fits = dir_walk_holds_only(dir, rel, child_len, listed, ctx, empty_ok, &inside) &&
                   (inside > 0 || empty_ok);
        else if (seen && S_ISREG(st.st_mode) && listed(rel, ctx)) inside = 1, fits = true;
        ok = ok && fits;
        *files += inside;
        rel[rel_len] = 0;
    }
    closedir(h);
    return ok;
}

bool ue_dir_holds_only(const char *dir, bool (*listed)(const char *rel, void *ctx), void *ctx) {
    char rel[PATH_MAX] = "";
    size_t files = 0;
    return dir_walk_holds_only(dir, rel, 0, listed, ctx, false, &files);
}

bool ue_dir_holds_only_or_empty(const char *dir, bool (*listed)(const char *rel, void *ctx), void *ctx) {
    char rel[PATH_MAX] = "";
    size_t files = 0;
    return dir_walk_holds_only(dir, rel, 0, listed, ctx, true, &files);
}

static bool dir_is_empty(const char *path) {
    DIR *h = opendir(path);
    if (!h) return false;
    struct dirent *e;
    bool empty = true;
    while (empty && (e = readdir(h)) != NULL)
        empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
    closedir(h);
    return empty;
}

/* Whether an existing `path` may be replaced by a new output directory (see ue_outdir_begin). */
ue_result ue_io_check_dir_output(const char *path, bool overwrite,
                                 const ue_outdir_owner *owner, ue_diag *d) {
    struct stat st;
    if (lstat(path, &st) != 0 || (S_ISDIR(st.st_mode) && dir_is_empty(path))) return UE_OK;
    const char *what = owner && owner->what ? owner->what : "an output of this command";
    if (S_ISLNK(st.st_mode) || !S_ISDIR(st.st_mode)) {
        ue_diag_add(d, UE_SEV_ERROR, "io.output.kind", UE_NO_OFFSET, path,
                    "output %s, not a directory; refusing to replace it, even with -f",
                    S_ISLNK(st.st_mode) ? "is a symbolic link" : "exists");
        return UE_ERR_USAGE;
    }
    if (!owner || !owner->owns(path, owner->ctx)) {
        ue_diag_add(d, UE_SEV_ERROR, "io.output.foreign", UE_NO_OFFSET, path,
                    "output directory is not empty and is not %s; refusing to replace it, even "
                    "with -f (choose a new or empty directory)", what);
        return UE_ERR_USAGE;
    }
    if (!overwrite) {
        ue_diag_add(d, UE_SEV_ERROR, "io.exists", UE_NO_OFFSET, path,
                    "output exists (it is %s; use -f to replace it)", what);
        return UE_ERR_USAGE;
    }
    return UE_OK;
}
