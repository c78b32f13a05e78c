/* unearth internal — level 0 of a Parkan Texm entry as RGBA, the one call the material chain
 * needs (msh_materials.c); the full Texm reader is include/unearth/texm.h's. */
#ifndef UE_PARKAN_TEXM_DECODE_H
#define UE_PARKAN_TEXM_DECODE_H

#include "unearth/common.h"

#define UE_TEXM_TYPE 0x6D786554u /* 'Texm' */

typedef struct ue_parkan_rgba {
    uint32_t width, height;
    uint8_t *rgba; /* width × height × 4, rows top to bottom (malloc) */
} ue_parkan_rgba;

/* UE_ERR_INVALID for a header, size or format the decoder refuses; UE_ERR_NOMEM. */
ue_result ue_parkan_texm_rgba(const uint8_t *data, size_t size, ue_parkan_rgba *out);

#endif
