/* unearth — internal: the JSON reader, declared in the advanced tier of the public API
 * (unearth/advanced/json.h) so the CLI reads JSON as the library does. */
#ifndef UE_COMMON_JSON_DOC_H
#define UE_COMMON_JSON_DOC_H

#include "unearth/advanced/json.h"

#endif
