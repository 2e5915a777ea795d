/* The sky: a fullscreen triangle at the far plane wherever the prepass left depth at 0
 * (reverse-Z), shaded from the frame's environment and sun, or sampled from its equirectangular
 * map (group 1, the map or a placeholder, kept by the ibl feature). Needs "hdr" and "depth". It draws into the HDR target at the
 * frame's sample count, so it keeps one pipeline per count (1 and 4), each built the first frame
 * that needs it: a settings.msaa change costs one pipeline build, a steady frame none. */
#include "features.h"
#include "../ibl.h"

enum { SKY_SAMPLE_COUNTS = 2 }; /* 1 and 4 samples: settings.msaa's values */

typedef struct sky_state {
    kiln_renderer *r;
    kiln_shader program;
    kiln_pipeline_layout layout;
    kiln_render_pipeline pipelines[SKY_SAMPLE_COUNTS]; /* by sample count: [0] 1, [1] 4 */
} sky_state;

static bool create_sky(kiln_renderer *r, void *state, kiln_error *err) {
    sky_state *s = state;
    s->r = r;
    s->program = kiln_shader_library_load(r->library, "sky.wgsl", err);
    if (!s->program.id) return false;
    kiln_bind_group_layout groups[2] = {r->frame_layout, renderer_ibl_of(r)->sky_layout};
    s->layout = kiln_resources_create_pipeline_layout(r->res, "sky", groups, 2, err);
    return s->layout.id != 0;
}

static void destroy_sky(kiln_renderer *r, void *state) {
    sky_state *s = state;
    for (int i = 0; i < SKY_SAMPLE_COUNTS; i++) kiln_shader_library_destroy_watched_render_pipeline(r->library, s->pipelines[i]);
    if (s->layout.id) kiln_resources_destroy_pipeline_layout(r->res, s->layout, NULL);
}

/* The pipeline for `samples` (1 or 4), built and watched for hot reload the first time. */
static kiln_render_pipeline sky_pipeline(sky_state *s, uint32_t samples, kiln_error *err) {
    kiln_render_pipeline *p = &s->pipelines[samples == 4 ? 1 : 0];
    if (p->id) return *p;
    kiln_render_pipeline_desc d = {
        .label = samples == 4 ? "sky msaa 4" : "sky", .layout = s->layout, .shader = s->program,
        .vertex_entry = "vs_fullscreen", .fragment_entry = "fs_sky", .target_count = 1,
        .targets = {{.format = RENDER_HDR_FORMAT}}, .depth = kiln_depth_reverse_z(RENDER_DEPTH_FORMAT, false),
        .sample_count = samples,
    };
    return *p = kiln_shader_library_create_watched_render_pipeline(s->r->library, &d, err);
}

static void record_sky(kiln_fg_context *ctx, void *user) {
    sky_state *s = user;
    /* Without a sky the pass only clears the HDR target to (0, 0, 0, 0): no coverage. */
    if (s->r->settings.background != KILN_BACKGROUND_SKY) return;
    kiln_render_pipeline pipeline = sky_pipeline(s, s->r->settings.msaa, &ctx->error);
    if (!pipeline.id) return;
    kiln_render_pass_set_pipeline(ctx->render, pipeline, NULL);
    kiln_render_pass_set_bind_group(ctx->render, 0, s->r->frame_group, NULL, 0, NULL);
    kiln_render_pass_set_bind_group(ctx->render, 1, renderer_ibl_sky_group(s->r), NULL, 0, NULL);
    kiln_render_pass_draw(ctx->render, 3, 1, 0, 0);
}

static void declare_sky(kiln_renderer *r, void *state, render_frame *f) {
    uint32_t pass = kiln_frame_graph_add_pass(r->graph, "sky", record_sky, state);
    kiln_frame_graph_color(r->graph, pass, render_blackboard_need(&f->board, "hdr"), renderer_hdr_clear(r));
    kiln_frame_graph_depth(r->graph, pass, render_blackboard_need(&f->board, "depth"), 0.0f, true);
}

static const render_block_use BLOCKS[] = {{"sky.wgsl", &kiln_view_block}, {"sky.wgsl", &kiln_lighting_block}};

const render_feature render_feature_sky = {
    .name = "sky", .state_size = sizeof(sky_state), .blocks = BLOCKS, .block_count = KILN_ARRAY_COUNT(BLOCKS), .create = create_sky, .destroy = destroy_sky, .declare = declare_sky,
};
