/* Link with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=posix_memalign,--wrap=aligned_alloc. */
#include <stdbool.h>
#include <stddef.h>

#include "alloc_counter.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
int __real_posix_memalign(void **p, size_t alignment, size_t size);
void *__real_aligned_alloc(size_t alignment, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);
int __wrap_posix_memalign(void **p, size_t alignment, size_t size);
void *__wrap_aligned_alloc(size_t alignment, size_t size);

static bool counting;
static uint64_t counted, total;

static void note(void) {
    total++;
    if (counting) counted++;
}

void *__wrap_malloc(size_t size) { note(); return __real_malloc(size); }
void *__wrap_calloc(size_t n, size_t size) { note(); return __real_calloc(n, size); }
void *__wrap_realloc(void *p, size_t size) { note(); return __real_realloc(p, size); }
int __wrap_posix_memalign(void **p, size_t alignment, size_t size) { note(); return __real_posix_memalign(p, alignment, size); }
void *__wrap_aligned_alloc(size_t alignment, size_t size) { note(); return __real_aligned_alloc(alignment, size); }

void kiln_alloc_counter_start(void) {
    counted = 0;
    counting = true;
}

uint64_t kiln_alloc_counter_stop(void) {
    counting = false;
    return counted;
}

uint64_t kiln_alloc_counter_total(void) { return total; }
