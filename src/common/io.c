/* unearth — byte sources (memory or pread on a file), whole-file reads, atomic file writes and
 * directories that appear as a unit. POSIX only; the only place that touches the OS. */
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
#include "common/write_pool.h"

/* ---- sources ------------------------------------------------------------------------------ */

ue_source ue_source_memory(const void *data, size_t size) {
    ue_source s = {0};
    s.size = size;
    s.memory = data;
    return s;
}

ue_result ue_source_read(const ue_source *s, uint64_t off, void *dst, size_t n) {
    if (!ue_range_ok(off, n, s->size)) return UE_ERR_INVALID;
    if (s->memory) {
        if (n) memcpy(dst, s->memory + off, n);
        return UE_OK;
    }
    return s->read(s->ctx, off, dst, n);
}

/* Parsers read a file in many small pieces (directory records, a peek at each payload's first
 * bytes); those are served from a window read once, so 20,000 entries cost a few hundred
 * system calls instead of 20,000. The lock keeps a source usable from several threads. */
#define READ_WINDOW ((size_t)64 << 10)
#define SMALL_READ ((size_t)4 << 10)

typedef struct file_ctx {
    int fd;
    uint64_t size;
    pthread_mutex_t lock;
    uint64_t window_at;
    size_t window_len;
    uint8_t *window; /* allocated at the first small read: a source only copied from has none */
} file_ctx;

static ue_result pread_all(int fd, uint64_t off, void *dst, size_t n) {
    uint8_t *p = dst;
    while (n > 0) {
        ssize_t got = pread(fd, p, n, (off_t)off);
        if (got < 0) {
            if (errno == EINTR) continue;
            return UE_ERR_IO;
        }
        if (got == 0) return UE_ERR_IO; /* file shrank under us */
        p += got;
        n -= (size_t)got;
        off += (uint64_t)got;
    }
    return UE_OK;
}

static ue_result file_read(void *ctx, uint64_t off, void *dst, size_t n) {
    file_ctx *f = ctx;
    if (!ue_range_ok(off, n, f->size)) return UE_ERR_INVALID;
    if (n > SMALL_READ) return pread_all(f->fd, off, dst, n);
    ue_result r = UE_OK;
    pthread_mutex_lock(&f->lock);
    if (!f->window && !(f->window = malloc(READ_WINDOW))) {
        pthread_mutex_unlock(&f->lock);
        return pread_all(f->fd, off, dst, n);
    }
    if (off < f->window_at || off + n > f->window_at + f->window_len) {
        uint64_t left = f->size - off;
        size_t len = left < READ_WINDOW ? (size_t)left : READ_WINDOW;
        r = pread_all(f->fd, off, f->window, len);
        f->window_at = off;
        f->window_len = r == UE_OK ? len : 0;
    }
    if (r == UE_OK && n) memcpy(dst, f->window + (off - f->window_at), n);
    pthread_mutex_unlock(&f->lock);
    return r;
}

bool ue_file_read_exact(const char *path, uint8_t *dst, size_t size) {
    int fd = open(path, O_RDONLY | O_NONBLOCK); /* O_NONBLOCK: a FIFO never blocks the read */
    if (fd < 0) return false;
    struct stat st;
    bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size == size;
    for (size_t got = 0; ok && got < size;) {
        ssize_t r = pread(fd, dst + got, size - got, (off_t)got);
        if (r < 0 && errno == EINTR) continue;
        ok = r > 0;
        if (ok) got += (size_t)r;
    }
    close(fd);
    return ok;
}

ue_result ue_source_open_file(const char *path, ue_source *out, ue_diag *d) {
    memset(out, 0, sizeof *out);
    /* O_NONBLOCK: opening a FIFO (or a device) for reading would otherwise wait for a writer
     * before the regular-file check below could refuse it */
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0) {
        ue_diag_add(d, UE_SEV_ERROR, "io.open", UE_NO_OFFSET, path, "cannot open: %s",
                    strerror(errno));
        return UE_ERR_IO;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ue_diag_add(d, UE_SEV_ERROR, "io.open", UE_NO_OFFSET, path,
                    "not a regular file (a directory, FIFO, socket or device is never read)");
        close(fd);
        return UE_ERR_IO;
    }
    /* O_NONBLOCK stays set: it changes nothing for a regular file, and clearing it cost two
     * system calls per payload when pack opens thousands of them. */
    file_ctx *f = malloc(sizeof *f);
    if (!f) {
        close(fd);
        return UE_ERR_NOMEM;
    }
    f->fd = fd;
    f->size = (uint64_t)st.st_size;
    f->window_at = 0;
    f->window_len = 0;
    f->window = NULL;
    pthread_mutex_init(&f->lock, NULL);
    out->read = file_read;
    out->ctx = f;
    out->size = f->size;
    return UE_OK;
}

void ue_source_close(ue_source *s) {
    if (s->read == file_read && s->ctx) {
        file_ctx *f = s->ctx;
        close(f->fd);
        pthread_mutex_destroy(&f->lock);
        free(f->window);
        free(f);
    }
    memset(s, 0, sizeof *s);
}

ue_result ue_source_read_alloc(const ue_source *s, uint64_t off, size_t n, size_t cap,
                               uint8_t **out) {
    *out = NULL;
    if (n > cap) return UE_ERR_LIMIT;
    if (!ue_range_ok(off, n, s->size)) return UE_ERR_INVALID;
    uint8_t *p = malloc(n ? n : 1);
    if (!p) return UE_ERR_NOMEM;
    ue_result r = ue_source_read(s, off, p, n);
    if (r != UE_OK) {
        free(p);
        return r;
    }
    *out = p;
    return UE_OK;
}

/* ---- whole files ------------------------------------------------------------------------- */

ue_result ue_file_read(const char *path, size_t cap, uint8_t **data, size_t *size, ue_diag *d) {
    ue_source s;
    *data = NULL;
    *size = 0;
    ue_result r = ue_source_open_file(path, &s, d);
    if (r != UE_OK) return r;
    if (s.size > cap || s.size > SIZE_MAX) {
        ue_diag_add(d, UE_SEV_ERROR, "io.too_large", UE_NO_OFFSET, path,
                    "file of %llu bytes is over the %zu-byte cap", (unsigned long long)s.size,
                    cap);
        ue_source_close(&s);
        return UE_ERR_LIMIT;
    }
    r = ue_source_read_alloc(&s, 0, (size_t)s.size, cap, data);
    if (r == UE_OK) *size = (size_t)s.size;
    else ue_diag_add(d, UE_SEV_ERROR, "io.read", UE_NO_OFFSET, path, "read failed");
    ue_source_close(&s);
    return r;
}

bool ue_path_exists(const char *path) {
    struct stat st;
    return lstat(path, &st) == 0;
}

static bool write_all(int fd, const void *data, size_t size) {
    const uint8_t *p = data;
    while (size > 0) {
        ssize_t w = write(fd, p, size);
        if (w < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        p += w;
        size -= (size_t)w;
    }
    return true;
}

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
    if (s->copy && !src->memory && src->read == file_read) {
        ue_result r = s->copy(s->ctx, ((const file_ctx *)src->ctx)->fd, off, n);
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
    bool ok = write_all(f->fd, f->buf, f->fill);
    f->fill = 0;
    return ok ? UE_OK : UE_ERR_IO;
}

static ue_result file_sink_write(void *ctx, const void *data, size_t n) {
    ue_file_sink *f = ctx;
    if (f->buf && n <= f->cap - f->fill) {
        memcpy(f->buf + f->fill, data, n);
        f->fill += n;
        return UE_OK;
    }
    if (f->fill && sink_flush(f) != UE_OK) return UE_ERR_IO;
    if (f->buf && n < f->cap) return file_sink_write(ctx, data, n);
    return write_all(f->fd, data, n) ? UE_OK : UE_ERR_IO;
}

/* Copies through the buffer with one pread; false when the range is too big for it. */
static bool copy_small(ue_file_sink *f, int from_fd, uint64_t off, size_t n, ue_result *r) {
    if (!f->buf || n > SMALL_COPY || n > f->cap) return false;
    if (n > f->cap - f->fill && (*r = sink_flush(f)) != UE_OK) return true;
    *r = pread_all(from_fd, off, f->buf + f->fill, n);
    if (*r == UE_OK) f->fill += n;
    return true;
}

/* The kernel copies file to file; where it cannot (another file system, old kernel) the bytes
 * go through a small buffer. */
static ue_result file_sink_copy(void *ctx, int from_fd, uint64_t off, size_t n) {
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
            if (!write_all(f->fd, chunk, (size_t)r)) return UE_ERR_IO;
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
    f->sink.write = file_sink_write;
    f->sink.copy = file_sink_copy;
    f->sink.ctx = f;
    return UE_OK;
}

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

/* XXH64 of a byte range; file sources are hashed through a read-only mapping (no copy). */
ue_result ue_source_xxh64(const ue_source *src, uint64_t off, size_t n, uint64_t *hash) {
    if (!ue_range_ok(off, n, src->size)) return UE_ERR_INVALID;
    if (src->memory || n == 0) {
        *hash = ue_xxh64(src->memory ? src->memory + off : (const uint8_t *)"", n, 0);
        return UE_OK;
    }
    if (src->read == file_read) {
        const file_ctx *f = src->ctx;
        uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), start = off - off % page;
        size_t delta = (size_t)(off - start);
        uint8_t *map = mmap(NULL, n + delta, PROT_READ, MAP_PRIVATE, f->fd, (off_t)start);
        if (map != MAP_FAILED) {
            *hash = ue_xxh64(map + delta, n, 0);
            munmap(map, n + delta);
            return UE_OK;
        }
    }
    uint8_t *tmp;
    ue_result r = ue_source_read_alloc(src, off, n, UE_CAP_ENTRY_BYTES, &tmp);
    if (r != UE_OK) return r;
    *hash = ue_xxh64(tmp, n, 0);
    free(tmp);
    return UE_OK;
}

ue_result ue_source_view(const ue_source *s, const uint8_t **view) {
    *view = NULL;
    if (s->memory) {
        *view = s->memory;
        return UE_OK;
    }
    if (s->read != file_read || s->size == 0 || s->size > SIZE_MAX) return UE_ERR_UNSUPPORTED;
    void *map = mmap(NULL, (size_t)s->size, PROT_READ, MAP_PRIVATE,
                     ((const file_ctx *)s->ctx)->fd, 0);
    if (map == MAP_FAILED) return UE_ERR_IO;
    *view = map;
    return UE_OK;
}

void ue_source_unview(const ue_source *s, const uint8_t *view) {
    if (view && !s->memory) munmap((void *)(uintptr_t)view, (size_t)s->size);
}

ue_result ue_mkdirs(const char *path, ue_diag *d) {
    char buf[4096];
    size_t len = strlen(path);
    if (len == 0 || len >= sizeof buf) return UE_ERR_USAGE;
    memcpy(buf, path, len + 1);
    for (size_t i = 1; i <= len; i++) {
        if (buf[i] == '/' || buf[i] == 0) {
            char c = buf[i];
            buf[i] = 0;
            if (mkdir(buf, 0755) != 0 && errno != EEXIST) {
                ue_diag_add(d, UE_SEV_ERROR, "io.mkdir", UE_NO_OFFSET, buf,
                            "cannot create directory: %s", strerror(errno));
                return UE_ERR_IO;
            }
            buf[i] = c;
        }
    }
    return UE_OK;
}

void ue_remove_tree(const char *path) {
    struct stat st;
    if (lstat(path, &st) != 0) return;
    if (S_ISDIR(st.st_mode)) {
        DIR *dir = opendir(path);
        if (dir) {
            struct dirent *e;
            while ((e = readdir(dir)) != NULL) {
                if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
                char child[4096];
                int n = snprintf(child, sizeof child, "%s/%s", path, e->d_name);
                if (n > 0 && (size_t)n < sizeof child) ue_remove_tree(child);
            }
            closedir(dir);
        }
        rmdir(path);
    } else {
        unlink(path);
    }
}

/* ---- output safety ----------------------------------------------------------------------- */

typedef struct file_id {
    dev_t dev;
    ino_t ino;
} file_id;

static bool file_id_of(const char *path, file_id *id) {
    struct stat st;
    if (stat(path, &st) != 0) return false;
    id->dev = st.st_dev;
    id->ino = st.st_ino;
    return true;
}

static bool same_file(const file_id *a, const file_id *b) {
    return a->dev == b->dev && a->ino == b->ino;
}

/* Cuts the last component off a canonical path ("/a/b" -> "/a", "/a" -> "/"); false at "/". */
static bool parent_of(char *path) {
    char *slash = strrchr(path, '/');
    if (!slash || (slash == path && path[1] == 0)) return false;
    if (slash == path) slash[1] = 0;
    else *slash = 0;
    return true;
}

/* True when `id` is the canonical path `path` or one of its ancestors. */
static bool is_path_or_ancestor(const char *path, const file_id *id) {
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    do {
        file_id here;
        if (file_id_of(buf, &here) && same_file(&here, id)) return true;
    } while (parent_of(buf));
    return false;
}

/* The part of an OUTER:ENTRY chain that exists on disk, canonicalised; false if none does. */
static bool input_real_path(const char *input, char out[PATH_MAX]) {
    char buf[PATH_MAX];
    if (snprintf(buf, sizeof buf, "%s", input) >= (int)sizeof buf) return false;
    for (;;) {
        if (realpath(buf, out)) return true;
        char *colon = strrchr(buf, ':');
        if (!colon || colon == buf) return false;
        *colon = 0;
    }
}

/* Appends one component to the canonical path `out`, resolving it as the kernel would: "."
 * stays, ".." climbs, an existing name is canonicalised (links followed), and a name that
 * does not exist yet is appended as it is: it cannot be a link, so a later ".." simply
 * comes back (so "new/../x" is "x", where the kernel will put it once "new" is made). */
static bool append_component(char out[PATH_MAX], const char *name, size_t len) {
    if (len == 0 || (len == 1 && name[0] == '.')) return true;
    if (len == 2 && name[0] == '.' && name[1] == '.') {
        parent_of(out);
        return true;
    }
    size_t at = strlen(out);
    if (at + 1 + len + 1 > PATH_MAX) return false;
    if (at > 1) out[at++] = '/'; /* "/" itself already ends in one */
    memcpy(out + at, name, len);
    out[at + len] = 0;
    char real[PATH_MAX];
    if (realpath(out, real)) memcpy(out, real, strlen(real) + 1);
    return true;
}

/* Where `output` really lands, canonicalised, even when some of its directories do not exist
 * yet; *exists tells whether it exists now. */
static bool output_real_path(const char *output, char out[PATH_MAX], bool *exists) {
    if (output[0] == '/') snprintf(out, PATH_MAX, "/");
    else if (!getcwd(out, PATH_MAX)) return false;
    for (const char *p = output; *p;) {
        size_t len = strcspn(p, "/");
        if (!append_component(out, p, len)) return false;
        p += len;
        while (*p == '/') p++;
    }
    struct stat st;
    *exists = stat(out, &st) == 0;
    return true;
}

bool ue_path_within(const char *path, const char *dir) {
    char p[PATH_MAX], q[PATH_MAX];
    bool exists;
    if (!output_real_path(path, p, &exists) || !output_real_path(dir, q, &exists)) return false;
    size_t n = strlen(q);
    if (strncmp(p, q, n) != 0) return false;
    return p[n] == 0 || p[n] == '/' || (n == 1 && q[0] == '/');
}

ue_result ue_output_check_input(const char *output, const char *input, ue_diag *d) {
    char in_path[PATH_MAX], out_path[PATH_MAX];
    file_id in_id, out_id;
    bool out_exists;
    if (!input_real_path(input, in_path) || !file_id_of(in_path, &in_id)) return UE_OK;
    if (!output_real_path(output, out_path, &out_exists)) return UE_OK;
    const char *why = NULL;
    if (out_exists && file_id_of(out_path, &out_id) && same_file(&out_id, &in_id))
        why = "is the input";
    else if (is_path_or_ancestor(out_path, &in_id))
        why = "lies inside the input";
    else if (out_exists && file_id_of(out_path, &out_id) && is_path_or_ancestor(in_path, &out_id))
        why = "contains the input";
    if (!why) return UE_OK;
    ue_diag_add(d, UE_SEV_ERROR, "io.output.input", UE_NO_OFFSET, output,
                "output %s %s; choose another output, -f or not", why, input);
    return UE_ERR_USAGE;
}

/* Walks `dir`/`rel`; counts the listed files it holds, so that an empty subdirectory (which
 * no writer of ours leaves) makes the tree foreign. It goes on past the first foreign entry, so
 * `listed` sees every regular file (a caller may name the ones it does not list). */
static bool dir_walk_holds_only(const char *dir, char *rel, size_t rel_len,
                                bool (*listed)(const char *, void *), void *ctx, bool empty_ok,
                                size_t *files) {
    char full[PATH_MAX];
    if (snprintf(full, sizeof full, "%s%s%s", dir, rel_len ? "/" : "", rel) >= (int)sizeof full)
        return false;
    DIR *h = opendir(full);
    if (!h) return false;
    bool ok = true;
    struct dirent *e;
    while ((e = readdir(h)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        size_t n = strlen(e->d_name), child_len = rel_len, inside = 0;
        if (rel_len + n + 2 >= PATH_MAX) {
            ok = false;
            break;
        }
        if (rel_len) rel[child_len++] = '/';
        memcpy(rel + child_len, e->d_name, n + 1);
        child_len += n;
        struct stat st;
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, rel);
        bool seen = lstat(path, &st) == 0, fits = false; /* unreadable, a link, a device...: foreign */
        if (seen && S_ISDIR(st.st_mode))
            fits = dir_walk_holds_only(dir, rel, child_len, listed, ctx, empty_ok, &inside) &&
                   (inside > 0 || empty_ok);
        else if (seen && S_ISREG(st.st_mode) && listed(rel, ctx)) inside = 1, fits = true;
        ok = ok && fits;
        *files += inside;
        rel[rel_len] = 0;
    }
    closedir(h);
    return ok;
}

bool ue_dir_holds_only(const char *dir, bool (*listed)(const char *rel, void *ctx), void *ctx) {
    char rel[PATH_MAX] = "";
    size_t files = 0;
    return dir_walk_holds_only(dir, rel, 0, listed, ctx, false, &files);
}

bool ue_dir_holds_only_or_empty(const char *dir, bool (*listed)(const char *rel, void *ctx), void *ctx) {
    char rel[PATH_MAX] = "";
    size_t files = 0;
    return dir_walk_holds_only(dir, rel, 0, listed, ctx, true, &files);
}

static bool dir_is_empty(const char *path) {
    DIR *h = opendir(path);
    if (!h) return false;
    struct dirent *e;
    bool empty = true;
    while (empty && (e = readdir(h)) != NULL)
        empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
    closedir(h);
    return empty;
}

/* Whether an existing `path` may be replaced by a new output directory (see ue_outdir_begin). */
static ue_result check_dir_output(const char *path, bool overwrite, const ue_outdir_owner *owner,
                                  ue_diag *d) {
    struct stat st;
    if (lstat(path, &st) != 0 || (S_ISDIR(st.st_mode) && dir_is_empty(path))) return UE_OK;
    const char *what = owner && owner->what ? owner->what : "an output of this command";
    if (S_ISLNK(st.st_mode) || !S_ISDIR(st.st_mode)) {
        ue_diag_add(d, UE_SEV_ERROR, "io.output.kind", UE_NO_OFFSET, path,
                    "output %s, not a directory; refusing to replace it, even with -f",
                    S_ISLNK(st.st_mode) ? "is a symbolic link" : "exists");
        return UE_ERR_USAGE;
    }
    if (!owner || !owner->owns(path, owner->ctx)) {
        ue_diag_add(d, UE_SEV_ERROR, "io.output.foreign", UE_NO_OFFSET, path,
                    "output directory is not empty and is not %s; refusing to replace it, even "
                    "with -f (choose a new or empty directory)", what);
        return UE_ERR_USAGE;
    }
    if (!overwrite) {
        ue_diag_add(d, UE_SEV_ERROR, "io.exists", UE_NO_OFFSET, path,
                    "output exists (it is %s; use -f to replace it)", what);
        return UE_ERR_USAGE;
    }
    return UE_OK;
}

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
    ue_result r = check_dir_output(o->final_path, overwrite, owner, d);
    if (r != UE_OK) return r;
    /* The parent must exist for rename(2) to work; create it. */
    char parent[4096];
    memcpy(parent, o->final_path, len + 1);
    char *slash = strrchr(parent, '/');
    if (slash && slash != parent) {
        *slash = 0;
        r = ue_mkdirs(parent, d);
        if (r != UE_OK) return r;
    }
    if (!make_marked_temp_dir(o->final_path, o->temp_path, &o->temp_fd)) {
        ue_diag_add(d, UE_SEV_ERROR, "io.mkdir", UE_NO_OFFSET, o->final_path,
                    "cannot create directory: %s", strerror(errno));
        return UE_ERR_IO;
    }
    chmod(o->temp_path, 0755);
    o->active = true;
    return UE_OK;
}

/* mkdir -p of `dir` below its first `root_len` bytes, the private temp directory, which is
 * never made again: once an interrupt has deleted it, nothing can be written back into it. */
static ue_result mkdirs_below(char *dir, size_t root_len, ue_diag *d) {
    size_t len = strlen(dir);
    for (size_t i = root_len + 1; i <= len; i++) {
        if (dir[i] != '/' && dir[i] != 0) continue;
        char c = dir[i];
        dir[i] = 0;
        bool ok = mkdir(dir, 0755) == 0 || errno == EEXIST;
        if (!ok)
            ue_diag_add(d, UE_SEV_ERROR, "io.mkdir", UE_NO_OFFSET, dir,
                        "cannot create directory: %s", strerror(errno));
        dir[i] = c;
        if (!ok) return UE_ERR_IO;
    }
    return UE_OK;
}

/* The path of `rel` inside the private temp directory, its parent directories made. */
static ue_result outdir_path(ue_outdir *o, const char *rel, char full[4096], ue_diag *d) {
    int n = snprintf(full, 4096, "%s/%s", o->temp_path, rel);
    if (n < 0 || (size_t)n >= 4096) return UE_ERR_USAGE;
    char *slash = strrchr(full, '/');
    if (slash && slash > full + strlen(o->temp_path)) {
        *slash = 0;
        /* Entries land in a handful of directories: skip mkdir for the one used last. */
        if (strcmp(full, o->last_dir) != 0) {
            ue_result r = mkdirs_below(full, strlen(o->temp_path), d);
            if (r != UE_OK) return r;
            snprintf(o->last_dir, sizeof o->last_dir, "%s", full);
        }
        *slash = '/';
    }
    return UE_OK;
}

/* Creates `rel` inside the private temp directory (parents as needed) and opens it. */
static ue_result outdir_create(ue_outdir *o, const char *rel, int *fd_out, ue_diag *d) {
    char full[4096];
    ue_result r = outdir_path(o, rel, full, d);
    if (r != UE_OK) return r;
    /* The directory is private until commit, so each file is written in place. */
    int fd = open(full, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0) {
        ue_diag_add(d, UE_SEV_ERROR, "io.write", UE_NO_OFFSET, rel, "cannot create: %s", strerror(errno));
        return UE_ERR_IO;
    }
    *fd_out = fd;
    return UE_OK;
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

static ue_result outdir_finish(int fd, bool ok, const char *rel, ue_diag *d) {
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
    return outdir_finish(fd, write_all(fd, data, size), rel, d);
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
    uint8_t *data = malloc(n ? n : 1);
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
    f.sink.write = file_sink_write;
    f.sink.copy = file_sink_copy;
    f.sink.ctx = &f;
    return outdir_finish(fd, ue_sink_copy(&f.sink, src, off, n) == UE_OK, rel, d);
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
    ue_result r = check_dir_output(o->final_path, o->overwrite, owner, d);
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
