/* Golden image of the built-in demo scene: rendered at 640x360 with the default settings and
 * compared with the reviewed reference (tests/golden/references/demo.png) by luma SSIM and the
 * fraction of pixels that differ by more than 8/255. Thresholds and the review of the reference
 * are in docs/RENDER_VALIDATION.md. KILN_UPDATE_GOLDEN=1 rewrites the reference instead (then
 * review it and record the review). The frame is always written to $KILN_TEST_TMP/golden/. */
#include <sys/stat.h>

#include <kiln/render.h>
#include "demo_scene.h"

#include "gfx_fixture.h"

#define W 640
#define H 360
#define MIN_SSIM 0.985
#define MAX_DIFF_FRACTION 0.005
#define DIFF_THRESHOLD 8

static bool render_demo(kiln_image *img, kiln_error *err) {
    gfx_fixture f;
    if (!fixture_open(&f)) return kiln_error_set(err, KILN_ERR_GPU, "no device");
    kiln_renderer *r = kiln_renderer_create(f.gfx, f.res, NULL, WGPUTextureFormat_RGBA8UnormSrgb, err);
    demo_scene demo = {0};
    bool ok = r && demo_scene_build(r, (float)W / H, &demo, err);
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

TEST(the_demo_scene_matches_its_reviewed_reference) {
    kiln_error err = {0};
    kiln_image img;
    CHECK_MSG(render_demo(&img, &err), "%s", err.message);
    char out_dir[512], out_path[600];
    fixture_tmp_path(out_dir, sizeof out_dir, "golden");
    mkdir(out_dir, 0755);
    snprintf(out_path, sizeof out_path, "%s/demo.png", out_dir);
    CHECK_MSG(kiln_image_write_png(&img, out_path, &err), "%s", err.message);

    const char *reference = KILN_GOLDEN_DIR "/demo.png";
    if (getenv("KILN_UPDATE_GOLDEN")) {
        CHECK_MSG(kiln_image_write_png(&img, reference, &err), "%s", err.message);
        printf("rewrote %s: review it and update docs/RENDER_VALIDATION.md\n", reference);
    }
    kiln_image ref;
    CHECK_MSG(kiln_image_load(&ref, reference, &err), "%s", err.message);
    double ssim = 0, diff = 1;
    CHECK_MSG(kiln_image_ssim(&img, &ref, &ssim, &err), "%s", err.message);
    CHECK_MSG(kiln_image_diff_fraction(&img, &ref, DIFF_THRESHOLD, &diff, &err), "%s", err.message);
    printf("demo: SSIM %.5f (>= %.3f), pixels off by > %d/255: %.4f%% (<= %.2f%%); frame at %s\n", ssim, MIN_SSIM,
           DIFF_THRESHOLD, diff * 100, MAX_DIFF_FRACTION * 100, out_path);
    kiln_image_free(&img);
    kiln_image_free(&ref);
    CHECK(ssim >= MIN_SSIM);
    CHECK(diff <= MAX_DIFF_FRACTION);
}

TEST_MAIN(T(the_demo_scene_matches_its_reviewed_reference))
