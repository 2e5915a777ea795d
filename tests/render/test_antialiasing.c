/* Anti-aliasing: MSAA 4 and FXAA soften a hard edge, FXAA leaves flat areas alone, and both
 * appear in the frame graph only when they are on. The scene is a red square turned 30 degrees under a camera
 * looking straight down, in the albedo debug view: every pixel is exactly the square's colour or
 * the black the sky draws in debug views, unless something anti-aliased the edge between them. */
#include <kiln/render.h>

#include "renderer_fixture.h"

#define W 160
#define H 90

typedef struct edge_scene {
    renderer_fixture h;
    kiln_render_instance square;
    kiln_render_scene scene;
} edge_scene;

/* An sRGB output unless `format` names another. */
static bool edge_scene_open_as(edge_scene *e, const kiln_render_settings *settings, WGPUTextureFormat format,
                               kiln_error *err) {
    *e = (edge_scene){0};
    kiln_render_settings s = *settings;
    s.debug = KILN_DEBUG_ALBEDO;
    if (!renderer_fixture_open(&e->h, &s, format, W, H, err)) return false;
    kiln_mesh_data md = {0};
    if (!kiln_mesh_plane(&md, 1.0f, 1, err)) return false;
    uint32_t plane = kiln_renderer_add_mesh(e->h.r, "square", &md, false, err);
    kiln_mesh_data_free(&md);
    kiln_material red = kiln_material_default("red");
    red.base_color = (kiln_vec4){1, 0, 0, 1};
    uint32_t material = kiln_renderer_add_material(e->h.r, &red, err);
    if (plane == KILN_INVALID_INDEX || material == KILN_INVALID_INDEX) return false;
    e->square = (kiln_render_instance){.mesh = plane, .material = material,
        .transform = kiln_mat4_from_quat(kiln_quat_from_axis_angle((kiln_vec3){0, 1, 0}, 0.5236f))};
    e->scene = (kiln_render_scene){
        .camera = kiln_camera_look_at((kiln_vec3){0, 4, 0}, (kiln_vec3){0, 0, 0}, (kiln_vec3){0, 0, -1}, 1.0f, 1.0f, 0.1f),
        .instances = &e->square, .instance_count = 1};
    return true;
}

static bool edge_scene_open(edge_scene *e, const kiln_render_settings *settings, kiln_error *err) {
    return edge_scene_open_as(e, settings, WGPUTextureFormat_RGBA8UnormSrgb, err);
}

static bool edge_scene_render(edge_scene *e, kiln_image *out, kiln_error *err) {
    return renderer_fixture_render(&e->h, &e->scene, out, err);
}

static uint64_t edge_scene_close(edge_scene *e) { return renderer_fixture_close(&e->h); }

static uint8_t red_at(const kiln_image *img, uint32_t x, uint32_t y) {
    return ((const uint8_t *)img->pixels)[((size_t)y * img->width + x) * 4];
}

/* Pixels strictly between black and the square's red. */
static uint32_t intermediate_pixels(const kiln_image *img) {
    uint32_t n = 0;
    for (uint32_t y = 0; y < img->height; y++)
        for (uint32_t x = 0; x < img->width; x++) n += red_at(img, x, y) > 0 && red_at(img, x, y) < 255;
    return n;
}

/* Renders the edge scene once under `settings` into *out; false (with the reason printed) when
 * the frame failed or Dawn reported anything. */
static bool render_edge_as(const kiln_render_settings *settings, WGPUTextureFormat format, kiln_image *out) {
    edge_scene e;
    kiln_error err = {0};
    bool ok = edge_scene_open_as(&e, settings, format, &err) && edge_scene_render(&e, out, &err);
    if (!ok) fprintf(stderr, "render_edge: %s\n", err.message);
    uint64_t left = edge_scene_close(&e);
    if (ok && left) kiln_image_free(out);
    return ok && left == 0;
}

static bool render_edge(const kiln_render_settings *settings, kiln_image *out) {
    return render_edge_as(settings, WGPUTextureFormat_RGBA8UnormSrgb, out);
}

/* Pixels of `after` that differ from `before` where `before` is flat: its 3x3 neighbourhood one
 * colour (the image border counts as flat beyond the edge). */
static uint32_t changed_flat_pixels(const kiln_image *before, const kiln_image *after) {
    const uint32_t *b = before->pixels, *a = after->pixels;
    uint32_t n = 0;
    for (uint32_t y = 0; y < before->height; y++)
        for (uint32_t x = 0; x < before->width; x++) {
            bool flat = true;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int nx = (int)x + dx, ny = (int)y + dy;
                    if (nx >= 0 && ny >= 0 && nx < (int)before->width && ny < (int)before->height)
                        flat = flat && b[(size_t)ny * before->width + (size_t)nx] == b[(size_t)y * before->width + x];
                }
            n += flat && a[(size_t)y * before->width + x] != b[(size_t)y * before->width + x];
        }
    return n;
}

TEST(msaa_4_puts_intermediate_values_on_an_edge_and_msaa_1_none) {
    kiln_image one, four;
    CHECK(render_edge(&(kiln_render_settings){.msaa = 1}, &one));
    CHECK(render_edge(&(kiln_render_settings){.msaa = 4}, &four));
    uint32_t hard = intermediate_pixels(&one), soft = intermediate_pixels(&four);
    /* The square is there, in both. */
    bool square = red_at(&one, W / 2, H / 2) == 255 && red_at(&four, W / 2, H / 2) == 255;
    kiln_image_free(&one);
    kiln_image_free(&four);
    printf("intermediate pixels: msaa 1 %u, msaa 4 %u\n", hard, soft);
    CHECK(square);
    CHECK_EQ_INT(hard, 0);
    CHECK(soft > 40); /* the square's outline is about 180 pixels long */
}

TEST(msaa_4_resolves_hdr_into_the_target_the_tone_map_reads) {
    edge_scene e;
    kiln_error err = {0};
    CHECK_MSG(edge_scene_open(&e, &(kiln_render_settings){.msaa = 4}, &err), "%s", err.message);
    kiln_image img = {0};
    bool ok = edge_scene_render(&e, &img, &err);
    char dot[8192];
    kiln_renderer_graph_dot(e.h.r, dot, sizeof dot);
    uint32_t passes = kiln_renderer_stats(e.h.r)->passes;
    kiln_image_free(&img);
    CHECK_EQ_INT(edge_scene_close(&e), 0);
    CHECK_MSG(ok, "%s", err.message);
    CHECK_EQ_INT(passes, 6); /* the resolve is an attachment of the blend pass, not a pass */
    CHECK_STR_CONTAINS(dot, "hdr resolved");
    CHECK_STR_CONTAINS(dot, "label=\"resolve\"");
}

TEST(switching_msaa_between_frames_renders_each_clean) {
    edge_scene e;
    kiln_error err = {0};
    CHECK_MSG(edge_scene_open(&e, &(kiln_render_settings){0}, &err), "%s", err.message);
    kiln_image first = {0}, four = {0}, back = {0};
    bool ok = edge_scene_render(&e, &first, &err);
    kiln_renderer_settings(e.h.r)->msaa = 4;
    ok = ok && edge_scene_render(&e, &four, &err);
    kiln_renderer_settings(e.h.r)->msaa = 0;
    ok = ok && edge_scene_render(&e, &back, &err);
    bool same = ok && memcmp(first.pixels, back.pixels, (size_t)W * H * 4) == 0;
    uint32_t soft = ok ? intermediate_pixels(&four) : 0;
    kiln_image_free(&first);
    kiln_image_free(&four);
    kiln_image_free(&back);
    CHECK_EQ_INT(edge_scene_close(&e), 0);
    CHECK_MSG(ok, "%s", err.message);
    CHECK(same); /* back to 1 sample (0 means 1): the first frame again */
    CHECK(soft > 40);
}

/* For an sRGB output (ldr sRGB too: linear values, the luma encoded in the shader) and an 8-bit
 * unorm one (ldr holding the values the tone map encoded). */
TEST(fxaa_smooths_a_hard_edge_and_leaves_flat_areas_unchanged) {
    const WGPUTextureFormat formats[] = {WGPUTextureFormat_RGBA8UnormSrgb, WGPUTextureFormat_RGBA8Unorm};
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        kiln_image off, on;
        CHECK(render_edge_as(&(kiln_render_settings){0}, formats[i], &off));
        CHECK(render_edge_as(&(kiln_render_settings){.fxaa = true}, formats[i], &on));
        uint32_t hard = intermediate_pixels(&off), soft = intermediate_pixels(&on);
        uint32_t changed = changed_flat_pixels(&off, &on);
        kiln_image_free(&off);
        kiln_image_free(&on);
        printf("format 0x%x: intermediate pixels without fxaa %u, with %u; flat pixels changed %u\n",
               (unsigned)formats[i], hard, soft, changed);
        CHECK_EQ_INT(hard, 0);
        CHECK(soft > 40);
        CHECK_EQ_INT(changed, 0);
    }
}

TEST(the_graph_holds_the_fxaa_pass_and_ldr_only_with_fxaa_on) {
    edge_scene e;
    kiln_error err = {0};
    CHECK_MSG(edge_scene_open(&e, &(kiln_render_settings){0}, &err), "%s", err.message);
    kiln_image img = {0};
    char off[8192], on[8192];
    bool ok = edge_scene_render(&e, &img, &err);
    kiln_image_free(&img);
    kiln_renderer_graph_dot(e.h.r, off, sizeof off);
    uint32_t passes_off = kiln_renderer_stats(e.h.r)->passes;
    kiln_renderer_settings(e.h.r)->fxaa = true;
    ok = ok && edge_scene_render(&e, &img, &err);
    kiln_image_free(&img);
    kiln_renderer_graph_dot(e.h.r, on, sizeof on);
    uint32_t passes_on = kiln_renderer_stats(e.h.r)->passes;
    CHECK_EQ_INT(edge_scene_close(&e), 0);
    CHECK_MSG(ok, "%s", err.message);
    CHECK(!strstr(off, "fxaa") && !strstr(off, "ldr"));
    CHECK_STR_CONTAINS(on, "6: fxaa");
    CHECK_STR_CONTAINS(on, "label=\"ldr\\n");
    CHECK_EQ_INT(passes_off, 6);
    CHECK_EQ_INT(passes_on, 7);
}

TEST_MAIN(T(msaa_4_puts_intermediate_values_on_an_edge_and_msaa_1_none),
          T(msaa_4_resolves_hdr_into_the_target_the_tone_map_reads),
          T(switching_msaa_between_frames_renders_each_clean),
          T(fxaa_smooths_a_hard_edge_and_leaves_flat_areas_unchanged),
          T(the_graph_holds_the_fxaa_pass_and_ldr_only_with_fxaa_on))
