/* unearth CLI — convert's one pass over an input (docs/architecture.md#one-read-per-input): its
 * container opened and checked once, each model checked on the bytes that check read, and the
 * models handed to convert's jobs (cmd_convert.c). */
#ifndef UE_CLI_CONVERT_SCAN_H
#define UE_CLI_CONVERT_SCAN_H

#include "cli/model_verdict.h"
#include "unearth/archive.h"

/* A model met by the pass: its name and its part of the file's verdict. */
typedef struct scanned_model {
    char name[sizeof ((ue_model_found *)0)->name];
    model_verdict verdict;
} scanned_model;

/* What convert's one pass over an input gives (docs/architecture.md#one-read-per-input): the
 * container opened once, mapped, and checked as validate checks it, and each model met on the
 * way, checked by its format then and there, on the bytes the check of its container read.
 * A format that reads once keeps the model as its check read it, for the job; the bytes of
 * any other model are copied for its job. A bare model (no container) is one such model. */
typedef struct input_scan {
    const cli_opts *o;
    bool scanned;             /* the pass took the input: its verdict and models are here */
    ue_archive *a;            /* the container, NULL for a bare model */
    ue_diag container;        /* opening and validation, as the file's verdict has them */
    ue_result checked;        /* validation's result */
    ue_model_found *found;    /* the models, until the jobs take them; data NULL where kept */
    ue_model_kept **kept;     /* what each model's check kept of it, or NULL, until the jobs take it */
    scanned_model *models;
    size_t count, cap;
} input_scan;

/* The pass over an input; false when `file` is neither a container nor a model (a missing
 * file) or the pass could not see every model (a limit stopped validation): collect and the
 * verdict then read it their own way, as before. A bare model's verdict is its own check, as
 * file_verdict has it. *fatal: out of memory. */
bool scan_input(const cli_opts *o, const char *file, input_scan *sc, int *fatal);
/* The models the pass found and what their checks kept of them, handed over. */
void scan_take_models(input_scan *sc, ue_model_found **found, ue_model_kept ***kept, size_t *count);
/* file_verdict's verdict from what the pass read: the container's checks, then its models'. */
int scan_verdict(const cli_opts *o, const char *path, input_scan *sc, bool print, cli_tally *t);
void scan_free(input_scan *sc);
/* Frees the models and what was kept of them (`kept` may be NULL). */
void found_kept_free(ue_model_found *found, ue_model_kept **kept, size_t count);

#endif
