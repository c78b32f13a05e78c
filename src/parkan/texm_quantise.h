/* unearth internal — the palette of an indexed Texm made from an image of more than 256 colours:
 * median cut over its distinct RGB colours, weighted by pixel count (texm_quantise.c). */
#ifndef UE_PARKAN_TEXM_QUANTISE_H
#define UE_PARKAN_TEXM_QUANTISE_H

#include <stddef.h>
#include <stdint.h>

/* Fills `palette` with at most 256 RGB colours (alpha 255) for the `pixels` RGBA pixels by
 * median cut (docs/parkan-textures.md#the-quantiser) and returns how many; 0 when out of
 * memory or when there are no pixels. Alpha is not looked at: a palette entry stores none. */
unsigned texm_median_cut(const uint8_t *rgba, size_t pixels, uint8_t palette[256][4]);

#endif
