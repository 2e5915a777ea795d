/* kiln/textures/image_upload.h: an RGBA8 image straight to a GPU texture, outside the registry,
 * with a full mip chain built on the CPU; and the mip arithmetic the registry's mip chains share.
 *
 * Ownership: a kiln_gpu_texture owns its texture and view (in kiln_resources). */
#ifndef KILN_TEXTURES_IMAGE_UPLOAD_H
#define KILN_TEXTURES_IMAGE_UPLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include <kiln/gfx.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Number of mip levels of a full chain for width x height: floor(log2(max(w, h))) + 1. */
uint32_t kiln_mip_count(uint32_t width, uint32_t height);

typedef struct kiln_gpu_texture {
    kiln_texture texture;
    kiln_texture_view view;
    uint32_t width, height, mip_levels;
} kiln_gpu_texture;

/* Uploads an RGBA8 image (as RGBA8UnormSrgb when srgb, else RGBA8Unorm), with a full mip chain
 * built on the CPU by 2x2 box filtering (in linear light for sRGB images) when mips is true.
 * Refuses any other image format, naming the label. */
bool kiln_upload_image(kiln_resources *res, const char *label, const kiln_image *img, bool srgb, bool mips,
                       kiln_gpu_texture *out, kiln_error *err);
void kiln_gpu_texture_destroy(kiln_resources *res, kiln_gpu_texture *t);

#ifdef __cplusplus
}
#endif

#endif
