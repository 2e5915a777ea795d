/* Image-based lighting: the environment baked into the textures the forward pass lights with.
 *
 *   environment  256 px cube, full mip chain (9): the sky or the equirectangular map
 *   prefiltered  128 px cube, 6 mips: mip m is the environment through the GGX lobe of
 *                perceptual roughness m / 5 (mip 0 a mirror)
 *   irradiance   32 px cube: the cosine-weighted mean radiance, so diffuse = albedo * irradiance
 *   brdf lut     256 x 256: the split-sum scale (r) and bias (g) of f0 by n.v (x) and roughness (y)
 *
 * All Rgba16Float. The bake (shaders/ibl.wgsl) is compute passes in a command buffer of its own,
 * submitted before the frame that needs it: only when the environment, or the sun for the
 * procedural sky, differs from the last bake, after a shader reload, or after
 * kiln_renderer_invalidate_environment. The BRDF table depends on nothing and is made once. */
#ifndef KILN_RENDER_IBL_H
#define KILN_RENDER_IBL_H

#include <kiln/gfx.h>
#include <kiln/render/lights.h>
#include <kiln/render/scene.h>

#define KILN_IBL_ENVIRONMENT_SIZE 256
#define KILN_IBL_ENVIRONMENT_MIPS 9   /* 256 down to 1 */
#define KILN_IBL_PREFILTERED_SIZE 128
#define KILN_IBL_PREFILTERED_MIPS 6   /* 128 down to 4: roughness 0, 0.2, ..., 1 */
#define KILN_IBL_IRRADIANCE_SIZE 32
#define KILN_IBL_BRDF_LUT_SIZE 256
#define KILN_IBL_BRDF_LUT_SAMPLES 256 /* shaders/ibl.wgsl's BRDF_LUT_SAMPLES */

/* The ibl.wgsl entry points, in the order a bake runs them. */
typedef enum ibl_step { IBL_ENVIRONMENT, IBL_DOWNSAMPLE, IBL_PREFILTER, IBL_IRRADIANCE, IBL_BRDF_LUT, IBL_STEPS } ibl_step;

/* What a bake reads: the environment (defaults applied) and the sun it glows around. */
typedef struct ibl_source {
    kiln_environment environment;
    bool has_sun;
    kiln_vec3 sun_direction, sun_color;
    kiln_texture_view equirect;        /* the map's view when environment.equirect is set */
} ibl_source;

typedef struct renderer_ibl {
    kiln_texture environment, prefiltered, irradiance, brdf_lut, placeholder;
    /* Sampled whole: cube views of the cubes (every mip), the table, the placeholder (a black
     * texel standing in for the map when the sky is procedural). */
    kiln_texture_view environment_cube, prefiltered_cube, irradiance_cube, brdf_lut_view, placeholder_view;
    /* Written one mip at a time: a 2D-array view of each mip of each cube (six layers). */
    kiln_texture_view environment_levels[KILN_IBL_ENVIRONMENT_MIPS];
    kiln_texture_view prefiltered_levels[KILN_IBL_PREFILTERED_MIPS];
    kiln_texture_view irradiance_level;
    kiln_sampler sampler;             /* linear, trilinear; repeats in u for the map's seam */
    kiln_buffer uniform;              /* Bake blocks, one 256-byte slot per dispatch */
    kiln_shader program;
    kiln_bind_group_layout layouts[IBL_STEPS];
    kiln_pipeline_layout pipeline_layouts[IBL_STEPS];
    kiln_compute_pipeline pipelines[IBL_STEPS];
    /* Groups that never change: each downsample, prefilter mip, the irradiance and the table. */
    kiln_bind_group downsample_groups[KILN_IBL_ENVIRONMENT_MIPS - 1];
    kiln_bind_group prefilter_groups[KILN_IBL_PREFILTERED_MIPS];
    kiln_bind_group irradiance_group, brdf_lut_group;
    /* The sky pass's group 1 (the map or the placeholder, and the sampler), by the map's view. */
    kiln_bind_group_layout sky_layout;
    kiln_bind_group sky_group;
    kiln_texture_view sky_group_view;

    bool baked, brdf_lut_baked, invalidated;
    ibl_source last;                  /* what the current cubes were baked from */
} renderer_ibl;

typedef struct kiln_renderer kiln_renderer;

bool renderer_ibl_create(kiln_renderer *r, renderer_ibl *ibl, kiln_error *err);
void renderer_ibl_destroy(kiln_renderer *r, renderer_ibl *ibl);
/* Checks the scene's environment (an equirect id must name a plain Rgba16Float texture of the
 * renderer's registry; the rotation must be finite) and, when what it shows changed since the
 * last bake, bakes and submits. Sets stats.environment_bakes. Fails, baking nothing, naming the
 * field at fault. */
bool renderer_ibl_update(kiln_renderer *r, renderer_ibl *ibl, const kiln_environment *environment, const kiln_light *sun,
                         bool has_sun, kiln_error *err);

/* The renderer's bake state (features/ibl.c owns it) and the sky pass's group 1: the map or the
 * placeholder, and the sampler. */
renderer_ibl *renderer_ibl_of(const kiln_renderer *r);
kiln_bind_group renderer_ibl_sky_group(const kiln_renderer *r);

#endif
