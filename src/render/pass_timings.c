/* GPU time per frame-graph pass: the renderer's side of kiln_timestamps.
 *
 * Per frame, after the graph compiles, each executed pass (in order, up to
 * KILN_MAX_TIMED_PASSES) is given timestamp writes at its beginning and end, queries 2i and
 * 2i + 1, and its name goes into the frame ring (pass_timing_ring.c). After the graph executes,
 * the queries are resolved into the frame's encoder; its submit starts the readback's map, which
 * completes inside a later kiln_gfx_pump. Every record (after its pump) and every
 * kiln_renderer_pass_timings call takes the readbacks that came back and keeps the newest frame.
 * Nothing waits for the GPU, and after creation nothing allocates: a frame that finds every
 * readback buffer in flight (the GPU is behind, or nobody pumped) simply goes unmeasured. */
#include <stdlib.h>

#include "renderer_internal.h"

#include "pass_timing_ring.h"

_Static_assert(PASS_TIMING_FRAMES > KILN_TIMESTAMP_READBACKS,
               "the ring must remember every frame whose readback may be in flight, and the one recording");
_Static_assert(2 * KILN_MAX_TIMED_PASSES <= KILN_TIMESTAMP_MAX_QUERIES, "two queries per timed pass");

struct renderer_timings {
    kiln_timestamps *timestamps;    /* 2 * KILN_MAX_TIMED_PASSES queries */
    pass_timing_ring ring;
    uint64_t frame;                 /* the last frame number given out; frames count from 1 */
    uint64_t ticks[2 * KILN_MAX_TIMED_PASSES];
};

void renderer_timings_create(kiln_renderer *r) {
    if (!r->gfx->features.timestamp_query) return;
    kiln_error err = {0};
    renderer_timings *t = calloc(1, sizeof *t);
    if (!t) kiln_error_set(&err, KILN_ERR_OUT_OF_MEMORY, "out of memory");
    else t->timestamps = kiln_timestamps_create(r->res, 2 * KILN_MAX_TIMED_PASSES, &err);
    if (!t || !t->timestamps) {
        /* Timings are a diagnostic: the renderer works without them, and says they are unavailable. */
        kiln_log_add(&r->gfx->diagnostics, KILN_LOG_WARN, "render", "passes will report no GPU time: %s", err.message);
        free(t);
        return;
    }
    r->timings = t;
}

void renderer_timings_destroy(kiln_renderer *r) {
    if (!r->timings) return;
    kiln_timestamps_destroy(r->timings->timestamps);
    free(r->timings);
    r->timings = NULL;
}

void renderer_timings_collect(kiln_renderer *r) {
    renderer_timings *t = r->timings;
    if (!t) return;
    uint64_t frame;
    uint32_t n;
    while ((n = kiln_timestamps_poll(t->timestamps, t->ticks, 2 * KILN_MAX_TIMED_PASSES, &frame)))
        pass_timing_ring_complete(&t->ring, frame, t->ticks, n);
}

void renderer_timings_place(kiln_renderer *r) {
    renderer_timings *t = r->timings;
    if (!t) return;
    ++t->frame;
    pass_timing_ring_end(&t->ring, false); /* a frame that failed before its resolve: unmeasured */
    /* With every readback buffer in flight (the GPU is behind, or nobody pumps) the resolve
     * would be refused: this frame runs untimed rather than write queries no one reads. */
    if (kiln_timestamps_in_flight(t->timestamps) == KILN_TIMESTAMP_READBACKS) return;
    pass_timing_ring_begin(&t->ring, t->frame);
    uint32_t count;
    const uint32_t *order = kiln_frame_graph_order(r->graph, &count);
    for (uint32_t i = 0; i < count; i++) {
        uint32_t q = pass_timing_ring_add(&t->ring, kiln_frame_graph_pass_name(r->graph, order[i]));
        if (q == UINT32_MAX) break; /* passes past the cap run untimed (each compile starts them untimed) */
        kiln_pass_timestamps writes = kiln_timestamps_pass(t->timestamps, 2 * q, 2 * q + 1);
        kiln_frame_graph_timestamps(r->graph, order[i], &writes);
    }
}

void renderer_timings_resolve(kiln_renderer *r, kiln_encoder *enc) {
    renderer_timings *t = r->timings;
    if (!t) return;
    uint32_t queries = pass_timing_ring_query_count(&t->ring);
    /* A refused resolve (every readback in flight, the encoder's hooks used up) only loses this
     * frame's measurement; the frame itself is fine. */
    pass_timing_ring_end(&t->ring, queries && kiln_timestamps_resolve(t->timestamps, enc, queries, t->frame, NULL));
}

kiln_frame_timings kiln_renderer_pass_timings(kiln_renderer *r) {
    if (!r->timings) return (kiln_frame_timings){.status = KILN_FRAME_TIMINGS_UNAVAILABLE};
    renderer_timings_collect(r);
    return pass_timing_ring_latest(&r->timings->ring);
}
