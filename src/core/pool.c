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

/* Adds one block of up to block_items slots, all free, lowest first. Only called with no free
 * slot, so the free ring is empty and restarts at 0 in the grown array. */
static bool grow(kiln_pool *pool) {
    uint32_t add = pool->max_capacity - pool->capacity;
    if (add > pool->block_items) add = pool->block_items;
    if (add == 0) return false;
    uint32_t capacity = pool->capacity + add;
    uint8_t **blocks = realloc(pool->blocks, (pool->block_count + 1) * sizeof *blocks);
    if (!blocks) return false;
    pool->blocks = blocks;
    uint8_t *block = calloc(pool->block_items, pool->item_stride);
    uint16_t *generations = realloc(pool->generations, (size_t)capacity * sizeof *generations);
    if (generations) pool->generations = generations;
    uint8_t *alive = generations ? realloc(pool->alive, capacity) : NULL;
    if (alive) pool->alive = alive;
    uint32_t *free_slots = alive ? realloc(pool->free_slots, (size_t)capacity * sizeof *free_slots) : NULL;
    if (free_slots) pool->free_slots = free_slots;
    if (!block || !free_slots) {
        free(block); /* the arrays that did grow keep their old contents and stay usable */
        return false;
    }
    pool->blocks[pool->block_count++] = block;
    for (uint32_t i = 0; i < add; i++) {
        pool->generations[pool->capacity + i] = 0;
        pool->alive[pool->capacity + i] = 0;
        pool->free_slots[i] = pool->capacity + i;
    }
    pool->free_head = 0;
    pool->free_count = add;
    pool->capacity = capacity;
    return true;
}

bool kiln_pool_init_growing(kiln_pool *pool, uint32_t capacity, uint32_t max_capacity, uint32_t item_size) {
    if (!pool) return false;
    memset(pool, 0, sizeof *pool);
    if (capacity == 0 || max_capacity < capacity || max_capacity > KILN_POOL_MAX_CAPACITY || item_size == 0)
        return false;
    if (item_size > UINT32_MAX - ITEM_ALIGN) return false;

    uint32_t stride = (item_size + ITEM_ALIGN - 1) / ITEM_ALIGN * ITEM_ALIGN;
    if ((size_t)stride > SIZE_MAX / capacity) return false;

    pool->item_size = item_size;
    pool->item_stride = stride;
    pool->block_items = capacity;
    pool->max_capacity = capacity; /* the first block fills it exactly */
    if (!grow(pool)) {
        kiln_pool_free(pool);
        return false;
    }
    pool->max_capacity = max_capacity;
    return true;
}

bool kiln_pool_init(kiln_pool *pool, uint32_t capacity, uint32_t item_size) {
    return kiln_pool_init_growing(pool, capacity, capacity, item_size);
}

void kiln_pool_free(kiln_pool *pool) {
    if (!pool) return;
    for (uint32_t b = 0; b < pool->block_count; b++) free(pool->blocks[b]);
    free(pool->blocks);
    free(pool->generations);
    free(pool->alive);
    free(pool->free_slots);
    memset(pool, 0, sizeof *pool);
}

static uint8_t *item_at(const kiln_pool *pool, uint32_t slot) {
    return pool->blocks[slot / pool->block_items] + (size_t)(slot % pool->block_items) * pool->item_stride;
}

uint32_t kiln_pool_alloc(kiln_pool *pool, void **out_item) {
    if (out_item) *out_item = NULL;
    if (!pool || !pool->capacity) return 0;
    if (pool->free_count == 0 && !grow(pool)) return 0;

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
