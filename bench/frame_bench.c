/* frame_bench: what each post and shadow feature costs in a frame of the demo scene.
 *
 *   build/bin/kiln-frame-bench [--size WxH] [--frames N]
 *
 * For each configuration (everything off, the defaults, and each default feature turned off in
 * turn, then MSAA 4 + FXAA) it renders N warm frames of the demo scene, each submitted and waited
 * for on the queue, and prints one JSON line: the configuration, the frame size, the passes and
 * the median and best wall time per frame in milliseconds. Wall time includes the CPU recording
 * and the wait, so it is what an application rendering one frame at a time sees; it is not a GPU
 * timer. Not a test: the figures go in docs/PERFORMANCE.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <kiln/render.h>
#include "demo_scene.h"

#define WARMUP 5
#define MAX_FRAMES 1000

typedef struct config {
    const char *name;
    kiln_render_settings settings;
} config;

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
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
    kiln_render_target t = {kiln_resources_texture_raw(res, target, NULL), kiln_resources_texture_view_raw(res, view, NULL)};
    static double times[MAX_FRAMES];
    for (uint32_t i = 0; ok && i < WARMUP + frames; i++) {
        double start = now_ms();
        ok = kiln_renderer_render(r, &demo.scene, t, err) && kiln_gfx_wait_for_queue(gfx, err);
        if (i >= WARMUP) times[i - WARMUP] = now_ms() - start;
    }
    if (ok) {
        qsort(times, frames, sizeof times[0], by_value);
        printf("{\"config\": \"%s\", \"size\": \"%ux%u\", \"passes\": %u, \"frames\": %u, \"median_ms\": %.2f, "
               "\"best_ms\": %.2f, \"adapter\": \"%s\"}\n",
               c->name, width, height, kiln_renderer_stats(r)->passes, frames, times[frames / 2], times[0],
               gfx->adapter_name);
        fflush(stdout);
    }
    if (view.id) kiln_resources_destroy_texture_view(res, view, NULL);
    if (target.id) kiln_resources_destroy_texture(res, target, NULL);
    demo_scene_free(&demo);
    kiln_renderer_destroy(r);
    return ok;
}

int main(int argc, char **argv) {
    uint32_t width = 1280, height = 720, frames = 30;
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--size") && v && sscanf(v, "%ux%u", &width, &height) == 2 && width && height &&
            width <= 8192 && height <= 8192) {
            i++;
        } else if (!strcmp(argv[i], "--frames") && v && (frames = (uint32_t)atoi(v)) >= 1 && frames <= MAX_FRAMES) {
            i++;
        } else {
            fprintf(stderr, "kiln-frame-bench: bad argument '%s'\nusage: kiln-frame-bench [--size WxH] [--frames 1..%d]\n",
                    argv[i], MAX_FRAMES);
            return 2;
        }
    }
    const config configs[] = {
        {"all off", {.disable_shadows = true, .disable_bloom = true, .disable_ao = true}},
        {"defaults (shadows, ao, bloom)", {0}},
        {"no shadows", {.disable_shadows = true}},
        {"no ao", {.disable_ao = true}},
        {"no bloom", {.disable_bloom = true}},
        {"defaults, 1024 cascade maps", {.cascade_resolution = 1024}},
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
