// kiln-run fixture: writes an exact R32Float plane, texel (x, y) = x + 10 y + params.offset, plus
// the source's alpha at (0, 0) minus one (exactly 0 for an opaque source), so the pass reads its
// Texel input and its uniform window.
struct Params { offset: f32, pad0: f32, pad1: f32, pad2: f32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(1) @binding(0) var source: texture_2d<f32>;

@fragment
fn fs_plane(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    let texel = floor(position.xy);
    let alpha = textureLoad(source, vec2<i32>(0, 0), 0).a;
    return vec4<f32>(texel.x + 10.0 * texel.y + params.offset + alpha - 1.0, 0.0, 0.0, 1.0);
}
