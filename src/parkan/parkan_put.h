/* unearth internal — the Parkan containers' `put` operation (ue_archive_put): parse again from
 * the archive's source in strict mode, replace or add one entry, write it (parkan_put.c). */
#ifndef UE_PARKAN_PUT_H
#define UE_PARKAN_PUT_H

#include "unearth/common.h"

ue_result ue_parkan_nres_put(const ue_source *src, const char *name, const uint8_t *data, size_t size,
                             ue_buf *out, bool *added, ue_diag *d);
ue_result ue_parkan_rsli_put(const ue_source *src, const char *name, const uint8_t *data, size_t size,
                             ue_buf *out, bool *added, ue_diag *d);

#endif
