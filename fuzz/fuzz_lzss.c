/* libFuzzer target: the LZSS decoder with both ring fills on arbitrary streams, and the
 * encoder → decoder round trip on the same bytes treated as plain data. */
#include <stdlib.h>
#include <string.h>

#include "unearth/lzss.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    /* The first two bytes choose the declared output size (up to 64 KiB). */
    size_t out_size = (size_t)data[0] | (size_t)data[1] << 8;
    uint8_t *out = malloc(out_size + 1);
    if (!out) return 0;
    ue_lzss_decode(&UE_LZSS_PARKAN, data + 2, size - 2, out, out_size, NULL, NULL, 0, "fuzz");
    ue_lzss_params strict = UE_LZSS_GAMECUBE;
    strict.forbid_prefill = true;
    ue_lzss_decode(&strict, data + 2, size - 2, out, out_size, NULL, NULL, 0, "fuzz");
    free(out);

    ue_buf enc = {0};
    int level = data[0] % 10;
    if (ue_lzss_encode(&UE_LZSS_GAMECUBE, level, data, size, &enc) == UE_OK) {
        uint8_t *back = malloc(size);
        if (!back) abort();
        if (ue_lzss_decode(&UE_LZSS_GAMECUBE, enc.data, enc.size, back, size, NULL, NULL, 0, "fuzz") != UE_OK ||
            memcmp(back, data, size) != 0)
            abort();
        free(back);
    }
    ue_buf_free(&enc);
    return 0;
}
