/* The readback ring (readback_ring.h). */
#include <stdlib.h>

#include "readback_ring.h"

typedef enum slot_state {
    SLOT_FREE,
    SLOT_RECORDED,
    SLOT_MAPPING,
    SLOT_READY,
} slot_state;

typedef struct slot {
    WGPUBuffer buffer;
    slot_state state;
    uint64_t bytes;          /* what the copy wrote */
    uint64_t token;          /* the owner's tag */
    uint64_t order;          /* claim order */
} slot;

struct readback_ring {
    kiln_gfx *gfx;           /* used only while the owner holds the ring (creation, unmaps) */
    uint32_t slot_count;
    uint64_t capacity;       /* bytes per buffer */
    slot slots[READBACK_RING_MAX_SLOTS];
    uint64_t next_order;
    uint32_t refs;           /* the owner's (until destroy), one per pending hook, one per map in flight */
    bool destroyed;
};

static void unref(readback_ring *ring) {
    if (--ring->refs == 0) free(ring);
}

readback_ring *readback_ring_create(kiln_gfx *gfx, const char *label, uint32_t slots, uint64_t bytes) {
    if (slots == 0 || slots > READBACK_RING_MAX_SLOTS || bytes == 0) return NULL;
    readback_ring *ring = calloc(1, sizeof *ring);
    if (!ring) return NULL;
    ring->gfx = gfx;
    ring->slot_count = slots;
    ring->capacity = bytes;
    ring->refs = 1;
    kiln_gfx_scope_due(gfx);
    for (uint32_t i = 0; i < slots; i++) {
        WGPUBufferDescriptor d = {.label = kiln_sv(label), .size = bytes,
                                  .usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst};
        if (!(ring->slots[i].buffer = wgpuDeviceCreateBuffer(gfx->device, &d))) {
            readback_ring_destroy(ring);
            return NULL;
        }
    }
    return ring;
}

void readback_ring_destroy(readback_ring *ring) {
    if (!ring) return;
    ring->destroyed = true;
    kiln_gfx_scope_due(ring->gfx);
    for (uint32_t i = 0; i < ring->slot_count; i++) {
        slot *s = &ring->slots[i];
        if (!s->buffer) continue;
        if (s->state == SLOT_READY) wgpuBufferUnmap(s->buffer);
        /* A recorded copy keeps the buffer alive inside its command buffer; a pending map is
         * aborted and its callback, run later, finds `destroyed`. */
        wgpuBufferRelease(s->buffer);
        s->buffer = NULL;
    }
    unref(ring);
}

static void on_mapped(WGPUMapAsyncStatus status, WGPUStringView message, void *ud1, void *ud2) {
    (void)message;
    readback_ring *ring = ud1;
    slot *s = &ring->slots[(uintptr_t)ud2];
    /* A failed map (device lost, buffer released by destroy) just loses this readback. */
    s->state = status == WGPUMapAsyncStatus_Success && !ring->destroyed ? SLOT_READY : SLOT_FREE;
    unref(ring);
}

/* The encoder's hook: its submit starts the map (the hook's reference passes to the map); a
 * discard frees the slot again. */
static void on_encoder_done(void *ctx, uint32_t index, bool submitted) {
    readback_ring *ring = ctx;
    slot *s = &ring->slots[index];
    if (!submitted || ring->destroyed) {
        s->state = SLOT_FREE;
        unref(ring);
        return;
    }
    s->state = SLOT_MAPPING;
    WGPUBufferMapCallbackInfo cb = {.mode = WGPUCallbackMode_AllowProcessEvents, .callback = on_mapped,
                                    .userdata1 = ring, .userdata2 = (void *)(uintptr_t)index};
    wgpuBufferMapAsync(s->buffer, WGPUMapMode_Read, 0, (size_t)s->bytes, cb);
}

WGPUBuffer readback_ring_claim(readback_ring *ring, kiln_encoder *enc, uint64_t bytes, uint64_t token, kiln_error *err) {
    uint32_t index = ring->slot_count;
    for (uint32_t i = 0; i < ring->slot_count && index == ring->slot_count; i++)
        if (ring->slots[i].state == SLOT_FREE) index = i;
    if (index == ring->slot_count) {
        kiln_error_set(err, KILN_ERR_BUSY, "all %u readback buffers are in flight (pump the device)", ring->slot_count);
        return NULL;
    }
    if (!kiln_encoder_add_hook(enc, (kiln_encoder_hook){.fn = on_encoder_done, .ctx = ring, .arg = index}, err))
        return NULL;
    slot *s = &ring->slots[index];
    s->state = SLOT_RECORDED;
    s->bytes = bytes < ring->capacity ? bytes : ring->capacity;
    s->token = token;
    s->order = ring->next_order++;
    ring->refs++;
    return s->buffer;
}

int readback_ring_ready(readback_ring *ring, bool newest, const void **mapped, uint64_t *bytes, uint64_t *token) {
    int found = -1;
    for (uint32_t i = 0; i < ring->slot_count; i++) {
        const slot *s = &ring->slots[i];
        if (s->state != SLOT_READY) continue;
        if (found < 0 || (newest ? s->order > ring->slots[found].order : s->order < ring->slots[found].order))
            found = (int)i;
    }
    if (found < 0) return -1;
    slot *s = &ring->slots[found];
    *mapped = wgpuBufferGetConstMappedRange(s->buffer, 0, (size_t)s->bytes);
    *bytes = s->bytes;
    *token = s->token;
    return found;
}

void readback_ring_release(readback_ring *ring, int index, bool and_older) {
    uint64_t order = ring->slots[index].order;
    for (uint32_t i = 0; i < ring->slot_count; i++) {
        slot *s = &ring->slots[i];
        bool this_one = (int)i == index, older = and_older && s->order < order;
        if (s->state != SLOT_READY || !(this_one || older)) continue;
        kiln_gfx_scope_due(ring->gfx);
        wgpuBufferUnmap(s->buffer);
        s->state = SLOT_FREE;
    }
}

uint32_t readback_ring_in_flight(const readback_ring *ring) {
    uint32_t n = 0;
    for (uint32_t i = 0; ring && i < ring->slot_count; i++) n += ring->slots[i].state != SLOT_FREE;
    return n;
}
