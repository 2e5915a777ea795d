/* kiln_mesh_data on the CPU: allocation, each validation rule with its message, area-weighted
 * normals, bounds, morph targets, and the cube, sphere and plane primitives. */
#include <kiln/geometry/mesh_data.h>

#include "test.h"

/* Two triangles forming a unit square in the XY plane, valid in every respect. */
static void make_square(kiln_mesh_data *md, uint32_t flags) {
    kiln_mesh_data_init(md, 4, 6, flags, NULL);
    const kiln_vec3 p[4] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    const uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
    for (int v = 0; v < 4; v++) {
        md->positions[v] = p[v];
        md->normals[v] = kiln_vec3_make(0, 0, 1);
        md->uv0[v] = (kiln_vec2){p[v].x, 1.0f - p[v].y};
    }
    memcpy(md->indices, idx, sizeof idx);
}

/* Validates md and returns the message ("" when it passed). */
static const char *validation_message(const kiln_mesh_data *md) {
    static kiln_error err;
    kiln_error_clear(&err);
    if (kiln_mesh_data_validate(md, &err)) return "";
    return err.message;
}

/* ---- init and ownership ---------------------------------------------------------------------- */

TEST(init_allocates_required_streams_and_only_the_optional_ones_asked_for) {
    kiln_mesh_data md;
    CHECK(kiln_mesh_data_init(&md, 3, 3, KILN_MESH_UV1, NULL));
    bool required = md.positions && md.normals && md.uv0 && md.indices;
    bool optional = md.uv1 && !md.tangents && !md.joints && !md.weights;
    kiln_mesh_data_free(&md);
    CHECK(required && optional);
    CHECK(md.positions == NULL && md.vertex_count == 0); /* free zeroes the struct */

    CHECK(kiln_mesh_data_init(&md, 3, 3, KILN_MESH_TANGENTS | KILN_MESH_SKIN, NULL));
    optional = md.tangents && md.joints && md.weights && !md.uv1;
    bool skinned = kiln_mesh_data_has_skin(&md);
    kiln_mesh_data_free(&md);
    CHECK(optional && skinned);
}

TEST(init_refuses_zero_counts_and_unknown_flags) {
    kiln_mesh_data md;
    kiln_error err = {0};
    CHECK(!kiln_mesh_data_init(&md, 0, 3, 0, &err));
    CHECK_STR_CONTAINS(err.message, "mesh: init with 0 vertices and 3 indices");
    CHECK(md.positions == NULL);
    CHECK(!kiln_mesh_data_init(&md, 3, 3, 0x100, &err));
    CHECK_STR_CONTAINS(err.message, "mesh: unknown stream flags 0x100");
    CHECK(md.positions == NULL);
}

TEST(morph_targets_stop_at_eight) {
    kiln_mesh_data md;
    make_square(&md, 0);
    kiln_error err = {0};
    bool all_added = true, zeroed = true;
    for (int t = 0; t < KILN_MAX_MORPH_TARGETS; t++) {
        kiln_morph_target *mt = kiln_mesh_data_add_morph_target(&md, &err);
        all_added = all_added && mt && mt->position_deltas && mt->normal_deltas;
        zeroed = zeroed && mt && mt->position_deltas[3].x == 0.0f && mt->normal_deltas[3].z == 0.0f;
    }
    kiln_morph_target *ninth = kiln_mesh_data_add_morph_target(&md, &err);
    uint32_t count = md.morph_target_count;
    kiln_mesh_data_free(&md); /* releases all eight */
    CHECK(all_added && zeroed);
    CHECK(ninth == NULL);
    CHECK_EQ_INT(count, 8);
    CHECK_STR_CONTAINS(err.message, "mesh: already 8 morph targets, at most 8");
}

/* ---- validation: one test per rule ------------------------------------------------------------- */

TEST(a_complete_mesh_validates) {
    kiln_mesh_data md;
    make_square(&md, KILN_MESH_TANGENTS | KILN_MESH_UV1 | KILN_MESH_SKIN);
    const char *msg = validation_message(&md);
    kiln_mesh_data_free(&md);
    CHECK_MSG(msg[0] == '\0', "%s", msg);
}

TEST(validate_requires_vertices) {
    kiln_mesh_data md = {0};
    CHECK_STR_CONTAINS(validation_message(&md), "mesh: no vertices");
    CHECK_STR_CONTAINS(validation_message(NULL), "mesh: no vertices");
}

TEST(validate_requires_positions_normals_and_uv0) {
    kiln_mesh_data md;
    make_square(&md, 0);
    kiln_vec3 *positions = md.positions, *normals = md.normals;
    kiln_vec2 *uv0 = md.uv0;
    char messages[3][512];
    md.positions = NULL;
    snprintf(messages[0], sizeof messages[0], "%s", validation_message(&md));
    md.positions = positions, md.normals = NULL;
    snprintf(messages[1], sizeof messages[1], "%s", validation_message(&md));
    md.normals = normals, md.uv0 = NULL;
    snprintf(messages[2], sizeof messages[2], "%s", validation_message(&md));
    md.uv0 = uv0;
    kiln_mesh_data_free(&md);
    CHECK_STR_CONTAINS(messages[0], "mesh: positions missing for the 4 vertices");
    CHECK_STR_CONTAINS(messages[1], "mesh: normals missing for the 4 vertices");
    CHECK_STR_CONTAINS(messages[2], "mesh: uv0 missing for the 4 vertices");
}

TEST(validate_requires_joints_and_weights_as_a_pair) {
    kiln_mesh_data md;
    make_square(&md, KILN_MESH_SKIN);
    kiln_vec4 *weights = md.weights;
    kiln_joints4 *joints = md.joints;
    md.weights = NULL;
    char without_weights[512];
    snprintf(without_weights, sizeof without_weights, "%s", validation_message(&md));
    bool skinned = kiln_mesh_data_has_skin(&md);
    md.weights = weights, md.joints = NULL;
    const char *without_joints = validation_message(&md);
    md.joints = joints;
    kiln_mesh_data_free(&md);
    CHECK_STR_CONTAINS(without_weights, "mesh: joints and weights are a pair: joints given without weights");
    CHECK_STR_CONTAINS(without_joints, "mesh: joints and weights are a pair: weights given without joints");
    CHECK(!skinned);
}

TEST(validate_caps_morph_targets) {
    kiln_mesh_data md;
    make_square(&md, 0);
    md.morph_target_count = 9;
    const char *msg = validation_message(&md);
    md.morph_target_count = 0;
    kiln_mesh_data_free(&md);
    CHECK_STR_CONTAINS(msg, "mesh: 9 morph targets, at most 8");
}

TEST(validate_requires_indices) {
    kiln_mesh_data md;
    make_square(&md, 0);
    md.index_count = 0;
    const char *msg = validation_message(&md);
    kiln_mesh_data_free(&md);
    CHECK_STR_CONTAINS(msg, "mesh: no indices");
}

TEST(validate_requires_whole_triangles) {
    kiln_mesh_data md;
    make_square(&md, 0);
    md.index_count = 5;
    const char *msg = validation_message(&md);
    kiln_mesh_data_free(&md);
    CHECK_STR_CONTAINS(msg, "mesh: 5 indices is not a multiple of 3 (triangle list)");
}

TEST(validate_names_the_first_index_past_the_vertices) {
    kiln_mesh_data md;
    kiln_mesh_data_init(&md, 8, 9, 0, NULL);
    for (uint32_t i = 0; i < 9; i++) md.indices[i] = i % 8;
    md.indices[7] = 12;
    md.indices[8] = 8;
    const char *msg = validation_message(&md);
    kiln_mesh_data_free(&md);
    CHECK_STR_CONTAINS(msg, "mesh: index 7 is 12, past the 8 vertices");
}

TEST(validate_requires_finite_positions) {
    kiln_mesh_data md;
    make_square(&md, 0);
    md.positions[3].y = NAN;
    const char *msg = validation_message(&md);
    kiln_mesh_data_free(&md);
    CHECK_STR_CONTAINS(msg, "mesh: position of vertex 3 is not finite (0, nan, 0)");
}

/* ---- normals ------------------------------------------------------------------------------------ */

/* A box of 24 vertices (four per face, like a cube with hard edges) whose normals are cleared;
 * computing them must give back each face's outward normal. */
TEST(computed_normals_of_a_hard_edged_box_are_its_face_normals) {
    kiln_mesh_data md;
    CHECK(kiln_mesh_cube(&md, 0.5f, NULL));
    kiln_vec3 expected[24];
    memcpy(expected, md.normals, sizeof expected);
    memset(md.normals, 0, 24 * sizeof *md.normals);
    kiln_error err = {0};
    bool ok = kiln_mesh_data_compute_normals(&md, &err);
    kiln_vec3 got[24];
    memcpy(got, md.normals, sizeof got);
    kiln_mesh_data_free(&md);
    CHECK_MSG(ok, "%s", err.message);
    for (int v = 0; v < 24; v++)
        CHECK_MSG(kiln_vec3_dot(got[v], expected[v]) > 0.99999f, "vertex %d: (%g %g %g) vs (%g %g %g)", v, got[v].x,
                  got[v].y, got[v].z, expected[v].x, expected[v].y, expected[v].z);
    /* the six faces really are different */
    CHECK(kiln_vec3_dot(expected[0], expected[4]) < 0.5f);
}

TEST(computed_normals_of_a_sphere_point_outward) {
    kiln_mesh_data md;
    CHECK(kiln_mesh_uv_sphere(&md, 2.0f, 12, 24, NULL));
    CHECK(kiln_mesh_data_compute_normals(&md, NULL));
    float worst = 1.0f;
    for (uint32_t v = 0; v < md.vertex_count; v++) {
        kiln_vec3 outward = kiln_vec3_normalize(md.positions[v]);
        float d = kiln_vec3_dot(md.normals[v], outward);
        if (d < worst) worst = d;
    }
    kiln_mesh_data_free(&md);
    /* Seam and pole vertices see only part of their ring, so they tilt a little. */
    CHECK_MSG(worst > 0.95f, "worst dot %g", worst);
}

TEST(computed_normals_weight_faces_by_area) {
    /* Vertex 0 is shared by a large triangle facing +Z and a small one facing +X. */
    kiln_mesh_data md;
    kiln_mesh_data_init(&md, 5, 6, 0, NULL);
    const kiln_vec3 p[5] = {{0, 0, 0}, {4, 0, 0}, {0, 4, 0}, {0, 0.5f, 0}, {0, 0, -0.5f}};
    const uint32_t idx[6] = {0, 1, 2, 0, 4, 3};
    memcpy(md.positions, p, sizeof p);
    memcpy(md.indices, idx, sizeof idx);
    CHECK(kiln_mesh_data_compute_normals(&md, NULL));
    kiln_vec3 n = md.normals[0];
    kiln_mesh_data_free(&md);
    /* Areas 8 and 0.125: the sum (0.25, 0, 16) normalised. */
    CHECK_NEAR(n.x, 0.25 / sqrt(0.25 * 0.25 + 16.0 * 16.0), 1e-5);
    CHECK_NEAR(n.z, 16.0 / sqrt(0.25 * 0.25 + 16.0 * 16.0), 1e-5);
}

TEST(a_vertex_no_triangle_uses_gets_an_up_normal) {
    kiln_mesh_data md;
    kiln_mesh_data_init(&md, 4, 3, 0, NULL);
    const kiln_vec3 p[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {5, 5, 5}};
    memcpy(md.positions, p, sizeof p);
    md.indices[0] = 0, md.indices[1] = 1, md.indices[2] = 2;
    CHECK(kiln_mesh_data_compute_normals(&md, NULL));
    kiln_vec3 n = md.normals[3];
    kiln_mesh_data_free(&md);
    CHECK(n.x == 0.0f && n.y == 1.0f && n.z == 0.0f);
}

TEST(compute_normals_refuses_an_invalid_mesh_and_changes_nothing) {
    kiln_mesh_data md;
    make_square(&md, 0);
    free(md.normals);
    md.normals = NULL;
    md.indices[2] = 4;
    kiln_error err = {0};
    bool ok = kiln_mesh_data_compute_normals(&md, &err);
    bool untouched = md.normals == NULL;
    kiln_mesh_data_free(&md);
    CHECK(!ok && untouched);
    CHECK_STR_CONTAINS(err.message, "mesh: index 2 is 4, past the 4 vertices");
}

/* ---- copies --------------------------------------------------------------------------------------- */

TEST(copy_duplicates_every_stream_and_morph_target) {
    kiln_mesh_data md, copy;
    make_square(&md, KILN_MESH_TANGENTS | KILN_MESH_UV1 | KILN_MESH_SKIN);
    kiln_morph_target *t = kiln_mesh_data_add_morph_target(&md, NULL);
    CHECK(t);
    t->position_deltas[3] = kiln_vec3_make(0.5f, 0, 0);
    free(t->normal_deltas);
    t->normal_deltas = NULL;
    md.uv1[2] = (kiln_vec2){7, 8};
    md.joints[1].j[2] = 9;
    kiln_error err = {0};
    bool ok = kiln_mesh_data_copy(&copy, &md, &err);
    bool distinct = copy.positions != md.positions && copy.indices != md.indices;
    kiln_mesh_data_free(&md); /* the copy owns its own arrays */
    CHECK_MSG(ok, "%s", err.message);
    bool same = copy.vertex_count == 4 && copy.index_count == 6 && copy.positions[2].y == 1.0f &&
                copy.normals[0].z == 1.0f && copy.tangents && copy.uv1[2].y == 8.0f && copy.joints[1].j[2] == 9 &&
                copy.weights && copy.indices[5] == 3 && copy.morph_target_count == 1 &&
                copy.morph_targets[0].position_deltas[3].x == 0.5f && !copy.morph_targets[0].normal_deltas;
    kiln_mesh_data_free(&copy);
    CHECK(distinct);
    CHECK(same);
}

TEST(copy_refuses_an_invalid_mesh_and_leaves_the_destination_zeroed) {
    kiln_mesh_data md, copy;
    make_square(&md, 0);
    md.indices[4] = 11;
    memset(&copy, 0xAB, sizeof copy);
    kiln_error err = {0};
    bool ok = kiln_mesh_data_copy(&copy, &md, &err);
    kiln_mesh_data_free(&md);
    CHECK(!ok);
    CHECK(copy.vertex_count == 0 && !copy.positions && !copy.indices);
    CHECK_STR_CONTAINS(err.message, "mesh: index 4 is 11, past the 4 vertices");
}

/* ---- bounds ------------------------------------------------------------------------------------- */

TEST(bounds_are_the_box_and_the_farthest_vertex_from_its_centre) {
    kiln_mesh_data md;
    kiln_mesh_data_init(&md, 3, 3, 0, NULL);
    const kiln_vec3 p[3] = {{-1, 0, 2}, {3, 2, 2}, {1, -2, 4}};
    memcpy(md.positions, p, sizeof p);
    kiln_mesh_bounds b = kiln_mesh_data_bounds(&md);
    kiln_mesh_data_free(&md);
    CHECK(b.min.x == -1 && b.min.y == -2 && b.min.z == 2);
    CHECK(b.max.x == 3 && b.max.y == 2 && b.max.z == 4);
    CHECK(b.center.x == 1 && b.center.y == 0 && b.center.z == 3);
    /* (-1,0,2) and (3,2,2) are sqrt(4+4+1) = 3 from the centre, (1,-2,4) sqrt(5); the box's half
     * diagonal would be sqrt(9). */
    CHECK_NEAR(b.radius, 3.0, 1e-6);
}

TEST(morph_targets_widen_the_bounds) {
    kiln_mesh_data md;
    make_square(&md, 0);
    kiln_morph_target *up = kiln_mesh_data_add_morph_target(&md, NULL);
    kiln_morph_target *down = kiln_mesh_data_add_morph_target(&md, NULL);
    CHECK(up && down);
    up->position_deltas[2] = kiln_vec3_make(0, 0, 3);
    down->position_deltas[0] = kiln_vec3_make(0, 0, -1);
    kiln_mesh_bounds b = kiln_mesh_data_bounds(&md);
    kiln_mesh_data_free(&md);
    CHECK(b.min.z == -1.0f && b.max.z == 3.0f);
    CHECK(b.min.x == 0.0f && b.max.x == 1.0f);
    CHECK(b.center.z == 1.0f);
    /* vertex 2 at (1,1,0) is sqrt(0.5 + 1) from (0.5,0.5,1), plus its reach of 3 */
    CHECK_NEAR(b.radius, sqrt(1.5) + 3.0, 1e-5);
}

/* ---- primitives ----------------------------------------------------------------------------------- */

/* Every triangle's winding normal points the way its vertices' normals do (outward). */
static bool winds_ccw_from_outside(const kiln_mesh_data *md, uint32_t *bad) {
    for (uint32_t i = 0; i < md->index_count; i += 3) {
        const uint32_t *t = &md->indices[i];
        kiln_vec3 a = md->positions[t[0]];
        kiln_vec3 face = kiln_vec3_cross(kiln_vec3_sub(md->positions[t[1]], a), kiln_vec3_sub(md->positions[t[2]], a));
        kiln_vec3 outward = kiln_vec3_add(kiln_vec3_add(md->normals[t[0]], md->normals[t[1]]), md->normals[t[2]]);
        if (!(kiln_vec3_dot(face, outward) > 0.0f)) {
            *bad = i / 3;
            return false;
        }
    }
    return true;
}

static bool uvs_in_unit_square(const kiln_mesh_data *md) {
    for (uint32_t v = 0; v < md->vertex_count; v++)
        if (md->uv0[v].x < 0 || md->uv0[v].x > 1 || md->uv0[v].y < 0 || md->uv0[v].y > 1) return false;
    return true;
}

/* Tangents present, unit, perpendicular to the normal, with w = +-1. */
static bool tangents_well_formed(const kiln_mesh_data *md) {
    if (!md->tangents) return false;
    for (uint32_t v = 0; v < md->vertex_count; v++) {
        kiln_vec3 t = {md->tangents[v].x, md->tangents[v].y, md->tangents[v].z};
        if (fabsf(kiln_vec3_length(t) - 1.0f) > 1e-4f || fabsf(kiln_vec3_dot(t, md->normals[v])) > 1e-4f) return false;
        if (md->tangents[v].w != 1.0f && md->tangents[v].w != -1.0f) return false;
    }
    return true;
}

TEST(cube_has_24_vertices_wound_ccw_from_outside) {
    kiln_mesh_data md;
    kiln_error err = {0};
    CHECK_MSG(kiln_mesh_cube(&md, 0.5f, &err), "%s", err.message);
    uint32_t bad = 0;
    bool ccw = winds_ccw_from_outside(&md, &bad);
    bool valid = kiln_mesh_data_validate(&md, NULL), uvs = uvs_in_unit_square(&md), tangents = tangents_well_formed(&md);
    kiln_mesh_bounds b = kiln_mesh_data_bounds(&md);
    uint32_t vertices = md.vertex_count, indices = md.index_count;
    /* An upright texture on every face: tangent along +u with w = +1. */
    bool right_handed = true;
    for (uint32_t v = 0; v < vertices; v++) right_handed = right_handed && md.tangents[v].w == 1.0f;
    kiln_mesh_data_free(&md);
    CHECK_EQ_INT(vertices, 24);
    CHECK_EQ_INT(indices, 36);
    CHECK_MSG(ccw, "triangle %u winds inward", bad);
    CHECK(valid && uvs && tangents && right_handed);
    CHECK(b.min.x == -0.5f && b.max.y == 0.5f);
}

TEST(uv_sphere_lies_on_its_radius_wound_ccw_from_outside) {
    kiln_mesh_data md;
    CHECK(kiln_mesh_uv_sphere(&md, 1.5f, 8, 16, NULL));
    uint32_t bad = 0;
    bool ccw = winds_ccw_from_outside(&md, &bad);
    bool valid = kiln_mesh_data_validate(&md, NULL), uvs = uvs_in_unit_square(&md), tangents = tangents_well_formed(&md);
    bool on_radius = true, normals_outward = true;
    for (uint32_t v = 0; v < md.vertex_count; v++) {
        on_radius = on_radius && fabsf(kiln_vec3_length(md.positions[v]) - 1.5f) < 1e-5f;
        normals_outward = normals_outward && kiln_vec3_dot(md.normals[v], md.positions[v]) > 1.49f;
    }
    uint32_t vertices = md.vertex_count, indices = md.index_count;
    kiln_mesh_bounds b = kiln_mesh_data_bounds(&md);
    kiln_mesh_data_free(&md);
    CHECK_EQ_INT(vertices, 2 * 16 + 7 * 17);
    CHECK_EQ_INT(indices, 6 * 16 * 7);
    CHECK_MSG(ccw, "triangle %u winds inward", bad);
    CHECK(valid && uvs && tangents && on_radius && normals_outward);
    CHECK_NEAR(b.radius, 1.5, 1e-4);
}

TEST(uv_sphere_faces_its_texture_centre_to_plus_z) {
    kiln_mesh_data md;
    CHECK(kiln_mesh_uv_sphere(&md, 1.0f, 4, 4, NULL));
    /* after the 4 north pole vertices and ring 1's 5, ring 2 is the equator; its segment 2 of
     * 4 is u = 0.5 */
    kiln_vec3 p = md.positions[4 + 5 + 2];
    kiln_vec2 uv = md.uv0[4 + 5 + 2];
    kiln_vec4 t = md.tangents[4 + 5 + 2];
    kiln_mesh_data_free(&md);
    CHECK_NEAR(p.z, 1.0, 1e-6);
    CHECK(uv.x == 0.5f && uv.y == 0.5f);
    CHECK_NEAR(t.x, 1.0, 1e-5); /* u grows towards +X there: the texture reads left to right */
    CHECK(t.w == 1.0f);
}

TEST(plane_faces_plus_y_on_xz_wound_ccw_from_above) {
    kiln_mesh_data md;
    CHECK(kiln_mesh_plane(&md, 8.0f, 4, NULL));
    uint32_t bad = 0;
    bool ccw = winds_ccw_from_outside(&md, &bad);
    bool valid = kiln_mesh_data_validate(&md, NULL), uvs = uvs_in_unit_square(&md), tangents = tangents_well_formed(&md);
    bool flat_up = true, tangent_x = true;
    for (uint32_t v = 0; v < md.vertex_count; v++) {
        flat_up = flat_up && md.positions[v].y == 0.0f && md.normals[v].y == 1.0f;
        tangent_x = tangent_x && fabsf(md.tangents[v].x - 1.0f) < 1e-5f && md.tangents[v].w == 1.0f;
    }
    uint32_t vertices = md.vertex_count, indices = md.index_count;
    kiln_mesh_bounds b = kiln_mesh_data_bounds(&md);
    kiln_mesh_data_free(&md);
    CHECK_EQ_INT(vertices, 25);
    CHECK_EQ_INT(indices, 96);
    CHECK_MSG(ccw, "triangle %u faces down", bad);
    CHECK(valid && uvs && tangents && flat_up && tangent_x);
    CHECK(b.min.x == -8.0f && b.max.z == 8.0f);
}

TEST(primitives_refuse_bad_sizes_and_counts) {
    kiln_mesh_data md;
    kiln_error err = {0};
    CHECK(!kiln_mesh_cube(&md, 0.0f, &err));
    CHECK_STR_CONTAINS(err.message, "cube: half_extent must be positive and finite, got 0");
    CHECK(!kiln_mesh_uv_sphere(&md, 1.0f, 1, 8, &err));
    CHECK_STR_CONTAINS(err.message, "uv_sphere: rings is 1, must be 2 to 4096");
    CHECK(!kiln_mesh_uv_sphere(&md, 1.0f, 4, 2, &err));
    CHECK_STR_CONTAINS(err.message, "uv_sphere: segments is 2, must be 3 to 4096");
    CHECK(!kiln_mesh_plane(&md, NAN, 1, &err));
    CHECK_STR_CONTAINS(err.message, "plane: half_extent must be positive and finite, got nan");
    CHECK(!kiln_mesh_plane(&md, 1.0f, 0, &err));
    CHECK_STR_CONTAINS(err.message, "plane: subdivisions is 0, must be 1 to 4096");
}

TEST_MAIN(T(init_allocates_required_streams_and_only_the_optional_ones_asked_for),
          T(init_refuses_zero_counts_and_unknown_flags),
          T(morph_targets_stop_at_eight),
          T(a_complete_mesh_validates),
          T(validate_requires_vertices),
          T(validate_requires_positions_normals_and_uv0),
          T(validate_requires_joints_and_weights_as_a_pair),
          T(validate_caps_morph_targets),
          T(validate_requires_indices),
          T(validate_requires_whole_triangles),
          T(validate_names_the_first_index_past_the_vertices),
          T(validate_requires_finite_positions),
          T(computed_normals_of_a_hard_edged_box_are_its_face_normals),
          T(computed_normals_of_a_sphere_point_outward),
          T(computed_normals_weight_faces_by_area),
          T(a_vertex_no_triangle_uses_gets_an_up_normal),
          T(compute_normals_refuses_an_invalid_mesh_and_changes_nothing),
          T(copy_duplicates_every_stream_and_morph_target),
          T(copy_refuses_an_invalid_mesh_and_leaves_the_destination_zeroed),
          T(bounds_are_the_box_and_the_farthest_vertex_from_its_centre),
          T(morph_targets_widen_the_bounds),
          T(cube_has_24_vertices_wound_ccw_from_outside),
          T(uv_sphere_lies_on_its_radius_wound_ccw_from_outside),
          T(uv_sphere_faces_its_texture_centre_to_plus_z),
          T(plane_faces_plus_y_on_xz_wound_ccw_from_above),
          T(primitives_refuse_bad_sizes_and_counts))
