// What the environment looks like in a direction: the procedural sky, or an equirectangular map.
// Shared by the sky pass (the background) and the environment bake (ibl.wgsl), so the light the
// scene receives and the sky behind it are one function. Needs PI.

// The procedural sky towards d (unit): zenith above the horizon, ground below, blended across a
// narrow band at the horizon, and the sun's glow around the direction it shines from. The disc
// itself only when `disc`: the bake leaves it out, because the sun already lights the scene
// directly, and a disc baked into the environment would add its light a second time.
fn procedural_sky(d: vec3<f32>, zenith: vec3<f32>, ground: vec3<f32>, has_sun: bool, sun_direction: vec3<f32>,
                  sun_color: vec3<f32>, sun_intensity: f32, disc: bool) -> vec3<f32> {
    let t = smoothstep(-0.05, 0.35, d.y);
    let below = smoothstep(0.02, -0.2, d.y);
    var color = mix(mix(ground, zenith * 0.8 + vec3<f32>(0.12), 1.0 - t), zenith, t);
    color = mix(color, ground, below);
    if (has_sun) {
        let cos_sun = dot(d, -sun_direction);
        // A disc of about half a degree and a soft glow around it.
        let disc_share = select(0.0, smoothstep(0.99995, 0.99998, cos_sun), disc);
        let glow = pow(max(cos_sun, 0.0), 256.0) * 0.5;
        color += sun_color * (disc_share * 50.0 + glow) * sun_intensity;
    }
    return color;
}

// Where direction d (unit) falls in an equirectangular map turned by `rotation` = (cos r, sin r)
// about +Y: d is turned back by -r, then longitude atan2(z, x) puts +X at the image centre and +Z
// three quarters across (the glTF Sample Renderer's mapping), latitude puts +Y on the top row.
fn equirect_uv(d: vec3<f32>, rotation: vec2<f32>) -> vec2<f32> {
    let x = rotation.x * d.x - rotation.y * d.z;
    let z = rotation.y * d.x + rotation.x * d.z;
    let u = 0.5 + atan2(z, x) / (2.0 * PI);
    let v = acos(clamp(d.y, -1.0, 1.0)) / PI;
    return vec2<f32>(u, v);
}

// The map's radiance towards d, bilinear from its base level (the sampler repeats in u, so the
// seam at the back blends across).
fn equirect_radiance(map: texture_2d<f32>, map_sampler: sampler, d: vec3<f32>, rotation: vec2<f32>) -> vec3<f32> {
    return textureSampleLevel(map, map_sampler, equirect_uv(d, rotation), 0.0).rgb;
}
