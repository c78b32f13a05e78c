/* unearth advanced API — containers opened on a mapping of the file (entries lent where they lie)
 * and a lookup whose failure names the entries close to the name asked for. */
#ifndef UNEARTH_ADVANCED_ARCHIVE_H
#define UNEARTH_ADVANCED_ARCHIVE_H

#include "unearth/archive.h"
#include "unearth/advanced/json.h"

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

/* What ue_archive_info_json and ue_archive_list_json say, written straight into the caller's
 * writer (no text to parse again): the info object (file, format, description, size,
 * entry_count, header); its members alone, into the object open in `w`, for a caller that adds
 * its own; entry i's object with every format-specific field; the array of every entry's. */
UE_API void ue_archive_write_info(const ue_archive *a, ue_json *w);
UE_API void ue_archive_write_info_fields(const ue_archive *a, ue_json *w);
UE_API void ue_archive_write_entry(const ue_archive *a, size_t i, ue_json *w);
UE_API void ue_archive_write_list(const ue_archive *a, ue_json *w);

#ifdef __cplusplus
}
#endif
#endif
