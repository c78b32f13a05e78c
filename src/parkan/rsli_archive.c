/* unearth — RsLi behind the generic container contract: listing, JSON views, extract with a
 * manifest (raw header, raw rows, original packed streams) and pack back byte-identically. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/container.h"
#include "parkan/parkan_containers.h"
#include "parkan/parkan_put.h"
#include "parkan/rsli_order.h"
#include "unearth/lzss.h"
#include "unearth/rsli.h"
#include "common/bytes.h"
#include "common/io.h"

static bool rsli_probe(const uint8_t *head, size_t n, uint64_t total) {
    (void)total;
    return n >= 4 && head[0] == 'N' && head[1] == 'L' && head[2] == 0 && head[3] == 1;
}

typedef struct rsli_state {
    ue_rsli lib;
    ue_mode mode;
    size_t decode_budget;  /* what validate or extract may still decode (bounded work) */
} rsli_state;

/* Decodes entry i for a verb that decodes every entry. Rows may share packed bytes, so the
 * total is capped like one payload: ue_cap_decoded(file size); past it, a limit error. */
static ue_result read_budgeted(rsli_state *s, size_t i, uint8_t **p, size_t *n, ue_diag *d) {
    const ue_rsli_entry *e = &s->lib.entries[i];
    if (e->unpacked_size > s->decode_budget) {
        char path[64];
        snprintf(path, sizeof path, "rsli/entry[%zu]", i);
        ue_diag_add(d, UE_SEV_ERROR, "rsli.limit", e->file_offset, path,
                    "decoding every entry would produce more than %zu bytes for a %llu-byte "
                    "library; entry %zu and the rest are not decoded",
                    ue_cap_decoded(s->lib.file_size), (unsigned long long)s->lib.file_size, i);
        *p = NULL;
        *n = 0;
        return UE_ERR_LIMIT;
    }
    ue_result r = ue_rsli_read(&s->lib, i, p, n, d);
    if (r == UE_OK) s->decode_budget -= *n;
    return r;
}

static ue_result rsli_open(const ue_source *src, ue_mode mode, void **state, ue_diag *d) {
    rsli_state *s = calloc(1, sizeof *s);
    if (!s) return UE_ERR_NOMEM;
    /* A declared unpacked size beyond the bounded-work cap is refused when the table is read,
     * so no verb allocates it. */
    ue_rsli_limits limits = {0};
    limits.max_unpacked = ue_cap_decoded(src->size);
    ue_result r = ue_rsli_parse(src, mode, &limits, &s->lib, d);
    if (r != UE_OK) {
        free(s);
        return r;
    }
    s->mode = mode;
    s->decode_budget = limits.max_unpacked;
    *state = s;
    return UE_OK;
}

static void rsli_close(void *state) {
    rsli_state *s = state;
    if (!s) return;
    ue_rsli_free(&s->lib);
    free(s);
}

static size_t rsli_count(const void *state) { return ((const rsli_state *)state)->lib.count; }

static void rsli_entry(const void *state, size_t i, ue_entry_info *info) {
    const rsli_state *s = state;
    const ue_rsli_entry *e = &s->lib.entries[i];
    memset(info, 0, sizeof *info);
    info->index = i;
    /* RsLi names are Windows-1251: shown in UTF-8. */
    ue_cp1251_entry_name(e->name_raw, UE_RSLI_NAME_SIZE, info->name, sizeof info->name);
    snprintf(info->type, sizeof info->type, "0x%04X", e->flags);
    info->offset = e->file_offset;
    info->stored_size = e->stored_bytes;
    info->size = e->unpacked_size;
    uint32_t m = e->flags & UE_RSLI_METHOD_MASK;
    if (ue_rsli_method_known(m)) snprintf(info->method, sizeof info->method, "%s", ue_rsli_method_name(m));
    else snprintf(info->method, sizeof info->method, "0x%03X", m);
    info->damaged = e->damaged;
    /* Only stored payloads can be sniffed without decoding. */
    if (!e->damaged && m == UE_RSLI_STORED && e->range_ok && !e->owned && s->lib.src) {
        uint8_t head[64];
        size_t take = e->stored_bytes < sizeof head ? e->stored_bytes : sizeof head;
        if (take >= 4 && ue_source_read(s->lib.src, e->file_offset, head, take) == UE_OK)
            snprintf(info->nested, sizeof info->nested, "%s",
                     ue_detect_format(head, take, e->unpacked_size));
    }
}

/* The engine's lookup on the name as typed, then on its CP1251 bytes (UTF-8 or escaped text). */
static bool rsli_find(const void *state, const char *name, size_t *index) {
    const ue_rsli *l = &((const rsli_state *)state)->lib;
    if (ue_rsli_find(l, name, index)) return true;
    uint8_t bytes[UE_RSLI_NAME_SIZE];
    size_t len;
    if (ue_cp1251_name_parse(name, bytes, UE_RSLI_NAME_SIZE, &len, NULL, NULL) != UE_OK) return false;
    char stored[UE_RSLI_NAME_SIZE + 1];
    memcpy(stored, bytes, len);
    stored[len] = 0;
    return ue_rsli_find(l, stored, index);
}

static ue_result rsli_read(void *state, size_t i, uint8_t **data, size_t *size, ue_diag *d) {
    return ue_rsli_read(&((rsli_state *)state)->lib, i, data, size, d);
}

/* Stored and XOR payloads give back their packed bytes exactly; anything else also keeps the
 * original packed stream so an unchanged entry is re-emitted without re-compressing. */
static bool needs_packed_copy(const ue_rsli_entry *e) {
    uint32_t m = e->flags & UE_RSLI_METHOD_MASK;
    return e->damaged || !(m == UE_RSLI_STORED || m == UE_RSLI_XOR) ||
           e->stored_bytes != e->unpacked_size;
}

/* The header, for `info --json` and the manifest. */
static void write_info(const ue_rsli *l, ue_json *w) {
    ue_json_object_begin(w);
    ue_json_key_string(w, "magic", "NL");
    ue_json_key_int(w, "version", l->header[3]);
    ue_json_key_int(w, "entry_count", (int64_t)l->count);
    ue_json_key(w, "presorted");
    ue_json_bool(w, l->presorted);
    ue_json_key_int(w, "table_seed", ue_load_u32le(l->header + 0x14));
    ue_json_key_int(w, "file_size", (int64_t)l->file_size);
    ue_json_key(w, "sort_table_valid");
    ue_json_bool(w, l->sort_valid);
    if (l->has_ao) ue_json_key_int(w, "ao_overlay", l->overlay);
    ue_json_key_int(w, "unindexed_regions", (int64_t)l->gap_count);
    ue_json_object_end(w);
}

static void write_hex(ue_json *w, const char *key, const uint8_t *p, size_t n) {
    ue_json_key(w, key);
    ue_json_hex(w, p, n);
}

/* A file written for the manifest: its path and the XXH64 of its bytes. */
static void write_file_hash(ue_json *w, const char *rel, const uint8_t *p, size_t n) {
    ue_json_key_string(w, "file", rel);
    ue_json_key(w, "xxh64");
    ue_json_xxh64(w, p, n);
}

/* Entry i's fields as `list --json` has them, left open for what extract adds. */
static void write_entry_fields(const rsli_state *s, size_t i, ue_json *w) {
    const ue_rsli_entry *e = &s->lib.entries[i];
    ue_entry_info info;
    rsli_entry(s, i, &info);
    ue_json_object_begin(w);
    ue_json_key_int(w, "index", (int64_t)i);
    ue_json_key_string(w, "name", info.name);
    write_hex(w, "name_hex", e->name_raw, UE_RSLI_NAME_SIZE);
    write_hex(w, "service_hex", e->service, 4);
    ue_json_key_int(w, "flags", e->flags);
    ue_json_key_string(w, "method", info.method);
    ue_json_key_int(w, "sort_to_original", e->sort_disk);
    ue_json_key_int(w, "sort_value", e->sort_value);
    ue_json_key_int(w, "unpacked_size", e->unpacked_size);
    ue_json_key_int(w, "data_offset", e->data_offset);
    ue_json_key_int(w, "packed_size", e->packed_size);
    ue_json_key_int(w, "file_offset", (int64_t)e->file_offset);
    if (e->eof_plus_one) {
        ue_json_key(w, "deflate_eof_plus_one");
        ue_json_bool(w, true);
    }
    if (info.nested[0]) ue_json_key_string(w, "nested", info.nested);
    if (e->damaged) {
        ue_json_key(w, "damaged");
        ue_json_bool(w, true);
    }
}

static void rsli_info_json(const void *state, ue_json *w) { write_info(&((const rsli_state *)state)->lib, w); }

static void rsli_entry_json(const void *state, size_t i, ue_json *w) {
    write_entry_fields(state, i, w);
    ue_json_object_end(w);
}

/* The decoded payload into entries/; in tolerant mode an undecodable one marks the entry
 * damaged instead (its packed bytes below still let pack rebuild the file). */
static ue_result extract_decoded(rsli_state *s, size_t i, const char *file, ue_outdir *o,
                                 ue_json *w, ue_diag *d) {
    ue_rsli_entry *e = &s->lib.entries[i];
    uint8_t *p;
    size_t n;
    ue_result r = read_budgeted(s, i, &p, &n, d);
    if (r != UE_OK && s->mode == UE_MODE_TOLERANT) {
        e->damaged = true;
        ue_json_key(w, "damaged");
        ue_json_bool(w, true);
        return UE_OK;
    }
    if (r != UE_OK) return r;
    char rel[320];
    snprintf(rel, sizeof rel, "entries/%s", file);
    r = ue_outdir_write(o, rel, p, n, d);
    write_file_hash(w, rel, p, n);
    free(p);
    return r;
}

static ue_result extract_entry(rsli_state *s, size_t i, ue_outdir *o, ue_json *w, ue_diag *d) {
    ue_rsli *l = &s->lib;
    ue_rsli_entry *e = &l->entries[i];
    char file[300], name[UE_RSLI_NAME_SIZE + 1], text[4 * UE_RSLI_NAME_SIZE];
    write_entry_fields(s, i, w);
    ue_rsli_entry_name(e, name, sizeof name);
    ue_cp1251_to_utf8(name, text, sizeof text);
    ue_entry_file_name(i, text, ".bin", file, sizeof file);
    ue_result r = e->damaged ? UE_OK : extract_decoded(s, i, file, o, w, d);
    /* Bytes shared with another entry are not copied again (bounded work). */
    if (r == UE_OK && needs_packed_copy(e) && e->range_ok && !e->shares_bytes) {
        uint8_t *p;
        size_t n;
        r = ue_rsli_packed(l, i, &p, &n, d);
        if (r == UE_OK) {
            char rel[320];
            snprintf(rel, sizeof rel, "packed/%s", file);
            r = ue_outdir_write(o, rel, p, n, d);
            ue_json_key(w, "packed");
            ue_json_object_begin(w);
            write_file_hash(w, rel, p, n);
            ue_json_object_end(w);
            free(p);
        }
    }
    ue_json_object_end(w);
    return r;
}

static ue_result rsli_extract(void *state, ue_outdir *o, ue_json *w, ue_diag *d) {
    rsli_state *s = state;
    ue_rsli *l = &s->lib;
    ue_json_key(w, "header");
    write_info(l, w);
    write_hex(w, "header_hex", l->header, UE_RSLI_HEADER_SIZE);
    ue_json_key_int(w, "file_size", (int64_t)l->file_size);
    if (l->has_ao) write_hex(w, "ao_hex", l->ao_raw, UE_RSLI_AO_SIZE);
    ue_json_key(w, "entries");
    ue_json_array_begin(w);
    ue_result r = UE_OK;
    for (size_t i = 0; i < l->count && r == UE_OK; i++) r = extract_entry(s, i, o, w, d);
    ue_json_array_end(w);
    ue_json_key(w, "unindexed");
    ue_json_array_begin(w);
    for (size_t g = 0; g < l->gap_count && r == UE_OK; g++) {
        const ue_rsli_gap *gap = &l->gaps[g];
        char rel[320];
        snprintf(rel, sizeof rel, "unindexed/%08llx.bin", (unsigned long long)gap->offset);
        r = ue_outdir_write(o, rel, gap->bytes, gap->size, d);
        ue_json_object_begin(w);
        ue_json_key_int(w, "offset", (int64_t)gap->offset);
        ue_json_key_int(w, "size", (int64_t)gap->size);
        write_file_hash(w, rel, gap->bytes, gap->size);
        ue_json_object_end(w);
    }
    ue_json_array_end(w);
    return r;
}

static ue_result take_owned(ue_rsli_entry *e, uint8_t *bytes, size_t n) {
    if (n > UINT32_MAX) {
        free(bytes);
        return UE_ERR_INVALID;
    }
    free(e->owned);
    e->owned = bytes;
    e->stored_bytes = (uint32_t)n;
    e->range_ok = true;
    return UE_OK;
}

/* Every key extract writes for an entry; pack warns about any other. */
static const char *const rsli_entry_keys[] = {
    "index", "name", "name_hex", "service_hex", "flags", "method", "sort_to_original",
    "sort_value", "unpacked_size", "data_offset", "packed_size", "file_offset",
    "deflate_eof_plus_one", "nested", "damaged", "file", "xxh64", "packed", NULL};

/* The method bits a method name stands for, or -1 for a name that is none. */
static int method_bits(const char *name) {
    static const uint32_t methods[] = {UE_RSLI_STORED, UE_RSLI_XOR, UE_RSLI_LZSS,
                                       UE_RSLI_XOR_LZSS, UE_RSLI_LZHUF, UE_RSLI_XOR_LZHUF,
                                       UE_RSLI_DEFLATE};
    for (size_t k = 0; name && k < sizeof methods / sizeof methods[0]; k++)
        if (!strcmp(name, ue_rsli_method_name(methods[k]))) return (int)methods[k];
    return -1;
}

/* "method" is what extract read from "flags", which alone decides how pack packs the entry: an
 * edited "method" says so and names the "flags" value that would ask for it. */
static void check_method_key(const ue_jv *given, uint16_t flags, const char *where,
                             const char *entry, ue_diag *d) {
    uint32_t method = flags & UE_RSLI_METHOD_MASK;
    char name[16], written[32], shown[128], advice[200];
    /* extract writes what list shows: the name, or the bits of a method unearth lacks */
    if (ue_rsli_method_known(method)) snprintf(name, sizeof name, "%s", ue_rsli_method_name(method));
    else snprintf(name, sizeof name, "0x%03X", method);
    const char *text = ue_jv_string(given);
    if (!given || (text && !strcmp(text, name))) return;
    snprintf(written, sizeof written, "\"%s\"", name);
    ue_jv_show(given, shown, sizeof shown);
    int wanted = method_bits(ue_jv_string(given));
    unsigned asked = (flags & ~UE_RSLI_METHOD_MASK) | (unsigned)(wanted < 0 ? 0 : wanted);
    if (wanted >= 0)
        snprintf(advice, sizeof advice,
                 "the method comes from \"flags\"; set \"flags\" to %u (0x%04X) for %s", asked,
                 asked, shown);
    else
        snprintf(advice, sizeof advice,
                 "the method comes from \"flags\" bits 0x1E0 (0x040 lzss, 0x080 lzhuf, 0x100 "
                 "deflate, +0x020 xor)");
    ue_manifest_informational(where, entry, "method", shown, written, advice, d);
}

/* "nested" and "damaged" are written for reading: what pack writes follows from the payload,
 * so an edit that disagrees with it says so. */
static void check_read_only_keys(const ue_jv *ej, const uint8_t *payload, size_t size,
                                 const char *where, const char *entry, ue_diag *d) {
    const ue_jv *nested = ue_jv_get(ej, "nested"), *damaged = ue_jv_get(ej, "damaged");
    const char *found = ue_detect_format(payload, size < 64 ? size : 64, size);
    const char *text = ue_jv_string(nested);
    char given[128], written[24];
    if (nested && !(text && !strcmp(text, found))) {
        ue_jv_show(nested, given, sizeof given);
        snprintf(written, sizeof written, found[0] ? "\"%s\"" : "nothing", found);
        ue_manifest_informational(where, entry, "nested", given, written,
                                  "list and validate tell a nested archive by the payload's "
                                  "first bytes", d);
    }
    if (damaged && !ue_jv_is(damaged, UE_JV_FALSE)) {
        ue_jv_show(damaged, given, sizeof given);
        ue_manifest_informational(where, entry, "damaged", given, "false",
                                  "pack writes the payload from \"file\"", d);
    }
}

static ue_result pack_entry(ue_rsli *l, const ue_jv *ej, size_t i, const char *dir, bool *dirty,
                            ue_diag *d) {
    ue_rsli_entry *e = &l->entries[i];
    char where[64];
    snprintf(where, sizeof where, "manifest/entries[%zu]", i);
    if (!ue_jv_is(ej, UE_JV_OBJECT)) {
        ue_diag_add(d, UE_SEV_ERROR, "manifest.shape", UE_NO_OFFSET, where, "not an object");
        return UE_ERR_INVALID;
    }
    const char *entry_name = ue_jv_string(ue_jv_get(ej, "name"));
    ue_manifest_unknown_keys_jv(ej, rsli_entry_keys, where, entry_name, d);
    uint32_t flags;
    if (!ue_jv_u32(ej, "flags", &flags, where, d)) return UE_ERR_INVALID;
    if (flags > 0xFFFFu) {
        ue_diag_add(d, UE_SEV_ERROR, "manifest.field", UE_NO_OFFSET, where,
                    "\"flags\" = %u does not fit 16 bits", flags);
        return UE_ERR_INVALID;
    }
    e->flags = (uint16_t)flags;
    uint32_t method = flags & UE_RSLI_METHOD_MASK;
    check_method_key(ue_jv_get(ej, "method"), e->flags, where, entry_name, d);

    /* The raw 12 bytes win unless the readable (UTF-8) name was edited. */
    bool have_raw = ue_jv_get(ej, "name_hex") &&
                    ue_jv_hex(ej, "name_hex", e->name_raw, UE_RSLI_NAME_SIZE, NULL, where, d);
    const char *text = ue_jv_string(ue_jv_get(ej, "name"));
    bool renamed = false;
    ue_result named = ue_manifest_cp1251_name(text, have_raw, e->name_raw, UE_RSLI_NAME_SIZE,
                                              UE_RSLI_NAME_SIZE, where, &renamed, d);
    if (named != UE_OK) return named;
    if (renamed) *dirty = true;
    if (ue_jv_get(ej, "service_hex") &&
        !ue_jv_hex(ej, "service_hex", e->service, 4, NULL, where, d))
        return UE_ERR_INVALID;

    uint32_t v;
    /* The sort table indexes table positions: a moved entry invalidates it. */
    if (!ue_jv_u32(ej, "index", &v, NULL, NULL) || v != i) *dirty = true;
    e->sort_disk = ue_jv_u32(ej, "sort_to_original", &v, NULL, NULL) && v <= 0xFFFFu ? (uint16_t)v : 0;
    if (!ue_jv_get(ej, "sort_to_original")) *dirty = true;
    e->sort_value = ue_jv_u32(ej, "sort_value", &v, NULL, NULL) && v <= 0xFFFFu ? (uint16_t)v : e->sort_disk;
    bool have_layout = ue_jv_u32(ej, "data_offset", &e->data_offset, NULL, NULL) &&
                       ue_jv_u32(ej, "packed_size", &e->packed_size, NULL, NULL) &&
                       ue_jv_u32(ej, "unpacked_size", &e->unpacked_size, NULL, NULL);
    if (!have_layout) *dirty = true;
    e->file_offset = (uint64_t)e->data_offset + (l->has_ao ? l->overlay : 0);
    e->eof_plus_one = ue_jv_is(ue_jv_get(ej, "deflate_eof_plus_one"), UE_JV_TRUE);

    uint8_t *payload = NULL, *packed = NULL;
    size_t payload_size = 0, packed_size = 0;
    bool payload_changed = false, packed_changed = false;
    ue_result r = UE_OK;
    const ue_jv *pj = ue_jv_get(ej, "packed");
    bool have_file = ue_jv_get(ej, "file") != NULL;
    if (have_file) {
        r = ue_manifest_load_file_jv(dir, ej, "file", UE_CAP_ENTRY_BYTES, &payload, &payload_size,
                                  &payload_changed, d);
        if (r != UE_OK) return r;
        check_read_only_keys(ej, payload, payload_size, where, entry_name, d);
    }
    if (ue_jv_is(pj, UE_JV_OBJECT) && (!have_file || !payload_changed)) {
        r = ue_manifest_load_file_jv(dir, pj, "file", UE_CAP_ENTRY_BYTES, &packed, &packed_size,
                                  &packed_changed, d);
        if (r != UE_OK) {
            free(payload);
            return r;
        }
    }
    if (packed) {
        /* The original stream in disk form (keyed with the row value it was extracted with). */
        free(payload);
        e->owned_key_valid = true;
        e->owned_key = e->sort_value;
        r = take_owned(e, packed, packed_size);
        if (r != UE_OK) return r;
        if (packed_changed) {
            e->packed_size = e->stored_bytes;
            e->eof_plus_one = false;
            *dirty = true;
        }
    } else if (payload && !payload_changed && (method == UE_RSLI_STORED || method == UE_RSLI_XOR)) {
        /* Stored/XOR: the payload is the packed stream before the XOR layer. */
        e->owned_key_valid = false;
        r = take_owned(e, payload, payload_size);
        if (r != UE_OK) return r;
    } else if (payload) {
        if (!ue_rsli_method_known(method)) {
            free(payload);
            ue_diag_add(d, UE_SEV_ERROR, "manifest.method", UE_NO_OFFSET, where,
                        "cannot re-pack with unsupported method 0x%03X", method);
            return UE_ERR_UNSUPPORTED;
        }
        /* New or edited payload: re-pack with the entry's own method. */
        ue_rsli tmp;
        memset(&tmp, 0, sizeof tmp);
        tmp.entries = e;
        tmp.count = 1;
        tmp.pack_level = l->pack_level;
        r = ue_rsli_replace(&tmp, 0, payload, payload_size, d);
        free(payload);
        if (r != UE_OK) return r;
        *dirty = true;
    } else {
        e->range_ok = false; /* damaged and unreadable in the source: nothing to place */
    }
    /* A recorded layout only holds when the bytes still fit where they were. */
    uint64_t expect = e->eof_plus_one && e->packed_size ? e->packed_size - 1u : e->packed_size;
    if (e->range_ok && e->stored_bytes != expect) *dirty = true;
    return UE_OK;
}

/* The top-level keys extract writes; pack warns about any other. */
static const char *const rsli_manifest_keys[] = {
    "unearth_manifest", "format", "source", "header", "header_hex", "file_size", "ao_hex",
    "entries", "unindexed", NULL};
static const char *const rsli_gap_keys[] = {"offset", "size", "file", "xxh64", NULL};
/* The "header" block is what extract read from "header_hex" and the table: pack reads none of
 * it. A new layout recomputes these (not compared then); the rest come from "header_hex". */
static const char *const rsli_header_layout[] = {"entry_count", "presorted", "file_size",
                                                 "sort_table_valid", "unindexed_regions", NULL};

/* header_hex is stored as it is: bytes the reader rejects are refused, naming them. */
static ue_result check_header_hex(const uint8_t *h, ue_diag *d) {
    if (h[0] == 'N' && h[1] == 'L' && h[2] == 0 && h[3] == 1) return UE_OK;
    ue_diag_add(d, UE_SEV_ERROR, "manifest.field", UE_NO_OFFSET, "manifest",
                "\"header_hex\" starts %02x %02x %02x %02x: an RsLi library starts 4e 4c 00 01 "
                "(\"NL\", a zero byte, version 1)", h[0], h[1], h[2], h[3]);
    return UE_ERR_INVALID;
}

/* The stored name of entry i as list shows it, for messages. */
static void rsli_shown_name(const ue_rsli *l, size_t i, char *out, size_t size) {
    ue_cp1251_entry_name(l->entries[i].name_raw, UE_RSLI_NAME_SIZE, out, size);
}

/* Packed ranges where the manifest places them, in file order: each must start after those
 * before it end (the reader's rule), else the library is laid out anew, with a warning. */
static bool recorded_ranges_overlap(const ue_rsli *l, ue_diag *d) {
    size_t n, reported = 0;
    uint64_t *key = ue_rsli_packed_order(l, &n);
    if (!key) return true;
    uint64_t end = 0;
    size_t last = 0;
    for (size_t k = 0; k < n; k++) {
        size_t i = (size_t)key[k];
        const ue_rsli_entry *e = &l->entries[i];
        if (k > 0 && e->file_offset < end && reported++ < 8) {
            char where[64], name[64], other[64];
            snprintf(where, sizeof where, "manifest/entries[%zu]", i);
            rsli_shown_name(l, i, name, sizeof name);
            rsli_shown_name(l, last, other, sizeof other);
            ue_diag_add(d, UE_SEV_WARNING, "manifest.layout", UE_NO_OFFSET, where,
                        "entry \"%s\": \"data_offset\" is %u: its packed bytes overlap entry %zu "
                        "\"%s\" (which ends at %llu): pack lays the library out anew (layout "
                        "keys are kept only while they describe a valid library)",
                        name, e->data_offset, last, other, (unsigned long long)end);
        }
        if (e->file_offset + e->stored_bytes > end) end = e->file_offset + e->stored_bytes, last = i;
    }
    free(key);
    return reported > 0;
}

/* A presorted table must list the names in order; one that does not is computed again, and
 * each "sort_to_original" that changes says so. True when it is recomputed. */
static bool recorded_sort_invalid(const ue_rsli *l, ue_diag *d) {
    if (!l->presorted || !l->count) return false;
    uint16_t *perm = malloc(l->count * sizeof *perm);
    if (!perm || ue_rsli_compute_sort(l, perm) != UE_OK) {
        free(perm);
        return true;
    }
    /* Equal names may come in either order: compare the names each position lists. */
    bool valid = true;
    for (size_t i = 0; i < l->count && valid; i++) {
        uint16_t s = l->entries[i].sort_disk;
        valid = s < l->count && !memcmp(l->entries[s].name_raw, l->entries[perm[i]].name_raw,
                                        UE_RSLI_NAME_SIZE);
    }
    for (size_t i = 0, told = 0; i < l->count && !valid; i++) {
        if (l->entries[i].sort_disk == perm[i] || told++ >= 8) continue;
        char where[64], name[64], given[16], written[16];
        snprintf(where, sizeof where, "manifest/entries[%zu]", i);
        rsli_shown_name(l, i, name, sizeof name);
        snprintf(given, sizeof given, "%u", l->entries[i].sort_disk);
        snprintf(written, sizeof written, "%u", perm[i]);
        ue_manifest_informational(where, name, "sort_to_original", given, written,
                                  "pack sorts the table by name (rename entries to change it)",
                                  d);
    }
    free(perm);
    return !valid;
}

static ue_result rsli_pack(const ue_jv *manifest, const char *dir, const ue_pack_options *opt,
                           ue_buf *out, ue_diag *d) {
    ue_manifest_unknown_keys_jv(manifest, rsli_manifest_keys, "manifest", NULL, d);
    const ue_jv *entries = ue_jv_get(manifest, "entries");
    if (!ue_jv_is(entries, UE_JV_ARRAY)) {
        ue_diag_add(d, UE_SEV_ERROR, "manifest.shape", UE_NO_OFFSET, "manifest",
                    "needs an \"entries\" array");
        return UE_ERR_INVALID;
    }
    ue_rsli l;
    ue_rsli_init(&l);
    l.pack_level = ue_pack_level(opt, UE_LZSS_LEVEL_DEFAULT); /* RsLi manifests hold no level */
    bool dirty = false;
    if (ue_jv_get(manifest, "header_hex")) {
        if (!ue_jv_hex(manifest, "header_hex", l.header, UE_RSLI_HEADER_SIZE, NULL, "manifest", d) ||
            check_header_hex(l.header, d) != UE_OK)
            return UE_ERR_INVALID;
    } else {
        dirty = true;
    }
    uint64_t file_size = 0;
    if (!ue_jv_u64(manifest, "file_size", &file_size, NULL, NULL)) dirty = true;
    l.file_size = file_size;
    if (ue_jv_get(manifest, "ao_hex")) {
        if (!ue_jv_hex(manifest, "ao_hex", l.ao_raw, UE_RSLI_AO_SIZE, NULL, "manifest", d))
            return UE_ERR_INVALID;
        l.has_ao = true;
        l.overlay = ue_load_u32le(l.ao_raw + 2);
    }
    l.presorted = ue_load_u16le(l.header + 0x0E) == UE_RSLI_PRESORTED;
    size_t count = ue_jv_size(entries);
    if (count > UE_RSLI_MAX_ENTRIES) {
        ue_diag_add(d, UE_SEV_ERROR, "manifest.count", UE_NO_OFFSET, "manifest",
                    "%zu entries do not fit an RsLi library", count);
        return UE_ERR_INVALID;
    }
    if ((int16_t)ue_load_u16le(l.header + 4) != (int16_t)count) dirty = true;
    l.entries = ue_calloc_items(count, sizeof *l.entries);
    if (!l.entries) return UE_ERR_NOMEM;
    ue_result r = UE_OK;
    for (size_t i = 0; i < count && r == UE_OK; i++) {
        l.count = i + 1;
        r = pack_entry(&l, ue_jv_at(entries, i), i, dir, &dirty, d);
    }
    const ue_jv *gaps = ue_jv_get(manifest, "unindexed");
    size_t ngaps = ue_jv_is(gaps, UE_JV_ARRAY) ? ue_jv_size(gaps) : 0;
    if (r == UE_OK && ngaps) {
        l.gaps = calloc(ngaps, sizeof *l.gaps);
        if (!l.gaps) r = UE_ERR_NOMEM;
        for (size_t g = 0; g < ngaps && r == UE_OK; g++) {
            const ue_jv *gj = ue_jv_at(gaps, g);
            char where[64];
            snprintf(where, sizeof where, "manifest/unindexed[%zu]", g);
            ue_manifest_unknown_keys_jv(gj, rsli_gap_keys, where, NULL, d);
            ue_rsli_gap *gap = &l.gaps[l.gap_count];
            bool changed;
            if (!ue_jv_u64(gj, "offset", &gap->offset, where, d)) {
                r = UE_ERR_INVALID;
                break;
            }
            r = ue_manifest_load_file_jv(dir, gj, "file", UE_CAP_ENTRY_BYTES, &gap->bytes,
                                      &gap->size, &changed, d);
            if (r == UE_OK) l.gap_count++;
        }
    }
    l.layout_dirty = dirty;
    if (r == UE_OK && !dirty) {
        /* Fall back to a fresh layout when the recorded one cannot hold the bytes. */
        uint64_t data_end = l.file_size - (l.has_ao && l.file_size >= UE_RSLI_AO_SIZE ? UE_RSLI_AO_SIZE : 0);
        uint64_t table_end = UE_RSLI_HEADER_SIZE + (uint64_t)count * UE_RSLI_ENTRY_SIZE;
        if (l.file_size < table_end) l.layout_dirty = true;
        for (size_t i = 0; i < l.count && !l.layout_dirty; i++) {
            const ue_rsli_entry *e = &l.entries[i];
            if (e->range_ok && !ue_range_ok(e->file_offset, e->stored_bytes, data_end))
                l.layout_dirty = true;
        }
        for (size_t g = 0; g < l.gap_count && !l.layout_dirty; g++)
            if (!ue_range_ok(l.gaps[g].offset, l.gaps[g].size, data_end)) l.layout_dirty = true;
        if (!l.layout_dirty && recorded_ranges_overlap(&l, d)) l.layout_dirty = true;
        if (!l.layout_dirty && recorded_sort_invalid(&l, d)) l.layout_dirty = true;
    }
    size_t base = out->size;
    if (r == UE_OK) r = ue_rsli_write(&l, out, d);
    if (r == UE_OK)
        ue_manifest_check_info(&ue_rsli_ops, out->data + base, out->size - base,
                               ue_jv_get(manifest, "header"), "header",
                               l.layout_dirty ? rsli_header_layout : NULL,
                               "edit \"header_hex\" instead (version: byte 3, presorted: "
                               "0xABBA at 0x0E, table_seed: LE at 0x14; ao_overlay: \"ao_hex\"); "
                               "counts, sizes and sort order follow the entries", d);
    ue_rsli_free(&l);
    return r;
}

static ue_result rsli_reencode(void *state, ue_buf *out, ue_diag *d) {
    return ue_rsli_write(&((rsli_state *)state)->lib, out, d);
}

/* Decodes every entry; in tolerant mode a failure marks the entry damaged. */
static ue_result rsli_validate(void *state, ue_diag *d) {
    rsli_state *s = state;
    ue_result worst = UE_OK;
    for (size_t i = 0; i < s->lib.count; i++) {
        ue_rsli_entry *e = &s->lib.entries[i];
        if (e->damaged) continue;
        uint8_t *p;
        size_t n;
        ue_result r = read_budgeted(s, i, &p, &n, d);
        if (r == UE_OK) {
            free(p);
            continue;
        }
        if (s->mode == UE_MODE_TOLERANT) e->damaged = true;
        worst = r;
    }
    return worst;
}

const ue_container_ops ue_rsli_ops = {
    .name = "rsli",
    .description = "Parkan RsLi library",
    .probe = rsli_probe,
    .open = rsli_open,
    .close = rsli_close,
    .count = rsli_count,
    .entry = rsli_entry,
    .find = rsli_find,
    .read = rsli_read,
    .info_json = rsli_info_json,
    .entry_json = rsli_entry_json,
    .extract = rsli_extract,
    .pack = rsli_pack,
    .put = ue_parkan_rsli_put,
    .reencode = rsli_reencode,
    .validate = rsli_validate,
};
