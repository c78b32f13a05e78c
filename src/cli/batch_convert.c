/* unearth CLI — one model of a batch: through the registry to a scene, exported in memory, then
 * put in place in OUT (batch_outdir.c); a write error that no later output escapes (a full disk,
 * a read-only or vanished OUT) stops the batch instead of failing every model after it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/batch_run.h"
#include "cli/gallery.h"
#include "unearth/advanced/text.h"
#include "unearth/advanced/buffers.h"

/* The record takes the paths of the model's PNG files, below OUT beside its output. */
static ue_result name_images(batch_record *rec, const texture_files *t) {
    char (*paths)[4096] = ue_calloc_items(t->count, sizeof *paths);
    const char **list = ue_calloc_items(t->count, sizeof *list);
    ue_result r = paths && list ? UE_OK : UE_ERR_NOMEM;
    for (size_t i = 0; r == UE_OK && i < t->count; i++) {
        if (!output_parts_beside(rec->output, t->files[i].name, paths[i], sizeof paths[i])) r = UE_ERR_USAGE;
        list[i] = paths[i];
    }
    if (r == UE_OK && !batch_record_set_images(rec, list, t->count)) r = UE_ERR_NOMEM;
    free(paths);
    free(list);
    return r;
}

static void model_failed(batch_record *rec, ue_result r) {
    batch_record_fail(rec, r);
    batch_record_unname(rec);
}

bool batch_convert_model(const batch_run *run, batch_record *rec, ue_model_found *model, batch_output *out) {
    ue_scene s;
    ue_scene_init(&s);
    memset(out, 0, sizeof *out);
    /* As single convert does: origin (Parkan's WEAR and libraries beside the model), --scale. */
    ue_result r = cli_convert_scene(run->o, run->format_opts, model, &s, &rec->diag);
    if (r == UE_OK) r = output_parts_export(&s, rec->output, run->type, run->o->no_animation_pointer, out, &rec->diag);
    if (r == UE_OK && run->o->gallery) r = gallery_model(&s, rec, out);
    if (r == UE_OK) r = name_images(rec, &out->textures);
    ue_scene_free(&s);
    free(model->data);
    model->data = NULL;
    if (r == UE_OK) return true;
    output_parts_free(out);
    model_failed(rec, r);
    return false;
}

/* Not written because the batch stopped: not done, not failed (the model is fine). */
static void not_written(batch_record *rec) {
    rec->status = BATCH_PENDING;
    batch_record_unname(rec);
}

void batch_write_model(batch_run *run, batch_record *rec, batch_output *out) {
    char failed[4200];
    bool halted = atomic_load(&run->stopped);
    /* the bytes of each file beside the output, in batch_record_side's order */
    ue_buf *side = calloc(out->textures.count + 1, sizeof *side);
    for (size_t i = 0; side && i < out->textures.count; i++) side[i] = out->textures.files[i].png;
    if (side) side[out->textures.count] = out->side;
    int err = halted ? 0 : !side ? ENOMEM
            : batch_outdir_put(run->od, rec, out->main.data, out->main.size, side, failed, sizeof failed);
    if (!side) snprintf(failed, sizeof failed, "%s", rec->output);
    free(side);
    output_parts_free(out);
    if (halted) {
        not_written(rec);
    } else if (!err) {
        rec->status = BATCH_CONVERTED;
    } else if (batch_write_error_stops(err)) {
        if ((err == ENOENT || err == ENOTDIR) && batch_outdir_gone(run->od))
            batch_stop(run, "%s no longer exists (removed while the batch ran)", batch_outdir_root(run->od));
        else batch_stop(run, "%s/%s: cannot write: %s", batch_outdir_root(run->od), failed, strerror(err));
        not_written(rec);
    } else if (err == EEXIST) {
        batch_record_left(rec, batch_outdir_root(run->od), failed);
    } else {
        ue_diag_add(&rec->diag, UE_SEV_ERROR, "io.write", UE_NO_OFFSET, failed, "cannot write: %s", strerror(err));
        model_failed(rec, UE_ERR_IO);
    }
}
