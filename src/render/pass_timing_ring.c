/* The frame ring of GPU pass timings: names per query pair while a readback is in flight, and
 * the ticks that come back turned into milliseconds per pass (pass_timing_ring.h). */
#include "pass_timing_ring.h"

#include <string.h>

/* A slot awaiting nothing, else the one awaiting the oldest frame: with more slots than
 * readbacks can be in flight, a full ring means some readback was lost (its encoder discarded),
 * and the oldest is the likeliest. Evicting one that was still coming only loses it: its
 * readback no longer matches any slot. */
void pass_timing_ring_begin(pass_timing_ring *ring, uint64_t frame) {
    pass_timing_frame *f = &ring->frames[0];
    for (uint32_t i = 0; i < PASS_TIMING_FRAMES && f->frame; i++)
        if (!ring->frames[i].frame || ring->frames[i].frame < f->frame) f = &ring->frames[i];
    f->frame = 0;
    f->count = 0;
    ring->recording = f;
    ring->recording_frame = frame;
}

uint32_t pass_timing_ring_add(pass_timing_ring *ring, const char *name) {
    pass_timing_frame *f = ring->recording;
    if (!f || f->count == KILN_MAX_TIMED_PASSES) return UINT32_MAX;
    char *dst = f->names[f->count];
    size_t len = 0;
    for (; name && name[len] && len < KILN_TIMED_PASS_NAME_SIZE - 1; len++) dst[len] = name[len];
    dst[len] = '\0';
    return f->count++;
}

uint32_t pass_timing_ring_query_count(const pass_timing_ring *ring) {
    return ring->recording ? 2 * ring->recording->count : 0;
}

void pass_timing_ring_end(pass_timing_ring *ring, bool resolved) {
    if (ring->recording && resolved && ring->recording->count) ring->recording->frame = ring->recording_frame;
    ring->recording = NULL;
}

bool pass_timing_ring_complete(pass_timing_ring *ring, uint64_t frame, const uint64_t *ticks, uint32_t n) {
    pass_timing_frame *f = NULL;
    for (uint32_t i = 0; i < PASS_TIMING_FRAMES && frame && !f; i++)
        if (ring->frames[i].frame == frame) f = &ring->frames[i];
    if (!f) return false; /* not awaited: unresolved, or its slot was taken by a newer frame */
    f->frame = 0;
    if (frame <= ring->latest_frame || n < 2 * f->count) return false;
    /* An unwritten query reads 0 (its pass never ran) and a pass cannot end before it began:
     * either makes the whole frame untrustworthy. */
    for (uint32_t i = 0; i < f->count; i++)
        if (!ticks[2 * i] || ticks[2 * i + 1] < ticks[2 * i]) return false;
    double total = 0.0;
    for (uint32_t i = 0; i < f->count; i++) {
        kiln_frame_pass_timing *t = &ring->latest[i];
        memcpy(t->name, f->names[i], KILN_TIMED_PASS_NAME_SIZE);
        t->gpu_ms = (double)(ticks[2 * i + 1] - ticks[2 * i]) * 1e-6;
        total += t->gpu_ms;
    }
    ring->latest_count = f->count;
    ring->latest_frame = frame;
    ring->latest_total_ms = total;
    return true;
}

kiln_frame_timings pass_timing_ring_latest(const pass_timing_ring *ring) {
    if (!ring->latest_frame) return (kiln_frame_timings){.status = KILN_FRAME_TIMINGS_PENDING};
    return (kiln_frame_timings){.status = KILN_FRAME_TIMINGS_READY, .count = ring->latest_count,
                               .passes = ring->latest, .frame = ring->latest_frame,
                               .total_ms = ring->latest_total_ms};
}
