/* Frame graph compile, up to the assignment of textures: declaration mistakes, the accesses
 * compile derives (sub-resources, resolve targets), dependency edges, culling, the execution
 * order and lifetimes; and, after textures are assigned, each attachment's load, store and
 * resolve. */
#include "frame_graph_internal.h"

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
        if (fg_valid_resource(g, (kiln_fg_resource){m->resource}))
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
    case FG_MISTAKE_ATTACH_NOT_TEXTURE:
        if (g->passes[m->pass].compute)
            return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                                  "frame graph: compute pass '%s' attaches '%s' (only render passes have attachments)",
                                  fg_name(g->passes[m->pass].name), fg_name(g->resources[m->resource].name));
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "frame graph: pass '%s' attaches buffer '%s'",
                              fg_name(g->passes[m->pass].name), fg_name(g->resources[m->resource].name));
    case FG_MISTAKE_TOO_MANY_COLORS:
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "frame graph: pass '%s' attaches '%s' past its %d colour attachments",
                              fg_name(g->passes[m->pass].name), fg_name(g->resources[m->resource].name),
                              KILN_MAX_COLOR_ATTACHMENTS);
    case FG_MISTAKE_TWO_DEPTHS:
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "frame graph: pass '%s' attaches '%s' as a second depth attachment",
                              fg_name(g->passes[m->pass].name), fg_name(g->resources[m->resource].name));
    case FG_MISTAKE_SUBRESOURCE_OF:
        if (fg_valid_resource(g, (kiln_fg_resource){m->resource}))
            return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                                  "frame graph: sub-resource of '%s', which is not a transient texture",
                                  fg_name(g->resources[m->resource].name));
        return kiln_error_set(err, KILN_ERR_INVALID_HANDLE, "frame graph: sub-resource of an invalid resource (index %u)",
                              m->resource);
    case FG_MISTAKE_SUBRESOURCE_MIP:
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "frame graph: mip %u of '%s', which has %u", m->value,
                              fg_name(g->resources[m->resource].name), g->resources[m->resource].desc.mip_levels);
    case FG_MISTAKE_SUBRESOURCE_LAYER:
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "frame graph: layer %u of '%s', which has %u", m->value,
                              fg_name(g->resources[m->resource].name), g->resources[m->resource].desc.layers);
    case FG_MISTAKE_RESOLVE_OF:
        if (fg_valid_resource(g, (kiln_fg_resource){m->resource}))
            return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                                  "frame graph: resolve target of '%s', which is not a multisampled transient",
                                  fg_name(g->resources[m->resource].name));
        return kiln_error_set(err, KILN_ERR_INVALID_HANDLE,
                              "frame graph: resolve target of an invalid resource (index %u)", m->resource);
    }
    return true;
}

/* ---- compile: derived accesses ------------------------------------------------------------- */

static bool add_derived(kiln_frame_graph *g, uint32_t pass, uint32_t resource, bool write) {
    if (!fg_reserve_accesses(g, g->access_count + 1)) return false;
    g->accesses[g->access_count++] = (fg_access){.pass = pass, .resource = resource, .write = write, .derived = true};
    return true;
}

/* The accesses a declared one implies: a read of a texture that has sub-resources is a read of
 * each of them (so its reader waits for every part's writer and keeps it); a write of such a
 * texture is a write of each of them; a write of a multisampled transient is a possible write
 * (by resolving) of its resolve targets. A write of a sub-resource is not mirrored as a write of
 * the whole: that would chain the writers of different parts in declaration order, which is a
 * false dependency between independent mips or layers. Derived accesses from the last compile are
 * dropped first, so compiling twice gives the same graph. */
static bool derive_accesses(kiln_frame_graph *g, kiln_error *err) {
    g->access_count = g->declared_access_count;
    for (uint32_t a = 0; a < g->declared_access_count; a++) {
        fg_access acc = g->accesses[a];
        const fg_resource *r = &g->resources[acc.resource];
        bool ok = true;
        for (uint32_t part = r->first_part; ok && part; part = g->resources[part].next_part)
            ok = add_derived(g, acc.pass, part, acc.write);
        if (ok && acc.write && r->resolve_target) ok = add_derived(g, acc.pass, r->resolve_target, true);
        if (!ok) return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "frame graph: out of memory while compiling");
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

/* Groups attachment indices by pass, keeping declaration order within a pass (counting sort). */
static void group_attachments(kiln_frame_graph *g) {
    for (uint32_t p = 0; p < g->pass_count; p++) g->passes[p].attachment_count = 0;
    for (uint32_t i = 0; i < g->attachment_count; i++) g->passes[g->attachments[i].pass].attachment_count++;
    uint32_t start = 0;
    for (uint32_t p = 0; p < g->pass_count; p++) {
        g->passes[p].attachment_start = start;
        start += g->passes[p].attachment_count;
        g->passes[p].attachment_count = 0;
    }
    /* Colours first, then the depth attachment, as a render pass descriptor lists them. */
    for (int depth = 0; depth < 2; depth++)
        for (uint32_t i = 0; i < g->attachment_count; i++) {
            if (g->attachments[i].depth != (depth == 1)) continue;
            fg_pass *p = &g->passes[g->attachments[i].pass];
            g->sorted_attachments[p->attachment_start + p->attachment_count++] = i;
        }
}

/* The writer a reader of resolve target `target` depends on resolves into it: its colour attachment
 * of the multisampled transient gets the target. */
static void mark_resolve(kiln_frame_graph *g, uint32_t writer, uint32_t target) {
    const fg_pass *pass = &g->passes[writer];
    for (uint32_t i = 0; i < pass->attachment_count; i++) {
        fg_attachment *a = &g->attachments[g->sorted_attachments[pass->attachment_start + i]];
        if (!a->depth && a->resource == g->resources[target].resolve_of) a->resolve = target;
    }
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
                if (source != FG_NONE && g->resources[r].resolve_of) mark_resolve(g, source, r);
                readers[reader_count++] = pass;
            }
        }
        /* An exported resolve target is read after the frame: its last writer resolves into it. */
        if (g->resources[r].resolve_of && g->resources[r].exported && previous_writer != FG_NONE)
            mark_resolve(g, previous_writer, r);
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

/* Keeps the writers of exported resources (and of the parts of exported textures) and, through
 * data edges, every pass they need. */
static void cull(kiln_frame_graph *g) {
    uint32_t *stack = g->pass_scratch, top = 0;
    for (uint32_t p = 0; p < g->pass_count; p++) {
        g->passes[p].culled = true;
        g->passes[p].position = FG_NONE;
    }
    for (uint32_t a = 0; a < g->access_count; a++) {
        const fg_access *acc = &g->accesses[a];
        const fg_resource *res = &g->resources[acc->resource];
        bool exported = res->exported || (res->kind == FG_SUBRESOURCE && g->resources[res->parent].exported);
        if (acc->write && exported && g->passes[acc->pass].culled) {
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

/* Whether a pass writes one of the sub-resources of texture `r`. */
static bool part_written(const kiln_frame_graph *g, uint32_t r) {
    for (uint32_t part = g->resources[r].first_part; part; part = g->resources[part].next_part) {
        const fg_resource *p = &g->resources[part];
        const uint32_t *seg = g->sorted_accesses + p->access_start;
        for (uint32_t i = 0; i < p->access_count; i++)
            if (g->accesses[seg[i]].write && !g->accesses[seg[i]].derived) return true;
    }
    return false;
}

/* A resolve target lives from the first pass that resolves into it to its last reader, and not
 * at all when no kept pass reads it and it is not exported (its writes are only possible ones).
 * Returns whether it lives. */
static bool resolve_lifetime(kiln_frame_graph *g, uint32_t r) {
    fg_resource *res = &g->resources[r];
    if (res->last_declared == FG_NONE && !res->exported) {
        res->first = res->last = FG_NONE;
        return false;
    }
    uint32_t first = FG_NONE;
    for (uint32_t i = 0; i < g->attachment_count; i++) {
        const fg_attachment *a = &g->attachments[i];
        const fg_pass *pass = &g->passes[a->pass];
        if (a->resolve == r && !pass->culled && (first == FG_NONE || pass->position < first)) first = pass->position;
    }
    if (first != FG_NONE) res->first = first;
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
        res->first = res->last = res->last_declared = res->physical = res->view = FG_NONE;
        for (uint32_t i = 0; i < res->access_count; i++) {
            const fg_access *acc = &g->accesses[seg[i]];
            written |= acc->write;
            const fg_pass *pass = &g->passes[acc->pass];
            if (pass->culled) continue;
            if (!acc->write && !acc->derived && first_reader == FG_NONE) first_reader = acc->pass;
            if (res->first == FG_NONE || pass->position < res->first) res->first = pass->position;
            if (res->last == FG_NONE || pass->position > res->last) res->last = pass->position;
            if (!acc->derived && (res->last_declared == FG_NONE || pass->position > res->last_declared))
                res->last_declared = pass->position;
        }
        if (res->resolve_of && !resolve_lifetime(g, r)) continue;
        if ((res->kind != FG_TRANSIENT && res->kind != FG_SUBRESOURCE) || res->first == FG_NONE) continue;
        /* A part read only through its whole texture may be left unwritten: the whole is
         * checked. */
        if (!written && first_reader != FG_NONE && !part_written(g, r))
            return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                                  "frame graph: pass '%s' reads transient '%s', which no pass writes",
                                  fg_name(g->passes[first_reader].name), fg_name(res->name));
        if (!check_transient(res, err)) return false;
    }
    /* A texture lives while any of its parts does (before exports extend it, so a texture
     * used only through its parts lasts to the end of the frame too). */
    for (uint32_t r = 1; r < g->resource_count; r++) {
        const fg_resource *part = &g->resources[r];
        if (part->kind != FG_SUBRESOURCE || part->first == FG_NONE) continue;
        fg_resource *whole = &g->resources[part->parent];
        if (whole->first == FG_NONE || part->first < whole->first) whole->first = part->first;
        if (whole->last == FG_NONE || part->last > whole->last) whole->last = part->last;
    }
    for (uint32_t r = 1; r < g->resource_count; r++) {
        fg_resource *res = &g->resources[r];
        if (res->exported && res->first != FG_NONE) res->last = g->order_count - 1;
    }
    return true;
}

bool fg_compile_order(kiln_frame_graph *g, kiln_error *err) {
    if (!report_mistake(g, err) || !derive_accesses(g, err)) return false;
    for (uint32_t i = 0; i < g->attachment_count; i++) g->attachments[i].resolve = 0;
    group_attachments(g);
    sort_accesses(g);
    build_edges(g);
    link_edges(g);
    cull(g);
    return sort_passes(g, err) && compute_lifetimes(g, err);
}

/* ---- attachment operations ----------------------------------------------------------------- */

/* Whether anything after order position `pos` needs the contents of `r`. */
static bool needed_after(const kiln_frame_graph *g, const fg_resource *r, uint32_t pos) {
    if (r->kind == FG_IMPORTED || r->exported || r->last > pos) return true;
    if (r->kind != FG_SUBRESOURCE) return false;
    const fg_resource *whole = &g->resources[r->parent];
    return whole->exported || (whole->last_declared != FG_NONE && whole->last_declared > pos);
}

void fg_derive_attachments(kiln_frame_graph *g) {
    for (uint32_t i = 0; i < g->attachment_count; i++) {
        fg_attachment *a = &g->attachments[i];
        const fg_pass *pass = &g->passes[a->pass];
        if (pass->culled) continue;
        const fg_resource *r = &g->resources[a->resource];
        if (a->resolve && g->resources[a->resolve].physical == FG_NONE) a->resolve = 0;
        if (a->read_only) {
            a->load = WGPULoadOp_Undefined;
            a->store = WGPUStoreOp_Undefined;
            continue;
        }
        a->load = a->stated_load != WGPULoadOp_Undefined ? a->stated_load
                : r->first == pass->position                ? WGPULoadOp_Clear
                                                            : WGPULoadOp_Load;
        a->store = needed_after(g, r, pass->position) ? WGPUStoreOp_Store : WGPUStoreOp_Discard;
    }
}

