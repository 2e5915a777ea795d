/* The transient pool: physical textures by class, claimed by live range within a dispatch and
 * kept across dispatches (transient_pool.h says the rules). */
#include "transient_pool.h"

#include <kiln/core/containers.h>

#include <stdlib.h>
#include <string.h>

void transient_pool_init(transient_pool *pool, kiln_resources *res) {
    *pool = (transient_pool){.res = res};
}

static void release_texture(transient_pool *pool, transient_texture *t) {
    /* The view first: kiln_resources refuses to destroy a texture with live views. */
    kiln_gfx_destroy_texture_view(pool->res, t->view, NULL);
    kiln_gfx_destroy_texture(pool->res, t->texture, NULL);
    *t = (transient_texture){0};
}

void transient_pool_free(transient_pool *pool) {
    for (uint32_t i = 0; i < pool->count; i++)
        if (pool->items[i].alive) release_texture(pool, &pool->items[i]);
    free(pool->items);
    *pool = (transient_pool){0};
}

void transient_pool_begin_record(transient_pool *pool) {
    pool->record_serial++;
}

void transient_pool_begin_dispatch(transient_pool *pool) {
    pool->dispatch_serial++;
    pool->textures_last_dispatch = 0;
}

void transient_pool_end_record(transient_pool *pool) {
    for (uint32_t i = 0; i < pool->count; i++) {
        transient_texture *t = &pool->items[i];
        if (t->alive && pool->record_serial - t->used_record >= TRANSIENT_POOL_IDLE_RECORDS) release_texture(pool, t);
    }
}

static bool same_class(const transient_texture *t, uint32_t width, uint32_t height, kiln_texture_format format,
                       kiln_samples samples) {
    return t->width == width && t->height == height && t->format == format && t->samples == samples;
}

/* A free slot for a new texture, growing the slot array by doubling. */
static transient_texture *free_slot(transient_pool *pool) {
    for (uint32_t i = 0; i < pool->count; i++)
        if (!pool->items[i].alive) return &pool->items[i];
    transient_texture *grown = kiln_array_reserve(pool->items, &pool->capacity, pool->count + 1, sizeof *grown);
    if (!grown) return NULL;
    pool->items = grown;
    pool->items[pool->count] = (transient_texture){0};
    return &pool->items[pool->count++];
}

/* Creates the texture and its view inside an error scope, so a size or format Dawn refuses fails
 * here with its message instead of as an uncaptured error at the next submit. */
static bool create_texture(transient_pool *pool, transient_texture *t, kiln_error *err) {
    kiln_gfx *gfx = kiln_resources_gfx(pool->res);
    bool four = t->samples == KILN_SAMPLES_FOUR;
    /* A Four texture is only attached (readers bind its resolve texture, a One texture). */
    kiln_texture_desc td = {
        .label = four ? "program transient (4 samples)" : "program transient",
        .width = t->width, .height = t->height,
        .sample_count = four ? 4 : 1,
        .format = kiln_texture_format_wgpu(t->format),
        .usage = WGPUTextureUsage_RenderAttachment | (four ? 0 : WGPUTextureUsage_TextureBinding),
    };
    kiln_error inner = {0};
    kiln_gfx_push_scope(gfx);
    t->texture = kiln_gfx_create_texture(pool->res, &td, &inner);
    if (t->texture.id) t->view = kiln_gfx_create_texture_view(pool->res, t->texture, NULL, &inner);
    bool created = t->texture.id && t->view.id;
    kiln_gfx_scope_result scope;
    bool popped = kiln_gfx_pop_scope(gfx, &scope, created ? &inner : NULL);
    if (created && popped && !scope.failed) {
        t->raw_view = kiln_gfx_texture_view_raw(pool->res, t->view, NULL);
        return true;
    }
    if (t->view.id) kiln_gfx_destroy_texture_view(pool->res, t->view, NULL);
    if (t->texture.id) kiln_gfx_destroy_texture(pool->res, t->texture, NULL);
    return kiln_error_set(err, scope.failed ? KILN_ERR_GPU : inner.code, "transient %ux%u %s%s: %s", t->width,
                          t->height, kiln_texture_format_name(t->format), four ? " x4" : "",
                          scope.failed ? scope.message : inner.message);
}

uint32_t transient_pool_claim(transient_pool *pool, uint32_t width, uint32_t height, kiln_texture_format format,
                              kiln_samples samples, uint32_t first, uint32_t last, kiln_error *err) {
    /* The lowest free slot of the class, so that a dispatch declared like the last one lands on
     * the same textures in the same order. */
    transient_texture *found = NULL;
    for (uint32_t i = 0; i < pool->count && !found; i++) {
        transient_texture *t = &pool->items[i];
        bool held = t->claimed_dispatch == pool->dispatch_serial && t->busy_through >= first;
        if (t->alive && !held && same_class(t, width, height, format, samples)) found = t;
    }
    if (!found) {
        transient_texture *t = free_slot(pool);
        if (!t) {
            kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory pooling a transient");
            return TRANSIENT_POOL_NONE;
        }
        *t = (transient_texture){.width = width, .height = height, .format = format, .samples = samples};
        if (!create_texture(pool, t, err)) {
            *t = (transient_texture){0};
            return TRANSIENT_POOL_NONE;
        }
        t->alive = true;
        found = t;
    }
    if (found->claimed_dispatch != pool->dispatch_serial) pool->textures_last_dispatch++;
    found->claimed_dispatch = pool->dispatch_serial;
    found->busy_through = last;
    found->used_record = pool->record_serial;
    return (uint32_t)(found - pool->items);
}

kiln_pool_stats transient_pool_stats(const transient_pool *pool) {
    kiln_pool_stats s = {.textures_last_dispatch = pool->textures_last_dispatch};
    for (uint32_t i = 0; i < pool->count; i++) {
        const transient_texture *t = &pool->items[i];
        if (!t->alive) continue;
        s.textures++;
        bool first_of_class = true;
        for (uint32_t j = 0; j < i && first_of_class; j++)
            if (pool->items[j].alive && same_class(&pool->items[j], t->width, t->height, t->format, t->samples))
                first_of_class = false;
        s.classes += first_of_class;
    }
    return s;
}
