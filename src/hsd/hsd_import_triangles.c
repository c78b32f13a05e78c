/* unearth — edit-mode import of HSD models: PObjs whose triangles the glTF changed get new display
 * lists of strips, edited clips new tracks, and the DAT is laid out anew by the model writer (docs/hsd-import.md#triangles). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hsd/hsd_import_int.h"
#include "hsd/hsd_int.h"
#include "hsd/hsd_strips.h"
#include "unearth/hsd_import.h"

#define MAX_LIST_UNITS 65535u /* the PObj's u16 length in 32-byte units */

/* The writer's promise is write(read(D)) = D for the DATs it lays out; a DAT of another tool
 * (other order, padding, shared tails) would silently change beyond the edit, so it is refused. */
ue_result hsd_check_layout(const ue_hsd_model *m, const uint8_t *bytes, size_t size, const char *why, ue_diag *d) {
    ue_buf again = {0};
    ue_result r = ue_hsd_model_write(m, &again, d);
    if (r == UE_OK && (again.size != size || memcmp(again.data, bytes, size))) {
        size_t at = 0;
        while (at < size && at < again.size && again.data[at] == bytes[at]) at++;
        ue_diag_add(d, UE_SEV_ERROR, "import.hsd.layout", at, "/meshes",
                         "the base DAT is not laid out as unearth's DAT writer lays it out (first difference at "
                         "file offset 0x%zx); %s makes the file be laid out anew, which is only written for such DATs "
                         "so far", at, why);
        r = UE_ERR_INVALID;
    }
    ue_buf_free(&again);
    return r;
}

/* The glTF primitive's triangles (counter-clockwise) in GX order (clockwise-front: (a, c, b)). */
static uint32_t *gx_triangles(const ue_scene_primitive *gp) {
    size_t n = gp->index_count / 3;
    uint32_t *t = malloc((3 * n + 1) * sizeof *t);
    for (size_t i = 0; t && i < n; i++) {
        t[3 * i] = gp->indices[3 * i];
        t[3 * i + 1] = gp->indices[3 * i + 2];
        t[3 * i + 2] = gp->indices[3 * i + 1];
    }
    return t;
}

/* The first index at or past the vertex count (a scene not read by the glTF reader), or SIZE_MAX. */
static size_t bad_index(const ue_scene_primitive *gp) {
    for (size_t i = 0; i < gp->index_count; i++)
        if (gp->indices[i] >= gp->vertex_count) return i;
    return SIZE_MAX;
}

static bool refuse_list(const hsd_list_rebuild *rb, const ue_hsd_pobj *po, const ue_hsd_geometry *g, ue_diag *d) {
    uint64_t at = hsd_file_at(po->offset);
    size_t bad = bad_index(rb->gp);
    if (bad != SIZE_MAX)
        ue_diag_add(d, UE_SEV_ERROR, "import.hsd.topology", at, rb->gpath, "index %zu names vertex %u of %u", bad,
                    rb->gp->indices[bad], rb->gp->vertex_count);
    else if (g->skipped_lines || g->skipped_points)
        ue_diag_add(d, UE_SEV_ERROR, "import.hsd.topology", at, rb->gpath,
                         "PObj %zu also draws lines or points, which the glTF does not carry; its triangles "
                         "cannot be rebuilt", rb->pobj);
    else if (rb->gp->index_count < 3)
        ue_diag_add(d, UE_SEV_ERROR, "import.hsd.topology", at, rb->gpath,
                         "PObj %zu would draw no triangle; edit mode does not delete PObjs", rb->pobj);
    else if (g->vertex_count != rb->gp->vertex_count)
        ue_diag_add(d, UE_SEV_ERROR, "import.hsd.internal", at, rb->gpath, "PObj %zu decodes to %u vertices, the glTF has %u",
                         rb->pobj, g->vertex_count, rb->gp->vertex_count);
    else
        return false;
    return true;
}

/* PObj rb->pobj's new display list: the glTF triangles as strips over the PObj's own vertex
 * records (each glTF vertex is the record convert made it from, with its indices, matrix
 * index and direct values as edited in place). */
static ue_result rebuild_one(const ue_hsd_model *m, const hsd_list_rebuild *rb, ue_buf *list, size_t *triangles,
                             ue_diag *d) {
    const ue_hsd_pobj *po = &m->pobjs[rb->pobj];
    ue_hsd_geometry g;
    hsd_records rec;
    memset(&g, 0, sizeof g);
    memset(&rec, 0, sizeof rec);
    ue_result r = hsd_pobj_decode_records(m, rb->pobj, NULL, UE_MODE_STRICT, &g, &rec, d);
    if (r == UE_OK && refuse_list(rb, po, &g, d)) r = UE_ERR_INVALID;
    uint32_t *tris = r == UE_OK ? gx_triangles(rb->gp) : NULL;
    hsd_strips s;
    memset(&s, 0, sizeof s);
    if (r == UE_OK && !tris) r = UE_ERR_NOMEM;
    if (r == UE_OK) r = hsd_strips_build(tris, rb->gp->index_count / 3, &s);
    if (r == UE_OK) r = hsd_strips_display_list(&s, po->dl, rec.first_at, rec.record_bytes, po->dl[0] & 7u, list);
    if (r == UE_OK && list->size > (size_t)MAX_LIST_UNITS * 32) {
        ue_diag_add(d, UE_SEV_ERROR, "import.hsd.limit", hsd_file_at(po->offset), rb->gpath,
                         "PObj %zu: the rebuilt display list takes %zu bytes, past the 65535 × 32 bytes its u16 "
                         "length holds", rb->pobj, list->size);
        r = UE_ERR_INVALID;
    }
    if (r == UE_OK) *triangles += rb->gp->index_count / 3;
    hsd_strips_free(&s);
    free(tris);
    hsd_records_free(&rec);
    ue_hsd_geometry_free(&g);
    return r;
}

static ue_result rebuild_model(ue_hsd_model *m, const hsd_list_rebuild *rebuilds, size_t count,
                               const hsd_clip_plan *clips, ue_buf *out, size_t *triangles, ue_diag *d) {
    ue_buf *lists = calloc(count + 1, sizeof *lists);
    ue_result r = lists ? UE_OK : UE_ERR_NOMEM;
    for (size_t i = 0; r == UE_OK && i < count; i++) {
        for (size_t k = 0; k < i; k++)
            if (rebuilds[k].pobj == rebuilds[i].pobj) {
                ue_diag_add(d, UE_SEV_ERROR, "import.hsd.conflict", hsd_file_at(m->pobjs[rebuilds[i].pobj].offset),
                            rebuilds[i].gpath, "PObj %zu is drawn by two glTF primitives that both change "
                                 "its triangles", rebuilds[i].pobj);
                r = UE_ERR_INVALID;
            }
        if (r == UE_OK) r = rebuild_one(m, &rebuilds[i], &lists[i], triangles, d);
    }
    /* The rows take the new lists only now: every list was decoded from the base's records. */
    for (size_t i = 0; r == UE_OK && i < count; i++) {
        m->pobjs[rebuilds[i].pobj].dl = lists[i].data;
        m->pobjs[rebuilds[i].pobj].dl_size = lists[i].size;
    }
    if (r == UE_OK && clips) r = hsd_apply_clip_plan(m, clips);
    if (r == UE_OK) r = ue_hsd_model_write(m, out, d);
    for (size_t i = 0; lists && i < count; i++) ue_buf_free(&lists[i]);
    free(lists);
    return r;
}

ue_result hsd_rebuild_lists(const uint8_t *bytes, size_t size, const hsd_list_rebuild *rebuilds, size_t count,
                            const hsd_clip_plan *clips, ue_buf *out, size_t *triangles, ue_diag *d) {
    ue_dat dat;
    ue_hsd_model m;
    memset(&m, 0, sizeof m);
    ue_result r = ue_dat_parse(bytes, size, UE_MODE_STRICT, &dat, d);
    if (r == UE_OK) r = ue_hsd_model_read(&dat, UE_MODE_STRICT, &m, d);
    if (r == UE_OK) r = hsd_check_layout(&m, bytes, size, "a changed triangle list or clip", d);
    if (r == UE_OK) r = rebuild_model(&m, rebuilds, count, clips, out, triangles, d);
    ue_hsd_model_free(&m);
    ue_dat_free(&dat);
    if (r == UE_OK && clips && clips->count) r = hsd_verify_written_clips(out->data, out->size, clips, d);
    return r;
}
