/* Internal to the renderer: GPU samplers for materials' sampler states, one per distinct state,
 * created the first time a material asks for it and destroyed with the renderer. A state packs
 * into a small number (its key), so lookup compares integers; there are at most 72 states. */
#ifndef KILN_RENDER_SAMPLER_CACHE_H
#define KILN_RENDER_SAMPLER_CACHE_H

#include <kiln/assets/material.h>
#include <kiln/gfx.h>

typedef struct sampler_cache_entry {
    uint32_t key;
    kiln_sampler sampler;
} sampler_cache_entry;

typedef struct sampler_cache {
    sampler_cache_entry *entries;
    uint32_t count, capacity;
} sampler_cache;

/* The sampler for `state`, which kiln_material_validate has accepted; creates it on first use. */
bool sampler_cache_get(sampler_cache *c, kiln_resources *res, const kiln_sampler_state *state, kiln_sampler *out,
                       kiln_error *err);
void sampler_cache_destroy(sampler_cache *c, kiln_resources *res);

#endif
