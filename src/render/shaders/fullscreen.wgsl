// The fullscreen triangle the sky and tone-map passes draw: vertices 0, 1, 2 cover the viewport
// (clip z 0, the far plane in reverse-Z).

struct FullscreenOut {
    @builtin(position) clip: vec4<f32>,
};

@vertex
fn vs_fullscreen(@builtin(vertex_index) vertex: u32) -> FullscreenOut {
    let x = f32((vertex << 1u) & 2u);
    let y = f32(vertex & 2u);
    var out: FullscreenOut;
    out.clip = vec4<f32>(x * 2.0 - 1.0, 1.0 - y * 2.0, 0.0, 1.0);
    return out;
}
