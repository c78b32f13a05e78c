/* unearth tests — the payload of one resource in a written MSH image (its NRes directory read
 * straight from the bytes, independently of the parser), shared by the edit-mode tests. */
#ifndef UE_TEST_MSH_RESOURCES_H
#define UE_TEST_MSH_RESOURCES_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "unearth/common.h"

/* The payload of the resource `type` in a model image (size 0 and NULL when absent). */
static inline const uint8_t *resource(const ue_buf *b, uint32_t type, size_t *size) {
    uint32_t count = 0, dir = 0;
    memcpy(&count, b->data + 8, 4);
    memcpy(&dir, b->data + 12, 4);
    dir -= 64 * count;
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *e = b->data + dir + 64 * (size_t)i;
        uint32_t t, sz, off;
        memcpy(&t, e, 4);
        memcpy(&sz, e + 12, 4);
        memcpy(&off, e + 56, 4);
        if (t == type) return *size = sz, b->data + off;
    }
    *size = 0;
    return NULL;
}

static inline bool same_resource(const ue_buf *a, const ue_buf *b, uint32_t type) {
    size_t na, nb;
    const uint8_t *pa = resource(a, type, &na), *pb = resource(b, type, &nb);
    return na == nb && (na == 0 || memcmp(pa, pb, na) == 0);
}

#endif
