/* unearth — edit-mode import of HSD models: attributes widened where a value does not fit their format, new
 * envelopes, and the DAT laid out anew with them by the model writer (docs/hsd-import.md#widening). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "hsd/hsd_import_int.h"
#include "hsd/hsd_int.h"

const char *hsd_comp_type_name(uint32_t comp_type) {
    static const char *const names[5] = {"U8", "S8", "U16", "S16", "F32"};
    return comp_type <= HSD_COMP_F32 ? names[comp_type] : "?";
}

ue_result hsd_wide_init(hsd_wide_attr *w, size_t pobj, uint32_t attr, const ue_hsd_vtx_attr *a, uint32_t comps,
                        uint32_t count, const uint8_t *bytes, size_t size) {
    memset(w, 0, sizeof *w);
    w->pobj = pobj, w->attr = attr, w->comps = comps, w->count = count;
    w->from_type = a->comp_type, w->from_frac = a->frac, w->own_first = count, w->cap = count;
    w->vals = calloc((size_t)count * comps + 1, sizeof *w->vals);
    w->set = calloc((size_t)count + 1, 1);
    if (!w->vals || !w->set) return UE_ERR_NOMEM;
    uint32_t cb = hsd_component_bytes(a->comp_type);
    for (uint32_t i = 0; i < count; i++) {
        uint64_t at = UE_DAT_HEADER + (uint64_t)a->array_offset + (uint64_t)i * a->stride;
        if (at + (uint64_t)cb * comps > size) continue; /* past the file: the list does not index it */
        for (uint32_t c = 0; c < comps; c++)
            w->vals[(size_t)i * comps + c] = hsd_component_value(bytes + at + c * cb, a->comp_type, ldexp(1.0, -(int)a->frac));
    }
    return UE_OK;
}

/* FNV-1a over the value's bits: equal doubles hash alike (a -0.0 apart from 0.0 is another element). */
static uint32_t value_hash(const double *val, uint32_t comps) {
    const uint8_t *p = (const uint8_t *)val;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < comps * sizeof *val; i++) h = (h ^ p[i]) * 16777619u;
    return h;
}

/* The slot of `val` among the appended elements: its index + 1 there, or the empty slot it takes. */
static uint32_t *find_slot(const hsd_wide_attr *w, const double *val) {
    uint32_t mask = w->slot_count - 1;
    for (uint32_t k = value_hash(val, w->comps) & mask;; k = (k + 1) & mask) {
        uint32_t *slot = &w->slots[k];
        if (!*slot || !memcmp(&w->vals[(size_t)(*slot - 1) * w->comps], val, w->comps * sizeof *val)) return slot;
    }
}

/* Room for one more appended element: vals and set grown by half, the table kept under half full. */
static bool wide_reserve(hsd_wide_attr *w) {
    if (w->count == UINT32_MAX - 1) return false;
    if (w->count + 1 > w->cap) {
        uint32_t cap = w->count + w->count / 2 + 16;
        double *vals = realloc(w->vals, (size_t)cap * w->comps * sizeof *vals);
        if (vals) w->vals = vals;
        uint8_t *set = realloc(w->set, cap);
        if (set) w->set = set;
        if (!vals || !set) return false;
        w->cap = cap;
    }
    uint32_t appended = w->count - w->own_first;
    if (2 * ((size_t)appended + 1) <= w->slot_count) return true;
    hsd_wide_attr grown = *w;
    grown.slot_count = w->slot_count ? 2 * w->slot_count : 64;
    grown.slots = calloc(grown.slot_count, sizeof *grown.slots);
    if (!grown.slots) return false;
    for (uint32_t i = w->own_first; i < w->count; i++) *find_slot(&grown, &w->vals[(size_t)i * w->comps]) = i + 1;
    free(w->slots);
    w->slots = grown.slots, w->slot_count = grown.slot_count;
    return true;
}

int64_t hsd_wide_append(hsd_wide_attr *w, const double *val) {
    if (!wide_reserve(w)) return -1;
    uint32_t *slot = find_slot(w, val);
    if (*slot) return *slot - 1;
    memcpy(&w->vals[(size_t)w->count * w->comps], val, w->comps * sizeof *val);
    w->set[w->count] = 1;
    *slot = w->count + 1;
    return w->count++;
}

int hsd_wide_put(hsd_wide_attr *w, uint32_t index, const double *val) {
    if (index >= w->count) return 0;
    double *at = &w->vals[(size_t)index * w->comps];
    if (w->set[index]) return memcmp(at, val, w->comps * sizeof *val) ? -1 : 0;
    w->set[index] = 1;
    if (!memcmp(at, val, w->comps * sizeof *val)) return 0;
    memcpy(at, val, w->comps * sizeof *val);
    return 1;
}

/* Every value in `type` with `frac` fractional bits into w->array; false when one does not fit. */
static bool encode_all(hsd_wide_attr *w, uint32_t type, uint32_t frac) {
    uint32_t cb = hsd_component_bytes(type);
    w->array.size = 0;
    if (!ue_buf_try_reserve(&w->array, (size_t)w->count * w->comps * cb + 1)) return false;
    for (size_t i = 0; i < (size_t)w->count * w->comps; i++) {
        uint8_t q[4];
        double lo, hi;
        if (!hsd_quantise_component(w->vals[i], type, frac, q, &lo, &hi)) return false;
        ue_buf_put(&w->array, q, cb);
    }
    w->comp_type = type, w->frac = frac;
    return true;
}

bool hsd_wide_finish(hsd_wide_attr *w) {
    if (encode_all(w, w->from_type, w->from_frac)) return true;
    if (w->from_type < HSD_COMP_S16 && encode_all(w, HSD_COMP_S16, w->from_frac)) return true;
    return encode_all(w, HSD_COMP_F32, 0);
}

void hsd_wide_free(hsd_wide_attr *w) {
    free(w->vals);
    free(w->set);
    free(w->slots);
    ue_buf_free(&w->array);
}

void hsd_layout_edits_free(hsd_layout_edits *e) {
    for (size_t i = 0; i < e->wide_count; i++) hsd_wide_free(&e->wide[i]);
    free(e->wide);
    free(e->envelopes);
    memset(e, 0, sizeof *e);
}

/* ---- into the model's tables ---------------------------------------------------------------- */

/* New envelope `ne` at the end of its PObj's list: a row inserted after the list's last (the rows
 * after it, and the lists that start there, move up one) over new weights. */
static ue_result insert_envelope(ue_hsd_model *m, const hsd_new_envelope *ne) {
    ue_hsd_pobj *po = &m->pobjs[ne->pobj];
    ue_hsd_weight *weights = realloc(m->weights, (m->weight_count + ne->count) * sizeof *weights);
    if (!weights) return UE_ERR_NOMEM;
    m->weights = weights;
    ue_hsd_envelope row = {0, (uint32_t)m->weight_count, ne->count};
    for (uint32_t i = 0; i < ne->count; i++) weights[m->weight_count++] = (ue_hsd_weight){ne->joint[i], ne->weight[i]};
    ue_hsd_envelope *rows = realloc(m->envelopes, (m->envelope_count + 1) * sizeof *rows);
    if (!rows) return UE_ERR_NOMEM;
    m->envelopes = rows;
    uint32_t at = po->env_first + po->env_count;
    memmove(&rows[at + 1], &rows[at], (m->envelope_count - at) * sizeof *rows);
    rows[at] = row;
    m->envelope_count++;
    for (size_t p = 0; p < m->pobj_count; p++)
        if (&m->pobjs[p] != po && m->pobjs[p].env_first >= at) m->pobjs[p].env_first++;
    po->env_count++;
    return UE_OK;
}

ue_result hsd_own_descriptors(ue_hsd_model *m, size_t pobj) {
    ue_hsd_pobj *po = &m->pobjs[pobj];
    bool shared = false;
    for (size_t p = 0; p < m->pobj_count; p++)
        shared |= p != pobj && m->pobjs[p].attr_count && m->pobjs[p].attr_first == po->attr_first;
    if (!shared) return UE_OK;
    ue_hsd_vtx_attr *rows = realloc(m->attrs, (m->attr_count + po->attr_count + 1) * sizeof *rows);
    if (!rows) return UE_ERR_NOMEM;
    m->attrs = rows;
    memcpy(&rows[m->attr_count], &rows[po->attr_first], po->attr_count * sizeof *rows);
    po->attr_first = (uint32_t)m->attr_count;
    m->attr_count += po->attr_count;
    return UE_OK;
}

static ue_result apply_wide(ue_hsd_model *m, const hsd_wide_attr *w) {
    ue_result r = hsd_own_descriptors(m, w->pobj);
    if (r != UE_OK) return r;
    ue_hsd_vtx_attr *a = &m->attrs[m->pobjs[w->pobj].attr_first + w->attr];
    a->comp_type = w->comp_type, a->frac = (uint8_t)w->frac;
    a->stride = (uint16_t)(w->comps * hsd_component_bytes(w->comp_type));
    a->array = w->array.data, a->array_size = w->array.size, a->has_array = true;
    return UE_OK;
}

ue_result hsd_apply_layout_edits(ue_hsd_model *m, const hsd_layout_edits *e) {
    ue_result r = UE_OK;
    for (size_t i = 0; r == UE_OK && i < e->envelope_count; i++) r = insert_envelope(m, &e->envelopes[i]);
    for (size_t i = 0; r == UE_OK && i < e->wide_count; i++) r = apply_wide(m, &e->wide[i]);
    return r;
}
