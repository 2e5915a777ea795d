// lights.wgsl: the light record, the cluster uniform block and the helpers a fragment shader uses
// to find its cluster and walk the cluster's light list. A library: no bindings, no entry points.
//
// Mirrors of C declarations (change both sides together):
//   struct Light          <-> kiln_gpu_light        (src/render/light_records.h, 64 bytes)
//   struct ClusterUniform <-> kiln_cluster_uniform  (src/render/clusters.h, 160 bytes)
//   CLUSTER_*, MAX_LIGHTS <-> KILN_CLUSTER_*, KILN_MAX_LIGHTS
// LIGHT_KIND_* (Light.kind) come from the generated kiln_enums.wgsl.
// tests/render/test_clusters.c reads every field and constant back from the GPU and compares.
//
// A fragment shader, with the cluster buffers bound read-only (cluster_ranges: array<vec2u>, a
// cluster's (offset, count) into the compacted cluster_indices list cs_cull writes each frame):
//   let cluster = cluster_index(clusters, frag_coord.xy, view_depth);
//   let range = cluster_ranges[cluster];
//   for (var i = 0u; i < range.y; i++) {
//       let light = lights[cluster_indices[cluster_light_slot(range, i)]];
//       ... light_range_falloff(light, distance) * light_spot_factor(light, to_light) ...
//   }
#include "kiln_enums.wgsl"

const MAX_LIGHTS: u32 = 1024u;
const CLUSTER_X: u32 = 16u;
const CLUSTER_Y: u32 = 9u;
const CLUSTER_Z: u32 = 24u;
const CLUSTER_COUNT: u32 = CLUSTER_X * CLUSTER_Y * CLUSTER_Z;
// The top of the clusters debug view's heat map (red); more lights paint magenta. Not a cap:
// a cluster's list holds every light that touches it.
const CLUSTER_HEAT_LIGHTS: u32 = 32u;

// One point or spot light. See kiln_gpu_light for the meaning of each field.
struct Light {
    position: vec3f,         // 0: world space, metres
    range: f32,              // 12: culling radius, falloff end
    color_intensity: vec3f,  // 16: linear colour * watts
    kind: u32,               // 28: LIGHT_KIND_*
    direction: vec3f,        // 32: way the light travels (spot)
    shadow_view: i32,        // 44: first atlas view, -1 for none
    cos_inner: f32,          // 48
    cos_outer: f32,          // 52
    spot_scale: f32,         // 56: 1 / (cos_inner - cos_outer); 0 for a point light
    spot_offset: f32,        // 60: -cos_outer * spot_scale; 1 for a point light
}

struct ClusterUniform {
    view: mat4x4f,               // 0: world to view
    inverse_projection: mat4x4f, // 64: clip to view
    screen_size: vec2f,          // 128: pixels
    near: f32,                   // 136: slicing starts here (camera near plane)
    far: f32,                    // 140: and ends here (200 m)
    slice_scale: f32,            // 144
    slice_bias: f32,             // 148
    light_count: u32,            // 152
    pad: u32,                    // 156
}

// slice = floor(log(view_depth) * scale - bias), clamped to the grid. view_depth is the distance
// in front of the camera (-z in view space); the max() keeps log() away from 0 and negatives.
fn cluster_z_slice(u: ClusterUniform, view_depth: f32) -> u32 {
    let s = floor(log(max(view_depth, 1e-30)) * u.slice_scale - u.slice_bias);
    return u32(clamp(s, 0.0, f32(CLUSTER_Z - 1u)));
}

// The cluster of a fragment: frag_xy is @builtin(position).xy (pixels, origin top left).
fn cluster_index(u: ClusterUniform, frag_xy: vec2f, view_depth: f32) -> u32 {
    let tile = floor(frag_xy * vec2f(f32(CLUSTER_X), f32(CLUSTER_Y)) / u.screen_size);
    let x = u32(clamp(tile.x, 0.0, f32(CLUSTER_X - 1u)));
    let y = u32(clamp(tile.y, 0.0, f32(CLUSTER_Y - 1u)));
    let z = cluster_z_slice(u, view_depth);
    return x + CLUSTER_X * (y + CLUSTER_Y * z);
}

// Where the i-th light index of a cluster lives in cluster_indices, given the cluster's
// (offset, count) from cluster_ranges; i < count.
fn cluster_light_slot(range: vec2u, i: u32) -> u32 {
    return range.x + i;
}

// Smooth window that takes inverse-square falloff to exactly 0 at the light's range, so the
// culling sphere cuts nothing visible: (1 - (d / range)^4)^2, clamped.
fn light_range_falloff(light: Light, distance: f32) -> f32 {
    let ratio = distance / max(light.range, 1e-4);
    let window = clamp(1.0 - ratio * ratio * ratio * ratio, 0.0, 1.0);
    return window * window;
}

// Cone factor: 1 inside the inner angle, 0 outside the outer, squared-smooth between; always 1
// for a point light. to_light points from the shaded surface to the light (unit length).
fn light_spot_factor(light: Light, to_light: vec3f) -> f32 {
    let t = clamp(dot(-to_light, light.direction) * light.spot_scale + light.spot_offset, 0.0, 1.0);
    return t * t;
}
