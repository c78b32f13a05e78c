/* unearth CLI — `textures`: every texture of every model reachable from IN as PNG files in one
 * directory that appears whole or not at all; -f replaces only a previous `textures` output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/out_names.h"
#include "cli/preview_cli.h"
#include "cli/texture_files.h"
#include "unearth/advanced/files.h"
#include "unearth/advanced/model_walk.h"
#include "unearth/advanced/text.h"
#include "unearth/image.h"
#include "unearth/model.h"
#include "unearth/preview.h"

/* Every PNG the verb writes carries this tEXt chunk right after IHDR: it is how `-f` tells a
 * previous output of `textures` from a folder of somebody's pictures. */
#define MARK_KEY "Software"
#define MARK_TEXT "unearth textures"

/* ---- a previous output: only top-level *.png files that carry the mark ---------------------- */

typedef struct owner_ctx {
    const char *dir;
} owner_ctx;

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

static bool carries_mark(const char *path) {
    uint8_t head[8 + 25 + 8 + sizeof MARK_KEY + sizeof MARK_TEXT - 1]; /* up to the mark's end */
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    size_t got = fread(head, 1, sizeof head, f);
    fclose(f);
    return ue_png_has_text(head, got, MARK_KEY, MARK_TEXT);
}

static bool is_own_png(const char *rel, void *ctx) {
    const owner_ctx *o = ctx;
    if (strchr(rel, '/') || !ends_with(rel, ".png")) return false;
    char path[4200];
    int n = snprintf(path, sizeof path, "%s/%s", o->dir, rel);
    return n > 0 && (size_t)n < sizeof path && carries_mark(path);
}

static bool dir_is_textures_output(const char *dir, void *ctx) {
    owner_ctx *o = ctx;
    o->dir = dir;
    return ue_dir_holds_only(dir, is_own_png, o);
}

/* ---- file names: the one rule of texture files (texture_files.h) ---------------------------- */

/* MODEL.IMAGE as free NAME.png, MODEL being the name convert gives the model's output
 * ("creature" for creature.pkx:model.dat), as a .gltf of it names its PNG files; with --mips its
 * levels NAME.mipN.png must be free too (no IMAGE part holds a dot, but a MODEL may). */
static ue_result unique_name(out_names *names, const ue_model_found *model, const ue_model_image *image,
                             uint32_t levels, char *out, size_t cap) {
    char stem[256], file[600], level[640];
    out_names_model_stem(model, stem, sizeof stem);
    for (;;) {
        ue_result r = texture_file_place(names, stem, image->name, file, sizeof file);
        if (r != UE_OK) return r;
        size_t n = strlen(file) - 4; /* without ".png" */
        uint32_t k = 1;
        for (; k < levels; k++) {
            snprintf(level, sizeof level, "%.*s.mip%u.png", (int)n, file, k);
            if (out_names_kind(names, level, NULL)) break;
        }
        if (k < levels) continue; /* a level's name is taken: the next "~N" */
        for (k = 1; k < levels && r == UE_OK; k++) {
            snprintf(level, sizeof level, "%.*s.mip%u.png", (int)n, file, k);
            r = out_names_add(names, level, OUT_NAME_FILE);
        }
        snprintf(out, cap, "%.*s", (int)n, file);
        return r;
    }
}

/* ---- the verb ---------------------------------------------------------------------------- */

typedef struct run {
    const cli_opts *o;
    ue_outdir dir;
    out_names names;
    size_t written, dropped;
    size_t materials_missing; /* models whose materials were not found: noted, not damage */
    ue_diag missing; /* what was not found: a line per model and code, the model as its path */
    ue_buf listing; /* "DIR/FILE\tWxH" lines, printed once the directory is in place */
    ue_sheet_cell *cells; /* --sheet: level 0 of every image (owned), labelled MODEL.IMAGE */
    size_t cell_count;
    ue_diag d;
} run;

static ue_result write_level(run *r, const char *name, uint32_t level, const ue_model_image_level *l) {
    char file[700];
    if (level) snprintf(file, sizeof file, "%s.mip%u.png", name, level);
    else snprintf(file, sizeof file, "%s.png", name);
    ue_buf png = {0};
    ue_result res = ue_png_encode_rgba_text(l->width, l->height, l->rgba, MARK_KEY, MARK_TEXT, &png);
    if (res == UE_OK) res = ue_outdir_write(&r->dir, file, png.data, png.size, &r->d);
    ue_buf_free(&png);
    if (res == UE_OK) {
        char line[4300];
        int n = snprintf(line, sizeof line, "%s/%s\t%ux%u\n", r->o->output, file, l->width,
                         l->height);
        if (n > 0) ue_buf_put(&r->listing, line, strlen(line));
        r->written++;
    }
    return res;
}

static ue_result write_images(run *r, const ue_model_found *m, const ue_model_images *imgs) {
    for (size_t i = 0; i < imgs->count; i++) {
        char name[600];
        uint32_t levels = r->o->mips ? imgs->items[i].level_count : 1;
        ue_result named = unique_name(&r->names, m, &imgs->items[i], levels, name, sizeof name);
        if (named != UE_OK) return named;
        for (uint32_t k = 0; k < levels; k++) {
            ue_result res = write_level(r, name, k, &imgs->items[i].levels[k]);
            if (res != UE_OK) return res;
        }
    }
    return UE_OK;
}

/* --sheet: each image's level 0 becomes a cell (taken from imgs), labelled with the name its file
 * would have. */
static ue_result sheet_add(run *r, const ue_model_found *m, ue_model_images *imgs) {
    ue_sheet_cell *grown = realloc(r->cells, (r->cell_count + imgs->count + 1) * sizeof *grown);
    if (!grown) return UE_ERR_NOMEM;
    r->cells = grown;
    for (size_t i = 0; i < imgs->count; i++) {
        char name[600];
        ue_result named = unique_name(&r->names, m, &imgs->items[i], 1, name, sizeof name);
        if (named != UE_OK) return named;
        char *label = malloc(strlen(name) + 1);
        if (!label) return UE_ERR_NOMEM;
        memcpy(label, name, strlen(name) + 1);
        ue_model_image_level *l = &imgs->items[i].levels[0];
        r->cells[r->cell_count++] = (ue_sheet_cell){l->rgba, l->width, l->height, label};
        l->rgba = NULL; /* the cell owns it now */
        r->written++;
    }
    return UE_OK;
}

static void sheet_free(run *r) {
    for (size_t i = 0; i < r->cell_count; i++) {
        free((void *)r->cells[i].rgba);
        free((void *)r->cells[i].label);
    }
    free(r->cells);
}

/* The cells as one contact sheet PNG at -o. */
static ue_result sheet_write(run *r) {
    ue_sheet_options so;
    ue_sheet_options_default(&so);
    if (cli_parse_background(r->o->verb, r->o->background, &so.transparent, so.background_rgb)) return UE_ERR_USAGE;
    uint8_t *rgba = NULL;
    uint32_t w, h;
    ue_result res = ue_sheet_compose(r->cells, r->cell_count, &so, &rgba, &w, &h, &r->d);
    if (res == UE_OK && cli_write_png(r->o, rgba, w, h)) res = UE_ERR_IO;
    free(rgba);
    return res;
}

/* Warnings that say a companion of the model was not found where it was looked for (the WEAR
 * table, Material.lib, Textures.lib, an entry of them; docs/parkan-materials.md): the model is
 * intact and every texture that was found is written. Any other warning is damage. */
static bool is_not_found(const char *code) {
    static const char *const codes[] = {"msh.material.wear", "msh.material.library", "msh.material.missing",
                                        "msh.texture.missing"};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        if (!strcmp(code, codes[i])) return true;
    return false;
}

/* Of the warnings in `d`: how many say something was not found, how many are damage. */
static void sort_warnings(const ue_diag *d, size_t *not_found, size_t *damage) {
    *not_found = *damage = 0;
    for (size_t i = 0; i < d->count; i++)
        if (d->items[i].severity == UE_SEV_WARNING) ++*(is_not_found(d->items[i].code) ? not_found : damage);
}

/* Prints one model's diagnostics, except what was not found: the first of each code is kept in
 * r->missing, printed grouped once every model is done (500 models, not 1,000 lines). */
static void print_model_diags(run *r, const ue_model_found *m, const ue_diag *d) {
    ue_diag shown = {0};
    for (size_t i = 0; i < d->count; i++) {
        const ue_diag_item *it = &d->items[i];
        if (it->severity != UE_SEV_WARNING || !is_not_found(it->code)) {
            ue_diag_add(&shown, it->severity, it->code, it->offset, it->path, "%s", it->message);
            continue;
        }
        size_t k = 0;
        for (; k < i && strcmp(d->items[k].code, it->code); k++) {}
        if (k < i) continue;
        ue_diag_add(&r->missing, UE_SEV_WARNING, it->code, UE_NO_OFFSET, m->name, "%s", it->message);
    }
    cli_print_diags_as(m->name, &shown, 20);
    ue_diag_free(&shown);
}

/* One model's images (its format's own, or the textures of its scene: docs/models.md): a model
 * that has none is passed over; one that fails is an error (strict: the run stops) or is
 * dropped and counted (tolerant). Materials that are not found are a note, not damage. */
static ue_result model_textures(run *r, const ue_model_found *m) {
    if (!m->format->images && !m->format->to_scene) return UE_OK;
    ue_model_images imgs = {0};
    ue_diag d = {0};
    ue_model_option wear = {"wear", r->o->wear};
    ue_model_options opts = {&wear, r->o->wear ? 1u : 0u, NULL};
    if (opts.count && ue_model_options_check(m->format, &opts, NULL) != UE_OK) opts.count = 0; /* MSH's option */
    ue_result res = ue_model_images_get_with(m, r->o->mode, r->o->mips, &opts, &imgs, &d);
    print_model_diags(r, m, &d);
    size_t not_found, damage;
    sort_warnings(&d, &not_found, &damage);
    ue_diag_free(&d);
    /* tolerant reading warns where it left something out: written, but the run exits 1 */
    if (res == UE_OK && damage) {
        fprintf(stderr, "%s: damaged: textures written from what is intact\n", m->name);
        r->dropped++;
    }
    if (res == UE_OK && not_found) r->materials_missing++;
    if (res == UE_OK) res = r->o->sheet ? sheet_add(r, m, &imgs) : write_images(r, m, &imgs);
    else if (r->o->mode == UE_MODE_TOLERANT && res != UE_ERR_NOMEM && res != UE_ERR_IO) {
        fprintf(stderr, "%s: textures not written: %s\n", m->name, ue_result_name(res));
        r->dropped++;
        res = UE_OK;
    }
    ue_model_images_free(&imgs);
    return res;
}

typedef struct missing_listing {
    const ue_diag *missing;
    const char *code;
} missing_listing;

static bool missing_of_code(size_t i, const void *arg, char *line, size_t cap) {
    const missing_listing *ml = arg;
    const ue_diag_item *it = &ml->missing->items[i];
    if (strcmp(it->code, ml->code)) return false;
    if (line) snprintf(line, cap, "%s: %s", it->path, it->message);
    return true;
}

/* What was not found, per code as a multi-model convert groups its warnings: a title with the
 * number of models, the first few (-v: all), and how many more. */
static void print_missing(const run *r) {
    if (!cli_shows(UE_SEV_WARNING)) return;
    const ue_diag *m = &r->missing;
    for (size_t i = 0; i < m->count; i++) {
        size_t first = 0;
        for (; first < i && strcmp(m->items[first].code, m->items[i].code); first++) {}
        if (first < i) continue; /* the code was listed */
        size_t models = 0;
        for (size_t k = i; k < m->count; k++) models += !strcmp(m->items[k].code, m->items[i].code);
        char title[128];
        snprintf(title, sizeof title, "not found [%s] for %zu %s", m->items[i].code, models,
                 cli_plural(models, "model", "models"));
        missing_listing ml = {m, m->items[i].code};
        cli_print_listing(m->count, missing_of_code, &ml, title, cli_shows(UE_SEV_INFO) ? SIZE_MAX : 3,
                          cli_shows(UE_SEV_INFO) ? NULL : "-v prints each one");
    }
}

/* A model format has geometry or images; a DAT without a model root has neither. */
static bool is_model(const ue_model_found *m) { return m->format->images || m->format->to_scene; }

/* Why nothing was written when no texture was found: what the input holds instead of a model
 * (as `info` and `convert` say it), or that its models carry no texture. */
static void say_no_texture(run *r, const ue_model_found *found, size_t count) {
    const char *in = r->o->inputs[0];
    size_t models = 0;
    for (size_t i = 0; i < count; i++) models += is_model(&found[i]);
    if (models) {
        ue_diag_add(&r->d, UE_SEV_ERROR, "textures.none", UE_NO_OFFSET, in,
                    "%zu model%s found, none with a texture unearth can decode; nothing written", models,
                    models == 1 ? "" : "s");
        return;
    }
    char summary[160];
    ue_model_seen first = {found[0].name, found[0].format, found[0].data, found[0].size, found[0].title_length};
    cli_model_summary(&first, r->o->mode, summary, sizeof summary);
    if (count == 1 && !strcmp(found[0].name, in))
        ue_diag_add(&r->d, UE_SEV_ERROR, "textures.no_model", UE_NO_OFFSET, in,
                    "a %s, no model to take textures from (%s%s`unearth info` shows it); nothing written",
                    found[0].format->description, summary, summary[0] ? "; " : "");
    else
        ue_diag_add(&r->d, UE_SEV_ERROR, "textures.no_model", UE_NO_OFFSET, in,
                    "no model inside: %zu entr%s, none a model (%s%s%s is a %s; `unearth info` lists "
                    "them); nothing written", count, count == 1 ? "y" : "ies", count == 1 ? "" : "the first, ",
                    found[0].name, count == 1 ? "" : ",", found[0].format->description);
}

static ue_result textures_of(run *r, ue_model_found *found, size_t count) {
    owner_ctx owner_state = {NULL};
    const ue_outdir_owner owner = {"a previous unearth textures output", dir_is_textures_output,
                                   &owner_state};
    ue_result res = r->o->sheet ? UE_OK : ue_outdir_begin(&r->dir, r->o->output, r->o->force, &owner, &r->d);
    for (size_t i = 0; res == UE_OK && i < count; i++) res = model_textures(r, &found[i]);
    /* No texture at all: nothing is written, whether materials were not found or none exist. */
    if (res == UE_OK && r->written == 0 && r->materials_missing) {
        ue_diag_add(&r->d, UE_SEV_ERROR, "textures.none", UE_NO_OFFSET, r->o->inputs[0],
                    "no texture found: the materials of %zu %s were not found (%s%s); nothing written",
                    r->materials_missing, cli_plural(r->materials_missing, "model", "models"),
                    r->missing.count ? "the first: " : "", r->missing.count ? r->missing.items[0].message : "");
        res = UE_ERR_INVALID;
    } else if (res == UE_OK && r->written == 0) {
        say_no_texture(r, found, count);
        res = UE_ERR_INVALID;
    }
    if (res == UE_OK) res = r->o->sheet ? sheet_write(r) : ue_outdir_commit(&r->dir, &r->d);
    else if (r->dir.active) ue_outdir_abort(&r->dir);
    return res;
}

int cmd_textures(const cli_opts *o) {
    const char *in = o->inputs[0];
    int code = cli_check_output("textures", o->output, o->inputs, o->input_count);
    if (!code && o->sheet && !ue_name_has_ext(o->output, ".png"))
        code = cli_usage_error(o->verb, "--sheet: -o %s names the sheet's PNG image (name it .png)", o->output);
    if (!code && o->sheet) code = cli_refuse_existing(o->verb, o->output, o->force);
    if (!code && o->background && !o->sheet) code = cli_usage_error(o->verb, "--background colours a --sheet only");
    if (!code && o->sheet) { /* a bad colour is said before anything is decoded */
        ue_sheet_options so;
        code = cli_parse_background(o->verb, o->background, &so.transparent, so.background_rgb);
    }
    if (code) return code;
    run r;
    memset(&r, 0, sizeof r);
    r.o = o;
    if (out_names_init(&r.names) != UE_OK) return EXIT_IO;
    ue_model_found *found = NULL;
    size_t count = 0;
    ue_result res = ue_model_collect(in, o->mode, &found, &count, &r.d);
    if (res == UE_OK && count == 0) {
        ue_diag_add(&r.d, UE_SEV_ERROR, "textures.no_model", UE_NO_OFFSET, in,
                    "no model inside; nothing written");
        res = UE_ERR_INVALID;
    }
    int wear_rc = res == UE_OK ? cli_check_wear(o, cli_count_wearers(found, count)) : 0;
    if (wear_rc) {
        ue_model_found_free(found, count);
        out_names_free(&r.names);
        ue_diag_free(&r.d);
        return wear_rc;
    }
    if (res == UE_OK) res = textures_of(&r, found, count);
    if (res == UE_OK && r.listing.size) fwrite(r.listing.data, 1, r.listing.size, stdout);
    print_missing(&r);
    cli_print_diags_as(in, &r.d, 20);
    if (res == UE_OK && r.materials_missing && cli_shows(UE_SEV_WARNING))
        fprintf(stderr, "%s: note: the materials of %zu %s were not found (listed above); the "
                "textures that were found are written (%zu PNG %s)\n", in, r.materials_missing,
                cli_plural(r.materials_missing, "model", "models"), r.written,
                cli_plural(r.written, "file", "files"));
    if (res != UE_OK) cli_error("textures: %s: nothing written (%s)", in, ue_result_name(res));
    else if (r.dropped)
        cli_error("textures: %zu model%s damaged or left out (--tolerant)", r.dropped, r.dropped == 1 ? "" : "s");
    ue_model_found_free(found, count);
    out_names_free(&r.names);
    sheet_free(&r);
    ue_buf_free(&r.listing);
    ue_diag_free(&r.d);
    ue_diag_free(&r.missing);
    if (res != UE_OK) return cli_exit_code(res);
    return r.dropped ? EXIT_INVALID : EXIT_OK_;
}
