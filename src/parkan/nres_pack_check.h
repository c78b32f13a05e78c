/* unearth internal — NRes pack's checks of a manifest: the layout it records is kept only while
 * it is a valid archive, and keys that only describe the archive say when they were edited. */
#ifndef UE_PARKAN_NRES_PACK_CHECK_H
#define UE_PARKAN_NRES_PACK_CHECK_H

#include "archive/container.h"
#include "unearth/nres.h"

/* Run after the entries and unindexed regions of `manifest` are read into `n` (layout_dirty set
 * when a payload changed size or the entry set changed). Refuses (UE_ERR_INVALID, naming entry
 * and key) an honoured key the archive cannot hold: a version other than 0x100, a name without
 * NUL or empty. Otherwise warns about each layout key (data_offset, sort_index, dir_offset,
 * total_size, entry_count, unindexed offsets) that does not describe a valid archive and marks
 * `n` to be laid out anew, and about each informational key edited to disagree with what pack
 * writes. After it, ue_nres_write_to(n, UE_NRES_LOSSLESS) writes an archive that strict
 * reading accepts. */
ue_result ue_nres_pack_check(ue_nres *n, const ue_jv *manifest, ue_diag *d);

/* The keys only the packed archive can tell ("nested": what a payload's first bytes are),
 * compared with the manifest once the archive, opened strictly as `state`, is written. */
void ue_nres_check_packed_keys(const ue_nres *packed, const char (*nested)[16],
                               const ue_jv *manifest, ue_diag *d);

#endif
