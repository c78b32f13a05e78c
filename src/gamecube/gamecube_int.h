/* unearth internal — the parsed FSYS and PKX models shared by the GameCube readers, their
 * container-contract glue, the sample pack and the tests. */
#ifndef UE_GAMECUBE_INTERNAL_H
#define UE_GAMECUBE_INTERNAL_H

#include <stdatomic.h>

#include "unearth/archive.h"
#include "unearth/common.h"
#include "unearth/gamecube.h"
#include "codec/lzss_stream.h"

/* Names unearth gives the entries of containers that store none: a PKX's model and a
 * standalone LZSS file's payload ("decoded.pkx", "decoded.bin"). A model reached through one
 * is named after what holds it (ue_container_ops.names_made_up, docs/text.md). */
#define UE_PKX_MODEL_ENTRY "model.dat"
#define UE_GCLZSS_ENTRY_STEM "decoded"

/* ue_gclzss_decode with the output handed to `emit` piece by piece through `window` (see
 * codec/lzss_stream.h) instead of returned whole: same checks, diagnostics and bytes. In
 * tolerant mode a stream that references bytes before its start is decoded twice, the second
 * time from output byte 0 again (emit sees `at` go back to 0). *out_size is the decoded size. */
ue_result ue_gclzss_decode_chunks(const uint8_t *p, size_t n, ue_mode mode, uint8_t *window,
                                  size_t window_size, ue_lzss_emit_fn emit, void *ctx,
                                  size_t *out_size, ue_diag *d, uint64_t diag_base,
                                  const char *diag_path);

/* ue_gclzss_decode, each decoded stretch also handed to `emit` as soon as it is done (a hash
 * of the output made while it is in the cache). In tolerant mode a second decode from the start
 * makes `at` go back to 0, as with ue_gclzss_decode_chunks. */
ue_result ue_gclzss_decode_emit(const uint8_t *p, size_t n, ue_mode mode, uint8_t **out,
                                size_t *out_size, ue_lzss_emit_fn emit, void *ctx, ue_diag *d,
                                uint64_t diag_base, const char *diag_path);

/* One kept entry. Names stay in the file: only their offsets and lengths are kept, so an entry
 * costs a fixed 48 bytes whatever its names (see docs/bounded-work.md). */
typedef struct fsys_entry {
    uint32_t rec_off;           /* absolute offset of the entry record */
    uint32_t list_index;        /* position of its pointer in the entry list */
    uint8_t rec_len;            /* record bytes present (0x50 or 0x70, fewer at the end) */
    uint8_t type_code;          /* +0x02 */
    uint16_t file_id;           /* +0x00 */
    uint32_t data_off;          /* +0x04 */
    uint32_t usize;             /* +0x08 */
    uint32_t flags;             /* +0x0C */
    uint32_t stored_size;       /* +0x14 */
    uint32_t full_ptr;          /* +0x1C: the full name's offset, read from the file on demand */
    uint32_t type_index;        /* +0x20 */
    uint32_t short_ptr;         /* +0x24 */
    uint8_t full_len, short_len; /* name lengths (the NUL is within 255 bytes) */
    bool has_full, has_short;
    bool compressed;
    bool damaged;               /* unreadable (tolerant mode lists it anyway) */
    bool range_bad;             /* payload range outside the file */
    bool name_bad;              /* a name pointer was unusable */
} fsys_entry;

/* An entry validation kept decoded (data NULL: none), with the XXH64 of its bytes, made while
 * they were decoded, for the extract's manifest. */
typedef struct fsys_kept {
    uint8_t *data;
    size_t size;
    uint64_t xxh64;
} fsys_kept;

/* Tolerant mode keeps at most this many entries whose records are damaged beyond reading; the
 * rest are reported once and dropped (every kept readable record owns >= 0x28 distinct bytes). */
#define UE_FSYS_MAX_BAD_ENTRIES 4096u

typedef struct fsys_state {
    ue_source src;
    ue_mode mode;
    uint64_t size;
    uint8_t header[0x60];
    size_t header_len;
    uint32_t version, group_id, count, hflags, table_ofs, data_start, total_size;
    uint32_t list_ofs, str_ofs, data_ofs;
    uint32_t list_count;        /* pointers in the entry list; count < list_count when dropped */
    bool footer_ok;
    fsys_entry *e;
    char archive_name[64];
    /* Nested entries validation decoded, kept (up to UE_FSYS_KEEP_MAX bytes in all) and lent to
     * every later borrow until the archive closes: each is decoded once (NULL: none kept). */
    struct fsys_kept *kept;
    size_t kept_bytes;          /* their decoded sizes in all */
    /* Set when a strict extract follows (ue_archive_extract_follows): whether the model walk
     * reads an entry. Validation keeps those decoded, and leaves the streams of the other
     * entries that hold no container to the extract. NULL: no extract follows. */
    bool (*extract_follows)(const ue_entry_info *info);
    atomic_size_t decodes;      /* LZSS streams decoded so far, whole or through a window */
} fsys_state;

#define UE_FSYS_KEEP_MAX ((size_t)64 << 20)

typedef struct fsys_segment {
    uint64_t off, len;
    size_t entry;
} fsys_segment;

ue_result ue_fsys_parse(const ue_source *src, ue_mode mode, const char *archive_name,
                        fsys_state **out, ue_diag *d);
void ue_fsys_free(fsys_state *s);
ue_result ue_fsys_read_stored(fsys_state *s, size_t i, uint8_t **data, size_t *size, ue_diag *d);
ue_result ue_fsys_read_entry(fsys_state *s, size_t i, uint8_t **data, size_t *size, ue_diag *d);
/* Decodes compressed entry i into s->kept[i] and hashes it on the way; its stored bytes are read
 * from `view` (the whole archive) when not NULL. */
ue_result ue_fsys_keep_entry(fsys_state *s, size_t i, const uint8_t *view, ue_diag *d);
ue_result ue_fsys_layout(const fsys_state *s, fsys_segment **segs, size_t *nsegs);

/* Sets the name used by the fallback "<archive-name>_entry_<index><ext>" (default "fsys").
 * `state` is the ops state of an FSYS archive. */
void ue_fsys_set_archive_name(void *state, const char *name);
/* The raw bytes of entry i's full (full = true) or short name, read from the file (no NUL;
 * out holds 256 bytes). False when the entry has no such name or it cannot be read. */
bool ue_fsys_raw_name(const fsys_state *s, size_t i, bool full, uint8_t out[256], size_t *len);
/* docs/formats/fsys.md#names: full name, else short name (+ the type's extension), else
 * "<archive-name>_entry_<index><ext>", printable (\xNN escapes). */
void ue_fsys_display_name(const fsys_state *s, size_t i, char *out, size_t out_size);
/* The same from name bytes (either may be NULL or empty): what list shows and extract writes as
 * "name"; false when neither name is there (the fallback is the caller's). */
bool ue_fsys_shown_name(const uint8_t *full, size_t full_len, const uint8_t *short_name,
                        size_t short_len, uint8_t type_code, char *out, size_t out_size);

/* The family's containers (archive/container.h), listed by its descriptor (gamecube_family.c). */
extern const struct ue_container_ops ue_fsys_ops;
extern const struct ue_container_ops ue_gclzss_ops; /* standalone GameCube "LZSS" files */
extern const struct ue_container_ops ue_pkx_ops;

#endif
