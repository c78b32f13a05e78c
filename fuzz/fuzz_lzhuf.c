/* libFuzzer target: the LZHUF decoder on arbitrary streams (declared size from the first two
 * bytes), plus encoder → decoder round trips that must reproduce the input exactly. */
#include <stdlib.h>
#include <string.h>

#include "unearth/codec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    size_t out_size = (size_t)data[0] | (size_t)data[1] << 8; /* up to 64 KiB */
    const uint8_t *in = data + 2;
    size_t in_size = size - 2;
    uint8_t *out = malloc(out_size ? out_size : 1);
    if (!out) return 0;
    ue_diag d = {0};
    ue_codec_stats st;
    ue_result r = ue_lzhuf_decode(in, in_size, out, out_size, &st, &d, 0, "fuzz");
    if (r == UE_OK && (st.produced != out_size || st.consumed > in_size)) abort();
    if (r != UE_OK && ue_diag_count(&d, UE_SEV_ERROR) == 0) abort();
    ue_diag_free(&d);
    /* The same bytes through raw Deflate, which must honour the same size contract. */
    r = ue_deflate_raw_decode(in, in_size, out, out_size, &st, NULL, 0, "fuzz");
    if (r == UE_OK && st.produced != out_size) abort();
    free(out);

    /* Round trip of the input itself at a level picked by the first byte. */
    ue_buf enc = {0};
    if (ue_lzhuf_encode(data[0] % 10, in, in_size, &enc) != UE_OK) abort();
    uint8_t *back = malloc(in_size ? in_size : 1);
    if (back) {
        if (ue_lzhuf_decode(enc.data, enc.size, back, in_size, NULL, NULL, 0, "fuzz") != UE_OK)
            abort();
        if (in_size && memcmp(back, in, in_size) != 0) abort();
        free(back);
    }
    ue_buf_free(&enc);
    return 0;
}
