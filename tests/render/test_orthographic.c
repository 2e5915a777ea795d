/* Orthographic cameras through the whole frame, on the GPU (lavapipe), pixels read back: objects
 * keep their size at every distance, clustered point lights light the fragments under them in
 * every corner of the view (cluster boxes built from parallel lines), the sky is one colour
 * (every pixel looks the same way), a sun's cascades shadow the ground where the light's geometry
 * says, and a camera render cannot use is refused naming its field before anything records.
 * Every frame validation clean. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <kiln/render.h>

#include "renderer_fixture.h"

#define W 256
#define H 128

static const uint8_t *pixel_at(const kiln_image *img, int x, int y) {
    x = x < 0 ? 0 : x >= W ? W - 1 : x;
    y = y < 0 ? 0 : y >= H ? H - 1 : y;
    return (const uint8_t *)img->pixels + ((size_t)y * W + x) * 4;
}

/* The pixel a world point projects to through the scene's camera. */
static const uint8_t *pixel_of(const kiln_camera *camera, const kiln_image *img, kiln_vec3 p) {
    kiln_camera c = *camera;
    kiln_camera_set_viewport(&c, W, H);
    kiln_vec4 clip = kiln_mat4_mul_vec4(kiln_camera_view_projection(&c), (kiln_vec4){p.x, p.y, p.z, 1});
    return pixel_at(img, (int)((clip.x / clip.w * 0.5f + 0.5f) * W), (int)((0.5f - clip.y / clip.w * 0.5f) * H));
}

static int luma(const uint8_t *p) { return (p[0] * 3 + p[1] * 6 + p[2]) / 10; }

static uint32_t add_material(renderer_fixture *h, const char *name, kiln_vec3 color, kiln_error *err) {
    kiln_material m = kiln_material_default(name);
    m.base_color = (kiln_vec4){color.x, color.y, color.z, 1};
    return kiln_renderer_add_material(h->r, &m, err);
}

/* A red cube 1 m across at z = 0 and a green one 20 m further away, side by side: through the
 * orthographic camera both cover the same pixels (32 x 32: 1 m of the 4 m height); through a
 * perspective camera at the same place the far one is a fraction of the near one. */
TEST(a_cube_keeps_its_size_at_every_distance) {
    renderer_fixture h;
    kiln_error err = {0};
    kiln_render_settings settings = renderer_fixture_quick_settings();
    CHECK_MSG(renderer_fixture_open(&h, &settings, WGPUTextureFormat_RGBA8Unorm, W, H, &err), "%s", err.message);
    uint32_t cube = renderer_fixture_add_cube(&h, "cube", 0.5f, &err);
    uint32_t red = add_material(&h, "red", (kiln_vec3){1, 0, 0}, &err);
    uint32_t green = add_material(&h, "green", (kiln_vec3){0, 1, 0}, &err);
    CHECK_MSG(cube != KILN_INVALID_INDEX && red != KILN_INVALID_INDEX && green != KILN_INVALID_INDEX, "%s", err.message);
    kiln_render_instance instances[2] = {
        {.mesh = cube, .material = red, .transform = kiln_mat4_translation((kiln_vec3){-2, 0, 0})},
        {.mesh = cube, .material = green, .transform = kiln_mat4_translation((kiln_vec3){2, 0, -20})},
    };
    kiln_light sun = kiln_light_sun((kiln_vec3){0.3f, -1, -0.5f}, (kiln_vec3){1, 1, 1}, 5.0f);
    kiln_render_scene scene = {
        .camera = kiln_camera_orthographic_look_at((kiln_vec3){0, 0, 10}, (kiln_vec3){0, 0, 0}, (kiln_vec3){0, 1, 0},
                                                   2.0f, 2.0f, 0.1f, 50.0f),
        .instances = instances, .instance_count = 2, .lights = &sun, .light_count = 1,
        .environment = {.zenith = {0.02f, 0.02f, 0.02f}, .ground = {0.02f, 0.02f, 0.02f}}};
    int counts[2][2] = {{0}}; /* [camera][red, green] */
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1)
            scene.camera = kiln_camera_look_at((kiln_vec3){0, 0, 10}, (kiln_vec3){0, 0, 0}, (kiln_vec3){0, 1, 0}, 0.4f, 2.0f, 0.1f);
        kiln_image img = {0};
        CHECK_MSG(renderer_fixture_render(&h, &scene, &img, &err), "%s", err.message);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                const uint8_t *p = pixel_at(&img, x, y);
                counts[pass][0] += p[0] > p[1] + 40 && p[0] > p[2] + 40;
                counts[pass][1] += p[1] > p[0] + 40 && p[1] > p[2] + 40;
            }
        if (pass == 0) {
            /* Where the camera's box says: the red cube's centre at x = 64, the green one's at 192. */
            const uint8_t *r = pixel_at(&img, 64, 64), *g = pixel_at(&img, 192, 64);
            CHECK_MSG(r[0] > r[1] + 40 && g[1] > g[0] + 40, "centres (%u %u %u) and (%u %u %u)", r[0], r[1], r[2], g[0], g[1],
                      g[2]);
        }
        kiln_image_free(&img);
    }
    CHECK_EQ_INT(renderer_fixture_close(&h), 0);
    printf("orthographic: red %d, green %d pixels; perspective: red %d, green %d\n", counts[0][0], counts[0][1],
           counts[1][0], counts[1][1]);
    CHECK(abs(counts[0][0] - 1024) <= 70 && abs(counts[0][1] - 1024) <= 70);
    CHECK(abs(counts[0][0] - counts[0][1]) <= 40);
    CHECK(counts[1][1] * 4 < counts[1][0]); /* the control: perspective shrinks the far cube */
}

/* Looking straight down at a dark plane 16 x 8 m in view, four short-range point lights near its
 * corners: the pixel under each is lit, the centre is not. Cluster boxes built as perspective
 * frusta would put every light in the central columns and leave the corners dark. */
TEST(point_lights_light_the_corners_of_the_view) {
    renderer_fixture h;
    kiln_error err = {0};
    kiln_render_settings settings = renderer_fixture_quick_settings();
    CHECK_MSG(renderer_fixture_open(&h, &settings, WGPUTextureFormat_RGBA8Unorm, W, H, &err), "%s", err.message);
    uint32_t plane = renderer_fixture_add_plane(&h, "plane", 10.0f, &err);
    uint32_t white = add_material(&h, "white", (kiln_vec3){1, 1, 1}, &err);
    CHECK_MSG(plane != KILN_INVALID_INDEX && white != KILN_INVALID_INDEX, "%s", err.message);
    kiln_render_instance floor = {.mesh = plane, .material = white, .transform = kiln_mat4_identity()};
    kiln_light lights[4];
    const kiln_vec3 at[4] = {{-6, 0.5f, -3}, {6, 0.5f, -3}, {-6, 0.5f, 3}, {6, 0.5f, 3}};
    for (int i = 0; i < 4; i++) lights[i] = kiln_light_point(at[i], (kiln_vec3){1, 1, 1}, 40.0f, 1.5f);
    kiln_render_scene scene = {
        .camera = kiln_camera_orthographic_look_at((kiln_vec3){0, 10, 0}, (kiln_vec3){0, 0, 0}, (kiln_vec3){0, 0, -1},
                                                   4.0f, 2.0f, 0.0f, 30.0f),
        .instances = &floor, .instance_count = 1, .lights = lights, .light_count = 4,
        .environment = {.zenith = {1e-4f, 1e-4f, 1e-4f}, .ground = {1e-4f, 1e-4f, 1e-4f}}};
    kiln_image img = {0};
    CHECK_MSG(renderer_fixture_render(&h, &scene, &img, &err), "%s", err.message);
    int under[4], centre = luma(pixel_of(&scene.camera, &img, (kiln_vec3){0, 0, 0}));
    for (int i = 0; i < 4; i++) under[i] = luma(pixel_of(&scene.camera, &img, (kiln_vec3){at[i].x, 0, at[i].z}));
    kiln_image_free(&img);
    CHECK_EQ_INT(renderer_fixture_close(&h), 0);
    printf("under the lights %d %d %d %d, centre %d\n", under[0], under[1], under[2], under[3], centre);
    for (int i = 0; i < 4; i++) CHECK_MSG(under[i] > 60, "light %d: luma %d", i, under[i]);
    CHECK(centre * 4 < under[0] && centre * 4 < under[1] && centre * 4 < under[2] && centre * 4 < under[3]);
}

/* Every pixel of an orthographic view looks the same way, so the procedural sky is one colour;
 * the same view through a perspective camera grades from horizon to zenith. */
TEST(the_sky_is_one_colour) {
    renderer_fixture h;
    kiln_error err = {0};
    kiln_render_settings settings = renderer_fixture_quick_settings();
    CHECK_MSG(renderer_fixture_open(&h, &settings, WGPUTextureFormat_RGBA8Unorm, W, H, &err), "%s", err.message);
    kiln_render_scene scene = {
        .camera = kiln_camera_orthographic_look_at((kiln_vec3){0, 1, 0}, (kiln_vec3){0, 1.3f, -1}, (kiln_vec3){0, 1, 0},
                                                   3.0f, 2.0f, 0.0f, 10.0f),
        .environment = {.zenith = {0.1f, 0.3f, 0.9f}, .ground = {0.4f, 0.3f, 0.2f}}};
    int spread[2];
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) scene.camera = kiln_camera_look_at(scene.camera.position, (kiln_vec3){0, 1.3f, -1}, (kiln_vec3){0, 1, 0}, 1.2f, 2.0f, 0.1f);
        kiln_image img = {0};
        CHECK_MSG(renderer_fixture_render(&h, &scene, &img, &err), "%s", err.message);
        const uint8_t *a = pixel_at(&img, 0, 0), *b = pixel_at(&img, W - 1, H - 1);
        spread[pass] = abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2]);
        kiln_image_free(&img);
    }
    CHECK_EQ_INT(renderer_fixture_close(&h), 0);
    printf("corner-to-corner difference: orthographic %d, perspective %d\n", spread[0], spread[1]);
    CHECK(spread[0] <= 2);
    CHECK(spread[1] > 10);
}

/* A floating cube over the ground, seen from straight above: the ground point on the sun's ray
 * through the cube's centre is in shadow, its mirror through the cube's foot is lit. */
TEST(a_cascade_shadows_the_ground_where_the_sun_says) {
    renderer_fixture h;
    kiln_error err = {0};
    kiln_render_settings settings = renderer_fixture_quick_settings();
    settings.disable_ao = true;
    CHECK_MSG(renderer_fixture_open(&h, &settings, WGPUTextureFormat_RGBA8Unorm, W, H, &err), "%s", err.message);
    uint32_t plane = renderer_fixture_add_plane(&h, "plane", 10.0f, &err);
    uint32_t cube = renderer_fixture_add_cube(&h, "cube", 0.5f, &err);
    uint32_t white = add_material(&h, "white", (kiln_vec3){1, 1, 1}, &err);
    CHECK_MSG(plane != KILN_INVALID_INDEX && cube != KILN_INVALID_INDEX && white != KILN_INVALID_INDEX, "%s", err.message);
    const kiln_vec3 centre = {0, 1.5f, 0};
    kiln_render_instance instances[2] = {
        {.mesh = plane, .material = white, .transform = kiln_mat4_identity()},
        {.mesh = cube, .material = white, .transform = kiln_mat4_translation(centre)},
    };
    kiln_vec3 d = kiln_vec3_normalize((kiln_vec3){-0.6f, -1, -0.3f});
    kiln_light sun = kiln_light_sun(d, (kiln_vec3){1, 1, 1}, 5.0f);
    kiln_render_scene scene = {
        .camera = kiln_camera_orthographic_look_at((kiln_vec3){0, 10, 0}, (kiln_vec3){0, 0, 0}, (kiln_vec3){0, 0, -1},
                                                   2.0f, 2.0f, 0.0f, 30.0f),
        .instances = instances, .instance_count = 2, .lights = &sun, .light_count = 1,
        .environment = {.zenith = {0.05f, 0.05f, 0.05f}, .ground = {0.05f, 0.05f, 0.05f}}};
    kiln_vec3 shadow = kiln_vec3_add(centre, kiln_vec3_scale(d, centre.y / -d.y));
    kiln_vec3 mirror = {-shadow.x, 0, -shadow.z};
    int dark[2], lit[2]; /* [shadows on, shadows off] */
    for (int pass = 0; pass < 2; pass++) {
        kiln_renderer_settings(h.r)->disable_shadows = pass == 1;
        kiln_image img = {0};
        CHECK_MSG(renderer_fixture_render(&h, &scene, &img, &err), "%s", err.message);
        dark[pass] = luma(pixel_of(&scene.camera, &img, shadow)), lit[pass] = luma(pixel_of(&scene.camera, &img, mirror));
        kiln_image_free(&img);
    }
    CHECK_EQ_INT(renderer_fixture_close(&h), 0);
    printf("shadow at (%.2f, %.2f): %d, its mirror: %d; without shadows %d and %d\n", (double)shadow.x,
           (double)shadow.z, dark[0], lit[0], dark[1], lit[1]);
    CHECK(lit[0] > 120);
    CHECK(dark[0] * 2 < lit[0]);
    CHECK(abs(dark[1] - lit[1]) <= lit[1] / 10); /* the control: without shadows both are lit alike */
}

/* A camera render cannot use fails the frame naming its field, with nothing recorded, and the
 * next good frame renders. */
TEST(a_camera_render_cannot_use_is_refused_naming_its_field) {
    struct {
        kiln_camera camera;
        const char *message;
    } cases[] = {
        {kiln_camera_look_at((kiln_vec3){0, 0, 5}, (kiln_vec3){0, 0, 0}, (kiln_vec3){0, 1, 0}, 0.0f, 1, 0.1f),
         "camera.fov_y: 0 is not in (0, pi) radians"},
        {kiln_camera_look_at((kiln_vec3){0, 0, 5}, (kiln_vec3){0, 0, 0}, (kiln_vec3){0, 1, 0}, 1.0f, 1, 0.0f),
         "camera.near: 0 is not a positive distance (a perspective camera needs one)"},
        {kiln_camera_orthographic_look_at((kiln_vec3){0, 0, 5}, (kiln_vec3){0, 0, 0}, (kiln_vec3){0, 1, 0}, 0.0f, 1, 0, 10),
         "camera.half_height: 0 is not a positive height"},
        {kiln_camera_orthographic_look_at((kiln_vec3){0, 0, 5}, (kiln_vec3){0, 0, 0}, (kiln_vec3){0, 1, 0}, 1.0f, 1, 2, 2),
         "camera.far: 2 is not beyond near (2); an orthographic camera needs a far plane"},
        {kiln_camera_orthographic_look_at((kiln_vec3){0, 0, 5}, (kiln_vec3){0, 0, 0}, (kiln_vec3){0, 1, 0}, 1.0f, 1, -1, 2),
         "camera.near: -1 is negative or not finite"},
    };
    renderer_fixture h;
    kiln_error err = {0};
    kiln_render_settings settings = renderer_fixture_quick_settings();
    CHECK_MSG(renderer_fixture_open(&h, &settings, WGPUTextureFormat_RGBA8Unorm, W, H, &err), "%s", err.message);
    uint64_t frames = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        kiln_render_scene scene = {.camera = cases[i].camera};
        kiln_error e = {0};
        CHECK(!renderer_fixture_render(&h, &scene, NULL, &e));
        CHECK_EQ_INT(e.code, KILN_ERR_INVALID_ARGUMENT);
        CHECK_MSG(strcmp(e.message, cases[i].message) == 0, "%s", e.message);
        frames += kiln_renderer_stats(h.r)->draw_calls;
    }
    kiln_render_scene good = {.camera = kiln_camera_orthographic_look_at((kiln_vec3){0, 0, 5}, (kiln_vec3){0, 0, 0},
                                                                        (kiln_vec3){0, 1, 0}, 1.0f, 1, 0, 10)};
    CHECK_MSG(renderer_fixture_render(&h, &good, NULL, &err), "%s", err.message);
    CHECK_EQ_INT(renderer_fixture_close(&h), 0);
    CHECK_EQ_INT(frames, 0);
}

TEST_MAIN(T(a_cube_keeps_its_size_at_every_distance), T(point_lights_light_the_corners_of_the_view), T(the_sky_is_one_colour),
          T(a_cascade_shadows_the_ground_where_the_sun_says), T(a_camera_render_cannot_use_is_refused_naming_its_field))
