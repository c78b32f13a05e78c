/* unearth internal — a small PNG reader for texture import (PNG → Texm): 8-bit grey, grey +
 * alpha, RGB, RGBA and palette images, not interlaced, decoded to RGBA8 rows top to bottom. */
#ifndef UE_IMPORT_PNG_READ_H
#define UE_IMPORT_PNG_READ_H

#include "unearth/common.h"

/* Decodes `size` bytes of PNG into *rgba (malloc, w × h × 4). Any other bit depth, interlacing,
 * a bad CRC, a truncated or oversized image data stream is refused with a diagnostic naming the
 * chunk (UE_ERR_UNSUPPORTED for what PNG allows but this reader does not, UE_ERR_INVALID for a
 * broken file, UE_ERR_LIMIT beyond 16384 pixels a side). A palette image's tRNS gives alpha. */
ue_result ue_png_decode_rgba(const uint8_t *data, size_t size, uint32_t *w, uint32_t *h,
                             uint8_t **rgba, ue_diag *d);

#endif
