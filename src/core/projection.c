/* Camera matrices: the view matrix and the two reverse-Z projections kiln renders with.
 *
 * Reverse-Z stores depth as near -> 1, far -> 0. Floats are densest near 0, which is where the
 * distant geometry lands, so depth precision stays almost uniform over distance; with an infinite
 * far plane no scene is ever clipped at the back. Depth tests compare greater-or-equal and depth
 * is cleared to 0. */
#include <kiln/core/math.h>

#define AT(r, c) ((c) * 4 + (r))

kiln_mat4 kiln_mat4_look_at(kiln_vec3 eye, kiln_vec3 target, kiln_vec3 up) {
    kiln_vec3 forward = kiln_vec3_sub(target, eye);
    kiln_vec3 side = kiln_vec3_cross(forward, up);
    if (!(kiln_vec3_length(forward) > 0.0f) || !(kiln_vec3_length(side) > 0.0f))
        return kiln_mat4_identity();

    forward = kiln_vec3_normalize(forward);
    side = kiln_vec3_normalize(side);
    kiln_vec3 true_up = kiln_vec3_cross(side, forward);

    /* Rows are the camera's axes in world space (x = side, y = up, z = -forward), so the matrix
     * rotates the world into camera space; the last column moves the eye to the origin. */
    kiln_mat4 v = kiln_mat4_identity();
    v.m[AT(0, 0)] = side.x;
    v.m[AT(0, 1)] = side.y;
    v.m[AT(0, 2)] = side.z;
    v.m[AT(1, 0)] = true_up.x;
    v.m[AT(1, 1)] = true_up.y;
    v.m[AT(1, 2)] = true_up.z;
    v.m[AT(2, 0)] = -forward.x;
    v.m[AT(2, 1)] = -forward.y;
    v.m[AT(2, 2)] = -forward.z;
    v.m[AT(0, 3)] = -kiln_vec3_dot(side, eye);
    v.m[AT(1, 3)] = -kiln_vec3_dot(true_up, eye);
    v.m[AT(2, 3)] = kiln_vec3_dot(forward, eye);
    return v;
}

kiln_mat4 kiln_mat4_perspective_reverse_z_infinite(float fovy_radians, float aspect, float near) {
    if (!(fovy_radians > 0.0f && fovy_radians < KILN_PI) || !(aspect > 0.0f) || !(near > 0.0f))
        return kiln_mat4_identity();

    /* clip = (x * f / aspect, y * f, near, -z): after the divide by w = -z, depth = near / -z,
     * which is 1 on the near plane and tends to 0 at infinity. */
    float f = 1.0f / tanf(fovy_radians * 0.5f);
    kiln_mat4 p = {{0}};
    p.m[AT(0, 0)] = f / aspect;
    p.m[AT(1, 1)] = f;
    p.m[AT(2, 3)] = near;
    p.m[AT(3, 2)] = -1.0f;
    return p;
}

kiln_mat4 kiln_mat4_orthographic_reverse_z(float left, float right, float bottom, float top,
                                           float near, float far) {
    if (left == right || bottom == top || near == far) return kiln_mat4_identity();

    /* x and y map the box to [-1, 1]; depth = (z + far) / (far - near) is linear in view z, 1 at
     * z = -near and 0 at z = -far. */
    kiln_mat4 p = kiln_mat4_identity();
    p.m[AT(0, 0)] = 2.0f / (right - left);
    p.m[AT(0, 3)] = -(right + left) / (right - left);
    p.m[AT(1, 1)] = 2.0f / (top - bottom);
    p.m[AT(1, 3)] = -(top + bottom) / (top - bottom);
    p.m[AT(2, 2)] = 1.0f / (far - near);
    p.m[AT(2, 3)] = far / (far - near);
    return p;
}
