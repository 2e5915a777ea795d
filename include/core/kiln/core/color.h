/* The sRGB transfer functions (IEC 61966-2-1), the one CPU implementation every layer uses: mip
 * filtering of sRGB images in linear light, CPU references of the tone map, tests. */
#ifndef KILN_CORE_COLOR_H
#define KILN_CORE_COLOR_H

#ifdef __cplusplus
extern "C" {
#endif

/* Both take and return values in [0, 1]; inputs outside are clamped first (NaN gives 0). */
float kiln_srgb_to_linear(float encoded);
float kiln_linear_to_srgb(float linear);

#ifdef __cplusplus
}
#endif

#endif
