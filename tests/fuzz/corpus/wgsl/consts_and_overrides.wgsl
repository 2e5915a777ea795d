const N = 4;
const M = (N * 2 + 1) << 1u;
@id(7) override scale: f32 = 1.0;
override count: i32 = -3;
alias Vec = vec4<f32>;
alias Block = array<Vec, M>;
struct Light { @align(16) position: vec3f, @size(20) intensity: f32, colour: vec3<f16>, }
struct Lights { count: u32, items: array<Light, N>, tail: mat3x3f, }
@group(0) @binding(0) var<uniform> lights: Lights;
@group(0) @binding(1) var<storage, read_write> out: array<atomic<u32>>;
@group(1) @binding(0) var tex: texture_2d<f32>;
@group(1) @binding(1) var samp: sampler;
@group(1) @binding(2) var depth: texture_depth_2d_array;
@group(1) @binding(3) var shadow: sampler_comparison;
@group(2) @binding(0) var store: texture_storage_2d<rgba8unorm, write>;
var<private> seed: u32 = 1u;
var<workgroup> tile: array<f32, 64>;
fn helper(p: ptr<function, vec4f>) -> f32 { return (*p).x + lights.items[0].intensity; }
@compute @workgroup_size(8, N, 1) fn cs(@builtin(global_invocation_id) id: vec3u, @builtin(local_invocation_index) li: u32) {
    atomicAdd(&out[id.x], 1u); tile[li] = 0.0;
}
