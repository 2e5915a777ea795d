/* The feature list: every frame declares these, in this order. A filter of the display image
 * (fxaa) is listed before the tone map: it takes "display" as its destination and publishes its
 * own input there, so the filter listed first runs last (features/fxaa.c). */
#include "features.h"

#define RENDER_FEATURE_LIST(X) \
    X(ibl)                     \
    X(shadows)                 \
    X(prepass)                 \
    X(data_outputs)            \
    X(ao)                      \
    X(light_cull)              \
    X(forward_opaque)          \
    X(sky)                     \
    X(forward_blend)           \
    X(wireframe)               \
    X(fxaa)                    \
    X(color_grading)           \
    X(bloom)                   \
    X(tonemap)

#define DECLARE_FEATURE(name) extern const render_feature render_feature_##name;
RENDER_FEATURE_LIST(DECLARE_FEATURE)

#define LIST_FEATURE(name) &render_feature_##name,
const render_feature *const render_features[] = {RENDER_FEATURE_LIST(LIST_FEATURE)};

const uint32_t render_feature_count = sizeof render_features / sizeof render_features[0];

void *renderer_feature_state(const kiln_renderer *r, const render_feature *feature) {
    for (uint32_t i = 0; i < render_feature_count; i++)
        if (render_features[i] == feature) return r->feature_state[i];
    return NULL;
}
