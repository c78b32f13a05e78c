/* unearth CLI — shared declarations of the command-line front end: parsed options, the verbs,
 * and how library results become messages and exit codes. */
#ifndef UE_CLI_H
#define UE_CLI_H

#include "unearth/common.h"

/* Exit codes of the CLI contract. */
enum { EXIT_OK_ = 0, EXIT_INVALID = 1, EXIT_USAGE = 2, EXIT_IO = 3 };

typedef struct cli_opts {
    const char *verb;
    const char **inputs;
    size_t input_count;
    const char *output;
    bool force;
    bool json;
    ue_mode mode;
    bool mode_given;
    bool quiet;
} cli_opts;

int cli_exit_code(ue_result r);
/* Prints every diagnostic to stderr (at most `limit`, 0 = all) and a count of the rest. */
void cli_print_diags(const ue_diag *d, size_t limit);
void cli_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

int cmd_info(const cli_opts *o);
int cmd_list(const cli_opts *o);
int cmd_extract(const cli_opts *o);
int cmd_pack(const cli_opts *o);
int cmd_validate(const cli_opts *o);
int cmd_roundtrip(const cli_opts *o);
int cmd_demo(const cli_opts *o);

#endif
