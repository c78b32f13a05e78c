/* unearth CLI — one model of a batch: through the registry to a scene, exported in memory, then
 * written straight into the batch's private output directory (no temp file, link or rename per
 * model: the whole directory is renamed into place once, at the end). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* The companion goes first, so a main file never names a missing one; a failure removes what
 * this model wrote, so OUT holds only files the report lists. */
static ue_result write_outputs(const batch_run *run, const batch_record *rec, const batch_output *out,
                               ue_diag *d) {
    ue_result r = UE_OK;
    bool side = rec->companion != NULL;
    if (side) r = ue_outdir_put(run->out, rec->companion, out->side.data, out->side.size, d);
    if (r == UE_OK) r = ue_outdir_put(run->out, rec->output, out->main.data, out->main.size, d);
    if (r != UE_OK) {
        char path[8300];
        snprintf(path, sizeof path, "%s/%s", run->out->temp_path, rec->output);
        unlink(path);
        if (side) {
            snprintf(path, sizeof path, "%s/%s", run->out->temp_path, rec->companion);
            unlink(path);
        }
    }
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

void batch_write_model(const batch_run *run, batch_record *rec, batch_output *out) {
    ue_result r = write_outputs(run, rec, out, &rec->diag);
    ue_buf_free(&out->main);
    ue_buf_free(&out->side);
    if (r == UE_OK) rec->status = BATCH_CONVERTED;
    else model_failed(rec, r);
}
