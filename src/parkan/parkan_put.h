/* unearth internal — the Parkan containers' `put` operation (ue_archive_put): parse again from
 * the archive's source in strict mode, replace or add entries, write it once (parkan_put.c). */
#ifndef UE_PARKAN_PUT_H
#define UE_PARKAN_PUT_H

#include "unearth/archive.h"

ue_result ue_parkan_nres_put(const ue_source *src, const ue_archive_put_entry *entries, size_t count,
                             ue_buf *out, size_t *added, ue_diag *d);
ue_result ue_parkan_rsli_put(const ue_source *src, const ue_archive_put_entry *entries, size_t count,
                             ue_buf *out, size_t *added, ue_diag *d);

#endif
