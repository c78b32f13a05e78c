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

/* The Paeth predictor (p = a + b − c; the nearest of a, b, c to p, in that order of ties), with
 * |p − a| = |b − c|, |p − b| = |a − c| and selects instead of branches, so a row's loop vectorises. */
static inline uint8_t paeth(uint8_t a, uint8_t b, uint8_t c) {
    int pa = abs((int)b - (int)c), pb = abs((int)a - (int)c), pc = abs((int)a + (int)b - 2 * (int)c);
    int bc = pb <= pc ? b : c;
    return (uint8_t)(pa <= pb && pa <= pc ? a : bc);
}

/* The heuristic's cost of a filtered row, the sum of |signed byte|, summed in 32 bits over parts
 * of 4096 bytes (at most 128 each): a loop the compiler turns into vector adds. */
static uint64_t row_cost(const uint8_t *d, size_t n) {
    uint64_t cost = 0;
    while (n) {
        size_t part = n < 4096 ? n : 4096;
        uint32_t sum = 0;
        for (size_t i = 0; i < part; i++) {
            int32_t v = (int8_t)d[i];
            sum += (uint32_t)(v < 0 ? -v : v);
        }
        cost += sum, d += part, n -= part;
    }
    return cost;
}

/* Filters one row with filter type f into dst (row bytes, without the type byte) and returns the
 * heuristic's cost (row_cost). `prev` is the row above (zeros for the first row); one loop per
 * filter, so the compiler keeps each one free of the others' branches. */
static uint64_t filter_row(int f, const uint8_t *cur, const uint8_t *prev, size_t n, size_t bpp, uint8_t *dst) {
    size_t lead = bpp < n ? bpp : n; /* the bytes with no left neighbour */
    switch (f) {
    case 0:
        memcpy(dst, cur, n);
        break;
    case 1:
        memcpy(dst, cur, lead);
        for (size_t i = lead; i < n; i++) dst[i] = (uint8_t)(cur[i] - cur[i - bpp]);
        break;
    case 2:
        for (size_t i = 0; i < n; i++) dst[i] = (uint8_t)(cur[i] - prev[i]);
        break;
    case 3:
        for (size_t i = 0; i < lead; i++) dst[i] = (uint8_t)(cur[i] - prev[i] / 2);
        for (size_t i = lead; i < n; i++) dst[i] = (uint8_t)(cur[i] - ((unsigned)cur[i - bpp] + prev[i]) / 2);
        break;
    default:
        for (size_t i = 0; i < lead; i++) dst[i] = (uint8_t)(cur[i] - paeth(0, prev[i], 0));
        for (size_t i = lead; i < n; i++) dst[i] = (uint8_t)(cur[i] - paeth(cur[i - bpp], prev[i], prev[i - bpp]));
        break;
    }
    return row_cost(dst, n);
}

/* One zlib stream of `n` bytes (at `level`) whose window and hash table are no larger than the
 * data needs: zlib's defaults allocate and clear about 256 KiB per stream, which dominated the
 * cost of the small textures models carry. Deterministic: the same bytes give the same stream. */
static ue_result deflate_sized(const uint8_t *src, size_t n, int level, uint8_t **out, size_t *out_len) {
    int wbits = 9; /* zlib's smallest deflate window */
    while (wbits < 15 && ((size_t)1 << wbits) < n) wbits++;
    int mem_level = wbits - 7 < 1 ? 1 : wbits - 7; /* 8 (the default) for a full window */
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

/* ---- the quick encoding: blank rows spliced in as runs of zeros ----------------------------
 * A picture's rows of transparent background (filter None, all bytes zero) never reach zlib: the
 * zlib stream is assembled here from raw deflate segments (each ended by a full flush, so no
 * match reaches back past it) and, between them, fixed-Huffman blocks written here that repeat
 * a zero byte at distance 1 (RFC 1951's fixed code), with the Adler-32 of the zeros computed
 * in closed form. */

typedef struct bit_writer {
    uint8_t *out;
    size_t at;
    uint32_t acc;
    int n;
} bit_writer;

/* `count` bits of v, least significant first (deflate's header and extra bits). */
static void put_bits(bit_writer *w, uint32_t v, int count) {
    w->acc |= v << w->n;
    w->n += count;
    for (; w->n >= 8; w->n -= 8, w->acc >>= 8) w->out[w->at++] = (uint8_t)w->acc;
}

/* A Huffman code of `len` bits: its most significant bit first. */
static void put_code(bit_writer *w, uint32_t code, int len) {
    uint32_t rev = 0;
    for (int i = 0; i < len; i++) rev |= ((code >> i) & 1u) << (len - 1 - i);
    put_bits(w, rev, len);
}

static void put_literal_zero(bit_writer *w) { put_code(w, 0x30, 8); } /* fixed code of literal 0 */

/* A match of `len` (3..258) bytes at distance 1 in the fixed code. */
static void put_repeat(bit_writer *w, uint32_t len) {
    static const uint16_t base[29] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99,
                                      115, 131, 163, 195, 227, 258};
    static const uint8_t extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
    int i = 28;
    while (base[i] > len) i--;
    uint32_t sym = 257u + (uint32_t)i;
    if (sym < 280) put_code(w, sym - 256, 7);
    else put_code(w, 0xC0 + (sym - 280), 8);
    put_bits(w, len - base[i], extra[i]);
    put_code(w, 0, 5); /* distance code 0: distance 1 */
}

/* One fixed-Huffman block (not the last) of n > 0 zero bytes, then an empty stored block that
 * brings the stream back to a byte boundary for the next zlib segment. */
static void put_zero_run(bit_writer *w, size_t n) {
    put_bits(w, 0 | (1u << 1), 3); /* BFINAL 0, BTYPE 01 */
    put_literal_zero(w);
    for (size_t left = n - 1; left;) {
        if (left < 3) {
            put_literal_zero(w);
            left--;
            continue;
        }
        size_t len = left <= 258 ? left : left - 258 < 3 ? left - 3 : 258;
        put_repeat(w, (uint32_t)len);
        left -= len;
    }
    put_code(w, 0, 7);  /* end of block */
    put_bits(w, 0, 3);  /* BFINAL 0, BTYPE 00: stored */
    if (w->n) put_bits(w, 0, 8 - w->n);
    static const uint8_t empty[4] = {0, 0, 0xFF, 0xFF}; /* LEN 0, NLEN */
    memcpy(w->out + w->at, empty, 4);
    w->at += 4;
}

/* Adler-32 after n more zero bytes: s1 unchanged, s2 grows by n × s1. */
static uLong adler_zeros(uLong adler, size_t n) {
    uint64_t s1 = adler & 0xFFFF, s2 = adler >> 16;
    s2 = (s2 + (uint64_t)(n % 65521) * s1) % 65521;
    return (uLong)((s2 << 16) | s1);
}

static uLong adler_of(uLong adler, const uint8_t *p, size_t n) {
    for (size_t off = 0; off < n;) {
        size_t part = n - off > 0x40000000u ? 0x40000000u : n - off;
        adler = adler32(adler, p + off, (uInt)part);
        off += part;
    }
    return adler;
}

/* The zlib stream of h filtered rows of `stride` bytes (type byte included), at level 1; a row
 * with blank[y] set is all zeros. */
static ue_result deflate_quick(const uint8_t *rows, size_t stride, size_t h, const bool *blank, uint8_t **out,
                               size_t *out_len) {
    size_t n = stride * h;
    int wbits = 9;
    while (wbits < 15 && ((size_t)1 << wbits) < n) wbits++;
    /* a hash table of at most 4 Ki entries, not 32 Ki: sliding the window costs half as much per
     * byte (measured on previews: 10 % fewer instructions for a whole `unearth preview`, files
     * within a few % of memLevel 8's) */
    int mem_level = wbits - 7 < 1 ? 1 : wbits - 7 > 5 ? 5 : wbits - 7;
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (deflateInit2(&zs, 1, Z_DEFLATED, -wbits, mem_level, Z_DEFAULT_STRATEGY) != Z_OK) return UE_ERR_NOMEM;
    /* zlib's bound, each segment's flush, each run's blocks (13 bits per 258 zeros), header, end */
    size_t cap = deflateBound(&zs, (uLong)n) + 16 * h + n / 128 + 64;
    bit_writer w = {ue_malloc_items(cap, 1), 0, 0, 0};
    ue_result r = w.out ? UE_OK : UE_ERR_NOMEM;
    uLong adler = adler32(0L, Z_NULL, 0);
    if (r == UE_OK) w.out[w.at++] = 0x78, w.out[w.at++] = 0x01; /* deflate, 32 KiB window, level "fastest" */
    for (size_t y = 0; r == UE_OK && y < h;) {
        size_t end = y;
        while (end < h && blank[end] == blank[y]) end++;
        size_t len = (end - y) * stride;
        if (blank[y]) {
            put_zero_run(&w, len);
            adler = adler_zeros(adler, len);
        } else {
            adler = adler_of(adler, rows + y * stride, len);
            zs.next_in = (Bytef *)(uintptr_t)(rows + y * stride);
            zs.avail_in = (uInt)len;
            zs.next_out = w.out + w.at;
            zs.avail_out = (uInt)(cap - w.at - 8);
            if (deflate(&zs, Z_FULL_FLUSH) != Z_OK || zs.avail_in || !zs.avail_out) r = UE_ERR_NOMEM;
            w.at = cap - 8 - zs.avail_out;
        }
        y = end;
    }
    deflateEnd(&zs); /* the stream is ended below, not by zlib */
    if (r == UE_OK) {
        put_bits(&w, 1 | (1u << 1), 3); /* the last block: BFINAL 1, fixed, empty */
        put_code(&w, 0, 7);
        if (w.n) put_bits(&w, 0, 8 - w.n);
        ue_store_u32be(w.out + w.at, (uint32_t)adler);
        *out = w.out;
        *out_len = w.at + 4;
    } else {
        free(w.out);
    }
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
    bool *blank = effort == PNG_QUICK ? malloc(h * sizeof *blank) : NULL;
    uint8_t *zbuf = NULL;
    ue_result rc = UE_ERR_NOMEM;
    if ((bpp == 3 && !rows) || !zero_row || !filtered || !trial || (effort == PNG_QUICK && !blank)) goto done;
    for (size_t i = 0; bpp == 3 && i < npix; i++) memcpy(rows + i * 3, rgba + i * 4, 3);
    const uint8_t *image = bpp == 4 ? rgba : rows;

    for (size_t y = 0; y < h; y++) {
        const uint8_t *cur = image + y * rowlen, *prev = y ? cur - rowlen : zero_row;
        uint8_t *dst = filtered + y * (rowlen + 1);
        /* The usual heuristic: the filter whose output has the smallest sum of |signed byte|
         * (the first of equals); the winner so far stays in dst, a trial goes to `trial`. */
        if (effort == PNG_QUICK) { /* Up, or None on a blank row: all zeros, kept out of zlib */
            blank[y] = !memcmp(cur, zero_row, rowlen);
            dst[0] = blank[y] ? 0 : 2;
            if (blank[y]) memset(dst + 1, 0, rowlen);
            else filter_row(2, cur, prev, rowlen, bpp, dst + 1);
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
    if ((effort == PNG_QUICK ? deflate_quick(filtered, rowlen + 1, h, blank, &zbuf, &zlen)
                             : deflate_sized(filtered, raw_len, 6, &zbuf, &zlen)) != UE_OK)
        goto done;

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
    free(blank);
    free(filtered);
    free(trial);
    free(zbuf);
    return rc;
}
