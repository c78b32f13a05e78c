/* unearth CLI — `demo`: writes the built-in sample pack (synthetic assets made by our own
 * writers) into a directory that appears whole or not at all. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "samples/samples.h"
#include "unearth/advanced/files.h"

/* A previous sample pack holds only files that the pack writes, so `demo -f` may replace it. */
static bool is_sample_path(const char *rel, void *ctx) {
    const ue_sample_list *list = ctx;
    for (size_t i = 0; i < list->count; i++)
        if (!strcmp(list->items[i].path, rel)) return true;
    return false;
}

static bool dir_is_sample_pack(const char *dir, void *ctx) {
    return ue_dir_holds_only(dir, is_sample_path, ctx);
}

int cmd_demo(const cli_opts *o) {
    /* The parser (options.c) has checked -o and the absence of inputs against the verb table. */
    ue_sample_list list;
    ue_diag d = {0};
    ue_result r = ue_samples_build(&list);
    ue_outdir dir;
    const ue_outdir_owner previous_pack = {"a previous unearth sample pack", dir_is_sample_pack, &list};
    if (r == UE_OK) r = ue_outdir_begin(&dir, o->output, o->force, &previous_pack, &d);
    if (r == UE_OK) {
        for (size_t i = 0; i < list.count && r == UE_OK; i++)
            r = ue_outdir_write(&dir, list.items[i].path, list.items[i].data, list.items[i].size, &d);
        if (r == UE_OK) r = ue_outdir_commit(&dir, &d);
        else ue_outdir_abort(&dir);
    }
    if (r == UE_OK) {
        for (size_t i = 0; i < list.count; i++)
            printf("%s/%s\t%zu bytes\n", o->output, list.items[i].path, list.items[i].size);
    } else {
        cli_print_diags(&d, 20);
        cli_error("demo: %s", ue_result_name(r));
    }
    ue_sample_list_free(&list);
    ue_diag_free(&d);
    return cli_exit_code(r);
}
