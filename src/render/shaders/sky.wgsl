// The sky: a fullscreen triangle at depth 0 (infinitely far in reverse-Z), so the GreaterEqual
// depth test keeps it only where no geometry was drawn. The procedural sky is evaluated per
// pixel, sun disc included; an equirectangular map is sampled at its own resolution. Either is
// sharper than the baked cubes, which exist for lighting.
#include "common.wgsl"
#include "fullscreen.wgsl"
#include "sky_model.wgsl"

// The environment's map, or a one-texel placeholder when it has none (lighting.has_equirect 0).
@group(1) @binding(0) var equirect_map: texture_2d<f32>;
@group(1) @binding(1) var equirect_sampler: sampler;

@fragment
fn fs_sky(in: FullscreenOut) -> @location(0) vec4<f32> {
    if (view.debug_mode != DEBUG_NONE) {
        return vec4<f32>(0.0, 0.0, 0.0, 1.0);
    }
    let d = view_ray(in.clip.xy);
    var color: vec3<f32>;
    if (lighting.has_equirect == 1u) {
        color = equirect_radiance(equirect_map, equirect_sampler, d, lighting.env_rotation);
    } else {
        color = procedural_sky(d, lighting.sky_zenith, lighting.sky_ground, lighting.has_sun == 1u,
                               lighting.sun_direction, lighting.sun_color, lighting.sky_sun_intensity, true);
    }
    return vec4<f32>(color * lighting.ibl_intensity, 1.0);
}
