/* unearth CLI — one model's part of a file's verdict, shared by validate and the verdicts of
 * extract and convert (cmd_model.c) and by convert's one pass over an input (convert_scan.c). */
#ifndef UE_CLI_MODEL_VERDICT_H
#define UE_CLI_MODEL_VERDICT_H

#include "cli/cli.h"
#include "unearth/model.h"
#include "unearth/advanced/model_walk.h"

/* What the visits of validate and of a file's verdict share: the options, the worst exit code
 * so far, the file's running tally, and where the per-model lines go. */
typedef struct model_visits {
    const cli_opts *o;
    int worst;
    cli_tally *sum;
    ue_json *json_models; /* validate --json: one record per model */
    bool print;          /* the verdict: print an invalid model's diagnostics */
} model_visits;

/* One model's part of a file's verdict: its exit code, counts and diagnostics. */
typedef struct model_verdict {
    int code;
    cli_tally t;
    ue_diag d;
} model_verdict;

/* `m` checked by its format; with `kept`, the model as the check read it is handed back for its
 * scene (where the format reads once). */
void model_verdict_check(const cli_opts *o, const ue_model_seen *m, model_verdict *mv, ue_model_kept **kept);
/* Only an invalid model's diagnostics are shown; the file's tally takes the model's. */
void model_verdict_apply(model_visits *v, const char *name, const model_verdict *mv);

#endif
