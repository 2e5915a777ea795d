/* Clustered light culling: the froxel grid math shared with lights.wgsl and clusters.wgsl, the
 * CPU reference of cs_cull, and kiln_clusters, which owns the GPU side of the dispatch. The
 * float expressions here follow the WGSL ones operation for operation, so the CPU reference and
 * the GPU disagree only where float rounding differs (a sphere grazing a box). */
#include "clusters.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static float clampf(float v, float lo, float hi) {
    return fminf(fmaxf(v, lo), hi);
}

/* ---- grid math ---------------------------------------------------------------------------- */

kiln_cluster_params kiln_cluster_params_compute(float near, float far) {
    kiln_cluster_params p = {.near = near, .far = far};
    if (!(near > 0.0f) || !(far > near)) return p;
    float log_ratio = logf(far / near);
    p.scale = (float)KILN_CLUSTER_Z / log_ratio;
    p.bias = (float)KILN_CLUSTER_Z * logf(near) / log_ratio;
    return p;
}

uint32_t kiln_cluster_z_slice(kiln_cluster_params params, float view_depth) {
    /* Same as cluster_z_slice in lights.wgsl; the fmaxf keeps log() away from 0 and negatives. */
    float s = floorf(logf(fmaxf(view_depth, 1e-30f)) * params.scale - params.bias);
    return (uint32_t)clampf(s, 0.0f, (float)(KILN_CLUSTER_Z - 1));
}

float kiln_cluster_slice_depth(kiln_cluster_params params, uint32_t k) {
    return params.near * powf(params.far / params.near, (float)k / (float)KILN_CLUSTER_Z);
}

bool kiln_cluster_uniform_compute(kiln_cluster_uniform *out, kiln_mat4 view, kiln_mat4 proj, float near,
                                  uint32_t width, uint32_t height, uint32_t light_count, kiln_error *err) {
    if (!out) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "cluster uniform: out is NULL");
    if (!(near > 0.0f && near < KILN_CLUSTER_FAR))
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "cluster uniform: near %g is not in (0, %g)",
                              (double)near, (double)KILN_CLUSTER_FAR);
    if (width == 0 || height == 0)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "cluster uniform: screen size %ux%u is empty", width,
                              height);
    if (light_count > KILN_MAX_LIGHTS)
        return kiln_error_set(err, KILN_ERR_CAPACITY, "cluster uniform: light count %u exceeds KILN_MAX_LIGHTS (%u)",
                              light_count, KILN_MAX_LIGHTS);
    kiln_mat4 inverse;
    if (!kiln_mat4_inverse(proj, &inverse))
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "cluster uniform: projection matrix is singular");
    kiln_cluster_params p = kiln_cluster_params_compute(near, KILN_CLUSTER_FAR);
    *out = (kiln_cluster_uniform){
        .view = view,
        .inverse_projection = inverse,
        .screen_width = (float)width,
        .screen_height = (float)height,
        .near = p.near,
        .far = p.far,
        .slice_scale = p.scale,
        .slice_bias = p.bias,
        .light_count = light_count,
    };
    return true;
}

static kiln_cluster_params params_of(const kiln_cluster_uniform *u) {
    return (kiln_cluster_params){.near = u->near, .far = u->far, .scale = u->slice_scale, .bias = u->slice_bias};
}

uint32_t kiln_cluster_index(const kiln_cluster_uniform *u, float frag_x, float frag_y, float view_depth) {
    float tx = floorf(frag_x * (float)KILN_CLUSTER_X / u->screen_width);
    float ty = floorf(frag_y * (float)KILN_CLUSTER_Y / u->screen_height);
    uint32_t x = (uint32_t)clampf(tx, 0.0f, (float)(KILN_CLUSTER_X - 1));
    uint32_t y = (uint32_t)clampf(ty, 0.0f, (float)(KILN_CLUSTER_Y - 1));
    uint32_t z = kiln_cluster_z_slice(params_of(u), view_depth);
    return x + KILN_CLUSTER_X * (y + KILN_CLUSTER_Y * z);
}

/* corner_line in clusters.wgsl as view-space x and y linear in view depth d: point(d) =
 * intercept + slope * d, from the points at clip depths 1 and 0.5 of the line through
 * (ndc_x, ndc_y). Perspective lines have a zero intercept (they meet at the eye), orthographic
 * ones a zero slope (they are parallel). */
typedef struct corner_line {
    kiln_vec3 intercept, slope;
} corner_line;

static corner_line corner_line_of(const kiln_cluster_uniform *u, float ndc_x, float ndc_y) {
    kiln_vec4 p = kiln_mat4_mul_vec4(u->inverse_projection, kiln_vec4_make(ndc_x, ndc_y, 1.0f, 1.0f));
    kiln_vec4 q = kiln_mat4_mul_vec4(u->inverse_projection, kiln_vec4_make(ndc_x, ndc_y, 0.5f, 1.0f));
    kiln_vec3 a = kiln_vec3_make(p.x / p.w, p.y / p.w, p.z / p.w), b = kiln_vec3_make(q.x / q.w, q.y / q.w, q.z / q.w);
    kiln_vec3 slope = kiln_vec3_scale(kiln_vec3_sub(b, a), 1.0f / (a.z - b.z));
    return (corner_line){kiln_vec3_add(a, kiln_vec3_scale(slope, a.z)), slope};
}

static kiln_vec3 corner_at(corner_line line, float depth) {
    return kiln_vec3_add(line.intercept, kiln_vec3_scale(line.slope, depth));
}

void kiln_cluster_aabb(const kiln_cluster_uniform *u, uint32_t x, uint32_t y, uint32_t z, kiln_vec3 *min_out,
                       kiln_vec3 *max_out) {
    float lo_x = (float)x / (float)KILN_CLUSTER_X, hi_x = (float)(x + 1) / (float)KILN_CLUSTER_X;
    float lo_y = (float)y / (float)KILN_CLUSTER_Y, hi_y = (float)(y + 1) / (float)KILN_CLUSTER_Y;
    /* Tiles count pixels from the top; NDC y grows upwards. */
    float ndc_x[2] = {lo_x * 2.0f - 1.0f, hi_x * 2.0f - 1.0f};
    float ndc_y[2] = {1.0f - hi_y * 2.0f, 1.0f - lo_y * 2.0f};
    kiln_cluster_params p = params_of(u);
    float depth_near = kiln_cluster_slice_depth(p, z), depth_far = kiln_cluster_slice_depth(p, z + 1);
    kiln_vec3 lo = {3.0e38f, 3.0e38f, 3.0e38f}, hi = {-3.0e38f, -3.0e38f, -3.0e38f};
    for (uint32_t corner = 0; corner < 4; corner++) {
        corner_line line = corner_line_of(u, ndc_x[corner & 1u], ndc_y[(corner & 2u) >> 1]);
        kiln_vec3 a = corner_at(line, depth_near), c = corner_at(line, depth_far);
        lo = kiln_vec3_make(fminf(lo.x, fminf(a.x, c.x)), fminf(lo.y, fminf(a.y, c.y)), fminf(lo.z, fminf(a.z, c.z)));
        hi = kiln_vec3_make(fmaxf(hi.x, fmaxf(a.x, c.x)), fmaxf(hi.y, fmaxf(a.y, c.y)), fmaxf(hi.z, fmaxf(a.z, c.z)));
    }
    if (min_out) *min_out = lo;
    if (max_out) *max_out = hi;
}

bool kiln_cluster_sphere_touches_aabb(kiln_vec3 center, float radius, kiln_vec3 box_min, kiln_vec3 box_max) {
    kiln_vec3 closest = kiln_vec3_make(clampf(center.x, box_min.x, box_max.x), clampf(center.y, box_min.y, box_max.y),
                                       clampf(center.z, box_min.z, box_max.z));
    kiln_vec3 d = kiln_vec3_sub(center, closest);
    return kiln_vec3_dot(d, d) <= radius * radius;
}

uint32_t kiln_clusters_assign_cpu(const kiln_cluster_uniform *u, const kiln_gpu_light *lights, uint32_t count,
                                  kiln_cluster_range *ranges_out, uint32_t *indices_out, uint32_t capacity) {
    uint32_t light_count = u->light_count < count ? u->light_count : count;
    if (light_count > KILN_MAX_LIGHTS) light_count = KILN_MAX_LIGHTS;
    uint32_t cursor = 0; /* the GPU's header.references */
    for (uint32_t z = 0; z < KILN_CLUSTER_Z; z++) {
        for (uint32_t y = 0; y < KILN_CLUSTER_Y; y++) {
            for (uint32_t x = 0; x < KILN_CLUSTER_X; x++) {
                uint32_t cluster = x + KILN_CLUSTER_X * (y + KILN_CLUSTER_Y * z);
                kiln_vec3 lo, hi;
                kiln_cluster_aabb(u, x, y, z, &lo, &hi);
                uint32_t n = 0;
                for (uint32_t i = 0; i < light_count; i++) {
                    kiln_vec4 c = kiln_mat4_mul_vec4(u->view, kiln_vec4_make(lights[i].position.x, lights[i].position.y,
                                                                             lights[i].position.z, 1.0f));
                    if (!kiln_cluster_sphere_touches_aabb(kiln_vec3_make(c.x, c.y, c.z), lights[i].range, lo, hi))
                        continue;
                    if (cursor + n < capacity) indices_out[cursor + n] = i;
                    n++;
                }
                /* The run is cut at the list's end as cs_cull cuts it. */
                uint32_t kept = cursor < capacity ? (n < capacity - cursor ? n : capacity - cursor) : 0;
                ranges_out[cluster] = (kiln_cluster_range){.offset = cursor < capacity ? cursor : capacity, .count = kept};
                cursor += n;
            }
        }
    }
    return cursor;
}

/* ---- the CPU bound of the references ------------------------------------------------------ */

/* Whether [lo, hi] overlaps [c - r, c + r]; false for NaN, which the GPU's test never passes. */
static bool interval_overlaps(float lo, float hi, float c, float r) {
    return c + r >= lo && c - r <= hi;
}

/* The least and greatest of intercept + slope * d over d in [dn, df]: at one end or the other. */
static float line_low(const float line[2], float dn, float df) {
    return fminf(line[0] + line[1] * dn, line[0] + line[1] * df);
}

static float line_high(const float line[2], float dn, float df) {
    return fmaxf(line[0] + line[1] * dn, line[0] + line[1] * df);
}

uint32_t kiln_cluster_light_bound(const kiln_cluster_uniform *u, const kiln_gpu_light *lights, uint32_t count) {
    uint32_t light_count = u->light_count < count ? u->light_count : count;
    if (light_count > KILN_MAX_LIGHTS) light_count = KILN_MAX_LIGHTS;
    if (light_count == 0) return 0;
    /* Every cluster box is built from this grid of corner lines (kiln_cluster_aabb, same NDC
     * expressions), x and y linear in view depth: intercept + slope * depth. A column boundary's
     * x is bounded over the whole boundary line by the smallest (largest) intercept plus the
     * smallest (largest) slope times the depth, and a row's y likewise, so a projection whose x
     * depends on y still gives a superset. */
    float column_lo[KILN_CLUSTER_X + 1][2], column_hi[KILN_CLUSTER_X + 1][2]; /* [0] intercept, [1] slope */
    float row_lo[KILN_CLUSTER_Y + 1][2], row_hi[KILN_CLUSTER_Y + 1][2];
    for (uint32_t i = 0; i <= KILN_CLUSTER_X; i++)
        for (int t = 0; t < 2; t++) column_lo[i][t] = 3.0e38f, column_hi[i][t] = -3.0e38f;
    for (uint32_t j = 0; j <= KILN_CLUSTER_Y; j++)
        for (int t = 0; t < 2; t++) row_lo[j][t] = 3.0e38f, row_hi[j][t] = -3.0e38f;
    for (uint32_t j = 0; j <= KILN_CLUSTER_Y; j++) {
        float ndc_y = 1.0f - (float)j / (float)KILN_CLUSTER_Y * 2.0f;
        for (uint32_t i = 0; i <= KILN_CLUSTER_X; i++) {
            corner_line line = corner_line_of(u, (float)i / (float)KILN_CLUSTER_X * 2.0f - 1.0f, ndc_y);
            float xs[2] = {line.intercept.x, line.slope.x}, ys[2] = {line.intercept.y, line.slope.y};
            for (int t = 0; t < 2; t++) {
                column_lo[i][t] = fminf(column_lo[i][t], xs[t]), column_hi[i][t] = fmaxf(column_hi[i][t], xs[t]);
                row_lo[j][t] = fminf(row_lo[j][t], ys[t]), row_hi[j][t] = fmaxf(row_hi[j][t], ys[t]);
            }
        }
    }
    /* Per column and row, the same bounds over its two boundary lines. */
    float cx_lo[KILN_CLUSTER_X][2], cx_hi[KILN_CLUSTER_X][2], ry_lo[KILN_CLUSTER_Y][2], ry_hi[KILN_CLUSTER_Y][2];
    for (uint32_t x = 0; x < KILN_CLUSTER_X; x++)
        for (int t = 0; t < 2; t++)
            cx_lo[x][t] = fminf(column_lo[x][t], column_lo[x + 1][t]), cx_hi[x][t] = fmaxf(column_hi[x][t], column_hi[x + 1][t]);
    for (uint32_t y = 0; y < KILN_CLUSTER_Y; y++)
        for (int t = 0; t < 2; t++)
            ry_lo[y][t] = fminf(row_lo[y][t], row_lo[y + 1][t]), ry_hi[y][t] = fmaxf(row_hi[y][t], row_hi[y + 1][t]);
    float depth[KILN_CLUSTER_Z + 1];
    kiln_cluster_params p = params_of(u);
    for (uint32_t k = 0; k <= KILN_CLUSTER_Z; k++) depth[k] = kiln_cluster_slice_depth(p, k);

    uint32_t total = 0;
    for (uint32_t i = 0; i < light_count; i++) {
        kiln_vec3 c = kiln_mat4_transform_point(u->view, lights[i].position);
        /* The GPU squares the range, so a negative one culls like its magnitude; the margin
         * covers the rounding of the GPU's boxes and centres (pow, matrix products), so a light
         * grazing a box there is counted here. */
        float r = fabsf(lights[i].range);
        r += 1e-4f * (r + fabsf(c.x) + fabsf(c.y) + fabsf(c.z)) + 1e-6f;
        float view_depth = -c.z;
        for (uint32_t k = 0; k < KILN_CLUSTER_Z; k++) {
            if (!interval_overlaps(depth[k], depth[k + 1], view_depth, r)) continue;
            float dn = depth[k], df = depth[k + 1];
            uint32_t columns = 0, rows = 0;
            for (uint32_t x = 0; x < KILN_CLUSTER_X; x++)
                columns += interval_overlaps(line_low(cx_lo[x], dn, df), line_high(cx_hi[x], dn, df), c.x, r);
            for (uint32_t y = 0; y < KILN_CLUSTER_Y; y++)
                rows += interval_overlaps(line_low(ry_lo[y], dn, df), line_high(ry_hi[y], dn, df), c.y, r);
            total += columns * rows;
        }
    }
    return total; /* at most light_count * KILN_CLUSTER_COUNT = KILN_CLUSTER_LIST_MAX_CAPACITY */
}

/* ---- the GPU side ------------------------------------------------------------------------- */

struct kiln_clusters {
    kiln_resources *res;
    kiln_shader_library *library; /* owns the module; rebuilds the pipeline on reload */
    kiln_shader shader;
    kiln_bind_group_layout group_layout;
    kiln_pipeline_layout layout;
    kiln_compute_pipeline pipeline;
    kiln_buffer lights;    /* array<Light>, KILN_MAX_LIGHTS records */
    kiln_buffer uniform;   /* ClusterUniform */
    kiln_buffer ranges;    /* array<vec2u>, (offset, count) per cluster */
    kiln_buffer indices;   /* array<u32>, capacity references: the compacted lists */
    kiln_buffer header;    /* ClusterListHeader, cleared by every update */
    kiln_bind_group group;
    kiln_buffer_readbacks *header_readbacks; /* the header, a frame or more late */
    uint32_t capacity;     /* references the index list holds */
    uint32_t bound;        /* the last update's kiln_cluster_light_bound */
    kiln_cluster_uniform last; /* what update wrote last */
};

static kiln_buffer make_buffer(kiln_resources *res, const char *label, uint64_t size, WGPUBufferUsage usage,
                               kiln_error *err) {
    return kiln_resources_create_buffer(res, &(kiln_buffer_desc){.label = label, .size = size, .usage = usage}, err);
}

static bool create_buffers(kiln_clusters *c, kiln_error *err) {
    c->lights = make_buffer(c->res, "cluster lights", KILN_CLUSTER_LIGHTS_SIZE,
                            WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst, err);
    if (!c->lights.id) return false;
    c->uniform = make_buffer(c->res, "cluster uniform", sizeof(kiln_cluster_uniform),
                             WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst, err);
    if (!c->uniform.id) return false;
    /* CopySrc so tests and debug tools can read the lists back. */
    c->ranges = make_buffer(c->res, "cluster ranges", KILN_CLUSTER_RANGES_SIZE,
                            WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc, err);
    if (!c->ranges.id) return false;
    c->header = make_buffer(c->res, "cluster list header", sizeof(kiln_cluster_list_header),
                            WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, err);
    if (!c->header.id) return false;
    c->header_readbacks = kiln_buffer_readbacks_create(c->res, sizeof(kiln_cluster_list_header), err);
    if (!c->header_readbacks) return false;
    c->capacity = KILN_CLUSTER_LIST_INITIAL_CAPACITY;
    c->indices = make_buffer(c->res, "cluster indices", (uint64_t)c->capacity * 4u,
                             WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc, err);
    return c->indices.id != 0;
}

static kiln_bind_group make_group(kiln_clusters *c, kiln_buffer indices, kiln_error *err) {
    const kiln_binding_resource bindings[5] = {
        {.binding = 0, .buffer = c->uniform},
        {.binding = 1, .buffer = c->lights},
        {.binding = 2, .buffer = c->ranges},
        {.binding = 3, .buffer = indices},
        {.binding = 4, .buffer = c->header},
    };
    return kiln_resources_create_bind_group(c->res, "clusters", c->group_layout, bindings, 5, err);
}

/* Doubles the index list until it holds `references`, then swaps it and the bind group in; on
 * failure the old ones stay. */
static bool grow_list(kiln_clusters *c, uint32_t references, kiln_error *err) {
    uint32_t capacity = c->capacity;
    while (capacity < references && capacity < KILN_CLUSTER_LIST_MAX_CAPACITY) capacity *= 2;
    kiln_buffer grown = make_buffer(c->res, "cluster indices", (uint64_t)capacity * 4u,
                                    WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc, err);
    if (!grown.id) return false;
    kiln_bind_group group = make_group(c, grown, err);
    if (!group.id) {
        kiln_resources_destroy_buffer(c->res, grown, NULL);
        return false;
    }
    kiln_resources_destroy_bind_group(c->res, c->group, NULL);
    kiln_resources_destroy_buffer(c->res, c->indices, NULL);
    c->indices = grown;
    c->group = group;
    c->capacity = capacity;
    return true;
}

static bool create_pipeline(kiln_clusters *c, kiln_error *err) {
    /* The library owns the module and rebuilds the watched pipeline when clusters.wgsl or
     * lights.wgsl changes. */
    if (!(c->shader = kiln_shader_library_load(c->library, "clusters.wgsl", err)).id) return false;
    const kiln_layout_entry entries[5] = {
        {.binding = 0, .visibility = WGPUShaderStage_Compute, .kind = KILN_BINDING_UNIFORM_BUFFER,
         .min_binding_size = sizeof(kiln_cluster_uniform)},
        {.binding = 1, .visibility = WGPUShaderStage_Compute, .kind = KILN_BINDING_READ_ONLY_STORAGE_BUFFER,
         .min_binding_size = sizeof(kiln_gpu_light)},
        {.binding = 2, .visibility = WGPUShaderStage_Compute, .kind = KILN_BINDING_STORAGE_BUFFER,
         .min_binding_size = KILN_CLUSTER_RANGES_SIZE},
        {.binding = 3, .visibility = WGPUShaderStage_Compute, .kind = KILN_BINDING_STORAGE_BUFFER,
         .min_binding_size = 4},
        {.binding = 4, .visibility = WGPUShaderStage_Compute, .kind = KILN_BINDING_STORAGE_BUFFER,
         .min_binding_size = sizeof(kiln_cluster_list_header)},
    };
    c->group_layout = kiln_resources_create_bind_group_layout(c->res, "clusters", entries, 5, err);
    if (!c->group_layout.id) return false;
    c->layout = kiln_resources_create_pipeline_layout(c->res, "clusters", &c->group_layout, 1, err);
    if (!c->layout.id) return false;
    kiln_compute_pipeline_desc pd = {.label = "cluster light cull", .layout = c->layout, .shader = c->shader,
                                     .entry = "cs_cull"};
    if (!(c->pipeline = kiln_shader_library_create_watched_compute_pipeline(c->library, &pd, err)).id) return false;
    c->group = make_group(c, c->indices, err);
    return c->group.id != 0;
}

kiln_clusters *kiln_clusters_create(kiln_resources *res, kiln_shader_library *library, kiln_error *err) {
    if (!res || !library) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "clusters: %s is NULL", res ? "library" : "res");
        return NULL;
    }
    kiln_clusters *c = calloc(1, sizeof *c);
    if (!c) {
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory creating kiln_clusters");
        return NULL;
    }
    c->res = res;
    c->library = library;
    if (!create_buffers(c, err) || !create_pipeline(c, err)) {
        kiln_clusters_destroy(c);
        return NULL;
    }
    return c;
}

void kiln_clusters_destroy(kiln_clusters *c) {
    if (!c) return;
    kiln_resources *res = c->res;
    if (c->group.id) kiln_resources_destroy_bind_group(res, c->group, NULL);
    kiln_shader_library_destroy_watched_compute_pipeline(c->library, c->pipeline);
    if (c->layout.id) kiln_resources_destroy_pipeline_layout(res, c->layout, NULL);
    if (c->group_layout.id) kiln_resources_destroy_bind_group_layout(res, c->group_layout, NULL);
    if (c->indices.id) kiln_resources_destroy_buffer(res, c->indices, NULL);
    kiln_buffer_readbacks_destroy(c->header_readbacks);
    if (c->header.id) kiln_resources_destroy_buffer(res, c->header, NULL);
    if (c->ranges.id) kiln_resources_destroy_buffer(res, c->ranges, NULL);
    if (c->uniform.id) kiln_resources_destroy_buffer(res, c->uniform, NULL);
    if (c->lights.id) kiln_resources_destroy_buffer(res, c->lights, NULL);
    free(c);
}

bool kiln_clusters_update(kiln_clusters *c, kiln_mat4 view, kiln_mat4 proj, float near, uint32_t width,
                          uint32_t height, const kiln_gpu_light *lights, uint32_t count, kiln_error *err) {
    if (!c) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "clusters update: clusters is NULL");
    if (!lights && count > 0)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "clusters update: lights is NULL with count %u", count);
    kiln_cluster_uniform u;
    if (!kiln_cluster_uniform_compute(&u, view, proj, near, width, height, count, err)) return false;
    uint32_t bound = kiln_cluster_light_bound(&u, lights, count);
    if (bound > c->capacity && !grow_list(c, bound, err)) return false;
    const kiln_cluster_list_header cleared = {0};
    if (!kiln_resources_write_buffer(c->res, c->header, 0, &cleared, sizeof cleared, err)) return false;
    if (count > 0 && !kiln_resources_write_buffer(c->res, c->lights, 0, lights, (size_t)count * sizeof *lights, err))
        return false;
    if (!kiln_resources_write_buffer(c->res, c->uniform, 0, &u, sizeof u, err)) return false;
    c->last = u;
    c->bound = bound;
    return true;
}

bool kiln_clusters_record(kiln_clusters *c, kiln_compute_pass *pass, kiln_error *err) {
    if (!c || !pass) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "clusters record: %s is NULL",
                                           c ? "pass" : "clusters");
    if (!kiln_compute_pass_set_pipeline(pass, c->pipeline, err)) return false;
    if (!kiln_compute_pass_set_bind_group(pass, 0, c->group, NULL, 0, err)) return false;
    /* One workgroup per slice: the workgroup covers the 16 x 9 tiles (clusters.wgsl). */
    kiln_compute_pass_dispatch(pass, 1, 1, KILN_CLUSTER_Z);
    return true;
}

const kiln_cluster_uniform *kiln_clusters_uniform(const kiln_clusters *c) {
    return &c->last;
}
kiln_buffer kiln_clusters_light_buffer(const kiln_clusters *c) {
    return c->lights;
}
kiln_buffer kiln_clusters_uniform_buffer(const kiln_clusters *c) {
    return c->uniform;
}
kiln_buffer kiln_clusters_range_buffer(const kiln_clusters *c) {
    return c->ranges;
}
kiln_buffer kiln_clusters_index_buffer(const kiln_clusters *c) {
    return c->indices;
}
kiln_buffer kiln_clusters_header_buffer(const kiln_clusters *c) {
    return c->header;
}
uint32_t kiln_clusters_list_capacity(const kiln_clusters *c) {
    return c->capacity;
}
uint32_t kiln_clusters_last_bound(const kiln_clusters *c) {
    return c->bound;
}
bool kiln_clusters_read_back(kiln_clusters *c, kiln_encoder *enc, uint64_t frame, kiln_error *err) {
    return kiln_buffer_readbacks_copy(c->header_readbacks, enc, c->header, 0, frame, err);
}

bool kiln_clusters_poll(kiln_clusters *c, kiln_cluster_list_header *out, uint64_t *frame) {
    return kiln_buffer_readbacks_poll(c->header_readbacks, out, frame);
}
