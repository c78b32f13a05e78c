/* unearth CLI — the container verbs: info, list, extract, pack, validate, roundtrip.
 * Reports go to stdout, diagnostics to stderr; every output file appears whole or not at all. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "unearth/archive.h"
#include "unearth/model.h"
#include "archive/container.h"
#include "common/io.h"

/* Opens with diagnostics printed (or, with --json, a JSON error object) on failure; returns
 * an exit code (0 on success). */
static int open_archive(const cli_opts *o, const char *path, ue_archive **a, ue_diag *d) {
    ue_result r = ue_archive_open(path, o->mode, a, d);
    if (r == UE_OK) {
        if (d->count && !o->json) cli_print_diags_as(path, d, 50);
        return 0;
    }
    if (o->json) {
        cli_json_failure(o->verb, path, r, d);
    } else {
        cli_print_diags_as(path, d, 50);
        /* A closing line only when no diagnostic already said why. */
        if (!ue_diag_count(d, UE_SEV_ERROR))
            cli_error("%s: %s (%s)", path, ue_result_name(r), cli_sniff_format(path));
    }
    return cli_exit_code(r);
}

static int info_json(const cli_opts *o, ue_archive *a, const ue_diag *d) {
    char *text = ue_archive_info_json(a);
    json_t *j = text ? json_loads(text, 0, NULL) : NULL;
    free(text);
    if (!j) {
        cli_error("info: %s: %s", o->inputs[0], ue_result_name(UE_ERR_NOMEM));
        return EXIT_IO;
    }
    json_object_set_new(j, "diagnostics", cli_diags_json(d));
    cli_print_json(j);
    return 0;
}

/* One header field: a value on the key's line; a list of records (PKX animation entries and
 * slots) one record a line, so a long table stays readable. */
static void print_header_field(const char *key, json_t *v) {
    bool records = json_is_array(v) && json_array_size(v) > 0 && json_is_object(json_array_get(v, 0));
    if (records) {
        printf("  %s (%zu)\n", key, json_array_size(v));
        size_t i;
        json_t *item;
        json_array_foreach(v, i, item) {
            char *s = json_dumps(item, JSON_COMPACT);
            printf("    [%zu] %s\n", i, s ? s : "?");
            free(s);
        }
        return;
    }
    char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
    printf("  %-20s %s\n", key, s ? s : "?");
    free(s);
}

static void info_text(const char *path, ue_archive *a) {
    char *text = ue_archive_info_json(a);
    json_t *j = text ? json_loads(text, 0, NULL) : NULL;
    free(text);
    printf("%s: %s, %lld bytes, %zu entries\n", path,
           json_string_value(json_object_get(j, "description")),
           (long long)json_integer_value(json_object_get(j, "size")), ue_archive_count(a));
    const char *key;
    json_t *v;
    json_object_foreach(json_object_get(j, "header"), key, v) print_header_field(key, v);
    /* A per-kind summary helps spot nested models at a glance. */
    size_t nested = 0;
    for (size_t i = 0; i < ue_archive_count(a); i++) {
        ue_entry_info e;
        ue_archive_entry(a, i, &e);
        nested += e.nested[0] != 0;
    }
    printf("  %-20s %zu\n", "nested_containers", nested);
    size_t damaged = cli_damaged_entries(a);
    if (damaged) printf("  %-20s %zu\n", "damaged_entries", damaged);
    json_decref(j);
}

int cmd_info(const cli_opts *o) {
    int model_rc = model_info(o, o->inputs[0]);
    if (model_rc >= 0) return model_rc;
    ue_archive *a;
    ue_diag d = {0};
    int rc = open_archive(o, o->inputs[0], &a, &d);
    if (!rc) {
        if (o->json) rc = info_json(o, a, &d);
        else info_text(o->inputs[0], a);
        ue_archive_close(a);
    }
    ue_diag_free(&d);
    return rc;
}

/* One entry in the keys every container shares; the format's own fields go under "extra". */
static json_t *entry_json(const ue_entry_info *e, json_t *format_fields) {
    static const char *const common[] = {"index", "name", "type", "size", "stored_size",
                                         "method", "offset", "nested", "damaged"};
    json_t *j = json_object();
    json_object_set_new(j, "index", json_integer((json_int_t)e->index));
    json_object_set_new(j, "name", json_string(e->name));
    json_object_set_new(j, "type", json_string(e->type));
    json_object_set_new(j, "size", json_integer((json_int_t)e->size));
    json_object_set_new(j, "stored_size", json_integer((json_int_t)e->stored_size));
    json_object_set_new(j, "method", json_string(e->method));
    json_object_set_new(j, "offset", json_integer((json_int_t)e->offset));
    json_object_set_new(j, "nested", e->nested[0] ? json_string(e->nested) : json_null());
    json_object_set_new(j, "damaged", json_boolean(e->damaged));
    json_t *extra = json_is_object(format_fields) ? json_deep_copy(format_fields) : json_object();
    for (size_t k = 0; k < sizeof common / sizeof common[0]; k++) json_object_del(extra, common[k]);
    json_object_set_new(j, "extra", extra);
    return j;
}

static void list_json(const char *path, ue_archive *a, const ue_diag *d) {
    char *text = ue_archive_list_json(a);
    json_t *per_format = text ? json_loads(text, 0, NULL) : NULL;
    free(text);
    json_t *entries = json_array();
    for (size_t i = 0; i < ue_archive_count(a); i++) {
        ue_entry_info e;
        ue_archive_entry(a, i, &e);
        json_array_append_new(entries, entry_json(&e, json_array_get(per_format, i)));
    }
    json_decref(per_format);
    json_t *j = json_object();
    json_object_set_new(j, "file", json_string(path));
    json_object_set_new(j, "format", json_string(ue_archive_format(a)));
    json_object_set_new(j, "entries", entries);
    json_object_set_new(j, "diagnostics", cli_diags_json(d));
    cli_print_json(j);
}

static void list_text(ue_archive *a) {
    printf("%5s  %-10s %10s %10s %-9s %10s  %s\n", "index", "type", "size", "stored", "method",
           "offset", "name");
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

int cmd_list(const cli_opts *o) {
    ue_archive *a;
    ue_diag d = {0};
    int rc = open_archive(o, o->inputs[0], &a, &d);
    if (!rc) {
        if (o->json) list_json(o->inputs[0], a, &d);
        else list_text(a);
        ue_archive_close(a);
    }
    ue_diag_free(&d);
    return rc;
}

/* The input's verdict, with one closing line when it is not valid: strict extraction stops on
 * it, tolerant extraction reports it after writing what was intact. */
static int extract_verdict(const cli_opts *o, const char *path) {
    cli_tally t = {0};
    bool strict = o->mode == UE_MODE_STRICT;
    int code = file_verdict(o, path, strict, &t);
    if (code == EXIT_INVALID) {
        char counts[96];
        cli_verdict_counts(&t, counts, sizeof counts);
        fprintf(stderr, "%s: %s (%s): %s\n", path, t.errors ? "INVALID" : "DAMAGED", counts,
                strict ? "nothing extracted" : "the output holds only what was intact");
    }
    return code;
}

int cmd_extract(const cli_opts *o) {
    int rc;
    const char *path = o->inputs[0];
    /* Strict mode refuses whatever validate calls invalid, nested containers and models too. */
    if (o->mode == UE_MODE_STRICT && (rc = extract_verdict(o, path))) return rc;
    ue_archive *a;
    ue_diag d = {0};
    if ((rc = open_archive(o, path, &a, &d))) {
        ue_diag_free(&d);
        return rc;
    }
    ue_diag_free(&d);
    ue_result r = ue_archive_extract(a, o->output, o->force, &d);
    for (size_t i = 0; i < ue_archive_count(a); i++) {
        ue_entry_info e;
        ue_archive_entry(a, i, &e);
        if (e.damaged) fprintf(stderr, "%s: skipped damaged entry %zu (%s)\n", path, i, e.name);
    }
    cli_print_diags_as(path, &d, 50);
    size_t written = ue_archive_count(a) - cli_damaged_entries(a);
    if (r == UE_OK && !o->quiet) fprintf(stderr, "%s: extracted %zu entries to %s\n", path, written, o->output);
    if (r != UE_OK && !ue_diag_count(&d, UE_SEV_ERROR)) cli_error("extract: %s: %s", path, ue_result_name(r));
    ue_diag_free(&d);
    ue_archive_close(a);
    if (r != UE_OK) return cli_exit_code(r);
    /* Tolerant: what is intact is written; the exit code is validate --tolerant's verdict. */
    return o->mode == UE_MODE_TOLERANT ? extract_verdict(o, path) : 0;
}

int cmd_pack(const cli_opts *o) {
    int refused = cli_hint_pack_input(o->inputs[0], o->output);
    if (!refused) refused = cli_refuse_existing("pack", o->output, o->force);
    if (refused) return refused;
    ue_diag d = {0};
    ue_pack_options how = {o->level_given ? (int)o->level : UE_PACK_LEVEL_MANIFEST};
    ue_result r = ue_archive_pack_file_opts(o->inputs[0], o->output, o->force, &how, &d);
    cli_print_diags_as(o->inputs[0], &d, 50);
    if (r != UE_OK && !ue_diag_count(&d, UE_SEV_ERROR)) cli_error("pack: %s", ue_result_name(r));
    if (r == UE_OK && !o->quiet) fprintf(stderr, "packed %s into %s\n", o->inputs[0], o->output);
    ue_diag_free(&d);
    return cli_exit_code(r);
}

/* The model format of a path that is no container but a model by itself (a bare .dat, or
 * the DAT entry of a PKX), or NULL. */
static const char *bare_model_format(const cli_opts *o, const char *path) {
    ue_model_found m;
    if (ue_model_load(path, o->mode, &m, NULL) != UE_OK) return NULL;
    free(m.data);
    return m.format->name;
}

/* Opens and checks the container at `path` (its models aside); `a` stays open on success. A
 * path that is a bare model is UE_OK with `a` NULL: its checks are the model's. */
static ue_result container_check(const cli_opts *o, const char *path, ue_archive **a, ue_diag *d,
                                 cli_tally *t) {
    *a = NULL;
    ue_diag opening = {0};
    /* Mapped: the deep check opens nested containers where they lie, without copies. */
    ue_result r = ue_archive_open_mapped(path, o->mode, a, &opening);
    if (r != UE_OK && bare_model_format(o, path)) r = UE_OK;
    else ue_diag_append(d, &opening, UE_SEV_INFO);
    ue_diag_free(&opening);
    if (r == UE_OK && *a) r = ue_archive_validate(*a, d);
    cli_diag_dedupe(d);
    cli_tally_add(t, d);
    t->dropped += cli_damaged_entries(*a);
    return r;
}

int file_verdict(const cli_opts *o, const char *path, bool print, cli_tally *t) {
    ue_diag d = {0};
    ue_archive *a;
    ue_result r = container_check(o, path, &a, &d, t);
    int code = cli_verdict_code(r, t);
    if (code && print) cli_print_diags_as(path, &d, 50);
    bool opened = a != NULL || r == UE_OK; /* a container, or a bare model */
    ue_diag_free(&d);
    if (code <= EXIT_INVALID && opened) {
        int mcode = models_check(o, path, a, print, t);
        if (mcode > code) code = mcode;
    }
    ue_archive_close(a);
    return code;
}

/* validate's report of one file: the same keys whether it opened or not. The counts are the
 * file's totals, its models included; "diagnostics" are the container's own. */
static json_t *validate_json(const char *path, const char *format, size_t entries, ue_result r,
                             const cli_tally *t, const ue_diag *d, json_t *models) {
    json_t *j = json_object();
    json_object_set_new(j, "file", json_string(path));
    json_object_set_new(j, "format", json_string(format));
    json_object_set_new(j, "valid", json_boolean(cli_verdict_code(r, t) == 0));
    json_object_set_new(j, "verdict", json_string(cli_verdict_word(r, t)));
    json_object_set_new(j, "result", json_string(ue_result_name(r)));
    json_object_set_new(j, "entries", json_integer((json_int_t)entries));
    json_object_set_new(j, "errors", json_integer((json_int_t)t->errors));
    json_object_set_new(j, "warnings", json_integer((json_int_t)t->warnings));
    json_object_set_new(j, "dropped", json_integer((json_int_t)t->dropped));
    json_object_set_new(j, "diagnostics", cli_diags_json(d));
    json_object_set_new(j, "models", models ? models : json_array());
    return j;
}

static void validate_summary(const char *path, const char *format, const ue_archive *a,
                             ue_result r, const cli_tally *t) {
    char counts[96];
    cli_verdict_counts(t, counts, sizeof counts);
    /* A file that did not open has no entry count worth showing. */
    char entries[40] = "";
    if (a) snprintf(entries, sizeof entries, "%zu entries, ", ue_archive_count(a));
    if (cli_verdict_code(r, t) <= EXIT_INVALID)
        printf("%s: %s (%s, %s%s)\n", path, cli_verdict_word(r, t), format, entries, counts);
    else
        printf("%s: FAILED (%s, %s)\n", path, format, ue_result_name(r));
}

/* Checks one file and its models: diagnostics, each model's line, then the file's verdict. */
static int validate_one(const cli_opts *o, const char *path, json_t *report) {
    ue_diag d = {0};
    ue_archive *a;
    cli_tally t = {0};
    ue_result r = container_check(o, path, &a, &d, &t);
    int code = cli_verdict_code(r, &t);
    if (!report) cli_print_diags_as(path, &d, 0);
    /* Every model inside (or the file itself, when it is one) gets its own summary. */
    json_t *models = report ? json_array() : NULL;
    const char *bare = a || r != UE_OK ? NULL : bare_model_format(o, path);
    if ((a || bare) && code <= EXIT_INVALID && models_validate(o, path, a, models, &t) && r == UE_OK)
        r = UE_ERR_INVALID;
    const char *format = a ? ue_archive_format(a) : bare ? bare : cli_sniff_format(path);
    if (report)
        json_array_append_new(report, validate_json(path, format, a ? ue_archive_count(a) : 0, r,
                                                    &t, &d, models));
    else
        validate_summary(path, format, a, r, &t);
    ue_archive_close(a);
    ue_diag_free(&d);
    return cli_verdict_code(r, &t);
}

int cmd_validate(const cli_opts *o) {
    int worst = 0;
    json_t *report = o->json ? json_array() : NULL;
    for (size_t f = 0; f < o->input_count; f++) {
        int code = validate_one(o, o->inputs[f], report);
        if (code > worst) worst = code;
    }
    if (report) cli_print_json(report);
    return worst;
}

/* Byte-compares the re-encoded container with its input; prints the result line. */
static int compare_reencoded(const char *path, ue_archive *a, ue_diag *d) {
    ue_buf out = {0};
    uint8_t *orig = NULL;
    size_t orig_size = 0;
    ue_result r = ue_archive_reencode(a, &out, d);
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
            code = cli_exit_code(UE_ERR_MISMATCH);
        }
    } else {
        cli_print_diags_as(path, d, 50);
        printf("%s: FAILED (%s)\n", path, ue_result_name(r));
    }
    free(orig);
    ue_buf_free(&out);
    return code;
}

/* A round trip proves nothing about an input validate rejects: such files stop here, exit 1. */
static int roundtrip_one(const cli_opts *o, const char *path) {
    cli_tally t = {0};
    int code = file_verdict(o, path, true, &t);
    if (code == EXIT_INVALID) {
        char counts[96];
        cli_verdict_counts(&t, counts, sizeof counts);
        printf("%s: %s, not round-tripped (%s, %s)\n", path, t.errors ? "INVALID" : "DAMAGED",
               cli_sniff_format(path), counts);
        return code;
    }
    /* A bare model has no container to re-encode: the model's own round trip says it all. */
    if (!code && bare_model_format(o, path)) {
        ue_archive *probe;
        if (ue_archive_open(path, o->mode, &probe, NULL) != UE_OK) return models_roundtrip(o, path);
        ue_archive_close(probe);
    }
    ue_diag d = {0};
    ue_archive *a = NULL;
    ue_result r = code ? UE_ERR_IO : ue_archive_open(path, o->mode, &a, &d);
    if (r != UE_OK) {
        cli_print_diags_as(path, &d, 50);
        printf("%s: FAILED (%s)\n", path, ue_result_name(code ? UE_ERR_IO : r));
        ue_diag_free(&d);
        return code ? code : cli_exit_code(r);
    }
    cli_print_diags_as(path, &d, 50);
    ue_diag_free(&d);
    code = compare_reencoded(path, a, &d);
    int mcode = models_roundtrip(o, path);
    if (mcode > code) code = mcode;
    ue_archive_close(a);
    ue_diag_free(&d);
    return code;
}

int cmd_roundtrip(const cli_opts *o) {
    int worst = 0;
    for (size_t f = 0; f < o->input_count; f++) {
        int code = roundtrip_one(o, o->inputs[f]);
        if (code > worst) worst = code;
    }
    return worst;
}
