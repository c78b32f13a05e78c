/* unearth — Parkan NRes archives (outer .rlb/.lib archives and every .msh model): strict/tolerant
 * reader, engine-equivalent lookup, lossless and canonical writers, and an editing API. */
#ifndef UNEARTH_NRES_H
#define UNEARTH_NRES_H

#include "unearth/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define UE_NRES_HEADER_SIZE 16u
#define UE_NRES_ENTRY_SIZE 64u
#define UE_NRES_NAME_SIZE 36u
#define UE_NRES_VERSION 0x100u
#define UE_NRES_ALIGN 8u
#define UE_NRES_ENTRY_TYPE 0x7365524Eu /* 'NRes': the type id of an entry holding a nested NRes */

typedef struct ue_nres_entry {
    uint32_t type_id;                     /* FourCC ('Texm') or a small integer inside models */
    uint32_t attr1, attr2, attr3;         /* opaque, per-type meaning */
    uint32_t size;                        /* payload bytes */
    uint8_t name_raw[UE_NRES_NAME_SIZE];  /* all 36 bytes, including any after the first NUL */
    uint32_t data_offset;                 /* as on disk / as placed by the last write */
    uint32_t sort_index;                  /* as on disk / as computed by the last write */
    uint8_t *owned;                       /* payload held in memory (edited, added, or loaded) */
    char *payload_file;                   /* else: a file holding exactly the payload (malloc'd path) */
    bool damaged;                         /* tolerant reading only: the payload is unusable */
} ue_nres_entry;

/* Bytes of the data region that belong to no entry and are not zero padding (Part 2's
 * Textures.lib has one). Kept so a lossless write can restore them. */
typedef struct ue_nres_gap {
    uint32_t offset;
    uint32_t size;
    uint8_t *bytes;
} ue_nres_gap;

typedef struct ue_nres {
    uint32_t version;
    uint32_t total_size;      /* header field */
    uint32_t dir_offset;      /* where the directory starts */
    ue_nres_entry *entries;
    size_t count;
    ue_nres_gap *gaps;
    size_t gap_count;
    const ue_source *src;     /* payloads without `owned` are read from here */
    bool layout_dirty;        /* an edit changed sizes or the entry set: offsets are recomputed */
    bool sort_dirty;          /* names changed: the sort table is recomputed */
    bool sort_valid;          /* sort_index is a permutation in lower-case name order */
} ue_nres;

/* Parses header and directory from `src`. Borrowed: `src` (the struct and the memory or file
 * behind it) must outlive `out`, because payloads are read from it on demand; names and the
 * bytes between entries are copied. Strict mode fails on any violation; tolerant mode marks
 * damaged entries and continues. Free `out` with ue_nres_free whatever the result; it never
 * closes `src`. */
UE_API ue_result ue_nres_parse(const ue_source *src, ue_mode mode, ue_nres *out, ue_diag *d);
UE_API void ue_nres_free(ue_nres *n);
/* An empty archive to build from scratch. */
UE_API void ue_nres_init(ue_nres *n);

/* Name (bytes up to the first NUL) as a C string into out. */
UE_API void ue_nres_entry_name(const ue_nres_entry *e, char *out, size_t out_size);
/* The engine's comparison: ASCII A–Z folded to lower case, then unsigned bytes. */
UE_API int ue_nres_name_compare(const char *a, const char *b);
/* Engine lookup: binary search through the sort table (when valid), else a linear scan;
 * returns false if absent. Duplicate names resolve to the first match in directory order
 * when the linear scan is used. */
UE_API bool ue_nres_find(const ue_nres *n, const char *name, size_t *index);
/* Whether the entries' sort_index values form the table lookups need: a permutation listing the
 * names in the engine's order (what ue_nres_parse records as sort_valid). */
UE_API bool ue_nres_sort_table_valid(const ue_nres *n);

/* Payload of entry i: a pointer into owned memory or the memory source, or a fresh copy
 * (then *to_free is set; free it). */
UE_API ue_result ue_nres_payload(const ue_nres *n, size_t i, const uint8_t **data, uint8_t **to_free,
                                 ue_diag *d);

typedef enum ue_nres_layout {
    UE_NRES_LOSSLESS = 0,  /* unchanged archives come out byte-identical; after edits that move
                              payloads, directory order as CANONICAL, each kept unindexed region
                              right after the payload it followed (first if none did) */
    UE_NRES_CANONICAL = 1  /* directory order, 8-byte zero padding, fresh sort table */
} ue_nres_layout;
UE_API ue_result ue_nres_write(const ue_nres *n, ue_nres_layout layout, ue_buf *out, ue_diag *d);
/* The same into any sink; payloads that live in files are copied file to file when the sink
 * has a `copy` callback (the CLI's file sink does), so big archives never sit in memory. */
UE_API ue_result ue_nres_write_to(const ue_nres *n, ue_nres_layout layout, ue_sink *out, ue_diag *d);

/* Editing. Payloads are copied. Names longer than 35 bytes are rejected (UE_ERR_USAGE). */
UE_API ue_result ue_nres_add(ue_nres *n, uint32_t type_id, uint32_t attr1, uint32_t attr2,
                             uint32_t attr3, const char *name, const void *data, size_t size);
UE_API ue_result ue_nres_replace(ue_nres *n, size_t i, const void *data, size_t size);
UE_API ue_result ue_nres_remove(ue_nres *n, size_t i);
UE_API ue_result ue_nres_rename(ue_nres *n, size_t i, const char *name);

/* Computes the engine's sort table for the current names into perm[count]. */
UE_API ue_result ue_nres_compute_sort(const ue_nres *n, uint32_t *perm);

#ifdef __cplusplus
}
#endif
#endif
