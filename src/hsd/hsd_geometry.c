/* unearth — the GX display-list decoder (docs/formats/hsd-model.md#display-lists): a PObj's primitives as indexed
 * counter-clockwise triangles over one vertex per distinct vertex record, every attribute decoded. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsd/hsd_int.h"
#include "common/bytes.h"
#include "common/collections.h"

enum {
    PRIM_QUADS = 0x80, PRIM_TRIANGLES = 0x90, PRIM_STRIP = 0x98, PRIM_FAN = 0xA0,
    PRIM_LINES = 0xA8, PRIM_LINE_STRIP = 0xB0, PRIM_POINTS = 0xB8
};

/* One decode in progress. */
typedef struct hsd_decoder {
    ue_parse_ctx c;
    const ue_hsd_pobj *po;
    const ue_hsd_vtx_attr *attrs;
    hsd_attr_layout lay[HSD_MAX_ATTRS];
    float scale[HSD_MAX_ATTRS]; /* 2^-frac per descriptor: integer components are multiplied */
    uint32_t n_attrs, record;   /* descriptors and bytes per vertex record */
    ue_hsd_geometry *g;
    size_t vcap, icap;          /* vertex and index capacities */
    uint32_t *first_seen;       /* per vertex: list offset of its record */
    uint32_t *slots;            /* dedupe hash: vertex id + 1, 0 = empty */
    size_t slot_cap;
    uint32_t *prim;             /* vertex ids of the primitive being read */
    size_t prim_cap;
    hsd_records *rec;           /* NULL, or where every drawn record lies (edits in place) */
    char path[160];             /* "dat/joint[j]/dobj[k]/pobj[p]", or "dat/pobj[i]" */
} hsd_decoder;

static uint64_t file_at(uint32_t data_offset) { return UE_DAT_HEADER + (uint64_t)data_offset; }

static void nomem(hsd_decoder *k) { ue_parse_fail(&k->c, UE_ERR_NOMEM); }

/* ---- checking the descriptors -------------------------------------------------------------- */

static bool check_attrs(hsd_decoder *k, const ue_hsd_model *m) {
    const ue_hsd_pobj *po = k->po;
    bool has_pos = false;
    char path[96];
    if (po->attr_count > HSD_MAX_ATTRS || po->attr_first > m->attr_count ||
        po->attr_count > m->attr_count - po->attr_first) {
        snprintf(path, sizeof path, "%s/attr", k->path);
        ue_violation(&k->c, "hsd.pobj.attr", file_at(po->attrs_offset), path,
                     "descriptor range %u+%u is not in the model's table", po->attr_first,
                     po->attr_count);
        return false;
    }
    k->attrs = po->attr_count ? m->attrs + po->attr_first : NULL; /* NULL + 0 is undefined */
    k->n_attrs = po->attr_count;
    for (uint32_t i = 0; i < k->n_attrs; i++) {
        const char *why = NULL;
        snprintf(path, sizeof path, "%s/attr[%u]", k->path, i);
        if (!hsd_attr_layout_of(&k->attrs[i], &k->lay[i], &why)) {
            ue_violation(&k->c, "hsd.pobj.attr", file_at(k->attrs[i].offset), path,
                         "vertex descriptor: %s", why);
            return false;
        }
        bool indexed = k->attrs[i].type >= UE_GX_INDEX8;
        if (indexed && !k->attrs[i].array) {
            ue_violation(&k->c, "hsd.pobj.array", file_at(k->attrs[i].offset + 20), path,
                         "indexed attribute %u has no array", k->attrs[i].attr);
            return false;
        }
        k->record += k->lay[i].record_bytes;
        k->scale[i] = ldexpf(1.0f, -(int)k->attrs[i].frac); /* exact: a power of two */
        if (k->attrs[i].attr == UE_GX_VA_POS && k->attrs[i].type != UE_GX_NONE) has_pos = true;
    }
    if (!has_pos) {
        snprintf(path, sizeof path, "%s/attr", k->path);
        ue_violation(&k->c, "hsd.pobj.attr", file_at(po->attrs_offset), path,
                     "no position attribute");
        return false;
    }
    return true;
}

/* ---- output arrays ------------------------------------------------------------------------- */

static bool grow_floats(float **p, size_t cap, size_t per) {
    if (!*p) return true;
    float *q = realloc(*p, cap * per * sizeof *q);
    if (!q) return false;
    *p = q;
    return true;
}

/* Room for one more vertex in every array the descriptors ask for. */
static bool vertex_room(hsd_decoder *k) {
    ue_hsd_geometry *g = k->g;
    if (g->vertex_count < k->vcap) return true;
    size_t cap = k->vcap ? 2 * k->vcap : 64;
    uint32_t *seen = realloc(k->first_seen, cap * sizeof *seen);
    if (!seen) return false;
    k->first_seen = seen;
    bool ok = grow_floats(&g->positions, cap, 3) && grow_floats(&g->normals, cap, 3) &&
              grow_floats(&g->uv[0], cap, 2) && grow_floats(&g->uv[1], cap, 2) &&
              grow_floats(&g->colors[0], cap, 4) && grow_floats(&g->colors[1], cap, 4);
    if (ok && g->pnmtx) {
        uint8_t *q = realloc(g->pnmtx, cap);
        if (!q) return false;
        g->pnmtx = q;
    }
    if (ok) k->vcap = cap;
    return ok;
}

/* Allocates the arrays of the attributes present, sized for the records the list can hold (up
 * to 1024 vertices at first; vertex_room doubles them past that), so a typical PObj allocates
 * once. */
static bool open_outputs(hsd_decoder *k) {
    ue_hsd_geometry *g = k->g;
    size_t records = k->po->dl_size / k->record + 1;
    size_t n = records < 1024 ? records : 1024;
    g->positions = malloc(n * 3 * sizeof(float));
    bool ok = g->positions != NULL;
    for (uint32_t i = 0; ok && i < k->n_attrs; i++) {
        uint32_t a = k->attrs[i].attr;
        if (k->attrs[i].type == UE_GX_NONE) continue;
        if ((a == UE_GX_VA_NRM || a == UE_GX_VA_NBT) && !g->normals)
            ok = (g->normals = malloc(n * 3 * sizeof(float))) != NULL;
        else if ((a == UE_GX_VA_TEX0 || a == UE_GX_VA_TEX0 + 1) && !g->uv[a - UE_GX_VA_TEX0])
            ok = (g->uv[a - UE_GX_VA_TEX0] = malloc(n * 2 * sizeof(float))) != NULL;
        else if ((a == UE_GX_VA_CLR0 || a == UE_GX_VA_CLR1) && !g->colors[a - UE_GX_VA_CLR0])
            ok = (g->colors[a - UE_GX_VA_CLR0] = malloc(n * 4 * sizeof(float))) != NULL;
        else if (a == UE_GX_VA_PNMTXIDX && !g->pnmtx)
            ok = (g->pnmtx = malloc(n)) != NULL;
    }
    k->vcap = n;
    k->first_seen = malloc(n * sizeof *k->first_seen);
    return ok && k->first_seen;
}

static bool push_index(hsd_decoder *k, uint32_t v) {
    ue_hsd_geometry *g = k->g;
    if (g->index_count == k->icap) {
        size_t cap = k->icap ? 2 * k->icap : 3 * k->vcap; /* a strip: ~1 triangle a record */
        uint32_t *q = realloc(g->indices, cap * sizeof *q);
        if (!q) return false;
        g->indices = q;
        k->icap = cap;
    }
    g->indices[g->index_count++] = v;
    return true;
}

/* GX triangle (a, b, c) is clockwise-front; glTF wants counter-clockwise: emit (a, c, b). */
static bool emit(hsd_decoder *k, uint32_t a, uint32_t b, uint32_t c) {
    return push_index(k, a) && push_index(k, c) && push_index(k, b);
}

/* ---- decoding one vertex record (docs/formats/hsd-model.md#attribute-values) --------------- */

/* Component `i` of a U8/S8/U16/S16/F32 element, integer types times `scale` (2^-frac). */
static float component(const uint8_t *p, uint32_t comp_type, float scale, uint32_t i) {
    uint32_t size = comp_type < 2 ? 1 : comp_type < 4 ? 2 : 4;
    return (float)hsd_component_value(p + size * i, comp_type, scale);
}

/* Bit replication: the top bits fill the low end, as the hardware expands (Dolphin, docs/formats/hsd-model.md#attribute-values). */
static uint8_t expand(uint32_t v, unsigned bits) {
    v &= (1u << bits) - 1;
    uint32_t out = v << (8 - bits);
    for (unsigned have = bits; have < 8; have += bits) out |= out >> bits;
    return (uint8_t)out;
}

static void decode_color(const uint8_t *p, uint32_t format, float *rgba) {
    uint8_t c[4] = {0, 0, 0, 255};
    uint32_t v16 = ue_load_u16be(p), v24 = ((uint32_t)p[0] << 16) | ((uint32_t)p[1] << 8) | p[2];
    switch (format) {
    case 0: c[0] = expand(v16 >> 11, 5); c[1] = expand(v16 >> 5, 6); c[2] = expand(v16, 5); break;
    case 3:
        c[0] = expand(v16 >> 12, 4), c[1] = expand(v16 >> 8, 4);
        c[2] = expand(v16 >> 4, 4), c[3] = expand(v16, 4);
        break;
    case 4:
        c[0] = expand(v24 >> 18, 6), c[1] = expand(v24 >> 12, 6);
        c[2] = expand(v24 >> 6, 6), c[3] = expand(v24, 6);
        break;
    default: /* RGB8, RGBX8 (the fourth byte unused), RGBA8 */
        memcpy(c, p, 3);
        if (format == 5) c[3] = p[3];
        break;
    }
    for (int i = 0; i < 4; i++) rgba[i] = (float)c[i] / 255.0f;
}

/* Where attribute `i`'s value lies: inline in the record, or in its array at the index the
 * record holds (checked against the array's readable bytes). NULL after a violation. */
static const uint8_t *attr_source(hsd_decoder *k, uint32_t i, const uint8_t *field,
                                  uint32_t field_at) {
    const ue_hsd_vtx_attr *a = &k->attrs[i];
    if (a->type == UE_GX_DIRECT) return field;
    const uint8_t *first = NULL;
    for (uint32_t n = 0; n < k->lay[i].indices; n++) {
        uint32_t idx = a->type == UE_GX_INDEX8 ? field[n] : ue_load_u16be(field + 2 * n);
        uint64_t end = (uint64_t)idx * a->stride + k->lay[i].elem_bytes;
        if (end > a->array_size) {
            char path[96];
            snprintf(path, sizeof path, "%s/dl", k->path);
            ue_violation(&k->c, "hsd.dl.index", file_at(field_at), path,
                         "attribute %u index %u (stride %u) is past the %zu readable bytes of "
                         "its array", a->attr, idx, a->stride, a->array_size);
            return NULL;
        }
        if (n == 0) first = a->array + (size_t)idx * a->stride;
    }
    return first; /* NBT3: the normal is the first index's vector */
}

static void store_value(hsd_decoder *k, uint32_t i, const uint8_t *src, uint32_t v) {
    const ue_hsd_vtx_attr *a = &k->attrs[i];
    ue_hsd_geometry *g = k->g;
    uint32_t attr = a->attr;
    if (attr == UE_GX_VA_PNMTXIDX) g->pnmtx[v] = src[0];
    else if (attr == UE_GX_VA_POS)
        for (uint32_t c = 0; c < 3; c++)
            g->positions[3 * v + c] =
                c < k->lay[i].comps ? component(src, a->comp_type, k->scale[i], c) : 0.0f;
    else if (attr == UE_GX_VA_NRM || attr == UE_GX_VA_NBT)
        for (uint32_t c = 0; c < 3; c++) /* the normal: the first of N, B, T */
            g->normals[3 * v + c] = component(src, a->comp_type, k->scale[i], c);
    else if (attr == UE_GX_VA_CLR0 || attr == UE_GX_VA_CLR1)
        decode_color(src, a->comp_type, g->colors[attr - UE_GX_VA_CLR0] + 4 * v);
    else if (attr == UE_GX_VA_TEX0 || attr == UE_GX_VA_TEX0 + 1) {
        float *uv = g->uv[attr - UE_GX_VA_TEX0] + 2 * v;
        uv[0] = component(src, a->comp_type, k->scale[i], 0);
        uv[1] = k->lay[i].comps > 1 ? component(src, a->comp_type, k->scale[i], 1) : 0.0f;
    } /* TEXnMTXIDX and TEX2..7: consumed, not kept */
}

/* Decodes the record at list offset `at` into new vertex `v`. */
static bool decode_vertex(hsd_decoder *k, uint32_t at, uint32_t v) {
    const uint8_t *rec = k->po->dl + at;
    ue_hsd_geometry *g = k->g;
    if (g->normals) memset(g->normals + 3 * v, 0, 3 * sizeof(float));
    for (int s = 0; s < 2; s++) {
        if (g->uv[s]) memset(g->uv[s] + 2 * v, 0, 2 * sizeof(float));
        if (g->colors[s])
            for (int c = 0; c < 4; c++) g->colors[s][4 * v + (uint32_t)c] = 1.0f;
    }
    if (g->pnmtx) g->pnmtx[v] = 0;
    uint32_t pos = 0;
    for (uint32_t i = 0; i < k->n_attrs; i++) {
        if (k->attrs[i].type == UE_GX_NONE) continue;
        const uint8_t *src = attr_source(k, i, rec + pos, k->po->dl_offset + at + pos);
        if (!src) return false;
        store_value(k, i, src, v);
        pos += k->lay[i].record_bytes;
    }
    return true;
}

/* ---- one vertex per distinct record -------------------------------------------------------- */

static uint64_t record_hash(const uint8_t *p, uint32_t n) {
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
    for (uint32_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static bool rehash(hsd_decoder *k) {
    size_t cap = k->slot_cap ? 2 * k->slot_cap : 128;
    while (cap < 2 * k->vcap) cap *= 2; /* half full at most: probes stay short */
    uint32_t *slots = calloc(cap, sizeof *slots);
    if (!slots) return false;
    for (uint32_t v = 0; v < k->g->vertex_count; v++) {
        size_t s = (size_t)record_hash(k->po->dl + k->first_seen[v], k->record) & (cap - 1);
        while (slots[s]) s = (s + 1) & (cap - 1);
        slots[s] = v + 1;
    }
    free(k->slots);
    k->slots = slots;
    k->slot_cap = cap;
    return true;
}

/* Notes that the drawn record at list offset `at` is vertex `v` (hsd_records). */
static bool note_record(hsd_decoder *k, uint32_t at, uint32_t v) {
    hsd_records *r = k->rec;
    if (!r) return true;
    if (ue_array_make_room((void **)&r->occ_at, r->occ_count, sizeof *r->occ_at, UINT32_MAX) != UE_OK ||
        ue_array_make_room((void **)&r->occ_vertex, r->occ_count, sizeof *r->occ_vertex, UINT32_MAX) != UE_OK)
        return false;
    r->occ_at[r->occ_count] = at;
    r->occ_vertex[r->occ_count++] = v;
    return true;
}

/* The vertex of the record at list offset `at`: the one of an identical record seen before, or
 * a new one decoded now. False after a violation or when memory runs out. */
static bool vertex_of(hsd_decoder *k, uint32_t at, uint32_t *out) {
    const uint8_t *rec = k->po->dl + at;
    if (2 * ((size_t)k->g->vertex_count + 1) > k->slot_cap && !rehash(k)) {
        nomem(k);
        return false;
    }
    size_t s = (size_t)record_hash(rec, k->record) & (k->slot_cap - 1);
    for (; k->slots[s]; s = (s + 1) & (k->slot_cap - 1)) {
        uint32_t v = k->slots[s] - 1;
        if (memcmp(k->po->dl + k->first_seen[v], rec, k->record) == 0) {
            *out = v;
            if (note_record(k, at, v)) return true;
            nomem(k);
            return false;
        }
    }
    if (!vertex_room(k)) {
        nomem(k);
        return false;
    }
    uint32_t v = k->g->vertex_count;
    if (!decode_vertex(k, at, v)) return false;
    k->first_seen[v] = at;
    k->slots[s] = v + 1;
    k->g->vertex_count++;
    *out = v;
    if (note_record(k, at, v)) return true;
    nomem(k);
    return false;
}

/* ---- primitives (docs/formats/hsd-model.md#triangles) -------------------------------------- */

static bool triangulate(hsd_decoder *k, uint32_t prim, const uint32_t *v, uint32_t n) {
    bool ok = true;
    if (prim == PRIM_TRIANGLES)
        for (uint32_t i = 0; ok && i + 2 < n; i += 3) ok = emit(k, v[i], v[i + 1], v[i + 2]);
    else if (prim == PRIM_QUADS)
        for (uint32_t i = 0; ok && i + 3 < n; i += 4)
            ok = emit(k, v[i], v[i + 1], v[i + 2]) && emit(k, v[i], v[i + 2], v[i + 3]);
    else if (prim == PRIM_FAN)
        for (uint32_t i = 1; ok && i + 1 < n; i++) ok = emit(k, v[0], v[i], v[i + 1]);
    else /* strip: odd triangles swap their first two vertices to keep one winding */
        for (uint32_t i = 0; ok && i + 2 < n; i++) {
            uint32_t a = v[i], b = v[i + 1], c = v[i + 2];
            if (a == b || b == c || a == c) continue; /* degenerate: a strip's stitch */
            ok = (i & 1) ? emit(k, b, a, c) : emit(k, a, b, c);
        }
    if (!ok) nomem(k);
    return ok;
}

/* Reads one primitive at list offset *pos (past its 3-byte header); false stops the list. */
static bool read_primitive(hsd_decoder *k, uint32_t prim, uint32_t count, uint32_t *pos) {
    char path[96];
    snprintf(path, sizeof path, "%s/dl", k->path);
    uint64_t bytes = (uint64_t)count * k->record;
    if (bytes > k->po->dl_size - *pos) {
        ue_violation(&k->c, "hsd.dl.size", file_at(k->po->dl_offset + *pos - 3), path,
                     "primitive of %u vertices × %u bytes runs past the list's %zu bytes",
                     count, k->record, k->po->dl_size);
        return false;
    }
    uint32_t start = *pos;
    *pos += (uint32_t)bytes;
    if (prim == PRIM_LINES || prim == PRIM_LINE_STRIP) {
        k->g->skipped_lines += prim == PRIM_LINES ? count / 2 : (count ? count - 1 : 0);
        return true;
    }
    if (prim == PRIM_POINTS) {
        k->g->skipped_points += count;
        return true;
    }
    if ((prim == PRIM_TRIANGLES && count % 3) || (prim == PRIM_QUADS && count % 4))
        ue_violation(&k->c, "hsd.dl.count", file_at(k->po->dl_offset + start - 3), path,
                     "%u vertices do not make whole %s", count,
                     prim == PRIM_QUADS ? "quads" : "triangles");
    if (count > k->prim_cap) {
        uint32_t *q = realloc(k->prim, count * sizeof *q);
        if (!q) {
            nomem(k);
            return false;
        }
        k->prim = q;
        k->prim_cap = count;
    }
    for (uint32_t i = 0; i < count; i++)
        if (!vertex_of(k, start + i * k->record, &k->prim[i])) return false;
    return !ue_parse_failed(&k->c) && triangulate(k, prim, k->prim, count);
}

static bool known_primitive(uint32_t prim) {
    return prim == PRIM_QUADS || prim == PRIM_TRIANGLES || prim == PRIM_STRIP ||
           prim == PRIM_FAN || prim == PRIM_LINES || prim == PRIM_LINE_STRIP ||
           prim == PRIM_POINTS;
}

/* Walks the list: op, u16 count, count records; a NOP (0) or the list's end stops it. */
static void read_list(hsd_decoder *k) {
    const ue_hsd_pobj *po = k->po;
    char path[96];
    snprintf(path, sizeof path, "%s/dl", k->path);
    uint32_t pos = 0;
    while (pos < po->dl_size && po->dl[pos] != 0 && !ue_parse_failed(&k->c)) {
        uint32_t prim = po->dl[pos] & 0xF8u;
        if (!known_primitive(prim)) {
            ue_violation(&k->c, "hsd.dl.primitive", file_at(po->dl_offset + pos), path,
                         "unknown primitive 0x%02x", po->dl[pos]);
            return;
        }
        if (po->dl_size - pos < 3) {
            ue_violation(&k->c, "hsd.dl.size", file_at(po->dl_offset + pos), path,
                         "primitive header runs past the list's %zu bytes", po->dl_size);
            return;
        }
        uint32_t count = ue_load_u16be(po->dl + pos + 1);
        pos += 3;
        if (!read_primitive(k, prim, count, &pos)) return;
    }
}

/* ---- entry points -------------------------------------------------------------------------- */

void ue_hsd_geometry_free(ue_hsd_geometry *g) {
    if (!g) return;
    free(g->positions);
    free(g->normals);
    for (int s = 0; s < 2; s++) {
        free(g->uv[s]);
        free(g->colors[s]);
    }
    free(g->pnmtx);
    free(g->indices);
    memset(g, 0, sizeof *g);
}

ue_result ue_hsd_pobj_decode(const ue_hsd_model *m, size_t index, ue_mode mode,
                             ue_hsd_geometry *g, ue_diag *d) {
    return hsd_pobj_decode_at(m, index, NULL, mode, g, d);
}

ue_result hsd_pobj_decode_at(const ue_hsd_model *m, size_t index, const char *path, ue_mode mode,
                             ue_hsd_geometry *g, ue_diag *d) {
    return hsd_pobj_decode_records(m, index, path, mode, g, NULL, d);
}

void hsd_records_free(hsd_records *r) {
    if (!r) return;
    free(r->first_at);
    free(r->occ_at);
    free(r->occ_vertex);
    memset(r, 0, sizeof *r);
}

ue_result hsd_pobj_decode_records(const ue_hsd_model *m, size_t index, const char *path, ue_mode mode,
                                  ue_hsd_geometry *g, hsd_records *rec, ue_diag *d) {
    memset(g, 0, sizeof *g);
    if (rec) memset(rec, 0, sizeof *rec);
    if (!m || index >= m->pobj_count) return UE_ERR_USAGE;
    hsd_decoder k;
    memset(&k, 0, sizeof k);
    k.c = ue_parse_begin(mode, d);
    k.po = &m->pobjs[index];
    k.g = g;
    k.rec = rec;
    if (path) snprintf(k.path, sizeof k.path, "%s", path);
    else snprintf(k.path, sizeof k.path, "dat/pobj[%zu]", index);
    if (k.po->dl && k.po->dl_size > 0 && check_attrs(&k, m)) {
        if (!open_outputs(&k)) nomem(&k);
        else read_list(&k);
    }
    if (g->skipped_lines || g->skipped_points)
        ue_diag_add(d, UE_SEV_INFO, "hsd.dl.skipped", file_at(k.po->dl_offset), k.path,
                    "%zu lines and %zu points are not drawn", g->skipped_lines,
                    g->skipped_points);
    if (rec && !ue_parse_failed(&k.c)) {
        rec->first_at = k.first_seen; /* handed over: where each vertex's record lies */
        rec->record_bytes = k.record;
        k.first_seen = NULL;
    }
    free(k.first_seen);
    free(k.slots);
    free(k.prim);
    if (ue_parse_failed(&k.c)) ue_hsd_geometry_free(g), hsd_records_free(rec);
    return k.c.failure;
}
