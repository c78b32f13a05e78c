/* unearth CLI — internal: the command-line options that belong to model formats (--lod, --group,
 * --fps, --data, --wear) as the registry's key=value list, filtered per format in a run of several models. */
#ifndef UE_CLI_FORMAT_OPTS_H
#define UE_CLI_FORMAT_OPTS_H

#include <pthread.h>

#include "cli/cli.h"
#include "unearth/model_format.h"

/* --anims may be given this many times (its items follow the single-valued options). */
enum { CLI_ANIMS_MAX = 16 };

/* An option a format does not have, passed over for that many of its models (converted, failed
 * or, in a continued batch, kept: each was made without it). */
typedef struct cli_ignored_option {
    const ue_model_format *format;
    const char *key;
    size_t option_rank; /* its place in cli_format_opts.items */
    size_t models;
} cli_ignored_option;

struct cli_format_opts {
    ue_model_option *items; /* every option given, a list of any length (malloc) */
    size_t count;
    bool out_of_memory;     /* an option could not be kept: every model then fails, none goes without it */
    /* Several models (a batch, a convert that found more than one): a model gets only the
     * options its format has, and the rest are counted here (threads convert at once). One
     * model: it gets every option, and one its format lacks is a usage error. */
    bool per_format;
    pthread_mutex_t lock;
    cli_ignored_option *ignored; /* registry order, then option order (malloc) */
    size_t ignored_count;
    /* What models read beside them (WEAR tables, material libraries), shared by every model of
     * the run so each is read once (may be NULL: then each model reads its own). */
    ue_cache *cache;
};

void cli_format_opts_init(cli_format_opts *f, const cli_opts *o);
void cli_format_opts_destroy(cli_format_opts *f);
/* Appends the option key=value (both borrowed) after those given; false when out of memory. */
bool cli_format_opts_add(cli_format_opts *f, const char *key, const char *value);
/* The options a model of `format` is given, in a new array (free it) with room for one more
 * after them, and *count their number; NULL when out of memory. */
ue_model_option *cli_format_opts_for(cli_format_opts *f, const ue_model_format *format, size_t *count);
/* One warning per option and format that passed it over: "--lod ignored for 2 HAL SysDolphin
 * .dat models (an option of Parkan MSH models only)". */
void cli_format_opts_report(cli_format_opts *f);

#endif
