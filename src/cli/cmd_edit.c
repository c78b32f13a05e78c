/* unearth CLI — `edit`: applies MSH edit operations in the order given (rename a node, move or
 * scale vertices, replace a slot's geometry from an OBJ) and writes the edited model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "unearth/msh.h"
#include "unearth/obj_read.h"
#include "common/io.h"
#include "common/text.h"

static bool parse_double(const char *s, double *out) {
    char *end;
    *out = strtod(s, &end);
    return end != s && *end == 0;
}

static bool parse_index(const char *s, size_t *out) {
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || *end || s[0] == '-') return false;
    *out = (size_t)v;
    return true;
}

/* Reads an OBJ as slot geometry: Y-up glTF axes back to the engine's Z-up left-handed ones
 * (swap Y and Z, reverse each triangle) and OBJ's bottom-up v back to top-down. */
static ue_result slot_geometry_from_obj(const char *path, ue_obj_mesh *mesh, uint16_t **indices,
                                        ue_diag *d) {
    uint8_t *text;
    size_t size;
    ue_result r = ue_file_read(path, (size_t)256 << 20, &text, &size, d);
    if (r != UE_OK) return r;
    r = ue_obj_read((const char *)text, size, UINT16_MAX, mesh, d);
    free(text);
    if (r != UE_OK) return r;
    for (size_t v = 0; v < mesh->vertex_count; v++) {
        float *p = &mesh->positions[3 * v], y = p[1];
        p[1] = p[2], p[2] = y;
        if (mesh->normals) {
            float *n = &mesh->normals[3 * v], ny = n[1];
            n[1] = n[2], n[2] = ny;
        }
        if (mesh->uvs) mesh->uvs[2 * v + 1] = 1.0f - mesh->uvs[2 * v + 1];
    }
    *indices = malloc((mesh->index_count ? mesh->index_count : 1) * sizeof **indices);
    if (!*indices) return UE_ERR_NOMEM;
    for (size_t i = 0; i < mesh->index_count; i += 3) {
        (*indices)[i] = (uint16_t)mesh->indices[i];
        (*indices)[i + 1] = (uint16_t)mesh->indices[i + 2];
        (*indices)[i + 2] = (uint16_t)mesh->indices[i + 1];
    }
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

int cmd_edit(const cli_opts *o) {
    /* The parser (options.c) checked every operation against the option table and gave each
     * all its values; o->ops keeps them in order, spelled in their long form. */
    const char *input = o->inputs[0], *output = o->output;
    const char **argv = o->ops;
    int argc = (int)o->op_count;
    bool force = o->force;
    ue_mode mode = o->mode;
    int guard = 0;
    for (int i = 0; i + 2 < argc && !guard; i++)
        if (!strcmp(argv[i], "--replace-slot"))
            guard = cli_check_output("edit", output, (const char *const *)&argv[i + 2], 1);
    if (guard) return guard;
    if (!force && ue_path_exists(output)) {
        cli_error("edit: %s exists (use -f to overwrite)", output);
        return EXIT_USAGE;
    }
    ue_diag d = {0};
    ue_msh_found *found = NULL;
    size_t count = 0;
    ue_result r = ue_msh_collect(input, mode, &found, &count, &d);
    if (r == UE_OK && count != 1) {
        cli_error("edit: %s holds %zu models; address one as ARCHIVE:ENTRY", input, count);
        ue_msh_found_free(found, count);
        ue_diag_free(&d);
        return count ? EXIT_USAGE : EXIT_INVALID;
    }
    ue_msh m;
    if (r == UE_OK) r = ue_msh_parse(found[0].data, found[0].size, mode, &m, &d);
    ue_msh_found_free(found, count);
    if (r != UE_OK) {
        cli_print_diags_as(input, &d, 50);
        if (!ue_diag_count(&d, UE_SEV_ERROR)) cli_error("edit: %s: %s", input, ue_result_name(r));
        ue_diag_free(&d);
        return cli_exit_code(r);
    }

    /* Second pass: the operations, in order. */
    int rc = 0;
    size_t first = 0, n = m.vertex_count;
    long material = -1;
    for (int i = 0; i < argc && !rc; i++) {
        const char *a = argv[i];
        double x, y, z;
        size_t k = 0, len = 0;
        if (!strcmp(a, "-o")) {
            i++;
        } else if (!strcmp(a, "--material")) {
            if (!parse_index(argv[i + 1], &k) || k > UINT16_MAX) rc = EXIT_USAGE;
            material = (long)k;
            i++;
        } else if (!strcmp(a, "--rename-node")) {
            if (!parse_index(argv[i + 1], &k) || k >= m.node_count) {
                cli_error("edit: --rename-node: no node %s (the model has %zu)", argv[i + 1], m.node_count);
                rc = EXIT_USAGE;
            } else {
                rc = rename_node_utf8(&m, k, argv[i + 2]);
            }
            i += 2;
        } else if (!strcmp(a, "--vertices")) {
            if (!parse_index(argv[i + 1], &first) || !parse_index(argv[i + 2], &len) ||
                first > m.vertex_count || len > m.vertex_count - first) {
                cli_error("edit: --vertices: the model has %zu vertices", m.vertex_count);
                rc = EXIT_USAGE;
            } else {
                n = len;
            }
            i += 2;
        } else if (!strcmp(a, "--translate") || !strcmp(a, "--scale")) {
            bool move = a[2] == 't';
            float linear[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, shift[3] = {0, 0, 0};
            if (move && parse_double(argv[i + 1], &x) && parse_double(argv[i + 2], &y) &&
                parse_double(argv[i + 3], &z)) {
                shift[0] = (float)x, shift[1] = (float)y, shift[2] = (float)z;
            } else if (!move && parse_double(argv[i + 1], &x) && x != 0) {
                linear[0] = linear[4] = linear[8] = (float)x;
            } else {
                cli_error("edit: %s: bad number", a);
                rc = EXIT_USAGE;
            }
            if (!rc) r = ue_msh_transform_vertices(&m, first, n, linear, shift);
            i += move ? 3 : 1;
            first = 0, n = m.vertex_count;
        } else if (!strcmp(a, "--replace-slot")) {
            if (!parse_index(argv[i + 1], &k) || k >= m.slot_count) {
                cli_error("edit: --replace-slot: no slot %s (the model has %zu)", argv[i + 1], m.slot_count);
                rc = EXIT_USAGE;
            } else {
                ue_obj_mesh mesh;
                uint16_t *indices = NULL;
                r = slot_geometry_from_obj(argv[i + 2], &mesh, &indices, &d);
                if (r == UE_OK) {
                    /* Look ahead for --material; otherwise keep the slot's current material. */
                    for (int j = i + 3; j + 1 < argc; j++)
                        if (!strcmp(argv[j], "--material") && parse_index(argv[j + 1], &len) && len <= UINT16_MAX)
                            material = (long)len;
                    const ue_msh_slot *sl = &m.slots[k];
                    uint16_t row = material >= 0 ? (uint16_t)material
                                   : (sl->batch_count && sl->batch_start < m.batch_count ? m.batches[sl->batch_start].material : 0);
                    ue_msh_geometry g = {mesh.positions, mesh.normals, mesh.uvs, NULL,
                                         mesh.vertex_count, indices, mesh.index_count, row};
                    r = ue_msh_replace_slot_geometry(&m, k, &g, &d);
                    ue_obj_mesh_free(&mesh);
                }
                free(indices);
            }
            i += 2;
        }
        if (r != UE_OK && !rc) rc = cli_exit_code(r);
    }
    ue_buf out = {0};
    if (!rc) {
        r = ue_msh_write(&m, &out, &d);
        /* The result must itself be a valid model before it reaches the disk. */
        ue_msh check;
        if (r == UE_OK && (r = ue_msh_parse(out.data, out.size, UE_MODE_STRICT, &check, &d)) == UE_OK)
            ue_msh_free(&check);
        if (r == UE_OK) r = ue_file_write_atomic(output, out.data, out.size, force, &d);
        rc = cli_exit_code(r);
    }
    if (d.count) cli_print_diags(&d, 50);
    if (!rc) fprintf(stderr, "edited model written to %s (%zu bytes)\n", output, out.size);
    else cli_error("edit: not written (%s)", r != UE_OK ? ue_result_name(r) : "usage");
    ue_buf_free(&out);
    ue_msh_free(&m);
    ue_diag_free(&d);
    return rc;
}
