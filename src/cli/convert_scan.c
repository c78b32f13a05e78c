/* unearth CLI — convert's one pass over an input: the container opened once and checked as
 * validate checks it, each model met on the way checked by its format then and there, and kept
 * for its job (convert_scan.h). */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/convert_scan.h"
#include "unearth/advanced/archive.h"
#include "unearth/advanced/buffers.h"
#include "unearth/advanced/model_walk.h"

/* Room for one more model in both lists, doubled when full (an archive may hold thousands). */
static bool scan_reserve(input_scan *sc) {
    if (sc->count < sc->cap) return true;
    size_t cap = sc->cap ? 2 * sc->cap : 8;
    ue_model_found *found = realloc(sc->found, cap * sizeof *found);
    if (found) sc->found = found;
    scanned_model *models = found ? realloc(sc->models, cap * sizeof *models) : NULL;
    if (models) sc->models = models;
    ue_model_kept **kept = models ? realloc(sc->kept, cap * sizeof *kept) : NULL;
    if (kept) sc->kept = kept;
    if (kept) sc->cap = cap;
    return kept != NULL;
}

static ue_result scan_visit(const ue_model_seen *m, void *ctx) {
    input_scan *sc = ctx;
    if (!scan_reserve(sc)) return UE_ERR_NOMEM;
    ue_model_kept *kept = NULL;
    model_verdict_check(sc->o, m, &sc->models[sc->count].verdict, &kept);
    uint8_t *copy = kept ? NULL : ue_malloc_items(m->size, 1);
    if (!kept && !copy) {
        ue_diag_free(&sc->models[sc->count].verdict.d);
        return UE_ERR_NOMEM;
    }
    if (copy && m->size) memcpy(copy, m->data, m->size);
    ue_model_found *item = &sc->found[sc->count];
    memset(item, 0, sizeof *item);
    snprintf(item->name, sizeof item->name, "%s", m->name);
    item->format = m->format, item->data = copy, item->size = m->size, item->title_length = m->title_length;
    memcpy(sc->models[sc->count].name, item->name, sizeof item->name);
    sc->kept[sc->count++] = kept;
    return UE_OK;
}

void found_kept_free(ue_model_found *found, ue_model_kept **kept, size_t count) {
    for (size_t i = 0; kept && i < count; i++) ue_model_kept_free(found[i].format, kept[i]);
    free(kept);
    ue_model_found_free(found, count);
}

void scan_free(input_scan *sc) {
    if (sc->found) found_kept_free(sc->found, sc->kept, sc->count);
    else free(sc->kept);
    for (size_t i = 0; sc->models && i < sc->count; i++) ue_diag_free(&sc->models[i].verdict.d);
    free(sc->models);
    ue_diag_free(&sc->container);
    ue_archive_close(sc->a);
    memset(sc, 0, sizeof *sc);
}

bool scan_input(const cli_opts *o, const char *file, input_scan *sc, int *fatal) {
    memset(sc, 0, sizeof *sc);
    sc->o = o;
    ue_result r;
    bool walked_all = true;
    if (ue_archive_open_mapped(file, o->mode, &sc->a, &sc->container) != UE_OK) {
        ue_diag_free(&sc->container);
        sc->a = NULL;
        r = ue_model_walk(file, o->mode, scan_visit, sc, NULL); /* no container: a model, or nothing */
    } else {
        r = ue_model_walk_validated(sc->a, file, o->mode, scan_visit, sc, &sc->checked, &walked_all, &sc->container);
    }
    sc->scanned = r == UE_OK && walked_all;
    if (sc->scanned) return true;
    if (r == UE_ERR_NOMEM) *fatal = EXIT_IO;
    scan_free(sc);
    return false;
}

void scan_take_models(input_scan *sc, ue_model_found **found, ue_model_kept ***kept, size_t *count) {
    *found = sc->found;
    *kept = sc->kept;
    *count = sc->count;
    sc->found = NULL;
    sc->kept = NULL;
}

int scan_verdict(const cli_opts *o, const char *path, input_scan *sc, bool print, cli_tally *t) {
    cli_diag_dedupe(&sc->container);
    cli_tally_add(t, &sc->container);
    t->dropped += cli_damaged_entries(sc->a);
    int code = cli_verdict_code(sc->checked, t);
    if (code && print) cli_print_diags_as(path, &sc->container, 50);
    if (code > EXIT_INVALID) return code;
    model_visits v = {o, 0, t, NULL, print};
    for (size_t i = 0; i < sc->count; i++) model_verdict_apply(&v, sc->models[i].name, &sc->models[i].verdict);
    return v.worst > code ? v.worst : code;
}
