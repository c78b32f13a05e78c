/* unearth — a standalone GameCube "LZSS" file as a one-entry container, so that chains such as
 * LZSS → PKX → DAT are followed by info/list/extract like any archive. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/container.h"
#include "gamecube/gamecube_int.h"
#include "unearth/gamecube.h"
#include "unearth/lzss.h"
#include "common/bytes.h"
#include "common/io.h"

typedef struct gclzss_state {
    uint8_t *stored, *plain;
    size_t stored_size, plain_size;
    ue_gclzss_header h;
    char nested[16];
} gclzss_state;

static bool gclzss_probe(const uint8_t *head, size_t n, uint64_t total) {
    return total >= UE_GCLZSS_HEADER && ue_gclzss_probe(head, n);
}

static ue_result gclzss_open(const ue_source *src, ue_mode mode, void **state, ue_diag *d) {
    /* The file is held whole and its payload decoded whole (at most 144/17 of the stream, see
     * ue_lzss_max_output), so memory is bounded by about 18 × the file: cap the file itself. */
    if (src->size > UE_CAP_ENTRY_BYTES) {
        ue_diag_add(d, UE_SEV_ERROR, "lzss.file_cap", 0, "lzss",
                    "LZSS file of %llu bytes is over the %zu-byte cap",
                    (unsigned long long)src->size, (size_t)UE_CAP_ENTRY_BYTES);
        return UE_ERR_LIMIT;
    }
    gclzss_state *s = calloc(1, sizeof *s);
    if (!s) return UE_ERR_NOMEM;
    s->stored_size = (size_t)src->size;
    ue_result r = ue_source_read_alloc(src, 0, s->stored_size, UE_CAP_ENTRY_BYTES, &s->stored);
    if (r == UE_OK) r = ue_gclzss_parse_header(s->stored, s->stored_size, &s->h, NULL, 0, "lzss");
    /* Decoded once here: the entry's size and nested format depend on it. */
    if (r == UE_OK)
        r = ue_gclzss_decode(s->stored, s->stored_size, mode, &s->plain, &s->plain_size, d, 0,
                             "lzss");
    if (r != UE_OK) {
        free(s->stored);
        free(s);
        return r;
    }
    snprintf(s->nested, sizeof s->nested, "%s",
             ue_detect_format(s->plain, s->plain_size < 256 ? s->plain_size : 256, s->plain_size));
    *state = s;
    return UE_OK;
}

static void gclzss_close(void *state) {
    gclzss_state *s = state;
    if (!s) return;
    free(s->stored);
    free(s->plain);
    free(s);
}

static size_t gclzss_count(const void *state) {
    (void)state;
    return 1;
}

static void gclzss_entry(const void *state, size_t i, ue_entry_info *info) {
    const gclzss_state *s = state;
    memset(info, 0, sizeof *info);
    info->index = i;
    snprintf(info->name, sizeof info->name, UE_GCLZSS_ENTRY_STEM ".%s", s->nested[0] ? s->nested : "bin");
    snprintf(info->type, sizeof info->type, "%s", s->nested[0] ? s->nested : "data");
    info->offset = UE_GCLZSS_HEADER;
    info->stored_size = s->stored_size;
    info->size = s->plain_size;
    snprintf(info->method, sizeof info->method, "lzss");
    snprintf(info->nested, sizeof info->nested, "%s", s->nested);
}

static bool gclzss_find(const void *state, const char *name, size_t *index) {
    ue_entry_info e;
    gclzss_entry(state, 0, &e);
    if (strcmp(name, e.name) != 0 && strcmp(name, UE_GCLZSS_ENTRY_STEM) != 0) return false;
    *index = 0;
    return true;
}

static ue_result gclzss_read(void *state, size_t i, uint8_t **data, size_t *size, ue_diag *d) {
    (void)i;
    (void)d;
    gclzss_state *s = state;
    *data = ue_malloc_items(s->plain_size, 1);
    if (!*data) return UE_ERR_NOMEM;
    if (s->plain_size) memcpy(*data, s->plain, s->plain_size);
    *size = s->plain_size;
    return UE_OK;
}

static void gclzss_info_json(const void *state, ue_json *w) {
    const gclzss_state *s = state;
    ue_json_object_begin(w);
    ue_json_key_string(w, "magic", "LZSS");
    ue_json_key_int(w, "uncompressed_size", s->h.uncompressed_size);
    ue_json_key_int(w, "compressed_size", s->h.compressed_size);
    ue_json_key_int(w, "reserved", s->h.reserved);
    ue_json_key_bool(w, "size_fallback", s->h.size_fallback);
    ue_json_key_int(w, "stream_end", (int64_t)s->h.stream_end);
    ue_json_object_end(w);
}

static void gclzss_entry_json(const void *state, size_t i, ue_json *w) {
    ue_entry_info e;
    gclzss_entry(state, i, &e);
    ue_json_object_begin(w);
    ue_json_key_int(w, "index", 0);
    ue_json_key_string(w, "name", e.name);
    ue_json_key_string(w, "type", e.type);
    ue_json_key_int(w, "stored_size", (int64_t)e.stored_size);
    ue_json_key_int(w, "size", (int64_t)e.size);
    if (e.nested[0]) ue_json_key_string(w, "nested", e.nested);
    ue_json_object_end(w);
}

static ue_result gclzss_extract(void *state, ue_outdir *o, ue_json *w, ue_diag *d) {
    gclzss_state *s = state;
    ue_entry_info e;
    gclzss_entry(state, 0, &e);
    char rel[300];
    snprintf(rel, sizeof rel, "entries/0000_%s", e.name);
    ue_result r = ue_outdir_write(o, rel, s->plain, s->plain_size, d);
    if (r == UE_OK) r = ue_outdir_write(o, "layout/original.lzss", s->stored, s->stored_size, d);
    if (r != UE_OK) return r;
    ue_json_key(w, "header");
    gclzss_info_json(state, w);
    ue_json_key_string(w, "file", rel);
    ue_json_key(w, "xxh64");
    ue_json_xxh64(w, s->plain, s->plain_size);
    ue_json_key(w, "stored");
    ue_json_object_begin(w);
    ue_json_key_string(w, "file", "layout/original.lzss");
    ue_json_key(w, "xxh64");
    ue_json_xxh64(w, s->stored, s->stored_size);
    ue_json_object_end(w);
    return UE_OK;
}

/* The keys extract writes; pack warns about any other. */
static const char *const gclzss_manifest_keys[] = {
    "unearth_manifest", "format", "source", "header", "file", "xxh64", "stored", "lzss_level",
    NULL};
static const char *const gclzss_stored_keys[] = {"file", "xxh64", NULL};
/* Header keys not compared with the packed file: "reserved" is read, and a payload compressed
 * again changes the sizes. */
static const char *const gclzss_read_keys[] = {"reserved", NULL};
static const char *const gclzss_payload_keys[] = {"reserved", "uncompressed_size",
                                                  "compressed_size", "size_fallback",
                                                  "stream_end", NULL};

/* The original bytes while the payload is unchanged (with "reserved" as the manifest gives it),
 * else the payload compressed again. */
static ue_result gclzss_pack(const ue_jv *manifest, const char *dir, const ue_pack_options *opt,
                             ue_buf *out, ue_diag *d) {
    ue_manifest_unknown_keys_jv(manifest, gclzss_manifest_keys, "manifest", NULL, d);
    const ue_jv *st = ue_jv_get(manifest, "stored"), *header = ue_jv_get(manifest, "header");
    ue_manifest_unknown_keys_jv(st, gclzss_stored_keys, "manifest/stored", NULL, d);
    uint8_t *plain = NULL, *stored = NULL;
    size_t pn = 0, sn = 0, base = out->size;
    bool changed = true, stored_changed = true, kept = false;
    uint32_t reserved = 0, level = 9;
    bool have_reserved = ue_jv_get(header, "reserved") &&
                         ue_jv_u32(header, "reserved", &reserved, "manifest/header", d);
    ue_result r = ue_manifest_load_file_jv(dir, manifest, "file", UE_CAP_ENTRY_BYTES, &plain, &pn,
                                           &changed, d);
    if (r == UE_OK && !changed && ue_jv_is(st, UE_JV_OBJECT) &&
        ue_manifest_load_file_jv(dir, st, "file", UE_CAP_ENTRY_BYTES, &stored, &sn,
                                 &stored_changed, NULL) == UE_OK &&
        !stored_changed && sn >= 16) {
        if (have_reserved) ue_store_u32be(stored + 0x0C, reserved);
        ue_buf_put(out, stored, sn); /* unchanged: the original bytes */
        kept = true;
        r = out->failed ? UE_ERR_NOMEM : UE_OK;
    } else if (r == UE_OK) {
        ue_jv_u32(manifest, "lzss_level", &level, NULL, NULL);
        r = ue_gclzss_encode(plain, pn, ue_pack_level(opt, level), reserved, out);
    }
    if (r == UE_OK)
        ue_manifest_check_info(&ue_gclzss_ops, out->data + base, out->size - base, header,
                               "header", kept ? gclzss_read_keys : gclzss_payload_keys,
                               "pack writes it from the payload and \"reserved\"", d);
    free(plain);
    free(stored);
    return r;
}

static ue_result gclzss_reencode(void *state, ue_buf *out, ue_diag *d) {
    (void)d;
    gclzss_state *s = state;
    ue_buf_put(out, s->stored, s->stored_size);
    return out->failed ? UE_ERR_NOMEM : UE_OK;
}

const ue_container_ops ue_gclzss_ops = {
    .name = "lzss",
    .names_made_up = true, /* "decoded.EXT" */
    .description = "GameCube LZSS-compressed file",
    .probe = gclzss_probe,
    .open = gclzss_open,
    .close = gclzss_close,
    .count = gclzss_count,
    .entry = gclzss_entry,
    .find = gclzss_find,
    .read = gclzss_read,
    .info_json = gclzss_info_json,
    .entry_json = gclzss_entry_json,
    .extract = gclzss_extract,
    .pack = gclzss_pack,
    .reencode = gclzss_reencode,
    .validate = NULL,
};
