/* Materials: the 96-byte uniform layout; textured materials naming registry textures, sampled
 * through KHR_texture_transform in the real forward shader (mip 0, the linear-light mip chain of
 * an sRGB image, a nearest sampler state, a CPU update reaching the frame); sampler states shared
 * through the renderer's cache; and refusals that name the slot or field. */
#include <kiln/render.h>

#include "render/material_gpu.h"

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
    m.textures[KILN_TEX_BASE_COLOR] = 7;
    m.textures[KILN_TEX_OCCLUSION] = 9;
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
    CHECK_EQ_INT(u32_at(b, 84), (1u << KILN_TEX_BASE_COLOR) | (1u << KILN_TEX_OCCLUSION)); /* the maps it names */
    for (size_t i = 88; i < sizeof b; i++) CHECK_EQ_INT(b[i], 0); /* padding is zeroed, not left over */
}


/* A 2x2 Rgba8Srgb registry texture with its mip chain: red, green / blue, white. */
static uint32_t checker(kiln_texture_registry *reg, kiln_error *err) {
    static const uint8_t texels[16] = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255};
    return kiln_texture_registry_add(reg, &(kiln_texture_create_desc){.format = KILN_FORMAT_RGBA8_SRGB, .width = 2, .height = 2,
                                .pixels = texels, .pixels_size = sizeof texels, .mips = true}, err);
}

/* Renders the plane (filling a 16x16 view in the albedo debug view) with `material` and reads
 * back the centre pixel. */
static bool render_center(gfx_fixture *f, kiln_renderer *r, uint32_t plane, uint32_t material, uint8_t out[4],
                          kiln_error *err) {
    kiln_render_instance inst = {.mesh = plane, .material = material, .transform = kiln_mat4_identity()};
    kiln_render_scene scene = {.camera = kiln_camera_look_at((kiln_vec3){0, 3, 0}, (kiln_vec3){0, 0, 0}, (kiln_vec3){0, 0, -1}, 1.0f, 1.0f, 0.1f),
                               .instances = &inst, .instance_count = 1};
    kiln_texture t = kiln_resources_create_texture(f->res, &(kiln_texture_desc){.width = 16, .height = 16, .format = WGPUTextureFormat_RGBA8UnormSrgb,
                                             .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc}, err);
    kiln_texture_view v = kiln_resources_create_texture_view(f->res, t, NULL, err);
    kiln_image img = {0};
    bool ok = v.id && kiln_renderer_render(r, &scene, (kiln_render_target){.texture = kiln_resources_texture_raw(f->res, t, NULL), .view = kiln_resources_texture_view_raw(f->res, v, NULL)}, err) &&
              kiln_resources_read_texture(f->res, kiln_resources_texture_raw(f->res, t, NULL), &img, err);
    if (ok) memcpy(out, (uint8_t *)img.pixels + (8 * 16 + 8) * 4, 4);
    kiln_image_free(&img);
    if (v.id) kiln_resources_destroy_texture_view(f->res, v, NULL);
    if (t.id) kiln_resources_destroy_texture(f->res, t, NULL);
    return ok;
}

/* A renderer drawing the albedo debug view into an sRGB target, and a plane filling its view. */
typedef struct material_env {
    gfx_fixture f;
    kiln_renderer *r;
    uint32_t plane;
} material_env;

static bool env_open(material_env *e, kiln_error *err) {
    e->r = kiln_renderer_create(e->f.gfx, e->f.res, &(kiln_render_settings){.debug = KILN_DEBUG_ALBEDO},
                                WGPUTextureFormat_RGBA8UnormSrgb, err);
    if (!e->r) return false;
    kiln_mesh_data md = {0};
    bool ok = kiln_mesh_plane(&md, 20.0f, 1, err);
    e->plane = ok ? kiln_renderer_add_mesh(e->r, "plane", &md, false, err) : KILN_INVALID_INDEX;
    kiln_mesh_data_free(&md);
    return e->plane != KILN_INVALID_INDEX;
}

/* Renders `m` with its uv transform squeezing every uv to a patch of `scale` around `offset`:
 * a tiny scale magnifies one texel of mip 0 (a scale of exactly 0 gives zero derivatives, an
 * undefined level of detail that lavapipe samples as black); a huge one minifies to the last mip. */
static bool render_material(material_env *e, kiln_material m, float scale, kiln_vec2 offset, uint8_t out[4],
                            kiln_error *err) {
    m.uv_scale = (kiln_vec2){scale, scale};
    m.uv_offset = offset;
    uint32_t mat = kiln_renderer_add_material(e->r, &m, err);
    if (mat == KILN_INVALID_INDEX) return false;
    return render_center(&e->f, e->r, e->plane, mat, out, err) && kiln_renderer_remove_material(e->r, mat, err);
}

TEST(a_textured_material_samples_through_the_uv_transform) {
    material_env e = {0};
    FIXTURE_OPEN(e.f);
    kiln_error err = {0};
    CHECK_MSG(env_open(&e, &err), "%s", err.message);
    uint32_t tex = checker(kiln_renderer_texture_registry(e.r), &err);
    CHECK_MSG(tex, "%s", err.message);
    uint32_t mips = kiln_texture_registry_info(kiln_renderer_texture_registry(e.r), tex)->mip_levels;
    kiln_material m = kiln_material_default("textured");
    m.textures[KILN_TEX_BASE_COLOR] = tex;
    uint8_t got[4][4];
    const kiln_vec2 at[4] = {{0.25f, 0.25f}, {0.75f, 0.25f}, {0.25f, 0.75f}, {0.75f, 0.75f}};
    for (int i = 0; i < 4; i++) CHECK_MSG(render_material(&e, m, 1e-3f, at[i], got[i], &err), "%s", err.message);
    kiln_renderer_destroy(e.r);
    FIXTURE_CLOSE_CLEAN(e.f);
    CHECK_EQ_INT(mips, 2);
    /* Magnified far below one texel, mip 0 is sampled within a thousandth of a texel of its centre:
     * the neighbours bleed in by at most a few sRGB steps (the curve is steep near black). */
    const uint8_t expected[4][3] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {255, 255, 255}};
    for (int i = 0; i < 4; i++)
        for (int c = 0; c < 3; c++) CHECK_MSG(abs(got[i][c] - expected[i][c]) <= 8, "texel %d channel %d: %d", i, c, got[i][c]);
}

/* A material without textures is not sampled: a mesh with no texture coordinates (every uv the
 * same, as a glTF primitive without TEXCOORD_0 loads) gives zero derivatives, where lavapipe
 * sampled the default textures as NaN and the surface went black (the sample Box did). Here a
 * uv scale of 0 makes every uv equal. */
TEST(an_untextured_material_draws_its_colour_with_degenerate_uvs) {
    material_env e = {0};
    FIXTURE_OPEN(e.f);
    kiln_error err = {0};
    CHECK_MSG(env_open(&e, &err), "%s", err.message);
    kiln_material m = kiln_material_default("red");
    m.base_color = (kiln_vec4){1, 0, 0, 1};
    uint8_t got[4] = {0};
    bool rendered = render_material(&e, m, 0.0f, (kiln_vec2){0.5f, 0.5f}, got, &err);
    kiln_renderer_destroy(e.r);
    FIXTURE_CLOSE_CLEAN(e.f);
    CHECK_MSG(rendered, "%s", err.message);
    CHECK_MSG(got[0] > 250 && got[1] < 5 && got[2] < 5, "albedo %u %u %u", got[0], got[1], got[2]);
}

/* COLOR_0: a mesh's vertex colours multiply the base colour (here a white material on a plane
 * whose vertices are all (0, 0.5, 1): the albedo view shows that colour, sRGB-encoded). */
TEST(vertex_colours_multiply_the_base_colour) {
    material_env e = {0};
    FIXTURE_OPEN(e.f);
    kiln_error err = {0};
    CHECK_MSG(env_open(&e, &err), "%s", err.message);
    kiln_mesh_data md = {0};
    bool built = kiln_mesh_plane(&md, 20.0f, 1, &err);
    if (built && (md.colors = calloc(md.vertex_count, sizeof *md.colors)) != NULL)
        for (uint32_t v = 0; v < md.vertex_count; v++) md.colors[v] = (kiln_vec4){0.0f, 0.5f, 1.0f, 1.0f};
    uint32_t coloured = built && md.colors ? kiln_renderer_add_mesh(e.r, "coloured plane", &md, false, &err) : KILN_INVALID_INDEX;
    kiln_mesh_data_free(&md);
    kiln_material white = kiln_material_default("white");
    uint32_t material = kiln_renderer_add_material(e.r, &white, &err);
    uint8_t got[4] = {0};
    bool rendered = coloured != KILN_INVALID_INDEX && render_center(&e.f, e.r, coloured, material, got, &err);
    kiln_renderer_destroy(e.r);
    FIXTURE_CLOSE_CLEAN(e.f);
    CHECK_MSG(rendered, "%s", err.message);
    /* linear 0.5 is sRGB 188 */
    CHECK_MSG(got[0] < 3 && got[1] > 184 && got[1] < 192 && got[2] > 252, "albedo %u %u %u", got[0], got[1], got[2]);
}

TEST(an_srgb_texture_mip_chain_averages_in_linear_light) {
    material_env e = {0};
    FIXTURE_OPEN(e.f);
    kiln_error err = {0};
    CHECK_MSG(env_open(&e, &err), "%s", err.message);
    uint32_t tex = checker(kiln_renderer_texture_registry(e.r), &err);
    CHECK_MSG(tex, "%s", err.message);
    kiln_material m = kiln_material_default("minified");
    m.textures[KILN_TEX_BASE_COLOR] = tex;
    uint8_t got[4];
    CHECK_MSG(render_material(&e, m, 1e3f, (kiln_vec2){0, 0}, got, &err), "%s", err.message);
    kiln_renderer_destroy(e.r);
    FIXTURE_CLOSE_CLEAN(e.f);
    /* Mip 1 is one texel: each channel is on in two of the four texels, so half the light,
     * which sRGB encodes as 188; averaging encoded values would give 128. */
    for (int c = 0; c < 3; c++) CHECK_MSG(abs(got[c] - 188) <= 3, "channel %d: %d", c, got[c]);
}

TEST(a_nearest_sampler_state_samples_one_texel) {
    material_env e = {0};
    FIXTURE_OPEN(e.f);
    kiln_error err = {0};
    CHECK_MSG(env_open(&e, &err), "%s", err.message);
    uint32_t tex = checker(kiln_renderer_texture_registry(e.r), &err);
    CHECK_MSG(tex, "%s", err.message);
    kiln_material linear = kiln_material_default("linear");
    linear.textures[KILN_TEX_BASE_COLOR] = tex;
    kiln_material nearest = linear;
    nearest.sampler = (kiln_sampler_state){.mag_filter = KILN_SAMPLER_FILTER_NEAREST, .min_filter = KILN_SAMPLER_FILTER_NEAREST,
                                           .mip_filter = KILN_SAMPLER_FILTER_NEAREST};
    /* A patch on the edge between red and green: linear filtering blends them, nearest picks one. */
    uint8_t blended[4], picked[4];
    CHECK_MSG(render_material(&e, linear, 1e-3f, (kiln_vec2){0.5f, 0.25f}, blended, &err), "%s", err.message);
    CHECK_MSG(render_material(&e, nearest, 1e-3f, (kiln_vec2){0.5f, 0.25f}, picked, &err), "%s", err.message);
    kiln_renderer_destroy(e.r);
    FIXTURE_CLOSE_CLEAN(e.f);
    CHECK_MSG(blended[0] > 100 && blended[1] > 100, "linear: %d %d %d", blended[0], blended[1], blended[2]);
    CHECK_MSG((picked[0] == 255 && picked[1] == 0) || (picked[0] == 0 && picked[1] == 255), "nearest: %d %d %d",
              picked[0], picked[1], picked[2]);
}

TEST(materials_with_one_sampler_state_share_one_sampler) {
    material_env e = {0};
    FIXTURE_OPEN(e.f);
    kiln_error err = {0};
    CHECK_MSG(env_open(&e, &err), "%s", err.message);
    kiln_material m = kiln_material_default("a");
    uint32_t before = kiln_resources_live_counts(e.f.res).samplers;
    CHECK(kiln_renderer_add_material(e.r, &m, &err) != KILN_INVALID_INDEX);
    CHECK(kiln_renderer_add_material(e.r, &m, &err) != KILN_INVALID_INDEX);
    uint32_t one_state = kiln_resources_live_counts(e.f.res).samplers;
    m.sampler.wrap_v = KILN_SAMPLER_WRAP_CLAMP_TO_EDGE;
    CHECK(kiln_renderer_add_material(e.r, &m, &err) != KILN_INVALID_INDEX);
    CHECK(kiln_renderer_add_material(e.r, &m, &err) != KILN_INVALID_INDEX);
    uint32_t two_states = kiln_resources_live_counts(e.f.res).samplers;
    kiln_renderer_destroy(e.r);
    uint32_t after = kiln_resources_live_counts(e.f.res).samplers;
    FIXTURE_CLOSE_CLEAN(e.f);
    CHECK_EQ_INT(one_state - before, 1);
    CHECK_EQ_INT(two_states - before, 2);
    CHECK_EQ_INT(after, 0); /* the cache goes with the renderer */
}

/* Each refusal names the material, the slot or field and the value, and adds nothing. */
TEST(a_bad_material_is_refused_by_name_and_changes_nothing) {
    material_env e = {0};
    FIXTURE_OPEN(e.f);
    kiln_error err = {0};
    CHECK_MSG(env_open(&e, &err), "%s", err.message);
    kiln_texture_registry *reg = kiln_renderer_texture_registry(e.r);
    uint32_t floats = kiln_texture_registry_add(reg, &(kiln_texture_create_desc){.format = KILN_FORMAT_R32_FLOAT, .width = 1,
                                           .height = 1}, &err);
    CHECK_MSG(floats, "%s", err.message);
    kiln_material m = kiln_material_default("rock");
    kiln_material cases[4] = {m, m, m, m};
    cases[0].textures[KILN_TEX_NORMAL] = 9;
    cases[1].textures[KILN_TEX_OCCLUSION] = floats;
    cases[2].sampler.wrap_u = (kiln_sampler_wrap)7;
    cases[3].sampler.mip_filter = KILN_SAMPLER_FILTER_COUNT;
    const char *expected[4] = {
        "material 'rock': normal slot names unknown texture id 9",
        "material 'rock': occlusion slot names texture 1, an R32Float texture a material cannot filter",
        "material 'rock': sampler wrap_u 7 is out of range (0..2)",
        "material 'rock': sampler mip_filter 2 is out of range (0..1)",
    };
    char messages[4][512];
    uint32_t indices[4];
    kiln_live_counts live = kiln_resources_live_counts(e.f.res);
    for (int i = 0; i < 4; i++) {
        indices[i] = kiln_renderer_add_material(e.r, &cases[i], &err);
        snprintf(messages[i], sizeof messages[i], "%s", err.message);
    }
    kiln_live_counts live_after = kiln_resources_live_counts(e.f.res);
    uint32_t count = kiln_renderer_material_count(e.r);
    kiln_renderer_destroy(e.r);
    FIXTURE_CLOSE_CLEAN(e.f);
    for (int i = 0; i < 4; i++) {
        CHECK_EQ_INT(indices[i], KILN_INVALID_INDEX);
        CHECK_STR_CONTAINS(messages[i], expected[i]);
    }
    CHECK_EQ_INT(count, 0);
    CHECK(memcmp(&live, &live_after, sizeof live) == 0);
}

TEST(the_registry_cannot_change_under_a_textured_material) {
    material_env e = {0};
    FIXTURE_OPEN(e.f);
    kiln_error err = {0};
    CHECK_MSG(env_open(&e, &err), "%s", err.message);
    kiln_texture_registry *shared = kiln_texture_registry_create(e.f.res, &err);
    CHECK_MSG(shared, "%s", err.message);
    kiln_material plain = kiln_material_default("plain");
    CHECK(kiln_renderer_add_material(e.r, &plain, &err) != KILN_INVALID_INDEX);
    bool untextured_ok = kiln_renderer_set_texture_registry(e.r, shared, &err); /* nothing names a texture */
    kiln_material textured = plain;
    textured.textures[KILN_TEX_BASE_COLOR] = checker(shared, &err);
    uint32_t index = kiln_renderer_add_material(e.r, &textured, &err);
    bool back_ok = kiln_renderer_set_texture_registry(e.r, NULL, &err);
    char message[512];
    snprintf(message, sizeof message, "%s", err.message);
    bool still_shared = kiln_renderer_texture_registry(e.r) == shared;
    kiln_renderer_destroy(e.r);
    kiln_texture_registry_destroy(shared);
    FIXTURE_CLOSE_CLEAN(e.f);
    CHECK(untextured_ok);
    CHECK_EQ_INT(index, 1);
    CHECK(!back_ok);
    CHECK(still_shared);
    CHECK_STR_CONTAINS(message, "set_texture_registry: material 1 names textures of the current registry");
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
    uint32_t id = kiln_texture_registry_add(reg, &(kiln_texture_create_desc){.format = KILN_FORMAT_RGBA8, .width = 1, .height = 1,
                                       .pixels = red, .pixels_size = sizeof red}, &err);
    CHECK_MSG(id, "%s", err.message);
    kiln_renderer *r = kiln_renderer_create(f.gfx, f.res, &(kiln_render_settings){.debug = KILN_DEBUG_ALBEDO},
                                            WGPUTextureFormat_RGBA8UnormSrgb, &err);
    CHECK_MSG(r, "%s", err.message);
    CHECK_MSG(kiln_renderer_set_texture_registry(r, reg, &err), "%s", err.message);
    kiln_mesh_data md = {0};
    CHECK(kiln_mesh_plane(&md, 20.0f, 1, &err));
    uint32_t plane = kiln_renderer_add_mesh(r, "plane", &md, false, &err);
    kiln_mesh_data_free(&md);
    kiln_material m = kiln_material_default("updated");
    m.textures[KILN_TEX_BASE_COLOR] = id;
    uint32_t mat = kiln_renderer_add_material(r, &m, &err);
    CHECK_MSG(mat != KILN_INVALID_INDEX, "%s", err.message);
    uint8_t before[4] = {0}, after[4] = {0};
    CHECK_MSG(render_center(&f, r, plane, mat, before, &err), "%s", err.message);
    CHECK_MSG(kiln_texture_registry_update(reg, id, green, sizeof green, &err), "%s", err.message);
    CHECK_MSG(render_center(&f, r, plane, mat, after, &err), "%s", err.message);
    kiln_renderer_destroy(r);
    kiln_texture_registry_destroy(reg);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK_MSG(before[0] == 255 && before[1] == 0 && before[2] == 0, "before: %d %d %d", before[0], before[1], before[2]);
    CHECK_MSG(after[0] == 0 && after[1] == 255 && after[2] == 0, "after: %d %d %d", after[0], after[1], after[2]);
}

TEST_MAIN(T(the_uniform_puts_every_field_at_its_documented_offset), T(a_textured_material_samples_through_the_uv_transform),
          T(an_untextured_material_draws_its_colour_with_degenerate_uvs), T(vertex_colours_multiply_the_base_colour),
          T(an_srgb_texture_mip_chain_averages_in_linear_light), T(a_nearest_sampler_state_samples_one_texel),
          T(materials_with_one_sampler_state_share_one_sampler), T(a_bad_material_is_refused_by_name_and_changes_nothing),
          T(the_registry_cannot_change_under_a_textured_material),
          T(a_registry_texture_updated_on_the_cpu_reaches_the_material_sampling_it))
