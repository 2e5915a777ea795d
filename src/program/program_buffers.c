/* Program buffers (docs/adr/002-program-compute-and-indirect-draws.md): the storage buffers a
 * program declares, which compute passes write and later passes read (as storage, or as indirect
 * draw arguments). Each queued dispatch takes its own buffer per slot from a pool kept by size,
 * cleared to zero with a queue write, so a dispatch starts from zeros whatever ran before, and two
 * dispatches of one program in one record call never share a buffer. A buffer taken by a record
 * call is not taken again until PROGRAM_UNIFORM_INTACT_CALLS later calls, since an encoder
 * recorded by it may not be submitted yet; pooled buffers unused for PROGRAM_POOL_IDLE_RECORDS
 * calls are released.
 *
 * The pool is not on the id table (program_id_table.h) because nothing here has an id: a caller
 * never names a program buffer (ADR 002 rejects buffers as resources bound by id), a dispatch
 * finds its buffers by position (program_record.dispatch_buffers from its span's buffers_at), and
 * the pool is searched by size and age, not looked up. Its entries come and go every few record
 * calls in any order, where the table's ids are dense and never come back, and nothing holds a
 * pooled buffer: its delay before reuse is counted in record calls, which the table does not
 * know. The GPU objects themselves are gfx handles (kiln_resources' generational pool). */
#include "program_internal.h"

#include <stdlib.h>
#include <string.h>

static bool free_for(const kiln_programs *p, const program_pooled_buffer *b, uint32_t size) {
    return b->size == size && p->record_calls - b->used_at > PROGRAM_UNIFORM_INTACT_CALLS;
}

static bool zero(kiln_programs *p, kiln_buffer b, uint32_t size, kiln_error *err) {
    program_buffer_pool *pool = &p->buffer_pool;
    if (size > pool->zeros_size) {
        uint8_t *grown = calloc(size, 1);
        if (!grown) return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "programs: out of memory zeroing %u bytes", size);
        free(pool->zeros);
        pool->zeros = grown;
        pool->zeros_size = size;
    }
    return kiln_resources_write_buffer(p->res, b, 0, pool->zeros, size, err);
}

kiln_buffer program_buffer_take(kiln_programs *p, uint32_t size, kiln_error *err) {
    program_buffer_pool *pool = &p->buffer_pool;
    program_pooled_buffer *found = NULL;
    for (uint32_t i = 0; i < pool->count && !found; i++)
        if (free_for(p, &pool->items[i], size)) found = &pool->items[i];
    if (!found) {
        program_pooled_buffer *grown = kiln_array_reserve(pool->items, &pool->capacity, pool->count + 1, sizeof *grown);
        if (!grown) {
            kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "programs: out of memory pooling a buffer");
            return (kiln_buffer){0};
        }
        pool->items = grown;
        kiln_buffer_desc desc = {.label = "program buffer", .size = size,
                                 .usage = WGPUBufferUsage_Storage | WGPUBufferUsage_Indirect | WGPUBufferUsage_CopyDst};
        kiln_buffer b = kiln_resources_create_buffer(p->res, &desc, err);
        if (!b.id) return b;
        found = &pool->items[pool->count++];
        *found = (program_pooled_buffer){.buffer = b, .size = size};
    }
    found->used_at = p->record_calls;
    if (!zero(p, found->buffer, size, err)) return (kiln_buffer){0};
    return found->buffer;
}

void program_buffer_pool_trim(kiln_programs *p) {
    program_buffer_pool *pool = &p->buffer_pool;
    uint32_t kept = 0;
    for (uint32_t i = 0; i < pool->count; i++) {
        if (p->record_calls - pool->items[i].used_at > PROGRAM_POOL_IDLE_RECORDS + PROGRAM_UNIFORM_INTACT_CALLS)
            kiln_resources_destroy_buffer(p->res, pool->items[i].buffer, NULL);
        else
            pool->items[kept++] = pool->items[i];
    }
    pool->count = kept;
}

void program_buffer_pool_free(kiln_programs *p) {
    program_buffer_pool *pool = &p->buffer_pool;
    for (uint32_t i = 0; i < pool->count; i++) kiln_resources_destroy_buffer(p->res, pool->items[i].buffer, NULL);
    free(pool->items);
    free(pool->zeros);
    *pool = (program_buffer_pool){0};
}
