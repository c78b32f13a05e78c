/* unearth tests — a new model's envelopes (src/hsd/hsd_new_skin.c): one vertex's envelope, its
 * rounding and the coarser steps against hand-worked weights, and the split of triangles into PObjs
 * of at most N matrices against worked examples, counts known by hand, the split's invariants, and
 * (a regression check) the rule of docs/hsd-import.md restated here. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "hsd/hsd_new_int.h"

static bool near(double a, double b) { return fabs(a - b) < 1e-6; }

static void test_envelope_of_vertex(void) {
    hsd_influences e;
    /* 6 influences: the 4 largest over their sum 0.9. */
    uint16_t j6[8] = {5, 2, 7, 1, 3, 4, 0, 0};
    float w6[8] = {0.3f, 0.25f, 0.2f, 0.15f, 0.06f, 0.04f, 0, 0};
    CHECK(hsd_envelope_of_vertex(j6, w6, 8, 10, &e) == 6);
    CHECK_EQ_U(e.count, 4);
    CHECK(e.joint[0] == 5 && e.joint[1] == 2 && e.joint[2] == 7 && e.joint[3] == 1);
    CHECK(near(e.weight[0], 0.3 / 0.9) && near(e.weight[1], 0.25 / 0.9) && near(e.weight[2], 0.2 / 0.9) &&
          near(e.weight[3], 0.15 / 0.9));
    CHECK(near((double)e.weight[0] + e.weight[1] + e.weight[2] + e.weight[3], 1.0));
    /* A joint named twice gets the sum; equal weights: the lower joint first. */
    uint16_t jd[4] = {3, 3, 1, 0};
    float wd[4] = {0.25f, 0.25f, 0.5f, 0};
    CHECK(hsd_envelope_of_vertex(jd, wd, 4, 10, &e) == 2);
    CHECK(e.count == 2 && e.joint[0] == 1 && e.joint[1] == 3 && e.weight[0] == 0.5f && e.weight[1] == 0.5f);
    /* Five equal weights: joints 5 … 8 kept (the lower on a tie), a quarter each. */
    uint16_t jt[5] = {9, 8, 7, 6, 5};
    float wt[5] = {0.2f, 0.2f, 0.2f, 0.2f, 0.2f};
    CHECK(hsd_envelope_of_vertex(jt, wt, 5, 10, &e) == 5);
    CHECK(e.count == 4 && e.joint[0] == 5 && e.joint[3] == 8 && e.weight[0] == 0.25f);
    /* One joint; a largest weight within FLT_EPSILON of 1 is that joint alone (as the runtime draws it). */
    uint16_t js[4] = {2, 0, 0, 0};
    float ws[4] = {1, 0, 0, 0};
    CHECK(hsd_envelope_of_vertex(js, ws, 4, 10, &e) == 1);
    CHECK(e.count == 1 && e.joint[0] == 2 && e.weight[0] == 1.0f);
    uint16_t jn[2] = {4, 6};
    float wn[2] = {1.0f - 1e-8f, 1e-8f};
    CHECK(hsd_envelope_of_vertex(jn, wn, 2, 10, &e) == 2);
    CHECK(e.count == 1 && e.joint[0] == 4 && e.weight[0] == 1.0f);
    float wk[2] = {0.9999f, 0.0001f};
    CHECK(hsd_envelope_of_vertex(jn, wk, 2, 10, &e) == 2 && e.count == 2 && e.weight[0] < 1.0f - FLT_EPSILON);
    /* No weight, a negative one, a NaN. */
    float wz[4] = {0, 0, 0, 0}, wneg[4] = {1.5f, -0.5f, 0, 0}, wnan[4] = {NAN, 1, 0, 0};
    CHECK(hsd_envelope_of_vertex(js, wz, 4, 10, &e) == 0);
    CHECK(hsd_envelope_of_vertex(js, wneg, 4, 10, &e) == -1);
    CHECK(hsd_envelope_of_vertex(js, wnan, 4, 10, &e) == -1);
    /* Every influence is checked, not only the 4 kept: a NaN or a joint past the skin's 10 among
     * the cut ones is refused; a joint past them with weight 0 is no influence; 9 are too many. */
    float wcut[8] = {0.3f, 0.25f, 0.2f, 0.15f, 0.06f, NAN, 0, 0};
    CHECK(hsd_envelope_of_vertex(j6, wcut, 8, 10, &e) == HSD_ENV_BAD_WEIGHT);
    uint16_t jfar[8] = {5, 2, 7, 1, 3, 10, 0, 0}, jpad[8] = {5, 2, 7, 1, 3, 4, 300, 300};
    CHECK(hsd_envelope_of_vertex(jfar, w6, 8, 10, &e) == HSD_ENV_BAD_JOINT);
    CHECK(hsd_envelope_of_vertex(jfar, w6, 8, 11, &e) == 6);
    CHECK(hsd_envelope_of_vertex(jpad, w6, 8, 10, &e) == 6 && e.count == 4 && e.joint[0] == 5);
    uint16_t j9[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    float w9[9] = {0.2f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f};
    CHECK(hsd_envelope_of_vertex(j9, w9, 9, 10, &e) == HSD_ENV_TOO_MANY);
}

/* Worked by hand with 4 slots (see the rule): PObj 1 is seeded by t0 (0 1 2), its first pass takes
 * t2 (0 1 1) and t5 (1 2 0) free and t3 (2 3 0: 3 new), then t1 (3 4 5) would need 2 more; t4
 * (5 5 5) is off its frontier. PObj 2 is seeded by t1 and takes t4 free. */
static void test_split_worked(void) {
    const uint32_t te[] = {0, 1, 2, 3, 4, 5, 0, 1, 1, 2, 3, 0, 5, 5, 5, 1, 2, 0};
    hsd_env_split s;
    REQUIRE(hsd_envelope_split(te, 6, 4, 100, 10, &s) == UE_OK);
    CHECK_EQ_U(s.count, 2);
    const uint32_t order[] = {0, 2, 5, 3, 1, 4}, env[] = {0, 1, 2, 3, 3, 4, 5};
    CHECK_MEM(s.order, order, sizeof order);
    CHECK_MEM(s.env, env, sizeof env);
    CHECK(s.tri_end[0] == 4 && s.tri_end[1] == 6 && s.env_end[0] == 4 && s.env_end[1] == 7);
    hsd_env_split_free(&s);
    /* One PObj too few, a bad slot count. */
    CHECK(hsd_envelope_split(te, 6, 4, 100, 1, &s) == UE_ERR_LIMIT);
    CHECK(hsd_envelope_split(te, 6, 2, 100, 10, &s) == UE_ERR_USAGE);
    REQUIRE(hsd_envelope_split(te, 0, 10, 100, 10, &s) == UE_OK);
    CHECK_EQ_U(s.count, 0);
    hsd_env_split_free(&s);
}

/* Triangles that share no envelope, 3 each: 10 slots hold 3 triangles, so n of them need ⌈n/3⌉
 * PObjs whatever the order; with every triangle on the same 3 envelopes, ⌈n/max_tris⌉. */
static void test_split_counts(void) {
    enum { T = 100 };
    static uint32_t te[3 * T];
    for (uint32_t i = 0; i < 3 * T; i++) te[i] = i;
    hsd_env_split s;
    REQUIRE(hsd_envelope_split(te, T, HSD_NEW_MAX_SLOTS, 1000, 1000, &s) == UE_OK);
    CHECK_EQ_U(s.count, (T + 2) / 3);
    for (size_t k = 0; k < s.count; k++) CHECK(s.env_end[k] - (k ? s.env_end[k - 1] : 0) <= HSD_NEW_MAX_SLOTS);
    hsd_env_split_free(&s);
    for (uint32_t i = 0; i < 3 * T; i++) te[i] = (i * 7) % 3 + 20;
    REQUIRE(hsd_envelope_split(te, T, HSD_NEW_MAX_SLOTS, 30, 1000, &s) == UE_OK);
    CHECK_EQ_U(s.count, 4);
    CHECK(s.tri_end[0] == 30 && s.tri_end[3] == T && s.env_end[0] == 3 && s.env_end[3] == 12);
    hsd_env_split_free(&s);
}

/* A limb: triangle t weighs envelopes e and e + 1 (e = t·39/T, neighbours along the strip), the
 * triangles shuffled. A PObj of 10 envelopes covers at most 9 of the 39 steps between them, so no
 * split does with fewer than 5; growing each PObj over shared envelopes reaches that. */
static void test_split_limb(void) {
    enum { T = 390 };
    static uint32_t te[3 * T], perm[T];
    uint32_t seed = 99;
    for (uint32_t t = 0; t < T; t++) perm[t] = t;
    for (uint32_t t = T - 1; t > 0; t--) {
        seed = seed * 1103515245u + 12345u;
        uint32_t k = (seed >> 8) % (t + 1), x = perm[t];
        perm[t] = perm[k];
        perm[k] = x;
    }
    for (uint32_t t = 0; t < T; t++) {
        uint32_t e = perm[t] * 39 / T;
        te[3 * t] = e, te[3 * t + 1] = e + 1, te[3 * t + 2] = perm[t] % 2 ? e : e + 1;
    }
    hsd_env_split s;
    REQUIRE(hsd_envelope_split(te, T, HSD_NEW_MAX_SLOTS, 100000, 1000, &s) == UE_OK);
    CHECK_EQ_U(s.count, 5);
    hsd_env_split_free(&s);
}

enum { N = 600, ENVS = 40 };

/* How many envelopes of triangle t the set `in` lacks (a repeated corner once). */
static uint32_t fresh_envelopes(const uint32_t *te, size_t t, const bool *in) {
    bool seen[ENVS] = {0};
    uint32_t fresh = 0;
    for (int k = 0; k < 3; k++) {
        uint32_t e = te[3 * t + (size_t)k];
        if (!in[e] && !seen[e]) {
            seen[e] = true;
            fresh++;
        }
    }
    return fresh;
}

/* A regression check only: the rule of docs/hsd-import.md restated plainly (its tie-breaks
 * included, so it shares any fault of the rule itself; the invariants and the worked and counted
 * examples above are what assert it right). The rule, straight: flags for placed triangles and the PObj's envelopes; a PObj seeded by the
 * first unplaced triangle, each pass over every triangle in order, the frontier being those with a
 * corner in the PObj, then the first unplaced triangle when nothing there fits. */
static size_t reference_split(const uint32_t *te, size_t n, uint32_t slots, size_t max_tris, uint32_t *order,
                              size_t *tri_end, uint32_t *env, size_t *env_end) {
    bool used[N] = {0};
    size_t placed = 0, pobjs = 0, envs = 0;
    while (placed < n) {
        bool in[ENVS] = {0};
        uint32_t have = 0;
        size_t taken = 0;
        long best = 0;
        while (used[best]) best++;
        for (;;) {
            for (int k = 0; k < 3; k++) {
                uint32_t e = te[3 * (size_t)best + (size_t)k];
                if (!in[e]) in[e] = true, env[envs + have++] = e;
            }
            used[best] = true, order[placed++] = (uint32_t)best, taken++;
            best = -1;
            uint32_t best_new = 99;
            for (size_t t = 0; t < n && taken < max_tris; t++) {
                if (used[t]) continue;
                uint32_t fresh = fresh_envelopes(te, t, in);
                bool frontier = in[te[3 * t]] || in[te[3 * t + 1]] || in[te[3 * t + 2]];
                if (!fresh) used[t] = true, order[placed++] = (uint32_t)t, taken++;
                else if (frontier && have + fresh <= slots && fresh < best_new) best = (long)t, best_new = fresh;
            }
            if (taken == max_tris) break;
            if (best < 0) { /* the first triangle left, if it fits */
                size_t t = 0;
                while (t < n && used[t]) t++;
                if (t == n) break;
                uint32_t fresh = fresh_envelopes(te, t, in);
                if (have + fresh > slots) break;
                best = (long)t;
            }
        }
        envs += have;
        tri_end[pobjs] = placed, env_end[pobjs] = envs;
        pobjs++;
    }
    return pobjs;
}

/* Each PObj's list is exactly the distinct envelopes of its triangles, at most `slots`. */
static bool lists_cover(const uint32_t *te, const hsd_env_split *s, uint32_t slots) {
    for (size_t k = 0, t0 = 0, e0 = 0; k < s->count; t0 = s->tri_end[k], e0 = s->env_end[k], k++) {
        bool need[ENVS] = {0}, listed[ENVS] = {0};
        size_t needed = 0;
        for (size_t i = t0; i < s->tri_end[k]; i++)
            for (int c = 0; c < 3; c++) {
                uint32_t e = te[3 * (size_t)s->order[i] + (size_t)c];
                needed += !need[e], need[e] = true;
            }
        for (size_t i = e0; i < s->env_end[k]; i++) {
            if (listed[s->env[i]] || !need[s->env[i]]) return false;
            listed[s->env[i]] = true;
        }
        if (s->env_end[k] - e0 != needed || needed > slots) return false;
    }
    return true;
}

/* PObjs of triangles in input order, each closed when the next does not fit: a bound the split
 * must meet (it takes the same triangles and more). */
static size_t in_order_pobjs(const uint32_t *te, size_t n, uint32_t slots, size_t max_tris) {
    size_t pobjs = 0;
    for (size_t t = 0; t < n;) {
        bool in[ENVS] = {0};
        uint32_t have = 0;
        size_t taken = 0;
        pobjs++;
        for (; t < n && taken < max_tris; t++, taken++) {
            uint32_t fresh = fresh_envelopes(te, t, in);
            if (have + fresh > slots) break;
            for (int k = 0; k < 3; k++) {
                uint32_t e = te[3 * t + (size_t)k];
                if (!in[e]) in[e] = true, have++;
            }
        }
    }
    return pobjs;
}

static void test_split_reference(void) {
    static uint32_t te[3 * N], order[N], env[N * 10];
    static size_t tri_end[N], env_end[N];
    uint32_t seed = 12345;
    for (int round = 0; round < 6; round++) {
        /* Neighbouring envelopes along a strip (as weights along a limb), some jumps. */
        for (size_t t = 0; t < N; t++)
            for (int k = 0; k < 3; k++) {
                seed = seed * 1103515245u + 12345u;
                uint32_t near_env = (uint32_t)(t * ENVS / N) + (seed >> 16) % 3;
                te[3 * t + (size_t)k] = (seed >> 8) % 17 == 0 ? (seed >> 20) % ENVS : near_env % ENVS;
            }
        size_t max_tris = round % 2 ? 7 : 1000;
        hsd_env_split s;
        REQUIRE(hsd_envelope_split(te, N, HSD_NEW_MAX_SLOTS, max_tris, 1000, &s) == UE_OK);
        /* The invariants: every triangle once, each PObj's list exactly its triangles' envelopes
         * within 10, at most max_tris a PObj, and no more PObjs than triangles taken in input order
         * would need (a PObj closed when the next triangle does not fit). */
        CHECK(lists_cover(te, &s, HSD_NEW_MAX_SLOTS));
        bool seen[N] = {0}, once = true;
        for (size_t i = 0; i < N; i++) {
            once = once && !seen[s.order[i]];
            seen[s.order[i]] = true;
        }
        CHECK(once);
        for (size_t k = 0, t0 = 0; k < s.count; t0 = s.tri_end[k], k++) CHECK(s.tri_end[k] - t0 <= max_tris);
        CHECK(s.count <= in_order_pobjs(te, N, HSD_NEW_MAX_SLOTS, max_tris));
        size_t want = reference_split(te, N, HSD_NEW_MAX_SLOTS, max_tris, order, tri_end, env, env_end);
        CHECK_EQ_U(s.count, want);
        CHECK_MEM(s.order, order, N * sizeof *order);
        CHECK_MEM(s.tri_end, tri_end, want * sizeof *tri_end);
        CHECK_MEM(s.env_end, env_end, want * sizeof *env_end);
        CHECK_MEM(s.env, env, env_end[want - 1] * sizeof *env);
        hsd_env_split_free(&s);
    }
}

static hsd_influences two(uint32_t j0, float w0, uint32_t j1, float w1) {
    hsd_influences e = {2, {j0, j1, 0, 0}, {w0, w1, 0, 0}};
    if (w1 > w0) e.joint[0] = j1, e.joint[1] = j0, e.weight[0] = w1, e.weight[1] = w0;
    if (w0 == 0 || w1 == 0) e.count = 1, e.weight[0] = 1, e.weight[1] = 0;
    return e;
}

static float f32_sum(const hsd_influences *e) {
    float sum = e->weight[0];
    for (uint32_t k = 1; k < e->count; k++) sum += e->weight[k];
    return sum;
}

/* Largest remainders, worked by hand. */
static void test_quantise(void) {
    /* 0.3 0.25 0.2 0.15 over 0.9 in 1/64: 21.33 17.78 14.22 10.67 floored to 62 units, the 2 left
     * to .78 and .67; the largest change 1/3 - 21/64 = 1/192. */
    hsd_influences e = {4, {5, 2, 7, 1}, {0.3f / 0.9f, 0.25f / 0.9f, 0.2f / 0.9f, 0.15f / 0.9f}};
    CHECK(near(hsd_quantise_envelope(&e, 64), 1.0 / 192));
    CHECK(e.count == 4 && e.joint[0] == 5 && e.joint[1] == 2 && e.joint[2] == 7 && e.joint[3] == 1);
    CHECK(e.weight[0] == 21 / 64.0f && e.weight[1] == 18 / 64.0f && e.weight[2] == 14 / 64.0f && e.weight[3] == 11 / 64.0f);
    CHECK(f32_sum(&e) == 1.0f);
    /* Thirds in 1/100: 33 each, the unit left to the first on the tie; the float sum made 1. */
    hsd_influences t = {3, {4, 6, 9}, {1 / 3.0f, 1 / 3.0f, 1 / 3.0f}};
    CHECK(near(hsd_quantise_envelope(&t, 100), 0.34 - 1 / 3.0));
    CHECK(t.count == 3 && t.joint[0] == 4 && near(t.weight[0], 0.34) && near(t.weight[1], 0.33) && near(t.weight[2], 0.33));
    CHECK(f32_sum(&t) == 1.0f);
    /* 0.99 0.01 in 1/64: 63.36 and 0.64, the unit to the second. 0.995 0.005: 63.68 and 0.32, the
     * unit to the first: one joint. */
    hsd_influences a = two(3, 0.99f, 8, 0.01f), b = two(3, 0.995f, 8, 0.005f);
    hsd_quantise_envelope(&a, 64);
    CHECK(a.count == 2 && a.weight[0] == 63 / 64.0f && a.weight[1] == 1 / 64.0f && a.joint[1] == 8);
    CHECK(near(hsd_quantise_envelope(&b, 64), 0.005));
    CHECK(b.count == 1 && b.joint[0] == 3 && b.weight[0] == 1.0f);
    /* One unit: the largest joint alone. */
    hsd_influences c = two(2, 0.4f, 6, 0.6f);
    CHECK(near(hsd_quantise_envelope(&c, 1), 0.4));
    CHECK(c.count == 1 && c.joint[0] == 6 && c.weight[0] == 1.0f);
    /* Units 0: weights as given but the float sum. */
    hsd_influences g = {3, {1, 2, 3}, {0.7f, 0.2f, 0.1f}};
    CHECK(hsd_quantise_envelope(&g, 0) == 0 && f32_sum(&g) == 1.0f && near(g.weight[0], 0.7));
}

/* 12 vertices weighing joints 0 and 1 by v/11 and 1 - v/11, in 4 triangles, into 1 PObj: 12
 * envelopes in every step down to 1/16 (16/11 apart > 1), 9 in 1/8 (0 1 1 2 3 4 4 5 6 7 7 8): the
 * largest change |16/11 - 1| / 8 = 5/88. With a joint of its own a vertex, 1 PObj never does. */
static void test_fit(void) {
    hsd_influences exact[12], own[12];
    uint32_t idx[12], vertex_env[12], used;
    for (uint32_t v = 0; v < 12; v++) {
        exact[v] = two(0, (float)v / 11, 1, 1 - (float)v / 11);
        own[v] = (hsd_influences){1, {v, 0, 0, 0}, {1, 0, 0, 0}};
        idx[v] = v;
    }
    hsd_env_set set = {0};
    hsd_env_split split;
    double change;
    REQUIRE(hsd_fit_envelopes(exact, 12, idx, 4, 64, 100, 1, &set, vertex_env, &split, &used, &change) == UE_OK);
    CHECK_EQ_U(used, 8);
    CHECK_EQ_U(set.count, 9);
    CHECK(near(change, 5.0 / 88));
    CHECK(split.count == 1 && split.env_end[0] == 9);
    CHECK(vertex_env[1] == vertex_env[2] && vertex_env[5] == vertex_env[6] && vertex_env[9] == vertex_env[10]);
    CHECK(set.envs[vertex_env[2]].weight[0] == 7 / 8.0f && set.envs[vertex_env[2]].joint[0] == 1);
    hsd_env_split_free(&split);
    /* As given, 2 PObjs: no rounding needed. */
    REQUIRE(hsd_fit_envelopes(exact, 12, idx, 4, 0, 100, 2, &set, vertex_env, &split, &used, &change) == UE_OK);
    CHECK(used == 0 && set.count == 12 && split.count == 2 && change == 0);
    hsd_env_split_free(&split);
    CHECK(hsd_fit_envelopes(own, 12, idx, 4, 64, 100, 1, &set, vertex_env, &split, &used, &change) == UE_ERR_LIMIT);
    CHECK_EQ_U(used, 1);
    hsd_env_set_free(&set);
}

int main(void) {
    RUN(test_quantise);
    RUN(test_fit);
    RUN(test_envelope_of_vertex);
    RUN(test_split_worked);
    RUN(test_split_counts);
    RUN(test_split_limb);
    RUN(test_split_reference);
    return TEST_SUMMARY();
}
