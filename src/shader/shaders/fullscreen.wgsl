// One triangle that covers the whole target, so each pixel runs the fragment entry point exactly
// once: the vertex stage of every fragment pass of an authored program, and of the renderer's sky
// and tone-map passes (which #include this file and read FullscreenOut in their fragment entry).
//
// clip is at clip-space z 0 (the far plane in reverse-Z); in a fragment entry it is the pixel's
// framebuffer position. uv follows the texture convention: (0, 0) is the top-left corner of the
// target and (1, 1) the bottom-right, so uv addresses a pass's inputs directly.

struct FullscreenOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) uv: vec2<f32>,
};

@vertex
fn vs_fullscreen(@builtin(vertex_index) index: u32) -> FullscreenOut {
    // Vertices 0, 1, 2 sit at uv (0, 0), (2, 0), (0, 2): the triangle's corner past each edge of
    // the target keeps the diagonal outside it.
    let uv = vec2<f32>(f32((index << 1u) & 2u), f32(index & 2u));
    var out: FullscreenOut;
    out.clip = vec4<f32>(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0, 0.0, 1.0);
    out.uv = uv;
    return out;
}
