/* Tests of edit mode's geometry pairing: scenes that a client re-exported (vertices split,
 * welded, reordered; triangles rotated and reordered; primitives reordered or merged; values
 * quantised) write the model back byte-identical, and a moved vertex changes only its bytes. */
#include <math.h>
#include <stdlib.h>

#include "test.h"
#include "msh_edit_fixture.h"
#include "msh_resources.h"
#include "parkan/parkan_axes.h"
#include "samples/samples.h"
#include "unearth/msh_import.h"

static bool load(fixture *f) {
    if (ue_msh_parse(f->original.data, f->original.size, UE_MODE_STRICT, &f->m, NULL) != UE_OK) return false;
    ue_scene_init(&f->s);
    return ue_msh_to_scene(&f->m, "model", NULL, &f->s, NULL) == UE_OK;
}

static bool setup_robot(fixture *f) {
    memset(f, 0, sizeof *f);
    return ue_sample_robot(&f->original) == UE_OK && load(f);
}

/* A grid of n × n quads at x offset `dx`, its vertex 1 given twice (a duplicate the model keeps
 * and a welding client merges), as one batch of WEAR row `row` appended to `slot`. */
static ue_result add_grid_batch(ue_msh *m, size_t slot, float dx, uint16_t row) {
    enum { N = 3, NV = (N + 1) * (N + 1) + 1, NI = N * N * 6 };
    float pos[3 * NV], nrm[3 * NV], uv[2 * NV];
    uint16_t idx[NI];
    for (int y = 0, v = 0; y <= N; y++)
        for (int x = 0; x <= N; x++, v++) {
            pos[3 * v] = dx + (float)x, pos[3 * v + 1] = (float)y, pos[3 * v + 2] = 0.25f * (float)((x * y) % 3);
            nrm[3 * v] = 0, nrm[3 * v + 1] = 0, nrm[3 * v + 2] = 1;
            uv[2 * v] = (float)x / N, uv[2 * v + 1] = (float)y / N;
        }
    memcpy(&pos[3 * (NV - 1)], &pos[3], 3 * sizeof *pos);
    memcpy(&nrm[3 * (NV - 1)], &nrm[3], 3 * sizeof *nrm);
    memcpy(&uv[2 * (NV - 1)], &uv[2], 2 * sizeof *uv);
    for (int y = 0, k = 0; y < N; y++)
        for (int x = 0; x < N; x++) {
            uint16_t a = (uint16_t)(y * (N + 1) + x), b = (uint16_t)(a + 1), c = (uint16_t)(a + N + 1), d = (uint16_t)(c + 1);
            if (k == 0) b = NV - 1; /* the first quad uses the duplicate, the second the original */
            idx[k++] = a, idx[k++] = b, idx[k++] = c, idx[k++] = b, idx[k++] = d, idx[k++] = c;
        }
    ue_msh_geometry g = {pos, nrm, uv, NULL, NV, idx, NI, row};
    return ue_msh_replace_slot_geometry(m, slot, &g, NULL);
}

/* One node whose LOD 0 slot holds two batches (rows 0 and `second_row`). */
static bool setup_two_batches(fixture *f, uint16_t second_row) {
    memset(f, 0, sizeof *f);
    uint16_t parents[1] = {0xFFFF};
    const char *names[1] = {"part"};
    ue_msh m;
    size_t slot = 0;
    if (ue_msh_new(&m, 1, parents, names) != UE_OK) return false;
    bool ok = ue_msh_add_slot(&m, 0, 0, 0, &slot) == UE_OK;
    size_t first_batch = m.batch_count, first_tri = m.tri_count;
    ok = ok && add_grid_batch(&m, slot, 0, 0) == UE_OK && add_grid_batch(&m, slot, 5, second_row) == UE_OK;
    if (ok) {
        m.slots[slot].batch_start = (uint16_t)first_batch;
        m.slots[slot].batch_count = (uint16_t)(m.batch_count - first_batch);
        m.slots[slot].tri_start = (uint16_t)first_tri;
        m.slots[slot].tri_count = (uint16_t)(m.tri_count - first_tri);
        ue_msh_recompute_bounds(&m);
    }
    ok = ok && ue_msh_write(&m, &f->original, NULL) == UE_OK;
    ue_msh_free(&m);
    return ok && load(f);
}

/* ---- what clients do to a primitive --------------------------------------------------------- */

static ue_scene_primitive *body(ue_scene *s) {
    for (size_t n = 0; n < s->node_count; n++)
        if (!strcmp(s->nodes[n].name, "body")) return &s->meshes[s->nodes[n].mesh].primitives[0];
    return NULL;
}

static void permute_floats(float **a, int width, const uint32_t *new_of, uint32_t n) {
    if (!*a) return;
    float *b = malloc((size_t)width * n * sizeof *b);
    for (uint32_t v = 0; v < n; v++) memcpy(&b[(size_t)width * new_of[v]], &(*a)[(size_t)width * v], (size_t)width * sizeof *b);
    free(*a);
    *a = b;
}

/* Vertices reordered (reversed, then every third swapped with its neighbour). */
static void reorder_vertices(ue_scene_primitive *p) {
    uint32_t n = p->vertex_count, *new_of = malloc(n * sizeof *new_of);
    for (uint32_t v = 0; v < n; v++) new_of[v] = n - 1 - v;
    for (uint32_t v = 0; v + 1 < n; v += 3) {
        uint32_t t = new_of[v];
        new_of[v] = new_of[v + 1], new_of[v + 1] = t;
    }
    permute_floats(&p->positions, 3, new_of, n);
    permute_floats(&p->normals, 3, new_of, n);
    permute_floats(&p->uv[0], 2, new_of, n);
    permute_floats(&p->colors[0], 4, new_of, n);
    for (uint32_t i = 0; i < p->index_count; i++) p->indices[i] = new_of[p->indices[i]];
    free(new_of);
}

/* Each triangle's corners rotated by its index mod 3 (winding kept), triangles reversed. */
static void rotate_and_reorder_triangles(ue_scene_primitive *p) {
    uint32_t nt = p->index_count / 3, *idx = malloc(p->index_count * sizeof *idx);
    for (uint32_t t = 0; t < nt; t++)
        for (uint32_t k = 0; k < 3; k++) idx[3 * (nt - 1 - t) + k] = p->indices[3 * t + (k + t) % 3];
    free(p->indices);
    p->indices = idx;
}

static float *grow(float *a, int width, uint32_t n) { return a ? realloc(a, (size_t)width * n * sizeof *a) : NULL; }

/* Every corner its own vertex (what a client does on seams everywhere: "unweld"). */
static void split_every_corner(ue_scene_primitive *p) {
    uint32_t n = p->index_count;
    float *pos = malloc(3 * (size_t)n * sizeof *pos), *nrm = p->normals ? malloc(3 * (size_t)n * sizeof *nrm) : NULL;
    float *uv = p->uv[0] ? malloc(2 * (size_t)n * sizeof *uv) : NULL, *col = p->colors[0] ? malloc(4 * (size_t)n * sizeof *col) : NULL;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = p->indices[i];
        memcpy(&pos[3 * i], &p->positions[3 * v], 3 * sizeof *pos);
        if (nrm) memcpy(&nrm[3 * i], &p->normals[3 * v], 3 * sizeof *nrm);
        if (uv) memcpy(&uv[2 * i], &p->uv[0][2 * v], 2 * sizeof *uv);
        if (col) memcpy(&col[4 * i], &p->colors[0][4 * v], 4 * sizeof *col);
        p->indices[i] = i;
    }
    free(p->positions), free(p->normals), free(p->uv[0]), free(p->colors[0]);
    p->positions = pos, p->normals = nrm, p->uv[0] = uv, p->colors[0] = col;
    p->vertex_count = n;
}

/* Vertices equal in every attribute merged into the first ("weld"). */
static void weld(ue_scene_primitive *p) {
    uint32_t n = p->vertex_count, *to = malloc(n * sizeof *to), kept = 0;
    for (uint32_t v = 0; v < n; v++) {
        to[v] = UINT32_MAX;
        for (uint32_t w = 0; w < v && to[v] == UINT32_MAX; w++)
            if (!memcmp(&p->positions[3 * v], &p->positions[3 * w], 12) && !memcmp(&p->normals[3 * v], &p->normals[3 * w], 12) &&
                !memcmp(&p->uv[0][2 * v], &p->uv[0][2 * w], 8))
                to[v] = to[w];
        if (to[v] == UINT32_MAX) {
            to[v] = kept;
            memmove(&p->positions[3 * kept], &p->positions[3 * v], 12);
            memmove(&p->normals[3 * kept], &p->normals[3 * v], 12);
            memmove(&p->uv[0][2 * kept], &p->uv[0][2 * v], 8);
            kept++;
        }
    }
    for (uint32_t i = 0; i < p->index_count; i++) p->indices[i] = to[p->indices[i]];
    p->vertex_count = kept;
    free(to);
}

/* ---- byte-identical round trips ------------------------------------------------------------- */

static void test_reordered_vertices_and_triangles(void) {
    fixture f;
    REQUIRE(setup_robot(&f));
    for (size_t m = 0; m < f.s.mesh_count; m++) {
        reorder_vertices(&f.s.meshes[m].primitives[0]);
        rotate_and_reorder_triangles(&f.s.meshes[m].primitives[0]);
    }
    CHECK_EQ_U(apply_and_write(&f), UE_OK);
    CHECK(identical(&f));
    teardown(&f);
}

static void test_split_on_every_corner(void) {
    fixture f;
    REQUIRE(setup_robot(&f));
    ue_scene_primitive *p = body(&f.s);
    REQUIRE(p != NULL);
    split_every_corner(p);
    CHECK_EQ_U(p->vertex_count, 36u);
    CHECK_EQ_U(apply_and_write(&f), UE_OK);
    CHECK(identical(&f));
    teardown(&f);
}

/* The model's duplicate vertex merged by the client, the primitives swapped: nothing changes. */
static void test_welded_and_primitives_reordered(void) {
    fixture f;
    REQUIRE(setup_two_batches(&f, 1));
    REQUIRE(f.s.mesh_count == 1 && f.s.meshes[0].primitive_count == 2);
    ue_scene_mesh *me = &f.s.meshes[0];
    uint32_t before = me->primitives[0].vertex_count;
    weld(&me->primitives[0]);
    CHECK_EQ_U(me->primitives[0].vertex_count, before - 1);
    ue_scene_primitive t = me->primitives[0];
    me->primitives[0] = me->primitives[1], me->primitives[1] = t;
    CHECK_EQ_U(apply_and_write(&f), UE_OK);
    CHECK(identical(&f));
    teardown(&f);
}

/* Two batches of one WEAR row joined into one primitive (gltf-transform join): unchanged. */
static void test_primitives_of_one_material_merged(void) {
    fixture f;
    REQUIRE(setup_two_batches(&f, 0));
    ue_scene_mesh *me = &f.s.meshes[0];
    REQUIRE(me->primitive_count == 2);
    ue_scene_primitive *a = &me->primitives[0], *b = &me->primitives[1];
    uint32_t nv = a->vertex_count + b->vertex_count, ni = a->index_count + b->index_count;
    a->positions = grow(a->positions, 3, nv), a->normals = grow(a->normals, 3, nv), a->uv[0] = grow(a->uv[0], 2, nv);
    memcpy(&a->positions[3 * (size_t)a->vertex_count], b->positions, 12 * (size_t)b->vertex_count);
    memcpy(&a->normals[3 * (size_t)a->vertex_count], b->normals, 12 * (size_t)b->vertex_count);
    memcpy(&a->uv[0][2 * (size_t)a->vertex_count], b->uv[0], 8 * (size_t)b->vertex_count);
    a->indices = realloc(a->indices, ni * sizeof *a->indices);
    for (uint32_t i = 0; i < b->index_count; i++) a->indices[a->index_count + i] = b->indices[i] + a->vertex_count;
    a->vertex_count = nv, a->index_count = ni;
    free(b->positions), free(b->normals), free(b->uv[0]), free(b->indices);
    me->primitive_count = 1;
    CHECK_EQ_U(apply_and_write(&f), UE_OK);
    CHECK(identical(&f));
    teardown(&f);
}

/* What KHR_mesh_quantization leaves: every value off by less than the tolerance; `reorder`:
 * vertices reordered too (else they keep the model's order, the pairing's shortcut). */
static void check_quantised_values_are_unchanged(bool reorder) {
    fixture f;
    REQUIRE(setup_robot(&f));
    float pos_tol = 0;
    {
        float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (size_t m = 0; m < f.s.mesh_count; m++)
            for (size_t i = 0; i < 3 * (size_t)f.s.meshes[m].primitives[0].vertex_count; i++) {
                float v = f.s.meshes[m].primitives[0].positions[i];
                lo[i % 3] = fminf(lo[i % 3], v), hi[i % 3] = fmaxf(hi[i % 3], v);
            }
        for (int k = 0; k < 3; k++) pos_tol = fmaxf(pos_tol, (hi[k] - lo[k]) / 16384.0f);
    }
    REQUIRE(pos_tol > 0);
    for (size_t m = 0; m < f.s.mesh_count; m++) {
        ue_scene_primitive *p = &f.s.meshes[m].primitives[0];
        for (uint32_t v = 0; v < p->vertex_count; v++) {
            float sign = v % 2 ? 1.0f : -1.0f;
            for (int k = 0; k < 3; k++) p->positions[3 * v + (uint32_t)k] += sign * 0.9f * pos_tol;
            for (int k = 0; p->normals && k < 3; k++) p->normals[3 * v + (uint32_t)k] += sign * 0.45f / 127.0f;
            for (int k = 0; p->uv[0] && k < 2; k++) p->uv[0][2 * v + (uint32_t)k] -= sign * 0.45f / 1024.0f;
        }
        if (reorder) reorder_vertices(p);
    }
    CHECK_EQ_U(apply_and_write(&f), UE_OK);
    CHECK(identical(&f));
    teardown(&f);
}

static void test_quantised_values_are_unchanged(void) { check_quantised_values_are_unchanged(true); }

/* Blender's round trip: order kept, normals renormalised (off by float steps). */
static void test_quantised_values_in_order_are_unchanged(void) { check_quantised_values_are_unchanged(false); }

/* ---- edits ---------------------------------------------------------------------------------- */

/* The body slot's model vertices at a glTF position (a cube's corner is three: one per face). */
static size_t model_vertices_at(const ue_msh *m, const float gltf_pos[3], uint8_t *at) {
    float e[3];
    size_t n = 0;
    ue_parkan_vec_from_gltf(gltf_pos, e);
    const ue_msh_slot *sl = &m->slots[0];
    for (size_t b = sl->batch_start; b < (size_t)sl->batch_start + sl->batch_count; b++)
        for (size_t i = 0; i < m->batches[b].index_count; i++) {
            size_t v = (size_t)m->batches[b].base_vertex + m->indices[m->batches[b].index_start + i];
            if (!at[v] && !memcmp(&m->positions[3 * v], e, sizeof e)) at[v] = 1, n++;
        }
    return n;
}

/* One corner moved in the body (split and reordered, or in the model's own order): exactly the
 * Res3 records at that corner change, with the slot bounds, the hull and face normals (Res2,
 * Res7); nothing is rebuilt. */
static void check_one_moved_vertex(bool reshape) {
    fixture f;
    REQUIRE(setup_robot(&f));
    ue_scene_primitive *p = body(&f.s);
    REQUIRE(p != NULL);
    float old[3];
    memcpy(old, &p->positions[3 * (size_t)p->indices[0]], sizeof old);
    uint8_t *at = calloc(f.m.vertex_count, 1);
    size_t corner = model_vertices_at(&f.m, old, at);
    CHECK(corner >= 1);
    if (reshape) {
        split_every_corner(p);
        rotate_and_reorder_triangles(p);
        reorder_vertices(p);
    }
    uint32_t copies = 0;
    for (uint32_t o = 0; o < p->vertex_count; o++)
        if (!memcmp(&p->positions[3 * (size_t)o], old, sizeof old)) p->positions[3 * (size_t)o + 1] += 5.0f, copies++;
    CHECK(copies >= (reshape ? 3u : 1u)); /* a corner of a cube: three faces' triangles */
    size_t batches = f.m.batch_count;
    CHECK_EQ_U(apply_and_write(&f), UE_OK);
    CHECK_EQ_U(f.m.batch_count, batches); /* in place, no rebuild */
    size_t na, nb;
    const uint8_t *ra = resource(&f.out, UE_MSH_POSITIONS, &na), *rb = resource(&f.original, UE_MSH_POSITIONS, &nb);
    REQUIRE(na == nb && ra && rb);
    float want[3] = {old[0], old[1] + 5.0f, old[2]}, e[3];
    ue_parkan_vec_from_gltf(want, e);
    for (size_t v = 0; v < f.m.vertex_count; v++) {
        bool changed = memcmp(ra + 12 * v, rb + 12 * v, 12) != 0;
        CHECK(changed == (at[v] != 0));
        if (at[v]) CHECK(!memcmp(&f.m.positions[3 * v], e, sizeof e));
    }
    static const uint32_t untouched[] = {1, 4, 5, 6, 8, 10, 13, 18, 19};
    for (size_t i = 0; i < sizeof untouched / sizeof untouched[0]; i++) CHECK(same_resource(&f.out, &f.original, untouched[i]));
    CHECK(!same_resource(&f.out, &f.original, UE_MSH_HEADER));
    CHECK(!same_resource(&f.out, &f.original, UE_MSH_TRIS));
    free(at);
    teardown(&f);
}

static void test_one_moved_vertex_in_a_split_mesh(void) { check_one_moved_vertex(true); }

static void test_one_moved_vertex_in_order(void) { check_one_moved_vertex(false); }

/* A whole part moved (no vertex at a stored position) and reordered: found through its
 * normals and UVs; Res3 changes for that part's vertices only, nothing is rebuilt. */
static void test_whole_part_moved(void) {
    fixture f;
    REQUIRE(setup_robot(&f));
    ue_scene_primitive *p = body(&f.s);
    REQUIRE(p != NULL);
    for (uint32_t o = 0; o < p->vertex_count; o++) p->positions[3 * (size_t)o] += 0.75f;
    reorder_vertices(p);
    rotate_and_reorder_triangles(p);
    size_t batches = f.m.batch_count;
    const ue_msh_batch *b = &f.m.batches[f.m.slots[0].batch_start];
    uint32_t lo = UINT32_MAX, hi = 0;
    for (size_t i = 0; i < b->index_count; i++) {
        uint32_t v = b->base_vertex + f.m.indices[b->index_start + i];
        lo = v < lo ? v : lo, hi = v > hi ? v : hi;
    }
    CHECK_EQ_U(apply_and_write(&f), UE_OK);
    CHECK_EQ_U(f.m.batch_count, batches);
    CHECK(!has_code(&f.d, "import.mesh.topology"));
    size_t na, nb;
    const uint8_t *ra = resource(&f.out, UE_MSH_POSITIONS, &na), *rb = resource(&f.original, UE_MSH_POSITIONS, &nb);
    REQUIRE(na == nb && ra && rb);
    size_t outside = 0;
    for (size_t i = 0; i < na; i++)
        if (ra[i] != rb[i] && (i / 12 < lo || i / 12 > hi)) outside++;
    CHECK_EQ_U(outside, 0u);
    CHECK(!same_resource(&f.out, &f.original, UE_MSH_POSITIONS));
    CHECK(same_resource(&f.out, &f.original, UE_MSH_NORMALS));
    CHECK(same_resource(&f.out, &f.original, UE_MSH_UV0));
    CHECK(same_resource(&f.out, &f.original, UE_MSH_INDICES));
    teardown(&f);
}

/* Copies of one vertex given two different UVs need a vertex the model lacks: rebuilt. */
static void test_disagreeing_copies_rebuild(void) {
    fixture f;
    REQUIRE(setup_robot(&f));
    ue_scene_primitive *p = body(&f.s);
    REQUIRE(p != NULL && p->uv[0]);
    split_every_corner(p);
    p->uv[0][0] += 0.25f; /* one copy of the first corner only */
    size_t batches = f.m.batch_count;
    CHECK_EQ_U(apply_and_write(&f), UE_OK);
    CHECK(has_code(&f.d, "import.mesh.split"));
    CHECK_EQ_U(f.m.batch_count, batches + 1);
    teardown(&f);
}

/* A triangle removed: the slot is rebuilt, and the diagnostic counts the lone triangle. */
static void test_removed_triangle_is_topology(void) {
    fixture f;
    REQUIRE(setup_robot(&f));
    ue_scene_primitive *p = body(&f.s);
    REQUIRE(p != NULL);
    reorder_vertices(p);
    p->index_count -= 3;
    size_t batches = f.m.batch_count;
    CHECK_EQ_U(apply_and_write(&f), UE_OK);
    CHECK(has_code(&f.d, "import.mesh.topology"));
    CHECK_EQ_U(f.m.batch_count, batches + 1);
    teardown(&f);
}

int main(void) {
    RUN(test_reordered_vertices_and_triangles);
    RUN(test_split_on_every_corner);
    RUN(test_welded_and_primitives_reordered);
    RUN(test_primitives_of_one_material_merged);
    RUN(test_quantised_values_are_unchanged);
    RUN(test_quantised_values_in_order_are_unchanged);
    RUN(test_one_moved_vertex_in_a_split_mesh);
    RUN(test_one_moved_vertex_in_order);
    RUN(test_whole_part_moved);
    RUN(test_disagreeing_copies_rebuild);
    RUN(test_removed_triangle_is_topology);
    return TEST_SUMMARY();
}
