/* unearth internal — the one place that decides how Texm pixels map to RGBA (docs/formats/texm.md#pixel-formats channel
 * table, palette order docs/formats/texm.md#pixel-formats): one pixel decoded or encoded per call, shared by reader and writer. */
#ifndef UE_PARKAN_TEXM_PIXELS_H
#define UE_PARKAN_TEXM_PIXELS_H

#include <stddef.h>
#include <stdint.h>

/* Decodes one stored pixel of `format` (bpp bytes at `p`) to rgba[4]; `palette` (1024 bytes)
 * is used by format 0 only. The format must be known (ue_texm_bpp != 0). */
void texm_pixel_decode(uint32_t format, const uint8_t *p, const uint8_t *palette, uint8_t rgba[4]);
/* Decodes `n` consecutive pixels of `format` from `src` into n × 4 bytes at `rgba`. */
void texm_pixels_decode(uint32_t format, const uint8_t *src, size_t n, const uint8_t *palette,
                        uint8_t *rgba);
/* Encodes rgba[4] as one pixel of a direct (non-palette) format at `p` (bpp bytes); the unused
 * 4th byte of 888 is written as 0. */
void texm_pixel_encode(uint32_t format, const uint8_t rgba[4], uint8_t *p);
/* Stores palette entry `i` for colour rgba (alpha is not stored: entries are opaque). */
void texm_palette_encode(const uint8_t rgba[4], uint8_t *entry);

#endif
