/* unearth — the HSD model writer's animation part (docs/formats/hsd-animation.md#tree-shapes, docs/formats/hsd-model.md#scene-data): AnimJoint and
 * MatAnimJoint → MatAnim → TexAnim trees rebuilt from a model's anim rows, AObjs, FObjs, keys. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsd/hsd_write_anim.h"

#define NOWHERE HSD_WRITE_NOWHERE

/* Struct sizes of docs/formats/hsd-animation.md#tree-shapes. */
#define ANIMJOINT_SIZE 0x14u
#define MATANIMJOINT_SIZE 0x0Cu
#define MATANIM_SIZE 0x10u
#define TEXANIM_SIZE 0x18u
#define AOBJ_SIZE 0x10u
#define FOBJ_SIZE 0x14u

/* Per-joint and per-DObj scratch shared by the check and the writer. Work per clip follows its
 * rows (and the nodes they need), never the whole joint table, so many clips stay linear. */
typedef struct anim_scratch {
    const ue_hsd_model *m;
    int32_t *prev_sibling;   /* per joint: the joint whose next_sibling it is, or -1 */
    int32_t *set_of;         /* per joint: the set whose tree holds it (first one), or -1 */
    int32_t *stack;          /* DFS stack, 2·joints + 1 */
    int32_t *joint_row;      /* per joint: the clip's JOINT row, -1 */
    int32_t *dobj_row;       /* per DObj: the clip's MATERIAL row, -1 */
    uint8_t *mark;           /* per joint: has a node in the current clip / was visited */
    uint32_t *marked;        /* the joints marked, in marking order */
    size_t marked_count;
} anim_scratch;

static bool link_ok(int32_t index, size_t count) {
    return index == UE_HSD_NONE || (index >= 0 && (size_t)index < count);
}
static bool range_ok(uint32_t first, uint32_t n, size_t count) {
    return first <= count && n <= count - first;
}

static ue_result bad(ue_diag *d, const char *what, size_t row, const char *msg) {
    char path[64];
    snprintf(path, sizeof path, "model/anims/%s[%zu]", what, row);
    ue_diag_add(d, UE_SEV_ERROR, "hsd.write.anim", UE_NO_OFFSET, path, "%s", msg);
    return UE_ERR_USAGE;
}

static void scratch_free(anim_scratch *s) {
    free(s->prev_sibling);
    free(s->set_of);
    free(s->stack);
    free(s->joint_row);
    free(s->dobj_row);
    free(s->mark);
    free(s->marked);
}

/* Every set's tree walked once (child before next sibling); a joint keeps its first set. */
static void assign_sets(anim_scratch *s) {
    const ue_hsd_model *m = s->m;
    for (size_t i = 0; i < m->set_count; i++) {
        size_t top = 0;
        s->stack[top++] = m->sets[i].root_joint;
        while (top) {
            int32_t j = s->stack[--top];
            if (j < 0 || s->set_of[j] >= 0) continue;
            s->set_of[j] = (int32_t)i;
            s->stack[top++] = m->joints[j].next_sibling;
            s->stack[top++] = m->joints[j].first_child;
        }
    }
}

static bool scratch_init(anim_scratch *s, const ue_hsd_model *m) {
    size_t nj = m->joint_count ? m->joint_count : 1, nd = m->dobj_count ? m->dobj_count : 1;
    memset(s, 0, sizeof *s);
    s->m = m;
    s->prev_sibling = malloc(nj * sizeof *s->prev_sibling);
    s->set_of = malloc(nj * sizeof *s->set_of);
    s->stack = malloc((2 * nj + 1) * sizeof *s->stack);
    s->joint_row = malloc(nj * sizeof *s->joint_row);
    s->dobj_row = malloc(nd * sizeof *s->dobj_row);
    s->mark = calloc(nj, 1);
    s->marked = malloc(nj * sizeof *s->marked);
    if (!s->prev_sibling || !s->set_of || !s->stack || !s->joint_row || !s->dobj_row ||
        !s->mark || !s->marked) {
        scratch_free(s);
        return false;
    }
    for (size_t i = 0; i < m->joint_count; i++) {
        s->prev_sibling[i] = s->set_of[i] = s->joint_row[i] = -1;
    }
    for (size_t i = 0; i < m->joint_count; i++)
        if (m->joints[i].next_sibling >= 0) s->prev_sibling[m->joints[i].next_sibling] = (int32_t)i;
    for (size_t i = 0; i < m->dobj_count; i++) s->dobj_row[i] = -1;
    assign_sets(s);
    return true;
}

static void mark_joint(anim_scratch *s, int32_t j) {
    s->mark[j] = 1;
    s->marked[s->marked_count++] = (uint32_t)j;
}
static void unmark_all(anim_scratch *s) {
    for (size_t i = 0; i < s->marked_count; i++) s->mark[s->marked[i]] = 0;
    s->marked_count = 0;
}

/* The nodes a MatAnimJoint tree needs so the lock-step walk of docs/formats/hsd-animation.md#tree-shapes reaches joint j: j, its
 * ancestors up to the set's root, and every previous sibling of each (a missing node ends the
 * walk there). Stops at a joint already marked: its own chain was marked with it. */
static void mark_reach(anim_scratch *s, int32_t j, int32_t root, int32_t set) {
    while (j >= 0 && s->set_of[j] == set && !s->mark[j]) {
        mark_joint(s, j);
        for (int32_t p = s->prev_sibling[j]; p >= 0 && s->set_of[p] == set && !s->mark[p];
             p = s->prev_sibling[p])
            mark_joint(s, p);
        if (j == root) break;
        j = s->m->joints[j].parent;
    }
}

/* ---- checks ----------------------------------------------------------------------------------- */

static ue_result check_rows(const ue_hsd_model *m, ue_diag *d) {
    const ue_hsd_anims *a = &m->anims;
    for (size_t i = 0; i < a->track_count; i++)
        if (a->tracks[i].length && !a->tracks[i].data)
            return bad(d, "track", i, "a track has a length but no key bytes");
    for (size_t i = 0; i < a->aobj_count; i++)
        if (!range_ok(a->aobjs[i].first_track, a->aobjs[i].track_count, a->track_count))
            return bad(d, "aobj", i, "an AObj's tracks are outside the table");
    for (size_t i = 0; i < a->image_count; i++)
        if (!link_ok(a->images[i], m->image_count)) return bad(d, "image", i, "not an image row");
    for (size_t i = 0; i < a->tlut_count; i++)
        if (!link_ok(a->tluts[i], m->tlut_count)) return bad(d, "tlut", i, "not a palette row");
    return UE_OK;
}

static ue_result check_target(const ue_hsd_model *m, const ue_hsd_clip *c, size_t i, ue_diag *d) {
    const ue_hsd_anim_target *t = &m->anims.targets[i];
    bool material_kind = t->kind == UE_HSD_ANIM_MATERIAL || t->kind == UE_HSD_ANIM_TEXTURE;
    if (t->kind != UE_HSD_ANIM_JOINT && !material_kind)
        return bad(d, "target", i, "unknown target kind");
    if (material_kind != c->material)
        return bad(d, "target", i, "a target's kind does not match its clip's tree");
    if (t->joint < 0 || (size_t)t->joint >= m->joint_count || !link_ok(t->aobj, m->anims.aobj_count))
        return bad(d, "target", i, "a target link is outside the tables");
    if (!material_kind) return UE_OK;
    if (t->dobj < 0 || (size_t)t->dobj >= m->dobj_count || m->dobjs[t->dobj].joint != t->joint)
        return bad(d, "target", i, "a material target needs a DObj of its joint");
    if (t->kind == UE_HSD_ANIM_TEXTURE &&
        (!range_ok(t->first_image, t->image_count, m->anims.image_count) ||
         !range_ok(t->first_tlut, t->tlut_count, m->anims.tlut_count) || t->image_count > 0xFFFFu ||
         t->tlut_count > 0xFFFFu))
        return bad(d, "target", i, "a TexAnim table is outside the tables");
    return UE_OK;
}

/* A standalone clip has its own root; the others fill one slot of a ModelSet array each: per
 * (set, tree kind) the indices are 0 … n−1, each once. */
static ue_result check_clip_slots(const ue_hsd_model *m, ue_diag *d) {
    const ue_hsd_anims *a = &m->anims;
    uint32_t *count = calloc(2 * m->set_count + 1, sizeof *count), *base = NULL;
    uint8_t *seen = calloc(a->clip_count, 1);
    ue_result r = count && seen ? UE_OK : UE_ERR_NOMEM;
    for (size_t i = 0; i < a->clip_count && r == UE_OK; i++) {
        const ue_hsd_clip *c = &a->clips[i];
        if (c->set >= m->set_count || !range_ok(c->first_target, c->target_count, a->target_count) ||
            !c->target_count)
            r = bad(d, "clip", i, "a clip needs a set and at least one target row");
        else if (c->root_name && !c->root_name[0])
            r = bad(d, "clip", i, "a standalone clip's root name is empty");
        else if (!c->root_name && strcmp(m->sets[c->set].root_name, "scene_data") != 0)
            r = bad(d, "clip", i, "only a scene_data set has ModelSet animation arrays");
        else if (!c->root_name)
            count[2 * c->set + c->material]++;
    }
    base = r == UE_OK ? calloc(2 * m->set_count + 1, sizeof *base) : NULL;
    if (r == UE_OK && !base) r = UE_ERR_NOMEM;
    for (size_t k = 1; r == UE_OK && k < 2 * m->set_count; k++) base[k] = base[k - 1] + count[k - 1];
    for (size_t i = 0; i < a->clip_count && r == UE_OK; i++) {
        const ue_hsd_clip *c = &a->clips[i];
        size_t slot = 2 * c->set + c->material;
        if (c->root_name) continue;
        if (c->index >= count[slot]) r = bad(d, "clip", i, "a hole in the clip indices before this one");
        else if (seen[base[slot] + c->index]++) r = bad(d, "clip", i, "two clips share one array index");
    }
    free(count);
    free(base);
    free(seen);
    return r;
}

/* AnimJoint: every row's joint must be reached by the lock-step walk: its parent and its
 * previous sibling have nodes too (a missing node ends the walk there). */
static ue_result check_joint_tree(anim_scratch *s, const ue_hsd_clip *c, ue_diag *d) {
    const ue_hsd_anim_target *t = c->target_count ? s->m->anims.targets + c->first_target : NULL;
    int32_t set = (int32_t)c->set, root = s->m->sets[set].root_joint;
    ue_result r = UE_OK;
    uint32_t k = 0;
    for (; k < c->target_count && r == UE_OK; k++) {
        if (s->set_of[t[k].joint] != set) r = bad(d, "target", c->first_target + k, "joint outside the set");
        else if (s->joint_row[t[k].joint] >= 0)
            r = bad(d, "target", c->first_target + k, "two AnimJoint rows on one joint");
        else s->joint_row[t[k].joint] = (int32_t)(c->first_target + k);
    }
    uint32_t filled = r == UE_OK ? k : k - 1;
    if (r == UE_OK && s->joint_row[root] < 0)
        r = bad(d, "clip", (size_t)(c - s->m->anims.clips), "no row on the set's root joint");
    for (uint32_t q = 0; q < c->target_count && r == UE_OK; q++) {
        int32_t j = t[q].joint, p = s->m->joints[j].parent, prev = s->prev_sibling[j];
        if (j == root) continue;
        if ((p >= 0 && s->set_of[p] == set && s->joint_row[p] < 0) ||
            (prev >= 0 && s->set_of[prev] == set && s->joint_row[prev] < 0))
            r = bad(d, "target", c->first_target + q,
                    "the lock-step walk cannot reach this joint (its parent or previous sibling has no row)");
    }
    for (uint32_t q = 0; q < filled; q++) s->joint_row[t[q].joint] = -1;
    return r;
}

/* MatAnims are parallel to their joint's DObj list: the rows of a joint must be its first k
 * DObjs. TexAnim rows hang on the MatAnim row of their DObj, which comes first. */
static ue_result check_material_tree(anim_scratch *s, const ue_hsd_clip *c, ue_diag *d) {
    const ue_hsd_model *m = s->m;
    const ue_hsd_anim_target *t = c->target_count ? m->anims.targets + c->first_target : NULL;
    ue_result r = UE_OK;
    size_t mats = 0, covered = 0;
    for (uint32_t k = 0; k < c->target_count && r == UE_OK; k++) {
        size_t row = c->first_target + k;
        if (s->set_of[t[k].joint] != (int32_t)c->set) r = bad(d, "target", row, "joint outside the set");
        else if (t[k].kind == UE_HSD_ANIM_TEXTURE && s->dobj_row[t[k].dobj] < 0)
            r = bad(d, "target", row, "a TexAnim row before (or without) its MatAnim row");
        else if (t[k].kind == UE_HSD_ANIM_MATERIAL && s->dobj_row[t[k].dobj] >= 0)
            r = bad(d, "target", row, "two MatAnim rows on one DObj");
        else if (t[k].kind == UE_HSD_ANIM_MATERIAL) {
            s->dobj_row[t[k].dobj] = (int32_t)row;
            mats++;
        }
    }
    for (uint32_t k = 0; k < c->target_count && r == UE_OK; k++) {
        int32_t j = t[k].joint;
        if (t[k].kind != UE_HSD_ANIM_MATERIAL || s->mark[j]) continue;
        mark_joint(s, j); /* each joint's list walked once */
        int32_t o = m->joints[j].first_dobj;
        for (size_t n = 0; o >= 0 && n < m->dobj_count && s->dobj_row[o] >= 0; n++, covered++)
            o = m->dobjs[o].next;
    }
    unmark_all(s);
    if (r == UE_OK && covered != mats)
        r = bad(d, "clip", (size_t)(c - m->anims.clips),
                "MatAnim rows must cover the first DObjs of their joint's list");
    for (uint32_t k = 0; k < c->target_count; k++)
        if (t[k].dobj >= 0 && (size_t)t[k].dobj < m->dobj_count) s->dobj_row[t[k].dobj] = -1;
    return r;
}

ue_result hsd_write_anims_check(const ue_hsd_model *m, ue_diag *d) {
    const ue_hsd_anims *a = &m->anims;
    if (!a->clip_count) return UE_OK;
    ue_result r = check_rows(m, d);
    if (r == UE_OK) r = check_clip_slots(m, d);
    for (size_t i = 0; i < a->clip_count && r == UE_OK; i++)
        for (uint32_t k = 0; k < a->clips[i].target_count && r == UE_OK; k++)
            r = check_target(m, &a->clips[i], a->clips[i].first_target + k, d);
    if (r != UE_OK) return r;
    anim_scratch s;
    if (!scratch_init(&s, m)) return UE_ERR_NOMEM;
    for (size_t i = 0; i < a->clip_count && r == UE_OK; i++)
        r = a->clips[i].material ? check_material_tree(&s, &a->clips[i], d)
                                 : check_joint_tree(&s, &a->clips[i], d);
    scratch_free(&s);
    return r;
}

/* ---- writing ---------------------------------------------------------------------------------- */

typedef struct anim_writer {
    ue_dat_builder *b;
    const ue_hsd_model *m;
    const hsd_anim_links *l;
    anim_scratch s;
    uint32_t *aobj_at;       /* per AObj row, placed once however many nodes share it */
    uint32_t *track_at;      /* per track row */
    uint32_t *target_at;     /* per target row: its AnimJoint / MatAnim / TexAnim */
    uint32_t *node_at;       /* per joint: the current clip's AnimJoint / MatAnimJoint */
    uint32_t *tail;          /* per MatAnim row: where its next TexAnim pointer goes */
    uint32_t *clip_root;     /* per clip: the tree's root node */
} anim_writer;

static uint32_t place(anim_writer *w, size_t size) {
    return ue_datb_alloc(w->b, size, UE_DATB_STRUCT_ALIGN);
}
static void point(anim_writer *w, uint32_t field, uint32_t target) {
    if (target != NOWHERE) ue_datb_pointer(w->b, field, target);
}

/* One FObjDesc (docs/formats/hsd-animation.md#fobj) with its key bytes exactly as the row stores them. */
static void write_track(anim_writer *w, uint32_t i) {
    const ue_hsd_track *t = &w->m->anims.tracks[i];
    uint32_t at = w->track_at[i] = place(w, FOBJ_SIZE);
    ue_datb_u32(w->b, at + 0x04, t->length);
    ue_datb_f32(w->b, at + 0x08, t->start_frame);
    ue_datb_u8(w->b, at + 0x0C, t->type);
    ue_datb_u8(w->b, at + 0x0D, t->value_format);
    ue_datb_u8(w->b, at + 0x0E, t->slope_format);
    if (t->length) point(w, at + 0x10, ue_datb_put(w->b, t->data, t->length, 0, UE_DATB_STRUCT_ALIGN));
}

/* An AObj and its track list; the PATH joint (+0x0C) is not carried over (docs/hsd-animation.md). */
static uint32_t aobj_ptr(anim_writer *w, int32_t i) {
    if (i < 0) return NOWHERE;
    if (w->aobj_at[i] != NOWHERE) return w->aobj_at[i];
    const ue_hsd_aobj *a = &w->m->anims.aobjs[i];
    uint32_t at = w->aobj_at[i] = place(w, AOBJ_SIZE);
    ue_datb_u32(w->b, at + 0x00, a->flags);
    ue_datb_f32(w->b, at + 0x04, a->end_frame);
    uint32_t field = at + 0x08;
    for (uint32_t k = 0; k < a->track_count; k++) {
        uint32_t t = a->first_track + k;
        if (w->track_at[t] == NOWHERE) write_track(w, t);
        point(w, field, w->track_at[t]);
        field = w->track_at[t]; /* the next FObj goes into this one's +0x00 */
    }
    return at;
}

/* Child and next links of the current clip's nodes (AnimJoint and MatAnimJoint alike): the
 * marked joints of one set, whose nodes are in node_at. */
static void link_nodes(anim_writer *w) {
    const ue_hsd_model *m = w->m;
    for (size_t i = 0; i < w->s.marked_count; i++) {
        uint32_t j = w->s.marked[i];
        int32_t child = m->joints[j].first_child, next = m->joints[j].next_sibling;
        if (child >= 0 && w->s.mark[child]) point(w, w->node_at[j] + 0x00, w->node_at[child]);
        if (next >= 0 && w->s.mark[next]) point(w, w->node_at[j] + 0x04, w->node_at[next]);
    }
}

static void write_joint_clip(anim_writer *w, const ue_hsd_clip *c) {
    const ue_hsd_anim_target *t = c->target_count ? w->m->anims.targets + c->first_target : NULL;
    for (uint32_t k = 0; k < c->target_count; k++) {
        mark_joint(&w->s, t[k].joint);
        w->node_at[t[k].joint] = w->target_at[c->first_target + k] = place(w, ANIMJOINT_SIZE);
    }
    link_nodes(w);
    for (uint32_t k = 0; k < c->target_count; k++) {
        uint32_t at = w->target_at[c->first_target + k];
        point(w, at + 0x08, aobj_ptr(w, t[k].aobj));
        ue_datb_u32(w->b, at + 0x10, t[k].flags);
    }
}

/* The image / palette pointer table of a TexAnim: NULL entries stay unrelocated zeros. */
/* Rows first..first+n of `rows`, which is NULL when the model has no table entry at all (so no
 * pointer arithmetic on it unless n > 0). */
static uint32_t table(anim_writer *w, const int32_t *rows, uint32_t first, uint32_t n, const uint32_t *row_at) {
    if (!n) return NOWHERE;
    uint32_t at = place(w, (size_t)n * 4);
    for (uint32_t k = 0; k < n; k++)
        if (rows[(size_t)first + k] >= 0) point(w, at + 4 * k, row_at[rows[(size_t)first + k]]);
    return at;
}

static void fill_texanim(anim_writer *w, size_t row) {
    const ue_hsd_anims *a = &w->m->anims;
    const ue_hsd_anim_target *t = &a->targets[row];
    uint32_t at = w->target_at[row];
    ue_datb_u32(w->b, at + 0x04, t->flags);
    point(w, at + 0x08, aobj_ptr(w, t->aobj));
    point(w, at + 0x0C, table(w, a->images, t->first_image, t->image_count, w->l->image_at));
    point(w, at + 0x10, table(w, a->tluts, t->first_tlut, t->tlut_count, w->l->tlut_at));
    ue_datb_u16(w->b, at + 0x14, (uint16_t)t->image_count);
    ue_datb_u16(w->b, at + 0x16, (uint16_t)t->tlut_count);
}

/* MatAnim k ↔ DObj k of the joint's list; each MatAnim's TexAnims listed in row order (tail[row]
 * is the field the next TexAnim of MatAnim row `row` goes into). */
static void fill_material_rows(anim_writer *w, const ue_hsd_clip *c) {
    const ue_hsd_model *m = w->m;
    const ue_hsd_anim_target *t = c->target_count ? m->anims.targets + c->first_target : NULL;
    for (uint32_t k = 0; k < c->target_count; k++) {
        size_t row = c->first_target + k;
        if (t[k].kind == UE_HSD_ANIM_MATERIAL) {
            w->s.dobj_row[t[k].dobj] = (int32_t)row;
            w->tail[row] = w->target_at[row] + 0x08;
            point(w, w->target_at[row] + 0x04, aobj_ptr(w, t[k].aobj));
            continue;
        }
        fill_texanim(w, row);
        size_t mat = (size_t)w->s.dobj_row[t[k].dobj];
        point(w, w->tail[mat], w->target_at[row]);
        w->tail[mat] = w->target_at[row] + 0x00;
    }
    for (size_t i = 0; i < w->s.marked_count; i++) {
        uint32_t j = w->s.marked[i], field = w->node_at[j] + 0x08;
        int32_t o = m->joints[j].first_dobj;
        for (size_t n = 0; o >= 0 && n < m->dobj_count && w->s.dobj_row[o] >= 0; n++) {
            point(w, field, w->target_at[w->s.dobj_row[o]]);
            field = w->target_at[w->s.dobj_row[o]] + 0x00;
            o = m->dobjs[o].next;
        }
    }
    for (uint32_t k = 0; k < c->target_count; k++) w->s.dobj_row[t[k].dobj] = -1;
}

static void write_material_clip(anim_writer *w, const ue_hsd_clip *c) {
    const ue_hsd_anim_target *t = c->target_count ? w->m->anims.targets + c->first_target : NULL;
    int32_t set = (int32_t)c->set, root = w->m->sets[set].root_joint;
    for (uint32_t k = 0; k < c->target_count; k++) mark_reach(&w->s, t[k].joint, root, set);
    for (size_t i = 0; i < w->s.marked_count; i++)
        w->node_at[w->s.marked[i]] = place(w, MATANIMJOINT_SIZE);
    for (uint32_t k = 0; k < c->target_count; k++)
        w->target_at[c->first_target + k] =
            place(w, t[k].kind == UE_HSD_ANIM_MATERIAL ? MATANIM_SIZE : TEXANIM_SIZE);
    link_nodes(w);
    fill_material_rows(w, c);
}

/* A ModelSet's NULL-terminated anims[] (+0x04) or matanims[] (+0x08), index = array slot. */
static void set_array(anim_writer *w, size_t set, bool material) {
    const ue_hsd_anims *a = &w->m->anims;
    uint32_t n = 0;
    for (size_t i = 0; i < a->clip_count; i++)
        n += a->clips[i].set == set && !a->clips[i].root_name && a->clips[i].material == material;
    if (!n || w->l->set_at[set] == NOWHERE) return;
    uint32_t at = place(w, ((size_t)n + 1) * 4);
    for (size_t i = 0; i < a->clip_count; i++) {
        const ue_hsd_clip *c = &a->clips[i];
        if (c->set == set && !c->root_name && c->material == material)
            point(w, at + 4 * c->index, w->clip_root[i]);
    }
    point(w, w->l->set_at[set] + (material ? 0x08u : 0x04u), at);
}

static bool writer_alloc(anim_writer *w) {
    const ue_hsd_anims *a = &w->m->anims;
    struct { uint32_t **p; size_t n; } t[] = {
        {&w->aobj_at, a->aobj_count},     {&w->track_at, a->track_count},
        {&w->target_at, a->target_count}, {&w->node_at, w->m->joint_count},
        {&w->clip_root, a->clip_count},   {&w->tail, a->target_count},
    };
    bool ok = scratch_init(&w->s, w->m);
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        size_t n = t[i].n ? t[i].n : 1;
        *t[i].p = malloc(n * sizeof(uint32_t));
        if (*t[i].p) memset(*t[i].p, 0xFF, n * sizeof(uint32_t)); /* NOWHERE */
        ok = ok && *t[i].p;
    }
    return ok;
}

static void writer_free(anim_writer *w) {
    scratch_free(&w->s);
    free(w->aobj_at);
    free(w->track_at);
    free(w->target_at);
    free(w->node_at);
    free(w->clip_root);
    free(w->tail);
}

ue_result hsd_write_anims(ue_dat_builder *b, const ue_hsd_model *m, const hsd_anim_links *l) {
    const ue_hsd_anims *a = &m->anims;
    if (!a->clip_count) return UE_OK;
    anim_writer w;
    memset(&w, 0, sizeof w);
    w.b = b;
    w.m = m;
    w.l = l;
    if (!writer_alloc(&w)) {
        writer_free(&w);
        return UE_ERR_NOMEM;
    }
    for (size_t i = 0; i < a->clip_count; i++) {
        const ue_hsd_clip *c = &a->clips[i];
        int32_t root = m->sets[c->set].root_joint;
        if (c->material) write_material_clip(&w, c);
        else write_joint_clip(&w, c);
        w.clip_root[i] = w.node_at[root];
        for (size_t k = 0; k < w.s.marked_count; k++) w.node_at[w.s.marked[k]] = NOWHERE;
        unmark_all(&w.s);
        if (c->root_name) ue_datb_root(b, w.clip_root[i], c->root_name);
    }
    for (size_t s = 0; s < m->set_count; s++) {
        set_array(&w, s, false);
        set_array(&w, s, true);
    }
    writer_free(&w);
    return UE_OK;
}
