/* unearth — NRes behind the generic container contract: listing, JSON views, extract to a
 * manifest that holds every header and entry field, and pack back (byte-identical if unchanged). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/container.h"
#include "parkan/parkan_containers.h"
#include "parkan/parkan_put.h"
#include "parkan/nres_pack_check.h"
#include "unearth/nres.h"
#include "unearth/msh.h"
#include "unearth/parkan_material.h"
#include "unearth/texm.h"
#include "common/bytes.h"
#include "common/io.h"
#include "common/parse.h"

static bool nres_probe(const uint8_t *head, size_t n, uint64_t total) {
    (void)total;
    return n >= 4 && memcmp(head, "NRes", 4) == 0;
}

typedef struct nres_state {
    ue_nres nres;
    char (*nested)[16]; /* detected format of each payload, "" if none */
    ue_mode mode;       /* of the open, for the entry checks of validate */
} nres_state;

static ue_result nres_open(const ue_source *src, ue_mode mode, void **state, ue_diag *d) {
    nres_state *s = calloc(1, sizeof *s);
    if (!s) return UE_ERR_NOMEM;
    s->mode = mode;
    ue_result r = ue_nres_parse(src, mode, &s->nres, d);
    if (r != UE_OK) {
        free(s);
        return r;
    }
    s->nested = ue_calloc_items(s->nres.count, sizeof *s->nested);
    if (!s->nested) {
        ue_nres_free(&s->nres);
        free(s);
        return UE_ERR_NOMEM;
    }
    /* A peek at each payload's first bytes tells nested models (and any other container). */
    for (size_t i = 0; i < s->nres.count; i++) {
        const ue_nres_entry *e = &s->nres.entries[i];
        uint8_t head[64];
        size_t take = e->size < sizeof head ? e->size : sizeof head;
        if (e->damaged || take < 4 || ue_source_read(src, e->data_offset, head, take) != UE_OK)
            continue;
        snprintf(s->nested[i], sizeof s->nested[i], "%s", ue_detect_format(head, take, e->size));
    }
    *state = s;
    return UE_OK;
}

static void nres_close(void *state) {
    nres_state *s = state;
    if (!s) return;
    ue_nres_free(&s->nres);
    free(s->nested);
    free(s);
}

static size_t nres_count(const void *state) { return ((const nres_state *)state)->nres.count; }

/* FourCC when all four bytes are printable letters/digits, else the number. */
static void type_name(uint32_t type_id, char *out, size_t out_size) {
    char cc[5];
    bool text = true;
    for (int k = 0; k < 4; k++) {
        unsigned char c = (unsigned char)(type_id >> (8 * k));
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
            text = false;
        cc[k] = (char)c;
    }
    cc[4] = 0;
    if (text) snprintf(out, out_size, "%s", cc);
    else snprintf(out, out_size, "%u", type_id);
}

static void nres_entry(const void *state, size_t i, ue_entry_info *info) {
    const nres_state *s = state;
    const ue_nres_entry *e = &s->nres.entries[i];
    memset(info, 0, sizeof *info);
    info->index = i;
    /* NRes names are Windows-1251: shown in UTF-8. */
    ue_cp1251_entry_name(e->name_raw, UE_NRES_NAME_SIZE, info->name, sizeof info->name);
    type_name(e->type_id, info->type, sizeof info->type);
    info->offset = e->data_offset;
    info->stored_size = e->size;
    info->size = e->size;
    snprintf(info->method, sizeof info->method, "stored");
    info->damaged = e->damaged;
    snprintf(info->nested, sizeof info->nested, "%s", s->nested[i]);
}

/* The engine's lookup on the name as typed, then on its CP1251 bytes: a UTF-8 name
 * ("РОБОТ.msh") or the escaped form older unearth printed ("\\xD0\\xCE...") finds the entry with
 * the engine's case rule. */
static bool nres_find(const void *state, const char *name, size_t *index) {
    const ue_nres *n = &((const nres_state *)state)->nres;
    if (ue_nres_find(n, name, index)) return true;
    uint8_t bytes[UE_NRES_NAME_SIZE];
    size_t len;
    if (ue_cp1251_name_parse(name, bytes, UE_NRES_NAME_SIZE - 1, &len, NULL, NULL) != UE_OK) return false;
    char stored[UE_NRES_NAME_SIZE];
    memcpy(stored, bytes, len);
    stored[len] = 0;
    return ue_nres_find(n, stored, index);
}

static ue_result nres_read(void *state, size_t i, uint8_t **data, size_t *size, ue_diag *d) {
    nres_state *s = state;
    const uint8_t *p;
    uint8_t *tmp;
    ue_result r = ue_nres_payload(&s->nres, i, &p, &tmp, d);
    if (r != UE_OK) return r;
    size_t n = s->nres.entries[i].size;
    if (tmp) {
        *data = tmp;
    } else {
        *data = ue_malloc_items(n, 1);
        if (!*data) return UE_ERR_NOMEM;
        if (n) memcpy(*data, p, n);
    }
    *size = n;
    return UE_OK;
}

/* ue_nres_payload lends a stored payload of an in-memory source where it lies. */
static ue_result nres_borrow(void *state, size_t i, const uint8_t **data, size_t *size,
                             uint8_t **to_free, ue_diag *d) {
    nres_state *s = state;
    ue_result r = ue_nres_payload(&s->nres, i, data, to_free, d);
    *size = r == UE_OK ? s->nres.entries[i].size : 0;
    return r;
}

/* The header, for `info --json` and the manifest. */
static void write_header(const ue_nres *n, ue_json *w) {
    ue_json_object_begin(w);
    ue_json_key_string(w, "magic", "NRes");
    ue_json_key_int(w, "version", n->version);
    ue_json_key_int(w, "entry_count", (int64_t)n->count);
    ue_json_key_int(w, "total_size", n->total_size);
    ue_json_key_int(w, "dir_offset", n->dir_offset);
    ue_json_key(w, "sort_table_valid");
    ue_json_bool(w, n->sort_valid);
    ue_json_key_int(w, "unindexed_regions", (int64_t)n->gap_count);
    ue_json_object_end(w);
}

/* Entry i's fields as `list --json` has them (the manifest adds to them), left open for the
 * payload's "file" and "xxh64". */
static void write_entry_fields(const nres_state *s, size_t i, ue_json *w) {
    const ue_nres_entry *e = &s->nres.entries[i];
    ue_entry_info info;
    nres_entry(s, i, &info);
    char name_hex[2 * UE_NRES_NAME_SIZE + 1];
    ue_hex_encode(e->name_raw, UE_NRES_NAME_SIZE, name_hex);
    ue_json_object_begin(w);
    ue_json_key_int(w, "index", (int64_t)i);
    ue_json_key_string(w, "name", info.name);
    ue_json_key_string(w, "name_hex", name_hex);
    ue_json_key_string(w, "type", info.type);
    ue_json_key_int(w, "type_id", e->type_id);
    ue_json_key_int(w, "attr1", e->attr1);
    ue_json_key_int(w, "attr2", e->attr2);
    ue_json_key_int(w, "attr3", e->attr3);
    ue_json_key_int(w, "size", e->size);
    ue_json_key_int(w, "data_offset", e->data_offset);
    ue_json_key_int(w, "sort_index", e->sort_index);
    if (s->nested[i][0]) ue_json_key_string(w, "nested", s->nested[i]);
    if (e->damaged) {
        ue_json_key(w, "damaged");
        ue_json_bool(w, true);
    }
}

static void nres_info_json(const void *state, ue_json *w) {
    write_header(&((const nres_state *)state)->nres, w);
}

static void nres_entry_json(const void *state, size_t i, ue_json *w) {
    write_entry_fields(state, i, w);
    ue_json_object_end(w);
}

/* Entry i's payload into entries/, its XXH64 (of the bytes written) into *hash. */
static ue_result extract_payload(const ue_nres *n, size_t i, ue_outdir *o, const char *rel,
                                 uint64_t *hash, ue_diag *d) {
    const ue_nres_entry *e = &n->entries[i];
    if (!e->owned && n->src) return ue_outdir_copy(o, rel, n->src, e->data_offset, e->size, hash, d);
    const uint8_t *p;
    uint8_t *tmp;
    ue_result r = ue_nres_payload(n, i, &p, &tmp, d);
    if (r != UE_OK) return r;
    *hash = ue_xxh64(p, e->size, 0);
    r = ue_outdir_write(o, rel, p, e->size, d);
    free(tmp);
    return r;
}

static ue_result extract_entry(const nres_state *s, size_t i, ue_outdir *o, ue_json *w,
                               ue_diag *d) {
    const ue_nres_entry *e = &s->nres.entries[i];
    write_entry_fields(s, i, w);
    ue_result r = UE_OK;
    if (!e->damaged) {
        char name[UE_NRES_NAME_SIZE + 1], text[4 * UE_NRES_NAME_SIZE], file[300], hex[17];
        char rel[320];
        ue_nres_entry_name(e, name, sizeof name);
        ue_cp1251_to_utf8(name, text, sizeof text);
        ue_entry_file_name(i, text, ".bin", file, sizeof file);
        snprintf(rel, sizeof rel, "entries/%s", file);
        uint64_t hash = 0;
        r = extract_payload(&s->nres, i, o, rel, &hash, d);
        ue_xxh64_format(hash, hex);
        ue_json_key_string(w, "file", rel);
        ue_json_key_string(w, "xxh64", hex);
    }
    ue_json_object_end(w);
    return r;
}

static ue_result nres_extract(void *state, ue_outdir *o, ue_json *w, ue_diag *d) {
    const nres_state *s = state;
    const ue_nres *n = &s->nres;
    ue_json_key(w, "header");
    write_header(n, w);
    ue_json_key(w, "entries");
    ue_json_array_begin(w);
    ue_result r = UE_OK;
    for (size_t i = 0; i < n->count && r == UE_OK; i++) r = extract_entry(s, i, o, w, d);
    ue_json_array_end(w);
    ue_json_key(w, "unindexed");
    ue_json_array_begin(w);
    for (size_t g = 0; g < n->gap_count && r == UE_OK; g++) {
        const ue_nres_gap *gap = &n->gaps[g];
        char rel[320];
        snprintf(rel, sizeof rel, "unindexed/%08x.bin", gap->offset);
        r = ue_outdir_write(o, rel, gap->bytes, gap->size, d);
        ue_json_object_begin(w);
        ue_json_key_int(w, "offset", gap->offset);
        ue_json_key_int(w, "size", gap->size);
        ue_json_key_string(w, "file", rel);
        ue_json_object_end(w);
    }
    ue_json_array_end(w);
    return r;
}

/* The header's recorded layout: a layout that no longer matches what the entries say is
 * re-planned by the writer (layout_dirty), and so is the sort table. */
static ue_result pack_header(const ue_jv *header, size_t count, ue_nres *n, ue_diag *d) {
    uint32_t recorded_count = 0, version = UE_NRES_VERSION, total = 0, dir_off = 0;
    bool have_layout = ue_jv_u32(header, "entry_count", &recorded_count, NULL, NULL) &&
                       ue_jv_u32(header, "total_size", &total, NULL, NULL) &&
                       ue_jv_u32(header, "dir_offset", &dir_off, NULL, NULL);
    if (ue_jv_get(header, "version") &&
        !ue_jv_u32(header, "version", &version, "manifest/header", d))
        return UE_ERR_INVALID;
    n->version = version;
    n->total_size = total;
    n->dir_offset = dir_off;
    /* A count that agrees with the recorded directory is another entry set (entries added or
     * removed); one that alone disagrees is an edited key (ue_nres_pack_check says so). */
    bool other_set = recorded_count != count &&
                     (uint64_t)dir_off + (uint64_t)recorded_count * UE_NRES_ENTRY_SIZE == total;
    n->layout_dirty = !have_layout || other_set;
    n->sort_dirty = n->layout_dirty;
    return UE_OK;
}

/* Every key extract writes for an entry; pack warns about any other. */
static const char *const nres_entry_keys[] = {
    "index", "name", "name_hex", "type", "type_id", "attr1", "attr2", "attr3", "size",
    "data_offset", "sort_index", "nested", "damaged", "file", "xxh64", NULL};

/* The type id that `text` shows (type_name's inverse: four letters or digits read as a
 * little-endian number, else a decimal number); false for text type_name never prints. */
static bool type_id_of(const char *text, uint32_t *type_id) {
    char back[16];
    if (strlen(text) == 4) {
        uint32_t id = 0;
        for (int k = 0; k < 4; k++) id |= (uint32_t)(unsigned char)text[k] << (8 * k);
        type_name(id, back, sizeof back);
        if (!strcmp(back, text)) {
            *type_id = id;
            return true;
        }
    }
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    if (*text < '0' || *text > '9' || *end || v > UINT32_MAX) return false;
    type_name((uint32_t)v, back, sizeof back);
    if (strcmp(back, text)) return false;
    *type_id = (uint32_t)v;
    return true;
}

/* "type" is "type_id" shown as text, and only "type_id" is stored: a "type" that disagrees says
 * so and names the "type_id" that asks for it. The manifest keeps no other record of the
 * original id, so which of the two was edited cannot be told; the stored field wins. */
static void check_type_key(const ue_jv *given, uint32_t type_id, const char *where,
                           const char *entry, ue_diag *d) {
    char written[16], shown[128], wrote[24], advice[200];
    type_name(type_id, written, sizeof written);
    const char *text = ue_jv_string(given);
    if (!given || (text && !strcmp(text, written))) return;
    snprintf(wrote, sizeof wrote, "\"%s\"", written);
    ue_jv_show(given, shown, sizeof shown);
    uint32_t wanted;
    if (text && type_id_of(text, &wanted))
        snprintf(advice, sizeof advice,
                 "the type comes from \"type_id\": set it to %u for %s, or \"type\" to %s to "
                 "agree", wanted, shown, wrote);
    else
        snprintf(advice, sizeof advice,
                 "the type comes from \"type_id\" (four letters or digits read as a little-endian "
                 "number: \"Texm\" is 1836606804)");
    ue_manifest_informational(where, entry, "type", shown, wrote, advice, d);
}

/* Type, attributes and name of entry i: the raw 36 name bytes win unless the user edited the
 * readable (UTF-8) name. */
static ue_result pack_entry_fields(const ue_jv *ej, ue_nres_entry *e, const char *where,
                                   ue_nres *n, ue_diag *d) {
    if (!ue_jv_is(ej, UE_JV_OBJECT) || !ue_jv_u32(ej, "type_id", &e->type_id, where, d))
        return UE_ERR_INVALID;
    const char *entry_name = ue_jv_string(ue_jv_get(ej, "name"));
    ue_manifest_unknown_keys_jv(ej, nres_entry_keys, where, entry_name, d);
    check_type_key(ue_jv_get(ej, "type"), e->type_id, where, entry_name, d);
    ue_jv_u32(ej, "attr1", &e->attr1, NULL, NULL);
    ue_jv_u32(ej, "attr2", &e->attr2, NULL, NULL);
    ue_jv_u32(ej, "attr3", &e->attr3, NULL, NULL);
    size_t raw_len = 0;
    bool have_raw = ue_jv_get(ej, "name_hex") &&
                    ue_jv_hex(ej, "name_hex", e->name_raw, UE_NRES_NAME_SIZE, &raw_len, where, d);
    bool renamed = false;
    ue_result r = ue_manifest_cp1251_name(entry_name, have_raw, e->name_raw, UE_NRES_NAME_SIZE,
                                          UE_NRES_NAME_SIZE - 1, where, &renamed, d);
    if (renamed) n->sort_dirty = true;
    return r;
}

/* Payloads stay in their files and are copied straight into the output; only sizes decide the
 * layout (same size: same place, whatever the new bytes are). */
static ue_result pack_entry_payload(const ue_jv *ej, size_t i, ue_nres_entry *e, const char *dir,
                                    const ue_manifest_stats *stats, const char *where,
                                    ue_nres *n, ue_diag *d) {
    if (ue_jv_is(ue_jv_get(ej, "damaged"), UE_JV_TRUE) && !ue_jv_get(ej, "file")) {
        ue_diag_add(d, UE_SEV_ERROR, "manifest.damaged", UE_NO_OFFSET, where,
                    "entry was damaged in the source and has no payload file");
        return UE_ERR_INVALID;
    }
    uint64_t size;
    ue_result r = ue_manifest_file_path_hinted_jv(dir, ej, "file", stats, i, &e->payload_file,
                                                  &size, d);
    if (r != UE_OK) return r;
    if (size > UINT32_MAX) return UE_ERR_INVALID;
    e->size = (uint32_t)size;
    uint32_t recorded_size = 0;
    const ue_jv *size_key = ue_jv_get(ej, "size");
    if (ue_jv_u32(ej, "size", &recorded_size, NULL, NULL) && recorded_size == size) {
        /* the recorded layout may hold */
    } else if (size_key && ue_manifest_file_unchanged(e->payload_file,
                                                       ue_jv_string(ue_jv_get(ej, "xxh64")))) {
        char given[128], written[24];
        ue_jv_show(size_key, given, sizeof given);
        snprintf(written, sizeof written, "%u", e->size);
        ue_manifest_informational(where, ue_jv_string(ue_jv_get(ej, "name")), "size", given,
                                  written, "pack takes sizes from the payload files", d);
    } else {
        n->layout_dirty = true; /* an edited payload: laid out anew */
    }
    /* The stored sort table indexes directory positions: a moved entry invalidates it. */
    uint32_t recorded_index;
    if (!ue_jv_u32(ej, "index", &recorded_index, NULL, NULL) || recorded_index != i)
        n->sort_dirty = true;
    /* Whether the recorded offsets still make a valid archive is ue_nres_pack_check's. */
    if (!ue_jv_u32(ej, "data_offset", &e->data_offset, NULL, NULL) ||
        !ue_jv_u32(ej, "sort_index", &e->sort_index, NULL, NULL))
        n->layout_dirty = n->sort_dirty = true;
    return UE_OK;
}

static ue_result pack_entries(const ue_jv *entries, const char *dir, ue_nres *n, ue_diag *d) {
    size_t count = ue_jv_size(entries);
    if (count > UE_CAP_TABLE_ENTRIES) return UE_ERR_LIMIT;
    n->entries = ue_calloc_items(count, sizeof *n->entries);
    if (!n->entries) return UE_ERR_NOMEM;
    ue_manifest_stats stats;
    ue_result r = ue_manifest_prestat_jv(dir, entries, "file", &stats);
    char where[64];
    for (size_t i = 0; i < count && r == UE_OK; i++) {
        const ue_jv *ej = ue_jv_at(entries, i);
        n->count = i + 1;
        snprintf(where, sizeof where, "manifest/entries[%zu]", i);
        r = pack_entry_fields(ej, &n->entries[i], where, n, d);
        if (r == UE_OK) r = pack_entry_payload(ej, i, &n->entries[i], dir, &stats, where, n, d);
    }
    ue_manifest_stats_free(&stats);
    return r;
}

static const char *const nres_gap_keys[] = {"offset", "size", "file", NULL};

/* Bytes outside every entry, loaded whole (they are small and few). */
static ue_result pack_gaps(const ue_jv *gaps, const char *dir, ue_nres *n, ue_diag *d) {
    size_t ngaps = ue_jv_is(gaps, UE_JV_ARRAY) ? ue_jv_size(gaps) : 0;
    if (!ngaps) return UE_OK;
    n->gaps = calloc(ngaps, sizeof *n->gaps);
    if (!n->gaps) return UE_ERR_NOMEM;
    ue_result r = UE_OK;
    char where[64];
    for (size_t g = 0; g < ngaps && r == UE_OK; g++) {
        const ue_jv *gj = ue_jv_at(gaps, g);
        ue_nres_gap *gap = &n->gaps[g];
        n->gap_count = g + 1;
        snprintf(where, sizeof where, "manifest/unindexed[%zu]", g);
        ue_manifest_unknown_keys_jv(gj, nres_gap_keys, where, NULL, d);
        size_t size;
        bool changed;
        if (!ue_jv_u32(gj, "offset", &gap->offset, where, d)) return UE_ERR_INVALID;
        r = ue_manifest_load_file_jv(dir, gj, "file", UE_CAP_ENTRY_BYTES, &gap->bytes, &size,
                                     &changed, d);
        gap->size = (uint32_t)size;
    }
    return r;
}

/* The top-level and header keys extract writes; pack warns about any other. */
static const char *const nres_manifest_keys[] = {"unearth_manifest", "format", "source", "header",
                                                 "entries", "unindexed", NULL};
static const char *const nres_header_keys[] = {
    "magic", "version", "entry_count", "total_size", "dir_offset", "sort_table_valid",
    "unindexed_regions", NULL};

/* NRes stores every payload as it is: the pack options (the LZSS level) do not apply. */
static ue_result nres_pack_to(const ue_jv *manifest, const char *dir, const ue_pack_options *opt,
                              ue_sink *out, ue_diag *d) {
    (void)opt;
    const ue_jv *header = ue_jv_get(manifest, "header");
    const ue_jv *entries = ue_jv_get(manifest, "entries");
    if (!ue_jv_is(header, UE_JV_OBJECT) || !ue_jv_is(entries, UE_JV_ARRAY)) {
        ue_diag_add(d, UE_SEV_ERROR, "manifest.shape", UE_NO_OFFSET, "manifest",
                    "needs a \"header\" object and an \"entries\" array");
        return UE_ERR_INVALID;
    }
    ue_manifest_unknown_keys_jv(manifest, nres_manifest_keys, "manifest", NULL, d);
    ue_manifest_unknown_keys_jv(header, nres_header_keys, "manifest/header", NULL, d);
    ue_nres n;
    ue_nres_init(&n);
    ue_result r = pack_header(header, ue_jv_size(entries), &n, d);
    if (r == UE_OK) r = pack_entries(entries, dir, &n, d);
    if (r == UE_OK) r = pack_gaps(ue_jv_get(manifest, "unindexed"), dir, &n, d);
    if (r == UE_OK) r = ue_nres_pack_check(&n, manifest, d);
    if (r == UE_OK) r = ue_nres_write_to(&n, UE_NRES_LOSSLESS, out, d);
    ue_nres_free(&n);
    return r;
}

static ue_result nres_pack(const ue_jv *manifest, const char *dir, const ue_pack_options *opt,
                           ue_buf *out, ue_diag *d) {
    size_t base = out->size;
    ue_sink sink = ue_sink_buf(out);
    ue_result r = nres_pack_to(manifest, dir, opt, &sink, d);
    if (r != UE_OK) out->size = base;
    return r;
}

static void nres_check_packed_keys(const void *state, const ue_jv *manifest, ue_diag *d) {
    const nres_state *s = state;
    ue_nres_check_packed_keys(&s->nres, (const char(*)[16])s->nested, manifest, d);
}

static ue_result nres_reencode(void *state, ue_buf *out, ue_diag *d) {
    return ue_nres_write(&((nres_state *)state)->nres, UE_NRES_LOSSLESS, out, d);
}

/* ---- the type id decides the check -------------------------------------------------------
 * An entry of a type unearth knows must hold that type. MAT0 and WEAR have no magic and nothing
 * else reads them inside an archive, so their whole reader runs here. Texm and model entries
 * are what the model walk validates in full (validate's model lines): here they need only be
 * what the walk's probe takes, so that none of them passes unchecked and none is read twice. */

typedef struct typed_entry {
    const nres_state *s;
    size_t index;
    const ue_nres_entry *e;
    const uint8_t *data;
    char name[4 * UE_NRES_NAME_SIZE]; /* UTF-8, for messages */
} typed_entry;

/* Each returns true when the bytes are the type; otherwise `why` says what they are instead. */
typedef bool (*type_check_fn)(const typed_entry *t, ue_diag *d, char *why, size_t why_size);

static bool is_mat0(const typed_entry *t, ue_diag *d, char *why, size_t why_size) {
    ue_mat0 m;
    snprintf(why, why_size, "it does not read as version %u (attr2), see above", t->e->attr2);
    if (ue_mat0_parse(t->data, t->e->size, t->e->attr2, t->e->data_offset, t->s->mode, &m, d) != UE_OK)
        return false;
    ue_mat0_free(&m);
    return true;
}

static bool is_wear(const typed_entry *t, ue_diag *d, char *why, size_t why_size) {
    ue_wear w;
    snprintf(why, why_size, "it does not read as one, see above");
    if (ue_wear_parse(t->data, t->e->size, t->e->data_offset, t->s->mode, &w, d) != UE_OK)
        return false;
    ue_wear_free(&w);
    return true;
}

/* First bytes shown as hex, for a payload that is not what its type says. */
static void first_bytes(const typed_entry *t, char *out, size_t out_size) {
    out[0] = 0;
    if (t->e->size == 0) snprintf(out, out_size, "the payload is empty");
    for (size_t k = 0; k < t->e->size && k < 4; k++)
        snprintf(out + strlen(out), out_size - strlen(out), "%s%02x", k ? " " : "it starts ", t->data[k]);
}

static bool is_texm(const typed_entry *t, ue_diag *d, char *why, size_t why_size) {
    (void)d;
    if (ue_texm_model_format.probe(t->data, t->e->size)) return true;
    char head[40];
    first_bytes(t, head, sizeof head);
    snprintf(why, why_size, "%s, a Texm starts \"Texm\"", head);
    return false;
}

/* What keeps a nested NRes from being a model, by ue_msh_probe's rule (msh_model.c): all of
 * the core types 1, 2, 3, 6 and 13, or two of them and no type past the MSH resources. */
static void why_not_model(const typed_entry *t, char *why, size_t why_size) {
    static const uint32_t core[] = {1, 2, 3, 6, 13};
    ue_source src = ue_source_memory(t->data, t->e->size);
    ue_nres n;
    if (ue_nres_parse(&src, UE_MODE_TOLERANT, &n, NULL) != UE_OK) {
        snprintf(why, why_size, "it starts \"NRes\" but does not read as an NRes");
        return;
    }
    enum { LIST = 24 }; /* "1, 2, 3, 6, 13" and a NUL */
    char held[LIST] = "", missing[LIST] = "", foreign[LIST] = "";
    for (size_t c = 0; c < sizeof core / sizeof core[0]; c++) {
        bool has = false;
        for (size_t i = 0; i < n.count && !has; i++) has = n.entries[i].type_id == core[c];
        char *list = has ? held : missing;
        snprintf(list + strlen(list), LIST - strlen(list), "%s%u", list[0] ? ", " : "", core[c]);
    }
    for (size_t i = 0; i < n.count && !foreign[0]; i++)
        if (n.entries[i].type_id >= UE_MSH_TYPE_LIMIT) type_name(n.entries[i].type_id, foreign, sizeof foreign);
    int at = snprintf(why, why_size, "it is an NRes of %zu entr%s, ", n.count, n.count == 1 ? "y" : "ies");
    size_t rest = at > 0 && (size_t)at < why_size ? why_size - (size_t)at : 0;
    const char *types = "a model's resource types (1, 2, 3, 6, 13)";
    if (rest && foreign[0] && !held[0])
        snprintf(why + at, rest, "with type %s, which no model holds, and none of %s", foreign, types);
    else if (rest && foreign[0]) /* with a foreign type, a model needs all five */
        snprintf(why + at, rest, "with type %s, which no model holds, and without type%s %s of %s", foreign,
                 strchr(missing, ',') ? "s" : "", missing, types);
    else if (rest)
        snprintf(why + at, rest, "but %s%s of %s; a model holds at least two of them", held[0] ? "only type " : "none",
                 held, types);
    ue_nres_free(&n);
}

static bool is_model(const typed_entry *t, ue_diag *d, char *why, size_t why_size) {
    (void)d;
    if (ue_msh_probe_named(t->name, t->data, t->e->size)) return true;
    if (t->s->nested[t->index][0] && !strcmp(t->s->nested[t->index], "nres")) {
        why_not_model(t, why, why_size);
    } else {
        char head[40];
        first_bytes(t, head, sizeof head);
        snprintf(why, why_size, "%s, a model is an NRes", head);
    }
    return false;
}

/* A nested archive: here it need only start "NRes"; validate then checks it as a container,
 * recursively (validate_rec in archive.c). */
static bool is_nres(const typed_entry *t, ue_diag *d, char *why, size_t why_size) {
    (void)d;
    if (t->e->size >= 4 && !memcmp(t->data, "NRes", 4)) return true;
    char head[40];
    first_bytes(t, head, sizeof head);
    snprintf(why, why_size, "%s, an NRes starts \"NRes\"", head);
    return false;
}

static const struct known_type {
    uint32_t type_id;
    const char *name, *what;
    type_check_fn check;
} known_types[] = {
    {UE_MAT0_TYPE, "MAT0", "a MAT0 material", is_mat0},       /* docs/formats/materials.md#mat0 */
    {UE_WEAR_TYPE, "WEAR", "a WEAR table", is_wear},          /* docs/formats/materials.md#wear */
    {UE_TEXM_MAGIC, "Texm", "a Texm texture", is_texm},       /* docs/formats/texm.md */
    {UE_MSH_ENTRY_TYPE, "MESH", "a model", is_model},         /* docs/formats/msh.md#resources: a nested MSH */
    {UE_NRES_ENTRY_TYPE, "NRes", "an NRes archive", is_nres}, /* docs/formats/nres.md: a nested archive */
};

static const struct known_type *known_type_of(uint32_t type_id) {
    for (size_t k = 0; k < sizeof known_types / sizeof known_types[0]; k++)
        if (known_types[k].type_id == type_id) return &known_types[k];
    return NULL;
}

/* Entry i checked as its type; the reader's own diagnostics go under "nres/entry[i]" at
 * offsets in the file, followed by one `nres.entry.type` naming type and entry, at the entry's
 * first byte, when the bytes are not that type: a violation (strict: error; tolerant: warning, the bytes are
 * kept as they are, as the engine would keep them and fail only to use them). */
static ue_result check_typed_entry(nres_state *s, size_t i, const struct known_type *kt,
                                   ue_diag *d) {
    typed_entry t = {s, i, &s->nres.entries[i], NULL, ""};
    uint8_t *to_free = NULL;
    ue_result r = ue_nres_payload(&s->nres, i, &t.data, &to_free, d);
    if (r != UE_OK) return r;
    ue_cp1251_entry_name(t.e->name_raw, UE_NRES_NAME_SIZE, t.name, sizeof t.name);
    char saved[sizeof d->path_prefix], path[40], why[160];
    snprintf(path, sizeof path, "nres/entry[%zu]", i);
    if (d) {
        memcpy(saved, d->path_prefix, sizeof saved);
        char prefix[sizeof d->path_prefix];
        snprintf(prefix, sizeof prefix, "%s%s%s", saved, saved[0] ? "/" : "", path);
        memcpy(d->path_prefix, prefix, sizeof prefix);
    }
    bool ok = kt->check(&t, d, why, sizeof why);
    if (d) memcpy(d->path_prefix, saved, sizeof saved);
    free(to_free);
    if (ok) return UE_OK;
    ue_parse_ctx pc = ue_parse_begin(s->mode, d);
    ue_violation(&pc, "nres.entry.type", t.e->data_offset, path,
                 "entry %zu \"%s\" is typed %s but does not hold %s: %s", i, t.name,
                 kt->name, kt->what, why);
    return pc.failure;
}

/* Deep checks of the entries whose type id says what they hold (known_types); an entry of
 * any other type id is opaque bytes and passes. */
static ue_result nres_validate(void *state, ue_diag *d) {
    nres_state *s = state;
    ue_result worst = UE_OK;
    for (size_t i = 0; i < s->nres.count; i++) {
        const struct known_type *kt = known_type_of(s->nres.entries[i].type_id);
        if (s->nres.entries[i].damaged || !kt) continue;
        ue_result r = check_typed_entry(s, i, kt, d);
        if (r != UE_OK && worst == UE_OK) worst = r;
    }
    return worst;
}

const ue_container_ops ue_nres_ops = {
    .name = "nres",
    .description = "Parkan NRes archive",
    .probe = nres_probe,
    .open = nres_open,
    .close = nres_close,
    .count = nres_count,
    .entry = nres_entry,
    .find = nres_find,
    .read = nres_read,
    .borrow = nres_borrow,
    .info_json = nres_info_json,
    .entry_json = nres_entry_json,
    .extract = nres_extract,
    .pack = nres_pack,
    .pack_to = nres_pack_to,
    .put = ue_parkan_nres_put,
    .reencode = nres_reencode,
    .check_packed_keys = nres_check_packed_keys,
    .validate = nres_validate,
};
