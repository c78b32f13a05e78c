/* unearth internal — what the FSYS container files share: fsys_archive.c (the ops glue),
 * fsys_extract.c, fsys_pack.c and fsys_manifest_keys.c. */
#ifndef UE_GAMECUBE_FSYS_INTERNAL_H
#define UE_GAMECUBE_FSYS_INTERNAL_H

#include "archive/container.h"
#include "gamecube/gamecube_int.h"
#include "unearth/gamecube.h"

#define EXTRACT_THREADS 4u /* threads of the parallel loops over entries (pack, extract, validate) */
/* The decode window of one thread (extract, validate): a ring of history and 252 KiB of new
 * output, written out each time it fills. */
#define FSYS_WINDOW ((size_t)256 << 10)

/* One manifest entry as pack loads it. */
typedef struct pack_entry {
    ue_fsys_write_entry w;
    uint8_t *data, *stored, *record;
    size_t record_size;
    char *short_name, *full_name;
    bool has_full;
    bool changed;
} pack_entry;

void fsys_info_json(const void *state, ue_json *w);
/* Entry i's fields up to "nested" ("damaged" and what extract adds come after), object open. */
void fsys_entry_fields(const void *state, size_t i, ue_json *w);
/* Walks the archive in file order: the bytes between payload segments are appended to `raw`
 * (and reported to on_gap), each payload segment is handed to on_entry. */
ue_result fsys_walk_layout(fsys_state *s, const fsys_segment *segs, size_t nseg, ue_buf *raw,
                          void (*on_gap)(void *user, size_t n),
                          ue_result (*on_entry)(void *user, const fsys_segment *seg), void *user);
/* Decodes compressed entry i (its `n` stored bytes) piece by piece into `emit` through `window`
 * (FSYS_WINDOW bytes): ue_fsys_read_entry's checks and diagnostics without its buffer. */
ue_result fsys_decode_chunks(fsys_state *s, size_t i, const uint8_t *stored, size_t n,
                             uint8_t *window, ue_lzss_emit_fn emit, void *ctx, ue_diag *d);
ue_result fsys_extract(void *state, ue_outdir *o, ue_json *w, ue_diag *d);
ue_result fsys_pack(const ue_jv *manifest, const char *dir, const ue_pack_options *popt,
                    ue_buf *out, ue_diag *d);
/* The entry `name` names: its shown name (list's), else its raw full or short name. */
bool ue_fsys_find_entry(const fsys_state *s, const char *name, size_t *index);
/* ue_archive_put for FSYS (fsys_put.c): named entries replaced, none added. */
ue_result ue_fsys_put(const ue_source *src, const ue_archive_put_entry *entries, size_t count, ue_buf *out,
                      size_t *added, ue_diag *d);
/* Warns about informational keys of the manifest edited against the packed archive. */
void fsys_check_informational(const ue_jv *manifest, const pack_entry *pes, size_t count,
                              bool layout_kept, const uint8_t *packed, size_t size, ue_diag *d);

#endif
