/* Offscreen rendering: a compute pass and a triangle, read back and checked pixel by pixel, plus
 * layouts for every binding kind and the copy-stride check. */
#include <stdio.h>
#include "gfx_fixture.h"

#define SIZE 64

static const char *SHADER =
    "struct Tint { color: vec4f };\n"
    "@group(0) @binding(0) var<uniform> tint: Tint;\n"
    "@vertex fn vs_main(@location(0) p: vec2f) -> @builtin(position) vec4f { return vec4f(p, 0.5, 1.0); }\n"
    "@fragment fn fs_main() -> @location(0) vec4f { return tint.color; }\n"
    "@group(0) @binding(0) var<storage, read_write> values: array<u32>;\n"
    "@compute @workgroup_size(64) fn double_values(@builtin(global_invocation_id) id: vec3u) {\n"
    "    if (id.x < arrayLength(&values)) { values[id.x] = values[id.x] * 2u; }\n"
    "}\n";

TEST(triangle_and_compute_pass_read_back_exactly) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_resources *res = f.res;
    kiln_error err = {0};
    WGPUShaderModule m = kiln_gfx_compile_shader(f.gfx, "test_render.wgsl", SHADER, NULL, &err);
    CHECK_MSG(m, "%s", err.message);
    kiln_shader shader = kiln_resources_adopt_shader(res, m, "test_render", &err);

    /* Compute: double 256 values in place. */
    uint32_t values[256];
    for (uint32_t i = 0; i < 256; i++) values[i] = i;
    kiln_buffer storage = kiln_resources_create_buffer(res, &(kiln_buffer_desc){.label = "values", .size = sizeof values,
        .usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc}, &err);
    kiln_buffer values_back = kiln_resources_create_buffer(res, &(kiln_buffer_desc){.label = "values readback", .size = sizeof values,
        .usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst}, &err);
    CHECK(kiln_resources_write_buffer(res, storage, 0, values, sizeof values, &err));
    kiln_layout_entry storage_entry = {.binding = 0, .visibility = WGPUShaderStage_Compute, .kind = KILN_BINDING_STORAGE_BUFFER};
    kiln_bind_group_layout storage_layout = kiln_resources_create_bind_group_layout(res, "storage", &storage_entry, 1, &err);
    kiln_pipeline_layout compute_layout = kiln_resources_create_pipeline_layout(res, "compute", &storage_layout, 1, &err);
    kiln_bind_group storage_group = kiln_resources_create_bind_group(res, "storage", storage_layout,
        &(kiln_binding_resource){.binding = 0, .buffer = storage}, 1, &err);
    kiln_compute_pipeline doubler = kiln_resources_create_compute_pipeline(res, &(kiln_compute_pipeline_desc){
        .label = "doubler", .layout = compute_layout, .shader = shader, .entry = "double_values"}, &err);
    CHECK_MSG(doubler.id, "%s", err.message);

    /* Render: a triangle covering the left half of a blue-cleared target, tinted orange. */
    float tint[4] = {1.0f, 0.5f, 0.0f, 1.0f};
    kiln_buffer tint_buffer = kiln_resources_create_buffer(res, &(kiln_buffer_desc){.label = "tint", .size = 16,
        .usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst}, &err);
    CHECK(kiln_resources_write_buffer(res, tint_buffer, 0, tint, sizeof tint, &err));
    float tri[6] = {0.0f, -1.0f, 0.0f, 3.0f, -2.0f, -1.0f}; /* covers exactly x in [-1, 0] of the viewport */
    kiln_buffer vertices = kiln_resources_create_buffer(res, &(kiln_buffer_desc){.label = "triangle", .size = sizeof tri,
        .usage = WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst}, &err);
    CHECK(kiln_resources_write_buffer(res, vertices, 0, tri, sizeof tri, &err));
    kiln_layout_entry uniform_entry = {.binding = 0, .visibility = WGPUShaderStage_Vertex | WGPUShaderStage_Fragment,
                                       .kind = KILN_BINDING_UNIFORM_BUFFER, .min_binding_size = 16};
    kiln_bind_group_layout uniform_layout = kiln_resources_create_bind_group_layout(res, "tint", &uniform_entry, 1, &err);
    kiln_pipeline_layout render_layout = kiln_resources_create_pipeline_layout(res, "render", &uniform_layout, 1, &err);
    kiln_bind_group uniform_group = kiln_resources_create_bind_group(res, "tint", uniform_layout,
        &(kiln_binding_resource){.binding = 0, .buffer = tint_buffer, .size = 16}, 1, &err);
    kiln_render_pipeline pipeline = kiln_resources_create_render_pipeline(res, &(kiln_render_pipeline_desc){
        .label = "triangle", .layout = render_layout, .shader = shader, .vertex_buffer_count = 1,
        .vertex_buffers = {{.stride = 8, .attribute_count = 1, .attributes = {{WGPUVertexFormat_Float32x2, 0, 0}}}},
        .target_count = 1, .targets = {{.format = WGPUTextureFormat_RGBA8Unorm}}}, &err);
    CHECK_MSG(pipeline.id, "%s", err.message);
    kiln_texture target = kiln_resources_create_texture(res, &(kiln_texture_desc){.label = "target", .width = SIZE, .height = SIZE,
        .format = WGPUTextureFormat_RGBA8Unorm, .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc}, &err);
    kiln_texture_view target_view = kiln_resources_create_texture_view(res, target, NULL, &err);

    kiln_encoder enc;
    CHECK(kiln_encoder_begin(&enc, res, "frame", &err));
    kiln_compute_pass cp;
    CHECK(kiln_encoder_begin_compute_pass(&enc, "double", &cp, &err));
    CHECK(kiln_compute_pass_set_pipeline(&cp, doubler, &err));
    CHECK(kiln_compute_pass_set_bind_group(&cp, 0, storage_group, NULL, 0, &err));
    kiln_compute_pass_dispatch(&cp, 4, 1, 1);
    kiln_compute_pass_end(&cp);
    kiln_render_pass rp;
    kiln_color_attachment color = kiln_color_cleared(kiln_resources_texture_view_raw(res, target_view, NULL), 0, 0, 1, 1);
    CHECK(kiln_encoder_begin_render_pass(&enc, "triangle", &color, 1, NULL, &rp, &err));
    CHECK(kiln_render_pass_set_pipeline(&rp, pipeline, &err));
    CHECK(kiln_render_pass_set_bind_group(&rp, 0, uniform_group, NULL, 0, &err));
    CHECK(kiln_render_pass_set_vertex_buffer(&rp, 0, vertices, 0, &err));
    kiln_render_pass_draw(&rp, 3, 1, 0, 0);
    /* A failure sticks to the pass: later commands are skipped and fail with the first reason. */
    CHECK(!rp.failed);
    CHECK(!kiln_render_pass_set_vertex_buffer(&rp, 0, vertices, 4096, &err)); /* past the end */
    char first[512];
    snprintf(first, sizeof first, "%s", err.message);
    kiln_error later = {0};
    CHECK(!kiln_render_pass_set_pipeline(&rp, pipeline, &later));
    kiln_render_pass_draw(&rp, 3, 1, 0, 0); /* skipped */
    kiln_render_pass_end(&rp);
    CHECK(rp.failed);
    CHECK_STR_CONTAINS(first, "offset 4096 is past the end of buffer");
    CHECK_STR_CONTAINS(later.message, first);
    CHECK_STR_CONTAINS(rp.error.message, first);
    CHECK(kiln_encoder_copy_buffer_to_buffer(&enc, storage, 0, values_back, 0, sizeof values, &err));
    CHECK(kiln_encoder_finish_and_submit(&enc, &err));
    CHECK(kiln_gfx_wait_for_queue(f.gfx, &err));

    uint32_t doubled[256];
    CHECK_MSG(kiln_resources_read_buffer(res, values_back, 0, doubled, sizeof doubled, &err), "%s", err.message);
    for (uint32_t i = 0; i < 256; i++) CHECK_EQ_INT(doubled[i], 2 * i);

    kiln_image img;
    CHECK_MSG(kiln_resources_read_texture(res, kiln_resources_texture_raw(res, target, NULL), &img, &err), "%s", err.message);
    const uint8_t *px = img.pixels;
    const uint8_t *left = px + (32 * SIZE + 8) * 4, *right = px + (32 * SIZE + 56) * 4;
    bool left_orange = left[0] == 255 && left[1] >= 127 && left[1] <= 128 && left[2] == 0 && left[3] == 255;
    bool right_blue = right[0] == 0 && right[1] == 0 && right[2] == 255 && right[3] == 255;
    uint32_t orange = 0;
    for (uint32_t i = 0; i < SIZE * SIZE; i++) orange += px[4 * i] == 255;
    kiln_image_free(&img);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK(left_orange);
    CHECK(right_blue);
    CHECK_EQ_INT(orange, SIZE * SIZE / 2); /* exactly the left half, by the top-left fill rule */
}

TEST(every_binding_kind_makes_a_valid_layout) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    int made = 0;
    for (int kind = 0; kind < KILN_BINDING_KIND_COUNT; kind++) {
        kiln_layout_entry e = {.binding = 0, .visibility = WGPUShaderStage_Fragment | WGPUShaderStage_Compute,
                               .kind = (kiln_binding_kind)kind, .storage_format = WGPUTextureFormat_RGBA8Unorm};
        if (kind == KILN_BINDING_STORAGE_BUFFER || kind == KILN_BINDING_WRITE_ONLY_STORAGE_TEXTURE_2D ||
            kind == KILN_BINDING_WRITE_ONLY_STORAGE_TEXTURE_2D_ARRAY)
            e.visibility = WGPUShaderStage_Compute; /* writable storage is not allowed in fragment by default */
        kiln_bind_group_layout l = kiln_resources_create_bind_group_layout(f.res, "kind", &e, 1, &err);
        if (!l.id) fprintf(stderr, "kind %d: %s\n", kind, err.message);
        made += l.id != 0;
    }
    FIXTURE_CLOSE_CLEAN(f);
    CHECK_EQ_INT(made, KILN_BINDING_KIND_COUNT);
}

TEST(a_misaligned_copy_stride_is_an_error_before_submit) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_texture t = kiln_resources_create_texture(f.res, &(kiln_texture_desc){.width = 10, .height = 10,
        .format = WGPUTextureFormat_RGBA8Unorm, .usage = WGPUTextureUsage_CopySrc}, &err);
    kiln_buffer b = kiln_resources_create_buffer(f.res, &(kiln_buffer_desc){.size = 4096, .usage = WGPUBufferUsage_CopyDst}, &err);
    kiln_encoder enc;
    CHECK(kiln_encoder_begin(&enc, f.res, "bad copy", &err));
    bool copied = kiln_encoder_copy_texture_to_buffer(&enc, kiln_resources_texture_raw(f.res, t, NULL), 0, b, 40, 10, 10, &err);
    char message[512];
    snprintf(message, sizeof message, "%s", err.message);
    kiln_encoder_discard(&enc);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK(!copied);
    CHECK_STR_CONTAINS(message, "bytes_per_row 40 is not a multiple of 256");
}

TEST_MAIN(T(triangle_and_compute_pass_read_back_exactly), T(every_binding_kind_makes_a_valid_layout),
          T(a_misaligned_copy_stride_is_an_error_before_submit))
