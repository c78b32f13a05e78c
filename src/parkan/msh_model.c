/* unearth — Parkan MSH as a model format of the registry (model_format.h): probe, conversion
 * with its `lod`, `group`, `fps`, `data`, `origin` and `wear` options (materials: msh_materials.c),
 * statistics, validation and the table round trip. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "common/json_writer.h"
#include "common/parse.h"
#include "common/text.h"
#include "parkan/msh_materials.h"
#include "unearth/msh.h"

static const ue_model_option_def msh_options[] = {
    {"lod", "level of detail 0..2, or all for every LOD and group, each under a child node (default 0)"},
    {"group", "group 0..4, or all (alias -1) for every group (default 0, what the game draws)"},
    {"fps", "frames per second of the animation clip 1..1000 (default 30)"},
    {"data", "a game folder searched first for Material.lib and Textures.lib (default: none)"},
    {"origin", "the model's path, FILE or ARCHIVE:ENTRY: its WEAR and libraries are looked for beside it"},
    {"wear", "the model's WEAR table, FILE or ARCHIVE:ENTRY, in place of the same-stem one beside it (default: none)"},
};

/* Two or more of the required core types and nothing but MSH resource types (no 'WEAR',
 * 'Texm' or nested archives): a model, whole or not. One core type alone is not enough, as
 * any NRes may hold an entry of type 1. */
static bool holds_msh_types(const ue_nres *n) {
    static const uint32_t core[] = {1, 2, 3, 6, 13};
    size_t core_types = 0;
    for (size_t i = 0; i < n->count; i++)
        if (n->entries[i].type_id >= UE_MSH_TYPE_LIMIT) return false;
    for (size_t c = 0; c < sizeof core / sizeof core[0]; c++)
        for (size_t i = 0; i < n->count; i++)
            if (n->entries[i].type_id == core[c]) {
                core_types++;
                break;
            }
    return core_types >= 2;
}

bool ue_msh_probe(const uint8_t *data, size_t size) {
    if (size < 16 || memcmp(data, "NRes", 4) != 0) return false;
    ue_source src = ue_source_memory(data, size);
    ue_nres n;
    if (ue_nres_parse(&src, UE_MODE_TOLERANT, &n, NULL) != UE_OK) return false;
    bool model = ue_msh_is_model(&n) || holds_msh_types(&n);
    ue_nres_free(&n);
    return model;
}

bool ue_msh_probe_named(const char *name, const uint8_t *data, size_t size) {
    if (ue_name_has_ext(name, ".msh") && size >= 4 && memcmp(data, "NRes", 4) == 0) return true;
    return ue_msh_probe(data, size);
}

/* `group`: 0..4, or `all` for every group; -1, its earlier spelling, is still accepted. */
static ue_result parse_group(const ue_model_options *opts, long *group, ue_diag *d) {
    const char *text = ue_model_option_get(opts, "group");
    *group = 0;
    if (!text) return UE_OK;
    if (!strcmp(text, "all") || !strcmp(text, "-1")) {
        *group = UE_MSH_GROUP_ALL;
        return UE_OK;
    }
    if (text[0] >= '0' && text[0] < '0' + UE_MSH_GROUPS && !text[1]) {
        *group = text[0] - '0';
        return UE_OK;
    }
    ue_diag_add(d, UE_SEV_ERROR, "model.option.value", UE_NO_OFFSET, "msh",
                "option group=%s: msh takes a group 0..4 or all", text);
    return UE_ERR_USAGE;
}

ue_result ue_msh_parse_options(const ue_model_options *opts, ue_msh_export_options *out, ue_diag *d) {
    long lod = UE_MSH_LOD_ALL, group, fps;
    const char *lod_text = ue_model_option_get(opts, "lod");
    /* `all`: the whole slot matrix, each cell a child node the importer reads back. */
    ue_result r = lod_text && !strcmp(lod_text, "all")
                      ? UE_OK
                      : ue_model_option_int(opts, "msh", "lod", 0, UE_MSH_LODS - 1, 0, &lod, d);
    if (r == UE_OK) r = parse_group(opts, &group, d);
    if (r == UE_OK) r = ue_model_option_int(opts, "msh", "fps", 1, 1000, (long)UE_MSH_DEFAULT_FPS, &fps, d);
    if (r != UE_OK) return r;
    out->lod = (int)lod;
    out->group = (int)group;
    out->fps = (float)fps;
    return UE_OK;
}

/* The scene of a parsed model, after the options were read (to_scene's steps past the read). */
static ue_result scene_of(const ue_msh *m, const char *name, ue_mode mode, const ue_msh_export_options *eo,
                          const ue_model_options *opts, ue_scene *s, ue_diag *d) {
    size_t meshes_before = s->mesh_count;
    size_t materials_before = s->material_count;
    ue_result r = ue_msh_to_scene(m, name, eo, s, d);
    /* An empty file helps nobody: an empty selection is an error naming what the model has. */
    if (r == UE_OK && s->mesh_count == meshes_before) r = ue_msh_refuse_empty_selection(m, eo, d);
    ue_parkan_search where = {ue_model_option_get(opts, "origin"), ue_model_option_get(opts, "data"),
                              ue_model_option_get(opts, "wear"), opts ? opts->cache : NULL};
    if (r == UE_OK) r = ue_msh_resolve_materials(s, materials_before, &where, mode, d);
    return r;
}

static ue_result msh_to_scene(const uint8_t *data, size_t size, const char *name, ue_mode mode,
                              const ue_model_options *opts, ue_scene *s, ue_diag *d) {
    ue_msh_export_options eo;
    ue_result r = ue_msh_parse_options(opts, &eo, d);
    if (r != UE_OK) return r;
    ue_msh m;
    r = ue_msh_parse(data, size, mode, &m, d);
    if (r != UE_OK) return r;
    r = scene_of(&m, name, mode, &eo, opts, s, d);
    ue_msh_free(&m);
    return r;
}

/* ---- info ------------------------------------------------------------------------------- */


/* Res10 names are Windows-1251; what unearth prints is UTF-8 (docs/text.md). */
static bool node_name_utf8(const ue_msh *m, size_t node, char *out, size_t cap) {
    const char *raw = ue_msh_node_name(m, node);
    if (raw) ue_cp1251_to_utf8(raw, out, cap);
    return raw != NULL;
}

static void write_node(ue_json *w, const ue_msh *m, size_t n) {
    char nm[256];
    bool named = node_name_utf8(m, n, nm, sizeof nm);
    ue_json_object_begin(w);
    ue_json_key_string_or_null(w, "name", named ? nm : NULL);
    ue_json_key(w, "parent");
    if (m->nodes[n].parent == UE_MSH_NONE) ue_json_null(w);
    else ue_json_int(w, m->nodes[n].parent);
    ue_json_key(w, "slots");
    ue_json_array_begin(w);
    for (int s = 0; s < UE_MSH_LODS * UE_MSH_GROUPS; s++) {
        if (m->nodes[n].slot[s] == UE_MSH_NONE) ue_json_null(w);
        else ue_json_int(w, m->nodes[n].slot[s]);
    }
    ue_json_array_end(w);
    ue_json_object_end(w);
}

static size_t animated_nodes(const ue_msh *m) {
    size_t n = 0;
    for (size_t i = 0; ue_msh_is_animated(m) && i < m->node_count; i++) n += m->nodes[i].anim_map_start != UE_MSH_NONE;
    return n;
}

/* Res8/Res19 in numbers: the timeline's frames, the nodes with a frame map, the keys. */
static void write_animation(ue_json *w, const ue_msh *m) {
    ue_json_object_begin(w);
    ue_json_key_int(w, "frames", m->frame_count);
    ue_json_key_int(w, "animated_nodes", (int64_t)animated_nodes(m));
    ue_json_key_int(w, "keys", (int64_t)m->key_count);
    ue_json_object_end(w);
}

static ue_result info_json(const ue_msh *m, const ue_msh_stats *st, ue_buf *stats) {
    ue_json w;
    ue_json_init_record(&w, stats);
    ue_json_object_begin(&w);
    ue_json_key_int(&w, "nodes", (int64_t)st->nodes);
    ue_json_key_int(&w, "lods", (int64_t)st->lods);
    ue_json_key_int(&w, "groups", (int64_t)st->groups);
    ue_json_key_int(&w, "slots", (int64_t)st->slots);
    ue_json_key_int(&w, "batches", (int64_t)st->batches);
    ue_json_key_int(&w, "vertices", (int64_t)st->vertices);
    ue_json_key_int(&w, "triangles", (int64_t)st->triangles);
    ue_json_key(&w, "triangles_per_lod");
    ue_json_array_begin(&w);
    for (int l = 0; l < UE_MSH_LODS; l++) ue_json_int(&w, (int64_t)st->triangles_per_lod[l]);
    ue_json_array_end(&w);
    ue_json_key(&w, "node_table");
    ue_json_array_begin(&w);
    for (size_t n = 0; n < m->node_count; n++) write_node(&w, m, n);
    ue_json_array_end(&w);
    ue_json_key(&w, "animation");
    write_animation(&w, m);
    ue_json_object_end(&w);
    return ue_json_finish(&w, NULL) == UE_OK ? UE_OK : UE_ERR_NOMEM;
}

/* printf's %-20s counts bytes; a column of Cyrillic names must count characters. */
static void text_padded(ue_buf *b, const char *utf8, size_t width) {
    size_t chars = 0;
    for (const char *p = utf8; *p; p++) chars += ((unsigned char)*p & 0xC0) != 0x80;
    ue_buf_printf(b, "%s%*s", utf8, chars < width ? (int)(width - chars) : 0, "");
}

/* "[0 - - - -]" per LOD: the slot of each group, '-' where there is none. */
static void text_node_row(ue_buf *b, const ue_msh *m, size_t n) {
    char nm[256], parent[8] = "-";
    bool named = node_name_utf8(m, n, nm, sizeof nm);
    if (m->nodes[n].parent != UE_MSH_NONE) snprintf(parent, sizeof parent, "%u", m->nodes[n].parent);
    ue_buf_printf(b, "  %4zu  ", n);
    text_padded(b, named ? nm : "(unnamed)", 20);
    ue_buf_printf(b, " %6s ", parent);
    for (int l = 0; l < UE_MSH_LODS; l++) {
        ue_buf_printf(b, " [");
        for (int g = 0; g < UE_MSH_GROUPS; g++) {
            uint16_t s = m->nodes[n].slot[l * UE_MSH_GROUPS + g];
            if (s == UE_MSH_NONE) ue_buf_printf(b, g ? " -" : "-");
            else ue_buf_printf(b, g ? " %u" : "%u", s);
        }
        ue_buf_printf(b, "]");
    }
    ue_buf_printf(b, "\n");
}

static void info_text(const ue_msh *m, const ue_msh_stats *st, ue_buf *b) {
    ue_buf_printf(b, "  nodes %zu, LODs %zu, groups %zu, slots %zu, batches %zu, vertices %zu, triangles %zu\n",
                st->nodes, st->lods, st->groups, st->slots, st->batches, st->vertices, st->triangles);
    ue_buf_printf(b, "  triangles per LOD: %zu / %zu / %zu\n", st->triangles_per_lod[0], st->triangles_per_lod[1],
                st->triangles_per_lod[2]);
    ue_buf_printf(b, "  %4s  %-20s %6s  %s\n", "node", "name", "parent", "slots [lod][group]");
    for (size_t n = 0; n < m->node_count; n++) text_node_row(b, m, n);
    size_t moving = animated_nodes(m);
    if (moving) {
        ue_buf_printf(b, "  animation: frames 0..%u, %zu keys, animated nodes:", m->frame_count - 1, m->key_count);
        for (size_t n = 0; n < m->node_count; n++) {
            char nm[256];
            if (m->nodes[n].anim_map_start == UE_MSH_NONE) continue;
            if (node_name_utf8(m, n, nm, sizeof nm)) ue_buf_printf(b, " %s", nm);
            else ue_buf_printf(b, " %zu", n);
        }
        ue_buf_printf(b, "\n");
    } else {
        ue_buf_printf(b, "  animation: none (static model)\n");
    }
    ue_buf_printf(b, "  resources:");
    for (size_t i = 0; i < m->container.count; i++) ue_buf_printf(b, " %u", m->container.entries[i].type_id);
    ue_buf_printf(b, "\n");
}

static ue_result msh_info(const uint8_t *data, size_t size, ue_mode mode, ue_buf *stats, ue_buf *text,
                          ue_diag *d) {
    ue_msh m;
    ue_result r = ue_msh_parse(data, size, mode, &m, d);
    if (r != UE_OK) return r;
    ue_msh_stats st;
    ue_msh_stats_compute(&m, &st);
    if (stats) r = info_json(&m, &st, stats);
    if (text) info_text(&m, &st, text);
    ue_msh_free(&m);
    return r;
}

/* ---- validate and roundtrip ------------------------------------------------------------- */

/* Tolerant parsing keeps the model but leaves damaged tables and batches out: what it lost
 * shows as a strict parse that fails. */
static bool lost_parts(const uint8_t *data, size_t size) {
    ue_msh m;
    if (ue_msh_parse(data, size, UE_MODE_STRICT, &m, NULL) != UE_OK) return true;
    ue_msh_free(&m);
    return false;
}

static ue_result validate_json(const ue_msh_stats *st, ue_buf *stats) {
    ue_json w;
    ue_json_init_record(&w, stats);
    ue_json_object_begin(&w);
    ue_json_key_int(&w, "nodes", (int64_t)st->nodes);
    ue_json_key_int(&w, "batches", (int64_t)st->batches);
    ue_json_key_int(&w, "vertices", (int64_t)st->vertices);
    ue_json_key_int(&w, "triangles", (int64_t)st->triangles);
    ue_json_object_end(&w);
    return ue_json_finish(&w, NULL) == UE_OK ? UE_OK : UE_ERR_NOMEM;
}

/* A model validate read, for to_scene (model_format.h, ue_model_read_once): the parsed model
 * (which owns its bytes) and the reports of parsing it, which to_scene makes again. */
typedef struct msh_kept {
    ue_msh model;
    ue_diag read;
} msh_kept;

static void msh_kept_free(ue_model_kept *kept) {
    msh_kept *k = (msh_kept *)kept;
    if (!k) return;
    ue_msh_free(&k->model);
    ue_diag_free(&k->read);
    free(k);
}

/* ue_msh_parse into a new msh_kept, its reports in `d` and kept for to_scene; NULL when the
 * parse fails. */
static ue_result parse_kept(const uint8_t *data, size_t size, ue_mode mode, ue_diag *d, msh_kept **keep) {
    *keep = calloc(1, sizeof **keep);
    if (!*keep) return UE_ERR_NOMEM;
    ue_result r = ue_msh_parse(data, size, mode, &(*keep)->model, &(*keep)->read);
    ue_diag_replay(d, &(*keep)->read);
    if (r != UE_OK) { /* the parse freed the model */
        ue_diag_free(&(*keep)->read);
        free(*keep);
        *keep = NULL;
    }
    return r;
}

static ue_result validate_kept(const uint8_t *data, size_t size, ue_mode mode, ue_model_check *out, ue_diag *d,
                               msh_kept **keep) {
    memset(out, 0, sizeof *out);
    ue_msh own_model;
    ue_msh *m = &own_model;
    ue_msh_stats st = {0};
    ue_diag own = {0}; /* the tolerant read's reports, when the caller keeps none */
    ue_diag_mark before = ue_diag_mark_at(d ? d : &own);
    ue_result r = keep ? parse_kept(data, size, mode, d ? d : &own, keep)
                       : ue_msh_parse(data, size, mode, m, d ? d : &own);
    if (keep && *keep) m = &(*keep)->model;
    out->reads = 1;
    bool stepped_over = ue_diag_warned_since(before);
    ue_diag_free(&own);
    if (r == UE_OK) {
        ue_msh_stats_compute(m, &st);
        if (!keep) ue_msh_free(m);
        /* A read that reported nothing lost nothing: no strict read is needed to tell. */
        bool strict_read = mode == UE_MODE_TOLERANT && stepped_over;
        out->lost_parts = strict_read && lost_parts(data, size);
        out->reads += strict_read;
        snprintf(out->summary, sizeof out->summary, "%zu nodes, %zu batches, %zu vertices, %zu triangles",
                 st.nodes, st.batches, st.vertices, st.triangles);
    }
    /* zeros for a model that does not parse */
    if (validate_json(&st, &out->stats) != UE_OK && r == UE_OK) r = UE_ERR_NOMEM;
    return r;
}

static ue_result msh_validate(const uint8_t *data, size_t size, ue_mode mode, ue_model_check *out,
                              ue_diag *d) {
    return validate_kept(data, size, mode, out, d, NULL);
}

static ue_result msh_validate_keep(const uint8_t *data, size_t size, ue_mode mode, ue_model_check *out, ue_diag *d,
                                   ue_model_kept **kept) {
    msh_kept *k = NULL;
    ue_result r = validate_kept(data, size, mode, out, d, &k);
    *kept = (ue_model_kept *)k;
    return r;
}

/* msh_to_scene after its parse: the options, the parse's reports, then the scene. */
static ue_result msh_kept_to_scene(ue_model_kept *kept, const char *name, ue_mode mode, const ue_model_options *opts,
                                   ue_scene *s, ue_diag *d) {
    msh_kept *k = (msh_kept *)kept;
    ue_msh_export_options eo;
    ue_result r = ue_msh_parse_options(opts, &eo, d);
    if (r == UE_OK) {
        ue_diag_replay(d, &k->read);
        r = scene_of(&k->model, name, mode, &eo, opts, s, d);
    }
    msh_kept_free(kept);
    return r;
}

static const ue_model_read_once msh_read_once = {msh_validate_keep, msh_kept_to_scene, msh_kept_free};

static ue_result msh_roundtrip(const uint8_t *data, size_t size, ue_mode mode, ue_model_check *out,
                               ue_diag *d) {
    memset(out, 0, sizeof *out);
    ue_msh m;
    size_t tables = 0;
    ue_buf again = {0};
    ue_result r = ue_msh_parse(data, size, mode, &m, d);
    if (r != UE_OK) return r;
    r = ue_msh_verify_tables(&m, &tables, d);
    if (r == UE_OK) r = ue_msh_write(&m, &again, d);
    if (r == UE_OK && (again.size != size || memcmp(again.data, data, size) != 0)) r = UE_ERR_MISMATCH;
    ue_msh_free(&m);
    ue_buf_free(&again);
    if (r == UE_OK) snprintf(out->summary, sizeof out->summary, "%zu tables decoded and re-encoded", tables);
    return r;
}

const ue_model_format ue_msh_model_format = {
    "msh",
    "Parkan MSH model",
    msh_options,
    sizeof msh_options / sizeof msh_options[0],
    ue_msh_probe,
    msh_to_scene,
    msh_info,
    msh_validate,
    msh_roundtrip,
    NULL, /* images: Texm joins here (issue 10) */
    &msh_read_once,
};
