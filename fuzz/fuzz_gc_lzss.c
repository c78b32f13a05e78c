/* libFuzzer target: the GameCube "LZSS" container (header, §18.7 size fallback, strict and
 * tolerant decoding) on arbitrary bytes, and encode → decode identity on the same bytes. */
#include <stdlib.h>
#include <string.h>

#include "unearth/gamecube.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    for (int mode = 0; mode < 2; mode++) {
        uint8_t *out = NULL;
        size_t n;
        ue_diag d = {0};
        d.max_items = 50;
        if (ue_gclzss_decode(data, size, (ue_mode)mode, &out, &n, &d, 0, "fuzz") == UE_OK) free(out);
        ue_diag_free(&d);
    }
    if (size > 1 << 16) return 0;
    ue_buf enc = {0};
    if (ue_gclzss_encode(data, size, size ? data[0] % 10 : 0, 0, &enc) == UE_OK) {
        uint8_t *back;
        size_t n;
        if (ue_gclzss_decode(enc.data, enc.size, UE_MODE_STRICT, &back, &n, NULL, 0, "fuzz") != UE_OK ||
            n != size || (size && memcmp(back, data, size) != 0))
            abort();
        free(back);
    }
    ue_buf_free(&enc);
    return 0;
}
