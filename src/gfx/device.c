/* kiln_gfx: instance, adapter, device and queue; the pull model for Dawn's callbacks. */
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gfx_internal.h"

void kiln_sv_copy(WGPUStringView v, char *out, size_t out_size) {
    if (!out_size) return;
    size_t n = 0;
    if (v.data) n = v.length == WGPU_STRLEN ? strlen(v.data) : v.length;
    if (n >= out_size) n = out_size - 1;
    if (n) memcpy(out, v.data, n);
    out[n] = '\0';
}

/* --- callbacks: append to the event ring, nothing else ---------------------------------------- */

static void push_event(kiln_gfx_events *ev, kiln_gfx_event_kind kind, uint32_t code, WGPUStringView message) {
    pthread_mutex_lock(&ev->lock);
    if (ev->count == KILN_GFX_EVENT_CAPACITY) {
        if (kind == KILN_EVENT_UNCAPTURED_ERROR) ev->overflow_errors++;
        else ev->overflow_other++;
    } else {
        kiln_gfx_event *e = &ev->ring[(ev->start + ev->count) % KILN_GFX_EVENT_CAPACITY];
        e->kind = kind;
        e->code = code;
        kiln_sv_copy(message, e->message, sizeof e->message);
        ev->count++;
    }
    pthread_mutex_unlock(&ev->lock);
}

static void on_uncaptured_error(WGPUDevice const *device, WGPUErrorType type, WGPUStringView message, void *ud1,
                                void *ud2) {
    (void)device, (void)ud2;
    push_event(ud1, KILN_EVENT_UNCAPTURED_ERROR, type, message);
}

static void on_device_lost(WGPUDevice const *device, WGPUDeviceLostReason reason, WGPUStringView message, void *ud1,
                           void *ud2) {
    (void)device, (void)ud2;
    kiln_gfx_events *ev = ud1;
    if (ev->shutting_down) return;
    push_event(ev, KILN_EVENT_DEVICE_LOST, reason, message);
}

static void on_log(WGPULoggingType type, WGPUStringView message, void *ud1, void *ud2) {
    (void)ud2;
    if (type < WGPULoggingType_Warning) return; /* verbose and info lines are noise for users */
    push_event(ud1, KILN_EVENT_LOG, type, message);
}

/* --- async requests, awaited with WaitAny ----------------------------------------------------- */

typedef struct adapter_request {
    WGPURequestAdapterStatus status;
    WGPUAdapter adapter;
    char message[512];
} adapter_request;

static void on_adapter(WGPURequestAdapterStatus status, WGPUAdapter adapter, WGPUStringView message, void *ud1,
                       void *ud2) {
    (void)ud2;
    adapter_request *r = ud1;
    r->status = status;
    r->adapter = adapter;
    kiln_sv_copy(message, r->message, sizeof r->message);
}

typedef struct device_request {
    WGPURequestDeviceStatus status;
    WGPUDevice device;
    char message[512];
} device_request;

static void on_device(WGPURequestDeviceStatus status, WGPUDevice device, WGPUStringView message, void *ud1,
                      void *ud2) {
    (void)ud2;
    device_request *r = ud1;
    r->status = status;
    r->device = device;
    kiln_sv_copy(message, r->message, sizeof r->message);
}

bool kiln_gfx_await(kiln_gfx *gfx, WGPUFuture future, uint64_t timeout_ns, const char *what, kiln_error *err) {
    WGPUFutureWaitInfo info = {.future = future, .completed = 0};
    WGPUWaitStatus status = wgpuInstanceWaitAny(gfx->instance, 1, &info, timeout_ns);
    if (status == WGPUWaitStatus_Success && info.completed) return true;
    if (status == WGPUWaitStatus_TimedOut)
        return kiln_error_set(err, KILN_ERR_TIMEOUT, "timed out after %.1f s waiting for %s",
                              (double)timeout_ns / 1e9, what);
    return kiln_error_set(err, KILN_ERR_GPU, "waiting for %s failed (wait status %d)", what, (int)status);
}

static uint64_t monotonic_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

bool kiln_gfx_await_gpu(kiln_gfx *gfx, WGPUFuture future, const char *what, kiln_error *err) {
    /* Short slices, so device loss and the observer are noticed while the work runs. */
    const uint64_t slice_ns = 100ull * 1000 * 1000, report_ns = (uint64_t)KILN_GFX_WAIT_REPORT_MS * 1000000ull;
    uint64_t start = monotonic_ns(), next_report = report_ns;
    for (;;) {
        WGPUFutureWaitInfo info = {.future = future, .completed = 0};
        WGPUWaitStatus status = wgpuInstanceWaitAny(gfx->instance, 1, &info, slice_ns);
        if (status == WGPUWaitStatus_Success && info.completed) return true;
        if (status != WGPUWaitStatus_TimedOut)
            return kiln_error_set(err, KILN_ERR_GPU, "waiting for %s failed (wait status %d)", what, (int)status);
        kiln_gfx_pump(gfx, false);
        if (gfx->lost) return kiln_error_set(err, KILN_ERR_DEVICE_LOST, "the device was lost while waiting for %s", what);
        uint64_t waited = monotonic_ns() - start;
        if (gfx->gpu_wait_timeout_ns && waited >= gfx->gpu_wait_timeout_ns)
            return kiln_error_set(err, KILN_ERR_TIMEOUT, "timed out after %.1f s waiting for %s (gpu_wait_timeout_ms)",
                                  (double)gfx->gpu_wait_timeout_ns / 1e9, what);
        if (waited >= next_report) {
            if (gfx->wait_observer) gfx->wait_observer(gfx->wait_observer_user, what, (double)waited / 1e9);
            next_report += report_ns;
        }
    }
}

const char *kiln_gfx_backend_name(WGPUBackendType backend) {
    switch (backend) {
    case WGPUBackendType_Null: return "null";
    case WGPUBackendType_WebGPU: return "webgpu";
    case WGPUBackendType_D3D11: return "d3d11";
    case WGPUBackendType_D3D12: return "d3d12";
    case WGPUBackendType_Metal: return "metal";
    case WGPUBackendType_Vulkan: return "vulkan";
    case WGPUBackendType_OpenGL: return "opengl";
    case WGPUBackendType_OpenGLES: return "opengles";
    default: return "undefined";
    }
}

/* --- creation ----------------------------------------------------------------------------------- */

typedef struct optional_feature {
    WGPUFeatureName name;
    size_t flag_offset;
} optional_feature;

static const optional_feature optional_features[] = {
    {WGPUFeatureName_TimestampQuery, offsetof(kiln_gfx_features, timestamp_query)},
    {WGPUFeatureName_Float32Filterable, offsetof(kiln_gfx_features, float32_filterable)},
    {WGPUFeatureName_Float32Blendable, offsetof(kiln_gfx_features, float32_blendable)},
    {WGPUFeatureName_TextureCompressionBC, offsetof(kiln_gfx_features, texture_compression_bc)},
    {WGPUFeatureName_ShaderF16, offsetof(kiln_gfx_features, shader_f16)},
    {WGPUFeatureName_IndirectFirstInstance, offsetof(kiln_gfx_features, indirect_first_instance)},
    {WGPUFeatureName_DepthClipControl, offsetof(kiln_gfx_features, depth_clip_control)},
    {WGPUFeatureName_RG11B10UfloatRenderable, offsetof(kiln_gfx_features, rg11b10_renderable)},
};
#define OPTIONAL_FEATURE_COUNT (sizeof optional_features / sizeof optional_features[0])

static bool create_surface(kiln_gfx *gfx, const kiln_gfx_desc *desc, kiln_error *err) {
    WGPUSurfaceSourceXlibWindow xlib = {
        .chain = {.next = NULL, .sType = WGPUSType_SurfaceSourceXlibWindow},
        .display = desc->x11_display,
        .window = desc->x11_window,
    };
    WGPUSurfaceDescriptor sd = {.nextInChain = &xlib.chain, .label = kiln_sv("kiln window surface")};
    gfx->surface = wgpuInstanceCreateSurface(gfx->instance, &sd);
    if (!gfx->surface) return kiln_error_set(err, KILN_ERR_GPU, "could not create a surface for X11 window 0x%llx",
                                             (unsigned long long)desc->x11_window);
    return true;
}

static bool request_adapter(kiln_gfx *gfx, const kiln_gfx_desc *desc, kiln_error *err) {
    WGPURequestAdapterOptions options = {
        .featureLevel = WGPUFeatureLevel_Core,
        .powerPreference = desc->low_power ? WGPUPowerPreference_LowPower : WGPUPowerPreference_HighPerformance,
        .backendType = WGPUBackendType_Vulkan,
        .compatibleSurface = gfx->surface,
    };
    adapter_request req = {0};
    WGPURequestAdapterCallbackInfo cb = {.mode = WGPUCallbackMode_WaitAnyOnly, .callback = on_adapter, .userdata1 = &req};
    WGPUFuture f = wgpuInstanceRequestAdapter(gfx->instance, &options, cb);
    if (!kiln_gfx_await(gfx, f, KILN_GFX_DEFAULT_TIMEOUT_NS, "the adapter", err)) return false;
    if (req.status != WGPURequestAdapterStatus_Success || !req.adapter)
        return kiln_error_set(err, KILN_ERR_GPU, "no WebGPU adapter (status %d): %s", (int)req.status,
                              req.message[0] ? req.message : "no Vulkan driver found; is mesa-vulkan-drivers >= 25 installed?");
    gfx->adapter = req.adapter;

    WGPUAdapterInfo info = {0};
    if (wgpuAdapterGetInfo(gfx->adapter, &info) == WGPUStatus_Success) {
        kiln_sv_copy(info.device, gfx->adapter_name, sizeof gfx->adapter_name);
        kiln_sv_copy(info.vendor, gfx->adapter_vendor, sizeof gfx->adapter_vendor);
        gfx->backend = info.backendType;
        gfx->adapter_type = info.adapterType;
        wgpuAdapterInfoFreeMembers(info);
    }
    return true;
}

static bool request_device(kiln_gfx *gfx, const kiln_gfx_desc *desc, kiln_error *err) {
    WGPUFeatureName wanted[OPTIONAL_FEATURE_COUNT];
    size_t wanted_count = 0;
    for (size_t i = 0; i < OPTIONAL_FEATURE_COUNT; i++) {
        if (wgpuAdapterHasFeature(gfx->adapter, optional_features[i].name)) {
            wanted[wanted_count++] = optional_features[i].name;
            *(bool *)((char *)&gfx->features + optional_features[i].flag_offset) = true;
        }
    }
    /* Ask for the adapter's own limits so large buffers and many bindings work where the
     * hardware allows. */
    WGPULimits adapter_limits = {0};
    bool have_limits = wgpuAdapterGetLimits(gfx->adapter, &adapter_limits) == WGPUStatus_Success;
    adapter_limits.nextInChain = NULL;

    WGPUDeviceDescriptor dd = {
        .label = kiln_sv(desc->label ? desc->label : "kiln device"),
        .requiredFeatureCount = wanted_count,
        .requiredFeatures = wanted,
        .requiredLimits = have_limits ? &adapter_limits : NULL,
        .defaultQueue = {.label = kiln_sv("kiln queue")},
        .deviceLostCallbackInfo = {.mode = WGPUCallbackMode_AllowSpontaneous, .callback = on_device_lost,
                                   .userdata1 = gfx->events},
        .uncapturedErrorCallbackInfo = {.callback = on_uncaptured_error, .userdata1 = gfx->events},
    };
    device_request req = {0};
    WGPURequestDeviceCallbackInfo cb = {.mode = WGPUCallbackMode_WaitAnyOnly, .callback = on_device, .userdata1 = &req};
    WGPUFuture f = wgpuAdapterRequestDevice(gfx->adapter, &dd, cb);
    if (!kiln_gfx_await(gfx, f, KILN_GFX_DEFAULT_TIMEOUT_NS, "the device", err)) return false;
    if (req.status != WGPURequestDeviceStatus_Success || !req.device)
        return kiln_error_set(err, KILN_ERR_GPU, "device request failed (status %d): %s", (int)req.status, req.message);
    gfx->device = req.device;
    gfx->queue = wgpuDeviceGetQueue(gfx->device);

    WGPULoggingCallbackInfo log_cb = {.callback = on_log, .userdata1 = gfx->events};
    wgpuDeviceSetLoggingCallback(gfx->device, log_cb);

    gfx->limits = (WGPULimits){0};
    wgpuDeviceGetLimits(gfx->device, &gfx->limits);
    gfx->limits.nextInChain = NULL;
    return true;
}

kiln_gfx *kiln_gfx_create(const kiln_gfx_desc *desc_in, kiln_error *err) {
    kiln_gfx_desc desc = desc_in ? *desc_in : (kiln_gfx_desc){0};
    if ((desc.x11_display == NULL) != (desc.x11_window == 0)) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "kiln_gfx_desc: x11_display and x11_window go together");
        return NULL;
    }
    kiln_gfx *gfx = calloc(1, sizeof *gfx);
    kiln_gfx_events *events = calloc(1, sizeof *events);
    if (!gfx || !events || !kiln_log_init(&gfx->diagnostics, desc.diagnostics_capacity ? desc.diagnostics_capacity : 1024)) {
        free(gfx);
        free(events);
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory creating kiln_gfx");
        return NULL;
    }
    pthread_mutex_init(&events->lock, NULL);
    gfx->events = events;
    gfx->gpu_wait_timeout_ns = (uint64_t)desc.gpu_wait_timeout_ms * 1000000ull;

    /* Timed WaitAny lets every async request be awaited with a timeout. */
    WGPUInstanceDescriptor id = {.capabilities = {.timedWaitAnyEnable = 1, .timedWaitAnyMaxCount = 0}};
    gfx->instance = wgpuCreateInstance(&id);
    if (!gfx->instance) {
        kiln_error_set(err, KILN_ERR_GPU, "wgpuCreateInstance failed");
        kiln_gfx_destroy(gfx);
        return NULL;
    }
    bool ok = (!desc.x11_display || create_surface(gfx, &desc, err)) && request_adapter(gfx, &desc, err) &&
              request_device(gfx, &desc, err);
    if (!ok) {
        kiln_gfx_destroy(gfx);
        return NULL;
    }
    kiln_log_add(&gfx->diagnostics, KILN_LOG_INFO, "gfx", "device on %s (%s)", gfx->adapter_name,
                 kiln_gfx_backend_name(gfx->backend));
    return gfx;
}

void kiln_gfx_destroy(kiln_gfx *gfx) {
    if (!gfx) return;
    if (gfx->events) gfx->events->shutting_down = true;
    /* The surface first: a configured surface's swapchain still refers to the device. */
    if (gfx->surface) wgpuSurfaceRelease(gfx->surface);
    if (gfx->queue) wgpuQueueRelease(gfx->queue);
    if (gfx->device) {
        wgpuDeviceDestroy(gfx->device);
        wgpuDeviceRelease(gfx->device);
    }
    if (gfx->adapter) wgpuAdapterRelease(gfx->adapter);
    if (gfx->instance) {
        wgpuInstanceProcessEvents(gfx->instance); /* let cancelled callbacks run before the ring goes */
        wgpuInstanceRelease(gfx->instance);
    }
    if (gfx->events) {
        pthread_mutex_destroy(&gfx->events->lock);
        free(gfx->events);
    }
    kiln_log_free(&gfx->diagnostics);
    free(gfx);
}

/* --- the pump ----------------------------------------------------------------------------------- */

static const char *error_category(uint32_t type) {
    switch (type) {
    case WGPUErrorType_Validation: return "wgpu.validation";
    case WGPUErrorType_OutOfMemory: return "wgpu.out_of_memory";
    case WGPUErrorType_Internal: return "wgpu.internal";
    default: return "wgpu.unknown";
    }
}

void kiln_gfx_pump(kiln_gfx *gfx, bool wait) {
    kiln_gfx_scope_due(gfx);
    if (wait && gfx->device) wgpuDeviceTick(gfx->device);
    wgpuInstanceProcessEvents(gfx->instance);

    kiln_gfx_events *ev = gfx->events;
    pthread_mutex_lock(&ev->lock);
    while (ev->count) {
        kiln_gfx_event *e = &ev->ring[ev->start];
        switch (e->kind) {
        case KILN_EVENT_UNCAPTURED_ERROR:
            gfx->error_count++;
            kiln_log_add(&gfx->diagnostics, KILN_LOG_ERROR, error_category(e->code), "%s", e->message);
            break;
        case KILN_EVENT_DEVICE_LOST:
            gfx->lost = true;
            kiln_log_add(&gfx->diagnostics, KILN_LOG_ERROR, "wgpu.device", "device lost (reason %u): %s", e->code,
                         e->message);
            break;
        case KILN_EVENT_LOG:
            kiln_log_add(&gfx->diagnostics, e->code >= WGPULoggingType_Error ? KILN_LOG_ERROR : KILN_LOG_WARN, "wgpu",
                         "%s", e->message);
            break;
        }
        ev->start = (ev->start + 1) % KILN_GFX_EVENT_CAPACITY;
        ev->count--;
    }
    if (ev->overflow_errors || ev->overflow_other) {
        gfx->error_count += ev->overflow_errors;
        kiln_log_add(&gfx->diagnostics, KILN_LOG_WARN, "gfx", "event queue overflowed: %llu errors and %llu other events lost their messages",
                     (unsigned long long)ev->overflow_errors, (unsigned long long)ev->overflow_other);
        ev->overflow_errors = ev->overflow_other = 0;
    }
    pthread_mutex_unlock(&ev->lock);
}

/* --- error scopes ------------------------------------------------------------------------------- */

/* `done` is set last, with release order: the callback may run on the popping thread inside the
 * pop (the usual case) or, in principle, on another of Dawn's. */
typedef struct scope_request {
    atomic_bool done;
    WGPUPopErrorScopeStatus status;
    WGPUErrorType type;
    char message[1024];
} scope_request;

static void on_pop_scope(WGPUPopErrorScopeStatus status, WGPUErrorType type, WGPUStringView message, void *ud1,
                         void *ud2) {
    (void)ud2;
    scope_request *r = ud1;
    r->status = status;
    r->type = type;
    kiln_sv_copy(message, r->message, sizeof r->message);
    atomic_store_explicit(&r->done, true, memory_order_release);
}

static void push_three(kiln_gfx *gfx) {
    /* Internal errors too: Dawn reports some backend compile failures that way; and running out
     * of memory, so a buffer or texture Dawn could not allocate is refused, not kept. */
    wgpuDevicePushErrorScope(gfx->device, WGPUErrorFilter_OutOfMemory);
    wgpuDevicePushErrorScope(gfx->device, WGPUErrorFilter_Internal);
    wgpuDevicePushErrorScope(gfx->device, WGPUErrorFilter_Validation);
}

/* An armed deferred scope goes under this one, where it would be had it been pushed when armed. */
void kiln_gfx_push_scope(kiln_gfx *gfx) {
    kiln_gfx_scope_due(gfx);
    push_three(gfx);
}

void kiln_gfx_push_armed_scope(kiln_gfx *gfx) {
    gfx->deferred_scope = KILN_SCOPE_PUSHED;
    push_three(gfx);
}

void kiln_gfx_defer_scope(kiln_gfx *gfx) { gfx->deferred_scope = KILN_SCOPE_ARMED; }

/* A popped scope holds no GPU work, so Dawn completes its future at once, and with
 * AllowSpontaneous it runs the callback inside wgpuDevicePopErrorScope: nothing is waited for.
 * (WaitAnyOnly plus a WaitAny per pop cost twice as much, about 1 us against 0.5 us per set of
 * three on the 2-core lavapipe machine, and the program runtime pops a set per pass.) A Dawn that
 * completed it later is waited for; once WaitAny reports the future done, its callback has at
 * least begun, so the wait for `done` is short. */
static bool pop_one(kiln_gfx *gfx, scope_request *req, kiln_error *err) {
    atomic_init(&req->done, false);
    req->type = WGPUErrorType_NoError;
    req->message[0] = '\0';
    WGPUPopErrorScopeCallbackInfo cb = {.mode = WGPUCallbackMode_AllowSpontaneous, .callback = on_pop_scope,
                                        .userdata1 = req};
    WGPUFuture f = wgpuDevicePopErrorScope(gfx->device, cb);
    if (!atomic_load_explicit(&req->done, memory_order_acquire)) {
        if (!kiln_gfx_await(gfx, f, KILN_GFX_DEFAULT_TIMEOUT_NS, "an error scope", err)) return false;
        while (!atomic_load_explicit(&req->done, memory_order_acquire)) sched_yield();
    }
    if (req->status != WGPUPopErrorScopeStatus_Success)
        return kiln_error_set(err, KILN_ERR_GPU, "popping an error scope failed (status %d): %s", (int)req->status,
                              req->message);
    return true;
}

/* All three are popped even when one fails, so the stack stays balanced. The requests are not
 * zeroed whole (4 KiB a set, and the program runtime pops a set per pass): pop_one sets what is
 * read. */
bool kiln_gfx_pop_scope(kiln_gfx *gfx, kiln_gfx_scope_result *out, kiln_error *err) {
    scope_request validation, internal, memory;
    bool ok = pop_one(gfx, &validation, err);
    ok = pop_one(gfx, &internal, ok ? err : NULL) && ok;
    ok = pop_one(gfx, &memory, ok ? err : NULL) && ok;
    out->failed = false;
    out->type = WGPUErrorType_NoError;
    out->message[0] = '\0';
    const scope_request *caught = validation.type > WGPUErrorType_NoError ? &validation
                                : internal.type > WGPUErrorType_NoError ? &internal
                                : memory.type > WGPUErrorType_NoError ? &memory : NULL;
    if (caught) {
        out->failed = true;
        out->type = caught->type;
        snprintf(out->message, sizeof out->message, "%s", caught->message);
    }
    return ok;
}

bool kiln_gfx_pop_deferred_scope(kiln_gfx *gfx, kiln_gfx_scope_result *out, kiln_error *err) {
    bool pushed = gfx->deferred_scope == KILN_SCOPE_PUSHED;
    gfx->deferred_scope = KILN_SCOPE_NONE;
    if (pushed) return kiln_gfx_pop_scope(gfx, out, err);
    out->failed = false;
    out->type = WGPUErrorType_NoError;
    out->message[0] = '\0';
    return true;
}
