/* The perspective camera: look-at, view and projection matrices, frustum. */
#include <math.h>

#include <kiln/render/scene.h>

kiln_camera kiln_camera_look_at(kiln_vec3 eye, kiln_vec3 target, kiln_vec3 up, float fov_y, float aspect, float near) {
    /* The view matrix's inverse is the camera's world transform; its rotation part is the
     * camera orientation. */
    kiln_mat4 view = kiln_mat4_look_at(eye, target, up), world;
    kiln_camera c = {.position = eye, .rotation = kiln_quat_identity(), .fov_y = fov_y, .aspect = aspect, .near = near};
    kiln_vec3 t, s;
    if (kiln_mat4_inverse(view, &world)) kiln_mat4_decompose_trs(world, &t, &c.rotation, &s);
    return c;
}

void kiln_camera_set_viewport(kiln_camera *c, uint32_t width, uint32_t height) {
    if (width && height) c->aspect = (float)width / (float)height;
}

kiln_vec3 kiln_camera_forward(const kiln_camera *c) { return kiln_quat_rotate(c->rotation, (kiln_vec3){0, 0, -1}); }

kiln_mat4 kiln_camera_view(const kiln_camera *c) {
    kiln_mat4 world = kiln_mat4_trs(c->position, c->rotation, (kiln_vec3){1, 1, 1}), view;
    if (!kiln_mat4_inverse(world, &view)) return kiln_mat4_identity();
    return view;
}

kiln_mat4 kiln_camera_projection(const kiln_camera *c) {
    return kiln_mat4_perspective_reverse_z_infinite(c->fov_y, c->aspect, c->near);
}

kiln_mat4 kiln_camera_view_projection(const kiln_camera *c) {
    return kiln_mat4_mul(kiln_camera_projection(c), kiln_camera_view(c));
}

kiln_frustum kiln_camera_frustum(const kiln_camera *c) { return kiln_frustum_from_view_proj(kiln_camera_view_projection(c)); }
