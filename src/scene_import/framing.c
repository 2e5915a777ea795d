/* The camera framed from a model's bounds (kiln_import_frame), the near plane a model's
 * bounds want (kiln_import_look_at) and the shadow distance that covers it (kiln_import_shadow_distance). */
#include <math.h>

#include <kiln/import.h>

/* A model of no size (a single point, or nothing at all) is framed as if it were a metre across,
 * so the camera still has a distance and a near plane. */
static float usable_radius(const kiln_mesh_bounds *b) {
    return b->radius > 0.0f && isfinite(b->radius) ? b->radius : 1.0f;
}

kiln_camera kiln_import_look_at(const kiln_mesh_bounds *bounds, kiln_vec3 eye, kiln_vec3 target, kiln_vec3 up,
                                float fov_y, float aspect) {
    float radius = usable_radius(bounds);
    float to_sphere = kiln_vec3_length(kiln_vec3_sub(eye, bounds->center)) - radius;
    return kiln_camera_look_at(eye, target, up, fov_y, aspect, fmaxf(0.5f * to_sphere, radius * 1e-3f));
}

kiln_camera kiln_import_frame(const kiln_mesh_bounds *bounds, float fov_y, float aspect) {
    float half = fminf(0.5f * fov_y, atanf(tanf(0.5f * fov_y) * aspect));
    float distance = KILN_IMPORT_FRAME_MARGIN * usable_radius(bounds) / sinf(half);
    float ce = cosf(KILN_IMPORT_FRAME_ELEVATION);
    kiln_vec3 from = {ce * sinf(KILN_IMPORT_FRAME_AZIMUTH), sinf(KILN_IMPORT_FRAME_ELEVATION), ce * cosf(KILN_IMPORT_FRAME_AZIMUTH)};
    kiln_vec3 eye = kiln_vec3_add(bounds->center, kiln_vec3_scale(from, distance));
    return kiln_import_look_at(bounds, eye, bounds->center, (kiln_vec3){0, 1, 0}, fov_y, aspect);
}

float kiln_import_shadow_distance(const kiln_mesh_bounds *bounds, const kiln_camera *camera) {
    float radius = usable_radius(bounds);
    float depth = kiln_vec3_dot(kiln_vec3_sub(bounds->center, camera->position), kiln_camera_forward(camera));
    return fmaxf(depth + radius, camera->near + radius);
}
