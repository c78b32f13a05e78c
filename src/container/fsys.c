/* unearth — FSYS archives (Pokémon Colosseum / XD): the bounded reader, the canonical writer, and
 * the container contract (list, read with LZSS decoding, extract with a byte-exact skeleton, pack). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "container/container.h"
#include "container/gamecube_int.h"
#include "unearth/gamecube.h"

#define HEADER_MIN 0x44u      /* the entry-list word at 0x40 must be readable (seed §18.2) */
#define HEADER_KEEP 0x60u     /* header + offsets table, kept raw for re-emission */
#define REC_USED 0x28u        /* record bytes the reader interprets */
#define REC_V1 0x50u
#define REC_V2 0x70u
#define NAME_MAX_LEN 255u
#define FOOTER_SIZE 0x20u
#define PAYLOAD_ALIGN 0x20u

/* ---- type codes (hsd-formats §7.1; seed §18.3 for the extensions it names) ----------------- */

static const struct {
    uint8_t code;
    const char *name;
    const char *ext;
} type_table[] = {
    {0x00, "none", ".bin"},  {0x02, "rdat", ".dat"}, /* seed §18.3 maps 0x02 to .dat */
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

/* ---- reader ---------------------------------------------------------------------------------- */

void ue_fsys_set_display_name(fsys_entry *e, size_t i, const char *archive_name) {
    const char *ext = ue_fsys_type_ext(e->type_code);
    char tmp[NAME_MAX_LEN * 4 + 1];
    if (e->has_full && e->full_len > 0) {
        ue_printable_name(e->full_raw, e->full_len, e->name, sizeof e->name);
    } else if (e->has_short && e->short_len > 0) {
        ue_printable_name(e->short_raw, e->short_len, tmp, sizeof tmp);
        /* Seed §18.4: a short name without an extension gets the type's. */
        snprintf(e->name, sizeof e->name, "%.200s%s", tmp, strchr(tmp, '.') ? "" : ext);
    } else {
        snprintf(e->name, sizeof e->name, "%.64s_entry_%zu%s", archive_name, i, ext);
    }
}

/* Reads the C string at `ptr` (seed §18.13 rules 3-4). 0 means "no name". */
static bool read_name(fsys_state *s, size_t i, uint32_t ptr, uint64_t field_off,
                      const char *field, uint8_t *out, size_t *len, ue_diag *d, bool *bad) {
    *len = 0;
    if (ptr == 0) return false;
    char path[64];
    snprintf(path, sizeof path, "fsys/entry[%zu]/%s", i, field);
    if (ptr >= s->size) {
        ue_diag_add(d, UE_SEV_ERROR, "fsys.name.range", field_off, path,
                    "name pointer 0x%X lies outside the %llu-byte archive", ptr,
                    (unsigned long long)s->size);
        *bad = true;
        return false;
    }
    uint8_t buf[NAME_MAX_LEN + 1];
    size_t take = s->size - ptr < sizeof buf ? (size_t)(s->size - ptr) : sizeof buf;
    if (ue_source_read(&s->src, ptr, buf, take) != UE_OK) {
        *bad = true;
        return false;
    }
    uint8_t *nul = memchr(buf, 0, take);
    if (!nul) {
        ue_diag_add(d, UE_SEV_ERROR, "fsys.name.unterminated", ptr, path,
                    "name at 0x%X has no NUL within %zu bytes", ptr, take);
        *bad = true;
        return false;
    }
    *len = (size_t)(nul - buf);
    memcpy(out, buf, *len);
    return true;
}

static ue_result parse_entry(fsys_state *s, size_t i, uint32_t ptr, ue_diag *d) {
    fsys_entry *e = &s->e[i];
    char path[64];
    bool bad = false, warn_only = s->mode == UE_MODE_TOLERANT;
    e->rec_off = ptr;
    snprintf(path, sizeof path, "fsys/entry[%zu]/pointer", i);
    if (!ue_range_ok(ptr, REC_USED, s->size)) {
        ue_diag_add(d, UE_SEV_ERROR, "fsys.entry.pointer", s->list_ofs + 4u * (uint64_t)i, path,
                    "entry record at 0x%X does not fit the %llu-byte archive", ptr,
                    (unsigned long long)s->size);
        e->damaged = true;
        return UE_ERR_INVALID;
    }
    size_t want = s->version >= 0x200 ? REC_V2 : REC_V1;
    e->rec_len = s->size - ptr < want ? (size_t)(s->size - ptr) : want;
    ue_result r = ue_source_read(&s->src, ptr, e->rec, e->rec_len);
    if (r != UE_OK) return r;
    const uint8_t *p = e->rec;
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

    /* Names: a bad pointer costs the name, not the payload. */
    bool name_bad = false;
    e->has_full = read_name(s, i, e->full_ptr, ptr + 0x1Cu, "full_name_offset", e->full_raw,
                            &e->full_len, d, &name_bad);
    e->has_short = read_name(s, i, e->short_ptr, ptr + 0x24u, "name_offset", e->short_raw,
                             &e->short_len, d, &name_bad);
    if (name_bad) e->name_bad = true;
    ue_fsys_set_display_name(e, i, s->archive_name);

    if (!ue_fsys_type_name(e->type_code)) {
        snprintf(path, sizeof path, "fsys/entry[%zu]/type", i);
        ue_diag_add(d, UE_SEV_INFO, "fsys.entry.type_unknown", ptr + 2u, path,
                    "type code 0x%02X is not known; the entry is kept raw", e->type_code);
    }
    snprintf(path, sizeof path, "fsys/entry[%zu]/data_offset", i);
    if (!ue_range_ok(e->data_off, e->stored_size, s->size)) {
        ue_diag_add(d, UE_SEV_ERROR, "fsys.entry.data_range", ptr + 4u, path,
                    "payload [0x%X, +0x%X) lies outside the %llu-byte archive", e->data_off,
                    e->stored_size, (unsigned long long)s->size);
        e->damaged = true;
        e->range_bad = true;
        bad = true;
    } else if (e->compressed) {
        uint8_t head[UE_GCLZSS_HEADER];
        size_t take = e->stored_size < sizeof head ? e->stored_size : sizeof head;
        snprintf(path, sizeof path, "fsys/entry[%zu]/lzss", i);
        if ((r = ue_source_read(&s->src, e->data_off, head, take)) != UE_OK) return r;
        ue_gclzss_header h;
        ue_diag scratch = {0}; /* only the first 16 bytes are here: the size check is ours */
        ue_result hr = ue_gclzss_parse_header(head, take, &h, &scratch, e->data_off, path);
        ue_diag_append(d, &scratch, UE_SEV_ERROR);
        ue_diag_free(&scratch);
        if (hr == UE_OK && (h.compressed_size < UE_GCLZSS_HEADER || h.compressed_size > e->stored_size))
            ue_diag_add(d, UE_SEV_WARNING, "lzss.size_fallback", e->data_off + 8u, path,
                        "declared compressed size %u does not fit the %u stored bytes; the "
                        "whole slice is decoded (seed §18.7)",
                        h.compressed_size, e->stored_size);
        if (hr != UE_OK) {
            e->damaged = true;
            bad = true;
        } else if (h.uncompressed_size != e->usize) {
            /* The game trusts +0x08 of neither structure alone; a disagreement means damage. */
            ue_diag_add(d, warn_only ? UE_SEV_WARNING : UE_SEV_ERROR, "fsys.entry.size_mismatch",
                        ptr + 8u, path,
                        "record says %u decoded bytes, the LZSS header says %u", e->usize,
                        h.uncompressed_size);
            if (!warn_only) bad = true;
        }
    } else if (e->usize != e->stored_size) {
        snprintf(path, sizeof path, "fsys/entry[%zu]/size", i);
        ue_diag_add(d, UE_SEV_WARNING, "fsys.entry.size_mismatch", ptr + 8u, path,
                    "uncompressed entry: size %u differs from stored size %u (stored size used)",
                    e->usize, e->stored_size);
    }
    if (name_bad && !warn_only) bad = true;
    return bad ? UE_ERR_INVALID : UE_OK;
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
    ue_result r = UE_ERR_INVALID;
    if (s->size < HEADER_MIN) {
        ue_diag_add(d, UE_SEV_ERROR, "fsys.header.truncated", 0, "fsys/header",
                    "%llu bytes is too short for an FSYS header (needs 0x%X)",
                    (unsigned long long)s->size, HEADER_MIN);
        goto fail;
    }
    s->header_len = s->size < HEADER_KEEP ? (size_t)s->size : HEADER_KEEP;
    if ((r = ue_source_read(&s->src, 0, s->header, s->header_len)) != UE_OK) goto fail;
    r = UE_ERR_INVALID;
    if (memcmp(s->header, "FSYS", 4) != 0) {
        ue_diag_add(d, UE_SEV_ERROR, "fsys.magic", 0, "fsys/header/magic",
                    "missing \"FSYS\" magic (found %02X %02X %02X %02X)", s->header[0],
                    s->header[1], s->header[2], s->header[3]);
        goto fail;
    }
    const uint8_t *h = s->header;
    s->version = ue_load_u32be(h + 0x04);
    s->group_id = ue_load_u32be(h + 0x08);
    s->count = ue_load_u32be(h + 0x0C);
    s->hflags = ue_load_u32be(h + 0x10);
    s->table_ofs = ue_load_u32be(h + 0x18);
    s->data_start = ue_load_u32be(h + 0x1C);
    s->total_size = ue_load_u32be(h + 0x20);
    s->list_ofs = ue_load_u32be(h + 0x40);
    if (s->header_len >= 0x4C) {
        s->str_ofs = ue_load_u32be(h + 0x44);
        s->data_ofs = ue_load_u32be(h + 0x48);
    }
    if (s->count > UE_CAP_TABLE_ENTRIES ||
        !ue_range_ok(s->list_ofs, 4u * (uint64_t)s->count, s->size)) {
        ue_diag_add(d, UE_SEV_ERROR, "fsys.header.entry_list", 0x40, "fsys/header/entry_list",
                    "%u entry pointers at 0x%X do not fit the %llu-byte archive", s->count,
                    s->list_ofs, (unsigned long long)s->size);
        goto fail;
    }
    if (s->total_size != s->size)
        ue_diag_add(d, UE_SEV_WARNING, "fsys.header.total_size", 0x20, "fsys/header/total_size",
                    "header says %u bytes, the archive has %llu", s->total_size,
                    (unsigned long long)s->size);
    uint8_t tail[4];
    s->footer_ok = ue_source_read(&s->src, s->size - 4, tail, 4) == UE_OK &&
                   memcmp(tail, "FSYS", 4) == 0;
    if (!s->footer_ok)
        ue_diag_add(d, UE_SEV_WARNING, "fsys.footer", s->size - 4, "fsys/footer",
                    "the archive does not end with the \"FSYS\" footer magic");

    s->e = calloc(s->count ? s->count : 1, sizeof *s->e);
    uint8_t *list = NULL;
    if (!s->e || ue_source_read_alloc(&s->src, s->list_ofs, 4u * (size_t)s->count,
                                      4u * UE_CAP_TABLE_ENTRIES, &list) != UE_OK) {
        free(list);
        r = UE_ERR_NOMEM;
        goto fail;
    }
    r = UE_OK;
    for (size_t i = 0; i < s->count; i++) {
        ue_result er = parse_entry(s, i, ue_load_u32be(list + 4 * i), d);
        if (er == UE_ERR_INVALID) {
            s->e[i].damaged = s->e[i].damaged || mode == UE_MODE_STRICT;
            if (mode == UE_MODE_STRICT) r = UE_ERR_INVALID;
        } else if (er != UE_OK) {
            r = er;
            break;
        }
    }
    free(list);
    if (r != UE_OK) goto fail;
    *out = s;
    return UE_OK;
fail:
    ue_fsys_free(s);
    return r;
}

void ue_fsys_free(fsys_state *s) {
    if (!s) return;
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
    char path[64];
    snprintf(path, sizeof path, "fsys/entry[%zu]/lzss", i);
    r = ue_gclzss_decode(stored, n, s->mode, data, size, d, e->data_off, path);
    free(stored);
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
    range_ref *r = calloc(s->count ? s->count : 1, sizeof *r);
    fsys_segment *out = calloc(s->count ? s->count : 1, sizeof *out);
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

ue_result ue_fsys_write(const ue_fsys_write_options *opt, const ue_fsys_write_entry *entries,
                        size_t count, ue_buf *out, ue_diag *d) {
    if (count > UE_CAP_TABLE_ENTRIES || count > UINT32_MAX / 4) return UE_ERR_NOMEM;
    const size_t rec_size = opt->version >= 0x200 ? REC_V2 : REC_V1;
    const size_t base = out->size;
    ue_result r = UE_OK;

    /* Pass 1: the stored bytes of every entry (compressing where needed). */
    uint8_t **stored = calloc(count ? count : 1, sizeof *stored);
    size_t *stored_size = calloc(count ? count : 1, sizeof *stored_size);
    uint32_t *usize = calloc(count ? count : 1, sizeof *usize);
    if (!stored || !stored_size || !usize) {
        r = UE_ERR_NOMEM;
        goto done;
    }
    for (size_t i = 0; i < count && r == UE_OK; i++) {
        const ue_fsys_write_entry *e = &entries[i];
        char path[64];
        snprintf(path, sizeof path, "fsys/entry[%zu]", i);
        if (e->stored) {
            if (e->compressed && !ue_gclzss_probe(e->stored, e->stored_size)) {
                ue_diag_add(d, UE_SEV_ERROR, "lzss.magic", UE_NO_OFFSET, path,
                            "stored bytes of a compressed entry lack the \"LZSS\" magic");
                r = UE_ERR_INVALID;
                break;
            }
            stored[i] = malloc(e->stored_size ? e->stored_size : 1);
            if (!stored[i]) {
                r = UE_ERR_NOMEM;
                break;
            }
            if (e->stored_size) memcpy(stored[i], e->stored, e->stored_size);
            stored_size[i] = e->stored_size;
            if (e->data) usize[i] = (uint32_t)e->size;
            else if (e->compressed && e->stored_size >= 8) usize[i] = ue_load_u32be(e->stored + 4);
            else usize[i] = (uint32_t)e->stored_size;
        } else if (e->compressed) {
            ue_buf b = {0};
            r = ue_gclzss_encode(e->data, e->size, opt->level, 0, &b);
            stored[i] = ue_buf_take(&b, &stored_size[i]);
            usize[i] = (uint32_t)e->size;
        } else {
            stored[i] = malloc(e->size ? e->size : 1);
            if (!stored[i]) {
                r = UE_ERR_NOMEM;
                break;
            }
            if (e->size) memcpy(stored[i], e->data, e->size);
            stored_size[i] = e->size;
            usize[i] = (uint32_t)e->size;
        }
        if (r == UE_OK && (stored_size[i] > UINT32_MAX || e->size > UINT32_MAX)) r = UE_ERR_NOMEM;
    }
    if (r != UE_OK) goto done;

    /* Pass 2: names. Short names as given; full names default to short name + extension. */
    ue_buf names = {0};
    size_t *short_at = calloc(count ? count : 1, sizeof *short_at);
    size_t *full_at = calloc(count ? count : 1, sizeof *full_at);
    if (!short_at || !full_at) {
        free(short_at);
        free(full_at);
        r = UE_ERR_NOMEM;
        goto done;
    }
    for (size_t i = 0; i < count; i++) {
        const char *sn = entries[i].short_name ? entries[i].short_name : "";
        short_at[i] = names.size;
        ue_buf_put(&names, sn, strlen(sn) + 1);
    }
    if (opt->full_names) {
        for (size_t i = 0; i < count; i++) {
            full_at[i] = names.size;
            if (entries[i].full_name) {
                ue_buf_put(&names, entries[i].full_name, strlen(entries[i].full_name) + 1);
            } else {
                const char *sn = entries[i].short_name ? entries[i].short_name : "";
                const char *ext = strchr(sn, '.') ? "" : ue_fsys_type_ext(entries[i].type_code);
                ue_buf_put(&names, sn, strlen(sn));
                ue_buf_put(&names, ext, strlen(ext) + 1);
            }
        }
    }
    ue_buf_align(&names, 16);

    /* Layout (explicit arithmetic, seed §18.13 rule 8). */
    const size_t list_ofs = 0x60;
    const size_t str_ofs = align_up(list_ofs + 4 * count, 16);
    const size_t rec_ofs = str_ofs + names.size;
    size_t data_ofs = align_up(rec_ofs + rec_size * count, PAYLOAD_ALIGN);
    size_t pos = data_ofs;
    size_t *data_at = calloc(count ? count : 1, sizeof *data_at);
    if (!data_at || names.failed) {
        r = UE_ERR_NOMEM;
    }
    for (size_t i = 0; i < count && r == UE_OK; i++) {
        pos = align_up(pos, PAYLOAD_ALIGN);
        data_at[i] = pos;
        pos += stored_size[i];
    }
    size_t footer_at = align_up(pos, PAYLOAD_ALIGN);
    size_t total = footer_at + FOOTER_SIZE;
    if (r == UE_OK && total > UINT32_MAX) r = UE_ERR_NOMEM;

    if (r == UE_OK) {
        uint8_t hdr[HEADER_KEEP] = {0};
        if (opt->header) memcpy(hdr, opt->header, opt->header_size < HEADER_KEEP ? opt->header_size : HEADER_KEEP);
        memcpy(hdr, "FSYS", 4);
        ue_store_u32be(hdr + 0x04, opt->version);
        ue_store_u32be(hdr + 0x08, opt->group_id);
        ue_store_u32be(hdr + 0x0C, (uint32_t)count);
        uint32_t fl = opt->header ? ue_load_u32be(hdr + 0x10) : 0;
        fl = (fl & ~1u) | 0x80000000u | (opt->full_names ? 1u : 0u);
        ue_store_u32be(hdr + 0x10, fl);
        if (!opt->header) ue_store_u32be(hdr + 0x14, 3); /* what FSYSTOOL writes (spec §7.1) */
        ue_store_u32be(hdr + 0x18, 0x40);
        ue_store_u32be(hdr + 0x1C, (uint32_t)data_ofs);
        ue_store_u32be(hdr + 0x20, (uint32_t)total);
        ue_store_u32be(hdr + 0x40, (uint32_t)list_ofs);
        ue_store_u32be(hdr + 0x44, (uint32_t)str_ofs);
        ue_store_u32be(hdr + 0x48, (uint32_t)data_ofs);
        ue_buf_put(out, hdr, sizeof hdr);
        for (size_t i = 0; i < count; i++)
            ue_buf_put_u32be(out, (uint32_t)(rec_ofs + rec_size * i));
        ue_buf_put_zeros(out, str_ofs - (out->size - base));
        ue_buf_put(out, names.data, names.size);
        for (size_t i = 0; i < count; i++) {
            const ue_fsys_write_entry *e = &entries[i];
            uint8_t rec[REC_V2] = {0};
            if (e->record) {
                memcpy(rec, e->record, e->record_size < rec_size ? e->record_size : rec_size);
            } else if (rec_size == REC_V1) {
                /* FSYSTOOL's v1 filler (spec §7.1 [M]). */
                ue_store_u32be(rec + 0x34, 0x11111111u);
                ue_store_u32be(rec + 0x38, 0x11111111u);
                ue_store_u32be(rec + 0x3C, 0x11111111u);
            }
            bool same_type = e->record && e->record_size > 2 && e->record[2] == e->type_code;
            ue_store_u16be(rec, e->file_id);
            rec[2] = e->type_code;
            ue_store_u32be(rec + 0x04, (uint32_t)data_at[i]);
            ue_store_u32be(rec + 0x08, usize[i]);
            uint32_t f = ue_load_u32be(rec + 0x0C) & ~UE_FSYS_FLAG_COMPRESSED;
            ue_store_u32be(rec + 0x0C, f | (e->compressed ? UE_FSYS_FLAG_COMPRESSED : 0));
            ue_store_u32be(rec + 0x14, (uint32_t)stored_size[i]);
            ue_store_u32be(rec + 0x1C, opt->full_names ? (uint32_t)(str_ofs + full_at[i]) : 0);
            if (!same_type) ue_store_u32be(rec + 0x20, e->type_code / 2u);
            ue_store_u32be(rec + 0x24, (uint32_t)(str_ofs + short_at[i]));
            ue_buf_put(out, rec, rec_size);
        }
        for (size_t i = 0; i < count; i++) {
            ue_buf_put_zeros(out, data_at[i] - (out->size - base));
            ue_buf_put(out, stored[i], stored_size[i]);
        }
        ue_buf_put_zeros(out, footer_at - (out->size - base));
        ue_buf_put_zeros(out, FOOTER_SIZE - 4);
        ue_buf_put(out, "FSYS", 4);
        if (out->failed) r = UE_ERR_NOMEM;
    }
    free(data_at);
    free(short_at);
    free(full_at);
    ue_buf_free(&names);
done:
    if (stored)
        for (size_t i = 0; i < count; i++) free(stored[i]);
    free(stored);
    free(stored_size);
    free(usize);
    return r;
}
