// FXAA on the tone-mapped image (the `ldr` transient) into the output, after Timothy Lottes'
// FXAA 3.11 quality preset: a pixel whose cross neighbourhood has little contrast is copied
// unchanged; elsewhere the edge through it is classified horizontal or vertical from second
// differences, searched along in both directions to its ends, and the pixel is resampled across
// it by how far it sits from the nearer end (plus a sub-pixel term for isolated pixels).
//
// Luma is taken of display-encoded values, as FXAA is tuned for. The ldr texture has the output's
// format: 8-bit unorm outputs hold sRGB-encoded values (the tone map encodes them), which
// fs_fxaa reads as they are; sRGB and float outputs hold linear values, for which fs_fxaa_linear
// takes the square root of the luma as the encoding. Either way the colour written back is in the
// texture's own terms, so the output is encoded exactly once.
#include "fullscreen.wgsl"

@group(0) @binding(0) var ldr_texture: texture_2d<f32>;
@group(0) @binding(1) var ldr_sampler: sampler;      // linear, clamp to edge

// Below this contrast (absolute, or relative to the brightest neighbour) a pixel is left alone.
const FXAA_EDGE_MIN: f32 = 0.0312;
const FXAA_EDGE_RELATIVE: f32 = 0.125;
const FXAA_SUBPIXEL: f32 = 0.75;
const FXAA_SEARCH_STEPS: u32 = 10u;

// How far each search step moves along the edge, in pixels: fine near the pixel, coarse far out.
fn fxaa_search_step(i: u32) -> f32 {
    if (i < 5u) {
        return 1.0;
    }
    if (i == 5u) {
        return 1.5;
    }
    if (i < 9u) {
        return 2.0;
    }
    return 4.0;
}

fn fxaa_luma(c: vec3<f32>, linear: bool) -> f32 {
    let y = dot(c, vec3<f32>(0.299, 0.587, 0.114));
    return select(y, sqrt(y), linear);
}

fn fxaa_luma_at(pixel: vec2<i32>, linear: bool) -> f32 {
    let last = vec2<i32>(textureDimensions(ldr_texture)) - 1;
    return fxaa_luma(textureLoad(ldr_texture, clamp(pixel, vec2<i32>(0), last), 0).rgb, linear);
}

fn fxaa_luma_sample(uv: vec2<f32>, linear: bool) -> f32 {
    return fxaa_luma(textureSampleLevel(ldr_texture, ldr_sampler, uv, 0.0).rgb, linear);
}

// The input is premultiplied by coverage (alpha, 1 everywhere but over a transparent background,
// where the tone map premultiplies for this pass); the output is straight colour, as the target
// wants it.
fn straight(c: vec4<f32>) -> vec4<f32> {
    return vec4<f32>(select(vec3<f32>(0.0), c.rgb / c.a, c.a > 0.0), c.a);
}

fn fxaa(position: vec2<f32>, linear: bool) -> vec4<f32> {
    let pixel = vec2<i32>(position);
    let texel = 1.0 / vec2<f32>(textureDimensions(ldr_texture));
    let uv = position * texel;
    let center = textureLoad(ldr_texture, pixel, 0);
    let m = fxaa_luma(center.rgb, linear);
    let n = fxaa_luma_at(pixel + vec2<i32>(0, -1), linear);
    let s = fxaa_luma_at(pixel + vec2<i32>(0, 1), linear);
    let e = fxaa_luma_at(pixel + vec2<i32>(1, 0), linear);
    let w = fxaa_luma_at(pixel + vec2<i32>(-1, 0), linear);
    let lo = min(m, min(min(n, s), min(e, w)));
    let hi = max(m, max(max(n, s), max(e, w)));
    let range = hi - lo;
    if (range < max(FXAA_EDGE_MIN, hi * FXAA_EDGE_RELATIVE)) {
        return straight(center);
    }
    let nw = fxaa_luma_at(pixel + vec2<i32>(-1, -1), linear);
    let ne = fxaa_luma_at(pixel + vec2<i32>(1, -1), linear);
    let sw = fxaa_luma_at(pixel + vec2<i32>(-1, 1), linear);
    let se = fxaa_luma_at(pixel + vec2<i32>(1, 1), linear);

    // A horizontal edge changes luma from row to row: compare the vertical second differences
    // with the horizontal ones.
    let across_rows = abs(n + s - 2.0 * m) * 2.0 + abs(ne + se - 2.0 * e) + abs(nw + sw - 2.0 * w);
    let across_columns = abs(e + w - 2.0 * m) * 2.0 + abs(ne + nw - 2.0 * n) + abs(se + sw - 2.0 * s);
    let horizontal = across_rows >= across_columns;

    // The side of the pixel the edge lies on: the neighbour across it with the larger step.
    let before = select(w, n, horizontal);
    let after = select(e, s, horizontal);
    let step_before = abs(before - m);
    let step_after = abs(after - m);
    let toward_before = step_before >= step_after;
    let gradient = 0.25 * max(step_before, step_after);
    let across = select(texel.x, texel.y, horizontal) * select(1.0, -1.0, toward_before);
    let edge_average = 0.5 * (select(after, before, toward_before) + m);

    // Walk along the edge, half a pixel toward it, until the luma leaves the edge's average.
    let along = select(vec2<f32>(0.0, texel.y), vec2<f32>(texel.x, 0.0), horizontal);
    var edge_uv = uv;
    if (horizontal) {
        edge_uv.y += 0.5 * across;
    } else {
        edge_uv.x += 0.5 * across;
    }
    var uv_neg = edge_uv - along;
    var uv_pos = edge_uv + along;
    var end_neg = fxaa_luma_sample(uv_neg, linear) - edge_average;
    var end_pos = fxaa_luma_sample(uv_pos, linear) - edge_average;
    var done_neg = abs(end_neg) >= gradient;
    var done_pos = abs(end_pos) >= gradient;
    for (var i = 1u; i < FXAA_SEARCH_STEPS && !(done_neg && done_pos); i++) {
        if (!done_neg) {
            uv_neg -= along * fxaa_search_step(i);
            end_neg = fxaa_luma_sample(uv_neg, linear) - edge_average;
            done_neg = abs(end_neg) >= gradient;
        }
        if (!done_pos) {
            uv_pos += along * fxaa_search_step(i);
            end_pos = fxaa_luma_sample(uv_pos, linear) - edge_average;
            done_pos = abs(end_pos) >= gradient;
        }
    }

    // Resample across the edge by the distance to the nearer end, but only when that end bends
    // toward this pixel's side (its luma moves away from the average the way this pixel's does).
    let dist_neg = select(uv.y - uv_neg.y, uv.x - uv_neg.x, horizontal);
    let dist_pos = select(uv_pos.y - uv.y, uv_pos.x - uv.x, horizontal);
    let nearer_neg = dist_neg < dist_pos;
    let nearest = min(dist_neg, dist_pos);
    let end_luma = select(end_pos, end_neg, nearer_neg);
    let bends_here = (end_luma < 0.0) != (m - edge_average < 0.0);
    let edge_offset = select(0.0, 0.5 - nearest / (dist_neg + dist_pos), bends_here);

    // An isolated pixel (unlike the average of its neighbours) is blended by that difference.
    let average = (2.0 * (n + s + e + w) + nw + ne + sw + se) / 12.0;
    let contrast = clamp(abs(average - m) / range, 0.0, 1.0);
    let smooth_contrast = (3.0 - 2.0 * contrast) * contrast * contrast;
    let subpixel_offset = smooth_contrast * smooth_contrast * FXAA_SUBPIXEL;

    let offset = max(edge_offset, subpixel_offset);
    var final_uv = uv;
    if (horizontal) {
        final_uv.y += offset * across;
    } else {
        final_uv.x += offset * across;
    }
    // Colour and coverage move together.
    return straight(textureSampleLevel(ldr_texture, ldr_sampler, final_uv, 0.0));
}

@fragment
fn fs_fxaa(in: FullscreenOut) -> @location(0) vec4<f32> {
    return fxaa(in.clip.xy, false);
}

@fragment
fn fs_fxaa_linear(in: FullscreenOut) -> @location(0) vec4<f32> {
    return fxaa(in.clip.xy, true);
}
