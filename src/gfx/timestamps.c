/* Timestamps: a Timestamp query set, the buffer its queries resolve into, and a few mappable
 * buffers the resolved values are copied into and read back from, in rotation, without stalling.
 *
 * A readback buffer goes FREE -> RECORDED (resolve + copy recorded into an encoder) -> MAPPING
 * (the encoder was submitted; its map is requested) -> READY (the map completed inside a pump)
 * -> FREE (polled). A discarded encoder or a failed map sends it straight back to FREE.
 *
 * Two things call back into this object after the caller may have destroyed it: the encoder's
 * submit hook and the map callback (which Dawn runs in a later wgpuInstanceProcessEvents, at the
 * latest when the gfx is destroyed). Each holds a reference; destroy releases the GPU objects at
 * once, drops the owner's reference, and the memory goes when the last reference does. */
#include <stdlib.h>
#include <string.h>

#include "gfx_internal.h"

typedef enum readback_state {
    READBACK_FREE,
    READBACK_RECORDED,
    READBACK_MAPPING,
    READBACK_READY,
} readback_state;

typedef struct readback {
    WGPUBuffer buffer;
    readback_state state;
    uint32_t count;          /* values resolved */
    uint64_t token;          /* the caller's tag, handed back by poll */
    uint64_t order;          /* claim order: poll hands out the oldest first */
} readback;

struct kiln_timestamps {
    kiln_gfx *gfx;
    WGPUQuerySet query_set;
    WGPUBuffer resolve;
    uint32_t capacity;
    readback readbacks[KILN_TIMESTAMP_READBACKS];
    uint64_t next_order;
    uint32_t refs;           /* the owner's (until destroy), one per pending hook, one per map in flight */
    bool destroyed;
};

static void unref(kiln_timestamps *ts) {
    if (--ts->refs == 0) free(ts);
}

kiln_timestamps *kiln_timestamps_create(kiln_resources *res, uint32_t capacity, kiln_error *err) {
    kiln_gfx *gfx = kiln_resources_gfx(res);
    if (!gfx->features.timestamp_query) {
        kiln_error_set(err, KILN_ERR_GPU, "timestamps: the device on '%s' has no timestamp queries", gfx->adapter_name);
        return NULL;
    }
    if (capacity == 0 || capacity > KILN_TIMESTAMP_MAX_QUERIES) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "timestamps: capacity %u is outside 1..%d", capacity,
                       KILN_TIMESTAMP_MAX_QUERIES);
        return NULL;
    }
    kiln_timestamps *ts = calloc(1, sizeof *ts);
    if (!ts) {
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "timestamps: out of memory");
        return NULL;
    }
    ts->gfx = gfx;
    ts->capacity = capacity;
    ts->refs = 1;
    uint64_t bytes = (uint64_t)capacity * sizeof(uint64_t);
    WGPUQuerySetDescriptor qd = {.label = kiln_sv("kiln timestamps"), .type = WGPUQueryType_Timestamp, .count = capacity};
    ts->query_set = wgpuDeviceCreateQuerySet(gfx->device, &qd);
    WGPUBufferDescriptor rd = {.label = kiln_sv("kiln timestamp resolve"), .size = bytes,
                               .usage = WGPUBufferUsage_QueryResolve | WGPUBufferUsage_CopySrc};
    ts->resolve = ts->query_set ? wgpuDeviceCreateBuffer(gfx->device, &rd) : NULL;
    bool ok = ts->resolve != NULL;
    for (uint32_t i = 0; ok && i < KILN_TIMESTAMP_READBACKS; i++) {
        WGPUBufferDescriptor bd = {.label = kiln_sv("kiln timestamp readback"), .size = bytes,
                                   .usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst};
        ts->readbacks[i].buffer = wgpuDeviceCreateBuffer(gfx->device, &bd);
        ok = ts->readbacks[i].buffer != NULL;
    }
    if (!ok) {
        kiln_timestamps_destroy(ts);
        kiln_error_set(err, KILN_ERR_GPU, "timestamps: could not create the query set and buffers for %u queries",
                       capacity);
        return NULL;
    }
    return ts;
}

void kiln_timestamps_destroy(kiln_timestamps *ts) {
    if (!ts) return;
    ts->destroyed = true;
    for (uint32_t i = 0; i < KILN_TIMESTAMP_READBACKS; i++) {
        readback *rb = &ts->readbacks[i];
        if (!rb->buffer) continue;
        if (rb->state == READBACK_READY) wgpuBufferUnmap(rb->buffer);
        /* A recorded copy keeps the buffer alive inside its command buffer; a pending map is
         * aborted and its callback, run later, finds `destroyed`. */
        wgpuBufferRelease(rb->buffer);
        rb->buffer = NULL;
    }
    if (ts->resolve) wgpuBufferRelease(ts->resolve);
    if (ts->query_set) wgpuQuerySetRelease(ts->query_set);
    ts->resolve = NULL;
    ts->query_set = NULL;
    unref(ts);
}

WGPUQuerySet kiln_timestamps_query_set(const kiln_timestamps *ts) {
    return ts ? ts->query_set : NULL;
}

uint32_t kiln_timestamps_capacity(const kiln_timestamps *ts) {
    return ts ? ts->capacity : 0;
}

kiln_pass_timestamps kiln_timestamps_pass(const kiln_timestamps *ts, uint32_t begin_index, uint32_t end_index) {
    return (kiln_pass_timestamps){.query_set = kiln_timestamps_query_set(ts), .begin_index = begin_index,
                                  .end_index = end_index};
}

static void on_mapped(WGPUMapAsyncStatus status, WGPUStringView message, void *ud1, void *ud2) {
    (void)message;
    kiln_timestamps *ts = ud1;
    readback *rb = &ts->readbacks[(uintptr_t)ud2];
    /* A failed map (device lost, buffer released by destroy) just loses this measurement. */
    rb->state = status == WGPUMapAsyncStatus_Success && !ts->destroyed ? READBACK_READY : READBACK_FREE;
    unref(ts);
}

/* The encoder's hook: its submit starts the map (the hook's reference passes to the map); a
 * discard frees the buffer again. */
static void on_encoder_done(void *ctx, uint32_t slot, bool submitted) {
    kiln_timestamps *ts = ctx;
    readback *rb = &ts->readbacks[slot];
    if (!submitted || ts->destroyed) {
        rb->state = READBACK_FREE;
        unref(ts);
        return;
    }
    rb->state = READBACK_MAPPING;
    WGPUBufferMapCallbackInfo cb = {.mode = WGPUCallbackMode_AllowProcessEvents, .callback = on_mapped,
                                    .userdata1 = ts, .userdata2 = (void *)(uintptr_t)slot};
    wgpuBufferMapAsync(rb->buffer, WGPUMapMode_Read, 0, (size_t)rb->count * sizeof(uint64_t), cb);
}

bool kiln_timestamps_resolve(kiln_timestamps *ts, kiln_encoder *enc, uint32_t count, uint64_t token, kiln_error *err) {
    if (count == 0 || count > ts->capacity)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "timestamps: resolving %u queries of a set of %u", count,
                              ts->capacity);
    if (!enc->raw)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "timestamps: the encoder was already submitted or discarded");
    if (enc->pass_open) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "timestamps: end the open pass first");
    uint32_t slot = KILN_TIMESTAMP_READBACKS;
    for (uint32_t i = 0; i < KILN_TIMESTAMP_READBACKS && slot == KILN_TIMESTAMP_READBACKS; i++)
        if (ts->readbacks[i].state == READBACK_FREE) slot = i;
    if (slot == KILN_TIMESTAMP_READBACKS)
        return kiln_error_set(err, KILN_ERR_BUSY, "timestamps: all %d readback buffers are in flight (pump the device)",
                              KILN_TIMESTAMP_READBACKS);
    if (!kiln_encoder_add_hook(enc, (kiln_encoder_hook){.fn = on_encoder_done, .ctx = ts, .arg = slot}, err))
        return false;
    readback *rb = &ts->readbacks[slot];
    uint64_t bytes = (uint64_t)count * sizeof(uint64_t);
    wgpuCommandEncoderResolveQuerySet(enc->raw, ts->query_set, 0, count, ts->resolve, 0);
    wgpuCommandEncoderCopyBufferToBuffer(enc->raw, ts->resolve, 0, rb->buffer, 0, bytes);
    rb->state = READBACK_RECORDED;
    rb->count = count;
    rb->token = token;
    rb->order = ts->next_order++;
    ts->refs++;
    return true;
}

uint32_t kiln_timestamps_poll(kiln_timestamps *ts, uint64_t *values, uint32_t max, uint64_t *token) {
    readback *oldest = NULL;
    for (uint32_t i = 0; i < KILN_TIMESTAMP_READBACKS; i++) {
        readback *rb = &ts->readbacks[i];
        if (rb->state == READBACK_READY && (!oldest || rb->order < oldest->order)) oldest = rb;
    }
    if (!oldest) return 0;
    size_t bytes = (size_t)oldest->count * sizeof(uint64_t);
    const uint64_t *mapped = wgpuBufferGetConstMappedRange(oldest->buffer, 0, bytes);
    uint32_t n = mapped ? oldest->count : 0;
    if (mapped && values) memcpy(values, mapped, (size_t)(n < max ? n : max) * sizeof(uint64_t));
    if (token) *token = oldest->token;
    wgpuBufferUnmap(oldest->buffer);
    oldest->state = READBACK_FREE;
    return n;
}

uint32_t kiln_timestamps_in_flight(const kiln_timestamps *ts) {
    uint32_t n = 0;
    for (uint32_t i = 0; ts && i < KILN_TIMESTAMP_READBACKS; i++) n += ts->readbacks[i].state != READBACK_FREE;
    return n;
}
