/* unearth — edit-mode import of HSD models: writing one element (docs/hsd-import.md): an edited vertex value
 * quantised into its attribute's element, checked against its format, or put into a widened array. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "hsd/hsd_import_int.h"
#include "hsd/hsd_int.h"
#include "hsd/hsd_pose.h"
#include "hsd/hsd_to_scene.h"
#include "unearth/hsd_import.h"

/* Puts `n` bytes at data offset `at`: 0 when they are already there, 1 when written, -1 when an
 * earlier edit put other bytes there (two glTF vertices disagree about one stored element). */
static int write_at(hsd_edit_ctx *x, const hsd_attr_site *t, uint64_t at, const uint8_t *val, uint32_t n, uint32_t v) {
    uint64_t off = UE_DAT_HEADER + at;
    if (off + n > x->size) return 0; /* the decoder checked every element: not reached */
    if (!memcmp(x->bytes + off, val, n)) return 0;
    for (uint32_t i = 0; i < n; i++)
        if (x->written[off + i]) {
            hsd_edit_error(x, "import.hsd.conflict", off, t->gpath,
                       "vertex %u: another vertex of the glTF gave this stored element (PObj %zu, attribute %u) "
                       "a different value; vertices that share one element must be edited alike",
                       v, t->pobj, t->a->attr);
            return -1;
        }
    memcpy(x->bytes + off, val, n);
    memset(x->written + off, 1, n);
    return 1;
}

uint64_t hsd_element_at(const hsd_attr_site *t, uint32_t v) {
    const uint8_t *field = t->po->dl + t->rec->first_at[v] + t->field;
    uint32_t idx = t->a->type == UE_GX_INDEX8 ? field[0] : ue_load_u16be(field);
    return (uint64_t)t->a->array_offset + (uint64_t)idx * t->a->stride;
}

/* The current bytes of vertex v's element (its first place). */
const uint8_t *hsd_element_bytes(const hsd_edit_ctx *x, const hsd_attr_site *t, uint32_t v) {
    uint64_t at = t->a->type == UE_GX_DIRECT ? (uint64_t)t->po->dl_offset + t->rec->first_at[v] + t->field
                                             : hsd_element_at(t, v);
    return x->bytes + UE_DAT_HEADER + at;
}

/* Vertex v is unchanged: its array element should stay as it is (a direct value is its own). */
void hsd_mark_kept(hsd_edit_ctx *x, const hsd_attr_site *t, uint32_t v) {
    if (t->a->type == UE_GX_DIRECT || t->mode != HSD_SITE_WRITE) return;
    uint64_t off = UE_DAT_HEADER + hsd_element_at(t, v);
    if (off + t->lay.elem_bytes <= x->size) memset(x->kept + off, 1, t->lay.elem_bytes);
}

/* Vertex v's new element bytes into its array element, or into every record of a direct value. */
void hsd_put_element(hsd_edit_ctx *x, const hsd_attr_site *t, uint32_t v, const uint8_t *val, size_t *counter) {
    int changed = 0;
    if (t->a->type == UE_GX_DIRECT) {
        for (int32_t o = t->head[v]; o >= 0 && changed >= 0; o = t->next[o]) {
            int w = write_at(x, t, (uint64_t)t->po->dl_offset + t->rec->occ_at[o] + t->field, val, t->lay.elem_bytes, v);
            changed = w < 0 ? -1 : changed | w;
        }
    } else {
        changed = write_at(x, t, hsd_element_at(t, v), val, t->lay.elem_bytes, v);
    }
    if (changed > 0) (*counter)++;
}

/* An attribute that can take a wider array: indexed, one index per vertex (not NBT3), not F32. */
static bool widenable(const hsd_attr_site *t) {
    return t->a->type != UE_GX_DIRECT && t->lay.indices == 1 && t->a->comp_type != HSD_COMP_F32;
}

/* Components into element bytes; false after a range error naming the attribute and the limit
 * (in HSD_SITE_PROBE, the overflow is only noted). */
bool hsd_quantise_value(hsd_edit_ctx *x, hsd_attr_site *t, uint32_t v, const double *val, uint32_t comps, uint8_t *out,
                        const char *what) {
    for (uint32_t c = 0; c < comps; c++) {
        double lo, hi;
        if (hsd_quantise_component(val[c], t->a->comp_type, t->a->frac, out + c * t->lay.comp_bytes, &lo, &hi))
            continue;
        if (t->mode == HSD_SITE_PROBE && widenable(t) && isfinite(val[c])) return t->overflow = true, false;
        hsd_edit_error(x, "import.hsd.range", UE_DAT_HEADER + (uint64_t)t->a->offset, t->gpath,
                   "vertex %u: %s component %u is %g in the PObj's stored space; PObj %zu stores it as %s with %u "
                   "fractional bits, which holds %g … %g%s",
                   v, what, c, val[c], t->pobj, hsd_comp_type_name(t->a->comp_type), t->a->frac, lo, hi,
                   t->a->type == UE_GX_DIRECT ? " (a direct attribute is not widened)" : "");
        return false;
    }
    return true;
}

/* A re-weighted vertex's value in a new element at the end of the PObj's own copy of the array,
 * and every record of the vertex indexing it: the old element may be shared with vertices that
 * keep their envelope (and their place). */
static void own_element(hsd_edit_ctx *x, hsd_attr_site *t, uint32_t v, const double *val, size_t *counter) {
    int64_t index = hsd_wide_append(t->wide, val);
    if (index < 0) {
        x->nomem = true;
        return;
    }
    uint32_t width = t->a->type == UE_GX_INDEX8 ? 1 : 2;
    if (index >= (width == 1 ? 256 : 65536)) {
        t->stopped = true;
        hsd_edit_error(x, "import.hsd.limit", UE_DAT_HEADER + (uint64_t)t->a->offset, t->gpath,
                   "vertex %u: re-weighted, it needs an element of its own in PObj %zu's array, whose %u-bit indices "
                   "reach no further", v, t->pobj, 8 * width);
        return;
    }
    uint8_t idx[2] = {(uint8_t)(width == 1 ? index : index >> 8), (uint8_t)index};
    for (int32_t o = t->head[v]; o >= 0; o = t->next[o])
        if (write_at(x, t, (uint64_t)t->po->dl_offset + t->rec->occ_at[o] + t->field, idx, width, v) < 0) return;
    (*counter)++;
}

/* Vertex v's new value: re-quantised into its element (HSD_SITE_WRITE), checked (HSD_SITE_PROBE), or into
 * the wide copy of the array (HSD_SITE_WIDE). */
void hsd_store_value(hsd_edit_ctx *x, hsd_attr_site *t, uint32_t v, const double *val, uint32_t comps, const char *what,
                     size_t *counter) {
    if (t->mode == HSD_SITE_WIDE && t->own && t->own[v] != 0xFF) {
        own_element(x, t, v, val, counter);
        return;
    }
    if (t->mode == HSD_SITE_WIDE) {
        uint32_t index = (uint32_t)((hsd_element_at(t, v) - t->a->array_offset) / t->a->stride);
        int w = hsd_wide_put(t->wide, index, val);
        if (w < 0)
            hsd_edit_error(x, "import.hsd.conflict", UE_DAT_HEADER + (uint64_t)t->a->offset, t->gpath,
                       "vertex %u: another vertex of the glTF gave its stored element %u (PObj %zu, widened) a "
                       "different value", v, index, t->pobj);
        *counter += w > 0;
        return;
    }
    uint8_t bytes[16];
    if (hsd_quantise_value(x, t, v, val, comps, bytes, what) && t->mode == HSD_SITE_WRITE) hsd_put_element(x, t, v, bytes, counter);
}

bool hsd_skin_invert(const double m[16], double inv[16]) {
    double det = m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2]) +
                 m[8] * (m[1] * m[6] - m[5] * m[2]);
    double lengths = 1;
    for (int c = 0; c < 3; c++) lengths *= sqrt(m[4 * c] * m[4 * c] + m[4 * c + 1] * m[4 * c + 1] + m[4 * c + 2] * m[4 * c + 2]);
    return fabs(det) > 1e-6 * lengths && hsd_mat_invert(m, inv);
}
