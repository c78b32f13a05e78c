/* unearth — output directories: built under a temporary name beside the final one, small files
 * written by a writer pool, swapped into place as a unit on commit. POSIX only. */
#define _GNU_SOURCE /* copy_file_range */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "unearth/common.h"
#include "common/bytes.h"
#include "common/io.h"
#include "common/io_internal.h"
#include "common/write_pool.h"

/* ---- output directories ------------------------------------------------------------------ */

/* Signals are held back while a temporary directory is made and marked, and while an output
 * directory is swapped: a handler that runs on this thread never sees one half done. */
static void hold_signals(sigset_t *before) {
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, before);
}

static void release_signals(const sigset_t *before) { pthread_sigmask(SIG_SETMASK, before, NULL); }

/* NAME.partial-XXXXXX, a new empty directory beside `final_path`. */
static bool make_temp_dir(const char *final_path, char temp_path[4096]) {
    snprintf(temp_path, 4096, "%s.partial-XXXXXX", final_path);
    return mkdtemp(temp_path) != NULL;
}

/* An O_PATH descriptor on a temporary directory marks it as this process's for as long as it
 * is open: an interrupt handler finds it among the open files and deletes the tree
 * (docs/output-safety.md, "Interrupts"). -1 when it cannot be opened. */
static int mark_temp_dir(const char *path) { return open(path, O_PATH | O_DIRECTORY | O_NOFOLLOW); }

/* The private directory of an output, made and marked with signals held. */
static bool make_marked_temp_dir(const char *final_path, char temp_path[4096], int *fd) {
    sigset_t before;
    hold_signals(&before);
    bool ok = make_temp_dir(final_path, temp_path);
    if (ok && (*fd = mark_temp_dir(temp_path)) < 0) {
        int err = errno;
        rmdir(temp_path);
        errno = err;
        ok = false;
    }
    release_signals(&before);
    return ok;
}

ue_result ue_outdir_begin(ue_outdir *o, const char *final_path, bool overwrite,
                          const ue_outdir_owner *owner, ue_diag *d) {
    memset(o, 0, sizeof *o);
    o->temp_fd = -1;
    size_t len = strlen(final_path);
    while (len > 1 && final_path[len - 1] == '/') len--;
    if (len == 0 || len + 32 >= sizeof o->final_path) return UE_ERR_USAGE;
    memcpy(o->final_path, final_path, len);
    o->final_path[len] = 0;
    if (owner) o->owner = *owner;
    o->overwrite = overwrite;
    ue_result r = ue_io_check_dir_output(o->final_path, overwrite, owner, d);
    if (r != UE_OK) return r;
    /* The parent must exist for rename(2) to work; create it. */
    if ((r = ue_make_parent_dirs(o->final_path, d)) != UE_OK) return r;
    if (!make_marked_temp_dir(o->final_path, o->temp_path, &o->temp_fd)) {
        ue_diag_add(d, UE_SEV_ERROR, "io.mkdir", UE_NO_OFFSET, o->final_path,
                    "cannot create directory: %s", strerror(errno));
        return UE_ERR_IO;
    }
    chmod(o->temp_path, 0755);
    o->active = true;
    return UE_OK;
}

/* `rel` inside the temp directory; false when the path does not fit. */
static bool temp_join(const ue_outdir *o, const char *rel, char full[4096]) {
    int n = snprintf(full, 4096, "%s/%s", o->temp_path, rel);
    return n >= 0 && n < 4096;
}

/* The path of `rel` inside the private temp directory, its parent directories made. */
static ue_result outdir_path(ue_outdir *o, const char *rel, char full[4096], ue_diag *d) {
    if (!temp_join(o, rel, full)) return UE_ERR_USAGE;
    char *slash = strrchr(full, '/');
    if (slash && slash > full + strlen(o->temp_path)) {
        *slash = 0;
        /* Entries land in a handful of directories: skip mkdir for the one used last. */
        if (strcmp(full, o->last_dir) != 0) {
            /* Only below the private temp directory, which is never made again: once an
             * interrupt has deleted it, nothing can be written back into it. */
            ue_result r = ue_io_mkdirs_from(full, strlen(o->temp_path), d);
            if (r != UE_OK) return r;
            snprintf(o->last_dir, sizeof o->last_dir, "%s", full);
        }
        *slash = '/';
    }
    return UE_OK;
}

/* Opens the new file `rel` of the private temp directory, whose parent exists. */
static ue_result open_new(const char *full, const char *rel, int *fd_out, ue_diag *d) {
    /* The directory is private until commit, so each file is written in place. */
    int fd = open(full, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0) {
        ue_diag_add(d, UE_SEV_ERROR, "io.write", UE_NO_OFFSET, rel, "cannot create: %s", strerror(errno));
        return UE_ERR_IO;
    }
    *fd_out = fd;
    return UE_OK;
}

/* Creates `rel` inside the private temp directory (parents as needed) and opens it. */
static ue_result outdir_create(ue_outdir *o, const char *rel, int *fd_out, ue_diag *d) {
    char full[4096];
    ue_result r = outdir_path(o, rel, full, d);
    if (r != UE_OK) return r;
    return open_new(full, rel, fd_out, d);
}

ue_result ue_outdir_mkdir(ue_outdir *o, const char *rel, ue_diag *d) {
    char full[4096];
    if (!temp_join(o, rel, full)) return UE_ERR_USAGE;
    return ue_io_mkdirs_from(full, strlen(o->temp_path), d);
}

ue_result ue_outdir_open_file(const ue_outdir *o, const char *rel, int *fd, ue_diag *d) {
    char full[4096];
    if (!temp_join(o, rel, full)) return UE_ERR_USAGE;
    return open_new(full, rel, fd, d);
}

void ue_outdir_remove_file(const ue_outdir *o, const char *rel) {
    char full[4096];
    if (temp_join(o, rel, full)) unlink(full);
}

/* Waits for the pool's files; a failure among them is reported as the file's own. */
static ue_result outdir_drain(ue_outdir *o, ue_diag *d) {
    if (!o->pool) return UE_OK;
    char failed[4096];
    int err = ue_write_pool_finish(o->pool, failed, sizeof failed);
    o->pool = NULL;
    if (!err) return UE_OK;
    size_t skip = strlen(o->temp_path) + 1;
    ue_diag_add(d, UE_SEV_ERROR, "io.write", UE_NO_OFFSET,
                strlen(failed) > skip ? failed + skip : failed, "cannot write: %s", strerror(err));
    return UE_ERR_IO;
}

ue_result ue_outdir_close_file(int fd, bool ok, const char *rel, ue_diag *d) {
    ok = (close(fd) == 0) && ok;
    if (!ok) {
        ue_diag_add(d, UE_SEV_ERROR, "io.write", UE_NO_OFFSET, rel, "cannot write: %s",
                    strerror(errno));
        return UE_ERR_IO;
    }
    return UE_OK;
}

ue_result ue_outdir_write(ue_outdir *o, const char *rel, const void *data, size_t size,
                          ue_diag *d) {
    int fd;
    ue_result r = outdir_create(o, rel, &fd, d);
    if (r != UE_OK) return r;
    return ue_outdir_close_file(fd, ue_io_write_all(fd, data, size), rel, d);
}

/* Payloads up to this size are read once into a reused buffer, hashed and written: one
 * pread and one write, where a mapping and a kernel copy cost more system calls than the
 * bytes are worth. Bigger ones never pass through a user-space buffer. */
#define OUTDIR_SMALL ((size_t)1 << 20)

/* Creating files is most of an extract's cost: the kernel can create several at once, so small
 * payloads are handed, with their own copy, to a pool of writer threads. */
#define WRITER_THREADS 2

static ue_result outdir_copy_pooled(ue_outdir *o, const char *rel, const ue_source *src,
                                    uint64_t off, size_t n, uint64_t *hash, ue_diag *d) {
    char full[4096];
    ue_result r = outdir_path(o, rel, full, d);
    if (r != UE_OK) return r;
    uint8_t *data = ue_malloc_items(n, 1);
    char *path = strdup(full);
    if (!data || !path) {
        free(data), free(path);
        return UE_ERR_NOMEM;
    }
    if ((r = ue_source_read(src, off, data, n)) != UE_OK) {
        free(data), free(path);
        return r;
    }
    *hash = ue_xxh64(data, n, 0);
    if (ue_write_pool_put(o->pool, path, data, n)) return UE_OK;
    r = outdir_drain(o, d);
    return r != UE_OK ? r : UE_ERR_IO;
}

static ue_result outdir_copy_small(ue_outdir *o, const char *rel, const ue_source *src,
                                   uint64_t off, size_t n, uint64_t *hash, ue_diag *d) {
    if (!o->pool && !o->pool_tried) {
        o->pool_tried = true;
        o->pool = ue_write_pool_start(WRITER_THREADS);
    }
    if (o->pool) return outdir_copy_pooled(o, rel, src, off, n, hash, d);
    if (n > o->scratch_cap) {
        uint8_t *grown = realloc(o->scratch, n);
        if (!grown) return UE_ERR_NOMEM;
        o->scratch = grown;
        o->scratch_cap = n;
    }
    ue_result r = ue_source_read(src, off, o->scratch, n);
    if (r != UE_OK) return r;
    *hash = ue_xxh64(o->scratch, n, 0);
    return ue_outdir_write(o, rel, o->scratch, n, d);
}

ue_result ue_outdir_copy(ue_outdir *o, const char *rel, const ue_source *src, uint64_t off,
                         size_t n, uint64_t *hash, ue_diag *d) {
    if (!src->memory && n <= OUTDIR_SMALL) return outdir_copy_small(o, rel, src, off, n, hash, d);
    /* The payload never passes through a user-space buffer when it lives in a file: hashed
     * through a mapping, copied by the kernel. */
    ue_result r = ue_source_xxh64(src, off, n, hash);
    int fd;
    if (r == UE_OK) r = outdir_create(o, rel, &fd, d);
    if (r != UE_OK) return r;
    ue_file_sink f = {0};
    f.fd = fd;
    f.sink.write = ue_io_file_sink_write;
    f.sink.copy = ue_io_file_sink_copy;
    f.sink.ctx = &f;
    return ue_outdir_close_file(fd, ue_sink_copy(&f.sink, src, off, n) == UE_OK, rel, d);
}

static void outdir_release(ue_outdir *o) {
    free(o->scratch);
    o->scratch = NULL;
    o->scratch_cap = 0;
    if (o->temp_fd >= 0) close(o->temp_fd);
    o->temp_fd = -1;
}

/* Moves the new tree into place; an existing output (already checked) is first renamed onto a
 * new empty temporary directory, marked, and deleted after the swap. Signals are held for the
 * renames, so an interrupt finds either the old output in place or the new one, never neither. */
static ue_result outdir_swap_in(ue_outdir *o, ue_diag *d) {
    char old[4096];
    int old_fd = -1;
    sigset_t before;
    hold_signals(&before);
    bool had_old = ue_path_exists(o->final_path), moved_old = false;
    const char *fail = NULL;
    int err = 0;
    if (had_old && !make_temp_dir(o->final_path, old)) {
        fail = "cannot replace", err = errno;
    } else if (had_old && rename(o->final_path, old) != 0) { /* replaces the empty directory */
        fail = "cannot replace", err = errno;
        rmdir(old);
    } else if (had_old) {
        moved_old = true;
        old_fd = mark_temp_dir(old);
    }
    if (!fail && rename(o->temp_path, o->final_path) != 0) {
        err = errno;
        fail = "cannot move into place";
        if (moved_old && rename(old, o->final_path) == 0) moved_old = false;
    }
    if (fail && moved_old && old_fd >= 0) close(old_fd); /* kept: no longer a temporary */
    release_signals(&before);
    if (fail) {
        ue_diag_add(d, UE_SEV_ERROR, "io.rename", UE_NO_OFFSET, o->final_path, "%s: %s%s%s", fail,
                    strerror(err), moved_old ? "; the previous output is kept as " : "",
                    moved_old ? old : "");
        return UE_ERR_IO;
    }
    if (moved_old) ue_remove_tree(old);
    if (old_fd >= 0) close(old_fd);
    return UE_OK;
}

ue_result ue_outdir_commit(ue_outdir *o, ue_diag *d) {
    if (!o->active) return UE_ERR_USAGE;
    if (outdir_drain(o, d) != UE_OK) {
        ue_outdir_abort(o);
        return UE_ERR_IO;
    }
    /* Checked again: the directory may have gained foreign files since ue_outdir_begin. */
    const ue_outdir_owner *owner = o->owner.owns ? &o->owner : NULL;
    ue_result r = ue_io_check_dir_output(o->final_path, o->overwrite, owner, d);
    if (r == UE_OK) r = outdir_swap_in(o, d);
    if (r != UE_OK) {
        ue_outdir_abort(o);
        return r;
    }
    o->active = false;
    outdir_release(o);
    return UE_OK;
}

void ue_outdir_abort(ue_outdir *o) {
    if (o->pool) ue_write_pool_finish(o->pool, NULL, 0); /* no writer may outlive the tree */
    o->pool = NULL;
    if (o->active) ue_remove_tree(o->temp_path);
    o->active = false;
    outdir_release(o);
}
