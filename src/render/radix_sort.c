/* The radix sort of radix_sort.h: 8-bit digits, one counting pass for every varying digit, then
 * one scatter pass per digit between the input and the scratch. */
#include "radix_sort.h"

#include <assert.h>
#include <string.h>

#define DIGITS 8 /* bytes of a key */

void radix_sort_pairs(uint64_t *keys, uint32_t *values, uint32_t n, uint64_t *key_scratch, uint32_t *value_scratch) {
    if (n < 2) return;
    /* A byte equal in every key leaves the order as it is: skip it. */
    uint64_t varying = 0;
    for (uint32_t i = 1; i < n; i++) varying |= keys[i] ^ keys[0];
    uint32_t digits[DIGITS], digit_count = 0;
    for (uint32_t d = 0; d < DIGITS; d++)
        if ((varying >> (8 * d)) & 0xFF) digits[digit_count++] = d;
    if (!digit_count) return;

    static_assert(sizeof(uint32_t) * 256 * DIGITS <= 8192, "the counts live on the stack");
    uint32_t counts[DIGITS][256];
    memset(counts, 0, sizeof counts[0] * digit_count);
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t d = 0; d < digit_count; d++) counts[d][(keys[i] >> (8 * digits[d])) & 0xFF]++;

    uint64_t *src_keys = keys, *dst_keys = key_scratch;
    uint32_t *src_values = values, *dst_values = value_scratch;
    for (uint32_t d = 0; d < digit_count; d++) {
        uint32_t shift = 8 * digits[d], offset = 0;
        for (uint32_t b = 0; b < 256; b++) {
            uint32_t c = counts[d][b];
            counts[d][b] = offset;
            offset += c;
        }
        for (uint32_t i = 0; i < n; i++) {
            uint32_t at = counts[d][(src_keys[i] >> shift) & 0xFF]++;
            dst_keys[at] = src_keys[i];
            dst_values[at] = src_values[i];
        }
        uint64_t *tk = src_keys;
        src_keys = dst_keys;
        dst_keys = tk;
        uint32_t *tv = src_values;
        src_values = dst_values;
        dst_values = tv;
    }
    if (src_keys != keys) {
        memcpy(keys, src_keys, (size_t)n * sizeof *keys);
        memcpy(values, src_values, (size_t)n * sizeof *values);
    }
}
