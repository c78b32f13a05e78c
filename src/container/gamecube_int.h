/* unearth internal — the parsed FSYS and PKX models shared by the GameCube readers, their
 * container-contract glue, the sample pack and the tests. */
#ifndef UE_GAMECUBE_INTERNAL_H
#define UE_GAMECUBE_INTERNAL_H

#include "unearth/common.h"
#include "unearth/gamecube.h"

typedef struct fsys_entry {
    uint64_t rec_off;           /* absolute offset of the entry record */
    uint8_t rec[0x70];          /* raw record bytes (rec_len of them) */
    size_t rec_len;
    uint16_t file_id;           /* +0x00 */
    uint8_t type_code;          /* +0x02 */
    uint32_t data_off;          /* +0x04 */
    uint32_t usize;             /* +0x08 */
    uint32_t flags;             /* +0x0C */
    uint32_t stored_size;       /* +0x14 */
    uint32_t full_ptr;          /* +0x1C */
    uint32_t type_index;        /* +0x20 */
    uint32_t short_ptr;         /* +0x24 */
    uint8_t full_raw[256], short_raw[256];
    size_t full_len, short_len;
    bool has_full, has_short;
    char name[256];             /* resolved per seed §18.4 */
    bool compressed;
    bool damaged;               /* unreadable (tolerant mode lists it anyway) */
    bool range_bad;             /* payload range outside the file */
    bool name_bad;              /* a name pointer was unusable */
} fsys_entry;

typedef struct fsys_state {
    ue_source src;
    ue_mode mode;
    uint64_t size;
    uint8_t header[0x60];
    size_t header_len;
    uint32_t version, group_id, count, hflags, table_ofs, data_start, total_size;
    uint32_t list_ofs, str_ofs, data_ofs;
    bool footer_ok;
    fsys_entry *e;
    char archive_name[64];
} fsys_state;

typedef struct fsys_segment {
    uint64_t off, len;
    size_t entry;
} fsys_segment;

ue_result ue_fsys_parse(const ue_source *src, ue_mode mode, const char *archive_name,
                        fsys_state **out, ue_diag *d);
void ue_fsys_free(fsys_state *s);
ue_result ue_fsys_read_stored(fsys_state *s, size_t i, uint8_t **data, size_t *size, ue_diag *d);
ue_result ue_fsys_read_entry(fsys_state *s, size_t i, uint8_t **data, size_t *size, ue_diag *d);
ue_result ue_fsys_layout(const fsys_state *s, fsys_segment **segs, size_t *nsegs);

/* Sets the name used by the fallback "<archive-name>_entry_<index><ext>" (default "fsys");
 * recomputes display names. `state` is the ops state of an FSYS archive. */
void ue_fsys_set_archive_name(void *state, const char *name);
/* Seed §18.4: full name, else short name (+ the type's extension), else
 * "<archive-name>_entry_<index><ext>". */
void ue_fsys_set_display_name(fsys_entry *e, size_t i, const char *archive_name);

#endif
