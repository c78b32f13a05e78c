/* unearth — edit-mode import of HSD clips (docs/hsd-import.md#clips): a glTF animation on the skeleton
 * that differs from the base's own bake becomes AnimJoint tracks (Euler ZYX, keys at 60 fps, bounded error). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsd/hsd_anim_eval.h"
#include "hsd/hsd_import_int.h"
#include "hsd/hsd_int.h"
#include "hsd/hsd_pose.h"
#include "hsd/hsd_to_scene.h"
#include "scene/scene_int.h" /* ue_anim_channel_interval */

#define MAX_CLIP_FRAMES 100000u  /* about 28 minutes at 60 fps */
#define MAX_SCENE_SAMPLES 4194304.0  /* (joints + channels + 1) × frames, summed over a scene's clips */
#define MAX_COMPARE_WORK 1073741824.0 /* keys × (joints + channels) of the unedited tests, summed likewise */

/* The error every written component keeps at every frame (radians for rotations). */
double hsd_clip_error_bound(double v) { return HSD_CLIP_ERROR * (fabs(v) > 1 ? fabs(v) : 1); }

/* ---- the plan --------------------------------------------------------------------------------- */

/* The skeletal clip the base's export named `name` (convert's Animation_N, or a FigaTree's name). */
static int32_t base_clip(const ue_hsd_model *m, const ue_scene *ref, const char *name, int32_t *ref_anim) {
    *ref_anim = -1;
    for (size_t i = 0; i < ref->animation_count; i++) {
        if (strcmp(ref->animations[i].name, name)) continue;
        *ref_anim = (int32_t)i;
        size_t c = ref->animations[i].source.index;
        return c < m->anims.clip_count && !m->anims.clips[c].material ? (int32_t)c : -1;
    }
    return -1;
}

/* The glTF clip equal to the base's bake of it: each joint's motion from its rest the same (within
 * SAME_CLIP_TOLERANCE) at every key time of the glTF's channels, between which glTF interpolates:
 * convert keeps the keys its reduction needs, and a client that resampled the clip at its own rate
 * sampled the base's curve there. */
typedef struct motion_work {
    hsd_pose_source gltf, base;
    double *a, *b, *world, *inv_a, *inv_b, *ma, *mb;
} motion_work;

static bool same_at(const ue_hsd_model *m, const ue_scene_animation *an, const ue_scene_animation *ran,
                    const motion_work *w, double t) {
    hsd_sample_pose(&w->gltf, an, t, w->a);
    hsd_sample_pose(&w->base, ran, t, w->b);
    hsd_joint_motion(m, w->a, w->inv_a, w->world, w->ma);
    hsd_joint_motion(m, w->b, w->inv_b, w->world, w->mb);
    if (hsd_same_motion(m, w->ma, w->mb)) return true;
    /* A client that sampled the base's LINEAR rotation keys as Blender plays them (nlerp). */
    hsd_sample_pose_as(&w->base, ran, t, true, w->b);
    hsd_joint_motion(m, w->b, w->inv_b, w->world, w->mb);
    return hsd_same_motion(m, w->ma, w->mb);
}

static bool unedited(const ue_hsd_model *m, const ue_scene *s, const ue_scene *ref, const hsd_joint_map *jm,
                     const ue_scene_animation *an, const ue_scene_animation *ran, double end) {
    if (fabs(hsd_clip_end(ran, jm->ref_joint, ref->node_count) - end) > 1e-2) return false;
    size_t n = m->joint_count + 1;
    motion_work w = {hsd_gltf_poses(m, s, ref, jm), hsd_base_poses(m, ref, jm), NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    double **rows[7] = {&w.a, &w.b, &w.world, &w.inv_a, &w.inv_b, &w.ma, &w.mb};
    bool same = true;
    for (int k = 0; k < 7; k++) same &= (*rows[k] = malloc(n * 16 * sizeof(double))) != NULL;
    if (same) { /* the rests: the nodes' own TRS */
        hsd_sample_pose(&w.gltf, NULL, 0, w.a);
        hsd_sample_pose(&w.base, NULL, 0, w.b);
        same = hsd_rest_inverses(m, w.a, w.world, w.inv_a) && hsd_rest_inverses(m, w.b, w.world, w.inv_b);
    }
    for (size_t c = 0; same && c < an->channel_count; c++) {
        const ue_anim_channel *ch = &an->channels[c];
        if (ch->node < 0 || (size_t)ch->node >= s->node_count || jm->gltf_joint[ch->node] < 0) continue;
        for (uint32_t k = 0; same && k < ch->key_count; k++) same = same_at(m, an, ran, &w, ch->times[k]);
    }
    for (int k = 0; k < 7; k++) free(*rows[k]);
    return same;
}

static void clip_error(ue_diag *d, const char *code, size_t anim, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void clip_error(ue_diag *d, const char *code, size_t anim, const char *fmt, ...) {
    char path[48];
    snprintf(path, sizeof path, "/animations/%zu", anim);
    va_list ap;
    va_start(ap, fmt);
    ue_diag_addv(d, UE_SEV_ERROR, code, UE_NO_OFFSET, path, fmt, ap);
    va_end(ap);
}

/* The first set with ModelSet animation arrays (a scene_data root), or -1. */
static int32_t scene_data_set(const ue_hsd_model *m) {
    for (size_t i = 0; i < m->set_count; i++)
        if (m->sets[i].root_name && !strcmp(m->sets[i].root_name, "scene_data") && m->sets[i].root_joint >= 0)
            return (int32_t)i;
    return -1;
}

/* The next free slot of the set's anims[] array, after the base's clips and the new ones planned. */
static uint32_t next_index(const ue_hsd_model *m, const hsd_clip_plan *plan, uint32_t set) {
    uint32_t next = 0;
    for (size_t i = 0; i < m->anims.clip_count; i++) {
        const ue_hsd_clip *c = &m->anims.clips[i];
        if (c->set == set && !c->material && !c->root_name && !c->figatree && c->index + 1 > next) next = c->index + 1;
    }
    for (size_t i = 0; i < plan->count; i++)
        if (plan->edits[i].set == set && plan->edits[i].index + 1 > next) next = plan->edits[i].index + 1;
    return next;
}

/* The set's joints in the order the reader walks its tree (child before next sibling, the root's
 * siblings included), each once. *order is malloc'd. */
static ue_result set_joints(const ue_hsd_model *m, uint32_t set, int32_t **order, size_t *count) {
    size_t n = m->joint_count;
    int32_t *stack = malloc((2 * n + 2) * sizeof *stack);
    uint8_t *seen = calloc(n + 1, 1);
    *order = malloc((n + 1) * sizeof **order), *count = 0;
    ue_result r = stack && seen && *order ? UE_OK : UE_ERR_NOMEM;
    size_t top = 0;
    if (r == UE_OK) stack[top++] = m->sets[set].root_joint;
    while (r == UE_OK && top) {
        int32_t j = stack[--top];
        if (j < 0 || (size_t)j >= n || seen[j]) continue;
        seen[j] = 1;
        (*order)[(*count)++] = j;
        stack[top++] = m->joints[j].next_sibling;
        stack[top++] = m->joints[j].first_child;
    }
    free(stack), free(seen);
    return r;
}

/* Clip row `clip`'s index in its ModelSet's anims[] (what a PKX animation slot names), or -1 for
 * none or a clip elsewhere (a FigaTree, a material clip, a `*_joint` root's). */
static int32_t model_set_index(const ue_hsd_model *m, int32_t clip) {
    const ue_hsd_clip *c = clip >= 0 ? &m->anims.clips[clip] : NULL;
    return c && !c->material && !c->root_name && !c->figatree ? (int32_t)c->index : -1;
}

/* Joints the glTF moves away from their rest but that the clip's AnimJoint tree has no node for. */
static ue_result check_reach(const ue_hsd_model *m, const hsd_clip_edit *e, const float *srt, ue_diag *d) {
    const ue_hsd_clip *c = &m->anims.clips[e->clip];
    for (size_t j = 0; j < m->joint_count; j++) {
        bool node = false, moves = false;
        for (uint32_t k = 0; k < c->target_count && !node; k++) node = m->anims.targets[c->first_target + k].joint == (int32_t)j;
        if (node) continue;
        const ue_hsd_joint *jt = &m->joints[j];
        const float *rest[3] = {jt->rotation, jt->translation, jt->scale};
        for (int k = 0; k < 9 && !moves; k++)
            for (uint32_t f = 0; f < e->frames && !moves; f++) {
                float v = srt[((size_t)j * 9 + (size_t)k) * e->frames + f];
                moves = !(fabs((double)v - rest[k / 3][k % 3]) <= hsd_clip_error_bound(v));
            }
        if (moves) {
            char path[48];
            snprintf(path, sizeof path, "/animations/%d", (int)e->anim);
            ue_diag_add(d, UE_SEV_ERROR, "import.hsd.clip", UE_DAT_HEADER + (uint64_t)c->offset, path,
                        "the animation moves joint %zu, which the base clip's AnimJoint tree has no node for; adding "
                        "nodes to a clip is not written yet", j);
            return UE_ERR_INVALID;
        }
    }
    return UE_OK;
}

/* glTF animation `a` planned as base clip `clip` (its tracks on the joints its AnimJoint tree has
 * nodes for), or with clip -1 as a new clip at the set's next free index (every joint of the set
 * gets a node): its curve sampled at every frame and its keys fitted. */
static ue_result plan_edit(size_t a, int32_t clip, uint32_t set, double end, const hsd_reexpression *x, hsd_clip_plan *plan,
                           ue_diag *d) {
    const ue_hsd_model *m = plan->source->m;
    const ue_scene_animation *an = &plan->source->s->animations[a];
    uint32_t new_index = clip < 0 ? next_index(m, plan, set) : 0;
    hsd_clip_edit *grown = realloc(plan->edits, (plan->count + 1) * sizeof *plan->edits);
    if (!grown) return UE_ERR_NOMEM;
    plan->edits = grown;
    hsd_clip_edit *e = &plan->edits[plan->count++];
    memset(e, 0, sizeof *e);
    e->clip = clip, e->anim = (int32_t)a;
    e->set = set;
    e->index = clip >= 0 ? m->anims.clips[clip].index : new_index;
    plan->anim_index[a] = (int32_t)e->index, plan->anim_set[a] = (int32_t)set;
    plan->added += clip < 0;
    e->end_frame = (float)end;
    e->loop = an->loop;
    e->frames = (uint32_t)ceil(end) + 1;
    e->reexpressed = x != NULL;
    float *srt = NULL;
    ue_result r = hsd_clip_srt(plan->source, x, e, &srt);
    if (r == UE_ERR_INVALID)
        clip_error(d, "import.hsd.clip", a, "animation '%s' poses a joint whose world flattens space: it cannot be "
                   "read in the base's joint frames", an->name);
    if (clip < 0) { /* every joint of the set gets a node */
        int32_t *order = NULL;
        size_t count = 0;
        if (r == UE_OK) r = set_joints(m, e->set, &order, &count);
        for (size_t k = 0; k < count && r == UE_OK; k++) r = hsd_joint_tracks(m, (size_t)order[k], srt, e);
        free(order);
    } else {
        const ue_hsd_clip *c = &m->anims.clips[clip];
        for (uint32_t k = 0; k < c->target_count && r == UE_OK; k++) {
            const ue_hsd_anim_target *t = &m->anims.targets[c->first_target + k];
            if (t->kind == UE_HSD_ANIM_JOINT && t->joint >= 0 && (size_t)t->joint < m->joint_count)
                r = hsd_joint_tracks(m, (size_t)t->joint, srt, e);
        }
        if (r == UE_OK) r = check_reach(m, e, srt, d);
    }
    free(srt); /* fitted: the check of the written DAT samples the curve again */
    return r;
}

/* Edit e's curve sampled again, as plan_edit sampled it: *srt malloc'd (also on failure). */
static ue_result resample(const struct hsd_clip_source *src, const hsd_clip_edit *e, float **srt) {
    hsd_reexpression x = {0};
    *srt = NULL;
    ue_result r = e->reexpressed ? hsd_reexpression_init(src->m, src->s, src->ref, &src->jm, &x) : UE_OK;
    if (r == UE_OK) r = hsd_clip_srt(src, e->reexpressed ? &x : NULL, e, srt);
    hsd_reexpression_free(&x);
    return r;
}

/* Whether the glTF's joints rest elsewhere than the base's (a client re-expressed them: Blender's
 * bones); then clips are read through hsd_to_base_frames. */
static bool rests_differ(const ue_hsd_model *m, const ue_scene *s, const ue_scene *ref, const hsd_joint_map *jm) {
    for (size_t j = 0; j < m->joint_count; j++) {
        const ue_scene_node *g = jm->gltf_node[j] >= 0 ? &s->nodes[jm->gltf_node[j]] : NULL;
        const ue_scene_node *b = jm->ref_node[j] >= 0 ? &ref->nodes[jm->ref_node[j]] : NULL;
        double gt[10], bt[10];
        if (!g || !b) continue;
        for (int k = 0; k < 3; k++) gt[k] = g->translation[k], gt[7 + k] = g->scale[k], bt[k] = b->translation[k], bt[7 + k] = b->scale[k];
        for (int k = 0; k < 4; k++) gt[3 + k] = g->rotation[k], bt[3 + k] = b->rotation[k];
        if (!hsd_same_trs(gt, bt)) return true;
    }
    return false;
}

/* Whether comparing every animation named as a base clip with that clip's bake (unedited, at each of
 * its keys) stays within MAX_COMPARE_WORK in all; else refused, before any comparison. */
static bool compare_within_budget(const ue_hsd_model *m, const ue_scene *s, const ue_scene *ref, const hsd_joint_map *jm,
                                  ue_diag *d) {
    double work = 0;
    for (size_t a = 0; a < s->animation_count; a++) {
        const ue_scene_animation *an = &s->animations[a];
        int32_t ref_anim = -1;
        if (hsd_moves_joints(an, jm->gltf_joint, s->node_count)) base_clip(m, ref, an->name, &ref_anim);
        if (ref_anim < 0) continue;
        double keys = 0;
        for (size_t c = 0; c < an->channel_count; c++) keys += an->channels[c].key_count;
        work += keys * (double)(m->joint_count + an->channel_count + ref->animations[ref_anim].channel_count + 1);
    }
    if (work <= MAX_COMPARE_WORK) return true;
    ue_diag_add(d, UE_SEV_ERROR, "import.hsd.limit", UE_NO_OFFSET, "/animations",
                "comparing the glTF's animations with the base's clips of their names would take %.0f samples (keys "
                "× (joints + channels), summed); at most 2^30 are taken for one scene", work);
    return false;
}

/* What becomes of one glTF animation: sampled as clip `clip` (-1: a new clip of `set`) up to frame
 * `end`, or not at all (kept as the base has it, or left out). */
typedef struct clip_choice {
    bool sampled;
    int32_t clip;
    uint32_t set;
    double end;
} clip_choice;

/* Every sampled clip within MAX_CLIP_FRAMES, all of them together within MAX_SCENE_SAMPLES (what
 * hsd_clip_srt takes per frame: every joint, and the channels it reads); checked before any is sampled. */
static bool samples_within_budget(const ue_hsd_model *m, const ue_scene *s, const clip_choice *choice, ue_diag *d) {
    double total = 0;
    bool ok = true;
    for (size_t a = 0; a < s->animation_count; a++) {
        if (!choice[a].sampled) continue;
        double end = choice[a].end;
        total += (end + 1) * (double)(m->joint_count + s->animations[a].channel_count + 1);
        if (end + 1 <= MAX_CLIP_FRAMES) continue;
        clip_error(d, "import.hsd.limit", a, "animation '%s' lasts %g frames; a clip is written of up to 100000 "
                   "frames", s->animations[a].name, end);
        ok = false;
    }
    if (ok && total > MAX_SCENE_SAMPLES) {
        ue_diag_add(d, UE_SEV_ERROR, "import.hsd.limit", UE_NO_OFFSET, "/animations",
                    "the glTF's clips take %.0f samples (frames × (joints + channels + 1), summed over the clips to "
                    "write); at most 4194304 (4 million) are taken for one scene", total);
        ok = false;
    }
    return ok;
}

/* glTF animation `a` planned as `clip` (-1: new in `set`), read in the base's joint frames when the
 * glTF's joints rest elsewhere. */
static ue_result plan_rebased(size_t a, const clip_choice *ch, hsd_clip_plan *plan, ue_diag *d) {
    const struct hsd_clip_source *src = plan->source;
    const ue_hsd_model *m = src->m;
    const ue_scene *s = src->s, *ref = src->ref;
    const hsd_joint_map *jm = &src->jm;
    bool reexpressed = rests_differ(m, s, ref, jm);
    hsd_reexpression x = {0};
    ue_result r = reexpressed ? hsd_reexpression_init(m, s, ref, jm, &x) : UE_OK;
    if (r == UE_ERR_INVALID)
        clip_error(d, "import.hsd.clip", a, "animation '%s': the glTF's joints rest elsewhere than the base's and "
                   "a rest flattens space, so the clip cannot be read in the base's joint frames", s->animations[a].name);
    if (r == UE_OK) r = plan_edit(a, ch->clip, ch->set, ch->end, reexpressed ? &x : NULL, plan, d);
    hsd_reexpression_free(&x);
    return r;
}

/* One glTF animation: kept (unedited), to be sampled as the replacement of its base clip or as a new
 * clip, or left out (with a warning). */
static void choose_one(const ue_hsd_model *m, const ue_scene *s, const ue_scene *ref, const hsd_joint_map *jm,
                       size_t a, hsd_clip_plan *plan, clip_choice *choice, ue_diag *d) {
    const ue_scene_animation *an = &s->animations[a];
    memset(choice, 0, sizeof *choice);
    if (!hsd_moves_joints(an, jm->gltf_joint, s->node_count)) return; /* material or visibility only */
    int32_t ref_anim;
    int32_t clip = base_clip(m, ref, an->name, &ref_anim);
    double end = hsd_clip_end(an, jm->gltf_joint, s->node_count);
    if (ref_anim >= 0 && unedited(m, s, ref, jm, an, &ref->animations[ref_anim], end)) {
        plan->kept++;
        plan->anim_index[a] = model_set_index(m, clip);
        plan->anim_set[a] = clip >= 0 ? (int32_t)m->anims.clips[clip].set : -1;
        return;
    }
    int32_t set = ref_anim < 0 ? scene_data_set(m) : -1; /* a name the base's export does not have: a new clip */
    if (clip < 0 && set < 0) { /* a FigaTree's or a material clip's name, or no ModelSet to take it */
        char path[48];
        snprintf(path, sizeof path, "/animations/%zu", a);
        ue_diag_add(d, UE_SEV_WARNING, "import.hsd.clip", UE_NO_OFFSET, path,
                    "animation '%s' is no skeletal clip of the base's AnimJoint arrays and cannot be added to "
                    "them (a FigaTree or material clip's name, or a model without scene_data); it is left out",
                    an->name);
        return;
    }
    *choice = (clip_choice){true, clip, clip >= 0 ? m->anims.clips[clip].set : (uint32_t)set, end};
}

/* An empty plan with each animation's index at -1, sampling from m, s and ref (its joint map to fill). */
static ue_result plan_init(hsd_clip_plan *plan, const ue_hsd_model *m, const ue_scene *s, const ue_scene *ref) {
    memset(plan, 0, sizeof *plan);
    plan->anim_index = malloc((s->animation_count + 1) * sizeof *plan->anim_index);
    plan->anim_set = malloc((s->animation_count + 1) * sizeof *plan->anim_set);
    plan->source = calloc(1, sizeof *plan->source);
    for (size_t a = 0; plan->anim_index && plan->anim_set && a < s->animation_count; a++)
        plan->anim_index[a] = plan->anim_set[a] = -1;
    if (!plan->anim_index || !plan->anim_set || !plan->source) return UE_ERR_NOMEM;
    plan->source->m = m, plan->source->s = s, plan->source->ref = ref;
    return UE_OK;
}

/* The chosen clips, within the budget, sampled and fitted one at a time. */
static ue_result plan_chosen(const clip_choice *choice, hsd_clip_plan *plan, ue_diag *d) {
    const struct hsd_clip_source *src = plan->source;
    if (!samples_within_budget(src->m, src->s, choice, d)) return UE_ERR_INVALID;
    ue_result r = UE_OK;
    for (size_t a = 0; a < src->s->animation_count && r == UE_OK; a++)
        if (choice[a].sampled) r = plan_rebased(a, &choice[a], plan, d);
    return r;
}

/* Each joint's rest position in the world, scales left out (as Blender builds its bones), from the
 * poses of `ps` at rest: pos[3 · j]. */
static void rest_positions(const ue_hsd_model *m, const hsd_pose_source *ps, double *trs, double *world, double *pos) {
    hsd_sample_pose(ps, NULL, 0, trs);
    for (size_t j = 0; j < m->joint_count; j++) trs[10 * j + 7] = trs[10 * j + 8] = trs[10 * j + 9] = 1;
    hsd_joint_worlds(m, trs, world);
    for (size_t j = 0; j < m->joint_count; j++)
        for (int k = 0; k < 3; k++) pos[3 * j + (size_t)k] = world[16 * j + 12 + (size_t)k];
}

/* The joint whose rest the glTF edited so that joint j's rest position moved, or -1: j itself when its
 * own rest changed, its parent when only the parent turned, none when it moved with its parent. */
static int32_t moved_by(const ue_hsd_model *m, const ue_scene *s, const ue_scene *ref, const hsd_joint_map *jm,
                        const bool *moved, size_t j) {
    if (!moved[j]) return -1;
    const ue_scene_node *g = &s->nodes[jm->gltf_node[j]], *b = &ref->nodes[jm->ref_node[j]];
    bool own = false;
    for (int k = 0; k < 3; k++) own |= !hsd_clip_close(g->translation[k], b->translation[k]);
    for (int k = 0; k < 4; k++) own |= !hsd_clip_close(g->rotation[k], b->rotation[k]) && !hsd_clip_close(g->rotation[k], -b->rotation[k]);
    int32_t parent = m->joints[j].parent;
    if (own || parent < 0 || (size_t)parent >= j) return (int32_t)j;
    return moved[parent] ? -1 : parent;
}

/* Rest edits the glTF makes that no re-expression explains (which keeps every joint's rest position,
 * scales left out, and holds either the base's scale or none): a warning naming the joints, since
 * edit mode keeps the base's rests and reads clips against them. */
static ue_result warn_rest_edits(const ue_hsd_model *m, const ue_scene *s, const ue_scene *ref, const hsd_joint_map *jm,
                                 ue_diag *d) {
    size_t n = m->joint_count + 1;
    double *trs = malloc(n * 10 * sizeof *trs), *world = malloc(n * 16 * sizeof *world);
    double *gpos = malloc(n * 3 * sizeof *gpos), *bpos = malloc(n * 3 * sizeof *bpos);
    bool *moved = calloc(n, sizeof *moved), *edited = calloc(n, sizeof *edited);
    ue_result r = trs && world && gpos && bpos && moved && edited ? UE_OK : UE_ERR_NOMEM;
    if (r == UE_OK) {
        hsd_pose_source g = hsd_gltf_poses(m, s, ref, jm), b = hsd_base_poses(m, ref, jm);
        rest_positions(m, &g, trs, world, gpos), rest_positions(m, &b, trs, world, bpos);
    }
    for (size_t j = 0; r == UE_OK && j < m->joint_count; j++) {
        if (jm->gltf_node[j] < 0 || jm->ref_node[j] < 0) continue;
        const float *gs = s->nodes[jm->gltf_node[j]].scale, *bs = ref->nodes[jm->ref_node[j]].scale;
        bool own_scale = false;
        for (int k = 0; k < 3; k++) moved[j] |= !hsd_clip_close(gpos[3 * j + (size_t)k], bpos[3 * j + (size_t)k]);
        for (int k = 0; k < 3; k++) own_scale |= !hsd_clip_close(gs[k], bs[k]) && !(hsd_clip_close(gs[0], 1) && hsd_clip_close(gs[1], 1) && hsd_clip_close(gs[2], 1));
        int32_t by = moved_by(m, s, ref, jm, moved, j);
        if (by >= 0) edited[by] = true;
        edited[j] |= own_scale;
    }
    char names[256] = "";
    size_t count = 0, len = 0;
    for (size_t j = 0; r == UE_OK && j < m->joint_count; j++) {
        if (!edited[j] || jm->ref_node[j] < 0) continue;
        if (len < sizeof names - 64)
            len += (size_t)snprintf(names + len, sizeof names - len, "%s'%s'", count ? ", " : "", ref->nodes[jm->ref_node[j]].name);
        count++;
    }
    if (count)
        ue_diag_add(d, UE_SEV_WARNING, "import.hsd.clip", UE_NO_OFFSET, "/nodes",
                    "the glTF changes the rest of joint%s %s%s beyond a re-expression of the skeleton; edit mode keeps "
                    "the base's rests (a rest edit is not written) and reads the clips against them",
                    count > 1 ? "s" : "", names, len >= sizeof names - 64 ? ", ..." : "");
    free(trs), free(world), free(gpos), free(bpos), free(moved), free(edited);
    return r;
}

/* Two animations that would replace the same base clip: refused before either is sampled. */
static bool choices_conflict(const ue_scene *s, const clip_choice *choice, ue_diag *d) {
    bool conflict = false;
    for (size_t a = 0; a < s->animation_count; a++)
        for (size_t k = 0; k < a && choice[a].sampled && choice[a].clip >= 0; k++)
            if (choice[k].sampled && choice[k].clip == choice[a].clip) {
                clip_error(d, "import.hsd.conflict", a, "animation '%s' replaces a clip another animation of the "
                           "glTF replaces too", s->animations[a].name);
                conflict = true;
                break;
            }
    return conflict;
}

ue_result hsd_plan_clips(const ue_hsd_model *m, const ue_scene *s, const ue_scene *ref, hsd_clip_plan *plan,
                         ue_diag *d) {
    ue_result r = plan_init(plan, m, s, ref);
    hsd_joint_map *jm = plan->source ? &plan->source->jm : NULL;
    clip_choice *choice = malloc((s->animation_count + 1) * sizeof *choice);
    if (r == UE_OK && !choice) r = UE_ERR_NOMEM;
    if (r == UE_OK) r = hsd_map_joints(m, s, ref, jm);
    if (r == UE_OK) r = warn_rest_edits(m, s, ref, jm, d);
    if (r == UE_OK && !compare_within_budget(m, s, ref, jm, d)) r = UE_ERR_INVALID;
    for (size_t a = 0; a < s->animation_count && r == UE_OK; a++) choose_one(m, s, ref, jm, a, plan, &choice[a], d);
    if (r == UE_OK && choices_conflict(s, choice, d)) r = UE_ERR_INVALID;
    if (r == UE_OK) r = plan_chosen(choice, plan, d);
    free(choice);
    return r;
}

/* A new model: joint j stands for scene node joint_node[j] (-1: a joint of its own, at identity),
 * the scene is its own reference. */
static ue_result map_new_joints(const ue_hsd_model *m, const ue_scene *s, const int32_t *joint_of_node, hsd_joint_map *jm) {
    if (hsd_joint_map_alloc(jm, m->joint_count, s->node_count, s->node_count) != UE_OK) return UE_ERR_NOMEM;
    for (size_t i = 0; i < s->node_count; i++) {
        int32_t j = joint_of_node[i];
        jm->ref_joint[i] = jm->gltf_joint[i] = j >= 0 && (size_t)j < m->joint_count ? j : -1;
        if (jm->gltf_joint[i] >= 0) jm->ref_node[j] = jm->gltf_node[j] = (int32_t)i;
    }
    return UE_OK;
}

ue_result hsd_plan_new_clips(const ue_hsd_model *m, const ue_scene *s, const int32_t *joint_of_node, hsd_clip_plan *plan,
                             ue_diag *d) {
    ue_result r = plan_init(plan, m, s, s);
    if (r != UE_OK || !s->animation_count) return r;
    hsd_joint_map *jm = &plan->source->jm;
    clip_choice *choice = calloc(s->animation_count, sizeof *choice);
    r = choice ? map_new_joints(m, s, joint_of_node, jm) : UE_ERR_NOMEM;
    for (size_t a = 0; a < s->animation_count && r == UE_OK; a++) {
        const ue_scene_animation *an = &s->animations[a];
        if (!hsd_moves_joints(an, jm->gltf_joint, s->node_count)) {
            char path[48];
            snprintf(path, sizeof path, "/animations/%zu", a);
            ue_diag_add(d, UE_SEV_WARNING, "import.hsd.new.clips", UE_NO_OFFSET, path,
                        "animation '%s' moves no joint (material and visibility clips are not written); it is left out",
                        an->name);
            continue;
        }
        choice[a] = (clip_choice){true, -1, 0, hsd_clip_end(an, jm->gltf_joint, s->node_count)};
    }
    if (r == UE_OK) r = plan_chosen(choice, plan, d);
    free(choice);
    return r;
}

void hsd_clip_plan_free(hsd_clip_plan *plan) {
    for (size_t i = 0; i < plan->count; i++) {
        for (size_t t = 0; t < plan->edits[i].track_count; t++) ue_buf_free(&plan->edits[i].tracks[t].bytes);
        free(plan->edits[i].tracks);
    }
    if (plan->source) hsd_joint_map_free(&plan->source->jm);
    free(plan->source);
    free(plan->edits);
    free(plan->anim_index);
    free(plan->anim_set);
    memset(plan, 0, sizeof *plan);
}

/* ---- into the model --------------------------------------------------------------------------- */

static bool track_is_srt(uint8_t type) {
    return type >= UE_HSD_JT_ROTX && type <= UE_HSD_JT_SCAZ && type != UE_HSD_JT_PATH;
}

/* Room for `more` rows at the end of an anims table. */
static bool grow_rows(void **rows, size_t count, size_t more, size_t size) {
    void *grown = realloc(*rows, (count + more + 1) * size);
    if (grown) *rows = grown;
    return grown != NULL;
}

/* One AnimJoint node's new AObj: the edit's tracks of its joint, then its old tracks of other
 * types (PATH, visibility); its old flags and PATH joint; none when it is left without tracks. */
static ue_result node_aobj(ue_hsd_model *m, ue_hsd_anim_target *t, const hsd_clip_edit *e) {
    ue_hsd_anims *a = &m->anims;
    const ue_hsd_aobj *old = t->aobj >= 0 ? &a->aobjs[t->aobj] : NULL;
    size_t more = old ? old->track_count : 0;
    for (size_t k = 0; k < e->track_count; k++) more += e->tracks[k].joint == t->joint;
    if (!grow_rows((void **)&a->tracks, a->track_count, more, sizeof *a->tracks) ||
        !grow_rows((void **)&a->aobjs, a->aobj_count, 1, sizeof *a->aobjs))
        return UE_ERR_NOMEM;
    old = t->aobj >= 0 ? &a->aobjs[t->aobj] : NULL; /* the table moved */
    ue_hsd_aobj ao = {0, old ? old->flags : (e->loop ? UE_AOBJ_LOOP : 0), e->end_frame, (uint32_t)a->track_count, 0,
                      old ? old->obj_offset : 0};
    for (size_t k = 0; k < e->track_count; k++) {
        const hsd_clip_track *nt = &e->tracks[k];
        if (nt->joint != t->joint) continue;
        a->tracks[a->track_count++] = (ue_hsd_track){0, nt->type, UE_HSD_FMT_FLOAT, UE_HSD_FMT_FLOAT, 0, 0,
                                                     nt->bytes.data, (uint32_t)nt->bytes.size, 0, 0};
    }
    for (uint32_t k = 0; old && k < old->track_count; k++)
        if (!track_is_srt(a->tracks[old->first_track + k].type)) a->tracks[a->track_count++] = a->tracks[old->first_track + k];
    ao.track_count = (uint32_t)(a->track_count - ao.first_track);
    if (!ao.track_count) {
        t->aobj = -1;
        return UE_OK;
    }
    a->aobjs[a->aobj_count] = ao;
    t->aobj = (int32_t)a->aobj_count++;
    return UE_OK;
}

/* A new clip row at slot e->index of its set's anims[], one AnimJoint node per joint of the set. */
static ue_result add_clip(ue_hsd_model *m, const hsd_clip_edit *e) {
    ue_hsd_anims *a = &m->anims;
    int32_t *order = NULL;
    size_t count = 0;
    ue_result r = set_joints(m, e->set, &order, &count);
    if (r == UE_OK && (!grow_rows((void **)&a->targets, a->target_count, count, sizeof *a->targets) ||
                       !grow_rows((void **)&a->clips, a->clip_count, 1, sizeof *a->clips)))
        r = UE_ERR_NOMEM;
    if (r == UE_OK) {
        a->clips[a->clip_count++] = (ue_hsd_clip){e->set, e->index, false, NULL, 0, e->end_frame,
                                                  (uint32_t)a->target_count, (uint32_t)count, false};
        for (size_t k = 0; k < count; k++)
            a->targets[a->target_count++] = (ue_hsd_anim_target){UE_HSD_ANIM_JOINT, 0, order[k], -1, -1, -1, 0, 0, 0, 0, 0, 0};
    }
    free(order);
    return r;
}

ue_result hsd_apply_clip_plan(ue_hsd_model *m, const hsd_clip_plan *plan) {
    ue_result r = UE_OK;
    for (size_t i = 0; i < plan->count && r == UE_OK; i++) {
        const hsd_clip_edit *e = &plan->edits[i];
        int32_t row = e->clip >= 0 ? e->clip : (r = add_clip(m, e), (int32_t)m->anims.clip_count - 1);
        ue_hsd_clip *c = &m->anims.clips[row];
        for (uint32_t k = 0; k < c->target_count && r == UE_OK; k++)
            r = node_aobj(m, &m->anims.targets[c->first_target + k], e);
        c->end_frame = e->end_frame;
    }
    return r;
}

/* The written clip evaluated by the runtime's rules at every frame against the glTF's curve. */
ue_result hsd_verify_clips(const ue_hsd_model *m, const hsd_clip_plan *plan, ue_diag *d) {
    hsd_joint_state *st = malloc((m->joint_count + 1) * sizeof *st);
    ue_result r = st ? UE_OK : UE_ERR_NOMEM;
    for (size_t i = 0; i < plan->count && r == UE_OK; i++) {
        const hsd_clip_edit *e = &plan->edits[i];
        size_t row = 0;
        while (row < m->anims.clip_count && !(m->anims.clips[row].set == e->set && m->anims.clips[row].index == e->index &&
                                              !m->anims.clips[row].material && !m->anims.clips[row].root_name))
            row++;
        if (row == m->anims.clip_count) {
            ue_diag_add(d, UE_SEV_ERROR, "import.hsd.internal", UE_NO_OFFSET, "/animations",
                        "the written DAT has no clip at anims[%u]", e->index);
            r = UE_ERR_MISMATCH;
            break;
        }
        size_t tracks = hsd_anim_clip_tracks(m, row);
        hsd_key_cursor *cursors = malloc((tracks + 1) * sizeof *cursors); /* O(keys + frames) per track */
        float *srt;
        r = resample(plan->source, e, &srt);
        if (r == UE_OK && !cursors) r = UE_ERR_NOMEM;
        for (size_t t = 0; t < tracks && r == UE_OK; t++) hsd_key_cursor_reset(&cursors[t]);
        for (uint32_t f = 0; f < e->frames && r == UE_OK; f++) {
            hsd_anim_joint_states_at(m, row, (float)f, cursors, st);
            for (size_t j = 0; j < m->joint_count && r == UE_OK; j++)
                for (int c = 0; c < 9 && r == UE_OK; c++) {
                    float got = c < 3 ? st[j].rotation[c] : c < 6 ? st[j].translation[c - 3] : st[j].scale[c - 6];
                    float want = srt[((size_t)j * 9 + (size_t)c) * e->frames + f];
                    if (fabs((double)got - want) <= hsd_clip_error_bound(want) * 1.001 + 1e-6 * fabs(want)) continue;
                    ue_diag_add(d, UE_SEV_ERROR, "import.hsd.internal", UE_NO_OFFSET, "/animations",
                                "anims[%u], joint %zu, component %d at frame %u: the written track gives %g, the glTF %g",
                                e->index, j, c, f, (double)got, (double)want);
                    r = UE_ERR_MISMATCH;
                }
        }
        free(cursors), free(srt);
    }
    free(st);
    return r;
}

ue_result hsd_verify_written_clips(const uint8_t *bytes, size_t size, const hsd_clip_plan *plan, ue_diag *d) {
    ue_dat dat;
    ue_hsd_model m;
    memset(&m, 0, sizeof m);
    ue_result r = ue_dat_parse(bytes, size, UE_MODE_STRICT, &dat, d);
    if (r == UE_OK) r = ue_hsd_model_read(&dat, UE_MODE_STRICT, &m, d);
    if (r == UE_OK) r = hsd_verify_clips(&m, plan, d);
    ue_hsd_model_free(&m);
    ue_dat_free(&dat);
    return r;
}
