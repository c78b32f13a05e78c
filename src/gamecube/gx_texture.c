/* unearth — GameCube GX texture decoders (docs/formats/hsd-materials.md#gx-texel-formats, palettes docs/formats/hsd-materials.md#palette): tiled blocks to
 * RGBA8 rows, with the hardware's bit replication and CMPR blends, one mip level at a time. */
#include <string.h>

#include "unearth/gx.h"
#include "common/bytes.h"
#include "common/parse.h"

/* ---- the format table --------------------------------------------------------------------- */

/* The palette of a C4/C8/C14X2 level, and how many texels asked past its end. */
typedef struct gx_pal {
    const uint8_t *data;
    size_t count;
    uint32_t format;
    size_t bad;
} gx_pal;

/* Decodes one block into bw × bh RGBA texels, row-major inside the block. */
typedef void (*gx_block_fn)(const uint8_t *b, gx_pal *pal, uint8_t *px);

typedef struct gx_format_info {
    uint32_t id;
    const char *name;
    uint8_t bw, bh, block_bytes;
    bool palette;
    gx_block_fn decode;
} gx_format_info;

/* ---- channel expansion (bit replication, as the hardware does) ---------------------------- */

static uint8_t exp3(unsigned v) { return (uint8_t)((v << 5) | (v << 2) | (v >> 1)); }
static uint8_t exp4(unsigned v) { return (uint8_t)((v << 4) | v); }
static uint8_t exp5(unsigned v) { return (uint8_t)((v << 3) | (v >> 2)); }
static uint8_t exp6(unsigned v) { return (uint8_t)((v << 2) | (v >> 4)); }

static void set_rgba(uint8_t *o, unsigned r, unsigned g, unsigned b, unsigned a) {
    o[0] = (uint8_t)r;
    o[1] = (uint8_t)g;
    o[2] = (uint8_t)b;
    o[3] = (uint8_t)a;
}

/* u16 BE with byte 0 = alpha, byte 1 = intensity. */
static void px_ia8(uint16_t v, uint8_t *o) { set_rgba(o, v & 0xFFu, v & 0xFFu, v & 0xFFu, v >> 8); }

static void px_rgb565(uint16_t v, uint8_t *o) {
    set_rgba(o, exp5((v >> 11) & 0x1Fu), exp6((v >> 5) & 0x3Fu), exp5(v & 0x1Fu), 255);
}

static void px_rgb5a3(uint16_t v, uint8_t *o) {
    if (v & 0x8000u)
        set_rgba(o, exp5((v >> 10) & 0x1Fu), exp5((v >> 5) & 0x1Fu), exp5(v & 0x1Fu), 255);
    else
        set_rgba(o, exp4((v >> 8) & 0xFu), exp4((v >> 4) & 0xFu), exp4(v & 0xFu),
                 exp3((v >> 12) & 0x7u));
}

static void px_palette(gx_pal *p, uint32_t idx, uint8_t *o) {
    if (idx >= p->count) {
        p->bad++;
        set_rgba(o, 0, 0, 0, 0);
        return;
    }
    uint16_t v = ue_load_u16be(p->data + 2u * idx);
    if (p->format == UE_GX_TLUT_IA8) px_ia8(v, o);
    else if (p->format == UE_GX_TLUT_RGB565) px_rgb565(v, o);
    else px_rgb5a3(v, o);
}

/* ---- block decoders ----------------------------------------------------------------------- */

static unsigned nibble(const uint8_t *b, unsigned k) {
    return (k & 1u) ? (b[k >> 1] & 0xFu) : (unsigned)(b[k >> 1] >> 4); /* high = left texel */
}

static void dec_i4(const uint8_t *b, gx_pal *pal, uint8_t *px) {
    (void)pal;
    for (unsigned k = 0; k < 64; k++) {
        unsigned i = exp4(nibble(b, k));
        set_rgba(px + 4 * k, i, i, i, i);
    }
}

static void dec_i8(const uint8_t *b, gx_pal *pal, uint8_t *px) {
    (void)pal;
    for (unsigned k = 0; k < 32; k++) set_rgba(px + 4 * k, b[k], b[k], b[k], b[k]);
}

static void dec_ia4(const uint8_t *b, gx_pal *pal, uint8_t *px) {
    (void)pal;
    for (unsigned k = 0; k < 32; k++) {
        unsigned i = exp4(b[k] & 0xFu);
        set_rgba(px + 4 * k, i, i, i, exp4(b[k] >> 4));
    }
}

static void dec_ia8(const uint8_t *b, gx_pal *pal, uint8_t *px) {
    (void)pal;
    for (unsigned k = 0; k < 16; k++) px_ia8(ue_load_u16be(b + 2 * k), px + 4 * k);
}

static void dec_rgb565(const uint8_t *b, gx_pal *pal, uint8_t *px) {
    (void)pal;
    for (unsigned k = 0; k < 16; k++) px_rgb565(ue_load_u16be(b + 2 * k), px + 4 * k);
}

static void dec_rgb5a3(const uint8_t *b, gx_pal *pal, uint8_t *px) {
    (void)pal;
    for (unsigned k = 0; k < 16; k++) px_rgb5a3(ue_load_u16be(b + 2 * k), px + 4 * k);
}

/* 64 bytes: 16 (A, R) pairs, then 16 (G, B) pairs, in texel order. */
static void dec_rgba8(const uint8_t *b, gx_pal *pal, uint8_t *px) {
    (void)pal;
    for (unsigned k = 0; k < 16; k++)
        set_rgba(px + 4 * k, b[2 * k + 1], b[32 + 2 * k], b[32 + 2 * k + 1], b[2 * k]);
}

static void dec_c4(const uint8_t *b, gx_pal *pal, uint8_t *px) {
    for (unsigned k = 0; k < 64; k++) px_palette(pal, nibble(b, k), px + 4 * k);
}

static void dec_c8(const uint8_t *b, gx_pal *pal, uint8_t *px) {
    for (unsigned k = 0; k < 32; k++) px_palette(pal, b[k], px + 4 * k);
}

static void dec_c14x2(const uint8_t *b, gx_pal *pal, uint8_t *px) {
    for (unsigned k = 0; k < 16; k++) px_palette(pal, ue_load_u16be(b + 2 * k) & 0x3FFFu, px + 4 * k);
}

/* The four colours of a CMPR sub-block: 4-colour mode blends 5/8–3/8 and 3/8–5/8 (integer,
 * truncating); 3-colour mode (c0 <= c1) the 1/2 blend and transparent black. */
static void cmpr_palette(uint16_t c0, uint16_t c1, uint8_t pal[4][4]) {
    px_rgb565(c0, pal[0]);
    px_rgb565(c1, pal[1]);
    for (unsigned ch = 0; ch < 3; ch++) {
        unsigned a = pal[0][ch], b = pal[1][ch];
        if (c0 > c1) {
            pal[2][ch] = (uint8_t)((5 * a + 3 * b) >> 3);
            pal[3][ch] = (uint8_t)((3 * a + 5 * b) >> 3);
        } else {
            pal[2][ch] = (uint8_t)((a + b) / 2);
            pal[3][ch] = 0;
        }
    }
    pal[2][3] = 255;
    pal[3][3] = c0 > c1 ? 255 : 0;
}

/* 8×8 block = four 8-byte 4×4 sub-blocks (top-left, top-right, bottom-left, bottom-right);
 * each row byte holds four 2-bit selectors, leftmost texel in the top bits. */
static void dec_cmpr(const uint8_t *b, gx_pal *unused, uint8_t *px) {
    (void)unused;
    for (unsigned s = 0; s < 4; s++) {
        const uint8_t *sb = b + 8 * s;
        uint8_t pal[4][4];
        cmpr_palette(ue_load_u16be(sb), ue_load_u16be(sb + 2), pal);
        unsigned x0 = (s & 1u) * 4, y0 = (s >> 1) * 4;
        for (unsigned y = 0; y < 4; y++)
            for (unsigned x = 0; x < 4; x++) {
                unsigned sel = (sb[4 + y] >> (6 - 2 * x)) & 3u;
                memcpy(px + 4 * ((y0 + y) * 8 + x0 + x), pal[sel], 4);
            }
    }
}

static const gx_format_info FORMATS[] = {
    {UE_GX_I4, "I4", 8, 8, 32, false, dec_i4},
    {UE_GX_I8, "I8", 8, 4, 32, false, dec_i8},
    {UE_GX_IA4, "IA4", 8, 4, 32, false, dec_ia4},
    {UE_GX_IA8, "IA8", 4, 4, 32, false, dec_ia8},
    {UE_GX_RGB565, "RGB565", 4, 4, 32, false, dec_rgb565},
    {UE_GX_RGB5A3, "RGB5A3", 4, 4, 32, false, dec_rgb5a3},
    {UE_GX_RGBA8, "RGBA8", 4, 4, 64, false, dec_rgba8},
    {UE_GX_C4, "C4", 8, 8, 32, true, dec_c4},
    {UE_GX_C8, "C8", 8, 4, 32, true, dec_c8},
    {UE_GX_C14X2, "C14X2", 4, 4, 32, true, dec_c14x2},
    {UE_GX_CMPR, "CMPR", 8, 8, 32, false, dec_cmpr},
};

static const gx_format_info *format_info(uint32_t format) {
    for (size_t i = 0; i < sizeof FORMATS / sizeof FORMATS[0]; i++)
        if (FORMATS[i].id == format) return &FORMATS[i];
    return NULL;
}

const char *ue_gx_format_name(uint32_t format) {
    const gx_format_info *f = format_info(format);
    return f ? f->name : NULL;
}

/* ---- level geometry ----------------------------------------------------------------------- */

static uint32_t level_side(uint32_t side, unsigned level) {
    uint32_t s = side >> level;
    return s ? s : 1;
}

/* Bytes of one level. With sides ≤ 1024 the largest level is 4 MiB, so no overflow. */
static size_t level_bytes(const gx_format_info *f, uint32_t w, uint32_t h) {
    size_t bx = ((size_t)w + f->bw - 1) / f->bw, by = ((size_t)h + f->bh - 1) / f->bh;
    return bx * by * f->block_bytes;
}

ue_result ue_gx_level_size(uint32_t format, uint32_t width, uint32_t height, unsigned level,
                           uint32_t *level_w, uint32_t *level_h, size_t *bytes, size_t *offset) {
    const gx_format_info *f = format_info(format);
    if (!f) return UE_ERR_UNSUPPORTED;
    if (width == 0 || height == 0) return UE_ERR_INVALID;
    if (width > UE_GX_MAX_SIDE || height > UE_GX_MAX_SIDE || level > UE_GX_MAX_LEVEL)
        return UE_ERR_LIMIT;
    size_t off = 0;
    for (unsigned i = 0; i < level; i++)
        off += level_bytes(f, level_side(width, i), level_side(height, i));
    uint32_t lw = level_side(width, level), lh = level_side(height, level);
    if (level_w) *level_w = lw;
    if (level_h) *level_h = lh;
    if (bytes) *bytes = level_bytes(f, lw, lh);
    if (offset) *offset = off;
    return UE_OK;
}

/* ---- decoding ----------------------------------------------------------------------------- */

/* Writes the visible part of one decoded block into the level's rows (clipping at the edges). */
static void put_block(const gx_format_info *f, const uint8_t *px, uint32_t bx, uint32_t by,
                      uint32_t lw, uint32_t lh, uint8_t *rgba) {
    uint32_t x0 = bx * f->bw, y0 = by * f->bh;
    uint32_t cols = lw - x0 < f->bw ? lw - x0 : f->bw;
    for (uint32_t y = 0; y < f->bh && y0 + y < lh; y++)
        memcpy(rgba + 4 * ((size_t)(y0 + y) * lw + x0), px + 4 * (size_t)y * f->bw, 4 * (size_t)cols);
}

static void decode_blocks(const gx_format_info *f, const uint8_t *src, gx_pal *pal, uint32_t lw,
                          uint32_t lh, uint8_t *rgba) {
    uint32_t nbx = (lw + f->bw - 1) / f->bw, nby = (lh + f->bh - 1) / f->bh;
    uint8_t px[8 * 8 * 4];
    for (uint32_t by = 0; by < nby; by++)
        for (uint32_t bx = 0; bx < nbx; bx++) {
            f->decode(src, pal, px);
            put_block(f, px, bx, by, lw, lh, rgba);
            src += f->block_bytes;
        }
}

/* Checks the palette of a palette format; fills *pal. */
static ue_result check_palette(const ue_gx_image *img, ue_diag *d, uint64_t base, const char *path,
                               gx_pal *pal) {
    if (img->tlut_format > UE_GX_TLUT_RGB5A3) {
        ue_diag_add(d, UE_SEV_ERROR, "gx.tlut.format", base, path,
                    "unknown palette format %u", (unsigned)img->tlut_format);
        return UE_ERR_UNSUPPORTED;
    }
    if (!img->tlut || img->tlut_count == 0) {
        ue_diag_add(d, UE_SEV_ERROR, "gx.tlut.missing", base, path,
                    "a %s texture needs a palette", ue_gx_format_name(img->format));
        return UE_ERR_INVALID;
    }
    if (img->tlut_count > img->tlut_size / 2) {
        ue_diag_add(d, UE_SEV_ERROR, "gx.tlut.short", base, path,
                    "the palette declares %zu entries but has bytes for %zu", img->tlut_count,
                    img->tlut_size / 2);
        return UE_ERR_INVALID;
    }
    pal->data = img->tlut;
    pal->count = img->tlut_count;
    pal->format = img->tlut_format;
    return UE_OK;
}

/* Sizes, level and data length; on success *src is the level's first byte. */
static ue_result check_level(const ue_gx_image *img, unsigned level, ue_diag *d, uint64_t base,
                             const char *path, uint32_t *lw, uint32_t *lh, const uint8_t **src) {
    size_t bytes = 0, off = 0;
    ue_result r = ue_gx_level_size(img->format, img->width, img->height, level, lw, lh, &bytes, &off);
    if (r == UE_ERR_UNSUPPORTED)
        ue_diag_add(d, UE_SEV_ERROR, "gx.format", base, path, "unknown texture format 0x%X",
                    (unsigned)img->format);
    else if (r != UE_OK)
        ue_diag_add(d, UE_SEV_ERROR, "gx.size", base, path,
                    "texture %ux%u level %u is outside 1..%u texels and levels 0..%u",
                    (unsigned)img->width, (unsigned)img->height, level, UE_GX_MAX_SIDE, UE_GX_MAX_LEVEL);
    if (r != UE_OK) return r;
    if (!img->data || !ue_range_ok(off, bytes, img->size)) {
        ue_diag_add(d, UE_SEV_ERROR, "gx.data.short", base + off, path,
                    "%s %ux%u level %u needs %zu bytes at +0x%zx, the data has %zu",
                    ue_gx_format_name(img->format), (unsigned)*lw, (unsigned)*lh, level, bytes, off,
                    img->data ? img->size : 0);
        return UE_ERR_INVALID;
    }
    *src = img->data + off;
    return UE_OK;
}

ue_result ue_gx_decode_level(const ue_gx_image *img, unsigned level, ue_mode mode, uint8_t *rgba,
                             size_t rgba_size, ue_diag *d, uint64_t diag_base, const char *diag_path) {
    if (!img || !rgba) return UE_ERR_USAGE;
    const char *path = diag_path ? diag_path : "gx";
    uint32_t lw = 0, lh = 0;
    const uint8_t *src = NULL;
    ue_result r = check_level(img, level, d, diag_base, path, &lw, &lh, &src);
    if (r != UE_OK) return r;
    if (rgba_size / 4 / lw < lh) return UE_ERR_USAGE;
    const gx_format_info *f = format_info(img->format);
    gx_pal pal = {NULL, 0, 0, 0};
    if (f->palette && (r = check_palette(img, d, diag_base, path, &pal)) != UE_OK) return r;
    decode_blocks(f, src, &pal, lw, lh, rgba);
    ue_parse_ctx c = ue_parse_begin(mode, d);
    if (pal.bad)
        ue_violation(&c, "gx.tlut.index", diag_base, path,
                     "%zu texels of level %u (block padding included) index past the palette's %zu entries (drawn "
                     "transparent black)", pal.bad, level, pal.count);
    return c.failure;
}
