/* Render pass attachments: four colour targets at once, 4x MSAA resolving into a single-sample
 * target, and reverse-Z depth (cleared to 0, GreaterEqual: the nearer triangle wins). Also the
 * await timeout. */
#include <time.h>
#include "gfx_fixture.h"

#define SIZE 32

/* Two full-screen triangles: the first at depth 0.25 (far in reverse-Z), red; the second at 0.75
 * (near), green, drawn first so that only a working depth test keeps it in front. */
static const char *DEPTH_WGSL =
    "struct Out { @builtin(position) pos: vec4f, @location(0) color: vec4f };\n"
    "@vertex fn vs_main(@builtin(vertex_index) v: u32, @builtin(instance_index) i: u32) -> Out {\n"
    "    var p = array<vec2f, 3>(vec2f(-1.0, -1.0), vec2f(3.0, -1.0), vec2f(-1.0, 3.0));\n"
    "    var out: Out;\n"
    "    let near = i == 0u;\n"
    "    out.pos = vec4f(p[v], select(0.25, 0.75, near), 1.0);\n"
    "    out.color = select(vec4f(1.0, 0.0, 0.0, 1.0), vec4f(0.0, 1.0, 0.0, 1.0), near);\n"
    "    return out;\n"
    "}\n"
    "@fragment fn fs_main(in: Out) -> @location(0) vec4f { return in.color; }\n";

/* One triangle covering the lower-left half of the target (pixel y > x), for a resolved MSAA edge
 * along the main diagonal. */
static const char *MSAA_WGSL =
    "@vertex fn vs_main(@builtin(vertex_index) v: u32) -> @builtin(position) vec4f {\n"
    "    var p = array<vec2f, 3>(vec2f(-1.0, -1.0), vec2f(1.0, -1.0), vec2f(-1.0, 1.0));\n"
    "    return vec4f(p[v], 0.5, 1.0);\n"
    "}\n"
    "@fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0, 1.0, 1.0, 1.0); }\n";

static const char *MRT_WGSL =
    "struct Targets { @location(0) a: vec4f, @location(1) b: vec4f, @location(2) c: vec4f, @location(3) d: vec4f };\n"
    "@vertex fn vs_main(@builtin(vertex_index) v: u32) -> @builtin(position) vec4f {\n"
    "    var p = array<vec2f, 3>(vec2f(-1.0, -1.0), vec2f(3.0, -1.0), vec2f(-1.0, 3.0));\n"
    "    return vec4f(p[v], 0.5, 1.0);\n"
    "}\n"
    "@fragment fn fs_main() -> Targets {\n"
    "    return Targets(vec4f(1.0, 0.0, 0.0, 1.0), vec4f(0.0, 1.0, 0.0, 1.0), vec4f(0.0, 0.0, 1.0, 1.0), vec4f(1.0, 1.0, 1.0, 1.0));\n"
    "}\n";

static kiln_shader compile(gfx_fixture *f, const char *name, const char *src, kiln_error *err) {
    WGPUShaderModule m = kiln_gfx_compile_shader(f->gfx, name, src, NULL, err);
    return m ? kiln_resources_adopt_shader(f->res, m, name, err) : (kiln_shader){0};
}

static kiln_texture target(gfx_fixture *f, WGPUTextureFormat format, uint32_t samples, kiln_error *err) {
    WGPUTextureUsage usage = WGPUTextureUsage_RenderAttachment | (samples == 1 ? WGPUTextureUsage_CopySrc : 0);
    return kiln_resources_create_texture(f->res, &(kiln_texture_desc){.width = SIZE, .height = SIZE, .format = format,
                                   .sample_count = samples, .usage = usage}, err);
}

static const uint8_t *pixel(const kiln_image *img, uint32_t x, uint32_t y) {
    return (const uint8_t *)img->pixels + ((size_t)y * img->width + x) * 4;
}

TEST(reverse_z_depth_keeps_the_nearer_triangle) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_shader s = compile(&f, "depth.wgsl", DEPTH_WGSL, &err);
    kiln_render_pipeline p = kiln_resources_create_render_pipeline(f.res, &(kiln_render_pipeline_desc){
        .label = "depth", .shader = s, .target_count = 1, .targets = {{.format = WGPUTextureFormat_RGBA8Unorm}},
        .depth = kiln_depth_reverse_z(WGPUTextureFormat_Depth32Float, true)}, &err);
    CHECK_MSG(p.id, "%s", err.message);
    kiln_texture color = target(&f, WGPUTextureFormat_RGBA8Unorm, 1, &err);
    kiln_texture depth = target(&f, WGPUTextureFormat_Depth32Float, 1, &err);
    kiln_texture_view cv = kiln_resources_create_texture_view(f.res, color, NULL, &err);
    kiln_texture_view dv = kiln_resources_create_texture_view(f.res, depth, NULL, &err);
    kiln_encoder enc;
    kiln_render_pass pass;
    kiln_color_attachment c = kiln_color_cleared(kiln_resources_texture_view_raw(f.res, cv, NULL), 0, 0, 0, 1);
    kiln_depth_attachment d = kiln_depth_cleared_reverse_z(kiln_resources_texture_view_raw(f.res, dv, NULL));
    CHECK(kiln_encoder_begin(&enc, f.res, "depth", &err));
    CHECK(kiln_encoder_begin_render_pass(&enc, "depth", &c, 1, &d, &pass, &err));
    CHECK(kiln_render_pass_set_pipeline(&pass, p, &err));
    kiln_render_pass_draw(&pass, 3, 1, 0, 0); /* instance 0: near, green */
    kiln_render_pass_draw(&pass, 3, 1, 0, 1); /* instance 1: far, red, must fail the test */
    kiln_render_pass_end(&pass);
    CHECK(kiln_encoder_finish_and_submit(&enc, &err));
    kiln_image img;
    CHECK_MSG(kiln_resources_read_texture(f.res, kiln_resources_texture_raw(f.res, color, NULL), &img, &err), "%s", err.message);
    uint32_t green = 0;
    for (uint32_t y = 0; y < SIZE; y++)
        for (uint32_t x = 0; x < SIZE; x++) green += pixel(&img, x, y)[1] == 255 && pixel(&img, x, y)[0] == 0;
    kiln_image_free(&img);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK_EQ_INT(green, SIZE * SIZE);
}

TEST(msaa_resolves_into_the_single_sample_target) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_shader s = compile(&f, "msaa.wgsl", MSAA_WGSL, &err);
    kiln_render_pipeline p = kiln_resources_create_render_pipeline(f.res, &(kiln_render_pipeline_desc){
        .label = "msaa", .shader = s, .sample_count = 4, .target_count = 1,
        .targets = {{.format = WGPUTextureFormat_RGBA8Unorm}}}, &err);
    CHECK_MSG(p.id, "%s", err.message);
    kiln_texture ms = target(&f, WGPUTextureFormat_RGBA8Unorm, 4, &err);
    kiln_texture resolved = target(&f, WGPUTextureFormat_RGBA8Unorm, 1, &err);
    kiln_texture_view msv = kiln_resources_create_texture_view(f.res, ms, NULL, &err);
    kiln_texture_view rv = kiln_resources_create_texture_view(f.res, resolved, NULL, &err);
    kiln_encoder enc;
    kiln_render_pass pass;
    kiln_color_attachment c = kiln_color_cleared_resolving(kiln_resources_texture_view_raw(f.res, msv, NULL),
                                                           kiln_resources_texture_view_raw(f.res, rv, NULL), 0, 0, 0, 1);
    CHECK(kiln_encoder_begin(&enc, f.res, "msaa", &err));
    CHECK(kiln_encoder_begin_render_pass(&enc, "msaa", &c, 1, NULL, &pass, &err));
    CHECK(kiln_render_pass_set_pipeline(&pass, p, &err));
    kiln_render_pass_draw(&pass, 3, 1, 0, 0);
    kiln_render_pass_end(&pass);
    CHECK(kiln_encoder_finish_and_submit(&enc, &err));
    kiln_image img;
    CHECK_MSG(kiln_resources_read_texture(f.res, kiln_resources_texture_raw(f.res, resolved, NULL), &img, &err), "%s", err.message);
    /* Inside: white; outside: black; on the diagonal (x == y) partial coverage gives grey levels
     * that a single-sample render could not produce. */
    uint8_t inside = pixel(&img, 2, SIZE - 3)[0], outside = pixel(&img, SIZE - 3, 2)[0];
    uint32_t partial = 0;
    for (uint32_t x = 0; x < SIZE; x++) {
        uint8_t v = pixel(&img, x, x)[0];
        partial += v > 0 && v < 255;
    }
    kiln_image_free(&img);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK_EQ_INT(inside, 255);
    CHECK_EQ_INT(outside, 0);
    CHECK(partial >= SIZE / 2);
}

TEST(four_colour_attachments_are_written_in_one_pass) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_shader s = compile(&f, "mrt.wgsl", MRT_WGSL, &err);
    kiln_render_pipeline_desc pd = {.label = "mrt", .shader = s, .target_count = 4};
    for (int i = 0; i < 4; i++) pd.targets[i].format = WGPUTextureFormat_RGBA8Unorm;
    kiln_render_pipeline p = kiln_resources_create_render_pipeline(f.res, &pd, &err);
    CHECK_MSG(p.id, "%s", err.message);
    kiln_texture t[4];
    kiln_texture_view v[4];
    kiln_color_attachment c[4];
    for (int i = 0; i < 4; i++) {
        t[i] = target(&f, WGPUTextureFormat_RGBA8Unorm, 1, &err);
        v[i] = kiln_resources_create_texture_view(f.res, t[i], NULL, &err);
        c[i] = kiln_color_cleared(kiln_resources_texture_view_raw(f.res, v[i], NULL), 0, 0, 0, 0);
    }
    kiln_encoder enc;
    kiln_render_pass pass;
    CHECK(kiln_encoder_begin(&enc, f.res, "mrt", &err));
    CHECK(!kiln_encoder_begin_render_pass(&enc, "too many", c, 5, NULL, &pass, &err));
    CHECK_STR_CONTAINS(err.message, "at most 4");
    CHECK(kiln_encoder_begin_render_pass(&enc, "mrt", c, 4, NULL, &pass, &err));
    CHECK(kiln_render_pass_set_pipeline(&pass, p, &err));
    kiln_render_pass_draw(&pass, 3, 1, 0, 0);
    kiln_render_pass_end(&pass);
    CHECK(kiln_encoder_finish_and_submit(&enc, &err));
    static const uint8_t expected[4][4] = {{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 255, 255, 255}};
    int matching = 0;
    for (int i = 0; i < 4; i++) {
        kiln_image img;
        CHECK_MSG(kiln_resources_read_texture(f.res, kiln_resources_texture_raw(f.res, t[i], NULL), &img, &err), "%s", err.message);
        matching += memcmp(pixel(&img, SIZE / 2, SIZE / 2), expected[i], 4) == 0;
        kiln_image_free(&img);
    }
    FIXTURE_CLOSE_CLEAN(f);
    CHECK_EQ_INT(matching, 4);
}

/* A long compute dispatch keeps the queue busy, so a zero-timeout await must report a timeout. */
static const char *SPIN_WGSL =
    "@group(0) @binding(0) var<storage, read_write> acc: array<u32>;\n"
    "@compute @workgroup_size(64) fn cs_main(@builtin(global_invocation_id) id: vec3u) {\n"
    "    var x = id.x;\n"
    "    for (var i = 0u; i < 200000u; i++) { x = x * 1664525u + 1013904223u; }\n"
    "    acc[id.x] = x;\n"
    "}\n";

typedef struct done_flag { int status; } done_flag;
static void on_done(WGPUQueueWorkDoneStatus status, WGPUStringView message, void *ud1, void *ud2) {
    (void)message, (void)ud2;
    ((done_flag *)ud1)->status = (int)status;
}

TEST(await_reports_a_timeout_naming_what_it_waited_for) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_shader s = compile(&f, "spin.wgsl", SPIN_WGSL, &err);
    kiln_compute_pipeline p = kiln_resources_create_compute_pipeline(f.res, &(kiln_compute_pipeline_desc){.label = "spin", .shader = s}, &err);
    CHECK_MSG(p.id, "%s", err.message);
    kiln_buffer acc = kiln_resources_create_buffer(f.res, &(kiln_buffer_desc){.size = 64 * 64 * 4, .usage = WGPUBufferUsage_Storage}, &err);
    WGPUBindGroupLayout raw_bgl = wgpuComputePipelineGetBindGroupLayout(kiln_resources_compute_pipeline_raw(f.res, p, NULL), 0);
    WGPUBindGroupEntry entry = {.binding = 0, .buffer = kiln_resources_buffer_raw(f.res, acc, NULL), .size = WGPU_WHOLE_SIZE};
    WGPUBindGroup group = wgpuDeviceCreateBindGroup(f.gfx->device, &(WGPUBindGroupDescriptor){.layout = raw_bgl, .entryCount = 1, .entries = &entry});
    kiln_encoder enc;
    kiln_compute_pass cp;
    CHECK(kiln_encoder_begin(&enc, f.res, "spin", &err));
    CHECK(kiln_encoder_begin_compute_pass(&enc, "spin", &cp, &err));
    CHECK(kiln_compute_pass_set_pipeline(&cp, p, &err));
    wgpuComputePassEncoderSetBindGroup(cp.raw, 0, group, 0, NULL);
    kiln_compute_pass_dispatch(&cp, 64, 1, 1);
    kiln_compute_pass_end(&cp);
    CHECK(kiln_encoder_finish_and_submit(&enc, &err));

    done_flag done = {0};
    WGPUFuture fut = wgpuQueueOnSubmittedWorkDone(f.gfx->queue, (WGPUQueueWorkDoneCallbackInfo){
        .mode = WGPUCallbackMode_WaitAnyOnly, .callback = on_done, .userdata1 = &done});
    kiln_error timeout = {0};
    bool finished_at_once = kiln_gfx_await(f.gfx, fut, 0, "the spinning queue", &timeout);
    bool finished_later = finished_at_once || kiln_gfx_await(f.gfx, fut, KILN_GFX_DEFAULT_TIMEOUT_NS, "the spinning queue", &err);
    wgpuBindGroupRelease(group);
    wgpuBindGroupLayoutRelease(raw_bgl);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK_MSG(!finished_at_once, "the GPU finished 12.8M iterations before a zero-timeout wait");
    CHECK_EQ_INT(timeout.code, KILN_ERR_TIMEOUT);
    CHECK_STR_CONTAINS(timeout.message, "timed out after 0.0 s waiting for the spinning queue");
    CHECK(finished_later);
    CHECK_EQ_INT(done.status, WGPUQueueWorkDoneStatus_Success);
}

/* Submits `dispatches` spin dispatches of 64 workgroups each in one command buffer. */
static bool submit_spin(gfx_fixture *f, kiln_compute_pipeline p, WGPUBindGroup group, uint32_t dispatches, kiln_error *err) {
    kiln_encoder enc;
    kiln_compute_pass cp;
    if (!kiln_encoder_begin(&enc, f->res, "spin", err)) return false;
    if (!kiln_encoder_begin_compute_pass(&enc, "spin", &cp, err) || !kiln_compute_pass_set_pipeline(&cp, p, err)) {
        kiln_encoder_discard(&enc);
        return false;
    }
    wgpuComputePassEncoderSetBindGroup(cp.raw, 0, group, 0, NULL);
    for (uint32_t i = 0; i < dispatches; i++) kiln_compute_pass_dispatch(&cp, 64, 1, 1);
    kiln_compute_pass_end(&cp);
    return kiln_encoder_finish_and_submit(&enc, err);
}

static double seconds_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

typedef struct wait_reports {
    int count;
    double last_seconds;
    char what[64];
} wait_reports;

static void note_wait(void *user, const char *what, double seconds) {
    wait_reports *w = user;
    w->count++;
    w->last_seconds = seconds;
    snprintf(w->what, sizeof w->what, "%s", what);
}

/* #12 class 3: a wait for GPU work lasts as long as the work (it used to fail after a fixed 10 s),
 * tells the observer while it waits, and stops at gpu_wait_timeout_ns only when one is set. The
 * work is calibrated on this device to about 2.6 s, past one report interval. */
TEST(gpu_waits_last_as_long_as_the_work_and_report_progress) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_shader s = compile(&f, "spin.wgsl", SPIN_WGSL, &err);
    kiln_compute_pipeline p = kiln_resources_create_compute_pipeline(f.res, &(kiln_compute_pipeline_desc){.label = "spin", .shader = s}, &err);
    CHECK_MSG(p.id, "%s", err.message);
    kiln_buffer acc = kiln_resources_create_buffer(f.res, &(kiln_buffer_desc){.size = 64 * 64 * 4, .usage = WGPUBufferUsage_Storage}, &err);
    WGPUBindGroupLayout raw_bgl = wgpuComputePipelineGetBindGroupLayout(kiln_resources_compute_pipeline_raw(f.res, p, NULL), 0);
    WGPUBindGroupEntry entry = {.binding = 0, .buffer = kiln_resources_buffer_raw(f.res, acc, NULL), .size = WGPU_WHOLE_SIZE};
    WGPUBindGroup group = wgpuDeviceCreateBindGroup(f.gfx->device, &(WGPUBindGroupDescriptor){.layout = raw_bgl, .entryCount = 1, .entries = &entry});
    /* Calibrate: one dispatch, timed (after a first one that compiles the pipeline). */
    bool ok = submit_spin(&f, p, group, 1, &err) && kiln_gfx_wait_for_queue(f.gfx, &err);
    double t0 = seconds_now();
    ok = ok && submit_spin(&f, p, group, 1, &err) && kiln_gfx_wait_for_queue(f.gfx, &err);
    double one = seconds_now() - t0;
    uint32_t dispatches = (uint32_t)(2.6 / (one > 1e-4 ? one : 1e-4)) + 1;
    if (dispatches > 100000) dispatches = 100000;

    wait_reports reports = {0};
    f.gfx->wait_observer = note_wait;
    f.gfx->wait_observer_user = &reports;
    t0 = seconds_now();
    bool waited = ok && submit_spin(&f, p, group, dispatches, &err) && kiln_gfx_wait_for_queue(f.gfx, &err);
    double took = seconds_now() - t0;

    f.gfx->gpu_wait_timeout_ns = 300ull * 1000 * 1000; /* 0.3 s: well below the work */
    kiln_error timeout = {0};
    bool timed_out = ok && submit_spin(&f, p, group, dispatches, &err) && !kiln_gfx_wait_for_queue(f.gfx, &timeout);
    f.gfx->gpu_wait_timeout_ns = 0;
    bool drained = kiln_gfx_wait_for_queue(f.gfx, &err);
    f.gfx->wait_observer = NULL;
    wgpuBindGroupRelease(group);
    wgpuBindGroupLayoutRelease(raw_bgl);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK_MSG(waited, "%s", err.message);
    CHECK_MSG(took > 2.0, "the work took %.2f s, not past one report interval: calibration (%.4f s) failed", took, one);
    CHECK_MSG(reports.count >= 1, "no progress report in %.2f s", took);
    CHECK(reports.last_seconds >= KILN_GFX_WAIT_REPORT_MS / 1000.0);
    CHECK(strcmp(reports.what, "the queue to finish") == 0);
    CHECK(timed_out);
    CHECK_EQ_INT(timeout.code, KILN_ERR_TIMEOUT);
    CHECK_STR_CONTAINS(timeout.message, "timed out after 0.3 s waiting for the queue to finish (gpu_wait_timeout_ms)");
    CHECK_MSG(drained, "%s", err.message);
}

TEST_MAIN(T(reverse_z_depth_keeps_the_nearer_triangle), T(msaa_resolves_into_the_single_sample_target),
          T(four_colour_attachments_are_written_in_one_pass), T(await_reports_a_timeout_naming_what_it_waited_for),
          T(gpu_waits_last_as_long_as_the_work_and_report_progress))
