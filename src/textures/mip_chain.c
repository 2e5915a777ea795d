/* CPU mip chains of RGBA8 images: each level is the previous one halved by a 2x2 box filter (edge
 * texels repeat for odd sizes). sRGB-format images are averaged in linear light, since averaging encoded
 * values darkens every edge between light and dark; alpha is always linear. */
#include <kiln/core/color.h>

#include "texture_internal.h"

uint32_t kiln_mip_count(uint32_t width, uint32_t height) {
    uint32_t largest = width > height ? width : height, levels = 1;
    while (largest > 1) largest >>= 1, levels++;
    return levels;
}

static uint32_t halved(uint32_t size) { return size > 1 ? size / 2 : 1; }

size_t texture_mip_chain_bytes(uint32_t width, uint32_t height, uint32_t levels) {
    size_t bytes = 0;
    for (uint32_t mip = 1; mip < levels; mip++) {
        width = halved(width), height = halved(height);
        bytes += (size_t)width * height * 4;
    }
    return bytes;
}

static void downsample(const uint8_t *src, uint32_t sw, uint32_t sh, uint8_t *dst, uint32_t dw, uint32_t dh, bool srgb) {
    for (uint32_t y = 0; y < dh; y++)
        for (uint32_t x = 0; x < dw; x++)
            for (int c = 0; c < 4; c++) {
                float sum = 0;
                for (uint32_t dy = 0; dy < 2; dy++)
                    for (uint32_t dx = 0; dx < 2; dx++) {
                        uint32_t sx = 2 * x + dx < sw ? 2 * x + dx : sw - 1, sy = 2 * y + dy < sh ? 2 * y + dy : sh - 1;
                        float v = src[((size_t)sy * sw + sx) * 4 + c] / 255.0f;
                        sum += (srgb && c < 3) ? kiln_srgb_to_linear(v) : v;
                    }
                float avg = sum * 0.25f;
                if (srgb && c < 3) avg = kiln_linear_to_srgb(avg);
                dst[((size_t)y * dw + x) * 4 + c] = kiln_unorm8_from_float(avg);
            }
}

void texture_mip_chain_build(const uint8_t *base, uint32_t width, uint32_t height, uint32_t levels,
                             kiln_texture_format format, uint8_t *chain) {
    bool srgb = kiln_gfx_format_is_srgb(kiln_texture_format_wgpu(format));
    const uint8_t *level = base;
    for (uint32_t mip = 1; mip < levels; mip++) {
        uint32_t w = halved(width), h = halved(height);
        downsample(level, width, height, chain, w, h, srgb);
        level = chain, chain += (size_t)w * h * 4;
        width = w, height = h;
    }
}
