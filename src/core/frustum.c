/* Frustum planes from a view-projection matrix, and sphere culling against them. */
#include <kiln/core/frustum.h>

/* Row r of a column-major matrix as a plane (a, b, c, d). */
static kiln_vec4 row_of(const kiln_mat4 *m, int r) {
    return kiln_vec4_make(m->m[0 * 4 + r], m->m[1 * 4 + r], m->m[2 * 4 + r], m->m[3 * 4 + r]);
}

static kiln_plane plane_from(kiln_vec4 v) {
    kiln_plane p = {kiln_vec3_make(v.x, v.y, v.z), v.w};
    float len = kiln_vec3_length(p.normal);
    if (len > 0.0f) {
        p.normal = kiln_vec3_scale(p.normal, 1.0f / len);
        p.d /= len;
    } else {
        /* Nothing is constrained along this plane: make it accept every point. */
        p.d = 0.0f;
    }
    return p;
}

kiln_frustum kiln_frustum_from_view_proj(kiln_mat4 view_proj) {
    /* A world point p lands in clip space as (r0.p, r1.p, r2.p, r3.p) with ri the rows of the
     * matrix and p = (x, y, z, 1). Each clip inequality is then linear in p and is a plane:
     *   left  -w <= x : r3 + r0 >= 0      right  x <= w : r3 - r0 >= 0
     *   bottom -w <= y: r3 + r1 >= 0      top    y <= w : r3 - r1 >= 0
     *   near   z <= w : r3 - r2 >= 0  (reverse-Z puts the near plane at depth 1)
     * The far plane z >= 0 is r2 >= 0, which an infinite projection makes (0, 0, 0, near): no
     * plane at all, so it is left out. */
    kiln_vec4 r0 = row_of(&view_proj, 0), r1 = row_of(&view_proj, 1);
    kiln_vec4 r2 = row_of(&view_proj, 2), r3 = row_of(&view_proj, 3);

    kiln_frustum f;
    f.planes[KILN_FRUSTUM_LEFT] = plane_from(kiln_vec4_add(r3, r0));
    f.planes[KILN_FRUSTUM_RIGHT] = plane_from(kiln_vec4_sub(r3, r0));
    f.planes[KILN_FRUSTUM_BOTTOM] = plane_from(kiln_vec4_add(r3, r1));
    f.planes[KILN_FRUSTUM_TOP] = plane_from(kiln_vec4_sub(r3, r1));
    f.planes[KILN_FRUSTUM_NEAR] = plane_from(kiln_vec4_sub(r3, r2));
    return f;
}

bool kiln_frustum_contains_point(const kiln_frustum *f, kiln_vec3 p) {
    if (!f) return false;
    for (int i = 0; i < KILN_FRUSTUM_PLANE_COUNT; i++)
        if (kiln_plane_distance(f->planes[i], p) < 0.0f) return false;
    return true;
}

bool kiln_frustum_intersects_sphere(const kiln_frustum *f, kiln_vec3 center, float radius) {
    if (!f) return false;
    for (int i = 0; i < KILN_FRUSTUM_PLANE_COUNT; i++)
        if (kiln_plane_distance(f->planes[i], center) < -radius) return false;
    return true;
}

uint32_t kiln_frustum_cull_spheres_into(const kiln_frustum *f, const kiln_vec4 *spheres,
                                        uint32_t n, uint32_t *out_visible) {
    if (!f || !spheres || !out_visible) return 0;

    uint32_t visible = 0;
    uint32_t i = 0;
    /* Groups of four: transpose the spheres into lanes, then test every lane against one plane
     * at a time. The inner loops have no branches, so the compiler turns each into a few SIMD
     * instructions. The arithmetic is the same expression as kiln_plane_distance, so the results
     * match the scalar test bit for bit. */
    for (; i + 4 <= n; i += 4) {
        float x[4], y[4], z[4], neg_r[4];
        int inside[4];
        for (int l = 0; l < 4; l++) {
            x[l] = spheres[i + l].x;
            y[l] = spheres[i + l].y;
            z[l] = spheres[i + l].z;
            neg_r[l] = -spheres[i + l].w;
            inside[l] = 1;
        }
        for (int p = 0; p < KILN_FRUSTUM_PLANE_COUNT; p++) {
            const kiln_plane pl = f->planes[p];
            for (int l = 0; l < 4; l++) {
                float dist = pl.normal.x * x[l] + pl.normal.y * y[l] + pl.normal.z * z[l] + pl.d;
                inside[l] &= !(dist < neg_r[l]);
            }
        }
        for (int l = 0; l < 4; l++)
            if (inside[l]) out_visible[visible++] = i + (uint32_t)l;
    }
    for (; i < n; i++) {
        kiln_vec3 c = kiln_vec3_make(spheres[i].x, spheres[i].y, spheres[i].z);
        if (kiln_frustum_intersects_sphere(f, c, spheres[i].w)) out_visible[visible++] = i;
    }
    return visible;
}
