/* Tone mapping: the bloom ("bloom" when published, added by settings.bloom_strength), exposure
 * and the tone curve (kiln_tonemapper) from the single-sample HDR colour ("hdr resolved") into
 * "display": the frame's target or, where a filter of the display image such as FXAA is on, the
 * transient of the output's format that filter reads; sRGB encoding in the shader for 8-bit unorm formats, in
 * hardware for sRGB ones. Debug views pass their colour through untouched. */
#include "features.h"

typedef struct tonemap_state {
    kiln_renderer *r;
    kiln_buffer post_uniform;         /* the Post block */
    kiln_sampler bloom_sampler;       /* linear, clamp to edge: the half-size chain magnified */
    /* One black texel bound in the chain's place with bloom off: the same pipeline and group
     * layout either way, and the colour gets exactly nothing added. */
    kiln_texture no_bloom;
    kiln_texture_view no_bloom_view;
    kiln_bind_group_layout hdr_layout, empty_layout;
    kiln_pipeline_layout layout;
    kiln_render_pipeline pipeline;
    /* The post group by hdr and bloom view handles: one with bloom and one without, rebuilt on a
     * resize. */
    kiln_bind_group_cache *hdr_groups;
    kiln_bind_group hdr_group;        /* this frame's */
    kiln_fg_resource hdr, bloom;      /* this frame's; bloom index 0 with bloom off */
    bool filtered;                    /* this frame a filter of the display image follows */
} tonemap_state;

static bool create_tonemap(kiln_renderer *r, void *state, kiln_error *err) {
    tonemap_state *s = state;
    s->r = r;
    if (!(s->hdr_groups = kiln_bind_group_cache_create(r->res, 2, err))) return false;
    kiln_shader program = kiln_shader_library_load(r->library, "post.wgsl", err);
    if (!program.id) return false;
    kiln_layout_entry group[4] = {
        {.binding = 0, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_TEXTURE_2D},
        {.binding = 1, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_UNIFORM_BUFFER,
         .min_binding_size = KILN_POST_UNIFORM_SIZE},
        {.binding = 2, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_TEXTURE_2D},
        {.binding = 3, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_FILTERING_SAMPLER},
    };
    if (!(s->hdr_layout = kiln_resources_create_bind_group_layout(r->res, "post", group, 4, err)).id) return false;
    if (!(s->bloom_sampler = kiln_resources_create_sampler(r->res, &(kiln_sampler_desc){.label = "bloom", .linear = true},
                                                           err)).id)
        return false;
    static const uint8_t black[4] = {0, 0, 0, 0};
    kiln_texture_desc no_bloom = {.label = "no bloom", .width = 1, .height = 1, .format = WGPUTextureFormat_RGBA8Unorm,
                                  .usage = WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst};
    if (!(s->no_bloom = kiln_resources_create_texture(r->res, &no_bloom, err)).id ||
        !kiln_resources_write_texture(r->res, s->no_bloom, 0, 0, black, 4, 4, 1, 1, err) ||
        !(s->no_bloom_view = kiln_resources_create_texture_view(r->res, s->no_bloom, NULL, err)).id)
        return false;
    kiln_buffer_desc post = {.label = "post uniform", .size = KILN_POST_UNIFORM_SIZE,
                             .usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst};
    if (!(s->post_uniform = kiln_resources_create_buffer(r->res, &post, err)).id) return false;
    if (!(s->empty_layout = kiln_resources_create_bind_group_layout(r->res, "empty", NULL, 0, err)).id) return false;
    kiln_bind_group_layout groups[4] = {r->frame_layout, s->empty_layout, s->empty_layout, s->hdr_layout};
    if (!(s->layout = kiln_resources_create_pipeline_layout(r->res, "post", groups, 4, err)).id) return false;
    kiln_render_pipeline_desc d = {
        .label = "tonemap", .layout = s->layout, .shader = program, .vertex_entry = "vs_fullscreen",
        .fragment_entry = "fs_tonemap", .target_count = 1, .targets = {{.format = r->output_format}},
    };
    return (s->pipeline = kiln_shader_library_create_watched_render_pipeline(r->library, &d, err)).id != 0;
}

static void destroy_tonemap(kiln_renderer *r, void *state) {
    tonemap_state *s = state;
    kiln_bind_group_cache_destroy(s->hdr_groups);
    kiln_shader_library_destroy_watched_render_pipeline(r->library, s->pipeline);
    if (s->layout.id) kiln_resources_destroy_pipeline_layout(r->res, s->layout, NULL);
    if (s->post_uniform.id) kiln_resources_destroy_buffer(r->res, s->post_uniform, NULL);
    if (s->no_bloom_view.id) kiln_resources_destroy_texture_view(r->res, s->no_bloom_view, NULL);
    if (s->no_bloom.id) kiln_resources_destroy_texture(r->res, s->no_bloom, NULL);
    if (s->bloom_sampler.id) kiln_resources_destroy_sampler(r->res, s->bloom_sampler, NULL);
    kiln_bind_group_layout layouts[] = {s->hdr_layout, s->empty_layout};
    for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++)
        if (layouts[i].id) kiln_resources_destroy_bind_group_layout(r->res, layouts[i], NULL);
}

/* The group names the pooled hdr and bloom views: the cache rebuilds it only when the graph hands
 * out a different view (a resize), keyed by the views' handles (index and generation). */
static bool ensure_hdr_group(tonemap_state *s, kiln_texture_view hdr, kiln_texture_view bloom, kiln_error *err) {
    if (!hdr.id || !bloom.id) return false;
    kiln_binding_resource entries[4] = {
        {.binding = 0, .view = hdr},
        {.binding = 1, .buffer = s->post_uniform, .size = KILN_POST_UNIFORM_SIZE},
        {.binding = 2, .view = bloom},
        {.binding = 3, .sampler = s->bloom_sampler},
    };
    s->hdr_group = kiln_bind_group_cache_get(s->hdr_groups, "post", s->hdr_layout, entries, 4, err);
    return s->hdr_group.id != 0;
}

static void record_tonemap(kiln_fg_context *ctx, void *user) {
    tonemap_state *s = user;
    const kiln_render_settings *settings = &s->r->settings;
    uint8_t post[KILN_POST_UNIFORM_SIZE];
    kiln_post_uniform_pack(settings->exposure, settings->tonemapper, s->r->output_srgb_encode, settings->bloom_strength,
                           settings->background, settings->background_color, s->filtered, post);
    kiln_texture_view bloom = s->bloom.index ? kiln_fg_context_view_handle(ctx, s->bloom) : s->no_bloom_view;
    if (!kiln_resources_write_buffer(s->r->res, s->post_uniform, 0, post, sizeof post, &ctx->error) ||
        !ensure_hdr_group(s, kiln_fg_context_view_handle(ctx, s->hdr), bloom, &ctx->error))
        return;
    kiln_render_pass_set_pipeline(ctx->render, s->pipeline, NULL);
    kiln_render_pass_set_bind_group(ctx->render, 0, s->r->frame_group, NULL, 0, NULL);
    kiln_render_pass_set_bind_group(ctx->render, 3, s->hdr_group, NULL, 0, NULL);
    kiln_render_pass_draw(ctx->render, 3, 1, 0, 0);
}

static const render_block_use BLOCKS[] = {{"post.wgsl", &kiln_view_block}, {"post.wgsl", &kiln_post_block}};

/* "display" has the output's format, so one tone-map pipeline serves both ways and the image is
 * encoded once, where it would be without FXAA: an sRGB ldr decodes when the fxaa pass samples
 * it and encodes again when that pass writes the sRGB output. */

static void declare_tonemap(kiln_renderer *r, void *state, render_frame *f) {
    tonemap_state *s = state;
    s->hdr = render_blackboard_need(&f->board, "hdr resolved");
    s->bloom = render_blackboard_find(&f->board, "bloom");
    uint32_t pass = kiln_frame_graph_add_pass(r->graph, "tonemap", record_tonemap, s);
    kiln_frame_graph_read(r->graph, pass, s->hdr);
    if (s->bloom.index) kiln_frame_graph_read(r->graph, pass, s->bloom);
    kiln_fg_resource display = render_blackboard_need(&f->board, "display");
    s->filtered = display.index != render_blackboard_find(&f->board, "target").index;
    kiln_frame_graph_color(r->graph, pass, display, (WGPUColor){0, 0, 0, 1});
}

const render_feature render_feature_tonemap = {
    .name = "tonemap", .state_size = sizeof(tonemap_state), .blocks = BLOCKS, .block_count = KILN_ARRAY_COUNT(BLOCKS),
    .create = create_tonemap, .destroy = destroy_tonemap,
    .declare = declare_tonemap,
};
