/* kiln's built-in WGSL evaluated on the GPU against its CPU twin: srgb.wgsl's encode and decode
 * are core's kiln_linear_to_srgb and kiln_srgb_to_linear (src/core/color.c), clamping included. */
#include <math.h>
#include <string.h>

#include <kiln/core/color.h>
#include <kiln/shader/library.h>

#include "gfx_fixture.h"

enum { SAMPLES = 68 };  /* 0..1 in 64 steps, then values either side of the range */

static const char PROBE[] =
    "#include \"srgb.wgsl\"\n"
    "@group(0) @binding(0) var<storage, read_write> values: array<vec4<f32>>;\n"
    "@compute @workgroup_size(1) fn cs_main(@builtin(global_invocation_id) id: vec3<u32>) {\n"
    "    let x = values[id.x].x;\n"
    "    values[id.x] = vec4<f32>(srgb_encode(vec3<f32>(x)).x, srgb_decode(vec3<f32>(x)).x, 0.0, 0.0);\n"
    "}\n";

/* Runs PROBE over `values` (SAMPLES vec4s, x the input) in place. */
static bool run_probe(gfx_fixture *f, float values[SAMPLES][4], kiln_error *err) {
    const kiln_wgsl_embedded_file file = {"probe.wgsl", PROBE};
    WGPUShaderModule module = kiln_wgsl_compile(f->gfx, &(kiln_wgsl_source){.files = &file, .file_count = 1}, file.name, err);
    kiln_shader shader = module ? kiln_resources_adopt_shader(f->res, module, "srgb probe", err) : (kiln_shader){0};
    kiln_compute_pipeline p = shader.id ? kiln_resources_create_compute_pipeline(f->res,
        &(kiln_compute_pipeline_desc){.label = "srgb probe", .shader = shader}, err) : (kiln_compute_pipeline){0};
    if (!p.id) return false;
    size_t size = sizeof(float) * 4 * SAMPLES;
    kiln_buffer buf = kiln_resources_create_buffer(f->res, &(kiln_buffer_desc){.label = "srgb probe", .size = size,
        .usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc}, err);
    kiln_buffer back = kiln_resources_create_buffer(f->res, &(kiln_buffer_desc){.label = "srgb probe back", .size = size,
        .usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst}, err);
    if (!buf.id || !back.id || !kiln_resources_write_buffer(f->res, buf, 0, values, size, err)) return false;
    WGPUBindGroupLayout bgl = wgpuComputePipelineGetBindGroupLayout(kiln_resources_compute_pipeline_raw(f->res, p, NULL), 0);
    WGPUBindGroupEntry entry = {.binding = 0, .buffer = kiln_resources_buffer_raw(f->res, buf, NULL), .size = size};
    WGPUBindGroup group = wgpuDeviceCreateBindGroup(f->gfx->device,
        &(WGPUBindGroupDescriptor){.layout = bgl, .entryCount = 1, .entries = &entry});
    kiln_encoder enc;
    kiln_compute_pass cp;
    bool ok = kiln_encoder_begin(&enc, f->res, "srgb probe", err) &&
              kiln_encoder_begin_compute_pass(&enc, "srgb probe", &cp, err) && kiln_compute_pass_set_pipeline(&cp, p, err);
    if (ok) {
        wgpuComputePassEncoderSetBindGroup(cp.raw, 0, group, 0, NULL);
        kiln_compute_pass_dispatch(&cp, SAMPLES, 1, 1);
        kiln_compute_pass_end(&cp);
    }
    ok = ok && kiln_encoder_copy_buffer_to_buffer(&enc, buf, 0, back, 0, size, err) &&
         kiln_encoder_finish_and_submit(&enc, err) && kiln_resources_read_buffer(f->res, back, 0, values, size, err);
    wgpuBindGroupRelease(group);
    wgpuBindGroupLayoutRelease(bgl);
    return ok;
}

TEST(the_wgsl_srgb_pair_is_cores_on_the_cpu) {
    float values[SAMPLES][4] = {{0}};
    static const float outside[] = {-0.5f, 1.0001f, 1.5f, 4.0f};
    for (int i = 0; i < SAMPLES; i++) values[i][0] = i <= 64 ? (float)i / 64.0f : outside[i - 65];
    float input[SAMPLES];
    for (int i = 0; i < SAMPLES; i++) input[i] = values[i][0];
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    bool ran = run_probe(&f, values, &err);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK_MSG(ran, "%s", err.message);
    double worst = 0;
    for (int i = 0; i < SAMPLES; i++) {
        worst = fmax(worst, fabs(values[i][0] - kiln_linear_to_srgb(input[i])));
        worst = fmax(worst, fabs(values[i][1] - kiln_srgb_to_linear(input[i])));
    }
    printf("largest GPU/CPU difference: %.2e\n", worst);
    CHECK(worst <= 1e-5);
}

TEST_MAIN(T(the_wgsl_srgb_pair_is_cores_on_the_cpu))
