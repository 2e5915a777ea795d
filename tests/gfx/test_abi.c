/* Pins kiln's declaration of Dawn's ABI (include/gfx/kiln/webgpu.h): every struct's size, alignment and
 * member offsets against the independent table in abi_expected.inc, a few enum values that newer
 * headers renumbered, and canary bytes past the structs Dawn writes into. */
#include <stdalign.h>
#include <stddef.h>

#include <kiln/gfx.h>

#include "gfx_fixture.h"

typedef struct abi_row {
    const char *type;
    const char *member;   /* NULL for the struct row */
    size_t expected_offset, expected_size, actual_offset, actual_size;
} abi_row;

#define ABI_STRUCT(T, size, align) {#T, NULL, align, size, alignof(T), sizeof(T)},
#define ABI_MEMBER(T, m, off, size) {#T, #m, off, size, offsetof(T, m), sizeof(((T *)0)->m)},

static const abi_row rows[] = {
#include "abi_expected.inc"
};

TEST(every_struct_matches_the_dawn_layout_table) {
    int mismatches = 0;
    size_t structs = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const abi_row *r = &rows[i];
        if (!r->member) structs++;
        if (r->expected_offset != r->actual_offset || r->expected_size != r->actual_size) {
            fprintf(stderr, "  %s%s%s: expected %s %zu size %zu, declared %zu size %zu\n", r->type, r->member ? "." : "",
                    r->member ? r->member : "", r->member ? "offset" : "align", r->expected_offset, r->expected_size,
                    r->actual_offset, r->actual_size);
            mismatches++;
        }
    }
    CHECK_EQ_INT(mismatches, 0);
    CHECK(structs >= 80);
}

TEST(enums_use_the_june_2025_numbering) {
    /* Values a newer webgpu.h would change: a wrong one would pick the wrong format silently. */
    CHECK_EQ_INT(WGPUTextureFormat_RGBA8Unorm, 0x12);
    CHECK_EQ_INT(WGPUTextureFormat_BGRA8Unorm, 0x17);
    CHECK_EQ_INT(WGPUTextureFormat_RGBA16Float, 0x22);
    CHECK_EQ_INT(WGPUTextureFormat_Depth24Plus, 0x28);
    CHECK_EQ_INT(WGPUTextureFormat_Depth32Float, 0x2A);
    CHECK_EQ_INT(WGPUFeatureName_TimestampQuery, 0x3);
    CHECK_EQ_INT(WGPUFeatureName_Float32Blendable, 0xE);
    CHECK_EQ_INT(WGPUFeatureName_CoreFeaturesAndLimits, 0x12);
    CHECK_EQ_INT(WGPUSType_ShaderSourceWGSL, 0x2);
    CHECK_EQ_INT(WGPUSType_DawnTogglesDescriptor, 0x5000A);
    CHECK_EQ_INT(WGPUVertexFormat_Float32x3, 0x1E);
    CHECK_EQ_INT(WGPUOptionalBool_True, 1);
    CHECK_EQ_INT(sizeof(WGPUTextureFormat), 4);
    CHECK_EQ_INT(sizeof(WGPUBufferUsage), 8);
    CHECK_EQ_INT(WGPUTextureUsage_RenderAttachment, 0x10);
}

/* Dawn-written output structs, followed by canary bytes that must survive the call. */
#define CANARY 0xA5
typedef struct { WGPULimits limits; unsigned char canary[64]; } limits_probe;
typedef struct { WGPUAdapterInfo info; unsigned char canary[64]; } info_probe;

static bool canary_intact(const unsigned char *c, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (c[i] != CANARY) return false;
    return true;
}

TEST(dawn_writes_no_byte_past_limits_and_adapter_info) {
    kiln_error err = {0};
    kiln_gfx *gfx = kiln_gfx_create(NULL, &err);
    CHECK_MSG(gfx, "%s", err.message);

    limits_probe lp;
    memset(&lp, CANARY, sizeof lp);
    lp.limits = (WGPULimits){0};
    CHECK_EQ_INT(wgpuAdapterGetLimits(gfx->adapter, &lp.limits), WGPUStatus_Success);
    bool limits_ok = canary_intact(lp.canary, sizeof lp.canary);
    /* Values a sane Vulkan device reports: wrong offsets would read neighbouring fields. */
    bool limits_sane = lp.limits.maxTextureDimension2D >= 4096 && lp.limits.maxBindGroups >= 4 &&
                       lp.limits.maxUniformBufferBindingSize >= 16384 && lp.limits.maxColorAttachments >= 4 &&
                       lp.limits.minUniformBufferOffsetAlignment >= 1 && lp.limits.minUniformBufferOffsetAlignment <= 256 &&
                       lp.limits.maxComputeWorkgroupSizeX >= 256 && lp.limits.maxImmediateSize < 4096;

    info_probe ip;
    memset(&ip, CANARY, sizeof ip);
    ip.info = (WGPUAdapterInfo){0};
    CHECK_EQ_INT(wgpuAdapterGetInfo(gfx->adapter, &ip.info), WGPUStatus_Success);
    bool info_ok = canary_intact(ip.canary, sizeof ip.canary);
    bool backend_vulkan = ip.info.backendType == WGPUBackendType_Vulkan;
    bool has_device_name = ip.info.device.data && ip.info.device.length > 0 && ip.info.device.length < 256;
    wgpuAdapterInfoFreeMembers(ip.info);
    kiln_gfx_destroy(gfx);

    CHECK(limits_ok);
    CHECK(limits_sane);
    CHECK(info_ok);
    CHECK(backend_vulkan);
    CHECK(has_device_name);
}

TEST(dawn_writes_no_byte_past_instance_capabilities) {
    struct { WGPUInstanceCapabilities caps; unsigned char canary[32]; } probe;
    memset(&probe, CANARY, sizeof probe);
    probe.caps = (WGPUInstanceCapabilities){0};
    CHECK_EQ_INT(wgpuGetInstanceCapabilities(&probe.caps), WGPUStatus_Success);
    CHECK(canary_intact(probe.canary, sizeof probe.canary));
    CHECK(probe.caps.timedWaitAnyEnable == 0 || probe.caps.timedWaitAnyEnable == 1);
    CHECK(probe.caps.timedWaitAnyMaxCount >= 1 && probe.caps.timedWaitAnyMaxCount <= 4096);
}

TEST_MAIN(T(every_struct_matches_the_dawn_layout_table), T(enums_use_the_june_2025_numbering),
          T(dawn_writes_no_byte_past_limits_and_adapter_info), T(dawn_writes_no_byte_past_instance_capabilities))
