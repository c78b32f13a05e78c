/* unearth — the MSH animation writer (docs/formats/msh-anim.md#canonical-layout): a node's key track is replaced and Res8,
 * Res19, every map start and fallback key laid out again by the canonical rules, so an edited
 * animation re-validates and an untouched one keeps its bytes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parkan/msh_anim.h"

/* A new track: one key at time 0, or ≥ 2 keys at integer frames from 0, strictly increasing. */
static bool track_ok(const ue_msh_key *keys, size_t count, ue_diag *d) {
    const char *why = NULL;
    if (count == 0) why = "a track needs at least one key";
    for (size_t k = 0; k < count && !why; k++) {
        float t = keys[k].time;
        if (!isfinite(t) || t != floorf(t) || t < 0 || t > 65535.0f) why = "key times are integer frames 0..65535";
        else if (k == 0 && t != 0) why = "the first key is at time 0";
        else if (k > 0 && t <= keys[k - 1].time) why = "key times increase strictly";
        for (int c = 0; c < 3; c++)
            if (!isfinite(keys[k].position[c])) why = "key positions are finite";
    }
    if (why) ue_diag_add(d, UE_SEV_ERROR, "msh.anim.track", UE_NO_OFFSET, "msh/res8", "%s", why);
    return why == NULL;
}

typedef struct track_view {
    const ue_msh_key *keys;
    size_t count;
} track_view;

/* The frame map words of one track by the rule of docs/formats/msh-anim.md#canonical-layout. */
static void write_block(uint16_t *words, uint32_t frames, const ue_msh_key *keys, size_t count,
                        size_t first) {
    size_t idx = 0;
    for (uint32_t f = 0; f < frames; f++) {
        while (idx + 1 < count && keys[idx + 1].time <= (float)f) idx++;
        bool past = (float)f >= keys[count - 1].time || (float)f < keys[0].time;
        words[f] = (uint16_t)(first + (past ? count - 1 : idx));
    }
}

/* Lays the tracks out: keys in node order, fallback = last key, one block per mapped node. */
static ue_result lay_out(ue_msh *m, const track_view *tracks, ue_diag *d) {
    size_t total = 0, mapped = 0;
    float last = 0;
    for (size_t n = 0; n < m->node_count; n++) {
        total += tracks[n].count;
        mapped += tracks[n].count > 1;
        if (tracks[n].keys[tracks[n].count - 1].time > last) last = tracks[n].keys[tracks[n].count - 1].time;
    }
    uint32_t frames = (uint32_t)last + 1;
    if (total > 0xFFFF || (mapped && (uint64_t)(mapped - 1) * frames >= UE_MSH_NONE)) {
        ue_diag_add(d, UE_SEV_ERROR, "msh.anim.limit", UE_NO_OFFSET, "msh/res8",
                    "%zu keys, %zu animated nodes × %u frames: past the 16-bit key and map indices",
                    total, mapped, frames);
        return UE_ERR_LIMIT;
    }
    ue_msh_key *keys = malloc(total * sizeof *keys);
    uint16_t *words = malloc(((size_t)mapped * frames + 1) * sizeof *words);
    if (!keys || !words) {
        free(keys);
        free(words);
        return UE_ERR_NOMEM;
    }
    size_t at = 0, block = 0;
    for (size_t n = 0; n < m->node_count; n++) {
        const track_view *t = &tracks[n];
        memcpy(keys + at, t->keys, t->count * sizeof *keys);
        m->nodes[n].fallback_key = (uint16_t)(at + t->count - 1);
        m->nodes[n].anim_map_start = t->count > 1 ? (uint16_t)(block * frames) : UE_MSH_NONE;
        if (t->count > 1) write_block(words + block++ * frames, frames, t->keys, t->count, at);
        at += t->count;
    }
    free(m->keys);
    free(m->frame_map);
    m->keys = keys;
    m->key_count = total;
    m->frame_map = words;
    m->frame_map_count = (size_t)mapped * frames;
    m->frame_count = frames;
    m->dirty[UE_MSH_NODES] = m->dirty[UE_MSH_KEYS] = m->dirty[UE_MSH_FRAME_MAP] = true;
    return UE_OK;
}

ue_result ue_msh_tracks_readable(const ue_msh *m, ue_diag *d) {
    ue_parse_ctx c = ue_parse_begin(UE_MODE_STRICT, d);
    for (size_t n = 0; n < m->node_count; n++)
        if (m->nodes[n].fallback_key >= m->key_count) ue_violation(&c, "msh.node.fallback_key", UE_NO_OFFSET, "msh/res1", "node %zu has no fallback key", n);
    if (!m->keys && m->node_count) ue_violation(&c, "msh.anim.keys", UE_NO_OFFSET, "msh/res8", "the model has no key table");
    if (c.failure == UE_OK) ue_msh_check_animation(m, &c);
    /* The tracks are read by that layout, so it is checked here too (whatever the check saw). */
    for (size_t n = 0, start = 0; n < m->node_count && c.failure == UE_OK; n++) {
        if (m->nodes[n].fallback_key < start)
            ue_violation(&c, "msh.anim.track", UE_NO_OFFSET, "msh/res1", "node %zu: tracks out of order", n);
        start = (size_t)m->nodes[n].fallback_key + 1;
    }
    return c.failure == UE_OK ? UE_OK : UE_ERR_INVALID;
}

ue_result ue_msh_set_track(ue_msh *m, size_t node, const ue_msh_key *keys, size_t count, ue_diag *d) {
    if (!m->nodes || m->legacy_nodes || node >= m->node_count || !keys) return UE_ERR_USAGE;
    if (!track_ok(keys, count, d)) return UE_ERR_INVALID;
    /* The current tracks are read by the canonical layout; anything else is refused. */
    if (ue_msh_tracks_readable(m, d) != UE_OK) return UE_ERR_INVALID;
    track_view *tracks = calloc(m->node_count, sizeof *tracks);
    if (!tracks) return UE_ERR_NOMEM;
    size_t start = 0;
    for (size_t n = 0; n < m->node_count; n++) {
        tracks[n].keys = n == node ? keys : m->keys + start;
        tracks[n].count = n == node ? count : (size_t)m->nodes[n].fallback_key + 1 - start;
        start = (size_t)m->nodes[n].fallback_key + 1;
    }
    ue_result r = lay_out(m, tracks, d);
    free(tracks);
    if (r == UE_OK) ue_msh_recompute_bounds(m);
    return r;
}

ue_result ue_msh_set_all_tracks(ue_msh *m, const ue_msh_key *const *keys, const size_t *counts, ue_diag *d) {
    if (!m->nodes || m->legacy_nodes || !keys || !counts) return UE_ERR_USAGE;
    for (size_t n = 0; n < m->node_count; n++)
        if (!keys[n] || !track_ok(keys[n], counts[n], d)) return UE_ERR_INVALID;
    track_view *tracks = calloc(m->node_count + 1, sizeof *tracks);
    if (!tracks) return UE_ERR_NOMEM;
    for (size_t n = 0; n < m->node_count; n++) tracks[n] = (track_view){keys[n], counts[n]};
    ue_result r = lay_out(m, tracks, d);
    free(tracks);
    return r;
}
