/* Ambient occlusion (on unless settings.disable_ao): GTAO from the camera's depth, then a
 * depth-aware 4x4 blur, two compute passes of 8x8 workgroups (shaders/gtao_common.wgsl). The
 * first writes `ao raw`, the second `ao`, published as "ao" and bound in the shading group
 * (binding 12) for the forward passes to multiply their ambient term by. Both transients are RGBA8Unorm: WebGPU has no R8Unorm storage texture,
 * and RGBA8Unorm is one every adapter can write.
 *
 * With settings.msaa 4 the depth is multisampled and both passes read its sample 0 through their
 * own programs (gtao_msaa.wgsl, which only declares the depth differently), so no pass resolves
 * depth. Each sample count has its own pair of pipelines, built the first frame that needs them:
 * a settings.msaa change costs two pipeline builds, a steady frame none.
 *
 * With AO off, or a debug view other than `ao` (which shows no ambient light), nothing is
 * declared and the shading group binds the white texture in the AO slot. */
#include "features.h"

static const render_block_use BLOCKS[] = {
    {"gtao.wgsl", &kiln_view_block},      {"gtao.wgsl", &kiln_ao_block},
    {"gtao_msaa.wgsl", &kiln_view_block}, {"gtao_msaa.wgsl", &kiln_ao_block},
};

static const render_binding BINDINGS[] = {
    {{.binding = 12, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_TEXTURE_2D}, "ao_texture"},
};

enum { AO_SAMPLE_COUNTS = 2 }; /* 1 and 4 samples: settings.msaa's values */

/* The passes' group 1 bindings (group 0 is the renderer's View and Lighting). */
enum { AO_BINDING_DEPTH, AO_BINDING_PARAMS, AO_BINDING_OUT, AO_BINDING_RAW };

typedef struct ao_variant {
    kiln_shader program;                         /* gtao.wgsl or gtao_msaa.wgsl */
    kiln_bind_group_layout gtao_group, blur_group;
    kiln_pipeline_layout gtao_layout, blur_layout;
    kiln_compute_pipeline gtao, blur;            /* built the first frame of this sample count */
} ao_variant;

typedef struct ao_state {
    kiln_renderer *r;
    kiln_buffer uniform;                         /* the AmbientOcclusion block */
    ao_variant variants[AO_SAMPLE_COUNTS];       /* by sample count: [0] 1, [1] 4 */
    kiln_bind_group_cache *groups;               /* by the views they bind */
    kiln_fg_resource depth, raw, ao;             /* this frame's */
} ao_state;

static bool create_variant(ao_state *s, ao_variant *v, const char *program, kiln_binding_kind depth, kiln_error *err) {
    kiln_resources *res = s->r->res;
    if (!(v->program = kiln_shader_library_load(s->r->library, program, err)).id) return false;
    kiln_layout_entry entries[4] = {
        {.binding = AO_BINDING_DEPTH, .visibility = WGPUShaderStage_Compute, .kind = depth},
        {.binding = AO_BINDING_PARAMS, .visibility = WGPUShaderStage_Compute, .kind = KILN_BINDING_UNIFORM_BUFFER,
         .min_binding_size = KILN_AO_UNIFORM_SIZE},
        {.binding = AO_BINDING_OUT, .visibility = WGPUShaderStage_Compute,
         .kind = KILN_BINDING_WRITE_ONLY_STORAGE_TEXTURE_2D, .storage_format = WGPUTextureFormat_RGBA8Unorm},
        {.binding = AO_BINDING_RAW, .visibility = WGPUShaderStage_Compute, .kind = KILN_BINDING_TEXTURE_2D},
    };
    /* The GTAO pass writes what the blur reads: its group has no binding for it. */
    if (!(v->gtao_group = kiln_resources_create_bind_group_layout(res, "gtao", entries, 3, err)).id) return false;
    if (!(v->blur_group = kiln_resources_create_bind_group_layout(res, "ao blur", entries, 4, err)).id) return false;
    kiln_bind_group_layout gtao[2] = {s->r->frame_layout, v->gtao_group}, blur[2] = {s->r->frame_layout, v->blur_group};
    if (!(v->gtao_layout = kiln_resources_create_pipeline_layout(res, "gtao", gtao, 2, err)).id) return false;
    v->blur_layout = kiln_resources_create_pipeline_layout(res, "ao blur", blur, 2, err);
    return v->blur_layout.id != 0;
}

static bool create_ao(kiln_renderer *r, void *state, kiln_error *err) {
    ao_state *s = state;
    s->r = r;
    /* Two groups a frame; two more ride out the frame a resize hands out new views. */
    if (!(s->groups = kiln_bind_group_cache_create(r->res, 4, err))) return false;
    kiln_buffer_desc uniform = {.label = "ao uniform", .size = KILN_AO_UNIFORM_SIZE,
                                .usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst};
    if (!(s->uniform = kiln_resources_create_buffer(r->res, &uniform, err)).id) return false;
    return create_variant(s, &s->variants[0], "gtao.wgsl", KILN_BINDING_DEPTH_TEXTURE_2D, err) &&
           create_variant(s, &s->variants[1], "gtao_msaa.wgsl", KILN_BINDING_MULTISAMPLED_DEPTH_TEXTURE_2D, err);
}

static void destroy_ao(kiln_renderer *r, void *state) {
    ao_state *s = state;
    kiln_bind_group_cache_destroy(s->groups); /* before what its groups bind */
    for (int i = 0; i < AO_SAMPLE_COUNTS; i++) {
        ao_variant *v = &s->variants[i];
        kiln_shader_library_destroy_watched_compute_pipeline(r->library, v->gtao);
        kiln_shader_library_destroy_watched_compute_pipeline(r->library, v->blur);
        kiln_pipeline_layout layouts[] = {v->gtao_layout, v->blur_layout};
        for (size_t j = 0; j < sizeof layouts / sizeof layouts[0]; j++)
            if (layouts[j].id) kiln_resources_destroy_pipeline_layout(r->res, layouts[j], NULL);
        kiln_bind_group_layout groups[] = {v->gtao_group, v->blur_group};
        for (size_t j = 0; j < sizeof groups / sizeof groups[0]; j++)
            if (groups[j].id) kiln_resources_destroy_bind_group_layout(r->res, groups[j], NULL);
    }
    if (s->uniform.id) kiln_resources_destroy_buffer(r->res, s->uniform, NULL);
}

/* The GTAO or the blur pipeline of this frame's sample count, built and watched for hot reload the first
 * time it is asked for. */
static kiln_compute_pipeline ao_pipeline(ao_state *s, bool blur, kiln_error *err) {
    bool msaa = s->r->settings.msaa == 4;
    ao_variant *v = &s->variants[msaa ? 1 : 0];
    kiln_compute_pipeline *p = blur ? &v->blur : &v->gtao;
    if (p->id) return *p;
    kiln_compute_pipeline_desc d = {
        .label = blur ? (msaa ? "ao blur msaa 4" : "ao blur") : (msaa ? "gtao msaa 4" : "gtao"),
        .layout = blur ? v->blur_layout : v->gtao_layout, .shader = v->program,
        .entry = blur ? "cs_ao_blur" : "cs_gtao",
    };
    return *p = kiln_shader_library_create_watched_compute_pipeline(s->r->library, &d, err);
}

/* Binds and dispatches one of the passes over the frame: `out` written, `raw` read by the blur. */
static void record_ao_pass(kiln_fg_context *ctx, ao_state *s, bool blur, kiln_fg_resource out) {
    kiln_renderer *r = s->r;
    kiln_compute_pipeline pipeline = ao_pipeline(s, blur, &ctx->error);
    if (!pipeline.id) return;
    kiln_binding_resource entries[4] = {
        {.binding = AO_BINDING_DEPTH, .view = kiln_fg_context_view_handle(ctx, s->depth)},
        {.binding = AO_BINDING_PARAMS, .buffer = s->uniform, .size = KILN_AO_UNIFORM_SIZE},
        {.binding = AO_BINDING_OUT, .view = kiln_fg_context_view_handle(ctx, out)},
        {.binding = AO_BINDING_RAW, .view = blur ? kiln_fg_context_view_handle(ctx, s->raw) : (kiln_texture_view){0}},
    };
    if (!entries[0].view.id || !entries[2].view.id || (blur && !entries[3].view.id)) return;
    bool msaa = r->settings.msaa == 4;
    const ao_variant *v = &s->variants[msaa ? 1 : 0];
    kiln_bind_group group = kiln_bind_group_cache_get(s->groups, blur ? "ao blur" : "gtao",
                                                      blur ? v->blur_group : v->gtao_group, entries, blur ? 4 : 3,
                                                      &ctx->error);
    if (!group.id) return;
    kiln_compute_pass_set_pipeline(ctx->compute, pipeline, NULL);
    kiln_compute_pass_set_bind_group(ctx->compute, 0, r->frame_group, NULL, 0, NULL);
    kiln_compute_pass_set_bind_group(ctx->compute, 1, group, NULL, 0, NULL);
    kiln_compute_pass_dispatch(ctx->compute, (r->frame.width + 7) / 8, (r->frame.height + 7) / 8, 1);
}

/* The first pass writes the frame's radius for both. */
static void record_gtao(kiln_fg_context *ctx, void *user) {
    ao_state *s = user;
    uint8_t bytes[KILN_AO_UNIFORM_SIZE];
    kiln_ao_uniform_pack(s->r->settings.ao_radius, bytes);
    if (!kiln_resources_write_buffer(s->r->res, s->uniform, 0, bytes, sizeof bytes, &ctx->error)) return;
    record_ao_pass(ctx, s, false, s->raw);
}

static void record_blur(kiln_fg_context *ctx, void *user) {
    ao_state *s = user;
    record_ao_pass(ctx, s, true, s->ao);
}

static void declare_ao(kiln_renderer *r, void *state, render_frame *f) {
    ao_state *s = state;
    s->ao = (kiln_fg_resource){0};
    kiln_debug_mode debug = r->settings.debug;
    if (r->settings.disable_ao || (debug != KILN_DEBUG_NONE && debug != KILN_DEBUG_AO))
        return render_blackboard_put(&f->board, "ao", s->ao); /* absent */
    kiln_fg_texture_desc desc = {.width = f->width, .height = f->height, .format = WGPUTextureFormat_RGBA8Unorm,
                                 .usage = WGPUTextureUsage_StorageBinding | WGPUTextureUsage_TextureBinding};
    s->depth = render_blackboard_need(&f->board, "depth");
    s->raw = kiln_frame_graph_create_transient(r->graph, "ao raw", &desc);
    s->ao = kiln_frame_graph_create_transient(r->graph, "ao", &desc);
    uint32_t gtao = kiln_frame_graph_add_compute_pass(r->graph, "gtao", record_gtao, s);
    kiln_frame_graph_read(r->graph, gtao, s->depth);
    kiln_frame_graph_write(r->graph, gtao, s->raw);
    uint32_t blur = kiln_frame_graph_add_compute_pass(r->graph, "ao blur", record_blur, s);
    kiln_frame_graph_read(r->graph, blur, s->depth);
    kiln_frame_graph_read(r->graph, blur, s->raw);
    kiln_frame_graph_write(r->graph, blur, s->ao);
    render_blackboard_put(&f->board, "ao", s->ao);
}

static void ao_shading_reads(kiln_renderer *r, void *state, uint32_t pass) {
    ao_state *s = state;
    if (s->ao.index) kiln_frame_graph_read(r->graph, pass, s->ao);
}

/* This frame's occlusion for a shading pass; white (no occlusion) for a depth pass or with none. */
static bool bind_ao(kiln_renderer *r, void *state, kiln_fg_context *ctx, kiln_binding_resource *out) {
    ao_state *s = state;
    out[0].view = ctx && s->ao.index ? kiln_fg_context_view_handle(ctx, s->ao) : r->defaults.white_view;
    return out[0].view.id != 0;
}

const render_feature render_feature_ao = {
    .name = "ao", .state_size = sizeof(ao_state), .blocks = BLOCKS, .block_count = KILN_ARRAY_COUNT(BLOCKS),
    .bindings = BINDINGS, .binding_count = KILN_ARRAY_COUNT(BINDINGS),
    .create = create_ao, .destroy = destroy_ao, .declare = declare_ao, .bind = bind_ao,
    .shading_reads = ao_shading_reads,
};
