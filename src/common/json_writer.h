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

/* Long arrays written on several threads: `part` writes into `out` the items of an array that
 * `parent` will open inside the container it has open now, exactly the text `parent` would
 * write for the same calls (`items_before`: the items follow earlier ones, so a comma leads).
 * Text only (no sink, no skipped keys). ue_json_append_items then adds the part's text to
 * `parent`, which must have just opened that array or appended the parts before. */
void ue_json_init_items(ue_json *part, ue_buf *out, const ue_json *parent, bool items_before);
void ue_json_append_items(ue_json *parent, const ue_json *part);

#endif
