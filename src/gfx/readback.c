/* Blocking readback for tests, tools and shutdown: queue idle, buffer mapping, texture reads. */
#include <stdlib.h>
#include <string.h>

#include "gfx_internal.h"

typedef struct status_request {
    uint32_t status;
    char message[512];
} status_request;

static void on_work_done(WGPUQueueWorkDoneStatus status, WGPUStringView message, void *ud1, void *ud2) {
    (void)ud2;
    status_request *r = ud1;
    r->status = status;
    kiln_sv_copy(message, r->message, sizeof r->message);
}

static void on_mapped(WGPUMapAsyncStatus status, WGPUStringView message, void *ud1, void *ud2) {
    (void)ud2;
    status_request *r = ud1;
    r->status = status;
    kiln_sv_copy(message, r->message, sizeof r->message);
}

bool kiln_gfx_wait_for_queue(kiln_gfx *gfx, kiln_error *err) {
    status_request req = {0};
    WGPUQueueWorkDoneCallbackInfo cb = {.mode = WGPUCallbackMode_WaitAnyOnly, .callback = on_work_done, .userdata1 = &req};
    kiln_gfx_scope_due(gfx);
    WGPUFuture f = wgpuQueueOnSubmittedWorkDone(gfx->queue, cb);
    if (!kiln_gfx_await_gpu(gfx, f, "the queue to finish", err)) return false;
    if (req.status != WGPUQueueWorkDoneStatus_Success)
        return kiln_error_set(err, KILN_ERR_GPU, "queue work failed (status %u): %s", req.status, req.message);
    return true;
}

bool kiln_resources_read_buffer(kiln_resources *res, kiln_buffer b, uint64_t offset, void *dst, size_t size, kiln_error *err) {
    WGPUBuffer raw = kiln_resources_buffer_raw(res, b, err);
    if (!raw) return false;
    uint64_t total = kiln_resources_buffer_size(res, b);
    if (offset > total || size > total - offset)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "read_buffer: %zu bytes at %llu exceed buffer of %llu", size,
                              (unsigned long long)offset, (unsigned long long)total);
    status_request req = {0};
    WGPUBufferMapCallbackInfo cb = {.mode = WGPUCallbackMode_WaitAnyOnly, .callback = on_mapped, .userdata1 = &req};
    kiln_gfx_scope_due(res->gfx);
    WGPUFuture f = wgpuBufferMapAsync(raw, WGPUMapMode_Read, (size_t)offset, size, cb);
    if (!kiln_gfx_await_gpu(res->gfx, f, "a buffer map", err)) return false;
    if (req.status != WGPUMapAsyncStatus_Success)
        return kiln_error_set(err, KILN_ERR_GPU, "mapping buffer 0x%08x failed (status %u): %s", b.id, req.status, req.message);
    const void *mapped = wgpuBufferGetConstMappedRange(raw, (size_t)offset, size);
    if (!mapped) {
        wgpuBufferUnmap(raw);
        return kiln_error_set(err, KILN_ERR_GPU, "buffer 0x%08x mapped but has no mapped range", b.id);
    }
    memcpy(dst, mapped, size);
    wgpuBufferUnmap(raw);
    return true;
}

/* Converts one row of texels of `format` into the image's row. */
static void convert_row(WGPUTextureFormat format, const uint8_t *src, kiln_image *img, uint32_t y) {
    size_t px = kiln_image_pixel_size(img->format);
    uint8_t *dst = (uint8_t *)img->pixels + (size_t)y * img->width * px;
    uint32_t w = img->width;
    switch (format) {
    case WGPUTextureFormat_R8Unorm:
        for (uint32_t x = 0; x < w; x++) dst[4 * x] = src[x], dst[4 * x + 1] = 0, dst[4 * x + 2] = 0, dst[4 * x + 3] = 255;
        break;
    case WGPUTextureFormat_R16Float: {
        float *f = (float *)dst;
        for (uint32_t x = 0; x < w; x++) {
            uint16_t h;
            memcpy(&h, src + 2 * x, 2);
            f[4 * x] = kiln_half_to_float(h), f[4 * x + 1] = 0, f[4 * x + 2] = 0, f[4 * x + 3] = 1;
        }
        break;
    }
    case WGPUTextureFormat_R32Float: {
        float *f = (float *)dst;
        for (uint32_t x = 0; x < w; x++) {
            memcpy(&f[4 * x], src + 4 * x, 4);
            f[4 * x + 1] = 0, f[4 * x + 2] = 0, f[4 * x + 3] = 1;
        }
        break;
    }
    default: memcpy(dst, src, (size_t)w * px); break;
    }
}

bool kiln_resources_read_texture(kiln_resources *res, WGPUTexture texture, kiln_image *out, kiln_error *err) {
    return kiln_resources_read_texture_level(res, texture, 0, 0, out, err);
}

/* One level and layer of a texture copied into a new buffer of `row`-byte rows (*bytes, malloc'd),
 * submitted and waited on. */
static bool read_level_rows(kiln_resources *res, WGPUTexture texture, uint32_t mip, uint32_t layer, uint32_t texel,
                            uint32_t w, uint32_t h, uint8_t **bytes_out, uint32_t *row_out, kiln_error *err) {
    uint32_t row = kiln_gfx_aligned_bytes_per_row(w * texel);
    kiln_buffer_desc bd = {.label = "readback", .size = (uint64_t)row * h,
                           .usage = WGPUBufferUsage_CopyDst | WGPUBufferUsage_MapRead};
    kiln_buffer staging = kiln_resources_create_buffer(res, &bd, err);
    if (!staging.id) return false;
    uint8_t *bytes = NULL;
    kiln_encoder enc;
    bool ok = kiln_encoder_begin(&enc, res, "read_texture", err);
    if (ok && layer == 0) {
        ok = kiln_encoder_copy_texture_to_buffer(&enc, texture, mip, staging, row, w, h, err);
    } else if (ok) {
        /* The encoder's copy takes layer 0; a later layer is one origin.z away. */
        WGPUTexelCopyTextureInfo s = {.texture = texture, .mipLevel = mip, .origin = {0, 0, layer},
                                      .aspect = WGPUTextureAspect_All};
        WGPUTexelCopyBufferInfo b = {.layout = {.offset = 0, .bytesPerRow = row, .rowsPerImage = h},
                                     .buffer = kiln_resources_buffer_raw(res, staging, NULL)};
        WGPUExtent3D extent = {w, h, 1};
        wgpuCommandEncoderCopyTextureToBuffer(enc.raw, &s, &b, &extent);
    }
    if (!ok) kiln_encoder_discard(&enc);
    ok = ok && kiln_encoder_finish_and_submit(&enc, err) && kiln_gfx_wait_for_queue(res->gfx, err);
    if (ok) {
        bytes = malloc(bd.size);
        ok = bytes ? kiln_resources_read_buffer(res, staging, 0, bytes, bd.size, err)
                   : kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "read_texture: out of memory");
    }
    kiln_resources_destroy_buffer(res, staging, NULL);
    if (!ok) {
        free(bytes);
        return false;
    }
    *bytes_out = bytes;
    *row_out = row;
    return true;
}

bool kiln_resources_read_texture_level(kiln_resources *res, WGPUTexture texture, uint32_t mip, uint32_t layer,
                                       kiln_image *out, kiln_error *err) {
    if (mip >= wgpuTextureGetMipLevelCount(texture) || layer >= wgpuTextureGetDepthOrArrayLayers(texture))
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "read_texture: mip %u layer %u is outside a texture of %u mips and %u layers",
                              mip, layer, wgpuTextureGetMipLevelCount(texture), wgpuTextureGetDepthOrArrayLayers(texture));
    WGPUTextureFormat format = wgpuTextureGetFormat(texture);
    uint32_t texel = kiln_gfx_format_texel_size(format);
    /* Integer texels have no image format to become: kiln_resources_read_texels reads them. */
    if (!texel || format == WGPUTextureFormat_R32Uint)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "read_texture: format 0x%x is not supported", (unsigned)format);
    uint32_t w = wgpuTextureGetWidth(texture) >> mip, h = wgpuTextureGetHeight(texture) >> mip;
    if (w == 0) w = 1;
    if (h == 0) h = 1;
    kiln_image_format img_format = KILN_IMAGE_RGBA8;
    if (format == WGPUTextureFormat_RGBA16Float) img_format = KILN_IMAGE_RGBA16F;
    else if (format == WGPUTextureFormat_RGBA32Float || format == WGPUTextureFormat_R32Float || format == WGPUTextureFormat_R16Float)
        img_format = KILN_IMAGE_RGBA32F;
    uint8_t *bytes = NULL;
    uint32_t row = 0;
    if (!read_level_rows(res, texture, mip, layer, texel, w, h, &bytes, &row, err)) return false;
    bool ok = kiln_image_create(out, w, h, img_format, err);
    if (ok) {
        for (uint32_t y = 0; y < h; y++) convert_row(format, bytes + (size_t)y * row, out, y);
        if (kiln_gfx_format_is_bgra(format)) kiln_image_swap_rb(out);
    }
    free(bytes);
    return ok;
}

bool kiln_resources_read_texels(kiln_resources *res, WGPUTexture texture, void *dst, size_t dst_size, kiln_error *err) {
    WGPUTextureFormat format = wgpuTextureGetFormat(texture);
    uint32_t texel = kiln_gfx_format_texel_size(format);
    if (!texel) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "read_texels: format 0x%x is not supported", (unsigned)format);
    uint32_t w = wgpuTextureGetWidth(texture), h = wgpuTextureGetHeight(texture);
    size_t tight = (size_t)w * texel;
    if (dst_size != tight * h)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "read_texels: %zu bytes given for a %ux%u texture of %u-byte texels (%zu)",
                              dst_size, w, h, texel, tight * h);
    uint8_t *bytes = NULL;
    uint32_t row = 0;
    if (!read_level_rows(res, texture, 0, 0, texel, w, h, &bytes, &row, err)) return false;
    for (uint32_t y = 0; y < h; y++) memcpy((uint8_t *)dst + y * tight, bytes + (size_t)y * row, tight);
    free(bytes);
    return true;
}
