/* unearth — NRes reader, engine lookup, lossless/canonical writer and editor (docs/formats/nres.md).
 * The directory sits at the end of the file; payloads live in [16, dir_off), 8-aligned. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/collections.h"
#include "common/parse.h"
#include "unearth/nres.h"
#include "common/bytes.h"
#include "common/io.h"
#include "common/write_pool.h"

#define PATH_LEN 64

void ue_nres_init(ue_nres *n) {
    memset(n, 0, sizeof *n);
    n->version = UE_NRES_VERSION;
    n->total_size = UE_NRES_HEADER_SIZE;
    n->dir_offset = UE_NRES_HEADER_SIZE;
    n->sort_valid = true;
}

void ue_nres_free(ue_nres *n) {
    if (!n) return;
    for (size_t i = 0; i < n->count; i++) {
        free(n->entries[i].owned);
        free(n->entries[i].payload_file);
    }
    for (size_t i = 0; i < n->gap_count; i++) free(n->gaps[i].bytes);
    free(n->entries);
    free(n->gaps);
    memset(n, 0, sizeof *n);
}

void ue_nres_entry_name(const ue_nres_entry *e, char *out, size_t out_size) {
    size_t len = 0;
    while (len < UE_NRES_NAME_SIZE && e->name_raw[len]) len++;
    if (out_size == 0) return;
    if (len >= out_size) len = out_size - 1;
    memcpy(out, e->name_raw, len);
    out[len] = 0;
}

static inline unsigned char fold_lower(unsigned char c) {
    return (c >= 'A' && c <= 'Z') ? (unsigned char)(c + 32) : c;
}

int ue_nres_name_compare(const char *a, const char *b) {
    const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
    for (;; x++, y++) {
        unsigned char cx = fold_lower(*x), cy = fold_lower(*y);
        if (cx != cy) return cx < cy ? -1 : 1;
        if (!cx) return 0;
    }
}

/* Names bounded to 36 bytes; the raw field may lack a NUL in damaged files. */
static void name_of(const ue_nres_entry *e, char out[UE_NRES_NAME_SIZE + 1]) {
    ue_nres_entry_name(e, out, UE_NRES_NAME_SIZE + 1);
}

/* Stable merge sort of indices by folded name — equal names keep directory order, as the
 * engine's save-time bubble sort does. */
ue_result ue_nres_compute_sort(const ue_nres *n, uint32_t *perm) {
    size_t count = n->count;
    if (count == 0) return UE_OK;
    char(*names)[UE_NRES_NAME_SIZE + 1] = malloc(count * sizeof *names);
    uint32_t *tmp = malloc(count * sizeof *tmp);
    if (!names || !tmp) {
        free(names);
        free(tmp);
        return UE_ERR_NOMEM;
    }
    for (size_t i = 0; i < count; i++) {
        name_of(&n->entries[i], names[i]);
        perm[i] = (uint32_t)i;
    }
    for (size_t width = 1; width < count; width *= 2) {
        for (size_t lo = 0; lo < count; lo += 2 * width) {
            size_t mid = lo + width < count ? lo + width : count;
            size_t hi = lo + 2 * width < count ? lo + 2 * width : count;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = ue_nres_name_compare(names[perm[j]], names[perm[i]]) < 0 ? perm[j++]
                                                                                    : perm[i++];
            while (i < mid) tmp[k++] = perm[i++];
            while (j < hi) tmp[k++] = perm[j++];
        }
        memcpy(perm, tmp, count * sizeof *perm);
    }
    free(names);
    free(tmp);
    return UE_OK;
}

/* The stored table is usable for binary search when it is a permutation whose names are in
 * non-decreasing folded order. */
bool ue_nres_sort_table_valid(const ue_nres *n) {
    size_t count = n->count;
    if (count == 0) return true;
    uint8_t *seen = calloc(count, 1);
    if (!seen) return false;
    bool ok = true;
    char prev[UE_NRES_NAME_SIZE + 1] = "", cur[UE_NRES_NAME_SIZE + 1];
    for (size_t i = 0; i < count && ok; i++) {
        uint32_t s = n->entries[i].sort_index;
        if (s >= count || seen[s]) {
            ok = false;
            break;
        }
        seen[s] = 1;
        name_of(&n->entries[s], cur);
        if (i > 0 && ue_nres_name_compare(prev, cur) > 0) ok = false;
        memcpy(prev, cur, sizeof cur);
    }
    free(seen);
    return ok;
}

bool ue_nres_find(const ue_nres *n, const char *name, size_t *index) {
    char cur[UE_NRES_NAME_SIZE + 1];
    if (n->sort_valid && !n->sort_dirty) {
        size_t lo = 0, hi = n->count;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            uint32_t s = n->entries[mid].sort_index;
            name_of(&n->entries[s], cur);
            int c = ue_nres_name_compare(name, cur);
            if (c == 0) {
                *index = s;
                return true;
            }
            if (c < 0) hi = mid;
            else lo = mid + 1;
        }
        return false;
    }
    for (size_t i = 0; i < n->count; i++) {
        name_of(&n->entries[i], cur);
        if (ue_nres_name_compare(name, cur) == 0) {
            *index = i;
            return true;
        }
    }
    return false;
}

/* ---- reading ----------------------------------------------------------------------------- */

typedef struct range {
    uint32_t start, end;
    size_t entry;
} range;

static int range_cmp(const void *a, const void *b) {
    const range *x = a, *y = b;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    if (x->end != y->end) return x->end < y->end ? -1 : 1;
    return x->entry < y->entry ? -1 : (x->entry > y->entry);
}

/* Reads [start, end) of the data region and records it when it holds any non-zero byte. */
static ue_result scan_gap(const ue_source *src, ue_nres *n, uint32_t start, uint32_t end,
                          ue_diag *d) {
    uint8_t chunk[4096];
    bool nonzero = false;
    for (uint32_t at = start; at < end && !nonzero;) {
        size_t take = end - at < sizeof chunk ? end - at : sizeof chunk;
        if (ue_source_read(src, at, chunk, take) != UE_OK) return UE_ERR_IO;
        for (size_t i = 0; i < take; i++)
            if (chunk[i]) {
                nonzero = true;
                break;
            }
        at += (uint32_t)take;
    }
    if (!nonzero) return UE_OK;
    ue_result r = ue_array_make_room((void **)&n->gaps, n->gap_count, sizeof *n->gaps, SIZE_MAX);
    if (r != UE_OK) return r;
    ue_nres_gap *gap = &n->gaps[n->gap_count];
    gap->offset = start;
    gap->size = end - start;
    r = ue_source_read_alloc(src, start, gap->size, UE_CAP_ENTRY_BYTES, &gap->bytes);
    if (r != UE_OK) return r;
    n->gap_count++;
    /* Padding is expected to be zero; a larger unindexed region is a known retail quirk. */
    ue_diag_add(d, gap->size < UE_NRES_ALIGN ? UE_SEV_WARNING : UE_SEV_INFO,
                gap->size < UE_NRES_ALIGN ? "nres.padding.nonzero" : "nres.unindexed",
                start, "nres/data", "%u bytes outside every entry hold non-zero data (kept)",
                gap->size);
    return UE_OK;
}

/* Violations that the engine tolerates in its own files are warnings in both modes; the rest
 * go through ue_violation (strict: errors; tolerant: warnings, with the entry marked damaged). */

/* The 16-byte header and where the directory starts. Returns UE_OK or the failure. */
static ue_result parse_header(const ue_source *src, ue_parse_ctx *c, ue_nres *out,
                              size_t *count_out) {
    uint8_t hdr[UE_NRES_HEADER_SIZE];
    uint64_t file_size = src->size;
    if (file_size < UE_NRES_HEADER_SIZE || ue_source_read(src, 0, hdr, sizeof hdr) != UE_OK) {
        ue_diag_add(c->d, UE_SEV_ERROR, "nres.header.truncated", 0, "nres/header",
                    "file of %llu bytes is shorter than the 16-byte header",
                    (unsigned long long)file_size);
        return UE_ERR_INVALID;
    }
    if (memcmp(hdr, "NRes", 4) != 0) {
        ue_diag_add(c->d, UE_SEV_ERROR, "nres.header.magic", 0, "nres/header/magic",
                    "magic is %02x %02x %02x %02x, not \"NRes\"", hdr[0], hdr[1], hdr[2],
                    hdr[3]);
        return UE_ERR_INVALID;
    }
    if (file_size > UINT32_MAX) {
        ue_diag_add(c->d, UE_SEV_ERROR, "nres.size", 0, "nres", "file larger than 4 GiB");
        return UE_ERR_INVALID;
    }
    out->version = ue_load_u32le(hdr + 4);
    int32_t count = (int32_t)ue_load_u32le(hdr + 8);
    out->total_size = ue_load_u32le(hdr + 12);
    if (out->version != UE_NRES_VERSION)
        ue_violation(c, "nres.header.version", 4, "nres/header/version",
                     "version is 0x%x, expected 0x100", out->version);
    if (count < 0 || (size_t)count > UE_CAP_TABLE_ENTRIES ||
        (uint64_t)count * UE_NRES_ENTRY_SIZE > file_size - UE_NRES_HEADER_SIZE) {
        ue_diag_add(c->d, UE_SEV_ERROR, "nres.header.count", 8, "nres/header/entry_count",
                    "entry count %d does not fit a %llu-byte file", count,
                    (unsigned long long)file_size);
        return UE_ERR_INVALID;
    }
    uint64_t dir_bytes = (uint64_t)count * UE_NRES_ENTRY_SIZE;
    uint64_t layout_size = out->total_size;
    if (out->total_size != file_size) {
        ue_violation(c, "nres.header.total_size", 12, "nres/header/total_size",
                     "total_size %u differs from the file size %llu", out->total_size,
                     (unsigned long long)file_size);
        if (ue_parse_strict(c)) return UE_ERR_INVALID;
        layout_size = file_size; /* the directory is where the file ends */
    }
    if (layout_size < dir_bytes + UE_NRES_HEADER_SIZE) {
        ue_diag_add(c->d, UE_SEV_ERROR, "nres.directory.range", 12, "nres/header/total_size",
                    "a %llu-byte directory does not fit after the header",
                    (unsigned long long)dir_bytes);
        return UE_ERR_INVALID;
    }
    out->dir_offset = (uint32_t)(layout_size - dir_bytes);
    *count_out = (size_t)count;
    return UE_OK;
}

/* Decodes directory row i and checks its name and payload range. Returns false when the
 * payload lies outside the data region (the entry is then marked damaged). */
static bool decode_entry(ue_parse_ctx *c, ue_nres *out, const uint8_t *dir, size_t i) {
    const uint8_t *r = dir + i * UE_NRES_ENTRY_SIZE;
    ue_nres_entry *e = &out->entries[i];
    uint64_t at = out->dir_offset + i * UE_NRES_ENTRY_SIZE;
    char path[PATH_LEN];
    e->type_id = ue_load_u32le(r);
    e->attr1 = ue_load_u32le(r + 4);
    e->attr2 = ue_load_u32le(r + 8);
    e->size = ue_load_u32le(r + 12);
    e->attr3 = ue_load_u32le(r + 16);
    memcpy(e->name_raw, r + 20, UE_NRES_NAME_SIZE);
    e->data_offset = ue_load_u32le(r + 56);
    e->sort_index = ue_load_u32le(r + 60);
    /* Paths are printed only for a finding: a directory of 20,000 good rows formats none. */
    bool no_nul = !memchr(e->name_raw, 0, UE_NRES_NAME_SIZE);
    if (no_nul || e->name_raw[0] == 0) {
        snprintf(path, sizeof path, "nres/entry[%zu]/name", i);
        if (no_nul)
            ue_violation(c, "nres.entry.name.nul", at + 20, path,
                         "name has no NUL terminator within 36 bytes");
        else
            ue_violation(c, "nres.entry.name.empty", at + 20, path, "name is empty");
    }
    bool outside = e->data_offset < UE_NRES_HEADER_SIZE ||
                   !ue_range_ok(e->data_offset, e->size, out->dir_offset);
    if (outside || e->data_offset % UE_NRES_ALIGN)
        snprintf(path, sizeof path, "nres/entry[%zu]/data_offset", i);
    if (outside) {
        ue_violation(c, "nres.entry.range", at + 56, path,
                     "payload [0x%x, +%u) lies outside the data region [0x10, 0x%x)",
                     e->data_offset, e->size, out->dir_offset);
        e->damaged = true;
        return false;
    }
    if (e->data_offset % UE_NRES_ALIGN)
        ue_diag_add(c->d, UE_SEV_WARNING, "nres.entry.align", at + 56, path,
                    "payload offset 0x%x is not 8-byte aligned", e->data_offset);
    return true;
}

/* Reads the directory and decodes every row; the payload ranges inside the data region go
 * to `ranges` (allocated here, *nranges of them). */
static ue_result read_directory(const ue_source *src, ue_parse_ctx *c, size_t count,
                                ue_nres *out, range **ranges, size_t *nranges) {
    size_t dir_bytes = count * UE_NRES_ENTRY_SIZE;
    out->entries = ue_calloc_items(count, sizeof *out->entries);
    if (out->entries) out->count = count; /* ue_nres_free walks `count` entries */
    uint8_t *dir = NULL;
    ue_result rr = out->entries
                       ? ue_source_read_alloc(src, out->dir_offset, dir_bytes, SIZE_MAX, &dir)
                       : UE_ERR_NOMEM;
    if (rr != UE_OK) {
        ue_diag_add(c->d, UE_SEV_ERROR, rr == UE_ERR_NOMEM ? "nres.nomem" : "nres.read",
                    out->dir_offset, "nres/directory", "cannot read the %llu-byte directory: %s",
                    (unsigned long long)dir_bytes, ue_result_name(rr));
        free(dir);
        return rr;
    }
    *ranges = ue_malloc_items(out->count, sizeof **ranges);
    if (!*ranges) {
        free(dir);
        return UE_ERR_NOMEM;
    }
    *nranges = 0;
    for (size_t i = 0; i < out->count; i++) {
        if (!decode_entry(c, out, dir, i)) continue;
        const ue_nres_entry *e = &out->entries[i];
        (*ranges)[(*nranges)++] = (range){e->data_offset, e->data_offset + e->size, i};
    }
    free(dir);
    return UE_OK;
}

typedef struct gap_scan {
    const ue_source *src;
    ue_nres *n;
    ue_diag *d;
} gap_scan;

static ue_result scan_one_gap(uint64_t start, uint64_t end, void *ctx) {
    gap_scan *g = ctx;
    return scan_gap(g->src, g->n, (uint32_t)start, (uint32_t)end, g->d);
}

/* Bounded work: shared bytes are read once, so tolerant mode keeps the later of two
 * overlapping entries as damaged instead of extracting or validating the same bytes again. */
static void check_overlaps(ue_parse_ctx *c, ue_nres *out, range *ranges, size_t nranges) {
    qsort(ranges, nranges, sizeof *ranges, range_cmp);
    uint32_t cursor = UE_NRES_HEADER_SIZE;
    char path[PATH_LEN];
    for (size_t k = 0; k < nranges; k++) {
        if (ranges[k].start < cursor && ranges[k].end > ranges[k].start) {
            snprintf(path, sizeof path, "nres/entry[%zu]/data_offset", ranges[k].entry);
            ue_violation(c, "nres.entry.overlap",
                         out->dir_offset + ranges[k].entry * UE_NRES_ENTRY_SIZE + 56, path,
                         "payload [0x%x, 0x%x) overlaps an earlier payload ending at 0x%x",
                         ranges[k].start, ranges[k].end, cursor);
            out->entries[ranges[k].entry].damaged = true;
        }
        if (ranges[k].end > cursor) cursor = ranges[k].end;
    }
}

/* Overlaps, then the bytes between payloads (padding and unindexed regions). */
static ue_result check_ranges(const ue_source *src, ue_parse_ctx *c, ue_nres *out, range *ranges,
                              size_t nranges) {
    check_overlaps(c, out, ranges, nranges);
    ue_span *spans = ue_malloc_items(nranges, sizeof *spans);
    if (!spans) return UE_ERR_NOMEM;
    for (size_t k = 0; k < nranges; k++) spans[k] = (ue_span){ranges[k].start, ranges[k].end};
    gap_scan g = {src, out, c->d};
    ue_result res = ue_for_each_gap(spans, nranges, UE_NRES_HEADER_SIZE, out->dir_offset,
                                    scan_one_gap, &g);
    free(spans);
    if (res != UE_OK)
        ue_diag_add(c->d, UE_SEV_ERROR, "nres.read", UE_NO_OFFSET, "nres/data",
                    "cannot read the data region: %s", ue_result_name(res));
    return res;
}

ue_result ue_nres_parse(const ue_source *src, ue_mode mode, ue_nres *out, ue_diag *d) {
    ue_nres_init(out);
    out->src = src;
    ue_parse_ctx c = ue_parse_begin(mode, d);
    size_t count = 0;
    ue_result r = parse_header(src, &c, out, &count);
    if (r != UE_OK) return r;
    range *ranges = NULL;
    size_t nranges = 0;
    r = read_directory(src, &c, count, out, &ranges, &nranges);
    if (r == UE_OK) r = check_ranges(src, &c, out, ranges, nranges);
    free(ranges);
    if (r != UE_OK) {
        ue_nres_free(out);
        return r;
    }
    out->sort_valid = ue_nres_sort_table_valid(out);
    if (!out->sort_valid)
        ue_violation(&c, "nres.sort_index", out->dir_offset + 60, "nres/entry[*]/sort_index",
                     "sort table is not a permutation in case-insensitive name order; lookups "
                     "fall back to a linear scan");
    if (ue_parse_failed(&c)) {
        ue_nres_free(out);
        return c.failure;
    }
    return UE_OK;
}

ue_result ue_nres_payload(const ue_nres *n, size_t i, const uint8_t **data, uint8_t **to_free,
                          ue_diag *d) {
    *to_free = NULL;
    *data = NULL;
    if (i >= n->count) return UE_ERR_USAGE;
    const ue_nres_entry *e = &n->entries[i];
    if (e->owned || e->size == 0) {
        *data = e->owned ? e->owned : (const uint8_t *)"";
        return UE_OK;
    }
    if (e->payload_file) {
        size_t got;
        ue_result r = ue_file_read(e->payload_file, UE_CAP_ENTRY_BYTES, to_free, &got, d);
        if (r == UE_OK && got != e->size) {
            free(*to_free);
            *to_free = NULL;
            return UE_ERR_IO;
        }
        *data = *to_free;
        return r;
    }
    if (e->damaged || !n->src) {
        char path[PATH_LEN];
        snprintf(path, sizeof path, "nres/entry[%zu]", i);
        ue_diag_add(d, UE_SEV_ERROR, "nres.entry.damaged", e->data_offset, path,
                    "payload is outside the file");
        return UE_ERR_INVALID;
    }
    if (n->src->memory && ue_range_ok(e->data_offset, e->size, n->src->size)) {
        *data = n->src->memory + e->data_offset;
        return UE_OK;
    }
    ue_result r = ue_source_read_alloc(n->src, e->data_offset, e->size, UE_CAP_ENTRY_BYTES, to_free);
    if (r != UE_OK) {
        char path[PATH_LEN];
        snprintf(path, sizeof path, "nres/entry[%zu]", i);
        ue_diag_add(d, UE_SEV_ERROR, "nres.entry.read", e->data_offset, path,
                    "cannot read %u payload bytes", e->size);
        return r;
    }
    *data = *to_free;
    return UE_OK;
}

/* ---- writing ----------------------------------------------------------------------------- */

typedef struct segment {
    uint32_t at;     /* where it starts in the output (lossless) or sorting key (relayout) */
    bool is_gap;
    size_t index;
} segment;

static int segment_cmp(const void *a, const void *b) {
    const segment *x = a, *y = b;
    if (x->at != y->at) return x->at < y->at ? -1 : 1;
    if (x->is_gap != y->is_gap) return x->is_gap ? -1 : 1;
    return x->index < y->index ? -1 : (x->index > y->index);
}

/* Appends entry i's payload from byte `skip` on: from memory, or copied from its file (the
 * source archive or a payload file) without passing through a buffer when the sink can. */
static ue_result emit_payload(const ue_nres *n, size_t i, size_t skip, ue_sink *out, ue_diag *d) {
    const ue_nres_entry *e = &n->entries[i];
    if (skip >= e->size) return UE_OK;
    if (e->owned) return ue_sink_put(out, e->owned + skip, e->size - skip);
    char path[PATH_LEN];
    snprintf(path, sizeof path, "nres/entry[%zu]", i);
    ue_result r;
    if (e->payload_file) {
        ue_source src;
        if ((r = ue_source_open_file(e->payload_file, &src, d)) != UE_OK) return r;
        if (src.size != e->size) {
            ue_diag_add(d, UE_SEV_ERROR, "nres.entry.changed", UE_NO_OFFSET, path,
                        "payload file %s changed size while packing", e->payload_file);
            r = UE_ERR_IO;
        } else {
            r = ue_sink_copy(out, &src, skip, e->size - skip);
        }
        ue_source_close(&src);
        return r;
    }
    if (e->damaged || !n->src) {
        ue_diag_add(d, UE_SEV_ERROR, "nres.entry.damaged", e->data_offset, path, "payload is outside the file");
        return UE_ERR_INVALID;
    }
    r = ue_sink_copy(out, n->src, (uint64_t)e->data_offset + skip, e->size - skip);
    if (r != UE_OK)
        ue_diag_add(d, UE_SEV_ERROR, "nres.entry.read", e->data_offset, path, "cannot read %u payload bytes", e->size);
    return r;
}

/* Small payload files are read ahead in batches by two threads: opening and reading 20,000
 * small files is most of a pack, and the kernel serves two such readers at once. The writer
 * then copies them out in order, so the output does not depend on the threads. A file that
 * cannot be read ahead is left to emit_payload, which reports why as before. Memory: one
 * batch, whatever the archive. */
#define READ_AHEAD_FILE_MAX ((uint32_t)256 << 10)
#define READ_AHEAD_BATCH_BYTES ((size_t)8 << 20)
#define READ_AHEAD_BATCH_FILES 256

typedef struct read_ahead {
    const ue_nres *n;
    const segment *segs;
    size_t first, end; /* segments [first, end) are in the batch */
    uint8_t *buf;      /* READ_AHEAD_BATCH_BYTES, allocated on first use */
    size_t at[READ_AHEAD_BATCH_FILES];
    bool ok[READ_AHEAD_BATCH_FILES];
} read_ahead;

static bool read_ahead_wants(const ue_nres *n, const segment *s) {
    if (s->is_gap) return false;
    const ue_nres_entry *e = &n->entries[s->index];
    return e->payload_file && !e->owned && !e->damaged && e->size <= READ_AHEAD_FILE_MAX;
}

static void read_ahead_one(void *ctx, size_t j) {
    read_ahead *ra = ctx;
    const ue_nres_entry *e = &ra->n->entries[ra->segs[ra->first + j].index];
    ra->ok[j] = ue_file_read_exact(e->payload_file, ra->buf + ra->at[j], e->size);
}

/* Reads the run of wanted segments that starts at k (at least segment k itself). */
static void read_ahead_fill(read_ahead *ra, size_t k, size_t nsegs) {
    size_t used = 0, j = 0;
    ra->first = k;
    while (k + j < nsegs && j < READ_AHEAD_BATCH_FILES && read_ahead_wants(ra->n, &ra->segs[k + j])) {
        size_t size = ra->n->entries[ra->segs[k + j].index].size;
        if (used + size > READ_AHEAD_BATCH_BYTES) break;
        ra->at[j++] = used;
        used += size;
    }
    ra->end = k + j;
    ue_parallel_for(j, 2, read_ahead_one, ra);
}

/* Segment k's payload when it was read ahead, else NULL. */
static const uint8_t *read_ahead_get(read_ahead *ra, size_t k, size_t nsegs) {
    if (!read_ahead_wants(ra->n, &ra->segs[k])) return NULL;
    if (!ra->buf && !(ra->buf = malloc(READ_AHEAD_BATCH_BYTES))) return NULL;
    if (k < ra->first || k >= ra->end) read_ahead_fill(ra, k, nsegs);
    return k < ra->end && ra->ok[k - ra->first] ? ra->buf + ra->at[k - ra->first] : NULL;
}

/* An entry's payload ending at `end` in the file it was read from, for place_gaps. */
typedef struct payload_end {
    uint64_t end;
    size_t index;
} payload_end;

static int payload_end_cmp(const void *a, const void *b) {
    const payload_end *x = a, *y = b;
    if (x->end != y->end) return x->end < y->end ? -1 : 1;
    return x->index < y->index ? -1 : (x->index > y->index);
}

/* Re-laid out, each kept unindexed region goes right after the payload that ended last before
 * it in the file (of two ending there, the later entry's), ahead of the next entry in directory
 * order; a region before every payload stays first. Its key in segs sorts it so (entry i has
 * key i + 1, and a region sorts before an entry of equal key). */
static ue_result place_gaps(const ue_nres *n, segment *segs, size_t *nsegs) {
    if (!n->gap_count) return UE_OK;
    payload_end *ends = ue_malloc_items(n->count, sizeof *ends);
    if (!ends) return UE_ERR_NOMEM;
    size_t placed = 0;
    for (size_t i = 0; i < n->count; i++) {
        const ue_nres_entry *e = &n->entries[i];
        if (!e->damaged && e->data_offset >= UE_NRES_HEADER_SIZE) /* added entries have no place */
            ends[placed++] = (payload_end){(uint64_t)e->data_offset + e->size, i};
    }
    qsort(ends, placed, sizeof *ends, payload_end_cmp);
    for (size_t g = 0; g < n->gap_count; g++) {
        size_t lo = 0, hi = placed; /* ends[0..lo) end at or before the region */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (ends[mid].end <= n->gaps[g].offset) lo = mid + 1;
            else hi = mid;
        }
        uint32_t key = lo ? (uint32_t)ends[lo - 1].index + 2 : 1;
        segs[(*nsegs)++] = (segment){key, true, g};
    }
    free(ends);
    return UE_OK;
}

/* The writer plans every offset first, then emits header, data and directory in order, so the
 * output can stream to a file. */
ue_result ue_nres_write_to(const ue_nres *n, ue_nres_layout layout, ue_sink *out, ue_diag *d) {
    size_t count = n->count;
    if (count > UE_CAP_TABLE_ENTRIES || count > INT32_MAX) return UE_ERR_LIMIT;
    uint32_t *offsets = ue_malloc_items(count, sizeof *offsets);
    uint32_t *sort = ue_malloc_items(count, sizeof *sort);
    segment *segs = malloc((count + n->gap_count + 1) * sizeof *segs);
    ue_result r = UE_OK;
    if (!offsets || !sort || !segs) {
        r = UE_ERR_NOMEM;
        goto done;
    }
    bool preserve = layout == UE_NRES_LOSSLESS && !n->layout_dirty;
    bool keep_sort = layout == UE_NRES_LOSSLESS && !n->sort_dirty;
    if (keep_sort)
        for (size_t i = 0; i < count; i++) sort[i] = n->entries[i].sort_index;
    else if ((r = ue_nres_compute_sort(n, sort)) != UE_OK)
        goto done;

    /* Plan: segments in output order, each entry's offset, where the directory starts. */
    size_t nsegs = 0;
    uint64_t dir_at;
    uint32_t total;
    if (preserve) {
        /* Everything goes back where it was; bytes no one claims stay zero. */
        dir_at = n->dir_offset < UE_NRES_HEADER_SIZE ? UE_NRES_HEADER_SIZE : n->dir_offset;
        for (size_t i = 0; i < count; i++) {
            const ue_nres_entry *e = &n->entries[i];
            offsets[i] = e->data_offset;
            if (!e->damaged && e->data_offset >= UE_NRES_HEADER_SIZE && ue_range_ok(e->data_offset, e->size, dir_at))
                segs[nsegs++] = (segment){e->data_offset, false, i};
        }
        for (size_t g = 0; g < n->gap_count; g++)
            if (n->gaps[g].offset >= UE_NRES_HEADER_SIZE && ue_range_ok(n->gaps[g].offset, n->gaps[g].size, dir_at))
                segs[nsegs++] = (segment){n->gaps[g].offset, true, g};
        total = n->total_size; /* a lossless write keeps even a wrong total_size */
    } else {
        /* Directory order, as the canonical writer (docs/formats/nres.md#data-region); added entries are last in the
         * directory, so they come after every payload, as the engine appends them. */
        for (size_t i = 0; i < count; i++) segs[nsegs++] = (segment){(uint32_t)i + 1, false, i};
        if (layout == UE_NRES_LOSSLESS && (r = place_gaps(n, segs, &nsegs)) != UE_OK) goto done;
        qsort(segs, nsegs, sizeof *segs, segment_cmp);
        uint64_t pos = UE_NRES_HEADER_SIZE;
        for (size_t k = 0; k < nsegs; k++) {
            if (segs[k].is_gap) {
                segs[k].at = (uint32_t)pos;
                pos += n->gaps[segs[k].index].size;
            } else {
                const ue_nres_entry *e = &n->entries[segs[k].index];
                offsets[segs[k].index] = segs[k].at = (uint32_t)pos;
                if (e->damaged) continue; /* no bytes: tolerant input only */
                pos += e->size;
            }
            pos = (pos + UE_NRES_ALIGN - 1) / UE_NRES_ALIGN * UE_NRES_ALIGN;
            if (pos > UINT32_MAX) {
                r = UE_ERR_NOMEM;
                goto done;
            }
        }
        dir_at = pos;
        if (dir_at + (uint64_t)count * UE_NRES_ENTRY_SIZE > UINT32_MAX) {
            r = UE_ERR_NOMEM;
            goto done;
        }
        total = (uint32_t)(dir_at + count * UE_NRES_ENTRY_SIZE);
    }
    qsort(segs, nsegs, sizeof *segs, segment_cmp);

    /* Emit. Overlapping payloads (tolerant input) hold the same original bytes, so each
     * segment only writes what lies past the previous one. */
    uint8_t hdr[UE_NRES_HEADER_SIZE];
    memcpy(hdr, "NRes", 4);
    ue_store_u32le(hdr + 4, n->version);
    ue_store_u32le(hdr + 8, (uint32_t)count);
    ue_store_u32le(hdr + 12, total);
    r = ue_sink_put(out, hdr, sizeof hdr);
    uint64_t cursor = UE_NRES_HEADER_SIZE;
    read_ahead ra = {.n = n, .segs = segs};
    for (size_t k = 0; k < nsegs && r == UE_OK; k++) {
        uint64_t start = segs[k].at;
        uint64_t size = segs[k].is_gap ? n->gaps[segs[k].index].size
                        : (n->entries[segs[k].index].damaged ? 0 : n->entries[segs[k].index].size);
        if (start > cursor) r = ue_sink_zeros(out, (size_t)(start - cursor)), cursor = start;
        if (r != UE_OK || start + size <= cursor) continue;
        size_t skip = (size_t)(cursor - start);
        const uint8_t *ahead = read_ahead_get(&ra, k, nsegs);
        if (segs[k].is_gap) r = ue_sink_put(out, n->gaps[segs[k].index].bytes + skip, (size_t)size - skip);
        else if (ahead) r = ue_sink_put(out, ahead + skip, (size_t)size - skip);
        else r = emit_payload(n, segs[k].index, skip, out, d);
        cursor = start + size;
        if (!preserve && r == UE_OK && cursor % UE_NRES_ALIGN) {
            r = ue_sink_zeros(out, UE_NRES_ALIGN - cursor % UE_NRES_ALIGN);
            cursor = (cursor + UE_NRES_ALIGN - 1) / UE_NRES_ALIGN * UE_NRES_ALIGN;
        }
    }
    free(ra.buf);
    if (r == UE_OK && dir_at > cursor) r = ue_sink_zeros(out, (size_t)(dir_at - cursor));
    for (size_t i = 0; i < count && r == UE_OK; i++) {
        const ue_nres_entry *e = &n->entries[i];
        uint8_t rec[UE_NRES_ENTRY_SIZE];
        ue_store_u32le(rec, e->type_id);
        ue_store_u32le(rec + 4, e->attr1);
        ue_store_u32le(rec + 8, e->attr2);
        ue_store_u32le(rec + 12, e->size);
        ue_store_u32le(rec + 16, e->attr3);
        memcpy(rec + 20, e->name_raw, UE_NRES_NAME_SIZE);
        ue_store_u32le(rec + 56, offsets[i]);
        ue_store_u32le(rec + 60, sort[i]);
        r = ue_sink_put(out, rec, sizeof rec);
    }
done:
    free(offsets);
    free(sort);
    free(segs);
    return r;
}

ue_result ue_nres_write(const ue_nres *n, ue_nres_layout layout, ue_buf *out, ue_diag *d) {
    size_t base = out->size;
    /* Only a hint: a big archive is not copied again and again by doubling growth. */
    size_t estimate = UE_NRES_HEADER_SIZE + n->count * (UE_NRES_ENTRY_SIZE + UE_NRES_ALIGN);
    if (layout == UE_NRES_LOSSLESS && !n->layout_dirty) {
        estimate += n->dir_offset;
    } else {
        for (size_t i = 0; i < n->count; i++) estimate += n->entries[i].size;
        for (size_t g = 0; g < n->gap_count; g++) estimate += n->gaps[g].size + UE_NRES_ALIGN;
    }
    ue_buf_try_reserve(out, estimate);
    ue_sink sink = ue_sink_buf(out);
    ue_result r = ue_nres_write_to(n, layout, &sink, d);
    if (r != UE_OK) out->size = base;
    return r;
}

/* ---- editing ----------------------------------------------------------------------------- */

static ue_result set_name(ue_nres_entry *e, const char *name) {
    size_t len = strlen(name);
    if (len == 0 || len >= UE_NRES_NAME_SIZE) return UE_ERR_USAGE;
    memset(e->name_raw, 0, sizeof e->name_raw);
    memcpy(e->name_raw, name, len);
    return UE_OK;
}

static ue_result copy_payload(const void *data, size_t size, uint8_t **out) {
    if (size > UINT32_MAX) return UE_ERR_USAGE;
    *out = ue_malloc_items(size, 1);
    if (!*out) return UE_ERR_NOMEM;
    if (size) memcpy(*out, data, size);
    return UE_OK;
}

ue_result ue_nres_add(ue_nres *n, uint32_t type_id, uint32_t attr1, uint32_t attr2,
                      uint32_t attr3, const char *name, const void *data, size_t size) {
    if (n->count >= UE_CAP_TABLE_ENTRIES) return UE_ERR_LIMIT;
    ue_nres_entry e = {0};
    ue_result r = set_name(&e, name);
    if (r != UE_OK) return r;
    if ((r = copy_payload(data, size, &e.owned)) != UE_OK) return r;
    e.type_id = type_id;
    e.attr1 = attr1;
    e.attr2 = attr2;
    e.attr3 = attr3;
    e.size = (uint32_t)size;
    ue_nres_entry *grown = realloc(n->entries, (n->count + 1) * sizeof *grown);
    if (!grown) {
        free(e.owned);
        return UE_ERR_NOMEM;
    }
    n->entries = grown;
    n->entries[n->count++] = e;
    n->layout_dirty = n->sort_dirty = true;
    return UE_OK;
}

ue_result ue_nres_replace(ue_nres *n, size_t i, const void *data, size_t size) {
    if (i >= n->count) return UE_ERR_USAGE;
    uint8_t *copy;
    ue_result r = copy_payload(data, size, &copy);
    if (r != UE_OK) return r;
    ue_nres_entry *e = &n->entries[i];
    free(e->owned);
    free(e->payload_file);
    e->payload_file = NULL;
    e->owned = copy;
    if (e->size != size || e->damaged) n->layout_dirty = true;
    e->size = (uint32_t)size;
    e->damaged = false;
    return UE_OK;
}

ue_result ue_nres_remove(ue_nres *n, size_t i) {
    if (i >= n->count) return UE_ERR_USAGE;
    free(n->entries[i].owned);
    free(n->entries[i].payload_file);
    memmove(&n->entries[i], &n->entries[i + 1], (n->count - i - 1) * sizeof *n->entries);
    n->count--;
    n->layout_dirty = n->sort_dirty = true;
    return UE_OK;
}

ue_result ue_nres_rename(ue_nres *n, size_t i, const char *name) {
    if (i >= n->count) return UE_ERR_USAGE;
    ue_result r = set_name(&n->entries[i], name);
    if (r == UE_OK) n->sort_dirty = true;
    return r;
}
