// Tone mapping: the bloom added to the RGBA16F scene colour, then exposure and the tone curve,
// into the target; debug views bypass all three. Unorm targets get the sRGB encode here, sRGB
// targets in the hardware.
#include "kiln_enums.wgsl"
#include "common.wgsl"
#include "tonemap_curves.wgsl"
#include "srgb.wgsl"
#include "fullscreen.wgsl"

// Written by the tone-map feature (src/render/features/tonemap.c, uniforms.c).
struct Post {
    exposure: f32,
    tonemapper: u32,
    output_srgb_encode: u32,      // 1 when the target is a unorm format the shader must encode
    bloom_strength: f32,          // settings.bloom_strength: how much of the bloom chain is added
    background: u32,              // kiln_background_mode: BACKGROUND_SKY, _COLOR or _TRANSPARENT
    premultiply: u32,             // 1: write colour times coverage (FXAA follows, and divides it out)
    background_color: vec3<f32>,  // background 1: the display colour composited under the image
};

@group(3) @binding(0) var hdr_texture: texture_2d<f32>;
@group(3) @binding(1) var<uniform> post: Post;
// Mip 0 of the bloom chain (half size, sampled bilinearly), or a black texel with bloom off.
@group(3) @binding(2) var bloom_texture: texture_2d<f32>;
@group(3) @binding(3) var bloom_sampler: sampler;

// The HDR target holds colour premultiplied by coverage: opaque surfaces and the sky write
// alpha 1, blending accumulates it, and without a sky the target starts at (0, 0, 0, 0), so a
// background pixel has alpha 0 and an MSAA edge its share of covered samples. With the sky the
// alpha is 1 everywhere and this is the plain tone map.
@fragment
fn fs_tonemap(in: FullscreenOut) -> @location(0) vec4<f32> {
    let hdr = textureLoad(hdr_texture, vec2<i32>(in.clip.xy), 0);
    if (view.debug_mode != DEBUG_NONE) {
        var debug_color = clamp(hdr.rgb, vec3<f32>(0.0), vec3<f32>(1.0));
        if (post.output_srgb_encode == 1u) {
            debug_color = srgb_encode(debug_color);
        }
        return vec4<f32>(debug_color, 1.0);
    }
    let coverage = select(clamp(hdr.a, 0.0, 1.0), 1.0, post.background == BACKGROUND_SKY);
    // Tone curves are not linear, so the colour is un-premultiplied before the curve and the
    // coverage applied after it.
    var color = hdr.rgb / max(coverage, 1e-4);
    // Added, not mixed: the chain holds only the light above the threshold, so a mix would
    // dim everything below it by the strength.
    color += post.bloom_strength * textureSampleLevel(bloom_texture, bloom_sampler, in.uv, 0.0).rgb;
    color = tonemap_apply(post.tonemapper, color, post.exposure);
    if (post.output_srgb_encode == 1u) {
        color = srgb_encode(color);
    }
    if (post.background == BACKGROUND_COLOR) {
        // Composited in display values, so the backdrop is exactly the colour asked for. sRGB
        // targets encode in hardware and float targets hold linear display values, so for both
        // the mix is decoded back to linear.
        if (post.output_srgb_encode == 1u) {
            return vec4<f32>(mix(post.background_color, color, coverage), 1.0);
        }
        return vec4<f32>(srgb_decode(mix(post.background_color, srgb_encode(color), coverage)), 1.0);
    }
    if (post.premultiply == 1u) {
        return vec4<f32>(color * coverage, coverage);
    }
    return vec4<f32>(color * step(1e-4, coverage), coverage);
}
