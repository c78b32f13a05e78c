/* unearth tests — new MSH models from a scene (ue_msh_from_scene): the sample robot through
 * the scene and back, hand-built scenes (cube, batch splitting, names, a CUBICSPLINE clip) and
 * every refusal with the glTF path it names. */
#include <math.h>

#include "test.h"
#include "samples/samples.h"
#include "unearth/gltf.h"
#include "unearth/gltf_read.h"
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

/* `--group all --lod 1` names holders "<node>_group0" and their meshes "<node>_lod1_group0": the
 * mesh name puts them back in LOD 1 (body, head and legs have LOD 1 slots). */
static void group_holders_keep_their_lod(void) {
    ue_msh orig, back;
    REQUIRE(load_robot(&orig));
    ue_scene s;
    ue_scene_init(&s);
    ue_msh_export_options o = {1, UE_MSH_GROUP_ALL, 0};
    REQUIRE(ue_msh_to_scene(&orig, "robot", &o, &s, NULL) == UE_OK);
    REQUIRE(ue_msh_from_scene(&s, NULL, &back, NULL) == UE_OK);
    CHECK_EQ_U(back.slot_count, 3);
    static const size_t with_lod1[3] = {0, 1, 5};
    for (size_t k = 0; k < 3; k++) {
        CHECK(back.nodes[with_lod1[k]].slot[1 * UE_MSH_GROUPS + 0] != UE_MSH_NONE);
        CHECK_EQ_U(back.nodes[with_lod1[k]].slot[0], UE_MSH_NONE);
    }
    ue_scene_free(&s);
    ue_msh_free(&back);
    ue_msh_free(&orig);
}

/* ---- hand-built scenes ------------------------------------------------------------------------ */

/* The corners of a cube ±1 (bit 0: x, bit 1: y, bit 2: z) and its 12 triangles, counter-
 * clockwise seen from outside (glTF's front faces): ±X, ±Y first, then ±Z. */
static const uint32_t cube_tris[36] = {1, 3, 7, 1, 7, 5, 0, 4, 6, 0, 6, 2, 2, 6, 7, 2, 7, 3,
                                       0, 1, 5, 0, 5, 4, 4, 5, 7, 4, 7, 6, 0, 2, 3, 0, 3, 1};

static void cube_corner(uint32_t i, float p[3]) {
    for (int k = 0; k < 3; k++) p[k] = (i >> k) & 1 ? 1.0f : -1.0f;
}

/* One primitive of `tris` cube triangles from `first`, normals along the corner diagonals,
 * UVs from x and y. */
static void cube_primitive(ue_scene *s, int32_t mesh, size_t first, size_t tris, int32_t material) {
    ue_scene_primitive *p = ue_scene_add_primitive(s, mesh);
    REQUIRE(p && ue_scene_primitive_alloc(p, 8, (uint32_t)(3 * tris), UE_ATTR_NORMAL | UE_ATTR_UV0) == UE_OK);
    for (uint32_t v = 0; v < 8; v++) {
        cube_corner(v, &p->positions[3 * v]);
        for (int k = 0; k < 3; k++) p->normals[3 * v + (uint32_t)k] = p->positions[3 * v + (uint32_t)k] / sqrtf(3.0f);
        p->uv[0][2 * v] = p->positions[3 * v] * 0.25f + 0.5f;
        p->uv[0][2 * v + 1] = p->positions[3 * v + 1] * -2.0f;
    }
    memcpy(p->indices, cube_tris + 3 * first, 3 * tris * sizeof *p->indices);
    p->material = material;
}

/* A scene of one root node `name` at translation (1, 2, 3) carrying a cube in two primitives:
 * the side faces with material "steel", top and bottom with "material_7". */
static int32_t cube_scene(ue_scene *s, const char *name) {
    ue_scene_init(s);
    int32_t node = ue_scene_add_node(s, name, -1), mesh = ue_scene_add_mesh(s, "cube");
    int32_t steel = ue_scene_add_material(s, "steel"), seven = ue_scene_add_material(s, "material_7");
    s->nodes[node].mesh = mesh;
    s->nodes[node].translation[0] = 1, s->nodes[node].translation[1] = 2, s->nodes[node].translation[2] = 3;
    cube_primitive(s, mesh, 0, 8, steel);
    cube_primitive(s, mesh, 8, 4, seven);
    return node;
}

static void cube_becomes_a_model(void) {
    ue_scene s;
    cube_scene(&s, "cube");
    ue_msh m;
    ue_diag d = {0};
    ue_result r = ue_msh_from_scene(&s, NULL, &m, &d);
    if (r != UE_OK) dump_diag(&d);
    REQUIRE(r == UE_OK);
    CHECK_EQ_U(m.node_count, 1);
    CHECK_STR(ue_msh_node_name(&m, 0), "cube");
    CHECK_EQ_U(m.slot_count, 1);
    CHECK_EQ_U(m.nodes[0].slot[0], 0);
    for (int c = 1; c < 15; c++) CHECK_EQ_U(m.nodes[0].slot[c], UE_MSH_NONE);
    /* Each primitive keeps only the corners it uses: 8 for the sides, 8 for top and bottom. */
    CHECK_EQ_U(m.vertex_count, 16);
    CHECK_EQ_U(m.batch_count, 2);
    CHECK_EQ_U(m.batches[0].material, 8); /* "steel" comes after the explicit row 7 */
    CHECK_EQ_U(m.batches[1].material, 7);
    CHECK_EQ_U(m.batches[0].index_count, 24);
    CHECK_EQ_U(m.batches[1].base_vertex, 8);
    CHECK_EQ_U(m.tri_count, 12);
    /* Rest key: glTF (1, 2, 3) is engine (1, 3, 2) (Y and Z swap). */
    const ue_msh_key *k = &m.keys[m.nodes[0].fallback_key];
    CHECK(k->position[0] == 1 && k->position[1] == 3 && k->position[2] == 2);
    CHECK(k->quat[0] == 0 && k->quat[1] == 0 && k->quat[2] == 0 && k->quat[3] == 32767);
    /* Vertices: engine corner = glTF corner with y and z swapped; normal round(±127/√3) = ±73
     * with the corner's signs; UV u = x/4 + 1/2, v = −2·y_gltf (the engine's z) ×1024. */
    for (size_t v = 0; v < m.vertex_count; v++) {
        const float *p = &m.positions[3 * v];
        for (int c = 0; c < 3; c++) {
            CHECK(fabsf(p[c]) == 1.0f);
            CHECK_EQ_U((uint8_t)m.normals[4 * v + (size_t)c], (uint8_t)(p[c] > 0 ? 73 : -73));
        }
        CHECK_EQ_U((uint16_t)m.uv0[2 * v], (uint16_t)(p[0] > 0 ? 768 : 256));
        CHECK_EQ_U((uint16_t)m.uv0[2 * v + 1], (uint16_t)(int16_t)(p[2] > 0 ? -2048 : 2048));
    }
    /* Res7: every face normal is an engine axis, outward: the triangle's corners lie on that
     * face; two triangles per face, and on a closed cube every side has a neighbour that links
     * back through the side its selector names. */
    int per_axis[3][2] = {{0, 0}, {0, 0}, {0, 0}};
    for (size_t t = 0; t < m.tri_count; t++) {
        const ue_msh_tri *td = &m.tris[t];
        int axis = -1;
        for (int c = 0; c < 3; c++)
            if (abs(td->normal[c]) == 32767) axis = c;
            else CHECK_EQ_U(td->normal[c], 0);
        REQUIRE(axis >= 0);
        float side = td->normal[axis] > 0 ? 1.0f : -1.0f;
        per_axis[axis][side > 0]++;
        const ue_msh_batch *bt = &m.batches[t < 8 ? 0 : 1];
        size_t local = t < 8 ? t : t - 8;
        for (int c = 0; c < 3; c++) {
            uint32_t v = bt->base_vertex + m.indices[bt->index_start + 3 * local + (size_t)c];
            CHECK(m.positions[3 * v + (size_t)axis] == side);
        }
        for (int e = 0; e < 3; e++) {
            REQUIRE(td->link[e] < m.tri_count);
            uint16_t sel = ue_msh_tri_selector(td->sel_packed, e);
            REQUIRE(sel < 3);
            CHECK_EQ_U(m.tris[td->link[e]].link[sel], t);
        }
    }
    for (int a = 0; a < 3; a++) CHECK(per_axis[a][0] == 2 && per_axis[a][1] == 2);
    /* Bounds: the slot's box is the cube, its sphere the circumscribed one. */
    for (int c = 0; c < 3; c++) CHECK(m.slots[0].aabb_min[c] == -1 && m.slots[0].aabb_max[c] == 1);
    CHECK(fabsf(m.slots[0].sphere_radius - sqrtf(3.0f)) < 1e-6f);
    CHECK(written_parses(&m));
    ue_msh_free(&m);
    ue_scene_free(&s);
    ue_diag_free(&d);
}

/* 22,000 separate triangles (66,000 vertices) in one primitive without indices (a plain list):
 * two batches, the first full (65,535 indices), and the engine's traversal gives back every
 * triangle once, unchanged. */
static void big_primitive_splits_into_batches(void) {
    enum { TRIS = 22000 };
    ue_scene s;
    ue_scene_init(&s);
    int32_t node = ue_scene_add_node(&s, "strip", -1), mesh = ue_scene_add_mesh(&s, "strip");
    s.nodes[node].mesh = mesh;
    ue_scene_primitive *p = ue_scene_add_primitive(&s, mesh);
    REQUIRE(p && ue_scene_primitive_alloc(p, 3 * TRIS, 0, UE_ATTR_NORMAL) == UE_OK);
    for (uint32_t t = 0; t < TRIS; t++)
        for (uint32_t c = 0; c < 3; c++) {
            float *q = &p->positions[9 * t + 3 * c];
            q[0] = (float)t, q[1] = c == 1 ? 1.0f : 0.0f, q[2] = c == 2 ? 1.0f : 0.0f;
            p->normals[9 * t + 3 * c + 2] = 1;
        }
    ue_msh m;
    REQUIRE(ue_msh_from_scene(&s, NULL, &m, NULL) == UE_OK);
    CHECK_EQ_U(m.batch_count, 2);
    CHECK_EQ_U(m.batches[0].index_count, 65535);
    CHECK_EQ_U(m.batches[1].index_count, 3 * TRIS - 65535);
    CHECK_EQ_U(m.batches[1].base_vertex, 65535);
    CHECK_EQ_U(m.vertex_count, 3 * TRIS);
    CHECK_EQ_U(m.slots[0].tri_count, TRIS);
    unsigned char *seen = calloc(TRIS, 1);
    REQUIRE(seen);
    size_t bad = 0;
    for (size_t b = 0; b < m.batch_count; b++) {
        const ue_msh_batch *bt = &m.batches[b];
        for (size_t i = 0; i + 3 <= bt->index_count; i += 3) {
            float corner[3][3];
            for (int c = 0; c < 3; c++) {
                uint32_t idx = m.indices[bt->index_start + i + (size_t)c];
                uint64_t v = (uint64_t)bt->base_vertex + idx;
                if (idx > 65535 || v >= m.vertex_count) bad++;
                /* back to glTF: swap y/z and reverse the winding (a, c, b) */
                int to = c == 0 ? 0 : 3 - c;
                const float *e = &m.positions[3 * v];
                corner[to][0] = e[0], corner[to][1] = e[2], corner[to][2] = e[1];
            }
            float tf = corner[0][0];
            size_t t = (size_t)tf;
            if (tf < 0 || t >= TRIS || seen[t]) {
                bad++;
                continue;
            }
            seen[t] = 1;
            for (int c = 0; c < 3; c++)
                if (memcmp(corner[c], &p->positions[9 * t + 3 * (size_t)c], sizeof corner[c])) bad++;
        }
    }
    CHECK_EQ_U(bad, 0);
    size_t count = 0;
    for (size_t t = 0; t < TRIS; t++) count += seen[t];
    CHECK_EQ_U(count, TRIS);
    free(seen);
    ue_msh_free(&m);
    ue_scene_free(&s);
}

static void cyrillic_names_go_to_cp1251(void) {
    ue_scene s;
    cube_scene(&s, "Башня");
    ue_msh m;
    REQUIRE(ue_msh_from_scene(&s, NULL, &m, NULL) == UE_OK);
    REQUIRE(m.name_count == 1 && m.names[0].present);
    CHECK_EQ_U(m.names[0].length, 5);
    CHECK_MEM(m.names[0].text, "\xC1\xE0\xF8\xED\xFF", 5);
    ue_msh_free(&m);
    ue_scene_free(&s);
}

static void expect_refusal(ue_scene *s, ue_result want, const char *code, const char *path) {
    ue_msh m;
    ue_diag d = {0};
    ue_result r = ue_msh_from_scene(s, NULL, &m, &d);
    CHECK_EQ_U(r, want);
    if (!diag_has(&d, code, path)) {
        fprintf(stderr, "  wanted %s at %s, got:\n", code, path);
        dump_diag(&d);
        CHECK(diag_has(&d, code, path));
    }
    CHECK_EQ_U(m.node_count, 0); /* nothing half-built comes back */
    ue_msh_free(&m);
    ue_diag_free(&d);
    ue_scene_free(s);
}

static void name_outside_cp1251_is_refused(void) {
    ue_scene s;
    cube_scene(&s, "robot\xE2\x98\x83"); /* U+2603 SNOWMAN */
    ue_msh m;
    ue_diag d = {0};
    CHECK_EQ_U(ue_msh_from_scene(&s, NULL, &m, &d), UE_ERR_INVALID);
    const ue_diag_item *it = diag_find(&d, "msh.import.name", "/nodes/0/name");
    REQUIRE(it);
    CHECK(strstr(it->message, "U+2603 at byte 5") != NULL);
    ue_msh_free(&m);
    ue_diag_free(&d);
    ue_scene_free(&s);
}

/* A cube whose translation is a CUBICSPLINE from (0,0,0) at 0 s to (0,1,0) at 1 s with zero
 * tangents (y = 3s² − 2s³), and whose rotation STEPs to 90° about glTF Y at 0.5 s. */
static void cubic_clip_is_resampled_to_frames(void) {
    ue_scene s;
    int32_t node = cube_scene(&s, "arm");
    int32_t clip = ue_scene_add_animation(&s, "swing");
    ue_anim_channel *move = ue_scene_add_channel(&s, clip, UE_TARGET_TRANSLATION, UE_INTERP_CUBIC, 2);
    REQUIRE(move);
    move->node = node;
    move->times[0] = 0, move->times[1] = 1;
    move->values[9 + 3 + 1] = 1; /* key 1: in tangent (0,0,0), value (0,1,0), out tangent (0,0,0) */
    ue_anim_channel *turn = ue_scene_add_channel(&s, clip, UE_TARGET_ROTATION, UE_INTERP_STEP, 2);
    REQUIRE(turn);
    turn->node = node;
    turn->times[0] = 0, turn->times[1] = 0.5f;
    const float h = sqrtf(0.5f);
    const float rot[8] = {0, 0, 0, 1, 0, h, 0, h};
    memcpy(turn->values, rot, sizeof rot);
    ue_msh m;
    ue_diag d = {0};
    ue_result r = ue_msh_from_scene(&s, NULL, &m, &d);
    if (r != UE_OK) dump_diag(&d);
    REQUIRE(r == UE_OK);
    CHECK_EQ_U(m.frame_count, 31); /* 1 s at 30 fps: frames 0..30 */
    CHECK_EQ_U(m.key_count, 31);   /* the height changes at every frame */
    REQUIRE(m.nodes[0].anim_map_start == 0 && m.nodes[0].fallback_key == 30);
    for (size_t f = 0; f <= 30; f++) {
        const ue_msh_key *k = &m.keys[f];
        double x = (double)f / 30.0, want = 3 * x * x - 2 * x * x * x;
        CHECK(k->time == (float)f);
        CHECK(k->position[0] == 0 && k->position[1] == 0);
        CHECK(fabs(k->position[2] - want) < 1e-6); /* glTF Y is the engine's Z */
        /* 90° about glTF +Y is −90° about the engine's +Z: (0, 0, −√½, √½) ×32767. */
        int16_t qz = f < 15 ? 0 : -23170, qw = f < 15 ? 32767 : 23170;
        CHECK(k->quat[0] == 0 && k->quat[1] == 0 && k->quat[2] == qz && k->quat[3] == qw);
    }
    /* The engine plays it back: at frame 20 it shows that key. */
    ue_msh_pose pose;
    REQUIRE(ue_msh_sample_node(&m, 0, 20.0f, &pose) == UE_OK);
    CHECK(fabsf(pose.translation[2] - (float)(3 * 4.0 / 9 - 2 * 8.0 / 27)) < 1e-6f);
    ue_msh_free(&m);
    /* At 10 fps the same clip has 11 frames. */
    ue_msh_import_options o = {.fps = 10.0f};
    REQUIRE(ue_msh_from_scene(&s, &o, &m, NULL) == UE_OK);
    CHECK_EQ_U(m.frame_count, 11);
    ue_msh_free(&m);
    ue_scene_free(&s);
    ue_diag_free(&d);
}

/* A held pose folds: a LINEAR clip that moves, then stays, ends its track where it stops. */
static void held_poses_fold(void) {
    ue_scene s;
    int32_t node = cube_scene(&s, "lift");
    int32_t clip = ue_scene_add_animation(&s, "lift");
    ue_anim_channel *move = ue_scene_add_channel(&s, clip, UE_TARGET_TRANSLATION, UE_INTERP_LINEAR, 3);
    REQUIRE(move);
    move->node = node;
    move->times[0] = 0, move->times[1] = 0.1f, move->times[2] = 0.5f; /* frames 0, 3, 15 */
    move->values[4] = 3, move->values[7] = 3;
    ue_msh m;
    REQUIRE(ue_msh_from_scene(&s, NULL, &m, NULL) == UE_OK);
    /* Frames 0..3 rise, 3..15 hold: keys 0, 1, 2, 3 and the track ends at frame 3. */
    CHECK_EQ_U(m.key_count, 4);
    CHECK_EQ_U(m.frame_count, 4);
    CHECK(m.keys[3].time == 3 && m.keys[3].position[2] == 3 && m.keys[1].position[2] == 1);
    ue_msh_free(&m);
    ue_scene_free(&s);
}

/* ---- refusals: each names the glTF path ------------------------------------------------------ */

static ue_scene_primitive *first_primitive(ue_scene *s) { return &s->meshes[0].primitives[0]; }

/* The cube skinned to joints [node 0, a child node "b"]: every vertex has `weight` on joint
 * `joint` and the rest on the other; inverse bind matrices translate by (0, −5, 0) and 0. */
static void skinned_cube(ue_scene *s, float weight, uint16_t joint) {
    cube_scene(s, "a");
    int32_t b = ue_scene_add_node(s, "b", 0);
    int32_t skin = ue_scene_add_skin(s, "skin", 2);
    REQUIRE(b >= 0 && skin >= 0);
    s->skins[skin].joints[0] = 0, s->skins[skin].joints[1] = b;
    s->skins[skin].inverse_bind[13] = -5.0f; /* column-major: translation y of joint 0 */
    s->nodes[0].skin = skin;
    for (size_t k = 0; k < 2; k++) {
        ue_scene_primitive *p = &s->meshes[0].primitives[k];
        p->influences = 4;
        p->joints = calloc(4 * 8, sizeof *p->joints);
        p->weights = calloc(4 * 8, sizeof *p->weights);
        REQUIRE(p->joints && p->weights);
        for (int v = 0; v < 8; v++) {
            p->joints[4 * v] = joint, p->weights[4 * v] = weight;
            p->joints[4 * v + 1] = (uint16_t)(1 - joint), p->weights[4 * v + 1] = 1 - weight;
        }
    }
}

/* Skinned whole to the node that carries the mesh: the geometry in the joint's bind space. */
static void rigidly_skinned_mesh_imports(void) {
    ue_scene s;
    skinned_cube(&s, 1.0f, 0);
    ue_msh m;
    ue_diag d = {0};
    ue_result r = ue_msh_from_scene(&s, NULL, &m, &d);
    if (r != UE_OK) dump_diag(&d);
    REQUIRE(r == UE_OK);
    CHECK_EQ_U(m.node_count, 2);
    /* glTF y −5 ± 1 is the engine's z */
    for (int c = 0; c < 3; c++) CHECK(m.slots[0].aabb_min[c] == (c == 2 ? -6 : -1) && m.slots[0].aabb_max[c] == (c == 2 ? -4 : 1));
    ue_msh_free(&m);
    ue_scene_free(&s);
    ue_diag_free(&d);
}

static void each_refusal_names_its_path(void) {
    ue_scene s;
    cube_scene(&s, "a");
    first_primitive(&s)->uv[1] = calloc(16, sizeof(float));
    expect_refusal(&s, UE_ERR_INVALID, "msh.import.primitive", "/meshes/0/primitives/0");

    cube_scene(&s, "a");
    s.meshes[0].primitives[1].colors[0] = calloc(32, sizeof(float));
    s.meshes[0].primitives[1].colors[1] = calloc(32, sizeof(float));
    for (int i = 0; i < 32; i++) s.meshes[0].primitives[1].colors[0][i] = s.meshes[0].primitives[1].colors[1][i] = 1;
    expect_refusal(&s, UE_ERR_INVALID, "msh.import.primitive", "/meshes/0/primitives/1");

    /* Skinned with weights spread over two joints: MSH has no weights. */
    skinned_cube(&s, 0.5f, 0);
    expect_refusal(&s, UE_ERR_INVALID, "msh.import.skin", "/meshes/0/primitives/0");
    /* Bound whole to another node than the one carrying the mesh. */
    skinned_cube(&s, 1.0f, 1);
    expect_refusal(&s, UE_ERR_INVALID, "msh.import.skin", "/meshes/0/primitives/0");

    cube_scene(&s, "a");
    first_primitive(&s)->uv[0][5] = 40.0f; /* vertex 2's v: 40 × 1024 passes int16 */
    expect_refusal(&s, UE_ERR_INVALID, "msh.import.uv", "/meshes/0/primitives/0");

    cube_scene(&s, "a");
    s.nodes[0].scale[1] = 2;
    expect_refusal(&s, UE_ERR_INVALID, "msh.import.scale", "/nodes/0/scale");

    cube_scene(&s, "a");
    int32_t clip = ue_scene_add_animation(&s, "grow");
    ue_anim_channel *ch = ue_scene_add_channel(&s, clip, UE_TARGET_SCALE, UE_INTERP_LINEAR, 2);
    REQUIRE(ch);
    ch->node = 0, ch->times[1] = 1;
    for (int i = 0; i < 6; i++) ch->values[i] = i < 3 ? 1.0f : 2.0f;
    expect_refusal(&s, UE_ERR_INVALID, "msh.import.scale", "/animations/0/channels/0");

    cube_scene(&s, "a");
    clip = ue_scene_add_animation(&s, "forever");
    ch = ue_scene_add_channel(&s, clip, UE_TARGET_TRANSLATION, UE_INTERP_LINEAR, 2);
    REQUIRE(ch);
    ch->node = 0, ch->times[1] = 1e6f; /* 30 million frames */
    expect_refusal(&s, UE_ERR_LIMIT, "msh.import.limit", "/animations/0");

    /* 30 nodes moving at every frame for 100 s: 90,030 keys after resampling, past Res8. */
    cube_scene(&s, "a");
    clip = ue_scene_add_animation(&s, "long");
    for (int k = 0; k < 30; k++) {
        int32_t n = ue_scene_add_node(&s, "part", 0);
        ch = ue_scene_add_channel(&s, clip, UE_TARGET_TRANSLATION, UE_INTERP_LINEAR, 2);
        REQUIRE(n >= 0 && ch);
        ch->node = n, ch->times[1] = 100, ch->values[3] = 1;
    }
    expect_refusal(&s, UE_ERR_LIMIT, "msh.import.limit", "/animations/0");

    /* A holder (a cell of its parent) with a child of its own. */
    cube_scene(&s, "a");
    int32_t holder = ue_scene_add_node(&s, "a_lod1_group0", 0);
    s.nodes[holder].mesh = 0;
    ue_scene_add_node(&s, "b", holder);
    expect_refusal(&s, UE_ERR_INVALID, "msh.import.holder", "/nodes/1");

    /* Two meshes for one cell: the node's own mesh is LOD 0 group 0, and so is "a_group0". */
    cube_scene(&s, "a");
    holder = ue_scene_add_node(&s, "a_group0", 0);
    s.nodes[holder].mesh = 0;
    expect_refusal(&s, UE_ERR_INVALID, "msh.import.cell", "/nodes/1");

    /* Nodes without geometry. */
    ue_scene_init(&s);
    ue_scene_add_node(&s, "empty", -1);
    expect_refusal(&s, UE_ERR_INVALID, "msh.import.empty", "/meshes");

    /* Broken IR (a NaN position) is stopped by the scene check before anything is built. */
    cube_scene(&s, "a");
    first_primitive(&s)->positions[4] = NAN;
    ue_msh m;
    CHECK_EQ_U(ue_msh_from_scene(&s, NULL, &m, NULL), UE_ERR_INVALID);
    ue_msh_free(&m);
    ue_scene_free(&s);
}

/* 65,536 triangles pass the 16-bit triangle ranges even when split into batches. */
static void too_many_triangles_is_a_limit(void) {
    enum { TRIS = 65536 };
    ue_scene s;
    ue_scene_init(&s);
    int32_t node = ue_scene_add_node(&s, "big", -1), mesh = ue_scene_add_mesh(&s, "big");
    s.nodes[node].mesh = mesh;
    ue_scene_primitive *p = ue_scene_add_primitive(&s, mesh);
    REQUIRE(p && ue_scene_primitive_alloc(p, 3 * TRIS, 3 * TRIS, 0) == UE_OK);
    for (uint32_t i = 0; i < 3 * TRIS; i++) {
        p->positions[3 * i] = (float)(i / 3);
        p->positions[3 * i + 1 + i % 3 / 2] = i % 3 ? 1.0f : 0.0f;
        p->indices[i] = i;
    }
    expect_refusal(&s, UE_ERR_LIMIT, "msh.import.limit", "/meshes/0/primitives/0");
}

/* ---- through a written and re-read .glb (the glTF reader) ----------------------------------- */

static bool through_glb(const ue_scene *in, ue_scene *out) {
    ue_buf glb = {0};
    ue_gltf_options o = {UE_GLTF_GLB, NULL, false, false};
    ue_diag d = {0};
    ue_scene_init(out);
    bool ok = ue_gltf_export(in, &o, &glb, NULL, &d) == UE_OK &&
              ue_gltf_read(glb.data, glb.size, NULL, UE_MODE_STRICT, out, &d) == UE_OK;
    if (!ok) dump_diag(&d);
    ue_buf_free(&glb);
    ue_diag_free(&d);
    return ok;
}

static void robot_round_trips_through_a_glb(void) {
    ue_msh orig, back;
    REQUIRE(load_robot(&orig));
    ue_scene s1, read, s2;
    REQUIRE(export_scene(&orig, UE_MSH_LOD_ALL, &s1));
    REQUIRE(through_glb(&s1, &read));
    ue_diag d = {0};
    ue_result r = ue_msh_from_scene(&read, NULL, &back, &d);
    if (r != UE_OK) dump_diag(&d);
    REQUIRE(r == UE_OK);
    CHECK(written_parses(&back));
    check_same_matrix(&orig, &back);
    check_same_motion(&orig, &back);
    REQUIRE(export_scene(&back, UE_MSH_LOD_ALL, &s2));
    check_same_scene(&s1, &s2);
    /* The default export (LOD 0 group 0 on the nodes themselves) imports as that one cell. */
    ue_scene plain, plain_read;
    ue_msh lod0;
    REQUIRE(export_scene(&orig, 0, &plain));
    REQUIRE(through_glb(&plain, &plain_read));
    REQUIRE(ue_msh_from_scene(&plain_read, NULL, &lod0, NULL) == UE_OK);
    CHECK_EQ_U(lod0.slot_count, 6);
    for (size_t n = 0; n < lod0.node_count; n++) {
        CHECK_EQ_U(lod0.nodes[n].slot[0] != UE_MSH_NONE, 1);
        for (int c = 1; c < 15; c++) CHECK_EQ_U(lod0.nodes[n].slot[c], UE_MSH_NONE);
    }
    check_same_motion(&orig, &lod0);
    ue_msh_free(&lod0);
    ue_scene_free(&plain);
    ue_scene_free(&plain_read);
    ue_scene_free(&s1);
    ue_scene_free(&read);
    ue_scene_free(&s2);
    ue_msh_free(&back);
    ue_msh_free(&orig);
    ue_diag_free(&d);
}

/* A hand-written .gltf in the style of Blender's exporter: a root node with a matrix, a child
 * holding a triangle (u8 indices, no normals), a material by name, a CUBICSPLINE rotation, the
 * buffer as a base64 data: URI. */
static const char blender_gltf[] =
    "{\"asset\":{\"version\":\"2.0\",\"generator\":\"Khronos glTF Blender I/O\"},"
    "\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
    "\"nodes\":[{\"name\":\"Hull\",\"children\":[1],\"matrix\":[1,0,0,0,0,1,0,0,0,0,1,0,0,2,0,1]},"
    "{\"name\":\"Turret\",\"mesh\":0,\"translation\":[0,0.5,0]}],"
    "\"materials\":[{\"name\":\"material_3\"}],"
    "\"meshes\":[{\"name\":\"Tri\",\"primitives\":[{\"attributes\":{\"POSITION\":0},\"indices\":1,\"material\":0}]}],"
    "\"animations\":[{\"name\":\"Spin\",\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"rotation\"}}],"
    "\"samplers\":[{\"input\":2,\"output\":3,\"interpolation\":\"CUBICSPLINE\"}]}],"
    "\"accessors\":["
    "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[1,1,0]},"
    "{\"bufferView\":1,\"componentType\":5121,\"count\":3,\"type\":\"SCALAR\"},"
    "{\"bufferView\":2,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\",\"min\":[0],\"max\":[0.1]},"
    "{\"bufferView\":3,\"componentType\":5126,\"count\":6,\"type\":\"VEC4\"}],"
    "\"bufferViews\":["
    "{\"buffer\":0,\"byteOffset\":0,\"byteLength\":36},"
    "{\"buffer\":0,\"byteOffset\":36,\"byteLength\":3},"
    "{\"buffer\":0,\"byteOffset\":40,\"byteLength\":8},"
    "{\"buffer\":0,\"byteOffset\":48,\"byteLength\":96}],"
    "\"buffers\":[{\"byteLength\":144,\"uri\":\"data:application/octet-stream;base64,";

/* The buffer: positions (0,0,0) (1,0,0) (0,1,0); indices 0 1 2 (+1 pad); times 0, 0.1; per key
 * in-tangent 0, value, out-tangent 0: identity, then 180° about Y (0, 1, 0, 0). */
static size_t blender_buffer(uint8_t *b) {
    const float pos[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    const float times[2] = {0, 0.1f};
    const float rot[24] = {0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0};
    memset(b, 0, 144);
    memcpy(b, pos, 36);
    b[36] = 0, b[37] = 1, b[38] = 2;
    memcpy(b + 40, times, 8);
    memcpy(b + 48, rot, 96);
    return 144;
}

static void base64(const uint8_t *in, size_t n, char *out) {
    static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        size_t left = n - i;
        uint32_t v = (uint32_t)in[i] << 16 | (left > 1 ? (uint32_t)in[i + 1] << 8 : 0) | (left > 2 ? in[i + 2] : 0);
        out[o++] = abc[(v >> 18) & 63];
        out[o++] = abc[(v >> 12) & 63];
        out[o++] = left > 1 ? abc[(v >> 6) & 63] : '=';
        out[o++] = left > 2 ? abc[v & 63] : '=';
    }
    out[o] = 0;
}

static void blender_style_gltf_imports(void) {
    uint8_t bin[144];
    char b64[200], doc[sizeof blender_gltf + 256];
    base64(bin, blender_buffer(bin), b64);
    snprintf(doc, sizeof doc, "%s%s\"}]}", blender_gltf, b64);
    ue_scene s;
    ue_scene_init(&s);
    ue_diag d = {0};
    ue_result r = ue_gltf_read((const uint8_t *)doc, strlen(doc), NULL, UE_MODE_STRICT, &s, &d);
    if (r != UE_OK) dump_diag(&d);
    REQUIRE(r == UE_OK);
    ue_msh m;
    r = ue_msh_from_scene(&s, NULL, &m, &d);
    if (r != UE_OK) dump_diag(&d);
    REQUIRE(r == UE_OK);
    /* "Hull" is a root with a translation: a model node, not a wrapper. */
    CHECK_EQ_U(m.node_count, 2);
    CHECK_STR(ue_msh_node_name(&m, 0), "Hull");
    CHECK_STR(ue_msh_node_name(&m, 1), "Turret");
    CHECK_EQ_U(m.nodes[1].parent, 0);
    const ue_msh_key *hull = &m.keys[m.nodes[0].fallback_key];
    CHECK(hull->position[0] == 0 && hull->position[1] == 0 && hull->position[2] == 2); /* matrix (0,2,0) */
    CHECK_EQ_U(m.batches[0].material, 3);
    /* Engine triangle (a, c, b) of glTF (0, 1, 2): corners (0,0,0), (0,0,1), (1,0,0). */
    CHECK_EQ_U(m.vertex_count, 3);
    CHECK(m.positions[5] == 1 && m.positions[6] == 1);
    /* 0.1 s = frame 3: the spin ends there, 180° about glTF Y = engine −Z: (0, 0, −1, 0). */
    CHECK_EQ_U(m.frame_count, 4);
    const ue_msh_key *end = &m.keys[m.nodes[1].fallback_key];
    CHECK(end->time == 3 && end->quat[2] == -32767 && end->quat[3] == 0);
    CHECK(end->position[2] == 0.5f);
    CHECK(written_parses(&m));
    ue_msh_free(&m);
    ue_scene_free(&s);
    ue_diag_free(&d);
}

int main(void) {
    RUN(robot_round_trips_through_the_scene);
    RUN(group_holders_keep_their_lod);
    RUN(cube_becomes_a_model);
    RUN(big_primitive_splits_into_batches);
    RUN(cyrillic_names_go_to_cp1251);
    RUN(name_outside_cp1251_is_refused);
    RUN(cubic_clip_is_resampled_to_frames);
    RUN(held_poses_fold);
    RUN(rigidly_skinned_mesh_imports);
    RUN(each_refusal_names_its_path);
    RUN(too_many_triangles_is_a_limit);
    RUN(robot_round_trips_through_a_glb);
    RUN(blender_style_gltf_imports);
    return TEST_SUMMARY();
}
