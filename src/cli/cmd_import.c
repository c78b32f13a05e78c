/* unearth CLI — `import`: a glTF back into a Parkan MSH, as a new model or as an edit of a base
 * model (--base), written as a file or into a copy of an NRes/RsLi game archive (--into). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unearth/advanced/archive.h"
#include "cli/cli.h"
#include "unearth/gltf_read.h"
#include "unearth/model.h"
#include "unearth/msh.h"
#include "unearth/msh_import.h"
#include "unearth/parkan_material.h"
#include "unearth/advanced/files.h"
#include "unearth/advanced/text.h"

/* ---- before any work: what may be written ------------------------------------------------ */

/* The output is neither the --base nor the --into archive (nor inside them; main.c checked
 * IN), and exists only with -f. */
static int check_outputs(const cli_opts *o) {
    int refused = o->base ? cli_check_output("import", o->output, &o->base, 1) : 0;
    if (!refused) refused = cli_into_check("import", o);
    if (!refused) refused = cli_import_textures_check(o);
    return refused ? refused : cli_refuse_existing("import", o->output, o->force);
}

static float fps_option(const cli_opts *o) {
    char *end;
    return o->fps ? (float)ue_parse_double(o->fps, &end) : 0; /* options.c checked 1..1000 */
}

/* ---- which file is what --------------------------------------------------------------------- */

/* A glTF by its name (.glb, .gltf) or its first bytes (ue_gltf_probe: the GLB magic, or JSON's
 * '{'). A file that cannot be opened is left to the reader, which says why. */
static bool looks_like_gltf(const char *path, bool *readable) {
    FILE *f = fopen(path, "rb");
    *readable = f != NULL;
    if (!f) return false;
    uint8_t head[64];
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    if (ue_name_has_ext(path, ".glb") || ue_name_has_ext(path, ".gltf")) return true;
    return ue_gltf_probe(head, n);
}

/* IN must be the glTF and --base the model: swapped, the reader would only report a JSON error. */
static int check_roles(const cli_opts *o) {
    bool readable, base_readable = false;
    bool in_gltf = looks_like_gltf(o->inputs[0], &readable);
    bool base_gltf = o->base && looks_like_gltf(o->base, &base_readable);
    if (readable && !in_gltf) {
        cli_error("import: IN must be a glTF (.glb or .gltf); %s is not one (format: %s)%s", o->inputs[0],
                  cli_sniff_format(o->inputs[0]),
                  base_gltf ? " and --base is the glTF: swapped? (import GLTF -o OUT.msh --base MODEL.msh)" : "");
        return EXIT_USAGE;
    }
    if (base_readable && base_gltf) {
        cli_error("import: --base %s is a glTF; --base takes the Parkan model (.msh, or ARCHIVE:ENTRY) "
                  "the glTF %s was converted from", o->base, o->inputs[0]);
        return EXIT_USAGE;
    }
    return 0;
}

/* ---- reading ------------------------------------------------------------------------------ */

static int fail_with(const char *who, ue_diag *d, ue_result r) {
    cli_diag_dedupe(d);
    cli_print_diags_as(who, d, 50);
    if (!ue_diag_count(d, UE_SEV_ERROR)) cli_error("import: %s: %s", who, ue_result_name(r));
    return cli_exit_code(r);
}

static bool moves_a_node(const ue_scene_animation *an) {
    for (size_t c = 0; c < an->channel_count; c++)
        if (an->channels[c].node >= 0) return true;
    return false;
}

static bool carries_clip(const ue_scene *s, const char *name) {
    for (size_t a = 0; a < s->animation_count; a++)
        if (s->animations[a].channel_count && !strcmp(s->animations[a].name, name)) return true;
    return false;
}

/* The clips convert writes beside the model's own that the glTF lost (Blender 3.4 drops
 * KHR_animation_pointer clips such as a material's phase clip): import leaves the materials as
 * they are, so the base's clip stays; a note (import.anim.kept) says so. `ref` is the base as
 * convert exported it (ue_msh_edit_reference), made once for this, the edit and the texture edits. */
static void note_lost_clips(const ue_scene *ref, const ue_scene *s, ue_diag *d) {
    for (size_t a = 0; a < ref->animation_count; a++) {
        const char *name = ref->animations[a].name;
        if (!moves_a_node(&ref->animations[a]) && !carries_clip(s, name))
            ue_diag_add(d, UE_SEV_INFO, "import.anim.kept", UE_NO_OFFSET, "/animations",
                        "the glTF has no clip '%s' (the base model's material animation): the material keeps "
                        "it, import leaves materials as they are", name);
    }
}

/* The one model at --base (a file or ARCHIVE:ENTRY), which must be a Parkan MSH, read and
 * parsed once; `ref` its one export, with the glTF's selection and materials resolved, which
 * the edit (io->reference) and the texture edits share. */
static int load_base(const cli_opts *o, const ue_scene *s, const ue_msh_import_options *io, ue_msh *m,
                     ue_scene *ref, ue_diag *d) {
    ue_model_found *found = NULL;
    size_t count = 0;
    ue_result r = ue_model_collect(o->base, o->mode, &found, &count, d);
    int rc = 0;
    if (r == UE_OK && count != 1) {
        cli_error("import: --base %s holds %zu models; address one as ARCHIVE:ENTRY", o->base, count);
        rc = count ? EXIT_USAGE : EXIT_INVALID;
    } else if (r == UE_OK && found[0].format != &ue_msh_model_format) {
        cli_error("import: --base %s is a %s; import writes Parkan MSH models", o->base, found[0].format->description);
        rc = EXIT_USAGE;
    } else if (r == UE_OK && (r = ue_msh_parse(found[0].data, found[0].size, o->mode, m, d)) == UE_OK) {
        if ((r = ue_msh_edit_reference(m, s, io, found[0].name, ref, d)) == UE_OK) note_lost_clips(ref, s, d);
        else ue_msh_free(m);
        ue_model_found_free(found, count);
        /* A base that does not convert with the glTF's selection is the glTF's error, as before. */
        return r == UE_OK ? 0 : fail_with(o->inputs[0], d, r);
    }
    ue_model_found_free(found, count);
    if (rc) return rc;
    return r == UE_OK ? 0 : fail_with(o->base, d, r);
}

/* "Res2 Res3 Res7": the tables an edit re-encodes (read before the write clears them). */
static void changed_tables(const ue_msh *m, char *out, size_t cap) {
    size_t at = 0;
    out[0] = 0;
    for (int t = 0; t < UE_MSH_TYPE_LIMIT && at < cap; t++)
        if (m->dirty[t]) {
            int w = snprintf(out + at, cap - at, "%sRes%d", at ? " " : "", t);
            at = w < 0 ? cap : at + (size_t)w;
        }
}

/* The model's bytes: an edit of --base or a new model, checked as `validate --strict` would. */
static int build_model(const cli_opts *o, const ue_scene *s, ue_buf *out, char *changed, size_t cap,
                       ue_scene *ref, ue_diag *d) {
    ue_msh m;
    ue_msh_import_options io = {.fps = fps_option(o), .name = o->inputs[0]};
    /* A clip converted with --fps N records N: frames come back where they were. */
    if (io.fps == 0 && s->animation_count && s->animations[0].fps > 0 && s->animations[0].fps <= 1000)
        io.fps = s->animations[0].fps;
    ue_result r;
    if (o->base) {
        int rc = load_base(o, s, &io, &m, ref, d);
        if (rc) return rc;
        io.reference = ref;
        r = ue_msh_apply_scene(&m, s, &io, d);
    } else {
        r = ue_msh_from_scene(s, &io, &m, d);
    }
    if (r == UE_OK) changed_tables(&m, changed, cap);
    if (r == UE_OK) r = ue_msh_write(&m, out, d);
    ue_msh_free(&m);
    ue_msh check;
    if (r == UE_OK && (r = ue_msh_parse(out->data, out->size, UE_MODE_STRICT, &check, d)) == UE_OK) ue_msh_free(&check);
    return r == UE_OK ? 0 : fail_with(o->inputs[0], d, r);
}

/* ---- the verb ------------------------------------------------------------------------------ */

/* Reads the glTF; the output may be none of the files it opened (its .bin, its images) nor
 * inside one, -f or not: refused before anything is written. `opened` lists them. */
static int read_gltf(const cli_opts *o, ue_scene *s, ue_gltf_files *opened, ue_diag *d) {
    ue_result r = ue_gltf_read_file_listed(o->inputs[0], o->mode, s, opened, d);
    int rc = r == UE_OK ? 0 : fail_with(o->inputs[0], d, r);
    if (!rc && opened->count)
        rc = cli_check_output("import", o->output, (const char *const *)opened->paths, opened->count);
    if (!rc) rc = cli_import_textures_check_inputs(o, (const char *const *)opened->paths, opened->count);
    return rc;
}

/* The inputs no output may be: IN, --base, the texture archive, the --into archive (`into`
 * holds its path) and the glTF's own files. `list` has room for opened->count + 4. */
static size_t every_input(const cli_opts *o, const cli_texture_work *t, const ue_gltf_files *opened,
                          char into[4096], const char **list) {
    size_t n = 0;
    list[n++] = o->inputs[0];
    if (o->base) list[n++] = o->base;
    if (t->active) list[n++] = t->library;
    if (cli_into_archive(o->into, into, 4096)) list[n++] = into;
    for (size_t i = 0; i < opened->count; i++) list[n++] = opened->paths[i];
    return n;
}

/* Everything import writes, as one output (cli_write_outputs: all of it or nothing): the
 * texture files, then the model or the --into archive copy; the folders made first. */
static int write_all(const cli_opts *o, const ue_buf *main_file, const cli_texture_work *t,
                     const ue_gltf_files *opened) {
    int rc = cli_import_textures_make_dirs(o, t);
    if (rc) return rc;
    ue_diag d = {0};
    ue_result r = ue_make_parent_dirs(o->output, &d);
    cli_out_file *files = malloc((t->edits.count + 2) * sizeof *files);
    const char **inputs = malloc((opened->count + 4) * sizeof *inputs);
    if (r == UE_OK && (!files || !inputs)) r = UE_ERR_NOMEM;
    if (r == UE_OK) {
        char into[4096];
        size_t input_count = every_input(o, t, opened, into, inputs), count = 0;
        cli_import_textures_files(o, t, files, &count);
        files[count++] = (cli_out_file){o->output, main_file->data, main_file->size};
        r = cli_write_outputs(files, count, o->force, inputs, input_count, &d);
    }
    free(files);
    free(inputs);
    rc = r == UE_OK ? 0 : fail_with(o->output, &d, r);
    if (rc) cli_error("import: nothing written");
    ue_diag_free(&d);
    return rc;
}

int cmd_import(const cli_opts *o) {
    int rc = check_roles(o);
    /* A new HSD model: -o OUT.dat, or a PKX or FSYS output (--into names the template, else refused there). */
    bool new_hsd = !o->base && o->output && (ue_name_has_ext(o->output, ".dat") || ue_name_has_ext(o->output, ".pkx") ||
                                             ue_name_has_ext(o->output, ".fsys"));
    if (!rc && o->texture_format && !new_hsd)
        return cli_usage_error("import", "--texture-format applies to a new HSD model (-o OUT.dat without --base)");
    if (!rc && o->weight_step && !new_hsd)
        return cli_usage_error("import", "--weight-step applies to a new HSD model (-o OUT.dat without --base)");
    bool hsd_base = !rc && o->base && cli_import_base_is_hsd(o->base);
    if (!rc && o->anim_slot_count && !hsd_base && !new_hsd)
        return cli_usage_error("import", "--anim-slot maps a clip onto a PKX's animation slot: it needs an HSD "
                               "model (a --base .dat, .pkx or FSYS:ENTRY, or a new one) and a PKX output");
    if (!rc && o->add && (!o->into || (!hsd_base && !new_hsd)))
        return cli_usage_error("import", "--add makes --into ARCHIVE.fsys:ENTRY a new entry of an FSYS: it needs an "
                               "HSD model (a --base .dat, .pkx or FSYS:ENTRY, or a new one) and --into");
    if (hsd_base) return cmd_import_hsd(o);
    if (!rc && new_hsd) return cmd_import_hsd_new(o);
    if (!rc) rc = check_outputs(o);
    if (rc) return rc;
    const char *in = o->inputs[0];
    ue_diag d = {0};
    ue_scene s, ref;
    ue_scene_init(&s);
    ue_scene_init(&ref);
    ue_gltf_files opened = {0};
    rc = read_gltf(o, &s, &opened, &d);
    ue_buf model = {0}, copy = {0};
    char changed[160] = "";
    bool added = false;
    if (!rc) rc = build_model(o, &s, &model, changed, sizeof changed, &ref, &d);
    if (!rc && d.count) cli_print_diags_as(in, &d, 50); /* the glTF's warnings, once, under its name */
    ue_diag_free(&d);
    cli_texture_work textures;
    memset(&textures, 0, sizeof textures);
    /* Everything made and checked before anything is written, then written as one output. */
    if (!rc) rc = cli_import_textures_prepare(o, &s, &ref, (const char *const *)opened.paths, opened.count, &textures);
    char written[4400] = "";
    if (!rc && o->into) rc = cli_into_build("import", o, &model, &added, written, sizeof written, &copy);
    if (!rc) rc = write_all(o, o->into ? &copy : &model, &textures, &opened);
    /* What was written is no error: -q leaves it out, as it leaves out warnings. */
    bool tell = !rc && cli_shows(UE_SEV_WARNING);
    if (tell && o->into)
        fprintf(stderr, "%s %s (%zu bytes) in %s\n", added ? "added" : "replaced", written, model.size, o->output);
    else if (tell)
        fprintf(stderr, "model written to %s (%zu bytes)\n", o->output, model.size);
    if (tell && o->base) fprintf(stderr, "changed: %s\n", changed[0] ? changed : "nothing (byte-identical to the base)");
    if (!rc) cli_import_textures_tell(o, &textures);
    if (tell) cli_note_materials(o, o->base, written);
    cli_import_textures_free(&textures);
    ue_gltf_files_free(&opened);
    ue_buf_free(&model);
    ue_buf_free(&copy);
    ue_scene_free(&s);
    ue_scene_free(&ref);
    return rc;
}
