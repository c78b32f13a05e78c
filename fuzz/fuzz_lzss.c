/* libFuzzer target: the LZSS decoder with both ring fills on arbitrary streams (and decoding in
 * pieces equal to decoding whole), and the encoder → decoder round trip on the same bytes. */
#include <stdlib.h>
#include <string.h>

#include "codec/lzss_stream.h"
#include "unearth/lzss.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The buffer is one byte more than the stream can fill, whatever the first two bytes declare:
 * the "input ends first" path is still taken, but no run allocates (or ASan quarantines) tens
 * of KiB that the stream could never write. */
static size_t bounded_out_size(size_t declared, size_t stream_size) {
    uint64_t most = ue_lzss_max_output(stream_size) + 1u;
    return declared < most ? declared : (size_t)most;
}

static ue_result next_piece(void *ctx, uint64_t at, const uint8_t *data, size_t n) {
    size_t *next = ctx;
    if (at != *next) abort();
    (void)data;
    *next = (size_t)at + n;
    return UE_OK;
}

/* Decoding in pieces (of a size the stream chooses) gives the whole decode's result, counts and
 * bytes, and hands out the pieces in order. */
static void pieces_equal_whole(const uint8_t *stream, size_t n, size_t out_size, ue_result whole_r,
                               const ue_lzss_stats *whole_st, const uint8_t *whole) {
    uint8_t *out = malloc(out_size + 1);
    if (!out) return;
    size_t piece = 1u + (n ? stream[n - 1] : 0u), next = 0;
    ue_lzss_stats st;
    ue_result r = ue_lzss_decode_pieces(&UE_LZSS_PARKAN, stream, n, out, out_size, piece, next_piece,
                                        &next, &st, NULL, 0, "fuzz");
    if (r != whole_r || st.produced != whole_st->produced || st.consumed != whole_st->consumed ||
        next > st.produced || memcmp(out, whole, st.produced) != 0)
        abort();
    free(out);
}

static void decode_both_fills(const uint8_t *stream, size_t n, size_t out_size) {
    uint8_t *out = malloc(out_size + 1);
    if (!out) return;
    ue_lzss_stats st;
    ue_result r = ue_lzss_decode(&UE_LZSS_PARKAN, stream, n, out, out_size, &st, NULL, 0, "fuzz");
    if (r == UE_OK && (st.produced != out_size || st.consumed > n)) abort();
    pieces_equal_whole(stream, n, out_size, r, &st, out);
    ue_lzss_params strict = UE_LZSS_GAMECUBE;
    strict.forbid_prefill = true;
    ue_lzss_decode(&strict, stream, n, out, out_size, NULL, NULL, 0, "fuzz");
    free(out);
}

static void round_trip(const uint8_t *data, size_t size) {
    ue_buf enc = {0};
    int level = data[0] % 10;
    if (ue_lzss_encode(&UE_LZSS_GAMECUBE, level, data, size, &enc) == UE_OK) {
        /* Every stream we write must respect the bound callers rely on. */
        if (size > ue_lzss_max_output(enc.size)) abort();
        uint8_t *back = malloc(size);
        if (!back) abort();
        if (ue_lzss_decode(&UE_LZSS_GAMECUBE, enc.data, enc.size, back, size, NULL, NULL, 0,
                           "fuzz") != UE_OK ||
            memcmp(back, data, size) != 0)
            abort();
        free(back);
    }
    ue_buf_free(&enc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    /* The first two bytes choose the declared output size (up to 64 KiB). */
    size_t declared = (size_t)data[0] | (size_t)data[1] << 8;
    decode_both_fills(data + 2, size - 2, bounded_out_size(declared, size - 2));
    round_trip(data, size);
    return 0;
}
