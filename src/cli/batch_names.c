/* unearth CLI — the mirrored output names of a batch: a model's file path and its address inside
 * containers become folders below OUT, each part made a safe file name, and a name given out once
 * (as a file or as a folder) is never given again ("robot~2.glb"). */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/batch.h"
#include "common/io.h"
#include "common/text.h"
#include "unearth/gltf.h"
#include "unearth/obj.h"

/* ---- a set of relative paths (open addressing, doubled at half full: linear in the names) -- */

enum { NAME_FILE = 1, NAME_DIR = 2 };

typedef struct name_slot {
    char *path;
    int kind;
} name_slot;

struct batch_names {
    name_slot *slots;
    size_t cap, count;
};

batch_names *batch_names_new(void) {
    batch_names *n = calloc(1, sizeof *n);
    if (!n) return NULL;
    n->cap = 256;
    n->slots = calloc(n->cap, sizeof *n->slots);
    if (!n->slots) {
        free(n);
        return NULL;
    }
    return n;
}

void batch_names_free(batch_names *n) {
    if (!n) return;
    for (size_t i = 0; i < n->cap; i++) free(n->slots[i].path);
    free(n->slots);
    free(n);
}

static name_slot *slot_of(name_slot *slots, size_t cap, const char *path) {
    size_t i = (size_t)ue_xxh64(path, strlen(path), 0) & (cap - 1);
    while (slots[i].path && strcmp(slots[i].path, path)) i = (i + 1) & (cap - 1);
    return &slots[i];
}

static int name_kind(const batch_names *n, const char *path) {
    return slot_of(n->slots, n->cap, path)->kind;
}

static ue_result grow(batch_names *n) {
    size_t cap = n->cap * 2;
    name_slot *slots = calloc(cap, sizeof *slots);
    if (!slots) return UE_ERR_NOMEM;
    for (size_t i = 0; i < n->cap; i++)
        if (n->slots[i].path) *slot_of(slots, cap, n->slots[i].path) = n->slots[i];
    free(n->slots);
    n->slots = slots;
    n->cap = cap;
    return UE_OK;
}

static ue_result name_add(batch_names *n, const char *path, int kind) {
    if ((n->count + 1) * 2 > n->cap && grow(n) != UE_OK) return UE_ERR_NOMEM;
    name_slot *s = slot_of(n->slots, n->cap, path);
    if (s->path) return UE_OK;
    s->path = strdup(path);
    if (!s->path) return UE_ERR_NOMEM;
    s->kind = kind;
    n->count++;
    return UE_OK;
}

ue_result batch_names_reserve(batch_names *n, const char *rel) { return name_add(n, rel, NAME_FILE); }

bool batch_names_has(const batch_names *n, const char *rel) { return name_kind(n, rel) != 0; }

static int longer_first(const void *a, const void *b) {
    size_t x = strlen(*(char *const *)a), y = strlen(*(char *const *)b);
    return x < y ? 1 : x > y ? -1 : 0;
}

void batch_names_prune(const batch_names *n, const char *root) {
    char **dirs = malloc((n->count ? n->count : 1) * sizeof *dirs);
    if (!dirs) return;
    size_t k = 0;
    for (size_t i = 0; i < n->cap; i++)
        if (n->slots[i].kind == NAME_DIR) dirs[k++] = n->slots[i].path;
    /* A folder's path is longer than its parent's: children are tried first. */
    qsort(dirs, k, sizeof *dirs, longer_first);
    for (size_t i = 0; i < k; i++) {
        char full[8300];
        snprintf(full, sizeof full, "%s/%s", root, dirs[i]);
        rmdir(full); /* fails, as it should, on a folder that holds anything */
    }
    free(dirs);
}

/* ---- placing one model ------------------------------------------------------------------- */

/* One part of a path made safe as a file name; "entry" when nothing usable is left. */
static void safe_part(const char *part, size_t len, char *out, size_t cap) {
    char raw[512];
    snprintf(raw, sizeof raw, "%.*s", (int)(len < sizeof raw ? len : sizeof raw - 1), part);
    if (ue_file_name_component(raw, out, cap) == 0) snprintf(out, cap, "entry");
}

/* Appends folder `part` to `dir`: the folder is shared with earlier models, unless the name
 * is a file already, then "part~2" and on; a new folder is made below `root` (OUT). */
static ue_result enter_dir(batch_names *n, const char *root, char *dir, size_t cap, const char *part,
                           ue_diag *d) {
    size_t at = strlen(dir);
    for (unsigned again = 1;; again++) {
        int w = again == 1 ? snprintf(dir + at, cap - at, "%s%s", at ? "/" : "", part)
                           : snprintf(dir + at, cap - at, "%s%s~%u", at ? "/" : "", part, again);
        if (w < 0 || (size_t)w >= cap - at) break;
        int kind = name_kind(n, dir);
        if (kind == NAME_DIR) return UE_OK;
        if (kind == NAME_FILE) continue;
        char full[4096];
        if (snprintf(full, sizeof full, "%s/%s", root, dir) >= (int)sizeof full) break;
        if (mkdir(full, 0755) != 0 && errno != EEXIST) {
            int err = errno; /* kept for the caller: a full disk stops the batch */
            ue_diag_add(d, UE_SEV_ERROR, "io.mkdir", UE_NO_OFFSET, dir, "cannot create directory: %s",
                        strerror(err));
            errno = err;
            return UE_ERR_IO;
        }
        return name_add(n, dir, NAME_DIR);
    }
    ue_diag_add(d, UE_SEV_ERROR, "batch.path", UE_NO_OFFSET, dir, "output path too long");
    return UE_ERR_USAGE;
}

/* The companion a writer puts beside `file` (name only): .bin for .gltf, the MTL for .obj. */
static void companion_name(const char *file, const char *ext, char *out, size_t cap) {
    out[0] = 0;
    if (!strcmp(ext, "obj")) ue_obj_mtl_file_name(file, out, cap);
    else if (!strcmp(ext, "gltf") && !ue_gltf_bin_path(file, out, cap)) out[0] = 0;
}

static bool is_free(const batch_names *n, const char *path) { return !path[0] || !name_kind(n, path); }

/* DIR/STEM.EXT (and its companion) not given out yet: STEM, then STEM~2, STEM~3, ... */
static ue_result place_file(batch_names *n, const char *dir, const char *stem, const char *ext,
                            char *out, size_t out_cap, char *companion, size_t companion_cap) {
    for (unsigned again = 1; again < 1000000; again++) {
        char file[600], side[600];
        if (again == 1) snprintf(file, sizeof file, "%s.%s", stem, ext);
        else snprintf(file, sizeof file, "%s~%u.%s", stem, again, ext);
        companion_name(file, ext, side, sizeof side);
        int a = snprintf(out, out_cap, "%s%s%s", dir, dir[0] ? "/" : "", file);
        int b = side[0] ? snprintf(companion, companion_cap, "%s%s%s", dir, dir[0] ? "/" : "", side)
                        : snprintf(companion, companion_cap, "%s", "");
        if (a < 0 || b < 0 || (size_t)a >= out_cap || (size_t)b >= companion_cap) return UE_ERR_USAGE;
        if (!is_free(n, out) || !is_free(n, companion)) continue;
        ue_result r = name_add(n, out, NAME_FILE);
        if (r == UE_OK && companion[0]) r = name_add(n, companion, NAME_FILE);
        return r;
    }
    return UE_ERR_USAGE;
}

/* Folders of `text` split at `sep`, all but the last; the last part goes to *last. */
static ue_result enter_parts(batch_names *n, const char *root, char *dir, size_t cap, const char *text,
                             char sep, const char **last, ue_diag *d) {
    const char *p = text;
    for (const char *q; (q = strchr(p, sep)) != NULL; p = q + 1) {
        if (q == p) continue; /* "a//b" */
        char part[512];
        safe_part(p, (size_t)(q - p), part, sizeof part);
        ue_result r = enter_dir(n, root, dir, cap, part, d);
        if (r != UE_OK) return r;
    }
    *last = p;
    return UE_OK;
}

ue_result batch_names_place(batch_names *n, const char *root, const char *rel, const char *file,
                            const char *model, const char *ext, char *out, size_t out_cap,
                            char *companion, size_t companion_cap, ue_diag *d) {
    char dir[4096] = "";
    const char *last = rel;
    ue_result r = enter_parts(n, root, dir, sizeof dir, rel, '/', &last, d);
    size_t file_len = strlen(file);
    /* A model inside a container: its address is "FILE:ENTRY:...": the file becomes a folder,
     * and so does every container on the way (an entry name with ':' splits once more). */
    bool inside = !strncmp(model, file, file_len) && model[file_len] == ':';
    /* An address cut short (512 bytes) no longer starts with the file: "FILE/model~N". */
    bool unnamed = !inside && strcmp(model, file);
    if (r == UE_OK && (inside || unnamed)) {
        char part[512];
        safe_part(last, strlen(last), part, sizeof part);
        r = enter_dir(n, root, dir, sizeof dir, part, d);
        last = "model";
        if (r == UE_OK && inside) r = enter_parts(n, root, dir, sizeof dir, model + file_len + 1, ':', &last, d);
    }
    if (r != UE_OK) return r;
    char stem[512];
    safe_part(last, strlen(last), stem, sizeof stem);
    char *dot = strrchr(stem, '.');
    if (dot && dot != stem) *dot = 0;
    r = place_file(n, dir, stem, ext, out, out_cap, companion, companion_cap);
    if (r == UE_ERR_USAGE) ue_diag_add(d, UE_SEV_ERROR, "batch.path", UE_NO_OFFSET, dir, "output path too long");
    return r;
}
