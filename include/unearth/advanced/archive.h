/* unearth advanced API — containers opened on a mapping of the file (entries lent where they lie)
 * and a lookup whose failure names the entries close to the name asked for. */
#ifndef UNEARTH_ADVANCED_ARCHIVE_H
#define UNEARTH_ADVANCED_ARCHIVE_H

#include "unearth/archive.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ue_archive_open, but the outermost file is mapped read-only once, so that entries stored in
 * it (and containers nested in those) are lent out where they lie instead of read with pread
 * into fresh buffers. Falls back to pread when the file cannot be mapped. */
UE_API ue_result ue_archive_open_mapped(const char *path, ue_mode mode, ue_archive **out, ue_diag *d);
/* ue_archive_find, and when there is no such entry the error archive.entry.missing, which names
 * up to three entries close to `name` (same letters in another case, the name without its
 * extension, or one or two typing slips): "did you mean ROBOT.msh?". */
UE_API ue_result ue_archive_find_reported(const ue_archive *a, const char *name, size_t *index, ue_diag *d);

#ifdef __cplusplus
}
#endif
#endif
