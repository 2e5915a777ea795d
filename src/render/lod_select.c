/* Level-of-detail selection by projected size (lod_select.h). */
#include "lod_select.h"

#include <math.h>

float kiln_lod_screen_fraction(kiln_vec4 sphere, kiln_mat4 view, kiln_mat4 projection) {
    /* An orthographic projection (w stays 1) draws a sphere the same size at every distance. */
    if (projection.m[15] == 1.0f && projection.m[11] == 0.0f) return sphere.w * projection.m[5];
    /* A rigid view keeps lengths: the centre's distance from the view origin is its distance from
     * the camera. */
    float distance = kiln_vec3_length(kiln_mat4_transform_point(view, (kiln_vec3){sphere.x, sphere.y, sphere.z}));
    if (distance <= sphere.w) return INFINITY;
    return sphere.w * projection.m[5] / distance;
}

uint32_t kiln_lod_select(float fraction, uint32_t lod_count) {
    uint32_t level = fraction >= KILN_LOD_LEVEL1_BELOW ? 0u
                     : fraction >= KILN_LOD_LEVEL2_BELOW ? 1u
                     : fraction >= KILN_LOD_LEVEL3_BELOW ? 2u
                                                         : 3u;
    uint32_t last = lod_count ? lod_count - 1 : 0;
    return level < last ? level : last;
}
