/* Golden images of the built-in demo scene: rendered at 640x360 with the default settings, and
 * again colour graded (white balance, contrast, saturation, lift / gamma / gain and a 3D table
 * made here), each compared with its reviewed reference (tests/golden/references/demo.png,
 * demo-graded.png) by luma SSIM and the fraction of pixels that differ by more than 8/255. Thresholds and the review of the reference
 * are in docs/RENDER_VALIDATION.md. KILN_UPDATE_GOLDEN=1 rewrites the reference instead (then
 * review it and record the review). The frame is always written to $KILN_TEST_TMP/golden/. */
#include <sys/stat.h>

#include <math.h>
#include <stdlib.h>

#include <kiln/import.h>
#include <kiln/render.h>
#include "demo_scene.h"

#include "gfx_fixture.h"

#define W 640
#define H 360
#define MIN_SSIM 0.985
#define MAX_DIFF_FRACTION 0.005
#define DIFF_THRESHOLD 8

/* A warm split-tone table: shadows towards teal, highlights towards orange, by the luma. */
static kiln_color_lut split_tone_table(void) {
    enum { N = 17 };
    kiln_color_lut lut = {.size = N, .domain_max = {1, 1, 1}};
    lut.rgb = malloc((size_t)N * N * N * 3 * sizeof(float));
    for (int b = 0, i = 0; b < N; b++)
        for (int g = 0; g < N; g++)
            for (int r = 0; r < N; r++, i++) {
                float c[3] = {(float)r / (N - 1), (float)g / (N - 1), (float)b / (N - 1)};
                float luma = 0.2126f * c[0] + 0.7152f * c[1] + 0.0722f * c[2], tone = 0.06f * (2.0f * luma - 1.0f);
                float shift[3] = {tone, 0.3f * tone, -tone};
                for (int k = 0; k < 3; k++) lut.rgb[i * 3 + k] = fminf(fmaxf(c[k] + shift[k], 0.0f), 1.0f);
            }
    return lut;
}

/* The demo with `settings` (NULL: the defaults) and, with `graded`, the split-tone table. */
static bool render_demo(const kiln_render_settings *settings, bool graded, kiln_image *img, kiln_error *err) {
    gfx_fixture f;
    if (!fixture_open(&f)) return kiln_error_set(err, KILN_ERR_GPU, "no device");
    kiln_renderer *r = kiln_renderer_create(f.gfx, f.res, settings, WGPUTextureFormat_RGBA8UnormSrgb, err);
    demo_scene demo = {0};
    bool ok = r && demo_scene_build(r, (float)W / H, &demo, err);
    if (ok && graded) {
        kiln_color_lut lut = split_tone_table();
        ok = (kiln_renderer_settings(r)->color_lut = kiln_import_color_lut(r, &lut, "split tone", err)) != 0;
        kiln_color_lut_free(&lut);
    }
    kiln_texture t = {0};
    kiln_texture_view v = {0};
    if (ok) {
        t = kiln_resources_create_texture(f.res, &(kiln_texture_desc){.width = W, .height = H, .format = WGPUTextureFormat_RGBA8UnormSrgb,
                                    .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc}, err);
        v = kiln_resources_create_texture_view(f.res, t, NULL, err);
        ok = v.id && kiln_renderer_render(r, &demo.scene, (kiln_render_target){.texture = kiln_resources_texture_raw(f.res, t, NULL), .view = kiln_resources_texture_view_raw(f.res, v, NULL)}, err) &&
             kiln_resources_read_texture(f.res, kiln_resources_texture_raw(f.res, t, NULL), img, err);
    }
    if (v.id) kiln_resources_destroy_texture_view(f.res, v, NULL);
    if (t.id) kiln_resources_destroy_texture(f.res, t, NULL);
    demo_scene_free(&demo);
    kiln_renderer_destroy(r);
    uint64_t errors = fixture_close(&f);
    if (ok && errors) ok = kiln_error_set(err, KILN_ERR_GPU, "%llu Dawn validation errors", (unsigned long long)errors);
    return ok;
}

/* Renders, writes the frame to $KILN_TEST_TMP/golden/NAME.png and compares it with NAME.png of
 * the references (rewriting that first under KILN_UPDATE_GOLDEN). */
static void check_golden(const char *name, const kiln_render_settings *settings, bool graded) {
    kiln_error err = {0};
    kiln_image img;
    CHECK_MSG(render_demo(settings, graded, &img, &err), "%s", err.message);
    char out_dir[512], out_path[600], reference[600];
    fixture_tmp_path(out_dir, sizeof out_dir, "golden");
    mkdir(out_dir, 0755);
    snprintf(out_path, sizeof out_path, "%s/%s.png", out_dir, name);
    snprintf(reference, sizeof reference, "%s/%s.png", KILN_GOLDEN_DIR, name);
    CHECK_MSG(kiln_image_write_png(&img, out_path, &err), "%s", err.message);
    if (getenv("KILN_UPDATE_GOLDEN")) {
        CHECK_MSG(kiln_image_write_png(&img, reference, &err), "%s", err.message);
        printf("rewrote %s: review it and update docs/RENDER_VALIDATION.md\n", reference);
    }
    kiln_image ref;
    CHECK_MSG(kiln_image_load(&ref, reference, &err), "%s", err.message);
    double ssim = 0, diff = 1;
    CHECK_MSG(kiln_image_ssim(&img, &ref, &ssim, &err), "%s", err.message);
    CHECK_MSG(kiln_image_diff_fraction(&img, &ref, DIFF_THRESHOLD, &diff, &err), "%s", err.message);
    printf("%s: SSIM %.5f (>= %.3f), pixels off by > %d/255: %.4f%% (<= %.2f%%); frame at %s\n", name, ssim, MIN_SSIM,
           DIFF_THRESHOLD, diff * 100, MAX_DIFF_FRACTION * 100, out_path);
    kiln_image_free(&img);
    kiln_image_free(&ref);
    CHECK(ssim >= MIN_SSIM);
    CHECK(diff <= MAX_DIFF_FRACTION);
}

TEST(the_demo_scene_matches_its_reviewed_reference) { check_golden("demo", NULL, false); }

/* Every control of the colour grading at once, and a table: warmer and a little green, more
 * contrast and colour, blacks lifted towards blue, the whites' red raised. */
TEST(the_colour_graded_demo_matches_its_reviewed_reference) {
    kiln_render_settings settings = {.white_balance_temperature = 0.35f, .white_balance_tint = -0.1f,
                                     .contrast = 0.15f, .saturation = 0.2f, .lift = {0.0f, 0.01f, 0.03f},
                                     .gamma = {1.0f, 1.05f, 1.0f}, .gain = {1.04f, 1.0f, 1.0f}};
    check_golden("demo-graded", &settings, true);
}

TEST_MAIN(T(the_demo_scene_matches_its_reviewed_reference), T(the_colour_graded_demo_matches_its_reviewed_reference))
