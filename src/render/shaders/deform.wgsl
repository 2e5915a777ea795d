// Vertex deformation: morph targets, then skinning (glTF's order), written once here and
// included by every program that places scene geometry (forward.wgsl's entry points for the
// depth prepass, the shadow maps and the shading passes; wireframe.wgsl), so each pass computes
// the same deformed vertex from the same numbers and depths match bit for bit.
// The rest of group 1 (binding 0 is the instance records, common.wgsl), src/render/deform.c:
//   binding 1  joints        the scene's joint palette, copied verbatim each frame
//   binding 2  morph_deltas  the batch's mesh's morph deltas; a 48-byte stand-in for other meshes
//   binding 3  morph         the instance's MorphWeights: one 256-byte slot, by dynamic offset

// One morphed instance's weights (C side uniforms.c, packed by deform.c).
struct MorphWeights {
    weights: array<vec4<f32>, 2>,   // target t's weight is weights[t / 4][t % 4]
    target_count: u32,              // the mesh's targets: how its deltas are laid out
};

@group(1) @binding(1) var<storage, read> joints: array<mat4x4<f32>>;
// Per vertex per target three vec4 (kiln/geometry/mesh_data.h): element (vertex * target_count +
// target) * 3 is the position delta, the next the normal delta, the third the tangent delta.
@group(1) @binding(2) var<storage, read> morph_deltas: array<vec4<f32>>;
@group(1) @binding(3) var<uniform> morph: MorphWeights;

// The instance record's flags (params.y bits 0 and 1), INSTANCE_SKINNED and INSTANCE_MORPHED,
// come from the generated kiln_enums.wgsl.
#include "kiln_enums.wgsl"

// A vertex in model space before and after deformation. The tangent's handedness (w) never
// changes, so only its direction travels.
struct DeformedVertex {
    position: vec3<f32>,
    normal: vec3<f32>,
    tangent: vec3<f32>,
};

// Adds each target's deltas, position, normal and tangent, scaled by its weight (glTF: the
// tangent's handedness is not morphed). The shading pass normalises the results.
fn morph_vertex(rest: DeformedVertex, vertex: u32) -> DeformedVertex {
    var out = rest;
    let first = vertex * morph.target_count;
    for (var t = 0u; t < morph.target_count; t++) {
        let weight = morph.weights[t / 4u][t % 4u];
        let element = (first + t) * 3u;
        out.position += weight * morph_deltas[element].xyz;
        out.normal += weight * morph_deltas[element + 1u].xyz;
        out.tangent += weight * morph_deltas[element + 2u].xyz;
    }
    return out;
}

// The weighted sum of the vertex's four joint matrices, from the instance's joint offset.
fn skin_matrix(joint_offset: u32, joint: vec4<u32>, weight: vec4<f32>) -> mat4x4<f32> {
    return weight.x * joints[joint_offset + joint.x] + weight.y * joints[joint_offset + joint.y] +
           weight.z * joints[joint_offset + joint.z] + weight.w * joints[joint_offset + joint.w];
}

// Moves the vertex by its skin matrix into the space the instance's model matrix takes to the
// world. Normals and tangents go through the matrix itself, not its inverse transpose: joints
// rotate, translate and scale uniformly, and for those the two agree up to length, which shading
// normalises away.
fn skin_vertex(rest: DeformedVertex, skin: mat4x4<f32>) -> DeformedVertex {
    var out: DeformedVertex;
    out.position = (skin * vec4<f32>(rest.position, 1.0)).xyz;
    out.normal = (skin * vec4<f32>(rest.normal, 0.0)).xyz;
    out.tangent = (skin * vec4<f32>(rest.tangent, 0.0)).xyz;
    return out;
}
