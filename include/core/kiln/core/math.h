/* Vectors, quaternions and 4x4 matrices for a right-handed, reverse-Z, WebGPU renderer.
 *
 * Conventions (shared with the WGSL side):
 *   - kiln_mat4 is column-major: element (row r, column c) is m[c * 4 + r], which is also the
 *     memory layout of WGSL's mat4x4<f32>.
 *   - Vectors are columns and transforms apply on the left: p' = M * p, so
 *     kiln_mat4_mul(a, b) applied to p is a(b(p)).
 *   - Right-handed view space, camera looking down -Z, +Y up.
 *   - Clip-space depth is WebGPU's [0, 1], reversed: near -> 1, far (or infinity) -> 0.
 *   - Quaternions are (x, y, z, w) with w the scalar part, unit length for rotations.
 *
 * Tiny vector helpers are static inline; matrix and quaternion work lives in mat4.c,
 * projection.c and quat.c. Functions that cannot fail but get degenerate input (zero-length
 * vectors, singular bases) say what they return instead. */
#ifndef KILN_CORE_MATH_H
#define KILN_CORE_MATH_H

#include <math.h>
#include <stdbool.h>

#define KILN_PI 3.14159265358979323846f /* pi as a float */

/* A 2D vector (WGSL vec2<f32>). */
typedef struct kiln_vec2 { /**@{*/ float x, y; /* components */ /**@}*/ } kiln_vec2;
/* A 3D point or direction (WGSL vec3<f32>). */
typedef struct kiln_vec3 { /**@{*/ float x, y, z; /* components */ /**@}*/ } kiln_vec3;
/* A 4D vector (WGSL vec4<f32>): homogeneous points, colours, packed spheres. */
typedef struct kiln_vec4 { /**@{*/ float x, y, z, w; /* components */ /**@}*/ } kiln_vec4;
/* A quaternion, (x, y, z) the vector part and w the scalar; unit length for rotations. */
typedef struct kiln_quat { /**@{*/ float x, y, z, w; /* x, y, z: vector part; w: scalar part */ /**@}*/ } kiln_quat;
/* A 4x4 matrix, column-major (WGSL mat4x4<f32>). */
typedef struct kiln_mat4 { float m[16]; /* element (row r, column c) at m[c * 4 + r] */ } kiln_mat4;

/* ---- vec3 ------------------------------------------------------------------------------- */

/* The vector (x, y, z). */
static inline kiln_vec3 kiln_vec3_make(float x, float y, float z) {
    kiln_vec3 r = {x, y, z};
    return r;
}
/* a + b. */
static inline kiln_vec3 kiln_vec3_add(kiln_vec3 a, kiln_vec3 b) {
    return kiln_vec3_make(a.x + b.x, a.y + b.y, a.z + b.z);
}
/* a - b. */
static inline kiln_vec3 kiln_vec3_sub(kiln_vec3 a, kiln_vec3 b) {
    return kiln_vec3_make(a.x - b.x, a.y - b.y, a.z - b.z);
}
/* a * s. */
static inline kiln_vec3 kiln_vec3_scale(kiln_vec3 a, float s) {
    return kiln_vec3_make(a.x * s, a.y * s, a.z * s);
}
/* The dot product of a and b. */
static inline float kiln_vec3_dot(kiln_vec3 a, kiln_vec3 b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
/* The cross product a x b (right-handed). */
static inline kiln_vec3 kiln_vec3_cross(kiln_vec3 a, kiln_vec3 b) {
    return kiln_vec3_make(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
/* Euclidean length. */
static inline float kiln_vec3_length(kiln_vec3 a) {
    return sqrtf(kiln_vec3_dot(a, a));
}
/* Unit-length a; the zero vector stays zero rather than turning into NaNs. */
static inline kiln_vec3 kiln_vec3_normalize(kiln_vec3 a) {
    float len = kiln_vec3_length(a);
    return len > 0.0f ? kiln_vec3_scale(a, 1.0f / len) : a;
}
/* Linear interpolation a + (b - a) * t: a at t = 0, b at t = 1 (t is not clamped). */
static inline kiln_vec3 kiln_vec3_lerp(kiln_vec3 a, kiln_vec3 b, float t) {
    return kiln_vec3_make(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t);
}

/* ---- vec4 ------------------------------------------------------------------------------- */

/* The vector (x, y, z, w). */
static inline kiln_vec4 kiln_vec4_make(float x, float y, float z, float w) {
    kiln_vec4 r = {x, y, z, w};
    return r;
}
/* a + b. */
static inline kiln_vec4 kiln_vec4_add(kiln_vec4 a, kiln_vec4 b) {
    return kiln_vec4_make(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}
/* a - b. */
static inline kiln_vec4 kiln_vec4_sub(kiln_vec4 a, kiln_vec4 b) {
    return kiln_vec4_make(a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w);
}
/* a * s. */
static inline kiln_vec4 kiln_vec4_scale(kiln_vec4 a, float s) {
    return kiln_vec4_make(a.x * s, a.y * s, a.z * s, a.w * s);
}
/* The four-component dot product of a and b. */
static inline float kiln_vec4_dot(kiln_vec4 a, kiln_vec4 b) {
    return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}
/* Euclidean length over all four components. */
static inline float kiln_vec4_length(kiln_vec4 a) {
    return sqrtf(kiln_vec4_dot(a, a));
}
/* Unit-length a; the zero vector stays zero. */
static inline kiln_vec4 kiln_vec4_normalize(kiln_vec4 a) {
    float len = kiln_vec4_length(a);
    return len > 0.0f ? kiln_vec4_scale(a, 1.0f / len) : a;
}
/* Linear interpolation a + (b - a) * t: a at t = 0, b at t = 1 (t is not clamped). */
static inline kiln_vec4 kiln_vec4_lerp(kiln_vec4 a, kiln_vec4 b, float t) {
    return kiln_vec4_add(a, kiln_vec4_scale(kiln_vec4_sub(b, a), t));
}

/* ---- quaternions (quat.c) ------------------------------------------------------------------ */

/* (0, 0, 0, 1): no rotation. */
kiln_quat kiln_quat_identity(void);
/* Rotation of `radians` about `axis` (normalised here; a zero axis gives the identity). */
kiln_quat kiln_quat_from_axis_angle(kiln_vec3 axis, float radians);
/* a * b: the rotation that applies b first, then a. */
kiln_quat kiln_quat_mul(kiln_quat a, kiln_quat b);
/* Unit length; the zero quaternion becomes the identity. */
kiln_quat kiln_quat_normalize(kiln_quat q);
/* Rotates v by the unit quaternion q. */
kiln_vec3 kiln_quat_rotate(kiln_quat q, kiln_vec3 v);
/* Spherical interpolation along the shorter arc, t in [0, 1]; the result is unit length. */
kiln_quat kiln_quat_slerp(kiln_quat a, kiln_quat b, float t);

/* ---- mat4 (mat4.c) ------------------------------------------------------------------------- */

/* Element (row, column), spelled out so call sites need not remember the layout. */
static inline float kiln_mat4_at(const kiln_mat4 *m, int row, int col) {
    return m->m[col * 4 + row];
}

kiln_mat4 kiln_mat4_identity(void); /* the identity matrix */
kiln_mat4 kiln_mat4_mul(kiln_mat4 a, kiln_mat4 b); /* a * b */
kiln_vec4 kiln_mat4_mul_vec4(kiln_mat4 m, kiln_vec4 v); /* m * v */
/* m * (p, 1) divided by w; when w is 0 (a point at infinity) xyz is returned undivided. */
kiln_vec3 kiln_mat4_transform_point(kiln_mat4 m, kiln_vec3 p);
/* m * (d, 0): directions ignore translation. */
kiln_vec3 kiln_mat4_transform_direction(kiln_mat4 m, kiln_vec3 d);
kiln_mat4 kiln_mat4_transpose(kiln_mat4 m); /* m with rows and columns swapped */
/* False (out untouched) when m is singular or out is NULL. */
bool kiln_mat4_inverse(kiln_mat4 m, kiln_mat4 *out);
kiln_mat4 kiln_mat4_translation(kiln_vec3 t); /* translation by t */
kiln_mat4 kiln_mat4_scale(kiln_vec3 s);       /* scale by s along x, y, z */
/* Rotation matrix of a unit quaternion. */
kiln_mat4 kiln_mat4_from_quat(kiln_quat q);
/* Translation * rotation * scale: scales first, then rotates, then translates. */
kiln_mat4 kiln_mat4_trs(kiln_vec3 t, kiln_quat q, kiln_vec3 s);
/* Splits an affine m into kiln_mat4_trs factors. A mirrored basis (negative determinant) is
 * reported as a negative x scale. False when the last row is not (0, 0, 0, 1) or a scale is
 * zero; outputs may be NULL when not wanted. Shear is not representable and is lost. */
bool kiln_mat4_decompose_trs(kiln_mat4 m, kiln_vec3 *t, kiln_quat *q, kiln_vec3 *s);

/* ---- cameras and projections (projection.c) ------------------------------------------------ */

/* View matrix of a camera at eye looking at target: eye maps to the origin and target onto
 * the -Z axis, `up` onto the upper half of the YZ plane. Returns the identity when eye equals
 * target or up is parallel to the view direction. */
kiln_mat4 kiln_mat4_look_at(kiln_vec3 eye, kiln_vec3 target, kiln_vec3 up);
/* Right-handed perspective with an infinite far plane and reversed depth: a point on the near
 * plane (view z = -near) gets depth 1 and depth falls towards 0 with distance (depth = near / -z).
 * Returns the identity when fovy is outside (0, pi), aspect <= 0 or near <= 0. */
kiln_mat4 kiln_mat4_perspective_reverse_z_infinite(float fovy_radians, float aspect, float near);
/* Right-handed orthographic box with reversed depth: view z = -near -> 1, z = -far -> 0.
 * Returns the identity when left == right, bottom == top or near == far. */
kiln_mat4 kiln_mat4_orthographic_reverse_z(float left, float right, float bottom, float top,
                                           float near, float far);

#endif
