/* kiln_upload_image: an RGBA8 image and its CPU-built mip chain (mip_chain.c) to a GPU texture
 * outside the registry. */
#include <stdlib.h>

#include <kiln/textures/image_upload.h>

#include "texture_internal.h"

static bool write_levels(kiln_resources *res, kiln_texture tex, const kiln_image *img, const uint8_t *chain,
                         uint32_t levels, kiln_error *err) {
    const uint8_t *level = img->pixels;
    uint32_t w = img->width, h = img->height;
    for (uint32_t mip = 0; mip < levels; mip++) {
        if (!kiln_resources_write_texture(res, tex, mip, 0, level, (size_t)w * h * 4, w * 4, w, h, err)) return false;
        level = mip == 0 ? chain : level + (size_t)w * h * 4;
        w = w > 1 ? w / 2 : 1, h = h > 1 ? h / 2 : 1;
    }
    return true;
}

bool kiln_upload_image(kiln_resources *res, const char *label, const kiln_image *img, bool srgb, bool mips,
                       kiln_gpu_texture *out, kiln_error *err) {
    *out = (kiln_gpu_texture){0};
    if (img->format != KILN_IMAGE_RGBA8)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "upload_image '%s': only RGBA8 images are uploaded",
                              label ? label : "");
    uint32_t levels = mips ? kiln_mip_count(img->width, img->height) : 1;
    uint8_t *chain = NULL;
    if (levels > 1) {
        chain = malloc(texture_mip_chain_bytes(img->width, img->height, levels));
        if (!chain)
            return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "upload_image '%s': out of memory for mips",
                                  label ? label : "");
        texture_mip_chain_build(img->pixels, img->width, img->height, levels, srgb, chain);
    }
    kiln_texture_desc td = {.label = label, .width = img->width, .height = img->height, .mip_levels = levels,
                            .format = srgb ? WGPUTextureFormat_RGBA8UnormSrgb : WGPUTextureFormat_RGBA8Unorm,
                            .usage = WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst};
    out->texture = kiln_resources_create_texture(res, &td, err);
    bool ok = out->texture.id && write_levels(res, out->texture, img, chain, levels, err);
    free(chain);
    if (ok) {
        out->view = kiln_resources_create_texture_view(res, out->texture, NULL, err);
        ok = out->view.id != 0;
    }
    if (!ok) {
        kiln_gpu_texture_destroy(res, out);
        return false;
    }
    out->width = img->width, out->height = img->height, out->mip_levels = levels;
    return true;
}

void kiln_gpu_texture_destroy(kiln_resources *res, kiln_gpu_texture *t) {
    if (t->view.id) kiln_resources_destroy_texture_view(res, t->view, NULL);
    if (t->texture.id) kiln_resources_destroy_texture(res, t->texture, NULL);
    *t = (kiln_gpu_texture){0};
}
