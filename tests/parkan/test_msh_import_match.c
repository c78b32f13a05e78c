/* Tests of edit mode's matcher (msh_import_match.c): the robot's export re-written as a real
 * client writes it (lists reversed, ids, extras and the selection record dropped, names
 * suffixed or cut) is matched object for object and imports back byte for byte. */
#include "test.h"
#include "msh_edit_fixture.h"
#include "parkan/msh_import_edit_int.h"
#include "samples/samples.h"
#include "unearth/gltf.h"
#include "unearth/gltf_read.h"
#include "unearth/msh_import.h"

static bool parse_base(fixture *f) {
    return ue_msh_parse(f->original.data, f->original.size, UE_MODE_STRICT, &f->m, NULL) == UE_OK;
}

static bool export_scene(fixture *f, int lod, int group) {
    ue_scene_init(&f->s);
    ue_msh_export_options o = {lod, group, 0};
    return ue_msh_to_scene(&f->m, "robot.msh", &o, &f->s, NULL) == UE_OK;
}

static bool setup(fixture *f, int lod, int group) {
    memset(f, 0, sizeof *f);
    return ue_sample_robot(&f->original) == UE_OK && parse_base(f) && export_scene(f, lod, group);
}

static int32_t flip(int32_t i, size_t n) { return i < 0 ? -1 : (int32_t)n - 1 - i; }

/* count items of `size` bytes (one of the scene's objects) in the opposite order. */
static void reverse(void *items, size_t count, size_t size) {
    unsigned char *a = items, t[sizeof(ue_scene_material) + sizeof(ue_scene_node) + sizeof(ue_scene_mesh)];
    for (size_t i = 0; i < count / 2; i++) {
        memcpy(t, a + i * size, size);
        memcpy(a + i * size, a + (count - 1 - i) * size, size);
        memcpy(a + (count - 1 - i) * size, t, size);
    }
}

/* What Blender 3.4 does to the scene: every list in the opposite order (it writes children
 * before parents), no source ids, no selection record, images named after their stem. Node i
 * of the result is node n-1-i of the export, and likewise for meshes, materials and textures. */
static void client_rewrite(ue_scene *s) {
    size_t n = s->node_count, nm = s->mesh_count, na = s->material_count, nt = s->texture_count;
    reverse(s->nodes, n, sizeof *s->nodes);
    reverse(s->meshes, nm, sizeof *s->meshes);
    reverse(s->materials, na, sizeof *s->materials);
    reverse(s->textures, nt, sizeof *s->textures);
    for (size_t i = 0; i < n; i++) {
        s->nodes[i].parent = flip(s->nodes[i].parent, n);
        s->nodes[i].mesh = flip(s->nodes[i].mesh, nm);
        memset(&s->nodes[i].source, 0, sizeof s->nodes[i].source);
    }
    for (size_t m = 0; m < nm; m++) {
        memset(&s->meshes[m].source, 0, sizeof s->meshes[m].source);
        for (size_t p = 0; p < s->meshes[m].primitive_count; p++) {
            s->meshes[m].primitives[p].material = flip(s->meshes[m].primitives[p].material, na);
            memset(&s->meshes[m].primitives[p].source, 0, sizeof s->meshes[m].primitives[p].source);
        }
    }
    for (size_t a = 0; a < na; a++) {
        memset(&s->materials[a].source, 0, sizeof s->materials[a].source);
        for (size_t k = 0; k < s->materials[a].slot_count; k++)
            s->materials[a].slots[k].texture = flip(s->materials[a].slots[k].texture, nt);
    }
    for (size_t t = 0; t < nt; t++) {
        memset(&s->textures[t].source, 0, sizeof s->textures[t].source);
        char *dot = strrchr(s->textures[t].name, '.');
        if (dot) *dot = 0;
    }
    for (size_t a = 0; a < s->animation_count; a++)
        for (size_t c = 0; c < s->animations[a].channel_count; c++) {
            ue_anim_channel *ch = &s->animations[a].channels[c];
            ch->node = flip(ch->node, n);
            ch->material = flip(ch->material, na);
            for (uint32_t k = 0; ch->target == UE_TARGET_TEXTURE_INDEX && k < ch->key_count; k++)
                ch->values[k] = (float)flip((int32_t)ch->values[k], nt);
        }
    memset(&s->selection, 0, sizeof s->selection);
}

static int32_t scene_node(const ue_scene *s, const char *name) {
    for (size_t n = 0; n < s->node_count; n++)
        if (!strcmp(s->nodes[n].name, name)) return (int32_t)n;
    return -1;
}

/* The matcher alone, as ue_msh_apply_scene runs it. */
static ue_result run_matcher(fixture *f, edit_ctx *x) {
    memset(x, 0, sizeof *x);
    x->m = &f->m, x->s = &f->s, x->d = &f->d, x->fps = UE_MSH_DEFAULT_FPS;
    ue_scene_init(&x->own_base);
    x->b_of_s = calloc(f->s.node_count + 1, sizeof *x->b_of_s);
    return x->b_of_s ? ue_msh_edit_match_selection(x) : UE_ERR_NOMEM;
}

static void matcher_free(edit_ctx *x) {
    ue_msh_edit_match_free(x);
    ue_scene_free(&x->own_base);
    free(x->b_of_s);
    free(x->msh_of_b);
}

static bool imports_identically(fixture *f) {
    ue_result r = ue_msh_apply_scene(&f->m, &f->s, NULL, &f->d);
    if (r == UE_OK) r = ue_msh_write(&f->m, &f->out, &f->d);
    return r == UE_OK && f->out.size == f->original.size && !memcmp(f->out.data, f->original.data, f->out.size);
}

/* Every selection convert writes, re-written as Blender writes it: each object is matched to
 * the one it was (the reversal is the truth), the selection is inferred from the names, and
 * the model comes back byte for byte. */
static void test_client_rewrite_is_matched(void) {
    static const int selections[][2] = {{0, 0}, {0, UE_MSH_GROUP_ALL}, {UE_MSH_LOD_ALL, 0}, {1, 0}};
    for (size_t k = 0; k < sizeof selections / sizeof selections[0]; k++) {
        fixture f;
        REQUIRE(setup(&f, selections[k][0], selections[k][1]));
        client_rewrite(&f.s);
        edit_ctx x;
        CHECK_EQ_U(run_matcher(&f, &x), UE_OK);
        CHECK_EQ_U(x.eo.lod, selections[k][0]);
        CHECK_EQ_U(x.eo.group, selections[k][1]);
        size_t n = f.s.node_count;
        CHECK_EQ_U(x.base->node_count, n);
        for (size_t i = 0; x.bprim_of_s && i < n; i++) CHECK_EQ_U(x.b_of_s[i], flip((int32_t)i, n));
        for (size_t m = 0; x.bprim_of_s && m < f.s.mesh_count; m++) {
            CHECK_EQ_U(x.bmesh_of_s[m], flip((int32_t)m, f.s.mesh_count));
            for (size_t p = 0; p < f.s.meshes[m].primitive_count; p++)
                CHECK_EQ_U(ue_msh_edit_base_primitive(&x, (int32_t)m, p), p);
        }
        for (size_t a = 0; x.bprim_of_s && a < f.s.material_count; a++)
            CHECK_EQ_U(x.bmat_of_s[a], flip((int32_t)a, f.s.material_count));
        for (size_t t = 0; x.bprim_of_s && t < f.s.texture_count; t++)
            CHECK_EQ_U(x.btex_of_s[t], flip((int32_t)t, f.s.texture_count));
        matcher_free(&x);
        CHECK(imports_identically(&f));
        teardown(&f);
    }
}

/* The fixture on a robot whose nodes[i] are renamed names[i] (its original and parsed model). */
static bool setup_renamed(fixture *f, const size_t *nodes, const char *const *names, size_t count) {
    memset(f, 0, sizeof *f);
    ue_buf robot = {0};
    ue_msh named;
    bool parsed = ue_sample_robot(&robot) == UE_OK &&
                  ue_msh_parse(robot.data, robot.size, UE_MODE_STRICT, &named, NULL) == UE_OK, ok = parsed;
    for (size_t i = 0; ok && i < count; i++) ok = ue_msh_rename_node(&named, nodes[i], names[i]) == UE_OK;
    ok = ok && ue_msh_write(&named, &f->original, NULL) == UE_OK;
    if (parsed) ue_msh_free(&named);
    ue_buf_free(&robot);
    return ok && parse_base(f) && export_scene(f, 0, 0);
}

/* Two nodes of one name come back as "arm" and "arm.001" (Blender's clash rule), in another
 * order and without ids: their places (translations) tell them apart, and the suffix is no
 * rename. */
static void test_client_suffix_is_undone(void) {
    static const size_t nodes[] = {3, 4};
    static const char *const names[] = {"arm", "arm"};
    fixture f;
    REQUIRE(setup_renamed(&f, nodes, names, 2));
    int32_t right = -1;
    for (size_t n = 0; n < f.s.node_count; n++)
        if (!strcmp(f.s.nodes[n].name, "arm")) right = (int32_t)n; /* the second: node 4 */
    REQUIRE(right >= 0 && f.s.nodes[right].translation[0] < 0);
    snprintf(f.s.nodes[right].name, sizeof f.s.nodes[right].name, "arm.001");
    client_rewrite(&f.s);
    edit_ctx x;
    CHECK_EQ_U(run_matcher(&f, &x), UE_OK);
    int32_t s_right = scene_node(&f.s, "arm.001");
    CHECK(s_right >= 0 && x.b_of_s[s_right] == flip(s_right, f.s.node_count));
    matcher_free(&x);
    CHECK(imports_identically(&f));
    teardown(&f);
}

/* three.js's re-export: its scene as a new root above the model, node names sanitised (white
 * space to '_', '.' dropped, a clash "_1"): the wrapper is passed over, the names are no
 * renames, and the model comes back byte for byte. */
static void test_three_wrapper_and_names(void) {
    static const size_t nodes[] = {3, 5};
    static const char *const names[] = {"arm L", "le.gs"};
    fixture f;
    REQUIRE(setup_renamed(&f, nodes, names, 2));
    for (size_t n = 0; n < f.s.node_count; n++) memset(&f.s.nodes[n].source, 0, sizeof f.s.nodes[n].source);
    memset(&f.s.selection, 0, sizeof f.s.selection);
    int32_t arm = scene_node(&f.s, "arm L"), legs = scene_node(&f.s, "le.gs");
    REQUIRE(arm >= 0 && legs >= 0 && f.s.nodes[0].parent < 0);
    snprintf(f.s.nodes[arm].name, sizeof f.s.nodes[arm].name, "arm_L");
    snprintf(f.s.nodes[legs].name, sizeof f.s.nodes[legs].name, "legs");
    snprintf(f.s.nodes[0].name, sizeof f.s.nodes[0].name, "robotmsh_1");
    int32_t top = ue_scene_add_node(&f.s, "robotmsh", -1);
    REQUIRE(top > 0);
    f.s.nodes[0].parent = top;
    edit_ctx x;
    CHECK_EQ_U(run_matcher(&f, &x), UE_OK);
    CHECK_EQ_U(x.b_of_s[top], -1);
    CHECK_EQ_U(x.b_of_s[arm], arm);
    CHECK_EQ_U(x.b_of_s[0], 0);
    matcher_free(&x);
    CHECK(imports_identically(&f));
    teardown(&f);
}

/* A node renamed in the client, ids dropped: the one unmatched child of a matched parent is it,
 * and only Res10 changes. */
static void test_renamed_node_is_found_by_position(void) {
    fixture f;
    REQUIRE(setup(&f, 0, 0));
    int32_t arm = scene_node(&f.s, "arm_left");
    REQUIRE(arm >= 0);
    snprintf(f.s.nodes[arm].name, sizeof f.s.nodes[arm].name, "\xd1\x80\xd1\x83\xd0\xba\xd0\xb0"); /* "рука" */
    client_rewrite(&f.s);
    ue_result r = ue_msh_apply_scene(&f.m, &f.s, NULL, &f.d);
    CHECK_EQ_U(r, UE_OK);
    CHECK_STR(ue_msh_node_name(&f.m, 3), "\xf0\xf3\xea\xe0"); /* the same word in Windows-1251 */
    CHECK_STR(ue_msh_node_name(&f.m, 4), "arm_right");
    teardown(&f);
}

/* Scene node i, a leaf no channel drives, deleted as a client deletes it: the nodes after it
 * move up, parents and channels renumbered. */
static void delete_leaf(ue_scene *s, int32_t i) {
    ue_extras_free(&s->nodes[i].extras);
    memmove(&s->nodes[i], &s->nodes[i + 1], (s->node_count - (size_t)i - 1) * sizeof s->nodes[0]);
    s->node_count--;
    for (size_t n = 0; n < s->node_count; n++) s->nodes[n].parent -= s->nodes[n].parent > i;
    for (size_t a = 0; a < s->animation_count; a++)
        for (size_t c = 0; c < s->animations[a].channel_count; c++) {
            ue_anim_channel *ch = &s->animations[a].channels[c];
            REQUIRE(ch->node != i);
            ch->node -= ch->node > i;
        }
}

static const ue_diag_item *find_diag(const ue_diag *d, const char *code) {
    for (size_t i = 0; i < d->count; i++)
        if (!strcmp(d->items[i].code, code)) return &d->items[i];
    return NULL;
}

/* A model node deleted in the client (legs, a leaf) is removed from the model, and said so by
 * name; the other nodes keep their names in order. */
static void test_deleted_node_is_removed(void) {
    fixture f;
    REQUIRE(setup(&f, 0, 0));
    client_rewrite(&f.s);
    int32_t legs = scene_node(&f.s, "legs");
    REQUIRE(legs >= 0);
    delete_leaf(&f.s, legs);
    CHECK_EQ_U(ue_msh_apply_scene(&f.m, &f.s, NULL, &f.d), UE_OK);
    const ue_diag_item *it = find_diag(&f.d, "import.node.removed");
    CHECK(it && it->severity == UE_SEV_WARNING && strstr(it->message, "1 node of the base model") &&
          strstr(it->message, "\"legs\""));
    REQUIRE(f.m.node_count == 5);
    const char *const want[] = {"body", "head", NULL, "arm_left", "arm_right"};
    for (size_t n = 0; n < 5; n++) {
        const char *got = ue_msh_node_name(&f.m, n);
        CHECK(want[n] ? got && !strcmp(got, want[n]) : got == NULL);
    }
    CHECK(f.m.dirty[UE_MSH_NODES] && f.m.dirty[UE_MSH_HEADER] && f.m.dirty[UE_MSH_KEYS] && f.m.dirty[UE_MSH_NAMES]);
    teardown(&f);
}

/* What is no deleted model node stays refused, naming it: a holder of --lod all deleted while
 * its node stays (the mesh of one cell). */
static void test_deleted_holder_is_refused(void) {
    fixture f;
    REQUIRE(setup(&f, UE_MSH_LOD_ALL, 0));
    client_rewrite(&f.s);
    int32_t holder = scene_node(&f.s, "legs_lod0_group0");
    REQUIRE(holder >= 0);
    delete_leaf(&f.s, holder);
    CHECK_EQ_U(ue_msh_apply_scene(&f.m, &f.s, NULL, &f.d), UE_ERR_INVALID);
    const ue_diag_item *it = find_diag(&f.d, "import.base.tree");
    CHECK(it && strstr(it->message, "node \"legs_lod0_group0\" is missing, and is no model node"));
    CHECK(!find_diag(&f.d, "import.node.removed"));
    teardown(&f);
}

/* convert's selection goes into asset.extras.unearth_selection and comes back from the reader;
 * a malformed record is left out with a warning. */
static void test_selection_is_recorded(void) {
    fixture f;
    REQUIRE(setup(&f, UE_MSH_LOD_ALL, 0));
    snprintf(f.s.selection.file, sizeof f.s.selection.file, "objects.rlb");
    snprintf(f.s.selection.entry, sizeof f.s.selection.entry, "ROBOT.msh");
    f.s.selection.scale = 2;
    ue_buf glb = {0};
    ue_gltf_options o = {0};
    REQUIRE(ue_gltf_export(&f.s, &o, &glb, NULL, NULL) == UE_OK);
    ue_scene back;
    ue_scene_init(&back);
    CHECK_EQ_U(ue_gltf_read(glb.data, glb.size, NULL, UE_MODE_STRICT, &back, NULL), UE_OK);
    const ue_scene_selection *sel = &back.selection;
    CHECK(sel->recorded && sel->has_lod);
    CHECK_STR(sel->format, "msh");
    CHECK_STR(sel->file, "objects.rlb");
    CHECK_STR(sel->entry, "ROBOT.msh");
    CHECK_EQ_U(sel->lod, UE_SELECTION_ALL);
    CHECK_EQ_U(sel->group, UE_SELECTION_ALL);
    CHECK(sel->fps == 30.0f && sel->scale == 2.0);
    ue_scene_free(&back);
    ue_buf_free(&glb);
    teardown(&f);

    static const char bad[] = "{\"asset\":{\"version\":\"2.0\",\"extras\":{\"unearth_selection\":{\"lod\":1}}}}";
    ue_diag d = {0};
    ue_scene_init(&back);
    CHECK_EQ_U(ue_gltf_read((const uint8_t *)bad, sizeof bad - 1, NULL, UE_MODE_STRICT, &back, &d), UE_OK);
    CHECK(!back.selection.recorded);
    bool warned = false;
    for (size_t i = 0; i < d.count; i++) warned = warned || !strcmp(d.items[i].code, "gltf.extras.selection");
    CHECK(warned);
    ue_scene_free(&back);
    ue_diag_free(&d);
}

/* A recorded selection is used as it is: a LOD 1 export whose mesh names were changed (nothing
 * to infer from) still matches. */
static void test_recorded_selection_beats_names(void) {
    fixture f;
    REQUIRE(setup(&f, 1, 0));
    for (size_t m = 0; m < f.s.mesh_count; m++) snprintf(f.s.meshes[m].name, sizeof f.s.meshes[m].name, "Cube.%03zu", m);
    edit_ctx x;
    CHECK_EQ_U(run_matcher(&f, &x), UE_OK);
    CHECK_EQ_U(x.eo.lod, 1);
    matcher_free(&x);
    teardown(&f);
}

int main(void) {
    RUN(test_client_rewrite_is_matched);
    RUN(test_client_suffix_is_undone);
    RUN(test_three_wrapper_and_names);
    RUN(test_renamed_node_is_found_by_position);
    RUN(test_deleted_node_is_removed);
    RUN(test_deleted_holder_is_refused);
    RUN(test_selection_is_recorded);
    RUN(test_recorded_selection_beats_names);
    return TEST_SUMMARY();
}
