/* frame_bench: what each post and shadow feature costs in a frame of the demo scene.
 *
 *   build/bin/kiln-frame-bench [--size WxH] [--frames N]
 *
 * For each configuration (everything off, the defaults, and each default feature turned off in
 * turn, then everything on at MSAA 1 and 4) it renders N warm frames of the demo scene, each
 * submitted and waited for on the queue, and prints one JSON line: the configuration, the frame
 * size, the passes, the median and best wall time per frame in milliseconds, and the median GPU
 * time of each pass from the renderer's timestamp queries (kiln_renderer_pass_timings). Wall
 * time includes the CPU recording and the wait, so it is what an application rendering one frame
 * at a time sees. The GPU times are collected after each frame's wait, outside the wall time;
 * where the device has no timestamp queries "gpu_timings" is "unavailable" and "gpu_passes"
 * null. Not a test: the figures go in docs/PERFORMANCE.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <kiln/render.h>

#include "bench_common.h"
#include "demo_scene.h"

#define WARMUP 5
#define MAX_FRAMES 1000
#define READBACK_PUMPS 16 /* pumps after a frame's wait for its timestamps to come back */

typedef struct config {
    const char *name;
    kiln_render_settings settings;
} config;

/* Per-pass GPU times of the measured frames: one row per frame that came back, all with the
 * first one's passes. */
typedef struct gpu_samples {
    kiln_frame_timings_status status;
    uint32_t frames, passes;
    char names[KILN_MAX_TIMED_PASSES][KILN_TIMED_PASS_NAME_SIZE];
    double ms[MAX_FRAMES][KILN_MAX_TIMED_PASSES];
    double total_ms[MAX_FRAMES];
} gpu_samples;

/* After frame `frame` was waited for: pumps until its timings come back (they need a pump or
 * two once the queue is idle) and keeps them. */
static bool awaiting(const kiln_frame_timings *t, uint64_t frame) {
    return t->status == KILN_FRAME_TIMINGS_PENDING || (t->status == KILN_FRAME_TIMINGS_READY && t->frame < frame);
}

static void collect_gpu_times(kiln_gfx *gfx, kiln_renderer *r, uint64_t frame, gpu_samples *g) {
    kiln_frame_timings t = kiln_renderer_pass_timings(r);
    for (int i = 0; i < READBACK_PUMPS && awaiting(&t, frame); i++) {
        kiln_gfx_pump(gfx, true);
        t = kiln_renderer_pass_timings(r);
    }
    g->status = t.status;
    if (t.status != KILN_FRAME_TIMINGS_READY || t.frame != frame) return;
    if (!g->frames) {
        g->passes = t.count;
        for (uint32_t p = 0; p < t.count; p++) memcpy(g->names[p], t.passes[p].name, KILN_TIMED_PASS_NAME_SIZE);
    }
    if (t.count != g->passes) return;
    for (uint32_t p = 0; p < t.count; p++) g->ms[g->frames][p] = t.passes[p].gpu_ms;
    g->total_ms[g->frames++] = t.total_ms;
}

/* ", "gpu_timings": ..., "gpu_passes": [...]": each pass's median over the frames. */
static void print_gpu_times(gpu_samples *g) {
    printf(", \"gpu_timings\": \"%s\", \"gpu_passes\": ", kiln_frame_timings_status_name(g->status));
    if (!g->frames) {
        printf("null");
        return;
    }
    static double column[MAX_FRAMES];
    putchar('[');
    for (uint32_t p = 0; p < g->passes; p++) {
        for (uint32_t f = 0; f < g->frames; f++) column[f] = g->ms[f][p];
        printf("%s{\"pass\": \"%s\", \"median_ms\": %.3f}", p ? ", " : "", g->names[p], bench_median(column, g->frames));
    }
    printf("], \"gpu_frames\": %u, \"gpu_total_median_ms\": %.3f", g->frames, bench_median(g->total_ms, g->frames));
}

/* Renders the configuration and prints its line; false (err set) when a frame failed. */
static bool measure(kiln_gfx *gfx, kiln_resources *res, const config *c, uint32_t width, uint32_t height,
                    uint32_t frames, kiln_error *err) {
    const WGPUTextureFormat format = WGPUTextureFormat_RGBA8UnormSrgb;
    kiln_renderer *r = kiln_renderer_create(gfx, res, &c->settings, format, err);
    if (!r) return false;
    demo_scene demo = {0};
    kiln_texture target = {0};
    kiln_texture_view view = {0};
    bool ok = demo_scene_build(r, (float)width / (float)height, &demo, err);
    if (ok) {
        target = kiln_resources_create_texture(res, &(kiln_texture_desc){.label = "bench target", .width = width,
            .height = height, .format = format, .usage = WGPUTextureUsage_RenderAttachment}, err);
        ok = target.id && (view = kiln_resources_create_texture_view(res, target, NULL, err)).id;
    }
    kiln_render_target t = {.texture = kiln_resources_texture_raw(res, target, NULL), .view = kiln_resources_texture_view_raw(res, view, NULL)};
    static double times[MAX_FRAMES];
    static gpu_samples gpu;
    gpu.frames = 0;
    for (uint32_t i = 0; ok && i < WARMUP + frames; i++) {
        double start = bench_now_ms();
        ok = kiln_renderer_render(r, &demo.scene, t, err) && kiln_gfx_wait_for_queue(gfx, err);
        if (i < WARMUP) continue;
        times[i - WARMUP] = bench_now_ms() - start;
        if (ok) collect_gpu_times(gfx, r, i + 1, &gpu);
    }
    if (ok) {
        qsort(times, frames, sizeof times[0], bench_compare_doubles);
        printf("{\"config\": \"%s\", \"size\": \"%ux%u\", \"msaa\": %u, \"passes\": %u, \"frames\": %u, "
               "\"median_ms\": %.2f, \"best_ms\": %.2f, \"adapter\": \"%s\"",
               c->name, width, height, c->settings.msaa ? c->settings.msaa : 1, kiln_renderer_stats(r)->passes, frames,
               times[frames / 2], times[0], gfx->adapter_name);
        print_gpu_times(&gpu);
        printf("}\n");
        fflush(stdout);
    }
    if (view.id) kiln_resources_destroy_texture_view(res, view, NULL);
    if (target.id) kiln_resources_destroy_texture(res, target, NULL);
    demo_scene_free(&demo);
    kiln_renderer_destroy(r);
    return ok;
}

int main(int argc, char **argv) {
    bench_frame_options o = {.width = 1280, .height = 720, .frames = 30, .max_frames = MAX_FRAMES};
    int status = bench_parse_frame_options("kiln-frame-bench", "kiln-frame-bench [--size WxH] [--frames N]", argc, argv, &o);
    if (status != TOOL_RUN) return status;
    uint32_t width = o.width, height = o.height, frames = o.frames;
    const config configs[] = {
        {"all off", {.disable_shadows = true, .disable_bloom = true, .disable_ao = true}},
        {"defaults (shadows, ao, bloom)", {0}},
        {"no shadows", {.disable_shadows = true}},
        {"no ao", {.disable_ao = true}},
        {"no bloom", {.disable_bloom = true}},
        {"defaults, 1024 cascade maps", {.cascade_resolution = 1024}},
        {"defaults + fxaa", {.fxaa = true}},
        {"defaults + msaa 4 + fxaa", {.msaa = 4, .fxaa = true}},
    };
    kiln_error err = {0};
    kiln_gfx *gfx = kiln_gfx_create(&(kiln_gfx_desc){.label = "kiln-frame-bench"}, &err);
    kiln_resources *res = gfx ? kiln_resources_create(gfx, 0, &err) : NULL;
    bool ok = res != NULL;
    for (size_t i = 0; ok && i < sizeof configs / sizeof configs[0]; i++)
        ok = measure(gfx, res, &configs[i], width, height, frames, &err);
    if (ok && gfx->error_count) {
        ok = false;
        snprintf(err.message, sizeof err.message, "%llu validation error(s) from Dawn", (unsigned long long)gfx->error_count);
    }
    if (!ok) fprintf(stderr, "kiln-frame-bench: %s\n", err.message);
    kiln_resources_destroy(res);
    kiln_gfx_destroy(gfx);
    return ok ? 0 : 1;
}
