/* libFuzzer target: the Texm reader in both modes, every level's decode, the writer, and the
 * builder fed with the decoded pixels (PNG → Texm's path) in the same pixel format. */
#include <stdlib.h>
#include <string.h>

#include "unearth/texm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Level 0 decoded, rebuilt in the same format and decoded again must give the same pixels:
 * every format's encode inverts its decode on decoded values (888's unused byte aside). */
static void rebuild_level0(const ue_texm *t, const uint8_t *rgba) {
    const ue_texm_level *lv = &t->levels[0];
    ue_texm_build how = {t->format, 1, t->flags4, t->flags5, t->unknown6, NULL, 0, false};
    ue_buf b = {0};
    if (ue_texm_build_rgba(lv->width, lv->height, rgba, &how, &b, NULL) != UE_OK) abort();
    ue_texm again;
    if (ue_texm_parse(b.data, b.size, UE_MODE_STRICT, &again, NULL) != UE_OK) abort();
    size_t n = (size_t)lv->width * lv->height * 4;
    uint8_t *back = malloc(n);
    if (!back || ue_texm_decode_level(&again, 0, NULL, back, n, NULL) != UE_OK) abort();
    if (memcmp(back, rgba, n) != 0) abort();
    free(back);
    ue_texm_free(&again);
    ue_buf_free(&b);
}

static void decode_all(const ue_texm *t) {
    for (uint32_t i = 0; i < t->level_count; i++) {
        const ue_texm_level *lv = &t->levels[i];
        size_t n = (size_t)lv->width * lv->height * 4;
        uint8_t *rgba = malloc(n);
        if (!rgba || ue_texm_decode_level(t, i, NULL, rgba, n, NULL) != UE_OK) abort();
        if (i == 0 && n <= 4u * 64 * 64) rebuild_level0(t, rgba);
        free(rgba);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    for (int mode = 0; mode < 2; mode++) {
        ue_texm t;
        ue_diag d = {0};
        ue_result r = ue_texm_parse(data, size, (ue_mode)mode, &t, &d);
        if (r != UE_OK && ue_diag_count(&d, UE_SEV_ERROR) == 0) abort(); /* a refusal says why */
        if (r == UE_OK) {
            decode_all(&t);
            /* whatever either mode accepts writes back byte for byte (kept tail included) */
            ue_buf out = {0};
            if (ue_texm_write(&t, &out) != UE_OK || out.size != size || memcmp(out.data, data, size))
                abort();
            ue_buf_free(&out);
            ue_texm_free(&t);
        }
        ue_diag_free(&d);
    }
    return 0;
}
