/* unearth CLI — internal: what `preview` and `textures --sheet` share: the --background value and
 * one PNG written as a single output (src/cli/cmd_preview.c). */
#ifndef UE_CLI_PREVIEW_CLI_H
#define UE_CLI_PREVIEW_CLI_H

#include "cli/cli.h"

/* --background transparent|#rrggbb (NULL: transparent); 0, or the usage error's exit code. */
int cli_parse_background(const char *verb, const char *text, bool *transparent, uint8_t rgb[3]);
/* rgba (w × h) as the PNG -o names, written whole or not at all, never over an input, over an
 * existing file only with -f; returns an exit code. */
int cli_write_png(const cli_opts *o, const uint8_t *rgba, uint32_t w, uint32_t h);

#endif
