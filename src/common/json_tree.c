/* unearth — jansson trees to JSON text, for the builders that still make trees (model
 * statistics); the public API hands out the text. */
#include <stdlib.h>
#include <string.h>

#include "common/json_tree.h"

ue_result ue_json_tree_put(json_t *tree, ue_buf *out) {
    char *text = tree ? json_dumps(tree, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    json_decref(tree);
    if (!text) return UE_ERR_NOMEM;
    ue_buf_put(out, text, strlen(text));
    free(text);
    return out->failed ? UE_ERR_NOMEM : UE_OK;
}
