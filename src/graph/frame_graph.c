/* The frame graph: declaration, compile (dependency edges, culling, ordering, lifetimes) and the
 * queries on a compiled frame. The texture pool and aliasing are in frame_graph_pool.c, the DOT
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

static bool reserve_accesses(kiln_frame_graph *g, uint32_t need) {
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

kiln_frame_graph *kiln_frame_graph_create(kiln_resources *res, kiln_error *err) {
    if (!res) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "frame graph: no kiln_resources given");
        return NULL;
    }
    kiln_frame_graph *g = calloc(1, sizeof *g);
    if (!g) {
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "frame graph: out of memory");
        return NULL;
    }
    g->res = res;
    if (!reserve_passes(g, FG_INITIAL_PASSES) || !reserve_resources(g, FG_INITIAL_RESOURCES) ||
        !reserve_accesses(g, FG_INITIAL_ACCESSES) || !fg_pool_reserve(g, FG_INITIAL_PHYSICAL)) {
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
    free(g->physical);
    free(g);
}

void kiln_frame_graph_reset(kiln_frame_graph *g) {
    g->pass_count = 0;
    g->access_count = 0;
    g->resource_count = 1;
    g->resources[0] = (fg_resource){.kind = FG_EXTERNAL, .first = FG_NONE, .last = FG_NONE, .physical = FG_NONE};
    g->mistake = (fg_mistake){0};
    g->compiled = false;
    g->order_count = 0;
    g->culled_count = 0;
    g->physical_used = 0;
}

/* ---- declaration --------------------------------------------------------------------------- */

/* Only the first mistake of a frame is reported: later ones are usually its consequences. */
static void note_mistake(kiln_frame_graph *g, fg_mistake_kind kind, uint32_t pass, uint32_t resource) {
    if (g->mistake.kind == FG_MISTAKE_NONE) g->mistake = (fg_mistake){kind, pass, resource};
}

static bool valid_resource(const kiln_frame_graph *g, kiln_fg_resource r) {
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
        .first = FG_NONE, .last = FG_NONE, .physical = FG_NONE,
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

kiln_fg_resource kiln_frame_graph_create_external(kiln_frame_graph *g, const char *name) {
    return (kiln_fg_resource){new_resource(g, name, FG_EXTERNAL, NULL)};
}

void kiln_frame_graph_export(kiln_frame_graph *g, kiln_fg_resource resource) {
    g->compiled = false;
    if (!valid_resource(g, resource)) {
        note_mistake(g, FG_MISTAKE_EXPORT_BAD_RESOURCE, FG_NONE, resource.index);
        return;
    }
    g->resources[resource.index].exported = true;
}

uint32_t kiln_frame_graph_add_pass(kiln_frame_graph *g, const char *name) {
    g->compiled = false;
    if (!reserve_passes(g, g->pass_count + 1)) {
        note_mistake(g, FG_MISTAKE_OUT_OF_MEMORY, FG_NONE, FG_NONE);
        return KILN_FG_NO_PASS;
    }
    uint32_t p = g->pass_count++;
    g->passes[p] = (fg_pass){.name = name, .culled = true, .position = FG_NONE};
    return p;
}

static void add_access(kiln_frame_graph *g, uint32_t pass, kiln_fg_resource resource, bool write) {
    g->compiled = false;
    if (pass >= g->pass_count) {
        note_mistake(g, write ? FG_MISTAKE_WRITE_BAD_PASS : FG_MISTAKE_READ_BAD_PASS, pass, resource.index);
        return;
    }
    if (!valid_resource(g, resource)) {
        note_mistake(g, write ? FG_MISTAKE_WRITE_BAD_RESOURCE : FG_MISTAKE_READ_BAD_RESOURCE, pass, resource.index);
        return;
    }
    if (!reserve_accesses(g, g->access_count + 1)) {
        note_mistake(g, FG_MISTAKE_OUT_OF_MEMORY, pass, resource.index);
        return;
    }
    g->accesses[g->access_count++] = (fg_access){.pass = pass, .resource = resource.index, .write = write};
}

void kiln_frame_graph_read(kiln_frame_graph *g, uint32_t pass, kiln_fg_resource resource) {
    add_access(g, pass, resource, false);
}

void kiln_frame_graph_write(kiln_frame_graph *g, uint32_t pass, kiln_fg_resource resource) {
    add_access(g, pass, resource, true);
}

/* ---- compile: declaration mistakes --------------------------------------------------------- */

static bool report_mistake(const kiln_frame_graph *g, kiln_error *err) {
    const fg_mistake *m = &g->mistake;
    const char *verb = (m->kind == FG_MISTAKE_READ_BAD_PASS || m->kind == FG_MISTAKE_READ_BAD_RESOURCE) ? "read"
                                                                                                       : "write";
    switch (m->kind) {
    case FG_MISTAKE_NONE:
        return true;
    case FG_MISTAKE_OUT_OF_MEMORY:
        return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "frame graph: out of memory while declaring the frame");
    case FG_MISTAKE_READ_BAD_PASS:
    case FG_MISTAKE_WRITE_BAD_PASS:
        if (valid_resource(g, (kiln_fg_resource){m->resource}))
            return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                                  "frame graph: undeclared pass %u %ss '%s' (passes declared this frame: %u)", m->pass,
                                  verb, fg_name(g->resources[m->resource].name), g->pass_count);
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "frame graph: undeclared pass %u %ss resource %u (passes declared this frame: %u)",
                              m->pass, verb, m->resource, g->pass_count);
    case FG_MISTAKE_READ_BAD_RESOURCE:
    case FG_MISTAKE_WRITE_BAD_RESOURCE:
        return kiln_error_set(err, KILN_ERR_INVALID_HANDLE, "frame graph: pass '%s' %ss an invalid resource (index %u)",
                              fg_name(g->passes[m->pass].name), verb, m->resource);
    case FG_MISTAKE_EXPORT_BAD_RESOURCE:
        return kiln_error_set(err, KILN_ERR_INVALID_HANDLE, "frame graph: export of an invalid resource (index %u)",
                              m->resource);
    }
    return true;
}

/* ---- compile: dependencies ----------------------------------------------------------------- */

/* Groups access indices by resource (counting sort), then orders each group by pass index
 * (insertion sort: groups are short and usually already in order). */
static void sort_accesses(kiln_frame_graph *g) {
    for (uint32_t r = 0; r < g->resource_count; r++) g->resources[r].access_count = 0;
    for (uint32_t a = 0; a < g->access_count; a++) g->resources[g->accesses[a].resource].access_count++;
    uint32_t start = 0;
    for (uint32_t r = 0; r < g->resource_count; r++) {
        fg_resource *res = &g->resources[r];
        res->access_start = start;
        start += res->access_count;
        res->access_count = 0;
    }
    for (uint32_t a = 0; a < g->access_count; a++) {
        fg_resource *res = &g->resources[g->accesses[a].resource];
        g->sorted_accesses[res->access_start + res->access_count++] = a;
    }
    for (uint32_t r = 1; r < g->resource_count; r++) {
        uint32_t *seg = g->sorted_accesses + g->resources[r].access_start;
        for (uint32_t i = 1; i < g->resources[r].access_count; i++) {
            uint32_t a = seg[i], j = i;
            for (; j > 0 && g->accesses[seg[j - 1]].pass > g->accesses[a].pass; j--) seg[j] = seg[j - 1];
            seg[j] = a;
        }
    }
}

static void add_edge(kiln_frame_graph *g, uint32_t from, uint32_t to, bool data) {
    g->edges[g->edge_count++] = (fg_edge){.from = from, .to = to, .data = data};
}

/* The dependency rules, resource by resource, walking its passes in declaration order:
 *  - a reader depends on the most recent earlier writer, or on the first writer when every
 *    writer is declared after it (the producer was declared later);
 *  - each writer depends on the previous writer (versions are chained) and waits for the
 *    previous version's readers (write after read). Readers declared before the first writer
 *    read the first writer's version, so the second writer waits for them too.
 * A pass that reads and writes a resource reads the previous version: its chain edge covers it.
 * Each pass group adds at most one data edge and each reader at most one write-after-read edge,
 * so there are at most twice as many edges as accesses. */
static void build_edges(kiln_frame_graph *g) {
    uint32_t *readers = g->pass_scratch;
    g->edge_count = 0;
    for (uint32_t r = 1; r < g->resource_count; r++) {
        const uint32_t *seg = g->sorted_accesses + g->resources[r].access_start;
        uint32_t n = g->resources[r].access_count;
        uint32_t first_writer = FG_NONE;
        for (uint32_t i = 0; i < n && first_writer == FG_NONE; i++)
            if (g->accesses[seg[i]].write) first_writer = g->accesses[seg[i]].pass;
        uint32_t previous_writer = FG_NONE, reader_count = 0;
        for (uint32_t i = 0; i < n;) {
            uint32_t pass = g->accesses[seg[i]].pass;
            bool writes = false;
            for (; i < n && g->accesses[seg[i]].pass == pass; i++) writes |= g->accesses[seg[i]].write;
            if (writes) {
                if (previous_writer != FG_NONE) {
                    add_edge(g, previous_writer, pass, true);
                    for (uint32_t k = 0; k < reader_count; k++) add_edge(g, readers[k], pass, false);
                    reader_count = 0;
                }
                previous_writer = pass;
            } else {
                uint32_t source = previous_writer != FG_NONE ? previous_writer : first_writer;
                if (source != FG_NONE) add_edge(g, source, pass, true);
                readers[reader_count++] = pass;
            }
        }
    }
}

/* Indexes the edges by pass both ways (out_edges for the sort, in_edges for culling). */
static void link_edges(kiln_frame_graph *g) {
    for (uint32_t p = 0; p < g->pass_count; p++) g->passes[p].out_count = g->passes[p].in_count = 0;
    for (uint32_t e = 0; e < g->edge_count; e++) {
        g->passes[g->edges[e].from].out_count++;
        g->passes[g->edges[e].to].in_count++;
    }
    uint32_t out_start = 0, in_start = 0;
    for (uint32_t p = 0; p < g->pass_count; p++) {
        fg_pass *pass = &g->passes[p];
        pass->out_start = out_start;
        pass->in_start = in_start;
        out_start += pass->out_count;
        in_start += pass->in_count;
        pass->out_count = pass->in_count = 0;
    }
    for (uint32_t e = 0; e < g->edge_count; e++) {
        fg_pass *from = &g->passes[g->edges[e].from], *to = &g->passes[g->edges[e].to];
        g->out_edges[from->out_start + from->out_count++] = e;
        g->in_edges[to->in_start + to->in_count++] = e;
    }
}

/* Keeps the writers of exported resources and, through data edges, every pass they need. */
static void cull(kiln_frame_graph *g) {
    uint32_t *stack = g->pass_scratch, top = 0;
    for (uint32_t p = 0; p < g->pass_count; p++) {
        g->passes[p].culled = true;
        g->passes[p].position = FG_NONE;
    }
    for (uint32_t a = 0; a < g->access_count; a++) {
        const fg_access *acc = &g->accesses[a];
        if (acc->write && g->resources[acc->resource].exported && g->passes[acc->pass].culled) {
            g->passes[acc->pass].culled = false;
            stack[top++] = acc->pass;
        }
    }
    while (top) {
        const fg_pass *pass = &g->passes[stack[--top]];
        for (uint32_t i = 0; i < pass->in_count; i++) {
            const fg_edge *e = &g->edges[g->in_edges[pass->in_start + i]];
            if (e->data && g->passes[e->from].culled) {
                g->passes[e->from].culled = false;
                stack[top++] = e->from;
            }
        }
    }
    g->culled_count = 0;
    for (uint32_t p = 0; p < g->pass_count; p++) g->culled_count += g->passes[p].culled;
}

/* ---- compile: order ------------------------------------------------------------------------ */

/* A binary min-heap of pass indices: the ready pass declared first runs first. */
static void heap_push(uint32_t *heap, uint32_t *size, uint32_t pass) {
    uint32_t i = (*size)++;
    for (; i > 0 && heap[(i - 1) / 2] > pass; i = (i - 1) / 2) heap[i] = heap[(i - 1) / 2];
    heap[i] = pass;
}

static uint32_t heap_pop(uint32_t *heap, uint32_t *size) {
    uint32_t top = heap[0], last = heap[--*size], i = 0;
    for (;;) {
        uint32_t child = 2 * i + 1;
        if (child >= *size) break;
        if (child + 1 < *size && heap[child + 1] < heap[child]) child++;
        if (heap[child] >= last) break;
        heap[i] = heap[child];
        i = child;
    }
    if (*size) heap[i] = last;
    return top;
}

static bool waiting(const kiln_frame_graph *g, uint32_t p) {
    return !g->passes[p].culled && g->passes[p].position == FG_NONE;
}

/* A kept pass the sort could not place always has an unplaced kept predecessor: the first one. */
static uint32_t waiting_predecessor(const kiln_frame_graph *g, uint32_t p) {
    const fg_pass *pass = &g->passes[p];
    for (uint32_t i = 0; i < pass->in_count; i++) {
        uint32_t from = g->edges[g->in_edges[pass->in_start + i]].from;
        if (waiting(g, from)) return from;
    }
    return FG_NONE;
}

/* Walks predecessors from an unplaced pass until one repeats: that pass lies on a cycle. Names
 * the cycle's first-declared pass and the pass that depends on it along the cycle. */
static bool report_cycle(kiln_frame_graph *g, kiln_error *err) {
    uint32_t start = 0;
    while (!waiting(g, start)) start++;
    for (uint32_t p = 0; p < g->pass_count; p++) g->passes[p].on_walk = false;
    uint32_t on_cycle = start;
    while (on_cycle != FG_NONE && !g->passes[on_cycle].on_walk) {
        g->passes[on_cycle].on_walk = true;
        on_cycle = waiting_predecessor(g, on_cycle);
    }
    if (on_cycle == FG_NONE)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "frame graph: cycle through pass '%s'",
                              fg_name(g->passes[start].name));
    uint32_t lowest = on_cycle;
    for (uint32_t p = waiting_predecessor(g, on_cycle); p != on_cycle; p = waiting_predecessor(g, p))
        if (p < lowest) lowest = p;
    uint32_t next = on_cycle;
    while (waiting_predecessor(g, next) != lowest) next = waiting_predecessor(g, next);
    return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "frame graph: cycle between passes '%s' and '%s'",
                          fg_name(g->passes[lowest].name), fg_name(g->passes[next].name));
}

/* Kahn's algorithm over the kept passes. */
static bool sort_passes(kiln_frame_graph *g, kiln_error *err) {
    uint32_t *heap = g->pass_scratch, heap_size = 0, kept = 0;
    for (uint32_t p = 0; p < g->pass_count; p++) {
        fg_pass *pass = &g->passes[p];
        if (pass->culled) continue;
        kept++;
        pass->indegree = 0;
        for (uint32_t i = 0; i < pass->in_count; i++)
            pass->indegree += !g->passes[g->edges[g->in_edges[pass->in_start + i]].from].culled;
        if (!pass->indegree) heap_push(heap, &heap_size, p);
    }
    g->order_count = 0;
    while (heap_size) {
        uint32_t p = heap_pop(heap, &heap_size);
        fg_pass *pass = &g->passes[p];
        pass->position = g->order_count;
        g->order[g->order_count++] = p;
        for (uint32_t i = 0; i < pass->out_count; i++) {
            uint32_t to = g->edges[g->out_edges[pass->out_start + i]].to;
            if (!g->passes[to].culled && --g->passes[to].indegree == 0) heap_push(heap, &heap_size, to);
        }
    }
    if (g->order_count < kept) return report_cycle(g, err);
    return true;
}

/* ---- compile: lifetimes ------------------------------------------------------------------ */

static bool check_transient(const fg_resource *r, kiln_error *err) {
    if (!r->desc.width || !r->desc.height)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "frame graph: transient '%s' has size %ux%u",
                              fg_name(r->name), r->desc.width, r->desc.height);
    if (r->desc.format == WGPUTextureFormat_Undefined)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "frame graph: transient '%s' has no format",
                              fg_name(r->name));
    return true;
}

/* [first, last] over the positions of executed passes using each resource; exported resources
 * last to the end of the frame. */
static bool compute_lifetimes(kiln_frame_graph *g, kiln_error *err) {
    for (uint32_t r = 1; r < g->resource_count; r++) {
        fg_resource *res = &g->resources[r];
        const uint32_t *seg = g->sorted_accesses + res->access_start;
        bool written = false;
        uint32_t first_reader = FG_NONE;
        res->first = res->last = res->physical = FG_NONE;
        for (uint32_t i = 0; i < res->access_count; i++) {
            const fg_access *acc = &g->accesses[seg[i]];
            written |= acc->write;
            const fg_pass *pass = &g->passes[acc->pass];
            if (pass->culled) continue;
            if (!acc->write && first_reader == FG_NONE) first_reader = acc->pass;
            if (res->first == FG_NONE || pass->position < res->first) res->first = pass->position;
            if (res->last == FG_NONE || pass->position > res->last) res->last = pass->position;
        }
        if (res->kind != FG_TRANSIENT || res->first == FG_NONE) continue;
        if (!written)
            return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                                  "frame graph: pass '%s' reads transient '%s', which no pass writes",
                                  fg_name(g->passes[first_reader].name), fg_name(res->name));
        if (!check_transient(res, err)) return false;
    }
    for (uint32_t r = 1; r < g->resource_count; r++) {
        fg_resource *res = &g->resources[r];
        if (res->exported && res->first != FG_NONE) res->last = g->order_count - 1;
    }
    return true;
}

bool kiln_frame_graph_compile(kiln_frame_graph *g, kiln_error *err) {
    g->compiled = false;
    g->order_count = 0;
    g->culled_count = 0;
    g->physical_used = 0;
    if (!report_mistake(g, err)) return false;
    sort_accesses(g);
    build_edges(g);
    link_edges(g);
    cull(g);
    if (!sort_passes(g, err) || !compute_lifetimes(g, err) || !fg_assign_textures(g, err)) {
        g->order_count = 0;
        g->culled_count = 0;
        g->physical_used = 0;
        return false;
    }
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

bool kiln_frame_graph_lifetime(const kiln_frame_graph *g, kiln_fg_resource resource, uint32_t *first,
                               uint32_t *last) {
    bool used = g->compiled && valid_resource(g, resource) && g->resources[resource.index].first != FG_NONE;
    if (first) *first = used ? g->resources[resource.index].first : FG_NONE;
    if (last) *last = used ? g->resources[resource.index].last : FG_NONE;
    return used;
}

/* The resource behind a handle if it has a texture this frame; otherwise NULL and why. */
static const fg_resource *texture_resource(const kiln_frame_graph *g, kiln_fg_resource resource, kiln_error *err) {
    if (!valid_resource(g, resource)) {
        kiln_error_set(err, KILN_ERR_INVALID_HANDLE, "frame graph: invalid resource (index %u)", resource.index);
        return NULL;
    }
    const fg_resource *r = &g->resources[resource.index];
    if (!g->compiled) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "frame graph: '%s' was asked for before the graph was compiled",
                       fg_name(r->name));
        return NULL;
    }
    if (r->kind == FG_EXTERNAL) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "frame graph: '%s' is an external resource and has no texture",
                       fg_name(r->name));
        return NULL;
    }
    if (r->kind == FG_TRANSIENT && r->physical == FG_NONE) {
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
    return r->kind == FG_IMPORTED ? r->imported_view : g->physical[r->physical].raw_view;
}

WGPUTexture kiln_frame_graph_texture_of(const kiln_frame_graph *g, kiln_fg_resource resource, kiln_error *err) {
    const fg_resource *r = texture_resource(g, resource, err);
    if (!r) return NULL;
    if (r->kind == FG_TRANSIENT) return g->physical[r->physical].raw_texture;
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
    return g->physical[r->physical].view;
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
