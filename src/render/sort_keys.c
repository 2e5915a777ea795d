/* Batch sort keys (sort_keys.h): fields packed by the widths the frame's counts need. */
#include "sort_keys.h"

#include "radix_sort.h"

/* Bits to hold the values 0 .. count - 1. */
static uint32_t bits_for(uint32_t count) {
    uint32_t bits = 0;
    for (uint32_t v = count > 0 ? count - 1 : 0; v; v >>= 1) bits++;
    return bits;
}

batch_key_layout batch_key_layout_make(uint32_t mesh_count, uint32_t material_count, uint32_t lod_count) {
    batch_key_layout l = {.mesh_bits = bits_for(mesh_count), .material_bits = bits_for(material_count),
                          .lod_bits = bits_for(lod_count)};
    /* Least significant first: morphed, skinned, the level, the material, the mesh on top. */
    l.morphed_shift = 0;
    l.skinned_shift = 1;
    l.lod_shift = 2;
    l.material_shift = l.lod_shift + l.lod_bits;
    l.mesh_shift = l.material_shift + l.material_bits;
    l.wide = l.mesh_shift + l.mesh_bits > 64;
    return l;
}

/* ORs `value` (below 2^32) into the 128-bit key at bit `shift`, across the word boundary if it
 * straddles it. */
static void put_field(batch_key *k, uint64_t value, uint32_t shift) {
    if (shift >= 64) {
        k->high |= value << (shift - 64);
        return;
    }
    k->low |= value << shift;
    if (shift > 32) k->high |= value >> (64 - shift);
}

batch_key batch_key_make(const batch_key_layout *l, uint32_t mesh, uint32_t material, uint32_t lod, bool skinned,
                         bool morphed) {
    batch_key k = {0, 0};
    put_field(&k, morphed, l->morphed_shift);
    put_field(&k, skinned, l->skinned_shift);
    put_field(&k, lod, l->lod_shift);
    put_field(&k, material, l->material_shift);
    put_field(&k, mesh, l->mesh_shift);
    return k;
}

static const batch_key *key_at(const batch_key *first, size_t stride, uint32_t k) {
    return (const batch_key *)((const unsigned char *)first + (size_t)k * stride);
}

void batch_keys_sort(const batch_key *first, size_t stride, uint32_t n, bool wide, uint32_t *order,
                     uint64_t *key_scratch, uint64_t *key_scratch2, uint32_t *order_scratch) {
    for (uint32_t k = 0; k < n; k++) {
        key_scratch[k] = key_at(first, stride, k)->low;
        order[k] = k;
    }
    radix_sort_pairs(key_scratch, order, n, key_scratch2, order_scratch);
    if (!wide) return;
    /* Least significant word first, then a stable sort by the high word: lexicographic order. */
    for (uint32_t j = 0; j < n; j++) key_scratch[j] = key_at(first, stride, order[j])->high;
    radix_sort_pairs(key_scratch, order, n, key_scratch2, order_scratch);
}
