/* unearth — internal to io.c, sink.c, output_safety.c and outdir.c: the few helpers they share.
 * Everything else uses common/io.h; nothing outside these four files includes this header. */
#ifndef UE_COMMON_IO_INTERNAL_H
#define UE_COMMON_IO_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "unearth/common.h"
#include "common/io.h"

/* pread of exactly n bytes (retries EINTR); UE_ERR_IO on error or a file that shrank. */
ue_result ue_io_pread_all(int fd, uint64_t off, void *dst, size_t n);
/* write of all `size` bytes (retries EINTR); false on error. */
bool ue_io_write_all(int fd, const void *data, size_t size);
/* The descriptor of a file source opened by ue_source_open_file; -1 for any other source. */
int ue_io_source_fd(const ue_source *s);
/* The write and copy callbacks of a ue_file_sink (ctx is the ue_file_sink). */
ue_result ue_io_file_sink_write(void *ctx, const void *data, size_t n);
ue_result ue_io_file_sink_copy(void *ctx, int from_fd, uint64_t off, size_t n);
/* mkdir -p of `dir` past its first `from` bytes (the folders up to there exist or are not to be
 * made); `dir` is cut at each '/' in turn and restored. UE_ERR_IO names the folder not made. */
ue_result ue_io_mkdirs_from(char *dir, size_t from, ue_diag *d);
/* Whether an existing `path` may be replaced by a new output directory (see ue_outdir_begin). */
ue_result ue_io_check_dir_output(const char *path, bool overwrite,
                                 const ue_outdir_owner *owner, ue_diag *d);

#endif
