/* unearth tests — an HSD model built in memory (the 3-joint chain of test_hsd_pose.c with an
 * envelope and a rigid PObj) as scene IR and glTF: node TRS, skin order, inverse binds, and
 * bind-pose vertices skinned by the glTF rule equal to the game's (docs/formats/hsd-model.md#skinning), worked out by hand. */
#include <math.h>

#include "hsd/hsd_to_scene.h"
#include "test.h"
#include "unearth/gltf.h"

#define PI_2 1.57079632679489661923f

static ue_hsd_joint joints[3];
static ue_hsd_dobj dobjs[2];
static ue_hsd_pobj pobjs[2];
static ue_hsd_vtx_attr attrs[3];
static ue_hsd_envelope envelopes[2];
static ue_hsd_weight weights[3];
static ue_hsd_model_set set;
static ue_hsd_model model;

/* Display lists: GX_TRIANGLES (0x90), 3 vertices, padded to 32 bytes with NOPs. PObj 0 (envelope)
 * has PNMTXIDX (direct u8) + POS (direct f32 XYZ); PObj 1 (rigid) has POS only. */
static uint8_t dl_env[64], dl_rigid[64];

static size_t put_f32(uint8_t *p, size_t at, float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    p[at] = (uint8_t)(u >> 24), p[at + 1] = (uint8_t)(u >> 16), p[at + 2] = (uint8_t)(u >> 8), p[at + 3] = (uint8_t)u;
    return at + 4;
}

static size_t put_vertex(uint8_t *dl, size_t at, int pnmtx, float x, float y, float z) {
    if (pnmtx >= 0) dl[at++] = (uint8_t)pnmtx;
    at = put_f32(dl, at, x);
    at = put_f32(dl, at, y);
    return put_f32(dl, at, z);
}

static void display_lists(void) {
    memset(dl_env, 0, sizeof dl_env);
    memset(dl_rigid, 0, sizeof dl_rigid);
    size_t at = 0;
    dl_env[at++] = 0x90, dl_env[at++] = 0, dl_env[at++] = 3;
    at = put_vertex(dl_env, at, 0, 1, 1, 1);  /* E[0] = {J2: 1} */
    at = put_vertex(dl_env, at, 3, 1, 1, 1);  /* E[1] = {J1: .25, J2: .75} */
    put_vertex(dl_env, at, 0, 0, 0, 0);
    at = 0;
    dl_rigid[at++] = 0x90, dl_rigid[at++] = 0, dl_rigid[at++] = 3;
    at = put_vertex(dl_rigid, at, -1, 1, 1, 1);
    at = put_vertex(dl_rigid, at, -1, 0, 0, 0);
    put_vertex(dl_rigid, at, -1, 0, 1, 0);
}

static void attr(ue_hsd_vtx_attr *a, uint32_t which, uint32_t comp_count, uint32_t comp_type) {
    memset(a, 0, sizeof *a);
    a->attr = which, a->type = UE_GX_DIRECT, a->comp_count = comp_count, a->comp_type = comp_type;
}

/* The chain of test_hsd_pose.c: J0 SKELETON_ROOT rotated Z 90° at (1, 2, 3); J1 scale (2, 1, .5)
 * at (0, 1, 0), IB T(−1, 0, 0); J2 rotated X 90° at (1, 0, 0), IB T(0, 0, −1), HIDDEN. */
static void build(void) {
    memset(joints, 0, sizeof joints);
    for (int j = 0; j < 3; j++) {
        joints[j].parent = j - 1, joints[j].first_child = j < 2 ? j + 1 : -1, joints[j].next_sibling = -1;
        joints[j].first_dobj = -1, joints[j].offset = 0x40u * (uint32_t)j, joints[j].depth = (uint32_t)j;
        for (int k = 0; k < 3; k++) joints[j].scale[k] = 1;
    }
    joints[0].flags = UE_JOBJ_SKELETON_ROOT;
    joints[0].rotation[2] = PI_2;
    joints[0].translation[0] = 1, joints[0].translation[1] = 2, joints[0].translation[2] = 3;
    joints[1].flags = UE_JOBJ_SKELETON;
    joints[1].scale[0] = 2, joints[1].scale[2] = 0.5f, joints[1].translation[1] = 1;
    joints[2].flags = UE_JOBJ_SKELETON | UE_JOBJ_HIDDEN;
    joints[2].rotation[0] = PI_2, joints[2].translation[0] = 1;
    joints[2].class_name = "\x83\x7B\x81\x5B\x83\x93"; /* ボーン */
    float ib1[12] = {1, 0, 0, -1, 0, 1, 0, 0, 0, 0, 1, 0}, ib2[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -1};
    memcpy(joints[1].inverse_bind, ib1, sizeof ib1), joints[1].has_inverse_bind = true;
    memcpy(joints[2].inverse_bind, ib2, sizeof ib2), joints[2].has_inverse_bind = true;
    joints[0].first_dobj = 0, joints[2].first_dobj = 1;
    dobjs[0] = (ue_hsd_dobj){0x200, NULL, -1, -1, 0, 0};
    dobjs[1] = (ue_hsd_dobj){0x210, NULL, -1, -1, 1, 2};
    display_lists();
    attr(&attrs[0], UE_GX_VA_PNMTXIDX, 0, 0);
    attr(&attrs[1], UE_GX_VA_POS, 1, 4);
    attr(&attrs[2], UE_GX_VA_POS, 1, 4);
    memset(pobjs, 0, sizeof pobjs);
    pobjs[0].offset = 0x300, pobjs[0].next = -1, pobjs[0].flags = UE_POBJ_ENVELOPE, pobjs[0].n_display = 2;
    pobjs[0].attr_first = 0, pobjs[0].attr_count = 2, pobjs[0].dl = dl_env, pobjs[0].dl_size = 64;
    pobjs[0].skin_joint = -1, pobjs[0].env_first = 0, pobjs[0].env_count = 2;
    pobjs[1].offset = 0x320, pobjs[1].next = -1, pobjs[1].flags = UE_POBJ_SKIN, pobjs[1].n_display = 2;
    pobjs[1].attr_first = 2, pobjs[1].attr_count = 1, pobjs[1].dl = dl_rigid, pobjs[1].dl_size = 64;
    pobjs[1].skin_joint = -1;
    weights[0] = (ue_hsd_weight){2, 1.0f}, weights[1] = (ue_hsd_weight){1, 0.25f}, weights[2] = (ue_hsd_weight){2, 0.75f};
    envelopes[0] = (ue_hsd_envelope){0x400, 0, 1}, envelopes[1] = (ue_hsd_envelope){0x410, 1, 2};
    set = (ue_hsd_model_set){0, "test_joint", 0, 0, 0, 0};
    memset(&model, 0, sizeof model);
    model.sets = &set, model.set_count = 1;
    model.joints = joints, model.joint_count = 3;
    model.dobjs = dobjs, model.dobj_count = 2;
    model.pobjs = pobjs, model.pobj_count = 2;
    model.attrs = attrs, model.attr_count = 3;
    model.envelopes = envelopes, model.envelope_count = 2;
    model.weights = weights, model.weight_count = 3;
}

static bool near(double a, double b) { return fabs(a - b) <= 1e-4; }

static void check_vec(const float *v, double x, double y, double z, int line) {
    if (!near(v[0], x) || !near(v[1], y) || !near(v[2], z)) {
        fprintf(stderr, "line %d: (%.7g, %.7g, %.7g), expected (%.7g, %.7g, %.7g)\n", line, v[0], v[1], v[2], x, y, z);
        ue_test_failed_checks++;
    }
}

/* The glTF rule for one vertex: Σ w · World(joint node) · IBM · v, with the world matrices from
 * the scene's own transform code (not the HSD conversion's). */
static void gltf_skinned(const ue_scene *s, const ue_scene_primitive *p, const ue_scene_skin *sk, uint32_t v,
                         float out[3]) {
    double acc[3] = {0, 0, 0};
    for (uint32_t i = 0; i < p->influences; i++) {
        float w = p->weights[p->influences * v + i], world[16], m[16];
        if (w == 0) continue;
        uint16_t j = p->joints[p->influences * v + i];
        REQUIRE(ue_scene_world_matrix(s, sk->joints[j], world) == UE_OK);
        /* jointMatrix = World · IBM (column-major). */
        for (int c = 0; c < 4; c++)
            for (int r = 0; r < 4; r++) {
                double a = 0;
                for (int k = 0; k < 4; k++) a += (double)world[k * 4 + r] * sk->inverse_bind[16 * j + (size_t)(c * 4 + k)];
                m[c * 4 + r] = (float)a;
            }
        const float *x = &p->positions[3 * (size_t)v];
        for (int r = 0; r < 3; r++) acc[r] += w * ((double)m[r] * x[0] + (double)m[4 + r] * x[1] + (double)m[8 + r] * x[2] + m[12 + r]);
    }
    for (int r = 0; r < 3; r++) out[r] = (float)acc[r];
}

/* The decoder numbers vertices as it likes: a position is found wherever it is. */
static bool find_vertex(const ue_scene_primitive *p, const double want[3]) {
    for (uint32_t v = 0; v < p->vertex_count; v++)
        if (near(p->positions[3 * v], want[0]) && near(p->positions[3 * v + 1], want[1]) &&
            near(p->positions[3 * v + 2], want[2]))
            return true;
    fprintf(stderr, "no vertex at (%g, %g, %g)\n", want[0], want[1], want[2]);
    return false;
}

static void test_scene(void) {
    build();
    ue_scene s;
    ue_scene_init(&s);
    ue_diag d = {0};
    ue_result r = hsd_model_to_scene(&model, "creature", UE_MODE_STRICT, &s, &d);
    if (r != UE_OK) dump_diag(&d);
    REQUIRE(r == UE_OK);
    /* Nodes: the root, the three joints, then the mesh nodes of J0 and J2. */
    REQUIRE(s.node_count == 6 && s.skin_count == 1 && s.mesh_count == 2);
    CHECK_STR(s.nodes[0].name, "creature");
    CHECK_STR(s.nodes[1].name, "joint_000");
    CHECK_STR(s.nodes[3].name, "\xE3\x83\x9C\xE3\x83\xBC\xE3\x83\xB3");
    CHECK(s.nodes[1].parent == 0 && s.nodes[2].parent == 1 && s.nodes[3].parent == 2);
    CHECK(s.nodes[3].source.offset == 0x80 && s.nodes[3].source.type == HSD_KIND_JOBJ && !strcmp(s.nodes[3].source.format, "hsd"));
    check_vec(s.nodes[1].translation, 1, 2, 3, __LINE__);
    check_vec(s.nodes[1].rotation, 0, 0, 0.70710678, __LINE__);
    check_vec(s.nodes[2].scale, 2, 1, 0.5, __LINE__);
    /* J2's compensated local [[1,0,0],[0,0,-.5],[0,2,0]] is X 90° with scale (1, 2, .5). */
    check_vec(s.nodes[3].rotation, 0.70710678, 0, 0, __LINE__);
    check_vec(s.nodes[3].scale, 1, 2, 0.5, __LINE__);
    const ue_scene_skin *sk = &s.skins[0];
    REQUIRE(sk->joint_count == 3);
    CHECK(sk->joints[0] == 1 && sk->joints[1] == 2 && sk->joints[2] == 3 && sk->skeleton == 1);
    /* IBM(J2) = inverse of W2 = [[0,0,.5],[2,0,0],[0,1,0]] | (0,4,3): [[0,.5,0],[0,0,1],[2,0,0]] | (−2,−3,0). */
    const float *ib = &sk->inverse_bind[32];
    const float want[16] = {0, 0, 2, 0, 0.5f, 0, 0, 0, 0, 1, 0, 0, -2, -3, 0, 1};
    for (int k = 0; k < 16; k++)
        if (!near(ib[k], want[k])) fprintf(stderr, "IBM[%d] = %g, expected %g\n", k, ib[k], want[k]), ue_test_failed_checks++;
    /* Mesh nodes: skinned, J2's hidden. */
    CHECK(s.nodes[4].mesh == 0 && s.nodes[4].skin == 0 && !s.nodes[4].hidden);
    CHECK(s.nodes[5].mesh == 1 && s.nodes[5].skin == 0 && s.nodes[5].hidden);
    /* The game's positions (test_hsd_pose.c): E[0] (1,1,1) → (.5, 6, 4); E[1] (1,1,1) →
     * (−.25, 5, 3.875); E[0] (0,0,0) → W2's translation (0, 4, 3). Rigid on J2: (1,1,1) →
     * (.5, 6, 4), (0,0,0) → (0, 4, 3), (0,1,0) → W2 column 1 (0, 0, 1) + (0, 4, 3) = (0, 4, 4). */
    const double game[2][3][3] = {{{0.5, 6, 4}, {-0.25, 5, 3.875}, {0, 4, 3}}, {{0.5, 6, 4}, {0, 4, 3}, {0, 4, 4}}};
    for (int mi = 0; mi < 2; mi++) {
        REQUIRE(s.meshes[mi].primitive_count == 1);
        const ue_scene_primitive *p = &s.meshes[mi].primitives[0];
        REQUIRE(p->vertex_count == 3 && p->index_count == 3 && p->joints && p->weights);
        for (int v = 0; v < 3; v++) CHECK(find_vertex(p, game[mi][v]));
        for (uint32_t v = 0; v < 3; v++) {
            float skinned[3];
            gltf_skinned(&s, p, sk, v, skinned);
            check_vec(skinned, p->positions[3 * v], p->positions[3 * v + 1], p->positions[3 * v + 2], __LINE__);
        }
    }
    ue_buf glb = {0};
    ue_gltf_options o = {UE_GLTF_GLB, NULL, false, false};
    CHECK(ue_gltf_export(&s, &o, &glb, NULL, &d) == UE_OK);
    CHECK(glb.size > 100);
    ue_buf_free(&glb);
    ue_scene_free(&s);
    ue_diag_free(&d);
}

/* A sheared joint (a child rotated 45° about Z under the non-uniform J1) gets the nearest TRS;
 * the inverse bind is the inverse of that node's world, so the bind pose stays exact. */
static void test_shear_exact(void) {
    build();
    joints[2].rotation[0] = 0, joints[2].rotation[2] = PI_2 / 2;
    ue_scene s;
    ue_scene_init(&s);
    ue_diag d = {0};
    REQUIRE(hsd_model_to_scene(&model, "creature", UE_MODE_STRICT, &s, &d) == UE_OK);
    CHECK(has_code(&d, "hsd.scene.shear"));
    /* Rigid on J2: W2 = W1·L2 with L2(i,k) = Rz45(i,k)·p_k/p_i, p = (2, 1, .5):
     * L2 = [[c, -s/2, 0], [2s, c, 0], [0, 0, 1]] | (1, 0, 0), c = s = √½. W1 = [[0,-1,0],[2,0,0],
     * [0,0,.5]] | (0,2,3). (1,1,1) → L2 → (c − s/2 + 1, 2s + c, 1) → W1 → (−(2s + c),
     * 2(c − s/2 + 1), .5) + (0, 2, 3). */
    double c = sqrt(0.5), sn = sqrt(0.5);
    double want[3] = {-(2 * sn + c), 2 * (c - sn / 2 + 1) + 2, 0.5 + 3};
    const ue_scene_primitive *p = &s.meshes[1].primitives[0];
    CHECK(find_vertex(p, want));
    for (uint32_t v = 0; v < p->vertex_count; v++) {
        float skinned[3];
        gltf_skinned(&s, p, &s.skins[0], v, skinned);
        check_vec(skinned, p->positions[3 * v], p->positions[3 * v + 1], p->positions[3 * v + 2], __LINE__);
    }
    ue_scene_free(&s);
    ue_diag_free(&d);
}

/* A vertex selecting a matrix slot the PObj does not load: strict fails naming the PObj,
 * tolerant leaves that PObj out and converts the rest. */
static void test_bad_slot(void) {
    build();
    dl_env[3] = 9; /* PNMTXIDX 9 → envelope 3 of 2 */
    ue_scene s;
    ue_scene_init(&s);
    ue_diag d = {0};
    CHECK(hsd_model_to_scene(&model, "creature", UE_MODE_STRICT, &s, &d) == UE_ERR_INVALID);
    const ue_diag_item *it = diag_find(&d, "hsd.skin.pnmtx", "dat/joint[0]/dobj[0]/pobj[0]");
    CHECK(it && it->offset == 0x300 + UE_DAT_HEADER);
    ue_scene_free(&s);
    ue_diag_free(&d);
    ue_scene_init(&s);
    CHECK(hsd_model_to_scene(&model, "creature", UE_MODE_TOLERANT, &s, &d) == UE_OK);
    CHECK(s.mesh_count == 1 && s.nodes[s.node_count - 1].hidden);
    ue_scene_free(&s);
    ue_diag_free(&d);
}

/* An envelope naming one joint twice (J2 at 0.25 and 0.75): the runtime adds the two W·IB
 * terms, so the vertex takes J2 once with weight 1, the scene is valid (glTF wants each joint
 * once per vertex) and the glTF rule still puts it where the game does. */
static void test_envelope_repeats_a_joint(void) {
    build();
    weights[1] = (ue_hsd_weight){2, 0.25f};
    ue_scene s;
    ue_scene_init(&s);
    ue_diag d = {0};
    ue_result r = hsd_model_to_scene(&model, "creature", UE_MODE_STRICT, &s, &d);
    if (r != UE_OK) dump_diag(&d);
    REQUIRE(r == UE_OK && s.mesh_count == 2 && s.skin_count == 1);
    const ue_scene_primitive *p = &s.meshes[0].primitives[0];
    bool found = false;
    for (uint32_t v = 0; v < p->vertex_count; v++) {
        uint32_t nonzero = 0;
        for (uint32_t i = 0; i < p->influences; i++)
            if (p->weights[p->influences * v + i] != 0) nonzero++;
        CHECK(nonzero >= 1);
        if (nonzero == 1 && p->joints[p->influences * v] == 2 && near(p->weights[p->influences * v], 1)) found = true;
        float skinned[3];
        gltf_skinned(&s, p, &s.skins[0], v, skinned);
        check_vec(skinned, p->positions[3 * v], p->positions[3 * v + 1], p->positions[3 * v + 2], __LINE__);
    }
    CHECK(found);
    CHECK(ue_scene_validate(&s, &d) == UE_OK);
    ue_scene_free(&s);
    ue_diag_free(&d);
}

/* A set whose root joint has a sibling (J2 moved beside J0: two tree roots, as the fuzzer found):
 * the skin's skeleton is then the model root, the only common ancestor, and the scene is valid. */
static void test_root_with_sibling(void) {
    build();
    joints[1].first_child = -1;
    joints[0].next_sibling = 2;
    joints[2].parent = -1;
    ue_scene s;
    ue_scene_init(&s);
    ue_diag d = {0};
    REQUIRE(hsd_model_to_scene(&model, "creature", UE_MODE_TOLERANT, &s, &d) == UE_OK);
    CHECK(s.skin_count == 1 && s.skins[0].joint_count == 3 && s.skins[0].skeleton == 0);
    CHECK(s.nodes[3].parent == 0);
    CHECK(ue_scene_validate(&s, &d) == UE_OK);
    ue_scene_free(&s);
    ue_diag_free(&d);
}

/* J2's rigid PObj (no TEX0) drawn with a textured MObj (an 8 × 4 I8 image sampled through UV
 * set 0, render mode TEX0 = 0x10, colour op MODULATE): the primitive gets UV set 0 as zeros,
 * as GX's texgen would, with a warning, and the scene stays valid. */
static void test_texture_without_uvs(void) {
    build();
    static uint8_t texels[32];
    for (int i = 0; i < 32; i++) texels[i] = (uint8_t)(i * 8);
    ue_hsd_image image;
    memset(&image, 0, sizeof image);
    image.offset = 0x500, image.data_offset = 0x520, image.data = texels, image.size = sizeof texels;
    image.width = 8, image.height = 4, image.format = 1 /* I8 */, image.levels = 1;
    ue_hsd_tobj tobj;
    memset(&tobj, 0, sizeof tobj);
    tobj.offset = 0x540, tobj.next = -1, tobj.src = 4, tobj.image = 0, tobj.tlut = -1;
    tobj.flags = 4u << 16; /* colour op MODULATE */
    tobj.repeat_s = tobj.repeat_t = 1;
    for (int k = 0; k < 3; k++) tobj.scale[k] = 1;
    ue_hsd_mobj mobj;
    memset(&mobj, 0, sizeof mobj);
    mobj.offset = 0x5A0, mobj.render_mode = 0x10, mobj.first_tobj = 0;
    model.images = &image, model.image_count = 1;
    model.tobjs = &tobj, model.tobj_count = 1;
    model.mobjs = &mobj, model.mobj_count = 1;
    dobjs[1].mobj = 0;
    ue_scene s;
    ue_scene_init(&s);
    ue_diag d = {0};
    ue_result r = hsd_model_to_scene(&model, "creature", UE_MODE_STRICT, &s, &d);
    if (r != UE_OK) dump_diag(&d);
    REQUIRE(r == UE_OK);
    REQUIRE(s.material_count == 1 && s.materials[0].slot_count == 1 && s.materials[0].slots[0].uv_set == 0);
    const ue_scene_primitive *p = &s.meshes[1].primitives[0];
    REQUIRE(p->material == 0 && p->uv[0] != NULL);
    for (uint32_t v = 0; v < p->vertex_count; v++) CHECK(p->uv[0][2 * v] == 0 && p->uv[0][2 * v + 1] == 0);
    CHECK(has_code(&d, "hsd.scene.uv_missing"));
    CHECK(ue_scene_validate(&s, &d) == UE_OK);
    ue_scene_free(&s);
    ue_diag_free(&d);
}

int main(void) {
    RUN(test_scene);
    RUN(test_shear_exact);
    RUN(test_bad_slot);
    RUN(test_envelope_repeats_a_joint);
    RUN(test_root_with_sibling);
    RUN(test_texture_without_uvs);
    return TEST_SUMMARY();
}
