/* unearth — sinks: sequential output to memory, or to a file that appears whole at commit
 * (unnamed while written: O_TMPFILE + linkat, else a NAME.tmp-XXXXXX). POSIX only. */
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

/* ---- sinks: sequential output to memory or to a file that appears whole ------------------- */

static ue_result buf_sink_write(void *ctx, const void *data, size_t n) {
    ue_buf *b = ctx;
    ue_buf_put(b, data, n);
    return b->failed ? UE_ERR_NOMEM : UE_OK;
}

ue_sink ue_sink_buf(ue_buf *b) {
    ue_sink s = {0};
    s.write = buf_sink_write;
    s.ctx = b;
    return s;
}

ue_result ue_sink_put(ue_sink *s, const void *data, size_t n) {
    ue_result r = n ? s->write(s->ctx, data, n) : UE_OK;
    if (r == UE_OK) s->written += n;
    return r;
}

ue_result ue_sink_zeros(ue_sink *s, size_t n) {
    static const uint8_t zeros[4096];
    while (n > 0) {
        size_t take = n < sizeof zeros ? n : sizeof zeros;
        ue_result r = ue_sink_put(s, zeros, take);
        if (r != UE_OK) return r;
        n -= take;
    }
    return UE_OK;
}

ue_result ue_sink_copy(ue_sink *s, const ue_source *src, uint64_t off, size_t n) {
    if (!ue_range_ok(off, n, src->size)) return UE_ERR_INVALID;
    int fd = s->copy ? ue_io_source_fd(src) : -1;
    if (fd >= 0) {
        ue_result r = s->copy(s->ctx, fd, off, n);
        if (r == UE_OK) s->written += n;
        return r;
    }
    uint8_t chunk[65536];
    while (n > 0) {
        size_t take = n < sizeof chunk ? n : sizeof chunk;
        const uint8_t *p = src->memory ? src->memory + off : chunk;
        ue_result r = src->memory ? UE_OK : ue_source_read(src, off, chunk, take);
        if (r == UE_OK) r = ue_sink_put(s, p, take);
        if (r != UE_OK) return r;
        off += take;
        n -= take;
    }
    return UE_OK;
}

/* Small writes and small copies gather in the sink's buffer, so packing 20,000 payloads of a
 * few KiB costs one read each and a write per SINK_BUFFER, not a copy and a write per entry. */
#define SINK_BUFFER ((size_t)256 << 10)
#define SMALL_COPY ((size_t)64 << 10)

static ue_result sink_flush(ue_file_sink *f) {
    bool ok = ue_io_write_all(f->fd, f->buf, f->fill);
    f->fill = 0;
    return ok ? UE_OK : UE_ERR_IO;
}

ue_result ue_io_file_sink_write(void *ctx, const void *data, size_t n) {
    ue_file_sink *f = ctx;
    if (f->buf && n <= f->cap - f->fill) {
        memcpy(f->buf + f->fill, data, n);
        f->fill += n;
        return UE_OK;
    }
    if (f->fill && sink_flush(f) != UE_OK) return UE_ERR_IO;
    if (f->buf && n < f->cap) return ue_io_file_sink_write(ctx, data, n);
    return ue_io_write_all(f->fd, data, n) ? UE_OK : UE_ERR_IO;
}

/* Copies through the buffer with one pread; false when the range is too big for it. */
static bool copy_small(ue_file_sink *f, int from_fd, uint64_t off, size_t n, ue_result *r) {
    if (!f->buf || n > SMALL_COPY || n > f->cap) return false;
    if (n > f->cap - f->fill && (*r = sink_flush(f)) != UE_OK) return true;
    *r = ue_io_pread_all(from_fd, off, f->buf + f->fill, n);
    if (*r == UE_OK) f->fill += n;
    return true;
}

/* The kernel copies file to file; where it cannot (another file system, old kernel) the bytes
 * go through a small buffer. */
ue_result ue_io_file_sink_copy(void *ctx, int from_fd, uint64_t off, size_t n) {
    ue_file_sink *f = ctx;
    ue_result small;
    if (copy_small(f, from_fd, off, n, &small)) return small;
    if (f->fill && sink_flush(f) != UE_OK) return UE_ERR_IO;
    loff_t in = (loff_t)off;
    while (n > 0) {
        ssize_t got = copy_file_range(from_fd, &in, f->fd, NULL, n, 0);
        if (got > 0) {
            n -= (size_t)got;
            continue;
        }
        if (got < 0 && errno == EINTR) continue;
        uint8_t chunk[65536];
        while (n > 0) {
            size_t take = n < sizeof chunk ? n : sizeof chunk;
            ssize_t r = pread(from_fd, chunk, take, (off_t)in);
            if (r <= 0) return UE_ERR_IO;
            if (!ue_io_write_all(f->fd, chunk, (size_t)r)) return UE_ERR_IO;
            in += r;
            n -= (size_t)r;
        }
    }
    return UE_OK;
}

/* An existing output file may be replaced (with `overwrite`) only when it is a regular file:
 * renaming over a link, a directory or a device would destroy something we did not write. */
static ue_result check_file_output(const char *path, bool overwrite, ue_diag *d) {
    struct stat st;
    if (lstat(path, &st) != 0) return UE_OK;
    const char *why = S_ISLNK(st.st_mode) ? "is a symbolic link"
                      : S_ISDIR(st.st_mode) ? "is a directory"
                      : !S_ISREG(st.st_mode) ? "is not a regular file" : NULL;
    if (why) {
        ue_diag_add(d, UE_SEV_ERROR, "io.output.kind", UE_NO_OFFSET, path,
                    "output %s; refusing to replace it, even with -f", why);
        return UE_ERR_USAGE;
    }
    if (!overwrite) {
        ue_diag_add(d, UE_SEV_ERROR, "io.exists", UE_NO_OFFSET, path,
                    "output exists (use -f to overwrite)");
        return UE_ERR_USAGE;
    }
    return UE_OK;
}

/* The directory an output file lands in ("." for a bare name), for O_TMPFILE. */
static bool parent_dir(const char *path, char dir[4096]) {
    const char *slash = strrchr(path, '/');
    if (!slash) {
        snprintf(dir, 4096, ".");
        return true;
    }
    size_t n = slash == path ? 1 : (size_t)(slash - path);
    if (n >= 4096) return false;
    memcpy(dir, path, n);
    dir[n] = 0;
    return true;
}

/* An unnamed file in the output's directory (O_TMPFILE): it has no name until commit links it
 * into place, so a run that is killed or interrupted meanwhile leaves nothing behind. -1 when
 * the system or file system cannot make one, or when /proc (through which commit names it) is
 * missing: the caller then writes a named NAME.tmp-XXXXXX instead. */
static int open_unnamed(const char *path) {
#ifdef O_TMPFILE
    char dir[4096];
    if (!parent_dir(path, dir) || access("/proc/self/fd", X_OK) != 0) return -1;
    return open(dir, O_TMPFILE | O_WRONLY, 0644);
#else
    (void)path;
    return -1;
#endif
}

ue_result ue_file_sink_begin(ue_file_sink *f, const char *path, bool overwrite, ue_diag *d) {
    memset(f, 0, sizeof *f);
    f->fd = -1;
    ue_result r = check_file_output(path, overwrite, d);
    if (r != UE_OK) return r;
    int n = snprintf(f->final_path, sizeof f->final_path, "%s", path);
    if (n < 0 || (size_t)n >= sizeof f->final_path) return UE_ERR_USAGE;
    f->fd = open_unnamed(path);
    if (f->fd < 0) {
        snprintf(f->temp_path, sizeof f->temp_path, "%s.tmp-XXXXXX", path);
        f->fd = mkstemp(f->temp_path);
    }
    if (f->fd < 0) {
        int err = errno;
        ue_diag_add(d, UE_SEV_ERROR, "io.create", UE_NO_OFFSET, path, "cannot create: %s",
                    strerror(err));
        f->temp_path[0] = 0;
        errno = err;
        return UE_ERR_IO;
    }
    f->overwrite = overwrite;
    f->buf = malloc(SINK_BUFFER); /* without it every write goes straight to the file */
    f->cap = f->buf ? SINK_BUFFER : 0;
    f->sink.write = ue_io_file_sink_write;
    f->sink.copy = ue_io_file_sink_copy;
    f->sink.ctx = f;
    return UE_OK;
}

ue_result ue_file_sink_flush(ue_file_sink *f) { return f->fill ? sink_flush(f) : UE_OK; }

ue_result ue_file_sink_read_back(ue_file_sink *f, ue_source *out, ue_diag *d) {
    ue_result r = f->fill ? sink_flush(f) : UE_OK;
    if (r != UE_OK) return r;
    char proc[64];
    const char *path = f->temp_path;
    if (!path[0]) { /* the unnamed file's own name; it was opened write-only */
        snprintf(proc, sizeof proc, "/proc/self/fd/%d", f->fd);
        path = proc;
    }
    return ue_source_open_file(path, out, d);
}

/* Links the unnamed file `fd` at `to` through /proc (linkat fails if `to` exists). */
static bool link_unnamed(int fd, const char *to) {
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    return linkat(AT_FDCWD, proc, AT_FDCWD, to, AT_SYMLINK_FOLLOW) == 0;
}

/* Gives the unnamed file a name of its own beside the output (NAME.tmp-XXXXXX, as mkstemp
 * would choose), so that rename can replace the output in one step. The file stays open while
 * it has this name: an interrupt handler finds it among the open files. */
static bool name_unnamed(ue_file_sink *f) {
    static const char alnum[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    uint64_t x = (uint64_t)now.tv_nsec ^ ((uint64_t)now.tv_sec << 32) ^ (uint64_t)(uintptr_t)f ^
                 (uint64_t)getpid() << 16;
    for (int attempt = 0; attempt < 100; attempt++) {
        char suffix[7];
        for (int i = 0; i < 6; i++) {
            x = x * 6364136223846793005u + 1442695040888963407u; /* a 64-bit LCG step */
            suffix[i] = alnum[(x >> 33) % (sizeof alnum - 1)];
        }
        suffix[6] = 0;
        snprintf(f->temp_path, sizeof f->temp_path, "%s.tmp-%s", f->final_path, suffix);
        if (link_unnamed(f->fd, f->temp_path)) return true;
        if (errno != EEXIST) break;
    }
    f->temp_path[0] = 0;
    return false;
}

/* Puts the written file at final_path: an unnamed file is linked there (or, to replace an
 * existing output, named and renamed over it); a named temp file is linked (never clobbering
 * a file that appeared meanwhile) or renamed. */
static bool sink_publish(ue_file_sink *f) {
    bool named = f->temp_path[0] != 0;
    if (!named && !f->overwrite) return link_unnamed(f->fd, f->final_path);
    if (!named && !name_unnamed(f)) return false;
    bool ok;
    if (!f->overwrite) {
        ok = link(f->temp_path, f->final_path) == 0;
        int err = errno;
        unlink(f->temp_path);
        errno = err;
    } else {
        ok = rename(f->temp_path, f->final_path) == 0;
    }
    return ok;
}

ue_result ue_file_sink_commit(ue_file_sink *f, ue_diag *d) {
    /* No fsync: the rename already guarantees that a failed or killed run leaves either the
     * old file or the whole new one; power-loss durability is the file system's business. */
    bool ok = (f->fill == 0 || sink_flush(f) == UE_OK);
    free(f->buf);
    f->buf = NULL;
    ok = ok && fchmod(f->fd, 0644) == 0 && sink_publish(f);
    int err = ok ? 0 : errno;
    /* Closed only once no temporary name is left, so an open file marks every named temp. */
    if (!ok && f->temp_path[0]) unlink(f->temp_path);
    if (close(f->fd) != 0 && ok) {
        err = errno; /* a late write error: what was published may be short */
        unlink(f->final_path);
        ok = false;
    }
    f->fd = -1;
    if (!ok) {
        ue_diag_add(d, UE_SEV_ERROR, "io.write", UE_NO_OFFSET, f->final_path, "cannot write: %s",
                    strerror(err));
        errno = err;
        return UE_ERR_IO;
    }
    return UE_OK;
}

void ue_file_sink_abort(ue_file_sink *f) {
    free(f->buf);
    f->buf = NULL;
    if (f->temp_path[0]) unlink(f->temp_path);
    f->temp_path[0] = 0;
    if (f->fd >= 0) close(f->fd);
    f->fd = -1;
}

ue_result ue_file_write_atomic(const char *path, const void *data, size_t size, bool overwrite,
                               ue_diag *d) {
    ue_file_sink f;
    ue_result r = ue_file_sink_begin(&f, path, overwrite, d);
    if (r != UE_OK) return r;
    r = ue_sink_put(&f.sink, data, size);
    if (r != UE_OK) {
        int err = errno;
        ue_diag_add(d, UE_SEV_ERROR, "io.write", UE_NO_OFFSET, path, "cannot write: %s", strerror(err));
        ue_file_sink_abort(&f);
        errno = err;
        return r;
    }
    return ue_file_sink_commit(&f, d);
}
