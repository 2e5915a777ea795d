/* Volume textures in the registry: every create refusal with its exact message and no id taken,
 * the bounds accepted, the blob copied at create, the GPU texture made and uploaded only at the
 * first use of the view (never by the sync), every slice read back, and immutability (no path
 * writes a volume after create). */
#include <kiln/core/image.h>
#include <kiln/textures.h>

#include "gfx_fixture.h"

static kiln_texture_volume_desc volume_desc(kiln_texture_format format, uint32_t w, uint32_t h, uint32_t d,
                                            const void *pixels, size_t size) {
    return (kiln_texture_volume_desc){.format = format, .width = w, .height = h, .depth = d, .pixels = pixels,
                                      .pixels_size = size};
}

TEST(every_create_texture_volume_refusal_names_its_value_and_takes_no_id) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_texture_registry *reg = kiln_texture_registry_create(f.res, NULL);
    CHECK(reg != NULL);
    static uint8_t bytes[2 * 2 * 2 * 4];
    const struct {
        kiln_texture_volume_desc desc;
        const char *expected;
    } rows[] = {
        {volume_desc(KILN_FORMAT_RGBA8, 0, 2, 2, bytes, 0),
         "create_texture_volume: width 0 is outside 1..2048 (max_texture_dimension_3d at its default)"},
        {volume_desc(KILN_FORMAT_RGBA8, 2049, 2, 2, bytes, 0),
         "create_texture_volume: width 2049 is outside 1..2048 (max_texture_dimension_3d at its default)"},
        {volume_desc(KILN_FORMAT_RGBA8, 2, 0, 2, bytes, 0),
         "create_texture_volume: height 0 is outside 1..2048 (max_texture_dimension_3d at its default)"},
        {volume_desc(KILN_FORMAT_RGBA8, 2, 2, 2049, bytes, 0),
         "create_texture_volume: depth 2049 is outside 1..2048 (max_texture_dimension_3d at its default)"},
        {volume_desc((kiln_texture_format)42, 2, 2, 2, bytes, sizeof bytes), "create_texture_volume: unknown format 42"},
        {volume_desc(KILN_FORMAT_RGBA8, 2, 2, 2, bytes, sizeof bytes - 1),
         "create_texture_volume: pixels hold 31 bytes, expected 32 (2x2x2 Rgba8, every slice, slice 0 first)"},
        {volume_desc(KILN_FORMAT_R16_FLOAT, 2, 2, 2, bytes, sizeof bytes),
         "create_texture_volume: pixels hold 32 bytes, expected 16 (2x2x2 R16Float, every slice, slice 0 first)"},
        {volume_desc(KILN_FORMAT_R8, 2, 2, 2, NULL, 8),
         "create_texture_volume: pixels hold 0 bytes, expected 8 (2x2x2 R8, every slice, slice 0 first)"},
    };
    uint32_t next = kiln_texture_registry_next_id(reg);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        kiln_error err = {0};
        CHECK_EQ_INT(kiln_texture_registry_add_volume(reg, &rows[i].desc, &err), 0);
        CHECK_EQ_INT(err.code, KILN_ERR_INVALID_ARGUMENT);
        CHECK_MSG(strcmp(err.message, rows[i].expected) == 0, "row %zu: %s", i, err.message);
    }
    kiln_error err = {0};
    CHECK_EQ_INT(kiln_texture_registry_add_volume(reg, NULL, &err), 0);
    CHECK(strcmp(err.message, "create_texture_volume: desc is NULL") == 0);
    CHECK_EQ_INT(kiln_texture_registry_next_id(reg), next);
    /* 2048 is inside the bounds; a 2048 x 1 x 1 volume is created. */
    static uint8_t row[2048];
    kiln_texture_volume_desc widest = volume_desc(KILN_FORMAT_R8, 2048, 1, 1, row, sizeof row);
    CHECK_EQ_INT(kiln_texture_registry_add_volume(reg, &widest, &err), next);
    CHECK(kiln_texture_registry_gpu_view(reg, next, &err) != NULL);
    kiln_texture_registry_destroy(reg);
    FIXTURE_CLOSE_CLEAN(f);
}

TEST(a_volume_goes_up_at_the_first_use_of_its_view_and_never_at_a_sync) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_texture_registry *reg = kiln_texture_registry_create(f.res, NULL);
    uint8_t voxels[3 * 2 * 4 * 4];
    for (size_t i = 0; i < sizeof voxels; i++) voxels[i] = (uint8_t)(i * 5 + 3);
    kiln_texture_volume_desc d = volume_desc(KILN_FORMAT_RGBA8, 3, 2, 4, voxels, sizeof voxels);
    uint32_t id = kiln_texture_registry_add_volume(reg, &d, NULL);
    uint8_t given[sizeof voxels];
    memcpy(given, voxels, sizeof voxels);
    memset(voxels, 0xee, sizeof voxels); /* the registry kept its own copy */
    CHECK(kiln_texture_registry_sync(reg, NULL));
    kiln_texture_registry_stats synced = kiln_texture_registry_get_stats(reg);
    kiln_error err = {0};
    WGPUTexture tex = kiln_texture_registry_gpu_texture(reg, id, &err);
    CHECK_MSG(tex, "%s", err.message);
    kiln_texture_registry_stats used = kiln_texture_registry_get_stats(reg);
    CHECK(kiln_texture_registry_gpu_view(reg, id, NULL) != NULL); /* realized once */
    kiln_texture_registry_stats again = kiln_texture_registry_get_stats(reg);
    bool slices_match = tex != NULL;
    for (uint32_t z = 0; tex && z < 4; z++) {
        kiln_image img = {0};
        CHECK(kiln_resources_read_texture_level(f.res, tex, 0, z, &img, NULL));
        slices_match = slices_match && img.width == 3 && img.height == 2 &&
                       memcmp(img.pixels, given + z * 24, 24) == 0;
        kiln_image_free(&img);
    }
    CHECK(tex && wgpuTextureGetDimension(tex) == WGPUTextureDimension_3D && wgpuTextureGetDepthOrArrayLayers(tex) == 4);
    kiln_texture_registry_destroy(reg);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK(synced.realizations == 0 && synced.uploads == 0);
    CHECK(used.realizations == 1 && used.uploads == 1);
    CHECK(again.realizations == 1 && again.uploads == 1);
    CHECK(slices_match);
}

TEST(no_path_writes_a_volume_after_create) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_texture_registry *reg = kiln_texture_registry_create(f.res, NULL);
    uint8_t voxel[4] = {9, 8, 7, 6};
    kiln_texture_volume_desc d = volume_desc(KILN_FORMAT_RGBA8, 1, 1, 1, voxel, 4);
    uint32_t id = kiln_texture_registry_add_volume(reg, &d, NULL);
    kiln_error update = {0}, layer = {0};
    CHECK(!kiln_texture_registry_update(reg, id, voxel, 4, &update));
    CHECK(!kiln_texture_registry_write_layer(reg, id, 0, voxel, 4, &layer));
    CHECK(strcmp(update.message, "unknown texture id 1 (it names a volume texture)") == 0);
    CHECK(strcmp(layer.message, "write_texture_layer: texture 1 is a volume texture, not a texture array") == 0);
    kiln_texture_registry_destroy(reg);
    FIXTURE_CLOSE_CLEAN(f);
}

TEST_MAIN(T(every_create_texture_volume_refusal_names_its_value_and_takes_no_id),
          T(a_volume_goes_up_at_the_first_use_of_its_view_and_never_at_a_sync), T(no_path_writes_a_volume_after_create))
