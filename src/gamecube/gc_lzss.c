/* unearth — the GameCube "LZSS" wrapper: 16-byte header (magic, sizes) around an Okumura stream
 * with a zero-filled ring; decoding and encoding go through the shared codec in lzss.c. */
#include <stdlib.h>
#include <string.h>

#include "unearth/gamecube.h"
#include "unearth/lzss.h"
#include "codec/lzss_stream.h"
#include "common/bytes.h"
#include "common/io.h"
#include "gamecube/gamecube_int.h"

/* Okumura's encoder indexes the F = 18 ring positions just before r, so genuine streams may
 * begin a reference up to 18 bytes before the output start (reading the zero fill). */
#define GC_PREFILL_REACH 18u

bool ue_gclzss_probe(const uint8_t *p, size_t n) {
    return n >= 4 && memcmp(p, "LZSS", 4) == 0;
}

ue_result ue_gclzss_parse_header(const uint8_t *p, size_t n, ue_gclzss_header *h, ue_diag *d,
                                 uint64_t diag_base, const char *diag_path) {
    memset(h, 0, sizeof *h);
    if (n < UE_GCLZSS_HEADER) {
        ue_diag_add(d, UE_SEV_ERROR, "lzss.header.truncated", diag_base, diag_path,
                    "LZSS blob of %zu bytes is shorter than its 16-byte header", n);
        return UE_ERR_INVALID;
    }
    if (!ue_gclzss_probe(p, n)) {
        ue_diag_add(d, UE_SEV_ERROR, "lzss.magic", diag_base, diag_path,
                    "compressed payload does not start with the \"LZSS\" magic "
                    "(found %02X %02X %02X %02X)",
                    p[0], p[1], p[2], p[3]);
        return UE_ERR_INVALID;
    }
    h->uncompressed_size = ue_load_u32be(p + 4);
    h->compressed_size = ue_load_u32be(p + 8);
    h->reserved = ue_load_u32be(p + 12);
    if (h->compressed_size < UE_GCLZSS_HEADER || h->compressed_size > n) {
        /* docs/formats/lzss.md#size-fallback: an unusable +0x08 falls back to the whole slice we were given. */
        h->stream_end = n;
        h->size_fallback = true;
        ue_diag_add(d, UE_SEV_WARNING, "lzss.size_fallback", diag_base + 8, diag_path,
                    "declared compressed size %u does not fit the %zu bytes available; "
                    "decoding the whole slice",
                    h->compressed_size, n);
    } else {
        h->stream_end = h->compressed_size;
    }
    return UE_OK;
}

/* The checks made before any output: the header, the size the stream could produce at most,
 * and the cap; *stream and *stream_len give the stream after the header. */
static ue_result checked_header(const uint8_t *p, size_t n, ue_gclzss_header *h,
                                const uint8_t **stream, size_t *stream_len, ue_diag *d,
                                uint64_t diag_base, const char *diag_path) {
    ue_result r = ue_gclzss_parse_header(p, n, h, d, diag_base, diag_path);
    if (r != UE_OK) return r;
    *stream = p + UE_GCLZSS_HEADER;
    *stream_len = h->stream_end - UE_GCLZSS_HEADER;
    if ((uint64_t)h->uncompressed_size > ue_lzss_max_output(*stream_len)) {
        ue_diag_add(d, UE_SEV_ERROR, "lzss.size_impossible", diag_base + 4, diag_path,
                    "declared uncompressed size %u cannot come from %zu compressed bytes",
                    h->uncompressed_size, *stream_len);
        return UE_ERR_INVALID;
    }
    if ((size_t)h->uncompressed_size > UE_CAP_ENTRY_BYTES) {
        ue_diag_add(d, UE_SEV_ERROR, "lzss.size_cap", diag_base + 4, diag_path,
                    "declared uncompressed size %u is over the %zu-byte cap", h->uncompressed_size,
                    (size_t)UE_CAP_ENTRY_BYTES);
        return UE_ERR_LIMIT;
    }
    return UE_OK;
}

/* The stretch a whole-buffer decode hands out at a time: small enough to be still in the
 * cache when the sink reads it. */
#define GCLZSS_PIECE ((size_t)128 << 10)

/* One decode of the stream into wherever `out` says: a whole buffer (its pieces also handed to
 * a sink when there is one), or a window and a sink. */
typedef struct decode_target {
    uint8_t *buf;               /* whole output, or NULL */
    uint8_t *window;            /* else: a window */
    size_t window_size;
    ue_lzss_emit_fn emit;
    void *ctx;
} decode_target;

static ue_result decode_once(const decode_target *t, const ue_lzss_params *params,
                             const uint8_t *stream, size_t len, uint32_t size, ue_diag *d,
                             uint64_t diag_base, const char *diag_path) {
    ue_lzss_stats st;
    if (t->buf && t->emit)
        return ue_lzss_decode_pieces(params, stream, len, t->buf, size, GCLZSS_PIECE, t->emit,
                                     t->ctx, &st, d, diag_base, diag_path);
    if (t->buf) return ue_lzss_decode(params, stream, len, t->buf, size, &st, d, diag_base, diag_path);
    return ue_lzss_decode_chunks(params, stream, len, size, t->window, t->window_size, t->emit,
                                 t->ctx, &st, d, diag_base, diag_path);
}

/* Strict about references before the start; in tolerant mode a stream that makes them is
 * decoded again reading zeros there, as the game's decoder does, with a warning. */
static ue_result decode_stream(const decode_target *t, const uint8_t *stream, size_t len,
                               uint32_t size, ue_mode mode, ue_diag *d, uint64_t diag_base,
                               const char *diag_path) {
    ue_lzss_params params = UE_LZSS_GAMECUBE;
    params.forbid_prefill = true;
    params.prefill_reach = GC_PREFILL_REACH;
    ue_diag scratch = {0};
    ue_result r = decode_once(t, &params, stream, len, size, &scratch, diag_base, diag_path);
    bool before_start = false;
    for (size_t i = 0; i < scratch.count; i++)
        if (strcmp(scratch.items[i].code, "lzss.before_start") == 0) before_start = true;
    if (r != UE_OK && before_start && mode == UE_MODE_TOLERANT) {
        for (size_t i = 0; i < scratch.count; i++)
            ue_diag_add(d, UE_SEV_WARNING, scratch.items[i].code, scratch.items[i].offset,
                        scratch.items[i].path, "%s (decoded as zeros)", scratch.items[i].message);
        params.forbid_prefill = false;
        r = decode_once(t, &params, stream, len, size, d, diag_base, diag_path);
    } else {
        ue_diag_append(d, &scratch, UE_SEV_INFO);
    }
    ue_diag_free(&scratch);
    return r;
}

/* The checks, then the decode into `t`: a window and its sink, or (no window) a whole buffer
 * made here for the declared size and left in t->buf. */
static ue_result decode_blob(const uint8_t *p, size_t n, ue_mode mode, decode_target *t,
                             size_t *out_size, ue_diag *d, uint64_t diag_base,
                             const char *diag_path) {
    *out_size = 0;
    ue_gclzss_header h;
    const uint8_t *stream;
    size_t stream_len;
    ue_result r = checked_header(p, n, &h, &stream, &stream_len, d, diag_base, diag_path);
    if (r != UE_OK) return r;
    if (!t->window && !(t->buf = ue_malloc_large(h.uncompressed_size)))
        return UE_ERR_NOMEM;
    r = decode_stream(t, stream, stream_len, h.uncompressed_size, mode, d,
                      diag_base + UE_GCLZSS_HEADER, diag_path);
    if (r != UE_OK) {
        free(t->buf);
        t->buf = NULL;
        return r;
    }
    *out_size = h.uncompressed_size;
    return UE_OK;
}

ue_result ue_gclzss_decode(const uint8_t *p, size_t n, ue_mode mode, uint8_t **out,
                           size_t *out_size, ue_diag *d, uint64_t diag_base,
                           const char *diag_path) {
    return ue_gclzss_decode_emit(p, n, mode, out, out_size, NULL, NULL, d, diag_base, diag_path);
}

ue_result ue_gclzss_decode_emit(const uint8_t *p, size_t n, ue_mode mode, uint8_t **out,
                                size_t *out_size, ue_lzss_emit_fn emit, void *ctx, ue_diag *d,
                                uint64_t diag_base, const char *diag_path) {
    decode_target t = {NULL, NULL, 0, emit, ctx};
    ue_result r = decode_blob(p, n, mode, &t, out_size, d, diag_base, diag_path);
    *out = t.buf;
    return r;
}

ue_result ue_gclzss_decode_chunks(const uint8_t *p, size_t n, ue_mode mode, uint8_t *window,
                                  size_t window_size, ue_lzss_emit_fn emit, void *ctx,
                                  size_t *out_size, ue_diag *d, uint64_t diag_base,
                                  const char *diag_path) {
    decode_target t = {NULL, window, window_size, emit, ctx};
    return decode_blob(p, n, mode, &t, out_size, d, diag_base, diag_path);
}

ue_result ue_gclzss_encode(const uint8_t *in, size_t n, int level, uint32_t reserved,
                           ue_buf *out) {
    if (n > UINT32_MAX) return UE_ERR_USAGE;
    size_t start = out->size;
    ue_buf_put(out, "LZSS", 4);
    ue_buf_put_u32be(out, (uint32_t)n);
    ue_buf_put_u32be(out, 0); /* patched below, once the stream length is known */
    ue_buf_put_u32be(out, reserved);
    ue_result r = ue_lzss_encode(&UE_LZSS_GAMECUBE, level, in, n, out);
    if (r != UE_OK) return r;
    if (out->failed) return UE_ERR_NOMEM;
    size_t total = out->size - start;
    if (total > UINT32_MAX) return UE_ERR_USAGE;
    ue_store_u32be(out->data + start + 8, (uint32_t)total);
    return UE_OK;
}
