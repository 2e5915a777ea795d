/* kiln/gfx: the typed layer over WebGPU (Dawn). The only part of kiln that calls wgpu*.
 *
 * Objects and ownership (each created by its _create and released by its _destroy):
 *   kiln_gfx         instance, adapter, device, queue, optional window surface, the diagnostics
 *                    ring and the event queue Dawn's callbacks write into. Outlives everything below.
 *   kiln_resources   one generational pool per GPU object kind. Destroy before its kiln_gfx.
 *   kiln_encoder     one command buffer; a stack value, consumed by _finish_and_submit or _discard.
 *   kiln_swapchain   the window surface configuration and per-frame acquisition.
 *   kiln_debug_draw  line drawing: its pipeline and vertex buffer live in kiln_resources.
 *
 * Errors: functions that can fail return bool (or an invalid handle with id 0) and fill an
 * optional kiln_error. Validation errors Dawn raises outside an error scope are uncaptured: they
 * are counted in kiln_gfx.error_count and logged under "wgpu.validation" by kiln_gfx_pump.
 * Everything here is main-thread only. */
#ifndef KILN_GFX_H
#define KILN_GFX_H

#include <stdbool.h>
#include <stdint.h>

#include <kiln/core.h>
#include <kiln/webgpu.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------
 * Device and event pump
 * ------------------------------------------------------------------------------------------- */

typedef struct kiln_gfx_desc {
    const char *label;                /* names the device in Dawn messages */
    /* With both set, the adapter is chosen compatible with this Xlib window and gfx.surface is
     * created for it (see kiln_swapchain). Leave zero for headless use. */
    void *x11_display;
    uint64_t x11_window;              /* the Xlib Window (XID) to present to */
    bool low_power;                   /* prefer an integrated / low-power adapter */
    uint32_t diagnostics_capacity;    /* records kept in gfx.diagnostics; 0 means 1024 */
    uint32_t gpu_wait_timeout_ms;     /* the longest a wait for GPU work (a queue finish, a buffer
                                       * map: kiln_gfx_await_gpu) may take; 0 means no limit, the
                                       * wait lasting as long as the work while the device lives */
} kiln_gfx_desc;

/* Told about a long wait for GPU work about every KILN_GFX_WAIT_REPORT_MS: what is awaited and
 * for how long so far, so a tool can show progress (kiln-render prints it). */
typedef void (*kiln_gfx_wait_observer)(void *user, const char *what, double seconds);
#define KILN_GFX_WAIT_REPORT_MS 2000 /* how often a long GPU wait calls its observer, in ms */

/* Optional features: requested at device creation only when the adapter has them. */
typedef struct kiln_gfx_features {
    bool timestamp_query;             /* TimestampQuery: GPU pass timings (kiln_timestamps) */
    bool float32_filterable;          /* Float32Filterable: R32Float/RGBA32Float with filtering samplers */
    bool float32_blendable;           /* Float32Blendable: blending into 32-bit float targets */
    bool texture_compression_bc;      /* TextureCompressionBC: BC1-BC7 textures */
    bool shader_f16;                  /* ShaderF16: f16 in WGSL */
    bool indirect_first_instance;     /* IndirectFirstInstance: firstInstance in indirect draws */
    bool depth_clip_control;          /* DepthClipControl: unclippedDepth in primitive state */
    bool rg11b10_renderable;          /* RG11B10UfloatRenderable: RG11B10Ufloat as a render target */
} kiln_gfx_features;

typedef struct kiln_gfx_events kiln_gfx_events; /* internal */

/* The device and its state; see kiln_gfx_create. Fields are read-only for the application, except that it drains diagnostics. */
typedef struct kiln_gfx {
    WGPUInstance instance;            /* the Dawn instance */
    WGPUAdapter adapter;              /* the adapter the device was created on */
    WGPUDevice device;                /* the device */
    WGPUQueue queue;                  /* the device's queue */
    WGPUSurface surface;              /* NULL when headless */
    char adapter_name[256];           /* e.g. "llvmpipe (LLVM 15.0.6, 256 bits)" */
    char adapter_vendor[64];          /* the adapter's vendor string; may be empty */
    WGPUBackendType backend;          /* the backend Dawn runs on (see kiln_gfx_backend_name) */
    WGPUAdapterType adapter_type;     /* discrete, integrated, CPU or unknown */
    WGPULimits limits;                /* the device's limits */
    kiln_gfx_features features;       /* enabled on the device */
    uint64_t error_count;             /* uncaptured errors seen by kiln_gfx_pump */
    bool lost;                        /* the device was lost (set by kiln_gfx_pump) */
    kiln_log diagnostics;             /* records from Dawn and from gfx; drained by the application */
    uint64_t gpu_wait_timeout_ns;     /* desc.gpu_wait_timeout_ms; 0: GPU waits have no limit */
    kiln_gfx_wait_observer wait_observer; /* set by the application; NULL: long waits go unreported */
    void *wait_observer_user;         /* passed to wait_observer */
    kiln_gfx_events *events;          /* internal: the callbacks' event queue */
    int deferred_scope;               /* internal: kiln_gfx_defer_scope's state */
} kiln_gfx;

/* Creates instance, adapter, device and queue (and the surface when desc names a window),
 * enabling each optional feature the adapter has. NULL with err filled on failure. */
kiln_gfx *kiln_gfx_create(const kiln_gfx_desc *desc, kiln_error *err);
/* Releases everything kiln_gfx_create made; destroy kiln_resources first. NULL is ignored. */
void kiln_gfx_destroy(kiln_gfx *gfx);

/* Processes Dawn's pending callbacks and drains them into the gfx state: uncaptured errors are
 * counted and logged ("wgpu.validation", "wgpu.out_of_memory", "wgpu.internal"), device loss sets
 * `lost` ("wgpu.device"), Dawn's own log lines become "wgpu" records. `wait` also ticks the device
 * so that finished GPU work reports in. Call once per frame. */
void kiln_gfx_pump(kiln_gfx *gfx, bool wait);

/* Blocks until `future` completes or timeout_ns passes (then fails with KILN_ERR_TIMEOUT naming
 * `what`). Only futures whose callbacks use WGPUCallbackMode_WaitAnyOnly or AllowSpontaneous may
 * be awaited. */
bool kiln_gfx_await(kiln_gfx *gfx, WGPUFuture future, uint64_t timeout_ns, const char *what, kiln_error *err);

#define KILN_GFX_DEFAULT_TIMEOUT_NS (10ull * 1000 * 1000 * 1000) /* a timeout for kiln_gfx_await: 10 s */

/* Waits for a future that completes when submitted GPU work does (a queue finish, a buffer map).
 * Unlike kiln_gfx_await it has no fixed timeout: work the GPU is doing may take as long as it
 * takes (a frame of 8192 x 8192 pixels, a pass repeated 4096 times), so the wait goes on while the
 * device lives, pumping its events, telling wait_observer about every KILN_GFX_WAIT_REPORT_MS,
 * and ends with KILN_ERR_DEVICE_LOST when the device is lost or KILN_ERR_TIMEOUT after
 * gpu_wait_timeout_ns when that is set ("timed out after 1.0 s waiting for <what>
 * (gpu_wait_timeout_ms)"). A hung GPU is the driver's to detect: it loses the device. */
bool kiln_gfx_await_gpu(kiln_gfx *gfx, WGPUFuture future, const char *what, kiln_error *err);

/* Runs `create` inside a validation + internal error scope; returns false with the first message
 * when the scope caught an error. The generic helper behind shader and pipeline creation. */
typedef struct kiln_gfx_scope_result {
    bool failed;                      /* the scope caught an error */
    WGPUErrorType type;               /* the error's type when failed */
    char message[1024];               /* the first error's message, NUL-terminated; empty unless failed */
} kiln_gfx_scope_result;
/* Opens the scope: pushes an out-of-memory, an internal and a validation error scope. */
void kiln_gfx_push_scope(kiln_gfx *gfx);
/* Pops the three scopes and fills out (failed, with the type and message of the error caught,
 * validation first). Dawn answers a pop at once, so this does not normally wait. False, err
 * filled, only when the scopes could not be popped. */
bool kiln_gfx_pop_scope(kiln_gfx *gfx, kiln_gfx_scope_result *out, kiln_error *err);
/* A deferred scope, for a stretch of work that seldom makes a call that can raise a device error
 * (a render pass whose bind groups are all cached). kiln_gfx_defer_scope arms it, and gfx pushes
 * it, as kiln_gfx_push_scope would, just before the first call through kiln that can raise one:
 * creating an object, a queue write or submit, an encoder's finish, a buffer map or unmap,
 * another scope's push, a pump. Encoder commands raise none while they record (Dawn keeps their
 * errors for the encoder's finish), so a stretch that only records commands pushes nothing, and a
 * deferred scope catches what a scope pushed at the stretch's start would have caught of kiln's
 * calls (calls made to Dawn directly do not push it). One at a time; a scope pushed after it is
 * popped before it. */
void kiln_gfx_defer_scope(kiln_gfx *gfx);
/* Pops the deferred scope as kiln_gfx_pop_scope does if it was pushed; otherwise nothing was
 * raised inside it, and out says so. Disarms it either way. */
bool kiln_gfx_pop_deferred_scope(kiln_gfx *gfx, kiln_gfx_scope_result *out, kiln_error *err);

/* A lower-case name for a backend ("vulkan", "metal", "null", ...); "undefined" otherwise. */
const char *kiln_gfx_backend_name(WGPUBackendType backend);

/* ---------------------------------------------------------------------------------------------
 * Resources: generational pools of GPU objects behind typed handles
 * ------------------------------------------------------------------------------------------- */

KILN_HANDLE(kiln_buffer)
KILN_HANDLE(kiln_texture)
KILN_HANDLE(kiln_texture_view)
KILN_HANDLE(kiln_sampler)
KILN_HANDLE(kiln_shader)
KILN_HANDLE(kiln_bind_group_layout)
KILN_HANDLE(kiln_pipeline_layout)
KILN_HANDLE(kiln_bind_group)
KILN_HANDLE(kiln_render_pipeline)
KILN_HANDLE(kiln_compute_pipeline)

typedef struct kiln_resources kiln_resources;

/* Live objects per pool of a kiln_resources, by kind. */
typedef struct kiln_live_counts {
    /*@{*/
    uint32_t buffers, textures, texture_views, samplers, shaders; /* live buffers, textures, views, samplers, shader modules */
    /*@}*/
    /*@{*/
    uint32_t bind_group_layouts, pipeline_layouts, bind_groups, render_pipelines, compute_pipelines; /* live layouts, bind groups and pipelines */
    /*@}*/
} kiln_live_counts;
/* The sum of every count. */
uint32_t kiln_live_counts_total(const kiln_live_counts *counts);

/* What kiln_resources_create_buffer makes. */
typedef struct kiln_buffer_desc {
    const char *label;                /* names the buffer in Dawn messages */
    uint64_t size;                    /* bytes */
    WGPUBufferUsage usage;            /* WebGPU usage flags */
    bool mapped_at_creation;          /* created mapped, for a first write through the mapping */
} kiln_buffer_desc;

/* What kiln_resources_create_texture makes; also what kiln_resources_texture_desc returns. */
typedef struct kiln_texture_desc {
    const char *label;                /* names the texture in Dawn messages */
    /*@{*/
    uint32_t width, height;           /* size of mip 0 in texels */
    /*@}*/
    uint32_t depth_or_layers;         /* 0 means 1 */
    uint32_t mip_levels;              /* 0 means 1 */
    uint32_t sample_count;            /* 0 means 1 */
    WGPUTextureFormat format;         /* texel format */
    WGPUTextureUsage usage;           /* WebGPU usage flags */
    WGPUTextureDimension dimension;   /* Undefined means 2D */
} kiln_texture_desc;

/* What kiln_resources_create_texture_view makes; zero fields take the texture's whole range. */
typedef struct kiln_texture_view_desc {
    const char *label;                  /* names the view in Dawn messages */
    WGPUTextureViewDimension dimension; /* Undefined: derived from the texture */
    WGPUTextureFormat format;           /* Undefined: the texture's */
    /*@{*/
    uint32_t base_mip, mip_count;       /* mip_count 0: all remaining */
    /*@}*/
    /*@{*/
    uint32_t base_layer, layer_count;   /* layer_count 0: all remaining */
    /*@}*/
    WGPUTextureAspect aspect;           /* Undefined: All */
} kiln_texture_view_desc;

/* What kiln_resources_create_sampler makes; a zero desc is a nearest, clamped sampler. */
typedef struct kiln_sampler_desc {
    const char *label;                  /* names the sampler in Dawn messages */
    bool linear;                        /* min/mag filter linear (else nearest) */
    bool mip_linear;                    /* mipmap filter linear */
    WGPUAddressMode address;            /* Undefined: ClampToEdge, all three axes */
    /* Per-axis overrides and separate mag / min filters, for samplers described per axis and
     * per filter (glTF's wrapS / wrapT, magFilter / minFilter); Undefined: address / linear. */
    /*@{*/
    WGPUAddressMode address_u, address_v;
    WGPUFilterMode mag_filter, min_filter;
    /*@}*/
    WGPUCompareFunction compare;        /* Undefined: not a comparison sampler */
    uint16_t max_anisotropy;            /* 0 means 1 */
    float lod_max;                      /* 0 means 32 */
} kiln_sampler_desc;

/* capacity sizes the buffer, texture, view and bind group pools (0 means 4096); samplers get 256
 * and shaders, layouts and pipelines 1024 each. */
kiln_resources *kiln_resources_create(kiln_gfx *gfx, uint32_t capacity, kiln_error *err);
/* Releases whatever is still alive (imported views are only forgotten) and, if anything was,
 * appends one "gfx.resources" warning with the counts to gfx->diagnostics. */
void kiln_resources_destroy(kiln_resources *res);
kiln_gfx *kiln_resources_gfx(const kiln_resources *res);
kiln_live_counts kiln_resources_live_counts(const kiln_resources *res);

/* A new buffer; id 0 with err filled when Dawn rejects it or the pool is full. */
kiln_buffer kiln_resources_create_buffer(kiln_resources *res, const kiln_buffer_desc *desc, kiln_error *err);
/* A new texture; id 0 with err filled when Dawn rejects it or the pool is full. */
kiln_texture kiln_resources_create_texture(kiln_resources *res, const kiln_texture_desc *desc, kiln_error *err);
/* A new view of texture (desc may be NULL: the whole texture); id 0 with err filled on failure. */
kiln_texture_view kiln_resources_create_texture_view(kiln_resources *res, kiln_texture texture,
                                               const kiln_texture_view_desc *desc, kiln_error *err);
/* A new sampler; id 0 with err filled on failure. */
kiln_sampler kiln_resources_create_sampler(kiln_resources *res, const kiln_sampler_desc *desc, kiln_error *err);
/* The reverse-Z shadow comparison sampler: linear, clamp, GreaterEqual. */
kiln_sampler kiln_resources_create_comparison_sampler(kiln_resources *res, const char *label, kiln_error *err);

/* Wraps a view kiln does not own (a swapchain view) so it can be bound through a handle. */
kiln_texture_view kiln_resources_import_texture_view(kiln_resources *res, WGPUTextureView view, kiln_error *err);
bool kiln_resources_forget_texture_view(kiln_resources *res, kiln_texture_view view, kiln_error *err);

/* The destroy_* functions release the object behind h and free its handle; false for a stale handle. */
bool kiln_resources_destroy_buffer(kiln_resources *res, kiln_buffer h, kiln_error *err);
/* Refused (nothing released) while views of the texture are alive. */
bool kiln_resources_destroy_texture(kiln_resources *res, kiln_texture h, kiln_error *err);
bool kiln_resources_destroy_texture_view(kiln_resources *res, kiln_texture_view h, kiln_error *err);
bool kiln_resources_destroy_sampler(kiln_resources *res, kiln_sampler h, kiln_error *err);
bool kiln_resources_destroy_shader(kiln_resources *res, kiln_shader h, kiln_error *err);
bool kiln_resources_destroy_bind_group_layout(kiln_resources *res, kiln_bind_group_layout h, kiln_error *err);
bool kiln_resources_destroy_pipeline_layout(kiln_resources *res, kiln_pipeline_layout h, kiln_error *err);
bool kiln_resources_destroy_bind_group(kiln_resources *res, kiln_bind_group h, kiln_error *err);
bool kiln_resources_destroy_render_pipeline(kiln_resources *res, kiln_render_pipeline h, kiln_error *err);
bool kiln_resources_destroy_compute_pipeline(kiln_resources *res, kiln_compute_pipeline h, kiln_error *err);

/* Raw objects behind handles: NULL (and an "invalid handle" error) for stale handles. */
WGPUBuffer kiln_resources_buffer_raw(const kiln_resources *res, kiln_buffer h, kiln_error *err);
uint64_t kiln_resources_buffer_size(const kiln_resources *res, kiln_buffer h);
WGPUTexture kiln_resources_texture_raw(const kiln_resources *res, kiln_texture h, kiln_error *err);
const kiln_texture_desc *kiln_resources_texture_desc(const kiln_resources *res, kiln_texture h);
/* What Dawn says of a texture kiln did not create (a swapchain's, a caller's): size, layers,
 * mips, samples, format and usage; the label stays NULL. */
kiln_texture_desc kiln_gfx_raw_texture_desc(WGPUTexture texture);
uint32_t kiln_resources_texture_view_count(const kiln_resources *res, kiln_texture h);
WGPUTextureView kiln_resources_texture_view_raw(const kiln_resources *res, kiln_texture_view h, kiln_error *err);
WGPUSampler kiln_resources_sampler_raw(const kiln_resources *res, kiln_sampler h, kiln_error *err);
WGPUShaderModule kiln_resources_shader_raw(const kiln_resources *res, kiln_shader h, kiln_error *err);
WGPUBindGroupLayout kiln_resources_bind_group_layout_raw(const kiln_resources *res, kiln_bind_group_layout h, kiln_error *err);
WGPUPipelineLayout kiln_resources_pipeline_layout_raw(const kiln_resources *res, kiln_pipeline_layout h, kiln_error *err);
WGPUBindGroup kiln_resources_bind_group_raw(const kiln_resources *res, kiln_bind_group h, kiln_error *err);
WGPURenderPipeline kiln_resources_render_pipeline_raw(const kiln_resources *res, kiln_render_pipeline h, kiln_error *err);
WGPUComputePipeline kiln_resources_compute_pipeline_raw(const kiln_resources *res, kiln_compute_pipeline h, kiln_error *err);

/* Uploads through the queue. Fails (nothing written) when offset + size exceeds the buffer. */
bool kiln_resources_write_buffer(kiln_resources *res, kiln_buffer h, uint64_t offset, const void *data, size_t size,
                           kiln_error *err);
/* Uploads one mip level (layer `layer`) of tightly packed rows. Fails when the region leaves the
 * texture or `size` is shorter than bytes_per_row * height. */
bool kiln_resources_write_texture(kiln_resources *res, kiln_texture h, uint32_t mip, uint32_t layer, const void *data,
                            size_t size, uint32_t bytes_per_row, uint32_t width, uint32_t height, kiln_error *err);

/* Adopting takes ownership of a raw object created elsewhere (a pipeline builder, a shader
 * compile): on failure (NULL object, pool full) the object is released, so ownership always
 * passes. */
kiln_shader kiln_resources_adopt_shader(kiln_resources *res, WGPUShaderModule module, const char *label, kiln_error *err);
kiln_render_pipeline kiln_resources_adopt_render_pipeline(kiln_resources *res, WGPURenderPipeline p, kiln_error *err);
kiln_compute_pipeline kiln_resources_adopt_compute_pipeline(kiln_resources *res, WGPUComputePipeline p, kiln_error *err);
/* Swap the object behind a live handle (hot reload); the old object is released. On a stale
 * handle the new object is released and false returned. */
bool kiln_resources_replace_shader(kiln_resources *res, kiln_shader h, WGPUShaderModule module, kiln_error *err);
/* As kiln_resources_replace_shader, for a render pipeline. */
bool kiln_resources_replace_render_pipeline(kiln_resources *res, kiln_render_pipeline h, WGPURenderPipeline p,
                                      kiln_error *err);
/* As kiln_resources_replace_shader, for a compute pipeline. */
bool kiln_resources_replace_compute_pipeline(kiln_resources *res, kiln_compute_pipeline h, WGPUComputePipeline p,
                                       kiln_error *err);

/* ---------------------------------------------------------------------------------------------
 * Shaders: WGSL compilation with file:line:col diagnostics, hot reload
 * ------------------------------------------------------------------------------------------- */

/* One compiler message. */
typedef struct kiln_shader_message {
    /*@{*/
    uint32_t line, column;            /* 1-based; 0 when Dawn gave no location */
    /*@}*/
    bool is_error;                    /* an error (else a warning or info) */
    char text[512];                   /* Dawn's text, NUL-terminated, truncated to 511 characters */
} kiln_shader_message;

#define KILN_SHADER_MAX_MESSAGES 8 /* messages a kiln_shader_report keeps */
/* The messages of one compile (kiln_gfx_compile_shader), errors first. */
typedef struct kiln_shader_report {
    char path[256];                   /* the name the source was compiled under */
    uint32_t count;                   /* messages held, at most KILN_SHADER_MAX_MESSAGES */
    kiln_shader_message messages[KILN_SHADER_MAX_MESSAGES]; /* the first `count` are set */
} kiln_shader_report;

/* Formats message i as "path:line:col: error: text". */
void kiln_shader_report_format(const kiln_shader_report *report, uint32_t i, char *out, size_t out_size);

/* Compiles WGSL `source`, named `path` in diagnostics, creating the module inside an error scope
 * so that a rejected shader is an error here, never an uncaptured one. On failure returns NULL,
 * fills `report` (when given; errors before warnings) and err->message with the first
 * "path:line:col: error: text". The module is not pooled: adopt it or release it. Reading files,
 * #include and hot reload live in the shader layer (kiln_shader_library). */
WGPUShaderModule kiln_gfx_compile_shader(kiln_gfx *gfx, const char *path, const char *source,
                                         kiln_shader_report *report, kiln_error *err);

/* ---------------------------------------------------------------------------------------------
 * Pipelines: bind group layouts, bind groups, render and compute pipelines
 * ------------------------------------------------------------------------------------------- */

typedef enum kiln_binding_kind {
    KILN_BINDING_UNIFORM_BUFFER,
    KILN_BINDING_STORAGE_BUFFER,
    KILN_BINDING_READ_ONLY_STORAGE_BUFFER,
    KILN_BINDING_TEXTURE_2D,                  /* filterable float */
    KILN_BINDING_TEXTURE_CUBE,
    KILN_BINDING_TEXTURE_2D_ARRAY,
    KILN_BINDING_TEXTURE_3D,
    KILN_BINDING_DEPTH_TEXTURE_2D,
    KILN_BINDING_DEPTH_TEXTURE_2D_ARRAY,
    KILN_BINDING_MULTISAMPLED_DEPTH_TEXTURE_2D,
    KILN_BINDING_UNFILTERABLE_TEXTURE_2D,     /* e.g. R32Float without float32-filterable */
    KILN_BINDING_UNFILTERABLE_TEXTURE_2D_ARRAY, /* the same, a 2D array */
    KILN_BINDING_UNFILTERABLE_TEXTURE_3D,     /* the same, a 3D texture */
    KILN_BINDING_FILTERING_SAMPLER,
    KILN_BINDING_NON_FILTERING_SAMPLER,
    KILN_BINDING_COMPARISON_SAMPLER,
    KILN_BINDING_WRITE_ONLY_STORAGE_TEXTURE_2D, /* needs kiln_layout_entry.storage_format */
    KILN_BINDING_WRITE_ONLY_STORAGE_TEXTURE_2D_ARRAY, /* the same, for every layer (cube faces) */
    KILN_BINDING_KIND_COUNT
} kiln_binding_kind;

/* One entry of a bind group layout. */
typedef struct kiln_layout_entry {
    uint32_t binding;                 /* the WGSL @binding number */
    WGPUShaderStage visibility;       /* stages that see it */
    kiln_binding_kind kind;           /* what is bound */
    bool dynamic_offset;              /* buffers only */
    uint64_t min_binding_size;        /* buffers only; 0: checked at draw time */
    WGPUTextureFormat storage_format; /* write-only storage textures only */
} kiln_layout_entry;

/* One bind group entry. Set exactly one of buffer, sampler, view. size 0: to the end. */
typedef struct kiln_binding_resource {
    uint32_t binding;                 /* the WGSL @binding number */
    kiln_buffer buffer;               /* for buffer bindings */
    /*@{*/
    uint64_t offset, size;            /* byte range of buffer; size 0: to the end */
    /*@}*/
    kiln_sampler sampler;             /* for sampler bindings */
    kiln_texture_view view;           /* for texture bindings */
} kiln_binding_resource;

/* A layout of `count` entries; id 0 with err filled on failure. */
kiln_bind_group_layout kiln_resources_create_bind_group_layout(kiln_resources *res, const char *label,
                                                         const kiln_layout_entry *entries, uint32_t count,
                                                         kiln_error *err);
/* A pipeline layout of `count` bind group layouts, group i being layouts[i]; id 0 on failure. */
kiln_pipeline_layout kiln_resources_create_pipeline_layout(kiln_resources *res, const char *label,
                                                     const kiln_bind_group_layout *layouts, uint32_t count,
                                                     kiln_error *err);
/* A bind group of `count` entries for layout; id 0 with err filled on failure. */
kiln_bind_group kiln_resources_create_bind_group(kiln_resources *res, const char *label, kiln_bind_group_layout layout,
                                           const kiln_binding_resource *entries, uint32_t count, kiln_error *err);

/* A bind group cache: groups keyed by their layout and entries (binding numbers, the bound
 * handles with their generations, offsets and sizes), for a caller that binds the same few sets
 * over and over (a pass's inputs, the renderer's pooled HDR view). A hit returns the group made
 * before and allocates and creates nothing; a miss creates one. It holds at most `capacity`
 * groups: a miss in a full cache destroys the least recently returned group to make room. Its
 * slots are allocated as misses need them, doubling up to `capacity`, so a cache that sees one
 * set costs one slot; a miss allocates only while fewer than `capacity` slots exist.
 * A destroyed handle whose slot was reused has a new generation, so it misses; the group made
 * for the old one is released when it is evicted, at _clear or at _destroy. At most
 * KILN_BIND_GROUP_CACHE_MAX_ENTRIES entries per group. */
#define KILN_BIND_GROUP_CACHE_MAX_ENTRIES 16

/* The bind group cache (opaque); see the comment above KILN_BIND_GROUP_CACHE_MAX_ENTRIES. */
typedef struct kiln_bind_group_cache kiln_bind_group_cache;

/* A cache of up to `capacity` (at least 1) groups created in res; NULL with err filled on failure. */
kiln_bind_group_cache *kiln_bind_group_cache_create(kiln_resources *res, uint32_t capacity, kiln_error *err);
/* Destroys every cached group, then the cache. NULL is ignored. */
void kiln_bind_group_cache_destroy(kiln_bind_group_cache *cache);
/* The group for (layout, entries): the cached one, else a new one named `label`. Returns id 0,
 * with err filled, when the group cannot be created or has too many entries. */
kiln_bind_group kiln_bind_group_cache_get(kiln_bind_group_cache *cache, const char *label,
                                          kiln_bind_group_layout layout, const kiln_binding_resource *entries,
                                          uint32_t count, kiln_error *err);
/* Destroys every cached group; the cache stays usable. */
void kiln_bind_group_cache_clear(kiln_bind_group_cache *cache);
/* Groups held now. */
uint32_t kiln_bind_group_cache_count(const kiln_bind_group_cache *cache);

#define KILN_MAX_VERTEX_ATTRIBUTES 8 /* attributes per vertex buffer layout */
#define KILN_MAX_VERTEX_BUFFERS 4 /* vertex buffers per render pipeline */
#define KILN_MAX_COLOR_ATTACHMENTS 4 /* colour targets per render pipeline */

/* One vertex attribute of a vertex buffer. */
typedef struct kiln_vertex_attribute {
    WGPUVertexFormat format;          /* the attribute's format */
    uint32_t offset;                  /* bytes from the start of the vertex */
    uint32_t location;                /* the WGSL @location number */
} kiln_vertex_attribute;

/* The layout of one vertex buffer. */
typedef struct kiln_vertex_layout {
    uint32_t stride;                  /* bytes between consecutive elements */
    bool per_instance;                /* step per instance (else per vertex) */
    uint32_t attribute_count;         /* attributes used, at most KILN_MAX_VERTEX_ATTRIBUTES */
    kiln_vertex_attribute attributes[KILN_MAX_VERTEX_ATTRIBUTES]; /* the first attribute_count are used */
} kiln_vertex_layout;

/* How a colour target blends the fragment into what it holds. */
typedef enum kiln_blend_mode {
    KILN_BLEND_OPAQUE,          /* no blending: the source replaces the target */
    KILN_BLEND_ALPHA,           /* straight alpha over: src*a + dst*(1-a) */
    KILN_BLEND_PREMULTIPLIED,   /* src + dst*(1-a) */
    KILN_BLEND_ADDITIVE,        /* src + dst */
} kiln_blend_mode;

/* One colour target of a render pipeline. */
typedef struct kiln_color_target {
    WGPUTextureFormat format;         /* the attachment's format */
    kiln_blend_mode blend;            /* blending */
    WGPUColorWriteMask write_mask;    /* 0 means All */
} kiln_color_target;

/* The depth test of a render pipeline (see kiln_depth_reverse_z). */
typedef struct kiln_depth_state {
    WGPUTextureFormat format;         /* Undefined: no depth attachment */
    bool write;                       /* depth writes on */
    WGPUCompareFunction compare;      /* the depth test */
    int32_t bias;                     /* constant depth bias, in depth units */
    float bias_slope_scale;           /* depth bias per unit of depth slope */
    float bias_clamp;                 /* largest bias applied; 0: unclamped */
} kiln_depth_state;

/* Reverse-Z: nearer is larger, so the test is GreaterEqual and depth clears to 0. */
kiln_depth_state kiln_depth_reverse_z(WGPUTextureFormat format, bool write);
/* Shadow-map variant with a depth bias (positive bias pushes towards the light in reverse-Z). */
kiln_depth_state kiln_depth_reverse_z_biased(WGPUTextureFormat format, int32_t bias, float slope_scale, float clamp);

/* What kiln_resources_create_render_pipeline makes. */
typedef struct kiln_render_pipeline_desc {
    const char *label;                /* names the pipeline in errors and Dawn messages */
    kiln_pipeline_layout layout;      /* its bind group layouts */
    kiln_shader shader;               /* the module with the vertex stage (and the fragment stage, see below) */
    kiln_shader fragment_shader;      /* id 0: the fragment stage comes from `shader` too */
    const char *vertex_entry;         /* NULL: "vs_main" */
    const char *fragment_entry;       /* NULL: "fs_main"; ignored when target_count is 0 and no_fragment */
    bool no_fragment;                 /* depth-only pipelines */
    uint32_t vertex_buffer_count;     /* vertex buffers used, at most KILN_MAX_VERTEX_BUFFERS */
    kiln_vertex_layout vertex_buffers[KILN_MAX_VERTEX_BUFFERS]; /* the layout of each, by slot */
    uint32_t target_count;            /* colour targets, at most KILN_MAX_COLOR_ATTACHMENTS */
    kiln_color_target targets[KILN_MAX_COLOR_ATTACHMENTS]; /* the first target_count are used */
    kiln_depth_state depth;           /* depth test; format Undefined: none */
    WGPUPrimitiveTopology topology;   /* Undefined: TriangleList */
    WGPUCullMode cull;                /* Undefined: None */
    WGPUFrontFace front_face;         /* Undefined: CCW */
    uint32_t sample_count;            /* 0 means 1 */
} kiln_render_pipeline_desc;

/* What kiln_resources_create_compute_pipeline makes. */
typedef struct kiln_compute_pipeline_desc {
    const char *label;                /* names the pipeline in errors and Dawn messages */
    kiln_pipeline_layout layout;      /* its bind group layouts */
    kiln_shader shader;               /* the module with the entry point */
    const char *entry;                /* NULL: "cs_main" */
} kiln_compute_pipeline_desc;

/* Build the raw object (for hot reload); fail with "pipeline '<label>' is invalid: <message>"
 * when Dawn rejects it. create_* build and adopt. */
WGPURenderPipeline kiln_resources_build_render_pipeline(kiln_resources *res, const kiln_render_pipeline_desc *desc,
                                                  kiln_error *err);
/* The compute form of kiln_resources_build_render_pipeline. */
WGPUComputePipeline kiln_resources_build_compute_pipeline(kiln_resources *res, const kiln_compute_pipeline_desc *desc,
                                                    kiln_error *err);
/* Builds a render pipeline and adopts it; id 0 with err filled on failure. */
kiln_render_pipeline kiln_resources_create_render_pipeline(kiln_resources *res, const kiln_render_pipeline_desc *desc,
                                                     kiln_error *err);
/* Builds a compute pipeline and adopts it; id 0 with err filled on failure. */
kiln_compute_pipeline kiln_resources_create_compute_pipeline(kiln_resources *res, const kiln_compute_pipeline_desc *desc,
                                                       kiln_error *err);

/* The object cache: bind group layouts, pipeline layouts and render pipelines shared by the full
 * content of their descriptors, each held once with a reference count, for a caller that makes
 * many identical ones (a program of thousands of passes, many programs with the same shapes).
 * Every get returns the held object for an identical descriptor with one more reference, or
 * creates it; every release drops one, and the object is destroyed when the last one goes.
 * Labels are not part of the key (the first creator's label names the object), and handles in
 * a descriptor count by id: a layout made by the cache is one id for one content, so pipeline
 * layouts over cached group layouts share too. A shader replaced behind its handle
 * (kiln_resources_replace_shader) is not seen: pipelines of a module that hot reloads do not
 * belong here. */
typedef struct kiln_object_cache kiln_object_cache;

/* Objects an object cache holds now, per kind. */
typedef struct kiln_object_cache_stats {
    uint32_t bind_group_layouts;      /* distinct bind group layouts held */
    uint32_t pipeline_layouts;        /* distinct pipeline layouts held */
    uint32_t render_pipelines;        /* distinct render pipelines held */
} kiln_object_cache_stats;

/* An empty cache creating in res (which must outlive it); NULL with err filled on failure. */
kiln_object_cache *kiln_object_cache_create(kiln_resources *res, kiln_error *err);
/* Destroys what the cache still holds (whatever its references), then the cache; NULL is ignored. */
void kiln_object_cache_destroy(kiln_object_cache *cache);
/* The layout of these entries, shared; id 0 with err filled when it cannot be created. */
kiln_bind_group_layout kiln_object_cache_bind_group_layout(kiln_object_cache *cache, const char *label,
                                                           const kiln_layout_entry *entries, uint32_t count,
                                                           kiln_error *err);
/* The pipeline layout of these group layouts, shared; id 0 with err filled on failure. */
kiln_pipeline_layout kiln_object_cache_pipeline_layout(kiln_object_cache *cache, const char *label,
                                                       const kiln_bind_group_layout *layouts, uint32_t count,
                                                       kiln_error *err);
/* The render pipeline of this descriptor, shared; id 0 with err filled (as
 * kiln_resources_create_render_pipeline fills it) on failure. */
kiln_render_pipeline kiln_object_cache_render_pipeline(kiln_object_cache *cache, const kiln_render_pipeline_desc *desc,
                                                       kiln_error *err);
/* Drop one reference each; an id the cache does not hold, or id 0, is ignored. */
void kiln_object_cache_release_bind_group_layout(kiln_object_cache *cache, kiln_bind_group_layout layout);
void kiln_object_cache_release_pipeline_layout(kiln_object_cache *cache, kiln_pipeline_layout layout);
void kiln_object_cache_release_render_pipeline(kiln_object_cache *cache, kiln_render_pipeline pipeline);
/* What it holds now. */
kiln_object_cache_stats kiln_object_cache_counts(const kiln_object_cache *cache);

/* ---------------------------------------------------------------------------------------------
 * Commands: encoder, render and compute passes, copies, readback
 * ------------------------------------------------------------------------------------------- */

/* Work that must wait for an encoder's submit, such as starting a readback's map: run once, with
 * submitted true right after the submit, or false when the encoder is discarded or fails to
 * finish (nothing of it reached the queue). */
typedef struct kiln_encoder_hook {
    void (*fn)(void *ctx, uint32_t arg, bool submitted); /* called once with ctx and arg */
    void *ctx;                        /* passed to fn */
    uint32_t arg;                     /* passed to fn */
} kiln_encoder_hook;

#define KILN_ENCODER_MAX_HOOKS 8 /* hooks one encoder can carry */

/* One command encoder (a stack value): kiln_encoder_begin, passes and copies, then _finish_and_submit or _discard. Fields are internal. */
typedef struct kiln_encoder {
    kiln_resources *res;              /* resolves the handles recorded */
    WGPUCommandEncoder raw;           /* the Dawn encoder; NULL once submitted or discarded */
    bool pass_open;                   /* a pass is being recorded */
    uint32_t hook_count;              /* hooks registered */
    kiln_encoder_hook hooks[KILN_ENCODER_MAX_HOOKS]; /* run at submit or discard */
} kiln_encoder;

/* One colour attachment of a render pass (see kiln_color_cleared / _loaded). */
typedef struct kiln_color_attachment {
    WGPUTextureView view;             /* the view rendered into */
    WGPUTextureView resolve_target;   /* MSAA resolve, or NULL */
    bool keep_samples;                /* with a resolve target: store the samples too (a later pass loads them) */
    WGPULoadOp load;                  /* Clear or Load */
    WGPUColor clear;                  /* clear colour, when load is Clear */
    bool discard;                     /* no later pass needs the contents: store nothing */
} kiln_color_attachment;

/* A colour attachment cleared to (r, g, b, a) and stored. */
kiln_color_attachment kiln_color_cleared(WGPUTextureView view, double r, double g, double b, double a);
/* kiln_color_cleared that also resolves the multisampled view into resolve. */
kiln_color_attachment kiln_color_cleared_resolving(WGPUTextureView view, WGPUTextureView resolve, double r,
                                                   double g, double b, double a);
/* A colour attachment that keeps (loads) the view's contents. */
kiln_color_attachment kiln_color_loaded(WGPUTextureView view);

/* The depth attachment of a render pass (see kiln_depth_cleared_reverse_z / _loaded). */
typedef struct kiln_depth_attachment {
    WGPUTextureView view;             /* the depth view */
    WGPULoadOp load;                  /* Clear or Load; Undefined: Clear */
    float clear;                      /* clear depth, when load is Clear */
    bool read_only;                   /* depth is tested but neither loaded, cleared nor stored */
    bool discard;                     /* no later pass needs the depth: store nothing */
} kiln_depth_attachment;

/* Clears to 0, the far plane of reverse-Z. */
kiln_depth_attachment kiln_depth_cleared_reverse_z(WGPUTextureView view);
/* A depth attachment that keeps (loads) the view's contents. */
kiln_depth_attachment kiln_depth_loaded(WGPUTextureView view);

/* Errors on a pass are sticky (as in sokol_gfx): the first command that fails sets `failed` and
 * keeps its reason in `error`; every later command on the pass does nothing and fails with that
 * same reason, so recording code need not test each call, and whoever ends the pass (the frame
 * graph) reports the first failure once. */
typedef struct kiln_render_pass {
    kiln_encoder *encoder;            /* the encoder the pass records into */
    WGPURenderPassEncoder raw;        /* the Dawn pass; NULL once ended */
    bool failed;                      /* a command on the pass failed */
    kiln_error error;                 /* the first failure, when failed */
} kiln_render_pass;

/* A compute pass, with the same sticky errors as kiln_render_pass. */
typedef struct kiln_compute_pass {
    kiln_encoder *encoder;            /* the encoder the pass records into */
    WGPUComputePassEncoder raw;       /* the Dawn pass; NULL once ended */
    bool failed;                      /* a command on the pass failed */
    kiln_error error;                 /* the first failure, when failed */
} kiln_compute_pass;

/* The label names the command buffer in Dawn's validation messages. */
bool kiln_encoder_begin(kiln_encoder *enc, kiln_resources *res, const char *label, kiln_error *err);
/* Begins a render pass into out with color_count colour attachments and an optional depth one; fails while another pass is open. */
bool kiln_encoder_begin_render_pass(kiln_encoder *enc, const char *label, const kiln_color_attachment *colors,
                                    uint32_t color_count, const kiln_depth_attachment *depth, kiln_render_pass *out,
                                    kiln_error *err);
/* Begins a compute pass into out; fails while another pass is open. */
bool kiln_encoder_begin_compute_pass(kiln_encoder *enc, const char *label, kiln_compute_pass *out, kiln_error *err);

/* Timestamp writes for one render or compute pass: the GPU's time at its beginning and at its end, into
 * queries of a Timestamp query set (kiln_timestamps_query_set). An index of
 * WGPU_QUERY_SET_INDEX_UNDEFINED writes nothing at that end. */
typedef struct kiln_pass_timestamps {
    WGPUQuerySet query_set;           /* the Timestamp query set written */
    /*@{*/
    uint32_t begin_index, end_index;  /* queries written at the pass's beginning and end */
    /*@}*/
} kiln_pass_timestamps;

/* begin_render_pass with timestamp writes; ts NULL writes none (what begin_render_pass does).
 * Fails, recording nothing, when the device lacks timestamp queries, the set is NULL, an index is
 * past the set's count, both indices are undefined or both name the same query. */
bool kiln_encoder_begin_render_pass_timed(kiln_encoder *enc, const char *label, const kiln_color_attachment *colors,
                                          uint32_t color_count, const kiln_depth_attachment *depth,
                                          const kiln_pass_timestamps *ts, kiln_render_pass *out, kiln_error *err);

/* begin_compute_pass with timestamp writes; ts NULL writes none. Fails, recording nothing, for
 * the same reasons as begin_render_pass_timed. */
bool kiln_encoder_begin_compute_pass_timed(kiln_encoder *enc, const char *label, const kiln_pass_timestamps *ts,
                                           kiln_compute_pass *out, kiln_error *err);

/* Registers a hook (see kiln_encoder_hook); fails when the encoder was submitted or already
 * carries KILN_ENCODER_MAX_HOOKS. */
bool kiln_encoder_add_hook(kiln_encoder *enc, kiln_encoder_hook hook, kiln_error *err);

/* Ends and releases the pass; safe to call twice. */
void kiln_render_pass_end(kiln_render_pass *pass);
/* Makes `why` the pass's sticky failure (when it has none yet), for a recording step outside gfx
 * that cannot go on: every later command on the pass is skipped. */
void kiln_render_pass_fail(kiln_render_pass *pass, const kiln_error *why);
bool kiln_render_pass_set_pipeline(kiln_render_pass *pass, kiln_render_pipeline p, kiln_error *err);
/* Binds group g at index, with one dynamic offset per dynamic-offset entry. */
bool kiln_render_pass_set_bind_group(kiln_render_pass *pass, uint32_t index, kiln_bind_group g,
                                     const uint32_t *dynamic_offsets, uint32_t dynamic_count, kiln_error *err);
/* Fail when offset is past the end of the buffer. */
bool kiln_render_pass_set_vertex_buffer(kiln_render_pass *pass, uint32_t slot, kiln_buffer b, uint64_t offset,
                                        kiln_error *err);
/* Binds the index buffer (Uint16 or Uint32) from offset; fails when offset is past its end. */
bool kiln_render_pass_set_index_buffer(kiln_render_pass *pass, kiln_buffer b, WGPUIndexFormat format,
                                       uint64_t offset, kiln_error *err);
/* The viewport in framebuffer pixels, depth range [0, 1]. */
void kiln_render_pass_set_viewport(kiln_render_pass *pass, float x, float y, float w, float h);
/* The scissor rectangle in framebuffer pixels. */
void kiln_render_pass_set_scissor(kiln_render_pass *pass, uint32_t x, uint32_t y, uint32_t w, uint32_t h);
/* Draws vertex_count vertices of instance_count instances. */
void kiln_render_pass_draw(kiln_render_pass *pass, uint32_t vertex_count, uint32_t instance_count,
                           uint32_t first_vertex, uint32_t first_instance);
/* Draws index_count indices of instance_count instances; base_vertex is added to each index. */
void kiln_render_pass_draw_indexed(kiln_render_pass *pass, uint32_t index_count, uint32_t instance_count,
                                   uint32_t first_index, int32_t base_vertex, uint32_t first_instance);
/* Draws indexed with the five u32 arguments (index count, instance count, first index, base
 * vertex, first instance) the GPU finds at `offset` in `args` (an Indirect buffer): fails, sticking,
 * when the offset is not a multiple of 4 or the arguments pass the buffer's end. */
bool kiln_render_pass_draw_indexed_indirect(kiln_render_pass *pass, kiln_buffer args, uint64_t offset, kiln_error *err);

/* Ends and releases the pass; safe to call twice. */
void kiln_compute_pass_end(kiln_compute_pass *pass);
/* Sets the pipeline for the following dispatches. */
bool kiln_compute_pass_set_pipeline(kiln_compute_pass *pass, kiln_compute_pipeline p, kiln_error *err);
/* Binds group g at index, with one dynamic offset per dynamic-offset entry. */
bool kiln_compute_pass_set_bind_group(kiln_compute_pass *pass, uint32_t index, kiln_bind_group g,
                                      const uint32_t *dynamic_offsets, uint32_t dynamic_count, kiln_error *err);
/* Dispatches x * y * z workgroups. */
void kiln_compute_pass_dispatch(kiln_compute_pass *pass, uint32_t x, uint32_t y, uint32_t z);

/* Copies size bytes from src at src_offset to dst at dst_offset; fails when a range leaves its buffer. */
bool kiln_encoder_copy_buffer_to_buffer(kiln_encoder *enc, kiln_buffer src, uint64_t src_offset, kiln_buffer dst,
                                        uint64_t dst_offset, uint64_t size, kiln_error *err);
/* Copies a width x height region of mip `mip` into `dst` at offset 0. bytes_per_row must be a
 * multiple of 256 (checked here, before anything is recorded) and dst large enough. Takes the
 * raw texture so swapchain textures can be read back too. */
bool kiln_encoder_copy_texture_to_buffer(kiln_encoder *enc, WGPUTexture src, uint32_t mip, kiln_buffer dst,
                                         uint32_t bytes_per_row, uint32_t width, uint32_t height, kiln_error *err);
/* Finishes the encoder, submits it and runs its hooks. Fails, changing nothing, while a pass is open
 * or after a submit or discard; once finishing starts the encoder is consumed, even if it fails. */
bool kiln_encoder_finish_and_submit(kiln_encoder *enc, kiln_error *err);
/* Drops the encoder and everything recorded on it. */
void kiln_encoder_discard(kiln_encoder *enc);

/* For tests, tools and shutdown, never the frame loop: block on the GPU. */
bool kiln_gfx_wait_for_queue(kiln_gfx *gfx, kiln_error *err);
/* Maps a MapRead buffer and copies size bytes from offset into dst. */
bool kiln_resources_read_buffer(kiln_resources *res, kiln_buffer b, uint64_t offset, void *dst, size_t size,
                          kiln_error *err);
/* Reads mip 0 of a 2D texture (RGBA8/BGRA8 unorm or srgb, RGBA16Float, RGBA32Float, R8, R32Float)
 * into a new image: 8-bit formats as RGBA8 (BGRA swapped), RGBA16Float as RGBA16F, 32-bit float as
 * RGBA32F (single-channel formats fill R, with G=B=0 and A=1). Submits and waits. */
bool kiln_resources_read_texture(kiln_resources *res, WGPUTexture texture, kiln_image *out, kiln_error *err);
/* As kiln_resources_read_texture, for one mip level and one array layer (a cube face) of it. */
bool kiln_resources_read_texture_level(kiln_resources *res, WGPUTexture texture, uint32_t mip, uint32_t layer,
                                       kiln_image *out, kiln_error *err);
/* Mip 0, layer 0 of a 2D texture as its texels, unconverted: tightly packed rows, top row first,
 * into dst, which must be exactly width * height * texel size bytes (the formats above and
 * R32Uint). Submits and waits. */
bool kiln_resources_read_texels(kiln_resources *res, WGPUTexture texture, void *dst, size_t dst_size, kiln_error *err);

/* ---------------------------------------------------------------------------------------------
 * Timestamps: GPU times of render and compute passes, read back without stalling the frame
 *
 * A kiln_timestamps owns a Timestamp query set of `capacity` queries, a resolve buffer and
 * KILN_TIMESTAMP_READBACKS mappable buffers used in rotation. Per encoder: passes write queries
 * (kiln_encoder_begin_render_pass_timed, _begin_compute_pass_timed), kiln_timestamps_resolve
 * records the resolve of queries [0, count) and their copy into a free readback buffer, tagged
 * with the caller's token. When the encoder is submitted the buffer's map starts (discarding the
 * encoder frees it again); the map completes inside a later kiln_gfx_pump, and
 * kiln_timestamps_poll hands the values out, oldest first. Nothing waits: a frame that finds
 * every readback buffer in flight simply goes unmeasured.
 * Values are nanoseconds on the GPU's clock (Dawn may quantize them); only differences mean
 * anything.
 * ------------------------------------------------------------------------------------------- */

#define KILN_TIMESTAMP_READBACKS 4
#define KILN_TIMESTAMP_MAX_QUERIES 4096    /* WebGPU's limit on one query set */

/* A pass timer (opaque); see the comment at the top of this section. */
typedef struct kiln_timestamps kiln_timestamps;

/* Fails when the device lacks timestamp queries (check gfx->features.timestamp_query first) or
 * capacity is 0 or above KILN_TIMESTAMP_MAX_QUERIES. */
kiln_timestamps *kiln_timestamps_create(kiln_resources *res, uint32_t capacity, kiln_error *err);
/* Releases the GPU objects at once and waits for nothing: a readback still in flight or resolved
 * into an encoder not yet submitted is dropped when it completes. NULL is fine. */
void kiln_timestamps_destroy(kiln_timestamps *ts);
WGPUQuerySet kiln_timestamps_query_set(const kiln_timestamps *ts);
uint32_t kiln_timestamps_capacity(const kiln_timestamps *ts);
/* The writes for one pass of this object's set. */
kiln_pass_timestamps kiln_timestamps_pass(const kiln_timestamps *ts, uint32_t begin_index, uint32_t end_index);
/* Records the resolve of queries [0, count) and the copy into the next free readback buffer.
 * Fails, recording nothing, when count is 0 or past the capacity, a pass is open, every readback
 * buffer is in flight, or the encoder already carries KILN_ENCODER_MAX_HOOKS hooks. Every
 * query in the range should have been written earlier in the same encoder (an unwritten one reads
 * 0). The encoder's submit starts the readback's map, its discard frees the buffer again. */
bool kiln_timestamps_resolve(kiln_timestamps *ts, kiln_encoder *enc, uint32_t count, uint64_t token, kiln_error *err);
/* Copies up to max values of the oldest completed readback into values, sets *token to the token
 * it was resolved with, frees its buffer for reuse and returns the number of values resolved (0
 * when none has completed; values past max are dropped). */
uint32_t kiln_timestamps_poll(kiln_timestamps *ts, uint64_t *values, uint32_t max, uint64_t *token);
/* Readback buffers in use: resolved and not yet submitted, mapping, or completed and unpolled. */
uint32_t kiln_timestamps_in_flight(const kiln_timestamps *ts);

/* ---------------------------------------------------------------------------------------------
 * Buffer readbacks: a small region of a GPU buffer read back a frame or more later, never waiting
 *
 * A kiln_buffer_readbacks owns KILN_BUFFER_READBACKS mappable buffers of `size` bytes used in
 * rotation, as kiln_timestamps does for its queries: kiln_buffer_readbacks_copy records the copy
 * of `size` bytes from a buffer (CopySrc) into a free one, tagged with the caller's token; the
 * encoder's submit starts its map (a discard frees it again); the map completes inside a later
 * kiln_gfx_pump, and kiln_buffer_readbacks_poll hands out the newest completed copy. Nothing
 * waits: a copy that finds every buffer in flight is refused and the caller skips that frame.
 * ------------------------------------------------------------------------------------------- */

#define KILN_BUFFER_READBACKS 4
#define KILN_BUFFER_READBACK_MAX_SIZE 256 /* bytes: for counters and headers, not for images */

/* The readback ring (opaque); see the comment at the top of this section. */
typedef struct kiln_buffer_readbacks kiln_buffer_readbacks;

/* Fails when size is 0, not a multiple of 4 or above KILN_BUFFER_READBACK_MAX_SIZE. */
kiln_buffer_readbacks *kiln_buffer_readbacks_create(kiln_resources *res, uint32_t size, kiln_error *err);
/* Releases the buffers at once and waits for nothing: a copy in flight is dropped when it
 * completes. NULL is fine. */
void kiln_buffer_readbacks_destroy(kiln_buffer_readbacks *rb);
/* Records the copy of `size` bytes of src from offset into the next free buffer. Fails, recording
 * nothing, when a pass is open, the encoder is finished, src is not a live buffer, every buffer is
 * in flight, or the encoder already carries KILN_ENCODER_MAX_HOOKS hooks. */
bool kiln_buffer_readbacks_copy(kiln_buffer_readbacks *rb, kiln_encoder *enc, kiln_buffer src, uint64_t offset,
                                uint64_t token, kiln_error *err);
/* Copies the newest completed copy (`size` bytes) into dst, sets *token to its token, and frees it
 * and every older completed one; false when none has completed. */
bool kiln_buffer_readbacks_poll(kiln_buffer_readbacks *rb, void *dst, uint64_t *token);
/* Buffers in use: recorded and not yet submitted, mapping, or completed and unpolled. */
uint32_t kiln_buffer_readbacks_in_flight(const kiln_buffer_readbacks *rb);

/* Bytes one texel of `format` takes in a copy; 0 for formats readback does not handle. */
uint32_t kiln_gfx_format_texel_size(WGPUTextureFormat format);
/* RGBA8UnormSrgb or BGRA8UnormSrgb: the hardware decodes sRGB when sampling and encodes when
 * writing. The one test of sRGB-ness for every layer (an Rgba8Srgb registry texture included). */
bool kiln_gfx_format_is_srgb(WGPUTextureFormat format);
/* RGBA8Unorm or BGRA8Unorm: 8-bit colour stored as written, so a shader that wants sRGB output
 * encodes it itself. */
bool kiln_gfx_format_is_unorm8(WGPUTextureFormat format);
/* BGRA8Unorm or BGRA8UnormSrgb: bytes in B, G, R, A order. */
bool kiln_gfx_format_is_bgra(WGPUTextureFormat format);
/* Rounds up to the 256-byte copy row alignment. */
uint32_t kiln_gfx_aligned_bytes_per_row(uint32_t bytes);

/* ---------------------------------------------------------------------------------------------
 * Swapchain: the window surface
 * ------------------------------------------------------------------------------------------- */

/* A configured window surface (kiln_swapchain_init); fields are read-only for the application. */
typedef struct kiln_swapchain {
    kiln_gfx *gfx;                    /* the device whose surface it configures */
    WGPUTextureFormat format;         /* the surface format chosen */
    WGPUTextureUsage usage;           /* usages of the surface textures */
    /*@{*/
    uint32_t width, height;           /* configured size */
    /*@}*/
    /*@{*/
    uint32_t pending_width, pending_height; /* size requested by kiln_swapchain_resize, applied at the next acquire */
    /*@}*/
    WGPUPresentMode present_mode;     /* configured presentation: Fifo unless kiln_swapchain_set_vsync(false) */
    WGPUPresentMode pending_present_mode; /* requested, applied at the next acquire */
    uint32_t present_modes;           /* what the surface offers: bit m set for WGPUPresentMode m */
    bool configured;                  /* the surface is configured */
    uint32_t reconfigures;            /* configurations after the first */
    uint32_t frames_skipped;          /* acquires refused for a zero-area window */
} kiln_swapchain;

/* An acquired surface texture: present or discard it. */
typedef struct kiln_surface_frame {
    WGPUTexture texture;              /* the surface texture */
    WGPUTextureView view;             /* its view, to render into */
    /*@{*/
    uint32_t width, height;           /* its size in pixels */
    /*@}*/
} kiln_surface_frame;

/* Picks an 8-bit BGRA/RGBA format (sRGB first when prefer_srgb), requires RenderAttachment
 * (and CopySrc when readback) and configures Fifo presentation (kiln_swapchain_set_vsync changes it). */
bool kiln_swapchain_init(kiln_swapchain *sc, kiln_gfx *gfx, uint32_t width, uint32_t height, bool prefer_srgb,
                         bool readback, kiln_error *err);
/* Unconfigures the surface; the surface itself belongs to the kiln_gfx. */
void kiln_swapchain_deinit(kiln_swapchain *sc);
/* Records the new size; the surface is reconfigured at the next acquire. */
void kiln_swapchain_resize(kiln_swapchain *sc, uint32_t width, uint32_t height);
/* Vertical sync on (Fifo, the default) or off: Mailbox where the surface offers it, else
 * Immediate. Applied, like a resize, at the next acquire. False, Fifo kept, when vsync is off and
 * the surface offers neither. */
bool kiln_swapchain_set_vsync(kiln_swapchain *sc, bool vsync);
/* Returns false with *skipped = true for a zero-area window (counted), false with an error when
 * the surface fails twice (Outdated, Lost or Timeout trigger one reconfigure and retry). */
bool kiln_swapchain_acquire(kiln_swapchain *sc, kiln_surface_frame *frame, bool *skipped, kiln_error *err);
void kiln_swapchain_present(kiln_swapchain *sc, kiln_surface_frame *frame);
void kiln_swapchain_discard(kiln_swapchain *sc, kiln_surface_frame *frame);

/* ---------------------------------------------------------------------------------------------
 * Debug lines
 * ------------------------------------------------------------------------------------------- */

/* An 8-bit RGBA colour for debug lines (a is opacity). */
typedef struct kiln_color8 { /**@{*/ uint8_t r, g, b, a; /* channels, 0..255 */ /**@}*/ } kiln_color8;

/* A debug line list (opaque): add lines each frame, then upload and flush. */
typedef struct kiln_debug_draw kiln_debug_draw;

/* depth_format Undefined: lines draw on top; otherwise they depth-test reverse-Z without writing. */
kiln_debug_draw *kiln_debug_draw_create(kiln_resources *res, WGPUTextureFormat color_format,
                                        WGPUTextureFormat depth_format, kiln_error *err);
/* Releases the pipeline, buffers and the list; NULL is ignored. */
void kiln_debug_draw_destroy(kiln_debug_draw *dd);
/* Adds a line from a to b (world space). */
void kiln_debug_draw_line(kiln_debug_draw *dd, kiln_vec3 a, kiln_vec3 b, kiln_color8 color);
/* Adds the twelve edges of the axis-aligned box [min, max]. */
void kiln_debug_draw_aabb(kiln_debug_draw *dd, kiln_vec3 min, kiln_vec3 max, kiln_color8 color);
/* Adds three great circles, one per axis plane, of `segments` lines each (at least 3). */
void kiln_debug_draw_sphere(kiln_debug_draw *dd, kiln_vec3 center, float radius, kiln_color8 color, uint32_t segments);
/* Adds the axes from origin: +X red, +Y green, +Z blue, each `length` long. */
void kiln_debug_draw_axes(kiln_debug_draw *dd, kiln_vec3 origin, float length);
/* A grid on the XZ plane: `half_cells` cells each side of the origin, `spacing` metres apart. */
void kiln_debug_draw_grid(kiln_debug_draw *dd, uint32_t half_cells, float spacing, kiln_color8 color);
/* Before the render pass: writes the camera and the vertices, growing the GPU buffer by doubling
 * when needed. */
bool kiln_debug_draw_upload(kiln_debug_draw *dd, kiln_mat4 view_proj, kiln_error *err);
/* Inside an open pass: draws what was uploaded and clears the CPU list for the next frame. */
bool kiln_debug_draw_flush(kiln_debug_draw *dd, kiln_render_pass *pass, kiln_error *err);
uint32_t kiln_debug_draw_vertex_count(const kiln_debug_draw *dd);
uint32_t kiln_debug_draw_grows(const kiln_debug_draw *dd);

#ifdef __cplusplus
}
#endif

#endif
