/* Tone curves, on the CPU: the reference the post shader (tonemap_curves.wgsl) is tested against.
 * All take and return linear Rec.709 values; the result is display-referred linear light in
 * [0, 1], ready for one sRGB encode (by an sRGB target or by the shader for unorm targets; on the
 * CPU, kiln_linear_to_srgb in kiln/core/color.h). */
#ifndef KILN_RENDER_TONEMAP_H
#define KILN_RENDER_TONEMAP_H

#include <kiln/core/math.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The set the Khronos glTF Sample Renderer offers, beside AgX, so a kiln image can be put next to
 * a reference viewer's with the same curve. */
typedef enum kiln_tonemapper {
    KILN_TONEMAP_AGX,             /* default: Troy Sobotka's AgX, base look */
    KILN_TONEMAP_ACES,            /* Narkowicz's fit of the ACES reference rendering transform */
    KILN_TONEMAP_ACES_HILL,       /* Stephen Hill's fitted RRT+ODT (three.js's ACESFilmic) */
    KILN_TONEMAP_ACES_HILL_BOOST, /* the same after a 1 / 0.6 exposure boost */
    KILN_TONEMAP_PBR_NEUTRAL,     /* Khronos PBR Neutral, the glTF reference viewers' default */
    KILN_TONEMAP_NONE,            /* clamp to [0, 1] */
    KILN_TONEMAPPER_COUNT
} kiln_tonemapper;

/* The curves alone, without exposure: KILN_TONEMAP_AGX, _ACES, _ACES_HILL and _PBR_NEUTRAL. */
kiln_vec3 kiln_tonemap_agx(kiln_vec3 linear);
kiln_vec3 kiln_tonemap_aces(kiln_vec3 linear);
kiln_vec3 kiln_tonemap_aces_hill(kiln_vec3 linear);
kiln_vec3 kiln_tonemap_pbr_neutral(kiln_vec3 linear);
/* Exposure, then the curve (the boost variant scales by 1 / 0.6 on top of exposure). */
kiln_vec3 kiln_tonemap_apply(kiln_tonemapper curve, kiln_vec3 linear, float exposure);

#ifdef __cplusplus
}
#endif

#endif
