/* The object cache: identical descriptors share one object (labels aside) and count references;
 * different content is a different object; the last release destroys it; a pipeline layout over
 * shared group layouts is shared too; destroy releases whatever is left. */
#include "gfx_fixture.h"

static const kiln_layout_entry UNIFORM = {.binding = 0, .visibility = WGPUShaderStage_Fragment,
                                          .kind = KILN_BINDING_UNIFORM_BUFFER, .min_binding_size = 16};

static kiln_bind_group_layout uniform_layout(kiln_object_cache *c, const char *label, uint64_t size) {
    kiln_layout_entry e = UNIFORM;
    e.min_binding_size = size;
    kiln_error err = {0};
    kiln_bind_group_layout l = kiln_object_cache_bind_group_layout(c, label, &e, 1, &err);
    if (!l.id) fprintf(stderr, "layout: %s\n", err.message);
    return l;
}

TEST(identical_layouts_share_one_object_until_the_last_release) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_object_cache *c = kiln_object_cache_create(f.res, NULL);
    CHECK(c);
    kiln_bind_group_layout a = uniform_layout(c, "first", 16), b = uniform_layout(c, "second label", 16);
    CHECK(a.id && a.id == b.id);
    CHECK_EQ_INT(kiln_resources_live_counts(f.res).bind_group_layouts, 1);
    kiln_bind_group_layout other = uniform_layout(c, "first", 32);
    CHECK(other.id && other.id != a.id);
    CHECK_EQ_INT(kiln_object_cache_counts(c).bind_group_layouts, 2);
    kiln_object_cache_release_bind_group_layout(c, a);
    CHECK_EQ_INT(kiln_resources_live_counts(f.res).bind_group_layouts, 2); /* b still holds it */
    kiln_object_cache_release_bind_group_layout(c, b);
    CHECK_EQ_INT(kiln_resources_live_counts(f.res).bind_group_layouts, 1);
    /* Made again after it went: a new object under a new handle. */
    kiln_bind_group_layout again = uniform_layout(c, "first", 16);
    CHECK(again.id && again.id != a.id);
    kiln_object_cache_release_bind_group_layout(c, again);
    kiln_object_cache_release_bind_group_layout(c, other);
    kiln_object_cache_release_bind_group_layout(c, other); /* no longer held: ignored */
    CHECK_EQ_INT(kiln_object_cache_counts(c).bind_group_layouts, 0);
    CHECK_EQ_INT(kiln_resources_live_counts(f.res).bind_group_layouts, 0);
    kiln_object_cache_destroy(c);
    FIXTURE_CLOSE_CLEAN(f);
}

TEST(pipeline_layouts_over_shared_group_layouts_are_shared) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_object_cache *c = kiln_object_cache_create(f.res, NULL);
    kiln_bind_group_layout g = uniform_layout(c, "g", 16);
    kiln_pipeline_layout p1 = kiln_object_cache_pipeline_layout(c, "one", &g, 1, NULL);
    kiln_pipeline_layout p2 = kiln_object_cache_pipeline_layout(c, "two", &g, 1, NULL);
    CHECK(p1.id && p1.id == p2.id);
    CHECK_EQ_INT(kiln_resources_live_counts(f.res).pipeline_layouts, 1);
    kiln_object_cache_stats s = kiln_object_cache_counts(c);
    CHECK_EQ_INT(s.bind_group_layouts, 1);
    CHECK_EQ_INT(s.pipeline_layouts, 1);
    /* Destroy releases what is still held, whatever its references. */
    kiln_object_cache_destroy(c);
    kiln_live_counts live = kiln_resources_live_counts(f.res);
    CHECK_EQ_INT(kiln_live_counts_total(&live), 0);
    FIXTURE_CLOSE_CLEAN(f);
}

/* Many distinct layouts: the tables grow and every one is found again by content and by id. */
TEST(thousands_of_distinct_layouts_stay_findable) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_resources_destroy(f.res);
    f.res = kiln_resources_create(f.gfx, 0, NULL); /* pools that grow past 1024 layouts */
    kiln_object_cache *c = kiln_object_cache_create(f.res, NULL);
    enum { N = 1500 };
    static kiln_bind_group_layout made[N];
    for (uint32_t i = 0; i < N; i++) made[i] = uniform_layout(c, "n", 16 * (i + 1));
    bool found = true;
    for (uint32_t i = 0; i < N; i++) found = found && uniform_layout(c, "n", 16 * (i + 1)).id == made[i].id;
    CHECK(found);
    CHECK_EQ_INT(kiln_resources_live_counts(f.res).bind_group_layouts, N);
    for (uint32_t i = 0; i < N; i++) {
        kiln_object_cache_release_bind_group_layout(c, made[i]);
        kiln_object_cache_release_bind_group_layout(c, made[i]);
    }
    CHECK_EQ_INT(kiln_resources_live_counts(f.res).bind_group_layouts, 0);
    kiln_object_cache_destroy(c);
    FIXTURE_CLOSE_CLEAN(f);
}

TEST_MAIN(T(identical_layouts_share_one_object_until_the_last_release),
          T(pipeline_layouts_over_shared_group_layouts_are_shared), T(thousands_of_distinct_layouts_stay_findable))
