/* Frustum extraction from reverse-Z view-projections, point and sphere tests, batch culling. */
#include <kiln/core/frustum.h>

#include <stdint.h>

#include "test.h"

/* A camera at the origin looking down -Z with a 90 degree field of view, square aspect and
 * near = 0.1: at distance z the frustum spans -z..z in x and y, so the side planes are easy to
 * reason about. */
static kiln_frustum origin_camera(void) {
    kiln_mat4 view = kiln_mat4_look_at(kiln_vec3_make(0, 0, 0), kiln_vec3_make(0, 0, -1),
                                       kiln_vec3_make(0, 1, 0));
    kiln_mat4 proj = kiln_mat4_perspective_reverse_z_infinite(KILN_PI / 2, 1.0f, 0.1f);
    return kiln_frustum_from_view_proj(kiln_mat4_mul(proj, view));
}

TEST(planes_are_normalised) {
    kiln_frustum f = origin_camera();
    for (int i = 0; i < KILN_FRUSTUM_PLANE_COUNT; i++)
        CHECK_NEAR(kiln_vec3_length(f.planes[i].normal), 1.0, 1e-6);
}

TEST(near_plane_sits_at_near_distance) {
    kiln_frustum f = origin_camera();
    kiln_plane near = f.planes[KILN_FRUSTUM_NEAR];
    CHECK_NEAR(kiln_plane_distance(near, kiln_vec3_make(0, 0, -0.1f)), 0.0, 1e-6);
    CHECK_NEAR(kiln_plane_distance(near, kiln_vec3_make(0, 0, -1.1f)), 1.0, 1e-6);
}

TEST(point_in_front_is_inside) {
    kiln_frustum f = origin_camera();
    CHECK(kiln_frustum_contains_point(&f, kiln_vec3_make(0, 0, -5)));
    CHECK(kiln_frustum_contains_point(&f, kiln_vec3_make(4.9f, -4.9f, -5)));
}

TEST(point_far_away_is_inside_because_far_is_infinite) {
    kiln_frustum f = origin_camera();
    CHECK(kiln_frustum_contains_point(&f, kiln_vec3_make(0, 0, -1e7f)));
}

TEST(point_behind_camera_is_outside) {
    kiln_frustum f = origin_camera();
    CHECK(!kiln_frustum_contains_point(&f, kiln_vec3_make(0, 0, 5)));
}

TEST(point_closer_than_near_is_outside) {
    kiln_frustum f = origin_camera();
    CHECK(!kiln_frustum_contains_point(&f, kiln_vec3_make(0, 0, -0.05f)));
}

TEST(points_beside_the_view_are_outside) {
    kiln_frustum f = origin_camera();
    CHECK(!kiln_frustum_contains_point(&f, kiln_vec3_make(-5.1f, 0, -5)));
    CHECK(!kiln_frustum_contains_point(&f, kiln_vec3_make(5.1f, 0, -5)));
    CHECK(!kiln_frustum_contains_point(&f, kiln_vec3_make(0, -5.1f, -5)));
    CHECK(!kiln_frustum_contains_point(&f, kiln_vec3_make(0, 5.1f, -5)));
}

TEST(sphere_straddling_a_side_plane_intersects) {
    kiln_frustum f = origin_camera();
    /* Centre 0.5 beyond x = z: its distance from the right plane is -0.5 / sqrt(2). */
    kiln_vec3 c = kiln_vec3_make(5.5f, 0, -5);
    CHECK(!kiln_frustum_contains_point(&f, c));
    CHECK(kiln_frustum_intersects_sphere(&f, c, 0.5f));
    CHECK(!kiln_frustum_intersects_sphere(&f, c, 0.3f));
}

TEST(sphere_straddling_the_near_plane_intersects) {
    kiln_frustum f = origin_camera();
    CHECK(kiln_frustum_intersects_sphere(&f, kiln_vec3_make(0, 0, 0.5f), 0.7f));
    CHECK(!kiln_frustum_intersects_sphere(&f, kiln_vec3_make(0, 0, 0.5f), 0.5f));
}

TEST(sphere_exactly_touching_a_plane_counts_as_visible) {
    /* near = 0.5: the near plane is z = -0.5 with unit normal (0, 0, -1), so a sphere at
     * z = 0.5 of radius 1 touches it exactly and every value involved is exact in float. */
    kiln_mat4 proj = kiln_mat4_perspective_reverse_z_infinite(KILN_PI / 2, 1.0f, 0.5f);
    kiln_frustum f = kiln_frustum_from_view_proj(proj);
    kiln_vec3 c = kiln_vec3_make(0, 0, 0.5f);
    CHECK_NEAR(kiln_plane_distance(f.planes[KILN_FRUSTUM_NEAR], c), -1.0, 0);
    CHECK(kiln_frustum_intersects_sphere(&f, c, 1.0f));
    kiln_vec4 four[4] = {{0, 0, 0.5f, 1}, {0, 0, 0.5f, 0.5f}, {0, 0, 0.5f, 1}, {0, 0, 9, 1}};
    uint32_t out[4];
    CHECK_EQ_INT(kiln_frustum_cull_spheres_into(&f, four, 4, out), 2);
    CHECK(out[0] == 0 && out[1] == 2);
}

TEST(sphere_behind_camera_is_culled) {
    kiln_frustum f = origin_camera();
    CHECK(!kiln_frustum_intersects_sphere(&f, kiln_vec3_make(0, 0, 10), 2));
}

TEST(frustum_follows_a_moved_camera) {
    /* At (10, 0, 0) looking along +X. */
    kiln_mat4 view = kiln_mat4_look_at(kiln_vec3_make(10, 0, 0), kiln_vec3_make(20, 0, 0),
                                       kiln_vec3_make(0, 1, 0));
    kiln_mat4 proj = kiln_mat4_perspective_reverse_z_infinite(1.0f, 1.5f, 0.1f);
    kiln_frustum f = kiln_frustum_from_view_proj(kiln_mat4_mul(proj, view));
    CHECK(kiln_frustum_contains_point(&f, kiln_vec3_make(30, 1, -1)));
    CHECK(!kiln_frustum_contains_point(&f, kiln_vec3_make(0, 0, 0)));
    CHECK(!kiln_frustum_contains_point(&f, kiln_vec3_make(11, 0, 5)));
}

TEST(orthographic_frustum_bounds_the_sides_and_near) {
    kiln_mat4 o = kiln_mat4_orthographic_reverse_z(-1, 1, -1, 1, 1, 10);
    kiln_frustum f = kiln_frustum_from_view_proj(o);
    CHECK(kiln_frustum_contains_point(&f, kiln_vec3_make(0.9f, -0.9f, -5)));
    CHECK(!kiln_frustum_contains_point(&f, kiln_vec3_make(1.1f, 0, -5)));
    CHECK(!kiln_frustum_contains_point(&f, kiln_vec3_make(0, 0, -0.5f)));
}

/* xorshift32: a fixed, portable sequence for the randomised comparison. */
static uint32_t next_random(uint32_t *state) {
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

static float random_range(uint32_t *state, float lo, float hi) {
    return lo + (hi - lo) * (float)(next_random(state) >> 8) / (float)(1u << 24);
}

#define SPHERE_COUNT 4099 /* not a multiple of four, so the scalar tail runs too */

static kiln_vec4 spheres[SPHERE_COUNT];
static uint32_t visible[SPHERE_COUNT];

TEST(cull_spheres_into_agrees_with_the_scalar_test) {
    kiln_frustum f = origin_camera();
    uint32_t rng = 12345;
    for (int i = 0; i < SPHERE_COUNT; i++) {
        spheres[i] = kiln_vec4_make(random_range(&rng, -40, 40), random_range(&rng, -40, 40),
                                    random_range(&rng, -40, 40), random_range(&rng, 0, 3));
    }

    /* Every prefix length checks the tail handling for n % 4 = 0..3 as well as the full set. */
    uint32_t lengths[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 1001, SPHERE_COUNT};
    for (size_t k = 0; k < sizeof lengths / sizeof lengths[0]; k++) {
        uint32_t n = lengths[k];
        uint32_t count = kiln_frustum_cull_spheres_into(&f, spheres, n, visible);
        uint32_t expected = 0;
        for (uint32_t i = 0; i < n; i++) {
            kiln_vec3 c = kiln_vec3_make(spheres[i].x, spheres[i].y, spheres[i].z);
            if (!kiln_frustum_intersects_sphere(&f, c, spheres[i].w)) continue;
            CHECK_MSG(expected < count && visible[expected] == i, "n=%u: sphere %u", n, i);
            expected++;
        }
        CHECK_EQ_INT(count, expected);
    }

    /* The data set must exercise both outcomes. */
    uint32_t all = kiln_frustum_cull_spheres_into(&f, spheres, SPHERE_COUNT, visible);
    CHECK(all > 100 && all < SPHERE_COUNT - 100);
}

TEST_MAIN(T(planes_are_normalised), T(near_plane_sits_at_near_distance),
          T(point_in_front_is_inside), T(point_far_away_is_inside_because_far_is_infinite),
          T(point_behind_camera_is_outside), T(point_closer_than_near_is_outside),
          T(points_beside_the_view_are_outside), T(sphere_straddling_a_side_plane_intersects),
          T(sphere_straddling_the_near_plane_intersects), T(sphere_exactly_touching_a_plane_counts_as_visible),
          T(sphere_behind_camera_is_culled),
          T(frustum_follows_a_moved_camera), T(orthographic_frustum_bounds_the_sides_and_near),
          T(cull_spheres_into_agrees_with_the_scalar_test))
