/* unearth — internal: GX texture encoders for the DAT writer and the sample pack (the inverse of
 * gx_texture.c for I4, I8, IA4, IA8, RGB565, RGB5A3, RGBA8, C4, C8, their palettes, and CMPR), level 0 only. */
#ifndef UE_GAMECUBE_GX_ENCODE_H
#define UE_GAMECUBE_GX_ENCODE_H

#include "unearth/gx.h"

/* Encodes a width × height RGBA8 image (rows top to bottom) as level 0 of `format` (UE_GX_I4,
 * UE_GX_I8, UE_GX_IA4, UE_GX_IA8, UE_GX_RGB565, UE_GX_RGB5A3, UE_GX_RGBA8 or UE_GX_CMPR),
 * appending the tiled bytes to `out` (ue_gx_level_size bytes; texels of padding blocks repeat the nearest edge texel). Channels
 * are rounded to the nearest value the format holds, so an image of values the format can
 * represent (bit-replicated) comes back exactly from ue_gx_decode_level. The intensity formats
 * take the luma (77 R + 150 G + 29 B + 128) >> 8, so a grey texel keeps its value; I4 and I8
 * store no alpha (the decoder repeats the intensity there). CMPR picks, per 4×4
 * sub-block, the two texels farthest apart as end points and each texel's nearest of the four
 * colours; a texel with alpha < 128 switches the sub-block to the 3-colour mode (transparent
 * black). UE_ERR_USAGE for another format or a side outside 1..1024. */
ue_result ue_gx_encode_rgba(uint32_t format, const uint8_t *rgba, uint32_t width, uint32_t height,
                            ue_buf *out);

/* Encodes palette indices (one byte per texel, rows top to bottom) as UE_GX_C4 (indices < 16)
 * or UE_GX_C8. UE_ERR_USAGE for another format, a side outside 1..1024 or a C4 index ≥ 16. */
ue_result ue_gx_encode_indices(uint32_t format, const uint8_t *indices, uint32_t width,
                               uint32_t height, ue_buf *out);

/* Encodes `count` RGBA8 colours as palette entries (u16 BE) of a ue_gx_tlut_format. */
ue_result ue_gx_encode_palette(uint32_t tlut_format, const uint8_t *rgba, size_t count,
                               ue_buf *out);

/* One texel of the 16-bit formats, rounded to the nearest representable colour. */
uint16_t ue_gx_pack_rgb565(const uint8_t rgba[4]);
uint16_t ue_gx_pack_rgb5a3(const uint8_t rgba[4]);

#endif
