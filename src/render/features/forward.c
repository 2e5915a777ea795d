/* Forward+ shading: opaque and masked geometry, then (after the sky) blended geometry back to
 * front, into the HDR target, testing against the prepass depth and reading the cluster lists,
 * the shadow maps and the ambient occlusion through the shading group. Both draw with the scene
 * pipelines of the frame's sample count (the key's PIPELINE_MSAA4), whose program, forward.wgsl,
 * shares the frame, object, material and pass-view blocks with C. Publishes "hdr" and "hdr
 * resolved"; needs "depth". */
#include "features.h"

static const render_block_use BLOCKS[] = {
    {"forward.wgsl", &kiln_view_block},          {"forward.wgsl", &kiln_lighting_block},
    {"forward.wgsl", &kiln_instance_block},      {"forward.wgsl", &kiln_morph_weights_block},
    {"forward.wgsl", &kiln_pass_view_block},     {"forward.wgsl", &kiln_material_block},
};

static void record_shading(kiln_fg_context *ctx, kiln_renderer *r, bool blended) {
    kiln_bind_group shading = renderer_shading_group(r, ctx, &ctx->error);
    if (!shading.id) return;
    renderer_draw_view(r, ctx->render, r->frame.camera_view, RENDER_DRAW_COLOR, blended, shading, &r->stats.draw_calls);
}

static void record_opaque(kiln_fg_context *ctx, void *user) { record_shading(ctx, user, false); }

static void record_blend(kiln_fg_context *ctx, void *user) { record_shading(ctx, user, true); }

static void declare_shading(kiln_renderer *r, render_frame *f, const char *name, kiln_fg_record_fn record) {
    uint32_t pass = kiln_frame_graph_add_pass(r->graph, name, record, r);
    kiln_frame_graph_color(r->graph, pass, render_blackboard_need(&f->board, "hdr"), renderer_hdr_clear(r));
    kiln_frame_graph_depth(r->graph, pass, render_blackboard_need(&f->board, "depth"), 0.0f, true);
    renderer_shading_group_reads(r, pass); /* what the features' bindings read this frame */
}

/* The HDR colour, multisampled as settings.msaa says. A multisampled one is only ever drawn into:
 * the post passes read its resolve target, which the graph has the last pass drawing it (the
 * blend pass) resolve into. */
static void declare_opaque(kiln_renderer *r, void *state, render_frame *f) {
    (void)state;
    bool multisampled = r->settings.msaa > 1;
    kiln_fg_texture_desc hdr = {.width = f->width, .height = f->height, .format = RENDER_HDR_FORMAT,
                                .sample_count = r->settings.msaa,
                                .usage = WGPUTextureUsage_RenderAttachment |
                                         (multisampled ? 0 : WGPUTextureUsage_TextureBinding)};
    kiln_fg_resource colour = kiln_frame_graph_create_transient(r->graph, "hdr", &hdr);
    render_blackboard_put(&f->board, "hdr", colour);
    render_blackboard_put(&f->board, "hdr resolved",
                          multisampled ? kiln_frame_graph_create_resolve_target(r->graph, "hdr resolved", colour) : colour);
    declare_shading(r, f, "forward+ opaque", record_opaque);
}

static void declare_blend(kiln_renderer *r, void *state, render_frame *f) {
    (void)state;
    declare_shading(r, f, "forward+ blend", record_blend);
}

const render_feature render_feature_forward_opaque = {
    .name = "forward_opaque", .blocks = BLOCKS, .block_count = KILN_ARRAY_COUNT(BLOCKS), .scene_program = "forward.wgsl",
    .declare = declare_opaque,
};
const render_feature render_feature_forward_blend = {.name = "forward_blend", .declare = declare_blend};
