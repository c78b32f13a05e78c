/* unearth — Texm channel layouts (docs/formats/texm.md#pixel-formats, FParkan's reading) and palette entries
 * (decided: B, G, R, unused with alpha 255, after the engine-side reading of docs/formats/texm.md#pixel-formats). */
#include "parkan/texm_pixels.h"

#include "common/bytes.h"
#include "unearth/texm.h"

/* Channel widening as the spec gives it (HEAD): rounding, so 0 → 0 and max → 255. */
static uint8_t widen5(unsigned v) { return (uint8_t)((v * 255u + 15u) / 31u); }
static uint8_t widen6(unsigned v) { return (uint8_t)((v * 255u + 31u) / 63u); }
static uint8_t widen4(unsigned v) { return (uint8_t)(v * 17u); }
/* Narrowing: the nearest stored value, so that widen(narrow(widen(v))) == widen(v). */
static unsigned narrow(uint8_t c, unsigned max) { return ((unsigned)c * max + 127u) / 255u; }

static void set4(uint8_t o[4], uint8_t r, uint8_t g, uint8_t b, uint8_t a) {
    o[0] = r, o[1] = g, o[2] = b, o[3] = a;
}

void texm_pixel_decode(uint32_t format, const uint8_t *p, const uint8_t *palette, uint8_t o[4]) {
    /* an indexed pixel is one byte: the 16-bit value is read only for the 2-byte formats */
    unsigned v = ue_texm_bpp(format) == 2 ? ue_load_u16le(p) : 0;
    switch (format) {
    case UE_TEXM_INDEXED: {
        const uint8_t *e = palette + 4u * p[0]; /* B, G, R, unused (docs/parkan-textures.md) */
        set4(o, e[2], e[1], e[0], 255);
        break;
    }
    case UE_TEXM_565: set4(o, widen5(v >> 11), widen6((v >> 5) & 63), widen5(v & 31), 255); break;
    case UE_TEXM_556: set4(o, widen5(v >> 11), widen5((v >> 6) & 31), widen6(v & 63), 255); break;
    case UE_TEXM_4444:
        set4(o, widen4((v >> 8) & 15), widen4((v >> 4) & 15), widen4(v & 15), widen4(v >> 12));
        break;
    case UE_TEXM_88: set4(o, p[1], p[1], p[1], p[0]); break; /* L high byte, A low byte */
    case UE_TEXM_888: set4(o, p[0], p[1], p[2], 255); break;
    default: set4(o, p[1], p[2], p[3], p[0]); break; /* 8888: A, R, G, B */
    }
}

void texm_pixel_encode(uint32_t format, const uint8_t c[4], uint8_t *p) {
    unsigned v = 0;
    switch (format) {
    case UE_TEXM_565: v = narrow(c[0], 31) << 11 | narrow(c[1], 63) << 5 | narrow(c[2], 31); break;
    case UE_TEXM_556: v = narrow(c[0], 31) << 11 | narrow(c[1], 31) << 6 | narrow(c[2], 63); break;
    case UE_TEXM_4444:
        v = narrow(c[3], 15) << 12 | narrow(c[0], 15) << 8 | narrow(c[1], 15) << 4 | narrow(c[2], 15);
        break;
    case UE_TEXM_88: /* luminance: the green-weighted mean of the three channels */
        v = (unsigned)((c[0] * 77u + c[1] * 150u + c[2] * 29u + 128u) >> 8) << 8 | c[3];
        break;
    case UE_TEXM_888: p[0] = c[0], p[1] = c[1], p[2] = c[2], p[3] = 0; return;
    default: p[0] = c[3], p[1] = c[0], p[2] = c[1], p[3] = c[2]; return; /* 8888 */
    }
    ue_store_u16le(p, (uint16_t)v);
}

void texm_palette_encode(const uint8_t c[4], uint8_t *e) {
    e[0] = c[2], e[1] = c[1], e[2] = c[0], e[3] = 0;
}

/* The same decode over `n` pixels with the format's case chosen once, not per pixel (the hot
 * loop of `textures`; bench/bench_texm). */
void texm_pixels_decode(uint32_t format, const uint8_t *src, size_t n, const uint8_t *palette,
                        uint8_t *o) {
    switch (format) {
    case UE_TEXM_565:
        for (size_t i = 0; i < n; i++, src += 2, o += 4) {
            unsigned v = ue_load_u16le(src);
            set4(o, widen5(v >> 11), widen6((v >> 5) & 63), widen5(v & 31), 255);
        }
        break;
    case UE_TEXM_888:
        for (size_t i = 0; i < n; i++, src += 4, o += 4) set4(o, src[0], src[1], src[2], 255);
        break;
    case UE_TEXM_8888:
        for (size_t i = 0; i < n; i++, src += 4, o += 4) set4(o, src[1], src[2], src[3], src[0]);
        break;
    default: {
        uint32_t bpp = ue_texm_bpp(format);
        for (size_t i = 0; i < n; i++) texm_pixel_decode(format, src + i * bpp, palette, o + 4 * i);
    }
    }
}
