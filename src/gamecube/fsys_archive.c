/* unearth — FSYS behind the generic container contract: listing with decoded sizes, reads that
 * undo LZSS, extract to payloads + stored LZSS blobs + a layout skeleton, and pack back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/container.h"
#include "gamecube/gamecube_int.h"
#include "unearth/gamecube.h"
#include "unearth/lzss.h"
#include "common/bytes.h"
#include "common/io.h"
#include "common/write_pool.h"
#include "common/text.h"

static bool fsys_probe(const uint8_t *head, size_t n, uint64_t total) {
    (void)total;
    return n >= 4 && memcmp(head, "FSYS", 4) == 0;
}

static ue_result fsys_open(const ue_source *src, ue_mode mode, void **state, ue_diag *d) {
    fsys_state *s;
    ue_result r = ue_fsys_parse(src, mode, "fsys", &s, d);
    if (r == UE_OK) *state = s;
    return r;
}

static void fsys_close(void *state) { ue_fsys_free(state); }

static size_t fsys_count(const void *state) { return ((const fsys_state *)state)->count; }

void ue_fsys_set_archive_name(void *state, const char *name) {
    fsys_state *s = state;
    snprintf(s->archive_name, sizeof s->archive_name, "%s", name && name[0] ? name : "fsys");
}

static void fsys_entry_info(const void *state, size_t i, ue_entry_info *info) {
    const fsys_state *s = state;
    const fsys_entry *e = &s->e[i];
    memset(info, 0, sizeof *info);
    info->index = i;
    ue_fsys_display_name(s, i, info->name, sizeof info->name);
    const char *tn = ue_fsys_type_name(e->type_code);
    if (tn) snprintf(info->type, sizeof info->type, "%s", tn);
    else snprintf(info->type, sizeof info->type, "0x%02X", e->type_code);
    info->offset = e->data_off;
    info->stored_size = e->stored_size;
    info->size = e->compressed ? e->usize : e->stored_size;
    snprintf(info->method, sizeof info->method, "%s", e->compressed ? "lzss" : "stored");
    info->damaged = e->damaged;
    /* The type code says what the payload is; it is never guessed from the bytes. */
    if (e->type_code == 0x1E) snprintf(info->nested, sizeof info->nested, "pkx");
}

/* True when entry i's raw full or short name is exactly `name`. */
static bool raw_name_is(const fsys_state *s, size_t i, const char *name) {
    uint8_t raw[256];
    size_t n, want = strlen(name);
    for (int full = 0; full < 2; full++)
        if (ue_fsys_raw_name(s, i, full == 1, raw, &n) && n == want && memcmp(raw, name, n) == 0)
            return true;
    return false;
}

static bool fsys_find(const void *state, const char *name, size_t *index) {
    const fsys_state *s = state;
    char shown[256];
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < s->count; i++) {
            bool hit;
            if (pass == 0) {
                ue_fsys_display_name(s, i, shown, sizeof shown);
                hit = strcmp(shown, name) == 0;
            } else {
                hit = raw_name_is(s, i, name);
            }
            if (hit) {
                *index = i;
                return true;
            }
        }
    }
    return false;
}

static ue_result fsys_read(void *state, size_t i, uint8_t **data, size_t *size, ue_diag *d) {
    return ue_fsys_read_entry(state, i, data, size, d);
}

static json_t *fsys_info_json(const void *state) {
    const fsys_state *s = state;
    json_t *o = json_object();
    json_object_set_new(o, "magic", json_string("FSYS"));
    json_object_set_new(o, "version", json_integer(s->version));
    json_object_set_new(o, "record_size", json_integer(s->version >= 0x200 ? 0x70 : 0x50));
    json_object_set_new(o, "group_id", json_integer(s->group_id));
    json_object_set_new(o, "entry_count", json_integer(s->count));
    json_object_set_new(o, "flags", json_integer(s->hflags));
    json_object_set_new(o, "full_names", json_boolean(s->hflags & 1u));
    json_object_set_new(o, "offsets_table", json_integer(s->table_ofs));
    json_object_set_new(o, "data_start", json_integer(s->data_start));
    json_object_set_new(o, "total_size", json_integer(s->total_size));
    json_object_set_new(o, "entry_list_offset", json_integer(s->list_ofs));
    json_object_set_new(o, "names_offset", json_integer(s->str_ofs));
    json_object_set_new(o, "data_offset", json_integer(s->data_ofs));
    json_object_set_new(o, "footer_ok", json_boolean(s->footer_ok));
    return o;
}

/* A name as JSON: plain text when printable ASCII, else hex under "<key>_hex". */
static void set_name(json_t *o, const char *key, const uint8_t *raw, size_t n, bool present) {
    if (!present) {
        json_object_set_new(o, key, json_null());
        return;
    }
    bool text = true;
    for (size_t i = 0; i < n; i++)
        if (raw[i] < 0x20 || raw[i] > 0x7E) text = false;
    if (text) {
        char buf[260];
        memcpy(buf, raw, n);
        buf[n] = 0;
        json_object_set_new(o, key, json_string(buf));
    } else {
        char k[32];
        snprintf(k, sizeof k, "%s_hex", key);
        json_object_set_new(o, k, ue_json_hex_new(raw, n));
    }
}

static json_t *fsys_entry_json(const void *state, size_t i) {
    const fsys_state *s = state;
    const fsys_entry *e = &s->e[i];
    ue_entry_info info;
    fsys_entry_info(state, i, &info);
    json_t *o = json_object();
    json_object_set_new(o, "index", json_integer((json_int_t)i));
    json_object_set_new(o, "name", json_string(info.name));
    uint8_t raw[256];
    size_t n;
    bool has = ue_fsys_raw_name(s, i, false, raw, &n);
    set_name(o, "short_name", raw, n, has);
    has = ue_fsys_raw_name(s, i, true, raw, &n);
    set_name(o, "full_name", raw, n, has);
    json_object_set_new(o, "type", json_string(info.type));
    json_object_set_new(o, "type_code", json_integer(e->type_code));
    json_object_set_new(o, "type_index", json_integer(e->type_index));
    json_object_set_new(o, "file_id", json_integer(e->file_id));
    json_object_set_new(o, "flags", json_integer(e->flags));
    json_object_set_new(o, "compressed", json_boolean(e->compressed));
    json_object_set_new(o, "data_offset", json_integer(e->data_off));
    json_object_set_new(o, "stored_size", json_integer(e->stored_size));
    json_object_set_new(o, "size", json_integer(e->usize));
    json_object_set_new(o, "record_offset", json_integer((json_int_t)e->rec_off));
    if (info.nested[0]) json_object_set_new(o, "nested", json_string(info.nested));
    if (e->damaged) json_object_set_new(o, "damaged", json_true());
    return o;
}

/* Walks the archive in file order: the bytes between payload segments are appended to `raw`
 * (and reported to on_gap), each payload segment is handed to on_entry. */
static ue_result walk_layout(fsys_state *s, const fsys_segment *segs, size_t nseg, ue_buf *raw,
                             void (*on_gap)(void *user, size_t n),
                             ue_result (*on_entry)(void *user, const fsys_segment *seg), void *user) {
    ue_result r = UE_OK;
    uint64_t pos = 0;
    for (size_t k = 0; k <= nseg && r == UE_OK; k++) {
        uint64_t end = k < nseg ? segs[k].off : s->size;
        if (end > pos) {
            size_t n = (size_t)(end - pos);
            if (!ue_buf_reserve(raw, n)) return UE_ERR_NOMEM;
            r = ue_source_read(&s->src, pos, raw->data + raw->size, n);
            raw->size += n;
            if (on_gap) on_gap(user, n);
        }
        if (k < nseg && r == UE_OK) {
            r = on_entry(user, &segs[k]);
            pos = segs[k].off + segs[k].len;
        }
    }
    return r;
}

static void skeleton_gap(void *user, size_t n) {
    json_t *g = json_object();
    json_object_set_new(g, "raw", json_integer((json_int_t)n));
    json_array_append_new(user, g);
}

static ue_result skeleton_entry(void *user, const fsys_segment *seg) {
    json_t *g = json_object();
    json_object_set_new(g, "entry", json_integer((json_int_t)seg->entry));
    json_array_append_new(user, g);
    return UE_OK;
}

/* ---- extract: entries read and decoded in parallel, written in entry order ---------------- */

/* One entry's bytes as extract needs them, read and decoded on a worker thread. The caller
 * writes them and appends `diag` to its own list in entry order, so files, manifest and
 * diagnostics are the same whatever the thread timing. */
typedef struct extract_slot {
    uint8_t *stored, *plain;
    size_t stored_n, plain_n;
    bool wanted;      /* the entry has a readable payload range */
    bool decoded;     /* the payload file can be written */
    bool damaged_now; /* tolerant: the LZSS stream turned out damaged */
    ue_result r;      /* a failure that stops the extract */
    char plain_hex[17], stored_hex[17];
    ue_diag diag;
} extract_slot;

typedef struct extract_batch {
    fsys_state *s;
    size_t first;
    extract_slot *slot;
} extract_batch;

/* Entries in one batch: one per thread at least, then more (up to EXTRACT_MAX_BATCH) only while
 * their stored and decoded bytes stay under EXTRACT_BATCH_BYTES, so peak memory is one big entry
 * per thread or a constant, and small entries do not pay a thread start each. */
#define EXTRACT_MAX_BATCH 64u
#define EXTRACT_BATCH_BYTES ((uint64_t)8 << 20)
#define EXTRACT_THREADS 4u /* ue_parallel_for's own cap */

static bool entry_has_payload(const fsys_state *s, const fsys_entry *e) {
    /* Tolerant: an entry whose record lies outside the file has nothing to keep. */
    if (e->damaged && !ue_range_ok(e->rec_off, e->rec_len, s->size)) return false;
    return !e->range_bad;
}

static void load_entry(void *ctx, size_t k) {
    extract_batch *b = ctx;
    extract_slot *sl = &b->slot[k];
    size_t i = b->first + k;
    const fsys_entry *e = &b->s->e[i];
    if (!(sl->wanted = entry_has_payload(b->s, e))) return;
    sl->r = ue_fsys_read_stored(b->s, i, &sl->stored, &sl->stored_n, &sl->diag);
    if (sl->r != UE_OK) return;
    sl->decoded = !e->damaged;
    if (sl->decoded && e->compressed) {
        char path[64];
        snprintf(path, sizeof path, "fsys/entry[%zu]/lzss", i);
        ue_result dr = ue_gclzss_decode(sl->stored, sl->stored_n, b->s->mode, &sl->plain,
                                        &sl->plain_n, &sl->diag, e->data_off, path);
        if ((dr == UE_ERR_INVALID || dr == UE_ERR_LIMIT) && b->s->mode == UE_MODE_TOLERANT)
            sl->decoded = false, sl->damaged_now = true;
        else if (dr != UE_OK)
            sl->r = dr;
    }
    if (sl->r != UE_OK) return;
    if (sl->decoded && e->compressed) ue_xxh64_hex(sl->plain, sl->plain_n, sl->plain_hex);
    ue_xxh64_hex(sl->stored, sl->stored_n, sl->stored_hex);
}

static void slot_release(extract_slot *sl) {
    free(sl->stored);
    free(sl->plain);
    ue_diag_free(&sl->diag);
    memset(sl, 0, sizeof *sl);
}

/* How many entries from `first` form the next batch, and how many of them decode LZSS. */
static size_t batch_size(const fsys_state *s, size_t first, size_t threads, size_t *lzss) {
    uint64_t bytes = 0;
    size_t n = 0;
    *lzss = 0;
    while (first + n < s->count && n < EXTRACT_MAX_BATCH) {
        const fsys_entry *e = &s->e[first + n];
        uint64_t size = (uint64_t)e->stored_size + (e->compressed ? e->usize : 0u);
        if (n >= threads && bytes + size > EXTRACT_BATCH_BYTES) break;
        bytes += size;
        *lzss += e->compressed && !e->damaged;
        n++;
    }
    return n;
}

/* Writes entry i's files from its slot and records them in its manifest object. */
static ue_result emit_entry(fsys_state *s, size_t i, extract_slot *sl, json_t *ej, ue_outdir *o,
                            ue_diag *d) {
    const fsys_entry *e = &s->e[i];
    char rel[340], file[300], shown[256];
    ue_fsys_display_name(s, i, shown, sizeof shown);
    ue_entry_file_name(i, shown, ue_fsys_type_ext(e->type_code), file, sizeof file);
    snprintf(rel, sizeof rel, "entries/%s", file);
    ue_result r = UE_OK;
    if (sl->damaged_now) json_object_set_new(ej, "damaged", json_true());
    if (sl->decoded) {
        const uint8_t *p = e->compressed ? sl->plain : sl->stored;
        size_t n = e->compressed ? sl->plain_n : sl->stored_n;
        r = ue_outdir_write(o, rel, p, n, d);
        json_object_set_new(ej, "file", json_string(rel));
        json_object_set_new(ej, "xxh64", json_string(e->compressed ? sl->plain_hex : sl->stored_hex));
    }
    if (r == UE_OK && (e->compressed || !sl->decoded)) {
        /* The original LZSS blob: re-emitted as is while the payload is unchanged. */
        char srel[360];
        snprintf(srel, sizeof srel, "%s%s", rel, e->compressed ? ".lzss" : ".stored");
        r = ue_outdir_write(o, srel, sl->stored, sl->stored_n, d);
        json_object_set_new(ej, "stored_file", json_string(srel));
        json_object_set_new(ej, "stored_xxh64", json_string(sl->stored_hex));
    }
    return r;
}

/* Entries [first, first + n): loaded in parallel, then recorded and written one by one. */
static ue_result extract_batch_run(fsys_state *s, size_t first, size_t n, size_t threads,
                                   extract_slot *slot, json_t *entries, ue_outdir *o, ue_diag *d) {
    extract_batch b = {s, first, slot};
    ue_parallel_for(n, threads, load_entry, &b);
    ue_result r = UE_OK;
    for (size_t k = 0; k < n && r == UE_OK; k++) {
        size_t i = first + k;
        const fsys_entry *e = &s->e[i];
        json_t *ej = fsys_entry_json(s, i);
        json_array_append_new(entries, ej);
        if (e->damaged && !ue_range_ok(e->rec_off, e->rec_len, s->size)) continue;
        uint8_t rec[0x70];
        if ((r = ue_source_read(&s->src, e->rec_off, rec, e->rec_len)) != UE_OK) break;
        json_object_set_new(ej, "record_hex", ue_json_hex_new(rec, e->rec_len));
        if (!slot[k].wanted) continue;
        ue_diag_append(d, &slot[k].diag, UE_SEV_INFO);
        r = slot[k].r;
        if (r == UE_OK) r = emit_entry(s, i, &slot[k], ej, o, d);
    }
    for (size_t k = 0; k < n; k++) slot_release(&slot[k]);
    return r;
}

static ue_result extract_entries(fsys_state *s, json_t *entries, ue_outdir *o, ue_diag *d) {
    size_t threads = ue_cpu_count();
    if (threads > EXTRACT_THREADS) threads = EXTRACT_THREADS;
    extract_slot *slot = calloc(EXTRACT_MAX_BATCH, sizeof *slot);
    if (!slot) return UE_ERR_NOMEM;
    ue_result r = UE_OK;
    for (size_t first = 0; first < s->count && r == UE_OK;) {
        size_t lzss, n = batch_size(s, first, threads, &lzss);
        /* Threads only pay for themselves where there is LZSS to decode. */
        r = extract_batch_run(s, first, n, lzss > 1 ? threads : 1, slot, entries, o, d);
        first += n;
    }
    free(slot);
    return r;
}

static ue_result fsys_extract(void *state, ue_outdir *o, json_t **manifest, ue_diag *d) {
    fsys_state *s = state;
    json_t *m = json_object();
    json_object_set_new(m, "header", fsys_info_json(state));
    json_object_set_new(m, "header_hex", ue_json_hex_new(s->header, s->header_len));
    json_t *entries = json_array();
    json_object_set_new(m, "entries", entries);
    ue_result r = extract_entries(s, entries, o, d);
    /* The skeleton: all bytes outside the payload segments, in file order. */
    fsys_segment *segs = NULL;
    size_t nseg = 0;
    if (r == UE_OK) r = ue_fsys_layout(s, &segs, &nseg);
    if (r == UE_OK) {
        ue_buf skel = {0};
        json_t *layout = json_array();
        r = walk_layout(s, segs, nseg, &skel, skeleton_gap, skeleton_entry, layout);
        if (r == UE_OK) r = ue_outdir_write(o, "layout/skeleton.bin", skel.data, skel.size, d);
        json_t *sk = json_object();
        json_object_set_new(sk, "file", json_string("layout/skeleton.bin"));
        json_object_set_new(sk, "xxh64", ue_json_xxh64(skel.data, skel.size));
        json_object_set_new(sk, "segments", layout);
        json_object_set_new(m, "skeleton", sk);
        ue_buf_free(&skel);
    }
    free(segs);
    if (r != UE_OK) {
        json_decref(m);
        return r;
    }
    *manifest = m;
    return UE_OK;
}

/* ---- pack ---------------------------------------------------------------------------------- */

typedef struct pack_entry {
    ue_fsys_write_entry w;
    uint8_t *data, *stored, *record;
    size_t record_size;
    char *short_name, *full_name;
    bool has_full;
    bool changed;
} pack_entry;

/* The keys extract writes; pack warns about any other (docs/gamecube-containers.md). The
 * header's are checked against the packed header (check_informational). */
static const char *const fsys_manifest_keys[] = {"unearth_manifest", "format", "source", "header",
                                                 "header_hex", "entries", "skeleton",
                                                 "lzss_level", NULL};
static const char *const fsys_entry_keys[] = {
    "index", "name", "short_name", "short_name_hex", "full_name", "full_name_hex", "type",
    "type_code", "type_index", "file_id", "flags", "compressed", "data_offset", "stored_size",
    "size", "record_offset", "nested", "damaged", "record_hex", "file", "xxh64", "stored_file",
    "stored_xxh64", NULL};
static const char *const fsys_skeleton_keys[] = {"file", "xxh64", "segments", NULL};
/* Header keys pack reads, and those a new layout recomputes (not compared then). */
static const char *const fsys_header_read[] = {"version", "group_id", "full_names", NULL};
static const char *const fsys_header_layout[] = {
    "version", "group_id", "full_names", "record_size", "entry_count", "flags", "offsets_table",
    "data_start", "total_size", "entry_list_offset", "names_offset", "data_offset", "footer_ok",
    NULL};

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
#define NAME_BYTES_MAX 255u /* a name and its NUL lie within 256 bytes (seed §18.13) */

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
    o->spans = calloc(nseg ? nseg : 1, sizeof *o->spans);
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
 * (which list then shows again, seed §18.4). */
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

/* ---- informational keys: what extract recorded of the archive, not read by pack ------------ */

/* Warns when the integer `key` was edited (differs from `original`, what extract recorded in
 * "record_hex", when the entry has one) and differs from what pack wrote. */
static void check_number_key(const ue_jv *ej, const char *key, const uint32_t *original,
                             uint32_t written, const char *advice, const char *where,
                             const char *entry, ue_diag *d) {
    const ue_jv *v = ue_jv_get(ej, key);
    bool is_int = ue_jv_is(v, UE_JV_INTEGER);
    if (!v || (is_int && (v->u.integer == written || (original && v->u.integer == *original))))
        return;
    char given[128], wrote[32];
    ue_jv_show(v, given, sizeof given);
    snprintf(wrote, sizeof wrote, "%u", written);
    ue_manifest_informational(where, entry, key, given, wrote, advice, d);
}

/* The same for a text key; NULL `written` or `original` stands for "no such key". */
static void check_text_key(const ue_jv *ej, const char *key, bool have_original,
                           const char *original, const char *written, const char *advice,
                           const char *where, const char *entry, ue_diag *d) {
    const ue_jv *v = ue_jv_get(ej, key);
    const char *t = ue_jv_string(v);
    if (!v || (t && written && !strcmp(t, written)) ||
        (have_original && t && original && !strcmp(t, original)))
        return;
    char given[128], wrote[64], shown[60] = "";
    ue_jv_show(v, given, sizeof given);
    if (written) ue_text_printable(written, shown, sizeof shown);
    snprintf(wrote, sizeof wrote, written ? "\"%s\"" : "nothing", shown);
    ue_manifest_informational(where, entry, key, given, wrote, advice, d);
}

static void type_text(uint8_t code, char *out, size_t size) {
    const char *tn = ue_fsys_type_name(code);
    if (tn) snprintf(out, size, "%s", tn);
    else snprintf(out, size, "0x%02X", code);
}

/* Entry i's informational keys against entry i of the packed archive `s`. */
static void check_entry_facts(const ue_jv *ej, const pack_entry *pe, const fsys_state *s, size_t i,
                              bool layout_kept, const char *where, ue_diag *d) {
    const fsys_entry *e = &s->e[i];
    const char *entry = ue_jv_string(ue_jv_get(ej, "name"));
    const uint8_t *rec = pe->record && pe->record_size >= 0x28 ? pe->record : NULL;
    uint32_t orig[5] = {0};
    static const uint8_t at[5] = {0x04, 0x08, 0x0C, 0x14, 0x20};
    for (size_t k = 0; rec && k < 5; k++) orig[k] = ue_load_u32be(rec + at[k]);
    const char *sizes = "pack takes sizes from the payload files";
    const char *place = "pack lays the archive out itself";
    char wrote[32], was[32];
    type_text(e->type_code, wrote, sizeof wrote);
    type_text(rec ? rec[2] : 0, was, sizeof was);
    check_text_key(ej, "type", rec != NULL, was, wrote,
                   "change \"type_code\" instead", where,
                   entry, d);
    check_text_key(ej, "nested", rec != NULL, rec && rec[2] == 0x1E ? "pkx" : NULL,
                   e->type_code == 0x1E ? "pkx" : NULL,
                   "a nested PKX follows from \"type_code\" 30", where, entry, d);
    check_number_key(ej, "type_index", rec ? &orig[4] : NULL, e->type_index,
                     "change \"type_code\" instead (pack writes type_code / 2 when it "
                     "changes, spec §7.1)",
                     where, entry, d);
    check_number_key(ej, "flags", rec ? &orig[2] : NULL, e->flags,
                     "change \"compressed\" (bit 31) or bytes 12..15 of \"record_hex\" "
                     "instead", where, entry, d);
    check_number_key(ej, "size", rec ? &orig[1] : NULL, e->usize, sizes, where, entry, d);
    check_number_key(ej, "stored_size", rec ? &orig[3] : NULL, e->stored_size, sizes, where, entry,
                     d);
    check_number_key(ej, "data_offset", rec ? &orig[0] : NULL, e->data_off, place, where, entry, d);
    if (layout_kept) /* the record's own place is not in it: only a kept layout tells an edit */
        check_number_key(ej, "record_offset", NULL, e->rec_off, place, where, entry, d);
}

static void check_informational(const ue_jv *manifest, const pack_entry *pes, size_t count,
                                bool layout_kept, const uint8_t *packed, size_t size,
                                ue_diag *d) {
    ue_manifest_check_info(&ue_fsys_ops, packed, size, ue_jv_get(manifest, "header"), "header",
                           layout_kept ? fsys_header_read : fsys_header_layout,
                           "pack writes it from \"version\", \"group_id\", \"full_names\", "
                           "\"header_hex\" and the entries", d);
    fsys_state *s = NULL;
    ue_source src = ue_source_memory(packed, size);
    if (ue_fsys_parse(&src, UE_MODE_TOLERANT, "fsys", &s, NULL) == UE_OK && s->count == count) {
        const ue_jv *entries = ue_jv_get(manifest, "entries");
        char where[64];
        for (size_t i = 0; i < count; i++) {
            snprintf(where, sizeof where, "manifest/entries[%zu]", i);
            check_entry_facts(ue_jv_at(entries, i), &pes[i], s, i, layout_kept, where, d);
        }
    }
    ue_fsys_free(s);
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
    ue_fsys_write_entry *w = calloc(count ? count : 1, sizeof *w);
    if (!w) return UE_ERR_NOMEM;
    for (size_t i = 0; i < count; i++) w[i] = pes[i].w;
    ue_result r = ue_fsys_write(opt, w, count, out, d);
    free(w);
    return r;
}

static ue_result fsys_pack(const ue_jv *manifest, const char *dir, const ue_pack_options *popt,
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
    pack_entry *pes = calloc(count ? count : 1, sizeof *pes);
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
        check_informational(manifest, pes, count, kept, out->data + base, out->size - base, d);
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

/* Re-emits the parsed model: skeleton bytes and every entry's stored bytes in layout order. */
typedef struct reencode_ctx {
    fsys_state *s;
    ue_buf *out;
    ue_diag *d;
} reencode_ctx;

static ue_result reencode_entry(void *user, const fsys_segment *seg) {
    reencode_ctx *c = user;
    uint8_t *p;
    size_t n;
    ue_result r = ue_fsys_read_stored(c->s, seg->entry, &p, &n, c->d);
    if (r == UE_OK) ue_buf_put(c->out, p, n);
    free(p);
    return r;
}

static ue_result fsys_reencode(void *state, ue_buf *out, ue_diag *d) {
    fsys_state *s = state;
    fsys_segment *segs;
    size_t nseg;
    ue_result r = ue_fsys_layout(s, &segs, &nseg);
    if (r != UE_OK) return r;
    reencode_ctx c = {s, out, d};
    r = walk_layout(s, segs, nseg, out, NULL, reencode_entry, &c);
    free(segs);
    if (r == UE_OK && out->failed) r = UE_ERR_NOMEM;
    return r;
}

/* Validation decodes every entry: independent work, done in parallel like extract's, each
 * entry's diagnostics kept apart and appended in entry order. */
typedef struct validate_job {
    fsys_state *s;
    ue_result *result;
    ue_diag *diag;
} validate_job;

static void validate_one(void *ctx, size_t i) {
    validate_job *j = ctx;
    if (j->s->e[i].damaged) {
        j->result[i] = UE_ERR_INVALID;
        return;
    }
    uint8_t *p = NULL;
    size_t n;
    j->result[i] = ue_fsys_read_entry(j->s, i, &p, &n, &j->diag[i]);
    free(p); /* one decoded entry per thread at a time */
}

static ue_result fsys_validate(void *state, ue_diag *d) {
    fsys_state *s = state;
    size_t lzss = 0, threads = ue_cpu_count();
    if (threads > EXTRACT_THREADS) threads = EXTRACT_THREADS;
    for (size_t i = 0; i < s->count; i++) lzss += s->e[i].compressed && !s->e[i].damaged;
    validate_job j = {s, calloc(s->count ? s->count : 1, sizeof *j.result),
                      calloc(s->count ? s->count : 1, sizeof *j.diag)};
    if (!j.result || !j.diag) {
        free(j.result), free(j.diag);
        return UE_ERR_NOMEM;
    }
    ue_parallel_for(s->count, lzss > 1 ? threads : 1, validate_one, &j);
    ue_result worst = UE_OK;
    for (size_t i = 0; i < s->count; i++) {
        ue_diag_append(d, &j.diag[i], UE_SEV_INFO);
        ue_diag_free(&j.diag[i]);
        ue_result r = j.result[i];
        if (r != UE_OK) worst = r == UE_ERR_NOMEM ? r : UE_ERR_INVALID;
    }
    free(j.result), free(j.diag);
    return worst;
}

const ue_container_ops ue_fsys_ops = {
    .name = "fsys",
    .description = "GameCube FSYS archive (Pokémon Colosseum / XD)",
    .probe = fsys_probe,
    .open = fsys_open,
    .close = fsys_close,
    .count = fsys_count,
    .entry = fsys_entry_info,
    .find = fsys_find,
    .read = fsys_read,
    .info_json = fsys_info_json,
    .entry_json = fsys_entry_json,
    .extract = fsys_extract,
    .pack = fsys_pack,
    .reencode = fsys_reencode,
    .validate = fsys_validate,
    .set_source_name = ue_fsys_set_archive_name,
};
