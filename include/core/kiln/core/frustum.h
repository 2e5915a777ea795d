/* View frusta for culling, extracted from a view-projection matrix.
 *
 * kiln projects with reverse-Z and an infinite far plane, so a frustum has five planes: the
 * four sides and the near plane. Matrices with a finite far plane (the orthographic projection)
 * still work, but nothing is culled for lying beyond `far`. */
#ifndef KILN_CORE_FRUSTUM_H
#define KILN_CORE_FRUSTUM_H

#include <stdbool.h>
#include <stdint.h>

#include <kiln/core/math.h>

/* The half-space dot(normal, p) + d >= 0 is "inside". */
typedef struct kiln_plane { /**@{*/ kiln_vec3 normal; float d; /* the plane dot(normal, p) + d = 0 */ /**@}*/ } kiln_plane;

/* Indices of kiln_frustum.planes. */
enum {
    KILN_FRUSTUM_LEFT,
    KILN_FRUSTUM_RIGHT,
    KILN_FRUSTUM_BOTTOM,
    KILN_FRUSTUM_TOP,
    KILN_FRUSTUM_NEAR,
    KILN_FRUSTUM_PLANE_COUNT,   /* number of planes */
};

/* A convex view volume: inside when inside every plane. */
typedef struct kiln_frustum { kiln_plane planes[KILN_FRUSTUM_PLANE_COUNT]; /* indexed by KILN_FRUSTUM_LEFT to KILN_FRUSTUM_NEAR */ } kiln_frustum;

/* The planes of the volume that view_proj maps into clip space (-w <= x, y <= w, z <= w), in
 * world space when view_proj = projection * view. Planes are normalised so plane distances are
 * in world units. A plane that the matrix leaves undefined (zero normal) accepts everything. */
kiln_frustum kiln_frustum_from_view_proj(kiln_mat4 view_proj);

/* Signed distance from the plane, positive inside. */
static inline float kiln_plane_distance(kiln_plane plane, kiln_vec3 p) {
    return plane.normal.x * p.x + plane.normal.y * p.y + plane.normal.z * p.z + plane.d;
}

/* True when p is inside (or on) every plane. */
bool kiln_frustum_contains_point(const kiln_frustum *f, kiln_vec3 p);
/* True unless the sphere lies entirely outside one plane. Conservative: a sphere just outside a
 * corner of the frustum can be reported visible, never the other way round. */
bool kiln_frustum_intersects_sphere(const kiln_frustum *f, kiln_vec3 center, float radius);

/* Culls n spheres (centres xyz + radius w) four at a time (plane-major SoA loop over groups of
 * four, scalar tail); writes the indices of visible spheres, ascending, to out_visible (room for
 * n) and returns how many. Gives exactly the answers of kiln_frustum_intersects_sphere. */
uint32_t kiln_frustum_cull_spheres_into(const kiln_frustum *f, const kiln_vec4 *spheres,
                                        uint32_t n, uint32_t *out_visible);

#endif
