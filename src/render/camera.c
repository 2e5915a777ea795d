/* Cameras, perspective and orthographic: look-at, checks, view and projection matrices, frustum. */
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

kiln_camera kiln_camera_orthographic_look_at(kiln_vec3 eye, kiln_vec3 target, kiln_vec3 up, float half_height,
                                             float aspect, float near, float far) {
    kiln_camera c = kiln_camera_look_at(eye, target, up, 0.0f, aspect, near);
    c.projection = KILN_PROJECTION_ORTHOGRAPHIC;
    c.half_height = half_height;
    c.far = far;
    return c;
}

bool kiln_camera_check(const kiln_camera *c, kiln_error *err) {
    switch (c->projection) {
    case KILN_PROJECTION_PERSPECTIVE:
        if (!(c->fov_y > 0.0f && c->fov_y < KILN_PI))
            return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "camera.fov_y: %g is not in (0, pi) radians",
                                  (double)c->fov_y);
        if (!(c->near > 0.0f && isfinite(c->near)))
            return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                                  "camera.near: %g is not a positive distance (a perspective camera needs one)",
                                  (double)c->near);
        return true;
    case KILN_PROJECTION_ORTHOGRAPHIC:
        if (!(c->half_height > 0.0f && isfinite(c->half_height)))
            return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "camera.half_height: %g is not a positive height",
                                  (double)c->half_height);
        if (!(c->near >= 0.0f && isfinite(c->near)))
            return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "camera.near: %g is negative or not finite",
                                  (double)c->near);
        if (!(c->far > c->near && isfinite(c->far)))
            return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                                  "camera.far: %g is not beyond near (%g); an orthographic camera needs a far plane",
                                  (double)c->far, (double)c->near);
        return true;
    }
    return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "camera.projection: %d is not a kiln_projection_kind",
                          (int)c->projection);
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
    if (c->projection == KILN_PROJECTION_ORTHOGRAPHIC) {
        float h = c->half_height, w = c->half_height * c->aspect;
        return kiln_mat4_orthographic_reverse_z(-w, w, -h, h, c->near, c->far);
    }
    return kiln_mat4_perspective_reverse_z_infinite(c->fov_y, c->aspect, c->near);
}

kiln_mat4 kiln_camera_view_projection(const kiln_camera *c) {
    return kiln_mat4_mul(kiln_camera_projection(c), kiln_camera_view(c));
}

kiln_frustum kiln_camera_frustum(const kiln_camera *c) { return kiln_frustum_from_view_proj(kiln_camera_view_projection(c)); }
