/* Cascade shadows: the sun's four cascade maps, one Depth32Float 2D array transient of
 * settings.cascade_resolution texels and four layers, each layer a sub-resource drawn by its own
 * depth-only render pass from its cascade's shadow view (shadows.c fitted and batched them). The
 * shading passes read the array whole, so the graph runs all four passes before them. With no
 * cascade this frame (shadows disabled, no casting sun) nothing is declared. */
#include "features.h"

typedef struct cascade_pass {
    kiln_renderer *r;
    uint32_t view;      /* index into r->views */
} cascade_pass;

typedef struct shadows_state {
    cascade_pass passes[KILN_CASCADE_COUNT];
} shadows_state;

/* Pass names are kept by the graph until the next reset: a table, never formatted. */
static const char *const CASCADE_PASS_NAMES[KILN_CASCADE_COUNT] = {
    "cascade shadow 0", "cascade shadow 1", "cascade shadow 2", "cascade shadow 3",
};

static void record_cascade(kiln_fg_context *ctx, void *user) {
    cascade_pass *p = user;
    kiln_renderer *r = p->r;
    renderer_draw_view(r, ctx->render, &r->views[p->view], true, false, r->pass_group, &r->stats.shadow_draw_calls);
}

static void declare_shadows(kiln_renderer *r, void *state, render_frame *f) {
    shadows_state *s = state;
    f->cascade_maps = (kiln_fg_resource){0};
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
