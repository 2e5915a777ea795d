/* Cascades on the CPU, without a GPU: the practical split values, the bounding-sphere fit that
 * keeps a cascade's footprint fixed while the camera turns, and the texel snapping that leaves
 * the light's projection unchanged under a camera move of less than a texel. */
#include "render/cascades.h"

#include <math.h>
#include <string.h>

#include "test.h"

#define RESOLUTION 512u
#define DISTANCE 60.0f

static const kiln_vec3 SUN = {-0.55f, -0.55f, -0.65f}; /* normalised in sun() */

static kiln_vec3 sun(void) { return kiln_vec3_normalize(SUN); }

static kiln_camera camera_at(kiln_vec3 position, kiln_quat rotation) {
    return (kiln_camera){.position = position, .rotation = rotation, .fov_y = 0.9f, .aspect = 16.0f / 9.0f, .near = 0.1f};
}

/* A camera corner of the slice at view depth d: sx, sy in {-1, 1}. */
static kiln_vec3 corner(const kiln_camera *c, float d, float sx, float sy) {
    float t = tanf(c->fov_y * 0.5f);
    kiln_vec3 local = {sx * d * t * c->aspect, sy * d * t, -d};
    return kiln_vec3_add(c->position, kiln_quat_rotate(c->rotation, local));
}

TEST(practical_splits_mix_three_quarters_logarithmic_with_one_quarter_uniform) {
    float splits[KILN_CASCADE_COUNT];
    /* near 1, far 16: logarithmic 2, 4, 8, 16; uniform 4.75, 8.5, 12.25, 16. */
    kiln_cascade_splits_into(splits, 1.0f, 16.0f);
    CHECK_NEAR(splits[0], 2.6875f, 1e-5f);
    CHECK_NEAR(splits[1], 5.125f, 1e-5f);
    CHECK_NEAR(splits[2], 9.0625f, 1e-5f);
    CHECK(splits[3] == 16.0f);
    /* The default range: 0.1 m to 60 m. */
    kiln_cascade_splits_into(splits, 0.1f, DISTANCE);
    CHECK_NEAR(splits[0], 4.1397f, 1e-3f);
    CHECK_NEAR(splits[1], 9.3493f, 1e-3f);
    CHECK_NEAR(splits[2], 20.3486f, 1e-3f);
    CHECK(splits[3] == DISTANCE);
}

TEST(each_slice_sphere_holds_all_eight_corners_of_its_slice) {
    kiln_camera c = camera_at((kiln_vec3){3, 2, 5}, kiln_quat_from_axis_angle((kiln_vec3){0, 1, 0}, 0.7f));
    kiln_cascade cascades[KILN_CASCADE_COUNT];
    kiln_cascades_fit_into(cascades, &c, sun(), DISTANCE, RESOLUTION);
    for (int i = 0; i < KILN_CASCADE_COUNT; i++) {
        const kiln_cascade *k = &cascades[i];
        kiln_vec3 center;
        float radius;
        kiln_cascade_slice_sphere(&c, k->split_near, k->split_far, &center, &radius);
        CHECK(k->radius >= radius && k->radius < radius + 1.0f / 16.0f);
        CHECK(k->radius * 16.0f == floorf(k->radius * 16.0f));
        CHECK_NEAR(k->texel_world, 2.0f * k->radius / RESOLUTION, 1e-7f);
        for (int n = 0; n < 8; n++) {
            float d = n & 4 ? k->split_far : k->split_near;
            kiln_vec3 p = corner(&c, d, n & 1 ? 1.0f : -1.0f, n & 2 ? 1.0f : -1.0f);
            CHECK_MSG(kiln_vec3_length(kiln_vec3_sub(p, center)) <= radius * 1.0001f, "cascade %d corner %d", i, n);
        }
    }
}

/* An orthographic camera's slices are boxes 2 half_height high and 2 half_height aspect wide:
 * each sphere holds their corners, and the first cascade starts at a near plane of 0. */
TEST(an_orthographic_camera_has_slice_spheres_that_hold_its_box_corners) {
    kiln_camera c = camera_at((kiln_vec3){3, 2, 5}, kiln_quat_from_axis_angle((kiln_vec3){0, 1, 0}, 0.7f));
    c.projection = KILN_PROJECTION_ORTHOGRAPHIC;
    c.half_height = 4.0f;
    c.near = 0.0f;
    c.far = 100.0f;
    kiln_cascade cascades[KILN_CASCADE_COUNT];
    kiln_cascades_fit_into(cascades, &c, sun(), DISTANCE, RESOLUTION);
    CHECK(cascades[0].split_near == 0.0f);
    CHECK(cascades[KILN_CASCADE_COUNT - 1].split_far == DISTANCE);
    for (int i = 0; i < KILN_CASCADE_COUNT; i++) {
        const kiln_cascade *k = &cascades[i];
        CHECK(isfinite(k->radius) && k->split_far > k->split_near);
        kiln_vec3 center;
        float radius;
        kiln_cascade_slice_sphere(&c, k->split_near, k->split_far, &center, &radius);
        for (int n = 0; n < 8; n++) {
            float d = n & 4 ? k->split_far : k->split_near;
            kiln_vec3 local = {(n & 1 ? 1.0f : -1.0f) * c.half_height * c.aspect, (n & 2 ? 1.0f : -1.0f) * c.half_height, -d};
            kiln_vec3 p = kiln_vec3_add(c.position, kiln_quat_rotate(c.rotation, local));
            CHECK_MSG(kiln_vec3_length(kiln_vec3_sub(p, center)) <= radius * 1.0001f, "cascade %d corner %d", i, n);
        }
        /* The box's width alone: a perspective fit would reach d * tan(fov / 2) instead. */
        CHECK(radius < sqrtf(c.half_height * c.half_height * (1 + c.aspect * c.aspect)) + 0.5f * (k->split_far - k->split_near) + 1e-3f);
    }
}

TEST(the_fitted_footprint_does_not_change_when_the_camera_rotates_in_place) {
    const kiln_quat turns[] = {
        kiln_quat_identity(),
        kiln_quat_from_axis_angle((kiln_vec3){0, 1, 0}, 0.7f),
        kiln_quat_from_axis_angle((kiln_vec3){0, 1, 0}, 2.9f),
        kiln_quat_mul(kiln_quat_from_axis_angle((kiln_vec3){0, 1, 0}, -1.3f),
                      kiln_quat_from_axis_angle((kiln_vec3){1, 0, 0}, -0.45f)),
        kiln_quat_from_axis_angle(kiln_vec3_normalize((kiln_vec3){1, 2, 3}), 1.1f),
    };
    kiln_cascade first[KILN_CASCADE_COUNT];
    kiln_camera c0 = camera_at((kiln_vec3){3, 2, 5}, turns[0]);
    kiln_cascades_fit_into(first, &c0, sun(), DISTANCE, RESOLUTION);
    for (size_t t = 1; t < sizeof turns / sizeof turns[0]; t++) {
        kiln_camera c = camera_at((kiln_vec3){3, 2, 5}, turns[t]);
        kiln_cascade turned[KILN_CASCADE_COUNT];
        kiln_cascades_fit_into(turned, &c, sun(), DISTANCE, RESOLUTION);
        for (int i = 0; i < KILN_CASCADE_COUNT; i++) {
            CHECK_MSG(turned[i].radius == first[i].radius, "turn %zu cascade %d: radius %g, was %g", t, i,
                      (double)turned[i].radius, (double)first[i].radius);
            CHECK(turned[i].texel_world == first[i].texel_world);
            CHECK(memcmp(turned[i].projection.m, first[i].projection.m, sizeof first[i].projection.m) == 0);
        }
    }
}

/* The light-space position of the unsnapped centre of cascade 0, in texels. */
static kiln_vec3 center_in_texels(const kiln_camera *c, const kiln_cascade *k) {
    kiln_vec3 center;
    float radius;
    kiln_cascade_slice_sphere(c, k->split_near, k->split_far, &center, &radius);
    return kiln_vec3_scale(kiln_mat4_transform_point(kiln_cascade_light_basis(sun()), center), 1.0f / k->texel_world);
}

/* World-space offset of `texels` light-space texels of cascade k. */
static kiln_vec3 texels_to_world(const kiln_cascade *k, kiln_vec3 texels) {
    kiln_mat4 to_world = kiln_mat4_transpose(kiln_cascade_light_basis(sun())); /* a rotation */
    return kiln_mat4_transform_direction(to_world, kiln_vec3_scale(texels, k->texel_world));
}

TEST(a_sub_texel_camera_move_leaves_the_snapped_projection_unchanged) {
    kiln_camera c = camera_at((kiln_vec3){3, 2, 5}, kiln_quat_from_axis_angle((kiln_vec3){0, 1, 0}, 0.7f));
    kiln_cascade k = kiln_cascade_fit(&c, 0.1f, 4.0f, sun(), RESOLUTION, DISTANCE);
    /* Move the camera so that the centre sits in the middle of a texel on every light axis. */
    kiln_vec3 t = center_in_texels(&c, &k);
    kiln_vec3 to_middle = {floorf(t.x) + 0.5f - t.x, floorf(t.y) + 0.5f - t.y, floorf(t.z) + 0.5f - t.z};
    c.position = kiln_vec3_add(c.position, texels_to_world(&k, to_middle));
    kiln_cascade middle = kiln_cascade_fit(&c, 0.1f, 4.0f, sun(), RESOLUTION, DISTANCE);
    const kiln_vec3 moves[] = {{0.3f, 0, 0}, {0, -0.3f, 0}, {0, 0, 0.3f}, {0.25f, 0.25f, -0.25f}, {-0.3f, 0.2f, 0.1f}};
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++) {
        kiln_camera moved = c;
        moved.position = kiln_vec3_add(c.position, texels_to_world(&k, moves[i]));
        kiln_cascade m = kiln_cascade_fit(&moved, 0.1f, 4.0f, sun(), RESOLUTION, DISTANCE);
        CHECK_MSG(memcmp(m.view.m, middle.view.m, sizeof m.view.m) == 0, "move %zu changed the light view", i);
        CHECK(memcmp(m.projection.m, middle.projection.m, sizeof m.projection.m) == 0);
    }
    /* A whole texel along light x moves the map by exactly one texel. */
    kiln_camera stepped = c;
    stepped.position = kiln_vec3_add(c.position, texels_to_world(&k, (kiln_vec3){1, 0, 0}));
    kiln_cascade s = kiln_cascade_fit(&stepped, 0.1f, 4.0f, sun(), RESOLUTION, DISTANCE);
    CHECK_NEAR(middle.view.m[12] - s.view.m[12], k.texel_world, k.texel_world * 1e-2f);
    CHECK_NEAR(s.view.m[13], middle.view.m[13], 1e-6f);
}

TEST(the_snapped_centre_lies_on_whole_texels_of_the_sun_basis) {
    kiln_camera c = camera_at((kiln_vec3){-7.3f, 1.7f, 12.9f}, kiln_quat_from_axis_angle((kiln_vec3){0, 1, 0}, -2.2f));
    kiln_cascade cascades[KILN_CASCADE_COUNT];
    kiln_cascades_fit_into(cascades, &c, sun(), DISTANCE, RESOLUTION);
    for (int i = 0; i < KILN_CASCADE_COUNT; i++) {
        kiln_vec3 light = kiln_mat4_transform_point(kiln_cascade_light_basis(sun()), cascades[i].center);
        float texels[3] = {light.x / cascades[i].texel_world, light.y / cascades[i].texel_world,
                           light.z / cascades[i].texel_world};
        for (int a = 0; a < 3; a++)
            CHECK_MSG(fabsf(texels[a] - roundf(texels[a])) < 1e-2f, "cascade %d axis %d at %g texels", i, a,
                      (double)texels[a]);
        /* The light view takes the snapped centre to the origin. */
        kiln_vec3 o = kiln_mat4_transform_point(cascades[i].view, cascades[i].center);
        CHECK(kiln_vec3_length(o) < 1e-3f);
    }
}

TEST(a_vertical_sun_still_has_a_basis) {
    kiln_mat4 basis = kiln_cascade_light_basis((kiln_vec3){0, -1, 0});
    kiln_vec3 down = kiln_mat4_transform_direction(basis, (kiln_vec3){0, -1, 0});
    CHECK_NEAR(down.z, -1.0f, 1e-6f); /* light space looks down -Z along the sunlight */
}

TEST_MAIN(T(practical_splits_mix_three_quarters_logarithmic_with_one_quarter_uniform),
          T(an_orthographic_camera_has_slice_spheres_that_hold_its_box_corners),
          T(each_slice_sphere_holds_all_eight_corners_of_its_slice),
          T(the_fitted_footprint_does_not_change_when_the_camera_rotates_in_place),
          T(a_sub_texel_camera_move_leaves_the_snapped_projection_unchanged),
          T(the_snapped_centre_lies_on_whole_texels_of_the_sun_basis),
          T(a_vertical_sun_still_has_a_basis))
