/* unearth — bounded endian reads, the growable output buffer, and hex helpers.
 * Every byte a parser takes from a file passes through a check here or a proven range. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unearth/common.h"
#include "common/bytes.h"

#define UE_CHECK(n)                                                                           \
    do {                                                                                      \
        if (!p || off > size || size - off < (n)) return false;                               \
    } while (0)

bool ue_rd_u8(const uint8_t *p, size_t size, size_t off, uint8_t *out) {
    UE_CHECK(1);
    *out = p[off];
    return true;
}
bool ue_rd_u16le(const uint8_t *p, size_t size, size_t off, uint16_t *out) {
    UE_CHECK(2);
    *out = ue_load_u16le(p + off);
    return true;
}
bool ue_rd_u32le(const uint8_t *p, size_t size, size_t off, uint32_t *out) {
    UE_CHECK(4);
    *out = ue_load_u32le(p + off);
    return true;
}
bool ue_rd_u16be(const uint8_t *p, size_t size, size_t off, uint16_t *out) {
    UE_CHECK(2);
    *out = ue_load_u16be(p + off);
    return true;
}
bool ue_rd_u32be(const uint8_t *p, size_t size, size_t off, uint32_t *out) {
    UE_CHECK(4);
    *out = ue_load_u32be(p + off);
    return true;
}
bool ue_rd_f32le(const uint8_t *p, size_t size, size_t off, float *out) {
    uint32_t u;
    if (!ue_rd_u32le(p, size, off, &u)) return false;
    memcpy(out, &u, 4);
    return true;
}
bool ue_rd_f32be(const uint8_t *p, size_t size, size_t off, float *out) {
    uint32_t u;
    if (!ue_rd_u32be(p, size, off, &u)) return false;
    memcpy(out, &u, 4);
    return true;
}

void ue_buf_free(ue_buf *b) {
    free(b->data);
    b->data = NULL;
    b->size = b->capacity = 0;
    b->failed = false;
}

bool ue_buf_reserve(ue_buf *b, size_t extra) {
    if (b->failed) return false;
    size_t need;
    if (!ue_add_size(b->size, extra, &need) || (b->limit && need > b->limit)) {
        b->failed = true;
        return false;
    }
    if (need <= b->capacity) return true;
    size_t nc = b->capacity ? b->capacity : 256;
    while (nc < need) {
        if (nc > SIZE_MAX / 2) {
            nc = need;
            break;
        }
        nc *= 2;
    }
    uint8_t *n = realloc(b->data, nc);
    if (!n) {
        b->failed = true;
        return false;
    }
    b->data = n;
    b->capacity = nc;
    return true;
}

bool ue_buf_try_reserve(ue_buf *b, size_t extra) {
    size_t need;
    if (b->failed || !ue_add_size(b->size, extra, &need) || (b->limit && need > b->limit)) return false;
    if (need <= b->capacity) return true;
    uint8_t *n = realloc(b->data, need);
    if (!n) return false;
    b->data = n;
    b->capacity = need;
    return true;
}

void ue_buf_put(ue_buf *b, const void *src, size_t n) {
    if (n == 0 || !ue_buf_reserve(b, n)) return;
    memcpy(b->data + b->size, src, n);
    b->size += n;
}
void ue_buf_put_zeros(ue_buf *b, size_t n) {
    if (n == 0 || !ue_buf_reserve(b, n)) return;
    memset(b->data + b->size, 0, n);
    b->size += n;
}
void ue_buf_put_u8(ue_buf *b, uint8_t v) { ue_buf_put(b, &v, 1); }
void ue_buf_put_u16le(ue_buf *b, uint16_t v) {
    uint8_t t[2];
    ue_store_u16le(t, v);
    ue_buf_put(b, t, 2);
}
void ue_buf_put_u32le(ue_buf *b, uint32_t v) {
    uint8_t t[4];
    ue_store_u32le(t, v);
    ue_buf_put(b, t, 4);
}
void ue_buf_put_u16be(ue_buf *b, uint16_t v) {
    uint8_t t[2];
    ue_store_u16be(t, v);
    ue_buf_put(b, t, 2);
}
void ue_buf_put_u32be(ue_buf *b, uint32_t v) {
    uint8_t t[4];
    ue_store_u32be(t, v);
    ue_buf_put(b, t, 4);
}
void ue_buf_align(ue_buf *b, size_t align) {
    if (align <= 1) return;
    size_t rem = b->size % align;
    if (rem) ue_buf_put_zeros(b, align - rem);
}
uint8_t *ue_buf_take(ue_buf *b, size_t *size_out) {
    uint8_t *p = b->data;
    if (size_out) *size_out = b->size;
    b->data = NULL;
    b->size = b->capacity = 0;
    return p;
}

void ue_hex_encode(const uint8_t *src, size_t n, char *out) {
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[src[i] >> 4];
        out[2 * i + 1] = digits[src[i] & 15];
    }
    out[2 * n] = 0;
}

static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bool ue_hex_decode(const char *hex, uint8_t *out, size_t out_cap, size_t *out_len) {
    size_t len = strlen(hex);
    if (len % 2 || len / 2 > out_cap) return false;
    for (size_t i = 0; i < len / 2; i++) {
        int hi = hex_value(hex[2 * i]), lo = hex_value(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) return false;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    if (out_len) *out_len = len / 2;
    return true;
}

void ue_buf_printf(ue_buf *b, const char *fmt, ...) {
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n > 0) ue_buf_put(b, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}
