/* unearth CLI — the one output-safety rule every writing verb applies before it writes: an
 * output that is, contains or lies inside one of the command's inputs is refused, -f or not. */
#include <stdio.h>
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
