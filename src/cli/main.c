/* unearth CLI — entry point: parses the command line, dispatches to one verb, and maps results
 * to the exit codes of the contract (0 ok, 1 invalid input, 2 usage, 3 I/O or internal). */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

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

/* Options and help are table-driven (options.c, help.c); main only runs the verb they chose. */
int main(int argc, char **argv) {
    cli_opts o;
    const cli_verb_def *verb = NULL;
    int rc = cli_parse(argc, argv, &o, &verb);
    /* One output-safety rule for every verb that writes (src/cli/outputs.c). */
    if (rc == CLI_RUN && o.output) {
        int refused = cli_check_output(o.verb, o.output, o.inputs, o.input_count);
        if (refused) rc = refused;
    }
    if (rc == CLI_RUN) rc = verb->run(&o);
    cli_opts_free(&o);
    return rc;
}
