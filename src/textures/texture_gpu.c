/* The GPU side of registry textures: a texture and its view are created at the first sync or the
 * first time something asks for them, filled from the CPU copy, and refilled whenever the CPU copy
 * changed since (the pending flag). Arrays and volumes have their own files and share the creation
 * here. Readback of a Writable texture, which a program may have rendered into, also
 * lives here. Everything goes through kiln_resources, so live counts and the leak report see it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "texture_internal.h"

static WGPUTextureUsage usage_of(const kiln_texture_info *info) {
    WGPUTextureUsage u = WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst | WGPUTextureUsage_CopySrc;
    if (info->usage == KILN_USAGE_WRITABLE) u |= WGPUTextureUsage_RenderAttachment;
    return u;
}

/* writeTexture, unlike a buffer copy, has no 256-byte row rule, so the CPU copy goes up as is:
 * the base level, then each level of the mip chain (only Rgba8 formats, 4 bytes a texel, have one). */
static bool upload(kiln_texture_registry *reg, texture_entry *e, kiln_error *err) {
    uint32_t w = e->info.width, h = e->info.height, bytes = kiln_texture_format_bytes(e->info.format);
    const uint8_t *level = e->pixels;
    for (uint32_t mip = 0; mip < e->info.mip_levels; mip++) {
        if (!kiln_resources_write_texture(reg->res, e->gpu, mip, 0, level, (size_t)w * h * bytes, w * bytes, w, h, err))
            return false;
        level = mip == 0 ? e->mips : level + (size_t)w * h * bytes;
        w = w > 1 ? w / 2 : 1, h = h > 1 ? h / 2 : 1;
    }
    e->pending = false;
    reg->pending_count--;
    reg->stats.uploads++;
    return true;
}

bool texture_gpu_create(kiln_texture_registry *reg, texture_entry *e, kiln_texture_desc desc,
                        WGPUTextureViewDimension view_dimension, kiln_error *err) {
    char label[48];
    snprintf(label, sizeof label, "registry %s %u", e->info.kind == KILN_TEXTURE_ARRAY    ? "texture array"
                                                    : e->info.kind == KILN_TEXTURE_VOLUME ? "volume"
                                                                                          : "texture",
             e->id);
    desc.label = label;
    kiln_texture tex = kiln_resources_create_texture(reg->res, &desc, err);
    if (!tex.id) return false;
    kiln_texture_view_desc view_desc = {.label = label, .dimension = view_dimension};
    kiln_texture_view view = kiln_resources_create_texture_view(reg->res, tex, &view_desc, err);
    if (!view.id) {
        kiln_resources_destroy_texture(reg->res, tex, NULL);
        return false;
    }
    e->gpu = tex;
    e->view = view;
    reg->stats.realizations++;
    return true;
}

static bool realize(kiln_texture_registry *reg, texture_entry *e, kiln_error *err) {
    kiln_texture_desc desc = {.width = e->info.width, .height = e->info.height, .mip_levels = e->info.mip_levels,
                              .format = kiln_texture_format_wgpu(e->info.format), .usage = usage_of(&e->info)};
    if (!texture_gpu_create(reg, e, desc, WGPUTextureViewDimension_Undefined, err)) return false;
    if (upload(reg, e, err)) return true;
    texture_gpu_release(reg, e);
    return false;
}

bool texture_gpu_ensure(kiln_texture_registry *reg, texture_entry *e, kiln_error *err) {
    if (e->info.kind == KILN_TEXTURE_ARRAY) return texture_array_ensure(reg, e, err);
    if (e->info.kind == KILN_TEXTURE_VOLUME) return texture_volume_ensure(reg, e, err);
    if (!e->gpu.id) return realize(reg, e, err);
    return !e->pending || upload(reg, e, err);
}

/* One pass over the ids, only when something is pending: a steady frame costs two comparisons
 * (plain textures, then the array queue). A failure stops the pass; what is still pending is
 * retried at the next sync. */
bool kiln_texture_registry_sync(kiln_texture_registry *reg, kiln_error *err) {
    for (uint32_t i = 0; reg->pending_count && i < reg->count; i++) {
        texture_entry *e = reg->entries[i];
        kiln_error cause = {0};
        if (e && e->pending && !texture_gpu_ensure(reg, e, &cause))
            return kiln_error_set(err, cause.code, "texture registry sync: texture %u: %s", e->id, cause.message);
    }
    return !reg->queued_layers || texture_arrays_sync(reg, err);
}

kiln_texture_registry_stats kiln_texture_registry_get_stats(const kiln_texture_registry *reg) {
    return reg->stats;
}

void texture_gpu_release(kiln_texture_registry *reg, texture_entry *e) {
    if (e->view.id) kiln_resources_destroy_texture_view(reg->res, e->view, NULL);
    if (e->gpu.id) kiln_resources_destroy_texture(reg->res, e->gpu, NULL);
    e->view = (kiln_texture_view){0};
    e->gpu = (kiln_texture){0};
}

/* Copies into a MapRead buffer (rows padded to 256 bytes, as buffer copies require), waits, and
 * strips the padding so the caller gets the same tight layout as the CPU copy. */
bool texture_gpu_read(kiln_texture_registry *reg, texture_entry *e, uint8_t *out, kiln_error *err) {
    uint32_t w = e->info.width, h = e->info.height;
    uint32_t tight = w * kiln_texture_format_bytes(e->info.format);
    uint32_t padded = kiln_gfx_aligned_bytes_per_row(tight);
    kiln_buffer_desc bd = {.label = "registry texture readback", .size = (uint64_t)padded * h,
                           .usage = WGPUBufferUsage_CopyDst | WGPUBufferUsage_MapRead};
    kiln_buffer staging = kiln_resources_create_buffer(reg->res, &bd, err);
    if (!staging.id) return false;
    uint8_t *bytes = malloc(bd.size);
    bool ok = bytes != NULL;
    if (!ok) kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "read_texture %u: out of memory", e->id);
    kiln_encoder enc = {0};
    ok = ok && kiln_encoder_begin(&enc, reg->res, "registry texture readback", err);
    if (ok && !kiln_encoder_copy_texture_to_buffer(&enc, kiln_resources_texture_raw(reg->res, e->gpu, NULL), 0, staging,
                                                   padded, w, h, err)) {
        kiln_encoder_discard(&enc);
        ok = false;
    }
    ok = ok && kiln_encoder_finish_and_submit(&enc, err) &&
         kiln_gfx_wait_for_queue(kiln_resources_gfx(reg->res), err) &&
         kiln_resources_read_buffer(reg->res, staging, 0, bytes, bd.size, err);
    if (ok)
        for (uint32_t y = 0; y < h; y++) memcpy(out + (size_t)y * tight, bytes + (size_t)y * padded, tight);
    free(bytes);
    kiln_resources_destroy_buffer(reg->res, staging, NULL);
    return ok;
}

WGPUTexture kiln_texture_registry_gpu_texture(kiln_texture_registry *reg, uint32_t id, kiln_error *err) {
    texture_entry *e = texture_registry_lookup(reg, id, err);
    if (!e || !texture_gpu_ensure(reg, e, err)) return NULL;
    return kiln_resources_texture_raw(reg->res, e->gpu, err);
}

WGPUTextureView kiln_texture_registry_gpu_view(kiln_texture_registry *reg, uint32_t id, kiln_error *err) {
    texture_entry *e = texture_registry_lookup(reg, id, err);
    if (!e || !texture_gpu_ensure(reg, e, err)) return NULL;
    return kiln_resources_texture_view_raw(reg->res, e->view, err);
}

kiln_texture_view kiln_texture_registry_view_handle(kiln_texture_registry *reg, uint32_t id, kiln_error *err) {
    texture_entry *e = texture_registry_lookup(reg, id, err);
    if (!e || !texture_gpu_ensure(reg, e, err)) return (kiln_texture_view){0};
    return e->view;
}
