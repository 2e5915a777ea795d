/* Renderer features: each family of passes (shadows, depth prepass, light culling, forward
 * shading, sky, tone mapping, ...) is one file that owns everything it adds: its state (GPU
 * objects, pipelines, per-frame data), the uniform blocks it shares with its programs, the
 * bindings it adds to the shading group (group 3 of the scene passes) and, every frame, its passes.
 * Features hand graph resources on through the frame blackboard (blackboard.h) by name.
 *
 * Adding a feature: write features/<name>.c defining `const render_feature render_feature_<name>`
 * and add X(<name>) to the list in features/features.c where its passes belong in the frame (the
 * list's order is the order of every hook, and the declaration order breaks ties in the graph's
 * execution order; the graph orders passes by what they read and write, so a filter of the
 * display image is listed before the tone map it follows: features/fxaa.c). No other renderer file changes: the renderer assembles the shading group's
 * layout from the features' binding rows, checks their blocks and bindings against the WGSL when
 * a program loads, and calls the hooks below. docs/ARCHITECTURE.md walks through one. */
#ifndef KILN_RENDER_FEATURES_H
#define KILN_RENDER_FEATURES_H

#include "../renderer_internal.h"

/* A binding a feature adds to the shading group: its layout entry and the name of the var the
 * scene programs declare at @group(3) @binding(entry.binding), which the layout check compares
 * with the WGSL (number, name, kind) whenever a scene program loads. */
typedef struct render_binding {
    kiln_layout_entry entry;
    const char *wgsl_name;
} render_binding;

/* A uniform or storage block a feature shares with one of the renderer's programs: compared with
 * the program's struct by reflection whenever the program loads (uniforms.c). */
typedef struct render_block_use {
    const char *program;
    const block_layout *block;
} render_block_use;

typedef struct render_feature {
    const char *name;
    size_t state_size;       /* bytes of zeroed state the renderer allocates for the feature */
    const render_block_use *blocks;
    uint32_t block_count;
    const render_binding *bindings; /* in the shading group, which every scene pass binds */
    uint32_t binding_count;
    /* A program the feature draws with the scene layout: its group 3 vars are checked against
     * every feature's binding rows when it loads. NULL for none. */
    const char *scene_program;
    /* Rows of the settings table (kiln/render/settings_table.h) for fields of
     * kiln_render_settings the feature alone reads: the table lists them after the renderer's,
     * and kiln_render_settings_resolve checks their ranges and fills their zeros with their
     * defaults (renderer_resolve_feature_settings). */
    const kiln_render_setting *settings;
    uint32_t setting_count;
    /* Builds what the feature keeps for the renderer's life (pipelines, layouts). May be NULL. */
    bool (*create)(kiln_renderer *r, void *state, kiln_error *err);
    /* Releases it; called, in reverse list order, for every feature whose create was called,
     * even when it failed (state is then partly built). May be NULL. */
    void (*destroy)(kiln_renderer *r, void *state);
    /* Before the views, with the frame's facts and lights set: what must exist before any pass
     * records (an environment bake, the cluster uniform). May be NULL. */
    bool (*prepare)(kiln_renderer *r, void *state, const kiln_render_scene *scene, kiln_error *err);
    /* After the camera view: the feature's own views (shadow views) and the blocks that describe
     * them. May be NULL. */
    bool (*add_views)(kiln_renderer *r, void *state, const kiln_render_scene *scene, kiln_error *err);
    /* Declares this frame's passes (or none) into r->graph, publishing and reading names on
     * f->board. May be NULL. */
    void (*declare)(kiln_renderer *r, void *state, render_frame *f);
    /* Fills out[i] for bindings[i]. With `ctx` (a shading pass recording) the frame's resources
     * the feature published; without (the group depth passes bind, which may not sample what they
     * draw) its stand-ins. False with ctx->error set, or nothing set when a view is missing. */
    bool (*bind)(kiln_renderer *r, void *state, kiln_fg_context *ctx, kiln_binding_resource *out);
    /* Declares the frame resources its bindings read as reads of shading pass `pass`, so the graph
     * runs their writers first. NULL when they read none (fixed buffers and textures). */
    void (*shading_reads)(kiln_renderer *r, void *state, uint32_t pass);
    /* After the graph executed into `enc`: copies the feature reads back later. May be NULL. */
    void (*finish)(kiln_renderer *r, void *state, kiln_encoder *enc);
} render_feature;

/* The clear of the HDR target, for whichever pass writes it first: alpha is coverage, so
 * without a sky (settings.background) a pixel nothing draws stays at alpha 0. */
static inline WGPUColor renderer_hdr_clear(const kiln_renderer *r) {
    return (WGPUColor){0, 0, 0, r->settings.background == KILN_BACKGROUND_SKY ? 1.0 : 0.0};
}

extern const render_feature *const render_features[];
extern const uint32_t render_feature_count;

/* The state the renderer allocated for `feature` (one of render_features), for the few places
 * outside a feature that reach it: a test, kiln_renderer_invalidate_environment, and the sky,
 * which draws the environment the ibl feature keeps. */
void *renderer_feature_state(const kiln_renderer *r, const render_feature *feature);

/* The range checks and defaults of every feature's settings rows, for the resolver. */
bool renderer_resolve_feature_settings(kiln_render_settings *s, kiln_error *err);


#endif
