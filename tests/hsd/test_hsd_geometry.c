/* unearth tests — the GX display-list decoder: PObjs laid out by hand from docs/formats/hsd-model.md#pobj, docs/formats/hsd-model.md#display-lists
 * (every primitive type, direct/index8/index16, component types with frac, colour formats with
 * bit replication, NBT3), winding and values checked against hand computation; bad lists. */
#include <math.h>

#include "test.h"
#include "dat_image.h"
#include "hsd/hsd_int.h"
#include "unearth/hsd_model.h"

/* One joint ("x_joint") → one DObj → one PObj with the given descriptors and list. */
typedef struct mesh_image {
    dat_image b;
    uint32_t attrs, n_attrs, dl, dl_size, pobj;
} mesh_image;

static void mesh_begin(mesh_image *s, uint32_t n_attrs, uint32_t n_display) {
    memset(s, 0, sizeof *s);
    di_init(&s->b);
    s->attrs = di_alloc(&s->b, 0x18 * (n_attrs + 1), 4);
    di_u32(&s->b, s->attrs + 0x18 * n_attrs, 0xFF);
    s->dl_size = 32 * n_display;
    s->dl = di_alloc(&s->b, s->dl_size, 32);
    uint32_t j = di_alloc(&s->b, 0x40, 4), d = di_alloc(&s->b, 0x10, 4);
    s->pobj = di_alloc(&s->b, 0x18, 4);
    di_ptr(&s->b, s->pobj + 8, s->attrs);
    di_u16(&s->b, s->pobj + 0x0E, (uint16_t)n_display);
    di_ptr(&s->b, s->pobj + 0x10, s->dl);
    di_ptr(&s->b, d + 0x0C, s->pobj);
    di_ptr(&s->b, j + 0x10, d);
    di_root(&s->b, j, "x_joint");
}

/* Descriptor k; `array` 0 for none. */
static void mesh_attr(mesh_image *s, uint32_t k, uint32_t attr, uint32_t type, uint32_t cnt,
                      uint32_t comp, uint8_t frac, uint16_t stride, uint32_t array) {
    uint32_t a = s->attrs + 0x18 * k;
    di_u32(&s->b, a, attr);
    di_u32(&s->b, a + 4, type);
    di_u32(&s->b, a + 8, cnt);
    di_u32(&s->b, a + 12, comp);
    di_u8(&s->b, a + 16, frac);
    di_u16(&s->b, a + 18, stride);
    if (array) di_ptr(&s->b, a + 20, array);
}

/* Bytes of the list, from offset 0. */
static void mesh_list(mesh_image *s, const uint8_t *bytes, uint32_t n) {
    if (n > s->dl_size) abort();
    memcpy(s->b.data + s->dl, bytes, n);
}

typedef struct decoded {
    ue_dat dat;
    ue_hsd_model m;
    ue_hsd_geometry g;
    ue_diag d;
    ue_result read, decode;
} decoded;

static bool decode(const mesh_image *s, ue_mode mode, decoded *out) {
    memset(out, 0, sizeof *out);
    size_t n = 0;
    uint8_t *file = di_file(&s->b, &n);
    bool ok = ue_dat_parse(file, n, UE_MODE_STRICT, &out->dat, NULL) == UE_OK;
    free(file);
    if (!ok) return false;
    out->read = ue_hsd_model_read(&out->dat, mode, &out->m, &out->d);
    if (out->m.pobj_count != 1) return false;
    out->decode = ue_hsd_pobj_decode(&out->m, 0, mode, &out->g, &out->d);
    return true;
}

static void done(decoded *x) {
    ue_hsd_geometry_free(&x->g);
    ue_hsd_model_free(&x->m);
    ue_dat_free(&x->dat);
    ue_diag_free(&x->d);
}

static bool near(float a, float b) { return fabsf(a - b) < 1e-6f; }

static bool vec_is(const float *v, float x, float y, float z) {
    return near(v[0], x) && near(v[1], y) && near(v[2], z);
}

/* ---- primitives and winding (docs/formats/hsd-model.md#triangles) ---------------------------- */

/* POS index8 → F32 XYZ array: vertex i at (i, i + 0.5, -i). One primitive of each type. */
static void test_primitives(void) {
    static mesh_image s;
    mesh_begin(&s, 1, 2);
    uint32_t arr = di_alloc(&s.b, 8 * 12, 32);
    for (uint32_t i = 0; i < 8; i++) {
        di_f32(&s.b, arr + 12 * i, (float)i);
        di_f32(&s.b, arr + 12 * i + 4, (float)i + 0.5f);
        di_f32(&s.b, arr + 12 * i + 8, -(float)i);
    }
    mesh_attr(&s, 0, UE_GX_VA_POS, UE_GX_INDEX8, 1, 4, 0, 12, arr);
    const uint8_t list[] = {
        0x90, 0, 3, 0, 1, 2,    /* triangles */
        0x98, 0, 4, 3, 4, 5, 6, /* strip */
        0x98, 0, 4, 0, 1, 1, 2, /* strip of degenerate triangles only */
        0xA0, 0, 4, 0, 2, 4, 6, /* fan */
        0x80, 0, 4, 1, 3, 5, 7, /* quads */
        0xA8, 0, 2, 0, 1,       /* lines: skipped */
        0xB8, 0, 3, 0, 1, 2,    /* points: skipped */
    }; /* then zero bytes: NOP ends the list */
    mesh_list(&s, list, sizeof list);
    for (int mode = 0; mode < 2; mode++) {
        decoded x;
        REQUIRE(decode(&s, (ue_mode)mode, &x));
        CHECK_EQ_U(x.read, UE_OK);
        CHECK_EQ_U(x.decode, UE_OK);
        /* GX order reversed: tri (0,1,2) → (0,2,1); strip even (3,4,5) → (3,5,4), odd
         * (5,4,6) → (5,6,4); fan (0,2,4),(0,4,6) → (0,4,2),(0,6,4); quad (1,3,5),(1,5,7) →
         * (1,5,3),(1,7,5). Vertex ids follow first appearance, which here equals the index. */
        const uint32_t want[] = {0, 2, 1, 3, 5, 4, 5, 6, 4, 0, 4, 2, 0, 6, 4, 1, 5, 3, 1, 7, 5};
        CHECK_EQ_U(x.g.index_count, sizeof want / sizeof want[0]);
        if (x.g.index_count == sizeof want / sizeof want[0])
            CHECK_MEM(x.g.indices, want, sizeof want);
        REQUIRE(x.g.vertex_count == 8);
        for (uint32_t i = 0; i < 8; i++)
            CHECK(vec_is(x.g.positions + 3 * i, (float)i, (float)i + 0.5f, -(float)i));
        CHECK(!x.g.normals && !x.g.uv[0] && !x.g.colors[0] && !x.g.pnmtx);
        CHECK_EQ_U(x.g.skipped_lines, 1);
        CHECK_EQ_U(x.g.skipped_points, 3);
        const ue_diag_item *it = diag_find(&x.d, "hsd.dl.skipped", "dat/pobj[0]");
        CHECK(it && it->severity == UE_SEV_INFO);
        done(&x);
    }
}

/* ---- attribute values (docs/formats/hsd-model.md#attribute-values) --------------------------- */

static bool rgba_is(const float *c, int r, int g, int b, int a) {
    return near(c[0], (float)r / 255.0f) && near(c[1], (float)g / 255.0f) &&
           near(c[2], (float)b / 255.0f) && near(c[3], (float)a / 255.0f);
}

/* PNMTXIDX direct; POS index16 S16 frac 8; NRM index8 S8 frac 6; CLR0 direct RGB565; CLR1
 * index8 RGBA4; TEX0 direct U8 frac 4; TEX1 index16 F32 S only. 11 bytes per vertex. */
static void build_values(mesh_image *s) {
    mesh_begin(s, 7, 2);
    uint32_t pos = di_alloc(&s->b, 12, 4), nrm = di_alloc(&s->b, 3, 4);
    uint32_t clr = di_alloc(&s->b, 2, 4), tex = di_alloc(&s->b, 4, 4);
    const uint16_t p[6] = {256, (uint16_t)-512, 128, 0x7FFF, 0x8000, 1};
    for (uint32_t i = 0; i < 6; i++) di_u16(&s->b, pos + 2 * i, p[i]);
    di_u8(&s->b, nrm, 0x40);
    di_u8(&s->b, nrm + 1, 0xC0);
    di_u8(&s->b, nrm + 2, 0x20);
    di_u16(&s->b, clr, 0x1234);
    di_f32(&s->b, tex, 0.25f);
    mesh_attr(s, 0, UE_GX_VA_PNMTXIDX, UE_GX_DIRECT, 0, 0, 0, 0, 0);
    mesh_attr(s, 1, UE_GX_VA_POS, UE_GX_INDEX16, 1, 3, 8, 6, pos);
    mesh_attr(s, 2, UE_GX_VA_NRM, UE_GX_INDEX8, 0, 1, 6, 3, nrm);
    mesh_attr(s, 3, UE_GX_VA_CLR0, UE_GX_DIRECT, 1, 0, 0, 0, 0);
    mesh_attr(s, 4, UE_GX_VA_CLR1, UE_GX_INDEX8, 1, 3, 0, 2, clr);
    mesh_attr(s, 5, UE_GX_VA_TEX0, UE_GX_DIRECT, 1, 0, 4, 0, 0);
    mesh_attr(s, 6, UE_GX_VA_TEX0 + 1, UE_GX_INDEX16, 0, 4, 0, 4, tex);
    const uint8_t list[] = {
        0x90, 0, 3,
        3, 0, 0, 0, 0x84, 0x10, 0, 8, 24, 0, 0,  /* pnm 3, pos 0, clr0 0x8410, st (8, 24) */
        6, 0, 1, 0, 0xFF, 0xFF, 0, 0, 0, 0, 0,   /* pnm 6, pos 1, clr0 0xFFFF */
        0, 0, 0, 0, 0x00, 0x00, 0, 16, 0, 0, 0,  /* pnm 0, pos 0, clr0 0, st (16, 0) */
    };
    mesh_list(s, list, sizeof list);
}

static void test_values(void) {
    static mesh_image s;
    build_values(&s);
    decoded x;
    REQUIRE(decode(&s, UE_MODE_STRICT, &x));
    if (x.decode != UE_OK) dump_diag(&x.d);
    CHECK_EQ_U(x.read, UE_OK);
    CHECK_EQ_U(x.decode, UE_OK);
    REQUIRE(x.g.vertex_count == 3 && x.g.index_count == 3);
    const uint32_t want[3] = {0, 2, 1};
    CHECK_MEM(x.g.indices, want, sizeof want);
    REQUIRE(x.g.normals && x.g.colors[0] && x.g.colors[1] && x.g.uv[0] && x.g.uv[1] && x.g.pnmtx);
    CHECK(x.g.pnmtx[0] == 3 && x.g.pnmtx[1] == 6 && x.g.pnmtx[2] == 0);
    /* S16 / 2^8: 256 → 1, -512 → -2, 128 → 0.5; 0x7FFF → 127.99609375, 0x8000 → -128 */
    CHECK(vec_is(x.g.positions, 1.0f, -2.0f, 0.5f));
    CHECK(vec_is(x.g.positions + 3, 127.99609375f, -128.0f, 0.00390625f));
    CHECK(vec_is(x.g.positions + 6, 1.0f, -2.0f, 0.5f));
    /* S8 / 2^6: 0x40 → 1, 0xC0 = -64 → -1, 0x20 → 0.5 (the descriptor's frac, docs/formats/hsd-model.md#attribute-values) */
    for (int v = 0; v < 3; v++) CHECK(vec_is(x.g.normals + 3 * v, 1.0f, -1.0f, 0.5f));
    /* RGB565 0x8410: r 16 → 16<<3 | 16>>2 = 132, g 32 → 32<<2 | 32>>4 = 130, b 16 → 132 */
    CHECK(rgba_is(x.g.colors[0], 132, 130, 132, 255));
    CHECK(rgba_is(x.g.colors[0] + 4, 255, 255, 255, 255));
    CHECK(rgba_is(x.g.colors[0] + 8, 0, 0, 0, 255));
    /* RGBA4 0x1234: each nibble n → n << 4 | n = 17 n */
    for (int v = 0; v < 3; v++) CHECK(rgba_is(x.g.colors[1] + 4 * v, 17, 34, 51, 68));
    /* U8 / 2^4: (8, 24) → (0.5, 1.5); (16, 0) → (1, 0) */
    CHECK(near(x.g.uv[0][0], 0.5f) && near(x.g.uv[0][1], 1.5f));
    CHECK(near(x.g.uv[0][2], 0.0f) && near(x.g.uv[0][3], 0.0f));
    CHECK(near(x.g.uv[0][4], 1.0f) && near(x.g.uv[0][5], 0.0f));
    for (int v = 0; v < 3; v++)
        CHECK(near(x.g.uv[1][2 * v], 0.25f) && near(x.g.uv[1][2 * v + 1], 0.0f));
    done(&x);
}

/* POS direct U16 XY; NBT3 index8 S16 frac 14 (three indices, the normal from the first);
 * CLR0 direct RGBA6; CLR1 direct RGB8. Six records of three distinct vertices. */
static void test_nbt3_rgba6_dedupe(void) {
    static mesh_image s;
    mesh_begin(&s, 4, 4);
    uint32_t nbt = di_alloc(&s.b, 12, 4);
    const uint16_t e[6] = {0, 0, 16384, 16384, (uint16_t)-8192, 0};
    for (uint32_t i = 0; i < 6; i++) di_u16(&s.b, nbt + 2 * i, e[i]);
    mesh_attr(&s, 0, UE_GX_VA_POS, UE_GX_DIRECT, 0, 2, 0, 0, 0);
    mesh_attr(&s, 1, UE_GX_VA_NBT, UE_GX_INDEX8, 2, 3, 14, 6, nbt);
    mesh_attr(&s, 2, UE_GX_VA_CLR0, UE_GX_DIRECT, 1, 4, 0, 0, 0);
    mesh_attr(&s, 3, UE_GX_VA_CLR1, UE_GX_DIRECT, 0, 1, 0, 0, 0);
    const uint8_t v0[13] = {0, 3, 0, 4, 1, 0, 0, 0xFC, 0x08, 0x01, 1, 2, 3};
    const uint8_t v1[13] = {0, 5, 0, 6, 0, 1, 1, 0, 0, 0, 9, 9, 9};
    const uint8_t v2[13] = {0, 7, 0, 8, 0, 0, 0, 0, 0, 0, 9, 9, 9};
    const uint8_t *order[6] = {v0, v1, v2, v0, v2, v1};
    uint8_t list[3 + 6 * 13] = {0x90, 0, 6};
    for (int i = 0; i < 6; i++) memcpy(list + 3 + 13 * i, order[i], 13);
    mesh_list(&s, list, sizeof list);
    decoded x;
    REQUIRE(decode(&s, UE_MODE_STRICT, &x));
    CHECK_EQ_U(x.decode, UE_OK);
    REQUIRE(x.g.vertex_count == 3 && x.g.index_count == 6);
    const uint32_t want[6] = {0, 2, 1, 0, 1, 2};
    CHECK_MEM(x.g.indices, want, sizeof want);
    CHECK(vec_is(x.g.positions, 3.0f, 4.0f, 0.0f)); /* XY: z = 0 */
    CHECK(vec_is(x.g.positions + 6, 7.0f, 8.0f, 0.0f));
    /* first index 1 → (16384, -8192, 0) / 2^14 */
    CHECK(vec_is(x.g.normals, 1.0f, -0.5f, 0.0f));
    CHECK(vec_is(x.g.normals + 3, 0.0f, 0.0f, 1.0f));
    /* RGBA6 FC 08 01 = 111111 000000 100000 000001: 63 → 255, 0, 32 → 128|2 = 130, 1 → 4 */
    CHECK(rgba_is(x.g.colors[0], 255, 0, 130, 4));
    CHECK(rgba_is(x.g.colors[1], 1, 2, 3, 255));
    done(&x);
}

/* ---- bad lists ------------------------------------------------------------------------------- */

/* POS index8 → a 2-entry F32 array that ends the data block; the list starts with one good
 * triangle (6 bytes) and continues with `tail`. */
static void build_bad(mesh_image *s, const uint8_t *tail, uint32_t n) {
    mesh_begin(s, 1, 1);
    uint8_t list[32] = {0x90, 0, 3, 0, 1, 0};
    if (n) memcpy(list + 6, tail, n);
    mesh_list(s, list, 6 + n);
    uint32_t arr = di_alloc(&s->b, 24, 4);
    di_f32(&s->b, arr + 12, 1.0f);
    mesh_attr(s, 0, UE_GX_VA_POS, UE_GX_INDEX8, 1, 4, 0, 12, arr);
}

/* `kept`: indices a tolerant decode keeps (the damage stops the list; a partial primitive
 * only loses its leftover vertices). */
static void expect_bad_list(const char *name, const uint8_t *tail, uint32_t n, const char *code,
                            uint32_t dl_at, size_t kept) {
    static mesh_image s;
    build_bad(&s, tail, n);
    for (int mode = 0; mode < 2; mode++) {
        decoded x;
        REQUIRE(decode(&s, (ue_mode)mode, &x));
        CHECK_EQ_U(x.read, UE_OK);
        const ue_diag_item *it = diag_find(&x.d, code, "dat/pobj[0]/dl");
        if (!it || it->offset != UE_DAT_HEADER + (uint64_t)s.dl + dl_at) {
            fprintf(stderr, "%s: expected %s at 0x%x\n", name, code, UE_DAT_HEADER + s.dl + dl_at);
            dump_diag(&x.d);
            CHECK(false);
        }
        if (mode == UE_MODE_STRICT) {
            CHECK_EQ_U(x.decode, UE_ERR_INVALID);
            CHECK(x.g.vertex_count == 0 && !x.g.indices); /* refused: nothing kept */
        } else {
            CHECK_EQ_U(x.decode, UE_OK); /* the triangle before the damage is kept */
            CHECK_EQ_U(x.g.index_count, kept);
            CHECK_EQ_U(x.g.vertex_count, 2);
        }
        done(&x);
    }
}

static void test_bad_lists(void) {
    const uint8_t past[] = {0x90, 0, 30, 0, 1, 0}; /* 30 records in the 23 bytes left */
    expect_bad_list("past size", past, sizeof past, "hsd.dl.size", 6, 3);
    const uint8_t index[] = {0x90, 0, 3, 0, 1, 5}; /* entry 5 of a 2-entry array */
    expect_bad_list("index past array", index, sizeof index, "hsd.dl.index", 6 + 3 + 2, 3);
    const uint8_t prim[] = {0xC8, 0, 3, 0, 1, 0}; /* 0xC8 is no GX primitive */
    expect_bad_list("unknown primitive", prim, sizeof prim, "hsd.dl.primitive", 6, 3);
    const uint8_t count[] = {0x90, 0, 4, 0, 1, 0, 1}; /* 4 vertices: no whole triangles */
    expect_bad_list("partial triangle", count, sizeof count, "hsd.dl.count", 6, 6);
}

/* A model built in memory (or changed after reading) with a component type GX does not know:
 * the decoder checks the descriptors itself. */
static void test_bad_descriptor(void) {
    static mesh_image s;
    build_bad(&s, NULL, 0);
    for (int mode = 0; mode < 2; mode++) {
        decoded x;
        REQUIRE(decode(&s, (ue_mode)mode, &x));
        ue_hsd_geometry_free(&x.g);
        x.m.attrs[0].comp_type = 7;
        x.decode = ue_hsd_pobj_decode(&x.m, 0, (ue_mode)mode, &x.g, &x.d);
        const ue_diag_item *it = diag_find(&x.d, "hsd.pobj.attr", "dat/pobj[0]/attr[0]");
        CHECK(it && it->offset == UE_DAT_HEADER + (uint64_t)s.attrs);
        CHECK_EQ_U(x.decode, mode == UE_MODE_STRICT ? UE_ERR_INVALID : UE_OK);
        CHECK_EQ_U(x.g.vertex_count, 0);
        CHECK_EQ_U(ue_hsd_pobj_decode(&x.m, 5, (ue_mode)mode, &x.g, NULL), UE_ERR_USAGE);
        done(&x);
    }
}

int main(void) {
    RUN(test_primitives);
    RUN(test_values);
    RUN(test_nbt3_rgba6_dedupe);
    RUN(test_bad_lists);
    RUN(test_bad_descriptor);
    return TEST_SUMMARY();
}
