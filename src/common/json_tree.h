/* unearth internal — the bridge from the jansson trees that some builders still make (model
 * statistics) to the JSON text the public API hands out, so no jansson type is public. */
#ifndef UE_COMMON_JSON_TREE_H
#define UE_COMMON_JSON_TREE_H

#include <jansson.h>

#include "unearth/common.h"

/* Appends `tree` as compact JSON in its insertion order (numbers as jansson prints them, so a
 * reader gets the same values back) and drops the reference. UE_ERR_NOMEM when `tree` is NULL
 * (a failed build) or the text does not fit. */
ue_result ue_json_tree_put(json_t *tree, ue_buf *out);

#endif
