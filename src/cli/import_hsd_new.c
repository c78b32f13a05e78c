/* unearth CLI — `import IN.glb -o OUT.dat` without --base: a new HSD model built from the glTF's
 * scene (docs/hsd-import.md#new-models), checked as validate --strict reads it, written whole; with
 * --into it goes into a copy of a template PKX or FSYS (docs/hsd-import.md#a-new-model-in-the-game). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "unearth/gltf_read.h"
#include "unearth/gx.h"
#include "unearth/hsd_import.h"
#include "unearth/advanced/files.h"
#include "unearth/advanced/text.h"

/* --weight-step S: 0 (as given), "1/N" or a decimal whose inverse is a whole N in 1 … 65536. */
static bool weight_units(const char *text, uint32_t *units) {
    char *end;
    double step;
    if (!strncmp(text, "1/", 2)) {
        double n = strtod(text + 2, &end);
        step = n > 0 ? 1 / n : -1;
    } else {
        step = strtod(text, &end);
    }
    if (end == text || *end || !(step >= 0 && step <= 1)) return false;
    if (step == 0) return *units = UE_HSD_WEIGHTS_EXACT, true;
    double n = floor(1 / step + 0.5);
    if (n < 1 || n > 65536 || fabs(1 / n - step) > 1e-9 * step) return false;
    *units = (uint32_t)n;
    return true;
}

/* A PKX or FSYS output is a copy of a template the new model goes into: --into names it. */
static int plan_into(const cli_opts *o, cli_hsd_into *into) {
    memset(into, 0, sizeof *into);
    bool container = ue_name_has_ext(o->output, ".pkx") || ue_name_has_ext(o->output, ".fsys");
    if (container && !o->into)
        return cli_usage_error("import", "-o %s: a new model has no PKX or FSYS of its own; name the one it goes into "
                               "with --into TEMPLATE.pkx or --into ARCHIVE.fsys:ENTRY", o->output);
    int rc = o->into ? cli_into_hsd_plan(o, into) : 0;
    into->new_model = true;
    return rc ? rc : cli_import_hsd_check_slots(o, into);
}

/* What a new model does not take (usage errors before any work), and the output's safety. */
static int check_options(const cli_opts *o, ue_hsd_new_options *io, cli_hsd_into *into) {
    const char *later = o->textures_into ? "--textures-into" : o->textures_out ? "--textures-out"
                      : o->textures_dir ? "--textures-dir" : NULL;
    if (later)
        return cli_usage_error("import", "%s is not available for a new HSD model yet; write the DAT with -o OUT.dat", later);
    static const struct { const char *name; uint32_t format; } formats[] = {
        {"auto", UE_HSD_TEXTURE_AUTO}, {"cmpr", UE_GX_CMPR}, {"rgb5a3", UE_GX_RGB5A3}, {"rgba8", UE_GX_RGBA8},
        {"rgb565", UE_GX_RGB565}};
    io->texture_format = UE_HSD_TEXTURE_AUTO;
    for (size_t i = 0; o->texture_format && i < sizeof formats / sizeof formats[0]; i++)
        if (!strcmp(o->texture_format, formats[i].name)) io->texture_format = formats[i].format;
    io->weight_units = 0;
    if (o->weight_step && !weight_units(o->weight_step, &io->weight_units))
        return cli_usage_error("import", "--weight-step %s: give 0 or a step 1/N with N 1..65536 (1/64, 0.01)", o->weight_step);
    int rc = plan_into(o, into);
    if (!rc) rc = cli_check_output("import", o->output, &o->inputs[0], 1);
    return rc ? rc : cli_refuse_existing("import", o->output, o->force);
}

static void tell(const cli_opts *o, const ue_buf *out, const char *written, const cli_hsd_into *into,
                 const ue_hsd_new_stats *st) {
    if (!cli_shows(UE_SEV_WARNING)) return;
    cli_import_hsd_tell_written(o, out, written, into);
    char envelopes[48] = "";
    if (st->envelopes)
        snprintf(envelopes, sizeof envelopes, ", %zu %s", st->envelopes, cli_plural(st->envelopes, "envelope", "envelopes"));
    fprintf(stderr, "new model: %zu %s, %zu %s, %zu %s, %zu triangles%s, %zu %s, %zu %s (%zu resized)\n", st->joints,
            cli_plural(st->joints, "joint", "joints"), st->dobjs, cli_plural(st->dobjs, "DObj", "DObjs"), st->pobjs,
            cli_plural(st->pobjs, "PObj", "PObjs"), st->triangles, envelopes, st->materials,
            cli_plural(st->materials, "material", "materials"), st->images, cli_plural(st->images, "image", "images"),
            st->resized_images);
    if (st->clips) fprintf(stderr, "clips: %zu written as AnimJoint trees\n", st->clips);
}

/* The DAT into the template's copy: the --anim-slot names resolved (into->slots, ->slot_loops
 * malloc'd), the PKX fitted to the model. */
static int put_into(const cli_opts *o, const ue_scene *s, const ue_hsd_new_stats *st, cli_hsd_into *into,
                    const ue_buf *dat, ue_buf *copy, char *written, size_t cap) {
    uint32_t *slots = malloc((o->anim_slot_count + 1) * 2 * sizeof *slots);
    bool *loops = malloc((o->anim_slot_count + 1) * sizeof *loops);
    int rc = slots && loops ? cli_import_hsd_resolve_slots(o, s, st->anim_index, NULL, slots,
                                                           slots + o->anim_slot_count, loops)
                            : EXIT_IO;
    into->slots = slots, into->slot_clips = slots + o->anim_slot_count, into->slot_count = o->anim_slot_count;
    into->slot_loops = loops;
    into->new_clips = st->clips, into->new_joints = st->joints;
    if (!rc) rc = cli_into_hsd_build(o, into, dat, copy, written, cap);
    return rc; /* the caller frees slots and loops (into->slots, into->slot_loops) */
}

int cmd_import_hsd_new(const cli_opts *o) {
    ue_hsd_new_options io;
    cli_hsd_into into;
    int rc = check_options(o, &io, &into);
    if (rc) return rc;
    const char *in = o->inputs[0];
    ue_diag d = {0};
    ue_scene s;
    ue_scene_init(&s);
    ue_gltf_files opened = {0};
    rc = cli_import_hsd_read_gltf(o, &s, &opened, &d);
    ue_buf out = {0}, copy = {0};
    ue_hsd_new_stats stats = {0};
    stats.anim_index = malloc((s.animation_count + 1) * sizeof *stats.anim_index);
    if (!rc && !stats.anim_index) rc = cli_import_hsd_fail(in, &d, UE_ERR_NOMEM);
    if (!rc) {
        ue_result r = ue_hsd_from_scene(&s, &io, &out, &stats, &d);
        rc = r == UE_OK ? 0 : cli_import_hsd_fail(in, &d, r);
    }
    if (!rc && d.count) cli_print_diags_as(in, &d, 50);
    char written[4400] = "";
    if (!rc && into.active) rc = put_into(o, &s, &stats, &into, &out, &copy, written, sizeof written);
    if (!rc) rc = cli_import_hsd_write(o, into.active ? &copy : &out, &into, &opened);
    if (!rc) tell(o, &out, written, &into, &stats);
    if (!rc) cli_import_hsd_tell_slots(o, &into);
    free((uint32_t *)into.slots);
    free((bool *)into.slot_loops);
    free(stats.anim_index);
    ue_diag_free(&d);
    ue_buf_free(&out);
    ue_buf_free(&copy);
    ue_gltf_files_free(&opened);
    ue_scene_free(&s);
    return rc;
}
