/* unearth — PNG reader over zlib for texture import: chunk walk with CRC checks, one bounded
 * inflate of the IDAT stream, the five row filters, then expansion to RGBA8. */
#include "import/png_read.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "common/bytes.h"

#define PNG_MAX_SIDE 16384u

typedef struct png_info {
    uint32_t w, h;
    uint8_t colour;     /* 0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA */
    unsigned channels;  /* bytes per pixel of the stored rows */
    uint8_t palette[256][4];
    unsigned palette_size;
    ue_buf idat;        /* every IDAT's bytes, in order */
} png_info;

static ue_result fail(ue_diag *d, ue_result r, const char *code, uint64_t off, const char *path,
                      const char *msg) {
    ue_diag_add(d, UE_SEV_ERROR, code, off, path, "%s", msg);
    return r;
}

static ue_result read_ihdr(png_info *p, const uint8_t *c, uint32_t len, uint64_t off, ue_diag *d) {
    if (len != 13) return fail(d, UE_ERR_INVALID, "png.ihdr", off, "png/IHDR", "IHDR is not 13 bytes");
    p->w = ue_load_u32be(c), p->h = ue_load_u32be(c + 4);
    uint8_t depth = c[8];
    p->colour = c[9];
    if (p->w == 0 || p->h == 0) return fail(d, UE_ERR_INVALID, "png.ihdr", off, "png/IHDR", "zero width or height");
    if (p->w > PNG_MAX_SIDE || p->h > PNG_MAX_SIDE)
        return fail(d, UE_ERR_LIMIT, "png.limit", off, "png/IHDR", "a side above 16384 pixels");
    static const unsigned channels[7] = {1, 0, 3, 1, 2, 0, 4};
    if (p->colour > 6 || !channels[p->colour])
        return fail(d, UE_ERR_INVALID, "png.ihdr", off, "png/IHDR", "unknown colour type");
    p->channels = channels[p->colour];
    if (depth != 8)
        return fail(d, UE_ERR_UNSUPPORTED, "png.depth", off, "png/IHDR",
                    "only 8-bit PNGs are read (save the image with 8 bits per channel)");
    if (c[10] != 0 || c[11] != 0)
        return fail(d, UE_ERR_INVALID, "png.ihdr", off, "png/IHDR", "unknown compression or filter method");
    if (c[12] != 0)
        return fail(d, UE_ERR_UNSUPPORTED, "png.interlace", off, "png/IHDR",
                    "interlaced PNGs are not read (save the image without interlacing)");
    return UE_OK;
}

static ue_result read_plte(png_info *p, const uint8_t *c, uint32_t len, uint64_t off, ue_diag *d) {
    if (len % 3 || len / 3 > 256 || len == 0)
        return fail(d, UE_ERR_INVALID, "png.plte", off, "png/PLTE", "PLTE is not 1..256 RGB entries");
    p->palette_size = len / 3;
    for (unsigned i = 0; i < p->palette_size; i++)
        p->palette[i][0] = c[3 * i], p->palette[i][1] = c[3 * i + 1], p->palette[i][2] = c[3 * i + 2],
        p->palette[i][3] = 255;
    return UE_OK;
}

/* One chunk at `off` (length, type, data, CRC checked); *next is where the next one starts. */
static ue_result read_chunk(png_info *p, const uint8_t *data, size_t size, size_t off, size_t *next,
                            bool *end, ue_diag *d) {
    if (size - off < 12) return fail(d, UE_ERR_INVALID, "png.truncated", off, "png", "the file ends inside a chunk");
    uint32_t len = ue_load_u32be(data + off);
    const uint8_t *type = data + off + 4, *c = data + off + 8;
    if (len > size - off - 12) return fail(d, UE_ERR_INVALID, "png.truncated", off, "png", "a chunk runs past the end");
    uLong crc = crc32(crc32(0L, type, 4), c, len);
    if (crc != ue_load_u32be(c + len)) return fail(d, UE_ERR_INVALID, "png.crc", off, "png", "a chunk's CRC is wrong");
    *next = off + 12 + len;
    bool first = off == 8;
    if (first != !memcmp(type, "IHDR", 4))
        return fail(d, UE_ERR_INVALID, "png.ihdr", off, "png/IHDR", "IHDR must come first, once");
    if (first) return read_ihdr(p, c, len, off, d);
    if (!memcmp(type, "PLTE", 4)) return read_plte(p, c, len, off, d);
    if (!memcmp(type, "tRNS", 4) && p->colour == 3) {
        for (uint32_t i = 0; i < len && i < 256; i++) p->palette[i][3] = c[i];
        return UE_OK;
    }
    if (!memcmp(type, "IDAT", 4)) ue_buf_put(&p->idat, c, len);
    if (!memcmp(type, "IEND", 4)) *end = true;
    return p->idat.failed ? UE_ERR_NOMEM : UE_OK; /* other chunks (text, gamma…) are ignored */
}

/* Inflates the IDAT stream into exactly `want` bytes: less, more or a broken stream is an error. */
static ue_result inflate_exact(const ue_buf *in, uint8_t *out, size_t want, ue_diag *d) {
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit(&z) != Z_OK) return UE_ERR_NOMEM;
    z.next_in = in->data, z.avail_in = (uInt)in->size;
    z.next_out = out, z.avail_out = (uInt)want;
    int rc = inflate(&z, Z_FINISH);
    uint8_t extra;
    bool more = false;
    if (rc == Z_BUF_ERROR && z.avail_out == 0) { /* full: is there anything past it? */
        z.next_out = &extra, z.avail_out = 1;
        more = inflate(&z, Z_FINISH) != Z_BUF_ERROR || z.avail_out == 0;
    }
    size_t got = (size_t)z.total_out;
    inflateEnd(&z);
    if (rc == Z_MEM_ERROR) return UE_ERR_NOMEM;
    if (more || (rc != Z_STREAM_END && !(rc == Z_BUF_ERROR && got == want)) || got != want)
        return fail(d, UE_ERR_INVALID, "png.idat", UE_NO_OFFSET, "png/IDAT",
                    "the image data does not inflate to exactly the rows IHDR declares");
    return UE_OK;
}

static uint8_t paeth(uint8_t a, uint8_t b, uint8_t c) {
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* Undoes the row filters in place; rows are 1 filter byte + stride bytes. */
static ue_result unfilter(uint8_t *raw, uint32_t h, size_t stride, unsigned bpp, ue_diag *d) {
    for (uint32_t y = 0; y < h; y++) {
        uint8_t *row = raw + (size_t)y * (stride + 1), *cur = row + 1;
        const uint8_t *up = y ? row - stride : NULL; /* the previous row's pixels */
        unsigned f = row[0];
        if (f > 4) return fail(d, UE_ERR_INVALID, "png.filter", UE_NO_OFFSET, "png/IDAT", "unknown row filter");
        for (size_t i = 0; i < stride; i++) {
            uint8_t a = i >= bpp ? cur[i - bpp] : 0, b = up ? up[i] : 0, c = up && i >= bpp ? up[i - bpp] : 0;
            unsigned add = f == 1 ? a : f == 2 ? b : f == 3 ? (a + b) / 2u : f == 4 ? paeth(a, b, c) : 0u;
            cur[i] = (uint8_t)(cur[i] + add);
        }
    }
    return UE_OK;
}

static ue_result expand(const png_info *p, const uint8_t *raw, uint8_t *rgba, ue_diag *d) {
    size_t stride = (size_t)p->w * p->channels;
    for (uint32_t y = 0; y < p->h; y++)
        for (uint32_t x = 0; x < p->w; x++) {
            const uint8_t *s = raw + (size_t)y * (stride + 1) + 1 + (size_t)x * p->channels;
            uint8_t *o = rgba + ((size_t)y * p->w + x) * 4;
            switch (p->colour) {
            case 0: o[0] = o[1] = o[2] = s[0], o[3] = 255; break;
            case 4: o[0] = o[1] = o[2] = s[0], o[3] = s[1]; break;
            case 2: o[0] = s[0], o[1] = s[1], o[2] = s[2], o[3] = 255; break;
            case 6: memcpy(o, s, 4); break;
            default:
                if (s[0] >= p->palette_size)
                    return fail(d, UE_ERR_INVALID, "png.index", UE_NO_OFFSET, "png/IDAT",
                                "a pixel's palette index is past PLTE");
                memcpy(o, p->palette[s[0]], 4);
            }
        }
    return UE_OK;
}

static ue_result walk_chunks(png_info *p, const uint8_t *data, size_t size, ue_diag *d) {
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    if (size < 8 || memcmp(data, sig, 8))
        return fail(d, UE_ERR_INVALID, "png.signature", 0, "png", "not a PNG file");
    bool end = false;
    ue_result r = UE_OK;
    for (size_t off = 8; r == UE_OK && !end;) r = read_chunk(p, data, size, off, &off, &end, d);
    if (r == UE_OK && p->colour == 3 && !p->palette_size)
        r = fail(d, UE_ERR_INVALID, "png.plte", UE_NO_OFFSET, "png/PLTE", "a palette image without PLTE");
    if (r == UE_OK && !p->idat.size) r = fail(d, UE_ERR_INVALID, "png.idat", UE_NO_OFFSET, "png/IDAT", "no image data");
    return r;
}

ue_result ue_png_decode_rgba(const uint8_t *data, size_t size, uint32_t *w, uint32_t *h,
                             uint8_t **rgba, ue_diag *d) {
    *rgba = NULL;
    png_info *p = calloc(1, sizeof *p);
    if (!p) return UE_ERR_NOMEM;
    ue_result r = walk_chunks(p, data, size, d);
    size_t stride = (size_t)p->w * p->channels, raw_size = (stride + 1) * p->h;
    /* deflate expands at most ~1032:1, so rows IDAT cannot hold are refused before inflating */
    if (r == UE_OK && (p->idat.size > UINT32_MAX || raw_size / 1032 > p->idat.size + 1))
        r = fail(d, UE_ERR_INVALID, "png.idat", UE_NO_OFFSET, "png/IDAT",
                 "the image data is too short for the rows IHDR declares");
    uint8_t *raw = r == UE_OK ? malloc(raw_size) : NULL;
    uint8_t *out = r == UE_OK ? malloc((size_t)p->w * p->h * 4) : NULL;
    if (r == UE_OK && (!raw || !out)) r = UE_ERR_NOMEM;
    if (r == UE_OK) r = inflate_exact(&p->idat, raw, raw_size, d);
    if (r == UE_OK) r = unfilter(raw, p->h, stride, p->channels, d);
    if (r == UE_OK) r = expand(p, raw, out, d);
    if (r == UE_OK) *w = p->w, *h = p->h, *rgba = out, out = NULL;
    free(out);
    free(raw);
    ue_buf_free(&p->idat);
    free(p);
    return r;
}
