/* unearth CLI — `import IN.glb -o OUT.dat` without --base: a new HSD model built from the glTF's
 * scene (docs/hsd-import.md#new-models), checked as validate --strict reads it, written whole. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "unearth/gltf_read.h"
#include "unearth/gx.h"
#include "unearth/hsd_import.h"
#include "unearth/advanced/files.h"

static int fail_as(const char *who, ue_diag *d, ue_result r) {
    cli_diag_dedupe(d);
    cli_print_diags_as(who, d, 50);
    if (!ue_diag_count(d, UE_SEV_ERROR)) cli_error("import: %s: %s", who, ue_result_name(r));
    return cli_exit_code(r);
}

/* What a new model does not take (usage errors before any work), and the output's safety. */
static int check_options(const cli_opts *o, ue_hsd_new_options *io) {
    const char *later = o->into ? "--into" : o->textures_into ? "--textures-into" : o->textures_out ? "--textures-out"
                                           : o->textures_dir ? "--textures-dir" : NULL;
    if (later)
        return cli_usage_error("import", "%s is not available for a new HSD model yet; write the DAT with -o OUT.dat", later);
    static const struct { const char *name; uint32_t format; } formats[] = {
        {"auto", UE_HSD_TEXTURE_AUTO}, {"cmpr", UE_GX_CMPR}, {"rgb5a3", UE_GX_RGB5A3}, {"rgba8", UE_GX_RGBA8},
        {"rgb565", UE_GX_RGB565}};
    io->texture_format = UE_HSD_TEXTURE_AUTO;
    for (size_t i = 0; o->texture_format && i < sizeof formats / sizeof formats[0]; i++)
        if (!strcmp(o->texture_format, formats[i].name)) io->texture_format = formats[i].format;
    int rc = cli_check_output("import", o->output, &o->inputs[0], 1);
    return rc ? rc : cli_refuse_existing("import", o->output, o->force);
}

static int write_output(const cli_opts *o, const ue_buf *out, const ue_gltf_files *opened) {
    ue_diag d = {0};
    const char **inputs = malloc((opened->count + 1) * sizeof *inputs);
    ue_result r = inputs ? ue_make_parent_dirs(o->output, &d) : UE_ERR_NOMEM;
    if (r == UE_OK) {
        size_t n = 0;
        inputs[n++] = o->inputs[0];
        for (size_t i = 0; i < opened->count; i++) inputs[n++] = opened->paths[i];
        cli_out_file file = {o->output, out->data, out->size};
        r = cli_write_outputs(&file, 1, o->force, inputs, n, &d);
    }
    free(inputs);
    int rc = r == UE_OK ? 0 : fail_as(o->output, &d, r);
    if (rc) cli_error("import: nothing written");
    ue_diag_free(&d);
    return rc;
}

static void tell(const cli_opts *o, const ue_buf *out, const ue_hsd_new_stats *st) {
    if (!cli_shows(UE_SEV_WARNING)) return;
    fprintf(stderr, "model written to %s (%zu bytes)\n", o->output, out->size);
    fprintf(stderr, "new model: %zu %s, %zu %s, %zu %s, %zu triangles, %zu %s, %zu %s (%zu resized)\n", st->joints,
            cli_plural(st->joints, "joint", "joints"), st->dobjs, cli_plural(st->dobjs, "DObj", "DObjs"), st->pobjs,
            cli_plural(st->pobjs, "PObj", "PObjs"), st->triangles, st->materials,
            cli_plural(st->materials, "material", "materials"), st->images, cli_plural(st->images, "image", "images"),
            st->resized_images);
}

int cmd_import_hsd_new(const cli_opts *o) {
    ue_hsd_new_options io;
    int rc = check_options(o, &io);
    if (rc) return rc;
    const char *in = o->inputs[0];
    ue_diag d = {0};
    ue_scene s;
    ue_scene_init(&s);
    ue_gltf_files opened = {0};
    ue_result r = ue_gltf_read_file_listed(in, o->mode, &s, &opened, &d);
    rc = r == UE_OK ? 0 : fail_as(in, &d, r);
    if (!rc && opened.count)
        rc = cli_check_output("import", o->output, (const char *const *)opened.paths, opened.count);
    ue_buf out = {0};
    ue_hsd_new_stats stats;
    if (!rc) {
        r = ue_hsd_from_scene(&s, &io, &out, &stats, &d);
        rc = r == UE_OK ? 0 : fail_as(in, &d, r);
    }
    if (!rc && d.count) cli_print_diags_as(in, &d, 50);
    if (!rc) rc = write_output(o, &out, &opened);
    if (!rc) tell(o, &out, &stats);
    ue_diag_free(&d);
    ue_buf_free(&out);
    ue_gltf_files_free(&opened);
    ue_scene_free(&s);
    return rc;
}
