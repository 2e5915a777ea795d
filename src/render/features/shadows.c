/* Shadow maps. The sun's four cascade maps: one Depth32Float 2D array transient of
 * settings.cascade_resolution texels and four layers, each layer a sub-resource drawn by its own
 * depth-only render pass from its cascade's shadow view (shadows.c fitted and batched them). The
 * spot and point lights' atlas: one Depth32Float transient of settings.atlas_size texels drawn by
 * one render pass, each light view into its own tile through the viewport and scissor, so the
 * whole atlas costs one pass and one clear however many lights cast. The shading passes read
 * both whole, so the graph runs these passes before them. With no cascade (shadows disabled, no
 * casting sun) or no atlas view this frame, that map is not declared. */
#include "features.h"

typedef struct cascade_pass {
    kiln_renderer *r;
    uint32_t view;      /* index into r->views */
} cascade_pass;

typedef struct shadows_state {
    cascade_pass passes[KILN_CASCADE_COUNT];
    kiln_renderer *r;
} shadows_state;

/* Pass names are kept by the graph until the next reset: a table, never formatted. */
static const char *const CASCADE_PASS_NAMES[KILN_CASCADE_COUNT] = {
    "cascade shadow 0", "cascade shadow 1", "cascade shadow 2", "cascade shadow 3",
};

static void record_cascade(kiln_fg_context *ctx, void *user) {
    cascade_pass *p = user;
    kiln_renderer *r = p->r;
    renderer_draw_view(r, ctx->render, &r->views[p->view], RENDER_DRAW_DEPTH, false, r->pass_group, &r->stats.shadow_draw_calls);
}

static void record_atlas(kiln_fg_context *ctx, void *user) {
    shadows_state *s = user;
    kiln_renderer *r = s->r;
    const kiln_shadow_atlas *atlas = &r->shadows.atlas;
    uint32_t per_row = atlas->size / atlas->tile_size, tile = atlas->tile_size;
    for (uint32_t i = 0; i < atlas->count && !ctx->render->failed; i++) {
        uint32_t x = (atlas->views[i].tile % per_row) * tile, y = (atlas->views[i].tile / per_row) * tile;
        kiln_render_pass_set_viewport(ctx->render, (float)x, (float)y, (float)tile, (float)tile);
        kiln_render_pass_set_scissor(ctx->render, x, y, tile, tile);
        renderer_draw_view(r, ctx->render, &r->views[r->shadows.atlas_first_view + i], RENDER_DRAW_DEPTH, false, r->pass_group,
                           &r->stats.shadow_draw_calls);
    }
}

static void declare_atlas(kiln_renderer *r, shadows_state *s, render_frame *f) {
    f->shadow_atlas = (kiln_fg_resource){0};
    if (!r->shadows.atlas.count) return;
    uint32_t size = r->shadows.atlas.size;
    kiln_fg_texture_desc atlas = {.width = size, .height = size, .format = RENDER_DEPTH_FORMAT,
                                  .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_TextureBinding};
    f->shadow_atlas = kiln_frame_graph_create_transient(r->graph, "shadow atlas", &atlas);
    s->r = r;
    uint32_t pass = kiln_frame_graph_add_pass(r->graph, "atlas shadows", record_atlas, s);
    kiln_frame_graph_depth(r->graph, pass, f->shadow_atlas, 0.0f, false); /* cleared whole: unused tiles stay lit */
}

static void declare_shadows(kiln_renderer *r, void *state, render_frame *f) {
    shadows_state *s = state;
    f->cascade_maps = (kiln_fg_resource){0};
    declare_atlas(r, s, f);
    if (!r->shadows.cascade_count) return;
    uint32_t size = r->settings.cascade_resolution;
    kiln_fg_texture_desc maps = {.width = size, .height = size, .format = RENDER_DEPTH_FORMAT,
                                 .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_TextureBinding,
                                 .layers = KILN_CASCADE_COUNT};
    f->cascade_maps = kiln_frame_graph_create_transient(r->graph, "cascade maps", &maps);
    for (uint32_t i = 0; i < KILN_CASCADE_COUNT; i++) {
        s->passes[i] = (cascade_pass){.r = r, .view = r->shadows.first_view + i};
        kiln_fg_resource layer = kiln_frame_graph_subresource(r->graph, f->cascade_maps, 0, i);
        uint32_t pass = kiln_frame_graph_add_pass(r->graph, CASCADE_PASS_NAMES[i], record_cascade, &s->passes[i]);
        kiln_frame_graph_depth(r->graph, pass, layer, 0.0f, false); /* reverse-Z: 0 is farthest from the sun */
    }
}

const render_feature render_feature_shadows = {
    .name = "shadows", .state_size = sizeof(shadows_state), .declare = declare_shadows,
};
