/* unearth — Parkan RsLi ("NL") libraries: strict/tolerant reader with every packing method,
 * engine-equivalent lookup (rsFind), a lossless writer and an editing API. */
#ifndef UNEARTH_RSLI_H
#define UNEARTH_RSLI_H

#include "unearth/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define UE_RSLI_HEADER_SIZE 32u
#define UE_RSLI_ENTRY_SIZE 32u
#define UE_RSLI_NAME_SIZE 12u
#define UE_RSLI_MAX_ENTRIES 32767u /* entry_count is a signed 16-bit field */
#define UE_RSLI_PRESORTED 0xABBAu
#define UE_RSLI_AO_SIZE 6u

/* Packing methods: flags & UE_RSLI_METHOD_MASK. Bit 0x20 is the XOR layer. */
#define UE_RSLI_METHOD_MASK 0x1E0u
#define UE_RSLI_STORED 0x000u
#define UE_RSLI_XOR 0x020u
#define UE_RSLI_LZSS 0x040u
#define UE_RSLI_XOR_LZSS 0x060u
#define UE_RSLI_LZHUF 0x080u
#define UE_RSLI_XOR_LZHUF 0x0A0u
#define UE_RSLI_DEFLATE 0x100u

/* Caps that tolerant and strict reading both honour (configurable per parse). */
typedef struct ue_rsli_limits {
    size_t max_entries;       /* 0 = UE_RSLI_MAX_ENTRIES */
    size_t max_unpacked;      /* 0 = UE_CAP_ENTRY_BYTES; larger declared sizes are errors */
} ue_rsli_limits;

typedef struct ue_rsli_entry {
    uint8_t name_raw[UE_RSLI_NAME_SIZE]; /* all 12 bytes as on disk (NUL optional) */
    uint8_t service[4];                  /* ignored by the engine; preserved */
    uint16_t flags;                      /* the i16 flags field as raw bits */
    uint16_t sort_disk;                  /* sort_to_original as stored in the row */
    uint16_t sort_value;                 /* effective value (rebuilt unless presorted): the
                                            payload XOR key and the lookup permutation */
    uint32_t unpacked_size;
    uint32_t data_offset;                /* as on disk (before the AO overlay) */
    uint32_t packed_size;                /* as on disk */
    uint64_t file_offset;                /* where the packed bytes start (data_offset+overlay) */
    uint32_t stored_bytes;               /* packed bytes present in the file: packed_size, or
                                            packed_size - 1 under the Deflate EOF+1 quirk */
    bool eof_plus_one;                   /* the Deflate packed range ends one byte past EOF */
    bool damaged;                        /* tolerant reading: the entry cannot be decoded */
    bool range_ok;                       /* the stored bytes lie inside the file */
    bool shares_bytes;                   /* its packed range overlaps an earlier entry's:
                                            an error; tolerant reading never decodes it */
    /* Packed bytes held in memory (edits, manifests); NULL = read from the source. When the
     * method has the XOR layer, `owned_key_valid` says whether they are already XORed with
     * `owned_key` (disk form) or still plain (new entries: XORed at write time). */
    uint8_t *owned;
    bool owned_key_valid;
    uint16_t owned_key;
} ue_rsli_entry;

/* Bytes between the table and the end of the data region that no entry covers. */
typedef struct ue_rsli_gap {
    uint64_t offset;
    size_t size;
    uint8_t *bytes;
} ue_rsli_gap;

typedef struct ue_rsli {
    uint8_t header[UE_RSLI_HEADER_SIZE]; /* raw; count/flag patched on write */
    ue_rsli_entry *entries;
    size_t count;
    bool presorted;           /* header u16 at 0x0E == 0xABBA */
    bool sort_valid;          /* sort_value[] is a permutation in strcmp name order */
    bool has_ao;              /* "AO" + u32 overlay trailer */
    uint8_t ao_raw[UE_RSLI_AO_SIZE];
    uint32_t overlay;
    uint64_t file_size;       /* original size, including the trailer */
    ue_rsli_gap *gaps;
    size_t gap_count;
    const ue_source *src;     /* entries without `owned` are read from here */
    bool layout_dirty;        /* edits happened: offsets, sort table and keys are recomputed */
    /* LZSS/LZHUF effort 0..9 for payloads packed again by ue_rsli_add/ue_rsli_replace (out of
     * range: the default); ue_rsli_init and ue_rsli_parse set UE_LZSS_LEVEL_DEFAULT. */
    int pack_level;
} ue_rsli;

/* Parses header, table and trailer (borrowed: payloads stay in `src`, which must outlive `out`;
 * ue_rsli_free releases `out` and never closes `src`), and
 * checks every entry's range and method. Strict mode fails on any violation; tolerant mode
 * marks damaged entries and continues. `limits` may be NULL. */
UE_API ue_result ue_rsli_parse(const ue_source *src, ue_mode mode, const ue_rsli_limits *limits,
                               ue_rsli *out, ue_diag *d);
UE_API void ue_rsli_free(ue_rsli *l);
/* An empty library (header "NL\0\1", seed 0) to build from scratch. */
UE_API void ue_rsli_init(ue_rsli *l);

/* Name (bytes up to the first NUL, at most 12) as a C string. */
UE_API void ue_rsli_entry_name(const ue_rsli_entry *e, char *out, size_t out_size);
/* "stored", "xor", "lzss", "xor+lzss", "lzhuf", "xor+lzhuf", "deflate" or "0x1c0". */
UE_API const char *ue_rsli_method_name(uint32_t method);
UE_API bool ue_rsli_method_known(uint32_t method);
/* The engine's rsFind: truncate to 15 chars, upper-case a-z, binary search with strcmp through
 * the sort table, then a linear scan. False if absent. */
UE_API bool ue_rsli_find(const ue_rsli *l, const char *name, size_t *index);

/* The packed stream of entry i exactly as stored (XOR layer included); caller frees. */
UE_API ue_result ue_rsli_packed(const ue_rsli *l, size_t i, uint8_t **data, size_t *size, ue_diag *d);
/* Decoded payload of entry i (exactly unpacked_size bytes); caller frees. */
UE_API ue_result ue_rsli_read(const ue_rsli *l, size_t i, uint8_t **data, size_t *size, ue_diag *d);
/* Decoding a packed stream on its own (the XOR layer uses `key`); `packed` is only read, the
 * result is a fresh allocation (*data) the caller frees with free(). */
UE_API ue_result ue_rsli_unpack(uint32_t method, uint16_t key, const uint8_t *packed, size_t packed_size,
                                size_t unpacked_size, uint8_t **data, ue_diag *d, uint64_t diag_base,
                                const char *diag_path);
/* Packs `data` with `method` without the XOR layer (the writer applies it with the row key). */
UE_API ue_result ue_rsli_pack_plain(uint32_t method, const uint8_t *data, size_t size, ue_buf *out);

/* Serialises the library. Without edits: header and table re-encoded from the fields, packed
 * bytes and unindexed bytes at their offsets, trailer kept — byte-identical to the input.
 * After edits: payloads back to back after the table in table order, the sort table
 * recomputed (strcmp order), 0xABBA set when any entry uses an XOR method, and each XOR payload
 * keyed with the value in its own row. */
UE_API ue_result ue_rsli_write(const ue_rsli *l, ue_buf *out, ue_diag *d);

/* Editing. Names are 1..12 bytes and are stored as given (the engine expects upper case);
 * payloads are packed with `flags & UE_RSLI_METHOD_MASK` (other flag bits are kept). */
UE_API ue_result ue_rsli_add(ue_rsli *l, const char *name, uint16_t flags, const void *data,
                             size_t size, ue_diag *d);
UE_API ue_result ue_rsli_replace(ue_rsli *l, size_t i, const void *data, size_t size, ue_diag *d);
UE_API ue_result ue_rsli_remove(ue_rsli *l, size_t i);

/* The engine's sort table for the current names: perm[i] = index of the i-th name in strcmp
 * order (stable, as the engine's bubble sort). */
UE_API ue_result ue_rsli_compute_sort(const ue_rsli *l, uint16_t *perm);

#ifdef __cplusplus
}
#endif
#endif
