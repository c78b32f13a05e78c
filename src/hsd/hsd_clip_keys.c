/* unearth — key fitting of edit-mode clip import (docs/hsd-import.md#clips): per-frame samples to LIN/SPL
 * keys within hsd_clip_error_bound, and a joint's components that move to FLOAT AnimJoint tracks. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hsd/hsd_import_int.h"
#include "hsd/hsd_int.h"

#define MAX_SPAN 120u            /* frames one key segment may cover: bounds the fit's work */

/* ---- key fitting ------------------------------------------------------------------------------ */

/* The runtime's Hermite (hsd_keys_eval.c) from frame a to b with per-frame slopes da, db. */
static double hermite(double pa, double pb, double da, double db, double t, double span) {
    double u = t / span, u2 = u * u, u3 = u2 * u;
    return pa * (2 * u3 - 3 * u2 + 1) + pb * (-2 * u3 + 3 * u2) + span * da * (u3 - 2 * u2 + u) + span * db * (u3 - u2);
}

static bool span_fits(const float *v, const float *slope, uint32_t a, uint32_t b, bool spline) {
    double span = (double)(b - a);
    for (uint32_t k = a + 1; k < b; k++) {
        double t = (double)(k - a);
        double y = spline ? hermite(v[a], v[b], slope[a], slope[b], t, span) : v[a] + ((double)v[b] - v[a]) * (t / span);
        if (!(fabs(y - v[k]) <= hsd_clip_error_bound(v[k]))) return false;
    }
    return true;
}

static bool put_key(ue_hsd_key **keys, size_t *count, uint8_t op, float value, float slope, uint32_t wait) {
    ue_hsd_key *grown = realloc(*keys, (*count + 1) * sizeof **keys);
    if (!grown) return false;
    *keys = grown;
    grown[(*count)++] = (ue_hsd_key){op, 0, value, slope, wait};
    return true;
}

/* Keys for samples v[0 … n−1] (one per frame): greedy segments from each key, as long as a straight
 * line or a Hermite with central-difference slopes reproduces every frame within the bound (the
 * longer wins, a line on ties). A Hermite segment's end key carries its slope: SPL when the next
 * segment is a Hermite too (or it is the last key), else an SLP entry before a LIN key. */
ue_result hsd_fit_keys(const float *v, uint32_t n, ue_hsd_key **keys, size_t *count) {
    *keys = NULL, *count = 0;
    if (!n) return UE_OK; /* no frame, no key */
    float *slope = malloc((n + 1) * sizeof *slope);
    if (!slope) return UE_ERR_NOMEM;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t lo = k ? k - 1 : k, hi = k + 1 < n ? k + 1 : k;
        slope[k] = hi > lo ? (float)(((double)v[hi] - v[lo]) / (hi - lo)) : 0.0f;
    }
    bool ok = true, prev_spline = false;
    for (uint32_t a = 0; ok && a + 1 < n;) {
        uint32_t lin = a + 1, spl = a + 1;
        for (uint32_t b = a + 2; b < n && b - a <= MAX_SPAN; b++) {
            bool l = span_fits(v, slope, a, b, false), s = span_fits(v, slope, a, b, true);
            if (l) lin = b;
            if (s) spl = b;
            if (!l && !s) break;
        }
        bool spline = spl > lin;
        uint32_t b = spline ? spl : lin;
        if (prev_spline && !spline) ok = put_key(keys, count, UE_HSD_KEY_SLP, 0, slope[a], 0);
        ok = ok && put_key(keys, count, spline ? UE_HSD_KEY_SPL : UE_HSD_KEY_LIN, v[a], slope[a], b - a);
        prev_spline = spline;
        a = b;
    }
    if (ok) ok = put_key(keys, count, prev_spline ? UE_HSD_KEY_SPL : UE_HSD_KEY_LIN, v[n - 1], slope[n - 1], 0);
    free(slope);
    return ok ? UE_OK : UE_ERR_NOMEM;
}

/* The tracks of one joint: a component that stays within the bound of the joint's rest value at
 * every frame gets none (the runtime keeps the rest), every other one its fitted keys. */
ue_result hsd_joint_tracks(const ue_hsd_model *m, size_t j, const float *srt, hsd_clip_edit *e) {
    const ue_hsd_joint *jt = &m->joints[j];
    const float *rest[3] = {jt->rotation, jt->translation, jt->scale};
    ue_result r = UE_OK;
    for (int c = 0; c < 9 && r == UE_OK; c++) {
        const float *v = &srt[((size_t)j * 9 + (size_t)c) * e->frames];
        float at_rest = rest[c / 3][c % 3];
        bool moves = false;
        for (uint32_t f = 0; f < e->frames && !moves; f++) moves = !(fabs((double)v[f] - at_rest) <= hsd_clip_error_bound(v[f]));
        if (!moves) continue;
        ue_hsd_key *keys;
        size_t count;
        r = hsd_fit_keys(v, e->frames, &keys, &count);
        hsd_clip_track *grown = r == UE_OK ? realloc(e->tracks, (e->track_count + 1) * sizeof *e->tracks) : NULL;
        if (r == UE_OK && !grown) r = UE_ERR_NOMEM;
        if (r == UE_OK) {
            e->tracks = grown;
            hsd_clip_track *t = &e->tracks[e->track_count++];
            memset(t, 0, sizeof *t);
            t->joint = (int32_t)j;
            t->type = (uint8_t)(c < 3 ? UE_HSD_JT_ROTX + c : c < 6 ? UE_HSD_JT_TRAX + c - 3 : UE_HSD_JT_SCAX + c - 6);
            t->key_count = count;
            if (ue_hsd_keys_encode(keys, count, UE_HSD_FMT_FLOAT, UE_HSD_FMT_FLOAT, &t->bytes) != UE_OK) r = UE_ERR_NOMEM;
        }
        free(keys);
    }
    return r;
}
