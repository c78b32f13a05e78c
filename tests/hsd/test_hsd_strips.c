/* unearth tests — the edit-mode stripifier (src/hsd/hsd_strips.c): every triangle it draws is an
 * input triangle with its winding, each exactly once, checked by a display-list decoder written here
 * from docs/formats/hsd-model.md#triangles; a grid's strip count; long strips and lists cut. */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "hsd/hsd_strips.h"

/* A triangle with its smallest corner first, its winding kept. */
static void canonical(const uint32_t *t, uint32_t *out) {
    int k = t[1] < t[0] && t[1] <= t[2] ? 1 : t[2] < t[0] && t[2] < t[1] ? 2 : 0;
    for (int i = 0; i < 3; i++) out[i] = t[(k + i) % 3];
}

static int tri_order(const void *a, const void *b) {
    const uint32_t *x = a, *y = b;
    for (int i = 0; i < 3; i++)
        if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
}

/* Sorted canonical copies of n triangles. */
static uint32_t *sorted(const uint32_t *tris, size_t n) {
    uint32_t *s = malloc((3 * n + 1) * sizeof *s);
    for (size_t i = 0; i < n; i++) canonical(&tris[3 * i], &s[3 * i]);
    qsort(s, n, 3 * sizeof *s, tri_order);
    return s;
}

/* Decodes a display list of 4-byte big-endian vertex ids as the format reads it: triangles
 * (v0 v1 v2)…; strip triangle i even (vi, vi+1, vi+2), odd (vi+1, vi, vi+2); opcode 0 ends it.
 * Counts primitives per opcode and the largest vertex count. */
typedef struct decoded {
    uint32_t *tris;
    size_t n, strips, lists, max_count;
    bool bad;
} decoded;

static uint32_t id_at(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

static decoded decode(const ue_buf *dl, size_t cap) {
    decoded d = {malloc((3 * cap + 1) * sizeof(uint32_t)), 0, 0, 0, 0, false};
    for (size_t at = 0; at < dl->size && dl->data[at];) {
        uint8_t op = dl->data[at];
        size_t count = (size_t)dl->data[at + 1] << 8 | dl->data[at + 2];
        const uint8_t *v = dl->data + at + 3;
        at += 3 + 4 * count;
        if (count > d.max_count) d.max_count = count;
        if (op == 0x90) {
            d.lists++;
            for (size_t i = 0; i < count && d.n < cap; i++) d.tris[3 * d.n + i % 3] = id_at(v + 4 * i), d.n += i % 3 == 2;
        } else if (op == 0x98) {
            d.strips++;
            for (size_t i = 0; i + 2 < count && d.n < cap; i++, d.n++) {
                d.tris[3 * d.n] = id_at(v + 4 * (i + (i & 1)));
                d.tris[3 * d.n + 1] = id_at(v + 4 * (i + 1 - (i & 1)));
                d.tris[3 * d.n + 2] = id_at(v + 4 * (i + 2));
            }
        } else {
            d.bad = true;
            break;
        }
    }
    return d;
}

/* Strips → display list → decoded triangles: the same multiset as the input, windings kept. */
static decoded strip_and_decode(const uint32_t *tris, size_t n, hsd_strips *s, ue_buf *dl) {
    uint32_t max = 0;
    for (size_t i = 0; i < 3 * n; i++) max = tris[i] > max ? tris[i] : max;
    uint8_t *records = malloc(4 * ((size_t)max + 1));
    uint32_t *record_at = malloc(((size_t)max + 1) * sizeof *record_at);
    for (uint32_t v = 0; v <= max; v++) {
        record_at[v] = 4 * v;
        records[4 * v] = (uint8_t)(v >> 24), records[4 * v + 1] = (uint8_t)(v >> 16);
        records[4 * v + 2] = (uint8_t)(v >> 8), records[4 * v + 3] = (uint8_t)v;
    }
    decoded d = {0};
    if (hsd_strips_build(tris, n, s) == UE_OK && hsd_strips_display_list(s, records, record_at, 4, 0, dl) == UE_OK)
        d = decode(dl, n + 1);
    else
        d.bad = true;
    free(records);
    free(record_at);
    return d;
}

static bool same_triangles(const uint32_t *a, size_t na, const uint32_t *b, size_t nb) {
    if (na != nb) return false;
    uint32_t *x = sorted(a, na), *y = sorted(b, nb);
    bool same = memcmp(x, y, 3 * na * sizeof *x) == 0;
    free(x);
    free(y);
    return same;
}

/* `rows` rows of `cols` quads, row-major, vertex (r, c) = r (cols + 1) + c; quad (r, i) is (v(r,i), v(r+1,i), v(r,i+1)) and (v(r,i+1), v(r+1,i), v(r+1,i+1)). */
static uint32_t *grid(uint32_t rows, uint32_t cols, size_t *n) {
    *n = 2 * (size_t)rows * cols;
    uint32_t *t = malloc(3 * *n * sizeof *t), *p = t;
#define V(r, c) ((r) * (cols + 1) + (c))
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t c = 0; c < cols; c++) {
            uint32_t q[6] = {V(r, c), V(r + 1, c), V(r, c + 1), V(r, c + 1), V(r + 1, c), V(r + 1, c + 1)};
            memcpy(p, q, sizeof q);
            p += 6;
        }
#undef V
    return t;
}

static void test_grid(void) {
    size_t n;
    uint32_t *t = grid(4, 6, &n);
    hsd_strips s;
    ue_buf dl = {0};
    decoded d = strip_and_decode(t, n, &s, &dl);
    REQUIRE(!d.bad);
    CHECK(same_triangles(t, n, d.tris, d.n));
    /* Each row is one strip along its 6 quads: 12 triangles over 14 vertices; nothing left over. */
    CHECK_EQ_U(s.strip_count, 4);
    for (size_t i = 0; i < s.strip_count; i++) CHECK_EQ_U(s.strip_len[i], 14);
    CHECK_EQ_U(s.list_count, 0);
    CHECK_EQ_U(d.strips, 4);
    CHECK_EQ_U(d.lists, 0);
    /* 4 strips × (3 header bytes + 14 records of 4 bytes). */
    CHECK_EQ_U(dl.size, 4 * (3 + 14 * 4));
    free(d.tris);
    free(t);
    hsd_strips_free(&s);
    ue_buf_free(&dl);
}

/* Random triangles over a few vertices: repeats, both windings of one triangle, degenerate ones. */
static void test_random(void) {
    uint32_t seed = 12345;
    for (int round = 0; round < 50; round++) {
        size_t n = 1 + (size_t)round * 7;
        uint32_t *t = malloc(3 * n * sizeof *t);
        for (size_t i = 0; i < 3 * n; i++) {
            seed = seed * 1103515245u + 12345u;
            t[i] = (seed >> 16) % (4 + (uint32_t)round / 5);
        }
        hsd_strips s;
        ue_buf dl = {0};
        decoded d = strip_and_decode(t, n, &s, &dl);
        CHECK(!d.bad);
        CHECK(same_triangles(t, n, d.tris, d.n));
        size_t strip_tris = 0;
        for (size_t i = 0; i < s.strip_count; i++) {
            CHECK(s.strip_len[i] >= 4); /* at least two triangles, else the list */
            strip_tris += s.strip_len[i] - 2;
        }
        CHECK_EQ_U(strip_tris + s.list_count, n);
        free(d.tris);
        free(t);
        hsd_strips_free(&s);
        ue_buf_free(&dl);
    }
}

/* One row of 40000 quads: one strip of 80002 vertices, cut into pieces of at most 65535 after an
 * even number of triangles (65532, then 14468); 30000 separate triangles: lists of 21845 and 8155. */
static void test_long(void) {
    size_t n;
    uint32_t *t = grid(1, 40000, &n);
    hsd_strips s;
    ue_buf dl = {0};
    decoded d = strip_and_decode(t, n, &s, &dl);
    REQUIRE(!d.bad);
    CHECK_EQ_U(s.strip_count, 1);
    CHECK_EQ_U(d.strips, 2);
    CHECK_EQ_U(d.max_count, 65534);
    CHECK(same_triangles(t, n, d.tris, d.n));
    free(d.tris);
    free(t);
    hsd_strips_free(&s);
    ue_buf_free(&dl);

    n = 30000;
    t = malloc(3 * n * sizeof *t);
    for (uint32_t i = 0; i < 3 * n; i++) t[i] = i;
    d = strip_and_decode(t, n, &s, &dl);
    REQUIRE(!d.bad);
    CHECK_EQ_U(s.strip_count, 0);
    CHECK_EQ_U(s.list_count, 30000);
    CHECK_EQ_U(d.lists, 2);
    CHECK_EQ_U(d.max_count, 65535);
    CHECK_EQ_U(dl.size, 2 * 3 + 4 * 3 * 30000);
    CHECK(same_triangles(t, n, d.tris, d.n));
    free(d.tris);
    free(t);
    hsd_strips_free(&s);
    ue_buf_free(&dl);
}

int main(void) {
    RUN(test_grid);
    RUN(test_random);
    RUN(test_long);
    return TEST_SUMMARY();
}
