/* unearth CLI — import's texture edits (--textures-into, --textures-out, --textures-dir): images
 * the glTF changed go back as Texm, into a validated copy of the texture archive or as .tex files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "archive/container.h"
#include "cli/cli.h"
#include "common/io.h"
#include "unearth/msh.h"
#include "unearth/texm.h"

#define PATH_CAP 4096

static bool wants_textures(const cli_opts *o) { return o->textures_into || o->textures_out || o->textures_dir; }

/* The texture archive: --textures-into, else the Textures.lib the base's material chain reads. */
static int find_library(const cli_opts *o, char *out, size_t cap) {
    if (o->textures_into) {
        snprintf(out, cap, "%s", o->textures_into);
        return 0;
    }
    if (ue_msh_texture_library(o->base, out, cap) == UE_OK) return 0;
    cli_error("import: no Textures.lib (any letter case) beside %s or in its parent folders; name the texture "
              "archive with --textures-into ARCHIVE", o->base);
    return EXIT_USAGE;
}

/* An NRes or RsLi file, by its magic. */
static bool is_archive_file(const char *path) {
    unsigned char magic[4] = {0};
    FILE *f = fopen(path, "rb");
    size_t got = f ? fread(magic, 1, sizeof magic, f) : 0;
    if (f) fclose(f);
    return got == 4 && (!memcmp(magic, "NRes", 4) || !memcmp(magic, "NL\0\1", 4));
}

/* The copy keeps the archive's extension or takes .lib or .rlb, as --into's output does. */
static int check_out_name(const char *out, const char *library) {
    const char *ext = strrchr(out, '.'), *own = strrchr(library, '.');
    bool suits = ext && !strchr(ext, '/') &&
                 (!strcasecmp(ext, ".lib") || !strcasecmp(ext, ".rlb") || (own && !strcasecmp(ext, own)));
    if (suits) return 0;
    cli_error("import: --textures-out %s: the output is a copy of the texture archive %s; give it %s's "
              "extension, .lib or .rlb", out, library, library);
    return EXIT_USAGE;
}

/* The outputs an import reads from besides the glTF's own files: IN, the base, the --into
 * archive, the texture archive and the model's output (which no texture output may be). */
static size_t known_inputs(const cli_opts *o, const char *library, char into[PATH_CAP], const char *list[6]) {
    size_t n = 0;
    list[n++] = o->inputs[0];
    list[n++] = o->base;
    list[n++] = library;
    list[n++] = o->output;
    const char *entry = NULL;
    if (o->into && ue_archive_split_address(o->into, into, PATH_CAP, &entry) == UE_OK) list[n++] = into;
    return n;
}

int cli_import_textures_check(const cli_opts *o) {
    if (!wants_textures(o)) return 0;
    if (!o->base) {
        cli_error("import: --textures-into, --textures-out and --textures-dir work in edit mode; give --base ORIG");
        return EXIT_USAGE;
    }
    if (o->textures_out && o->textures_dir) {
        cli_error("import: give either --textures-out (a copy of the texture archive) or --textures-dir (.tex files)");
        return EXIT_USAGE;
    }
    if (!o->textures_out && !o->textures_dir) {
        cli_error("import: --textures-into %s needs --textures-out NEW_ARCHIVE or --textures-dir DIR", o->textures_into);
        return EXIT_USAGE;
    }
    char library[PATH_CAP], into[PATH_CAP];
    int rc = find_library(o, library, sizeof library);
    if (rc) return rc;
    if (!is_archive_file(library)) {
        cli_error("import: the texture archive %s is a %s, not an NRes or RsLi archive", library, cli_sniff_format(library));
        return EXIT_USAGE;
    }
    if (!o->textures_out) return 0;
    if (!strcmp(o->textures_out, o->output)) {
        cli_error("import: --textures-out %s is also -o: the texture archive and the model are two files", o->output);
        return EXIT_USAGE;
    }
    const char *inputs[6];
    size_t n = known_inputs(o, library, into, inputs);
    if ((rc = cli_check_output("import", o->textures_out, inputs, n)) || (rc = check_out_name(o->textures_out, library)))
        return rc;
    return cli_refuse_existing("import", o->textures_out, o->force);
}

int cli_import_textures_check_inputs(const cli_opts *o, const char *const *inputs, size_t count) {
    return o->textures_out && count ? cli_check_output("import", o->textures_out, inputs, count) : 0;
}

/* ---- the work ----------------------------------------------------------------------------------- */

/* The base model parsed (build_model read it already, so this only fails on memory). */
static ue_result load_base(const cli_opts *o, ue_msh *m, ue_diag *d) {
    ue_model_found found;
    ue_result r = ue_model_load(o->base, o->mode, &found, d);
    if (r == UE_OK && found.format != &ue_msh_model_format) r = UE_ERR_USAGE;
    if (r == UE_OK) r = ue_msh_parse(found.data, found.size, o->mode, m, d);
    free(found.data);
    return r;
}

/* DIR/ENTRY.tex, the entry's name with path separators, controls and a leading dot made '_'. */
static void tex_path(const char *dir, const char *entry, char *out, size_t cap) {
    char name[256];
    size_t n = 0;
    for (const char *c = entry; *c && n + 1 < sizeof name; c++, n++) {
        unsigned char u = (unsigned char)*c;
        name[n] = u < 0x20 || u == 0x7f || u == '/' || u == '\\' || u == ':' || (n == 0 && u == '.') ? '_' : *c;
    }
    name[n] = 0;
    snprintf(out, cap, "%s/%s.tex", dir, name);
}

/* Every .tex file may be written: none is an input, none exists without -f. */
static int check_tex_files(const cli_opts *o, const cli_texture_work *w) {
    char into[PATH_CAP], path[PATH_CAP];
    const char *inputs[6];
    size_t n = known_inputs(o, w->library, into, inputs);
    for (size_t i = 0; i < w->edits.count; i++) {
        tex_path(o->textures_dir, w->edits.items[i].name, path, sizeof path);
        int rc = cli_check_output("import", path, inputs, n);
        if (!rc) rc = cli_refuse_existing("import", path, o->force);
        if (rc) return rc;
    }
    return 0;
}

/* The archive copy, checked as `validate --strict` would before it may be written. */
static int make_copy(const cli_opts *o, cli_texture_work *w) {
    ue_diag d = {0}, copy = {0};
    ue_result r = ue_texture_edits_put(&w->edits, w->library, &w->archive, &d);
    bool refused = r == UE_OK && cli_check_archive_copy(o, o->textures_out, &w->archive, &copy) != UE_OK;
    cli_diag_dedupe(&d);
    if (d.count) cli_print_diags_as(w->library, &d, 50);
    if (refused) cli_say_copy_refused("import", o->textures_out, &copy);
    else if (r != UE_OK && !ue_diag_count(&d, UE_SEV_ERROR)) cli_error("import: %s: %s", w->library, ue_result_name(r));
    ue_diag_free(&d);
    ue_diag_free(&copy);
    return refused ? EXIT_INVALID : cli_exit_code(r);
}

int cli_import_textures_prepare(const cli_opts *o, const ue_scene *s, cli_texture_work *w) {
    memset(w, 0, sizeof *w);
    if (!wants_textures(o)) return 0;
    w->active = true;
    int rc = find_library(o, w->library, sizeof w->library);
    if (rc) return rc;
    ue_diag d = {0};
    ue_msh base;
    ue_result r = load_base(o, &base, &d);
    if (r == UE_OK) {
        ue_texture_edit_options eo = {o->base, w->library};
        r = ue_msh_texture_edits(&base, s, &eo, &w->edits, &d);
        ue_msh_free(&base);
    }
    cli_diag_dedupe(&d);
    if (d.count) cli_print_diags_as(o->inputs[0], &d, 50);
    if (r != UE_OK && !ue_diag_count(&d, UE_SEV_ERROR)) cli_error("import: %s: %s", o->inputs[0], ue_result_name(r));
    ue_diag_free(&d);
    if (r != UE_OK) return cli_exit_code(r);
    return o->textures_out ? make_copy(o, w) : check_tex_files(o, w);
}

static void tell_edits(const cli_texture_work *w) {
    for (size_t i = 0; i < w->edits.count; i++) {
        const ue_texture_edit *e = &w->edits.items[i];
        fprintf(stderr, "texture %s re-encoded (%s, %u x %u, %u mip level%s)\n", e->name, ue_texm_format_name(e->format),
                e->width, e->height, e->mip_count, e->mip_count == 1 ? "" : "s");
    }
}

static ue_result write_tex_files(const cli_opts *o, const cli_texture_work *w, ue_diag *d) {
    ue_result r = w->edits.count ? ue_mkdirs(o->textures_dir, d) : UE_OK;
    char path[PATH_CAP];
    for (size_t i = 0; r == UE_OK && i < w->edits.count; i++) {
        tex_path(o->textures_dir, w->edits.items[i].name, path, sizeof path);
        r = ue_file_write_atomic(path, w->edits.items[i].texm, w->edits.items[i].size, o->force, d);
    }
    return r;
}

int cli_import_textures_write(const cli_opts *o, cli_texture_work *w) {
    if (!w->active) return 0;
    ue_diag d = {0};
    ue_result r;
    if (o->textures_out) {
        r = cli_make_parent_dirs(o->textures_out, &d);
        if (r == UE_OK) r = ue_file_write_atomic(o->textures_out, w->archive.data, w->archive.size, o->force, &d);
    } else {
        r = write_tex_files(o, w, &d);
    }
    cli_print_diags_as(o->textures_out ? o->textures_out : o->textures_dir, &d, 20);
    if (r == UE_OK && cli_shows(UE_SEV_WARNING)) {
        tell_edits(w);
        if (o->textures_out)
            fprintf(stderr, "textures written to %s (%zu changed%s)\n", o->textures_out, w->edits.count,
                    w->edits.count ? "" : ": byte-identical to the texture archive");
        else
            fprintf(stderr, "textures: %zu .tex file%s written to %s\n", w->edits.count,
                    w->edits.count == 1 ? "" : "s", o->textures_dir);
    }
    ue_diag_free(&d);
    return cli_exit_code(r);
}

void cli_import_textures_free(cli_texture_work *w) {
    ue_texture_edits_free(&w->edits);
    ue_buf_free(&w->archive);
}
