/* Renderer features: each family of passes (depth prepass, light culling, forward shading, sky,
 * tone mapping, ...) is one file that owns its pipelines and per-feature state and, every frame,
 * declares its passes into the frame graph with the functions that record them. Features hand
 * resources on through the named handles of render_frame.
 *
 * Adding a pass: write features/<name>.c defining `const render_feature render_feature_<name>`,
 * and add X(<name>) to the list in features/features.c where its passes belong in the frame (the
 * list's order is the declaration order, which breaks ties in the graph's execution order). */
#ifndef KILN_RENDER_FEATURES_H
#define KILN_RENDER_FEATURES_H

#include "../renderer_internal.h"

typedef struct render_feature {
    const char *name;
    size_t state_size;       /* bytes of zeroed state the renderer allocates for the feature */
    /* Builds what the feature keeps for the renderer's life (pipelines, layouts). May be NULL. */
    bool (*create)(kiln_renderer *r, void *state, kiln_error *err);
    /* Releases it; called for every feature whose state was allocated, even after a failed
     * create (state is then partly built). May be NULL. */
    void (*destroy)(kiln_renderer *r, void *state);
    /* Declares this frame's passes (or none) into r->graph, reading and setting handles in f. */
    void (*declare)(kiln_renderer *r, void *state, render_frame *f);
} render_feature;

/* The clear of the HDR target, for whichever pass writes it first: alpha is coverage, so
 * without a sky (settings.background) a pixel nothing draws stays at alpha 0. */
static inline WGPUColor renderer_hdr_clear(const kiln_renderer *r) {
    return (WGPUColor){0, 0, 0, r->settings.background == KILN_BACKGROUND_SKY ? 1.0 : 0.0};
}

extern const render_feature *const render_features[];
extern const uint32_t render_feature_count;

#endif
