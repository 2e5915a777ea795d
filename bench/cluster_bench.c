/* cluster_bench: what the cluster light cull costs with the compacted per-frame light lists.
 *
 *   build/bin/kiln-cluster-bench [--size WxH] [--frames N]
 *
 * For 10, 256 and 1,024 point lights crowded into one block ahead of the camera (the dense view
 * of tests/render/test_clusters.c, over a ground plane) it renders N warm frames, each submitted
 * and waited for, and prints one JSON line: the exact light references (the CPU reference
 * kiln_clusters_assign_cpu), the clusters touched by more than 32 lights and the most lights in
 * one cluster, the frame's CPU bound and list capacity (kiln_frame_stats), the median CPU time of
 * the bound (kiln_cluster_light_bound, what kiln_clusters_update adds to every frame) and the
 * median GPU time of the "cluster light cull" pass (kiln_renderer_pass_timings). Where the device
 * has no timestamp queries "cull_gpu_median_ms" is null. Not a test: the figures go in
 * docs/PERFORMANCE.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <kiln/render.h>

#include "bench_common.h"

#include "render/clusters.h"

#define WARMUP 5
#define MAX_FRAMES 1000
#define BOUND_RUNS 201     /* timed calls of the bound per light count */
#define READBACK_PUMPS 16  /* pumps after a frame's wait for its timestamps to come back */

static uint32_t next_random(uint32_t *state) {
    uint32_t x = *state; /* xorshift32: the same scene on every machine */
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

static float random_in(uint32_t *state, float lo, float hi) {
    return lo + (hi - lo) * (float)(next_random(state) >> 8) / 16777216.0f;
}

static kiln_camera bench_camera(uint32_t width, uint32_t height) {
    kiln_camera camera = kiln_camera_look_at(kiln_vec3_make(0.0f, 1.7f, 4.0f), kiln_vec3_make(2.0f, 1.0f, -30.0f),
                                             kiln_vec3_make(0.0f, 1.0f, 0.0f), 60.0f * KILN_PI / 180.0f,
                                             (float)width / (float)height, 0.1f);
    kiln_camera_set_viewport(&camera, width, height);
    return camera;
}

/* `count` point lights of 2..6 m in a 30 x 12 x 60 m view-space block from 4 m ahead. */
static void dense_lights(const kiln_camera *camera, uint32_t count, kiln_light *out) {
    kiln_mat4 inverse_view;
    if (!kiln_mat4_inverse(kiln_camera_view(camera), &inverse_view)) inverse_view = kiln_mat4_identity();
    uint32_t seed = 0x64656e73u;
    for (uint32_t i = 0; i < count; i++) {
        kiln_vec3 p = kiln_vec3_make(random_in(&seed, -15.0f, 15.0f), random_in(&seed, -6.0f, 6.0f),
                                     -random_in(&seed, 4.0f, 64.0f));
        kiln_vec3 color = kiln_vec3_make(random_in(&seed, 0, 1), random_in(&seed, 0, 1), random_in(&seed, 0, 1));
        out[i] = kiln_light_point(kiln_mat4_transform_point(inverse_view, p), color, 50.0f, random_in(&seed, 2.0f, 6.0f));
    }
}

/* The GPU time of the cull pass in the frame just waited for; negative when it did not come back. */
static double cull_gpu_ms(kiln_gfx *gfx, kiln_renderer *r, uint64_t frame) {
    kiln_frame_timings t = kiln_renderer_pass_timings(r);
    for (int i = 0; i < READBACK_PUMPS && (t.status == KILN_FRAME_TIMINGS_PENDING ||
                                           (t.status == KILN_FRAME_TIMINGS_READY && t.frame < frame)); i++) {
        kiln_gfx_pump(gfx, true);
        t = kiln_renderer_pass_timings(r);
    }
    if (t.status != KILN_FRAME_TIMINGS_READY || t.frame != frame) return -1.0;
    for (uint32_t p = 0; p < t.count; p++)
        if (!strcmp(t.passes[p].name, "cluster light cull")) return t.passes[p].gpu_ms;
    return -1.0;
}

/* What the CPU side says of the scene: the bound's median time and the exact lists. */
typedef struct cpu_figures {
    double bound_median_us, bound_best_us;
    uint32_t references, over_32, max_per_cluster;
} cpu_figures;

static cpu_figures measure_cpu(const kiln_camera *camera, const kiln_light *lights, uint32_t count, uint32_t width,
                               uint32_t height) {
    static kiln_gpu_light records[KILN_MAX_LIGHTS];
    static kiln_cluster_range ranges[KILN_CLUSTER_COUNT];
    static uint32_t indices[KILN_CLUSTER_LIST_MAX_CAPACITY];
    static double times[BOUND_RUNS];
    cpu_figures f = {0};
    uint32_t n = kiln_pack_lights_into(lights, count, records, KILN_MAX_LIGHTS, NULL, NULL);
    kiln_cluster_uniform u;
    if (!kiln_cluster_uniform_compute(&u, kiln_camera_view(camera), kiln_camera_projection(camera), camera->near, width,
                                      height, n, NULL))
        return f;
    volatile uint32_t sink = 0; /* keeps the timed calls */
    for (uint32_t i = 0; i < BOUND_RUNS; i++) {
        double start = bench_now_ms();
        sink += kiln_cluster_light_bound(&u, records, n);
        times[i] = (bench_now_ms() - start) * 1e3;
    }
    (void)sink;
    f.bound_median_us = bench_median(times, BOUND_RUNS);
    f.bound_best_us = times[0];
    f.references = kiln_clusters_assign_cpu(&u, records, n, ranges, indices, KILN_CLUSTER_LIST_MAX_CAPACITY);
    for (uint32_t k = 0; k < KILN_CLUSTER_COUNT; k++) {
        f.over_32 += ranges[k].count > 32;
        f.max_per_cluster = ranges[k].count > f.max_per_cluster ? ranges[k].count : f.max_per_cluster;
    }
    return f;
}

/* Renders `count` lights and prints their line; false (err set) when a frame failed. */
static bool measure(kiln_gfx *gfx, kiln_resources *res, uint32_t count, uint32_t width, uint32_t height, uint32_t frames,
                    kiln_error *err) {
    const WGPUTextureFormat format = WGPUTextureFormat_RGBA8UnormSrgb;
    kiln_renderer *r = kiln_renderer_create(gfx, res, NULL, format, err);
    if (!r) return false;
    kiln_camera camera = bench_camera(width, height);
    static kiln_light lights[KILN_MAX_LIGHTS];
    dense_lights(&camera, count, lights);
    kiln_mesh_data md = {0};
    bool ok = kiln_mesh_plane(&md, 100.0f, 1, err);
    uint32_t plane = ok ? kiln_renderer_add_mesh(r, "ground", &md, true, err) : KILN_INVALID_INDEX;
    kiln_mesh_data_free(&md);
    kiln_material m = kiln_material_default("ground");
    uint32_t material = plane != KILN_INVALID_INDEX ? kiln_renderer_add_material(r, &m, err) : KILN_INVALID_INDEX;
    ok = material != KILN_INVALID_INDEX;
    kiln_render_instance ground = {.mesh = plane, .material = material, .transform = kiln_mat4_translation(kiln_vec3_make(0, -4, 0))};
    kiln_render_scene scene = {.camera = camera, .lights = lights, .light_count = count, .instances = &ground,
                               .instance_count = 1};
    kiln_texture target = {0};
    kiln_texture_view view = {0};
    if (ok) {
        target = kiln_resources_create_texture(res, &(kiln_texture_desc){.label = "bench target", .width = width,
            .height = height, .format = format, .usage = WGPUTextureUsage_RenderAttachment}, err);
        ok = target.id && (view = kiln_resources_create_texture_view(res, target, NULL, err)).id;
    }
    kiln_render_target t = {.texture = kiln_resources_texture_raw(res, target, NULL), .view = kiln_resources_texture_view_raw(res, view, NULL)};
    static double gpu[MAX_FRAMES];
    uint32_t gpu_frames = 0;
    for (uint32_t i = 0; ok && i < WARMUP + frames; i++) {
        ok = kiln_renderer_render(r, &scene, t, err) && kiln_gfx_wait_for_queue(gfx, err);
        double ms = ok && i >= WARMUP ? cull_gpu_ms(gfx, r, i + 1) : -1.0;
        if (ms >= 0.0) gpu[gpu_frames++] = ms;
    }
    if (ok) {
        const kiln_frame_stats *stats = kiln_renderer_stats(r);
        cpu_figures c = measure_cpu(&camera, lights, count, width, height);
        printf("{\"lights\": %u, \"size\": \"%ux%u\", \"frames\": %u, \"references\": %u, \"clusters_over_32\": %u, "
               "\"max_per_cluster\": %u, \"bound\": %u, \"capacity\": %u, \"bound_cpu_median_us\": %.1f, "
               "\"bound_cpu_best_us\": %.1f, \"cull_gpu_median_ms\": ",
               count, width, height, frames, c.references, c.over_32, c.max_per_cluster, stats->cluster_light_bound,
               stats->cluster_list_capacity, c.bound_median_us, c.bound_best_us);
        if (gpu_frames) printf("%.3f", bench_median(gpu, gpu_frames));
        else printf("null");
        printf(", \"gpu_frames\": %u, \"adapter\": \"%s\"}\n", gpu_frames, gfx->adapter_name);
        fflush(stdout);
    }
    if (view.id) kiln_resources_destroy_texture_view(res, view, NULL);
    if (target.id) kiln_resources_destroy_texture(res, target, NULL);
    kiln_renderer_destroy(r);
    return ok;
}

int main(int argc, char **argv) {
    bench_frame_options o = {.width = 1280, .height = 720, .frames = 30, .max_frames = MAX_FRAMES};
    int status = bench_parse_frame_options("kiln-cluster-bench", "kiln-cluster-bench [--size WxH] [--frames N]", argc, argv, &o);
    if (status != TOOL_RUN) return status;
    uint32_t width = o.width, height = o.height, frames = o.frames;
    const uint32_t light_counts[] = {10, 256, KILN_MAX_LIGHTS};
    kiln_error err = {0};
    kiln_gfx *gfx = kiln_gfx_create(&(kiln_gfx_desc){.label = "kiln-cluster-bench"}, &err);
    kiln_resources *res = gfx ? kiln_resources_create(gfx, 0, &err) : NULL;
    bool ok = res != NULL;
    for (size_t i = 0; ok && i < sizeof light_counts / sizeof light_counts[0]; i++)
        ok = measure(gfx, res, light_counts[i], width, height, frames, &err);
    if (ok && gfx->error_count) {
        ok = false;
        snprintf(err.message, sizeof err.message, "%llu validation error(s) from Dawn", (unsigned long long)gfx->error_count);
    }
    if (!ok) fprintf(stderr, "kiln-cluster-bench: %s\n", err.message);
    kiln_resources_destroy(res);
    kiln_gfx_destroy(gfx);
    return ok ? 0 : 1;
}
