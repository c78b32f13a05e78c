/* libFuzzer target: MSH animation — the engine evaluation at edge times (negative, odd and even
 * integers, halves, past the end, NaN), the clip export, and the track writer (docs/formats/msh-anim.md#canonical-layout). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "unearth/msh.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void evaluate_edges(const ue_msh *m) {
    ue_msh_pose *poses = calloc(m->node_count ? m->node_count : 1, sizeof *poses);
    if (!poses) return;
    const float f = (float)m->frame_count;
    const float times[] = {-1.0f, -0.5f, 0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 3.5f, f - 1.0f, f - 0.5f, f,
                           1e9f, NAN, INFINITY, -INFINITY};
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) ue_msh_evaluate(m, times[i], poses);
    free(poses);
}

/* Every exported channel has increasing times and finite values, whatever the input. */
static void export_clip(const ue_msh *m, float fps) {
    ue_scene s;
    ue_scene_init(&s);
    ue_msh_export_options o = {0, UE_MSH_GROUP_ALL, fps};
    if (ue_msh_to_scene(m, "fuzz", &o, &s, NULL) == UE_OK)
        for (size_t a = 0; a < s.animation_count; a++)
            for (size_t c = 0; c < s.animations[a].channel_count; c++) {
                const ue_anim_channel *ch = &s.animations[a].channels[c];
                for (uint32_t k = 0; k < ch->key_count; k++) {
                    if (!isfinite(ch->times[k]) || (k > 0 && !(ch->times[k] > ch->times[k - 1]))) abort();
                    for (uint32_t v = 0; v < ch->components; v++)
                        if (!isfinite(ch->values[k * ch->components + v])) abort();
                }
            }
    ue_scene_free(&s);
}

/* A strictly valid model keeps its Res1/Res8/Res19 tables when a track is set to itself. */
static void rewrite_track(ue_msh *m, size_t node) {
    size_t start = node ? (size_t)m->nodes[node - 1].fallback_key + 1 : 0;
    if (m->nodes[node].fallback_key < start) return;
    size_t count = (size_t)m->nodes[node].fallback_key + 1 - start;
    ue_msh_key *keys = malloc(count * sizeof *keys);
    ue_buf before[3] = {{0}}, after[3] = {{0}};
    static const int types[3] = {UE_MSH_NODES, UE_MSH_KEYS, UE_MSH_FRAME_MAP};
    if (!keys) return;
    memcpy(keys, m->keys + start, count * sizeof *keys);
    for (int t = 0; t < 3; t++) ue_msh_encode_table(m, types[t], &before[t]);
    if (ue_msh_set_track(m, node, keys, count, NULL) != UE_OK) abort();
    for (int t = 0; t < 3; t++) {
        ue_msh_encode_table(m, types[t], &after[t]);
        if (before[t].size != after[t].size || memcmp(before[t].data, after[t].data, before[t].size)) abort();
        ue_buf_free(&before[t]);
        ue_buf_free(&after[t]);
    }
    free(keys);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    for (int mode = 0; mode < 2; mode++) {
        ue_msh m;
        if (ue_msh_parse(data, size, (ue_mode)mode, &m, NULL) == UE_OK) {
            evaluate_edges(&m);
            export_clip(&m, size % 2 ? 24.0f : 0.0f);
            if (mode == UE_MODE_STRICT && m.nodes && m.keys && m.frame_map && m.node_count)
                rewrite_track(&m, size % m.node_count);
            ue_msh_free(&m);
        }
    }
    return 0;
}
