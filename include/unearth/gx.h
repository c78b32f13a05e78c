/* unearth — GameCube GX texture decoding: the tiled texel formats (I4 … RGBA8, the palette
 * formats C4/C8/C14X2 and CMPR) to RGBA8, rows top to bottom, one mip level at a time. */
#ifndef UNEARTH_GX_H
#define UNEARTH_GX_H

#include "unearth/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* GXTexFmt values as stored in an HSD ImageDesc (+0x08). */
typedef enum ue_gx_format {
    UE_GX_I4 = 0x0,
    UE_GX_I8 = 0x1,
    UE_GX_IA4 = 0x2,
    UE_GX_IA8 = 0x3,
    UE_GX_RGB565 = 0x4,
    UE_GX_RGB5A3 = 0x5,
    UE_GX_RGBA8 = 0x6,
    UE_GX_C4 = 0x8,
    UE_GX_C8 = 0x9,
    UE_GX_C14X2 = 0xA,
    UE_GX_CMPR = 0xE
} ue_gx_format;

/* GXTlutFmt values as stored in an HSD TlutDesc (+0x04): the encoding of each u16 BE entry. */
typedef enum ue_gx_tlut_format {
    UE_GX_TLUT_IA8 = 0,
    UE_GX_TLUT_RGB565 = 1,
    UE_GX_TLUT_RGB5A3 = 2
} ue_gx_tlut_format;

/* The hardware's limits: a side is 1..1024 texels (10-bit fields) and LOD runs 0..10. */
#define UE_GX_MAX_SIDE 1024u
#define UE_GX_MAX_LEVEL 10u

/* One texture as a model stores it: the pixel data (level 0 first, then each mip level,
 * contiguous) and, for C4/C8/C14X2, the palette. Everything is only read during a call. */
typedef struct ue_gx_image {
    const uint8_t *data;      /* pixel data of level 0 onwards */
    size_t size;              /* bytes readable at `data` */
    uint32_t width, height;   /* level 0, in texels */
    uint32_t format;          /* a ue_gx_format value */
    const uint8_t *tlut;      /* palette entries, u16 BE each (NULL for direct formats) */
    size_t tlut_size;         /* bytes readable at `tlut` */
    size_t tlut_count;        /* entries the palette declares (TlutDesc n_entries) */
    uint32_t tlut_format;     /* a ue_gx_tlut_format value */
} ue_gx_image;

/* The short name of a texture format ("CMPR") or NULL when the value is no GX format. */
UE_API const char *ue_gx_format_name(uint32_t format);

/* Size of mip level `level` of a width × height texture: its texel size (max(1, side >> level))
 * in *level_w / *level_h, its byte size padded to whole blocks in *bytes and, in *offset, where
 * it starts (the sum of the levels before it). Any output may be NULL. UE_ERR_UNSUPPORTED for
 * an unknown format, UE_ERR_INVALID for a zero side, UE_ERR_LIMIT for a side above
 * UE_GX_MAX_SIDE or a level above UE_GX_MAX_LEVEL. */
UE_API ue_result ue_gx_level_size(uint32_t format, uint32_t width, uint32_t height, unsigned level,
                                  uint32_t *level_w, uint32_t *level_h, size_t *bytes,
                                  size_t *offset);

/* Decodes mip level `level` into `rgba` (level_w × level_h × 4 bytes, rows top to bottom;
 * rgba_size must hold them, else UE_ERR_USAGE). Channels are expanded by bit replication and
 * CMPR blends as the hardware does (3/8–5/8, or 1/2 plus transparent black).
 * Refused with a diagnostic at diag_base + the byte offset (path `diag_path`): sizes and levels
 * as ue_gx_level_size, data shorter than the level needs (UE_ERR_INVALID), a palette format
 * without a palette or with one shorter than its entry count (UE_ERR_INVALID), an unknown
 * palette format (UE_ERR_UNSUPPORTED). A palette index past the declared entries is a
 * violation: strict mode fails (UE_ERR_INVALID), tolerant mode warns and draws that texel as
 * transparent black; either way the whole level is written. */
UE_API ue_result ue_gx_decode_level(const ue_gx_image *img, unsigned level, ue_mode mode,
                                    uint8_t *rgba, size_t rgba_size, ue_diag *d,
                                    uint64_t diag_base, const char *diag_path);

#ifdef __cplusplus
}
#endif
#endif
