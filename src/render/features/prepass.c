/* The depth prepass: opaque and masked geometry of the camera view into a fresh depth buffer, so
 * forward shading runs each pixel's lights once (depth test Equal-or-nearer, no writes). The
 * depth, published as "depth", is also a texture the AO passes read (features/ao.c). */
#include "features.h"

static void record_prepass(kiln_fg_context *ctx, void *user) {
    kiln_renderer *r = user;
    renderer_draw_view(r, ctx->render, r->frame.camera_view, RENDER_DRAW_DEPTH, false, r->depth_group, &r->stats.prepass_draw_calls);
}

static void declare_prepass(kiln_renderer *r, void *state, render_frame *f) {
    (void)state;
    kiln_fg_texture_desc depth = {.width = f->width, .height = f->height, .format = RENDER_DEPTH_FORMAT,
                                  .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_TextureBinding,
                                  .sample_count = r->settings.msaa};
    kiln_fg_resource transient = kiln_frame_graph_create_transient(r->graph, "depth", &depth);
    uint32_t pass = kiln_frame_graph_add_pass(r->graph, "depth prepass", record_prepass, r);
    kiln_frame_graph_depth(r->graph, pass, transient, 0.0f, false); /* reverse-Z: 0 is the far plane */
    render_blackboard_put(&f->board, "depth", transient);
}

const render_feature render_feature_prepass = {.name = "prepass", .declare = declare_prepass};
