/* Device replacement of the program runtime (#12 Deliver 3, Programs II "device replacement"):
 * after a forced device loss, kiln_programs_recreate rebuilds every registered program on a new
 * device under its id, keeps the id sequence (a destroyed id stays unknown), carries the folded
 * timings, clears the Writable registry textures, and the next dispatch paints exactly what it
 * painted before the loss. */
#include "program_test_util.h"

static const char *const FILL_WGSL =
    "struct Fill { color: vec4<f32> }\n"
    "@group(0) @binding(0) var<uniform> fill: Fill;\n"
    "@fragment fn fs_fill() -> @location(0) vec4<f32> { return fill.color; }\n";

static uint32_t register_fill(program_fixture *f) {
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8)};
    kiln_pass_spec passes[] = {with_window(fragment_pass("fs_fill", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), 0, 16)};
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(FILL_WGSL, bindings, passes);
    kiln_program_error err;
    uint32_t id = kiln_programs_register(f->programs, &desc, &err);
    if (!id) fprintf(stderr, "register: %s\n", err.message);
    return id;
}

static bool all_texels(const float *t, size_t n, const float want[4]) {
    for (size_t i = 0; i < n; i++)
        if (fabsf(t[i] - want[i % 4]) > 1.0f / 255.0f) return false;
    return true;
}

TEST(programs_survive_a_device_loss_under_their_ids) {
    program_fixture lost, fresh;
    PROGRAM_FIXTURE_OPEN(lost);
    PROGRAM_FIXTURE_OPEN(fresh);
    static const float colour[4] = {0.2f, 0.4f, 0.6f, 1.0f}, zero[4] = {0, 0, 0, 0};
    uint32_t fill = register_fill(&lost), gone = register_fill(&lost);
    CHECK(fill == 1 && gone == 2);
    CHECK(kiln_programs_destroy_program(lost.programs, gone));
    uint32_t out = make_texture(&lost, KILN_FORMAT_RGBA8, 4, 4, NULL, true);
    float before[64], cleared[64], after[64];
    CHECK_EQ_INT(kiln_programs_dispatch(lost.programs, fill, &out, 1, colour, sizeof colour), KILN_DISPATCH_OK);
    CHECK(run_frame(&lost) && read_texels(&lost, out, before));

    wgpuDeviceForceLoss(lost.gfx.gfx->device, WGPUDeviceLostReason_Unknown, (WGPUStringView){"test loss", WGPU_STRLEN});
    kiln_gfx_pump(lost.gfx.gfx, true);
    bool was_lost = lost.gfx.gfx->lost;

    /* The application's new device: the registry moves there, the runtime is recreated on it. */
    kiln_programs_destroy(fresh.programs);
    kiln_texture_registry_destroy(fresh.reg);
    kiln_texture_registry_move_to(lost.reg, fresh.gfx.res);
    kiln_error err = {0};
    fresh.programs = kiln_programs_recreate(lost.programs, fresh.gfx.gfx, fresh.gfx.res, lost.reg, &err);
    fresh.reg = lost.reg;
    lost.programs = NULL;
    lost.reg = NULL;
    CHECK_MSG(fresh.programs, "%s", err.message);
    kiln_pass_timing rows[4];
    uint32_t row_count = kiln_programs_timings(fresh.programs, fill, rows, 4);
    bool read_cleared = read_texels(&fresh, out, cleared);
    kiln_dispatch_class again = kiln_programs_dispatch(fresh.programs, fill, &out, 1, colour, sizeof colour);
    bool painted = run_frame(&fresh) && read_texels(&fresh, out, after);
    kiln_dispatch_class destroyed = kiln_programs_dispatch(fresh.programs, gone, &out, 1, colour, sizeof colour);
    uint32_t next = register_fill(&fresh);
    uint64_t lost_errors = program_fixture_close(&lost);
    PROGRAM_FIXTURE_CLOSE_CLEAN(fresh);
    CHECK(was_lost);
    CHECK(all_texels(before, 64, colour));
    CHECK_EQ_INT(row_count, 1);
    CHECK(rows[0].width == 4 && rows[0].height == 4); /* the last dispatch's size, carried over */
    CHECK(read_cleared && all_texels(cleared, 64, zero));
    CHECK_EQ_INT(again, KILN_DISPATCH_OK);
    CHECK(painted && all_texels(after, 64, colour));
    CHECK(memcmp(before, after, sizeof before) == 0);
    CHECK_EQ_INT(destroyed, KILN_DISPATCH_UNKNOWN_PROGRAM);
    CHECK_EQ_INT(next, 3); /* ids go on from where they were */
    CHECK_EQ_INT(lost_errors, 0);
}


/* A program whose pipelines do not build on the replacement device is quarantined (its id stays
 * taken, its dispatches drop as unknown_program saying why) while its sibling carries on. The
 * fault is injected through the new device's limits, which kiln reads at rebuild: its uniform
 * binding ceiling is lowered below the first program's 32-byte block. */
TEST(a_program_that_does_not_rebuild_is_quarantined_and_its_sibling_carries_on) {
    program_fixture lost, fresh;
    PROGRAM_FIXTURE_OPEN(lost);
    PROGRAM_FIXTURE_OPEN(fresh);
    static const char *const BIG_WGSL =
        "struct Big { color: vec4<f32>, extra: vec4<f32> }\n"
        "@group(0) @binding(0) var<uniform> big: Big;\n"
        "@fragment fn fs_big() -> @location(0) vec4<f32> { return big.color + big.extra; }\n";
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8)};
    kiln_pass_spec passes[] = {with_window(fragment_pass("fs_big", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), 0, 32)};
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(BIG_WGSL, bindings, passes);
    kiln_program_error perr;
    uint32_t big = kiln_programs_register(lost.programs, &desc, &perr), fill = register_fill(&lost);
    uint32_t out = make_texture(&lost, KILN_FORMAT_RGBA8, 4, 4, NULL, true);
    CHECK(big == 1 && fill == 2);
    wgpuDeviceForceLoss(lost.gfx.gfx->device, WGPUDeviceLostReason_Unknown, (WGPUStringView){"test loss", WGPU_STRLEN});
    kiln_gfx_pump(lost.gfx.gfx, true);
    kiln_programs_destroy(fresh.programs);
    kiln_texture_registry_destroy(fresh.reg);
    kiln_texture_registry_move_to(lost.reg, fresh.gfx.res);
    uint32_t real_limit = fresh.gfx.gfx->limits.maxUniformBufferBindingSize;
    fresh.gfx.gfx->limits.maxUniformBufferBindingSize = 16;
    kiln_error err = {0};
    fresh.programs = kiln_programs_recreate(lost.programs, fresh.gfx.gfx, fresh.gfx.res, lost.reg, &err);
    fresh.gfx.gfx->limits.maxUniformBufferBindingSize = real_limit;
    fresh.reg = lost.reg;
    lost.programs = NULL;
    lost.reg = NULL;
    CHECK_MSG(fresh.programs, "%s", err.message);
    char warned[400];
    snprintf(warned, sizeof warned, "%s", last_log(&fresh));
    static const float colour[4] = {0.2f, 0.4f, 0.6f, 1.0f};
    static const float wide[8] = {0};
    kiln_dispatch_class quarantined = kiln_programs_dispatch(fresh.programs, big, &out, 1, wide, sizeof wide);
    char dropped[400];
    snprintf(dropped, sizeof dropped, "%s", last_log(&fresh));
    kiln_dispatch_class sibling = kiln_programs_dispatch(fresh.programs, fill, &out, 1, colour, sizeof colour);
    float t[64];
    bool painted = run_frame(&fresh) && read_texels(&fresh, out, t);
    uint32_t next = register_fill(&fresh);
    /* A program registered after the replacement and destroyed is unknown, not quarantined: the
     * quarantine covers the ids the runtime had then (ASan holds the flags to their length). */
    bool destroyed = kiln_programs_destroy_program(fresh.programs, next);
    kiln_dispatch_class gone = kiln_programs_dispatch(fresh.programs, next, &out, 1, colour, sizeof colour);
    char gone_log[400];
    snprintf(gone_log, sizeof gone_log, "%s", last_log(&fresh));
    uint64_t lost_errors = program_fixture_close(&lost);
    PROGRAM_FIXTURE_CLOSE_CLEAN(fresh);
    CHECK_STR_CONTAINS(warned, "program 1 is quarantined: its pipelines did not build on the replacement device "
                               "(device_limit: pass 0 (fs_big): its uniform block of 32 bytes is past the device's "
                               "maxUniformBufferBindingSize (16))");
    CHECK_EQ_INT(quarantined, KILN_DISPATCH_UNKNOWN_PROGRAM);
    CHECK_STR_CONTAINS(dropped, "program_id: program 1 is quarantined: its pipelines did not build on the replacement "
                                "device");
    CHECK_EQ_INT(sibling, KILN_DISPATCH_OK);
    CHECK(painted && all_texels(t, 64, colour));
    CHECK_EQ_INT(next, 3);
    CHECK(destroyed);
    CHECK_EQ_INT(gone, KILN_DISPATCH_UNKNOWN_PROGRAM);
    CHECK_MSG(!strstr(gone_log, "quarantined"), "%s", gone_log);
    CHECK_EQ_INT(lost_errors, 0);
}

TEST_MAIN(T(programs_survive_a_device_loss_under_their_ids),
          T(a_program_that_does_not_rebuild_is_quarantined_and_its_sibling_carries_on))
