/* libFuzzer target: the LZHUF and raw Deflate decoders on arbitrary streams (declared size from
 * the first two bytes), plus encoder → decoder round trips that must reproduce the input. */
#include <stdlib.h>
#include <string.h>

#include "unearth/codec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Sizes above what the stream can produce are refused up front (checked here once), so the
 * buffers below are sized by the input, not by the declared 16-bit size. */
static void decode_lzhuf(const uint8_t *in, size_t n, size_t declared) {
    if (declared > ue_lzhuf_max_output(n)) {
        uint8_t one;
        ue_diag d = {0};
        if (ue_lzhuf_decode(in, n, &one, declared, NULL, &d, 0, "fuzz") != UE_ERR_INVALID ||
            ue_diag_count(&d, UE_SEV_ERROR) != 1)
            abort();
        ue_diag_free(&d);
        return;
    }
    uint8_t *out = malloc(declared ? declared : 1);
    if (!out) return;
    ue_diag d = {0};
    ue_codec_stats st;
    ue_result r = ue_lzhuf_decode(in, n, out, declared, &st, &d, 0, "fuzz");
    if (r == UE_OK && (st.produced != declared || st.consumed > n)) abort();
    if (r != UE_OK && ue_diag_count(&d, UE_SEV_ERROR) == 0) abort();
    ue_diag_free(&d);
    free(out);
}

static void decode_deflate(const uint8_t *in, size_t n, size_t declared) {
    if (declared > ue_deflate_max_output(n)) {
        uint8_t one;
        if (ue_deflate_raw_decode(in, n, &one, declared, NULL, NULL, 0, "fuzz") != UE_ERR_INVALID)
            abort();
        return;
    }
    uint8_t *out = malloc(declared ? declared : 1);
    if (!out) return;
    ue_codec_stats st;
    ue_result r = ue_deflate_raw_decode(in, n, out, declared, &st, NULL, 0, "fuzz");
    if (r == UE_OK && (st.produced != declared || st.consumed > n)) abort();
    free(out);
}

static void round_trip(int level, const uint8_t *in, size_t n) {
    ue_buf enc = {0};
    if (ue_lzhuf_encode(level, in, n, &enc) != UE_OK) abort();
    if (n > ue_lzhuf_max_output(enc.size)) abort();
    uint8_t *back = malloc(n ? n : 1);
    if (back) {
        if (ue_lzhuf_decode(enc.data, enc.size, back, n, NULL, NULL, 0, "fuzz") != UE_OK) abort();
        if (n && memcmp(back, in, n) != 0) abort();
        free(back);
    }
    ue_buf_free(&enc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    size_t declared = (size_t)data[0] | (size_t)data[1] << 8; /* up to 64 KiB */
    decode_lzhuf(data + 2, size - 2, declared);
    decode_deflate(data + 2, size - 2, declared);
    round_trip(data[0] % 10, data + 2, size - 2);
    return 0;
}
