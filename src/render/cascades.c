/* Cascade splits and stable cascade fitting (cascades.h). */
#include <math.h>

#include "cascades.h"

void kiln_cascade_splits_into(float out[KILN_CASCADE_COUNT], float near, float far) {
    for (int i = 1; i <= KILN_CASCADE_COUNT; i++) {
        float t = (float)i / KILN_CASCADE_COUNT;
        float logarithmic = near * powf(far / near, t), uniform = near + (far - near) * t;
        out[i - 1] = KILN_CASCADE_LAMBDA * logarithmic + (1.0f - KILN_CASCADE_LAMBDA) * uniform;
    }
    out[KILN_CASCADE_COUNT - 1] = far; /* exactly, whatever powf rounds to */
}

void kiln_cascade_slice_sphere(const kiln_camera *camera, float d0, float d1, kiln_vec3 *center, float *radius) {
    if (camera->projection == KILN_PROJECTION_ORTHOGRAPHIC) {
        /* The slice is a box: its corners lie half_height * sqrt(1 + aspect^2) from the axis at
         * every depth, so the sphere centres at the middle depth. */
        float h = camera->half_height, half_depth = 0.5f * (d1 - d0);
        *radius = sqrtf(half_depth * half_depth + h * h * (1.0f + camera->aspect * camera->aspect));
        *center = kiln_vec3_add(camera->position, kiln_vec3_scale(kiln_camera_forward(camera), 0.5f * (d0 + d1)));
        return;
    }
    /* A corner at view depth d lies d * k from the view axis, k = tan(fov / 2) * sqrt(1 + aspect^2).
     * The centre at depth z is as far from the near corners as from the far ones:
     * (z - d0)^2 + (d0 k)^2 = (d1 - z)^2 + (d1 k)^2. */
    float tan_half = tanf(camera->fov_y * 0.5f);
    float k2 = tan_half * tan_half * (1.0f + camera->aspect * camera->aspect);
    float z = 0.5f * (d0 + d1) * (1.0f + k2);
    if (z >= d1) {
        z = d1;
        *radius = d1 * sqrtf(k2);
    } else {
        *radius = sqrtf((d1 - z) * (d1 - z) + d1 * d1 * k2);
    }
    *center = kiln_vec3_add(camera->position, kiln_vec3_scale(kiln_camera_forward(camera), z));
}

kiln_mat4 kiln_cascade_light_basis(kiln_vec3 sun_direction) {
    kiln_vec3 up = fabsf(sun_direction.y) > 0.99f ? (kiln_vec3){0, 0, 1} : (kiln_vec3){0, 1, 0};
    return kiln_mat4_look_at((kiln_vec3){0, 0, 0}, sun_direction, up);
}

/* The multiple of `step` nearest below v: whole texels. */
static float snap(float v, float step) { return floorf(v / step) * step; }

kiln_cascade kiln_cascade_fit(const kiln_camera *camera, float d0, float d1, kiln_vec3 sun_direction,
                              uint32_t resolution, float caster_reach) {
    kiln_cascade c = {.split_near = d0, .split_far = d1};
    kiln_vec3 center;
    float radius;
    kiln_cascade_slice_sphere(camera, d0, d1, &center, &radius);
    /* Rounding up keeps the radius, and so the texel size, identical through the float noise of
     * a turning camera. */
    c.radius = ceilf(radius * 16.0f) / 16.0f;
    c.texel_world = 2.0f * c.radius / (float)resolution;
    kiln_mat4 basis = kiln_cascade_light_basis(sun_direction), to_world;
    kiln_vec3 light = kiln_mat4_transform_point(basis, center);
    light = (kiln_vec3){snap(light.x, c.texel_world), snap(light.y, c.texel_world), snap(light.z, c.texel_world)};
    c.view = kiln_mat4_mul(kiln_mat4_translation(kiln_vec3_scale(light, -1.0f)), basis);
    c.center = kiln_mat4_inverse(basis, &to_world) ? kiln_mat4_transform_point(to_world, light) : center;
    /* Light space looks down -Z: z = radius + reach (towards the sun) is depth 1, z = -radius 0,
     * one texel further for the part of the sphere snapping moved past it. */
    c.projection = kiln_mat4_orthographic_reverse_z(-c.radius, c.radius, -c.radius, c.radius,
                                                    -(c.radius + caster_reach), c.radius + c.texel_world);
    return c;
}

void kiln_cascades_fit_into(kiln_cascade out[KILN_CASCADE_COUNT], const kiln_camera *camera, kiln_vec3 sun_direction,
                            float shadow_distance, uint32_t resolution) {
    float splits[KILN_CASCADE_COUNT];
    /* The logarithmic part of the splits needs a near plane above zero, which an orthographic
     * camera need not have; the first cascade still starts at the camera's own near. */
    float split_near = camera->near;
    if (camera->projection == KILN_PROJECTION_ORTHOGRAPHIC) split_near = fmaxf(split_near, 1e-3f * shadow_distance);
    kiln_cascade_splits_into(splits, split_near, shadow_distance);
    for (int i = 0; i < KILN_CASCADE_COUNT; i++)
        out[i] = kiln_cascade_fit(camera, i ? splits[i - 1] : camera->near, splits[i], sun_direction, resolution,
                                  shadow_distance);
}
