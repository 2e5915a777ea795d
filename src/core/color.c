/* sRGB encode and decode. The thresholds are the standard's own pair: 0.04045 on the encoded side
 * is where the linear segment (slope 12.92) meets the 2.4 power curve, 0.0031308 its image on the
 * linear side. */
#include <math.h>

#include <kiln/core/color.h>

/* `!(c > 0)` rather than `c < 0` so NaN lands on 0 instead of reaching powf. */
static float clamp01(float c) { return !(c > 0.0f) ? 0.0f : c > 1.0f ? 1.0f : c; }

float kiln_srgb_to_linear(float c) {
    c = clamp01(c);
    return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

float kiln_linear_to_srgb(float c) {
    c = clamp01(c);
    return c <= 0.0031308f ? c * 12.92f : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
}
