/* The allocation-free steady state: a representative scene (the demo scene plus 320 instances
 * over 4 meshes x 8 materials, three skinned and three morphed cubes posed anew each frame, and
 * 40 point lights) renders 90 warm-up frames, then 60 frames in
 * which kiln itself must not allocate once, with the default settings (the sun's cascaded shadows
 * on) and with anti-aliasing on. The cascade maps are 512 texels square rather than 2048, and the
 * atlas 1024 rather than 4096: the test counts allocations, which do not depend on the maps' size,
 * and lavapipe clears and rasterises the default maps 150 times over for minutes. Allocations are counted by --wrap of malloc and
 * friends over everything statically linked (libkiln), not inside Dawn or the driver. Where the
 * device has timestamp queries (lavapipe has) every pass of those frames is timed and the
 * timings are read each frame, so GPU pass timing is held to the same rule. With
 * KILN_ALLOC_REPORT=1 the renderer's per-phase report is printed for hunting regressions. */
#include <kiln/core/half.h>
#include <kiln/program.h>
#include <kiln/render.h>
#include "demo_scene.h"

#include "alloc_counter.h"
#include "gfx_fixture.h"

#define W 320
#define H 180
#define WARMUP 90
#define MEASURED 60

/* A 64 x 32 equirectangular map: a warm horizon band between a blue sky and a dark ground. */
static uint32_t add_environment_map(kiln_renderer *r, kiln_error *err) {
    enum { MAP_W = 64, MAP_H = 32 };
    static uint16_t texels[MAP_W * MAP_H * 4];
    for (uint32_t y = 0; y < MAP_H; y++)
        for (uint32_t x = 0; x < MAP_W * 4; x += 4) {
            uint16_t *t = &texels[y * MAP_W * 4 + x];
            float c[3] = {y < 14 ? 0.3f : y < 18 ? 1.5f : 0.1f, y < 14 ? 0.5f : y < 18 ? 1.2f : 0.08f, y < 14 ? 1.0f : 0.05f};
            for (int i = 0; i < 3; i++) t[i] = kiln_float_to_half(c[i]);
            t[3] = kiln_float_to_half(1.0f);
        }
    kiln_texture_create_desc d = {.format = KILN_FORMAT_RGBA16_FLOAT, .width = MAP_W, .height = MAP_H, .pixels = texels,
                                  .pixels_size = sizeof texels};
    return kiln_texture_registry_add(kiln_renderer_texture_registry(r), &d, err);
}

/* Frame `frame`'s joint palette (two 2-joint poses: joint 1 swinging) and morph weights. */
static void animate(kiln_render_scene *scene, kiln_render_instance *deformed, uint32_t count, kiln_mat4 joints[4], int frame) {
    float t = (float)frame * 0.05f;
    for (int pose = 0; pose < 2; pose++) {
        joints[pose * 2] = kiln_mat4_identity();
        joints[pose * 2 + 1] = kiln_mat4_from_quat(kiln_quat_from_axis_angle((kiln_vec3){0, 0, 1}, 0.5f * sinf(t + (float)pose)));
    }
    scene->joints = joints;
    scene->joint_count = 4;
    for (uint32_t i = 3; i < count; i++) {
        deformed[i].morph_weights[0] = 0.5f + 0.5f * sinf(t + (float)i);
        deformed[i].morph_weights[1] = 0.5f + 0.5f * cosf(t * 0.7f + (float)i);
    }
}

/* equirect: light the scene with a map instead of the procedural sky. */
static void check_steady_demo_frames_allocate_nothing(const kiln_render_settings *settings, bool equirect) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_renderer *r = kiln_renderer_create(f.gfx, f.res, settings, WGPUTextureFormat_RGBA8Unorm, &err);
    CHECK_MSG(r, "%s", err.message);
    demo_scene demo;
    CHECK_MSG(demo_scene_build(r, (float)W / H, &demo, &err), "%s", err.message);

    /* Extra meshes and materials for batching variety. */
    kiln_mesh_data md = {0};
    uint32_t meshes[4];
    CHECK(kiln_mesh_cube(&md, 0.2f, &err));
    meshes[0] = kiln_renderer_add_mesh(r, "small cube", &md, false, &err);
    kiln_mesh_data_free(&md);
    CHECK(kiln_mesh_uv_sphere(&md, 0.2f, 8, 16, &err));
    meshes[1] = kiln_renderer_add_mesh(r, "small sphere", &md, false, &err);
    kiln_mesh_data_free(&md);
    meshes[2] = 1, meshes[3] = 2; /* the demo's sphere and cube */
    /* A skinned cube (its upper half on joint 1) and a morphed cube (two targets). */
    kiln_mesh_data cube = {0};
    CHECK(kiln_mesh_cube(&cube, 0.2f, &err));
    cube.joints = calloc(cube.vertex_count, sizeof *cube.joints);
    cube.weights = calloc(cube.vertex_count, sizeof *cube.weights);
    for (uint32_t v = 0; v < cube.vertex_count; v++) {
        cube.joints[v].j[0] = cube.positions[v].y > 0 ? 1 : 0;
        cube.weights[v] = (kiln_vec4){1, 0, 0, 0};
    }
    uint32_t skinned = kiln_renderer_add_mesh(r, "skinned cube", &cube, false, &err);
    CHECK_MSG(skinned != KILN_INVALID_INDEX, "%s", err.message);
    free(cube.joints), free(cube.weights);
    cube.joints = NULL, cube.weights = NULL;
    for (int t = 0; t < 2; t++) {
        kiln_morph_target *target = kiln_mesh_data_add_morph_target(&cube, &err);
        CHECK_MSG(target, "%s", err.message);
        for (uint32_t v = 0; v < cube.vertex_count; v++) target->position_deltas[v] = kiln_vec3_scale(cube.normals[v], 0.1f * (float)(t + 1));
    }
    uint32_t morphed = kiln_renderer_add_mesh(r, "morphed cube", &cube, false, &err);
    CHECK_MSG(morphed != KILN_INVALID_INDEX, "%s", err.message);
    kiln_mesh_data_free(&cube);
    uint32_t materials[8];
    for (int i = 0; i < 8; i++) {
        kiln_material m = kiln_material_default("variety");
        m.base_color = (kiln_vec4){0.2f + 0.1f * (float)i, 0.5f, 0.8f - 0.1f * (float)i, i == 7 ? 0.5f : 1.0f};
        m.alpha_mode = i == 7 ? KILN_ALPHA_BLEND : i == 6 ? KILN_ALPHA_MASK : KILN_ALPHA_OPAQUE;
        m.double_sided = i == 5;
        materials[i] = kiln_renderer_add_material(r, &m, &err);
        CHECK_MSG(materials[i] != KILN_INVALID_INDEX, "%s", err.message);
    }
    enum { EXTRA = 320, LIGHTS = 40, DEFORMED = 6 };
    uint32_t total = demo.scene.instance_count + EXTRA + DEFORMED;
    kiln_render_instance *instances = calloc(total, sizeof *instances);
    memcpy(instances, demo.instances, demo.scene.instance_count * sizeof *instances);
    for (uint32_t i = 0; i < EXTRA; i++) {
        float x = (float)(i % 20) * 0.6f - 6.0f, z = -(float)(i / 20) * 0.6f - 2.0f;
        instances[demo.scene.instance_count + i] = (kiln_render_instance){
            .mesh = meshes[i % 4], .material = materials[(i / 4) % 8],
            .transform = kiln_mat4_translation((kiln_vec3){x, 0.2f, z})};
    }
    /* Three skinned cubes (two posed from the palette, one in its bind pose) and three morphed
     * ones, posed and weighted anew every frame. */
    static const int32_t JOINT_OFFSETS[DEFORMED] = {0, 2, -1, -1, -1, -1};
    kiln_render_instance *deformed = &instances[demo.scene.instance_count + EXTRA];
    for (uint32_t i = 0; i < DEFORMED; i++)
        deformed[i] = (kiln_render_instance){.mesh = i < 3 ? skinned : morphed, .material = materials[i % 6],
                                             .transform = kiln_mat4_translation((kiln_vec3){(float)i * 0.6f - 1.5f, 0.2f, 2.2f}),
                                             .joint_offset = JOINT_OFFSETS[i]};
    kiln_mat4 joints[4];
    kiln_light lights[1 + LIGHTS];
    lights[0] = demo.lights[0];
    for (int i = 0; i < LIGHTS; i++)
        lights[1 + i] = kiln_light_point((kiln_vec3){(float)(i % 8) * 1.5f - 6.0f, 0.8f, -(float)(i / 8) * 2.0f},
                                         (kiln_vec3){1, 0.7f, 0.4f}, 40.0f, 3.0f);
    /* Shadows from all three kinds: the sun, a point light's cube and a spot, in the atlas. */
    lights[1].cast_shadows = true;
    lights[2] = kiln_light_spot((kiln_vec3){0, 3, 1}, (kiln_vec3){0, -1, -0.5f}, (kiln_vec3){1, 1, 1}, 200.0f, 8.0f, 0.3f, 0.5f);
    lights[2].cast_shadows = true;
    kiln_render_scene scene = demo.scene;
    scene.instances = instances;
    scene.instance_count = total;
    scene.lights = lights;
    scene.light_count = 1 + LIGHTS;
    if (equirect) {
        scene.environment.equirect = add_environment_map(r, &err);
        CHECK_MSG(scene.environment.equirect, "%s", err.message);
    }

    kiln_texture target = kiln_resources_create_texture(f.res, &(kiln_texture_desc){.width = W, .height = H,
        .format = WGPUTextureFormat_RGBA8Unorm, .usage = WGPUTextureUsage_RenderAttachment}, &err);
    kiln_texture_view view = kiln_resources_create_texture_view(f.res, target, NULL, &err);
    kiln_render_target raw = {.texture = kiln_resources_texture_raw(f.res, target, NULL), .view = kiln_resources_texture_view_raw(f.res, view, NULL)};
    bool report = getenv("KILN_ALLOC_REPORT") != NULL;
    if (report) kiln_renderer_set_alloc_probe(r, kiln_alloc_counter_total);

    bool ok = true;
    for (int i = 0; i < WARMUP && ok; i++) {
        animate(&scene, deformed, DEFORMED, joints, i);
        ok = kiln_renderer_render(r, &scene, raw, &err);
        /* Let the GPU keep up, as a presenting application would. */
        if (i % 10 == 9) kiln_gfx_wait_for_queue(f.gfx, NULL);
    }
    CHECK_MSG(ok, "%s", err.message);
    kiln_gfx_wait_for_queue(f.gfx, NULL);
    kiln_alloc_counter_start();
    /* Where the device has timestamp queries every pass is timed, and reading the timings back
     * (each frame, as an overlay would) is part of the steady frame. */
    uint32_t timed_passes = 0;
    for (int i = 0; i < MEASURED && ok; i++) {
        animate(&scene, deformed, DEFORMED, joints, WARMUP + i);
        ok = kiln_renderer_render(r, &scene, raw, &err);
        timed_passes += kiln_renderer_pass_timings(r).count;
    }
    uint64_t allocations = kiln_alloc_counter_stop();
    CHECK_MSG(ok, "%s", err.message);
    kiln_frame_stats stats = *kiln_renderer_stats(r);
    kiln_gfx_wait_for_queue(f.gfx, NULL);
    kiln_gfx_pump(f.gfx, true);
    kiln_frame_timings timings = kiln_renderer_pass_timings(r);
    if (report)
        for (uint32_t i = 0; i < kiln_log_count(&f.gfx->diagnostics); i++) {
            const kiln_log_record *rec = kiln_log_at(&f.gfx->diagnostics, i);
            if (!strcmp(rec->category, "render.alloc")) printf("  %s\n", rec->message);
        }
    printf("frames %d, allocations %llu, instances drawn %u, draw calls %u, shadow draw calls %u, lights %u, "
           "GPU timings %s (last frame %llu, %u passes, %.2f ms)\n",
           MEASURED, (unsigned long long)allocations, stats.instances_drawn, stats.draw_calls, stats.shadow_draw_calls,
           stats.lights, kiln_frame_timings_status_name(timings.status), (unsigned long long)timings.frame,
           timings.count, timings.total_ms);
    bool has_timestamps = f.gfx->features.timestamp_query;
    kiln_resources_destroy_texture_view(f.res, view, NULL);
    kiln_resources_destroy_texture(f.res, target, NULL);
    free(instances);
    demo_scene_free(&demo);
    kiln_renderer_destroy(r);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK(stats.instances_drawn > 300);
    CHECK_EQ_INT(stats.lights, LIGHTS);
    /* Shadows are on by default: the sun's four cascades, and the demo's spot (one view) and
     * point light (six) in the atlas, are drawn every measured frame. */
    CHECK_EQ_INT(stats.shadow_views, 4 + 7);
    CHECK_EQ_INT(stats.shadowed_lights, 2);
    CHECK(stats.shadow_draw_calls > 0);
    /* The wireframe draws each of the camera's batches once, as the forward passes do. */
    CHECK_EQ_INT(stats.wireframe_draw_calls, settings->wireframe ? stats.draw_calls : 0);
    if (has_timestamps) {
        /* The measured frames were timed: the last one to come back is one of them, every pass. */
        CHECK_EQ_INT(timings.status, KILN_FRAME_TIMINGS_READY);
        CHECK(timings.frame > WARMUP);
        CHECK_EQ_INT(timings.count, stats.passes);
        CHECK(timed_passes > 0);
    } else {
        CHECK_EQ_INT(timings.status, KILN_FRAME_TIMINGS_UNAVAILABLE);
    }
    CHECK_EQ_INT(allocations, 0);
}

TEST(a_steady_frame_allocates_nothing) {
    check_steady_demo_frames_allocate_nothing(&(kiln_render_settings){.cascade_resolution = 512, .atlas_size = 1024, .atlas_tile = 256}, false);
}

/* Multisampled depth and HDR, the resolve, the 4-sample pipelines, the ldr transient and the
 * fxaa pass's bind group, with an equirectangular environment (its sky group, one bake); and the
 * wireframe pass over it all, with its per-mesh groups (blended, masked and double-sided materials
 * among them) and its resolve of hdr. */
TEST(a_steady_frame_with_msaa_4_fxaa_wireframe_and_a_map_allocates_nothing) {
    check_steady_demo_frames_allocate_nothing(&(kiln_render_settings){.msaa = 4, .fxaa = true, .wireframe = true,
                                                                      .cascade_resolution = 512, .atlas_size = 1024,
                                                                      .atlas_tile = 256},
                                              true);
}

/* Paints a colour into a transient, then blurs nothing fancier than a copy of it into the canvas
 * binding a material samples: two program passes with a transient, every frame. */
static const char PAINT_AND_COPY[] =
    "struct Paint { color: vec4<f32> };\n"
    "@group(0) @binding(0) var<uniform> paint: Paint;\n"
    "@group(1) @binding(0) var source: texture_2d<f32>;\n"
    "@group(1) @binding(1) var source_sampler: sampler;\n"
    "@fragment fn fs_paint(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> { return paint.color * vec4<f32>(uv, 1.0, 1.0); }\n"
    "@fragment fn fs_copy(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {\n"
    "    return textureSample(source, source_sampler, uv);\n"
    "}\n";

/* The frame an application with authored programs runs: program dispatches recorded first, the
 * scene (a material sampling what the program painted) after them, in one command buffer. */
TEST(a_steady_frame_with_program_passes_allocates_nothing) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_texture_registry *reg = kiln_texture_registry_create(f.res, &err);
    kiln_programs *programs = kiln_programs_create(f.gfx, f.res, reg, &err);
    CHECK_MSG(programs, "%s", err.message);
    uint32_t canvas = kiln_texture_registry_add(reg, &(kiln_texture_create_desc){.format = KILN_FORMAT_RGBA8, .width = 64,
                                                .height = 64, .usage = KILN_USAGE_WRITABLE}, &err);
    CHECK_MSG(canvas, "%s", err.message);
    kiln_slot_spec binding = {.format = KILN_FORMAT_RGBA8, .shape = {.kind = KILN_SHAPE_TARGET}};
    kiln_transient_spec transient = {.format = KILN_FORMAT_RGBA8};
    kiln_pass_spec passes[2] = {
        {.stage = KILN_STAGE_FRAGMENT, .entry_point = "fs_paint", .output = {.kind = KILN_OUTPUT_TRANSIENT, .index = 0},
         .blend = KILN_PROGRAM_BLEND_REPLACE, .uniform_length = 16},
        {.stage = KILN_STAGE_FRAGMENT, .entry_point = "fs_copy", .input_count = 1,
         .inputs = {{.kind = KILN_INPUT_TRANSIENT, .index = 0}}, .output = {.kind = KILN_OUTPUT_BINDING, .index = 0},
         .blend = KILN_PROGRAM_BLEND_REPLACE},
    };
    kiln_program_desc desc = {.wgsl = PAINT_AND_COPY, .binding_count = 1, .bindings = &binding, .transient_count = 1,
                              .transients = &transient, .pass_count = 2, .passes = passes};
    kiln_program_error perr = {0};
    uint32_t program = kiln_programs_register(programs, &desc, &perr);
    CHECK_MSG(program, "%s: %s", kiln_program_class_name(perr.cls), perr.message);

    kiln_renderer *r = kiln_renderer_create(f.gfx, f.res, NULL, WGPUTextureFormat_RGBA8Unorm, &err);
    CHECK_MSG(r, "%s", err.message);
    CHECK_MSG(kiln_renderer_set_texture_registry(r, reg, &err), "%s", err.message);
    kiln_mesh_data md = {0};
    CHECK(kiln_mesh_plane(&md, 20.0f, 1, &err));
    uint32_t plane = kiln_renderer_add_mesh(r, "plane", &md, false, &err);
    kiln_mesh_data_free(&md);
    kiln_material m = kiln_material_default("painted");
    m.textures[KILN_TEX_BASE_COLOR] = canvas;
    uint32_t mat = kiln_renderer_add_material(r, &m, &err);
    CHECK_MSG(mat != KILN_INVALID_INDEX, "%s", err.message);
    kiln_render_instance inst = {.mesh = plane, .material = mat, .transform = kiln_mat4_identity()};
    kiln_light sun = kiln_light_sun((kiln_vec3){0.3f, -1, 0.2f}, (kiln_vec3){1, 1, 1}, 3.0f);
    kiln_render_scene scene = {.camera = kiln_camera_look_at((kiln_vec3){0, 3, 3}, (kiln_vec3){0, 0, 0}, (kiln_vec3){0, 1, 0}, 1.0f, 1.0f, 0.1f),
                               .instances = &inst, .instance_count = 1, .lights = &sun, .light_count = 1};
    kiln_texture target = kiln_resources_create_texture(f.res, &(kiln_texture_desc){.width = W, .height = H,
        .format = WGPUTextureFormat_RGBA8Unorm, .usage = WGPUTextureUsage_RenderAttachment}, &err);
    kiln_texture_view view = kiln_resources_create_texture_view(f.res, target, NULL, &err);
    kiln_render_target raw = {.texture = kiln_resources_texture_raw(f.res, target, NULL), .view = kiln_resources_texture_view_raw(f.res, view, NULL)};

    bool ok = true;
    uint64_t allocations = 0;
    for (int i = 0; i < WARMUP + MEASURED && ok; i++) {
        if (i == WARMUP) {
            kiln_gfx_wait_for_queue(f.gfx, NULL);
            kiln_alloc_counter_start();
        }
        float color[4] = {(float)(i % 10) / 10.0f, 0.5f, 0.2f, 1.0f};
        kiln_encoder enc;
        ok = kiln_programs_dispatch(programs, program, &canvas, 1, color, sizeof color) == KILN_DISPATCH_OK &&
             kiln_encoder_begin(&enc, f.res, "frame", &err);
        if (!ok) break;
        ok = kiln_programs_record(programs, &enc, &err) && kiln_renderer_record(r, &scene, raw, &enc, &err);
        if (ok) ok = kiln_encoder_finish_and_submit(&enc, &err);
        else kiln_encoder_discard(&enc);
        if (i < WARMUP && i % 10 == 9) kiln_gfx_wait_for_queue(f.gfx, NULL);
    }
    allocations = kiln_alloc_counter_stop();
    printf("frames %d with program passes, allocations %llu\n", MEASURED, (unsigned long long)allocations);
    kiln_gfx_wait_for_queue(f.gfx, NULL);
    kiln_resources_destroy_texture_view(f.res, view, NULL);
    kiln_resources_destroy_texture(f.res, target, NULL);
    kiln_renderer_destroy(r);
    kiln_programs_destroy(programs);
    kiln_texture_registry_destroy(reg);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK_MSG(ok, "%s", err.message);
    CHECK_EQ_INT(allocations, 0);
}

TEST_MAIN(T(a_steady_frame_allocates_nothing), T(a_steady_frame_with_msaa_4_fxaa_wireframe_and_a_map_allocates_nothing),
          T(a_steady_frame_with_program_passes_allocates_nothing))
