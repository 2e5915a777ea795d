/* Which level of detail an instance draws: chosen by how much of the frame's height its bounding
 * sphere covers. Pure math, no GPU and no allocation, so tests/render/test_lod_select.c checks
 * the thresholds without a device.
 *
 * The measure is the sphere's diameter projected at its distance from the camera, as a fraction
 * of the frame height: radius * projection[1][1] / distance (projection[1][1] = 1 / tan(fov_y /
 * 2)). The distance rather than the view depth, so turning the camera never switches a level (an
 * instance at the frame's edge has a smaller depth than at its centre) and a shadow caster behind
 * the camera gets a level by its distance too. It depends on the field of view and not on the
 * pixel count, so the same framing picks the same level at any resolution. */
#ifndef KILN_RENDER_LOD_SELECT_H
#define KILN_RENDER_LOD_SELECT_H

#include <kiln/core.h>

/* Below these fractions of the frame height a mesh switches to level 1, 2 and 3. */
#define KILN_LOD_LEVEL1_BELOW (1.0f / 4.0f)
#define KILN_LOD_LEVEL2_BELOW (1.0f / 8.0f)
#define KILN_LOD_LEVEL3_BELOW (1.0f / 16.0f)

/* The fraction of the frame height covered by `sphere` (world centre xyz, radius w) seen through
 * `view` (world to view, rigid) and `projection`: perspective, where it shrinks with distance, or
 * orthographic (w = 1), where it does not. A sphere a perspective camera is inside
 * of covers the whole frame: INFINITY. */
float kiln_lod_screen_fraction(kiln_vec4 sphere, kiln_mat4 view, kiln_mat4 projection);

/* The level for a sphere covering `fraction` of the frame height: 0 at 1/4 and above, 1 below
 * 1/4, 2 below 1/8, 3 below 1/16, clamped to the mesh's `lod_count` levels (0 for 0 or 1). */
uint32_t kiln_lod_select(float fraction, uint32_t lod_count);

#endif
