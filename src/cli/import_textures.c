/* unearth CLI — import's texture edits (--textures-into, --textures-out, --textures-dir): images
 * the glTF changed go back as Texm, into a validated copy of the texture archive or as .tex files. */
#define _DEFAULT_SOURCE /* strdup */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unearth/advanced/archive.h"
#include "cli/cli.h"
#include "cli/out_names.h"
#include "unearth/advanced/text.h"
#include "unearth/advanced/files.h"
#include "unearth/msh.h"
#include "unearth/texm.h"
#include "unearth/advanced/buffers.h"

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

/* The copy keeps the archive's extension or takes .lib or .rlb, as --into's output does. */
static int check_out_name(const char *out, const char *library) {
    if (cli_archive_copy_name_suits(out, library)) return 0;
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
    if (cli_into_archive(o->into, into, PATH_CAP)) list[n++] = into;
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
    if (!cli_parkan_archive_kind(library)) {
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

/* The stem of ENTRY's .tex file: one safe file-name component (ue_file_name_component), a
 * leading dot made '_' (no hidden file), "texture" when nothing is left. */
static void tex_stem(const char *entry, char *out, size_t cap) {
    if (!ue_file_name_component(entry, out, cap)) snprintf(out, cap, "texture");
    if (out[0] == '.') out[0] = '_';
}

/* DIR/NAME.tex for every edit, named by the one rule of outputs (out_names: names that meet,
 * also by letter case, take "~2", ...), each checked: no input (the glTF's own files too),
 * none existing without -f. */
static int name_tex_files(const cli_opts *o, cli_texture_work *w, const char *const *gltf_files, size_t gltf_count) {
    char into[PATH_CAP];
    const char *inputs[6];
    size_t n = known_inputs(o, w->library, into, inputs);
    out_names names;
    if (!(w->tex_paths = ue_calloc_items(w->edits.count, sizeof *w->tex_paths)) ||
        out_names_init(&names) != UE_OK) {
        cli_error("import: out of memory");
        return EXIT_IO;
    }
    int rc = 0;
    for (size_t i = 0; !rc && i < w->edits.count; i++) {
        char stem[256], path[PATH_CAP], none[8];
        tex_stem(w->edits.items[i].name, stem, sizeof stem);
        if (out_names_place_file(&names, o->textures_dir, stem, "tex", path, sizeof path, none, sizeof none) != UE_OK ||
            !(w->tex_paths[i] = strdup(path))) {
            cli_error("import: --textures-dir %s: no room for the name of texture %s", o->textures_dir,
                      w->edits.items[i].name);
            rc = EXIT_USAGE;
        }
        if (!rc) rc = cli_check_output("import", path, inputs, n);
        if (!rc && gltf_count) rc = cli_check_output("import", path, gltf_files, gltf_count);
        if (!rc) rc = cli_refuse_existing("import", path, o->force);
    }
    out_names_free(&names);
    return rc;
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

/* No texture option: the same comparison, which writes nothing; what it finds is a warning
 * (its refusals too), and the changed images are counted (import.texture.not_written). */
static void warn_unwritten(const cli_opts *o, const ue_scene *s, const ue_scene *ref) {
    char library[PATH_CAP];
    bool found = ue_msh_texture_library(o->base, library, sizeof library) == UE_OK && cli_parkan_archive_kind(library);
    ue_texture_edit_options eo = {.origin = o->base, .library = found ? library : NULL, .reference = ref};
    ue_texture_edits edits;
    ue_diag d = {0};
    ue_result r = ue_msh_texture_edits(NULL, s, &eo, &edits, &d);
    for (size_t i = 0; i < d.count; i++)
        if (d.items[i].severity == UE_SEV_ERROR) d.items[i].severity = UE_SEV_WARNING;
    bool refused = r == UE_ERR_INVALID || r == UE_ERR_USAGE; /* an edit that could not go back */
    char n[32] = "";
    if (r == UE_OK) snprintf(n, sizeof n, "%zu ", edits.count);
    bool one = r == UE_OK && edits.count == 1;
    if (refused || (r == UE_OK && edits.count))
        ue_diag_add(&d, UE_SEV_WARNING, "import.texture.not_written", UE_NO_OFFSET, "/images",
                    "%simage%s changed; give --textures-out NEW.lib or --textures-dir DIR to write %s back", n,
                    one ? "" : "s", one ? "it" : "them");
    cli_diag_dedupe(&d);
    if (d.count) cli_print_diags_as(o->inputs[0], &d, 50);
    ue_diag_free(&d);
    ue_texture_edits_free(&edits);
}

int cli_import_textures_prepare(const cli_opts *o, const ue_scene *s, const ue_scene *ref,
                                const char *const *gltf_files, size_t gltf_file_count, cli_texture_work *w) {
    memset(w, 0, sizeof *w);
    if (!o->base) return 0;
    if (!wants_textures(o)) {
        warn_unwritten(o, s, ref);
        return 0;
    }
    w->active = true;
    int rc = find_library(o, w->library, sizeof w->library);
    if (rc) return rc;
    ue_diag d = {0};
    ue_texture_edit_options eo = {.origin = o->base, .library = w->library, .reference = ref};
    ue_result r = ue_msh_texture_edits(NULL, s, &eo, &w->edits, &d);
    cli_diag_dedupe(&d);
    if (d.count) cli_print_diags_as(o->inputs[0], &d, 50);
    if (r != UE_OK && !ue_diag_count(&d, UE_SEV_ERROR)) cli_error("import: %s: %s", o->inputs[0], ue_result_name(r));
    ue_diag_free(&d);
    if (r != UE_OK) return cli_exit_code(r);
    return o->textures_out ? make_copy(o, w) : name_tex_files(o, w, gltf_files, gltf_file_count);
}

int cli_import_textures_make_dirs(const cli_opts *o, const cli_texture_work *w) {
    if (!w->active || (o->textures_dir && !w->edits.count)) return 0;
    ue_diag d = {0};
    ue_result r = o->textures_out ? ue_make_parent_dirs(o->textures_out, &d) : ue_mkdirs(o->textures_dir, &d);
    cli_print_diags_as(o->textures_out ? o->textures_out : o->textures_dir, &d, 20);
    if (r != UE_OK) cli_error("import: nothing written");
    ue_diag_free(&d);
    return cli_exit_code(r);
}

void cli_import_textures_files(const cli_opts *o, const cli_texture_work *w, cli_out_file *files, size_t *count) {
    if (!w->active) return;
    if (o->textures_out) {
        files[(*count)++] = (cli_out_file){o->textures_out, w->archive.data, w->archive.size};
        return;
    }
    for (size_t i = 0; i < w->edits.count; i++)
        files[(*count)++] = (cli_out_file){w->tex_paths[i], w->edits.items[i].texm, w->edits.items[i].size};
}

void cli_import_textures_tell(const cli_opts *o, const cli_texture_work *w) {
    if (!w->active || !cli_shows(UE_SEV_WARNING)) return;
    for (size_t i = 0; i < w->edits.count; i++) {
        const ue_texture_edit *e = &w->edits.items[i];
        fprintf(stderr, "texture %s re-encoded (%s, %u x %u, %u mip level%s)\n", e->name, ue_texm_format_name(e->format),
                e->width, e->height, e->mip_count, e->mip_count == 1 ? "" : "s");
    }
    if (o->textures_out)
        fprintf(stderr, "textures written to %s (%zu changed%s)\n", o->textures_out, w->edits.count,
                w->edits.count ? "" : ": byte-identical to the texture archive");
    else
        fprintf(stderr, "textures: %zu .tex file%s written to %s\n", w->edits.count, w->edits.count == 1 ? "" : "s",
                o->textures_dir);
}

void cli_import_textures_free(cli_texture_work *w) {
    for (size_t i = 0; w->tex_paths && i < w->edits.count; i++) free(w->tex_paths[i]);
    free(w->tex_paths);
    ue_texture_edits_free(&w->edits);
    ue_buf_free(&w->archive);
}
