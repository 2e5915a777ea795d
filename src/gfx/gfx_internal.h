/* Internal to src/gfx: the event queue Dawn's callbacks write into, string-view helpers, and the
 * pool entry layouts shared by resources.c, pipeline.c and commands.c. */
#ifndef KILN_GFX_INTERNAL_H
#define KILN_GFX_INTERNAL_H

#include <pthread.h>

#include <kiln/gfx.h>

/* Dawn may call the uncaptured-error, logging and device-lost callbacks from inside any API call
 * (and device loss from its own threads), so they only append to this ring under a mutex;
 * kiln_gfx_pump turns the entries into gfx state on the main thread. A full ring keeps counting
 * errors (`overflow_errors`) so error_count is never wrong, only messages are lost. */
typedef enum kiln_gfx_event_kind {
    KILN_EVENT_UNCAPTURED_ERROR,
    KILN_EVENT_DEVICE_LOST,
    KILN_EVENT_LOG,
} kiln_gfx_event_kind;

typedef struct kiln_gfx_event {
    kiln_gfx_event_kind kind;
    uint32_t code;                /* WGPUErrorType, WGPUDeviceLostReason or WGPULoggingType */
    char message[480];
} kiln_gfx_event;

#define KILN_GFX_EVENT_CAPACITY 256

struct kiln_gfx_events {
    pthread_mutex_t lock;
    kiln_gfx_event ring[KILN_GFX_EVENT_CAPACITY];
    uint32_t start, count;
    uint64_t overflow_errors;
    uint64_t overflow_other;
    bool shutting_down;           /* the device is being released: ignore its final lost callback */
};

/* kiln_gfx_defer_scope's states (gfx->deferred_scope). */
enum { KILN_SCOPE_NONE, KILN_SCOPE_ARMED, KILN_SCOPE_PUSHED };

void kiln_gfx_push_armed_scope(kiln_gfx *gfx);

/* Every function of gfx calls this before a Dawn call that can raise a device error (object
 * creation, queue writes and submits, an encoder's finish, buffer maps and unmaps, destroys,
 * pushing a scope, ticking the device), so an armed deferred scope is pushed before anything it
 * must catch can happen. Encoder and pass commands need not: Dawn raises their errors at the
 * encoder's finish. */
static inline void kiln_gfx_scope_due(kiln_gfx *gfx) {
    if (gfx->deferred_scope == KILN_SCOPE_ARMED) kiln_gfx_push_armed_scope(gfx);
}

/* A NUL-terminated string as a Dawn string view; NULL gives {NULL, WGPU_STRLEN}, Dawn's "null". */
static inline WGPUStringView kiln_sv(const char *s) {
    return (WGPUStringView){s, WGPU_STRLEN};
}

/* Copies a Dawn string view into a NUL-terminated buffer, truncating. */
void kiln_sv_copy(WGPUStringView v, char *out, size_t out_size);

/* Pool entries. */
typedef struct kiln_buffer_entry {
    WGPUBuffer raw;
    uint64_t size;
    WGPUBufferUsage usage;
} kiln_buffer_entry;

typedef struct kiln_texture_entry {
    WGPUTexture raw;
    kiln_texture_desc desc;       /* label pointer cleared: labels are not kept */
    uint32_t view_count;
} kiln_texture_entry;

typedef struct kiln_texture_view_entry {
    WGPUTextureView raw;
    kiln_texture texture;         /* id 0 for imported views */
    bool imported;
} kiln_texture_view_entry;

typedef struct kiln_object_entry { void *raw; } kiln_object_entry;

enum {
    KILN_POOL_BUFFER,
    KILN_POOL_TEXTURE,
    KILN_POOL_TEXTURE_VIEW,
    KILN_POOL_SAMPLER,
    KILN_POOL_SHADER,
    KILN_POOL_BIND_GROUP_LAYOUT,
    KILN_POOL_PIPELINE_LAYOUT,
    KILN_POOL_BIND_GROUP,
    KILN_POOL_RENDER_PIPELINE,
    KILN_POOL_COMPUTE_PIPELINE,
    KILN_POOL_COUNT
};

struct kiln_resources {
    kiln_gfx *gfx;
    kiln_pool pools[KILN_POOL_COUNT];
};

/* Looks up a handle in a pool, failing with "invalid <kind> handle" for stale ids. */
void *kiln_resources_lookup(const kiln_resources *res, int pool, uint32_t id, kiln_error *err);

/* Puts a raw object (sampler, shader, layout, bind group, pipeline) into its pool; on failure the
 * object is released, so ownership always passes. Returns the id or 0. */
uint32_t kiln_resources_adopt_object(kiln_resources *res, int pool, void *raw, const char *label, kiln_error *err);

#endif
