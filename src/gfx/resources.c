/* kiln_resources: one generational pool per GPU object kind, typed handles, live counts,
 * bounds-checked uploads and the leak report at teardown. */
#include <stdlib.h>
#include <string.h>

#include "gfx_internal.h"

static const char *const pool_names[KILN_POOL_COUNT] = {
    "buffer", "texture", "texture view", "sampler", "shader",
    "bind group layout", "pipeline layout", "bind group", "render pipeline", "compute pipeline",
};

static uint32_t entry_size(int pool) {
    switch (pool) {
    case KILN_POOL_BUFFER: return sizeof(kiln_buffer_entry);
    case KILN_POOL_TEXTURE: return sizeof(kiln_texture_entry);
    case KILN_POOL_TEXTURE_VIEW: return sizeof(kiln_texture_view_entry);
    default: return sizeof(kiln_object_entry);
    }
}

static void release_object(int pool, void *raw) {
    switch (pool) {
    case KILN_POOL_SAMPLER: wgpuSamplerRelease(raw); break;
    case KILN_POOL_SHADER: wgpuShaderModuleRelease(raw); break;
    case KILN_POOL_BIND_GROUP_LAYOUT: wgpuBindGroupLayoutRelease(raw); break;
    case KILN_POOL_PIPELINE_LAYOUT: wgpuPipelineLayoutRelease(raw); break;
    case KILN_POOL_BIND_GROUP: wgpuBindGroupRelease(raw); break;
    case KILN_POOL_RENDER_PIPELINE: wgpuRenderPipelineRelease(raw); break;
    case KILN_POOL_COMPUTE_PIPELINE: wgpuComputePipelineRelease(raw); break;
    default: break;
    }
}

kiln_resources *kiln_resources_create(kiln_gfx *gfx, uint32_t capacity, kiln_error *err) {
    if (!gfx) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "kiln_resources_create: gfx is NULL");
        return NULL;
    }
    /* A capacity the caller names bounds buffers, textures, views and bind groups (tests and tools
     * that want a full pool); by default they grow as everything else does, from 4096 slots, so
     * no count of live objects below the handle's 2^20 slots is a cap. */
    bool bounded = capacity != 0;
    if (!capacity) capacity = 4096;
    kiln_resources *res = calloc(1, sizeof *res);
    if (!res) {
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory creating kiln_resources");
        return NULL;
    }
    res->gfx = gfx;
    for (int p = 0; p < KILN_POOL_COUNT; p++) {
        bool sized = p == KILN_POOL_BUFFER || p == KILN_POOL_TEXTURE || p == KILN_POOL_TEXTURE_VIEW ||
                     p == KILN_POOL_BIND_GROUP;
        uint32_t cap = sized ? capacity : p == KILN_POOL_SAMPLER ? 256 : 1024;
        uint32_t max = bounded && sized ? cap : KILN_POOL_MAX_CAPACITY;
        if (!kiln_pool_init_growing(&res->pools[p], cap, max, entry_size(p))) {
            kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory creating the %s pool (%u entries)",
                           pool_names[p], cap);
            kiln_resources_destroy(res);
            return NULL;
        }
    }
    return res;
}

kiln_gfx *kiln_resources_gfx(const kiln_resources *res) { return res->gfx; }

kiln_live_counts kiln_resources_live_counts(const kiln_resources *res) {
    const kiln_pool *p = res->pools;
    return (kiln_live_counts){
        .buffers = kiln_pool_live(&p[KILN_POOL_BUFFER]),
        .textures = kiln_pool_live(&p[KILN_POOL_TEXTURE]),
        .texture_views = kiln_pool_live(&p[KILN_POOL_TEXTURE_VIEW]),
        .samplers = kiln_pool_live(&p[KILN_POOL_SAMPLER]),
        .shaders = kiln_pool_live(&p[KILN_POOL_SHADER]),
        .bind_group_layouts = kiln_pool_live(&p[KILN_POOL_BIND_GROUP_LAYOUT]),
        .pipeline_layouts = kiln_pool_live(&p[KILN_POOL_PIPELINE_LAYOUT]),
        .bind_groups = kiln_pool_live(&p[KILN_POOL_BIND_GROUP]),
        .render_pipelines = kiln_pool_live(&p[KILN_POOL_RENDER_PIPELINE]),
        .compute_pipelines = kiln_pool_live(&p[KILN_POOL_COMPUTE_PIPELINE]),
    };
}

uint32_t kiln_live_counts_total(const kiln_live_counts *c) {
    return c->buffers + c->textures + c->texture_views + c->samplers + c->shaders + c->bind_group_layouts +
           c->pipeline_layouts + c->bind_groups + c->render_pipelines + c->compute_pipelines;
}

/* Releases one entry's GPU object. */
static void release_entry(int pool, void *entry) {
    switch (pool) {
    case KILN_POOL_BUFFER: {
        kiln_buffer_entry *b = entry;
        wgpuBufferDestroy(b->raw);
        wgpuBufferRelease(b->raw);
        break;
    }
    case KILN_POOL_TEXTURE: {
        kiln_texture_entry *t = entry;
        wgpuTextureDestroy(t->raw);
        wgpuTextureRelease(t->raw);
        break;
    }
    case KILN_POOL_TEXTURE_VIEW: {
        kiln_texture_view_entry *v = entry;
        if (!v->imported) wgpuTextureViewRelease(v->raw);
        break;
    }
    default: release_object(pool, ((kiln_object_entry *)entry)->raw); break;
    }
}

void kiln_resources_destroy(kiln_resources *res) {
    if (!res) return;
    kiln_live_counts left = kiln_resources_live_counts(res);
    uint32_t imported = 0;
    /* Dependents before what they depend on: views before textures, groups before layouts. */
    static const int order[KILN_POOL_COUNT] = {
        KILN_POOL_BIND_GROUP, KILN_POOL_RENDER_PIPELINE, KILN_POOL_COMPUTE_PIPELINE, KILN_POOL_PIPELINE_LAYOUT,
        KILN_POOL_BIND_GROUP_LAYOUT, KILN_POOL_SHADER, KILN_POOL_SAMPLER, KILN_POOL_TEXTURE_VIEW,
        KILN_POOL_TEXTURE, KILN_POOL_BUFFER,
    };
    for (int i = 0; i < KILN_POOL_COUNT; i++) {
        int p = order[i];
        kiln_pool *pool = &res->pools[p];
        if (!pool->capacity) continue;
        uint32_t cursor = 0, id;
        kiln_gfx_scope_due(res->gfx);
        while ((id = kiln_pool_next(pool, &cursor)) != 0) {
            void *entry = kiln_pool_get(pool, id);
            if (p == KILN_POOL_TEXTURE_VIEW && ((kiln_texture_view_entry *)entry)->imported) imported++;
            release_entry(p, entry);
        }
        kiln_pool_free(pool);
    }
    uint32_t total = kiln_live_counts_total(&left) - imported;
    if (total)
        kiln_log_add(&res->gfx->diagnostics, KILN_LOG_WARN, "gfx.resources",
                     "released %u objects left alive at shutdown: buffers %u, textures %u, texture views %u, "
                     "samplers %u, shaders %u, bind group layouts %u, pipeline layouts %u, bind groups %u, "
                     "render pipelines %u, compute pipelines %u",
                     total, left.buffers, left.textures, left.texture_views - imported, left.samplers, left.shaders,
                     left.bind_group_layouts, left.pipeline_layouts, left.bind_groups, left.render_pipelines,
                     left.compute_pipelines);
    free(res);
}

void *kiln_resources_lookup(const kiln_resources *res, int pool, uint32_t id, kiln_error *err) {
    void *entry = kiln_pool_get(&res->pools[pool], id);
    if (!entry) kiln_error_set(err, KILN_ERR_INVALID_HANDLE, "invalid %s handle (id 0x%08x)", pool_names[pool], id);
    return entry;
}

/* Puts a raw object into a pool; on failure releases it, so ownership always passes. */
static uint32_t adopt(kiln_resources *res, int pool, void *raw, const char *what, kiln_error *err) {
    if (!raw) {
        kiln_error_set(err, KILN_ERR_GPU, "cannot adopt a NULL %s%s%s", pool_names[pool], what ? " " : "", what ? what : "");
        return 0;
    }
    kiln_object_entry *e;
    uint32_t id = kiln_pool_alloc(&res->pools[pool], (void **)&e);
    if (!id) {
        release_object(pool, raw);
        kiln_error_set(err, KILN_ERR_CAPACITY, "%s pool is full (%u)", pool_names[pool], res->pools[pool].capacity);
        return 0;
    }
    e->raw = raw;
    return id;
}

static bool replace(kiln_resources *res, int pool, uint32_t id, void *raw, kiln_error *err) {
    kiln_object_entry *e = kiln_resources_lookup(res, pool, id, err);
    if (!e || !raw) {
        if (raw) release_object(pool, raw);
        if (e && !raw) kiln_error_set(err, KILN_ERR_GPU, "cannot replace a %s with NULL", pool_names[pool]);
        return false;
    }
    release_object(pool, e->raw);
    e->raw = raw;
    return true;
}

static bool destroy_object(kiln_resources *res, int pool, uint32_t id, kiln_error *err) {
    kiln_object_entry *e = kiln_resources_lookup(res, pool, id, err);
    if (!e) return false;
    release_object(pool, e->raw);
    kiln_pool_release(&res->pools[pool], id);
    return true;
}

static void *object_raw(const kiln_resources *res, int pool, uint32_t id, kiln_error *err) {
    kiln_object_entry *e = kiln_resources_lookup(res, pool, id, err);
    return e ? e->raw : NULL;
}

/* --- creation ----------------------------------------------------------------------------------- */

kiln_buffer kiln_resources_create_buffer(kiln_resources *res, const kiln_buffer_desc *desc, kiln_error *err) {
    if (!desc || desc->size == 0) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "buffer '%s': size must be positive",
                       desc && desc->label ? desc->label : "");
        return (kiln_buffer){0};
    }
    /* Checked here, naming the limit: Dawn would hand back an invalid buffer and report the error
     * later, and a kept invalid buffer fails every frame that binds it. */
    const char *label = desc->label ? desc->label : "";
    if (desc->size > res->gfx->limits.maxBufferSize) {
        kiln_error_set(err, KILN_ERR_CAPACITY, "buffer '%s': %llu bytes exceed the device's maxBufferSize (%llu)", label,
                       (unsigned long long)desc->size, (unsigned long long)res->gfx->limits.maxBufferSize);
        return (kiln_buffer){0};
    }
    WGPUBufferDescriptor bd = {
        .label = kiln_sv(desc->label),
        .usage = desc->usage,
        .size = desc->size,
        .mappedAtCreation = desc->mapped_at_creation,
    };
    kiln_gfx_push_scope(res->gfx);
    WGPUBuffer raw = wgpuDeviceCreateBuffer(res->gfx->device, &bd);
    kiln_gfx_scope_result scope = {0};
    bool popped = kiln_gfx_pop_scope(res->gfx, &scope, err);
    if (!raw || !popped || scope.failed) {
        if (raw) {
            wgpuBufferDestroy(raw);
            wgpuBufferRelease(raw);
        }
        if (!popped) return (kiln_buffer){0};
        kiln_error_set(err, scope.type == WGPUErrorType_OutOfMemory || !raw ? KILN_ERR_OUT_OF_MEMORY : KILN_ERR_GPU,
                       "buffer '%s': creation of %llu bytes failed: %s", label, (unsigned long long)desc->size,
                       raw ? scope.message : "no buffer");
        return (kiln_buffer){0};
    }
    kiln_buffer_entry *e;
    uint32_t id = kiln_pool_alloc(&res->pools[KILN_POOL_BUFFER], (void **)&e);
    if (!id) {
        wgpuBufferDestroy(raw);
        wgpuBufferRelease(raw);
        kiln_error_set(err, KILN_ERR_CAPACITY, "buffer pool is full (%u)", res->pools[KILN_POOL_BUFFER].capacity);
        return (kiln_buffer){0};
    }
    *e = (kiln_buffer_entry){.raw = raw, .size = desc->size, .usage = desc->usage};
    return (kiln_buffer){id};
}

/* The size limits a texture of this dimension must keep, named in the refusal. */
static bool texture_within_limits(const WGPULimits *limits, const kiln_texture_desc *d, kiln_error *err) {
    const char *label = d->label ? d->label : "";
    uint32_t max = d->dimension == WGPUTextureDimension_1D   ? limits->maxTextureDimension1D
                   : d->dimension == WGPUTextureDimension_3D ? limits->maxTextureDimension3D
                                                             : limits->maxTextureDimension2D;
    const char *name = d->dimension == WGPUTextureDimension_1D   ? "maxTextureDimension1D"
                       : d->dimension == WGPUTextureDimension_3D ? "maxTextureDimension3D"
                                                                 : "maxTextureDimension2D";
    if (d->width > max || d->height > max || (d->dimension == WGPUTextureDimension_3D && d->depth_or_layers > max))
        return kiln_error_set(err, KILN_ERR_CAPACITY, "texture '%s': %ux%ux%u exceeds the device's %s (%u)", label,
                              d->width, d->height, d->depth_or_layers, name, max);
    if (d->dimension == WGPUTextureDimension_2D && d->depth_or_layers > limits->maxTextureArrayLayers)
        return kiln_error_set(err, KILN_ERR_CAPACITY, "texture '%s': %u layers exceed the device's maxTextureArrayLayers (%u)",
                              label, d->depth_or_layers, limits->maxTextureArrayLayers);
    return true;
}

kiln_texture kiln_resources_create_texture(kiln_resources *res, const kiln_texture_desc *desc_in, kiln_error *err) {
    kiln_texture_desc desc = *desc_in;
    if (!desc.depth_or_layers) desc.depth_or_layers = 1;
    if (!desc.mip_levels) desc.mip_levels = 1;
    if (!desc.sample_count) desc.sample_count = 1;
    if (desc.dimension == WGPUTextureDimension_Undefined) desc.dimension = WGPUTextureDimension_2D;
    if (!desc.width || !desc.height) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "texture '%s': size %ux%u must be positive",
                       desc.label ? desc.label : "", desc.width, desc.height);
        return (kiln_texture){0};
    }
    WGPUTextureDescriptor td = {
        .label = kiln_sv(desc.label),
        .usage = desc.usage,
        .dimension = desc.dimension,
        .size = {desc.width, desc.height, desc.depth_or_layers},
        .format = desc.format,
        .mipLevelCount = desc.mip_levels,
        .sampleCount = desc.sample_count,
    };
    if (!texture_within_limits(&res->gfx->limits, &desc, err)) return (kiln_texture){0};
    kiln_gfx_push_scope(res->gfx);
    WGPUTexture raw = wgpuDeviceCreateTexture(res->gfx->device, &td);
    kiln_gfx_scope_result scope = {0};
    bool popped = kiln_gfx_pop_scope(res->gfx, &scope, err);
    if (!raw || !popped || scope.failed) {
        if (raw) {
            wgpuTextureDestroy(raw);
            wgpuTextureRelease(raw);
        }
        if (!popped) return (kiln_texture){0};
        kiln_error_set(err, scope.type == WGPUErrorType_OutOfMemory || !raw ? KILN_ERR_OUT_OF_MEMORY : KILN_ERR_GPU,
                       "texture '%s': creation failed: %s", desc.label ? desc.label : "", raw ? scope.message : "no texture");
        return (kiln_texture){0};
    }
    kiln_texture_entry *e;
    uint32_t id = kiln_pool_alloc(&res->pools[KILN_POOL_TEXTURE], (void **)&e);
    if (!id) {
        wgpuTextureDestroy(raw);
        wgpuTextureRelease(raw);
        kiln_error_set(err, KILN_ERR_CAPACITY, "texture pool is full (%u)", res->pools[KILN_POOL_TEXTURE].capacity);
        return (kiln_texture){0};
    }
    desc.label = NULL;
    *e = (kiln_texture_entry){.raw = raw, .desc = desc};
    return (kiln_texture){id};
}

kiln_texture_view kiln_resources_create_texture_view(kiln_resources *res, kiln_texture texture,
                                               const kiln_texture_view_desc *desc, kiln_error *err) {
    kiln_texture_entry *t = kiln_resources_lookup(res, KILN_POOL_TEXTURE, texture.id, err);
    if (!t) return (kiln_texture_view){0};
    kiln_texture_view_desc d = desc ? *desc : (kiln_texture_view_desc){0};
    WGPUTextureViewDescriptor vd = {
        .label = kiln_sv(d.label),
        .format = d.format,
        .dimension = d.dimension,
        .baseMipLevel = d.base_mip,
        .mipLevelCount = d.mip_count ? d.mip_count : WGPU_MIP_LEVEL_COUNT_UNDEFINED,
        .baseArrayLayer = d.base_layer,
        .arrayLayerCount = d.layer_count ? d.layer_count : WGPU_ARRAY_LAYER_COUNT_UNDEFINED,
        .aspect = d.aspect ? d.aspect : WGPUTextureAspect_All,
    };
    kiln_gfx_scope_due(res->gfx);
    WGPUTextureView raw = wgpuTextureCreateView(t->raw, &vd);
    if (!raw) {
        kiln_error_set(err, KILN_ERR_GPU, "texture view '%s': creation failed", d.label ? d.label : "");
        return (kiln_texture_view){0};
    }
    kiln_texture_view_entry *e;
    uint32_t id = kiln_pool_alloc(&res->pools[KILN_POOL_TEXTURE_VIEW], (void **)&e);
    if (!id) {
        wgpuTextureViewRelease(raw);
        kiln_error_set(err, KILN_ERR_CAPACITY, "texture view pool is full (%u)",
                       res->pools[KILN_POOL_TEXTURE_VIEW].capacity);
        return (kiln_texture_view){0};
    }
    *e = (kiln_texture_view_entry){.raw = raw, .texture = texture};
    t->view_count++;
    return (kiln_texture_view){id};
}

kiln_sampler kiln_resources_create_sampler(kiln_resources *res, const kiln_sampler_desc *desc, kiln_error *err) {
    kiln_sampler_desc d = desc ? *desc : (kiln_sampler_desc){0};
    WGPUAddressMode address = d.address ? d.address : WGPUAddressMode_ClampToEdge;
    WGPUFilterMode filter = d.linear ? WGPUFilterMode_Linear : WGPUFilterMode_Nearest;
    WGPUSamplerDescriptor sd = {
        .label = kiln_sv(d.label),
        .addressModeU = d.address_u ? d.address_u : address,
        .addressModeV = d.address_v ? d.address_v : address,
        .addressModeW = address,
        .magFilter = d.mag_filter ? d.mag_filter : filter,
        .minFilter = d.min_filter ? d.min_filter : filter,
        .mipmapFilter = d.mip_linear ? WGPUMipmapFilterMode_Linear : WGPUMipmapFilterMode_Nearest,
        .lodMinClamp = 0.0f,
        .lodMaxClamp = d.lod_max > 0.0f ? d.lod_max : 32.0f,
        .compare = d.compare,
        .maxAnisotropy = d.max_anisotropy ? d.max_anisotropy : 1,
    };
    kiln_gfx_scope_due(res->gfx);
    WGPUSampler raw = wgpuDeviceCreateSampler(res->gfx->device, &sd);
    return (kiln_sampler){adopt(res, KILN_POOL_SAMPLER, raw, d.label, err)};
}

kiln_sampler kiln_resources_create_comparison_sampler(kiln_resources *res, const char *label, kiln_error *err) {
    kiln_sampler_desc d = {.label = label, .linear = true, .compare = WGPUCompareFunction_GreaterEqual};
    return kiln_resources_create_sampler(res, &d, err);
}

kiln_texture_view kiln_resources_import_texture_view(kiln_resources *res, WGPUTextureView view, kiln_error *err) {
    if (!view) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "cannot import a NULL texture view");
        return (kiln_texture_view){0};
    }
    kiln_texture_view_entry *e;
    uint32_t id = kiln_pool_alloc(&res->pools[KILN_POOL_TEXTURE_VIEW], (void **)&e);
    if (!id) {
        kiln_error_set(err, KILN_ERR_CAPACITY, "texture view pool is full (%u)",
                       res->pools[KILN_POOL_TEXTURE_VIEW].capacity);
        return (kiln_texture_view){0};
    }
    *e = (kiln_texture_view_entry){.raw = view, .imported = true};
    return (kiln_texture_view){id};
}

bool kiln_resources_forget_texture_view(kiln_resources *res, kiln_texture_view h, kiln_error *err) {
    kiln_texture_view_entry *e = kiln_resources_lookup(res, KILN_POOL_TEXTURE_VIEW, h.id, err);
    if (!e) return false;
    if (!e->imported)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "texture view 0x%08x is owned by kiln: destroy it, do not forget it", h.id);
    kiln_pool_release(&res->pools[KILN_POOL_TEXTURE_VIEW], h.id);
    return true;
}

/* --- destruction -------------------------------------------------------------------------------- */

bool kiln_resources_destroy_buffer(kiln_resources *res, kiln_buffer h, kiln_error *err) {
    kiln_buffer_entry *e = kiln_resources_lookup(res, KILN_POOL_BUFFER, h.id, err);
    if (!e) return false;
    kiln_gfx_scope_due(res->gfx);
    release_entry(KILN_POOL_BUFFER, e);
    kiln_pool_release(&res->pools[KILN_POOL_BUFFER], h.id);
    return true;
}

bool kiln_resources_destroy_texture(kiln_resources *res, kiln_texture h, kiln_error *err) {
    kiln_texture_entry *e = kiln_resources_lookup(res, KILN_POOL_TEXTURE, h.id, err);
    if (!e) return false;
    if (e->view_count)
        return kiln_error_set(err, KILN_ERR_BUSY, "texture 0x%08x still has %u live view(s): destroy them first", h.id,
                              e->view_count);
    kiln_gfx_scope_due(res->gfx);
    release_entry(KILN_POOL_TEXTURE, e);
    kiln_pool_release(&res->pools[KILN_POOL_TEXTURE], h.id);
    return true;
}

bool kiln_resources_destroy_texture_view(kiln_resources *res, kiln_texture_view h, kiln_error *err) {
    kiln_texture_view_entry *e = kiln_resources_lookup(res, KILN_POOL_TEXTURE_VIEW, h.id, err);
    if (!e) return false;
    if (e->imported)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "texture view 0x%08x was imported: forget it, kiln does not own it", h.id);
    kiln_texture_entry *t = kiln_pool_get(&res->pools[KILN_POOL_TEXTURE], e->texture.id);
    if (t && t->view_count) t->view_count--;
    wgpuTextureViewRelease(e->raw);
    kiln_pool_release(&res->pools[KILN_POOL_TEXTURE_VIEW], h.id);
    return true;
}

bool kiln_resources_destroy_sampler(kiln_resources *res, kiln_sampler h, kiln_error *err) {
    return destroy_object(res, KILN_POOL_SAMPLER, h.id, err);
}
bool kiln_resources_destroy_shader(kiln_resources *res, kiln_shader h, kiln_error *err) {
    return destroy_object(res, KILN_POOL_SHADER, h.id, err);
}
bool kiln_resources_destroy_bind_group_layout(kiln_resources *res, kiln_bind_group_layout h, kiln_error *err) {
    return destroy_object(res, KILN_POOL_BIND_GROUP_LAYOUT, h.id, err);
}
bool kiln_resources_destroy_pipeline_layout(kiln_resources *res, kiln_pipeline_layout h, kiln_error *err) {
    return destroy_object(res, KILN_POOL_PIPELINE_LAYOUT, h.id, err);
}
bool kiln_resources_destroy_bind_group(kiln_resources *res, kiln_bind_group h, kiln_error *err) {
    return destroy_object(res, KILN_POOL_BIND_GROUP, h.id, err);
}
bool kiln_resources_destroy_render_pipeline(kiln_resources *res, kiln_render_pipeline h, kiln_error *err) {
    return destroy_object(res, KILN_POOL_RENDER_PIPELINE, h.id, err);
}
bool kiln_resources_destroy_compute_pipeline(kiln_resources *res, kiln_compute_pipeline h, kiln_error *err) {
    return destroy_object(res, KILN_POOL_COMPUTE_PIPELINE, h.id, err);
}

/* --- access --------------------------------------------------------------------------------------- */

WGPUBuffer kiln_resources_buffer_raw(const kiln_resources *res, kiln_buffer h, kiln_error *err) {
    kiln_buffer_entry *e = kiln_resources_lookup(res, KILN_POOL_BUFFER, h.id, err);
    return e ? e->raw : NULL;
}
uint64_t kiln_resources_buffer_size(const kiln_resources *res, kiln_buffer h) {
    kiln_buffer_entry *e = kiln_pool_get(&res->pools[KILN_POOL_BUFFER], h.id);
    return e ? e->size : 0;
}
WGPUTexture kiln_resources_texture_raw(const kiln_resources *res, kiln_texture h, kiln_error *err) {
    kiln_texture_entry *e = kiln_resources_lookup(res, KILN_POOL_TEXTURE, h.id, err);
    return e ? e->raw : NULL;
}
const kiln_texture_desc *kiln_resources_texture_desc(const kiln_resources *res, kiln_texture h) {
    kiln_texture_entry *e = kiln_pool_get(&res->pools[KILN_POOL_TEXTURE], h.id);
    return e ? &e->desc : NULL;
}
kiln_texture_desc kiln_gfx_raw_texture_desc(WGPUTexture texture) {
    return (kiln_texture_desc){
        .width = wgpuTextureGetWidth(texture),
        .height = wgpuTextureGetHeight(texture),
        .depth_or_layers = wgpuTextureGetDepthOrArrayLayers(texture),
        .mip_levels = wgpuTextureGetMipLevelCount(texture),
        .sample_count = wgpuTextureGetSampleCount(texture),
        .format = wgpuTextureGetFormat(texture),
        .usage = wgpuTextureGetUsage(texture),
    };
}
uint32_t kiln_resources_texture_view_count(const kiln_resources *res, kiln_texture h) {
    kiln_texture_entry *e = kiln_pool_get(&res->pools[KILN_POOL_TEXTURE], h.id);
    return e ? e->view_count : 0;
}
WGPUTextureView kiln_resources_texture_view_raw(const kiln_resources *res, kiln_texture_view h, kiln_error *err) {
    kiln_texture_view_entry *e = kiln_resources_lookup(res, KILN_POOL_TEXTURE_VIEW, h.id, err);
    return e ? e->raw : NULL;
}
WGPUSampler kiln_resources_sampler_raw(const kiln_resources *res, kiln_sampler h, kiln_error *err) {
    return object_raw(res, KILN_POOL_SAMPLER, h.id, err);
}
WGPUShaderModule kiln_resources_shader_raw(const kiln_resources *res, kiln_shader h, kiln_error *err) {
    return object_raw(res, KILN_POOL_SHADER, h.id, err);
}
WGPUBindGroupLayout kiln_resources_bind_group_layout_raw(const kiln_resources *res, kiln_bind_group_layout h,
                                                   kiln_error *err) {
    return object_raw(res, KILN_POOL_BIND_GROUP_LAYOUT, h.id, err);
}
WGPUPipelineLayout kiln_resources_pipeline_layout_raw(const kiln_resources *res, kiln_pipeline_layout h, kiln_error *err) {
    return object_raw(res, KILN_POOL_PIPELINE_LAYOUT, h.id, err);
}
WGPUBindGroup kiln_resources_bind_group_raw(const kiln_resources *res, kiln_bind_group h, kiln_error *err) {
    return object_raw(res, KILN_POOL_BIND_GROUP, h.id, err);
}
WGPURenderPipeline kiln_resources_render_pipeline_raw(const kiln_resources *res, kiln_render_pipeline h, kiln_error *err) {
    return object_raw(res, KILN_POOL_RENDER_PIPELINE, h.id, err);
}
WGPUComputePipeline kiln_resources_compute_pipeline_raw(const kiln_resources *res, kiln_compute_pipeline h,
                                                  kiln_error *err) {
    return object_raw(res, KILN_POOL_COMPUTE_PIPELINE, h.id, err);
}

/* --- adoption ------------------------------------------------------------------------------------ */

kiln_shader kiln_resources_adopt_shader(kiln_resources *res, WGPUShaderModule module, const char *label, kiln_error *err) {
    return (kiln_shader){adopt(res, KILN_POOL_SHADER, module, label, err)};
}
kiln_render_pipeline kiln_resources_adopt_render_pipeline(kiln_resources *res, WGPURenderPipeline p, kiln_error *err) {
    return (kiln_render_pipeline){adopt(res, KILN_POOL_RENDER_PIPELINE, p, NULL, err)};
}
kiln_compute_pipeline kiln_resources_adopt_compute_pipeline(kiln_resources *res, WGPUComputePipeline p, kiln_error *err) {
    return (kiln_compute_pipeline){adopt(res, KILN_POOL_COMPUTE_PIPELINE, p, NULL, err)};
}
bool kiln_resources_replace_shader(kiln_resources *res, kiln_shader h, WGPUShaderModule module, kiln_error *err) {
    return replace(res, KILN_POOL_SHADER, h.id, module, err);
}
bool kiln_resources_replace_render_pipeline(kiln_resources *res, kiln_render_pipeline h, WGPURenderPipeline p,
                                      kiln_error *err) {
    return replace(res, KILN_POOL_RENDER_PIPELINE, h.id, p, err);
}
bool kiln_resources_replace_compute_pipeline(kiln_resources *res, kiln_compute_pipeline h, WGPUComputePipeline p,
                                       kiln_error *err) {
    return replace(res, KILN_POOL_COMPUTE_PIPELINE, h.id, p, err);
}

uint32_t kiln_resources_adopt_object(kiln_resources *res, int pool, void *raw, const char *label, kiln_error *err) {
    return adopt(res, pool, raw, label, err);
}

/* --- uploads ------------------------------------------------------------------------------------- */

bool kiln_resources_write_buffer(kiln_resources *res, kiln_buffer h, uint64_t offset, const void *data, size_t size,
                           kiln_error *err) {
    kiln_buffer_entry *e = kiln_resources_lookup(res, KILN_POOL_BUFFER, h.id, err);
    if (!e) return false;
    if (offset > e->size || size > e->size - offset)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "write_buffer: %zu bytes at offset %llu exceed buffer 0x%08x of %llu bytes", size,
                              (unsigned long long)offset, h.id, (unsigned long long)e->size);
    if (size % 4 || offset % 4)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "write_buffer: offset %llu and size %zu must be multiples of 4", (unsigned long long)offset,
                              size);
    kiln_gfx_scope_due(res->gfx);
    if (size) wgpuQueueWriteBuffer(res->gfx->queue, e->raw, offset, data, size);
    return true;
}

bool kiln_resources_write_texture(kiln_resources *res, kiln_texture h, uint32_t mip, uint32_t layer, const void *data,
                            size_t size, uint32_t bytes_per_row, uint32_t width, uint32_t height, kiln_error *err) {
    kiln_texture_entry *e = kiln_resources_lookup(res, KILN_POOL_TEXTURE, h.id, err);
    if (!e) return false;
    const kiln_texture_desc *d = &e->desc;
    uint32_t mw = d->width >> mip, mh = d->height >> mip;
    if (!mw) mw = 1;
    if (!mh) mh = 1;
    if (mip >= d->mip_levels || layer >= d->depth_or_layers || width > mw || height > mh)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "write_texture: %ux%u at mip %u layer %u does not fit texture 0x%08x (%ux%u, %u mips, %u layers)",
                              width, height, mip, layer, h.id, d->width, d->height, d->mip_levels, d->depth_or_layers);
    if ((uint64_t)bytes_per_row * height > size)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "write_texture: %zu bytes given, %llu needed (%u rows of %u bytes)", size,
                              (unsigned long long)bytes_per_row * height, height, bytes_per_row);
    WGPUTexelCopyTextureInfo dst = {.texture = e->raw, .mipLevel = mip, .origin = {0, 0, layer},
                                    .aspect = WGPUTextureAspect_All};
    WGPUTexelCopyBufferLayout layout = {.offset = 0, .bytesPerRow = bytes_per_row, .rowsPerImage = height};
    WGPUExtent3D extent = {width, height, 1};
    kiln_gfx_scope_due(res->gfx);
    wgpuQueueWriteTexture(res->gfx->queue, &dst, data, size, &layout, &extent);
    return true;
}
