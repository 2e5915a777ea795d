// Tone mapping: exposure and the tone curve from the RGBA16F scene colour into the target; debug
// views bypass both. Unorm targets get the sRGB encode here, sRGB targets in the hardware.
#include "common.wgsl"
#include "tonemap_curves.wgsl"
#include "fullscreen.wgsl"

// Written by the tone-map feature (src/render/features/tonemap.c, uniforms.c).
struct Post {
    exposure: f32,
    tonemapper: u32,
    output_srgb_encode: u32,      // 1 when the target is a unorm format the shader must encode
    _pad: u32,
};

@group(3) @binding(0) var hdr_texture: texture_2d<f32>;
@group(3) @binding(1) var<uniform> post: Post;

@fragment
fn fs_tonemap(in: FullscreenOut) -> @location(0) vec4<f32> {
    let hdr = textureLoad(hdr_texture, vec2<i32>(in.clip.xy), 0);
    var color = hdr.rgb;
    if (view.debug_mode == DEBUG_NONE) {
        color = tonemap_apply(post.tonemapper, color, post.exposure);
    } else {
        color = clamp(color, vec3<f32>(0.0), vec3<f32>(1.0));
    }
    if (post.output_srgb_encode == 1u) {
        color = srgb_encode(color);
    }
    return vec4<f32>(color, 1.0);
}
