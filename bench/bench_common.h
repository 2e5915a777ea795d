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

/* The command line of a frame benchmark: [--size WxH] [--frames N] and at most one whole-number
 * flag of its own (--passes, --seed). Set the defaults, then bench_parse_frame_options. */
typedef struct bench_frame_options {
    uint32_t width, height, frames, max_frames;
    bool no_size;                 /* the benchmark draws no target of a chosen size: no --size */
    tool_flag extra_flag;         /* its own flag ({"--seed", "S", doc}); a NULL name: none */
    uint64_t extra_min, extra_max, extra;
} bench_frame_options;

static inline bool bench_read_frame_flag(tool_args *a, void *user) {
    bench_frame_options *o = user;
    uint64_t frames;
    if (!a->flag) return tool_args_unexpected(a), false;
    if (tool_args_is(a, "--size")) return tool_args_size(a, &o->width, &o->height);
    if (!tool_args_is(a, "--frames")) return tool_args_uint(a, o->extra_min, o->extra_max, &o->extra);
    if (!tool_args_uint(a, 1, o->max_frames, &frames)) return false;
    o->frames = (uint32_t)frames;
    return true;
}

/* Parses argv into *o for `tool` (its usage line `synopsis`); TOOL_RUN to go on, else the exit
 * status. */
static inline int bench_parse_frame_options(const char *tool, const char *synopsis, int argc, char **argv,
                                            bench_frame_options *o) {
    tool_flag flags[4] = {{"--frames", "N", "frames measured"}};
    int n = 1;
    if (!o->no_size) flags[n++] = (tool_flag){"--size", "WxH", "the target's size"};
    if (o->extra_flag.name) flags[n++] = o->extra_flag;
    const tool_cli cli = {.tool = tool, .synopsis = synopsis, .flags = flags};
    tool_args a = tool_args_begin(&cli, argc, argv, NULL, stdout, stderr);
    return tool_args_run(&a, bench_read_frame_flag, o);
}

/* Parses argv over cli with `read`; TOOL_RUN to go on, else the exit status. */
static inline int bench_parse(const tool_cli *cli, int argc, char **argv, bool (*read)(tool_args *a, void *user), void *user) {
    tool_args a = tool_args_begin(cli, argc, argv, NULL, stdout, stderr);
    return tool_args_run(&a, read, user);
}

#endif
