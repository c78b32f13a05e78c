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
    int lod;                /* --lod N (default 0) */
    int group;              /* --group G (default -1: every group) */
    bool recursive;         /* -r: walk directories given as inputs */
    int jobs;               /* -j N: models converted in parallel */
    const char *format;     /* --format glb|gltf|obj for directory outputs */
} cli_opts;

int cli_exit_code(ue_result r);
/* Prints every diagnostic to stderr (at most `limit`, 0 = all) and a count of the rest. */
void cli_print_diags(const ue_diag *d, size_t limit);
/* The same, each line prefixed with "PREFIX: " (the model or file the list belongs to). */
void cli_print_diags_as(const char *prefix, const ue_diag *d, size_t limit);
/* Diagnostics as a JSON array of {severity, code, offset, path, message} (new reference). */
struct json_t *cli_diags_json(const ue_diag *d);
void cli_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Output safety (src/cli/outputs.c). The diagnostic form: UE_ERR_USAGE when `output` (or the
 * companion file written beside it, x.gltf → x.bin when `companion_ext` is "bin") is, contains
 * or lies inside any input. */
ue_result cli_output_conflict(const char *output, const char *companion_ext,
                              const char *const *inputs, size_t input_count, ue_diag *d);
/* The printing form: 0 when `output` is safe; otherwise prints why and returns exit code 2. */
int cli_check_output(const char *verb, const char *output, const char *const *inputs,
                     size_t input_count);

int cmd_info(const cli_opts *o);
int cmd_list(const cli_opts *o);
int cmd_extract(const cli_opts *o);
int cmd_pack(const cli_opts *o);
int cmd_validate(const cli_opts *o);
int cmd_roundtrip(const cli_opts *o);
int cmd_demo(const cli_opts *o);
int cmd_convert(const cli_opts *o);
int cmd_edit(int argc, char **argv); /* its own argument grammar: ordered operations */

/* Model-aware parts of the generic verbs (src/cli/cmd_model.c). */
/* Prints model statistics when `path` is (or addresses) one model; returns -1 if it is not. */
int model_info(const cli_opts *o, const char *path);
/* Validates every model reachable from `path`; adds per-model summaries (JSON array `models`
 * when json is not NULL). Returns the worst exit code. */
int models_validate(const cli_opts *o, const char *path, void *json_models);
/* Proves decode → encode of every model's tables; prints a line per model. */
int models_roundtrip(const cli_opts *o, const char *path);

#endif
