/* libFuzzer target: glTF → HSD DAT on arbitrary GLB bytes. An accepted scene goes through the new-model
 * path (ue_hsd_from_scene) and the edit path against the sample creature's DAT (built once, in memory),
 * both with their stats (each with room for every animation's anims[] index, as the CLI
 * passes it); every DAT either returns must read back strictly, every refusal must say why. */
#include <stdlib.h>
#include <string.h>

#include "unearth/gltf_read.h"
#include "unearth/hsd_import.h"
#include "unearth/hsd_model.h"
#include "samples/samples.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A returned DAT must be one `validate --strict` accepts; a refusal must come with an error. */
static void check(ue_result r, const ue_buf *out, ue_diag *d) {
    if (r != UE_OK) {
        if (r != UE_ERR_NOMEM && ue_diag_count(d, UE_SEV_ERROR) == 0) abort();
        if (out->size) abort(); /* nothing handed back on a refusal */
        return;
    }
    ue_dat dat;
    ue_hsd_model m;
    memset(&m, 0, sizeof m);
    ue_diag back = {0};
    back.max_items = 10;
    if (ue_dat_parse(out->data, out->size, UE_MODE_STRICT, &dat, &back) != UE_OK) abort();
    if (ue_hsd_model_read(&dat, UE_MODE_STRICT, &m, &back) != UE_OK) abort();
    ue_hsd_model_free(&m);
    ue_dat_free(&dat);
    ue_diag_free(&back);
}

/* An accepted edit's stats: every animation's index written (-1 or a slot), no more clips than animations. */
static void check_edit_stats(ue_result r, const ue_hsd_edit_stats *st, const int32_t *anim_index, size_t animations) {
    if (r != UE_OK) return;
    if (st->clips + st->clips_added + st->clips_kept > animations) abort();
    for (size_t a = 0; a < animations; a++)
        if (anim_index[a] < -1) abort();
}

/* Whether the scene's clips stay within 1/32 of the library's budgets (docs/hsd-import.md#clips: 4 million
 * samples, 2^30 for comparing keys), counted over all nodes: the instrumented build samples about 60 000
 * joint frames a second, so a clip at the library's full budget (tested by cli_hsd_clips) would pass the
 * fuzzer's 10 s timeout though its work is bounded. Larger scenes are only read. */
static bool clips_small(const ue_scene *s) {
    double samples = 0, keys = 0, channels = 0;
    for (size_t a = 0; a < s->animation_count; a++) {
        const ue_scene_animation *an = &s->animations[a];
        double end = 0;
        for (size_t c = 0; c < an->channel_count; c++) {
            const ue_anim_channel *ch = &an->channels[c];
            if (ch->key_count) end = ch->times[ch->key_count - 1] > end ? ch->times[ch->key_count - 1] : end;
            keys += ch->key_count;
        }
        channels += (double)an->channel_count;
        samples += (end * 60 + 2) * (double)(s->node_count + an->channel_count + 1);
    }
    return samples <= 4194304.0 / 32 && keys * ((double)s->node_count + channels + 1) <= 1073741824.0 / 32;
}

static const ue_buf *creature(void) {
    static ue_buf base;
    static bool built;
    if (!built && ue_sample_creature_dat(&base) != UE_OK) abort();
    built = true;
    return &base;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const ue_buf *base = creature();
    ue_scene s;
    ue_diag d = {0};
    d.max_items = 50;
    ue_scene_init(&s);
    if (ue_gltf_read(data, size, NULL, UE_MODE_STRICT, &s, &d) == UE_OK && clips_small(&s)) {
        for (int path = 0; path < 2; path++) {
            ue_buf out = {0};
            ue_diag_free(&d);
            d = (ue_diag){0};
            d.max_items = 50;
            ue_hsd_new_stats new_stats;
            ue_hsd_edit_stats edit_stats;
            memset(&new_stats, 0, sizeof new_stats);
            memset(&edit_stats, 0, sizeof edit_stats);
            int32_t *anim_index = malloc((s.animation_count + 1) * sizeof *anim_index);
            if (!anim_index) abort();
            for (size_t a = 0; a < s.animation_count; a++) anim_index[a] = -2; /* each must be written */
            new_stats.anim_index = edit_stats.anim_index = anim_index;
            ue_result r = path == 0 ? ue_hsd_from_scene(&s, NULL, &out, &new_stats, &d)
                                    : ue_hsd_apply_scene(base->data, base->size, "creature.dat", &s, &out, &edit_stats, &d);
            check(r, &out, &d);
            if (path == 0 && r == UE_OK && new_stats.clips > s.animation_count) abort();
            for (size_t a = 0; path == 0 && r == UE_OK && a < s.animation_count; a++)
                if (anim_index[a] < -1) abort();
            if (path == 1) check_edit_stats(r, &edit_stats, anim_index, s.animation_count);
            free(anim_index);
            ue_buf_free(&out);
        }
    }
    ue_scene_free(&s);
    ue_diag_free(&d);
    return 0;
}
