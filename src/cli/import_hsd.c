/* unearth CLI — `import IN.glb --base ORIG.dat|.pkx|ARCHIVE:ENTRY -o OUT.dat`: a glTF's vertex edits
 * back into a copy of an HSD model's DAT (edit mode, docs/hsd-import.md), every other byte kept. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "unearth/archive.h"
#include "unearth/gltf_read.h"
#include "unearth/hsd_import.h"
#include "unearth/hsd_model.h"
#include "unearth/model.h"
#include "unearth/advanced/files.h"
#include "unearth/advanced/text.h"

/* ---- which import this is ------------------------------------------------------------------ */

/* A DAT header's first word is the file's size (docs/formats/dat.md). */
static bool dat_header_fits(const uint8_t *head, size_t n, uint64_t size) {
    return n >= 0x20 && ((uint64_t)head[0] << 24 | (uint64_t)head[1] << 16 | (uint64_t)head[2] << 8 | head[3]) == size;
}

bool cli_import_base_is_hsd(const char *base) {
    const char *leaf = ue_address_leaf(base);
    if (ue_name_has_ext(leaf, ".dat") || ue_name_has_ext(leaf, ".pkx")) return true;
    ue_address a;
    if (ue_address_split(base, 0, &a) != UE_OK) return false;
    FILE *f = fopen(a.file, "rb");
    if (!f) return false;
    uint8_t head[256];
    size_t n = fread(head, 1, sizeof head, f);
    bool sized = fseek(f, 0, SEEK_END) == 0;
    long size = sized ? ftell(f) : -1;
    fclose(f);
    const char *fmt = ue_detect_format(head, n, size < 0 ? n : (uint64_t)size);
    if (!strcmp(fmt, "fsys") || !strcmp(fmt, "pkx")) return true;
    return !fmt[0] && size >= 0 && dat_header_fits(head, n, (uint64_t)size);
}

/* ---- before any work ----------------------------------------------------------------------- */

int cli_import_hsd_check_slots(const cli_opts *o, const cli_hsd_into *into) {
    for (size_t k = 0; k < o->anim_slot_count; k++) {
        const char *n = o->anim_slots[2 * k];
        char *end = NULL;
        unsigned long v = n[0] >= '0' && n[0] <= '9' ? strtoul(n, &end, 10) : 0;
        if (!end || *end || v > UINT32_MAX)
            return cli_usage_error("import", "--anim-slot %s %s: N is a slot number of the PKX's animation table, "
                                   "0, 1, ...", n, o->anim_slots[2 * k + 1]);
    }
    if (o->anim_slot_count && !into->active)
        return cli_usage_error("import", "--anim-slot sets a slot of a PKX: write the PKX (-o OUT.pkx with a PKX "
                               "--base, or --into FILE.pkx or ARCHIVE.fsys:ENTRY.pkx), not the bare DAT %s", o->output);
    return 0;
}

/* Animation `a` (`name`) may go onto slot `slot`: a skeletal clip of scene_data's models[0]. */
static int slot_clip_fits(const char *slot, const char *name, const int32_t *anim_index,
                          const int32_t *anim_model, size_t a) {
    cli_shown_name n;
    if (anim_index[a] < 0) {
        cli_error("import: --anim-slot %s %s: animation \"%s\" is no skeletal clip of the DAT's ModelSet "
                  "(it moves no joint, or is a FigaTree or material clip); a PKX slot plays only those",
                  slot, cli_shown(&n, name), n.text);
        return EXIT_INVALID;
    }
    if (anim_model && anim_model[a] != 0) {
        cli_error("import: --anim-slot %s %s: animation \"%s\" is a clip of %s, and a PKX plays the model of "
                  "scene_data's models[0] only: its slots name that ModelSet's anims[]", slot, cli_shown(&n, name),
                  n.text, anim_model[a] > 0 ? "another ModelSet of scene_data" : "a model outside scene_data");
        return EXIT_INVALID;
    }
    return 0;
}

int cli_import_hsd_resolve_slots(const cli_opts *o, const ue_scene *s, const int32_t *anim_index,
                                 const int32_t *anim_model, uint32_t *slots, uint32_t *clips, bool *loops) {
    for (size_t k = 0; k < o->anim_slot_count; k++) {
        const char *slot = o->anim_slots[2 * k], *name = o->anim_slots[2 * k + 1];
        size_t a = 0;
        while (a < s->animation_count && strcmp(s->animations[a].name, name)) a++;
        if (a == s->animation_count) {
            cli_shown_name n, in;
            cli_error("import: --anim-slot %s %s: %s has no animation named \"%s\"", slot, cli_shown(&n, name),
                      cli_shown(&in, o->inputs[0]), n.text);
            return EXIT_INVALID;
        }
        int rc = slot_clip_fits(slot, name, anim_index, anim_model, a);
        if (rc) return rc;
        slots[k] = (uint32_t)strtoul(slot, NULL, 10), clips[k] = (uint32_t)anim_index[a];
        loops[k] = s->animations[a].loop;
    }
    return 0;
}

void cli_import_hsd_tell_slots(const cli_opts *o, const cli_hsd_into *into) {
    if (!into->slot_count || !cli_shows(UE_SEV_WARNING)) return;
    fputs("anim slots:", stderr);
    for (size_t k = 0; k < into->slot_count; k++) {
        cli_shown_name n;
        fprintf(stderr, "%s %u → clip %u \"%s\" (%s)", k ? "," : "", into->slots[k], into->slot_clips[k],
                cli_shown(&n, o->anim_slots[2 * k + 1]), into->slot_loops[k] ? "loops" : "once");
    }
    fputc('\n', stderr);
}

/* What edit mode of an HSD base does not do yet is a usage error before anything is read; so is
 * an output that cannot be written (-o, and with --into or -o .pkx/.fsys the container's copy). */
static int check_options(const cli_opts *o, cli_hsd_into *into) {
    const char *later = o->textures_into ? "--textures-into" : o->textures_out ? "--textures-out"
                                         : o->textures_dir ? "--textures-dir" : NULL;
    if (later)
        return cli_usage_error("import", "%s is not available for an HSD base (%s) yet; write the DAT with -o OUT.dat",
                               later, o->base);
    int rc = cli_into_hsd_plan(o, into);
    if (!rc) rc = cli_import_hsd_check_slots(o, into);
    if (!rc) rc = cli_check_output("import", o->output, &o->base, 1);
    return rc ? rc : cli_refuse_existing("import", o->output, o->force);
}

int cli_import_hsd_fail(const char *who, ue_diag *d, ue_result r) {
    cli_diag_dedupe(d);
    cli_print_diags_as(who, d, 50);
    if (!ue_diag_count(d, UE_SEV_ERROR)) cli_error("import: %s: %s", who, ue_result_name(r));
    return cli_exit_code(r);
}

/* The one model at --base, which must be an HSD model. */
static int load_base(const cli_opts *o, ue_model_found **found, size_t *count) {
    ue_diag d = {0};
    ue_result r = ue_model_collect(o->base, o->mode, found, count, &d);
    int rc = r == UE_OK ? 0 : cli_import_hsd_fail(o->base, &d, r);
    ue_diag_free(&d);
    if (!rc && *count != 1) {
        cli_error("import: --base %s holds %zu models; address one as ARCHIVE:ENTRY", o->base, *count);
        rc = *count ? EXIT_USAGE : EXIT_INVALID;
    } else if (!rc && (*found)[0].format != &ue_hsd_model_format) {
        cli_error("import: --base %s is a %s, not an HSD model", o->base, (*found)[0].format->description);
        rc = EXIT_USAGE;
    }
    return rc;
}

/* ---- telling what was done ----------------------------------------------------------------- */

void cli_import_hsd_tell_written(const cli_opts *o, const ue_buf *out, const char *written, const cli_hsd_into *into) {
    if (into && into->added) {
        const ue_fsys_added *a = &into->added_info;
        const char *type = ue_fsys_type_name(a->type_code);
        fprintf(stderr, "added %s (%zu bytes) in %s: a new entry, type %s (0x%02X), file id 0x%04X, %s\n", written,
                out->size, o->output, type ? type : "?", a->type_code, a->file_id,
                a->compressed ? "LZSS-compressed" : "stored");
    } else if (written[0]) {
        fprintf(stderr, "replaced %s (%zu bytes) in %s\n", written, out->size, o->output);
    } else {
        fprintf(stderr, "model written to %s (%zu bytes)\n", o->output, out->size);
    }
}

/* True when the file at `path` holds exactly `b`'s bytes. */
static bool file_holds(const char *path, const ue_buf *b) {
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    uint8_t chunk[65536];
    size_t at = 0, n;
    bool same = true;
    while (same && (n = fread(chunk, 1, sizeof chunk, f)) > 0)
        same = at + n <= b->size && !memcmp(b->data + at, chunk, n), at += n;
    same = same && !ferror(f) && at == b->size;
    fclose(f);
    return same;
}

/* The container's copy against its original: where it differs, or that it does not. */
static void tell_container(const cli_opts *o, const cli_hsd_into *into, const ue_buf *copy, const char *written,
                           bool dat_same) {
    if (!into->active) return;
    if (file_holds(into->file, copy)) {
        fprintf(stderr, "container: %s is byte-identical to %s\n", o->output, into->file);
        return;
    }
    /* From the base's own container an unchanged DAT is the one that was there. */
    bool dat_part = !(dat_same && into->from_base);
    fprintf(stderr, "container: %s differs from %s in %s%s%s\n", o->output, into->file,
            !dat_part ? "" : into->added ? "the DAT added as " : "the DAT put in as ", dat_part ? written : "",
            into->slot_count ? (dat_part ? " and the animation slots set" : "the animation slots set") : "");
}

/* What the import did, the DAT's changes (against the base's bytes) apart from the container's. */
static void tell(const cli_opts *o, const ue_buf *out, const char *written, const cli_hsd_into *into,
                 const ue_hsd_edit_stats *st, bool dat_same) {
    if (!cli_shows(UE_SEV_WARNING)) return;
    cli_import_hsd_tell_written(o, out, written, into);
    if (st->clips || st->clips_added)
        fprintf(stderr, "clips: %zu replaced, %zu added, %zu kept as the base has them\n", st->clips, st->clips_added,
                st->clips_kept);
    if (dat_same) { /* with a container, its own line tells what changed there */
        fprintf(stderr, into->active ? "changed: nothing in the DAT (byte-identical to the base's)\n"
                                     : "changed: nothing (byte-identical to the base)\n");
        return;
    }
    fprintf(stderr, "changed: %zu %s, %zu %s, %zu %s, %zu %s in %zu %s, %zu %s, %zu %s\n", st->positions,
            cli_plural(st->positions, "position", "positions"), st->normals, cli_plural(st->normals, "normal", "normals"),
            st->uvs, cli_plural(st->uvs, "UV", "UVs"), st->colors, cli_plural(st->colors, "colour", "colours"), st->pobjs,
            cli_plural(st->pobjs, "PObj", "PObjs"), st->images, cli_plural(st->images, "image", "images"), st->materials,
            cli_plural(st->materials, "material", "materials"));
    if (st->lists)
        fprintf(stderr, "rebuilt: %zu display %s as strips (%zu triangles)\n", st->lists,
                cli_plural(st->lists, "list", "lists"), st->triangles);
    if (st->new_vertices)
        fprintf(stderr, "new vertices: %zu appended\n", st->new_vertices);
    if (st->reweighted || st->envelopes)
        fprintf(stderr, "weights: %zu %s given another envelope, %zu %s added\n", st->reweighted,
                cli_plural(st->reweighted, "vertex", "vertices"), st->envelopes,
                cli_plural(st->envelopes, "envelope", "envelopes"));
    if (st->trimmed)
        fprintf(stderr, "note: %zu %s had more than 4 influences: the 4 largest were kept, renormalised\n",
                st->trimmed, cli_plural(st->trimmed, "vertex", "vertices"));
    if (st->widened)
        fprintf(stderr, "widened: %zu %s (see the warnings above)\n", st->widened,
                cli_plural(st->widened, "attribute", "attributes"));
}

/* ---- the verb ------------------------------------------------------------------------------ */

int cli_import_hsd_read_gltf(const cli_opts *o, ue_scene *s, ue_gltf_files *opened, ue_diag *d) {
    ue_result r = ue_gltf_read_file_listed(o->inputs[0], o->mode, s, opened, d);
    int rc = r == UE_OK ? 0 : cli_import_hsd_fail(o->inputs[0], d, r);
    if (!rc && opened->count)
        rc = cli_check_output("import", o->output, (const char *const *)opened->paths, opened->count);
    return rc;
}

/* The DAT, or the container's copy that holds it, written to -o. */
int cli_import_hsd_write(const cli_opts *o, const ue_buf *out, const cli_hsd_into *into, const ue_gltf_files *opened) {
    ue_diag d = {0};
    const char **inputs = malloc((opened->count + 3) * sizeof *inputs);
    ue_result r = inputs ? ue_make_parent_dirs(o->output, &d) : UE_ERR_NOMEM;
    if (r == UE_OK) {
        size_t n = 0;
        inputs[n++] = o->inputs[0];
        if (o->base) inputs[n++] = o->base;
        if (into && into->active) inputs[n++] = into->file;
        for (size_t i = 0; i < opened->count; i++) inputs[n++] = opened->paths[i];
        cli_out_file file = {o->output, out->data, out->size};
        r = cli_write_outputs(&file, 1, o->force, inputs, n, &d);
    }
    free(inputs);
    int rc = r == UE_OK ? 0 : cli_import_hsd_fail(o->output, &d, r);
    if (rc) cli_error("import: nothing written");
    ue_diag_free(&d);
    return rc;
}

int cmd_import_hsd(const cli_opts *o) {
    cli_hsd_into into;
    int rc = check_options(o, &into);
    if (rc) return rc;
    const char *in = o->inputs[0];
    ue_diag d = {0};
    ue_scene s;
    ue_scene_init(&s);
    ue_gltf_files opened = {0};
    rc = cli_import_hsd_read_gltf(o, &s, &opened, &d);
    ue_model_found *found = NULL;
    size_t count = 0;
    if (!rc) rc = load_base(o, &found, &count);
    ue_buf out = {0};
    ue_hsd_edit_stats stats = {0};
    stats.anim_index = malloc((s.animation_count + 1) * sizeof *stats.anim_index);
    stats.anim_model = malloc((s.animation_count + 1) * sizeof *stats.anim_model);
    uint32_t *slots = malloc((o->anim_slot_count + 1) * 2 * sizeof *slots);
    bool *loops = malloc((o->anim_slot_count + 1) * sizeof *loops);
    if (!rc && (!stats.anim_index || !stats.anim_model || !slots || !loops))
        rc = cli_import_hsd_fail(in, &d, UE_ERR_NOMEM);
    if (!rc) {
        ue_result r = ue_hsd_apply_scene(found[0].data, found[0].size, found[0].name, &s, &out, &stats, &d);
        rc = r == UE_OK ? 0 : cli_import_hsd_fail(in, &d, r);
    }
    if (!rc && d.count) cli_print_diags_as(in, &d, 50);
    if (!rc)
        rc = cli_import_hsd_resolve_slots(o, &s, stats.anim_index, stats.anim_model, slots, slots + o->anim_slot_count,
                                          loops);
    into.slots = slots, into.slot_clips = slots + o->anim_slot_count, into.slot_count = o->anim_slot_count;
    into.slot_loops = loops;
    ue_buf copy = {0};
    char written[4400] = "";
    if (!rc && into.active) {
        cli_into_hsd_chain_from_model(&into, found[0].name);
        rc = cli_into_hsd_build(o, &into, &out, &copy, written, sizeof written);
    }
    if (!rc) rc = cli_import_hsd_write(o, into.active ? &copy : &out, &into, &opened);
    if (!rc && cli_shows(UE_SEV_WARNING)) {
        bool dat_same = out.size == found[0].size && !memcmp(out.data, found[0].data, out.size);
        tell(o, &out, written, &into, &stats, dat_same);
        cli_import_hsd_tell_slots(o, &into);
        tell_container(o, &into, &copy, written, dat_same);
    }
    ue_buf_free(&copy);
    free(stats.anim_index);
    free(stats.anim_model);
    free(slots);
    free(loops);
    ue_diag_free(&d);
    ue_buf_free(&out);
    ue_model_found_free(found, count);
    ue_gltf_files_free(&opened);
    ue_scene_free(&s);
    return rc;
}
