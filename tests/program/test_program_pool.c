/* The transient pool: live-range packing (a ping-pong chain of ten passes on two textures, a
 * resolve texture sharing the One class), sharing across programs and dispatches, a resize moving
 * to the new class and the old one released once idle, and Four transients: resolved once between
 * writers for every reader, their samples kept for a later writer, averaged, and left unresolved
 * (no resolve texture) when nobody reads them. */
#include "program/program_internal.h"
#include "program_test_util.h"

#define W 32
#define H 24

/* fs_fill: the uniform colour. fs_step: input 0 plus 0.05 in red. fs_copy: input 0 as loaded.
 * fs_samples: sample i of each pixel holds i / 3, so four samples average to 0.5. */
static const char *const POOL_WGSL =
    "struct Fill { color: vec4<f32> }\n"
    "@group(0) @binding(0) var<uniform> fill: Fill;\n"
    "@group(1) @binding(0) var src: texture_2d<f32>;\n"
    "@fragment fn fs_fill() -> @location(0) vec4<f32> { return fill.color; }\n"
    "@fragment fn fs_step(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {\n"
    "    return textureLoad(src, vec2<i32>(position.xy), 0) + vec4<f32>(0.05, 0.0, 0.0, 0.0);\n"
    "}\n"
    "@fragment fn fs_copy(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {\n"
    "    return textureLoad(src, vec2<i32>(position.xy), 0);\n"
    "}\n"
    "@fragment fn fs_samples(@builtin(sample_index) sample: u32) -> @location(0) vec4<f32> {\n"
    "    return vec4<f32>(f32(sample) / 3.0, 0.0, 0.0, 1.0);\n"
    "}\n";

static uint32_t register_desc(program_fixture *f, const kiln_program_desc *desc) {
    kiln_program_error err;
    uint32_t id = kiln_programs_register(f->programs, desc, &err);
    if (!id) fprintf(stderr, "register: %s: %s\n", kiln_program_class_name(err.cls), err.message);
    return id;
}

/* Ten passes: a fill into transient 0, eight steps each into a fresh transient reading the pass
 * before, and a last step onto the output. Nine Rgba16Float transients of one class. */
static uint32_t register_chain(program_fixture *f) {
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA16_FLOAT)};
    kiln_transient_spec transients[9];
    kiln_pass_spec passes[10];
    for (uint32_t t = 0; t < 9; t++) transients[t] = full_transient(KILN_FORMAT_RGBA16_FLOAT, KILN_SAMPLES_ONE);
    passes[0] = with_window(fragment_pass("fs_fill", to_transient(0), KILN_PROGRAM_BLEND_REPLACE), 0, 16);
    for (uint32_t i = 1; i < 10; i++)
        passes[i] = with_input(fragment_pass("fs_step", i < 9 ? to_transient(i) : to_binding(0), KILN_PROGRAM_BLEND_REPLACE),
                               from_pass(i - 1));
    kiln_program_desc desc = PROGRAM_DESC(POOL_WGSL, bindings, transients, passes);
    return register_desc(f, &desc);
}

static const float SEED[4] = {0.1f, 0, 0, 1};

static bool run_chain(program_fixture *f, uint32_t prog, uint32_t out) {
    return kiln_programs_dispatch(f->programs, prog, &out, 1, SEED, sizeof SEED) == KILN_DISPATCH_OK && run_frame(f);
}

TEST(a_ping_pong_chain_of_ten_passes_settles_on_two_textures) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t prog = register_chain(&f);
    CHECK(prog);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA16_FLOAT, W, H, NULL, true);
    CHECK(run_chain(&f, prog, out));
    kiln_pool_stats stats = kiln_programs_pool_stats(f.programs);
    CHECK_EQ_INT(stats.classes, 1);
    CHECK_EQ_INT(stats.textures, 2);
    CHECK_EQ_INT(stats.textures_last_dispatch, 2);
    /* Sharing two textures between nine transients lost nothing: every step landed. */
    static float got[W * H * 4];
    CHECK(read_texels(&f, out, got));
    for (int i = 0; i < W * H; i++) CHECK_NEAR(got[4 * i], 0.1 + 9 * 0.05, 2e-3);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

TEST(later_dispatches_reuse_the_pooled_textures) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t prog = register_chain(&f);
    CHECK(prog);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA16_FLOAT, W, H, NULL, true);
    CHECK(run_chain(&f, prog, out));
    kiln_live_counts first = kiln_resources_live_counts(f.gfx.res);
    for (int frame = 0; frame < 3; frame++) CHECK(run_chain(&f, prog, out));
    kiln_live_counts later = kiln_resources_live_counts(f.gfx.res);
    CHECK_EQ_INT(later.textures, first.textures);
    CHECK_EQ_INT(later.bind_groups, first.bind_groups);
    CHECK_EQ_INT(kiln_programs_pool_stats(f.programs).textures, 2);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

TEST(programs_share_the_pool) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t a = register_chain(&f), b = register_chain(&f);
    CHECK(a && b);
    uint32_t out_a = make_texture(&f, KILN_FORMAT_RGBA16_FLOAT, W, H, NULL, true);
    uint32_t out_b = make_texture(&f, KILN_FORMAT_RGBA16_FLOAT, W, H, NULL, true);
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, a, &out_a, 1, SEED, sizeof SEED), KILN_DISPATCH_OK);
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, b, &out_b, 1, SEED, sizeof SEED), KILN_DISPATCH_OK);
    CHECK(run_frame(&f));
    CHECK_EQ_INT(kiln_programs_pool_stats(f.programs).textures, 2);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* A dispatch at a new output size takes textures of the new class; the old class stays pooled
 * until it has sat unused through PROGRAM_POOL_IDLE_RECORDS frames with work. */
TEST(a_resize_moves_transients_to_the_new_class) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t prog = register_chain(&f);
    CHECK(prog);
    uint32_t big = make_texture(&f, KILN_FORMAT_RGBA16_FLOAT, W, H, NULL, true);
    uint32_t small = make_texture(&f, KILN_FORMAT_RGBA16_FLOAT, W / 2, H / 2, NULL, true);
    CHECK(run_chain(&f, prog, big));
    CHECK(run_chain(&f, prog, small));
    kiln_pool_stats stats = kiln_programs_pool_stats(f.programs);
    CHECK_EQ_INT(stats.textures_last_dispatch, 2);
    CHECK_EQ_INT(stats.classes, 2);
    CHECK_EQ_INT(stats.textures, 4);
    for (uint32_t frame = 1; frame < PROGRAM_POOL_IDLE_RECORDS; frame++) CHECK(run_chain(&f, prog, small));
    stats = kiln_programs_pool_stats(f.programs);
    CHECK_EQ_INT(stats.classes, 1);
    CHECK_EQ_INT(stats.textures, 2);
    static float got[W / 2 * H / 2 * 4];
    CHECK(read_texels(&f, small, got));
    CHECK_NEAR(got[0], 0.1 + 9 * 0.05, 2e-3);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* A frame that records nothing leaves idle textures alone: a rarely repainted program keeps them. */
TEST(frames_without_work_release_nothing) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t prog = register_chain(&f);
    CHECK(prog);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA16_FLOAT, W, H, NULL, true);
    CHECK(run_chain(&f, prog, out));
    for (uint32_t frame = 0; frame < 2 * PROGRAM_POOL_IDLE_RECORDS; frame++) CHECK(run_frame(&f));
    CHECK_EQ_INT(kiln_programs_pool_stats(f.programs).textures, 2);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* Pooled textures, uniform buffers, samplers, pipelines: the runtime's destroy releases them all. */
TEST(destroying_the_runtime_releases_every_gpu_object) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t prog = register_chain(&f);
    CHECK(prog);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA16_FLOAT, W, H, NULL, true);
    CHECK(run_chain(&f, prog, out));
    kiln_programs_destroy(f.programs);
    f.programs = NULL;
    kiln_texture_registry_destroy(f.reg);
    f.reg = NULL;
    kiln_live_counts live = kiln_resources_live_counts(f.gfx.res);
    CHECK_EQ_INT(kiln_live_counts_total(&live), 0);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* ---- Four transients ------------------------------------------------------------------------------------ */

/* Transient 0 is Four Rgba8. Pass 0 fills it red; passes 1 and 2 copy it onto bindings 1 and 2
 * (one resolve serves both); pass 3 draws half-transparent blue over its kept samples; pass 4
 * copies the second resolve onto binding 0. */
TEST(a_four_transient_read_twice_between_writers_resolves_for_each_run_of_readers) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8), target_slot(KILN_FORMAT_RGBA8),
                                 target_slot(KILN_FORMAT_RGBA8)};
    kiln_transient_spec transients[] = {full_transient(KILN_FORMAT_RGBA8, KILN_SAMPLES_FOUR)};
    kiln_pass_spec passes[] = {
        with_window(fragment_pass("fs_fill", to_transient(0), KILN_PROGRAM_BLEND_REPLACE), 0, 16),
        with_input(fragment_pass("fs_copy", to_binding(1), KILN_PROGRAM_BLEND_REPLACE), from_transient(0)),
        with_input(fragment_pass("fs_copy", to_binding(2), KILN_PROGRAM_BLEND_REPLACE), from_transient(0)),
        with_window(fragment_pass("fs_fill", to_transient(0), KILN_PROGRAM_BLEND_ALPHA), 16, 16),
        with_input(fragment_pass("fs_copy", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), from_transient(0)),
    };
    kiln_program_desc desc = PROGRAM_DESC(POOL_WGSL, bindings, transients, passes);
    uint32_t prog = register_desc(&f, &desc);
    CHECK(prog);
    uint32_t ids[3];
    for (int b = 0; b < 3; b++) ids[b] = make_texture(&f, KILN_FORMAT_RGBA8, W, H, NULL, true);
    const float blob[8] = {1, 0, 0, 1, 0, 0, 1, 0.5f};
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, ids, 3, blob, sizeof blob), KILN_DISPATCH_OK);
    CHECK(run_frame(&f));
    /* The samples' texture and one resolve texture. */
    CHECK_EQ_INT(kiln_programs_pool_stats(f.programs).textures_last_dispatch, 2);
    static float got[W * H * 4];
    const float red[4] = {1, 0, 0, 1}, over[4] = {0.5f, 0, 0.5f, 1};
    for (int b = 0; b < 3; b++) {
        CHECK(read_texels(&f, ids[b], got));
        const float *want = b == 0 ? over : red;
        for (int i = 0; i < W * H; i++)
            for (int c = 0; c < 4; c++) CHECK_NEAR(got[4 * i + c], want[c], 1.0 / 255.0 + 1e-6);
    }
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* Readers see one value per texel, the average of its four samples. */
TEST(a_four_transient_reads_as_the_average_of_its_samples) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA16_FLOAT)};
    kiln_transient_spec transients[] = {full_transient(KILN_FORMAT_RGBA16_FLOAT, KILN_SAMPLES_FOUR)};
    kiln_pass_spec passes[] = {
        fragment_pass("fs_samples", to_transient(0), KILN_PROGRAM_BLEND_REPLACE),
        with_input(fragment_pass("fs_copy", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), from_pass(0)),
    };
    kiln_program_desc desc = PROGRAM_DESC(POOL_WGSL, bindings, transients, passes);
    uint32_t prog = register_desc(&f, &desc);
    CHECK(prog);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA16_FLOAT, W, H, NULL, true);
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, &out, 1, NULL, 0), KILN_DISPATCH_OK);
    CHECK(run_frame(&f));
    static float got[W * H * 4];
    CHECK(read_texels(&f, out, got));
    for (int i = 0; i < W * H; i++) CHECK_NEAR(got[4 * i], 0.5, 1e-3);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

TEST(a_four_transient_nobody_reads_takes_no_resolve_texture) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8)};
    kiln_transient_spec transients[] = {full_transient(KILN_FORMAT_RGBA8, KILN_SAMPLES_FOUR)};
    kiln_pass_spec passes[] = {
        with_window(fragment_pass("fs_fill", to_transient(0), KILN_PROGRAM_BLEND_REPLACE), 0, 16),
        with_window(fragment_pass("fs_fill", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), 0, 16),
    };
    kiln_program_desc desc = PROGRAM_DESC(POOL_WGSL, bindings, transients, passes);
    uint32_t prog = register_desc(&f, &desc);
    CHECK(prog);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, W, H, NULL, true);
    const float green[4] = {0, 1, 0, 1};
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, &out, 1, green, sizeof green), KILN_DISPATCH_OK);
    CHECK(run_frame(&f));
    CHECK_EQ_INT(kiln_programs_pool_stats(f.programs).textures_last_dispatch, 1);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* Transient 0 (Four) resolves in pass 0 and is last read in pass 1; transient 1 (One) is written
 * in pass 1 and read in pass 2; transient 2 (One) is first written in pass 2, after the resolve
 * texture's last read, so it lands on that texture: three textures, not four. */
TEST(a_resolve_texture_shares_the_one_class_by_live_range) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8)};
    kiln_transient_spec transients[] = {full_transient(KILN_FORMAT_RGBA8, KILN_SAMPLES_FOUR),
                                        full_transient(KILN_FORMAT_RGBA8, KILN_SAMPLES_ONE),
                                        full_transient(KILN_FORMAT_RGBA8, KILN_SAMPLES_ONE)};
    kiln_pass_spec passes[] = {
        with_window(fragment_pass("fs_fill", to_transient(0), KILN_PROGRAM_BLEND_REPLACE), 0, 16),
        with_input(fragment_pass("fs_copy", to_transient(1), KILN_PROGRAM_BLEND_REPLACE), from_transient(0)),
        with_input(fragment_pass("fs_copy", to_transient(2), KILN_PROGRAM_BLEND_REPLACE), from_transient(1)),
        with_input(fragment_pass("fs_copy", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), from_transient(2)),
    };
    kiln_program_desc desc = PROGRAM_DESC(POOL_WGSL, bindings, transients, passes);
    uint32_t prog = register_desc(&f, &desc);
    CHECK(prog);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, W, H, NULL, true);
    const float blue[4] = {0, 0, 1, 1};
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, &out, 1, blue, sizeof blue), KILN_DISPATCH_OK);
    CHECK(run_frame(&f));
    kiln_pool_stats stats = kiln_programs_pool_stats(f.programs);
    CHECK_EQ_INT(stats.textures_last_dispatch, 3);
    CHECK_EQ_INT(stats.classes, 2);
    static float got[W * H * 4];
    CHECK(read_texels(&f, out, got));
    CHECK_NEAR(got[2], 1.0, 1e-6);
    CHECK_NEAR(got[0], 0.0, 1e-6);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

TEST(a_four_r32float_transient_is_refused_at_register) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_R32_FLOAT)};
    kiln_transient_spec transients[] = {full_transient(KILN_FORMAT_R32_FLOAT, KILN_SAMPLES_FOUR)};
    kiln_pass_spec passes[] = {
        with_window(fragment_pass("fs_fill", to_transient(0), KILN_PROGRAM_BLEND_REPLACE), 0, 16),
        with_input(fragment_pass("fs_copy", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), from_pass(0)),
    };
    kiln_program_desc desc = PROGRAM_DESC(POOL_WGSL, bindings, transients, passes);
    kiln_program_error err;
    CHECK_EQ_INT(kiln_programs_register(f.programs, &desc, &err), 0);
    CHECK_EQ_INT(err.cls, KILN_PROGRAM_UNRESOLVABLE_SAMPLES);
    CHECK_STR_CONTAINS(err.message, "transient 0");
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* Two dispatches in one record call are one graph frame: the second one's transients land on the
 * textures the first has finished with, so the pool still holds two. */
TEST(two_dispatches_in_one_record_call_share_two_textures) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t prog = register_chain(&f);
    CHECK(prog);
    uint32_t a = make_texture(&f, KILN_FORMAT_RGBA16_FLOAT, W, H, NULL, true);
    uint32_t b = make_texture(&f, KILN_FORMAT_RGBA16_FLOAT, W, H, NULL, true);
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, &a, 1, SEED, sizeof SEED), KILN_DISPATCH_OK);
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, &b, 1, SEED, sizeof SEED), KILN_DISPATCH_OK);
    CHECK(run_frame(&f));
    kiln_pool_stats stats = kiln_programs_pool_stats(f.programs);
    CHECK_EQ_INT(stats.textures, 2);
    CHECK_EQ_INT(stats.textures_last_dispatch, 2);
    static float got[W * H * 4];
    for (int k = 0; k < 2; k++) {
        CHECK(read_texels(&f, k ? b : a, got));
        CHECK_NEAR(got[0], 0.1 + 9 * 0.05, 2e-3);
    }
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

TEST_MAIN(T(two_dispatches_in_one_record_call_share_two_textures),
          T(a_ping_pong_chain_of_ten_passes_settles_on_two_textures), T(later_dispatches_reuse_the_pooled_textures),
          T(programs_share_the_pool), T(a_resize_moves_transients_to_the_new_class),
          T(frames_without_work_release_nothing), T(destroying_the_runtime_releases_every_gpu_object),
          T(a_four_transient_read_twice_between_writers_resolves_for_each_run_of_readers),
          T(a_four_transient_reads_as_the_average_of_its_samples),
          T(a_four_transient_nobody_reads_takes_no_resolve_texture),
          T(a_resolve_texture_shares_the_one_class_by_live_range), T(a_four_r32float_transient_is_refused_at_register))
