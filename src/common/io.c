/* unearth — byte sources (memory, or pread on a file through a shared read window), whole-file
 * reads and writes, and directory creation and removal. POSIX only. */
#define _GNU_SOURCE /* copy_file_range */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
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

ue_result ue_io_pread_all(int fd, uint64_t off, void *dst, size_t n) {
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
    if (n > SMALL_READ) return ue_io_pread_all(f->fd, off, dst, n);
    ue_result r = UE_OK;
    pthread_mutex_lock(&f->lock);
    if (!f->window && !(f->window = malloc(READ_WINDOW))) {
        pthread_mutex_unlock(&f->lock);
        return ue_io_pread_all(f->fd, off, dst, n);
    }
    if (off < f->window_at || off + n > f->window_at + f->window_len) {
        uint64_t left = f->size - off;
        size_t len = left < READ_WINDOW ? (size_t)left : READ_WINDOW;
        r = ue_io_pread_all(f->fd, off, f->window, len);
        f->window_at = off;
        f->window_len = r == UE_OK ? len : 0;
    }
    if (r == UE_OK && n) memcpy(dst, f->window + (off - f->window_at), n);
    pthread_mutex_unlock(&f->lock);
    return r;
}

int ue_io_source_fd(const ue_source *s) {
    return !s->memory && s->read == file_read ? ((const file_ctx *)s->ctx)->fd : -1;
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
    uint8_t *p = ue_malloc_items(n, 1);
    if (!p) return UE_ERR_NOMEM;
    ue_result r = ue_source_read(s, off, p, n);
    if (r != UE_OK) {
        free(p);
        return r;
    }
    *out = p;
    return UE_OK;
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

#define HUGE_PAGE ((size_t)2 << 20)

void *ue_malloc_large(size_t n) {
    if (n > PTRDIFF_MAX) return NULL; /* no object is that large; asked of malloc, a sanitizer aborts */
#ifdef MADV_HUGEPAGE
    if (n >= 2 * HUGE_PAGE && n <= SIZE_MAX - HUGE_PAGE) {
        size_t rounded = (n + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
        void *p = aligned_alloc(HUGE_PAGE, rounded);
        if (p) {
            madvise(p, rounded, MADV_HUGEPAGE); /* a hint: without it the pages are small */
            return p;
        }
    }
#endif
    return malloc(n ? n : 1);
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

bool ue_io_write_all(int fd, const void *data, size_t size) {
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


ue_result ue_io_mkdirs_from(char *dir, size_t from, ue_diag *d) {
    size_t len = strlen(dir);
    for (size_t i = from + 1; i <= len; i++) {
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

ue_result ue_mkdirs(const char *path, ue_diag *d) {
    char buf[4096];
    size_t len = strlen(path);
    if (len == 0 || len >= sizeof buf) return UE_ERR_USAGE;
    memcpy(buf, path, len + 1);
    return ue_io_mkdirs_from(buf, 0, d);
}

ue_result ue_make_parent_dirs(const char *path, ue_diag *d) {
    char parent[4096];
    if ((size_t)snprintf(parent, sizeof parent, "%s", path) >= sizeof parent) return UE_OK; /* the write says why */
    char *slash = strrchr(parent, '/');
    if (!slash || slash == parent) return UE_OK;
    *slash = 0;
    return ue_mkdirs(parent, d);
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
