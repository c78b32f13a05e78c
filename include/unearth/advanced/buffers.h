/* unearth advanced API — arrays that may be empty allocated without a special case, and text
 * printed into a growable ue_buf. */
#ifndef UNEARTH_ADVANCED_BUFFERS_H
#define UNEARTH_ADVANCED_BUFFERS_H

#include <stdint.h>
#include <stdlib.h>

#include "unearth/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Arrays of `count` items that may be empty: never NULL for count 0 (room for one item is
 * taken), so NULL always means out of memory (or, for ue_malloc_items, a count × size that
 * overflows). ue_calloc_items zeroes them. */
static inline void *ue_malloc_items(size_t count, size_t size) {
    size_t n = count ? count : 1;
    if (size == 0) return malloc(1);
    return n > SIZE_MAX / size ? NULL : malloc(n * size);
}
static inline void *ue_calloc_items(size_t count, size_t size) { return calloc(count ? count : 1, size); }

/* Appends printf-formatted text to `b` (the model formats' `info` text); a line is cut at
 * 1023 bytes. */
UE_API void ue_buf_printf(ue_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#ifdef __cplusplus
}
#endif
#endif
