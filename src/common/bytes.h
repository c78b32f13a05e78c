/* unearth — internal: overflow-checked size arithmetic, bounded endian reads and hex text.
 * Every parser reads file bytes through these; not part of the public API. */
#ifndef UE_COMMON_BYTES_H
#define UE_COMMON_BYTES_H

#include <string.h>

#include "unearth/advanced/buffers.h"
#include "unearth/common.h"

/* ---- overflow-checked size arithmetic --------------------------------------------------- */

static inline bool ue_add_size(size_t a, size_t b, size_t *out) {
    if (a > SIZE_MAX - b) return false;
    *out = a + b;
    return true;
}
static inline bool ue_mul_size(size_t a, size_t b, size_t *out) {
    if (a != 0 && b > SIZE_MAX / a) return false;
    *out = a * b;
    return true;
}
/* True when [off, off+len) lies inside [0, size). */
static inline bool ue_range_ok(uint64_t off, uint64_t len, uint64_t size) {
    return off <= size && len <= size - off;
}

/* ---- bounded little/big-endian reads from a memory span --------------------------------- */

/* Each returns false (and leaves *out untouched) when the read would pass `size`. */
bool ue_rd_u8(const uint8_t *p, size_t size, size_t off, uint8_t *out);
bool ue_rd_u16le(const uint8_t *p, size_t size, size_t off, uint16_t *out);
bool ue_rd_u32le(const uint8_t *p, size_t size, size_t off, uint32_t *out);
bool ue_rd_u16be(const uint8_t *p, size_t size, size_t off, uint16_t *out);
bool ue_rd_u32be(const uint8_t *p, size_t size, size_t off, uint32_t *out);
bool ue_rd_f32le(const uint8_t *p, size_t size, size_t off, float *out);
bool ue_rd_f32be(const uint8_t *p, size_t size, size_t off, float *out);

/* Unchecked loads for callers that have already proven the range (hot loops). */
static inline uint16_t ue_load_u16le(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static inline uint32_t ue_load_u32le(const uint8_t *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline uint16_t ue_load_u16be(const uint8_t *p) { return (uint16_t)((p[0] << 8) | p[1]); }
static inline uint32_t ue_load_u32be(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}
static inline void ue_store_u16le(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static inline void ue_store_u32le(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}
static inline void ue_store_u16be(uint8_t *p, uint16_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static inline void ue_store_u32be(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}

/* ue_buf_put for hot loops (the glTF writer's floats, the JSON emitter's bytes): a copy inlined in
 * the caller while the bytes fit the capacity and the limit; otherwise the checked path, which
 * grows the buffer or records the failure. The bytes appended are the same either way. */
static inline void ue_buf_put_fast(ue_buf *b, const void *src, size_t n) {
    if (b->data && !b->failed && n <= b->capacity - b->size && (!b->limit || n <= b->limit - b->size)) {
        memcpy(b->data + b->size, src, n);
        b->size += n;
        return;
    }
    ue_buf_put(b, src, n);
}

void ue_hex_encode(const uint8_t *src, size_t n, char *out /* 2n+1 */);
/* Returns false on odd length or a non-hex digit. */
bool ue_hex_decode(const char *hex, uint8_t *out, size_t out_cap, size_t *out_len);


#endif
