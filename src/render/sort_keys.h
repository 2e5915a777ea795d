/* The batch sort key of a visible instance: (mesh, material, LOD, skinned, morphed) packed into
 * exactly as many bits as the frame's counts need, most significant field first, so two instances
 * share a key exactly when they draw the same way, and keys order as the tuples do, however many
 * meshes, materials and levels exist. The counts of a uint32_t index fit in 68 bits at most: a
 * key is two words, and `high` stays zero (one radix sort over `low`) unless the fields need more
 * than 64 bits. CPU only, so it is tested without a GPU (tests/render/test_sort_keys.c). */
#ifndef KILN_RENDER_SORT_KEYS_H
#define KILN_RENDER_SORT_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct batch_key {
    uint64_t high, low;
} batch_key;

/* Where each field sits: its lowest bit in the 128-bit key and its width. */
typedef struct batch_key_layout {
    uint32_t mesh_shift, material_shift, lod_shift, skinned_shift, morphed_shift;
    uint32_t mesh_bits, material_bits, lod_bits;
    bool wide;          /* the fields need more than 64 bits: `high` is used */
} batch_key_layout;

/* The layout for meshes below mesh_count, materials below material_count and levels below
 * lod_count (a count of 0 or 1 takes no bits). */
batch_key_layout batch_key_layout_make(uint32_t mesh_count, uint32_t material_count, uint32_t lod_count);
/* The key of one tuple; each index below its layout's count. */
batch_key batch_key_make(const batch_key_layout *l, uint32_t mesh, uint32_t material, uint32_t lod, bool skinned,
                         bool morphed);
static inline bool batch_key_equal(batch_key a, batch_key b) { return a.high == b.high && a.low == b.low; }
/* -1, 0 or 1 as a orders before, with or after b. */
static inline int batch_key_compare(batch_key a, batch_key b) {
    if (a.high != b.high) return a.high < b.high ? -1 : 1;
    return a.low < b.low ? -1 : a.low > b.low;
}

/* The order of n keys, stably (equal keys keep their input order): order[j] is the input
 * position of the j-th smallest. The keys are read `stride` bytes apart from `first` (a key may
 * sit in a larger item). Linear time (radix_sort.h); `wide` says whether any key uses `high`.
 * The scratch arrays hold n entries each; nothing is allocated. */
void batch_keys_sort(const batch_key *first, size_t stride, uint32_t n, bool wide, uint32_t *order,
                     uint64_t *key_scratch, uint64_t *key_scratch2, uint32_t *order_scratch);

#endif
