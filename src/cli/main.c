/* unearth CLI — entry point: parses the command line, dispatches to one verb, and maps results
 * to the exit codes of the contract (0 ok, 1 invalid input, 2 usage, 3 I/O or internal). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

/* Options and help are table-driven (options.c, help.c); main only runs the verb they chose. */
int main(int argc, char **argv) {
    cli_opts o;
    const cli_verb_def *verb = NULL;
    int rc = cli_parse(argc, argv, &o, &verb);
    if (rc == CLI_RUN) cli_set_verbosity(o.quiet, o.verbose);
    /* One output-safety rule for every verb that writes (src/cli/outputs.c). */
    if (rc == CLI_RUN && o.output) {
        int refused = cli_check_output(o.verb, o.output, o.inputs, o.input_count);
        if (refused) rc = refused;
    }
    /* Every verb: an interrupt leaves no temporary behind and exits 128 + N (interrupt.c). */
    if (rc == CLI_RUN) cli_interrupt_install(o.verb, o.output);
    if (rc == CLI_RUN) rc = verb->run(&o);
    cli_opts_free(&o);
    return rc;
}
