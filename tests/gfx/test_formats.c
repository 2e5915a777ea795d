/* The format table of gfx (texture_formats.c): the one answer to "is it sRGB", "is it 8-bit
 * unorm", "is it BGRA" and "how many bytes a texel" that the renderer, the swapchain, readback
 * and the viewer all ask. No device needed. */
#include <kiln/gfx.h>

#include "test.h"

TEST(the_two_srgb_formats_are_srgb_and_nothing_else_is) {
    CHECK(kiln_gfx_format_is_srgb(WGPUTextureFormat_RGBA8UnormSrgb));
    CHECK(kiln_gfx_format_is_srgb(WGPUTextureFormat_BGRA8UnormSrgb));
    CHECK(!kiln_gfx_format_is_srgb(WGPUTextureFormat_RGBA8Unorm));
    CHECK(!kiln_gfx_format_is_srgb(WGPUTextureFormat_BGRA8Unorm));
    CHECK(!kiln_gfx_format_is_srgb(WGPUTextureFormat_RGBA16Float));
    CHECK(!kiln_gfx_format_is_srgb(WGPUTextureFormat_Undefined));
}

TEST(unorm8_is_the_colour_formats_stored_as_written) {
    CHECK(kiln_gfx_format_is_unorm8(WGPUTextureFormat_RGBA8Unorm));
    CHECK(kiln_gfx_format_is_unorm8(WGPUTextureFormat_BGRA8Unorm));
    CHECK(!kiln_gfx_format_is_unorm8(WGPUTextureFormat_RGBA8UnormSrgb));
    CHECK(!kiln_gfx_format_is_unorm8(WGPUTextureFormat_R8Unorm));
}

TEST(bgra_is_the_byte_order_not_the_encoding) {
    CHECK(kiln_gfx_format_is_bgra(WGPUTextureFormat_BGRA8Unorm));
    CHECK(kiln_gfx_format_is_bgra(WGPUTextureFormat_BGRA8UnormSrgb));
    CHECK(!kiln_gfx_format_is_bgra(WGPUTextureFormat_RGBA8UnormSrgb));
}

TEST(texel_sizes_and_zero_for_a_format_readback_does_not_handle) {
    CHECK_EQ_INT(kiln_gfx_format_texel_size(WGPUTextureFormat_R8Unorm), 1);
    CHECK_EQ_INT(kiln_gfx_format_texel_size(WGPUTextureFormat_BGRA8UnormSrgb), 4);
    CHECK_EQ_INT(kiln_gfx_format_texel_size(WGPUTextureFormat_RGBA16Float), 8);
    CHECK_EQ_INT(kiln_gfx_format_texel_size(WGPUTextureFormat_RGBA32Float), 16);
    CHECK_EQ_INT(kiln_gfx_format_texel_size(WGPUTextureFormat_Depth32Float), 0);
}

TEST_MAIN(T(the_two_srgb_formats_are_srgb_and_nothing_else_is), T(unorm8_is_the_colour_formats_stored_as_written),
          T(bgra_is_the_byte_order_not_the_encoding), T(texel_sizes_and_zero_for_a_format_readback_does_not_handle))
