/* unearth — image encoding for exporters: RGBA8 pixels to PNG bytes, deterministic (the same
 * pixels always give the same file), written with zlib directly. */
#ifndef UNEARTH_IMAGE_H
#define UNEARTH_IMAGE_H

#include "unearth/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest side we encode; matches the scene IR's texture cap. */
#define UE_PNG_MAX_SIDE 16384u

/* Appends a PNG of w × h RGBA8 pixels (rows top to bottom) to `out`. Fully opaque images are
 * stored as RGB (colour type 2), others as RGBA (type 6); 8 bits, no interlace.
 * UE_ERR_USAGE for a zero or oversized image, UE_ERR_NOMEM if memory or out->limit runs out. */
UE_API ue_result ue_png_encode_rgba(uint32_t w, uint32_t h, const uint8_t *rgba, ue_buf *out);
/* The same with one tEXt chunk (keyword NUL text) right after IHDR, so a tool can tell its own
 * files (the `textures` verb marks its PNGs this way); keyword 1..79 bytes, keyword + text at
 * most 255 bytes, both Latin-1, else UE_ERR_USAGE. keyword and text NULL: no chunk. */
UE_API ue_result ue_png_encode_rgba_text(uint32_t w, uint32_t h, const uint8_t *rgba,
                                         const char *keyword, const char *text, ue_buf *out);
/* As ue_png_encode_rgba, traded for speed: every row with the Up filter and zlib at level 1
 * (files about 1.3 times larger, made several times faster): for pictures drawn in bulk, the
 * previews, sheets and a gallery's thumbnails. Deterministic as well. */
UE_API ue_result ue_png_encode_rgba_quick(uint32_t w, uint32_t h, const uint8_t *rgba, ue_buf *out);
/* Whether PNG bytes begin as ue_png_encode_rgba_text writes them with this keyword and text:
 * the signature, IHDR, then that tEXt chunk (its CRC is not checked). `head` needs to hold only
 * the file's first 41 + strlen(keyword) + 1 + strlen(text) bytes; fewer: false. */
UE_API bool ue_png_has_text(const uint8_t *head, size_t size, const char *keyword, const char *text);

#ifdef __cplusplus
}
#endif
#endif
