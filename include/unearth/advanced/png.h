/* unearth advanced API — the small PNG reader of texture import (PNG → Texm): 8-bit grey, grey +
 * alpha, RGB, RGBA and palette images, not interlaced, decoded to RGBA8 rows top to bottom. */
#ifndef UNEARTH_ADVANCED_PNG_H
#define UNEARTH_ADVANCED_PNG_H

#include "unearth/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Decodes `size` bytes of PNG into *rgba (malloc, w × h × 4). Any other bit depth, interlacing,
 * a bad CRC, a truncated or oversized image data stream is refused with a diagnostic naming the
 * chunk (UE_ERR_UNSUPPORTED for what PNG allows but this reader does not, UE_ERR_INVALID for a
 * broken file, UE_ERR_LIMIT beyond 16384 pixels a side). A palette image's tRNS gives alpha. */
UE_API ue_result ue_png_decode_rgba(const uint8_t *data, size_t size, uint32_t *w, uint32_t *h,
                             uint8_t **rgba, ue_diag *d);

#ifdef __cplusplus
}
#endif
#endif
