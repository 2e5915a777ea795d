/* The GPU light record (internal to the renderer): 64 bytes per packed point or spot light, in a
 * storage buffer, and the packing of a scene's lights into them. Each frame the renderer packs
 * them with render_frame_lights_gather into its one persistent array of KILN_MAX_LIGHTS records,
 * handing out the atlas views in the same loop; kiln_pack_lights_into is that loop without an
 * atlas, into arrays the caller owns. Neither allocates. */
#ifndef KILN_RENDER_LIGHT_RECORDS_H
#define KILN_RENDER_LIGHT_RECORDS_H

#include <stddef.h>

#include <kiln/render/lights.h>

#include "shadow_atlas.h"

/* The GPU light record: 64 bytes, one per packed point or spot light, in a storage buffer.
 * Mirrored field for field by `struct Light` in src/render/shaders/lights.wgsl, compared with it by
 * reflection (the light-cull feature's block, from this struct's offsetof) whenever a program loads.
 *
 *   offset  field            meaning
 *        0  position         world-space position (metres)
 *       12  range            culling radius and falloff end (metres, >= 0)
 *       16  color_intensity  linear colour times intensity in watts (the shader owns the
 *                            watts-to-radiance conversion)
 *       28  kind             KILN_LIGHT_POINT or KILN_LIGHT_SPOT (u32)
 *       32  direction        unit direction the light travels (zero for point lights)
 *       44  shadow_view      first shadow view index, -1 for none (i32; the packer writes -1)
 *       48  cos_inner        cos(inner_angle); -1 for point lights
 *       52  cos_outer        cos(outer_angle); -1 for point lights
 *       56  spot_scale       1 / max(cos_inner - cos_outer, 1e-4); 0 for point lights
 *       60  spot_offset      -cos_outer * spot_scale; 1 for point lights
 *
 * spot_scale and spot_offset let the shader compute the cone factor with one multiply-add for
 * both kinds: saturate(dot(-L, direction) * spot_scale + spot_offset) is 1 for a point light. */
typedef struct kiln_gpu_light {
    kiln_vec3 position;
    float range;
    kiln_vec3 color_intensity;
    uint32_t kind;
    kiln_vec3 direction;
    int32_t shadow_view;
    float cos_inner;
    float cos_outer;
    float spot_scale;
    float spot_offset;
} kiln_gpu_light;


/* The record of one point or spot light (a sun gives the record of a point light: suns are never
 * packed). Angles are clamped: outer to [0, pi/2], inner to [0, outer]; a negative range to 0. */
kiln_gpu_light kiln_gpu_light_from(const kiln_light *light);

/* Splits a scene's lights: the first KILN_LIGHT_SUN is copied to *sun_out with *has_sun = true
 * (later suns are ignored; with none, *has_sun = false and *sun_out is left as it was); point and
 * spot lights are packed into out[] in scene order, at most max_out of them (the renderer passes
 * KILN_MAX_LIGHTS), the rest dropped. Returns how many records were written. sun_out and has_sun
 * may be NULL; out may be NULL only when max_out is 0. Never allocates. */
uint32_t kiln_pack_lights_into(const kiln_light *lights, uint32_t count, kiln_gpu_light *out, uint32_t max_out,
                               kiln_light *sun_out, bool *has_sun);

/* A frame's lights, ordered, packed and given their shadow views by one loop, so the order of
 * the records and of the atlas tiles cannot disagree. */
typedef struct render_frame_lights {
    kiln_gpu_light records[KILN_MAX_LIGHTS]; /* the point and spot lights, in scene order */
    uint32_t count;
    kiln_light sun;                          /* the first sun, when has_sun */
    bool has_sun;
    kiln_shadow_atlas atlas;                 /* the casting lights' views, in record order */
    uint32_t shadowed;                       /* records with an atlas view */
} render_frame_lights;

/* kiln_pack_lights_into's split into `out`, and with `shadows` every casting spot or point light
 * handed its views in an atlas of `atlas_size` texels in tiles of `atlas_tile` as its record is
 * packed (shadow_view the first view, or -1 when they do not fit). Never allocates. */
void render_frame_lights_gather(render_frame_lights *out, const kiln_light *lights, uint32_t count, bool shadows,
                                uint32_t atlas_size, uint32_t atlas_tile);

#endif
