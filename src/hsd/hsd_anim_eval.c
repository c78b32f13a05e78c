/* unearth — the runtime's evaluation of a whole HSD clip on a model (docs/formats/hsd-animation.md#tree-shapes, docs/formats/hsd-animation.md#track-types):
 * every track of the clip's AObjs applied to the joint, material and texture they are bound to. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hsd/hsd_anim_eval.h"

/* ---- tracks ------------------------------------------------------------------------------- */

/* The track's value at clip frame `frame`; false before its first key (or for a track whose key
 * range lies outside the key table). */
static bool track_value(const ue_hsd_model *m, const ue_hsd_track *tr, float frame, hsd_key_cursor *cur, float *v) {
    const ue_hsd_anims *a = &m->anims;
    if (tr->first_key > a->key_count || tr->key_count > a->key_count - tr->first_key) return false;
    const ue_hsd_key *keys = tr->key_count ? a->keys + tr->first_key : NULL;
    hsd_key_cursor fresh;
    if (!cur) hsd_key_cursor_reset(cur = &fresh);
    return hsd_keys_eval_at(cur, keys, tr->key_count, tr->start_frame, frame, v);
}

/* The tracks of AObj `aobj`: *first and the count, or 0 when the AObj is absent or broken. */
static size_t aobj_tracks(const ue_hsd_model *m, int32_t aobj, const ue_hsd_track **first) {
    const ue_hsd_anims *a = &m->anims;
    if (aobj < 0 || (size_t)aobj >= a->aobj_count) return 0;
    const ue_hsd_aobj *ao = &a->aobjs[aobj];
    if (ao->track_count == 0 || ao->first_track > a->track_count ||
        ao->track_count > a->track_count - ao->first_track)
        return 0; /* (no pointer arithmetic on an empty, possibly NULL, table) */
    *first = a->tracks + ao->first_track;
    return ao->track_count;
}

static const ue_hsd_anim_target *target_of(const ue_hsd_model *m, size_t target,
                                           ue_hsd_anim_kind kind) {
    if (target >= m->anims.target_count) return NULL;
    const ue_hsd_anim_target *t = &m->anims.targets[target];
    return t->kind == kind ? t : NULL;
}

static float clamp01(float v) { return v > 1.0f ? 1.0f : v >= 0.0f ? v : 0.0f; }

/* ---- joints ------------------------------------------------------------------------------- */

/* The runtime refuses scales near 0 (a singular matrix): |s| < 1e-3 becomes ±1e-3. */
static float clamp_scale(float s) {
    if (fabsf(s) >= 1e-3f) return s;
    return s < 0 ? -1e-3f : 1e-3f;
}

static void rest_state(const ue_hsd_joint *j, hsd_joint_state *s) {
    memcpy(s->rotation, j->rotation, sizeof s->rotation);
    memcpy(s->scale, j->scale, sizeof s->scale);
    memcpy(s->translation, j->translation, sizeof s->translation);
    s->visible = (j->flags & UE_JOBJ_HIDDEN) == 0;
    s->classical_scale = (j->flags & UE_JOBJ_CLASSICAL_SCALE) != 0;
}

/* BRANCH shows or hides joint j and its subtree: the joints after it in the pre-order table
 * that are deeper. Later targets (its descendants) then override, as in the runtime's pre-order
 * walk. A joint lies in at most depth (≤ 1024) subtrees, so the work stays linear. */
static void set_branch(const ue_hsd_model *m, size_t j, bool visible, hsd_joint_state *out) {
    out[j].visible = visible;
    for (size_t k = j + 1; k < m->joint_count && m->joints[k].depth > m->joints[j].depth; k++)
        out[k].visible = visible;
}

static void apply_joint_track(const ue_hsd_model *m, size_t j, uint8_t type, float v,
                              hsd_joint_state *out) {
    hsd_joint_state *s = &out[j];
    if (type >= UE_HSD_JT_ROTX && type <= UE_HSD_JT_ROTZ) s->rotation[type - UE_HSD_JT_ROTX] = v;
    else if (type >= UE_HSD_JT_TRAX && type <= UE_HSD_JT_TRAZ)
        s->translation[type - UE_HSD_JT_TRAX] = v;
    else if (type >= UE_HSD_JT_SCAX && type <= UE_HSD_JT_SCAZ)
        s->scale[type - UE_HSD_JT_SCAX] = clamp_scale(v);
    else if (type == UE_HSD_JT_NODE) s->visible = v > 0.5f;
    else if (type == UE_HSD_JT_BRANCH) set_branch(m, j, v > 0.5f, out);
    /* PATH needs the spline joint and SETBYTE/SETFLOAT/PTCL are game callbacks: not applied */
}

/* The clip's JOINT targets bound to a joint of the model, [*first, *end); false for none. */
static bool joint_targets(const ue_hsd_model *m, size_t clip, size_t *first, size_t *end) {
    const ue_hsd_anims *a = &m->anims;
    if (clip >= a->clip_count || a->clips[clip].material) return false;
    const ue_hsd_clip *c = &a->clips[clip];
    if (c->first_target > a->target_count || c->target_count > a->target_count - c->first_target)
        return false;
    *first = c->first_target, *end = (size_t)c->first_target + c->target_count;
    return true;
}

static const ue_hsd_anim_target *joint_target(const ue_hsd_model *m, size_t t) {
    const ue_hsd_anim_target *tg = &m->anims.targets[t];
    bool bound = tg->kind == UE_HSD_ANIM_JOINT && tg->joint >= 0 && (size_t)tg->joint < m->joint_count;
    return bound ? tg : NULL;
}

size_t hsd_anim_clip_tracks(const ue_hsd_model *m, size_t clip) {
    size_t first, end, tracks = 0;
    if (!joint_targets(m, clip, &first, &end)) return 0;
    for (size_t t = first; t < end; t++) {
        const ue_hsd_track *tr = NULL;
        if (joint_target(m, t)) tracks += aobj_tracks(m, m->anims.targets[t].aobj, &tr);
    }
    return tracks;
}

void hsd_anim_joint_states_at(const ue_hsd_model *m, size_t clip, float frame, hsd_key_cursor *cursors,
                              hsd_joint_state *out) {
    for (size_t j = 0; j < m->joint_count; j++) rest_state(&m->joints[j], &out[j]);
    size_t first, end, cursor = 0;
    if (!joint_targets(m, clip, &first, &end)) return;
    for (size_t t = first; t < end; t++) {
        const ue_hsd_anim_target *tg = joint_target(m, t);
        if (!tg) continue;
        size_t j = (size_t)tg->joint;
        /* an attached AnimJoint decides CLASSICAL_SCALE by its bit 0 (docs/formats/hsd-animation.md#tree-shapes) */
        out[j].classical_scale = (tg->flags & 1u) != 0;
        const ue_hsd_track *tr = NULL;
        size_t n = aobj_tracks(m, tg->aobj, &tr);
        for (size_t k = 0; k < n; k++, cursor++) {
            float v;
            if (track_value(m, &tr[k], frame, cursors ? &cursors[cursor] : NULL, &v))
                apply_joint_track(m, j, tr[k].type, v, out);
        }
    }
}

/* One step of a resolved clip: a track applied to its joint, or (keys NULL, only while the list
 * is made) a target setting its joint's CLASSICAL_SCALE. */
struct hsd_joint_op {
    const ue_hsd_key *keys;
    uint32_t count, joint;
    float start_frame;
    uint8_t type; /* the track's type; for a target: its flags' bit 0 */
};

static bool applied_type(uint8_t type) {
    return (type >= UE_HSD_JT_ROTX && type <= UE_HSD_JT_SCAZ) || type == UE_HSD_JT_NODE || type == UE_HSD_JT_BRANCH;
}

/* The steps hsd_anim_joint_states_at takes, in its order, less those that never change a state (a
 * track outside the key table or without keys, a type not applied). */
static size_t clip_ops(const ue_hsd_model *m, size_t clip, hsd_joint_op *ops) {
    const ue_hsd_anims *a = &m->anims;
    size_t first, end, n = 0;
    if (!joint_targets(m, clip, &first, &end)) return 0;
    for (size_t t = first; t < end; t++) {
        const ue_hsd_anim_target *tg = joint_target(m, t);
        if (!tg) continue;
        uint32_t j = (uint32_t)tg->joint;
        if (ops) ops[n] = (hsd_joint_op){NULL, 0, j, 0, (uint8_t)(tg->flags & 1u)};
        n++;
        const ue_hsd_track *tr = NULL;
        size_t count = aobj_tracks(m, tg->aobj, &tr);
        for (size_t k = 0; k < count; k++) {
            if (tr[k].first_key > a->key_count || tr[k].key_count > a->key_count - tr[k].first_key ||
                !tr[k].key_count || !applied_type(tr[k].type))
                continue;
            if (ops) ops[n] = (hsd_joint_op){a->keys + tr[k].first_key, tr[k].key_count, j, tr[k].start_frame, tr[k].type};
            n++;
        }
    }
    return n;
}

void hsd_joint_clip_free(hsd_joint_clip *c) {
    free(c->ops), free(c->cursors), free(c->rest);
    memset(c, 0, sizeof *c);
}

bool hsd_joint_clip_make(const ue_hsd_model *m, size_t clip, hsd_joint_clip *c) {
    memset(c, 0, sizeof *c);
    c->op_count = clip_ops(m, clip, NULL);
    c->ops = malloc((c->op_count ? c->op_count : 1) * sizeof *c->ops);
    c->cursors = malloc((c->op_count ? c->op_count : 1) * sizeof *c->cursors);
    c->rest = malloc((m->joint_count ? m->joint_count : 1) * sizeof *c->rest);
    if (!c->ops || !c->cursors || !c->rest) {
        hsd_joint_clip_free(c);
        return false;
    }
    clip_ops(m, clip, c->ops);
    for (size_t j = 0; j < m->joint_count; j++) rest_state(&m->joints[j], &c->rest[j]);
    /* no track changes CLASSICAL_SCALE, so the targets' settings go into the rest states and
     * only the tracks stay in the list (the last setting of a joint wins, as in the walk) */
    size_t tracks = 0;
    for (size_t k = 0; k < c->op_count; k++) {
        if (c->ops[k].keys) c->ops[tracks++] = c->ops[k];
        else c->rest[c->ops[k].joint].classical_scale = c->ops[k].type != 0;
    }
    c->op_count = tracks;
    for (size_t k = 0; k < c->op_count; k++) hsd_key_cursor_reset(&c->cursors[k]);
    return true;
}

void hsd_joint_clip_states(const ue_hsd_model *m, hsd_joint_clip *c, float frame, hsd_joint_state *out) {
    memcpy(out, c->rest, m->joint_count * sizeof *out);
    for (size_t k = 0; k < c->op_count; k++) {
        const hsd_joint_op *op = &c->ops[k];
        float v;
        if (!hsd_keys_eval_next(&c->cursors[k], op->keys, op->count, op->start_frame, frame, &v))
            continue;
        if (op->type >= UE_HSD_JT_ROTX && op->type <= UE_HSD_JT_ROTZ) /* (the usual track, inlined) */
            out[op->joint].rotation[op->type - UE_HSD_JT_ROTX] = v;
        else
            apply_joint_track(m, op->joint, op->type, v, out);
    }
}

void hsd_anim_joint_states(const ue_hsd_model *m, size_t clip, float frame, hsd_joint_state *out) {
    hsd_anim_joint_states_at(m, clip, frame, NULL, out);
}

/* ---- materials ---------------------------------------------------------------------------- */

static void material_rest(const ue_hsd_model *m, const ue_hsd_anim_target *t,
                          hsd_material_state *out) {
    for (int i = 0; i < 3; i++) out->ambient[i] = out->diffuse[i] = out->specular[i] = 1.0f;
    out->alpha = 1.0f;
    if (!t || t->dobj < 0 || (size_t)t->dobj >= m->dobj_count) return;
    int32_t mo = m->dobjs[t->dobj].mobj;
    if (mo < 0 || (size_t)mo >= m->mobj_count || !m->mobjs[mo].has_material) return;
    const ue_hsd_material *mat = &m->mobjs[mo].material;
    for (int i = 0; i < 3; i++) {
        out->ambient[i] = (float)mat->ambient[i] / 255.0f;
        out->diffuse[i] = (float)mat->diffuse[i] / 255.0f;
        out->specular[i] = (float)mat->specular[i] / 255.0f;
    }
    out->alpha = mat->alpha;
}

void hsd_anim_material_state(const ue_hsd_model *m, size_t target, float frame,
                             hsd_material_state *out) {
    const ue_hsd_anim_target *t = target_of(m, target, UE_HSD_ANIM_MATERIAL);
    material_rest(m, t, out);
    out->animated = 0;
    if (!t) return;
    const ue_hsd_track *tr = NULL;
    size_t n = aobj_tracks(m, t->aobj, &tr);
    for (size_t k = 0; k < n; k++) {
        float v;
        uint8_t type = tr[k].type;
        if (type < 1 || type > 13 || !track_value(m, &tr[k], frame, NULL, &v)) continue;
        out->animated |= 1u << type;
        if (type <= 3) out->ambient[type - 1] = clamp01(v);
        else if (type <= 6) out->diffuse[type - 4] = clamp01(v);
        else if (type <= 9) out->specular[type - 7] = clamp01(v);
        else if (type == UE_HSD_MT_ALPHA) out->alpha = clamp01(1.0f - v); /* transparency */
    }
}

/* ---- textures ----------------------------------------------------------------------------- */

/* Row `table[first + (int)v]` of a TIMG/TCLT table, or `keep` when v falls outside the table,
 * the entry is NULL (-1) or names no row of the model. */
static int32_t table_pick(const int32_t *table, size_t table_size, uint32_t first, uint32_t count,
                          size_t rows, float v, int32_t keep) {
    if (!(v > -1.0f && v < (float)count)) return keep; /* (int)v truncates toward 0 */
    size_t at = (size_t)first + (size_t)(int32_t)v;
    if (at >= table_size || table[at] < 0 || (size_t)table[at] >= rows) return keep;
    return table[at];
}

static void texture_rest(const ue_hsd_model *m, const ue_hsd_anim_target *t,
                         hsd_texture_state *out) {
    memset(out, 0, sizeof *out);
    for (int i = 0; i < 3; i++) out->scale[i] = 1.0f;
    out->image = out->tlut = -1;
    if (!t || t->tobj < 0 || (size_t)t->tobj >= m->tobj_count) return;
    const ue_hsd_tobj *to = &m->tobjs[t->tobj];
    memcpy(out->translation, to->translation, sizeof out->translation);
    memcpy(out->scale, to->scale, sizeof out->scale);
    memcpy(out->rotation, to->rotation, sizeof out->rotation);
    out->image = to->image;
    out->tlut = to->tlut;
    out->blending = to->blending;
}

static void apply_texture_track(const ue_hsd_model *m, const ue_hsd_anim_target *t, uint8_t type,
                                float v, hsd_texture_state *out) {
    const ue_hsd_anims *a = &m->anims;
    if (type == UE_HSD_TT_TIMG)
        out->image = table_pick(a->images, a->image_count, t->first_image, t->image_count,
                                m->image_count, v, out->image);
    else if (type == UE_HSD_TT_TCLT)
        out->tlut = table_pick(a->tluts, a->tlut_count, t->first_tlut, t->tlut_count,
                               m->tlut_count, v, out->tlut);
    else if (type == UE_HSD_TT_TRAU || type == UE_HSD_TT_TRAV)
        out->translation[type - UE_HSD_TT_TRAU] = v;
    else if (type == UE_HSD_TT_SCAU || type == UE_HSD_TT_SCAV)
        out->scale[type - UE_HSD_TT_SCAU] = v;
    else if (type >= UE_HSD_TT_ROTX && type <= UE_HSD_TT_ROTZ)
        out->rotation[type - UE_HSD_TT_ROTX] = v;
    else if (type == UE_HSD_TT_BLEND) out->blending = v;
}

void hsd_anim_texture_state(const ue_hsd_model *m, size_t target, float frame,
                            hsd_texture_state *out) {
    const ue_hsd_anim_target *t = target_of(m, target, UE_HSD_ANIM_TEXTURE);
    texture_rest(m, t, out);
    if (!t) return;
    const ue_hsd_track *tr = NULL;
    size_t n = aobj_tracks(m, t->aobj, &tr);
    for (size_t k = 0; k < n; k++) {
        float v;
        if (!track_value(m, &tr[k], frame, NULL, &v)) continue;
        if (tr[k].type < 32) out->animated |= 1u << tr[k].type;
        apply_texture_track(m, t, tr[k].type, v, out);
    }
}
