// The procedural sky: a fullscreen triangle at depth 0 (infinitely far in reverse-Z), so the
// GreaterEqual depth test keeps it only where no geometry was drawn.
#include "common.wgsl"
#include "fullscreen.wgsl"

@fragment
fn fs_sky(in: FullscreenOut) -> @location(0) vec4<f32> {
    if (view.debug_mode != DEBUG_NONE) {
        return vec4<f32>(0.0, 0.0, 0.0, 1.0);
    }
    let d = view_ray(in.clip.xy);
    // Zenith above the horizon, ground below, blended across a narrow band at the horizon.
    let t = smoothstep(-0.05, 0.35, d.y);
    let below = smoothstep(0.02, -0.2, d.y);
    var color = mix(mix(lighting.sky_ground, lighting.sky_zenith * 0.8 + vec3<f32>(0.12), 1.0 - t), lighting.sky_zenith, t);
    color = mix(color, lighting.sky_ground, below);
    if (lighting.has_sun == 1u) {
        let cos_sun = dot(d, -lighting.sun_direction);
        // A disc of about half a degree and a soft glow around it.
        let disc = smoothstep(0.99995, 0.99998, cos_sun);
        let glow = pow(max(cos_sun, 0.0), 256.0) * 0.5;
        color += lighting.sun_color * (disc * 50.0 + glow) * lighting.sky_sun_intensity;
    }
    return vec4<f32>(color * lighting.ibl_intensity, 1.0);
}
