/* unearth CLI — what a batch says when it ends: the counts, the closing summary with the first
 * reasons, the JSON report (docs/batch.md, docs/schema/batch.schema.json), and whether a --report
 * file is one an earlier run of the batch wrote. */
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
static void text_json(ue_json *w, const char *s) {
    if (ue_json_is_utf8(s)) {
        ue_json_string(w, s);
        return;
    }
    size_t n = strlen(s);
    char *out = malloc(n * 4 + 1);
    if (!out) {
        ue_json_string(w, "");
        return;
    }
    size_t at = 0;
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t k = ue_utf8_decode(s + i, n - i, &cp);
        if (k) memcpy(out + at, s + i, k), at += k, i += k;
        else at += (size_t)sprintf(out + at, "\\x%02x", (unsigned char)s[i++]);
    }
    out[at] = 0;
    ue_json_string(w, out);
    free(out);
}

/* text_json under `key`, or null when `s` is NULL. */
static void key_text(ue_json *w, const char *key, const char *s) {
    ue_json_key(w, key);
    if (s) text_json(w, s);
    else ue_json_null(w);
}

static const char *kind_word(batch_kind k) {
    static const char *const words[] = {"file", "directory", "link", "model"};
    return words[k];
}

static const char *status_word(const batch_record *r) {
    static const char *const words[] = {"not_done", "read", "converted", "skipped", "failed", "kept", "left"};
    return words[r->status];
}

/* --gallery: the counts, thumbnail and warnings the gallery page shows (a kept model's are read
 * back from here by the next run). */
static void gallery_json(ue_json *w, const batch_gallery *g) {
    ue_json_key(w, "gallery");
    ue_json_object_begin(w);
    ue_json_key_int(w, "triangles", (int64_t)g->triangles);
    ue_json_key_int(w, "joints", (int64_t)g->joints);
    ue_json_key_int(w, "clips", (int64_t)g->clips);
    ue_json_key_int(w, "textures", (int64_t)g->textures);
    key_text(w, "thumbnail", g->thumbnail);
    ue_json_key(w, "warnings");
    ue_json_array_begin(w);
    for (size_t i = 0; i < g->warning_count; i++) text_json(w, g->warnings[i]);
    ue_json_array_end(w);
    ue_json_object_end(w);
}

static void record_json(ue_json *w, const batch_record *r) {
    ue_json_object_begin(w);
    key_text(w, "input", r->input);
    ue_json_key_string(w, "kind", kind_word(r->kind));
    ue_json_key_string(w, "status", status_word(r));
    ue_json_key_string_or_null(w, "format", r->format);
    if (r->kind == BATCH_FILE) ue_json_key_int(w, "models", (int64_t)r->models);
    key_text(w, "output", r->output);
    key_text(w, "companion", r->companion);
    if (r->image_count) {
        ue_json_key(w, "images");
        ue_json_array_begin(w);
        for (size_t i = 0; i < r->image_count; i++) text_json(w, r->images[i]);
        ue_json_array_end(w);
    }
    key_text(w, "reason", r->reason[0] ? r->reason : NULL);
    if (r->gallery.counted) gallery_json(w, &r->gallery);
    ue_json_key(w, "diagnostics");
    cli_diags_write(w, &r->diag);
    ue_json_object_end(w);
}

/* What `w` wrote into `b` as a NUL-terminated string for the caller to free; NULL when out of
 * memory. `b` is empty afterwards. */
static char *finished_text(ue_json *w, ue_buf *b) {
    ue_buf_put(b, "", 1);
    size_t n;
    char *text = ue_json_finish(w, NULL) == UE_OK ? (char *)ue_buf_take(b, &n) : NULL;
    ue_buf_free(b);
    return text;
}

/* Indent of a record in the report: it sits two levels deep (top object, "records" array). */
#define RECORD_INDENT "    "

/* The record's text as the writer's lines layout prints it at depth 0, each line moved two
 * levels in: the same bytes as writing it inside the whole report. */
void batch_record_freeze(batch_record *r) {
    if (r->json) return;
    ue_buf text = {0};
    ue_json jw;
    ue_json_init_lines(&jw, &text);
    record_json(&jw, r);
    char *flat = finished_text(&jw, &text);
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

static void summary_json(ue_json *w, const batch_summary *s) {
    ue_json_object_begin(w);
    ue_json_key_int(w, "files", (int64_t)s->files);
    ue_json_key_int(w, "models", (int64_t)s->models);
    ue_json_key_int(w, "converted", (int64_t)s->converted);
    ue_json_key_int(w, "skipped", (int64_t)s->skipped);
    ue_json_key_int(w, "failed", (int64_t)s->failed);
    ue_json_key_int(w, "kept", (int64_t)s->kept);
    ue_json_key_int(w, "left", (int64_t)s->left);
    ue_json_key_int(w, "not_done", (int64_t)(s->not_done_models + s->not_done_files));
    ue_json_object_end(w);
}

/* Each format option a format does not have, and for how many of its models it was passed over. */
static void ignored_options_json(ue_json *w, const cli_format_opts *f) {
    ue_json_array_begin(w);
    for (size_t i = 0; f && i < f->ignored_count; i++) {
        ue_json_object_begin(w);
        ue_json_key_string(w, "option", f->ignored[i].key);
        ue_json_key_string(w, "format", f->ignored[i].format->name);
        ue_json_key_int(w, "models", (int64_t)f->ignored[i].models);
        ue_json_object_end(w);
    }
    ue_json_array_end(w);
}

/* Every output OUT holds, relative to it: converted now or kept from an earlier run. */
static void written_json(ue_json *w, const batch_records *l) {
    ue_json_array_begin(w);
    for (size_t i = 0; i < l->count; i++) {
        const batch_record *r = l->items[i];
        if (r->status != BATCH_CONVERTED && r->status != BATCH_KEPT) continue;
        text_json(w, r->output);
        for (size_t k = 0; k < batch_record_side_count(r); k++) text_json(w, batch_record_side(r, k, NULL));
    }
    ue_json_array_end(w);
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
    ue_buf frame_text = {0};
    ue_json w;
    ue_json_init_lines(&w, &frame_text);
    ue_json_object_begin(&w);
    ue_json_key_int(&w, "unearth_batch", 1);
    ue_json_key(&w, "inputs");
    ue_json_array_begin(&w);
    for (size_t i = 0; i < o->input_count; i++) text_json(&w, o->inputs[i]);
    ue_json_array_end(&w);
    key_text(&w, "output", o->output);
    ue_json_key_string(&w, "type", type);
    ue_json_key_string(&w, "mode", o->mode == UE_MODE_STRICT ? "strict" : "tolerant");
    ue_json_key(&w, "summary");
    summary_json(&w, s);
    key_text(&w, "stopped", stopped);
    ue_json_key(&w, "ignored_options");
    ignored_options_json(&w, format_opts);
    ue_json_key(&w, "records");
    ue_json_array_begin(&w);
    ue_json_array_end(&w);
    ue_json_key(&w, "files");
    written_json(&w, l);
    ue_json_object_end(&w);
    char *frame = finished_text(&w, &frame_text);
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

const ue_jv *batch_report_load(const char *path, ue_jdoc *doc) {
    uint8_t *data;
    size_t size;
    ue_diag d = {0};
    memset(doc, 0, sizeof *doc);
    ue_result r = ue_file_read(path, BATCH_REPORT_READ_MAX, &data, &size, &d); /* regular files only */
    ue_diag_free(&d);
    if (r != UE_OK) return NULL;
    const ue_jv *j = cli_json_object(data, size, doc);
    free(data);
    return j;
}

bool batch_report_is_for(const char *path, const char *output) {
    ue_jdoc doc;
    const ue_jv *j = batch_report_load(path, &doc);
    const char *out = ue_jv_string(ue_jv_get(j, "output"));
    bool ours = ue_jv_is(ue_jv_get(j, "unearth_batch"), UE_JV_INTEGER) && out && !strcmp(out, output);
    ue_jdoc_free(&doc);
    return ours;
}
