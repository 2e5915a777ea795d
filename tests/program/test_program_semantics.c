/* What Programs I left untested (#11's acceptance list), in pixels read back: the first write of a
 * dispatch clears retained pixels (a redispatch does not accumulate onto the last one, and a pooled
 * transient does not leak another program's content); a later dispatch in a frame reads what an
 * earlier one wrote; a Texel input followed by a Filtered one through one pipeline; a repeated pass
 * writing a Four transient; destroying a program leaves its transients in the pool; Divided extents
 * clamp to one texel; blending onto R8 and R16Float outputs. Every test closes with zero Dawn
 * errors. */
#include "program_test_util.h"

static const char *const WGSL =
    "struct Fill { color: vec4<f32> }\n"
    "@group(0) @binding(0) var<uniform> fill: Fill;\n"
    "@group(1) @binding(0) var src: texture_2d<f32>;\n"
    "@group(1) @binding(2) var filtered: texture_2d<f32>;\n"
    "@group(1) @binding(3) var filtered_sampler: sampler;\n"
    "@fragment fn fs_fill() -> @location(0) vec4<f32> { return fill.color; }\n"
    "@fragment fn fs_copy(@builtin(position) p: vec4<f32>) -> @location(0) vec4<f32> {\n"
    "    return textureLoad(src, vec2<i32>(p.xy), 0);\n"
    "}\n"
    "// Input 0 loaded texel by texel, input 1 sampled halfway between its two texels.\n"
    "@fragment fn fs_texel_then_filtered() -> @location(0) vec4<f32> {\n"
    "    let exact = textureLoad(src, vec2<i32>(1, 0), 0);\n"
    "    let blended = textureSample(filtered, filtered_sampler, vec2<f32>(0.5, 0.5));\n"
    "    return vec4<f32>(exact.r, blended.r, 0.0, 1.0);\n"
    "}\n";

static uint32_t register_desc(program_fixture *f, const kiln_program_desc *desc) {
    kiln_program_error err;
    uint32_t id = kiln_programs_register(f->programs, desc, &err);
    if (!id) fprintf(stderr, "register: %s: %s\n", kiln_program_class_name(err.cls), err.message);
    return id;
}

/* One pass filling the output with the uniform colour under `blend`. */
static uint32_t register_fill(program_fixture *f, kiln_texture_format format, kiln_program_blend blend) {
    kiln_slot_spec bindings[] = {target_slot(format)};
    kiln_pass_spec passes[] = {with_window(fragment_pass("fs_fill", to_binding(0), blend), 0, 16)};
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(WGSL, bindings, passes);
    return register_desc(f, &desc);
}

static bool all_near(const float *t, size_t n, float want, float tolerance) {
    for (size_t i = 0; i < n; i++)
        if (fabsf(t[i] - want) > tolerance) {
            fprintf(stderr, "value %zu is %g, expected %g\n", i, t[i], want);
            return false;
        }
    return true;
}

/* An additive fill dispatched twice: the dispatch's first write clears, so the second gives the
 * same 0.25, not 0.5. */
TEST(a_redispatch_does_not_accumulate_onto_the_last_one) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t prog = register_fill(&f, KILN_FORMAT_RGBA16_FLOAT, KILN_PROGRAM_BLEND_ADDITIVE);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA16_FLOAT, 4, 4, NULL, true);
    static const float quarter[4] = {0.25f, 0.25f, 0.25f, 0.25f};
    float first[64], second[64];
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, &out, 1, quarter, sizeof quarter), KILN_DISPATCH_OK);
    CHECK(run_frame(&f) && read_texels(&f, out, first));
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, &out, 1, quarter, sizeof quarter), KILN_DISPATCH_OK);
    CHECK(run_frame(&f) && read_texels(&f, out, second));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    CHECK(all_near(first, 64, 0.25f, 1e-3f));
    CHECK(all_near(second, 64, 0.25f, 1e-3f));
}

/* Program A fills a transient with 0.75 and copies it out; program B adds 0.25 into a transient of
 * the same class (so of the same pooled texture) and copies it out: B reads 0.25, never A's 1.0. */
TEST(a_pooled_transient_does_not_leak_another_program_s_content) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t progs[2];
    for (int i = 0; i < 2; i++) {
        kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA16_FLOAT)};
        kiln_transient_spec transients[] = {full_transient(KILN_FORMAT_RGBA16_FLOAT, KILN_SAMPLES_ONE)};
        kiln_pass_spec passes[] = {
            with_window(fragment_pass("fs_fill", to_transient(0), i ? KILN_PROGRAM_BLEND_ADDITIVE
                                                                    : KILN_PROGRAM_BLEND_REPLACE), 0, 16),
            with_input(fragment_pass("fs_copy", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), from_transient(0)),
        };
        kiln_program_desc desc = PROGRAM_DESC(WGSL, bindings, transients, passes);
        progs[i] = register_desc(&f, &desc);
    }
    uint32_t a = make_texture(&f, KILN_FORMAT_RGBA16_FLOAT, 4, 4, NULL, true);
    uint32_t b = make_texture(&f, KILN_FORMAT_RGBA16_FLOAT, 4, 4, NULL, true);
    static const float three_quarters[4] = {0.75f, 0.75f, 0.75f, 0.75f}, quarter[4] = {0.25f, 0.25f, 0.25f, 0.25f};
    float ta[64], tb[64];
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, progs[0], &a, 1, three_quarters, 16), KILN_DISPATCH_OK);
    CHECK(run_frame(&f));
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, progs[1], &b, 1, quarter, 16), KILN_DISPATCH_OK);
    CHECK(run_frame(&f) && read_texels(&f, a, ta) && read_texels(&f, b, tb));
    kiln_pool_stats pool = kiln_programs_pool_stats(f.programs);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    CHECK(all_near(ta, 64, 0.75f, 1e-3f));
    CHECK(all_near(tb, 64, 0.25f, 1e-3f));
    CHECK_EQ_INT(pool.classes, 1); /* the two programs' transients are one class: the texture was shared */
}

/* Dispatch 1 fills texture A; dispatch 2, in the same frame, copies A into B. */
TEST(a_later_dispatch_in_a_frame_reads_what_an_earlier_one_wrote) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t fill = register_fill(&f, KILN_FORMAT_RGBA8, KILN_PROGRAM_BLEND_REPLACE);
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8), texture_slot(KILN_FORMAT_RGBA8)};
    bindings[1].sampling.texel = true;
    kiln_pass_spec passes[] = {with_input(fragment_pass("fs_copy", to_binding(0), KILN_PROGRAM_BLEND_REPLACE),
                                          from_binding(1))};
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(WGSL, bindings, passes);
    uint32_t copy = register_desc(&f, &desc);
    uint32_t a = make_texture(&f, KILN_FORMAT_RGBA8, 4, 4, NULL, true), b = make_texture(&f, KILN_FORMAT_RGBA8, 4, 4, NULL, true);
    static const float colour[4] = {0.2f, 0.4f, 0.6f, 0.8f};
    uint32_t ids[2] = {b, a};
    float t[64];
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, fill, &a, 1, colour, sizeof colour), KILN_DISPATCH_OK);
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, copy, ids, 2, NULL, 0), KILN_DISPATCH_OK);
    CHECK(run_frame(&f) && read_texels(&f, b, t));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    int wrong = 0;
    for (int i = 0; i < 64; i++) wrong += fabsf(t[i] - colour[i % 4]) > 1.0f / 255.0f;
    CHECK_EQ_INT(wrong, 0);
}

/* Input 0 is a Texel binding (no sampler, binding 1 unused), input 1 a Filtered one at bindings 2
 * and 3: the exact texel and the linear blend both come through. */
TEST(a_texel_input_followed_by_a_filtered_one_binds_both) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8), texture_slot(KILN_FORMAT_R8), texture_slot(KILN_FORMAT_R8)};
    bindings[1].sampling.texel = true;
    kiln_pass_spec passes[] = {with_input(with_input(fragment_pass("fs_texel_then_filtered", to_binding(0),
                                                                   KILN_PROGRAM_BLEND_REPLACE), from_binding(1)),
                                          from_binding(2))};
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(WGSL, bindings, passes);
    uint32_t prog = register_desc(&f, &desc);
    static const uint8_t table[2] = {10, 200}, ramp[2] = {0, 200};
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, 2, 2, NULL, true);
    uint32_t ids[3] = {out, make_texture(&f, KILN_FORMAT_R8, 2, 1, table, false),
                       make_texture(&f, KILN_FORMAT_R8, 2, 1, ramp, false)};
    float t[16];
    CHECK(prog);
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, ids, 3, NULL, 0), KILN_DISPATCH_OK);
    CHECK(run_frame(&f) && read_texels(&f, out, t));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    CHECK(fabsf(t[0] - 200.0f / 255.0f) < 1.5f / 255.0f); /* the Texel input's texel 1, exactly */
    CHECK(fabsf(t[1] - 100.0f / 255.0f) < 2.5f / 255.0f); /* halfway between 0 and 200 */
}

/* A fill repeated three times, Additive, into a Four transient, then resolved out: the iterations
 * accumulate on the samples and resolve once, after the last. */
TEST(a_repeated_pass_writing_a_four_transient_accumulates_then_resolves) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA16_FLOAT)};
    kiln_transient_spec transients[] = {full_transient(KILN_FORMAT_RGBA16_FLOAT, KILN_SAMPLES_FOUR)};
    kiln_pass_spec passes[] = {
        with_repeat(with_window(fragment_pass("fs_fill", to_transient(0), KILN_PROGRAM_BLEND_ADDITIVE), 0, 16), 3, 0),
        with_input(fragment_pass("fs_copy", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), from_transient(0)),
    };
    kiln_program_desc desc = PROGRAM_DESC(WGSL, bindings, transients, passes);
    uint32_t prog = register_desc(&f, &desc);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA16_FLOAT, 4, 4, NULL, true);
    static const float quarter[4] = {0.25f, 0.25f, 0.25f, 0.25f};
    float t[64];
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, &out, 1, quarter, sizeof quarter), KILN_DISPATCH_OK);
    CHECK(run_frame(&f) && read_texels(&f, out, t));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    CHECK(all_near(t, 64, 0.75f, 2e-3f));
}

TEST(destroying_a_program_leaves_its_transients_in_the_pool) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8)};
    kiln_transient_spec transients[] = {full_transient(KILN_FORMAT_RGBA8, KILN_SAMPLES_ONE)};
    kiln_pass_spec passes[] = {
        with_window(fragment_pass("fs_fill", to_transient(0), KILN_PROGRAM_BLEND_REPLACE), 0, 16),
        with_input(fragment_pass("fs_copy", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), from_transient(0)),
    };
    kiln_program_desc desc = PROGRAM_DESC(WGSL, bindings, transients, passes);
    uint32_t prog = register_desc(&f, &desc);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, 8, 8, NULL, true);
    static const float colour[4] = {1, 0, 0, 1};
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, &out, 1, colour, sizeof colour), KILN_DISPATCH_OK);
    CHECK(run_frame(&f));
    kiln_pool_stats before = kiln_programs_pool_stats(f.programs);
    CHECK(kiln_programs_destroy_program(f.programs, prog));
    kiln_pool_stats after = kiln_programs_pool_stats(f.programs);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    CHECK(before.textures >= 1);
    CHECK_EQ_INT(after.textures, before.textures);
    CHECK_EQ_INT(after.classes, before.classes);
}

/* A Divided 8 transient of a 5 x 3 output floor-divides to 0 x 0 and clamps to 1 x 1: the fill
 * still lands, and a copy reading it at (0, 0) spreads it over the output. */
TEST(a_divided_extent_clamps_to_one_texel) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8)};
    kiln_transient_spec transients[] = {{.format = KILN_FORMAT_RGBA8, .extent = {true, 8}}};
    kiln_pass_spec passes[] = {
        with_window(fragment_pass("fs_fill", to_transient(0), KILN_PROGRAM_BLEND_REPLACE), 0, 16),
        with_input(fragment_pass("fs_copy", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), from_transient(0)),
    };
    kiln_program_desc desc = PROGRAM_DESC(WGSL, bindings, transients, passes);
    uint32_t prog = register_desc(&f, &desc);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, 5, 3, NULL, true);
    static const float colour[4] = {0, 1, 0, 1};
    float t[5 * 3 * 4];
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, &out, 1, colour, sizeof colour), KILN_DISPATCH_OK);
    kiln_pass_timing rows[2];
    CHECK_EQ_INT(kiln_programs_timings(f.programs, prog, rows, 2), 2);
    CHECK(run_frame(&f) && read_texels(&f, out, t));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    CHECK(rows[0].width == 1 && rows[0].height == 1 && rows[0].divisor == 8);
    /* fs_copy loads texel (x, y) of the 1 x 1 transient; only the output's (0, 0) maps inside it. */
    CHECK(fabsf(t[0] - 0.0f) < 1e-3f && fabsf(t[1] - 1.0f) < 1e-3f && fabsf(t[3] - 1.0f) < 1e-3f);
}

/* Alpha onto R8 and R16Float: a half-alpha fill of 1.0 over a prefilled 0.2 gives 0.6. */
TEST(blending_onto_r8_and_r16float_outputs) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t add = register_fill(&f, KILN_FORMAT_R16_FLOAT, KILN_PROGRAM_BLEND_ADDITIVE);
    /* A first pass paints the 0.2 base (Replace), the second blends over it (Alpha). */
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_R8)};
    kiln_pass_spec passes[] = {with_window(fragment_pass("fs_fill", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), 0, 16),
                               with_window(fragment_pass("fs_fill", to_binding(0), KILN_PROGRAM_BLEND_ALPHA), 16, 16)};
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(WGSL, bindings, passes);
    uint32_t layered = register_desc(&f, &desc);
    bindings[0] = target_slot(KILN_FORMAT_R16_FLOAT);
    uint32_t layered16 = register_desc(&f, &desc);
    uint32_t o8 = make_texture(&f, KILN_FORMAT_R8, 4, 4, NULL, true), o16 = make_texture(&f, KILN_FORMAT_R16_FLOAT, 4, 4, NULL, true);
    uint32_t o16add = make_texture(&f, KILN_FORMAT_R16_FLOAT, 4, 4, NULL, true);
    static const float blob[8] = {0.2f, 0, 0, 1, 1.0f, 0, 0, 0.5f};
    static const float more[4] = {0.75f, 0, 0, 1};
    float t8[16], t16[16], tadd[16];
    CHECK(add && layered && layered16);
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, layered, &o8, 1, blob, sizeof blob), KILN_DISPATCH_OK);
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, layered16, &o16, 1, blob, sizeof blob), KILN_DISPATCH_OK);
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, add, &o16add, 1, more, sizeof more), KILN_DISPATCH_OK);
    CHECK(run_frame(&f) && read_texels(&f, o8, t8) && read_texels(&f, o16, t16) && read_texels(&f, o16add, tadd));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    CHECK(all_near(t8, 16, 0.6f, 1.5f / 255.0f));
    CHECK(all_near(t16, 16, 0.6f, 1e-3f));
    CHECK(all_near(tadd, 16, 0.75f, 1e-3f)); /* additive over the dispatch's cleared first write */
}

TEST_MAIN(T(a_redispatch_does_not_accumulate_onto_the_last_one),
          T(a_pooled_transient_does_not_leak_another_program_s_content),
          T(a_later_dispatch_in_a_frame_reads_what_an_earlier_one_wrote),
          T(a_texel_input_followed_by_a_filtered_one_binds_both),
          T(a_repeated_pass_writing_a_four_transient_accumulates_then_resolves),
          T(destroying_a_program_leaves_its_transients_in_the_pool), T(a_divided_extent_clamps_to_one_texel),
          T(blending_onto_r8_and_r16float_outputs))
