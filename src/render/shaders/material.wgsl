// The material bind group (group 2). C side: src/render/material.c (96-byte MaterialParams,
// asserted there); change both together. TEX_* (the slots) and ALPHA_* (alpha_mode) come from
// the generated kiln_enums.wgsl.
#include "kiln_enums.wgsl"

struct MaterialParams {
    base_color: vec4<f32>,
    emissive: vec3<f32>,
    emissive_strength: f32,
    metallic: f32,
    roughness: f32,
    normal_scale: f32,
    occlusion_strength: f32,
    alpha_cutoff: f32,
    alpha_mode: u32,              // ALPHA_OPAQUE, ALPHA_MASK or ALPHA_BLEND
    double_sided: u32,
    uv_rotation: f32,
    uv_offset: vec2<f32>,
    uv_scale: vec2<f32>,
    texcoords: u32,               // bit i: map i reads uv1
    textures: u32,                // bit i: map i names a texture (else its default, unsampled)
    pad1: u32,
    pad2: u32,
};

@group(2) @binding(0) var<uniform> material: MaterialParams;
@group(2) @binding(1) var base_color_map: texture_2d<f32>;
@group(2) @binding(2) var metallic_roughness_map: texture_2d<f32>;
@group(2) @binding(3) var normal_map: texture_2d<f32>;
@group(2) @binding(4) var occlusion_map: texture_2d<f32>;
@group(2) @binding(5) var emissive_map: texture_2d<f32>;
@group(2) @binding(6) var material_sampler: sampler;

// KHR_texture_transform: scale, then rotate, then offset; one transform for every map.
fn material_uv(uv0: vec2<f32>, uv1: vec2<f32>, map: u32) -> vec2<f32> {
    let uv = select(uv0, uv1, ((material.texcoords >> map) & 1u) == 1u);
    let s = uv * material.uv_scale;
    let c = cos(material.uv_rotation);
    let r = sin(material.uv_rotation);
    return vec2<f32>(c * s.x + r * s.y, -r * s.x + c * s.y) + material.uv_offset;
}

// Whether map `map` names a texture. An absent map reads as its default (white; the flat normal)
// without being sampled: no texture fetch for untextured materials, and no sampling at all of a
// mesh without texture coordinates, whose constant uv gives zero derivatives, where lavapipe's
// level-of-detail computation returns NaN (the surface went black). The branch is on a uniform,
// so the samples inside stay in uniform control flow.
fn material_has_map(map: u32) -> bool {
    return ((material.textures >> map) & 1u) == 1u;
}

fn material_base_color(uv0: vec2<f32>, uv1: vec2<f32>) -> vec4<f32> {
    var texel = vec4<f32>(1.0);
    if (material_has_map(TEX_BASE_COLOR)) {
        texel = textureSample(base_color_map, material_sampler, material_uv(uv0, uv1, TEX_BASE_COLOR));
    }
    return material.base_color * texel;
}
