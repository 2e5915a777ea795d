/* A readback ring (gfx internal): a few mappable buffers that GPU results are copied into and
 * read back from, in rotation, without stalling. kiln_timestamps and kiln_buffer_readbacks are
 * each a ring plus what they copy from.
 *
 * A slot goes FREE -> RECORDED (claimed: the owner recorded its copy into an encoder) -> MAPPING
 * (the encoder was submitted; its map is requested) -> READY (the map completed inside a pump)
 * -> FREE (released after the owner read it). A discarded encoder or a failed map sends it
 * straight back to FREE.
 *
 * Two things call back into the ring after its owner may have destroyed it: the encoder's submit
 * hook and the map callback (which Dawn runs in a later wgpuInstanceProcessEvents, at the latest
 * when the gfx is destroyed). Each holds a reference; readback_ring_destroy releases the buffers
 * at once and drops the owner's reference, and the memory goes with the last one. */
#ifndef KILN_GFX_READBACK_RING_H
#define KILN_GFX_READBACK_RING_H

#include "gfx_internal.h"

#define READBACK_RING_MAX_SLOTS 8

typedef struct readback_ring readback_ring;

/* `slots` buffers of `bytes` each (MapRead | CopyDst), labelled `label`; NULL when one cannot be
 * created. */
readback_ring *readback_ring_create(kiln_gfx *gfx, const char *label, uint32_t slots, uint64_t bytes);
void readback_ring_destroy(readback_ring *ring);

/* Claims a free slot for a copy of `bytes` (at most the ring's) that the caller records into enc
 * right after, tagged with `token`; its map starts when enc is submitted. Returns the buffer to
 * copy into, or NULL with err (KILN_ERR_BUSY when every slot is in flight; a hook refused). */
WGPUBuffer readback_ring_claim(readback_ring *ring, kiln_encoder *enc, uint64_t bytes, uint64_t token, kiln_error *err);

/* The oldest (newest false) or newest READY slot: its index, or -1 when none is ready; *mapped
 * (NULL if Dawn gave no range), *bytes and *token describe it. The slot stays READY until
 * readback_ring_release. */
int readback_ring_ready(readback_ring *ring, bool newest, const void **mapped, uint64_t *bytes, uint64_t *token);
/* Unmaps `slot` and frees it; with `and_older`, every READY slot claimed before it too. */
void readback_ring_release(readback_ring *ring, int slot, bool and_older);

/* Slots not FREE. */
uint32_t readback_ring_in_flight(const readback_ring *ring);

#endif
