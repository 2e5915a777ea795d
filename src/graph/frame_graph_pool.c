/* The frame graph's texture pool: physical textures (and their default views, both in
 * kiln_resources) that persist across frames, keyed by description, and the assignment of this
 * frame's transients to them, sharing one texture between transients whose lifetimes do not
 * overlap.
 *
 * Steady state: a frame declared like the last one finds every texture it needs in the pool in
 * the same slots, so compile creates and destroys nothing. */
#include "frame_graph_internal.h"

#include <stdlib.h>
#include <string.h>

bool fg_pool_reserve(kiln_frame_graph *g, uint32_t need) {
    if (need <= g->physical_capacity) return true;
    if (need > KILN_POOL_MAX_CAPACITY) return false; /* more textures than kiln_resources can hold */
    uint32_t cap = g->physical_capacity ? g->physical_capacity : need;
    while (cap < need) cap *= 2;
    fg_physical *grown = realloc(g->physical, (size_t)cap * sizeof *grown);
    if (!grown) return false;
    memset(grown + g->physical_capacity, 0, (cap - g->physical_capacity) * sizeof *grown);
    g->physical = grown;
    g->physical_capacity = cap;
    return true;
}

static void release_physical(kiln_frame_graph *g, uint32_t slot) {
    fg_physical *p = &g->physical[slot];
    /* The view first: kiln_resources refuses to destroy a texture with live views. */
    kiln_gfx_destroy_texture_view(g->res, p->view, NULL);
    kiln_gfx_destroy_texture(g->res, p->texture, NULL);
    *p = (fg_physical){0};
}

void fg_pool_release_all(kiln_frame_graph *g) {
    for (uint32_t s = 0; s < g->physical_slots; s++)
        if (g->physical[s].alive) release_physical(g, s);
    g->physical_slots = 0;
}

static bool same_desc(const kiln_fg_texture_desc *a, const kiln_fg_texture_desc *b) {
    return a->width == b->width && a->height == b->height && a->format == b->format && a->usage == b->usage &&
           a->sample_count == b->sample_count && a->mip_levels == b->mip_levels && a->layers == b->layers;
}

/* Creates a texture and its default view for `r` in a free pool slot. Runs inside an error scope
 * so a description Dawn refuses fails here, naming the transient. */
static uint32_t create_physical(kiln_frame_graph *g, const fg_resource *r, kiln_error *err) {
    uint32_t slot = 0;
    while (slot < g->physical_slots && g->physical[slot].alive) slot++;
    if (slot == g->physical_slots && !fg_pool_reserve(g, slot + 1)) {
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "frame graph: out of memory pooling transient '%s'",
                       fg_name(r->name));
        return FG_NONE;
    }
    kiln_gfx *gfx = kiln_resources_gfx(g->res);
    kiln_texture_desc td = {
        .label = r->name, .width = r->desc.width, .height = r->desc.height, .depth_or_layers = r->desc.layers,
        .mip_levels = r->desc.mip_levels, .sample_count = r->desc.sample_count, .format = r->desc.format,
        .usage = r->desc.usage,
    };
    kiln_error inner = {0};
    kiln_gfx_push_scope(gfx);
    kiln_texture texture = kiln_gfx_create_texture(g->res, &td, &inner);
    kiln_texture_view view = {0};
    if (texture.id)
        view = kiln_gfx_create_texture_view(g->res, texture, &(kiln_texture_view_desc){.label = r->name}, &inner);
    bool created = texture.id && view.id;
    kiln_gfx_scope_result scope;
    bool popped = kiln_gfx_pop_scope(gfx, &scope, created ? &inner : NULL);
    if (!created || !popped || scope.failed) {
        if (view.id) kiln_gfx_destroy_texture_view(g->res, view, NULL);
        if (texture.id) kiln_gfx_destroy_texture(g->res, texture, NULL);
        kiln_error_set(err, scope.failed ? KILN_ERR_GPU : inner.code, "frame graph: transient '%s' (%ux%u): %s",
                       fg_name(r->name), r->desc.width, r->desc.height, scope.failed ? scope.message : inner.message);
        return FG_NONE;
    }
    g->physical[slot] = (fg_physical){
        .desc = r->desc, .texture = texture, .view = view, .alive = true,
        .raw_texture = kiln_gfx_texture_raw(g->res, texture, NULL),
        .raw_view = kiln_gfx_texture_view_raw(g->res, view, NULL),
    };
    if (slot == g->physical_slots) g->physical_slots++;
    return slot;
}

/* A pool slot for a transient living [first, last]: one this frame already uses whose last user
 * finished before `first` (aliasing), else one this frame does not use yet, else a new one.
 * Slots are searched in pool order, so declaring the same frame again picks the same textures. */
static uint32_t find_physical(const kiln_frame_graph *g, const fg_resource *r) {
    for (uint32_t s = 0; s < g->physical_slots; s++) {
        const fg_physical *p = &g->physical[s];
        if (p->alive && p->used && p->busy_until < r->first && same_desc(&p->desc, &r->desc)) return s;
    }
    for (uint32_t s = 0; s < g->physical_slots; s++) {
        const fg_physical *p = &g->physical[s];
        if (p->alive && !p->used && same_desc(&p->desc, &r->desc)) return s;
    }
    return FG_NONE;
}

/* Greedy interval colouring: transients in order of first use (then declaration) each take the
 * first compatible texture that is free by then. Textures no transient takes are destroyed. */
bool fg_assign_textures(kiln_frame_graph *g, kiln_error *err) {
    uint32_t *by_first = g->resource_scratch, n = 0;
    for (uint32_t r = 1; r < g->resource_count; r++) {
        const fg_resource *res = &g->resources[r];
        if (res->kind != FG_TRANSIENT || res->first == FG_NONE) continue;
        uint32_t j = n++;
        for (; j > 0 && g->resources[by_first[j - 1]].first > res->first; j--) by_first[j] = by_first[j - 1];
        by_first[j] = r;
    }
    for (uint32_t s = 0; s < g->physical_slots; s++) g->physical[s].used = false;
    for (uint32_t i = 0; i < n; i++) {
        fg_resource *res = &g->resources[by_first[i]];
        uint32_t slot = find_physical(g, res);
        if (slot == FG_NONE) slot = create_physical(g, res, err);
        if (slot == FG_NONE) return false;
        g->physical[slot].used = true;
        g->physical[slot].busy_until = res->last;
        res->physical = slot;
    }
    g->physical_used = 0;
    for (uint32_t s = 0; s < g->physical_slots; s++) {
        if (g->physical[s].used) g->physical_used++;
        else if (g->physical[s].alive) release_physical(g, s);
    }
    return true;
}
