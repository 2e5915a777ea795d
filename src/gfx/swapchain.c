/* kiln_swapchain: configures the window surface lazily and hands out one texture per frame. */
#include <string.h>

#include "gfx_internal.h"

static int format_score(WGPUTextureFormat f, bool prefer_srgb) {
    bool srgb = kiln_gfx_format_is_srgb(f);
    if (!srgb && !kiln_gfx_format_is_unorm8(f)) return 0;
    int score = (srgb == prefer_srgb) ? 4 : 2;
    if (kiln_gfx_format_is_bgra(f)) score += 1;
    return score;
}

static void configure(kiln_swapchain *sc) {
    WGPUSurfaceConfiguration c = {
        .device = sc->gfx->device,
        .format = sc->format,
        .usage = sc->usage,
        .width = sc->pending_width,
        .height = sc->pending_height,
        .alphaMode = WGPUCompositeAlphaMode_Auto,
        .presentMode = sc->pending_present_mode,
    };
    kiln_gfx_scope_due(sc->gfx);
    wgpuSurfaceConfigure(sc->gfx->surface, &c);
    if (sc->configured) sc->reconfigures++;
    sc->configured = true;
    sc->width = sc->pending_width;
    sc->height = sc->pending_height;
    sc->present_mode = sc->pending_present_mode;
}

/* The modes the surface offers, one bit per WGPUPresentMode value. */
static uint32_t present_mode_bits(const WGPUSurfaceCapabilities *caps) {
    uint32_t bits = 0;
    for (size_t i = 0; i < caps->presentModeCount; i++)
        if ((uint32_t)caps->presentModes[i] < 32) bits |= 1u << (uint32_t)caps->presentModes[i];
    return bits;
}

bool kiln_swapchain_init(kiln_swapchain *sc, kiln_gfx *gfx, uint32_t width, uint32_t height, bool prefer_srgb,
                         bool readback, kiln_error *err) {
    *sc = (kiln_swapchain){.gfx = gfx, .pending_width = width, .pending_height = height,
                           .pending_present_mode = WGPUPresentMode_Fifo};
    if (!gfx->surface) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "swapchain: gfx was created without a window");
    WGPUSurfaceCapabilities caps = {0};
    if (wgpuSurfaceGetCapabilities(gfx->surface, gfx->adapter, &caps) != WGPUStatus_Success)
        return kiln_error_set(err, KILN_ERR_GPU, "swapchain: could not query the surface capabilities");
    int best = 0;
    for (size_t i = 0; i < caps.formatCount; i++) {
        int score = format_score(caps.formats[i], prefer_srgb);
        if (score > best) best = score, sc->format = caps.formats[i];
    }
    WGPUTextureUsage usages = caps.usages;
    sc->present_modes = present_mode_bits(&caps);
    wgpuSurfaceCapabilitiesFreeMembers(caps);
    if (!best) return kiln_error_set(err, KILN_ERR_GPU, "swapchain: the surface offers no 8-bit RGBA or BGRA format");
    sc->usage = WGPUTextureUsage_RenderAttachment | (readback ? WGPUTextureUsage_CopySrc : 0);
    if ((usages & sc->usage) != sc->usage)
        return kiln_error_set(err, KILN_ERR_GPU, "swapchain: the surface does not support%s%s",
                              (usages & WGPUTextureUsage_RenderAttachment) ? "" : " RenderAttachment",
                              (readback && !(usages & WGPUTextureUsage_CopySrc)) ? " CopySrc (readback)" : "");
    if (width && height) configure(sc);
    return true;
}

void kiln_swapchain_deinit(kiln_swapchain *sc) {
    kiln_gfx_scope_due(sc->gfx);
    if (sc->configured) wgpuSurfaceUnconfigure(sc->gfx->surface);
    sc->configured = false;
}

void kiln_swapchain_resize(kiln_swapchain *sc, uint32_t width, uint32_t height) {
    sc->pending_width = width;
    sc->pending_height = height;
}

bool kiln_swapchain_set_vsync(kiln_swapchain *sc, bool vsync) {
    WGPUPresentMode mode = WGPUPresentMode_Fifo;
    if (!vsync && (sc->present_modes & (1u << WGPUPresentMode_Mailbox))) mode = WGPUPresentMode_Mailbox;
    else if (!vsync && (sc->present_modes & (1u << WGPUPresentMode_Immediate))) mode = WGPUPresentMode_Immediate;
    sc->pending_present_mode = mode;
    return vsync || mode != WGPUPresentMode_Fifo;
}

bool kiln_swapchain_acquire(kiln_swapchain *sc, kiln_surface_frame *frame, bool *skipped, kiln_error *err) {
    *frame = (kiln_surface_frame){0};
    *skipped = false;
    if (!sc->pending_width || !sc->pending_height) {
        sc->frames_skipped++;
        *skipped = true;
        return false;
    }
    if (!sc->configured || sc->pending_width != sc->width || sc->pending_height != sc->height ||
        sc->pending_present_mode != sc->present_mode)
        configure(sc);

    for (int attempt = 0; attempt < 2; attempt++) {
        WGPUSurfaceTexture st = {0};
        kiln_gfx_scope_due(sc->gfx);
        wgpuSurfaceGetCurrentTexture(sc->gfx->surface, &st);
        if (st.status == WGPUSurfaceGetCurrentTextureStatus_SuccessOptimal ||
            st.status == WGPUSurfaceGetCurrentTextureStatus_SuccessSuboptimal) {
            WGPUTextureView view = wgpuTextureCreateView(st.texture, NULL);
            if (!view) {
                wgpuTextureRelease(st.texture);
                return kiln_error_set(err, KILN_ERR_GPU, "swapchain: could not create a view of the surface texture");
            }
            *frame = (kiln_surface_frame){.texture = st.texture, .view = view, .width = sc->width, .height = sc->height};
            return true;
        }
        if (st.texture) wgpuTextureRelease(st.texture);
        bool recoverable = st.status == WGPUSurfaceGetCurrentTextureStatus_Outdated ||
                           st.status == WGPUSurfaceGetCurrentTextureStatus_Lost ||
                           st.status == WGPUSurfaceGetCurrentTextureStatus_Timeout;
        if (!recoverable || attempt == 1)
            return kiln_error_set(err, KILN_ERR_GPU, "swapchain: acquiring the surface texture failed (status %d)",
                                  (int)st.status);
        configure(sc);
    }
    return false;
}

static void release_frame(kiln_surface_frame *frame) {
    if (frame->view) wgpuTextureViewRelease(frame->view);
    if (frame->texture) wgpuTextureRelease(frame->texture);
    *frame = (kiln_surface_frame){0};
}

void kiln_swapchain_present(kiln_swapchain *sc, kiln_surface_frame *frame) {
    if (!frame->texture) return;
    kiln_gfx_scope_due(sc->gfx);
    wgpuSurfacePresent(sc->gfx->surface);
    release_frame(frame);
}

void kiln_swapchain_discard(kiln_swapchain *sc, kiln_surface_frame *frame) {
    (void)sc;
    release_frame(frame);
}
