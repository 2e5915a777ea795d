/* The feature list: every frame declares these, in this order. */
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
    X(bloom)                   \
    X(tonemap)                 \
    X(fxaa)

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
