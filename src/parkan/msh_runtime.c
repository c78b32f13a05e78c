/* unearth — engine-equivalent MSH lookups (docs/formats/msh.md#slot-lookup, docs/formats/msh.md#loader-order): loader order, slot lookup with
 * current-LOD substitution, node names, packed value decoding, and the render traversal. */
#include <math.h>
#include <string.h>

#include "unearth/msh.h"
#include "common/bytes.h"

/* sub_10015FD0 looks resources up in this order (docs/formats/msh.md#loader-order). */
const uint8_t UE_MSH_LOAD_ORDER[15] = {1, 2, 3, 4, 5, 10, 8, 19, 7, 13, 6, 15, 16, 18, 20};

uint16_t ue_msh_slot_index(const ue_msh *m, size_t node, int lod, int group, int current_lod) {
    int use_lod = lod == -1 ? current_lod : lod;
    if (node >= m->node_count || use_lod < 0 || use_lod >= UE_MSH_LODS || group < 0 ||
        group >= UE_MSH_GROUPS)
        return UE_MSH_NONE;
    /* The engine reads word 4 + node*19 + lod*5 + group of the raw table: slot[lod*5+group]. */
    uint16_t s = m->nodes[node].slot[use_lod * UE_MSH_GROUPS + group];
    if (s != UE_MSH_NONE && s >= m->slot_count) return UE_MSH_NONE;
    return s;
}

const char *ue_msh_node_name(const ue_msh *m, size_t node) {
    if (node >= m->name_count || !m->names[node].present) return NULL;
    return m->names[node].text;
}

float ue_msh_decode_normal(int8_t v) {
    float f = (float)v / 127.0f;
    return f < -1.0f ? -1.0f : f;
}

int8_t ue_msh_encode_normal(float v) {
    float q = roundf(v * 127.0f);
    if (!(q >= -128.0f)) q = -128.0f; /* also catches NaN */
    if (q > 127.0f) q = 127.0f;
    return (int8_t)q;
}

float ue_msh_decode_uv(int16_t v) { return (float)v / 1024.0f; }

int16_t ue_msh_encode_uv(float v) {
    float q = roundf(v * 1024.0f);
    if (!(q >= -32768.0f)) q = -32768.0f;
    if (q > 32767.0f) q = 32767.0f;
    return (int16_t)q;
}

float ue_msh_decode_tri_normal(int16_t v) { return (float)v / 32767.0f; }

uint16_t ue_msh_tri_selector(uint16_t sel_packed, int i) {
    if (i < 0 || i > 2) return UE_MSH_NONE;
    uint16_t s = (uint16_t)((sel_packed >> (2 * i)) & 3u);
    return s == 3 ? UE_MSH_NONE : s;
}

void ue_msh_rest_pose(const ue_msh *m, size_t node, float translation[3], float rotation[4]) {
    translation[0] = translation[1] = translation[2] = 0;
    rotation[0] = rotation[1] = rotation[2] = 0;
    rotation[3] = 1;
    if (node >= m->node_count || m->nodes[node].fallback_key >= m->key_count) return;
    const ue_msh_key *key = &m->keys[m->nodes[node].fallback_key];
    float len = 0;
    for (int c = 0; c < 4; c++) len += (float)key->quat[c] * (float)key->quat[c];
    if (len > 0) {
        len = sqrtf(len);
        for (int c = 0; c < 4; c++) rotation[c] = (float)key->quat[c] / len;
    }
    for (int c = 0; c < 3; c++) translation[c] = isfinite(key->position[c]) ? key->position[c] : 0;
}

ue_result ue_msh_traverse(const ue_msh *m, int lod, int group, ue_msh_visit_fn fn, void *user) {
    for (size_t n = 0; n < m->node_count; n++) {
        uint16_t si = ue_msh_slot_index(m, n, lod, group, 0);
        if (si == UE_MSH_NONE) continue;
        const ue_msh_slot *s = &m->slots[si];
        for (size_t b = s->batch_start; b < (size_t)s->batch_start + s->batch_count; b++) {
            if (b >= m->batch_count) break; /* tolerant models: skip what is out of range */
            const ue_msh_batch *bt = &m->batches[b];
            if (!ue_range_ok(bt->index_start, bt->index_count, m->index_count)) continue;
            for (size_t i = 0; i < bt->index_count; i++) {
                uint64_t v = (uint64_t)bt->base_vertex + m->indices[bt->index_start + i];
                if (v >= m->vertex_count) continue;
                if (!fn(user, n, b, i, (uint32_t)v)) return UE_OK;
            }
        }
    }
    return UE_OK;
}

void ue_msh_stats_compute(const ue_msh *m, ue_msh_stats *s) {
    memset(s, 0, sizeof *s);
    s->nodes = m->node_count;
    s->slots = m->slot_count;
    s->batches = m->batch_count;
    s->vertices = m->vertex_count;
    bool lod_used[UE_MSH_LODS] = {false}, group_used[UE_MSH_GROUPS] = {false};
    for (size_t n = 0; n < m->node_count; n++)
        for (int l = 0; l < UE_MSH_LODS; l++)
            for (int g = 0; g < UE_MSH_GROUPS; g++) {
                uint16_t si = ue_msh_slot_index(m, n, l, g, 0);
                if (si == UE_MSH_NONE) continue;
                lod_used[l] = group_used[g] = true;
                const ue_msh_slot *sl = &m->slots[si];
                for (size_t b = sl->batch_start; b < (size_t)sl->batch_start + sl->batch_count && b < m->batch_count; b++)
                    s->triangles_per_lod[l] += m->batches[b].index_count / 3;
            }
    for (int l = 0; l < UE_MSH_LODS; l++) s->lods += lod_used[l];
    for (int g = 0; g < UE_MSH_GROUPS; g++) s->groups += group_used[g];
    for (size_t b = 0; b < m->batch_count; b++) s->triangles += m->batches[b].index_count / 3;
}
