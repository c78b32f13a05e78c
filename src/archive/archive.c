/* unearth — the format-neutral archive layer: detection, "OUTER:ENTRY" addressing, extract
 * with manifest.json, pack dispatch by the manifest's format, and recursive validation. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/container.h"
#include "common/io.h"
#include "common/text.h"
#include "unearth/advanced/buffers.h"

/* A chain like "a.fsys:b.pkx:c" is followed at most this deep. */
#define MAX_NESTING 8
#define MANIFEST_VERSION 1

struct ue_archive {
    const ue_container_ops *ops;
    void *state;
    ue_source src;            /* what the format reads: the file, its mapping, or memory */
    uint8_t *memory;          /* owned bytes when opened from memory or from an outer entry */
    bool file_source;
    ue_source file;           /* the open file when file_source (src is a copy or its mapping) */
    const uint8_t *map;       /* the whole file mapped read-only (ue_archive_open_mapped), or NULL */
    char display[512];
    size_t title_length;      /* of display: what names it (ue_archive_title_length) */
    ue_mode mode;
    uint64_t root_size;       /* size of the outermost input: what bounded work is measured by */
    ue_read_stats *stats;     /* what reading this input cost, or NULL (ue_archive_count_reads) */
};

/* The containers come from the families' table (ue_container_format), in its probe order:
 * it matters only when two formats could claim the same bytes. */
static const ue_container_ops *find_ops(const char *name) {
    const ue_container_ops *ops;
    for (size_t i = 0; (ops = ue_container_format(i)); i++)
        if (strcmp(ops->name, name) == 0) return ops;
    return NULL;
}

const char *ue_detect_format(const uint8_t *head, size_t head_size, uint64_t total_size) {
    const ue_container_ops *ops;
    for (size_t i = 0; (ops = ue_container_format(i)); i++)
        if (ops->probe(head, head_size, total_size)) return ops->name;
    return "";
}

static ue_result open_source(ue_archive *a, ue_diag *d) {
    uint8_t head[256]; /* PKX detection needs the words at 0x40 and up to 0x84 */
    size_t take = a->src.size < sizeof head ? (size_t)a->src.size : sizeof head;
    if (ue_source_read(&a->src, 0, head, take) != UE_OK) return UE_ERR_IO;
    const char *fmt = ue_detect_format(head, take, a->src.size);
    a->ops = fmt[0] ? find_ops(fmt) : NULL;
    if (!a->ops) {
        /* Show only bytes the file has: a 2-byte file must not seem to hold four. */
        char shown[16] = "";
        for (size_t i = 0; i < take && i < 4; i++)
            snprintf(shown + strlen(shown), sizeof shown - strlen(shown), "%s%02x", i ? " " : "",
                     head[i]);
        if (take == 0)
            ue_diag_add(d, UE_SEV_ERROR, "archive.unknown", 0, a->display,
                        "not a container unearth knows (the file is empty)");
        else /* a glTF is met here when the newcomer runs convert/validate on what import reads */
            ue_diag_add(d, UE_SEV_ERROR, "archive.unknown", 0, a->display,
                        "not a container unearth knows (first bytes %s)%s", shown,
                        take >= 4 && !memcmp(head, "glTF", 4)
                            ? "; a glTF file: to bring it into a Parkan model use `unearth import`"
                            : "");
        return UE_ERR_INVALID;
    }
    ue_result r = a->ops->open(&a->src, a->mode, &a->state, d);
    if (r == UE_OK && a->ops->set_source_name) {
        /* "dir/a.fsys:b.pkx" → "b"; "dir/pokemon.fsys" → "pokemon". */
        const char *base = a->display;
        for (const char *p = a->display; *p; p++)
            if (*p == '/' || *p == ':') base = p + 1;
        char stem[256];
        snprintf(stem, sizeof stem, "%s", base);
        char *dot = strrchr(stem, '.');
        if (dot && dot != stem) *dot = 0;
        a->ops->set_source_name(a->state, stem);
    }
    return r;
}

/* Opens `size` bytes at `bytes`; `owned` (malloc'd, or NULL for a borrowed view that must
 * outlive the archive) is taken over even on failure: nested entries read for validation or
 * for an OUTER:ENTRY chain are opened where they were read or where they lie, without a copy. */
static ue_result open_bytes(const uint8_t *bytes, size_t size, uint8_t *owned,
                            const char *display_name, ue_mode mode, ue_archive **out, ue_diag *d) {
    *out = NULL;
    ue_archive *a = calloc(1, sizeof *a);
    if (!a) {
        free(owned);
        return UE_ERR_NOMEM;
    }
    a->memory = owned;
    a->src = ue_source_memory(bytes, size);
    a->mode = mode;
    a->root_size = size;
    snprintf(a->display, sizeof a->display, "%s", display_name ? display_name : "memory");
    a->title_length = strlen(a->display);
    ue_result r = open_source(a, d);
    if (r != UE_OK) {
        free(a->memory);
        free(a);
        return r;
    }
    *out = a;
    return UE_OK;
}

static ue_result open_owned(uint8_t *memory, size_t size, const char *display_name, ue_mode mode,
                            ue_archive **out, ue_diag *d) {
    return open_bytes(memory, size, memory, display_name, mode, out, d);
}

ue_result ue_archive_open_view(const uint8_t *data, size_t size, const char *display_name,
                               ue_mode mode, ue_archive **out, ue_diag *d) {
    return open_bytes(data, size, NULL, display_name, mode, out, d);
}

ue_result ue_archive_open_memory(const void *data, size_t size, const char *display_name,
                                 ue_mode mode, ue_archive **out, ue_diag *d) {
    *out = NULL;
    uint8_t *copy = ue_malloc_items(size, 1);
    if (!copy) return UE_ERR_NOMEM;
    if (size) memcpy(copy, data, size);
    return open_owned(copy, size, display_name, mode, out, d);
}

/* Bounded work: an entry read to be opened as a container may not claim more decoded bytes
 * than the cap allows for the outermost input (the copy made to open it counts once more). */
static bool within_decode_cap(const ue_archive *a, size_t i, uint64_t root_size, ue_diag *d) {
    ue_entry_info info;
    ue_archive_entry(a, i, &info);
    size_t cap = ue_cap_decoded(root_size);
    if (info.size <= cap) return true;
    ue_diag_add(d, UE_SEV_ERROR, "archive.limit", info.offset, info.name,
                "entry claims %llu decoded bytes, more than the %zu bytes allowed for a "
                "%llu-byte input", (unsigned long long)info.size, cap,
                (unsigned long long)root_size);
    return false;
}

/* A file read with pread, or (`mapped`) through one read-only mapping of the whole file, so
 * that stored entries can be lent out where they lie. A file that cannot be mapped (empty, or
 * mmap refused) is read with pread; either way the diagnostics are the same. */
static ue_result open_file(const char *path, ue_mode mode, bool mapped, ue_archive **out,
                           ue_diag *d) {
    ue_archive *a = calloc(1, sizeof *a);
    if (!a) return UE_ERR_NOMEM;
    a->mode = mode;
    a->file_source = true;
    snprintf(a->display, sizeof a->display, "%s", path);
    a->title_length = strlen(a->display);
    ue_result r = ue_source_open_file(path, &a->file, d);
    a->src = a->file;
    if (r == UE_OK && mapped && ue_source_view(&a->file, &a->map) == UE_OK)
        a->src = ue_source_memory(a->map, (size_t)a->file.size);
    a->root_size = a->src.size;
    if (r == UE_OK) r = open_source(a, d);
    if (r != UE_OK) {
        ue_source_unview(&a->file, a->map);
        ue_source_close(&a->file);
        free(a);
        return r;
    }
    *out = a;
    return UE_OK;
}

/* Splits "outer:inner" at the first ':' after which the outer part names an existing file. */
static ue_result open_chain(const char *path, ue_mode mode, bool mapped, ue_archive **out,
                            ue_diag *d) {
    *out = NULL;
    if (ue_path_exists(path) || !strchr(path, ':')) return open_file(path, mode, mapped, out, d);
    ue_address address;
    ue_result split = ue_address_split(path, 0, &address);
    if (split == UE_ERR_USAGE) return UE_ERR_USAGE;
    if (split != UE_OK) {
        ue_diag_add(d, UE_SEV_ERROR, "io.open", UE_NO_OFFSET, path, "no such file");
        return UE_ERR_IO;
    }
    /* The rest is a chain of entry names, each opened inside the one before. */
    const char *rest = address.entries;
    ue_archive *a;
    ue_result r = open_file(address.file, mode, mapped, &a, d);
    if (r != UE_OK) return r;
    for (int depth = 0; *rest; depth++) {
        if (depth >= MAX_NESTING) {
            ue_diag_add(d, UE_SEV_ERROR, "archive.nesting", UE_NO_OFFSET, a->display,
                        "containers nested more than %d deep are not followed", MAX_NESTING);
            ue_archive_close(a);
            return UE_ERR_INVALID;
        }
        char name[1024];
        const char *next = ue_address_next_entry(rest, name, sizeof name);
        size_t index;
        if (ue_archive_find_reported(a, name, &index, d) != UE_OK) {
            ue_archive_close(a);
            return UE_ERR_INVALID;
        }
        uint64_t root = a->root_size;
        uint8_t *data = NULL;
        size_t size = 0;
        r = within_decode_cap(a, index, root, d) ? ue_archive_read(a, index, &data, &size, d)
                                                 : UE_ERR_LIMIT;
        char display[512];
        snprintf(display, sizeof display, "%s:%s", a->display, name);
        /* An entry the container named itself names nothing: the title stays the container's. */
        size_t title = ue_archive_names_made_up(a) ? a->title_length : strlen(display);
        ue_archive_close(a);
        if (r != UE_OK) return r;
        r = open_owned(data, size, display, mode, &a, d);
        if (r != UE_OK) return r;
        a->root_size = root;
        if (title < a->title_length) a->title_length = title;
        rest = next ? next : "";
    }
    *out = a;
    return UE_OK;
}

ue_result ue_archive_open(const char *path, ue_mode mode, ue_archive **out, ue_diag *d) {
    return open_chain(path, mode, false, out, d);
}

ue_result ue_archive_open_mapped(const char *path, ue_mode mode, ue_archive **out, ue_diag *d) {
    return open_chain(path, mode, true, out, d);
}

void ue_archive_close(ue_archive *a) {
    if (!a) return;
    if (a->stats && a->ops && a->ops->decoded) a->stats->decoded += a->ops->decoded(a->state);
    if (a->ops && a->state) a->ops->close(a->state);
    if (a->file_source) {
        ue_source_unview(&a->file, a->map);
        ue_source_close(&a->file);
    }
    free(a->memory);
    free(a);
}

const char *ue_archive_format(const ue_archive *a) { return a->ops->name; }
bool ue_archive_names_made_up(const ue_archive *a) { return a->ops->names_made_up; }
size_t ue_archive_title_length(const ue_archive *a) { return a->title_length; }
size_t ue_archive_count(const ue_archive *a) { return a->ops->count(a->state); }
void ue_archive_entry(const ue_archive *a, size_t i, ue_entry_info *info) {
    a->ops->entry(a->state, i, info);
}

ue_result ue_archive_find(const ue_archive *a, const char *name, size_t *index) {
    if (a->ops->find && a->ops->find(a->state, name, index)) return UE_OK;
    /* Fall back to the names the CLI shows (UTF-8 for Parkan, escaped bytes for FSYS), then
     * to "#N" by index. */
    size_t n = ue_archive_count(a);
    ue_entry_info info;
    for (size_t i = 0; i < n; i++) {
        ue_archive_entry(a, i, &info);
        if (strcmp(info.name, name) == 0) {
            *index = i;
            return UE_OK;
        }
    }
    if (name[0] == '#' && name[1]) {
        char *end;
        unsigned long long v = strtoull(name + 1, &end, 10);
        if (*end == 0 && v < n) {
            *index = (size_t)v;
            return UE_OK;
        }
    }
    return UE_ERR_INVALID;
}

/* ---- near misses of an entry name ------------------------------------------------------ */

#define MAX_SUGGESTIONS 3

/* `s` without its last extension ("ROBOT.msh" → "ROBOT"), into out. */
static void name_stem(const char *s, char *out, size_t cap) {
    snprintf(out, cap, "%s", s);
    char *dot = strrchr(out, '.');
    if (dot && dot != out) *dot = 0;
}

/* How far `candidate` is from what was typed: the edits to the whole name, or to its stem when
 * the extension is missing (free) or another one (one more edit); one slip in three letters,
 * two at most, else SIZE_MAX: no near miss. */
static size_t name_distance(const char *typed, const char *candidate, bool fold_case) {
    char typed_stem[256], stem[256];
    name_stem(typed, typed_stem, sizeof typed_stem);
    name_stem(candidate, stem, sizeof stem);
    size_t len = strlen(typed), stem_len = strlen(typed_stem);
    size_t limit = len / 3 < 2 ? len / 3 : 2, stem_limit = stem_len / 3 < 2 ? stem_len / 3 : 2;
    size_t whole = ue_edit_distance(typed, candidate, fold_case, limit);
    size_t by_stem = ue_edit_distance(typed_stem, stem, fold_case, stem_limit);
    whole = whole > limit ? SIZE_MAX : whole;
    by_stem = by_stem > stem_limit ? SIZE_MAX : by_stem + (stem_len != len);
    return whole < by_stem ? whole : by_stem;
}

/* Letter case counts for nothing but the order: "ROBOT" puts ROBOT.msh before robot.wea. */
static size_t name_rank(const char *typed, const char *candidate) {
    size_t folded = name_distance(typed, candidate, true);
    if (folded == SIZE_MAX) return SIZE_MAX;
    return 2 * folded + (name_distance(typed, candidate, false) != folded);
}

typedef struct suggestion {
    size_t index, distance;
} suggestion;

/* Keeps the MAX_SUGGESTIONS closest, the earlier entry first among equals. */
static void keep_closest(suggestion *best, size_t *kept, suggestion s) {
    size_t at = *kept;
    while (at > 0 && best[at - 1].distance > s.distance) at--;
    if (at >= MAX_SUGGESTIONS) return;
    size_t last = *kept < MAX_SUGGESTIONS ? *kept : MAX_SUGGESTIONS - 1;
    memmove(best + at + 1, best + at, (last - at) * sizeof *best);
    best[at] = s;
    if (*kept < MAX_SUGGESTIONS) (*kept)++;
}

ue_result ue_archive_find_reported(const ue_archive *a, const char *name, size_t *index, ue_diag *d) {
    if (ue_archive_find(a, name, index) == UE_OK) return UE_OK;
    suggestion best[MAX_SUGGESTIONS];
    size_t kept = 0;
    for (size_t i = 0; i < ue_archive_count(a); i++) {
        ue_entry_info info;
        ue_archive_entry(a, i, &info);
        size_t rank = name_rank(name, info.name);
        if (rank != SIZE_MAX) keep_closest(best, &kept, (suggestion){i, rank});
    }
    char hint[600] = "";
    size_t at = 0;
    for (size_t k = 0; k < kept && at < sizeof hint; k++) {
        ue_entry_info info;
        ue_archive_entry(a, best[k].index, &info);
        int w = snprintf(hint + at, sizeof hint - at, "%s%s", k ? (k + 1 == kept ? " or " : ", ") : "; did you mean ",
                         info.name);
        at = w < 0 ? sizeof hint : at + (size_t)w;
    }
    ue_diag_add(d, UE_SEV_ERROR, "archive.entry.missing", UE_NO_OFFSET, a->display,
                "no entry named \"%s\"%s%s", name, hint, kept ? "?" : "");
    return UE_ERR_INVALID;
}

ue_result ue_archive_read_address(const char *address, ue_mode mode, size_t cap, uint8_t **data,
                                  size_t *size, ue_diag *d) {
    ue_address at;
    if (ue_address_split(address, 0, &at) == UE_ERR_USAGE) return UE_ERR_USAGE;
    if (!at.last_entry) return ue_file_read(address, cap, data, size, d);
    char archive[4096];
    if (at.parent_length >= sizeof archive) return UE_ERR_USAGE;
    snprintf(archive, sizeof archive, "%.*s", (int)at.parent_length, address);
    ue_archive *a;
    ue_result r = ue_archive_open(archive, mode, &a, d);
    if (r != UE_OK) return r;
    size_t index;
    r = ue_archive_find_reported(a, at.last_entry, &index, d);
    if (r == UE_OK) r = within_decode_cap(a, index, a->root_size, d) ? ue_archive_read(a, index, data, size, d)
                                                        : UE_ERR_LIMIT;
    ue_archive_close(a);
    return r;
}

ue_result ue_archive_read(ue_archive *a, size_t i, uint8_t **data, size_t *size, ue_diag *d) {
    *data = NULL;
    *size = 0;
    if (i >= ue_archive_count(a)) return UE_ERR_USAGE;
    return a->ops->read(a->state, i, data, size, d);
}

void ue_archive_extract_follows_walk(ue_archive *a, bool (*walked)(const ue_entry_info *info)) {
    if (a->mode == UE_MODE_STRICT && a->ops->extract_follows) a->ops->extract_follows(a->state, walked);
}

ue_result ue_archive_borrow(ue_archive *a, size_t i, const uint8_t **data, size_t *size,
                            uint8_t **to_free, ue_diag *d) {
    *data = NULL;
    *size = 0;
    *to_free = NULL;
    if (i >= ue_archive_count(a)) return UE_ERR_USAGE;
    if (a->ops->borrow) return a->ops->borrow(a->state, i, data, size, to_free, d);
    ue_result r = a->ops->read(a->state, i, to_free, size, d);
    *data = *to_free;
    return r;
}

/* The text `write` makes in the manifests' layout (jansson's JSON_INDENT(2), which the first
 * ones were written with), NUL-terminated in a malloc'd string; NULL when out of memory. */
static char *layout_text(const ue_archive *a, void (*write)(const ue_archive *a, ue_json *w)) {
    ue_buf text = {0};
    ue_json w;
    ue_json_init_lines(&w, &text);
    write(a, &w);
    ue_buf_put_u8(&text, 0);
    if (ue_json_finish(&w, NULL) != UE_OK || text.failed) {
        ue_buf_free(&text);
        return NULL;
    }
    return (char *)text.data;
}

void ue_archive_write_info_fields(const ue_archive *a, ue_json *w) {
    ue_json_key_string(w, "file", a->display);
    ue_json_key_string(w, "format", a->ops->name);
    ue_json_key_string(w, "description", a->ops->description);
    ue_json_key_int(w, "size", (int64_t)a->src.size);
    ue_json_key_int(w, "entry_count", (int64_t)ue_archive_count(a));
    ue_json_key(w, "header");
    a->ops->info_json(a->state, w);
}

void ue_archive_write_info(const ue_archive *a, ue_json *w) {
    ue_json_object_begin(w);
    ue_archive_write_info_fields(a, w);
    ue_json_object_end(w);
}

void ue_archive_write_entry(const ue_archive *a, size_t i, ue_json *w) { a->ops->entry_json(a->state, i, w); }

void ue_archive_write_list(const ue_archive *a, ue_json *w) {
    ue_json_array_begin(w);
    size_t n = ue_archive_count(a);
    for (size_t i = 0; i < n; i++) ue_archive_write_entry(a, i, w);
    ue_json_array_end(w);
}

char *ue_archive_info_json(const ue_archive *a) { return layout_text(a, ue_archive_write_info); }

char *ue_archive_list_json(const ue_archive *a) { return layout_text(a, ue_archive_write_list); }

/* manifest.json, written as the format produces it (no tree of 20,000 entries). */
static ue_result extract_manifest(ue_archive *a, ue_outdir *o, ue_diag *d) {
    ue_buf text = {0};
    ue_json w;
    ue_json_init_lines(&w, &text);
    ue_json_object_begin(&w);
    ue_json_key_int(&w, "unearth_manifest", MANIFEST_VERSION);
    ue_json_key_string(&w, "format", a->ops->name);
    ue_json_key(&w, "source");
    ue_json_object_begin(&w);
    ue_json_key_string(&w, "file", a->display);
    ue_json_key_int(&w, "size", (int64_t)a->src.size);
    ue_json_object_end(&w);
    ue_result r = a->ops->extract(a->state, o, &w, d);
    ue_json_object_end(&w);
    ue_buf_put_u8(&text, '\n');
    if (r == UE_OK) r = ue_json_finish(&w, d);
    if (r == UE_OK) r = ue_outdir_write(o, "manifest.json", text.data, text.size, d);
    ue_buf_free(&text);
    return r;
}

ue_result ue_archive_extract(ue_archive *a, const char *dir, bool overwrite, ue_diag *d) {
    ue_outdir o;
    const ue_outdir_owner previous_extract = {"a previous unearth extract output",
                                              ue_manifest_dir_is_extract, NULL};
    ue_result r = ue_outdir_begin(&o, dir, overwrite, &previous_extract, d);
    if (r != UE_OK) return r;
    r = extract_manifest(a, &o, d);
    if (r == UE_OK) return ue_outdir_commit(&o, d);
    ue_outdir_abort(&o);
    return r;
}

/* manifest.json as pack reads it, for every format: an arena document, and the format's ops
 * its "format" names. */
typedef struct loaded_manifest {
    const ue_container_ops *ops;
    ue_jdoc doc;
} loaded_manifest;

static void manifest_free(loaded_manifest *m) { ue_jdoc_free(&m->doc); }

static ue_result manifest_parse(const char *path, const uint8_t *text, size_t size,
                                loaded_manifest *m, ue_diag *d) {
    ue_jdoc_error err;
    ue_result r = ue_jdoc_parse((const char *)text, size, &m->doc, &err);
    if (r != UE_OK) {
        ue_diag_add(d, UE_SEV_ERROR, "manifest.parse", err.offset, path,
                    "line %zu, column %zu: %s", err.line, err.column, err.text);
        return r;
    }
    const char *fmt = ue_jv_string(ue_jv_get(&m->doc.root, "format"));
    m->ops = fmt ? find_ops(fmt) : NULL;
    if (!m->ops || !m->ops->pack) {
        ue_diag_add(d, UE_SEV_ERROR, "manifest.format", UE_NO_OFFSET, path,
                    "unknown or missing \"format\" (%s)", fmt ? fmt : "none");
        return UE_ERR_INVALID;
    }
    return UE_OK;
}

static ue_result load_manifest(const char *dir, loaded_manifest *m, ue_diag *d) {
    memset(m, 0, sizeof *m);
    char path[4096];
    int n = snprintf(path, sizeof path, "%s/manifest.json", dir);
    if (n < 0 || (size_t)n >= sizeof path) return UE_ERR_USAGE;
    uint8_t *text = NULL;
    size_t size = 0;
    ue_result r = ue_file_read(path, UE_CAP_ENTRY_BYTES, &text, &size, NULL);
    if (r != UE_OK) {
        int failed = errno;
        ue_diag_add(d, UE_SEV_ERROR, "manifest.parse", UE_NO_OFFSET, path, "cannot read: %s",
                    strerror(failed));
        return ue_path_exists(path) ? UE_ERR_INVALID : UE_ERR_IO;
    }
    r = manifest_parse(path, text, size, m, d);
    free(text);
    if (r != UE_OK) manifest_free(m);
    return r;
}

/* The packed bytes as an archive of format `ops`, read where they lie (the source outlives it). */
static ue_result open_packed(const ue_container_ops *ops, const ue_source *packed,
                             ue_archive **out, ue_diag *d) {
    *out = NULL;
    ue_archive *a = calloc(1, sizeof *a);
    if (!a) return UE_ERR_NOMEM;
    a->ops = ops;
    a->src = *packed;
    a->mode = UE_MODE_STRICT;
    a->root_size = packed->size;
    snprintf(a->display, sizeof a->display, "packed %s", ops->name);
    a->title_length = strlen(a->display);
    ue_result r = ops->open(&a->src, UE_MODE_STRICT, &a->state, d);
    if (r != UE_OK) {
        ue_archive_close(a);
        return r;
    }
    *out = a;
    return UE_OK;
}

/* The last line of "pack never writes an archive its own strict validation rejects": each
 * format checks the keys it reads and names them; whatever a manifest says that those checks
 * miss is caught here, on the packed bytes, before anything is put in place. The check is
 * ue_archive_validate's in strict mode (container, typed entries, nested containers), the one
 * `--into` runs on its copy; the models inside are `validate`'s business. */
static ue_result check_packed(const ue_container_ops *ops, const ue_source *packed,
                              const ue_jv *manifest, ue_mode mode, ue_diag *d) {
    ue_diag why = {0};
    ue_archive *a = NULL;
    ue_result r = open_packed(ops, packed, &a, &why);
    if (r == UE_OK && ops->check_packed_keys) ops->check_packed_keys(a->state, manifest, d);
    if (r == UE_OK) r = ue_archive_validate(a, &why);
    ue_archive_close(a);
    if (r == UE_OK) {
        ue_diag_free(&why);
        return UE_OK;
    }
    if (r == UE_ERR_NOMEM || r == UE_ERR_IO) {
        ue_diag_free(&why);
        return r;
    }
    if (mode == UE_MODE_TOLERANT) {
        /* Asked for: a damaged archive extracted --tolerant goes back as it was, said aloud. */
        ue_diag_add(d, UE_SEV_WARNING, "manifest.invalid", UE_NO_OFFSET, "manifest",
                    "the %s written fails strict validation (written as asked, --tolerant); "
                    "validate says of it:", ops->description);
        ue_diag_append(d, &why, UE_SEV_WARNING);
        ue_diag_free(&why);
        return UE_OK;
    }
    ue_diag_add(d, UE_SEV_ERROR, "manifest.invalid", UE_NO_OFFSET, "manifest",
                "the %s this manifest describes would fail strict validation, so pack writes "
                "nothing (--tolerant writes it anyway); validate would say of it:",
                ops->description);
    ue_diag_append(d, &why, UE_SEV_ERROR);
    ue_diag_free(&why);
    return UE_ERR_INVALID;
}

static ue_result pack_buf(const loaded_manifest *m, const char *dir, const ue_pack_options *opt,
                          ue_buf *out, ue_diag *d) {
    size_t base = out->size;
    ue_result r = m->ops->pack(&m->doc.root, dir, opt, out, d);
    if (r != UE_OK) return r;
    ue_source packed = ue_source_memory(out->data + base, out->size - base);
    r = check_packed(m->ops, &packed, &m->doc.root, opt->mode, d);
    if (r != UE_OK) out->size = base;
    return r;
}

/* The same check on a streamed pack: the temp file is read back before it is put in place. */
static ue_result check_packed_file(const loaded_manifest *m, ue_file_sink *f, ue_mode mode, ue_diag *d) {
    ue_source packed;
    ue_result r = ue_file_sink_read_back(f, &packed, d);
    if (r != UE_OK) return r;
    r = check_packed(m->ops, &packed, &m->doc.root, mode, d);
    ue_source_close(&packed);
    return r;
}

static const ue_pack_options default_pack = {UE_PACK_LEVEL_MANIFEST, UE_MODE_STRICT};

static ue_result check_pack_options(const ue_pack_options *opt, ue_diag *d) {
    if (opt->mode != UE_MODE_STRICT && opt->mode != UE_MODE_TOLERANT) {
        ue_diag_add(d, UE_SEV_ERROR, "pack.mode", UE_NO_OFFSET, "pack", "mode %d is neither strict nor tolerant",
                    (int)opt->mode);
        return UE_ERR_USAGE;
    }
    if (opt->level == UE_PACK_LEVEL_MANIFEST || (opt->level >= 0 && opt->level <= 9)) return UE_OK;
    ue_diag_add(d, UE_SEV_ERROR, "pack.level", UE_NO_OFFSET, "pack",
                "level %d is neither 0..9 nor UE_PACK_LEVEL_MANIFEST", opt->level);
    return UE_ERR_USAGE;
}

int ue_pack_level(const ue_pack_options *opt, uint32_t manifest_level) {
    if (opt && opt->level >= 0 && opt->level <= 9) return opt->level;
    return manifest_level > 9 ? 9 : (int)manifest_level;
}

ue_result ue_archive_pack(const char *dir, ue_buf *out, ue_diag *d) {
    return ue_archive_pack_opts(dir, NULL, out, d);
}

ue_result ue_archive_pack_opts(const char *dir, const ue_pack_options *opt, ue_buf *out,
                               ue_diag *d) {
    if (!opt) opt = &default_pack;
    ue_result r = check_pack_options(opt, d);
    if (r != UE_OK) return r;
    loaded_manifest m;
    if ((r = load_manifest(dir, &m, d)) != UE_OK) return r;
    r = pack_buf(&m, dir, opt, out, d);
    manifest_free(&m);
    return r;
}

ue_result ue_archive_pack_file(const char *dir, const char *path, bool overwrite, ue_diag *d) {
    return ue_archive_pack_file_opts(dir, path, overwrite, NULL, d);
}

ue_result ue_archive_pack_file_opts(const char *dir, const char *path, bool overwrite,
                                    const ue_pack_options *opt, ue_diag *d) {
    if (!opt) opt = &default_pack;
    ue_result r = check_pack_options(opt, d);
    if (r != UE_OK) return r;
    loaded_manifest m;
    if ((r = load_manifest(dir, &m, d)) != UE_OK) return r;
    /* Only once the manifest has been read, so a wrong DIR leaves no new directories. */
    /* Like extract's output directory, a packed archive may go into directories not made yet. */
    if ((r = ue_make_parent_dirs(path, d)) != UE_OK) {
        manifest_free(&m);
        return r;
    }
    if (m.ops->pack_to) {
        /* Streamed: payload files are copied into the output without being held in memory. */
        ue_file_sink f;
        r = ue_file_sink_begin(&f, path, overwrite, d);
        if (r == UE_OK) r = m.ops->pack_to(&m.doc.root, dir, opt, &f.sink, d);
        if (r == UE_OK) r = check_packed_file(&m, &f, opt->mode, d);
        if (r == UE_OK) r = ue_file_sink_commit(&f, d);
        else if (f.fd >= 0 || f.temp_path[0]) ue_file_sink_abort(&f);
    } else {
        ue_buf out = {0};
        r = pack_buf(&m, dir, opt, &out, d);
        if (r == UE_OK) r = ue_file_write_atomic(path, out.data, out.size, overwrite, d);
        ue_buf_free(&out);
    }
    manifest_free(&m);
    return r;
}

ue_result ue_archive_bytes(const ue_archive *a, uint8_t **data, size_t *size) {
    *size = 0;
    if (a->src.size > SIZE_MAX) return UE_ERR_NOMEM;
    ue_result r = ue_source_read_alloc(&a->src, 0, (size_t)a->src.size, SIZE_MAX, data);
    if (r == UE_OK) *size = (size_t)a->src.size;
    return r;
}

ue_result ue_archive_view(const ue_archive *a, const uint8_t **view, size_t *size) {
    *size = 0;
    ue_result r = ue_source_view(&a->src, view);
    if (r == UE_OK) *size = (size_t)a->src.size;
    return r;
}

void ue_archive_unview(const ue_archive *a, const uint8_t *view) { ue_source_unview(&a->src, view); }

ue_result ue_archive_reencode(ue_archive *a, ue_buf *out, ue_diag *d) {
    if (!a->ops->reencode) return UE_ERR_UNSUPPORTED;
    return a->ops->reencode(a->state, out, d);
}

ue_result ue_archive_put_many(const ue_archive *a, const ue_archive_put_entry *entries, size_t count,
                              ue_buf *out, size_t *added, ue_diag *d) {
    *added = 0;
    if (!a->ops->put) {
        ue_diag_add(d, UE_SEV_ERROR, "archive.put.unsupported", UE_NO_OFFSET, a->display,
                    "a %s cannot take an entry this way (NRes, RsLi, FSYS and PKX can); extract it, change "
                    "the entry, then pack", a->ops->description);
        return UE_ERR_UNSUPPORTED;
    }
    /* Rewritten, a damaged entry would keep its size but lose its bytes. */
    for (size_t i = 0; i < ue_archive_count(a); i++) {
        ue_entry_info e;
        ue_archive_entry(a, i, &e);
        if (!e.damaged) continue;
        ue_diag_add(d, UE_SEV_ERROR, "archive.put.damaged", UE_NO_OFFSET, a->display,
                    "entry %zu \"%s\" is damaged: an archive takes an entry only when it reads "
                    "in strict mode (extract --tolerant, then pack, salvages the rest)", i, e.name);
        return UE_ERR_INVALID;
    }
    size_t base = out->size;
    ue_result r = a->ops->put(&a->src, entries, count, out, added, d);
    if (r != UE_OK) out->size = base, *added = 0;
    return r;
}

ue_result ue_archive_put(const ue_archive *a, const char *name, const void *data, size_t size,
                         ue_buf *out, bool *added, ue_diag *d) {
    ue_archive_put_entry one = {name, data, size};
    size_t count = 0;
    ue_result r = ue_archive_put_many(a, &one, 1, out, &count, d);
    *added = count > 0;
    return r;
}

/* One validation in progress: what nested payloads may still decode in total, so that entries
 * sharing bytes or nested chains cannot multiply the work (docs/bounded-work.md), and the
 * visitor that is lent the entries it reads (NULL: none). */
typedef struct validation {
    ue_diag *d;
    size_t budget;
    ue_entry_visitor *v;
} validation;

static ue_result validate_rec(ue_archive *a, validation *run, int depth, void *frame);

/* An entry the visitor would have been lent is not read (a limit, the nesting bound). */
static void visit_missed(validation *run, void *frame) {
    if (run->v && frame) run->v->incomplete = true;
}

/* Entry i's nested container, opened on its bytes and validated; the visitor is lent the
 * bytes first, and walks the inner entries under the frame it returns. */
static ue_result validate_nested(ue_archive *a, size_t i, const ue_entry_info *info, validation *run,
                                 int depth, void *frame) {
    ue_diag *d = run->d;
    const uint8_t *data;
    uint8_t *to_free;
    size_t size;
    /* An entry read for the visitor alone is no part of the container's checks: what its read
     * says is not the container's verdict. */
    ue_result r = ue_archive_borrow(a, i, &data, &size, &to_free, info->nested[0] ? d : NULL);
    if (r != UE_OK) {
        free(to_free);
        return UE_ERR_INVALID;
    }
    void *child = frame ? run->v->enter(frame, a, info, data, size) : NULL;
    if (!info->nested[0]) { /* lent to the visitor only: no container to check */
        free(to_free);
        if (child) run->v->leave(frame, child);
        return UE_OK;
    }
    run->budget -= size < run->budget ? size : run->budget;
    uint64_t saved_base = d ? d->base_offset : 0;
    char saved_prefix[sizeof d->path_prefix];
    if (d) {
        memcpy(saved_prefix, d->path_prefix, sizeof saved_prefix);
        char prefix[sizeof d->path_prefix];
        /* Offsets inside a payload map to the file only when it was stored; inside a
         * decompressed one they count from the start of the decoded bytes, and the path
         * says so. */
        bool stored = strcmp(info->method, "stored") == 0;
        snprintf(prefix, sizeof prefix, "%s%s%s/entry[%zu]%s", saved_prefix,
                 saved_prefix[0] ? "/" : "", a->ops->name, i, stored ? "" : "(decoded)");
        memcpy(d->path_prefix, prefix, sizeof prefix);
        d->base_offset = stored ? saved_base + info->offset : 0;
    }
    ue_archive *inner;
    /* Opened where the payload lies (a stored entry of a mapped or in-memory input) or
     * in its decoded buffer, which the inner archive takes over. */
    r = open_bytes(data, size, to_free, info->name, a->mode, &inner, d);
    if (r == UE_OK) {
        inner->root_size = a->root_size;
        inner->stats = a->stats;
        if (a->stats) a->stats->opened++;
        r = validate_rec(inner, run, depth + 1, child);
        ue_archive_close(inner);
    }
    if (d) {
        d->base_offset = saved_base;
        memcpy(d->path_prefix, saved_prefix, sizeof saved_prefix);
    }
    if (child) run->v->leave(frame, child);
    return r;
}

/* Validates one container and, recursively, every nested container inside it. Nested
 * diagnostics carry the entry's path and (for stored payloads) absolute file offsets. */
static ue_result validate_rec(ue_archive *a, validation *run, int depth, void *frame) {
    ue_diag *d = run->d;
    ue_result worst = UE_OK;
    if (a->ops->validate) worst = a->ops->validate(a->state, d);
    size_t n = ue_archive_count(a);
    for (size_t i = 0; i < n; i++) {
        ue_entry_info info;
        ue_archive_entry(a, i, &info);
        if (info.damaged) {
            worst = UE_ERR_INVALID;
            continue;
        }
        bool lent_only = !info.nested[0] && frame && run->v->wants(&info);
        if (!info.nested[0] && !lent_only) continue;
        if (lent_only) {
            validate_nested(a, i, &info, run, depth, frame);
            continue;
        }
        if (depth >= MAX_NESTING) {
            ue_diag_add(d, UE_SEV_ERROR, "archive.nesting", info.offset, info.name,
                        "containers nested more than %d deep", MAX_NESTING);
            visit_missed(run, frame);
            return UE_ERR_INVALID;
        }
        if (!within_decode_cap(a, i, a->root_size, d)) {
            visit_missed(run, frame);
            worst = UE_ERR_LIMIT;
            continue;
        }
        if (info.size > run->budget) {
            ue_diag_add(d, UE_SEV_ERROR, "archive.limit", info.offset, info.name,
                        "nested containers would decode more than %zu bytes in all for a "
                        "%llu-byte input; the rest is not checked",
                        ue_cap_decoded(a->root_size), (unsigned long long)a->root_size);
            visit_missed(run, frame);
            return UE_ERR_LIMIT;
        }
        ue_result r = validate_nested(a, i, &info, run, depth, frame);
        if (r != UE_OK) worst = r;
    }
    return worst;
}

ue_result ue_archive_validate(ue_archive *a, ue_diag *d) {
    validation run = {d, ue_cap_decoded(a->root_size), NULL};
    return validate_rec(a, &run, 0, NULL);
}

ue_result ue_archive_validate_visit(ue_archive *a, ue_entry_visitor *v, void *frame, ue_diag *d) {
    validation run = {d, ue_cap_decoded(a->root_size), v};
    return validate_rec(a, &run, 0, v ? frame : NULL);
}

ue_read_stats *ue_archive_read_stats(const ue_archive *a) { return a->stats; }

void ue_archive_count_reads(ue_archive *a, ue_read_stats *stats) {
    a->stats = stats;
    if (stats) stats->opened++;
}
