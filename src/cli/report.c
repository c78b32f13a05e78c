/* unearth CLI — how results reach the user: exit codes, diagnostics (each line naming its file),
 * the one verdict every verb gives a file, and the JSON shapes shared by the --json reports. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "unearth/archive.h"

int cli_exit_code(ue_result r) {
    switch (r) {
    case UE_OK: return EXIT_OK_;
    case UE_ERR_INVALID: return EXIT_INVALID;
    case UE_ERR_UNSUPPORTED:
    case UE_ERR_MISMATCH:
    case UE_ERR_LIMIT: return EXIT_INVALID; /* a hostile size is invalid input, not an I/O error */
    case UE_ERR_USAGE: return EXIT_USAGE;
    case UE_ERR_IO:
    case UE_ERR_NOMEM: return EXIT_IO;
    }
    return EXIT_IO;
}

void cli_error(const char *fmt, ...) {
    va_list ap;
    fputs("unearth: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* The least severe diagnostic printed as text. Set once by main from -q/-v before any verb
 * runs (and before convert starts its threads), so every verb and every helper that prints a
 * list follows the same rule without passing the options down. JSON output is never filtered. */
static ue_severity text_threshold = UE_SEV_WARNING;

void cli_set_verbosity(bool quiet, bool verbose) {
    text_threshold = quiet ? UE_SEV_ERROR : verbose ? UE_SEV_INFO : UE_SEV_WARNING;
}

bool cli_shows(ue_severity s) { return s >= text_threshold; }

static void print_diag_line(const char *prefix, const ue_diag_item *it) {
    char line[800];
    ue_diag_format(it, line, sizeof line);
    if (prefix) fprintf(stderr, "%s: %s\n", prefix, line);
    else fprintf(stderr, "%s\n", line);
}

void cli_print_diags_as(const char *prefix, const ue_diag *d, size_t limit) {
    size_t shown = 0, rest = 0;
    for (size_t i = 0; i < d->count; i++) {
        if (!cli_shows(d->items[i].severity)) continue;
        if (limit && shown == limit) rest++;
        else print_diag_line(prefix, &d->items[i]), shown++;
    }
    /* Items the list had no room for have unknown severity; they are counted as before. */
    rest += d->dropped;
    if (!rest) return;
    if (prefix) fprintf(stderr, "%s: ... and %zu more diagnostics\n", prefix, rest);
    else fprintf(stderr, "... and %zu more diagnostics\n", rest);
}

void cli_print_diags(const ue_diag *d, size_t limit) { cli_print_diags_as(NULL, d, limit); }

const char *cli_plural(size_t n, const char *one, const char *many) { return n == 1 ? one : many; }

void cli_print_listing(size_t count, cli_listed_fn listed, const void *arg, const char *title,
                       size_t most, const char *rest_in) {
    size_t shown = 0, total = 0;
    char line[1024];
    for (size_t i = 0; i < count; i++) {
        if (!listed(i, arg, shown < most ? line : NULL, sizeof line)) continue;
        if (total++ == 0) fprintf(stderr, "%s:\n", title);
        if (shown < most) fprintf(stderr, "  %s\n", line), shown++;
    }
    if (total > shown)
        fprintf(stderr, "  ... and %zu more%s%s%s\n", total - shown, rest_in ? " (" : "", rest_in ? rest_in : "",
                rest_in ? ")" : "");
}

static bool same_item(const ue_diag_item *a, const ue_diag_item *b) {
    return a->severity == b->severity && a->offset == b->offset && !strcmp(a->code, b->code) &&
           !strcmp(a->path, b->path) && !strcmp(a->message, b->message);
}

void cli_diag_dedupe(ue_diag *d) {
    /* An entry read twice (once by the format's checks, once to open what is nested in it)
     * reports the same problem twice, back to back; a short look-back finds those. */
    enum { LOOK_BACK = 16 };
    size_t kept = 0;
    for (size_t i = 0; i < d->count; i++) {
        bool seen = false;
        for (size_t k = kept > LOOK_BACK ? kept - LOOK_BACK : 0; k < kept && !seen; k++)
            seen = same_item(&d->items[k], &d->items[i]);
        if (!seen) d->items[kept++] = d->items[i];
    }
    d->count = kept;
}

/* ---- naming a file's format even when it does not open ---------------------------------- */

const char *cli_sniff_format(const char *path) {
    /* OUTER:ENTRY addresses and missing files have no bytes of their own to look at. */
    FILE *f = fopen(path, "rb");
    if (!f) return "unknown";
    uint8_t head[256];
    size_t n = fread(head, 1, sizeof head, f);
    struct stat st;
    uint64_t size = stat(path, &st) == 0 ? (uint64_t)st.st_size : n;
    fclose(f);
    const char *fmt = ue_detect_format(head, n, size);
    return fmt[0] ? fmt : "unknown";
}

/* ---- the verdict ------------------------------------------------------------------------ */

void cli_tally_add(cli_tally *t, const ue_diag *d) {
    size_t errors = ue_diag_count(d, UE_SEV_ERROR);
    t->errors += errors;
    t->warnings += ue_diag_count(d, UE_SEV_WARNING) - errors;
}

size_t cli_damaged_entries(const ue_archive *a) {
    size_t damaged = 0;
    for (size_t i = 0; a && i < ue_archive_count(a); i++) {
        ue_entry_info e;
        ue_archive_entry(a, i, &e);
        damaged += e.damaged;
    }
    return damaged;
}

int cli_verdict_code(ue_result r, const cli_tally *t) {
    if (r != UE_OK && r != UE_ERR_INVALID && r != UE_ERR_UNSUPPORTED) return cli_exit_code(r);
    return r != UE_OK || t->errors || t->dropped ? EXIT_INVALID : EXIT_OK_;
}

const char *cli_verdict_word(ue_result r, const cli_tally *t) {
    int code = cli_verdict_code(r, t);
    if (code == EXIT_OK_) return "valid";
    if (code != EXIT_INVALID) return "FAILED";
    /* Tolerant mode turns errors into warnings: what it lost is then the reason. */
    return t->errors ? "INVALID" : "DAMAGED";
}

void cli_verdict_counts(const cli_tally *t, char *out, size_t out_size) {
    if (t->errors || !t->dropped)
        snprintf(out, out_size, "%zu error%s, %zu warning%s", t->errors, t->errors == 1 ? "" : "s",
                 t->warnings, t->warnings == 1 ? "" : "s");
    else
        snprintf(out, out_size, "%zu part%s dropped, %zu warning%s", t->dropped,
                 t->dropped == 1 ? "" : "s", t->warnings, t->warnings == 1 ? "" : "s");
}

/* ---- JSON ------------------------------------------------------------------------------- */

void cli_diags_write(ue_json *w, const ue_diag *d) {
    static const char *const sev[] = {"info", "warning", "error"};
    ue_json_array_begin(w);
    for (size_t i = 0; i < d->count; i++) {
        const ue_diag_item *it = &d->items[i];
        ue_json_object_begin(w);
        ue_json_key_string(w, "severity", sev[it->severity]);
        ue_json_key_string(w, "code", it->code);
        ue_json_key(w, "offset");
        if (it->offset == UE_NO_OFFSET) ue_json_null(w);
        else ue_json_uint(w, it->offset);
        ue_json_key_string(w, "path", it->path);
        ue_json_key_string(w, "message", it->message);
        ue_json_object_end(w);
    }
    ue_json_array_end(w);
}

ue_json *cli_json_begin(cli_json_out *out, ue_json *collect) {
    memset(out, 0, sizeof *out);
    if (collect) return out->w = collect;
    ue_json_init_lines(&out->own, &out->buf);
    return out->w = &out->own;
}

void cli_json_end(cli_json_out *out) {
    if (out->w == &out->own && ue_json_finish(&out->own, NULL) == UE_OK) {
        fwrite(out->buf.data, 1, out->buf.size, stdout);
        putchar('\n');
    }
    ue_buf_free(&out->buf);
}

void cli_json_failure(ue_json *w, const char *verb, const char *path, ue_result r, const ue_diag *d) {
    ue_json_object_begin(w);
    ue_json_key_string(w, "file", path);
    ue_json_key_string(w, "format", cli_sniff_format(path));
    ue_json_key(w, "error");
    ue_json_object_begin(w);
    ue_json_key_string(w, "verb", verb);
    ue_json_key_string(w, "result", ue_result_name(r));
    ue_json_key_int(w, "exit_code", cli_exit_code(r));
    /* The first error says why in one line; the full list follows in "diagnostics". */
    char why[800];
    snprintf(why, sizeof why, "%s", ue_result_name(r));
    for (size_t i = 0; d && i < d->count; i++)
        if (d->items[i].severity == UE_SEV_ERROR) {
            ue_diag_format(&d->items[i], why, sizeof why);
            break;
        }
    ue_json_key_string(w, "message", why);
    ue_json_object_end(w);
    ue_json_key(w, "diagnostics");
    if (d) cli_diags_write(w, d);
    else ue_json_array_begin(w), ue_json_array_end(w);
    ue_json_object_end(w);
}

void cli_emit_failure(ue_json *collect, const char *verb, const char *path, ue_result r, const ue_diag *d) {
    cli_json_out out;
    cli_json_failure(cli_json_begin(&out, collect), verb, path, r, d);
    cli_json_end(&out);
}

const ue_jv *cli_json_object(const void *text, size_t n, ue_jdoc *doc) {
    ue_jdoc_error err;
    memset(doc, 0, sizeof *doc);
    if (!text || ue_jdoc_parse(text, n, doc, &err) != UE_OK) return NULL;
    return ue_jv_is(&doc->root, UE_JV_OBJECT) ? &doc->root : NULL;
}
