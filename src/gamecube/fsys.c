/* unearth — FSYS archives (Pokémon Colosseum / XD): the bounded reader, the canonical writer, and
 * the container contract (list, read with LZSS decoding, extract with a byte-exact skeleton, pack). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/container.h"
#include "common/parse.h"
#include "gamecube/fsys_int.h"
#include "gamecube/gamecube_int.h"
#include "unearth/gamecube.h"
#include "common/bytes.h"
#include "common/write_pool.h"
#include "common/xxh64.h"

#define HEADER_MIN 0x44u      /* the entry-list word at 0x40 must be readable (docs/formats/fsys.md#header) */
#define HEADER_KEEP 0x60u     /* header + offsets table, kept raw for re-emission */
#define REC_USED 0x28u        /* record bytes the reader interprets */
#define REC_V1 0x50u
#define REC_V2 0x70u
#define NAME_MAX_LEN 255u
#define FOOTER_SIZE 0x20u
#define PAYLOAD_ALIGN 0x20u

/* ---- type codes (docs/formats/fsys.md#type-codes, the extensions included) ----------------- */

static const struct {
    uint8_t code;
    const char *name;
    const char *ext;
} type_table[] = {
    {0x00, "none", ".bin"},  {0x02, "rdat", ".dat"}, /* .dat for 0x02: docs/formats/fsys.md#type-codes */
    {0x04, "dat", ".dat"},   {0x06, "ccd", ".ccd"},  {0x08, "samp", ".samp"},
    {0x0A, "msg", ".msg"},   {0x0C, "fnt", ".fnt"},  {0x0E, "scd", ".scd"},
    {0x10, "dats", ".dats"}, {0x12, "gtx", ".gtx"},  {0x14, "gpt1", ".gpt1"},
    {0x18, "cam", ".cam"},   {0x1C, "rel", ".rel"},  {0x1E, "pkx", ".pkx"},
    {0x20, "wzx", ".wzx"},   {0x22, "gfl", ".gfl"},  {0x24, "gpt1", ".gpt1"},
    {0x26, "rel", ".rel"},   {0x28, "isd", ".isd"},  {0x2A, "ish", ".ish"},
    {0x2C, "thh", ".thh"},   {0x2E, "thd", ".thd"},  {0x30, "gsw", ".gsw"},
    {0x32, "atx", ".atx"},   {0x34, "bin", ".bin"},
};

const char *ue_fsys_type_name(uint8_t code) {
    for (size_t i = 0; i < sizeof type_table / sizeof type_table[0]; i++)
        if (type_table[i].code == code) return type_table[i].name;
    return NULL;
}

const char *ue_fsys_type_ext(uint8_t code) {
    for (size_t i = 0; i < sizeof type_table / sizeof type_table[0]; i++)
        if (type_table[i].code == code) return type_table[i].ext;
    return ".bin";
}

static size_t align_up(size_t v, size_t a) { return (v + (a - 1)) / a * a; }

/* ---- reader ----------------------------------------------------------------------------------
 * Bounded work (docs/bounded-work.md): the entry list is checked as a whole before any entry is
 * parsed. Records must not overlap the header, the list or each other, so every kept entry owns
 * at least REC_USED bytes of the file; payloads must not overlap, so decoding every entry reads
 * each stored byte once. Names stay in the file and are read again when they are shown. */

#define OVERLAP_REPORTS 8u    /* individual diagnostics per kind; the rest are summed up */
#define LZSS_MAX_RATIO 9u     /* an Okumura LZSS stream never expands more than 144/17 times */

/* Per-pointer verdict of the whole-list check. */
enum { REC_OK = 0, REC_OUTSIDE = 1, REC_OVERLAP = 2 };

bool ue_fsys_raw_name(const fsys_state *s, size_t i, bool full, uint8_t out[256], size_t *len) {
    const fsys_entry *e = &s->e[i];
    *len = 0;
    bool has = full ? e->has_full : e->has_short;
    size_t n = full ? e->full_len : e->short_len;
    if (!has || ue_source_read(&s->src, full ? e->full_ptr : e->short_ptr, out, n) != UE_OK)
        return false;
    *len = n;
    return true;
}

bool ue_fsys_shown_name(const uint8_t *full, size_t full_len, const uint8_t *short_name,
                        size_t short_len, uint8_t type_code, char *out, size_t out_size) {
    char tmp[NAME_MAX_LEN * 4 + 1];
    if (full && full_len > 0) {
        ue_printable_name(full, full_len, out, out_size);
    } else if (short_name && short_len > 0) {
        ue_printable_name(short_name, short_len, tmp, sizeof tmp);
        /* docs/formats/fsys.md#names: a short name without an extension gets the type's. */
        snprintf(out, out_size, "%.200s%s", tmp, strchr(tmp, '.') ? "" : ue_fsys_type_ext(type_code));
    } else {
        return false;
    }
    return true;
}

void ue_fsys_display_name(const fsys_state *s, size_t i, char *out, size_t out_size) {
    const fsys_entry *e = &s->e[i];
    uint8_t full[256], short_name[256];
    size_t full_len, short_len;
    if (!ue_fsys_raw_name(s, i, true, full, &full_len)) full_len = 0;
    if (!ue_fsys_raw_name(s, i, false, short_name, &short_len)) short_len = 0;
    if (!ue_fsys_shown_name(full, full_len, short_name, short_len, e->type_code, out, out_size))
        snprintf(out, out_size, "%.64s_entry_%u%s", s->archive_name, e->list_index,
                 ue_fsys_type_ext(e->type_code));
}

/* Checks the C string at `ptr` (docs/formats/fsys.md#defensive-rules, rules 3-4) and records its length. 0 = no name.
 * A bad name costs the name (e->name_bad), not the payload. */
static bool check_name(fsys_state *s, ue_parse_ctx *c, fsys_entry *e, uint32_t ptr,
                       uint64_t field_off, const char *field, uint8_t *len) {
    *len = 0;
    if (ptr == 0) return false;
    char path[64];
    snprintf(path, sizeof path, "fsys/entry[%u]/%s", e->list_index, field);
    if (ptr >= s->size) {
        e->name_bad = true;
        ue_damage(c, "fsys.name.range", field_off, path,
                  "name pointer 0x%X lies outside the %llu-byte archive", ptr,
                  (unsigned long long)s->size);
        return false;
    }
    uint8_t buf[NAME_MAX_LEN + 1];
    size_t take = s->size - ptr < sizeof buf ? (size_t)(s->size - ptr) : sizeof buf;
    if (ue_source_read(&s->src, ptr, buf, take) != UE_OK) {
        e->name_bad = true;
        ue_damage_reported(c);
        return false;
    }
    uint8_t *nul = memchr(buf, 0, take);
    if (!nul) {
        e->name_bad = true;
        ue_damage(c, "fsys.name.unterminated", ptr, path, "name at 0x%X has no NUL within %zu bytes",
                  ptr, take);
        return false;
    }
    *len = (uint8_t)(nul - buf);
    return true;
}

/* The LZSS header of a compressed entry must agree with its record, and its declared size must
 * be one the stored bytes can produce (so no decoder is asked to allocate more). */
static bool check_lzss_entry(fsys_state *s, ue_parse_ctx *c, fsys_entry *e) {
    char path[64];
    snprintf(path, sizeof path, "fsys/entry[%u]/lzss", e->list_index);
    uint8_t head[UE_GCLZSS_HEADER];
    size_t take = e->stored_size < sizeof head ? e->stored_size : sizeof head;
    if (ue_source_read(&s->src, e->data_off, head, take) != UE_OK) return false;
    ue_gclzss_header h;
    ue_diag scratch = {0}; /* only the first 16 bytes are here: the size check is ours */
    ue_result hr = ue_gclzss_parse_header(head, take, &h, &scratch, e->data_off, path);
    ue_diag_append(c->d, &scratch, UE_SEV_ERROR);
    ue_diag_free(&scratch);
    if (hr == UE_OK && (h.compressed_size < UE_GCLZSS_HEADER || h.compressed_size > e->stored_size))
        ue_diag_add(c->d, UE_SEV_WARNING, "lzss.size_fallback", e->data_off + 8u, path,
                    "declared compressed size %u does not fit the %u stored bytes; the "
                    "whole slice is decoded (docs/formats/lzss.md#size-fallback)",
                    h.compressed_size, e->stored_size);
    uint64_t most = (uint64_t)LZSS_MAX_RATIO * e->stored_size + 18u;
    if (hr != UE_OK) {
        e->damaged = true;
        ue_damage_reported(c);
    } else if (h.uncompressed_size > most) {
        ue_damage(c, "fsys.entry.size_limit", e->data_off + 4u, path,
                  "declares %u decoded bytes, more than %u stored LZSS bytes can produce",
                  h.uncompressed_size, e->stored_size);
        e->damaged = true;
    } else if (h.uncompressed_size != e->usize) {
        /* The game trusts +0x08 of neither structure alone; a disagreement means damage. */
        ue_violation(c, "fsys.entry.size_mismatch", e->rec_off + 8u, path,
                     "record says %u decoded bytes, the LZSS header says %u", e->usize,
                     h.uncompressed_size);
    }
    return true;
}

static void decode_record(fsys_entry *e, const uint8_t *p) {
    e->file_id = ue_load_u16be(p);
    e->type_code = p[2];
    e->data_off = ue_load_u32be(p + 0x04);
    e->usize = ue_load_u32be(p + 0x08);
    e->flags = ue_load_u32be(p + 0x0C);
    e->stored_size = ue_load_u32be(p + 0x14);
    e->full_ptr = ue_load_u32be(p + 0x1C);
    e->type_index = ue_load_u32be(p + 0x20);
    e->short_ptr = ue_load_u32be(p + 0x24);
    e->compressed = (e->flags & UE_FSYS_FLAG_COMPRESSED) != 0;
}

/* Parses the record of a kept entry (its place was checked by check_records). Problems go to
 * the parse context and mark the entry; only a failed read is returned. */
static ue_result parse_entry(fsys_state *s, ue_parse_ctx *c, fsys_entry *e) {
    uint32_t ptr = e->rec_off;
    size_t want = s->version >= 0x200 ? REC_V2 : REC_V1;
    e->rec_len = (uint8_t)(s->size - ptr < want ? s->size - ptr : want);
    uint8_t p[REC_USED];
    ue_result r = ue_source_read(&s->src, ptr, p, REC_USED);
    if (r != UE_OK) return r;
    decode_record(e, p);

    /* An unknown type code needs no note: the listing shows the raw code and the entry is
     * simply not routed anywhere. A bad name pointer keeps the entry. */
    e->has_full = check_name(s, c, e, e->full_ptr, ptr + 0x1Cu, "full_name_offset", &e->full_len);
    e->has_short = check_name(s, c, e, e->short_ptr, ptr + 0x24u, "name_offset", &e->short_len);

    char path[64];
    snprintf(path, sizeof path, "fsys/entry[%u]/data_offset", e->list_index);
    if (!ue_range_ok(e->data_off, e->stored_size, s->size)) {
        ue_damage(c, "fsys.entry.data_range", ptr + 4u, path,
                  "payload [0x%X, +0x%X) lies outside the %llu-byte archive", e->data_off,
                  e->stored_size, (unsigned long long)s->size);
        e->range_bad = true;
        e->damaged = true;
    } else if (e->compressed) {
        if (!check_lzss_entry(s, c, e)) return UE_ERR_IO;
    } else if (e->usize != e->stored_size) {
        snprintf(path, sizeof path, "fsys/entry[%u]/size", e->list_index);
        ue_diag_add(c->d, UE_SEV_WARNING, "fsys.entry.size_mismatch", ptr + 8u, path,
                    "uncompressed entry: size %u differs from stored size %u (stored size used)",
                    e->usize, e->stored_size);
    }
    return UE_OK;
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static bool spans_overlap(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen) {
    return a < b + blen && b < a + alen;
}

/* Gives every pointer of the list a verdict in one sorted pass: records that do not fit the
 * file, and records that overlap the header, the list or an earlier record, are marked. */
static ue_result check_records(fsys_state *s, const uint8_t *list, uint8_t *verdict) {
    size_t n = s->list_count;
    uint64_t *key = ue_malloc_items(n, sizeof *key);
    if (!key) return UE_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) key[i] = (uint64_t)ue_load_u32be(list + 4 * i) << 32 | i;
    qsort(key, n, sizeof *key, cmp_u64);
    const uint64_t want = s->version >= 0x200 ? REC_V2 : REC_V1;
    const uint64_t list_len = 4u * (uint64_t)n;
    uint64_t kept_end = 0;
    for (size_t k = 0; k < n; k++) {
        uint64_t ptr = key[k] >> 32;
        size_t i = (size_t)(key[k] & 0xFFFFFFFFu);
        uint64_t len = s->size - ptr < want ? s->size - ptr : want;
        if (!ue_range_ok(ptr, REC_USED, s->size)) verdict[i] = REC_OUTSIDE;
        else if (ptr < HEADER_KEEP || ptr < kept_end ||
                 spans_overlap(ptr, len, s->list_ofs, list_len))
            verdict[i] = REC_OVERLAP;
        else kept_end = ptr + len;
    }
    free(key);
    return UE_OK;
}

/* Reports the verdicts: a record outside the file is damage (an error in both modes), an
 * overlapping one a violation; tolerant mode drops overlapping records and keeps at most
 * UE_FSYS_MAX_BAD_ENTRIES unreadable ones. Returns the number of entries to keep. */
static size_t report_records(fsys_state *s, ue_parse_ctx *c, const uint8_t *list,
                             uint8_t *verdict) {
    bool strict = ue_parse_strict(c);
    size_t kept = 0, outside = 0, overlap = 0, dropped = 0;
    char path[64];
    for (size_t i = 0; i < s->list_count; i++) {
        uint32_t ptr = ue_load_u32be(list + 4 * i);
        uint64_t at = s->list_ofs + 4u * (uint64_t)i;
        snprintf(path, sizeof path, "fsys/entry[%zu]/pointer", i);
        if (verdict[i] == REC_OUTSIDE && outside++ < OVERLAP_REPORTS)
            ue_damage(c, "fsys.entry.pointer", at, path,
                      "entry record at 0x%X does not fit the %llu-byte archive", ptr,
                      (unsigned long long)s->size);
        if (verdict[i] == REC_OVERLAP && overlap++ < OVERLAP_REPORTS)
            ue_violation(c, "fsys.entry.overlap", at, path,
                         "entry record at 0x%X overlaps the header, the entry list or another "
                         "record%s", ptr, strict ? "" : "; the entry is dropped");
        if (verdict[i] == REC_OVERLAP || (verdict[i] == REC_OUTSIDE && outside > UE_FSYS_MAX_BAD_ENTRIES)) {
            verdict[i] = REC_OVERLAP; /* from here on: "not kept" */
            dropped++;
        } else {
            kept++;
        }
    }
    if (outside > OVERLAP_REPORTS)
        ue_damage(c, "fsys.entry.pointer", s->list_ofs, "fsys/entry_list",
                  "%zu more entry records do not fit the archive", outside - OVERLAP_REPORTS);
    if (overlap > OVERLAP_REPORTS)
        ue_violation(c, "fsys.entry.overlap", s->list_ofs, "fsys/entry_list",
                     "%zu more entry records overlap the header, the list or another record",
                     overlap - OVERLAP_REPORTS);
    if (dropped && !strict)
        ue_diag_add(c->d, UE_SEV_WARNING, "fsys.entry.dropped", s->list_ofs, "fsys/entry_list",
                    "%zu of %u entries were dropped; %zu are kept", dropped, s->list_count, kept);
    return kept;
}

/* Payloads of different entries must not overlap (each stored byte is decoded once); in
 * tolerant mode the later of two overlapping entries is kept as damaged, without a payload. */
static ue_result check_payloads(fsys_state *s, ue_parse_ctx *c) {
    uint64_t *key = ue_malloc_items(s->count, sizeof *key);
    if (!key) return UE_ERR_NOMEM;
    size_t n = 0;
    for (size_t i = 0; i < s->count; i++)
        if (!s->e[i].range_bad && s->e[i].stored_size > 0)
            key[n++] = (uint64_t)s->e[i].data_off << 32 | i;
    qsort(key, n, sizeof *key, cmp_u64);
    uint64_t max_end = 0;
    size_t reported = 0;
    for (size_t k = 0; k < n; k++) {
        fsys_entry *e = &s->e[key[k] & 0xFFFFFFFFu];
        if (e->data_off < max_end) {
            char path[64];
            snprintf(path, sizeof path, "fsys/entry[%u]/data_offset", e->list_index);
            if (reported++ < OVERLAP_REPORTS)
                ue_violation(c, "fsys.entry.data_overlap", e->rec_off + 4u, path,
                             "payload [0x%X, +0x%X) overlaps another entry's payload",
                             e->data_off, e->stored_size);
            e->range_bad = e->damaged = true;
            continue;
        }
        max_end = (uint64_t)e->data_off + e->stored_size;
    }
    if (reported > OVERLAP_REPORTS)
        ue_violation(c, "fsys.entry.data_overlap", UE_NO_OFFSET, "fsys/entry_list",
                     "%zu more payloads overlap another entry's payload",
                     reported - OVERLAP_REPORTS);
    free(key);
    return UE_OK;
}

static void decode_header_fields(fsys_state *s) {
    const uint8_t *h = s->header;
    s->version = ue_load_u32be(h + 0x04);
    s->group_id = ue_load_u32be(h + 0x08);
    s->list_count = ue_load_u32be(h + 0x0C);
    s->hflags = ue_load_u32be(h + 0x10);
    s->table_ofs = ue_load_u32be(h + 0x18);
    s->data_start = ue_load_u32be(h + 0x1C);
    s->total_size = ue_load_u32be(h + 0x20);
    s->list_ofs = ue_load_u32be(h + 0x40);
    if (s->header_len >= 0x4C) {
        s->str_ofs = ue_load_u32be(h + 0x44);
        s->data_ofs = ue_load_u32be(h + 0x48);
    }
}

/* The header's size against the file's: a cut-short archive is a violation (the header and
 * the footer both say how long it is); extra bytes are only a warning. */
static void check_file_size(fsys_state *s, ue_parse_ctx *c) {
    if (s->total_size == s->size) return;
    bool truncated = s->total_size > s->size;
    if (truncated)
        ue_violation(c, "fsys.header.total_size", 0x20, "fsys/header/total_size",
                     "header says %u bytes, the archive has %llu (it is cut short)",
                     s->total_size, (unsigned long long)s->size);
    else
        ue_diag_add(c->d, UE_SEV_WARNING, "fsys.header.total_size", 0x20, "fsys/header/total_size",
                    "header says %u bytes, the archive has %llu", s->total_size,
                    (unsigned long long)s->size);
}

/* Header fields, the entry list's place and the file's own size. */
static ue_result parse_header(fsys_state *s, ue_parse_ctx *c) {
    if (s->size < HEADER_MIN) {
        ue_diag_add(c->d, UE_SEV_ERROR, "fsys.header.truncated", 0, "fsys/header",
                    "%llu bytes is too short for an FSYS header (needs 0x%X)",
                    (unsigned long long)s->size, HEADER_MIN);
        return UE_ERR_INVALID;
    }
    s->header_len = s->size < HEADER_KEEP ? (size_t)s->size : HEADER_KEEP;
    ue_result r = ue_source_read(&s->src, 0, s->header, s->header_len);
    if (r != UE_OK) return r;
    if (memcmp(s->header, "FSYS", 4) != 0) {
        ue_diag_add(c->d, UE_SEV_ERROR, "fsys.magic", 0, "fsys/header/magic",
                    "missing \"FSYS\" magic (found %02X %02X %02X %02X)", s->header[0],
                    s->header[1], s->header[2], s->header[3]);
        return UE_ERR_INVALID;
    }
    decode_header_fields(s);
    if (s->list_count > UE_CAP_TABLE_ENTRIES ||
        !ue_range_ok(s->list_ofs, 4u * (uint64_t)s->list_count, s->size)) {
        ue_diag_add(c->d, UE_SEV_ERROR, "fsys.header.entry_list", 0x40, "fsys/header/entry_list",
                    "%u entry pointers at 0x%X do not fit the %llu-byte archive", s->list_count,
                    s->list_ofs, (unsigned long long)s->size);
        return UE_ERR_INVALID;
    }
    check_file_size(s, c);
    uint8_t tail[4];
    s->footer_ok = ue_source_read(&s->src, s->size - 4, tail, 4) == UE_OK &&
                   memcmp(tail, "FSYS", 4) == 0;
    if (!s->footer_ok)
        ue_diag_add(c->d, UE_SEV_WARNING, "fsys.footer", s->size - 4, "fsys/footer",
                    "the archive does not end with the \"FSYS\" footer magic");
    return UE_OK;
}

/* Parses the kept records in list order; a record outside the file is kept as damaged. */
static ue_result parse_kept_entries(fsys_state *s, ue_parse_ctx *c, const uint8_t *list,
                                    const uint8_t *verdict) {
    for (size_t i = 0; i < s->list_count; i++) {
        if (verdict[i] == REC_OVERLAP) continue;
        fsys_entry *e = &s->e[s->count++];
        e->list_index = (uint32_t)i;
        e->rec_off = ue_load_u32be(list + 4 * i);
        if (verdict[i] == REC_OUTSIDE) {
            e->range_bad = e->damaged = true; /* reported by report_records */
            continue;
        }
        ue_result r = parse_entry(s, c, e);
        if (r != UE_OK) return r;
    }
    return UE_OK;
}

/* Checks the list as a whole, then parses the records that are kept, in list order. */
static ue_result parse_entries(fsys_state *s, ue_parse_ctx *c) {
    uint8_t *list = NULL, *verdict = ue_calloc_items(s->list_count, 1);
    ue_result r = ue_source_read_alloc(&s->src, s->list_ofs, 4u * (size_t)s->list_count,
                                       4u * UE_CAP_TABLE_ENTRIES, &list);
    if (r == UE_OK && !verdict) r = UE_ERR_NOMEM;
    if (r == UE_OK) r = check_records(s, list, verdict);
    size_t kept = r == UE_OK ? report_records(s, c, list, verdict) : 0;
    /* In strict mode a dropped record has already failed the parse: the rest is not read. */
    if (r == UE_OK && kept < s->list_count && ue_parse_failed(c)) r = c->failure;
    if (r == UE_OK && !(s->e = ue_calloc_items(kept, sizeof *s->e))) r = UE_ERR_NOMEM;
    if (r == UE_OK) r = parse_kept_entries(s, c, list, verdict);
    if (r == UE_OK) r = check_payloads(s, c);
    free(list);
    free(verdict);
    return r;
}

ue_result ue_fsys_parse(const ue_source *src, ue_mode mode, const char *archive_name,
                        fsys_state **out, ue_diag *d) {
    *out = NULL;
    fsys_state *s = calloc(1, sizeof *s);
    if (!s) return UE_ERR_NOMEM;
    s->src = *src;
    s->mode = mode;
    s->size = src->size;
    snprintf(s->archive_name, sizeof s->archive_name, "%s", archive_name ? archive_name : "fsys");
    ue_parse_ctx c = ue_parse_begin(mode, d);
    ue_result r = parse_header(s, &c);
    if (r == UE_OK && !ue_parse_failed(&c)) r = parse_entries(s, &c);
    if (r == UE_OK) r = c.failure;
    if (r != UE_OK) {
        ue_fsys_free(s);
        return r;
    }
    *out = s;
    return UE_OK;
}

void ue_fsys_free(fsys_state *s) {
    if (!s) return;
    for (size_t i = 0; s->kept && i < s->count; i++) free(s->kept[i].data);
    free(s->kept);
    free(s->e);
    free(s);
}

ue_result ue_fsys_read_stored(fsys_state *s, size_t i, uint8_t **data, size_t *size,
                              ue_diag *d) {
    fsys_entry *e = &s->e[i];
    *data = NULL;
    *size = 0;
    if (e->range_bad) {
        char path[64];
        snprintf(path, sizeof path, "fsys/entry[%zu]/data_offset", i);
        ue_diag_add(d, UE_SEV_ERROR, "fsys.entry.damaged", e->rec_off + 4u, path,
                    "entry %zu has no readable payload", i);
        return UE_ERR_INVALID;
    }
    ue_result r = ue_source_read_alloc(&s->src, e->data_off, e->stored_size, UE_CAP_ENTRY_BYTES,
                                       data);
    if (r == UE_OK) *size = e->stored_size;
    return r;
}

/* Decodes compressed entry i from its `n` stored bytes into a new buffer (*data); `emit`, when
 * not NULL, sees each stretch of it as soon as it is decoded. */
static ue_result decode_stored(fsys_state *s, size_t i, const uint8_t *stored, size_t n,
                               uint8_t **data, size_t *size, ue_lzss_emit_fn emit, void *ctx,
                               ue_diag *d) {
    char path[64];
    snprintf(path, sizeof path, "fsys/entry[%zu]/lzss", i);
    atomic_fetch_add_explicit(&s->decodes, 1, memory_order_relaxed);
    return ue_gclzss_decode_emit(stored, n, s->mode, data, size, emit, ctx, d, s->e[i].data_off,
                                 path);
}

ue_result ue_fsys_read_entry(fsys_state *s, size_t i, uint8_t **data, size_t *size,
                             ue_diag *d) {
    fsys_entry *e = &s->e[i];
    uint8_t *stored;
    size_t n;
    ue_result r = ue_fsys_read_stored(s, i, &stored, &n, d);
    if (r != UE_OK) return r;
    if (!e->compressed) {
        *data = stored;
        *size = n;
        return UE_OK;
    }
    r = decode_stored(s, i, stored, n, data, size, NULL, NULL, d);
    free(stored);
    return r;
}

static ue_result hash_piece(void *ctx, uint64_t at, const uint8_t *p, size_t n) {
    ue_xxh64_state *h = ctx;
    if (at == 0) ue_xxh64_init(h, 0); /* a tolerant decode's second attempt starts over */
    ue_xxh64_update(h, p, n);
    return UE_OK;
}

ue_result ue_fsys_keep_entry(fsys_state *s, size_t i, const uint8_t *view, ue_diag *d) {
    const fsys_entry *e = &s->e[i];
    uint8_t *stored = NULL;
    size_t n = e->stored_size;
    ue_result r = UE_OK;
    if (!view || !ue_range_ok(e->data_off, e->stored_size, s->size))
        r = ue_fsys_read_stored(s, i, &stored, &n, d);
    if (r != UE_OK) return r;
    ue_xxh64_state h;
    ue_xxh64_init(&h, 0);
    fsys_kept *k = &s->kept[i];
    r = decode_stored(s, i, stored ? stored : view + e->data_off, n, &k->data, &k->size,
                      hash_piece, &h, d);
    free(stored);
    k->xxh64 = ue_xxh64_digest(&h);
    return r;
}

/* ---- layout skeleton: every byte that is not a payload, so unchanged archives re-emit exactly */

typedef struct range_ref {
    uint64_t off, len;
    size_t entry;
} range_ref;

static int cmp_range(const void *a, const void *b) {
    const range_ref *x = a, *y = b;
    if (x->off != y->off) return x->off < y->off ? -1 : 1;
    if (x->len != y->len) return x->len < y->len ? -1 : 1;
    return x->entry < y->entry ? -1 : x->entry > y->entry;
}

/* Segments: payload ranges that overlap no other range (identical ranges share one); their
 * bytes come from the entries, everything else from the skeleton. */
ue_result ue_fsys_layout(const fsys_state *s, fsys_segment **segs, size_t *nsegs) {
    *segs = NULL;
    *nsegs = 0;
    range_ref *r = ue_calloc_items(s->count, sizeof *r);
    fsys_segment *out = ue_calloc_items(s->count, sizeof *out);
    if (!r || !out) {
        free(r);
        free(out);
        return UE_ERR_NOMEM;
    }
    size_t n = 0;
    for (size_t i = 0; i < s->count; i++) {
        const fsys_entry *e = &s->e[i];
        if (e->range_bad || e->stored_size == 0) continue;
        r[n].off = e->data_off;
        r[n].len = e->stored_size;
        r[n].entry = i;
        n++;
    }
    qsort(r, n, sizeof *r, cmp_range);
    size_t k = 0;
    uint64_t max_end = 0;
    for (size_t a = 0; a < n;) {
        size_t b = a + 1;
        while (b < n && r[b].off == r[a].off && r[b].len == r[a].len) b++;
        uint64_t end = r[a].off + r[a].len;
        bool overlap = r[a].off < max_end || (b < n && r[b].off < end);
        if (!overlap) {
            out[k].off = r[a].off;
            out[k].len = r[a].len;
            out[k].entry = r[a].entry;
            k++;
        }
        if (end > max_end) max_end = end;
        a = b;
    }
    free(r);
    *segs = out;
    *nsegs = k;
    return UE_OK;
}

/* ---- canonical writer ----------------------------------------------------------------------- */

/* Everything the canonical writer decides before it emits a byte: each entry's stored bytes
 * and decoded size, the name table with each name's place, and the file's offsets. */
typedef struct write_plan {
    size_t count;
    size_t rec_size;            /* 0x50 or 0x70 */
    uint8_t **stored;           /* stored bytes (LZSS blob or raw payload) per entry */
    size_t *stored_size;
    uint32_t *usize;            /* decoded size per entry */
    ue_buf names;               /* short names, then full names, 16-aligned */
    size_t *short_at, *full_at; /* offsets in `names` */
    size_t *data_at;            /* payload offset per entry */
    size_t list_ofs, str_ofs, rec_ofs, data_ofs, footer_at, total;
} write_plan;

static void plan_free(write_plan *p) {
    if (p->stored)
        for (size_t i = 0; i < p->count; i++) free(p->stored[i]);
    free(p->stored);
    free(p->stored_size);
    free(p->usize);
    ue_buf_free(&p->names);
    free(p->short_at);
    free(p->full_at);
    free(p->data_at);
}

static ue_result plan_alloc(write_plan *p, size_t count, uint32_t version) {
    size_t n = count ? count : 1;
    p->count = count;
    p->rec_size = version >= 0x200 ? REC_V2 : REC_V1;
    p->stored = calloc(n, sizeof *p->stored);
    p->stored_size = calloc(n, sizeof *p->stored_size);
    p->usize = calloc(n, sizeof *p->usize);
    p->short_at = calloc(n, sizeof *p->short_at);
    p->full_at = calloc(n, sizeof *p->full_at);
    p->data_at = calloc(n, sizeof *p->data_at);
    bool ok = p->stored && p->stored_size && p->usize && p->short_at && p->full_at && p->data_at;
    return ok ? UE_OK : UE_ERR_NOMEM;
}

static uint8_t *copy_bytes(const uint8_t *src, size_t n) {
    uint8_t *out = ue_malloc_items(n, 1);
    if (out && n) memcpy(out, src, n);
    return out;
}

/* Entry i's stored bytes: the given blob as it is, its payload compressed, or its payload. */
static ue_result plan_payload(write_plan *p, const ue_fsys_write_options *opt,
                              const ue_fsys_write_entry *e, size_t i, ue_diag *d) {
    ue_result r = UE_OK;
    if (e->stored) {
        if (e->compressed && !ue_gclzss_probe(e->stored, e->stored_size)) {
            char path[64];
            snprintf(path, sizeof path, "fsys/entry[%zu]", i);
            ue_diag_add(d, UE_SEV_ERROR, "lzss.magic", UE_NO_OFFSET, path,
                        "stored bytes of a compressed entry lack the \"LZSS\" magic");
            return UE_ERR_INVALID;
        }
        if (!(p->stored[i] = copy_bytes(e->stored, e->stored_size))) return UE_ERR_NOMEM;
        p->stored_size[i] = e->stored_size;
        if (e->data) p->usize[i] = (uint32_t)e->size;
        else if (e->compressed && e->stored_size >= 8) p->usize[i] = ue_load_u32be(e->stored + 4);
        else p->usize[i] = (uint32_t)e->stored_size;
    } else if (e->compressed) {
        ue_buf b = {0};
        r = ue_gclzss_encode(e->data, e->size, opt->level, 0, &b);
        p->stored[i] = ue_buf_take(&b, &p->stored_size[i]);
        p->usize[i] = (uint32_t)e->size;
    } else {
        if (!(p->stored[i] = copy_bytes(e->data, e->size))) return UE_ERR_NOMEM;
        p->stored_size[i] = e->size;
        p->usize[i] = (uint32_t)e->size;
    }
    if (r == UE_OK && (p->stored_size[i] > UINT32_MAX || e->size > UINT32_MAX)) r = UE_ERR_NOMEM;
    return r;
}

/* Short names as given; full names (when the archive has them) default to short name + the
 * type's extension. */
static ue_result plan_names(write_plan *p, const ue_fsys_write_options *opt,
                            const ue_fsys_write_entry *entries) {
    ue_buf *names = &p->names;
    for (size_t i = 0; i < p->count; i++) {
        const char *sn = entries[i].short_name ? entries[i].short_name : "";
        p->short_at[i] = names->size;
        ue_buf_put(names, sn, strlen(sn) + 1);
    }
    for (size_t i = 0; opt->full_names && i < p->count; i++) {
        p->full_at[i] = names->size;
        if (entries[i].full_name) {
            ue_buf_put(names, entries[i].full_name, strlen(entries[i].full_name) + 1);
        } else {
            const char *sn = entries[i].short_name ? entries[i].short_name : "";
            const char *ext = strchr(sn, '.') ? "" : ue_fsys_type_ext(entries[i].type_code);
            ue_buf_put(names, sn, strlen(sn));
            ue_buf_put(names, ext, strlen(ext) + 1);
        }
    }
    ue_buf_align(names, 16);
    return names->failed ? UE_ERR_NOMEM : UE_OK;
}

/* Offsets, with explicit arithmetic (docs/formats/fsys.md#defensive-rules, rule 8): list, names, records, payloads. */
static ue_result plan_layout(write_plan *p) {
    p->list_ofs = 0x60;
    p->str_ofs = align_up(p->list_ofs + 4 * p->count, 16);
    p->rec_ofs = p->str_ofs + p->names.size;
    p->data_ofs = align_up(p->rec_ofs + p->rec_size * p->count, PAYLOAD_ALIGN);
    size_t pos = p->data_ofs;
    for (size_t i = 0; i < p->count; i++) {
        pos = align_up(pos, PAYLOAD_ALIGN);
        p->data_at[i] = pos;
        pos += p->stored_size[i];
    }
    p->footer_at = align_up(pos, PAYLOAD_ALIGN);
    p->total = p->footer_at + FOOTER_SIZE;
    return p->total > UINT32_MAX ? UE_ERR_NOMEM : UE_OK;
}

static void put_header(ue_buf *out, const ue_fsys_write_options *opt, const write_plan *p) {
    uint8_t hdr[HEADER_KEEP] = {0};
    if (opt->header)
        memcpy(hdr, opt->header, opt->header_size < HEADER_KEEP ? opt->header_size : HEADER_KEEP);
    memcpy(hdr, "FSYS", 4);
    ue_store_u32be(hdr + 0x04, opt->version);
    ue_store_u32be(hdr + 0x08, opt->group_id);
    ue_store_u32be(hdr + 0x0C, (uint32_t)p->count);
    uint32_t fl = opt->header ? ue_load_u32be(hdr + 0x10) : 0;
    fl = (fl & ~1u) | 0x80000000u | (opt->full_names ? 1u : 0u);
    ue_store_u32be(hdr + 0x10, fl);
    if (!opt->header) ue_store_u32be(hdr + 0x14, 3); /* what FSYSTOOL writes (docs/formats/fsys.md#header) */
    ue_store_u32be(hdr + 0x18, 0x40);
    ue_store_u32be(hdr + 0x1C, (uint32_t)p->data_ofs);
    ue_store_u32be(hdr + 0x20, (uint32_t)p->total);
    ue_store_u32be(hdr + 0x40, (uint32_t)p->list_ofs);
    ue_store_u32be(hdr + 0x44, (uint32_t)p->str_ofs);
    ue_store_u32be(hdr + 0x48, (uint32_t)p->data_ofs);
    ue_buf_put(out, hdr, sizeof hdr);
}

/* Entry i's record: the original's unknown words kept, every field the layout decides set. */
static void put_record(ue_buf *out, const ue_fsys_write_options *opt, const write_plan *p,
                       const ue_fsys_write_entry *e, size_t i) {
    uint8_t rec[REC_V2] = {0};
    if (e->record) {
        memcpy(rec, e->record, e->record_size < p->rec_size ? e->record_size : p->rec_size);
    } else if (p->rec_size == REC_V1) {
        /* FSYSTOOL's v1 filler (docs/formats/fsys.md#entry-record). */
        ue_store_u32be(rec + 0x34, 0x11111111u);
        ue_store_u32be(rec + 0x38, 0x11111111u);
        ue_store_u32be(rec + 0x3C, 0x11111111u);
    }
    bool same_type = e->record && e->record_size > 2 && e->record[2] == e->type_code;
    ue_store_u16be(rec, e->file_id);
    rec[2] = e->type_code;
    ue_store_u32be(rec + 0x04, (uint32_t)p->data_at[i]);
    ue_store_u32be(rec + 0x08, p->usize[i]);
    uint32_t f = ue_load_u32be(rec + 0x0C) & ~UE_FSYS_FLAG_COMPRESSED;
    ue_store_u32be(rec + 0x0C, f | (e->compressed ? UE_FSYS_FLAG_COMPRESSED : 0));
    ue_store_u32be(rec + 0x14, (uint32_t)p->stored_size[i]);
    ue_store_u32be(rec + 0x1C, opt->full_names ? (uint32_t)(p->str_ofs + p->full_at[i]) : 0);
    if (!same_type) ue_store_u32be(rec + 0x20, e->type_code / 2u);
    ue_store_u32be(rec + 0x24, (uint32_t)(p->str_ofs + p->short_at[i]));
    ue_buf_put(out, rec, p->rec_size);
}

/* Emits the planned file in order; `base` is where it starts in `out`. */
static ue_result emit(ue_buf *out, const ue_fsys_write_options *opt, const write_plan *p,
                      const ue_fsys_write_entry *entries, size_t base) {
    put_header(out, opt, p);
    for (size_t i = 0; i < p->count; i++)
        ue_buf_put_u32be(out, (uint32_t)(p->rec_ofs + p->rec_size * i));
    ue_buf_put_zeros(out, p->str_ofs - (out->size - base));
    ue_buf_put(out, p->names.data, p->names.size);
    for (size_t i = 0; i < p->count; i++) put_record(out, opt, p, &entries[i], i);
    for (size_t i = 0; i < p->count; i++) {
        ue_buf_put_zeros(out, p->data_at[i] - (out->size - base));
        ue_buf_put(out, p->stored[i], p->stored_size[i]);
    }
    ue_buf_put_zeros(out, p->footer_at - (out->size - base));
    ue_buf_put_zeros(out, FOOTER_SIZE - 4);
    ue_buf_put(out, "FSYS", 4);
    return out->failed ? UE_ERR_NOMEM : UE_OK;
}

/* Entries to compress are independent: they are encoded in parallel, each into its own slot of
 * the plan, before the serial pass that checks and copies the rest. */
typedef struct encode_job {
    write_plan *p;
    const ue_fsys_write_options *opt;
    const ue_fsys_write_entry *entries;
    size_t *todo;      /* indices of entries that need compressing */
    ue_result *result; /* per job */
} encode_job;

static bool needs_encoding(const ue_fsys_write_entry *e) { return !e->stored && e->compressed; }

static void encode_one(void *ctx, size_t k) {
    encode_job *j = ctx;
    size_t i = j->todo[k];
    ue_buf b = {0};
    j->result[k] = ue_gclzss_encode(j->entries[i].data, j->entries[i].size, j->opt->level, 0, &b);
    j->p->stored[i] = ue_buf_take(&b, &j->p->stored_size[i]);
}

static ue_result plan_payloads(write_plan *p, const ue_fsys_write_options *opt,
                               const ue_fsys_write_entry *entries, ue_diag *d) {
    size_t *todo = ue_malloc_items(p->count, sizeof *todo);
    ue_result *result = ue_calloc_items(p->count, sizeof *result);
    if (!todo || !result) {
        free(todo), free(result);
        return UE_ERR_NOMEM;
    }
    size_t n = 0;
    for (size_t i = 0; i < p->count; i++)
        if (needs_encoding(&entries[i])) todo[n++] = i;
    encode_job job = {p, opt, entries, todo, result};
    size_t threads = ue_cpu_count();
    ue_parallel_for(n, threads < EXTRACT_THREADS ? threads : EXTRACT_THREADS, encode_one, &job);
    ue_result r = UE_OK;
    for (size_t i = 0, k = 0; r == UE_OK && i < p->count; i++) {
        if (!needs_encoding(&entries[i])) {
            r = plan_payload(p, opt, &entries[i], i, d);
            continue;
        }
        r = result[k++];
        p->usize[i] = (uint32_t)entries[i].size;
        if (r == UE_OK && (p->stored_size[i] > UINT32_MAX || entries[i].size > UINT32_MAX))
            r = UE_ERR_NOMEM;
    }
    free(todo), free(result);
    return r;
}

ue_result ue_fsys_write(const ue_fsys_write_options *opt, const ue_fsys_write_entry *entries,
                        size_t count, ue_buf *out, ue_diag *d) {
    if (count > UE_CAP_TABLE_ENTRIES || count > UINT32_MAX / 4) return UE_ERR_LIMIT;
    write_plan p = {0};
    ue_result r = plan_alloc(&p, count, opt->version);
    if (r == UE_OK) r = plan_payloads(&p, opt, entries, d);
    if (r == UE_OK) r = plan_names(&p, opt, entries);
    if (r == UE_OK) r = plan_layout(&p);
    if (r == UE_OK) r = emit(out, opt, &p, entries, out->size);
    plan_free(&p);
    return r;
}
