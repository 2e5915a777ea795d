/* Timestamps: a Timestamp query set, the buffer its queries resolve into, and a readback ring
 * (readback_ring.h) the resolved values are copied into and read back from, oldest first,
 * without stalling. */
#include <stdlib.h>
#include <string.h>

#include "gfx_internal.h"
#include "readback_ring.h"

_Static_assert(KILN_TIMESTAMP_READBACKS <= READBACK_RING_MAX_SLOTS, "the ring holds the readbacks");

struct kiln_timestamps {
    kiln_gfx *gfx;
    WGPUQuerySet query_set;
    WGPUBuffer resolve;
    uint32_t capacity;
    readback_ring *ring;     /* the resolved values' copies, KILN_TIMESTAMP_READBACKS of them */
};

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
    uint64_t bytes = (uint64_t)capacity * sizeof(uint64_t);
    WGPUQuerySetDescriptor qd = {.label = kiln_sv("kiln timestamps"), .type = WGPUQueryType_Timestamp, .count = capacity};
    kiln_gfx_scope_due(gfx);
    ts->query_set = wgpuDeviceCreateQuerySet(gfx->device, &qd);
    WGPUBufferDescriptor rd = {.label = kiln_sv("kiln timestamp resolve"), .size = bytes,
                               .usage = WGPUBufferUsage_QueryResolve | WGPUBufferUsage_CopySrc};
    ts->resolve = ts->query_set ? wgpuDeviceCreateBuffer(gfx->device, &rd) : NULL;
    ts->ring = ts->resolve ? readback_ring_create(gfx, "kiln timestamp readback", KILN_TIMESTAMP_READBACKS, bytes) : NULL;
    if (!ts->ring) {
        kiln_timestamps_destroy(ts);
        kiln_error_set(err, KILN_ERR_GPU, "timestamps: could not create the query set and buffers for %u queries",
                       capacity);
        return NULL;
    }
    return ts;
}

/* The ring outlives this: a submit hook or a map in flight keeps it until it completes. */
void kiln_timestamps_destroy(kiln_timestamps *ts) {
    if (!ts) return;
    readback_ring_destroy(ts->ring);
    if (ts->resolve) wgpuBufferRelease(ts->resolve);
    if (ts->query_set) wgpuQuerySetRelease(ts->query_set);
    free(ts);
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

bool kiln_timestamps_resolve(kiln_timestamps *ts, kiln_encoder *enc, uint32_t count, uint64_t token, kiln_error *err) {
    if (count == 0 || count > ts->capacity)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "timestamps: resolving %u queries of a set of %u", count,
                              ts->capacity);
    if (!enc->raw)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "timestamps: the encoder was already submitted or discarded");
    if (enc->pass_open) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "timestamps: end the open pass first");
    uint64_t bytes = (uint64_t)count * sizeof(uint64_t);
    kiln_error why = {0};
    WGPUBuffer copy = readback_ring_claim(ts->ring, enc, bytes, token, &why);
    if (!copy) return kiln_error_set(err, why.code, "timestamps: %s", why.message);
    wgpuCommandEncoderResolveQuerySet(enc->raw, ts->query_set, 0, count, ts->resolve, 0);
    wgpuCommandEncoderCopyBufferToBuffer(enc->raw, ts->resolve, 0, copy, 0, bytes);
    return true;
}

uint32_t kiln_timestamps_poll(kiln_timestamps *ts, uint64_t *values, uint32_t max, uint64_t *token) {
    const void *mapped;
    uint64_t bytes, tag;
    int slot = readback_ring_ready(ts->ring, false, &mapped, &bytes, &tag);
    if (slot < 0) return 0;
    uint32_t n = mapped ? (uint32_t)(bytes / sizeof(uint64_t)) : 0;
    if (mapped && values) memcpy(values, mapped, (size_t)(n < max ? n : max) * sizeof(uint64_t));
    if (token) *token = tag;
    readback_ring_release(ts->ring, slot, false);
    return n;
}

uint32_t kiln_timestamps_in_flight(const kiln_timestamps *ts) { return ts ? readback_ring_in_flight(ts->ring) : 0; }
