/* unearth CLI — one model of a batch: through the registry to a scene, exported in memory, then
 * put in place in OUT (batch_outdir.c); a write error that no later output escapes (a full disk,
 * a read-only or vanished OUT) stops the batch instead of failing every model after it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/batch_run.h"
#include "common/text.h"
#include "unearth/gltf.h"
#include "unearth/obj.h"

static const char *file_part(const char *rel) {
    if (!rel) return NULL;
    const char *slash = strrchr(rel, '/');
    return slash ? slash + 1 : rel;
}

/* The exported bytes: main file, and the companion (.bin/.mtl) when the type has one. */
static ue_result export_scene(const batch_run *run, const batch_record *rec, const ue_scene *s,
                              ue_buf *main_out, ue_buf *side_out, ue_diag *d) {
    if (!strcmp(run->type, "obj")) {
        ue_obj_options oo = {file_part(rec->companion), NULL};
        return ue_obj_export(s, &oo, main_out, side_out, d);
    }
    bool glb = !strcmp(run->type, "glb");
    ue_gltf_options go = {glb ? UE_GLTF_GLB : UE_GLTF_SEPARATE, glb ? NULL : file_part(rec->companion),
                          false, false, run->o->no_animation_pointer};
    return ue_gltf_export(s, &go, main_out, glb ? NULL : side_out, d);
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
    if (r == UE_OK) r = export_scene(run, rec, &s, &out->main, &out->side, &rec->diag);
    ue_scene_free(&s);
    free(model->data);
    model->data = NULL;
    if (r == UE_OK) return true;
    ue_buf_free(&out->main);
    ue_buf_free(&out->side);
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
    int err = halted ? 0 : batch_outdir_put(run->od, rec, out->main.data, out->main.size, out->side.data,
                                            out->side.size, failed, sizeof failed);
    ue_buf_free(&out->main);
    ue_buf_free(&out->side);
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
