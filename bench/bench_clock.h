/* What every benchmark measures with: a monotonic clock in milliseconds and the median of a run. */
#ifndef KILN_BENCH_CLOCK_H
#define KILN_BENCH_CLOCK_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static inline double bench_now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static inline int bench_compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts values (n > 0) in place and returns the middle one. */
static inline double bench_median(double *values, uint32_t n) {
    qsort(values, n, sizeof values[0], bench_compare_doubles);
    return values[n / 2];
}

#endif
