/* Benchmark: GX texture decoding — megapixels per second for each format on a 1024×1024
 * level 0 of random texels (palette formats with a full random palette). Never pass/fail. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "unearth/gx.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint32_t rs = 0x6E7E0001u;
static uint8_t rnd8(void) {
    rs ^= rs << 13;
    rs ^= rs >> 17;
    rs ^= rs << 5;
    return (uint8_t)(rs >> 11);
}

int main(int argc, char **argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 20;
    if (reps <= 0) reps = 20;
    enum { SIDE = 1024 };
    static const uint32_t formats[] = {UE_GX_I4, UE_GX_I8, UE_GX_IA4, UE_GX_IA8, UE_GX_RGB565,
                                       UE_GX_RGB5A3, UE_GX_RGBA8, UE_GX_C4, UE_GX_C8,
                                       UE_GX_C14X2, UE_GX_CMPR};
    size_t data_size = (size_t)SIDE * SIDE * 4, tlut_size = 16384 * 2;
    uint8_t *data = malloc(data_size), *tlut = malloc(tlut_size), *out = malloc(data_size);
    if (!data || !tlut || !out) return 3;
    for (size_t i = 0; i < data_size; i++) data[i] = rnd8();
    for (size_t i = 0; i < tlut_size; i++) tlut[i] = rnd8();
    printf("%-7s %10s %10s\n", "format", "MPixel/s", "MB/s in");
    for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
        ue_gx_image img = {data, data_size, SIDE, SIDE, formats[f], tlut, tlut_size, 16384,
                           UE_GX_TLUT_RGB5A3};
        size_t bytes = 0;
        ue_gx_level_size(formats[f], SIDE, SIDE, 0, NULL, NULL, &bytes, NULL);
        double t0 = now();
        for (int r = 0; r < reps; r++)
            if (ue_gx_decode_level(&img, 0, UE_MODE_TOLERANT, out, data_size, NULL, 0, NULL) != UE_OK)
                return 1;
        double dt = now() - t0;
        printf("%-7s %10.1f %10.1f\n", ue_gx_format_name(formats[f]),
               (double)SIDE * SIDE * reps / dt / 1e6, (double)bytes * reps / dt / 1048576.0);
    }
    free(data);
    free(tlut);
    free(out);
    return 0;
}
