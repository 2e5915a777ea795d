// Wireframe: the edges of every triangle the camera draws, as dark lines about one pixel wide
// over the shaded image, whatever the distance and on every adapter. WebGPU has no line polygon
// mode and WGSL no barycentric builtin, so the vertex stage pulls its own vertices: the draw is
// non-indexed over the batch's index range, vertex_index picks the index, and vertex_index % 3 the
// triangle corner whose barycentric coordinate is 1 (ranges start on whole triangles). The
// fragment stage measures the distance to the nearest edge in pixels through the barycentrics'
// screen-space gradients and covers a WIRE_WIDTH-pixel band around each edge, antialiased.
// Skinned and morphed instances are deformed by deform.wgsl, as the forward passes deform them,
// choosing by the instance record's flags rather than by entry point (pulled vertices need no
// vertex layout, so one pipeline serves every mesh).
#include "common.wgsl"
#include "deform.wgsl"

// One vertex of slot 0 (kiln/geometry/mesh_data.h, 64 bytes), read as storage. Scalar arrays,
// not vec3s, keep WGSL's member offsets those of the stream (src/render/uniforms.c checks them).
struct MeshVertex {
    position: array<f32, 3>,
    normal: array<f32, 3>,
    tangent: array<f32, 4>,
    uv0: array<f32, 2>,
    uv1: array<f32, 2>,
    color: array<u32, 2>,   // unorm16x4, unread here
};

// One vertex of slot 1, the skin stream (24 bytes): four u16 joint indices in two words, then
// the weights.
struct SkinVertex {
    joints: array<u32, 2>,
    weights: array<f32, 4>,
};

// The batch's mesh: its vertex, index and skin buffers, bound as storage (features/wireframe.c;
// a mesh without a skin binds its vertex buffer in the skin's place, never read).
@group(2) @binding(0) var<storage, read> mesh_vertices: array<MeshVertex>;
@group(2) @binding(1) var<storage, read> mesh_indices: array<u32>;
@group(2) @binding(2) var<storage, read> mesh_skin: array<SkinVertex>;
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
    let index = mesh_indices[vertex];
    let mv = mesh_vertices[index];
    let inst = instances[record_indices[instance]];
    var d = DeformedVertex(vec3<f32>(mv.position[0], mv.position[1], mv.position[2]),
                           vec3<f32>(mv.normal[0], mv.normal[1], mv.normal[2]),
                           vec3<f32>(mv.tangent[0], mv.tangent[1], mv.tangent[2]));
    if ((inst.params.y & INSTANCE_MORPHED) != 0u) {
        d = morph_vertex(d, index);
    }
    if ((inst.params.y & INSTANCE_SKINNED) != 0u) {
        let s = mesh_skin[index];
        let joint = vec4<u32>(s.joints[0] & 0xFFFFu, s.joints[0] >> 16u, s.joints[1] & 0xFFFFu, s.joints[1] >> 16u);
        d = skin_vertex(d, skin_matrix(inst.params.z, joint, vec4<f32>(s.weights[0], s.weights[1], s.weights[2], s.weights[3])));
    }
    let world = inst.model * vec4<f32>(d.position, 1.0);
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
