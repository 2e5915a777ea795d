/* Bloom: a small very bright square blooms the same way in every direction, a non-finite pixel
 * does not spread at all, nothing below the threshold changes, and disable_bloom takes every
 * bloom pass out of the graph. The scene is an emissive square of 8x8 pixels centred in a 64x64
 * frame under a camera looking straight down at it, over a sky made almost black, so whatever
 * bloom adds stands alone. The frame, the half-size chain and each of its mips are all
 * symmetric about the frame's centre, and so is the square: so must the bloom be. */
#include <math.h>

#include <kiln/render.h>

#include "demo_scene.h"
#include "renderer_fixture.h"

#define SIZE 64
/* The square's half-width in pixels is 4.25: it covers pixels 28..35 in both directions, its
 * edges clear of every pixel centre. At 4 m from a camera of 1 rad vertical field of view a
 * pixel is 4 * tan(0.5) / 32 m. */
#define SQUARE_HALF_EXTENT (4.25f * 4.0f * 0.5463025f / 32.0f)

typedef struct bright_square {
    renderer_fixture h;
    kiln_render_instance square;
    kiln_render_scene scene;
} bright_square;

static bool bright_square_open(bright_square *b, const kiln_render_settings *settings, float emissive_strength,
                               kiln_error *err) {
    *b = (bright_square){0};
    kiln_render_settings s = *settings;
    s.tonemapper = KILN_TONEMAP_NONE;
    if (!renderer_fixture_open(&b->h, &s, WGPUTextureFormat_RGBA8Unorm, SIZE, SIZE, err)) return false;
    kiln_mesh_data md = {0};
    if (!kiln_mesh_plane(&md, SQUARE_HALF_EXTENT, 1, err)) return false;
    uint32_t plane = kiln_renderer_add_mesh(b->h.r, "square", &md, false, err);
    kiln_mesh_data_free(&md);
    kiln_material glow = kiln_material_default("glow");
    glow.base_color = (kiln_vec4){0, 0, 0, 1};
    glow.emissive = (kiln_vec3){1, 1, 1};
    glow.emissive_strength = emissive_strength;
    uint32_t material = kiln_renderer_add_material(b->h.r, &glow, err);
    if (plane == KILN_INVALID_INDEX || material == KILN_INVALID_INDEX) return false;
    b->square = (kiln_render_instance){.mesh = plane, .material = material, .transform = kiln_mat4_identity()};
    b->scene = (kiln_render_scene){
        .camera = kiln_camera_look_at((kiln_vec3){0, 4, 0}, (kiln_vec3){0, 0, 0}, (kiln_vec3){0, 0, -1}, 1.0f, 1.0f, 0.1f),
        .instances = &b->square, .instance_count = 1,
        .environment = {.zenith = {1e-4f, 1e-4f, 1e-4f}, .ground = {1e-4f, 1e-4f, 1e-4f}}};
    return true;
}

static bool bright_square_render(bright_square *b, kiln_image *out, kiln_error *err) {
    return renderer_fixture_render(&b->h, &b->scene, out, err);
}

static uint64_t bright_square_close(bright_square *b) { return renderer_fixture_close(&b->h); }

/* The square rendered once under `settings`; false (the reason printed) on a failed frame or any
 * Dawn error. */
static bool render_square(const kiln_render_settings *settings, float emissive_strength, kiln_image *out) {
    bright_square b;
    kiln_error err = {0};
    bool ok = bright_square_open(&b, settings, emissive_strength, &err) && bright_square_render(&b, out, &err);
    if (!ok) fprintf(stderr, "render_square: %s\n", err.message);
    uint64_t left = bright_square_close(&b);
    if (ok && left) kiln_image_free(out);
    return ok && left == 0;
}

static int red_at(const kiln_image *img, int x, int y) {
    return ((const uint8_t *)img->pixels)[((size_t)y * img->width + (size_t)x) * 4];
}

static bool same_pixels(const kiln_image *a, const kiln_image *b) {
    return a->width == b->width && a->height == b->height &&
           memcmp(a->pixels, b->pixels, (size_t)a->width * a->height * 4) == 0;
}

TEST(a_small_bright_square_blooms_symmetrically_and_falls_off_with_distance) {
    kiln_image off, on;
    CHECK(render_square(&(kiln_render_settings){.disable_bloom = true}, 50.0f, &off));
    CHECK(render_square(&(kiln_render_settings){0}, 50.0f, &on));
    /* Along the row and the column just off the centre line, from the square's edge outward:
     * right against left, down against up, and the row against the column. */
    int worst_mirror = 0, worst_axes = 0, unlit_off = 0;
    int right[28], down[28];
    for (int d = 0; d < 28; d++) {
        int x = 36 + d, mirror = 27 - d;
        right[d] = red_at(&on, x, 31);
        down[d] = red_at(&on, 31, x);
        int left = red_at(&on, mirror, 31), up = red_at(&on, 31, mirror);
        worst_mirror = abs(right[d] - left) > worst_mirror ? abs(right[d] - left) : worst_mirror;
        worst_mirror = abs(down[d] - up) > worst_mirror ? abs(down[d] - up) : worst_mirror;
        worst_axes = abs(right[d] - down[d]) > worst_axes ? abs(right[d] - down[d]) : worst_axes;
        unlit_off += red_at(&off, x, 31) + red_at(&off, mirror, 31) + red_at(&off, 31, x) + red_at(&off, 31, mirror);
    }
    bool square = red_at(&on, 31, 31) == 255 && red_at(&off, 31, 31) == 255;
    kiln_image_free(&off);
    kiln_image_free(&on);
    printf("bloom right of the square at 1, 2, 4, 8, 16, 27 px: %d %d %d %d %d %d; worst mirror difference %d, "
           "row against column %d\n", right[0], right[1], right[3], right[7], right[15], right[27], worst_mirror,
           worst_axes);
    CHECK(square);
    CHECK_EQ_INT(unlit_off, 0);  /* without bloom nothing around the square is lit */
    CHECK(worst_mirror <= 1);    /* rounding apart, the same both ways */
    CHECK(worst_axes <= 1);
    CHECK(right[0] > 100);       /* a wide glow, brightest at the edge */
    CHECK(right[7] > 20);
    for (int d = 1; d < 28; d++) CHECK_MSG(right[d] <= right[d - 1], "brighter at %d px than at %d", d, d - 1);
}

/* An emissive strength of +Inf or NaN (a broken asset) puts that value in the RGBA16F scene
 * colour; had the prefilter let it through, it would bloom over the whole frame or turn it NaN.
 * Cleared, it adds nothing anywhere, so the frame is the one without bloom. (A large finite value
 * does not do: lavapipe saturates what overflows half floats to 65504, which Vulkan allows, and
 * which is finite light that blooms.) */
TEST(a_non_finite_pixel_does_not_spread) {
    const float strengths[] = {INFINITY, NAN};
    for (size_t i = 0; i < sizeof strengths / sizeof strengths[0]; i++) {
        kiln_image off, on;
        CHECK(render_square(&(kiln_render_settings){.disable_bloom = true}, strengths[i], &off));
        CHECK(render_square(&(kiln_render_settings){0}, strengths[i], &on));
        bool same = same_pixels(&off, &on);
        int outside = red_at(&on, 40, 31);
        kiln_image_free(&off);
        kiln_image_free(&on);
        printf("emissive strength %g: 4 px outside the square %d, the frame %s the one without bloom\n",
               (double)strengths[i], outside, same ? "equals" : "differs from");
        CHECK(same);
        CHECK_EQ_INT(outside, 0);
    }
}

/* With the threshold above everything in the demo scene the chain holds zeros, and the frame is
 * byte-identical to one without bloom: the tone map adds the chain, it does not mix it in. */
TEST(bloom_with_nothing_above_its_threshold_leaves_the_frame_as_disable_bloom_renders_it) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_image images[2] = {{0}};
    const kiln_render_settings settings[2] = {{.disable_bloom = true}, {.bloom_threshold = 1e4f}};
    bool ok = true;
    for (int i = 0; i < 2 && ok; i++) {
        kiln_renderer *r = kiln_renderer_create(f.gfx, f.res, &settings[i], WGPUTextureFormat_RGBA8Unorm, &err);
        demo_scene demo = {0};
        kiln_texture target = {0};
        kiln_texture_view view = {0};
        ok = r && demo_scene_build(r, 160.0f / 90, &demo, &err);
        ok = ok && (target = kiln_resources_create_texture(f.res, &(kiln_texture_desc){.width = 160, .height = 90,
                        .format = WGPUTextureFormat_RGBA8Unorm,
                        .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc}, &err)).id &&
             (view = kiln_resources_create_texture_view(f.res, target, NULL, &err)).id;
        WGPUTexture raw = ok ? kiln_resources_texture_raw(f.res, target, NULL) : NULL;
        ok = ok && kiln_renderer_render(r, &demo.scene, (kiln_render_target){.texture = raw, .view = kiln_resources_texture_view_raw(f.res, view, NULL)}, &err) &&
             kiln_resources_read_texture(f.res, raw, &images[i], &err);
        demo_scene_free(&demo);
        kiln_renderer_destroy(r);
        if (view.id) kiln_resources_destroy_texture_view(f.res, view, NULL);
        if (target.id) kiln_resources_destroy_texture(f.res, target, NULL);
    }
    bool same = ok && same_pixels(&images[0], &images[1]);
    for (int i = 0; i < 2; i++)
        if (images[i].pixels) kiln_image_free(&images[i]);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK_MSG(ok, "%s", err.message);
    CHECK(same);
}

TEST(the_graph_holds_the_bloom_passes_and_chain_only_with_bloom_on) {
    bright_square b;
    kiln_error err = {0};
    CHECK_MSG(bright_square_open(&b, &(kiln_render_settings){0}, 50.0f, &err), "%s", err.message);
    static char on[16384], off[16384];
    kiln_image img = {0};
    bool ok = bright_square_render(&b, &img, &err);
    kiln_image_free(&img);
    kiln_renderer_graph_dot(b.h.r, on, sizeof on);
    uint32_t passes_on = kiln_renderer_stats(b.h.r)->passes;
    kiln_renderer_settings(b.h.r)->disable_bloom = true;
    ok = ok && bright_square_render(&b, &img, &err);
    kiln_image_free(&img);
    kiln_renderer_graph_dot(b.h.r, off, sizeof off);
    uint32_t passes_off = kiln_renderer_stats(b.h.r)->passes;
    CHECK_EQ_INT(bright_square_close(&b), 0);
    CHECK_MSG(ok, "%s", err.message);
    /* 32x32 has six mips: a prefilter, five downsamples and five upsamples; the other eight are
     * the camera's six and AO's two. */
    CHECK_EQ_INT(passes_on, 19);
    CHECK_EQ_INT(passes_off, 8);
    const char *bloom_names[] = {"bloom chain", "bloom prefilter", "bloom downsample 5", "bloom upsample 0"};
    for (size_t i = 0; i < sizeof bloom_names / sizeof bloom_names[0]; i++) {
        CHECK_MSG(strstr(on, bloom_names[i]), "'%s' missing with bloom on", bloom_names[i]);
    }
    CHECK_MSG(!strstr(off, "bloom"), "a bloom node with bloom off");
    CHECK_STR_CONTAINS(off, "tonemap");
}

TEST_MAIN(T(a_small_bright_square_blooms_symmetrically_and_falls_off_with_distance), T(a_non_finite_pixel_does_not_spread),
          T(bloom_with_nothing_above_its_threshold_leaves_the_frame_as_disable_bloom_renders_it),
          T(the_graph_holds_the_bloom_passes_and_chain_only_with_bloom_on))
