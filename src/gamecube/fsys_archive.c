/* unearth — FSYS behind the generic container contract: listing with decoded sizes, reads that
 * undo LZSS, extract to payloads + stored LZSS blobs + a layout skeleton, and pack back. */
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

/* The type code says what the payload is; it is never guessed from the bytes. */
static bool is_nested(const fsys_entry *e) { return e->type_code == 0x1E; } /* a PKX */

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
    if (is_nested(e)) snprintf(info->nested, sizeof info->nested, "pkx");
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

bool ue_fsys_find_entry(const fsys_state *s, const char *name, size_t *index) {
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

static bool fsys_find(const void *state, const char *name, size_t *index) {
    return ue_fsys_find_entry(state, name, index);
}

static ue_result fsys_read(void *state, size_t i, uint8_t **data, size_t *size, ue_diag *d) {
    return ue_fsys_read_entry(state, i, data, size, d);
}

void fsys_info_json(const void *state, ue_json *w) {
    const fsys_state *s = state;
    ue_json_object_begin(w);
    ue_json_key_string(w, "magic", "FSYS");
    ue_json_key_int(w, "version", s->version);
    ue_json_key_int(w, "record_size", s->version >= 0x200 ? 0x70 : 0x50);
    ue_json_key_int(w, "group_id", s->group_id);
    ue_json_key_int(w, "entry_count", s->count);
    ue_json_key_int(w, "flags", s->hflags);
    ue_json_key_bool(w, "full_names", s->hflags & 1u);
    ue_json_key_int(w, "offsets_table", s->table_ofs);
    ue_json_key_int(w, "data_start", s->data_start);
    ue_json_key_int(w, "total_size", s->total_size);
    ue_json_key_int(w, "entry_list_offset", s->list_ofs);
    ue_json_key_int(w, "names_offset", s->str_ofs);
    ue_json_key_int(w, "data_offset", s->data_ofs);
    ue_json_key_bool(w, "footer_ok", s->footer_ok);
    ue_json_object_end(w);
}

/* A name as JSON: plain text when printable ASCII, else hex under "<key>_hex". */
static void write_name(ue_json *w, const char *key, const uint8_t *raw, size_t n, bool present) {
    if (!present) {
        ue_json_key(w, key);
        ue_json_null(w);
        return;
    }
    bool text = true;
    for (size_t i = 0; i < n; i++)
        if (raw[i] < 0x20 || raw[i] > 0x7E) text = false;
    if (text) {
        char buf[260];
        memcpy(buf, raw, n);
        buf[n] = 0;
        ue_json_key_string(w, key, buf);
    } else {
        char k[32];
        snprintf(k, sizeof k, "%s_hex", key);
        ue_json_key(w, k);
        ue_json_hex(w, raw, n);
    }
}

/* Entry i's fields as `list --json` has them, left open for what extract adds. */
void fsys_entry_fields(const void *state, size_t i, ue_json *w) {
    const fsys_state *s = state;
    const fsys_entry *e = &s->e[i];
    ue_entry_info info;
    fsys_entry_info(state, i, &info);
    ue_json_object_begin(w);
    ue_json_key_int(w, "index", (int64_t)i);
    ue_json_key_string(w, "name", info.name);
    uint8_t raw[256];
    size_t n;
    bool has = ue_fsys_raw_name(s, i, false, raw, &n);
    write_name(w, "short_name", raw, n, has);
    has = ue_fsys_raw_name(s, i, true, raw, &n);
    write_name(w, "full_name", raw, n, has);
    ue_json_key_string(w, "type", info.type);
    ue_json_key_int(w, "type_code", e->type_code);
    ue_json_key_int(w, "type_index", e->type_index);
    ue_json_key_int(w, "file_id", e->file_id);
    ue_json_key_int(w, "flags", e->flags);
    ue_json_key_bool(w, "compressed", e->compressed);
    ue_json_key_int(w, "data_offset", e->data_off);
    ue_json_key_int(w, "stored_size", e->stored_size);
    ue_json_key_int(w, "size", e->usize);
    ue_json_key_int(w, "record_offset", (int64_t)e->rec_off);
    if (info.nested[0]) ue_json_key_string(w, "nested", info.nested);
}

static void fsys_entry_json(const void *state, size_t i, ue_json *w) {
    fsys_entry_fields(state, i, w);
    const fsys_state *s = state;
    if (s->e[i].damaged) ue_json_key_bool(w, "damaged", true);
    ue_json_object_end(w);
}

/* Walks the archive in file order: the bytes between payload segments are appended to `raw`
 * (and reported to on_gap), each payload segment is handed to on_entry. */
ue_result fsys_walk_layout(fsys_state *s, const fsys_segment *segs, size_t nseg, ue_buf *raw,
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
    r = fsys_walk_layout(s, segs, nseg, out, NULL, reencode_entry, &c);
    free(segs);
    if (r == UE_OK && out->failed) r = UE_ERR_NOMEM;
    return r;
}

/* Validation decodes every entry: independent work, done in parallel like extract's, each
 * entry's diagnostics kept apart and appended in entry order. A compressed entry is decoded
 * through the thread's window and its output dropped, so memory stays constant per thread;
 * except the PKX entries, which the archive layer opens next to check them (and the model walk
 * to find their models): those are kept decoded for those reads instead of being decoded again
 * (up to UE_FSYS_KEEP_MAX bytes). */
typedef struct validate_job {
    fsys_state *s;
    const uint8_t *view; /* the whole archive, mapped or in memory; NULL: read each entry */
    uint8_t *window[EXTRACT_THREADS];
    ue_result *result;
    ue_diag *diag;
    bool *keep;
} validate_job;

static ue_result drop_piece(void *ctx, uint64_t at, const uint8_t *data, size_t n) {
    (void)ctx, (void)at, (void)data, (void)n;
    return UE_OK;
}

static ue_result validate_entry(validate_job *j, size_t worker, size_t i) {
    const fsys_entry *e = &j->s->e[i];
    if (!j->view || e->range_bad || !e->compressed) {
        uint8_t *p = NULL;
        size_t n;
        ue_result r = ue_fsys_read_entry(j->s, i, &p, &n, &j->diag[i]);
        free(p);
        return r;
    }
    if (!j->window[worker] && !(j->window[worker] = malloc(FSYS_WINDOW))) return UE_ERR_NOMEM;
    return fsys_decode_chunks(j->s, i, j->view + e->data_off, e->stored_size, j->window[worker],
                              drop_piece, NULL, &j->diag[i]);
}

/* An entry whose stream a strict extract that follows decodes and fails on anyway, with the
 * same diagnostic: validation leaves it alone (ue_archive_extract_follows). */
static bool left_to_extract(const fsys_state *s, const fsys_entry *e) {
    return s->extract_follows && e->compressed && !is_nested(e) && !e->range_bad;
}

static void validate_one(void *ctx, size_t worker, size_t i) {
    validate_job *j = ctx;
    if (j->s->e[i].damaged) j->result[i] = UE_ERR_INVALID;
    else if (j->keep[i]) j->result[i] = ue_fsys_keep_entry(j->s, i, j->view, &j->diag[i]);
    else if (left_to_extract(j->s, &j->s->e[i])) j->result[i] = UE_OK;
    else j->result[i] = validate_entry(j, worker, i);
}

/* The tables of kept entries, made on first need; false when there is no room for them. */
static bool kept_tables(fsys_state *s) {
    if (!s->kept) s->kept = ue_calloc_items(s->count, sizeof *s->kept);
    return s->kept != NULL;
}

/* Whether entry i, decoded, still fits the bytes kept in all (UE_FSYS_KEEP_MAX). */
static bool room_to_keep(const fsys_state *s, const fsys_entry *e) {
    return e->compressed && !e->damaged && e->usize <= UE_FSYS_KEEP_MAX - s->kept_bytes;
}

/* Whether the model walk reads entry i (an extract follows): kept for the walk and the extract. */
static bool walked_then_extracted(const fsys_state *s, size_t i) {
    if (!s->extract_follows) return false;
    ue_entry_info info;
    fsys_entry_info(s, i, &info);
    return s->extract_follows(&info);
}

/* Which decoded entries validation keeps: the compressed nested ones, and when an extract
 * follows those the model walk reads too, in entry order, while their decoded sizes fit
 * UE_FSYS_KEEP_MAX; false when there is no room for the table. */
static bool choose_kept(fsys_state *s, bool *keep) {
    size_t any = 0;
    bool first = !s->kept;
    for (size_t i = 0; i < s->count; i++) {
        const fsys_entry *e = &s->e[i];
        keep[i] = first && (is_nested(e) || walked_then_extracted(s, i)) && room_to_keep(s, e);
        if (keep[i]) s->kept_bytes += e->usize, any++;
    }
    if (!any || kept_tables(s)) return true;
    s->kept_bytes = 0;
    return false;
}

static ue_result fsys_validate(void *state, ue_diag *d) {
    fsys_state *s = state;
    size_t lzss = 0, threads = ue_cpu_count();
    if (threads > EXTRACT_THREADS) threads = EXTRACT_THREADS;
    for (size_t i = 0; i < s->count; i++) lzss += s->e[i].compressed && !s->e[i].damaged;
    validate_job j = {s, NULL, {NULL}, ue_calloc_items(s->count, sizeof *j.result),
                      ue_calloc_items(s->count, sizeof *j.diag), ue_calloc_items(s->count, sizeof *j.keep)};
    if (!j.result || !j.diag || !j.keep || !choose_kept(s, j.keep)) {
        free(j.result), free(j.diag), free(j.keep);
        return UE_ERR_NOMEM;
    }
    bool viewed = ue_source_view(&s->src, &j.view) == UE_OK;
    ue_parallel_for_workers(s->count, lzss > 1 ? threads : 1, validate_one, &j);
    if (viewed) ue_source_unview(&s->src, j.view);
    for (size_t t = 0; t < EXTRACT_THREADS; t++) free(j.window[t]);
    ue_result worst = UE_OK;
    for (size_t i = 0; i < s->count; i++) {
        if (j.keep[i] && !s->kept[i].data) s->kept_bytes -= s->e[i].usize; /* its decode failed: room again */
        ue_diag_append(d, &j.diag[i], UE_SEV_INFO);
        ue_diag_free(&j.diag[i]);
        ue_result r = j.result[i];
        if (r != UE_OK) worst = r == UE_ERR_NOMEM ? r : UE_ERR_INVALID;
    }
    free(j.result), free(j.diag), free(j.keep);
    return worst;
}

/* A kept entry is lent; any other is read (decoded) into a buffer handed over. */
static ue_result fsys_borrow(void *state, size_t i, const uint8_t **data, size_t *size, uint8_t **to_free,
                             ue_diag *d) {
    fsys_state *s = state;
    if (s->kept && s->kept[i].data) {
        *data = s->kept[i].data, *size = s->kept[i].size;
        return UE_OK;
    }
    ue_result r = ue_fsys_read_entry(s, i, to_free, size, d);
    *data = *to_free;
    return r;
}

static void fsys_extract_follows(void *state, bool (*walked)(const ue_entry_info *info)) {
    fsys_state *s = state;
    s->extract_follows = walked;
}

static size_t fsys_decoded(const void *state) {
    return atomic_load(&((fsys_state *)state)->decodes);
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
    .borrow = fsys_borrow,
    .info_json = fsys_info_json,
    .entry_json = fsys_entry_json,
    .extract = fsys_extract,
    .pack = fsys_pack,
    .put = ue_fsys_put,
    .reencode = fsys_reencode,
    .validate = fsys_validate,
    .extract_follows = fsys_extract_follows,
    .decoded = fsys_decoded,
    .set_source_name = ue_fsys_set_archive_name,
};
