/* unearth — NRes pack's checks of a manifest (docs/parkan-containers.md#manifest): pack never
 * writes an archive that its own strict reading rejects, whatever the manifest says. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parkan/nres_pack_check.h"
#include "common/bytes.h"

#define LAYOUT_REPORTS 8u /* layout problems listed one by one; the rest are counted */

typedef struct layout_check {
    ue_nres *n;
    ue_diag *d;
    size_t reported; /* layout problems found */
    bool anew;       /* one of them asks for a new layout */
} layout_check;

#define SHOWN_NAME (4 * UE_NRES_NAME_SIZE + 1)
#define PREFIX_SIZE (SHOWN_NAME + 16)

/* `manifest/entries[3]` and the stored name as list shows it (escaped) for entry i. */
static void entry_where(const ue_nres *n, size_t i, char *where, size_t where_size,
                        char shown[SHOWN_NAME]) {
    ue_cp1251_entry_name(n->entries[i].name_raw, UE_NRES_NAME_SIZE, shown, SHOWN_NAME);
    snprintf(where, where_size, "manifest/entries[%zu]", i);
}

/* The same with `entry "Robot_Skin.tex": ` to start a message. */
static void entry_prefix(const ue_nres *n, size_t i, char *where, size_t where_size,
                         char prefix[PREFIX_SIZE]) {
    char shown[SHOWN_NAME];
    entry_where(n, i, where, where_size, shown);
    snprintf(prefix, PREFIX_SIZE, "entry \"%s\": ", shown);
}

/* A layout key that does not describe a valid archive: said once per problem (the first few),
 * and the archive is laid out anew, as after an edited payload. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void layout_problem(layout_check *c, const char *where, const char *fmt, ...) {
    c->anew = true;
    if (c->reported++ >= LAYOUT_REPORTS) return;
    char why[220];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    ue_diag_add(c->d, UE_SEV_WARNING, "manifest.layout", UE_NO_OFFSET, where,
                "%s: pack lays the archive out anew (layout keys are kept only while they "
                "describe a valid archive)", why);
}

/* ---- honoured keys the archive cannot hold: refused --------------------------------------- */

static ue_result check_version(const ue_nres *n, ue_diag *d) {
    if (n->version == UE_NRES_VERSION) return UE_OK;
    ue_diag_add(d, UE_SEV_ERROR, "manifest.field", UE_NO_OFFSET, "manifest/header",
                "\"version\" is %u: an NRes archive is version 256 (0x100), the only one the "
                "engine reads",
                n->version);
    return UE_ERR_INVALID;
}

/* A name kept from "name_hex" may lack its NUL or be empty; an edited "name" cannot. */
static ue_result check_names(const ue_nres *n, ue_diag *d) {
    ue_result r = UE_OK;
    for (size_t i = 0; i < n->count; i++) {
        const uint8_t *raw = n->entries[i].name_raw;
        bool no_nul = !memchr(raw, 0, UE_NRES_NAME_SIZE);
        if (!no_nul && raw[0]) continue;
        char where[64], prefix[PREFIX_SIZE];
        entry_prefix(n, i, where, sizeof where, prefix);
        ue_diag_add(d, UE_SEV_ERROR, "manifest.name", UE_NO_OFFSET, where,
                    no_nul ? "%s\"name_hex\" holds no NUL in its 36 bytes: the engine needs one; "
                             "set \"name\" (up to 35 bytes) instead"
                           : "%sthe name is empty: the engine cannot find the entry; set \"name\"",
                    prefix);
        r = UE_ERR_INVALID;
    }
    return r;
}

/* ---- layout keys: kept while valid ------------------------------------------------------- */

/* A payload or unindexed region where the manifest places it. */
typedef struct placed {
    uint32_t start;
    uint64_t end;
    size_t index;
    bool is_gap;
} placed;

static int placed_cmp(const void *a, const void *b) {
    const placed *x = a, *y = b;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    if (x->end != y->end) return x->end < y->end ? -1 : 1;
    if (x->is_gap != y->is_gap) return x->is_gap ? -1 : 1;
    return x->index < y->index ? -1 : (x->index > y->index);
}

/* `entry 4 "A_B"` or `unindexed region 0` into out. */
static void placed_name(const ue_nres *n, const placed *p, char *out, size_t size) {
    char shown[SHOWN_NAME];
    if (p->is_gap) {
        snprintf(out, size, "unindexed region %zu", p->index);
        return;
    }
    ue_cp1251_entry_name(n->entries[p->index].name_raw, UE_NRES_NAME_SIZE, shown, sizeof shown);
    snprintf(out, size, "entry %zu \"%s\"", p->index, shown);
}

static void placed_where(const ue_nres *n, const placed *p, char *where, size_t where_size,
                         char prefix[PREFIX_SIZE]) {
    if (p->is_gap) {
        snprintf(where, where_size, "manifest/unindexed[%zu]", p->index);
        prefix[0] = 0;
    } else {
        entry_prefix(n, p->index, where, where_size, prefix);
    }
}

/* Every payload and region inside [16, dir_offset), or a layout problem naming its key. */
static size_t collect_placed(layout_check *c, placed *out) {
    ue_nres *n = c->n;
    size_t k = 0, total = n->count + n->gap_count;
    for (size_t j = 0; j < total; j++) {
        bool gap = j >= n->count;
        size_t i = gap ? j - n->count : j;
        uint32_t start = gap ? n->gaps[i].offset : n->entries[i].data_offset;
        uint64_t size = gap ? n->gaps[i].size : n->entries[i].size;
        placed p = {start, (uint64_t)start + size, i, gap};
        if (start >= UE_NRES_HEADER_SIZE && p.end <= n->dir_offset) {
            out[k++] = p;
            continue;
        }
        char where[64], prefix[PREFIX_SIZE];
        placed_where(n, &p, where, sizeof where, prefix);
        layout_problem(c, where,
                       "%s\"%s\" is %u: its %llu bytes [0x%x, 0x%llx) do not lie in the data "
                       "region [0x10, 0x%x)",
                       prefix, gap ? "offset" : "data_offset", start, (unsigned long long)size,
                       start, (unsigned long long)p.end, n->dir_offset);
    }
    return k;
}

/* Payloads and regions in file order: each must start after the previous ones end. Offsets
 * that are not 8-aligned are kept (the engine reads them) but said. */
static void check_overlaps(layout_check *c, placed *p, size_t count) {
    qsort(p, count, sizeof *p, placed_cmp);
    const placed *reach = NULL; /* of those before, the one ending last */
    char where[64], prefix[PREFIX_SIZE], other[PREFIX_SIZE];
    for (size_t k = 0; k < count; k++) {
        bool empty = p[k].end == p[k].start;
        if (!empty && reach && p[k].start < reach->end) {
            placed_where(c->n, &p[k], where, sizeof where, prefix);
            placed_name(c->n, reach, other, sizeof other);
            layout_problem(c, where,
                           "%s\"%s\" is %u: its bytes [0x%x, 0x%llx) overlap %s [0x%x, 0x%llx)",
                           prefix, p[k].is_gap ? "offset" : "data_offset", p[k].start,
                           p[k].start, (unsigned long long)p[k].end, other, reach->start,
                           (unsigned long long)reach->end);
        } else if (!p[k].is_gap && p[k].start % UE_NRES_ALIGN) {
            placed_where(c->n, &p[k], where, sizeof where, prefix);
            ue_diag_add(c->d, UE_SEV_WARNING, "manifest.layout", UE_NO_OFFSET, where,
                        "%s\"data_offset\" 0x%x is not 8-byte aligned: kept (the engine reads "
                        "it), but the engine's own writer aligns payloads to 8",
                        prefix, p[k].start);
        }
        if (!reach || p[k].end > reach->end) reach = &p[k];
    }
}

/* Where the payloads end, or 16 when there are none. */
static uint64_t payload_end(const ue_nres *n) {
    uint64_t end = UE_NRES_HEADER_SIZE;
    for (size_t i = 0; i < n->count; i++) {
        uint64_t e = (uint64_t)n->entries[i].data_offset + n->entries[i].size;
        if (e > end) end = e;
    }
    for (size_t g = 0; g < n->gap_count; g++) {
        uint64_t e = (uint64_t)n->gaps[g].offset + n->gaps[g].size;
        if (e > end) end = e;
    }
    return end;
}

/* The directory follows the data region and ends the file: total_size = dir_offset + 64 × the
 * entries. A total_size that alone disagrees is informational (pack writes the right one); a
 * dir_offset that the payloads pass is a layout problem. */
static void check_header_layout(layout_check *c) {
    ue_nres *n = c->n;
    uint64_t dir_end = (uint64_t)n->dir_offset + (uint64_t)n->count * UE_NRES_ENTRY_SIZE;
    if (n->dir_offset < UE_NRES_HEADER_SIZE || dir_end > UINT32_MAX) {
        layout_problem(c, "manifest/header", "\"dir_offset\" is %u: the directory must follow "
                       "the 16-byte header and end within 4 GiB", n->dir_offset);
        return;
    }
    if (n->total_size == dir_end) return;
    uint64_t end = payload_end(n);
    if (end > n->dir_offset) {
        layout_problem(c, "manifest/header",
                       "\"dir_offset\" is %u and \"total_size\" %u, which do not agree (total_size "
                       "is dir_offset + 64 x %zu entries), and the payloads reach 0x%llx",
                       n->dir_offset, n->total_size, n->count, (unsigned long long)end);
        return;
    }
    char given[24], written[24];
    snprintf(given, sizeof given, "%u", n->total_size);
    snprintf(written, sizeof written, "%llu", (unsigned long long)dir_end);
    ue_manifest_informational("manifest/header", NULL, "header.total_size", given, written,
                              "pack writes \"dir_offset\" + 64 x the entries, where the file ends",
                              c->d);
    n->total_size = (uint32_t)dir_end;
}

static ue_result check_layout(layout_check *c) {
    check_header_layout(c);
    if (!c->anew) { /* else payloads are judged against a directory offset that is not kept */
        placed *p = malloc((c->n->count + c->n->gap_count + 1) * sizeof *p);
        if (!p) return UE_ERR_NOMEM;
        size_t count = collect_placed(c, p);
        check_overlaps(c, p, count);
        free(p);
    }
    if (c->reported > LAYOUT_REPORTS)
        ue_diag_add(c->d, UE_SEV_WARNING, "manifest.layout", UE_NO_OFFSET, "manifest",
                    "%zu more layout keys do not describe a valid archive",
                    c->reported - LAYOUT_REPORTS);
    if (c->anew) c->n->layout_dirty = true;
    return UE_OK;
}

/* sort_index lists the entries in name order; a table that does not is computed again. */
static ue_result check_sort(layout_check *c) {
    ue_nres *n = c->n;
    if (n->sort_dirty || ue_nres_sort_table_valid(n)) return UE_OK;
    uint32_t *perm = ue_malloc_items(n->count, sizeof *perm);
    if (!perm) return UE_ERR_NOMEM;
    ue_result r = ue_nres_compute_sort(n, perm);
    size_t differ = 0;
    for (size_t i = 0; i < n->count && r == UE_OK; i++) {
        if (n->entries[i].sort_index == perm[i] || differ++ >= LAYOUT_REPORTS) continue;
        char where[64], shown[SHOWN_NAME], given[16], written[16];
        entry_where(n, i, where, sizeof where, shown);
        snprintf(given, sizeof given, "%u", n->entries[i].sort_index);
        snprintf(written, sizeof written, "%u", perm[i]);
        ue_manifest_informational(where, shown, "sort_index", given, written,
                                  "pack sorts the table by name, ignoring the case of A-Z "
                                  "(rename entries to change it)",
                                  c->d);
    }
    if (differ > LAYOUT_REPORTS)
        ue_diag_add(c->d, UE_SEV_WARNING, "manifest.informational", UE_NO_OFFSET, "manifest",
                    "%zu more \"sort_index\" values differ from what pack writes",
                    differ - LAYOUT_REPORTS);
    free(perm);
    n->sort_dirty = true;
    return r;
}

/* ---- informational keys of the header and entries ---------------------------------------- */

static void check_header_facts(const ue_nres *n, const ue_jv *header, ue_diag *d) {
    const ue_jv *magic = ue_jv_get(header, "magic");
    const char *text = ue_jv_string(magic);
    char given[128], written[24];
    if (magic && !(text && !strcmp(text, "NRes"))) {
        ue_jv_show(magic, given, sizeof given);
        ue_manifest_informational("manifest/header", NULL, "header.magic", given, "\"NRes\"",
                                  "every NRes archive starts with it", d);
    }
    const ue_jv *sorted = ue_jv_get(header, "sort_table_valid");
    if (sorted && !ue_jv_is(sorted, UE_JV_TRUE)) {
        ue_jv_show(sorted, given, sizeof given);
        ue_manifest_informational("manifest/header", NULL, "header.sort_table_valid", given,
                                  "true", "pack writes a sort table in name order", d);
    }
    uint64_t regions;
    const ue_jv *rj = ue_jv_get(header, "unindexed_regions");
    if (rj && !(ue_jv_u64(header, "unindexed_regions", &regions, NULL, NULL) &&
                regions == n->gap_count)) {
        ue_jv_show(rj, given, sizeof given);
        snprintf(written, sizeof written, "%zu", n->gap_count);
        ue_manifest_informational("manifest/header", NULL, "header.unindexed_regions", given,
                                  written, "edit the \"unindexed\" list instead", d);
    }
    /* An entry count that agrees with the recorded directory is another entry set: no edit. */
    uint32_t count = 0;
    const ue_jv *cj = ue_jv_get(header, "entry_count");
    bool other_set = ue_jv_u32(header, "entry_count", &count, NULL, NULL) &&
                     (uint64_t)n->dir_offset + (uint64_t)count * UE_NRES_ENTRY_SIZE ==
                         n->total_size;
    if (cj && count != n->count && !other_set) {
        ue_jv_show(cj, given, sizeof given);
        snprintf(written, sizeof written, "%zu", n->count);
        ue_manifest_informational("manifest/header", NULL, "header.entry_count", given, written,
                                  "pack counts the entries", d);
    }
}

static void check_damaged_keys(const ue_nres *n, const ue_jv *entries, ue_diag *d) {
    for (size_t i = 0; i < n->count; i++) {
        const ue_jv *v = ue_jv_get(ue_jv_at(entries, i), "damaged");
        if (!v || ue_jv_is(v, UE_JV_FALSE)) continue;
        char where[64], shown[SHOWN_NAME], given[128];
        entry_where(n, i, where, sizeof where, shown);
        ue_jv_show(v, given, sizeof given);
        ue_manifest_informational(where, shown, "damaged", given, "false",
                                  "pack writes the payload from \"file\"; an entry without one "
                                  "is refused", d);
    }
}

ue_result ue_nres_pack_check(ue_nres *n, const ue_jv *manifest, ue_diag *d) {
    const ue_jv *header = ue_jv_get(manifest, "header");
    const ue_jv *entries = ue_jv_get(manifest, "entries");
    ue_result r = check_version(n, d);
    ue_result names = check_names(n, d);
    if (r == UE_OK) r = names;
    if (r != UE_OK) return r;
    layout_check c = {n, d, 0, false};
    /* A payload that changed size or another entry set already asks for a new layout: the
     * recorded one is then stale, not edited, and says nothing. */
    if (!n->layout_dirty) r = check_layout(&c);
    if (r == UE_OK) r = check_sort(&c);
    check_header_facts(n, header, d);
    check_damaged_keys(n, entries, d);
    return r;
}

void ue_nres_check_packed_keys(const ue_nres *packed, const char (*nested)[16],
                               const ue_jv *manifest, ue_diag *d) {
    const ue_jv *entries = ue_jv_get(manifest, "entries");
    for (size_t i = 0; i < packed->count && i < ue_jv_size(entries); i++) {
        const ue_jv *ej = ue_jv_at(entries, i), *v = ue_jv_get(ej, "nested");
        const char *text = ue_jv_string(v);
        if (!v || (text && !strcmp(text, nested[i]))) continue;
        char where[64], shown[SHOWN_NAME], given[128], written[24];
        entry_where(packed, i, where, sizeof where, shown);
        ue_jv_show(v, given, sizeof given);
        snprintf(written, sizeof written, nested[i][0] ? "\"%s\"" : "nothing", nested[i]);
        ue_manifest_informational(where, shown, "nested", given, written,
                                  "list and validate tell a nested archive by the payload's "
                                  "first bytes",
                                  d);
    }
}
