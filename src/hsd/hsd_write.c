/* unearth — the HSD model writer (docs/formats/dat.md#writer-layout, docs/formats/hsd-model.md): lays a model's tables out as a new DAT,
 * every row once, structs first, then the 32-aligned GX buffers, then the names. */
#include <stdlib.h>
#include <string.h>

#include "unearth/hsd_model.h"
#include "hsd/dat_builder.h"
#include "hsd/hsd_int.h"
#include "hsd/hsd_write_anim.h"
#include "unearth/advanced/buffers.h"

#define NOWHERE UINT32_MAX
#define ROOT_BITS (UE_JOBJ_ROOT_OPA | UE_JOBJ_ROOT_XLU | UE_JOBJ_ROOT_TEXEDGE)
/* Render-mode bits 29–30 (docs/formats/hsd-materials.md#render-mode) class a DObj for the display walk. */
#define RM_PASS_MASK 0x60000000u
#define RM_XLU 0x40000000u

typedef struct writer {
    const ue_hsd_model *m;
    ue_dat_builder b;
    uint32_t *flags;                      /* per joint: the flags to write */
    uint32_t *joint_at, *ibm_at, *dobj_at, *mobj_at, *mat_at, *pe_at, *tobj_at, *image_at,
        *tlut_at, *pobj_at, *vtx_at, *envlist_at, *env_at, *array_at, *dl_at, *pixels_at,
        *palette_at, *set_at;
    uint32_t *array_len;                  /* per attribute row: the array bytes to write */
    uint32_t *leader;                     /* per attribute row: the first row sharing its array */
} writer;

static ue_result usage(ue_diag *d, const char *path, const char *msg) {
    ue_diag_add(d, UE_SEV_ERROR, "hsd.write.model", UE_NO_OFFSET, path, "%s", msg);
    return UE_ERR_USAGE;
}

/* ---- checks on the caller's tables -------------------------------------------------------- */

static bool link_ok(int32_t index, size_t count) {
    return index == UE_HSD_NONE || (index >= 0 && (size_t)index < count);
}
static bool range_ok(uint32_t first, uint32_t n, size_t count) {
    return first <= count && n <= count - first;
}

static ue_result check_joints(const ue_hsd_model *m, ue_diag *d) {
    for (size_t i = 0; i < m->joint_count; i++) {
        const ue_hsd_joint *j = &m->joints[i];
        if (!link_ok(j->parent, m->joint_count) || !link_ok(j->first_child, m->joint_count) ||
            !link_ok(j->next_sibling, m->joint_count) || !link_ok(j->first_dobj, m->dobj_count))
            return usage(d, "model/joint", "a joint link is outside the tables");
        /* ROOT_* bits are passed up in one backward sweep, which needs parents first. */
        if (j->parent != UE_HSD_NONE && (size_t)j->parent >= i)
            return usage(d, "model/joint", "joints must come after their parent (pre-order)");
    }
    for (size_t i = 0; i < m->set_count; i++)
        if (m->sets[i].root_joint < 0 || (size_t)m->sets[i].root_joint >= m->joint_count ||
            !m->sets[i].root_name || !m->sets[i].root_name[0])
            return usage(d, "model/set", "a set needs a root joint and a root name");
    return UE_OK;
}

static ue_result check_meshes(const ue_hsd_model *m, ue_diag *d) {
    for (size_t i = 0; i < m->dobj_count; i++) {
        const ue_hsd_dobj *o = &m->dobjs[i];
        if (!link_ok(o->next, m->dobj_count) || !link_ok(o->mobj, m->mobj_count) ||
            !link_ok(o->first_pobj, m->pobj_count) || !link_ok(o->joint, m->joint_count))
            return usage(d, "model/dobj", "a DObj link is outside the tables");
        if (o->mobj >= 0 && (m->mobjs[o->mobj].render_mode & RM_PASS_MASK) == 0x20000000u)
            return usage(d, "model/dobj", "render mode NO_ZUPDATE without XLU (the runtime panics)");
    }
    for (size_t i = 0; i < m->pobj_count; i++) {
        const ue_hsd_pobj *p = &m->pobjs[i];
        if (!link_ok(p->next, m->pobj_count) || !link_ok(p->skin_joint, m->joint_count) ||
            !range_ok(p->attr_first, p->attr_count, m->attr_count) ||
            !range_ok(p->env_first, p->env_count, m->envelope_count))
            return usage(d, "model/pobj", "a PObj link is outside the tables");
        if ((p->dl_size && !p->dl) || (p->dl_size + 31) / 32 > 0xFFFFu)
            return usage(d, "model/pobj", "a display list is missing or longer than 0xFFFF × 32");
    }
    for (size_t i = 0; i < m->attr_count; i++)
        if (m->attrs[i].has_array && (!m->attrs[i].array || !m->attrs[i].array_size))
            return usage(d, "model/attr", "an attribute array has no bytes");
    for (size_t i = 0; i < m->envelope_count; i++)
        if (!range_ok(m->envelopes[i].first_weight, m->envelopes[i].weight_count, m->weight_count))
            return usage(d, "model/envelope", "an envelope's weights are outside the table");
    for (size_t i = 0; i < m->weight_count; i++)
        if (m->weights[i].joint < 0 || (size_t)m->weights[i].joint >= m->joint_count)
            return usage(d, "model/weight", "a weight needs a joint (NULL ends the list)");
    return UE_OK;
}

static ue_result check_materials(const ue_hsd_model *m, ue_diag *d) {
    for (size_t i = 0; i < m->mobj_count; i++)
        if (!link_ok(m->mobjs[i].first_tobj, m->tobj_count))
            return usage(d, "model/mobj", "a MObj link is outside the tables");
    for (size_t i = 0; i < m->tobj_count; i++) {
        const ue_hsd_tobj *t = &m->tobjs[i];
        if (!link_ok(t->next, m->tobj_count) || !link_ok(t->image, m->image_count) ||
            !link_ok(t->tlut, m->tlut_count))
            return usage(d, "model/tobj", "a TObj link is outside the tables");
    }
    for (size_t i = 0; i < m->image_count; i++)
        if (!m->images[i].data || !m->images[i].size)
            return usage(d, "model/image", "an image has no pixel data");
    for (size_t i = 0; i < m->tlut_count; i++)
        if (!m->tluts[i].data || !m->tluts[i].n_entries)
            return usage(d, "model/tlut", "a palette has no entries");
    return UE_OK;
}

/* ---- JObj flags the runtime needs to draw (docs/formats/hsd-model.md#drawability) ---------- */

static uint32_t draw_bit(const ue_hsd_model *m, const ue_hsd_dobj *o) {
    uint32_t pass = o->mobj >= 0 ? m->mobjs[o->mobj].render_mode & RM_PASS_MASK : 0;
    return pass == 0 ? UE_JOBJ_OPA : pass == RM_XLU ? UE_JOBJ_TEXEDGE : UE_JOBJ_XLU;
}

/* The owner gets OPA/XLU/TEXEDGE and the matching ROOT bit (as tools do); every ancestor gets
 * the ROOT bit, or the display walk never descends to the owner. Bits already set are kept. */
static void draw_flags(writer *w) {
    const ue_hsd_model *m = w->m;
    for (size_t i = 0; i < m->joint_count; i++) w->flags[i] = m->joints[i].flags;
    for (size_t i = 0; i < m->dobj_count; i++) {
        const ue_hsd_dobj *o = &m->dobjs[i];
        if (o->joint < 0) continue;
        uint32_t bit = draw_bit(m, o);
        w->flags[o->joint] |= bit | (bit << 10); /* OPA 1<<18 → ROOT_OPA 1<<28, and so on */
    }
    for (size_t i = m->joint_count; i-- > 0;)
        if (m->joints[i].parent >= 0) w->flags[m->joints[i].parent] |= w->flags[i] & ROOT_BITS;
}

/* ---- phase 1: structs ----------------------------------------------------------------------- */

static uint32_t place(writer *w, size_t size) {
    return ue_datb_alloc(&w->b, size, UE_DATB_STRUCT_ALIGN);
}

/* A PObj reuses the descriptor array of an earlier PObj with the same attribute rows. */
static long same_attrs(const ue_hsd_model *m, size_t i) {
    for (size_t k = 0; k < i; k++)
        if (m->pobjs[k].attr_first == m->pobjs[i].attr_first &&
            m->pobjs[k].attr_count == m->pobjs[i].attr_count)
            return (long)k;
    return -1;
}

static void place_structs(writer *w) {
    const ue_hsd_model *m = w->m;
    for (size_t i = 0; i < m->joint_count; i++) {
        w->joint_at[i] = place(w, 0x40);
        w->ibm_at[i] = m->joints[i].has_inverse_bind ? place(w, 48) : NOWHERE;
    }
    for (size_t i = 0; i < m->dobj_count; i++) w->dobj_at[i] = place(w, 0x10);
    for (size_t i = 0; i < m->mobj_count; i++) {
        w->mobj_at[i] = place(w, 0x18);
        w->mat_at[i] = m->mobjs[i].has_material ? place(w, 0x14) : NOWHERE;
        w->pe_at[i] = m->mobjs[i].has_pe ? place(w, 0x0C) : NOWHERE;
    }
    for (size_t i = 0; i < m->tobj_count; i++) w->tobj_at[i] = place(w, 0x5C);
    for (size_t i = 0; i < m->image_count; i++) w->image_at[i] = place(w, 0x18);
    for (size_t i = 0; i < m->tlut_count; i++) w->tlut_at[i] = place(w, 0x10);
    for (size_t i = 0; i < m->pobj_count; i++) {
        const ue_hsd_pobj *p = &m->pobjs[i];
        long same = same_attrs(m, i);
        w->pobj_at[i] = place(w, 0x18);
        w->vtx_at[i] = same >= 0 ? w->vtx_at[same] : place(w, ((size_t)p->attr_count + 1) * 0x18);
        bool env = (p->flags & UE_POBJ_TYPE_MASK) == UE_POBJ_ENVELOPE;
        w->envlist_at[i] = env ? place(w, ((size_t)p->env_count + 1) * 4) : NOWHERE;
    }
    for (size_t i = 0; i < m->envelope_count; i++)
        w->env_at[i] = place(w, ((size_t)m->envelopes[i].weight_count + 1) * 8);
}

/* ---- how much of each attribute array the display lists use ------------------------------- */

/* A model read from a DAT knows its arrays only up to the end of the data block; the lists say
 * how far they really go. An array is written up to the last element a list indexes (all of
 * array_size when no list indexes it or a list cannot be walked), never past array_size. */

typedef struct extent {
    uint32_t *max_end; /* per attribute row: end of the furthest element indexed, 0 = none */
    bool *unknown;     /* per attribute row: a list using it could not be walked */
} extent;

/* One vertex record: every indexed attribute's indices widen its row's extent. */
static void scan_vertex(const ue_hsd_model *m, const ue_hsd_pobj *p, const hsd_attr_layout *lay,
                        const uint8_t *v, extent *e) {
    for (uint32_t k = 0; k < p->attr_count; k++) {
        const ue_hsd_vtx_attr *a = &m->attrs[p->attr_first + k];
        uint32_t row = p->attr_first + k;
        if (a->type == UE_GX_INDEX8 || a->type == UE_GX_INDEX16)
            for (uint32_t i = 0; i < lay[k].indices; i++) {
                uint32_t idx = a->type == UE_GX_INDEX8 ? v[i] : (uint32_t)((v[2 * i] << 8) | v[2 * i + 1]);
                uint64_t end = (uint64_t)idx * a->stride + lay[k].elem_bytes;
                if (end > e->max_end[row]) e->max_end[row] = end > UINT32_MAX ? UINT32_MAX : (uint32_t)end;
            }
        v += lay[k].record_bytes;
    }
}

/* Walks one list as docs/formats/hsd-model.md#display-lists reads it (stops at GX_NOP, an unknown opcode or the end). */
static void scan_list(const ue_hsd_model *m, const ue_hsd_pobj *p, extent *e) {
    hsd_attr_layout lay[HSD_MAX_ATTRS];
    size_t vbytes = 0;
    const char *why = NULL;
    bool known = p->attr_count <= HSD_MAX_ATTRS;
    for (uint32_t k = 0; known && k < p->attr_count; k++) {
        known = hsd_attr_layout_of(&m->attrs[p->attr_first + k], &lay[k], &why);
        vbytes += known ? lay[k].record_bytes : 0;
    }
    if (!known || !vbytes) {
        for (uint32_t k = 0; k < p->attr_count; k++) e->unknown[p->attr_first + k] = true;
        return;
    }
    for (size_t at = 0; at + 3 <= p->dl_size;) {
        uint8_t op = p->dl[at];
        if (op == 0 || (op & 0xF8u) < 0x80u || (op & 0xF8u) > 0xB8u) return;
        size_t count = (size_t)((p->dl[at + 1] << 8) | p->dl[at + 2]);
        at += 3;
        for (size_t v = 0; v < count && at + vbytes <= p->dl_size; v++, at += vbytes)
            scan_vertex(m, p, lay, p->dl + at, e);
        if (count && at + vbytes > p->dl_size) return;
    }
}

static bool array_lengths(writer *w) {
    const ue_hsd_model *m = w->m;
    extent e = {ue_calloc_items(m->attr_count, sizeof(uint32_t)),
                ue_calloc_items(m->attr_count, sizeof(bool))};
    bool ok = e.max_end && e.unknown;
    for (size_t i = 0; ok && i < m->pobj_count; i++) scan_list(m, &m->pobjs[i], &e);
    for (size_t i = 0; ok && i < m->attr_count; i++) {
        size_t full = m->attrs[i].array_size;
        bool trim = !e.unknown[i] && e.max_end[i] > 0 && e.max_end[i] < full;
        w->array_len[i] = (uint32_t)(trim ? e.max_end[i] : full);
    }
    free(e.max_end);
    free(e.unknown);
    return ok;
}

/* ---- phase 2: GX buffers, 32-aligned -------------------------------------------------------- */

static uint32_t place_gx(writer *w, const void *src, size_t size, size_t pad_to) {
    return ue_datb_put(&w->b, src, size, pad_to, UE_DATB_GX_ALIGN);
}

static void place_buffers(writer *w) {
    const ue_hsd_model *m = w->m;
    /* One array shared by several descriptors is written once, as far as any of them uses it. */
    for (size_t i = 0; i < m->attr_count; i++) {
        const ue_hsd_vtx_attr *a = &m->attrs[i];
        w->leader[i] = (uint32_t)i;
        for (size_t k = 0; a->has_array && k < i && w->leader[i] == i; k++)
            if (m->attrs[k].has_array && m->attrs[k].array == a->array &&
                m->attrs[k].array_size == a->array_size && w->leader[k] == k) {
                w->leader[i] = (uint32_t)k;
                if (w->array_len[i] > w->array_len[k]) w->array_len[k] = w->array_len[i];
            }
    }
    for (size_t i = 0; i < m->attr_count; i++) {
        const ue_hsd_vtx_attr *a = &m->attrs[i];
        w->array_at[i] = !a->has_array         ? NOWHERE
                         : w->leader[i] == i ? place_gx(w, a->array, w->array_len[i], 0)
                                             : w->array_at[w->leader[i]];
    }
    for (size_t i = 0; i < m->pobj_count; i++) {
        const ue_hsd_pobj *p = &m->pobjs[i];
        /* The list is stored in whole 32-byte units; the padding is GX_NOP (0). */
        w->dl_at[i] = p->dl_size ? place_gx(w, p->dl, p->dl_size, (p->dl_size + 31) / 32 * 32)
                                 : NOWHERE;
    }
    for (size_t i = 0; i < m->image_count; i++)
        w->pixels_at[i] = place_gx(w, m->images[i].data, m->images[i].size, 0);
    for (size_t i = 0; i < m->tlut_count; i++)
        w->palette_at[i] = place_gx(w, m->tluts[i].data, (size_t)m->tluts[i].n_entries * 2, 0);
}

/* ---- phase 3: fields ------------------------------------------------------------------------ */

static void link(writer *w, uint32_t field, const uint32_t *table_at, int32_t index) {
    if (index >= 0) ue_datb_pointer(&w->b, field, table_at[index]);
}
static void name(writer *w, uint32_t field, const char *s) {
    if (s) ue_datb_pointer(&w->b, field, ue_datb_cstring(&w->b, s));
}
static void vec3(writer *w, uint32_t at, const float v[3]) {
    for (unsigned k = 0; k < 3; k++) ue_datb_f32(&w->b, at + 4 * k, v[k]);
}

static void fill_joint(writer *w, size_t i) {
    const ue_hsd_joint *j = &w->m->joints[i];
    uint32_t at = w->joint_at[i];
    name(w, at + 0x00, j->class_name);
    ue_datb_u32(&w->b, at + 0x04, w->flags[i]);
    link(w, at + 0x08, w->joint_at, j->first_child);
    link(w, at + 0x0C, w->joint_at, j->next_sibling);
    /* With SPLINE or PTCL +0x10 is no DObj list; that raw struct is not carried over. */
    if (!(j->flags & (UE_JOBJ_SPLINE | UE_JOBJ_PTCL))) link(w, at + 0x10, w->dobj_at, j->first_dobj);
    vec3(w, at + 0x14, j->rotation);
    vec3(w, at + 0x20, j->scale);
    vec3(w, at + 0x2C, j->translation);
    if (w->ibm_at[i] == NOWHERE) return;
    ue_datb_pointer(&w->b, at + 0x38, w->ibm_at[i]);
    for (unsigned k = 0; k < 12; k++) ue_datb_f32(&w->b, w->ibm_at[i] + 4 * k, j->inverse_bind[k]);
}

static void fill_dobj(writer *w, size_t i) {
    const ue_hsd_dobj *o = &w->m->dobjs[i];
    uint32_t at = w->dobj_at[i];
    name(w, at, o->name);
    link(w, at + 0x04, w->dobj_at, o->next);
    link(w, at + 0x08, w->mobj_at, o->mobj);
    link(w, at + 0x0C, w->pobj_at, o->first_pobj);
}

static void fill_material(writer *w, uint32_t at, const ue_hsd_material *mt) {
    for (unsigned k = 0; k < 4; k++) {
        ue_datb_u8(&w->b, at + k, mt->ambient[k]);
        ue_datb_u8(&w->b, at + 4 + k, mt->diffuse[k]);
        ue_datb_u8(&w->b, at + 8 + k, mt->specular[k]);
    }
    ue_datb_f32(&w->b, at + 0x0C, mt->alpha);
    ue_datb_f32(&w->b, at + 0x10, mt->shininess);
}

static void fill_mobj(writer *w, size_t i) {
    const ue_hsd_mobj *mo = &w->m->mobjs[i];
    uint32_t at = w->mobj_at[i];
    name(w, at, mo->name);
    ue_datb_u32(&w->b, at + 0x04, mo->render_mode);
    link(w, at + 0x08, w->tobj_at, mo->first_tobj);
    if (w->mat_at[i] != NOWHERE) {
        ue_datb_pointer(&w->b, at + 0x0C, w->mat_at[i]);
        fill_material(w, w->mat_at[i], &mo->material);
    }
    if (w->pe_at[i] == NOWHERE) return;
    ue_datb_pointer(&w->b, at + 0x14, w->pe_at[i]);
    const ue_hsd_pe *pe = &mo->pe;
    const uint8_t bytes[12] = {pe->flags,      pe->ref0,       pe->ref1,       pe->dst_alpha,
                               pe->type,       pe->src_factor, pe->dst_factor, pe->logic_op,
                               pe->z_comp,     pe->alpha_comp0, pe->alpha_op,  pe->alpha_comp1};
    for (unsigned k = 0; k < 12; k++) ue_datb_u8(&w->b, w->pe_at[i] + k, bytes[k]);
}

static void fill_tobj(writer *w, size_t i) {
    const ue_hsd_tobj *t = &w->m->tobjs[i];
    uint32_t at = w->tobj_at[i];
    name(w, at, t->name);
    link(w, at + 0x04, w->tobj_at, t->next);
    ue_datb_u32(&w->b, at + 0x08, t->id);
    ue_datb_u32(&w->b, at + 0x0C, t->src);
    vec3(w, at + 0x10, t->rotation);
    vec3(w, at + 0x1C, t->scale);
    vec3(w, at + 0x28, t->translation);
    ue_datb_u32(&w->b, at + 0x34, t->wrap_s);
    ue_datb_u32(&w->b, at + 0x38, t->wrap_t);
    ue_datb_u8(&w->b, at + 0x3C, t->repeat_s);
    ue_datb_u8(&w->b, at + 0x3D, t->repeat_t);
    ue_datb_u32(&w->b, at + 0x40, t->flags);
    ue_datb_f32(&w->b, at + 0x44, t->blending);
    ue_datb_u32(&w->b, at + 0x48, t->mag_filter);
    link(w, at + 0x4C, w->image_at, t->image);
    link(w, at + 0x50, w->tlut_at, t->tlut);
}

static void fill_image(writer *w, size_t i) {
    const ue_hsd_image *im = &w->m->images[i];
    uint32_t at = w->image_at[i];
    ue_datb_pointer(&w->b, at, w->pixels_at[i]);
    ue_datb_u16(&w->b, at + 0x04, im->width);
    ue_datb_u16(&w->b, at + 0x06, im->height);
    ue_datb_u32(&w->b, at + 0x08, im->format);
    ue_datb_u32(&w->b, at + 0x0C, im->mipmap ? 1u : 0u);
    ue_datb_f32(&w->b, at + 0x10, im->min_lod);
    ue_datb_f32(&w->b, at + 0x14, im->max_lod);
}

static void fill_tlut(writer *w, size_t i) {
    const ue_hsd_tlut *t = &w->m->tluts[i];
    uint32_t at = w->tlut_at[i];
    ue_datb_pointer(&w->b, at, w->palette_at[i]);
    ue_datb_u32(&w->b, at + 0x04, t->format);
    ue_datb_u32(&w->b, at + 0x08, t->name_word);
    ue_datb_u16(&w->b, at + 0x0C, t->n_entries);
}

/* The descriptor array, then the terminator as tools write it: {0xFF, INDEX8, 0, F32, 0…}. */
static void fill_vtx_descs(writer *w, const ue_hsd_pobj *p, uint32_t at) {
    for (uint32_t k = 0; k < p->attr_count; k++, at += 0x18) {
        size_t row = (size_t)p->attr_first + k;
        const ue_hsd_vtx_attr *a = &w->m->attrs[row];
        ue_datb_u32(&w->b, at + 0x00, a->attr);
        ue_datb_u32(&w->b, at + 0x04, a->type);
        ue_datb_u32(&w->b, at + 0x08, a->comp_count);
        ue_datb_u32(&w->b, at + 0x0C, a->comp_type);
        ue_datb_u8(&w->b, at + 0x10, a->frac);
        ue_datb_u16(&w->b, at + 0x12, a->stride);
        if (w->array_at[row] != NOWHERE) ue_datb_pointer(&w->b, at + 0x14, w->array_at[row]);
    }
    ue_datb_u32(&w->b, at + 0x00, UE_GX_VA_NULL);
    ue_datb_u32(&w->b, at + 0x04, UE_GX_INDEX8);
    ue_datb_u32(&w->b, at + 0x0C, 4);
}

static void fill_pobj(writer *w, size_t i) {
    const ue_hsd_pobj *p = &w->m->pobjs[i];
    uint32_t at = w->pobj_at[i];
    name(w, at, p->name);
    link(w, at + 0x04, w->pobj_at, p->next);
    ue_datb_pointer(&w->b, at + 0x08, w->vtx_at[i]);
    if (same_attrs(w->m, i) < 0) fill_vtx_descs(w, p, w->vtx_at[i]);
    ue_datb_u16(&w->b, at + 0x0C, p->flags);
    ue_datb_u16(&w->b, at + 0x0E, (uint16_t)((p->dl_size + 31) / 32));
    if (w->dl_at[i] != NOWHERE) ue_datb_pointer(&w->b, at + 0x10, w->dl_at[i]);
    if (w->envlist_at[i] != NOWHERE) {
        ue_datb_pointer(&w->b, at + 0x14, w->envlist_at[i]);
        for (uint32_t k = 0; k < p->env_count; k++)
            ue_datb_pointer(&w->b, w->envlist_at[i] + 4 * k, w->env_at[p->env_first + k]);
    } else if ((p->flags & UE_POBJ_TYPE_MASK) == UE_POBJ_SKIN) {
        link(w, at + 0x14, w->joint_at, p->skin_joint);
    }
}

static void fill_envelope(writer *w, size_t i) {
    const ue_hsd_envelope *e = &w->m->envelopes[i];
    for (uint32_t k = 0; k < e->weight_count; k++) {
        const ue_hsd_weight *wt = &w->m->weights[e->first_weight + k];
        ue_datb_pointer(&w->b, w->env_at[i] + 8 * k, w->joint_at[wt->joint]);
        ue_datb_f32(&w->b, w->env_at[i] + 8 * k + 4, wt->weight);
    }
}

static void fill_all(writer *w) {
    const ue_hsd_model *m = w->m;
    for (size_t i = 0; i < m->joint_count; i++) fill_joint(w, i);
    for (size_t i = 0; i < m->dobj_count; i++) fill_dobj(w, i);
    for (size_t i = 0; i < m->mobj_count; i++) fill_mobj(w, i);
    for (size_t i = 0; i < m->tobj_count; i++) fill_tobj(w, i);
    for (size_t i = 0; i < m->image_count; i++) fill_image(w, i);
    for (size_t i = 0; i < m->tlut_count; i++) fill_tlut(w, i);
    for (size_t i = 0; i < m->pobj_count; i++) fill_pobj(w, i);
    for (size_t i = 0; i < m->envelope_count; i++) fill_envelope(w, i);
}

/* ---- roots ---------------------------------------------------------------------------------- */

static bool is_scene(const ue_hsd_model_set *s) { return strcmp(s->root_name, "scene_data") == 0; }

/* Every "scene_data" set becomes one ModelSet of a single SceneDesc (docs/formats/hsd-model.md#scene-data), in set order, placed
 * first; its animation arrays are filled from m->anims by hsd_write_anims (the raw *_offset
 * fields of a set point into another DAT and are not used). */
static void place_scene(writer *w) {
    const ue_hsd_model *m = w->m;
    size_t n = 0;
    for (size_t i = 0; i < m->set_count; i++) n += is_scene(&m->sets[i]);
    memset(w->set_at, 0xFF, m->set_count * sizeof *w->set_at); /* NOWHERE: a plain joint root */
    if (!n) return;
    uint32_t scene = place(w, 0x10);
    uint32_t list = place(w, (n + 1) * 4);
    ue_datb_pointer(&w->b, scene, list);
    for (size_t i = 0, k = 0; i < m->set_count; i++) {
        if (!is_scene(&m->sets[i])) continue;
        w->set_at[i] = place(w, 0x10);
        ue_datb_pointer(&w->b, list + 4 * (uint32_t)k++, w->set_at[i]);
    }
    ue_datb_root(&w->b, scene, "scene_data");
}

/* After the joints are placed: each ModelSet's root, and a plain root per other set. */
static void place_roots(writer *w) {
    const ue_hsd_model *m = w->m;
    for (size_t i = 0; i < m->set_count; i++)
        if (is_scene(&m->sets[i]))
            ue_datb_pointer(&w->b, w->set_at[i], w->joint_at[m->sets[i].root_joint]);
        else
            ue_datb_root(&w->b, w->joint_at[m->sets[i].root_joint], m->sets[i].root_name);
}

/* ---- entry ---------------------------------------------------------------------------------- */

static bool alloc_tables(writer *w) {
    const ue_hsd_model *m = w->m;
    struct { uint32_t **p; size_t n; } t[] = {
        {&w->flags, m->joint_count},   {&w->joint_at, m->joint_count},
        {&w->ibm_at, m->joint_count},  {&w->dobj_at, m->dobj_count},
        {&w->mobj_at, m->mobj_count},  {&w->mat_at, m->mobj_count},
        {&w->pe_at, m->mobj_count},    {&w->tobj_at, m->tobj_count},
        {&w->image_at, m->image_count}, {&w->tlut_at, m->tlut_count},
        {&w->pobj_at, m->pobj_count},  {&w->vtx_at, m->pobj_count},
        {&w->envlist_at, m->pobj_count}, {&w->env_at, m->envelope_count},
        {&w->array_at, m->attr_count}, {&w->dl_at, m->pobj_count},
        {&w->pixels_at, m->image_count}, {&w->palette_at, m->tlut_count},
        {&w->set_at, m->set_count},     {&w->array_len, m->attr_count},
        {&w->leader, m->attr_count},
    };
    bool ok = true;
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        *t[i].p = ue_calloc_items(t[i].n, sizeof(uint32_t));
        ok = ok && *t[i].p;
    }
    return ok;
}

static void free_tables(writer *w) {
    uint32_t *t[] = {w->flags,   w->joint_at, w->ibm_at,   w->dobj_at,    w->mobj_at,
                     w->mat_at,  w->pe_at,    w->tobj_at,  w->image_at,   w->tlut_at,
                     w->pobj_at, w->vtx_at,   w->envlist_at, w->env_at,   w->array_at,
                     w->dl_at,   w->pixels_at, w->palette_at, w->set_at,
                     w->array_len, w->leader};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) free(t[i]);
}

ue_result ue_hsd_model_write(const ue_hsd_model *m, ue_buf *out, ue_diag *d) {
    if (!m || !out) return UE_ERR_USAGE;
    if (!m->set_count) return usage(d, "model/set", "a model needs at least one set");
    ue_result r = check_joints(m, d);
    if (r == UE_OK) r = check_meshes(m, d);
    if (r == UE_OK) r = check_materials(m, d);
    if (r == UE_OK) r = hsd_write_anims_check(m, d);
    if (r != UE_OK) return r;
    writer w;
    memset(&w, 0, sizeof w);
    w.m = m;
    ue_datb_init(&w.b);
    if (!alloc_tables(&w)) {
        free_tables(&w);
        return UE_ERR_NOMEM;
    }
    draw_flags(&w);
    if (!array_lengths(&w)) {
        free_tables(&w);
        return UE_ERR_NOMEM;
    }
    place_scene(&w);
    place_structs(&w);
    place_buffers(&w);
    fill_all(&w);
    place_roots(&w);
    const hsd_anim_links links = {w.joint_at, w.image_at, w.tlut_at, w.set_at};
    r = hsd_write_anims(&w.b, m, &links);
    if (r == UE_OK) r = ue_datb_finish(&w.b, out);
    ue_datb_free(&w.b);
    free_tables(&w);
    return r;
}
