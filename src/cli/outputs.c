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
#include "common/io.h"

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

/* Every file checked and staged (an unnamed file each) before any is put in place. */
static ue_result stage_all(const cli_out_file *files, size_t count, bool force, const char *const *inputs,
                           size_t input_count, ue_file_sink *sinks, size_t *begun, ue_diag *d) {
    ue_result r = UE_OK;
    for (size_t i = 0; i < count && r == UE_OK; i++) r = check_one(files[i].path, inputs, input_count, d);
    /* Every existing name is said before anything is written, not only the first. */
    for (size_t i = 0; i < count && r == UE_OK && !force; i++)
        if (ue_path_exists(files[i].path)) ue_diag_add(d, UE_SEV_ERROR, "io.exists", UE_NO_OFFSET, files[i].path,
                                                       "output exists (use -f to overwrite)");
    if (r == UE_OK && !force && ue_diag_count(d, UE_SEV_ERROR)) r = UE_ERR_USAGE;
    for (*begun = 0; r == UE_OK && *begun < count; ++*begun) {
        r = ue_file_sink_begin(&sinks[*begun], files[*begun].path, force, d);
        if (r != UE_OK) break;
        r = ue_sink_put(&sinks[*begun].sink, files[*begun].data, files[*begun].size);
        if (r != UE_OK) {
            int err = errno;
            ue_diag_add(d, UE_SEV_ERROR, "io.write", UE_NO_OFFSET, files[*begun].path, "cannot write: %s",
                        strerror(err));
            ue_file_sink_abort(&sinks[*begun]);
            errno = err;
        }
    }
    return r;
}

ue_result cli_write_outputs(const cli_out_file *files, size_t count, bool force, const char *const *inputs,
                            size_t input_count, ue_diag *d) {
    ue_file_sink *sinks = calloc(count ? count : 1, sizeof *sinks);
    if (!sinks) return UE_ERR_NOMEM;
    size_t begun = 0, placed = 0;
    ue_result r = stage_all(files, count, force, inputs, input_count, sinks, &begun, d);
    for (; r == UE_OK && placed < count; placed++) r = ue_file_sink_commit(&sinks[placed], d);
    int err = errno;
    if (r != UE_OK) {
        for (size_t i = placed; i < begun; i++) ue_file_sink_abort(&sinks[i]);
        /* the file whose commit failed is no longer ours to remove; those before it are */
        for (size_t i = 0; i + 1 < placed; i++) unlink(files[i].path);
    }
    free(sinks);
    errno = err; /* a caller tells a full disk from a failure of this one output (common/io.h) */
    return r;
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
