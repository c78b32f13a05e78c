/* Tests of MSH animation (docs/formats/msh-anim.md): the engine's frame rounding, key selection and SLERP
 * against poses computed by hand, the writer and checks of docs/formats/msh-anim.md#canonical-layout, and the exported glTF curves
 * sampled here and compared with the engine at every integer and half-integer frame. */
#include <math.h>

#include "test.h"
#include "common/json_doc.h"
#include "unearth/gltf.h"
#include "unearth/msh.h"
#include "samples/samples.h"
#include "common/bytes.h"

/* ---- hand-built key tracks ------------------------------------------------------------------ */

static ue_msh_key key(float time, float x, float y, float z, int16_t qx, int16_t qy, int16_t qz, int16_t qw) {
    ue_msh_key k = {{x, y, z}, time, {qx, qy, qz, qw}};
    return k;
}

/* A model held in memory only: one node per track, its keys and frame map given directly (the
 * map need not be canonical: the evaluation must follow whatever the data says). */
typedef struct mem_model {
    ue_msh m;
    ue_msh_node nodes[2];
    ue_msh_key keys[8];
    uint16_t map[16];
} mem_model;

static void mem_init(mem_model *mm, size_t nodes, size_t keys, size_t words, uint32_t frames) {
    memset(mm->nodes, 0, sizeof mm->nodes);
    ue_msh_init(&mm->m);
    mm->m.nodes = mm->nodes;
    mm->m.node_count = nodes;
    mm->m.keys = mm->keys;
    mm->m.key_count = keys;
    mm->m.frame_map = mm->map;
    mm->m.frame_map_count = words;
    mm->m.frame_count = frames;
    for (size_t n = 0; n < 2; n++) mm->nodes[n].parent = UE_MSH_NONE;
}

static bool near(float a, float b) { return fabsf(a - b) <= 1e-4f; }

static bool pose_is(const ue_msh_pose *p, float x, float y, float z, float qx, float qy, float qz, float qw) {
    bool ok = near(p->translation[0], x) && near(p->translation[1], y) && near(p->translation[2], z) &&
              near(p->rotation[0], qx) && near(p->rotation[1], qy) && near(p->rotation[2], qz) &&
              near(p->rotation[3], qw);
    if (!ok)
        fprintf(stderr, "  pose (%g %g %g | %g %g %g %g), expected (%g %g %g | %g %g %g %g)\n",
                (double)p->translation[0], (double)p->translation[1], (double)p->translation[2],
                (double)p->rotation[0], (double)p->rotation[1], (double)p->rotation[2], (double)p->rotation[3],
                (double)x, (double)y, (double)z, (double)qx, (double)qy, (double)qz, (double)qw);
    return ok;
}

static ue_msh_pose sample(const ue_msh *m, size_t node, float t) {
    ue_msh_pose p;
    CHECK_EQ_U(ue_msh_sample_node(m, node, t, &p), UE_OK);
    return p;
}

/* ---- the engine's evaluation ------------------------------------------------------------- */

static void frame_is_round_half_even_of_t_minus_half(void) {
    /* t − 0.5 rounded to nearest, ties to even: odd integers k give k − 1, even ones k. */
    static const struct {
        float t;
        int32_t frame;
    } cases[] = {{0, 0},  {0.25f, 0}, {0.5f, 0}, {0.75f, 0}, {1, 0},     {1.25f, 1}, {1.5f, 1},
                 {2, 2},  {2.5f, 2},  {3, 2},    {3.5f, 3},  {4, 4},     {5, 4},     {6, 6},
                 {7, 6},  {-0.25f, -1}, {-0.5f, -1}, {-1, -2}, {-2, -2}, {100.75f, 100}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int32_t f = ue_msh_anim_frame(cases[i].t);
        if (f != cases[i].frame) fprintf(stderr, "  t = %g\n", (double)cases[i].t);
        CHECK_EQ_U((uint32_t)f, (uint32_t)cases[i].frame);
    }
    CHECK_EQ_U((uint32_t)ue_msh_anim_frame(NAN), (uint32_t)INT32_MIN);
    CHECK_EQ_U((uint32_t)ue_msh_anim_frame(3e9f), (uint32_t)INT32_MIN);
}

static void slerp_takes_the_short_way_and_goes_linear_when_close(void) {
    const float id[4] = {0, 0, 0, 1}, minus_quarter[4] = {0, 0, -0.70710678f, -0.70710678f};
    float out[4];
    /* −q is the same 90° turn about Z; halfway is 45°: (0, 0, sin 22.5°, cos 22.5°). */
    ue_msh_anim_slerp(id, minus_quarter, 0.5f, out);
    CHECK(near(out[0], 0) && near(out[1], 0) && near(out[2], 0.38268343f) && near(out[3], 0.92387953f));
    /* 1 − dot ≤ 1e-5: plain weights 1 − a and a, no renormalisation. */
    const float close[4] = {0, 0, 0.001f, 1};
    ue_msh_anim_slerp(id, close, 0.5f, out);
    CHECK(out[2] == 0.0005f && out[3] == 1.0f);
}

/* Keys at 0, 3 and 4 (a 90° then a 180° turn about Z), map [0 0 0 1 2] as docs/formats/msh-anim.md#canonical-layout writes it. */
static void canonical_track(mem_model *mm) {
    mem_init(mm, 1, 3, 5, 5);
    mm->keys[0] = key(0, 0, 0, 0, 0, 0, 0, 32767);
    mm->keys[1] = key(3, 3, 0, 6, 0, 0, 23170, 23170);
    mm->keys[2] = key(4, 4, 4, 4, 0, 0, 32767, 0);
    const uint16_t map[5] = {0, 0, 0, 1, 2};
    memcpy(mm->map, map, sizeof map);
    mm->nodes[0].anim_map_start = 0;
    mm->nodes[0].fallback_key = 2;
}

static void poses_match_hand_computation(void) {
    mem_model mm;
    canonical_track(&mm);
    const ue_msh *m = &mm.m;
    const float h = 23170.0f / 32767.0f; /* the stored 90° key, as decoded */
    ue_msh_pose p = sample(m, 0, 0);
    CHECK(pose_is(&p, 0, 0, 0, 0, 0, 0, 1));
    /* t = 0.5 → frame 0: a = 1/6 of the way to key 1, the turn 15° of 90° → angle 15°. */
    p = sample(m, 0, 0.5f);
    CHECK(pose_is(&p, 0.5f, 0, 1, 0, 0, 0.13052619f, 0.99144486f));
    /* t = 1 (odd) → frame 0: a = 1/3, 30° → q = (0, 0, sin 15°, cos 15°). */
    p = sample(m, 0, 1);
    CHECK(pose_is(&p, 1, 0, 2, 0, 0, 0.25881905f, 0.96592583f));
    /* t = 2 (even) → frame 2, map 0: a = 2/3, 60°. */
    p = sample(m, 0, 2);
    CHECK(pose_is(&p, 2, 0, 4, 0, 0, 0.5f, 0.86602540f));
    p = sample(m, 0, 2.5f);
    CHECK(pose_is(&p, 2.5f, 0, 5, 0, 0, 0.60876143f, 0.79335334f));
    /* t = 3 (odd) → frame 2 → key 0, then t == time(key 1): key 1 exactly, as stored. */
    p = sample(m, 0, 3);
    CHECK(p.translation[0] == 3 && p.translation[2] == 6 && p.rotation[2] == h && p.rotation[3] == h);
    /* t = 3.5 → frame 3 → keys 1 and 2 halfway: 135° → (0, 0, sin 67.5°, cos 67.5°). */
    p = sample(m, 0, 3.5f);
    CHECK(pose_is(&p, 3.5f, 2, 5, 0, 0, 0.92387953f, 0.38268343f));
    /* t = 4 → frame 4 → the map holds the fallback: key 2 exactly; later and before 0 too. */
    const float fallback_times[] = {4, 4.5f, 5, 7.25f, -0.25f, -3};
    for (size_t i = 0; i < sizeof fallback_times / sizeof fallback_times[0]; i++) {
        p = sample(m, 0, fallback_times[i]);
        CHECK(pose_is(&p, 4, 4, 4, 0, 0, 1, 0));
    }
}

/* Two maps where rounding t − 0.5 down or to the odd neighbour would give another pose. */
static void rounding_edges_pick_the_engine_frame(void) {
    mem_model mm;
    mem_init(&mm, 2, 4, 6, 3);
    mm.keys[0] = key(0, 0, 0, 0, 0, 0, 0, 32767);
    mm.keys[1] = key(2, 2, 0, 0, 0, 0, 0, 32767);
    mm.keys[2] = key(0, 0, 0, 0, 0, 0, 0, 32767);
    mm.keys[3] = key(4, 4, 0, 0, 0, 0, 0, 32767);
    const uint16_t map[6] = {0, 1, 1, 2, 2, 3};
    memcpy(mm.map, map, sizeof map);
    mm.nodes[0].anim_map_start = 0, mm.nodes[0].fallback_key = 1;
    mm.nodes[1].anim_map_start = 3, mm.nodes[1].fallback_key = 3;
    /* Node 0, t = 1 (odd): frame 0 interpolates (x = 1); frame 1 would give the fallback (2). */
    ue_msh_pose p = sample(&mm.m, 0, 1);
    CHECK(pose_is(&p, 1, 0, 0, 0, 0, 0, 1));
    p = sample(&mm.m, 0, 1.5f); /* frame 1: fallback */
    CHECK(pose_is(&p, 2, 0, 0, 0, 0, 0, 1));
    /* Node 1, t = 2 (even): frame 2 is the fallback (4); frame 1 would interpolate (2). */
    p = sample(&mm.m, 1, 2);
    CHECK(pose_is(&p, 4, 0, 0, 0, 0, 0, 1));
    p = sample(&mm.m, 1, 1.75f); /* frame 1: a = 1.75 / 4 */
    CHECK(pose_is(&p, 1.75f, 0, 0, 0, 0, 0, 1));
    /* A map word past Res19 or a missing fallback key: fallback pose, or an error. */
    mm.m.frame_map_count = 4;
    p = sample(&mm.m, 1, 1.75f);
    CHECK(pose_is(&p, 4, 0, 0, 0, 0, 0, 1));
    mm.nodes[1].fallback_key = 9;
    ue_msh_pose bad;
    CHECK_EQ_U(ue_msh_sample_node(&mm.m, 1, 1, &bad), UE_ERR_INVALID);
    CHECK(pose_is(&bad, 0, 0, 0, 0, 0, 0, 1));
}

/* ---- the writer and the checks of docs/formats/msh-anim.md#canonical-layout ----------------- */

static void build_two_node_model(ue_buf *out) {
    static const uint16_t parents[2] = {UE_MSH_NONE, 0};
    ue_msh m;
    REQUIRE(ue_msh_new(&m, 2, parents, NULL) == UE_OK);
    const ue_msh_key track[3] = {key(0, 0, 0, 0, 0, 0, 0, 32767), key(3, 3, 0, 6, 0, 0, 23170, 23170),
                                 key(4, 4, 4, 4, 0, 0, 32767, 0)};
    CHECK_EQ_U(ue_msh_set_track(&m, 1, track, 3, NULL), UE_OK);
    /* By docs/formats/msh-anim.md#canonical-layout: node 0 owns key 0, node 1 keys 1..3; frame count 5; one block of 5 words. */
    CHECK_EQ_U(m.key_count, 4);
    CHECK_EQ_U(m.nodes[0].fallback_key, 0);
    CHECK_EQ_U(m.nodes[0].anim_map_start, UE_MSH_NONE);
    CHECK_EQ_U(m.nodes[1].fallback_key, 3);
    CHECK_EQ_U(m.nodes[1].anim_map_start, 0);
    CHECK_EQ_U(m.frame_count, 5);
    REQUIRE(m.frame_map_count == 5);
    const uint16_t want[5] = {1, 1, 1, 2, 3};
    CHECK_MEM(m.frame_map, want, sizeof want);
    CHECK_EQ_U(ue_msh_write(&m, out, NULL), UE_OK);
    ue_msh_free(&m);
}

static void writer_lays_out_tracks_and_round_trips(void) {
    ue_buf img = {0};
    build_two_node_model(&img);
    ue_msh m;
    ue_diag d = {0};
    REQUIRE(ue_msh_parse(img.data, img.size, UE_MODE_STRICT, &m, &d) == UE_OK);
    CHECK_EQ_U(ue_diag_count(&d, UE_SEV_WARNING), 0);
    CHECK(ue_msh_is_animated(&m));
    CHECK_EQ_U(m.container.entries[m.entry_of[UE_MSH_FRAME_MAP]].attr2, 5);
    CHECK_EQ_U(m.container.entries[m.entry_of[UE_MSH_KEYS]].attr1, 4);
    ue_msh_pose p = sample(&m, 1, 2);
    CHECK(pose_is(&p, 2, 0, 4, 0, 0, 0.5f, 0.86602540f));
    ue_buf again = {0};
    CHECK_EQ_U(ue_msh_write(&m, &again, NULL), UE_OK);
    CHECK(again.size == img.size && memcmp(again.data, img.data, img.size) == 0);
    /* An edit: node 0 gets a track too; the result parses strictly, node 1 plays as before. */
    const ue_msh_key track0[2] = {key(0, 0, 0, 0, 0, 0, 0, 32767), key(7, 0, 0, 7, 0, 0, 0, 32767)};
    CHECK_EQ_U(ue_msh_set_track(&m, 0, track0, 2, NULL), UE_OK);
    ue_buf edited = {0};
    CHECK_EQ_U(ue_msh_write(&m, &edited, NULL), UE_OK);
    ue_msh e;
    ue_diag_free(&d);
    CHECK_EQ_U(ue_msh_parse(edited.data, edited.size, UE_MODE_STRICT, &e, &d), UE_OK);
    CHECK_EQ_U(e.frame_count, 8);
    CHECK_EQ_U(e.frame_map_count, 16);
    p = sample(&e, 0, 3.5f);
    CHECK(pose_is(&p, 0, 0, 3.5f, 0, 0, 0, 1));
    p = sample(&e, 1, 3.5f);
    CHECK(pose_is(&p, 3.5f, 2, 5, 0, 0, 0.92387953f, 0.38268343f));
    ue_msh_free(&e);
    ue_msh_free(&m);
    ue_buf_free(&edited);
    ue_buf_free(&again);
    ue_buf_free(&img);
    ue_diag_free(&d);
}

static void writer_refuses_bad_tracks(void) {
    ue_msh m;
    REQUIRE(ue_msh_new(&m, 1, NULL, NULL) == UE_OK);
    ue_diag d = {0};
    const ue_msh_key late[2] = {key(1, 0, 0, 0, 0, 0, 0, 32767), key(2, 0, 0, 0, 0, 0, 0, 32767)};
    const ue_msh_key back[2] = {key(0, 0, 0, 0, 0, 0, 0, 32767), key(0, 0, 0, 0, 0, 0, 0, 32767)};
    const ue_msh_key half[2] = {key(0, 0, 0, 0, 0, 0, 0, 32767), key(1.5f, 0, 0, 0, 0, 0, 0, 32767)};
    CHECK_EQ_U(ue_msh_set_track(&m, 0, late, 2, &d), UE_ERR_INVALID);
    CHECK_EQ_U(ue_msh_set_track(&m, 0, back, 2, &d), UE_ERR_INVALID);
    CHECK_EQ_U(ue_msh_set_track(&m, 0, half, 2, &d), UE_ERR_INVALID);
    CHECK_EQ_U(ue_msh_set_track(&m, 0, late, 0, &d), UE_ERR_INVALID);
    CHECK_EQ_U(d.count, 4);
    CHECK_STR(d.items[0].code, "msh.anim.track");
    ue_diag_free(&d);
    ue_msh_free(&m);
}

/* Patches `n` bytes at `at` inside resource `type` (or the directory when type < 0) of the
 * two-node model and expects `code` at `offset` with `path`: an error when strict, a warning
 * when tolerant. */
static void expect_anim_violation(int type, size_t at, const void *bytes, size_t n, const char *code,
                                  const char *path, int64_t offset_delta) {
    ue_buf img = {0};
    build_two_node_model(&img);
    ue_msh m;
    REQUIRE(ue_msh_parse(img.data, img.size, UE_MODE_STRICT, &m, NULL) == UE_OK);
    uint64_t base = type >= 0 ? m.container.entries[m.entry_of[type]].data_offset
                              : m.container.dir_offset + (uint64_t)m.entry_of[UE_MSH_FRAME_MAP] * 64;
    ue_msh_free(&m);
    memcpy(img.data + base + at, bytes, n);
    ue_diag d = {0};
    CHECK_EQ_U(ue_msh_parse(img.data, img.size, UE_MODE_STRICT, &m, &d), UE_ERR_INVALID);
    const ue_diag_item *it = diag_find(&d, code, path);
    if (!it)
        for (size_t i = 0; i < d.count; i++) fprintf(stderr, "  got %s %s: %s\n", d.items[i].code, d.items[i].path, d.items[i].message);
    CHECK(it && it->severity == UE_SEV_ERROR && it->offset == (uint64_t)((int64_t)(base + at) + offset_delta));
    ue_diag_free(&d);
    REQUIRE(ue_msh_parse(img.data, img.size, UE_MODE_TOLERANT, &m, &d) == UE_OK);
    it = diag_find(&d, code, path);
    CHECK(it && it->severity == UE_SEV_WARNING);
    /* Whatever the map says, the tolerant model still converts. */
    ue_scene s;
    ue_scene_init(&s);
    CHECK_EQ_U(ue_msh_to_scene(&m, "t", NULL, &s, NULL), UE_OK);
    ue_scene_free(&s);
    ue_msh_free(&m);
    ue_diag_free(&d);
    ue_buf_free(&img);
}

static void each_animation_violation_is_reported(void) {
    uint8_t b[4];
    /* Res19 word 2 = 3: past key 1, which frame 2 of track keys[1..3] must hold. */
    ue_store_u16le(b, 3);
    expect_anim_violation(UE_MSH_FRAME_MAP, 4, b, 2, "msh.anim.map", "msh/res19/word[2]", 0);
    /* Res19 attr2 (frame count) = 0 */
    ue_store_u32le(b, 0);
    expect_anim_violation(-1, 8, b, 4, "msh.anim.frame_count", "msh/res19/attr2", 0);
    /* Res19 attr2 = 9: the longest track ends at frame 4 (and the block then passes Res19). */
    ue_store_u32le(b, 9);
    expect_anim_violation(-1, 8, b, 4, "msh.anim.frame_count", "msh/res19/attr2", 0);
    /* key 2 (node 1's second) at time 5: key 3's 4 no longer increases */
    float t = 5;
    memcpy(b, &t, 4);
    expect_anim_violation(UE_MSH_KEYS, 24 * 2 + 12, b, 4, "msh.anim.time", "msh/res8/key[3]/time", 24);
    /* key 0's x = +inf */
    const uint8_t inf[4] = {0, 0, 0x80, 0x7F};
    expect_anim_violation(UE_MSH_KEYS, 0, inf, 4, "msh.anim.position", "msh/res8/key[0]/position", 0);
    /* node 1 map start = 1 instead of 0 (and its block then passes Res19) */
    ue_store_u16le(b, 1);
    expect_anim_violation(UE_MSH_NODES, 38 + 4, b, 2, "msh.anim.map_start", "msh/res1/node[1]/anim_map_start", 0);
    /* node 0 fallback key = 1: node 0 then owns two keys without a map */
    ue_store_u16le(b, 1);
    expect_anim_violation(UE_MSH_NODES, 6, b, 2, "msh.anim.track", "msh/res1/node[0]/fallback_key", 0);
}

/* ---- the glTF clip, sampled as a viewer would ---------------------------------------------- */

typedef struct glb {
    ue_jdoc doc;
    const ue_jv *json;
    const uint8_t *bin;
    size_t bin_size;
} glb;

static bool glb_open(const ue_buf *b, glb *g) {
    if (b->size < 28 || memcmp(b->data, "glTF", 4)) return false;
    uint32_t json_len = ue_load_u32le(b->data + 12);
    ue_jdoc_error err;
    g->json = ue_jdoc_parse((const char *)b->data + 20, json_len, &g->doc, &err) == UE_OK ? &g->doc.root : NULL;
    g->bin = b->data + 20 + json_len + 8;
    g->bin_size = ue_load_u32le(b->data + 20 + json_len);
    return g->json != NULL;
}

/* The floats of accessor i (FLOAT, tightly packed as the exporter writes animation data). */
static const float *accessor_floats(const glb *g, size_t i, size_t *count) {
    const ue_jv *acc = ue_jv_at(ue_jv_get(g->json, "accessors"), i);
    const ue_jv *view = ue_jv_at(ue_jv_get(g->json, "bufferViews"),
                                  (size_t)ue_jv_integer(ue_jv_get(acc, "bufferView")));
    size_t off = (size_t)ue_jv_integer(ue_jv_get(view, "byteOffset")) +
                 (size_t)ue_jv_integer(ue_jv_get(acc, "byteOffset"));
    *count = (size_t)ue_jv_integer(ue_jv_get(acc, "count"));
    return (const float *)(const void *)(g->bin + off);
}

/* glTF LINEAR sampling (glTF 2.0 specification, section 3.11): lerp, or slerp for rotations; clamped at both ends. */
static void gltf_sample(const float *times, size_t n, const float *values, int comps, double t, double *out) {
    size_t i = 0;
    while (i + 1 < n && times[i + 1] <= t) i++;
    if (t <= times[0] || i + 1 >= n) {
        size_t k = t <= times[0] ? 0 : n - 1;
        for (int c = 0; c < comps; c++) out[c] = values[k * (size_t)comps + (size_t)c];
        return;
    }
    double a = (t - times[i]) / (times[i + 1] - (double)times[i]);
    const float *v0 = values + i * (size_t)comps, *v1 = v0 + comps;
    if (comps == 3) {
        for (int c = 0; c < 3; c++) out[c] = v0[c] + (v1[c] - (double)v0[c]) * a;
        return;
    }
    double d = 0, s = 1;
    for (int c = 0; c < 4; c++) d += (double)v0[c] * v1[c];
    if (d < 0) d = -d, s = -1;
    double w0 = 1 - a, w1 = a;
    if (d < 0.9999999) {
        double th = acos(d);
        w0 = sin((1 - a) * th) / sin(th);
        w1 = sin(a * th) / sin(th);
    }
    for (int c = 0; c < 4; c++) out[c] = w0 * v0[c] + s * w1 * v1[c];
}

/* The engine pose converted by hand to glTF axes: (x, y, z) → (x, z, y), q → (−x, −z, −y, w). */
static void engine_in_gltf(const ue_msh_pose *p, double t[3], double q[4]) {
    double len = 0;
    for (int c = 0; c < 4; c++) len += (double)p->rotation[c] * p->rotation[c];
    len = sqrt(len);
    t[0] = p->translation[0], t[1] = p->translation[2], t[2] = p->translation[1];
    q[0] = -p->rotation[0] / len, q[1] = -p->rotation[2] / len, q[2] = -p->rotation[1] / len;
    q[3] = p->rotation[3] / len;
}

static int model_node_named(const ue_msh *m, const char *name) {
    for (size_t n = 0; n < m->node_count; n++) {
        const char *nm = ue_msh_node_name(m, n);
        char fallback[16];
        snprintf(fallback, sizeof fallback, "node_%zu", n);
        if (!strcmp(nm ? nm : fallback, name)) return (int)n;
    }
    return -1;
}

/* Exports `m` as GLB and checks every channel against the engine at each half frame from 0 to
 * the frame count; returns the number of channels (-1 when there is no animation). */
static int check_clip_against_engine(const ue_msh *m, float fps) {
    ue_scene s;
    ue_scene_init(&s);
    ue_msh_export_options o = {0, -1, fps};
    ue_buf out = {0};
    glb g = {0};
    int channels = -1;
    if (ue_msh_to_scene(m, "model", &o, &s, NULL) != UE_OK || ue_gltf_export(&s, NULL, &out, NULL, NULL) != UE_OK ||
        !glb_open(&out, &g)) {
        bool exported = false;
        CHECK(exported);
        goto done;
    }
    const ue_jv *anim = ue_jv_at(ue_jv_get(g.json, "animations"), 0);
    if (!anim) goto done;
    const ue_jv *clip = ue_jv_get(ue_jv_get(anim, "extras"), "unearth_clip");
    CHECK(ue_jv_number(ue_jv_get(clip, "fps")) == fps || ue_jv_integer(ue_jv_get(clip, "fps")) == (int64_t)fps);
    const ue_jv *chans = ue_jv_get(anim, "channels"), *samplers = ue_jv_get(anim, "samplers");
    channels = (int)ue_jv_items(chans);
    for (size_t c = 0; c < ue_jv_items(chans); c++) {
        const ue_jv *ch = ue_jv_at(chans, c), *target = ue_jv_get(ch, "target");
        const ue_jv *smp = ue_jv_at(samplers, (size_t)ue_jv_integer(ue_jv_get(ch, "sampler")));
        const ue_jv *node = ue_jv_at(ue_jv_get(g.json, "nodes"), (size_t)ue_jv_integer(ue_jv_get(target, "node")));
        int mn = model_node_named(m, ue_jv_string(ue_jv_get(node, "name")));
        bool rotation = !strcmp(ue_jv_string(ue_jv_get(target, "path")), "rotation");
        size_t nt, nv;
        const float *times = accessor_floats(&g, (size_t)ue_jv_integer(ue_jv_get(smp, "input")), &nt);
        const float *values = accessor_floats(&g, (size_t)ue_jv_integer(ue_jv_get(smp, "output")), &nv);
        if (mn < 0 || nt != nv || nt == 0) {
            bool channel_complete = false;
            CHECK(channel_complete);
            break;
        }
        for (uint32_t h = 0; h <= 2 * m->frame_count; h++) {
            ue_msh_pose p = sample(m, (size_t)mn, (float)h * 0.5f);
            double et[3], eq[4], gv[4];
            engine_in_gltf(&p, et, eq);
            gltf_sample(times, nt, values, rotation ? 4 : 3, h * 0.5 / fps, gv);
            double worst = 0, flip = 0;
            for (int k = 0; k < (rotation ? 4 : 3); k++) {
                worst = fmax(worst, fabs(gv[k] - (rotation ? eq[k] : et[k])));
                flip = fmax(flip, fabs(gv[k] + (rotation ? eq[k] : et[k])));
            }
            if (rotation) worst = fmin(worst, flip); /* q and −q are one rotation */
            if (worst > 1e-4) fprintf(stderr, "  node %d %s frame %.1f: off by %g\n", mn, rotation ? "rotation" : "translation", h * 0.5, worst);
            CHECK(worst <= 1e-4);
        }
    }
done:
    ue_jdoc_free(&g.doc);
    ue_buf_free(&out);
    ue_scene_free(&s);
    return channels;
}

static void robot_clip_equals_engine_at_every_half_frame(void) {
    ue_buf img = {0};
    REQUIRE(ue_sample_robot(&img) == UE_OK);
    ue_msh m;
    REQUIRE(ue_msh_parse(img.data, img.size, UE_MODE_STRICT, &m, NULL) == UE_OK);
    CHECK_EQ_U(m.frame_count, 9);
    /* head (rotation), arm_left (rotation), arm_right (translation and rotation) */
    CHECK_EQ_U(check_clip_against_engine(&m, 30), 4);
    CHECK_EQ_U(check_clip_against_engine(&m, 24), 4);
    ue_msh_free(&m);
    ue_buf_free(&img);
}

static void noncanonical_maps_are_baked_to_the_engine(void) {
    static const uint16_t parents[2] = {UE_MSH_NONE, 0};
    ue_msh m;
    REQUIRE(ue_msh_new(&m, 2, parents, NULL) == UE_OK);
    const ue_msh_key track[3] = {key(0, 0, 0, 0, 0, 0, 0, 32767), key(2, 2, 0, 0, 0, 0, 23170, 23170),
                                 key(5, 0, 3, 0, 32767, 0, 0, 0)};
    REQUIRE(ue_msh_set_track(&m, 1, track, 3, NULL) == UE_OK);
    /* Frames 1 and 3 now jump to the fallback, frame 4 back to key 1: the source keys alone do
     * not give this curve, so the export samples the engine. */
    m.frame_map[1] = 3;
    m.frame_map[3] = 3;
    m.frame_map[4] = 1; /* keys 1 and 2 (frames 0, 2) at t = 4: extrapolated, a = 2 */
    CHECK_EQ_U(check_clip_against_engine(&m, 30), 2);
    ue_msh_free(&m);
}

/* Every node pointed at one 100-word block: the engine can play it, but exporting it would cost
 * nodes × frames; the export stops at twice the size of Res19 + Res8 with a warning. */
static void overlapping_map_blocks_stay_within_budget(void) {
    ue_msh m;
    REQUIRE(ue_msh_new(&m, 40, NULL, NULL) == UE_OK);
    const ue_msh_key track[2] = {key(0, 0, 0, 0, 0, 0, 0, 32767), key(99, 9, 0, 0, 0, 0, 0, 32767)};
    REQUIRE(ue_msh_set_track(&m, 0, track, 2, NULL) == UE_OK);
    REQUIRE(m.frame_count == 100 && m.frame_map_count == 100 && m.key_count == 41);
    for (size_t n = 1; n < 40; n++) m.nodes[n].anim_map_start = 0;
    ue_scene s;
    ue_scene_init(&s);
    ue_diag d = {0};
    CHECK_EQ_U(ue_msh_to_scene(&m, "overlap", NULL, &s, &d), UE_OK);
    /* budget 2 × (100 words + 41 keys) + 64 = 346 frames: nodes 0, 1 and 2 (300) fit, node 3 not */
    REQUIRE(s.animation_count == 1);
    CHECK_EQ_U(s.animations[0].channel_count, 3);
    const ue_diag_item *it = diag_find(&d, "msh.anim.limit", "msh/res19");
    CHECK(it && it->severity == UE_SEV_WARNING && strstr(it->message, "from 3 on"));
    ue_diag_free(&d);
    ue_scene_free(&s);
    ue_msh_free(&m);
}

static void static_models_export_no_clip(void) {
    static const uint16_t parents[2] = {UE_MSH_NONE, 0};
    ue_msh m;
    REQUIRE(ue_msh_new(&m, 2, parents, NULL) == UE_OK);
    CHECK(!ue_msh_is_animated(&m));
    CHECK_EQ_U((uint32_t)check_clip_against_engine(&m, 30), (uint32_t)-1);
    /* A track whose keys all hold one pose moves nothing: no channel, no clip. */
    const ue_msh_key still[2] = {key(0, 1, 2, 3, 0, 0, 0, 32767), key(4, 1, 2, 3, 0, 0, 0, 32767)};
    REQUIRE(ue_msh_set_track(&m, 1, still, 2, NULL) == UE_OK);
    CHECK(ue_msh_is_animated(&m));
    CHECK_EQ_U((uint32_t)check_clip_against_engine(&m, 30), (uint32_t)-1);
    ue_msh_free(&m);
}

static void clip_records_fps_and_frame_range(void) {
    ue_buf img = {0};
    REQUIRE(ue_sample_robot(&img) == UE_OK);
    ue_msh m;
    REQUIRE(ue_msh_parse(img.data, img.size, UE_MODE_STRICT, &m, NULL) == UE_OK);
    for (int k = 0; k < 2; k++) {
        ue_scene s;
        ue_scene_init(&s);
        ue_msh_export_options o = {0, -1, k ? 12.0f : 0.0f};
        REQUIRE(ue_msh_to_scene(&m, "robot", &o, &s, NULL) == UE_OK);
        REQUIRE(s.animation_count == 1);
        const ue_scene_animation *an = &s.animations[0];
        CHECK(an->fps == (k ? 12.0f : 30.0f));
        CHECK(an->start_frame == 0 && an->end_frame == 8);
        /* the head's keys at frames 0, 3, 6 → seconds */
        const ue_anim_channel *head = &an->channels[0];
        CHECK_EQ_U(head->key_count, 3);
        CHECK(head->target == UE_TARGET_ROTATION && head->times[1] == 3.0f / an->fps && head->times[2] == 6.0f / an->fps);
        ue_scene_free(&s);
    }
    ue_msh_free(&m);
    ue_buf_free(&img);
}

int main(void) {
    RUN(frame_is_round_half_even_of_t_minus_half);
    RUN(slerp_takes_the_short_way_and_goes_linear_when_close);
    RUN(poses_match_hand_computation);
    RUN(rounding_edges_pick_the_engine_frame);
    RUN(writer_lays_out_tracks_and_round_trips);
    RUN(writer_refuses_bad_tracks);
    RUN(each_animation_violation_is_reported);
    RUN(robot_clip_equals_engine_at_every_half_frame);
    RUN(noncanonical_maps_are_baked_to_the_engine);
    RUN(overlapping_map_blocks_stay_within_budget);
    RUN(static_models_export_no_clip);
    RUN(clip_records_fps_and_frame_range);
    return TEST_SUMMARY();
}
