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

/* corner_ray in clusters.wgsl: the point at view depth 1 on the ray through (ndc_x, ndc_y). */
static kiln_vec3 corner_ray(const kiln_cluster_uniform *u, float ndc_x, float ndc_y) {
    kiln_vec4 p = kiln_mat4_mul_vec4(u->inverse_projection, kiln_vec4_make(ndc_x, ndc_y, 1.0f, 1.0f));
    kiln_vec3 q = kiln_vec3_make(p.x / p.w, p.y / p.w, p.z / p.w);
    float d = -q.z;
    return kiln_vec3_make(q.x / d, q.y / d, q.z / d);
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
        kiln_vec3 ray = corner_ray(u, ndc_x[corner & 1u], ndc_y[(corner & 2u) >> 1]);
        kiln_vec3 a = kiln_vec3_scale(ray, depth_near), c = kiln_vec3_scale(ray, depth_far);
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

void kiln_clusters_assign_cpu(const kiln_cluster_uniform *u, const kiln_gpu_light *lights, uint32_t count,
                              uint32_t *counts_out, uint32_t *indices_out) {
    uint32_t light_count = u->light_count < count ? u->light_count : count;
    if (light_count > KILN_MAX_LIGHTS) light_count = KILN_MAX_LIGHTS;
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
                    if (n < KILN_CLUSTER_MAX_LIGHTS) indices_out[cluster * KILN_CLUSTER_MAX_LIGHTS + n] = i;
                    n++;
                }
                counts_out[cluster] = n;
            }
        }
    }
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
    kiln_buffer counts;    /* array<u32>, one per cluster */
    kiln_buffer indices;   /* array<u32>, KILN_CLUSTER_MAX_LIGHTS per cluster */
    kiln_bind_group group;
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
    c->counts = make_buffer(c->res, "cluster counts", KILN_CLUSTER_COUNTS_SIZE,
                            WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc, err);
    if (!c->counts.id) return false;
    c->indices = make_buffer(c->res, "cluster indices", KILN_CLUSTER_INDICES_SIZE,
                             WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc, err);
    return c->indices.id != 0;
}

static bool create_pipeline(kiln_clusters *c, kiln_error *err) {
    /* The library owns the module and rebuilds the watched pipeline when clusters.wgsl or
     * lights.wgsl changes. */
    if (!(c->shader = kiln_shader_library_load(c->library, "clusters.wgsl", err)).id) return false;
    const kiln_layout_entry entries[4] = {
        {.binding = 0, .visibility = WGPUShaderStage_Compute, .kind = KILN_BINDING_UNIFORM_BUFFER,
         .min_binding_size = sizeof(kiln_cluster_uniform)},
        {.binding = 1, .visibility = WGPUShaderStage_Compute, .kind = KILN_BINDING_READ_ONLY_STORAGE_BUFFER,
         .min_binding_size = sizeof(kiln_gpu_light)},
        {.binding = 2, .visibility = WGPUShaderStage_Compute, .kind = KILN_BINDING_STORAGE_BUFFER,
         .min_binding_size = KILN_CLUSTER_COUNTS_SIZE},
        {.binding = 3, .visibility = WGPUShaderStage_Compute, .kind = KILN_BINDING_STORAGE_BUFFER,
         .min_binding_size = KILN_CLUSTER_INDICES_SIZE},
    };
    c->group_layout = kiln_resources_create_bind_group_layout(c->res, "clusters", entries, 4, err);
    if (!c->group_layout.id) return false;
    c->layout = kiln_resources_create_pipeline_layout(c->res, "clusters", &c->group_layout, 1, err);
    if (!c->layout.id) return false;
    kiln_compute_pipeline_desc pd = {.label = "cluster light cull", .layout = c->layout, .shader = c->shader,
                                     .entry = "cs_cull"};
    c->pipeline = kiln_resources_create_compute_pipeline(c->res, &pd, err);
    if (!c->pipeline.id || !kiln_shader_library_watch_compute_pipeline(c->library, c->shader, c->pipeline, &pd, err))
        return false;
    const kiln_binding_resource bindings[4] = {
        {.binding = 0, .buffer = c->uniform},
        {.binding = 1, .buffer = c->lights},
        {.binding = 2, .buffer = c->counts},
        {.binding = 3, .buffer = c->indices},
    };
    c->group = kiln_resources_create_bind_group(c->res, "clusters", c->group_layout, bindings, 4, err);
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
    if (c->pipeline.id) {
        kiln_shader_library_unwatch_compute_pipeline(c->library, c->pipeline, NULL);
        kiln_resources_destroy_compute_pipeline(res, c->pipeline, NULL);
    }
    if (c->layout.id) kiln_resources_destroy_pipeline_layout(res, c->layout, NULL);
    if (c->group_layout.id) kiln_resources_destroy_bind_group_layout(res, c->group_layout, NULL);
    if (c->indices.id) kiln_resources_destroy_buffer(res, c->indices, NULL);
    if (c->counts.id) kiln_resources_destroy_buffer(res, c->counts, NULL);
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
    if (count > 0 && !kiln_resources_write_buffer(c->res, c->lights, 0, lights, (size_t)count * sizeof *lights, err))
        return false;
    if (!kiln_resources_write_buffer(c->res, c->uniform, 0, &u, sizeof u, err)) return false;
    c->last = u;
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
kiln_buffer kiln_clusters_count_buffer(const kiln_clusters *c) {
    return c->counts;
}
kiln_buffer kiln_clusters_index_buffer(const kiln_clusters *c) {
    return c->indices;
}
