/* unearth — internal: mapped views of sources and the file helpers only the library uses; file
 * sinks, output directories and the output-safety checks are in unearth/advanced/files.h. */
#ifndef UE_COMMON_IO_H
#define UE_COMMON_IO_H

#include "unearth/advanced/files.h"
#include "unearth/common.h"

/* A read-only view of a whole source without reading it: memory sources as they are, files
 * mapped, so only the pages looked at are ever read. UE_ERR_UNSUPPORTED for an empty file or
 * a source of another kind. Release with ue_source_unview. */
ue_result ue_source_view(const ue_source *s, const uint8_t **view);
void ue_source_unview(const ue_source *s, const uint8_t *view);

/* Room for a large decoded payload, freed with free(). From a few MiB on it is aligned to 2 MiB
 * and marked for transparent huge pages where the system has them, so that the first touch of
 * each 2 MiB costs one page fault instead of 512 (a fault is costly on virtual machines). */
void *ue_malloc_large(size_t n);

/* ---- files ---------------------------------------------------------------------------- */

/* Reads exactly `size` bytes of the regular file `path` into dst (one open, fstat, read, close;
 * thread-safe). False, with nothing reported, when it cannot: the caller falls back to a path
 * that reports why. */
bool ue_file_read_exact(const char *path, uint8_t *dst, size_t size);
/* rm -r; used only on directories this library created itself. */
void ue_remove_tree(const char *path);

/* For writers on several threads (output directories are declared in unearth/advanced/files.h):
 * ue_outdir_mkdir makes the directory `rel` (and its parents) first, on the calling thread; then
 * any thread may create a new file in it with ue_outdir_open_file (which only reads `o`), write
 * to the descriptor, and close it with ue_outdir_close_file (`ok` false when a write failed,
 * errno saying why). Failures are reported as io.write naming `rel`, as ue_outdir_write reports
 * them. ue_outdir_remove_file deletes a file this output made (a payload that turned out damaged). */
ue_result ue_outdir_mkdir(ue_outdir *o, const char *rel, ue_diag *d);
ue_result ue_outdir_open_file(const ue_outdir *o, const char *rel, int *fd, ue_diag *d);
ue_result ue_outdir_close_file(int fd, bool ok, const char *rel, ue_diag *d);
void ue_outdir_remove_file(const ue_outdir *o, const char *rel);

#endif
