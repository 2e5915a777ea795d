/* Counts heap allocations made by code linked into the test executable (kiln's static library
 * included), through the linker's --wrap of malloc, calloc, realloc and aligned allocation.
 * Allocations inside shared libraries (Dawn, the Vulkan driver, libc itself) are not seen: the
 * zero-allocation rule is about kiln's own frame path. */
#ifndef KILN_ALLOC_COUNTER_H
#define KILN_ALLOC_COUNTER_H

#include <stdint.h>

void kiln_alloc_counter_start(void);
/* Returns the allocations counted since start and stops counting. */
uint64_t kiln_alloc_counter_stop(void);
/* Allocations counted so far (counting or not); usable as a renderer allocation probe. */
uint64_t kiln_alloc_counter_total(void);

#endif
