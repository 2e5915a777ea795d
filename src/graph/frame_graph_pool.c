/* The frame graph's texture pool: physical textures (with their default views, and the views of
 * single mips and layers that sub-resources asked for) made by the graph's allocator, persisting
 * across frames, keyed by description; and the assignment of this frame's transients to them,
 * sharing one texture between transients whose lifetimes do not overlap.
 *
 * Steady state: a frame declared like the last one finds every texture it needs in the pool in
 * the same slots, so compile creates and destroys nothing. */
#include "frame_graph_internal.h"

#include <stdlib.h>
#include <string.h>

#include <kiln/core/containers.h>

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
    /* Views first: kiln_resources refuses to destroy a texture with live views. */
    for (uint32_t v = 0; v < p->view_count; v++) g->allocator.destroy_view(g->allocator.user, &p->views[v].view);
    g->allocator.destroy_texture(g->allocator.user, &p->texture);
    fg_physical_view *views = p->views;
    uint32_t view_capacity = p->view_capacity;
    *p = (fg_physical){.views = views, .view_capacity = view_capacity}; /* the view array is kept for reuse */
}

void fg_pool_release_all(kiln_frame_graph *g) {
    for (uint32_t s = 0; s < g->physical_slots; s++) {
        if (g->physical[s].alive) release_physical(g, s);
        free(g->physical[s].views);
        g->physical[s].views = NULL;
    }
    g->physical_slots = 0;
}

static bool same_desc(const kiln_fg_texture_desc *a, const kiln_fg_texture_desc *b) {
    return a->width == b->width && a->height == b->height && a->format == b->format && a->usage == b->usage &&
           a->sample_count == b->sample_count && a->mip_levels == b->mip_levels && a->layers == b->layers;
}

kiln_fg_pool_stats fg_pool_stats(const kiln_frame_graph *g) {
    kiln_fg_pool_stats s = {0};
    for (uint32_t i = 0; i < g->physical_slots; i++) {
        const fg_physical *p = &g->physical[i];
        if (!p->alive) continue;
        s.textures++;
        bool first_of_desc = true;
        for (uint32_t j = 0; j < i && first_of_desc; j++)
            if (g->physical[j].alive && same_desc(&g->physical[j].desc, &p->desc)) first_of_desc = false;
        s.descriptions += first_of_desc;
    }
    return s;
}

/* Has the allocator make a texture for `r` in a free pool slot. */
static uint32_t create_physical(kiln_frame_graph *g, const fg_resource *r, kiln_error *err) {
    uint32_t slot = 0;
    while (slot < g->physical_slots && g->physical[slot].alive) slot++;
    if (slot == g->physical_slots && !fg_pool_reserve(g, slot + 1)) {
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "frame graph: out of memory pooling transient '%s'",
                       fg_name(r->name));
        return FG_NONE;
    }
    kiln_fg_texture texture = {0};
    kiln_error inner = {0};
    if (!g->allocator.create_texture(g->allocator.user, r->name, &r->desc, &texture, &inner)) {
        kiln_error_set(err, inner.code ? inner.code : KILN_ERR_GPU, "frame graph: transient '%s' (%ux%u): %s",
                       fg_name(r->name), r->desc.width, r->desc.height, inner.message);
        return FG_NONE;
    }
    fg_physical *p = &g->physical[slot];
    p->desc = r->desc;
    p->texture = texture;
    p->alive = true;
    p->view_count = 0;
    if (slot == g->physical_slots) g->physical_slots++;
    return slot;
}

/* The pooled view of one mip and layer of slot's texture, made on first use and kept with the
 * texture, so a steady frame finds it again. */
static uint32_t physical_view(kiln_frame_graph *g, uint32_t slot, const fg_resource *part, kiln_error *err) {
    fg_physical *p = &g->physical[slot];
    for (uint32_t v = 0; v < p->view_count; v++)
        if (p->views[v].mip == part->mip && p->views[v].layer == part->layer) return v;
    fg_physical_view *views = kiln_array_reserve(p->views, &p->view_capacity, p->view_count + 1, sizeof *views);
    if (!views) {
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "frame graph: out of memory viewing '%s'", fg_name(part->name));
        return FG_NONE;
    }
    p->views = views;
    kiln_fg_view view = {0};
    kiln_error inner = {0};
    if (!g->allocator.create_view(g->allocator.user, &p->texture, part->mip, part->layer, &view, &inner)) {
        kiln_error_set(err, inner.code ? inner.code : KILN_ERR_GPU, "frame graph: mip %u layer %u of '%s': %s",
                       part->mip, part->layer, fg_name(part->name), inner.message);
        return FG_NONE;
    }
    p->views[p->view_count] = (fg_physical_view){.mip = part->mip, .layer = part->layer, .view = view};
    return p->view_count++;
}

kiln_fg_view fg_resource_view(const kiln_frame_graph *g, const fg_resource *r) {
    if (r->kind == FG_SUBRESOURCE) return g->physical[r->physical].views[r->view].view;
    const kiln_fg_texture *t = &g->physical[r->physical].texture;
    return (kiln_fg_view){.view = t->view, .raw_view = t->raw_view};
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
    g->compile_serial++;
    for (uint32_t s = 0; s < g->physical_slots; s++) g->physical[s].used = false;
    for (uint32_t i = 0; i < n; i++) {
        fg_resource *res = &g->resources[by_first[i]];
        uint32_t slot = find_physical(g, res);
        if (slot == FG_NONE) slot = create_physical(g, res, err);
        if (slot == FG_NONE) return false;
        g->physical[slot].used = true;
        g->physical[slot].busy_until = res->last;
        g->physical[slot].last_used = g->compile_serial;
        res->physical = slot;
    }
    /* Sub-resources share their texture's slot and get a view of their mip and layer. */
    for (uint32_t r = 1; r < g->resource_count; r++) {
        fg_resource *part = &g->resources[r];
        if (part->kind != FG_SUBRESOURCE || part->first == FG_NONE) continue;
        part->physical = g->resources[part->parent].physical;
        part->view = physical_view(g, part->physical, part, err);
        if (part->view == FG_NONE) return false;
    }
    g->physical_used = 0;
    for (uint32_t s = 0; s < g->physical_slots; s++) {
        const fg_physical *p = &g->physical[s];
        if (p->used) g->physical_used++;
        else if (p->alive && g->compile_serial - p->last_used > g->keep_idle) release_physical(g, s);
    }
    return true;
}
