// value.wgsl: the constants both programs read; tests rewrite this file in a scratch copy.
const VALUE: u32 = 1u;
const COLOR: vec4f = vec4f(1.0, 0.0, 0.0, 1.0);
