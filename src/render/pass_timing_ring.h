/* The CPU half of the renderer's GPU pass timings: which passes a frame's timestamp queries
 * belong to, kept while the frame's readback is in flight (a ring of frames), and the turning of
 * the ticks that come back into the public list. It makes no GPU call, so the logic is tested with
 * made-up ticks (tests/render/test_pass_timing_ring.c); pass_timings.c drives it from the GPU. */
#ifndef KILN_RENDER_PASS_TIMING_RING_H
#define KILN_RENDER_PASS_TIMING_RING_H

#include <stdbool.h>

#include <kiln/render/frame_timings.h>

/* Frames remembered: the KILN_TIMESTAMP_READBACKS (4) whose readbacks may be in flight plus the
 * one being recorded (pass_timings.c checks the relation at compile time), so a frame's slot is
 * taken by a newer one only once its readback is lost. */
#define PASS_TIMING_FRAMES 5

/* One recorded frame: pass i wrote queries 2i (beginning) and 2i + 1 (end). Names are copied,
 * since the graph keeps its names only until its next reset and the values come back frames
 * later. */
typedef struct pass_timing_frame {
    uint64_t frame;                 /* the frame number awaited; 0: none */
    uint32_t count;
    char names[KILN_MAX_TIMED_PASSES][KILN_TIMED_PASS_NAME_SIZE];
} pass_timing_frame;

typedef struct pass_timing_ring {
    pass_timing_frame frames[PASS_TIMING_FRAMES];
    pass_timing_frame *recording;   /* the frame being recorded; NULL between frames */
    uint64_t recording_frame;
    kiln_frame_pass_timing latest[KILN_MAX_TIMED_PASSES];
    uint32_t latest_count;
    uint64_t latest_frame;          /* 0: no frame has come back yet */
    double latest_total_ms;
} pass_timing_ring;

/* Starts recording frame number `frame` (> 0, increasing) in a slot that awaits nothing, or
 * else in the one awaiting the oldest frame, which is forgotten (its readback, should it still
 * come, matches nothing). */
void pass_timing_ring_begin(pass_timing_ring *ring, uint64_t frame);
/* Adds the next executed pass of the recording frame; returns its index (queries 2i, 2i + 1),
 * or UINT32_MAX when the frame already has KILN_MAX_TIMED_PASSES or none is being recorded. */
uint32_t pass_timing_ring_add(pass_timing_ring *ring, const char *name);
/* The queries the recording frame needs resolved: twice its passes. */
uint32_t pass_timing_ring_query_count(const pass_timing_ring *ring);
/* Ends the recording frame. `resolved`: its queries were resolved into the frame's encoder and
 * its readback is awaited; otherwise the frame goes unmeasured. */
void pass_timing_ring_end(pass_timing_ring *ring, bool resolved);
/* A readback came back for `frame`: ticks[k] is query k's time in nanoseconds, n of them. It
 * becomes the latest when the ring still awaits that frame, it is newer than the latest, every
 * pass has both ticks, and no pass ends before it begins; otherwise it is dropped whole, rather
 * than report part of a frame. Returns whether it became the latest. */
bool pass_timing_ring_complete(pass_timing_ring *ring, uint64_t frame, const uint64_t *ticks, uint32_t n);
/* The latest frame as the public list: READY with it, else PENDING. */
kiln_frame_timings pass_timing_ring_latest(const pass_timing_ring *ring);

#endif
