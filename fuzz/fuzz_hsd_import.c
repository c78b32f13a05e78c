/* libFuzzer target: glTF → HSD DAT on arbitrary GLB bytes. An accepted scene goes through the new-model
 * path (ue_hsd_from_scene) and the edit path against the sample creature's DAT (built once, in memory);
 * every DAT either returns must read back strictly, and every refusal must say why. */
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
    if (ue_gltf_read(data, size, NULL, UE_MODE_STRICT, &s, &d) == UE_OK) {
        for (int path = 0; path < 2; path++) {
            ue_buf out = {0};
            ue_diag_free(&d);
            d = (ue_diag){0};
            d.max_items = 50;
            ue_result r = path == 0 ? ue_hsd_from_scene(&s, NULL, &out, NULL, &d)
                                    : ue_hsd_apply_scene(base->data, base->size, "creature.dat", &s, &out, NULL, &d);
            check(r, &out, &d);
            ue_buf_free(&out);
        }
    }
    ue_scene_free(&s);
    ue_diag_free(&d);
    return 0;
}
