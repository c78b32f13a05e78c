/* Benchmark: Parkan Texm — decode megapixels per second for each pixel format on a 1024×1024
 * level 0 of random pixels, and RGBA → Texm encode (level 0 only) for the same. Never pass/fail. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "unearth/texm.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint32_t rs = 0x7E3D0001u;
static uint8_t rnd8(void) {
    rs ^= rs << 13;
    rs ^= rs >> 17;
    rs ^= rs << 5;
    return (uint8_t)(rs >> 11);
}

/* One format: a random texture built by hand (header, palette, pixels), then timed decodes and
 * timed builds from the decoded pixels. */
static int run(uint32_t format, int reps, uint8_t *rgba) {
    enum { SIDE = 1024 };
    uint32_t bpp = ue_texm_bpp(format);
    size_t pal = format == UE_TEXM_INDEXED ? UE_TEXM_PALETTE_SIZE : 0;
    size_t size = UE_TEXM_HEADER_SIZE + pal + (size_t)SIDE * SIDE * bpp;
    uint8_t *bytes = malloc(size);
    if (!bytes) return 3;
    const uint32_t head[8] = {UE_TEXM_MAGIC, SIDE, SIDE, 1, 0, 0, 0, format};
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 4; k++) bytes[4 * i + k] = (uint8_t)(head[i] >> (8 * k));
    for (size_t i = UE_TEXM_HEADER_SIZE; i < size; i++) bytes[i] = rnd8();
    ue_texm t;
    if (ue_texm_parse(bytes, size, UE_MODE_STRICT, &t, NULL) != UE_OK) return 1;
    size_t out = (size_t)SIDE * SIDE * 4;
    double t0 = now();
    for (int r = 0; r < reps; r++)
        if (ue_texm_decode_level(&t, 0, NULL, rgba, out, NULL) != UE_OK) return 1;
    double dt = now() - t0;
    /* encode: the indexed builder searches its palette per pixel, so it gets fewer rounds */
    int enc_reps = format == UE_TEXM_INDEXED ? 1 : reps;
    ue_texm_build how = {format, 1, 0, 0, 0, NULL, 0, false};
    double t1 = now();
    for (int r = 0; r < enc_reps; r++) {
        ue_buf b = {0};
        if (ue_texm_build_rgba(SIDE, SIDE, rgba, &how, &b, NULL) != UE_OK) return 1;
        ue_buf_free(&b);
    }
    double et = now() - t1;
    printf("%-8s %10.1f %10.1f %12.1f\n", ue_texm_format_name(format),
           (double)SIDE * SIDE * reps / dt / 1e6, (double)(size - UE_TEXM_HEADER_SIZE) * reps / dt / 1048576.0,
           (double)SIDE * SIDE * enc_reps / et / 1e6);
    ue_texm_free(&t);
    free(bytes);
    return 0;
}

int main(int argc, char **argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 20;
    if (reps <= 0) reps = 20;
    static const uint32_t formats[] = {UE_TEXM_INDEXED, UE_TEXM_565, UE_TEXM_556, UE_TEXM_4444,
                                       UE_TEXM_88, UE_TEXM_888, UE_TEXM_8888};
    uint8_t *rgba = malloc((size_t)1024 * 1024 * 4);
    if (!rgba) return 3;
    printf("%-8s %10s %10s %12s\n", "format", "MPixel/s", "MB/s in", "enc MPixel/s");
    for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
        int rc = run(formats[f], reps, rgba);
        if (rc) return rc;
    }
    free(rgba);
    return 0;
}
