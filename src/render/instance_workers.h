/* Worker threads for the per-instance work of a frame (culling, sort keys, instance records):
 * a job runs over [0, n) cut into one contiguous range per thread, the calling thread taking the
 * first, and returns when every range is done. Ranges are contiguous (not interleaved) so each
 * thread streams through its own part of the instance arrays and writes its own part of the
 * outputs; their bounds are multiples of `align`, so per-chunk state is never shared. The
 * threads are made once at creation and sleep between jobs: a job allocates nothing. Whatever
 * the thread count, a job's outputs are the same as long as each range's work depends only on
 * its own instances, which is how views.c and instance_records.c use it. */
#ifndef KILN_RENDER_INSTANCE_WORKERS_H
#define KILN_RENDER_INSTANCE_WORKERS_H

#include <stdint.h>

#include <kiln/core/error.h>

typedef struct instance_workers instance_workers;

/* One range of a job: instances [begin, end), the range's index among the job's ranges. */
typedef void (*instance_range_job)(void *context, uint32_t range, uint32_t begin, uint32_t end);

/* `threads` in all, the caller included (1: no thread is made, jobs run inline). NULL with err
 * when a thread cannot be started. */
instance_workers *instance_workers_create(uint32_t threads, kiln_error *err);
/* Stops and joins the threads; NULL is a no-op. */
void instance_workers_destroy(instance_workers *w);
uint32_t instance_workers_threads(const instance_workers *w);
/* The ranges a job over n instances is cut into: one per thread, fewer when n is small (a range
 * holds at least `min_range` instances, rounded up to `align`), at least 1. */
uint32_t instance_workers_ranges(const instance_workers *w, uint32_t n, uint32_t align, uint32_t min_range);
/* Range r of `ranges` over n instances, bounds multiples of align (the last ends at n). */
void instance_workers_range(uint32_t n, uint32_t align, uint32_t ranges, uint32_t r, uint32_t *begin, uint32_t *end);
/* Runs `job` over the ranges and waits for all of them. */
void instance_workers_run(instance_workers *w, uint32_t n, uint32_t align, uint32_t ranges, instance_range_job job,
                          void *context);

#endif
