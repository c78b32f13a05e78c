/* unearth CLI — the options of model formats given on the command line: every one for a single
 * model (a format refuses what it lacks), and in a run of several only each format's own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/format_opts.h"
#include "unearth/model.h"

void cli_format_opts_init(cli_format_opts *f, const cli_opts *o) {
    memset(f, 0, sizeof *f);
    pthread_mutex_init(&f->lock, NULL);
    const struct {
        const char *key, *value;
    } given[] = {{"lod", o->lod}, {"group", o->group}, {"fps", o->fps}, {"data", o->data}, {"wear", o->wear}};
    for (size_t i = 0; i < sizeof given / sizeof given[0]; i++)
        if (given[i].value) cli_format_opts_add(f, given[i].key, given[i].value);
    for (size_t i = 0; i < o->anims_count; i++) cli_format_opts_add(f, "anims", o->anims[i]);
}

bool cli_format_opts_add(cli_format_opts *f, const char *key, const char *value) {
    ue_model_option *grown = realloc(f->items, (f->count + 1) * sizeof *grown);
    if (!grown) {
        f->out_of_memory = true;
        return false;
    }
    f->items = grown;
    f->items[f->count++] = (ue_model_option){key, value};
    return true;
}

void cli_format_opts_destroy(cli_format_opts *f) {
    pthread_mutex_destroy(&f->lock);
    free(f->items);
    free(f->ignored);
}

static bool has_option(const ue_model_format *format, const char *key) {
    for (size_t i = 0; i < format->option_count; i++)
        if (!strcmp(format->options[i].key, key)) return true;
    return false;
}

/* Where `format` stands in the registry: the table is kept in registry order, then in the order
 * of the options, so the warnings and the report do not depend on which thread came first. */
static size_t registry_rank(const ue_model_format *format) {
    size_t count;
    const ue_model_format *const *formats = ue_model_formats(&count);
    for (size_t i = 0; i < count; i++)
        if (formats[i] == format) return i;
    return count;
}

static bool ranks_before(const cli_ignored_option *a, size_t format_rank, size_t option_rank) {
    size_t a_rank = registry_rank(a->format);
    return a_rank < format_rank || (a_rank == format_rank && a->option_rank < option_rank);
}

/* Counts one model of `format` that passed f->items[option] over (under the lock). */
static void count_ignored(cli_format_opts *f, const ue_model_format *format, size_t option) {
    size_t at = 0, rank = registry_rank(format);
    for (; at < f->ignored_count && ranks_before(&f->ignored[at], rank, option); at++) {}
    if (at < f->ignored_count && f->ignored[at].format == format && f->ignored[at].option_rank == option) {
        f->ignored[at].models++;
        return;
    }
    cli_ignored_option *grown = realloc(f->ignored, (f->ignored_count + 1) * sizeof *grown);
    if (!grown) return; /* out of memory: the model only goes uncounted in the warning */
    f->ignored = grown;
    memmove(&f->ignored[at + 1], &f->ignored[at], (f->ignored_count++ - at) * sizeof f->ignored[0]);
    f->ignored[at] = (cli_ignored_option){format, f->items[option].key, option, 1};
}

ue_model_option *cli_format_opts_for(cli_format_opts *f, const ue_model_format *format, size_t *count) {
    ue_model_option *items = f->out_of_memory ? NULL : malloc((f->count + 1) * sizeof *items);
    size_t n = 0;
    for (size_t i = 0; items && i < f->count; i++) {
        if (!f->per_format || has_option(format, f->items[i].key)) {
            items[n++] = f->items[i];
            continue;
        }
        pthread_mutex_lock(&f->lock);
        count_ignored(f, format, i);
        pthread_mutex_unlock(&f->lock);
    }
    *count = n;
    return items;
}

/* "Parkan MSH models": the formats that do take `key`, in registry order. */
static void owners_of(const char *key, char *out, size_t cap) {
    size_t count, at = 0;
    const ue_model_format *const *formats = ue_model_formats(&count);
    out[0] = 0;
    for (size_t i = 0; i < count && at < cap; i++) {
        if (!has_option(formats[i], key)) continue;
        int w = snprintf(out + at, cap - at, "%s%ss", at ? ", " : "", formats[i]->description);
        at = w < 0 ? cap : at + (size_t)w;
    }
}

void cli_format_opts_report(cli_format_opts *f) {
    ue_diag d = {0};
    for (size_t i = 0; i < f->ignored_count; i++) {
        const cli_ignored_option *g = &f->ignored[i];
        char owners[256];
        owners_of(g->key, owners, sizeof owners);
        ue_diag_add(&d, UE_SEV_WARNING, "convert.option.ignored", UE_NO_OFFSET, g->format->name,
                    "--%s ignored for %zu %s%s (an option of %s only)", g->key, g->models,
                    g->format->description, cli_plural(g->models, "", "s"), owners);
    }
    cli_print_diags(&d, 0);
    ue_diag_free(&d);
}
