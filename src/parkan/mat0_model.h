/* unearth internal — bare MAT0 and WEAR files (outside an NRes) as registry formats without
 * geometry: recognised by name only (parkan_family.c), as neither has a magic number. */
#ifndef UE_PARKAN_MAT0_MODEL_H
#define UE_PARKAN_MAT0_MODEL_H

#include "unearth/model_format.h"

/* The payload version a bare MAT0 is read with: a file has no NRes attr2 to say it, and 6 is
 * the only version seen in stock files (docs/formats/materials.md#mat0). */
#define UE_MAT0_BARE_VERSION 6u

extern const ue_model_format ue_mat0_model_format; /* NAME.mat0: a MAT0 payload (`extract`ed) */
extern const ue_model_format ue_wear_model_format; /* NAME.wea: a WEAR text (beside a map) */

#endif
