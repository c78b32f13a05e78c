/* unearth — HSD animation trees bound to the model (docs/formats/hsd-model.md#scene-data, docs/formats/hsd-animation.md#tree-shapes, docs/formats/hsd-animation.md#root-naming): the clips of
 * each set's anims[] / matanims[] and of standalone roots, AnimJoint trees, AObj and FObj rows. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsd/hsd_read_anim.h"
#include "hsd/hsd_roots.h"
#include "common/collections.h"
#include "unearth/advanced/buffers.h"

/* Room for `need` rows in one of the anims arrays; memory running out fails the read. */
#define RESERVE(ar, items, cap, need)                                                          \
    (ue_array_reserve((void **)&(items), &(cap), (need), sizeof *(items), INT32_MAX) == UE_OK  \
         ? true                                                                                \
         : (hsd_nomem((ar)->r), false))

static bool end_frame_ok(float f) { return f >= 0.0f && f <= (float)UE_HSD_MAX_FRAMES; }

int32_t hsd_anim_add_target(hsd_anim_reader *ar, const ue_hsd_anim_target *t) {
    ue_hsd_anims *a = &ar->r->m->anims;
    if (!RESERVE(ar, a->targets, ar->cap_targets, a->target_count + 1)) return UE_HSD_NONE;
    a->targets[a->target_count] = *t;
    return (int32_t)a->target_count++;
}

/* ---- FObj tracks (docs/formats/hsd-animation.md#fobj) ---------------------------------------- */

/* Decodes the track's key stream into anims.keys. The decoder reports damage itself; strict mode
 * fails on it, tolerant mode keeps the keys before it. */
static void decode_keys(hsd_anim_reader *ar, ue_hsd_track *t, const char *path) {
    ue_hsd_anims *a = &ar->r->m->anims;
    t->first_key = (uint32_t)a->key_count;
    if (t->length > ar->key_bytes_left) {
        ue_violation(&ar->r->c, "hsd.anim.budget", hsd_anim_file_at(t->offset + 4), path,
                     "key streams add up to more bytes than the file could hold; this one "
                     "(0x%x bytes) is not decoded", t->length);
        return;
    }
    ar->key_bytes_left -= t->length;
    ue_hsd_key *keys = NULL;
    size_t n = 0;
    ue_result e = ue_hsd_keys_decode(t->data, t->length, t->value_format, t->slope_format,
                                     ar->r->c.mode, &keys, &n, ar->r->c.d, path,
                                     hsd_anim_file_at(t->data_offset));
    if (e == UE_ERR_NOMEM) hsd_nomem(ar->r);
    else if (e != UE_OK) ue_damage_reported(&ar->r->c);
    if (n && RESERVE(ar, a->keys, ar->cap_keys, a->key_count + n)) {
        memcpy(a->keys + a->key_count, keys, n * sizeof *keys);
        a->key_count += n;
        t->key_count = (uint32_t)n;
    }
    free(keys);
}

/* The key bytes of the track at `off`: a length past the data block is cut to what is readable
 * (tolerant) so the decoder names the cut. */
static bool track_data(hsd_anim_reader *ar, ue_hsd_track *t, const char *path) {
    hsd_reader *r = ar->r;
    char sub[HSD_ANIM_PATH + 8];
    hsd_path_cat(sub, sizeof sub, path, "/data");
    if (!hsd_follow(r, t->offset + 0x10, 0, false, sub, &t->data_offset)) {
        if (t->length && !hsd_stop(r))
            ue_violation(&r->c, "hsd.anim.track.data", hsd_anim_file_at(t->offset + 0x10), sub,
                         "track claims 0x%x key bytes but has no data pointer", t->length);
        t->length = 0;
        return false;
    }
    uint32_t room = r->dat->data_size - t->data_offset;
    if (t->length > room) {
        ue_violation(&r->c, "hsd.anim.track.length", hsd_anim_file_at(t->offset + 4), sub,
                     "track of 0x%x key bytes at data offset 0x%x runs past the 0x%x-byte data "
                     "block", t->length, t->data_offset, r->dat->data_size);
        t->length = room;
    }
    t->data = r->dat->data + t->data_offset;
    return true;
}

static void read_track(hsd_anim_reader *ar, uint32_t off, const char *path) {
    hsd_reader *r = ar->r;
    ue_hsd_track t = {0};
    t.offset = off;
    t.length = hsd_u32(r, off + 4);
    t.start_frame = hsd_f32(r, off + 8);
    t.type = r->dat->data[off + 0x0C];
    t.value_format = r->dat->data[off + 0x0D];
    t.slope_format = r->dat->data[off + 0x0E];
    bool keys = track_data(ar, &t, path);
    if (!(fabsf(t.start_frame) <= (float)UE_HSD_MAX_FRAMES)) {
        ue_violation(&r->c, "hsd.anim.track.start", hsd_anim_file_at(off + 8), path,
                     "start frame %g is not a frame within ±%u; the keys are dropped",
                     (double)t.start_frame, UE_HSD_MAX_FRAMES);
        t.start_frame = 0.0f;
        keys = false;
    }
    t.first_key = (uint32_t)r->m->anims.key_count;
    if (keys && !hsd_stop(r)) decode_keys(ar, &t, path);
    ue_hsd_anims *a = &r->m->anims;
    if (RESERVE(ar, a->tracks, ar->cap_tracks, a->track_count + 1)) a->tracks[a->track_count++] = t;
}

/* The AObj's track list: each FObj is read once; one reached before (a cycle, or a list shared
 * with another AObj) ends the list, since an AObj's tracks are one run of rows. */
static void read_tracks(hsd_anim_reader *ar, int32_t row, uint32_t field, const char *path) {
    hsd_reader *r = ar->r;
    uint32_t first = (uint32_t)r->m->anims.track_count;
    for (size_t i = 0; !hsd_stop(r); i++) {
        char sub[HSD_ANIM_PATH + 24];
        hsd_path_index(sub, sizeof sub, path, "/track", i);
        uint32_t off = 0;
        int32_t seen = 0;
        if (!hsd_follow(r, field, 0x14, true, sub, &off)) break;
        if (hsd_map_find(&r->map, HSD_K_FOBJ, off, &seen)) {
            ue_violation(&r->c, "hsd.anim.track.shared", hsd_anim_file_at(field), sub,
                         "track at data offset 0x%x was read before (a cycle or a list shared "
                         "by two AObjs); the list ends here", off);
            break;
        }
        if (!hsd_map_put(r, HSD_K_FOBJ, off, 0)) break;
        read_track(ar, off, sub);
        field = off; /* an FObjDesc's next pointer is at +0 */
    }
    ue_hsd_aobj *ao = &r->m->anims.aobjs[row];
    ao->first_track = first;
    ao->track_count = (uint32_t)r->m->anims.track_count - first;
}

int32_t hsd_anim_read_aobj(hsd_anim_reader *ar, uint32_t field, const char *path, bool *fresh) {
    hsd_reader *r = ar->r;
    uint32_t off = 0;
    int32_t row = UE_HSD_NONE;
    *fresh = false;
    if (!hsd_follow(r, field, 0x10, true, path, &off)) return UE_HSD_NONE;
    if (hsd_map_find(&r->map, HSD_K_AOBJ, off, &row)) return row;
    ue_hsd_anims *a = &r->m->anims;
    if (!RESERVE(ar, a->aobjs, ar->cap_aobjs, a->aobj_count + 1)) return UE_HSD_NONE;
    row = (int32_t)a->aobj_count++;
    ue_hsd_aobj *ao = &a->aobjs[row];
    memset(ao, 0, sizeof *ao);
    ao->offset = off;
    ao->flags = hsd_u32(r, off);
    ao->end_frame = hsd_f32(r, off + 4);
    ao->first_track = (uint32_t)a->track_count;
    if (!hsd_map_put(r, HSD_K_AOBJ, off, row)) return UE_HSD_NONE;
    char sub[HSD_ANIM_PATH + 8];
    hsd_path_cat(sub, sizeof sub, path, "/joint");
    uint32_t obj = hsd_raw_pointer(r, off + 0x0C, sub);
    r->m->anims.aobjs[row].obj_offset = obj;
    if (!end_frame_ok(r->m->anims.aobjs[row].end_frame))
        ue_violation(&r->c, "hsd.anim.end_frame", hsd_anim_file_at(off + 4), path,
                     "end frame %g is not a frame count 0..%u; the clip is dropped",
                     (double)r->m->anims.aobjs[row].end_frame, UE_HSD_MAX_FRAMES);
    read_tracks(ar, row, off + 8, path);
    *fresh = true;
    return row;
}

/* ---- AnimJoint trees (docs/formats/hsd-animation.md#tree-shapes) ----------------------------- */

/* Whether the node at `off` may be visited: not reached before, and bound to a joint. */
static bool tree_node_ok(hsd_anim_reader *ar, const hsd_anim_tree_kind *k, uint32_t off,
                         uint32_t from, int32_t joint, const char *here) {
    hsd_reader *r = ar->r;
    int32_t seen = 0;
    if (hsd_map_find(&r->map, k->map_kind, off, &seen)) {
        ue_violation(&r->c, "hsd.anim.shared", hsd_anim_file_at(from), here,
                     "%s at data offset 0x%x was reached before (a cycle or a shared subtree); "
                     "the link is dropped", k->name, off);
        return false;
    }
    if (!hsd_map_put(r, k->map_kind, off, 0)) return false;
    if (joint < 0) {
        /* The runtime walks the JObj tree and takes the animation node at the same place
         * (jobj.c HSD_JObjAddAnimAll): a node past the tree is never read. */
        ue_diag_add(r->c.d, UE_SEV_INFO, "hsd.anim.mismatch", hsd_anim_file_at(from), here,
                    "%s at data offset 0x%x has no joint at its place in the JObj tree; the "
                    "runtime ignores it and the nodes below and after it, and so does unearth",
                    k->name, off);
        return false;
    }
    return true;
}

void hsd_anim_walk_tree(hsd_anim_reader *ar, const hsd_anim_tree_kind *k, uint32_t off,
                        uint32_t from, int32_t joint, const char *clip, const char *where) {
    hsd_reader *r = ar->r;
    char here[HSD_ANIM_PATH];
    hsd_path_cat(here, sizeof here, where, "");
    while (!hsd_stop(r) && tree_node_ok(ar, k, off, from, joint, here)) {
        char node[HSD_ANIM_PATH], sub[HSD_ANIM_PATH + 8];
        hsd_path_index(node, sizeof node, clip, "/joint", (size_t)joint); /* joint ≥ 0 (tree_node_ok) */
        if (!k->visit(ar, off, joint, node)) return;
        const ue_hsd_joint *jt = &r->m->joints[joint];
        uint32_t child = 0;
        hsd_path_cat(sub, sizeof sub, node, "/child");
        if (!(jt->flags & UE_JOBJ_INSTANCE) &&
            hsd_follow(r, off + k->child_field, k->node_size, true, sub, &child))
            hsd_anim_walk_tree(ar, k, child, off + k->child_field, jt->first_child, clip, sub);
        hsd_path_cat(here, sizeof here, node, "/next");
        from = off + k->next_field;
        if (!hsd_follow(r, from, k->node_size, true, here, &off)) return;
        joint = jt->next_sibling;
    }
}

/* An AnimJoint node (0x14): its AObj, flags and RObjAnimJoint as one JOINT target. */
static bool visit_animjoint(hsd_anim_reader *ar, uint32_t off, int32_t joint, const char *node) {
    hsd_reader *r = ar->r;
    char sub[HSD_ANIM_PATH + 8];
    hsd_path_cat(sub, sizeof sub, node, "/aobj");
    bool fresh = false;
    ue_hsd_anim_target t = {UE_HSD_ANIM_JOINT, off, joint, UE_HSD_NONE, UE_HSD_NONE,
                            hsd_anim_read_aobj(ar, off + 8, sub, &fresh),
                            hsd_u32(r, off + 0x10), 0, 0, 0, 0, 0};
    hsd_path_cat(sub, sizeof sub, node, "/robj");
    t.raw_offset = hsd_raw_pointer(r, off + 0x0C, sub);
    return hsd_anim_add_target(ar, &t) >= 0;
}

static const hsd_anim_tree_kind animjoint_tree = {HSD_K_ANIMJOINT, 0x14, 0, 4, "AnimJoint",
                                                  visit_animjoint};

/* ---- clips ------------------------------------------------------------------------------------ */

/* The clip's end frame (the largest of its AObjs'); false when one of them is absurd. */
static bool clip_end_frame(const ue_hsd_anims *a, ue_hsd_clip *c) {
    c->end_frame = 0.0f;
    for (uint32_t i = c->first_target; i < c->first_target + c->target_count; i++) {
        int32_t ao = a->targets[i].aobj;
        if (ao < 0) continue;
        float f = a->aobjs[ao].end_frame;
        if (!end_frame_ok(f)) return false;
        if (f > c->end_frame) c->end_frame = f;
    }
    return true;
}

static void add_clip(hsd_anim_reader *ar, const ue_hsd_clip *c) {
    ue_hsd_model *m = ar->r->m;
    if (ue_array_make_room((void **)&m->anims.clips, m->anims.clip_count, sizeof *m->anims.clips,
                           INT32_MAX) != UE_OK) {
        hsd_nomem(ar->r);
        return;
    }
    m->anims.clips[m->anims.clip_count++] = *c;
}

/* The clip whose tree root sits at `root`: bound to set `set`'s joints. A root another clip of
 * the same set read before gives the same targets; a clip with an absurd end frame is dropped
 * (its targets too), the other clips stay. */
static void read_clip(hsd_anim_reader *ar, const ue_hsd_clip *proto, uint32_t root,
                      uint32_t from, const char *path) {
    hsd_reader *r = ar->r;
    ue_hsd_anims *a = &r->m->anims;
    ue_hsd_clip c = *proto;
    int32_t before = 0;
    c.offset = root;
    if (hsd_map_find(&r->map, HSD_K_CLIPROOT, root, &before) && before >= 0 &&
        a->clips[before].set == c.set && a->clips[before].material == c.material) {
        c.first_target = a->clips[before].first_target;
        c.target_count = a->clips[before].target_count;
        c.end_frame = a->clips[before].end_frame;
        add_clip(ar, &c);
        return;
    }
    c.first_target = (uint32_t)a->target_count;
    int32_t joint = r->m->sets[c.set].root_joint;
    hsd_anim_walk_tree(ar, c.material ? &hsd_matanim_tree : &animjoint_tree, root, from, joint, path,
                       path);
    a = &r->m->anims;
    c.target_count = (uint32_t)a->target_count - c.first_target;
    if (!clip_end_frame(a, &c)) {
        a->target_count = c.first_target; /* only this clip read these rows */
        hsd_map_put(r, HSD_K_CLIPROOT, root, UE_HSD_NONE);
        return;
    }
    if (!hsd_map_put(r, HSD_K_CLIPROOT, root, (int32_t)a->clip_count)) return;
    add_clip(ar, &c);
}

/* Walks a NULL-terminated array of tree roots (ModelSet +4 / +8 / +0xC). Each slot is read once
 * whatever number of sets name the array. `proto` NULL only counts (shape animations). */
static size_t read_array(hsd_anim_reader *ar, uint32_t array, const ue_hsd_clip *proto,
                         const char *base) {
    hsd_reader *r = ar->r;
    size_t i = 0;
    for (; !hsd_stop(r); i++) {
        uint32_t slot = array + 4 * (uint32_t)i, target = 0;
        int32_t seen = 0;
        if ((uint64_t)slot + 4 > r->dat->data_size) {
            ue_violation(&r->c, "hsd.anim.array", hsd_anim_file_at(array), base,
                         "animation array at data offset 0x%x has no NULL end", array);
            break;
        }
        if (hsd_map_find(&r->map, HSD_K_ANIMSLOT, slot, &seen) ||
            !hsd_map_put(r, HSD_K_ANIMSLOT, slot, 0))
            break;
        char path[HSD_ANIM_PATH];
        snprintf(path, sizeof path, "%s[%zu]", base, i);
        bool present = false;
        if (ue_dat_read_pointer(r->dat, slot, &present, &target) == UE_OK && !present) break;
        if (!proto) continue; /* counted only; a broken slot is no end either */
        ue_hsd_clip c = *proto;
        c.index = (uint32_t)i;
        /* a broken slot is reported and skipped: the indices after it keep their numbers */
        if (hsd_follow(r, slot, c.material ? 0x0C : 0x14, true, path, &target))
            read_clip(ar, &c, target, slot, path);
    }
    return i;
}

static void read_set_anims(hsd_anim_reader *ar, uint32_t s) {
    hsd_reader *r = ar->r;
    const ue_hsd_model_set *set = &r->m->sets[s];
    if (ue_hsd_root_kind_of(set->root_name) != UE_HSD_ROOT_SCENE_DATA) return;
    uint32_t arrays[2] = {set->anim_joints_offset, set->matanim_joints_offset};
    uint32_t shape = set->shapeanim_joints_offset;
    static const char *const names[2] = {"anims", "matanims"};
    for (uint32_t k = 0; k < 2 && !hsd_stop(r); k++) {
        if (!arrays[k]) continue;
        char base[HSD_ANIM_PATH];
        snprintf(base, sizeof base, "dat/scene/model[%u]/%s", s, names[k]);
        ue_hsd_clip proto = {s, 0, k == 1, NULL, 0, 0.0f, 0, 0, false};
        read_array(ar, arrays[k], &proto, base);
    }
    if (shape && !hsd_stop(r)) {
        char base[HSD_ANIM_PATH];
        snprintf(base, sizeof base, "dat/scene/model[%u]/shapeanims", s);
        size_t n = read_array(ar, shape, NULL, base);
        ue_diag_add(r->c.d, UE_SEV_INFO, "hsd.anim.shapeanim", hsd_anim_file_at(shape), base,
                    "%zu shape animation tree(s) kept raw, not read", n);
    }
}

/* The `*_joint` sets by stem, built once: binding a root is then a binary search, so many
 * roots over many sets stay O(n log n). */
typedef struct stem_entry {
    const char *name;
    size_t stem;
    uint32_t set;
} stem_entry;

typedef struct stem_index {
    stem_entry *e;
    size_t count;
    uint32_t first; /* the first `*_joint` set, else 0 */
} stem_index;

static int stem_cmp_parts(const char *a, size_t an, const char *b, size_t bn) {
    int c = memcmp(a, b, an < bn ? an : bn);
    return c ? c : (an > bn) - (an < bn);
}

/* By stem, then by set: the first set of a stem is the one a root binds to. */
static int stem_order(const void *pa, const void *pb) {
    const stem_entry *a = pa, *b = pb;
    int c = stem_cmp_parts(a->name, a->stem, b->name, b->stem);
    return c ? c : (a->set > b->set) - (a->set < b->set);
}

static bool stem_index_build(const ue_hsd_model *m, stem_index *ix) {
    memset(ix, 0, sizeof *ix);
    ix->first = UINT32_MAX;
    ix->e = ue_calloc_items(m->set_count, sizeof *ix->e);
    if (!ix->e) return false;
    for (size_t s = 0; s < m->set_count; s++) {
        const char *joint = m->sets[s].root_name;
        if (ue_hsd_root_kind_of(joint) != UE_HSD_ROOT_JOINT) continue;
        ix->e[ix->count++] = (stem_entry){joint, hsd_root_stem_len(joint), (uint32_t)s};
        if (ix->first == UINT32_MAX) ix->first = (uint32_t)s;
    }
    if (ix->first == UINT32_MAX) ix->first = 0;
    qsort(ix->e, ix->count, sizeof *ix->e, stem_order);
    return true;
}

/* The set a standalone root binds to (docs/formats/hsd-animation.md#root-naming): the `*_joint` set of the same stem, so
 * "x_matanim_joint" animates "x_joint" as a ModelSet's arrays animate its joint; else the first
 * `*_joint` set (as ADDON attaches them), else the first set. */
static uint32_t standalone_set(const stem_index *ix, const char *name) {
    size_t stem = hsd_root_stem_len(name), lo = 0, hi = ix->count;
    while (lo < hi) { /* the first entry not below the stem */
        size_t mid = lo + (hi - lo) / 2;
        if (stem_cmp_parts(ix->e[mid].name, ix->e[mid].stem, name, stem) < 0) lo = mid + 1;
        else hi = mid;
    }
    if (lo < ix->count && stem_cmp_parts(ix->e[lo].name, ix->e[lo].stem, name, stem) == 0) return ix->e[lo].set;
    return ix->first;
}

/* `*_animjoint` and `*_matanim_joint` roots: one clip each, bound to their set and numbered per
 * set and kind in root order, so a set's k-th animjoint and k-th matanim_joint roots pair up as
 * a ModelSet's anims[k] and matanims[k] do. Shape animation roots are counted, not read. */
static void read_standalone_roots(hsd_anim_reader *ar) {
    hsd_reader *r = ar->r;
    uint32_t *counts = calloc(2 * r->m->set_count, sizeof *counts); /* per set: skeletal, material */
    stem_index ix;
    if (!stem_index_build(r->m, &ix) || !counts) {
        free(counts), free(ix.e);
        hsd_nomem(r);
        return;
    }
    for (size_t i = 0; i < r->dat->root_count && !hsd_stop(r); i++) {
        const ue_dat_symbol *root = &r->dat->roots[i];
        ue_hsd_root_kind kind = ue_hsd_root_kind_of(root->name);
        if (root->damaged) continue;
        if (kind == UE_HSD_ROOT_SHAPEANIM_JOINT)
            ue_diag_add(r->c.d, UE_SEV_INFO, "hsd.anim.shapeanim",
                        hsd_anim_file_at(root->data_offset), "dat/root",
                        "shape animation root \"%s\" of model %u kept raw, not read", root->name,
                        standalone_set(&ix, root->name));
        if (kind != UE_HSD_ROOT_ANIMJOINT && kind != UE_HSD_ROOT_MATANIM_JOINT) continue;
        uint32_t set = standalone_set(&ix, root->name);
        bool material = kind == UE_HSD_ROOT_MATANIM_JOINT;
        ue_hsd_clip c = {set, counts[2 * set + material]++, material, root->name, 0, 0.0f, 0, 0, false};
        char path[HSD_ANIM_PATH];
        snprintf(path, sizeof path, "dat/root[%zu]", i);
        uint32_t off = root->data_offset, size = material ? 0x0Cu : 0x14u;
        if (off % 4 != 0 || (uint64_t)off + size > r->dat->data_size) {
            ue_violation(&r->c, "hsd.root", hsd_anim_file_at(off), path,
                         "root \"%s\" names data offset 0x%x, not a 4-aligned 0x%x-byte struct "
                         "inside the data block", root->name, off, size);
            continue;
        }
        read_clip(ar, &c, off, off, path);
    }
    free(ix.e);
    free(counts);
}

void hsd_read_anims(hsd_reader *r) {
    hsd_anim_reader ar;
    memset(&ar, 0, sizeof ar);
    ar.r = r;
    ar.key_bytes_left = 2ull * r->dat->data_size + 0x10000u;
    ar.table_slots_left = r->dat->data_size / 4u + 1u;
    for (size_t s = 0; s < r->m->set_count && !hsd_stop(r); s++) read_set_anims(&ar, (uint32_t)s);
    if (r->m->set_count && !hsd_stop(r)) read_standalone_roots(&ar);
    free(ar.tobj_by_id);
    free(ar.table_keys);
}

void hsd_anims_free(ue_hsd_anims *a) {
    free(a->clips);
    free(a->targets);
    free(a->aobjs);
    free(a->tracks);
    free(a->keys);
    free(a->images);
    free(a->tluts);
    memset(a, 0, sizeof *a);
}
