/* What the benchmarks share: a monotonic clock in milliseconds, the median of a run, and the
 * --size WxH / --frames N command line. */
#ifndef KILN_BENCH_COMMON_H
#define KILN_BENCH_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* [--size WxH] [--frames 1..max_frames] into *width, *height, *frames (left as given when a flag
 * is absent); false, with the bad argument and the usage of `tool` on stderr, otherwise. */
static inline bool bench_parse_size_and_frames(int argc, char **argv, const char *tool, uint32_t max_frames,
                                               uint32_t *width, uint32_t *height, uint32_t *frames) {
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--size") && v && sscanf(v, "%ux%u", width, height) == 2 && *width && *height &&
            *width <= 8192 && *height <= 8192) {
            i++;
        } else if (!strcmp(argv[i], "--frames") && v && (*frames = (uint32_t)atoi(v)) >= 1 && *frames <= max_frames) {
            i++;
        } else {
            fprintf(stderr, "%s: bad argument '%s'\nusage: %s [--size WxH] [--frames 1..%u]\n", tool, argv[i], tool,
                    max_frames);
            return false;
        }
    }
    return true;
}

#endif
