/* unearth — HSD .dat as a model format of the registry (model_format.h): probe, conversion to the
 * scene IR, statistics, validation of every structure and the lossless DAT round trip. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "common/json_writer.h"
#include "common/parse.h"
#include "common/text.h"
#include "hsd/hsd_figatree.h"
#include "hsd/hsd_int.h"
#include "hsd/hsd_material.h"
#include "hsd/hsd_read_anim.h"
#include "hsd/hsd_roots.h"
#include "hsd/hsd_to_scene.h"
#include "unearth/hsd_model.h"

/* ---- probe ---------------------------------------------------------------------------------- */

static bool model_root_kind(ue_hsd_root_kind k) { return k == UE_HSD_ROOT_SCENE_DATA || k == UE_HSD_ROOT_JOINT; }

/* The root's name when it is a NUL-terminated string inside [strings, size). */
static const char *probe_root_name(const uint8_t *data, size_t size, uint64_t strings, uint32_t name_off) {
    uint64_t at = strings + name_off;
    if (at >= size) return NULL;
    const void *nul = memchr(data + at, 0, size - (size_t)at);
    return nul ? (const char *)(data + at) : NULL;
}

bool ue_hsd_probe(const uint8_t *data, size_t size) {
    if (!data || size < UE_DAT_HEADER || size > UINT32_MAX) return false;
    uint32_t file_size = ue_load_u32be(data), data_size = ue_load_u32be(data + 4);
    uint32_t nb_reloc = ue_load_u32be(data + 8), nb_public = ue_load_u32be(data + 12);
    uint32_t nb_extern = ue_load_u32be(data + 16);
    if (file_size != size || nb_public == 0) return false;
    /* Every region inside the file, computed in 64 bits so no count can wrap. */
    uint64_t strings = (uint64_t)UE_DAT_HEADER + data_size + 4ull * nb_reloc + 8ull * nb_public + 8ull * nb_extern;
    if (strings > size) return false;
    uint64_t roots = (uint64_t)UE_DAT_HEADER + data_size + 4ull * nb_reloc;
    for (uint32_t i = 0; i < nb_public; i++) {
        const uint8_t *e = data + roots + 8ull * i;
        if (ue_load_u32be(e) >= data_size) continue;
        const char *name = probe_root_name(data, size, strings, ue_load_u32be(e + 4));
        if (name && model_root_kind(ue_hsd_root_kind_of(name))) return true;
    }
    return false;
}

bool ue_hsd_probe_named(const char *name, const uint8_t *data, size_t size) {
    if (ue_hsd_probe(data, size)) return true;
    if (!ue_name_has_ext(name, ".dat") || !data || size < UE_DAT_HEADER) return false;
    uint32_t file_size = ue_load_u32be(data), data_size = ue_load_u32be(data + 4);
    uint32_t nb_reloc = ue_load_u32be(data + 8), nb_public = ue_load_u32be(data + 12);
    uint32_t nb_extern = ue_load_u32be(data + 16);
    if (file_size <= size || nb_public == 0 || nb_public > 0x10000) return false;
    uint64_t strings = (uint64_t)UE_DAT_HEADER + data_size + 4ull * nb_reloc + 8ull * nb_public + 8ull * nb_extern;
    return strings <= file_size;
}

/* ---- reading -------------------------------------------------------------------------------- */

/* Parses the DAT and reads its model tables; both are freed by model_close. */
static ue_result model_open(const uint8_t *data, size_t size, ue_mode mode, ue_dat *dat, ue_hsd_model *m,
                            ue_diag *d) {
    memset(m, 0, sizeof *m);
    ue_result r = ue_dat_parse(data, size, mode, dat, d);
    if (r != UE_OK) return r;
    return ue_hsd_model_read(dat, mode, m, d);
}

static void model_close(ue_dat *dat, ue_hsd_model *m) {
    ue_hsd_model_free(m);
    ue_dat_free(dat);
}

/* The model with the FigaTree clips of its own DAT and of every "anims" option (convert --anims). */
static ue_result hsd_to_scene(const uint8_t *data, size_t size, const char *name, ue_mode mode,
                              const ue_model_options *opts, ue_scene *s, ue_diag *d) {
    ue_dat dat;
    ue_hsd_model m;
    hsd_figatree_files clips = {NULL, 0};
    ue_result r = model_open(data, size, mode, &dat, &m, d);
    if (r == UE_OK) r = hsd_figatree_attach_all(&m, opts, mode, &clips, d);
    if (r == UE_OK) r = hsd_model_to_scene(&m, name, mode, s, d);
    model_close(&dat, &m);
    hsd_figatree_files_free(&clips);
    return r;
}

static const ue_model_option_def hsd_options[] = {
    {"anims", "a bank of DATs or a DAT (FILE or ARCHIVE:ENTRY) whose FigaTree clips join the model's; repeatable"},
};

/* ---- statistics ------------------------------------------------------------------------------ */

typedef struct hsd_stats {
    size_t vertices, triangles, decoded_pobjs;
} hsd_stats;

/* Where each PObj is first reached, as joint, DObj position and chain position (-1 for one no
 * DObj reaches). A chain entered mid-way stops at the first PObj already placed, whose rest was
 * placed with it, so the walk is linear in the tables. */
typedef struct pobj_owner {
    int32_t joint, dobj_pos, pobj_pos;
} pobj_owner;

static void place_chain(const ue_hsd_model *m, int32_t po, int32_t j, int32_t k, pobj_owner *own) {
    for (int32_t p = 0; po >= 0 && (size_t)po < m->pobj_count && own[po].joint < 0; p++) {
        own[po] = (pobj_owner){j, k, p};
        po = m->pobjs[po].next;
    }
}

static pobj_owner *pobj_owners(const ue_hsd_model *m) {
    pobj_owner *own = ue_malloc_items(m->pobj_count, sizeof *own);
    if (!own) return NULL;
    for (size_t i = 0; i < m->pobj_count; i++) own[i] = (pobj_owner){-1, -1, -1};
    for (size_t j = 0; j < m->joint_count; j++) {
        int32_t dobj = m->joints[j].first_dobj;
        for (size_t k = 0; dobj >= 0 && (size_t)dobj < m->dobj_count && k < m->dobj_count; k++) {
            place_chain(m, m->dobjs[dobj].first_pobj, (int32_t)j, (int32_t)k, own);
            dobj = m->dobjs[dobj].next;
        }
    }
    return own;
}

/* Decodes every PObj (validate's "every structure"): counts what decodes. Diagnostics name the
 * PObj by its owner's path, as the reader does. */
static ue_result decode_all(const ue_hsd_model *m, ue_mode mode, hsd_stats *st, ue_diag *d) {
    ue_result first = UE_OK;
    pobj_owner *own = pobj_owners(m);
    if (!own) return UE_ERR_NOMEM;
    for (size_t i = 0; i < m->pobj_count; i++) {
        char path[160];
        if (own[i].joint >= 0)
            snprintf(path, sizeof path, "dat/joint[%d]/dobj[%d]/pobj[%d]", own[i].joint, own[i].dobj_pos,
                     own[i].pobj_pos);
        else snprintf(path, sizeof path, "dat/pobj[%zu]", i);
        ue_hsd_geometry g;
        memset(&g, 0, sizeof g);
        ue_result r = hsd_pobj_decode_at(m, i, path, mode, &g, d);
        if (r == UE_OK) {
            st->decoded_pobjs++;
            st->vertices += g.vertex_count;
            st->triangles += g.index_count / 3;
        } else if (first == UE_OK) {
            first = r;
        }
        ue_hsd_geometry_free(&g);
        if (r == UE_ERR_NOMEM) {
            free(own);
            return r;
        }
    }
    free(own);
    return first;
}

/* Every root's kind by name and structure (hsd_roots.h); NULL when memory ran out. */
static ue_hsd_root_kind *root_kinds(const ue_dat *dat) {
    ue_hsd_root_kind *k = ue_malloc_items(dat->root_count, sizeof *k);
    if (k && hsd_roots_classify(dat, k) != UE_OK) {
        free(k);
        return NULL;
    }
    return k;
}

/* "camera", or "unknown: not a camera" when the struct does not have the shape its name announces. */
static void kind_text(const ue_dat_symbol *r, ue_hsd_root_kind kind, char *out, size_t cap) {
    ue_hsd_root_kind named = ue_hsd_root_kind_of(r->name);
    if (kind == named) snprintf(out, cap, "%s", ue_hsd_root_kind_name(kind));
    else snprintf(out, cap, "unknown: not a %s", ue_hsd_root_kind_name(named));
}

static void write_roots(const ue_dat *dat, ue_json *w) {
    ue_hsd_root_kind *kinds = root_kinds(dat);
    ue_json_key(w, "roots");
    ue_json_array_begin(w);
    for (size_t i = 0; kinds && i < dat->root_count; i++) {
        const ue_dat_symbol *r = &dat->roots[i];
        ue_json_object_begin(w);
        ue_json_key_string_or_null(w, "name", r->name);
        ue_json_key_string(w, "kind", ue_hsd_root_kind_name(kinds[i]));
        ue_json_key_string(w, "named", ue_hsd_root_kind_name(ue_hsd_root_kind_of(r->name)));
        ue_json_key_int(w, "offset", (int64_t)r->data_offset + UE_DAT_HEADER);
        ue_json_object_end(w);
    }
    ue_json_array_end(w);
    free(kinds);
}

static void write_clips(const ue_dat *dat, ue_json *w) {
    ue_json_key(w, "figatree_clips");
    ue_json_array_begin(w);
    hsd_figatree_write_clips(dat, -1, w);
    ue_json_array_end(w);
}

/* The statistics `info --json` shows: the counts, the roots, the clips of each kind. */
static ue_result model_stats(const ue_dat *dat, const ue_hsd_model *m, ue_buf *stats) {
    ue_json w;
    ue_json_init_record(&w, stats);
    ue_json_object_begin(&w);
    ue_json_key_int(&w, "models", (int64_t)m->set_count);
    ue_json_key_int(&w, "joints", (int64_t)m->joint_count);
    ue_json_key_int(&w, "meshes", (int64_t)m->dobj_count);
    ue_json_key_int(&w, "pobjs", (int64_t)m->pobj_count);
    ue_json_key_int(&w, "materials", (int64_t)m->mobj_count);
    ue_json_key_int(&w, "textures", (int64_t)m->tobj_count);
    ue_json_key_int(&w, "images", (int64_t)m->image_count);
    ue_json_key_int(&w, "envelopes", (int64_t)m->envelope_count);
    write_roots(dat, &w);
    ue_json_key(&w, "animations");
    hsd_anims_write(m, &w);
    write_clips(dat, &w);
    ue_json_object_end(&w);
    return ue_json_finish(&w, NULL) == UE_OK ? UE_OK : UE_ERR_NOMEM;
}

/* The DAT's header counts and one line per root: the part of `info` every DAT has. */
static void dat_text(const ue_dat *dat, ue_buf *b) {
    ue_buf_printf(b, "  DAT: %u bytes, data %u, %u relocations, %u roots\n", dat->file_size, dat->data_size,
                dat->nb_reloc, dat->nb_public);
    ue_hsd_root_kind *kinds = root_kinds(dat);
    for (size_t i = 0; kinds && i < dat->root_count; i++) {
        const ue_dat_symbol *r = &dat->roots[i];
        char name[128], kind[48];
        hsd_name_utf8(r->name ? r->name : "(unnamed)", name, sizeof name);
        kind_text(r, kinds[i], kind, sizeof kind);
        ue_buf_printf(b, "  root %zu: %s (%s) @0x%X\n", i, name, kind, (unsigned)(r->data_offset + UE_DAT_HEADER));
    }
    free(kinds);
}

static void info_text(const ue_dat *dat, const ue_hsd_model *m, ue_buf *b) {
    dat_text(dat, b);
    ue_buf_printf(b, "  models %zu, joints %zu, meshes %zu (%zu PObjs), materials %zu, textures %zu (%zu images)\n",
                m->set_count, m->joint_count, m->dobj_count, m->pobj_count, m->mobj_count, m->tobj_count,
                m->image_count);
}

static ue_result hsd_info(const uint8_t *data, size_t size, ue_mode mode, ue_buf *stats, ue_buf *text, ue_diag *d) {
    ue_dat dat;
    ue_hsd_model m;
    ue_result r = model_open(data, size, mode, &dat, &m, d);
    if (r == UE_OK) {
        if (stats) {
            r = model_stats(&dat, &m, stats);
        }
        if (text) {
            info_text(&dat, &m, text);
            hsd_anims_text(&m, text);
            hsd_figatree_clips_text(&dat, text);
        }
    }
    model_close(&dat, &m);
    return r;
}

/* ---- validate and roundtrip ---------------------------------------------------------------- */

/* The validate report's statistics: nodes, batches, vertices, triangles (`counts`), and for a DAT
 * without a model its relocations and roots under "dat". */
static ue_result validate_stats(const size_t counts[4], const ue_dat *dat, ue_buf *stats) {
    static const char *const keys[4] = {"nodes", "batches", "vertices", "triangles"};
    ue_json w;
    ue_json_init_record(&w, stats);
    ue_json_object_begin(&w);
    for (size_t i = 0; i < 4; i++) ue_json_key_int(&w, keys[i], (int64_t)counts[i]);
    if (dat) {
        ue_json_key(&w, "dat");
        ue_json_object_begin(&w);
        ue_json_key_int(&w, "relocations", (int64_t)dat->reloc_raw_count);
        write_roots(dat, &w);
        ue_json_object_end(&w);
    }
    ue_json_object_end(&w);
    return ue_json_finish(&w, NULL);
}

/* The table sizes of a model, without its tables (which die with the DAT). */
static ue_hsd_model counts_only(const ue_hsd_model *m) {
    ue_hsd_model c;
    memset(&c, 0, sizeof c);
    c.set_count = m->set_count, c.joint_count = m->joint_count, c.dobj_count = m->dobj_count;
    c.pobj_count = m->pobj_count, c.mobj_count = m->mobj_count, c.tobj_count = m->tobj_count;
    c.image_count = m->image_count, c.envelope_count = m->envelope_count;
    return c;
}

/* A model validate read, for to_scene (model_format.h, ue_model_read_once): the DAT and its
 * tables, and the reports of reading them, which to_scene makes again before its own. */
typedef struct hsd_kept {
    ue_dat dat;
    ue_hsd_model model;
    ue_diag read;
} hsd_kept;

/* model_open into a new hsd_kept, its reports in `d` and kept for to_scene; NULL when the read
 * fails. The model points at its DAT: both are read where they stay. */
static ue_result open_kept(const uint8_t *data, size_t size, ue_mode mode, ue_diag *d, hsd_kept **keep) {
    *keep = calloc(1, sizeof **keep);
    if (!*keep) return UE_ERR_NOMEM;
    ue_result r = model_open(data, size, mode, &(*keep)->dat, &(*keep)->model, &(*keep)->read);
    ue_diag_replay(d, &(*keep)->read);
    if (r != UE_OK) {
        model_close(&(*keep)->dat, &(*keep)->model);
        ue_diag_free(&(*keep)->read);
        free(*keep);
        *keep = NULL;
    }
    return r;
}

/* Reading, the bind pose and every PObj's display list, in `mode`; *counts gets the sizes.
 * With `keep`, the model read is handed back (NULL when reading failed). */
static ue_result check_all(const uint8_t *data, size_t size, ue_mode mode, ue_hsd_model *counts, hsd_stats *st,
                           ue_diag *d, hsd_kept **keep) {
    ue_dat own_dat;
    ue_hsd_model own_model;
    ue_dat *dat = &own_dat;
    ue_hsd_model *m = &own_model;
    ue_result r;
    if (keep) {
        r = open_kept(data, size, mode, d, keep);
        if (*keep) dat = &(*keep)->dat, m = &(*keep)->model;
    } else {
        r = model_open(data, size, mode, dat, m, d);
    }
    if (r == UE_OK) {
        hsd_pose pose;
        r = hsd_pose_compute(m, mode, &pose, d);
        hsd_pose_free(&pose);
        ue_result rd = decode_all(m, mode, st, d);
        if (r == UE_OK) r = rd;
        /* the roots the model reader does not walk: cameras, lights, fog, FigaTrees, … */
        ue_result rr = hsd_roots_check(dat, mode, true, d);
        if (r == UE_OK) r = rr;
        *counts = counts_only(m);
    }
    if (!keep) model_close(dat, m);
    return r;
}

static void hsd_kept_free(ue_model_kept *kept) {
    hsd_kept *k = (hsd_kept *)kept;
    if (!k) return;
    model_close(&k->dat, &k->model);
    ue_diag_free(&k->read);
    free(k);
}

static ue_result validate_kept(const uint8_t *data, size_t size, ue_mode mode, ue_model_check *out, ue_diag *d,
                               hsd_kept **keep) {
    memset(out, 0, sizeof *out);
    ue_hsd_model m;
    memset(&m, 0, sizeof m);
    hsd_stats st = {0, 0, 0};
    ue_diag own = {0}; /* the tolerant read's reports, when the caller keeps none */
    ue_diag_mark before = ue_diag_mark_at(d ? d : &own);
    ue_result r = check_all(data, size, mode, &m, &st, d ? d : &own, keep);
    out->reads = 1;
    bool stepped_over = ue_diag_warned_since(before);
    ue_diag_free(&own);
    /* A part is lost when a strict read fails; one that reported nothing would not. */
    if (r == UE_OK && mode == UE_MODE_TOLERANT && stepped_over) {
        ue_hsd_model again;
        hsd_stats st2 = {0, 0, 0};
        out->lost_parts = check_all(data, size, UE_MODE_STRICT, &again, &st2, NULL, NULL) != UE_OK;
        out->reads++;
    }
    snprintf(out->summary, sizeof out->summary, "%zu joints, %zu meshes, %zu PObjs, %zu vertices, %zu triangles",
             m.joint_count, m.dobj_count, st.decoded_pobjs, st.vertices, st.triangles);
    /* The keys every model's validate report has (docs/schema/validate.schema.json): nodes are
     * the joints, batches the PObjs that decode. */
    const size_t counts[4] = {m.joint_count, st.decoded_pobjs, st.vertices, st.triangles};
    if (validate_stats(counts, NULL, &out->stats) != UE_OK && r == UE_OK) r = UE_ERR_NOMEM;
    return r;
}

static ue_result hsd_validate(const uint8_t *data, size_t size, ue_mode mode, ue_model_check *out, ue_diag *d) {
    return validate_kept(data, size, mode, out, d, NULL);
}

static ue_result hsd_validate_keep(const uint8_t *data, size_t size, ue_mode mode, ue_model_check *out, ue_diag *d,
                                   ue_model_kept **kept) {
    hsd_kept *k = NULL;
    ue_result r = validate_kept(data, size, mode, out, d, &k);
    *kept = (ue_model_kept *)k;
    return r;
}

/* hsd_to_scene after its read: the read's reports, then the clips and the scene. */
static ue_result hsd_kept_to_scene(ue_model_kept *kept, const char *name, ue_mode mode, const ue_model_options *opts,
                                   ue_scene *s, ue_diag *d) {
    hsd_kept *k = (hsd_kept *)kept;
    hsd_figatree_files clips = {NULL, 0};
    ue_diag_replay(d, &k->read);
    ue_result r = hsd_figatree_attach_all(&k->model, opts, mode, &clips, d);
    if (r == UE_OK) r = hsd_model_to_scene(&k->model, name, mode, s, d);
    hsd_kept_free(kept); /* the model before its clips, as hsd_to_scene frees them */
    hsd_figatree_files_free(&clips);
    return r;
}

static const ue_model_read_once hsd_read_once = {hsd_validate_keep, hsd_kept_to_scene, hsd_kept_free};

static ue_result hsd_roundtrip(const uint8_t *data, size_t size, ue_mode mode, ue_model_check *out, ue_diag *d) {
    memset(out, 0, sizeof *out);
    ue_dat dat;
    ue_buf again = {0};
    ue_result r = ue_dat_parse(data, size, mode, &dat, d);
    if (r != UE_OK) return r;
    r = ue_dat_write(&dat, &again);
    if (r == UE_OK && (again.size != size || memcmp(again.data, data, size) != 0)) r = UE_ERR_MISMATCH;
    if (r == UE_OK)
        snprintf(out->summary, sizeof out->summary, "DAT re-serialised: %zu relocations, %zu roots, %u data bytes",
                 dat.reloc_raw_count, dat.root_count, dat.data_size);
    ue_dat_free(&dat);
    ue_buf_free(&again);
    return r;
}

/* ---- a DAT without a model ------------------------------------------------------------------ */

/* A DAT whose roots name no model (no scene_data, no *_joint): fighter data, a FigaTree, a
 * camera, a room, effects, or the sample pack's placeholders. It is recognised by its content,
 * whatever its root names, so that every verb says what it holds (docs/hsd.md, "Root kinds"). */

/* The header and tables agree with each other and with the file: file_size is the byte count,
 * every table lies inside the file, every relocation names a 4-aligned field inside the data
 * block, every root a data offset inside it and a NUL-terminated name in the string table. What
 * the relocated words hold is for `validate`: the file is a DAT either way. */
static bool dat_consistent(const uint8_t *data, size_t size) {
    if (!data || size < UE_DAT_HEADER || size > UINT32_MAX || ue_load_u32be(data) != size) return false;
    uint32_t data_size = ue_load_u32be(data + 4), nb_reloc = ue_load_u32be(data + 8);
    uint32_t nb_public = ue_load_u32be(data + 12), nb_extern = ue_load_u32be(data + 16);
    uint64_t relocs = UE_DAT_HEADER + (uint64_t)data_size, roots = relocs + 4ull * nb_reloc;
    uint64_t strings = roots + 8ull * nb_public + 8ull * nb_extern;
    if (nb_public == 0 || strings > size) return false;
    for (uint32_t i = 0; i < nb_reloc; i++) {
        uint32_t field = ue_load_u32be(data + relocs + 4ull * i);
        if (field % 4 != 0 || (uint64_t)field + 4 > data_size) return false;
    }
    for (uint32_t i = 0; i < nb_public; i++) {
        const uint8_t *e = data + roots + 8ull * i;
        if (ue_load_u32be(e) >= data_size || !probe_root_name(data, size, strings, ue_load_u32be(e + 4)))
            return false;
    }
    return true;
}

bool ue_hsd_data_probe(const uint8_t *data, size_t size) {
    return !ue_hsd_probe(data, size) && dat_consistent(data, size);
}

/* "unearth_room (unknown), x_camera (camera)", cut to fit `cap`. */
static void root_list(const ue_dat *dat, char *out, size_t cap) {
    size_t at = 0;
    out[0] = 0;
    ue_hsd_root_kind *kinds = root_kinds(dat);
    for (size_t i = 0; kinds && i < dat->root_count && at < cap; i++) {
        char name[128], kind[48];
        hsd_name_utf8(dat->roots[i].name ? dat->roots[i].name : "(unnamed)", name, sizeof name);
        kind_text(&dat->roots[i], kinds[i], kind, sizeof kind);
        int w = snprintf(out + at, cap - at, "%s%s (%s)", i ? ", " : "", name, kind);
        at = w < 0 ? cap : at + (size_t)w;
    }
    free(kinds);
}

static ue_result data_info(const uint8_t *data, size_t size, ue_mode mode, ue_buf *stats, ue_buf *text,
                           ue_diag *d) {
    ue_dat dat;
    ue_result r = ue_dat_parse(data, size, mode, &dat, d);
    if (r != UE_OK) return r;
    if (stats) {
        ue_json w;
        ue_json_init_record(&w, stats);
        ue_json_object_begin(&w);
        ue_json_key_int(&w, "data_size", dat.data_size);
        ue_json_key_int(&w, "relocations", (int64_t)dat.reloc_raw_count);
        write_roots(&dat, &w);
        write_clips(&dat, &w);
        ue_json_object_end(&w);
        r = ue_json_finish(&w, NULL) == UE_OK ? UE_OK : UE_ERR_NOMEM;
    }
    if (text) {
        dat_text(&dat, text);
        hsd_figatree_clips_text(&dat, text);
        ue_buf_printf(text, "  no model root (scene_data or *_joint): nothing to convert\n");
    }
    ue_dat_free(&dat);
    return r;
}

static ue_result data_validate(const uint8_t *data, size_t size, ue_mode mode, ue_model_check *out, ue_diag *d) {
    memset(out, 0, sizeof *out);
    ue_dat dat;
    ue_result r = ue_dat_parse(data, size, mode, &dat, d);
    if (r != UE_OK) return r;
    r = hsd_roots_check(&dat, mode, false, d); /* every root's structures, FigaTree clips read whole */
    char roots[120];
    root_list(&dat, roots, sizeof roots);
    snprintf(out->summary, sizeof out->summary, "no model root: roots %s", roots);
    /* The keys every model's validate report has: no geometry, so all 0; the roots say what it holds. */
    const size_t zero[4] = {0, 0, 0, 0};
    if (validate_stats(zero, &dat, &out->stats) != UE_OK && r == UE_OK) r = UE_ERR_NOMEM;
    ue_dat_free(&dat);
    return r;
}

const ue_model_format ue_hsd_data_format = {
    "hsd_data",
    "HAL SysDolphin .dat without a model",
    NULL,
    0,
    ue_hsd_data_probe,
    NULL, /* no geometry: convert passes it over and says what it is */
    data_info,
    data_validate,
    hsd_roundtrip, /* the DAT's own round trip, as for a model */
    NULL,
    NULL,
};

const ue_model_format ue_hsd_model_format = {
    "hsd",
    "HAL SysDolphin .dat model",
    hsd_options,
    sizeof hsd_options / sizeof hsd_options[0],
    ue_hsd_probe,
    hsd_to_scene,
    hsd_info,
    hsd_validate,
    hsd_roundtrip,
    hsd_model_images, /* src/hsd/hsd_images.c */
    &hsd_read_once,
};
