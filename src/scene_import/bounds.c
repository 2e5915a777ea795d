/* World bounds of instances (bounds.h), which frame the camera. */
#include <math.h>

#include "bounds.h"

/* The length of the longest of the matrix's first three columns: how much it can stretch a
 * sphere's radius. */
static float max_axis_scale(const kiln_mat4 *m) {
    float s = 0.0f;
    for (int col = 0; col < 3; col++) {
        kiln_vec3 axis = {m->m[col * 4 + 0], m->m[col * 4 + 1], m->m[col * 4 + 2]};
        s = fmaxf(s, kiln_vec3_length(axis));
    }
    return s;
}

kiln_mesh_bounds bounds_of_instances(const kiln_render_instance *instances, const kiln_mesh_bounds *model_bounds,
                                     uint32_t count) {
    kiln_mesh_bounds b = {0};
    if (!count) return b;
    b.min = (kiln_vec3){INFINITY, INFINITY, INFINITY};
    b.max = (kiln_vec3){-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t i = 0; i < count; i++) {
        const kiln_mesh_bounds *mb = &model_bounds[i];
        for (int corner = 0; corner < 8; corner++) {
            kiln_vec3 p = {corner & 1 ? mb->max.x : mb->min.x, corner & 2 ? mb->max.y : mb->min.y,
                           corner & 4 ? mb->max.z : mb->min.z};
            p = kiln_mat4_transform_point(instances[i].transform, p);
            b.min = (kiln_vec3){fminf(b.min.x, p.x), fminf(b.min.y, p.y), fminf(b.min.z, p.z)};
            b.max = (kiln_vec3){fmaxf(b.max.x, p.x), fmaxf(b.max.y, p.y), fmaxf(b.max.z, p.z)};
        }
    }
    b.center = kiln_vec3_scale(kiln_vec3_add(b.min, b.max), 0.5f);
    float spheres = 0.0f;
    for (uint32_t i = 0; i < count; i++) {
        kiln_vec3 c = kiln_mat4_transform_point(instances[i].transform, model_bounds[i].center);
        spheres = fmaxf(spheres, kiln_vec3_length(kiln_vec3_sub(c, b.center)) +
                                     model_bounds[i].radius * max_axis_scale(&instances[i].transform));
    }
    b.radius = fminf(spheres, 0.5f * kiln_vec3_length(kiln_vec3_sub(b.max, b.min)));
    return b;
}
