/* One layout per block shared by C and WGSL: the renderer compares the C packers' sizes with the
 * structs of the WGSL it is created with, through kiln's WGSL reflector, so a field added on one
 * side only fails creation naming the block; and every packer writes exactly its block. */
#include <dirent.h>
#include <sys/stat.h>

#include <kiln/render.h>

#include "render/names.h"
#include "render/renderer_internal.h"
#include "gfx_fixture.h"

/* The embedded renderer shaders with every `from` in one file replaced by `to`: a source to check
 * without touching the disk. */
typedef struct edited_source {
    kiln_wgsl_embedded_file files[32];
    kiln_wgsl_source source;
} edited_source;

static bool edit_embedded(edited_source *e, const char *file, const char *from, const char *to, char *buf,
                          size_t size) {
    if (kiln_render_wgsl_count > 32) return false;
    bool found = false;
    for (uint32_t i = 0; i < kiln_render_wgsl_count; i++) {
        e->files[i] = kiln_render_wgsl[i];
        if (strcmp(e->files[i].name, file)) continue;
        /* Every occurrence, so a struct can be renamed with its uses. */
        const char *rest = e->files[i].text;
        size_t n = 0;
        for (const char *at; (at = strstr(rest, from)) && n < size; rest = at + strlen(from)) {
            n += (size_t)snprintf(buf + n, size - n, "%.*s%s", (int)(at - rest), rest, to);
            found = true;
        }
        if (n < size) snprintf(buf + n, size - n, "%s", rest);
        e->files[i].text = buf;
    }
    e->source = (kiln_wgsl_source){.files = e->files, .file_count = kiln_render_wgsl_count,
                                   .generated = renderer_enums_wgsl(), .generated_count = 1};
    return found;
}

TEST(the_embedded_shaders_match_every_c_block) {
    kiln_error err = {0};
    kiln_wgsl_source source = {.files = kiln_render_wgsl, .file_count = kiln_render_wgsl_count,
                               .generated = renderer_enums_wgsl(), .generated_count = 1};
    CHECK_MSG(renderer_check_layouts(&source, &err), "%s", err.message);
}

TEST(a_field_added_on_one_side_only_names_the_block) {
    static char text[65536];
    static const struct {
        const char *id, *file, *from, *to, *message;
    } rows[] = {
        {"layout-1", "common.wgsl", "    debug_mode: u32,\n", "    debug_mode: u32,\n    extra: vec4<f32>,\n",
         "renderer: struct View in forward.wgsl is 384 bytes in WGSL but 368 in C (src/render/uniforms.c)"},
        {"layout-2", "common.wgsl", "    sky_sun_intensity: f32,\n", "    sky_sun_intensity: f32,\n    extra: f32,\n",
         "renderer: struct Lighting in forward.wgsl is 96 bytes in WGSL but 80 in C (src/render/uniforms.c)"},
        {"layout-3", "post.wgsl", "    bloom_strength: f32,", "    bloom_strength: f32,\n    extra: vec4<f32>,",
         "renderer: struct Post in post.wgsl is 64 bytes in WGSL but 48 in C (src/render/uniforms.c)"},
        {"layout-4", "post.wgsl", "Post", "Toned", "renderer: post.wgsl declares no struct Post"},
        /* the same size, two members swapped: caught by name and offset */
        {"layout-5", "common.wgsl", "    sun_intensity: f32,           // lux\n    sun_color: vec3<f32>,\n    has_sun: u32,\n",
         "    has_sun: u32,\n    sun_color: vec3<f32>,\n    sun_intensity: f32,\n",
         "renderer: Lighting.sun_intensity in forward.wgsl is 4 bytes at 28 in WGSL but 4 at 12 in C"},
        {"layout-6", "common.wgsl", "    ibl_intensity: f32,\n", "    ambient_intensity: f32,\n",
         "renderer: struct Lighting in forward.wgsl has no member ibl_intensity, which C writes"},
        {"layout-7", "material.wgsl", "    pad2: u32,\n", "",
         "renderer: struct MaterialParams in forward.wgsl has no member pad2, which C writes"},
        {"layout-8", "lights.wgsl", "    slice_bias: f32,             // 148\n    light_count: u32,            // 152\n",
         "    light_count: u32,\n    slice_bias: f32,\n",
         "renderer: ClusterUniform.slice_bias in forward.wgsl is 4 bytes at 152 in WGSL but 4 at 148 in C"},
        /* the shading group's bindings: each var of group 3 is a feature's row, by number, name and kind */
        {"binding-1", "forward.wgsl", "var ao_texture: texture_2d<f32>", "var occlusion: texture_2d<f32>",
         "renderer: forward.wgsl: @group(3) @binding(12) is 'occlusion', but ao binds 'ao_texture' there"},
        {"binding-2", "forward.wgsl", "var ao_texture: texture_2d<f32>", "var ao_texture: texture_cube<f32>",
         "renderer: forward.wgsl: 'ao_texture' at @group(3) @binding(12) differs in its type from the "
         "texture_2d<f32> ao binds there"},
        {"binding-5", "forward.wgsl", "var<storage, read> lights", "var<storage, read_write> lights",
         "renderer: forward.wgsl: 'lights' at @group(3) @binding(1) differs in its access from the "
         "var<storage, read> light_cull binds there"},
        {"binding-6", "forward.wgsl", "var ao_texture: texture_2d<f32>", "var ao_texture: texture_2d<u32>",
         "renderer: forward.wgsl: 'ao_texture' at @group(3) @binding(12) differs in its texel type from the "
         "texture_2d<f32> ao binds there"},
        {"binding-7", "forward.wgsl", "var<uniform> shadows: Shadows", "var<storage, read> shadows: Shadows",
         "renderer: forward.wgsl: 'shadows' at @group(3) @binding(5) differs in its address space from the "
         "var<uniform> shadows binds there"},
        {"binding-3", "forward.wgsl", "@group(3) @binding(14) var shadow_atlas", "@group(3) @binding(31) var shadow_atlas",
         "renderer: forward.wgsl: 'shadow_atlas' at @group(3) @binding(31) is no feature's binding"},
        {"binding-4", "wireframe.wgsl", "var<uniform> pass_view: PassView", "var<uniform> view_slot: PassView",
         "renderer: wireframe.wgsl: @group(3) @binding(4) is 'view_slot', but views binds 'pass_view' there"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        edited_source e;
        CHECK_MSG(edit_embedded(&e, rows[i].file, rows[i].from, rows[i].to, text, sizeof text), "%s: no such text",
                  rows[i].id);
        kiln_error err = {0};
        CHECK_MSG(!renderer_check_layouts(&e.source, &err), "%s: accepted", rows[i].id);
        CHECK_MSG(strcmp(err.message, rows[i].message) == 0, "%s: got '%s', want '%s'", rows[i].id, err.message,
                  rows[i].message);
    }
}

/* The check runs when the renderer loads its shaders: a shader directory whose View block grew
 * a field is refused at creation, and nothing is left behind. */
TEST(a_renderer_refuses_shaders_whose_blocks_drifted) {
    const char *tmp = getenv("KILN_TEST_TMP");
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/layout_drift", tmp ? tmp : "/tmp");
    mkdir(dir, 0755);
    static char text[65536];
    edited_source e;
    CHECK(edit_embedded(&e, "common.wgsl", "    debug_mode: u32,\n", "    debug_mode: u32,\n    extra: vec4<f32>,\n", text,
                        sizeof text));
    for (uint32_t i = 0; i < e.source.file_count; i++) {
        char path[1200];
        snprintf(path, sizeof path, "%s/%s", dir, e.files[i].name);
        FILE *f = fopen(path, "wb");
        CHECK(f);
        fputs(e.files[i].text, f);
        fclose(f);
    }
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_renderer *r = kiln_renderer_create(f.gfx, f.res, &(kiln_render_settings){.shader_dir = dir},
                                            WGPUTextureFormat_RGBA8Unorm, &err);
    kiln_live_counts left = kiln_resources_live_counts(f.res);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK(!r);
    CHECK_STR_CONTAINS(err.message, "struct View in forward.wgsl is 384 bytes in WGSL but 368 in C");
    CHECK_EQ_INT(kiln_live_counts_total(&left), 0);
}

/* Each packer writes every member of its layout and zeroes the rest: a known value per member
 * lands at the member's offset, and bytes no member covers stay zero. */
TEST(every_packer_writes_its_members_at_the_layout_offsets) {
    uint8_t bytes[KILN_VIEW_UNIFORM_SIZE];
    memset(bytes, 0xEE, sizeof bytes);
    kiln_view_uniform_inputs view = {.view = kiln_mat4_identity(), .projection = kiln_mat4_identity(), .near = 0.25f,
                                     .camera_position = {1, 2, 3}, .width = 4, .height = 8, .debug = KILN_DEBUG_ALBEDO};
    kiln_view_uniform_pack(&view, bytes);
    float f;
    uint32_t u;
    memcpy(&f, bytes + 332, 4); /* View.near */
    CHECK_NEAR(f, 0.25f, 0.0);
    memcpy(&f, bytes + 328, 4); /* View.camera_position.z */
    CHECK_NEAR(f, 3.0f, 0.0);
    memcpy(&f, bytes + 348, 4); /* View.inverse_screen_size.y */
    CHECK_NEAR(f, 0.125f, 0.0);
    memcpy(&u, bytes + 352, 4); /* View.debug_mode */
    CHECK_EQ_INT(u, KILN_DEBUG_ALBEDO);
    for (size_t i = 356; i < sizeof bytes; i++) CHECK_EQ_INT(bytes[i], 0); /* the struct's tail padding */

    uint8_t post[KILN_POST_UNIFORM_SIZE];
    memset(post, 0xEE, sizeof post);
    kiln_post_uniform_pack(2.0f, KILN_TONEMAP_NONE, true, 0.25f, KILN_BACKGROUND_COLOR, (kiln_vec3){0.5f, 0.25f, 1}, true, post);
    memcpy(&f, post, 4);
    CHECK_NEAR(f, 2.0f, 0.0);
    memcpy(&u, post + 4, 4);
    CHECK_EQ_INT(u, KILN_TONEMAP_NONE);
    memcpy(&u, post + 8, 4);
    CHECK_EQ_INT(u, 1);
    memcpy(&f, post + 12, 4); /* Post.bloom_strength */
    CHECK_NEAR(f, 0.25f, 0.0);
    memcpy(&u, post + 16, 4); /* Post.background */
    CHECK_EQ_INT(u, KILN_BACKGROUND_COLOR);
    memcpy(&f, post + 36, 4); /* Post.background_color.y */
    CHECK_NEAR(f, 0.25f, 0.0);
    memcpy(&u, post + 20, 4); /* Post.premultiply: only for a transparent background */
    CHECK_EQ_INT(u, 0);
    for (size_t i = 24; i < 32; i++) CHECK_EQ_INT(post[i], 0); /* padding before the vec3 */
    kiln_post_uniform_pack(1.0f, KILN_TONEMAP_NONE, false, 0.0f, KILN_BACKGROUND_TRANSPARENT, (kiln_vec3){0, 0, 0}, true, post);
    memcpy(&u, post + 20, 4);
    CHECK_EQ_INT(u, 1);

    uint8_t bloom[KILN_BLOOM_UNIFORM_SIZE];
    memset(bloom, 0xEE, sizeof bloom);
    kiln_bloom_uniform_pack(1.5f, 0.75f, bloom);
    memcpy(&f, bloom, 4); /* Bloom.threshold */
    CHECK_NEAR(f, 1.5f, 0.0);
    memcpy(&f, bloom + 4, 4); /* Bloom.knee */
    CHECK_NEAR(f, 0.75f, 0.0);
    for (size_t i = 8; i < sizeof bloom; i++) CHECK_EQ_INT(bloom[i], 0); /* the padding */

    uint8_t record[KILN_INSTANCE_RECORD_SIZE];
    memset(record, 0xEE, sizeof record);
    kiln_instance_record_pack(kiln_mat4_translation((kiln_vec3){5, 6, 7}), 3, 1, 2, -1, 9, 0xABCDEF01u, record);
    uint32_t params[4];
    memcpy(params, record + 128, sizeof params);
    CHECK_EQ_INT(params[0], 3);
    CHECK_EQ_INT(params[1], 1 | (2 << 8));
    CHECK_EQ_INT((int32_t)params[2], -1);
    CHECK_EQ_INT(params[3], 9);
    uint32_t object[4];
    memcpy(object, record + 144, sizeof object);
    CHECK_EQ_INT(object[0], 0xABCDEF01u);
    for (int i = 1; i < 4; i++) CHECK_EQ_INT(object[i], 0); /* the padding */
    memcpy(&f, record + 48, 4); /* model column 3, x: the translation */
    CHECK_NEAR(f, 5.0f, 0.0);
}

TEST_MAIN(T(the_embedded_shaders_match_every_c_block), T(a_field_added_on_one_side_only_names_the_block),
          T(a_renderer_refuses_shaders_whose_blocks_drifted), T(every_packer_writes_its_members_at_the_layout_offsets))
