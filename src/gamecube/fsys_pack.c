/* unearth — FSYS pack: a manifest and its payload files back to an archive, spliced into the
 * extracted skeleton while nothing changed, else laid out anew; original names from the skeleton. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/container.h"
#include "gamecube/fsys_int.h"
#include "gamecube/gamecube_int.h"
#include "unearth/gamecube.h"
#include "unearth/lzss.h"
#include "common/bytes.h"
#include "common/io.h"
#include "common/write_pool.h"
#include "common/text.h"

/* ---- pack ---------------------------------------------------------------------------------- */

/* The keys extract writes; pack warns about any other (docs/gamecube-containers.md). The
 * header's are checked against the packed header (fsys_check_informational). */
static const char *const fsys_manifest_keys[] = {"unearth_manifest", "format", "source", "header",
                                                 "header_hex", "entries", "skeleton",
                                                 "lzss_level", NULL};
static const char *const fsys_entry_keys[] = {
    "index", "name", "short_name", "short_name_hex", "full_name", "full_name_hex", "type",
    "type_code", "type_index", "file_id", "flags", "compressed", "data_offset", "stored_size",
    "size", "record_offset", "nested", "damaged", "record_hex", "file", "xxh64", "stored_file",
    "stored_xxh64", NULL};
static const char *const fsys_skeleton_keys[] = {"file", "xxh64", "segments", NULL};

static char *dup_bytes(const void *p, size_t n) {
    char *c = malloc(n + 1);
    if (c) {
        memcpy(c, p, n);
        c[n] = 0;
    }
    return c;
}

/* Reads "<key>" (text) or "<key>_hex"; false when neither is present or the JSON null. */
static bool get_name(const ue_jv *ej, const char *key, char **out, bool *bad, const char *where,
                     ue_diag *d) {
    *out = NULL;
    const char *t = ue_jv_string(ue_jv_get(ej, key));
    if (t) {
        if (strlen(t) > 255) {
            ue_diag_add(d, UE_SEV_ERROR, "manifest.name", UE_NO_OFFSET, where,
                        "\"%s\" is longer than 255 bytes", key);
            *bad = true;
            return false;
        }
        *out = dup_bytes(t, strlen(t));
        return *out != NULL;
    }
    char k[32];
    snprintf(k, sizeof k, "%s_hex", key);
    const char *hex = ue_jv_string(ue_jv_get(ej, k));
    if (!hex) return false;
    uint8_t buf[256];
    size_t n;
    if (!ue_hex_decode(hex, buf, 255, &n) || memchr(buf, 0, n)) {
        ue_diag_add(d, UE_SEV_ERROR, "manifest.name", UE_NO_OFFSET, where,
                    "\"%s\" is not up to 255 hex-encoded non-NUL bytes", k);
        *bad = true;
        return false;
    }
    *out = dup_bytes(buf, n);
    return *out != NULL;
}

/* "<stem>_entry_<n><ext>": the name list shows for an entry with neither name. */
static bool is_fallback_name(const char *name, const char *ext) {
    const char *at = strstr(name, "_entry_");
    size_t n = strlen(name), e = strlen(ext);
    if (!at || n < e || strcmp(name + n - e, ext)) return false;
    const char *p = at + 7, *end = name + n - e;
    if (p == end) return false;
    while (p < end && *p >= '0' && *p <= '9') p++;
    return p == end;
}

static bool name_equal(bool has, const uint8_t *raw, size_t n, const char *want) {
    if (!want || !want[0]) return !has || n == 0;
    return has && strlen(want) == n && memcmp(raw, want, n) == 0;
}

/* ---- the names the archive held, read back from its skeleton ------------------------------
 * "name" and "short_name"/"full_name" say one thing twice; when they disagree, the original
 * names tell which of them was edited. The skeleton holds every non-payload byte in file order,
 * names included; each entry's record_hex gives its name pointers and where its payload slot
 * lay (data offset +0x04, stored size +0x14), so an offset of the original archive maps to one
 * of the skeleton. An edited skeleton (its XXH64 differs) or record that does not fit the
 * segments tells nothing, and pack falls back to "name wins" with a warning. */

#define REC_HEX_MAX 0x70u  /* a version-2 record: the longest record_hex */
#define REC_READ 0x28u     /* the record words the reader interprets */
#define NAME_BYTES_MAX 255u /* a name and its NUL lie within 256 bytes (docs/formats/fsys.md#defensive-rules) */

/* Skeleton bytes [skel, skel + len) stood at offset `at` of the original archive. */
typedef struct skeleton_span {
    uint64_t at;
    size_t skel, len;
} skeleton_span;

/* Loaded once, when the first entry's names disagree. */
typedef struct original_archive {
    const ue_jv *manifest;
    const char *dir;
    bool tried, ok;
    uint8_t *bytes;
    size_t size;
    skeleton_span *spans;
    size_t nspans;
} original_archive;

typedef struct original_names {
    const uint8_t *full, *short_name; /* NULL: the pointer was 0 (no such name) */
    size_t full_len, short_len;
    uint8_t type_code;
} original_names;

/* The entry's recorded record, when it holds at least the words the reader interprets. */
static bool entry_record(const ue_jv *ej, uint8_t rec[REC_HEX_MAX]) {
    size_t n = 0;
    return ue_jv_hex(ej, "record_hex", rec, REC_HEX_MAX, &n, NULL, NULL) && n >= REC_READ;
}

static bool load_original(original_archive *o) {
    const ue_jv *sk = ue_jv_get(o->manifest, "skeleton"), *segs = ue_jv_get(sk, "segments");
    const ue_jv *entries = ue_jv_get(o->manifest, "entries");
    bool changed = true;
    if (!ue_jv_is(segs, UE_JV_ARRAY) ||
        ue_manifest_load_file_jv(o->dir, sk, "file", UE_CAP_ENTRY_BYTES, &o->bytes, &o->size,
                                 &changed, NULL) != UE_OK || changed)
        return false;
    size_t nseg = ue_jv_size(segs), skel = 0;
    o->spans = ue_calloc_items(nseg, sizeof *o->spans);
    if (!o->spans) return false;
    uint64_t at = 0, v;
    uint8_t rec[REC_HEX_MAX];
    for (size_t k = 0; k < nseg; k++) {
        const ue_jv *g = ue_jv_at(segs, k);
        if (ue_jv_u64(g, "raw", &v, NULL, NULL)) {
            if (v > o->size - skel) return false;
            o->spans[o->nspans++] = (skeleton_span){at, skel, (size_t)v};
            at += v;
            skel += (size_t)v;
        } else if (ue_jv_u64(g, "entry", &v, NULL, NULL) && v < ue_jv_size(entries) &&
                   entry_record(ue_jv_at(entries, (size_t)v), rec) &&
                   ue_load_u32be(rec + 0x04) == at) {
            at += ue_load_u32be(rec + 0x14);
        } else {
            return false;
        }
    }
    return skel == o->size;
}

static void original_free(original_archive *o) {
    free(o->bytes);
    free(o->spans);
}

/* The C string at offset `ptr` of the original archive, when it lies whole in one skeleton
 * span and ends within NAME_BYTES_MAX bytes (as the reader requires). */
static bool original_string(const original_archive *o, uint32_t ptr, const uint8_t **s,
                            size_t *len) {
    size_t lo = 0, hi = o->nspans; /* spans are in file order: the last one starting <= ptr */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (o->spans[mid].at <= ptr) lo = mid + 1;
        else hi = mid;
    }
    if (lo == 0) return false;
    const skeleton_span *sp = &o->spans[lo - 1];
    if (ptr - sp->at >= sp->len) return false;
    size_t off = (size_t)(ptr - sp->at), room = sp->len - off;
    const uint8_t *p = o->bytes + sp->skel + off;
    const uint8_t *nul = memchr(p, 0, room < NAME_BYTES_MAX + 1 ? room : NAME_BYTES_MAX + 1);
    if (!nul) return false;
    *s = p;
    *len = (size_t)(nul - p);
    return true;
}

static bool find_original_names(original_archive *o, const ue_jv *ej, original_names *out) {
    if (!o->tried) {
        o->tried = true;
        o->ok = load_original(o);
    }
    uint8_t rec[REC_HEX_MAX];
    if (!o->ok || !entry_record(ej, rec)) return false;
    uint32_t full_ptr = ue_load_u32be(rec + 0x1C), short_ptr = ue_load_u32be(rec + 0x24);
    *out = (original_names){NULL, NULL, 0, 0, rec[2]};
    return (!full_ptr || original_string(o, full_ptr, &out->full, &out->full_len)) &&
           (!short_ptr || original_string(o, short_ptr, &out->short_name, &out->short_len));
}

/* Whether `name` is what extract wrote for the original names. */
static bool is_original_name(const original_names *o, const char *name) {
    char shown[sizeof ((ue_entry_info *)0)->name];
    if (ue_fsys_shown_name(o->full, o->full_len, o->short_name, o->short_len, o->type_code, shown,
                           sizeof shown))
        return !strcmp(name, shown);
    return is_fallback_name(name, ue_fsys_type_ext(o->type_code));
}

/* Whether the entry's short and full names are still the original ones. */
static bool names_unchanged(const original_names *o, const pack_entry *pe) {
    return name_equal(o->short_name != NULL, o->short_name, o->short_len, pe->short_name) &&
           name_equal(o->full != NULL, o->full, o->full_len, pe->has_full ? pe->full_name : NULL);
}

/* "name" was edited: the entry is stored under it (list's \xNN escapes undone), as its full name
 * when the archive keeps full names, and as its short name without the type's extension
 * (which list then shows again, docs/formats/fsys.md#names). */
static ue_result rename_entry(pack_entry *pe, const char *name, bool full_names,
                              const char *where, ue_diag *d) {
    uint8_t bytes[255];
    size_t n = 0;
    if (!ue_printable_name_parse(name, bytes, sizeof bytes, &n) || n == 0) {
        char shown[160];
        ue_text_printable(name, shown, sizeof shown);
        ue_diag_add(d, UE_SEV_ERROR, "manifest.name", UE_NO_OFFSET, where,
                    "\"name\" \"%s\" must be 1..255 bytes of printable ASCII (other bytes as \\xNN)",
                    shown);
        return UE_ERR_INVALID;
    }
    const char *ext = ue_fsys_type_ext(pe->w.type_code);
    size_t e = strlen(ext), short_len = n;
    if (n > e && !memcmp(bytes + n - e, ext, e)) short_len -= e;
    free(pe->short_name);
    free(pe->full_name);
    pe->full_name = NULL;
    pe->short_name = dup_bytes(bytes, short_len);
    pe->has_full = full_names;
    if (full_names) pe->full_name = dup_bytes(bytes, n);
    return pe->short_name && (!full_names || pe->full_name) ? UE_OK : UE_ERR_NOMEM;
}

/* Names (docs/gamecube-containers.md#names-in-the-manifest): "short_name" and "full_name" are
 * stored while "name" still is what they show. When they disagree, the original names say which
 * side was edited: an edited "name" renames the entry, edited short/full names count as they
 * are; when both were edited, or the originals are unknown, "name" wins with a warning. */
static ue_result pack_names(const ue_jv *ej, pack_entry *pe, bool full_names,
                            original_archive *orig, const char *where, ue_diag *d) {
    bool bad = false;
    bool have_short = get_name(ej, "short_name", &pe->short_name, &bad, where, d);
    pe->has_full = get_name(ej, "full_name", &pe->full_name, &bad, where, d);
    if (bad) return UE_ERR_INVALID;
    if (!have_short && ue_jv_get(ej, "short_name")) {
        pe->short_name = dup_bytes("", 0); /* recorded as absent: keep it nameless */
    } else if (!have_short) {
        /* A new entry may omit it: take the payload's file name without directory/extension. */
        const char *f = ue_jv_string(ue_jv_get(ej, "file"));
        const char *base = f ? strrchr(f, '/') : NULL;
        base = base ? base + 1 : (f ? f : "");
        pe->short_name = dup_bytes(base, strcspn(base, "."));
    }
    if (!pe->short_name) return UE_ERR_NOMEM;
    const char *name = ue_jv_string(ue_jv_get(ej, "name"));
    char shown[sizeof ((ue_entry_info *)0)->name];
    const char *full = pe->has_full ? pe->full_name : NULL;
    bool named = ue_fsys_shown_name((const uint8_t *)full, full ? strlen(full) : 0,
                                    (const uint8_t *)pe->short_name, strlen(pe->short_name),
                                    pe->w.type_code, shown, sizeof shown);
    if (!name || (named ? !strcmp(name, shown)
                        : is_fallback_name(name, ue_fsys_type_ext(pe->w.type_code))))
        return UE_OK;
    original_names o;
    bool known = find_original_names(orig, ej, &o);
    /* "name" untouched: the short/full names (or the type_code, whose extension name shows)
     * were edited, and they count */
    if (known && is_original_name(&o, name)) return UE_OK;
    bool names_edited = !known || !names_unchanged(&o, pe);
    ue_result r = rename_entry(pe, name, full_names, where, d);
    if (r != UE_OK || !names_edited || !named || !(have_short || pe->has_full)) return r;
    /* The names as printable text: short_name holds the bytes \xNN escapes stood for. */
    char name_text[160], shown_text[160], short_text[160];
    ue_text_printable(name, name_text, sizeof name_text);
    ue_text_printable(shown, shown_text, sizeof shown_text);
    ue_text_printable(pe->short_name, short_text, sizeof short_text);
    if (known)
        ue_diag_add(d, UE_SEV_WARNING, "manifest.name", UE_NO_OFFSET, where,
                    "entry \"%s\": \"name\" and \"short_name\"/\"full_name\" were both edited "
                    "and disagree (they give \"%s\"): \"name\" wins (short name \"%s\"); to name "
                    "the entry through them, delete \"name\" or make it agree", name_text,
                    shown_text, short_text);
    else
        ue_diag_add(d, UE_SEV_WARNING, "manifest.name", UE_NO_OFFSET, where,
                    "entry \"%s\": \"name\" differs from the \"%s\" that \"short_name\"/"
                    "\"full_name\" give: \"name\" wins (short name \"%s\"); to name the entry "
                    "through them, delete \"name\" or make it agree", name_text, shown_text,
                    short_text);
    return r;
}

/* The payload: the decoded file, the stored (LZSS) bytes, or both. */
static ue_result pack_payload(const ue_jv *ej, const char *dir, pack_entry *pe, const char *where,
                              ue_diag *d) {
    ue_result r;
    bool have_file = ue_jv_get(ej, "file") != NULL;
    bool have_stored = ue_jv_get(ej, "stored_file") != NULL;
    pe->changed = false;
    if (have_file) {
        size_t n = 0;
        r = ue_manifest_load_file_jv(dir, ej, "file", UE_CAP_ENTRY_BYTES, &pe->data, &n,
                                     &pe->changed, d);
        if (r != UE_OK) return r;
        pe->w.data = pe->data;
        pe->w.size = n;
    }
    if (have_stored) {
        bool ignored;
        size_t sn;
        r = ue_manifest_load_file_jv(dir, ej, "stored_file", UE_CAP_ENTRY_BYTES, &pe->stored, &sn,
                                     &ignored, d);
        if (r != UE_OK) return r;
        char have[17];
        ue_xxh64_hex(pe->stored, sn, have);
        const char *want = ue_jv_string(ue_jv_get(ej, "stored_xxh64"));
        if (!want || strcmp(want, have)) pe->changed = true;
        /* Stored bytes stand for the entry while the payload they encode is unchanged. */
        if (!have_file || (!pe->changed && pe->w.compressed)) {
            pe->w.stored = pe->stored;
            pe->w.stored_size = sn;
        }
        if (!have_file && !pe->w.compressed) {
            pe->w.data = pe->stored;
            pe->w.size = sn;
            pe->w.stored = NULL;
        }
    }
    if (!have_file && !have_stored) {
        ue_diag_add(d, UE_SEV_ERROR, "manifest.damaged", UE_NO_OFFSET, where,
                    "entry has no payload file (it was damaged in the source)");
        return UE_ERR_INVALID;
    }
    if (pe->w.compressed && !pe->w.stored && !pe->w.data) return UE_ERR_INVALID;
    return UE_OK;
}

static ue_result load_pack_entry(const ue_jv *ej, const char *dir, size_t i, bool full_names,
                                 original_archive *orig, pack_entry *pe, ue_diag *d) {
    char where[64];
    snprintf(where, sizeof where, "manifest/entries[%zu]", i);
    if (!ue_jv_is(ej, UE_JV_OBJECT)) {
        ue_diag_add(d, UE_SEV_ERROR, "manifest.shape", UE_NO_OFFSET, where, "not an object");
        return UE_ERR_INVALID;
    }
    ue_manifest_unknown_keys_jv(ej, fsys_entry_keys, where, ue_jv_string(ue_jv_get(ej, "name")), d);
    uint32_t type_code = 0, file_id = 0;
    if (!ue_jv_u32(ej, "type_code", &type_code, where, d)) return UE_ERR_INVALID;
    if (type_code > 0xFF) {
        ue_diag_add(d, UE_SEV_ERROR, "manifest.field", UE_NO_OFFSET, where,
                    "type_code must be 0..255");
        return UE_ERR_INVALID;
    }
    if (ue_jv_get(ej, "file_id") && !ue_jv_u32(ej, "file_id", &file_id, where, d))
        return UE_ERR_INVALID;
    if (file_id > 0xFFFF) {
        ue_diag_add(d, UE_SEV_ERROR, "manifest.field", UE_NO_OFFSET, where, "file_id must be 0..65535");
        return UE_ERR_INVALID;
    }
    pe->w.type_code = (uint8_t)type_code;
    pe->w.file_id = (uint16_t)file_id;
    pe->w.compressed = ue_jv_is(ue_jv_get(ej, "compressed"), UE_JV_TRUE);
    ue_result r = pack_names(ej, pe, full_names, orig, where, d);
    if (r != UE_OK) return r;
    pe->w.short_name = pe->short_name;
    pe->w.full_name = pe->has_full ? pe->full_name : NULL;
    if (ue_jv_hex_alloc(ej, "record_hex", 0x70, &pe->record, &pe->record_size)) {
        pe->w.record = pe->record;
        pe->w.record_size = pe->record_size;
    }
    return pack_payload(ej, dir, pe, where, d);
}

/* Bytes an entry occupies in the archive, as the writer would emit them unchanged. */
static void emitted(const pack_entry *pe, const uint8_t **p, size_t *n) {
    if (pe->w.stored) {
        *p = pe->w.stored;
        *n = pe->w.stored_size;
    } else if (!pe->w.compressed) {
        *p = pe->w.data;
        *n = pe->w.size;
    } else {
        *p = NULL;
        *n = 0;
    }
}

/* True when the spliced archive `s` holds exactly what the manifest asks for: its header
 * fields and bytes, and per entry id, type, compression, names, record and stored bytes. */
static bool splice_matches(const fsys_state *s, const uint8_t *bytes,
                           const ue_fsys_write_options *opt, const pack_entry *pes, size_t count) {
    if (s->count != count || s->version != opt->version || s->group_id != opt->group_id ||
        (bool)(s->hflags & 1u) != opt->full_names ||
        (opt->header && memcmp(bytes, opt->header, opt->header_size < s->header_len
                                                       ? opt->header_size
                                                       : s->header_len)))
        return false;
    for (size_t i = 0; i < count; i++) {
        const fsys_entry *e = &s->e[i];
        const pack_entry *pe = &pes[i];
        const uint8_t *p;
        size_t n;
        emitted(pe, &p, &n);
        uint8_t short_raw[256], full_raw[256];
        size_t short_len, full_len;
        bool has_short = ue_fsys_raw_name(s, i, false, short_raw, &short_len);
        bool has_full = ue_fsys_raw_name(s, i, true, full_raw, &full_len);
        if (e->range_bad || e->file_id != pe->w.file_id || e->type_code != pe->w.type_code ||
            e->compressed != pe->w.compressed ||
            !name_equal(has_short, short_raw, short_len, pe->short_name) ||
            !name_equal(has_full, full_raw, full_len, pe->has_full ? pe->full_name : NULL) ||
            e->stored_size != n || memcmp(bytes + e->data_off, p, n) ||
            (pe->record && (pe->record_size != e->rec_len ||
                            memcmp(bytes + e->rec_off, pe->record, e->rec_len))))
            return false;
    }
    return true;
}

/* Splices the skeleton and the entries' bytes; true (and *out filled) only when the result
 * parses back to exactly the manifest's entries. */
static bool try_skeleton(const ue_jv *manifest, const char *dir, const ue_fsys_write_options *opt,
                         pack_entry *pes, size_t count, ue_buf *out) {
    const ue_jv *sk = ue_jv_get(manifest, "skeleton");
    const ue_jv *segs = ue_jv_get(sk, "segments");
    if (!ue_jv_is(sk, UE_JV_OBJECT) || !ue_jv_is(segs, UE_JV_ARRAY)) return false;
    for (size_t i = 0; i < count; i++)
        if (pes[i].changed) return false;
    uint8_t *skel;
    size_t skel_n;
    bool changed;
    if (ue_manifest_load_file_jv(dir, sk, "file", UE_CAP_ENTRY_BYTES, &skel, &skel_n, &changed,
                                 NULL) != UE_OK)
        return false;
    bool ok = !changed;
    ue_buf b = {0};
    size_t pos = 0;
    for (size_t k = 0; ok && k < ue_jv_size(segs); k++) {
        const ue_jv *g = ue_jv_at(segs, k);
        uint64_t v;
        if (ue_jv_u64(g, "raw", &v, NULL, NULL)) {
            if (v > skel_n - pos) ok = false;
            else {
                ue_buf_put(&b, skel + pos, (size_t)v);
                pos += (size_t)v;
            }
        } else if (ue_jv_u64(g, "entry", &v, NULL, NULL) && v < count) {
            const uint8_t *p;
            size_t n;
            emitted(&pes[v], &p, &n);
            if (!p) ok = false;
            else ue_buf_put(&b, p, n);
        } else {
            ok = false;
        }
    }
    free(skel);
    ok = ok && pos == skel_n && !b.failed;
    fsys_state *s = NULL;
    if (ok) {
        ue_source src = ue_source_memory(b.data, b.size);
        ok = ue_fsys_parse(&src, UE_MODE_TOLERANT, "fsys", &s, NULL) == UE_OK &&
             splice_matches(s, b.data, opt, pes, count);
    }
    ue_fsys_free(s);
    if (ok) {
        ue_buf_put(out, b.data, b.size);
        ok = !out->failed;
    }
    ue_buf_free(&b);
    return ok;
}

/* The writer's options from the manifest's header (used by the splice check too). */
static ue_fsys_write_options pack_options(const ue_jv *manifest, const ue_pack_options *popt,
                                          uint8_t **header_raw) {
    const ue_jv *header = ue_jv_get(manifest, "header");
    ue_fsys_write_options opt = {0};
    opt.version = 0x201;
    ue_jv_u32(header, "version", &opt.version, NULL, NULL);
    ue_jv_u32(header, "group_id", &opt.group_id, NULL, NULL);
    opt.full_names = ue_jv_is(ue_jv_get(header, "full_names"), UE_JV_TRUE);
    size_t hn = 0;
    if (ue_jv_hex_alloc(manifest, "header_hex", 0x60, header_raw, &hn)) {
        opt.header = *header_raw;
        opt.header_size = hn;
    }
    uint32_t level = UE_LZSS_LEVEL_DEFAULT;
    ue_jv_u32(manifest, "lzss_level", &level, NULL, NULL);
    opt.level = ue_pack_level(popt, level);
    return opt;
}

static ue_result write_canonical(const ue_fsys_write_options *opt, const pack_entry *pes,
                                 size_t count, ue_buf *out, ue_diag *d) {
    ue_fsys_write_entry *w = ue_calloc_items(count, sizeof *w);
    if (!w) return UE_ERR_NOMEM;
    for (size_t i = 0; i < count; i++) w[i] = pes[i].w;
    ue_result r = ue_fsys_write(opt, w, count, out, d);
    free(w);
    return r;
}

ue_result fsys_pack(const ue_jv *manifest, const char *dir, const ue_pack_options *popt,
                           ue_buf *out, ue_diag *d) {
    ue_manifest_unknown_keys_jv(manifest, fsys_manifest_keys, "manifest", NULL, d);
    ue_manifest_unknown_keys_jv(ue_jv_get(manifest, "skeleton"), fsys_skeleton_keys,
                                "manifest/skeleton", NULL, d);
    const ue_jv *entries = ue_jv_get(manifest, "entries");
    if (!ue_jv_is(entries, UE_JV_ARRAY)) {
        ue_diag_add(d, UE_SEV_ERROR, "manifest.shape", UE_NO_OFFSET, "manifest",
                    "needs an \"entries\" array");
        return UE_ERR_INVALID;
    }
    size_t count = ue_jv_size(entries), base = out->size;
    if (count > UE_CAP_TABLE_ENTRIES) return UE_ERR_LIMIT;
    pack_entry *pes = ue_calloc_items(count, sizeof *pes);
    if (!pes) return UE_ERR_NOMEM;
    uint8_t *header_raw = NULL;
    ue_fsys_write_options opt = pack_options(manifest, popt, &header_raw);
    ue_result r = UE_OK;
    original_archive orig = {.manifest = manifest, .dir = dir};
    for (size_t i = 0; i < count && r == UE_OK; i++)
        r = load_pack_entry(ue_jv_at(entries, i), dir, i, opt.full_names, &orig, &pes[i], d);
    original_free(&orig);
    bool kept = r == UE_OK && try_skeleton(manifest, dir, &opt, pes, count, out);
    if (r == UE_OK && !kept) r = write_canonical(&opt, pes, count, out, d);
    if (r == UE_OK)
        fsys_check_informational(manifest, pes, count, kept, out->data + base, out->size - base, d);
    for (size_t i = 0; i < count; i++) {
        free(pes[i].data);
        free(pes[i].stored);
        free(pes[i].record);
        free(pes[i].short_name);
        free(pes[i].full_name);
    }
    free(pes);
    free(header_raw);
    return r;
}
