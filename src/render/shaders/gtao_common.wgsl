// Ground-truth ambient occlusion (Jimenez, Wu, Pesce, Jarabo, "Practical Realtime Strategies for
// Accurate Indirect Occlusion", 2016; the slice and integral formulation of Intel's XeGTAO) from
// the camera's depth alone, and the depth-aware blur after it. Included by gtao.wgsl (a
// single-sample depth) and gtao_msaa.wgsl (sample 0 of a multisampled depth), which each declare
// `depth_texture` at group 1 binding 0: textureLoad takes a mip level for the one and a sample
// index for the other, both 0 here, so everything below reads depth the same way.
//
// Positions are in a screen-aligned view space: x right, y down (as pixel rows go), z the
// distance in front of the camera; kiln's view space turned half a turn about x, so it stays
// right-handed and a pixel offset (dx, dy) points along (dx, dy, 0).
#include "common.wgsl"

// Written by the AO feature (src/render/features/ao.c, uniforms.c).
struct AmbientOcclusion {
    radius: f32,                  // metres: settings.ao_radius
    falloff_start: f32,           // the share of the radius after which an occluder fades out
    power: f32,                   // the visibility is raised to it
    blur_depth_tolerance: f32,    // the blur's relative view-depth difference of no weight
};

// `ao raw` holds half the GTAO estimate: a few slices of an unoccluded surface seen at a grazing
// angle estimate a little above 1 as often as a little below, and clamping each pixel at 1 before
// the blur averaged them would darken open ground. The blur doubles the average, clamps it and
// applies the power.
const AO_RAW_SCALE: f32 = 0.5;

@group(1) @binding(1) var<uniform> ao: AmbientOcclusion;
@group(1) @binding(2) var ao_out: texture_storage_2d<rgba8unorm, write>;
// What the blur reads: the GTAO pass's output (the GTAO pass binds nothing here).
@group(1) @binding(3) var ao_raw: texture_2d<f32>;

const AO_SLICES: u32 = 4u;
const AO_STEPS: u32 = 6u;              // per side of each slice: 48 depth taps a pixel
const HALF_PI: f32 = 1.57079632679490;
// Samples closer than this many pixels are the pixel's own neighbours, which only restate the
// normal the depth gave (XeGTAO's pixelTooCloseThreshold).
const AO_MIN_PIXELS: f32 = 1.3;

fn ao_size() -> vec2<i32> {
    return vec2<i32>(view.screen_size);
}

fn ao_inside(p: vec2<i32>) -> bool {
    let size = ao_size();
    return p.x >= 0 && p.y >= 0 && p.x < size.x && p.y < size.y;
}

fn ao_depth(p: vec2<i32>) -> f32 {
    return textureLoad(depth_texture, clamp(p, vec2<i32>(0), ao_size() - 1), 0);
}

// The screen-aligned view-space position of pixel p's centre at `depth`. Reverse-Z with an
// infinite far plane puts the sky at depth 0, which a tiny depth turns into a point very far
// away: beyond any radius, so it occludes nothing.
fn ao_position(p: vec2<i32>, depth: f32) -> vec3<f32> {
    let uv = (vec2<f32>(p) + 0.5) * view.inverse_screen_size;
    let ndc = vec2<f32>(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0);
    let v = view.clip_to_view * vec4<f32>(ndc, max(depth, 1e-7), 1.0);
    let q = v.xyz / v.w;
    return vec3<f32>(q.x, -q.y, -q.z);
}

// Distance in front of the camera at `depth` (the projection's depth depends on z alone).
fn ao_view_depth(depth: f32) -> f32 {
    let v = view.clip_to_view[2] * max(depth, 1e-7) + view.clip_to_view[3];
    return -v.z / v.w;
}

fn ao_position_at(p: vec2<i32>) -> vec3<f32> {
    return ao_position(p, ao_depth(p));
}

// The normal from the depth alone: on each axis the neighbour whose depth is nearer the centre's,
// so a silhouette's far side does not bend the normal. Points at the camera (-z).
fn ao_normal(p: vec2<i32>, center: vec3<f32>) -> vec3<f32> {
    let left = center - ao_position_at(p + vec2<i32>(-1, 0));
    let right = ao_position_at(p + vec2<i32>(1, 0)) - center;
    let up = center - ao_position_at(p + vec2<i32>(0, -1));
    let down = ao_position_at(p + vec2<i32>(0, 1)) - center;
    let dx = select(right, left, abs(left.z) < abs(right.z));
    let dy = select(down, up, abs(up.z) < abs(down.z));
    return normalize(cross(dy, dx));
}

// Jimenez's interleaved gradient noise: neighbouring pixels get well-spread values, so a small
// blur averages many rotations.
fn ao_noise(p: vec2<f32>) -> f32 {
    return fract(52.9829189 * fract(dot(p, vec2<f32>(0.06711056, 0.00583715))));
}

// The cosine-weighted visible arc from the normal's angle n to horizon angle h, over one side.
fn ao_arc(cos_n: f32, n: f32, h: f32) -> f32 {
    return (cos_n + 2.0 * h * sin(n) - cos(2.0 * h - n)) * 0.25;
}

// Raises the horizon of one side of a slice with the sample at pixel q (one outside the frame
// tells nothing and leaves it as it was). The horizon is kept as the sine of its elevation above
// the surface's tangent plane, within the slice: for a sample in the slice's plane that is
// dot(direction, normal) / |normal projected into the slice|, and the paper's horizon angle is
// n + pi/2 minus its arcsine. Measured from the cosine to the view vector instead (as the paper
// and XeGTAO do), a sample rounded to a whole pixel, off the slice's plane, would stand above
// the slice's tangent line though it lies on the tangent plane, and open flat ground would read
// a few percent occluded; its elevation above the tangent plane stays 0.
fn ao_horizon(q: vec2<i32>, center: vec3<f32>, normal: vec3<f32>, inverse_projected: f32, horizon: f32) -> f32 {
    if (!ao_inside(q)) {
        return horizon;
    }
    let delta = ao_position_at(q) - center;
    let distance = max(length(delta), 1e-6);
    let weight = clamp((ao.radius - distance) / (ao.radius * (1.0 - ao.falloff_start)), 0.0, 1.0);
    return max(horizon, weight * dot(delta, normal) * inverse_projected / distance);
}

@compute @workgroup_size(8, 8)
fn cs_gtao(@builtin(global_invocation_id) id: vec3<u32>) {
    let p = vec2<i32>(id.xy);
    if (!ao_inside(p)) {
        return;
    }
    let depth = ao_depth(p);
    let center = ao_position(p, depth);
    // One pixel's size in metres at the centre's distance, so the radius is a number of pixels:
    // clip w grows with distance for perspective (w = -z) and is 1 for orthographic.
    let clip_w = view.view_to_clip[2][3] * -center.z + view.view_to_clip[3][3];
    let pixel_metres = 2.0 * clip_w / (view.view_to_clip[1][1] * view.screen_size.y);
    let radius_pixels = ao.radius / pixel_metres;
    if (depth <= 0.0 || radius_pixels < AO_MIN_PIXELS) {
        textureStore(ao_out, p, vec4<f32>(AO_RAW_SCALE));
        return;
    }
    let v = normalize(-center);
    let normal = ao_normal(p, center);
    let slice_noise = ao_noise(vec2<f32>(p));
    let step_noise = ao_noise(vec2<f32>(p.yx));
    let min_s = AO_MIN_PIXELS / radius_pixels;

    // The slices turn about the view vector by equal angles. Equal angles on the screen would
    // not be equal about a view vector off the axis, and away from the frame's centre open
    // ground would read a percent or two occluded.
    let across = normalize(cross(vec3<f32>(0.0, 1.0, 0.0), v));
    let along = cross(v, across);
    let pixels_per_unit = 0.5 * view.screen_size * vec2<f32>(view.view_to_clip[0][0], view.view_to_clip[1][1]);

    var visibility = 0.0;
    for (var slice = 0u; slice < AO_SLICES; slice++) {
        let phi = (f32(slice) + slice_noise) * PI / f32(AO_SLICES);
        // The slice: the plane through the view vector and `tangent`, perpendicular to it. The
        // plane passes through the camera, so on the screen it is the line through p along
        // omega, where `tangent` moves the point's projection. The normal's projection into
        // the slice, and its signed angle n from the view vector (positive towards +omega).
        let tangent = cos(phi) * across + sin(phi) * along;
        let omega = normalize(pixels_per_unit * (tangent.xy * center.z - center.xy * tangent.z));
        let axis = normalize(cross(tangent, v));
        let projected = normal - axis * dot(normal, axis);
        let projected_length = length(projected);
        let cos_n = clamp(dot(projected, v) / max(projected_length, 1e-6), 0.0, 1.0);
        let n = select(-1.0, 1.0, dot(tangent, projected) >= 0.0) * acos(cos_n);
        // The horizons start at the tangent plane (nothing occludes) on both sides.
        let inverse_projected = 1.0 / max(projected_length, 1e-6);
        var horizon_positive = 0.0;
        var horizon_negative = 0.0;
        for (var step = 0u; step < AO_STEPS; step++) {
            // Steps at squared distances (denser near the centre, where occluders matter most),
            // jittered along the slice by a golden-ratio sequence over the pixel's noise.
            let jitter = fract(step_noise + f32(slice + step * AO_STEPS) * 0.618033988749895);
            var s = (f32(step) + jitter) / f32(AO_STEPS);
            s = s * s + min_s;
            let offset = vec2<i32>(round(omega * s * radius_pixels));
            horizon_positive = ao_horizon(p + offset, center, normal, inverse_projected, horizon_positive);
            horizon_negative = ao_horizon(p - offset, center, normal, inverse_projected, horizon_negative);
        }
        // Horizon angles from the view vector, within the hemisphere around the normal (an
        // elevation of pi/2 closes that side), and the visible arc between them, weighted as the
        // paper's integral weights each slice.
        let h_negative = n - HALF_PI + asin(min(horizon_negative, 1.0));
        let h_positive = n + HALF_PI - asin(min(horizon_positive, 1.0));
        visibility += projected_length * (ao_arc(cos_n, n, h_negative) + ao_arc(cos_n, n, h_positive));
    }
    let raw = clamp(visibility / f32(AO_SLICES), 0.0, 1.0 / AO_RAW_SCALE) * AO_RAW_SCALE;
    textureStore(ao_out, p, vec4<f32>(raw, raw, raw, 1.0));
}

// The 4x4 blur: the GTAO value averaged over the 4x4 pixels around p (the noise gives each a
// different slice rotation), each weighed down as its view depth leaves the centre's, so
// occlusion does not bleed from one surface onto another behind it.
@compute @workgroup_size(8, 8)
fn cs_ao_blur(@builtin(global_invocation_id) id: vec3<u32>) {
    let p = vec2<i32>(id.xy);
    if (!ao_inside(p)) {
        return;
    }
    let depth = ao_depth(p);
    if (depth <= 0.0) {
        textureStore(ao_out, p, vec4<f32>(1.0));
        return;
    }
    let center_depth = ao_view_depth(depth);
    let tolerance = ao.blur_depth_tolerance * center_depth;
    var total = 0.0;
    var weights = 0.0;
    for (var y = -2; y < 2; y++) {
        for (var x = -2; x < 2; x++) {
            let q = p + vec2<i32>(x, y);
            if (ao_inside(q)) {
                let d = ao_depth(q);
                let w = select(0.0, clamp(1.0 - abs(ao_view_depth(d) - center_depth) / tolerance, 0.0, 1.0), d > 0.0);
                total += w * textureLoad(ao_raw, q, 0).r;
                weights += w;
            }
        }
    }
    // The centre always weighs 1, so weights is never 0.
    let visibility = pow(clamp(total / (weights * AO_RAW_SCALE), 0.0, 1.0), ao.power);
    textureStore(ao_out, p, vec4<f32>(visibility, visibility, visibility, 1.0));
}
