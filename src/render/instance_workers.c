/* The worker threads of instance_workers.h: one mutex, a condition to start a job (a generation
 * count that every job raises) and one to report the last range done. */
#include "instance_workers.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

typedef struct worker {
    instance_workers *pool;
    uint32_t index;             /* 1 .. threads - 1; the caller is 0 */
    pthread_t thread;
} worker;

struct instance_workers {
    uint32_t threads;
    worker *workers;            /* threads - 1 */
    uint32_t started;           /* threads actually running */
    pthread_mutex_t lock;
    pthread_cond_t start, done;
    uint64_t generation;        /* raised by every job */
    bool stopping;
    /* The current job. */
    instance_range_job job;
    void *context;
    uint32_t n, align, ranges;
    uint32_t pending;           /* worker ranges not finished */
};

void instance_workers_range(uint32_t n, uint32_t align, uint32_t ranges, uint32_t r, uint32_t *begin, uint32_t *end) {
    uint64_t chunks = ((uint64_t)n + align - 1) / align;
    uint64_t first = chunks * r / ranges, last = chunks * (r + 1) / ranges;
    uint64_t b = first * align, e = last * align;
    *begin = (uint32_t)(b < n ? b : n);
    *end = (uint32_t)(e < n ? e : n);
}

uint32_t instance_workers_ranges(const instance_workers *w, uint32_t n, uint32_t align, uint32_t min_range) {
    uint64_t per = ((uint64_t)(min_range ? min_range : 1) + align - 1) / align * align;
    uint64_t by_size = ((uint64_t)n + per - 1) / per;
    uint32_t ranges = w ? w->threads : 1;
    if (by_size < ranges) ranges = (uint32_t)by_size;
    return ranges ? ranges : 1;
}

static void run_range(instance_workers *w, uint32_t r) {
    uint32_t begin, end;
    instance_workers_range(w->n, w->align, w->ranges, r, &begin, &end);
    if (begin < end) w->job(w->context, r, begin, end);
}

static void *worker_main(void *arg) {
    worker *self = arg;
    instance_workers *w = self->pool;
    uint64_t seen = 0;
    pthread_mutex_lock(&w->lock);
    for (;;) {
        while (!w->stopping && w->generation == seen) pthread_cond_wait(&w->start, &w->lock);
        if (w->stopping) break;
        seen = w->generation;
        if (self->index >= w->ranges) continue;
        pthread_mutex_unlock(&w->lock);
        run_range(w, self->index);
        pthread_mutex_lock(&w->lock);
        if (--w->pending == 0) pthread_cond_signal(&w->done);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

instance_workers *instance_workers_create(uint32_t threads, kiln_error *err) {
    instance_workers *w = calloc(1, sizeof *w);
    if (!w) {
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "renderer: out of memory for worker threads");
        return NULL;
    }
    w->threads = threads ? threads : 1;
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->start, NULL);
    pthread_cond_init(&w->done, NULL);
    if (w->threads > 1 && !(w->workers = calloc(w->threads - 1, sizeof *w->workers))) {
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "renderer: out of memory for worker threads");
        instance_workers_destroy(w);
        return NULL;
    }
    for (uint32_t i = 0; i + 1 < w->threads; i++) {
        w->workers[i] = (worker){.pool = w, .index = i + 1};
        int rc = pthread_create(&w->workers[i].thread, NULL, worker_main, &w->workers[i]);
        if (rc) {
            kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "renderer: cannot start worker thread %u of %u (error %d)", i + 1,
                           w->threads - 1, rc);
            instance_workers_destroy(w);
            return NULL;
        }
        w->started++;
    }
    return w;
}

void instance_workers_destroy(instance_workers *w) {
    if (!w) return;
    pthread_mutex_lock(&w->lock);
    w->stopping = true;
    pthread_cond_broadcast(&w->start);
    pthread_mutex_unlock(&w->lock);
    for (uint32_t i = 0; i < w->started; i++) pthread_join(w->workers[i].thread, NULL);
    pthread_cond_destroy(&w->done);
    pthread_cond_destroy(&w->start);
    pthread_mutex_destroy(&w->lock);
    free(w->workers);
    free(w);
}

uint32_t instance_workers_threads(const instance_workers *w) { return w ? w->threads : 1; }

void instance_workers_run(instance_workers *w, uint32_t n, uint32_t align, uint32_t ranges, instance_range_job job,
                          void *context) {
    if (!ranges) return;
    if (!w || w->threads == 1 || ranges == 1) {
        for (uint32_t r = 0; r < ranges; r++) {
            uint32_t begin, end;
            instance_workers_range(n, align, ranges, r, &begin, &end);
            if (begin < end) job(context, r, begin, end);
        }
        return;
    }
    if (ranges > w->threads) ranges = w->threads;
    pthread_mutex_lock(&w->lock);
    w->job = job;
    w->context = context;
    w->n = n;
    w->align = align;
    w->ranges = ranges;
    w->pending = ranges - 1;
    w->generation++;
    pthread_cond_broadcast(&w->start);
    pthread_mutex_unlock(&w->lock);
    run_range(w, 0);
    pthread_mutex_lock(&w->lock);
    while (w->pending) pthread_cond_wait(&w->done, &w->lock);
    pthread_mutex_unlock(&w->lock);
}
