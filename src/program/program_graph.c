/* A record call's dispatches as one frame graph frame: every iteration of every pass of every
 * queued dispatch is a graph render pass (p->record.steps[k] is graph pass k), so the graph
 * derives what the executor used to plan by hand:
 *   - each transient is a graph transient sized for its dispatch; a Four transient some pass reads
 *     also has a resolve target, which its readers read, so the last writer before each run of
 *     readers resolves (in its last iteration, the last graph pass to write it) and keeps its
 *     samples only when a later pass draws over them;
 *   - a binding a pass writes is imported once per dispatch, so the dispatch's first write to it
 *     clears it to transparent black and every later write loads, as the programs spec says;
 *   - transients land on pooled textures by lifetime, which spans the whole record call: a later
 *     dispatch reuses what an earlier one has finished with;
 *   - each depth slot some pass attaches is a Depth32Float graph transient of its own, exported so
 *     no two slots ever share a texture within the record call; the dispatch's first pass naming
 *     it clears it to the far plane and later ones load it, which is the graph's derived load;
 *   - a draw pass states its colour load (Clear on its first iteration, or Load), overriding the
 *     derived one.
 * Every step also writes one exported ordering buffer. That keeps every pass (the spec runs each
 * pass of the sequence, whether or not a later one reads it, and times it) and chains the steps
 * in declaration order, which is also the execution order: the registry textures a dispatch reads
 * (possibly written by an earlier dispatch) are bound directly, not declared, and rely on it. */
#include "program_internal.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static uint32_t queued_steps(const kiln_programs *p) {
    uint32_t total = 0;
    for (uint32_t d = 0; d < p->queue.count; d++) {
        const program *prog = programs_lookup(p, p->queue.items[d].program_id);
        for (uint32_t i = 0; prog && i < prog->pass_count; i++) total += prog->passes[i].iterations;
    }
    return total;
}

static bool transient_read(const program *prog, uint32_t t) {
    for (uint32_t i = 0; i < prog->pass_count; i++)
        for (uint32_t n = 0; n < prog->passes[i].spec.input_count; n++) {
            program_slot s = prog->passes[i].inputs[n].slot;
            if (s.kind == PROGRAM_SLOT_TRANSIENT && s.index == t) return true;
        }
    return false;
}

/* A One depth slot may be read as well as attached; a Four one is an attachment only. */
static void declare_depths(kiln_programs *p, program *prog, const program_dispatch *d) {
    for (uint32_t t = 0; t < prog->depth_count; t++) {
        prog->depth_res[t] = (kiln_fg_resource){0};
        if (!prog->depth_named[t]) continue; /* a slot no pass attaches allocates nothing */
        const kiln_depth_spec *spec = &prog->depths[t];
        bool four = spec->samples == KILN_SAMPLES_FOUR;
        kiln_fg_texture_desc desc = {.format = WGPUTextureFormat_Depth32Float, .sample_count = four ? 4 : 1,
                                     .usage = four ? WGPUTextureUsage_RenderAttachment : 0};
        program_depth_extent(spec, d->reference_width, d->reference_height, &desc.width, &desc.height, NULL);
        prog->depth_res[t] = kiln_frame_graph_create_transient(p->graph, four ? "program depth (4 samples)"
                                                                              : "program depth", &desc);
        kiln_frame_graph_export(p->graph, prog->depth_res[t]);
    }
}

/* A Four transient is only attached (readers bind its resolve target, a One texture). */
static void declare_transients(kiln_programs *p, program *prog, const program_dispatch *d) {
    for (uint32_t t = 0; t < prog->transient_count; t++) {
        const kiln_transient_spec *spec = &prog->transients[t];
        bool four = spec->samples == KILN_SAMPLES_FOUR;
        kiln_fg_texture_desc desc = {
            .format = kiln_texture_format_wgpu(spec->format), .sample_count = four ? 4 : 1,
            .usage = four ? WGPUTextureUsage_RenderAttachment : 0,
        };
        program_resolve_extent(spec->extent, d->reference_width, d->reference_height, &desc.width, &desc.height, NULL);
        prog->transient_res[t] = kiln_frame_graph_create_transient(p->graph, four ? "program transient (4 samples)"
                                                                                 : "program transient", &desc);
        prog->resolve_res[t] = four && transient_read(prog, t)
                                   ? kiln_frame_graph_create_resolve_target(p->graph, "program transient",
                                                                            prog->transient_res[t])
                                   : (kiln_fg_resource){0};
    }
}

/* What a pass attaches: a transient's texture, or a binding's registry view imported at the
 * dispatch's first write to it. NULL resource index with err filled when the view cannot be had. */
static kiln_fg_resource output_resource(kiln_programs *p, program *prog, const program_pass *pass, const uint32_t *ids,
                                        kiln_error *err) {
    if (pass->output.kind == PROGRAM_SLOT_TRANSIENT) return prog->transient_res[pass->output.index];
    kiln_fg_resource *res = &prog->binding_res[pass->output.index];
    if (res->index) return *res;
    WGPUTextureView view = kiln_texture_registry_gpu_view(p->textures, ids[pass->output.index], err);
    if (!view) return (kiln_fg_resource){0};
    *res = kiln_frame_graph_import_view(p->graph, "program output", view, NULL, NULL);
    kiln_frame_graph_export(p->graph, *res);
    return *res;
}

/* The resource an input reads, for the graph's ordering and lifetimes; index 0 for a binding. */
static kiln_fg_resource input_resource(const program *prog, const program_input *in) {
    if (in->slot.kind == PROGRAM_SLOT_DEPTH) return prog->depth_res[in->slot.index];
    if (in->slot.kind != PROGRAM_SLOT_TRANSIENT) return (kiln_fg_resource){0};
    uint32_t t = in->slot.index;
    return prog->resolve_res[t].index ? prog->resolve_res[t] : prog->transient_res[t];
}

static void record_step(kiln_fg_context *ctx, void *user);

/* The dispatch's program buffers, each its own, zeroed (program_buffers.c). */
static bool take_buffers(kiln_programs *p, const program *prog, program_span *span) {
    span->buffers_at = p->record.dispatch_buffer_count;
    if (!prog->buffer_count) return true;
    kiln_buffer *grown = kiln_array_reserve(p->record.dispatch_buffers, &p->record.dispatch_buffer_capacity,
                                            p->record.dispatch_buffer_count + prog->buffer_count, sizeof *grown);
    if (!grown) return kiln_error_set(&span->error, KILN_ERR_OUT_OF_MEMORY, "out of memory for program buffers");
    p->record.dispatch_buffers = grown;
    for (uint32_t b = 0; b < prog->buffer_count; b++) {
        kiln_error why = {0};
        kiln_buffer buffer = program_buffer_take(p, prog->buffers[b].size, &why);
        if (!buffer.id) return kiln_error_set(&span->error, why.code, "buffer %u: %s", b, why.message);
        p->record.dispatch_buffers[p->record.dispatch_buffer_count++] = buffer;
    }
    return true;
}

/* Declares one dispatch's steps; a pass whose output cannot be viewed ends them there (the passes
 * before it still run), with the failure kept in the span. */
static void declare_dispatch(kiln_programs *p, program *prog, uint32_t d, size_t uniform_at) {
    const program_dispatch *dispatch = &p->queue.items[d];
    const uint32_t *ids = p->queue.ids + dispatch->ids_at;
    program_span *span = &p->record.spans[d];
    *span = (program_span){.first = p->record.step_count};
    declare_transients(p, prog, dispatch);
    declare_depths(p, prog, dispatch);
    char name[PROGRAM_NAME_MAX];
    if (!take_buffers(p, prog, span)) {
        span->failed = true;
        kiln_error why = span->error;
        kiln_error_set(&span->error, why.code, "%s: %s", program_name(prog, name, sizeof name), why.message);
        return;
    }
    for (uint32_t b = 0; b < prog->binding_count; b++) prog->binding_res[b] = (kiln_fg_resource){0};
    for (uint32_t i = 0; i < prog->pass_count; i++) {
        program_pass *pass = &prog->passes[i];
        kiln_error e = {0};
        kiln_fg_resource out = pass->colourless ? (kiln_fg_resource){0} : output_resource(p, prog, pass, ids, &e);
        if (!pass->colourless && !out.index) {
            span->failed = true;
            kiln_error_set(&span->error, e.code, "%s: pass %u (%s): %s", program_name(prog, name, sizeof name), i,
                           pass->entry, e.message);
            return;
        }
        for (uint32_t it = 0; it < pass->iterations; it++) {
            uint32_t g = pass->compute ? kiln_frame_graph_add_compute_pass(p->graph, pass->entry, record_step, p)
                                       : kiln_frame_graph_add_pass(p->graph, pass->entry, record_step, p);
            kiln_frame_graph_write(p->graph, g, p->record.order);
            if (pass->compute) {
                /* no attachment: the pass writes program buffers */
            } else if (!pass->draw) {
                kiln_frame_graph_color(p->graph, g, out, (WGPUColor){0, 0, 0, 0});
            } else if (!pass->depth_only) {
                bool clears = pass->load == KILN_LOAD_CLEAR && it == 0;
                kiln_frame_graph_color_load(p->graph, g, out, (WGPUColor){0, 0, 0, 0},
                                            clears ? WGPULoadOp_Clear : WGPULoadOp_Load);
            }
            /* A TestOnly pass attaches its slot writable all the same: when it is the first to name the
             * slot it clears it (its pipeline writes no depth). */
            if (pass->depth)
                kiln_frame_graph_depth(p->graph, g, prog->depth_res[pass->depth_slot], PROGRAM_DEPTH_CLEAR,
                                       false);
            for (uint32_t n = 0; n < pass->spec.input_count; n++) {
                kiln_fg_resource in = input_resource(prog, &pass->inputs[n]);
                if (in.index) kiln_frame_graph_read(p->graph, g, in);
            }
            p->record.steps[p->record.step_count++] = (program_step){.prog = prog, .pass = i, .iteration = it, .dispatch = d,
                                                       .uniform_offset = (uint32_t)uniform_at};
            uniform_at += pass->uniform_slot_size;
            span->count++;
        }
    }
}

bool program_graph_declare(kiln_programs *p, size_t uniform_at, kiln_error *err) {
    program_step *steps = kiln_array_reserve(p->record.steps, &p->record.step_capacity, queued_steps(p), sizeof *steps);
    program_span *spans = steps ? kiln_array_reserve(p->record.spans, &p->record.span_capacity, p->queue.count, sizeof *spans) : NULL;
    if (steps) p->record.steps = steps;
    if (spans) p->record.spans = spans;
    if (!steps || !spans) return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "programs: out of memory declaring passes");
    kiln_frame_graph_reset(p->graph);
    program_buffer_pool_trim(p);
    p->record.order = kiln_frame_graph_import_buffer(p->graph, "program order", (kiln_buffer){0});
    kiln_frame_graph_export(p->graph, p->record.order);
    for (uint32_t d = 0; d < p->queue.count; d++) {
        program *prog = programs_lookup(p, p->queue.items[d].program_id);
        if (prog) declare_dispatch(p, prog, d, uniform_at);
        else p->record.spans[d] = (program_span){.first = p->record.step_count};
        if (prog) uniform_at += prog->uniform_bytes;
    }
    return true;
}

static WGPUTexture transient_texture(const kiln_programs *p, kiln_fg_resource r) {
    kiln_error unused = {0}; /* a transient no pass used has no texture, and counts for none */
    return r.index ? kiln_frame_graph_texture_of(p->graph, r, &unused) : NULL;
}

/* Resource 2t is transient t's texture, 2t + 1 its resolve target. */
static WGPUTexture nth_texture(const kiln_programs *p, const program *prog, uint32_t k) {
    return transient_texture(p, k % 2 ? prog->resolve_res[k / 2] : prog->transient_res[k / 2]);
}

uint32_t program_graph_dispatch_textures(const kiln_programs *p, const program *prog) {
    uint32_t count = 0;
    for (uint32_t k = 0; k < 2 * prog->transient_count; k++) {
        WGPUTexture tex = nth_texture(p, prog, k);
        bool counted = !tex;
        for (uint32_t j = 0; j < k && !counted; j++) counted = nth_texture(p, prog, j) == tex;
        count += !counted;
    }
    return count;
}

/* ---- recording a step ---------------------------------------------------------------------------- */

/* The view and sampler input n binds: a binding's registry texture (uploaded if its CPU copy
 * changed) under a sampler for its declared wrap and mips, read linear when its format filters and
 * it was created Linear; a transient's pooled texture (a Four one's resolve target), clamped at
 * the base level, linear when its format filters. */
static bool input_resources(kiln_programs *p, kiln_fg_context *ctx, const program *prog, const program_pass *pass,
                            const uint32_t *ids, uint32_t n, kiln_texture_view *view, kiln_sampler *sampler,
                            kiln_error *err) {
    const program_input *in = &pass->inputs[n];
    if (in->slot.kind == PROGRAM_SLOT_DEPTH) {
        *view = kiln_frame_graph_view_handle(ctx->graph, input_resource(prog, in), err);
        *sampler = in->compare ? p->depth_compare : (kiln_sampler){0};
        return view->id != 0;
    }
    kiln_texture_format format = program_slot_format(prog, in->slot);
    bool linear = kiln_texture_format_filterable(format);
    if (in->slot.kind == PROGRAM_SLOT_BINDING) {
        uint32_t id = ids[in->slot.index];
        *view = kiln_texture_registry_view_handle(p->textures, id, err); /* uploads on first use */
        if (!view->id) return false;
        const kiln_texture_info *info = kiln_texture_registry_info(p->textures, id);
        linear = linear && info && info->sampling == KILN_SAMPLING_LINEAR;
    } else {
        *view = kiln_frame_graph_view_handle(ctx->graph, input_resource(prog, in), err);
        if (!view->id) return false;
    }
    *sampler = in->texel ? (kiln_sampler){0} : p->samplers[in->wrap][in->mips][linear];
    return true;
}

/* The pass's input bind group, from its cache by the handles it binds. */
static bool input_group(kiln_programs *p, kiln_fg_context *ctx, program *prog, program_pass *pass, const uint32_t *ids,
                        kiln_error *err) {
    kiln_binding_resource entries[2 * KILN_PROGRAM_MAX_INPUTS];
    uint32_t count = 0;
    for (uint32_t n = 0; n < pass->spec.input_count; n++) {
        kiln_texture_view view;
        kiln_sampler sampler;
        if (!input_resources(p, ctx, prog, pass, ids, n, &view, &sampler, err)) return false;
        entries[count++] = (kiln_binding_resource){.binding = 2 * n, .view = view};
        if (sampler.id) entries[count++] = (kiln_binding_resource){.binding = 2 * n + 1, .sampler = sampler};
    }
    pass->input_group = kiln_bind_group_cache_get(pass->input_groups, "program inputs", pass->group1_layout, entries, count,
                                             err);
    return pass->input_group.id != 0;
}

/* The pass's uniform bind group: the ring at its bound size under its layout, shared by every
 * pass of that layout (the layout fixes the size). */
static bool uniform_group(kiln_programs *p, program_pass *pass, kiln_error *err) {
    kiln_binding_resource entry = {.binding = 0, .buffer = p->uniforms.buffer, .size = pass->uniform_bind_size};
    pass->group0 = kiln_bind_group_cache_get(p->uniform_groups, "program uniforms", pass->group0_layout, &entry, 1, err);
    return pass->group0.id != 0;
}

/* Keeps a step's failure, named by the step, for the executor's message; the pass's error scope
 * closes with it (the step's own failure is the one reported). */
static void step_failed(kiln_programs *p, uint32_t k, const kiln_error *why) {
    p->record.failed_step = k;
    p->record.step_error = *why;
    program_close_pass_scope(p, NULL);
}

/* Every draw of every set of the pass's list, sets in list order, each set's draws in order,
 * nothing sorted; the geometry and instance buffers bind only when they change, and zero counts
 * are skipped. The sets were checked live, and their buffers realized, before the dispatch began
 * recording. */
static void record_sets(kiln_programs *p, kiln_render_pass *rp, const program_pass *pass, const program_dispatch *d) {
    const uint32_t *starts = p->queue.list_starts + d->lists_at;
    uint32_t list = pass->spec.draw_sets.list;
    uint32_t bound_geometry = 0, bound_instances = 0;
    for (uint32_t k = starts[list]; k < starts[list + 1] && !rp->failed; k++) {
        const program_draw_set *set = program_draw_set_lookup(p, p->queue.set_ids[k]);
        for (uint32_t n = 0; n < set->count; n++) {
            const kiln_draw *draw = &set->draws[n];
            if (!draw->index_count || !draw->instance_count) continue;
            if (draw->geometry_id != bound_geometry) {
                const program_geometry *g = program_geometry_held(p, draw->geometry_id);
                kiln_render_pass_set_vertex_buffer(rp, 0, g->vertex_buffer, 0, NULL);
                kiln_render_pass_set_index_buffer(rp, g->index_buffer, WGPUIndexFormat_Uint32, 0, NULL);
                bound_geometry = draw->geometry_id;
            }
            if (draw->instances_id != bound_instances) {
                kiln_render_pass_set_vertex_buffer(rp, 1, program_instances_held(p, draw->instances_id)->buffer, 0, NULL);
                bound_instances = draw->instances_id;
            }
            kiln_render_pass_draw_indexed(rp, draw->index_count, draw->instance_count, draw->index_first, 0,
                                          draw->instance_first);
        }
    }
}

/* The pass's buffer bind group: this dispatch's program buffers, one per buffer use. */
static bool buffer_group(kiln_programs *p, const program *prog, program_pass *pass, const program_span *span,
                         kiln_error *err) {
    kiln_binding_resource entries[KILN_PROGRAM_MAX_BUFFER_USES];
    for (uint32_t k = 0; k < pass->spec.buffer_count; k++) {
        uint32_t slot = pass->spec.buffers[k].index;
        entries[k] = (kiln_binding_resource){.binding = k, .buffer = p->record.dispatch_buffers[span->buffers_at + slot],
                                             .size = prog->buffers[slot].size};
    }
    pass->buffer_group = kiln_bind_group_cache_get(pass->buffer_groups, "program buffers", pass->group2_layout, entries,
                                                   pass->spec.buffer_count, err);
    return pass->buffer_group.id != 0;
}

/* A compute pass: its fixed workgroup counts, or enough workgroups to cover the reference extent
 * at the entry point's workgroup size (kept at register in spec.compute as the size when
 * from_output). */
static void record_compute(kiln_compute_pass *cp, const program_pass *pass, const program_dispatch *d,
                           uint32_t uniform_offset) {
    kiln_compute_pass_set_pipeline(cp, pass->compute_pipeline, NULL);
    kiln_compute_pass_set_bind_group(cp, 0, pass->group0, &uniform_offset, 1, NULL);
    if (pass->input_group.id) kiln_compute_pass_set_bind_group(cp, 1, pass->input_group, NULL, 0, NULL);
    if (pass->buffer_group.id) kiln_compute_pass_set_bind_group(cp, 2, pass->buffer_group, NULL, 0, NULL);
    const kiln_compute_spec *w = &pass->spec.compute;
    if (w->from_output)
        kiln_compute_pass_dispatch(cp, (d->reference_width + pass->workgroup[0] - 1) / pass->workgroup[0],
                                   (d->reference_height + pass->workgroup[1] - 1) / pass->workgroup[1], 1);
    else
        kiln_compute_pass_dispatch(cp, w->x, w->y, w->z);
}

/* No viewport is set: a render pass starts with the whole attachment as its viewport, and every
 * attachment of a pass is exactly the pass's resolved extent (a Target binding's size is checked
 * against it at dispatch, pooled transients and depth slots are made at it), so setting it again
 * would only cost a Dawn command per pass. */
static void record_render(kiln_programs *p, kiln_render_pass *rp, const program_pass *pass, const program_dispatch *d,
                          const program_span *span, uint32_t uniform_offset) {
    kiln_render_pass_set_pipeline(rp, pass->pipeline, NULL);
    kiln_render_pass_set_bind_group(rp, 0, pass->group0, &uniform_offset, 1, NULL);
    if (pass->input_group.id) kiln_render_pass_set_bind_group(rp, 1, pass->input_group, NULL, 0, NULL);
    if (pass->buffer_group.id) kiln_render_pass_set_bind_group(rp, 2, pass->buffer_group, NULL, 0, NULL);
    if (pass->sets) {
        record_sets(p, rp, pass, d);
    } else if (pass->draw) {
        /* Realized before the dispatch began recording (the executor's readiness check). */
        const program_geometry *g =
            program_geometry_lookup(p, p->queue.geometry_ids[d->geometries_at + pass->spec.draw.geometry]);
        kiln_render_pass_set_vertex_buffer(rp, 0, g->vertex_buffer, 0, NULL);
        kiln_render_pass_set_index_buffer(rp, g->index_buffer, WGPUIndexFormat_Uint32, 0, NULL);
        if (pass->indirect)
            kiln_render_pass_draw_indexed_indirect(rp, p->record.dispatch_buffers[span->buffers_at + pass->spec.draw.args_buffer],
                                                   pass->spec.draw.args_offset, NULL);
        else
            kiln_render_pass_draw_indexed(rp, g->index_count, 1, 0, 0, 0);
    } else {
        kiln_render_pass_draw(rp, 3, 1, 0, 0);
    }
}

/* One iteration: the first opens the pass's error scope and finds its bind groups, every one
 * records the pass's work with its own uniform slot, and the last closes the scope. */
static void record_step(kiln_fg_context *ctx, void *user) {
    kiln_programs *p = user;
    p->record.next_step = ctx->pass + 1;
    const program_step *step = &p->record.steps[ctx->pass];
    program *prog = step->prog;
    program_pass *pass = &prog->passes[step->pass];
    const program_dispatch *d = &p->queue.items[step->dispatch];
    const program_span *span = &p->record.spans[step->dispatch];
    kiln_error *err = &ctx->error;
    if (step->iteration == 0) {
        pass->record_start_ns = now_ns();
        program_scope_open(p);
        p->record.scope_step = ctx->pass;
        pass->input_group = (kiln_bind_group){0};
        pass->buffer_group = (kiln_bind_group){0};
        bool group1 = pass->spec.input_count || pass->spec.buffer_count;
        if (!uniform_group(p, pass, err) || (group1 && !input_group(p, ctx, prog, pass, p->queue.ids + d->ids_at, err)) ||
            (pass->spec.buffer_count && !buffer_group(p, prog, pass, span, err))) {
            step_failed(p, ctx->pass, err);
            return;
        }
        program_fault_fire(p, PROGRAM_FAULT_PASS, prog->id, step->pass);
    }
    bool failed;
    kiln_error *why;
    if (ctx->compute) {
        record_compute(ctx->compute, pass, d, step->uniform_offset);
        failed = ctx->compute->failed;
        why = &ctx->compute->error;
    } else {
        record_render(p, ctx->render, pass, d, span, step->uniform_offset);
        failed = ctx->render->failed;
        why = &ctx->render->error;
    }
    if (failed) {
        *err = *why;
        step_failed(p, ctx->pass, err);
        return;
    }
    if (step->iteration + 1 < pass->iterations) return;
    if (!program_close_pass_scope(p, err)) {
        p->record.failed_step = ctx->pass;
        p->record.step_error = *err;
        return;
    }
    pass->cpu_record_ns = now_ns() - pass->record_start_ns;
}
