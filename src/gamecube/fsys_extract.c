/* unearth — FSYS extract: each entry decoded once by a worker thread, written and hashed piece
 * by piece; manifest objects in entry order; the layout skeleton of every non-payload byte. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archive/container.h"
#include "gamecube/fsys_int.h"
#include "gamecube/gamecube_int.h"
#include "unearth/gamecube.h"
#include "unearth/lzss.h"
#include "common/bytes.h"
#include "common/io.h"
#include "common/io_internal.h"
#include "common/write_pool.h"
#include "common/text.h"
#include "common/xxh64.h"

/* ---- extract: entries read and decoded in parallel, written in entry order ---------------- */

/* The skeleton's segments are listed while its bytes are made, and written after its hash
 * (the manifest has "segments" last): one u64 each, a gap's size or an entry's index tagged. */
#define SEGMENT_IS_ENTRY (UINT64_C(1) << 63)

static void skeleton_gap(void *user, size_t n) {
    uint64_t v = n;
    ue_buf_put(user, &v, sizeof v);
}

static ue_result skeleton_entry(void *user, const fsys_segment *seg) {
    uint64_t v = SEGMENT_IS_ENTRY | (uint64_t)seg->entry;
    ue_buf_put(user, &v, sizeof v);
    return UE_OK;
}

static void write_segments(ue_json *w, const ue_buf *list) {
    ue_json_array_begin(w);
    for (size_t k = 0; k + sizeof(uint64_t) <= list->size; k += sizeof(uint64_t)) {
        uint64_t v;
        memcpy(&v, list->data + k, sizeof v);
        ue_json_object_begin(w);
        if (v & SEGMENT_IS_ENTRY) ue_json_key_int(w, "entry", (int64_t)(v & ~SEGMENT_IS_ENTRY));
        else ue_json_key_int(w, "raw", (int64_t)v);
        ue_json_object_end(w);
    }
    ue_json_array_end(w);
}

/* One entry as the worker that wrote it leaves it for the caller, who records it in the
 * manifest and appends `diag` to its own list in entry order, so manifest and diagnostics are
 * the same whatever the thread timing. */
typedef struct extract_slot {
    char rel[340];    /* the payload's file, "entries/0003_name.dat" */
    bool wanted;      /* the entry has a readable payload range */
    bool decoded;     /* the payload file was written */
    bool damaged_now; /* tolerant: the LZSS stream turned out damaged */
    ue_result r;      /* a failure that stops the extract */
    char plain_hex[17], stored_hex[17];
    ue_diag diag;
} extract_slot;

typedef struct extract_batch {
    fsys_state *s;
    ue_outdir *o;
    const uint8_t *view; /* the whole archive, mapped or in memory; NULL: read each entry */
    uint8_t **window;    /* one decode window per worker thread, made on first use */
    size_t first;
    extract_slot *slot;
} extract_batch;

/* Entries per batch: the workers write every entry of a batch, then the caller records them. A
 * failure stops the extract at the end of its batch, so this bounds the work done in vain. */
#define EXTRACT_MAX_BATCH 64u

static bool entry_has_payload(const fsys_state *s, const fsys_entry *e) {
    /* Tolerant: an entry whose record lies outside the file has nothing to keep. */
    if (e->damaged && !ue_range_ok(e->rec_off, e->rec_len, s->size)) return false;
    return !e->range_bad;
}

/* Writes `n` bytes to the new file `rel`; with `hex`, their XXH64 too, each stretch hashed
 * right before it is written, so that the write reads it from the cache. */
static ue_result write_file(const ue_outdir *o, const char *rel, const uint8_t *p, size_t n,
                            char hex[17], ue_diag *d) {
    int fd;
    ue_result r = ue_outdir_open_file(o, rel, &fd, d);
    if (r != UE_OK) return r;
    ue_xxh64_state h;
    ue_xxh64_init(&h, 0);
    bool ok = true;
    for (size_t at = 0, step; ok && at < n; at += step) {
        step = n - at < FSYS_WINDOW ? n - at : FSYS_WINDOW;
        if (hex) ue_xxh64_update(&h, p + at, step);
        ok = ue_io_write_all(fd, p + at, step);
    }
    if (hex) ue_xxh64_format(ue_xxh64_digest(&h), hex);
    return ue_outdir_close_file(fd, ok, rel, d);
}

/* Where decoded pieces go: the payload file, and the hash of what it holds. */
typedef struct payload_sink {
    int fd;
    int err; /* errno of a failed write */
    ue_xxh64_state hash;
} payload_sink;

/* A piece at output byte 0 starts the payload: the first piece, or a tolerant decode's second
 * attempt from the stream's start, which replaces what the first one wrote. */
static ue_result payload_piece(void *ctx, uint64_t at, const uint8_t *p, size_t n) {
    payload_sink *ps = ctx;
    if (at == 0) {
        ue_xxh64_init(&ps->hash, 0);
        if (lseek(ps->fd, 0, SEEK_SET) != 0 || ftruncate(ps->fd, 0) != 0) {
            ps->err = errno;
            return UE_ERR_IO;
        }
    }
    ue_xxh64_update(&ps->hash, p, n);
    if (ue_io_write_all(ps->fd, p, n)) return UE_OK;
    ps->err = errno;
    return UE_ERR_IO;
}

ue_result fsys_decode_chunks(fsys_state *s, size_t i, const uint8_t *stored, size_t n,
                             uint8_t *window, ue_lzss_emit_fn emit, void *ctx, ue_diag *d) {
    atomic_fetch_add_explicit(&s->decodes, 1, memory_order_relaxed);
    char path[64];
    snprintf(path, sizeof path, "fsys/entry[%zu]/lzss", i);
    size_t size;
    return ue_gclzss_decode_chunks(stored, n, s->mode, window, FSYS_WINDOW, emit, ctx, &size, d,
                                   s->e[i].data_off, path);
}

/* Decodes entry i into its payload file piece by piece, hashing each piece as it is written:
 * memory stays at the worker's window whatever the entry's size. */
static ue_result write_decoded(extract_batch *b, size_t worker, size_t i, extract_slot *sl,
                               const uint8_t *stored, size_t n) {
    if (!b->window[worker] && !(b->window[worker] = malloc(FSYS_WINDOW))) return UE_ERR_NOMEM;
    payload_sink ps = {.fd = -1};
    ue_result r = ue_outdir_open_file(b->o, sl->rel, &ps.fd, &sl->diag);
    if (r != UE_OK) return r;
    ue_xxh64_init(&ps.hash, 0);
    ue_result dr = fsys_decode_chunks(b->s, i, stored, n, b->window[worker], payload_piece, &ps,
                                      &sl->diag);
    errno = ps.err;
    r = ue_outdir_close_file(ps.fd, dr != UE_ERR_IO, sl->rel, &sl->diag);
    if ((dr == UE_ERR_INVALID || dr == UE_ERR_LIMIT) && b->s->mode == UE_MODE_TOLERANT) {
        /* Damaged: nothing of it is kept but its stored bytes. */
        ue_outdir_remove_file(b->o, sl->rel);
        sl->decoded = false, sl->damaged_now = true;
        return UE_OK;
    }
    if (dr != UE_OK) return dr;
    ue_xxh64_format(ue_xxh64_digest(&ps.hash), sl->plain_hex);
    return r;
}

/* Entry i as validation or a borrow kept it decoded (strict mode: the decode passed), written
 * as it is. The decode's one warning possible then, a header's, is said again as it said it. */
static ue_result write_kept(extract_batch *b, size_t i, extract_slot *sl, const uint8_t *stored, size_t n) {
    char path[64];
    snprintf(path, sizeof path, "fsys/entry[%zu]/lzss", i);
    ue_gclzss_header h;
    ue_gclzss_parse_header(stored, n, &h, &sl->diag, b->s->e[i].data_off, path);
    const fsys_kept *k = &b->s->kept[i];
    ue_xxh64_format(k->xxh64, sl->plain_hex);
    return write_file(b->o, sl->rel, k->data, k->size, NULL, &sl->diag);
}

/* Entry i's files, written on a worker thread: the payload, and for compressed or damaged
 * entries the stored bytes beside it (re-emitted as they are while the payload is unchanged). */
static ue_result write_entry(extract_batch *b, size_t worker, size_t i, extract_slot *sl,
                             const uint8_t *stored, size_t n) {
    const fsys_entry *e = &b->s->e[i];
    ue_result r = UE_OK;
    sl->decoded = !e->damaged;
    bool kept = b->s->kept && b->s->kept[i].data && b->s->mode == UE_MODE_STRICT;
    if (sl->decoded && e->compressed && kept) r = write_kept(b, i, sl, stored, n);
    else if (sl->decoded && e->compressed) r = write_decoded(b, worker, i, sl, stored, n);
    else if (sl->decoded) r = write_file(b->o, sl->rel, stored, n, sl->stored_hex, &sl->diag);
    if (r == UE_OK && (e->compressed || !sl->decoded)) {
        char srel[360];
        snprintf(srel, sizeof srel, "%s%s", sl->rel, e->compressed ? ".lzss" : ".stored");
        r = write_file(b->o, srel, stored, n, sl->stored_hex, &sl->diag);
    }
    return r;
}

static void extract_one(void *ctx, size_t worker, size_t k) {
    extract_batch *b = ctx;
    extract_slot *sl = &b->slot[k];
    size_t i = b->first + k;
    const fsys_entry *e = &b->s->e[i];
    if (!(sl->wanted = entry_has_payload(b->s, e))) return;
    char file[300], shown[256];
    ue_fsys_display_name(b->s, i, shown, sizeof shown);
    ue_entry_file_name(i, shown, ue_fsys_type_ext(e->type_code), file, sizeof file);
    snprintf(sl->rel, sizeof sl->rel, "entries/%s", file);
    if (b->view && ue_range_ok(e->data_off, e->stored_size, b->s->size)) {
        sl->r = write_entry(b, worker, i, sl, b->view + e->data_off, e->stored_size);
        return;
    }
    uint8_t *stored;
    size_t n;
    sl->r = ue_fsys_read_stored(b->s, i, &stored, &n, &sl->diag);
    if (sl->r == UE_OK) sl->r = write_entry(b, worker, i, sl, stored, n);
    free(stored);
}

/* Records entry i's files, written by its worker, in its manifest object. */
static void record_entry(const fsys_entry *e, const extract_slot *sl, ue_json *w) {
    if (sl->damaged_now && !e->damaged) ue_json_key_bool(w, "damaged", true); /* else written */
    if (sl->decoded) {
        ue_json_key_string(w, "file", sl->rel);
        ue_json_key_string(w, "xxh64", e->compressed ? sl->plain_hex : sl->stored_hex);
    }
    if (e->compressed || !sl->decoded) {
        char srel[360];
        snprintf(srel, sizeof srel, "%s%s", sl->rel, e->compressed ? ".lzss" : ".stored");
        ue_json_key_string(w, "stored_file", srel);
        ue_json_key_string(w, "stored_xxh64", sl->stored_hex);
    }
}

/* Entry first + k's record bytes and files, after its fields (object left open). */
static ue_result record_batch_entry(extract_batch *b, size_t k, ue_json *w, ue_diag *d) {
    const fsys_state *s = b->s;
    const fsys_entry *e = &s->e[b->first + k];
    if (e->damaged && !ue_range_ok(e->rec_off, e->rec_len, s->size)) return UE_OK;
    uint8_t rec[0x70];
    ue_result r = ue_source_read(&s->src, e->rec_off, rec, e->rec_len);
    if (r != UE_OK) return r;
    ue_json_key(w, "record_hex");
    ue_json_hex(w, rec, e->rec_len);
    if (!b->slot[k].wanted) return UE_OK;
    ue_diag_append(d, &b->slot[k].diag, UE_SEV_INFO);
    r = b->slot[k].r;
    if (r == UE_OK) record_entry(e, &b->slot[k], w);
    return r;
}

/* Entries [first, first + n): written by the workers, then recorded one by one in order. */
static ue_result extract_batch_run(extract_batch *b, size_t first, size_t n, size_t threads,
                                   ue_json *w, ue_diag *d) {
    fsys_state *s = b->s;
    b->first = first;
    memset(b->slot, 0, n * sizeof *b->slot);
    ue_parallel_for_workers(n, threads, extract_one, b);
    ue_result r = UE_OK;
    for (size_t k = 0; k < n && r == UE_OK; k++) {
        size_t i = first + k;
        const fsys_entry *e = &s->e[i];
        fsys_entry_fields(s, i, w);
        if (e->damaged) ue_json_key_bool(w, "damaged", true);
        r = record_batch_entry(b, k, w, d);
        ue_json_object_end(w);
    }
    for (size_t k = 0; k < n; k++) ue_diag_free(&b->slot[k].diag);
    return r;
}

/* The next batch from `first`: how many entries, how many decode LZSS, and whether any has a
 * payload to write (only then is entries/ made, as the serial extract did). */
static size_t batch_size(const fsys_state *s, size_t first, size_t *lzss, bool *payloads) {
    size_t n = s->count - first < EXTRACT_MAX_BATCH ? s->count - first : EXTRACT_MAX_BATCH;
    *lzss = 0, *payloads = false;
    for (size_t k = 0; k < n; k++) {
        const fsys_entry *e = &s->e[first + k];
        *lzss += e->compressed && !e->damaged;
        *payloads |= entry_has_payload(s, e);
    }
    return n;
}

static ue_result extract_entries(fsys_state *s, ue_json *w, ue_outdir *o, ue_diag *d) {
    size_t threads = ue_cpu_count();
    if (threads > EXTRACT_THREADS) threads = EXTRACT_THREADS;
    uint8_t *window[EXTRACT_THREADS] = {NULL};
    extract_batch b = {s, o, NULL, window, 0, calloc(EXTRACT_MAX_BATCH, sizeof *b.slot)};
    if (!b.slot) return UE_ERR_NOMEM;
    bool viewed = ue_source_view(&s->src, &b.view) == UE_OK;
    bool made_dir = false;
    ue_result r = UE_OK;
    for (size_t first = 0; first < s->count && r == UE_OK;) {
        size_t lzss;
        bool payloads;
        size_t n = batch_size(s, first, &lzss, &payloads);
        if (payloads && !made_dir && (r = ue_outdir_mkdir(o, "entries", d)) != UE_OK) break;
        made_dir |= payloads;
        /* Threads only pay for themselves where there is LZSS to decode. */
        r = extract_batch_run(&b, first, n, lzss > 1 ? threads : 1, w, d);
        first += n;
    }
    if (viewed) ue_source_unview(&s->src, b.view);
    for (size_t t = 0; t < EXTRACT_THREADS; t++) free(window[t]);
    free(b.slot);
    return r;
}

ue_result fsys_extract(void *state, ue_outdir *o, ue_json *w, ue_diag *d) {
    fsys_state *s = state;
    ue_json_key(w, "header");
    fsys_info_json(state, w);
    ue_json_key(w, "header_hex");
    ue_json_hex(w, s->header, s->header_len);
    ue_json_key(w, "entries");
    ue_json_array_begin(w);
    ue_result r = extract_entries(s, w, o, d);
    ue_json_array_end(w);
    /* The skeleton: all bytes outside the payload segments, in file order. */
    fsys_segment *segs = NULL;
    size_t nseg = 0;
    if (r == UE_OK) r = ue_fsys_layout(s, &segs, &nseg);
    if (r == UE_OK) {
        ue_buf skel = {0}, segments = {0};
        r = fsys_walk_layout(s, segs, nseg, &skel, skeleton_gap, skeleton_entry, &segments);
        if (r == UE_OK && segments.failed) r = UE_ERR_NOMEM;
        if (r == UE_OK) r = ue_outdir_write(o, "layout/skeleton.bin", skel.data, skel.size, d);
        ue_json_key(w, "skeleton");
        ue_json_object_begin(w);
        ue_json_key_string(w, "file", "layout/skeleton.bin");
        ue_json_key(w, "xxh64");
        ue_json_xxh64(w, skel.data, skel.size);
        ue_json_key(w, "segments");
        write_segments(w, &segments);
        ue_json_object_end(w);
        ue_buf_free(&skel);
        ue_buf_free(&segments);
    }
    free(segs);
    return r;
}
