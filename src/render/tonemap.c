/* The tone curves on the CPU, kept numerically identical to tonemap_curves.wgsl so tests can
 * compare the GPU's output against them at sample points.
 *
 * AgX: the "minimal AgX" formulation of Troy Sobotka's transform (constants from his OCIO
 * configuration as published by Benjamin Wrensch): a 3x3 inset into the AgX working space, a log2
 * encoding between -12.47393 and +4.026069 EV around middle grey, a polynomial fit of the default
 * contrast sigmoid, the inverse inset, and the 2.2 display EOTF so the result is linear again
 * (an sRGB target then encodes it once). ACES: Krzysztof Narkowicz's rational fit. ACES Hill:
 * Stephen Hill's fit of the RRT and sRGB ODT (sRGB to the ACES AP1 space with the RRT's
 * saturation, a rational curve, back to sRGB with the ODT's), as the glTF Sample Renderer and
 * three.js's ACESFilmic use it; its boosted form first divides by 0.6, the exposure Narkowicz's fit
 * has built in. PBR Neutral: Khronos' reference formulation (start of compression 0.8 - 0.04,
 * desaturation 0.15), which leaves base colours below the compression start as they are. */
#include <math.h>

#include <kiln/render/tonemap.h>

static float clamp01(float x) { return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }

/* Rows of the AgX inset and outset matrices (out.r = row0 . in). */
static const float AGX_INSET[3][3] = {
    {0.842479062253094f, 0.0784335999999992f, 0.0792237451477643f},
    {0.0423282422610123f, 0.878468636469772f, 0.0791661274605434f},
    {0.0423756549057051f, 0.0784336f, 0.879142973793104f},
};
static const float AGX_OUTSET[3][3] = {
    {1.19687900512017f, -0.0980208811401368f, -0.0990297440797205f},
    {-0.0528968517574562f, 1.15190312990417f, -0.0989611768448433f},
    {-0.0529716355144438f, -0.0980434501171241f, 1.15107367264116f},
};
static const float AGX_MIN_EV = -12.47393f, AGX_MAX_EV = 4.026069f;

static kiln_vec3 mul3(const float m[3][3], kiln_vec3 v) {
    return (kiln_vec3){m[0][0] * v.x + m[0][1] * v.y + m[0][2] * v.z, m[1][0] * v.x + m[1][1] * v.y + m[1][2] * v.z,
                       m[2][0] * v.x + m[2][1] * v.y + m[2][2] * v.z};
}

/* Polynomial fit of AgX's default contrast sigmoid on [0, 1]. */
static float agx_contrast(float x) {
    float x2 = x * x, x4 = x2 * x2;
    return 15.5f * x4 * x2 - 40.14f * x4 * x + 31.96f * x4 - 6.868f * x2 * x + 0.4298f * x2 + 0.1191f * x - 0.00232f;
}

static float agx_channel(float v) {
    /* log2 of zero or a negative value is clamped to the bottom of the range, like the shader's
     * max(v, 1e-10). */
    float ev = log2f(v > 1e-10f ? v : 1e-10f);
    ev = ev < AGX_MIN_EV ? AGX_MIN_EV : ev > AGX_MAX_EV ? AGX_MAX_EV : ev;
    return agx_contrast((ev - AGX_MIN_EV) / (AGX_MAX_EV - AGX_MIN_EV));
}

kiln_vec3 kiln_tonemap_agx(kiln_vec3 c) {
    kiln_vec3 v = mul3(AGX_INSET, c);
    v = (kiln_vec3){agx_channel(v.x), agx_channel(v.y), agx_channel(v.z)};
    v = mul3(AGX_OUTSET, v);
    return (kiln_vec3){powf(clamp01(v.x), 2.2f), powf(clamp01(v.y), 2.2f), powf(clamp01(v.z), 2.2f)};
}

static float aces_channel(float x) {
    x = x < 0.0f ? 0.0f : x;
    return clamp01((x * (2.51f * x + 0.03f)) / (x * (2.43f * x + 0.59f) + 0.14f));
}

kiln_vec3 kiln_tonemap_aces(kiln_vec3 c) {
    return (kiln_vec3){aces_channel(c.x), aces_channel(c.y), aces_channel(c.z)};
}

/* Rows of Hill's input (sRGB to RRT_SAT) and output (ODT_SAT to sRGB) matrices. */
static const float ACES_HILL_INPUT[3][3] = {
    {0.59719f, 0.35458f, 0.04823f},
    {0.07600f, 0.90834f, 0.01566f},
    {0.02840f, 0.13383f, 0.83777f},
};
static const float ACES_HILL_OUTPUT[3][3] = {
    {1.60475f, -0.53108f, -0.07367f},
    {-0.10208f, 1.10813f, -0.00605f},
    {-0.00327f, -0.07276f, 1.07602f},
};
static const float ACES_HILL_BOOST = 1.0f / 0.6f;

static float aces_hill_fit(float x) {
    float a = x * (x + 0.0245786f) - 0.000090537f;
    float b = x * (0.983729f * x + 0.4329510f) + 0.238081f;
    return a / b;
}

kiln_vec3 kiln_tonemap_aces_hill(kiln_vec3 c) {
    kiln_vec3 v = mul3(ACES_HILL_INPUT, c);
    v = (kiln_vec3){aces_hill_fit(v.x), aces_hill_fit(v.y), aces_hill_fit(v.z)};
    v = mul3(ACES_HILL_OUTPUT, v);
    return (kiln_vec3){clamp01(v.x), clamp01(v.y), clamp01(v.z)};
}

static const float PBR_NEUTRAL_START = 0.8f - 0.04f, PBR_NEUTRAL_DESATURATION = 0.15f;

kiln_vec3 kiln_tonemap_pbr_neutral(kiln_vec3 c) {
    /* The curve is defined for light, which is never negative: a negative input would shift the
     * others up by its own offset. */
    c = (kiln_vec3){fmaxf(c.x, 0.0f), fmaxf(c.y, 0.0f), fmaxf(c.z, 0.0f)};
    float x = fminf(c.x, fminf(c.y, c.z));
    float offset = x < 0.08f ? x - 6.25f * x * x : 0.04f;
    c = (kiln_vec3){c.x - offset, c.y - offset, c.z - offset};
    float peak = fmaxf(c.x, fmaxf(c.y, c.z));
    if (peak < PBR_NEUTRAL_START) return c;
    const float d = 1.0f - PBR_NEUTRAL_START;
    float new_peak = 1.0f - d * d / (peak + d - PBR_NEUTRAL_START);
    float scale = new_peak / peak;
    c = (kiln_vec3){c.x * scale, c.y * scale, c.z * scale};
    float g = 1.0f - 1.0f / (PBR_NEUTRAL_DESATURATION * (peak - new_peak) + 1.0f);
    return (kiln_vec3){c.x + (new_peak - c.x) * g, c.y + (new_peak - c.y) * g, c.z + (new_peak - c.z) * g};
}

kiln_vec3 kiln_tonemap_apply(kiln_tonemapper curve, kiln_vec3 c, float exposure) {
    c = (kiln_vec3){c.x * exposure, c.y * exposure, c.z * exposure};
    switch (curve) {
    case KILN_TONEMAP_ACES: return kiln_tonemap_aces(c);
    case KILN_TONEMAP_ACES_HILL: return kiln_tonemap_aces_hill(c);
    case KILN_TONEMAP_ACES_HILL_BOOST:
        return kiln_tonemap_aces_hill((kiln_vec3){c.x * ACES_HILL_BOOST, c.y * ACES_HILL_BOOST, c.z * ACES_HILL_BOOST});
    case KILN_TONEMAP_PBR_NEUTRAL: return kiln_tonemap_pbr_neutral(c);
    case KILN_TONEMAP_NONE: return (kiln_vec3){clamp01(c.x), clamp01(c.y), clamp01(c.z)};
    default: return kiln_tonemap_agx(c);
    }
}
