/* kiln-view's camera controller (tools/kiln_view_camera.c), without a window: each gesture's
 * effect on the camera, the framing it starts from and returns to, and the file cameras. */
#include <string.h>

#include "kiln_view_camera.h"
#include "test.h"

#define ASPECT (16.0f / 9.0f)
#define HEIGHT 720.0f

/* A model 2 m across, off the origin, so nothing passes by accident of symmetry. */
static const kiln_mesh_bounds bounds = {.min = {0, -1, -1}, .max = {2, 1, 1}, .center = {1, 0, 0}, .radius = 1.7320508f};

static view_camera framed(void) {
    kiln_camera start = kiln_import_frame(&bounds, KILN_IMPORT_DEFAULT_FOV_Y, ASPECT);
    view_camera vc;
    view_camera_init(&vc, &start, &bounds, NULL, 0);
    return vc;
}

static float distance_to_pivot(const view_camera *vc) { return kiln_vec3_length(kiln_vec3_sub(vc->pivot, vc->camera.position)); }

/* The pivot's pixel on a viewport of HEIGHT rows and ASPECT * HEIGHT columns, +y down. */
static void pixel_of(const kiln_camera *c, kiln_vec3 p, float *x, float *y) {
    kiln_vec4 clip = kiln_mat4_mul_vec4(kiln_camera_view_projection(c), (kiln_vec4){p.x, p.y, p.z, 1});
    *x = (clip.x / clip.w * 0.5f + 0.5f) * ASPECT * HEIGHT;
    *y = (0.5f - clip.y / clip.w * 0.5f) * HEIGHT;
}

/* How far the pivot is off the camera's view ray, in metres. */
static float pivot_off_axis(const view_camera *vc) {
    kiln_vec3 to = kiln_vec3_sub(vc->pivot, vc->camera.position);
    kiln_vec3 along = kiln_vec3_scale(kiln_camera_forward(&vc->camera), kiln_vec3_dot(to, kiln_camera_forward(&vc->camera)));
    return kiln_vec3_length(kiln_vec3_sub(to, along));
}

TEST(the_start_camera_is_kept_bit_for_bit_and_pivots_on_the_bounds_centre) {
    kiln_camera start = kiln_import_frame(&bounds, KILN_IMPORT_DEFAULT_FOV_Y, ASPECT);
    view_camera vc = framed();
    CHECK(memcmp(&vc.camera, &start, sizeof start) == 0);
    CHECK_NEAR(vc.pivot.x, 1.0, 1e-4);
    CHECK_NEAR(vc.pivot.y, 0.0, 1e-4);
    CHECK_NEAR(vc.pivot.z, 0.0, 1e-4);
    CHECK_EQ_INT(vc.file_camera, -1);
}

TEST(a_left_drag_orbits_about_the_pivot_at_the_same_distance) {
    view_camera vc = framed();
    float before = distance_to_pivot(&vc);
    kiln_vec3 eye_before = vc.camera.position;
    view_camera_drag(&vc, VIEW_BUTTON_LEFT, false, 100.0f, 0.0f, HEIGHT);
    CHECK_NEAR(distance_to_pivot(&vc), before, 1e-4 * before);
    CHECK_NEAR(vc.pivot.x, 1.0, 1e-6);
    CHECK(pivot_off_axis(&vc) < 1e-4f);
    /* Dragging right swings the camera to its left: the azimuth from +Z towards +X falls. */
    float az_before = atan2f(eye_before.x - 1.0f, eye_before.z), az_after = atan2f(vc.camera.position.x - 1.0f, vc.camera.position.z);
    CHECK_NEAR(az_before - az_after, 100.0f * VIEW_CAMERA_RADIANS_PER_PIXEL, 1e-4);
    CHECK_NEAR(vc.camera.position.y, eye_before.y, 1e-4); /* a horizontal drag keeps the elevation */
}

TEST(a_vertical_drag_raises_the_camera_and_stops_short_of_the_pole) {
    view_camera vc = framed();
    float y_before = vc.camera.position.y;
    view_camera_drag(&vc, VIEW_BUTTON_LEFT, false, 0.0f, 50.0f, HEIGHT);
    CHECK(vc.camera.position.y > y_before);
    view_camera_drag(&vc, VIEW_BUTTON_LEFT, false, 0.0f, 100000.0f, HEIGHT);
    kiln_vec3 offset = kiln_vec3_sub(vc.camera.position, vc.pivot);
    float elevation = asinf(offset.y / kiln_vec3_length(offset));
    CHECK(elevation < 0.5f * KILN_PI && elevation > 0.5f * KILN_PI - 0.02f);
    CHECK(isfinite(vc.camera.rotation.x) && isfinite(vc.camera.rotation.w));
    CHECK(pivot_off_axis(&vc) < 1e-3f);
}

TEST(a_middle_drag_pans_and_the_pivot_follows_the_cursor_pixel_for_pixel) {
    view_camera vc = framed();
    kiln_quat rotation = vc.camera.rotation;
    float x0, y0, x1, y1;
    pixel_of(&vc.camera, vc.pivot, &x0, &y0);
    kiln_vec3 old_pivot = vc.pivot;
    view_camera_drag(&vc, VIEW_BUTTON_MIDDLE, false, 40.0f, -25.0f, HEIGHT);
    pixel_of(&vc.camera, old_pivot, &x1, &y1);
    CHECK_NEAR(x1 - x0, 40.0, 0.05);
    CHECK_NEAR(y1 - y0, -25.0, 0.05);
    CHECK(memcmp(&rotation, &vc.camera.rotation, sizeof rotation) == 0);
}

TEST(shift_turns_a_left_drag_into_a_pan) {
    view_camera a = framed(), b = framed();
    view_camera_drag(&a, VIEW_BUTTON_LEFT, true, 30.0f, 10.0f, HEIGHT);
    view_camera_drag(&b, VIEW_BUTTON_MIDDLE, false, 30.0f, 10.0f, HEIGHT);
    CHECK(memcmp(&a.camera, &b.camera, sizeof a.camera) == 0);
    CHECK(memcmp(&a.pivot, &b.pivot, sizeof a.pivot) == 0);
}

TEST(the_wheel_dollies_a_tenth_of_the_distance_a_step_and_keeps_the_near_plane_rule) {
    view_camera vc = framed();
    float before = distance_to_pivot(&vc);
    view_camera_scroll(&vc, 1.0f);
    CHECK_NEAR(distance_to_pivot(&vc), 0.9 * before, 1e-4 * before);
    kiln_vec3 target = vc.pivot;
    kiln_camera rule = kiln_import_look_at(&bounds, vc.camera.position, target, (kiln_vec3){0, 1, 0}, vc.camera.fov_y, ASPECT);
    CHECK_NEAR(vc.camera.near, rule.near, 1e-6);
    view_camera_scroll(&vc, -2.0f);
    CHECK_NEAR(distance_to_pivot(&vc), 0.9 * before / 0.81, 1e-3 * before);
    view_camera_scroll(&vc, 1000.0f); /* never onto or through the pivot */
    CHECK(distance_to_pivot(&vc) >= VIEW_CAMERA_MIN_DISTANCE * bounds.radius * 0.999f);
    CHECK(pivot_off_axis(&vc) < 1e-4f);
}

TEST(a_right_drag_looks_around_from_where_the_camera_stands) {
    view_camera vc = framed();
    kiln_vec3 eye = vc.camera.position;
    kiln_vec3 forward = kiln_camera_forward(&vc.camera);
    view_camera_set_flying(&vc, true);
    view_camera_drag(&vc, VIEW_BUTTON_RIGHT, false, 60.0f, 0.0f, HEIGHT);
    CHECK(memcmp(&eye, &vc.camera.position, sizeof eye) == 0);
    kiln_vec3 turned = kiln_camera_forward(&vc.camera);
    /* Yawed about world +Y: the heading turns by the drag's angle, the pitch stays. */
    float heading_turn = atan2f(forward.x, -forward.z) - atan2f(turned.x, -turned.z);
    CHECK_NEAR(fabsf(heading_turn), 60.0f * VIEW_CAMERA_RADIANS_PER_PIXEL, 1e-4);
    CHECK_NEAR(turned.y, forward.y, 1e-5);
    /* Turned right: the new forward lies on the old right's side. */
    kiln_vec3 right = kiln_quat_rotate(kiln_import_frame(&bounds, KILN_IMPORT_DEFAULT_FOV_Y, ASPECT).rotation, (kiln_vec3){1, 0, 0});
    CHECK(kiln_vec3_dot(turned, right) > 0.0f);
    /* No roll: the camera's right stays horizontal. */
    CHECK_NEAR(kiln_quat_rotate(vc.camera.rotation, (kiln_vec3){1, 0, 0}).y, 0.0, 1e-5);
}

TEST(wasd_qe_fly_at_a_radius_a_second_only_while_flying) {
    view_camera vc = framed();
    kiln_vec3 eye = vc.camera.position, forward = kiln_camera_forward(&vc.camera);
    view_camera_fly(&vc, VIEW_FLY_FORWARD, 0.5f);
    CHECK(memcmp(&eye, &vc.camera.position, sizeof eye) == 0); /* not flying: keys do nothing */
    view_camera_set_flying(&vc, true);
    view_camera_fly(&vc, VIEW_FLY_FORWARD, 0.5f);
    kiln_vec3 moved = kiln_vec3_sub(vc.camera.position, eye);
    CHECK_NEAR(kiln_vec3_dot(moved, forward), 0.5 * bounds.radius, 1e-4);
    eye = vc.camera.position;
    view_camera_fly(&vc, VIEW_FLY_UP, 1.0f);
    CHECK_NEAR(vc.camera.position.y - eye.y, bounds.radius, 1e-4);
    eye = vc.camera.position;
    view_camera_fly(&vc, VIEW_FLY_LEFT | VIEW_FLY_RIGHT, 1.0f);
    CHECK(memcmp(&eye, &vc.camera.position, sizeof eye) == 0); /* opposite keys cancel */
    view_camera_set_flying(&vc, false);
    view_camera_fly(&vc, VIEW_FLY_BACK, 1.0f);
    CHECK(memcmp(&eye, &vc.camera.position, sizeof eye) == 0);
}

TEST(f_frames_the_model_exactly_as_the_import_does) {
    view_camera vc = framed();
    view_camera_drag(&vc, VIEW_BUTTON_LEFT, false, 123.0f, -45.0f, HEIGHT);
    view_camera_scroll(&vc, 3.0f);
    view_camera_drag(&vc, VIEW_BUTTON_MIDDLE, false, 7.0f, 9.0f, HEIGHT);
    view_camera_frame(&vc, 2.0f);
    kiln_camera want = kiln_import_frame(&bounds, KILN_IMPORT_DEFAULT_FOV_Y, 2.0f);
    CHECK(memcmp(&vc.camera, &want, sizeof want) == 0);
    CHECK(memcmp(&vc.pivot, &bounds.center, sizeof bounds.center) == 0);
}

TEST(c_steps_through_the_file_cameras_then_back_to_the_framed_one) {
    kiln_camera files[2] = {
        kiln_camera_look_at((kiln_vec3){1, 0, 5}, (kiln_vec3){1, 0, 0}, (kiln_vec3){0, 1, 0}, 0.6f, 1.5f, 0.01f),
        kiln_camera_look_at((kiln_vec3){6, 1, 0}, (kiln_vec3){1, 0, 0}, (kiln_vec3){0, 1, 0}, 0.9f, 1.0f, 0.02f),
    };
    kiln_camera start = kiln_import_frame(&bounds, KILN_IMPORT_DEFAULT_FOV_Y, ASPECT);
    view_camera vc;
    view_camera_init(&vc, &start, &bounds, files, 2);
    view_camera_next_file_camera(&vc, ASPECT);
    CHECK_EQ_INT(vc.file_camera, 0);
    CHECK(memcmp(&vc.camera, &files[0], sizeof files[0]) == 0);
    CHECK_NEAR(vc.pivot.z, 0.0, 1e-4); /* on the view ray, level with the centre */
    view_camera_next_file_camera(&vc, ASPECT);
    CHECK_EQ_INT(vc.file_camera, 1);
    CHECK(memcmp(&vc.camera, &files[1], sizeof files[1]) == 0);
    view_camera_next_file_camera(&vc, ASPECT);
    CHECK_EQ_INT(vc.file_camera, -1);
    CHECK(memcmp(&vc.camera, &start, sizeof start) == 0);
}

TEST(c_without_file_cameras_frames_the_model) {
    view_camera vc = framed();
    view_camera_scroll(&vc, 2.0f);
    view_camera_next_file_camera(&vc, ASPECT);
    kiln_camera want = kiln_import_frame(&bounds, KILN_IMPORT_DEFAULT_FOV_Y, ASPECT);
    CHECK(memcmp(&vc.camera, &want, sizeof want) == 0);
    CHECK_EQ_INT(vc.file_camera, -1);
}

TEST_MAIN(T(the_start_camera_is_kept_bit_for_bit_and_pivots_on_the_bounds_centre),
          T(a_left_drag_orbits_about_the_pivot_at_the_same_distance),
          T(a_vertical_drag_raises_the_camera_and_stops_short_of_the_pole),
          T(a_middle_drag_pans_and_the_pivot_follows_the_cursor_pixel_for_pixel), T(shift_turns_a_left_drag_into_a_pan),
          T(the_wheel_dollies_a_tenth_of_the_distance_a_step_and_keeps_the_near_plane_rule),
          T(a_right_drag_looks_around_from_where_the_camera_stands), T(wasd_qe_fly_at_a_radius_a_second_only_while_flying),
          T(f_frames_the_model_exactly_as_the_import_does), T(c_steps_through_the_file_cameras_then_back_to_the_framed_one),
          T(c_without_file_cameras_frames_the_model))
