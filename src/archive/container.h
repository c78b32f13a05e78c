/* unearth internal — the contract each container format implements so that archive.c can
 * list, extract, pack, validate and re-encode it without knowing its layout. */
#ifndef UE_CONTAINER_INTERNAL_H
#define UE_CONTAINER_INTERNAL_H


#include "unearth/advanced/archive.h"
#include "unearth/archive.h"
#include "unearth/common.h"
#include "common/io.h"
#include "common/json_doc.h"
#include "common/json_writer.h"

typedef struct ue_container_ops {
    const char *name;         /* "nres"; also the manifest's "format" value */
    const char *description;  /* "Parkan NRes archive" */
    bool (*probe)(const uint8_t *head, size_t head_size, uint64_t total_size);
    /* Parses the directory; payloads stay in `src` (which outlives the state). */
    ue_result (*open)(const ue_source *src, ue_mode mode, void **state, ue_diag *d);
    void (*close)(void *state);
    size_t (*count)(const void *state);
    void (*entry)(const void *state, size_t i, ue_entry_info *info);
    /* Engine-equivalent name lookup; false if absent. */
    bool (*find)(const void *state, const char *name, size_t *index);
    /* Decoded payload (malloc'd). */
    ue_result (*read)(void *state, size_t i, uint8_t **data, size_t *size, ue_diag *d);
    /* Optional: the same bytes lent where they lie when the entry is stored and the source is
     * memory (*to_free NULL, valid while the source lives), else a decoded buffer handed
     * over in *to_free (== *data). Same diagnostics as `read`. NULL: read is used. */
    ue_result (*borrow)(void *state, size_t i, const uint8_t **data, size_t *size,
                        uint8_t **to_free, ue_diag *d);
    /* Header fields for `info --json`: one value (an object) written into `w`. */
    void (*info_json)(const void *state, ue_json *w);
    /* Every field of entry i for `list --json`: one object written into `w`. */
    void (*entry_json)(const void *state, size_t i, ue_json *w);
    /* Writes payloads and whatever else a byte-exact rebuild needs into the outdir, and the
     * manifest body's members into `w`, inside the top-level object after "unearth_manifest",
     * "format" and "source" (archive.c writes those and the file). */
    ue_result (*extract)(void *state, ue_outdir *o, ue_json *w, ue_diag *d);
    /* Rebuilds from manifest.json, read once into an arena document (common/json_doc.h: a
     * jansson tree of a 20,000-entry manifest cost more than the copy of its payloads), and
     * the directory it lives in; `opt` is never NULL. Every container reads its fields through
     * the ue_jv_* and ue_manifest_* helpers below, so all of them report alike. */
    ue_result (*pack)(const ue_jv *manifest, const char *dir, const ue_pack_options *opt,
                      ue_buf *out, ue_diag *d);
    /* Optional: the same, streamed into a sink (used for files, so payloads are copied file to
     * file instead of being held in memory). */
    ue_result (*pack_to)(const ue_jv *manifest, const char *dir, const ue_pack_options *opt,
                         ue_sink *out, ue_diag *d);
    /* Optional (ue_archive_put_many): the container parsed again from `src` in strict mode,
     * each entry (UTF-8 name) replaced where it is or added last, in order, written once to
     * `out`; *added counts the added ones. */
    ue_result (*put)(const ue_source *src, const ue_archive_put_entry *entries, size_t count,
                     ue_buf *out, size_t *added, ue_diag *d);
    /* Serialises the parsed model again (lossless writer). */
    ue_result (*reencode)(void *state, ue_buf *out, ue_diag *d);
    /* Optional: after pack, the manifest's descriptive keys that only the packed archive can
     * tell (an NRes entry's "nested") compared with it, opened strictly in `state`. */
    void (*check_packed_keys)(const void *state, const ue_jv *manifest, ue_diag *d);
    /* Deep checks beyond open (decode every entry, ordering rules, ...); may be NULL. */
    ue_result (*validate)(void *state, ue_diag *d);
    /* Optional: a strict extract follows validation and the model walk, which reads the
     * entries `walked` says (ue_archive_extract_follows): validation may leave to the extract
     * the checks it makes too, and keep what it reads for the walk and the extract. */
    void (*extract_follows)(void *state, bool (*walked)(const ue_entry_info *info));
    /* Optional: how many entries the container has decoded so far (LZSS streams undone), for
     * ue_archive_count_reads; NULL for a format that stores its entries as they are. */
    size_t (*decoded)(const void *state);
    /* Tells the format the container's file name without directory and extension (FSYS
     * derives fallback entry names from it); may be NULL. */
    void (*set_source_name)(void *state, const char *stem);
    /* The format stores no entry names: every name `entry` gives is unearth's own (a PKX's
     * "model.dat", a standalone LZSS file's "decoded.EXT"), so it names nothing of the user's. */
    bool names_made_up;
} ue_container_ops;

/* The container formats of every family, in probe order: the i-th, or NULL past the last.
 * Defined above the families, by the table of src/registry/families.c, and reached at link
 * time: this layer names no family (docs/architecture.md, "Adding a family"). */
const ue_container_ops *ue_container_format(size_t i);

/* ---- helpers shared by the formats' extract/pack --------------------------------------- */

/* "0007_A_L_01.msh": index, then the UTF-8 name with path separators, controls, bytes that
 * are not UTF-8 and ASCII punctuation other than ._-+# and space replaced by '_' (letters of
 * every script stay). `fallback_ext` is appended when nothing is left of the name. */
void ue_entry_file_name(size_t index, const char *name, const char *fallback_ext, char *out,
                        size_t out_size);
/* Escapes non-printable bytes as \xNN, stopping at the first NUL or at n bytes (names whose
 * encoding is unknown: FSYS). */
void ue_printable_name(const uint8_t *raw, size_t n, char *out, size_t out_size);
/* The inverse: printable ASCII with \xNN and \\ escapes to at most cap non-NUL bytes. False
 * (nothing reported) for other characters, bad escapes, NUL bytes or a name over cap bytes. */
bool ue_printable_name_parse(const char *text, uint8_t *out, size_t cap, size_t *len);
/* A Parkan entry name (Windows-1251 bytes, up to the first NUL or n) as UTF-8 text: controls,
 * 0x98 (no character) and '\' stay escaped as \xNN and \\, so the text maps back to the bytes. */
void ue_cp1251_entry_name(const uint8_t *raw, size_t n, char *out, size_t out_size);
/* The inverse, also taking the all-escaped form older manifests hold: UTF-8 text with \xNN and
 * \\ escapes to at most cap CP1251 bytes. UE_ERR_INVALID (with a diagnostic at `where` naming
 * the character; none when d is NULL) for malformed UTF-8 or escapes and characters CP1251
 * lacks; UE_ERR_USAGE when the bytes do not fit. */
ue_result ue_cp1251_name_parse(const char *text, uint8_t *out, size_t cap, size_t *len,
                               const char *where, ue_diag *d);
/* pack's rule for a Parkan entry's stored name: `raw` (raw_size bytes, from "name_hex" when
 * have_raw) is kept while the manifest's "name" text still names it; an edited name is stored
 * as CP1251 (1..max_len bytes, zero-padded) and sets *renamed; a name that cannot be stored
 * is an error naming the entry (`where`) and why. */
ue_result ue_manifest_cp1251_name(const char *text, bool have_raw, uint8_t *raw, size_t raw_size,
                                  size_t max_len, const char *where, bool *renamed, ue_diag *d);

/* The LZSS level a pack encodes with: the caller's opt->level when given (the command line
 * wins), else `manifest_level` (the manifest's "lzss_level" or the format's default), capped at 9. */
int ue_pack_level(const ue_pack_options *opt, uint32_t manifest_level);

/* True when `dir` holds an unearth manifest and only the files it names: a previous extract
 * output, which `extract -f` may replace (the ue_outdir_owner test). */
bool ue_manifest_dir_is_extract(const char *dir, void *unused);
/* What stat said of each entry's payload file, taken by two threads before pack walks the
 * entries in order: a hint that ue_manifest_file_path_hinted_jv uses instead of its own stat
 * (on a 20,000-entry manifest the stats are a fifth of pack). Entries whose path is not valid
 * have no hint and are judged by the serial walk as before. */
typedef struct ue_manifest_stat ue_manifest_stat;
typedef struct ue_manifest_stats {
    ue_manifest_stat *items;
    size_t count;
} ue_manifest_stats;
ue_result ue_manifest_prestat_jv(const char *dir, const ue_jv *entries, const char *key,
                                 ue_manifest_stats *out);
void ue_manifest_stats_free(ue_manifest_stats *s);
/* The full path of the file a manifest entry names (`key`), and its size, without reading it;
 * entry i's stat is taken from `hints` (may be NULL) when it has one. */
ue_result ue_manifest_file_path_hinted_jv(const char *dir, const ue_jv *entry, const char *key,
                                          const ue_manifest_stats *hints, size_t i,
                                          char **path, uint64_t *size, ue_diag *d);
/* Loads the file a manifest entry names (`key`) from `dir`; `*changed` tells whether its XXH64
 * differs from the entry's recorded "xxh64" (true when none is recorded). */
ue_result ue_manifest_load_file_jv(const char *dir, const ue_jv *entry, const char *key,
                                   size_t cap, uint8_t **data, size_t *size, bool *changed,
                                   ue_diag *d);
/* Typed getters that report "manifest/entries[3]: "attr1" missing or not a non-negative
 * integer" at `where` (nothing when `where` is NULL). */
bool ue_jv_u32(const ue_jv *obj, const char *key, uint32_t *out, const char *where, ue_diag *d);
bool ue_jv_u64(const ue_jv *obj, const char *key, uint64_t *out, const char *where, ue_diag *d);
/* Hex-encoded byte field of exactly `n` bytes (n = 0: any length ≤ cap, length in *len). */
bool ue_jv_hex(const ue_jv *obj, const char *key, uint8_t *out, size_t n, size_t *len,
               const char *where, ue_diag *d);
/* A hex field of at most `cap` bytes into a new buffer; false when absent or not hex. */
bool ue_jv_hex_alloc(const ue_jv *obj, const char *key, size_t cap, uint8_t **out, size_t *n);

/* ---- every manifest key is honoured or named (docs/architecture.md#manifests) ---------------
 * `where` is the structure path ("manifest/entries[3]"), `entry` the entry's name as the
 * manifest gives it (NULL for a part that is not an entry): every message names both. */

/* A warning for each key of `obj` that is not in `known` (NULL-terminated): pack ignores such
 * a key, and a hand edit under a misspelled key ("nmae") would otherwise vanish in silence.
 * The nearest known key is suggested. */
void ue_manifest_unknown_keys_jv(const ue_jv *obj, const char *const *known, const char *where,
                                 const char *entry, ue_diag *d);
/* True when the file at `path` still holds the bytes whose XXH64 extract recorded (`xxh64`,
 * 16 hex digits): an edited size key is then told from an edited payload. False when it cannot
 * be read or nothing is recorded. */
bool ue_manifest_file_unchanged(const char *path, const char *xxh64);
/* A scalar value as the messages show it (strings quoted, as printable text); "nothing" for
 * NULL. */
void ue_jv_show(const ue_jv *v, char *out, size_t out_size);
/* The warning for an informational key (one pack does not read, because it describes what pack
 * writes) that holds `given` where pack wrote `written`: says so and what to change instead. */
void ue_manifest_informational(const char *where, const char *entry, const char *key,
                               const char *given, const char *written, const char *advice,
                               ue_diag *d);
/* The same for a whole informational block (PKX "metadata", a bare LZSS "header"): `given` is
 * compared with what `ops->info_json` says of the `packed` bytes; each leaf that differs is
 * reported (the first few, then a count), each key the written block lacks is an unknown key.
 * Keys in `skip` (at any depth) are not compared: those pack reads, and those an edited
 * payload changes. */
void ue_manifest_check_info(const ue_container_ops *ops, const uint8_t *packed,
                            size_t size, const ue_jv *given, const char *key,
                            const char *const *skip, const char *advice, ue_diag *d);
/* Bytes as a string of lower-case hex digits (null when out of memory); their XXH64 as 16. */
void ue_json_hex(ue_json *w, const uint8_t *p, size_t n);
void ue_json_xxh64(ue_json *w, const uint8_t *p, size_t n);

/* ---- lending bytes instead of copying them (validate and the model walk) ----------------
 * Ownership: a mapped archive owns its mapping; an archive opened on a view owns nothing and
 * must be closed before the bytes it was opened on go away; a borrowed entry lives as long as
 * the archive it came from, a decoded one (to_free) is the caller's (docs/architecture.md). */

/* ue_archive_open_memory without the copy: `data` is borrowed and must stay alive and
 * unchanged until ue_archive_close. */
ue_result ue_archive_open_view(const uint8_t *data, size_t size, const char *display_name,
                               ue_mode mode, ue_archive **out, ue_diag *d);
/* Entry i's decoded bytes as ue_archive_read gives them, lent when they can be (see the op
 * `borrow`): free(*to_free) when done, whatever the result. */
ue_result ue_archive_borrow(ue_archive *a, size_t i, const uint8_t **data, size_t *size,
                            uint8_t **to_free, ue_diag *d);

/* What reading one input cost, counted as it goes: each layer should be read once
 * (docs/architecture.md#one-read-per-input). */
typedef struct ue_read_stats {
    size_t opened;   /* containers parsed: the input and every nested one opened for it */
    size_t decoded;  /* entries whose bytes were decoded (LZSS streams undone) */
} ue_read_stats;

/* Counts into `stats` (NULL: stops counting) what `a` and the containers opened inside it by
 * ue_archive_validate_visit read from now on; `a` itself counts as one container opened.
 * Decodes are added when each container closes. */
void ue_archive_count_reads(ue_archive *a, ue_read_stats *stats);
/* ue_archive_extract_follows, with the model walk's choice of the entries it reads. */
void ue_archive_extract_follows_walk(ue_archive *a, bool (*walked)(const ue_entry_info *info));

/* Where `a` counts its reads, or NULL: the walk counts the containers it opens there too. */
ue_read_stats *ue_archive_read_stats(const ue_archive *a);

/* The entries ue_archive_validate_visit reads, lent to a caller that walks them too (the model
 * walk: docs/architecture.md#one-read-per-input), so that nothing is read twice. */
typedef struct ue_entry_visitor {
    /* Whether an entry that holds no container (which validation does not read) is to be read
     * and lent too: an HSD .dat of an FSYS. */
    bool (*wants)(const ue_entry_info *info);
    /* Entry `info` of `a`, lent before its nested container (if any) is checked; returns the
     * frame under which the inner container's entries are visited, or NULL to visit none. */
    void *(*enter)(void *frame, ue_archive *a, const ue_entry_info *info, const uint8_t *data,
                   size_t size);
    /* After the inner container's check: `child` is what enter returned (non-NULL). */
    void (*leave)(void *frame, void *child);
    /* Set when an entry the visitor would have been lent was not read (a limit reached, the
     * nesting bound): its walk is then not complete. */
    bool incomplete;
} ue_entry_visitor;

/* ue_archive_validate, lending each entry it reads to `v`, from the top frame `frame`: every
 * nested container (before it is checked), and the entries `v->wants`. Diagnostics and result
 * are ue_archive_validate's. */
ue_result ue_archive_validate_visit(ue_archive *a, ue_entry_visitor *v, void *frame, ue_diag *d);

/* The bytes a companion option names (convert --wear, --anims): a file, or ENTRY of the archive
 * (or chain) before the last ':' when no file has the whole name; at most `cap` bytes. */
ue_result ue_archive_read_address(const char *address, ue_mode mode, size_t cap, uint8_t **data,
                                  size_t *size, ue_diag *d);

/* The whole outer input as a read-only view (see ue_source_view): what ue_archive_bytes would
 * return, without reading bytes no one looks at. Release with ue_archive_unview. */
ue_result ue_archive_view(const ue_archive *a, const uint8_t **view, size_t *size);
void ue_archive_unview(const ue_archive *a, const uint8_t *view);

/* Whether the names of a's entries are made up by unearth (names_made_up above). */
bool ue_archive_names_made_up(const ue_archive *a);
/* How much of a's display name ("a.fsys:c.lzss:decoded.pkx") names it: the name without the
 * made-up entries at its end ("a.fsys:c.lzss"), as the chain it was opened through says. */
size_t ue_archive_title_length(const ue_archive *a);

#endif
