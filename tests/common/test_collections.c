/* Tests of the shared collection helpers: the doubling array keeps its elements and zeroes new
 * room; the gap walk finds exactly the bytes no range covers, whatever the order and overlap. */
#include <stdlib.h>
#include <string.h>

#include "common/collections.h"
#include "test.h"

static void array_doubles_and_keeps(void) {
    int *items = NULL;
    size_t cap = 0, reallocs = 0;
    for (size_t n = 1; n <= 1000; n++) {
        size_t before = cap;
        REQUIRE(ue_array_reserve((void **)&items, &cap, n, sizeof *items, 1u << 20) == UE_OK);
        reallocs += cap != before;
        CHECK(items[n - 1] == 0); /* new room is zeroed */
        items[n - 1] = (int)n;
    }
    CHECK(cap >= 1000);
    CHECK(reallocs <= 10); /* 4, 8, ..., 1024: doubling, not one realloc per element */
    for (size_t i = 0; i < 1000; i++) CHECK(items[i] == (int)i + 1);
    size_t keep = cap;
    CHECK_EQ_U(ue_array_reserve((void **)&items, &cap, 5000, sizeof *items, 4096), UE_ERR_NOMEM);
    CHECK(cap == keep);
    CHECK_EQ_U(ue_array_reserve((void **)&items, &cap, SIZE_MAX / 2, 8, SIZE_MAX), UE_ERR_NOMEM);
    free(items);
}

typedef struct gap_log {
    uint64_t at[16][2];
    size_t n;
} gap_log;

static ue_result log_gap(uint64_t start, uint64_t end, void *ctx) {
    gap_log *g = ctx;
    if (g->n == 16) return UE_ERR_NOMEM;
    g->at[g->n][0] = start;
    g->at[g->n][1] = end;
    g->n++;
    return UE_OK;
}

static void gaps_are_the_uncovered_bytes(void) {
    /* Unsorted, overlapping, touching, and one range past the window's end. */
    ue_span s[] = {{40, 50}, {10, 20}, {15, 30}, {30, 35}, {90, 200}};
    gap_log g = {0};
    REQUIRE(ue_for_each_gap(s, 5, 0, 100, log_gap, &g) == UE_OK);
    static const uint64_t want[][2] = {{0, 10}, {35, 40}, {50, 90}};
    CHECK(g.n == 3);
    for (size_t i = 0; i < 3 && i < g.n; i++) CHECK(g.at[i][0] == want[i][0] && g.at[i][1] == want[i][1]);
    /* No ranges: the whole window; a window inside one range: nothing. */
    gap_log all = {0}, none = {0};
    REQUIRE(ue_for_each_gap(NULL, 0, 7, 9, log_gap, &all) == UE_OK);
    CHECK(all.n == 1 && all.at[0][0] == 7 && all.at[0][1] == 9);
    ue_span big[] = {{0, 1000}};
    REQUIRE(ue_for_each_gap(big, 1, 100, 200, log_gap, &none) == UE_OK);
    CHECK(none.n == 0);
    /* The callback's failure stops the walk and comes back. */
    gap_log full = {.n = 16};
    CHECK_EQ_U(ue_for_each_gap(s, 5, 0, 100, log_gap, &full), UE_ERR_NOMEM);
}

int main(void) {
    RUN(array_doubles_and_keeps);
    RUN(gaps_are_the_uncovered_bytes);
    return TEST_SUMMARY();
}
