/* Cascaded sun shadows on the CPU: where the four cascades split the camera's depth range, and
 * the orthographic light view each one renders from. Pure math, no GPU and no allocation, so
 * tests/render/test_cascades.c checks it without a device.
 *
 * Stable cascades (no shimmer): each slice of the camera frustum is covered by the bounding
 * sphere of its corners, whose radius depends only on the slice's depths, the field of view and
 * the aspect, never on where the camera looks, so the footprint and the world size of a shadow
 * texel stay fixed while the camera turns. The sphere's centre is snapped to whole texels in a
 * light-space basis that depends on the sun alone, so a moving camera shifts the map by whole
 * texels and every edge samples the same texels from frame to frame. */
#ifndef KILN_RENDER_CASCADES_H
#define KILN_RENDER_CASCADES_H

#include <kiln/render/scene.h>

#define KILN_CASCADE_COUNT 4
/* Practical split scheme: this share logarithmic, the rest uniform. */
#define KILN_CASCADE_LAMBDA 0.75f

/* One cascade's light view, fitted to one slice of the camera frustum. */
typedef struct kiln_cascade {
    kiln_mat4 view;        /* world to light space: the fixed sun basis, origin at the snapped centre */
    kiln_mat4 projection;  /* orthographic, reverse-Z: depth 1 towards the sun */
    kiln_vec3 center;      /* the snapped centre of the slice's bounding sphere, world space */
    float radius;          /* of the bounding sphere, rounded up to 1/16 m: half the map's width */
    float texel_world;     /* metres one shadow texel covers: 2 radius / resolution */
    float split_near, split_far; /* the slice, in view depth (metres in front of the camera) */
} kiln_cascade;

/* The far view depth of each cascade between `near` and `far`, the practical split scheme:
 * lambda * near * (far / near)^(i / 4) + (1 - lambda) * (near + (far - near) * i / 4), i = 1..4;
 * out[3] is `far`. Requires 0 < near < far. */
void kiln_cascade_splits_into(float out[KILN_CASCADE_COUNT], float near, float far);

/* The bounding sphere of the camera frustum between view depths d0 < d1: the smallest sphere
 * through all eight corners (its centre on the view axis), or, for a slice so wide that the
 * far corners alone decide, the sphere around the far rectangle. Radius before quantising. */
void kiln_cascade_slice_sphere(const kiln_camera *camera, float d0, float d1, kiln_vec3 *center, float *radius);

/* The world-to-light rotation of a sun shining along `sun_direction` (unit length): light space
 * looks down -Z along the sunlight; up is world +Y, or +Z for a sun near vertical. */
kiln_mat4 kiln_cascade_light_basis(kiln_vec3 sun_direction);

/* Fits the cascade of the slice [d0, d1] for a `resolution`-texel map: the slice's sphere, its
 * radius rounded up to 1/16, its centre snapped to whole texels (on all three light axes) in the
 * light basis, and an orthographic box that reaches `caster_reach` metres further towards the sun
 * than the sphere, so casters between the sun and the slice are drawn. */
kiln_cascade kiln_cascade_fit(const kiln_camera *camera, float d0, float d1, kiln_vec3 sun_direction,
                              uint32_t resolution, float caster_reach);

/* All four cascades from the camera's near plane to `shadow_distance`; casters are drawn up to
 * shadow_distance metres beyond each slice towards the sun. Requires near < shadow_distance. */
void kiln_cascades_fit_into(kiln_cascade out[KILN_CASCADE_COUNT], const kiln_camera *camera, kiln_vec3 sun_direction,
                            float shadow_distance, uint32_t resolution);

#endif
