/* unearth tests — the edit-mode geometry match (src/hsd/hsd_import_match.c): its work budget
 * counts every candidate triangle a pass looks at, claimed or not. */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "hsd/hsd_import_int.h"

/* A scene of one node drawing `count` copies of the same triangle, UVs and all, in the plane x = 0 (every
 * triangle's sort key is 0, so every one is a candidate for every other). */
static bool coincident_triangles(ue_scene *s, uint32_t count) {
    ue_scene_init(s);
    int32_t node = ue_scene_add_node(s, "flat", -1), mesh = ue_scene_add_mesh(s, "flat");
    ue_scene_primitive *p = node >= 0 && mesh >= 0 ? ue_scene_add_primitive(s, mesh) : NULL;
    if (!p) return false;
    s->nodes[node].mesh = mesh;
    static const float corners[9] = {0, 0, 0, 0, 1, 0, 0, 0, 1}, uvs[6] = {0, 0, 1, 0, 0, 1};
    p->vertex_count = 3;
    p->positions = malloc(sizeof corners);
    p->uv[0] = malloc(sizeof uvs);
    p->index_count = 3 * count;
    p->indices = malloc(3 * (size_t)count * sizeof *p->indices);
    if (!p->positions || !p->uv[0] || !p->indices) return false;
    memcpy(p->positions, corners, sizeof corners);
    memcpy(p->uv[0], uvs, sizeof uvs);
    for (uint32_t i = 0; i < 3 * count; i++) p->indices[i] = i % 3;
    return true;
}

/* n identical triangles: the i-th base triangle passes the i claimed glTF triangles before its
 * partner, n²/2 candidates in all, over the 50M budget from n = 10 000. */
static void claimed_candidates_count_against_the_budget(void) {
    static const struct {
        uint32_t count;
        bool over;
    } cases[] = {{2000, false}, {11000, true}};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        ue_scene g, r;
        hsd_geometry_match m;
        bool built = coincident_triangles(&g, cases[c].count) && coincident_triangles(&r, cases[c].count);
        CHECK(built);
        if (built) {
            CHECK_EQ_U(hsd_match_geometry(&g, 0, &r, 0, &m), UE_OK);
            CHECK_EQ_U(m.over_budget, cases[c].over);
            if (!cases[c].over) CHECK_EQ_U(m.unmatched_ref + m.unmatched_gltf, 0);
            hsd_geometry_match_free(&m);
        }
        ue_scene_free(&g);
        ue_scene_free(&r);
    }
}

int main(void) {
    RUN(claimed_candidates_count_against_the_budget);
    return TEST_SUMMARY();
}
