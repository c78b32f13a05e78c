/* libFuzzer helper — a small preview (32 pixels) of a scene a reader accepted, at rest and at the
 * first frame of its first clip: hostile geometry must draw, or be refused with a reason. */
#ifndef UE_FUZZ_PREVIEW_H
#define UE_FUZZ_PREVIEW_H

#include <stdlib.h>

#include "unearth/preview.h"

static void fuzz_preview(const ue_scene *s) {
    uint8_t rgba[32 * 32 * 4];
    ue_preview_options o;
    ue_preview_options_default(&o);
    o.size = 32;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1 && !s->animation_count) break;
        o.clip = pass ? s->animations[0].name : NULL;
        ue_diag d = {0};
        ue_result r = ue_preview_render(s, &o, rgba, &d);
        if (r != UE_OK && r != UE_ERR_NOMEM && ue_diag_count(&d, UE_SEV_ERROR) == 0) abort();
        ue_diag_free(&d);
    }
}

#endif
