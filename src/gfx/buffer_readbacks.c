/* Buffer readbacks: a readback ring (readback_ring.h) that a region of a GPU buffer is copied
 * into and read back from, newest first, without stalling (kiln_buffer_readbacks in
 * kiln/gfx.h): kiln_timestamps' rotation, for a plain buffer copy instead of a query resolve. */
#include <stdlib.h>
#include <string.h>

#include "gfx_internal.h"
#include "readback_ring.h"

_Static_assert(KILN_BUFFER_READBACKS <= READBACK_RING_MAX_SLOTS, "the ring holds the readbacks");

struct kiln_buffer_readbacks {
    kiln_resources *res;
    uint32_t size;           /* bytes per readback */
    readback_ring *ring;     /* KILN_BUFFER_READBACKS buffers of `size` */
};

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
    rb->ring = readback_ring_create(kiln_resources_gfx(res), "kiln buffer readback", KILN_BUFFER_READBACKS, size);
    if (!rb->ring) {
        free(rb);
        kiln_error_set(err, KILN_ERR_GPU, "buffer readbacks: could not create %d buffers of %u bytes",
                       KILN_BUFFER_READBACKS, size);
        return NULL;
    }
    return rb;
}

/* The ring outlives this: a submit hook or a map in flight keeps it until it completes. */
void kiln_buffer_readbacks_destroy(kiln_buffer_readbacks *rb) {
    if (!rb) return;
    readback_ring_destroy(rb->ring);
    free(rb);
}

bool kiln_buffer_readbacks_copy(kiln_buffer_readbacks *rb, kiln_encoder *enc, kiln_buffer src, uint64_t offset,
                                uint64_t token, kiln_error *err) {
    if (!enc->raw)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "buffer readbacks: the encoder was already submitted or discarded");
    if (enc->pass_open) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "buffer readbacks: end the open pass first");
    WGPUBuffer source = kiln_resources_buffer_raw(rb->res, src, err);
    if (!source) return false;
    kiln_error why = {0};
    WGPUBuffer copy = readback_ring_claim(rb->ring, enc, rb->size, token, &why);
    if (!copy) return kiln_error_set(err, why.code, "buffer readbacks: %s", why.message);
    wgpuCommandEncoderCopyBufferToBuffer(enc->raw, source, offset, copy, 0, rb->size);
    return true;
}

/* The newest completed copy; older completed ones are superseded and freed with it. */
bool kiln_buffer_readbacks_poll(kiln_buffer_readbacks *rb, void *dst, uint64_t *token) {
    const void *mapped;
    uint64_t bytes, tag;
    int slot = readback_ring_ready(rb->ring, true, &mapped, &bytes, &tag);
    if (slot < 0) return false;
    if (mapped && dst) memcpy(dst, mapped, rb->size);
    if (token) *token = tag;
    readback_ring_release(rb->ring, slot, true);
    return mapped != NULL;
}

uint32_t kiln_buffer_readbacks_in_flight(const kiln_buffer_readbacks *rb) {
    return rb ? readback_ring_in_flight(rb->ring) : 0;
}
