/* Dispatch: every drop class is returned and logged (a warning under "program" naming program,
 * pass and binding), the checks run in the documented order, and a dropped dispatch records
 * nothing: the output keeps the pixels it had. */
#include "program_test_util.h"

/* Tints input 0 by the uniform colour. */
static const char *const TINT_WGSL =
    "struct Tint { color: vec4<f32> }\n"
    "@group(0) @binding(0) var<uniform> tint: Tint;\n"
    "@group(1) @binding(0) var src: texture_2d<f32>;\n"
    "@group(1) @binding(1) var src_sampler: sampler;\n"
    "@fragment fn fs_tint(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {\n"
    "    return textureSample(src, src_sampler, uv) * tint.color;\n"
    "}\n";

static const float WHITE[4] = {1, 1, 1, 1};

/* bindings: 0 Target(Full) Rgba8 (the output), 1 `input` Rgba8; one pass tints 1 into 0. */
static uint32_t register_tint(program_fixture *f, kiln_slot_spec input, const char *wgsl) {
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8), input};
    kiln_pass_spec passes[] = {
        with_input(with_window(fragment_pass("fs_tint", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), 0, 16),
                   from_binding(1)),
    };
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(wgsl, bindings, passes);
    kiln_program_error err;
    uint32_t id = kiln_programs_register(f->programs, &desc, &err);
    if (!id) fprintf(stderr, "register: %s\n", err.message);
    return id;
}

/* The last log record is a "program" warning of this class. */
static bool logged_drop(program_fixture *f, kiln_dispatch_class cls) {
    kiln_log *log = kiln_programs_log(f->programs);
    uint32_t n = kiln_log_count(log);
    if (!n) return false;
    const kiln_log_record *r = kiln_log_at(log, n - 1);
    return r->level == KILN_LOG_WARN && strcmp(r->category, "program") == 0 &&
           strstr(r->message, kiln_dispatch_class_name(cls)) != NULL;
}

TEST(an_accepted_dispatch_is_ok_and_logs_nothing) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t prog = register_tint(&f, texture_slot(KILN_FORMAT_RGBA8), TINT_WGSL);
    CHECK(prog);
    uint32_t ids[] = {make_texture(&f, KILN_FORMAT_RGBA8, 8, 8, NULL, true),
                      make_texture(&f, KILN_FORMAT_RGBA8, 3, 5, NULL, false)};
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, ids, 2, WHITE, sizeof WHITE), KILN_DISPATCH_OK);
    CHECK_EQ_INT(kiln_log_count(kiln_programs_log(f.programs)), 0);
    CHECK(run_frame(&f));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

TEST(an_unknown_program_is_dropped) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t ids[] = {make_texture(&f, KILN_FORMAT_RGBA8, 8, 8, NULL, true)};
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, 5, ids, 1, WHITE, sizeof WHITE), KILN_DISPATCH_UNKNOWN_PROGRAM);
    CHECK(logged_drop(&f, KILN_DISPATCH_UNKNOWN_PROGRAM));
    CHECK_STR_CONTAINS(last_log(&f), "program 5 is not registered");
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

TEST(a_wrong_binding_count_is_dropped) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t prog = register_tint(&f, texture_slot(KILN_FORMAT_RGBA8), TINT_WGSL);
    uint32_t ids[] = {make_texture(&f, KILN_FORMAT_RGBA8, 8, 8, NULL, true)};
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, ids, 1, WHITE, sizeof WHITE), KILN_DISPATCH_BINDING_COUNT);
    CHECK(logged_drop(&f, KILN_DISPATCH_BINDING_COUNT));
    CHECK_STR_CONTAINS(last_log(&f), "program 1");
    CHECK_STR_CONTAINS(last_log(&f), "names 1 texture; the program declares 2 bindings");
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

TEST(an_unknown_texture_is_dropped) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t prog = register_tint(&f, texture_slot(KILN_FORMAT_RGBA8), TINT_WGSL);
    uint32_t ids[] = {make_texture(&f, KILN_FORMAT_RGBA8, 8, 8, NULL, true), 999};
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, ids, 2, WHITE, sizeof WHITE), KILN_DISPATCH_UNKNOWN_TEXTURE);
    CHECK(logged_drop(&f, KILN_DISPATCH_UNKNOWN_TEXTURE));
    CHECK_STR_CONTAINS(last_log(&f), "program 1");
    CHECK_STR_CONTAINS(last_log(&f), "pass 0 (fs_tint), binding 1: unknown texture id 999");
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

TEST(a_format_mismatch_is_dropped) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t prog = register_tint(&f, texture_slot(KILN_FORMAT_RGBA8), TINT_WGSL);
    uint32_t ids[] = {make_texture(&f, KILN_FORMAT_RGBA8, 8, 8, NULL, true),
                      make_texture(&f, KILN_FORMAT_R8, 8, 8, NULL, false)};
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, ids, 2, WHITE, sizeof WHITE), KILN_DISPATCH_FORMAT_MISMATCH);
    CHECK(logged_drop(&f, KILN_DISPATCH_FORMAT_MISMATCH));
    CHECK_STR_CONTAINS(last_log(&f), "program 1");
    CHECK_STR_CONTAINS(last_log(&f), "pass 0 (fs_tint), binding 1: texture 2 is R8; the binding is declared Rgba8");
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

TEST(a_target_of_the_wrong_size_is_dropped) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    /* Binding 1 is Target(Divided 2): against a 32x24 output it must be 16x12. */
    uint32_t prog = register_tint(&f, divided_target_slot(KILN_FORMAT_RGBA8, 2), TINT_WGSL);
    CHECK(prog);
    uint32_t ids[] = {make_texture(&f, KILN_FORMAT_RGBA8, 32, 24, NULL, true),
                      make_texture(&f, KILN_FORMAT_RGBA8, 16, 13, NULL, false)};
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, ids, 2, WHITE, sizeof WHITE), KILN_DISPATCH_TARGET_SIZE);
    CHECK(logged_drop(&f, KILN_DISPATCH_TARGET_SIZE));
    CHECK_STR_CONTAINS(last_log(&f), "program 1");
    CHECK_STR_CONTAINS(last_log(&f), "pass 0 (fs_tint), binding 1: texture 2 is 16x13; the Target resolves to 16x12");
    uint32_t right[] = {ids[0], make_texture(&f, KILN_FORMAT_RGBA8, 16, 12, NULL, false)};
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, right, 2, WHITE, sizeof WHITE), KILN_DISPATCH_OK);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

TEST(a_plain_texture_where_an_array_is_declared_is_dropped) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    static const char *const ARRAY_WGSL =
        "struct Tint { color: vec4<f32> }\n"
        "@group(0) @binding(0) var<uniform> tint: Tint;\n"
        "@group(1) @binding(0) var src: texture_2d_array<f32>;\n"
        "@group(1) @binding(1) var src_sampler: sampler;\n"
        "@fragment fn fs_tint(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {\n"
        "    return textureSample(src, src_sampler, uv, 0) * tint.color;\n"
        "}\n";
    kiln_slot_spec array = {.format = KILN_FORMAT_RGBA8, .shape = {.kind = KILN_SHAPE_TEXTURE_ARRAY}};
    uint32_t prog = register_tint(&f, array, ARRAY_WGSL);
    CHECK(prog);
    uint32_t ids[] = {make_texture(&f, KILN_FORMAT_RGBA8, 8, 8, NULL, true),
                      make_texture(&f, KILN_FORMAT_RGBA8, 8, 8, NULL, false)};
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, ids, 2, WHITE, sizeof WHITE), KILN_DISPATCH_WRONG_KIND);
    CHECK(logged_drop(&f, KILN_DISPATCH_WRONG_KIND));
    CHECK_STR_CONTAINS(last_log(&f), "program 1");
    CHECK_STR_CONTAINS(last_log(&f),
                       "pass 0 (fs_tint), binding 1: texture 2 is a plain texture; the binding takes a texture array");
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

TEST(a_sampled_texture_where_the_program_writes_is_dropped) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t prog = register_tint(&f, texture_slot(KILN_FORMAT_RGBA8), TINT_WGSL);
    uint32_t ids[] = {make_texture(&f, KILN_FORMAT_RGBA8, 8, 8, NULL, false),
                      make_texture(&f, KILN_FORMAT_RGBA8, 8, 8, NULL, false)};
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, ids, 2, WHITE, sizeof WHITE), KILN_DISPATCH_NOT_WRITABLE);
    CHECK(logged_drop(&f, KILN_DISPATCH_NOT_WRITABLE));
    CHECK_STR_CONTAINS(last_log(&f), "program 1");
    CHECK_STR_CONTAINS(last_log(&f), "pass 0 (fs_tint), binding 0: texture 1 is not Writable");
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

TEST(uniforms_shorter_than_a_window_are_dropped) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t prog = register_tint(&f, texture_slot(KILN_FORMAT_RGBA8), TINT_WGSL);
    uint32_t ids[] = {make_texture(&f, KILN_FORMAT_RGBA8, 8, 8, NULL, true),
                      make_texture(&f, KILN_FORMAT_RGBA8, 8, 8, NULL, false)};
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, ids, 2, WHITE, 12), KILN_DISPATCH_UNIFORMS_SHORT);
    CHECK(logged_drop(&f, KILN_DISPATCH_UNIFORMS_SHORT));
    CHECK_STR_CONTAINS(last_log(&f), "program 1");
    CHECK_STR_CONTAINS(last_log(&f), "pass 0 (fs_tint), uniform window: reaches byte 16");
    CHECK_STR_CONTAINS(last_log(&f), "the blob has 12 bytes");
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* A zero-length window still reaches its offset (the spec's formula with length 0): offset 64,
 * length 0 and an empty blob is dropped; a 64-byte blob is enough (#11's conformance finding). */
TEST(a_zero_length_window_still_reaches_its_offset) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    static const char *const FLAT_WGSL = "@fragment fn fs_flat() -> @location(0) vec4<f32> { return vec4<f32>(1.0); }\n";
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8)};
    kiln_pass_spec passes[] = {with_window(fragment_pass("fs_flat", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), 64, 0)};
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(FLAT_WGSL, bindings, passes);
    kiln_program_error err;
    uint32_t prog = kiln_programs_register(f.programs, &desc, &err);
    CHECK_MSG(prog, "%s", err.message);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, 8, 8, NULL, true);
    static const uint8_t blob[64] = {0};
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, &out, 1, NULL, 0), KILN_DISPATCH_UNIFORMS_SHORT);
    CHECK_STR_CONTAINS(last_log(&f), "pass 0 (fs_flat), uniform window: reaches byte 64 (offset 64, 1 iteration of "
                                     "stride 0, length 0); the blob has 0 bytes");
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, &out, 1, blob, sizeof blob), KILN_DISPATCH_OK);
    CHECK(run_frame(&f));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* A repeated window reaches offset + (count - 1) * stride + length. */
TEST(a_repeated_window_reaches_past_its_first_iteration) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    static const char *const FILL_WGSL =
        "struct Fill { color: vec4<f32> }\n"
        "@group(0) @binding(0) var<uniform> fill: Fill;\n"
        "@fragment fn fs_fill() -> @location(0) vec4<f32> { return fill.color; }\n";
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8)};
    kiln_pass_spec passes[] = {
        with_repeat(with_window(fragment_pass("fs_fill", to_binding(0), KILN_PROGRAM_BLEND_ALPHA), 8, 16), 3, 20)};
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(FILL_WGSL, bindings, passes);
    kiln_program_error err;
    uint32_t prog = kiln_programs_register(f.programs, &desc, &err);
    CHECK_MSG(prog, "%s", err.message);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, 8, 8, NULL, true);
    uint8_t blob[64] = {0};
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, &out, 1, blob, 63), KILN_DISPATCH_UNIFORMS_SHORT);
    CHECK_STR_CONTAINS(last_log(&f), "reaches byte 64");
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, &out, 1, blob, 64), KILN_DISPATCH_OK);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* #12 class 3: a frame records at most KILN_PROGRAMS_MAX_FRAME_PASSES graph passes; the dispatch
 * that would pass it is refused whole, before anything records, and the budget returns with the
 * next frame. Sixteen dispatches of one pass repeated 4096 times fill it exactly. */
TEST(a_dispatch_past_the_frame_pass_limit_is_dropped) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    static const char *const FILL_WGSL =
        "struct Fill { color: vec4<f32> }\n"
        "@group(0) @binding(0) var<uniform> fill: Fill;\n"
        "@fragment fn fs_fill() -> @location(0) vec4<f32> { return fill.color; }\n";
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8)};
    kiln_pass_spec passes[] = {
        with_repeat(with_window(fragment_pass("fs_fill", to_binding(0), KILN_PROGRAM_BLEND_ALPHA), 0, 16), 4096, 0)};
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(FILL_WGSL, bindings, passes);
    kiln_program_error err;
    uint32_t big = kiln_programs_register(f.programs, &desc, &err);
    CHECK_MSG(big, "%s", err.message);
    passes[0] = with_window(fragment_pass("fs_fill", to_binding(0), KILN_PROGRAM_BLEND_ALPHA), 0, 16);
    uint32_t one = kiln_programs_register(f.programs, &desc, &err);
    CHECK_MSG(one, "%s", err.message);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, 8, 8, NULL, true);
    int accepted = 0;
    for (int i = 0; i < 16; i++) accepted += kiln_programs_dispatch(f.programs, big, &out, 1, WHITE, sizeof WHITE) == KILN_DISPATCH_OK;
    CHECK_EQ_INT(accepted, 16);
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, one, &out, 1, WHITE, sizeof WHITE), KILN_DISPATCH_FRAME_PASS_LIMIT);
    CHECK(logged_drop(&f, KILN_DISPATCH_FRAME_PASS_LIMIT));
    CHECK_STR_CONTAINS(last_log(&f), "dropped dispatch of program 2 (frame_pass_limit): the dispatch records 1 passes and "
                                     "65536 are queued: a frame records at most 65536 (record the queued ones with a frame first)");
    /* The queued dispatches of a destroyed program record nothing (quickly), and the frame gives the
     * budget back. */
    CHECK(kiln_programs_destroy_program(f.programs, big));
    CHECK(run_frame(&f));
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, one, &out, 1, WHITE, sizeof WHITE), KILN_DISPATCH_OK);
    CHECK(run_frame(&f));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* #12 class 1: the frame's uniforms go into one ring buffer; a dispatch that would grow it past the
 * device's maxBufferSize is dropped as device_limit before anything is made (an invalid buffer used
 * to poison every later frame). A 64 KiB block repeated 4096 times stages 256 MiB per dispatch. */
TEST(a_dispatch_whose_uniforms_pass_the_largest_buffer_is_dropped) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t block = (uint32_t)f.gfx.gfx->limits.maxUniformBufferBindingSize;
    uint64_t max_buffer = f.gfx.gfx->limits.maxBufferSize;
    char wgsl[512];
    snprintf(wgsl, sizeof wgsl,
             "struct Big { v: array<vec4<f32>, %u> }\n"
             "@group(0) @binding(0) var<uniform> big: Big;\n"
             "@fragment fn fs_big() -> @location(0) vec4<f32> { return big.v[0]; }\n", block / 16);
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8)};
    kiln_pass_spec passes[] = {
        with_repeat(with_window(fragment_pass("fs_big", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), 0, block), 4096, 0)};
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(wgsl, bindings, passes);
    kiln_program_error err;
    uint32_t prog = kiln_programs_register(f.programs, &desc, &err);
    CHECK_MSG(prog, "%s", err.message);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, 8, 8, NULL, true);
    uint8_t *blob = calloc(1, block);
    CHECK(blob);
    uint64_t per_dispatch = 4096ull * block * 5; /* the ring holds five frames' worth */
    uint32_t fit = (uint32_t)(max_buffer / per_dispatch);
    uint32_t accepted = 0;
    for (uint32_t i = 0; i < fit; i++) accepted += kiln_programs_dispatch(f.programs, prog, &out, 1, blob, block) == KILN_DISPATCH_OK;
    kiln_dispatch_class over = kiln_programs_dispatch(f.programs, prog, &out, 1, blob, block);
    char message[512];
    snprintf(message, sizeof message, "%s", last_log(&f));
    free(blob);
    CHECK(kiln_programs_destroy_program(f.programs, prog));
    CHECK(run_frame(&f)); /* the destroyed program's dispatches record nothing */
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    CHECK(fit >= 1 && fit * 4096 < KILN_PROGRAMS_MAX_FRAME_PASSES);
    CHECK_EQ_INT(accepted, fit);
    CHECK_EQ_INT(over, KILN_DISPATCH_DEVICE_LIMIT);
    char want[256];
    snprintf(want, sizeof want, "(device_limit): the frame's uniforms would need a ring of %llu bytes, past the device's "
             "maxBufferSize (%llu)", (unsigned long long)(per_dispatch * (fit + 1)), (unsigned long long)max_buffer);
    CHECK_STR_CONTAINS(message, want);
}

TEST(one_texture_as_input_and_output_of_a_pass_is_dropped) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t prog = register_tint(&f, texture_slot(KILN_FORMAT_RGBA8), TINT_WGSL);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, 8, 8, NULL, true);
    uint32_t ids[] = {out, out};
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, ids, 2, WHITE, sizeof WHITE), KILN_DISPATCH_INPUT_IS_OUTPUT);
    CHECK(logged_drop(&f, KILN_DISPATCH_INPUT_IS_OUTPUT));
    CHECK_STR_CONTAINS(last_log(&f), "program 1");
    CHECK_STR_CONTAINS(last_log(&f),
                       "pass 0 (fs_tint), binding 1: texture 1 is bound as input 0 and as the output (binding 0)");
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* An unknown texture and short uniforms together: the earlier class in program.h wins. */
TEST(checks_run_in_the_documented_order) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t prog = register_tint(&f, texture_slot(KILN_FORMAT_RGBA8), TINT_WGSL);
    uint32_t ids[] = {make_texture(&f, KILN_FORMAT_R8, 8, 8, NULL, false), 999};
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, ids, 2, WHITE, 4), KILN_DISPATCH_UNKNOWN_TEXTURE);
    uint32_t known[] = {ids[0], make_texture(&f, KILN_FORMAT_RGBA8, 8, 8, NULL, false)};
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, known, 2, WHITE, 4), KILN_DISPATCH_FORMAT_MISMATCH);
    CHECK_STR_CONTAINS(last_log(&f), "binding 0");
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* The output holds green from a first dispatch; a second, dropped one (it would paint red) leaves it
 * green, and so does a frame that records nothing else. */
TEST(a_dropped_dispatch_records_nothing) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t prog = register_tint(&f, texture_slot(KILN_FORMAT_RGBA8), TINT_WGSL);
    uint8_t white[4 * 4 * 4];
    memset(white, 255, sizeof white);
    uint32_t ids[] = {make_texture(&f, KILN_FORMAT_RGBA8, 4, 4, NULL, true),
                      make_texture(&f, KILN_FORMAT_RGBA8, 4, 4, white, false)};
    const float green[4] = {0, 1, 0, 1}, red[8] = {1, 0, 0, 1};
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, ids, 2, green, sizeof green), KILN_DISPATCH_OK);
    CHECK(run_frame(&f));
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, ids, 2, red, 8), KILN_DISPATCH_UNIFORMS_SHORT);
    CHECK(run_frame(&f));
    float texels[4 * 4 * 4];
    CHECK(read_texels(&f, ids[0], texels));
    for (int i = 0; i < 16; i++) {
        CHECK_NEAR(texels[4 * i + 0], 0.0, 1e-6);
        CHECK_NEAR(texels[4 * i + 1], 1.0, 1e-6);
    }
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* #11's conformance finding: a texture destroyed after its dispatch was accepted fails the
 * dispatch at the frame, and none of its passes records: pass 0 (a fill that needs no input)
 * used to write the output before pass 1, reading the destroyed input, failed. The output keeps
 * the green the previous dispatch left. */
TEST(a_dispatch_whose_input_vanished_before_the_frame_records_none_of_its_passes) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    static const char *const TWO_WGSL =
        "struct Fill { color: vec4<f32> }\n"
        "@group(0) @binding(0) var<uniform> fill: Fill;\n"
        "@group(1) @binding(0) var src: texture_2d<f32>;\n"
        "@group(1) @binding(1) var src_sampler: sampler;\n"
        "@fragment fn fs_fill() -> @location(0) vec4<f32> { return fill.color; }\n"
        "@fragment fn fs_copy(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {\n"
        "    return textureSample(src, src_sampler, uv);\n"
        "}\n";
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8), texture_slot(KILN_FORMAT_RGBA8)};
    kiln_pass_spec passes[] = {
        with_window(fragment_pass("fs_fill", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), 0, 16),
        with_input(fragment_pass("fs_copy", to_binding(0), KILN_PROGRAM_BLEND_ALPHA), from_binding(1)),
    };
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(TWO_WGSL, bindings, passes);
    kiln_program_error perr;
    uint32_t prog = kiln_programs_register(f.programs, &desc, &perr);
    CHECK_MSG(prog, "%s", perr.message);
    uint8_t clear[4 * 4 * 4] = {0};
    uint32_t ids[] = {make_texture(&f, KILN_FORMAT_RGBA8, 4, 4, NULL, true),
                      make_texture(&f, KILN_FORMAT_RGBA8, 4, 4, clear, false)};
    const float green[4] = {0, 1, 0, 1}, red[4] = {1, 0, 0, 1};
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, ids, 2, green, sizeof green), KILN_DISPATCH_OK);
    CHECK(run_frame(&f));
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, ids, 2, red, sizeof red), KILN_DISPATCH_OK);
    kiln_error err = {0};
    CHECK(kiln_texture_registry_remove(f.reg, ids[1], &err));
    bool frame_ok = kiln_programs_frame(f.programs, &err);
    float texels[4 * 4 * 4];
    CHECK(read_texels(&f, ids[0], texels));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    CHECK(!frame_ok);
    CHECK_STR_CONTAINS(err.message, "unknown texture id 2");
    for (int i = 0; i < 16; i++) {
        CHECK_MSG(texels[4 * i + 0] < 1e-6 && texels[4 * i + 1] > 1 - 1e-6, "texel %d: %g %g (pass 0 recorded)", i,
                  (double)texels[4 * i + 0], (double)texels[4 * i + 1]);
    }
}

/* Destroying a program drops what it had queued: the frame records nothing for it and says so. */
TEST(a_dispatch_of_a_program_destroyed_before_the_frame_records_nothing) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t prog = register_tint(&f, texture_slot(KILN_FORMAT_RGBA8), TINT_WGSL);
    uint8_t white[4 * 4 * 4];
    memset(white, 255, sizeof white);
    uint32_t ids[] = {make_texture(&f, KILN_FORMAT_RGBA8, 4, 4, NULL, true),
                      make_texture(&f, KILN_FORMAT_RGBA8, 4, 4, white, false)};
    CHECK(kiln_texture_registry_gpu_view(f.reg, ids[0], NULL)); /* realized: reads come from the GPU */
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, ids, 2, WHITE, sizeof WHITE), KILN_DISPATCH_OK);
    CHECK(kiln_programs_destroy_program(f.programs, prog));
    CHECK(run_frame(&f));
    CHECK_STR_CONTAINS(last_log(&f), "program 1: the program was destroyed before it recorded");
    float texels[4 * 4 * 4];
    CHECK(read_texels(&f, ids[0], texels));
    for (int i = 0; i < 4 * 4 * 4; i++) CHECK_NEAR(texels[i], 0.0, 1e-6);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

TEST_MAIN(T(an_accepted_dispatch_is_ok_and_logs_nothing), T(an_unknown_program_is_dropped),
          T(a_wrong_binding_count_is_dropped), T(an_unknown_texture_is_dropped), T(a_format_mismatch_is_dropped),
          T(a_target_of_the_wrong_size_is_dropped), T(a_plain_texture_where_an_array_is_declared_is_dropped),
          T(a_sampled_texture_where_the_program_writes_is_dropped), T(uniforms_shorter_than_a_window_are_dropped),
          T(a_zero_length_window_still_reaches_its_offset), T(a_repeated_window_reaches_past_its_first_iteration), T(a_dispatch_past_the_frame_pass_limit_is_dropped), T(a_dispatch_whose_uniforms_pass_the_largest_buffer_is_dropped), T(one_texture_as_input_and_output_of_a_pass_is_dropped),
          T(checks_run_in_the_documented_order), T(a_dropped_dispatch_records_nothing), T(a_dispatch_whose_input_vanished_before_the_frame_records_none_of_its_passes),
          T(a_dispatch_of_a_program_destroyed_before_the_frame_records_nothing))
