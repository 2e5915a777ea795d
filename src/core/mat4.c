/* 4x4 matrix algebra: products, inverse, and building/splitting translate-rotate-scale
 * transforms. Storage is column-major, see math.h. */
#include <kiln/core/math.h>

#include <float.h>
#include <string.h>

/* Index of element (row r, column c). */
#define AT(r, c) ((c) * 4 + (r))

kiln_mat4 kiln_mat4_identity(void) {
    kiln_mat4 r = {{0}};
    r.m[AT(0, 0)] = r.m[AT(1, 1)] = r.m[AT(2, 2)] = r.m[AT(3, 3)] = 1.0f;
    return r;
}

kiln_mat4 kiln_mat4_mul(kiln_mat4 a, kiln_mat4 b) {
    kiln_mat4 r;
    for (int c = 0; c < 4; c++) {
        for (int row = 0; row < 4; row++) {
            float sum = 0.0f;
            for (int k = 0; k < 4; k++) sum += a.m[AT(row, k)] * b.m[AT(k, c)];
            r.m[AT(row, c)] = sum;
        }
    }
    return r;
}

kiln_vec4 kiln_mat4_mul_vec4(kiln_mat4 m, kiln_vec4 v) {
    float in[4] = {v.x, v.y, v.z, v.w};
    float out[4];
    for (int row = 0; row < 4; row++) {
        out[row] = m.m[AT(row, 0)] * in[0] + m.m[AT(row, 1)] * in[1] + m.m[AT(row, 2)] * in[2] +
                   m.m[AT(row, 3)] * in[3];
    }
    return kiln_vec4_make(out[0], out[1], out[2], out[3]);
}

kiln_vec3 kiln_mat4_transform_point(kiln_mat4 m, kiln_vec3 p) {
    kiln_vec4 h = kiln_mat4_mul_vec4(m, kiln_vec4_make(p.x, p.y, p.z, 1.0f));
    if (h.w == 0.0f) return kiln_vec3_make(h.x, h.y, h.z);
    return kiln_vec3_make(h.x / h.w, h.y / h.w, h.z / h.w);
}

kiln_vec3 kiln_mat4_transform_direction(kiln_mat4 m, kiln_vec3 d) {
    kiln_vec4 h = kiln_mat4_mul_vec4(m, kiln_vec4_make(d.x, d.y, d.z, 0.0f));
    return kiln_vec3_make(h.x, h.y, h.z);
}

kiln_mat4 kiln_mat4_transpose(kiln_mat4 m) {
    kiln_mat4 r;
    for (int row = 0; row < 4; row++)
        for (int c = 0; c < 4; c++) r.m[AT(row, c)] = m.m[AT(c, row)];
    return r;
}

/* Gauss-Jordan elimination with partial pivoting, in double so the arithmetic adds little error
 * of its own. The inputs are floats, though, each only known to about FLT_EPSILON: a pivot that
 * small relative to its column means the matrix is singular, or so close to it that a float
 * inverse would be noise. Comparing per column keeps the test independent of units: a transform
 * scaled by 1e-4 with a translation of 1e4 is still perfectly invertible. */
bool kiln_mat4_inverse(kiln_mat4 m, kiln_mat4 *out) {
    if (!out) return false;

    double a[4][8];
    double column_max[4] = {0, 0, 0, 0};
    for (int row = 0; row < 4; row++) {
        for (int c = 0; c < 4; c++) {
            a[row][c] = m.m[AT(row, c)];
            a[row][c + 4] = row == c ? 1.0 : 0.0;
            double mag = fabs(a[row][c]);
            if (!isfinite(mag)) return false;
            if (mag > column_max[c]) column_max[c] = mag;
        }
    }

    for (int col = 0; col < 4; col++) {
        int pivot = col;
        for (int row = col + 1; row < 4; row++)
            if (fabs(a[row][col]) > fabs(a[pivot][col])) pivot = row;
        if (!(fabs(a[pivot][col]) > 4.0 * FLT_EPSILON * column_max[col])) return false;

        if (pivot != col) {
            double tmp[8];
            memcpy(tmp, a[col], sizeof tmp);
            memcpy(a[col], a[pivot], sizeof tmp);
            memcpy(a[pivot], tmp, sizeof tmp);
        }

        double inv = 1.0 / a[col][col];
        for (int c = 0; c < 8; c++) a[col][c] *= inv;

        for (int row = 0; row < 4; row++) {
            if (row == col) continue;
            double f = a[row][col];
            if (f == 0.0) continue;
            for (int c = 0; c < 8; c++) a[row][c] -= f * a[col][c];
        }
    }

    for (int row = 0; row < 4; row++)
        for (int c = 0; c < 4; c++) out->m[AT(row, c)] = (float)a[row][c + 4];
    return true;
}

kiln_mat4 kiln_mat4_translation(kiln_vec3 t) {
    kiln_mat4 r = kiln_mat4_identity();
    r.m[AT(0, 3)] = t.x;
    r.m[AT(1, 3)] = t.y;
    r.m[AT(2, 3)] = t.z;
    return r;
}

kiln_mat4 kiln_mat4_scale(kiln_vec3 s) {
    kiln_mat4 r = kiln_mat4_identity();
    r.m[AT(0, 0)] = s.x;
    r.m[AT(1, 1)] = s.y;
    r.m[AT(2, 2)] = s.z;
    return r;
}

kiln_mat4 kiln_mat4_from_quat(kiln_quat q) {
    float xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    float xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    float wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;

    kiln_mat4 r = kiln_mat4_identity();
    r.m[AT(0, 0)] = 1.0f - 2.0f * (yy + zz);
    r.m[AT(0, 1)] = 2.0f * (xy - wz);
    r.m[AT(0, 2)] = 2.0f * (xz + wy);
    r.m[AT(1, 0)] = 2.0f * (xy + wz);
    r.m[AT(1, 1)] = 1.0f - 2.0f * (xx + zz);
    r.m[AT(1, 2)] = 2.0f * (yz - wx);
    r.m[AT(2, 0)] = 2.0f * (xz - wy);
    r.m[AT(2, 1)] = 2.0f * (yz + wx);
    r.m[AT(2, 2)] = 1.0f - 2.0f * (xx + yy);
    return r;
}

kiln_mat4 kiln_mat4_trs(kiln_vec3 t, kiln_quat q, kiln_vec3 s) {
    /* R * S scales the columns of R; T only fills the last column. */
    kiln_mat4 r = kiln_mat4_from_quat(q);
    float scale[3] = {s.x, s.y, s.z};
    for (int c = 0; c < 3; c++)
        for (int row = 0; row < 3; row++) r.m[AT(row, c)] *= scale[c];
    r.m[AT(0, 3)] = t.x;
    r.m[AT(1, 3)] = t.y;
    r.m[AT(2, 3)] = t.z;
    return r;
}

/* Unit quaternion of a pure rotation matrix r[row][col]. Starts from whichever of w, x, y, z is
 * largest so the square root never sees a value near zero (Shepperd's method). */
static kiln_quat quat_from_rotation(const float r[3][3]) {
    float trace = r[0][0] + r[1][1] + r[2][2];
    kiln_quat q;
    if (trace > 0.0f) {
        float s = sqrtf(trace + 1.0f) * 2.0f; /* 4w */
        q.w = 0.25f * s;
        q.x = (r[2][1] - r[1][2]) / s;
        q.y = (r[0][2] - r[2][0]) / s;
        q.z = (r[1][0] - r[0][1]) / s;
    } else if (r[0][0] > r[1][1] && r[0][0] > r[2][2]) {
        float s = sqrtf(1.0f + r[0][0] - r[1][1] - r[2][2]) * 2.0f; /* 4x */
        q.w = (r[2][1] - r[1][2]) / s;
        q.x = 0.25f * s;
        q.y = (r[0][1] + r[1][0]) / s;
        q.z = (r[0][2] + r[2][0]) / s;
    } else if (r[1][1] > r[2][2]) {
        float s = sqrtf(1.0f + r[1][1] - r[0][0] - r[2][2]) * 2.0f; /* 4y */
        q.w = (r[0][2] - r[2][0]) / s;
        q.x = (r[0][1] + r[1][0]) / s;
        q.y = 0.25f * s;
        q.z = (r[1][2] + r[2][1]) / s;
    } else {
        float s = sqrtf(1.0f + r[2][2] - r[0][0] - r[1][1]) * 2.0f; /* 4z */
        q.w = (r[1][0] - r[0][1]) / s;
        q.x = (r[0][2] + r[2][0]) / s;
        q.y = (r[1][2] + r[2][1]) / s;
        q.z = 0.25f * s;
    }
    return kiln_quat_normalize(q);
}

bool kiln_mat4_decompose_trs(kiln_mat4 m, kiln_vec3 *t, kiln_quat *q, kiln_vec3 *s) {
    const float eps = 1e-6f;
    if (fabsf(m.m[AT(3, 0)]) > eps || fabsf(m.m[AT(3, 1)]) > eps || fabsf(m.m[AT(3, 2)]) > eps ||
        fabsf(m.m[AT(3, 3)] - 1.0f) > eps)
        return false;

    kiln_vec3 col[3];
    for (int c = 0; c < 3; c++)
        col[c] = kiln_vec3_make(m.m[AT(0, c)], m.m[AT(1, c)], m.m[AT(2, c)]);

    float scale[3];
    for (int c = 0; c < 3; c++) {
        scale[c] = kiln_vec3_length(col[c]);
        if (!(scale[c] > FLT_MIN) || !isfinite(scale[c])) return false;
    }
    /* A mirror cannot be a rotation; fold it into the x scale so R stays proper. */
    if (kiln_vec3_dot(col[0], kiln_vec3_cross(col[1], col[2])) < 0.0f) scale[0] = -scale[0];

    float r[3][3];
    for (int c = 0; c < 3; c++) {
        kiln_vec3 axis = kiln_vec3_scale(col[c], 1.0f / scale[c]);
        r[0][c] = axis.x;
        r[1][c] = axis.y;
        r[2][c] = axis.z;
    }

    if (t) *t = kiln_vec3_make(m.m[AT(0, 3)], m.m[AT(1, 3)], m.m[AT(2, 3)]);
    if (s) *s = kiln_vec3_make(scale[0], scale[1], scale[2]);
    if (q) *q = quat_from_rotation(r);
    return true;
}
