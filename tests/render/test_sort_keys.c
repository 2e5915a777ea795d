/* The batch sort key and its linear-time sort without a GPU (src/render/sort_keys.c,
 * radix_sort.c): keys never collide and order as their (mesh, material, LOD, skinned, morphed)
 * tuples do at every count up to the largest a uint32_t index allows, and the sort is the stable
 * order of its keys. */
#include "render/radix_sort.h"
#include "render/sort_keys.h"

#include <stdlib.h>

#include <kiln/geometry/mesh_data.h>

#include "test.h"

typedef struct tuple {
    uint32_t mesh, material, lod;
    bool skinned, morphed;
} tuple;

static int compare_u32(uint32_t a, uint32_t b) { return (a > b) - (a < b); }

static int tuple_compare(const tuple *a, const tuple *b) {
    int c;
    if ((c = compare_u32(a->mesh, b->mesh))) return c;
    if ((c = compare_u32(a->material, b->material))) return c;
    if ((c = compare_u32(a->lod, b->lod))) return c;
    if ((c = compare_u32(a->skinned, b->skinned))) return c;
    return compare_u32(a->morphed, b->morphed);
}

static batch_key key_of(const batch_key_layout *l, const tuple *t) {
    return batch_key_make(l, t->mesh, t->material, t->lod, t->skinned, t->morphed);
}

/* Every pair of tuples: keys equal exactly when the tuples are, and ordered the same way. */
static void check_keys_order_as_tuples(const batch_key_layout *l, const tuple *tuples, uint32_t n) {
    for (uint32_t a = 0; a < n; a++)
        for (uint32_t b = 0; b < n; b++) {
            int want = tuple_compare(&tuples[a], &tuples[b]);
            int got = batch_key_compare(key_of(l, &tuples[a]), key_of(l, &tuples[b]));
            CHECK_MSG(want == got, "tuples (%u, %u, %u, %d, %d) and (%u, %u, %u, %d, %d): keys compare %d, tuples %d",
                      tuples[a].mesh, tuples[a].material, tuples[a].lod, tuples[a].skinned, tuples[a].morphed,
                      tuples[b].mesh, tuples[b].material, tuples[b].lod, tuples[b].skinned, tuples[b].morphed, got,
                      want);
        }
}

/* The corners of every field: 0, 1, the largest and the one below, each flag both ways. */
static uint32_t boundary_tuples(uint32_t meshes, uint32_t materials, uint32_t lods, tuple *out) {
    uint32_t mesh_values[4] = {0, 1 % meshes, meshes - 2 < meshes ? meshes - 2 : 0, meshes - 1};
    uint32_t material_values[4] = {0, 1 % materials, materials - 2 < materials ? materials - 2 : 0, materials - 1};
    uint32_t n = 0;
    for (int m = 0; m < 4; m++)
        for (int t = 0; t < 4; t++)
            for (uint32_t lod = 0; lod < lods; lod++)
                for (int flags = 0; flags < 4; flags++)
                    out[n++] = (tuple){mesh_values[m], material_values[t], lod, flags & 1, (flags >> 1) & 1};
    return n;
}

static const struct {
    uint32_t meshes, materials, lods;
    bool wide;
} COUNTS[] = {
    {1, 1, 1, false},
    {2, 3, 1, false},
    {20, 24, KILN_MESH_MAX_LODS, false},
    {1u << 16, 1u << 16, KILN_MESH_MAX_LODS, false},   /* 36 bits */
    {1u << 30, 1u << 30, KILN_MESH_MAX_LODS, false},   /* 64 bits exactly */
    {(1u << 30) + 1, 1u << 30, KILN_MESH_MAX_LODS, true}, /* 65: the mesh field straddles the words */
    {1u << 31, 1u << 31, KILN_MESH_MAX_LODS, true},
    {UINT32_MAX, UINT32_MAX, KILN_MESH_MAX_LODS, true}, /* the most a uint32_t index allows: 68 bits */
    {UINT32_MAX, 1, 1, false},
};
#define COUNT_ROWS (sizeof COUNTS / sizeof COUNTS[0])

TEST(keys_at_the_boundaries_of_every_count_never_collide_and_order_as_their_tuples) {
    static tuple tuples[4 * 4 * KILN_MESH_MAX_LODS * 4];
    for (uint32_t row = 0; row < COUNT_ROWS; row++) {
        batch_key_layout l = batch_key_layout_make(COUNTS[row].meshes, COUNTS[row].materials, COUNTS[row].lods);
        CHECK_MSG(l.wide == COUNTS[row].wide, "row %u: wide %d", row, l.wide);
        uint32_t n = boundary_tuples(COUNTS[row].meshes, COUNTS[row].materials, COUNTS[row].lods, tuples);
        check_keys_order_as_tuples(&l, tuples, n);
        if (!l.wide)
            for (uint32_t i = 0; i < n; i++) CHECK_EQ_INT(key_of(&l, &tuples[i]).high, 0);
    }
}

static uint32_t next_random(uint32_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

TEST(random_tuples_never_collide_and_order_as_their_tuples) {
    enum { N = 300 };
    static tuple tuples[N];
    uint32_t seed = 12345;
    for (uint32_t row = 0; row < COUNT_ROWS; row++) {
        batch_key_layout l = batch_key_layout_make(COUNTS[row].meshes, COUNTS[row].materials, COUNTS[row].lods);
        for (uint32_t i = 0; i < N; i++) {
            /* Small values often, so equal tuples and neighbours occur. */
            uint32_t mesh = next_random(&seed), material = next_random(&seed);
            if (i % 2) mesh %= 3, material %= 3;
            tuples[i] = (tuple){mesh % COUNTS[row].meshes, material % COUNTS[row].materials,
                                next_random(&seed) % COUNTS[row].lods, next_random(&seed) & 1, next_random(&seed) & 1};
        }
        check_keys_order_as_tuples(&l, tuples, N);
    }
}

/* The stable order by a reference insertion sort. */
static void reference_order(const uint64_t *keys, uint32_t n, uint32_t *order) {
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = i;
        while (j > 0 && keys[order[j - 1]] > keys[i]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
}

TEST(the_radix_sort_is_the_stable_order_of_its_keys) {
    enum { N = 2000 };
    static uint64_t keys[N], original[N], key_scratch[N];
    static uint32_t values[N], value_scratch[N], want[N];
    /* Masks choosing which bytes vary: none, the low byte, a middle one, the top, all. */
    static const uint64_t MASKS[] = {0, 0xFF, 0x3F00, 0xFF00000000000000ull, 0x0000FF0000FF0001ull, ~0ull};
    uint32_t seed = 777;
    uint32_t sizes[] = {0, 1, 2, 17, N};
    for (size_t m = 0; m < sizeof MASKS / sizeof MASKS[0]; m++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            uint32_t n = sizes[s];
            for (uint32_t i = 0; i < n; i++) {
                uint64_t r = ((uint64_t)next_random(&seed) << 32) | next_random(&seed);
                keys[i] = original[i] = (r & MASKS[m]) | 0x0100000000000000ull * (MASKS[m] == 0);
                values[i] = i;
            }
            radix_sort_pairs(keys, values, n, key_scratch, value_scratch);
            reference_order(original, n, want);
            for (uint32_t i = 0; i < n; i++) {
                CHECK_MSG(values[i] == want[i], "mask %zu, n %u: position %u holds %u, not %u", m, n, i, values[i],
                          want[i]);
                CHECK(keys[i] == original[values[i]]);
            }
        }
}

TEST(two_word_keys_sort_by_both_words_stably) {
    enum { N = 1000 };
    static batch_key keys[N];
    static uint64_t scratch_a[N], scratch_b[N];
    static uint32_t order[N], order_scratch[N];
    uint32_t seed = 99;
    for (uint32_t i = 0; i < N; i++) keys[i] = (batch_key){next_random(&seed) % 4, next_random(&seed) % 8};
    batch_keys_sort(keys, sizeof keys[0], N, true, order, scratch_a, scratch_b, order_scratch);
    for (uint32_t j = 1; j < N; j++) {
        int c = batch_key_compare(keys[order[j - 1]], keys[order[j]]);
        CHECK_MSG(c < 0 || (c == 0 && order[j - 1] < order[j]), "positions %u and %u out of order", j - 1, j);
    }
}

TEST_MAIN(T(keys_at_the_boundaries_of_every_count_never_collide_and_order_as_their_tuples),
          T(random_tuples_never_collide_and_order_as_their_tuples), T(the_radix_sort_is_the_stable_order_of_its_keys),
          T(two_word_keys_sort_by_both_words_stably))
