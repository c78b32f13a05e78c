/* unearth — internal: a builder that lays out a new HSD DAT (docs/formats/dat.md#file-layout, docs/formats/dat.md#writer-layout): placed
 * structs and GX buffers, pointer fields with their relocations, roots, and the final file. */
#ifndef UE_HSD_DAT_BUILDER_H
#define UE_HSD_DAT_BUILDER_H

#include "unearth/common.h"

/* Alignments of docs/formats/dat.md#writer-layout: structs need 4 bytes, raw GX buffers (vertex arrays, display lists,
 * pixels, palettes) 32 bytes, relative to the data block (which starts at file offset 0x20). */
#define UE_DATB_STRUCT_ALIGN 4u
#define UE_DATB_GX_ALIGN 32u

typedef struct ue_dat_builder {
    ue_buf data;          /* the data block being built */
    uint32_t *relocs;     /* data offsets of pointer fields, in the order they were set */
    size_t reloc_count, reloc_cap;
    uint32_t *root_offsets; /* per root: the struct's data offset */
    uint32_t *root_names;   /* per root: the name's offset in `strings` */
    size_t root_count, root_cap;
    ue_buf strings;       /* the string table */
    bool failed;          /* an allocation failed or the block outgrew 4 GiB */
} ue_dat_builder;

void ue_datb_init(ue_dat_builder *b);
void ue_datb_free(ue_dat_builder *b);

/* Places `size` zero bytes at the next multiple of `align` and returns their data offset
 * (0 after a failure, which `failed` records). */
uint32_t ue_datb_alloc(ue_dat_builder *b, size_t size, uint32_t align);
/* Places a copy of `src` (size bytes) like ue_datb_alloc; `pad_to` > size pads with zeros. */
uint32_t ue_datb_put(ue_dat_builder *b, const void *src, size_t size, size_t pad_to,
                     uint32_t align);
/* Places a NUL-terminated string (no alignment: names are byte data). */
uint32_t ue_datb_cstring(ue_dat_builder *b, const char *s);

/* Big-endian stores into already placed bytes (ignored when out of range after a failure). */
void ue_datb_u8(ue_dat_builder *b, uint32_t off, uint8_t v);
void ue_datb_u16(ue_dat_builder *b, uint32_t off, uint16_t v);
void ue_datb_u32(ue_dat_builder *b, uint32_t off, uint32_t v);
void ue_datb_f32(ue_dat_builder *b, uint32_t off, float v);
/* Stores a pointer to data offset `target` at `field` and records the field's relocation (even
 * when target is 0: the null rule (docs/formats/dat.md#null-rule) makes a relocated 0 a pointer to the block's start). */
void ue_datb_pointer(ue_dat_builder *b, uint32_t field, uint32_t target);

/* Adds a public root: the struct at `data_offset` under `name`. */
void ue_datb_root(ue_dat_builder *b, uint32_t data_offset, const char *name);

/* Emits the file (docs/formats/dat.md#writer-layout): header, data block padded to 16, relocation table
 * (ascending), root table, string table; file_size = the bytes written, no trailing padding.
 * UE_ERR_NOMEM or UE_ERR_LIMIT (a file over 4 GiB) when a step failed. */
ue_result ue_datb_finish(ue_dat_builder *b, ue_buf *out);

#endif
