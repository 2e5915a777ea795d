/* Level-of-detail selection on the CPU, without a GPU: the level at each documented fraction of
 * the frame height (just above and just below 1/4, 1/8 and 1/16), the clamp to the levels a mesh
 * has, and the projected size of a sphere at the distances where those fractions fall. */
#include "render/lod_select.h"

#include <math.h>

#include <kiln/render.h>

#include "test.h"

/* Just above and just below a threshold: one part in a thousand. */
#define ABOVE(t) ((t) * 1.001f)
#define BELOW(t) ((t) * 0.999f)

TEST(each_threshold_switches_to_the_next_level) {
    static const struct { const char *name; float fraction; uint32_t level; } rows[] = {
        {"select-1", INFINITY, 0},
        {"select-2", 1.0f, 0},
        {"select-3", ABOVE(0.25f), 0},
        {"select-4", 0.25f, 0}, /* "below 1/4" switches: exactly 1/4 stays */
        {"select-5", BELOW(0.25f), 1},
        {"select-6", ABOVE(0.125f), 1},
        {"select-7", BELOW(0.125f), 2},
        {"select-8", ABOVE(0.0625f), 2},
        {"select-9", BELOW(0.0625f), 3},
        {"select-10", 0.0f, 3},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        uint32_t level = kiln_lod_select(rows[i].fraction, KILN_MESH_MAX_LODS);
        CHECK_MSG(level == rows[i].level, "%s: fraction %g gives level %u, not %u", rows[i].name,
                  (double)rows[i].fraction, level, rows[i].level);
    }
}

TEST(the_level_is_clamped_to_the_levels_the_mesh_has) {
    static const struct { const char *name; float fraction; uint32_t lod_count, level; } rows[] = {
        {"clamp-1", 0.01f, 0, 0}, {"clamp-2", 0.01f, 1, 0}, {"clamp-3", 0.01f, 2, 1},
        {"clamp-4", 0.01f, 3, 2}, {"clamp-5", 0.2f, 2, 1},  {"clamp-6", 0.2f, 1, 0},
        {"clamp-7", 0.1f, 2, 1},  {"clamp-8", 0.3f, 4, 0},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        uint32_t level = kiln_lod_select(rows[i].fraction, rows[i].lod_count);
        CHECK_MSG(level == rows[i].level, "%s: %u levels, fraction %g gives level %u, not %u", rows[i].name,
                  rows[i].lod_count, (double)rows[i].fraction, level, rows[i].level);
    }
}

/* A camera at the origin looking down -Z with a 60 degree field of view, and the distance at
 * which a sphere of radius r covers `fraction` of the frame height: r / (tan(30 deg) fraction). */
static kiln_camera test_camera(void) {
    return kiln_camera_look_at((kiln_vec3){0, 0, 0}, (kiln_vec3){0, 0, -1}, (kiln_vec3){0, 1, 0}, KILN_PI / 3.0f, 1.5f,
                               0.1f);
}

static float distance_for(float radius, float fraction) { return radius / (tanf(KILN_PI / 6.0f) * fraction); }

TEST(a_sphere_switches_level_at_the_distances_of_the_thresholds) {
    kiln_camera c = test_camera();
    kiln_mat4 view = kiln_camera_view(&c), projection = kiln_camera_projection(&c);
    const float radius = 0.5f;
    static const struct { const char *name; float fraction; uint32_t nearer, farther; } rows[] = {
        {"distance-1", 0.25f, 0, 1},
        {"distance-2", 0.125f, 1, 2},
        {"distance-3", 0.0625f, 2, 3},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        float d = distance_for(radius, rows[i].fraction);
        kiln_vec4 nearer = {0, 0, -BELOW(d), radius}, farther = {0, 0, -ABOVE(d), radius};
        float f = kiln_lod_screen_fraction((kiln_vec4){0, 0, -d, radius}, view, projection);
        uint32_t a = kiln_lod_select(kiln_lod_screen_fraction(nearer, view, projection), KILN_MESH_MAX_LODS);
        uint32_t b = kiln_lod_select(kiln_lod_screen_fraction(farther, view, projection), KILN_MESH_MAX_LODS);
        CHECK_MSG(fabsf(f - rows[i].fraction) <= rows[i].fraction * 1e-5f, "%s: %g at %g m", rows[i].name, (double)f,
                  (double)d);
        CHECK_MSG(a == rows[i].nearer && b == rows[i].farther, "%s: levels %u and %u around %g m", rows[i].name, a, b,
                  (double)d);
    }
}

TEST(the_fraction_depends_on_distance_not_on_where_the_camera_looks) {
    kiln_camera c = test_camera();
    kiln_mat4 view = kiln_camera_view(&c), projection = kiln_camera_projection(&c);
    /* The same distance straight ahead, off to the side and behind the camera. */
    float ahead = kiln_lod_screen_fraction((kiln_vec4){0, 0, -10, 1}, view, projection);
    float aside = kiln_lod_screen_fraction((kiln_vec4){6, 0, -8, 1}, view, projection);
    float behind = kiln_lod_screen_fraction((kiln_vec4){0, 0, 10, 1}, view, projection);
    CHECK_NEAR(ahead, 1.0f / (10.0f * tanf(KILN_PI / 6.0f)), 1e-6);
    CHECK_NEAR(aside, ahead, 1e-6);
    CHECK_NEAR(behind, ahead, 1e-6);
}

TEST(a_camera_inside_the_sphere_sees_it_fill_the_frame) {
    kiln_camera c = test_camera();
    kiln_mat4 view = kiln_camera_view(&c), projection = kiln_camera_projection(&c);
    float inside = kiln_lod_screen_fraction((kiln_vec4){0, 0, -1, 2}, view, projection);
    CHECK(isinf(inside) && inside > 0);
    CHECK_EQ_INT(kiln_lod_select(inside, KILN_MESH_MAX_LODS), 0);
}

/* Through an orthographic camera 2 m high (half_height 1) a sphere of radius 0.25 covers a
 * quarter of the height at every distance, and so keeps level 0. */
TEST(an_orthographic_camera_picks_the_same_level_at_every_distance) {
    for (float d = 1.0f; d < 1000.0f; d *= 10.0f) {
        kiln_camera c = kiln_camera_orthographic_look_at((kiln_vec3){0, 0, d}, (kiln_vec3){0, 0, 0}, (kiln_vec3){0, 1, 0},
                                                         1.0f, 1.5f, 0.0f, 2.0f * d);
        kiln_mat4 view = kiln_camera_view(&c), projection = kiln_camera_projection(&c);
        float fraction = kiln_lod_screen_fraction((kiln_vec4){0, 0, 0, 0.25f}, view, projection);
        CHECK_NEAR(fraction, 0.25f, 1e-6);
        CHECK_EQ_INT(kiln_lod_select(fraction, 4), 0);
        fraction = kiln_lod_screen_fraction((kiln_vec4){0, 0, 0, 0.05f}, view, projection);
        CHECK_EQ_INT(kiln_lod_select(fraction, 4), 3);
    }
}

TEST_MAIN(T(each_threshold_switches_to_the_next_level), T(an_orthographic_camera_picks_the_same_level_at_every_distance), T(the_level_is_clamped_to_the_levels_the_mesh_has),
          T(a_sphere_switches_level_at_the_distances_of_the_thresholds),
          T(the_fraction_depends_on_distance_not_on_where_the_camera_looks),
          T(a_camera_inside_the_sphere_sees_it_fill_the_frame))
