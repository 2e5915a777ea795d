// Tone mapping: the bloom added to the RGBA16F scene colour, then exposure and the tone curve,
// into the target; debug views bypass all three. Unorm targets get the sRGB encode here, sRGB
// targets in the hardware.
#include "common.wgsl"
#include "tonemap_curves.wgsl"
#include "fullscreen.wgsl"

// Written by the tone-map feature (src/render/features/tonemap.c, uniforms.c).
struct Post {
    exposure: f32,
    tonemapper: u32,
    output_srgb_encode: u32,      // 1 when the target is a unorm format the shader must encode
    bloom_strength: f32,          // settings.bloom_strength: how much of the bloom chain is added
};

@group(3) @binding(0) var hdr_texture: texture_2d<f32>;
@group(3) @binding(1) var<uniform> post: Post;
// Mip 0 of the bloom chain (half size, sampled bilinearly), or a black texel with bloom off.
@group(3) @binding(2) var bloom_texture: texture_2d<f32>;
@group(3) @binding(3) var bloom_sampler: sampler;

@fragment
fn fs_tonemap(in: FullscreenOut) -> @location(0) vec4<f32> {
    let hdr = textureLoad(hdr_texture, vec2<i32>(in.clip.xy), 0);
    var color = hdr.rgb;
    if (view.debug_mode == DEBUG_NONE) {
        // Added, not mixed: the chain holds only the light above the threshold, so a mix would
        // dim everything below it by the strength.
        color += post.bloom_strength * textureSampleLevel(bloom_texture, bloom_sampler, in.uv, 0.0).rgb;
        color = tonemap_apply(post.tonemapper, color, post.exposure);
    } else {
        color = clamp(color, vec3<f32>(0.0), vec3<f32>(1.0));
    }
    if (post.output_srgb_encode == 1u) {
        color = srgb_encode(color);
    }
    return vec4<f32>(color, 1.0);
}
