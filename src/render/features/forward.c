/* Forward+ shading: opaque and masked geometry, then (after the sky) blended geometry back to
 * front, into the HDR target, testing against the prepass depth and reading the cluster lists,
 * the sun's cascade maps and the ambient occlusion. Both draw with the scene pipelines of the
 * frame's sample count (the key's PIPELINE_MSAA4). */
#include "features.h"

static void record_shading(kiln_fg_context *ctx, kiln_renderer *r, bool blended) {
    kiln_bind_group pass_group =
        renderer_shading_pass_group(r, ctx, r->frame.cascade_maps, r->frame.shadow_atlas, r->frame.ao);
    if (!pass_group.id) return;
    renderer_draw_view(r, ctx->render, r->frame.camera, RENDER_DRAW_COLOR, blended, pass_group, &r->stats.draw_calls);
}

static void record_opaque(kiln_fg_context *ctx, void *user) { record_shading(ctx, user, false); }

static void record_blend(kiln_fg_context *ctx, void *user) { record_shading(ctx, user, true); }

static uint32_t declare_shading(kiln_renderer *r, const render_frame *f, const char *name, kiln_fg_record_fn record) {
    uint32_t pass = kiln_frame_graph_add_pass(r->graph, name, record, r);
    kiln_frame_graph_color(r->graph, pass, f->hdr, renderer_hdr_clear(r));
    kiln_frame_graph_depth(r->graph, pass, f->depth, 0.0f, true);
    kiln_frame_graph_read(r->graph, pass, f->cluster_lists);
    if (f->cascade_maps.index) kiln_frame_graph_read(r->graph, pass, f->cascade_maps); /* every layer */
    if (f->shadow_atlas.index) kiln_frame_graph_read(r->graph, pass, f->shadow_atlas);
    if (f->ao.index) kiln_frame_graph_read(r->graph, pass, f->ao);
    return pass;
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
    f->hdr = kiln_frame_graph_create_transient(r->graph, "hdr", &hdr);
    f->hdr_resolved = multisampled ? kiln_frame_graph_create_resolve_target(r->graph, "hdr resolved", f->hdr) : f->hdr;
    declare_shading(r, f, "forward+ opaque", record_opaque);
}

static void declare_blend(kiln_renderer *r, void *state, render_frame *f) {
    (void)state;
    declare_shading(r, f, "forward+ blend", record_blend);
}

const render_feature render_feature_forward_opaque = {.name = "forward_opaque", .declare = declare_opaque};
const render_feature render_feature_forward_blend = {.name = "forward_blend", .declare = declare_blend};
