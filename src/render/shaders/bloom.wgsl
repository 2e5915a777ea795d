// Physically based bloom (features/bloom.c), after Jorge Jimenez's "Next Generation Post
// Processing in Call of Duty: Advanced Warfare" (SIGGRAPH 2014): the HDR colour is filtered down
// a chain of mips, each half the size of the one above, with a 13-tap filter, then back up with a
// 3x3 tent filter whose result each level adds to its own downsample, so mip 0 ends up holding a
// wide, smooth blur: the sum of every level's blur of the bright parts of the image.
//
// prefilter  the resolved HDR (full size) into mip 0 (half size): non-finite texels cleared, the
//            13 taps grouped into five boxes averaged with Karis weights, the soft threshold
// downsample mip i - 1 into mip i, the 13-tap filter
// upsample   mip i + 1 added into mip i (additive blending), the tent filter
#include "fullscreen.wgsl"

// Written by the bloom feature (uniforms.c).
struct Bloom {
    threshold: f32,   // scene-linear value where bloom starts (settings.bloom_threshold)
    knee: f32,        // half-width of the soft transition around it
    _pad0: u32,
    _pad1: u32,
};

@group(0) @binding(0) var source_texture: texture_2d<f32>;
@group(0) @binding(1) var source_sampler: sampler;   // linear, clamp to edge
@group(0) @binding(2) var<uniform> bloom: Bloom;

// WGSL lets a compiler assume floats are finite, so isnan-style tests (x != x) may be folded
// away; the exponent bits cannot be. All ones is +-Inf or NaN.
fn bloom_is_finite(c: vec3<f32>) -> bool {
    let exponent = bitcast<vec3<u32>>(c) & vec3<u32>(0x7f800000u);
    return all(exponent != vec3<u32>(0x7f800000u));
}

// A source texel as the chain may use it: black where any channel is NaN or Inf (an overflowed
// half float, a division by zero upstream), so one broken pixel never spreads over the screen;
// negative values (never light) to zero.
fn bloom_source_texel(p: vec2<i32>) -> vec3<f32> {
    let last = vec2<i32>(textureDimensions(source_texture)) - 1;
    let c = textureLoad(source_texture, clamp(p, vec2<i32>(0), last), 0).rgb;
    return select(vec3<f32>(0.0), max(c, vec3<f32>(0.0)), bloom_is_finite(c));
}

fn bloom_luma(c: vec3<f32>) -> f32 {
    return dot(c, vec3<f32>(0.2126, 0.7152, 0.0722));
}

// Karis's weight: a box averaged by 1 / (1 + luma) counts less the brighter it is, so a few
// very bright texels (fireflies) cannot flicker the whole bloom from frame to frame.
fn bloom_karis_weight(c: vec3<f32>) -> f32 {
    return 1.0 / (1.0 + bloom_luma(c));
}

// The soft threshold: nothing below threshold - knee, everything above threshold + knee less
// the threshold, a quadratic between, so highlights fade into bloom without a visible edge.
fn bloom_soft_threshold(c: vec3<f32>) -> vec3<f32> {
    let brightness = max(c.r, max(c.g, c.b));
    var soft = clamp(brightness - bloom.threshold + bloom.knee, 0.0, 2.0 * bloom.knee);
    soft = soft * soft / (4.0 * bloom.knee + 1e-5);
    let contribution = max(soft, brightness - bloom.threshold) / max(brightness, 1e-5);
    return c * contribution;
}

// The first downsample reads texels one by one (textureLoad) rather than through bilinear taps,
// so a non-finite texel is cleared before anything averages it. The destination texel's centre
// is the corner between source texels 2p and 2p + 1; each of the 13 bilinear taps of the filter
// sits on a corner 0, 1 or 2 texels from it and is the mean of the 2x2 texels around that
// corner: 6x6 texels in all, loaded once.
@fragment
fn fs_bloom_prefilter(in: FullscreenOut) -> @location(0) vec4<f32> {
    let origin = vec2<i32>(in.clip.xy) * 2 - vec2<i32>(2);
    var texels: array<vec3<f32>, 36>;
    for (var y = 0; y < 6; y++) {
        for (var x = 0; x < 6; x++) {
            texels[y * 6 + x] = bloom_source_texel(origin + vec2<i32>(x, y));
        }
    }
    // tap(ox, oy): the 2x2 mean at the corner (ox, oy) texels from the centre, ox, oy in -2..2.
    var taps: array<vec3<f32>, 25>;
    for (var oy = 0; oy < 5; oy++) {
        for (var ox = 0; ox < 5; ox++) {
            let i = oy * 6 + ox;
            taps[oy * 5 + ox] = 0.25 * (texels[i] + texels[i + 1] + texels[i + 6] + texels[i + 7]);
        }
    }
    // Jimenez's five boxes: the inner one (the corners at +-1) weighs 0.5, the four outer ones
    // (each of four corners at 0 and +-2) 0.125; each box is weighted again by Karis.
    let inner = 0.25 * (taps[6] + taps[8] + taps[16] + taps[18]);
    let top_left = 0.25 * (taps[0] + taps[2] + taps[10] + taps[12]);
    let top_right = 0.25 * (taps[2] + taps[4] + taps[12] + taps[14]);
    let bottom_left = 0.25 * (taps[10] + taps[12] + taps[20] + taps[22]);
    let bottom_right = 0.25 * (taps[12] + taps[14] + taps[22] + taps[24]);
    let w_inner = 0.5 * bloom_karis_weight(inner);
    let w_tl = 0.125 * bloom_karis_weight(top_left);
    let w_tr = 0.125 * bloom_karis_weight(top_right);
    let w_bl = 0.125 * bloom_karis_weight(bottom_left);
    let w_br = 0.125 * bloom_karis_weight(bottom_right);
    let sum = inner * w_inner + top_left * w_tl + top_right * w_tr + bottom_left * w_bl + bottom_right * w_br;
    let color = sum / (w_inner + w_tl + w_tr + w_bl + w_br);
    return vec4<f32>(bloom_soft_threshold(color), 1.0);
}

// The 13-tap downsample: the same five boxes as the prefilter without Karis's weights, written
// out per bilinear tap: the four inner taps (at +-1 texel) weigh 0.5 / 4; the centre sits in all
// four outer boxes (4 x 0.125 / 4), each edge tap (0 and 2 apart) in two, each corner tap in one.
@fragment
fn fs_bloom_downsample(in: FullscreenOut) -> @location(0) vec4<f32> {
    let texel = 1.0 / vec2<f32>(textureDimensions(source_texture));
    let uv = in.uv;
    let a = textureSampleLevel(source_texture, source_sampler, uv + texel * vec2<f32>(-2.0, -2.0), 0.0).rgb;
    let b = textureSampleLevel(source_texture, source_sampler, uv + texel * vec2<f32>(0.0, -2.0), 0.0).rgb;
    let c = textureSampleLevel(source_texture, source_sampler, uv + texel * vec2<f32>(2.0, -2.0), 0.0).rgb;
    let d = textureSampleLevel(source_texture, source_sampler, uv + texel * vec2<f32>(-2.0, 0.0), 0.0).rgb;
    let e = textureSampleLevel(source_texture, source_sampler, uv, 0.0).rgb;
    let f = textureSampleLevel(source_texture, source_sampler, uv + texel * vec2<f32>(2.0, 0.0), 0.0).rgb;
    let g = textureSampleLevel(source_texture, source_sampler, uv + texel * vec2<f32>(-2.0, 2.0), 0.0).rgb;
    let h = textureSampleLevel(source_texture, source_sampler, uv + texel * vec2<f32>(0.0, 2.0), 0.0).rgb;
    let i = textureSampleLevel(source_texture, source_sampler, uv + texel * vec2<f32>(2.0, 2.0), 0.0).rgb;
    let j = textureSampleLevel(source_texture, source_sampler, uv + texel * vec2<f32>(-1.0, -1.0), 0.0).rgb;
    let k = textureSampleLevel(source_texture, source_sampler, uv + texel * vec2<f32>(1.0, -1.0), 0.0).rgb;
    let l = textureSampleLevel(source_texture, source_sampler, uv + texel * vec2<f32>(-1.0, 1.0), 0.0).rgb;
    let m = textureSampleLevel(source_texture, source_sampler, uv + texel * vec2<f32>(1.0, 1.0), 0.0).rgb;
    let color = e * 0.125 + (a + c + g + i) * 0.03125 + (b + d + f + h) * 0.0625 + (j + k + l + m) * 0.125;
    return vec4<f32>(color, 1.0);
}

// The 3x3 tent (weights 1 2 1 / 2 4 2 / 1 2 1, over 16) of the smaller mip, one of its texels
// apart, bilinearly magnified to this mip's size; the pipeline adds it to what this mip holds.
@fragment
fn fs_bloom_upsample(in: FullscreenOut) -> @location(0) vec4<f32> {
    let texel = 1.0 / vec2<f32>(textureDimensions(source_texture));
    let uv = in.uv;
    var color = textureSampleLevel(source_texture, source_sampler, uv, 0.0).rgb * 4.0;
    color += textureSampleLevel(source_texture, source_sampler, uv + texel * vec2<f32>(-1.0, 0.0), 0.0).rgb * 2.0;
    color += textureSampleLevel(source_texture, source_sampler, uv + texel * vec2<f32>(1.0, 0.0), 0.0).rgb * 2.0;
    color += textureSampleLevel(source_texture, source_sampler, uv + texel * vec2<f32>(0.0, -1.0), 0.0).rgb * 2.0;
    color += textureSampleLevel(source_texture, source_sampler, uv + texel * vec2<f32>(0.0, 1.0), 0.0).rgb * 2.0;
    color += textureSampleLevel(source_texture, source_sampler, uv + texel * vec2<f32>(-1.0, -1.0), 0.0).rgb;
    color += textureSampleLevel(source_texture, source_sampler, uv + texel * vec2<f32>(1.0, -1.0), 0.0).rgb;
    color += textureSampleLevel(source_texture, source_sampler, uv + texel * vec2<f32>(-1.0, 1.0), 0.0).rgb;
    color += textureSampleLevel(source_texture, source_sampler, uv + texel * vec2<f32>(1.0, 1.0), 0.0).rgb;
    return vec4<f32>(color / 16.0, 1.0);
}
