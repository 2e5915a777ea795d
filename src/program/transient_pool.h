/* The transient pool of the program runtime (internal to src/program): the physical textures that
 * programs' transients land on, shared by every program and kept across dispatches.
 *
 * A texture belongs to one class: (width, height, format, samples). Within one dispatch the
 * executor claims textures for the transients' live ranges, in order of their first pass: a
 * texture a holder needs through pass `end` is free again for a holder whose first pass is after
 * `end`, so a pass never samples what it is attached to and a ping-pong chain settles on two
 * textures of its class. Between dispatches every texture is free.
 *
 * Textures are released at kiln_programs_destroy, or once they sit unused through
 * TRANSIENT_POOL_IDLE_RECORDS record calls that recorded work (a resize leaves the old size's
 * textures idle; a program repainted rarely keeps its textures while nothing else runs). */
#ifndef KILN_PROGRAM_TRANSIENT_POOL_H
#define KILN_PROGRAM_TRANSIENT_POOL_H

#include <kiln/program.h>

#define TRANSIENT_POOL_NONE UINT32_MAX
#define TRANSIENT_POOL_IDLE_RECORDS 8

typedef struct transient_texture {
    bool alive;
    uint32_t width, height;
    kiln_texture_format format;
    kiln_samples samples;
    kiln_texture texture;
    kiln_texture_view view;
    WGPUTextureView raw_view;
    uint64_t claimed_dispatch; /* serial of the dispatch that last claimed it */
    uint32_t busy_through;     /* in that dispatch: the last pass its holder needs it in */
    uint64_t used_record;      /* serial of the active record call that last used it */
} transient_texture;

typedef struct transient_pool {
    kiln_resources *res;
    transient_texture *items;  /* slots; a released slot is reused by the next texture */
    uint32_t count, capacity;
    uint64_t dispatch_serial;  /* dispatches begun */
    uint64_t record_serial;    /* record calls that recorded at least one dispatch */
    uint32_t textures_last_dispatch; /* distinct textures the current (or last) dispatch claimed */
} transient_pool;

void transient_pool_init(transient_pool *pool, kiln_resources *res);
/* Releases every texture and the slot storage. */
void transient_pool_free(transient_pool *pool);

/* Brackets the claims of one record call that has work, and of one dispatch within it. */
void transient_pool_begin_record(transient_pool *pool);
void transient_pool_begin_dispatch(transient_pool *pool);
/* Releases the textures that went unused through the last TRANSIENT_POOL_IDLE_RECORDS active
 * record calls. */
void transient_pool_end_record(transient_pool *pool);

/* Claims a texture of the class for passes [first, last] of the current dispatch, creating one
 * when every texture of the class is held by a range that reaches `first`. Returns its slot, or
 * TRANSIENT_POOL_NONE with err filled when the texture cannot be created. */
uint32_t transient_pool_claim(transient_pool *pool, uint32_t width, uint32_t height, kiln_texture_format format,
                              kiln_samples samples, uint32_t first, uint32_t last, kiln_error *err);

kiln_pool_stats transient_pool_stats(const transient_pool *pool);

#endif
