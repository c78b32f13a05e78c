/* unearth CLI — the container verbs: info, list, extract, pack, validate, roundtrip.
 * Reports go to stdout, diagnostics to stderr; every output file appears whole or not at all. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "unearth/advanced/buffers.h"
#include "unearth/archive.h"
#include "unearth/model.h"
#include "unearth/advanced/archive.h"
#include "unearth/advanced/files.h"
#include "unearth/advanced/model_walk.h"

/* ---- what a path is when it is no container ------------------------------------------------ */

/* Splits ARCHIVE:ENTRY (the address rule) into what holds the innermost entry, `outer`, and
 * that entry's name; false when no entry is addressed. */
static bool split_entry(const char *path, char *outer, size_t cap, const char **entry) {
    ue_address at;
    if (ue_address_split(path, 0, &at) == UE_ERR_USAGE || !at.last_entry || !*at.last_entry ||
        at.parent_length >= cap)
        return false;
    memcpy(outer, path, at.parent_length);
    outer[at.parent_length] = 0;
    *entry = at.last_entry;
    return true;
}

/* True when `path` is ARCHIVE:ENTRY and the entry exists (whatever it holds): its container's
 * path into `outer` and what its directory says of it into `info`. */
static bool find_archive_entry(const char *path, ue_mode mode, char *outer, size_t cap, ue_entry_info *info) {
    const char *entry;
    if (!split_entry(path, outer, cap, &entry)) return false;
    ue_archive *a;
    if (ue_archive_open(outer, mode, &a, NULL) != UE_OK) return false;
    size_t index;
    bool found = ue_archive_find(a, entry, &index) == UE_OK;
    if (found) ue_archive_entry(a, index, info);
    ue_archive_close(a);
    return found;
}

static bool is_archive_entry(const char *path, ue_mode mode) {
    char outer[4096];
    ue_entry_info info;
    return find_archive_entry(path, mode, outer, sizeof outer, &info);
}

/* A path that opened as no container unearth knows: when it is a model (or a DAT, a texture,
 * a material: anything the registry reads) or an archive's entry, one line says what it is and
 * which verb takes it, in place of "not a container"; false when nothing more can be said. */
static bool describe_non_container(const cli_opts *o, const char *path) {
    bool entry = is_archive_entry(path, o->mode);
    char cat_hint[600] = "";
    if (entry) snprintf(cat_hint, sizeof cat_hint, "`unearth cat %s -o FILE` writes its bytes", path);
    ue_model_found m;
    if (ue_model_load(path, o->mode, &m, NULL) == UE_OK) {
        char summary[160];
        ue_model_seen seen = {m.name, m.format, m.data, m.size, m.title_length};
        cli_model_summary(&seen, o->mode, summary, sizeof summary);
        cli_error("%s: %s is a %s%s%s%s, not a container: `unearth info %s` describes it%s%s", o->verb, path,
                  m.format->description, summary[0] ? " (" : "", summary, summary[0] ? ")" : "", path,
                  entry ? ", " : "", cat_hint);
        free(m.data);
        return true;
    }
    if (entry) cli_error("%s: %s is an entry that holds no container: %s", o->verb, path, cat_hint);
    return entry;
}

static bool has_code(const ue_diag *d, const char *code) {
    for (size_t i = 0; i < d->count; i++)
        if (!strcmp(d->items[i].code, code)) return true;
    return false;
}

/* Opens with diagnostics printed (or, with --json, a JSON error object, into `collect` when it
 * is not NULL) on failure; returns an exit code (0 on success). */
static int open_archive_into(const cli_opts *o, const char *path, ue_archive **a, ue_diag *d,
                             ue_json *collect) {
    ue_result r = ue_archive_open(path, o->mode, a, d);
    if (r == UE_OK) {
        if (d->count && !o->json) cli_print_diags_as(path, d, 50);
        return 0;
    }
    if (o->json) {
        cli_emit_failure(collect, o->verb, path, r, d);
    } else if (!(has_code(d, "archive.unknown") && describe_non_container(o, path))) {
        cli_print_diags_as(path, d, 50);
        /* A closing line only when no diagnostic already said why. */
        if (!ue_diag_count(d, UE_SEV_ERROR))
            cli_error("%s: %s (%s)", path, ue_result_name(r), cli_sniff_format(path));
    }
    return cli_exit_code(r);
}

static int open_archive(const cli_opts *o, const char *path, ue_archive **a, ue_diag *d) {
    return open_archive_into(o, path, a, d, NULL);
}

/* ---- info -------------------------------------------------------------------------------- */

/* The models an archive holds, at any depth, each with the one-line summary its format gives:
 * {model (the address inside the archive), format, valid, summary}. Only what has geometry is
 * listed: textures and material tables are entries `list` shows, not models. */
typedef struct nested_models {
    const cli_opts *o;
    size_t prefix_len; /* "PATH:" left out of the addresses */
    ue_json *json;     /* --json: one object per model, into the open array */
    ue_buf *lines;     /* text: one line per model */
    size_t count;
} nested_models;

static ue_result nested_model_visit(const ue_model_seen *m, void *ctx) {
    nested_models *n = ctx;
    if (!m->format->to_scene) return UE_OK;
    char summary[160];
    ue_result r = cli_model_summary(m, n->o->mode, summary, sizeof summary);
    size_t skip = strlen(m->name) > n->prefix_len ? n->prefix_len : 0;
    const char *why = r == UE_OK ? summary : ue_result_name(r);
    n->count++;
    if (n->lines) {
        ue_buf_printf(n->lines, "    %s (%s): %s%s\n", m->name + skip, m->format->name,
                      r == UE_OK ? "" : "cannot be read: ", why);
        return UE_OK;
    }
    ue_json_object_begin(n->json);
    ue_json_key_string(n->json, "model", m->name + skip);
    ue_json_key_string(n->json, "format", m->format->name);
    ue_json_key_bool(n->json, "valid", r == UE_OK);
    ue_json_key_string(n->json, "summary", why);
    ue_json_object_end(n->json);
    return UE_OK;
}

/* The nested models as a JSON array into `json`, or as text lines into `lines`; their count. */
static size_t nested_models_put(const cli_opts *o, const char *path, ue_archive *a, ue_json *json, ue_buf *lines) {
    nested_models n = {o, strlen(path) + 1, json, lines, 0};
    if (json) ue_json_array_begin(json);
    ue_model_walk_archive(a, path, o->mode, nested_model_visit, &n, NULL);
    if (json) ue_json_array_end(json);
    return n.count;
}

static int info_json(const cli_opts *o, const char *path, ue_archive *a, const ue_diag *d, ue_json *collect) {
    cli_json_out out;
    ue_json *w = cli_json_begin(&out, collect);
    ue_json_object_begin(w);
    ue_archive_write_info_fields(a, w);
    ue_json_key(w, "models");
    nested_models_put(o, path, a, w, NULL);
    ue_json_key(w, "diagnostics");
    cli_diags_write(w, d);
    ue_json_object_end(w);
    cli_json_end(&out);
    return 0;
}

static int info_text(const cli_opts *o, const char *path, ue_archive *a) {
    ue_buf text = {0};
    if (cli_archive_info_text(a, path, &text) != UE_OK) {
        ue_buf_free(&text);
        cli_error("info: %s: %s", path, ue_result_name(UE_ERR_NOMEM));
        return EXIT_IO;
    }
    fwrite(text.data, 1, text.size, stdout);
    ue_buf_free(&text);
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
    ue_buf lines = {0};
    size_t models = nested_models_put(o, path, a, NULL, &lines);
    printf("  %-20s %zu\n", "models", models);
    fwrite(lines.data, 1, lines.size, stdout);
    ue_buf_free(&lines);
    return 0;
}

/* One FILE of info: a model's tables, or a container's header and the models inside it. */
static int info_one(const cli_opts *o, const char *path, ue_json *collect) {
    int model_rc = model_info(o, path, collect);
    if (model_rc >= 0) return model_rc;
    ue_archive *a;
    ue_diag d = {0};
    int rc = open_archive_into(o, path, &a, &d, collect);
    if (!rc) {
        if (o->json) rc = info_json(o, path, a, &d, collect);
        else rc = info_text(o, path, a);
        ue_archive_close(a);
    }
    ue_diag_free(&d);
    return rc;
}

int cmd_info(const cli_opts *o) {
    /* Several files: a heading before each (text), one array of reports (--json). */
    bool several = o->input_count > 1;
    cli_json_out out;
    ue_json *collect = NULL;
    if (several && o->json) {
        collect = cli_json_begin(&out, NULL);
        ue_json_array_begin(collect);
    }
    int worst = 0;
    for (size_t f = 0; f < o->input_count; f++) {
        if (several && !o->json) printf("%s==> %s <==\n", f ? "\n" : "", o->inputs[f]);
        fflush(stdout); /* the heading before the file's diagnostics on stderr */
        int rc = info_one(o, o->inputs[f], collect);
        if (rc > worst) worst = rc;
    }
    if (collect) {
        ue_json_array_end(collect);
        cli_json_end(&out);
    }
    return worst;
}

/* ---- cat --------------------------------------------------------------------------------- */

/* The decoded bytes to stdout, or to `output` written whole (temp file and rename). */
static int write_entry(const cli_opts *o, const uint8_t *data, size_t size) {
    if (!strcmp(o->output, "-")) {
        if (fwrite(data, 1, size, stdout) != size || fflush(stdout) != 0) {
            cli_error("cat: cannot write to stdout");
            return EXIT_IO;
        }
        return 0;
    }
    ue_diag d = {0};
    ue_result r = ue_file_write_atomic(o->output, data, size, o->force, &d);
    cli_print_diags_as(o->output, &d, 10);
    if (r != UE_OK && !ue_diag_count(&d, UE_SEV_ERROR)) cli_error("cat: %s: %s", o->output, ue_result_name(r));
    ue_diag_free(&d);
    return cli_exit_code(r);
}

int cmd_cat(const cli_opts *o) {
    const char *path = o->inputs[0];
    char outer[4096];
    const char *name;
    if (!split_entry(path, outer, sizeof outer, &name))
        return cli_usage_error(o->verb, "%s names no entry: give ARCHIVE:ENTRY (`unearth list ARCHIVE` "
                               "shows the entries)", path);
    bool to_stdout = !strcmp(o->output, "-");
    int rc = to_stdout ? 0 : cli_refuse_existing(o->verb, o->output, o->force);
    if (rc) return rc;
    ue_archive *a;
    ue_diag d = {0};
    if ((rc = open_archive(o, outer, &a, &d))) {
        ue_diag_free(&d);
        return rc;
    }
    ue_diag_free(&d);
    size_t index;
    uint8_t *data = NULL;
    size_t size = 0;
    ue_result r = ue_archive_find_reported(a, name, &index, &d);
    if (r == UE_OK) r = ue_archive_read(a, index, &data, &size, &d);
    cli_print_diags_as(path, &d, 50);
    if (r != UE_OK && !ue_diag_count(&d, UE_SEV_ERROR)) cli_error("cat: %s: %s", path, ue_result_name(r));
    rc = r == UE_OK ? write_entry(o, data, size) : cli_exit_code(r);
    if (!rc && !to_stdout && !o->quiet) fprintf(stderr, "%s: %zu bytes to %s\n", path, size, o->output);
    free(data);
    ue_diag_free(&d);
    ue_archive_close(a);
    return rc;
}

/* One entry in the keys every container shares; the format's own fields go under "extra". */
static void entry_json(ue_json *w, const ue_archive *a, size_t i, const ue_entry_info *e) {
    static const char *const common[] = {"index", "name", "type", "size", "stored_size",
                                         "method", "offset", "nested", "damaged", NULL};
    ue_json_object_begin(w);
    ue_json_key_int(w, "index", (int64_t)e->index);
    ue_json_key_string(w, "name", e->name);
    ue_json_key_string(w, "type", e->type);
    ue_json_key_int(w, "size", (int64_t)e->size);
    ue_json_key_int(w, "stored_size", (int64_t)e->stored_size);
    ue_json_key_string(w, "method", e->method);
    ue_json_key_int(w, "offset", (int64_t)e->offset);
    ue_json_key_string_or_null(w, "nested", e->nested[0] ? e->nested : NULL);
    ue_json_key_bool(w, "damaged", e->damaged);
    ue_json_key(w, "extra");
    ue_json_skip_keys(w, common);
    ue_archive_write_entry(a, i, w);
    ue_json_skip_keys(w, NULL);
    ue_json_object_end(w);
}

static void list_json(const char *path, ue_archive *a, const ue_diag *d) {
    cli_json_out out;
    ue_json *w = cli_json_begin(&out, NULL);
    ue_json_object_begin(w);
    ue_json_key_string(w, "file", path);
    ue_json_key_string(w, "format", ue_archive_format(a));
    ue_json_key(w, "entries");
    ue_json_array_begin(w);
    for (size_t i = 0; i < ue_archive_count(a); i++) {
        ue_entry_info e;
        ue_archive_entry(a, i, &e);
        entry_json(w, a, i, &e);
    }
    ue_json_array_end(w);
    ue_json_key(w, "diagnostics");
    cli_diags_write(w, d);
    ue_json_object_end(w);
    cli_json_end(&out);
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

/* An ARCHIVE:ENTRY whose entry is no container: said once, in place of the verdict's "INVALID"
 * (its bytes are not wrong, they are just no archive); true when so. */
static bool entry_without_container(const cli_opts *o, const char *path) {
    ue_address at;
    if (ue_address_split(path, 0, &at) == UE_ERR_USAGE || !at.last_entry) return false;
    ue_archive *a;
    ue_diag d = {0};
    ue_result r = ue_archive_open(path, o->mode, &a, &d);
    bool said = r != UE_OK && has_code(&d, "archive.unknown") && describe_non_container(o, path);
    if (r == UE_OK) ue_archive_close(a);
    ue_diag_free(&d);
    return said;
}

/* What an extract from `a` said: the damaged entries skipped, its diagnostics, the count. */
static int extract_report(const cli_opts *o, const char *path, ue_archive *a, ue_result r, ue_diag *d) {
    for (size_t i = 0; i < ue_archive_count(a); i++) {
        ue_entry_info e;
        ue_archive_entry(a, i, &e);
        if (e.damaged) fprintf(stderr, "%s: skipped damaged entry %zu (%s)\n", path, i, e.name);
    }
    cli_print_diags_as(path, d, 50);
    size_t written = ue_archive_count(a) - cli_damaged_entries(a);
    if (r == UE_OK && !o->quiet)
        fprintf(stderr, "%s: extracted %zu %s to %s\n", path, written, cli_plural(written, "entry", "entries"), o->output);
    if (r != UE_OK && !ue_diag_count(d, UE_SEV_ERROR)) cli_error("extract: %s: %s", path, ue_result_name(r));
    return cli_exit_code(r);
}

/* Opens `path` and extracts what it holds, reporting as extract does. */
static int extract_opened(const cli_opts *o, const char *path) {
    ue_archive *a;
    ue_diag d = {0};
    int rc = open_archive(o, path, &a, &d);
    ue_diag_free(&d);
    if (rc) return rc;
    ue_result r = ue_archive_extract(a, o->output, o->force, &d);
    rc = extract_report(o, path, a, r, &d);
    ue_diag_free(&d);
    ue_archive_close(a);
    return rc;
}

/* The container's checks after its open (`r` its result): validation when it opened, then the
 * diagnostics deduplicated and tallied with its damaged entries. */
static ue_result container_tally(ue_archive *a, ue_result r, ue_diag *d, cli_tally *t) {
    if (r == UE_OK && a) r = ue_archive_validate(a, d);
    cli_diag_dedupe(d);
    cli_tally_add(t, d);
    t->dropped += cli_damaged_entries(a);
    return r;
}

/* Whether the opened `a` passes the verdict's checks as far as they go before its extract
 * (ue_archive_extract_follows): the container's, then its models'. Nothing is printed. */
static bool passes_before_extract(const cli_opts *o, const char *path, ue_archive *a, const ue_diag *opening) {
    ue_diag d = {0};
    cli_tally t = {0};
    ue_diag_append(&d, opening, UE_SEV_INFO);
    ue_result r = container_tally(a, UE_OK, &d, &t);
    ue_diag_free(&d);
    return cli_verdict_code(r, &t) == 0 && models_check(o, path, a, false, &t) == 0;
}

/* Strict: the checks of the verdict and the extract share one open and one decode of each
 * entry. Whatever fails, before the extract or in it (the staged output is then gone), the
 * whole verdict is run again as before to say why, so that what is printed is the same. */
static int extract_strict(const cli_opts *o, const char *path) {
    ue_archive *a;
    ue_diag d = {0};
    int rc = 0;
    ue_result r = ue_archive_open_mapped(path, o->mode, &a, &d);
    if (r == UE_OK) {
        ue_archive_extract_follows(a);
        if (passes_before_extract(o, path, a, &d)) {
            ue_diag done = {0};
            r = ue_archive_extract(a, o->output, o->force, &done);
            if (r == UE_OK || !(rc = extract_verdict(o, path))) {
                if (d.count) cli_print_diags_as(path, &d, 50); /* the opening's, as open_archive */
                rc = extract_report(o, path, a, r, &done);
            }
            ue_diag_free(&done);
        } else {
            r = UE_ERR_INVALID;
        }
        ue_archive_close(a);
    }
    ue_diag_free(&d);
    /* Not opened here, or invalid: the verdict says why, or the open as before. */
    if (r != UE_OK && !rc && !(rc = extract_verdict(o, path))) rc = extract_opened(o, path);
    return rc;
}

int cmd_extract(const cli_opts *o) {
    const char *path = o->inputs[0];
    if (entry_without_container(o, path)) return EXIT_INVALID;
    /* Strict mode refuses whatever validate calls invalid, nested containers and models too. */
    if (o->mode == UE_MODE_STRICT) return extract_strict(o, path);
    int rc = extract_opened(o, path);
    /* Tolerant: what is intact is written; the exit code is validate --tolerant's verdict. */
    return rc || o->mode != UE_MODE_TOLERANT ? rc : extract_verdict(o, path);
}

int cmd_pack(const cli_opts *o) {
    int refused = cli_hint_pack_input(o->inputs[0], o->output);
    if (!refused) refused = cli_refuse_existing("pack", o->output, o->force);
    if (refused) return refused;
    ue_diag d = {0};
    ue_pack_options how = {o->level_given ? (int)o->level : UE_PACK_LEVEL_MANIFEST, o->mode};
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
    return container_tally(*a, r, d, t);
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

/* validate's report of one file up to its models: the same keys whether it opened or not (an
 * unread entry's `verdict` is "not_read"). The counts are the file's totals, its models included;
 * "diagnostics" are the container's own. */
static void validate_json(ue_json *w, const char *path, const char *format, size_t entries, ue_result r,
                          const cli_tally *t, const ue_diag *d, const char *verdict) {
    ue_json_key_string(w, "file", path);
    ue_json_key_string(w, "format", format);
    ue_json_key_bool(w, "valid", cli_verdict_code(r, t) == 0);
    ue_json_key_string(w, "verdict", verdict ? verdict : cli_verdict_word(r, t));
    ue_json_key_string(w, "result", ue_result_name(r));
    ue_json_key_int(w, "entries", (int64_t)entries);
    ue_json_key_int(w, "errors", (int64_t)t->errors);
    ue_json_key_int(w, "warnings", (int64_t)t->warnings);
    ue_json_key_int(w, "dropped", (int64_t)t->dropped);
    ue_json_key(w, "diagnostics");
    cli_diags_write(w, d);
}

static void validate_summary(const char *path, const char *format, const ue_archive *a,
                             ue_result r, const cli_tally *t) {
    char counts[96];
    cli_verdict_counts(t, counts, sizeof counts);
    /* A file that did not open has no entry count worth showing. */
    char entries[40] = "";
    if (a) snprintf(entries, sizeof entries, "%zu %s, ", ue_archive_count(a), cli_plural(ue_archive_count(a), "entry", "entries"));
    if (cli_verdict_code(r, t) <= EXIT_INVALID)
        printf("%s: %s (%s, %s%s)\n", path, cli_verdict_word(r, t), format, entries, counts);
    else
        printf("%s: FAILED (%s, %s)\n", path, format, ue_result_name(r));
}

/* An ARCHIVE:ENTRY that exists but holds nothing unearth reads (a camera, a sound): its bytes
 * are not wrong, unearth only has no reader for them. Its verdict is its container's checks,
 * and the line says what the entry is and which verb takes it. */
static int validate_unread_entry(const cli_opts *o, const char *path, const char *outer,
                                 const ue_entry_info *e, ue_json *report) {
    ue_diag d = {0};
    ue_archive *a;
    cli_tally t = {0};
    ue_result r = container_check(o, outer, &a, &d, &t);
    int code = cli_verdict_code(r, &t);
    const char *format = a ? ue_archive_format(a) : cli_sniff_format(outer);
    char counts[96];
    cli_verdict_counts(&t, counts, sizeof counts);
    if (report) {
        ue_json_object_begin(report);
        validate_json(report, path, "unknown", 0, r, &t, &d, code ? NULL : "not_read");
        ue_json_key(report, "models");
        ue_json_array_begin(report);
        ue_json_array_end(report);
        ue_json_key(report, "entry");
        ue_json_object_begin(report);
        ue_json_key_string(report, "container", outer);
        ue_json_key_string(report, "container_format", format);
        ue_json_key_string(report, "type", e->type);
        ue_json_key_int(report, "size", (int64_t)e->size);
        ue_json_object_end(report);
        ue_json_object_end(report);
    } else {
        cli_print_diags_as(outer, &d, 0);
        printf("%s: %s (%s entry of type %s, %llu bytes; its container %s: %s): unearth does not read this "
               "kind of entry; `unearth cat %s -o FILE` writes its bytes\n", path,
               code ? cli_verdict_word(r, &t) : "not read", format, e->type, (unsigned long long)e->size,
               code ? "did not pass its checks" : "passed its checks", counts, path);
    }
    ue_archive_close(a);
    ue_diag_free(&d);
    return code;
}

/* Checks one file and its models: diagnostics, each model's line, then the file's verdict. */
static int validate_one(const cli_opts *o, const char *path, ue_json *report) {
    ue_diag d = {0};
    ue_archive *a;
    cli_tally t = {0};
    ue_result r = container_check(o, path, &a, &d, &t);
    char outer[4096];
    ue_entry_info entry;
    if (r != UE_OK && !a && has_code(&d, "archive.unknown") &&
        find_archive_entry(path, o->mode, outer, sizeof outer, &entry)) {
        ue_diag_free(&d);
        return validate_unread_entry(o, path, outer, &entry, report);
    }
    int code = cli_verdict_code(r, &t);
    if (!report) cli_print_diags_as(path, &d, 0);
    /* Every model inside (or the file itself, when it is one) gets its own summary. */
    /* The models' records come before the file's totals they add to: written aside, then in. */
    ue_buf models_calls = {0};
    ue_json models;
    ue_json_init_record(&models, &models_calls);
    ue_json_array_begin(&models);
    const char *bare = a || r != UE_OK ? NULL : bare_model_format(o, path);
    if ((a || bare) && code <= EXIT_INVALID && models_validate(o, path, a, report ? &models : NULL, &t) &&
        r == UE_OK)
        r = UE_ERR_INVALID;
    ue_json_array_end(&models);
    const char *format = a ? ue_archive_format(a) : bare ? bare : cli_sniff_format(path);
    if (report) {
        bool recorded = ue_json_finish(&models, NULL) == UE_OK;
        ue_json_object_begin(report);
        validate_json(report, path, format, a ? ue_archive_count(a) : 0, r, &t, &d, NULL);
        ue_json_key(report, "models");
        if (recorded) ue_json_replay(&models_calls, report);
        else ue_json_array_begin(report), ue_json_array_end(report);
        ue_json_object_end(report);
    }
    ue_buf_free(&models_calls);
    if (!report)
        validate_summary(path, format, a, r, &t);
    ue_archive_close(a);
    ue_diag_free(&d);
    return cli_verdict_code(r, &t);
}

int cmd_validate(const cli_opts *o) {
    int worst = 0;
    cli_json_out out;
    ue_json *report = o->json ? cli_json_begin(&out, NULL) : NULL;
    if (report) ue_json_array_begin(report);
    for (size_t f = 0; f < o->input_count; f++) {
        int code = validate_one(o, o->inputs[f], report);
        if (code > worst) worst = code;
    }
    if (report) {
        ue_json_array_end(report);
        cli_json_end(&out);
    }
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
