// Colour grading (features/color_grading.c): white balance in linear light before the tone map,
// then contrast, saturation, lift / gamma / gain and a 3D lookup table on the display image
// after it, each a fullscreen pass.
//
// The grade works on display-encoded values in [0, 1], as a colourist's tools and a .cube table
// do. Its input has the output's format: 8-bit unorm outputs hold sRGB-encoded values (the tone
// map encodes them), which fs_grade reads as they are; sRGB and float outputs hold linear values,
// which fs_grade_linear encodes first and decodes again after, so the output is encoded once.
// Over a transparent background the input carries colour times coverage (the tone map
// premultiplies for a following filter): it is divided out before the grade and multiplied back
// only when the output is another filter's input.
#include "fullscreen.wgsl"
#include "srgb.wgsl"

struct ColorGrade {
    balance: mat3x3<f32>,       // linear RGB to linear RGB: the chromatic adaptation
    lift: vec3<f32>,            // added to the blacks, fading to nothing at white
    contrast: f32,              // 1 + settings.contrast: the slope about mid grey
    inverse_gamma: vec3<f32>,   // 1 / gamma per channel
    saturation: f32,            // 1 + settings.saturation: the chroma's scale about the luma
    gain: vec3<f32>,            // scales the whites
    premultiplied_in: u32,      // 1: the input is colour times coverage
    lut_scale: vec3<f32>,       // a display value to the table's texel centres: v * scale + offset
    premultiplied_out: u32,     // 1: write colour times coverage (another filter follows)
    lut_offset: vec3<f32>,
    has_lut: u32,               // 1: the table at binding 2 applies; else it is a stand-in
};

@group(0) @binding(0) var input_texture: texture_2d<f32>;
@group(0) @binding(1) var<uniform> grade: ColorGrade;
@group(0) @binding(2) var lut_texture: texture_3d<f32>;
@group(0) @binding(3) var lut_sampler: sampler;      // linear, clamp to edge

// Rec. 709 luma weights: the saturation control keeps this luma.
const LUMA: vec3<f32> = vec3<f32>(0.2126, 0.7152, 0.0722);
const MID_GREY: f32 = 0.5;

@fragment
fn fs_white_balance(in: FullscreenOut) -> @location(0) vec4<f32> {
    let c = textureLoad(input_texture, vec2<i32>(in.clip.xy), 0);
    // Premultiplied colour stays premultiplied under a linear map.
    return vec4<f32>(grade.balance * c.rgb, c.a);
}

// The display controls, then the table, on a display-encoded colour.
fn grade_display(c: vec3<f32>) -> vec3<f32> {
    var v = (c - vec3<f32>(MID_GREY)) * grade.contrast + vec3<f32>(MID_GREY);
    let luma = dot(v, LUMA);
    v = vec3<f32>(luma) + (v - vec3<f32>(luma)) * grade.saturation;
    v = grade.gain * (v + grade.lift * (vec3<f32>(1.0) - v));
    v = pow(max(v, vec3<f32>(0.0)), grade.inverse_gamma);
    v = clamp(v, vec3<f32>(0.0), vec3<f32>(1.0));
    if (grade.has_lut == 1u) {
        v = textureSampleLevel(lut_texture, lut_sampler, v * grade.lut_scale + grade.lut_offset, 0.0).rgb;
    }
    return v;
}

fn grade_pixel(position: vec2<f32>, linear: bool) -> vec4<f32> {
    let c = textureLoad(input_texture, vec2<i32>(position), 0);
    var rgb = c.rgb;
    if (grade.premultiplied_in == 1u && c.a > 0.0) {
        rgb = rgb / c.a;
    }
    if (linear) {
        rgb = srgb_encode(rgb);
    }
    rgb = grade_display(rgb);
    if (linear) {
        rgb = srgb_decode(rgb);
    }
    if (grade.premultiplied_out == 1u) {
        rgb = rgb * c.a;
    }
    return vec4<f32>(rgb, c.a);
}

@fragment
fn fs_grade(in: FullscreenOut) -> @location(0) vec4<f32> {
    return grade_pixel(in.clip.xy, false);
}

@fragment
fn fs_grade_linear(in: FullscreenOut) -> @location(0) vec4<f32> {
    return grade_pixel(in.clip.xy, true);
}
