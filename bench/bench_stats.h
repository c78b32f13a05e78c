/* unearth benchmarks — the statistics the whole-process benches print of their runs: the median,
 * taken by sorting the runs in place (so v[0] and v[n - 1] are then the range). */
#ifndef UNEARTH_BENCH_STATS_H
#define UNEARTH_BENCH_STATS_H

#include <stdlib.h>

static int bench_by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of v[0..n), n ≥ 1; v is left sorted. */
static double bench_median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, bench_by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif
