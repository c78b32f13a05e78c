/* Tests of edit mode (ue_msh_apply_scene): the sample robot exported to a scene, the scene edited
 * in memory as a glTF editor would, and the model checked resource by resource afterwards. */
#include <math.h>

#include "test.h"
#include "msh_edit_fixture.h"
#include "msh_resources.h"
#include "parkan/parkan_axes.h"
#include "samples/samples.h"
#include "unearth/msh_import.h"
#include "unearth/nres.h"

static bool setup_with(fixture *f, int lod, int group) {
    memset(f, 0, sizeof *f);
    if (ue_sample_robot(&f->original) != UE_OK) return false;
    if (ue_msh_parse(f->original.data, f->original.size, UE_MODE_STRICT, &f->m, NULL) != UE_OK) return false;
    ue_scene_init(&f->s);
    ue_msh_export_options o = {lod, group, 0};
    return ue_msh_to_scene(&f->m, "robot", &o, &f->s, NULL) == UE_OK;
}

static bool setup(fixture *f) { return setup_with(f, 0, 0); }

/* The first vertex convert writes for slot 0's first batch: the first index of the batch. */
static size_t first_vertex_of_slot0(const ue_msh *m) {
    const ue_msh_batch *b = &m->batches[m->slots[0].batch_start];
    return (size_t)b->base_vertex + m->indices[b->index_start];
}

/* The scene primitive that shows slot 0 (the body's LOD 0 mesh, first primitive). */
static ue_scene_primitive *body_primitive(ue_scene *s) {
    for (size_t n = 0; n < s->node_count; n++)
        if (!strcmp(s->nodes[n].name, "body")) return &s->meshes[s->nodes[n].mesh].primitives[0];
    return NULL;
}

static void test_unchanged_is_byte_identical(void) {
    fixture f;
    REQUIRE(setup(&f));
    CHECK_EQ_U(apply_and_write(&f), UE_OK);
    CHECK_EQ_U(f.out.size, f.original.size);
    CHECK(f.out.size == f.original.size && memcmp(f.out.data, f.original.data, f.out.size) == 0);
    teardown(&f);
}

static void test_every_group_export_is_recognised(void) {
    fixture f;
    REQUIRE(setup_with(&f, 0, UE_MSH_GROUP_ALL));
    CHECK_EQ_U(apply_and_write(&f), UE_OK);
    CHECK(f.out.size == f.original.size && memcmp(f.out.data, f.original.data, f.out.size) == 0);
    teardown(&f);
    /* LOD 1 alone, and the whole matrix (cells sharing a slot share a mesh, applied once). */
    REQUIRE(setup_with(&f, 1, 0));
    CHECK_EQ_U(apply_and_write(&f), UE_OK);
    CHECK(f.out.size == f.original.size && memcmp(f.out.data, f.original.data, f.out.size) == 0);
    teardown(&f);
    REQUIRE(setup_with(&f, UE_MSH_LOD_ALL, 0));
    CHECK_EQ_U(apply_and_write(&f), UE_OK);
    CHECK(f.out.size == f.original.size && memcmp(f.out.data, f.original.data, f.out.size) == 0);
    teardown(&f);
}

/* A vertex moved in a LOD 1 export reaches the model too: selections other than the default
 * are recognised by their slots. */
static void test_edit_through_lod1_export(void) {
    fixture f;
    REQUIRE(setup_with(&f, 1, 0));
    int32_t body = -1;
    for (size_t n = 0; n < f.s.node_count && body < 0; n++)
        if (!strcmp(f.s.nodes[n].name, "body")) body = (int32_t)n;
    REQUIRE(body >= 0 && f.s.nodes[body].mesh >= 0);
    ue_scene_primitive *p = &f.s.meshes[f.s.nodes[body].mesh].primitives[0];
    p->positions[0] -= 0.5f;
    float want = p->positions[0];
    uint16_t slot = ue_msh_slot_index(&f.m, 0, 1, 0, 0);
    REQUIRE(slot != UE_MSH_NONE);
    const ue_msh_batch *b = &f.m.batches[f.m.slots[slot].batch_start];
    size_t v = (size_t)b->base_vertex + f.m.indices[b->index_start];
    CHECK_EQ_U(apply_and_write(&f), UE_OK);
    CHECK(f.m.positions[3 * v] == want);
    teardown(&f);
}

static void test_moved_vertex_changes_geometry_only(void) {
    fixture f;
    REQUIRE(setup(&f));
    size_t v = first_vertex_of_slot0(&f.m);
    float old_x = f.m.positions[3 * v];
    ue_scene_primitive *p = body_primitive(&f.s);
    REQUIRE(p != NULL);
    p->positions[0] += 0.25f; /* glTF x is engine x (parkan_axes.c swaps Y and Z only) */
    float want = p->positions[0];
    CHECK_EQ_U(apply_and_write(&f), UE_OK);
    CHECK(f.m.positions[3 * v] == want && want != old_x);
    CHECK(!same_resource(&f.out, &f.original, UE_MSH_POSITIONS));
    CHECK(!same_resource(&f.out, &f.original, UE_MSH_HEADER)); /* slot 0's bounds and the hull */
    static const uint32_t untouched[] = {1, 4, 5, 6, 8, 10, 13, 18, 19};
    for (size_t i = 0; i < sizeof untouched / sizeof untouched[0]; i++) CHECK(same_resource(&f.out, &f.original, untouched[i]));
    /* Slots other than the body's keep their 68 bytes. */
    size_t na, nb;
    const uint8_t *ra = resource(&f.out, UE_MSH_HEADER, &na), *rb = resource(&f.original, UE_MSH_HEADER, &nb);
    REQUIRE(na == nb && na == UE_MSH_HEADER_SIZE + 10 * UE_MSH_SLOT_SIZE);
    for (size_t s = 1; s < 10; s++) {
        bool body_lod = s == 6; /* the body's LOD 1 slot may share the moved vertex */
        size_t at = UE_MSH_HEADER_SIZE + s * UE_MSH_SLOT_SIZE;
        if (!body_lod) CHECK(memcmp(ra + at, rb + at, UE_MSH_SLOT_SIZE) == 0);
    }
    /* The slot's box grew to the new x if it lies outside. */
    CHECK(f.m.slots[0].aabb_max[0] >= want && f.m.slots[0].aabb_min[0] <= want);
    ue_msh check;
    CHECK_EQ_U(ue_msh_parse(f.out.data, f.out.size, UE_MODE_STRICT, &check, NULL), UE_OK);
    ue_msh_free(&check);
    teardown(&f);
}

/* A face normal recomputed for a moved triangle: (b − a) × (c − a), normalised, ×32767. */
static void test_moved_triangle_gets_its_face_normal(void) {
    fixture f;
    REQUIRE(setup(&f));
    ue_scene_primitive *p = body_primitive(&f.s);
    REQUIRE(p != NULL);
    p->positions[2] += 1.0f; /* glTF z = engine y */
    CHECK_EQ_U(apply_and_write(&f), UE_OK);
    const ue_msh_batch *b = &f.m.batches[f.m.slots[0].batch_start];
    const float *a = &f.m.positions[3 * ((size_t)b->base_vertex + f.m.indices[b->index_start])];
    const float *bb = &f.m.positions[3 * ((size_t)b->base_vertex + f.m.indices[b->index_start + 1])];
    const float *c = &f.m.positions[3 * ((size_t)b->base_vertex + f.m.indices[b->index_start + 2])];
    double u[3] = {bb[0] - a[0], bb[1] - a[1], bb[2] - a[2]}, w[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    double n[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    const ue_msh_tri *t = &f.m.tris[f.m.slots[0].tri_start];
    for (int k = 0; k < 3; k++) CHECK(fabs(t->normal[k] - n[k] / len * 32767.0) <= 1.0);
    teardown(&f);
}

/* Normals: changed only past half an int8 step (0.5/127) in some component. */
static void test_normal_tolerance_boundary(void) {
    fixture f;
    REQUIRE(setup(&f));
    ue_scene_primitive *p = body_primitive(&f.s);
    REQUIRE(p != NULL && p->normals);
    p->normals[1] += 0.49f / 127.0f;
    CHECK_EQ_U(apply_and_write(&f), UE_OK);
    CHECK(f.out.size == f.original.size && memcmp(f.out.data, f.original.data, f.out.size) == 0);
    teardown(&f);

    REQUIRE(setup(&f));
    p = body_primitive(&f.s);
    size_t v = first_vertex_of_slot0(&f.m);
    float moved = p->normals[1] + 0.51f / 127.0f; /* glTF y = engine z */
    p->normals[1] = moved;
    long want = lroundf(moved * 127.0f);
    want = want > 127 ? 127 : want;
    int8_t nw = f.m.normals[4 * v + 3];
    CHECK_EQ_U(apply_and_write(&f), UE_OK);
    CHECK_EQ_U((long)f.m.normals[4 * v + 2], want);
    CHECK_EQ_U(f.m.normals[4 * v + 3], nw); /* the unknown fourth byte is kept */
    CHECK(!same_resource(&f.out, &f.original, UE_MSH_NORMALS));
    CHECK(same_resource(&f.out, &f.original, UE_MSH_POSITIONS));
    CHECK(same_resource(&f.out, &f.original, UE_MSH_HEADER));
    teardown(&f);
}

/* UVs: changed only past half a 1/1024 step. */
static void test_uv_tolerance_boundary(void) {
    fixture f;
    REQUIRE(setup(&f));
    ue_scene_primitive *p = body_primitive(&f.s);
    REQUIRE(p != NULL && p->uv[0]);
    p->uv[0][0] -= 0.49f / 1024.0f;
    CHECK_EQ_U(apply_and_write(&f), UE_OK);
    CHECK(f.out.size == f.original.size && memcmp(f.out.data, f.original.data, f.out.size) == 0);
    teardown(&f);

    REQUIRE(setup(&f));
    p = body_primitive(&f.s);
    size_t v = first_vertex_of_slot0(&f.m);
    int16_t old_u = f.m.uv0[2 * v];
    p->uv[0][0] -= 0.51f / 1024.0f;
    CHECK_EQ_U(apply_and_write(&f), UE_OK);
    CHECK_EQ_U(f.m.uv0[2 * v], (int16_t)(old_u - 1));
    CHECK(!same_resource(&f.out, &f.original, UE_MSH_UV0));
    CHECK(same_resource(&f.out, &f.original, UE_MSH_NORMALS));
    CHECK(same_resource(&f.out, &f.original, UE_MSH_HEADER));
    teardown(&f);
}

static int32_t scene_node(const ue_scene *s, const char *name) {
    for (size_t n = 0; n < s->node_count; n++)
        if (!strcmp(s->nodes[n].name, name)) return (int32_t)n;
    return -1;
}

static void test_rename_changes_res10_only(void) {
    fixture f;
    REQUIRE(setup(&f));
    int32_t n = scene_node(&f.s, "arm_left");
    REQUIRE(n >= 0);
    snprintf(f.s.nodes[n].name, sizeof f.s.nodes[n].name, "\xd1\x80\xd1\x83\xd0\xba\xd0\xb0"); /* "рука" */
    CHECK_EQ_U(apply_and_write(&f), UE_OK);
    CHECK_STR(ue_msh_node_name(&f.m, 3), "\xf0\xf3\xea\xe0"); /* the same word in Windows-1251 */
    static const uint32_t untouched[] = {1, 2, 3, 4, 5, 6, 7, 8, 13, 18, 19};
    for (size_t i = 0; i < sizeof untouched / sizeof untouched[0]; i++) CHECK(same_resource(&f.out, &f.original, untouched[i]));
    CHECK(!same_resource(&f.out, &f.original, UE_MSH_NAMES));
    teardown(&f);

    REQUIRE(setup(&f));
    snprintf(f.s.nodes[n].name, sizeof f.s.nodes[n].name, "ok\xe2\x9c\x93"); /* U+2713 has no CP1251 code */
    CHECK_EQ_U(ue_msh_apply_scene(&f.m, &f.s, NULL, &f.d), UE_ERR_INVALID);
    CHECK(diag_find(&f.d, "import.name.cp1251", NULL) != NULL);
    teardown(&f);
}

static void test_tree_mismatch_is_refused(void) {
    fixture f;
    REQUIRE(setup(&f));
    int32_t arm = scene_node(&f.s, "arm_left"), head = scene_node(&f.s, "head");
    REQUIRE(arm >= 0 && head >= 0);
    f.s.nodes[arm].parent = head; /* was the body */
    CHECK_EQ_U(ue_msh_apply_scene(&f.m, &f.s, NULL, &f.d), UE_ERR_INVALID);
    const ue_diag_item *it = diag_find(&f.d, "import.base.tree", "/nodes");
    CHECK(it != NULL && strstr(it->message, "different parent") != NULL);
    teardown(&f);

    REQUIRE(setup(&f));
    CHECK(ue_scene_add_node(&f.s, "extra", 0) >= 0);
    CHECK_EQ_U(ue_msh_apply_scene(&f.m, &f.s, NULL, &f.d), UE_ERR_INVALID);
    it = diag_find(&f.d, "import.base.tree", "/nodes");
    CHECK(it != NULL && strstr(it->message, "nodes") != NULL);
    teardown(&f);
}

/* Nodes that lost their source ids (an exporter dropping extras) and came back in another order
 * are matched by their names. */
static void test_nodes_without_source_match_by_name(void) {
    fixture f;
    REQUIRE(setup(&f));
    int32_t a = scene_node(&f.s, "arm_left"), b = scene_node(&f.s, "arm_right");
    REQUIRE(a >= 0 && b >= 0);
    for (size_t n = 0; n < f.s.node_count; n++) memset(&f.s.nodes[n].source, 0, sizeof f.s.nodes[n].source);
    ue_scene_node t = f.s.nodes[a];
    f.s.nodes[a] = f.s.nodes[b];
    f.s.nodes[b] = t;
    for (size_t n = 0; n < f.s.node_count; n++) /* the arms have no children; keep it so */
        CHECK(f.s.nodes[n].parent != a && f.s.nodes[n].parent != b);
    for (size_t c = 0; f.s.animation_count && c < f.s.animations[0].channel_count; c++) {
        ue_anim_channel *ch = &f.s.animations[0].channels[c];
        ch->node = ch->node == a ? b : ch->node == b ? a : ch->node;
    }
    CHECK_EQ_U(apply_and_write(&f), UE_OK);
    CHECK(f.out.size == f.original.size && memcmp(f.out.data, f.original.data, f.out.size) == 0);
    teardown(&f);
}

static void test_node_scale_is_refused(void) {
    fixture f;
    REQUIRE(setup(&f));
    int32_t legs = scene_node(&f.s, "legs");
    REQUIRE(legs >= 0);
    f.s.nodes[legs].scale[1] = 2.0f;
    CHECK_EQ_U(ue_msh_apply_scene(&f.m, &f.s, NULL, &f.d), UE_ERR_INVALID);
    char path[32];
    snprintf(path, sizeof path, "/nodes/%d/scale", (int)legs);
    CHECK(diag_find(&f.d, "msh.import.scale", path) != NULL); /* the code a new model gives */
    teardown(&f);
}

/* The root convert wraps the model in is no MSH node: a transform set on it cannot be stored,
 * and is refused instead of dropped. */
static void test_root_transform_is_refused(void) {
    static const struct { int what; const char *code, *path; } cases[] = {
        {0, "msh.import.scale", "/nodes/0/scale"},
        {1, "import.node.transform", "/nodes/0/translation"},
        {2, "import.node.transform", "/nodes/0/rotation"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        fixture f;
        REQUIRE(setup(&f));
        REQUIRE(f.s.nodes[0].parent < 0 && f.s.nodes[0].source.type != UE_MSH_NODES);
        ue_scene_node *root = &f.s.nodes[0];
        if (cases[c].what == 0) root->scale[0] = root->scale[1] = root->scale[2] = 3.0f;
        if (cases[c].what == 1) root->translation[1] += 5.0f;
        if (cases[c].what == 2) root->rotation[0] = 0.6f, root->rotation[3] = 0.8f;
        CHECK_EQ_U(ue_msh_apply_scene(&f.m, &f.s, NULL, &f.d), UE_ERR_INVALID);
        CHECK(diag_find(&f.d, cases[c].code, cases[c].path) != NULL);
        teardown(&f);
    }
}

static void test_rest_pose_of_static_node(void) {
    fixture f;
    REQUIRE(setup(&f));
    int32_t legs = scene_node(&f.s, "legs");
    REQUIRE(legs >= 0);
    f.s.nodes[legs].translation[1] += 0.5f; /* glTF y = engine z */
    float want_z = f.s.nodes[legs].translation[1];
    CHECK_EQ_U(apply_and_write(&f), UE_OK);
    float t[3], q[4];
    ue_msh_rest_pose(&f.m, 5, t, q);
    CHECK(t[2] == want_z);
    CHECK(!same_resource(&f.out, &f.original, UE_MSH_KEYS));
    CHECK(same_resource(&f.out, &f.original, UE_MSH_POSITIONS));
    CHECK(same_resource(&f.out, &f.original, UE_MSH_FRAME_MAP));
    teardown(&f);
}

static void test_topology_change_rebuilds_the_slot(void) {
    fixture f;
    REQUIRE(setup(&f));
    ue_scene_primitive *p = body_primitive(&f.s);
    REQUIRE(p != NULL && p->index_count >= 6);
    uint16_t tris = f.m.slots[0].tri_count;
    size_t batches = f.m.batch_count;
    p->index_count -= 3;
    CHECK_EQ_U(apply_and_write(&f), UE_OK);
    CHECK_EQ_U(f.m.slots[0].tri_count, tris - 1);
    CHECK_EQ_U(f.m.batch_count, batches + 1);
    CHECK_EQ_U(f.m.slots[0].batch_start, batches);
    CHECK(same_resource(&f.out, &f.original, UE_MSH_NAMES));
    CHECK(same_resource(&f.out, &f.original, UE_MSH_KEYS));
    ue_msh check;
    CHECK_EQ_U(ue_msh_parse(f.out.data, f.out.size, UE_MODE_STRICT, &check, NULL), UE_OK);
    ue_msh_free(&check);
    teardown(&f);
}

static void test_nonfinite_position_is_refused(void) {
    fixture f;
    REQUIRE(setup(&f));
    body_primitive(&f.s)->positions[4] = NAN;
    CHECK_EQ_U(ue_msh_apply_scene(&f.m, &f.s, NULL, &f.d), UE_ERR_INVALID);
    CHECK(f.d.count > 0);
    teardown(&f);
}

/* A rotation key changed in the clip: the node's track is re-keyed on its whole frames and the
 * engine plays the new rotation at that frame. */
static void test_changed_animation_key(void) {
    fixture f;
    REQUIRE(setup(&f));
    REQUIRE(f.s.animation_count == 1);
    ue_scene_animation *an = &f.s.animations[0];
    ue_anim_channel *ch = NULL;
    for (size_t c = 0; c < an->channel_count && !ch; c++)
        if (an->channels[c].target == UE_TARGET_ROTATION && an->channels[c].key_count >= 2) ch = &an->channels[c];
    REQUIRE(ch != NULL);
    const char *name = f.s.nodes[ch->node].name;
    size_t node = 0;
    while (node < f.m.node_count && (!ue_msh_node_name(&f.m, node) || strcmp(ue_msh_node_name(&f.m, node), name))) node++;
    REQUIRE(node < f.m.node_count);
    float q[4] = {0.0f, 0.0f, sinf(0.3f), cosf(0.3f)}; /* about glTF z (engine y) */
    memcpy(&ch->values[4], q, sizeof q);                /* key 1 */
    float frame = ch->times[1] * UE_MSH_DEFAULT_FPS;
    CHECK_EQ_U(apply_and_write(&f), UE_OK);
    CHECK(!same_resource(&f.out, &f.original, UE_MSH_KEYS));
    CHECK(same_resource(&f.out, &f.original, UE_MSH_POSITIONS));
    CHECK_EQ_U(ue_msh_check(&f.m, UE_MODE_STRICT, NULL), UE_OK);
    ue_msh_pose pose;
    CHECK_EQ_U(ue_msh_sample_node(&f.m, node, roundf(frame), &pose), UE_OK);
    float want[4];
    ue_parkan_quat_from_gltf(q, want);
    for (int k = 0; k < 4; k++) CHECK(fabsf(pose.rotation[k] - want[k]) < 1e-4f);
    teardown(&f);
}

/* import --base's one export of its base (docs/architecture.md#one-read-per-input): the export
 * ue_msh_edit_reference makes serves the edit and the texture comparison, neither exports the
 * base again (the library's own count, base_exports), and the edit writes what an edit that
 * exports the base itself writes: byte for byte, for an unchanged scene and a moved vertex, in
 * a LOD 1 export (the selection the shared export must follow) and in an every-LOD one. */
static void edit_of(int lod, int group, bool move, bool shared, ue_buf *out, size_t *exports) {
    fixture f;
    REQUIRE(setup_with(&f, lod, group));
    REQUIRE(f.s.mesh_count > 0 && f.s.meshes[0].primitive_count > 0);
    if (move) f.s.meshes[0].primitives[0].positions[1] += 0.25f; /* one vertex of the first slot shown */
    ue_scene ref;
    ue_msh_import_options io = {.base_exports = exports};
    if (shared) {
        CHECK_EQ_U(ue_msh_edit_reference(&f.m, &f.s, &io, NULL, &ref, &f.d), UE_OK);
        io.reference = &ref;
    }
    CHECK_EQ_U(ue_msh_apply_scene(&f.m, &f.s, &io, &f.d), UE_OK);
    CHECK_EQ_U(ue_msh_write(&f.m, out, &f.d), UE_OK);
    if (shared) {
        ue_texture_edit_options eo = {.reference = &ref, .base_exports = exports};
        ue_texture_edits edits;
        CHECK_EQ_U(ue_msh_texture_edits(NULL, &f.s, &eo, &edits, &f.d), UE_OK);
        CHECK_EQ_U(edits.count, 0);
        ue_texture_edits_free(&edits);
        ue_scene_free(&ref);
    }
    teardown(&f);
}

static void test_base_exported_once(void) {
    const int selections[][2] = {{0, 0}, {1, 0}, {UE_MSH_LOD_ALL, 0}, {0, UE_MSH_GROUP_ALL}};
    for (size_t k = 0; k < sizeof selections / sizeof selections[0]; k++)
        for (int move = 0; move < 2; move++) {
            ue_buf own = {0}, shared = {0}, original = {0};
            size_t own_exports = 0, shared_exports = 0;
            edit_of(selections[k][0], selections[k][1], move, false, &own, &own_exports);
            edit_of(selections[k][0], selections[k][1], move, true, &shared, &shared_exports);
            CHECK_EQ_U(own_exports, 1);
            CHECK_EQ_U(shared_exports, 1); /* the edit and the texture edits took the shared export */
            CHECK(own.size > 0 && own.size == shared.size && !memcmp(own.data, shared.data, own.size));
            REQUIRE(ue_sample_robot(&original) == UE_OK);
            bool same = original.size == shared.size && !memcmp(original.data, shared.data, original.size);
            CHECK(same == !move); /* the moved vertex did reach the model */
            ue_buf_free(&own);
            ue_buf_free(&shared);
            ue_buf_free(&original);
        }
}

int main(void) {
    RUN(test_unchanged_is_byte_identical);
    RUN(test_every_group_export_is_recognised);
    RUN(test_edit_through_lod1_export);
    RUN(test_moved_vertex_changes_geometry_only);
    RUN(test_moved_triangle_gets_its_face_normal);
    RUN(test_normal_tolerance_boundary);
    RUN(test_uv_tolerance_boundary);
    RUN(test_rename_changes_res10_only);
    RUN(test_tree_mismatch_is_refused);
    RUN(test_nodes_without_source_match_by_name);
    RUN(test_node_scale_is_refused);
    RUN(test_root_transform_is_refused);
    RUN(test_rest_pose_of_static_node);
    RUN(test_topology_change_rebuilds_the_slot);
    RUN(test_nonfinite_position_is_refused);
    RUN(test_changed_animation_key);
    RUN(test_base_exported_once);
    return TEST_SUMMARY();
}
