/* unearth — MSH animation as the engine plays it (docs/formats/msh-anim.md): AnimKey24 decoding, the x87
 * frame rounding, key selection through the Res19 frame map, the engine's SLERP, and the layout (docs/formats/msh-anim.md#canonical-layout)
 * invariants that validation checks. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "parkan/msh_anim.h"

int32_t ue_msh_anim_frame(float t) {
    /* The engine runs the FPU at 24-bit precision: t − 0.5 is a float subtraction. */
    float x = t - 0.5f;
    if (!(x >= -2147483648.0f && x < 2147483648.0f)) return INT32_MIN;
    float whole = floorf(x);
    float rest = x - whole; /* exact: both are floats of the same binade or smaller */
    double frame = whole;
    if (rest > 0.5f || (rest == 0.5f && fmodf(whole, 2.0f) != 0.0f)) frame += 1.0;
    if (frame >= 2147483648.0) return INT32_MIN;
    return (int32_t)frame;
}

void ue_msh_anim_slerp(const float q0[4], const float q1[4], float a, float out[4]) {
    float d = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3];
    float sign = 1.0f;
    if (d < 0) {
        d = -d;
        sign = -1.0f;
    }
    float w0, w1;
    if (1.0f - d <= 9.9999997e-6f) {
        w0 = 1.0f - a;
        w1 = a;
    } else {
        float th = acosf(d);
        w1 = sinf(a * th) / sinf(th);
        w0 = cosf(a * th) - w1 * d;
    }
    for (int c = 0; c < 4; c++) out[c] = w0 * q0[c] + sign * w1 * q1[c];
}

static void decode_key(const ue_msh_key *k, ue_msh_pose *out) {
    memcpy(out->translation, k->position, sizeof out->translation);
    for (int c = 0; c < 4; c++) out->rotation[c] = (float)k->quat[c] / 32767.0f;
}

static void identity_pose(ue_msh_pose *out) {
    memset(out, 0, sizeof *out);
    out->rotation[3] = 1.0f;
}

/* sub_10012880: the fallback key wherever the map does not lead to a pair of keys. */
ue_result ue_msh_sample_node(const ue_msh *m, size_t node, float t, ue_msh_pose *out) {
    identity_pose(out);
    if (!m->nodes || node >= m->node_count) return UE_ERR_INVALID;
    const ue_msh_node *nd = &m->nodes[node];
    if (!m->keys || nd->fallback_key >= m->key_count) return UE_ERR_INVALID;
    const ue_msh_key *fb = &m->keys[nd->fallback_key];
    uint32_t frame = (uint32_t)ue_msh_anim_frame(t); /* negative → huge, as the engine's compare */
    /* The engine reads past Res19 here without a check; a tolerant model gets the fallback. */
    if (frame >= m->frame_count || nd->anim_map_start == UE_MSH_NONE ||
        (size_t)nd->anim_map_start + frame >= m->frame_map_count) {
        decode_key(fb, out);
        return UE_OK;
    }
    uint16_t k = m->frame_map[nd->anim_map_start + frame];
    if (k >= nd->fallback_key) { /* so k + 1 ≤ fallback < key_count */
        decode_key(fb, out);
        return UE_OK;
    }
    const ue_msh_key *k0 = &m->keys[k], *k1 = &m->keys[k + 1];
    if (t == k0->time) { /* exact compares, no epsilon, as the engine */
        decode_key(k0, out);
        return UE_OK;
    }
    if (t == k1->time) {
        decode_key(k1, out);
        return UE_OK;
    }
    float a = (t - k0->time) / (k1->time - k0->time);
    ue_msh_pose p0, p1;
    decode_key(k0, &p0);
    decode_key(k1, &p1);
    for (int c = 0; c < 3; c++) out->translation[c] = p0.translation[c] + (p1.translation[c] - p0.translation[c]) * a;
    ue_msh_anim_slerp(p0.rotation, p1.rotation, a, out->rotation);
    return UE_OK;
}

ue_result ue_msh_evaluate(const ue_msh *m, float t, ue_msh_pose *poses) {
    ue_result r = UE_OK;
    for (size_t n = 0; n < m->node_count; n++)
        if (ue_msh_sample_node(m, n, t, &poses[n]) != UE_OK) r = UE_ERR_INVALID;
    return r;
}

bool ue_msh_is_animated(const ue_msh *m) {
    if (!m->nodes || !m->keys || m->frame_count <= 1) return false;
    for (size_t n = 0; n < m->node_count; n++)
        if (m->nodes[n].anim_map_start != UE_MSH_NONE) return true;
    return false;
}

void ue_msh_encode_quat(const float q[4], int16_t out[4]) {
    for (int c = 0; c < 4; c++) {
        float v = roundf(q[c] * 32767.0f);
        if (v != v) v = 0; /* NaN */
        if (v < -32767.0f) v = -32767.0f;
        if (v > 32767.0f) v = 32767.0f;
        out[c] = (int16_t)v;
    }
}

/* ---- invariants of docs/formats/msh-anim.md#canonical-layout ---------------------------- */

static uint64_t payload_at(const ue_msh *m, int type, uint64_t rel) {
    int32_t e = m->entry_of[type];
    return e < 0 ? UE_NO_OFFSET : m->container.entries[e].data_offset + rel;
}

/* The canonical map word for frame f of the track keys[s..e] (docs/formats/msh-anim.md#canonical-layout). */
static uint16_t canonical_word(const ue_msh *m, size_t s, size_t e, uint32_t f) {
    if ((double)f < m->keys[s].time || (double)f >= m->keys[e].time) return (uint16_t)e;
    size_t lo = s, hi = e; /* time(lo) ≤ f < time(hi) */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->keys[mid].time <= (double)f) lo = mid;
        else hi = mid;
    }
    return (uint16_t)lo;
}

/* Key times of a track: finite, non-negative integers, strictly increasing, the first 0; key
 * positions finite (the engine would pass NaN on to every child). */
static bool check_times(const ue_msh *m, ue_parse_ctx *c, size_t n, size_t s, size_t e) {
    char path[64];
    for (size_t k = s; k <= e; k++) {
        const float *p = m->keys[k].position;
        if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2])) {
            snprintf(path, sizeof path, "msh/res8/key[%zu]/position", k);
            ue_violation(c, "msh.anim.position", payload_at(m, UE_MSH_KEYS, 24 * (uint64_t)k), path,
                         "node %zu: key position is not finite", n);
            return false;
        }
        float t = m->keys[k].time, prev = k > s ? m->keys[k - 1].time : -1.0f;
        bool ok = isfinite(t) && t >= 0 && t == floorf(t) && t > prev && (k > s || t == 0) && t <= 65535.0f;
        if (ok) continue;
        snprintf(path, sizeof path, "msh/res8/key[%zu]/time", k);
        ue_violation(c, "msh.anim.time", payload_at(m, UE_MSH_KEYS, 24 * (uint64_t)k + 12), path,
                     "node %zu: key time %g is not an integer frame 0..65535 after %g (times start "
                     "at 0 and increase strictly)", n, (double)t, (double)prev);
        return false;
    }
    return true;
}

/* A mapped node's block: every word as the canonical rule writes it (the first difference is
 * reported). */
static void check_block(const ue_msh *m, ue_parse_ctx *c, size_t n, size_t s, size_t e) {
    const ue_msh_node *nd = &m->nodes[n];
    for (uint32_t f = 0; f < m->frame_count; f++) {
        size_t w = (size_t)nd->anim_map_start + f;
        uint16_t want = canonical_word(m, s, e, f);
        if (m->frame_map[w] == want) continue;
        char path[64];
        snprintf(path, sizeof path, "msh/res19/word[%zu]", w);
        ue_violation(c, "msh.anim.map", payload_at(m, UE_MSH_FRAME_MAP, 2 * (uint64_t)w), path,
                     "node %zu frame %u maps to key %u; its track keys[%zu..%zu] gives %u", n, f,
                     m->frame_map[w], s, e, want);
        return;
    }
}

/* Track i is keys[fallback(i−1) + 1 .. fallback(i)]: one key without a map, ≥ 2 with one. */
static bool check_track(const ue_msh *m, ue_parse_ctx *c, size_t n, size_t s) {
    const ue_msh_node *nd = &m->nodes[n];
    uint64_t at = payload_at(m, UE_MSH_NODES, UE_MSH_NODE_STRIDE * (uint64_t)n);
    char path[64];
    snprintf(path, sizeof path, "msh/res1/node[%zu]/fallback_key", n);
    bool mapped = nd->anim_map_start != UE_MSH_NONE;
    size_t e = nd->fallback_key;
    if (e < s || (!mapped && e != s) || (mapped && e == s)) {
        ue_violation(c, "msh.anim.track", at + 6, path,
                     "fallback key %zu: the node's track starts at key %zu and must hold %s", e, s,
                     mapped ? "at least 2 keys (it has a frame map)" : "exactly 1 key (no frame map)");
        return false;
    }
    return true;
}

static uint32_t expected_frame_count(const ue_msh *m) {
    float last = 0;
    for (size_t n = 0; n < m->node_count; n++)
        if (m->keys[m->nodes[n].fallback_key].time > last) last = m->keys[m->nodes[n].fallback_key].time;
    return (uint32_t)last + 1;
}

static void check_frame_count(const ue_msh *m, ue_parse_ctx *c, bool times_ok) {
    int32_t e = m->entry_of[UE_MSH_FRAME_MAP];
    uint64_t at = m->container.dir_offset + (uint64_t)e * UE_NRES_ENTRY_SIZE + 8;
    uint32_t want = times_ok ? expected_frame_count(m) : m->frame_count;
    if (m->frame_count == 0 || m->frame_count != want)
        ue_violation(c, "msh.anim.frame_count", at, "msh/res19/attr2",
                     "frame count %u; the longest track ends at frame %u, so it must be %u",
                     m->frame_count, want ? want - 1 : 0, want ? want : 1);
}

/* Map blocks: the k-th mapped node owns words [k·F, (k+1)·F), nothing else is in Res19. */
static bool check_map_layout(const ue_msh *m, ue_parse_ctx *c, size_t n, size_t k) {
    uint64_t at = payload_at(m, UE_MSH_NODES, UE_MSH_NODE_STRIDE * (uint64_t)n + 4);
    char path[64];
    snprintf(path, sizeof path, "msh/res1/node[%zu]/anim_map_start", n);
    uint64_t want = (uint64_t)k * m->frame_count;
    if (m->nodes[n].anim_map_start == want) return true;
    ue_violation(c, "msh.anim.map_start", at, path,
                 "map start %u; as animated node %zu of the model its block starts at word %llu",
                 m->nodes[n].anim_map_start, k, (unsigned long long)want);
    return false;
}

void ue_msh_check_animation(const ue_msh *m, ue_parse_ctx *c) {
    if (!m->nodes || !m->keys || m->legacy_nodes) return;
    /* Without Res19 (built in memory, or a model that lacks it) only the tracks are checked. */
    bool has_map = m->entry_of[UE_MSH_FRAME_MAP] >= 0 && m->frame_map;
    size_t start = 0, mapped = 0;
    bool times_ok = true;
    for (size_t n = 0; n < m->node_count; n++) {
        const ue_msh_node *nd = &m->nodes[n];
        if (nd->fallback_key >= m->key_count) return; /* msh.node.fallback_key said so */
        bool track_ok = check_track(m, c, n, start);
        bool ok = track_ok && check_times(m, c, n, start, nd->fallback_key);
        times_ok = times_ok && ok;
        if (nd->anim_map_start != UE_MSH_NONE && has_map) {
            bool in_map = (uint64_t)nd->anim_map_start + m->frame_count <= m->frame_map_count;
            /* Only blocks at their own place are read: the check stays linear in Res19. */
            if (check_map_layout(m, c, n, mapped) && in_map && ok) check_block(m, c, n, start, nd->fallback_key);
            mapped++;
        }
        if (track_ok) start = (size_t)nd->fallback_key + 1;
    }
    if (has_map) check_frame_count(m, c, times_ok);
    if (has_map && times_ok && (uint64_t)mapped * m->frame_count != m->frame_map_count)
        ue_violation(c, "msh.anim.map_words", payload_at(m, UE_MSH_FRAME_MAP, 0), "msh/res19",
                     "%zu words; %zu animated nodes × %u frames need %llu", m->frame_map_count, mapped,
                     m->frame_count, (unsigned long long)mapped * m->frame_count);
    if (start < m->key_count)
        ue_diag_add(c->d, UE_SEV_WARNING, "msh.anim.orphan_keys", payload_at(m, UE_MSH_KEYS, 24 * (uint64_t)start),
                    "msh/res8", "keys %zu..%zu belong to no node's track", start, m->key_count - 1);
}
