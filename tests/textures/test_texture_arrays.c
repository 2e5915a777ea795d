/* Texture arrays in the registry: ids from the shared sequence, every create and write refusal
 * with its exact message and nothing changed, mip chain layers of every level, layers never
 * written reading zero, the upload queue's fixed step (written layers first, then clears), the
 * view uploading every written layer at once, plain-texture paths refusing arrays and volumes by
 * kind, release on remove, and a move to other resources bringing every written layer back. */
#include <kiln/core/image.h>
#include <kiln/textures.h>

#include "gfx_fixture.h"

typedef struct array_env {
    gfx_fixture f;
    kiln_texture_registry *reg;
} array_env;

#define ENV_OPEN(e)                                                                     \
    do {                                                                                \
        FIXTURE_OPEN((e).f);                                                            \
        kiln_error _err = {0};                                                          \
        (e).reg = kiln_texture_registry_create((e).f.res, &_err);                       \
        CHECK_MSG((e).reg != NULL, "%s", _err.message);                                 \
    } while (0)

#define ENV_CLOSE_CLEAN(e)                                                              \
    do {                                                                                \
        kiln_texture_registry_destroy((e).reg);                                         \
        FIXTURE_CLOSE_CLEAN((e).f);                                                     \
    } while (0)

static uint32_t add_array(kiln_texture_registry *reg, kiln_texture_format format, uint32_t side, uint32_t layers,
                          bool mips) {
    kiln_error err = {0};
    uint32_t id = kiln_texture_registry_add_array(
        reg, &(kiln_texture_array_desc){.format = format, .side = side, .layers = layers, .mips = mips}, &err);
    if (!id) fprintf(stderr, "add_array: %s\n", err.message);
    return id;
}

/* A layer of `bytes` bytes whose every byte depends on the layer, so layers tell apart. */
static void fill_layer(uint8_t *out, size_t bytes, uint32_t layer) {
    for (size_t i = 0; i < bytes; i++) out[i] = (uint8_t)(i * 7 + layer * 40 + 1);
}

/* Reads level `mip` of layer `layer` of a registry texture back from the GPU (RGBA8 only). */
static bool read_level(array_env *e, uint32_t id, uint32_t mip, uint32_t layer, uint8_t *out, size_t bytes) {
    kiln_error err = {0};
    WGPUTexture tex = kiln_texture_registry_gpu_texture(e->reg, id, &err);
    kiln_image img = {0};
    if (!tex || !kiln_resources_read_texture_level(e->f.res, tex, mip, layer, &img, &err)) {
        fprintf(stderr, "read_level: %s\n", err.message);
        return false;
    }
    bool fits = kiln_image_byte_size(&img) == bytes;
    if (fits) memcpy(out, img.pixels, bytes);
    kiln_image_free(&img);
    return fits;
}

static bool all_zero(const uint8_t *bytes, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (bytes[i]) return false;
    return true;
}

TEST(arrays_and_volumes_draw_ids_from_the_texture_sequence) {
    array_env e;
    ENV_OPEN(e);
    static const uint8_t voxels[2 * 2 * 2 * 4] = {0};
    uint32_t plain = kiln_texture_registry_add(
        e.reg, &(kiln_texture_create_desc){.format = KILN_FORMAT_RGBA8, .width = 1, .height = 1}, NULL);
    uint32_t array = add_array(e.reg, KILN_FORMAT_R32_FLOAT, 4, 3, false);
    uint32_t volume = kiln_texture_registry_add_volume(
        e.reg, &(kiln_texture_volume_desc){.format = KILN_FORMAT_RGBA8, .width = 2, .height = 2, .depth = 2,
                                           .pixels = voxels, .pixels_size = sizeof voxels}, NULL);
    uint32_t after = add_array(e.reg, KILN_FORMAT_RGBA8, 8, 1, true);
    const kiln_texture_info *a = kiln_texture_registry_info(e.reg, array);
    const kiln_texture_info *v = kiln_texture_registry_info(e.reg, volume);
    const kiln_texture_info *c = kiln_texture_registry_info(e.reg, after);
    CHECK(plain == 1 && array == 2 && volume == 3 && after == 4);
    CHECK(a && a->kind == KILN_TEXTURE_ARRAY && a->width == 4 && a->height == 4 && a->layers == 3 &&
          a->mip_levels == 1 && a->usage == KILN_USAGE_SAMPLED && a->sampling == KILN_SAMPLING_NEAREST);
    CHECK(v && v->kind == KILN_TEXTURE_VOLUME && v->width == 2 && v->height == 2 && v->layers == 2 &&
          v->mip_levels == 1 && v->sampling == KILN_SAMPLING_LINEAR);
    CHECK(c && c->mip_levels == 4 && c->sampling == KILN_SAMPLING_LINEAR); /* 8, 4, 2, 1 */
    CHECK_EQ_INT(kiln_texture_registry_layer_bytes(e.reg, array), 4 * 4 * 4);
    CHECK_EQ_INT(kiln_texture_registry_layer_bytes(e.reg, after), (64 + 16 + 4 + 1) * 4);
    CHECK_EQ_INT(kiln_texture_registry_layer_bytes(e.reg, plain), 0);
    CHECK_EQ_INT(kiln_texture_registry_layer_bytes(e.reg, volume), 0);
    ENV_CLOSE_CLEAN(e);
}

TEST(every_create_texture_array_refusal_names_its_value_and_takes_no_id) {
    array_env e;
    ENV_OPEN(e);
    const WGPULimits *limits = &e.f.gfx->limits;
    uint32_t max_side = limits->maxTextureDimension2D, max_layers = limits->maxTextureArrayLayers;
    struct {
        kiln_texture_array_desc desc;
        char expected[160];
    } rows[] = {
        {{KILN_FORMAT_RGBA8, 0, 1, false}, ""},
        {{KILN_FORMAT_RGBA8, max_side + 1, 1, false}, ""},
        {{KILN_FORMAT_RGBA8, 4, 0, false}, ""},
        {{KILN_FORMAT_RGBA8, 4, max_layers + 1, true}, ""},
        {{(kiln_texture_format)99, 4, 2, false}, "create_texture_array: unknown format 99"},
    };
    snprintf(rows[0].expected, sizeof rows[0].expected,
             "create_texture_array: side 0 is outside 1..%u (the device's maxTextureDimension2D)", max_side);
    snprintf(rows[1].expected, sizeof rows[1].expected,
             "create_texture_array: side %u is outside 1..%u (the device's maxTextureDimension2D)", max_side + 1,
             max_side);
    snprintf(rows[2].expected, sizeof rows[2].expected,
             "create_texture_array: layers 0 is outside 1..%u (the device's maxTextureArrayLayers)", max_layers);
    snprintf(rows[3].expected, sizeof rows[3].expected,
             "create_texture_array: layers %u is outside 1..%u (the device's maxTextureArrayLayers)", max_layers + 1,
             max_layers);
    uint32_t next = kiln_texture_registry_next_id(e.reg);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        kiln_error err = {0};
        CHECK_EQ_INT(kiln_texture_registry_add_array(e.reg, &rows[i].desc, &err), 0);
        CHECK_EQ_INT(err.code, KILN_ERR_INVALID_ARGUMENT);
        CHECK_MSG(strcmp(err.message, rows[i].expected) == 0, "row %zu: %s", i, err.message);
    }
    kiln_error err = {0};
    CHECK_EQ_INT(kiln_texture_registry_add_array(e.reg, NULL, &err), 0);
    CHECK(strcmp(err.message, "create_texture_array: desc is NULL") == 0);
    CHECK_EQ_INT(kiln_texture_registry_next_id(e.reg), next);
    /* The bounds themselves are accepted. */
    CHECK(add_array(e.reg, KILN_FORMAT_R8, 1, 1, true) == next);
    CHECK(add_array(e.reg, KILN_FORMAT_R8, 2, max_layers, false) == next + 1);
    ENV_CLOSE_CLEAN(e);
}

TEST(every_write_texture_layer_refusal_names_its_value_and_leaves_the_layer_unchanged) {
    array_env e;
    ENV_OPEN(e);
    static const uint8_t voxel[4] = {1, 2, 3, 4};
    uint32_t plain = kiln_texture_registry_add(
        e.reg, &(kiln_texture_create_desc){.format = KILN_FORMAT_RGBA8, .width = 1, .height = 1}, NULL);
    uint32_t volume = kiln_texture_registry_add_volume(
        e.reg, &(kiln_texture_volume_desc){.format = KILN_FORMAT_RGBA8, .width = 1, .height = 1, .depth = 1,
                                           .pixels = voxel, .pixels_size = 4}, NULL);
    uint32_t array = add_array(e.reg, KILN_FORMAT_RGBA8, 5, 2, true); /* levels 5, 2, 1: 120 bytes */
    uint8_t layer[121], written[120], zero[4 * 25];
    fill_layer(layer, sizeof layer, 0);
    CHECK(kiln_texture_registry_write_layer(e.reg, array, 0, layer, 120, NULL));
    memcpy(written, layer, 120);
    uint8_t other[121];
    fill_layer(other, sizeof other, 9);
    struct {
        uint32_t id, layer;
        const void *pixels;
        size_t size;
        kiln_error_code code;
        const char *expected;
    } rows[] = {
        {99, 0, other, 120, KILN_ERR_INVALID_HANDLE, "write_texture_layer: unknown texture id 99"},
        {plain, 0, other, 4, KILN_ERR_INVALID_HANDLE,
         "write_texture_layer: texture 1 is a plain texture, not a texture array"},
        {volume, 0, other, 4, KILN_ERR_INVALID_HANDLE,
         "write_texture_layer: texture 2 is a volume texture, not a texture array"},
        {array, 2, other, 120, KILN_ERR_INVALID_ARGUMENT,
         "write_texture_layer: layer 2 is outside 0..1 (texture 3 has 2 layers)"},
        {array, 0, other, 100, KILN_ERR_INVALID_ARGUMENT,
         "write_texture_layer: texture 3, layer 0: pixels hold 100 bytes, expected 120 (every level of one layer: "
         "3 levels from side 5, Rgba8)"},
        {array, 0, other, 121, KILN_ERR_INVALID_ARGUMENT,
         "write_texture_layer: texture 3, layer 0: pixels hold 121 bytes, expected 120 (every level of one layer: "
         "3 levels from side 5, Rgba8)"},
        {array, 1, NULL, 120, KILN_ERR_INVALID_ARGUMENT,
         "write_texture_layer: texture 3, layer 1: pixels hold 0 bytes, expected 120 (every level of one layer: "
         "3 levels from side 5, Rgba8)"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        kiln_error err = {0};
        CHECK(!kiln_texture_registry_write_layer(e.reg, rows[i].id, rows[i].layer, rows[i].pixels, rows[i].size, &err));
        CHECK_EQ_INT(err.code, rows[i].code);
        CHECK_MSG(strcmp(err.message, rows[i].expected) == 0, "row %zu: %s", i, err.message);
    }
    /* Layer 0 still holds the accepted write, every level of it, and layer 1 was never written. */
    uint8_t base[100], level1[16], level2[4];
    CHECK_MSG(kiln_texture_registry_sync(e.reg, NULL), "sync");
    CHECK(read_level(&e, array, 0, 0, base, sizeof base) && memcmp(base, written, 100) == 0);
    CHECK(read_level(&e, array, 1, 0, level1, sizeof level1) && memcmp(level1, written + 100, 16) == 0);
    CHECK(read_level(&e, array, 2, 0, level2, sizeof level2) && memcmp(level2, written + 116, 4) == 0);
    CHECK(read_level(&e, array, 0, 1, zero, sizeof zero) && all_zero(zero, sizeof zero));
    ENV_CLOSE_CLEAN(e);
}

TEST(a_mip_chain_of_side_5_has_levels_of_side_5_2_and_1) {
    array_env e;
    ENV_OPEN(e);
    uint32_t chain = add_array(e.reg, KILN_FORMAT_RGBA8, 5, 1, true), base = add_array(e.reg, KILN_FORMAT_RGBA8, 5, 1, false);
    CHECK_EQ_INT(kiln_texture_registry_info(e.reg, chain)->mip_levels, 3);
    CHECK_EQ_INT(kiln_texture_registry_layer_bytes(e.reg, chain), (25 + 4 + 1) * 4);
    CHECK_EQ_INT(kiln_texture_registry_info(e.reg, base)->mip_levels, 1);
    CHECK_EQ_INT(kiln_texture_registry_layer_bytes(e.reg, base), 25 * 4);
    WGPUTexture tex = kiln_texture_registry_gpu_texture(e.reg, chain, NULL);
    CHECK(tex != NULL);
    uint32_t levels = tex ? wgpuTextureGetMipLevelCount(tex) : 0;
    kiln_image img[3] = {{0}};
    for (uint32_t l = 0; tex && l < 3; l++) CHECK(kiln_resources_read_texture_level(e.f.res, tex, l, 0, &img[l], NULL));
    CHECK_EQ_INT(levels, 3);
    CHECK(img[0].width == 5 && img[0].height == 5);
    CHECK(img[1].width == 2 && img[1].height == 2);
    CHECK(img[2].width == 1 && img[2].height == 1);
    for (int l = 0; l < 3; l++) kiln_image_free(&img[l]);
    ENV_CLOSE_CLEAN(e);
}

TEST(a_layer_never_written_reads_zero_before_and_after_the_queue_clears_it) {
    array_env e;
    ENV_OPEN(e);
    uint32_t array = add_array(e.reg, KILN_FORMAT_RGBA8, 4, 3, false);
    uint8_t layer[64], back[64];
    fill_layer(layer, sizeof layer, 1);
    CHECK(kiln_texture_registry_write_layer(e.reg, array, 1, layer, sizeof layer, NULL));
    /* The view realizes the array with layer 1 only; layers 0 and 2 wait for the queue. */
    CHECK(kiln_texture_registry_view_handle(e.reg, array, NULL).id != 0);
    kiln_texture_registry_stats viewed = kiln_texture_registry_get_stats(e.reg);
    CHECK(viewed.layer_uploads == 1 && viewed.layer_clears == 0);
    CHECK(read_level(&e, array, 0, 0, back, sizeof back) && all_zero(back, sizeof back));
    CHECK(kiln_texture_registry_sync(e.reg, NULL));
    kiln_texture_registry_stats synced = kiln_texture_registry_get_stats(e.reg);
    CHECK_EQ_INT(synced.layer_clears, 2);
    CHECK(read_level(&e, array, 0, 0, back, sizeof back) && all_zero(back, sizeof back));
    CHECK(read_level(&e, array, 0, 1, back, sizeof back) && memcmp(back, layer, sizeof layer) == 0);
    CHECK(read_level(&e, array, 0, 2, back, sizeof back) && all_zero(back, sizeof back));
    ENV_CLOSE_CLEAN(e);
}

/* The queue does KILN_TEXTURE_LAYERS_PER_SYNC layers per sync over every array, every written
 * layer before any clear, and nothing once it is empty. */
TEST(the_sync_works_the_queue_a_fixed_number_of_layers_at_a_time_written_layers_first) {
    array_env e;
    ENV_OPEN(e);
    const uint32_t step = KILN_TEXTURE_LAYERS_PER_SYNC, layers = 2 * step + 1;
    uint32_t first = add_array(e.reg, KILN_FORMAT_RGBA8, 2, layers, false);
    uint32_t second = add_array(e.reg, KILN_FORMAT_RGBA8, 2, 2, false);
    uint8_t layer[16];
    fill_layer(layer, sizeof layer, 3);
    /* Written layers: the last of the first array and both of the second, step + 1 in all. */
    CHECK(kiln_texture_registry_write_layer(e.reg, first, layers - 1, layer, sizeof layer, NULL));
    for (uint32_t l = 0; l < 2; l++) CHECK(kiln_texture_registry_write_layer(e.reg, second, l, layer, sizeof layer, NULL));
    const uint64_t written = 3, total = layers + 2;
    uint64_t done = 0, syncs = 0;
    kiln_texture_registry_stats before = kiln_texture_registry_get_stats(e.reg), now = before;
    while (done < total && syncs < total) {
        CHECK(kiln_texture_registry_sync(e.reg, NULL));
        now = kiln_texture_registry_get_stats(e.reg);
        uint64_t did = now.layer_uploads + now.layer_clears - before.layer_uploads - before.layer_clears;
        uint64_t expected = total - done < step ? total - done : step;
        CHECK_MSG(did == expected, "sync %llu did %llu layers", (unsigned long long)syncs, (unsigned long long)did);
        /* No clear while a written layer waits. */
        CHECK(now.layer_clears == 0 || now.layer_uploads == written);
        done += did, syncs++, before = now;
    }
    CHECK_EQ_INT(now.layer_uploads, written);
    CHECK_EQ_INT(now.layer_clears, total - written);
    CHECK_EQ_INT(now.realizations, 2);
    CHECK(kiln_texture_registry_sync(e.reg, NULL));
    kiln_texture_registry_stats idle = kiln_texture_registry_get_stats(e.reg);
    CHECK(idle.layer_uploads == now.layer_uploads && idle.layer_clears == now.layer_clears);
    ENV_CLOSE_CLEAN(e);
}

TEST(the_view_uploads_every_written_layer_at_once_and_leaves_the_clears_to_the_queue) {
    array_env e;
    ENV_OPEN(e);
    const uint32_t written = KILN_TEXTURE_LAYERS_PER_SYNC + 2, layers = written + 3;
    uint32_t array = add_array(e.reg, KILN_FORMAT_RGBA8, 2, layers, false);
    uint8_t layer[16], back[16];
    for (uint32_t l = 0; l < written; l++) {
        fill_layer(layer, sizeof layer, l);
        CHECK(kiln_texture_registry_write_layer(e.reg, array, l, layer, sizeof layer, NULL));
    }
    CHECK(kiln_texture_registry_gpu_view(e.reg, array, NULL) != NULL);
    kiln_texture_registry_stats viewed = kiln_texture_registry_get_stats(e.reg);
    CHECK_EQ_INT(viewed.layer_uploads, written);
    CHECK_EQ_INT(viewed.layer_clears, 0);
    for (uint32_t l = 0; l < written; l++) {
        fill_layer(layer, sizeof layer, l);
        CHECK_MSG(read_level(&e, array, 0, l, back, sizeof back) && memcmp(back, layer, sizeof layer) == 0, "layer %u", l);
    }
    CHECK(kiln_texture_registry_sync(e.reg, NULL));
    kiln_texture_registry_stats synced = kiln_texture_registry_get_stats(e.reg);
    CHECK_EQ_INT(synced.layer_uploads, written);
    CHECK_EQ_INT(synced.layer_clears, 3);
    ENV_CLOSE_CLEAN(e);
}

TEST(a_rewritten_layer_goes_up_again_under_the_same_view) {
    array_env e;
    ENV_OPEN(e);
    uint32_t array = add_array(e.reg, KILN_FORMAT_RGBA8, 2, 2, false);
    uint8_t layer[16], back[16];
    fill_layer(layer, sizeof layer, 1);
    CHECK(kiln_texture_registry_write_layer(e.reg, array, 1, layer, sizeof layer, NULL));
    CHECK(kiln_texture_registry_sync(e.reg, NULL));
    kiln_texture_view view = kiln_texture_registry_view_handle(e.reg, array, NULL);
    kiln_texture_registry_stats first = kiln_texture_registry_get_stats(e.reg);
    fill_layer(layer, sizeof layer, 2);
    CHECK(kiln_texture_registry_write_layer(e.reg, array, 1, layer, sizeof layer, NULL));
    CHECK(kiln_texture_registry_sync(e.reg, NULL));
    kiln_texture_registry_stats second = kiln_texture_registry_get_stats(e.reg);
    CHECK_EQ_INT(second.layer_uploads - first.layer_uploads, 1);
    CHECK_EQ_INT(second.layer_clears, first.layer_clears);
    CHECK_EQ_INT(second.realizations, first.realizations);
    CHECK_EQ_INT(kiln_texture_registry_view_handle(e.reg, array, NULL).id, view.id);
    CHECK(read_level(&e, array, 0, 1, back, sizeof back) && memcmp(back, layer, sizeof layer) == 0);
    ENV_CLOSE_CLEAN(e);
}

TEST(plain_texture_paths_refuse_arrays_and_volumes_as_unknown) {
    array_env e;
    ENV_OPEN(e);
    static const uint8_t voxel[4] = {0};
    uint32_t array = add_array(e.reg, KILN_FORMAT_RGBA8, 1, 1, false);
    uint32_t volume = kiln_texture_registry_add_volume(
        e.reg, &(kiln_texture_volume_desc){.format = KILN_FORMAT_RGBA8, .width = 1, .height = 1, .depth = 1,
                                           .pixels = voxel, .pixels_size = 4}, NULL);
    kiln_error update_array = {0}, update_volume = {0}, read_array = {0}, read_volume = {0};
    void *pixels = NULL;
    size_t size = 0;
    CHECK(!kiln_texture_registry_update(e.reg, array, voxel, 4, &update_array));
    CHECK(!kiln_texture_registry_update(e.reg, volume, voxel, 4, &update_volume));
    CHECK(!kiln_texture_registry_read(e.reg, array, &pixels, &size, &read_array));
    CHECK(!kiln_texture_registry_read(e.reg, volume, &pixels, &size, &read_volume));
    CHECK(pixels == NULL);
    CHECK_EQ_INT(update_array.code, KILN_ERR_INVALID_HANDLE);
    CHECK(strcmp(update_array.message, "unknown texture id 1 (it names a texture array)") == 0);
    CHECK(strcmp(update_volume.message, "unknown texture id 2 (it names a volume texture)") == 0);
    CHECK(strcmp(read_array.message, "unknown texture id 1 (it names a texture array)") == 0);
    CHECK(strcmp(read_volume.message, "unknown texture id 2 (it names a volume texture)") == 0);
    ENV_CLOSE_CLEAN(e);
}

TEST(removing_an_array_or_a_volume_releases_it_and_retires_its_id) {
    array_env e;
    ENV_OPEN(e);
    static const uint8_t voxels[8] = {0};
    kiln_live_counts start = kiln_resources_live_counts(e.f.res);
    uint32_t array = add_array(e.reg, KILN_FORMAT_RGBA8, 2, 3, true);
    uint32_t queued = add_array(e.reg, KILN_FORMAT_RGBA8, 2, 3, false); /* removed with its queue full */
    uint32_t volume = kiln_texture_registry_add_volume(
        e.reg, &(kiln_texture_volume_desc){.format = KILN_FORMAT_R8, .width = 2, .height = 2, .depth = 2,
                                           .pixels = voxels, .pixels_size = 8}, NULL);
    CHECK(kiln_texture_registry_gpu_view(e.reg, array, NULL) && kiln_texture_registry_gpu_view(e.reg, volume, NULL));
    kiln_live_counts live = kiln_resources_live_counts(e.f.res);
    CHECK_EQ_INT(live.textures - start.textures, 2);
    CHECK(kiln_texture_registry_remove(e.reg, array, NULL) && kiln_texture_registry_remove(e.reg, volume, NULL) &&
          kiln_texture_registry_remove(e.reg, queued, NULL));
    kiln_live_counts after = kiln_resources_live_counts(e.f.res);
    CHECK_EQ_INT(kiln_live_counts_total(&after), kiln_live_counts_total(&start));
    CHECK(!kiln_texture_registry_info(e.reg, array) && !kiln_texture_registry_info(e.reg, volume));
    kiln_error err = {0};
    CHECK(!kiln_texture_registry_write_layer(e.reg, array, 0, voxels, 4, &err));
    CHECK(strcmp(err.message, "write_texture_layer: unknown texture id 1") == 0);
    /* Nothing is left on the queue: a sync realizes nothing. */
    kiln_texture_registry_stats before = kiln_texture_registry_get_stats(e.reg);
    CHECK(kiln_texture_registry_sync(e.reg, NULL));
    kiln_texture_registry_stats synced = kiln_texture_registry_get_stats(e.reg);
    CHECK(synced.realizations == before.realizations && synced.layer_clears == before.layer_clears);
    CHECK_EQ_INT(add_array(e.reg, KILN_FORMAT_RGBA8, 1, 1, false), 4);
    ENV_CLOSE_CLEAN(e);
}

TEST(moving_the_registry_brings_every_written_layer_and_the_volume_back) {
    array_env e;
    ENV_OPEN(e);
    kiln_error err = {0};
    kiln_resources *other = kiln_resources_create(e.f.gfx, 256, &err);
    CHECK_MSG(other, "%s", err.message);
    uint8_t voxels[2 * 2 * 3 * 4];
    fill_layer(voxels, sizeof voxels, 5);
    uint32_t array = add_array(e.reg, KILN_FORMAT_RGBA8, 2, 3, false);
    uint32_t volume = kiln_texture_registry_add_volume(
        e.reg, &(kiln_texture_volume_desc){.format = KILN_FORMAT_RGBA8, .width = 2, .height = 2, .depth = 3,
                                           .pixels = voxels, .pixels_size = sizeof voxels}, NULL);
    uint8_t layer0[16], layer2[16], back[16];
    fill_layer(layer0, 16, 0), fill_layer(layer2, 16, 2);
    CHECK(kiln_texture_registry_write_layer(e.reg, array, 0, layer0, 16, NULL));
    CHECK(kiln_texture_registry_write_layer(e.reg, array, 2, layer2, 16, NULL));
    CHECK(kiln_texture_registry_sync(e.reg, NULL) && kiln_texture_registry_gpu_view(e.reg, volume, NULL));
    kiln_texture_registry_move_to(e.reg, other);
    kiln_live_counts left = kiln_resources_live_counts(e.f.res);
    CHECK_EQ_INT(left.textures, 0);
    kiln_resources *old = e.f.res;
    e.f.res = other; /* read_level reads through the registry's new resources */
    CHECK(kiln_texture_registry_sync(e.reg, NULL));
    kiln_texture_registry_stats stats = kiln_texture_registry_get_stats(e.reg);
    CHECK_EQ_INT(stats.layer_uploads, 4); /* layers 0 and 2, twice */
    CHECK_EQ_INT(stats.layer_clears, 2);  /* layer 1, twice */
    CHECK(read_level(&e, array, 0, 0, back, 16) && memcmp(back, layer0, 16) == 0);
    CHECK(read_level(&e, array, 0, 1, back, 16) && all_zero(back, 16));
    CHECK(read_level(&e, array, 0, 2, back, 16) && memcmp(back, layer2, 16) == 0);
    for (uint32_t z = 0; z < 3; z++)
        CHECK_MSG(read_level(&e, volume, 0, z, back, 16) && memcmp(back, voxels + 16 * z, 16) == 0, "slice %u", z);
    kiln_texture_registry_destroy(e.reg);
    e.reg = NULL;
    e.f.res = old;
    kiln_live_counts empty = kiln_resources_live_counts(other);
    CHECK_EQ_INT(kiln_live_counts_total(&empty), 0);
    kiln_resources_destroy(other);
    FIXTURE_CLOSE_CLEAN(e.f);
}

TEST_MAIN(T(arrays_and_volumes_draw_ids_from_the_texture_sequence),
          T(every_create_texture_array_refusal_names_its_value_and_takes_no_id),
          T(every_write_texture_layer_refusal_names_its_value_and_leaves_the_layer_unchanged),
          T(a_mip_chain_of_side_5_has_levels_of_side_5_2_and_1),
          T(a_layer_never_written_reads_zero_before_and_after_the_queue_clears_it),
          T(the_sync_works_the_queue_a_fixed_number_of_layers_at_a_time_written_layers_first),
          T(the_view_uploads_every_written_layer_at_once_and_leaves_the_clears_to_the_queue),
          T(a_rewritten_layer_goes_up_again_under_the_same_view),
          T(plain_texture_paths_refuse_arrays_and_volumes_as_unknown),
          T(removing_an_array_or_a_volume_releases_it_and_retires_its_id),
          T(moving_the_registry_brings_every_written_layer_and_the_volume_back))
