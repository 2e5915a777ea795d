// Tone curves. Kept numerically identical to src/render/tonemap.c, the CPU reference that
// tests/render/test_tonemap.c compares this file against. Input and output are linear Rec.709;
// the output is display-referred in [0, 1], ready for one sRGB encode.

// TONEMAP_*, the values of kiln_tonemapper, come from the generated kiln_enums.wgsl.
#include "kiln_enums.wgsl"

const AGX_MIN_EV: f32 = -12.47393;
const AGX_MAX_EV: f32 = 4.026069;

// WGSL matrices are column-major: these columns are the rows of AGX_INSET / AGX_OUTSET in
// tonemap.c transposed, so that m * v matches the C code.
const AGX_INSET = mat3x3<f32>(
    vec3<f32>(0.842479062253094, 0.0423282422610123, 0.0423756549057051),
    vec3<f32>(0.0784335999999992, 0.878468636469772, 0.0784336),
    vec3<f32>(0.0792237451477643, 0.0791661274605434, 0.879142973793104));
const AGX_OUTSET = mat3x3<f32>(
    vec3<f32>(1.19687900512017, -0.0528968517574562, -0.0529716355144438),
    vec3<f32>(-0.0980208811401368, 1.15190312990417, -0.0980434501171241),
    vec3<f32>(-0.0990297440797205, -0.0989611768448433, 1.15107367264116));

fn agx_contrast(x: vec3<f32>) -> vec3<f32> {
    let x2 = x * x;
    let x4 = x2 * x2;
    return 15.5 * x4 * x2 - 40.14 * x4 * x + 31.96 * x4 - 6.868 * x2 * x + 0.4298 * x2 + 0.1191 * x - 0.00232;
}

fn tonemap_agx(c: vec3<f32>) -> vec3<f32> {
    var v = AGX_INSET * c;
    v = clamp(log2(max(v, vec3<f32>(1e-10))), vec3<f32>(AGX_MIN_EV), vec3<f32>(AGX_MAX_EV));
    v = agx_contrast((v - AGX_MIN_EV) / (AGX_MAX_EV - AGX_MIN_EV));
    v = AGX_OUTSET * v;
    return pow(clamp(v, vec3<f32>(0.0), vec3<f32>(1.0)), vec3<f32>(2.2));
}

fn tonemap_aces(c: vec3<f32>) -> vec3<f32> {
    let x = max(c, vec3<f32>(0.0));
    return clamp((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14), vec3<f32>(0.0), vec3<f32>(1.0));
}

// Columns: the rows of ACES_HILL_INPUT / ACES_HILL_OUTPUT in tonemap.c transposed.
const ACES_HILL_INPUT = mat3x3<f32>(
    vec3<f32>(0.59719, 0.07600, 0.02840),
    vec3<f32>(0.35458, 0.90834, 0.13383),
    vec3<f32>(0.04823, 0.01566, 0.83777));
const ACES_HILL_OUTPUT = mat3x3<f32>(
    vec3<f32>(1.60475, -0.10208, -0.00327),
    vec3<f32>(-0.53108, 1.10813, -0.07276),
    vec3<f32>(-0.07367, -0.00605, 1.07602));
const ACES_HILL_BOOST: f32 = 1.0 / 0.6;

fn tonemap_aces_hill(c: vec3<f32>) -> vec3<f32> {
    let v = ACES_HILL_INPUT * c;
    let a = v * (v + 0.0245786) - 0.000090537;
    let b = v * (0.983729 * v + 0.4329510) + 0.238081;
    return clamp(ACES_HILL_OUTPUT * (a / b), vec3<f32>(0.0), vec3<f32>(1.0));
}

const PBR_NEUTRAL_START: f32 = 0.8 - 0.04;
const PBR_NEUTRAL_DESATURATION: f32 = 0.15;

fn tonemap_pbr_neutral(linear: vec3<f32>) -> vec3<f32> {
    var c = max(linear, vec3<f32>(0.0));
    let x = min(c.r, min(c.g, c.b));
    let offset = select(0.04, x - 6.25 * x * x, x < 0.08);
    c -= offset;
    let peak = max(c.r, max(c.g, c.b));
    if (peak < PBR_NEUTRAL_START) {
        return c;
    }
    let d = 1.0 - PBR_NEUTRAL_START;
    let new_peak = 1.0 - d * d / (peak + d - PBR_NEUTRAL_START);
    c *= new_peak / peak;
    let g = 1.0 - 1.0 / (PBR_NEUTRAL_DESATURATION * (peak - new_peak) + 1.0);
    return mix(c, vec3<f32>(new_peak), g);
}

fn tonemap_apply(curve: u32, c: vec3<f32>, exposure: f32) -> vec3<f32> {
    let v = c * exposure;
    if (curve == TONEMAP_ACES) {
        return tonemap_aces(v);
    }
    if (curve == TONEMAP_ACES_HILL) {
        return tonemap_aces_hill(v);
    }
    if (curve == TONEMAP_ACES_HILL_BOOST) {
        return tonemap_aces_hill(v * ACES_HILL_BOOST);
    }
    if (curve == TONEMAP_PBR_NEUTRAL) {
        return tonemap_pbr_neutral(v);
    }
    if (curve == TONEMAP_NONE) {
        return clamp(v, vec3<f32>(0.0), vec3<f32>(1.0));
    }
    return tonemap_agx(v);
}
