/* unearth — internal: the JSON writer, declared in the advanced tier of the public API
 * (unearth/advanced/json.h), and the number spellings the OBJ writer shares with it. */
#ifndef UE_COMMON_JSON_WRITER_H
#define UE_COMMON_JSON_WRITER_H

#include "unearth/advanced/json.h"

/* Formats a finite number as %.9g with '.' as the decimal point whatever the C locale, and
 * -0 as 0. Returns the length written (< 32), or 0 for NaN/Inf. Shared by the OBJ writer. */
size_t ue_format_float(double v, char out[32]);
/* ue_json_real's spelling; returns the length (< 40), or 0 for NaN/Inf. */
size_t ue_format_real17(double v, char out[40]);

#endif
