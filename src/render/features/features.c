/* The feature list: every frame declares these, in this order. */
#include "features.h"

#define RENDER_FEATURE_LIST(X) \
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
