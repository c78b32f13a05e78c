/* unearth — shared vocabulary of the library: results, diagnostics, byte sources and buffers.
 * Every module builds on these; nothing here knows about a file format. */
#ifndef UNEARTH_COMMON_H
#define UNEARTH_COMMON_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "unearth/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Result of every public call. The numeric values of the first four match the CLI exit codes;
 * the CLI maps UE_ERR_MISMATCH, UE_ERR_LIMIT and UE_ERR_UNSUPPORTED to 1 and UE_ERR_NOMEM to 3. */
typedef enum ue_result {
    UE_OK = 0,
    UE_ERR_INVALID = 1,     /* the input violates the format */
    UE_ERR_USAGE = 2,       /* the caller asked for something impossible */
    UE_ERR_IO = 3,          /* the operating system failed us */
    UE_ERR_NOMEM = 4,       /* an allocation failed */
    UE_ERR_UNSUPPORTED = 5, /* valid but not implemented (e.g. an unknown packing method) */
    UE_ERR_MISMATCH = 6,    /* a re-encoding does not reproduce the input byte for byte */
    UE_ERR_LIMIT = 7        /* the input claims more than a size limit allows (a hostile or
                               damaged count or size: invalid input, refused before allocating) */
} ue_result;

UE_API const char *ue_result_name(ue_result r);

/* How a reader reacts to a violation. */
typedef enum ue_mode {
    UE_MODE_STRICT = 0,   /* any violation is an error */
    UE_MODE_TOLERANT = 1  /* skip the damaged range, report it, keep going */
} ue_mode;

/* ---- diagnostics ------------------------------------------------------------------------ */

typedef enum ue_severity { UE_SEV_INFO = 0, UE_SEV_WARNING = 1, UE_SEV_ERROR = 2 } ue_severity;

typedef struct ue_diag_item {
    ue_severity severity;
    char code[40];      /* stable machine-readable code, e.g. "nres.entry.range" */
    uint64_t offset;    /* absolute byte offset in the outermost input, UE_NO_OFFSET if none */
    char path[160];     /* structure path, e.g. "nres/entry[3]/data_offset" */
    char message[256];  /* human sentence */
} ue_diag_item;

#define UE_NO_OFFSET UINT64_MAX

/* A growable list of diagnostics. Zero-initialise it; free with ue_diag_free.
 * `base_offset` and `path_prefix` let a caller parse nested data (a model inside an archive)
 * and still report offsets and paths relative to the outermost file. */
typedef struct ue_diag {
    ue_diag_item *items;
    size_t count;
    size_t capacity;
    size_t dropped;          /* items not stored because max_items was reached */
    size_t max_items;        /* 0 = default cap (10000) */
    uint64_t base_offset;
    char path_prefix[96];
} ue_diag;

UE_API void ue_diag_free(ue_diag *d);
UE_API void ue_diag_add(ue_diag *d, ue_severity sev, const char *code, uint64_t offset,
                        const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
/* ue_diag_add with a va_list, for callers that take printf-style arguments themselves. Text
 * longer than a field is cut before a UTF-8 character that would not fit whole. */
UE_API void ue_diag_addv(ue_diag *d, ue_severity sev, const char *code, uint64_t offset,
                  const char *path, const char *fmt, va_list ap)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 0)))
#endif
    ;
UE_API size_t ue_diag_count(const ue_diag *d, ue_severity at_least);
/* Copies the items of `from` of at least the given severity into d (which applies its own
 * base offset and path prefix): for results first gathered in a scratch list. */
UE_API void ue_diag_append(ue_diag *d, const ue_diag *from, ue_severity at_least);
/* Formats one item as "error: nres/entry[3]/data_offset @0x40: message". */
UE_API void ue_diag_format(const ue_diag_item *it, char *out, size_t out_size);

/* ---- growable output buffer -------------------------------------------------------------- */

/* Appends never fail loudly: the first failed allocation sets `failed` and later appends are
 * ignored, so writers check once at the end. `limit` (0 = none) caps the total size. */
typedef struct ue_buf {
    uint8_t *data;
    size_t size;
    size_t capacity;
    size_t limit;
    bool failed;
} ue_buf;

UE_API void ue_buf_free(ue_buf *b);
UE_API bool ue_buf_reserve(ue_buf *b, size_t extra);
/* Like ue_buf_reserve, but a failure is only reported, never recorded in `failed`. */
UE_API bool ue_buf_try_reserve(ue_buf *b, size_t extra);
UE_API void ue_buf_put(ue_buf *b, const void *src, size_t n);
UE_API void ue_buf_put_zeros(ue_buf *b, size_t n);
UE_API void ue_buf_put_u8(ue_buf *b, uint8_t v);
UE_API void ue_buf_put_u16le(ue_buf *b, uint16_t v);
UE_API void ue_buf_put_u32le(ue_buf *b, uint32_t v);
UE_API void ue_buf_put_u16be(ue_buf *b, uint16_t v);
UE_API void ue_buf_put_u32be(ue_buf *b, uint32_t v);
/* Pads with zero bytes until size is a multiple of `align` (a power of two or any n ≥ 1). */
UE_API void ue_buf_align(ue_buf *b, size_t align);
/* Hands the bytes to the caller (who frees them with free()) and resets the buffer. */
UE_API uint8_t *ue_buf_take(ue_buf *b, size_t *size_out);

/* ---- byte sources: parsers read through these so that big archives need not sit in memory -- */

typedef struct ue_source {
    ue_result (*read)(void *ctx, uint64_t off, void *dst, size_t n); /* file-backed sources */
    void *ctx;
    uint64_t size;
    const uint8_t *memory; /* non-NULL when the whole source is a memory block */
} ue_source;

/* Reads exactly n bytes at off; UE_ERR_INVALID if the range passes the end, UE_ERR_IO if the
 * operating system fails. */
UE_API ue_result ue_source_read(const ue_source *s, uint64_t off, void *dst, size_t n);

/* A source over caller-owned memory: borrowed, so `data` must stay alive and unchanged while
 * the source (or anything parsed from it) is in use. Nothing to close. */
UE_API ue_source ue_source_memory(const void *data, size_t size);
/* A source over a file, read with pread: it holds the file open until ue_source_close, and
 * `path` is not kept. */
UE_API ue_result ue_source_open_file(const char *path, ue_source *out, ue_diag *d);
UE_API void ue_source_close(ue_source *s);
/* Bounded read into a fresh allocation of n bytes (*out; the caller frees it with free());
 * UE_ERR_LIMIT when n > cap. */
UE_API ue_result ue_source_read_alloc(const ue_source *s, uint64_t off, size_t n, size_t cap,
                                      uint8_t **out);

/* Default caps on what one structure may make us allocate. */
#define UE_CAP_ENTRY_BYTES ((size_t)1 << 31)   /* 2 GiB for one decoded payload */
#define UE_CAP_TABLE_ENTRIES ((size_t)1 << 20) /* one million directory entries */
/* Bounded work (docs/bounded-work.md): one decoded payload may claim at most
 * UE_CAP_DECODED_PER_BYTE bytes per byte of the input file plus UE_CAP_DECODED_BASE (and never
 * more than UE_CAP_ENTRY_BYTES); a larger declared size is invalid input, refused before any
 * allocation. ue_cap_decoded(input size) computes the limit. */
#define UE_CAP_DECODED_PER_BYTE 32u
#define UE_CAP_DECODED_BASE ((size_t)64 << 20) /* 64 MiB */
static inline size_t ue_cap_decoded(uint64_t input_size) {
    uint64_t most = (uint64_t)UE_CAP_ENTRY_BYTES;
    if (input_size >= most / UE_CAP_DECODED_PER_BYTE) return (size_t)most;
    uint64_t v = input_size * UE_CAP_DECODED_PER_BYTE + UE_CAP_DECODED_BASE;
    return (size_t)(v < most ? v : most);
}

/* ---- sinks: where writers put their bytes, in order -------------------------------------- */

typedef struct ue_sink {
    ue_result (*write)(void *ctx, const void *data, size_t n);
    /* Optional: copy n bytes at `off` of an open file without passing them through memory. */
    ue_result (*copy)(void *ctx, int from_fd, uint64_t off, size_t n);
    void *ctx;
    uint64_t written;
} ue_sink;

UE_API ue_sink ue_sink_buf(ue_buf *b);
UE_API ue_result ue_sink_put(ue_sink *s, const void *data, size_t n);
UE_API ue_result ue_sink_zeros(ue_sink *s, size_t n);
/* Appends n bytes of a source: inside the kernel when both ends are files. */
UE_API ue_result ue_sink_copy(ue_sink *s, const ue_source *src, uint64_t off, size_t n);
/* XXH64 of a range of a source; file sources are hashed through a mapping, without a copy. */
UE_API ue_result ue_source_xxh64(const ue_source *src, uint64_t off, size_t n, uint64_t *hash);

/* ---- files ------------------------------------------------------------------------------- */

/* Reads a whole file into a fresh allocation (*data; the caller frees it with free()).
 * UE_ERR_LIMIT, with a diagnostic, when the file has more than `cap` bytes. */
UE_API ue_result ue_file_read(const char *path, size_t cap, uint8_t **data, size_t *size, ue_diag *d);
/* Writes an unnamed file in the same directory (O_TMPFILE; a named temp file where there is
 * none) and links or renames it into place whole; never leaves a half file. A named temp file
 * is held open while it exists, so a program's interrupt handler can find it in /proc/self/fd.
 * An existing regular file is replaced only when `overwrite` is set; a directory, link or
 * device never. */
UE_API ue_result ue_file_write_atomic(const char *path, const void *data, size_t size, bool overwrite,
                                      ue_diag *d);

/* ---- addresses: FILE[:ENTRY[:ENTRY...]] ---------------------------------------------------
 * The one rule (docs/addresses.md): FILE is the longest part of the address that names an
 * existing file or directory, either the whole address or a part ending just before a ':';
 * the rest is the chain of entry names, outermost first, one ':' between two. So a ':' in a
 * file name works (the longer existing name wins) and an entry name never holds one. */
typedef struct ue_address {
    char file[4096];        /* FILE */
    const char *entries;    /* the chain after FILE's ':' (points into the address); "" for none */
    const char *last_entry; /* the innermost entry name (into the address); NULL when the
                             * address is FILE alone ("" for "FILE:") */
    size_t parent_length;   /* the address's first parent_length bytes name what holds last_entry
                             * (FILE or FILE:ENTRY:...); the whole address when it has no entry */
} ue_address;
/* For an address that must name an entry (where one is written: --into): the whole address is
 * never FILE, even when a file has that name. */
#define UE_ADDRESS_NAMES_ENTRY 1u
/* Splits `address` by the rule; `flags` 0 or UE_ADDRESS_NAMES_ENTRY. UE_ERR_IO when no part of
 * it exists: the fields are then filled as if FILE ended at the first ':' (so that a message
 * can name it); UE_ERR_USAGE when FILE does not fit in `file`. */
UE_API ue_result ue_address_split(const char *address, unsigned flags, ue_address *out);
/* The first entry name of a chain ("b.pkx:model.dat" gives "b.pkx") copied into `name` (cut to
 * cap - 1 bytes); returns the rest of the chain after its ':', or NULL after the last name. */
UE_API const char *ue_address_next_entry(const char *chain, char *name, size_t cap);
/* The innermost name of an address (a pointer into it): its last entry, else the last path
 * component of FILE ("robot.msh" of "dir/a.rlb:robot.msh" and of "dir/robot.msh"). */
UE_API const char *ue_address_leaf(const char *address);

/* ---- lookups shared by many models -------------------------------------------------------- */

/* What converting a model reads beside it (Parkan: the archive's WEAR tables, Material.lib,
 * Textures.lib, folder listings), kept for every later model converted with the same cache, so
 * a run of n models reads and parses each companion once instead of n times. Give one to
 * ue_model_options.cache; it may be shared by threads converting at once. Files read through
 * it are not read again: make a new cache when they may have changed. */
typedef struct ue_cache ue_cache;
/* NULL when out of memory (conversion then reads companions per model, as without a cache). */
UE_API ue_cache *ue_cache_new(void);
UE_API void ue_cache_free(ue_cache *c);

/* ---- parallel work ----------------------------------------------------------------------- */

/* Calls fn(ctx, i) for every i below n, in order of i, on up to `threads` threads (the
 * caller's included, at most UE_PARALLEL_MAX_THREADS) and returns when all are done; fn must
 * not touch what another index touches without its own lock. A loop started from inside
 * another loop that runs on several threads runs on its caller's thread alone, so nested work
 * (a model's clips inside convert's jobs) never asks for more threads than the outer loop has. */
#define UE_PARALLEL_MAX_THREADS 64
UE_API void ue_parallel_for(size_t n, size_t threads, void (*fn)(void *ctx, size_t i), void *ctx);

/* ---- hashing ----------------------------------------------------------------------------- */

/* XXH64 of n bytes; manifests record it to detect edited payloads (not a security hash). */
UE_API uint64_t ue_xxh64(const void *data, size_t n, uint64_t seed);
/* Seed 0, as 16 lower-case hex digits (17 bytes incl. NUL), as `xxhsum -H64` prints it. */
UE_API void ue_xxh64_hex(const void *data, size_t n, char out[17]);
UE_API void ue_xxh64_format(uint64_t hash, char out[17]);

/* ---- small text helpers ------------------------------------------------------------------ */

/* Windows-1251 (the Parkan tools' code page) to UTF-8, NUL-terminated; stops before a
 * character that would not fit whole. Returns the output length. */
UE_API size_t ue_cp1251_to_utf8(const char *in, char *out, size_t out_size);
/* UTF-8 to Windows-1251, for names stored in Parkan files. UE_ERR_INVALID when `in` is not
 * well-formed UTF-8 or holds a character the code page lacks: *bad_char is then that code
 * point (UINT32_MAX for malformed bytes) and *bad_offset its byte offset in `in` (both may be
 * NULL); UE_ERR_USAGE when out_size is too small. On success *out_len (may be NULL) is the
 * length without the NUL. */
UE_API ue_result ue_utf8_to_cp1251(const char *in, char *out, size_t out_size, size_t *out_len,
                                   uint32_t *bad_char, size_t *bad_offset);
/* An archive entry name as ue_entry_info shows it (bytes outside printable ASCII escaped as
 * \xNN) in UTF-8: escaped bytes 0x80–0xFF are Windows-1251 characters, as in every Parkan
 * container; escapes of control bytes and "\\" stay as they are. Returns the output length. */
UE_API size_t ue_entry_name_to_utf8(const char *shown, char *out, size_t out_size);

#ifdef __cplusplus
}
#endif
#endif
