/* unearth — internal: the text helpers, declared in the advanced tier of the public API
 * (unearth/advanced/text.h); the CP1251 conversions are in unearth/common.h. */
#ifndef UE_COMMON_TEXT_H
#define UE_COMMON_TEXT_H

#include "unearth/common.h"
#include "unearth/advanced/text.h"

/* out = a, the decimal digits of i, b, then (c not NULL) those of j and c, cut to cap bytes and
 * NUL-terminated as snprintf cuts "%s%llu%s%llu%s": the paths and pointers built for every
 * channel, without printf's machinery. */
void ue_text_indexed(char *out, size_t cap, const char *a, uint64_t i, const char *b, uint64_t j, const char *c);

#endif
