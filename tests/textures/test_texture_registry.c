/* The texture registry: dense ids that are never reused, validation before an id is taken, the
 * CPU copy as source of truth with lazy GPU upload, GPU readback of Writable textures, destroy,
 * and the GPU objects it leaves behind (none). */
#include <kiln/textures.h>

#include "gfx_fixture.h"

typedef struct registry_env {
    gfx_fixture f;
    kiln_texture_registry *reg;
} registry_env;

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

static const kiln_texture_format ALL_FORMATS[] = {KILN_FORMAT_RGBA8, KILN_FORMAT_R8, KILN_FORMAT_R32_FLOAT,
                                                  KILN_FORMAT_R16_FLOAT, KILN_FORMAT_RGBA16_FLOAT};
#define FORMAT_TOTAL (sizeof ALL_FORMATS / sizeof ALL_FORMATS[0])

/* Distinct, finite texel values for every format: 8-bit ramps, halves and floats that are real
 * numbers (so no NaN payload could be canonicalised on the way through the GPU). */
static void fill_pattern(kiln_texture_format format, uint8_t *out, size_t size, uint32_t seed) {
    switch (format) {
    case KILN_FORMAT_RGBA8:
    case KILN_FORMAT_R8:
        for (size_t i = 0; i < size; i++) out[i] = (uint8_t)(i * 37 + seed * 11 + 5);
        break;
    case KILN_FORMAT_R16_FLOAT:
    case KILN_FORMAT_RGBA16_FLOAT:
        for (size_t i = 0; i < size / 2; i++) {
            uint16_t h = kiln_float_to_half((float)i * 0.25f - 1.5f + (float)seed);
            memcpy(out + 2 * i, &h, 2);
        }
        break;
    default:
        for (size_t i = 0; i < size / 4; i++) {
            float v = (float)i * 1.375f - 3.0f + (float)seed;
            memcpy(out + 4 * i, &v, 4);
        }
        break;
    }
}

static uint32_t create_plain(kiln_texture_registry *reg, kiln_texture_format format, uint32_t w, uint32_t h,
                             const void *pixels, kiln_texture_usage usage) {
    size_t size = pixels ? (size_t)w * h * kiln_texture_format_bytes(format) : 0;
    kiln_texture_create_desc d = {.format = format, .width = w, .height = h, .pixels = pixels,
                                  .pixels_size = size, .usage = usage};
    return kiln_texture_registry_add(reg, &d, NULL);
}

/* Records a render pass that only clears `view`, and submits it: what a program's output pass
 * leaves in a Writable texture, without needing a pipeline. */
static bool clear_on_gpu(kiln_resources *res, WGPUTextureView view, double r, double g, double b, double a) {
    kiln_encoder enc;
    kiln_render_pass pass;
    kiln_color_attachment color = kiln_color_cleared(view, r, g, b, a);
    if (!kiln_encoder_begin(&enc, res, "clear", NULL)) return false;
    if (!kiln_encoder_begin_render_pass(&enc, "clear", &color, 1, NULL, &pass, NULL)) {
        kiln_encoder_discard(&enc);
        return false;
    }
    kiln_render_pass_end(&pass);
    return kiln_encoder_finish_and_submit(&enc, NULL);
}

TEST(format_table_matches_the_spec) {
    static const struct {
        kiln_texture_format f;
        const char *name;
        uint32_t bytes;
        WGPUTextureFormat wgpu;
        bool filterable;
    } rows[] = {
        {KILN_FORMAT_RGBA8, "Rgba8", 4, WGPUTextureFormat_RGBA8Unorm, true},
        {KILN_FORMAT_R8, "R8", 1, WGPUTextureFormat_R8Unorm, true},
        {KILN_FORMAT_R32_FLOAT, "R32Float", 4, WGPUTextureFormat_R32Float, false},
        {KILN_FORMAT_R16_FLOAT, "R16Float", 2, WGPUTextureFormat_R16Float, true},
        {KILN_FORMAT_RGBA16_FLOAT, "Rgba16Float", 8, WGPUTextureFormat_RGBA16Float, true},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        CHECK(strcmp(kiln_texture_format_name(rows[i].f), rows[i].name) == 0);
        CHECK_EQ_INT(kiln_texture_format_bytes(rows[i].f), rows[i].bytes);
        CHECK_EQ_INT(kiln_texture_format_wgpu(rows[i].f), rows[i].wgpu);
        CHECK_EQ_INT(kiln_texture_format_filterable(rows[i].f), rows[i].filterable);
        CHECK_EQ_INT(kiln_texture_format_resolvable(rows[i].f), rows[i].filterable);
        kiln_texture_format parsed = KILN_FORMAT_COUNT;
        CHECK(kiln_texture_format_from_name(rows[i].name, &parsed));
        CHECK_EQ_INT(parsed, rows[i].f);
    }
}

TEST(format_names_match_exactly_and_unknown_formats_have_no_properties) {
    kiln_texture_format parsed = KILN_FORMAT_R8;
    CHECK(!kiln_texture_format_from_name("rgba8", &parsed));
    CHECK(!kiln_texture_format_from_name("Rgba8Unorm", &parsed));
    CHECK(!kiln_texture_format_from_name(NULL, &parsed));
    CHECK_EQ_INT(parsed, KILN_FORMAT_R8);
    CHECK(kiln_texture_format_name(KILN_FORMAT_COUNT) == NULL);
    CHECK_EQ_INT(kiln_texture_format_bytes((kiln_texture_format)-1), 0);
    CHECK_EQ_INT(kiln_texture_format_wgpu(KILN_FORMAT_COUNT), WGPUTextureFormat_Undefined);
    CHECK(!kiln_texture_format_filterable(KILN_FORMAT_COUNT));
    CHECK(!kiln_texture_format_resolvable(KILN_FORMAT_COUNT));
}

TEST(ids_are_dense_from_one) {
    registry_env e;
    ENV_OPEN(e);
    CHECK_EQ_INT(kiln_texture_registry_next_id(e.reg), 1);
    for (uint32_t want = 1; want <= 3; want++)
        CHECK_EQ_INT(create_plain(e.reg, KILN_FORMAT_R8, 2, 2, NULL, KILN_USAGE_SAMPLED), want);
    CHECK_EQ_INT(kiln_texture_registry_next_id(e.reg), 4);
    ENV_CLOSE_CLEAN(e);
}

TEST(a_destroyed_id_is_never_handed_out_again) {
    registry_env e;
    ENV_OPEN(e);
    CHECK_EQ_INT(create_plain(e.reg, KILN_FORMAT_R8, 2, 2, NULL, KILN_USAGE_SAMPLED), 1);
    CHECK_EQ_INT(create_plain(e.reg, KILN_FORMAT_R8, 2, 2, NULL, KILN_USAGE_SAMPLED), 2);
    CHECK(kiln_texture_registry_remove(e.reg, 2, NULL));
    CHECK(kiln_texture_registry_remove(e.reg, 1, NULL));
    CHECK_EQ_INT(create_plain(e.reg, KILN_FORMAT_R8, 2, 2, NULL, KILN_USAGE_SAMPLED), 3);
    ENV_CLOSE_CLEAN(e);
}

TEST(every_rejected_create_names_its_value_and_consumes_no_id) {
    registry_env e;
    ENV_OPEN(e);
    uint32_t max = e.f.gfx->limits.maxTextureDimension2D;
    char too_wide[128], too_tall[128];
    snprintf(too_wide, sizeof too_wide, "width %u is outside 1..%u", max + 1, max);
    snprintf(too_tall, sizeof too_tall, "height %u is outside 1..%u", max + 1, max);
    uint8_t pixels[24] = {0};
    const kiln_texture_create_desc ok = {.format = KILN_FORMAT_RGBA8, .width = 3, .height = 2};
    struct {
        kiln_texture_create_desc d;
        const char *message;
    } cases[] = {
        {{.format = KILN_FORMAT_RGBA8, .width = 0, .height = 2}, "width 0 is outside 1.."},
        {{.format = KILN_FORMAT_RGBA8, .width = max + 1, .height = 2}, too_wide},
        {{.format = KILN_FORMAT_RGBA8, .width = 3, .height = 0}, "height 0 is outside 1.."},
        {{.format = KILN_FORMAT_RGBA8, .width = 3, .height = max + 1}, too_tall},
        {{.format = (kiln_texture_format)7, .width = 3, .height = 2}, "unknown format 7"},
        {{.format = (kiln_texture_format)-1, .width = 3, .height = 2}, "unknown format -1"},
        {{.format = KILN_FORMAT_RGBA8, .width = 3, .height = 2, .usage = (kiln_texture_usage)2}, "unknown usage 2"},
        {{.format = KILN_FORMAT_RGBA8, .width = 3, .height = 2, .sampling = (kiln_texture_sampling)5},
         "unknown sampling 5"},
        {{.format = KILN_FORMAT_RGBA8, .width = 3, .height = 2, .pixels = pixels, .pixels_size = 23},
         "pixels hold 23 bytes, expected 24 (3x2 Rgba8)"},
        {{.format = KILN_FORMAT_R16_FLOAT, .width = 3, .height = 2, .pixels = pixels, .pixels_size = 24},
         "pixels hold 24 bytes, expected 12 (3x2 R16Float)"},
        {{.format = KILN_FORMAT_RGBA8, .width = 3, .height = 2, .pixels_size = 24},
         "pixels is NULL but pixels_size is 24"},
    };
    CHECK_EQ_INT(kiln_texture_registry_add(e.reg, &ok, NULL), 1);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        kiln_error err = {0};
        CHECK_EQ_INT(kiln_texture_registry_add(e.reg, &cases[i].d, &err), 0);
        CHECK_EQ_INT(err.code, KILN_ERR_INVALID_ARGUMENT);
        CHECK_STR_CONTAINS(err.message, cases[i].message);
        CHECK_EQ_INT(kiln_texture_registry_next_id(e.reg), 2);
        CHECK(kiln_texture_registry_info(e.reg, 2) == NULL);
    }
    CHECK_EQ_INT(kiln_texture_registry_add(e.reg, &ok, NULL), 2);
    ENV_CLOSE_CLEAN(e);
}

TEST(info_reports_what_create_was_given) {
    registry_env e;
    ENV_OPEN(e);
    kiln_texture_create_desc d = {.format = KILN_FORMAT_R16_FLOAT, .width = 5, .height = 3,
                                  .usage = KILN_USAGE_WRITABLE, .sampling = KILN_SAMPLING_NEAREST};
    uint32_t id = kiln_texture_registry_add(e.reg, &d, NULL);
    const kiln_texture_info *info = kiln_texture_registry_info(e.reg, id);
    CHECK(info != NULL);
    CHECK_EQ_INT(info->kind, KILN_TEXTURE_PLAIN);
    CHECK_EQ_INT(info->format, KILN_FORMAT_R16_FLOAT);
    CHECK_EQ_INT(info->width, 5);
    CHECK_EQ_INT(info->height, 3);
    CHECK_EQ_INT(info->layers, 1);
    CHECK_EQ_INT(info->usage, KILN_USAGE_WRITABLE);
    CHECK_EQ_INT(info->sampling, KILN_SAMPLING_NEAREST);
    ENV_CLOSE_CLEAN(e);
}

TEST(a_texture_without_pixels_is_zero_filled_on_the_gpu) {
    registry_env e;
    ENV_OPEN(e);
    uint32_t id = create_plain(e.reg, KILN_FORMAT_RGBA16_FLOAT, 3, 2, NULL, KILN_USAGE_WRITABLE);
    CHECK(kiln_texture_registry_gpu_view(e.reg, id, NULL) != NULL);
    void *px = NULL;
    size_t size = 0;
    kiln_error err = {0};
    CHECK_MSG(kiln_texture_registry_read(e.reg, id, &px, &size, &err), "%s", err.message);
    CHECK_EQ_INT(size, 3 * 2 * 8);
    static const uint8_t zeros[48];
    bool all_zero = memcmp(px, zeros, size) == 0;
    free(px);
    CHECK(all_zero);
    ENV_CLOSE_CLEAN(e);
}

/* Writable textures read back from the GPU, so this is upload + copy + unpadding of 3-texel rows
 * (never a multiple of 256 bytes) for each format. */
TEST(every_format_round_trips_through_the_gpu_unchanged) {
    registry_env e;
    ENV_OPEN(e);
    for (size_t i = 0; i < FORMAT_TOTAL; i++) {
        kiln_texture_format format = ALL_FORMATS[i];
        uint8_t pixels[3 * 2 * 8];
        size_t size = 3 * 2 * kiln_texture_format_bytes(format);
        fill_pattern(format, pixels, size, (uint32_t)i);
        uint32_t id = create_plain(e.reg, format, 3, 2, pixels, KILN_USAGE_WRITABLE);
        kiln_error err = {0};
        CHECK_MSG(kiln_texture_registry_gpu_view(e.reg, id, &err) != NULL, "%s: %s", kiln_texture_format_name(format),
                  err.message);
        void *back = NULL;
        size_t back_size = 0;
        CHECK_MSG(kiln_texture_registry_read(e.reg, id, &back, &back_size, &err), "%s", err.message);
        bool same = back_size == size && memcmp(back, pixels, size) == 0;
        free(back);
        CHECK_MSG(same, "%s read back differs", kiln_texture_format_name(format));
    }
    ENV_CLOSE_CLEAN(e);
}

TEST(a_sampled_texture_is_uploaded_from_its_cpu_copy) {
    registry_env e;
    ENV_OPEN(e);
    uint8_t pixels[3 * 2 * 4];
    fill_pattern(KILN_FORMAT_RGBA8, pixels, sizeof pixels, 1);
    uint32_t id = create_plain(e.reg, KILN_FORMAT_RGBA8, 3, 2, pixels, KILN_USAGE_SAMPLED);
    kiln_error err = {0};
    WGPUTexture tex = kiln_texture_registry_gpu_texture(e.reg, id, &err);
    CHECK_MSG(tex != NULL, "%s", err.message);
    CHECK_EQ_INT(wgpuTextureGetUsage(tex), WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst |
                                               WGPUTextureUsage_CopySrc);
    kiln_image img = {0};
    CHECK_MSG(kiln_resources_read_texture(e.f.res, tex, &img, &err), "%s", err.message);
    bool same = memcmp(img.pixels, pixels, sizeof pixels) == 0;
    kiln_image_free(&img);
    CHECK(same);
    ENV_CLOSE_CLEAN(e);
}

TEST(an_update_is_uploaded_at_the_next_gpu_use) {
    registry_env e;
    ENV_OPEN(e);
    uint8_t first[3 * 2], second[3 * 2];
    fill_pattern(KILN_FORMAT_R8, first, sizeof first, 1);
    fill_pattern(KILN_FORMAT_R8, second, sizeof second, 2);
    uint32_t id = create_plain(e.reg, KILN_FORMAT_R8, 3, 2, first, KILN_USAGE_SAMPLED);
    kiln_error err = {0};
    kiln_texture_view before = kiln_texture_registry_view_handle(e.reg, id, &err);
    CHECK_MSG(before.id, "%s", err.message);
    CHECK_MSG(kiln_texture_registry_update(e.reg, id, second, sizeof second, &err), "%s", err.message);
    kiln_texture_view after = kiln_texture_registry_view_handle(e.reg, id, &err);
    CHECK_EQ_INT(after.id, before.id); /* same GPU objects, new contents: bind groups stay valid */
    kiln_image img = {0};
    CHECK_MSG(kiln_resources_read_texture(e.f.res, kiln_texture_registry_gpu_texture(e.reg, id, NULL), &img, &err), "%s",
              err.message);
    bool same = true;
    for (uint32_t p = 0; p < 6; p++) same = same && ((uint8_t *)img.pixels)[4 * p] == second[p];
    kiln_image_free(&img);
    CHECK(same);
    ENV_CLOSE_CLEAN(e);
}

TEST(read_after_update_returns_the_new_pixels) {
    registry_env e;
    ENV_OPEN(e);
    float first[4] = {1, 2, 3, 4}, second[4] = {-1, 0.5f, 9, 1e6f};
    uint32_t id = create_plain(e.reg, KILN_FORMAT_R32_FLOAT, 2, 2, first, KILN_USAGE_SAMPLED);
    CHECK(kiln_texture_registry_update(e.reg, id, second, sizeof second, NULL));
    void *back = NULL;
    size_t size = 0;
    CHECK(kiln_texture_registry_read(e.reg, id, &back, &size, NULL));
    bool same = size == sizeof second && memcmp(back, second, size) == 0;
    free(back);
    CHECK(same);
    ENV_CLOSE_CLEAN(e);
}

TEST(an_update_of_the_wrong_length_changes_nothing) {
    registry_env e;
    ENV_OPEN(e);
    uint8_t first[4] = {1, 2, 3, 4}, longer[5] = {9, 9, 9, 9, 9};
    uint32_t id = create_plain(e.reg, KILN_FORMAT_R8, 2, 2, first, KILN_USAGE_SAMPLED);
    kiln_error err = {0};
    CHECK(!kiln_texture_registry_update(e.reg, id, longer, sizeof longer, &err));
    CHECK_EQ_INT(err.code, KILN_ERR_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(err.message, "update_texture 1: pixels hold 5 bytes, expected 4 (2x2 R8)");
    void *back = NULL;
    size_t size = 0;
    CHECK(kiln_texture_registry_read(e.reg, id, &back, &size, NULL));
    bool same = size == 4 && memcmp(back, first, 4) == 0;
    free(back);
    CHECK(same);
    ENV_CLOSE_CLEAN(e);
}

TEST(a_writable_texture_reads_back_what_the_gpu_rendered) {
    registry_env e;
    ENV_OPEN(e);
    uint8_t stale[3 * 2 * 4];
    memset(stale, 0x40, sizeof stale);
    uint32_t id = create_plain(e.reg, KILN_FORMAT_RGBA8, 3, 2, stale, KILN_USAGE_WRITABLE);
    kiln_error err = {0};
    WGPUTextureView view = kiln_texture_registry_gpu_view(e.reg, id, &err);
    CHECK_MSG(view != NULL, "%s", err.message);
    CHECK(clear_on_gpu(e.f.res, view, 0, 1, 0, 1));
    uint8_t *back = NULL;
    size_t size = 0;
    CHECK_MSG(kiln_texture_registry_read(e.reg, id, (void **)&back, &size, &err), "%s", err.message);
    bool green = size == sizeof stale;
    for (size_t p = 0; green && p < 6; p++)
        green = back[4 * p] == 0 && back[4 * p + 1] == 255 && back[4 * p + 2] == 0 && back[4 * p + 3] == 255;
    free(back);
    CHECK(green);
    ENV_CLOSE_CLEAN(e);
}

TEST(an_update_of_a_rendered_writable_texture_replaces_the_gpu_pixels) {
    registry_env e;
    ENV_OPEN(e);
    uint32_t id = create_plain(e.reg, KILN_FORMAT_R32_FLOAT, 2, 1, NULL, KILN_USAGE_WRITABLE);
    CHECK(clear_on_gpu(e.f.res, kiln_texture_registry_gpu_view(e.reg, id, NULL), 7, 0, 0, 1));
    float update[2] = {-2.5f, 42};
    CHECK(kiln_texture_registry_update(e.reg, id, update, sizeof update, NULL));
    float *back = NULL;
    size_t size = 0;
    kiln_error err = {0};
    CHECK_MSG(kiln_texture_registry_read(e.reg, id, (void **)&back, &size, &err), "%s", err.message);
    bool same = size == sizeof update && back[0] == -2.5f && back[1] == 42;
    free(back);
    CHECK(same);
    ENV_CLOSE_CLEAN(e);
}

TEST(a_destroyed_id_is_unknown_to_every_call) {
    registry_env e;
    ENV_OPEN(e);
    uint8_t px[4] = {0};
    uint32_t id = create_plain(e.reg, KILN_FORMAT_R8, 2, 2, px, KILN_USAGE_WRITABLE);
    CHECK(kiln_texture_registry_gpu_view(e.reg, id, NULL) != NULL);
    CHECK(kiln_texture_registry_remove(e.reg, id, NULL));
    CHECK(kiln_texture_registry_info(e.reg, id) == NULL);
    kiln_error err = {0};
    CHECK(!kiln_texture_registry_update(e.reg, id, px, sizeof px, &err));
    CHECK_EQ_INT(err.code, KILN_ERR_INVALID_HANDLE);
    CHECK(strcmp(err.message, "unknown texture id 1") == 0);
    void *back = NULL;
    size_t size = 0;
    err = (kiln_error){0};
    CHECK(!kiln_texture_registry_read(e.reg, id, &back, &size, &err));
    CHECK(strcmp(err.message, "unknown texture id 1") == 0);
    CHECK(back == NULL);
    err = (kiln_error){0};
    CHECK(!kiln_texture_registry_remove(e.reg, id, &err));
    CHECK(strcmp(err.message, "unknown texture id 1") == 0);
    err = (kiln_error){0};
    CHECK(kiln_texture_registry_gpu_view(e.reg, id, &err) == NULL);
    CHECK(strcmp(err.message, "unknown texture id 1") == 0);
    CHECK_EQ_INT(kiln_texture_registry_view_handle(e.reg, id, NULL).id, 0);
    CHECK(kiln_texture_registry_gpu_texture(e.reg, 0, NULL) == NULL);
    CHECK(kiln_texture_registry_info(e.reg, 99) == NULL);
    ENV_CLOSE_CLEAN(e);
}

TEST(gpu_objects_exist_only_once_used_and_are_released_by_destroy) {
    registry_env e;
    ENV_OPEN(e);
    kiln_live_counts start = kiln_resources_live_counts(e.f.res);
    uint32_t a = create_plain(e.reg, KILN_FORMAT_RGBA8, 4, 4, NULL, KILN_USAGE_SAMPLED);
    uint32_t b = create_plain(e.reg, KILN_FORMAT_R8, 4, 4, NULL, KILN_USAGE_WRITABLE);
    kiln_live_counts c = kiln_resources_live_counts(e.f.res);
    CHECK_EQ_INT(kiln_live_counts_total(&c), kiln_live_counts_total(&start));
    CHECK(kiln_texture_registry_gpu_view(e.reg, a, NULL) != NULL);
    CHECK(kiln_texture_registry_gpu_view(e.reg, b, NULL) != NULL);
    void *back = NULL;
    size_t size = 0;
    CHECK(kiln_texture_registry_read(e.reg, b, &back, &size, NULL)); /* its staging buffer goes too */
    free(back);
    c = kiln_resources_live_counts(e.f.res);
    CHECK_EQ_INT(c.textures, start.textures + 2);
    CHECK_EQ_INT(c.texture_views, start.texture_views + 2);
    CHECK_EQ_INT(kiln_live_counts_total(&c), kiln_live_counts_total(&start) + 4);
    CHECK(kiln_texture_registry_remove(e.reg, a, NULL));
    c = kiln_resources_live_counts(e.f.res);
    CHECK_EQ_INT(kiln_live_counts_total(&c), kiln_live_counts_total(&start) + 2);
    CHECK(kiln_texture_registry_remove(e.reg, b, NULL));
    c = kiln_resources_live_counts(e.f.res);
    CHECK_EQ_INT(kiln_live_counts_total(&c), kiln_live_counts_total(&start));
    ENV_CLOSE_CLEAN(e);
}

TEST(destroying_the_registry_releases_every_gpu_object) {
    registry_env e;
    ENV_OPEN(e);
    kiln_live_counts start = kiln_resources_live_counts(e.f.res);
    for (size_t i = 0; i < FORMAT_TOTAL; i++) {
        uint32_t id = create_plain(e.reg, ALL_FORMATS[i], 2, 2, NULL, KILN_USAGE_WRITABLE);
        CHECK(kiln_texture_registry_gpu_view(e.reg, id, NULL) != NULL);
    }
    kiln_live_counts c = kiln_resources_live_counts(e.f.res);
    CHECK_EQ_INT(kiln_live_counts_total(&c), kiln_live_counts_total(&start) + 2 * FORMAT_TOTAL);
    kiln_texture_registry_destroy(e.reg);
    e.reg = NULL;
    c = kiln_resources_live_counts(e.f.res);
    CHECK_EQ_INT(kiln_live_counts_total(&c), kiln_live_counts_total(&start));
    FIXTURE_CLOSE_CLEAN(e.f);
}

TEST_MAIN(T(format_table_matches_the_spec), T(format_names_match_exactly_and_unknown_formats_have_no_properties),
          T(ids_are_dense_from_one), T(a_destroyed_id_is_never_handed_out_again),
          T(every_rejected_create_names_its_value_and_consumes_no_id), T(info_reports_what_create_was_given),
          T(a_texture_without_pixels_is_zero_filled_on_the_gpu), T(every_format_round_trips_through_the_gpu_unchanged),
          T(a_sampled_texture_is_uploaded_from_its_cpu_copy), T(an_update_is_uploaded_at_the_next_gpu_use),
          T(read_after_update_returns_the_new_pixels), T(an_update_of_the_wrong_length_changes_nothing),
          T(a_writable_texture_reads_back_what_the_gpu_rendered),
          T(an_update_of_a_rendered_writable_texture_replaces_the_gpu_pixels),
          T(a_destroyed_id_is_unknown_to_every_call),
          T(gpu_objects_exist_only_once_used_and_are_released_by_destroy),
          T(destroying_the_registry_releases_every_gpu_object))
