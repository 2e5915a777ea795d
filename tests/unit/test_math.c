/* Vectors, quaternions, matrices and projections: known values and round trips. */
#include <kiln/core/math.h>

#include "test.h"

static const float EPS = 1e-5f;

static bool mat4_near(kiln_mat4 a, kiln_mat4 b, float eps) {
    for (int i = 0; i < 16; i++)
        if (fabsf(a.m[i] - b.m[i]) > eps) return false;
    return true;
}

static bool vec3_near(kiln_vec3 a, kiln_vec3 b, float eps) {
    return fabsf(a.x - b.x) <= eps && fabsf(a.y - b.y) <= eps && fabsf(a.z - b.z) <= eps;
}

/* q and -q are the same rotation. */
static bool quat_same_rotation(kiln_quat a, kiln_quat b, float eps) {
    float dot = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    return fabsf(fabsf(dot) - 1.0f) <= eps;
}

/* A matrix with rotation, non-uniform scale and translation, for the inverse tests. */
static kiln_mat4 sample_transform(void) {
    kiln_quat q = kiln_quat_from_axis_angle(kiln_vec3_make(1, 2, 3), 0.7f);
    return kiln_mat4_trs(kiln_vec3_make(3, -2, 5), q, kiln_vec3_make(2, 0.5f, 1.5f));
}

TEST(vec3_cross_of_x_and_y_is_z) {
    kiln_vec3 z = kiln_vec3_cross(kiln_vec3_make(1, 0, 0), kiln_vec3_make(0, 1, 0));
    CHECK(vec3_near(z, kiln_vec3_make(0, 0, 1), 0));
}

TEST(vec3_normalize_gives_unit_length_and_keeps_zero) {
    CHECK_NEAR(kiln_vec3_length(kiln_vec3_normalize(kiln_vec3_make(3, 4, 12))), 1.0, EPS);
    kiln_vec3 zero = kiln_vec3_normalize(kiln_vec3_make(0, 0, 0));
    CHECK(zero.x == 0 && zero.y == 0 && zero.z == 0);
}

TEST(vec3_lerp_interpolates_linearly) {
    kiln_vec3 r = kiln_vec3_lerp(kiln_vec3_make(0, 2, 4), kiln_vec3_make(10, 4, 0), 0.25f);
    CHECK(vec3_near(r, kiln_vec3_make(2.5f, 2.5f, 3), EPS));
}

TEST(mat4_layout_is_column_major) {
    kiln_mat4 t = kiln_mat4_translation(kiln_vec3_make(7, 8, 9));
    /* The translation is the fourth column: elements 12, 13, 14 in memory. */
    CHECK(t.m[12] == 7 && t.m[13] == 8 && t.m[14] == 9);
    CHECK(kiln_mat4_at(&t, 0, 3) == 7);
    CHECK(t.m[3] == 0 && t.m[7] == 0 && t.m[11] == 0 && t.m[15] == 1);
}

TEST(mat4_mul_applies_right_operand_first) {
    kiln_mat4 t = kiln_mat4_translation(kiln_vec3_make(1, 0, 0));
    kiln_mat4 s = kiln_mat4_scale(kiln_vec3_make(2, 2, 2));
    /* (T * S) p scales first: (1,0,0) -> (2,0,0) -> (3,0,0). */
    kiln_vec3 p = kiln_mat4_transform_point(kiln_mat4_mul(t, s), kiln_vec3_make(1, 0, 0));
    CHECK(vec3_near(p, kiln_vec3_make(3, 0, 0), EPS));
}

TEST(mat4_transform_direction_ignores_translation) {
    kiln_mat4 t = kiln_mat4_translation(kiln_vec3_make(5, 5, 5));
    CHECK(vec3_near(kiln_mat4_transform_direction(t, kiln_vec3_make(0, 1, 0)),
                    kiln_vec3_make(0, 1, 0), 0));
}

TEST(mat4_transpose_swaps_rows_and_columns) {
    kiln_mat4 m;
    for (int i = 0; i < 16; i++) m.m[i] = (float)i;
    kiln_mat4 t = kiln_mat4_transpose(m);
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) CHECK(kiln_mat4_at(&t, r, c) == kiln_mat4_at(&m, c, r));
}

TEST(mat4_inverse_times_matrix_is_identity) {
    kiln_mat4 m = sample_transform();
    kiln_mat4 inv;
    CHECK(kiln_mat4_inverse(m, &inv));
    CHECK(mat4_near(kiln_mat4_mul(inv, m), kiln_mat4_identity(), 1e-5f));
    CHECK(mat4_near(kiln_mat4_mul(m, inv), kiln_mat4_identity(), 1e-5f));
}

TEST(mat4_inverse_of_projection_undoes_it) {
    kiln_mat4 p = kiln_mat4_perspective_reverse_z_infinite(1.0f, 1.5f, 0.1f);
    kiln_mat4 inv;
    CHECK(kiln_mat4_inverse(p, &inv));
    kiln_vec3 view = kiln_vec3_make(0.3f, -0.2f, -4.0f);
    kiln_vec3 back = kiln_mat4_transform_point(inv, kiln_mat4_transform_point(p, view));
    CHECK(vec3_near(back, view, 1e-4f));
}

TEST(mat4_inverse_handles_tiny_scales_with_large_translations) {
    kiln_vec3 t = kiln_vec3_make(1e4f, -2e4f, 5e3f), s = kiln_vec3_make(1e-4f, 2e-4f, 1e-4f);
    kiln_quat q = kiln_quat_from_axis_angle(kiln_vec3_make(0, 1, 0), 0.5f);
    kiln_mat4 inv;
    CHECK(kiln_mat4_inverse(kiln_mat4_trs(t, q, s), &inv));
    /* (T R S)^-1 = S^-1 R^-1 T^-1, built factor by factor. */
    kiln_quat q_inv = {-q.x, -q.y, -q.z, q.w};
    kiln_mat4 expect = kiln_mat4_mul(
        kiln_mat4_scale(kiln_vec3_make(1 / s.x, 1 / s.y, 1 / s.z)),
        kiln_mat4_mul(kiln_mat4_from_quat(q_inv), kiln_mat4_translation(kiln_vec3_scale(t, -1))));
    for (int i = 0; i < 16; i++)
        CHECK_NEAR(inv.m[i], expect.m[i], 1e-5 * fabs(expect.m[i]) + 1e-6);
}

TEST(mat4_inverse_rejects_singular_matrices) {
    kiln_mat4 out = kiln_mat4_identity();
    CHECK(!kiln_mat4_inverse(kiln_mat4_scale(kiln_vec3_make(1, 0, 1)), &out));
    kiln_mat4 dependent = {{1, 2, 3, 4, 2, 4, 6, 8, 0, 1, 0, 0, 0, 0, 1, 0}};
    CHECK(!kiln_mat4_inverse(dependent, &out));
    /* Singular in exact arithmetic, but elimination leaves a rounding-sized pivot, not zero. */
    kiln_mat4 rounded = {{0.1f, 0.4f, 0.7f, 0, 0.2f, 0.5f, 0.8f, 0, 0.3f, 0.6f, 0.9f, 0, 0, 0, 0, 1}};
    CHECK(!kiln_mat4_inverse(rounded, &out));
    kiln_mat4 zero = {{0}};
    CHECK(!kiln_mat4_inverse(zero, &out));
    /* A failed inverse leaves out alone. */
    CHECK(mat4_near(out, kiln_mat4_identity(), 0));
}

TEST(trs_compose_decompose_round_trips) {
    kiln_vec3 t = kiln_vec3_make(-4, 2.5f, 10);
    kiln_quat q = kiln_quat_from_axis_angle(kiln_vec3_make(-1, 0.5f, 2), 2.4f);
    kiln_vec3 s = kiln_vec3_make(0.5f, 3, 1.25f);
    kiln_vec3 t2, s2;
    kiln_quat q2;
    CHECK(kiln_mat4_decompose_trs(kiln_mat4_trs(t, q, s), &t2, &q2, &s2));
    CHECK(vec3_near(t2, t, 1e-5f));
    CHECK(vec3_near(s2, s, 1e-5f));
    CHECK(quat_same_rotation(q2, q, 1e-5f));
}

TEST(trs_decompose_round_trips_half_turn_rotations) {
    /* Rotations of 180 degrees have w = 0: the trace-based branch cannot be used. */
    kiln_vec3 axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int i = 0; i < 3; i++) {
        kiln_quat q = kiln_quat_from_axis_angle(axes[i], KILN_PI);
        kiln_quat q2;
        CHECK(kiln_mat4_decompose_trs(kiln_mat4_trs(kiln_vec3_make(0, 0, 0), q,
                                                    kiln_vec3_make(1, 1, 1)),
                                      NULL, &q2, NULL));
        CHECK(quat_same_rotation(q2, q, 1e-5f));
    }
}

TEST(trs_decompose_round_trips_large_rotations_about_tilted_axes) {
    /* Past about 2.1 radians the trace is negative, so the rotation is recovered from whichever
     * of x, y, z dominates; tilt the axis so each branch sees non-zero off-diagonal terms. */
    kiln_vec3 axes[3] = {{1, 0.3f, 0.2f}, {0.3f, 1, 0.2f}, {0.2f, 0.3f, 1}};
    for (int i = 0; i < 3; i++) {
        kiln_quat q = kiln_quat_from_axis_angle(axes[i], 3.0f);
        kiln_quat q2;
        CHECK(kiln_mat4_decompose_trs(kiln_mat4_from_quat(q), NULL, &q2, NULL));
        CHECK_MSG(quat_same_rotation(q2, q, 1e-5f), "axis %d", i);
    }
}

TEST(decompose_reports_mirror_as_negative_x_scale) {
    kiln_vec3 s;
    kiln_quat q;
    CHECK(kiln_mat4_decompose_trs(kiln_mat4_scale(kiln_vec3_make(1, 1, -2)), NULL, &q, &s));
    CHECK(s.x < 0);
    /* Whatever the split, recomposing gives the original matrix. */
    kiln_mat4 again = kiln_mat4_trs(kiln_vec3_make(0, 0, 0), q, s);
    CHECK(mat4_near(again, kiln_mat4_scale(kiln_vec3_make(1, 1, -2)), 1e-5f));
}

TEST(decompose_rejects_projective_and_degenerate_matrices) {
    kiln_mat4 p = kiln_mat4_perspective_reverse_z_infinite(1.0f, 1.0f, 0.1f);
    CHECK(!kiln_mat4_decompose_trs(p, NULL, NULL, NULL));
    CHECK(!kiln_mat4_decompose_trs(kiln_mat4_scale(kiln_vec3_make(1, 0, 1)), NULL, NULL, NULL));
}

TEST(mat4_from_quat_matches_quat_rotate) {
    kiln_quat q = kiln_quat_from_axis_angle(kiln_vec3_make(0.3f, -1, 0.2f), 1.1f);
    kiln_vec3 v = kiln_vec3_make(1, 2, 3);
    CHECK(vec3_near(kiln_mat4_transform_point(kiln_mat4_from_quat(q), v), kiln_quat_rotate(q, v),
                    1e-5f));
}

TEST(quat_axis_angle_rotates_counter_clockwise) {
    /* Right-handed: a quarter turn about +Z takes +X to +Y. */
    kiln_quat q = kiln_quat_from_axis_angle(kiln_vec3_make(0, 0, 1), KILN_PI / 2);
    CHECK(vec3_near(kiln_quat_rotate(q, kiln_vec3_make(1, 0, 0)), kiln_vec3_make(0, 1, 0), EPS));
}

TEST(quat_mul_applies_right_operand_first) {
    kiln_quat a = kiln_quat_from_axis_angle(kiln_vec3_make(0, 0, 1), KILN_PI / 2);
    kiln_quat b = kiln_quat_from_axis_angle(kiln_vec3_make(1, 0, 0), KILN_PI / 2);
    kiln_vec3 v = kiln_vec3_make(0, 1, 0);
    kiln_vec3 expect = kiln_quat_rotate(a, kiln_quat_rotate(b, v));
    CHECK(vec3_near(kiln_quat_rotate(kiln_quat_mul(a, b), v), expect, EPS));
    /* The order matters: b then a sends +Y to +Z, a then b sends +Y to -X. */
    CHECK(vec3_near(expect, kiln_vec3_make(0, 0, 1), EPS));
    CHECK(vec3_near(kiln_quat_rotate(kiln_quat_mul(b, a), v), kiln_vec3_make(-1, 0, 0), EPS));
}

TEST(quat_normalize_gives_unit_length_and_identity_for_zero) {
    kiln_quat q = kiln_quat_normalize((kiln_quat){1, 2, 3, 4});
    CHECK_NEAR(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w, 1.0, EPS);
    kiln_quat z = kiln_quat_normalize((kiln_quat){0, 0, 0, 0});
    CHECK(z.w == 1 && z.x == 0 && z.y == 0 && z.z == 0);
}

TEST(quat_slerp_halfway_is_half_the_angle) {
    kiln_vec3 axis = kiln_vec3_make(0, 1, 0);
    kiln_quat a = kiln_quat_identity();
    kiln_quat b = kiln_quat_from_axis_angle(axis, 2.0f);
    CHECK(quat_same_rotation(kiln_quat_slerp(a, b, 0.5f), kiln_quat_from_axis_angle(axis, 1.0f),
                             1e-5f));
    CHECK(quat_same_rotation(kiln_quat_slerp(a, b, 0.0f), a, 1e-6f));
    CHECK(quat_same_rotation(kiln_quat_slerp(a, b, 1.0f), b, 1e-6f));
}

TEST(quat_slerp_takes_the_shorter_arc) {
    kiln_vec3 axis = kiln_vec3_make(0, 0, 1);
    kiln_quat a = kiln_quat_identity();
    kiln_quat b = kiln_quat_from_axis_angle(axis, 1.0f);
    kiln_quat neg_b = {-b.x, -b.y, -b.z, -b.w};
    CHECK(quat_same_rotation(kiln_quat_slerp(a, neg_b, 0.5f),
                             kiln_quat_from_axis_angle(axis, 0.5f), 1e-5f));
}

TEST(look_at_maps_eye_to_origin_and_target_onto_negative_z) {
    kiln_vec3 eye = kiln_vec3_make(3, 4, 5), target = kiln_vec3_make(-1, 2, 0);
    kiln_mat4 v = kiln_mat4_look_at(eye, target, kiln_vec3_make(0, 1, 0));
    CHECK(vec3_near(kiln_mat4_transform_point(v, eye), kiln_vec3_make(0, 0, 0), 1e-5f));
    float dist = kiln_vec3_length(kiln_vec3_sub(target, eye));
    CHECK(vec3_near(kiln_mat4_transform_point(v, target), kiln_vec3_make(0, 0, -dist), 1e-5f));
}

TEST(look_at_keeps_world_up_pointing_up) {
    kiln_vec3 eye = kiln_vec3_make(0, 0, 5);
    kiln_mat4 v = kiln_mat4_look_at(eye, kiln_vec3_make(0, 0, 0), kiln_vec3_make(0, 1, 0));
    /* Looking down -Z from +Z: world axes line up with view axes. */
    CHECK(vec3_near(kiln_mat4_transform_point(v, kiln_vec3_make(0, 1, 5)), kiln_vec3_make(0, 1, 0),
                    EPS));
    CHECK(vec3_near(kiln_mat4_transform_point(v, kiln_vec3_make(1, 0, 5)), kiln_vec3_make(1, 0, 0),
                    EPS));
}

TEST(look_at_with_degenerate_input_is_identity) {
    kiln_vec3 up = kiln_vec3_make(0, 1, 0);
    CHECK(mat4_near(kiln_mat4_look_at(up, up, up), kiln_mat4_identity(), 0));
    CHECK(mat4_near(kiln_mat4_look_at(kiln_vec3_make(0, 0, 0), kiln_vec3_make(0, 5, 0), up),
                    kiln_mat4_identity(), 0));
}

TEST(perspective_maps_near_plane_to_depth_one) {
    float near = 0.25f;
    kiln_mat4 p = kiln_mat4_perspective_reverse_z_infinite(1.2f, 16.0f / 9.0f, near);
    CHECK_NEAR(kiln_mat4_transform_point(p, kiln_vec3_make(0, 0, -near)).z, 1.0, 1e-6);
    CHECK_NEAR(kiln_mat4_transform_point(p, kiln_vec3_make(0.1f, -0.1f, -near)).z, 1.0, 1e-6);
}

TEST(perspective_depth_falls_towards_zero_with_distance) {
    kiln_mat4 p = kiln_mat4_perspective_reverse_z_infinite(1.2f, 1.0f, 0.1f);
    float d10 = kiln_mat4_transform_point(p, kiln_vec3_make(0, 0, -10)).z;
    float d1000 = kiln_mat4_transform_point(p, kiln_vec3_make(0, 0, -1000)).z;
    float d1e7 = kiln_mat4_transform_point(p, kiln_vec3_make(0, 0, -1e7f)).z;
    CHECK_NEAR(d10, 0.01, 1e-7);
    CHECK(d1000 < d10 && d1e7 < d1000);
    CHECK(d1e7 > 0 && d1e7 < 1e-7f);
}

TEST(perspective_puts_field_of_view_edge_at_ndc_one) {
    float fovy = 1.0f, aspect = 2.0f;
    kiln_mat4 p = kiln_mat4_perspective_reverse_z_infinite(fovy, aspect, 0.1f);
    float half_height = tanf(fovy / 2);
    kiln_vec3 top = kiln_mat4_transform_point(p, kiln_vec3_make(0, half_height, -1));
    kiln_vec3 right = kiln_mat4_transform_point(p, kiln_vec3_make(half_height * aspect, 0, -1));
    CHECK_NEAR(top.y, 1.0, 1e-5);
    CHECK_NEAR(right.x, 1.0, 1e-5);
}

TEST(perspective_with_invalid_parameters_is_identity) {
    CHECK(mat4_near(kiln_mat4_perspective_reverse_z_infinite(0, 1, 0.1f), kiln_mat4_identity(), 0));
    CHECK(mat4_near(kiln_mat4_perspective_reverse_z_infinite(1, 1, 0), kiln_mat4_identity(), 0));
    CHECK(mat4_near(kiln_mat4_perspective_reverse_z_infinite(1, -1, 0.1f), kiln_mat4_identity(), 0));
}

TEST(orthographic_maps_near_to_one_and_far_to_zero) {
    kiln_mat4 o = kiln_mat4_orthographic_reverse_z(-2, 2, -1, 1, 0.5f, 50);
    CHECK_NEAR(kiln_mat4_transform_point(o, kiln_vec3_make(0, 0, -0.5f)).z, 1.0, 1e-6);
    CHECK_NEAR(kiln_mat4_transform_point(o, kiln_vec3_make(0, 0, -50)).z, 0.0, 1e-6);
}

TEST(orthographic_maps_box_edges_to_ndc_edges) {
    kiln_mat4 o = kiln_mat4_orthographic_reverse_z(-2, 6, -1, 3, 0.5f, 50);
    kiln_vec3 lo = kiln_mat4_transform_point(o, kiln_vec3_make(-2, -1, -1));
    kiln_vec3 hi = kiln_mat4_transform_point(o, kiln_vec3_make(6, 3, -1));
    CHECK(vec3_near(kiln_vec3_make(lo.x, lo.y, 0), kiln_vec3_make(-1, -1, 0), 1e-6f));
    CHECK(vec3_near(kiln_vec3_make(hi.x, hi.y, 0), kiln_vec3_make(1, 1, 0), 1e-6f));
}

TEST(mat4_mul_vec4_keeps_w) {
    kiln_mat4 p = kiln_mat4_perspective_reverse_z_infinite(1.0f, 1.0f, 0.1f);
    kiln_vec4 clip = kiln_mat4_mul_vec4(p, kiln_vec4_make(0, 0, -3, 1));
    /* Perspective puts -z_view into w. */
    CHECK_NEAR(clip.w, 3.0, 1e-6);
    CHECK_NEAR(clip.z, 0.1, 1e-6);
}

TEST_MAIN(T(vec3_cross_of_x_and_y_is_z), T(vec3_normalize_gives_unit_length_and_keeps_zero),
          T(vec3_lerp_interpolates_linearly), T(mat4_layout_is_column_major),
          T(mat4_mul_applies_right_operand_first), T(mat4_transform_direction_ignores_translation),
          T(mat4_transpose_swaps_rows_and_columns), T(mat4_inverse_times_matrix_is_identity),
          T(mat4_inverse_of_projection_undoes_it), T(mat4_inverse_handles_tiny_scales_with_large_translations),
          T(mat4_inverse_rejects_singular_matrices),
          T(trs_compose_decompose_round_trips), T(trs_decompose_round_trips_half_turn_rotations),
          T(trs_decompose_round_trips_large_rotations_about_tilted_axes),
          T(decompose_reports_mirror_as_negative_x_scale),
          T(decompose_rejects_projective_and_degenerate_matrices),
          T(mat4_from_quat_matches_quat_rotate), T(quat_axis_angle_rotates_counter_clockwise),
          T(quat_mul_applies_right_operand_first),
          T(quat_normalize_gives_unit_length_and_identity_for_zero),
          T(quat_slerp_halfway_is_half_the_angle), T(quat_slerp_takes_the_shorter_arc),
          T(look_at_maps_eye_to_origin_and_target_onto_negative_z),
          T(look_at_keeps_world_up_pointing_up), T(look_at_with_degenerate_input_is_identity),
          T(perspective_maps_near_plane_to_depth_one),
          T(perspective_depth_falls_towards_zero_with_distance),
          T(perspective_puts_field_of_view_edge_at_ndc_one),
          T(perspective_with_invalid_parameters_is_identity),
          T(orthographic_maps_near_to_one_and_far_to_zero),
          T(orthographic_maps_box_edges_to_ndc_edges), T(mat4_mul_vec4_keeps_w))
