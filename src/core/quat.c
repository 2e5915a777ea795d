/* Unit quaternions for rotations, (x, y, z) the vector part and w the scalar part. */
#include <kiln/core/math.h>

kiln_quat kiln_quat_identity(void) {
    kiln_quat q = {0.0f, 0.0f, 0.0f, 1.0f};
    return q;
}

kiln_quat kiln_quat_from_axis_angle(kiln_vec3 axis, float radians) {
    float len = kiln_vec3_length(axis);
    if (!(len > 0.0f)) return kiln_quat_identity();
    float s = sinf(radians * 0.5f) / len;
    kiln_quat q = {axis.x * s, axis.y * s, axis.z * s, cosf(radians * 0.5f)};
    return q;
}

kiln_quat kiln_quat_mul(kiln_quat a, kiln_quat b) {
    /* Hamilton product: scalar a.w*b.w - dot, vector a.w*bv + b.w*av + cross(av, bv). */
    kiln_quat r;
    r.x = a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y;
    r.y = a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x;
    r.z = a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w;
    r.w = a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z;
    return r;
}

kiln_quat kiln_quat_normalize(kiln_quat q) {
    float len = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    if (!(len > 0.0f)) return kiln_quat_identity();
    kiln_quat r = {q.x / len, q.y / len, q.z / len, q.w / len};
    return r;
}

kiln_vec3 kiln_quat_rotate(kiln_quat q, kiln_vec3 v) {
    /* q v q* expanded: with u the vector part and t = 2 u x v, v' = v + w t + u x t.
     * Cheaper than two quaternion products and exact for unit q. */
    kiln_vec3 u = kiln_vec3_make(q.x, q.y, q.z);
    kiln_vec3 t = kiln_vec3_scale(kiln_vec3_cross(u, v), 2.0f);
    return kiln_vec3_add(kiln_vec3_add(v, kiln_vec3_scale(t, q.w)), kiln_vec3_cross(u, t));
}

kiln_quat kiln_quat_slerp(kiln_quat a, kiln_quat b, float t) {
    float cos_theta = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    /* q and -q are the same rotation; flipping b keeps us on the shorter arc. */
    if (cos_theta < 0.0f) {
        b.x = -b.x;
        b.y = -b.y;
        b.z = -b.z;
        b.w = -b.w;
        cos_theta = -cos_theta;
    }

    float wa, wb;
    if (cos_theta > 0.9995f) {
        /* Nearly parallel: sin(theta) is tiny, so linear interpolation (renormalised below) is
         * both accurate and free of division by almost zero. */
        wa = 1.0f - t;
        wb = t;
    } else {
        float theta = acosf(cos_theta);
        float sin_theta = sinf(theta);
        wa = sinf((1.0f - t) * theta) / sin_theta;
        wb = sinf(t * theta) / sin_theta;
    }
    kiln_quat r = {wa * a.x + wb * b.x, wa * a.y + wb * b.y, wa * a.z + wb * b.z,
                   wa * a.w + wb * b.w};
    return kiln_quat_normalize(r);
}
