/* Bloom (on unless settings.disable_bloom; never in a debug view): the light above
 * settings.bloom_threshold, blurred wide, for the tone map to add by settings.bloom_strength
 * (shaders/bloom.wgsl has the filters). One transient, `bloom chain`, half the frame's size with
 * up to six mips, each mip a sub-resource: a prefilter pass from `hdr resolved` into mip 0,
 * downsample passes into mips 1..5, then upsample passes adding each mip into the one above, from
 * mip 4 back to mip 0, published as "bloom" for the tone map. Needs "hdr resolved". With bloom off nothing is declared.
 *
 * Render passes rather than compute: each step is a fullscreen triangle into one mip, so the
 * additive upsample is the blend unit's (no read-modify-write of a storage texture, no barrier
 * between reading and writing the same mip), the taps are the sampler's bilinear filtering, and
 * on lavapipe, which the tests run on, rasterisation is the fast path and compute the slow one. */
#include "features.h"

enum {
    BLOOM_MIPS = 6,                       /* the most mips of the chain: 1/2 to 1/64 of the frame */
    BLOOM_PASSES = 2 * BLOOM_MIPS - 1,    /* a prefilter, 5 downsamples, 5 upsamples */
};

/* The knee of the soft threshold, as a fraction of the threshold: the transition from no bloom
 * to full bloom spans threshold * (1 - BLOOM_KNEE) to threshold * (1 + BLOOM_KNEE). */
#define BLOOM_KNEE 0.5f

typedef struct bloom_state bloom_state;

/* What one pass of this frame records: its pipeline drawn over the source resource. */
typedef struct bloom_pass {
    bloom_state *s;
    kiln_render_pipeline pipeline;
    kiln_fg_resource source;
} bloom_pass;

struct bloom_state {
    kiln_renderer *r;
    kiln_sampler sampler;                 /* linear, clamp to edge */
    kiln_buffer uniform;                  /* the Bloom block */
    kiln_bind_group_layout source_layout;
    kiln_pipeline_layout layout;
    kiln_render_pipeline prefilter, downsample, upsample;
    kiln_bind_group_cache *groups;        /* by source view handle: one per pass, rebuilt on a resize */
    bloom_pass passes[BLOOM_PASSES];      /* this frame's */
};

/* Pass names by the mip they write (the graph keeps them, not copies). */
static const char *const DOWNSAMPLE_NAMES[BLOOM_MIPS] = {
    "bloom prefilter", "bloom downsample 1", "bloom downsample 2", "bloom downsample 3", "bloom downsample 4",
    "bloom downsample 5",
};
static const char *const UPSAMPLE_NAMES[BLOOM_MIPS - 1] = {
    "bloom upsample 0", "bloom upsample 1", "bloom upsample 2", "bloom upsample 3", "bloom upsample 4",
};

static bool build_pipeline(bloom_state *s, kiln_shader program, const char *label, const char *entry,
                           kiln_blend_mode blend, kiln_render_pipeline *out, kiln_error *err) {
    kiln_render_pipeline_desc d = {
        .label = label, .layout = s->layout, .shader = program, .vertex_entry = "vs_fullscreen",
        .fragment_entry = entry, .target_count = 1, .targets = {{.format = RENDER_HDR_FORMAT, .blend = blend}},
    };
    return (*out = kiln_shader_library_create_watched_render_pipeline(s->r->library, &d, err)).id != 0;
}

static bool create_bloom(kiln_renderer *r, void *state, kiln_error *err) {
    bloom_state *s = state;
    s->r = r;
    if (!(s->groups = kiln_bind_group_cache_create(r->res, BLOOM_PASSES, err))) return false;
    kiln_shader program = kiln_shader_library_load(r->library, "bloom.wgsl", err);
    if (!program.id) return false;
    if (!(s->sampler = kiln_resources_create_sampler(r->res, &(kiln_sampler_desc){.label = "bloom", .linear = true}, err)).id)
        return false;
    kiln_buffer_desc uniform = {.label = "bloom uniform", .size = KILN_BLOOM_UNIFORM_SIZE,
                                .usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst};
    if (!(s->uniform = kiln_resources_create_buffer(r->res, &uniform, err)).id) return false;
    kiln_layout_entry group[3] = {
        {.binding = 0, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_TEXTURE_2D},
        {.binding = 1, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_FILTERING_SAMPLER},
        {.binding = 2, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_UNIFORM_BUFFER,
         .min_binding_size = KILN_BLOOM_UNIFORM_SIZE},
    };
    if (!(s->source_layout = kiln_resources_create_bind_group_layout(r->res, "bloom", group, 3, err)).id) return false;
    if (!(s->layout = kiln_resources_create_pipeline_layout(r->res, "bloom", &s->source_layout, 1, err)).id)
        return false;
    return build_pipeline(s, program, "bloom prefilter", "fs_bloom_prefilter", KILN_BLEND_OPAQUE, &s->prefilter, err) &&
           build_pipeline(s, program, "bloom downsample", "fs_bloom_downsample", KILN_BLEND_OPAQUE, &s->downsample,
                          err) &&
           build_pipeline(s, program, "bloom upsample", "fs_bloom_upsample", KILN_BLEND_ADDITIVE, &s->upsample, err);
}

static void destroy_bloom(kiln_renderer *r, void *state) {
    bloom_state *s = state;
    kiln_bind_group_cache_destroy(s->groups);
    kiln_render_pipeline pipelines[] = {s->prefilter, s->downsample, s->upsample};
    for (size_t i = 0; i < sizeof pipelines / sizeof pipelines[0]; i++)
        kiln_shader_library_destroy_watched_render_pipeline(r->library, pipelines[i]);
    if (s->layout.id) kiln_resources_destroy_pipeline_layout(r->res, s->layout, NULL);
    if (s->source_layout.id) kiln_resources_destroy_bind_group_layout(r->res, s->source_layout, NULL);
    if (s->uniform.id) kiln_resources_destroy_buffer(r->res, s->uniform, NULL);
    if (s->sampler.id) kiln_resources_destroy_sampler(r->res, s->sampler, NULL);
}

static void record_pass(kiln_fg_context *ctx, void *user) {
    bloom_pass *p = user;
    kiln_texture_view source = kiln_fg_context_view_handle(ctx, p->source);
    if (!source.id) return;
    kiln_binding_resource entries[3] = {
        {.binding = 0, .view = source},
        {.binding = 1, .sampler = p->s->sampler},
        {.binding = 2, .buffer = p->s->uniform, .size = KILN_BLOOM_UNIFORM_SIZE},
    };
    kiln_bind_group group = kiln_bind_group_cache_get(p->s->groups, "bloom", p->s->source_layout, entries, 3, &ctx->error);
    if (!group.id) return;
    kiln_render_pass_set_pipeline(ctx->render, p->pipeline, NULL);
    kiln_render_pass_set_bind_group(ctx->render, 0, group, NULL, 0, NULL);
    kiln_render_pass_draw(ctx->render, 3, 1, 0, 0);
}

/* The first pass of the chain writes the frame's threshold for all of them. */
static void record_prefilter(kiln_fg_context *ctx, void *user) {
    bloom_pass *p = user;
    float threshold = p->s->r->settings.bloom_threshold;
    uint8_t bytes[KILN_BLOOM_UNIFORM_SIZE];
    kiln_bloom_uniform_pack(threshold, threshold * BLOOM_KNEE, bytes);
    if (!kiln_resources_write_buffer(p->s->r->res, p->s->uniform, 0, bytes, sizeof bytes, &ctx->error)) return;
    record_pass(ctx, user);
}

/* One pass drawing `pipeline` over `source` into `target`, the n-th of the frame. */
static void add_pass(bloom_state *s, uint32_t n, const char *name, kiln_fg_record_fn record,
                     kiln_render_pipeline pipeline, kiln_fg_resource source, kiln_fg_resource target) {
    s->passes[n] = (bloom_pass){.s = s, .pipeline = pipeline, .source = source};
    uint32_t pass = kiln_frame_graph_add_pass(s->r->graph, name, record, &s->passes[n]);
    kiln_frame_graph_read(s->r->graph, pass, source);
    kiln_frame_graph_color(s->r->graph, pass, target, (WGPUColor){0, 0, 0, 0});
}

/* Mips down to the first of one texel on its longer side, at most BLOOM_MIPS: a small frame has
 * a shorter chain. */
static uint32_t chain_levels(uint32_t width, uint32_t height) {
    uint32_t levels = 1;
    for (uint32_t longest = width > height ? width : height; longest > 1 && levels < BLOOM_MIPS; longest /= 2) levels++;
    return levels;
}

static const render_block_use BLOCKS[] = {{"bloom.wgsl", &kiln_bloom_block}};

static void declare_bloom(kiln_renderer *r, void *state, render_frame *f) {
    if (r->settings.disable_bloom || r->settings.debug != KILN_DEBUG_NONE)
        return render_blackboard_put(&f->board, "bloom", (kiln_fg_resource){0}); /* absent */
    bloom_state *s = state;
    kiln_fg_texture_desc chain_desc = {.width = f->width > 1 ? f->width / 2 : 1,
                                       .height = f->height > 1 ? f->height / 2 : 1, .format = RENDER_HDR_FORMAT};
    chain_desc.mip_levels = chain_levels(chain_desc.width, chain_desc.height);
    kiln_fg_resource chain = kiln_frame_graph_create_transient(r->graph, "bloom chain", &chain_desc);
    kiln_fg_resource mips[BLOOM_MIPS];
    for (uint32_t i = 0; i < chain_desc.mip_levels; i++) mips[i] = kiln_frame_graph_subresource(r->graph, chain, i, 0);
    uint32_t n = 0;
    add_pass(s, n++, DOWNSAMPLE_NAMES[0], record_prefilter, s->prefilter,
             render_blackboard_need(&f->board, "hdr resolved"), mips[0]);
    for (uint32_t i = 1; i < chain_desc.mip_levels; i++)
        add_pass(s, n++, DOWNSAMPLE_NAMES[i], record_pass, s->downsample, mips[i - 1], mips[i]);
    for (uint32_t i = chain_desc.mip_levels - 1; i-- > 0;)
        add_pass(s, n++, UPSAMPLE_NAMES[i], record_pass, s->upsample, mips[i + 1], mips[i]);
    render_blackboard_put(&f->board, "bloom", mips[0]);
}

const render_feature render_feature_bloom = {
    .name = "bloom", .state_size = sizeof(bloom_state), .blocks = BLOCKS, .block_count = KILN_ARRAY_COUNT(BLOCKS),
    .create = create_bloom, .destroy = destroy_bloom,
    .declare = declare_bloom,
};
