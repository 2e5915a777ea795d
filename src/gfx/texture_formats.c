/* What gfx knows of the WGPU texture formats kiln uses: one row each, so "is it sRGB", "is it
 * BGRA" and "how many bytes a texel" are answered in one place for every layer above (the
 * renderer's output check, the swapchain's choice, readback, the viewer). A format with no row
 * answers 0 and false. */
#include "gfx_internal.h"

typedef struct format_row {
    WGPUTextureFormat format;
    uint32_t texel_size;     /* bytes per texel in a copy */
    bool srgb;               /* stores sRGB-encoded 8-bit colour, encoded and decoded by the hardware */
    bool unorm8;             /* a four-channel 8-bit unorm colour format that stores values as written */
    bool bgra;               /* bytes in B, G, R, A order */
} format_row;

static const format_row FORMATS[] = {
    {WGPUTextureFormat_R8Unorm, 1, false, false, false},
    {WGPUTextureFormat_R16Float, 2, false, false, false},
    {WGPUTextureFormat_R32Float, 4, false, false, false},
    {WGPUTextureFormat_R32Uint, 4, false, false, false},
    {WGPUTextureFormat_RGBA8Unorm, 4, false, true, false},
    {WGPUTextureFormat_RGBA8UnormSrgb, 4, true, false, false},
    {WGPUTextureFormat_BGRA8Unorm, 4, false, true, true},
    {WGPUTextureFormat_BGRA8UnormSrgb, 4, true, false, true},
    {WGPUTextureFormat_RGBA16Float, 8, false, false, false},
    {WGPUTextureFormat_RGBA32Float, 16, false, false, false},
};

static const format_row *row_of(WGPUTextureFormat format) {
    for (size_t i = 0; i < sizeof FORMATS / sizeof FORMATS[0]; i++)
        if (FORMATS[i].format == format) return &FORMATS[i];
    return NULL;
}

uint32_t kiln_gfx_format_texel_size(WGPUTextureFormat format) {
    const format_row *r = row_of(format);
    return r ? r->texel_size : 0;
}

bool kiln_gfx_format_is_srgb(WGPUTextureFormat format) {
    const format_row *r = row_of(format);
    return r && r->srgb;
}

bool kiln_gfx_format_is_unorm8(WGPUTextureFormat format) {
    const format_row *r = row_of(format);
    return r && r->unorm8;
}

bool kiln_gfx_format_is_bgra(WGPUTextureFormat format) {
    const format_row *r = row_of(format);
    return r && r->bgra;
}
