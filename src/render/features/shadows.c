/* Shadows. Each frame the sun's four cascades are fitted (cascades.c) and added as shadow views,
 * and so are the atlas views the frame's lights loop handed the casting spot and point lights
 * (render_frame_lights, shadow_atlas.c): all are culled, batched and drawn like the camera.
 *
 * The sun's cascade maps: one Depth32Float 2D array transient of settings.cascade_resolution
 * texels and four layers, each layer a sub-resource drawn by its own depth-only render pass from
 * its cascade's view. The spot and point lights' atlas: one Depth32Float transient of
 * settings.atlas_size texels drawn by one render pass, each light view into its own tile through
 * the viewport and scissor, so the whole atlas costs one pass and one clear however many lights
 * cast. They are published as "cascade maps" and "shadow atlas"; the shading passes read both
 * whole, so the graph runs these passes before them. With no cascade (shadows disabled, no
 * casting sun) or no atlas view this frame, that map is not declared and the shading group binds
 * a one-texel stand-in.
 *
 * The feature owns the Shadows and AtlasViews blocks, the comparison sampler, the stand-ins and
 * the shading group's bindings 5, 6, 7 (the sun's) and 13, 14 (the atlas'). */
#include "features.h"

typedef struct cascade_pass {
    kiln_renderer *r;
    uint32_t view;      /* index into r->views */
} cascade_pass;

typedef struct shadows_state {
    kiln_renderer *r;
    kiln_buffer uniform;                   /* the Shadows block */
    kiln_buffer atlas_uniform;             /* the AtlasViews block */
    kiln_sampler comparison;
    kiln_texture placeholder;              /* 1x1 Depth32Float, one layer, viewed as an array */
    kiln_texture_view placeholder_view;
    kiln_texture atlas_placeholder;        /* 1x1 Depth32Float, viewed as 2D */
    kiln_texture_view atlas_placeholder_view;
    /* This frame's. */
    kiln_cascade cascades[KILN_CASCADE_COUNT];
    uint32_t cascade_count;                /* KILN_CASCADE_COUNT or 0 */
    uint32_t first_view;                   /* the first cascade's view index */
    uint32_t atlas_first_view;             /* the first atlas view's view index */
    cascade_pass passes[KILN_CASCADE_COUNT];
    kiln_fg_resource cascade_maps, atlas;  /* index 0 when not declared */
    uint8_t atlas_block[KILN_ATLAS_VIEWS_UNIFORM_SIZE]; /* the AtlasViews block, packed each frame */
} shadows_state;

static const render_block_use BLOCKS[] = {
    {"forward.wgsl", &kiln_shadows_block},
    {"forward.wgsl", &kiln_atlas_view_block},
    {"forward.wgsl", &kiln_atlas_views_block},
};

enum { BIND_SHADOWS, BIND_CASCADE_MAPS, BIND_COMPARISON, BIND_ATLAS_VIEWS, BIND_ATLAS, BINDINGS_COUNT };
static const render_binding BINDINGS[BINDINGS_COUNT] = {
    [BIND_SHADOWS] = {{.binding = 5, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_UNIFORM_BUFFER,
                       .min_binding_size = KILN_SHADOWS_UNIFORM_SIZE}, "shadows"},
    [BIND_CASCADE_MAPS] = {{.binding = 6, .visibility = WGPUShaderStage_Fragment,
                            .kind = KILN_BINDING_DEPTH_TEXTURE_2D_ARRAY}, "shadow_map"},
    [BIND_COMPARISON] = {{.binding = 7, .visibility = WGPUShaderStage_Fragment,
                          .kind = KILN_BINDING_COMPARISON_SAMPLER}, "shadow_sampler"},
    [BIND_ATLAS_VIEWS] = {{.binding = 13, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_UNIFORM_BUFFER,
                           .min_binding_size = KILN_ATLAS_VIEWS_UNIFORM_SIZE}, "atlas_views"},
    [BIND_ATLAS] = {{.binding = 14, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_DEPTH_TEXTURE_2D},
                    "shadow_atlas"},
};

/* Pass names are kept by the graph until the next reset: a table, never formatted. */
static const char *const CASCADE_PASS_NAMES[KILN_CASCADE_COUNT] = {
    "cascade shadow 0", "cascade shadow 1", "cascade shadow 2", "cascade shadow 3",
};

static bool create_shadows(kiln_renderer *r, void *state, kiln_error *err) {
    shadows_state *s = state;
    s->r = r;
    kiln_buffer_desc uniform = {.label = "shadows uniform", .size = KILN_SHADOWS_UNIFORM_SIZE,
                                .usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst};
    if (!(s->uniform = kiln_resources_create_buffer(r->res, &uniform, err)).id) return false;
    if (!(s->comparison = kiln_resources_create_comparison_sampler(r->res, "shadow comparison", err)).id) return false;
    kiln_texture_desc placeholder = {.label = "no cascade maps", .width = 1, .height = 1, .format = RENDER_DEPTH_FORMAT,
                                     .usage = WGPUTextureUsage_TextureBinding};
    if (!(s->placeholder = kiln_resources_create_texture(r->res, &placeholder, err)).id) return false;
    kiln_texture_view_desc array = {.dimension = WGPUTextureViewDimension_2DArray};
    if (!(s->placeholder_view = kiln_resources_create_texture_view(r->res, s->placeholder, &array, err)).id) return false;
    placeholder.label = "no shadow atlas";
    if (!(s->atlas_placeholder = kiln_resources_create_texture(r->res, &placeholder, err)).id ||
        !(s->atlas_placeholder_view = kiln_resources_create_texture_view(r->res, s->atlas_placeholder, NULL, err)).id)
        return false;
    kiln_buffer_desc atlas = {.label = "atlas views uniform", .size = KILN_ATLAS_VIEWS_UNIFORM_SIZE,
                              .usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst};
    return (s->atlas_uniform = kiln_resources_create_buffer(r->res, &atlas, err)).id != 0;
}

static void destroy_shadows(kiln_renderer *r, void *state) {
    shadows_state *s = state;
    if (s->placeholder_view.id) kiln_resources_destroy_texture_view(r->res, s->placeholder_view, NULL);
    if (s->atlas_placeholder_view.id) kiln_resources_destroy_texture_view(r->res, s->atlas_placeholder_view, NULL);
    if (s->atlas_placeholder.id) kiln_resources_destroy_texture(r->res, s->atlas_placeholder, NULL);
    if (s->atlas_uniform.id) kiln_resources_destroy_buffer(r->res, s->atlas_uniform, NULL);
    if (s->placeholder.id) kiln_resources_destroy_texture(r->res, s->placeholder, NULL);
    if (s->comparison.id) kiln_resources_destroy_sampler(r->res, s->comparison, NULL);
    if (s->uniform.id) kiln_resources_destroy_buffer(r->res, s->uniform, NULL);
}

/* The cascades, when shadows are on, the scene has a sun that casts them and the camera's near
 * plane lies before shadow_distance; then the atlas views the lights loop handed out; the
 * Shadows and AtlasViews blocks either way. */
static bool add_shadow_views(kiln_renderer *r, void *state, const kiln_render_scene *scene, kiln_error *err) {
    shadows_state *s = state;
    const kiln_render_settings *settings = &r->settings;
    const render_frame_lights *lights = &r->lights;
    const kiln_camera *camera = &r->frame.camera;
    s->cascade_count = 0;
    if (!settings->disable_shadows && lights->has_sun && !lights->sun.disable_shadow_casting &&
        camera->near < settings->shadow_distance) {
        kiln_cascades_fit_into(s->cascades, camera, lights->sun.direction, settings->shadow_distance,
                               settings->cascade_resolution);
        s->first_view = r->views.count;
        for (uint32_t i = 0; i < KILN_CASCADE_COUNT; i++)
            if (renderer_add_view(r, scene, s->cascades[i].view, s->cascades[i].projection, true, err) == UINT32_MAX)
                return false;
        s->cascade_count = KILN_CASCADE_COUNT;
    }
    const kiln_shadow_atlas *atlas = &lights->atlas;
    s->atlas_first_view = r->views.count;
    for (uint32_t i = 0; i < atlas->count; i++)
        if (renderer_add_view(r, scene, atlas->views[i].view, atlas->views[i].projection, true, err) == UINT32_MAX)
            return false;
    r->stats.shadow_views = s->cascade_count + atlas->count;
    uint8_t block[KILN_SHADOWS_UNIFORM_SIZE];
    kiln_shadows_uniform_pack(s->cascades, s->cascade_count, settings->cascade_resolution, block);
    if (!kiln_resources_write_buffer(r->res, s->uniform, 0, block, sizeof block, err)) return false;
    /* Only the views handed out: the shaders index no others. */
    for (uint32_t i = 0; i < atlas->count; i++)
        kiln_atlas_view_pack(&atlas->views[i], atlas->size, atlas->tile_size, s->atlas_block + i * KILN_ATLAS_VIEW_SIZE);
    return !atlas->count || kiln_resources_write_buffer(r->res, s->atlas_uniform, 0, s->atlas_block,
                                                        atlas->count * KILN_ATLAS_VIEW_SIZE, err);
}

static void record_cascade(kiln_fg_context *ctx, void *user) {
    cascade_pass *p = user;
    kiln_renderer *r = p->r;
    renderer_draw_view(r, ctx->render, &r->views.list[p->view], RENDER_DRAW_DEPTH, false, r->depth_group,
                       &r->stats.shadow_draw_calls);
}

static void record_atlas(kiln_fg_context *ctx, void *user) {
    shadows_state *s = user;
    kiln_renderer *r = s->r;
    const kiln_shadow_atlas *atlas = &r->lights.atlas;
    uint32_t per_row = atlas->size / atlas->tile_size, tile = atlas->tile_size;
    for (uint32_t i = 0; i < atlas->count && !ctx->render->failed; i++) {
        uint32_t x = (atlas->views[i].tile % per_row) * tile, y = (atlas->views[i].tile / per_row) * tile;
        kiln_render_pass_set_viewport(ctx->render, (float)x, (float)y, (float)tile, (float)tile);
        kiln_render_pass_set_scissor(ctx->render, x, y, tile, tile);
        renderer_draw_view(r, ctx->render, &r->views.list[s->atlas_first_view + i], RENDER_DRAW_DEPTH, false,
                           r->depth_group, &r->stats.shadow_draw_calls);
    }
}

static void declare_atlas(kiln_renderer *r, shadows_state *s, render_frame *f) {
    s->atlas = (kiln_fg_resource){0};
    if (!r->lights.atlas.count) return render_blackboard_put(&f->board, "shadow atlas", s->atlas); /* absent */
    uint32_t size = r->lights.atlas.size;
    kiln_fg_texture_desc atlas = {.width = size, .height = size, .format = RENDER_DEPTH_FORMAT,
                                  .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_TextureBinding};
    s->atlas = kiln_frame_graph_create_transient(r->graph, "shadow atlas", &atlas);
    uint32_t pass = kiln_frame_graph_add_pass(r->graph, "atlas shadows", record_atlas, s);
    kiln_frame_graph_depth(r->graph, pass, s->atlas, 0.0f, false); /* cleared whole: unused tiles stay lit */
    render_blackboard_put(&f->board, "shadow atlas", s->atlas);
}

static void declare_shadows(kiln_renderer *r, void *state, render_frame *f) {
    shadows_state *s = state;
    s->cascade_maps = (kiln_fg_resource){0};
    declare_atlas(r, s, f);
    if (!s->cascade_count) return render_blackboard_put(&f->board, "cascade maps", s->cascade_maps); /* absent */
    uint32_t size = r->settings.cascade_resolution;
    kiln_fg_texture_desc maps = {.width = size, .height = size, .format = RENDER_DEPTH_FORMAT,
                                 .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_TextureBinding,
                                 .layers = KILN_CASCADE_COUNT};
    s->cascade_maps = kiln_frame_graph_create_transient(r->graph, "cascade maps", &maps);
    for (uint32_t i = 0; i < KILN_CASCADE_COUNT; i++) {
        s->passes[i] = (cascade_pass){.r = r, .view = s->first_view + i};
        kiln_fg_resource layer = kiln_frame_graph_subresource(r->graph, s->cascade_maps, 0, i);
        uint32_t pass = kiln_frame_graph_add_pass(r->graph, CASCADE_PASS_NAMES[i], record_cascade, &s->passes[i]);
        kiln_frame_graph_depth(r->graph, pass, layer, 0.0f, false); /* reverse-Z: 0 is farthest from the sun */
    }
    render_blackboard_put(&f->board, "cascade maps", s->cascade_maps);
}

/* The shading passes read the maps whole: the graph runs every cascade and the atlas first. */
static void shadows_shading_reads(kiln_renderer *r, void *state, uint32_t pass) {
    shadows_state *s = state;
    if (s->cascade_maps.index) kiln_frame_graph_read(r->graph, pass, s->cascade_maps);
    if (s->atlas.index) kiln_frame_graph_read(r->graph, pass, s->atlas);
}

/* A shading pass reads this frame's maps; a depth pass, or a frame without them, the stand-ins. */
static bool bind_shadows(kiln_renderer *r, void *state, kiln_fg_context *ctx, kiln_binding_resource *out) {
    (void)r;
    shadows_state *s = state;
    kiln_texture_view maps = ctx && s->cascade_maps.index ? kiln_fg_context_view_handle(ctx, s->cascade_maps)
                                                          : s->placeholder_view;
    kiln_texture_view atlas = ctx && s->atlas.index ? kiln_fg_context_view_handle(ctx, s->atlas)
                                                    : s->atlas_placeholder_view;
    out[BIND_SHADOWS] = (kiln_binding_resource){.buffer = s->uniform, .size = KILN_SHADOWS_UNIFORM_SIZE};
    out[BIND_CASCADE_MAPS] = (kiln_binding_resource){.view = maps};
    out[BIND_COMPARISON] = (kiln_binding_resource){.sampler = s->comparison};
    out[BIND_ATLAS_VIEWS] = (kiln_binding_resource){.buffer = s->atlas_uniform, .size = KILN_ATLAS_VIEWS_UNIFORM_SIZE};
    out[BIND_ATLAS] = (kiln_binding_resource){.view = atlas};
    return maps.id && atlas.id;
}

const render_feature render_feature_shadows = {
    .name = "shadows", .state_size = sizeof(shadows_state),
    .blocks = BLOCKS, .block_count = KILN_ARRAY_COUNT(BLOCKS), .bindings = BINDINGS, .binding_count = BINDINGS_COUNT,
    .create = create_shadows, .destroy = destroy_shadows, .add_views = add_shadow_views, .declare = declare_shadows,
    .bind = bind_shadows, .shading_reads = shadows_shading_reads,
};
