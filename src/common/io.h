/* unearth — internal: file sinks, directories as units of output, and the output-safety checks.
 * The writers and the CLI use these; not part of the public API. */
#ifndef UE_COMMON_IO_H
#define UE_COMMON_IO_H

#include "unearth/common.h"

/* A file written through a sink into an unnamed file (O_TMPFILE) linked into place on commit,
 * or where that is not possible, a named temp file renamed into place. A named temp file is
 * never left without its descriptor open: that marks it as this process's temporary. */
typedef struct ue_file_sink {
    ue_sink sink;
    int fd;
    bool overwrite;
    uint8_t *buf;          /* small writes gather here (NULL: unbuffered) */
    size_t fill, cap;
    char temp_path[4096 + 16]; /* "" while the file has no name */
    char final_path[4096];
} ue_file_sink;
/* On UE_ERR_IO these (and ue_file_write_atomic) leave errno saying why, so that a caller writing
 * many files can tell a full disk or a read-only directory (no later file fits either) from a
 * failure of this one file. */
ue_result ue_file_sink_begin(ue_file_sink *f, const char *path, bool overwrite, ue_diag *d);
ue_result ue_file_sink_commit(ue_file_sink *f, ue_diag *d);
/* Writes what is gathered so far to the (still unplaced) file, so that a full disk shows now. */
ue_result ue_file_sink_flush(ue_file_sink *f);
/* Writes what is gathered so far to the temp file, and opens what was written for reading
 * (named or unnamed: an unnamed file is reopened through /proc), so it can be checked before
 * the commit. Close `out` with ue_source_close. */
ue_result ue_file_sink_read_back(ue_file_sink *f, ue_source *out, ue_diag *d);
void ue_file_sink_abort(ue_file_sink *f);

/* A read-only view of a whole source without reading it: memory sources as they are, files
 * mapped, so only the pages looked at are ever read. UE_ERR_UNSUPPORTED for an empty file or
 * a source of another kind. Release with ue_source_unview. */
ue_result ue_source_view(const ue_source *s, const uint8_t **view);
void ue_source_unview(const ue_source *s, const uint8_t *view);

/* ---- files ---------------------------------------------------------------------------- */

/* Reads exactly `size` bytes of the regular file `path` into dst (one open, fstat, read, close;
 * thread-safe). False, with nothing reported, when it cannot: the caller falls back to a path
 * that reports why. */
bool ue_file_read_exact(const char *path, uint8_t *dst, size_t size);
bool ue_path_exists(const char *path);
/* mkdir -p */
ue_result ue_mkdirs(const char *path, ue_diag *d);
/* rm -r; used only on directories this library created itself. */
void ue_remove_tree(const char *path);

/* ---- output safety ------------------------------------------------------------------------
 * Never lose a user's file: an output that is, contains or lies inside an input is refused
 * (compared by device and inode, so links and other spellings of a path do not hide it), and a
 * writer replaces only what it could have written itself (docs/output-safety.md). */

/* UE_ERR_USAGE with a diagnostic when `output` is `input`, lies inside it or contains it.
 * `input` may be an OUTER:ENTRY chain: the file system part of it is what counts. An input
 * that does not exist cannot be harmed and passes. */
ue_result ue_output_check_input(const char *output, const char *input, ue_diag *d);
/* Whether `path` is `dir` or lies below it, where the kernel would put them: both resolved the
 * same way (existing parts canonicalised, links followed; parts not made yet taken as named),
 * so it also answers for a directory that a writer has yet to create. */
bool ue_path_within(const char *path, const char *dir);

/* Who may replace an existing, non-empty output directory: `owns` says whether every file in
 * `dir` is one that this writer writes (a previous output of the same verb). */
typedef struct ue_outdir_owner {
    const char *what; /* for messages: "an unearth extract output", "an unearth sample pack" */
    bool (*owns)(const char *dir, void *ctx);
    void *ctx;
} ue_outdir_owner;
/* True when every regular file under `dir` (recursively, symbolic links never followed) is
 * accepted by `listed`, given its path relative to `dir`; false on any other kind of file and
 * on an empty subdirectory. `listed` is asked about every regular file, even after a foreign one. */
bool ue_dir_holds_only(const char *dir, bool (*listed)(const char *rel, void *ctx), void *ctx);
/* The same, but empty subdirectories are allowed: a writer that lists its outputs as they
 * land (a batch) may have made a folder for an output that an interrupt left unwritten. */
bool ue_dir_holds_only_or_empty(const char *dir, bool (*listed)(const char *rel, void *ctx), void *ctx);

/* A directory written as a unit: files go into a hidden temp directory next to `final_path`,
 * ue_outdir_commit renames it into place; ue_outdir_abort deletes it. While it exists the temp
 * directory is held open (O_PATH), which is how an interrupt handler tells it from any other
 * directory named like it (docs/output-safety.md, "Interrupts"). */
typedef struct ue_outdir {
    char final_path[4096];
    char temp_path[4096];
    char last_dir[4096];      /* last subdirectory created, to skip repeated mkdir calls */
    int temp_fd;              /* O_PATH on temp_path: marks it as this process's temporary */
    ue_outdir_owner owner;
    uint8_t *scratch;         /* reused for small payloads; freed by commit and abort */
    size_t scratch_cap;
    struct ue_write_pool *pool; /* writer threads for small payloads, started on first use */
    bool pool_tried;
    bool overwrite;
    bool active;
} ue_outdir;
/* An absent or empty `final_path` is always accepted. A non-empty directory is replaced only
 * when `overwrite` is set and `owner` (may be NULL: nothing is ever replaced) owns it; files,
 * links and foreign directories are refused even with `overwrite` (UE_ERR_USAGE). */
ue_result ue_outdir_begin(ue_outdir *o, const char *final_path, bool overwrite,
                          const ue_outdir_owner *owner, ue_diag *d);
/* Writes `rel` (may contain '/') inside the temp directory. */
ue_result ue_outdir_write(ue_outdir *o, const char *rel, const void *data, size_t size, ue_diag *d);
/* Copies n bytes at `off` of `src` into the new file `rel` and returns their XXH64; file
 * sources are copied inside the kernel, so big payloads never sit in memory. */
ue_result ue_outdir_copy(ue_outdir *o, const char *rel, const ue_source *src, uint64_t off,
                         size_t n, uint64_t *hash, ue_diag *d);
/* For writers on several threads: ue_outdir_mkdir makes the directory `rel` (and its parents)
 * first, on the calling thread; then any thread may create a new file in it with
 * ue_outdir_open_file (which only reads `o`), write to the descriptor, and close it with
 * ue_outdir_close_file (`ok` false when a write failed, errno saying why). Failures are
 * reported as io.write naming `rel`, as ue_outdir_write reports them. ue_outdir_remove_file
 * deletes a file this output made (a payload that turned out damaged). */
ue_result ue_outdir_mkdir(ue_outdir *o, const char *rel, ue_diag *d);
ue_result ue_outdir_open_file(const ue_outdir *o, const char *rel, int *fd, ue_diag *d);
ue_result ue_outdir_close_file(int fd, bool ok, const char *rel, ue_diag *d);
void ue_outdir_remove_file(const ue_outdir *o, const char *rel);
ue_result ue_outdir_commit(ue_outdir *o, ue_diag *d);
void ue_outdir_abort(ue_outdir *o);

#endif
