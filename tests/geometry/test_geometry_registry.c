/* The geometry registry without its GPU side: dense ids from 1, validation before an id is
 * taken, the spec's reuse of a removed mesh's slot, the CPU copy as the source of truth, replace
 * under the same id, the queries, and that none of it creates a GPU object. (A device is opened
 * only because a registry lives over a kiln_resources.) Upload and sync: test_geometry_sync.c. */
#include <kiln/geometry/registry.h>

#include "gfx_fixture.h"

typedef struct registry_env {
    gfx_fixture f;
    kiln_geometry_registry *reg;
} registry_env;

#define ENV_OPEN(e)                                                                     \
    do {                                                                                \
        FIXTURE_OPEN((e).f);                                                            \
        kiln_error _err = {0};                                                          \
        (e).reg = kiln_geometry_registry_create((e).f.res, &_err);                      \
        CHECK_MSG((e).reg != NULL, "%s", _err.message);                                 \
    } while (0)

#define ENV_CLOSE_CLEAN(e)                                                              \
    do {                                                                                \
        kiln_geometry_registry_destroy((e).reg);                                        \
        FIXTURE_CLOSE_CLEAN((e).f);                                                     \
    } while (0)

/* Adds a cube of the given half extent; returns its id (0 when refused). */
static uint32_t add_cube(kiln_geometry_registry *reg, const char *label, float half, kiln_error *err) {
    kiln_mesh_data md = {0};
    uint32_t id = kiln_mesh_cube(&md, half, err) ? kiln_geometry_registry_add(reg, label, &md, err) : 0;
    kiln_mesh_data_free(&md);
    return id;
}

/* A square of two triangles whose second triangle names vertex 7 of 4. */
static void make_broken_square(kiln_mesh_data *md) {
    kiln_mesh_data_init(md, 4, 6, 0, NULL);
    const uint32_t idx[6] = {0, 1, 2, 0, 2, 7};
    memcpy(md->indices, idx, sizeof idx);
}

TEST(ids_are_dense_from_one) {
    registry_env e;
    ENV_OPEN(e);
    kiln_error err = {0};
    uint32_t a = add_cube(e.reg, "a", 0.5f, &err), b = add_cube(e.reg, "b", 0.5f, &err),
             c = add_cube(e.reg, "c", 0.5f, &err);
    uint32_t count = kiln_geometry_registry_count(e.reg);
    ENV_CLOSE_CLEAN(e);
    CHECK_MSG(a, "%s", err.message);
    CHECK_EQ_INT(a, 1);
    CHECK_EQ_INT(b, 2);
    CHECK_EQ_INT(c, 3);
    CHECK_EQ_INT(count, 3);
}

TEST(a_rejected_add_takes_no_id_and_names_the_label) {
    registry_env e;
    ENV_OPEN(e);
    kiln_error err = {0};
    kiln_mesh_data md;
    make_broken_square(&md);
    uint32_t refused = kiln_geometry_registry_add(e.reg, "broken", &md, &err);
    kiln_error refused_err = err;
    uint32_t unnamed = kiln_geometry_registry_add(e.reg, NULL, &md, &err);
    kiln_error unnamed_err = err;
    kiln_mesh_data_free(&md);
    uint32_t count = kiln_geometry_registry_count(e.reg);
    uint32_t next = add_cube(e.reg, "cube", 0.5f, &err);
    ENV_CLOSE_CLEAN(e);
    CHECK_EQ_INT(refused, 0);
    CHECK_EQ_INT(unnamed, 0);
    CHECK_EQ_INT(refused_err.code, KILN_ERR_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(refused_err.message, "geometry 'broken': mesh: index 5 is 7, past the 4 vertices");
    CHECK_STR_CONTAINS(unnamed_err.message, "geometry 'mesh': mesh: index 5 is 7, past the 4 vertices");
    CHECK_EQ_INT(count, 0);
    CHECK_EQ_INT(next, 1);
}

TEST(an_add_without_a_label_is_called_mesh) {
    registry_env e;
    ENV_OPEN(e);
    kiln_error err = {0};
    uint32_t id = add_cube(e.reg, NULL, 0.5f, &err);
    const kiln_geometry_info *info = kiln_geometry_registry_info(e.reg, id);
    bool named = info && strcmp(info->label, "mesh") == 0;
    ENV_CLOSE_CLEAN(e);
    CHECK_MSG(id, "%s", err.message);
    CHECK(named);
}

TEST(the_registry_keeps_its_own_copy_of_the_mesh) {
    registry_env e;
    ENV_OPEN(e);
    kiln_error err = {0};
    kiln_mesh_data md = {0};
    CHECK(kiln_mesh_uv_sphere(&md, 2.0f, 4, 6, &err));
    kiln_mesh_bounds expected = kiln_mesh_data_bounds(&md);
    char label[] = "sphere";
    uint32_t id = kiln_geometry_registry_add(e.reg, label, &md, &err);
    kiln_vec3 third = md.positions[3];
    uint32_t vertices = md.vertex_count, indices = md.index_count;
    kiln_mesh_data_free(&md); /* the caller's copy goes; the registry's stays */
    label[0] = 'X';
    const kiln_mesh_data *copy = kiln_geometry_registry_data(e.reg, id);
    const kiln_geometry_info *info = kiln_geometry_registry_info(e.reg, id);
    const kiln_mesh_bounds *bounds = kiln_geometry_registry_bounds(e.reg, id);
    bool same_data = copy && copy->vertex_count == vertices && copy->index_count == indices && copy->tangents &&
                     memcmp(&copy->positions[3], &third, sizeof third) == 0;
    bool same_info = info && strcmp(info->label, "sphere") == 0 && info->vertex_count == vertices &&
                     info->index_count == indices && !info->skinned && info->morph_target_count == 0 &&
                     info->lod_count == 1 && info->lods[0].first_index == 0 && info->lods[0].index_count == indices;
    bool same_bounds = bounds && memcmp(bounds, &expected, sizeof expected) == 0 && bounds == &info->bounds;
    ENV_CLOSE_CLEAN(e);
    CHECK_MSG(id, "%s", err.message);
    CHECK(same_data);
    CHECK(same_info);
    CHECK(same_bounds);
}

TEST(a_removed_id_is_reused_by_the_next_add_lowest_first) {
    registry_env e;
    ENV_OPEN(e);
    kiln_error err = {0};
    for (int i = 0; i < 4; i++) CHECK_MSG(add_cube(e.reg, "cube", 0.5f, &err), "%s", err.message);
    CHECK(kiln_geometry_registry_remove(e.reg, 3, &err) && kiln_geometry_registry_remove(e.reg, 1, &err));
    uint32_t count_after_remove = kiln_geometry_registry_count(e.reg);
    uint32_t first = add_cube(e.reg, "first", 0.5f, &err), second = add_cube(e.reg, "second", 0.5f, &err),
             third = add_cube(e.reg, "third", 0.5f, &err);
    const kiln_geometry_info *reused = kiln_geometry_registry_info(e.reg, 1);
    bool renamed = reused && strcmp(reused->label, "first") == 0;
    uint32_t count = kiln_geometry_registry_count(e.reg);
    ENV_CLOSE_CLEAN(e);
    CHECK_EQ_INT(count_after_remove, 4); /* removed ids stay counted: they are not unknown */
    CHECK_EQ_INT(first, 1);
    CHECK_EQ_INT(second, 3);
    CHECK_EQ_INT(third, 5);
    CHECK(renamed);
    CHECK_EQ_INT(count, 5);
}

TEST(a_removed_or_unknown_id_is_refused_by_every_call) {
    registry_env e;
    ENV_OPEN(e);
    kiln_error err = {0};
    uint32_t id = add_cube(e.reg, "cube", 0.5f, &err);
    CHECK(kiln_geometry_registry_remove(e.reg, id, &err));
    kiln_mesh_data md = {0};
    CHECK(kiln_mesh_cube(&md, 1.0f, &err));
    char messages[5][256];
    bool removed_again = kiln_geometry_registry_remove(e.reg, id, &err);
    snprintf(messages[0], sizeof messages[0], "%s", err.message);
    bool replaced = kiln_geometry_registry_replace(e.reg, id, &md, &err);
    snprintf(messages[1], sizeof messages[1], "%s", err.message);
    bool unknown_removed = kiln_geometry_registry_remove(e.reg, 9, &err);
    snprintf(messages[2], sizeof messages[2], "%s", err.message);
    bool zero_removed = kiln_geometry_registry_remove(e.reg, 0, &err);
    snprintf(messages[3], sizeof messages[3], "%s", err.message);
    const kiln_gpu_mesh *gpu = kiln_geometry_registry_gpu_mesh(e.reg, id, &err);
    snprintf(messages[4], sizeof messages[4], "%s", err.message);
    bool queries_null = !kiln_geometry_registry_info(e.reg, id) && !kiln_geometry_registry_bounds(e.reg, id) &&
                        !kiln_geometry_registry_data(e.reg, id) && !kiln_geometry_registry_info(e.reg, 0) &&
                        !kiln_geometry_registry_info(e.reg, 2);
    kiln_mesh_data_free(&md);
    ENV_CLOSE_CLEAN(e);
    CHECK(!removed_again && !replaced && !unknown_removed && !zero_removed && !gpu);
    CHECK_STR_CONTAINS(messages[0], "unknown geometry id 1");
    CHECK_STR_CONTAINS(messages[1], "unknown geometry id 1");
    CHECK_STR_CONTAINS(messages[2], "unknown geometry id 9");
    CHECK_STR_CONTAINS(messages[3], "unknown geometry id 0");
    CHECK_STR_CONTAINS(messages[4], "unknown geometry id 1");
    CHECK(queries_null);
}

TEST(replace_keeps_the_id_and_takes_the_new_mesh) {
    registry_env e;
    ENV_OPEN(e);
    kiln_error err = {0};
    uint32_t id = add_cube(e.reg, "shape", 0.5f, &err);
    kiln_mesh_data md = {0};
    CHECK(kiln_mesh_plane(&md, 3.0f, 2, &err));
    bool replaced = kiln_geometry_registry_replace(e.reg, id, &md, &err);
    uint32_t vertices = md.vertex_count;
    kiln_mesh_data_free(&md);
    const kiln_geometry_info *info = kiln_geometry_registry_info(e.reg, id);
    bool updated = info && info->vertex_count == vertices && info->index_count == 24 && info->bounds.max.x == 3.0f &&
                   strcmp(info->label, "shape") == 0 && kiln_geometry_registry_data(e.reg, id)->vertex_count == vertices;
    uint32_t count = kiln_geometry_registry_count(e.reg);
    ENV_CLOSE_CLEAN(e);
    CHECK_MSG(replaced, "%s", err.message);
    CHECK(updated);
    CHECK_EQ_INT(count, 1);
}

TEST(a_refused_replace_leaves_the_slot_untouched_and_names_it) {
    registry_env e;
    ENV_OPEN(e);
    kiln_error err = {0};
    uint32_t id = add_cube(e.reg, "cube", 0.5f, &err);
    const kiln_mesh_data *before = kiln_geometry_registry_data(e.reg, id);
    kiln_mesh_data md;
    make_broken_square(&md);
    bool replaced = kiln_geometry_registry_replace(e.reg, id, &md, &err);
    kiln_mesh_data_free(&md);
    const kiln_geometry_info *info = kiln_geometry_registry_info(e.reg, id);
    bool untouched = kiln_geometry_registry_data(e.reg, id) == before && before->vertex_count == 24 && info &&
                     info->vertex_count == 24 && info->index_count == 36;
    ENV_CLOSE_CLEAN(e);
    CHECK(!replaced);
    CHECK_STR_CONTAINS(err.message, "geometry 1 'cube': mesh: index 5 is 7, past the 4 vertices");
    CHECK(untouched);
}

/* A dense sphere (3968 triangles, four levels with LODs) added with or without levels. */
static uint32_t add_sphere(kiln_geometry_registry *reg, bool lods, kiln_error *err) {
    kiln_mesh_data md = {0};
    uint32_t id = 0;
    if (kiln_mesh_uv_sphere(&md, 1.0f, 32, 64, err))
        id = lods ? kiln_geometry_registry_add_lods(reg, "sphere", &md, err) : kiln_geometry_registry_add(reg, "sphere", &md, err);
    kiln_mesh_data_free(&md);
    return id;
}

TEST(add_lods_builds_levels_and_add_keeps_one) {
    static const struct { const char *name; bool lods, sphere; uint32_t levels; } rows[] = {
        {"registry-lods-1", true, true, KILN_MESH_MAX_LODS},
        {"registry-lods-2", false, true, 1},
        {"registry-lods-3", true, false, 1}, /* a cube's 12 triangles: below the threshold */
    };
    registry_env e;
    ENV_OPEN(e);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        kiln_error err = {0};
        uint32_t id = 0;
        if (rows[i].sphere) {
            id = add_sphere(e.reg, rows[i].lods, &err);
        } else {
            kiln_mesh_data md = {0};
            if (kiln_mesh_cube(&md, 0.5f, &err)) id = kiln_geometry_registry_add_lods(e.reg, "cube", &md, &err);
            kiln_mesh_data_free(&md);
        }
        CHECK_MSG(id, "%s: %s", rows[i].name, err.message);
        const kiln_geometry_info *info = kiln_geometry_registry_info(e.reg, id);
        const kiln_mesh_data *data = kiln_geometry_registry_data(e.reg, id);
        const kiln_mesh_lod *last = &info->lods[info->lod_count - 1];
        CHECK_MSG(info->lod_count == rows[i].levels, "%s: %u levels", rows[i].name, info->lod_count);
        CHECK_MSG(info->index_count == info->lods[0].index_count, "%s", rows[i].name);
        /* The CPU copy's index array holds every level, ending with the last. */
        CHECK_MSG(data->index_count == last->first_index + last->index_count, "%s", rows[i].name);
    }
    ENV_CLOSE_CLEAN(e);
}

TEST(replace_of_an_id_added_with_lods_builds_them_again) {
    registry_env e;
    ENV_OPEN(e);
    kiln_error err = {0};
    uint32_t lodded = add_sphere(e.reg, true, &err), plain = add_sphere(e.reg, false, &err);
    CHECK_MSG(lodded && plain, "%s", err.message);
    kiln_mesh_data md = {0};
    CHECK(kiln_mesh_uv_sphere(&md, 2.0f, 24, 48, &err));
    bool replaced = kiln_geometry_registry_replace(e.reg, lodded, &md, &err) &&
                    kiln_geometry_registry_replace(e.reg, plain, &md, &err);
    uint32_t full = md.index_count;
    kiln_mesh_data_free(&md);
    const kiln_geometry_info *a = kiln_geometry_registry_info(e.reg, lodded), *b = kiln_geometry_registry_info(e.reg, plain);
    uint32_t a_levels = a->lod_count, a_full = a->index_count, b_levels = b->lod_count, b_full = b->index_count;
    ENV_CLOSE_CLEAN(e);
    CHECK_MSG(replaced, "%s", err.message);
    CHECK(a_levels > 1);
    CHECK_EQ_INT(a_full, full);
    CHECK_EQ_INT(b_levels, 1);
    CHECK_EQ_INT(b_full, full);
}

TEST(add_replace_and_remove_make_no_gpu_object) {
    registry_env e;
    ENV_OPEN(e);
    kiln_error err = {0};
    kiln_live_counts before = kiln_resources_live_counts(e.f.res);
    uint32_t a = add_cube(e.reg, "a", 0.5f, &err), b = add_cube(e.reg, "b", 0.5f, &err);
    kiln_mesh_data md = {0};
    CHECK(kiln_mesh_cube(&md, 2.0f, &err));
    bool ok = a && b && kiln_geometry_registry_replace(e.reg, a, &md, &err) && kiln_geometry_registry_remove(e.reg, b, &err);
    kiln_mesh_data_free(&md);
    kiln_live_counts after = kiln_resources_live_counts(e.f.res);
    kiln_geometry_registry_stats stats = kiln_geometry_registry_get_stats(e.reg);
    ENV_CLOSE_CLEAN(e);
    CHECK_MSG(ok, "%s", err.message);
    CHECK(memcmp(&before, &after, sizeof before) == 0);
    CHECK_EQ_INT(stats.uploads, 0);
    CHECK_EQ_INT(stats.gpu_meshes, 0);
}

TEST(create_needs_resources) {
    kiln_error err = {0};
    CHECK(!kiln_geometry_registry_create(NULL, &err));
    CHECK_STR_CONTAINS(err.message, "geometry registry: resources is NULL");
    kiln_geometry_registry_destroy(NULL);
}

TEST_MAIN(T(add_lods_builds_levels_and_add_keeps_one), T(replace_of_an_id_added_with_lods_builds_them_again),
          T(ids_are_dense_from_one),
          T(a_rejected_add_takes_no_id_and_names_the_label),
          T(an_add_without_a_label_is_called_mesh),
          T(the_registry_keeps_its_own_copy_of_the_mesh),
          T(a_removed_id_is_reused_by_the_next_add_lowest_first),
          T(a_removed_or_unknown_id_is_refused_by_every_call),
          T(replace_keeps_the_id_and_takes_the_new_mesh),
          T(a_refused_replace_leaves_the_slot_untouched_and_names_it),
          T(add_replace_and_remove_make_no_gpu_object),
          T(create_needs_resources))
