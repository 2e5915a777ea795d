// shadows.wgsl: the sun's cascaded shadows and the spot and point lights' atlas shadows as the
// shading passes see them. A library: no bindings, no entry points; the maps and the comparison
// sampler are passed in.
//
// struct Shadows <-> kiln_shadows_block, struct AtlasView <-> kiln_atlas_view_block
// (src/render/uniforms.c, checked by reflection), written each frame by src/render/shadows.c
// from the cascades of src/render/cascades.c and the views of src/render/shadow_atlas.c.

const CASCADE_COUNT: u32 = 4u;

struct Shadows {
    world_to_shadow: array<mat4x4<f32>, 4>, // per cascade: light projection * light view
    splits: vec4<f32>,                      // far view depth of each cascade
    texel_world: vec4<f32>,                 // metres one texel covers, per cascade
    resolution: f32,                        // texels per side of each map
    blend_band: f32,                        // share of a cascade, at its far end, that fades into the next
    normal_offset: f32,                     // receiver push along its normal, in texels
    enabled: u32,                           // 0: nothing is shadowed (no maps this frame)
};

// The cascade a point at `view_depth` metres in front of the camera falls in; CASCADE_COUNT
// beyond the last.
fn shadow_cascade_index(s: Shadows, view_depth: f32) -> u32 {
    var i = 0u;
    while (i < CASCADE_COUNT && view_depth >= s.splits[i]) {
        i++;
    }
    return i;
}

// 3x3 PCF in cascade `c`: the share of nine comparison taps, one texel apart, that see the point
// (the comparison sampler is GreaterEqual: reverse-Z, nearer to the sun is larger). The point is
// first pushed along the receiver's normal by the cascade's texel size, which keeps a lit
// surface from shadowing itself without moving the contact point of a shadow. Outside the map:
// lit.
fn shadow_cascade_visibility(s: Shadows, shadow_map: texture_depth_2d_array, shadow_sampler: sampler_comparison,
                             c: u32, world_position: vec3<f32>, normal: vec3<f32>) -> f32 {
    let offset_position = world_position + normal * (s.texel_world[c] * s.normal_offset);
    let clip = s.world_to_shadow[c] * vec4<f32>(offset_position, 1.0);
    let uv = vec2<f32>(clip.x * 0.5 + 0.5, 0.5 - clip.y * 0.5);
    let depth = clip.z;
    if (any(uv < vec2<f32>(0.0)) || any(uv > vec2<f32>(1.0)) || depth > 1.0) {
        return 1.0;
    }
    let texel = 1.0 / s.resolution;
    var lit = 0.0;
    for (var y = -1; y <= 1; y++) {
        for (var x = -1; x <= 1; x++) {
            let tap = uv + vec2<f32>(f32(x), f32(y)) * texel;
            lit += textureSampleCompareLevel(shadow_map, shadow_sampler, tap, i32(c), depth);
        }
    }
    return lit / 9.0;
}

// How much sunlight reaches the point: 1 lit, 0 shadowed. In the last `blend_band` of a cascade
// it fades into the next one (the last fades to lit at its end, shadow_distance), so the change
// of texel size never shows as a seam.
fn sample_cascade_shadow(s: Shadows, shadow_map: texture_depth_2d_array, shadow_sampler: sampler_comparison,
                         world_position: vec3<f32>, normal: vec3<f32>, view_depth: f32) -> f32 {
    if (s.enabled == 0u) {
        return 1.0;
    }
    let c = shadow_cascade_index(s, view_depth);
    if (c >= CASCADE_COUNT) {
        return 1.0;
    }
    let near = select(0.0, s.splits[max(c, 1u) - 1u], c > 0u);
    let band_start = s.splits[c] - (s.splits[c] - near) * s.blend_band;
    let visibility = shadow_cascade_visibility(s, shadow_map, shadow_sampler, c, world_position, normal);
    if (view_depth <= band_start) {
        return visibility;
    }
    let t = (view_depth - band_start) / max(s.splits[c] - band_start, 1e-4);
    var next = 1.0;
    if (c + 1u < CASCADE_COUNT) {
        next = shadow_cascade_visibility(s, shadow_map, shadow_sampler, c + 1u, world_position, normal);
    }
    return mix(visibility, next, t);
}

// One light view of the shadow atlas.
struct AtlasView {
    world_to_clip: mat4x4<f32>,  // projection * view: reverse-Z perspective from the light
    tile: vec4<f32>,             // xy: the tile's top-left corner in atlas uv, z: its side, w: one texel
    texel_scale: f32,            // metres one texel covers per metre from the light
    normal_offset: f32,          // receiver push along its normal, in texels
    atlas_pad0: f32,
    atlas_pad1: f32,
};

struct AtlasViews {
    views: array<AtlasView, 64>, // KILN_ATLAS_MAX_VIEWS; only the frame's are written
};

// The face of a point light's cube that direction d (from the light) falls in, in WebGPU's face
// order +X, -X, +Y, -Y, +Z, -Z: the dominant axis.
fn atlas_cube_face(d: vec3<f32>) -> u32 {
    let a = abs(d);
    if (a.x >= a.y && a.x >= a.z) {
        return select(1u, 0u, d.x > 0.0);
    }
    if (a.y >= a.z) {
        return select(3u, 2u, d.y > 0.0);
    }
    return select(5u, 4u, d.z > 0.0);
}

// 3x3 PCF in one atlas view, for a point `distance` metres from the light: the share of nine
// comparison taps that see it. The normal offset grows with the distance, as a perspective
// texel does. The centre tap is clamped a tap and a half inside the tile, so the filter never
// reads a neighbouring tile. Outside the view (beyond a spot's cone): lit.
fn atlas_view_visibility(v: AtlasView, atlas: texture_depth_2d, shadow_sampler: sampler_comparison,
                         world_position: vec3<f32>, normal: vec3<f32>, distance: f32) -> f32 {
    let offset_position = world_position + normal * (v.texel_scale * distance * v.normal_offset);
    let clip = v.world_to_clip * vec4<f32>(offset_position, 1.0);
    if (clip.w <= 0.0) {
        return 1.0;
    }
    let ndc = clip.xyz / clip.w;
    let uv = vec2<f32>(ndc.x * 0.5 + 0.5, 0.5 - ndc.y * 0.5);
    if (any(uv < vec2<f32>(0.0)) || any(uv > vec2<f32>(1.0))) {
        return 1.0;
    }
    let inset = 1.5 * v.tile.w / v.tile.z;
    let centre = v.tile.xy + clamp(uv, vec2<f32>(inset), vec2<f32>(1.0 - inset)) * v.tile.z;
    var lit = 0.0;
    for (var y = -1; y <= 1; y++) {
        for (var x = -1; x <= 1; x++) {
            lit += textureSampleCompareLevel(atlas, shadow_sampler, centre + vec2<f32>(f32(x), f32(y)) * v.tile.w, ndc.z);
        }
    }
    return lit / 9.0;
}
