/* Clustered light culling: the froxel grid of the camera view (kiln_clusters, clusters.c), its
 * uniform updated each frame before the views, and one compute pass that assigns the frame's
 * point and spot lights to the froxels. The lists it writes are a buffer resource ("cluster
 * lists" on the blackboard), so the forward passes run after it. The feature owns the clusters,
 * the ClusterUniform, Light and ClusterListHeader blocks, the shading group's four cluster
 * bindings (0..3), and the non-blocking read back of the lists' header for the frame stats. */
#include <math.h>
#include <stddef.h>

#include "features.h"
#include "../clusters.h"

typedef struct light_cull_state {
    kiln_clusters *clusters;
    kiln_fg_resource lists;          /* this frame's "cluster lists" */
    kiln_cluster_list_header counts; /* the newest header read back ... */
    uint64_t counts_frame;           /* ... and its frame (0: none yet) */
} light_cull_state;

/* The C structs the GPU reads as they are: their layouts come from the structs themselves. */
#define MEMBER(type, wgsl, field) {wgsl, (uint32_t)offsetof(type, field), (uint32_t)sizeof(((type *)0)->field)}
static const block_member LIGHT_MEMBERS[] = {
    MEMBER(kiln_gpu_light, "position", position),     MEMBER(kiln_gpu_light, "range", range),
    MEMBER(kiln_gpu_light, "color_intensity", color_intensity), MEMBER(kiln_gpu_light, "kind", kind),
    MEMBER(kiln_gpu_light, "direction", direction),   MEMBER(kiln_gpu_light, "shadow_view", shadow_view),
    MEMBER(kiln_gpu_light, "cos_inner", cos_inner),   MEMBER(kiln_gpu_light, "cos_outer", cos_outer),
    MEMBER(kiln_gpu_light, "spot_scale", spot_scale), MEMBER(kiln_gpu_light, "spot_offset", spot_offset),
};
static const block_member CLUSTER_MEMBERS[] = {
    MEMBER(kiln_cluster_uniform, "view", view),
    MEMBER(kiln_cluster_uniform, "inverse_projection", inverse_projection),
    /* two floats in C, one vec2f in WGSL */
    {"screen_size", (uint32_t)offsetof(kiln_cluster_uniform, screen_width), 2 * sizeof(float)},
    MEMBER(kiln_cluster_uniform, "near", near),
    MEMBER(kiln_cluster_uniform, "far", far),
    MEMBER(kiln_cluster_uniform, "slice_scale", slice_scale),
    MEMBER(kiln_cluster_uniform, "slice_bias", slice_bias),
    MEMBER(kiln_cluster_uniform, "light_count", light_count),
    MEMBER(kiln_cluster_uniform, "pad", pad),
};
static const block_member HEADER_MEMBERS[] = {
    MEMBER(kiln_cluster_list_header, "references", references),
    MEMBER(kiln_cluster_list_header, "dropped", dropped),
};
#undef MEMBER
static const block_layout LIGHT_BLOCK = {"Light", sizeof(kiln_gpu_light), LIGHT_MEMBERS, KILN_ARRAY_COUNT(LIGHT_MEMBERS),
                                         "src/render/features/light_cull.c"};
static const block_layout CLUSTER_BLOCK = {"ClusterUniform", sizeof(kiln_cluster_uniform), CLUSTER_MEMBERS,
                                           KILN_ARRAY_COUNT(CLUSTER_MEMBERS), "src/render/features/light_cull.c"};
static const block_layout HEADER_BLOCK = {"ClusterListHeader", sizeof(kiln_cluster_list_header), HEADER_MEMBERS,
                                          KILN_ARRAY_COUNT(HEADER_MEMBERS), "src/render/features/light_cull.c"};

static const render_block_use BLOCKS[] = {
    {"forward.wgsl", &LIGHT_BLOCK},    {"forward.wgsl", &CLUSTER_BLOCK}, {"clusters.wgsl", &CLUSTER_BLOCK},
    {"clusters.wgsl", &LIGHT_BLOCK},   {"clusters.wgsl", &HEADER_BLOCK},
};

static const render_binding BINDINGS[] = {
    {{.binding = 0, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_UNIFORM_BUFFER,
      .min_binding_size = sizeof(kiln_cluster_uniform)}, "clusters"},
    {{.binding = 1, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_READ_ONLY_STORAGE_BUFFER}, "lights"},
    {{.binding = 2, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_READ_ONLY_STORAGE_BUFFER},
     "cluster_ranges"},
    {{.binding = 3, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_READ_ONLY_STORAGE_BUFFER},
     "cluster_indices"},
};

static bool create_light_cull(kiln_renderer *r, void *state, kiln_error *err) {
    light_cull_state *s = state;
    return (s->clusters = kiln_clusters_create(r->res, r->library, err)) != NULL;
}

static void destroy_light_cull(kiln_renderer *r, void *state) {
    (void)r;
    light_cull_state *s = state;
    kiln_clusters_destroy(s->clusters);
}

/* The counts of an earlier frame into the stats, then this frame's grid and lights. */
static bool prepare_light_cull(kiln_renderer *r, void *state, const kiln_render_scene *scene, kiln_error *err) {
    (void)scene;
    light_cull_state *s = state;
    kiln_cluster_list_header counts;
    uint64_t counted;
    if (kiln_clusters_poll(s->clusters, &counts, &counted)) s->counts = counts, s->counts_frame = counted;
    r->stats.cluster_light_references = s->counts.references;
    r->stats.cluster_dropped_references = s->counts.dropped;
    r->stats.cluster_counts_frame = s->counts_frame;
    const kiln_camera *camera = &r->frame.camera;
    /* Logarithmic slices need a near plane above zero, which an orthographic camera need not
     * have; a centimetre costs nothing, since fragments nearer than slice 0 start use slice 0. */
    float near = camera->projection == KILN_PROJECTION_ORTHOGRAPHIC ? fmaxf(camera->near, 0.01f) : camera->near;
    if (!kiln_clusters_update(s->clusters, kiln_camera_view(camera), kiln_camera_projection(camera), near,
                              r->frame.width, r->frame.height, r->lights.records, r->lights.count, err))
        return false;
    r->stats.cluster_light_bound = kiln_clusters_last_bound(s->clusters);
    r->stats.cluster_list_capacity = kiln_clusters_list_capacity(s->clusters);
    return true;
}

static void record_light_cull(kiln_fg_context *ctx, void *user) {
    light_cull_state *s = user;
    kiln_clusters_record(s->clusters, ctx->compute, NULL);
}

static void declare_light_cull(kiln_renderer *r, void *state, render_frame *f) {
    light_cull_state *s = state;
    s->lists = kiln_frame_graph_import_buffer(r->graph, "cluster lists", kiln_clusters_index_buffer(s->clusters));
    uint32_t pass = kiln_frame_graph_add_compute_pass(r->graph, "cluster light cull", record_light_cull, s);
    kiln_frame_graph_write(r->graph, pass, s->lists);
    render_blackboard_put(&f->board, "cluster lists", s->lists);
}

/* The shading passes read the lists the cull writes: the graph runs the cull first. */
static void light_cull_shading_reads(kiln_renderer *r, void *state, uint32_t pass) {
    light_cull_state *s = state;
    kiln_frame_graph_read(r->graph, pass, s->lists);
}

/* The same buffers for every pass: the shading passes' reads of the lists are ordered by the
 * graph (light_cull_shading_reads). */
static bool bind_light_cull(kiln_renderer *r, void *state, kiln_fg_context *ctx, kiln_binding_resource *out) {
    (void)r, (void)ctx;
    light_cull_state *s = state;
    out[0] = (kiln_binding_resource){.buffer = kiln_clusters_uniform_buffer(s->clusters),
                                     .size = sizeof(kiln_cluster_uniform)};
    out[1] = (kiln_binding_resource){.buffer = kiln_clusters_light_buffer(s->clusters)};
    out[2] = (kiln_binding_resource){.buffer = kiln_clusters_range_buffer(s->clusters)};
    out[3] = (kiln_binding_resource){.buffer = kiln_clusters_index_buffer(s->clusters)};
    return true;
}

/* A refused copy (every readback in flight) only leaves this frame's counts unread. */
static void finish_light_cull(kiln_renderer *r, void *state, kiln_encoder *enc) {
    light_cull_state *s = state;
    kiln_clusters_read_back(s->clusters, enc, r->frames_recorded, NULL);
}

const render_feature render_feature_light_cull = {
    .name = "light_cull", .state_size = sizeof(light_cull_state),
    .blocks = BLOCKS, .block_count = KILN_ARRAY_COUNT(BLOCKS), .bindings = BINDINGS, .binding_count = KILN_ARRAY_COUNT(BINDINGS),
    .create = create_light_cull, .destroy = destroy_light_cull, .prepare = prepare_light_cull,
    .declare = declare_light_cull, .bind = bind_light_cull, .shading_reads = light_cull_shading_reads,
    .finish = finish_light_cull,
};
