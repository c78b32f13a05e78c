/* unearth — the byte codecs of Parkan RsLi libraries besides LZSS: the 16-bit XOR keystream,
 * Okumura's LZHUF (LZSS + adaptive Huffman) and raw Deflate through zlib. */
#ifndef UNEARTH_CODEC_H
#define UNEARTH_CODEC_H

#include "unearth/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- XOR keystream (RsLi table and payload obfuscation) ---------------------------------- */

/* The generator never looks at the data, so one routine encrypts and decrypts, and a stream can
 * be processed in pieces by keeping the state. Key 0 gives an all-zero keystream. */
typedef struct ue_xor_state {
    uint8_t lo, hi;
} ue_xor_state;

UE_API void ue_xor_init(ue_xor_state *s, uint16_t key);
/* XORs n bytes in place, advancing the state. */
UE_API void ue_xor_apply(ue_xor_state *s, uint8_t *data, size_t n);
/* One-shot: XORs n bytes in place with a fresh keystream for `key`. */
UE_API void ue_xor_buffer(uint16_t key, uint8_t *data, size_t n);

/* ---- LZHUF (Okumura/Yoshizaki LZHUF.C: N=4096, F=60, ring of spaces, r = 4036) ------------- */

#define UE_LZHUF_RING 4096u
#define UE_LZHUF_MAX_MATCH 60u
#define UE_LZHUF_START 4036u

typedef struct ue_codec_stats {
    size_t consumed; /* input bytes touched (for LZHUF: bytes holding at least one used bit) */
    size_t produced; /* output bytes written */
} ue_codec_stats;

/* The most output any stream of `in_size` bytes can decode to: a symbol costs at least one
 * bit and a match of at most 60 bytes at least 10 bits (symbol + 9 position bits), so
 * 6 bytes per input bit, 48 per byte. */
UE_API uint64_t ue_lzhuf_max_output(size_t in_size);

/* Decodes exactly out_size bytes. UE_ERR_INVALID (with a diagnostic naming the input offset
 * plus diag_base) when out_size is over ue_lzhuf_max_output(in_size) ("lzhuf.size_limit",
 * before any work), when the input ends first, or when a match would write past out_size.
 * Bits past the last symbol are padding and are not checked. */
UE_API ue_result ue_lzhuf_decode(const uint8_t *in, size_t in_size, uint8_t *out, size_t out_size,
                                 ue_codec_stats *stats, ue_diag *d, uint64_t diag_base,
                                 const char *diag_path);

/* Encoder effort: 0 = greedy with a short search, 9 = lazy matching with a deep search. */
#define UE_LZHUF_LEVEL_DEFAULT 6
/* Appends the stream to `out`; the last byte is zero-padded. The decoder above and Okumura's
 * original both accept it (matches never reach the ring bytes Okumura leaves unfilled). */
UE_API ue_result ue_lzhuf_encode(int level, const uint8_t *in, size_t in_size, ue_buf *out);

/* ---- raw Deflate (RFC 1951, no zlib header or Adler-32) ---------------------------------- */

/* The most output any raw Deflate stream of `in_size` bytes can inflate to: a 258-byte match
 * costs at least 2 bits (1-bit length and distance codes), so 1032 bytes per input byte. */
UE_API uint64_t ue_deflate_max_output(size_t in_size);

/* Inflates into exactly out_size bytes. Errors: out_size over ue_deflate_max_output(in_size)
 * ("deflate.size_limit", before zlib is set up), a zlib-wrapped stream, a corrupt stream, a
 * stream that ends early (input or final block) or that would produce more than out_size.
 * Input left after the final block is reported through stats->consumed. */
UE_API ue_result ue_deflate_raw_decode(const uint8_t *in, size_t in_size, uint8_t *out, size_t out_size,
                                       ue_codec_stats *stats, ue_diag *d, uint64_t diag_base,
                                       const char *diag_path);
/* Level 0..9 as in zlib (-1 = zlib's default). Appends the raw stream to `out`. */
UE_API ue_result ue_deflate_raw_encode(int level, const uint8_t *in, size_t in_size, ue_buf *out);

/* True when the first two bytes form a valid zlib (RFC 1950) header. */
UE_API bool ue_deflate_looks_zlib(const uint8_t *in, size_t in_size);

#ifdef __cplusplus
}
#endif
#endif
