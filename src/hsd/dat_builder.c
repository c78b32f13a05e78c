/* unearth — internal: lays out a new HSD DAT (docs/formats/dat.md#writer-layout): 4-aligned structs, 32-aligned
 * GX buffers, a relocation for every pointer field set, roots and the string table. */
#include <stdlib.h>
#include <string.h>

#include "hsd/dat_builder.h"
#include "common/bytes.h"

/* Every offset of a DAT is a u32; stay well below so the tables after the block fit too. */
#define DATB_MAX_BLOCK 0xF0000000u

void ue_datb_init(ue_dat_builder *b) { memset(b, 0, sizeof *b); }

void ue_datb_free(ue_dat_builder *b) {
    ue_buf_free(&b->data);
    ue_buf_free(&b->strings);
    free(b->relocs);
    free(b->root_offsets);
    free(b->root_names);
    memset(b, 0, sizeof *b);
}

uint32_t ue_datb_alloc(ue_dat_builder *b, size_t size, uint32_t align) {
    if (b->failed) return 0;
    ue_buf_align(&b->data, align ? align : 1);
    size_t at = b->data.size;
    if (size > DATB_MAX_BLOCK || at > DATB_MAX_BLOCK - size) {
        b->failed = true;
        return 0;
    }
    ue_buf_put_zeros(&b->data, size);
    if (b->data.failed) {
        b->failed = true;
        return 0;
    }
    return (uint32_t)at;
}

uint32_t ue_datb_put(ue_dat_builder *b, const void *src, size_t size, size_t pad_to,
                     uint32_t align) {
    uint32_t at = ue_datb_alloc(b, pad_to > size ? pad_to : size, align);
    if (!b->failed && size) memcpy(b->data.data + at, src, size);
    return at;
}

uint32_t ue_datb_cstring(ue_dat_builder *b, const char *s) {
    return ue_datb_put(b, s, strlen(s) + 1, 0, 1);
}

/* True when `n` bytes at `off` lie inside the placed data (false only after a failure). */
static bool placed(const ue_dat_builder *b, uint32_t off, size_t n) {
    return !b->failed && ue_range_ok(off, n, b->data.size);
}

void ue_datb_u8(ue_dat_builder *b, uint32_t off, uint8_t v) {
    if (placed(b, off, 1)) b->data.data[off] = v;
}
void ue_datb_u16(ue_dat_builder *b, uint32_t off, uint16_t v) {
    if (placed(b, off, 2)) ue_store_u16be(b->data.data + off, v);
}
void ue_datb_u32(ue_dat_builder *b, uint32_t off, uint32_t v) {
    if (placed(b, off, 4)) ue_store_u32be(b->data.data + off, v);
}
void ue_datb_f32(ue_dat_builder *b, uint32_t off, float v) {
    uint32_t w;
    memcpy(&w, &v, sizeof w);
    ue_datb_u32(b, off, w);
}

/* Grows an array of `elem`-byte items to hold one more (doubling). */
static bool grow(void **items, size_t count, size_t *cap, size_t elem) {
    if (count < *cap) return true;
    size_t n = *cap ? *cap * 2 : 64;
    void *p = realloc(*items, n * elem);
    if (!p) return false;
    *items = p;
    *cap = n;
    return true;
}

void ue_datb_pointer(ue_dat_builder *b, uint32_t field, uint32_t target) {
    if (!placed(b, field, 4)) return;
    if (!grow((void **)&b->relocs, b->reloc_count, &b->reloc_cap, sizeof *b->relocs)) {
        b->failed = true;
        return;
    }
    ue_store_u32be(b->data.data + field, target);
    b->relocs[b->reloc_count++] = field;
}

void ue_datb_root(ue_dat_builder *b, uint32_t data_offset, const char *name) {
    if (b->failed) return;
    size_t cap = b->root_cap;
    if (!grow((void **)&b->root_offsets, b->root_count, &cap, sizeof *b->root_offsets) ||
        !grow((void **)&b->root_names, b->root_count, &b->root_cap, sizeof *b->root_names)) {
        b->failed = true;
        return;
    }
    b->root_offsets[b->root_count] = data_offset;
    b->root_names[b->root_count++] = (uint32_t)b->strings.size;
    ue_buf_put(&b->strings, name, strlen(name) + 1);
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

ue_result ue_datb_finish(ue_dat_builder *b, ue_buf *out) {
    if (b->failed || b->data.failed || b->strings.failed) return UE_ERR_NOMEM;
    ue_buf_align(&b->data, 16);
    if (b->reloc_count) qsort(b->relocs, b->reloc_count, sizeof *b->relocs, cmp_u32);
    uint64_t total = 0x20u + (uint64_t)b->data.size + 4u * (uint64_t)b->reloc_count +
                     8u * (uint64_t)b->root_count + b->strings.size;
    if (total > UINT32_MAX) return UE_ERR_LIMIT;
    size_t start = out->size;
    ue_buf_put_u32be(out, (uint32_t)total);
    ue_buf_put_u32be(out, (uint32_t)b->data.size);
    ue_buf_put_u32be(out, (uint32_t)b->reloc_count);
    ue_buf_put_u32be(out, (uint32_t)b->root_count);
    ue_buf_put_zeros(out, 16); /* no references; version and padding words zero, as tools write */
    ue_buf_put(out, b->data.data, b->data.size);
    for (size_t i = 0; i < b->reloc_count; i++) ue_buf_put_u32be(out, b->relocs[i]);
    for (size_t i = 0; i < b->root_count; i++) {
        ue_buf_put_u32be(out, b->root_offsets[i]);
        ue_buf_put_u32be(out, b->root_names[i]);
    }
    ue_buf_put(out, b->strings.data, b->strings.size);
    if (out->failed) return UE_ERR_NOMEM;
    return out->size - start == total ? UE_OK : UE_ERR_NOMEM;
}
