/* unearth — Parkan materials: the WEAR table (text: a model's material and lightmap names) and
 * the MAT0 material (binary phases and animation blocks), read, checked and written again. */
#ifndef UNEARTH_PARKAN_MATERIAL_H
#define UNEARTH_PARKAN_MATERIAL_H

#include "unearth/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define UE_WEAR_TYPE 0x52414557u /* 'WEAR' as the NRes type of a WEAR entry */
#define UE_MAT0_TYPE 0x3054414Du /* 'MAT0' */
#define UE_MAT0_MAX_ANIMS 19     /* the engine refuses 20 or more ("Too many animations") */
#define UE_MAT0_PARAM_BYTES 18   /* parameter bytes of a phase before its texture name */
#define UE_MAT0_NAME_BYTES 16    /* texture name field of a phase, NUL-padded */
#define UE_WEAR_NAME_MAX 64      /* longest material or lightmap name kept (bytes, with NUL) */

/* ---- WEAR ---------------------------------------------------------------------------------- */

/* One row: the legacy id as written (parsed, ignored by the engine: the row's position is
 * its key) and the name, Windows-1251 bytes as in the file. */
typedef struct ue_wear_row {
    char legacy_id[16];
    char name[UE_WEAR_NAME_MAX];
} ue_wear_row;

typedef struct ue_wear {
    ue_wear_row *materials;      /* rows a batch's material_index selects */
    size_t material_count;
    ue_wear_row *lightmaps;      /* after the LIGHTMAPS line; NULL/0 when the file has none */
    size_t lightmap_count;
    bool has_lightmaps;
    bool crlf;                   /* lines end with CR LF (the writer keeps the file's choice) */
    bool canonical;              /* the file is exactly what ue_wear_write makes of it */
} ue_wear;

/* Reads WEAR text. Offsets in diagnostics are base_offset + the byte within `data`. Counts
 * that are not positive or do not match the rows, a lightmap name without '.', a missing
 * blank line before LIGHTMAPS: violations (strict: UE_ERR_INVALID; tolerant: a warning and
 * the rows that are there). The table owns its rows; free with ue_wear_free. */
UE_API ue_result ue_wear_parse(const uint8_t *data, size_t size, uint64_t base_offset, ue_mode mode,
                               ue_wear *out, ue_diag *d);
/* The canonical text: count line, "<id> <name>" rows, then (with lightmaps) a blank line,
 * LIGHTMAPS, its count and rows; every line ended as `crlf` says. Byte-identical to any
 * input that ue_wear_parse marked canonical. */
UE_API ue_result ue_wear_write(const ue_wear *w, ue_buf *out, ue_diag *d);
UE_API void ue_wear_free(ue_wear *w);
/* The WEAR table of the model at `origin` (a file, or ARCHIVE:ENTRY), found as conversion finds
 * it: the same-stem .wea beside the file, or that entry of the same archive, in any letter case.
 * UE_ERR_INVALID, after the warning conversion gives (msh.material.wear: what was looked for and
 * where; msh.material.wear_damaged), when it is absent or unreadable. Free *out on UE_OK. */
UE_API ue_result ue_msh_wear_of(const char *origin, ue_wear *out, ue_diag *d);
/* The WEAR table at `address`, a file or ARCHIVE:ENTRY (entry names in any letter case), read
 * and parsed in `mode` (diagnostic offsets are in that file or entry): for a model whose WEAR
 * has another stem (convert --wear). UE_ERR_IO when the file cannot be read, UE_ERR_INVALID
 * when the entry is missing, the text violates the mode or holds no material row. Free *out
 * on UE_OK. */
UE_API ue_result ue_wear_load(const char *address, ue_mode mode, ue_wear *out, ue_diag *d);

/* ---- MAT0 ---------------------------------------------------------------------------------- */

/* One phase: 18 parameter bytes (colours / 255, p3 × 0.01, p16, p17: docs/parkan-materials.md)
 * and the 16-byte texture name (empty = untextured), both raw. */
typedef struct ue_mat0_phase {
    uint8_t params[UE_MAT0_PARAM_BYTES];
    char texture[UE_MAT0_NAME_BYTES];
} ue_mat0_phase;

typedef struct ue_mat0_key {
    uint16_t k0, k1, k2;         /* likely phase index, time; k2 unused by the engine (kept) */
} ue_mat0_key;

typedef struct ue_mat0_anim {
    uint32_t header;             /* mode = header & 7, interpolation mask = header >> 3 */
    uint16_t key_count;
    ue_mat0_key *keys;
} ue_mat0_anim;

typedef struct ue_mat0 {
    uint32_t version;            /* the entry's NRes attr2 (6 in every stock file) */
    uint16_t phase_count, anim_count;
    uint8_t meta_a, meta_b;      /* version >= 2 (defaults 255, 255) */
    uint32_t meta_c;             /* version >= 3, raw (default 0x3F800000, 1.0f) */
    uint32_t meta_d;             /* version >= 4 (default 0) */
    ue_mat0_phase *phases;
    ue_mat0_anim *anims;
} ue_mat0;

/* Reads a MAT0 payload of the given version (attr2). Records past the end, no phase, 20 or
 * more animation blocks, bytes after the last block, a version above 6: violations (strict:
 * UE_ERR_INVALID; tolerant: a warning, the records that fit). Work and memory are linear in
 * `size` whatever the counts claim. Free with ue_mat0_free. */
UE_API ue_result ue_mat0_parse(const uint8_t *data, size_t size, uint32_t version, uint64_t base_offset,
                               ue_mode mode, ue_mat0 *out, ue_diag *d);
/* The payload again, byte for byte (fields the version lacks are not written). */
UE_API ue_result ue_mat0_write(const ue_mat0 *m, ue_buf *out, ue_diag *d);
UE_API void ue_mat0_free(ue_mat0 *m);
/* A phase's texture name as a C string (up to the first NUL, at most 16 bytes; "" when untextured). */
UE_API void ue_mat0_texture_name(const ue_mat0_phase *p, char out[UE_MAT0_NAME_BYTES + 1]);

#ifdef __cplusplus
}
#endif
#endif
