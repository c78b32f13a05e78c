/* unearth CLI — the one output-safety rule every writing verb applies before it writes: an
 * output that is, contains or lies inside one of the command's inputs is refused, -f or not;
 * and an output of several files (.gltf + .bin + PNGs) written whole or not at all. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "unearth/advanced/files.h"
#include "unearth/advanced/buffers.h"

static ue_result check_one(const char *output, const char *const *inputs, size_t input_count,
                           ue_diag *d) {
    ue_result r = UE_OK;
    for (size_t i = 0; i < input_count && r == UE_OK; i++)
        r = ue_output_check_input(output, inputs[i], d);
    return r;
}

ue_result cli_output_conflict(const char *output, const char *companion,
                              const char *const *inputs, size_t input_count, ue_diag *d) {
    ue_result r = check_one(output, inputs, input_count, d);
    if (r == UE_OK && companion) r = check_one(companion, inputs, input_count, d);
    return r;
}

/* Every file checked before any is written: none is, contains or lies inside an input, and
 * without `force` none exists (each existing one is named, not only the first). */
static ue_result check_all(const cli_out_file *files, size_t count, bool force, const char *const *inputs,
                           size_t input_count, ue_diag *d) {
    ue_result r = UE_OK;
    for (size_t i = 0; i < count && r == UE_OK; i++) r = check_one(files[i].path, inputs, input_count, d);
    size_t taken = 0;
    for (size_t i = 0; i < count && r == UE_OK && !force; i++) {
        if (!ue_path_exists(files[i].path)) continue;
        ue_diag_add(d, UE_SEV_ERROR, "io.exists", UE_NO_OFFSET, files[i].path, "output exists (use -f to overwrite)");
        taken++;
    }
    return r == UE_OK && taken ? UE_ERR_USAGE : r;
}

/* Up to this many files are staged together (one open descriptor each) and placed only once
 * all of them are written; a larger output goes one file at a time. */
#define STAGE_TOGETHER 256

static ue_result stage(ue_file_sink *sink, const cli_out_file *f, bool force, ue_diag *d) {
    ue_result r = ue_file_sink_begin(sink, f->path, force, d);
    if (r != UE_OK) return r;
    r = ue_sink_put(&sink->sink, f->data, f->size);
    if (r == UE_OK) r = ue_file_sink_flush(sink);
    if (r != UE_OK) {
        int err = errno;
        ue_diag_add(d, UE_SEV_ERROR, "io.write", UE_NO_OFFSET, f->path, "cannot write: %s", strerror(err));
        ue_file_sink_abort(sink);
        errno = err;
    }
    return r;
}

/* Every file written unplaced first, then all placed (in the given order: the main file last,
 * so it never names a missing one): a failure while writing leaves every existing file as it
 * was, -f or not. Placing (a link or rename) fails only if the folder changes meanwhile; then the
 * files this run created are removed again, and the ones it already replaced stay replaced. */
static ue_result write_staged(const cli_out_file *files, size_t count, bool force, ue_diag *d) {
    ue_file_sink *sinks = ue_calloc_items(count, sizeof *sinks);
    bool *created = ue_calloc_items(count, sizeof *created);
    if (!sinks || !created) return free(sinks), free(created), UE_ERR_NOMEM;
    size_t staged = 0, placed = 0;
    ue_result r = UE_OK;
    for (; r == UE_OK && staged < count; staged++) r = stage(&sinks[staged], &files[staged], force, d);
    if (r != UE_OK) staged--; /* the one that failed cleaned up after itself */
    int err = errno;
    for (size_t i = 0; i < staged; i++) {
        if (r != UE_OK) {
            ue_file_sink_abort(&sinks[i]);
            continue;
        }
        created[i] = !ue_path_exists(files[i].path);
        r = ue_file_sink_commit(&sinks[i], d), err = errno;
        if (r == UE_OK) placed = i + 1;
    }
    for (size_t i = 0; r != UE_OK && i < placed; i++)
        if (created[i]) unlink(files[i].path);
    free(sinks);
    free(created);
    errno = err; /* a caller tells a full disk from a failure of this one output (common/io.h) */
    return r;
}

/* One file at a time (each whole or absent: an unnamed file linked into place); on a failure
 * the files this run created are removed again, and the ones it replaced (-f) stay replaced. */
static ue_result write_one_by_one(const cli_out_file *files, size_t count, bool force, ue_diag *d) {
    bool *created = ue_calloc_items(count, sizeof *created);
    if (!created) return UE_ERR_NOMEM;
    ue_result r = UE_OK;
    size_t placed = 0;
    for (; r == UE_OK && placed < count; placed++) {
        created[placed] = !ue_path_exists(files[placed].path);
        r = ue_file_write_atomic(files[placed].path, files[placed].data, files[placed].size, force, d);
    }
    if (r != UE_OK) {
        int err = errno;
        for (size_t i = 0; i + 1 < placed; i++)
            if (created[i]) unlink(files[i].path);
        errno = err;
    }
    free(created);
    return r;
}

ue_result cli_write_outputs(const cli_out_file *files, size_t count, bool force, const char *const *inputs,
                            size_t input_count, ue_diag *d) {
    ue_result r = check_all(files, count, force, inputs, input_count, d);
    if (r != UE_OK) return r;
    return count <= STAGE_TOGETHER ? write_staged(files, count, force, d) : write_one_by_one(files, count, force, d);
}

int cli_check_output(const char *verb, const char *output, const char *const *inputs,
                     size_t input_count) {
    ue_diag d = {0};
    ue_result r = cli_output_conflict(output, NULL, inputs, input_count, &d);
    if (r != UE_OK) {
        cli_print_diags(&d, 1);
        cli_error("%s: nothing written; an input is never overwritten", verb);
    }
    ue_diag_free(&d);
    return r == UE_OK ? 0 : cli_exit_code(r);
}

int cli_refuse_existing(const char *verb, const char *output, bool force) {
    struct stat st;
    if (stat(output, &st) == 0 && S_ISDIR(st.st_mode)) {
        cli_error("%s: %s is a directory; -o names the file to write (a directory is never replaced, "
                  "even with -f)", verb, output);
        return EXIT_USAGE;
    }
    if (!force && ue_path_exists(output)) {
        cli_error("%s: %s exists (use -f to overwrite)", verb, output);
        return EXIT_USAGE;
    }
    return 0;
}
