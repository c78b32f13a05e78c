/* unearth CLI — `texm`: a PNG to a Parkan Texm texture, for modders replacing a texture; the
 * format, flags, mip count and Page rects come from --like ORIGINAL, the options override them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "unearth/advanced/png.h"
#include "unearth/model.h"
#include "unearth/texm.h"

#define PNG_FILE_CAP ((size_t)1 << 28)

/* The original texture (a file or ARCHIVE:ENTRY) parsed strictly, or an error printed. */
static int load_like(const char *path, ue_texm *t, ue_diag *d) {
    ue_model_found m;
    ue_result r = ue_model_load(path, UE_MODE_STRICT, &m, d);
    if (r == UE_OK && m.format != &ue_texm_model_format) {
        cli_error("texm: --like %s: a %s, not a Texm texture", path, m.format->description);
        free(m.data);
        return EXIT_INVALID;
    }
    if (r == UE_OK) r = ue_texm_parse(m.data, m.size, UE_MODE_STRICT, t, d);
    if (r == UE_OK || m.data) free(m.data);
    cli_print_diags_as(path, d, 20);
    if (r != UE_OK) cli_error("texm: --like %s: no Texm read (%s)", path, ue_result_name(r));
    return r == UE_OK ? 0 : cli_exit_code(r);
}

/* Format, flags, mips and rects: the original's (rects only where they fit the new size), then
 * the options. */
static int choose_build(const cli_opts *o, const ue_texm *like, uint32_t w, uint32_t h,
                        ue_texm_build *how) {
    memset(how, 0, sizeof *how);
    how->format = UE_TEXM_8888;
    uint32_t full = 1;
    for (uint32_t side = w > h ? w : h; side > 1; side >>= 1) full++;
    if (like) {
        how->format = like->format, how->flags4 = like->flags4, how->flags5 = like->flags5;
        how->unknown6 = like->unknown6;
        how->mip_count = like->mip_count < full ? like->mip_count : full;
        bool same_size = like->width == w && like->height == h;
        if (like->rect_count && !same_size) {
            cli_error("texm: the original is %u x %u with %u Page rects, the PNG is %u x %u: the "
                      "rects would not match (scale the PNG to the original's size)",
                      like->width, like->height, like->rect_count, w, h);
            return EXIT_INVALID;
        }
        how->rects = like->rects, how->rect_count = like->rect_count;
    }
    if (o->pixel_format) how->format = (uint32_t)strtoul(o->pixel_format, NULL, 10);
    if (o->mip_levels_given) how->mip_count = (uint32_t)o->mip_levels;
    if (how->mip_count > full) {
        cli_error("texm: --mip-levels %u: a %u x %u chain has %u levels", how->mip_count, w, h, full);
        return EXIT_USAGE;
    }
    if (how->mip_count == 0) how->mip_count = full; /* 0: the full chain, named in the output */
    return 0;
}

static int read_png(const char *path, uint32_t *w, uint32_t *h, uint8_t **rgba, ue_diag *d) {
    uint8_t *bytes;
    size_t size;
    ue_result r = ue_file_read(path, PNG_FILE_CAP, &bytes, &size, d);
    if (r == UE_OK) {
        r = ue_png_decode_rgba(bytes, size, w, h, rgba, d);
        free(bytes);
    }
    cli_print_diags_as(path, d, 20);
    if (r != UE_OK) cli_error("texm: %s: no image read (%s)", path, ue_result_name(r));
    return r == UE_OK ? 0 : cli_exit_code(r);
}

static int build_and_write(const cli_opts *o, uint32_t w, uint32_t h, const uint8_t *rgba,
                           const ue_texm_build *how) {
    ue_buf out = {0};
    ue_diag d = {0};
    ue_texm check;
    ue_result r = ue_texm_build_rgba(w, h, rgba, how, &out, &d);
    if (r == UE_OK) r = ue_texm_parse(out.data, out.size, UE_MODE_STRICT, &check, &d); /* proves it */
    if (r == UE_OK) {
        ue_texm_free(&check);
        r = ue_file_write_atomic(o->output, out.data, out.size, o->force, &d);
    }
    cli_print_diags(&d, 20);
    if (r == UE_OK)
        printf("%s\t%ux%u\t%s\t%u mip level%s%s\n", o->output, w, h, ue_texm_format_name(how->format),
               how->mip_count, how->mip_count == 1 ? "" : "s", how->rect_count ? "\tPage" : "");
    else cli_error("texm: %s: nothing written (%s)", o->output, ue_result_name(r));
    ue_diag_free(&d);
    ue_buf_free(&out);
    return r == UE_OK ? EXIT_OK_ : cli_exit_code(r);
}

int cmd_texm(const cli_opts *o) {
    const char *inputs[2] = {o->inputs[0], o->like};
    int code = cli_check_output("texm", o->output, inputs, o->like ? 2 : 1);
    if (code) return code;
    ue_diag d = {0};
    ue_texm like;
    memset(&like, 0, sizeof like);
    uint32_t w = 0, h = 0;
    uint8_t *rgba = NULL;
    if (o->like) code = load_like(o->like, &like, &d);
    if (!code) code = read_png(o->inputs[0], &w, &h, &rgba, &d);
    ue_texm_build how;
    if (!code) code = choose_build(o, o->like ? &like : NULL, w, h, &how);
    if (!code) code = build_and_write(o, w, h, rgba, &how);
    free(rgba);
    ue_texm_free(&like);
    ue_diag_free(&d);
    return code;
}
