/* The registry's sync point: it realizes what is not on the GPU yet and uploads what changed on
 * the CPU, once each; with nothing pending it creates no GPU object, uploads nothing and makes no
 * heap allocation (counted by the linker-wrapped allocator, tests/perf/alloc_counter.h). */
#include <kiln/textures.h>

#include "alloc_counter.h"
#include "gfx_fixture.h"

static const uint8_t RED[4] = {255, 0, 0, 255}, GREEN[4] = {0, 255, 0, 255};

static uint32_t create_texel(kiln_texture_registry *reg, const uint8_t rgba[4]) {
    return kiln_texture_registry_add(reg, &(kiln_texture_create_desc){.format = KILN_FORMAT_RGBA8, .width = 1, .height = 1,
                                .pixels = rgba, .pixels_size = 4}, NULL);
}

TEST(sync_realizes_and_uploads_each_new_texture_once) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_texture_registry *reg = kiln_texture_registry_create(f.res, &err);
    CHECK_MSG(reg, "%s", err.message);
    CHECK(create_texel(reg, RED) && create_texel(reg, GREEN));
    uint32_t textures_before = kiln_resources_live_counts(f.res).textures;
    CHECK_MSG(kiln_texture_registry_sync(reg, &err), "%s", err.message);
    kiln_texture_registry_stats stats = kiln_texture_registry_get_stats(reg);
    uint32_t textures_after = kiln_resources_live_counts(f.res).textures;
    kiln_texture_registry_destroy(reg);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK_EQ_INT(textures_after - textures_before, 2);
    CHECK_EQ_INT(stats.realizations, 2);
    CHECK_EQ_INT(stats.uploads, 2);
}

TEST(sync_with_nothing_changed_allocates_nothing_and_uploads_nothing) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_texture_registry *reg = kiln_texture_registry_create(f.res, &err);
    CHECK_MSG(reg, "%s", err.message);
    CHECK(create_texel(reg, RED));
    CHECK_MSG(kiln_texture_registry_sync(reg, &err), "%s", err.message);
    kiln_texture_registry_stats synced = kiln_texture_registry_get_stats(reg);
    kiln_live_counts live = kiln_resources_live_counts(f.res);
    kiln_alloc_counter_start();
    bool ok = kiln_texture_registry_sync(reg, &err) && kiln_texture_registry_sync(reg, &err);
    uint64_t allocations = kiln_alloc_counter_stop();
    kiln_texture_registry_stats again = kiln_texture_registry_get_stats(reg);
    kiln_live_counts live_again = kiln_resources_live_counts(f.res);
    kiln_texture_registry_destroy(reg);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK_MSG(ok, "%s", err.message);
    CHECK_EQ_INT(allocations, 0);
    CHECK_EQ_INT(again.uploads, synced.uploads);
    CHECK_EQ_INT(again.realizations, synced.realizations);
    CHECK(memcmp(&live, &live_again, sizeof live) == 0);
}

TEST(sync_uploads_only_the_texture_that_was_updated) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_texture_registry *reg = kiln_texture_registry_create(f.res, &err);
    CHECK_MSG(reg, "%s", err.message);
    uint32_t a = create_texel(reg, RED);
    CHECK(a && create_texel(reg, RED));
    CHECK_MSG(kiln_texture_registry_sync(reg, &err), "%s", err.message);
    kiln_texture_registry_stats synced = kiln_texture_registry_get_stats(reg);
    /* Two updates before a sync are one upload: the GPU only ever needs the latest copy. */
    CHECK_MSG(kiln_texture_registry_update(reg, a, GREEN, 4, &err), "%s", err.message);
    CHECK_MSG(kiln_texture_registry_update(reg, a, RED, 4, &err), "%s", err.message);
    CHECK_MSG(kiln_texture_registry_sync(reg, &err), "%s", err.message);
    kiln_texture_registry_stats updated = kiln_texture_registry_get_stats(reg);
    kiln_texture_registry_destroy(reg);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK_EQ_INT(updated.uploads - synced.uploads, 1);
    CHECK_EQ_INT(updated.realizations, synced.realizations);
}

TEST(a_destroyed_pending_texture_leaves_nothing_for_sync_to_do) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_texture_registry *reg = kiln_texture_registry_create(f.res, &err);
    CHECK_MSG(reg, "%s", err.message);
    uint32_t id = create_texel(reg, RED);
    CHECK(kiln_texture_registry_remove(reg, id, &err));
    CHECK_MSG(kiln_texture_registry_sync(reg, &err), "%s", err.message);
    kiln_texture_registry_stats stats = kiln_texture_registry_get_stats(reg);
    kiln_texture_registry_destroy(reg);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK_EQ_INT(stats.realizations, 0);
    CHECK_EQ_INT(stats.uploads, 0);
}

/* Once an array's queue is worked off, and after a rewrite of a layer already written once, the
 * sync and the write allocate nothing: the layer's blob is reused. */
TEST(the_array_queue_once_done_and_a_rewritten_layer_allocate_nothing) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_texture_registry *reg = kiln_texture_registry_create(f.res, &err);
    CHECK_MSG(reg, "%s", err.message);
    uint32_t array = kiln_texture_registry_add_array(
        reg, &(kiln_texture_array_desc){.format = KILN_FORMAT_RGBA8, .side = 1, .layers = 2}, &err);
    CHECK_MSG(array, "%s", err.message);
    CHECK(kiln_texture_registry_write_layer(reg, array, 0, RED, 4, &err));
    CHECK_MSG(kiln_texture_registry_sync(reg, &err), "%s", err.message);
    kiln_texture_registry_stats synced = kiln_texture_registry_get_stats(reg);
    kiln_alloc_counter_start();
    bool ok = kiln_texture_registry_sync(reg, &err) && kiln_texture_registry_write_layer(reg, array, 0, GREEN, 4, &err);
    uint64_t allocations = kiln_alloc_counter_stop();
    ok = ok && kiln_texture_registry_sync(reg, &err);
    kiln_texture_registry_stats again = kiln_texture_registry_get_stats(reg);
    kiln_texture_registry_destroy(reg);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK_MSG(ok, "%s", err.message);
    CHECK_EQ_INT(allocations, 0);
    CHECK(synced.layer_uploads == 1 && synced.layer_clears == 1);
    CHECK(again.layer_uploads == 2 && again.layer_clears == 1);
}

TEST_MAIN(T(sync_realizes_and_uploads_each_new_texture_once),
          T(sync_with_nothing_changed_allocates_nothing_and_uploads_nothing),
          T(sync_uploads_only_the_texture_that_was_updated),
          T(a_destroyed_pending_texture_leaves_nothing_for_sync_to_do),
          T(the_array_queue_once_done_and_a_rewritten_layer_allocate_nothing))
