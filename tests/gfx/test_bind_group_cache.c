/* The bind group cache: a hit returns the group made before and creates nothing; a different view
 * misses; a view destroyed and made again (same slot, new generation) misses; a full cache evicts
 * the least recently returned group; clear and destroy release every group. */
#include "gfx_fixture.h"

typedef struct cache_fixture {
    gfx_fixture f;
    kiln_bind_group_layout layout;
    kiln_texture texture;
    kiln_texture_view views[3];
} cache_fixture;

static bool cache_fixture_open(cache_fixture *c) {
    *c = (cache_fixture){0};
    if (!fixture_open(&c->f)) return false;
    kiln_layout_entry entry = {.binding = 0, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_TEXTURE_2D};
    c->layout = kiln_resources_create_bind_group_layout(c->f.res, "cached", &entry, 1, NULL);
    kiln_texture_desc td = {.label = "t", .width = 4, .height = 4, .format = WGPUTextureFormat_RGBA8Unorm,
                            .usage = WGPUTextureUsage_TextureBinding};
    c->texture = kiln_resources_create_texture(c->f.res, &td, NULL);
    for (int i = 0; i < 3; i++) c->views[i] = kiln_resources_create_texture_view(c->f.res, c->texture, NULL, NULL);
    return c->layout.id && c->views[2].id;
}

static bool cache_fixture_close(cache_fixture *c) {
    for (int i = 0; i < 3; i++)
        if (c->views[i].id) kiln_resources_destroy_texture_view(c->f.res, c->views[i], NULL);
    kiln_resources_destroy_texture(c->f.res, c->texture, NULL);
    kiln_resources_destroy_bind_group_layout(c->f.res, c->layout, NULL);
    kiln_live_counts live = kiln_resources_live_counts(c->f.res);
    bool empty = kiln_live_counts_total(&live) == 0;
    return fixture_close(&c->f) == 0 && empty;
}

static kiln_bind_group get(cache_fixture *c, kiln_bind_group_cache *cache, kiln_texture_view view) {
    kiln_binding_resource entry = {.binding = 0, .view = view};
    kiln_error err = {0};
    kiln_bind_group g = kiln_bind_group_cache_get(cache, "cached", c->layout, &entry, 1, &err);
    if (!g.id) fprintf(stderr, "cache get: %s\n", err.message);
    return g;
}

TEST(a_hit_returns_the_same_group_and_creates_nothing) {
    cache_fixture c;
    CHECK(cache_fixture_open(&c));
    kiln_bind_group_cache *cache = kiln_bind_group_cache_create(c.f.res, 4, NULL);
    CHECK(cache);
    kiln_bind_group first = get(&c, cache, c.views[0]);
    uint32_t groups = kiln_resources_live_counts(c.f.res).bind_groups;
    CHECK(first.id);
    CHECK_EQ_INT(get(&c, cache, c.views[0]).id, first.id);
    CHECK_EQ_INT(kiln_resources_live_counts(c.f.res).bind_groups, groups);
    CHECK_EQ_INT(kiln_bind_group_cache_count(cache), 1);
    kiln_bind_group_cache_destroy(cache);
    CHECK(cache_fixture_close(&c));
}

TEST(a_different_view_misses) {
    cache_fixture c;
    CHECK(cache_fixture_open(&c));
    kiln_bind_group_cache *cache = kiln_bind_group_cache_create(c.f.res, 4, NULL);
    kiln_bind_group a = get(&c, cache, c.views[0]), b = get(&c, cache, c.views[1]);
    CHECK(a.id && b.id && a.id != b.id);
    CHECK_EQ_INT(kiln_bind_group_cache_count(cache), 2);
    kiln_bind_group_cache_destroy(cache);
    CHECK(cache_fixture_close(&c));
}

TEST(a_view_destroyed_and_made_again_misses) {
    cache_fixture c;
    CHECK(cache_fixture_open(&c));
    kiln_bind_group_cache *cache = kiln_bind_group_cache_create(c.f.res, 4, NULL);
    kiln_bind_group before = get(&c, cache, c.views[0]);
    kiln_texture_view old = c.views[0];
    CHECK(kiln_resources_destroy_texture_view(c.f.res, old, NULL));
    /* Free slots are reused oldest first: walk the ring until the old slot comes back, under a
     * new generation. The handle differs, so does the group. */
    for (int tries = 0; tries < 1024; tries++) {
        c.views[0] = kiln_resources_create_texture_view(c.f.res, c.texture, NULL, NULL);
        if ((c.views[0].id & KILN_POOL_INDEX_MASK) == (old.id & KILN_POOL_INDEX_MASK)) break;
        kiln_resources_destroy_texture_view(c.f.res, c.views[0], NULL);
    }
    CHECK(c.views[0].id != old.id);
    CHECK_EQ_INT(c.views[0].id & KILN_POOL_INDEX_MASK, old.id & KILN_POOL_INDEX_MASK);
    kiln_bind_group after = get(&c, cache, c.views[0]);
    CHECK(after.id && after.id != before.id);
    CHECK_EQ_INT(kiln_bind_group_cache_count(cache), 2);
    kiln_bind_group_cache_destroy(cache);
    CHECK(cache_fixture_close(&c));
}

TEST(a_full_cache_evicts_the_least_recently_returned_group) {
    cache_fixture c;
    CHECK(cache_fixture_open(&c));
    kiln_bind_group_cache *cache = kiln_bind_group_cache_create(c.f.res, 2, NULL);
    kiln_bind_group a = get(&c, cache, c.views[0]), b = get(&c, cache, c.views[1]);
    CHECK_EQ_INT(get(&c, cache, c.views[0]).id, a.id); /* a is now the more recent */
    uint32_t groups = kiln_resources_live_counts(c.f.res).bind_groups;
    kiln_bind_group third = get(&c, cache, c.views[2]);
    CHECK(third.id);
    /* b made room: one group destroyed, one made, a still cached. */
    CHECK_EQ_INT(kiln_resources_live_counts(c.f.res).bind_groups, groups);
    CHECK_EQ_INT(kiln_bind_group_cache_count(cache), 2);
    CHECK(!kiln_resources_bind_group_raw(c.f.res, b, NULL));
    CHECK_EQ_INT(get(&c, cache, c.views[0]).id, a.id);
    kiln_bind_group_cache_destroy(cache);
    CHECK(cache_fixture_close(&c));
}

TEST(clear_releases_every_group_and_the_cache_stays_usable) {
    cache_fixture c;
    CHECK(cache_fixture_open(&c));
    kiln_bind_group_cache *cache = kiln_bind_group_cache_create(c.f.res, 4, NULL);
    get(&c, cache, c.views[0]);
    get(&c, cache, c.views[1]);
    kiln_bind_group_cache_clear(cache);
    CHECK_EQ_INT(kiln_bind_group_cache_count(cache), 0);
    CHECK_EQ_INT(kiln_resources_live_counts(c.f.res).bind_groups, 0);
    CHECK(get(&c, cache, c.views[0]).id);
    kiln_bind_group_cache_destroy(cache);
    CHECK_EQ_INT(kiln_resources_live_counts(c.f.res).bind_groups, 0);
    CHECK(cache_fixture_close(&c));
}

TEST(a_group_past_the_entry_limit_is_refused) {
    cache_fixture c;
    CHECK(cache_fixture_open(&c));
    kiln_bind_group_cache *cache = kiln_bind_group_cache_create(c.f.res, 1, NULL);
    kiln_binding_resource entries[KILN_BIND_GROUP_CACHE_MAX_ENTRIES + 1] = {{0}};
    kiln_error err = {0};
    CHECK_EQ_INT(kiln_bind_group_cache_get(cache, "big", c.layout, entries, KILN_BIND_GROUP_CACHE_MAX_ENTRIES + 1,
                                           &err).id, 0);
    CHECK_STR_CONTAINS(err.message, "17 entries, more than 16");
    kiln_bind_group_cache_destroy(cache);
    CHECK(cache_fixture_close(&c));
}

TEST_MAIN(T(a_hit_returns_the_same_group_and_creates_nothing), T(a_different_view_misses),
          T(a_view_destroyed_and_made_again_misses), T(a_full_cache_evicts_the_least_recently_returned_group),
          T(clear_releases_every_group_and_the_cache_stays_usable), T(a_group_past_the_entry_limit_is_refused))
