/* unearth CLI — the mirrored output names of a batch: a model's file path and its address inside
 * containers become folders below OUT, each part made a safe file name, and a name given out once
 * (as a file or as a folder, in any case) is never given again ("robot~2.glb", out_names.h). */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/batch.h"
#include "cli/out_names.h"
#include "unearth/advanced/files.h"
#include "unearth/advanced/text.h"
#include "unearth/model.h"
#include "unearth/advanced/buffers.h"

/* The batch's names are the one set of out_names.h, so they follow the rule every verb does. */
struct batch_names {
    out_names set;
};

batch_names *batch_names_new(void) {
    batch_names *n = calloc(1, sizeof *n);
    if (n && out_names_init(&n->set) != UE_OK) {
        free(n);
        return NULL;
    }
    return n;
}

void batch_names_free(batch_names *n) {
    if (!n) return;
    out_names_free(&n->set);
    free(n);
}

ue_result batch_names_reserve(batch_names *n, const char *rel) { return out_names_add(&n->set, rel, OUT_NAME_FILE); }

bool batch_names_has(const batch_names *n, const char *rel) { return out_names_kind(&n->set, rel, NULL) != 0; }

static int longer_first(const void *a, const void *b) {
    size_t x = strlen(*(char *const *)a), y = strlen(*(char *const *)b);
    return x < y ? 1 : x > y ? -1 : 0;
}

void batch_names_prune(const batch_names *n, const char *root) {
    const out_names *set = &n->set;
    char **dirs = ue_malloc_items(set->given.count, sizeof *dirs);
    if (!dirs) return;
    size_t k = 0;
    for (size_t i = 0; i < set->given.cap; i++)
        if (set->given.slots[i].kind == OUT_NAME_DIR) dirs[k++] = set->given.slots[i].path;
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

/* A folder that was there already must be a real one: through a link (or a file) put in its
 * place, outputs would land outside OUT. That model fails; the batch goes on (errno EEXIST). */
static bool real_dir(const char *full, const char *dir, ue_diag *d) {
    struct stat st;
    bool seen = lstat(full, &st) == 0;
    if (seen && S_ISDIR(st.st_mode)) return true;
    ue_diag_add(d, UE_SEV_ERROR, "io.output.kind", UE_NO_OFFSET, dir,
                "a %s stands where this folder of outputs goes; left as it is, the model not converted",
                seen && S_ISLNK(st.st_mode) ? "symbolic link" : "file that is no folder");
    errno = EEXIST;
    return false;
}

/* Where a batch's new folders are made: below `root` (OUT). */
typedef struct dir_maker {
    const char *root;
    ue_diag *d;
} dir_maker;

static ue_result make_dir(const char *dir, void *ctx) {
    const dir_maker *m = ctx;
    char full[4096];
    if (snprintf(full, sizeof full, "%s/%s", m->root, dir) >= (int)sizeof full) return UE_ERR_USAGE;
    if (mkdir(full, 0755) == 0) return UE_OK;
    if (errno == EEXIST) return real_dir(full, dir, m->d) ? UE_OK : UE_ERR_IO;
    int err = errno; /* kept for the caller: a full disk stops the batch */
    ue_diag_add(m->d, UE_SEV_ERROR, "io.mkdir", UE_NO_OFFSET, dir, "cannot create directory: %s", strerror(err));
    errno = err;
    return UE_ERR_IO;
}

/* Appends folder `part` to `dir` by the rule of out_names_place_dir: shared with earlier models
 * of this very folder, "part~2" and on past a file of that name or a folder whose name differs
 * only by case (another input's). A new folder is made below `root` (OUT). */
static ue_result enter_dir(out_names *n, const char *root, char *dir, size_t cap, const char *part,
                           ue_diag *d) {
    dir_maker m = {root, d};
    ue_result r = out_names_place_dir(n, dir, cap, part, make_dir, &m);
    if (r == UE_ERR_USAGE) ue_diag_add(d, UE_SEV_ERROR, "batch.path", UE_NO_OFFSET, dir, "output path too long");
    return r;
}

/* Folders of `text` split at `sep`, all but the last; the last part goes to *last. */
static ue_result enter_parts(out_names *n, const char *root, char *dir, size_t cap, const char *text,
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

ue_result batch_names_place(batch_names *names, const char *root, const char *rel, const char *file,
                            const ue_model_found *model, const char *ext, char *out, size_t out_cap,
                            char *companion, size_t companion_cap, ue_diag *d) {
    out_names *n = &names->set;
    char dir[4096] = "";
    const char *last = rel;
    ue_result r = enter_parts(n, root, dir, sizeof dir, rel, '/', &last, d);
    size_t file_len = strlen(file);
    /* The model's own name: its address without the entries a container made up (a PKX's
     * model.dat), so "creature.pkx:model.dat" is named like the file creature.pkx itself. */
    char named[sizeof ((ue_model_found *)0)->name];
    snprintf(named, sizeof named, "%.*s", (int)ue_model_title_length(model), model->name);
    /* A model inside a container: its address is "FILE:ENTRY:...": the file becomes a folder,
     * and so does every container on the way (an entry name with ':' splits once more). */
    bool inside = !strncmp(named, file, file_len) && named[file_len] == ':';
    /* An address cut short (512 bytes) no longer starts with the file: "FILE/model~N". */
    bool unnamed = !inside && strcmp(named, file);
    if (r == UE_OK && (inside || unnamed)) {
        char part[512];
        safe_part(last, strlen(last), part, sizeof part);
        r = enter_dir(n, root, dir, sizeof dir, part, d);
        last = "model";
        if (r == UE_OK && inside) r = enter_parts(n, root, dir, sizeof dir, named + file_len + 1, ':', &last, d);
    }
    if (r != UE_OK) return r;
    char stem[512];
    safe_part(last, strlen(last), stem, sizeof stem);
    char *dot = strrchr(stem, '.');
    if (dot && dot != stem) *dot = 0;
    r = out_names_place_file(n, dir, stem, ext, out, out_cap, companion, companion_cap);
    if (r == UE_ERR_USAGE) ue_diag_add(d, UE_SEV_ERROR, "batch.path", UE_NO_OFFSET, dir, "output path too long");
    return r;
}
