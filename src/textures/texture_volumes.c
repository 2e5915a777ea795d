/* Volume textures: width x height x depth texels of one format, given whole at create and never
 * written again. The blob the caller gave is copied and kept as the source of truth; the GPU
 * texture is created, and the blob uploaded slice by slice, at the first use of its view (the
 * first dispatch that binds it), and again from the blob after a device replacement. */
#include <stdlib.h>
#include <string.h>

#include "texture_internal.h"

/* Each rejection names the value at fault; runs before anything is allocated or numbered. The
 * size limit is a constant (max_texture_dimension_3d at its default), so no device is read. */
static bool validate_volume(const kiln_texture_volume_desc *d, kiln_error *err) {
    if (!d) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "create_texture_volume: desc is NULL");
    const struct {
        const char *name;
        uint32_t value;
    } dims[] = {{"width", d->width}, {"height", d->height}, {"depth", d->depth}};
    for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++)
        if (dims[i].value == 0 || dims[i].value > KILN_TEXTURE_VOLUME_MAX_DIMENSION)
            return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                                  "create_texture_volume: %s %u is outside 1..%u (max_texture_dimension_3d at its default)",
                                  dims[i].name, dims[i].value, KILN_TEXTURE_VOLUME_MAX_DIMENSION);
    if ((unsigned)d->format >= KILN_FORMAT_COUNT)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "create_texture_volume: unknown format %d", (int)d->format);
    uint64_t expected = (uint64_t)d->width * d->height * d->depth * kiln_texture_format_bytes(d->format);
    if (!d->pixels || d->pixels_size != expected)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "create_texture_volume: pixels hold %zu bytes, expected %llu (%ux%ux%u %s, every slice, "
                              "slice 0 first)", d->pixels ? d->pixels_size : 0, (unsigned long long)expected, d->width,
                              d->height, d->depth, kiln_texture_format_name(d->format));
    return true;
}

uint32_t kiln_texture_registry_add_volume(kiln_texture_registry *reg, const kiln_texture_volume_desc *desc,
                                          kiln_error *err) {
    if (!validate_volume(desc, err) || !texture_registry_reserve(reg, "create_texture_volume", err)) return 0;
    texture_entry *e = calloc(1, sizeof *e);
    uint8_t *pixels = malloc(desc->pixels_size);
    if (!e || !pixels) {
        free(e), free(pixels);
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "create_texture_volume: out of memory for %zu bytes of pixels",
                       desc->pixels_size);
        return 0;
    }
    memcpy(pixels, desc->pixels, desc->pixels_size);
    e->info = (kiln_texture_info){
        .kind = KILN_TEXTURE_VOLUME, .format = desc->format, .width = desc->width, .height = desc->height,
        .layers = desc->depth, .mip_levels = 1, .usage = KILN_USAGE_SAMPLED,
        .sampling = kiln_texture_format_filterable(desc->format) ? KILN_SAMPLING_LINEAR : KILN_SAMPLING_NEAREST};
    e->pixels = pixels;
    e->pixels_size = desc->pixels_size;
    texture_registry_insert(reg, e);
    return e->id;
}

bool texture_volume_ensure(kiln_texture_registry *reg, texture_entry *e, kiln_error *err) {
    if (e->gpu.id) return true;
    uint32_t w = e->info.width, h = e->info.height, bytes = kiln_texture_format_bytes(e->info.format);
    kiln_texture_desc desc = {
        .width = w, .height = h, .depth_or_layers = e->info.layers, .format = kiln_texture_format_wgpu(e->info.format),
        .usage = WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst | WGPUTextureUsage_CopySrc,
        .dimension = WGPUTextureDimension_3D};
    if (!texture_gpu_create(reg, e, desc, WGPUTextureViewDimension_3D, err)) return false;
    size_t slice = (size_t)w * h * bytes;
    for (uint32_t z = 0; z < e->info.layers; z++)
        if (!kiln_resources_write_texture(reg->res, e->gpu, 0, z, e->pixels + z * slice, slice, w * bytes, w, h, err)) {
            texture_gpu_release(reg, e);
            return false;
        }
    reg->stats.uploads++;
    return true;
}
