/* unearth CLI — the output directory of a batch: each output staged and renamed into place (complete
 * or absent), the ownership marker that lists every output as it lands, and resuming an earlier run
 * of the same command, so a stop or an interrupt keeps the finished work (docs/batch.md). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/batch.h"
#include "common/bytes.h"
#include "common/io.h"
#include "common/text.h"
#include "unearth/version.h"

#define MARKER_MAGIC "unearth-batch-marker 1\n"
/* A marker is a few hundred bytes per output; far beyond any game folder. */
#define MARKER_MAX ((size_t)1 << 30)

struct batch_outdir {
    char root[4096];
    char staging[4200];
    int marker_fd;
    bool created;               /* OUT did not exist: made by this run */
    bool resuming;
    ue_buf header;              /* this command: the magic line and one line per option */
    batch_names *earlier;       /* resuming: "OUTPUT\tCOMPANION\tINPUT" of each output listed */
    batch_names *earlier_files; /* every path an earlier run listed: replaced in place */
    char **earlier_paths;       /* the same as a list, to remove what this run did not keep */
    size_t earlier_count, earlier_cap;
    atomic_size_t staged;       /* names of staged files: 0, 1, 2, ... */
};

/* ---- the marker's text ----------------------------------------------------------------------
 * Line 1 the magic, then "option\tNAME\tVALUE" per option that shapes the output bytes, then
 * "file\tOUTPUT\tCOMPANION\tINPUT" per output. Fields escape control bytes and '%' as %XX, so a
 * line holds any file name. */

static void put_escaped(ue_buf *b, const char *s) {
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20 || c == 0x7f || c == '%') ue_buf_printf(b, "%%%02X", c);
        else ue_buf_put(b, s, 1);
    }
}

static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* In place; false on a malformed escape. */
static bool unescape(char *s) {
    char *w = s;
    for (const char *r = s; *r; r++) {
        if (*r != '%') {
            *w++ = *r;
            continue;
        }
        int hi = hex_digit(r[1]), lo = hi < 0 ? -1 : hex_digit(r[2]);
        if (lo < 0) return false;
        *w++ = (char)(hi * 16 + lo);
        r += 2;
    }
    *w = 0;
    return true;
}

/* The marker's line for one output. */
static void put_file_line(ue_buf *b, const batch_record *rec) {
    ue_buf_put(b, "file\t", 5);
    put_escaped(b, rec->output);
    ue_buf_put(b, "\t", 1);
    put_escaped(b, rec->companion ? rec->companion : "");
    ue_buf_put(b, "\t", 1);
    put_escaped(b, rec->input);
    ue_buf_put(b, "\n", 1);
}

static void header_option(ue_buf *b, const char *name, const char *value) {
    ue_buf_printf(b, "option\t%s\t", name);
    put_escaped(b, value ? value : "-");
    ue_buf_put(b, "\n", 1);
}

/* The last --scale, as the number it means (1 and 1.0 are one command). */
static void scale_text(const cli_opts *o, char *out, size_t cap) {
    double scale = 1.0;
    for (size_t i = 0; i + 1 < o->op_count; i++)
        if (!strcmp(o->ops[i], "--scale")) scale = ue_parse_double(o->ops[i + 1], NULL);
    snprintf(out, cap, "%.17g", scale);
}

/* What makes two runs the same command: every option that changes an output's bytes or which
 * models there are, the inputs as given (trailing '/' aside), and the version. -j, -q, -v,
 * --report and -f change no output. */
static void build_header(const cli_opts *o, const char *type, ue_buf *b) {
    ue_buf_put(b, MARKER_MAGIC, strlen(MARKER_MAGIC));
    header_option(b, "version", UE_VERSION);
    header_option(b, "format", type);
    header_option(b, "mode", o->mode == UE_MODE_STRICT ? "strict" : "tolerant");
    header_option(b, "lod", o->lod);
    header_option(b, "group", o->group);
    header_option(b, "fps", o->fps);
    header_option(b, "data", o->data);
    char scale[64];
    scale_text(o, scale, sizeof scale);
    header_option(b, "scale", scale);
    header_option(b, "animation-pointer", o->no_animation_pointer ? "no" : "yes");
    header_option(b, "follow-links", o->follow_links ? "yes" : "no");
    for (size_t i = 0; i < o->input_count; i++) {
        char input[4096];
        snprintf(input, sizeof input, "%s", o->inputs[i]);
        for (size_t n = strlen(input); n > 1 && input[n - 1] == '/';) input[--n] = 0;
        header_option(b, "input", input);
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
                                        "scale", "animation-pointer", "follow-links", "input"};
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

/* A path a batch could have written: relative, below OUT, no "." or ".." part. A marker is read
 * as hostile input: its paths are removed by --fresh, so one leading out of OUT is never taken. */
static bool inside_out(const char *path) {
    if (path[0] == '/') return false;
    for (const char *part = path;;) {
        size_t n = strcspn(part, "/");
        if (n == 0 || (n == 1 && part[0] == '.') || (n == 2 && !strncmp(part, "..", 2))) return false;
        if (!part[n]) return true;
        part += n + 1;
    }
}

static bool remember_path(batch_outdir *od, const char *path) {
    if (!path[0] || !inside_out(path) || batch_names_has(od->earlier_files, path)) return true;
    if (od->earlier_count == od->earlier_cap) {
        size_t cap = od->earlier_cap ? 2 * od->earlier_cap : 64;
        char **grown = realloc(od->earlier_paths, cap * sizeof *grown);
        if (!grown) return false;
        od->earlier_paths = grown, od->earlier_cap = cap;
    }
    char *copy = strdup(path);
    if (!copy || batch_names_reserve(od->earlier_files, path) != UE_OK) {
        free(copy);
        return false;
    }
    od->earlier_paths[od->earlier_count++] = copy;
    return true;
}

/* One "file\tOUTPUT\tCOMPANION\tINPUT" line; anything else (a line a full disk cut short) is
 * passed over. */
static bool remember_line(batch_outdir *od, char *line) {
    char *f[4] = {line, NULL, NULL, NULL};
    for (int i = 1; i < 4; i++) {
        char *tab = strchr(f[i - 1], '\t');
        if (!tab) return true;
        *tab = 0;
        f[i] = tab + 1;
    }
    if (strchr(f[3], '\t') || strcmp(f[0], "file") || !unescape(f[1]) || !unescape(f[2]) || !unescape(f[3]) ||
        !f[1][0])
        return true;
    char key[12400];
    snprintf(key, sizeof key, "%s\t%s\t%s", f[1], f[2], f[3]);
    return batch_names_reserve(od->earlier, key) == UE_OK && remember_path(od, f[1]) && remember_path(od, f[2]);
}

/* Reads OUT's marker: its header goes to *header (allocated), its outputs to od. False when OUT
 * holds no marker or one this version cannot read. */
static bool load_marker(batch_outdir *od, char **header, bool *ends_with_newline) {
    char path[4300];
    snprintf(path, sizeof path, "%s/%s", od->root, BATCH_MARKER);
    uint8_t *data;
    size_t size;
    ue_diag d = {0};
    ue_result r = ue_file_read(path, MARKER_MAX, &data, &size, &d);
    ue_diag_free(&d);
    if (r != UE_OK) return false;
    char *text = realloc(data, size + 1);
    if (!text) {
        free(data);
        return false;
    }
    text[size] = 0;
    bool ok = size >= strlen(MARKER_MAGIC) && !memcmp(text, MARKER_MAGIC, strlen(MARKER_MAGIC)) &&
              strlen(text) == size;
    *ends_with_newline = size && text[size - 1] == '\n';
    char *files = ok ? strstr(text, "\nfile\t") : NULL;
    *header = ok ? strndup(text, files ? (size_t)(files - text) + 1 : size) : NULL;
    ok = ok && *header;
    for (char *line = files ? files + 1 : NULL; ok && line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = 0;
        ok = remember_line(od, line);
        line = nl ? nl + 1 : NULL;
    }
    free(text);
    return ok;
}

/* An OUT written by a version without the marker is recognised by its report's "files". */
static bool load_report_files(batch_outdir *od) {
    char path[4300];
    snprintf(path, sizeof path, "%s/%s", od->root, BATCH_REPORT);
    json_t *j = json_load_file(path, 0, NULL);
    json_t *files = json_object_get(j, "files");
    bool ok = json_is_integer(json_object_get(j, "unearth_batch")) && json_is_array(files);
    for (size_t i = 0; ok && i < json_array_size(files); i++) {
        const char *f = json_string_value(json_array_get(files, i));
        ok = f && remember_path(od, f);
    }
    json_decref(j);
    return ok;
}

static bool listed(const char *rel, void *ctx) {
    const batch_outdir *od = ctx;
    size_t n = strlen(BATCH_STAGING);
    return !strcmp(rel, BATCH_REPORT) || !strcmp(rel, BATCH_MARKER) ||
           (!strncmp(rel, BATCH_STAGING, n) && rel[n] == '/') || batch_names_has(od->earlier_files, rel);
}

/* ---- removing what this batch wrote ----------------------------------------------------------- */

/* Removes the folders from `rel`'s parent up to OUT that are now empty. */
static void remove_empty_parents(const batch_outdir *od, const char *rel) {
    char path[8300];
    snprintf(path, sizeof path, "%s/%s", od->root, rel);
    size_t root_len = strlen(od->root);
    for (char *slash; (slash = strrchr(path, '/')) != NULL && (size_t)(slash - path) > root_len;) {
        *slash = 0;
        if (rmdir(path) != 0) break; /* holds something: so do its parents */
    }
}

static void remove_output(const batch_outdir *od, const char *rel) {
    char path[8300];
    snprintf(path, sizeof path, "%s/%s", od->root, rel);
    if (unlink(path) == 0) remove_empty_parents(od, rel);
}

/* The staging folder holds only files this batch (or a killed one) staged: their names are
 * numbers, never an output's. */
static void empty_staging(const batch_outdir *od, bool remove_folder) {
    DIR *h = opendir(od->staging);
    if (h) {
        struct dirent *e;
        while ((e = readdir(h)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            char path[8300];
            snprintf(path, sizeof path, "%s/%s", od->staging, e->d_name);
            unlink(path);
        }
        closedir(h);
    }
    if (remove_folder) rmdir(od->staging);
}

/* --fresh (or -f over other options): every output an earlier run listed, and its report, go;
 * only files it listed are removed, so a file dropped in meanwhile stays. */
static void clear_earlier(batch_outdir *od) {
    for (size_t i = 0; i < od->earlier_count; i++) {
        remove_output(od, od->earlier_paths[i]);
        free(od->earlier_paths[i]);
    }
    od->earlier_count = 0;
    char path[4300];
    snprintf(path, sizeof path, "%s/%s", od->root, BATCH_REPORT);
    unlink(path);
    batch_names_free(od->earlier_files);
    od->earlier_files = batch_names_new();
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
    char *earlier_header = NULL;
    bool newline = true;
    bool marker = load_marker(od, &earlier_header, &newline);
    bool known = marker || load_report_files(od);
    if (!known || !ue_dir_holds_only_or_empty(od->root, listed, od)) {
        free(earlier_header);
        return refuse(od, "io.output.foreign", "output directory is not empty and is not %s; refusing to "
                      "replace it, even with -f (choose a new or empty directory)", "an unearth convert -r output");
    }
    bool same = marker && !strcmp(earlier_header, (const char *)od->header.data);
    char differs[256] = "its options, which an earlier version did not record";
    if (marker && !same) header_difference(earlier_header, (const char *)od->header.data, differs, sizeof differs);
    free(earlier_header);
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
    char path[4300], staged[4300];
    snprintf(path, sizeof path, "%s/%s", od->root, name);
    int err = stage(od, data, size, staged, sizeof staged);
    if (!err && rename(staged, path) != 0) err = errno, unlink(staged);
    return err;
}

/* The marker of a new run: its header, staged and renamed, then opened for appending. */
static int start_marker(batch_outdir *od, int state) {
    char path[4300];
    snprintf(path, sizeof path, "%s/%s", od->root, BATCH_MARKER);
    int err = od->resuming ? 0 : replace_own(od, BATCH_MARKER, od->header.data, od->header.size);
    if (!err) od->marker_fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (!err && od->marker_fd < 0) err = errno;
    if (!err && state < 0 && !write_all(od->marker_fd, "\n", 1)) err = errno;
    return err;
}

static int prepare(batch_outdir *od, int state) {
    int err = 0;
    if (mkdir(od->staging, 0755) != 0 && errno != EEXIST) err = errno;
    if (!err) empty_staging(od, false);
    if (!err) err = start_marker(od, state);
    if (!err) return 0;
    cli_error("convert: %s: cannot write into the output directory: %s; nothing converted", od->root, strerror(err));
    rmdir(od->staging);
    if (od->created) rmdir(od->root);
    return EXIT_IO;
}

int batch_outdir_open(const cli_opts *o, const char *type, batch_outdir **out) {
    batch_outdir *od = calloc(1, sizeof *od);
    *out = od;
    if (!od) return EXIT_IO;
    od->marker_fd = -1;
    snprintf(od->root, sizeof od->root, "%s", o->output);
    for (size_t n = strlen(od->root); n > 1 && od->root[n - 1] == '/';) od->root[--n] = 0;
    snprintf(od->staging, sizeof od->staging, "%s/%s", od->root, BATCH_STAGING);
    build_header(o, type, &od->header);
    ue_buf_put(&od->header, "", 1); /* a C string */
    od->earlier = batch_names_new();
    od->earlier_files = batch_names_new();
    if (od->header.failed || !od->earlier || !od->earlier_files) return EXIT_IO;
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
    } else if (!dir_is_empty(od->root) && (state = adopt_earlier(o, od)) > 0) {
        return state;
    }
    return prepare(od, state);
}

const char *batch_outdir_root(const batch_outdir *od) { return od->root; }

/* ---- one output ------------------------------------------------------------------------------- */

static int64_t mtime_ns(const struct stat *st) {
    return (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
}

/* The input file's time: for ARCHIVE:ENTRY, the archive's. */
static int64_t input_mtime(const char *input) {
    char path[4096];
    snprintf(path, sizeof path, "%s", input);
    struct stat st;
    char *colon;
    int found;
    while ((found = stat(path, &st)) != 0 && (colon = strrchr(path, ':')) != NULL && colon != path) *colon = 0;
    return found == 0 ? mtime_ns(&st) : -1;
}

static bool newer_output(const batch_outdir *od, const char *rel, int64_t since) {
    char path[8300];
    snprintf(path, sizeof path, "%s/%s", od->root, rel);
    struct stat st;
    return lstat(path, &st) == 0 && S_ISREG(st.st_mode) && mtime_ns(&st) >= since;
}

bool batch_outdir_kept(const batch_outdir *od, batch_record *file, const batch_record *model) {
    if (!od->resuming || !model->output) return false;
    char key[12400];
    snprintf(key, sizeof key, "%s\t%s\t%s", model->output, model->companion ? model->companion : "", model->input);
    if (!batch_names_has(od->earlier, key)) return false;
    if (file->mtime_ns == 0) file->mtime_ns = input_mtime(file->input);
    if (file->mtime_ns < 0) return false;
    return newer_output(od, model->output, file->mtime_ns) &&
           (!model->companion || newer_output(od, model->companion, file->mtime_ns));
}

bool batch_outdir_present(const batch_outdir *od, const batch_record *rec) {
    return rec->output && newer_output(od, rec->output, INT64_MIN) &&
           (!rec->companion || newer_output(od, rec->companion, INT64_MIN));
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

/* Renames a staged file to its place. A path an earlier run of this command listed is replaced;
 * any other is created only if nothing stands there (a file put there meanwhile is no output). */
static int place(const batch_outdir *od, const char *staged, const char *rel) {
    char to[8300];
    snprintf(to, sizeof to, "%s/%s", od->root, rel);
    if (batch_names_has(od->earlier_files, rel)) return rename(staged, to) == 0 ? 0 : errno;
    if (renameat2(AT_FDCWD, staged, AT_FDCWD, to, RENAME_NOREPLACE) == 0) return 0;
    if (errno != EINVAL && errno != ENOSYS) return errno;
    struct stat st; /* a file system without RENAME_NOREPLACE */
    if (lstat(to, &st) == 0) return EEXIST;
    return rename(staged, to) == 0 ? 0 : errno;
}

/* Listed before it is renamed into place, so every output OUT holds is in the marker. */
static int list_output(batch_outdir *od, const batch_record *rec) {
    ue_buf line = {0};
    put_file_line(&line, rec);
    /* one write with O_APPEND: lines of two threads never mix */
    int err = line.failed ? ENOMEM : write_all(od->marker_fd, line.data, line.size) ? 0 : errno;
    ue_buf_free(&line);
    return err;
}

static int failed_at(int err, const char *what, char *failed, size_t cap) {
    snprintf(failed, cap, "%s", what);
    return err;
}

int batch_outdir_put(batch_outdir *od, const batch_record *rec, const void *main, size_t main_size,
                     const void *side, size_t side_size, char *failed, size_t failed_cap) {
    char staged_main[4300], staged_side[4300] = "";
    int err = 0;
    if (rec->companion && (err = stage(od, side, side_size, staged_side, sizeof staged_side)) != 0)
        return failed_at(err, rec->companion, failed, failed_cap);
    if ((err = stage(od, main, main_size, staged_main, sizeof staged_main)) != 0) {
        if (staged_side[0]) unlink(staged_side);
        return failed_at(err, rec->output, failed, failed_cap);
    }
    const char *what = BATCH_MARKER;
    err = list_output(od, rec);
    if (!err && rec->companion) err = place(od, staged_side, what = rec->companion);
    if (!err) err = place(od, staged_main, what = rec->output);
    if (!err) return 0;
    unlink(staged_main);
    if (staged_side[0]) unlink(staged_side);
    /* the companion without its main file is no output: complete or absent */
    if (rec->companion && what == rec->output) remove_output(od, rec->companion);
    return failed_at(err, what, failed, failed_cap);
}

int batch_outdir_put_report(batch_outdir *od, const char *text) {
    return replace_own(od, BATCH_REPORT, text, strlen(text));
}

/* ---- the end ---------------------------------------------------------------------------------- */

static bool is_output(batch_status s) { return s == BATCH_CONVERTED || s == BATCH_KEPT; }

/* A complete run: OUT holds exactly what a fresh run of the command would write, and the marker
 * says so (each output once, in input order). */
static void settle(batch_outdir *od, const batch_records *l) {
    batch_names *now = batch_names_new();
    ue_buf text = {0};
    ue_buf_put(&text, od->header.data, od->header.size);
    bool ok = now != NULL;
    for (size_t i = 0; ok && i < l->count; i++) {
        const batch_record *r = l->items[i];
        if (r->kind != BATCH_MODEL || !is_output(r->status)) continue;
        ok = batch_names_reserve(now, r->output) == UE_OK &&
             (!r->companion || batch_names_reserve(now, r->companion) == UE_OK);
        put_file_line(&text, r);
    }
    /* outputs of inputs that are gone, or of models that fail now */
    for (size_t i = 0; ok && i < od->earlier_count; i++)
        if (!batch_names_has(now, od->earlier_paths[i])) remove_output(od, od->earlier_paths[i]);
    /* when this cannot be written, the appended marker stays, and is as good */
    if (ok && !text.failed) replace_own(od, BATCH_MARKER, text.data, text.size);
    ue_buf_free(&text);
    batch_names_free(now);
}

void batch_outdir_close(batch_outdir *od, const batch_records *l, bool complete) {
    if (!od) return;
    if (od->marker_fd >= 0) {
        if (complete && l) settle(od, l);
        close(od->marker_fd);
        empty_staging(od, true);
    }
    for (size_t i = 0; i < od->earlier_count; i++) free(od->earlier_paths[i]);
    free(od->earlier_paths);
    batch_names_free(od->earlier);
    batch_names_free(od->earlier_files);
    ue_buf_free(&od->header);
    free(od);
}

void batch_outdir_discard(batch_outdir *od) {
    if (od->marker_fd >= 0 && !od->resuming) {
        char path[4300];
        snprintf(path, sizeof path, "%s/%s", od->root, BATCH_MARKER);
        unlink(path);
    }
    bool created = od->created;
    char root[4096];
    snprintf(root, sizeof root, "%s", od->root);
    batch_outdir_close(od, NULL, false);
    if (created) rmdir(root);
}
