/* Internal to the renderer: the kiln_renderer struct shared by renderer.c (creation, registries,
 * the frame), renderer_pipelines.c (layouts and pipelines), renderer_batches.c (culling,
 * sorting, batching) and renderer_passes.c (recording). */
#ifndef KILN_RENDERER_INTERNAL_H
#define KILN_RENDERER_INTERNAL_H

#include <kiln/render.h>

#include "frame_uniform.h"
#include "sampler_cache.h"

/* The .wgsl files of shaders/, embedded by cmake/embed_set.cmake: the source without shader_dir. */
extern const kiln_wgsl_embedded_file kiln_render_wgsl[];
extern const uint32_t kiln_render_wgsl_count;

typedef struct renderer_mesh {
    kiln_gpu_mesh gpu;
    bool live;
} renderer_mesh;

typedef struct renderer_material {
    kiln_material params;       /* the CPU description, copied; label pointer cleared */
    kiln_gpu_material gpu;
    bool live;
} renderer_material;

/* One draw: consecutive visible instances with the same key, drawn with first_instance. */
typedef struct renderer_batch {
    uint32_t mesh, material, lod;
    uint32_t first_instance, instance_count;
} renderer_batch;

/* Pipeline variants a material can need. */
typedef enum pipeline_variant {
    VARIANT_OPAQUE_CULL,        /* back faces culled */
    VARIANT_OPAQUE_DOUBLE,      /* double-sided */
    VARIANT_BLEND_CULL,
    VARIANT_BLEND_DOUBLE,
    VARIANT_OVERDRAW,           /* debug: additive, no depth test */
    VARIANT_COUNT
} pipeline_variant;

typedef enum prepass_variant {
    PREPASS_OPAQUE_CULL,
    PREPASS_OPAQUE_DOUBLE,
    PREPASS_MASKED_CULL,
    PREPASS_MASKED_DOUBLE,
    PREPASS_COUNT
} prepass_variant;

/* Growable scratch that is cleared, never freed, so the steady state allocates nothing. */
typedef struct scratch {
    void *data;
    size_t capacity;            /* bytes */
} scratch;
bool scratch_reserve(scratch *s, size_t bytes);

struct kiln_renderer {
    kiln_gfx *gfx;
    kiln_resources *res;
    kiln_shader_library *library;
    kiln_render_settings settings;
    WGPUTextureFormat output_format;
    bool output_srgb_encode;

    kiln_default_textures defaults;
    /* The registry materials name textures in: the application's (set_texture_registry) or else
     * the renderer's own, which lives as long as the renderer. Synced at the top of each record. */
    kiln_texture_registry *texture_registry;
    kiln_texture_registry *own_textures;
    sampler_cache samplers;     /* material sampler states -> samplers */
    kiln_bind_group_layout frame_layout, object_layout, material_layout, cluster_layout, post_layout, empty_layout;
    kiln_pipeline_layout scene_layout, sky_layout, post_pipeline_layout;
    kiln_shader forward_program, sky_program, post_program;
    uint32_t pipeline_samples;  /* sample count the scene pipelines were built for */
    kiln_render_pipeline forward[VARIANT_COUNT];
    kiln_render_pipeline prepass[PREPASS_COUNT];
    kiln_render_pipeline sky, tonemap;

    kiln_buffer frame_uniform;
    kiln_bind_group frame_group;
    kiln_buffer instances;      /* storage; grows by doubling */
    uint64_t instances_capacity;/* records */
    kiln_bind_group object_group;
    kiln_buffer pass_uniforms;  /* KILN_MAX_PASS_VIEWS slots of KILN_PASS_SLOT_SIZE bytes */
    uint32_t camera_slot;       /* the slot the camera's view-projection is in this frame */
    kiln_clusters *clusters;
    kiln_bind_group cluster_group;
    kiln_bind_group post_group;
    kiln_texture_view post_group_view; /* the hdr view handle post_group was built for */

    kiln_frame_graph *graph;

    renderer_mesh *meshes;
    uint32_t mesh_count, mesh_capacity;
    renderer_material *materials;
    uint32_t material_count, material_capacity;

    /* frame scratch */
    kiln_gpu_light gpu_lights[KILN_MAX_LIGHTS];
    scratch spheres;            /* kiln_vec4 per instance */
    scratch visible;            /* uint32_t per instance */
    scratch keys;               /* uint64_t per visible instance */
    scratch records;            /* KILN_INSTANCE_RECORD_SIZE per visible instance */
    scratch batches;            /* renderer_batch */
    uint32_t batch_count, opaque_batch_count;

    kiln_frame_stats stats;
    uint64_t (*alloc_probe)(void);
    uint64_t alloc_mark;
};

/* renderer_pipelines.c */
bool renderer_create_layouts(kiln_renderer *r, kiln_error *err);
bool renderer_load_programs(kiln_renderer *r, kiln_error *err);
/* (Re)builds the scene pipelines for the current MSAA sample count when it changed. */
bool renderer_ensure_pipelines(kiln_renderer *r, kiln_error *err);
void renderer_destroy_pipelines(kiln_renderer *r);
pipeline_variant renderer_forward_variant(const kiln_renderer *r, const kiln_gpu_material *m);
prepass_variant renderer_prepass_variant(const kiln_gpu_material *m);

/* renderer_batches.c: culls, sorts and batches the scene's instances into r->batches and the
 * instance records; returns false naming the instance when it names a bad mesh or material. */
bool renderer_build_batches(kiln_renderer *r, const kiln_render_scene *scene, kiln_error *err);

/* renderer_passes.c: declares the frame graph, compiles it and records every pass into enc. */
bool renderer_record_frame(kiln_renderer *r, WGPUTextureView target, uint32_t width, uint32_t height, kiln_encoder *enc,
                           kiln_error *err);

/* Logs the allocations since the previous mark when an allocation probe is set. */
void renderer_alloc_mark(kiln_renderer *r, const char *phase);

#endif
