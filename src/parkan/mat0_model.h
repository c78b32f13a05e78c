/* unearth internal — bare MAT0 and WEAR files (outside an NRes) as registry formats without
 * geometry: recognised by name only (parkan_family.c), as neither has a magic number. */
#ifndef UE_PARKAN_MAT0_MODEL_H
#define UE_PARKAN_MAT0_MODEL_H

#include "common/json_writer.h"
#include "unearth/model_format.h"

/* The payload version a bare MAT0 is read with: a file has no NRes attr2 to say it, and 6 is
 * the only version seen in stock files (docs/formats/materials.md#mat0). */
#define UE_MAT0_BARE_VERSION 6u

extern const ue_model_format ue_mat0_model_format; /* NAME.mat0: a MAT0 payload (`extract`ed) */
extern const ue_model_format ue_wear_model_format; /* NAME.wea: a WEAR text (beside a map) */

/* validate's per-model counts (docs/schema/validate.schema.json) for a format without geometry,
 * all 0, into the object open in `w`: MAT0, WEAR and Texm share them. */
void ue_parkan_no_geometry_counts(ue_json *w);

#endif
