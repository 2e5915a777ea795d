/* Image-based lighting: the environment (the procedural sky or an equirectangular map) baked into
 * the irradiance and prefiltered cubes and the BRDF table (ibl.c), which the shading passes
 * sample. The bake is its own submit, made in `prepare` before anything of the frame is recorded,
 * and only when what the environment shows changed. The feature has no pass of its own: it owns
 * the bake's state, the Bake block, and the shading group's bindings 8..11. The sky pass draws the
 * same environment through ibl_sky_group. */
#include "features.h"
#include "../ibl.h"

static const render_block_use BLOCKS[] = {{"ibl.wgsl", &kiln_bake_block}};

enum { BIND_IRRADIANCE, BIND_PREFILTERED, BIND_BRDF_LUT, BIND_SAMPLER, BINDINGS_COUNT };
static const render_binding BINDINGS[BINDINGS_COUNT] = {
    [BIND_IRRADIANCE] = {{.binding = 8, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_TEXTURE_CUBE},
                         "irradiance_map"},
    [BIND_PREFILTERED] = {{.binding = 9, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_TEXTURE_CUBE},
                          "prefiltered_map"},
    [BIND_BRDF_LUT] = {{.binding = 10, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_TEXTURE_2D},
                       "brdf_lut"},
    [BIND_SAMPLER] = {{.binding = 11, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_FILTERING_SAMPLER},
                      "ibl_sampler"},
};

static bool create_ibl(kiln_renderer *r, void *state, kiln_error *err) { return renderer_ibl_create(r, state, err); }

static void destroy_ibl(kiln_renderer *r, void *state) { renderer_ibl_destroy(r, state); }

static bool prepare_ibl(kiln_renderer *r, void *state, const kiln_render_scene *scene, kiln_error *err) {
    return renderer_ibl_update(r, state, &scene->environment, &r->lights.sun, r->lights.has_sun, err);
}

/* The same textures for every pass: the bake finished before the frame's submit. */
static bool bind_ibl(kiln_renderer *r, void *state, kiln_fg_context *ctx, kiln_binding_resource *out) {
    (void)r, (void)ctx;
    const renderer_ibl *ibl = state;
    out[BIND_IRRADIANCE].view = ibl->irradiance_cube;
    out[BIND_PREFILTERED].view = ibl->prefiltered_cube;
    out[BIND_BRDF_LUT].view = ibl->brdf_lut_view;
    out[BIND_SAMPLER].sampler = ibl->sampler;
    return true;
}

const render_feature render_feature_ibl = {
    .name = "ibl", .state_size = sizeof(renderer_ibl),
    .blocks = BLOCKS, .block_count = KILN_ARRAY_COUNT(BLOCKS), .bindings = BINDINGS, .binding_count = BINDINGS_COUNT,
    .create = create_ibl, .destroy = destroy_ibl, .prepare = prepare_ibl, .bind = bind_ibl,
};

renderer_ibl *renderer_ibl_of(const kiln_renderer *r) { return renderer_feature_state(r, &render_feature_ibl); }

kiln_bind_group renderer_ibl_sky_group(const kiln_renderer *r) { return renderer_ibl_of(r)->sky_group; }

void kiln_renderer_invalidate_environment(kiln_renderer *r) { renderer_ibl_of(r)->invalidated = true; }
