/* unearth CLI — entry point: parses the command line, dispatches to one verb, and maps results
 * to the exit codes of the contract (0 ok, 1 invalid input, 2 usage, 3 I/O or internal). */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static const char usage_text[] =
    "usage: unearth VERB [options]\n"
    "\n"
    "  info FILE [--json]                     what the file is and what it holds\n"
    "  list ARCHIVE [--json]                  entries of an NRes / RsLi / FSYS / PKX container\n"
    "  extract ARCHIVE -o DIR [-f]            payloads + manifest.json (everything to repack)\n"
    "  pack DIR -o ARCHIVE [-f]               rebuild from DIR/manifest.json\n"
    "  validate FILE... [--strict|--tolerant] [--json]\n"
    "  roundtrip FILE...                      decode, encode, byte-compare\n"
    "  convert IN... -o OUT [--lod N] [--group G] [--format glb|gltf|obj] [-r] [-j N] [-f]\n"
    "                                         models to glTF (.glb/.gltf) or OBJ; OUT a file or dir\n"
    "  edit MODEL -o OUT.msh [-f] OPERATION... rename nodes, move/scale vertices, replace a\n"
    "                                         slot's geometry (unearth edit --help)\n"
    "  demo -o DIR [-f]                       write the built-in sample assets\n"
    "\n"
    "ARCHIVE may name an entry inside a container: OUTER:ENTRY (repeatable; #N = index N).\n"
    "Options: -o PATH output, -f overwrite existing output, --json machine-readable report,\n"
    "         --strict (default) any violation is an error, --tolerant skip damaged parts.\n"
    "Exit codes: 0 ok, 1 invalid input or round-trip mismatch, 2 usage, 3 I/O or internal.\n";

int cli_exit_code(ue_result r) {
    switch (r) {
    case UE_OK: return EXIT_OK_;
    case UE_ERR_INVALID: return EXIT_INVALID;
    case UE_ERR_UNSUPPORTED: return EXIT_INVALID;
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

void cli_print_diags_as(const char *prefix, const ue_diag *d, size_t limit) {
    char line[800];
    size_t shown = 0;
    for (size_t i = 0; i < d->count; i++) {
        if (limit && shown == limit) break;
        ue_diag_format(&d->items[i], line, sizeof line);
        if (prefix) fprintf(stderr, "%s: %s\n", prefix, line);
        else fprintf(stderr, "%s\n", line);
        shown++;
    }
    size_t rest = d->count - shown + d->dropped;
    if (rest) fprintf(stderr, "... and %zu more diagnostics\n", rest);
}

void cli_print_diags(const ue_diag *d, size_t limit) { cli_print_diags_as(NULL, d, limit); }

json_t *cli_diags_json(const ue_diag *d) {
    static const char *const sev[] = {"info", "warning", "error"};
    json_t *arr = json_array();
    for (size_t i = 0; i < d->count; i++) {
        const ue_diag_item *it = &d->items[i];
        json_t *j = json_object();
        json_object_set_new(j, "severity", json_string(sev[it->severity]));
        json_object_set_new(j, "code", json_string(it->code));
        json_object_set_new(j, "offset", it->offset == UE_NO_OFFSET ? json_null()
                                                                   : json_integer((json_int_t)it->offset));
        json_object_set_new(j, "path", json_string(it->path));
        json_object_set_new(j, "message", json_string(it->message));
        json_array_append_new(arr, j);
    }
    return arr;
}

static int usage_error(const char *fmt, const char *arg) {
    fprintf(stderr, "unearth: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n\n%s", usage_text);
    return EXIT_USAGE;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fputs(usage_text, stderr);
        return EXIT_USAGE;
    }
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        fputs(usage_text, stdout);
        return EXIT_OK_;
    }
    /* `edit` takes an ordered list of operations with their own arguments. */
    if (!strcmp(argv[1], "edit")) return cmd_edit(argc - 2, argv + 2);
    if (!strcmp(argv[1], "--version")) {
        puts("unearth 0.1.0");
        return EXIT_OK_;
    }
    cli_opts o = {0};
    o.verb = argv[1];
    o.group = -1;
    o.jobs = 1;
    o.inputs = calloc((size_t)argc, sizeof *o.inputs);
    if (!o.inputs) return EXIT_IO;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
            if (i + 1 >= argc) return usage_error("%s needs a value", a);
            o.output = argv[++i];
        } else if (!strcmp(a, "-f") || !strcmp(a, "--force")) {
            o.force = true;
        } else if (!strcmp(a, "--json")) {
            o.json = true;
        } else if (!strcmp(a, "--strict")) {
            o.mode = UE_MODE_STRICT;
            o.mode_given = true;
        } else if (!strcmp(a, "--tolerant")) {
            o.mode = UE_MODE_TOLERANT;
            o.mode_given = true;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            o.quiet = true;
        } else if (!strcmp(a, "-r") || !strcmp(a, "--recursive")) {
            o.recursive = true;
        } else if (!strcmp(a, "--lod") || !strcmp(a, "--group") || !strcmp(a, "-j") ||
                   !strcmp(a, "--jobs")) {
            if (i + 1 >= argc) return usage_error("%s needs a value", a);
            char *end;
            long v = strtol(argv[++i], &end, 10);
            bool lod = !strcmp(a, "--lod"), group = !strcmp(a, "--group");
            long lo = group ? -1 : (lod ? 0 : 1), hi = lod ? 2 : (group ? 4 : 64);
            if (*end || v < lo || v > hi) return usage_error("bad value for %s", a);
            if (lod) o.lod = (int)v;
            else if (group) o.group = (int)v;
            else o.jobs = (int)v;
        } else if (!strcmp(a, "--format")) {
            if (i + 1 >= argc) return usage_error("%s needs a value", a);
            o.format = argv[++i];
            if (strcmp(o.format, "glb") && strcmp(o.format, "gltf") && strcmp(o.format, "obj"))
                return usage_error("--format takes glb, gltf or obj, not %s", o.format);
        } else if (a[0] == '-' && a[1]) {
            return usage_error("unknown option %s", a);
        } else {
            o.inputs[o.input_count++] = a;
        }
    }
    static const struct {
        const char *name;
        int (*fn)(const cli_opts *);
    } verbs[] = {{"info", cmd_info},         {"list", cmd_list},
                 {"extract", cmd_extract},   {"pack", cmd_pack},
                 {"validate", cmd_validate}, {"roundtrip", cmd_roundtrip},
                 {"demo", cmd_demo},         {"convert", cmd_convert}};
    int rc = -1;
    if (o.output && (rc = cli_check_output(o.verb, o.output, o.inputs, o.input_count))) {
        free(o.inputs);
        return rc;
    }
    rc = -1;
    for (size_t v = 0; v < sizeof verbs / sizeof verbs[0]; v++)
        if (!strcmp(o.verb, verbs[v].name)) rc = verbs[v].fn(&o);
    if (rc < 0) rc = usage_error("unknown verb \"%s\"", o.verb);
    free(o.inputs);
    return rc;
}
