/* unearth CLI — a Parkan model's WEAR table: `--wear` of convert and textures checked before any
 * work, and the note of import and edit when the written model's name no longer finds it. */
#define _DEFAULT_SOURCE /* strcasecmp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli.h"
#include "unearth/parkan_material.h"

int cli_check_wear(const cli_opts *o, size_t models) {
    if (!o->wear) return 0;
    if (models > 1)
        return cli_usage_error(o->verb, "--wear %s: the WEAR table of one model, and %zu models were found; "
                               "address one as ARCHIVE:ENTRY", o->wear, models);
    ue_diag d = {0};
    ue_wear w;
    ue_result r = ue_wear_load(o->wear, o->mode, &w, &d);
    cli_print_diags_as(o->wear, &d, 20);
    ue_diag_free(&d);
    if (r == UE_OK) {
        ue_wear_free(&w);
        return 0;
    }
    cli_error("%s: --wear %s: no WEAR table could be read (%s); nothing written", o->verb, o->wear,
              ue_result_name(r));
    return cli_exit_code(r);
}

size_t cli_count_wearers(const ue_model_found *found, size_t count) {
    ue_model_option wear = {"wear", "-"};
    ue_model_options opts = {&wear, 1, NULL};
    size_t n = 0;
    for (size_t i = 0; i < count; i++) n += ue_model_options_check(found[i].format, &opts, NULL) == UE_OK;
    return n;
}

/* "robot.msh" → "robot" (into `out`). */
static void stem_of(const char *name, char *out, size_t cap) {
    snprintf(out, cap, "%s", name);
    char *dot = strrchr(out, '.');
    if (dot && dot != out) *dot = 0;
}

static bool same_rows(const ue_wear *a, const ue_wear *b) {
    if (a->material_count != b->material_count) return false;
    for (size_t i = 0; i < a->material_count; i++)
        if (strcmp(a->materials[i].name, b->materials[i].name)) return false;
    return true;
}

/* The WEAR table of the model at `origin` as the game pairs them (same stem, beside it or in
 * its archive); false, quietly, when there is none. */
static bool wear_of(const char *origin, ue_wear *w) {
    ue_diag quiet = {0};
    bool found = ue_msh_wear_of(origin, w, &quiet) == UE_OK;
    ue_diag_free(&quiet);
    return found;
}

void cli_note_materials(const cli_opts *o, const char *base, const char *written) {
    if (!base || o->quiet) return;
    char new_stem[256], base_stem[256], target[4600];
    const char *new_name = o->into ? ue_address_leaf(written) : ue_address_leaf(o->output);
    stem_of(new_name, new_stem, sizeof new_stem);
    stem_of(ue_address_leaf(base), base_stem, sizeof base_stem);
    if (!strcasecmp(new_stem, base_stem)) return;
    ue_wear had, has;
    if (!wear_of(base, &had)) return; /* the base wears nothing the new name could lose */
    if (o->into) snprintf(target, sizeof target, "%s:%s", o->output, new_name);
    else snprintf(target, sizeof target, "%s", o->output);
    bool kept = wear_of(target, &has);
    bool same = kept && same_rows(&had, &has);
    if (kept) ue_wear_free(&has);
    ue_wear_free(&had);
    if (same) return; /* a table of the new name with the same rows is already there */
    const char *ext = strrchr(new_name, '.'), *other = kept ? " (there now, with other rows)" : "";
    if (o->into)
        fprintf(stderr, "note: the game finds %s's materials in the entry %s.wea of %s%s; %s.wea holds them "
                        "today: add a copy of it under that name, or name the entry %s%s\n",
                new_name, new_stem, o->output, other, base_stem, base_stem, ext ? ext : "");
    else
        fprintf(stderr, "note: the game finds %s's materials in %s.wea beside it%s; %s.wea holds them today: "
                        "copy it to that name, or name the output %s%s\n",
                new_name, new_stem, other, base_stem, base_stem, ext ? ext : "");
}
