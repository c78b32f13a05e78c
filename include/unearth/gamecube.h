/* unearth — GameCube (Pokémon Colosseum / XD) containers: the 16-byte "LZSS" wrapper, FSYS
 * archives and PKX model wrappers, each readable on its own and writable from a model. */
#ifndef UNEARTH_GAMECUBE_H
#define UNEARTH_GAMECUBE_H

#include "unearth/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- LZSS container (docs/formats/lzss.md#size-fallback, docs/formats/lzss.md#the-lzss-file) ---- */

#define UE_GCLZSS_HEADER 16u

typedef struct ue_gclzss_header {
    uint32_t uncompressed_size; /* +0x04 */
    uint32_t compressed_size;   /* +0x08, header included, as declared */
    uint32_t reserved;          /* +0x0C, 0 except in PBR; kept for re-emission */
    size_t stream_end;          /* end of the coded stream actually used (after the fallback) */
    bool size_fallback;         /* +0x08 was unusable: the whole slice was taken (docs/formats/lzss.md#size-fallback) */
} ue_gclzss_header;

/* True when the bytes start with "LZSS". */
UE_API bool ue_gclzss_probe(const uint8_t *p, size_t n);
/* Checks the magic and reads the header; applies the size fallback of docs/formats/lzss.md#size-fallback (an info diagnostic). */
UE_API ue_result ue_gclzss_parse_header(const uint8_t *p, size_t n, ue_gclzss_header *h, ue_diag *d,
                                        uint64_t diag_base, const char *diag_path);
/* Decodes a whole "LZSS" blob into a fresh allocation (*out, ≤ UE_CAP_ENTRY_BYTES, UE_ERR_LIMIT
 * above; the caller frees it with free()); `p` is only read. Strict mode rejects
 * back-references that begin more than 18 bytes (F) before the output start, a range no
 * Okumura-style encoder produces; tolerant mode decodes them (the ring holds zeros) and warns. */
UE_API ue_result ue_gclzss_decode(const uint8_t *p, size_t n, ue_mode mode, uint8_t **out,
                                  size_t *out_size, ue_diag *d, uint64_t diag_base,
                                  const char *diag_path);
/* Appends header + stream. `reserved` is written at +0x0C (0 for the games' files). */
UE_API ue_result ue_gclzss_encode(const uint8_t *in, size_t n, int level, uint32_t reserved,
                                  ue_buf *out);

/* ---- FSYS archives (docs/formats/fsys.md) ---------------------------------------- */

#define UE_FSYS_FLAG_COMPRESSED 0x80000000u

/* Type code (byte 2 of an entry's id word) → short type name ("pkx") or NULL when unknown. */
UE_API const char *ue_fsys_type_name(uint8_t code);
/* Extension for fallback names (".pkx"); ".bin" for unknown codes (listed, never guessed). */
UE_API const char *ue_fsys_type_ext(uint8_t code);

/* One entry handed to the writer. */
typedef struct ue_fsys_write_entry {
    const char *short_name;     /* name-table string, usually without extension */
    const char *full_name;      /* NULL → short name + type extension (if the archive has them) */
    uint8_t type_code;
    uint16_t file_id;
    bool compressed;            /* store as LZSS */
    const uint8_t *data;        /* decoded payload */
    size_t size;
    /* Optional: the exact stored bytes to emit instead of compressing `data` again (an unchanged
     * compressed entry). Must be an LZSS blob when `compressed`. */
    const uint8_t *stored;
    size_t stored_size;
    /* Optional original entry record (0x50 or 0x70 bytes): its unknown words are kept. */
    const uint8_t *record;
    size_t record_size;
} ue_fsys_write_entry;

typedef struct ue_fsys_write_options {
    uint32_t version;        /* 0x200+ → XD-style 0x70-byte records, else 0x50 */
    uint32_t group_id;
    bool full_names;         /* header flags bit 0: a second name table with extensions */
    const uint8_t *header;   /* optional original 0x60 bytes (header + offsets table) to keep */
    size_t header_size;
    int level;               /* LZSS level for entries that need compressing */
} ue_fsys_write_options;

/* Canonical layout: header, offsets table at 0x40, file list at 0x60, names, records,
 * 32-byte aligned payloads, 0x20-byte footer ending in "FSYS". */
UE_API ue_result ue_fsys_write(const ue_fsys_write_options *opt, const ue_fsys_write_entry *entries,
                               size_t count, ue_buf *out, ue_diag *d);

/* What ue_fsys_add gave the new entry. */
typedef struct ue_fsys_added {
    uint8_t type_code;  /* 0x1E for a .pkx; for a .dat the code the archive's DAT entries share (0x04 or 0x02) */
    uint16_t file_id;   /* one past the archive's largest */
    bool compressed;    /* stored as LZSS, as every entry of its type is */
} ue_fsys_added;

/* A copy of the FSYS `fsys` (n bytes, read strictly) with one entry more, last: `data` under
 * `name` (printable ASCII, 1 to 255 bytes, no '/', '\\' or ':'; its short name the name without
 * its extension). Its type code comes from the extension: ".pkx" 0x1E, ".dat" the code of the
 * archive's DAT entries (dat 0x04 when it has none); its file id is the largest id + 1, which
 * must keep that id's high byte (the archive's group); it is LZSS-compressed when every entry
 * of its type is (docs/formats/fsys.md#adding-an-entry). The copy is written by ue_fsys_write
 * (fresh layout; every other entry's id, names, record and stored bytes kept) and appended to
 * `out`. Refused (UE_ERR_USAGE, `out` untouched): a name already there (full or short), another
 * extension, an archive with both dat and rdat entries for a .dat, no id left in the group.
 * `added` may be NULL. */
UE_API ue_result ue_fsys_add(const uint8_t *fsys, size_t n, const char *name, const void *data, size_t size,
                             ue_buf *out, ue_fsys_added *added, ue_diag *d);

/* ---- PKX (docs/formats/pkx.md) ----------------------------------------------- */

typedef enum ue_pkx_layout { UE_PKX_COLOSSEUM = 0, UE_PKX_XD = 1 } ue_pkx_layout;

#define UE_PKX_ANIM_ENTRY 0xD0u
#define UE_PKX_XD_PREAMBLE 0x84u
#define UE_PKX_COLO_HEADER 0x40u
#define UE_PKX_MAX_ANIMS 256u

/* Where the parts of a PKX lie. All offsets are absolute in the PKX. */
typedef struct ue_pkx_info {
    ue_pkx_layout layout;
    uint32_t declared_dat_size; /* +0x00 */
    uint32_t gpt1_length;
    uint32_t anim_count;
    size_t dat_offset, dat_size;    /* dat_size after the fallback */
    bool dat_size_fallback;         /* the declared size did not fit; the DAT's own word used */
    size_t gpt1_offset;
    size_t anim_offset;             /* anim_count × 0xD0 */
    size_t tail_offset;             /* Colosseum: after the anims; XD: after the DAT */
    size_t size;
} ue_pkx_info;

/* Detects the layout and locates every part (docs/formats/fsys.md#defensive-rules, rule 7: the DAT size is checked
 * against the bytes present). `p` is only read during the call; `info` holds offsets into it,
 * no pointers, and needs no freeing. */
UE_API ue_result ue_pkx_parse(const uint8_t *p, size_t n, ue_mode mode, ue_pkx_info *info, ue_diag *d);

/* Re-wraps `dat` (and optionally a new GPT1 block) into the frame of an existing PKX: sizes and
 * alignment padding are recomputed, every other byte is kept. gpt1 == NULL keeps the old one. */
UE_API ue_result ue_pkx_rewrap(const uint8_t *orig, size_t orig_size, const ue_pkx_info *info,
                               const uint8_t *dat, size_t dat_size, const uint8_t *gpt1,
                               size_t gpt1_size, ue_buf *out, ue_diag *d);

/* Builds a fresh PKX around a DAT (used for the sample pack): `anims` holds anim_count × 0xD0
 * bytes; species is written to XD's +0x18. */
UE_API ue_result ue_pkx_build(ue_pkx_layout layout, const uint8_t *dat, size_t dat_size,
                              const uint8_t *gpt1, size_t gpt1_size, const uint8_t *anims,
                              uint32_t anim_count, uint16_t species, ue_buf *out);

/* ---- the PKX animation-entry table (docs/formats/pkx.md#animation-entry) ------------------ */

#define UE_PKX_SUB_ANIMS 8u   /* sub-animation slots of an entry */
#define UE_PKX_BODY_MAP 16u

/* One 0xD0 entry, both layouts. The animation indices name ModelSet.anims[] (and matanims[])
 * positions: the `index` of a ue_hsd_clip. */
typedef struct ue_pkx_anim_entry {
    uint32_t motion_kind;          /* +0x00: 2 loop, 3 hit reaction, 4 action, 5 compound */
    uint32_t sub_anim_count;       /* +0x04 as stored */
    uint32_t damage_flags;         /* +0x08 */
    uint32_t timing_raw[4];        /* +0x10: Colosseum u32 frames at 60 fps, XD f32 seconds */
    float timing_seconds[4];       /* the same in seconds (0 for a non-finite XD value) */
    int32_t body_map[UE_PKX_BODY_MAP]; /* +0x4C: JObj pre-order index per body slot, -1 unused */
    uint32_t sub_motion[UE_PKX_SUB_ANIMS]; /* +0x8C + 8k: XD 1 once / 2 loop; Colosseum 0 */
    uint32_t sub_anim[UE_PKX_SUB_ANIMS];   /* +0x90 + 8k: animation index */
    uint32_t anim_count;           /* the sub-animations in use: sub_anim_count, at most 8 */
    uint32_t terminator;           /* +0xCC: 3 (XD) / 1 (Colosseum) */
} ue_pkx_anim_entry;

/* Reads the info->anim_count entries at info->anim_offset of the PKX `p` (n bytes), as located
 * by ue_pkx_parse. A table running past the file is refused (UE_ERR_INVALID, pkx.anim_range);
 * a sub-animation count above 8 is a violation (strict refuses, tolerant uses the 8 slots); a
 * non-finite XD timing is a violation read as 0. *entries is malloc'd (free with free()), NULL
 * when *count is 0 or on failure. */
UE_API ue_result ue_pkx_anim_entries(const uint8_t *p, size_t n, const ue_pkx_info *info,
                                     ue_mode mode, ue_pkx_anim_entry **entries, size_t *count,
                                     ue_diag *d);

/* The battle meaning of entry `slot` (docs/formats/pkx.md#entry-slots): Pokémon "idle", "status A", "physical A" … "take
 * flight"; trainers (XD species 0) "idle", "ball throw", "victory" …; NULL for a slot without
 * a known meaning. */
UE_API const char *ue_pkx_slot_name(uint32_t slot, bool trainer);

/* True for a PKX of a trainer (XD: species 0 at +0x18; Colosseum files do not say: false). */
UE_API bool ue_pkx_is_trainer(const uint8_t *p, size_t n, const ue_pkx_info *info);

#ifdef __cplusplus
}
#endif
#endif
