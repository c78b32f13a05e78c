/* unearth tests — a small helper that lays out a DAT byte image by hand (docs/formats/dat.md): structs
 * placed in a data block, a relocation for every pointer written, roots, then the file. */
#ifndef UE_TEST_DAT_IMAGE_H
#define UE_TEST_DAT_IMAGE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define DI_MAX_DATA 0x11000u
#define DI_MAX_RELOCS 2048u
#define DI_MAX_ROOTS 8u

typedef struct dat_image {
    uint8_t data[DI_MAX_DATA];
    uint32_t used;                  /* data block size so far */
    uint32_t relocs[DI_MAX_RELOCS];
    uint32_t reloc_count;
    uint32_t root_offsets[DI_MAX_ROOTS];
    const char *root_names[DI_MAX_ROOTS];
    uint32_t root_count;
} dat_image;

static inline void di_init(dat_image *b) { memset(b, 0, sizeof *b); }

/* Room for `size` zero bytes at the next multiple of `align`; their data offset. */
static inline uint32_t di_alloc(dat_image *b, uint32_t size, uint32_t align) {
    uint32_t at = (b->used + align - 1) / align * align;
    if (at + size > DI_MAX_DATA) abort();
    b->used = at + size;
    return at;
}

static inline void di_u8(dat_image *b, uint32_t off, uint8_t v) { b->data[off] = v; }
static inline void di_u16(dat_image *b, uint32_t off, uint16_t v) {
    b->data[off] = (uint8_t)(v >> 8);
    b->data[off + 1] = (uint8_t)v;
}
static inline void di_u32(dat_image *b, uint32_t off, uint32_t v) {
    di_u16(b, off, (uint16_t)(v >> 16));
    di_u16(b, off + 2, (uint16_t)v);
}
static inline void di_f32(dat_image *b, uint32_t off, float f) {
    uint32_t v;
    memcpy(&v, &f, sizeof v);
    di_u32(b, off, v);
}
/* A pointer field: the target's data offset and a relocation entry for the field. */
static inline void di_ptr(dat_image *b, uint32_t field, uint32_t target) {
    di_u32(b, field, target);
    if (b->reloc_count == DI_MAX_RELOCS) abort();
    b->relocs[b->reloc_count++] = field;
}
/* A NUL-terminated string placed in the data block; its offset. */
static inline uint32_t di_str(dat_image *b, const char *s) {
    uint32_t n = (uint32_t)strlen(s) + 1, at = di_alloc(b, n, 1);
    memcpy(b->data + at, s, n);
    return at;
}
static inline void di_root(dat_image *b, uint32_t off, const char *name) {
    b->root_offsets[b->root_count] = off;
    b->root_names[b->root_count++] = name;
}

static inline void di_be32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* The whole file (malloc'd, *size set): header, data block (padded to 4), relocations, roots,
 * strings; file_size = the bytes written. */
static inline uint8_t *di_file(const dat_image *b, size_t *size) {
    uint32_t data = (b->used + 3) / 4 * 4, strings = 0;
    for (uint32_t i = 0; i < b->root_count; i++) strings += (uint32_t)strlen(b->root_names[i]) + 1;
    size_t n = 0x20 + data + 4 * b->reloc_count + 8 * b->root_count + strings;
    uint8_t *p = calloc(1, n);
    if (!p) abort();
    di_be32(p, (uint32_t)n);
    di_be32(p + 4, data);
    di_be32(p + 8, b->reloc_count);
    di_be32(p + 12, b->root_count);
    memcpy(p + 0x20, b->data, b->used);
    uint8_t *q = p + 0x20 + data;
    for (uint32_t i = 0; i < b->reloc_count; i++, q += 4) di_be32(q, b->relocs[i]);
    uint32_t s = 0;
    uint8_t *str = q + 8 * b->root_count;
    for (uint32_t i = 0; i < b->root_count; i++, q += 8) {
        di_be32(q, b->root_offsets[i]);
        di_be32(q + 4, s);
        size_t len = strlen(b->root_names[i]) + 1;
        memcpy(str + s, b->root_names[i], len);
        s += (uint32_t)len;
    }
    *size = n;
    return p;
}

#endif
