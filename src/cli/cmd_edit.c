/* unearth CLI — `edit`: applies MSH edit operations in the order given (rename a node, move or
 * scale vertices, replace a slot's geometry from an OBJ) and writes the edited model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "unearth/advanced/parkan.h"
#include "unearth/model.h"
#include "unearth/msh.h"
#include "unearth/obj_read.h"
#include "unearth/parkan_material.h"
#include "unearth/advanced/files.h"
#include "unearth/advanced/text.h"
#include "unearth/advanced/buffers.h"

/* A number as the user typed it: '.' is the decimal point whatever LC_NUMERIC says. */
static bool parse_double(const char *s, double *out) {
    char *end;
    *out = ue_parse_double(s, &end);
    return end != s && *end == 0;
}

static bool parse_index(const char *s, size_t *out) {
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || *end || s[0] == '-') return false;
    *out = (size_t)v;
    return true;
}

/* An OBJ as `convert` writes it (glTF's axes, OBJ's bottom-up v) back in the engine's terms:
 * Parkan's axis rule (parkan_axes.c) inverted for positions, normals and winding, and v
 * flipped back to top-down. */
static void obj_to_engine(ue_obj_mesh *mesh, uint16_t *indices) {
    ue_parkan_geometry_from_gltf(mesh->positions, mesh->normals, mesh->vertex_count, mesh->indices,
                                 mesh->index_count, indices);
    for (size_t v = 0; mesh->uvs && v < mesh->vertex_count; v++) mesh->uvs[2 * v + 1] = 1.0f - mesh->uvs[2 * v + 1];
}

/* Reads an OBJ as slot geometry in the engine's axes (at most 65535 vertices: Res6 indices
 * are 16-bit). */
static ue_result slot_geometry_from_obj(const char *path, ue_obj_mesh *mesh, uint16_t **indices,
                                        ue_diag *d) {
    uint8_t *text;
    size_t size;
    ue_result r = ue_file_read(path, (size_t)256 << 20, &text, &size, d);
    if (r != UE_OK) return r;
    r = ue_obj_read((const char *)text, size, UINT16_MAX, mesh, d);
    free(text);
    if (r != UE_OK) return r;
    *indices = ue_malloc_items(mesh->index_count, sizeof **indices);
    if (!*indices) {
        ue_obj_mesh_free(mesh);
        return UE_ERR_NOMEM;
    }
    obj_to_engine(mesh, *indices);
    return UE_OK;
}

/* Names arrive in UTF-8 (the terminal's text) and are stored in Windows-1251, the code page
 * of Parkan files (docs/text.md); a character the code page lacks is refused by name rather
 * than stored as something else. Returns an exit code. */
static int rename_node_utf8(ue_msh *m, size_t node, const char *name) {
    size_t cap = strlen(name) + 1, len = 0, at = 0;
    uint32_t bad = 0;
    char *stored = malloc(cap); /* CP1251 never takes more bytes than UTF-8 */
    if (!stored) return EXIT_IO;
    ue_result r = ue_utf8_to_cp1251(name, stored, cap, &len, &bad, &at);
    if (r == UE_OK) r = ue_msh_rename_node(m, node, stored);
    free(stored);
    if (r == UE_ERR_INVALID && bad == UINT32_MAX) {
        cli_error("edit: --rename-node: \"%s\" is not UTF-8 text (byte 0x%02X at offset %zu)", name,
                  (unsigned)(unsigned char)name[at], at);
        return EXIT_USAGE;
    }
    if (r == UE_ERR_INVALID) {
        uint32_t cp;
        int width = (int)ue_utf8_decode(name + at, strlen(name + at), &cp);
        cli_error("edit: --rename-node: '%.*s' (U+%04X) has no Windows-1251 code; Parkan names are "
                  "stored in that code page (Latin, Cyrillic and common signs)",
                  width, name + at, (unsigned)bad);
        return EXIT_USAGE;
    }
    return cli_exit_code(r);
}

/* ---- the operations ------------------------------------------------------------------ */

/* What the operations share while they run, in the order given on the command line. */
typedef struct edit_state {
    ue_msh *m;
    const char **ops;      /* operation names (long form) and their values */
    int op_count;
    size_t first, n;       /* the --vertices range for the next --translate/--scale */
    bool ranged;           /* a --vertices range was given for it */
    long material;         /* --material: the WEAR row of new geometry, -1 = the slot's own */
    ue_result result;      /* the last library failure, for the closing message */
    ue_diag *d;
} edit_state;

static int op_material(edit_state *e, int i) {
    size_t k = 0;
    if (!parse_index(e->ops[i + 1], &k) || k > UINT16_MAX) return EXIT_USAGE;
    e->material = (long)k;
    return 0;
}

static int op_rename_node(edit_state *e, int i) {
    size_t k = 0;
    if (parse_index(e->ops[i + 1], &k) && k < e->m->node_count) return rename_node_utf8(e->m, k, e->ops[i + 2]);
    cli_error("edit: --rename-node: no node %s (the model has %zu)", e->ops[i + 1], e->m->node_count);
    return EXIT_USAGE;
}

static int op_vertices(edit_state *e, int i) {
    size_t first = 0, len = 0, total = e->m->vertex_count;
    if (!parse_index(e->ops[i + 1], &first) || !parse_index(e->ops[i + 2], &len) || first > total ||
        len > total - first) {
        cli_error("edit: --vertices: the model has %zu vertices", total);
        return EXIT_USAGE;
    }
    e->first = first, e->n = len, e->ranged = true;
    return 0;
}

/* --scale S without --vertices: the whole model about the origin, vertices and node offsets
 * (every animation key's too); a mirror is refused, as it would turn the faces inside out. */
static int op_scale_model(edit_state *e, int i) {
    double s;
    if (!cli_parse_scale(e->ops[i + 1], &s) || s < 0) {
        cli_error("edit: --scale %s: want a number from 1e-30 to 1e30, not negative: the whole model is "
                  "scaled, and a mirror would turn its faces inside out (--vertices FIRST COUNT before "
                  "--scale mirrors those vertices only)", e->ops[i + 1]);
        return EXIT_USAGE;
    }
    e->result = ue_msh_scale(e->m, (float)s);
    if (e->result == UE_ERR_LIMIT)
        cli_error("edit: --scale %s: a coordinate of the model would pass 1e18, past what the "
                  "format's 32-bit float bounds can hold", e->ops[i + 1]);
    return cli_exit_code(e->result);
}

/* --translate X Y Z or --scale S (engine axes) on the --vertices range, which then resets. */
static int op_transform(edit_state *e, int i, bool move) {
    if (!move && !e->ranged) return op_scale_model(e, i);
    float linear[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, shift[3] = {0, 0, 0};
    double x, y, z;
    int rc = 0;
    if (move && parse_double(e->ops[i + 1], &x) && parse_double(e->ops[i + 2], &y) && parse_double(e->ops[i + 3], &z)) {
        shift[0] = (float)x, shift[1] = (float)y, shift[2] = (float)z;
    } else if (!move && cli_parse_scale(e->ops[i + 1], &x)) {
        linear[0] = linear[4] = linear[8] = (float)x;
    } else if (move) {
        cli_error("edit: --translate %s %s %s: want three numbers X Y Z", e->ops[i + 1], e->ops[i + 2], e->ops[i + 3]);
        rc = EXIT_USAGE;
    } else {
        cli_error("edit: --scale %s: " CLI_SCALE_RANGE, e->ops[i + 1]);
        rc = EXIT_USAGE;
    }
    if (!rc) e->result = ue_msh_transform_vertices(e->m, e->first, e->n, linear, shift);
    e->first = 0, e->n = e->m->vertex_count, e->ranged = false;
    return rc ? rc : cli_exit_code(e->result);
}

/* The WEAR row of new geometry: a --material anywhere after this operation (the last one
 * wins), one given before it, or the row of the slot's first batch. */
static uint16_t replacement_material(edit_state *e, int i, size_t slot) {
    size_t row = 0;
    for (int j = i + 3; j + 1 < e->op_count; j++)
        if (!strcmp(e->ops[j], "--material") && parse_index(e->ops[j + 1], &row) && row <= UINT16_MAX)
            e->material = (long)row;
    if (e->material >= 0) return (uint16_t)e->material;
    const ue_msh_slot *sl = &e->m->slots[slot];
    return sl->batch_count && sl->batch_start < e->m->batch_count ? e->m->batches[sl->batch_start].material : 0;
}

static int op_replace_slot(edit_state *e, int i) {
    size_t k = 0;
    if (!parse_index(e->ops[i + 1], &k) || k >= e->m->slot_count) {
        cli_error("edit: --replace-slot: no slot %s (the model has %zu)", e->ops[i + 1], e->m->slot_count);
        return EXIT_USAGE;
    }
    ue_obj_mesh mesh;
    uint16_t *indices = NULL;
    e->result = slot_geometry_from_obj(e->ops[i + 2], &mesh, &indices, e->d);
    if (e->result == UE_OK) {
        ue_msh_geometry g = {mesh.positions, mesh.normals, mesh.uvs, NULL, mesh.vertex_count,
                             indices, mesh.index_count, replacement_material(e, i, k)};
        e->result = ue_msh_replace_slot_geometry(e->m, k, &g, e->d);
        ue_obj_mesh_free(&mesh);
    }
    free(indices);
    return cli_exit_code(e->result);
}

/* Runs operation i; *consumed is how many values it took. Returns an exit code. */
static int run_op(edit_state *e, int i, int *consumed) {
    const char *a = e->ops[i];
    if (!strcmp(a, "--material")) return *consumed = 1, op_material(e, i);
    if (!strcmp(a, "--rename-node")) return *consumed = 2, op_rename_node(e, i);
    if (!strcmp(a, "--vertices")) return *consumed = 2, op_vertices(e, i);
    if (!strcmp(a, "--translate")) return *consumed = 3, op_transform(e, i, true);
    if (!strcmp(a, "--scale")) return *consumed = 1, op_transform(e, i, false);
    if (!strcmp(a, "--replace-slot")) return *consumed = 2, op_replace_slot(e, i);
    *consumed = 0;
    return 0;
}

static int run_ops(edit_state *e) {
    int rc = 0;
    for (int i = 0; i < e->op_count && !rc; i++) {
        int consumed = 0;
        rc = run_op(e, i, &consumed);
        i += consumed;
    }
    return rc;
}

/* ---- the verb ------------------------------------------------------------------------- */

static bool has_op(const cli_opts *o, const char *name) {
    for (size_t i = 0; i < o->op_count; i++)
        if (!strcmp(o->ops[i], name)) return true;
    return false;
}

/* What the command line asks must be something edit does: at least one change, no option
 * left with nothing to act on, and a model file (or --into's archive) as the output. */
static int check_request(const cli_opts *o) {
    if (!has_op(o, "--rename-node") && !has_op(o, "--translate") && !has_op(o, "--scale") &&
        !has_op(o, "--replace-slot")) {
        cli_error("edit: no operation: give at least one of --rename-node N NAME, --translate X Y Z, "
                  "--scale S or --replace-slot S FILE.obj; see 'unearth edit --help'");
        return EXIT_USAGE;
    }
    if (has_op(o, "--material") && !has_op(o, "--replace-slot")) {
        cli_error("edit: --material M is the WEAR row of --replace-slot geometry, and no --replace-slot "
                  "is given; to change the row of existing batches, edit the model in glTF and import it");
        return EXIT_USAGE;
    }
    bool transform_follows = false; /* walking backwards: a --translate/--scale comes later */
    for (size_t i = o->op_count; i-- > 0;) {
        if (!strcmp(o->ops[i], "--translate") || !strcmp(o->ops[i], "--scale")) transform_follows = true;
        if (!strcmp(o->ops[i], "--vertices") && !transform_follows) {
            cli_error("edit: --vertices FIRST COUNT limits the next --translate or --scale, and none follows it");
            return EXIT_USAGE;
        }
        if (!strcmp(o->ops[i], "--vertices")) transform_follows = false;
    }
    if (!o->into && !ue_name_has_ext(o->output, ".msh")) {
        bool gltf = ue_name_has_ext(o->output, ".glb") || ue_name_has_ext(o->output, ".gltf") ||
                    ue_name_has_ext(o->output, ".obj");
        cli_error("edit: -o %s: edit writes a Parkan MSH model; name it .msh%s", o->output,
                  gltf ? ", then `unearth convert OUT.msh -o OUT.glb` makes the glTF or OBJ"
                       : " (or give --into ARCHIVE:ENTRY to write a copy of an archive)");
        return EXIT_USAGE;
    }
    return 0;
}

/* Refuses before any work: an output that is an input (an OBJ of --replace-slot or the --into
 * archive included) or that exists without -f. */
static int check_edit_output(const cli_opts *o) {
    int rc = check_request(o);
    for (size_t i = 0; !rc && i + 2 < o->op_count; i++)
        if (!strcmp(o->ops[i], "--replace-slot")) rc = cli_check_output("edit", o->output, &o->ops[i + 2], 1);
    if (!rc) rc = cli_into_check("edit", o);
    return rc ? rc : cli_refuse_existing("edit", o->output, o->force);
}

/* Every --material row must exist in the model's WEAR table, when that table is found (as
 * convert finds it); without it the rows cannot be checked, which is said. */
static int check_material_rows(const cli_opts *o) {
    if (!has_op(o, "--material")) return 0;
    ue_diag d = {0};
    ue_wear w;
    ue_result r = ue_msh_wear_of(o->inputs[0], &w, &d);
    int rc = 0;
    for (size_t i = 0; !rc && i + 1 < o->op_count; i++) {
        size_t row = 0;
        if (strcmp(o->ops[i], "--material")) continue;
        if (!parse_index(o->ops[i + 1], &row) || row > UINT16_MAX) {
            cli_error("edit: --material %s: a WEAR row is a number 0..65535", o->ops[i + 1]);
            rc = EXIT_USAGE;
        } else if (r == UE_OK && row >= w.material_count) {
            cli_error("edit: --material %zu: the WEAR table of %s has %zu %s (0..%zu)", row, o->inputs[0],
                      w.material_count, cli_plural(w.material_count, "row", "rows"),
                      w.material_count ? w.material_count - 1 : 0);
            rc = EXIT_USAGE;
        }
    }
    if (d.count) cli_print_diags_as(o->inputs[0], &d, 5);
    if (r == UE_OK) ue_wear_free(&w);
    else fprintf(stderr, "%s: --material is not checked against a WEAR table\n", o->inputs[0]);
    ue_diag_free(&d);
    return rc;
}

/* The one model at the input (a file or ARCHIVE:ENTRY), found through the model registry;
 * an archive of several is refused, and so is a model of a format edit cannot change. */
static int load_model(const cli_opts *o, ue_msh *m, ue_diag *d) {
    const char *input = o->inputs[0];
    ue_model_found *found = NULL;
    size_t count = 0;
    ue_result r = ue_model_collect(input, o->mode, &found, &count, d);
    if (r == UE_OK && count != 1) {
        cli_error("edit: %s holds %zu models; address one as ARCHIVE:ENTRY", input, count);
        ue_model_found_free(found, count);
        return count ? EXIT_USAGE : EXIT_INVALID;
    }
    if (r == UE_OK && found[0].format != &ue_msh_model_format) {
        cli_error("edit: %s is a %s; edit changes Parkan MSH models only", input, found[0].format->description);
        ue_model_found_free(found, count);
        return EXIT_USAGE;
    }
    if (r == UE_OK) r = ue_msh_parse(found[0].data, found[0].size, o->mode, m, d);
    ue_model_found_free(found, count);
    if (r == UE_OK) return 0;
    cli_print_diags_as(input, d, 50);
    if (!ue_diag_count(d, UE_SEV_ERROR)) cli_error("edit: %s: %s", input, ue_result_name(r));
    return cli_exit_code(r);
}

/* The result must itself be a valid model before it reaches the disk. */
static ue_result build_checked(ue_msh *m, ue_buf *out, ue_diag *d) {
    ue_result r = ue_msh_write(m, out, d);
    ue_msh check;
    if (r == UE_OK && (r = ue_msh_parse(out->data, out->size, UE_MODE_STRICT, &check, d)) == UE_OK)
        ue_msh_free(&check);
    return r;
}

/* The model written to -o, or with --into into a copy of the archive; says what was written. */
static int write_result(const cli_opts *o, const ue_buf *model, ue_diag *d) {
    if (o->into) {
        bool added = false;
        char written[4400];
        int rc = cli_into_write("edit", o, model, &added, written, sizeof written);
        if (!rc) fprintf(stderr, "%s %s (%zu bytes) in %s\n", added ? "added" : "replaced", written, model->size, o->output);
        if (!rc) cli_note_materials(o, o->inputs[0], written);
        return rc;
    }
    ue_result r = ue_file_write_atomic(o->output, model->data, model->size, o->force, d);
    if (r == UE_OK) fprintf(stderr, "edited model written to %s (%zu bytes)\n", o->output, model->size);
    if (r == UE_OK) cli_note_materials(o, o->inputs[0], NULL);
    return cli_exit_code(r);
}

int cmd_edit(const cli_opts *o) {
    /* The parser (options.c) checked every operation against the option table and gave each
     * all its values; o->ops keeps them in order, spelled in their long form. */
    int rc = check_edit_output(o);
    if (!rc) rc = check_material_rows(o);
    if (rc) return rc;
    ue_diag d = {0};
    ue_msh m;
    rc = load_model(o, &m, &d);
    if (rc) {
        ue_diag_free(&d);
        return rc;
    }
    edit_state e = {&m, o->ops, (int)o->op_count, 0, m.vertex_count, false, -1, UE_OK, &d};
    rc = run_ops(&e);
    ue_buf out = {0};
    if (!rc) {
        e.result = build_checked(&m, &out, &d);
        rc = cli_exit_code(e.result);
    }
    if (d.count) cli_print_diags(&d, 50);
    ue_diag_free(&d);
    if (!rc) rc = write_result(o, &out, &d);
    if (d.count) cli_print_diags(&d, 50);
    if (rc && e.result != UE_OK) cli_error("edit: not written (%s)", ue_result_name(e.result));
    else if (rc) cli_error("edit: not written");
    ue_buf_free(&out);
    ue_msh_free(&m);
    ue_diag_free(&d);
    return rc;
}
