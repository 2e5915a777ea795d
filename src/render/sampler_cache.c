/* The renderer's material samplers, keyed by sampler state (sampler_cache.h). */
#include <stdlib.h>

#include "sampler_cache.h"

/* Two bits per wrap, one per filter: distinct states get distinct keys. */
static uint32_t key_of(const kiln_sampler_state *s) {
    return (uint32_t)s->wrap_u | (uint32_t)s->wrap_v << 2 | (uint32_t)s->mag_filter << 4 |
           (uint32_t)s->min_filter << 5 | (uint32_t)s->mip_filter << 6;
}

static WGPUAddressMode address_of(kiln_sampler_wrap w) {
    return w == KILN_SAMPLER_WRAP_CLAMP_TO_EDGE ? WGPUAddressMode_ClampToEdge
         : w == KILN_SAMPLER_WRAP_MIRRORED_REPEAT ? WGPUAddressMode_MirrorRepeat
                                          : WGPUAddressMode_Repeat;
}

static WGPUFilterMode filter_of(kiln_sampler_filter f) {
    return f == KILN_SAMPLER_FILTER_NEAREST ? WGPUFilterMode_Nearest : WGPUFilterMode_Linear;
}

static kiln_sampler create(kiln_resources *res, const kiln_sampler_state *s, kiln_error *err) {
    bool all_linear = s->mag_filter == KILN_SAMPLER_FILTER_LINEAR && s->min_filter == KILN_SAMPLER_FILTER_LINEAR &&
                      s->mip_filter == KILN_SAMPLER_FILTER_LINEAR;
    kiln_sampler_desc desc = {
        .label = "material sampler",
        .address = WGPUAddressMode_Repeat,
        .address_u = address_of(s->wrap_u),
        .address_v = address_of(s->wrap_v),
        .mag_filter = filter_of(s->mag_filter),
        .min_filter = filter_of(s->min_filter),
        .mip_linear = s->mip_filter == KILN_SAMPLER_FILTER_LINEAR,
        /* WebGPU allows anisotropy only when every filter is linear. */
        .max_anisotropy = all_linear ? 8 : 1,
    };
    return kiln_resources_create_sampler(res, &desc, err);
}

bool sampler_cache_get(sampler_cache *c, kiln_resources *res, const kiln_sampler_state *state, kiln_sampler *out,
                       kiln_error *err) {
    uint32_t key = key_of(state);
    for (uint32_t i = 0; i < c->count; i++)
        if (c->entries[i].key == key) {
            *out = c->entries[i].sampler;
            return true;
        }
    sampler_cache_entry *grown = kiln_array_reserve(c->entries, &c->capacity, c->count + 1, sizeof *grown);
    if (!grown) return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "renderer: out of memory for a material sampler");
    c->entries = grown;
    kiln_sampler sampler = create(res, state, err);
    if (!sampler.id) return false;
    c->entries[c->count++] = (sampler_cache_entry){.key = key, .sampler = sampler};
    *out = sampler;
    return true;
}

void sampler_cache_destroy(sampler_cache *c, kiln_resources *res) {
    for (uint32_t i = 0; i < c->count; i++) kiln_resources_destroy_sampler(res, c->entries[i].sampler, NULL);
    free(c->entries);
    *c = (sampler_cache){0};
}
