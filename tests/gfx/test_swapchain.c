/* The swapchain on a real X11 window (run under Xvfb): acquire, clear, read back, present; lazy
 * reconfiguration on resize and on a vsync change; zero-area (minimised) frames are skipped and counted. */
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

/* GLFW's X11 accessors, declared here because glfw3native.h pulls in the Xrandr development
 * headers, which kiln does not otherwise need. Display* and Window (an XID) as opaque values. */
void *glfwGetX11Display(void);
unsigned long glfwGetX11Window(GLFWwindow *window);

#include "gfx_fixture.h"

static bool clear_and_read(kiln_swapchain *sc, kiln_resources *res, double r, double g, double b, kiln_image *out,
                           kiln_error *err) {
    kiln_surface_frame frame;
    bool skipped;
    if (!kiln_swapchain_acquire(sc, &frame, &skipped, err)) return false;
    kiln_encoder enc;
    kiln_render_pass pass;
    kiln_color_attachment c = kiln_color_cleared(frame.view, r, g, b, 1.0);
    bool ok = kiln_encoder_begin(&enc, res, "clear", err) &&
              kiln_encoder_begin_render_pass(&enc, "clear", &c, 1, NULL, &pass, err);
    if (ok) kiln_render_pass_end(&pass);
    ok = ok && kiln_encoder_finish_and_submit(&enc, err);
    ok = ok && kiln_resources_read_texture(res, frame.texture, out, err);
    kiln_swapchain_present(sc, &frame);
    return ok;
}

TEST(swapchain_clears_resizes_and_skips_minimised_frames) {
    if (!glfwInit()) SKIP("no X display (run under xvfb-run; ctest does)");
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    GLFWwindow *window = glfwCreateWindow(160, 120, "kiln swapchain test", NULL, NULL);
    CHECK(window);
    kiln_error err = {0};
    kiln_gfx *gfx = kiln_gfx_create(&(kiln_gfx_desc){.x11_display = glfwGetX11Display(),
                                                     .x11_window = (uint64_t)glfwGetX11Window(window)}, &err);
    CHECK_MSG(gfx, "%s", err.message);
    kiln_resources *res = kiln_resources_create(gfx, 64, &err);

    /* Surface capabilities are written by Dawn: canary bytes after the struct must survive. */
    struct { WGPUSurfaceCapabilities caps; unsigned char canary[32]; } probe;
    memset(&probe, 0xA5, sizeof probe);
    probe.caps = (WGPUSurfaceCapabilities){0};
    CHECK_EQ_INT(wgpuSurfaceGetCapabilities(gfx->surface, gfx->adapter, &probe.caps), WGPUStatus_Success);
    bool canary_ok = true;
    for (size_t i = 0; i < sizeof probe.canary; i++) canary_ok &= probe.canary[i] == 0xA5;
    bool has_formats = probe.caps.formatCount > 0 && probe.caps.presentModeCount > 0;
    wgpuSurfaceCapabilitiesFreeMembers(probe.caps);
    CHECK(canary_ok);
    CHECK(has_formats);

    kiln_swapchain sc;
    CHECK_MSG(kiln_swapchain_init(&sc, gfx, 160, 120, false, true, &err), "%s", err.message);
    kiln_image img;
    CHECK_MSG(clear_and_read(&sc, res, 1.0, 0.0, 0.0, &img, &err), "%s", err.message);
    const uint8_t *p = (const uint8_t *)img.pixels + (60 * 160 + 80) * 4;
    bool red = p[0] == 255 && p[1] == 0 && p[2] == 0;
    bool size_ok = img.width == 160 && img.height == 120;
    kiln_image_free(&img);
    CHECK(red);
    CHECK(size_ok);
    CHECK_EQ_INT(sc.reconfigures, 0);

    kiln_swapchain_resize(&sc, 200, 100);
    CHECK_EQ_INT(sc.reconfigures, 0); /* lazy: nothing happens until the next acquire */
    CHECK_MSG(clear_and_read(&sc, res, 0.0, 0.0, 1.0, &img, &err), "%s", err.message);
    p = (const uint8_t *)img.pixels + (50 * 200 + 100) * 4;
    bool blue = p[0] == 0 && p[1] == 0 && p[2] == 255;
    size_ok = img.width == 200 && img.height == 100;
    kiln_image_free(&img);
    CHECK(blue);
    CHECK(size_ok);
    CHECK_EQ_INT(sc.reconfigures, 1);

    /* Vsync off: the next acquire reconfigures with a mode the surface offers, and back on is Fifo. */
    CHECK_EQ_INT(sc.present_mode, WGPUPresentMode_Fifo);
    bool off = kiln_swapchain_set_vsync(&sc, false);
    CHECK_MSG(clear_and_read(&sc, res, 0.0, 1.0, 0.0, &img, &err), "%s", err.message);
    kiln_image_free(&img);
    if (off) {
        CHECK(sc.present_mode == WGPUPresentMode_Mailbox || sc.present_mode == WGPUPresentMode_Immediate);
        CHECK(sc.present_modes & (1u << sc.present_mode));
        CHECK_EQ_INT(sc.reconfigures, 2);
    } else {
        CHECK_EQ_INT(sc.present_mode, WGPUPresentMode_Fifo);
    }
    CHECK(kiln_swapchain_set_vsync(&sc, true));
    CHECK_MSG(clear_and_read(&sc, res, 0.0, 1.0, 0.0, &img, &err), "%s", err.message);
    kiln_image_free(&img);
    CHECK_EQ_INT(sc.present_mode, WGPUPresentMode_Fifo);

    kiln_swapchain_resize(&sc, 0, 0); /* minimised */
    kiln_surface_frame frame;
    bool skipped = false;
    CHECK(!kiln_swapchain_acquire(&sc, &frame, &skipped, &err));
    CHECK(skipped);
    CHECK_EQ_INT(sc.frames_skipped, 1);

    kiln_swapchain_deinit(&sc);
    kiln_gfx_pump(gfx, true);
    uint64_t errors = gfx->error_count;
    if (errors) fixture_print_errors(gfx);
    kiln_resources_destroy(res);
    kiln_gfx_destroy(gfx);
    glfwDestroyWindow(window);
    glfwTerminate();
    CHECK_EQ_INT(errors, 0);
}

TEST_MAIN(T(swapchain_clears_resizes_and_skips_minimised_frames))
