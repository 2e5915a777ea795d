/* Image-based lighting: the bake's outputs read back from the GPU. The BRDF table matches a CPU
 * evaluation of the same estimator; a constant environment bakes to that constant in every
 * texel of the irradiance and of every prefiltered mip; an equirectangular map is oriented as
 * documented (centre +X, three quarters across +Z, top +Y; a rotation turns it about +Y) in the
 * baked cubes and in the sky behind the scene; the bake runs once per change, not per frame;
 * and a bad environment fails naming the field, baking nothing. */
#include <math.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#define QUARTER_TURN (M_PI / 2.0)

#include <kiln/core/half.h>
#include <kiln/render.h>

#include "render/renderer_internal.h"
#include "render/ibl.h"
#include "renderer_fixture.h"

#define MAP_W 64
#define MAP_H 32

/* A map of MAP_W x MAP_H texels, each colour(u, v) at its centre, into the renderer's registry. */
static uint32_t add_map(kiln_renderer *r, void (*colour)(float u, float v, float out[3]), kiln_error *err) {
    static uint16_t texels[MAP_W * MAP_H * 4];
    for (uint32_t y = 0; y < MAP_H; y++)
        for (uint32_t x = 0; x < MAP_W; x++) {
            float c[3];
            colour(((float)x + 0.5f) / MAP_W, ((float)y + 0.5f) / MAP_H, c);
            uint16_t *t = &texels[4 * (y * MAP_W + x)];
            for (int i = 0; i < 3; i++) t[i] = kiln_float_to_half(c[i]);
            t[3] = kiln_float_to_half(1.0f);
        }
    kiln_texture_create_desc d = {.format = KILN_FORMAT_RGBA16_FLOAT, .width = MAP_W, .height = MAP_H, .pixels = texels,
                                  .pixels_size = sizeof texels};
    return kiln_texture_registry_add(kiln_renderer_texture_registry(r), &d, err);
}

static void constant_colour(float u, float v, float out[3]) {
    (void)u, (void)v;
    out[0] = 0.5f, out[1] = 0.25f, out[2] = 0.125f;
}
/* Red over the top half (+Y), blue below. */
static void red_above(float u, float v, float out[3]) {
    (void)u;
    out[0] = v < 0.5f ? 1.0f : 0.0f, out[1] = 0.0f, out[2] = v < 0.5f ? 0.0f : 1.0f;
}
/* Red over the middle half of the longitudes (the hemisphere facing +X), green elsewhere. */
static void red_in_the_middle(float u, float v, float out[3]) {
    (void)v;
    bool middle = u > 0.25f && u < 0.75f;
    out[0] = middle ? 1.0f : 0.0f, out[1] = middle ? 0.0f : 1.0f, out[2] = 0.0f;
}
/* Red over the right half of the longitudes (the hemisphere facing +Z), green elsewhere. */
static void red_on_the_right(float u, float v, float out[3]) {
    (void)v;
    out[0] = u > 0.5f ? 1.0f : 0.0f, out[1] = u > 0.5f ? 0.0f : 1.0f, out[2] = 0.0f;
}

/* An empty scene looking along `forward`, lit by `environment`. */
static kiln_render_scene empty_scene(kiln_environment environment, kiln_vec3 forward) {
    kiln_vec3 up = fabsf(forward.y) > 0.9f ? (kiln_vec3){0, 0, -1} : (kiln_vec3){0, 1, 0};
    return (kiln_render_scene){.camera = kiln_camera_look_at((kiln_vec3){0, 0, 0}, forward, up, 0.5f, 1.0f, 0.1f),
                               .environment = environment};
}

/* Texel (x, y) of layer `face` at mip `mip` of an IBL texture, as floats. */
static bool read_texel(renderer_fixture *h, kiln_texture t, uint32_t mip, uint32_t face, uint32_t x, uint32_t y,
                       float out[4], kiln_error *err) {
    kiln_image img = {0};
    if (!kiln_resources_read_texture_level(h->f.res, kiln_resources_texture_raw(h->f.res, t, NULL), mip, face, &img, err))
        return false;
    kiln_image_read_pixel(&img, x, y, out);
    kiln_image_free(&img);
    return true;
}

/* ---- the BRDF table against the CPU ---------------------------------------------------------- */

/* The estimator of shaders/ibl.wgsl's cs_brdf_lut, in double precision with the same samples. */
static void brdf_lut_cpu(double n_dot_v, double roughness, double out[2]) {
    double alpha = fmax(roughness * roughness, 0.002), a2 = alpha * alpha;
    double v[3] = {sqrt(1.0 - n_dot_v * n_dot_v), 0.0, n_dot_v};
    double scale = 0.0, bias = 0.0;
    for (uint32_t i = 0; i < KILN_IBL_BRDF_LUT_SAMPLES; i++) {
        uint32_t bits = i;
        bits = (bits << 16) | (bits >> 16);
        bits = ((bits & 0x55555555u) << 1) | ((bits & 0xAAAAAAAAu) >> 1);
        bits = ((bits & 0x33333333u) << 2) | ((bits & 0xCCCCCCCCu) >> 2);
        bits = ((bits & 0x0F0F0F0Fu) << 4) | ((bits & 0xF0F0F0F0u) >> 4);
        bits = ((bits & 0x00FF00FFu) << 8) | ((bits & 0xFF00FF00u) >> 8);
        double xi0 = (double)i / KILN_IBL_BRDF_LUT_SAMPLES, xi1 = (double)bits * 2.3283064365386963e-10;
        double phi = 2.0 * M_PI * xi0;
        double cos_t = sqrt((1.0 - xi1) / (1.0 + (a2 - 1.0) * xi1)), sin_t = sqrt(fmax(1.0 - cos_t * cos_t, 0.0));
        double h[3] = {sin_t * cos(phi), sin_t * sin(phi), cos_t};
        double v_dot_h = v[0] * h[0] + v[1] * h[1] + v[2] * h[2];
        double l_z = 2.0 * v_dot_h * h[2] - v[2];
        if (l_z > 0.0 && v_dot_h > 0.0) {
            double gv = l_z * sqrt(n_dot_v * n_dot_v * (1.0 - a2) + a2);
            double gl = n_dot_v * sqrt(l_z * l_z * (1.0 - a2) + a2);
            double vis = 0.5 / fmax(gv + gl, 1e-7);
            double g = 4.0 * vis * l_z * v_dot_h / h[2];
            double fc = pow(1.0 - v_dot_h, 5.0);
            scale += (1.0 - fc) * g;
            bias += fc * g;
        }
    }
    out[0] = scale / KILN_IBL_BRDF_LUT_SAMPLES;
    out[1] = bias / KILN_IBL_BRDF_LUT_SAMPLES;
}

TEST(the_brdf_table_matches_the_cpu_estimator) {
    renderer_fixture h;
    kiln_error err = {0};
    CHECK_MSG(renderer_fixture_open(&h, NULL, WGPUTextureFormat_RGBA8Unorm, 8, 8, &err), "%s", err.message);
    kiln_render_scene scene = empty_scene((kiln_environment){0}, (kiln_vec3){0, 0, -1});
    CHECK_MSG(renderer_fixture_render(&h, &scene, NULL, &err), "%s", err.message);
    kiln_image table = {0};
    CHECK_MSG(kiln_resources_read_texture(h.f.res, kiln_resources_texture_raw(h.f.res, renderer_ibl_of(h.r)->brdf_lut, NULL), &table, &err),
              "%s", err.message);
    /* Grazing, middling and head-on views over smooth to rough surfaces. */
    static const uint32_t points[][2] = {{0, 0}, {3, 200}, {31, 31}, {64, 128}, {128, 12}, {128, 250},
                                         {200, 77}, {255, 0}, {255, 255}, {17, 240}};
    double worst = 0.0;
    for (size_t i = 0; i < sizeof points / sizeof points[0]; i++) {
        uint32_t x = points[i][0], y = points[i][1];
        float gpu[4];
        double cpu[2];
        kiln_image_read_pixel(&table, x, y, gpu);
        brdf_lut_cpu((x + 0.5) / KILN_IBL_BRDF_LUT_SIZE, (y + 0.5) / KILN_IBL_BRDF_LUT_SIZE, cpu);
        for (int c = 0; c < 2; c++) {
            /* Half floats keep 11 significant bits (1/2048 of the value); float arithmetic on the
             * GPU, whose compilers may contract and reorder, as much again. */
            double tolerance = fabs(cpu[c]) / 512.0 + 2e-4, off = fabs(gpu[c] - cpu[c]);
            if (off > worst) worst = off;
            CHECK_MSG(off <= tolerance, "texel (%u, %u) channel %d: GPU %.6f, CPU %.6f", x, y, c, (double)gpu[c], cpu[c]);
        }
    }
    printf("brdf table: largest difference from the CPU %.2e over %zu texels\n", worst, sizeof points / sizeof points[0]);
    /* The split sum of a smooth surface seen head-on is all scale, almost no bias. */
    float head_on[4];
    kiln_image_read_pixel(&table, 255, 0, head_on);
    kiln_image_free(&table);
    CHECK_EQ_INT(renderer_fixture_close(&h), 0);
    CHECK(head_on[0] > 0.9f && head_on[1] < 0.05f);
}

/* ---- a constant environment ------------------------------------------------------------------ */

TEST(a_constant_environment_bakes_to_that_constant_everywhere) {
    renderer_fixture h;
    kiln_error err = {0};
    CHECK_MSG(renderer_fixture_open(&h, NULL, WGPUTextureFormat_RGBA8Unorm, 8, 8, &err), "%s", err.message);
    uint32_t map = add_map(h.r, constant_colour, &err);
    CHECK_MSG(map, "%s", err.message);
    kiln_render_scene scene = empty_scene((kiln_environment){.equirect = map}, (kiln_vec3){0, 0, -1});
    CHECK_MSG(renderer_fixture_render(&h, &scene, NULL, &err), "%s", err.message);
    const float expected[3] = {0.5f, 0.25f, 0.125f};
    struct {
        kiln_texture texture;
        uint32_t mips, size;
        const char *name;
    } cubes[] = {{renderer_ibl_of(h.r)->irradiance, 1, KILN_IBL_IRRADIANCE_SIZE, "irradiance"},
                 {renderer_ibl_of(h.r)->prefiltered, KILN_IBL_PREFILTERED_MIPS, KILN_IBL_PREFILTERED_SIZE, "prefiltered"}};
    double worst = 0.0;
    uint32_t texels = 0;
    for (size_t c = 0; c < 2; c++)
        for (uint32_t mip = 0; mip < cubes[c].mips; mip++)
            for (uint32_t face = 0; face < 6; face++) {
                kiln_image img = {0};
                CHECK_MSG(kiln_resources_read_texture_level(h.f.res, kiln_resources_texture_raw(h.f.res, cubes[c].texture, NULL),
                                                            mip, face, &img, &err), "%s", err.message);
                CHECK_EQ_INT(img.width, cubes[c].size >> mip);
                for (uint32_t y = 0; y < img.height; y++)
                    for (uint32_t x = 0; x < img.width; x++) {
                        float px[4];
                        kiln_image_read_pixel(&img, x, y, px);
                        for (int k = 0; k < 3; k++) {
                            double off = fabs(px[k] - expected[k]) / expected[k];
                            if (off > worst) worst = off;
                            if (off > 2e-3) {
                                kiln_image_free(&img);
                                CHECK_MSG(false, "%s mip %u face %u texel (%u, %u) channel %d is %.6f, not %.6f",
                                          cubes[c].name, mip, face, x, y, k, (double)px[k], (double)expected[k]);
                            }
                        }
                        texels++;
                    }
                kiln_image_free(&img);
            }
    printf("constant environment: %u texels, largest relative difference %.2e\n", texels, worst);
    CHECK_EQ_INT(renderer_fixture_close(&h), 0);
}

/* ---- orientation --------------------------------------------------------------------------- */

enum { FACE_PX, FACE_NX, FACE_PY, FACE_NY, FACE_PZ, FACE_NZ };

/* The irradiance at the centre of `face` after baking `colour` turned by `rotation`. */
static bool irradiance_at(void (*colour)(float, float, float[3]), float rotation, uint32_t face, float out[4],
                          kiln_error *err) {
    renderer_fixture h;
    bool ok = renderer_fixture_open(&h, NULL, WGPUTextureFormat_RGBA8Unorm, 8, 8, err);
    uint32_t map = ok ? add_map(h.r, colour, err) : 0;
    kiln_render_scene scene = empty_scene((kiln_environment){.equirect = map, .rotation = rotation}, (kiln_vec3){0, 0, -1});
    ok = ok && map && renderer_fixture_render(&h, &scene, NULL, err) &&
         read_texel(&h, renderer_ibl_of(h.r)->irradiance, 0, face, KILN_IBL_IRRADIANCE_SIZE / 2, KILN_IBL_IRRADIANCE_SIZE / 2, out, err);
    return renderer_fixture_close(&h) == 0 && ok;
}

TEST(the_map_lights_from_where_the_documentation_says) {
    static const struct {
        void (*colour)(float, float, float[3]);
        float rotation;
        uint32_t red_face, other_face;
        const char *what;
    } cases[] = {
        {red_above, 0.0f, FACE_PY, FACE_NY, "the top row is +Y"},
        {red_in_the_middle, 0.0f, FACE_PX, FACE_NX, "the centre faces +X"},
        {red_on_the_right, 0.0f, FACE_PZ, FACE_NZ, "three quarters across faces +Z"},
        /* Turned a quarter counter-clockwise seen from above, +X goes to -Z. */
        {red_in_the_middle, (float)QUARTER_TURN, FACE_NZ, FACE_PZ, "a quarter turn moves the centre to -Z"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        kiln_error err = {0};
        float red[4], other[4];
        CHECK_MSG(irradiance_at(cases[i].colour, cases[i].rotation, cases[i].red_face, red, &err), "%s", err.message);
        CHECK_MSG(irradiance_at(cases[i].colour, cases[i].rotation, cases[i].other_face, other, &err), "%s", err.message);
        /* Facing the red hemisphere straight on, a normal sees red alone; facing away, none. */
        CHECK_MSG(red[0] > 0.95f && red[1] + red[2] < 0.05f, "%s: red face irradiance (%.3f, %.3f, %.3f)", cases[i].what,
                  (double)red[0], (double)red[1], (double)red[2]);
        CHECK_MSG(other[0] < 0.05f, "%s: opposite face irradiance (%.3f, %.3f, %.3f)", cases[i].what, (double)other[0],
                  (double)other[1], (double)other[2]);
    }
}

TEST(the_sky_shows_the_map_the_same_way_round) {
    static const struct {
        float rotation;
        kiln_vec3 look, away;
    } cases[] = {{0.0f, {1, 0, 0}, {-1, 0, 0}}, {(float)QUARTER_TURN, {0, 0, -1}, {0, 0, 1}}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        renderer_fixture h;
        kiln_error err = {0};
        kiln_render_settings settings = {.tonemapper = KILN_TONEMAP_NONE, .disable_bloom = true};
        CHECK_MSG(renderer_fixture_open(&h, &settings, WGPUTextureFormat_RGBA8Unorm, 16, 16, &err), "%s", err.message);
        uint32_t map = add_map(h.r, red_in_the_middle, &err);
        CHECK_MSG(map, "%s", err.message);
        kiln_environment env = {.equirect = map, .rotation = cases[i].rotation};
        kiln_image towards = {0}, away = {0};
        kiln_render_scene scene = empty_scene(env, cases[i].look);
        CHECK_MSG(renderer_fixture_render(&h, &scene, &towards, &err), "%s", err.message);
        scene = empty_scene(env, cases[i].away);
        CHECK_MSG(renderer_fixture_render(&h, &scene, &away, &err), "%s", err.message);
        float a[4], b[4];
        kiln_image_read_pixel(&towards, 8, 8, a);
        kiln_image_read_pixel(&away, 8, 8, b);
        kiln_image_free(&towards);
        kiln_image_free(&away);
        CHECK_EQ_INT(renderer_fixture_close(&h), 0);
        CHECK_MSG(a[0] > 0.9f && a[1] < 0.1f, "rotation %g: the view towards the centre is (%.3f, %.3f, %.3f)",
                  (double)cases[i].rotation, (double)a[0], (double)a[1], (double)a[2]);
        CHECK_MSG(b[1] > 0.9f && b[0] < 0.1f, "rotation %g: the view away is (%.3f, %.3f, %.3f)", (double)cases[i].rotation,
                  (double)b[0], (double)b[1], (double)b[2]);
    }
}

/* ---- when it bakes ------------------------------------------------------------------------- */

TEST(the_environment_bakes_once_per_change) {
    renderer_fixture h;
    kiln_error err = {0};
    CHECK_MSG(renderer_fixture_open(&h, NULL, WGPUTextureFormat_RGBA8Unorm, 8, 8, &err), "%s", err.message);
    uint32_t map = add_map(h.r, red_above, &err);
    CHECK_MSG(map, "%s", err.message);
    kiln_light sun = kiln_light_sun((kiln_vec3){0.3f, -1, 0.2f}, (kiln_vec3){1, 1, 1}, 3.0f);
    kiln_render_scene scene = empty_scene((kiln_environment){0}, (kiln_vec3){0, 0, -1});
    scene.lights = &sun;
    scene.light_count = 1;
    struct {
        const char *change;
        int bakes;
    } steps[] = {{"first frame", 1}, {"same again", 0}, {"same again", 0}, {"zenith", 1}, {"sun moves", 1},
                 {"same again", 0}, {"invalidated", 1}, {"to the map", 1}, {"sun moves under the map", 0},
                 {"map rotated", 1}, {"same again", 0}, {"back to the sky", 1}};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        const char *c = steps[i].change;
        if (!strcmp(c, "zenith")) scene.environment.zenith = (kiln_vec3){0.1f, 0.2f, 0.6f};
        if (!strcmp(c, "sun moves") || !strcmp(c, "sun moves under the map")) sun.direction.x += 0.1f;
        if (!strcmp(c, "invalidated")) kiln_renderer_invalidate_environment(h.r);
        if (!strcmp(c, "to the map")) scene.environment.equirect = map;
        if (!strcmp(c, "map rotated")) scene.environment.rotation = 1.0f;
        if (!strcmp(c, "back to the sky")) scene.environment.equirect = 0;
        CHECK_MSG(renderer_fixture_render(&h, &scene, NULL, &err), "%s", err.message);
        CHECK_MSG((int)kiln_renderer_stats(h.r)->environment_bakes == steps[i].bakes, "step %zu (%s): %u bakes, expected %d",
                  i, c, kiln_renderer_stats(h.r)->environment_bakes, steps[i].bakes);
    }
    CHECK_EQ_INT(renderer_fixture_close(&h), 0);
}

/* ---- bad environments ---------------------------------------------------------------------- */

TEST(a_bad_environment_fails_naming_the_field_and_bakes_nothing) {
    renderer_fixture h;
    kiln_error err = {0};
    CHECK_MSG(renderer_fixture_open(&h, NULL, WGPUTextureFormat_RGBA8Unorm, 8, 8, &err), "%s", err.message);
    kiln_texture_create_desc grey = {.format = KILN_FORMAT_R8, .width = 4, .height = 2};
    uint32_t r8 = kiln_texture_registry_add(kiln_renderer_texture_registry(h.r), &grey, &err);
    CHECK_MSG(r8, "%s", err.message);
    kiln_render_scene scene = empty_scene((kiln_environment){0}, (kiln_vec3){0, 0, -1});
    CHECK_MSG(renderer_fixture_render(&h, &scene, NULL, &err), "%s", err.message);
    char message[160];
    snprintf(message, sizeof message, "renderer: environment.equirect texture %u is R8; it must be a plain Rgba16Float texture", r8);
    struct {
        kiln_environment environment;
        const char *message;
    } cases[] = {
        {{.equirect = 999}, "renderer: environment.equirect names unknown texture id 999"},
        {{.equirect = r8}, message},
        {{.rotation = INFINITY}, "renderer: environment.rotation inf is not finite"},
        {{.rotation = NAN}, "renderer: environment.rotation nan is not finite"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        scene.environment = cases[i].environment;
        err = (kiln_error){0};
        CHECK(!renderer_fixture_render(&h, &scene, NULL, &err));
        CHECK_MSG(!strcmp(err.message, cases[i].message), "case %zu: '%s'", i, err.message);
    }
    /* The last good bake stands: the sky again is no change. */
    scene.environment = (kiln_environment){0};
    CHECK_MSG(renderer_fixture_render(&h, &scene, NULL, &err), "%s", err.message);
    CHECK_EQ_INT(kiln_renderer_stats(h.r)->environment_bakes, 0);
    CHECK_EQ_INT(renderer_fixture_close(&h), 0);
}

TEST_MAIN(T(the_brdf_table_matches_the_cpu_estimator), T(a_constant_environment_bakes_to_that_constant_everywhere),
          T(the_map_lights_from_where_the_documentation_says), T(the_sky_shows_the_map_the_same_way_round),
          T(the_environment_bakes_once_per_change), T(a_bad_environment_fails_naming_the_field_and_bakes_nothing))
