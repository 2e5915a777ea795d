/* settings.background on the GPU (lavapipe), pixels read back: a transparent background leaves
 * alpha 0 where nothing is drawn, 255 over opaque surfaces and the coverage at MSAA edges, whose
 * colour stays the surface's (straight alpha, no dark fringe), FXAA keeping it; a blended
 * surface over nothing keeps its own alpha; a colour background is exactly the display colour on
 * unorm and sRGB targets and leaves the lit surfaces as the sky left them; bad settings are
 * refused naming the field. Every frame validation clean. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kiln/render.h>

#include "renderer_fixture.h"

#define W 96
#define H 64

typedef struct background_scene {
    renderer_fixture h;
    kiln_render_instance instances[2];
    kiln_light sun;
    kiln_render_scene scene;
} background_scene;

static const uint8_t *pixel_at(const kiln_image *img, int x, int y) {
    return (const uint8_t *)img->pixels + ((size_t)y * W + x) * 4;
}

/* A grey cube facing the camera in the middle of the frame and, with `pane`, a half-transparent
 * red plane to its right, over nothing. */
static bool scene_open(background_scene *s, const kiln_render_settings *settings, WGPUTextureFormat format, bool pane,
                       kiln_error *err) {
    *s = (background_scene){0};
    if (!renderer_fixture_open(&s->h, settings, format, W, H, err)) return false;
    uint32_t cube = renderer_fixture_add_cube(&s->h, "cube", 0.5f, err);
    uint32_t plane = renderer_fixture_add_plane(&s->h, "pane", 0.4f, err);
    kiln_material grey = kiln_material_default("grey");
    grey.base_color = (kiln_vec4){0.6f, 0.6f, 0.6f, 1};
    kiln_material glass = kiln_material_default("glass");
    glass.base_color = (kiln_vec4){1, 0, 0, 0.5f};
    glass.alpha_mode = KILN_ALPHA_BLEND;
    glass.double_sided = true;
    uint32_t m_grey = kiln_renderer_add_material(s->h.r, &grey, err);
    uint32_t m_glass = kiln_renderer_add_material(s->h.r, &glass, err);
    if (cube == KILN_INVALID_INDEX || plane == KILN_INVALID_INDEX || m_grey == KILN_INVALID_INDEX ||
        m_glass == KILN_INVALID_INDEX)
        return false;
    /* The plane stands up facing the camera (+Z), right of the cube. */
    kiln_mat4 upright = kiln_mat4_mul(kiln_mat4_translation((kiln_vec3){1.3f, 0, 0}),
                                      kiln_mat4_from_quat(kiln_quat_from_axis_angle((kiln_vec3){1, 0, 0}, KILN_PI / 2)));
    /* Turned a little about the view axis, so its edges cross pixels rather than run along them. */
    s->instances[0] = (kiln_render_instance){.mesh = cube, .material = m_grey,
                                             .transform = kiln_mat4_from_quat(kiln_quat_from_axis_angle((kiln_vec3){0, 0, 1}, 0.3f))};
    s->instances[1] = (kiln_render_instance){.mesh = plane, .material = m_glass, .transform = upright};
    s->sun = kiln_light_sun((kiln_vec3){0, 0, -1}, (kiln_vec3){1, 1, 1}, 3.0f);
    s->scene = (kiln_render_scene){
        .camera = kiln_camera_orthographic_look_at((kiln_vec3){0, 0, 5}, (kiln_vec3){0, 0, 0}, (kiln_vec3){0, 1, 0}, 1.0f,
                                                   1.5f, 0.1f, 20.0f),
        .instances = s->instances, .instance_count = pane ? 2 : 1, .lights = &s->sun, .light_count = 1};
    return true;
}

static kiln_render_settings base_settings(kiln_background_mode mode) {
    return (kiln_render_settings){.background = mode, .msaa = 4, .disable_bloom = true, .disable_ao = true,
                                  .disable_shadows = true};
}

TEST(a_transparent_background_has_alpha_0_outside_and_straight_colour_at_the_edges) {
    for (int fxaa = 0; fxaa < 2; fxaa++) {
        background_scene s;
        kiln_error err = {0};
        kiln_render_settings settings = base_settings(KILN_BACKGROUND_TRANSPARENT);
        settings.fxaa = fxaa;
        CHECK_MSG(scene_open(&s, &settings, WGPUTextureFormat_RGBA8Unorm, true, &err), "%s", err.message);
        kiln_image img = {0};
        CHECK_MSG(renderer_fixture_render(&s.h, &s.scene, &img, &err), "%s", err.message);
        const uint8_t *corner = pixel_at(&img, 1, 1), *centre = pixel_at(&img, W / 2, H / 2);
        /* The pane's middle: x = 1.3 of the 1.5-wide half frame. */
        const uint8_t *pane = pixel_at(&img, (int)((1.3f / 1.5f * 0.5f + 0.5f) * W), H / 2);
        int partial = 0, fringe = 0;
        /* The cube's edges, every pixel left of the pane. */
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W / 2 + 18; x++) {
                const uint8_t *p = pixel_at(&img, x, y);
                if (p[3] == 0 || p[3] == 255) continue;
                partial++;
                /* Premultiplied edges would be darker by their alpha; below 32 (an eighth covered)
                 * FXAA's 8-bit premultiplied input leaves too few levels to say. */
                fringe += p[3] >= 32 && abs(p[0] - centre[0]) > 12;
            }
        printf("fxaa %d: corner alpha %u, centre (%u %u %u %u), pane (%u %u %u %u), %d partial edge pixels, %d darker\n",
               fxaa, corner[3], centre[0], centre[1], centre[2], centre[3], pane[0], pane[1], pane[2], pane[3], partial,
               fringe);
        CHECK_EQ_INT(corner[3], 0);
        CHECK_EQ_INT(corner[0] + corner[1] + corner[2], 0);
        CHECK_EQ_INT(centre[3], 255);
        CHECK(centre[0] > 60);
        CHECK(partial >= 8);
        CHECK_EQ_INT(fringe, 0);
        CHECK(abs(pane[3] - 128) <= 3);      /* the blended pane keeps its alpha of 0.5 */
        CHECK(pane[0] > 150 && pane[0] > 3 * pane[1]); /* and its colour, not the colour times 0.5 */
        kiln_image_free(&img);
        CHECK_EQ_INT(renderer_fixture_close(&s.h), 0);
    }
}

/* The backdrop is the display colour as asked, on a unorm target (encoded by the tone map) and on
 * an sRGB one (encoded by the hardware); the lit cube is what it is in front of the sky. */
TEST(a_colour_background_is_exactly_the_colour_and_leaves_the_surfaces_alone) {
    const WGPUTextureFormat formats[2] = {WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_RGBA8UnormSrgb};
    for (int f = 0; f < 2; f++) {
        uint8_t centres[2][4];
        for (int mode = 0; mode < 2; mode++) {
            background_scene s;
            kiln_error err = {0};
            kiln_render_settings settings = base_settings(mode ? KILN_BACKGROUND_COLOR : KILN_BACKGROUND_SKY);
            settings.background_color = (kiln_vec3){0.2f, 0.4f, 0.8f};
            CHECK_MSG(scene_open(&s, &settings, formats[f], false, &err), "%s", err.message);
            kiln_image img = {0};
            CHECK_MSG(renderer_fixture_render(&s.h, &s.scene, &img, &err), "%s", err.message);
            memcpy(centres[mode], pixel_at(&img, W / 2, H / 2), 4);
            if (mode == 1) {
                const uint8_t *corner = pixel_at(&img, 1, 1);
                printf("format %d: corner (%u %u %u %u)\n", f, corner[0], corner[1], corner[2], corner[3]);
                CHECK(abs(corner[0] - 51) <= 1 && abs(corner[1] - 102) <= 1 && abs(corner[2] - 204) <= 1);
                CHECK_EQ_INT(corner[3], 255);
            }
            kiln_image_free(&img);
            CHECK_EQ_INT(renderer_fixture_close(&s.h), 0);
        }
        for (int c = 0; c < 4; c++) CHECK_MSG(abs(centres[0][c] - centres[1][c]) <= 1, "format %d channel %d", f, c);
    }
}

TEST(bad_background_settings_are_refused_naming_the_field) {
    kiln_render_settings out;
    kiln_error err = {0};
    kiln_render_settings bad_mode = {.background = (kiln_background_mode)7};
    CHECK(!kiln_render_settings_resolve(&bad_mode, &out, &err));
    CHECK_STR_CONTAINS(err.message, "renderer: settings.background 7 is not a background mode");
    kiln_render_settings bad_colour = {.background = KILN_BACKGROUND_COLOR, .background_color = {0.5f, 1.5f, 0}};
    CHECK(!kiln_render_settings_resolve(&bad_colour, &out, &err));
    CHECK_STR_CONTAINS(err.message, "renderer: settings.background_color (0.5, 1.5, 0) is not a display colour in 0..1");
    kiln_render_settings nan_colour = {.background_color = {NAN, 0, 0}};
    CHECK(!kiln_render_settings_resolve(&nan_colour, &out, &err));
}

TEST_MAIN(T(a_transparent_background_has_alpha_0_outside_and_straight_colour_at_the_edges),
          T(a_colour_background_is_exactly_the_colour_and_leaves_the_surfaces_alone),
          T(bad_background_settings_are_refused_naming_the_field))
