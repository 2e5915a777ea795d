/* What the program runtime asks of the frame graph: pooled textures kept through idle compiles
 * (kiln_frame_graph_set_keep_idle), the pool's statistics, executing a range of the order, and
 * timestamp writes set after compile without undoing it. The pool tests run on an allocator that
 * makes nothing; execution runs compute passes on the GPU. */
#include <kiln/graph.h>

#include "gfx_fixture.h"

/* ---- an allocator that makes nothing -------------------------------------------------------- */

typedef struct null_allocator {
    uint32_t live;
} null_allocator;

static bool null_create_texture(void *user, const char *name, const kiln_fg_texture_desc *desc, kiln_fg_texture *out,
                                kiln_error *err) {
    (void)name, (void)desc, (void)err;
    ((null_allocator *)user)->live++;
    *out = (kiln_fg_texture){0};
    return true;
}
static bool null_create_view(void *user, const kiln_fg_texture *t, uint32_t mip, uint32_t layer, kiln_fg_view *out,
                             kiln_error *err) {
    (void)user, (void)t, (void)mip, (void)layer, (void)err;
    *out = (kiln_fg_view){0};
    return true;
}
static void null_destroy_view(void *user, kiln_fg_view *view) { (void)user, (void)view; }
static void null_destroy_texture(void *user, kiln_fg_texture *t) {
    (void)t;
    ((null_allocator *)user)->live--;
}

static kiln_frame_graph *null_graph(null_allocator *a) {
    *a = (null_allocator){0};
    kiln_fg_allocator alloc = {.user = a, .create_texture = null_create_texture, .create_view = null_create_view,
                               .destroy_view = null_destroy_view, .destroy_texture = null_destroy_texture};
    return kiln_frame_graph_create(&alloc, NULL);
}

static const kiln_fg_texture_desc SMALL = {.width = 8, .height = 8, .format = WGPUTextureFormat_RGBA8Unorm};
static const kiln_fg_texture_desc LARGE = {.width = 16, .height = 16, .format = WGPUTextureFormat_RGBA8Unorm};

/* One frame: a pass writes a transient of `desc`, a second reads it and writes an export. */
static bool frame_of(kiln_frame_graph *g, const kiln_fg_texture_desc *desc) {
    kiln_frame_graph_reset(g);
    kiln_fg_resource t = kiln_frame_graph_create_transient(g, "t", desc);
    kiln_fg_resource out = kiln_frame_graph_import_buffer(g, "out", (kiln_buffer){0});
    kiln_frame_graph_export(g, out);
    uint32_t a = kiln_frame_graph_add_pass(g, "a", NULL, NULL), b = kiln_frame_graph_add_compute_pass(g, "b", NULL, NULL);
    kiln_frame_graph_color(g, a, t, (WGPUColor){0});
    kiln_frame_graph_read(g, b, t);
    kiln_frame_graph_write(g, b, out);
    kiln_error err = {0};
    bool ok = kiln_frame_graph_compile(g, &err);
    if (!ok) fprintf(stderr, "compile: %s\n", err.message);
    return ok;
}

TEST(by_default_a_texture_a_compile_does_not_use_is_destroyed) {
    null_allocator a;
    kiln_frame_graph *g = null_graph(&a);
    CHECK(frame_of(g, &SMALL));
    CHECK(frame_of(g, &LARGE));
    CHECK_EQ_INT(a.live, 1);
    CHECK_EQ_INT(kiln_frame_graph_pool_stats(g).textures, 1);
    kiln_frame_graph_destroy(g);
    CHECK_EQ_INT(a.live, 0);
}

TEST(keep_idle_keeps_an_unused_texture_through_that_many_compiles) {
    null_allocator a;
    kiln_frame_graph *g = null_graph(&a);
    kiln_frame_graph_set_keep_idle(g, 2);
    CHECK(frame_of(g, &SMALL));
    CHECK(frame_of(g, &LARGE));
    CHECK(frame_of(g, &LARGE));
    kiln_fg_pool_stats stats = kiln_frame_graph_pool_stats(g);
    CHECK_EQ_INT(stats.textures, 2);
    CHECK_EQ_INT(stats.descriptions, 2);
    CHECK_EQ_INT(kiln_frame_graph_physical_count(g), 1);
    CHECK(frame_of(g, &LARGE)); /* the third compile in a row without the small texture */
    CHECK_EQ_INT(kiln_frame_graph_pool_stats(g).textures, 1);
    CHECK_EQ_INT(a.live, 1);
    kiln_frame_graph_destroy(g);
}

TEST(a_kept_texture_is_used_again_when_its_description_returns) {
    null_allocator a;
    kiln_frame_graph *g = null_graph(&a);
    kiln_frame_graph_set_keep_idle(g, 4);
    CHECK(frame_of(g, &SMALL));
    CHECK(frame_of(g, &LARGE));
    CHECK(frame_of(g, &SMALL));
    CHECK_EQ_INT(a.live, 2); /* nothing new was made */
    kiln_frame_graph_destroy(g);
}

TEST(pool_stats_count_textures_and_distinct_descriptions) {
    null_allocator a;
    kiln_frame_graph *g = null_graph(&a);
    kiln_frame_graph_reset(g);
    kiln_fg_resource out = kiln_frame_graph_import_buffer(g, "out", (kiln_buffer){0});
    kiln_frame_graph_export(g, out);
    /* Three transients alive at once: two alike, one larger. */
    kiln_fg_resource t[3] = {kiln_frame_graph_create_transient(g, "a", &SMALL),
                             kiln_frame_graph_create_transient(g, "b", &SMALL),
                             kiln_frame_graph_create_transient(g, "c", &LARGE)};
    uint32_t w = kiln_frame_graph_add_pass(g, "w", NULL, NULL), r = kiln_frame_graph_add_compute_pass(g, "r", NULL, NULL);
    for (int i = 0; i < 3; i++) {
        kiln_frame_graph_color(g, w, t[i], (WGPUColor){0});
        kiln_frame_graph_read(g, r, t[i]);
    }
    kiln_frame_graph_write(g, r, out);
    CHECK(kiln_frame_graph_compile(g, NULL));
    kiln_fg_pool_stats stats = kiln_frame_graph_pool_stats(g);
    CHECK_EQ_INT(stats.textures, 3);
    CHECK_EQ_INT(stats.descriptions, 2);
    kiln_frame_graph_destroy(g);
}

/* ---- execution ------------------------------------------------------------------------------- */

typedef struct trace {
    uint32_t passes[8];
    uint32_t count;
} trace;

static void note_pass(kiln_fg_context *ctx, void *user) {
    trace *t = user;
    if (t->count < 8) t->passes[t->count++] = ctx->pass;
}

/* Four compute passes chained through one exported buffer, so all run, in declaration order. */
static kiln_frame_graph *chain_of_four(kiln_resources *res, trace *t) {
    kiln_fg_allocator alloc = kiln_fg_gpu_allocator(res);
    kiln_frame_graph *g = kiln_frame_graph_create(&alloc, NULL);
    kiln_frame_graph_reset(g);
    kiln_fg_resource order = kiln_frame_graph_import_buffer(g, "order", (kiln_buffer){0});
    kiln_frame_graph_export(g, order);
    static const char *const names[4] = {"p0", "p1", "p2", "p3"};
    for (int i = 0; i < 4; i++) kiln_frame_graph_write(g, kiln_frame_graph_add_compute_pass(g, names[i], note_pass, t), order);
    return g;
}

TEST(execute_range_records_only_its_positions_in_order) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    trace t = {0};
    kiln_frame_graph *g = chain_of_four(f.res, &t);
    kiln_error err = {0};
    CHECK(kiln_frame_graph_compile(g, &err));
    kiln_encoder enc;
    CHECK(kiln_encoder_begin(&enc, f.res, "ranges", &err));
    CHECK(kiln_frame_graph_execute_range(g, &enc, 1, 2, &err));
    CHECK_EQ_INT(t.count, 2);
    CHECK_EQ_INT(t.passes[0], 1);
    CHECK_EQ_INT(t.passes[1], 2);
    /* A count past the order is clamped; a range past it records nothing. */
    CHECK(kiln_frame_graph_execute_range(g, &enc, 3, UINT32_MAX, &err));
    CHECK(kiln_frame_graph_execute_range(g, &enc, 9, 1, &err));
    CHECK_EQ_INT(t.count, 3);
    CHECK_EQ_INT(t.passes[2], 3);
    CHECK(kiln_encoder_finish_and_submit(&enc, &err));
    kiln_frame_graph_destroy(g);
    FIXTURE_CLOSE_CLEAN(f);
}

TEST(timestamps_set_after_compile_keep_the_compile) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    trace t = {0};
    kiln_frame_graph *g = chain_of_four(f.res, &t);
    kiln_error err = {0};
    CHECK(kiln_frame_graph_compile(g, &err));
    kiln_frame_graph_timestamps(g, 0, NULL); /* a compute pass ignores them; the compile stands */
    kiln_encoder enc;
    CHECK(kiln_encoder_begin(&enc, f.res, "timestamps", &err));
    CHECK(kiln_frame_graph_execute(g, &enc, &err));
    CHECK_EQ_INT(t.count, 4);
    CHECK(kiln_encoder_finish_and_submit(&enc, &err));
    kiln_frame_graph_destroy(g);
    FIXTURE_CLOSE_CLEAN(f);
}

TEST_MAIN(T(by_default_a_texture_a_compile_does_not_use_is_destroyed),
          T(keep_idle_keeps_an_unused_texture_through_that_many_compiles),
          T(a_kept_texture_is_used_again_when_its_description_returns),
          T(pool_stats_count_textures_and_distinct_descriptions), T(execute_range_records_only_its_positions_in_order),
          T(timestamps_set_after_compile_keep_the_compile))
