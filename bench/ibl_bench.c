/* ibl_bench: what the environment bake costs.
 *
 *   build/bin/kiln-ibl-bench [--runs N] [FILE.hdr ...]
 *
 * For the procedural sky and then each map (default: $KILN_ASSETS/env/chinese_garden_1k.hdr,
 * KILN_ASSETS defaulting to ../shared/assets), prints one JSON line: the first frame of a new
 * renderer (the BRDF table and the bake, the pipelines already built), then the median and best
 * of N re-bakes (kiln_renderer_invalidate_environment before a frame) and of N frames that do
 * not bake, all wall time in milliseconds, each frame submitted and waited for. The frame is an
 * empty 64 x 64 scene, so a re-bake's extra time over a plain frame is the bake; the map's decode
 * (kiln_image_load_hdr, CPU) is reported apart. Not a test: the figures go in
 * docs/PERFORMANCE.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <kiln/render.h>

#include "bench_common.h"

#define MAX_RUNS 200
#define SIZE 64

/* One source: NULL path is the procedural sky. */
static bool measure(kiln_gfx *gfx, kiln_resources *res, const char *path, uint32_t runs, kiln_error *err) {
    kiln_image map = {0};
    double decode_ms = 0.0;
    if (path) {
        double start = bench_now_ms();
        if (!kiln_image_load_hdr(&map, path, err)) return false;
        decode_ms = bench_now_ms() - start;
    }
    const WGPUTextureFormat format = WGPUTextureFormat_RGBA8Unorm;
    kiln_renderer *r = kiln_renderer_create(gfx, res, NULL, format, err);
    kiln_texture target = {0};
    kiln_texture_view view = {0};
    bool ok = r != NULL;
    kiln_render_scene scene = {.camera = kiln_camera_look_at((kiln_vec3){0, 1, 0}, (kiln_vec3){0, 1, -1},
                                                             (kiln_vec3){0, 1, 0}, 1.0f, 1.0f, 0.1f)};
    kiln_light sun = kiln_light_sun((kiln_vec3){-0.5f, -1.0f, -0.4f}, (kiln_vec3){1, 1, 1}, 3.0f);
    scene.lights = &sun, scene.light_count = 1;
    if (ok && path) {
        kiln_texture_create_desc d = {.format = KILN_FORMAT_RGBA16_FLOAT, .width = map.width, .height = map.height,
                                      .pixels = map.pixels, .pixels_size = kiln_image_byte_size(&map)};
        ok = (scene.environment.equirect = kiln_texture_registry_add(kiln_renderer_texture_registry(r), &d, err)) != 0;
    }
    if (ok) {
        target = kiln_resources_create_texture(res, &(kiln_texture_desc){.label = "bench target", .width = SIZE,
            .height = SIZE, .format = format, .usage = WGPUTextureUsage_RenderAttachment}, err);
        ok = target.id && (view = kiln_resources_create_texture_view(res, target, NULL, err)).id;
    }
    kiln_render_target t = {.texture = kiln_resources_texture_raw(res, target, NULL), .view = kiln_resources_texture_view_raw(res, view, NULL)};
    double first = 0.0;
    static double bakes[MAX_RUNS], plain[MAX_RUNS];
    if (ok) {
        double start = bench_now_ms();
        ok = kiln_renderer_render(r, &scene, t, err) && kiln_gfx_wait_for_queue(gfx, err);
        first = bench_now_ms() - start;
    }
    for (uint32_t i = 0; ok && i < runs; i++) {
        kiln_renderer_invalidate_environment(r);
        double start = bench_now_ms();
        ok = kiln_renderer_render(r, &scene, t, err) && kiln_gfx_wait_for_queue(gfx, err);
        bakes[i] = bench_now_ms() - start;
        start = bench_now_ms();
        ok = ok && kiln_renderer_render(r, &scene, t, err) && kiln_gfx_wait_for_queue(gfx, err);
        plain[i] = bench_now_ms() - start;
    }
    if (ok) {
        double bake_median = bench_median(bakes, runs), plain_median = bench_median(plain, runs);
        const char *name = path ? strrchr(path, '/') ? strrchr(path, '/') + 1 : path : "procedural sky";
        printf("{\"bench\": \"ibl_bake\", \"source\": \"%s\", \"adapter\": \"%s\", \"decode_ms\": %.2f, "
               "\"first_frame_ms\": %.2f, \"rebake_frame_ms_median\": %.2f, \"rebake_frame_ms_best\": %.2f, "
               "\"plain_frame_ms_median\": %.2f, \"bake_ms\": %.2f, \"runs\": %u}\n",
               name, gfx->adapter_name, decode_ms, first, bake_median, bakes[0], plain_median, bake_median - plain_median,
               runs);
    }
    if (view.id) kiln_resources_destroy_texture_view(res, view, NULL);
    if (target.id) kiln_resources_destroy_texture(res, target, NULL);
    kiln_renderer_destroy(r);
    kiln_image_free(&map);
    return ok;
}

/* The command line: --runs N and up to 16 maps. */
typedef struct ibl_options {
    uint64_t runs;
    const char *paths[16];
    int path_count;
} ibl_options;

static bool read_flag(tool_args *a, void *user) {
    ibl_options *o = user;
    if (a->flag) return tool_args_uint(a, 1, MAX_RUNS, &o->runs);
    if (o->path_count == 16) return tool_args_unexpected(a), false;
    o->paths[o->path_count++] = a->value;
    return true;
}

int main(int argc, char **argv) {
    static const tool_flag flags[] = {{"--runs", "N", "bakes measured per map (default 10)"}, {NULL, NULL, NULL}};
    static const tool_cli cli = {.tool = "kiln-ibl-bench", .synopsis = "kiln-ibl-bench [--runs N] [FILE.hdr ...]",
                                 .flags = flags, .notes = "Up to 16 maps; none: the sample environment.\n"};
    ibl_options o = {.runs = 10};
    int status = bench_parse(&cli, argc, argv, read_flag, &o);
    if (status != TOOL_RUN) return status;
    uint32_t runs = (uint32_t)o.runs;
    const char **paths = o.paths;
    int path_count = o.path_count;
    static char fallback[1024];
    if (!path_count) {
        const char *assets = getenv("KILN_ASSETS");
        snprintf(fallback, sizeof fallback, "%s/env/chinese_garden_1k.hdr", assets ? assets : "../shared/assets");
        paths[path_count++] = fallback;
    }
    kiln_error err = {0};
    kiln_gfx *gfx = kiln_gfx_create(&(kiln_gfx_desc){.label = "kiln-ibl-bench"}, &err);
    kiln_resources *res = gfx ? kiln_resources_create(gfx, 0, &err) : NULL;
    bool ok = res && measure(gfx, res, NULL, runs, &err);
    for (int i = 0; ok && i < path_count; i++) ok = measure(gfx, res, paths[i], runs, &err);
    if (!ok) fprintf(stderr, "kiln-ibl-bench: %s\n", err.message);
    kiln_resources_destroy(res);
    kiln_gfx_destroy(gfx);
    return ok ? 0 : 1;
}
