/* A material samples what an authored program wrote: a program paints a Writable registry texture,
 * a renderer material names that texture by its registry id, and the rendered plane shows the
 * program's colour; repainting with a new blob changes the rendered colour without touching the
 * material; and in one command buffer (program passes recorded first, then the scene's) the scene
 * sees that frame's paint. */
#include <kiln/program.h>
#include <kiln/render.h>

#include "gfx_fixture.h"

static const char *PAINT =
    "struct Paint { color: vec4<f32> };\n"
    "@group(0) @binding(0) var<uniform> paint: Paint;\n"
    "@fragment fn fs_paint(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> { return paint.color; }\n";

static bool render_center(gfx_fixture *f, kiln_renderer *r, const kiln_render_scene *scene, uint8_t out[4], kiln_error *err) {
    kiln_texture t = kiln_resources_create_texture(f->res, &(kiln_texture_desc){.width = 16, .height = 16, .format = WGPUTextureFormat_RGBA8Unorm,
                                             .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc}, err);
    kiln_texture_view v = kiln_resources_create_texture_view(f->res, t, NULL, err);
    kiln_image img = {0};
    bool ok = v.id && kiln_renderer_render(r, scene, (kiln_render_target){.texture = kiln_resources_texture_raw(f->res, t, NULL), .view = kiln_resources_texture_view_raw(f->res, v, NULL)}, err) &&
              kiln_resources_read_texture(f->res, kiln_resources_texture_raw(f->res, t, NULL), &img, err);
    if (ok) memcpy(out, (uint8_t *)img.pixels + (8 * 16 + 8) * 4, 4);
    kiln_image_free(&img);
    if (v.id) kiln_resources_destroy_texture_view(f->res, v, NULL);
    if (t.id) kiln_resources_destroy_texture(f->res, t, NULL);
    return ok;
}

TEST(a_material_shows_the_texture_a_program_painted) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_texture_registry *reg = kiln_texture_registry_create(f.res, &err);
    kiln_programs *programs = kiln_programs_create(f.gfx, f.res, reg, &err);
    CHECK_MSG(programs, "%s", err.message);
    uint32_t canvas = kiln_texture_registry_add(reg, &(kiln_texture_create_desc){.format = KILN_FORMAT_RGBA8, .width = 8, .height = 8,
                                           .usage = KILN_USAGE_WRITABLE}, &err);
    CHECK_MSG(canvas, "%s", err.message);
    kiln_slot_spec binding = {.format = KILN_FORMAT_RGBA8, .shape = {.kind = KILN_SHAPE_TARGET}};
    kiln_pass_spec pass = {.stage = KILN_STAGE_FRAGMENT, .entry_point = "fs_paint",
                           .output = {.kind = KILN_OUTPUT_BINDING, .index = 0}, .blend = KILN_PROGRAM_BLEND_REPLACE,
                           .uniform_length = 16};
    kiln_program_desc desc = {.wgsl = PAINT, .binding_count = 1, .bindings = &binding, .pass_count = 1, .passes = &pass};
    kiln_program_error perr = {0};
    uint32_t program = kiln_programs_register(programs, &desc, &perr);
    CHECK_MSG(program, "%s: %s", kiln_program_class_name(perr.cls), perr.message);

    kiln_renderer *r = kiln_renderer_create(f.gfx, f.res, &(kiln_render_settings){.debug = KILN_DEBUG_ALBEDO},
                                            WGPUTextureFormat_RGBA8Unorm, &err);
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
    kiln_render_scene scene = {.camera = kiln_camera_look_at((kiln_vec3){0, 3, 0}, (kiln_vec3){0, 0, 0}, (kiln_vec3){0, 0, -1}, 1.0f, 1.0f, 0.1f),
                               .instances = &inst, .instance_count = 1};

    /* The canvas is Rgba8 (unorm, sampled as linear values); the renderer sRGB-encodes its unorm
     * output in the tone map pass, so a painted 0.5 shows as 188. */
    float orange[4] = {1.0f, 0.5f, 0.0f, 1.0f}, teal[4] = {0.0f, 0.5f, 0.5f, 1.0f};
    uint8_t first[4], second[4];
    CHECK_EQ_INT(kiln_programs_dispatch(programs, program, &canvas, 1, orange, sizeof orange), KILN_DISPATCH_OK);
    CHECK_MSG(kiln_programs_frame(programs, &err), "%s", err.message);
    CHECK_MSG(render_center(&f, r, &scene, first, &err), "%s", err.message);
    CHECK_EQ_INT(kiln_programs_dispatch(programs, program, &canvas, 1, teal, sizeof teal), KILN_DISPATCH_OK);
    CHECK_MSG(kiln_programs_frame(programs, &err), "%s", err.message);
    CHECK_MSG(render_center(&f, r, &scene, second, &err), "%s", err.message);

    /* One command buffer: the program's pass, then the scene's, submitted once. */
    float violet[4] = {0.5f, 0.0f, 1.0f, 1.0f};
    uint8_t third[4] = {0};
    CHECK_EQ_INT(kiln_programs_dispatch(programs, program, &canvas, 1, violet, sizeof violet), KILN_DISPATCH_OK);
    kiln_texture t = kiln_resources_create_texture(f.res, &(kiln_texture_desc){.width = 16, .height = 16, .format = WGPUTextureFormat_RGBA8Unorm,
                                             .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc}, &err);
    kiln_texture_view v = kiln_resources_create_texture_view(f.res, t, NULL, &err);
    kiln_encoder enc;
    CHECK(kiln_encoder_begin(&enc, f.res, "one frame", &err));
    CHECK_MSG(kiln_programs_record(programs, &enc, &err), "%s", err.message);
    CHECK_MSG(kiln_renderer_record(r, &scene, (kiln_render_target){.texture = kiln_resources_texture_raw(f.res, t, NULL), .view = kiln_resources_texture_view_raw(f.res, v, NULL)}, &enc, &err), "%s", err.message);
    CHECK_MSG(kiln_encoder_finish_and_submit(&enc, &err), "%s", err.message);
    kiln_image img = {0};
    CHECK_MSG(kiln_resources_read_texture(f.res, kiln_resources_texture_raw(f.res, t, NULL), &img, &err), "%s", err.message);
    memcpy(third, (uint8_t *)img.pixels + (8 * 16 + 8) * 4, 4);
    kiln_image_free(&img);
    kiln_resources_destroy_texture_view(f.res, v, NULL);
    kiln_resources_destroy_texture(f.res, t, NULL);

    /* A slot naming an id the registry does not know is refused by name. */
    kiln_material bad = kiln_material_default("bad");
    bad.textures[KILN_TEX_EMISSIVE] = 999;
    uint32_t bad_index = kiln_renderer_add_material(r, &bad, &err);
    char bad_message[512];
    snprintf(bad_message, sizeof bad_message, "%s", err.message);

    kiln_renderer_destroy(r);
    kiln_programs_destroy(programs);
    kiln_texture_registry_destroy(reg);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK(first[0] == 255 && abs(first[1] - 188) <= 1 && first[2] == 0);
    CHECK(second[0] == 0 && abs(second[1] - 188) <= 1 && abs(second[2] - 188) <= 1);
    CHECK(abs(third[0] - 188) <= 1 && third[1] == 0 && third[2] == 255); /* violet, painted in the same submit */
    CHECK_EQ_INT(bad_index, KILN_INVALID_INDEX);
    CHECK_STR_CONTAINS(bad_message, "material 'bad': emissive slot names unknown texture id 999");
}

TEST_MAIN(T(a_material_shows_the_texture_a_program_painted))
