/* Tests of edit mode's folding (msh_import_edit_fold.c): the robot's export quantised as
 * gltf-transform `quantize` does it (integer attributes; the dequantising offset and scale on
 * the node, or on a new unnamed child holding the mesh) imports back byte-identical; a move
 * made before quantising comes back; a real node scale, or a carrier the base cannot hold, is
 * still refused by name. */
#include <math.h>
#include <stdlib.h>

#include "test.h"
#include "msh_edit_fixture.h"
#include "parkan/parkan_axes.h"
#include "samples/samples.h"
#include "unearth/msh_import.h"

static bool setup(fixture *f, int lod, int group) {
    memset(f, 0, sizeof *f);
    ue_msh_export_options o = {lod, group, 0};
    if (ue_sample_robot(&f->original) != UE_OK ||
        ue_msh_parse(f->original.data, f->original.size, UE_MODE_STRICT, &f->m, NULL) != UE_OK)
        return false;
    ue_scene_init(&f->s);
    return ue_msh_to_scene(&f->m, "robot.msh", &o, &f->s, NULL) == UE_OK;
}

static int32_t node_named(const ue_scene *s, const char *name) {
    for (size_t i = 0; i < s->node_count; i++)
        if (!strcmp(s->nodes[i].name, name)) return (int32_t)i;
    return -1;
}

/* ---- gltf-transform's quantize, re-done from its source (functions/src/quantize.ts) --------- */

/* quantizeAttribute: `bits` with the sign, stored in a 16-bit (8-bit) integer with the high bits
 * replicated into the low ones, and read back as glTF's normalized integers are. */
static float requantise(float v, int bits, bool is_signed, int storage_bits) {
    int quant = bits - (is_signed ? 1 : 0), store = storage_bits - (is_signed ? 1 : 0);
    double lim = is_signed ? -1.0 : 0.0, c = v < lim ? lim : v > 1.0f ? 1.0 : v;
    long q = lround(fabs(c) * ((1 << quant) - 1));
    long stored = (q << (store - quant)) | (q >> (2 * quant - store));
    double max = (1 << store) - 1, out = (c < 0 ? -1.0 : 1.0) * (double)stored / max;
    return (float)(out < -1.0 ? -1.0 : out);
}

static void requantise_array(float *a, size_t n, int bits, bool is_signed, int storage_bits) {
    for (size_t i = 0; a && i < n; i++) a[i] = requantise(a[i], bits, is_signed, storage_bits);
}

/* The mesh's offset (box centre) and scale (largest half side), as getNodeTransform. */
static void quantisation_volume(const ue_scene_mesh *me, float offset[3], float *scale) {
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t p = 0; p < me->primitive_count; p++)
        for (size_t i = 0; i < 3 * (size_t)me->primitives[p].vertex_count; i++) {
            lo[i % 3] = fminf(lo[i % 3], me->primitives[p].positions[i]);
            hi[i % 3] = fmaxf(hi[i % 3], me->primitives[p].positions[i]);
        }
    *scale = 0;
    for (int k = 0; k < 3; k++) offset[k] = lo[k] + (hi[k] - lo[k]) / 2, *scale = fmaxf(*scale, (hi[k] - lo[k]) / 2);
}

/* Positions into the volume (14 bits), normals (10), UVs in [0, 1] (12), colours (8). */
static void quantise_mesh(ue_scene_mesh *me, const float offset[3], float scale) {
    for (size_t p = 0; p < me->primitive_count; p++) {
        ue_scene_primitive *pr = &me->primitives[p];
        size_t n = pr->vertex_count;
        for (size_t i = 0; i < 3 * n; i++) pr->positions[i] = (pr->positions[i] - offset[i % 3]) / scale;
        requantise_array(pr->positions, 3 * n, 14, true, 16);
        requantise_array(pr->normals, 3 * n, 10, true, 16);
        bool unit = pr->uv[0] != NULL;
        for (size_t i = 0; unit && i < 2 * n; i++) unit = pr->uv[0][i] >= 0 && pr->uv[0][i] <= 1;
        if (unit) requantise_array(pr->uv[0], 2 * n, 12, false, 16);
        requantise_array(pr->colors[0], 4 * n, 8, false, 8);
        pr->positions_quantized = true;
    }
}

/* v rotated by unit quaternion q (x, y, z, w). */
static void rotate(const float q[4], const float v[3], float out[3]) {
    float t[3] = {2 * (q[1] * v[2] - q[2] * v[1]), 2 * (q[2] * v[0] - q[0] * v[2]), 2 * (q[0] * v[1] - q[1] * v[0])};
    out[0] = v[0] + q[3] * t[0] + q[1] * t[2] - q[2] * t[1];
    out[1] = v[1] + q[3] * t[1] + q[2] * t[0] - q[0] * t[2];
    out[2] = v[2] + q[3] * t[2] + q[0] * t[1] - q[1] * t[0];
}

static bool animated(const ue_scene *s, size_t i) {
    for (size_t a = 0; a < s->animation_count; a++)
        for (size_t c = 0; c < s->animations[a].channel_count; c++)
            if (s->animations[a].channels[c].node == (int32_t)i) return true;
    return false;
}

static bool has_children(const ue_scene *s, size_t i) {
    for (size_t k = 0; k < s->node_count; k++)
        if (s->nodes[k].parent == (int32_t)i) return true;
    return false;
}

/* transformMeshParents: node · T(offset) · S(scale) on the node itself when it is a leaf and
 * not animated (translation t + R·offset, scale s), else on a new unnamed child that takes the
 * mesh. Returns how many carriers it added. */
static size_t quantise_scene(ue_scene *s) {
    size_t n = s->node_count, carriers = 0;
    for (size_t i = 0; i < n; i++) {
        int32_t mesh = s->nodes[i].mesh;
        if (mesh < 0) continue;
        float offset[3], scale;
        quantisation_volume(&s->meshes[mesh], offset, &scale);
        quantise_mesh(&s->meshes[mesh], offset, scale);
        if (has_children(s, i) || animated(s, i)) {
            int32_t c = ue_scene_add_node(s, "", (int32_t)i);
            if (c < 0) return 0;
            s->nodes[i].mesh = -1;
            s->nodes[c].mesh = mesh;
            memcpy(s->nodes[c].translation, offset, sizeof offset);
            for (int k = 0; k < 3; k++) s->nodes[c].scale[k] = scale;
            carriers++;
            continue;
        }
        float moved[3];
        rotate(s->nodes[i].rotation, offset, moved);
        for (int k = 0; k < 3; k++) s->nodes[i].translation[k] += moved[k], s->nodes[i].scale[k] = scale;
    }
    return carriers;
}

/* ---- the cases ------------------------------------------------------------------------------ */

/* Every selection: body, head and the arms (children or a clip) get a carrier each, node_2 (a
 * rotated leaf) and legs their own offset and scale; --lod all's holders all carry their own. */
static void test_quantised_export_is_byte_identical(void) {
    static const int selections[][3] = {{0, 0, 4}, {0, UE_MSH_GROUP_ALL, 0}, {UE_MSH_LOD_ALL, 0, 0}};
    for (size_t k = 0; k < sizeof selections / sizeof selections[0]; k++) {
        fixture f;
        REQUIRE(setup(&f, selections[k][0], selections[k][1]));
        CHECK_EQ_U(quantise_scene(&f.s), selections[k][2]);
        CHECK_EQ_U(apply_and_write(&f), UE_OK);
        CHECK(identical(&f));
        teardown(&f);
    }
}

/* The body moved before quantising (it has a carrier): every body vertex comes back moved by
 * the offset, within one 14-bit step of the body's quantisation volume (the rounding is half a
 * step), every other vertex unchanged. */
static void test_move_before_quantising_comes_back(void) {
    fixture f;
    REQUIRE(setup(&f, 0, 0));
    const float delta[3] = {0.25f, 0.5f, -0.125f};
    int32_t body = node_named(&f.s, "body");
    REQUIRE(body >= 0 && f.s.nodes[body].mesh >= 0);
    const ue_scene_mesh *me = &f.s.meshes[f.s.nodes[body].mesh];
    for (size_t p = 0; p < me->primitive_count; p++)
        for (size_t i = 0; i < 3 * (size_t)me->primitives[p].vertex_count; i++)
            me->primitives[p].positions[i] += delta[i % 3];
    float offset[3], scale;
    quantisation_volume(me, offset, &scale);
    float *before = malloc(3 * f.m.vertex_count * sizeof *before);
    REQUIRE(before != NULL);
    memcpy(before, f.m.positions, 3 * f.m.vertex_count * sizeof *before);
    quantise_scene(&f.s);
    CHECK_EQ_U(ue_msh_apply_scene(&f.m, &f.s, NULL, &f.d), UE_OK);
    uint8_t *mine = calloc(f.m.vertex_count, 1);
    REQUIRE(mine != NULL);
    const ue_msh_slot *sl = &f.m.slots[0]; /* body's LOD 0 group 0 */
    for (size_t b = sl->batch_start; b < (size_t)sl->batch_start + sl->batch_count; b++)
        for (size_t i = 0; i < f.m.batches[b].index_count; i++)
            mine[f.m.batches[b].base_vertex + f.m.indices[f.m.batches[b].index_start + i]] = 1;
    float engine[3], tol = scale / 8191.0f;
    ue_parkan_vec_from_gltf(delta, engine);
    size_t moved = 0, wrong = 0;
    for (size_t v = 0; v < f.m.vertex_count; v++) {
        for (int k = 0; k < 3; k++) {
            float want = before[3 * v + (size_t)k] + (mine[v] ? engine[k] : 0.0f);
            float got = f.m.positions[3 * v + (size_t)k];
            wrong += mine[v] ? !(fabsf(got - want) <= tol) : got != want;
        }
        moved += mine[v];
    }
    CHECK(moved > 0);
    CHECK_EQ_U(wrong, 0);
    free(mine);
    free(before);
    teardown(&f);
}

/* A scale on a leaf whose positions are floats is the user's: refused, as without a client. */
static void test_real_scale_is_refused(void) {
    fixture f;
    REQUIRE(setup(&f, 0, 0));
    int32_t legs = node_named(&f.s, "legs");
    REQUIRE(legs >= 0);
    for (int k = 0; k < 3; k++) f.s.nodes[legs].scale[k] = 2.0f;
    CHECK_EQ_U(apply_and_write(&f), UE_ERR_INVALID);
    char path[32];
    snprintf(path, sizeof path, "/nodes/%d/scale", legs);
    CHECK(diag_has(&f.d, "msh.import.scale", path));
    teardown(&f);
}

/* A quantised leaf whose transform also turned, or mirrors, is no fold: its scale is refused. */
static void test_quantised_leaf_turned_or_mirrored_is_refused(void) {
    for (int mirror = 0; mirror < 2; mirror++) {
        fixture f;
        REQUIRE(setup(&f, 0, 0));
        quantise_scene(&f.s);
        int32_t legs = node_named(&f.s, "legs");
        REQUIRE(legs >= 0);
        ue_scene_node *nd = &f.s.nodes[legs];
        if (mirror) nd->scale[0] = -nd->scale[0];
        else nd->rotation[1] = sinf(0.25f), nd->rotation[3] = cosf(0.25f);
        CHECK_EQ_U(apply_and_write(&f), UE_ERR_INVALID);
        char path[32];
        snprintf(path, sizeof path, "/nodes/%d/scale", legs);
        CHECK(diag_has(&f.d, "msh.import.scale", path));
        teardown(&f);
    }
}

/* A quantised mesh put on a new child of the model's root (which has no slot in the base) is
 * a node the glTF adds, refused by name. */
static void test_carrier_without_a_base_mesh_is_refused(void) {
    fixture f;
    REQUIRE(setup(&f, 0, 0));
    int32_t legs = node_named(&f.s, "legs"), root = node_named(&f.s, "robot.msh");
    REQUIRE(legs >= 0 && root >= 0);
    ue_scene_mesh *me = &f.s.meshes[f.s.nodes[legs].mesh];
    float offset[3], scale;
    quantisation_volume(me, offset, &scale);
    quantise_mesh(me, offset, scale);
    int32_t c = ue_scene_add_node(&f.s, "", root);
    REQUIRE(c >= 0);
    f.s.nodes[c].mesh = f.s.nodes[legs].mesh;
    for (int k = 0; k < 3; k++) f.s.nodes[c].scale[k] = scale;
    CHECK_EQ_U(apply_and_write(&f), UE_ERR_INVALID);
    CHECK(diag_has(&f.d, "import.base.tree", "/nodes"));
    bool named = false;
    char want[48];
    snprintf(want, sizeof want, "/nodes/%d (\"\") is not in the base model", c);
    for (size_t i = 0; i < f.d.count; i++) named = named || strstr(f.d.items[i].message, want);
    CHECK(named);
    teardown(&f);
}

int main(void) {
    RUN(test_quantised_export_is_byte_identical);
    RUN(test_move_before_quantising_comes_back);
    RUN(test_real_scale_is_refused);
    RUN(test_quantised_leaf_turned_or_mirrored_is_refused);
    RUN(test_carrier_without_a_base_mesh_is_refused);
    return TEST_SUMMARY();
}
