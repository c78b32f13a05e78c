/* unearth — HSD material animation trees bound to the model (docs/formats/hsd-animation.md#tree-shapes, docs/formats/hsd-animation.md#track-types, docs/formats/hsd-animation.md#texture-swaps):
 * MatAnimJoint in lock-step with the joints, MatAnim k ↔ DObj k, TexAnim ↔ TObj by id, TIMG/TCLT tables. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsd/hsd_read_anim.h"
#include "common/collections.h"

/* ---- TexAnim (docs/formats/hsd-animation.md#tree-shapes, docs/formats/hsd-animation.md#texture-swaps) ---- */

#define TEXMAPS 8 /* GXTexMapID 0..7: the ids a TObj and a TexAnim can share */

/* Fills ar->tobj_by_id: for every TObj row t and id k, the first TObj with id k on the chain that
 * starts at t. Chains may join (a chain entered mid-way links into one read before) but never
 * loop (the reader drops cycles), so each row is finished once by walking to a finished row or
 * the chain's end and filling the rows passed backwards: linear in the table, however many
 * TexAnims ask and however long the chains are. */
static bool tobj_ids(hsd_anim_reader *ar) {
    const ue_hsd_model *m = ar->r->m;
    if (ar->tobj_by_id || m->tobj_count == 0) return true;
    int32_t (*f)[TEXMAPS] = malloc(m->tobj_count * sizeof *f);
    int32_t *path = malloc(m->tobj_count * sizeof *path);
    bool *done = calloc(m->tobj_count, sizeof *done);
    if (!f || !path || !done) {
        free(f), free(path), free(done);
        hsd_nomem(ar->r);
        return false;
    }
    for (size_t start = 0; start < m->tobj_count; start++) {
        size_t n = 0;
        int32_t t = (int32_t)start;
        while (t >= 0 && (size_t)t < m->tobj_count && !done[t] && n < m->tobj_count) {
            path[n++] = t;
            t = m->tobjs[t].next;
        }
        bool tail = t >= 0 && (size_t)t < m->tobj_count && done[t];
        while (n > 0) {
            int32_t row = path[--n];
            for (uint32_t k = 0; k < TEXMAPS; k++)
                f[row][k] = m->tobjs[row].id == k ? row : tail ? f[t][k] : UE_HSD_NONE;
            done[row] = true;
            t = row, tail = true;
        }
    }
    free(path);
    free(done);
    ar->tobj_by_id = f;
    return true;
}

/* The first TObj of the DObj's material whose GXTexMapID equals `id`. By id, not by position:
 * the runtime (HSD_TObjAddAnim) matches ids, and a chain need not list its ids 0, 1, 2 … in
 * order. An id past GX's eight texture maps matches nothing. */
static int32_t tobj_with_id(hsd_anim_reader *ar, int32_t dobj, uint32_t id) {
    const ue_hsd_model *m = ar->r->m;
    int32_t mo = dobj >= 0 ? m->dobjs[dobj].mobj : UE_HSD_NONE;
    int32_t t = mo >= 0 ? m->mobjs[mo].first_tobj : UE_HSD_NONE;
    if (t < 0 || id >= TEXMAPS || !tobj_ids(ar)) return UE_HSD_NONE;
    return ar->tobj_by_id[t][id];
}

/* Reads a TIMG (images) or TCLT (tluts) table of `n` pointers into anims.images / anims.tluts:
 * each entry an Image / TLUT row shared with every other use of that struct, -1 for NULL. */
static void read_table(hsd_anim_reader *ar, uint32_t field, uint32_t n, bool images,
                       const char *path, uint32_t *first, uint32_t *count) {
    hsd_reader *r = ar->r;
    ue_hsd_anims *a = &r->m->anims;
    *first = (uint32_t)(images ? a->image_count : a->tlut_count);
    *count = 0;
    uint32_t table = 0;
    if (!hsd_follow(r, field, 4 * n, true, path, &table)) {
        if (n && !hsd_stop(r) && hsd_u32(r, field) == 0)
            ue_violation(&r->c, "hsd.anim.table", hsd_anim_file_at(field), path,
                         "TexAnim claims %u table entries but its table pointer is NULL", n);
        return;
    }
    if (n > ar->table_slots_left) {
        ue_violation(&r->c, "hsd.anim.budget", hsd_anim_file_at(field), path,
                     "texture tables add up to more entries than the file could hold; this "
                     "one (%u entries) is not read", n);
        return;
    }
    ar->table_slots_left -= n;
    int32_t **rows = images ? &a->images : &a->tluts;
    size_t *used = images ? &a->image_count : &a->tlut_count;
    size_t *cap = images ? &ar->cap_images : &ar->cap_tluts;
    if (ue_array_reserve((void **)rows, cap, *used + n, sizeof **rows, INT32_MAX) != UE_OK) {
        hsd_nomem(r);
        return;
    }
    for (uint32_t i = 0; i < n && !hsd_stop(r); i++) {
        char sub[HSD_ANIM_PATH + 16];
        snprintf(sub, sizeof sub, "%s[%u]", path, i);
        int32_t row = images ? hsd_read_image(r, table + 4 * i, sub)
                             : hsd_read_tlut(r, table + 4 * i, sub);
        (*rows)[(*used)++] = row;
        (*count)++;
    }
}

/* TIMG and TCLT keys index the TexAnim's tables (docs/formats/hsd-animation.md#track-types): a key past its table is reported and,
 * in tolerant mode, the track loses its keys (a consumer never indexes past a table). */
static void check_table_indices(hsd_anim_reader *ar, const ue_hsd_anim_target *t,
                                const char *path) {
    ue_hsd_anims *a = &ar->r->m->anims;
    const ue_hsd_aobj *ao = &a->aobjs[t->aobj];
    for (uint32_t k = ao->first_track; k < ao->first_track + ao->track_count; k++) {
        ue_hsd_track *tr = &a->tracks[k];
        if (tr->type != UE_HSD_TT_TIMG && tr->type != UE_HSD_TT_TCLT) continue;
        uint32_t size = tr->type == UE_HSD_TT_TIMG ? t->image_count : t->tlut_count;
        for (uint32_t i = tr->first_key; i < tr->first_key + tr->key_count; i++) {
            float v = a->keys[i].value;
            if (a->keys[i].op == UE_HSD_KEY_SLP || (v > -1.0f && v < (float)size)) continue;
            ue_violation(&ar->r->c, "hsd.anim.table_index", hsd_anim_file_at(tr->data_offset),
                         path, "%s key %g is outside the TexAnim's %u-entry table; the track's "
                         "keys are dropped", tr->type == UE_HSD_TT_TIMG ? "TIMG" : "TCLT",
                         (double)v, size);
            tr->key_count = 0;
            break;
        }
    }
}

/* Records the largest TIMG / TCLT key of AObj row `row` (after check_table_indices dropped any
 * out-of-range track), so later TexAnims sharing the row compare sizes only. */
static void record_table_keys(hsd_anim_reader *ar, int32_t row) {
    const ue_hsd_anims *a = &ar->r->m->anims;
    const ue_hsd_aobj *ao = &a->aobjs[row];
    hsd_table_keys *k = &ar->table_keys[row];
    k->known = true, k->max[0] = k->max[1] = -1.0f;
    for (uint32_t i = ao->first_track; i < ao->first_track + ao->track_count; i++) {
        const ue_hsd_track *tr = &a->tracks[i];
        if (tr->type != UE_HSD_TT_TIMG && tr->type != UE_HSD_TT_TCLT) continue;
        float *max = &k->max[tr->type == UE_HSD_TT_TCLT];
        for (uint32_t j = tr->first_key; j < tr->first_key + tr->key_count; j++)
            if (a->keys[j].op != UE_HSD_KEY_SLP) *max = fmaxf(*max, a->keys[j].value);
    }
}

/* The table-index check of TexAnim `t` on every use of its AObj, shared or not: the keys are
 * walked when the row is first seen by a TexAnim (or a table turns out too small, which drops
 * the track, so once per track), else the recorded maxima are compared with this TexAnim's
 * table sizes. */
static void check_texanim_aobj(hsd_anim_reader *ar, const ue_hsd_anim_target *t, const char *path) {
    if (t->aobj < 0) return;
    if (ue_array_reserve((void **)&ar->table_keys, &ar->cap_table_keys, (size_t)t->aobj + 1,
                         sizeof *ar->table_keys, INT32_MAX) != UE_OK) {
        hsd_nomem(ar->r);
        return;
    }
    const hsd_table_keys *k = &ar->table_keys[t->aobj];
    if (k->known && k->max[0] < (float)t->image_count && k->max[1] < (float)t->tlut_count) return;
    check_table_indices(ar, t, path);
    record_table_keys(ar, t->aobj);
}

static void read_texanim(hsd_anim_reader *ar, uint32_t off, int32_t joint, int32_t dobj,
                         const char *path) {
    hsd_reader *r = ar->r;
    char sub[HSD_ANIM_PATH + 16];
    uint32_t id = hsd_u32(r, off + 4);
    ue_hsd_anim_target t = {UE_HSD_ANIM_TEXTURE, off, joint, dobj,
                            tobj_with_id(ar, dobj, id), UE_HSD_NONE, id, 0, 0, 0, 0, 0};
    if (t.tobj < 0)
        ue_diag_add(r->c.d, UE_SEV_WARNING, "hsd.anim.texanim.tobj", hsd_anim_file_at(off + 4),
                    path, "no TObj of the material has id %u; the TexAnim animates nothing", id);
    snprintf(sub, sizeof sub, "%s/images", path);
    read_table(ar, off + 0x0C, hsd_u16(r, off + 0x14), true, sub, &t.first_image, &t.image_count);
    snprintf(sub, sizeof sub, "%s/tluts", path);
    read_table(ar, off + 0x10, hsd_u16(r, off + 0x16), false, sub, &t.first_tlut, &t.tlut_count);
    snprintf(sub, sizeof sub, "%s/aobj", path);
    bool fresh = false;
    t.aobj = hsd_anim_read_aobj(ar, off + 8, sub, &fresh);
    if (!hsd_stop(r)) check_texanim_aobj(ar, &t, sub);
    hsd_anim_add_target(ar, &t);
}

/* Walks a TexAnim chain (next at +0), each node read once. */
static void read_texanims(hsd_anim_reader *ar, uint32_t field, int32_t joint, int32_t dobj,
                          const char *base) {
    hsd_reader *r = ar->r;
    for (size_t i = 0; !hsd_stop(r); i++) {
        char path[HSD_ANIM_PATH];
        snprintf(path, sizeof path, "%s/texanim[%zu]", base, i);
        uint32_t off = 0;
        int32_t seen = 0;
        if (!hsd_follow(r, field, 0x18, true, path, &off)) return;
        if (hsd_map_find(&r->map, HSD_K_TEXANIM, off, &seen)) {
            ue_violation(&r->c, "hsd.anim.shared", hsd_anim_file_at(field), path,
                         "TexAnim at data offset 0x%x was reached before (a cycle or a shared "
                         "list); the link is dropped", off);
            return;
        }
        if (!hsd_map_put(r, HSD_K_TEXANIM, off, 0)) return;
        read_texanim(ar, off, joint, dobj, path);
        field = off;
    }
}

/* ---- MatAnim lists (docs/formats/hsd-animation.md#tree-shapes) ------------------------------- */

/* Walks joint `joint`'s MatAnim chain in parallel with its DObj list: the k-th MatAnim drives
 * the k-th DObj's MObj; a MatAnim past the end of the DObj list is surplus (an info: it and the
 * rest of the chain are left unread, as the runtime leaves them). */
static void bind_matanims(hsd_anim_reader *ar, uint32_t field, int32_t joint, const char *base) {
    hsd_reader *r = ar->r;
    int32_t dobj = r->m->joints[joint].first_dobj;
    for (size_t k = 0; !hsd_stop(r); k++) {
        char path[HSD_ANIM_PATH], sub[HSD_ANIM_PATH + 16];
        snprintf(path, sizeof path, "%s/matanim[%zu]", base, k);
        uint32_t off = 0;
        int32_t seen = 0;
        if (!hsd_follow(r, field, 0x10, true, path, &off)) return;
        if (hsd_map_find(&r->map, HSD_K_MATANIM, off, &seen)) {
            ue_violation(&r->c, "hsd.anim.shared", hsd_anim_file_at(field), path,
                         "MatAnim at data offset 0x%x was reached before (a cycle or a shared "
                         "list); the link is dropped", off);
            return;
        }
        if (!hsd_map_put(r, HSD_K_MATANIM, off, 0)) return;
        if (dobj < 0) {
            /* The runtime walks the DObj list and takes the MatAnim at the same place
             * (dobj.c HSD_DObjAddAnimAll): surplus MatAnims are never read. */
            ue_diag_add(r->c.d, UE_SEV_INFO, "hsd.anim.mismatch", hsd_anim_file_at(field), path,
                        "MatAnim %zu at data offset 0x%x has no DObj %zu on joint %d; the "
                        "runtime ignores it and the rest of its list, and so does unearth", k,
                        off, k, (int)joint);
            return;
        }
        snprintf(sub, sizeof sub, "%s/aobj", path);
        bool fresh = false;
        ue_hsd_anim_target t = {UE_HSD_ANIM_MATERIAL, off, joint, dobj, UE_HSD_NONE,
                                hsd_anim_read_aobj(ar, off + 4, sub, &fresh), 0, 0, 0, 0, 0, 0};
        snprintf(sub, sizeof sub, "%s/render", path);
        t.raw_offset = hsd_raw_pointer(r, off + 0x0C, sub);
        if (hsd_anim_add_target(ar, &t) < 0) return;
        read_texanims(ar, off + 8, joint, dobj, path);
        dobj = r->m->dobjs[dobj].next;
        field = off;
    }
}

/* ---- MatAnimJoint trees (docs/formats/hsd-animation.md#tree-shapes) --------------------------- */

/* A MatAnimJoint node (0x0C): its MatAnim list, parallel to the joint's DObj list. */
static bool visit_matanimjoint(hsd_anim_reader *ar, uint32_t off, int32_t joint, const char *node) {
    bind_matanims(ar, off + 8, joint, node);
    return true;
}

const hsd_anim_tree_kind hsd_matanim_tree = {HSD_K_MATANIMJOINT, 0x0C, 0, 4, "MatAnimJoint",
                                             visit_matanimjoint};
