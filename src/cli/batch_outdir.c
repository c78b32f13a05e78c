/* unearth CLI — the output directory of a batch: each output staged and renamed into place (complete
 * or absent), the ownership marker that lists every output as it lands, and resuming an earlier run
 * of the same command, so a stop or an interrupt keeps the finished work (docs/batch.md). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/batch_marker.h"
#include "unearth/advanced/buffers.h"
#include "unearth/advanced/files.h"
#include "unearth/advanced/text.h"
#include "unearth/version.h"

struct batch_outdir {
    char root[4096];
    char staging[4200];
    int root_fd;                /* OUT, open and locked (flock) for the whole run */
    int marker_fd;
    bool created;               /* OUT did not exist: made by this run */
    bool resuming;
    ue_buf header;              /* this command: the magic line and one line per option */
    marker_table *earlier;      /* every path an earlier run's marker lists */
    atomic_size_t staged;       /* names of staged files: 0, 1, 2, ... */
    char **extras;              /* the batch's own files besides the outputs (the gallery's) */
    batch_file_id *extra_ids;   /* ... as placed */
    size_t extra_count, extra_cap;
};

/* ---- the command ------------------------------------------------------------------------------ */

/* The last --scale, as the number it means (1 and 1.0 are one command). */
static void scale_text(const cli_opts *o, char *out, size_t cap) {
    double scale = 1.0;
    for (size_t i = 0; i + 1 < o->op_count; i++)
        if (!strcmp(o->ops[i], "--scale")) scale = ue_parse_double(o->ops[i + 1], NULL);
    snprintf(out, cap, "%.17g", scale);
}

/* What makes two runs the same command: every option that changes an output's bytes or which
 * models there are (--data as its real path), the inputs as real paths (as given when they do not
 * resolve, ARCHIVE:ENTRY; trailing '/' aside), and the
 * version. -j, -q, -v, --report and -f change no output. Which files the inputs are is each
 * output's own line (its input's real path). */
static void build_header(const cli_opts *o, const char *type, ue_buf *b) {
    ue_buf_put(b, BATCH_MARKER_MAGIC, strlen(BATCH_MARKER_MAGIC));
    batch_marker_option(b, "version", UE_VERSION);
    batch_marker_option(b, "format", type);
    batch_marker_option(b, "mode", o->mode == UE_MODE_STRICT ? "strict" : "tolerant");
    batch_marker_option(b, "lod", o->lod);
    batch_marker_option(b, "group", o->group);
    batch_marker_option(b, "fps", o->fps);
    char *data = o->data ? realpath(o->data, NULL) : NULL;
    batch_marker_option(b, "data", data ? data : o->data);
    free(data);
    char scale[64];
    scale_text(o, scale, sizeof scale);
    batch_marker_option(b, "scale", scale);
    batch_marker_option(b, "animation-pointer", o->no_animation_pointer ? "no" : "yes");
    batch_marker_option(b, "follow-links", o->follow_links ? "yes" : "no");
    batch_marker_option(b, "gallery", o->gallery ? "yes" : "no");
    for (size_t i = 0; i < o->input_count; i++) {
        char input[4096];
        char *real = realpath(o->inputs[i], NULL);
        snprintf(input, sizeof input, "%s", real ? real : o->inputs[i]);
        free(real);
        for (size_t n = strlen(input); n > 1 && input[n - 1] == '/';) input[--n] = 0;
        batch_marker_option(b, "input", input);
    }
}

/* The values one option has in a header, one per line (inputs repeat). */
static void option_values(const char *header, const char *name, ue_buf *out) {
    char prefix[64];
    int n = snprintf(prefix, sizeof prefix, "option\t%s\t", name);
    for (const char *line = header; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (strncmp(line, prefix, (size_t)n)) continue;
        const char *end = strchr(line, '\n');
        ue_buf_put(out, line + n, end ? (size_t)(end - line) - (size_t)n + 1 : strlen(line + n));
    }
}

/* "format, lod": the options whose values differ between two headers. */
static void header_difference(const char *a, const char *b, char *out, size_t cap) {
    static const char *const names[] = {"version", "format", "mode", "lod", "group", "fps", "data",
                                        "scale", "animation-pointer", "follow-links", "gallery", "input"};
    out[0] = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        ue_buf x = {0}, y = {0};
        option_values(a, names[i], &x);
        option_values(b, names[i], &y);
        bool differs = x.size != y.size || (x.size && memcmp(x.data, y.data, x.size));
        ue_buf_free(&x);
        ue_buf_free(&y);
        if (!differs) continue;
        size_t at = strlen(out);
        snprintf(out + at, cap - at, "%s%s", at ? ", " : "", !strcmp(names[i], "input") ? "inputs" : names[i]);
    }
    if (!out[0]) snprintf(out, cap, "options");
}

/* ---- what an earlier run left --------------------------------------------------------------- */

/* Whether the file at `path` is the batch's own: the marker gave the identity it was placed with,
 * and the file there still has it. A file changed since, or one the marker lists only as about to
 * be placed (a rename that was refused, or never happened), is somebody else's. */
static bool ours(const batch_outdir *od, const char *path) {
    const marker_entry *e = marker_table_get(od->earlier, path);
    batch_file_id now;
    return e && e->placed && batch_file_id_of(od->root_fd, path, &now) && batch_file_id_equal(&now, &e->id);
}

static bool something_at(const batch_outdir *od, const char *path) {
    struct stat st;
    return fstatat(od->root_fd, path, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

/* A file the batch will not touch: said once per path. */
static void warn_left(const batch_outdir *od, marker_entry *e) {
    if (e->reported) return;
    e->reported = true;
    ue_diag d = {0};
    char path[8300];
    snprintf(path, sizeof path, "%s/%s", od->root, e->path);
    ue_diag_add(&d, UE_SEV_WARNING, "io.output.not_ours", UE_NO_OFFSET, path,
                "not this batch's output any more (changed since it was placed, or never placed by it); "
                "left as it is");
    cli_print_diags(&d, 1);
    ue_diag_free(&d);
}

/* An OUT written by a version without the marker is recognised by its report's "files": it
 * holds only those, so each is taken as the batch's own as it stands. */
static bool load_report_files(batch_outdir *od) {
    char path[4300];
    snprintf(path, sizeof path, "%s/%s", od->root, BATCH_REPORT);
    ue_jdoc doc;
    const ue_jv *j = batch_report_load(path, &doc);
    const ue_jv *files = ue_jv_get(j, "files");
    bool ok = ue_jv_is(ue_jv_get(j, "unearth_batch"), UE_JV_INTEGER) && ue_jv_is(files, UE_JV_ARRAY);
    for (size_t i = 0; ok && i < ue_jv_items(files); i++) {
        const char *f = ue_jv_string(ue_jv_at(files, i));
        marker_entry *e = f && batch_path_inside(f) ? marker_table_add(od->earlier, f) : NULL;
        ok = e != NULL;
        if (ok) e->placed = batch_file_id_of(od->root_fd, f, &e->id);
    }
    ue_jdoc_free(&doc);
    return ok;
}

/* OUT's own files, a file staged at the top of the staging folder, a path the marker lists. */
static bool listed(const char *rel, void *ctx) {
    const batch_outdir *od = ctx;
    size_t n = strlen(BATCH_STAGING);
    bool staged = !strncmp(rel, BATCH_STAGING, n) && rel[n] == '/' && !strchr(rel + n + 1, '/');
    return !strcmp(rel, BATCH_REPORT) || !strcmp(rel, BATCH_MARKER) || staged ||
           marker_table_get(od->earlier, rel) != NULL;
}

/* Files in OUT that are not the batch's (dropped in by a user): counted, the first few named. */
#define STRAYS_NAMED 5
typedef struct strays {
    const batch_outdir *od;
    size_t count;
    char names[STRAYS_NAMED][256];
} strays;

/* Accepts every file, so the walk sees them all; those the marker does not list are strays. */
static bool note_stray(const char *rel, void *ctx) {
    strays *s = ctx;
    if (listed(rel, (void *)s->od)) return true;
    if (s->count < STRAYS_NAMED) snprintf(s->names[s->count], sizeof s->names[0], "%s", rel);
    s->count++;
    return true;
}

/* "a, b, c and 4 more": up to `named` of the strays. */
static void name_strays(const strays *s, size_t named, char *out, size_t cap) {
    size_t at = 0;
    out[0] = 0;
    for (size_t i = 0; i < s->count && i < named && at < cap; i++)
        at += (size_t)snprintf(out + at, cap - at, "%s%s", i ? ", " : "", s->names[i]);
    if (s->count > named && at < cap) snprintf(out + at, cap - at, " and %zu more", s->count - named);
}

/* ---- removing what this batch wrote ----------------------------------------------------------- */

/* Removes the folders from `rel`'s parent up to OUT that are now empty. */
static void remove_empty_parents(const batch_outdir *od, const char *rel) {
    char path[8300];
    snprintf(path, sizeof path, "%s", rel);
    for (char *slash; (slash = strrchr(path, '/')) != NULL;) {
        *slash = 0;
        if (unlinkat(od->root_fd, path, AT_REMOVEDIR) != 0) break; /* holds something: so do its parents */
    }
}

static void remove_output(const batch_outdir *od, const char *rel) {
    if (unlinkat(od->root_fd, rel, 0) == 0) remove_empty_parents(od, rel);
}

/* The staging folder holds only files this batch (or a killed one) staged, at its top: their
 * names are numbers, never an output's. An empty folder in it (which no batch makes) goes too. */
static void empty_staging(const batch_outdir *od, bool remove_folder) {
    int fd = open(od->staging, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR *h = fd >= 0 ? fdopendir(fd) : NULL;
    if (h) {
        struct dirent *e;
        while ((e = readdir(h)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            if (unlinkat(fd, e->d_name, 0) != 0) unlinkat(fd, e->d_name, AT_REMOVEDIR);
        }
        closedir(h);
    } else if (fd >= 0) {
        close(fd);
    }
    if (remove_folder) rmdir(od->staging);
}

/* --fresh (or -f over other options): every output an earlier run placed, and its report, go;
 * a listed path that holds somebody else's file (changed since, or never placed) is left and
 * said, and so is a file dropped in meanwhile. */
static void clear_earlier(batch_outdir *od) {
    marker_entry *e;
    for (size_t i = 0; marker_table_at(od->earlier, i, &e); i++) {
        if (!e) continue;
        if (ours(od, e->path)) remove_output(od, e->path);
        else if (something_at(od, e->path)) warn_left(od, e);
    }
    unlinkat(od->root_fd, BATCH_REPORT, 0);
}

/* ---- opening OUT ------------------------------------------------------------------------------ */

static bool dir_is_empty(const char *path) {
    DIR *h = opendir(path);
    if (!h) return false;
    struct dirent *e;
    bool empty = true;
    while (empty && (e = readdir(h)) != NULL) empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
    closedir(h);
    return empty;
}

static int refuse(const batch_outdir *od, const char *code, const char *fmt, const char *detail) {
    ue_diag d = {0};
    ue_diag_add(&d, UE_SEV_ERROR, code, UE_NO_OFFSET, od->root, fmt, detail);
    cli_print_diags(&d, 1);
    ue_diag_free(&d);
    return EXIT_USAGE;
}

/* An existing, non-empty OUT: continued, redone, or refused. */
static int adopt_earlier(const cli_opts *o, batch_outdir *od) {
    ue_buf earlier_header = {0};
    bool newline = true;
    char path[4300];
    snprintf(path, sizeof path, "%s/%s", od->root, BATCH_MARKER);
    bool marker = batch_marker_read(path, &earlier_header, od->earlier, &newline);
    ue_buf_put(&earlier_header, "", 1);
    bool known = !earlier_header.failed && (marker || load_report_files(od));
    strays extra = {od, 0, {{0}}};
    bool plain = ue_dir_holds_only_or_empty(od->root, note_stray, &extra); /* false: a link, a device... */
    char named[STRAYS_NAMED * 260 + 32];
    if (!known || !plain || (!marker && extra.count)) { /* without a marker, only the report's files */
        ue_buf_free(&earlier_header);
        char holds[sizeof named + 16] = "";
        name_strays(&extra, 3, named, sizeof named);
        if (extra.count) snprintf(holds, sizeof holds, "; it holds %s", named);
        return refuse(od, "io.output.foreign", "output directory is not empty and is not an unearth convert -r "
                      "output; refusing to replace it, even with -f (choose a new or empty directory)%s", holds);
    }
    if (extra.count) {
        /* OUT is ours by its marker whatever else a user put there: those files are left alone. */
        name_strays(&extra, STRAYS_NAMED, named, sizeof named);
        ue_diag d = {0};
        ue_diag_add(&d, UE_SEV_WARNING, "io.output.stray", UE_NO_OFFSET, od->root,
                    "%zu file%s not of this batch left as %s: %s", extra.count, extra.count == 1 ? "" : "s",
                    extra.count == 1 ? "it is" : "they are", named);
        cli_print_diags(&d, 1);
        ue_diag_free(&d);
    }
    const char *had = (const char *)earlier_header.data;
    bool same = marker && !strcmp(had, (const char *)od->header.data);
    char differs[256] = "its options, which an earlier version did not record";
    if (marker && !same) header_difference(had, (const char *)od->header.data, differs, sizeof differs);
    ue_buf_free(&earlier_header);
    if (same && !o->fresh) {
        od->resuming = true;
        return newline ? 0 : -1; /* -1: a cut last line is ended before the next one */
    }
    if (!marker && !o->fresh && !o->force)
        return refuse(od, "io.exists", "output exists (it is %s without a marker, from an earlier version; "
                      "use --fresh or -f to redo it)", "an unearth convert -r output");
    if (!same && o->resume)
        return refuse(od, "io.exists", "output was written by another command (it differs in: %s); "
                      "--resume continues only the same command", differs);
    if (!same && !o->fresh && !o->force)
        return refuse(od, "io.exists", "output exists (it is an unearth convert -r output of other options, "
                      "differing in: %s; use --fresh or -f to redo it, or repeat its options to continue it)", differs);
    clear_earlier(od);
    return 0;
}

static bool write_all(int fd, const void *data, size_t size) {
    const char *p = data;
    while (size > 0) {
        ssize_t w = write(fd, p, size);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            if (w == 0) errno = ENOSPC;
            return false;
        }
        p += w;
        size -= (size_t)w;
    }
    return true;
}

/* A new file in the staging folder holding `data`; 0 or the errno. */
static int stage(batch_outdir *od, const void *data, size_t size, char *path, size_t cap) {
    snprintf(path, cap, "%s/%zu", od->staging, atomic_fetch_add(&od->staged, 1));
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) return errno;
    int err = write_all(fd, data, size) ? 0 : errno;
    if (close(fd) != 0 && !err) err = errno;
    if (err) unlink(path);
    return err;
}

/* OUT's own file `name` (the marker, the report) written whole: staged, then renamed over the
 * one before. 0 or the errno. */
static int replace_own(batch_outdir *od, const char *name, const void *data, size_t size) {
    char staged[4300];
    int err = stage(od, data, size, staged, sizeof staged);
    if (!err && renameat(AT_FDCWD, staged, od->root_fd, name) != 0) err = errno, unlink(staged);
    return err;
}

/* The marker of a new run: its header, staged and renamed, then opened for appending. */
static int start_marker(batch_outdir *od, int state) {
    int err = od->resuming ? 0 : replace_own(od, BATCH_MARKER, od->header.data, od->header.size);
    if (!err) od->marker_fd = openat(od->root_fd, BATCH_MARKER, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
    if (!err && od->marker_fd < 0) err = errno;
    if (!err && state < 0 && !write_all(od->marker_fd, "\n", 1)) err = errno;
    return err;
}

static int prepare(batch_outdir *od, int state) {
    int err = 0;
    if (mkdirat(od->root_fd, BATCH_STAGING, 0755) != 0 && errno != EEXIST) err = errno;
    if (!err) empty_staging(od, false);
    if (!err) err = start_marker(od, state);
    if (!err) return 0;
    cli_error("convert: %s: cannot write into the output directory: %s; nothing converted", od->root, strerror(err));
    rmdir(od->staging);
    if (od->created) rmdir(od->root);
    return EXIT_IO;
}

/* OUT opened and locked for this run: a second batch writing into the same OUT at once is
 * refused before it touches anything (exit 3). A file system without flock runs unlocked. */
static int lock_root(batch_outdir *od) {
    od->root_fd = open(od->root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (od->root_fd < 0) {
        cli_error("convert: %s: cannot open the output directory: %s; nothing converted", od->root, strerror(errno));
        return EXIT_IO;
    }
    if (flock(od->root_fd, LOCK_EX | LOCK_NB) == 0 || errno != EWOULDBLOCK) return 0;
    cli_error("convert: %s: another unearth batch is writing into this directory now; nothing done "
              "(run one batch per output directory at a time)", od->root);
    return EXIT_IO;
}

int batch_outdir_open(const cli_opts *o, const char *type, batch_outdir **out) {
    batch_outdir *od = calloc(1, sizeof *od);
    *out = od;
    if (!od) return EXIT_IO;
    od->marker_fd = od->root_fd = -1;
    snprintf(od->root, sizeof od->root, "%s", o->output);
    for (size_t n = strlen(od->root); n > 1 && od->root[n - 1] == '/';) od->root[--n] = 0;
    snprintf(od->staging, sizeof od->staging, "%s/%s", od->root, BATCH_STAGING);
    build_header(o, type, &od->header);
    ue_buf_put(&od->header, "", 1); /* a C string */
    od->earlier = marker_table_new();
    if (od->header.failed || !od->earlier) return EXIT_IO;
    od->header.size--; /* the terminator is no part of the marker */
    struct stat st;
    int state = 0;
    if (lstat(od->root, &st) != 0) {
        ue_diag d = {0};
        ue_result r = ue_mkdirs(od->root, &d);
        if (r != UE_OK) cli_print_diags(&d, 1);
        ue_diag_free(&d);
        if (r != UE_OK) return EXIT_IO;
        od->created = true;
    } else if (!S_ISDIR(st.st_mode)) {
        return refuse(od, "io.output.kind", "output %s, not a directory; refusing to replace it, even with -f",
                      S_ISLNK(st.st_mode) ? "is a symbolic link" : "exists");
    }
    if ((state = lock_root(od)) != 0) {
        od->created = false; /* another batch may have made it: never removed by this one */
        return state;
    }
    if (!od->created && !dir_is_empty(od->root) && (state = adopt_earlier(o, od)) > 0) return state;
    return prepare(od, state);
}

const char *batch_outdir_root(const batch_outdir *od) { return od->root; }

/* ---- one output ------------------------------------------------------------------------------- */

/* The model's address as the marker keeps it: its file's real path, then the entry inside (":ENTRY"),
 * so the same model is the same however its input folder was spelled ("demo", "./demo/", /abs). */
static const char *model_address(const batch_record *model, char *buf, size_t cap) {
    const batch_record *file = model->file;
    size_t n = file && file->input ? strlen(file->input) : 0;
    if (!file || !file->source.path || strncmp(model->input, file->input, n) != 0) return model->input;
    int w = snprintf(buf, cap, "%s%s", file->source.path, model->input + n);
    return w > 0 && (size_t)w < cap ? buf : model->input;
}

static bool same_source(const batch_source *a, const batch_source *b) {
    return a->path && b->path && !strcmp(a->path, b->path) && a->size == b->size && a->mtime_ns == b->mtime_ns;
}

/* Whether the marker's line of `model`'s output says it was made the way it would be now: the
 * same companion and address, from its input file as it is now, every file placed after that line. */
static bool made_from_now(const batch_outdir *od, const batch_record *model) {
    const marker_entry *e = marker_table_get(od->earlier, model->output);
    char address[8300];
    if (!e || !e->model || !e->current || strcmp(e->companion, model->companion ? model->companion : "") ||
        strcmp(e->input, model_address(model, address, sizeof address)) || !same_source(&e->source, &model->file->source))
        return false;
    for (size_t i = 0; i < batch_record_side_count(model); i++) {
        const marker_entry *side = marker_table_get(od->earlier, batch_record_side(model, i, NULL));
        if (!side || !side->current) return false;
    }
    return true;
}

/* Where the identity of file i of a model goes: 0 its output, then batch_record_side's order. */
static batch_file_id *file_id(batch_record *rec, size_t i) {
    if (i == 0) return &rec->output_id;
    return i - 1 < rec->image_count ? &rec->image_ids[i - 1] : &rec->companion_id;
}

static const char *file_path(const batch_record *rec, size_t i) {
    return i == 0 ? rec->output : batch_record_side(rec, i - 1, NULL);
}

batch_earlier batch_outdir_earlier(const batch_outdir *od, batch_record *model, char *left, size_t cap) {
    if (!model->output) return BATCH_EARLIER_NONE;
    /* The PNG files an earlier run put beside this output: only its marker knows their names. */
    const marker_entry *had = marker_table_get(od->earlier, model->output);
    if (had && had->model && !batch_record_set_images(model, (const char *const *)had->images, had->image_count))
        return BATCH_EARLIER_NONE;
    bool all_there = true;
    for (size_t i = 0; i < 1 + batch_record_side_count(model); i++) {
        const char *path = file_path(model, i);
        const marker_entry *e = marker_table_get(od->earlier, path);
        /* a path no earlier run listed holds nothing of it: a file put there is met by place() */
        if (!e || !something_at(od, path)) {
            all_there = false;
            continue;
        }
        batch_file_id *id = file_id(model, i);
        if (!e->placed || !batch_file_id_of(od->root_fd, path, id) || !batch_file_id_equal(id, &e->id)) {
            snprintf(left, cap, "%s", path);
            return BATCH_EARLIER_LEFT; /* its images stay named: the settled marker lists them as left */
        }
    }
    if (od->resuming && all_there && made_from_now(od, model)) return BATCH_EARLIER_KEPT;
    batch_record_set_images(model, NULL, 0); /* converted again: the new images are its own */
    return BATCH_EARLIER_NONE;
}

/* Whether the file at `path` is the one placed with `id`: 0, ENOENT (nothing there) or EEXIST
 * (another file). */
static int placed_as(const batch_outdir *od, const char *path, const batch_file_id *id) {
    batch_file_id now;
    if (batch_file_id_of(od->root_fd, path, &now)) return batch_file_id_equal(&now, id) ? 0 : EEXIST;
    return something_at(od, path) ? EEXIST : ENOENT;
}

int batch_outdir_holds(const batch_outdir *od, const batch_record *rec) {
    int err = rec->output ? placed_as(od, rec->output, &rec->output_id) : ENOENT;
    for (size_t i = 0; !err && i < batch_record_side_count(rec); i++) {
        const batch_file_id *id;
        const char *path = batch_record_side(rec, i, &id);
        err = placed_as(od, path, id);
    }
    return err;
}

bool batch_outdir_gone(const batch_outdir *od) {
    struct stat st;
    return stat(od->staging, &st) != 0;
}

bool batch_write_error_stops(int err) {
    switch (err) {
    case ENOSPC: case EDQUOT: case EFBIG: case EROFS: case EIO: case EACCES: case EPERM:
    case ENOENT: case ENOTDIR: case ESTALE: case ENOMEM:
        return true;
    default:
        return false;
    }
}

/* Renames a staged file to its place, and gives the identity it has there. A file the batch
 * placed earlier (unchanged since) is replaced; anything else standing there is left (EEXIST). */
static int place(const batch_outdir *od, const char *staged, const char *rel, batch_file_id *id) {
    int err = 0;
    if (ours(od, rel)) {
        if (renameat(AT_FDCWD, staged, od->root_fd, rel) != 0) err = errno;
    } else if (renameat2(AT_FDCWD, staged, od->root_fd, rel, RENAME_NOREPLACE) != 0) {
        err = errno;
        if (err == EINVAL || err == ENOSYS) { /* a file system without RENAME_NOREPLACE */
            err = something_at(od, rel) ? EEXIST : renameat(AT_FDCWD, staged, od->root_fd, rel) == 0 ? 0 : errno;
        }
    }
    if (!err && !batch_file_id_of(od->root_fd, rel, id)) err = errno ? errno : EIO;
    return err;
}

/* One write with O_APPEND: lines of two threads never mix. */
static int append_marker(const batch_outdir *od, ue_buf *lines) {
    int err = lines->failed ? ENOMEM : write_all(od->marker_fd, lines->data, lines->size) ? 0 : errno;
    ue_buf_free(lines);
    return err;
}

static int failed_at(int err, const char *what, char *failed, size_t cap) {
    snprintf(failed, cap, "%s", what);
    return err;
}

/* The model's lines of the marker: its "file" line and one "image" line per PNG file. */
static bool output_lines(ue_buf *b, const batch_record *rec) {
    char address[8300];
    bool ok = batch_marker_file_line(b, rec->output, rec->companion, model_address(rec, address, sizeof address),
                                     &rec->file->source);
    for (size_t i = 0; ok && i < rec->image_count; i++) ok = batch_marker_image_line(b, rec->output, rec->images[i]);
    return ok;
}

/* Its "placed" lines: the files beside it first, the output last, as they were renamed. */
static bool placed_lines(ue_buf *b, const batch_record *rec) {
    bool ok = true;
    for (size_t i = 0; ok && i < batch_record_side_count(rec); i++) {
        const batch_file_id *id;
        const char *path = batch_record_side(rec, i, &id);
        ok = batch_marker_placed_line(b, path, id);
    }
    return ok && batch_marker_placed_line(b, rec->output, &rec->output_id);
}

/* The marker's lines of the output, before the renames (so every output OUT holds is listed
 * whatever ends the process); ENAMETOOLONG for a line too long to be read back. */
static int list_output(const batch_outdir *od, const batch_record *rec) {
    ue_buf lines = {0};
    if (!output_lines(&lines, rec)) {
        ue_buf_free(&lines);
        return ENAMETOOLONG;
    }
    return append_marker(od, &lines);
}

/* The "placed" lines, after the renames: from now on the files are the batch's own. When they
 * cannot be written, the files just placed are taken away again (complete or absent, and listed). */
static int confirm_output(const batch_outdir *od, const batch_record *rec) {
    ue_buf lines = {0};
    int err = placed_lines(&lines, rec) ? append_marker(od, &lines) : (ue_buf_free(&lines), ENAMETOOLONG);
    for (size_t i = 0; err && i < 1 + batch_record_side_count(rec); i++) remove_output(od, file_path(rec, i));
    return err;
}

/* Each file staged: staged[0] the output, then batch_record_side's order. */
static int stage_files(batch_outdir *od, const batch_record *rec, const void *main, size_t main_size,
                       const ue_buf *side_data, char (*staged)[4300], size_t *count) {
    size_t n = 1 + batch_record_side_count(rec);
    int err = 0;
    for (*count = 0; !err && *count < n; ++*count) {
        size_t i = *count;
        err = i == 0 ? stage(od, main, main_size, staged[0], sizeof staged[0])
                     : stage(od, side_data[i - 1].data, side_data[i - 1].size, staged[i], sizeof staged[i]);
        if (err) break;
    }
    return err;
}

int batch_outdir_put(batch_outdir *od, batch_record *rec, const void *main, size_t main_size,
                     const ue_buf *side_data, char *failed, size_t failed_cap) {
    size_t n = 1 + batch_record_side_count(rec), staged_count = 0, placed = 0;
    char (*staged)[4300] = calloc(n, sizeof *staged);
    if (!staged) return failed_at(ENOMEM, rec->output, failed, failed_cap);
    int err = stage_files(od, rec, main, main_size, side_data, staged, &staged_count);
    const char *what = err ? file_path(rec, staged_count) : BATCH_MARKER;
    if (!err) err = list_output(od, rec);
    /* the sides first, the output last: a main file never names a missing one */
    for (size_t k = 1; !err && k <= n; k++) {
        size_t i = k % n; /* 1, 2, ..., n - 1, then 0 */
        err = place(od, staged[i], what = file_path(rec, i), file_id(rec, i));
        if (!err) staged[i][0] = 0, placed = k;
    }
    if (!err && (err = confirm_output(od, rec)) != 0) what = BATCH_MARKER, placed = 0; /* removed there */
    for (size_t i = 0; i < staged_count; i++)
        if (staged[i][0]) unlink(staged[i]);
    free(staged);
    if (!err) return 0;
    /* what was placed without the rest is no output: complete or absent */
    for (size_t k = 1; k <= placed && k < n; k++) remove_output(od, file_path(rec, k));
    return failed_at(err, what, failed, failed_cap);
}

int batch_outdir_put_report(batch_outdir *od, const char *text) {
    return replace_own(od, BATCH_REPORT, text, strlen(text));
}

/* ---- the batch's own files besides the outputs ---------------------------------------------------- */

/* The folders of `rel` below OUT, each made unless it is there (a link or a file in the way: ENOTDIR). */
static int make_dirs_below(const batch_outdir *od, const char *rel) {
    char path[4096];
    if (snprintf(path, sizeof path, "%s", rel) >= (int)sizeof path) return ENAMETOOLONG;
    for (char *slash = strchr(path, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = 0;
        struct stat st;
        if (mkdirat(od->root_fd, path, 0755) != 0 && errno != EEXIST) return errno;
        if (fstatat(od->root_fd, path, &st, AT_SYMLINK_NOFOLLOW) != 0) return errno;
        if (!S_ISDIR(st.st_mode)) return ENOTDIR;
        *slash = '/';
    }
    return 0;
}

static bool note_extra(batch_outdir *od, const char *rel, const batch_file_id *id) {
    if (od->extra_count == od->extra_cap) {
        size_t cap = od->extra_cap ? 2 * od->extra_cap : 16;
        char **paths = realloc(od->extras, cap * sizeof *paths);
        if (paths) od->extras = paths;
        batch_file_id *ids = paths ? realloc(od->extra_ids, cap * sizeof *ids) : NULL;
        if (ids) od->extra_ids = ids;
        if (!paths || !ids) return false;
        od->extra_cap = cap;
    }
    if ((od->extras[od->extra_count] = strdup(rel)) == NULL) return false;
    od->extra_ids[od->extra_count++] = *id;
    return true;
}

int batch_outdir_put_extra(batch_outdir *od, const char *rel, const void *data, size_t size) {
    if (!batch_path_inside(rel)) return EINVAL;
    char staged[4300];
    batch_file_id id;
    int err = make_dirs_below(od, rel);
    if (!err) err = stage(od, data, size, staged, sizeof staged);
    if (err) return err;
    if ((err = place(od, staged, rel, &id)) != 0) {
        unlink(staged);
        return err;
    }
    ue_buf line = {0};
    err = batch_marker_placed_line(&line, rel, &id) ? append_marker(od, &line) : (ue_buf_free(&line), ENAMETOOLONG);
    if (!err && !note_extra(od, rel, &id)) err = ENOMEM;
    if (err) remove_output(od, rel); /* listed, or absent */
    return err;
}

/* ---- the end ---------------------------------------------------------------------------------- */

static bool is_output(batch_status s) { return s == BATCH_CONVERTED || s == BATCH_KEPT; }

/* The lines of one record in the settled marker: an output with its identities; the paths of a
 * model left (a file not ours at its path) as "left", so OUT is still recognised. */
static bool settle_record(const batch_outdir *od, const batch_record *r, marker_table *now, ue_buf *text) {
    size_t n = 1 + batch_record_side_count(r);
    for (size_t i = 0; i < n; i++)
        if (file_path(r, i) && !marker_table_add(now, file_path(r, i))) return false;
    if (is_output(r->status)) return output_lines(text, r) && placed_lines(text, r);
    /* A model left: its files still as the batch placed them stay its own (removing the file
     * that is not lets the next run convert the model again); the others are listed as left. */
    bool ok = true;
    for (size_t i = 0; ok && i < n; i++) {
        const char *path = file_path(r, i);
        if (!path) continue;
        if (ours(od, path)) ok = batch_marker_placed_line(text, path, &marker_table_get(od->earlier, path)->id);
        else if (something_at(od, path)) ok = batch_marker_left_line(text, path);
    }
    return ok;
}

/* A complete run: OUT holds exactly what a fresh run of the command would write, and the marker
 * says so (each output once, in input order). An earlier output this run neither kept nor wrote
 * (its input is gone, or its model fails now) is removed when it is ours, else left and listed. */
static void settle(batch_outdir *od, const batch_records *l) {
    marker_table *now = marker_table_new();
    ue_buf text = {0};
    ue_buf_put(&text, od->header.data, od->header.size);
    bool ok = now != NULL;
    for (size_t i = 0; ok && i < l->count; i++) {
        const batch_record *r = l->items[i];
        if (r->kind == BATCH_MODEL && (is_output(r->status) || r->status == BATCH_LEFT))
            ok = settle_record(od, r, now, &text);
    }
    for (size_t i = 0; ok && i < od->extra_count; i++)
        ok = marker_table_add(now, od->extras[i]) && batch_marker_placed_line(&text, od->extras[i], &od->extra_ids[i]);
    marker_entry *e;
    for (size_t i = 0; ok && marker_table_at(od->earlier, i, &e); i++) {
        if (!e || marker_table_get(now, e->path)) continue;
        if (ours(od, e->path)) {
            remove_output(od, e->path);
        } else if (something_at(od, e->path)) {
            warn_left(od, e);
            ok = batch_marker_left_line(&text, e->path);
        }
    }
    /* when this cannot be written, the appended marker stays, and is as good */
    if (ok && !text.failed) replace_own(od, BATCH_MARKER, text.data, text.size);
    ue_buf_free(&text);
    marker_table_free(now);
}

void batch_outdir_close(batch_outdir *od, const batch_records *l, bool complete) {
    if (!od) return;
    if (od->marker_fd >= 0) {
        if (complete && l) settle(od, l);
        close(od->marker_fd);
        empty_staging(od, true);
    }
    if (od->root_fd >= 0) close(od->root_fd); /* the lock ends */
    marker_table_free(od->earlier);
    ue_buf_free(&od->header);
    for (size_t i = 0; i < od->extra_count; i++) free(od->extras[i]);
    free(od->extras);
    free(od->extra_ids);
    free(od);
}

void batch_outdir_discard(batch_outdir *od) {
    if (od->marker_fd >= 0 && !od->resuming) unlinkat(od->root_fd, BATCH_MARKER, 0);
    bool created = od->created;
    char root[4096];
    snprintf(root, sizeof root, "%s", od->root);
    batch_outdir_close(od, NULL, false);
    if (created) rmdir(root);
}
