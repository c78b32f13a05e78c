/* unearth — MSH writer and editor (docs/formats/msh.md#writer-rules): edited tables are re-encoded into their NRes
 * entries with attrs recomputed per docs/formats/msh.md#writer-rules; untouched resources keep their bytes and attrs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/math3d.h"
#include "unearth/msh.h"
#include "common/bytes.h"
#include "parkan/msh_anim.h"

/* Order in which a model built from scratch lays out its resources (the retail order). */
static const uint8_t canonical_order[] = {1, 2, 3, 4, 5, 18, 15, 13, 6, 7, 8, 19, 10};

static void put_f32(ue_buf *b, float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    ue_buf_put_u32le(b, u);
}

static void encode(const ue_msh *m, int type, ue_buf *b) {
    switch (type) {
    case UE_MSH_NODES:
        for (size_t i = 0; i < m->node_count; i++) {
            const ue_msh_node *n = &m->nodes[i];
            ue_buf_put_u16le(b, n->flags);
            ue_buf_put_u16le(b, n->parent);
            ue_buf_put_u16le(b, n->anim_map_start);
            ue_buf_put_u16le(b, n->fallback_key);
            for (int s = 0; s < 15; s++) ue_buf_put_u16le(b, n->slot[s]);
        }
        break;
    case UE_MSH_HEADER:
        ue_buf_put(b, m->header, UE_MSH_HEADER_SIZE);
        for (size_t i = 0; i < m->slot_count; i++) {
            const ue_msh_slot *s = &m->slots[i];
            ue_buf_put_u16le(b, s->tri_start);
            ue_buf_put_u16le(b, s->tri_count);
            ue_buf_put_u16le(b, s->batch_start);
            ue_buf_put_u16le(b, s->batch_count);
            for (int k = 0; k < 3; k++) put_f32(b, s->aabb_min[k]);
            for (int k = 0; k < 3; k++) put_f32(b, s->aabb_max[k]);
            for (int k = 0; k < 3; k++) put_f32(b, s->sphere_center[k]);
            put_f32(b, s->sphere_radius);
            for (int k = 0; k < 5; k++) ue_buf_put_u32le(b, s->opaque[k]);
        }
        break;
    case UE_MSH_POSITIONS:
        for (size_t i = 0; i < m->vertex_count * 3; i++) put_f32(b, m->positions[i]);
        break;
    case UE_MSH_NORMALS:
        ue_buf_put(b, m->normals, m->normal_count * 4);
        break;
    case UE_MSH_UV0:
        for (size_t i = 0; i < m->uv_count * 2; i++) ue_buf_put_u16le(b, (uint16_t)m->uv0[i]);
        break;
    case UE_MSH_INDICES:
        for (size_t i = 0; i < m->index_count; i++) ue_buf_put_u16le(b, m->indices[i]);
        break;
    case UE_MSH_TRIS:
        for (size_t i = 0; i < m->tri_count; i++) {
            const ue_msh_tri *t = &m->tris[i];
            ue_buf_put_u16le(b, t->flags);
            for (int k = 0; k < 3; k++) ue_buf_put_u16le(b, t->link[k]);
            for (int k = 0; k < 3; k++) ue_buf_put_u16le(b, (uint16_t)t->normal[k]);
            ue_buf_put_u16le(b, t->sel_packed);
        }
        break;
    case UE_MSH_BATCHES:
        for (size_t i = 0; i < m->batch_count; i++) {
            const ue_msh_batch *t = &m->batches[i];
            ue_buf_put_u16le(b, t->flags);
            ue_buf_put_u16le(b, t->material);
            ue_buf_put_u16le(b, t->opaque4);
            ue_buf_put_u16le(b, t->opaque6);
            ue_buf_put_u16le(b, t->index_count);
            ue_buf_put_u32le(b, t->index_start);
            ue_buf_put_u16le(b, t->opaque14);
            ue_buf_put_u32le(b, t->base_vertex);
        }
        break;
    case UE_MSH_COLORS:
        ue_buf_put(b, m->colors, m->color_count * 4);
        break;
    case UE_MSH_KEYS:
        for (size_t i = 0; i < m->key_count; i++) {
            const ue_msh_key *k = &m->keys[i];
            for (int c = 0; c < 3; c++) put_f32(b, k->position[c]);
            put_f32(b, k->time);
            for (int c = 0; c < 4; c++) ue_buf_put_u16le(b, (uint16_t)k->quat[c]);
        }
        break;
    case UE_MSH_FRAME_MAP:
        for (size_t i = 0; i < m->frame_map_count; i++) ue_buf_put_u16le(b, m->frame_map[i]);
        break;
    case UE_MSH_NAMES:
        for (size_t i = 0; i < m->node_count; i++) {
            const ue_msh_name *n = i < m->name_count ? &m->names[i] : NULL;
            if (n && n->present && n->length) {
                ue_buf_put_u32le(b, n->length);
                ue_buf_put(b, n->text, n->length);
                ue_buf_put_u8(b, 0);
            } else {
                ue_buf_put_u32le(b, 0);
            }
        }
        break;
    default:
        break;
    }
}

static bool decoded(const ue_msh *m, int type) {
    switch (type) {
    case UE_MSH_NODES: return m->nodes != NULL && !m->legacy_nodes;
    case UE_MSH_HEADER: return m->slots != NULL;
    case UE_MSH_POSITIONS: return m->positions != NULL;
    case UE_MSH_NORMALS: return m->normals != NULL;
    case UE_MSH_UV0: return m->uv0 != NULL;
    case UE_MSH_INDICES: return m->indices != NULL;
    case UE_MSH_TRIS: return m->tris != NULL;
    case UE_MSH_BATCHES: return m->batches != NULL;
    case UE_MSH_COLORS: return m->colors != NULL;
    case UE_MSH_KEYS: return m->keys != NULL;
    case UE_MSH_FRAME_MAP: return m->frame_map != NULL;
    case UE_MSH_NAMES: return m->names != NULL;
    default: return false;
    }
}

ue_result ue_msh_encode_table(const ue_msh *m, int type, ue_buf *out) {
    if (type < 0 || type >= UE_MSH_TYPE_LIMIT || !decoded(m, type)) return UE_ERR_USAGE;
    encode(m, type, out);
    return out->failed ? UE_ERR_NOMEM : UE_OK;
}

ue_result ue_msh_verify_tables(const ue_msh *m, size_t *tables_checked, ue_diag *d) {
    ue_result worst = UE_OK;
    size_t checked = 0;
    for (int t = 0; t < UE_MSH_TYPE_LIMIT; t++) {
        int32_t e = m->entry_of[t];
        if (e < 0 || !decoded(m, t)) continue;
        const ue_nres_entry *en = &m->container.entries[e];
        ue_buf b = {0};
        encode(m, t, &b);
        if (b.failed) {
            ue_buf_free(&b);
            return UE_ERR_NOMEM;
        }
        checked++;
        size_t at = 0, n = b.size < en->size ? b.size : en->size;
        while (at < n && b.data[at] == en->owned[at]) at++;
        if (at != n || b.size != en->size) {
            char path[32];
            snprintf(path, sizeof path, "msh/res%d", t);
            ue_diag_add(d, UE_SEV_ERROR, "msh.roundtrip", en->data_offset + at, path,
                        "re-encoded table differs at byte %zu (stored %u bytes, encoded %zu)", at,
                        en->size, b.size);
            worst = UE_ERR_MISMATCH;
        }
        ue_buf_free(&b);
    }
    if (tables_checked) *tables_checked = checked;
    return worst;
}

/* attr1/attr2/attr3 of a re-encoded resource (docs/formats/msh.md#writer-rules). */
static void canonical_attrs(const ue_msh *m, int type, uint32_t size, uint32_t old_attr2,
                            uint32_t attrs[3]) {
    static const uint32_t stride[UE_MSH_TYPE_LIMIT] = {
        [3] = 12, [4] = 4, [5] = 4, [6] = 2, [7] = 16, [13] = 20, [15] = 8, [16] = 8, [18] = 4};
    attrs[1] = 0;
    switch (type) {
    case UE_MSH_NODES:
        attrs[0] = (uint32_t)m->node_count, attrs[1] = old_attr2, attrs[2] = UE_MSH_NODE_STRIDE;
        break;
    case UE_MSH_HEADER: attrs[0] = (uint32_t)m->slot_count, attrs[2] = UE_MSH_SLOT_SIZE; break;
    case UE_MSH_KEYS: attrs[0] = size / 24, attrs[2] = 4; break;
    case UE_MSH_NAMES: attrs[0] = (uint32_t)m->node_count, attrs[2] = 0; break;
    case UE_MSH_FRAME_MAP: attrs[0] = size / 2, attrs[1] = m->frame_count, attrs[2] = 2; break;
    default: attrs[0] = stride[type] ? size / stride[type] : 0, attrs[2] = stride[type]; break;
    }
}

static ue_result store(ue_msh *m, int type, const ue_buf *b) {
    uint32_t attrs[3];
    int32_t e = m->entry_of[type];
    uint32_t old_attr2 = e >= 0 ? m->container.entries[e].attr2 : 0;
    canonical_attrs(m, type, (uint32_t)b->size, old_attr2, attrs);
    ue_result r;
    if (e >= 0) {
        r = ue_nres_replace(&m->container, (size_t)e, b->data, b->size);
        ue_nres_entry *en = &m->container.entries[e];
        en->attr1 = attrs[0];
        en->attr2 = attrs[1];
        en->attr3 = attrs[2];
    } else {
        char name[16];
        snprintf(name, sizeof name, "res%d", type);
        r = ue_nres_add(&m->container, (uint32_t)type, attrs[0], attrs[1], attrs[2], name,
                        b->data ? (const void *)b->data : "", b->size);
        if (r == UE_OK) m->entry_of[type] = (int32_t)(m->container.count - 1);
    }
    return r;
}

ue_result ue_msh_write(ue_msh *m, ue_buf *out, ue_diag *d) {
    if (m->legacy_nodes && m->dirty[UE_MSH_NODES]) return UE_ERR_UNSUPPORTED;
    for (size_t k = 0; k < sizeof canonical_order; k++) {
        int t = canonical_order[k];
        if (!m->dirty[t] || t == UE_MSH_RES15) continue;
        ue_buf b = {0};
        encode(m, t, &b);
        ue_result r = b.failed ? UE_ERR_NOMEM : store(m, t, &b);
        ue_buf_free(&b);
        if (r != UE_OK) return r;
        m->dirty[t] = false;
    }
    return ue_nres_write(&m->container, UE_NRES_LOSSLESS, out, d);
}

/* ---- bounds ------------------------------------------------------------------------------ */

/* The engine stores float quaternions; the shared math works in double. */
static void quat_rotate_f(const float q[4], const float v[3], float out[3]) {
    double qd[4] = {q[0], q[1], q[2], q[3]}, vd[3] = {v[0], v[1], v[2]}, r[3];
    ue_quat_rotate(qd, vd, r);
    for (int k = 0; k < 3; k++) out[k] = (float)r[k];
}

static void quat_mul_f(const float a[4], const float b[4], float out[4]) {
    double ad[4] = {a[0], a[1], a[2], a[3]}, bd[4] = {b[0], b[1], b[2], b[3]}, r[4];
    ue_quat_mul(ad, bd, r);
    for (int k = 0; k < 4; k++) out[k] = (float)r[k];
}

typedef struct box {
    float min[3], max[3];
    bool any;
} box;

static void box_add(box *b, const float p[3]) {
    for (int k = 0; k < 3; k++) {
        if (!b->any || p[k] < b->min[k]) b->min[k] = p[k];
        if (!b->any || p[k] > b->max[k]) b->max[k] = p[k];
    }
    b->any = true;
}

/* Calls visit for every valid vertex of a slot. */
static void slot_vertices(const ue_msh *m, const ue_msh_slot *s, void (*visit)(void *, const float *),
                          void *user) {
    for (size_t b = s->batch_start; b < (size_t)s->batch_start + s->batch_count && b < m->batch_count; b++) {
        const ue_msh_batch *bt = &m->batches[b];
        if (!ue_range_ok(bt->index_start, bt->index_count, m->index_count)) continue;
        for (size_t i = 0; i < bt->index_count; i++) {
            uint64_t v = (uint64_t)bt->base_vertex + m->indices[bt->index_start + i];
            if (v < m->vertex_count) visit(user, &m->positions[3 * v]);
        }
    }
}

static void visit_box(void *u, const float *p) { box_add(u, p); }

typedef struct radius_ctx {
    float center[3];
    float r2;
} radius_ctx;

static void visit_radius(void *u, const float *p) {
    radius_ctx *c = u;
    float dx = p[0] - c->center[0], dy = p[1] - c->center[1], dz = p[2] - c->center[2];
    float d2 = dx * dx + dy * dy + dz * dz;
    if (d2 > c->r2) c->r2 = d2;
}

typedef struct world_ctx {
    float t[3], q[4];
    box *b;
    const float *center;
    float r2;
    float seg_a[3], seg_b[3];
    float seg_r2;
} world_ctx;

static void to_world(const world_ctx *c, const float *p, float out[3]) {
    quat_rotate_f(c->q, p, out);
    for (int k = 0; k < 3; k++) out[k] += c->t[k];
}
static void visit_world_box(void *u, const float *p) {
    world_ctx *c = u;
    float w[3];
    to_world(c, p, w);
    box_add(c->b, w);
}
static void visit_world_radius(void *u, const float *p) {
    world_ctx *c = u;
    float w[3];
    to_world(c, p, w);
    float d2 = 0;
    for (int k = 0; k < 3; k++) d2 += (w[k] - c->center[k]) * (w[k] - c->center[k]);
    if (d2 > c->r2) c->r2 = d2;
    /* Distance to the capsule segment. */
    float ab[3], ap[3], dot = 0, len2 = 0;
    for (int k = 0; k < 3; k++) {
        ab[k] = c->seg_b[k] - c->seg_a[k];
        ap[k] = w[k] - c->seg_a[k];
        dot += ab[k] * ap[k];
        len2 += ab[k] * ab[k];
    }
    float s = len2 > 0 ? dot / len2 : 0;
    s = s < 0 ? 0 : (s > 1 ? 1 : s);
    float e2 = 0;
    for (int k = 0; k < 3; k++) {
        float e = ap[k] - s * ab[k];
        e2 += e * e;
    }
    if (e2 > c->seg_r2) c->seg_r2 = e2;
}

static void world_transforms(const ue_msh *m, float (*t)[3], float (*q)[4]) {
    for (size_t n = 0; n < m->node_count; n++) {
        float lt[3], lq[4];
        ue_msh_rest_pose(m, n, lt, lq);
        uint16_t p = m->nodes[n].parent;
        if (p != UE_MSH_NONE && p < n) {
            float rt[3];
            quat_rotate_f(q[p], lt, rt);
            for (int k = 0; k < 3; k++) t[n][k] = t[p][k] + rt[k];
            quat_mul_f(q[p], lq, q[n]);
        } else {
            memcpy(t[n], lt, sizeof lt);
            memcpy(q[n], lq, sizeof lq);
        }
    }
}

static void put_header_f32(uint8_t *h, size_t index, float v) { memcpy(h + 4 * index, &v, 4); }

/* The model header: hull corners, sphere and capsule of every slot in the rest pose (model
 * space, so they follow the node tree and the rest keys as well as the geometry). */
static void recompute_hull(ue_msh *m);

void ue_msh_recompute_bounds(ue_msh *m) {
    for (size_t s = 0; s < m->slot_count; s++) {
        ue_msh_slot *sl = &m->slots[s];
        box b = {{0}, {0}, false};
        slot_vertices(m, sl, visit_box, &b);
        radius_ctx rc = {{0, 0, 0}, 0};
        for (int k = 0; k < 3; k++) {
            sl->aabb_min[k] = b.any ? b.min[k] : 0;
            sl->aabb_max[k] = b.any ? b.max[k] : 0;
            rc.center[k] = sl->sphere_center[k] = (sl->aabb_min[k] + sl->aabb_max[k]) * 0.5f;
        }
        slot_vertices(m, sl, visit_radius, &rc);
        sl->sphere_radius = sqrtf(rc.r2);
    }
    recompute_hull(m);
}

static void recompute_hull(ue_msh *m) {
    float (*wt)[3] = ue_calloc_items(m->node_count, sizeof *wt);
    float (*wq)[4] = ue_calloc_items(m->node_count, sizeof *wq);
    if (!wt || !wq) {
        free(wt);
        free(wq);
        return;
    }
    world_transforms(m, wt, wq);
    box all = {{0}, {0}, false};
    world_ctx c = {.b = &all};
    for (size_t n = 0; n < m->node_count; n++)
        for (int s = 0; s < 15; s++) {
            uint16_t si = m->nodes[n].slot[s];
            if (si == UE_MSH_NONE || si >= m->slot_count) continue;
            memcpy(c.t, wt[n], sizeof c.t);
            memcpy(c.q, wq[n], sizeof c.q);
            slot_vertices(m, &m->slots[si], visit_world_box, &c);
        }
    float lo[3], hi[3], center[3];
    for (int k = 0; k < 3; k++) {
        lo[k] = all.any ? all.min[k] : 0;
        hi[k] = all.any ? all.max[k] : 0;
        center[k] = (lo[k] + hi[k]) * 0.5f;
    }
    /* Corner i takes max on axis k when bit k of i is set. */
    for (size_t i = 0; i < 8; i++)
        for (int k = 0; k < 3; k++) put_header_f32(m->header, i * 3 + (size_t)k, (i >> k) & 1 ? hi[k] : lo[k]);
    int axis = 0;
    for (int k = 1; k < 3; k++)
        if (hi[k] - lo[k] > hi[axis] - lo[axis]) axis = k;
    memcpy(c.seg_a, center, sizeof center);
    memcpy(c.seg_b, center, sizeof center);
    c.seg_a[axis] = lo[axis];
    c.seg_b[axis] = hi[axis];
    c.center = center;
    for (size_t n = 0; n < m->node_count; n++)
        for (int s = 0; s < 15; s++) {
            uint16_t si = m->nodes[n].slot[s];
            if (si == UE_MSH_NONE || si >= m->slot_count) continue;
            memcpy(c.t, wt[n], sizeof c.t);
            memcpy(c.q, wq[n], sizeof c.q);
            slot_vertices(m, &m->slots[si], visit_world_radius, &c);
        }
    for (int k = 0; k < 3; k++) put_header_f32(m->header, 24 + (size_t)k, center[k]);
    put_header_f32(m->header, 27, sqrtf(c.r2));
    for (int k = 0; k < 3; k++) {
        put_header_f32(m->header, 28 + (size_t)k, c.seg_a[k]);
        put_header_f32(m->header, 31 + (size_t)k, c.seg_b[k]);
    }
    put_header_f32(m->header, 34, sqrtf(c.seg_r2));
    m->dirty[UE_MSH_HEADER] = true;
    free(wt);
    free(wq);
}

/* ---- edits ------------------------------------------------------------------------------- */

ue_result ue_msh_transform_vertices(ue_msh *m, size_t first, size_t n, const float linear[9],
                                    const float translate[3]) {
    if (first > m->vertex_count || n > m->vertex_count - first) return UE_ERR_USAGE;
    for (size_t v = first; v < first + n; v++) {
        float *p = &m->positions[3 * v], o[3];
        for (int r = 0; r < 3; r++)
            o[r] = linear[3 * r] * p[0] + linear[3 * r + 1] * p[1] + linear[3 * r + 2] * p[2] + translate[r];
        memcpy(p, o, sizeof o);
        if (m->normals && v < m->normal_count) {
            /* Normals transform by the inverse transpose; for the rotations and uniform scales
             * of typical edits the matrix itself, renormalised, is the same direction. */
            int8_t *q = &m->normals[4 * v];
            float in[3] = {ue_msh_decode_normal(q[0]), ue_msh_decode_normal(q[1]), ue_msh_decode_normal(q[2])};
            float nn[3], len = 0;
            for (int r = 0; r < 3; r++) {
                nn[r] = linear[3 * r] * in[0] + linear[3 * r + 1] * in[1] + linear[3 * r + 2] * in[2];
                len += nn[r] * nn[r];
            }
            len = sqrtf(len);
            if (len > 1e-12f)
                for (int r = 0; r < 3; r++) q[r] = ue_msh_encode_normal(nn[r] / len);
        }
    }
    m->dirty[UE_MSH_POSITIONS] = true;
    if (m->normals) m->dirty[UE_MSH_NORMALS] = true;
    ue_msh_recompute_bounds(m);
    return UE_OK;
}

ue_result ue_msh_scale(ue_msh *m, float s) {
    if (!isfinite(s) || s <= 0) return UE_ERR_USAGE;
    if (s == 1.0f) return UE_OK; /* nothing changes, so nothing is re-encoded */
    /* Refused before anything changes when a scaled coordinate would pass 1e18: the bounds
     * square distances in float, whose range ends near 3.4e38. */
    float largest = 0;
    for (size_t i = 0; i < 3 * m->vertex_count; i++)
        if (fabsf(m->positions[i]) > largest && isfinite(m->positions[i])) largest = fabsf(m->positions[i]);
    for (size_t k = 0; k < m->key_count; k++)
        for (int c = 0; c < 3; c++)
            if (fabsf(m->keys[k].position[c]) > largest && isfinite(m->keys[k].position[c]))
                largest = fabsf(m->keys[k].position[c]);
    if (s > 1 && largest > 1e18f / s) return UE_ERR_LIMIT;
    for (size_t i = 0; i < 3 * m->vertex_count; i++) m->positions[i] *= s;
    /* Every key is node-local: scaling each translation scales every node offset at every
     * frame (the engine's lerp between keys is linear), so world geometry scales by s. A
     * uniform positive scale leaves normals and rotations as they are. */
    for (size_t k = 0; k < m->key_count; k++)
        for (int c = 0; c < 3; c++) m->keys[k].position[c] *= s;
    if (m->vertex_count) m->dirty[UE_MSH_POSITIONS] = true;
    if (m->key_count) m->dirty[UE_MSH_KEYS] = true;
    ue_msh_recompute_bounds(m);
    return UE_OK;
}

ue_result ue_msh_rename_node(ue_msh *m, size_t node, const char *name) {
    if (node >= m->node_count) return UE_ERR_USAGE;
    if (m->name_count < m->node_count) {
        ue_msh_name *grown = realloc(m->names, m->node_count * sizeof *grown);
        if (!grown) return UE_ERR_NOMEM;
        memset(grown + m->name_count, 0, (m->node_count - m->name_count) * sizeof *grown);
        m->names = grown;
        m->name_count = m->node_count;
    }
    ue_msh_name *nm = &m->names[node];
    size_t len = name ? strlen(name) : 0;
    char *text = NULL;
    if (len) {
        if (len > UINT32_MAX - 1) return UE_ERR_USAGE;
        text = malloc(len + 1);
        if (!text) return UE_ERR_NOMEM;
        memcpy(text, name, len + 1);
    }
    free(nm->text);
    nm->text = text;
    nm->length = (uint32_t)len;
    nm->present = len > 0;
    m->dirty[UE_MSH_NAMES] = true;
    return UE_OK;
}

/* Grows a raw per-vertex stream kept only in the container (Res15/Res16) with zero records so
 * every vertex stream keeps the same count. */
static ue_result grow_raw_stream(ue_msh *m, int type, size_t new_vertices) {
    int32_t e = m->entry_of[type];
    if (e < 0) return UE_OK;
    ue_nres_entry *en = &m->container.entries[e];
    size_t add = new_vertices * 8;
    uint8_t *p = malloc(en->size + add + 1);
    if (!p) return UE_ERR_NOMEM;
    if (en->size) memcpy(p, en->owned, en->size);
    memset(p + en->size, 0, add);
    ue_result r = ue_nres_replace(&m->container, (size_t)e, p, en->size + add);
    free(p);
    if (r == UE_OK) en->attr1 = en->size / 8;
    return r;
}

#define GROW(ptr, count, extra, elem)                                                          \
    do {                                                                                        \
        void *grown_ = realloc((ptr), ((count) + (extra)) * (elem) + 1);                        \
        if (!grown_) return UE_ERR_NOMEM;                                                       \
        (ptr) = grown_;                                                                         \
    } while (0)

ue_result ue_msh_replace_slot_geometry(ue_msh *m, size_t slot, const ue_msh_geometry *g,
                                       ue_diag *d) {
    if (slot >= m->slot_count || g->index_count % 3 || g->vertex_count == 0) {
        ue_diag_add(d, UE_SEV_ERROR, "msh.edit.geometry", UE_NO_OFFSET, "msh/res2",
                    "slot %zu: need a triangle list over at least one vertex", slot);
        return UE_ERR_USAGE;
    }
    for (size_t i = 0; i < g->index_count; i++)
        if (g->indices[i] >= g->vertex_count) {
            ue_diag_add(d, UE_SEV_ERROR, "msh.edit.index", UE_NO_OFFSET, "msh/res6",
                        "index %zu = %u is not a vertex", i, g->indices[i]);
            return UE_ERR_USAGE;
        }
    size_t tris = g->index_count / 3;
    if (g->index_count > UINT16_MAX || m->batch_count + 1 > UINT16_MAX ||
        m->tri_count + tris > UINT16_MAX || m->vertex_count + g->vertex_count > UINT32_MAX) {
        ue_diag_add(d, UE_SEV_ERROR, "msh.edit.limit", UE_NO_OFFSET, "msh/res2",
                    "the new geometry does not fit the format's 16-bit ranges");
        return UE_ERR_USAGE;
    }
    size_t base = m->vertex_count, nv = g->vertex_count;
    bool with_normals = m->entry_of[UE_MSH_NORMALS] >= 0 || m->normals;
    bool with_uv = m->entry_of[UE_MSH_UV0] >= 0 || m->uv0;
    /* Every array grows before any count changes, so running out of memory half-way leaves
     * the model as it was. */
    GROW(m->positions, base, nv, 3 * sizeof(float));
    if (with_normals) GROW(m->normals, m->normal_count, nv, 4);
    if (with_uv) GROW(m->uv0, m->uv_count, nv, 2 * sizeof(int16_t));
    if (m->colors) GROW(m->colors, m->color_count, nv, 4);
    GROW(m->indices, m->index_count, g->index_count, sizeof(uint16_t));
    GROW(m->batches, m->batch_count, 1, sizeof *m->batches);
    GROW(m->tris, m->tri_count, tris, sizeof *m->tris);
    ue_result r = grow_raw_stream(m, UE_MSH_RES15, nv);
    if (r == UE_OK) r = grow_raw_stream(m, UE_MSH_RES16, nv);
    if (r != UE_OK) return r;

    memcpy(m->positions + 3 * base, g->positions, nv * 3 * sizeof(float));
    if (with_normals) {
        for (size_t v = 0; v < nv; v++) {
            int8_t *q = &m->normals[4 * (m->normal_count + v)];
            for (int k = 0; k < 3; k++) q[k] = g->normals ? ue_msh_encode_normal(g->normals[3 * v + (size_t)k]) : 0;
            q[3] = 0;
        }
        m->normal_count += nv;
        m->dirty[UE_MSH_NORMALS] = true;
    }
    if (with_uv) {
        for (size_t v = 0; v < 2 * nv; v++)
            m->uv0[2 * m->uv_count + v] = g->uvs ? ue_msh_encode_uv(g->uvs[v]) : 0;
        m->uv_count += nv;
        m->dirty[UE_MSH_UV0] = true;
    }
    if (m->colors) {
        for (size_t v = 0; v < 4 * nv; v++) m->colors[4 * m->color_count + v] = g->colors ? g->colors[v] : 0xFF;
        m->color_count += nv;
        m->dirty[UE_MSH_COLORS] = true;
    }
    m->vertex_count += nv;

    size_t index_start = m->index_count;
    memcpy(m->indices + index_start, g->indices, g->index_count * sizeof(uint16_t));
    m->index_count += g->index_count;

    /* New ranges go at the end of Res13/Res7: other slots keep theirs untouched. */
    ue_msh_batch *bt = &m->batches[m->batch_count];
    memset(bt, 0, sizeof *bt);
    bt->material = g->material;
    bt->index_count = (uint16_t)g->index_count;
    bt->index_start = (uint32_t)index_start;
    bt->base_vertex = (uint32_t)base;
    for (size_t t = 0; t < tris; t++) {
        ue_msh_tri *td = &m->tris[m->tri_count + t];
        const float *a = &g->positions[3 * g->indices[3 * t]], *b = &g->positions[3 * g->indices[3 * t + 1]],
                    *c = &g->positions[3 * g->indices[3 * t + 2]];
        float u[3], v[3], n[3], len;
        for (int k = 0; k < 3; k++) {
            u[k] = b[k] - a[k];
            v[k] = c[k] - a[k];
        }
        n[0] = u[1] * v[2] - u[2] * v[1];
        n[1] = u[2] * v[0] - u[0] * v[2];
        n[2] = u[0] * v[1] - u[1] * v[0];
        len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        memset(td, 0, sizeof *td);
        td->link[0] = td->link[1] = td->link[2] = UE_MSH_NONE;
        td->sel_packed = 0x3F; /* all three selectors "none" */
        for (int k = 0; k < 3; k++)
            td->normal[k] = (int16_t)(len > 1e-20f ? lroundf(n[k] / len * 32767.0f) : 0);
    }
    ue_msh_slot *sl = &m->slots[slot];
    sl->batch_start = (uint16_t)m->batch_count;
    sl->batch_count = 1;
    sl->tri_start = (uint16_t)m->tri_count;
    sl->tri_count = (uint16_t)tris;
    m->batch_count++;
    m->tri_count += tris;
    m->dirty[UE_MSH_POSITIONS] = m->dirty[UE_MSH_INDICES] = m->dirty[UE_MSH_BATCHES] = true;
    m->dirty[UE_MSH_TRIS] = m->dirty[UE_MSH_HEADER] = true;
    ue_msh_recompute_bounds(m);
    return UE_OK;
}

ue_result ue_msh_new(ue_msh *m, size_t node_count, const uint16_t *parents,
                     const char *const *names) {
    ue_msh_init(m);
    if (node_count == 0 || node_count >= UE_MSH_NONE) return UE_ERR_USAGE;
    m->nodes = calloc(node_count, sizeof *m->nodes);
    m->names = calloc(node_count, sizeof *m->names);
    m->keys = calloc(node_count, sizeof *m->keys);
    if (!m->nodes || !m->names || !m->keys) {
        ue_msh_free(m);
        return UE_ERR_NOMEM;
    }
    m->node_count = m->name_count = m->key_count = node_count;
    for (size_t i = 0; i < node_count; i++) {
        ue_msh_node *n = &m->nodes[i];
        n->parent = parents ? parents[i] : UE_MSH_NONE;
        if (n->parent != UE_MSH_NONE && n->parent >= i) {
            ue_msh_free(m);
            return UE_ERR_USAGE;
        }
        n->anim_map_start = UE_MSH_NONE;
        n->fallback_key = (uint16_t)i; /* one rest key per node, as static retail models have */
        for (int s = 0; s < 15; s++) n->slot[s] = UE_MSH_NONE;
        m->keys[i].quat[3] = 32767;
        if (names && names[i] && names[i][0] && ue_msh_rename_node(m, i, names[i]) != UE_OK) {
            ue_msh_free(m);
            return UE_ERR_NOMEM;
        }
    }
    m->frame_count = 1; /* a static model's Res19: no words, frame count 1 */
    static const int all[] = {1, 2, 3, 4, 5, 6, 7, 8, 10, 13, 19};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) m->dirty[all[k]] = true;
    /* Streams that are empty still exist in retail models; give them empty tables. */
    m->normals = calloc(1, 4);
    m->uv0 = calloc(1, 4);
    if (!m->normals || !m->uv0) {
        ue_msh_free(m);
        return UE_ERR_NOMEM;
    }
    return UE_OK;
}

ue_result ue_msh_add_slot(ue_msh *m, size_t node, int lod, int group, size_t *slot_index) {
    if (node >= m->node_count || lod < 0 || lod >= UE_MSH_LODS || group < 0 ||
        group >= UE_MSH_GROUPS || m->slot_count + 1 >= UE_MSH_NONE)
        return UE_ERR_USAGE;
    GROW(m->slots, m->slot_count, 1, sizeof *m->slots);
    memset(&m->slots[m->slot_count], 0, sizeof *m->slots);
    m->nodes[node].slot[lod * UE_MSH_GROUPS + group] = (uint16_t)m->slot_count;
    *slot_index = m->slot_count++;
    m->dirty[UE_MSH_HEADER] = m->dirty[UE_MSH_NODES] = true;
    return UE_OK;
}

ue_result ue_msh_enable_colors(ue_msh *m) {
    if (m->colors) return UE_OK;
    m->colors = malloc(m->vertex_count * 4 + 1);
    if (!m->colors) return UE_ERR_NOMEM;
    memset(m->colors, 0xFF, m->vertex_count * 4);
    m->color_count = m->vertex_count;
    m->dirty[UE_MSH_COLORS] = true;
    return UE_OK;
}

ue_result ue_msh_set_rest_pose(ue_msh *m, size_t node, const float translation[3],
                               const float rotation[4]) {
    if (node >= m->node_count || m->nodes[node].fallback_key >= m->key_count) return UE_ERR_USAGE;
    ue_msh_key *k = &m->keys[m->nodes[node].fallback_key];
    memcpy(k->position, translation, sizeof k->position);
    for (int c = 0; c < 4; c++) {
        float q = roundf(rotation[c] * 32767.0f);
        if (!(q >= -32767.0f)) q = -32767.0f; /* also NaN: converting it to int16 is undefined */
        if (q > 32767.0f) q = 32767.0f;
        k->quat[c] = (int16_t)q;
    }
    m->dirty[UE_MSH_KEYS] = true;
    ue_msh_recompute_bounds(m);
    return UE_OK;
}

/* ---- removing nodes ------------------------------------------------------------------------ */

/* What removing nodes renumbers: node → new index and slot → new index (UE_MSH_NONE: gone),
 * and the kept nodes' key tracks, read from the canonical layout before anything moves. */
typedef struct node_removal {
    uint16_t *node_to, *slot_to;
    const ue_msh_key **track;
    size_t *track_len;
    size_t kept;
} node_removal;

static void removal_free(node_removal *rm) {
    free(rm->node_to);
    free(rm->slot_to);
    free(rm->track);
    free(rm->track_len);
}

/* Marks every descendant of a marked node (parents come first, docs/formats/msh.md#res1-nodes) and numbers the
 * kept nodes; a slot goes when only removed nodes show it (one no node shows stays).
 * `shown` is scratch, a byte per slot. */
enum { SHOWN_BY_KEPT = 1, SHOWN_BY_REMOVED = 2 };

static void plan_removal(const ue_msh *m, const bool *marked, node_removal *rm, uint8_t *shown) {
    for (size_t n = 0; n < m->node_count; n++) {
        uint16_t p = m->nodes[n].parent;
        bool gone = marked[n] || (p != UE_MSH_NONE && rm->node_to[p] == UE_MSH_NONE);
        rm->node_to[n] = gone ? UE_MSH_NONE : (uint16_t)rm->kept++;
    }
    memset(shown, 0, m->slot_count);
    for (size_t n = 0; n < m->node_count; n++)
        for (int c = 0; c < UE_MSH_LODS * UE_MSH_GROUPS; c++)
            if (m->nodes[n].slot[c] != UE_MSH_NONE)
                shown[m->nodes[n].slot[c]] |= rm->node_to[n] != UE_MSH_NONE ? SHOWN_BY_KEPT : SHOWN_BY_REMOVED;
    for (size_t s = 0, next = 0; s < m->slot_count; s++)
        rm->slot_to[s] = shown[s] == SHOWN_BY_REMOVED ? UE_MSH_NONE : (uint16_t)next++;
    for (size_t n = 0, start = 0; n < m->node_count; n++) {
        size_t k = rm->node_to[n];
        if (k != UE_MSH_NONE) rm->track[k] = m->keys + start, rm->track_len[k] = m->nodes[n].fallback_key + 1 - start;
        start = (size_t)m->nodes[n].fallback_key + 1;
    }
}

/* The tables removal renumbers must be decoded and consistent: parents before children, slot
 * indices in Res2, names decoded when Res10 is there, tracks in the canonical layout. */
static ue_result removal_refused(const ue_msh *m, ue_diag *d) {
    const char *why = NULL;
    if (!m->nodes || m->legacy_nodes) why = "the model has no decodable node table";
    else if (m->entry_of[UE_MSH_NAMES] >= 0 && !m->names) why = "the model's names (Res10) do not decode";
    for (size_t n = 0; !why && n < m->node_count; n++) {
        if (m->nodes[n].parent != UE_MSH_NONE && m->nodes[n].parent >= n) why = "a node's parent does not come before it";
        for (int c = 0; !why && c < UE_MSH_LODS * UE_MSH_GROUPS; c++)
            if (m->nodes[n].slot[c] != UE_MSH_NONE && m->nodes[n].slot[c] >= m->slot_count)
                why = "a node names a slot Res2 does not hold";
    }
    if (why) {
        ue_diag_add(d, UE_SEV_ERROR, "msh.edit.remove", UE_NO_OFFSET, "msh/res1", "cannot remove nodes: %s", why);
        return UE_ERR_INVALID;
    }
    return ue_msh_tracks_readable(m, d);
}

static void compact_names(ue_msh *m, const node_removal *rm) {
    if (!m->names) return;
    size_t at = 0, count = m->name_count < m->node_count ? m->name_count : m->node_count;
    for (size_t n = 0; n < count; n++) {
        if (rm->node_to[n] == UE_MSH_NONE) free(m->names[n].text);
        else m->names[at++] = m->names[n];
    }
    for (size_t n = count; n < m->name_count; n++) free(m->names[n].text); /* records past the nodes */
    m->name_count = at;
    m->dirty[UE_MSH_NAMES] = true;
}

static void compact_nodes_and_slots(ue_msh *m, const node_removal *rm) {
    size_t at = 0;
    for (size_t s = 0; s < m->slot_count; s++)
        if (rm->slot_to[s] != UE_MSH_NONE) m->slots[at++] = m->slots[s];
    m->slot_count = at;
    at = 0;
    for (size_t n = 0; n < m->node_count; n++) {
        if (rm->node_to[n] == UE_MSH_NONE) continue;
        ue_msh_node nd = m->nodes[n];
        if (nd.parent != UE_MSH_NONE) nd.parent = rm->node_to[nd.parent];
        for (int c = 0; c < UE_MSH_LODS * UE_MSH_GROUPS; c++)
            if (nd.slot[c] != UE_MSH_NONE) nd.slot[c] = rm->slot_to[nd.slot[c]];
        m->nodes[at++] = nd;
    }
    m->node_count = at;
    m->dirty[UE_MSH_NODES] = m->dirty[UE_MSH_HEADER] = true;
}

/* Resources unearth keeps as raw bytes (Res9, Res17, Res20, …; Res15/16 follow the vertices,
 * which stay) are not renumbered: their meaning is unknown, so the caller is told. */
static void warn_opaque(const ue_msh *m, ue_diag *d) {
    for (size_t e = 0; e < m->container.count; e++) {
        uint32_t t = m->container.entries[e].type_id;
        bool decoded_type = t < UE_MSH_TYPE_LIMIT && (t <= 8 || t == 10 || t == 13 || t == 15 || t == 16 ||
                                                    t == 18 || t == 19);
        if (!decoded_type && m->container.entries[e].size)
            ue_diag_add(d, UE_SEV_WARNING, "msh.edit.opaque", UE_NO_OFFSET, "msh", "resource type %u is kept as it "
                        "was: its meaning is unknown, so node indices it may hold are not renumbered", t);
    }
}

ue_result ue_msh_remove_nodes(ue_msh *m, const bool *marked, ue_diag *d) {
    if (!m || !marked) return UE_ERR_USAGE;
    ue_result r = removal_refused(m, d);
    if (r != UE_OK) return r;
    node_removal rm = {0};
    rm.node_to = malloc((m->node_count + 1) * sizeof *rm.node_to);
    rm.slot_to = malloc((m->slot_count + 1) * sizeof *rm.slot_to);
    rm.track = malloc((m->node_count + 1) * sizeof *rm.track);
    rm.track_len = malloc((m->node_count + 1) * sizeof *rm.track_len);
    uint8_t *shown = malloc(m->slot_count + 1);
    if (rm.node_to && rm.slot_to && rm.track && rm.track_len && shown) plan_removal(m, marked, &rm, shown);
    else r = UE_ERR_NOMEM;
    free(shown);
    if (r == UE_OK && rm.kept == 0) {
        ue_diag_add(d, UE_SEV_ERROR, "msh.edit.remove", UE_NO_OFFSET, "msh/res1",
                    "removing every node leaves no model");
        r = UE_ERR_USAGE;
    }
    if (r != UE_OK || rm.kept == m->node_count) return removal_free(&rm), r;
    compact_names(m, &rm);
    compact_nodes_and_slots(m, &rm);
    /* The kept tracks, unchanged, laid out again: fallback keys and map starts renumbered,
     * the removed nodes' keys and map blocks gone, the frame count that of the longest left. */
    r = ue_msh_set_all_tracks(m, rm.track, rm.track_len, d);
    if (r == UE_OK) recompute_hull(m);
    if (r == UE_OK) warn_opaque(m, d);
    removal_free(&rm);
    return r;
}
