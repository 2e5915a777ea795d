/* The bind group cache (gfx.h): up to a fixed number of slots, each a copy of the key it was made
 * for and its group, searched linearly (caches are a handful of groups) and evicted least
 * recently returned first. The slot array doubles on a miss until it reaches the capacity, so a
 * cache that only ever sees one set (a program pass dispatched alike, of which a program may have
 * thousands) holds one slot, and once the array is full neither a hit nor a miss allocates. */
#include <stdlib.h>

#include <kiln/gfx.h>

typedef struct cache_slot {
    kiln_bind_group_layout layout;
    uint32_t count;
    kiln_binding_resource entries[KILN_BIND_GROUP_CACHE_MAX_ENTRIES];
    kiln_bind_group group;
    uint64_t used;                 /* cache->clock when last returned */
} cache_slot;

struct kiln_bind_group_cache {
    kiln_resources *res;
    uint32_t capacity, count;
    uint32_t allocated;            /* slots the array holds, up to capacity */
    uint64_t clock;
    cache_slot *slots;
};

kiln_bind_group_cache *kiln_bind_group_cache_create(kiln_resources *res, uint32_t capacity, kiln_error *err) {
    if (!res || capacity == 0) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "bind group cache: needs resources and a capacity above 0");
        return NULL;
    }
    kiln_bind_group_cache *cache = calloc(1, sizeof *cache);
    if (!cache) {
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "bind group cache: out of memory");
        return NULL;
    }
    cache->res = res;
    cache->capacity = capacity;
    return cache;
}

void kiln_bind_group_cache_clear(kiln_bind_group_cache *cache) {
    for (uint32_t i = 0; i < cache->count; i++) kiln_resources_destroy_bind_group(cache->res, cache->slots[i].group, NULL);
    cache->count = 0;
}

void kiln_bind_group_cache_destroy(kiln_bind_group_cache *cache) {
    if (!cache) return;
    kiln_bind_group_cache_clear(cache);
    free(cache->slots);
    free(cache);
}

uint32_t kiln_bind_group_cache_count(const kiln_bind_group_cache *cache) { return cache->count; }

/* Field by field: a caller's entries may carry anything in their padding. */
static bool same_entry(const kiln_binding_resource *a, const kiln_binding_resource *b) {
    return a->binding == b->binding && a->buffer.id == b->buffer.id && a->offset == b->offset && a->size == b->size &&
           a->sampler.id == b->sampler.id && a->view.id == b->view.id;
}

static bool same_key(const cache_slot *slot, kiln_bind_group_layout layout, const kiln_binding_resource *entries,
                     uint32_t count) {
    if (slot->layout.id != layout.id || slot->count != count) return false;
    for (uint32_t i = 0; i < count; i++)
        if (!same_entry(&slot->entries[i], &entries[i])) return false;
    return true;
}

kiln_bind_group kiln_bind_group_cache_get(kiln_bind_group_cache *cache, const char *label,
                                          kiln_bind_group_layout layout, const kiln_binding_resource *entries,
                                          uint32_t count, kiln_error *err) {
    if (count > KILN_BIND_GROUP_CACHE_MAX_ENTRIES) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "bind group cache: %u entries, more than %d", count,
                       KILN_BIND_GROUP_CACHE_MAX_ENTRIES);
        return (kiln_bind_group){0};
    }
    cache->clock++;
    uint32_t oldest = 0;
    for (uint32_t i = 0; i < cache->count; i++) {
        cache_slot *slot = &cache->slots[i];
        if (same_key(slot, layout, entries, count)) {
            slot->used = cache->clock;
            return slot->group;
        }
        if (slot->used < cache->slots[oldest].used) oldest = i;
    }
    if (cache->count == cache->allocated && cache->allocated < cache->capacity) {
        uint32_t grown = cache->allocated ? 2 * cache->allocated : 1;
        if (grown > cache->capacity) grown = cache->capacity;
        cache_slot *slots = realloc(cache->slots, (size_t)grown * sizeof *slots);
        if (!slots) {
            kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "bind group cache: out of memory");
            return (kiln_bind_group){0};
        }
        cache->slots = slots;
        cache->allocated = grown;
    }
    /* Created before anything is evicted, so a group that cannot be made costs no cached one. */
    kiln_bind_group group = kiln_resources_create_bind_group(cache->res, label, layout, entries, count, err);
    if (!group.id) return group;
    cache_slot *slot;
    if (cache->count < cache->capacity) {
        slot = &cache->slots[cache->count++];
    } else {
        slot = &cache->slots[oldest];
        kiln_resources_destroy_bind_group(cache->res, slot->group, NULL);
    }
    slot->layout = layout;
    slot->count = count;
    for (uint32_t i = 0; i < count; i++) slot->entries[i] = entries[i];
    slot->group = group;
    slot->used = cache->clock;
    return group;
}
