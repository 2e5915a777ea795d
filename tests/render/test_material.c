/* Materials: the 96-byte uniform layout, mip counts and the CPU mip chain upload, and a textured
 * material sampled through KHR_texture_transform in the real forward shader. */
#include <kiln/render.h>

#include "gfx_fixture.h"

static float f32_at(const uint8_t *b, size_t off) {
    float v;
    memcpy(&v, b + off, 4);
    return v;
}

static uint32_t u32_at(const uint8_t *b, size_t off) {
    uint32_t v;
    memcpy(&v, b + off, 4);
    return v;
}

TEST(the_uniform_puts_every_field_at_its_documented_offset) {
    kiln_material m = kiln_material_default("layout");
    m.base_color = (kiln_vec4){0.1f, 0.2f, 0.3f, 0.4f};
    m.emissive = (kiln_vec3){0.5f, 0.6f, 0.7f};
    m.emissive_strength = 8.0f;
    m.metallic = 0.25f, m.roughness = 0.75f, m.normal_scale = 0.5f, m.occlusion_strength = 0.9f;
    m.alpha_cutoff = 0.3f, m.alpha_mode = KILN_ALPHA_MASK, m.double_sided = true, m.uv_rotation = 1.5f;
    m.uv_offset = (kiln_vec2){0.125f, 0.375f}, m.uv_scale = (kiln_vec2){2.0f, 3.0f};
    m.texcoords[KILN_TEX_NORMAL] = 1;
    m.texcoords[KILN_TEX_EMISSIVE] = 1;
    uint8_t b[KILN_MATERIAL_UNIFORM_SIZE];
    memset(b, 0xAB, sizeof b);
    kiln_material_pack_uniform(&m, b);
    CHECK_NEAR(f32_at(b, 0), 0.1, 1e-7);
    CHECK_NEAR(f32_at(b, 12), 0.4, 1e-7);
    CHECK_NEAR(f32_at(b, 16), 0.5, 1e-7);
    CHECK_NEAR(f32_at(b, 28), 8.0, 0);
    CHECK_NEAR(f32_at(b, 32), 0.25, 0);
    CHECK_NEAR(f32_at(b, 36), 0.75, 0);
    CHECK_NEAR(f32_at(b, 40), 0.5, 0);
    CHECK_NEAR(f32_at(b, 44), 0.9, 1e-7);
    CHECK_NEAR(f32_at(b, 48), 0.3, 1e-7);
    CHECK_EQ_INT(u32_at(b, 52), KILN_ALPHA_MASK);
    CHECK_EQ_INT(u32_at(b, 56), 1);
    CHECK_NEAR(f32_at(b, 60), 1.5, 0);
    CHECK_NEAR(f32_at(b, 64), 0.125, 0);
    CHECK_NEAR(f32_at(b, 68), 0.375, 0);
    CHECK_NEAR(f32_at(b, 72), 2.0, 0);
    CHECK_NEAR(f32_at(b, 76), 3.0, 0);
    CHECK_EQ_INT(u32_at(b, 80), (1u << KILN_TEX_NORMAL) | (1u << KILN_TEX_EMISSIVE));
    for (size_t i = 84; i < sizeof b; i++) CHECK_EQ_INT(b[i], 0); /* padding is zeroed, not left over */
}

TEST(mip_counts_cover_the_whole_chain) {
    CHECK_EQ_INT(kiln_mip_count(1, 1), 1);
    CHECK_EQ_INT(kiln_mip_count(256, 128), 9);
    CHECK_EQ_INT(kiln_mip_count(5, 3), 3);
    CHECK_EQ_INT(kiln_mip_count(1, 1024), 11);
}

/* A 2x2 texture: red, green / blue, white. */
static void checker(kiln_image *img) {
    static const uint8_t texels[16] = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255};
    kiln_image_create(img, 2, 2, KILN_IMAGE_RGBA8, NULL);
    memcpy(img->pixels, texels, sizeof texels);
}

/* Renders the plane (filling a 16x16 view in the albedo debug view) with `material` and reads
 * back the centre pixel. */
static bool render_center(gfx_fixture *f, kiln_renderer *r, uint32_t plane, uint32_t material, uint8_t out[4],
                          kiln_error *err) {
    kiln_render_instance inst = {.mesh = plane, .material = material, .transform = kiln_mat4_identity(), .joint_offset = -1};
    kiln_render_scene scene = {.camera = kiln_camera_look_at((kiln_vec3){0, 3, 0}, (kiln_vec3){0, 0, 0}, (kiln_vec3){0, 0, -1}, 1.0f, 1.0f, 0.1f),
                               .instances = &inst, .instance_count = 1};
    kiln_texture t = kiln_gfx_create_texture(f->res, &(kiln_texture_desc){.width = 16, .height = 16, .format = WGPUTextureFormat_RGBA8UnormSrgb,
                                             .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc}, err);
    kiln_texture_view v = kiln_gfx_create_texture_view(f->res, t, NULL, err);
    kiln_image img = {0};
    bool ok = v.id && kiln_renderer_render(r, &scene, kiln_gfx_texture_view_raw(f->res, v, NULL), 16, 16, err) &&
              kiln_gfx_read_texture(f->res, kiln_gfx_texture_raw(f->res, t, NULL), &img, err);
    if (ok) memcpy(out, (uint8_t *)img.pixels + (8 * 16 + 8) * 4, 4);
    kiln_image_free(&img);
    if (v.id) kiln_gfx_destroy_texture_view(f->res, v, NULL);
    if (t.id) kiln_gfx_destroy_texture(f->res, t, NULL);
    return ok;
}

/* Renders a plane filling the view in the albedo debug view with the material's uv transform
 * shrinking every uv to a tiny patch around the offset, which picks the texel. (A scale of exactly
 * 0 gives zero derivatives, an undefined level of detail that lavapipe samples as black.) */
static bool render_texel(gfx_fixture *f, kiln_renderer *r, uint32_t plane, kiln_texture_view tex, kiln_vec2 offset,
                         uint8_t out[4], kiln_error *err) {
    kiln_material m = kiln_material_default("textured");
    m.textures[KILN_TEX_BASE_COLOR] = tex;
    m.uv_scale = (kiln_vec2){1e-3f, 1e-3f};
    m.uv_offset = offset;
    uint32_t mat = kiln_renderer_add_material(r, &m, err);
    if (mat == KILN_INVALID_INDEX) return false;
    kiln_render_instance inst = {.mesh = plane, .material = mat, .transform = kiln_mat4_identity(), .joint_offset = -1};
    kiln_render_scene scene = {.camera = kiln_camera_look_at((kiln_vec3){0, 3, 0}, (kiln_vec3){0, 0, 0}, (kiln_vec3){0, 0, -1}, 1.0f, 1.0f, 0.1f),
                               .instances = &inst, .instance_count = 1};
    kiln_texture t = kiln_gfx_create_texture(f->res, &(kiln_texture_desc){.width = 16, .height = 16, .format = WGPUTextureFormat_RGBA8UnormSrgb,
                                             .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc}, err);
    kiln_texture_view v = kiln_gfx_create_texture_view(f->res, t, NULL, err);
    kiln_image img = {0};
    bool ok = kiln_renderer_render(r, &scene, kiln_gfx_texture_view_raw(f->res, v, NULL), 16, 16, err) &&
              kiln_gfx_read_texture(f->res, kiln_gfx_texture_raw(f->res, t, NULL), &img, err);
    if (ok) memcpy(out, (uint8_t *)img.pixels + (8 * 16 + 8) * 4, 4);
    kiln_image_free(&img);
    kiln_gfx_destroy_texture_view(f->res, v, NULL);
    kiln_gfx_destroy_texture(f->res, t, NULL);
    return ok && kiln_renderer_remove_material(r, mat, err);
}

TEST(a_textured_material_samples_through_the_uv_transform) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_image img;
    checker(&img);
    kiln_gpu_texture tex;
    CHECK_MSG(kiln_upload_image(f.res, "checker", &img, true, true, &tex, &err), "%s", err.message);
    kiln_image_free(&img);
    uint32_t mips = tex.mip_levels, mips_on_gpu = kiln_gfx_texture_desc(f.res, tex.texture)->mip_levels;
    kiln_renderer *r = kiln_renderer_create(f.gfx, f.res, &(kiln_render_settings){.debug = KILN_DEBUG_ALBEDO},
                                            WGPUTextureFormat_RGBA8UnormSrgb, &err);
    CHECK_MSG(r, "%s", err.message);
    kiln_mesh_data md = {0};
    CHECK(kiln_mesh_plane(&md, 20.0f, 1, &err));
    uint32_t plane = kiln_renderer_add_mesh(r, "plane", &md, false, &err);
    kiln_mesh_data_free(&md);
    uint8_t red[4], green[4], blue[4], white[4];
    CHECK_MSG(render_texel(&f, r, plane, tex.view, (kiln_vec2){0.25f, 0.25f}, red, &err), "%s", err.message);
    CHECK_MSG(render_texel(&f, r, plane, tex.view, (kiln_vec2){0.75f, 0.25f}, green, &err), "%s", err.message);
    CHECK_MSG(render_texel(&f, r, plane, tex.view, (kiln_vec2){0.25f, 0.75f}, blue, &err), "%s", err.message);
    CHECK_MSG(render_texel(&f, r, plane, tex.view, (kiln_vec2){0.75f, 0.75f}, white, &err), "%s", err.message);
    kiln_renderer_destroy(r);
    kiln_gpu_texture_destroy(f.res, &tex);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK_EQ_INT(mips, 2);
    CHECK_EQ_INT(mips_on_gpu, 2);
    /* Magnified far below one texel, mip 0 is sampled within a thousandth of a texel of its centre:
     * the neighbours bleed in by at most a few sRGB steps (the curve is steep near black). */
    const uint8_t expected[4][3] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {255, 255, 255}};
    const uint8_t *got[4] = {red, green, blue, white};
    for (int i = 0; i < 4; i++)
        for (int c = 0; c < 3; c++) CHECK_MSG(abs(got[i][c] - expected[i][c]) <= 8, "texel %d channel %d: %d", i, c, got[i][c]);
}

TEST(uploading_a_float_image_is_refused_by_name) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_image img;
    CHECK(kiln_image_create(&img, 2, 2, KILN_IMAGE_RGBA32F, &err));
    kiln_gpu_texture tex;
    bool ok = kiln_upload_image(f.res, "hdr thing", &img, false, false, &tex, &err);
    kiln_image_free(&img);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK(!ok);
    CHECK_STR_CONTAINS(err.message, "upload_image 'hdr thing': only RGBA8");
}

/* The defect of the architecture issue: a material samples a registry texture; the texture is
 * updated on the CPU; the next frame must show the new pixels, with the material left as it was. */
TEST(a_registry_texture_updated_on_the_cpu_reaches_the_material_sampling_it) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_texture_registry *reg = kiln_texture_registry_create(f.res, &err);
    CHECK_MSG(reg, "%s", err.message);
    static const uint8_t red[4] = {255, 0, 0, 255}, green[4] = {0, 255, 0, 255};
    uint32_t id = kiln_textures_create(reg, &(kiln_texture_create_desc){.format = KILN_FORMAT_RGBA8, .width = 1, .height = 1,
                                       .pixels = red, .pixels_size = sizeof red}, &err);
    CHECK_MSG(id, "%s", err.message);
    kiln_renderer *r = kiln_renderer_create(f.gfx, f.res, &(kiln_render_settings){.debug = KILN_DEBUG_ALBEDO},
                                            WGPUTextureFormat_RGBA8UnormSrgb, &err);
    CHECK_MSG(r, "%s", err.message);
    kiln_renderer_set_texture_registry(r, reg);
    kiln_mesh_data md = {0};
    CHECK(kiln_mesh_plane(&md, 20.0f, 1, &err));
    uint32_t plane = kiln_renderer_add_mesh(r, "plane", &md, false, &err);
    kiln_mesh_data_free(&md);
    kiln_material m = kiln_material_default("updated");
    m.registry_textures[KILN_TEX_BASE_COLOR] = id;
    uint32_t mat = kiln_renderer_add_material(r, &m, &err);
    CHECK_MSG(mat != KILN_INVALID_INDEX, "%s", err.message);
    uint8_t before[4] = {0}, after[4] = {0};
    CHECK_MSG(render_center(&f, r, plane, mat, before, &err), "%s", err.message);
    CHECK_MSG(kiln_textures_update(reg, id, green, sizeof green, &err), "%s", err.message);
    CHECK_MSG(render_center(&f, r, plane, mat, after, &err), "%s", err.message);
    kiln_renderer_destroy(r);
    kiln_texture_registry_destroy(reg);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK_MSG(before[0] == 255 && before[1] == 0 && before[2] == 0, "before: %d %d %d", before[0], before[1], before[2]);
    CHECK_MSG(after[0] == 0 && after[1] == 255 && after[2] == 0, "after: %d %d %d", after[0], after[1], after[2]);
}

TEST_MAIN(T(the_uniform_puts_every_field_at_its_documented_offset), T(mip_counts_cover_the_whole_chain),
          T(a_textured_material_samples_through_the_uv_transform), T(uploading_a_float_image_is_refused_by_name),
          T(a_registry_texture_updated_on_the_cpu_reaches_the_material_sampling_it))
