/* unearth — the greedy stripifier of edit mode (docs/hsd-import.md#triangles): triangles joined
 * into GX triangle strips through a sorted directed-edge table, and the display list they make. */
#include <stdlib.h>
#include <string.h>

#include "hsd/hsd_strips.h"

/* One directed edge u → v of triangle `tri` (its corners in winding order). */
typedef struct edge {
    uint32_t u, v, tri;
} edge;

static int edge_order(const void *a, const void *b) {
    const edge *x = a, *y = b;
    if (x->u != y->u) return x->u < y->u ? -1 : 1;
    if (x->v != y->v) return x->v < y->v ? -1 : 1;
    return x->tri < y->tri ? -1 : x->tri > y->tri;
}

typedef struct builder {
    const uint32_t *tris;
    edge *edges;     /* sorted by (u, v, tri) */
    size_t edge_count;
    size_t *cursor;  /* per edge group (indexed by its first entry): the first entry maybe unused */
    bool *used;      /* per triangle */
} builder;

static bool degenerate(const uint32_t *t) { return t[0] == t[1] || t[1] == t[2] || t[0] == t[2]; }

/* The first unused triangle with directed edge u → v, or -1. Each group's cursor only moves
 * forward past used triangles, so all lookups together cost O(n) beyond the binary searches. */
static long find_edge(builder *b, uint32_t u, uint32_t v) {
    size_t lo = 0, hi = b->edge_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const edge *e = &b->edges[mid];
        if (e->u < u || (e->u == u && e->v < v)) lo = mid + 1;
        else hi = mid;
    }
    if (lo == b->edge_count || b->edges[lo].u != u || b->edges[lo].v != v) return -1;
    size_t *c = &b->cursor[lo];
    while (*c < b->edge_count && b->edges[*c].u == u && b->edges[*c].v == v && b->used[b->edges[*c].tri]) (*c)++;
    if (*c == b->edge_count || b->edges[*c].u != u || b->edges[*c].v != v) return -1;
    return (long)b->edges[*c].tri;
}

/* The corner of triangle t that is neither u nor v (t has the directed edge u → v). */
static uint32_t third(const uint32_t *t, uint32_t u, uint32_t v) {
    for (int k = 0; k < 3; k++)
        if (t[k] != u && t[k] != v) return t[k];
    return t[0]; /* not reached: degenerate triangles are never in the edge table */
}

/* Grows a strip from seed triangle `seed` into verts (at *n); returns its triangle count. */
static size_t grow(builder *b, size_t seed, uint32_t *verts, size_t *n) {
    const uint32_t *t = &b->tris[3 * seed];
    int rot = 0;
    b->used[seed] = true;
    /* Triangle 1 of a strip (odd) is (s2, s1, x): it holds the directed edge s2 → s1. */
    for (int r = 0; r < 3; r++)
        if (find_edge(b, t[(r + 2) % 3], t[(r + 1) % 3]) >= 0) {
            rot = r;
            break;
        }
    size_t count = 1;
    for (int k = 0; k < 3; k++) verts[(*n)++] = t[(rot + k) % 3];
    for (;;) {
        uint32_t a = verts[*n - 2], c = verts[*n - 1];
        bool odd = count % 2 == 1; /* the next triangle's parity */
        uint32_t u = odd ? c : a, v = odd ? a : c;
        long j = find_edge(b, u, v);
        if (j < 0) break;
        b->used[j] = true;
        verts[(*n)++] = third(&b->tris[3 * (size_t)j], u, v);
        count++;
    }
    return count;
}

static ue_result edge_table(builder *b, size_t tri_count) {
    b->edges = malloc((3 * tri_count + 1) * sizeof *b->edges);
    b->cursor = malloc((3 * tri_count + 1) * sizeof *b->cursor);
    b->used = calloc(tri_count + 1, sizeof *b->used);
    if (!b->edges || !b->cursor || !b->used) return UE_ERR_NOMEM;
    for (size_t i = 0; i < tri_count; i++) {
        const uint32_t *t = &b->tris[3 * i];
        if (degenerate(t)) continue;
        for (int k = 0; k < 3; k++) b->edges[b->edge_count++] = (edge){t[k], t[(k + 1) % 3], (uint32_t)i};
    }
    qsort(b->edges, b->edge_count, sizeof *b->edges, edge_order);
    for (size_t i = 0; i < b->edge_count; i++) b->cursor[i] = i;
    return UE_OK;
}

/* Strips of one triangle and degenerate triangles into the list at the end of verts. */
static void collect_list(const builder *b, size_t tri_count, const size_t *single, size_t singles,
                         hsd_strips *s, size_t *n) {
    s->list_first = *n;
    size_t k = 0;
    for (size_t i = 0; i < tri_count; i++) {
        bool is_single = k < singles && single[k] == i;
        k += is_single;
        if (!is_single && !degenerate(&b->tris[3 * i])) continue;
        memcpy(&s->verts[*n], &b->tris[3 * i], 3 * sizeof *s->verts);
        *n += 3;
        s->list_count++;
    }
}

ue_result hsd_strips_build(const uint32_t *tris, size_t tri_count, hsd_strips *out) {
    memset(out, 0, sizeof *out);
    if (tri_count > SIZE_MAX / 8 / sizeof(edge)) return UE_ERR_NOMEM;
    builder b = {.tris = tris};
    /* Every strip of t triangles holds t + 2 ≤ 3t vertices: 3n bounds them all. */
    out->verts = malloc((3 * tri_count + 1) * sizeof *out->verts);
    out->strip_first = malloc((tri_count + 1) * sizeof *out->strip_first);
    out->strip_len = malloc((tri_count + 1) * sizeof *out->strip_len);
    size_t *single = malloc((tri_count + 1) * sizeof *single), singles = 0, n = 0;
    ue_result r = out->verts && out->strip_first && out->strip_len && single ? edge_table(&b, tri_count) : UE_ERR_NOMEM;
    for (size_t i = 0; r == UE_OK && i < tri_count; i++) {
        if (b.used[i] || degenerate(&tris[3 * i])) continue;
        size_t first = n;
        if (grow(&b, i, out->verts, &n) == 1) {
            single[singles++] = i;
            n = first;
            continue;
        }
        out->strip_first[out->strip_count] = first;
        out->strip_len[out->strip_count++] = n - first;
    }
    if (r == UE_OK) collect_list(&b, tri_count, single, singles, out, &n);
    free(single);
    free(b.edges);
    free(b.cursor);
    free(b.used);
    if (r != UE_OK) hsd_strips_free(out);
    return r;
}

void hsd_strips_free(hsd_strips *s) {
    free(s->verts);
    free(s->strip_first);
    free(s->strip_len);
    memset(s, 0, sizeof *s);
}

/* One primitive: opcode, u16 count, the records of `count` vertices. */
static void put_primitive(ue_buf *out, uint8_t op, const uint32_t *verts, size_t count, const uint8_t *records,
                          const uint32_t *record_at, uint32_t record_bytes) {
    uint8_t head[3] = {op, (uint8_t)(count >> 8), (uint8_t)count};
    ue_buf_put(out, head, 3);
    for (size_t i = 0; i < count; i++) ue_buf_put(out, records + record_at[verts[i]], record_bytes);
}

ue_result hsd_strips_display_list(const hsd_strips *s, const uint8_t *records, const uint32_t *record_at,
                                  uint32_t record_bytes, uint8_t vat, ue_buf *out) {
    /* A piece of a long strip: an even number of triangles (the next piece keeps the parity). */
    const size_t piece_tris = (HSD_GX_MAX_CHUNK - 2) & ~(size_t)1;
    const size_t list_tris = HSD_GX_MAX_CHUNK / 3;
    size_t verts = 0;
    for (size_t i = 0; i < s->strip_count; i++) verts += s->strip_len[i] + 2 * (s->strip_len[i] / piece_tris);
    verts += 3 * s->list_count;
    size_t bytes = verts * record_bytes + 3 * (s->strip_count + verts / piece_tris + 2);
    if (!ue_buf_try_reserve(out, bytes)) return UE_ERR_NOMEM;
    for (size_t i = 0; i < s->strip_count; i++) {
        const uint32_t *v = &s->verts[s->strip_first[i]];
        size_t tris = s->strip_len[i] - 2;
        for (size_t done = 0; done < tris; done += piece_tris) {
            size_t t = tris - done < piece_tris ? tris - done : piece_tris;
            put_primitive(out, (uint8_t)(HSD_GX_TRIANGLE_STRIP | vat), v + done, t + 2, records, record_at, record_bytes);
        }
    }
    for (size_t done = 0; done < s->list_count; done += list_tris) {
        size_t t = s->list_count - done < list_tris ? s->list_count - done : list_tris;
        put_primitive(out, (uint8_t)(HSD_GX_TRIANGLES | vat), &s->verts[s->list_first + 3 * done], 3 * t, records,
                      record_at, record_bytes);
    }
    return out->failed ? UE_ERR_NOMEM : UE_OK;
}
