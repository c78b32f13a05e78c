/* unearth — format-neutral access to every container (NRes, RsLi, FSYS, PKX): detect, list,
 * read, extract with a manifest, pack from a manifest, and prove round-trips. */
#ifndef UNEARTH_ARCHIVE_H
#define UNEARTH_ARCHIVE_H

#include "unearth/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One entry as every container can describe it. Format-specific fields go to the JSON views. */
typedef struct ue_entry_info {
    size_t index;
    char name[256];        /* as text: Parkan CP1251 in UTF-8, other bytes escaped as \xNN */
    char type[24];         /* "Texm", "0x00000001", "pkx", ... */
    uint64_t offset;       /* where the stored bytes start in the container */
    uint64_t stored_size;  /* bytes occupied in the container */
    uint64_t size;         /* decoded payload size */
    char method[16];       /* "stored", "lzss", "xor+lzss", "lzhuf", "deflate", ... */
    bool damaged;          /* tolerant mode only: the entry cannot be read */
    char nested[16];       /* format of the payload when it is itself a container, else "" */
} ue_entry_info;

typedef struct ue_archive ue_archive;

/* Opens a container from a file. `path` may address an entry inside a container with
 * "OUTER:ENTRY" (repeatable: "a.fsys:b.pkx"); the inner payload is then opened from memory.
 * The archive keeps the file open and reads payloads on demand until ue_archive_close, which
 * releases everything it holds; `path` is copied. On failure *out is NULL. */
UE_API ue_result ue_archive_open(const char *path, ue_mode mode, ue_archive **out, ue_diag *d);
/* Opens a container held in memory. The bytes are copied, so the caller may free `data` as
 * soon as the call returns; close the archive with ue_archive_close. */
UE_API ue_result ue_archive_open_memory(const void *data, size_t size, const char *display_name,
                                        ue_mode mode, ue_archive **out, ue_diag *d);
UE_API void ue_archive_close(ue_archive *a);

UE_API const char *ue_archive_format(const ue_archive *a); /* "nres", "rsli", ... */
UE_API size_t ue_archive_count(const ue_archive *a);
UE_API void ue_archive_entry(const ue_archive *a, size_t i, ue_entry_info *info);
/* Finds an entry by name as the format's engine would; UE_ERR_INVALID if absent. */
UE_API ue_result ue_archive_find(const ue_archive *a, const char *name, size_t *index);
/* Decoded payload of entry i (caller frees with free()). */
UE_API ue_result ue_archive_read(ue_archive *a, size_t i, uint8_t **data, size_t *size, ue_diag *d);

/* JSON text (caller frees with free()): `info` = header fields and summary,
 * `list` = array of entries with every format-specific field. */
UE_API char *ue_archive_info_json(const ue_archive *a);
UE_API char *ue_archive_list_json(const ue_archive *a);

/* Writes every payload and manifest.json into `dir` (created as a unit: no partial directory on
 * failure). In tolerant mode damaged entries are listed in the manifest and skipped. */
UE_API ue_result ue_archive_extract(ue_archive *a, const char *dir, bool overwrite, ue_diag *d);
/* Rebuilds a container from an extracted directory and appends it to `out` (the caller's
 * buffer). Unchanged payloads reproduce the original bytes exactly; changed or added payloads
 * give a valid container. */
UE_API ue_result ue_archive_pack(const char *dir, ue_buf *out, ue_diag *d);
/* The same into a file that appears whole (temp + rename); formats that can stream (NRes) copy
 * payload files into it without holding the archive in memory. */
UE_API ue_result ue_archive_pack_file(const char *dir, const char *path, bool overwrite, ue_diag *d);

/* How pack encodes the entries it has to compress again (edited or added payloads; unchanged
 * ones keep their stored bytes whatever is asked here). */
#define UE_PACK_LEVEL_MANIFEST (-1)
typedef struct ue_pack_options {
    /* 0..9: the LZSS/LZHUF effort for every entry compressed again (FSYS, standalone GameCube
     * LZSS, RsLi LZSS and LZHUF entries), over the manifest's "lzss_level";
     * UE_PACK_LEVEL_MANIFEST: the manifest's value, else the format's default (what
     * ue_archive_pack does). Formats with nothing to compress (NRes, PKX) ignore it. */
    int level;
    /* What pack does with an archive its strict validation would reject (a damaged archive
     * extracted with --tolerant, or a manifest edit that breaks it): UE_MODE_STRICT refuses it
     * and writes nothing; UE_MODE_TOLERANT writes it, every finding a warning. */
    ue_mode mode;
} ue_pack_options;
/* ue_archive_pack and ue_archive_pack_file with options (NULL = the defaults above). */
UE_API ue_result ue_archive_pack_opts(const char *dir, const ue_pack_options *opt, ue_buf *out,
                                      ue_diag *d);
UE_API ue_result ue_archive_pack_file_opts(const char *dir, const char *path, bool overwrite,
                                           const ue_pack_options *opt, ue_diag *d);

/* The container's own bytes as opened (for OUTER:ENTRY, the decoded entry); caller frees. */
UE_API ue_result ue_archive_bytes(const ue_archive *a, uint8_t **data, size_t *size);
/* Appends the lossless re-encoding of the parsed container to `out` (the caller's buffer); the
 * caller compares it with ue_archive_bytes. An unchanged container comes out byte-identical. */
UE_API ue_result ue_archive_reencode(ue_archive *a, ue_buf *out, ue_diag *d);
/* Appends to `out` a copy of the container as opened (for OUTER:ENTRY, the inner one) in which
 * entry `name` (UTF-8, found as the format's engine finds names) holds `data`: an entry of that
 * name is replaced where it is (same directory index, same type), an absent one is added last,
 * and a sort table is rebuilt. A changed archive is written in the engine's layout: payloads in
 * directory order (NRes: 8-aligned, zero padding, docs/formats/nres.md#data-region; an NRes region of non-zero bytes
 * outside every entry goes right after the payload it followed, first if none did; an RsLi
 * holding such bytes is refused, UE_ERR_UNSUPPORTED). The kind of an added entry comes from
 * what `data` is (NRes: 'MESH' for a Parkan model, 'Texm' for a texture; other bytes are
 * refused); a replaced NRes entry whose type says what it holds ('MESH', 'Texm', 'WEAR', 'MAT0',
 * 'NRes') takes only bytes that may be that (UE_ERR_USAGE otherwise). Bytes equal to the
 * entry's give the archive byte for byte. Strict only: the archive is read again in strict
 * mode, and one opened tolerant with damaged entries is refused (UE_ERR_INVALID) rather than
 * written with entries missing their bytes. `a` itself is not changed. *added tells which
 * happened. NRes, RsLi, FSYS and PKX: UE_ERR_UNSUPPORTED for the other formats; UE_ERR_USAGE for
 * a name the format cannot store and for an NRes that is a Parkan model (edit those with the MSH
 * API). FSYS and PKX only replace (an absent name is UE_ERR_USAGE): an FSYS entry keeps its id,
 * type code, names and record, is LZSS-compressed again when it was, and a changed FSYS is
 * written by the canonical writer (ue_fsys_write, as `pack` writes an edited manifest; other
 * entries keep their stored bytes); a PKX's model.dat or particles.gpt1 is re-wrapped in its
 * frame (ue_pkx_rewrap). */
UE_API ue_result ue_archive_put(const ue_archive *a, const char *name, const void *data, size_t size,
                                ue_buf *out, bool *added, ue_diag *d);
/* One entry of ue_archive_put_many. */
typedef struct ue_archive_put_entry {
    const char *name; /* UTF-8 */
    const void *data;
    size_t size;
} ue_archive_put_entry;
/* ue_archive_put of several entries in one rebuild, in order (a later entry of the same name
 * replaces an earlier one's bytes): the archive is parsed and written once, whatever `count`.
 * *added counts the entries added rather than replaced. */
UE_API ue_result ue_archive_put_many(const ue_archive *a, const ue_archive_put_entry *entries, size_t count,
                                     ue_buf *out, size_t *added, ue_diag *d);
/* Runs every check the format knows (decoding each entry, nested containers included). */
UE_API ue_result ue_archive_validate(ue_archive *a, ue_diag *d);

/* Names of the formats a byte prefix looks like ("" if none). */
UE_API const char *ue_detect_format(const uint8_t *head, size_t head_size, uint64_t total_size);

#ifdef __cplusplus
}
#endif
#endif
