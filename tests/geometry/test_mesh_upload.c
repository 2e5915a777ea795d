/* The vertex streams byte for byte, and kiln_gpu_mesh: buffer sizes, GPU contents read back,
 * the LOD table, and that a refused or failed upload leaves nothing alive. */
#include <kiln/geometry/gpu_mesh.h>

#include "gfx_fixture.h"

/* A square of two triangles whose every attribute differs per vertex, so a value written at the
 * wrong offset or for the wrong vertex shows. */
static void make_distinct_square(kiln_mesh_data *md, uint32_t flags) {
    kiln_mesh_data_init(md, 4, 6, flags, NULL);
    const uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
    memcpy(md->indices, idx, sizeof idx);
    for (uint32_t v = 0; v < 4; v++) {
        float f = (float)v;
        md->positions[v] = kiln_vec3_make(f + 0.1f, f + 0.2f, f + 0.3f);
        md->normals[v] = kiln_vec3_make(f + 1.1f, f + 1.2f, f + 1.3f);
        md->uv0[v] = (kiln_vec2){f + 3.1f, f + 3.2f};
        if (md->tangents) md->tangents[v] = kiln_vec4_make(f + 2.1f, f + 2.2f, f + 2.3f, -1.0f);
        if (md->uv1) md->uv1[v] = (kiln_vec2){f + 4.1f, f + 4.2f};
        if (md->joints) md->joints[v] = (kiln_joints4){{(uint16_t)(v * 4), (uint16_t)(v * 4 + 1), (uint16_t)(v * 4 + 2), 65535}};
        if (md->weights) md->weights[v] = kiln_vec4_make(0.4f, 0.3f, 0.2f, f * 0.01f);
    }
}

static float float_at(const uint8_t *bytes, size_t offset) {
    float f;
    memcpy(&f, bytes + offset, sizeof f);
    return f;
}

static uint16_t u16_at(const uint8_t *bytes, size_t offset) {
    uint16_t u;
    memcpy(&u, bytes + offset, sizeof u);
    return u;
}

/* ---- layouts and packing ------------------------------------------------------------------------ */

TEST(vertex_layouts_describe_the_two_streams) {
    kiln_vertex_layout v = kiln_mesh_vertex_layout(), s = kiln_mesh_skin_layout();
    CHECK_EQ_INT(v.stride, 64);
    CHECK(!v.per_instance);
    CHECK_EQ_INT(v.attribute_count, 6);
    const struct { WGPUVertexFormat format; uint32_t offset, location; } expected[8] = {
        {WGPUVertexFormat_Float32x3, 0, 0},  {WGPUVertexFormat_Float32x3, 12, 1}, {WGPUVertexFormat_Float32x4, 24, 2},
        {WGPUVertexFormat_Float32x2, 40, 3}, {WGPUVertexFormat_Float32x2, 48, 4}, {WGPUVertexFormat_Unorm16x4, 56, 7},
        {WGPUVertexFormat_Uint16x4, 0, 5},   {WGPUVertexFormat_Float32x4, 8, 6},
    };
    for (int i = 0; i < 6; i++) {
        CHECK_EQ_INT(v.attributes[i].format, expected[i].format);
        CHECK_EQ_INT(v.attributes[i].offset, expected[i].offset);
        CHECK_EQ_INT(v.attributes[i].location, expected[i].location);
    }
    CHECK_EQ_INT(s.stride, 24);
    CHECK_EQ_INT(s.attribute_count, 2);
    for (int i = 0; i < 2; i++) {
        CHECK_EQ_INT(s.attributes[i].format, expected[6 + i].format);
        CHECK_EQ_INT(s.attributes[i].offset, expected[6 + i].offset);
        CHECK_EQ_INT(s.attributes[i].location, expected[6 + i].location);
    }
}

TEST(packed_vertices_put_each_attribute_at_its_offset) {
    kiln_mesh_data md;
    make_distinct_square(&md, KILN_MESH_TANGENTS | KILN_MESH_UV1 | KILN_MESH_COLORS);
    for (uint32_t v = 0; v < 4; v++) md.colors[v] = (kiln_vec4){0.0f, 0.5f, 1.0f, 2.0f}; /* 2 clamps to 1 */
    uint8_t bytes[4 * 64];
    size_t written = kiln_mesh_pack_vertices(&md, bytes, sizeof bytes);
    kiln_mesh_data_free(&md);
    CHECK_EQ_INT(written, 256);
    for (uint32_t v = 0; v < 4; v++) {
        const uint8_t *p = bytes + v * 64;
        float f = (float)v;
        const float expected[14] = {f + 0.1f, f + 0.2f, f + 0.3f, f + 1.1f, f + 1.2f, f + 1.3f, f + 2.1f,
                                    f + 2.2f, f + 2.3f, -1.0f,    f + 3.1f, f + 3.2f, f + 4.1f, f + 4.2f};
        /* 14 floats fill the first 56 bytes with no gaps: position 0, normal 12, tangent 24, uv0 40,
         * uv1 48; the colour's unorm16x4 follows at 56. */
        for (int k = 0; k < 14; k++) CHECK_MSG(float_at(p, (size_t)k * 4) == expected[k], "vertex %u float %d", v, k);
        CHECK(u16_at(p, 56) == 0 && u16_at(p, 58) == 32768 && u16_at(p, 60) == 65535 && u16_at(p, 62) == 65535);
    }
}

TEST(absent_tangents_and_uv1_pack_their_defaults) {
    kiln_mesh_data md;
    make_distinct_square(&md, 0);
    uint8_t bytes[4 * 64];
    size_t written = kiln_mesh_pack_vertices(&md, bytes, sizeof bytes);
    kiln_mesh_data_free(&md);
    CHECK_EQ_INT(written, 256);
    const uint8_t *p = bytes + 2 * 64;
    CHECK(float_at(p, 24) == 1.0f && float_at(p, 28) == 0.0f && float_at(p, 32) == 0.0f && float_at(p, 36) == 1.0f);
    CHECK(float_at(p, 48) == 2.0f + 3.1f && float_at(p, 52) == 2.0f + 3.2f); /* uv1 repeats uv0 */
    for (int c = 0; c < 4; c++) CHECK(u16_at(p, 56 + (size_t)c * 2) == 65535); /* no colours: white */
}

TEST(packing_into_a_short_buffer_writes_nothing) {
    kiln_mesh_data md;
    make_distinct_square(&md, KILN_MESH_SKIN);
    kiln_morph_target *t = kiln_mesh_data_add_morph_target(&md, NULL);
    CHECK(t);
    uint8_t bytes[256];
    memset(bytes, 0xAB, sizeof bytes);
    size_t v = kiln_mesh_pack_vertices(&md, bytes, 255);
    size_t s = kiln_mesh_pack_skin(&md, bytes, 95);
    size_t m = kiln_mesh_pack_morph_deltas(&md, bytes, 127);
    kiln_mesh_data_free(&md);
    CHECK(v == 0 && s == 0 && m == 0);
    for (size_t i = 0; i < sizeof bytes; i++) CHECK(bytes[i] == 0xAB);
}

TEST(packed_skin_is_u16_joints_then_f32_weights) {
    kiln_mesh_data md;
    make_distinct_square(&md, KILN_MESH_SKIN);
    uint8_t bytes[4 * 24];
    size_t written = kiln_mesh_pack_skin(&md, bytes, sizeof bytes);
    kiln_mesh_data without = {0};
    make_distinct_square(&without, 0);
    size_t none = kiln_mesh_pack_skin(&without, bytes + 0, 0);
    kiln_mesh_data_free(&md);
    kiln_mesh_data_free(&without);
    CHECK_EQ_INT(written, 96);
    CHECK_EQ_INT(none, 0);
    const uint8_t *p = bytes + 3 * 24;
    CHECK(u16_at(p, 0) == 12 && u16_at(p, 2) == 13 && u16_at(p, 4) == 14 && u16_at(p, 6) == 65535);
    CHECK(float_at(p, 8) == 0.4f && float_at(p, 12) == 0.3f && float_at(p, 16) == 0.2f && float_at(p, 20) == 3.0f * 0.01f);
}

TEST(packed_morph_deltas_are_three_vec4_per_vertex_per_target_vertex_major) {
    kiln_mesh_data md;
    make_distinct_square(&md, 0);
    kiln_morph_target *a = kiln_mesh_data_add_morph_target(&md, NULL);
    kiln_morph_target *b = kiln_mesh_data_add_morph_target(&md, NULL);
    CHECK(a && b);
    a->position_deltas[1] = kiln_vec3_make(1, 2, 3);
    b->normal_deltas[1] = kiln_vec3_make(4, 5, 6);
    CHECK(!a->tangent_deltas); /* optional: add_morph_target leaves it absent */
    b->tangent_deltas = calloc(md.vertex_count, sizeof(kiln_vec3));
    CHECK(b->tangent_deltas);
    b->tangent_deltas[1] = kiln_vec3_make(7, 8, 9);
    free(b->position_deltas); /* an absent stream packs zeros */
    b->position_deltas = NULL;
    uint8_t bytes[4 * 2 * 48];
    size_t written = kiln_mesh_pack_morph_deltas(&md, bytes, sizeof bytes);
    kiln_mesh_data_free(&md);
    CHECK_EQ_INT(written, 384);
    const uint8_t *v1a = bytes + (1 * 2 + 0) * 48, *v1b = bytes + (1 * 2 + 1) * 48;
    const float expect_a[12] = {1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0}, expect_b[12] = {0, 0, 0, 0, 4, 5, 6, 0, 7, 8, 9, 0};
    for (int k = 0; k < 12; k++) CHECK(float_at(v1a, (size_t)k * 4) == expect_a[k] && float_at(v1b, (size_t)k * 4) == expect_b[k]);
    for (size_t i = 0; i < 64; i++) CHECK(bytes[i] == 0); /* vertex 0, both targets */
}

/* ---- upload ----------------------------------------------------------------------------------------- */

/* Copies `size` bytes of `src` into a MapRead buffer and reads them into out. */
static bool read_back(kiln_resources *res, kiln_buffer src, uint64_t size, void *out, kiln_error *err) {
    kiln_buffer staging = kiln_resources_create_buffer(res, &(kiln_buffer_desc){.label = "readback", .size = size,
        .usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst}, err);
    kiln_encoder enc;
    bool ok = staging.id && kiln_encoder_begin(&enc, res, "mesh readback", err);
    ok = ok && kiln_encoder_copy_buffer_to_buffer(&enc, src, 0, staging, 0, size, err);
    ok = ok && kiln_encoder_finish_and_submit(&enc, err);
    ok = ok && kiln_gfx_wait_for_queue(kiln_resources_gfx(res), err);
    ok = ok && kiln_resources_read_buffer(res, staging, 0, out, size, err);
    if (staging.id) kiln_resources_destroy_buffer(res, staging, NULL);
    return ok;
}

TEST(uploaded_buffers_hold_exactly_the_packed_streams) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_mesh_data md;
    make_distinct_square(&md, KILN_MESH_TANGENTS | KILN_MESH_UV1 | KILN_MESH_SKIN);
    kiln_morph_target *t = kiln_mesh_data_add_morph_target(&md, NULL);
    CHECK(t);
    t->position_deltas[2] = kiln_vec3_make(0.5f, -0.5f, 0.25f);
    uint8_t packed_vertices[4 * 64], packed_skin[4 * 24], packed_morph[4 * KILN_MORPH_DELTA_STRIDE];
    kiln_mesh_pack_vertices(&md, packed_vertices, sizeof packed_vertices);
    kiln_mesh_pack_skin(&md, packed_skin, sizeof packed_skin);
    kiln_mesh_pack_morph_deltas(&md, packed_morph, sizeof packed_morph);

    kiln_gpu_mesh mesh;
    kiln_error err = {0};
    bool uploaded = kiln_gpu_mesh_upload(f.res, &md, "square", &mesh, &err);
    kiln_mesh_data_free(&md);
    CHECK_MSG(uploaded, "%s", err.message);
    CHECK_EQ_INT(kiln_resources_buffer_size(f.res, mesh.vertices), 256);
    CHECK_EQ_INT(kiln_resources_buffer_size(f.res, mesh.skin), 96);
    CHECK_EQ_INT(kiln_resources_buffer_size(f.res, mesh.indices), 24);
    CHECK_EQ_INT(kiln_resources_buffer_size(f.res, mesh.morph_deltas), 4 * KILN_MORPH_DELTA_STRIDE);

    uint8_t vertices[256], skin[96], morph[4 * KILN_MORPH_DELTA_STRIDE];
    uint32_t indices[6];
    CHECK_MSG(read_back(f.res, mesh.vertices, sizeof vertices, vertices, &err), "%s", err.message);
    CHECK_MSG(read_back(f.res, mesh.skin, sizeof skin, skin, &err), "%s", err.message);
    CHECK_MSG(read_back(f.res, mesh.indices, sizeof indices, indices, &err), "%s", err.message);
    CHECK_MSG(read_back(f.res, mesh.morph_deltas, sizeof morph, morph, &err), "%s", err.message);
    CHECK(memcmp(vertices, packed_vertices, sizeof vertices) == 0);
    CHECK(memcmp(skin, packed_skin, sizeof skin) == 0);
    CHECK(memcmp(morph, packed_morph, sizeof morph) == 0);
    CHECK(indices[0] == 0 && indices[2] == 2 && indices[5] == 3);
    kiln_gpu_mesh_destroy(&mesh, f.res);
    FIXTURE_CLOSE_CLEAN(f);
}

TEST(an_uploaded_mesh_records_counts_bounds_and_one_lod) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_mesh_data md;
    CHECK(kiln_mesh_uv_sphere(&md, 2.0f, 6, 12, NULL));
    kiln_mesh_bounds expected = kiln_mesh_data_bounds(&md);
    kiln_gpu_mesh mesh;
    kiln_error err = {0};
    bool uploaded = kiln_gpu_mesh_upload(f.res, &md, NULL, &mesh, &err);
    uint32_t vertex_count = md.vertex_count, index_count = md.index_count;
    kiln_mesh_data_free(&md);
    CHECK_MSG(uploaded, "%s", err.message);
    CHECK_EQ_INT(mesh.vertex_count, vertex_count);
    CHECK_EQ_INT(mesh.index_count, index_count);
    CHECK(!mesh.skinned && mesh.skin.id == 0 && mesh.morph_deltas.id == 0 && mesh.morph_target_count == 0);
    CHECK_EQ_INT(mesh.lod_count, 1);
    CHECK(mesh.lods[0].first_index == 0 && mesh.lods[0].index_count == index_count);
    CHECK(mesh.bounds.radius == expected.radius && mesh.bounds.center.y == expected.center.y);
    kiln_live_counts live = kiln_resources_live_counts(f.res);
    CHECK_EQ_INT(live.buffers, 2); /* vertices and indices */
    kiln_gpu_mesh_destroy(&mesh, f.res);
    live = kiln_resources_live_counts(f.res);
    CHECK_EQ_INT(live.buffers, 0);
    CHECK(mesh.vertices.id == 0 && mesh.index_count == 0);
    FIXTURE_CLOSE_CLEAN(f);
}

TEST(an_upload_with_levels_puts_every_level_in_one_index_buffer) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_mesh_data md;
    kiln_mesh_lod lods[KILN_MESH_MAX_LODS];
    kiln_error err = {0};
    CHECK(kiln_mesh_uv_sphere(&md, 1.0f, 32, 64, NULL));
    uint32_t count = kiln_mesh_data_build_lods(&md, lods, &err);
    kiln_gpu_mesh mesh;
    bool uploaded = count && kiln_gpu_mesh_upload_lods(f.res, &md, lods, count, "sphere", &mesh, &err);
    uint32_t all_indices = md.index_count;
    uint32_t *expected = malloc((size_t)all_indices * sizeof *expected), *read = malloc((size_t)all_indices * sizeof *read);
    bool same = uploaded && expected && read;
    if (same) memcpy(expected, md.indices, (size_t)all_indices * sizeof *expected);
    kiln_mesh_data_free(&md);
    same = same && read_back(f.res, mesh.indices, (size_t)all_indices * sizeof *read, read, &err) &&
           memcmp(read, expected, (size_t)all_indices * sizeof *read) == 0;
    free(expected);
    free(read);
    CHECK_MSG(uploaded, "%s", err.message);
    CHECK_MSG(same, "%s", err.message);
    CHECK_EQ_INT(mesh.lod_count, KILN_MESH_MAX_LODS);
    CHECK(memcmp(mesh.lods, lods, sizeof lods) == 0);
    CHECK_EQ_INT(mesh.index_count, lods[0].index_count);
    CHECK_EQ_INT(kiln_resources_buffer_size(f.res, mesh.indices), (uint64_t)all_indices * 4);
    kiln_gpu_mesh_destroy(&mesh, f.res);
    FIXTURE_CLOSE_CLEAN(f);
}

TEST(an_upload_refuses_levels_outside_the_indices) {
    static const struct { const char *name; uint32_t count; kiln_mesh_lod lods[2]; const char *message; } rows[] = {
        {"upload-lods-1", 0, {{0, 6, 0}}, "mesh 'square': 0 levels of detail, must be 1 to 4"},
        {"upload-lods-2", 5, {{0, 6, 0}}, "mesh 'square': 5 levels of detail, must be 1 to 4"},
        {"upload-lods-3", 2, {{0, 6, 0}, {3, 4, 0}}, "mesh 'square': level 1 has 4 indices, not a positive multiple of 3"},
        {"upload-lods-4", 1, {{0, 0, 0}}, "mesh 'square': level 0 has 0 indices, not a positive multiple of 3"},
        {"upload-lods-5", 2, {{0, 6, 0}, {3, 6, 0}}, "mesh 'square': level 1 spans indices 3..9, past the 6 indices"},
    };
    gfx_fixture f;
    FIXTURE_OPEN(f);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        kiln_mesh_data md;
        make_distinct_square(&md, 0);
        kiln_gpu_mesh mesh;
        kiln_error err = {0};
        bool uploaded = kiln_gpu_mesh_upload_lods(f.res, &md, rows[i].lods, rows[i].count, "square", &mesh, &err);
        kiln_mesh_data_free(&md);
        kiln_live_counts live = kiln_resources_live_counts(f.res);
        CHECK_MSG(!uploaded, "%s", rows[i].name);
        CHECK_MSG(strcmp(err.message, rows[i].message) == 0, "%s: \"%s\"", rows[i].name, err.message);
        CHECK_MSG(live.buffers == 0, "%s", rows[i].name);
    }
    FIXTURE_CLOSE_CLEAN(f);
}

TEST(an_invalid_mesh_uploads_nothing) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_mesh_data md;
    make_distinct_square(&md, 0);
    md.indices[4] = 7;
    kiln_gpu_mesh mesh;
    kiln_error err = {0};
    bool uploaded = kiln_gpu_mesh_upload(f.res, &md, "broken", &mesh, &err);
    kiln_mesh_data_free(&md);
    kiln_live_counts live = kiln_resources_live_counts(f.res);
    CHECK(!uploaded);
    CHECK_STR_CONTAINS(err.message, "mesh: index 4 is 7, past the 4 vertices");
    CHECK_EQ_INT(live.buffers, 0);
    CHECK(mesh.vertices.id == 0);
    FIXTURE_CLOSE_CLEAN(f);
}

TEST(an_upload_failing_half_way_leaves_nothing_alive) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    /* A pool of two buffers: vertices and skin fit, the index buffer does not. */
    kiln_error err = {0};
    kiln_resources *small = kiln_resources_create(f.gfx, 2, &err);
    CHECK_MSG(small, "%s", err.message);
    kiln_mesh_data md;
    make_distinct_square(&md, KILN_MESH_SKIN);
    kiln_gpu_mesh mesh;
    bool uploaded = kiln_gpu_mesh_upload(small, &md, "too many", &mesh, &err);
    kiln_mesh_data_free(&md);
    kiln_live_counts live = kiln_resources_live_counts(small);
    kiln_resources_destroy(small);
    CHECK(!uploaded);
    CHECK_EQ_INT(err.code, KILN_ERR_CAPACITY);
    CHECK_STR_CONTAINS(err.message, "mesh 'too many' indices: buffer pool is full (2)");
    CHECK_EQ_INT(live.buffers, 0);
    CHECK(mesh.vertices.id == 0 && mesh.skin.id == 0);
    FIXTURE_CLOSE_CLEAN(f);
}

TEST_MAIN(T(vertex_layouts_describe_the_two_streams),
          T(packed_vertices_put_each_attribute_at_its_offset),
          T(absent_tangents_and_uv1_pack_their_defaults),
          T(packing_into_a_short_buffer_writes_nothing),
          T(packed_skin_is_u16_joints_then_f32_weights),
          T(packed_morph_deltas_are_three_vec4_per_vertex_per_target_vertex_major),
          T(uploaded_buffers_hold_exactly_the_packed_streams),
          T(an_uploaded_mesh_records_counts_bounds_and_one_lod),
          T(an_upload_with_levels_puts_every_level_in_one_index_buffer),
          T(an_upload_refuses_levels_outside_the_indices),
          T(an_invalid_mesh_uploads_nothing),
          T(an_upload_failing_half_way_leaves_nothing_alive))
