/* Buffer readbacks: a few small mappable buffers that a region of a GPU buffer is copied into
 * and read back from, in rotation, without stalling (kiln_buffer_readbacks in kiln/gfx.h).
 *
 * The protocol is kiln_timestamps' (timestamps.c), for a plain buffer copy instead of a query
 * resolve: a readback goes FREE -> RECORDED (the copy recorded into an encoder) -> MAPPING (the
 * encoder was submitted; its map is requested) -> READY (the map completed inside a pump) ->
 * FREE (polled). A discarded encoder or a failed map sends it straight back to FREE. The submit
 * hook and the map callback may run after destroy; each holds a reference, and the memory goes
 * with the last one. */
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
    uint64_t token;          /* the caller's tag, handed back by poll */
    uint64_t order;          /* claim order: poll hands out the newest */
} readback;

struct kiln_buffer_readbacks {
    kiln_resources *res;
    uint32_t size;           /* bytes per readback */
    readback readbacks[KILN_BUFFER_READBACKS];
    uint64_t next_order;
    uint32_t refs;           /* the owner's (until destroy), one per pending hook, one per map in flight */
    bool destroyed;
};

static void unref(kiln_buffer_readbacks *rb) {
    if (--rb->refs == 0) free(rb);
}

kiln_buffer_readbacks *kiln_buffer_readbacks_create(kiln_resources *res, uint32_t size, kiln_error *err) {
    if (size == 0 || size % 4 != 0 || size > KILN_BUFFER_READBACK_MAX_SIZE) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "buffer readbacks: size %u is not a multiple of 4 in 4..%d", size,
                       KILN_BUFFER_READBACK_MAX_SIZE);
        return NULL;
    }
    kiln_buffer_readbacks *rb = calloc(1, sizeof *rb);
    if (!rb) {
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "buffer readbacks: out of memory");
        return NULL;
    }
    rb->res = res;
    rb->size = size;
    rb->refs = 1;
    kiln_gfx *gfx = kiln_resources_gfx(res);
    bool ok = true;
    for (uint32_t i = 0; ok && i < KILN_BUFFER_READBACKS; i++) {
        WGPUBufferDescriptor bd = {.label = kiln_sv("kiln buffer readback"), .size = size,
                                   .usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst};
        rb->readbacks[i].buffer = wgpuDeviceCreateBuffer(gfx->device, &bd);
        ok = rb->readbacks[i].buffer != NULL;
    }
    if (!ok) {
        kiln_buffer_readbacks_destroy(rb);
        kiln_error_set(err, KILN_ERR_GPU, "buffer readbacks: could not create %d buffers of %u bytes",
                       KILN_BUFFER_READBACKS, size);
        return NULL;
    }
    return rb;
}

void kiln_buffer_readbacks_destroy(kiln_buffer_readbacks *rb) {
    if (!rb) return;
    rb->destroyed = true;
    for (uint32_t i = 0; i < KILN_BUFFER_READBACKS; i++) {
        readback *b = &rb->readbacks[i];
        if (!b->buffer) continue;
        if (b->state == READBACK_READY) wgpuBufferUnmap(b->buffer);
        /* A recorded copy keeps the buffer alive inside its command buffer; a pending map is
         * aborted and its callback, run later, finds `destroyed`. */
        wgpuBufferRelease(b->buffer);
        b->buffer = NULL;
    }
    unref(rb);
}

static void on_mapped(WGPUMapAsyncStatus status, WGPUStringView message, void *ud1, void *ud2) {
    (void)message;
    kiln_buffer_readbacks *rb = ud1;
    readback *b = &rb->readbacks[(uintptr_t)ud2];
    /* A failed map (device lost, buffer released by destroy) just loses this readback. */
    b->state = status == WGPUMapAsyncStatus_Success && !rb->destroyed ? READBACK_READY : READBACK_FREE;
    unref(rb);
}

/* The encoder's hook: its submit starts the map (the hook's reference passes to the map); a
 * discard frees the buffer again. */
static void on_encoder_done(void *ctx, uint32_t slot, bool submitted) {
    kiln_buffer_readbacks *rb = ctx;
    readback *b = &rb->readbacks[slot];
    if (!submitted || rb->destroyed) {
        b->state = READBACK_FREE;
        unref(rb);
        return;
    }
    b->state = READBACK_MAPPING;
    WGPUBufferMapCallbackInfo cb = {.mode = WGPUCallbackMode_AllowProcessEvents, .callback = on_mapped,
                                    .userdata1 = rb, .userdata2 = (void *)(uintptr_t)slot};
    wgpuBufferMapAsync(b->buffer, WGPUMapMode_Read, 0, rb->size, cb);
}

bool kiln_buffer_readbacks_copy(kiln_buffer_readbacks *rb, kiln_encoder *enc, kiln_buffer src, uint64_t offset,
                                uint64_t token, kiln_error *err) {
    if (!enc->raw)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "buffer readbacks: the encoder was already submitted or discarded");
    if (enc->pass_open) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "buffer readbacks: end the open pass first");
    WGPUBuffer source = kiln_resources_buffer_raw(rb->res, src, err);
    if (!source) return false;
    uint32_t slot = KILN_BUFFER_READBACKS;
    for (uint32_t i = 0; i < KILN_BUFFER_READBACKS && slot == KILN_BUFFER_READBACKS; i++)
        if (rb->readbacks[i].state == READBACK_FREE) slot = i;
    if (slot == KILN_BUFFER_READBACKS)
        return kiln_error_set(err, KILN_ERR_BUSY, "buffer readbacks: all %d buffers are in flight (pump the device)",
                              KILN_BUFFER_READBACKS);
    if (!kiln_encoder_add_hook(enc, (kiln_encoder_hook){.fn = on_encoder_done, .ctx = rb, .arg = slot}, err))
        return false;
    readback *b = &rb->readbacks[slot];
    wgpuCommandEncoderCopyBufferToBuffer(enc->raw, source, offset, b->buffer, 0, rb->size);
    b->state = READBACK_RECORDED;
    b->token = token;
    b->order = rb->next_order++;
    rb->refs++;
    return true;
}

bool kiln_buffer_readbacks_poll(kiln_buffer_readbacks *rb, void *dst, uint64_t *token) {
    readback *newest = NULL;
    for (uint32_t i = 0; i < KILN_BUFFER_READBACKS; i++) {
        readback *b = &rb->readbacks[i];
        if (b->state == READBACK_READY && (!newest || b->order > newest->order)) newest = b;
    }
    if (!newest) return false;
    const void *mapped = wgpuBufferGetConstMappedRange(newest->buffer, 0, rb->size);
    if (mapped && dst) memcpy(dst, mapped, rb->size);
    if (token) *token = newest->token;
    /* Older completed ones are superseded: free them with the newest. */
    for (uint32_t i = 0; i < KILN_BUFFER_READBACKS; i++) {
        readback *b = &rb->readbacks[i];
        if (b->state != READBACK_READY || b->order > newest->order) continue;
        wgpuBufferUnmap(b->buffer);
        b->state = READBACK_FREE;
    }
    return mapped != NULL;
}

uint32_t kiln_buffer_readbacks_in_flight(const kiln_buffer_readbacks *rb) {
    uint32_t n = 0;
    for (uint32_t i = 0; rb && i < KILN_BUFFER_READBACKS; i++) n += rb->readbacks[i].state != READBACK_FREE;
    return n;
}
