/* Generational handle pools: storage of same-sized items addressed by 32-bit ids that go stale
 * when their item is released, of a fixed capacity or growing up to a maximum.
 *
 * An id packs the slot and the slot's generation:
 *   bits  0..19  slot index + 1   (so 0 is never a valid id and means "no object")
 *   bits 20..31  generation       (12 bits)
 * Releasing an item bumps its slot's generation, so every id handed out for it stops resolving.
 * The generation wraps modulo 4096: an old id can only become valid again after its slot has
 * been released 4096 more times. Free slots are reused oldest-first, which spreads reuse over
 * the whole pool and makes that wrap as late as possible.
 *
 * A fixed pool (kiln_pool_init) allocates its storage once; alloc and release never allocate. A
 * growing pool (kiln_pool_init_growing) starts at its capacity and, when an alloc finds it full,
 * adds another block of that many slots, up to its maximum: only that alloc allocates, so a
 * steady state still allocates nothing. Items live in those blocks and never move, so a pointer
 * from kiln_pool_get stays valid across later allocs until its item is released. Items are
 * opaque byte blocks of `item_size` bytes, aligned for any C type.
 *
 * Ownership: the caller owns the kiln_pool struct; kiln_pool_free releases all storage (items
 * are not finalised one by one: release whatever they point to first). Not thread-safe. */
#ifndef KILN_CORE_POOL_H
#define KILN_CORE_POOL_H

#include <stdbool.h>
#include <stdint.h>

/* Declares a typed handle, so a kiln_texture cannot be passed where a kiln_buffer is expected.
 * A zero-initialised handle ({0}) is the null handle. */
#define KILN_HANDLE(name) typedef struct name { uint32_t id; } name;

#define KILN_POOL_INDEX_BITS 20u /* bits of an id holding slot index + 1 */
#define KILN_POOL_INDEX_MASK ((1u << KILN_POOL_INDEX_BITS) - 1u) /* the slot part of an id */
#define KILN_POOL_GENERATION_MASK 0xFFFu /* the 12 generation bits, after shifting down */
#define KILN_POOL_MAX_CAPACITY ((1u << KILN_POOL_INDEX_BITS) - 1u) /* 1048575 */

/* A pool; see the top of this file. Set up with kiln_pool_init. */
typedef struct kiln_pool {
    uint8_t **blocks;       /* block_count blocks of block_items * item_stride bytes */
    uint32_t block_items;   /* slots per block: the initial capacity */
    uint32_t block_count;   /* blocks allocated so far */
    uint16_t *generations;  /* per slot; only the low 12 bits are used */
    uint8_t *alive;         /* per slot: 1 while allocated */
    uint32_t *free_slots;   /* ring of free slot indices, oldest first */
    uint32_t item_size;     /* bytes the caller asked for */
    uint32_t item_stride;   /* item_size rounded up to the item alignment */
    uint32_t capacity;      /* slots now; 0 when init failed */
    uint32_t max_capacity;  /* slots it may grow to (capacity for a fixed pool) */
    uint32_t free_head;     /* position of the oldest free slot in free_slots */
    uint32_t free_count;    /* free slots */
    uint32_t live;          /* allocated items (capacity - free_count) */
} kiln_pool;

/* Allocates storage for `capacity` items of `item_size` bytes. False (pool left empty, safe to
 * free) when capacity is 0 or above KILN_POOL_MAX_CAPACITY, item_size is 0, or memory is short. */
bool kiln_pool_init(kiln_pool *pool, uint32_t capacity, uint32_t item_size);
/* The same, growing by blocks of `capacity` slots up to `max_capacity` (at least capacity, at
 * most KILN_POOL_MAX_CAPACITY; false otherwise). */
bool kiln_pool_init_growing(kiln_pool *pool, uint32_t capacity, uint32_t max_capacity, uint32_t item_size);
/* Releases all storage; the pool is left empty (and may be freed again). */
void kiln_pool_free(kiln_pool *pool);

/* Takes a free slot (growing a growing pool that has none), zeroes its item, stores a pointer to
 * it in out_item (when not NULL) and returns its id; returns 0 (and sets *out_item to NULL) when
 * the pool is full at its maximum, or growing it ran out of memory. */
uint32_t kiln_pool_alloc(kiln_pool *pool, void **out_item);
/* The item behind id; NULL for 0, stale or out-of-range ids. */
void *kiln_pool_get(const kiln_pool *pool, uint32_t id);
/* Releases the item behind id; false for 0, stale or out-of-range ids (nothing changes). */
bool kiln_pool_release(kiln_pool *pool, uint32_t id);
/* Whether id currently resolves. */
bool kiln_pool_valid(const kiln_pool *pool, uint32_t id);
/* Items allocated now. */
uint32_t kiln_pool_live(const kiln_pool *pool);
/* Iterates live ids in slot order: start with *cursor = 0, call until it returns 0. Releasing
 * the id just returned is allowed during iteration. */
uint32_t kiln_pool_next(const kiln_pool *pool, uint32_t *cursor);

/* The slot index of an id (for tables kept beside the pool); meaningless for id 0. */
static inline uint32_t kiln_pool_id_index(uint32_t id) {
    return (id & KILN_POOL_INDEX_MASK) - 1u;
}
/* The generation of an id (12 bits). */
static inline uint32_t kiln_pool_id_generation(uint32_t id) {
    return id >> KILN_POOL_INDEX_BITS;
}

#endif
