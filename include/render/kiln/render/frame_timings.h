/* kiln/render/frame_timings.h: the GPU time of each frame-graph pass (kiln_renderer_pass_timings).
 *
 * Where the device has timestamp queries, every render and compute pass the renderer's frame
 * graph executes writes the GPU's time at its beginning and its end. The values are resolved
 * into the frame's own encoder and read back without waiting: they arrive one or more frames
 * later, inside a later kiln_gfx_pump (every render and record pumps first), and the renderer
 * then hands out the most recent frame that completed. Where the device has none, nothing is
 * measured and the timings say so (KILN_FRAME_TIMINGS_UNAVAILABLE): never a list of zeros.
 *
 * Guide: docs/guides/render.md, "GPU timings". */
#ifndef KILN_RENDER_FRAME_TIMINGS_H
#define KILN_RENDER_FRAME_TIMINGS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Passes timed per frame: the first ones in execution order; later passes of a larger frame run
 * unmeasured and are not listed. */
#define KILN_MAX_TIMED_PASSES 128
/* Bytes of a pass name kept with its time, the terminating NUL included (longer names are cut). */
#define KILN_TIMED_PASS_NAME_SIZE 48

/* Where the timings stand. Zero is UNAVAILABLE, so a zero-initialised kiln_frame_timings holds
 * nothing. */
typedef enum kiln_frame_timings_status {
    KILN_FRAME_TIMINGS_UNAVAILABLE = 0, /* the device has no timestamp queries: nothing is ever measured */
    KILN_FRAME_TIMINGS_PENDING,         /* measuring, but no frame's values have come back yet */
    KILN_FRAME_TIMINGS_READY,           /* `passes` holds the most recent completed frame */
} kiln_frame_timings_status;

/* One executed pass of a measured frame. */
typedef struct kiln_frame_pass_timing {
    char name[KILN_TIMED_PASS_NAME_SIZE]; /* the frame-graph pass's name (copied, NUL-terminated) */
    double gpu_ms;                        /* its beginning to its end on the GPU, milliseconds; >= 0, finite */
} kiln_frame_pass_timing;

/* A measured frame, or why there is none. `passes` points into the renderer: it is borrowed and
 * overwritten (never moved or freed) by a later kiln_renderer_render, _record or _pass_timings,
 * and freed by kiln_renderer_destroy; copy what must outlast that. */
typedef struct kiln_frame_timings {
    kiln_frame_timings_status status;     /* READY, PENDING or UNAVAILABLE (see the enum) */
    uint32_t count;                       /* entries of `passes`: the frame's executed passes; 0 unless READY */
    const kiln_frame_pass_timing *passes; /* in execution order; NULL unless READY */
    uint64_t frame;                       /* the frame measured: 1 is the renderer's first recorded frame */
    double total_ms;                      /* the passes' sum (not the frame's span: gaps between passes are left out) */
} kiln_frame_timings;

/* A name for a status ("unavailable", "pending", "ready"); NULL for a value outside the enum. */
const char *kiln_frame_timings_status_name(kiln_frame_timings_status status);

#ifdef __cplusplus
}
#endif

#endif
