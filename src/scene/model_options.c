/* unearth — the key=value options of model formats (model_format.h): lookup and the integer
 * parser every format shares, so that each refuses a bad value with the same message. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "unearth/model_format.h"

const char *ue_model_option_get(const ue_model_options *opts, const char *key) {
    const char *value = NULL;
    for (size_t i = 0; opts && i < opts->count; i++)
        if (opts->items[i].key && !strcmp(opts->items[i].key, key)) value = opts->items[i].value;
    return value;
}

ue_result ue_model_option_int(const ue_model_options *opts, const char *format, const char *key,
                              long min, long max, long fallback, long *out, ue_diag *d) {
    const char *text = ue_model_option_get(opts, key);
    *out = fallback;
    if (!text) return UE_OK;
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end || errno == ERANGE || v < min || v > max) {
        ue_diag_add(d, UE_SEV_ERROR, "model.option.value", UE_NO_OFFSET, format,
                    "option %s=%s: %s takes an integer %ld..%ld", key, text, format, min, max);
        return UE_ERR_USAGE;
    }
    *out = v;
    return UE_OK;
}
