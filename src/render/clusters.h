/* Clustered light culling for forward+ shading.
 *
 * The view frustum is cut into KILN_CLUSTER_X x KILN_CLUSTER_Y screen tiles and KILN_CLUSTER_Z
 * logarithmic depth slices between the camera's near plane and KILN_CLUSTER_FAR (200 m). One
 * compute dispatch (src/render/shaders/clusters.wgsl, cs_cull) tests every packed point and spot
 * light, as a sphere of radius `range` around its position, against each cluster's view-space
 * bounding box, and writes per cluster a count and up to KILN_CLUSTER_MAX_LIGHTS light indices in
 * ascending order (the first 32 touching lights win when more touch it). A fragment finds its
 * cluster from its pixel and view depth (cluster_index in src/render/shaders/lights.wgsl, the same
 * function as kiln_cluster_index here) and walks that list.
 *
 * Spot lights are culled by the sphere of their range, not their cone: cheaper, conservative, and
 * the cone factor zeroes what the sphere over-includes.
 *
 * Fragments farther than KILN_CLUSTER_FAR use the last slice, whose box ends at KILN_CLUSTER_FAR:
 * lights that only reach beyond 200 m do not light them.
 *
 * Ownership: kiln_clusters owns its GPU objects (light, uniform, count and index buffers, layouts,
 * pipeline, bind group) in the kiln_resources it was created with; kiln_clusters_destroy releases
 * them. The accessors hand out handles the caller must not destroy. Everything else here is plain
 * values and caller-owned arrays. kiln_clusters_update and kiln_clusters_record never allocate. */
#ifndef KILN_RENDER_CLUSTERS_INTERNAL_H
#define KILN_RENDER_CLUSTERS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <kiln/gfx.h>
#include "light_records.h"
#include <kiln/shader/library.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Shared with src/render/shaders/lights.wgsl (CLUSTER_X, ...); tests/render/test_clusters.c
 * reads the WGSL values back from the GPU and compares. */
#define KILN_CLUSTER_X 16u
#define KILN_CLUSTER_Y 9u
#define KILN_CLUSTER_Z 24u
#define KILN_CLUSTER_COUNT (KILN_CLUSTER_X * KILN_CLUSTER_Y * KILN_CLUSTER_Z)
#define KILN_CLUSTER_MAX_LIGHTS 32u
#define KILN_CLUSTER_FAR 200.0f

/* Cluster (x, y, z) has index x + KILN_CLUSTER_X * (y + KILN_CLUSTER_Y * z); x runs left to right
 * and y top to bottom in framebuffer pixels, z from the near plane outwards. Its lights are
 * indices[c * KILN_CLUSTER_MAX_LIGHTS + i] for i < counts[c]. */

/* Logarithmic slicing: slice = floor(log(view_depth) * scale - bias), with
 * scale = Z / log(far / near) and bias = Z * log(near) / log(far / near), so that slice k starts
 * at view depth near * (far / near)^(k / Z). view_depth is the distance in front of the camera
 * (-z in view space). */
typedef struct kiln_cluster_params {
    float near, far;
    float scale, bias;
} kiln_cluster_params;

/* Zero scale and bias (every depth in slice 0) when near <= 0 or far <= near. */
kiln_cluster_params kiln_cluster_params_compute(float near, float far);
/* The slice of a view depth, clamped to [0, KILN_CLUSTER_Z - 1] (depths <= 0 give 0). */
uint32_t kiln_cluster_z_slice(kiln_cluster_params params, float view_depth);
/* The view depth where slice k starts: near * (far / near)^(k / Z); k = Z gives far. */
float kiln_cluster_slice_depth(kiln_cluster_params params, uint32_t k);

/* The cluster uniform block: everything cs_cull and the fragment lookup need. Mirrored by
 * `struct ClusterUniform` in src/render/shaders/lights.wgsl; change both. Self-contained (160
 * bytes, 16-byte aligned): bound as one uniform block. */
typedef struct kiln_cluster_uniform {
    kiln_mat4 view;                /* world to view */
    kiln_mat4 inverse_projection;  /* clip to view */
    float screen_width, screen_height; /* pixels */
    float near, far;               /* slicing range: camera near plane to KILN_CLUSTER_FAR */
    float slice_scale, slice_bias; /* kiln_cluster_params */
    uint32_t light_count;          /* records in the light buffer cs_cull reads */
    uint32_t pad;
} kiln_cluster_uniform;

_Static_assert(sizeof(kiln_cluster_uniform) == 160, "kiln_cluster_uniform must match ClusterUniform in lights.wgsl");
_Static_assert(offsetof(kiln_cluster_uniform, view) == 0, "ClusterUniform.view");
_Static_assert(offsetof(kiln_cluster_uniform, inverse_projection) == 64, "ClusterUniform.inverse_projection");
_Static_assert(offsetof(kiln_cluster_uniform, screen_width) == 128, "ClusterUniform.screen_size");
_Static_assert(offsetof(kiln_cluster_uniform, near) == 136, "ClusterUniform.near");
_Static_assert(offsetof(kiln_cluster_uniform, far) == 140, "ClusterUniform.far");
_Static_assert(offsetof(kiln_cluster_uniform, slice_scale) == 144, "ClusterUniform.slice_scale");
_Static_assert(offsetof(kiln_cluster_uniform, slice_bias) == 148, "ClusterUniform.slice_bias");
_Static_assert(offsetof(kiln_cluster_uniform, light_count) == 152, "ClusterUniform.light_count");

/* Fills the uniform for a camera: `proj` is any perspective projection whose clip depth 1 is a
 * finite plane (kiln's reverse-Z infinite projection: the near plane), `near` the camera's near
 * distance; slices run from near to KILN_CLUSTER_FAR. Fails naming the input when near is not in
 * (0, KILN_CLUSTER_FAR), width or height is 0, light_count exceeds KILN_MAX_LIGHTS or proj is
 * singular. */
bool kiln_cluster_uniform_compute(kiln_cluster_uniform *out, kiln_mat4 view, kiln_mat4 proj, float near,
                                  uint32_t width, uint32_t height, uint32_t light_count, kiln_error *err);

/* The cluster of a fragment at framebuffer position (frag_x, frag_y) (pixels, origin top left,
 * as @builtin(position)) and view depth; positions off screen are clamped to the edge tiles. */
uint32_t kiln_cluster_index(const kiln_cluster_uniform *u, float frag_x, float frag_y, float view_depth);

/* The view-space bounding box of cluster (x, y, z): the tile's four corner rays (unprojected at
 * clip depth 1 through inverse_projection) cut at the slice's near and far view depths. */
void kiln_cluster_aabb(const kiln_cluster_uniform *u, uint32_t x, uint32_t y, uint32_t z, kiln_vec3 *min_out,
                       kiln_vec3 *max_out);

/* Whether the sphere (view-space centre, radius) touches the box: the squared distance from the
 * centre to its closest point in the box is at most radius squared. cs_cull's test. */
bool kiln_cluster_sphere_touches_aabb(kiln_vec3 center, float radius, kiln_vec3 box_min, kiln_vec3 box_max);

/* The CPU reference of cs_cull, same math in float: counts_out has KILN_CLUSTER_COUNT entries,
 * the number of lights touching each cluster (above KILN_CLUSTER_MAX_LIGHTS when it overflows),
 * indices_out KILN_CLUSTER_COUNT * KILN_CLUSTER_MAX_LIGHTS, the first KILN_CLUSTER_MAX_LIGHTS of
 * them in index order (slots past a cluster's count are left as they were). Uses u->light_count records of `lights` (`count` is their number in the array;
 * the smaller of the two is used). For tests and debugging: it tests every light against every
 * cluster. */
void kiln_clusters_assign_cpu(const kiln_cluster_uniform *u, const kiln_gpu_light *lights, uint32_t count,
                              uint32_t *counts_out, uint32_t *indices_out);

/* ---- the GPU side ------------------------------------------------------------------------- */

typedef struct kiln_clusters kiln_clusters;

/* Byte sizes of the buffers kiln_clusters owns. */
#define KILN_CLUSTER_LIGHTS_SIZE ((uint64_t)KILN_MAX_LIGHTS * sizeof(kiln_gpu_light))
#define KILN_CLUSTER_COUNTS_SIZE ((uint64_t)KILN_CLUSTER_COUNT * 4u)
#define KILN_CLUSTER_INDICES_SIZE ((uint64_t)KILN_CLUSTER_COUNT * KILN_CLUSTER_MAX_LIGHTS * 4u)

/* Loads clusters.wgsl (which includes lights.wgsl) through the shader library, so an edit of
 * either file rebuilds the cs_cull pipeline in place. Creates the light buffer (KILN_MAX_LIGHTS
 * records), the uniform, count and index buffers, the bind group layout, the cs_cull pipeline and
 * its bind group. NULL with the reason on failure. The library must outlive the clusters. */
kiln_clusters *kiln_clusters_create(kiln_resources *res, kiln_shader_library *library, kiln_error *err);
void kiln_clusters_destroy(kiln_clusters *c);

/* Writes the uniform (kiln_cluster_uniform_compute's inputs; fails as it does) and the first
 * `count` light records. Nothing is written on failure. */
bool kiln_clusters_update(kiln_clusters *c, kiln_mat4 view, kiln_mat4 proj, float near, uint32_t width,
                          uint32_t height, const kiln_gpu_light *lights, uint32_t count, kiln_error *err);
/* Records cs_cull into an open compute pass: workgroups of 16 x 9 x 1 invocations (one slice),
 * dispatched 1 x 1 x KILN_CLUSTER_Z. Every cluster's count is rewritten; index slots past a count
 * keep stale values. */
bool kiln_clusters_record(kiln_clusters *c, kiln_compute_pass *pass, kiln_error *err);

/* The uniform last written by kiln_clusters_update (zero before the first). */
const kiln_cluster_uniform *kiln_clusters_uniform(const kiln_clusters *c);
/* array<Light>, KILN_MAX_LIGHTS records; usage Storage | CopyDst. */
kiln_buffer kiln_clusters_light_buffer(const kiln_clusters *c);
/* ClusterUniform, 160 bytes; usage Uniform | CopyDst. */
kiln_buffer kiln_clusters_uniform_buffer(const kiln_clusters *c);
/* array<u32>, KILN_CLUSTER_COUNT counts; usage Storage | CopySrc. */
kiln_buffer kiln_clusters_count_buffer(const kiln_clusters *c);
/* array<u32>, KILN_CLUSTER_MAX_LIGHTS slots per cluster; usage Storage | CopySrc. */
kiln_buffer kiln_clusters_index_buffer(const kiln_clusters *c);

#ifdef __cplusplus
}
#endif

#endif
