/* unearth — Parkan RsLi libraries: header, XOR-obfuscated table, sort table, AO trailer, every
 * packing method, engine lookup, lossless writer and editing (docs/formats/rsli.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/collections.h"
#include "common/parse.h"
#include "unearth/codec.h"
#include "unearth/lzss.h"
#include "unearth/rsli.h"
#include "common/bytes.h"
#include "parkan/rsli_order.h"

/* ---- small helpers ------------------------------------------------------------------------ */

static bool method_has_xor(uint32_t method) {
    return method == UE_RSLI_XOR || method == UE_RSLI_XOR_LZSS || method == UE_RSLI_XOR_LZHUF;
}

static uint32_t method_of(const ue_rsli_entry *e) { return e->flags & UE_RSLI_METHOD_MASK; }

bool ue_rsli_method_known(uint32_t method) {
    switch (method) {
    case UE_RSLI_STORED:
    case UE_RSLI_XOR:
    case UE_RSLI_LZSS:
    case UE_RSLI_XOR_LZSS:
    case UE_RSLI_LZHUF:
    case UE_RSLI_XOR_LZHUF:
    case UE_RSLI_DEFLATE:
        return true;
    default:
        return false;
    }
}

const char *ue_rsli_method_name(uint32_t method) {
    switch (method) {
    case UE_RSLI_STORED: return "stored";
    case UE_RSLI_XOR: return "xor";
    case UE_RSLI_LZSS: return "lzss";
    case UE_RSLI_XOR_LZSS: return "xor+lzss";
    case UE_RSLI_LZHUF: return "lzhuf";
    case UE_RSLI_XOR_LZHUF: return "xor+lzhuf";
    case UE_RSLI_DEFLATE: return "deflate";
    default: return "unknown";
    }
}

void ue_rsli_entry_name(const ue_rsli_entry *e, char *out, size_t out_size) {
    if (out_size == 0) return;
    size_t n = 0;
    while (n < UE_RSLI_NAME_SIZE && e->name_raw[n] && n + 1 < out_size) {
        out[n] = (char)e->name_raw[n];
        n++;
    }
    out[n] = 0;
}

/* The engine copies the 12 name bytes into a 16-byte field with a zero tail, so a name is the
 * bytes up to the first NUL, at most 12. strcmp compares as unsigned char. */
static int name_cmp_raw(const uint8_t *a, const uint8_t *b) {
    for (size_t i = 0; i < UE_RSLI_NAME_SIZE; i++) {
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
        if (a[i] == 0) return 0;
    }
    return 0;
}

static int query_cmp(const char *q, const uint8_t *name) {
    for (size_t i = 0;; i++) {
        unsigned qa = (unsigned char)q[i];
        unsigned nb = i < UE_RSLI_NAME_SIZE ? name[i] : 0u;
        if (qa != nb) return qa < nb ? -1 : 1;
        if (qa == 0) return 0;
    }
}

void ue_rsli_init(ue_rsli *l) {
    memset(l, 0, sizeof *l);
    l->header[0] = 'N';
    l->header[1] = 'L';
    l->header[2] = 0;
    l->header[3] = 1;
    l->sort_valid = true;
    l->layout_dirty = true;
    l->pack_level = UE_LZSS_LEVEL_DEFAULT;
}

void ue_rsli_free(ue_rsli *l) {
    if (!l) return;
    for (size_t i = 0; i < l->count; i++) free(l->entries[i].owned);
    free(l->entries);
    for (size_t g = 0; g < l->gap_count; g++) free(l->gaps[g].bytes);
    free(l->gaps);
    memset(l, 0, sizeof *l);
}

/* Stable merge sort of indices by name (the engine bubble-sorts, which is stable too). */
static void merge_sort(uint16_t *idx, uint16_t *tmp, size_t n, const ue_rsli_entry *e) {
    if (n < 2) return;
    size_t h = n / 2;
    merge_sort(idx, tmp, h, e);
    merge_sort(idx + h, tmp, n - h, e);
    size_t a = 0, b = h, o = 0;
    while (a < h && b < n) {
        if (name_cmp_raw(e[idx[b]].name_raw, e[idx[a]].name_raw) < 0) tmp[o++] = idx[b++];
        else tmp[o++] = idx[a++];
    }
    while (a < h) tmp[o++] = idx[a++];
    while (b < n) tmp[o++] = idx[b++];
    memcpy(idx, tmp, n * sizeof *idx);
}

ue_result ue_rsli_compute_sort(const ue_rsli *l, uint16_t *perm) {
    if (l->count > UE_RSLI_MAX_ENTRIES) return UE_ERR_USAGE;
    uint16_t *tmp = ue_malloc_items(l->count, sizeof *tmp);
    if (!tmp) return UE_ERR_NOMEM;
    for (size_t i = 0; i < l->count; i++) perm[i] = (uint16_t)i;
    merge_sort(perm, tmp, l->count, l->entries);
    free(tmp);
    return UE_OK;
}

bool ue_rsli_find(const ue_rsli *l, const char *name, size_t *index) {
    /* rsFind: strncpy into 16 bytes, force byte 15 to NUL, _strupr (a-z only in the C locale). */
    char q[16];
    size_t n = 0;
    while (n < 15 && name[n]) {
        char c = name[n];
        q[n] = (c >= 'a' && c <= 'z') ? (char)(c - 'a' + 'A') : c;
        n++;
    }
    q[n] = 0;
    /* Binary search through the table the way the engine does; stray values (tolerant reading
     * of a broken presorted table) end the search instead of indexing out of range. */
    size_t lo = 0, hi = l->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        size_t s = l->entries[mid].sort_value;
        if (s >= l->count) break;
        int c = query_cmp(q, l->entries[s].name_raw);
        if (c == 0) {
            *index = s;
            return true;
        }
        if (c < 0) hi = mid;
        else lo = mid + 1;
    }
    for (size_t i = 0; i < l->count; i++) {
        if (query_cmp(q, l->entries[i].name_raw) == 0) {
            *index = i;
            return true;
        }
    }
    return false;
}

/* ---- codecs per method -------------------------------------------------------------------- */

ue_result ue_rsli_unpack(uint32_t method, uint16_t key, const uint8_t *packed, size_t packed_size,
                         size_t unpacked_size, uint8_t **data, ue_diag *d, uint64_t diag_base,
                         const char *diag_path) {
    *data = NULL;
    if (!ue_rsli_method_known(method)) {
        ue_diag_add(d, UE_SEV_ERROR, "rsli.method", UE_NO_OFFSET, diag_path,
                    "packing method 0x%03X is not supported", method);
        return UE_ERR_UNSUPPORTED;
    }
    /* The most each method can produce from packed_size bytes: a hostile size is refused
     * before it becomes an allocation. LZSS: a flag byte and 8 two-byte references give 144
     * bytes per 17; LZHUF: a 60-byte match costs at least 10 bits; Deflate: 1032:1 at most. */
    uint64_t most;
    switch (method & 0x1C0u) {
    case UE_RSLI_LZSS: most = ((uint64_t)packed_size / 17 + 1) * 144; break;
    case UE_RSLI_LZHUF: most = (uint64_t)packed_size * 48 + 60; break;
    case UE_RSLI_DEFLATE: most = (uint64_t)packed_size * 1032 + 64; break;
    default: most = packed_size; break;
    }
    if (unpacked_size > most || unpacked_size > UE_CAP_ENTRY_BYTES) {
        ue_diag_add(d, UE_SEV_ERROR, "rsli.unpack.size", diag_base, diag_path,
                    "declared unpacked size %zu cannot come from %zu packed bytes", unpacked_size,
                    packed_size);
        return UE_ERR_INVALID;
    }
    /* LZSS gets the engine's 0x12 bytes of slack so a stream running past the declared size is
     * seen (and refused) instead of silently cut. */
    size_t slack = (method & 0x1C0u) == UE_RSLI_LZSS ? 0x12u : 0u;
    uint8_t *out = malloc(unpacked_size + slack + 1);
    if (!out) return UE_ERR_NOMEM;
    ue_result r = UE_OK;

    if (method == UE_RSLI_STORED || method == UE_RSLI_XOR) {
        if (packed_size < unpacked_size) {
            ue_diag_add(d, UE_SEV_ERROR, "rsli.unpack.short", diag_base, diag_path,
                        "%zu packed bytes cannot hold %zu unpacked bytes", packed_size,
                        unpacked_size);
            free(out);
            return UE_ERR_INVALID;
        }
        if (unpacked_size) memcpy(out, packed, unpacked_size);
        if (method == UE_RSLI_XOR) ue_xor_buffer(key, out, unpacked_size);
        *data = out;
        return UE_OK;
    }

    const uint8_t *in = packed;
    uint8_t *plain = NULL;
    if (method_has_xor(method)) {
        /* The whole packed stream is XORed before the inner codec sees it. */
        plain = ue_malloc_items(packed_size, 1);
        if (!plain) {
            free(out);
            return UE_ERR_NOMEM;
        }
        if (packed_size) memcpy(plain, packed, packed_size);
        ue_xor_buffer(key, plain, packed_size);
        in = plain;
    }
    size_t consumed = 0;
    const char *inner = "";
    switch (method & 0x1C0u) {
    case UE_RSLI_LZSS: {
        inner = "lzss";
        ue_lzss_stats st = {0, 0};
        /* Errors of the slack-sized decode are expected (the input ends first); judge by what
         * was produced instead. */
        ue_result lr = ue_lzss_decode(&UE_LZSS_PARKAN, in, packed_size, out,
                                      unpacked_size + slack, &st, NULL, 0, NULL);
        consumed = st.consumed;
        if (lr == UE_OK || st.produced > unpacked_size) {
            ue_diag_add(d, UE_SEV_ERROR, "rsli.lzss.overflow", diag_base + st.consumed,
                        diag_path, "LZSS stream produces more than the declared %zu bytes",
                        unpacked_size);
            r = UE_ERR_INVALID;
        } else if (st.produced < unpacked_size) {
            ue_diag_add(d, UE_SEV_ERROR, "rsli.lzss.truncated", diag_base + st.consumed,
                        diag_path,
                        "LZSS stream ends at offset %zu after %zu of the declared %zu bytes",
                        st.consumed, st.produced, unpacked_size);
            r = UE_ERR_INVALID;
        }
        break;
    }
    case UE_RSLI_LZHUF: {
        inner = "lzhuf";
        ue_codec_stats st = {0, 0};
        r = ue_lzhuf_decode(in, packed_size, out, unpacked_size, &st, d, diag_base, diag_path);
        consumed = st.consumed;
        break;
    }
    default: { /* UE_RSLI_DEFLATE */
        inner = "deflate";
        ue_codec_stats st = {0, 0};
        r = ue_deflate_raw_decode(in, packed_size, out, unpacked_size, &st, d, diag_base,
                                  diag_path);
        consumed = st.consumed;
        break;
    }
    }
    free(plain);
    if (r == UE_OK && consumed < packed_size)
        ue_diag_add(d, UE_SEV_WARNING, "rsli.unpack.trailing", diag_base + consumed, diag_path,
                    "%s stream ends after %zu of %zu packed bytes", inner, consumed,
                    packed_size);
    if (r != UE_OK) {
        free(out);
        return r;
    }
    *data = out;
    return UE_OK;
}

/* `level` drives the shared match finder of LZSS and LZHUF; Deflate always uses zlib's 9. */
static ue_result pack_plain_at(uint32_t method, int level, const uint8_t *data, size_t size,
                               ue_buf *out) {
    if (level < 0 || level > 9) level = UE_LZSS_LEVEL_DEFAULT;
    switch (method & 0x1C0u) {
    case UE_RSLI_STORED:
        if (!ue_rsli_method_known(method)) return UE_ERR_UNSUPPORTED;
        ue_buf_put(out, data, size);
        return out->failed ? UE_ERR_NOMEM : UE_OK;
    case UE_RSLI_LZSS:
        return ue_lzss_encode(&UE_LZSS_PARKAN, level, data, size, out);
    case UE_RSLI_LZHUF:
        return ue_lzhuf_encode(level, data, size, out);
    case UE_RSLI_DEFLATE:
        if (method != UE_RSLI_DEFLATE) return UE_ERR_UNSUPPORTED;
        return ue_deflate_raw_encode(9, data, size, out);
    default:
        return UE_ERR_UNSUPPORTED;
    }
}

ue_result ue_rsli_pack_plain(uint32_t method, const uint8_t *data, size_t size, ue_buf *out) {
    return pack_plain_at(method, UE_LZSS_LEVEL_DEFAULT, data, size, out);
}

/* ---- parsing ------------------------------------------------------------------------------ */

static int u64_cmp(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

uint64_t *ue_rsli_packed_order(const ue_rsli *l, size_t *n) {
    uint64_t *key = ue_malloc_items(l->count, sizeof *key);
    if (!key) return NULL;
    *n = 0;
    for (size_t i = 0; i < l->count; i++)
        if (l->entries[i].range_ok && l->entries[i].stored_bytes > 0)
            key[(*n)++] = l->entries[i].file_offset << 16 | i; /* offsets < 2^32, count < 2^15 */
    qsort(key, *n, sizeof *key, u64_cmp);
    for (size_t k = 0; k < *n; k++) key[k] &= 0xFFFFu;
    return key;
}

/* Bounded work (docs/bounded-work.md): packed ranges must not overlap, so decoding every entry
 * reads each packed byte once. The later of two overlapping entries is flagged (strict: an
 * error; tolerant: damaged, never decoded nor copied). */
static ue_result check_packed_overlaps(ue_rsli *l, ue_parse_ctx *c) {
    size_t n, reported = 0;
    uint64_t *key = ue_rsli_packed_order(l, &n);
    if (!key) return UE_ERR_NOMEM;
    uint64_t max_end = 0;
    for (size_t k = 0; k < n; k++) {
        size_t i = (size_t)key[k];
        ue_rsli_entry *e = &l->entries[i];
        if (e->file_offset >= max_end) {
            max_end = e->file_offset + e->stored_bytes;
            continue;
        }
        e->shares_bytes = e->damaged = true;
        if (reported++ < 8) {
            char path[64];
            snprintf(path, sizeof path, "rsli/entry[%zu]/data_offset", i);
            ue_violation(c, "rsli.entry.overlap",
                         UE_RSLI_HEADER_SIZE + i * UE_RSLI_ENTRY_SIZE + 0x18, path,
                         "packed data at %llu overlaps another entry's (ends %llu)",
                         (unsigned long long)e->file_offset, (unsigned long long)max_end);
        }
    }
    if (reported > 8)
        ue_violation(c, "rsli.entry.overlap", UE_RSLI_HEADER_SIZE, "rsli/table",
                     "%zu more entries overlap another entry's packed data", reported - 8);
    free(key);
    return UE_OK;
}

static ue_result keep_gap(uint64_t start, uint64_t end, void *ctx) {
    ue_rsli *l = ctx;
    ue_result r = ue_array_make_room((void **)&l->gaps, l->gap_count, sizeof *l->gaps, SIZE_MAX);
    if (r != UE_OK) return r;
    ue_rsli_gap *g = &l->gaps[l->gap_count];
    g->offset = start;
    g->size = (size_t)(end - start);
    r = ue_source_read_alloc(l->src, start, g->size, UE_CAP_ENTRY_BYTES, &g->bytes);
    if (r == UE_OK) l->gap_count++;
    return r;
}

/* Records every byte range of [table_end, data_end) that no entry covers, with its bytes, so
 * the lossless writer can put it back. */
static ue_result collect_gaps(ue_rsli *l, uint64_t table_end, uint64_t data_end) {
    ue_span *s = ue_malloc_items(l->count, sizeof *s);
    if (!s) return UE_ERR_NOMEM;
    size_t n = 0;
    for (size_t i = 0; i < l->count; i++) {
        const ue_rsli_entry *e = &l->entries[i];
        if (!e->range_ok || e->stored_bytes == 0) continue;
        s[n++] = (ue_span){e->file_offset, e->file_offset + e->stored_bytes};
    }
    ue_result r = ue_for_each_gap(s, n, table_end, data_end, keep_gap, l);
    free(s);
    return r;
}

/* The 32-byte header: magic, reserved byte, version and entry count. */
static ue_result parse_header(const ue_source *src, ue_parse_ctx *c, size_t max_entries,
                              ue_rsli *out, size_t *count_out) {
    uint64_t size = src->size;
    if (size < UE_RSLI_HEADER_SIZE) {
        ue_diag_add(c->d, UE_SEV_ERROR, "rsli.header.truncated", 0, "rsli/header",
                    "file holds %llu bytes, the header needs 32", (unsigned long long)size);
        return UE_ERR_INVALID;
    }
    ue_result r = ue_source_read(src, 0, out->header, UE_RSLI_HEADER_SIZE);
    if (r != UE_OK) return r;
    const uint8_t *h = out->header;
    if (h[0] != 'N' || h[1] != 'L') {
        ue_diag_add(c->d, UE_SEV_ERROR, "rsli.header.magic", 0, "rsli/header/magic",
                    "magic is %02X %02X, expected 4E 4C (\"NL\")", h[0], h[1]);
        return UE_ERR_INVALID;
    }
    if (h[2] != 0)
        ue_violation(c, "rsli.header.reserved", 2, "rsli/header/reserved",
                     "reserved byte is 0x%02X, expected 0", h[2]);
    if (h[3] != 1)
        ue_violation(c, "rsli.header.version", 3, "rsli/header/version",
                     "version is %u, expected 1", h[3]);
    int16_t count16 = (int16_t)ue_load_u16le(h + 4);
    if (count16 < 0) {
        ue_diag_add(c->d, UE_SEV_ERROR, "rsli.header.count", 4, "rsli/header/entry_count",
                    "entry count %d is negative", count16);
        return UE_ERR_INVALID;
    }
    size_t count = (size_t)count16;
    if (count > max_entries) {
        ue_diag_add(c->d, UE_SEV_ERROR, "rsli.header.count", 4, "rsli/header/entry_count",
                    "entry count %zu exceeds the limit %zu", count, max_entries);
        return UE_ERR_INVALID;
    }
    uint64_t table_end = UE_RSLI_HEADER_SIZE + (uint64_t)count * UE_RSLI_ENTRY_SIZE;
    if (table_end > size) {
        ue_diag_add(c->d, UE_SEV_ERROR, "rsli.table.range", UE_RSLI_HEADER_SIZE, "rsli/table",
                    "table of %zu entries ends at %llu, past the end of the file (%llu bytes)",
                    count, (unsigned long long)table_end, (unsigned long long)size);
        return UE_ERR_INVALID;
    }
    out->presorted = ue_load_u16le(h + 0x0E) == UE_RSLI_PRESORTED;
    *count_out = count;
    return UE_OK;
}

/* Reads the XOR-obfuscated table (one keystream across all rows) and decodes every row. */
static ue_result read_table(const ue_source *src, ue_rsli *out, size_t count) {
    uint16_t seed = (uint16_t)(ue_load_u32le(out->header + 0x14) & 0xFFFFu);
    uint8_t *table = NULL;
    size_t table_bytes = count * UE_RSLI_ENTRY_SIZE;
    ue_result r = ue_source_read_alloc(src, UE_RSLI_HEADER_SIZE, table_bytes, table_bytes, &table);
    if (r != UE_OK) return r;
    ue_xor_buffer(seed, table, table_bytes);
    out->entries = ue_calloc_items(count, sizeof *out->entries);
    if (!out->entries) {
        free(table);
        return UE_ERR_NOMEM;
    }
    out->count = count;
    for (size_t i = 0; i < count; i++) {
        const uint8_t *row = table + i * UE_RSLI_ENTRY_SIZE;
        ue_rsli_entry *e = &out->entries[i];
        memcpy(e->name_raw, row, UE_RSLI_NAME_SIZE);
        memcpy(e->service, row + 12, 4);
        e->flags = ue_load_u16le(row + 0x10);
        e->sort_disk = ue_load_u16le(row + 0x12);
        e->sort_value = e->sort_disk;
        e->unpacked_size = ue_load_u32le(row + 0x14);
        e->data_offset = ue_load_u32le(row + 0x18);
        e->packed_size = ue_load_u32le(row + 0x1C);
    }
    free(table);
    return UE_OK;
}

/* AO trailer: honoured only when no entry's own range (before any overlay) reaches into the
 * last 6 bytes, so a payload that happens to end in "AO" is not mistaken for one. Sets
 * *data_end to where the entries' data may end. */
static ue_result read_ao_trailer(const ue_source *src, ue_parse_ctx *c, ue_rsli *out,
                                 uint64_t table_end, uint64_t *data_end) {
    uint64_t size = src->size;
    *data_end = size;
    if (size < table_end + UE_RSLI_AO_SIZE) return UE_OK;
    uint8_t ao[UE_RSLI_AO_SIZE];
    ue_result r = ue_source_read(src, size - UE_RSLI_AO_SIZE, ao, sizeof ao);
    if (r != UE_OK || ao[0] != 'A' || ao[1] != 'O') return r;
    uint32_t overlay = ue_load_u32le(ao + 2);
    bool covered = false;
    for (size_t i = 0; i < out->count && !covered; i++) {
        const ue_rsli_entry *e = &out->entries[i];
        uint64_t end = (uint64_t)e->data_offset + e->packed_size;
        covered = end > size - UE_RSLI_AO_SIZE && e->data_offset < size;
    }
    if (covered) return UE_OK;
    if (overlay > size) {
        ue_diag_add(c->d, UE_SEV_WARNING, "rsli.ao.overlay", size - UE_RSLI_AO_SIZE + 2,
                    "rsli/trailer/overlay",
                    "\"AO\" trailer ignored: overlay %u passes the end of the file", overlay);
        return UE_OK;
    }
    out->has_ao = true;
    out->overlay = overlay;
    memcpy(out->ao_raw, ao, sizeof ao);
    *data_end = size - UE_RSLI_AO_SIZE;
    ue_diag_add(c->d, UE_SEV_INFO, "rsli.ao", size - UE_RSLI_AO_SIZE, "rsli/trailer",
                "media overlay trailer: entry offsets are shifted by %u", overlay);
    return UE_OK;
}

/* Places entry i's packed bytes in [0, data_end) and checks they stay clear of the table.
 * Returns false when they cannot be read. */
static bool check_entry_range(ue_parse_ctx *c, ue_rsli *out, size_t i, uint64_t table_end,
                              uint64_t data_end) {
    ue_rsli_entry *e = &out->entries[i];
    uint64_t row_off = UE_RSLI_HEADER_SIZE + (uint64_t)i * UE_RSLI_ENTRY_SIZE;
    char path[96];
    bool readable = true;
    snprintf(path, sizeof path, "rsli/entry[%zu]/packed_size", i);
    if (ue_range_ok(e->file_offset, e->packed_size, data_end)) {
        e->range_ok = true;
    } else if (method_of(e) == UE_RSLI_DEFLATE && e->packed_size > 0 && !out->has_ao &&
               e->file_offset + e->packed_size == data_end + 1) {
        /* sprites.lib's INTERF8.TEX: the stream is complete without the missing byte. */
        e->eof_plus_one = true;
        e->range_ok = true;
        e->stored_bytes = e->packed_size - 1;
        ue_diag_add(c->d, UE_SEV_INFO, "rsli.entry.deflate_eof_plus_one", row_off + 0x1C, path,
                    "Deflate range ends one byte past the end of the file (known retail "
                    "quirk); reading %u bytes",
                    e->stored_bytes);
    } else {
        ue_violation(c, "rsli.entry.range", row_off + 0x18, path,
                     "packed range %llu+%u passes the end of the data (%llu bytes)",
                     (unsigned long long)e->file_offset, e->packed_size,
                     (unsigned long long)data_end);
        readable = false;
    }
    if (e->range_ok && e->stored_bytes > 0 && e->file_offset < table_end) {
        snprintf(path, sizeof path, "rsli/entry[%zu]/data_offset", i);
        ue_violation(c, "rsli.entry.overlaps_table", row_off + 0x18, path,
                     "packed data at %llu overlaps the header or table (ends %llu)",
                     (unsigned long long)e->file_offset, (unsigned long long)table_end);
    }
    return readable;
}

/* Name, packing method and sizes of entry i, then its range; marks it damaged when its
 * payload cannot be decoded. */
static void check_entry(ue_parse_ctx *c, ue_rsli *out, size_t i, size_t max_unpacked,
                        uint64_t table_end, uint64_t data_end) {
    ue_rsli_entry *e = &out->entries[i];
    uint64_t row_off = UE_RSLI_HEADER_SIZE + (uint64_t)i * UE_RSLI_ENTRY_SIZE;
    uint32_t method = method_of(e);
    bool bad = false;
    char path[96];
    e->file_offset = (uint64_t)e->data_offset + out->overlay;
    e->stored_bytes = e->packed_size;
    if (e->name_raw[0] == 0) {
        snprintf(path, sizeof path, "rsli/entry[%zu]/name", i);
        ue_diag_add(c->d, UE_SEV_WARNING, "rsli.entry.name", row_off, path,
                    "entry has an empty name (rsFind cannot reach it)");
    }
    if (!ue_rsli_method_known(method)) {
        snprintf(path, sizeof path, "rsli/entry[%zu]/flags", i);
        ue_violation_as(c, UE_ERR_UNSUPPORTED, "rsli.entry.method", row_off + 0x10, path,
                        "packing method 0x%03X (flags 0x%04X) is not supported", method, e->flags);
        bad = true;
    }
    if (e->unpacked_size > max_unpacked) {
        snprintf(path, sizeof path, "rsli/entry[%zu]/unpacked_size", i);
        ue_violation_as(c, UE_ERR_LIMIT, "rsli.entry.unpacked_size", row_off + 0x14, path,
                        "unpacked size %u exceeds the limit %zu", e->unpacked_size, max_unpacked);
        bad = true;
    }
    if ((method == UE_RSLI_STORED || method == UE_RSLI_XOR) && e->packed_size != e->unpacked_size) {
        snprintf(path, sizeof path, "rsli/entry[%zu]/packed_size", i);
        ue_violation(c, "rsli.entry.size", row_off + 0x1C, path,
                     "%s entry: packed size %u differs from unpacked size %u",
                     ue_rsli_method_name(method), e->packed_size, e->unpacked_size);
        if (e->packed_size < e->unpacked_size) bad = true;
    }
    if (!check_entry_range(c, out, i, table_end, data_end)) bad = true;
    e->damaged = bad;
}

/* A presorted table (0xABBA) must be a permutation listing the names in strcmp order. */
static ue_result check_presorted(ue_parse_ctx *c, ue_rsli *out) {
    size_t count = out->count;
    bool perm_ok = true;
    char path[96];
    uint8_t *seen = ue_calloc_items(count, 1);
    if (!seen) return UE_ERR_NOMEM;
    for (size_t i = 0; i < count; i++) {
        uint16_t s = out->entries[i].sort_disk;
        if (s < count && !seen[s]) {
            seen[s] = 1;
            continue;
        }
        if (perm_ok) {
            snprintf(path, sizeof path, "rsli/entry[%zu]/sort_to_original", i);
            ue_violation(c, "rsli.sort.permutation",
                         UE_RSLI_HEADER_SIZE + i * UE_RSLI_ENTRY_SIZE + 0x12, path,
                         "presorted table (0xABBA) is not a permutation: value %u %s", s,
                         s >= count ? "is out of range" : "repeats");
        }
        perm_ok = false;
    }
    free(seen);
    out->sort_valid = perm_ok;
    for (size_t i = 1; perm_ok && i < count; i++) {
        if (name_cmp_raw(out->entries[out->entries[i - 1].sort_disk].name_raw,
                         out->entries[out->entries[i].sort_disk].name_raw) > 0) {
            snprintf(path, sizeof path, "rsli/entry[%zu]/sort_to_original", i);
            ue_violation(c, "rsli.sort.order", UE_RSLI_HEADER_SIZE + i * UE_RSLI_ENTRY_SIZE + 0x12,
                         path, "presorted table (0xABBA) does not list the names in strcmp order");
            out->sort_valid = false;
            break;
        }
    }
    return UE_OK;
}

/* Sort table: trusted from disk only under 0xABBA, otherwise rebuilt like the engine. */
static ue_result check_sort_table(ue_parse_ctx *c, ue_rsli *out) {
    uint16_t *perm = ue_malloc_items(out->count, sizeof *perm);
    if (!perm) return UE_ERR_NOMEM;
    ue_result r = ue_rsli_compute_sort(out, perm);
    if (r == UE_OK && out->presorted) {
        r = check_presorted(c, out);
    } else if (r == UE_OK) {
        for (size_t i = 0; i < out->count; i++) out->entries[i].sort_value = perm[i];
        out->sort_valid = true;
    }
    free(perm);
    return r;
}

ue_result ue_rsli_parse(const ue_source *src, ue_mode mode, const ue_rsli_limits *limits,
                        ue_rsli *out, ue_diag *d) {
    memset(out, 0, sizeof *out);
    out->src = src;
    out->file_size = src->size;
    out->pack_level = UE_LZSS_LEVEL_DEFAULT;
    ue_parse_ctx c = ue_parse_begin(mode, d);
    size_t max_entries = limits && limits->max_entries ? limits->max_entries : UE_RSLI_MAX_ENTRIES;
    size_t max_unpacked = limits && limits->max_unpacked ? limits->max_unpacked : UE_CAP_ENTRY_BYTES;
    size_t count = 0;
    ue_result r = parse_header(src, &c, max_entries, out, &count);
    if (r != UE_OK) return r;
    uint64_t table_end = UE_RSLI_HEADER_SIZE + (uint64_t)count * UE_RSLI_ENTRY_SIZE;
    uint64_t data_end = src->size;
    r = read_table(src, out, count);
    if (r != UE_OK) return r;
    r = read_ao_trailer(src, &c, out, table_end, &data_end);
    for (size_t i = 0; r == UE_OK && i < count; i++)
        check_entry(&c, out, i, max_unpacked, table_end, data_end);
    if (r == UE_OK) r = check_sort_table(&c, out);
    if (r == UE_OK) r = check_packed_overlaps(out, &c);
    if (r == UE_OK) r = c.failure;
    if (r == UE_OK) r = collect_gaps(out, table_end, data_end);
    if (r != UE_OK) ue_rsli_free(out);
    return r;
}

/* ---- reading payloads --------------------------------------------------------------------- */

ue_result ue_rsli_packed(const ue_rsli *l, size_t i, uint8_t **data, size_t *size, ue_diag *d) {
    *data = NULL;
    *size = 0;
    if (i >= l->count) return UE_ERR_USAGE;
    const ue_rsli_entry *e = &l->entries[i];
    char path[64];
    snprintf(path, sizeof path, "rsli/entry[%zu]", i);
    if (e->owned) {
        uint8_t *p = ue_malloc_items(e->stored_bytes, 1);
        if (!p) return UE_ERR_NOMEM;
        if (e->stored_bytes) memcpy(p, e->owned, e->stored_bytes);
        *data = p;
        *size = e->stored_bytes;
        return UE_OK;
    }
    if (!e->range_ok || !l->src) {
        ue_diag_add(d, UE_SEV_ERROR, "rsli.entry.range", e->file_offset, path,
                    "packed bytes lie outside the file");
        return UE_ERR_INVALID;
    }
    ue_result r = ue_source_read_alloc(l->src, e->file_offset, e->stored_bytes,
                                       UE_CAP_ENTRY_BYTES, data);
    if (r == UE_OK) *size = e->stored_bytes;
    return r;
}

ue_result ue_rsli_read(const ue_rsli *l, size_t i, uint8_t **data, size_t *size, ue_diag *d) {
    *data = NULL;
    *size = 0;
    if (i >= l->count) return UE_ERR_USAGE;
    const ue_rsli_entry *e = &l->entries[i];
    uint32_t method = method_of(e);
    uint8_t *packed;
    size_t n;
    ue_result r = ue_rsli_packed(l, i, &packed, &n, d);
    if (r != UE_OK) return r;
    /* Key of the bytes we hold: new entries are still plain, edited ones carry their own. */
    uint16_t key = e->sort_value;
    uint32_t m = method;
    if (e->owned && method_has_xor(method)) {
        if (e->owned_key_valid) key = e->owned_key;
        else m = method & ~(uint32_t)UE_RSLI_XOR;
    }
    char path[64];
    snprintf(path, sizeof path, "rsli/entry[%zu]", i);
    r = ue_rsli_unpack(m, key, packed, n, e->unpacked_size, data, d, e->file_offset, path);
    free(packed);
    if (r == UE_OK) *size = e->unpacked_size;
    return r;
}

/* ---- writing ------------------------------------------------------------------------------ */

/* The entry's packed bytes as they must appear on disk when its row holds `key`. */
static ue_result disk_bytes(const ue_rsli *l, size_t i, uint16_t key, uint8_t **out, size_t *n,
                            ue_diag *d) {
    const ue_rsli_entry *e = &l->entries[i];
    ue_result r = ue_rsli_packed(l, i, out, n, d);
    if (r != UE_OK || !method_has_xor(method_of(e))) return r;
    bool xored = e->owned ? e->owned_key_valid : true;
    uint16_t have = e->owned ? e->owned_key : e->sort_value;
    if (xored && have == key) return UE_OK;
    /* XOR is its own inverse: strip the old keystream, apply the new one. */
    if (xored) ue_xor_buffer(have, *out, *n);
    ue_xor_buffer(key, *out, *n);
    return UE_OK;
}

static void put_row(uint8_t *row, const ue_rsli_entry *e, uint16_t sort, uint32_t data_offset,
                    uint32_t packed_size) {
    memcpy(row, e->name_raw, UE_RSLI_NAME_SIZE);
    memcpy(row + 12, e->service, 4);
    ue_store_u16le(row + 0x10, e->flags);
    ue_store_u16le(row + 0x12, sort);
    ue_store_u32le(row + 0x14, e->unpacked_size);
    ue_store_u32le(row + 0x18, data_offset);
    ue_store_u32le(row + 0x1C, packed_size);
}

static ue_result write_lossless(const ue_rsli *l, ue_buf *out, ue_diag *d) {
    uint64_t table_end = UE_RSLI_HEADER_SIZE + (uint64_t)l->count * UE_RSLI_ENTRY_SIZE;
    uint64_t data_end = l->file_size - (l->has_ao ? UE_RSLI_AO_SIZE : 0);
    if (l->file_size < table_end + (l->has_ao ? UE_RSLI_AO_SIZE : 0) ||
        l->file_size > UE_CAP_ENTRY_BYTES) {
        ue_diag_add(d, UE_SEV_ERROR, "rsli.write.size", UE_NO_OFFSET, "rsli",
                    "recorded file size %llu cannot hold the header and table",
                    (unsigned long long)l->file_size);
        return UE_ERR_INVALID;
    }
    size_t base = out->size;
    ue_buf_put_zeros(out, (size_t)l->file_size);
    if (out->failed) return UE_ERR_NOMEM;
    for (size_t g = 0; g < l->gap_count; g++) {
        const ue_rsli_gap *gap = &l->gaps[g];
        if (!ue_range_ok(gap->offset, gap->size, data_end)) {
            ue_diag_add(d, UE_SEV_ERROR, "rsli.write.gap", gap->offset, "rsli/gap",
                        "preserved bytes %llu+%zu lie outside the data region",
                        (unsigned long long)gap->offset, gap->size);
            return UE_ERR_INVALID;
        }
        if (gap->size) memcpy(out->data + base + gap->offset, gap->bytes, gap->size);
    }
    for (size_t i = 0; i < l->count; i++) {
        const ue_rsli_entry *e = &l->entries[i];
        if (!e->range_ok) continue; /* nothing of it is in the file (tolerant reading) */
        uint8_t *p;
        size_t n;
        ue_result r = disk_bytes(l, i, e->sort_value, &p, &n, d);
        if (r != UE_OK) return r;
        if (!ue_range_ok(e->file_offset, n, data_end)) {
            free(p);
            char path[64];
            snprintf(path, sizeof path, "rsli/entry[%zu]/data_offset", i);
            ue_diag_add(d, UE_SEV_ERROR, "rsli.write.range", e->file_offset, path,
                        "%zu packed bytes at %llu do not fit the recorded layout", n,
                        (unsigned long long)e->file_offset);
            return UE_ERR_INVALID;
        }
        if (n) memcpy(out->data + base + e->file_offset, p, n);
        free(p);
    }
    /* Header and table last: a tolerant-mode entry may overlap them, and they win. */
    uint8_t *img = out->data + base;
    memcpy(img, l->header, UE_RSLI_HEADER_SIZE);
    ue_store_u16le(img + 4, (uint16_t)l->count);
    for (size_t i = 0; i < l->count; i++) {
        const ue_rsli_entry *e = &l->entries[i];
        put_row(img + UE_RSLI_HEADER_SIZE + i * UE_RSLI_ENTRY_SIZE, e, e->sort_disk,
                e->data_offset, e->packed_size);
    }
    ue_xor_buffer((uint16_t)(ue_load_u32le(l->header + 0x14) & 0xFFFFu),
                  img + UE_RSLI_HEADER_SIZE, l->count * UE_RSLI_ENTRY_SIZE);
    if (l->has_ao) memcpy(img + data_end, l->ao_raw, UE_RSLI_AO_SIZE);
    return UE_OK;
}

static ue_result write_rebuild(const ue_rsli *l, ue_buf *out, ue_diag *d) {
    size_t count = l->count;
    uint16_t *perm = ue_malloc_items(count, sizeof *perm);
    if (!perm) return UE_ERR_NOMEM;
    ue_result r = ue_rsli_compute_sort(l, perm);
    if (r != UE_OK) {
        free(perm);
        return r;
    }
    bool any_xor = false;
    for (size_t i = 0; i < count; i++) any_xor |= method_has_xor(method_of(&l->entries[i]));

    uint8_t header[UE_RSLI_HEADER_SIZE];
    memcpy(header, l->header, sizeof header);
    ue_store_u16le(header + 4, (uint16_t)count);
    /* The payload key is the row's value, which the engine only keeps as written under 0xABBA. */
    if (any_xor) ue_store_u16le(header + 0x0E, UE_RSLI_PRESORTED);
    uint16_t seed = (uint16_t)(ue_load_u32le(header + 0x14) & 0xFFFFu);

    size_t base = out->size;
    size_t table_bytes = count * UE_RSLI_ENTRY_SIZE;
    ue_buf_put(out, header, sizeof header);
    ue_buf_put_zeros(out, table_bytes);
    uint64_t pos = UE_RSLI_HEADER_SIZE + (uint64_t)table_bytes;
    if (l->has_ao && l->overlay > pos) {
        /* Offsets are stored relative to the overlay, so data may not start before it. */
        ue_buf_put_zeros(out, (size_t)(l->overlay - pos));
        pos = l->overlay;
    }
    for (size_t i = 0; i < count && r == UE_OK; i++) {
        const ue_rsli_entry *e = &l->entries[i];
        uint8_t *p;
        size_t n;
        r = disk_bytes(l, i, perm[i], &p, &n, d);
        if (r != UE_OK) break;
        uint64_t rel = pos - (l->has_ao ? l->overlay : 0);
        if (rel > UINT32_MAX || n > UINT32_MAX || pos + n > UE_CAP_ENTRY_BYTES) {
            free(p);
            r = UE_ERR_NOMEM;
            break;
        }
        ue_buf_put(out, p, n);
        free(p);
        if (out->failed) {
            r = UE_ERR_NOMEM;
            break;
        }
        put_row(out->data + base + UE_RSLI_HEADER_SIZE + i * UE_RSLI_ENTRY_SIZE, e, perm[i],
                (uint32_t)rel, (uint32_t)n);
        pos += n;
    }
    free(perm);
    if (r != UE_OK) return r;
    if (l->has_ao) ue_buf_put(out, l->ao_raw, UE_RSLI_AO_SIZE);
    if (out->failed) return UE_ERR_NOMEM;
    ue_xor_buffer(seed, out->data + base + UE_RSLI_HEADER_SIZE, table_bytes);
    return UE_OK;
}

ue_result ue_rsli_write(const ue_rsli *l, ue_buf *out, ue_diag *d) {
    if (l->count > UE_RSLI_MAX_ENTRIES) {
        ue_diag_add(d, UE_SEV_ERROR, "rsli.write.count", UE_NO_OFFSET, "rsli",
                    "%zu entries do not fit the signed 16-bit count", l->count);
        return UE_ERR_USAGE;
    }
    size_t before = out->size;
    ue_result r = l->layout_dirty ? write_rebuild(l, out, d) : write_lossless(l, out, d);
    if (r != UE_OK && !out->failed) out->size = before;
    return r;
}

/* ---- editing ------------------------------------------------------------------------------ */

static ue_result pack_owned(ue_rsli_entry *e, int level, const void *data, size_t size) {
    if (size > UINT32_MAX) return UE_ERR_USAGE;
    ue_buf b = {0};
    ue_result r = pack_plain_at(method_of(e), level, data, size, &b);
    if (r != UE_OK) {
        ue_buf_free(&b);
        return r;
    }
    if (b.size > UINT32_MAX) {
        ue_buf_free(&b);
        return UE_ERR_NOMEM;
    }
    size_t n;
    uint8_t *p = ue_buf_take(&b, &n);
    if (!p) p = malloc(1);
    if (!p) return UE_ERR_NOMEM;
    free(e->owned);
    e->owned = p;
    e->owned_key_valid = false; /* plain: the writer XORs with the final row value */
    e->owned_key = 0;
    e->stored_bytes = (uint32_t)n;
    e->packed_size = (uint32_t)n;
    e->unpacked_size = (uint32_t)size;
    e->eof_plus_one = false;
    e->damaged = false;
    e->range_ok = true;
    return UE_OK;
}

ue_result ue_rsli_add(ue_rsli *l, const char *name, uint16_t flags, const void *data,
                      size_t size, ue_diag *d) {
    size_t len = strlen(name);
    if (len == 0 || len > UE_RSLI_NAME_SIZE) {
        ue_diag_add(d, UE_SEV_ERROR, "rsli.edit.name", UE_NO_OFFSET, "rsli",
                    "name \"%s\" must hold 1 to 12 bytes", name);
        return UE_ERR_USAGE;
    }
    if (!ue_rsli_method_known(flags & UE_RSLI_METHOD_MASK)) {
        ue_diag_add(d, UE_SEV_ERROR, "rsli.edit.method", UE_NO_OFFSET, "rsli",
                    "packing method 0x%03X is not supported", flags & UE_RSLI_METHOD_MASK);
        return UE_ERR_UNSUPPORTED;
    }
    if (l->count >= UE_RSLI_MAX_ENTRIES) return UE_ERR_USAGE;
    ue_rsli_entry *ne = realloc(l->entries, (l->count + 1) * sizeof *ne);
    if (!ne) return UE_ERR_NOMEM;
    l->entries = ne;
    ue_rsli_entry *e = &l->entries[l->count];
    memset(e, 0, sizeof *e);
    memcpy(e->name_raw, name, len);
    e->flags = flags;
    ue_result r = pack_owned(e, l->pack_level, data, size);
    if (r != UE_OK) return r;
    l->count++;
    l->layout_dirty = true;
    return UE_OK;
}

ue_result ue_rsli_replace(ue_rsli *l, size_t i, const void *data, size_t size, ue_diag *d) {
    if (i >= l->count) return UE_ERR_USAGE;
    ue_rsli_entry *e = &l->entries[i];
    if (!ue_rsli_method_known(method_of(e))) {
        ue_diag_add(d, UE_SEV_ERROR, "rsli.edit.method", UE_NO_OFFSET, "rsli",
                    "entry %zu uses unsupported method 0x%03X", i, method_of(e));
        return UE_ERR_UNSUPPORTED;
    }
    ue_result r = pack_owned(e, l->pack_level, data, size);
    if (r == UE_OK) l->layout_dirty = true;
    return r;
}

ue_result ue_rsli_remove(ue_rsli *l, size_t i) {
    if (i >= l->count) return UE_ERR_USAGE;
    free(l->entries[i].owned);
    memmove(&l->entries[i], &l->entries[i + 1], (l->count - i - 1) * sizeof *l->entries);
    l->count--;
    l->layout_dirty = true;
    return UE_OK;
}
