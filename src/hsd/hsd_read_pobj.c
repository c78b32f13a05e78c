/* unearth — the HSD struct reader's PObj half (docs/formats/hsd-model.md#pobj): PObj chains, vertex
 * descriptors, the display-list view, envelopes resolved to joint rows, the skin joint. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsd/hsd_int.h"
#include "common/collections.h"

/* ---- vertex descriptors -------------------------------------------------------------------- */

/* One descriptor at `off` (0x18 bytes, checked) into a new attrs row; false when it breaks a
 * rule (reported at `path`). */
static bool read_attr(hsd_reader *r, uint32_t off, const char *path) {
    ue_hsd_model *m = r->m;
    if (!HSD_GROW(r, m->attrs, m->attr_count)) return false;
    ue_hsd_vtx_attr *a = &m->attrs[m->attr_count++];
    memset(a, 0, sizeof *a);
    a->offset = off;
    a->attr = hsd_u32(r, off);
    a->type = hsd_u32(r, off + 4);
    a->comp_count = hsd_u32(r, off + 8);
    a->comp_type = hsd_u32(r, off + 12);
    a->frac = r->dat->data[off + 16];
    a->stride = hsd_u16(r, off + 18);
    char sub[200];
    snprintf(sub, sizeof sub, "%s/array", path);
    a->has_array = hsd_follow(r, off + 20, 0, false, sub, &a->array_offset);
    if (a->has_array) {
        a->array = r->dat->data + a->array_offset;
        a->array_size = r->dat->data_size - a->array_offset;
    }
    hsd_attr_layout lay;
    const char *why = NULL;
    if (!hsd_attr_layout_of(a, &lay, &why)) {
        ue_violation(&r->c, "hsd.pobj.attr", hsd_file_at(off), path, "vertex descriptor: %s", why);
        return false;
    }
    bool indexed = a->type == UE_GX_INDEX8 || a->type == UE_GX_INDEX16;
    if (indexed && !a->has_array) {
        ue_violation(&r->c, "hsd.pobj.array", hsd_file_at(off + 20), path,
                     "indexed attribute %u has no array", a->attr);
        return false;
    }
    return true;
}

/* The descriptor array of pobj `p` (terminated by attr 0xFF, at most HSD_MAX_ATTRS entries).
 * An array shared by several PObjs is read once. False when it is broken. */
static bool read_attrs(hsd_reader *r, int32_t p, const char *path) {
    ue_hsd_model *m = r->m;
    uint32_t off = 0;
    int32_t seen = 0;
    char sub[200];
    snprintf(sub, sizeof sub, "%s/attrs", path);
    if (!hsd_follow(r, m->pobjs[p].offset + 8, 0x18, true, sub, &off)) return false;
    m->pobjs[p].attrs_offset = off;
    bool bad = hsd_map_find(&r->map, HSD_K_ATTRS_BAD, off, &seen);
    if (bad || hsd_map_find(&r->map, HSD_K_ATTRS, off, &seen)) {
        m->pobjs[p].attr_first = m->pobjs[seen].attr_first;
        m->pobjs[p].attr_count = m->pobjs[seen].attr_count;
        return !bad;
    }
    uint32_t first = (uint32_t)m->attr_count, k = 0;
    bool ok = true;
    for (;; k++) {
        uint32_t at = off + 0x18 * k;
        snprintf(sub, sizeof sub, "%s/attr[%u]", path, k);
        if (k == HSD_MAX_ATTRS || (uint64_t)at + 0x18 > r->dat->data_size) {
            ue_violation(&r->c, "hsd.pobj.attr", hsd_file_at(at), sub,
                         "descriptor array has no 0xFF terminator within %u entries inside the "
                         "data block", k);
            ok = false;
            break;
        }
        if (hsd_u32(r, at) == UE_GX_VA_NULL) break;
        if (!read_attr(r, at, sub)) ok = false;
        if (hsd_stop(r)) return false;
    }
    m = r->m;
    m->pobjs[p].attr_first = first;
    m->pobjs[p].attr_count = (uint32_t)m->attr_count - first;
    hsd_map_put(r, ok ? HSD_K_ATTRS : HSD_K_ATTRS_BAD, off, p);
    return ok;
}

/* The display list: n_display × 32 bytes that must lie inside the data block. */
static void read_display_list(hsd_reader *r, ue_hsd_pobj *po, const char *path) {
    char sub[200];
    snprintf(sub, sizeof sub, "%s/dl", path);
    if (!hsd_follow(r, po->offset + 0x10, 0, false, sub, &po->dl_offset)) return;
    size_t size = (size_t)po->n_display * 32u;
    if (size > (size_t)r->dat->data_size - po->dl_offset) {
        ue_violation(&r->c, "hsd.pobj.dl", hsd_file_at(po->offset + 0x0E), sub,
                     "display list of %u × 32 bytes at data offset 0x%x runs past the data "
                     "block", po->n_display, po->dl_offset);
        return;
    }
    po->dl = r->dat->data + po->dl_offset;
    po->dl_size = size;
}

/* ---- envelopes ----------------------------------------------------------------------------- */

/* The weights of one envelope E at `e` (entries {joint, weight} up to a NULL joint). A joint
 * that names no joint of the trees is a violation; tolerant reading drops that entry. */
static void read_weights(hsd_reader *r, uint32_t e, const char *path) {
    ue_hsd_model *m = r->m;
    for (uint32_t w = 0; !hsd_stop(r); w++) {
        uint32_t at = e + 8 * w, joint = 0;
        char sub[224];
        snprintf(sub, sizeof sub, "%s/weight[%u]", path, w);
        if ((uint64_t)at + 8 > r->dat->data_size) {
            ue_violation(&r->c, "hsd.struct.truncated", hsd_file_at(at), sub,
                         "envelope entry runs past the data block");
            return;
        }
        if (!hsd_follow(r, at, 0x40, true, sub, &joint)) return; /* NULL ends the envelope */
        if (w == HSD_MAX_WEIGHTS) {
            ue_violation(&r->c, "hsd.envelope.weights", hsd_file_at(at), sub,
                         "envelope has more than %u weights", HSD_MAX_WEIGHTS);
            return;
        }
        int32_t row = UE_HSD_NONE;
        float weight = hsd_f32(r, at + 4);
        if (!hsd_map_find(&r->map, HSD_K_JOINT, joint, &row) || row < 0) {
            ue_violation(&r->c, "hsd.envelope.joint", hsd_file_at(at), sub,
                         "envelope joint at data offset 0x%x is no joint of the model", joint);
            continue;
        }
        if (!isfinite(weight)) {
            ue_violation(&r->c, "hsd.envelope.weight", hsd_file_at(at + 4), sub,
                         "envelope weight is not finite");
            continue;
        }
        if (!HSD_GROW(r, m->weights, m->weight_count)) return;
        m->weights[m->weight_count++] = (ue_hsd_weight){row, weight};
    }
}

/* One envelope row for E at `e`; the weight run of an E read before is shared. */
static void add_envelope(hsd_reader *r, uint32_t e, const char *path) {
    ue_hsd_model *m = r->m;
    int32_t seen = 0;
    if (!HSD_GROW(r, m->envelopes, m->envelope_count)) return;
    size_t row = m->envelope_count++;
    ue_hsd_envelope env = {e, (uint32_t)m->weight_count, 0};
    if (hsd_map_find(&r->map, HSD_K_WEIGHTS, e, &seen)) {
        env = m->envelopes[seen];
    } else {
        read_weights(r, e, path);
        env.weight_count = (uint32_t)(r->m->weight_count - env.first_weight);
        hsd_map_put(r, HSD_K_WEIGHTS, e, (int32_t)row);
    }
    r->m->envelopes[row] = env;
}

/* More than HSD_ENVELOPE_SLOTS envelopes: the runtime loads the whole list but fills only
 * PNMTX0..9 from its head (pobj.c SetupEnvelopeModelMtx), so no vertex can reach the rest. */
static void warn_unused_envelopes(hsd_reader *r, uint32_t list, uint32_t count, const char *path) {
    if (count <= HSD_ENVELOPE_SLOTS) return;
    char sub[200];
    snprintf(sub, sizeof sub, "%s/env[%u]", path, HSD_ENVELOPE_SLOTS);
    ue_diag_add(r->c.d, UE_SEV_WARNING, "hsd.envelope.count", hsd_file_at(list + 4 * HSD_ENVELOPE_SLOTS),
                sub, "envelope list has %u entries; the runtime draws with the first %u (GX "
                "PNMTX0-9), the other %u are never used", count, HSD_ENVELOPE_SLOTS,
                count - HSD_ENVELOPE_SLOTS);
}

/* ENVELOPE PObjs: +0x14 → E[0], E[1], …, NULL. Every entry is kept (the writer emits them
 * again); at most HSD_MAX_ENVELOPES are read, an unearth limit, not the runtime's. */
static void read_envelopes(hsd_reader *r, int32_t p, uint32_t list, const char *path) {
    int32_t seen = 0;
    if (hsd_map_find(&r->map, HSD_K_ENVLIST, list, &seen)) {
        r->m->pobjs[p].env_first = r->m->pobjs[seen].env_first;
        r->m->pobjs[p].env_count = r->m->pobjs[seen].env_count;
        return;
    }
    uint32_t first = (uint32_t)r->m->envelope_count, k = 0;
    for (; !hsd_stop(r); k++) {
        char sub[200];
        snprintf(sub, sizeof sub, "%s/env[%u]", path, k);
        uint32_t e = 0;
        if (!hsd_follow(r, list + 4 * k, 8, true, sub, &e)) break;
        if (k == HSD_MAX_ENVELOPES) {
            ue_violation(&r->c, "hsd.envelope.limit", hsd_file_at(list + 4 * k), sub,
                         "envelope list has more than %u entries (unearth reads no more)",
                         HSD_MAX_ENVELOPES);
            break;
        }
        add_envelope(r, e, sub);
    }
    r->m->pobjs[p].env_first = first;
    r->m->pobjs[p].env_count = (uint32_t)r->m->envelope_count - first;
    warn_unused_envelopes(r, list, r->m->pobjs[p].env_count, path);
    hsd_map_put(r, HSD_K_ENVLIST, list, p);
}

/* +0x14 by the PObj's type: envelopes, the shared-vertex skin joint, or a raw ShapeSet. */
static void read_property(hsd_reader *r, int32_t p, const char *path) {
    ue_hsd_pobj *po = &r->m->pobjs[p];
    uint32_t type = po->flags & UE_POBJ_TYPE_MASK, off = 0;
    char sub[200];
    snprintf(sub, sizeof sub, "%s/property", path);
    bool present = hsd_follow(r, po->offset + 0x14, 0, false, sub, &off);
    po->property_offset = present ? off : 0;
    if (!present) return;
    if (type == UE_POBJ_ENVELOPE) {
        if (off % 4 != 0) {
            ue_violation(&r->c, "hsd.pointer.misaligned", hsd_file_at(po->offset + 0x14), sub,
                         "envelope list pointer 0x%x is not 4-aligned", off);
            return;
        }
        read_envelopes(r, p, off, path);
    } else if (type == UE_POBJ_SKIN) {
        int32_t row = UE_HSD_NONE;
        if (!hsd_map_find(&r->map, HSD_K_JOINT, off, &row) || row < 0) {
            ue_violation(&r->c, "hsd.pobj.skin_joint", hsd_file_at(po->offset + 0x14), sub,
                         "skin joint at data offset 0x%x is no joint of the model", off);
            return;
        }
        po->skin_joint = row;
    }
}

/* ---- PObj chains --------------------------------------------------------------------------- */

static int32_t make_pobj(hsd_reader *r, uint32_t off, const char *path, void *ctx) {
    (void)ctx;
    ue_hsd_model *m = r->m;
    if (!HSD_GROW(r, m->pobjs, m->pobj_count)) return UE_HSD_NONE;
    int32_t p = (int32_t)m->pobj_count++;
    ue_hsd_pobj *po = &m->pobjs[p];
    memset(po, 0, sizeof *po);
    po->offset = off;
    po->next = po->skin_joint = UE_HSD_NONE;
    po->flags = hsd_u16(r, off + 0x0C);
    po->n_display = hsd_u16(r, off + 0x0E);
    if (!hsd_map_put(r, HSD_K_POBJ, off, p)) return UE_HSD_NONE;
    char sub[200];
    snprintf(sub, sizeof sub, "%s/name", path);
    po->name = hsd_read_name(r, off, sub);
    bool attrs_ok = read_attrs(r, p, path);
    /* A broken descriptor leaves no way to step through the list: drop the list. */
    if (attrs_ok) read_display_list(r, &r->m->pobjs[p], path);
    read_property(r, p, path);
    return p;
}

static int32_t *pobj_next(hsd_reader *r, int32_t row) { return &r->m->pobjs[row].next; }

int32_t hsd_read_pobj_chain(hsd_reader *r, uint32_t field, const char *base) {
    return hsd_walk_chain(r, field, HSD_K_POBJ, 0x18, base, "pobj", make_pobj, pobj_next,
                          (int32_t)r->m->pobj_count, NULL);
}
