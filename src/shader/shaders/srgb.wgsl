// The sRGB transfer pair (IEC 61966-2-1), the one WGSL copy: the tone map's encode for unorm
// targets and its backdrop mix, and kiln-view's blit and UI, #include this file. The thresholds
// are the standard's own (0.04045 encoded, 0.0031308 linear) and match src/core/color.c, the
// CPU side. Inputs are clamped to [0, 1], where the curve is defined.

fn srgb_encode(c: vec3<f32>) -> vec3<f32> {
    let x = clamp(c, vec3<f32>(0.0), vec3<f32>(1.0));
    return select(1.055 * pow(x, vec3<f32>(1.0 / 2.4)) - 0.055, x * 12.92, x <= vec3<f32>(0.0031308));
}

fn srgb_decode(c: vec3<f32>) -> vec3<f32> {
    let x = clamp(c, vec3<f32>(0.0), vec3<f32>(1.0));
    return select(pow((x + 0.055) / 1.055, vec3<f32>(2.4)), x / 12.92, x <= vec3<f32>(0.04045));
}
