// Forward+ shading: the scene's opaque and blended geometry lit by the sun (through its cascaded
// shadows), the clustered point and spot lights (through their atlas shadows) and the
// environment's image-based lighting, occluded by the screen-space ambient occlusion. Also the
// depth-only entry points of the prepass and the shadow maps (vs_* + fs_masked / no fragment).
// The vertex entry points (vs_main, vs_skinned, vs_morphed, vs_morphed_skinned) deform through
// deform.wgsl.
#include "common.wgsl"
#include "material.wgsl"
#include "brdf.wgsl"
#include "lights.wgsl"
#include "shadows.wgsl"
#include "deform.wgsl"

@group(3) @binding(0) var<uniform> clusters: ClusterUniform;
@group(3) @binding(1) var<storage, read> lights: array<Light>;
@group(3) @binding(2) var<storage, read> cluster_ranges: array<vec2u>; // (offset, count) per cluster
@group(3) @binding(3) var<storage, read> cluster_indices: array<u32>;
// The view this pass renders from: one 256-byte slot of the pass uniforms, chosen by the dynamic
// offset the pass binds group 3 with (the slot is the view's index; the camera is view 0).
@group(3) @binding(4) var<uniform> pass_view: PassView;
// The sun's cascades. Depth-only passes bind a one-texel placeholder here (a cascade pass may not
// sample the map it draws), and so does a frame without cascades, whose `enabled` is 0.
@group(3) @binding(5) var<uniform> shadows: Shadows;
@group(3) @binding(6) var shadow_map: texture_depth_2d_array;
@group(3) @binding(7) var shadow_sampler: sampler_comparison;
// The baked environment (src/render/ibl.h): diffuse irradiance, GGX-prefiltered radiance by
// roughness, and the split-sum table.
@group(3) @binding(8) var irradiance_map: texture_cube<f32>;
@group(3) @binding(9) var prefiltered_map: texture_cube<f32>;
@group(3) @binding(10) var brdf_lut: texture_2d<f32>;
@group(3) @binding(11) var ibl_sampler: sampler;

const PREFILTERED_MIPS: f32 = 6.0; // KILN_IBL_PREFILTERED_MIPS

// The ambient occlusion of the opaque surface at each pixel (features/ao.c), read by pixel
// coordinate; the 1x1 white texture when AO is off, and in depth-only passes.
@group(3) @binding(12) var ao_texture: texture_2d<f32>;

// The spot and point lights' shadow views and the atlas they were drawn into (a one-texel
// placeholder when no light casts, or in depth-only passes).
@group(3) @binding(13) var<uniform> atlas_views: AtlasViews;
@group(3) @binding(14) var shadow_atlas: texture_depth_2d;

struct VertexIn {
    @builtin(instance_index) instance: u32,
    @builtin(vertex_index) vertex: u32,   // the index's value: which vertex's morph deltas
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) tangent: vec4<f32>,
    @location(3) uv0: vec2<f32>,
    @location(4) uv1: vec2<f32>,
    @location(7) color: vec4<f32>,      // COLOR_0, white where the mesh has none
};

// The skin stream on vertex slot 1, for the skinned entry points only.
struct SkinIn {
    @location(5) joints: vec4<u32>,
    @location(6) weights: vec4<f32>,
};

struct VertexOut {
    // Invariant: the prepass and the shading pass must compute bit-identical depths, since
    // shading tests GreaterEqual against the prepass's depth without writing.
    @builtin(position) @invariant clip: vec4<f32>,
    @location(0) world_position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) tangent: vec4<f32>,
    @location(3) uv0: vec2<f32>,
    @location(4) uv1: vec2<f32>,
    @location(5) @interpolate(flat) lod: u32, // the instance's level of detail, for the lod view
    @location(6) color: vec4<f32>,      // the vertex colour, multiplying the base colour
    @location(7) @interpolate(flat) object_id: u32, // the instance's, for the data outputs
};

fn rest_vertex(v: VertexIn) -> DeformedVertex {
    return DeformedVertex(v.position, v.normal, v.tangent.xyz);
}

// The record of the instance being drawn: instance_index is its place in the record index list.
fn instance_record(v: VertexIn) -> Instance {
    return instances[record_indices[v.instance]];
}

fn skinned(v: VertexIn, s: SkinIn, rest: DeformedVertex) -> DeformedVertex {
    let joint_offset = instance_record(v).params.z;
    return skin_vertex(rest, skin_matrix(joint_offset, s.joints, s.weights));
}

// Model to world to clip, the same for every entry point below: each pipeline picks its entry
// point by the mesh (pipelines.c, PIPELINE_SKINNED and PIPELINE_MORPHED), and every pass drawing
// an instance uses the same one.
fn place_vertex(v: VertexIn, d: DeformedVertex) -> VertexOut {
    let inst = instance_record(v);
    let world = inst.model * vec4<f32>(d.position, 1.0);
    var out: VertexOut;
    out.clip = pass_view.view_projection * world;
    out.world_position = world.xyz;
    out.normal = (inst.normal_matrix * vec4<f32>(d.normal, 0.0)).xyz;
    out.tangent = vec4<f32>((inst.model * vec4<f32>(d.tangent, 0.0)).xyz, v.tangent.w);
    out.uv0 = v.uv0;
    out.uv1 = v.uv1;
    out.lod = (inst.params.y >> 8u) & 0xFFu;
    out.color = v.color;
    out.object_id = inst.object.x;
    return out;
}

@vertex
fn vs_main(v: VertexIn) -> VertexOut {
    return place_vertex(v, rest_vertex(v));
}

@vertex
fn vs_skinned(v: VertexIn, s: SkinIn) -> VertexOut {
    return place_vertex(v, skinned(v, s, rest_vertex(v)));
}

@vertex
fn vs_morphed(v: VertexIn) -> VertexOut {
    return place_vertex(v, morph_vertex(rest_vertex(v), v.vertex));
}

// glTF's order: the morph targets deform the bind pose, the skin moves the result.
@vertex
fn vs_morphed_skinned(v: VertexIn, s: SkinIn) -> VertexOut {
    return place_vertex(v, skinned(v, s, morph_vertex(rest_vertex(v), v.vertex)));
}

// Depth prepass for alpha-masked materials: discard what the cutoff removes.
@fragment
fn fs_masked(in: VertexOut) {
    if (material_base_color(in.uv0, in.uv1).a * in.color.a < material.alpha_cutoff) {
        discard;
    }
}

// The data outputs (features/data_outputs.c): view-space depth in metres and the object id of
// the nearest opaque or masked surface, a masked one cut where the prepass cuts it.
struct DataOut {
    @location(0) linear_depth: f32,
    @location(1) object_id: u32,
};

@fragment
fn fs_data(in: VertexOut) -> DataOut {
    // Sampled before the branch, as in fs_main: implicit derivatives need uniform control flow.
    let alpha = material_base_color(in.uv0, in.uv1).a * in.color.a;
    if (material.alpha_mode == ALPHA_MASK && alpha < material.alpha_cutoff) {
        discard;
    }
    var out: DataOut;
    out.linear_depth = -(view.world_to_view * vec4<f32>(in.world_position, 1.0)).z;
    out.object_id = in.object_id;
    return out;
}

// The shading normal: the interpolated normal, bent by the normal map in tangent space
// (glTF convention: bitangent = cross(normal, tangent.xyz) * tangent.w), flipped for back faces
// of double-sided materials.
fn shading_normal(in: VertexOut, front: bool) -> vec3<f32> {
    // Sampled before any branch on varying values: implicit-derivative sampling needs uniform
    // control flow (material_has_map's branch is on a uniform). No normal map: the flat normal.
    var sample = vec3<f32>(0.0, 0.0, 1.0);
    if (material_has_map(TEX_NORMAL)) {
        sample = textureSample(normal_map, material_sampler, material_uv(in.uv0, in.uv1, TEX_NORMAL)).xyz * 2.0 - 1.0;
    }
    var n = normalize(in.normal);
    var t = in.tangent.xyz - n * dot(n, in.tangent.xyz);
    let t_len = length(t);
    if (t_len > 1e-6) {
        t = t / t_len;
        let b = cross(n, t) * select(-1.0, 1.0, in.tangent.w >= 0.0);
        let m = normalize(vec3<f32>(sample.xy * material.normal_scale, sample.z));
        n = normalize(t * m.x + b * m.y + n * m.z);
    }
    if (!front && material.double_sided == 1u) {
        n = -n;
    }
    return n;
}

// The screen-space ambient occlusion at this pixel. It describes the opaque surface the depth
// holds, so a blended surface in front of it takes none.
fn screen_ambient_occlusion(frag_xy: vec2<f32>) -> f32 {
    if (material.alpha_mode == ALPHA_BLEND) {
        return 1.0;
    }
    let last = vec2<i32>(textureDimensions(ao_texture)) - 1;
    return textureLoad(ao_texture, min(vec2<i32>(frag_xy), last), 0).r;
}

// Light from the environment: the split-sum approximation (Karis 2013), its single-scattering
// specular scaled up by the energy GGX loses to multiple bounces (Fdez-Aguera 2019), and diffuse
// irradiance for what the specular lobe leaves.
fn indirect_light(s: Surface) -> vec3<f32> {
    let n = s.normal;
    let n_dot_v = max(dot(n, s.view), 1e-4);
    let f0 = mix(vec3<f32>(0.04), s.albedo, s.metallic);
    let table = textureSampleLevel(brdf_lut, ibl_sampler, vec2<f32>(n_dot_v, s.roughness), 0.0).rg;
    let single = f0 * table.x + vec3<f32>(table.y);
    let energy = vec3<f32>(1.0) + f0 * (1.0 / max(table.x + table.y, 1e-4) - 1.0);
    let r = reflect(-s.view, n);
    let radiance = textureSampleLevel(prefiltered_map, ibl_sampler, r, s.roughness * (PREFILTERED_MIPS - 1.0)).rgb;
    let irradiance = textureSampleLevel(irradiance_map, ibl_sampler, n, 0.0).rgb;
    let diffuse = irradiance * s.albedo * (1.0 - s.metallic) * (vec3<f32>(1.0) - single);
    return (diffuse + radiance * single * energy) * lighting.ibl_intensity;
}

fn local_lights(s: Surface, world_position: vec3<f32>, cluster: u32) -> vec3<f32> {
    var total = vec3<f32>(0.0);
    // Every light touching the cluster: the compacted list has no per-cluster cap.
    let range = cluster_ranges[cluster];
    for (var i = 0u; i < range.y; i++) {
        let light = lights[cluster_indices[cluster_light_slot(range, i)]];
        let to_light = light.position - world_position;
        let distance = length(to_light);
        let l = to_light / max(distance, 1e-4);
        // Watts spread over the sphere (/ 4 pi), inverse-square falloff windowed to zero at range.
        var radiance = light.color_intensity / (4.0 * PI * max(distance * distance, 1e-4));
        radiance *= light_range_falloff(light, distance) * light_spot_factor(light, l);
        if (light.shadow_view >= 0) {
            // A point light's six views follow its first, one per cube face.
            var view_index = u32(light.shadow_view);
            if (light.kind == LIGHT_KIND_POINT) {
                view_index += atlas_cube_face(-to_light);
            }
            radiance *= atlas_view_visibility(atlas_views.views[view_index], shadow_atlas, shadow_sampler, world_position,
                                              s.normal, distance);
        }
        total += brdf_direct(s, l, radiance);
    }
    return total;
}

// The cascades view: red, green, blue, yellow for cascades 0..3, grey beyond shadow_distance.
fn cascade_tint(c: u32) -> vec3<f32> {
    switch c {
        case 0u: { return vec3<f32>(1.0, 0.25, 0.25); }
        case 1u: { return vec3<f32>(0.25, 1.0, 0.25); }
        case 2u: { return vec3<f32>(0.25, 0.4, 1.0); }
        case 3u: { return vec3<f32>(1.0, 1.0, 0.25); }
        default: { return vec3<f32>(0.5); }
    }
}

// The lod view: green, blue, yellow, red for levels 0..3 (docs/guides/render.md).
fn lod_tint(level: u32) -> vec3<f32> {
    switch level {
        case 0u: { return vec3<f32>(0.1, 0.9, 0.1); }
        case 1u: { return vec3<f32>(0.1, 0.3, 1.0); }
        case 2u: { return vec3<f32>(1.0, 0.9, 0.1); }
        default: { return vec3<f32>(1.0, 0.1, 0.1); }
    }
}

// The clusters view: lights per cluster from blue (none) through green (16) to red (32);
// magenta where more than 32 lights touch the cluster (all of them still light it).
fn heat(count: u32) -> vec3<f32> {
    if (count > CLUSTER_HEAT_LIGHTS) {
        return vec3<f32>(1.0, 0.0, 1.0);
    }
    let t = f32(count) / f32(CLUSTER_HEAT_LIGHTS);
    return clamp(vec3<f32>(t * 2.0 - 0.5, 1.0 - abs(t * 2.0 - 1.0), 1.5 - t * 2.0), vec3<f32>(0.0), vec3<f32>(1.0));
}

@fragment
fn fs_main(in: VertexOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    let base = material_base_color(in.uv0, in.uv1) * in.color;
    if (material.alpha_mode == ALPHA_MASK && base.a < material.alpha_cutoff) {
        discard;
    }
    let n = shading_normal(in, front);
    if (view.debug_mode == DEBUG_NORMALS) {
        return vec4<f32>(n * 0.5 + 0.5, 1.0);
    }
    if (view.debug_mode == DEBUG_ALBEDO) {
        return vec4<f32>(base.rgb, 1.0);
    }
    if (view.debug_mode == DEBUG_OVERDRAW) {
        return vec4<f32>(0.1, 0.1, 0.1, 1.0);
    }
    if (view.debug_mode == DEBUG_LOD) {
        // Shaded by the interpolated normal towards the camera, so a coarser level's facets show.
        let facing = max(dot(normalize(in.normal), toward_viewer(in.world_position)), 0.0);
        return vec4<f32>(lod_tint(in.lod) * (0.35 + 0.65 * facing), 1.0);
    }
    let view_position = view.world_to_view * vec4<f32>(in.world_position, 1.0);
    let cluster = cluster_index(clusters, in.clip.xy, -view_position.z);
    if (view.debug_mode == DEBUG_CLUSTERS) {
        return vec4<f32>(heat(cluster_ranges[cluster].y), 1.0);
    }
    // The receiver's geometric normal (facing the viewer on double-sided back faces) offsets the
    // shadow lookup; the normal map's detail is finer than a shadow texel.
    let geometric_normal = normalize(in.normal) * select(-1.0, 1.0, front || material.double_sided == 0u);
    let view_depth = -view_position.z;
    var sun_visibility = 1.0;
    if (lighting.has_sun == 1u) {
        sun_visibility = sample_cascade_shadow(shadows, shadow_map, shadow_sampler, in.world_position,
                                               geometric_normal, view_depth);
    }
    if (view.debug_mode == DEBUG_CASCADES) {
        let c = select(CASCADE_COUNT, shadow_cascade_index(shadows, view_depth), shadows.enabled == 1u);
        // Shaded by the sun's cosine as well as its shadow, so a face turned nearly edge-on to
        // the sun reads dark in every cascade rather than lit in one and shadowed in the next.
        let sun_cosine = select(1.0, max(dot(n, -lighting.sun_direction), 0.0), lighting.has_sun == 1u);
        return vec4<f32>(cascade_tint(c) * (0.3 + 0.7 * sun_visibility * sun_cosine), 1.0);
    }

    var mr = vec4<f32>(1.0);
    if (material_has_map(TEX_METALLIC_ROUGHNESS)) {
        mr = textureSample(metallic_roughness_map, material_sampler, material_uv(in.uv0, in.uv1, TEX_METALLIC_ROUGHNESS));
    }
    var occlusion_texel = 1.0;
    if (material_has_map(TEX_OCCLUSION)) {
        occlusion_texel = textureSample(occlusion_map, material_sampler, material_uv(in.uv0, in.uv1, TEX_OCCLUSION)).r;
    }
    // The material's occlusion and the screen's both estimate what blocks ambient light; where
    // both see it, counting it twice would darken it twice, so the stronger one wins.
    let occlusion = min(mix(1.0, occlusion_texel, material.occlusion_strength), screen_ambient_occlusion(in.clip.xy));
    if (view.debug_mode == DEBUG_AO) {
        return vec4<f32>(vec3<f32>(occlusion), 1.0);
    }
    var emissive_texel = vec3<f32>(1.0);
    if (material_has_map(TEX_EMISSIVE)) {
        emissive_texel = textureSample(emissive_map, material_sampler, material_uv(in.uv0, in.uv1, TEX_EMISSIVE)).rgb;
    }

    var s: Surface;
    s.albedo = base.rgb;
    s.metallic = clamp(material.metallic * mr.b, 0.0, 1.0);
    s.roughness = clamp(material.roughness * mr.g, 0.045, 1.0);
    s.normal = n;
    s.view = toward_viewer(in.world_position);

    var color = vec3<f32>(0.0);
    if (lighting.has_sun == 1u) {
        color += brdf_direct(s, -lighting.sun_direction, lighting.sun_color * lighting.sun_intensity * sun_visibility);
    }
    color += local_lights(s, in.world_position, cluster);
    // The ambient occlusion takes away only indirect light (direct light has its shadows).
    color += indirect_light(s) * occlusion;
    color += material.emissive * material.emissive_strength * emissive_texel;
    // Coverage: only blended materials are partly transparent (OPAQUE and MASK ignore alpha), so
    // a transparent background composites opaque surfaces whole.
    return vec4<f32>(color, select(1.0, base.a, material.alpha_mode == ALPHA_BLEND));
}
