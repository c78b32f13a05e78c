/* unearth — internal: the text helpers, declared in the advanced tier of the public API
 * (unearth/advanced/text.h); the CP1251 conversions are in unearth/common.h. */
#ifndef UE_COMMON_TEXT_H
#define UE_COMMON_TEXT_H

#include "unearth/common.h"
#include "unearth/advanced/text.h"

#endif
