/* The tools' default lighting of a model (kiln/import.h): which scenes get the default sun, where
 * it goes and what it is, and the HDR map added to the texture registry (on lavapipe). */
#include <stdlib.h>
#include <string.h>

#include <kiln/import.h>

#include "gfx_fixture.h"
#include "test.h"

/* A scene of two point lights, as a model with its own lights imports. */
static kiln_light model_lights[2];
static kiln_render_scene lit_scene(void) {
    model_lights[0] = kiln_light_point((kiln_vec3){1, 2, 3}, (kiln_vec3){1, 0, 0}, 10.0f, 5.0f);
    model_lights[1] = kiln_light_point((kiln_vec3){-1, 2, 3}, (kiln_vec3){0, 1, 0}, 20.0f, 5.0f);
    return (kiln_render_scene){.lights = model_lights, .light_count = 2};
}

static bool is_default_sun(const kiln_light *l, float lux) {
    kiln_light want = kiln_light_sun(KILN_IMPORT_DEFAULT_SUN_DIRECTION, (kiln_vec3){1, 1, 1}, lux);
    return !memcmp(l, &want, sizeof want);
}

TEST(a_scene_without_lights_gets_the_default_sun) {
    kiln_render_scene scene = {0};
    kiln_light *storage = NULL;
    uint32_t capacity = 0;
    kiln_error err = {0};
    CHECK_MSG(kiln_import_add_sun(&scene, &(kiln_import_sun){0}, &storage, &capacity, &err), "%s", err.message);
    CHECK_EQ_INT(scene.light_count, 1);
    CHECK(scene.lights == storage && capacity == 1);
    CHECK(is_default_sun(&scene.lights[0], KILN_IMPORT_DEFAULT_SUN_LUX));
    free(storage);
}

TEST(a_scene_with_lights_or_asking_for_none_is_left_alone) {
    kiln_render_scene scene = lit_scene(), empty = {0};
    kiln_light *storage = NULL;
    uint32_t capacity = 0;
    kiln_error err = {0};
    CHECK(kiln_import_add_sun(&scene, &(kiln_import_sun){0}, &storage, &capacity, &err));
    CHECK(scene.lights == model_lights && scene.light_count == 2);
    CHECK(kiln_import_add_sun(&empty, &(kiln_import_sun){.none = true}, &storage, &capacity, &err));
    CHECK(empty.lights == NULL && empty.light_count == 0);
    CHECK(storage == NULL && capacity == 0);
}

/* A direction or lux adds the sun in front of the model's own lights, which follow in order. */
TEST(a_given_sun_goes_first_before_the_models_lights) {
    kiln_render_scene scene = lit_scene();
    kiln_light *storage = NULL;
    uint32_t capacity = 0;
    kiln_error err = {0};
    kiln_import_sun sun = {.direction_given = true, .direction = {0, -1, 0}, .lux = 7.0f};
    CHECK(kiln_import_add_sun(&scene, &sun, &storage, &capacity, &err));
    CHECK_EQ_INT(scene.light_count, 3);
    kiln_light want = kiln_light_sun((kiln_vec3){0, -1, 0}, (kiln_vec3){1, 1, 1}, 7.0f);
    CHECK(!memcmp(&scene.lights[0], &want, sizeof want));
    CHECK(!memcmp(&scene.lights[1], &model_lights[0], sizeof model_lights));
    /* Lux alone keeps the default direction; the storage is reused, not grown. */
    kiln_render_scene again = lit_scene();
    kiln_light *before = storage;
    CHECK(kiln_import_add_sun(&again, &(kiln_import_sun){.lux = 2.0f}, &storage, &capacity, &err));
    CHECK(storage == before && capacity == 3);
    CHECK(is_default_sun(&again.lights[0], 2.0f));
    free(storage);
}

TEST(an_hdr_map_becomes_a_registry_texture_and_a_bad_one_is_named) {
    gfx_fixture f;
    if (!fixture_open(&f)) SKIP("no device");
    kiln_error err = {0};
    kiln_renderer *r = kiln_renderer_create(f.gfx, f.res, NULL, WGPUTextureFormat_RGBA8UnormSrgb, &err);
    CHECK_MSG(r, "%s", err.message);
    uint16_t pixels[4 * 8 * 4] = {0};
    kiln_image map = {.width = 8, .height = 4, .format = KILN_IMAGE_RGBA16F, .pixels = pixels};
    uint32_t id = kiln_import_environment(r, &map, "sky.hdr", &err);
    CHECK_MSG(id != 0, "%s", err.message);
    const kiln_texture_info *info = kiln_texture_registry_info(kiln_renderer_texture_registry(r), id);
    CHECK(info && info->width == 8 && info->height == 4 && info->format == KILN_FORMAT_RGBA16_FLOAT);
    kiln_image empty = {.format = KILN_IMAGE_RGBA16F};
    CHECK(kiln_import_environment(r, &empty, "empty.hdr", &err) == 0);
    CHECK_MSG(!strncmp(err.message, "empty.hdr: ", 11), "%s", err.message);
    kiln_renderer_destroy(r);
    CHECK_EQ_INT(fixture_close(&f), 0);
}

TEST_MAIN(T(a_scene_without_lights_gets_the_default_sun), T(a_scene_with_lights_or_asking_for_none_is_left_alone),
          T(a_given_sun_goes_first_before_the_models_lights),
          T(an_hdr_map_becomes_a_registry_texture_and_a_bad_one_is_named))
