/* pass_bench: what one render pass costs the CPU through kiln's gfx layer and Dawn, with nothing
 * of the program runtime or the frame graph around it: the floor under a program's record time.
 *
 *   build/bin/kiln-pass-bench [--frames N]
 *
 * Each configuration records 300 render passes into a fresh encoder, N times (the encoder is
 * dropped outside the timing, unless the configuration submits it and waits for the queue, also
 * outside the timing), and prints one JSON line with the median and best CPU time per pass:
 *   - "begin_end": begin (one 1x1 R32Float attachment, cleared and stored) and end;
 *   - "begin_end_timed": the same with timestamp writes at both ends, as the runtime times a pass;
 *   - "counting_pass": the program runtime's pass of kiln-program-bench: timed, its pipeline, a
 *     uniform group at a dynamic offset, an input group reading the other texture, a fullscreen
 *     triangle (no viewport: the attachment's whole extent is the default), ping-ponging between
 *     two textures;
 *   - "counting_pass_submitted": the same, each frame submitted and waited for, as
 *     kiln-program-bench does: the queue's work in between leaves the next frame's caches cold;
 *   - "scope_set_awaited": three error scope pushes and three pops, each awaited with WaitAny
 *     (how kiln popped them before AllowSpontaneous), per pass of work done;
 *   - "scope_set": kiln_gfx_push_scope and kiln_gfx_pop_scope, as they are;
 *   - "deferred_scope_set": kiln_gfx_defer_scope and kiln_gfx_pop_deferred_scope around a stretch
 *     that makes no call able to raise an error (nothing is pushed).
 * Not a test: the figures go in docs/PERFORMANCE.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <kiln/gfx.h>

#include "bench_common.h"

#define PASSES 300
#define MAX_FRAMES 1000

static const char *const PASS_WGSL =
    "struct U { value: vec4<f32> };\n"
    "@group(0) @binding(0) var<uniform> u: U;\n"
    "@group(1) @binding(0) var previous: texture_2d<f32>;\n"
    "@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {\n"
    "    let p = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));\n"
    "    return vec4<f32>(p * 2.0 - 1.0, 0.0, 1.0);\n"
    "}\n"
    "@fragment fn fs_main(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {\n"
    "    return textureLoad(previous, vec2<i32>(position.xy), 0) + u.value;\n"
    "}\n";

static double thread_cpu_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

typedef enum bench_config {
    CONFIG_BEGIN_END,
    CONFIG_BEGIN_END_TIMED,
    CONFIG_COUNTING_PASS,
    CONFIG_COUNTING_PASS_SUBMITTED,
    CONFIG_SCOPE_SET_AWAITED,
    CONFIG_SCOPE_SET,
    CONFIG_DEFERRED_SCOPE_SET,
    CONFIG_COUNT,
} bench_config;

static const char *const CONFIG_NAMES[CONFIG_COUNT] = {
    "begin_end", "begin_end_timed", "counting_pass", "counting_pass_submitted", "scope_set_awaited", "scope_set", "deferred_scope_set",
};

typedef struct bench_objects {
    kiln_gfx *gfx;
    kiln_resources *res;
    kiln_texture textures[2];
    kiln_texture_view views[2];
    kiln_buffer uniforms;
    kiln_bind_group uniform_group;
    kiln_bind_group input_groups[2];   /* input_groups[i] reads views[1 - i] */
    kiln_render_pipeline pipeline;
    kiln_timestamps *timestamps;       /* NULL without timestamp queries */
} bench_objects;

static bool make_objects(bench_objects *o, kiln_error *err) {
    kiln_resources *res = o->res;
    for (int i = 0; i < 2; i++) {
        o->textures[i] = kiln_resources_create_texture(
            res, &(kiln_texture_desc){.label = "pass bench target", .width = 1, .height = 1,
                                      .format = WGPUTextureFormat_R32Float,
                                      .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_TextureBinding},
            err);
        if (!o->textures[i].id) return false;
        o->views[i] = kiln_resources_create_texture_view(res, o->textures[i], NULL, err);
        if (!o->views[i].id) return false;
    }
    o->uniforms = kiln_resources_create_buffer(res, &(kiln_buffer_desc){.label = "pass bench uniforms", .size = 256 * PASSES,
                                                                        .usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst},
                                               err);
    kiln_layout_entry uniform_entry = {.binding = 0, .visibility = WGPUShaderStage_Fragment,
                                       .kind = KILN_BINDING_UNIFORM_BUFFER, .dynamic_offset = true, .min_binding_size = 16};
    kiln_layout_entry input_entry = {.binding = 0, .visibility = WGPUShaderStage_Fragment,
                                     .kind = KILN_BINDING_UNFILTERABLE_TEXTURE_2D};
    kiln_bind_group_layout layouts[2] = {
        kiln_resources_create_bind_group_layout(res, "pass bench uniforms", &uniform_entry, 1, err),
        kiln_resources_create_bind_group_layout(res, "pass bench input", &input_entry, 1, err),
    };
    if (!o->uniforms.id || !layouts[0].id || !layouts[1].id) return false;
    kiln_binding_resource uniform = {.binding = 0, .buffer = o->uniforms, .size = 16};
    o->uniform_group = kiln_resources_create_bind_group(res, "pass bench uniforms", layouts[0], &uniform, 1, err);
    for (int i = 0; i < 2; i++) {
        kiln_binding_resource input = {.binding = 0, .view = o->views[1 - i]};
        o->input_groups[i] = kiln_resources_create_bind_group(res, "pass bench input", layouts[1], &input, 1, err);
        if (!o->input_groups[i].id) return false;
    }
    kiln_pipeline_layout layout = kiln_resources_create_pipeline_layout(res, "pass bench", layouts, 2, err);
    WGPUShaderModule module = kiln_gfx_compile_shader(o->gfx, "pass_bench.wgsl", PASS_WGSL, NULL, err);
    kiln_shader shader = module ? kiln_resources_adopt_shader(res, module, "pass bench", err) : (kiln_shader){0};
    if (!o->uniform_group.id || !layout.id || !shader.id) return false;
    o->pipeline = kiln_resources_create_render_pipeline(
        res, &(kiln_render_pipeline_desc){.label = "pass bench", .layout = layout, .shader = shader, .target_count = 1,
                                          .targets = {{.format = WGPUTextureFormat_R32Float}}},
        err);
    if (!o->pipeline.id) return false;
    if (o->gfx->features.timestamp_query) o->timestamps = kiln_timestamps_create(res, 2 * PASSES, err);
    return !o->gfx->features.timestamp_query || o->timestamps;
}

/* One render pass of the configuration, pass k of the encoder. */
static bool record_pass(bench_objects *o, bench_config config, kiln_encoder *enc, uint32_t k, kiln_error *err) {
    WGPUTextureView target = kiln_resources_texture_view_raw(o->res, o->views[k % 2], err);
    kiln_color_attachment color = kiln_color_cleared(target, 0, 0, 0, 0);
    kiln_pass_timestamps writes = {0};
    bool timed = config != CONFIG_BEGIN_END && o->timestamps;
    if (timed) writes = kiln_timestamps_pass(o->timestamps, 2 * k, 2 * k + 1);
    kiln_render_pass rp;
    if (!kiln_encoder_begin_render_pass_timed(enc, "fs_inc", &color, 1, NULL, timed ? &writes : NULL, &rp, err))
        return false;
    if (config == CONFIG_COUNTING_PASS || config == CONFIG_COUNTING_PASS_SUBMITTED) {
        uint32_t offset = 256 * k;
        kiln_render_pass_set_pipeline(&rp, o->pipeline, NULL);
        kiln_render_pass_set_bind_group(&rp, 0, o->uniform_group, &offset, 1, NULL);
        kiln_render_pass_set_bind_group(&rp, 1, o->input_groups[k % 2], NULL, 0, NULL);
        kiln_render_pass_draw(&rp, 3, 1, 0, 0);
    }
    kiln_render_pass_end(&rp);
    if (rp.failed) *err = rp.error;
    return !rp.failed;
}

typedef struct pop_request {
    WGPUPopErrorScopeStatus status;
} pop_request;

static void on_pop(WGPUPopErrorScopeStatus status, WGPUErrorType type, WGPUStringView message, void *ud1, void *ud2) {
    (void)type;
    (void)message;
    (void)ud2;
    ((pop_request *)ud1)->status = status;
}

/* Three pops, each with a WaitAnyOnly callback awaited by WaitAny. */
static bool pop_awaited(kiln_gfx *gfx, kiln_error *err) {
    for (int i = 0; i < 3; i++) {
        pop_request r = {0};
        WGPUFuture f = wgpuDevicePopErrorScope(gfx->device, (WGPUPopErrorScopeCallbackInfo){
                                                                .mode = WGPUCallbackMode_WaitAnyOnly,
                                                                .callback = on_pop, .userdata1 = &r});
        if (!kiln_gfx_await(gfx, f, KILN_GFX_DEFAULT_TIMEOUT_NS, "an error scope", err)) return false;
        if (r.status != WGPUPopErrorScopeStatus_Success)
            return kiln_error_set(err, KILN_ERR_GPU, "an error scope pop failed (status %d)", (int)r.status);
    }
    return true;
}

/* One scope set of the configuration around no work. */
static bool scope_set(bench_objects *o, bench_config config, kiln_error *err) {
    kiln_gfx_scope_result scope;
    switch (config) {
    case CONFIG_SCOPE_SET_AWAITED: kiln_gfx_push_scope(o->gfx); return pop_awaited(o->gfx, err);
    case CONFIG_SCOPE_SET: kiln_gfx_push_scope(o->gfx); return kiln_gfx_pop_scope(o->gfx, &scope, err);
    default: kiln_gfx_defer_scope(o->gfx); return kiln_gfx_pop_deferred_scope(o->gfx, &scope, err);
    }
}

/* The CPU microseconds of one frame of the configuration: PASSES passes or scope sets. */
static bool frame_us(bench_objects *o, bench_config config, double *us, kiln_error *err) {
    bool scopes = config >= CONFIG_SCOPE_SET_AWAITED;
    kiln_encoder enc;
    if (!scopes && !kiln_encoder_begin(&enc, o->res, "pass bench", err)) return false;
    bool ok = true;
    double start = thread_cpu_us();
    for (uint32_t k = 0; k < PASSES && ok; k++) ok = scopes ? scope_set(o, config, err) : record_pass(o, config, &enc, k, err);
    *us = thread_cpu_us() - start;
    if (config == CONFIG_COUNTING_PASS_SUBMITTED) {
        ok = ok && kiln_encoder_finish_and_submit(&enc, err) && kiln_gfx_wait_for_queue(o->gfx, err);
        kiln_gfx_pump(o->gfx, false);
    } else if (!scopes) {
        kiln_encoder_discard(&enc);
    }
    return ok;
}

int main(int argc, char **argv) {
    bench_frame_options options = {.frames = 100, .max_frames = MAX_FRAMES, .no_size = true};
    int status = bench_parse_frame_options("kiln-pass-bench", "kiln-pass-bench [--frames N]", argc, argv, &options);
    if (status != TOOL_RUN) return status;
    uint32_t frames = options.frames;
    kiln_error err = {0};
    bench_objects o = {0};
    o.gfx = kiln_gfx_create(&(kiln_gfx_desc){.label = "kiln-pass-bench"}, &err);
    o.res = o.gfx ? kiln_resources_create(o.gfx, 0, &err) : NULL;
    bool ok = o.res && make_objects(&o, &err);
    static double times[MAX_FRAMES];
    for (int c = 0; c < CONFIG_COUNT && ok; c++) {
        double warm;
        ok = frame_us(&o, (bench_config)c, &warm, &err);
        for (uint32_t f = 0; f < frames && ok; f++) ok = frame_us(&o, (bench_config)c, &times[f], &err);
        if (!ok) break;
        double best = times[0];
        for (uint32_t f = 1; f < frames; f++) best = times[f] < best ? times[f] : best;
        printf("{\"config\": \"%s\", \"passes\": %d, \"frames\": %u, \"device\": \"%s\", \"timestamps\": %s, "
               "\"cpu_us_per_pass_median\": %.3f, \"cpu_us_per_pass_best\": %.3f}\n",
               CONFIG_NAMES[c], PASSES, frames, o.gfx->adapter_name, o.timestamps ? "true" : "false",
               bench_median(times, frames) / PASSES, best / PASSES);
        fflush(stdout);
    }
    if (!ok) fprintf(stderr, "kiln-pass-bench: %s\n", err.message);
    if (!o.gfx) return 1;
    kiln_timestamps_destroy(o.timestamps);
    kiln_resources_destroy(o.res);
    kiln_gfx_pump(o.gfx, true);
    uint64_t errors = o.gfx->error_count;
    kiln_gfx_destroy(o.gfx);
    if (errors) fprintf(stderr, "kiln-pass-bench: %llu uncaptured Dawn errors\n", (unsigned long long)errors);
    return ok && !errors ? 0 : 1;
}
