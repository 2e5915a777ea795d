// Wireframe: the edges of every triangle the camera draws, as dark lines about one pixel wide
// over the shaded image, whatever the distance and on every adapter. WebGPU has no line polygon
// mode and WGSL no barycentric builtin, so the vertex stage pulls its own vertices: the draw is
// non-indexed over the batch's index range, vertex_index picks the index, and vertex_index % 3 the
// triangle corner whose barycentric coordinate is 1 (ranges start on whole triangles). The
// fragment stage measures the distance to the nearest edge in pixels through the barycentrics'
// screen-space gradients and covers a WIRE_WIDTH-pixel band around each edge, antialiased.
#include "common.wgsl"

// One vertex of slot 0 (kiln/geometry/mesh_data.h, 56 bytes), read as storage. Scalar arrays,
// not vec3s, keep WGSL's member offsets those of the stream (src/render/uniforms.c checks them).
struct MeshVertex {
    position: array<f32, 3>,
    normal: array<f32, 3>,
    tangent: array<f32, 4>,
    uv0: array<f32, 2>,
    uv1: array<f32, 2>,
};

// The batch's mesh: its vertex and index buffers, bound as storage (features/wireframe.c).
@group(2) @binding(0) var<storage, read> mesh_vertices: array<MeshVertex>;
@group(2) @binding(1) var<storage, read> mesh_indices: array<u32>;
// The camera's pass-view slot, as the forward passes read it.
@group(3) @binding(4) var<uniform> pass_view: PassView;

// Pixels across a line; each of the two triangles sharing an edge draws its half of the band.
const WIRE_WIDTH: f32 = 1.0;
// Black over the linear HDR colour: stays black through exposure, every tone curve and bloom.
const WIRE_COLOR: vec3<f32> = vec3<f32>(0.0, 0.0, 0.0);

struct WireOut {
    // The forward passes' clip position, computed the same way from the same numbers, so the
    // edge lands on the prepass depth it is tested against.
    @builtin(position) @invariant clip: vec4<f32>,
    @location(0) barycentric: vec3<f32>,
};

@vertex
fn vs_wire(@builtin(vertex_index) vertex: u32, @builtin(instance_index) instance: u32) -> WireOut {
    let p = mesh_vertices[mesh_indices[vertex]].position;
    let world = instances[record_indices[instance]].model * vec4<f32>(p[0], p[1], p[2], 1.0);
    let corner = vertex % 3u;
    var out: WireOut;
    out.clip = pass_view.view_projection * world;
    out.barycentric = vec3<f32>(f32(corner == 0u), f32(corner == 1u), f32(corner == 2u));
    return out;
}

@fragment
fn fs_wire(in: WireOut) -> @location(0) vec4<f32> {
    // Edge i is where barycentric i is 0; its gradient's length is how much it changes per pixel,
    // so |b| / |grad b| is the distance to that edge's line in pixels (the true distance, where
    // fwidth's |dx| + |dy| would thin diagonal lines by up to sqrt 2). The absolute value keeps
    // the measure for a pixel centre just outside the triangle, where multisampling evaluates a
    // fragment that covers only some samples: it then matches its neighbour's.
    let b = in.barycentric;
    let gradient = sqrt(dpdx(b) * dpdx(b) + dpdy(b) * dpdy(b));
    let d = abs(b) / max(gradient, vec3<f32>(1e-8));
    let distance = min(d.x, min(d.y, d.z));
    // The share of the pixel a band of WIRE_WIDTH centred on the edge covers, a one-pixel ramp.
    let coverage = clamp(WIRE_WIDTH * 0.5 + 0.5 - distance, 0.0, 1.0);
    return vec4<f32>(WIRE_COLOR, coverage);
}
