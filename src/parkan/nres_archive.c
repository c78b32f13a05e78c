/* unearth — NRes behind the generic container contract: listing, JSON views, extract to a
 * manifest that holds every header and entry field, and pack back (byte-identical if unchanged). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/container.h"
#include "unearth/nres.h"
#include "unearth/parkan_material.h"
#include "common/bytes.h"
#include "common/io.h"

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
    s->nested = calloc(s->nres.count ? s->nres.count : 1, sizeof *s->nested);
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
        *data = malloc(n ? n : 1);
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

static json_t *nres_info_json(const void *state) {
    const ue_nres *n = &((const nres_state *)state)->nres;
    json_t *o = json_object();
    json_object_set_new(o, "magic", json_string("NRes"));
    json_object_set_new(o, "version", json_integer(n->version));
    json_object_set_new(o, "entry_count", json_integer((json_int_t)n->count));
    json_object_set_new(o, "total_size", json_integer(n->total_size));
    json_object_set_new(o, "dir_offset", json_integer(n->dir_offset));
    json_object_set_new(o, "sort_table_valid", json_boolean(n->sort_valid));
    json_object_set_new(o, "unindexed_regions", json_integer((json_int_t)n->gap_count));
    return o;
}

static json_t *nres_entry_json(const void *state, size_t i) {
    const nres_state *s = state;
    const ue_nres_entry *e = &s->nres.entries[i];
    ue_entry_info info;
    nres_entry(state, i, &info);
    json_t *o = json_object();
    json_object_set_new(o, "index", json_integer((json_int_t)i));
    json_object_set_new(o, "name", json_string(info.name));
    json_object_set_new(o, "name_hex", ue_json_hex_new(e->name_raw, UE_NRES_NAME_SIZE));
    json_object_set_new(o, "type", json_string(info.type));
    json_object_set_new(o, "type_id", json_integer(e->type_id));
    json_object_set_new(o, "attr1", json_integer(e->attr1));
    json_object_set_new(o, "attr2", json_integer(e->attr2));
    json_object_set_new(o, "attr3", json_integer(e->attr3));
    json_object_set_new(o, "size", json_integer(e->size));
    json_object_set_new(o, "data_offset", json_integer(e->data_offset));
    json_object_set_new(o, "sort_index", json_integer(e->sort_index));
    if (s->nested[i][0]) json_object_set_new(o, "nested", json_string(s->nested[i]));
    if (e->damaged) json_object_set_new(o, "damaged", json_true());
    return o;
}

static ue_result nres_extract(void *state, ue_outdir *o, json_t **manifest, ue_diag *d) {
    nres_state *s = state;
    const ue_nres *n = &s->nres;
    json_t *m = json_object();
    json_object_set_new(m, "header", nres_info_json(state));
    json_t *entries = json_array();
    json_t *gaps = json_array();
    json_object_set_new(m, "entries", entries);
    json_object_set_new(m, "unindexed", gaps);
    ue_result r = UE_OK;
    char rel[320];
    for (size_t i = 0; i < n->count && r == UE_OK; i++) {
        json_t *ej = nres_entry_json(state, i);
        json_array_append_new(entries, ej);
        const ue_nres_entry *e = &n->entries[i];
        if (e->damaged) continue;
        char name[UE_NRES_NAME_SIZE + 1], text[4 * UE_NRES_NAME_SIZE], file[300], hex[17];
        ue_nres_entry_name(e, name, sizeof name);
        ue_cp1251_to_utf8(name, text, sizeof text);
        ue_entry_file_name(i, text, ".bin", file, sizeof file);
        snprintf(rel, sizeof rel, "entries/%s", file);
        uint64_t hash = 0;
        if (!e->owned && n->src) {
            r = ue_outdir_copy(o, rel, n->src, e->data_offset, e->size, &hash, d);
        } else {
            const uint8_t *p;
            uint8_t *tmp;
            if ((r = ue_nres_payload(n, i, &p, &tmp, d)) != UE_OK) break;
            hash = ue_xxh64(p, e->size, 0);
            r = ue_outdir_write(o, rel, p, e->size, d);
            free(tmp);
        }
        ue_xxh64_format(hash, hex);
        json_object_set_new(ej, "file", json_string(rel));
        json_object_set_new(ej, "xxh64", json_string(hex));
    }
    for (size_t g = 0; g < n->gap_count && r == UE_OK; g++) {
        const ue_nres_gap *gap = &n->gaps[g];
        snprintf(rel, sizeof rel, "unindexed/%08x.bin", gap->offset);
        r = ue_outdir_write(o, rel, gap->bytes, gap->size, d);
        json_t *gj = json_object();
        json_object_set_new(gj, "offset", json_integer(gap->offset));
        json_object_set_new(gj, "size", json_integer(gap->size));
        json_object_set_new(gj, "file", json_string(rel));
        json_array_append_new(gaps, gj);
    }
    if (r != UE_OK) {
        json_decref(m);
        return r;
    }
    *manifest = m;
    return UE_OK;
}

static ue_result nres_pack_to(const json_t *manifest, const char *dir, ue_sink *out, ue_diag *d) {
    const json_t *header = json_object_get(manifest, "header");
    const json_t *entries = json_object_get(manifest, "entries");
    if (!json_is_object(header) || !json_is_array(entries)) {
        ue_diag_add(d, UE_SEV_ERROR, "manifest.shape", UE_NO_OFFSET, "manifest",
                    "needs a \"header\" object and an \"entries\" array");
        return UE_ERR_INVALID;
    }
    ue_nres n;
    ue_nres_init(&n);
    uint32_t recorded_count = 0, version = UE_NRES_VERSION, total = 0, dir_off = 0;
    bool have_layout = ue_json_u32(header, "entry_count", &recorded_count, NULL, NULL) &&
                       ue_json_u32(header, "total_size", &total, NULL, NULL) &&
                       ue_json_u32(header, "dir_offset", &dir_off, NULL, NULL);
    if (json_object_get(header, "version") &&
        !ue_json_u32(header, "version", &version, "manifest/header", d))
        return UE_ERR_INVALID;
    n.version = version;
    n.total_size = total;
    n.dir_offset = dir_off;
    n.layout_dirty = !have_layout || recorded_count != json_array_size(entries);
    n.sort_dirty = n.layout_dirty;

    size_t count = json_array_size(entries);
    if (count > UE_CAP_TABLE_ENTRIES) return UE_ERR_LIMIT;
    n.entries = calloc(count ? count : 1, sizeof *n.entries);
    if (!n.entries) return UE_ERR_NOMEM;
    ue_result r = UE_OK;
    char where[64];
    for (size_t i = 0; i < count && r == UE_OK; i++) {
        const json_t *ej = json_array_get(entries, i);
        ue_nres_entry *e = &n.entries[i];
        n.count = i + 1;
        snprintf(where, sizeof where, "manifest/entries[%zu]", i);
        if (!json_is_object(ej) || !ue_json_u32(ej, "type_id", &e->type_id, where, d)) {
            r = UE_ERR_INVALID;
            break;
        }
        ue_json_u32(ej, "attr1", &e->attr1, NULL, NULL);
        ue_json_u32(ej, "attr2", &e->attr2, NULL, NULL);
        ue_json_u32(ej, "attr3", &e->attr3, NULL, NULL);
        /* The raw 36 bytes win unless the user edited the readable (UTF-8) name. */
        const char *name = json_string_value(json_object_get(ej, "name"));
        size_t raw_len = 0;
        bool have_raw = json_object_get(ej, "name_hex") &&
                        ue_json_hex(ej, "name_hex", e->name_raw, UE_NRES_NAME_SIZE, &raw_len, where, d);
        bool renamed = false;
        r = ue_manifest_cp1251_name(name, have_raw, e->name_raw, UE_NRES_NAME_SIZE,
                                    UE_NRES_NAME_SIZE - 1, where, &renamed, d);
        if (r != UE_OK) break;
        if (renamed) n.sort_dirty = true;
        if (json_is_true(json_object_get(ej, "damaged")) && !json_object_get(ej, "file")) {
            ue_diag_add(d, UE_SEV_ERROR, "manifest.damaged", UE_NO_OFFSET, where,
                        "entry was damaged in the source and has no payload file");
            r = UE_ERR_INVALID;
            break;
        }
        /* Payloads stay in their files and are copied straight into the output; only sizes
         * decide the layout (same size: same place, whatever the new bytes are). */
        uint64_t size;
        r = ue_manifest_file_path(dir, ej, "file", &e->payload_file, &size, d);
        if (r != UE_OK) break;
        if (size > UINT32_MAX) {
            r = UE_ERR_INVALID;
            break;
        }
        e->size = (uint32_t)size;
        uint32_t recorded_size = 0;
        if (!ue_json_u32(ej, "size", &recorded_size, NULL, NULL) || recorded_size != size)
            n.layout_dirty = true;
        /* The stored sort table indexes directory positions: a moved entry invalidates it. */
        uint32_t recorded_index;
        if (!ue_json_u32(ej, "index", &recorded_index, NULL, NULL) || recorded_index != i)
            n.sort_dirty = true;
        if (!ue_json_u32(ej, "data_offset", &e->data_offset, NULL, NULL) ||
            !ue_json_u32(ej, "sort_index", &e->sort_index, NULL, NULL))
            n.layout_dirty = n.sort_dirty = true;
        else if (e->data_offset < UE_NRES_HEADER_SIZE || !ue_range_ok(e->data_offset, e->size, dir_off))
            n.layout_dirty = true;
    }
    const json_t *gaps = json_object_get(manifest, "unindexed");
    size_t ngaps = json_is_array(gaps) ? json_array_size(gaps) : 0;
    if (r == UE_OK && ngaps) {
        n.gaps = calloc(ngaps, sizeof *n.gaps);
        if (!n.gaps) r = UE_ERR_NOMEM;
        for (size_t g = 0; g < ngaps && r == UE_OK; g++) {
            const json_t *gj = json_array_get(gaps, g);
            ue_nres_gap *gap = &n.gaps[g];
            n.gap_count = g + 1;
            snprintf(where, sizeof where, "manifest/unindexed[%zu]", g);
            size_t size;
            bool changed;
            if (!ue_json_u32(gj, "offset", &gap->offset, where, d)) {
                r = UE_ERR_INVALID;
                break;
            }
            r = ue_manifest_load_file(dir, gj, "file", UE_CAP_ENTRY_BYTES, &gap->bytes, &size, &changed, d);
            gap->size = (uint32_t)size;
            if (r == UE_OK && !ue_range_ok(gap->offset, size, dir_off)) n.layout_dirty = true;
        }
    }
    if (r == UE_OK) r = ue_nres_write_to(&n, UE_NRES_LOSSLESS, out, d);
    ue_nres_free(&n);
    return r;
}

static ue_result nres_pack(const json_t *manifest, const char *dir, ue_buf *out, ue_diag *d) {
    size_t base = out->size;
    ue_sink sink = ue_sink_buf(out);
    ue_result r = nres_pack_to(manifest, dir, &sink, d);
    if (r != UE_OK) out->size = base;
    return r;
}

static ue_result nres_reencode(void *state, ue_buf *out, ue_diag *d) {
    return ue_nres_write(&((nres_state *)state)->nres, UE_NRES_LOSSLESS, out, d);
}

/* One MAT0 (version = attr2) or WEAR entry read in the archive's mode, its diagnostics under
 * "nres/entry[i]" at offsets in the file. */
static ue_result check_material_entry(nres_state *s, size_t i, ue_diag *d) {
    const ue_nres_entry *e = &s->nres.entries[i];
    const uint8_t *data;
    uint8_t *to_free = NULL;
    ue_result r = ue_nres_payload(&s->nres, i, &data, &to_free, d);
    if (r != UE_OK) return r;
    char saved[sizeof d->path_prefix];
    if (d) {
        memcpy(saved, d->path_prefix, sizeof saved);
        char prefix[sizeof d->path_prefix];
        snprintf(prefix, sizeof prefix, "%s%snres/entry[%zu]", saved, saved[0] ? "/" : "", i);
        memcpy(d->path_prefix, prefix, sizeof prefix);
    }
    if (e->type_id == UE_MAT0_TYPE) {
        ue_mat0 m;
        r = ue_mat0_parse(data, e->size, e->attr2, e->data_offset, s->mode, &m, d);
        if (r == UE_OK) ue_mat0_free(&m);
    } else {
        ue_wear w;
        r = ue_wear_parse(data, e->size, e->data_offset, s->mode, &w, d);
        if (r == UE_OK) ue_wear_free(&w);
    }
    if (d) memcpy(d->path_prefix, saved, sizeof saved);
    free(to_free);
    return r;
}

/* Deep checks of the entries whose type says what they hold: MAT0 and WEAR (spec §5.2–5.3). */
static ue_result nres_validate(void *state, ue_diag *d) {
    nres_state *s = state;
    ue_result worst = UE_OK;
    for (size_t i = 0; i < s->nres.count; i++) {
        uint32_t t = s->nres.entries[i].type_id;
        if (s->nres.entries[i].damaged || (t != UE_MAT0_TYPE && t != UE_WEAR_TYPE)) continue;
        ue_result r = check_material_entry(s, i, d);
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
    .reencode = nres_reencode,
    .validate = nres_validate,
};
