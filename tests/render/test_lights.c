/* Lights: constructors, the sun split, packing order and limits, and the byte layout of the GPU
 * record (the offsets documented in src/render/light_records.h). */
#include "render/light_records.h"

#include <stdint.h>
#include <string.h>

#include "test.h"

static float f32_at(const kiln_gpu_light *g, size_t offset) {
    float v;
    memcpy(&v, (const uint8_t *)g + offset, sizeof v);
    return v;
}

static uint32_t u32_at(const kiln_gpu_light *g, size_t offset) {
    uint32_t v;
    memcpy(&v, (const uint8_t *)g + offset, sizeof v);
    return v;
}

static int32_t i32_at(const kiln_gpu_light *g, size_t offset) {
    int32_t v;
    memcpy(&v, (const uint8_t *)g + offset, sizeof v);
    return v;
}

static kiln_light numbered_point(uint32_t i) {
    return kiln_light_point(kiln_vec3_make((float)i, 0.0f, 0.0f), kiln_vec3_make(1, 1, 1), 10.0f, 2.0f);
}

TEST(the_first_sun_is_the_sun_and_later_suns_are_ignored) {
    kiln_light lights[4] = {
        numbered_point(0),
        kiln_light_sun(kiln_vec3_make(0, -2, 0), kiln_vec3_make(1, 0.9f, 0.8f), 4.0f),
        kiln_light_sun(kiln_vec3_make(1, 0, 0), kiln_vec3_make(0, 0, 1), 99.0f),
        numbered_point(1),
    };
    kiln_gpu_light out[4];
    kiln_light sun = {0};
    bool has_sun = false;
    uint32_t n = kiln_pack_lights_into(lights, 4, out, 4, &sun, &has_sun);
    CHECK_EQ_INT(n, 2);
    CHECK(has_sun);
    CHECK_EQ_INT(sun.kind, KILN_LIGHT_SUN);
    CHECK_NEAR(sun.intensity, 4.0f, 0.0);
    CHECK_NEAR(sun.direction.y, -1.0f, 1e-6); /* normalised by the constructor */
    CHECK_NEAR(out[0].position.x, 0.0f, 0.0);
    CHECK_NEAR(out[1].position.x, 1.0f, 0.0);
}

TEST(a_scene_without_a_sun_reports_none_and_leaves_sun_out_alone) {
    kiln_light lights[2] = {numbered_point(0), numbered_point(1)};
    kiln_gpu_light out[2];
    kiln_light sun = {.intensity = 7.0f};
    bool has_sun = true;
    CHECK_EQ_INT(kiln_pack_lights_into(lights, 2, out, 2, &sun, &has_sun), 2);
    CHECK(!has_sun);
    CHECK_NEAR(sun.intensity, 7.0f, 0.0);
}

TEST(lights_past_max_are_dropped_and_the_rest_keep_scene_order) {
    static kiln_light lights[1030];
    static kiln_gpu_light out[KILN_MAX_LIGHTS];
    for (uint32_t i = 0; i < 1030; i++) lights[i] = numbered_point(i);
    lights[7] = kiln_light_spot(kiln_vec3_make(7, 0, 0), kiln_vec3_make(0, 0, -1), kiln_vec3_make(1, 1, 1), 5.0f,
                                3.0f, 0.2f, 0.4f);
    uint32_t n = kiln_pack_lights_into(lights, 1030, out, KILN_MAX_LIGHTS, NULL, NULL);
    CHECK_EQ_INT(n, KILN_MAX_LIGHTS);
    for (uint32_t i = 0; i < n; i++) CHECK_NEAR(out[i].position.x, (float)i, 0.0);
    CHECK_EQ_INT(out[7].kind, KILN_LIGHT_SPOT);
    CHECK_EQ_INT(out[8].kind, KILN_LIGHT_POINT);
}

TEST(packing_into_no_room_still_finds_the_sun) {
    kiln_light lights[2] = {numbered_point(0), kiln_light_sun(kiln_vec3_make(0, -1, 0), kiln_vec3_make(1, 1, 1), 1)};
    bool has_sun = false;
    CHECK_EQ_INT(kiln_pack_lights_into(lights, 2, NULL, 0, NULL, &has_sun), 0);
    CHECK(has_sun);
}

TEST(a_spot_record_holds_each_field_at_its_documented_offset) {
    kiln_light spot = kiln_light_spot(kiln_vec3_make(1.5f, -2.0f, 3.25f), kiln_vec3_make(0, 0, -2),
                                      kiln_vec3_make(1.0f, 0.5f, 0.25f), 80.0f, 12.0f, 0.3f, 0.5f);
    kiln_gpu_light g;
    CHECK_EQ_INT(kiln_pack_lights_into(&spot, 1, &g, 1, NULL, NULL), 1);
    CHECK_EQ_INT(sizeof g, 64);
    CHECK_NEAR(f32_at(&g, 0), 1.5f, 0.0);
    CHECK_NEAR(f32_at(&g, 4), -2.0f, 0.0);
    CHECK_NEAR(f32_at(&g, 8), 3.25f, 0.0);
    CHECK_NEAR(f32_at(&g, 12), 12.0f, 0.0);
    CHECK_NEAR(f32_at(&g, 16), 80.0f, 0.0);
    CHECK_NEAR(f32_at(&g, 20), 40.0f, 0.0);
    CHECK_NEAR(f32_at(&g, 24), 20.0f, 0.0);
    CHECK_EQ_INT(u32_at(&g, 28), KILN_LIGHT_SPOT);
    CHECK_NEAR(f32_at(&g, 32), 0.0f, 0.0);
    CHECK_NEAR(f32_at(&g, 36), 0.0f, 0.0);
    CHECK_NEAR(f32_at(&g, 40), -1.0f, 0.0);
    CHECK_EQ_INT(i32_at(&g, 44), -1); /* no shadow view until the atlas hands one out */
    float cos_inner = cosf(0.3f), cos_outer = cosf(0.5f);
    CHECK_NEAR(f32_at(&g, 48), cos_inner, 1e-6);
    CHECK_NEAR(f32_at(&g, 52), cos_outer, 1e-6);
    CHECK_NEAR(f32_at(&g, 56), 1.0f / (cos_inner - cos_outer), 1e-2);
    CHECK_NEAR(f32_at(&g, 60), -cos_outer / (cos_inner - cos_outer), 1e-2);
}

/* The cone factor the shader computes, saturate(cos_angle * scale + offset). */
static float cone_factor(const kiln_gpu_light *g, float cos_angle) {
    float t = cos_angle * g->spot_scale + g->spot_offset;
    return t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t;
}

TEST(a_spot_cone_factor_is_one_inside_inner_and_zero_outside_outer) {
    kiln_light spot = kiln_light_spot(kiln_vec3_make(0, 0, 0), kiln_vec3_make(0, -1, 0), kiln_vec3_make(1, 1, 1), 1.0f,
                                      5.0f, 0.2f, 0.6f);
    kiln_gpu_light g = kiln_gpu_light_from(&spot);
    CHECK_NEAR(cone_factor(&g, cosf(0.1f)), 1.0f, 1e-6);
    CHECK_NEAR(cone_factor(&g, cosf(0.2f)), 1.0f, 1e-4);
    CHECK_NEAR(cone_factor(&g, cosf(0.6f)), 0.0f, 1e-4);
    CHECK_NEAR(cone_factor(&g, cosf(0.9f)), 0.0f, 1e-6);
    float mid = cone_factor(&g, cosf(0.4f));
    CHECK(mid > 0.1f && mid < 0.9f);
}

TEST(a_point_record_has_no_cone_and_no_shadow_view) {
    kiln_light point = kiln_light_point(kiln_vec3_make(1, 2, 3), kiln_vec3_make(0.5f, 1, 1), 60.0f, 8.0f);
    kiln_gpu_light g = kiln_gpu_light_from(&point);
    CHECK_EQ_INT(g.kind, KILN_LIGHT_POINT);
    CHECK_EQ_INT(g.shadow_view, -1);
    CHECK_NEAR(g.color_intensity.x, 30.0f, 0.0);
    CHECK_NEAR(g.direction.x * g.direction.x + g.direction.y * g.direction.y + g.direction.z * g.direction.z, 0.0f, 0.0);
    CHECK_NEAR(cone_factor(&g, -1.0f), 1.0f, 0.0);
    CHECK_NEAR(cone_factor(&g, 1.0f), 1.0f, 0.0);
}

TEST(spot_angles_are_clamped_to_a_valid_cone) {
    /* inner past outer, outer past a hemisphere */
    kiln_light spot = kiln_light_spot(kiln_vec3_make(0, 0, 0), kiln_vec3_make(1, 0, 0), kiln_vec3_make(1, 1, 1), 1.0f,
                                      -3.0f, 2.5f, 2.0f);
    kiln_gpu_light g = kiln_gpu_light_from(&spot);
    CHECK_NEAR(g.cos_outer, 0.0f, 1e-6);          /* outer clamped to pi/2 */
    CHECK_NEAR(g.cos_inner, g.cos_outer, 1e-6);   /* inner clamped to outer */
    CHECK(isfinite(g.spot_scale) && isfinite(g.spot_offset));
    CHECK_NEAR(g.range, 0.0f, 0.0);               /* a negative range culls nothing */
}

TEST(a_zero_initialised_light_packs_as_a_black_point_light) {
    kiln_light zero = {0};
    kiln_gpu_light g;
    bool has_sun = true;
    CHECK_EQ_INT(kiln_pack_lights_into(&zero, 1, &g, 1, NULL, &has_sun), 1);
    CHECK(!has_sun);
    CHECK_EQ_INT(g.kind, KILN_LIGHT_POINT);
    CHECK_NEAR(g.color_intensity.x + g.color_intensity.y + g.color_intensity.z, 0.0f, 0.0);
}

TEST_MAIN(T(the_first_sun_is_the_sun_and_later_suns_are_ignored),
          T(a_scene_without_a_sun_reports_none_and_leaves_sun_out_alone),
          T(lights_past_max_are_dropped_and_the_rest_keep_scene_order), T(packing_into_no_room_still_finds_the_sun),
          T(a_spot_record_holds_each_field_at_its_documented_offset),
          T(a_spot_cone_factor_is_one_inside_inner_and_zero_outside_outer),
          T(a_point_record_has_no_cone_and_no_shadow_view), T(spot_angles_are_clamped_to_a_valid_cone),
          T(a_zero_initialised_light_packs_as_a_black_point_light))
