/* The sky: a fullscreen triangle at the far plane wherever the prepass left depth at 0
 * (reverse-Z), shaded from the frame's environment and sun. */
#include "features.h"

typedef struct sky_state {
    kiln_renderer *r;
    kiln_pipeline_layout layout;
    kiln_render_pipeline pipeline;
} sky_state;

static bool create_sky(kiln_renderer *r, void *state, kiln_error *err) {
    sky_state *s = state;
    s->r = r;
    kiln_shader program = kiln_shader_library_load(r->library, "sky.wgsl", err);
    if (!program.id) return false;
    s->layout = kiln_resources_create_pipeline_layout(r->res, "sky", &r->frame_layout, 1, err);
    if (!s->layout.id) return false;
    kiln_render_pipeline_desc d = {
        .label = "sky", .layout = s->layout, .shader = program, .vertex_entry = "vs_fullscreen",
        .fragment_entry = "fs_sky", .target_count = 1, .targets = {{.format = RENDER_HDR_FORMAT}},
        .depth = kiln_depth_reverse_z(RENDER_DEPTH_FORMAT, false), .sample_count = 1,
    };
    s->pipeline = kiln_resources_create_render_pipeline(r->res, &d, err);
    return s->pipeline.id && kiln_shader_library_watch_render_pipeline(r->library, program, s->pipeline, &d, err);
}

static void destroy_sky(kiln_renderer *r, void *state) {
    sky_state *s = state;
    if (s->pipeline.id) {
        kiln_shader_library_unwatch_render_pipeline(r->library, s->pipeline, NULL);
        kiln_resources_destroy_render_pipeline(r->res, s->pipeline, NULL);
    }
    if (s->layout.id) kiln_resources_destroy_pipeline_layout(r->res, s->layout, NULL);
}

static void record_sky(kiln_fg_context *ctx, void *user) {
    sky_state *s = user;
    kiln_render_pass_set_pipeline(ctx->render, s->pipeline, NULL);
    kiln_render_pass_set_bind_group(ctx->render, 0, s->r->frame_group, NULL, 0, NULL);
    kiln_render_pass_draw(ctx->render, 3, 1, 0, 0);
}

static void declare_sky(kiln_renderer *r, void *state, render_frame *f) {
    uint32_t pass = kiln_frame_graph_add_pass(r->graph, "sky", record_sky, state);
    kiln_frame_graph_color(r->graph, pass, f->hdr, (WGPUColor){0, 0, 0, 1});
    kiln_frame_graph_depth(r->graph, pass, f->depth, 0.0f, true);
}

const render_feature render_feature_sky = {
    .name = "sky", .state_size = sizeof(sky_state), .create = create_sky, .destroy = destroy_sky, .declare = declare_sky,
};
