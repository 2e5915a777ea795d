/* The ABI of the public structs (docs/ARCHITECTURE.md, "ABI of the public structs";
 * docs/adr/003-public-struct-abi.md).
 *
 * The layout pins: the offset and size of every member of the structs a caller hands the library,
 * and each struct's size, as this release has them. A member moved or resized fails naming it and
 * both offsets; a struct that grew fails until rows for its appended members are added, so an
 * append is deliberate.
 *
 * The sized entry points: a caller's struct shorter than the library's (kiln_render_settings as
 * the first release had it, 88 bytes, ending at shader_dir; kiln_render_instance before
 * object_id, 112 bytes), followed by 0xFF canaries, is read only as far as the caller's size
 * goes and written no further; an instance array at the shorter stride draws the same image as
 * at the library's; sizes larger than the library's or smaller than the first release's are
 * refused with their exact messages. GPU frames validation clean. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <kiln/render.h>

#include "renderer_fixture.h"

/* ---- layout pins --------------------------------------------------------------------------- */

typedef struct member_pin {
    const char *name;
    size_t offset, size;                 /* as compiled */
    size_t pinned_offset, pinned_size;   /* this release's */
} member_pin;

typedef struct struct_pin {
    const char *name;
    size_t size, align, pinned_size;
    const member_pin *members;
    size_t member_count;
} struct_pin;

#define PIN(type, member, offset, size) {#member, offsetof(type, member), sizeof(((type *)0)->member), offset, size}
#define STRUCT(type, size, members) {#type, sizeof(type), _Alignof(type), size, members, sizeof members / sizeof members[0]}

static const member_pin render_settings_members[] = {
    PIN(kiln_render_settings, tonemapper, 0, 4),
    PIN(kiln_render_settings, exposure, 4, 4),
    PIN(kiln_render_settings, ibl_intensity, 8, 4),
    PIN(kiln_render_settings, debug, 12, 4),
    PIN(kiln_render_settings, msaa, 16, 4),
    PIN(kiln_render_settings, fxaa, 20, 1),
    PIN(kiln_render_settings, disable_bloom, 21, 1),
    PIN(kiln_render_settings, bloom_strength, 24, 4),
    PIN(kiln_render_settings, bloom_threshold, 28, 4),
    PIN(kiln_render_settings, wireframe, 32, 1),
    PIN(kiln_render_settings, disable_culling, 33, 1),
    PIN(kiln_render_settings, disable_shadows, 34, 1),
    PIN(kiln_render_settings, disable_ao, 35, 1),
    PIN(kiln_render_settings, ao_radius, 36, 4),
    PIN(kiln_render_settings, background, 40, 4),
    PIN(kiln_render_settings, background_color, 44, 12),
    PIN(kiln_render_settings, shadow_distance, 56, 4),
    PIN(kiln_render_settings, cascade_resolution, 60, 4),
    PIN(kiln_render_settings, atlas_size, 64, 4),
    PIN(kiln_render_settings, atlas_tile, 68, 4),
    PIN(kiln_render_settings, worker_threads, 72, 4),
    PIN(kiln_render_settings, shader_dir, 80, 8),
    PIN(kiln_render_settings, white_balance_temperature, 88, 4),
    PIN(kiln_render_settings, white_balance_tint, 92, 4),
    PIN(kiln_render_settings, contrast, 96, 4),
    PIN(kiln_render_settings, saturation, 100, 4),
    PIN(kiln_render_settings, lift, 104, 12),
    PIN(kiln_render_settings, gamma, 116, 12),
    PIN(kiln_render_settings, gain, 128, 12),
    PIN(kiln_render_settings, color_lut, 140, 4),
};
static const member_pin material_members[] = {
    PIN(kiln_material, label, 0, 8),
    PIN(kiln_material, base_color, 8, 16),
    PIN(kiln_material, metallic, 24, 4),
    PIN(kiln_material, roughness, 28, 4),
    PIN(kiln_material, emissive, 32, 12),
    PIN(kiln_material, emissive_strength, 44, 4),
    PIN(kiln_material, normal_scale, 48, 4),
    PIN(kiln_material, occlusion_strength, 52, 4),
    PIN(kiln_material, alpha_cutoff, 56, 4),
    PIN(kiln_material, alpha_mode, 60, 4),
    PIN(kiln_material, double_sided, 64, 1),
    PIN(kiln_material, uv_offset, 68, 8),
    PIN(kiln_material, uv_scale, 76, 8),
    PIN(kiln_material, uv_rotation, 84, 4),
    PIN(kiln_material, textures, 88, 20),
    PIN(kiln_material, texcoords, 108, 5),
    PIN(kiln_material, sampler, 116, 20),
};
static const member_pin sampler_state_members[] = {
    PIN(kiln_sampler_state, wrap_u, 0, 4),
    PIN(kiln_sampler_state, wrap_v, 4, 4),
    PIN(kiln_sampler_state, mag_filter, 8, 4),
    PIN(kiln_sampler_state, min_filter, 12, 4),
    PIN(kiln_sampler_state, mip_filter, 16, 4),
};
static const member_pin render_instance_members[] = {
    PIN(kiln_render_instance, mesh, 0, 4),
    PIN(kiln_render_instance, material, 4, 4),
    PIN(kiln_render_instance, transform, 8, 64),
    PIN(kiln_render_instance, disable_shadow_casting, 72, 1),
    PIN(kiln_render_instance, joint_offset, 76, 4),
    PIN(kiln_render_instance, morph_weights, 80, 32),
    PIN(kiln_render_instance, object_id, 112, 4),
};
static const member_pin light_members[] = {
    PIN(kiln_light, kind, 0, 4),
    PIN(kiln_light, position, 4, 12),
    PIN(kiln_light, direction, 16, 12),
    PIN(kiln_light, color, 28, 12),
    PIN(kiln_light, intensity, 40, 4),
    PIN(kiln_light, range, 44, 4),
    PIN(kiln_light, inner_angle, 48, 4),
    PIN(kiln_light, outer_angle, 52, 4),
    PIN(kiln_light, disable_shadow_casting, 56, 1),
    PIN(kiln_light, cast_shadows, 57, 1),
};
static const member_pin render_scene_members[] = {
    PIN(kiln_render_scene, camera, 0, 52),
    PIN(kiln_render_scene, lights, 56, 8),
    PIN(kiln_render_scene, light_count, 64, 4),
    PIN(kiln_render_scene, instances, 72, 8),
    PIN(kiln_render_scene, instance_count, 80, 4),
    PIN(kiln_render_scene, joints, 88, 8),
    PIN(kiln_render_scene, joint_count, 96, 4),
    PIN(kiln_render_scene, environment, 100, 36),
};
static const member_pin camera_members[] = {
    PIN(kiln_camera, position, 0, 12),
    PIN(kiln_camera, rotation, 12, 16),
    PIN(kiln_camera, fov_y, 28, 4),
    PIN(kiln_camera, aspect, 32, 4),
    PIN(kiln_camera, near, 36, 4),
    PIN(kiln_camera, projection, 40, 4),
    PIN(kiln_camera, half_height, 44, 4),
    PIN(kiln_camera, far, 48, 4),
};
static const member_pin environment_members[] = {
    PIN(kiln_environment, zenith, 0, 12),
    PIN(kiln_environment, ground, 12, 12),
    PIN(kiln_environment, sun_intensity, 24, 4),
    PIN(kiln_environment, equirect, 28, 4),
    PIN(kiln_environment, rotation, 32, 4),
};
static const member_pin render_target_members[] = {
    PIN(kiln_render_target, texture, 0, 8),
    PIN(kiln_render_target, view, 8, 8),
    PIN(kiln_render_target, linear_depth, 16, 8),
    PIN(kiln_render_target, linear_depth_view, 24, 8),
    PIN(kiln_render_target, object_ids, 32, 8),
    PIN(kiln_render_target, object_ids_view, 40, 8),
};
static const member_pin render_abi_members[] = {
    PIN(kiln_render_abi, settings, 0, 4),
    PIN(kiln_render_abi, material, 4, 4),
    PIN(kiln_render_abi, instance, 8, 4),
    PIN(kiln_render_abi, light, 12, 4),
    PIN(kiln_render_abi, scene, 16, 4),
    PIN(kiln_render_abi, target, 20, 4),
};

static const struct_pin pinned_structs[] = {
    STRUCT(kiln_render_settings, 144, render_settings_members),
    STRUCT(kiln_material, 136, material_members),
    STRUCT(kiln_sampler_state, 20, sampler_state_members),
    STRUCT(kiln_render_instance, 116, render_instance_members),
    STRUCT(kiln_light, 60, light_members),
    STRUCT(kiln_render_scene, 136, render_scene_members),
    STRUCT(kiln_camera, 52, camera_members),
    STRUCT(kiln_environment, 36, environment_members),
    STRUCT(kiln_render_target, 48, render_target_members),
    STRUCT(kiln_render_abi, 24, render_abi_members),
};

TEST(every_member_of_the_public_structs_stays_where_the_release_put_it) {
    for (size_t s = 0; s < sizeof pinned_structs / sizeof pinned_structs[0]; s++) {
        const struct_pin *p = &pinned_structs[s];
        for (size_t m = 0; m < p->member_count; m++) {
            const member_pin *row = &p->members[m];
            CHECK_MSG(row->offset == row->pinned_offset && row->size == row->pinned_size,
                      "%s.%s is at byte %zu (%zu bytes); the release put it at byte %zu (%zu bytes): a member "
                      "is never moved or resized", p->name, row->name, row->offset, row->size, row->pinned_offset,
                      row->pinned_size);
        }
    }
}

/* The rows reach the struct's end, so a member appended without its row fails here. */
TEST(a_struct_grows_only_with_rows_for_its_appended_members) {
    for (size_t s = 0; s < sizeof pinned_structs / sizeof pinned_structs[0]; s++) {
        const struct_pin *p = &pinned_structs[s];
        size_t end = 0;
        for (size_t m = 0; m < p->member_count; m++) {
            const member_pin *row = &p->members[m];
            CHECK_MSG(row->offset >= end, "%s.%s (byte %zu) is listed out of order", p->name, row->name, row->offset);
            end = row->offset + row->size;
        }
        size_t padded = (end + p->align - 1) / p->align * p->align;
        CHECK_MSG(padded == p->size, "%s is %zu bytes but its rows end at byte %zu: add rows for the appended members",
                  p->name, p->size, end);
        CHECK_MSG(p->size == p->pinned_size, "%s is %zu bytes, pinned at %zu: update the pin with the new rows",
                  p->name, p->size, p->pinned_size);
    }
}

/* ---- a caller built against an older header --------------------------------------------------- */

/* kiln_render_settings of the first release: the fields up to and including shader_dir. */
#define FIRST_SETTINGS_SIZE 88
/* kiln_render_instance before object_id. */
#define FIRST_INSTANCE_SIZE 112

/* A caller's settings of the first release, in a buffer of the library's size whose bytes past
 * the caller's struct are 0xFF: read, they would be NaN colour-grading values and an absurd table
 * id, which resolve refuses. */
static void first_release_settings(kiln_render_settings *buffer, float exposure) {
    kiln_render_settings s = {0};
    s.exposure = exposure;
    s.cascade_resolution = 256;
    s.disable_bloom = true;
    memset(buffer, 0xFF, sizeof *buffer);
    memcpy(buffer, &s, FIRST_SETTINGS_SIZE);
}

static bool all_canaries(const void *bytes, size_t from, size_t to) {
    for (size_t i = from; i < to; i++)
        if (((const uint8_t *)bytes)[i] != 0xFF) return false;
    return true;
}

TEST(resolving_a_first_release_settings_struct_reads_and_writes_only_its_bytes) {
    kiln_render_settings in, out;
    first_release_settings(&in, 2.0f);
    memset(&out, 0xFF, sizeof out);
    kiln_error err = {0};
    CHECK_MSG(kiln_render_settings_resolve_sized(&in, &out, FIRST_SETTINGS_SIZE, &err), "%s", err.message);
    CHECK(out.exposure == 2.0f && out.msaa == 1 && out.shadow_distance == 60.0f && out.atlas_size == 4096);
    CHECK(out.shader_dir == NULL);
    CHECK(all_canaries(&out, FIRST_SETTINGS_SIZE, sizeof out));
}

TEST(a_renderer_made_with_first_release_settings_gives_the_colour_grading_fields_their_defaults) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_render_settings settings;
    first_release_settings(&settings, 1.5f);
    kiln_render_abi abi = KILN_RENDER_ABI;
    abi.settings = FIRST_SETTINGS_SIZE;
    kiln_error err = {0};
    kiln_renderer *r = kiln_renderer_create_sized(f.gfx, f.res, &settings, WGPUTextureFormat_RGBA8Unorm, abi, &err);
    CHECK_MSG(r, "%s", err.message);
    const kiln_render_settings *requested = kiln_renderer_settings(r);
    CHECK(requested->exposure == 1.5f && requested->cascade_resolution == 256);
    CHECK(requested->contrast == 0.0f && requested->saturation == 0.0f && requested->gamma.x == 0.0f &&
          requested->color_lut == 0);
    kiln_render_settings resolved;
    CHECK_MSG(kiln_render_settings_resolve(requested, &resolved, &err), "%s", err.message);
    CHECK(resolved.gamma.x == 1.0f && resolved.gain.z == 1.0f && resolved.lift.y == 0.0f);
    /* The older caller reaches its own prefix of the renderer's settings. */
    CHECK(kiln_renderer_settings_sized(r, abi, &err) == kiln_renderer_settings(r));
    kiln_renderer_destroy(r);
    CHECK_EQ_INT(fixture_close(&f), 0);
}

TEST(a_setting_past_the_callers_struct_is_refused_writing_nothing) {
    kiln_render_settings s;
    first_release_settings(&s, 0.0f);
    kiln_error err = {0};
    CHECK_MSG(kiln_render_setting_set_sized(kiln_render_setting_find("exposure"), &s, FIRST_SETTINGS_SIZE, "3", NULL,
                                            &err), "%s", err.message);
    CHECK(s.exposure == 3.0f);
    const kiln_render_setting *contrast = kiln_render_setting_find("--contrast");
    CHECK(!kiln_render_setting_set_sized(contrast, &s, FIRST_SETTINGS_SIZE, "0.5", "--contrast", &err));
    char expected[160];
    snprintf(expected, sizeof expected,
             "--contrast: the caller's kiln_render_settings is 88 bytes and ends before this setting's field at byte %zu",
             offsetof(kiln_render_settings, contrast));
    CHECK_MSG(!strcmp(err.message, expected), "got '%s'", err.message);
    CHECK(all_canaries(&s, FIRST_SETTINGS_SIZE, sizeof s));
}

/* ---- instances at the caller's stride ------------------------------------------------------------ */

#define W 48
#define H 32

/* Two cubes of two materials under a sun, rendered from `instances` laid out `stride` bytes
 * apart, read back into *out. */
static bool render_cubes_at_stride(const void *instances, size_t stride, kiln_image *out, kiln_error *err) {
    renderer_fixture h;
    kiln_render_settings settings = renderer_fixture_quick_settings();
    bool ok = renderer_fixture_open(&h, &settings, WGPUTextureFormat_RGBA8Unorm, W, H, err);
    if (ok) ok = renderer_fixture_add_cube(&h, "cube", 0.4f, err) == 0;
    kiln_material red = kiln_material_default("red"), blue = kiln_material_default("blue");
    red.base_color = (kiln_vec4){0.9f, 0.1f, 0.1f, 1};
    blue.base_color = (kiln_vec4){0.1f, 0.2f, 0.9f, 1};
    if (ok) ok = kiln_renderer_add_material(h.r, &red, err) == 0 && kiln_renderer_add_material(h.r, &blue, err) == 1;
    kiln_light sun = kiln_light_sun((kiln_vec3){-0.3f, -1, -0.5f}, (kiln_vec3){1, 1, 1}, 3.0f);
    kiln_render_scene scene = {
        .camera = kiln_camera_look_at((kiln_vec3){0, 1, 4}, (kiln_vec3){0, 0, 0}, (kiln_vec3){0, 1, 0}, 0.8f, 1.5f, 0.1f),
        .lights = &sun, .light_count = 1, .instances = instances, .instance_count = 2};
    kiln_render_abi abi = KILN_RENDER_ABI;
    abi.instance = (uint32_t)stride;
    kiln_render_target target = renderer_fixture_target(&h);
    if (ok) ok = kiln_renderer_render_sized(h.r, &scene, &target, abi, err) &&
                 kiln_resources_read_texture(h.f.res, kiln_resources_texture_raw(h.f.res, h.target, NULL), out, err);
    uint64_t left = renderer_fixture_close(&h);
    if (ok && left) ok = kiln_error_set(err, KILN_ERR_GPU, "%llu Dawn errors or leaked objects", (unsigned long long)left);
    return ok;
}

TEST(instances_at_the_first_release_stride_draw_the_image_of_the_librarys_stride) {
    kiln_render_instance instances[2] = {
        {.mesh = 0, .material = 0, .transform = kiln_mat4_translation((kiln_vec3){-0.6f, 0, 0}), .object_id = 7},
        {.mesh = 0, .material = 1, .transform = kiln_mat4_translation((kiln_vec3){0.6f, 0, 0}), .object_id = 8},
    };
    uint8_t shorter[2 * FIRST_INSTANCE_SIZE];
    for (int i = 0; i < 2; i++) memcpy(shorter + i * FIRST_INSTANCE_SIZE, &instances[i], FIRST_INSTANCE_SIZE);
    kiln_image full = {0}, short_stride = {0};
    kiln_error err = {0};
    CHECK_MSG(render_cubes_at_stride(instances, sizeof instances[0], &full, &err), "%s", err.message);
    CHECK_MSG(render_cubes_at_stride(shorter, FIRST_INSTANCE_SIZE, &short_stride, &err), "%s", err.message);
    size_t bytes = kiln_image_byte_size(&full);
    CHECK(bytes == (size_t)W * H * 4 && kiln_image_byte_size(&short_stride) == bytes);
    /* Both cubes drawn: a red and a blue pixel on the centre row. */
    const uint8_t *row = (const uint8_t *)full.pixels + (size_t)(H / 2) * W * 4;
    bool red = false, blue = false;
    for (int x = 0; x < W; x++) {
        red |= row[x * 4] > 2 * row[x * 4 + 2] + 20;
        blue |= row[x * 4 + 2] > 2 * row[x * 4] + 20;
    }
    CHECK(red && blue);
    CHECK(!memcmp(full.pixels, short_stride.pixels, bytes));
    kiln_image_free(&full);
    kiln_image_free(&short_stride);
}

/* ---- sizes the library does not know ----------------------------------------------------------- */

TEST(a_settings_struct_of_a_newer_kiln_is_refused_naming_both_sizes) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    uint8_t newer[160] = {0};
    kiln_render_abi abi = KILN_RENDER_ABI;
    abi.settings = sizeof newer;
    kiln_error err = {0};
    CHECK(!kiln_renderer_create_sized(f.gfx, f.res, (const kiln_render_settings *)newer, WGPUTextureFormat_RGBA8Unorm,
                                      abi, &err));
    CHECK_MSG(!strcmp(err.message, "renderer: the caller's kiln_render_settings is 160 bytes, this library's 144: "
                                   "built against a newer kiln"), "got '%s'", err.message);
    CHECK_EQ_INT(fixture_close(&f), 0);
}

TEST(a_settings_struct_smaller_than_the_first_releases_is_refused) {
    kiln_render_settings in = {0}, out;
    kiln_error err = {0};
    CHECK(!kiln_render_settings_resolve_sized(&in, &out, 40, &err));
    CHECK_MSG(!strcmp(err.message, "renderer: the caller's kiln_render_settings is 40 bytes, smaller than the first "
                                   "release's 88"), "got '%s'", err.message);
}

/* One row per sized entry point that needs no GPU, each with a size one past the library's. */
TEST(every_sized_entry_point_refuses_a_struct_larger_than_the_librarys) {
    uint8_t buffer[512] = {0};
    kiln_render_abi abi = KILN_RENDER_ABI;
    abi.material++;
    kiln_error errs[6] = {{0}};
    bool accepted[6] = {
        kiln_material_default_into((kiln_material *)buffer, sizeof(kiln_material) + 1, "m", &errs[0]),
        kiln_material_validate_sized((const kiln_material *)buffer, NULL, abi, &errs[1]),
        kiln_light_sun_into((kiln_light *)buffer, sizeof(kiln_light) + 1, (kiln_vec3){0, -1, 0}, (kiln_vec3){1, 1, 1},
                            1, &errs[2]),
        kiln_light_point_into((kiln_light *)buffer, sizeof(kiln_light) + 1, (kiln_vec3){0}, (kiln_vec3){1, 1, 1}, 1, 1,
                              &errs[3]),
        kiln_light_spot_into((kiln_light *)buffer, sizeof(kiln_light) + 1, (kiln_vec3){0}, (kiln_vec3){0, -1, 0},
                             (kiln_vec3){1, 1, 1}, 1, 1, 0.1f, 0.2f, &errs[4]),
        kiln_render_setting_set_sized(kiln_render_setting_find("exposure"), (kiln_render_settings *)buffer,
                                      sizeof(kiln_render_settings) + 1, "2", NULL, &errs[5]),
    };
    const char *expected[6] = {
        "material: the caller's kiln_material is 137 bytes, this library's 136: built against a newer kiln",
        "renderer: the caller's kiln_material is 137 bytes, this library's 136: built against a newer kiln",
        "light: the caller's kiln_light is 61 bytes, this library's 60: built against a newer kiln",
        "light: the caller's kiln_light is 61 bytes, this library's 60: built against a newer kiln",
        "light: the caller's kiln_light is 61 bytes, this library's 60: built against a newer kiln",
        "renderer: the caller's kiln_render_settings is 145 bytes, this library's 144: built against a newer kiln",
    };
    for (int i = 0; i < 6; i++) {
        CHECK_MSG(!accepted[i], "row %d accepted", i);
        CHECK_MSG(!strcmp(errs[i].message, expected[i]), "row %d: got '%s'", i, errs[i].message);
    }
    for (size_t i = 0; i < sizeof buffer; i++) CHECK_MSG(buffer[i] == 0, "byte %zu written", i);
}

TEST(a_scene_instance_light_or_target_of_a_newer_kiln_is_refused_before_the_frame) {
    renderer_fixture h;
    kiln_error err = {0};
    kiln_render_settings settings = renderer_fixture_quick_settings();
    CHECK_MSG(renderer_fixture_open(&h, &settings, WGPUTextureFormat_RGBA8Unorm, W, H, &err), "%s", err.message);
    kiln_render_scene scene = {.camera = kiln_camera_look_at((kiln_vec3){0, 0, 3}, (kiln_vec3){0, 0, 0},
                                                             (kiln_vec3){0, 1, 0}, 0.8f, 1.5f, 0.1f)};
    kiln_render_target target = renderer_fixture_target(&h);
    const struct { size_t field; const char *message; } rows[] = {
        {offsetof(kiln_render_abi, scene),
         "renderer: the caller's kiln_render_scene is 137 bytes, this library's 136: built against a newer kiln"},
        {offsetof(kiln_render_abi, instance),
         "renderer: the caller's kiln_render_instance is 117 bytes, this library's 116: built against a newer kiln"},
        {offsetof(kiln_render_abi, light),
         "renderer: the caller's kiln_light is 61 bytes, this library's 60: built against a newer kiln"},
        {offsetof(kiln_render_abi, target),
         "renderer: the caller's kiln_render_target is 49 bytes, this library's 48: built against a newer kiln"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        kiln_render_abi abi = KILN_RENDER_ABI;
        uint32_t *size = (uint32_t *)((char *)&abi + rows[i].field);
        (*size)++;
        CHECK_MSG(!kiln_renderer_render_sized(h.r, &scene, &target, abi, &err), "row %zu accepted", i);
        CHECK_MSG(!strcmp(err.message, rows[i].message), "row %zu: got '%s'", i, err.message);
    }
    CHECK_MSG(kiln_renderer_render(h.r, &scene, target, &err), "%s", err.message);
    CHECK_EQ_INT(renderer_fixture_close(&h), 0);
}

TEST_MAIN(T(every_member_of_the_public_structs_stays_where_the_release_put_it),
          T(a_struct_grows_only_with_rows_for_its_appended_members),
          T(resolving_a_first_release_settings_struct_reads_and_writes_only_its_bytes),
          T(a_renderer_made_with_first_release_settings_gives_the_colour_grading_fields_their_defaults),
          T(a_setting_past_the_callers_struct_is_refused_writing_nothing),
          T(instances_at_the_first_release_stride_draw_the_image_of_the_librarys_stride),
          T(a_settings_struct_of_a_newer_kiln_is_refused_naming_both_sizes),
          T(a_settings_struct_smaller_than_the_first_releases_is_refused),
          T(every_sized_entry_point_refuses_a_struct_larger_than_the_librarys),
          T(a_scene_instance_light_or_target_of_a_newer_kiln_is_refused_before_the_frame))
