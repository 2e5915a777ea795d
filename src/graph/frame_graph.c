/* The frame graph: storage, declaration, compile's outline and the queries on a compiled frame.
 * Edges, culling, order, lifetimes and attachment operations are in frame_graph_compile.c, the
 * texture pool and aliasing in frame_graph_pool.c, execution in frame_graph_execute.c, the DOT
 * dump in frame_graph_dot.c.
 *
 * Compile works only in arrays the graph already owns, sized with the declaration arrays: once a
 * frame of a given shape has been declared, declaring and compiling it again allocates nothing. */
#include "frame_graph_internal.h"

#include <stdlib.h>
#include <string.h>

/* Enough for the renderer's frame without any growth. */
enum {
    FG_INITIAL_PASSES = 32,
    FG_INITIAL_RESOURCES = 64,
    FG_INITIAL_ACCESSES = 128,
    FG_INITIAL_ATTACHMENTS = 32,
    FG_INITIAL_PHYSICAL = 16, /* pool slots */
    /* Edges are stored in arrays twice the access capacity: keep that within 32 bits. */
    FG_MAX_CAPACITY = 1u << 28,
};

/* ---- storage ------------------------------------------------------------------------------- */

/* realloc that keeps the old block on failure and records the failure in *ok; once *ok is false
 * it does nothing, so a group of arrays can be grown in a row and checked once. */
static void *resized(void *old, size_t count, size_t item_size, bool *ok) {
    if (!*ok) return old;
    void *p = realloc(old, count * item_size);
    if (!p) {
        *ok = false;
        return old;
    }
    return p;
}

/* The next power-of-two multiple of capacity that holds need; 0 past FG_MAX_CAPACITY. */
static uint32_t grown_capacity(uint32_t capacity, uint32_t need, uint32_t initial) {
    if (need > FG_MAX_CAPACITY) return 0;
    uint32_t c = capacity ? capacity : initial;
    while (c < need) c *= 2;
    return c;
}

static bool reserve_passes(kiln_frame_graph *g, uint32_t need) {
    if (need <= g->pass_capacity) return true;
    uint32_t cap = grown_capacity(g->pass_capacity, need, FG_INITIAL_PASSES);
    bool ok = cap != 0;
    g->passes = resized(g->passes, cap, sizeof *g->passes, &ok);
    g->order = resized(g->order, cap, sizeof *g->order, &ok);
    g->pass_scratch = resized(g->pass_scratch, cap, sizeof *g->pass_scratch, &ok);
    if (ok) g->pass_capacity = cap;
    return ok;
}

static bool reserve_resources(kiln_frame_graph *g, uint32_t need) {
    if (need <= g->resource_capacity) return true;
    uint32_t cap = grown_capacity(g->resource_capacity, need, FG_INITIAL_RESOURCES);
    bool ok = cap != 0;
    g->resources = resized(g->resources, cap, sizeof *g->resources, &ok);
    g->resource_scratch = resized(g->resource_scratch, cap, sizeof *g->resource_scratch, &ok);
    if (ok) g->resource_capacity = cap;
    return ok;
}

bool fg_reserve_accesses(kiln_frame_graph *g, uint32_t need) {
    if (need <= g->access_capacity) return true;
    uint32_t cap = grown_capacity(g->access_capacity, need, FG_INITIAL_ACCESSES);
    bool ok = cap != 0;
    g->accesses = resized(g->accesses, cap, sizeof *g->accesses, &ok);
    g->sorted_accesses = resized(g->sorted_accesses, cap, sizeof *g->sorted_accesses, &ok);
    g->edges = resized(g->edges, 2 * (size_t)cap, sizeof *g->edges, &ok);
    g->out_edges = resized(g->out_edges, 2 * (size_t)cap, sizeof *g->out_edges, &ok);
    g->in_edges = resized(g->in_edges, 2 * (size_t)cap, sizeof *g->in_edges, &ok);
    if (ok) g->access_capacity = cap;
    return ok;
}

static bool reserve_attachments(kiln_frame_graph *g, uint32_t need) {
    if (need <= g->attachment_capacity) return true;
    uint32_t cap = grown_capacity(g->attachment_capacity, need, FG_INITIAL_ATTACHMENTS);
    bool ok = cap != 0;
    g->attachments = resized(g->attachments, cap, sizeof *g->attachments, &ok);
    g->sorted_attachments = resized(g->sorted_attachments, cap, sizeof *g->sorted_attachments, &ok);
    if (ok) g->attachment_capacity = cap;
    return ok;
}

kiln_frame_graph *kiln_frame_graph_create(const kiln_fg_allocator *allocator, kiln_error *err) {
    if (!allocator || !allocator->create_texture || !allocator->create_view || !allocator->destroy_view ||
        !allocator->destroy_texture) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "frame graph: the allocator is missing a function");
        return NULL;
    }
    kiln_frame_graph *g = calloc(1, sizeof *g);
    if (!g) {
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "frame graph: out of memory");
        return NULL;
    }
    g->allocator = *allocator;
    if (!reserve_passes(g, FG_INITIAL_PASSES) || !reserve_resources(g, FG_INITIAL_RESOURCES) ||
        !fg_reserve_accesses(g, FG_INITIAL_ACCESSES) || !reserve_attachments(g, FG_INITIAL_ATTACHMENTS) ||
        !fg_pool_reserve(g, FG_INITIAL_PHYSICAL)) {
        kiln_frame_graph_destroy(g);
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "frame graph: out of memory");
        return NULL;
    }
    kiln_frame_graph_reset(g);
    return g;
}

void kiln_frame_graph_destroy(kiln_frame_graph *g) {
    if (!g) return;
    fg_pool_release_all(g);
    free(g->passes);
    free(g->order);
    free(g->pass_scratch);
    free(g->resources);
    free(g->resource_scratch);
    free(g->accesses);
    free(g->sorted_accesses);
    free(g->edges);
    free(g->out_edges);
    free(g->in_edges);
    free(g->attachments);
    free(g->sorted_attachments);
    free(g->physical);
    free(g);
}

void kiln_frame_graph_reset(kiln_frame_graph *g) {
    g->pass_count = 0;
    g->access_count = g->declared_access_count = 0;
    g->attachment_count = 0;
    g->resource_count = 1;
    g->resources[0] = (fg_resource){.kind = FG_BUFFER, .first = FG_NONE, .last = FG_NONE, .physical = FG_NONE};
    g->mistake = (fg_mistake){0};
    g->compiled = false;
    g->order_count = 0;
    g->culled_count = 0;
    g->physical_used = 0;
}

void kiln_frame_graph_set_keep_idle(kiln_frame_graph *g, uint32_t compiles) { g->keep_idle = compiles; }

/* ---- declaration --------------------------------------------------------------------------- */

/* Only the first mistake of a frame is reported: later ones are usually its consequences. */
static void note_mistake(kiln_frame_graph *g, fg_mistake_kind kind, uint32_t pass, uint32_t resource) {
    if (g->mistake.kind == FG_MISTAKE_NONE) g->mistake = (fg_mistake){kind, pass, resource, 0};
}

bool fg_valid_resource(const kiln_frame_graph *g, kiln_fg_resource r) {
    return r.index != 0 && r.index < g->resource_count;
}

static kiln_fg_texture_desc with_defaults(const kiln_fg_texture_desc *desc) {
    kiln_fg_texture_desc d = desc ? *desc : (kiln_fg_texture_desc){0};
    if (!d.usage) d.usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_TextureBinding;
    if (!d.sample_count) d.sample_count = 1;
    if (!d.mip_levels) d.mip_levels = 1;
    if (!d.layers) d.layers = 1;
    return d;
}

static uint32_t new_resource(kiln_frame_graph *g, const char *name, fg_kind kind, const kiln_fg_texture_desc *desc) {
    g->compiled = false;
    if (!reserve_resources(g, g->resource_count + 1)) {
        note_mistake(g, FG_MISTAKE_OUT_OF_MEMORY, FG_NONE, FG_NONE);
        return 0;
    }
    uint32_t i = g->resource_count++;
    g->resources[i] = (fg_resource){
        .name = name, .kind = kind, .desc = with_defaults(desc),
        .first = FG_NONE, .last = FG_NONE, .physical = FG_NONE, .view = FG_NONE,
    };
    return i;
}

kiln_fg_resource kiln_frame_graph_create_transient(kiln_frame_graph *g, const char *name,
                                                   const kiln_fg_texture_desc *desc) {
    return (kiln_fg_resource){new_resource(g, name, FG_TRANSIENT, desc)};
}

kiln_fg_resource kiln_frame_graph_import_view(kiln_frame_graph *g, const char *name, WGPUTextureView view,
                                              WGPUTexture texture, const kiln_fg_texture_desc *desc) {
    uint32_t i = new_resource(g, name, FG_IMPORTED, desc);
    if (i) {
        g->resources[i].imported_view = view;
        g->resources[i].imported_texture = texture;
    }
    return (kiln_fg_resource){i};
}

kiln_fg_resource kiln_frame_graph_import_buffer(kiln_frame_graph *g, const char *name, kiln_buffer buffer) {
    uint32_t i = new_resource(g, name, FG_BUFFER, NULL);
    if (i) g->resources[i].buffer = buffer;
    return (kiln_fg_resource){i};
}

kiln_fg_resource kiln_frame_graph_create_resolve_target(kiln_frame_graph *g, const char *name,
                                                        kiln_fg_resource multisampled) {
    if (!fg_valid_resource(g, multisampled) || g->resources[multisampled.index].kind != FG_TRANSIENT ||
        g->resources[multisampled.index].desc.sample_count < 2) {
        note_mistake(g, FG_MISTAKE_RESOLVE_OF, FG_NONE, multisampled.index);
        return (kiln_fg_resource){0};
    }
    /* One target per multisampled transient: asking again names the same one. */
    if (g->resources[multisampled.index].resolve_target)
        return (kiln_fg_resource){g->resources[multisampled.index].resolve_target};
    kiln_fg_texture_desc desc = g->resources[multisampled.index].desc;
    desc.sample_count = 1;
    desc.usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_TextureBinding;
    uint32_t i = new_resource(g, name, FG_TRANSIENT, &desc);
    if (i) {
        g->resources[i].resolve_of = multisampled.index;
        g->resources[multisampled.index].resolve_target = i;
    }
    return (kiln_fg_resource){i};
}

kiln_fg_resource kiln_frame_graph_subresource(kiln_frame_graph *g, kiln_fg_resource texture, uint32_t mip,
                                              uint32_t layer) {
    if (!fg_valid_resource(g, texture) || g->resources[texture.index].kind != FG_TRANSIENT) {
        note_mistake(g, FG_MISTAKE_SUBRESOURCE_OF, FG_NONE, texture.index);
        return (kiln_fg_resource){0};
    }
    const fg_resource *parent = &g->resources[texture.index];
    if (mip >= parent->desc.mip_levels || layer >= parent->desc.layers) {
        bool bad_mip = mip >= parent->desc.mip_levels;
        note_mistake(g, bad_mip ? FG_MISTAKE_SUBRESOURCE_MIP : FG_MISTAKE_SUBRESOURCE_LAYER, FG_NONE, texture.index);
        if (g->mistake.resource == texture.index) g->mistake.value = bad_mip ? mip : layer;
        return (kiln_fg_resource){0};
    }
    /* One resource per (mip, layer): a second handle to the same part must order and keep the
     * same passes as the first. */
    for (uint32_t part = parent->first_part; part; part = g->resources[part].next_part)
        if (g->resources[part].mip == mip && g->resources[part].layer == layer) return (kiln_fg_resource){part};
    kiln_fg_texture_desc desc = parent->desc;
    uint32_t i = new_resource(g, parent->name, FG_SUBRESOURCE, &desc);
    if (i) {
        fg_resource *whole = &g->resources[texture.index];
        g->resources[i].parent = texture.index;
        g->resources[i].mip = mip;
        g->resources[i].layer = layer;
        g->resources[i].next_part = whole->first_part;
        whole->first_part = i;
    }
    return (kiln_fg_resource){i};
}

void kiln_frame_graph_export(kiln_frame_graph *g, kiln_fg_resource resource) {
    g->compiled = false;
    if (!fg_valid_resource(g, resource)) {
        note_mistake(g, FG_MISTAKE_EXPORT_BAD_RESOURCE, FG_NONE, resource.index);
        return;
    }
    g->resources[resource.index].exported = true;
}

static uint32_t new_pass(kiln_frame_graph *g, const char *name, kiln_fg_record_fn record, void *user, bool compute) {
    g->compiled = false;
    if (!reserve_passes(g, g->pass_count + 1)) {
        note_mistake(g, FG_MISTAKE_OUT_OF_MEMORY, FG_NONE, FG_NONE);
        return KILN_FG_NO_PASS;
    }
    uint32_t p = g->pass_count++;
    g->passes[p] = (fg_pass){.name = name, .record = record, .user = user, .compute = compute, .culled = true,
                             .position = FG_NONE};
    return p;
}

uint32_t kiln_frame_graph_add_pass(kiln_frame_graph *g, const char *name, kiln_fg_record_fn record, void *user) {
    return new_pass(g, name, record, user, false);
}

uint32_t kiln_frame_graph_add_compute_pass(kiln_frame_graph *g, const char *name, kiln_fg_record_fn record,
                                           void *user) {
    return new_pass(g, name, record, user, true);
}

static bool add_access(kiln_frame_graph *g, uint32_t pass, kiln_fg_resource resource, bool write) {
    g->compiled = false;
    g->access_count = g->declared_access_count; /* a compile's derived accesses go: they are re-derived */
    if (pass >= g->pass_count) {
        note_mistake(g, write ? FG_MISTAKE_WRITE_BAD_PASS : FG_MISTAKE_READ_BAD_PASS, pass, resource.index);
        return false;
    }
    if (!fg_valid_resource(g, resource)) {
        note_mistake(g, write ? FG_MISTAKE_WRITE_BAD_RESOURCE : FG_MISTAKE_READ_BAD_RESOURCE, pass, resource.index);
        return false;
    }
    if (!fg_reserve_accesses(g, g->access_count + 1)) {
        note_mistake(g, FG_MISTAKE_OUT_OF_MEMORY, pass, resource.index);
        return false;
    }
    g->accesses[g->access_count++] = (fg_access){.pass = pass, .resource = resource.index, .write = write};
    g->declared_access_count = g->access_count;
    return true;
}

/* An attachment is also an access: a write, or a read for a read-only depth attachment. */
static void add_attachment(kiln_frame_graph *g, uint32_t pass, kiln_fg_resource resource, fg_attachment a) {
    if (!add_access(g, pass, resource, !a.read_only)) return;
    const fg_resource *r = &g->resources[resource.index];
    if (g->passes[pass].compute || r->kind == FG_BUFFER) {
        note_mistake(g, FG_MISTAKE_ATTACH_NOT_TEXTURE, pass, resource.index);
        return;
    }
    /* Counted per pass, not by scanning the attachments: a frame of thousands of passes (a
     * program's repeats) would otherwise declare in quadratic time. */
    fg_pass *p = &g->passes[pass];
    if (a.depth && p->has_depth) {
        note_mistake(g, FG_MISTAKE_TWO_DEPTHS, pass, resource.index);
        return;
    }
    if (!a.depth && p->colors == KILN_MAX_COLOR_ATTACHMENTS) {
        note_mistake(g, FG_MISTAKE_TOO_MANY_COLORS, pass, resource.index);
        return;
    }
    if (!reserve_attachments(g, g->attachment_count + 1)) {
        note_mistake(g, FG_MISTAKE_OUT_OF_MEMORY, pass, resource.index);
        return;
    }
    a.pass = pass;
    a.resource = resource.index;
    g->attachments[g->attachment_count++] = a;
    if (a.depth) p->has_depth = true;
    else p->colors++;
}

void kiln_frame_graph_color(kiln_frame_graph *g, uint32_t pass, kiln_fg_resource resource, WGPUColor clear) {
    add_attachment(g, pass, resource, (fg_attachment){.clear_color = clear});
}

void kiln_frame_graph_color_load(kiln_frame_graph *g, uint32_t pass, kiln_fg_resource resource, WGPUColor clear,
                                 WGPULoadOp load) {
    add_attachment(g, pass, resource, (fg_attachment){.clear_color = clear, .stated_load = load});
}

void kiln_frame_graph_depth(kiln_frame_graph *g, uint32_t pass, kiln_fg_resource resource, float clear,
                            bool read_only) {
    add_attachment(g, pass, resource, (fg_attachment){.depth = true, .read_only = read_only, .clear_depth = clear});
}

void kiln_frame_graph_timestamps(kiln_frame_graph *g, uint32_t pass, const kiln_pass_timestamps *writes) {
    if (pass >= g->pass_count) return;
    g->passes[pass].timed = writes != NULL;
    if (writes) g->passes[pass].timestamps = *writes;
}

void kiln_frame_graph_read(kiln_frame_graph *g, uint32_t pass, kiln_fg_resource resource) {
    add_access(g, pass, resource, false);
}

void kiln_frame_graph_write(kiln_frame_graph *g, uint32_t pass, kiln_fg_resource resource) {
    add_access(g, pass, resource, true);
}

/* ---- compile ------------------------------------------------------------------------------- */

bool kiln_frame_graph_compile(kiln_frame_graph *g, kiln_error *err) {
    g->compiled = false;
    g->order_count = 0;
    g->culled_count = 0;
    g->physical_used = 0;
    if (!fg_compile_order(g, err) || !fg_assign_textures(g, err)) {
        g->order_count = 0;
        g->culled_count = 0;
        g->physical_used = 0;
        return false;
    }
    fg_derive_attachments(g);
    g->compiled = true;
    return true;
}

/* ---- results ------------------------------------------------------------------------------- */

const uint32_t *kiln_frame_graph_order(const kiln_frame_graph *g, uint32_t *count) {
    if (count) *count = g->compiled ? g->order_count : 0;
    return g->order;
}

bool kiln_frame_graph_is_culled(const kiln_frame_graph *g, uint32_t pass) {
    return !g->compiled || pass >= g->pass_count || g->passes[pass].culled;
}

uint32_t kiln_frame_graph_culled_count(const kiln_frame_graph *g) { return g->compiled ? g->culled_count : 0; }

uint32_t kiln_frame_graph_physical_count(const kiln_frame_graph *g) { return g->compiled ? g->physical_used : 0; }

kiln_fg_pool_stats kiln_frame_graph_pool_stats(const kiln_frame_graph *g) { return fg_pool_stats(g); }

bool kiln_frame_graph_lifetime(const kiln_frame_graph *g, kiln_fg_resource resource, uint32_t *first,
                               uint32_t *last) {
    bool used = g->compiled && fg_valid_resource(g, resource) && g->resources[resource.index].first != FG_NONE;
    if (first) *first = used ? g->resources[resource.index].first : FG_NONE;
    if (last) *last = used ? g->resources[resource.index].last : FG_NONE;
    return used;
}

/* The resource behind a handle if it has a texture this frame; otherwise NULL and why. */
static const fg_resource *texture_resource(const kiln_frame_graph *g, kiln_fg_resource resource, kiln_error *err) {
    if (!fg_valid_resource(g, resource)) {
        kiln_error_set(err, KILN_ERR_INVALID_HANDLE, "frame graph: invalid resource (index %u)", resource.index);
        return NULL;
    }
    const fg_resource *r = &g->resources[resource.index];
    if (!g->compiled) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "frame graph: '%s' was asked for before the graph was compiled",
                       fg_name(r->name));
        return NULL;
    }
    if (r->kind == FG_BUFFER) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "frame graph: '%s' is a buffer and has no texture",
                       fg_name(r->name));
        return NULL;
    }
    if (r->kind != FG_IMPORTED && r->physical == FG_NONE) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                       "frame graph: transient '%s' is used by no executed pass this frame, so it has no texture",
                       fg_name(r->name));
        return NULL;
    }
    return r;
}

WGPUTextureView kiln_frame_graph_view_of(const kiln_frame_graph *g, kiln_fg_resource resource, kiln_error *err) {
    const fg_resource *r = texture_resource(g, resource, err);
    if (!r) return NULL;
    return r->kind == FG_IMPORTED ? r->imported_view : fg_resource_view(g, r).raw_view;
}

WGPUTexture kiln_frame_graph_texture_of(const kiln_frame_graph *g, kiln_fg_resource resource, kiln_error *err) {
    const fg_resource *r = texture_resource(g, resource, err);
    if (!r) return NULL;
    if (r->kind != FG_IMPORTED) return g->physical[r->physical].texture.raw_texture;
    if (!r->imported_texture)
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "frame graph: '%s' was imported without its texture",
                       fg_name(r->name));
    return r->imported_texture;
}

kiln_texture_view kiln_frame_graph_view_handle(const kiln_frame_graph *g, kiln_fg_resource resource,
                                               kiln_error *err) {
    const fg_resource *r = texture_resource(g, resource, err);
    if (!r) return (kiln_texture_view){0};
    if (r->kind == FG_IMPORTED) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                       "frame graph: '%s' is imported: its view is the caller's and has no pooled handle",
                       fg_name(r->name));
        return (kiln_texture_view){0};
    }
    return fg_resource_view(g, r).view;
}

uint32_t kiln_frame_graph_attachments(const kiln_frame_graph *g, uint32_t pass, kiln_fg_attachment *out,
                                      uint32_t max) {
    if (!g->compiled || pass >= g->pass_count || g->passes[pass].culled) return 0;
    const fg_pass *p = &g->passes[pass];
    for (uint32_t i = 0; i < p->attachment_count && i < max; i++) {
        const fg_attachment *a = &g->attachments[g->sorted_attachments[p->attachment_start + i]];
        out[i] = (kiln_fg_attachment){
            .resource = {a->resource}, .depth = a->depth, .read_only = a->read_only,
            .load = a->load, .store = a->store, .resolve = {a->resolve},
        };
    }
    return p->attachment_count;
}

/* ---- lookup -------------------------------------------------------------------------------- */

kiln_fg_resource kiln_frame_graph_find(const kiln_frame_graph *g, const char *name) {
    if (!name) return (kiln_fg_resource){0};
    for (uint32_t r = 1; r < g->resource_count; r++)
        if (g->resources[r].name && strcmp(g->resources[r].name, name) == 0) return (kiln_fg_resource){r};
    return (kiln_fg_resource){0};
}

uint32_t kiln_frame_graph_pass_count(const kiln_frame_graph *g) { return g->pass_count; }

const char *kiln_frame_graph_pass_name(const kiln_frame_graph *g, uint32_t pass) {
    return pass < g->pass_count ? g->passes[pass].name : NULL;
}
