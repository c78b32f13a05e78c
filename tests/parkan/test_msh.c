/* Tests of the MSH module against a model written byte by byte from docs/formats/msh.md: decoded
 * values, runtime lookups, every violation class of docs/formats/msh.md#invariants, lossless writes, edits, and the scene. */
#include <math.h>

#include "test.h"
#include "unearth/msh.h"
#include "samples/samples.h"
#include "common/bytes.h"

/* ---- a hand-built model ------------------------------------------------------------------ */

typedef struct res {
    uint32_t type, attr1, attr2, attr3;
    uint8_t data[512];
    size_t size;
} res;

static void w16(res *r, uint16_t v) { r->data[r->size++] = (uint8_t)v; r->data[r->size++] = (uint8_t)(v >> 8); }
static void w32(res *r, uint32_t v) { w16(r, (uint16_t)v); w16(r, (uint16_t)(v >> 16)); }
static void wf(res *r, float f) { uint32_t u; memcpy(&u, &f, 4); w32(r, u); }

/* Names "a01".."a11" are already in sorted order, so sort_index[i] = i. */
static size_t build_container(res *rs, size_t n, uint8_t *out) {
    size_t at = 16;
    uint32_t offs[16];
    memset(out, 0, 16);
    for (size_t i = 0; i < n; i++) {
        offs[i] = (uint32_t)at;
        memcpy(out + at, rs[i].data, rs[i].size);
        at += rs[i].size;
        while (at % 8) out[at++] = 0;
    }
    size_t dir = at;
    for (size_t i = 0; i < n; i++) {
        uint8_t *e = out + dir + 64 * i;
        memset(e, 0, 64);
        ue_store_u32le(e, rs[i].type);
        ue_store_u32le(e + 4, rs[i].attr1);
        ue_store_u32le(e + 8, rs[i].attr2);
        ue_store_u32le(e + 12, (uint32_t)rs[i].size);
        ue_store_u32le(e + 16, rs[i].attr3);
        e[20] = 'a';
        e[21] = (uint8_t)('0' + (i + 1) / 10);
        e[22] = (uint8_t)('0' + (i + 1) % 10);
        ue_store_u32le(e + 56, offs[i]);
        ue_store_u32le(e + 60, (uint32_t)i);
    }
    size_t total = dir + 64 * n;
    memcpy(out, "NRes", 4);
    ue_store_u32le(out + 4, 0x100);
    ue_store_u32le(out + 8, (uint32_t)n);
    ue_store_u32le(out + 12, (uint32_t)total);
    return total;
}

enum { R1, R2, R3, R4, R5, R13, R6, R7, R8, R19, R10, NRES };

static void build_resources(res *rs) {
    memset(rs, 0, sizeof(res) * NRES);
    res *r = &rs[R1];
    *r = (res){1, 2, 0, 38, {0}, 0};
    /* node 0: flags 1, root, no map, key 0, slot 0 at [lod0][group0] */
    w16(r, 1); w16(r, 0xFFFF); w16(r, 0xFFFF); w16(r, 0);
    for (int s = 0; s < 15; s++) w16(r, s == 0 ? 0 : 0xFFFF);
    /* node 1: child of 0, key 1, slot 1 at [lod1][group2] (word 4 + 19 + 5 + 2 = 30) */
    w16(r, 0); w16(r, 0); w16(r, 0xFFFF); w16(r, 1);
    for (int s = 0; s < 15; s++) w16(r, s == 7 ? 1 : 0xFFFF);

    r = &rs[R2];
    *r = (res){2, 2, 0, 68, {0}, 0};
    for (int i = 0; i < 35; i++) wf(r, i == 27 ? 2.5f : 0.0f);
    w16(r, 0); w16(r, 1); w16(r, 0); w16(r, 1);
    wf(r, 0); wf(r, 0); wf(r, 0); wf(r, 1); wf(r, 1); wf(r, 0);
    wf(r, 0.5f); wf(r, 0.5f); wf(r, 0); wf(r, 0.70710677f);
    w32(r, 0x11); w32(r, 0x22); w32(r, 0x33); w32(r, 0x44); w32(r, 0x55);
    w16(r, 1); w16(r, 1); w16(r, 1); w16(r, 1);
    for (int i = 0; i < 10; i++) wf(r, 0);
    for (int i = 0; i < 5; i++) w32(r, 0xA0 + (uint32_t)i);

    r = &rs[R3];
    *r = (res){3, 4, 0, 12, {0}, 0};
    const float pos[4][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    for (int v = 0; v < 4; v++) for (int k = 0; k < 3; k++) wf(r, pos[v][k]);

    r = &rs[R4];
    *r = (res){4, 4, 0, 4, {0}, 0};
    const int8_t nrm[4][4] = {{0, 0, 127, 0}, {0, 0, -128, 5}, {127, 0, 0, 0}, {0, 127, 0, 0}};
    for (int v = 0; v < 4; v++) for (int k = 0; k < 4; k++) r->data[r->size++] = (uint8_t)nrm[v][k];

    r = &rs[R5];
    *r = (res){5, 4, 0, 4, {0}, 0};
    const int16_t uv[4][2] = {{0, 0}, {1024, 0}, {1024, 1024}, {-512, 2048}};
    for (int v = 0; v < 4; v++) { w16(r, (uint16_t)uv[v][0]); w16(r, (uint16_t)uv[v][1]); }

    r = &rs[R13];
    *r = (res){13, 2, 0, 20, {0}, 0};
    w16(r, 0x10); w16(r, 3); w16(r, 0xAAAA); w16(r, 0xBBBB); w16(r, 3); w32(r, 0); w16(r, 0xCCCC); w32(r, 0);
    w16(r, 0x20); w16(r, 4); w16(r, 0); w16(r, 0); w16(r, 3); w32(r, 3); w16(r, 0); w32(r, 1);

    r = &rs[R6];
    *r = (res){6, 6, 0, 2, {0}, 0};
    const uint16_t idx[6] = {0, 1, 2, 0, 1, 2};
    for (int i = 0; i < 6; i++) w16(r, idx[i]);

    r = &rs[R7];
    *r = (res){7, 2, 0, 16, {0}, 0};
    w16(r, 0); w16(r, 1); w16(r, 0xFFFF); w16(r, 0xFFFF); w16(r, 0); w16(r, 0); w16(r, 32767); w16(r, 0x24);
    w16(r, 2); w16(r, 0); w16(r, 0xFFFF); w16(r, 0xFFFF); w16(r, 0); w16(r, 0); w16(r, (uint16_t)-32767); w16(r, 0x3F);

    r = &rs[R8];
    *r = (res){8, 2, 0, 4, {0}, 0};
    wf(r, 0); wf(r, 0); wf(r, 0); wf(r, 0); w16(r, 0); w16(r, 0); w16(r, 0); w16(r, 32767);
    wf(r, 0); wf(r, 0); wf(r, 2); wf(r, 0); w16(r, 0); w16(r, 0); w16(r, 23170); w16(r, 23170);

    rs[R19] = (res){19, 0, 1, 2, {0}, 0};

    r = &rs[R10];
    *r = (res){10, 2, 0, 0, {0}, 0};
    w32(r, 4);
    memcpy(r->data + r->size, "root", 5);
    r->size += 5;
    w32(r, 0);
}

static size_t build_model(uint8_t *out) {
    res rs[NRES];
    build_resources(rs);
    return build_container(rs, NRES, out);
}

/* ---- tests ------------------------------------------------------------------------------- */

static void decodes_every_table(void) {
    uint8_t img[4096];
    size_t size = build_model(img);
    ue_msh m;
    ue_diag d = {0};
    REQUIRE(ue_msh_parse(img, size, UE_MODE_STRICT, &m, &d) == UE_OK);
    CHECK_EQ_U(ue_diag_count(&d, UE_SEV_WARNING), 0);
    CHECK_EQ_U(m.node_count, 2);
    CHECK_EQ_U(m.nodes[0].flags, 1);
    CHECK_EQ_U(m.nodes[0].parent, 0xFFFF);
    CHECK_EQ_U(m.nodes[1].parent, 0);
    CHECK_EQ_U(m.nodes[1].fallback_key, 1);
    CHECK_EQ_U(m.slot_count, 2);
    CHECK_EQ_U(m.slots[0].tri_count, 1);
    CHECK(m.slots[0].aabb_max[0] == 1.0f && m.slots[0].sphere_radius == 0.70710677f);
    CHECK_EQ_U(m.slots[0].opaque[4], 0x55);
    CHECK_EQ_U(m.slots[1].opaque[0], 0xA0);
    float radius;
    memcpy(&radius, m.header + 27 * 4, 4);
    CHECK(radius == 2.5f);
    CHECK_EQ_U(m.vertex_count, 4);
    CHECK(m.positions[3 * 2] == 1.0f && m.positions[3 * 2 + 1] == 1.0f);
    CHECK_EQ_U(m.batch_count, 2);
    CHECK_EQ_U(m.batches[0].material, 3);
    CHECK_EQ_U(m.batches[0].opaque4, 0xAAAA);
    CHECK_EQ_U(m.batches[0].opaque14, 0xCCCC);
    CHECK_EQ_U(m.batches[1].index_start, 3);
    CHECK_EQ_U(m.batches[1].base_vertex, 1);
    CHECK_EQ_U(m.tri_count, 2);
    CHECK_EQ_U(m.tris[0].link[0], 1);
    CHECK_EQ_U(m.key_count, 2);
    CHECK(m.keys[1].position[2] == 2.0f);
    CHECK_EQ_U(m.keys[1].quat[3], 23170);
    CHECK_EQ_U(m.frame_count, 1);
    CHECK_STR(ue_msh_node_name(&m, 0), "root");
    CHECK(ue_msh_node_name(&m, 1) == NULL); /* len 0 → no name */
    ue_msh_free(&m);
    ue_diag_free(&d);
}

static void runtime_lookups_match_the_engine(void) {
    uint8_t img[4096];
    size_t size = build_model(img);
    ue_msh m;
    REQUIRE(ue_msh_parse(img, size, UE_MODE_STRICT, &m, NULL) == UE_OK);
    CHECK_EQ_U(ue_msh_slot_index(&m, 0, 0, 0, 2), 0);
    CHECK_EQ_U(ue_msh_slot_index(&m, 1, 1, 2, 0), 1);
    CHECK_EQ_U(ue_msh_slot_index(&m, 1, -1, 2, 1), 1);      /* lod −1 → current LOD 1 */
    CHECK_EQ_U(ue_msh_slot_index(&m, 1, -1, 2, 0), 0xFFFF); /* current LOD 0 has none */
    CHECK_EQ_U(ue_msh_slot_index(&m, 0, 0, 1, 0), 0xFFFF);
    CHECK_EQ_U(ue_msh_slot_index(&m, 5, 0, 0, 0), 0xFFFF);  /* no such node */
    CHECK(ue_msh_decode_normal(127) == 1.0f);
    CHECK(ue_msh_decode_normal(-128) == -1.0f);              /* −128/127 clamps */
    CHECK(ue_msh_decode_normal(-127) == -1.0f);
    CHECK(fabsf(ue_msh_decode_normal(64) - 64.0f / 127.0f) < 1e-7f);
    CHECK_EQ_U((uint8_t)ue_msh_encode_normal(-1.0f), (uint8_t)-127);
    CHECK_EQ_U((uint8_t)ue_msh_encode_normal(2.0f), 127);
    CHECK(ue_msh_decode_uv(1024) == 1.0f);
    CHECK(ue_msh_decode_uv(-512) == -0.5f);
    CHECK_EQ_U((uint16_t)ue_msh_encode_uv(100.0f), 32767);   /* clamps */
    CHECK_EQ_U((uint16_t)ue_msh_encode_uv(0.25f), 256);
    CHECK(ue_msh_decode_tri_normal(32767) == 1.0f);
    CHECK_EQ_U(ue_msh_tri_selector(0x24, 0), 0);
    CHECK_EQ_U(ue_msh_tri_selector(0x24, 1), 1);
    CHECK_EQ_U(ue_msh_tri_selector(0x24, 2), 2);
    CHECK_EQ_U(ue_msh_tri_selector(0x3F, 0), 0xFFFF);
    CHECK_EQ_U(ue_msh_tri_selector(0x37, 1), 1); /* bits 2-3 = 01 */
    CHECK_EQ_U(UE_MSH_LOAD_ORDER[5], 10);
    CHECK_EQ_U(UE_MSH_LOAD_ORDER[14], 20);
    ue_msh_stats st;
    ue_msh_stats_compute(&m, &st);
    CHECK_EQ_U(st.triangles, 2);
    CHECK_EQ_U(st.lods, 2);
    CHECK_EQ_U(st.groups, 2);
    CHECK_EQ_U(st.triangles_per_lod[0], 1);
    CHECK_EQ_U(st.triangles_per_lod[1], 1);
    ue_msh_free(&m);
}

typedef struct visit_log {
    uint32_t vertices[16];
    size_t n;
} visit_log;

static bool log_vertex(void *user, size_t node, size_t batch, size_t i, uint32_t vertex) {
    visit_log *l = user;
    (void)node, (void)batch, (void)i;
    if (l->n < 16) l->vertices[l->n++] = vertex;
    return true;
}

static void traversal_adds_base_vertex(void) {
    uint8_t img[4096];
    size_t size = build_model(img);
    ue_msh m;
    REQUIRE(ue_msh_parse(img, size, UE_MODE_STRICT, &m, NULL) == UE_OK);
    visit_log l = {{0}, 0};
    ue_msh_traverse(&m, 1, 2, log_vertex, &l);
    REQUIRE(l.n == 3);
    CHECK_EQ_U(l.vertices[0], 1); /* Res6[3] + base 1 */
    CHECK_EQ_U(l.vertices[2], 3);
    ue_msh_free(&m);
}

static void unchanged_model_round_trips(void) {
    uint8_t img[4096];
    size_t size = build_model(img);
    ue_msh m;
    REQUIRE(ue_msh_parse(img, size, UE_MODE_STRICT, &m, NULL) == UE_OK);
    size_t tables = 0;
    CHECK_EQ_U(ue_msh_verify_tables(&m, &tables, NULL), UE_OK);
    CHECK_EQ_U(tables, 11);
    ue_buf out = {0};
    REQUIRE(ue_msh_write(&m, &out, NULL) == UE_OK);
    CHECK_EQ_U(out.size, size);
    CHECK(out.size == size && memcmp(out.data, img, size) == 0);
    /* Marking every table edited re-encodes them all: still identical (canonical attrs). */
    for (int t = 0; t < UE_MSH_TYPE_LIMIT; t++) m.dirty[t] = m.entry_of[t] >= 0;
    ue_buf again = {0};
    REQUIRE(ue_msh_write(&m, &again, NULL) == UE_OK);
    CHECK(again.size == size && memcmp(again.data, img, size) == 0);
    ue_buf_free(&out);
    ue_buf_free(&again);
    ue_msh_free(&m);
}

static void expect_violation(int resource, size_t at, const uint8_t *bytes, size_t n,
                             const char *code, void (*patch)(res *rs)) {
    res rs[NRES];
    build_resources(rs);
    if (patch) patch(rs);
    else memcpy(rs[resource].data + at, bytes, n);
    uint8_t img[4096];
    size_t size = build_container(rs, NRES, img);
    ue_msh m;
    ue_diag d = {0};
    CHECK_EQ_U(ue_msh_parse(img, size, UE_MODE_STRICT, &m, &d), UE_ERR_INVALID);
    bool found = false;
    for (size_t i = 0; i < d.count; i++)
        if (!strcmp(d.items[i].code, code) && d.items[i].severity == UE_SEV_ERROR) found = true;
    if (!found) {
        fprintf(stderr, "  expected %s; got:\n", code);
        for (size_t i = 0; i < d.count; i++) fprintf(stderr, "    %s %s\n", d.items[i].code, d.items[i].message);
    }
    CHECK(found);
    ue_diag_free(&d);
    /* Tolerant mode reads the same bytes without failing (unless a required table is gone). */
    if (ue_msh_parse(img, size, UE_MODE_TOLERANT, &m, &d) == UE_OK) {
        CHECK(ue_diag_count(&d, UE_SEV_WARNING) > 0);
        ue_scene s;
        ue_scene_init(&s);
        CHECK_EQ_U(ue_msh_to_scene(&m, "t", NULL, &s, NULL), UE_OK);
        ue_scene_free(&s);
        ue_msh_free(&m);
    }
    ue_diag_free(&d);
}

static void drop_res6(res *rs) { rs[R6].type = 99; }
static void odd_res3(res *rs) { rs[R3].size -= 2; }
static void bad_res2_size(res *rs) { rs[R2].size -= 4; }
static void names_tail(res *rs) { rs[R10].data[rs[R10].size++] = 7; }
static void names_short(res *rs) { rs[R10].size = 6; }
static void bad_attr3(res *rs) { rs[R13].attr3 = 24; }
static void bad_attr1(res *rs) { rs[R1].attr1 = 3; }
static void fewer_normals(res *rs) { rs[R4].size = 12, rs[R4].attr1 = 3; }

static void each_violation_class_is_reported(void) {
    const uint8_t ff[2] = {0xFF, 0x7F};
    uint8_t b[4];
    expect_violation(0, 0, NULL, 0, "msh.res.missing", drop_res6);
    expect_violation(0, 0, NULL, 0, "msh.res.stride", odd_res3);
    expect_violation(0, 0, NULL, 0, "msh.res2.size", bad_res2_size);
    expect_violation(0, 0, NULL, 0, "msh.res10.tail", names_tail);
    expect_violation(0, 0, NULL, 0, "msh.res10.truncated", names_short);
    expect_violation(0, 0, NULL, 0, "msh.res.attr3", bad_attr3);
    expect_violation(0, 0, NULL, 0, "msh.res.attr1", bad_attr1);
    expect_violation(0, 0, NULL, 0, "msh.res4.count", fewer_normals);
    /* batch 1 index_start = 5: [5, 8) past 6 indices */
    ue_store_u32le(b, 5);
    expect_violation(R13, 20 + 10, b, 4, "msh.batch.indices", NULL);
    /* batch 1 base_vertex = 2: 2 + 2 = 4 ≥ 4 vertices */
    ue_store_u32le(b, 2);
    expect_violation(R13, 20 + 16, b, 4, "msh.batch.vertex", NULL);
    /* slot 0 batch_count = 3 > 2 batches */
    ue_store_u16le(b, 3);
    expect_violation(R2, 140 + 6, b, 2, "msh.slot.batches", NULL);
    /* slot 1 tri_count = 2: [1, 3) past 2 descriptors */
    ue_store_u16le(b, 2);
    expect_violation(R2, 140 + 68 + 2, b, 2, "msh.slot.tris", NULL);
    /* slot 0 sphere radius = NaN */
    const uint8_t nan[4] = {0, 0, 0xC0, 0x7F};
    expect_violation(R2, 140 + 44, nan, 4, "msh.slot.bounds", NULL);
    /* tri 1 link0 = 9 */
    ue_store_u16le(b, 9);
    expect_violation(R7, 16 + 2, b, 2, "msh.tri.link", NULL);
    /* node 0 slot[0] = 7 ≥ 2 slots */
    ue_store_u16le(b, 7);
    expect_violation(R1, 8, b, 2, "msh.node.slot", NULL);
    /* node 1 parent = 1 (itself) */
    ue_store_u16le(b, 1);
    expect_violation(R1, 38 + 2, b, 2, "msh.node.parent", NULL);
    /* node 1 fallback key = 0x7FFF */
    expect_violation(R1, 38 + 6, ff, 2, "msh.node.fallback_key", NULL);
    /* node 0 frame map start = 0: Res19 holds no words */
    ue_store_u16le(b, 0);
    expect_violation(R1, 4, b, 2, "msh.node.frame_map", NULL);
}

static void nonfinite_vertex_drops_only_its_batch(void) {
    res rs[NRES];
    build_resources(rs);
    const uint8_t nan[4] = {0, 0, 0xC0, 0x7F};
    memcpy(rs[R3].data, nan, 4); /* vertex 0 = batch 0 only; batch 1 uses vertices 1..3 */
    uint8_t img[4096];
    size_t size = build_container(rs, NRES, img);
    ue_msh m;
    ue_diag d = {0};
    CHECK_EQ_U(ue_msh_parse(img, size, UE_MODE_STRICT, &m, &d), UE_ERR_INVALID);
    REQUIRE(d.count >= 1);
    CHECK_STR(d.items[0].code, "msh.res3.nonfinite");
    CHECK_STR(d.items[0].path, "msh/res3/vertex[0]");
    ue_diag_free(&d);
    REQUIRE(ue_msh_parse(img, size, UE_MODE_TOLERANT, &m, &d) == UE_OK);
    for (int lod = 0; lod < 2; lod++) {
        ue_scene s;
        ue_scene_init(&s);
        ue_msh_export_options o = {lod, -1, 0};
        REQUIRE(ue_msh_to_scene(&m, "t", &o, &s, &d) == UE_OK);
        CHECK_EQ_U(ue_scene_validate(&s, NULL), UE_OK);
        size_t prims = 0;
        for (size_t k = 0; k < s.mesh_count; k++) prims += s.meshes[k].primitive_count;
        CHECK_EQ_U(prims, lod == 0 ? 0 : 1); /* LOD 0's only batch is dropped, LOD 1's kept */
        ue_scene_free(&s);
    }
    ue_msh_free(&m);
    ue_diag_free(&d);
}

static void diagnostics_name_the_record(void) {
    res rs[NRES];
    build_resources(rs);
    ue_store_u32le(rs[R13].data + 20 + 16, 2); /* batch 1 base vertex */
    uint8_t img[4096];
    size_t size = build_container(rs, NRES, img);
    ue_msh m;
    ue_diag d = {0};
    CHECK_EQ_U(ue_msh_parse(img, size, UE_MODE_STRICT, &m, &d), UE_ERR_INVALID);
    REQUIRE(d.count >= 1);
    CHECK_STR(d.items[0].path, "msh/res13/batch[1]");
    /* Res13 is the sixth resource; its payload offset + 20 + 16 is the field. */
    uint32_t res13_off = ue_load_u32le(img + ue_load_u32le(img + 12) - 64 * NRES + 64 * R13 + 56);
    CHECK_EQ_U(d.items[0].offset, res13_off + 36);
    ue_diag_free(&d);
}

static void truncation_and_garbage_never_crash(void) {
    uint8_t img[4096];
    size_t size = build_model(img);
    uint32_t x = 1;
    for (size_t cut = 0; cut <= size; cut += 3) {
        ue_msh m;
        if (ue_msh_parse(img, cut, UE_MODE_TOLERANT, &m, NULL) == UE_OK) ue_msh_free(&m);
    }
    for (int round = 0; round < 300; round++) {
        uint8_t copy[4096];
        memcpy(copy, img, size);
        for (int k = 0; k < 4; k++) {
            x = x * 1103515245u + 12345u;
            copy[16 + (x >> 8) % (size - 16)] = (uint8_t)(x >> 24);
        }
        ue_msh m;
        for (int mode = 0; mode < 2; mode++)
            if (ue_msh_parse(copy, size, (ue_mode)mode, &m, NULL) == UE_OK) {
                ue_scene s;
                ue_scene_init(&s);
                ue_msh_to_scene(&m, "t", NULL, &s, NULL);
                ue_scene_free(&s);
                ue_buf out = {0};
                ue_msh_write(&m, &out, NULL);
                ue_buf_free(&out);
                ue_msh_free(&m);
            }
    }
}

static void edits_update_dependent_tables(void) {
    uint8_t img[4096];
    size_t size = build_model(img);
    ue_msh m;
    REQUIRE(ue_msh_parse(img, size, UE_MODE_STRICT, &m, NULL) == UE_OK);
    /* Move every vertex by (+2, 0, +1): slot bounds follow. */
    const float ident[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, shift[3] = {2, 0, 1};
    REQUIRE(ue_msh_transform_vertices(&m, 0, 4, ident, shift) == UE_OK);
    CHECK(m.slots[0].aabb_min[0] == 2.0f && m.slots[0].aabb_max[0] == 3.0f);
    CHECK(m.slots[0].aabb_min[2] == 1.0f);
    CHECK(m.slots[1].aabb_min[0] == 2.0f && m.slots[1].aabb_max[1] == 1.0f); /* vertices 1..3 */
    CHECK(fabsf(m.slots[0].sphere_radius - sqrtf(0.5f)) < 1e-6f);
    CHECK(ue_msh_rename_node(&m, 1, "arm") == UE_OK);
    ue_buf out = {0};
    REQUIRE(ue_msh_write(&m, &out, NULL) == UE_OK);
    ue_msh m2;
    ue_diag d = {0};
    REQUIRE(ue_msh_parse(out.data, out.size, UE_MODE_STRICT, &m2, &d) == UE_OK);
    CHECK_STR(ue_msh_node_name(&m2, 1), "arm");
    CHECK(m2.positions[0] == 2.0f && m2.positions[2] == 1.0f);
    CHECK_EQ_U(m2.slots[0].opaque[4], 0x55); /* unknown fields survive edits */
    CHECK_EQ_U(m2.batches[0].opaque6, 0xBBBB);
    /* The Res10 entry's attrs were recomputed: (node count, 0, 0). */
    const ue_nres_entry *names = &m2.container.entries[m2.entry_of[UE_MSH_NAMES]];
    CHECK_EQ_U(names->attr1, 2);
    CHECK_EQ_U(names->size, 4 + 5 + 4 + 4);
    ue_buf_free(&out);
    ue_msh_free(&m2);

    /* Replace slot 1's geometry with a quad: new vertices, indices, one batch, two tris. */
    const float quad[12] = {0, 0, 0, 0, 0, 1, 0, 1, 1, 0, 1, 0};
    const uint16_t qi[6] = {0, 1, 2, 0, 2, 3};
    ue_msh_geometry g = {quad, NULL, NULL, NULL, 4, qi, 6, 9};
    REQUIRE(ue_msh_replace_slot_geometry(&m, 1, &g, &d) == UE_OK);
    CHECK_EQ_U(m.vertex_count, 8);
    CHECK_EQ_U(m.batch_count, 3);
    CHECK_EQ_U(m.slots[1].batch_start, 2);
    CHECK_EQ_U(m.slots[1].tri_start, 2);
    CHECK_EQ_U(m.slots[1].tri_count, 2);
    CHECK_EQ_U(m.batches[2].base_vertex, 4);
    CHECK_EQ_U(m.batches[2].material, 9);
    CHECK(m.slots[1].aabb_max[2] == 1.0f && m.slots[1].aabb_min[0] == 0.0f);
    /* Face normal of (0,0,0),(0,0,1),(0,1,1): (0,0,1)×(0,1,1) = (−1, 0, 0). */
    CHECK_EQ_U((uint16_t)m.tris[2].normal[0], (uint16_t)-32767);
    REQUIRE(ue_msh_write(&m, &out, NULL) == UE_OK);
    REQUIRE(ue_msh_parse(out.data, out.size, UE_MODE_STRICT, &m2, &d) == UE_OK);
    ue_msh_stats st;
    ue_msh_stats_compute(&m2, &st);
    CHECK_EQ_U(st.triangles_per_lod[1], 2);
    CHECK_EQ_U(m2.normal_count, 8);
    CHECK_EQ_U(m2.uv_count, 8);
    ue_buf_free(&out);
    ue_msh_free(&m2);
    ue_msh_free(&m);
    ue_diag_free(&d);
}

/* ue_msh_scale on the animated sample robot: every node's pose at any time is s × the
 * original's translation with the same rotation (so world geometry scales by s), every vertex
 * scales, the recomputed bounds are s × the original's recomputed bounds, 1 is a no-op and
 * anything not positive or not finite is refused with the model unchanged. */
static void whole_model_scale(void) {
    ue_buf robot = {0};
    REQUIRE(ue_sample_robot(&robot) == UE_OK);
    ue_msh orig, m;
    REQUIRE(ue_msh_parse(robot.data, robot.size, UE_MODE_STRICT, &orig, NULL) == UE_OK);
    REQUIRE(ue_msh_parse(robot.data, robot.size, UE_MODE_STRICT, &m, NULL) == UE_OK);
    REQUIRE(ue_msh_is_animated(&orig));
    const float bad[] = {0.0f, -2.0f, NAN, INFINITY};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) CHECK(ue_msh_scale(&m, bad[i]) == UE_ERR_USAGE);
    CHECK(ue_msh_scale(&m, 1e30f) == UE_ERR_LIMIT);
    CHECK(ue_msh_scale(&m, 1.0f) == UE_OK);
    ue_buf out = {0};
    REQUIRE(ue_msh_write(&m, &out, NULL) == UE_OK);
    CHECK(out.size == robot.size && memcmp(out.data, robot.data, robot.size) == 0); /* all no-ops */
    ue_buf_free(&out);

    const float s = 2.5f;
    REQUIRE(ue_msh_scale(&m, s) == UE_OK);
    for (size_t i = 0; i < 3 * m.vertex_count; i++) CHECK(fabsf(m.positions[i] - s * orig.positions[i]) <= 1e-6f);
    CHECK_MEM(m.normals, orig.normals, 4 * m.normal_count);
    const float times[] = {0.0f, 3.0f, 3.5f, 8.0f}; /* keys, between keys, the last frame */
    ue_msh_pose a[16], b[16];
    REQUIRE(m.node_count <= 16);
    for (size_t t = 0; t < sizeof times / sizeof times[0]; t++) {
        ue_msh_evaluate(&orig, times[t], a);
        ue_msh_evaluate(&m, times[t], b);
        for (size_t n = 0; n < m.node_count; n++)
            for (int c = 0; c < 4; c++) {
                if (c < 3) CHECK(fabsf(b[n].translation[c] - s * a[n].translation[c]) <= 1e-5f);
                CHECK(b[n].rotation[c] == a[n].rotation[c]);
            }
    }
    /* Bounds: a uniform scale about the origin scales every box corner, centre and radius. */
    ue_msh_recompute_bounds(&orig);
    float want[UE_MSH_HEADER_SIZE / 4], got[UE_MSH_HEADER_SIZE / 4];
    memcpy(want, orig.header, sizeof want);
    memcpy(got, m.header, sizeof got);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) CHECK(fabsf(got[i] - s * want[i]) <= 1e-5f * (1 + fabsf(got[i])));
    for (size_t k = 0; k < m.slot_count; k++) {
        CHECK(fabsf(m.slots[k].sphere_radius - s * orig.slots[k].sphere_radius) <= 1e-5f);
        for (int c = 0; c < 3; c++)
            CHECK(fabsf(m.slots[k].aabb_min[c] - s * orig.slots[k].aabb_min[c]) <= 1e-5f &&
                  fabsf(m.slots[k].aabb_max[c] - s * orig.slots[k].aabb_max[c]) <= 1e-5f &&
                  fabsf(m.slots[k].sphere_center[c] - s * orig.slots[k].sphere_center[c]) <= 1e-5f);
    }
    /* The written model parses strictly and keeps the scaled keys. */
    REQUIRE(ue_msh_write(&m, &out, NULL) == UE_OK);
    ue_msh back;
    REQUIRE(ue_msh_parse(out.data, out.size, UE_MODE_STRICT, &back, NULL) == UE_OK);
    CHECK_EQ_U(back.key_count, orig.key_count);
    for (size_t k = 0; k < back.key_count; k++) {
        CHECK(back.keys[k].position[0] == m.keys[k].position[0] && back.keys[k].time == orig.keys[k].time);
        CHECK_MEM(back.keys[k].quat, orig.keys[k].quat, sizeof back.keys[k].quat);
    }
    ue_msh_free(&back);
    ue_buf_free(&out);
    ue_msh_free(&m);
    ue_msh_free(&orig);
    ue_buf_free(&robot);
}

static void scene_counts_match_the_tables(void) {
    ue_buf robot = {0};
    REQUIRE(ue_sample_robot(&robot) == UE_OK);
    ue_msh m;
    REQUIRE(ue_msh_parse(robot.data, robot.size, UE_MODE_STRICT, &m, NULL) == UE_OK);
    for (int lod = 0; lod < 2; lod++)
        for (int group = -1; group < 2; group++) {
            /* Independent count straight from the tables; every group: one child node per
             * exported slot (the robot's groups share no slot). */
            size_t want_tris = 0, want_prims = 0, want_children = 0;
            for (size_t n = 0; n < m.node_count; n++)
                for (int g = 0; g < 5; g++) {
                    if (group >= 0 && g != group) continue;
                    uint16_t si = m.nodes[n].slot[lod * 5 + g];
                    if (si == 0xFFFF) continue;
                    want_children += group < 0;
                    for (size_t b = m.slots[si].batch_start; b < (size_t)m.slots[si].batch_start + m.slots[si].batch_count; b++) {
                        want_tris += m.batches[b].index_count / 3;
                        want_prims++;
                    }
                }
            ue_scene s;
            ue_scene_init(&s);
            ue_msh_export_options o = {lod, group, 0};
            REQUIRE(ue_msh_to_scene(&m, "robot", &o, &s, NULL) == UE_OK);
            CHECK_EQ_U(s.node_count, m.node_count + 1 + want_children); /* + the root */
            size_t tris = 0, prims = 0;
            for (size_t k = 0; k < s.mesh_count; k++)
                for (size_t p = 0; p < s.meshes[k].primitive_count; p++) {
                    tris += s.meshes[k].primitives[p].index_count / 3;
                    prims++;
                }
            CHECK_EQ_U(tris, want_tris);
            CHECK_EQ_U(prims, want_prims);
            ue_scene_free(&s);
        }
    ue_scene s;
    ue_scene_init(&s);
    REQUIRE(ue_msh_to_scene(&m, "robot", NULL, &s, NULL) == UE_OK);
    CHECK_STR(s.nodes[1].name, "body");
    CHECK_STR(s.nodes[3].name, "node_2"); /* the unnamed antenna */
    CHECK_EQ_U(s.nodes[3].parent, 2);
    /* Engine (x, y, z) → glTF (x, z, y): the body stands 1.0 up. */
    CHECK(s.nodes[1].translation[1] == 1.0f && s.nodes[1].translation[2] == 0.0f);
    /* The head turns 90° about engine Z = glTF Y; the reflection negates the angle. */
    CHECK(fabsf(s.nodes[2].rotation[1] + 0.70710678f) < 1e-4f);
    CHECK(fabsf(s.nodes[2].rotation[3] - 0.70710678f) < 1e-4f);
    /* Every triangle faces the way its vertex normals point (counter-clockwise in glTF). */
    size_t facing = 0, total = 0;
    for (size_t k = 0; k < s.mesh_count; k++)
        for (size_t p = 0; p < s.meshes[k].primitive_count; p++) {
            const ue_scene_primitive *pr = &s.meshes[k].primitives[p];
            REQUIRE(pr->normals && pr->colors[0] && pr->uv[0]);
            for (size_t t = 0; t < pr->index_count; t += 3) {
                const float *a = &pr->positions[3 * pr->indices[t]], *b = &pr->positions[3 * pr->indices[t + 1]],
                            *c = &pr->positions[3 * pr->indices[t + 2]], *n = &pr->normals[3 * pr->indices[t]];
                float u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
                float x[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
                facing += x[0] * n[0] + x[1] * n[1] + x[2] * n[2] > 0;
                total++;
            }
        }
    CHECK_EQ_U(facing, total);
    CHECK_EQ_U(total, 72); /* LOD 0, group 0 (the default, what the engine draws): 6 boxes × 12 */
    /* Res18 colours read as B, G, R, A: the body's stored (0x40, 0x40, 0xC0) is red-ish. */
    const ue_scene_primitive *body = &s.meshes[s.nodes[1].mesh].primitives[0];
    CHECK(fabsf(body->colors[0][0] - 0xC0 / 255.0f) < 1e-6f && fabsf(body->colors[0][2] - 0x40 / 255.0f) < 1e-6f);
    ue_scene_free(&s);
    ue_msh_free(&m);
    ue_buf_free(&robot);
}

/* ---- the three MSH fixes of issue 10 ------------------------------------------------------- */

static const ue_diag_item *find_code(const ue_diag *d, const char *code) {
    for (size_t i = 0; i < d->count; i++)
        if (!strcmp(d->items[i].code, code)) return &d->items[i];
    return NULL;
}

/* Node 0 ("root") also uses slot 0 in group 1 and slot 1 in group 3 (words 8 + 2·g of its
 * record); node 1 keeps slot 1 at [lod 1][group 2]. */
static void share_slots(res *rs) {
    rs[R1].data[10] = 0, rs[R1].data[11] = 0;
    rs[R1].data[14] = 1, rs[R1].data[15] = 0;
}

static size_t scene_triangles(const ue_scene *s) {
    size_t tris = 0;
    for (size_t k = 0; k < s->mesh_count; k++)
        for (size_t p = 0; p < s->meshes[k].primitive_count; p++) tris += s->meshes[k].primitives[p].index_count / 3;
    return tris;
}

static void groups_default_one_and_all(void) {
    res rs[NRES];
    build_resources(rs);
    share_slots(rs);
    uint8_t img[4096];
    size_t size = build_container(rs, NRES, img);
    ue_msh m;
    REQUIRE(ue_msh_parse(img, size, UE_MODE_STRICT, &m, NULL) == UE_OK);
    /* Default: LOD 0, group 0 — slot 0 on node 0 itself, one triangle. */
    ue_scene s;
    ue_scene_init(&s);
    REQUIRE(ue_msh_to_scene(&m, "t", NULL, &s, NULL) == UE_OK);
    CHECK_EQ_U(s.node_count, 3);
    CHECK_EQ_U(s.mesh_count, 1);
    CHECK_EQ_U(s.nodes[1].mesh, 0);
    CHECK_STR(s.meshes[0].name, "root_lod0");
    CHECK_EQ_U(s.meshes[0].primitives[0].source.index, 0); /* batch 0 */
    ue_scene_free(&s);
    /* Group 3: slot 1, whose batch is batch 1. */
    ue_msh_export_options g3 = {0, 3, 0};
    ue_scene_init(&s);
    REQUIRE(ue_msh_to_scene(&m, "t", &g3, &s, NULL) == UE_OK);
    CHECK_EQ_U(s.mesh_count, 1);
    CHECK_EQ_U(s.meshes[0].primitives[0].source.index, 1);
    ue_scene_free(&s);
    /* Every group: groups 0 and 3 as children of node 0; group 1 repeats slot 0 and is left out. */
    ue_msh_export_options all = {0, UE_MSH_GROUP_ALL, 0};
    ue_scene_init(&s);
    REQUIRE(ue_msh_to_scene(&m, "t", &all, &s, NULL) == UE_OK);
    CHECK_EQ_U(s.node_count, 5); /* root, node 0, its two group children, node 1 */
    CHECK_EQ_U(s.mesh_count, 2);
    CHECK_EQ_U(scene_triangles(&s), 2);
    CHECK(s.nodes[1].mesh == -1);
    CHECK_STR(s.nodes[2].name, "root_group0");
    CHECK_STR(s.nodes[3].name, "root_group3");
    CHECK_EQ_U(s.nodes[2].parent, 1);
    CHECK_EQ_U(s.nodes[3].parent, 1);
    CHECK_STR(s.meshes[s.nodes[3].mesh].name, "root_lod0_group3");
    /* The child's source is node 0's slot word for [lod 0][group 3]: Res1 + 8 + 2·3. */
    CHECK_EQ_U(s.nodes[3].source.offset, m.container.entries[m.entry_of[UE_MSH_NODES]].data_offset + 14);
    CHECK(s.nodes[2].translation[0] == 0 && s.nodes[2].rotation[3] == 1);
    ue_scene_free(&s);
    ue_msh_free(&m);
}

static void empty_group_names_what_exists(void) {
    res rs[NRES];
    build_resources(rs);
    share_slots(rs);
    uint8_t img[4096];
    size_t size = build_container(rs, NRES, img);
    ue_msh m;
    REQUIRE(ue_msh_parse(img, size, UE_MODE_STRICT, &m, NULL) == UE_OK);
    ue_scene s;
    ue_msh_export_options g2 = {0, 2, 0};
    ue_scene_init(&s);
    REQUIRE(ue_msh_to_scene(&m, "t", &g2, &s, NULL) == UE_OK);
    CHECK_EQ_U(s.mesh_count, 0);
    ue_diag d = {0};
    CHECK_EQ_U(ue_msh_refuse_empty_selection(&m, &g2, &d), UE_ERR_INVALID);
    const ue_diag_item *e = find_code(&d, "msh.export.empty");
    REQUIRE(e != NULL);
    CHECK_STR(e->message, "LOD 0 group 2 has no geometry; the model has LOD 0 (groups 0, 1, 3), LOD 1 (group 2)");
    ue_diag_free(&d);
    ue_scene_free(&s);
    ue_msh_free(&m);
}

static void partial_triangle_strict_error_tolerant_drop(void) {
    res rs[NRES];
    build_resources(rs);
    rs[R13].data[8] = 4; /* batch 0: 4 indices, [0, 4) of 6 */
    uint8_t img[4096];
    size_t size = build_container(rs, NRES, img);
    ue_msh m;
    ue_diag d = {0};
    CHECK_EQ_U(ue_msh_parse(img, size, UE_MODE_STRICT, &m, &d), UE_ERR_INVALID);
    const ue_diag_item *e = find_code(&d, "msh.batch.partial");
    REQUIRE(e != NULL);
    CHECK_EQ_U(e->severity, UE_SEV_ERROR);
    CHECK_STR(e->path, "msh/res13/batch[0]");
    ue_diag_free(&d);
    REQUIRE(ue_msh_parse(img, size, UE_MODE_TOLERANT, &m, &d) == UE_OK);
    e = find_code(&d, "msh.batch.partial");
    REQUIRE(e != NULL);
    CHECK_EQ_U(e->severity, UE_SEV_WARNING);
    /* index_count sits at +8 of the 20-byte record. */
    CHECK_EQ_U(e->offset, m.container.entries[m.entry_of[UE_MSH_BATCHES]].data_offset + 8);
    ue_scene s;
    ue_scene_init(&s);
    REQUIRE(ue_msh_to_scene(&m, "t", NULL, &s, NULL) == UE_OK);
    REQUIRE(s.mesh_count == 1);
    CHECK_EQ_U(s.meshes[0].primitives[0].index_count, 3); /* the fourth index dropped */
    ue_scene_free(&s);
    ue_msh_free(&m);
    ue_diag_free(&d);
}

static void retype_res13(res *rs) { rs[R13].type = 14; }

static void model_missing_a_resource_is_a_model(void) {
    res rs[NRES];
    build_resources(rs);
    retype_res13(rs);
    uint8_t img[4096];
    size_t size = build_container(rs, NRES, img);
    /* Only MSH resource types, four core ones: still a model, whatever its name. */
    CHECK(ue_msh_probe(img, size));
    CHECK(ue_msh_probe_named("x.bin", img, size));
    ue_msh m;
    ue_diag d = {0};
    CHECK_EQ_U(ue_msh_parse(img, size, UE_MODE_TOLERANT, &m, &d), UE_ERR_INVALID);
    const ue_diag_item *e = find_code(&d, "msh.res.missing");
    REQUIRE(e != NULL);
    CHECK_STR(e->path, "msh/res13");
    CHECK(find_code(&d, "msh.slot.batches") == NULL); /* no echo of the same fact per slot */
    ue_diag_free(&d);
    /* Types past the MSH range: not recognised by content, but by a .msh name (any case). */
    rs[R13].type = 0x52414557; /* 'WEAR' */
    size = build_container(rs, NRES, img);
    CHECK(!ue_msh_probe(img, size));
    CHECK(ue_msh_probe_named("d/objects.rlb:ROBOT.MSH", img, size));
    CHECK(!ue_msh_probe_named("robot.lib", img, size));
    CHECK(!ue_msh_probe_named("robot.msh", (const uint8_t *)"NRe", 3));
    /* One core type among others is any NRes, not a model (the sample objects.rlb has one). */
    res lone[2];
    memset(lone, 0, sizeof lone);
    lone[0].type = 1;
    lone[1].type = 0x3054414D; /* 'MAT0' */
    lone[1].size = 4;
    size = build_container(lone, 2, img);
    CHECK(!ue_msh_probe(img, size));
    lone[1].type = 5;
    size = build_container(lone, 2, img);
    CHECK(!ue_msh_probe(img, size)); /* types 1 and 5: one core type only */
}

int main(void) {
    RUN(decodes_every_table);
    RUN(runtime_lookups_match_the_engine);
    RUN(traversal_adds_base_vertex);
    RUN(unchanged_model_round_trips);
    RUN(each_violation_class_is_reported);
    RUN(nonfinite_vertex_drops_only_its_batch);
    RUN(diagnostics_name_the_record);
    RUN(truncation_and_garbage_never_crash);
    RUN(edits_update_dependent_tables);
    RUN(whole_model_scale);
    RUN(scene_counts_match_the_tables);
    RUN(groups_default_one_and_all);
    RUN(empty_group_names_what_exists);
    RUN(partial_triangle_strict_error_tolerant_drop);
    RUN(model_missing_a_resource_is_a_model);
    return TEST_SUMMARY();
}
