/* Mip counts, the registry's CPU-built mip chains on the GPU, and the format and usage rules for
 * them. */
#include <kiln/textures.h>

#include "gfx_fixture.h"

TEST(mip_counts_cover_the_whole_chain) {
    CHECK_EQ_INT(kiln_mip_count(1, 1), 1);
    CHECK_EQ_INT(kiln_mip_count(256, 128), 9);
    CHECK_EQ_INT(kiln_mip_count(5, 3), 3);
    CHECK_EQ_INT(kiln_mip_count(1, 1024), 11);
}

TEST(a_registry_texture_with_mips_has_the_full_chain_and_reads_back_its_base) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_texture_registry *reg = kiln_texture_registry_create(f.res, &err);
    uint8_t pixels[8 * 4 * 4];
    for (size_t i = 0; i < sizeof pixels; i++) pixels[i] = (uint8_t)(i * 7);
    uint32_t id = kiln_texture_registry_add(reg, &(kiln_texture_create_desc){.format = KILN_FORMAT_RGBA8_SRGB, .width = 8,
                                       .height = 4, .pixels = pixels, .pixels_size = sizeof pixels, .mips = true}, &err);
    CHECK_MSG(id, "%s", err.message);
    uint32_t levels = kiln_texture_registry_info(reg, id)->mip_levels;
    WGPUTexture gpu = kiln_texture_registry_gpu_texture(reg, id, &err);
    uint32_t on_gpu = gpu ? wgpuTextureGetMipLevelCount(gpu) : 0;
    WGPUTextureFormat format = gpu ? wgpuTextureGetFormat(gpu) : WGPUTextureFormat_Undefined;
    void *back = NULL;
    size_t size = 0;
    CHECK_MSG(kiln_texture_registry_read(reg, id, &back, &size, &err), "%s", err.message);
    bool same = size == sizeof pixels && memcmp(back, pixels, size) == 0;
    free(back);
    kiln_texture_registry_destroy(reg);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK_EQ_INT(levels, 4);
    CHECK_EQ_INT(on_gpu, 4);
    CHECK_EQ_INT(format, WGPUTextureFormat_RGBA8UnormSrgb);
    CHECK(same);
}

TEST(mips_are_refused_where_they_cannot_be_built_or_kept) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_texture_registry *reg = kiln_texture_registry_create(f.res, &err);
    uint32_t next = kiln_texture_registry_next_id(reg);
    kiln_error float_err = {0}, writable_err = {0};
    uint32_t a = kiln_texture_registry_add(reg, &(kiln_texture_create_desc){.format = KILN_FORMAT_R16_FLOAT, .width = 2,
                                      .height = 2, .mips = true}, &float_err);
    uint32_t b = kiln_texture_registry_add(reg, &(kiln_texture_create_desc){.format = KILN_FORMAT_RGBA8, .width = 2, .height = 2,
                                      .usage = KILN_USAGE_WRITABLE, .mips = true}, &writable_err);
    uint32_t next_after = kiln_texture_registry_next_id(reg);
    kiln_texture_registry_destroy(reg);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK_EQ_INT(a, 0);
    CHECK_EQ_INT(b, 0);
    CHECK_EQ_INT(next_after, next);
    CHECK_STR_CONTAINS(float_err.message, "create_texture: mips are built for Rgba8 and Rgba8Srgb textures, not R16Float");
    CHECK_STR_CONTAINS(writable_err.message, "create_texture: a Writable texture cannot have mips");
}

TEST_MAIN(T(mip_counts_cover_the_whole_chain), T(a_registry_texture_with_mips_has_the_full_chain_and_reads_back_its_base),
          T(mips_are_refused_where_they_cannot_be_built_or_kept))
