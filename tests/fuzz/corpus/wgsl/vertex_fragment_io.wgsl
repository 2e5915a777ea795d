struct VsOut {
  @builtin(position) pos: vec4f,
  @location(0) @interpolate(perspective, centroid) uv: vec2f,
  @location(1) @interpolate(flat) id: u32,
  @location(2) @interpolate(linear, sample) w: f32,
  @invariant @builtin(position) dup: vec4f,
}
struct FsOut { @location(0) colour: vec4f, @builtin(frag_depth) depth: f32, @builtin(sample_mask) mask: u32 }
@vertex fn vs(@builtin(vertex_index) vi: u32, @builtin(instance_index) ii: u32, @location(0) p: vec3f) -> VsOut {
  var o: VsOut; o.pos = vec4f(p, 1.0); return o;
}
@fragment fn fs(in: VsOut, @builtin(front_facing) ff: bool, @builtin(sample_index) si: u32) -> FsOut {
  var o: FsOut; o.colour = textureSample(t, s, in.uv); return o;
}
@group(0) @binding(0) var t: texture_cube_array<f32>;
@group(0) @binding(1) var s: sampler;
@group(0) @binding(2) var ms: texture_multisampled_2d<i32>;
@group(0) @binding(3) var ext: texture_external;
