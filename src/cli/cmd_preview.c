/* unearth CLI — `preview`: one model drawn by the library's rasteriser into a PNG, or every model
 * of a container as one contact sheet of labelled thumbnails (docs/preview.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/format_opts.h"
#include "cli/preview_cli.h"
#include "unearth/advanced/buffers.h"
#include "unearth/advanced/files.h"
#include "unearth/advanced/model_walk.h"
#include "unearth/advanced/text.h"
#include "unearth/gltf_read.h"
#include "unearth/image.h"
#include "unearth/preview.h"

#define SHEET_CELL 128 /* thumbnail side of a sheet when --size is not given */

/* ---- options ------------------------------------------------------------------------------ */

static int hex_digit(char c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

int cli_parse_background(const char *verb, const char *text, bool *transparent, uint8_t rgb[3]) {
    *transparent = true;
    memset(rgb, 0, 3);
    if (!text) return 0;
    char lower[16] = "";
    for (size_t i = 0; text[i] && i + 1 < sizeof lower; i++) lower[i] = cli_ascii_lower(text[i]), lower[i + 1] = 0;
    if (!strcmp(lower, "transparent") && strlen(text) == 11) return 0;
    bool ok = text[0] == '#' && strlen(text) == 7;
    for (int k = 0; ok && k < 3; k++) {
        int hi = hex_digit(text[1 + 2 * k]), lo = hex_digit(text[2 + 2 * k]);
        ok = hi >= 0 && lo >= 0;
        if (ok) rgb[k] = (uint8_t)(hi * 16 + lo);
    }
    if (!ok) return cli_usage_error(verb, "--background takes transparent or #rrggbb (six hex digits), not '%s'", text);
    *transparent = false;
    return 0;
}

/* The preview options of the command line; 0 or the usage error's exit code. */
static int preview_options(const cli_opts *o, ue_preview_options *po) {
    ue_preview_options_default(po);
    if (o->size_given) po->size = (uint32_t)o->size;
    if (o->view && ue_preview_view_parse(o->view, &po->view) != UE_OK)
        return cli_usage_error(o->verb, "--view takes front|back|left|right|top|iso, not '%s'", o->view);
    int rc = cli_parse_background(o->verb, o->background, &po->transparent, po->background_rgb);
    if (rc) return rc;
    if (o->frame && !o->clip) return cli_usage_error(o->verb, "--frame %s needs --clip NAME (the clip it is a frame of)", o->frame);
    po->clip = o->clip;
    if (o->frame) {
        char *end;
        po->frame = ue_parse_double(o->frame, &end);
        if (end == o->frame || *end || !(po->frame >= 0 && po->frame <= 1e9))
            return cli_usage_error(o->verb, "--frame takes a frame number of 0 or more, not '%s'", o->frame);
    }
    return 0;
}

/* ---- inputs ------------------------------------------------------------------------------- */

static bool is_gltf_input(const char *path) {
    if (ue_name_has_ext(path, ".glb") || ue_name_has_ext(path, ".gltf")) return true;
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    uint8_t head[64];
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    return ue_gltf_probe(head, n);
}

/* One drawable model: its address and scene. */
typedef struct preview_model {
    char label[300];
    ue_scene scene;
} preview_model;

/* The entry part of a model's address ("robot.msh" of "objects.rlb:robot.msh"); the whole name
 * for a bare file. */
static void label_of(const char *input, const char *name, char *out, size_t cap) {
    size_t n = strlen(input);
    if (!strncmp(name, input, n) && name[n] == ':') name += n + 1;
    else if (strrchr(name, '/')) name = strrchr(name, '/') + 1;
    snprintf(out, cap, "%s", name);
}

/* The models of IN to draw, converted one at a time: a glTF file is one; a container holds the
 * entries with geometry, each converted as `convert` converts it (the format's default
 * selection: Parkan LOD 0, group 0). */
typedef struct preview_source {
    const char *in;
    ue_model_found *found; /* NULL for a glTF file */
    size_t found_count;
    size_t *drawable; /* indices into found of the entries with geometry */
    size_t count;
    cli_format_opts fo;
} preview_source;

static void source_close(preview_source *src) {
    if (src->found) {
        ue_cache_free(src->fo.cache);
        cli_format_opts_destroy(&src->fo);
        ue_model_found_free(src->found, src->found_count);
    }
    free(src->drawable);
}

/* Lists the models of IN without converting any. Returns an exit code; *said when the error
 * was already said in full. */
static int source_open(const cli_opts *o, preview_source *src, bool *said) {
    memset(src, 0, sizeof *src);
    src->in = o->inputs[0];
    if (is_gltf_input(src->in)) {
        src->count = 1;
        return 0;
    }
    ue_diag d = {0};
    ue_result r = ue_model_collect(src->in, o->mode, &src->found, &src->found_count, &d);
    cli_print_diags_as(src->in, &d, 20);
    ue_diag_free(&d);
    if (r != UE_OK) return cli_exit_code(r);
    cli_drop_textures(src->found, &src->found_count);
    cli_format_opts_init(&src->fo, o);
    src->fo.cache = ue_cache_new();
    src->fo.per_format = true;
    src->drawable = ue_calloc_items(src->found_count ? src->found_count : 1, sizeof *src->drawable);
    if (!src->drawable) return EXIT_IO;
    for (size_t i = 0; i < src->found_count; i++)
        if (src->found[i].format->to_scene) src->drawable[src->count++] = i; /* else a DAT without a model root */
    if (!src->count) {
        cli_error("preview: %s: no model to draw (`unearth info %s` lists what it holds); nothing written", src->in,
                  src->in);
        *said = true;
        return EXIT_INVALID;
    }
    return 0;
}

/* Converts model i of the source into *m (free its scene). Returns an exit code. */
static int source_load(const cli_opts *o, preview_source *src, size_t i, preview_model *m) {
    ue_scene_init(&m->scene);
    ue_diag d = {0};
    int rc;
    if (!src->found) {
        ue_gltf_files opened = {0};
        ue_result r = ue_gltf_read_file_listed(src->in, o->mode, &m->scene, &opened, &d);
        cli_print_diags_as(src->in, &d, 20);
        rc = r == UE_OK ? 0 : cli_exit_code(r);
        if (!rc && opened.count)
            rc = cli_check_output("preview", o->output, (const char *const *)opened.paths, opened.count);
        ue_gltf_files_free(&opened);
        label_of(src->in, src->in, m->label, sizeof m->label);
    } else {
        ue_model_found *f = &src->found[src->drawable[i]];
        ue_result r = cli_convert_scene(o, &src->fo, f, &m->scene, &d);
        cli_print_diags_as(f->name, &d, 20);
        rc = r == UE_OK ? 0 : cli_exit_code(r);
        label_of(src->in, f->name, m->label, sizeof m->label);
    }
    ue_diag_free(&d);
    return rc;
}

/* ---- output ------------------------------------------------------------------------------- */

int cli_write_png(const cli_opts *o, const uint8_t *rgba, uint32_t w, uint32_t h) {
    ue_buf png = {0};
    ue_diag d = {0};
    ue_result r = ue_png_encode_rgba_quick(w, h, rgba, &png);
    cli_out_file file = {o->output, png.data, png.size};
    if (r == UE_OK) r = cli_write_outputs(&file, 1, o->force, o->inputs, o->input_count, &d);
    cli_print_diags(&d, 0);
    ue_diag_free(&d);
    ue_buf_free(&png);
    if (r != UE_OK) {
        cli_error("%s: %s: nothing written (%s)", o->verb, o->output, ue_result_name(r));
        return cli_exit_code(r);
    }
    if (!o->quiet) fprintf(stderr, "%s: wrote %s (%ux%u)\n", o->verb, o->output, w, h);
    return 0;
}

/* With -v: the camera of one drawn model as a line of JSON on stderr (docs/preview.md#framing),
 * for anyone drawing the same view with another renderer. */
static void say_camera(const preview_model *m, const ue_preview_options *po) {
    ue_preview_camera c;
    ue_diag d = {0};
    ue_result r = ue_preview_camera_get(&m->scene, po, &c, &d);
    ue_diag_free(&d);
    if (r != UE_OK) return;
    const double *v[] = {c.forward, c.up, c.right, c.center};
    const char *key[] = {"forward", "up", "right", "center"};
    fprintf(stderr, "preview: camera of %s: {\"view\":\"%s\",\"size\":%u", m->label, ue_preview_view_name(po->view),
            po->size);
    for (int k = 0; k < 4; k++) fprintf(stderr, ",\"%s\":[%.17g,%.17g,%.17g]", key[k], v[k][0], v[k][1], v[k][2]);
    fprintf(stderr, ",\"extent\":%.17g,\"near\":%.17g,\"far\":%.17g,\"empty\":%s}\n", c.extent, c.near_depth,
            c.far_depth, c.empty ? "true" : "false");
}

/* Model i of the source loaded and drawn into `pixels` (po->size² × 4 bytes), its scene freed
 * after; its label in *label. Returns an exit code. */
static int draw_model(const cli_opts *o, const ue_preview_options *po, preview_source *src, size_t i,
                      uint8_t *pixels, char *label, size_t label_cap) {
    preview_model m;
    int rc = source_load(o, src, i, &m);
    if (!rc) {
        ue_diag d = {0};
        ue_result r = ue_preview_render(&m.scene, po, pixels, &d);
        cli_print_diags_as(m.label, &d, 20);
        ue_diag_free(&d);
        if (r != UE_OK) rc = cli_exit_code(r);
        if (!rc && o->verbose) say_camera(&m, po);
    }
    snprintf(label, label_cap, "%s", m.label);
    ue_scene_free(&m.scene);
    return rc;
}

/* A sheet of every model: its size checked before any model is converted, then each model
 * converted, drawn into the one cell buffer and placed, one at a time (memory: one model and the
 * sheet). The image in *rgba (free it). Returns an exit code. */
static int draw_sheet(const cli_opts *o, ue_preview_options *po, preview_source *src, uint8_t **rgba, uint32_t *w,
                      uint32_t *h) {
    po->size = o->size_given ? (uint32_t)o->size : SHEET_CELL;
    ue_sheet_options so;
    ue_sheet_options_default(&so);
    so.cell = po->size;
    so.transparent = po->transparent;
    memcpy(so.background_rgb, po->background_rgb, 3);
    ue_sheet_grid grid;
    ue_diag d = {0};
    ue_result r = ue_sheet_layout(src->count, &so, &grid, &d);
    cli_print_diags_as(src->in, &d, 20);
    ue_diag_free(&d);
    if (r == UE_OK) r = ue_sheet_begin(&grid, &so, rgba);
    if (r != UE_OK) return cli_exit_code(r);
    uint8_t *cell = ue_malloc_items((size_t)po->size * po->size, 4);
    int rc = cell ? 0 : EXIT_IO;
    for (size_t i = 0; !rc && i < src->count; i++) {
        char label[300];
        rc = draw_model(o, po, src, i, cell, label, sizeof label);
        if (!rc) ue_sheet_put(*rgba, &grid, &so, i, &(ue_sheet_cell){cell, po->size, po->size, label});
    }
    free(cell);
    *w = grid.width, *h = grid.height;
    return rc;
}

/* One model, or a sheet of several; the image in *rgba (free it). Returns an exit code. */
static int draw(const cli_opts *o, ue_preview_options *po, preview_source *src, uint8_t **rgba, uint32_t *w,
                uint32_t *h) {
    if (src->count > 1) return draw_sheet(o, po, src, rgba, w, h);
    *rgba = ue_malloc_items((size_t)po->size * po->size, 4);
    if (!*rgba) return EXIT_IO;
    char label[300];
    *w = *h = po->size;
    return draw_model(o, po, src, 0, *rgba, label, sizeof label);
}

int cmd_preview(const cli_opts *o) {
    if (!ue_name_has_ext(o->output, ".png"))
        return cli_usage_error(o->verb, "-o %s: preview writes a PNG image (name it .png)", o->output);
    ue_preview_options po;
    int rc = preview_options(o, &po);
    if (!rc) rc = cli_check_output(o->verb, o->output, o->inputs, o->input_count);
    if (!rc) rc = cli_refuse_existing(o->verb, o->output, o->force);
    if (rc) return rc;
    cli_interrupt_install(o->verb, o->output);
    preview_source src;
    bool said = false; /* the error was said in full */
    rc = source_open(o, &src, &said);
    if (!rc && src.count > 1 && o->clip)
        said = true, rc = cli_usage_error(o->verb, "--clip %s: %s holds %zu models; give one (ARCHIVE:ENTRY) to pose it",
                             o->clip, src.in, src.count);
    if (!rc && src.count > 1 && o->size_given && (o->size < 16 || o->size > 1024))
        said = true, rc = cli_usage_error(o->verb, "--size %ld: a sheet's thumbnails are 16 to 1024 pixels", o->size);
    uint8_t *rgba = NULL;
    uint32_t w = 0, h = 0;
    if (!rc) rc = draw(o, &po, &src, &rgba, &w, &h);
    if (!rc) rc = cli_write_png(o, rgba, w, h);
    else if (!said) cli_error("preview: %s: nothing written", src.in);
    free(rgba);
    source_close(&src);
    return rc;
}
