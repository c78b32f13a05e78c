/* unearth — PNG encoder over zlib: filter selection per row, one zlib stream, chunks with
 * CRCs. Written here (not libpng) to keep error handling free of setjmp and output stable. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "unearth/image.h"
#include "common/bytes.h"

static void put_chunk(ue_buf *out, const char type[4], const uint8_t *data, size_t n) {
    ue_buf_put_u32be(out, (uint32_t)n);
    ue_buf_put(out, type, 4);
    ue_buf_put(out, data, n);
    uLong crc = crc32(0L, (const Bytef *)type, 4);
    /* crc32 takes uInt lengths; feed large chunks in pieces. */
    for (size_t off = 0; off < n;) {
        size_t part = n - off > 0x40000000u ? 0x40000000u : n - off;
        crc = crc32(crc, data + off, (uInt)part);
        off += part;
    }
    ue_buf_put_u32be(out, (uint32_t)crc);
}

static uint8_t paeth(uint8_t a, uint8_t b, uint8_t c) {
    int p = (int)a + (int)b - (int)c;
    int pa = abs(p - (int)a), pb = abs(p - (int)b), pc = abs(p - (int)c);
    if (pa <= pb && pa <= pc) return a;
    return pb <= pc ? b : c;
}

static uint64_t byte_cost(uint8_t v) { return v < 128 ? v : 256u - v; }

/* Filters one row with filter type f into dst (row bytes, without the type byte) and returns the
 * heuristic's cost, the sum of |signed byte|. `prev` is the row above (zeros for the first row);
 * one loop per filter, so the compiler keeps each one free of the others' branches. */
static uint64_t filter_row(int f, const uint8_t *cur, const uint8_t *prev, size_t n, size_t bpp, uint8_t *dst) {
    uint64_t cost = 0;
    size_t lead = bpp < n ? bpp : n; /* the bytes with no left neighbour */
    switch (f) {
    case 0:
        for (size_t i = 0; i < n; i++) cost += byte_cost(dst[i] = cur[i]);
        break;
    case 1:
        for (size_t i = 0; i < lead; i++) cost += byte_cost(dst[i] = cur[i]);
        for (size_t i = lead; i < n; i++) cost += byte_cost(dst[i] = (uint8_t)(cur[i] - cur[i - bpp]));
        break;
    case 2:
        for (size_t i = 0; i < n; i++) cost += byte_cost(dst[i] = (uint8_t)(cur[i] - prev[i]));
        break;
    case 3:
        for (size_t i = 0; i < lead; i++) cost += byte_cost(dst[i] = (uint8_t)(cur[i] - prev[i] / 2));
        for (size_t i = lead; i < n; i++)
            cost += byte_cost(dst[i] = (uint8_t)(cur[i] - ((unsigned)cur[i - bpp] + prev[i]) / 2));
        break;
    default:
        for (size_t i = 0; i < lead; i++) cost += byte_cost(dst[i] = (uint8_t)(cur[i] - paeth(0, prev[i], 0)));
        for (size_t i = lead; i < n; i++)
            cost += byte_cost(dst[i] = (uint8_t)(cur[i] - paeth(cur[i - bpp], prev[i], prev[i - bpp])));
        break;
    }
    return cost;
}

/* One zlib stream of `n` bytes (at `level`) whose window and hash table are no larger than the
 * data needs: zlib's defaults allocate and clear about 256 KiB per stream, which dominated the
 * cost of the small textures models carry. Deterministic: the same bytes give the same stream. */
static ue_result deflate_sized(const uint8_t *src, size_t n, int level, uint8_t **out, size_t *out_len) {
    int wbits = 9; /* zlib's smallest deflate window */
    while (wbits < 15 && ((size_t)1 << wbits) < n) wbits++;
    int mem_level = wbits - 7 < 1 ? 1 : wbits - 7; /* 8 (the default) for a full window */
    /* The quick encoding (level 1): a hash table of 4 Ki entries, not 32 Ki, so sliding the
     * window costs half as much per byte (measured on previews: 10 % fewer instructions for the
     * whole `unearth preview`, files within a few % of memLevel 8's). */
    if (level == 1 && mem_level > 5) mem_level = 5;
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (deflateInit2(&zs, level, Z_DEFLATED, wbits, mem_level, Z_DEFAULT_STRATEGY) != Z_OK)
        return UE_ERR_NOMEM;
    uLong bound = deflateBound(&zs, (uLong)n);
    *out = ue_malloc_items(bound, 1);
    ue_result r = UE_ERR_NOMEM;
    if (*out) {
        zs.next_in = (Bytef *)(uintptr_t)src;
        zs.next_out = *out;
        zs.avail_out = (uInt)bound;
        /* deflate takes uInt lengths: feed large inputs in pieces. */
        int z = Z_OK;
        for (size_t off = 0; z == Z_OK;) {
            size_t part = n - off > 0x40000000u ? 0x40000000u : n - off;
            zs.avail_in = (uInt)part;
            off += part;
            z = deflate(&zs, off == n ? Z_FINISH : Z_NO_FLUSH);
            if (z == Z_OK && zs.avail_in) z = Z_BUF_ERROR;
        }
        if (z == Z_STREAM_END) {
            *out_len = (size_t)zs.total_out;
            r = UE_OK;
        }
    }
    deflateEnd(&zs);
    return r;
}

/* A tEXt chunk's data: keyword (1..79 Latin-1 bytes), NUL, text; false when the keyword is
 * empty or too long or the whole does not fit. */
static bool text_chunk(const char *keyword, const char *text, uint8_t *data, size_t cap,
                       size_t *n) {
    size_t k = strlen(keyword), t = strlen(text);
    if (k == 0 || k > 79 || k + 1 + t > cap) return false;
    memcpy(data, keyword, k);
    data[k] = 0;
    memcpy(data + k + 1, text, t);
    *n = k + 1 + t;
    return true;
}

bool ue_png_has_text(const uint8_t *head, size_t size, const char *keyword, const char *text) {
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    size_t k = strlen(keyword), t = strlen(text);
    const size_t chunk = 8 + 25; /* signature, IHDR (length, type, 13 bytes, CRC) */
    if (size < chunk + 8 + k + 1 + t || memcmp(head, sig, 8) || memcmp(head + 12, "IHDR", 4)) return false;
    const uint8_t *c = head + chunk;
    return ue_load_u32be(c) == k + 1 + t && !memcmp(c + 4, "tEXt", 4) && !memcmp(c + 8, keyword, k + 1) &&
           !memcmp(c + 8 + k + 1, text, t);
}

/* How a PNG is compressed: each row's filter chosen by the heuristic at zlib level 6 (the
 * files unearth keeps), or the Up filter on every row at level 1 (the pictures it draws in bulk). */
typedef enum png_effort { PNG_SMALL, PNG_QUICK } png_effort;

static ue_result encode(uint32_t w, uint32_t h, const uint8_t *rgba, const char *keyword, const char *text,
                        png_effort effort, ue_buf *out);

ue_result ue_png_encode_rgba(uint32_t w, uint32_t h, const uint8_t *rgba, ue_buf *out) {
    return encode(w, h, rgba, NULL, NULL, PNG_SMALL, out);
}

ue_result ue_png_encode_rgba_quick(uint32_t w, uint32_t h, const uint8_t *rgba, ue_buf *out) {
    return encode(w, h, rgba, NULL, NULL, PNG_QUICK, out);
}

ue_result ue_png_encode_rgba_text(uint32_t w, uint32_t h, const uint8_t *rgba, const char *keyword,
                                  const char *text, ue_buf *out) {
    return encode(w, h, rgba, keyword, text, PNG_SMALL, out);
}

static ue_result encode(uint32_t w, uint32_t h, const uint8_t *rgba, const char *keyword, const char *text,
                        png_effort effort, ue_buf *out) {
    uint8_t note[256];
    size_t note_len = 0;
    if (!rgba || !out || w == 0 || h == 0 || w > UE_PNG_MAX_SIDE || h > UE_PNG_MAX_SIDE)
        return UE_ERR_USAGE;
    if ((keyword || text) &&
        (!keyword || !text || !text_chunk(keyword, text, note, sizeof note, &note_len)))
        return UE_ERR_USAGE;
    size_t npix = (size_t)w * h;
    bool opaque = true;
    for (size_t i = 0; i < npix && opaque; i++) opaque = rgba[i * 4 + 3] == 255;
    size_t bpp = opaque ? 3 : 4, rowlen = (size_t)w * bpp;

    /* Unfiltered rows in the stored pixel layout (RGBA is filtered where it lies; RGB is
     * copied out of it), the row of zeros above the first, then the filtered stream (1 +
     * rowlen each). */
    uint8_t *rows = bpp == 4 ? NULL : malloc(rowlen * h);
    uint8_t *zero_row = calloc(rowlen, 1);
    uint8_t *filtered = malloc((rowlen + 1) * h);
    uint8_t *trial = malloc(rowlen);
    uint8_t *zbuf = NULL;
    ue_result rc = UE_ERR_NOMEM;
    if ((bpp == 3 && !rows) || !zero_row || !filtered || !trial) goto done;
    for (size_t i = 0; bpp == 3 && i < npix; i++) memcpy(rows + i * 3, rgba + i * 4, 3);
    const uint8_t *image = bpp == 4 ? rgba : rows;

    for (size_t y = 0; y < h; y++) {
        const uint8_t *cur = image + y * rowlen, *prev = y ? cur - rowlen : zero_row;
        uint8_t *dst = filtered + y * (rowlen + 1);
        /* The usual heuristic: the filter whose output has the smallest sum of |signed byte|
         * (the first of equals); the winner so far stays in dst, a trial goes to `trial`. */
        if (effort == PNG_QUICK) {
            dst[0] = 2;
            filter_row(2, cur, prev, rowlen, bpp, dst + 1);
            continue;
        }
        dst[0] = 0;
        uint64_t best_cost = filter_row(0, cur, prev, rowlen, bpp, dst + 1);
        for (int f = 1; f < 5 && best_cost; f++) { /* no filter beats a cost of 0 (a row of zeros) */
            uint64_t cost = filter_row(f, cur, prev, rowlen, bpp, trial);
            if (cost < best_cost) {
                best_cost = cost;
                dst[0] = (uint8_t)f;
                memcpy(dst + 1, trial, rowlen);
            }
        }
    }

    size_t raw_len = (rowlen + 1) * h;
    size_t zlen;
    if (deflate_sized(filtered, raw_len, effort == PNG_QUICK ? 1 : 6, &zbuf, &zlen) != UE_OK) goto done;

    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    uint8_t ihdr[13];
    ue_store_u32be(ihdr, w);
    ue_store_u32be(ihdr + 4, h);
    ihdr[8] = 8;                      /* bit depth */
    ihdr[9] = opaque ? 2 : 6;         /* RGB or RGBA */
    ihdr[10] = ihdr[11] = ihdr[12] = 0;
    size_t start = out->size;
    ue_buf_put(out, sig, sizeof sig);
    put_chunk(out, "IHDR", ihdr, sizeof ihdr);
    if (note_len) put_chunk(out, "tEXt", note, note_len);
    put_chunk(out, "IDAT", zbuf, zlen);
    put_chunk(out, "IEND", NULL, 0);
    if (out->failed) {
        if (out->size > start) out->size = start;
        goto done;
    }
    rc = UE_OK;
done:
    free(rows);
    free(zero_row);
    free(filtered);
    free(trial);
    free(zbuf);
    return rc;
}
