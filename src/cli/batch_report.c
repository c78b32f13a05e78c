/* unearth CLI — what a batch says when it ends: the counts, the closing summary with the first
 * reasons, the JSON report (docs/batch.md, docs/schema/batch.schema.json), and whether a --report
 * file is one an earlier run of the batch wrote. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/batch.h"
#include "cli/format_opts.h"
#include "unearth/advanced/files.h"
#include "unearth/advanced/text.h"

void batch_summarise(const batch_records *l, batch_summary *s) {
    memset(s, 0, sizeof *s);
    for (size_t i = 0; i < l->count; i++) {
        const batch_record *r = l->items[i];
        if (r->kind == BATCH_FILE) s->files++;
        if (r->kind == BATCH_MODEL) s->models++;
        if (r->status == BATCH_CONVERTED) s->converted++;
        else if (r->status == BATCH_KEPT) s->kept++;
        else if (r->status == BATCH_SKIPPED) s->skipped++;
        else if (r->status == BATCH_FAILED) s->failed++;
        else if (r->status == BATCH_LEFT) s->left++;
        else if (r->status == BATCH_PENDING && r->kind == BATCH_MODEL) s->not_done_models++;
        else if (r->status == BATCH_PENDING) s->not_done_files++;
    }
}

/* ---- JSON -------------------------------------------------------------------------------- */

/* Text for JSON: file names on disk need not be UTF-8; bytes that are not become "\xNN". */
static json_t *text_json(const char *s) {
    json_t *j = json_string(s);
    if (j) return j;
    size_t n = strlen(s);
    char *out = malloc(n * 4 + 1);
    if (!out) return json_string("");
    size_t at = 0;
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t k = ue_utf8_decode(s + i, n - i, &cp);
        if (k) memcpy(out + at, s + i, k), at += k, i += k;
        else at += (size_t)sprintf(out + at, "\\x%02x", (unsigned char)s[i++]);
    }
    out[at] = 0;
    j = json_string(out);
    free(out);
    return j ? j : json_string("");
}

static const char *kind_word(batch_kind k) {
    static const char *const words[] = {"file", "directory", "link", "model"};
    return words[k];
}

static const char *status_word(const batch_record *r) {
    static const char *const words[] = {"not_done", "read", "converted", "skipped", "failed", "kept", "left"};
    return words[r->status];
}

static json_t *record_json(const batch_record *r) {
    json_t *j = json_object();
    json_object_set_new(j, "input", text_json(r->input));
    json_object_set_new(j, "kind", json_string(kind_word(r->kind)));
    json_object_set_new(j, "status", json_string(status_word(r)));
    json_object_set_new(j, "format", r->format ? json_string(r->format) : json_null());
    if (r->kind == BATCH_FILE) json_object_set_new(j, "models", json_integer((json_int_t)r->models));
    json_object_set_new(j, "output", r->output ? text_json(r->output) : json_null());
    json_object_set_new(j, "companion", r->companion ? text_json(r->companion) : json_null());
    if (r->image_count) {
        json_t *images = json_array();
        for (size_t i = 0; i < r->image_count; i++) json_array_append_new(images, text_json(r->images[i]));
        json_object_set_new(j, "images", images);
    }
    json_object_set_new(j, "reason", r->reason[0] ? text_json(r->reason) : json_null());
    json_object_set_new(j, "diagnostics", cli_diags_json(&r->diag));
    return j;
}

/* Indent of a record in the report: it sits two levels deep (top object, "records" array). */
#define RECORD_INDENT "    "

/* The record's text as json_dumps prints it at depth 0, each line moved two levels in: the
 * same bytes as dumping it inside the whole report. */
void batch_record_freeze(batch_record *r) {
    if (r->json) return;
    json_t *j = record_json(r);
    char *flat = j ? json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
    json_decref(j);
    if (!flat) return; /* out of memory: formatted again at the end */
    size_t lines = 1, n = strlen(flat);
    for (size_t i = 0; i < n; i++) lines += flat[i] == '\n'; /* JSON strings escape their newlines */
    char *out = malloc(n + lines * (sizeof RECORD_INDENT - 1) + 1);
    if (out) {
        char *w = out;
        memcpy(w, RECORD_INDENT, sizeof RECORD_INDENT - 1), w += sizeof RECORD_INDENT - 1;
        for (size_t i = 0; i < n; i++) {
            *w++ = flat[i];
            if (flat[i] == '\n') memcpy(w, RECORD_INDENT, sizeof RECORD_INDENT - 1), w += sizeof RECORD_INDENT - 1;
        }
        *w = 0;
    }
    free(flat);
    r->json = out;
}

static json_t *summary_json(const batch_summary *s) {
    json_t *j = json_object();
    json_object_set_new(j, "files", json_integer((json_int_t)s->files));
    json_object_set_new(j, "models", json_integer((json_int_t)s->models));
    json_object_set_new(j, "converted", json_integer((json_int_t)s->converted));
    json_object_set_new(j, "skipped", json_integer((json_int_t)s->skipped));
    json_object_set_new(j, "failed", json_integer((json_int_t)s->failed));
    json_object_set_new(j, "kept", json_integer((json_int_t)s->kept));
    json_object_set_new(j, "left", json_integer((json_int_t)s->left));
    json_object_set_new(j, "not_done", json_integer((json_int_t)(s->not_done_models + s->not_done_files)));
    return j;
}

/* Each format option a format does not have, and for how many of its models it was passed over. */
static json_t *ignored_options_json(const cli_format_opts *f) {
    json_t *list = json_array();
    for (size_t i = 0; f && i < f->ignored_count; i++) {
        json_t *j = json_object();
        json_object_set_new(j, "option", json_string(f->ignored[i].key));
        json_object_set_new(j, "format", json_string(f->ignored[i].format->name));
        json_object_set_new(j, "models", json_integer((json_int_t)f->ignored[i].models));
        json_array_append_new(list, j);
    }
    return list;
}

/* Every output OUT holds, relative to it: converted now or kept from an earlier run. */
static json_t *written_json(const batch_records *l) {
    json_t *files = json_array();
    for (size_t i = 0; i < l->count; i++) {
        const batch_record *r = l->items[i];
        if (r->status != BATCH_CONVERTED && r->status != BATCH_KEPT) continue;
        json_array_append_new(files, text_json(r->output));
        for (size_t k = 0; k < batch_record_side_count(r); k++)
            json_array_append_new(files, text_json(batch_record_side(r, k, NULL)));
    }
    return files;
}

/* The report: `frame` (every key, "records" empty) with the records' texts put in its place. */
static char *join_records(const char *frame, const batch_records *l) {
    static const char empty[] = "\n  \"records\": []"; /* only the top-level key sits at this indent */
    const char *at = strstr(frame, empty);
    if (!at) return NULL;
    size_t size = strlen(frame) + 16;
    for (size_t i = 0; i < l->count; i++) {
        batch_record_freeze(l->items[i]); /* those no thread formatted (walk records, ...) */
        if (!l->items[i]->json) return NULL;
        size += strlen(l->items[i]->json) + 2;
    }
    ue_buf b = {0};
    ue_buf_reserve(&b, size);
    size_t head = (size_t)(at - frame) + sizeof empty - 2; /* up to and with the '[' */
    ue_buf_put(&b, frame, head);
    for (size_t i = 0; i < l->count; i++) {
        ue_buf_put(&b, i ? ",\n" : "\n", i ? 2 : 1);
        ue_buf_put(&b, l->items[i]->json, strlen(l->items[i]->json));
    }
    if (l->count) ue_buf_put(&b, "\n  ", 3);
    const char *tail = frame + head; /* "]" and the rest */
    ue_buf_put(&b, tail, strlen(tail) + 1);
    if (b.failed) {
        ue_buf_free(&b);
        return NULL;
    }
    size_t n;
    return (char *)ue_buf_take(&b, &n);
}

char *batch_report_json(const cli_opts *o, const char *type, const batch_records *l,
                        const batch_summary *s, const char *stopped, const cli_format_opts *format_opts) {
    json_t *j = json_object();
    json_object_set_new(j, "unearth_batch", json_integer(1));
    json_t *inputs = json_array();
    for (size_t i = 0; i < o->input_count; i++) json_array_append_new(inputs, text_json(o->inputs[i]));
    json_object_set_new(j, "inputs", inputs);
    json_object_set_new(j, "output", text_json(o->output));
    json_object_set_new(j, "type", json_string(type));
    json_object_set_new(j, "mode", json_string(o->mode == UE_MODE_STRICT ? "strict" : "tolerant"));
    json_object_set_new(j, "summary", summary_json(s));
    json_object_set_new(j, "stopped", stopped ? text_json(stopped) : json_null());
    json_object_set_new(j, "ignored_options", ignored_options_json(format_opts));
    json_object_set_new(j, "records", json_array());
    json_object_set_new(j, "files", written_json(l));
    char *frame = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(j);
    char *text = frame ? join_records(frame, l) : NULL;
    free(frame);
    return text;
}

/* ---- the closing summary ------------------------------------------------------------------ */

enum { REASONS_SHOWN = 5, WARNINGS_SHOWN = 3 };

/* Whether record `r` belongs to a listing; when `line` is not NULL, its line too. */
typedef bool (*listing_fn)(const batch_record *r, const void *arg, char *line, size_t cap);

typedef struct record_listing {
    const batch_records *l;
    listing_fn listed;
    const void *arg;
} record_listing;

static bool record_listed(size_t i, const void *arg, char *line, size_t cap) {
    const record_listing *rl = arg;
    return rl->listed(rl->l->items[i], rl->arg, line, cap);
}

/* One listing of the summary (cli_print_listing over the records). */
static void print_listing(const batch_records *l, listing_fn listed, const void *arg, const char *title,
                          size_t most, const char *rest_in) {
    record_listing rl = {l, listed, arg};
    cli_print_listing(l->count, record_listed, &rl, title, most, rest_in);
}

static bool has_status(const batch_record *r, const void *status, char *line, size_t cap) {
    if (r->status != *(const batch_status *)status) return false;
    if (line) snprintf(line, cap, "%s: %s", r->input, r->reason[0] ? r->reason : "not converted");
    return true;
}

static void print_reasons(const batch_records *l, batch_status status, const char *title) {
    print_listing(l, has_status, &status, title, REASONS_SHOWN, l->rest_in);
}

/* A converted (or kept) model's first shown warning of the code `arg`, as -v would print it. */
static bool warned(const batch_record *r, const void *code, char *line, size_t cap) {
    if (r->kind != BATCH_MODEL || (r->status != BATCH_CONVERTED && r->status != BATCH_KEPT)) return false;
    for (size_t k = 0; k < r->diag.count; k++) {
        const ue_diag_item *it = &r->diag.items[k];
        if (it->severity != UE_SEV_WARNING || !cli_shows(it->severity) || strcmp(it->code, code)) continue;
        if (line) {
            char text[800];
            ue_diag_format(it, text, sizeof text);
            snprintf(line, cap, "%s: %s", r->input, text);
        }
        return true;
    }
    return false;
}

/* The warning codes the converted models have, in the order first met, each once (a run has
 * few distinct ones, however many models); NULL when there are none or out of memory. */
static const char **warning_codes(const batch_records *l, size_t *count) {
    const char **codes = NULL;
    *count = 0;
    for (size_t i = 0; i < l->count; i++) {
        const batch_record *r = l->items[i];
        for (size_t k = 0; k < r->diag.count; k++) {
            const char *code = r->diag.items[k].code;
            size_t at = 0;
            for (; at < *count && strcmp(codes[at], code); at++) {}
            if (at < *count || !warned(r, code, NULL, 0)) continue;
            const char **grown = realloc(codes, (*count + 1) * sizeof *codes);
            if (!grown) return codes; /* those found so far are still listed */
            codes = grown;
            codes[(*count)++] = code;
        }
    }
    return codes;
}

void batch_print_warnings(const batch_records *l) {
    size_t count;
    const char **codes = warning_codes(l, &count);
    for (size_t c = 0; c < count; c++) {
        size_t models = 0;
        for (size_t i = 0; i < l->count; i++) models += warned(l->items[i], codes[c], NULL, 0);
        char title[96];
        snprintf(title, sizeof title, "warning [%s] in %zu %s", codes[c], models, cli_plural(models, "model", "models"));
        print_listing(l, warned, codes[c], title, WARNINGS_SHOWN, "-v prints each one");
    }
    free((void *)codes);
}

void batch_print_summary(const batch_summary *s, const batch_records *l, double seconds) {
    char kept[48] = "", left[48] = "", not_done[80] = "";
    if (s->kept) snprintf(kept, sizeof kept, ", %zu kept", s->kept);
    if (s->left) snprintf(left, sizeof left, ", %zu left", s->left);
    if (s->not_done_models || s->not_done_files)
        snprintf(not_done, sizeof not_done, ", not done: %zu %s, %zu %s", s->not_done_models,
                 cli_plural(s->not_done_models, "model", "models"), s->not_done_files,
                 cli_plural(s->not_done_files, "file", "files"));
    fprintf(stderr, "batch: %zu %s in %zu %s: %zu converted%s, %zu skipped, %zu failed%s%s (%.1f s)\n", s->models,
            cli_plural(s->models, "model", "models"), s->files, cli_plural(s->files, "file", "files"), s->converted,
            kept, s->skipped, s->failed, left, not_done, seconds);
    print_reasons(l, BATCH_FAILED, "failed");
    print_reasons(l, BATCH_LEFT, "left (a file that is not this batch's output stands at the path)");
    if (cli_shows(UE_SEV_INFO)) print_reasons(l, BATCH_SKIPPED, "skipped"); /* -v: a game holds many */
}

/* ---- an earlier --report file ----------------------------------------------------------------- */

json_t *batch_report_load(const char *path) {
    uint8_t *data;
    size_t size;
    ue_diag d = {0};
    ue_result r = ue_file_read(path, BATCH_REPORT_READ_MAX, &data, &size, &d); /* regular files only */
    ue_diag_free(&d);
    if (r != UE_OK) return NULL;
    json_t *j = json_loadb((const char *)data, size, 0, NULL);
    free(data);
    return j;
}

bool batch_report_is_for(const char *path, const char *output) {
    json_t *j = batch_report_load(path);
    const char *out = json_string_value(json_object_get(j, "output"));
    bool ours = json_is_integer(json_object_get(j, "unearth_batch")) && out && !strcmp(out, output);
    json_decref(j);
    return ours;
}
