/* Clustered light culling for forward+ shading.
 *
 * The view frustum is cut into KILN_CLUSTER_X x KILN_CLUSTER_Y screen tiles and KILN_CLUSTER_Z
 * logarithmic depth slices between the camera's near plane and KILN_CLUSTER_FAR (200 m). One
 * compute dispatch (src/render/shaders/clusters.wgsl, cs_cull) tests every packed point and spot
 * light, as a sphere of radius `range` around its position, against each cluster's view-space
 * bounding box, and writes every touching light's index, in ascending order, into one compacted
 * list shared by all clusters; per cluster it stores the (offset, count) of its run. Nothing is
 * capped per cluster. The list is sized per frame: kiln_clusters_update computes a conservative
 * upper bound of the references on the CPU (kiln_cluster_light_bound) and grows the list, by
 * doubling, when the bound exceeds it. A fragment finds its cluster from its pixel and view depth
 * (cluster_index in src/render/shaders/lights.wgsl, the same function as kiln_cluster_index here)
 * and walks that run.
 *
 * Spot lights are culled by the sphere of their range, not their cone: cheaper, conservative, and
 * the cone factor zeroes what the sphere over-includes.
 *
 * Fragments farther than KILN_CLUSTER_FAR use the last slice, whose box ends at KILN_CLUSTER_FAR:
 * lights that only reach beyond 200 m do not light them.
 *
 * Ownership: kiln_clusters owns its GPU objects (light, uniform, range, index and header buffers,
 * the header's readbacks, layouts, pipeline, bind group) in the kiln_resources it was created with; kiln_clusters_destroy
 * releases them. The accessors hand out handles the caller must not destroy. Everything else here
 * is plain values and caller-owned arrays. kiln_clusters_record never allocates;
 * kiln_clusters_update allocates only in a frame that grows the index list. */
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
/* The top of the clusters debug view's heat map (red); more lights paint magenta. Not a cap. */
#define KILN_CLUSTER_HEAT_LIGHTS 32u
#define KILN_CLUSTER_FAR 200.0f

/* Cluster (x, y, z) has index x + KILN_CLUSTER_X * (y + KILN_CLUSTER_Y * z); x runs left to right
 * and y top to bottom in framebuffer pixels, z from the near plane outwards. Its lights are
 * indices[ranges[c].offset + i] for i < ranges[c].count, in ascending light order. */

/* One cluster's run in the compacted index list. Mirrors a vec2u of cluster_ranges in
 * clusters.wgsl and forward.wgsl (x = offset, y = count). */
typedef struct kiln_cluster_range {
    uint32_t offset, count;
} kiln_cluster_range;
_Static_assert(sizeof(kiln_cluster_range) == 8, "kiln_cluster_range must match a vec2u");

/* What cs_cull counts per frame; mirrors `struct ClusterListHeader` in clusters.wgsl.
 * kiln_clusters_update clears it before each frame. */
typedef struct kiln_cluster_list_header {
    uint32_t references; /* slots the clusters asked for: the exact number of light references */
    uint32_t dropped;    /* references cut because the list was too small: 0 unless the bound is wrong */
} kiln_cluster_list_header;

/* The index list's capacity in references: it starts at 32 per cluster and, by doubling, reaches
 * at most every light in every cluster (14 MiB), which no bound can exceed. */
#define KILN_CLUSTER_LIST_INITIAL_CAPACITY (KILN_CLUSTER_COUNT * 32u)
#define KILN_CLUSTER_LIST_MAX_CAPACITY (KILN_CLUSTER_COUNT * KILN_MAX_LIGHTS)
_Static_assert(KILN_CLUSTER_LIST_MAX_CAPACITY % KILN_CLUSTER_LIST_INITIAL_CAPACITY == 0 &&
                   ((KILN_CLUSTER_LIST_MAX_CAPACITY / KILN_CLUSTER_LIST_INITIAL_CAPACITY) &
                    (KILN_CLUSTER_LIST_MAX_CAPACITY / KILN_CLUSTER_LIST_INITIAL_CAPACITY - 1)) == 0,
               "doubling from the initial capacity lands on the maximum");

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
 * `struct ClusterUniform` in src/render/shaders/lights.wgsl, which the light-cull feature's block
 * layout (taken from this struct with offsetof) is compared with by reflection whenever a program
 * sharing it loads, so a drift on either side fails naming the member. Self-contained (160
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

/* The CPU reference of cs_cull, same math in float, in the same layout: ranges_out has
 * KILN_CLUSTER_COUNT entries, indices_out `capacity` slots; clusters take their runs in cluster
 * order (the GPU's order of runs is whatever its atomics give; each run's contents are the same),
 * each run its touching lights in ascending index. A run that would pass `capacity` is cut as
 * cs_cull cuts it. Returns the references asked for (the header's `references`). Uses
 * u->light_count records of `lights` (`count` is their number in the array; the smaller of the
 * two is used). For tests and debugging: it tests every light against every cluster. */
uint32_t kiln_clusters_assign_cpu(const kiln_cluster_uniform *u, const kiln_gpu_light *lights, uint32_t count,
                                  kiln_cluster_range *ranges_out, uint32_t *indices_out, uint32_t capacity);

/* A conservative upper bound of the light references cs_cull writes for these lights (same
 * light count rule as kiln_clusters_assign_cpu): per light, the slices whose depth range overlaps
 * [depth - range, depth + range], and in each such slice the tile columns times the tile rows
 * whose slab of the slice (the extent, over the whole column or row, of the cluster boxes
 * kiln_cluster_aabb builds) overlaps the sphere's box, grown by a float-rounding margin. A box
 * the sphere touches is inside such a column and row, so the bound is never below the true
 * count. O(lights x slices x (X + Y)); allocates nothing. */
uint32_t kiln_cluster_light_bound(const kiln_cluster_uniform *u, const kiln_gpu_light *lights, uint32_t count);

/* ---- the GPU side ------------------------------------------------------------------------- */

typedef struct kiln_clusters kiln_clusters;

/* Byte sizes of the buffers kiln_clusters owns. */
#define KILN_CLUSTER_LIGHTS_SIZE ((uint64_t)KILN_MAX_LIGHTS * sizeof(kiln_gpu_light))
#define KILN_CLUSTER_RANGES_SIZE ((uint64_t)KILN_CLUSTER_COUNT * sizeof(kiln_cluster_range))

/* Loads clusters.wgsl (which includes lights.wgsl) through the shader library, so an edit of
 * either file rebuilds the cs_cull pipeline in place. Creates the light buffer (KILN_MAX_LIGHTS
 * records), the uniform, range, header and index buffers (the index list at
 * KILN_CLUSTER_LIST_INITIAL_CAPACITY), the bind group layout, the cs_cull pipeline and its bind
 * group. NULL with the reason on failure. The library must outlive the clusters. */
kiln_clusters *kiln_clusters_create(kiln_resources *res, kiln_shader_library *library, kiln_error *err);
void kiln_clusters_destroy(kiln_clusters *c);

/* Writes the uniform (kiln_cluster_uniform_compute's inputs; fails as it does), the first `count`
 * light records and a cleared header, after computing the frame's bound and, when it exceeds the
 * list's capacity, replacing the index list by one of twice the capacity (repeatedly) and the
 * bind group with it: that frame allocates, and kiln_clusters_index_buffer names a new buffer (a
 * bind group cache keyed by handles makes new groups for it). Nothing is written on failure (a failed growth keeps the old
 * list). Call it before each record: the header counts one dispatch. */
bool kiln_clusters_update(kiln_clusters *c, kiln_mat4 view, kiln_mat4 proj, float near, uint32_t width,
                          uint32_t height, const kiln_gpu_light *lights, uint32_t count, kiln_error *err);
/* Records cs_cull into an open compute pass: workgroups of 16 x 9 x 1 invocations (one slice),
 * dispatched 1 x 1 x KILN_CLUSTER_Z. Every cluster's range is rewritten; index slots outside the
 * runs keep stale values. */
bool kiln_clusters_record(kiln_clusters *c, kiln_compute_pass *pass, kiln_error *err);

/* The uniform last written by kiln_clusters_update (zero before the first). */
const kiln_cluster_uniform *kiln_clusters_uniform(const kiln_clusters *c);
/* array<Light>, KILN_MAX_LIGHTS records; usage Storage | CopyDst. */
kiln_buffer kiln_clusters_light_buffer(const kiln_clusters *c);
/* ClusterUniform, 160 bytes; usage Uniform | CopyDst. */
kiln_buffer kiln_clusters_uniform_buffer(const kiln_clusters *c);
/* array<vec2u>, one kiln_cluster_range per cluster; usage Storage | CopySrc. */
kiln_buffer kiln_clusters_range_buffer(const kiln_clusters *c);
/* array<u32>, kiln_clusters_list_capacity slots; usage Storage | CopySrc. Replaced when the list
 * grows: take it again after every update. */
kiln_buffer kiln_clusters_index_buffer(const kiln_clusters *c);
/* ClusterListHeader, 8 bytes; usage Storage | CopyDst | CopySrc. */
kiln_buffer kiln_clusters_header_buffer(const kiln_clusters *c);
/* The index list's capacity in references. */
uint32_t kiln_clusters_list_capacity(const kiln_clusters *c);
/* The bound the last successful update computed (0 before the first). */
uint32_t kiln_clusters_last_bound(const kiln_clusters *c);

/* Records, after the cull and outside any pass, the header's copy into a readback buffer tagged
 * with `frame` (kiln_buffer_readbacks: nothing waits). False when every readback is in flight
 * (the GPU is behind or nobody pumps: that frame goes uncounted) or the copy is refused. */
bool kiln_clusters_read_back(kiln_clusters *c, kiln_encoder *enc, uint64_t frame, kiln_error *err);
/* The newest header that came back (after a pump) and its frame; false when none has since the
 * last call. */
bool kiln_clusters_poll(kiln_clusters *c, kiln_cluster_list_header *out, uint64_t *frame);

#ifdef __cplusplus
}
#endif

#endif
