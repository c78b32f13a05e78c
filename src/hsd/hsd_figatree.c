/* unearth — Melee FigaTree clips (docs/formats/hsd-animation.md#figatree): header, per-joint track runs and their key
 * streams read from any DAT (a bank's too) into a model's anims, bound by depth-first joint index. */
#include "hsd/hsd_figatree.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/container.h"
#include "common/bytes.h"
#include "common/collections.h"
#include "hsd/dat_bank.h"
#include "hsd/hsd_int.h"
#include "hsd/hsd_to_scene.h"

#define PATH_CAP 192u

/* ---- the header ------------------------------------------------------------------------------ */

/* The pointer at `field`: false when NULL or broken (a broken one is a violation). */
static bool follow(const ue_dat *dat, ue_parse_ctx *c, uint32_t field, const char *path, uint32_t *target) {
    bool present = false;
    if (ue_dat_read_pointer(dat, field, &present, target) != UE_OK) {
        ue_violation(c, "hsd.figatree.pointer", hsd_file_at(field), path,
                     "pointer at data offset 0x%x leaves the 0x%x-byte data block", field, dat->data_size);
        return false;
    }
    return present;
}

hsd_figatree_budget hsd_figatree_budget_of(const ue_dat *dat) {
    hsd_figatree_budget b = {2ull * dat->data_size + 0x10000u, (uint64_t)dat->data_size + 0x100u,
                             dat->data_size / HSD_FIGATREE_TRACK + 0x100u};
    return b;
}

static void over_budget(ue_parse_ctx *c, uint32_t off, const char *path, const char *what) {
    ue_violation(c, "hsd.anim.budget", hsd_file_at(off), path,
                 "%s add up to more than the file could hold (tables shared by many FigaTrees); "
                 "this one is not read", what);
}

/* The count table: one byte per joint up to the 0xFF end, which must lie inside the block. */
static bool count_nodes(const ue_dat *dat, ue_parse_ctx *c, const char *path, hsd_figatree_budget *b,
                        hsd_figatree_head *h) {
    const uint8_t *p = dat->data + h->counts_offset;
    size_t room = dat->data_size - h->counts_offset;
    size_t scan = room < b->count_bytes ? room : (size_t)b->count_bytes;
    const uint8_t *end = memchr(p, 0xFF, scan);
    if (!end && scan < room) {
        over_budget(c, h->counts_offset, path, "track count tables");
        return false;
    }
    if (!end) {
        ue_violation(c, "hsd.figatree.counts", hsd_file_at(h->counts_offset), path,
                     "track count table at data offset 0x%x has no 0xFF end inside the data block",
                     h->counts_offset);
        return false;
    }
    h->joint_count = (uint32_t)(end - p);
    b->count_bytes -= h->joint_count + 1u;
    for (const uint8_t *q = p; q < end; q++) h->track_count += *q;
    return true;
}

bool hsd_figatree_head_read(const ue_dat *dat, uint32_t off, ue_parse_ctx *c, const char *path,
                            hsd_figatree_budget *b, hsd_figatree_head *h) {
    memset(h, 0, sizeof *h);
    h->offset = off;
    if (off % 4 != 0 || (uint64_t)off + HSD_FIGATREE_SIZE > dat->data_size) {
        ue_violation(c, "hsd.figatree.offset", hsd_file_at(off), path,
                     "FigaTree at data offset 0x%x is not a 4-aligned 0x%x-byte struct inside the "
                     "0x%x-byte data block", off, HSD_FIGATREE_SIZE, dat->data_size);
        return false;
    }
    ue_dat_read_u32(dat, off, &h->type);
    ue_dat_read_f32(dat, off + 8, &h->frame_count);
    if (!(h->frame_count >= 0.0f && h->frame_count <= (float)UE_HSD_MAX_FRAMES)) {
        ue_violation(c, "hsd.figatree.frames", hsd_file_at(off + 8), path,
                     "frame count %g is not a count 0..%u", (double)h->frame_count, UE_HSD_MAX_FRAMES);
        return false;
    }
    char sub[PATH_CAP + 16];
    snprintf(sub, sizeof sub, "%s/counts", path);
    if (follow(dat, c, off + 0x0C, sub, &h->counts_offset) && !count_nodes(dat, c, sub, b, h)) return false;
    snprintf(sub, sizeof sub, "%s/tracks", path);
    bool tracks = follow(dat, c, off + 0x10, sub, &h->tracks_offset);
    if (c->failure != UE_OK && c->mode == UE_MODE_STRICT) return false;
    if (h->track_count && (!tracks || (uint64_t)h->tracks_offset + (uint64_t)h->track_count * HSD_FIGATREE_TRACK >
                                          dat->data_size)) {
        ue_violation(c, "hsd.figatree.tracks", hsd_file_at(off + 0x10), sub,
                     "%u tracks of 0x%x bytes at data offset 0x%x do not fit the 0x%x-byte data block",
                     h->track_count, HSD_FIGATREE_TRACK, h->tracks_offset, dat->data_size);
        return false;
    }
    return true;
}

void hsd_figatree_clip_name(const char *root_name, char *out, size_t cap) {
    static const char action[] = "_ACTION_", suffix[] = "_figatree";
    const char *start = root_name ? root_name : "";
    for (const char *p = strstr(start, action); p; p = strstr(p + 1, action)) start = p + strlen(action);
    size_t len = strlen(start), s = strlen(suffix);
    if (len > s && strcmp(start + len - s, suffix) == 0) len -= s;
    char raw[256];
    snprintf(raw, sizeof raw, "%.*s", (int)(len < sizeof raw ? len : sizeof raw - 1), start);
    hsd_name_utf8(raw, out, cap);
}

/* ---- info ------------------------------------------------------------------------------------ */

/* FigaTrees already read in one DAT: data offset → a row of the caller's (-1: not usable), so
 * roots naming one struct cost one read. */
typedef struct figa_seen {
    hsd_reader r;
} figa_seen;

static figa_seen seen_begin(const ue_dat *dat) {
    figa_seen v;
    memset(&v, 0, sizeof v);
    v.r.c = ue_parse_begin(UE_MODE_STRICT, NULL);
    v.r.dat = dat;
    return v;
}

static bool seen_find(const figa_seen *v, uint32_t off, int32_t *row) {
    return hsd_map_find(&v->r.map, HSD_K_FIGATREE, off, row);
}

static bool seen_put(figa_seen *v, uint32_t off, int32_t row) { return hsd_map_put(&v->r, HSD_K_FIGATREE, off, row); }

static void seen_end(figa_seen *v) { hsd_map_free(&v->r.map); }

static bool figatree_root(const ue_dat_symbol *root) {
    return !root->damaged && ue_hsd_root_kind_of(root->name) == UE_HSD_ROOT_FIGATREE;
}

/* Calls `fn` for each FigaTree root whose header reads (no diagnostics); each struct is read
 * once, later roots naming it reuse its header. */
static void each_clip(const ue_dat *dat, void (*fn)(const ue_dat_symbol *, const hsd_figatree_head *, void *),
                      void *arg) {
    hsd_figatree_head *heads = ue_calloc_items(dat->root_count, sizeof *heads);
    figa_seen seen = seen_begin(dat);
    hsd_figatree_budget b = hsd_figatree_budget_of(dat);
    for (size_t i = 0; heads && i < dat->root_count; i++) {
        const ue_dat_symbol *root = &dat->roots[i];
        int32_t row = -1;
        if (!figatree_root(root)) continue;
        if (!seen_find(&seen, root->data_offset, &row)) {
            ue_parse_ctx c = ue_parse_begin(UE_MODE_STRICT, NULL);
            row = hsd_figatree_head_read(dat, root->data_offset, &c, "", &b, &heads[i]) ? (int32_t)i : -1;
            if (!seen_put(&seen, root->data_offset, row)) break;
        }
        if (row >= 0) fn(root, &heads[row], arg);
    }
    seen_end(&seen);
    free(heads);
}

typedef struct clip_writer {
    ue_json *w;
    int64_t bank_entry;
} clip_writer;

static void clip_json(const ue_dat_symbol *root, const hsd_figatree_head *h, void *arg) {
    const clip_writer *c = arg;
    char name[128], full[256];
    hsd_figatree_clip_name(root->name, name, sizeof name);
    hsd_name_utf8(root->name, full, sizeof full);
    ue_json_object_begin(c->w);
    if (c->bank_entry >= 0) ue_json_key_int(c->w, "entry", c->bank_entry);
    ue_json_key_string(c->w, "clip", name);
    ue_json_key_real(c->w, "frames", h->frame_count);
    ue_json_key_int(c->w, "joints", h->joint_count);
    ue_json_key_string(c->w, "root", full);
    ue_json_object_end(c->w);
}

void hsd_figatree_write_clips(const ue_dat *dat, int64_t bank_entry, ue_json *w) {
    clip_writer c = {w, bank_entry};
    each_clip(dat, clip_json, &c);
}

static void clip_text(const ue_dat_symbol *root, const hsd_figatree_head *h, void *arg) {
    char name[128];
    hsd_figatree_clip_name(root->name, name, sizeof name);
    ue_buf_printf(arg, "  clip %s: %g frames, %u joints\n", name, (double)h->frame_count, h->joint_count);
}

void hsd_figatree_clips_text(const ue_dat *dat, ue_buf *b) { each_clip(dat, clip_text, b); }

/* ---- reading clips into a model's anims ------------------------------------------------------ */

/* The anims arrays being appended to, with capacities of their own (the reader's are gone), and
 * the key-stream bytes one DAT may still decode: tracks may share key bytes, so without this a
 * small file could make the decoder run quadratically. */
typedef struct figa_sink {
    ue_hsd_anims *a; /* NULL: check only, nothing kept */
    size_t cap_clips, cap_targets, cap_aobjs, cap_tracks, cap_keys;
    hsd_figatree_budget *budget;
} figa_sink;

static figa_sink sink_on(ue_hsd_anims *a, hsd_figatree_budget *b) {
    figa_sink s = {a, a->clip_count, a->target_count, a->aobj_count, a->track_count, a->key_count, b};
    return s;
}

static bool reserve(void *items, size_t *cap, size_t need, size_t elem) {
    return ue_array_reserve(items, cap, need, elem, INT32_MAX) == UE_OK;
}

/* Track `t` at data offset `off`: u16 length, s16 start frame, type, value and slope formats, pad,
 * P key bytes; its keys decoded into the sink. False only when memory ran out. */
static bool read_track(figa_sink *s, const ue_dat *dat, ue_parse_ctx *c, uint32_t off, const char *path) {
    ue_hsd_track t = {0};
    const uint8_t *p = dat->data + off;
    t.offset = off;
    t.length = ue_load_u16be(p);
    t.start_frame = (float)(int16_t)ue_load_u16be(p + 2);
    t.type = p[4], t.value_format = p[5], t.slope_format = p[6];
    t.first_key = s->a ? (uint32_t)s->a->key_count : 0;
    char sub[PATH_CAP + 8];
    snprintf(sub, sizeof sub, "%s/data", path);
    bool keys = follow(dat, c, off + 8, sub, &t.data_offset);
    if (!keys && t.length) ue_violation(c, "hsd.figatree.track", hsd_file_at(off + 8), sub, "track claims 0x%x key bytes but has no data pointer", t.length);
    if (keys && t.length > dat->data_size - t.data_offset) {
        ue_violation(c, "hsd.figatree.track", hsd_file_at(off), sub,
                     "track of 0x%x key bytes at data offset 0x%x runs past the 0x%x-byte data block",
                     t.length, t.data_offset, dat->data_size);
        t.length = dat->data_size - t.data_offset;
    }
    if (keys && t.length > s->budget->key_bytes) {
        over_budget(c, off, path, "key streams");
        keys = false;
    }
    if (keys) {
        s->budget->key_bytes -= t.length;
        t.data = dat->data + t.data_offset;
        ue_hsd_key *decoded = NULL;
        size_t n = 0;
        ue_result e = ue_hsd_keys_decode(t.data, t.length, t.value_format, t.slope_format, c->mode, &decoded, &n,
                                         c->d, sub, hsd_file_at(t.data_offset));
        if (e == UE_ERR_NOMEM) return false;
        if (e != UE_OK) ue_damage_reported(c);
        if (!s->a) {
            free(decoded);
            return true;
        }
        bool room = !n || reserve(&s->a->keys, &s->cap_keys, s->a->key_count + n, sizeof *decoded);
        if (room && n) memcpy(s->a->keys + s->a->key_count, decoded, n * sizeof *decoded);
        s->a->key_count += room ? n : 0;
        t.key_count = room ? (uint32_t)n : 0;
        free(decoded);
        if (!room) return false;
    }
    if (!s->a) return true;
    if (!reserve(&s->a->tracks, &s->cap_tracks, s->a->track_count + 1, sizeof t)) return false;
    s->a->tracks[s->a->track_count++] = t;
    return true;
}

/* Node k's `n` tracks at data offset `at`. False only when memory ran out. */
static bool read_tracks(figa_sink *s, const ue_dat *dat, ue_parse_ctx *c, uint32_t at, uint32_t n, uint32_t k,
                        const char *path) {
    for (uint32_t i = 0; i < n; i++) {
        char sub[PATH_CAP + 40];
        snprintf(sub, sizeof sub, "%s/joint[%u]/track[%u]", path, k, i);
        if (!read_track(s, dat, c, at + i * HSD_FIGATREE_TRACK, sub)) return false;
    }
    return true;
}

/* Node k's run of tracks as one AObj (end frame = the clip's frame count) on a JOINT target
 * bound to joint `first_joint + k`; `joint_flags` (may be NULL) gives CLASSICAL_SCALE, which a
 * FigaTree does not override. Nodes without tracks get no target. */
static bool read_nodes(figa_sink *s, const ue_dat *dat, ue_parse_ctx *c, const hsd_figatree_head *h,
                       const ue_hsd_joint *joints, int32_t first_joint, const char *path) {
    uint32_t track = 0;
    for (uint32_t k = 0; k < h->joint_count && !(c->failure != UE_OK && c->mode == UE_MODE_STRICT); k++) {
        uint32_t n = dat->data[h->counts_offset + k];
        if (n == 0) continue;
        if (n > s->budget->rows) {
            over_budget(c, h->tracks_offset, path, "track rows");
            return true;
        }
        s->budget->rows -= n;
        uint32_t at = h->tracks_offset + track * HSD_FIGATREE_TRACK;
        track += n;
        if (!s->a) {
            if (!read_tracks(s, dat, c, at, n, k, path)) return false;
            continue;
        }
        ue_hsd_anims *a = s->a;
        if (!reserve(&a->aobjs, &s->cap_aobjs, a->aobj_count + 1, sizeof *a->aobjs) ||
            !reserve(&a->targets, &s->cap_targets, a->target_count + 1, sizeof *a->targets))
            return false;
        ue_hsd_aobj ao = {at, 0, h->frame_count, (uint32_t)a->track_count, 0, 0};
        if (!read_tracks(s, dat, c, at, n, k, path)) return false;
        ao.track_count = (uint32_t)a->track_count - ao.first_track;
        a->aobjs[a->aobj_count] = ao;
        int32_t joint = first_joint + (int32_t)k;
        bool classical = joints && (joints[joint].flags & UE_JOBJ_CLASSICAL_SCALE);
        a->targets[a->target_count++] = (ue_hsd_anim_target){UE_HSD_ANIM_JOINT, h->counts_offset + k, joint,
                                                              UE_HSD_NONE, UE_HSD_NONE, (int32_t)a->aobj_count++,
                                                              classical ? 1u : 0u, 0, 0, 0, 0, 0};
    }
    return true;
}

/* One clip: its tracks read and, when `set` is given, the clip appended to the sink. */
static ue_result read_clip(figa_sink *s, const ue_dat *dat, ue_parse_ctx *c, const ue_dat_symbol *root,
                           const hsd_figatree_head *h, const ue_hsd_joint *joints, int32_t first_joint,
                           uint32_t set, const char *path) {
    ue_hsd_clip clip = {set, 0, false, root->name, h->offset, h->frame_count, (uint32_t)s->a->target_count, 0, true};
    if (!read_nodes(s, dat, c, h, joints, first_joint, path)) return UE_ERR_NOMEM;
    clip.target_count = (uint32_t)s->a->target_count - clip.first_target;
    if (!reserve(&s->a->clips, &s->cap_clips, s->a->clip_count + 1, sizeof clip)) return UE_ERR_NOMEM;
    s->a->clips[s->a->clip_count++] = clip;
    return UE_OK;
}

bool hsd_figatree_check(const ue_dat *dat, uint32_t off, ue_parse_ctx *c, hsd_figatree_budget *b,
                        const char *path) {
    hsd_figatree_head h;
    if (!hsd_figatree_head_read(dat, off, c, path, b, &h)) return true;
    figa_sink s = {NULL, 0, 0, 0, 0, 0, b};
    return read_nodes(&s, dat, c, &h, NULL, 0, path);
}

/* ---- convert: the clips of the model's DAT and of --anims files ------------------------------ */

/* The set FigaTree clips bind to: the first `*_joint` set (a fighter's skeleton), else the first;
 * its joints are the rows from its root up to the next set's root. */
typedef struct figa_target {
    uint32_t set;
    int32_t first_joint;
    uint32_t joint_count;
} figa_target;

static figa_target target_set(const ue_hsd_model *m) {
    figa_target t = {0, 0, 0};
    for (size_t s = 0; s < m->set_count; s++)
        if (ue_hsd_root_kind_of(m->sets[s].root_name) == UE_HSD_ROOT_JOINT) {
            t.set = (uint32_t)s;
            break;
        }
    if (m->set_count == 0) return t;
    t.first_joint = m->sets[t.set].root_joint;
    size_t end = m->joint_count;
    for (size_t s = 0; s < m->set_count; s++)
        if (m->sets[s].root_joint > t.first_joint && (size_t)m->sets[s].root_joint < end)
            end = (size_t)m->sets[s].root_joint;
    t.joint_count = (uint32_t)(end - (size_t)t.first_joint);
    return t;
}

/* What the clips of one file came to: how many were bound, and the joint counts of those left
 * out (the first two kinds, for the message). */
typedef struct figa_tally {
    size_t bound, left_out;
    uint32_t other_counts[2];
} figa_tally;

static void note_left_out(figa_tally *t, uint32_t joints) {
    t->left_out++;
    if (t->other_counts[0] == joints || t->other_counts[1] == joints) return;
    t->other_counts[t->other_counts[0] ? 1 : 0] = joints;
}

/* Root `root` naming a FigaTree read before as clip `row`: a clip of its own name on the same
 * targets, nothing read again. */
static ue_result reuse_clip(figa_sink *s, const ue_dat_symbol *root, int32_t row) {
    ue_hsd_clip clip = s->a->clips[row];
    clip.root_name = root->name;
    if (!reserve(&s->a->clips, &s->cap_clips, s->a->clip_count + 1, sizeof clip)) return UE_ERR_NOMEM;
    s->a->clips[s->a->clip_count++] = clip;
    return UE_OK;
}

/* The FigaTree root `i` bound to the target set: read, or left out (row -1). */
static ue_result attach_root(figa_sink *s, const ue_hsd_model *m, const figa_target *tg, const ue_dat *dat,
                             size_t i, ue_parse_ctx *c, figa_tally *tally, int32_t *row) {
    const ue_dat_symbol *root = &dat->roots[i];
    char path[PATH_CAP], name[128];
    snprintf(path, sizeof path, "dat/root[%zu]/figatree", i);
    hsd_figatree_head h;
    *row = -1;
    if (!hsd_figatree_head_read(dat, root->data_offset, c, path, s->budget, &h)) return UE_OK;
    hsd_figatree_clip_name(root->name, name, sizeof name);
    if (h.joint_count != tg->joint_count) {
        note_left_out(tally, h.joint_count);
        ue_diag_add(c->d, UE_SEV_WARNING, "hsd.figatree.joints", hsd_file_at(root->data_offset), path,
                    "clip %s animates %u joints, the model has %u: left out (a clip of another "
                    "skeleton)", name, h.joint_count, tg->joint_count);
        return UE_OK;
    }
    *row = (int32_t)s->a->clip_count;
    return read_clip(s, dat, c, root, &h, m->joints, tg->first_joint, tg->set, path);
}

/* Every FigaTree root of `dat` bound to the target set; roots naming one struct share what its
 * first reading made. Offsets are the DAT's own; d's prefix says which file and entry. */
static ue_result attach_dat(figa_sink *s, const ue_hsd_model *m, const figa_target *tg, const ue_dat *dat,
                            ue_mode mode, figa_tally *tally, ue_diag *d) {
    ue_parse_ctx c = ue_parse_begin(mode, d);
    hsd_figatree_budget budget = hsd_figatree_budget_of(dat);
    s->budget = &budget;
    figa_seen seen = seen_begin(dat);
    ue_result r = UE_OK;
    for (size_t i = 0; i < dat->root_count && r == UE_OK; i++) {
        const ue_dat_symbol *root = &dat->roots[i];
        int32_t row = -1;
        if (!figatree_root(root)) continue;
        if (seen_find(&seen, root->data_offset, &row)) {
            r = row >= 0 ? reuse_clip(s, root, row) : UE_OK;
        } else {
            r = attach_root(s, m, tg, dat, i, &c, tally, &row);
            if (r == UE_OK && !seen_put(&seen, root->data_offset, row)) r = UE_ERR_NOMEM;
        }
        if (r == UE_OK && row >= 0) tally->bound++;
    }
    seen_end(&seen);
    s->budget = NULL;
    return r != UE_OK ? r : c.failure;
}

/* Keeps `dat` (taken over) in the list the clips point into. */
static ue_result keep_dat(hsd_figatree_files *files, ue_dat *dat) {
    if (ue_array_make_room((void **)&files->dats, files->count, sizeof *dat, INT32_MAX) != UE_OK) {
        ue_dat_free(dat);
        return UE_ERR_NOMEM;
    }
    files->dats[files->count++] = *dat;
    return UE_OK;
}

/* One DAT of an --anims file (the whole file, or entry `index` of its bank at `at`), parsed,
 * kept and attached; diagnostics carry "FILE:entry[i]" and offsets in the file. */
static ue_result attach_bytes(figa_sink *s, const ue_hsd_model *m, const figa_target *tg, const uint8_t *p,
                              size_t n, const char *label, uint64_t at, ue_mode mode, hsd_figatree_files *files,
                              figa_tally *tally, ue_diag *d) {
    uint64_t saved_base = d ? d->base_offset : 0;
    char saved[sizeof d->path_prefix];
    if (d) {
        memcpy(saved, d->path_prefix, sizeof saved);
        snprintf(d->path_prefix, sizeof d->path_prefix, "%s", label);
        d->base_offset = saved_base + at;
    }
    ue_dat dat;
    ue_result r = ue_dat_parse(p, n, mode, &dat, d);
    if (r == UE_OK) r = keep_dat(files, &dat);
    if (r == UE_OK) r = attach_dat(s, m, tg, &files->dats[files->count - 1], mode, tally, d);
    if (d) {
        d->base_offset = saved_base;
        memcpy(d->path_prefix, saved, sizeof saved);
    }
    return r;
}

/* A bank (two or more DATs in a chain) or else one DAT. */
static ue_result attach_file(figa_sink *s, const ue_hsd_model *m, const figa_target *tg, const char *address,
                             const uint8_t *p, size_t n, ue_mode mode, hsd_figatree_files *files,
                             figa_tally *tally, ue_diag *d) {
    char label[96];
    if (!ue_dat_bank_probe(p, n < 256 ? n : 256, n)) {
        snprintf(label, sizeof label, "%s", address);
        return attach_bytes(s, m, tg, p, n, label, 0, mode, files, tally, d);
    }
    ue_source src = ue_source_memory(p, n);
    ue_dat_bank_entry *e = NULL;
    size_t count = 0;
    ue_result r = ue_dat_bank_scan(&src, mode, &e, &count, d);
    for (size_t i = 0; i < count && r == UE_OK; i++) {
        snprintf(label, sizeof label, "%s:entry[%zu]", address, i);
        r = attach_bytes(s, m, tg, p + e[i].offset, e[i].size, label, e[i].offset, mode, files, tally, d);
    }
    free(e);
    return r;
}

/* The file's verdict: no clip, or none that fits the model, is an error naming both counts. */
static ue_result judge_file(const char *address, const figa_tally *t, uint32_t joints, ue_diag *d) {
    if (t->bound) return UE_OK;
    if (!t->left_out) {
        ue_diag_add(d, UE_SEV_ERROR, "hsd.figatree.none", UE_NO_OFFSET, address,
                    "--anims %s holds no FigaTree clip (no *_figatree root)", address);
        return UE_ERR_INVALID;
    }
    char counts[32];
    if (t->other_counts[1]) snprintf(counts, sizeof counts, "%u and %u", t->other_counts[0], t->other_counts[1]);
    else snprintf(counts, sizeof counts, "%u", t->other_counts[0]);
    ue_diag_add(d, UE_SEV_ERROR, "hsd.figatree.joints", UE_NO_OFFSET, address,
                "the FigaTree clips of %s animate %s joints, the model has %u: clips bind by joint "
                "index, so the counts must match", address, counts, joints);
    return UE_ERR_INVALID;
}

static ue_result attach_option(figa_sink *s, const ue_hsd_model *m, const figa_target *tg, const char *address,
                               ue_mode mode, hsd_figatree_files *files, ue_diag *d) {
    uint8_t *p = NULL;
    size_t n = 0;
    ue_result r = ue_archive_read_address(address, mode, UE_CAP_ENTRY_BYTES, &p, &n, d);
    figa_tally tally = {0, 0, {0, 0}};
    if (r == UE_OK) r = attach_file(s, m, tg, address, p, n, mode, files, &tally, d);
    if (r == UE_OK) r = judge_file(address, &tally, tg->joint_count, d);
    if (r == UE_OK) s->a->attached_bytes += n;
    free(p);
    return r;
}

ue_result hsd_figatree_attach_all(ue_hsd_model *m, const ue_model_options *opts, ue_mode mode,
                                  hsd_figatree_files *files, ue_diag *d) {
    memset(files, 0, sizeof *files);
    if (m->set_count == 0) return UE_OK;
    figa_target tg = target_set(m);
    figa_sink s = sink_on(&m->anims, NULL);
    figa_tally own = {0, 0, {0, 0}};
    ue_result r = m->dat ? attach_dat(&s, m, &tg, m->dat, mode, &own, d) : UE_OK;
    for (size_t i = 0; opts && i < opts->count && r == UE_OK; i++)
        if (strcmp(opts->items[i].key, "anims") == 0) r = attach_option(&s, m, &tg, opts->items[i].value, mode, files, d);
    return r;
}

void hsd_figatree_files_free(hsd_figatree_files *files) {
    for (size_t i = 0; i < files->count; i++) ue_dat_free(&files->dats[i]);
    free(files->dats);
    memset(files, 0, sizeof *files);
}
