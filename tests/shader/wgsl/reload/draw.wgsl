// draw.wgsl: a full-screen triangle filled with COLOR (from value.wgsl).
#include "value.wgsl"

@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    let corner = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4f(corner * 2.0 - 1.0, 0.0, 1.0);
}

@fragment fn fs_main() -> @location(0) vec4f { return COLOR; }
