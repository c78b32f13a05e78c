/* libFuzzer target: GX texture decoding of every format, palette encoding and mip level, in
 * both modes, from an 8-byte header (format, palette, sizes, palette count, levels) + bytes. */
#include <stdlib.h>
#include <string.h>

#include "unearth/gx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Decodes one level twice over different fills: every texel must be written either way. */
static void decode_level(const ue_gx_image *img, unsigned level) {
    uint32_t lw, lh;
    size_t bytes, off;
    if (ue_gx_level_size(img->format, img->width, img->height, level, &lw, &lh, &bytes, &off) != UE_OK ||
        off > img->size || bytes > img->size - off)
        return; /* a caller allocates only for a level its data holds */
    size_t n = (size_t)lw * lh * 4;
    uint8_t *a = malloc(n), *b = malloc(n);
    if (!a || !b) abort();
    memset(a, 0x00, n);
    memset(b, 0xFF, n);
    ue_diag d = {0};
    ue_result rs = ue_gx_decode_level(img, level, UE_MODE_STRICT, a, n, &d, 0, "gx");
    if (rs != UE_OK && ue_diag_count(&d, UE_SEV_ERROR) == 0) abort(); /* a refusal says why */
    ue_diag_free(&d);
    ue_result rt = ue_gx_decode_level(img, level, UE_MODE_TOLERANT, b, n, &d, 0, "gx");
    ue_diag_free(&d);
    if (rs == UE_OK && rt != UE_OK) abort();
    /* A strict failure from palette indices alone still writes the level in full, so whenever
     * the tolerant decode succeeds both fills must have been overwritten alike. */
    if (rt == UE_OK && rs != UE_OK && rs != UE_ERR_INVALID) abort();
    if (rt == UE_OK && memcmp(a, b, n) != 0) abort();
    free(a);
    free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 8) return 0;
    ue_gx_image img;
    memset(&img, 0, sizeof img);
    img.format = data[0] & 0xFu;
    img.tlut_format = data[1] & 3u;
    img.width = (uint32_t)(data[2] << 8 | data[3]);
    img.height = (uint32_t)(data[4] << 8 | data[5]);
    size_t rest = size - 8, tlut_bytes = (size_t)data[6] * 2;
    if (tlut_bytes > rest) tlut_bytes = rest;
    img.tlut = data + 8;
    img.tlut_size = tlut_bytes;
    img.tlut_count = data[6];
    img.data = data + 8 + tlut_bytes;
    img.size = rest - tlut_bytes;
    unsigned levels = data[7] % 12u;
    for (unsigned level = 0; level <= levels; level++) decode_level(&img, level);
    return 0;
}
