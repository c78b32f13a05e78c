/* libFuzzer target: the GameCube "LZSS" file (header, docs/formats/lzss.md#size-fallback, strict and tolerant
 * decoding, the one-entry container view) and encode → decode identity on the same bytes. */
#include <stdlib.h>
#include <string.h>

#include "archive/container.h"
#include "gamecube/gamecube_int.h"
#include "unearth/gamecube.h"
#include "unearth/lzss.h"
#include "fuzz_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void decode_both_modes(const uint8_t *data, size_t size) {
    for (int mode = 0; mode < 2; mode++) {
        uint8_t *out = NULL;
        size_t n;
        ue_diag d = {0};
        d.max_items = 50;
        if (ue_gclzss_decode(data, size, (ue_mode)mode, &out, &n, &d, 0, "fuzz") == UE_OK) {
            /* The decoder must never accept more than the stream can produce. */
            if (n > ue_lzss_max_output(size - UE_GCLZSS_HEADER)) abort();
            free(out);
        }
        ue_diag_free(&d);
    }
}

/* The standalone-file container: open decodes once; read, JSON and re-encode reuse it. */
static void open_as_container(const uint8_t *data, size_t size) {
    if (!ue_gclzss_ops.probe(data, size, size)) return;
    ue_source src = ue_source_memory(data, size);
    void *s;
    if (ue_gclzss_ops.open(&src, UE_MODE_TOLERANT, &s, NULL) != UE_OK) return;
    uint8_t *p;
    size_t n;
    if (ue_gclzss_ops.read(s, 0, &p, &n, NULL) == UE_OK) free(p);
    fuzz_container_json(&ue_gclzss_ops, s, 1);
    ue_buf out = {0};
    if (ue_gclzss_ops.reencode(s, &out, NULL) != UE_OK || out.size != size ||
        memcmp(out.data, data, size) != 0)
        abort();
    ue_buf_free(&out);
    ue_gclzss_ops.close(s);
}

static void round_trip(const uint8_t *data, size_t size) {
    ue_buf enc = {0};
    if (ue_gclzss_encode(data, size, size ? data[0] % 10 : 0, 0, &enc) == UE_OK) {
        uint8_t *back;
        size_t n;
        if (ue_gclzss_decode(enc.data, enc.size, UE_MODE_STRICT, &back, &n, NULL, 0, "fuzz") !=
                UE_OK ||
            n != size || (size && memcmp(back, data, size) != 0))
            abort();
        free(back);
    }
    ue_buf_free(&enc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    decode_both_modes(data, size);
    open_as_container(data, size);
    round_trip(data, size);
    return 0;
}
