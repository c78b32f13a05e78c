/* libFuzzer target: the glTF reader behind `unearth import` on arbitrary GLB or JSON bytes (no
 * base directory, so only embedded and data: buffers); a scene it accepts must validate and draw. */
#include <stdlib.h>

#include "unearth/gltf_read.h"
#include "unearth/scene.h"
#include "fuzz_preview.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    ue_scene s;
    ue_diag d = {0};
    d.max_items = 50;
    ue_scene_init(&s);
    ue_result r = ue_gltf_read(data, size, NULL, UE_MODE_STRICT, &s, &d);
    if (r == UE_OK && ue_scene_validate(&s, NULL) != UE_OK) abort(); /* accepted means valid */
    if (r == UE_OK) fuzz_preview(&s);
    if (r != UE_OK && r != UE_ERR_NOMEM && ue_diag_count(&d, UE_SEV_ERROR) == 0)
        abort(); /* a refusal always says why */
    ue_scene_free(&s);
    ue_diag_free(&d);
    return 0;
}
