/* unearth — HSD skeletal clips → scene IR: each joint's local matrix (docs/formats/hsd-model.md#joint-matrices) rebuilt from the runtime
 * evaluation at every frame, decomposed like the bind pose's nodes, written as LINEAR TRS channels. */
#include "hsd/hsd_anim_scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/collections.h"
#include "common/write_pool.h"
#include "hsd/hsd_anim_eval.h"
#include "hsd/hsd_figatree.h"
#include "scene/scene_int.h" /* ue_scene_take_channel */
#include "unearth/advanced/buffers.h"

#define MAX_SPAN 256u          /* keys one dropped run may cover: bounds the key reduction's work */
#define KEY_TOLERANCE 1e-6     /* relative error a dropped key may have */
#define MAX_INDEX (1u << 20)   /* animation indices past this are no ModelSet array position */

/* ---- key reduction ------------------------------------------------------------------------ */

/* fmax and fmin as the reduction needs them, inlined (the library calls were a tenth of it): a
 * NaN argument leaves the other, as fmax/fmin do. */
static double max_of(double kept, double x) { return x > kept ? x : kept; }
static double min_of(double kept, double x) { return x < kept ? x : kept; }

static double tol_of(double v) { return KEY_TOLERANCE * max_of(1.0, fabs(v)); }

/* The quaternion dot at and above which slerp falls back to lerp weights (the angle is below
 * about 4.5e-4 rad and sin(θ) would lose its digits). */
#define SLERP_AS_LERP 0.9999999

static double quat_dot(const float *a, const float *b) {
    double d = 0;
    for (int k = 0; k < 4; k++) d += (double)a[k] * b[k];
    return d;
}

/* A proof, without a sine, that slerp from qa to qb misses key q (unit quaternions, qa·qb in
 * [0, SLERP_AS_LERP), the key's time inside the span): every weighted sum wa·qa + wb·qb lies in the
 * plane of qa and qb, so if q lies farther from that plane than the tolerances allow (their length,
 * plus 1e-9 for rounding: with weights in [0, 1] the check's own rounding is near 1e-15 and this
 * distance's near 1e-12), no weights reproduce it. The plane's second axis e = qb − (qa·qb / qa·qa)·qa
 * is left unnormalised, and the tolerances' length is bounded above without a square root
 * (√t ≤ t / 4e-6 + 1e-6, equal for four components of 1e-6). False when it cannot tell. aa = qa·qa
 * and ab = qa·qb come from the caller, once per span. */
static bool off_plane(const float *qa, const float *qb, const float *q, double aa, double ab) {
    double qa_q = 0;
    for (int c = 0; c < 4; c++) qa_q += (double)q[c] * qa[c];
    double k = ab / aa, e[4], ee = 0, qe = 0;
    for (int c = 0; c < 4; c++) e[c] = qb[c] - k * qa[c], ee += e[c] * e[c], qe += q[c] * e[c];
    if (!(ee > 1e-8)) return false; /* (an arc has ee = sin²θ > 2e-7) */
    double c1 = qa_q / aa, c2 = qe / ee, r2 = 0, tol2 = 0;
    for (int c = 0; c < 4; c++) {
        double r = q[c] - c1 * qa[c] - c2 * e[c], tol = tol_of(q[c]);
        r2 += r * r, tol2 += tol * tol;
    }
    double reach = tol2 * 2.5e5 + 1e-6 + 1e-9;
    return r2 > reach * reach; /* NaN: false */
}

/* Does glTF's LINEAR for a rotation (slerp between unit quaternions in one hemisphere) from key
 * a to key b (their dot d) reproduce every key strictly between them? Angle and sine once per
 * span, unless a key is seen to lie off the arc's plane first. */
static bool slerp_span_ok(const hsd_frames *f, const float *v, uint32_t a, uint32_t b, double d) {
    const float *qa = &v[a * 4], *qb = &v[b * 4];
    double th = 0, s = 1;
    if (d >= 0 && d < SLERP_AS_LERP && f->time[a] < f->time[b]) {
        double aa = quat_dot(qa, qa); /* (qa·qb is d, summed in the same order) */
        for (uint32_t k = a + 1; k < b; k++)
            if (f->time[k] >= f->time[a] && f->time[k] <= f->time[b] && off_plane(qa, qb, &v[k * 4], aa, d)) return false;
    }
    bool arc = d < SLERP_AS_LERP;
    if (arc) th = acos(d < -1 ? -1 : d), s = sin(th);
    for (uint32_t k = a + 1; k < b; k++) {
        double u = (f->time[k] - f->time[a]) / (double)(f->time[b] - f->time[a]);
        double wa = arc ? sin((1 - u) * th) / s : 1 - u, wb = arc ? sin(u * th) / s : u;
        for (uint32_t c = 0; c < 4; c++)
            if (fabs(wa * qa[c] + wb * qb[c] - v[k * 4 + c]) > tol_of(v[k * 4 + c])) return false;
    }
    return true;
}

/* The run of dropped keys after anchor key a, for straight-line interpolation. Key k between a
 * and the run's end b is reproduced when |v_a + (t_k − t_a)·slope − v_k| ≤ tol(v_k), i.e. when
 * the slope (v_b − v_a)/(t_b − t_a) lies in an interval that depends on k and a alone; the run
 * keeps, per component, the intersection of its interior keys' intervals, so testing a candidate
 * end costs O(components) instead of a walk over the whole run. */
typedef struct lerp_run {
    uint32_t anchor;
    double lo[4], hi[4];
} lerp_run;

static void run_start(lerp_run *r, uint32_t anchor) {
    r->anchor = anchor;
    for (int c = 0; c < 4; c++) r->lo[c] = -INFINITY, r->hi[c] = INFINITY;
}

/* Key k becomes interior: the slopes that reproduce it narrow the run's intervals. */
static void run_cover(lerp_run *r, const hsd_frames *f, const float *v, uint32_t comps, uint32_t k) {
    uint32_t a = r->anchor;
    double dt = (double)f->time[k] - f->time[a];
    for (uint32_t c = 0; c < comps; c++) {
        double off = (double)v[k * comps + c] - v[a * comps + c], tol = tol_of(v[k * comps + c]);
        if (isnan(off)) { /* no slope reproduces it: the interval is empty */
            r->lo[c] = INFINITY, r->hi[c] = -INFINITY;
            continue;
        }
        r->lo[c] = max_of(r->lo[c], (off - tol) / dt);
        r->hi[c] = min_of(r->hi[c], (off + tol) / dt);
    }
}

/* May the run end at key b, every key it covers dropped? */
static bool run_reaches(const lerp_run *r, const hsd_frames *f, const float *v, uint32_t comps, uint32_t b) {
    uint32_t a = r->anchor;
    double dt = (double)f->time[b] - f->time[a];
    for (uint32_t c = 0; c < comps; c++) {
        double slope = ((double)v[b * comps + c] - v[a * comps + c]) / dt;
        if (!(slope >= r->lo[c] && slope <= r->hi[c])) return false;
    }
    return true;
}

/* A channel that holds one finite value at strictly increasing times (the common case: a joint's
 * translation or scale that no track moves). Every run then reproduces all it covers (slope 0,
 * inside every key's interval; a rotation close enough to itself for lerp weights), so the
 * general walk below would keep only the first key, the last, and every MAX_SPAN-th. */
static bool constant_channel(const hsd_frames *f, const float *v, uint32_t comps, bool quat) {
    for (uint32_t c = 0; c < comps; c++)
        if (!isfinite(v[c])) return false;
    if (quat && quat_dot(v, v) < SLERP_AS_LERP) return false;
    if (!f->increasing) return false;
    /* each key's bytes those of the key before it, so all those of the first */
    return f->count < 2 || memcmp(&v[comps], v, (size_t)(f->count - 1) * comps * sizeof *v) == 0;
}

/* Marks the keys to keep: the first, the last, and (LINEAR) every key whose run could not be
 * dropped, (STEP) every key whose value differs from the one before. Greedy from the front: a
 * run grows while its end reproduces every key it covers and it spans at most MAX_SPAN keys.
 * Straight lines (and rotations whose ends are close enough for slerp to use lerp weights) are
 * tested in O(1) per key; a rotation arc walks its run (at most MAX_SPAN keys). */
static uint32_t keep_keys(const hsd_frames *f, const float *v, uint32_t comps, ue_interp interp, bool quat,
                          uint8_t *keep) {
    uint32_t n = f->count, kept = 0;
    memset(keep, 0, n);
    if (n) keep[0] = keep[n - 1] = 1;
    if (interp == UE_INTERP_STEP) {
        for (uint32_t i = 1; i + 1 < n; i++)
            keep[i] = memcmp(&v[i * comps], &v[(i - 1) * comps], comps * sizeof *v) != 0;
    } else if (constant_channel(f, v, comps, quat)) {
        for (uint32_t i = MAX_SPAN; i + 1 < n; i += MAX_SPAN) keep[i] = 1;
    } else {
        lerp_run run;
        run_start(&run, 0);
        uint32_t covered = 1; /* the run's intervals hold its keys before this one */
        for (uint32_t i = 1; i + 1 < n; i++) {
            uint32_t a = run.anchor;
            double d = quat ? quat_dot(&v[a * 4], &v[(i + 1) * 4]) : 1; /* (the ends' dot, for slerp) */
            bool lerp = !quat || d >= SLERP_AS_LERP;
            bool ok = i + 1 - a <= MAX_SPAN;
            if (ok && lerp) /* the intervals only now: an arc's test walks the keys itself */
                for (; covered <= i; covered++) run_cover(&run, f, v, comps, covered);
            ok = ok && (lerp ? run_reaches(&run, f, v, comps, i + 1) : slerp_span_ok(f, v, a, i + 1, d));
            if (!ok) keep[i] = 1, run_start(&run, i), covered = i + 1;
        }
    }
    for (uint32_t i = 0; i < n; i++) kept += keep[i];
    return kept;
}

/* The kept keys' times and values (kept × comps) into times / out. */
static void copy_kept(const hsd_frames *f, const float *values, uint32_t comps, const uint8_t *keep, float *times,
                      float *out, uint32_t kept) {
    if (kept == f->count) { /* every key (a rotation that turns at every frame): two copies */
        memcpy(times, f->time, (size_t)kept * sizeof *times);
        memcpy(out, values, (size_t)kept * comps * sizeof *values);
        return;
    }
    for (uint32_t i = 0, k = 0; i < f->count; i++) {
        if (!keep[i]) continue;
        times[k] = f->time[i];
        memcpy(&out[k * comps], &values[i * comps], comps * sizeof *values);
        k++;
    }
}

ue_result hsd_anim_add_sampled(ue_scene *s, int32_t anim, ue_anim_target target, ue_interp interp,
                               const hsd_frames *f, const float *values, ue_anim_channel **out) {
    *out = NULL;
    uint32_t comps = ue_anim_target_components(target);
    uint8_t *keep = ue_malloc_items(f->count, 1);
    if (!keep) return UE_ERR_NOMEM;
    uint32_t kept = keep_keys(f, values, comps, interp, target == UE_TARGET_ROTATION, keep);
    ue_anim_channel *ch = ue_scene_add_channel(s, anim, target, interp, kept);
    if (ch) copy_kept(f, values, comps, keep, ch->times, ch->values, kept);
    free(keep);
    *out = ch;
    return ch ? UE_OK : UE_ERR_NOMEM;
}

/* ---- track questions ------------------------------------------------------------------------- */

static bool aobj_valid(const ue_hsd_model *m, int32_t aobj) {
    const ue_hsd_anims *a = &m->anims;
    return aobj >= 0 && (size_t)aobj < a->aobj_count &&
           (size_t)a->aobjs[aobj].first_track + a->aobjs[aobj].track_count <= a->track_count;
}

bool hsd_aobj_has_track(const ue_hsd_model *m, int32_t aobj, uint8_t first_type, uint8_t last_type) {
    if (!aobj_valid(m, aobj)) return false;
    const ue_hsd_aobj *ao = &m->anims.aobjs[aobj];
    for (uint32_t t = 0; t < ao->track_count; t++) {
        uint8_t type = m->anims.tracks[ao->first_track + t].type;
        if (type >= first_type && type <= last_type && m->anims.tracks[ao->first_track + t].key_count) return true;
    }
    return false;
}

bool hsd_aobj_steps(const ue_hsd_model *m, int32_t aobj, uint8_t first_type, uint8_t last_type) {
    if (!aobj_valid(m, aobj)) return true;
    const ue_hsd_anims *a = &m->anims;
    const ue_hsd_aobj *ao = &a->aobjs[aobj];
    for (uint32_t t = 0; t < ao->track_count; t++) {
        const ue_hsd_track *tr = &a->tracks[ao->first_track + t];
        if (tr->type < first_type || tr->type > last_type) continue;
        for (uint32_t k = 0; k < tr->key_count && (size_t)tr->first_key + k < a->key_count; k++) {
            uint8_t op = a->keys[tr->first_key + k].op;
            if (op != UE_HSD_KEY_CON && op != UE_HSD_KEY_KEY) return false;
        }
    }
    return true;
}

static size_t clip_key_count(const ue_hsd_model *m, const ue_hsd_clip *c) {
    const ue_hsd_anims *a = &m->anims;
    size_t keys = 0;
    for (uint32_t i = 0; i < c->target_count && (size_t)c->first_target + i < a->target_count; i++) {
        int32_t ao = a->targets[c->first_target + i].aobj;
        if (!aobj_valid(m, ao)) continue;
        for (uint32_t t = 0; t < a->aobjs[ao].track_count; t++) keys += a->tracks[a->aobjs[ao].first_track + t].key_count;
    }
    return keys;
}

static bool clip_loops(const ue_hsd_model *m, const ue_hsd_clip *c) {
    const ue_hsd_anims *a = &m->anims;
    for (uint32_t i = 0; i < c->target_count && (size_t)c->first_target + i < a->target_count; i++) {
        int32_t ao = a->targets[c->first_target + i].aobj;
        if (aobj_valid(m, ao) && (a->aobjs[ao].flags & UE_AOBJ_LOOP)) return true;
    }
    return false;
}

/* ---- frames --------------------------------------------------------------------------------- */

static ue_result frames_make(double end, hsd_frames *f) {
    uint32_t whole = (uint32_t)floor(end);
    f->count = whole + 1u + (end > whole ? 1u : 0u);
    f->frame = malloc(f->count * sizeof *f->frame);
    f->time = malloc(f->count * sizeof *f->time);
    if (!f->frame || !f->time) return UE_ERR_NOMEM;
    for (uint32_t i = 0; i <= whole; i++) f->frame[i] = (float)i, f->time[i] = (float)(i / HSD_ANIM_FPS);
    if (end > whole) f->frame[whole + 1] = (float)end, f->time[whole + 1] = (float)(end / HSD_ANIM_FPS);
    f->increasing = true;
    for (uint32_t i = 1; i < f->count; i++)
        if (!(f->time[i] > f->time[i - 1])) f->increasing = false;
    return UE_OK;
}

static void frames_free(hsd_frames *f) {
    free(f->frame);
    free(f->time);
    memset(f, 0, sizeof *f);
}

/* ---- skeletal channels --------------------------------------------------------------------- */

/* Skeletal clips are baked (evaluated at every frame, decomposed, their keys reduced) on several
 * threads, a window of clips at a time; the main thread then reports their diagnostics and adds
 * their channels to the scene in clip order, so the output does not depend on the threads. A
 * window holds at most BAKE_WINDOW_SAMPLES joint samples (frames × joints, 41 bytes each at most
 * once reduced), so the memory held for it stays bounded whatever the clip count. */
#define BAKE_WINDOW_SAMPLES (1u << 18)

/* One reduced channel of a baked clip, waiting to be added to the scene. */
typedef struct baked_channel {
    ue_anim_target target;
    ue_interp interp;
    uint32_t joint;        /* the joint it animates (channels are in joint order) */
    int32_t node;
    ue_source_id source;
    uint32_t count;
    float *times, *values;
} baked_channel;

/* A joint whose transform is not finite at a frame: reported later, in the order found. */
typedef struct bad_sample {
    uint32_t frame, joint;
} bad_sample;

typedef struct baked_clip {
    int32_t clip;          /* the skeletal clip, -1: none to bake */
    double end;            /* its pair's end frame */
    bool done;
    ue_result r;
    baked_channel *channels;
    size_t channel_count, channel_cap;
    bad_sample *bad;
    size_t bad_count, bad_cap;
    uint8_t *visible;      /* per frame, per joint: kept until the visibility channels are made */
} baked_clip;

static void baked_free(baked_clip *b) {
    for (size_t i = 0; i < b->channel_count; i++) free(b->channels[i].times), free(b->channels[i].values);
    free(b->channels), free(b->bad), free(b->visible);
    b->channels = NULL, b->bad = NULL, b->visible = NULL;
    b->channel_count = b->channel_cap = b->bad_count = b->bad_cap = 0;
}

/* Room for one more element of `size` bytes in *items (count used of *cap). */
static bool grow(void **items, size_t count, size_t *cap, size_t size) {
    return ue_array_reserve(items, cap, count + 1, size, SIZE_MAX) == UE_OK;
}

typedef struct skel_work {
    hsd_joint_state *states, *previous; /* this frame's and the last frame's evaluation */
    uint8_t *reusable;     /* per joint: the last frame's transform is finite and may be reused */
    uint8_t *changed;      /* per joint: its transform was computed afresh this frame */
    uint8_t *step;         /* per joint, this frame: how its TRS was found (joint_step) */
    bool *finite;          /* per joint, this frame: its TRS computed from finite values */
    double *local, *scl;
    bool *has_scl;
    float *trs;            /* per frame, per joint: t[3] q[4] s[3] */
    uint8_t *visible;      /* per frame, per joint */
    uint8_t *moved, *bad;  /* per joint: local differs from the bind pose / not finite (count, mod 256) */
    int32_t *target;       /* per joint: its JOINT target in the clip with TRS tracks, else -1 */
    const float *node_trs; /* per joint: its node's t[3] q[4] s[3] (joint_trs_snapshot) */
} skel_work;

static void skel_free(skel_work *w) {
    free(w->states), free(w->previous), free(w->reusable), free(w->changed), free(w->local), free(w->scl), free(w->has_scl), free(w->trs);
    free(w->visible), free(w->moved), free(w->bad), free(w->target), free(w->step), free(w->finite);
    memset(w, 0, sizeof *w);
}

static ue_result skel_alloc(skel_work *w, size_t joints, uint32_t frames) {
    size_t n = joints ? joints : 1;
    w->states = malloc(n * sizeof *w->states);
    w->previous = malloc(n * sizeof *w->previous);
    w->reusable = calloc(n, 1), w->changed = malloc(n);
    w->local = malloc(n * 16 * sizeof *w->local);
    w->scl = malloc(n * 3 * sizeof *w->scl);
    w->has_scl = malloc(n * sizeof *w->has_scl);
    w->trs = malloc((size_t)frames * n * 10 * sizeof *w->trs);
    w->visible = malloc((size_t)frames * n);
    w->moved = calloc(n, 1), w->bad = calloc(n, 1);
    w->target = malloc(n * sizeof *w->target);
    w->step = malloc(n), w->finite = malloc(n * sizeof *w->finite);
    if (!w->states || !w->previous || !w->reusable || !w->changed || !w->local || !w->scl || !w->has_scl || !w->trs || !w->visible || !w->moved || !w->bad ||
        !w->target || !w->step || !w->finite)
        return UE_ERR_NOMEM;
    for (size_t j = 0; j < n; j++) w->target[j] = -1;
    return UE_OK;
}

static bool finite16(const double *v) {
    for (int k = 0; k < 16; k++)
        if (!isfinite(v[k])) return false;
    return true;
}

static bool differs(const double *a, const double *b) {
    for (int k = 0; k < 16; k++)
        if (fabs(a[k] - b[k]) > 1e-7 * fmax(1.0, fabs(b[k]))) return true;
    return false;
}

/* Whether joint j's transform at this frame is last frame's: the same evaluated SRT, and a parent
 * (`parent` ≥ 0: one whose accumulated scale it may compensate) unchanged. Last frame's TRS is then what
 * the computation would give again, bit for bit (its quaternion already on the short way from the
 * frame before, which a unit quaternion's sign test keeps). Most joints of a real clip hold still
 * for many frames. */
static bool same_as_last_frame(const skel_work *w, size_t j, int32_t parent) {
    const hsd_joint_state *now = &w->states[j], *last = &w->previous[j];
    return w->reusable[j] && (parent < 0 || !w->changed[parent]) && now->classical_scale == last->classical_scale &&
           memcmp(now->rotation, last->rotation, sizeof now->rotation) == 0 &&
           memcmp(now->scale, last->scale, sizeof now->scale) == 0 &&
           memcmp(now->translation, last->translation, sizeof now->translation) == 0;
}

/* A frame is baked in three passes over the joints, so that the decompositions (chains of square
 * roots and divisions, independent from joint to joint) follow one another and overlap in the
 * processor instead of waiting each behind its joint's sines: skel_local, then
 * hsd_local_to_trs_unchecked for each joint whose matrix it built, then skel_finish. */
typedef enum joint_step { JOINT_KEPT, JOINT_DIRECT, JOINT_MATRIX } joint_step;

/* Pass 1, joint j: last frame's TRS when nothing changed (KEPT); else, when its local matrix is a
 * plain T·R·S (no parent scale to compensate: the usual case), its TRS straight from the
 * evaluated SRT (DIRECT; the matrix is still built, for skel_finish's comparison with the bind
 * pose, until the joint has been seen to leave it); else its local matrix
 * (docs/formats/hsd-model.md#joint-matrices), the bind pose's code (MATRIX). */
static joint_step skel_local(const hsd_scene_ctx *x, skel_work *w, size_t j, uint32_t fi) {
    const ue_hsd_model *m = x->m;
    int32_t parent = m->joints[j].parent;
    bool pscl = parent >= 0 && (size_t)parent < j && w->has_scl[parent];
    const hsd_joint_state *st = &w->states[j];
    float *o = &w->trs[((size_t)fi * m->joint_count + j) * 10];
    w->visible[(size_t)fi * m->joint_count + j] = st->visible;
    if (same_as_last_frame(w, j, parent >= 0 && (size_t)parent < j ? parent : -1)) {
        memcpy(o, o - m->joint_count * 10, 10 * sizeof *o);
        return JOINT_KEPT;
    }
    w->changed[j] = 1;
    w->previous[j] = *st;
    const double *p = pscl ? &w->scl[3 * (size_t)parent] : NULL;
    bool direct = !hsd_joint_compensates(p) && hsd_srt_to_trs(st->rotation, st->scale, st->translation, o, o + 3, o + 7);
    if (direct && w->moved[j]) hsd_joint_scl(st->scale, st->classical_scale, p, &w->scl[3 * j], &w->has_scl[j]);
    else hsd_joint_local(st->rotation, st->scale, st->translation, st->classical_scale, p, &w->local[16 * j],
                         &w->scl[3 * j], &w->has_scl[j]); /* (skel_finish compares it with the bind pose) */
    return direct ? JOINT_DIRECT : JOINT_MATRIX;
}

/* Pass 3, joint j computed afresh (its TRS decomposed when the matrix was finite): a transform that
 * is not finite is noted for a report and the bind pose held; then the short way from last frame. */
static void skel_finish(const hsd_scene_ctx *x, skel_work *w, baked_clip *out, size_t j, uint32_t fi, bool ok) {
    const ue_hsd_model *m = x->m;
    double *local = &w->local[16 * j];
    float *o = &w->trs[((size_t)fi * m->joint_count + j) * 10];
    ok = ok && ue_floats_finite(o, 10);
    w->reusable[j] = ok;
    if (!ok) {
        if (!w->bad[j]++) {
            if (grow((void **)&out->bad, out->bad_count, &out->bad_cap, sizeof *out->bad))
                out->bad[out->bad_count++] = (bad_sample){fi, (uint32_t)j};
            else
                out->r = UE_ERR_NOMEM;
        }
        memcpy(local, &x->pose.local[16 * j], 16 * sizeof *local);
        /* the joint node's own TRS: finite even where the bind matrix overflows (hsd.pose.nan) */
        if (x->joint_node[j] >= 0) {
            memcpy(o, &w->node_trs[10 * j], 10 * sizeof *o);
        } else {
            hsd_local_to_trs_unchecked(local, o, o + 3, o + 7);
        }
    }
    if (!w->moved[j] && differs(local, &x->pose.local[16 * j])) w->moved[j] = 1;
    if (fi > 0) { /* the short way: no sign flip between neighbouring keys */
        const float *p = o - m->joint_count * 10 + 3;
        double d = 0;
        for (int k = 0; k < 4; k++) d += (double)p[k] * o[3 + k];
        if (d < 0)
            for (int k = 0; k < 4; k++) o[3 + k] = -o[3 + k];
    }
}

/* Every joint at frame fi, in the three passes above. */
static void skel_frame(const hsd_scene_ctx *x, skel_work *w, baked_clip *out, uint32_t fi) {
    size_t n = x->m->joint_count;
    memset(w->changed, 0, n);
    for (size_t j = 0; j < n; j++) w->step[j] = (uint8_t)skel_local(x, w, j, fi);
    for (size_t j = 0; j < n; j++) {
        w->finite[j] = w->step[j] == JOINT_DIRECT || (w->step[j] == JOINT_MATRIX && finite16(&w->local[16 * j]));
        float *o = &w->trs[((size_t)fi * n + j) * 10];
        if (w->step[j] == JOINT_MATRIX && w->finite[j]) hsd_local_to_trs_unchecked(&w->local[16 * j], o, o + 3, o + 7);
    }
    for (size_t j = 0; j < n; j++)
        if (w->step[j] != JOINT_KEPT) skel_finish(x, w, out, j, fi, w->finite[j]);
}

/* Which joints have TRS tracks in the clip (the targets bound to them by the reader's lock-step
 * walk of AnimJoint and JObj trees). */
static void skel_targets(const ue_hsd_model *m, const ue_hsd_clip *c, skel_work *w) {
    const ue_hsd_anims *a = &m->anims;
    for (uint32_t i = 0; i < c->target_count && (size_t)c->first_target + i < a->target_count; i++) {
        const ue_hsd_anim_target *t = &a->targets[c->first_target + i];
        if (t->kind != UE_HSD_ANIM_JOINT || t->joint < 0 || (size_t)t->joint >= m->joint_count) continue;
        if (hsd_aobj_has_track(m, t->aobj, UE_HSD_JT_ROTX, UE_HSD_JT_SCAZ))
            w->target[t->joint] = (int32_t)(c->first_target + i);
    }
}

/* The channel of one sample per frame, its keys reduced (hsd_anim_add_sampled's rule), appended
 * to the baked clip. */
static ue_result bake_channel(baked_clip *out, const hsd_frames *f, const float *values, ue_anim_target target,
                              ue_interp interp, size_t joint, int32_t node, ue_source_id source) {
    uint32_t comps = ue_anim_target_components(target);
    if (!grow((void **)&out->channels, out->channel_count, &out->channel_cap, sizeof *out->channels))
        return UE_ERR_NOMEM;
    baked_channel *b = &out->channels[out->channel_count];
    uint8_t *keep = ue_malloc_items(f->count, 1);
    if (!keep) return UE_ERR_NOMEM;
    uint32_t kept = keep_keys(f, values, comps, interp, target == UE_TARGET_ROTATION, keep);
    *b = (baked_channel){target, interp, (uint32_t)joint, node, source, kept, malloc(kept * sizeof(float)),
                         malloc((size_t)kept * comps * sizeof(float))};
    if (b->times && b->values) copy_kept(f, values, comps, keep, b->times, b->values, kept);
    free(keep);
    out->channel_count++; /* freed with the clip even when incomplete */
    return b->times && b->values ? UE_OK : UE_ERR_NOMEM;
}

static ue_result trs_channels(const hsd_scene_ctx *x, const skel_work *w, baked_clip *out, const hsd_frames *f,
                              size_t j, float *buf) {
    static const ue_anim_target targets[3] = {UE_TARGET_TRANSLATION, UE_TARGET_ROTATION, UE_TARGET_SCALE};
    static const int first[3] = {0, 3, 7}, comps[3] = {3, 4, 3};
    const ue_hsd_model *m = x->m;
    int32_t t = w->target[j];
    ue_source_id src = t >= 0 ? hsd_source_id(HSD_KIND_ANIMJOINT, m->anims.targets[t].offset, (size_t)t)
                              : hsd_source_id(HSD_KIND_JOBJ, m->joints[j].offset, j);
    for (int c = 0; c < 3; c++) {
        const float *from = &w->trs[j * 10 + (size_t)first[c]];
        size_t step = (size_t)m->joint_count * 10;
        if (comps[c] == 4) /* (sizes the compiler knows: a move or two per frame) */
            for (uint32_t fi = 0; fi < f->count; fi++, from += step) memcpy(&buf[fi * 4], from, 4 * sizeof *buf);
        else
            for (uint32_t fi = 0; fi < f->count; fi++, from += step) memcpy(&buf[fi * 3], from, 3 * sizeof *buf);
        ue_result r = bake_channel(out, f, buf, targets[c], UE_INTERP_LINEAR, j, x->joint_node[j], src);
        if (r != UE_OK) return r;
    }
    return UE_OK;
}

/* NODE / BRANCH: the visibility of the joint's mesh node, where it leaves its rest state. */
static ue_result visibility_channel(const hsd_scene_ctx *x, const uint8_t *visible, baked_clip *out,
                                   const hsd_frames *f, size_t j, int32_t mesh_node, float *buf) {
    const ue_hsd_model *m = x->m;
    bool rest = !x->s->nodes[mesh_node].hidden, changes = false;
    for (uint32_t fi = 0; fi < f->count; fi++) {
        bool v = visible[(size_t)fi * m->joint_count + j] != 0;
        buf[fi] = v ? 1.0f : 0.0f;
        changes = changes || v != rest;
    }
    if (!changes) return UE_OK;
    return bake_channel(out, f, buf, UE_TARGET_VISIBILITY, UE_INTERP_STEP, j, mesh_node,
                        hsd_source_id(HSD_KIND_JOBJ, m->joints[j].offset, j));
}

/* The mesh node hsd_scene_joint_meshes made for each joint (a scene root with the JObj's id). */
static void mesh_nodes(const hsd_scene_ctx *x, int32_t *out) {
    for (size_t j = 0; j < x->m->joint_count; j++) out[j] = -1;
    for (size_t n = 0; n < x->s->node_count; n++) {
        const ue_scene_node *nd = &x->s->nodes[n];
        if (nd->mesh >= 0 && nd->source.type == HSD_KIND_JOBJ && nd->source.index < x->m->joint_count &&
            strcmp(nd->source.format, "hsd") == 0)
            out[nd->source.index] = (int32_t)n;
    }
}

/* The TRS channels of every joint that moves or has tracks; the per-frame visibility is kept for
 * bake_visibility, which needs the mesh nodes. */
static ue_result skel_emit(const hsd_scene_ctx *x, skel_work *w, baked_clip *out, const hsd_frames *f) {
    float *buf = malloc((size_t)f->count * 4 * sizeof *buf);
    ue_result r = buf ? UE_OK : UE_ERR_NOMEM;
    for (size_t j = 0; j < x->m->joint_count && r == UE_OK; j++)
        if (x->joint_node[j] >= 0 && (w->target[j] >= 0 || w->moved[j])) r = trs_channels(x, w, out, f, j, buf);
    free(buf);
    out->visible = w->visible, w->visible = NULL;
    return r;
}

/* vis's channels merged into out's by joint, each joint's TRS channels first: the order one
 * pass over the joints would have given. vis is left without channels. */
static ue_result merge_channels(baked_clip *out, baked_clip *vis) {
    size_t n = out->channel_count + vis->channel_count, a = 0, b = 0;
    baked_channel *all = ue_malloc_items(n, sizeof *all);
    if (!all) return UE_ERR_NOMEM;
    for (size_t i = 0; i < n; i++)
        all[i] = b == vis->channel_count || (a < out->channel_count && out->channels[a].joint <= vis->channels[b].joint)
                     ? out->channels[a++]
                     : vis->channels[b++];
    free(out->channels);
    out->channels = all, out->channel_count = out->channel_cap = n;
    vis->channel_count = 0;
    return UE_OK;
}

/* The second step of a bake, once the mesh nodes exist: the NODE / BRANCH visibility of each
 * joint's mesh node as a channel, where it leaves its rest state. */
static ue_result bake_visibility(const hsd_scene_ctx *x, const int32_t *mesh_node, baked_clip *out) {
    if (!out->visible) return UE_OK;
    hsd_frames f;
    memset(&f, 0, sizeof f);
    baked_clip vis;
    memset(&vis, 0, sizeof vis);
    ue_result r = frames_make(out->end, &f);
    float *buf = r == UE_OK ? malloc((size_t)f.count * sizeof *buf) : NULL;
    if (!buf) r = UE_ERR_NOMEM;
    for (size_t j = 0; j < x->m->joint_count && r == UE_OK; j++)
        if (mesh_node[j] >= 0) r = visibility_channel(x, out->visible, &vis, &f, j, mesh_node[j], buf);
    if (r == UE_OK && vis.channel_count) r = merge_channels(out, &vis);
    free(buf);
    baked_free(&vis);
    frames_free(&f);
    free(out->visible);
    out->visible = NULL;
    return r;
}

/* Evaluates out->clip at every frame up to out->end and reduces its channels, the visibility
 * ones too when the mesh nodes are known (mesh_node not NULL); touches neither the scene nor the
 * diagnostics, so clips may be baked side by side and beside the meshes. */
static ue_result bake_skeletal(const hsd_scene_ctx *x, const float *node_trs, const int32_t *mesh_node,
                               baked_clip *out) {
    const ue_hsd_model *m = x->m;
    size_t clip = (size_t)out->clip;
    hsd_frames f;
    memset(&f, 0, sizeof f);
    skel_work w;
    memset(&w, 0, sizeof w);
    hsd_joint_clip plan;
    ue_result r = frames_make(out->end, &f);
    if (r == UE_OK) r = skel_alloc(&w, m->joint_count, f.count);
    if (!hsd_joint_clip_make(m, clip, &plan)) r = UE_ERR_NOMEM;
    w.node_trs = node_trs;
    if (r == UE_OK) skel_targets(m, &m->anims.clips[clip], &w);
    for (uint32_t fi = 0; fi < f.count && r == UE_OK; fi++) {
        hsd_joint_clip_states(m, &plan, f.frame[fi], w.states);
        skel_frame(x, &w, out, fi);
        r = out->r;
    }
    hsd_joint_clip_free(&plan);
    if (r == UE_OK) r = skel_emit(x, &w, out, &f);
    if (r == UE_OK && mesh_node) r = bake_visibility(x, mesh_node, out);
    skel_free(&w);
    frames_free(&f);
    out->done = true;
    return r;
}

/* The baked clip into the scene: its non-finite joints reported in the order found, then (unless
 * that failed the parse) its channels as animation `anim`'s. */
static ue_result skeletal_clip(hsd_scene_ctx *x, baked_clip *b, int32_t anim, const hsd_frames *f) {
    const ue_hsd_model *m = x->m;
    for (size_t i = 0; i < b->bad_count; i++) {
        size_t j = b->bad[i].joint;
        char path[64];
        snprintf(path, sizeof path, "dat/anim[%zu]/joint[%zu]", (size_t)b->clip, j);
        ue_violation(&x->c, "hsd.anim.nan", (uint64_t)m->joints[j].offset + UE_DAT_HEADER, path,
                     "the animated joint transform is not finite at frame %g; the bind pose is held",
                     (double)f->frame[b->bad[i].frame]);
    }
    if (b->r != UE_OK || ue_parse_failed(&x->c)) return b->r;
    for (size_t i = 0; i < b->channel_count; i++) { /* the scene takes the baked arrays over */
        baked_channel *c = &b->channels[i];
        ue_anim_channel *ch = ue_scene_take_channel(x->s, anim, c->target, c->interp, c->count, c->times, c->values);
        if (!ch) return UE_ERR_NOMEM;
        c->times = c->values = NULL;
        ch->node = c->node;
        ch->source = c->source;
    }
    return UE_OK;
}

/* ---- clips -------------------------------------------------------------------------------- */

/* One glTF animation: a skeletal clip and a material clip of the same index (either may be -1). */
typedef struct clip_pair {
    int32_t joint, material;
    uint32_t number;
} clip_pair;

/* The work all clips of a model may take together, in samples: a key visited at one frame (the
 * key walk) is one, a joint evaluated at one frame is JOINT_SAMPLE_WEIGHT (its matrix rebuilt and
 * decomposed, 40 bytes held until the clip is written). Real files take up to 25 samples per
 * byte of their DATs (docs/hsd-animation.md#bounded-work); 48 leaves about twice that. Joint
 * samples alone stay within 2^21 plus 3 per byte, so memory stays linear in the input; an absurd end
 * frame in a small file is refused instead of ground through, and so are many array slots
 * naming one tree (4 bytes each). A 100-joint creature may still play 5 minutes. */
#define JOINT_SAMPLE_WEIGHT 16u
#define SAMPLES_PER_BYTE 48u

static uint64_t sample_budget(const ue_hsd_model *m) {
    uint64_t bytes = (uint64_t)(m->dat ? m->dat->size : 0) + m->anims.attached_bytes;
    return ((uint64_t)JOINT_SAMPLE_WEIGHT << 21) + SAMPLES_PER_BYTE * bytes;
}

static uint64_t clip_cost(const ue_hsd_model *m, int32_t clip) {
    if (clip < 0) return 0;
    const ue_hsd_clip *c = &m->anims.clips[clip];
    uint64_t joints = c->material ? 0 : m->joint_count; /* a material clip evaluates no joint */
    return JOINT_SAMPLE_WEIGHT * joints + clip_key_count(m, c) + c->target_count + 1;
}

/* The pair's end frame (the larger of its clips') and the samples it would take (*cost). */
static double pair_cost(const ue_hsd_model *m, const clip_pair *p, uint64_t *cost) {
    double e = 0;
    for (int k = 0; k < 2; k++) {
        int32_t id = k ? p->material : p->joint;
        if (id >= 0) e = fmax(e, isfinite(m->anims.clips[id].end_frame) ? m->anims.clips[id].end_frame : INFINITY);
    }
    *cost = (clip_cost(m, p->joint) + clip_cost(m, p->material)) * (uint64_t)(fmin(e, 1e12) + 2);
    return e;
}

static bool pair_admitted(double end, uint64_t cost, uint64_t samples_left) {
    return end <= UE_HSD_MAX_FRAMES && cost <= samples_left;
}

/* The clip's end frame, checked against the budget; false when it is refused. */
static bool pair_end(hsd_scene_ctx *x, const clip_pair *p, double *end) {
    const ue_hsd_model *m = x->m;
    int32_t first = p->joint >= 0 ? p->joint : p->material;
    uint64_t cost;
    double e = pair_cost(m, p, &cost);
    if (!pair_admitted(e, cost, x->samples_left)) {
        char path[48];
        snprintf(path, sizeof path, "dat/anim[%d]", (int)first);
        ue_violation_as(&x->c, UE_ERR_LIMIT, "hsd.anim.budget", (uint64_t)m->anims.clips[first].offset + UE_DAT_HEADER,
                        path, "end frame %g would take %llu samples, more than this file has left (%llu); clip left out",
                        e, (unsigned long long)cost, (unsigned long long)x->samples_left);
        return false;
    }
    x->samples_left -= cost;
    *end = e;
    return true;
}

/* Every pair of the model in output order, and the window of them being baked. */
typedef struct clip_run {
    hsd_scene_ctx *x;
    hsd_atlas **atlases;
    int32_t *mesh_node;    /* per joint: its mesh node (mesh_nodes), read by the bakers */
    float *node_trs;       /* per joint: its node's TRS, copied before the meshes add nodes */
    clip_pair *pairs;
    size_t count, cap;
    baked_clip *window;    /* WINDOW_PAIRS entries: window[k] is pairs[first + k] */
    uint64_t planned_left; /* the budget as the pairs planned so far leave it */
} clip_run;

#define WINDOW_PAIRS 64u

static ue_result build_pair(clip_run *run, const clip_pair *p, baked_clip *b) {
    hsd_scene_ctx *x = run->x;
    const ue_hsd_model *m = x->m;
    double end;
    if (!pair_end(x, p, &end)) return UE_OK;
    int32_t first = p->joint >= 0 ? p->joint : p->material;
    const ue_hsd_clip *c = &m->anims.clips[first];
    char name[64];
    if (c->figatree) hsd_figatree_clip_name(c->root_name, name, sizeof name);
    else snprintf(name, sizeof name, "Animation_%u", (unsigned)p->number);
    int32_t anim = ue_scene_add_animation(x->s, name);
    if (anim < 0) return UE_ERR_NOMEM;
    ue_scene_animation *an = &x->s->animations[anim];
    an->fps = (float)HSD_ANIM_FPS;
    an->start_frame = 0;
    an->end_frame = (float)end;
    an->loop = (p->joint >= 0 && clip_loops(m, &m->anims.clips[p->joint])) ||
               (p->material >= 0 && clip_loops(m, &m->anims.clips[p->material]));
    an->source = hsd_source_id(c->material ? HSD_KIND_MATANIM : HSD_KIND_ANIMJOINT, c->offset, (size_t)first);
    hsd_frames f;
    memset(&f, 0, sizeof f);
    ue_result r = frames_make(end, &f);
    if (r == UE_OK && p->joint >= 0) {
        if (!b->done) { /* not planned in the window (the plan follows this budget, so never expected) */
            b->clip = p->joint, b->end = end;
            b->r = bake_skeletal(x, run->node_trs, run->mesh_node, b);
        }
        r = skeletal_clip(x, b, anim, &f);
    }
    if (r == UE_OK && p->material >= 0 && !ue_parse_failed(&x->c))
        r = hsd_matanim_to_scene(x, run->atlases, (size_t)p->material, anim, &f);
    frames_free(&f);
    return r;
}

/* One set's clips from its arrays (`standalone` false) or from its standalone roots: the pairs in
 * index order, numbered from *next on (index N → number base + N). */
static bool in_group(const ue_hsd_clip *c, uint32_t set, bool standalone) {
    return c->set == set && !c->figatree && (c->root_name != NULL) == standalone;
}

static ue_result add_pair(clip_run *run, clip_pair p) {
    if (!grow((void **)&run->pairs, run->count, &run->cap, sizeof *run->pairs)) return UE_ERR_NOMEM;
    run->pairs[run->count++] = p;
    return UE_OK;
}

static ue_result set_pairs(clip_run *run, uint32_t set, bool standalone, uint32_t *next) {
    const ue_hsd_anims *a = &run->x->m->anims;
    uint32_t count = 0;
    for (size_t c = 0; c < a->clip_count; c++)
        if (in_group(&a->clips[c], set, standalone) && a->clips[c].index < MAX_INDEX && a->clips[c].index >= count)
            count = a->clips[c].index + 1;
    if (count == 0) return UE_OK;
    clip_pair *pairs = malloc(count * sizeof *pairs);
    if (!pairs) return UE_ERR_NOMEM;
    for (uint32_t i = 0; i < count; i++) pairs[i].joint = pairs[i].material = -1, pairs[i].number = *next + i;
    for (size_t c = 0; c < a->clip_count; c++) {
        const ue_hsd_clip *cl = &a->clips[c];
        if (!in_group(cl, set, standalone) || cl->index >= count) continue;
        int32_t *slot = cl->material ? &pairs[cl->index].material : &pairs[cl->index].joint;
        if (*slot < 0) *slot = (int32_t)c;
    }
    ue_result r = UE_OK;
    for (uint32_t i = 0; i < count && r == UE_OK; i++)
        if (pairs[i].joint >= 0 || pairs[i].material >= 0) r = add_pair(run, pairs[i]);
    free(pairs);
    *next += count;
    return r;
}

/* Every pair in output order: each set's arrays, then the standalone `*_animjoint` /
 * `*_matanim_joint` roots set by set (paired by their per-set index as a ModelSet's arrays are),
 * then the FigaTree clips (the DAT's own and --anims banks'), one skeletal clip each. */
static ue_result collect_pairs(clip_run *run) {
    const ue_hsd_model *m = run->x->m;
    uint32_t next = 0;
    ue_result r = UE_OK;
    for (uint32_t set = 0; set < m->set_count && r == UE_OK; set++) r = set_pairs(run, set, false, &next);
    for (uint32_t set = 0; set < m->set_count && r == UE_OK; set++) r = set_pairs(run, set, true, &next);
    for (size_t c = 0; c < m->anims.clip_count && r == UE_OK; c++)
        if (m->anims.clips[c].figatree) r = add_pair(run, (clip_pair){(int32_t)c, -1, next++});
    return r;
}

/* The pairs from `first` on that the next window bakes: each skeletal clip the budget admits
 * (as pair_end will decide, in order) gets an entry; the window stops before BAKE_WINDOW_SAMPLES
 * joint samples or WINDOW_PAIRS pairs. Returns the end of the window. */
static size_t plan_window(clip_run *run, size_t first) {
    const ue_hsd_model *m = run->x->m;
    uint64_t samples = 0;
    size_t k = first;
    for (; k < run->count && k - first < WINDOW_PAIRS; k++) {
        const clip_pair *p = &run->pairs[k];
        uint64_t cost;
        double e = pair_cost(m, p, &cost);
        bool admitted = pair_admitted(e, cost, run->planned_left);
        uint64_t joint_samples = admitted && p->joint >= 0 ? (uint64_t)(floor(e) + 2) * m->joint_count : 0;
        if (k > first && samples + joint_samples > BAKE_WINDOW_SAMPLES) break;
        if (admitted) run->planned_left -= cost;
        samples += joint_samples;
        run->window[k - first] = (baked_clip){.clip = admitted && p->joint >= 0 ? p->joint : -1, .end = e};
    }
    return k;
}

static void bake_one(void *ctx, size_t i) {
    clip_run *run = ctx;
    baked_clip *b = &run->window[i];
    if (b->clip >= 0) b->r = bake_skeletal(run->x, run->node_trs, run->mesh_node, b);
}

/* The pairs [0, first_end) were planned and their transforms baked beside the meshes: their
 * visibility channels are made first; every later window is baked whole. */
static ue_result build_all(clip_run *run, size_t first_end) {
    hsd_scene_ctx *x = run->x;
    ue_result r = UE_OK;
    for (size_t first = 0; first < run->count && r == UE_OK && !ue_parse_failed(&x->c);) {
        size_t end = first == 0 ? first_end : plan_window(run, first);
        if (first == 0)
            for (size_t k = 0; k < end; k++) {
                baked_clip *b = &run->window[k];
                if (b->clip >= 0 && b->r == UE_OK) b->r = bake_visibility(x, run->mesh_node, b);
            }
        else
            ue_parallel_for(end - first, ue_cpu_count(), bake_one, run);
        for (size_t k = first; k < end && r == UE_OK && !ue_parse_failed(&x->c); k++)
            r = build_pair(run, &run->pairs[k], &run->window[k - first]);
        for (size_t k = first; k < end; k++) baked_free(&run->window[k - first]);
        first = end;
    }
    return r;
}

/* Each joint node's TRS (t[3] q[4] s[3]), for the bakers' fallback where a transform is not finite. */
static float *node_trs_snapshot(const hsd_scene_ctx *x) {
    float *trs = ue_malloc_items(x->m->joint_count ? x->m->joint_count : 1, 10 * sizeof *trs);
    for (size_t j = 0; trs && j < x->m->joint_count; j++) {
        if (x->joint_node[j] < 0) continue;
        const ue_scene_node *n = &x->s->nodes[x->joint_node[j]];
        memcpy(&trs[10 * j], n->translation, 3 * sizeof *trs);
        memcpy(&trs[10 * j + 3], n->rotation, 4 * sizeof *trs);
        memcpy(&trs[10 * j + 7], n->scale, 3 * sizeof *trs);
    }
    return trs;
}

/* Item 0 builds the meshes; item k > 0 bakes the transforms of the first window's clip k − 1. */
typedef struct beside_meshes {
    clip_run *run;
    hsd_meshes_fn meshes;
    void *arg;
    ue_result r;
} beside_meshes;

static void beside_one(void *ctx, size_t i) {
    beside_meshes *b = ctx;
    if (i == 0) {
        b->r = b->meshes(b->run->x, b->arg);
        return;
    }
    baked_clip *c = &b->run->window[i - 1];
    if (c->clip >= 0) c->r = bake_skeletal(b->run->x, b->run->node_trs, NULL, c);
}

ue_result hsd_meshes_and_anims(hsd_scene_ctx *x, hsd_meshes_fn meshes, void *arg) {
    if (x->m->anims.clip_count == 0) return meshes(x, arg);
    x->samples_left = sample_budget(x->m);
    clip_run run = {.x = x, .planned_left = x->samples_left};
    run.mesh_node = ue_malloc_items(x->m->joint_count, sizeof *run.mesh_node);
    run.window = malloc(WINDOW_PAIRS * sizeof *run.window);
    run.node_trs = node_trs_snapshot(x);
    ue_result r = run.mesh_node && run.window && run.node_trs ? UE_OK : UE_ERR_NOMEM;
    if (r == UE_OK) r = collect_pairs(&run);
    size_t first_end = 0;
    if (r == UE_OK) {
        first_end = plan_window(&run, 0);
        beside_meshes job = {&run, meshes, arg, UE_OK};
        ue_parallel_for(first_end + 1, ue_cpu_count(), beside_one, &job);
        r = job.r;
    } else { /* the meshes' own failure first, as when they were built before the clips */
        ue_result built = meshes(x, arg);
        r = built != UE_OK ? built : r;
    }
    if (r == UE_OK && !ue_parse_failed(&x->c)) {
        mesh_nodes(x, run.mesh_node); /* clips add channels, never nodes */
        r = hsd_swaps_prepare(x, &run.atlases);
        if (r == UE_OK) r = build_all(&run, first_end);
    }
    for (size_t k = 0; k < first_end; k++) baked_free(&run.window[k]); /* (left by a failure; freeing twice is harmless) */
    hsd_swaps_free(run.atlases, x->m->tobj_count);
    free(run.mesh_node), free(run.window), free(run.pairs), free(run.node_trs);
    return r;
}
