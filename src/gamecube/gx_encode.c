/* unearth — GX texture encoders (docs/formats/hsd-materials.md#gx-texel-formats): RGBA8 or palette indices to tiled blocks of
 * I4, I8, IA4, IA8, RGB565, RGB5A3, RGBA8, C4, C8 and CMPR, rounding to what the hardware expands back. */
#include <string.h>

#include "gamecube/gx_encode.h"
#include "common/bytes.h"

/* Nearest n-bit value of an 8-bit channel; exact for bit-replicated inputs (the expansion
 * differs from v·255/(2^n−1) by less than one, which the rounding absorbs). */
static unsigned quant(unsigned v, unsigned bits) {
    unsigned max = (1u << bits) - 1u;
    return (v * max + 127u) / 255u;
}

uint16_t ue_gx_pack_rgb565(const uint8_t c[4]) {
    return (uint16_t)((quant(c[0], 5) << 11) | (quant(c[1], 6) << 5) | quant(c[2], 5));
}

uint16_t ue_gx_pack_rgb5a3(const uint8_t c[4]) {
    unsigned a = quant(c[3], 3);
    if (a == 7) /* opaque: the 5-bit colour form */
        return (uint16_t)(0x8000u | (quant(c[0], 5) << 10) | (quant(c[1], 5) << 5) | quant(c[2], 5));
    return (uint16_t)((a << 12) | (quant(c[0], 4) << 8) | (quant(c[1], 4) << 4) | quant(c[2], 4));
}

static uint16_t pack_ia8(const uint8_t c[4]) {
    unsigned i = (77u * c[0] + 150u * c[1] + 29u * c[2] + 128u) >> 8; /* grey stays exact */
    return (uint16_t)(((unsigned)c[3] << 8) | i);
}

/* The texel at (x, y), clamped to the image so padding repeats the edge. */
static const uint8_t *texel(const uint8_t *p, size_t bpp, uint32_t w, uint32_t h, uint32_t x,
                            uint32_t y) {
    if (x >= w) x = w - 1;
    if (y >= h) y = h - 1;
    return p + ((size_t)y * w + x) * bpp;
}

typedef struct block_shape {
    uint32_t bw, bh;
} block_shape;

static bool side_ok(uint32_t w, uint32_t h) {
    return w >= 1 && h >= 1 && w <= UE_GX_MAX_SIDE && h <= UE_GX_MAX_SIDE;
}

static block_shape shape_of(uint32_t format) {
    if (format == UE_GX_I4) return (block_shape){8, 8};
    if (format == UE_GX_I8 || format == UE_GX_IA4) return (block_shape){8, 4};
    return (block_shape){4, 4};
}

/* One texel of the byte-or-wider direct formats; I4 is packed by put_i4_pair. */
static void put_texel(uint32_t format, const uint8_t *c, ue_buf *out) {
    uint16_t ia = pack_ia8(c);
    if (format == UE_GX_I8) ue_buf_put_u8(out, (uint8_t)ia);
    else if (format == UE_GX_IA4) ue_buf_put_u8(out, (uint8_t)(quant(c[3], 4) << 4 | quant(ia & 0xFFu, 4)));
    else if (format == UE_GX_IA8) ue_buf_put_u16be(out, ia);
    else if (format == UE_GX_RGB565) ue_buf_put_u16be(out, ue_gx_pack_rgb565(c));
    else ue_buf_put_u16be(out, ue_gx_pack_rgb5a3(c));
}

/* RGBA8 blocks hold 16 (A, R) pairs, then 16 (G, B) pairs, in texel order. */
static void put_rgba8_block(const uint8_t *rgba, uint32_t w, uint32_t h, uint32_t bx, uint32_t by, ue_buf *out) {
    for (unsigned half = 0; half < 2; half++)
        for (uint32_t k = 0; k < 16; k++) {
            const uint8_t *c = texel(rgba, 4, w, h, bx + k % 4, by + k / 4);
            ue_buf_put_u8(out, half ? c[1] : c[3]);
            ue_buf_put_u8(out, half ? c[2] : c[0]);
        }
}

/* Walks the blocks left to right, top to bottom, and the texels inside each in row order. */
static void put_direct(uint32_t format, const uint8_t *rgba, uint32_t w, uint32_t h, ue_buf *out) {
    block_shape s = shape_of(format);
    for (uint32_t by = 0; by < h; by += s.bh)
        for (uint32_t bx = 0; bx < w; bx += s.bw) {
            if (format == UE_GX_RGBA8) {
                put_rgba8_block(rgba, w, h, bx, by, out);
                continue;
            }
            for (uint32_t y = 0; y < s.bh; y++)
                for (uint32_t x = 0; x < s.bw; x += format == UE_GX_I4 ? 2 : 1) {
                    const uint8_t *c = texel(rgba, 4, w, h, bx + x, by + y);
                    if (format != UE_GX_I4) {
                        put_texel(format, c, out);
                        continue;
                    }
                    unsigned right = pack_ia8(texel(rgba, 4, w, h, bx + x + 1, by + y)) & 0xFFu;
                    ue_buf_put_u8(out, (uint8_t)(quant(pack_ia8(c) & 0xFFu, 4) << 4 | quant(right, 4)));
                }
        }
}

/* ---- CMPR ------------------------------------------------------------------------------------ */

static void unpack565(uint16_t v, unsigned c[3]) {
    unsigned r = (v >> 11) & 0x1Fu, g = (v >> 5) & 0x3Fu, b = v & 0x1Fu;
    c[0] = (r << 3) | (r >> 2);
    c[1] = (g << 2) | (g >> 4);
    c[2] = (b << 3) | (b >> 2);
}

/* The four colours the decoder derives from c0, c1 (the rule of gx_texture.c). */
static void cmpr_colours(uint16_t c0, uint16_t c1, unsigned pal[4][3]) {
    unpack565(c0, pal[0]);
    unpack565(c1, pal[1]);
    for (unsigned ch = 0; ch < 3; ch++) {
        unsigned a = pal[0][ch], b = pal[1][ch];
        pal[2][ch] = c0 > c1 ? (5 * a + 3 * b) >> 3 : (a + b) / 2;
        pal[3][ch] = c0 > c1 ? (3 * a + 5 * b) >> 3 : 0;
    }
}

static unsigned dist2(const unsigned a[3], const uint8_t *b) {
    unsigned d = 0;
    for (unsigned ch = 0; ch < 3; ch++) {
        int e = (int)a[ch] - (int)b[ch];
        d += (unsigned)(e * e);
    }
    return d;
}

/* The two opaque texels farthest apart (the first opaque one twice when alone or all equal). */
static void end_points(const uint8_t px[16][4], uint16_t *c0, uint16_t *c1) {
    int best_i = -1, best_j = -1;
    long best = -1;
    for (int i = 0; i < 16; i++)
        for (int j = i; j < 16; j++) {
            if (px[i][3] < 128 || px[j][3] < 128) continue;
            long d = 0;
            for (int ch = 0; ch < 3; ch++) d += (long)(px[i][ch] - px[j][ch]) * (px[i][ch] - px[j][ch]);
            if (d > best) best = d, best_i = i, best_j = j;
        }
    *c0 = best_i < 0 ? 0 : ue_gx_pack_rgb565(px[best_i]);
    *c1 = best_j < 0 ? 0 : ue_gx_pack_rgb565(px[best_j]);
}

static void put_cmpr_sub(const uint8_t px[16][4], ue_buf *out) {
    bool transparent = false;
    for (int i = 0; i < 16; i++) transparent |= px[i][3] < 128;
    uint16_t c0, c1;
    end_points(px, &c0, &c1);
    /* 4-colour mode needs c0 > c1, the 3-colour mode (transparent black) c0 <= c1. */
    if ((transparent && c0 > c1) || (!transparent && c0 < c1)) {
        uint16_t t = c0;
        c0 = c1;
        c1 = t;
    }
    unsigned pal[4][3];
    cmpr_colours(c0, c1, pal);
    unsigned choices = c0 > c1 ? 4 : 3;
    ue_buf_put_u16be(out, c0);
    ue_buf_put_u16be(out, c1);
    for (int y = 0; y < 4; y++) {
        unsigned row = 0;
        for (int x = 0; x < 4; x++) {
            const uint8_t *c = px[y * 4 + x];
            unsigned sel = 3;
            if (c[3] >= 128 || choices == 4) {
                unsigned best = UINT32_MAX;
                for (unsigned k = 0; k < choices; k++)
                    if (dist2(pal[k], c) < best) best = dist2(pal[k], c), sel = k;
            }
            row |= sel << (6 - 2 * x);
        }
        ue_buf_put_u8(out, (uint8_t)row);
    }
}

static void put_cmpr(const uint8_t *rgba, uint32_t w, uint32_t h, ue_buf *out) {
    for (uint32_t by = 0; by < h; by += 8)
        for (uint32_t bx = 0; bx < w; bx += 8)
            for (uint32_t s = 0; s < 4; s++) { /* top-left, top-right, bottom-left, bottom-right */
                uint8_t px[16][4];
                for (uint32_t y = 0; y < 4; y++)
                    for (uint32_t x = 0; x < 4; x++)
                        memcpy(px[y * 4 + x],
                               texel(rgba, 4, w, h, bx + (s & 1u) * 4 + x, by + (s >> 1) * 4 + y),
                               4);
                put_cmpr_sub((const uint8_t(*)[4])px, out);
            }
}

ue_result ue_gx_encode_rgba(uint32_t format, const uint8_t *rgba, uint32_t width, uint32_t height,
                            ue_buf *out) {
    if (!rgba || !out || !side_ok(width, height)) return UE_ERR_USAGE;
    if (format == UE_GX_CMPR) put_cmpr(rgba, width, height, out);
    else if (format == UE_GX_I4 || format == UE_GX_I8 || format == UE_GX_IA4 || format == UE_GX_IA8 ||
             format == UE_GX_RGB565 || format == UE_GX_RGB5A3 || format == UE_GX_RGBA8)
        put_direct(format, rgba, width, height, out);
    else
        return UE_ERR_USAGE;
    return out->failed ? UE_ERR_NOMEM : UE_OK;
}

ue_result ue_gx_encode_indices(uint32_t format, const uint8_t *idx, uint32_t w, uint32_t h,
                               ue_buf *out) {
    if (!idx || !out || !side_ok(w, h) || (format != UE_GX_C4 && format != UE_GX_C8))
        return UE_ERR_USAGE;
    bool c4 = format == UE_GX_C4;
    if (c4)
        for (size_t i = 0; i < (size_t)w * h; i++)
            if (idx[i] >= 16) return UE_ERR_USAGE;
    uint32_t bh = c4 ? 8 : 4;
    for (uint32_t by = 0; by < h; by += bh)
        for (uint32_t bx = 0; bx < w; bx += 8)
            for (uint32_t y = 0; y < bh; y++)
                for (uint32_t x = 0; x < 8; x += c4 ? 2 : 1) {
                    uint8_t v = *texel(idx, 1, w, h, bx + x, by + y);
                    if (c4) v = (uint8_t)((v << 4) | *texel(idx, 1, w, h, bx + x + 1, by + y));
                    ue_buf_put_u8(out, v); /* C4: the left texel in the high nibble */
                }
    return out->failed ? UE_ERR_NOMEM : UE_OK;
}

ue_result ue_gx_encode_palette(uint32_t tlut_format, const uint8_t *rgba, size_t count,
                               ue_buf *out) {
    if (!rgba || !out || tlut_format > UE_GX_TLUT_RGB5A3) return UE_ERR_USAGE;
    for (size_t i = 0; i < count; i++) {
        const uint8_t *c = rgba + 4 * i;
        ue_buf_put_u16be(out, tlut_format == UE_GX_TLUT_IA8      ? pack_ia8(c)
                              : tlut_format == UE_GX_TLUT_RGB565 ? ue_gx_pack_rgb565(c)
                                                                 : ue_gx_pack_rgb5a3(c));
    }
    return out->failed ? UE_ERR_NOMEM : UE_OK;
}
