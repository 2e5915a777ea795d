/* Timestamp writes on render and compute passes and their non-blocking readback
 * (kiln_timestamps). Every test needs the adapter's timestamp queries and is skipped, saying so,
 * without them. */
#include "gfx_fixture.h"

#define SIZE 8

typedef struct timed_fixture {
    gfx_fixture f;
    kiln_timestamps *ts;
    kiln_texture target;
    kiln_texture_view view;
} timed_fixture;

static bool timed_open(timed_fixture *t, uint32_t capacity) {
    kiln_error err = {0};
    t->ts = kiln_timestamps_create(t->f.res, capacity, &err);
    t->target = kiln_resources_create_texture(t->f.res, &(kiln_texture_desc){.width = SIZE, .height = SIZE,
                                        .format = WGPUTextureFormat_RGBA8Unorm,
                                        .usage = WGPUTextureUsage_RenderAttachment}, &err);
    t->view = t->target.id ? kiln_resources_create_texture_view(t->f.res, t->target, NULL, &err) : (kiln_texture_view){0};
    if (!t->ts || !t->view.id) fprintf(stderr, "timed_open: %s\n", err.message);
    return t->ts && t->view.id;
}

#define TIMED_OPEN(t, capacity)                                                                    \
    do {                                                                                           \
        FIXTURE_OPEN((t).f);                                                                       \
        if (!(t).f.gfx->features.timestamp_query) {                                                \
            fixture_close(&(t).f);                                                                 \
            SKIP("the adapter offers no timestamp queries");                                       \
        }                                                                                          \
        CHECK(timed_open(&(t), capacity));                                                         \
    } while (0)

/* A cleared pass writing `begin` at its start and `end` at its finish. */
static bool timed_clear(timed_fixture *t, kiln_encoder *enc, uint32_t begin, uint32_t end, kiln_error *err) {
    kiln_color_attachment c = kiln_color_cleared(kiln_resources_texture_view_raw(t->f.res, t->view, NULL), 0, 0, 1, 1);
    kiln_pass_timestamps w = kiln_timestamps_pass(t->ts, begin, end);
    kiln_render_pass pass;
    if (!kiln_encoder_begin_render_pass_timed(enc, "timed", &c, 1, NULL, &w, &pass, err)) return false;
    kiln_render_pass_end(&pass);
    return true;
}

/* Waits for the queue and pumps until a readback completes (bounded). */
static uint32_t poll_until_done(timed_fixture *t, uint64_t *values, uint32_t max, uint64_t *token) {
    for (int tries = 0; tries < 100; tries++) {
        if (!kiln_gfx_wait_for_queue(t->f.gfx, NULL)) return 0;
        kiln_gfx_pump(t->f.gfx, true);
        uint32_t n = kiln_timestamps_poll(t->ts, values, max, token);
        if (n) return n;
    }
    return 0;
}

static void timed_close(timed_fixture *t) {
    kiln_timestamps_destroy(t->ts);
    kiln_resources_destroy_texture_view(t->f.res, t->view, NULL);
    kiln_resources_destroy_texture(t->f.res, t->target, NULL);
}

TEST(a_timed_pass_reads_back_its_begin_and_end) {
    timed_fixture t;
    TIMED_OPEN(t, 2);
    kiln_error err = {0};
    kiln_encoder enc;
    CHECK(kiln_encoder_begin(&enc, t.f.res, "timed", &err));
    CHECK_MSG(timed_clear(&t, &enc, 0, 1, &err), "%s", err.message);
    CHECK_MSG(kiln_timestamps_resolve(t.ts, &enc, 2, 77, &err), "%s", err.message);
    CHECK(kiln_encoder_finish_and_submit(&enc, &err));
    uint64_t values[2] = {0}, token = 0;
    CHECK_EQ_INT(poll_until_done(&t, values, 2, &token), 2);
    CHECK_EQ_INT(token, 77);
    CHECK(values[0] != 0 && values[1] != 0);
    CHECK_MSG(values[1] >= values[0], "end %llu before begin %llu", (unsigned long long)values[1],
              (unsigned long long)values[0]);
    CHECK_EQ_INT(kiln_timestamps_in_flight(t.ts), 0);
    timed_close(&t);
    FIXTURE_CLOSE_CLEAN(t.f);
}

/* A compute pass writes its queries the same way (the renderer times its cluster light cull). */
TEST(a_timed_compute_pass_reads_back_its_begin_and_end) {
    timed_fixture t;
    TIMED_OPEN(t, 2);
    kiln_error err = {0};
    kiln_encoder enc;
    CHECK(kiln_encoder_begin(&enc, t.f.res, "timed", &err));
    kiln_pass_timestamps w = kiln_timestamps_pass(t.ts, 0, 1);
    kiln_compute_pass pass;
    CHECK_MSG(kiln_encoder_begin_compute_pass_timed(&enc, "timed compute", &w, &pass, &err), "%s", err.message);
    kiln_compute_pass_end(&pass);
    CHECK_MSG(kiln_timestamps_resolve(t.ts, &enc, 2, 5, &err), "%s", err.message);
    CHECK(kiln_encoder_finish_and_submit(&enc, &err));
    uint64_t values[2] = {0}, token = 0;
    CHECK_EQ_INT(poll_until_done(&t, values, 2, &token), 2);
    CHECK_EQ_INT(token, 5);
    CHECK(values[0] != 0 && values[1] >= values[0]);
    timed_close(&t);
    FIXTURE_CLOSE_CLEAN(t.f);
}

TEST(readbacks_are_polled_oldest_first) {
    timed_fixture t;
    TIMED_OPEN(t, 2);
    kiln_error err = {0};
    for (uint64_t token = 1; token <= 2; token++) {
        kiln_encoder enc;
        CHECK(kiln_encoder_begin(&enc, t.f.res, "timed", &err));
        CHECK(timed_clear(&t, &enc, 0, 1, &err));
        CHECK(kiln_timestamps_resolve(t.ts, &enc, 2, token, &err));
        CHECK(kiln_encoder_finish_and_submit(&enc, &err));
    }
    /* With the queue idle, two pumps complete both maps; the polls between them pump nothing. */
    CHECK(kiln_gfx_wait_for_queue(t.f.gfx, &err));
    kiln_gfx_pump(t.f.gfx, true);
    kiln_gfx_pump(t.f.gfx, true);
    uint64_t values[2], first = 0, second = 0;
    CHECK_EQ_INT(kiln_timestamps_poll(t.ts, values, 2, &first), 2);
    CHECK_EQ_INT(first, 1);
    CHECK_EQ_INT(kiln_timestamps_poll(t.ts, values, 2, &second), 2);
    CHECK_EQ_INT(second, 2);
    timed_close(&t);
    FIXTURE_CLOSE_CLEAN(t.f);
}

TEST(nothing_is_polled_before_the_encoder_is_submitted) {
    timed_fixture t;
    TIMED_OPEN(t, 2);
    kiln_error err = {0};
    kiln_encoder enc;
    CHECK(kiln_encoder_begin(&enc, t.f.res, "timed", &err));
    CHECK(timed_clear(&t, &enc, 0, 1, &err));
    CHECK(kiln_timestamps_resolve(t.ts, &enc, 2, 1, &err));
    kiln_gfx_pump(t.f.gfx, true);
    uint64_t values[2], token;
    CHECK_EQ_INT(kiln_timestamps_poll(t.ts, values, 2, &token), 0);
    CHECK_EQ_INT(kiln_timestamps_in_flight(t.ts), 1);
    CHECK(kiln_encoder_finish_and_submit(&enc, &err));
    CHECK_EQ_INT(poll_until_done(&t, values, 2, &token), 2);
    timed_close(&t);
    FIXTURE_CLOSE_CLEAN(t.f);
}

TEST(discarding_the_encoder_frees_its_readback) {
    timed_fixture t;
    TIMED_OPEN(t, 2);
    kiln_error err = {0};
    kiln_encoder enc;
    CHECK(kiln_encoder_begin(&enc, t.f.res, "timed", &err));
    CHECK(timed_clear(&t, &enc, 0, 1, &err));
    CHECK(kiln_timestamps_resolve(t.ts, &enc, 2, 1, &err));
    CHECK_EQ_INT(kiln_timestamps_in_flight(t.ts), 1);
    kiln_encoder_discard(&enc);
    CHECK_EQ_INT(kiln_timestamps_in_flight(t.ts), 0);
    timed_close(&t);
    FIXTURE_CLOSE_CLEAN(t.f);
}

TEST(a_resolve_with_every_readback_in_flight_is_refused) {
    timed_fixture t;
    TIMED_OPEN(t, 2);
    kiln_error err = {0};
    kiln_encoder enc;
    CHECK(kiln_encoder_begin(&enc, t.f.res, "timed", &err));
    CHECK(timed_clear(&t, &enc, 0, 1, &err));
    for (uint64_t i = 0; i < KILN_TIMESTAMP_READBACKS; i++) CHECK(kiln_timestamps_resolve(t.ts, &enc, 2, i, &err));
    CHECK(!kiln_timestamps_resolve(t.ts, &enc, 2, 99, &err));
    CHECK_EQ_INT(err.code, KILN_ERR_BUSY);
    CHECK_STR_CONTAINS(err.message, "all 4 readback buffers are in flight");
    CHECK_EQ_INT(enc.hook_count, KILN_TIMESTAMP_READBACKS);
    kiln_encoder_discard(&enc);
    timed_close(&t);
    FIXTURE_CLOSE_CLEAN(t.f);
}

TEST(a_query_index_past_the_set_is_refused_before_recording) {
    timed_fixture t;
    TIMED_OPEN(t, 4);
    kiln_error err = {0};
    kiln_encoder enc;
    CHECK(kiln_encoder_begin(&enc, t.f.res, "timed", &err));
    CHECK(!timed_clear(&t, &enc, 0, 4, &err));
    CHECK_STR_CONTAINS(err.message, "render pass 'timed': timestamp query 4 is past the set's 4 queries");
    CHECK(!enc.pass_open);
    CHECK(!timed_clear(&t, &enc, 2, 2, &err));
    CHECK_STR_CONTAINS(err.message, "beginning and end both write timestamp query 2");
    CHECK(timed_clear(&t, &enc, 2, WGPU_QUERY_SET_INDEX_UNDEFINED, &err));
    kiln_pass_timestamps past = kiln_timestamps_pass(t.ts, 4, 5);
    kiln_compute_pass cp;
    CHECK(!kiln_encoder_begin_compute_pass_timed(&enc, "cull", &past, &cp, &err));
    CHECK_STR_CONTAINS(err.message, "compute pass 'cull': timestamp query 4 is past the set's 4 queries");
    CHECK(!enc.pass_open);
    CHECK(kiln_encoder_finish_and_submit(&enc, &err));
    timed_close(&t);
    FIXTURE_CLOSE_CLEAN(t.f);
}

TEST(a_resolve_past_the_capacity_is_refused) {
    timed_fixture t;
    TIMED_OPEN(t, 2);
    kiln_error err = {0};
    kiln_encoder enc;
    CHECK(kiln_encoder_begin(&enc, t.f.res, "timed", &err));
    CHECK(!kiln_timestamps_resolve(t.ts, &enc, 3, 1, &err));
    CHECK_STR_CONTAINS(err.message, "timestamps: resolving 3 queries of a set of 2");
    CHECK_EQ_INT(enc.hook_count, 0);
    kiln_encoder_discard(&enc);
    timed_close(&t);
    FIXTURE_CLOSE_CLEAN(t.f);
}

/* Destroy waits for nothing: the submitted readback's map completes (or aborts) in a later pump,
 * after the object is gone from the caller's view, and must touch nothing freed. */
TEST(destroying_with_readbacks_in_flight_is_safe) {
    timed_fixture t;
    TIMED_OPEN(t, 2);
    kiln_error err = {0};
    kiln_encoder submitted, pending;
    CHECK(kiln_encoder_begin(&submitted, t.f.res, "submitted", &err));
    CHECK(timed_clear(&t, &submitted, 0, 1, &err));
    CHECK(kiln_timestamps_resolve(t.ts, &submitted, 2, 1, &err));
    CHECK(kiln_encoder_finish_and_submit(&submitted, &err));
    CHECK(kiln_encoder_begin(&pending, t.f.res, "pending", &err));
    CHECK(timed_clear(&t, &pending, 0, 1, &err));
    CHECK(kiln_timestamps_resolve(t.ts, &pending, 2, 2, &err));
    kiln_timestamps_destroy(t.ts);
    CHECK(kiln_encoder_finish_and_submit(&pending, &err)); /* still valid: it holds its own references */
    CHECK(kiln_gfx_wait_for_queue(t.f.gfx, &err));
    kiln_gfx_pump(t.f.gfx, true);
    t.ts = NULL;
    timed_close(&t);
    FIXTURE_CLOSE_CLEAN(t.f);
}

TEST_MAIN(T(a_timed_pass_reads_back_its_begin_and_end), T(a_timed_compute_pass_reads_back_its_begin_and_end),
          T(readbacks_are_polled_oldest_first),
          T(nothing_is_polled_before_the_encoder_is_submitted), T(discarding_the_encoder_frees_its_readback),
          T(a_resolve_with_every_readback_in_flight_is_refused),
          T(a_query_index_past_the_set_is_refused_before_recording), T(a_resolve_past_the_capacity_is_refused),
          T(destroying_with_readbacks_in_flight_is_safe))
