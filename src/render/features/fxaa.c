/* FXAA (settings.fxaa, off by default): one fullscreen pass filters the display image into
 * the output (shaders/fxaa.wgsl). It is a filter of the display image: listed before the tone
 * map, it takes "display" (the target) as its own destination and publishes its input, an `ldr`
 * transient of the output's format, as "display" in its place, so the tone map (or a filter
 * listed after this one) writes there; the graph runs this pass after whatever writes `ldr`.
 * With FXAA off this feature declares nothing, so neither the pass nor `ldr` is in the graph. */
#include "features.h"

typedef struct fxaa_state {
    kiln_renderer *r;
    kiln_sampler sampler;              /* linear, clamp to edge */
    kiln_bind_group_layout ldr_layout;
    kiln_pipeline_layout layout;
    kiln_render_pipeline pipeline;
    kiln_bind_group_cache *ldr_groups; /* the group by ldr view handle: one, rebuilt on a resize */
    kiln_bind_group ldr_group;         /* this frame's */
    kiln_fg_resource ldr;              /* this frame's */
} fxaa_state;

static bool create_fxaa(kiln_renderer *r, void *state, kiln_error *err) {
    fxaa_state *s = state;
    s->r = r;
    if (!(s->ldr_groups = kiln_bind_group_cache_create(r->res, 1, err))) return false;
    kiln_shader program = kiln_shader_library_load(r->library, "fxaa.wgsl", err);
    if (!program.id) return false;
    if (!(s->sampler = kiln_resources_create_sampler(r->res, &(kiln_sampler_desc){.label = "fxaa", .linear = true}, err)).id)
        return false;
    kiln_layout_entry group[2] = {
        {.binding = 0, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_TEXTURE_2D},
        {.binding = 1, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_FILTERING_SAMPLER},
    };
    if (!(s->ldr_layout = kiln_resources_create_bind_group_layout(r->res, "fxaa", group, 2, err)).id) return false;
    if (!(s->layout = kiln_resources_create_pipeline_layout(r->res, "fxaa", &s->ldr_layout, 1, err)).id) return false;
    /* 8-bit unorm outputs hold sRGB-encoded values in ldr (the tone map encodes them); sRGB and
     * float outputs hold linear ones, which the shader encodes for its luma. */
    kiln_render_pipeline_desc d = {
        .label = "fxaa", .layout = s->layout, .shader = program, .vertex_entry = "vs_fullscreen",
        .fragment_entry = r->output_srgb_encode ? "fs_fxaa" : "fs_fxaa_linear", .target_count = 1,
        .targets = {{.format = r->output_format}},
    };
    return (s->pipeline = kiln_shader_library_create_watched_render_pipeline(r->library, &d, err)).id != 0;
}

static void destroy_fxaa(kiln_renderer *r, void *state) {
    fxaa_state *s = state;
    kiln_bind_group_cache_destroy(s->ldr_groups);
    kiln_shader_library_destroy_watched_render_pipeline(r->library, s->pipeline);
    if (s->layout.id) kiln_resources_destroy_pipeline_layout(r->res, s->layout, NULL);
    if (s->ldr_layout.id) kiln_resources_destroy_bind_group_layout(r->res, s->ldr_layout, NULL);
    if (s->sampler.id) kiln_resources_destroy_sampler(r->res, s->sampler, NULL);
}

static void record_fxaa(kiln_fg_context *ctx, void *user) {
    fxaa_state *s = user;
    kiln_texture_view ldr = kiln_fg_context_view_handle(ctx, s->ldr);
    if (!ldr.id) return;
    kiln_binding_resource entries[2] = {{.binding = 0, .view = ldr}, {.binding = 1, .sampler = s->sampler}};
    s->ldr_group = kiln_bind_group_cache_get(s->ldr_groups, "fxaa", s->ldr_layout, entries, 2, &ctx->error);
    if (!s->ldr_group.id) return;
    kiln_render_pass_set_pipeline(ctx->render, s->pipeline, NULL);
    kiln_render_pass_set_bind_group(ctx->render, 0, s->ldr_group, NULL, 0, NULL);
    kiln_render_pass_draw(ctx->render, 3, 1, 0, 0);
}

static void declare_fxaa(kiln_renderer *r, void *state, render_frame *f) {
    if (!r->settings.fxaa) return;
    fxaa_state *s = state;
    kiln_fg_resource destination = render_blackboard_need(&f->board, "display");
    kiln_fg_texture_desc ldr = {.width = f->width, .height = f->height, .format = r->output_format,
                                .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_TextureBinding};
    s->ldr = kiln_frame_graph_create_transient(r->graph, "ldr", &ldr);
    uint32_t pass = kiln_frame_graph_add_pass(r->graph, "fxaa", record_fxaa, s);
    kiln_frame_graph_read(r->graph, pass, s->ldr);
    kiln_frame_graph_color(r->graph, pass, destination, (WGPUColor){0, 0, 0, 1});
    render_blackboard_replace(&f->board, "display", s->ldr);
}

const render_feature render_feature_fxaa = {
    .name = "fxaa", .state_size = sizeof(fxaa_state), .create = create_fxaa, .destroy = destroy_fxaa,
    .declare = declare_fxaa,
};
