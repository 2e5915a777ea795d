/* kiln_mesh_data_build_lods on the CPU: levels that halve the triangles within the error bound,
 * one index array holding every level, the triangle threshold, the early stop, vertex streams
 * that stay consistent through the reorder, and a refused mesh left as it was.
 *
 * The dense test sphere (32 rings x 64 segments, 3968 triangles) is one the 2% bound lets the
 * simplifier halve three times, so every level reaches its target. */
#include <kiln/geometry/mesh_data.h>

#include "test.h"

#define SPHERE_RINGS 32
#define SPHERE_SEGMENTS 64

static bool dense_sphere(kiln_mesh_data *md) {
    return kiln_mesh_uv_sphere(md, 1.0f, SPHERE_RINGS, SPHERE_SEGMENTS, NULL);
}

/* ---- levels ------------------------------------------------------------------------------------ */

/* The simplifier stops at the first collapse pass that reaches its target, and a collapse removes
 * two triangles (a few more where it closes a fan), so a level that the error bound does not stop
 * lands at or just below half the triangles of the level before: 5% below is the margin. */
#define HALVING_MARGIN 0.05

TEST(each_level_halves_the_triangles_of_the_one_before) {
    kiln_mesh_data md = {0};
    kiln_mesh_lod lods[KILN_MESH_MAX_LODS];
    kiln_error err = {0};
    CHECK(dense_sphere(&md));
    uint32_t full = md.index_count / 3;
    uint32_t count = kiln_mesh_data_build_lods(&md, lods, &err);
    kiln_mesh_data_free(&md);
    CHECK_MSG(count == KILN_MESH_MAX_LODS, "%u levels: %s", count, err.message);
    CHECK_EQ_INT(lods[0].index_count / 3, full);
    for (uint32_t k = 1; k < count; k++) {
        uint32_t target = lods[k - 1].index_count / 3 / 2, got = lods[k].index_count / 3;
        CHECK_MSG(got <= target && got >= target * (1.0 - HALVING_MARGIN), "level %u: %u triangles, target %u", k, got,
                  target);
    }
}

TEST(every_level_stays_within_the_error_bound) {
    kiln_mesh_data md = {0};
    kiln_mesh_lod lods[KILN_MESH_MAX_LODS];
    CHECK(dense_sphere(&md));
    uint32_t count = kiln_mesh_data_build_lods(&md, lods, NULL);
    /* meshoptimizer's own measure (relative to the extent, 2 m here) for each level, and an
     * independent one: how far inside the unit sphere each triangle's centroid sinks. The
     * simplifier's measure is an area-weighted mean of squared distances to the original planes,
     * so the flattest spot of a large triangle may sink further than it says: twice the bound
     * holds that (the worst seen on this sphere is 1.6 times). */
    double reported[KILN_MESH_MAX_LODS] = {0}, sunk[KILN_MESH_MAX_LODS] = {0};
    for (uint32_t k = 0; k < count; k++) {
        reported[k] = lods[k].error;
        for (uint32_t t = 0; t < lods[k].index_count; t += 3) {
            const uint32_t *tri = md.indices + lods[k].first_index + t;
            kiln_vec3 c = kiln_vec3_scale(
                kiln_vec3_add(md.positions[tri[0]], kiln_vec3_add(md.positions[tri[1]], md.positions[tri[2]])), 1.0f / 3.0f);
            double depth = (1.0 - kiln_vec3_length(c)) / 2.0;
            if (depth > sunk[k]) sunk[k] = depth;
        }
    }
    kiln_mesh_data_free(&md);
    CHECK_EQ_INT(count, KILN_MESH_MAX_LODS);
    CHECK_NEAR(reported[0], 0.0, 0.0);
    for (uint32_t k = 1; k < count; k++) {
        CHECK_MSG(reported[k] > 0.0 && reported[k] <= KILN_MESH_LOD_MAX_ERROR, "level %u reports %g", k, reported[k]);
        CHECK_MSG(sunk[k] <= 2.0 * KILN_MESH_LOD_MAX_ERROR, "level %u sinks %g of the extent", k, sunk[k]);
    }
}

TEST(every_level_lies_in_one_index_array_back_to_back) {
    kiln_mesh_data md = {0};
    kiln_mesh_lod lods[KILN_MESH_MAX_LODS];
    CHECK(dense_sphere(&md));
    uint32_t count = kiln_mesh_data_build_lods(&md, lods, NULL);
    uint32_t next = 0, past = 0;
    bool contiguous = count > 1;
    for (uint32_t k = 0; k < count; k++) {
        contiguous = contiguous && lods[k].first_index == next && lods[k].index_count % 3 == 0;
        next = lods[k].first_index + lods[k].index_count;
    }
    for (uint32_t i = 0; i < md.index_count; i++)
        if (md.indices[i] >= md.vertex_count) past++;
    uint32_t index_count = md.index_count;
    kiln_mesh_data_free(&md);
    CHECK(contiguous);
    CHECK_EQ_INT(next, index_count);
    CHECK_EQ_INT(past, 0);
}

TEST(a_mesh_of_64_triangles_or_fewer_keeps_one_level_unchanged) {
    static const struct { const char *name; uint32_t rings, segments, triangles; } rows[] = {
        {"lods-small-1", 2, 32, 64}, /* exactly the threshold */
        {"lods-small-2", 2, 3, 6},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        kiln_mesh_data md = {0}, before = {0};
        kiln_mesh_lod lods[KILN_MESH_MAX_LODS];
        CHECK(kiln_mesh_uv_sphere(&md, 1.0f, rows[i].rings, rows[i].segments, NULL));
        CHECK(kiln_mesh_data_copy(&before, &md, NULL));
        uint32_t count = kiln_mesh_data_build_lods(&md, lods, NULL);
        bool same = md.vertex_count == before.vertex_count && md.index_count == before.index_count &&
                    !memcmp(md.indices, before.indices, md.index_count * sizeof *md.indices) &&
                    !memcmp(md.positions, before.positions, md.vertex_count * sizeof *md.positions);
        uint32_t triangles = md.index_count / 3;
        kiln_mesh_data_free(&md);
        kiln_mesh_data_free(&before);
        CHECK_MSG(triangles == rows[i].triangles, "%s: %u triangles", rows[i].name, triangles);
        CHECK_MSG(count == 1, "%s: %u levels", rows[i].name, count);
        CHECK_MSG(lods[0].first_index == 0 && lods[0].index_count == triangles * 3, "%s", rows[i].name);
        CHECK_MSG(same, "%s: the mesh changed", rows[i].name);
    }
}

TEST(a_level_the_simplifier_cannot_halve_ends_the_build) {
    /* 224 triangles on a coarse sphere: halving it would bend the surface past 2%, so the
     * simplifier stops well short of 112 triangles and the build keeps level 0 alone. */
    kiln_mesh_data md = {0};
    kiln_mesh_lod lods[KILN_MESH_MAX_LODS];
    CHECK(kiln_mesh_uv_sphere(&md, 1.0f, 8, 16, NULL));
    uint32_t triangles = md.index_count / 3, count = kiln_mesh_data_build_lods(&md, lods, NULL);
    kiln_mesh_data_free(&md);
    CHECK_EQ_INT(triangles, 224);
    CHECK_EQ_INT(count, 1);
}

/* ---- the vertex reorder ------------------------------------------------------------------------ */

/* Gives every stream of every vertex a value of its own (a function of the vertex number), so a
 * vertex whose streams were not moved together matches no original vertex. */
static bool sphere_with_every_stream(kiln_mesh_data *md) {
    kiln_mesh_data base = {0};
    if (!dense_sphere(&base)) return false;
    bool ok = kiln_mesh_data_init(md, base.vertex_count, base.index_count, KILN_MESH_TANGENTS | KILN_MESH_UV1 | KILN_MESH_SKIN,
                                  NULL) &&
              kiln_mesh_data_add_morph_target(md, NULL) && kiln_mesh_data_add_morph_target(md, NULL);
    if (ok) {
        memcpy(md->indices, base.indices, base.index_count * sizeof *base.indices);
        for (uint32_t v = 0; v < base.vertex_count; v++) {
            float f = (float)v;
            md->positions[v] = base.positions[v];
            md->normals[v] = base.normals[v];
            md->uv0[v] = base.uv0[v];
            md->tangents[v] = base.tangents[v];
            md->uv1[v] = (kiln_vec2){f, -f};
            md->joints[v] = (kiln_joints4){{(uint16_t)v, (uint16_t)(v + 1), (uint16_t)(v + 2), (uint16_t)(v + 3)}};
            md->weights[v] = kiln_vec4_make(f, f + 0.25f, f + 0.5f, f + 0.75f);
            md->morph_targets[0].position_deltas[v] = kiln_vec3_make(f, 0, 0);
            md->morph_targets[0].normal_deltas[v] = kiln_vec3_make(0, f, 0);
            md->morph_targets[1].position_deltas[v] = kiln_vec3_make(0, 0, f);
            md->morph_targets[1].normal_deltas[v] = kiln_vec3_make(f, f, 0);
        }
    }
    kiln_mesh_data_free(&base);
    return ok;
}

/* The original vertex the reordered vertex v came from, found by uv1 (unique per vertex), and
 * whether every other stream of it matches that vertex's. */
static bool streams_match(const kiln_mesh_data *a, uint32_t v, const kiln_mesh_data *b, uint32_t *from) {
    uint32_t o = (uint32_t)a->uv1[v].x;
    *from = o;
    if (o >= b->vertex_count) return false;
    bool same = !memcmp(&a->positions[v], &b->positions[o], sizeof(kiln_vec3)) &&
                !memcmp(&a->normals[v], &b->normals[o], sizeof(kiln_vec3)) &&
                !memcmp(&a->tangents[v], &b->tangents[o], sizeof(kiln_vec4)) &&
                !memcmp(&a->uv0[v], &b->uv0[o], sizeof(kiln_vec2)) && !memcmp(&a->uv1[v], &b->uv1[o], sizeof(kiln_vec2)) &&
                !memcmp(&a->joints[v], &b->joints[o], sizeof(kiln_joints4)) &&
                !memcmp(&a->weights[v], &b->weights[o], sizeof(kiln_vec4));
    for (uint32_t t = 0; t < 2; t++) {
        same = same && !memcmp(&a->morph_targets[t].position_deltas[v], &b->morph_targets[t].position_deltas[o],
                               sizeof(kiln_vec3));
        same = same && !memcmp(&a->morph_targets[t].normal_deltas[v], &b->morph_targets[t].normal_deltas[o],
                               sizeof(kiln_vec3));
    }
    return same;
}

TEST(the_vertex_reorder_moves_every_stream_together) {
    kiln_mesh_data md = {0}, original = {0};
    kiln_mesh_lod lods[KILN_MESH_MAX_LODS];
    CHECK(sphere_with_every_stream(&md));
    CHECK(kiln_mesh_data_copy(&original, &md, NULL));
    uint32_t count = kiln_mesh_data_build_lods(&md, lods, NULL);
    uint32_t mismatched = UINT32_MAX, moved = 0;
    for (uint32_t v = 0; v < md.vertex_count && mismatched == UINT32_MAX; v++) {
        uint32_t from;
        if (!streams_match(&md, v, &original, &from)) mismatched = v;
        if (from != v) moved++;
    }
    uint32_t vertices = md.vertex_count;
    kiln_mesh_data_free(&md);
    kiln_mesh_data_free(&original);
    CHECK(count > 1);
    CHECK_EQ_INT(vertices, SPHERE_SEGMENTS * 2 + (SPHERE_RINGS - 1) * (SPHERE_SEGMENTS + 1)); /* every vertex used */
    CHECK_MSG(mismatched == UINT32_MAX, "vertex %u", mismatched);
    CHECK(moved > 0); /* the fetch order differs from the sphere's own */
}

/* The full-detail level draws the original triangles, each through the same corners in the
 * same order (so the winding is kept): only the order of the triangles changed. */
TEST(level_0_draws_the_original_triangles_with_their_winding) {
    kiln_mesh_data md = {0}, original = {0};
    kiln_mesh_lod lods[KILN_MESH_MAX_LODS];
    CHECK(sphere_with_every_stream(&md));
    CHECK(kiln_mesh_data_copy(&original, &md, NULL));
    CHECK(kiln_mesh_data_build_lods(&md, lods, NULL) > 1);
    uint32_t triangles = lods[0].index_count / 3, unmatched = 0;
    /* Each original triangle keyed by its first corner, which is unique per triangle only up to
     * the fans around a vertex, so all triangles sharing the corner are searched. */
    bool *used = calloc(triangles, sizeof *used);
    for (uint32_t t = 0; used && t < triangles; t++) {
        uint32_t c[3];
        for (int k = 0; k < 3; k++) c[k] = (uint32_t)md.uv1[md.indices[t * 3 + k]].x;
        bool found = false;
        for (uint32_t o = 0; o < triangles && !found; o++) {
            const uint32_t *q = original.indices + o * 3;
            for (int rot = 0; rot < 3 && !found; rot++)
                if (!used[o] && q[rot] == c[0] && q[(rot + 1) % 3] == c[1] && q[(rot + 2) % 3] == c[2]) found = used[o] = true;
        }
        if (!found) unmatched++;
    }
    bool allocated = used != NULL;
    free(used);
    kiln_mesh_data_free(&md);
    kiln_mesh_data_free(&original);
    CHECK(allocated);
    CHECK_EQ_INT(unmatched, 0);
}

TEST(normals_still_match_positions_on_a_reordered_sphere) {
    /* A unit sphere's normal is its position: any stream moved apart from the positions shows. */
    kiln_mesh_data md = {0};
    kiln_mesh_lod lods[KILN_MESH_MAX_LODS];
    CHECK(dense_sphere(&md));
    CHECK(kiln_mesh_data_build_lods(&md, lods, NULL) > 1);
    float worst = 0.0f;
    for (uint32_t v = 0; v < md.vertex_count; v++) {
        float d = kiln_vec3_length(kiln_vec3_sub(md.positions[v], md.normals[v]));
        if (d > worst) worst = d;
    }
    kiln_mesh_data_free(&md);
    CHECK_NEAR(worst, 0.0, 1e-5);
}

/* ---- refusals ------------------------------------------------------------------------------------ */

TEST(a_mesh_that_does_not_validate_is_refused_and_left_as_it_was) {
    kiln_mesh_data md = {0};
    kiln_mesh_lod lods[KILN_MESH_MAX_LODS];
    kiln_error err = {0};
    CHECK(dense_sphere(&md));
    md.indices[7] = md.vertex_count;
    uint32_t *indices = md.indices, vertices = md.vertex_count;
    uint32_t count = kiln_mesh_data_build_lods(&md, lods, &err);
    bool untouched = md.indices == indices && md.vertex_count == vertices;
    kiln_mesh_data_free(&md);
    CHECK_EQ_INT(count, 0);
    CHECK(untouched);
    CHECK_STR_CONTAINS(err.message, "mesh: index 7 is 2143, past the 2143 vertices");
    CHECK_EQ_INT(kiln_mesh_data_build_lods(&md, NULL, &err), 0);
    CHECK_STR_CONTAINS(err.message, "mesh: build_lods needs room for the levels");
}

TEST_MAIN(T(each_level_halves_the_triangles_of_the_one_before), T(every_level_stays_within_the_error_bound),
          T(every_level_lies_in_one_index_array_back_to_back), T(a_mesh_of_64_triangles_or_fewer_keeps_one_level_unchanged),
          T(a_level_the_simplifier_cannot_halve_ends_the_build), T(the_vertex_reorder_moves_every_stream_together),
          T(level_0_draws_the_original_triangles_with_their_winding), T(normals_still_match_positions_on_a_reordered_sphere),
          T(a_mesh_that_does_not_validate_is_refused_and_left_as_it_was))
