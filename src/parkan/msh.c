/* unearth — MSH reader and validator: decodes every core resource of a model NRes into tables
 * and checks the invariants of docs/formats/msh.md#invariants (strict: errors; tolerant: warnings, table kept
 * only when it can be used safely). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/parse.h"
#include "parkan/msh_anim.h"
#include "unearth/msh.h"
#include "common/bytes.h"

void ue_msh_init(ue_msh *m) {
    memset(m, 0, sizeof *m);
    ue_nres_init(&m->container);
    for (int t = 0; t < UE_MSH_TYPE_LIMIT; t++) m->entry_of[t] = -1;
}

void ue_msh_free(ue_msh *m) {
    if (!m) return;
    ue_nres_free(&m->container);
    free(m->nodes);
    free(m->slots);
    free(m->positions);
    free(m->normals);
    free(m->uv0);
    free(m->indices);
    free(m->tris);
    free(m->batches);
    for (size_t i = 0; i < m->name_count; i++) free(m->names[i].text);
    free(m->names);
    free(m->colors);
    free(m->keys);
    free(m->frame_map);
    free(m->owned_bytes);
    memset(m, 0, sizeof *m);
}

/* Offset of a resource's payload in the model file, for diagnostics. */
static uint64_t res_offset(const ue_msh *m, int type) {
    int32_t e = m->entry_of[type];
    return e < 0 ? UE_NO_OFFSET : m->container.entries[e].data_offset;
}

/* Struct paths are formatted only when a finding is reported: a valid model formats none
 * (thousands of snprintf per archive of models otherwise). */
static const char *res_path(char *out, size_t cap, int type, const char *field) {
    if (field) snprintf(out, cap, "msh/res%d/%s", type, field);
    else snprintf(out, cap, "msh/res%d", type);
    return out;
}

static const char *item_path(char *out, size_t cap, const char *table, size_t i) {
    snprintf(out, cap, "%s[%zu]", table, i);
    return out;
}
static uint64_t dir_field(const ue_msh *m, int type, unsigned field_off) {
    int32_t e = m->entry_of[type];
    return e < 0 ? UE_NO_OFFSET : m->container.dir_offset + (uint64_t)e * UE_NRES_ENTRY_SIZE + field_off;
}

typedef struct stride_rule {
    int type;
    uint32_t stride;
    uint32_t attr3;
    bool attr1_is_count;
} stride_rule;

static const stride_rule fixed_rules[] = {
    {UE_MSH_POSITIONS, 12, 12, true}, {UE_MSH_NORMALS, 4, 4, true},   {UE_MSH_UV0, 4, 4, true},
    {UE_MSH_INDICES, 2, 2, true},     {UE_MSH_TRIS, 16, 16, true},    {UE_MSH_BATCHES, 20, 20, true},
    {UE_MSH_RES15, 8, 8, true},       {UE_MSH_RES16, 8, 8, true},     {UE_MSH_COLORS, 4, 4, true},
    {UE_MSH_KEYS, 24, 4, true},       {UE_MSH_FRAME_MAP, 2, 2, true},
};

/* Checks a fixed-stride resource; returns its record count, or SIZE_MAX when it is unusable. */
static size_t check_stride(const ue_msh *m, const stride_rule *rule, ue_parse_ctx *c) {
    const ue_nres_entry *e = &m->container.entries[m->entry_of[rule->type]];
    char path[48];
    if (e->size % rule->stride) {
        ue_violation(c, "msh.res.stride", res_offset(m, rule->type),
                     res_path(path, sizeof path, rule->type, NULL),
                     "size %u is not a multiple of the %u-byte record", e->size, rule->stride);
        return SIZE_MAX;
    }
    size_t count = e->size / rule->stride;
    if (e->attr3 != rule->attr3)
        ue_violation(c, "msh.res.attr3", dir_field(m, rule->type, 16),
                     res_path(path, sizeof path, rule->type, "attr3"),
                     "attr3 is %u, expected %u", e->attr3, rule->attr3);
    if (rule->attr1_is_count && e->attr1 != count)
        ue_violation(c, "msh.res.attr1", dir_field(m, rule->type, 4),
                     res_path(path, sizeof path, rule->type, "attr1"),
                     "attr1 is %u, but the resource holds %zu records", e->attr1, count);
    if (e->attr2 != 0 && rule->type != UE_MSH_FRAME_MAP) {
        snprintf(path, sizeof path, "msh/res%d/attr2", rule->type);
        ue_diag_add(c->d, UE_SEV_WARNING, "msh.res.attr2", dir_field(m, rule->type, 8), path,
                    "attr2 is %u, expected 0", e->attr2);
    }
    return count;
}

static const uint8_t *payload(const ue_msh *m, int type) {
    int32_t e = m->entry_of[type];
    return e < 0 ? NULL : m->container.entries[e].owned;
}

static const ue_nres_entry *entry_of(const ue_msh *m, int type) {
    return &m->container.entries[m->entry_of[type]];
}

/* ---- Res1 and Res2: tables whose stride or size rule is their own ---------------------------- */

static void decode_node_records(ue_msh *m, const uint8_t *base) {
    for (size_t i = 0; i < m->node_count; i++) {
        const uint8_t *p = base + i * UE_MSH_NODE_STRIDE;
        ue_msh_node *nd = &m->nodes[i];
        nd->flags = ue_load_u16le(p);
        nd->parent = ue_load_u16le(p + 2);
        nd->anim_map_start = ue_load_u16le(p + 4);
        nd->fallback_key = ue_load_u16le(p + 6);
        for (int s = 0; s < 15; s++) nd->slot[s] = ue_load_u16le(p + 8 + 2 * s);
    }
}

/* Res1: stride from attr3 (38, or 24 for the legacy MTCHECK variant, copied through). */
static ue_result decode_nodes(ue_msh *m, ue_parse_ctx *c) {
    const ue_nres_entry *e = entry_of(m, UE_MSH_NODES);
    uint32_t stride = e->attr3;
    if (stride == UE_MSH_NODE_STRIDE_LEGACY) {
        m->legacy_nodes = true;
        ue_diag_add(c->d, UE_SEV_INFO, "msh.res1.legacy", dir_field(m, 1, 16), "msh/res1/attr3",
                    "stride-24 node table (legacy variant): copied through, not decoded");
        return UE_OK;
    }
    if (stride != UE_MSH_NODE_STRIDE)
        ue_diag_add(c->d, UE_SEV_WARNING, "msh.res1.stride", dir_field(m, 1, 16), "msh/res1/attr3",
                    "attr3 is %u, expected 38 (or 24); reading 38-byte records", stride);
    if (e->size % UE_MSH_NODE_STRIDE) {
        ue_violation(c, "msh.res.stride", res_offset(m, 1), "msh/res1",
                     "size %u is not a multiple of 38", e->size);
        return UE_OK;
    }
    size_t n = e->size / UE_MSH_NODE_STRIDE;
    if (e->attr1 != n)
        ue_violation(c, "msh.res.attr1", dir_field(m, 1, 4), "msh/res1/attr1",
                     "attr1 is %u, but the table holds %zu nodes", e->attr1, n);
    m->nodes = ue_calloc_items(n, sizeof *m->nodes);
    if (!m->nodes) return UE_ERR_NOMEM;
    m->node_count = n;
    decode_node_records(m, e->owned);
    return UE_OK;
}

static void decode_slot_records(ue_msh *m, const uint8_t *base) {
    for (size_t i = 0; i < m->slot_count; i++) {
        const uint8_t *p = base + i * UE_MSH_SLOT_SIZE;
        ue_msh_slot *s = &m->slots[i];
        s->tri_start = ue_load_u16le(p);
        s->tri_count = ue_load_u16le(p + 2);
        s->batch_start = ue_load_u16le(p + 4);
        s->batch_count = ue_load_u16le(p + 6);
        memcpy(s->aabb_min, p + 8, 12);
        memcpy(s->aabb_max, p + 20, 12);
        memcpy(s->sphere_center, p + 32, 12);
        memcpy(&s->sphere_radius, p + 44, 4);
        for (int k = 0; k < 5; k++) s->opaque[k] = ue_load_u32le(p + 48 + 4 * k);
    }
}

/* Res2: 140-byte header + Slot68 records. */
static ue_result decode_slots(ue_msh *m, ue_parse_ctx *c) {
    const ue_nres_entry *e = entry_of(m, UE_MSH_HEADER);
    if (e->size < UE_MSH_HEADER_SIZE || (e->size - UE_MSH_HEADER_SIZE) % UE_MSH_SLOT_SIZE) {
        ue_violation(c, "msh.res2.size", res_offset(m, 2), "msh/res2",
                     "size %u is not 140 + 68·n", e->size);
        return UE_OK;
    }
    memcpy(m->header, e->owned, UE_MSH_HEADER_SIZE);
    size_t n = (e->size - UE_MSH_HEADER_SIZE) / UE_MSH_SLOT_SIZE;
    if (e->attr1 != n)
        ue_violation(c, "msh.res.attr1", dir_field(m, 2, 4), "msh/res2/attr1",
                     "attr1 is %u, but the table holds %zu slots", e->attr1, n);
    if (e->attr3 != UE_MSH_SLOT_SIZE)
        ue_violation(c, "msh.res.attr3", dir_field(m, 2, 16), "msh/res2/attr3",
                     "attr3 is %u, expected 68", e->attr3);
    if (e->attr2 != 0)
        ue_diag_add(c->d, UE_SEV_WARNING, "msh.res.attr2", dir_field(m, 2, 8), "msh/res2/attr2",
                    "attr2 is %u, expected 0", e->attr2);
    m->slots = ue_calloc_items(n, sizeof *m->slots);
    if (!m->slots) return UE_ERR_NOMEM;
    m->slot_count = n;
    decode_slot_records(m, e->owned + UE_MSH_HEADER_SIZE);
    return UE_OK;
}

/* ---- fixed-stride tables (their sizes were checked by check_stride) ----------------------- */

/* Little-endian 32-bit words as floats: exact on every host, whatever its byte order. */
static float *take_f32(const uint8_t *p, size_t n) {
    float *out = ue_calloc_items(n, sizeof *out);
    if (!out) return NULL;
    for (size_t i = 0; i < n; i++) {
        uint32_t u = ue_load_u32le(p + 4 * i);
        memcpy(&out[i], &u, 4);
    }
    return out;
}

static uint16_t *take_u16(const uint8_t *p, size_t n) {
    uint16_t *out = ue_calloc_items(n, sizeof *out);
    if (!out) return NULL;
    for (size_t i = 0; i < n; i++) out[i] = ue_load_u16le(p + 2 * i);
    return out;
}

static int16_t *take_i16(const uint8_t *p, size_t n) {
    int16_t *out = ue_calloc_items(n, sizeof *out);
    if (!out) return NULL;
    for (size_t i = 0; i < n; i++) out[i] = (int16_t)ue_load_u16le(p + 2 * i);
    return out;
}

/* Records of bytes kept as they are (normals and colours are four bytes each). */
static uint8_t *take_bytes(const uint8_t *p, size_t n, size_t elem) {
    uint8_t *out = ue_calloc_items(n, elem);
    if (out && n) memcpy(out, p, n * elem);
    return out;
}

static ue_result decode_tris(ue_msh *m, size_t n) {
    m->tris = ue_calloc_items(n, sizeof *m->tris);
    if (!m->tris) return UE_ERR_NOMEM;
    const uint8_t *base = payload(m, UE_MSH_TRIS);
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = base + 16 * i;
        ue_msh_tri *t = &m->tris[i];
        t->flags = ue_load_u16le(p);
        for (int k = 0; k < 3; k++) t->link[k] = ue_load_u16le(p + 2 + 2 * k);
        for (int k = 0; k < 3; k++) t->normal[k] = (int16_t)ue_load_u16le(p + 8 + 2 * k);
        t->sel_packed = ue_load_u16le(p + 14);
    }
    m->tri_count = n;
    return UE_OK;
}

static ue_result decode_batches(ue_msh *m, size_t n) {
    m->batches = ue_calloc_items(n, sizeof *m->batches);
    if (!m->batches) return UE_ERR_NOMEM;
    const uint8_t *base = payload(m, UE_MSH_BATCHES);
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = base + 20 * i;
        ue_msh_batch *b = &m->batches[i];
        b->flags = ue_load_u16le(p);
        b->material = ue_load_u16le(p + 2);
        b->opaque4 = ue_load_u16le(p + 4);
        b->opaque6 = ue_load_u16le(p + 6);
        b->index_count = ue_load_u16le(p + 8);
        b->index_start = ue_load_u32le(p + 10);
        b->opaque14 = ue_load_u16le(p + 14);
        b->base_vertex = ue_load_u32le(p + 16);
    }
    m->batch_count = n;
    return UE_OK;
}

static ue_result decode_keys(ue_msh *m, size_t n) {
    m->keys = ue_calloc_items(n, sizeof *m->keys);
    if (!m->keys) return UE_ERR_NOMEM;
    const uint8_t *base = payload(m, UE_MSH_KEYS);
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = base + 24 * i;
        ue_msh_key *k = &m->keys[i];
        for (int c = 0; c < 4; c++) {
            uint32_t u = ue_load_u32le(p + 4 * c);
            memcpy(c < 3 ? &k->position[c] : &k->time, &u, 4);
        }
        for (int c = 0; c < 4; c++) k->quat[c] = (int16_t)ue_load_u16le(p + 16 + 2 * c);
    }
    m->key_count = n;
    return UE_OK;
}

/* Vertex streams: positions, normals, UVs, indices and colours. */
static ue_result decode_streams(ue_msh *m, const size_t *counts) {
    size_t n;
    if ((n = counts[UE_MSH_POSITIONS]) != SIZE_MAX) {
        if (!(m->positions = take_f32(payload(m, UE_MSH_POSITIONS), n * 3))) return UE_ERR_NOMEM;
        m->vertex_count = n;
    }
    if ((n = counts[UE_MSH_NORMALS]) != SIZE_MAX) {
        m->normals = (int8_t *)take_bytes(payload(m, UE_MSH_NORMALS), n, 4);
        if (!m->normals) return UE_ERR_NOMEM;
        m->normal_count = n;
    }
    if ((n = counts[UE_MSH_UV0]) != SIZE_MAX) {
        if (!(m->uv0 = take_i16(payload(m, UE_MSH_UV0), n * 2))) return UE_ERR_NOMEM;
        m->uv_count = n;
    }
    if ((n = counts[UE_MSH_INDICES]) != SIZE_MAX) {
        if (!(m->indices = take_u16(payload(m, UE_MSH_INDICES), n))) return UE_ERR_NOMEM;
        m->index_count = n;
    }
    if ((n = counts[UE_MSH_COLORS]) != SIZE_MAX) {
        m->colors = take_bytes(payload(m, UE_MSH_COLORS), n, 4);
        if (!m->colors) return UE_ERR_NOMEM;
        m->color_count = n;
    }
    return UE_OK;
}

/* Triangles, batches, animation keys and the frame map. */
static ue_result decode_records(ue_msh *m, const size_t *counts) {
    ue_result r = UE_OK;
    if (counts[UE_MSH_TRIS] != SIZE_MAX) r = decode_tris(m, counts[UE_MSH_TRIS]);
    if (r == UE_OK && counts[UE_MSH_BATCHES] != SIZE_MAX)
        r = decode_batches(m, counts[UE_MSH_BATCHES]);
    if (r == UE_OK && counts[UE_MSH_KEYS] != SIZE_MAX) r = decode_keys(m, counts[UE_MSH_KEYS]);
    size_t n = counts[UE_MSH_FRAME_MAP];
    if (r == UE_OK && n != SIZE_MAX) {
        if (!(m->frame_map = take_u16(payload(m, UE_MSH_FRAME_MAP), n))) return UE_ERR_NOMEM;
        m->frame_map_count = n;
        m->frame_count = entry_of(m, UE_MSH_FRAME_MAP)->attr2;
    }
    return r;
}

/* ---- Res10: exactly node_count length-prefixed records, nothing after them ------------------ */

/* Reads name record i at *at. Returns false when it runs past the end of Res10. */
static bool read_name_record(ue_msh *m, ue_parse_ctx *c, const ue_nres_entry *e, size_t i,
                             size_t *at, ue_result *r) {
    uint32_t len;
    char path[48];
    if (!ue_rd_u32le(e->owned, e->size, *at, &len) ||
        (len && !ue_range_ok(*at + 4, (uint64_t)len + 1, e->size))) {
        ue_violation(c, "msh.res10.truncated", res_offset(m, 10) + *at,
                     item_path(path, sizeof path, "msh/res10/record", i),
                     "record runs past the end of Res10");
        return false;
    }
    if (!len) {
        *at += 4;
        return true;
    }
    if (e->owned[*at + 4 + len] != 0)
        ue_diag_add(c->d, UE_SEV_WARNING, "msh.res10.nul", res_offset(m, 10) + *at + 4 + len,
                    item_path(path, sizeof path, "msh/res10/record", i),
                    "name lacks its NUL terminator");
    m->names[i].text = malloc((size_t)len + 1);
    if (!m->names[i].text) {
        *r = UE_ERR_NOMEM;
        return false;
    }
    memcpy(m->names[i].text, e->owned + *at + 4, len);
    m->names[i].text[len] = 0;
    m->names[i].length = len;
    m->names[i].present = true;
    *at += 4 + (size_t)len + 1;
    return true;
}

static ue_result decode_names(ue_msh *m, ue_parse_ctx *c) {
    const ue_nres_entry *e = entry_of(m, UE_MSH_NAMES);
    uint32_t expect = e->attr1;
    if (m->nodes && expect != m->node_count)
        ue_violation(c, "msh.res10.attr1", dir_field(m, 10, 4), "msh/res10/attr1",
                     "attr1 is %u, but the model has %zu nodes", expect, m->node_count);
    if (e->attr3 != 0)
        ue_diag_add(c->d, UE_SEV_WARNING, "msh.res.attr3", dir_field(m, 10, 16), "msh/res10/attr3",
                    "attr3 is %u, expected 0", e->attr3);
    size_t want = m->nodes ? m->node_count : expect;
    if (want > e->size / 4 + 1) want = e->size / 4 + 1; /* a record needs ≥ 4 bytes */
    m->names = ue_calloc_items(want, sizeof *m->names);
    if (!m->names) return UE_ERR_NOMEM;
    size_t at = 0, i = 0;
    ue_result r = UE_OK;
    bool broken = false;
    for (; i < want && !broken; i++) broken = !read_name_record(m, c, e, i, &at, &r);
    m->name_count = broken ? i - 1 : i;
    if (r != UE_OK) return r;
    if (!broken && at != e->size)
        ue_violation(c, "msh.res10.tail", res_offset(m, 10) + at, "msh/res10",
                     "%zu bytes follow the last name record", (size_t)(e->size - at));
    return UE_OK;
}

static ue_result decode_tables(ue_msh *m, ue_parse_ctx *c) {
    size_t counts[UE_MSH_TYPE_LIMIT];
    for (int t = 0; t < UE_MSH_TYPE_LIMIT; t++) counts[t] = SIZE_MAX;
    for (size_t r = 0; r < sizeof fixed_rules / sizeof fixed_rules[0]; r++)
        if (m->entry_of[fixed_rules[r].type] >= 0)
            counts[fixed_rules[r].type] = check_stride(m, &fixed_rules[r], c);
    ue_result r = UE_OK;
    if (m->entry_of[UE_MSH_NODES] >= 0) r = decode_nodes(m, c);
    if (r == UE_OK && m->entry_of[UE_MSH_HEADER] >= 0) r = decode_slots(m, c);
    /* Byte-for-byte copies are exact on a little-endian host; the decoders handle the packed
     * records with unaligned fields. */
    if (r == UE_OK) r = decode_streams(m, counts);
    if (r == UE_OK) r = decode_records(m, counts);
    if (r == UE_OK && m->entry_of[UE_MSH_NAMES] >= 0) r = decode_names(m, c);
    return r;
}

static bool finite_n(const float *f, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!isfinite(f[i])) return false;
    return true;
}

static void check_counts(const ue_msh *m, ue_parse_ctx *c) {
    static const int required[] = {UE_MSH_NODES, UE_MSH_HEADER, UE_MSH_POSITIONS, UE_MSH_INDICES,
                                   UE_MSH_BATCHES};
    char path[48];
    for (size_t r = 0; r < sizeof required / sizeof required[0]; r++)
        if (m->entry_of[required[r]] < 0) {
            snprintf(path, sizeof path, "msh/res%d", required[r]);
            ue_parse_error(c, "msh.res.missing", UE_NO_OFFSET, path,
                           "required resource type %d is missing", required[r]);
        }
    if (m->normals && m->normal_count != m->vertex_count)
        ue_violation(c, "msh.res4.count", dir_field(m, 4, 4), "msh/res4",
                     "%zu normals for %zu vertices", m->normal_count, m->vertex_count);
    if (m->uv0 && m->uv_count != m->vertex_count)
        ue_violation(c, "msh.res5.count", dir_field(m, 5, 4), "msh/res5",
                     "%zu UVs for %zu vertices", m->uv_count, m->vertex_count);
    for (size_t v = 0; v < m->vertex_count; v++)
        if (!finite_n(&m->positions[3 * v], 3)) {
            snprintf(path, sizeof path, "msh/res3/vertex[%zu]", v);
            ue_violation(c, "msh.res3.nonfinite", res_offset(m, UE_MSH_POSITIONS) + 12 * v, path,
                         "position is not a finite number; batches using it are not exported");
            break; /* one report is enough: a damaged stream tends to hold many */
        }
    if (m->colors && m->color_count != m->vertex_count)
        ue_diag_add(c->d, UE_SEV_WARNING, "msh.res18.count", dir_field(m, 18, 4), "msh/res18",
                    "%zu colours for %zu vertices; colours are not exported", m->color_count,
                    m->vertex_count);
}

static void check_batches(const ue_msh *m, ue_parse_ctx *c) {
    char path[64];
    for (size_t b = 0; b < m->batch_count; b++) {
        const ue_msh_batch *bt = &m->batches[b];
        uint64_t at = res_offset(m, UE_MSH_BATCHES) + 20 * b;
        if (!ue_range_ok(bt->index_start, bt->index_count, m->index_count)) {
            ue_violation(c, "msh.batch.indices", at + 10,
                         item_path(path, sizeof path, "msh/res13/batch", b),
                         "index range [%u, +%u) is outside Res6 (%zu indices)", bt->index_start,
                         bt->index_count, m->index_count);
            continue;
        }
        /* A triangle list: the engine draws index_count / 3 triangles, so leftover indices
         * are a broken batch (tolerant: the partial triangle is dropped on export). */
        if (bt->index_count % 3)
            ue_violation(c, "msh.batch.partial", at + 8,
                         item_path(path, sizeof path, "msh/res13/batch", b),
                         "index count %u is not a multiple of 3; the last %u indices form no triangle",
                         bt->index_count, bt->index_count % 3);
        uint32_t max_index = 0;
        for (uint32_t i = 0; i < bt->index_count; i++)
            if (m->indices[bt->index_start + i] > max_index) max_index = m->indices[bt->index_start + i];
        if (bt->index_count && (uint64_t)bt->base_vertex + max_index >= m->vertex_count)
            ue_violation(c, "msh.batch.vertex", at + 16,
                         item_path(path, sizeof path, "msh/res13/batch", b),
                         "base vertex %u + index %u reaches past %zu vertices", bt->base_vertex,
                         max_index, m->vertex_count);
    }
}

static void check_slots(const ue_msh *m, ue_parse_ctx *c) {
    char path[64];
    for (size_t s = 0; s < m->slot_count; s++) {
        const ue_msh_slot *sl = &m->slots[s];
        uint64_t at = res_offset(m, UE_MSH_HEADER) + UE_MSH_HEADER_SIZE + UE_MSH_SLOT_SIZE * s;
        /* Without Res13 msh.res.missing has said it all; one error per slot would bury it. */
        if (m->entry_of[UE_MSH_BATCHES] >= 0 && (size_t)sl->batch_start + sl->batch_count > m->batch_count)
            ue_violation(c, "msh.slot.batches", at + 4,
                         item_path(path, sizeof path, "msh/res2/slot", s),
                         "batch range [%u, +%u) is outside Res13 (%zu batches)", sl->batch_start,
                         sl->batch_count, m->batch_count);
        if ((size_t)sl->tri_start + sl->tri_count > m->tri_count)
            ue_violation(c, "msh.slot.tris", at,
                         item_path(path, sizeof path, "msh/res2/slot", s),
                         "triangle range [%u, +%u) is outside Res7 (%zu descriptors)",
                         sl->tri_start, sl->tri_count, m->tri_count);
        if (!finite_n(sl->aabb_min, 3) || !finite_n(sl->aabb_max, 3) ||
            !finite_n(sl->sphere_center, 3) || !isfinite(sl->sphere_radius))
            ue_violation(c, "msh.slot.bounds", at + 8,
                         item_path(path, sizeof path, "msh/res2/slot", s), "bounds are not finite");
    }
}

static void check_tri_links(const ue_msh *m, ue_parse_ctx *c) {
    char path[64];
    for (size_t t = 0; t < m->tri_count; t++)
        for (int k = 0; k < 3; k++)
            if (m->tris[t].link[k] != UE_MSH_NONE && m->tris[t].link[k] >= m->tri_count) {
                snprintf(path, sizeof path, "msh/res7/tri[%zu]/link%d", t, k);
                ue_violation(c, "msh.tri.link",
                             res_offset(m, UE_MSH_TRIS) + 16 * t + 2 + 2 * (unsigned)k, path,
                             "neighbour %u is not a triangle (%zu descriptors)",
                             m->tris[t].link[k], m->tri_count);
            }
}

static void check_node(const ue_msh *m, ue_parse_ctx *c, size_t n) {
    const ue_msh_node *nd = &m->nodes[n];
    uint64_t at = res_offset(m, UE_MSH_NODES) + UE_MSH_NODE_STRIDE * n;
    char path[64];
    if (nd->parent != UE_MSH_NONE && nd->parent >= n)
        ue_violation(c, "msh.node.parent", at + 2,
                     item_path(path, sizeof path, "msh/res1/node", n),
                     "parent %u does not precede the node", nd->parent);
    for (int s = 0; s < 15; s++)
        if (m->entry_of[UE_MSH_HEADER] >= 0 && nd->slot[s] != UE_MSH_NONE && nd->slot[s] >= m->slot_count)
            ue_violation(c, "msh.node.slot", at + 8 + 2 * (unsigned)s,
                         item_path(path, sizeof path, "msh/res1/node", n),
                         "slot[lod %d][group %d] = %u, but there are %zu slots", s / 5, s % 5,
                         nd->slot[s], m->slot_count);
    if (m->entry_of[UE_MSH_KEYS] >= 0 && nd->fallback_key >= m->key_count)
        ue_violation(c, "msh.node.fallback_key", at + 6,
                     item_path(path, sizeof path, "msh/res1/node", n),
                     "fallback key %u, but Res8 holds %zu keys", nd->fallback_key, m->key_count);
    if (nd->anim_map_start != UE_MSH_NONE &&
        (uint64_t)nd->anim_map_start + m->frame_count > m->frame_map_count)
        ue_violation(c, "msh.node.frame_map", at + 4,
                     item_path(path, sizeof path, "msh/res1/node", n),
                     "frame map [%u, +%u) is outside Res19 (%zu words)", nd->anim_map_start,
                     m->frame_count, m->frame_map_count);
}

ue_result ue_msh_check(const ue_msh *m, ue_mode mode, ue_diag *d) {
    ue_parse_ctx c = ue_parse_begin(mode, d);
    check_counts(m, &c);
    check_batches(m, &c);
    check_slots(m, &c);
    check_tri_links(m, &c);
    for (size_t n = 0; n < m->node_count; n++) check_node(m, &c, n);
    ue_msh_check_animation(m, &c);
    return c.failure;
}

/* entry_of[type] for every core resource; a second one of a type is a violation (the first is
 * used). */
static void index_resources(ue_msh *m, ue_parse_ctx *pc) {
    const ue_nres *c = &m->container;
    for (size_t i = 0; i < c->count; i++) {
        const ue_nres_entry *e = &c->entries[i];
        if (e->type_id >= UE_MSH_TYPE_LIMIT || e->damaged) continue;
        if (m->entry_of[e->type_id] >= 0) {
            char path[48];
            snprintf(path, sizeof path, "msh/res%u", e->type_id);
            ue_violation(pc, "msh.res.duplicate", c->dir_offset + i * UE_NRES_ENTRY_SIZE, path,
                         "second resource of type %u (entry %zu); the first is used", e->type_id,
                         i);
            continue;
        }
        m->entry_of[e->type_id] = (int32_t)i;
    }
}

ue_result ue_msh_parse(const uint8_t *data, size_t size, ue_mode mode, ue_msh *out, ue_diag *d) {
    ue_msh_init(out);
    ue_source src = ue_source_memory(data, size);
    ue_nres_free(&out->container);
    ue_result r = ue_nres_parse(&src, mode, &out->container, d);
    if (r != UE_OK) {
        ue_msh_init(out);
        return r;
    }
    /* Own every payload so the model outlives `data` and can be edited in place. */
    ue_nres *c = &out->container;
    for (size_t i = 0; i < c->count; i++) {
        ue_nres_entry *e = &c->entries[i];
        if (e->damaged) continue;
        e->owned = ue_malloc_items(e->size, 1);
        if (!e->owned) {
            ue_msh_free(out);
            return UE_ERR_NOMEM;
        }
        if (e->size) memcpy(e->owned, data + e->data_offset, e->size);
    }
    c->src = NULL;
    ue_parse_ctx pc = ue_parse_begin(mode, d);
    index_resources(out, &pc);
    r = decode_tables(out, &pc);
    if (r == UE_OK) ue_parse_fail(&pc, ue_msh_check(out, mode, d));
    if (r == UE_OK) r = pc.failure;
    if (r != UE_OK) ue_msh_free(out);
    return r;
}
