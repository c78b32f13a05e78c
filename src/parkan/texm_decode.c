/* unearth — level 0 of a Texm entry to RGBA for the material chain: header and size checked,
 * pixels expanded by the channel table of spec §5.5 (FParkan's reading). */
#include <stdlib.h>
#include <string.h>

#include "parkan/texm_decode.h"
#include "common/bytes.h"

#define HEADER 32
#define PALETTE 1024
#define MAX_SIDE 8192u

static uint8_t expand(uint32_t v, uint32_t bits) { return (uint8_t)((v * 255u + ((1u << bits) - 1) / 2) / ((1u << bits) - 1)); }

static size_t bytes_per_pixel(uint32_t format) {
    switch (format) {
    case 0: return 1;
    case 565: case 556: case 4444: case 88: return 2;
    case 888: case 8888: return 4;
    default: return 0;
    }
}

static void pixel(uint32_t format, const uint8_t *p, const uint8_t *palette, uint8_t out[4]) {
    uint32_t v = format == 0 ? p[0] : bytes_per_pixel(format) == 2 ? ue_load_u16le(p) : ue_load_u32le(p);
    switch (format) {
    case 0: memcpy(out, palette + 4 * v, 4); break; /* palette bytes as RGBA (spec §5.5: unresolved) */
    case 565: out[0] = expand(v >> 11, 5), out[1] = expand((v >> 5) & 63, 6), out[2] = expand(v & 31, 5), out[3] = 255; break;
    case 556: out[0] = expand(v >> 11, 5), out[1] = expand((v >> 6) & 31, 5), out[2] = expand(v & 63, 6), out[3] = 255; break;
    case 4444: out[3] = (uint8_t)((v >> 12) * 17), out[0] = (uint8_t)(((v >> 8) & 15) * 17),
               out[1] = (uint8_t)(((v >> 4) & 15) * 17), out[2] = (uint8_t)((v & 15) * 17); break;
    case 88: out[0] = out[1] = out[2] = (uint8_t)(v >> 8), out[3] = (uint8_t)v; break;
    case 888: out[0] = p[0], out[1] = p[1], out[2] = p[2], out[3] = 255; break;
    default: out[3] = p[0], out[0] = p[1], out[1] = p[2], out[2] = p[3]; break; /* 8888 */
    }
}

ue_result ue_parkan_texm_rgba(const uint8_t *data, size_t size, ue_parkan_rgba *out) {
    memset(out, 0, sizeof *out);
    if (size < HEADER || ue_load_u32le(data) != UE_TEXM_TYPE) return UE_ERR_INVALID;
    uint32_t w = ue_load_u32le(data + 4), h = ue_load_u32le(data + 8), format = ue_load_u32le(data + 28);
    size_t bpp = bytes_per_pixel(format);
    if (!w || !h || w > MAX_SIDE || h > MAX_SIDE || !bpp || !ue_load_u32le(data + 12)) return UE_ERR_INVALID;
    size_t start = HEADER + (format == 0 ? PALETTE : 0), pixels = (size_t)w * h;
    if (size < start || (size - start) / bpp < pixels) return UE_ERR_INVALID;
    out->rgba = malloc(pixels * 4);
    if (!out->rgba) return UE_ERR_NOMEM;
    for (size_t i = 0; i < pixels; i++) pixel(format, data + start + i * bpp, data + HEADER, out->rgba + 4 * i);
    out->width = w, out->height = h;
    return UE_OK;
}
