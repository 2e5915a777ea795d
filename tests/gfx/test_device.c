/* The device and the pull model: creation, uncaptured errors counted and described, device loss. */
#include "gfx_fixture.h"

TEST(device_is_created_with_a_named_vulkan_adapter) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    bool named = f.gfx->adapter_name[0] != '\0';
    bool vulkan = f.gfx->backend == WGPUBackendType_Vulkan;
    bool queue = f.gfx->queue != NULL;
    bool limits = f.gfx->limits.maxTextureDimension2D >= 4096;
    printf("adapter: %s (%s)\n", f.gfx->adapter_name, kiln_gfx_backend_name(f.gfx->backend));
    FIXTURE_CLOSE_CLEAN(f);
    CHECK(named);
    CHECK(vulkan);
    CHECK(queue);
    CHECK(limits);
}

TEST(a_validation_error_is_counted_and_described) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    /* A texture with no usage is invalid. */
    WGPUTextureDescriptor td = {.label = {"no usage", WGPU_STRLEN}, .usage = WGPUTextureUsage_None,
                                .dimension = WGPUTextureDimension_2D, .size = {4, 4, 1},
                                .format = WGPUTextureFormat_RGBA8Unorm, .mipLevelCount = 1, .sampleCount = 1};
    WGPUTexture t = wgpuDeviceCreateTexture(f.gfx->device, &td);
    kiln_gfx_pump(f.gfx, false);
    uint64_t errors = f.gfx->error_count;
    uint32_t records = kiln_log_count_category(&f.gfx->diagnostics, "wgpu.validation");
    bool names_it = false;
    for (uint32_t i = 0; i < kiln_log_count(&f.gfx->diagnostics); i++) {
        const kiln_log_record *r = kiln_log_at(&f.gfx->diagnostics, i);
        if (strcmp(r->category, "wgpu.validation") == 0 && strstr(r->message, "no usage")) names_it = true;
    }
    if (t) wgpuTextureRelease(t);
    fixture_close(&f);
    CHECK_EQ_INT(errors, 1);
    CHECK_EQ_INT(records, 1);
    CHECK_MSG(names_it, "the record names the texture label");
}

TEST(device_loss_sets_lost_and_logs) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    CHECK(!f.gfx->lost);
    wgpuDeviceForceLoss(f.gfx->device, WGPUDeviceLostReason_Unknown, (WGPUStringView){"test loss", WGPU_STRLEN});
    kiln_gfx_pump(f.gfx, true);
    bool lost = f.gfx->lost;
    uint32_t records = kiln_log_count_category(&f.gfx->diagnostics, "wgpu.device");
    fixture_close(&f);
    CHECK(lost);
    CHECK_EQ_INT(records, 1);
}

TEST(zero_sized_buffer_is_refused_with_a_reason) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_buffer b = kiln_resources_create_buffer(f.res, &(kiln_buffer_desc){.label = "empty", .size = 0}, &err);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK_EQ_INT(b.id, 0);
    CHECK_STR_CONTAINS(err.message, "buffer 'empty'");
}

TEST_MAIN(T(device_is_created_with_a_named_vulkan_adapter), T(a_validation_error_is_counted_and_described),
          T(device_loss_sets_lost_and_logs), T(zero_sized_buffer_is_refused_with_a_reason))
