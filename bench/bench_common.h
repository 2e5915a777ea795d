/* What the benchmarks share: a monotonic clock in milliseconds, the median of a run, and the
 * --size WxH / --frames N flags over the tools' parser (tools/tool_options.h). */
#ifndef KILN_BENCH_COMMON_H
#define KILN_BENCH_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tool_options.h"

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

/* The --size and --frames rows of the benchmarks' flag tables that take them. */
#define BENCH_SIZE_FLAG {"--size", "WxH", "the target's size"}
#define BENCH_FRAMES_FLAG {"--frames", "N", "frames measured"}

/* What --size and --frames set: the target's size and the frames measured, at most max_frames. */
typedef struct bench_frame_options {
    uint32_t width, height, frames, max_frames;
} bench_frame_options;

/* A tool_args_run reader for --size and --frames (user: a bench_frame_options), and the last
 * reader of a benchmark with flags of its own: a positional is refused. */
static inline bool bench_read_frame_flag(tool_args *a, void *user) {
    bench_frame_options *o = user;
    uint64_t frames;
    if (!a->flag) return tool_args_unexpected(a), false;
    if (tool_args_is(a, "--size")) return tool_args_size(a, &o->width, &o->height);
    if (!tool_args_uint(a, 1, o->max_frames, &frames)) return false;
    o->frames = (uint32_t)frames;
    return true;
}

/* Parses argv over cli with `read`; TOOL_RUN to go on, else the exit status. */
static inline int bench_parse(const tool_cli *cli, int argc, char **argv, bool (*read)(tool_args *a, void *user), void *user) {
    tool_args a = tool_args_begin(cli, argc, argv, NULL, stdout, stderr);
    return tool_args_run(&a, read, user);
}

#endif
