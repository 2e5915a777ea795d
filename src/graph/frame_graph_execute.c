/* Executing a compiled frame graph: each executed pass, in order, begun with the attachments the
 * graph derived (or as a compute pass), recorded by its own function, ended, and checked for the
 * first error of its recording. */
#include "frame_graph_internal.h"

/* Turns the derived attachment operations into gfx attachments. */
static void begin_attachments(const kiln_frame_graph *g, const fg_pass *pass, kiln_color_attachment *colors,
                              uint32_t *color_count, kiln_depth_attachment *depth, bool *has_depth) {
    *color_count = 0;
    *has_depth = false;
    for (uint32_t i = 0; i < pass->attachment_count; i++) {
        const fg_attachment *a = &g->attachments[g->sorted_attachments[pass->attachment_start + i]];
        const fg_resource *r = &g->resources[a->resource];
        WGPUTextureView view = r->kind == FG_IMPORTED ? r->imported_view : fg_resource_view(g, r).raw_view;
        if (a->depth) {
            *depth = (kiln_depth_attachment){.view = view, .load = a->load, .clear = a->clear_depth,
                                             .read_only = a->read_only, .discard = a->store == WGPUStoreOp_Discard};
            *has_depth = true;
            continue;
        }
        kiln_color_attachment *c = &colors[(*color_count)++];
        *c = (kiln_color_attachment){.view = view, .load = a->load, .clear = a->clear_color,
                                     .discard = a->store == WGPUStoreOp_Discard};
        if (a->resolve) {
            c->resolve_target = fg_resource_view(g, &g->resources[a->resolve]).raw_view;
            c->keep_samples = a->store == WGPUStoreOp_Store;
            c->discard = false; /* with a resolve target, keep_samples says what happens to the samples */
        }
    }
}

/* Reports the first failure of a pass: the gfx pass's sticky error, else the record function's own. */
static bool pass_succeeded(const kiln_fg_context *ctx, const kiln_error *sticky, bool failed, kiln_error *err) {
    if (failed) return kiln_error_set(err, sticky->code, "frame graph: pass '%s': %s", fg_name(ctx->name), sticky->message);
    if (ctx->error.code)
        return kiln_error_set(err, ctx->error.code, "frame graph: pass '%s': %s", fg_name(ctx->name), ctx->error.message);
    return true;
}

static bool execute_pass(kiln_frame_graph *g, uint32_t p, kiln_encoder *enc, kiln_error *err) {
    const fg_pass *pass = &g->passes[p];
    kiln_fg_context ctx = {.graph = g, .pass = p, .name = pass->name, .encoder = enc};
    kiln_error begin_err = {0};
    if (pass->compute) {
        kiln_compute_pass cp;
        if (!kiln_encoder_begin_compute_pass_timed(enc, pass->name, pass->timed ? &pass->timestamps : NULL, &cp,
                                                   &begin_err))
            return kiln_error_set(err, begin_err.code, "frame graph: pass '%s': %s", fg_name(pass->name), begin_err.message);
        ctx.compute = &cp;
        if (pass->record) pass->record(&ctx, pass->user);
        kiln_compute_pass_end(&cp);
        return pass_succeeded(&ctx, &cp.error, cp.failed, err);
    }
    if (pass->attachment_count == 0)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "frame graph: pass '%s' is a render pass without attachments", fg_name(pass->name));
    kiln_color_attachment colors[KILN_MAX_COLOR_ATTACHMENTS];
    kiln_depth_attachment depth;
    uint32_t color_count;
    bool has_depth;
    begin_attachments(g, pass, colors, &color_count, &depth, &has_depth);
    kiln_render_pass rp;
    if (!kiln_encoder_begin_render_pass_timed(enc, pass->name, colors, color_count, has_depth ? &depth : NULL,
                                              pass->timed ? &pass->timestamps : NULL, &rp, &begin_err))
        return kiln_error_set(err, begin_err.code, "frame graph: pass '%s': %s", fg_name(pass->name), begin_err.message);
    ctx.render = &rp;
    if (pass->record) pass->record(&ctx, pass->user);
    kiln_render_pass_end(&rp);
    return pass_succeeded(&ctx, &rp.error, rp.failed, err);
}

bool kiln_frame_graph_execute_range(kiln_frame_graph *g, kiln_encoder *enc, uint32_t first, uint32_t count,
                                    kiln_error *err) {
    if (!g->compiled)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "frame graph: execute before a successful compile");
    uint32_t end = first < g->order_count && count < g->order_count - first ? first + count : g->order_count;
    for (uint32_t i = first; i < end; i++)
        if (!execute_pass(g, g->order[i], enc, err)) return false;
    return true;
}

bool kiln_frame_graph_execute(kiln_frame_graph *g, kiln_encoder *enc, kiln_error *err) {
    return kiln_frame_graph_execute_range(g, enc, 0, UINT32_MAX, err);
}

/* ---- what record functions ask for --------------------------------------------------------- */

WGPUTextureView kiln_fg_context_view(kiln_fg_context *ctx, kiln_fg_resource resource) {
    return kiln_frame_graph_view_of(ctx->graph, resource, &ctx->error);
}

kiln_texture_view kiln_fg_context_view_handle(kiln_fg_context *ctx, kiln_fg_resource resource) {
    return kiln_frame_graph_view_handle(ctx->graph, resource, &ctx->error);
}

kiln_buffer kiln_fg_context_buffer(kiln_fg_context *ctx, kiln_fg_resource resource) {
    const kiln_frame_graph *g = ctx->graph;
    if (!fg_valid_resource(g, resource) || g->resources[resource.index].kind != FG_BUFFER) {
        kiln_error_set(&ctx->error, KILN_ERR_INVALID_ARGUMENT, "resource %u is not a buffer", resource.index);
        return (kiln_buffer){0};
    }
    return g->resources[resource.index].buffer;
}
