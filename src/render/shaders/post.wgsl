// Tone mapping: exposure and the tone curve from the RGBA16F scene colour into the target; debug
// views bypass both. Unorm targets get the sRGB encode here, sRGB targets in the hardware.
#include "common.wgsl"
#include "tonemap_curves.wgsl"
#include "fullscreen.wgsl"

@group(3) @binding(0) var hdr_texture: texture_2d<f32>;

@fragment
fn fs_tonemap(in: FullscreenOut) -> @location(0) vec4<f32> {
    let hdr = textureLoad(hdr_texture, vec2<i32>(in.clip.xy), 0);
    var color = hdr.rgb;
    if (frame.debug_mode == DEBUG_NONE) {
        color = tonemap_apply(frame.tonemapper, color, frame.exposure);
    } else {
        color = clamp(color, vec3<f32>(0.0), vec3<f32>(1.0));
    }
    if (frame.output_srgb_encode == 1u) {
        color = srgb_encode(color);
    }
    return vec4<f32>(color, 1.0);
}
