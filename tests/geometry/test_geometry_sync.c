/* The geometry registry's GPU side: the sync point uploads each new mesh once; with nothing
 * pending it creates no GPU object, uploads nothing and makes no heap allocation (counted by the
 * linker-wrapped allocator, tests/perf/alloc_counter.h); first GPU use uploads ahead of a sync;
 * replace and remove keep the GPU side in step; a failure names the mesh and changes nothing. */
#include <kiln/geometry/registry.h>

#include "alloc_counter.h"
#include "gfx_fixture.h"

static uint32_t add_cube(kiln_geometry_registry *reg, const char *label, kiln_error *err) {
    kiln_mesh_data md = {0};
    uint32_t id = kiln_mesh_cube(&md, 0.5f, err) ? kiln_geometry_registry_add(reg, label, &md, err) : 0;
    kiln_mesh_data_free(&md);
    return id;
}

TEST(sync_uploads_each_new_mesh_once) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_geometry_registry *reg = kiln_geometry_registry_create(f.res, &err);
    CHECK_MSG(reg, "%s", err.message);
    CHECK(add_cube(reg, "a", &err) && add_cube(reg, "b", &err));
    uint32_t buffers_before = kiln_resources_live_counts(f.res).buffers;
    bool synced = kiln_geometry_registry_sync(reg, &err);
    uint32_t buffers_after = kiln_resources_live_counts(f.res).buffers;
    kiln_geometry_registry_stats stats = kiln_geometry_registry_get_stats(reg);
    kiln_geometry_registry_destroy(reg);
    uint32_t buffers_left = kiln_resources_live_counts(f.res).buffers;
    FIXTURE_CLOSE_CLEAN(f);
    CHECK_MSG(synced, "%s", err.message);
    CHECK_EQ_INT(buffers_after - buffers_before, 4); /* vertices and indices of each cube */
    CHECK_EQ_INT(stats.uploads, 2);
    CHECK_EQ_INT(stats.gpu_meshes, 2);
    CHECK_EQ_INT(buffers_left, buffers_before);
}

TEST(sync_with_nothing_changed_allocates_nothing_and_uploads_nothing) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_geometry_registry *reg = kiln_geometry_registry_create(f.res, &err);
    CHECK_MSG(reg, "%s", err.message);
    CHECK(add_cube(reg, "cube", &err));
    CHECK_MSG(kiln_geometry_registry_sync(reg, &err), "%s", err.message);
    kiln_geometry_registry_stats synced = kiln_geometry_registry_get_stats(reg);
    kiln_live_counts live = kiln_resources_live_counts(f.res);
    kiln_alloc_counter_start();
    bool ok = kiln_geometry_registry_sync(reg, &err) && kiln_geometry_registry_sync(reg, &err) &&
              kiln_geometry_registry_gpu_mesh(reg, 1, &err) != NULL;
    uint64_t allocations = kiln_alloc_counter_stop();
    kiln_geometry_registry_stats again = kiln_geometry_registry_get_stats(reg);
    kiln_live_counts live_again = kiln_resources_live_counts(f.res);
    kiln_geometry_registry_destroy(reg);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK_MSG(ok, "%s", err.message);
    CHECK_EQ_INT(allocations, 0);
    CHECK_EQ_INT(again.uploads, synced.uploads);
    CHECK_EQ_INT(again.gpu_meshes, synced.gpu_meshes);
    CHECK(memcmp(&live, &live_again, sizeof live) == 0);
}

TEST(first_gpu_use_uploads_ahead_of_the_sync) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_geometry_registry *reg = kiln_geometry_registry_create(f.res, &err);
    CHECK_MSG(reg, "%s", err.message);
    uint32_t a = add_cube(reg, "a", &err), b = add_cube(reg, "b", &err);
    const kiln_gpu_mesh *gpu = kiln_geometry_registry_gpu_mesh(reg, b, &err);
    bool matches = gpu && gpu->vertices.id && gpu->indices.id && gpu->vertex_count == 24 && gpu->index_count == 36 &&
                   gpu->lod_count == 1 && memcmp(&gpu->bounds, kiln_geometry_registry_bounds(reg, b), sizeof gpu->bounds) == 0;
    kiln_geometry_registry_stats early = kiln_geometry_registry_get_stats(reg);
    bool synced = kiln_geometry_registry_sync(reg, &err);
    kiln_geometry_registry_stats late = kiln_geometry_registry_get_stats(reg);
    bool same_pointer = kiln_geometry_registry_gpu_mesh(reg, b, NULL) == gpu;
    kiln_geometry_registry_destroy(reg);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK(a && b);
    CHECK_MSG(matches, "%s", err.message);
    CHECK_EQ_INT(early.uploads, 1);
    CHECK_MSG(synced, "%s", err.message);
    CHECK_EQ_INT(late.uploads, 2); /* only a was left for the sync */
    CHECK(same_pointer);
}

TEST(replacing_an_uploaded_mesh_uploads_at_once_and_frees_the_old_buffers) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_geometry_registry *reg = kiln_geometry_registry_create(f.res, &err);
    CHECK_MSG(reg, "%s", err.message);
    uint32_t id = add_cube(reg, "shape", &err);
    CHECK_MSG(kiln_geometry_registry_sync(reg, &err), "%s", err.message);
    uint32_t buffers = kiln_resources_live_counts(f.res).buffers;
    kiln_mesh_data md = {0};
    CHECK(kiln_mesh_plane(&md, 2.0f, 1, &err));
    bool replaced = kiln_geometry_registry_replace(reg, id, &md, &err);
    kiln_mesh_data_free(&md);
    kiln_geometry_registry_stats stats = kiln_geometry_registry_get_stats(reg);
    uint32_t buffers_after = kiln_resources_live_counts(f.res).buffers;
    const kiln_gpu_mesh *gpu = kiln_geometry_registry_gpu_mesh(reg, id, &err);
    bool new_mesh = gpu && gpu->vertex_count == 4 && gpu->index_count == 6;
    kiln_geometry_registry_destroy(reg);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK_MSG(replaced, "%s", err.message);
    CHECK_EQ_INT(stats.uploads, 2);
    CHECK_EQ_INT(stats.gpu_meshes, 1);
    CHECK_EQ_INT(buffers_after, buffers);
    CHECK(new_mesh);
}

TEST(removing_an_uploaded_mesh_releases_its_buffers) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_geometry_registry *reg = kiln_geometry_registry_create(f.res, &err);
    CHECK_MSG(reg, "%s", err.message);
    uint32_t buffers = kiln_resources_live_counts(f.res).buffers;
    uint32_t a = add_cube(reg, "a", &err), b = add_cube(reg, "b", &err);
    CHECK_MSG(kiln_geometry_registry_sync(reg, &err), "%s", err.message);
    bool removed = kiln_geometry_registry_remove(reg, a, &err);
    uint32_t buffers_after = kiln_resources_live_counts(f.res).buffers;
    kiln_geometry_registry_stats stats = kiln_geometry_registry_get_stats(reg);
    kiln_geometry_registry_destroy(reg);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK(b);
    CHECK_MSG(removed, "%s", err.message);
    CHECK_EQ_INT(buffers_after - buffers, 2);
    CHECK_EQ_INT(stats.gpu_meshes, 1);
}

/* A pool of three buffers holds one cube (vertices, indices) but not two. */
TEST(a_failed_sync_names_the_mesh_and_retries_it_at_the_next_sync) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_resources *small = kiln_resources_create(f.gfx, 3, &err);
    CHECK_MSG(small, "%s", err.message);
    kiln_geometry_registry *reg = kiln_geometry_registry_create(small, &err);
    CHECK_MSG(reg, "%s", err.message);
    uint32_t a = add_cube(reg, "first", &err), b = add_cube(reg, "second", &err);
    bool synced = kiln_geometry_registry_sync(reg, &err);
    kiln_error failed = err;
    uint32_t buffers = kiln_resources_live_counts(small).buffers;
    bool b_left_pending = kiln_geometry_registry_info(reg, b) != NULL && kiln_geometry_registry_get_stats(reg).gpu_meshes == 1;
    bool removed = kiln_geometry_registry_remove(reg, a, &err);
    bool retried = removed && kiln_geometry_registry_sync(reg, &err);
    kiln_geometry_registry_stats stats = kiln_geometry_registry_get_stats(reg);
    kiln_geometry_registry_destroy(reg);
    kiln_resources_destroy(small);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK(!synced);
    CHECK_EQ_INT(failed.code, KILN_ERR_CAPACITY);
    CHECK_STR_CONTAINS(failed.message,
                       "geometry registry sync: geometry 2 'second': mesh 'second' indices: buffer pool is full (3)");
    CHECK_EQ_INT(buffers, 2); /* the failed mesh left nothing behind */
    CHECK(b_left_pending);
    CHECK_MSG(retried, "%s", err.message);
    CHECK_EQ_INT(stats.uploads, 2);
    CHECK_EQ_INT(stats.gpu_meshes, 1);
}

TEST(a_replace_whose_upload_fails_keeps_the_old_mesh_on_the_gpu) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_resources *small = kiln_resources_create(f.gfx, 3, &err);
    CHECK_MSG(small, "%s", err.message);
    kiln_geometry_registry *reg = kiln_geometry_registry_create(small, &err);
    CHECK_MSG(reg, "%s", err.message);
    uint32_t id = add_cube(reg, "cube", &err);
    const kiln_gpu_mesh *gpu = kiln_geometry_registry_gpu_mesh(reg, id, &err);
    kiln_gpu_mesh before = gpu ? *gpu : (kiln_gpu_mesh){0};
    const kiln_mesh_data *data = kiln_geometry_registry_data(reg, id);
    kiln_mesh_data md = {0};
    CHECK(kiln_mesh_plane(&md, 2.0f, 1, &err));
    bool replaced = kiln_geometry_registry_replace(reg, id, &md, &err);
    kiln_mesh_data_free(&md);
    const kiln_gpu_mesh *after = kiln_geometry_registry_gpu_mesh(reg, id, NULL);
    bool untouched = after && memcmp(after, &before, sizeof before) == 0 && kiln_geometry_registry_data(reg, id) == data &&
                     data->vertex_count == 24 && kiln_geometry_registry_info(reg, id)->vertex_count == 24;
    uint32_t buffers = kiln_resources_live_counts(small).buffers;
    kiln_geometry_registry_destroy(reg);
    kiln_resources_destroy(small);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK(!replaced);
    CHECK_STR_CONTAINS(err.message, "geometry 1 'cube': mesh 'cube' indices: buffer pool is full (3)");
    CHECK(untouched);
    CHECK_EQ_INT(buffers, 2);
}

TEST_MAIN(T(sync_uploads_each_new_mesh_once),
          T(sync_with_nothing_changed_allocates_nothing_and_uploads_nothing),
          T(first_gpu_use_uploads_ahead_of_the_sync),
          T(replacing_an_uploaded_mesh_uploads_at_once_and_frees_the_old_buffers),
          T(removing_an_uploaded_mesh_releases_its_buffers),
          T(a_failed_sync_names_the_mesh_and_retries_it_at_the_next_sync),
          T(a_replace_whose_upload_fails_keeps_the_old_mesh_on_the_gpu))
