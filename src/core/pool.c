/* Generational pools: see pool.h for the id layout and the reuse rule. */
#include <kiln/core/pool.h>

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Items are placed at multiples of this so a caller can store any C type in them. */
#define ITEM_ALIGN ((uint32_t)_Alignof(max_align_t))

static uint32_t make_id(uint32_t slot, uint32_t generation) {
    return ((generation & KILN_POOL_GENERATION_MASK) << KILN_POOL_INDEX_BITS) | (slot + 1u);
}

bool kiln_pool_init(kiln_pool *pool, uint32_t capacity, uint32_t item_size) {
    if (!pool) return false;
    memset(pool, 0, sizeof *pool);
    if (capacity == 0 || capacity > KILN_POOL_MAX_CAPACITY || item_size == 0) return false;
    if (item_size > UINT32_MAX - ITEM_ALIGN) return false;

    uint32_t stride = (item_size + ITEM_ALIGN - 1) / ITEM_ALIGN * ITEM_ALIGN;
    if ((size_t)stride > SIZE_MAX / capacity) return false;

    pool->items = calloc(capacity, stride);
    pool->generations = calloc(capacity, sizeof *pool->generations);
    pool->alive = calloc(capacity, sizeof *pool->alive);
    pool->free_slots = malloc((size_t)capacity * sizeof *pool->free_slots);
    if (!pool->items || !pool->generations || !pool->alive || !pool->free_slots) {
        kiln_pool_free(pool);
        return false;
    }

    pool->item_size = item_size;
    pool->item_stride = stride;
    pool->capacity = capacity;
    /* Every slot starts free, lowest first, so a fresh pool hands out slots 0, 1, 2, ... */
    for (uint32_t i = 0; i < capacity; i++) pool->free_slots[i] = i;
    pool->free_head = 0;
    pool->free_count = capacity;
    return true;
}

void kiln_pool_free(kiln_pool *pool) {
    if (!pool) return;
    free(pool->items);
    free(pool->generations);
    free(pool->alive);
    free(pool->free_slots);
    memset(pool, 0, sizeof *pool);
}

static uint8_t *item_at(const kiln_pool *pool, uint32_t slot) {
    return pool->items + (size_t)slot * pool->item_stride;
}

uint32_t kiln_pool_alloc(kiln_pool *pool, void **out_item) {
    if (out_item) *out_item = NULL;
    if (!pool || pool->free_count == 0) return 0;

    uint32_t slot = pool->free_slots[pool->free_head];
    pool->free_head = (pool->free_head + 1) % pool->capacity;
    pool->free_count--;

    pool->alive[slot] = 1;
    pool->live++;
    uint8_t *item = item_at(pool, slot);
    memset(item, 0, pool->item_stride);
    if (out_item) *out_item = item;
    return make_id(slot, pool->generations[slot]);
}

/* The slot of a live id, or -1 when id does not resolve. */
static int64_t live_slot(const kiln_pool *pool, uint32_t id) {
    if (!pool || !pool->alive || id == 0) return -1;
    uint32_t index_plus_one = id & KILN_POOL_INDEX_MASK;
    if (index_plus_one == 0 || index_plus_one > pool->capacity) return -1;
    uint32_t slot = index_plus_one - 1;
    if (!pool->alive[slot]) return -1;
    if (pool->generations[slot] != kiln_pool_id_generation(id)) return -1;
    return slot;
}

void *kiln_pool_get(const kiln_pool *pool, uint32_t id) {
    int64_t slot = live_slot(pool, id);
    return slot < 0 ? NULL : item_at(pool, (uint32_t)slot);
}

bool kiln_pool_valid(const kiln_pool *pool, uint32_t id) {
    return live_slot(pool, id) >= 0;
}

bool kiln_pool_release(kiln_pool *pool, uint32_t id) {
    int64_t found = live_slot(pool, id);
    if (found < 0) return false;
    uint32_t slot = (uint32_t)found;

    pool->alive[slot] = 0;
    pool->generations[slot] = (uint16_t)((pool->generations[slot] + 1u) & KILN_POOL_GENERATION_MASK);
    pool->live--;

    /* Append to the back of the free ring so this slot is reused last. */
    uint32_t tail = (uint32_t)(((uint64_t)pool->free_head + pool->free_count) % pool->capacity);
    pool->free_slots[tail] = slot;
    pool->free_count++;
    return true;
}

uint32_t kiln_pool_live(const kiln_pool *pool) {
    return pool ? pool->live : 0;
}

uint32_t kiln_pool_next(const kiln_pool *pool, uint32_t *cursor) {
    if (!pool || !cursor) return 0;
    /* The cursor is the next slot to look at. */
    for (uint32_t slot = *cursor; slot < pool->capacity; slot++) {
        if (pool->alive[slot]) {
            *cursor = slot + 1;
            return make_id(slot, pool->generations[slot]);
        }
    }
    *cursor = pool->capacity;
    return 0;
}
