/* Generational pools: ids, stale handles, generation reuse, capacity and iteration. */
#include <kiln/core/pool.h>

#include <stddef.h>

#include "test.h"

typedef struct item { double value; int tag; } item;

TEST(alloc_returns_nonzero_ids_and_zeroed_items) {
    kiln_pool pool;
    CHECK(kiln_pool_init(&pool, 4, sizeof(item)));
    void *slot;
    uint32_t id = kiln_pool_alloc(&pool, &slot);
    item *a = slot;
    CHECK(id != 0 && a != NULL);
    CHECK(a->value == 0 && a->tag == 0);
    a->tag = 7;
    /* A released and reallocated slot comes back zeroed, not with the old contents. */
    kiln_pool_release(&pool, id);
    for (int i = 0; i < 4; i++) {
        void *b;
        CHECK(kiln_pool_alloc(&pool, &b) != 0);
        CHECK_EQ_INT(((item *)b)->tag, 0);
    }
    kiln_pool_free(&pool);
}

TEST(get_returns_the_allocated_item) {
    kiln_pool pool;
    CHECK(kiln_pool_init(&pool, 4, sizeof(item)));
    void *a, *b;
    uint32_t ia = kiln_pool_alloc(&pool, &a);
    uint32_t ib = kiln_pool_alloc(&pool, &b);
    CHECK(ia != ib);
    CHECK(kiln_pool_get(&pool, ia) == a && kiln_pool_get(&pool, ib) == b);
    CHECK_EQ_INT(kiln_pool_live(&pool), 2);
    kiln_pool_free(&pool);
}

TEST(stale_id_after_release_resolves_to_nothing) {
    kiln_pool pool;
    CHECK(kiln_pool_init(&pool, 4, sizeof(item)));
    uint32_t id = kiln_pool_alloc(&pool, NULL);
    CHECK(kiln_pool_release(&pool, id));
    CHECK(kiln_pool_get(&pool, id) == NULL);
    CHECK(!kiln_pool_valid(&pool, id));
    CHECK(!kiln_pool_release(&pool, id));
    CHECK_EQ_INT(kiln_pool_live(&pool), 0);
    kiln_pool_free(&pool);
}

TEST(reused_slot_gets_a_new_generation) {
    kiln_pool pool;
    CHECK(kiln_pool_init(&pool, 1, sizeof(item)));
    uint32_t first = kiln_pool_alloc(&pool, NULL);
    CHECK(kiln_pool_release(&pool, first));
    uint32_t second = kiln_pool_alloc(&pool, NULL);
    CHECK(second != 0 && second != first);
    CHECK_EQ_INT(kiln_pool_id_index(second), kiln_pool_id_index(first));
    CHECK_EQ_INT(kiln_pool_id_generation(second), kiln_pool_id_generation(first) + 1);
    CHECK(kiln_pool_get(&pool, first) == NULL);
    CHECK(kiln_pool_get(&pool, second) != NULL);
    kiln_pool_free(&pool);
}

TEST(old_id_stays_stale_until_the_generation_wraps) {
    kiln_pool pool;
    CHECK(kiln_pool_init(&pool, 1, 4));
    uint32_t original = kiln_pool_alloc(&pool, NULL);
    CHECK(kiln_pool_release(&pool, original));
    /* 4095 more reuses never hand the original id out again ... */
    for (int i = 1; i < 4096; i++) {
        uint32_t id = kiln_pool_alloc(&pool, NULL);
        CHECK(id != original);
        CHECK(kiln_pool_get(&pool, original) == NULL);
        CHECK(kiln_pool_release(&pool, id));
    }
    /* ... the 4096th does, because the 12-bit generation has wrapped. */
    CHECK(kiln_pool_alloc(&pool, NULL) == original);
    kiln_pool_free(&pool);
}

TEST(free_slots_are_reused_oldest_first) {
    kiln_pool pool;
    CHECK(kiln_pool_init(&pool, 3, 4));
    uint32_t a = kiln_pool_alloc(&pool, NULL);
    uint32_t b = kiln_pool_alloc(&pool, NULL);
    kiln_pool_release(&pool, a);
    kiln_pool_release(&pool, b);
    /* Slot 2 was never used, so it comes first, then a's slot, then b's. */
    CHECK_EQ_INT(kiln_pool_id_index(kiln_pool_alloc(&pool, NULL)), 2);
    CHECK_EQ_INT(kiln_pool_id_index(kiln_pool_alloc(&pool, NULL)), kiln_pool_id_index(a));
    CHECK_EQ_INT(kiln_pool_id_index(kiln_pool_alloc(&pool, NULL)), kiln_pool_id_index(b));
    kiln_pool_free(&pool);
}

TEST(full_pool_returns_zero) {
    kiln_pool pool;
    CHECK(kiln_pool_init(&pool, 2, sizeof(item)));
    CHECK(kiln_pool_alloc(&pool, NULL) != 0);
    CHECK(kiln_pool_alloc(&pool, NULL) != 0);
    void *p = &pool;
    CHECK(kiln_pool_alloc(&pool, &p) == 0);
    CHECK(p == NULL);
    CHECK_EQ_INT(kiln_pool_live(&pool), 2);
    kiln_pool_free(&pool);
}

TEST(zero_garbage_and_out_of_range_ids_are_rejected) {
    kiln_pool pool;
    CHECK(kiln_pool_init(&pool, 4, sizeof(item)));
    uint32_t id = kiln_pool_alloc(&pool, NULL);
    CHECK(kiln_pool_get(&pool, 0) == NULL);
    CHECK(!kiln_pool_release(&pool, 0));
    CHECK(kiln_pool_get(&pool, 5) == NULL);          /* slot 4 of a 4-slot pool */
    CHECK(kiln_pool_get(&pool, 0xFFFFFFFFu) == NULL);
    CHECK(!kiln_pool_release(&pool, 0xFFFFFFFFu));
    CHECK(kiln_pool_get(&pool, 2) == NULL);          /* never allocated */
    CHECK(kiln_pool_get(&pool, id ^ (1u << 20)) == NULL); /* wrong generation */
    CHECK(kiln_pool_get(NULL, id) == NULL);
    CHECK_EQ_INT(kiln_pool_live(&pool), 1);
    kiln_pool_free(&pool);
}

TEST(iteration_visits_each_live_id_once) {
    kiln_pool pool;
    CHECK(kiln_pool_init(&pool, 8, sizeof(item)));
    uint32_t ids[6];
    for (int i = 0; i < 6; i++) ids[i] = kiln_pool_alloc(&pool, NULL);
    kiln_pool_release(&pool, ids[1]);
    kiln_pool_release(&pool, ids[4]);

    uint32_t expected[4] = {ids[0], ids[2], ids[3], ids[5]};
    uint32_t cursor = 0, id, n = 0;
    while ((id = kiln_pool_next(&pool, &cursor)) != 0) {
        CHECK(n < 4);
        CHECK(id == expected[n]);
        n++;
    }
    CHECK_EQ_INT(n, 4);
    kiln_pool_free(&pool);
}

TEST(releasing_during_iteration_is_allowed) {
    kiln_pool pool;
    CHECK(kiln_pool_init(&pool, 8, sizeof(item)));
    for (int i = 0; i < 5; i++) kiln_pool_alloc(&pool, NULL);
    uint32_t cursor = 0, id, visited = 0;
    while ((id = kiln_pool_next(&pool, &cursor)) != 0) {
        CHECK(kiln_pool_release(&pool, id));
        visited++;
    }
    CHECK_EQ_INT(visited, 5);
    CHECK_EQ_INT(kiln_pool_live(&pool), 0);
    kiln_pool_free(&pool);
}

TEST(init_rejects_bad_capacity_and_item_size) {
    kiln_pool pool;
    CHECK(!kiln_pool_init(&pool, 0, 4));
    CHECK(!kiln_pool_init(&pool, KILN_POOL_MAX_CAPACITY + 1, 4));
    CHECK(!kiln_pool_init(&pool, 4, 0));
    /* A failed init leaves a pool that refuses everything without crashing. */
    CHECK(kiln_pool_alloc(&pool, NULL) == 0);
    CHECK(kiln_pool_get(&pool, 1) == NULL);
    uint32_t cursor = 0;
    CHECK(kiln_pool_next(&pool, &cursor) == 0);
    kiln_pool_free(&pool);
}

TEST(largest_capacity_uses_every_index_bit) {
    kiln_pool pool;
    CHECK(kiln_pool_init(&pool, KILN_POOL_MAX_CAPACITY, 1));
    uint32_t id = 0;
    for (uint32_t i = 0; i < KILN_POOL_MAX_CAPACITY; i++) id = kiln_pool_alloc(&pool, NULL);
    CHECK_EQ_INT(id & KILN_POOL_INDEX_MASK, KILN_POOL_INDEX_MASK);
    CHECK(kiln_pool_get(&pool, id) != NULL);
    CHECK(kiln_pool_alloc(&pool, NULL) == 0);
    kiln_pool_free(&pool);
}

TEST(items_are_aligned_for_any_type) {
    kiln_pool pool;
    CHECK(kiln_pool_init(&pool, 4, 3)); /* an odd size must not misalign the next item */
    for (int i = 0; i < 4; i++) {
        void *p;
        CHECK(kiln_pool_alloc(&pool, &p) != 0);
        CHECK_EQ_INT((uintptr_t)p % _Alignof(max_align_t), 0);
    }
    kiln_pool_free(&pool);
}

/* A growing pool adds a block of its initial capacity when full, up to its maximum; items
 * allocated before keep their address and their id, and a stale id stays stale. */
TEST(growing_pool_grows_by_blocks_and_items_do_not_move) {
    kiln_pool pool;
    CHECK(kiln_pool_init_growing(&pool, 2, 5, sizeof(item)));
    item *first;
    uint32_t a = kiln_pool_alloc(&pool, (void **)&first);
    first->value = 7;
    uint32_t b = kiln_pool_alloc(&pool, NULL);
    CHECK(kiln_pool_release(&pool, b));
    uint32_t c = kiln_pool_alloc(&pool, NULL); /* b's slot again, a new generation */
    CHECK_EQ_INT(pool.capacity, 2);
    uint32_t d = kiln_pool_alloc(&pool, NULL); /* full: grows to 4 */
    CHECK(d != 0);
    CHECK_EQ_INT(pool.capacity, 4);
    CHECK_EQ_INT(kiln_pool_id_index(d), 2);
    CHECK(kiln_pool_get(&pool, a) == first);
    CHECK_EQ_INT(((item *)kiln_pool_get(&pool, a))->value, 7);
    CHECK(kiln_pool_get(&pool, b) == NULL);
    CHECK(kiln_pool_get(&pool, c) != NULL);
    CHECK(kiln_pool_alloc(&pool, NULL) != 0);
    CHECK(kiln_pool_alloc(&pool, NULL) != 0); /* the last block is cut to the maximum: 5 */
    CHECK_EQ_INT(pool.capacity, 5);
    CHECK(kiln_pool_alloc(&pool, NULL) == 0);
    CHECK_EQ_INT(kiln_pool_live(&pool), 5);
    uint32_t cursor = 0, n = 0;
    while (kiln_pool_next(&pool, &cursor)) n++;
    CHECK_EQ_INT(n, 5);
    kiln_pool_free(&pool);
}

TEST(growing_pool_rejects_a_maximum_below_its_capacity) {
    kiln_pool pool;
    CHECK(!kiln_pool_init_growing(&pool, 4, 3, sizeof(item)));
    CHECK(!kiln_pool_init_growing(&pool, 4, KILN_POOL_MAX_CAPACITY + 1, sizeof(item)));
    CHECK(kiln_pool_alloc(&pool, NULL) == 0);
    kiln_pool_free(&pool);
}

KILN_HANDLE(test_texture)

TEST(typed_handle_zero_value_is_the_null_handle) {
    test_texture none = {0};
    CHECK(none.id == 0);
    kiln_pool pool;
    CHECK(kiln_pool_init(&pool, 2, sizeof(item)));
    test_texture t = {kiln_pool_alloc(&pool, NULL)};
    CHECK(kiln_pool_get(&pool, t.id) != NULL);
    CHECK(kiln_pool_get(&pool, none.id) == NULL);
    kiln_pool_free(&pool);
}

TEST_MAIN(T(alloc_returns_nonzero_ids_and_zeroed_items), T(get_returns_the_allocated_item),
          T(stale_id_after_release_resolves_to_nothing), T(reused_slot_gets_a_new_generation),
          T(old_id_stays_stale_until_the_generation_wraps), T(free_slots_are_reused_oldest_first),
          T(full_pool_returns_zero), T(zero_garbage_and_out_of_range_ids_are_rejected),
          T(iteration_visits_each_live_id_once), T(releasing_during_iteration_is_allowed),
          T(init_rejects_bad_capacity_and_item_size), T(largest_capacity_uses_every_index_bit),
          T(items_are_aligned_for_any_type), T(typed_handle_zero_value_is_the_null_handle),
          T(growing_pool_grows_by_blocks_and_items_do_not_move), T(growing_pool_rejects_a_maximum_below_its_capacity))
