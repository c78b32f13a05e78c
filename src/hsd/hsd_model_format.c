/* unearth — HSD .dat as a model format of the registry (model_format.h): probe, conversion to the
 * scene IR, statistics, validation of every structure and the lossless DAT round trip. */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "common/json_tree.h"
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

static json_t *roots_json(const ue_dat *dat) {
    ue_hsd_root_kind *kinds = root_kinds(dat);
    json_t *a = json_array();
    for (size_t i = 0; kinds && i < dat->root_count; i++) {
        const ue_dat_symbol *r = &dat->roots[i];
        json_t *o = json_object();
        json_object_set_new(o, "name", r->name ? json_string(r->name) : json_null());
        json_object_set_new(o, "kind", json_string(ue_hsd_root_kind_name(kinds[i])));
        json_object_set_new(o, "named", json_string(ue_hsd_root_kind_name(ue_hsd_root_kind_of(r->name))));
        json_object_set_new(o, "offset", json_integer((json_int_t)r->data_offset + UE_DAT_HEADER));
        json_array_append_new(a, o);
    }
    free(kinds);
    return a;
}

static json_t *counts_json(const ue_hsd_model *m) {
    json_t *j = json_object();
    json_object_set_new(j, "models", json_integer((json_int_t)m->set_count));
    json_object_set_new(j, "joints", json_integer((json_int_t)m->joint_count));
    json_object_set_new(j, "meshes", json_integer((json_int_t)m->dobj_count));
    json_object_set_new(j, "pobjs", json_integer((json_int_t)m->pobj_count));
    json_object_set_new(j, "materials", json_integer((json_int_t)m->mobj_count));
    json_object_set_new(j, "textures", json_integer((json_int_t)m->tobj_count));
    json_object_set_new(j, "images", json_integer((json_int_t)m->image_count));
    json_object_set_new(j, "envelopes", json_integer((json_int_t)m->envelope_count));
    return j;
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
            json_t *tree = counts_json(&m);
            json_object_set_new(tree, "roots", roots_json(&dat));
            json_object_set_new(tree, "animations", hsd_anims_json(&m));
            json_object_set_new(tree, "figatree_clips", hsd_figatree_clips_json(&dat));
            r = ue_json_tree_put(tree, stats);
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

/* The table sizes of a model, without its tables (which die with the DAT). */
static ue_hsd_model counts_only(const ue_hsd_model *m) {
    ue_hsd_model c;
    memset(&c, 0, sizeof c);
    c.set_count = m->set_count, c.joint_count = m->joint_count, c.dobj_count = m->dobj_count;
    c.pobj_count = m->pobj_count, c.mobj_count = m->mobj_count, c.tobj_count = m->tobj_count;
    c.image_count = m->image_count, c.envelope_count = m->envelope_count;
    return c;
}

/* Reading, the bind pose and every PObj's display list, in `mode`; *counts gets the sizes. */
static ue_result check_all(const uint8_t *data, size_t size, ue_mode mode, ue_hsd_model *counts, hsd_stats *st,
                           ue_diag *d) {
    ue_dat dat;
    ue_hsd_model m;
    ue_result r = model_open(data, size, mode, &dat, &m, d);
    if (r == UE_OK) {
        hsd_pose pose;
        r = hsd_pose_compute(&m, mode, &pose, d);
        hsd_pose_free(&pose);
        ue_result rd = decode_all(&m, mode, st, d);
        if (r == UE_OK) r = rd;
        /* the roots the model reader does not walk: cameras, lights, fog, FigaTrees, … */
        ue_result rr = hsd_roots_check(&dat, mode, true, d);
        if (r == UE_OK) r = rr;
        *counts = counts_only(&m);
    }
    model_close(&dat, &m);
    return r;
}

static ue_result hsd_validate(const uint8_t *data, size_t size, ue_mode mode, ue_model_check *out, ue_diag *d) {
    memset(out, 0, sizeof *out);
    ue_hsd_model m;
    memset(&m, 0, sizeof m);
    hsd_stats st = {0, 0, 0};
    ue_result r = check_all(data, size, mode, &m, &st, d);
    if (r == UE_OK && mode == UE_MODE_TOLERANT) {
        ue_hsd_model again;
        hsd_stats st2 = {0, 0, 0};
        out->lost_parts = check_all(data, size, UE_MODE_STRICT, &again, &st2, NULL) != UE_OK;
    }
    snprintf(out->summary, sizeof out->summary, "%zu joints, %zu meshes, %zu PObjs, %zu vertices, %zu triangles",
             m.joint_count, m.dobj_count, st.decoded_pobjs, st.vertices, st.triangles);
    /* The keys every model's validate report has (docs/schema/validate.schema.json): nodes are
     * the joints, batches the PObjs that decode. */
    json_t *tree = json_object();
    json_object_set_new(tree, "nodes", json_integer((json_int_t)m.joint_count));
    json_object_set_new(tree, "batches", json_integer((json_int_t)st.decoded_pobjs));
    json_object_set_new(tree, "vertices", json_integer((json_int_t)st.vertices));
    json_object_set_new(tree, "triangles", json_integer((json_int_t)st.triangles));
    if (ue_json_tree_put(tree, &out->stats) != UE_OK && r == UE_OK) r = UE_ERR_NOMEM;
    return r;
}

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
        json_t *tree = json_object();
        json_object_set_new(tree, "data_size", json_integer(dat.data_size));
        json_object_set_new(tree, "relocations", json_integer((json_int_t)dat.reloc_raw_count));
        json_object_set_new(tree, "roots", roots_json(&dat));
        json_object_set_new(tree, "figatree_clips", hsd_figatree_clips_json(&dat));
        r = ue_json_tree_put(tree, stats);
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
    json_t *tree = json_object();
    static const char *const zero[] = {"nodes", "batches", "vertices", "triangles"};
    for (size_t i = 0; i < sizeof zero / sizeof zero[0]; i++) json_object_set_new(tree, zero[i], json_integer(0));
    json_t *dj = json_object();
    json_object_set_new(dj, "relocations", json_integer((json_int_t)dat.reloc_raw_count));
    json_object_set_new(dj, "roots", roots_json(&dat));
    json_object_set_new(tree, "dat", dj);
    if (ue_json_tree_put(tree, &out->stats) != UE_OK && r == UE_OK) r = UE_ERR_NOMEM;
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
};
