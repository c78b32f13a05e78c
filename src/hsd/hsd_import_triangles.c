/* unearth — edit-mode import of HSD models: PObjs whose triangles the glTF changed get new display
 * lists of strips, edited clips new tracks, and the DAT is laid out anew by the model writer (docs/hsd-import.md#triangles). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
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
    else if ((uint64_t)rb->base_count + rb->new_count != rb->gp->vertex_count)
        ue_diag_add(d, UE_SEV_ERROR, "import.hsd.internal", at, rb->gpath,
                    "PObj %zu decodes to %u vertices and %u are new, the glTF has %u", rb->pobj, rb->base_count,
                    rb->new_count, rb->gp->vertex_count);
    else
        return false;
    return true;
}

/* Every vertex record of a rebuilt PObj, the base's and the new ones, in one buffer: the base's as
 * the list holds them and the new ones after, each 8-bit index field of a descriptor in `wide16`
 * (a bit per descriptor) written as 16 bits. */
typedef struct record_set {
    uint8_t *bytes;
    uint32_t *at;         /* per vertex: its record's offset in `bytes` */
    uint32_t record_bytes;
    uint32_t wide16;
} record_set;

/* One record in the new layout: indexed fields take `index` (NULL: the old record's own). */
static uint8_t *put_record(const ue_hsd_model *m, const ue_hsd_pobj *po, uint32_t wide16, const uint8_t *old,
                           const uint32_t *index, uint8_t *out) {
    for (uint32_t i = 0; i < po->attr_count; i++) {
        const ue_hsd_vtx_attr *a = &m->attrs[po->attr_first + i];
        hsd_attr_layout lay;
        const char *why;
        if (!hsd_attr_layout_of(a, &lay, &why)) continue; /* the decoder accepted them: not reached */
        if (a->type == UE_GX_DIRECT || a->type == UE_GX_NONE) {
            memcpy(out, old, lay.record_bytes);
            out += lay.record_bytes, old += lay.record_bytes;
            continue;
        }
        uint32_t from = a->type == UE_GX_INDEX8 ? 1 : 2, to = wide16 >> i & 1u ? 2 : from;
        for (uint32_t k = 0; k < lay.indices; k++, old += from) {
            uint32_t v = index && lay.indices == 1 ? index[i] : from == 1 ? old[0] : ue_load_u16be(old);
            if (to == 2) *out++ = (uint8_t)(v >> 8);
            *out++ = (uint8_t)v;
        }
    }
    return out;
}

/* The descriptors whose 8-bit indices a new vertex's element passes (docs/hsd-import.md#new-vertices). */
static uint32_t indices_past_8_bits(const ue_hsd_model *m, const ue_hsd_pobj *po, const hsd_list_rebuild *rb) {
    uint32_t wide = 0;
    for (uint32_t i = 0; i < po->attr_count && i < 32; i++)
        if (m->attrs[po->attr_first + i].type == UE_GX_INDEX8)
            for (uint32_t v = 0; v < rb->new_count; v++)
                if (rb->new_index[(size_t)v * po->attr_count + i] > 255) wide |= 1u << i;
    return wide;
}

static ue_result gather_records(const ue_hsd_model *m, const hsd_list_rebuild *rb, const hsd_records *rec,
                                record_set *out) {
    uint32_t base_count = rb->base_count;
    const ue_hsd_pobj *po = &m->pobjs[rb->pobj];
    out->wide16 = indices_past_8_bits(m, po, rb);
    out->record_bytes = rec->record_bytes;
    for (uint32_t i = 0; i < po->attr_count && i < 32; i++)
        if (out->wide16 >> i & 1u) out->record_bytes++; /* one index per vertex: NBT3 takes no new vertex */
    size_t count = (size_t)base_count + rb->new_count;
    out->bytes = malloc(count * out->record_bytes + 1);
    out->at = malloc((count + 1) * sizeof *out->at);
    if (!out->bytes || !out->at || count * out->record_bytes > UINT32_MAX) return UE_ERR_NOMEM;
    for (size_t v = 0; v < count; v++) {
        out->at[v] = (uint32_t)(v * out->record_bytes);
        const uint8_t *old = v < base_count ? po->dl + rb->base_at[v]
                                            : rb->new_records + (v - base_count) * rec->record_bytes;
        const uint32_t *index = v < base_count ? NULL : rb->new_index + (v - base_count) * po->attr_count;
        put_record(m, po, out->wide16, old, index, out->bytes + out->at[v]);
    }
    return UE_OK;
}

/* PObj rb->pobj's new display list: the glTF triangles as strips over the PObj's own vertex
 * records (each glTF vertex is the record convert made it from, with its indices, matrix
 * index and direct values as edited in place) and the new vertices' records. *wide16 gets the
 * descriptors whose indices became 16-bit. */
static ue_result rebuild_one(const ue_hsd_model *m, const hsd_list_rebuild *rb, ue_buf *list, size_t *triangles,
                             uint32_t *wide16, ue_diag *d) {
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
    record_set all = {NULL, NULL, 0, 0};
    if (r == UE_OK && rb->new_count) r = gather_records(m, rb, &rec, &all);
    if (r == UE_OK && rb->new_count)
        r = hsd_strips_display_list(&s, all.bytes, all.at, all.record_bytes, po->dl[0] & 7u, list);
    else if (r == UE_OK)
        r = hsd_strips_display_list(&s, po->dl, rb->base_at, rec.record_bytes, po->dl[0] & 7u, list);
    *wide16 = all.wide16;
    free(all.bytes);
    free(all.at);
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

/* The descriptors of `wide16` become 16-bit indexed (the PObj's own rows: others may share them). */
static ue_result widen_indices(ue_hsd_model *m, const hsd_list_rebuild *rb, uint32_t wide16, ue_diag *d) {
    if (!wide16) return UE_OK;
    ue_result r = hsd_own_descriptors(m, rb->pobj);
    for (uint32_t i = 0; r == UE_OK && i < m->pobjs[rb->pobj].attr_count && i < 32; i++)
        if (wide16 >> i & 1u) {
            ue_hsd_vtx_attr *a = &m->attrs[m->pobjs[rb->pobj].attr_first + i];
            a->type = UE_GX_INDEX16;
            ue_diag_add(d, UE_SEV_WARNING, "import.hsd.widened", hsd_file_at(a->offset), rb->gpath,
                        "PObj %zu: new vertices' elements of attribute %u lie past index 255; its indices are widened "
                        "from 8 to 16 bits", rb->pobj, a->attr);
        }
    return r;
}

static ue_result rebuild_model(ue_hsd_model *m, const hsd_list_rebuild *rebuilds, size_t count,
                               const hsd_clip_plan *clips, ue_buf *out, size_t *triangles, ue_diag *d) {
    ue_buf *lists = calloc(count + 1, sizeof *lists);
    uint32_t *wide16 = calloc(count + 1, sizeof *wide16);
    ue_result r = lists && wide16 ? UE_OK : UE_ERR_NOMEM;
    for (size_t i = 0; r == UE_OK && i < count; i++) {
        for (size_t k = 0; k < i; k++)
            if (rebuilds[k].pobj == rebuilds[i].pobj) {
                ue_diag_add(d, UE_SEV_ERROR, "import.hsd.conflict", hsd_file_at(m->pobjs[rebuilds[i].pobj].offset),
                            rebuilds[i].gpath, "PObj %zu is drawn by two glTF primitives that both change "
                                 "its triangles", rebuilds[i].pobj);
                r = UE_ERR_INVALID;
            }
        if (r == UE_OK) r = rebuild_one(m, &rebuilds[i], &lists[i], triangles, &wide16[i], d);
    }
    for (size_t i = 0; r == UE_OK && i < count; i++) r = widen_indices(m, &rebuilds[i], wide16[i], d);
    /* The rows take the new lists only now: every list was decoded from the base's records. */
    for (size_t i = 0; r == UE_OK && i < count; i++) {
        m->pobjs[rebuilds[i].pobj].dl = lists[i].data;
        m->pobjs[rebuilds[i].pobj].dl_size = lists[i].size;
    }
    if (r == UE_OK && clips) r = hsd_apply_clip_plan(m, clips);
    if (r == UE_OK) r = ue_hsd_model_write(m, out, d);
    for (size_t i = 0; lists && i < count; i++) ue_buf_free(&lists[i]);
    free(lists);
    free(wide16);
    return r;
}

ue_result hsd_rebuild_lists(const uint8_t *bytes, size_t size, const hsd_layout_edits *e,
                            const hsd_list_rebuild *rebuilds, size_t count, const hsd_clip_plan *clips, ue_buf *out,
                            size_t *triangles, ue_diag *d) {
    ue_dat dat;
    ue_hsd_model m;
    memset(&m, 0, sizeof m);
    ue_result r = ue_dat_parse(bytes, size, UE_MODE_STRICT, &dat, d);
    if (r == UE_OK) r = ue_hsd_model_read(&dat, UE_MODE_STRICT, &m, d);
    if (r == UE_OK && !e) r = hsd_check_layout(&m, bytes, size, "a changed triangle list or clip", d);
    if (r == UE_OK && e) r = hsd_apply_layout_edits(&m, e);
    if (r == UE_OK) r = rebuild_model(&m, rebuilds, count, clips, out, triangles, d);
    ue_hsd_model_free(&m);
    ue_dat_free(&dat);
    if (r == UE_OK && clips && clips->count) r = hsd_verify_written_clips(out->data, out->size, clips, d);
    return r;
}
