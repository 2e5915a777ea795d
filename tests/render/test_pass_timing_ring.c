/* The CPU half of GPU pass timings without a GPU (src/render/pass_timing_ring.c): frames are
 * recorded into the ring as pass_timings.c records them, and readbacks are made-up ticks, so the
 * mapping of query pairs to passes and the frame-latency rules are pinned on every machine,
 * whether or not its device has timestamp queries. */
#include "render/pass_timing_ring.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

static const char *const PASSES[] = {"depth prepass", "cluster light cull", "forward+ opaque", "tonemap"};
#define PASS_COUNT 4

/* Records frame `frame` with the four passes above and ends it, resolved or not. */
static void record_frame(pass_timing_ring *ring, uint64_t frame, bool resolved) {
    pass_timing_ring_begin(ring, frame);
    for (uint32_t i = 0; i < PASS_COUNT; i++) pass_timing_ring_add(ring, PASSES[i]);
    pass_timing_ring_end(ring, resolved);
}

/* Ticks for the four passes: pass i begins at base + 1000 * i ns and lasts (i + 1) * 250 us. */
static void ticks_for(uint64_t base, uint64_t ticks[2 * PASS_COUNT]) {
    for (uint32_t i = 0; i < PASS_COUNT; i++) {
        ticks[2 * i] = base + 1000000u * i;
        ticks[2 * i + 1] = ticks[2 * i] + 250000u * (i + 1);
    }
}

static pass_timing_ring *new_ring(void) { return calloc(1, sizeof(pass_timing_ring)); }

TEST(nothing_is_ready_before_a_readback_comes_back) {
    pass_timing_ring *ring = new_ring();
    record_frame(ring, 1, true);
    kiln_frame_timings t = pass_timing_ring_latest(ring);
    CHECK_EQ_INT(t.status, KILN_FRAME_TIMINGS_PENDING);
    CHECK_EQ_INT(t.count, 0);
    CHECK(t.passes == NULL);
    free(ring);
}

TEST(each_query_pair_becomes_its_pass_time_in_milliseconds) {
    pass_timing_ring *ring = new_ring();
    CHECK_EQ_INT(pass_timing_ring_query_count(ring), 0);
    pass_timing_ring_begin(ring, 1);
    for (uint32_t i = 0; i < PASS_COUNT; i++) CHECK_EQ_INT(pass_timing_ring_add(ring, PASSES[i]), i);
    CHECK_EQ_INT(pass_timing_ring_query_count(ring), 2 * PASS_COUNT);
    pass_timing_ring_end(ring, true);
    uint64_t ticks[2 * PASS_COUNT];
    ticks_for(5000000000ull, ticks);
    CHECK(pass_timing_ring_complete(ring, 1, ticks, 2 * PASS_COUNT));
    kiln_frame_timings t = pass_timing_ring_latest(ring);
    CHECK_EQ_INT(t.status, KILN_FRAME_TIMINGS_READY);
    CHECK_EQ_INT(t.count, PASS_COUNT);
    CHECK_EQ_INT(t.frame, 1);
    for (uint32_t i = 0; i < PASS_COUNT; i++) {
        CHECK(!strcmp(t.passes[i].name, PASSES[i]));
        CHECK_NEAR(t.passes[i].gpu_ms, 0.25 * (i + 1), 1e-12);
    }
    CHECK_NEAR(t.total_ms, 0.25 + 0.5 + 0.75 + 1.0, 1e-12);
    free(ring);
}

TEST(a_later_frame_replaces_the_latest_and_an_older_one_does_not) {
    pass_timing_ring *ring = new_ring();
    uint64_t ticks[2 * PASS_COUNT];
    record_frame(ring, 1, true);
    record_frame(ring, 2, true);
    record_frame(ring, 3, true);
    ticks_for(1000, ticks);
    ticks[1] += 4000000; /* frame 3's first pass: 4.25 ms */
    CHECK(pass_timing_ring_complete(ring, 3, ticks, 2 * PASS_COUNT));
    ticks[1] -= 4000000;
    /* Frame 2 comes back after frame 3 (readbacks need not complete in order): it is older than
     * what is shown, so it is dropped, and so is a repeat of frame 3. */
    CHECK(!pass_timing_ring_complete(ring, 2, ticks, 2 * PASS_COUNT));
    CHECK(!pass_timing_ring_complete(ring, 3, ticks, 2 * PASS_COUNT));
    kiln_frame_timings t = pass_timing_ring_latest(ring);
    CHECK_EQ_INT(t.frame, 3);
    CHECK_NEAR(t.passes[0].gpu_ms, 4.25, 1e-12);
    free(ring);
}

TEST(a_full_ring_forgets_its_oldest_frame_and_its_late_readback_is_dropped) {
    pass_timing_ring *ring = new_ring();
    uint64_t ticks[2 * PASS_COUNT];
    ticks_for(1000, ticks);
    /* Five frames awaited at once: more than readbacks can be in flight, so one was lost (its
     * encoder discarded). The next frame takes the oldest one's slot. */
    for (uint64_t frame = 1; frame <= PASS_TIMING_FRAMES; frame++) record_frame(ring, frame, true);
    pass_timing_ring_begin(ring, PASS_TIMING_FRAMES + 1);
    pass_timing_ring_add(ring, "only pass");
    pass_timing_ring_end(ring, true);
    /* Frame 1's readback, should it still come, must not be put under the new frame's names. */
    CHECK(!pass_timing_ring_complete(ring, 1, ticks, 2 * PASS_COUNT));
    CHECK_EQ_INT(pass_timing_ring_latest(ring).status, KILN_FRAME_TIMINGS_PENDING);
    CHECK(pass_timing_ring_complete(ring, 2, ticks, 2 * PASS_COUNT));
    CHECK_EQ_INT(pass_timing_ring_latest(ring).count, PASS_COUNT);
    CHECK(pass_timing_ring_complete(ring, PASS_TIMING_FRAMES + 1, ticks, 2));
    kiln_frame_timings t = pass_timing_ring_latest(ring);
    CHECK_EQ_INT(t.count, 1);
    CHECK_EQ_INT(t.frame, PASS_TIMING_FRAMES + 1);
    CHECK(!strcmp(t.passes[0].name, "only pass"));
    free(ring);
}

TEST(frames_that_went_unmeasured_take_no_slot) {
    pass_timing_ring *ring = new_ring();
    uint64_t ticks[2 * PASS_COUNT];
    ticks_for(1000, ticks);
    record_frame(ring, 1, true);
    /* Frames 2..20 were refused their resolve while frame 1's readback was in flight. */
    for (uint64_t frame = 2; frame <= 20; frame++) record_frame(ring, frame, false);
    CHECK(pass_timing_ring_complete(ring, 1, ticks, 2 * PASS_COUNT));
    CHECK_EQ_INT(pass_timing_ring_latest(ring).frame, 1);
    free(ring);
}

TEST(an_unresolved_frame_is_never_awaited) {
    pass_timing_ring *ring = new_ring();
    uint64_t ticks[2 * PASS_COUNT];
    ticks_for(1000, ticks);
    record_frame(ring, 1, false); /* every readback was in flight: the resolve was refused */
    CHECK(!pass_timing_ring_complete(ring, 1, ticks, 2 * PASS_COUNT));
    /* Begun and never ended (the frame failed to record): not awaited either. */
    pass_timing_ring_begin(ring, 2);
    pass_timing_ring_add(ring, PASSES[0]);
    CHECK(!pass_timing_ring_complete(ring, 2, ticks, 2));
    CHECK_EQ_INT(pass_timing_ring_latest(ring).status, KILN_FRAME_TIMINGS_PENDING);
    free(ring);
}

TEST(a_frame_with_an_unwritten_or_backward_pair_is_dropped_whole) {
    pass_timing_ring *ring = new_ring();
    uint64_t ticks[2 * PASS_COUNT];
    record_frame(ring, 1, true);
    ticks_for(1000, ticks);
    CHECK(pass_timing_ring_complete(ring, 1, ticks, 2 * PASS_COUNT));
    record_frame(ring, 2, true);
    ticks[4] = 0; /* pass 2 never began: its query reads 0 */
    CHECK(!pass_timing_ring_complete(ring, 2, ticks, 2 * PASS_COUNT));
    record_frame(ring, 3, true);
    ticks_for(1000, ticks);
    ticks[7] = ticks[6] - 1; /* pass 3 ends before it begins */
    CHECK(!pass_timing_ring_complete(ring, 3, ticks, 2 * PASS_COUNT));
    record_frame(ring, 4, true);
    ticks_for(1000, ticks);
    CHECK(!pass_timing_ring_complete(ring, 4, ticks, 2 * PASS_COUNT - 1)); /* too few values */
    /* The last good frame stays: never part of a frame, never zeros. */
    kiln_frame_timings t = pass_timing_ring_latest(ring);
    CHECK_EQ_INT(t.frame, 1);
    CHECK_EQ_INT(t.count, PASS_COUNT);
    free(ring);
}

TEST(a_pass_that_takes_no_time_reads_zero_not_absent) {
    pass_timing_ring *ring = new_ring();
    uint64_t ticks[2 * PASS_COUNT];
    record_frame(ring, 1, true);
    ticks_for(1000, ticks);
    ticks[3] = ticks[2]; /* Dawn may quantise: equal ticks are a pass of 0 ms */
    CHECK(pass_timing_ring_complete(ring, 1, ticks, 2 * PASS_COUNT));
    CHECK_EQ_INT(pass_timing_ring_latest(ring).count, PASS_COUNT);
    CHECK_NEAR(pass_timing_ring_latest(ring).passes[1].gpu_ms, 0.0, 0.0);
    free(ring);
}

TEST(passes_past_the_cap_are_not_timed_and_long_names_are_cut) {
    pass_timing_ring *ring = new_ring();
    char long_name[2 * KILN_TIMED_PASS_NAME_SIZE];
    memset(long_name, 'x', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    pass_timing_ring_begin(ring, 1);
    for (uint32_t i = 0; i < KILN_MAX_TIMED_PASSES; i++) CHECK_EQ_INT(pass_timing_ring_add(ring, long_name), i);
    CHECK_EQ_INT(pass_timing_ring_add(ring, "one too many"), UINT32_MAX);
    CHECK_EQ_INT(pass_timing_ring_query_count(ring), 2 * KILN_MAX_TIMED_PASSES);
    pass_timing_ring_end(ring, true);
    static uint64_t ticks[2 * KILN_MAX_TIMED_PASSES];
    for (uint32_t i = 0; i < 2 * KILN_MAX_TIMED_PASSES; i++) ticks[i] = 1000 + i;
    CHECK(pass_timing_ring_complete(ring, 1, ticks, 2 * KILN_MAX_TIMED_PASSES));
    kiln_frame_timings t = pass_timing_ring_latest(ring);
    CHECK_EQ_INT(t.count, KILN_MAX_TIMED_PASSES);
    CHECK_EQ_INT(strlen(t.passes[0].name), KILN_TIMED_PASS_NAME_SIZE - 1);
    CHECK_EQ_INT(pass_timing_ring_add(ring, "no frame is recording"), UINT32_MAX);
    free(ring);
}

TEST_MAIN(T(nothing_is_ready_before_a_readback_comes_back), T(each_query_pair_becomes_its_pass_time_in_milliseconds),
          T(a_later_frame_replaces_the_latest_and_an_older_one_does_not),
          T(a_full_ring_forgets_its_oldest_frame_and_its_late_readback_is_dropped),
          T(frames_that_went_unmeasured_take_no_slot),
          T(an_unresolved_frame_is_never_awaited), T(a_frame_with_an_unwritten_or_backward_pair_is_dropped_whole),
          T(a_pass_that_takes_no_time_reads_zero_not_absent),
          T(passes_past_the_cap_are_not_timed_and_long_names_are_cut))
