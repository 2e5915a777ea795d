/* Tone curves: the WGSL (tonemap_curves.wgsl) evaluated on the GPU matches the CPU reference
 * (src/render/tonemap.c) at sample points, and the CPU curves have the shape they should. */
#include <kiln/core/color.h>
#include <kiln/render/tonemap.h>

#include "gfx_fixture.h"
#include "render_wgsl_probe.h"

static const kiln_vec3 SAMPLES[] = {
    {0.0f, 0.0f, 0.0f}, {0.001f, 0.001f, 0.001f}, {0.01f, 0.01f, 0.01f}, {0.18f, 0.18f, 0.18f},
    {0.5f, 0.5f, 0.5f}, {1.0f, 1.0f, 1.0f},       {2.0f, 2.0f, 2.0f},    {4.0f, 4.0f, 4.0f},
    {16.0f, 16.0f, 16.0f}, {100.0f, 100.0f, 100.0f}, {1.0f, 0.2f, 0.05f}, {0.05f, 0.3f, 2.0f},
    {8.0f, 0.5f, 0.0f}, {-1.0f, 0.5f, 0.25f},
};
#define SAMPLE_COUNT (sizeof SAMPLES / sizeof SAMPLES[0])

static const char *PROBE =
    "#include \"tonemap_curves.wgsl\"\n"
    "@group(0) @binding(0) var<storage, read_write> values: array<vec4<f32>>;\n"
    "@compute @workgroup_size(1) fn cs_main(@builtin(global_invocation_id) id: vec3<u32>) {\n"
    "    let i = id.x;\n"
    "    let c = values[i].xyz;\n"
    "    let curve = u32(values[i].w);\n"
    "    values[i] = vec4<f32>(tonemap_apply(curve, c, 1.0), 0.0);\n"
    "}\n";

TEST(gpu_curves_match_the_cpu_reference) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    WGPUShaderModule m = render_wgsl_probe_compile(f.gfx, PROBE, &err);
    CHECK_MSG(m, "%s", err.message);
    kiln_shader s = kiln_resources_adopt_shader(f.res, m, "tonemap test", &err);
    kiln_compute_pipeline p = kiln_resources_create_compute_pipeline(f.res, &(kiln_compute_pipeline_desc){.label = "tonemap", .shader = s}, &err);
    CHECK_MSG(p.id, "%s", err.message);

    enum { CURVES = KILN_TONEMAPPER_COUNT };
    float input[CURVES * SAMPLE_COUNT][4];
    for (int c = 0; c < CURVES; c++)
        for (size_t i = 0; i < SAMPLE_COUNT; i++) {
            float *v = input[c * SAMPLE_COUNT + i];
            v[0] = SAMPLES[i].x, v[1] = SAMPLES[i].y, v[2] = SAMPLES[i].z, v[3] = (float)c;
        }
    kiln_buffer values = kiln_resources_create_buffer(f.res, &(kiln_buffer_desc){.size = sizeof input,
        .usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc}, &err);
    kiln_buffer back = kiln_resources_create_buffer(f.res, &(kiln_buffer_desc){.size = sizeof input,
        .usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst}, &err);
    CHECK(kiln_resources_write_buffer(f.res, values, 0, input, sizeof input, &err));
    WGPUBindGroupLayout bgl = wgpuComputePipelineGetBindGroupLayout(kiln_resources_compute_pipeline_raw(f.res, p, NULL), 0);
    WGPUBindGroupEntry entry = {.binding = 0, .buffer = kiln_resources_buffer_raw(f.res, values, NULL), .size = WGPU_WHOLE_SIZE};
    WGPUBindGroup group = wgpuDeviceCreateBindGroup(f.gfx->device, &(WGPUBindGroupDescriptor){.layout = bgl, .entryCount = 1, .entries = &entry});
    kiln_encoder enc;
    kiln_compute_pass cp;
    CHECK(kiln_encoder_begin(&enc, f.res, "tonemap", &err));
    CHECK(kiln_encoder_begin_compute_pass(&enc, "tonemap", &cp, &err));
    CHECK(kiln_compute_pass_set_pipeline(&cp, p, &err));
    wgpuComputePassEncoderSetBindGroup(cp.raw, 0, group, 0, NULL);
    kiln_compute_pass_dispatch(&cp, CURVES * SAMPLE_COUNT, 1, 1);
    kiln_compute_pass_end(&cp);
    CHECK(kiln_encoder_copy_buffer_to_buffer(&enc, values, 0, back, 0, sizeof input, &err));
    CHECK(kiln_encoder_finish_and_submit(&enc, &err));
    CHECK(kiln_gfx_wait_for_queue(f.gfx, &err));
    float output[CURVES * SAMPLE_COUNT][4];
    CHECK(kiln_resources_read_buffer(f.res, back, 0, output, sizeof output, &err));
    wgpuBindGroupRelease(group);
    wgpuBindGroupLayoutRelease(bgl);
    FIXTURE_CLOSE_CLEAN(f);

    double worst = 0;
    for (int c = 0; c < CURVES; c++)
        for (size_t i = 0; i < SAMPLE_COUNT; i++) {
            kiln_vec3 cpu = kiln_tonemap_apply((kiln_tonemapper)c, SAMPLES[i], 1.0f);
            const float *gpu = output[c * SAMPLE_COUNT + i];
            double d = fmax(fabs(cpu.x - gpu[0]), fmax(fabs(cpu.y - gpu[1]), fabs(cpu.z - gpu[2])));
            if (d > worst) worst = d;
            if (d > 2e-3)
                fprintf(stderr, "curve %d sample %zu: cpu (%f %f %f) gpu (%f %f %f)\n", c, i, cpu.x, cpu.y, cpu.z, gpu[0],
                        gpu[1], gpu[2]);
        }
    printf("largest GPU/CPU difference: %.2e\n", worst);
    CHECK(worst <= 2e-3);
}

TEST(curves_are_monotonic_bounded_and_anchored) {
    float previous[KILN_TONEMAPPER_COUNT] = {-1, -1, -1, -1, -1, -1};
    for (float x = 0.0f; x <= 64.0f; x += 0.01f) {
        for (int c = 0; c < KILN_TONEMAPPER_COUNT; c++) {
            float y = kiln_tonemap_apply((kiln_tonemapper)c, (kiln_vec3){x, x, x}, 1.0f).x;
            CHECK(y >= 0.0f && y <= 1.0f);
            /* 1e-5: the AgX polynomial fit dips by ~1e-6 just below its top clamp (16.3 EV). */
            CHECK(y >= previous[c] - 1e-5f);
            previous[c] = y;
        }
    }
    /* ACES at 1.0 is (2.51 + 0.03) / (2.43 + 0.59 + 0.14). */
    CHECK_NEAR(kiln_tonemap_aces((kiln_vec3){1, 1, 1}).x, 2.54 / 3.16, 1e-6);
    CHECK_NEAR(kiln_tonemap_apply(KILN_TONEMAP_NONE, (kiln_vec3){2, 0.5f, -1}, 1.0f).x, 1.0, 0);
    /* AgX keeps middle grey in the middle of the display range and maps black to (near) black. */
    float grey = kiln_linear_to_srgb(kiln_tonemap_agx((kiln_vec3){0.18f, 0.18f, 0.18f}).x);
    CHECK(grey > 0.35f && grey < 0.6f);
    CHECK(kiln_tonemap_agx((kiln_vec3){0, 0, 0}).x < 1e-3f);
    /* Exposure is a plain multiplier before the curve. */
    CHECK_NEAR(kiln_tonemap_apply(KILN_TONEMAP_ACES, (kiln_vec3){0.5f, 0.5f, 0.5f}, 2.0f).x,
               kiln_tonemap_aces((kiln_vec3){1, 1, 1}).x, 1e-7);
    CHECK_NEAR(kiln_srgb_to_linear(kiln_linear_to_srgb(0.3f)), 0.3, 1e-6);
}

/* Each of the glTF Sample Renderer's curves at a point its formula pins. */
TEST(the_reference_viewer_curves_hold_their_anchors) {
    /* PBR Neutral leaves colours below the compression start alone apart from the 0.04 offset... */
    kiln_vec3 base = kiln_tonemap_pbr_neutral((kiln_vec3){0.5f, 0.3f, 0.2f});
    CHECK_NEAR(base.x, 0.46, 1e-6);
    CHECK_NEAR(base.y, 0.26, 1e-6);
    CHECK_NEAR(base.z, 0.16, 1e-6);
    /* ...with a quadratic toe near black that keeps black black... */
    CHECK_NEAR(kiln_tonemap_pbr_neutral((kiln_vec3){0, 0, 0}).x, 0.0, 0);
    /* ...compresses a peak toward 1 without reaching it, and desaturates bright colours. */
    kiln_vec3 bright = kiln_tonemap_pbr_neutral((kiln_vec3){8.0f, 2.0f, 1.0f});
    CHECK(bright.x > 0.97f && bright.x < 1.0f);
    CHECK(bright.z / bright.x > 1.0f / 8.0f);
    /* ACES Hill's matrices keep grey grey (their rows sum to 1), so 0.18 lands on the fit's value,
     * (0.18 * 0.2045786 - 0.000090537) / (0.18 * 0.6100222 + 0.238081) = 0.105591. */
    kiln_vec3 grey = kiln_tonemap_aces_hill((kiln_vec3){0.18f, 0.18f, 0.18f});
    CHECK_NEAR(grey.x, grey.y, 1e-5);
    CHECK_NEAR(grey.y, grey.z, 1e-5);
    CHECK_NEAR(grey.x, 0.105591, 2e-5);
    /* The boosted form is the plain one after 1 / 0.6 more exposure. */
    kiln_vec3 boosted = kiln_tonemap_apply(KILN_TONEMAP_ACES_HILL_BOOST, (kiln_vec3){0.3f, 0.3f, 0.3f}, 1.0f);
    CHECK_NEAR(boosted.x, kiln_tonemap_aces_hill((kiln_vec3){0.5f, 0.5f, 0.5f}).x, 1e-6);
}

TEST_MAIN(T(gpu_curves_match_the_cpu_reference), T(curves_are_monotonic_bounded_and_anchored),
          T(the_reference_viewer_curves_hold_their_anchors))
