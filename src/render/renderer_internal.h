/* Internal to the renderer: the kiln_renderer struct and what its parts share.
 *
 *   renderer.c          creation, teardown, settings, the mesh and material registries
 *   frame.c             one frame: sync, lights, uniforms, views, features declare, compile, execute
 *   views.c             per-view culling, sorting, batching and drawing
 *   deform.c            skinning and morph targets: joint and weight buffers, object groups (deform.h)
 *   instance_records.c  the instance records in scene order: packed when changed, uploaded by chunk
 *   sort_keys.c         the collision-free batch sort key and its order (sort_keys.h)
 *   radix_sort.c        the linear-time stable sort under it (radix_sort.h)
 *   instance_workers.c  worker threads for per-instance work by instance range (instance_workers.h)
 *   blackboard.c        the frame blackboard: named graph resources features hand each other (blackboard.h)
 *   shading_group.c     group 3 of the scene passes, assembled from the features' binding rows
 *   cascades.c          cascade splits and stable fitting, CPU math only (cascades.h)
 *   shadow_atlas.c      spot and point light views in the shadow atlas, CPU math only (shadow_atlas.h)
 *   lod_select.c        an instance's level of detail from its projected size, CPU math only (lod_select.h)
 *   ibl.c               the environment bake: image-based lighting textures (ibl.h; features/ibl.c owns it)
 *   pipelines.c         the shared bind group layouts and the scene pipeline variant cache
 *   pass_timings.c      GPU time per pass: timestamp writes, resolve, non-blocking readback
 *   pass_timing_ring.c  its CPU half: the frames in flight and their pass names, ticks to ms
 *   features/           one family of passes per file (features/features.h: the interface and list)
 */
#ifndef KILN_RENDERER_INTERNAL_H
#define KILN_RENDERER_INTERNAL_H

#include <kiln/graph.h>
#include <kiln/render.h>
#include <kiln/shader/library.h>
#include <kiln/shader/wgsl_reflect.h>

#include "blackboard.h"
#include "deform.h"
#include "instance_workers.h"
#include "sort_keys.h"
#include "light_records.h"
#include "material_gpu.h"
#include "uniforms.h"
#include "sampler_cache.h"

/* The .wgsl files of shaders/, embedded by cmake/embed_set.cmake: the source without shader_dir. */
extern const kiln_wgsl_embedded_file kiln_render_wgsl[];
extern const uint32_t kiln_render_wgsl_count;

typedef struct renderer_material {
    kiln_material params;       /* the CPU description, copied; label pointer cleared */
    kiln_gpu_material gpu;
    bool live;
} renderer_material;

/* The formats of the frame's intermediates, which every pass attaching them is built for. */
#define RENDER_HDR_FORMAT WGPUTextureFormat_RGBA16Float
#define RENDER_DEPTH_FORMAT WGPUTextureFormat_Depth32Float

/* The shadow pipelines' depth bias (reverse-Z, so negative: away from the sun), constant in
 * depth units and per unit of depth slope. */
#define RENDER_SHADOW_DEPTH_BIAS (-2)
#define RENDER_SHADOW_SLOPE_BIAS (-1.5f)

/* ---- scene pipelines (pipelines.c) --------------------------------------------------------- */

/* What distinguishes one scene pipeline from another: a bitfield, so a variant is built the first
 * time a frame needs it, and a new axis is one more bit. */
typedef uint32_t pipeline_key;
enum {
    PIPELINE_DEPTH_ONLY = 1u << 0,   /* the depth prepass (no colour target) */
    PIPELINE_DOUBLE_SIDED = 1u << 1, /* no back-face culling */
    PIPELINE_BLEND = 1u << 2,        /* alpha blending, depth test without writes */
    PIPELINE_MASKED = 1u << 3,       /* depth only: alpha-tested fragment stage */
    PIPELINE_OVERDRAW = 1u << 4,     /* debug overdraw: additive, depth test off */
    PIPELINE_MSAA4 = 1u << 5,        /* 4 samples per pixel (settings.msaa), else 1 */
    PIPELINE_SHADOW = 1u << 6,       /* depth only into a shadow map: both faces, negative slope-scaled bias */
    PIPELINE_SKINNED = 1u << 7,      /* the skin stream on slot 1, a skinned vertex entry point */
    PIPELINE_MORPHED = 1u << 8,      /* a morphing vertex entry point (deform.wgsl) */
    PIPELINE_DATA = 1u << 9,         /* the data outputs: linear depth and object id, one sample */
};

typedef struct pipeline_cache_entry {
    pipeline_key key;
    kiln_render_pipeline pipeline;
} pipeline_cache_entry;

/* The scene pipelines: their layout and program, and the variants built so far. */
typedef struct render_pipelines {
    kiln_pipeline_layout layout;
    kiln_shader program;        /* forward.wgsl */
    pipeline_cache_entry *entries;
    uint32_t count, capacity;
} render_pipelines;

bool renderer_create_layouts(kiln_renderer *r, kiln_error *err);
void renderer_destroy_layouts(kiln_renderer *r);
/* What a pass draws: colour, the camera's depth, depth into a shadow map, or the data outputs. */
typedef enum render_pass_kind { RENDER_PASS_COLOR, RENDER_PASS_DEPTH, RENDER_PASS_SHADOW, RENDER_PASS_DATA } render_pass_kind;
/* The key a material draws with in a pass of `kind` under the current settings. */
pipeline_key renderer_material_key(const kiln_renderer *r, const kiln_gpu_material *m, render_pass_kind kind);
/* The pipeline for a key, built (and watched for hot reload) the first time it is asked for. */
kiln_render_pipeline renderer_scene_pipeline(kiln_renderer *r, pipeline_key key, kiln_error *err);
void renderer_destroy_pipelines(kiln_renderer *r);

/* ---- views (views.c) ----------------------------------------------------------------------- */

/* One draw: consecutive visible instances with the same key, drawn with first_instance (an
 * index into the record index list, whose entries name the instances' records). */
typedef struct render_batch {
    uint32_t mesh, material, lod; /* lod: the level drawn, below the mesh's lod_count */
    uint32_t first_instance, instance_count;
    uint32_t deform;            /* its instances' KILN_INSTANCE_* flags (deform.c) */
    uint32_t morph_slot;        /* a morphed batch's (one instance's) weight slot */
    kiln_render_pipeline depth_pipeline, color_pipeline;
    kiln_render_pipeline data_pipeline; /* an opaque camera batch's, in a frame with data outputs */
} render_batch;

/* A point of view the scene is drawn from: its own culling, sort order, batches and run of
 * record indices, and a pass-uniform slot holding its view-projection. A shadow view draws only
 * what casts shadows (neither blended instances nor those with disable_shadow_casting), with the
 * shadow pipelines. */
typedef struct render_view {
    bool shadow;
    kiln_mat4 view, projection;
    kiln_frustum frustum;
    uint32_t slot;                       /* pass-uniform slot: the view's index */
    uint32_t first_batch, batch_count;   /* into the renderer's batches */
    uint32_t opaque_batch_count;         /* the first ones; blended batches follow */
    uint32_t first_record, record_count; /* into the record index list: the view's drawn instances */
} render_view;

#define RENDER_MAX_VIEWS KILN_MAX_PASS_VIEWS

/* Growable scratch that is cleared, never freed, so the steady state allocates nothing. */
typedef struct scratch {
    void *data;
    size_t capacity;            /* bytes */
} scratch;
bool scratch_reserve(scratch *s, size_t bytes);

/* The frame's views (views.c): each view's culling, sort order, batches and run of record
 * indices, in scratch that is cleared each frame, and the pass-uniform slots they draw with. */
typedef struct render_view_list {
    render_view list[RENDER_MAX_VIEWS];
    uint32_t count;
    kiln_buffer pass_uniforms;  /* KILN_MAX_PASS_VIEWS slots of KILN_PASS_SLOT_SIZE bytes */
    scratch view_items;         /* view_item per instance (one view at a time) */
    scratch blend_items;        /* view_item per instance: the view's blended ones */
    scratch sort_keys, sort_keys_spare; /* uint64_t per instance: the radix sort's keys */
    scratch sort_order, sort_order_spare; /* uint32_t per instance: its order */
    scratch record_indices;     /* uint32_t per drawn instance, every view: the record it reads */
    scratch batches;            /* render_batch, every view */
    uint32_t record_count, batch_count; /* record indices and batches of the frame so far */
} render_view_list;

/* The scene's instances on the GPU (instance_records.c) and what the per-instance work of a
 * frame keeps (views.c, instance_workers.c): the record cache is the CPU copy of the instance
 * buffer, what each record was packed from, and a dirty flag per RENDER_RECORD_CHUNK instances. */
typedef struct render_instances {
    kiln_buffer buffer;         /* storage: one record per scene instance; grows by doubling */
    uint64_t capacity;          /* records */
    kiln_buffer record_index_buffer; /* storage: the views' record indices; grows by doubling */
    uint64_t record_index_capacity;  /* entries */
    kiln_bind_group object_group;    /* group 1 of meshes without morph targets (deform.c); rebuilt
                                      * only when one of the buffers it binds is replaced */
    instance_workers *workers;  /* the per-instance work's threads (settings.worker_threads) */
    scratch spheres;            /* kiln_vec4 per instance */
    scratch facts;              /* instance_facts per instance */
    scratch camera_lods;        /* uint8_t per instance: the camera view's level, for the record */
    scratch records;            /* KILN_INSTANCE_RECORD_SIZE per instance */
    scratch record_inputs;      /* record_inputs per instance */
    scratch record_dirty;       /* uint8_t per chunk: packed since its last upload */
    uint32_t records_packed;    /* instances [0, records_packed) have a packed record and inputs */
} render_instances;

/* What the per-view work needs of each instance, gathered once per frame in scene order so a
 * view reads 12 bytes per instance rather than the scene's instance. */
enum {
    FACT_SKINNED = 1u << 0,      /* the record's flags: a skinned mesh and a joint_offset >= 0 */
    FACT_MORPHED = 1u << 1,      /* the record's flags: the mesh has morph targets */
    FACT_BLENDED = 1u << 2,      /* a live material that blends */
    FACT_CASTS = 1u << 3,        /* drawn into shadow maps */
    FACT_REMOVED_MATERIAL = 1u << 4,
};
typedef struct instance_facts {
    uint32_t mesh, material, flags;
} instance_facts;

/* A visible instance of the view being built: its sort key, index and level of detail. */
typedef struct view_item {
    batch_key key;
    uint32_t instance, lod;
} view_item;

/* Instances per chunk of the record upload, and the alignment of worker ranges, so a chunk's
 * dirty flag has one writer. */
#define RENDER_RECORD_CHUNK 256u
/* Below this many instances per range the work stays on the calling thread: on the H200 host
 * (16 cores) waking threads cost more than they saved at 10k instances (3.5 ms on one thread,
 * 4.0 on eight), and paid from 20k (7.1 -> 5.5 ms) and 50k (14.6 -> 9.8 ms); docs/PERFORMANCE.md. */
#define RENDER_MIN_WORKER_RANGE 8192u
#define RENDER_MAX_RANGES KILN_MAX_WORKER_THREADS

/* Starts a frame's views: checks the scene's instances and computes their world bounding spheres
 * and facts once for every view. Fails naming the first instance that names an unknown or
 * removed mesh, or an unknown material. */
bool renderer_begin_views(kiln_renderer *r, const kiln_render_scene *scene, kiln_error *err);
/* Adds a view (a camera view, or with `shadow` a shadow view), culls and batches the scene for
 * it; returns its index or UINT32_MAX with err. A visible instance with a removed material fails
 * naming it (a culled one does not). The camera view sets each instance's level of detail for its
 * record. */
uint32_t renderer_add_view(kiln_renderer *r, const kiln_render_scene *scene, kiln_mat4 view, kiln_mat4 projection,
                           bool shadow, kiln_error *err);
/* Which of a batch's pipelines a pass draws it with. */
typedef enum render_draw_mode {
    RENDER_DRAW_COLOR, /* color_pipeline: shading, with `pass_group` */
    RENDER_DRAW_DEPTH, /* depth_pipeline: the prepass's, or a shadow view's shadow pipeline */
    RENDER_DRAW_DATA,  /* data_pipeline: the data outputs (opaque batches of the camera view) */
} render_draw_mode;

/* Binds the scene groups for the view, with `pass_group` as group 3 (a shading pass's shading
 * group, or r->depth_group for the depth passes), and draws its opaque batches or (`blended`,
 * colour only) its blended ones with the pipelines `mode` picks, counting draws. Errors stick
 * to the pass. */
void renderer_draw_view(kiln_renderer *r, kiln_render_pass *pass, const render_view *v, render_draw_mode mode,
                        bool blended, kiln_bind_group pass_group, uint32_t *draws);

/* ---- the shading group (shading_group.c) ---------------------------------------------------- */

/* Group 3 of every scene pass: the pass view slot (the view list's) and the bindings every
 * feature adds (render_feature.bindings), in list order. Its layout is assembled once at
 * creation; each frame the depth passes bind the features' stand-ins (r->depth_group) and the
 * shading passes a group of the frame's resources, both through one small cache keyed by their
 * entries, so a steady frame creates none and a replaced buffer only misses once. */
#define RENDER_SHADING_MAX_BINDINGS KILN_BIND_GROUP_CACHE_MAX_ENTRIES
/* The layout and the cache, at creation; false naming the feature whose rows clash, overflow the
 * group or come without a bind. */
bool renderer_shading_group_create(kiln_renderer *r, kiln_error *err);
/* Destroys the cached groups: first at teardown, before what they bind (the layout goes with
 * the other layouts). */
void renderer_shading_group_destroy(kiln_renderer *r);
/* Declares every feature's shading reads (render_feature.shading_reads) on shading pass `pass`. */
void renderer_shading_group_reads(kiln_renderer *r, uint32_t pass);
/* The group for a pass recording with `ctx` (the frame's resources), or with NULL the stand-ins
 * (kept in r->depth_group by frame.c). Id 0 with the error set (ctx->error for a pass). */
kiln_bind_group renderer_shading_group(kiln_renderer *r, kiln_fg_context *ctx, kiln_error *err);
/* Checks a reflected scene program's @group(3) vars against the rows: every one is a row's
 * binding, of that row's name and kind. (A row the program does not declare is legal: the
 * layout may hold bindings a program leaves unused.) */
bool renderer_check_shading_bindings(const kiln_wgsl_module *m, const char *program, kiln_error *err);

/* ---- the frame (frame.c) ------------------------------------------------------------------- */

/* What a frame's features share: its facts, set by frame.c before any hook runs, and the
 * blackboard of named graph resources. frame.c publishes "target" (imported and exported) and,
 * where the target has them, "linear depth" and "object ids" before any feature declares;
 * features publish the rest in list order ("depth", "hdr", "hdr resolved", "ao", ...: each
 * feature's file says what it publishes and needs). */
typedef struct render_frame {
    uint32_t width, height;
    kiln_render_target target;
    kiln_camera camera;               /* the scene's, with the target's viewport */
    const render_view *camera_view;   /* set once the camera view is added */
    render_blackboard board;
} render_frame;

/* ---- GPU pass timings (pass_timings.c) ----------------------------------------------------- */

/* The timestamp queries and the frame ring; NULL in the renderer without timestamp queries. */
typedef struct renderer_timings renderer_timings;

/* At creation: sets r->timings where the device has timestamp queries (a failure only logs). */
void renderer_timings_create(kiln_renderer *r);
void renderer_timings_destroy(kiln_renderer *r);
/* Takes the readbacks that came back (after a pump) into the latest frame. */
void renderer_timings_collect(kiln_renderer *r);
/* After compile: gives every executed pass its timestamp writes and notes its name. */
void renderer_timings_place(kiln_renderer *r);
/* After execute: resolves the frame's queries into `enc`, whose submit starts the readback. */
void renderer_timings_resolve(kiln_renderer *r, kiln_encoder *enc);

/* Logs the allocations since the previous mark when an allocation probe is set. */
void renderer_alloc_mark(kiln_renderer *r, const char *phase);

/* ---- instance records (instance_records.c) ------------------------------------------------- */

/* What an instance's record is packed from: equal inputs give an equal record. */
typedef struct record_inputs {
    kiln_mat4 model;
    uint32_t material, flags, lod;
    int32_t joint_offset;
    uint32_t morph_slot;
    uint32_t object_id;
} record_inputs;

/* Grows the instance buffer (to hold `instances` records) and the record index buffer (to hold
 * `record_indices` entries), each by doubling and only when too small. A new instance buffer gets
 * every record uploaded again; renderer_deform_bind rebuilds the object groups that bind them. */
bool renderer_ensure_object_buffers(kiln_renderer *r, uint64_t instances, uint64_t record_indices, kiln_error *err);
/* After the views: packs the record of every instance whose inputs changed since it was last
 * packed (one streaming pass in scene order, by worker range), marking its chunk for upload. */
void renderer_pack_records(kiln_renderer *r, const kiln_render_scene *scene);
/* Uploads the chunks of records marked since their last upload, then the frame's record index
 * list. */
bool renderer_upload_records(kiln_renderer *r, uint32_t instance_count, kiln_error *err);
/* Frees the record cache and the per-instance scratch. */
void renderer_free_records(kiln_renderer *r);

struct kiln_renderer {
    kiln_gfx *gfx;
    kiln_resources *res;
    kiln_shader_library *library;
    kiln_render_settings requested;  /* as the application set them (kiln_renderer_settings) */
    kiln_render_settings settings;   /* resolved at the start of each frame */
    WGPUTextureFormat output_format;
    bool output_srgb_encode;

    kiln_default_textures defaults;
    /* The registry materials name textures in: the application's (set_texture_registry) or else
     * the renderer's own, which lives as long as the renderer. Synced at the top of each record. */
    kiln_texture_registry *texture_registry;
    kiln_texture_registry *own_textures;
    sampler_cache samplers;     /* material sampler states -> samplers */
    kiln_bind_group_layout frame_layout, object_layout, material_layout;
    kiln_bind_group_layout shading_layout;     /* the shading group's (shading_group.c) */
    kiln_bind_group_cache *shading_groups;     /* its groups, by their entries */
    kiln_bind_group depth_group;               /* this frame's stand-in group for depth passes */
    render_pipelines pipelines;

    kiln_buffer view_uniform, lighting_uniform;
    kiln_bind_group frame_group;  /* group 0: the View and Lighting blocks */
    render_instances instances; /* the instance records, their buffers and the per-instance work */
    renderer_deform deform;          /* joints, morph weights, the morphed meshes' groups */
    uint64_t frames_recorded;    /* frames whose recording began; the current one's number */

    kiln_frame_graph *graph;
    void **feature_state;       /* one per entry of the feature list */
    uint32_t features_begun;    /* features whose create was called: those destroy is called for */
    render_frame frame;

    /* The meshes, owned: renderer mesh index i is geometry id i + 1. Synced after the textures. */
    kiln_geometry_registry *geometry;
    renderer_material *materials;
    uint32_t material_count, material_capacity;

    /* frame scratch */
    render_frame_lights lights;
    render_view_list views;
    bool data_outputs;          /* this frame's target has data outputs: camera batches get data pipelines */
    /* A caller built against an older header: its instances and lights in the library's layout
     * (abi.c), for the call; untouched while the caller's strides are the library's. */
    scratch caller_instances, caller_lights;

    kiln_frame_stats stats;
    renderer_timings *timings;  /* NULL without timestamp queries */
    uint64_t (*alloc_probe)(void);
    uint64_t alloc_mark;
};

#endif
