/* unearth — the HSD struct reader's mesh half (docs/formats/hsd-model.md): DObj lists, MObj with
 * Material and PE, TObj chains with Image and TLUT, PObj chains, vertex descriptors, envelopes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsd/hsd_int.h"
#include "common/collections.h"
#include "unearth/gx.h"

/* ---- materials and textures (docs/formats/hsd-materials.md#mobj, docs/formats/hsd-materials.md#tobj) ---- */

/* The bytes every declared level needs, checked against the data block. */
static bool image_size(hsd_reader *r, ue_hsd_image *im, const char *path) {
    size_t bytes = 0, start = 0;
    ue_result e = ue_gx_level_size(im->format, im->width, im->height, im->levels - 1, NULL, NULL,
                                   &bytes, &start);
    if (e == UE_ERR_UNSUPPORTED) {
        ue_violation(&r->c, "hsd.image.format", hsd_file_at(im->offset + 8), path,
                     "unknown GX texture format %u", im->format);
        return false;
    }
    if (e != UE_OK) {
        ue_violation(&r->c, "hsd.image.size", hsd_file_at(im->offset + 4), path,
                     "texture of %ux%u with %u levels is outside GX's limits", im->width,
                     im->height, im->levels);
        return false;
    }
    im->size = start + bytes;
    if (im->size > (size_t)r->dat->data_size - im->data_offset) {
        ue_violation(&r->c, "hsd.image.size", hsd_file_at(im->data_offset), path,
                     "%ux%u %s texture with %u levels needs 0x%zx bytes, 0x%x are readable",
                     im->width, im->height, ue_gx_format_name(im->format), im->levels, im->size,
                     r->dat->data_size - im->data_offset);
        return false;
    }
    im->data = r->dat->data + im->data_offset;
    return true;
}

static bool image_fields(hsd_reader *r, ue_hsd_image *im, const char *path) {
    uint32_t off = im->offset;
    char sub[192];
    snprintf(sub, sizeof sub, "%s/data", path);
    if (!hsd_follow(r, off, 0, false, sub, &im->data_offset)) {
        if (!hsd_stop(r))
            ue_violation(&r->c, "hsd.image.data", hsd_file_at(off), sub, "image has no pixel data");
        return false;
    }
    im->width = hsd_u16(r, off + 4);
    im->height = hsd_u16(r, off + 6);
    im->format = hsd_u32(r, off + 8);
    im->mipmap = hsd_u32(r, off + 0x0C) != 0;
    im->min_lod = hsd_f32(r, off + 0x10);
    im->max_lod = hsd_f32(r, off + 0x14);
    im->levels = 1;
    if (im->mipmap) {
        if (!(im->max_lod >= 0.0f && im->max_lod <= (float)UE_GX_MAX_LEVEL)) {
            ue_violation(&r->c, "hsd.image.lod", hsd_file_at(off + 0x14), path,
                         "max LOD %g is not a level 0..%u", (double)im->max_lod,
                         UE_GX_MAX_LEVEL);
            return false;
        }
        im->levels = (uint32_t)floorf(im->max_lod) + 1;
    }
    return image_size(r, im, path);
}

int32_t hsd_read_image(hsd_reader *r, uint32_t field, const char *path) {
    uint32_t off = 0;
    int32_t row = UE_HSD_NONE;
    if (!hsd_follow(r, field, 0x18, true, path, &off)) return UE_HSD_NONE;
    if (hsd_map_find(&r->map, HSD_K_IMAGE, off, &row)) return row;
    ue_hsd_image im = {0};
    im.offset = off;
    bool ok = image_fields(r, &im, path);
    ue_hsd_model *m = r->m;
    if (ok && HSD_GROW(r, m->images, m->image_count)) {
        row = (int32_t)m->image_count++;
        m->images[row] = im;
    }
    hsd_map_put(r, HSD_K_IMAGE, off, row); /* a broken image is reported once */
    return row;
}

int32_t hsd_read_tlut(hsd_reader *r, uint32_t field, const char *path) {
    uint32_t off = 0;
    int32_t row = UE_HSD_NONE;
    if (!hsd_follow(r, field, 0x10, true, path, &off)) return UE_HSD_NONE;
    if (hsd_map_find(&r->map, HSD_K_TLUT, off, &row)) return row;
    ue_hsd_tlut t = {off, 0, NULL, hsd_u32(r, off + 4), hsd_u32(r, off + 8), hsd_u16(r, off + 12)};
    char sub[192];
    snprintf(sub, sizeof sub, "%s/data", path);
    bool ok = hsd_follow(r, off, 0, false, sub, &t.data_offset);
    if (ok && t.format > UE_GX_TLUT_RGB5A3) {
        ue_violation(&r->c, "hsd.tlut.format", hsd_file_at(off + 4), path,
                     "unknown palette format %u", t.format);
        ok = false;
    }
    if (ok && 2u * t.n_entries > r->dat->data_size - t.data_offset) {
        ue_violation(&r->c, "hsd.tlut.size", hsd_file_at(t.data_offset), path,
                     "palette of %u entries runs past the data block", t.n_entries);
        ok = false;
    }
    ue_hsd_model *m = r->m;
    if (ok && HSD_GROW(r, m->tluts, m->tlut_count)) {
        t.data = r->dat->data + t.data_offset;
        row = (int32_t)m->tlut_count++;
        m->tluts[row] = t;
    }
    hsd_map_put(r, HSD_K_TLUT, off, row);
    return row;
}

static void tobj_fields(hsd_reader *r, int32_t row, const char *path) {
    ue_hsd_tobj *t = &r->m->tobjs[row];
    uint32_t off = t->offset;
    char sub[192];
    snprintf(sub, sizeof sub, "%s/name", path);
    t->name = hsd_read_name(r, off, sub);
    t->id = hsd_u32(r, off + 0x08);
    t->src = hsd_u32(r, off + 0x0C);
    for (uint32_t k = 0; k < 3; k++) {
        t->rotation[k] = hsd_f32(r, off + 0x10 + 4 * k);
        t->scale[k] = hsd_f32(r, off + 0x1C + 4 * k);
        t->translation[k] = hsd_f32(r, off + 0x28 + 4 * k);
    }
    t->wrap_s = hsd_u32(r, off + 0x34);
    t->wrap_t = hsd_u32(r, off + 0x38);
    t->repeat_s = r->dat->data[off + 0x3C];
    t->repeat_t = r->dat->data[off + 0x3D];
    t->flags = hsd_u32(r, off + 0x40);
    t->blending = hsd_f32(r, off + 0x44);
    t->mag_filter = hsd_u32(r, off + 0x48);
    t->lod_offset = hsd_raw_pointer(r, off + 0x54, path);
    t->tev_offset = hsd_raw_pointer(r, off + 0x58, path);
    snprintf(sub, sizeof sub, "%s/image", path);
    int32_t image = hsd_read_image(r, off + 0x4C, sub);
    snprintf(sub, sizeof sub, "%s/tlut", path);
    int32_t tlut = hsd_read_tlut(r, off + 0x50, sub);
    r->m->tobjs[row].image = image; /* the table may have moved: index again */
    r->m->tobjs[row].tlut = tlut;
}

/* Walks a chain of `kind` structs of `size` bytes, each with its next pointer at +4. */
int32_t hsd_walk_chain(hsd_reader *r, uint32_t field, hsd_kind kind, uint32_t size,
                       const char *base, const char *name, hsd_make_row_fn make,
                       hsd_next_of_fn next_of, int32_t chain_start, void *ctx) {
    int32_t head = UE_HSD_NONE, prev = UE_HSD_NONE;
    for (size_t i = 0; !hsd_stop(r); i++) {
        char path[192];
        snprintf(path, sizeof path, "%s/%s[%zu]", base, name, i);
        uint32_t off = 0;
        int32_t row = UE_HSD_NONE;
        if (!hsd_follow(r, field, size, true, path, &off)) break;
        bool seen = hsd_map_find(&r->map, kind, off, &row);
        if (seen && row >= chain_start) {
            ue_violation(&r->c, "hsd.chain.cycle", hsd_file_at(field), path,
                         "%s list returns to data offset 0x%x; the link is dropped", name, off);
            break;
        }
        if (!seen) row = make(r, off, path, ctx);
        if (row < 0) break;
        if (prev < 0) head = row;
        else *next_of(r, prev) = row;
        if (seen) break;
        prev = row;
        field = off + 4; /* every chained struct keeps its next pointer at +4 */
    }
    return head;
}

static int32_t make_tobj(hsd_reader *r, uint32_t off, const char *path, void *ctx) {
    (void)ctx;
    ue_hsd_model *m = r->m;
    if (!HSD_GROW(r, m->tobjs, m->tobj_count)) return UE_HSD_NONE;
    int32_t row = (int32_t)m->tobj_count++;
    memset(&m->tobjs[row], 0, sizeof m->tobjs[row]);
    m->tobjs[row].offset = off;
    m->tobjs[row].next = m->tobjs[row].image = m->tobjs[row].tlut = UE_HSD_NONE;
    if (!hsd_map_put(r, HSD_K_TOBJ, off, row)) return UE_HSD_NONE;
    tobj_fields(r, row, path);
    return row;
}

static int32_t *tobj_next(hsd_reader *r, int32_t row) { return &r->m->tobjs[row].next; }

static void mobj_fields(hsd_reader *r, ue_hsd_mobj *mo, const char *path) {
    uint32_t off = mo->offset, at = 0;
    char sub[192];
    snprintf(sub, sizeof sub, "%s/name", path);
    mo->name = hsd_read_name(r, off, sub);
    mo->render_mode = hsd_u32(r, off + 4);
    snprintf(sub, sizeof sub, "%s/material", path);
    if ((mo->has_material = hsd_follow(r, off + 0x0C, 0x14, true, sub, &at))) {
        const uint8_t *p = r->dat->data + at;
        memcpy(mo->material.ambient, p, 4);
        memcpy(mo->material.diffuse, p + 4, 4);
        memcpy(mo->material.specular, p + 8, 4);
        mo->material.alpha = hsd_f32(r, at + 0x0C);
        mo->material.shininess = hsd_f32(r, at + 0x10);
    }
    snprintf(sub, sizeof sub, "%s/pe", path);
    if ((mo->has_pe = hsd_follow(r, off + 0x14, 0x0C, true, sub, &at))) {
        const uint8_t *p = r->dat->data + at;
        ue_hsd_pe pe = {p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10], p[11]};
        mo->pe = pe;
    }
    snprintf(sub, sizeof sub, "%s/render_desc", path);
    mo->render_desc_offset = hsd_raw_pointer(r, off + 0x10, sub);
}

static int32_t read_mobj(hsd_reader *r, uint32_t field, const char *path) {
    uint32_t off = 0;
    int32_t row = UE_HSD_NONE;
    if (!hsd_follow(r, field, 0x18, true, path, &off)) return UE_HSD_NONE;
    if (hsd_map_find(&r->map, HSD_K_MOBJ, off, &row)) return row;
    ue_hsd_model *m = r->m;
    if (!HSD_GROW(r, m->mobjs, m->mobj_count) || !hsd_map_put(r, HSD_K_MOBJ, off, -1))
        return UE_HSD_NONE;
    row = (int32_t)m->mobj_count++;
    ue_hsd_mobj *mo = &m->mobjs[row];
    memset(mo, 0, sizeof *mo);
    mo->offset = off;
    mo->first_tobj = UE_HSD_NONE;
    mobj_fields(r, mo, path);
    hsd_map_put(r, HSD_K_MOBJ, off, row);
    int32_t first = hsd_walk_chain(r, off + 8, HSD_K_TOBJ, 0x5C, path, "tobj", make_tobj, tobj_next,
                               (int32_t)m->tobj_count, NULL);
    r->m->mobjs[row].first_tobj = first;
    return row;
}

/* ---- DObj lists (docs/formats/hsd-model.md#dobj) ------------------------------------------- */

typedef struct dobj_ctx {
    int32_t joint;
} dobj_ctx;

static int32_t make_dobj(hsd_reader *r, uint32_t off, const char *path, void *ctx) {
    ue_hsd_model *m = r->m;
    if (!HSD_GROW(r, m->dobjs, m->dobj_count)) return UE_HSD_NONE;
    int32_t row = (int32_t)m->dobj_count++;
    ue_hsd_dobj *dobj = &m->dobjs[row];
    memset(dobj, 0, sizeof *dobj);
    dobj->offset = off;
    dobj->next = dobj->mobj = dobj->first_pobj = UE_HSD_NONE;
    dobj->joint = ((dobj_ctx *)ctx)->joint;
    if (!hsd_map_put(r, HSD_K_DOBJ, off, row)) return UE_HSD_NONE;
    char sub[192];
    snprintf(sub, sizeof sub, "%s/name", path);
    dobj->name = hsd_read_name(r, off, sub);
    snprintf(sub, sizeof sub, "%s/mobj", path);
    int32_t mobj = read_mobj(r, off + 8, sub);
    int32_t pobj = hsd_read_pobj_chain(r, off + 0x0C, path);
    m = r->m;
    m->dobjs[row].mobj = mobj;
    m->dobjs[row].first_pobj = pobj;
    return row;
}

static int32_t *dobj_next(hsd_reader *r, int32_t row) { return &r->m->dobjs[row].next; }

void hsd_read_joint_meshes(hsd_reader *r, int32_t j) {
    const ue_hsd_joint *jt = &r->m->joints[j];
    if (jt->flags & (UE_JOBJ_SPLINE | UE_JOBJ_PTCL)) return; /* +0x10 is no DObj list */
    char base[48];
    snprintf(base, sizeof base, "dat/joint[%d]", (int)j);
    dobj_ctx ctx = {j};
    int32_t first = hsd_walk_chain(r, jt->offset + 0x10, HSD_K_DOBJ, 0x10, base, "dobj", make_dobj,
                               dobj_next, (int32_t)r->m->dobj_count, &ctx);
    r->m->joints[j].first_dobj = first;
}
