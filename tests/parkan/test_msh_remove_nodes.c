/* Tests of ue_msh_remove_nodes on the sample robot and on a small built tree: the kept nodes,
 * names, parents, slots and poses against the original's, and a strict parse of the result. */
#include <math.h>
#include <string.h>

#include "test.h"
#include "unearth/msh.h"
#include "samples/samples.h"

static const char *name_or_empty(const ue_msh *m, size_t n) {
    const char *s = ue_msh_node_name(m, n);
    return s ? s : "";
}

/* The new index of original node `old` among `kept` (ascending), or UE_MSH_NONE. */
static uint16_t new_index(const size_t *kept, size_t nk, uint16_t old) {
    for (size_t k = 0; k < nk; k++)
        if (kept[k] == old) return (uint16_t)k;
    return UE_MSH_NONE;
}

/* The model after removal against the original: node k is original node kept[k] with its
 * flags, name, parent (renumbered) and slot records; `slots_gone` slots fewer; every kept
 * node's engine pose at keys, between keys, past the end and before 0 bit for bit the
 * original's; Res8 holds exactly the kept tracks; it writes and parses strictly. */
static void check_removal(const ue_msh *orig, ue_msh *m, const size_t *kept, size_t nk, size_t slots_gone) {
    CHECK_EQ_U(m->node_count, nk);
    CHECK_EQ_U(m->slot_count, orig->slot_count - slots_gone);
    CHECK_EQ_U(m->vertex_count, orig->vertex_count); /* removed geometry stays, unreferenced */
    size_t keys = 0;
    float last = 0;
    for (size_t k = 0; k < nk && k < m->node_count; k++) {
        size_t o = kept[k];
        const ue_msh_node *a = &orig->nodes[o], *b = &m->nodes[k];
        CHECK_STR(name_or_empty(m, k), name_or_empty(orig, o));
        CHECK_EQ_U(b->flags, a->flags);
        CHECK_EQ_U(b->parent, a->parent == UE_MSH_NONE ? UE_MSH_NONE : new_index(kept, nk, a->parent));
        for (int c = 0; c < UE_MSH_LODS * UE_MSH_GROUPS; c++) {
            if (a->slot[c] == UE_MSH_NONE) {
                CHECK_EQ_U(b->slot[c], UE_MSH_NONE);
                continue;
            }
            REQUIRE(b->slot[c] < m->slot_count);
            CHECK_MEM(&m->slots[b->slot[c]], &orig->slots[a->slot[c]], sizeof(ue_msh_slot));
        }
        size_t first = o ? (size_t)orig->nodes[o - 1].fallback_key + 1 : 0;
        keys += (size_t)a->fallback_key + 1 - first;
        if (orig->keys[a->fallback_key].time > last) last = orig->keys[a->fallback_key].time;
        const float times[] = {-1.0f, 0.0f, 0.5f, 1.0f, 2.5f, 3.0f, 4.25f, 6.0f, 7.0f, 8.0f, 9.5f, 100.0f};
        for (size_t t = 0; t < sizeof times / sizeof times[0]; t++) {
            ue_msh_pose pa, pb;
            CHECK(ue_msh_sample_node(orig, o, times[t], &pa) == UE_OK);
            CHECK(ue_msh_sample_node(m, k, times[t], &pb) == UE_OK);
            CHECK_MEM(&pb, &pa, sizeof pa);
        }
    }
    CHECK_EQ_U(m->key_count, keys);
    CHECK_EQ_U(m->frame_count, (uint32_t)last + 1);
    ue_buf out = {0};
    ue_diag d = {0};
    REQUIRE(ue_msh_write(m, &out, &d) == UE_OK);
    ue_msh back;
    CHECK(ue_msh_parse(out.data, out.size, UE_MODE_STRICT, &back, &d) == UE_OK);
    CHECK_EQ_U(d.count, 0);
    CHECK_EQ_U(back.node_count, nk);
    /* The header hull is the kept model's: recomputing it changes nothing. */
    uint8_t header[UE_MSH_HEADER_SIZE];
    memcpy(header, back.header, sizeof header);
    ue_msh_recompute_bounds(&back);
    CHECK_MEM(back.header, header, sizeof header);
    ue_msh_free(&back);
    ue_buf_free(&out);
    ue_diag_free(&d);
}

static void parse_robot(ue_buf *robot, ue_msh *orig, ue_msh *m) {
    REQUIRE(ue_sample_robot(robot) == UE_OK);
    REQUIRE(ue_msh_parse(robot->data, robot->size, UE_MODE_STRICT, orig, NULL) == UE_OK);
    REQUIRE(ue_msh_parse(robot->data, robot->size, UE_MODE_STRICT, m, NULL) == UE_OK);
    REQUIRE(orig->node_count == 6 && ue_msh_is_animated(orig));
    CHECK_STR(name_or_empty(orig, 3), "arm_left");
    CHECK_STR(name_or_empty(orig, 1), "head");
    CHECK_EQ_U(orig->nodes[2].parent, 1); /* head's unnamed child */
}

/* arm_left, a leaf in the middle of Res1: arm_right and legs move up, its one slot goes, its
 * animated track leaves Res8 and Res19. */
static void removes_a_leaf(void) {
    ue_buf robot = {0};
    ue_msh orig, m;
    parse_robot(&robot, &orig, &m);
    bool marked[6] = {false, false, false, true, false, false};
    REQUIRE(ue_msh_remove_nodes(&m, marked, NULL) == UE_OK);
    const size_t kept[] = {0, 1, 2, 4, 5};
    check_removal(&orig, &m, kept, 5, 1);
    CHECK(m.frame_map_count < orig.frame_map_count);
    CHECK(memcmp(m.header, orig.header, UE_MSH_HEADER_SIZE) != 0); /* the hull lost the arm */
    ue_msh_free(&m);
    ue_msh_free(&orig);
    ue_buf_free(&robot);
}

/* head takes its unnamed child (node 2) with it: three slots go, the arms and legs are
 * renumbered 1..3. */
static void removes_a_subtree(void) {
    ue_buf robot = {0};
    ue_msh orig, m;
    parse_robot(&robot, &orig, &m);
    bool marked[6] = {false, true, false, false, false, false};
    REQUIRE(ue_msh_remove_nodes(&m, marked, NULL) == UE_OK);
    const size_t kept[] = {0, 3, 4, 5};
    check_removal(&orig, &m, kept, 4, 3);
    CHECK_STR(name_or_empty(&m, 1), "arm_left");
    CHECK_STR(name_or_empty(&m, 3), "legs");
    ue_msh_free(&m);
    ue_msh_free(&orig);
    ue_buf_free(&robot);
}

/* A slot a kept node also shows stays (renumbered only if one before it went). */
static void keeps_a_shared_slot(void) {
    ue_buf robot = {0};
    ue_msh orig, m;
    parse_robot(&robot, &orig, &m);
    orig.nodes[5].slot[UE_MSH_GROUPS] = m.nodes[5].slot[UE_MSH_GROUPS] = orig.nodes[3].slot[0]; /* legs LOD 1 */
    m.dirty[UE_MSH_NODES] = true;
    bool marked[6] = {false, false, false, true, false, false};
    REQUIRE(ue_msh_remove_nodes(&m, marked, NULL) == UE_OK);
    const size_t kept[] = {0, 1, 2, 4, 5};
    check_removal(&orig, &m, kept, 5, 0);
    ue_msh_free(&m);
    ue_msh_free(&orig);
    ue_buf_free(&robot);
}

/* Parents past a removed node are renumbered: 0 ← {1, 2 ← 3 ← 4}, node 1 removed. */
static void renumbers_parents(void) {
    const uint16_t parents[] = {UE_MSH_NONE, 0, 0, 2, 3};
    const char *const names[] = {"root", "gone", "a", "b", "c"};
    ue_msh m, orig;
    REQUIRE(ue_msh_new(&m, 5, parents, names) == UE_OK);
    REQUIRE(ue_msh_new(&orig, 5, parents, names) == UE_OK);
    bool marked[5] = {false, true, false, false, false};
    REQUIRE(ue_msh_remove_nodes(&m, marked, NULL) == UE_OK);
    REQUIRE(m.node_count == 4);
    const uint16_t want[] = {UE_MSH_NONE, 0, 1, 2};
    for (size_t n = 0; n < 4; n++) CHECK_EQ_U(m.nodes[n].parent, want[n]);
    CHECK_STR(name_or_empty(&m, 1), "a");
    CHECK_STR(name_or_empty(&m, 3), "c");
    CHECK_EQ_U(m.key_count, 4);
    for (size_t n = 0; n < 4; n++) CHECK_EQ_U(m.nodes[n].fallback_key, n);
    ue_msh_free(&m);
    ue_msh_free(&orig);
}

/* Nothing marked: the model writes back byte for byte. Every node (the root's subtree):
 * refused, the model unchanged. */
static void refuses_an_empty_model(void) {
    ue_buf robot = {0}, out = {0};
    ue_msh orig, m;
    parse_robot(&robot, &orig, &m);
    bool none[6] = {false}, root[6] = {true, false, false, false, false, false};
    CHECK(ue_msh_remove_nodes(&m, none, NULL) == UE_OK);
    ue_diag d = {0};
    CHECK(ue_msh_remove_nodes(&m, root, &d) == UE_ERR_USAGE);
    CHECK(d.count == 1 && !strcmp(d.items[0].code, "msh.edit.remove"));
    REQUIRE(ue_msh_write(&m, &out, NULL) == UE_OK);
    CHECK(out.size == robot.size && memcmp(out.data, robot.data, robot.size) == 0);
    ue_diag_free(&d);
    ue_buf_free(&out);
    ue_msh_free(&m);
    ue_msh_free(&orig);
    ue_buf_free(&robot);
}

int main(void) {
    RUN(removes_a_leaf);
    RUN(removes_a_subtree);
    RUN(keeps_a_shared_slot);
    RUN(renumbers_parents);
    RUN(refuses_an_empty_model);
    return TEST_SUMMARY();
}
