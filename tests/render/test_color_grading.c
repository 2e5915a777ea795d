/* Colour grading on the GPU (lavapipe), pixels read back (src/render/features/color_grading.c):
 * a table of the identity leaves every pixel as it was, on encoded and linear outputs; neutral
 * controls declare no pass; a table replaces every colour; saturation -1 makes every pixel grey,
 * contrast -1 mid grey, and a warmer white balance moves a surface towards red; over a transparent
 * background with FXAA after the grade, coverage survives; a setting out of range, a table id
 * that names no colour table and a table of another domain are refused with their exact
 * messages. Every frame validation clean. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kiln/import.h>
#include <kiln/render.h>

#include "renderer_fixture.h"

#define W 64
#define H 48

typedef struct grading_scene {
    renderer_fixture h;
    kiln_render_instance instances[2];
    kiln_light sun;
    kiln_render_scene scene;
} grading_scene;

static const uint8_t *pixel_at(const kiln_image *img, int x, int y) {
    return (const uint8_t *)img->pixels + ((size_t)y * W + x) * 4;
}

/* A grey cube and a red plane under a white sun, over the sky. */
static bool scene_open(grading_scene *s, const kiln_render_settings *settings, WGPUTextureFormat format,
                       kiln_error *err) {
    *s = (grading_scene){0};
    if (!renderer_fixture_open(&s->h, settings, format, W, H, err)) return false;
    uint32_t cube = renderer_fixture_add_cube(&s->h, "cube", 0.5f, err);
    uint32_t plane = renderer_fixture_add_plane(&s->h, "plane", 0.5f, err);
    kiln_material grey = kiln_material_default("grey"), red = kiln_material_default("red");
    grey.base_color = (kiln_vec4){0.5f, 0.5f, 0.5f, 1};
    red.base_color = (kiln_vec4){0.8f, 0.1f, 0.05f, 1};
    red.double_sided = true;
    uint32_t m_grey = kiln_renderer_add_material(s->h.r, &grey, err), m_red = kiln_renderer_add_material(s->h.r, &red, err);
    if (cube == KILN_INVALID_INDEX || plane == KILN_INVALID_INDEX || m_grey == KILN_INVALID_INDEX ||
        m_red == KILN_INVALID_INDEX)
        return false;
    kiln_mat4 upright = kiln_mat4_mul(kiln_mat4_translation((kiln_vec3){1.1f, 0, 0}),
                                      kiln_mat4_from_quat(kiln_quat_from_axis_angle((kiln_vec3){1, 0, 0}, KILN_PI / 2)));
    s->instances[0] = (kiln_render_instance){.mesh = cube, .material = m_grey, .transform = kiln_mat4_identity()};
    s->instances[1] = (kiln_render_instance){.mesh = plane, .material = m_red, .transform = upright};
    s->sun = kiln_light_sun((kiln_vec3){-0.3f, -0.5f, -1}, (kiln_vec3){1, 1, 1}, 3.0f);
    s->scene = (kiln_render_scene){
        .camera = kiln_camera_orthographic_look_at((kiln_vec3){0, 0, 5}, (kiln_vec3){0, 0, 0}, (kiln_vec3){0, 1, 0}, 1.0f,
                                                   1.5f, 0.1f, 20.0f),
        .instances = s->instances, .instance_count = 2, .lights = &s->sun, .light_count = 1};
    return true;
}

static kiln_render_settings quick(void) {
    return (kiln_render_settings){.disable_bloom = true, .disable_ao = true, .disable_shadows = true};
}

/* A table of `size` entries per axis: the identity, or with `constant` every entry that colour. */
static kiln_color_lut make_table(uint32_t size, const kiln_vec3 *constant) {
    kiln_color_lut lut = {.size = size, .domain_max = {1, 1, 1}};
    lut.rgb = malloc((size_t)size * size * size * 3 * sizeof(float));
    for (uint32_t b = 0, i = 0; b < size; b++)
        for (uint32_t g = 0; g < size; g++)
            for (uint32_t r = 0; r < size; r++, i++) {
                kiln_vec3 c = constant ? *constant
                                       : (kiln_vec3){(float)r / (float)(size - 1), (float)g / (float)(size - 1),
                                                     (float)b / (float)(size - 1)};
                lut.rgb[i * 3] = c.x, lut.rgb[i * 3 + 1] = c.y, lut.rgb[i * 3 + 2] = c.z;
            }
    return lut;
}

/* Renders the scene with `settings`, then with `graded` (its table, if any, made by `table`), and
 * reads both images and pass counts back. */
static bool render_pair(WGPUTextureFormat format, kiln_render_settings graded, const kiln_color_lut *table,
                        kiln_image *before, kiln_image *after, uint32_t passes[2], kiln_error *err) {
    grading_scene s;
    kiln_render_settings settings = quick();
    bool ok = scene_open(&s, &settings, format, err) && renderer_fixture_render(&s.h, &s.scene, before, err);
    passes[0] = kiln_renderer_stats(s.h.r)->passes;
    if (ok && table) ok = (graded.color_lut = kiln_import_color_lut(s.h.r, table, "table", err)) != 0;
    if (ok) *kiln_renderer_settings(s.h.r) = graded;
    ok = ok && renderer_fixture_render(&s.h, &s.scene, after, err);
    passes[1] = kiln_renderer_stats(s.h.r)->passes;
    return renderer_fixture_close(&s.h) == 0 && ok;
}

TEST(a_table_of_the_identity_leaves_every_pixel_as_it_was) {
    static const WGPUTextureFormat formats[] = {WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_RGBA8UnormSrgb};
    for (size_t f = 0; f < 2; f++) {
        kiln_color_lut identity = make_table(17, NULL);
        kiln_image before = {0}, after = {0};
        uint32_t passes[2];
        kiln_error err = {0};
        CHECK_MSG(render_pair(formats[f], quick(), &identity, &before, &after, passes, &err), "%s", err.message);
        CHECK_EQ_INT(passes[1], passes[0] + 1); /* the grade ran */
        int differ = 0;
        for (size_t i = 0; i < (size_t)W * H * 4; i++) differ += ((uint8_t *)before.pixels)[i] != ((uint8_t *)after.pixels)[i];
        CHECK_MSG(differ == 0, "format %zu: %d channel values changed", f, differ);
        kiln_image_free(&before);
        kiln_image_free(&after);
        kiln_color_lut_free(&identity);
    }
}

TEST(neutral_controls_declare_no_pass) {
    kiln_render_settings neutral = quick();
    neutral.gamma = (kiln_vec3){1, 1, 1};
    neutral.gain = (kiln_vec3){1, 1, 1};
    kiln_image before = {0}, after = {0};
    uint32_t passes[2];
    kiln_error err = {0};
    CHECK_MSG(render_pair(WGPUTextureFormat_RGBA8Unorm, neutral, NULL, &before, &after, passes, &err), "%s", err.message);
    CHECK_EQ_INT(passes[1], passes[0]);
    CHECK(!memcmp(before.pixels, after.pixels, (size_t)W * H * 4));
    kiln_image_free(&before);
    kiln_image_free(&after);
}

TEST(a_constant_table_replaces_every_colour) {
    kiln_vec3 colour = {0.25f, 0.5f, 1.0f};
    kiln_color_lut table = make_table(2, &colour);
    kiln_image before = {0}, after = {0};
    uint32_t passes[2];
    kiln_error err = {0};
    CHECK_MSG(render_pair(WGPUTextureFormat_RGBA8Unorm, quick(), &table, &before, &after, passes, &err), "%s", err.message);
    int off = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const uint8_t *p = pixel_at(&after, x, y);
            off += abs(p[0] - 64) > 1 || abs(p[1] - 128) > 1 || p[2] != 255;
        }
    CHECK_MSG(off == 0, "%d pixels are not the table's colour", off);
    kiln_image_free(&before);
    kiln_image_free(&after);
    kiln_color_lut_free(&table);
}

TEST(saturation_minus_one_makes_every_pixel_grey_and_contrast_minus_one_mid_grey) {
    for (int control = 0; control < 2; control++) {
        kiln_render_settings graded = quick();
        if (control == 0) graded.saturation = -1.0f;
        else graded.contrast = -1.0f;
        kiln_image before = {0}, after = {0};
        uint32_t passes[2];
        kiln_error err = {0};
        CHECK_MSG(render_pair(WGPUTextureFormat_RGBA8Unorm, graded, NULL, &before, &after, passes, &err), "%s",
                  err.message);
        const uint8_t *plane = pixel_at(&before, (int)((1.1f / 1.5f * 0.5f + 0.5f) * W), H / 2);
        CHECK_MSG(plane[0] > plane[1] + 40, "the plane is not red before grading (%d %d %d)", plane[0], plane[1], plane[2]);
        int off = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                const uint8_t *p = pixel_at(&after, x, y);
                if (control == 0) off += abs(p[0] - p[1]) > 1 || abs(p[1] - p[2]) > 1;
                else off += abs(p[0] - 128) > 1 || abs(p[1] - 128) > 1 || abs(p[2] - 128) > 1;
            }
        CHECK_MSG(off == 0, "control %d: %d pixels off", control, off);
        kiln_image_free(&before);
        kiln_image_free(&after);
    }
}

TEST(a_warmer_white_balance_reddens_a_grey_surface) {
    kiln_render_settings graded = quick();
    graded.white_balance_temperature = 0.8f;
    kiln_image before = {0}, after = {0};
    uint32_t passes[2];
    kiln_error err = {0};
    CHECK_MSG(render_pair(WGPUTextureFormat_RGBA8Unorm, graded, NULL, &before, &after, passes, &err), "%s", err.message);
    CHECK_EQ_INT(passes[1], passes[0] + 1); /* the balance, before the tone map */
    const uint8_t *grey = pixel_at(&before, W / 2 - 8, H / 2), *warm = pixel_at(&after, W / 2 - 8, H / 2);
    /* The sky's blue light tints the grey cube; the balance moves it towards red by far more. */
    int cool = grey[0] - grey[2], warmer = warm[0] - warm[2];
    CHECK_MSG(warmer > cool + 20, "red - blue %d before, %d after (%d %d %d)", cool, warmer, warm[0], warm[1], warm[2]);
    kiln_image_free(&before);
    kiln_image_free(&after);
}

TEST(coverage_survives_a_grade_before_fxaa_over_a_transparent_background) {
    kiln_render_settings graded = quick();
    graded.background = KILN_BACKGROUND_TRANSPARENT;
    graded.fxaa = true;
    graded.saturation = -1.0f;
    grading_scene s;
    kiln_error err = {0};
    CHECK_MSG(scene_open(&s, &graded, WGPUTextureFormat_RGBA8Unorm, &err), "%s", err.message);
    kiln_image img = {0};
    CHECK_MSG(renderer_fixture_render(&s.h, &s.scene, &img, &err), "%s", err.message);
    const uint8_t *corner = pixel_at(&img, 1, 1), *centre = pixel_at(&img, W / 2 - 8, H / 2);
    CHECK_EQ_INT(corner[3], 0);
    CHECK_EQ_INT(centre[3], 255);
    /* Straight colour at full coverage: the grey cube is not darkened by a coverage left in it. */
    CHECK_MSG(centre[0] > 40 && abs(centre[0] - centre[2]) <= 1, "centre %d %d %d", centre[0], centre[1], centre[2]);
    kiln_image_free(&img);
    CHECK_EQ_INT(renderer_fixture_close(&s.h), 0);
}

TEST(a_table_id_that_names_no_colour_table_is_refused) {
    grading_scene s;
    kiln_render_settings settings = quick();
    kiln_error err = {0};
    CHECK_MSG(scene_open(&s, &settings, WGPUTextureFormat_RGBA8Unorm, &err), "%s", err.message);
    static const uint8_t texel[4] = {1, 2, 3, 4};
    kiln_texture_create_desc desc = {.format = KILN_FORMAT_RGBA8, .width = 1, .height = 1, .pixels = texel,
                                     .pixels_size = sizeof texel};
    uint32_t plain = kiln_texture_registry_add(kiln_renderer_texture_registry(s.h.r), &desc, &err);
    CHECK_MSG(plain, "%s", err.message);
    uint32_t ids[2] = {plain, 999};
    for (int i = 0; i < 2; i++) {
        kiln_renderer_settings(s.h.r)->color_lut = ids[i];
        CHECK(!renderer_fixture_render(&s.h, &s.scene, NULL, &err));
        char want[256];
        snprintf(want, sizeof want,
                 "renderer: settings.color_lut %u is not a colour table of the renderer's texture registry (an N x N x N "
                 "RGBA16Float volume, kiln_import_color_lut)", ids[i]);
        CHECK_MSG(!strcmp(err.message, want), "got '%s'", err.message);
    }
    CHECK_EQ_INT(renderer_fixture_close(&s.h), 0);
}

TEST(settings_out_of_range_are_refused_naming_the_setting) {
    static const struct {
        const char *id;
        kiln_render_settings settings;
        const char *message;
    } rows[] = {
        {"grade-1", {.contrast = 2.0f}, "renderer: settings.contrast 2 is not in [-1, 1]"},
        {"grade-2", {.white_balance_tint = -1.5f}, "renderer: settings.white_balance_tint -1.5 is not in [-1, 1]"},
        {"grade-3", {.gain = {1, -1, 1}}, "renderer: settings.gain (1, -1, 1) is not in (0, 4] in every channel"},
        {"grade-4", {.lift = {0, 0, 2}}, "renderer: settings.lift (0, 0, 2) is not in [-1, 1] in every channel"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        kiln_render_settings out;
        kiln_error err = {0};
        CHECK_MSG(!kiln_render_settings_resolve(&rows[i].settings, &out, &err), "%s: accepted", rows[i].id);
        CHECK_MSG(!strcmp(err.message, rows[i].message), "%s: got '%s'", rows[i].id, err.message);
    }
    kiln_render_settings neutral = {0}, out;
    kiln_error err = {0};
    CHECK_MSG(kiln_render_settings_resolve(&neutral, &out, &err), "%s", err.message);
    CHECK(out.gamma.x == 1.0f && out.gamma.z == 1.0f && out.gain.y == 1.0f && out.lift.x == 0.0f);
}

TEST(a_table_of_another_domain_is_refused_naming_it) {
    grading_scene s;
    kiln_render_settings settings = quick();
    kiln_error err = {0};
    CHECK_MSG(scene_open(&s, &settings, WGPUTextureFormat_RGBA8Unorm, &err), "%s", err.message);
    kiln_color_lut table = make_table(2, NULL);
    table.domain_max = (kiln_vec3){1, 1, 2};
    CHECK_EQ_INT(kiln_import_color_lut(s.h.r, &table, "log.cube", &err), 0);
    CHECK_MSG(!strcmp(err.message, "log.cube: the table's domain (0 0 0) .. (1 1 2) is not 0..1: kiln applies a table to "
                                   "display values in 0..1"), "got '%s'", err.message);
    kiln_color_lut_free(&table);
    CHECK_EQ_INT(renderer_fixture_close(&s.h), 0);
}

TEST_MAIN(T(a_table_of_the_identity_leaves_every_pixel_as_it_was), T(neutral_controls_declare_no_pass),
          T(a_constant_table_replaces_every_colour),
          T(saturation_minus_one_makes_every_pixel_grey_and_contrast_minus_one_mid_grey),
          T(a_warmer_white_balance_reddens_a_grey_surface),
          T(coverage_survives_a_grade_before_fxaa_over_a_transparent_background),
          T(a_table_id_that_names_no_colour_table_is_refused), T(settings_out_of_range_are_refused_naming_the_setting),
          T(a_table_of_another_domain_is_refused_naming_it))
