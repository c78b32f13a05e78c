/* unearth CLI — the container verbs: info, list, extract, pack, validate, roundtrip.
 * Reports go to stdout, diagnostics to stderr; every output file appears whole or not at all. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "unearth/archive.h"

static int need_inputs(const cli_opts *o, size_t min, size_t max) {
    if (o->input_count < min || (max && o->input_count > max)) {
        cli_error("%s: expected %zu%s input%s (see unearth --help)", o->verb, min,
                  max == min ? "" : " or more", min == 1 && max == 1 ? "" : "s");
        return EXIT_USAGE;
    }
    return 0;
}

/* Opens with diagnostics printed on failure; returns an exit code (0 on success). */
static int open_archive(const cli_opts *o, const char *path, ue_archive **a) {
    ue_diag d = {0};
    ue_result r = ue_archive_open(path, o->mode, a, &d);
    if (r != UE_OK) {
        cli_print_diags(&d, 50);
        cli_error("%s: %s", path, ue_result_name(r));
    } else if (d.count && !o->quiet) {
        cli_print_diags(&d, 50);
    }
    ue_diag_free(&d);
    return cli_exit_code(r);
}

static void print_json_text(char *text) {
    if (text) {
        puts(text);
        free(text);
    }
}

int cmd_info(const cli_opts *o) {
    int rc = need_inputs(o, 1, 1);
    if (rc) return rc;
    int model_rc = model_info(o, o->inputs[0]);
    if (model_rc >= 0) return model_rc;
    ue_archive *a;
    if ((rc = open_archive(o, o->inputs[0], &a))) return rc;
    char *text = ue_archive_info_json(a);
    if (o->json) {
        print_json_text(text);
    } else if (text) {
        json_t *j = json_loads(text, 0, NULL);
        free(text);
        printf("%s: %s, %lld bytes, %zu entries\n", o->inputs[0],
               json_string_value(json_object_get(j, "description")),
               (long long)json_integer_value(json_object_get(j, "size")), ue_archive_count(a));
        const char *key;
        json_t *v;
        json_object_foreach(json_object_get(j, "header"), key, v) {
            char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
            printf("  %-20s %s\n", key, s ? s : "?");
            free(s);
        }
        /* A per-kind summary helps spot nested models at a glance. */
        size_t nested = 0, damaged = 0;
        for (size_t i = 0; i < ue_archive_count(a); i++) {
            ue_entry_info e;
            ue_archive_entry(a, i, &e);
            nested += e.nested[0] != 0;
            damaged += e.damaged;
        }
        printf("  %-20s %zu\n", "nested_containers", nested);
        if (damaged) printf("  %-20s %zu\n", "damaged_entries", damaged);
        json_decref(j);
    }
    ue_archive_close(a);
    return 0;
}

int cmd_list(const cli_opts *o) {
    int rc = need_inputs(o, 1, 1);
    if (rc) return rc;
    ue_archive *a;
    if ((rc = open_archive(o, o->inputs[0], &a))) return rc;
    if (o->json) {
        print_json_text(ue_archive_list_json(a));
    } else {
        printf("%5s  %-10s %10s %10s %-9s %10s  %s\n", "index", "type", "size", "stored",
               "method", "offset", "name");
        for (size_t i = 0; i < ue_archive_count(a); i++) {
            ue_entry_info e;
            ue_archive_entry(a, i, &e);
            printf("%5zu  %-10s %10llu %10llu %-9s %#10llx  %s%s%s%s\n", i, e.type,
                   (unsigned long long)e.size, (unsigned long long)e.stored_size, e.method,
                   (unsigned long long)e.offset, e.name, e.nested[0] ? "  [" : "", e.nested,
                   e.nested[0] ? "]" : "");
            if (e.damaged) printf("       ^ damaged\n");
        }
    }
    ue_archive_close(a);
    return 0;
}

int cmd_extract(const cli_opts *o) {
    int rc = need_inputs(o, 1, 1);
    if (rc) return rc;
    if (!o->output) {
        cli_error("extract: -o DIR is required");
        return EXIT_USAGE;
    }
    ue_archive *a;
    if ((rc = open_archive(o, o->inputs[0], &a))) return rc;
    ue_diag d = {0};
    ue_result r = ue_archive_extract(a, o->output, o->force, &d);
    size_t damaged = 0;
    for (size_t i = 0; i < ue_archive_count(a); i++) {
        ue_entry_info e;
        ue_archive_entry(a, i, &e);
        if (e.damaged) {
            damaged++;
            fprintf(stderr, "unearth: skipped damaged entry %zu (%s)\n", i, e.name);
        }
    }
    if (d.count) cli_print_diags(&d, 50);
    if (r == UE_OK && !o->quiet)
        fprintf(stderr, "extracted %zu entries to %s\n", ue_archive_count(a) - damaged, o->output);
    if (r != UE_OK) cli_error("extract: %s", ue_result_name(r));
    ue_diag_free(&d);
    ue_archive_close(a);
    /* Tolerant extraction of a damaged archive succeeds but still reports invalid input. */
    return r != UE_OK ? cli_exit_code(r) : (damaged ? EXIT_INVALID : 0);
}

int cmd_pack(const cli_opts *o) {
    int rc = need_inputs(o, 1, 1);
    if (rc) return rc;
    if (!o->output) {
        cli_error("pack: -o ARCHIVE is required");
        return EXIT_USAGE;
    }
    if (!o->force && ue_path_exists(o->output)) {
        cli_error("pack: %s exists (use -f to overwrite)", o->output);
        return EXIT_USAGE;
    }
    ue_diag d = {0};
    ue_result r = ue_archive_pack_file(o->inputs[0], o->output, o->force, &d);
    if (d.count) cli_print_diags(&d, 50);
    if (r != UE_OK) cli_error("pack: %s", ue_result_name(r));
    else if (!o->quiet) fprintf(stderr, "packed %s into %s\n", o->inputs[0], o->output);
    ue_diag_free(&d);
    return cli_exit_code(r);
}

int cmd_validate(const cli_opts *o) {
    int rc = need_inputs(o, 1, 0);
    if (rc) return rc;
    int worst = 0;
    json_t *report = json_array();
    for (size_t f = 0; f < o->input_count; f++) {
        const char *path = o->inputs[f];
        ue_diag d = {0};
        ue_archive *a = NULL;
        ue_result r = ue_archive_open(path, o->mode, &a, &d);
        if (r == UE_OK) r = ue_archive_validate(a, &d);
        size_t errors = ue_diag_count(&d, UE_SEV_ERROR);
        size_t warnings = ue_diag_count(&d, UE_SEV_WARNING) - errors;
        int code = r == UE_OK && errors ? EXIT_INVALID : cli_exit_code(r);
        if (code > worst) worst = code;
        if (o->json) {
            json_t *j = json_object();
            json_object_set_new(j, "file", json_string(path));
            json_object_set_new(j, "format", json_string(a ? ue_archive_format(a) : ""));
            json_object_set_new(j, "valid", json_boolean(code == 0));
            json_object_set_new(j, "entries", json_integer(a ? (json_int_t)ue_archive_count(a) : 0));
            json_object_set_new(j, "errors", json_integer((json_int_t)errors));
            json_object_set_new(j, "warnings", json_integer((json_int_t)warnings));
            json_object_set_new(j, "diagnostics", cli_diags_json(&d));
            json_array_append_new(report, j);
        } else {
            cli_print_diags(&d, 0);
            printf("%s: %s (%s, %zu entries, %zu errors, %zu warnings)\n", path,
                   code == 0 ? "valid" : "INVALID", a ? ue_archive_format(a) : "unknown",
                   a ? ue_archive_count(a) : 0, errors, warnings);
        }
        ue_archive_close(a);
        ue_diag_free(&d);
        /* Every model inside (or the file itself, when it is one) gets its own summary. */
        if (r == UE_OK) {
            json_t *models = o->json ? json_array() : NULL;
            int mcode = models_validate(o, path, models);
            if (mcode > worst) worst = mcode;
            if (models) {
                json_t *last = json_array_get(report, json_array_size(report) - 1);
                json_object_set_new(last, "models", models);
                if (mcode) json_object_set_new(last, "valid", json_false());
            }
        }
    }
    if (o->json) {
        char *s = json_dumps(report, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        print_json_text(s);
    }
    json_decref(report);
    return worst;
}

int cmd_roundtrip(const cli_opts *o) {
    int rc = need_inputs(o, 1, 0);
    if (rc) return rc;
    int worst = 0;
    for (size_t f = 0; f < o->input_count; f++) {
        const char *path = o->inputs[f];
        ue_diag d = {0};
        ue_archive *a = NULL;
        uint8_t *orig = NULL;
        size_t orig_size = 0;
        ue_buf out = {0};
        ue_result r = ue_archive_open(path, o->mode, &a, &d);
        if (r == UE_OK) r = ue_archive_reencode(a, &out, &d);
        /* Compare against the bytes the archive was opened from (the entry, for OUTER:ENTRY). */
        if (r == UE_OK) r = ue_archive_bytes(a, &orig, &orig_size);
        int code = cli_exit_code(r);
        if (r == UE_OK) {
            size_t n = orig_size < out.size ? orig_size : out.size, at = 0;
            while (at < n && orig[at] == out.data[at]) at++;
            if (at == n && orig_size == out.size) {
                printf("%s: identical (%s, %zu bytes)\n", path, ue_archive_format(a), out.size);
            } else {
                printf("%s: MISMATCH at byte 0x%zx (input %zu bytes, re-encoded %zu bytes)\n", path,
                       at, orig_size, out.size);
                code = EXIT_INVALID;
            }
        } else {
            cli_print_diags(&d, 50);
            printf("%s: FAILED (%s)\n", path, ue_result_name(r));
        }
        if (r == UE_OK) {
            int mcode = models_roundtrip(o, path);
            if (mcode > code) code = mcode;
        }
        if (code > worst) worst = code;
        free(orig);
        ue_buf_free(&out);
        ue_archive_close(a);
        ue_diag_free(&d);
    }
    return worst;
}
