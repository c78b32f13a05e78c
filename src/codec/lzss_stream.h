/* unearth internal — the LZSS decoder handing its output out in pieces through a small window,
 * so that a payload of any size is written and hashed as it is decoded, in constant memory. */
#ifndef UE_CODEC_LZSS_STREAM_H
#define UE_CODEC_LZSS_STREAM_H

#include "unearth/lzss.h"

/* The smallest window: one ring of history plus as much again for new output. */
#define UE_LZSS_WINDOW_MIN (2u * UE_LZSS_RING)

/* Receives output bytes [at, at + n) in order; anything but UE_OK stops the decode. */
typedef ue_result (*ue_lzss_emit_fn)(void *ctx, uint64_t at, const uint8_t *data, size_t n);

/* ue_lzss_decode of `out_size` bytes, the output handed to `emit` piece by piece instead of
 * kept: `window` (window_size ≥ UE_LZSS_WINDOW_MIN bytes, the caller's, reused) holds the last
 * ring of output that references reach, and each new stretch of it. Same bytes, same
 * diagnostics, same stats as ue_lzss_decode. */
ue_result ue_lzss_decode_chunks(const ue_lzss_params *p, const uint8_t *in, size_t in_size,
                                uint64_t out_size, uint8_t *window, size_t window_size,
                                ue_lzss_emit_fn emit, void *ctx, ue_lzss_stats *stats,
                                ue_diag *d, uint64_t diag_base, const char *diag_path);

/* ue_lzss_decode into the whole of `out`, each new stretch of about `piece` bytes (one group of
 * 8 items may end past it) handed to `emit` as soon as it is decoded, while it is still in the
 * cache: a hash of the output costs no second pass over memory. Same bytes, diagnostics and
 * stats as ue_lzss_decode; on an error the stretch that failed is not handed out. */
ue_result ue_lzss_decode_pieces(const ue_lzss_params *p, const uint8_t *in, size_t in_size,
                                uint8_t *out, size_t out_size, size_t piece, ue_lzss_emit_fn emit,
                                void *ctx, ue_lzss_stats *stats, ue_diag *d, uint64_t diag_base,
                                const char *diag_path);

#endif
