/* unearth — FSYS extract: entries read and LZSS-decoded in parallel batches, written with
 * their manifest objects in entry order, and the layout skeleton of every non-payload byte. */
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

/* ---- extract: entries read and decoded in parallel, written in entry order ---------------- */

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

ue_result fsys_extract(void *state, ue_outdir *o, json_t **manifest, ue_diag *d) {
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
        r = fsys_walk_layout(s, segs, nseg, &skel, skeleton_gap, skeleton_entry, layout);
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
