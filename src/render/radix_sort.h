/* A stable least-significant-digit radix sort of (64-bit key, 32-bit value) pairs: linear time,
 * no allocation (the caller's scratch, grown once and kept), and only the bytes that differ
 * between keys are sorted on, so keys of a few bits cost one or two passes. */
#ifndef KILN_RENDER_RADIX_SORT_H
#define KILN_RENDER_RADIX_SORT_H

#include <stdint.h>

/* Sorts keys[0..n) ascending, moving values with them; equal keys keep their input order. The
 * result is in keys and values; key_scratch and value_scratch hold n entries each. */
void radix_sort_pairs(uint64_t *keys, uint32_t *values, uint32_t n, uint64_t *key_scratch, uint32_t *value_scratch);

#endif
