/* GPU error attribution: an error Dawn raises inside a dispatch's setup or one of its passes is
 * caught by that phase's scopes, never reaches the uncaptured-error count, and is reported naming
 * the program, the error's class, the phase or the pass (index, entry point, iterations), the
 * textures the dispatch supplied and the slots the pass resolved. A setup error drops the pass
 * recording (the output keeps its prior content); a pass error stops that dispatch's remaining
 * passes while later dispatches still record. No public input can make Dawn fail there (dispatch
 * checks refuse them all first), so the errors come from the runtime's test-only fault injection
 * (program_internal.h), which makes one real call Dawn refuses in the phase named. */
#include <string.h>

#include "program/program_internal.h"
#include "program_test_util.h"

#define W 8
#define H 4

/* fs_fill: the uniform colour. fs_step: input 0 plus 0.1 in red. */
static const char *const SCOPES_WGSL =
    "struct Fill { color: vec4<f32> }\n"
    "@group(0) @binding(0) var<uniform> fill: Fill;\n"
    "@group(1) @binding(0) var src: texture_2d<f32>;\n"
    "@fragment fn fs_fill() -> @location(0) vec4<f32> { return fill.color; }\n"
    "@fragment fn fs_step(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {\n"
    "    return textureLoad(src, vec2<i32>(position.xy), 0) + vec4<f32>(0.1, 0.0, 0.0, 0.0);\n"
    "}\n";

/* "scoped": fs_fill into transient 0, fs_step into transient 1, fs_step onto the output. */
static uint32_t register_scoped(program_fixture *f) {
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA16_FLOAT)};
    kiln_transient_spec transients[] = {full_transient(KILN_FORMAT_RGBA16_FLOAT, KILN_SAMPLES_ONE),
                                        full_transient(KILN_FORMAT_RGBA16_FLOAT, KILN_SAMPLES_ONE)};
    kiln_pass_spec passes[] = {
        with_window(fragment_pass("fs_fill", to_transient(0), KILN_PROGRAM_BLEND_REPLACE), 0, 16),
        with_input(fragment_pass("fs_step", to_transient(1), KILN_PROGRAM_BLEND_REPLACE), from_pass(0)),
        with_input(fragment_pass("fs_step", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), from_pass(1)),
    };
    kiln_program_desc desc = PROGRAM_DESC(SCOPES_WGSL, bindings, transients, passes);
    desc.label = "scoped";
    kiln_program_error err;
    uint32_t id = kiln_programs_register(f->programs, &desc, &err);
    if (!id) fprintf(stderr, "register: %s\n", err.message);
    return id;
}

static bool dispatch_seed(program_fixture *f, uint32_t prog, uint32_t out, float red) {
    const float seed[4] = {red, 0, 0, 1};
    return kiln_programs_dispatch(f->programs, prog, &out, 1, seed, sizeof seed) == KILN_DISPATCH_OK;
}

/* The red channel of texel 0 (every texel is the same). */
static float red_of(program_fixture *f, uint32_t id) {
    float texels[W * H * 4];
    return read_texels(f, id, texels) ? texels[0] : -1.0f;
}

/* The text after `prefix` in `message`, or NULL when message does not start with it. */
static const char *after(const char *message, const char *prefix) {
    return strncmp(message, prefix, strlen(prefix)) == 0 ? message + strlen(prefix) : NULL;
}

TEST(a_setup_error_is_attributed_and_drops_the_pass_recording) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t prog = register_scoped(&f);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA16_FLOAT, W, H, NULL, true);
    CHECK(prog && out);
    CHECK(dispatch_seed(&f, prog, out, 0.1f) && run_frame(&f));
    CHECK_NEAR(red_of(&f, out), 0.3f, 2e-3f);

    f.programs->fault = (program_fault){.phase = PROGRAM_FAULT_SETUP};
    CHECK(dispatch_seed(&f, prog, out, 0.5f));
    kiln_error err = {0};
    CHECK(!kiln_programs_frame(f.programs, &err));
    CHECK_EQ_INT(err.code, KILN_ERR_GPU);
    const char *dawn = after(err.message, "programs: validation error in phase setup (the uniforms and transients "
                                          "of the dispatches of program 1 \"scoped\"): ");
    CHECK_MSG(dawn && *dawn, "message: %s", err.message);
    CHECK_STR_CONTAINS(dawn, "exceeds the texture's mip level count");
    CHECK_MSG(!strchr(err.message, '\n'), "the error keeps only Dawn's first line: %s", err.message);
    CHECK_STR_CONTAINS(last_log(&f), "programs: validation error in phase setup (the dispatches of program 1 \"scoped\")");
    CHECK_EQ_INT(kiln_log_at(kiln_programs_log(f.programs), kiln_log_count(kiln_programs_log(f.programs)) - 1)->level,
                 KILN_LOG_ERROR);
    CHECK_NEAR(red_of(&f, out), 0.3f, 2e-3f); /* no pass recorded: the prior content */

    /* The fault is spent: the next dispatch records whole. */
    CHECK_EQ_INT(f.programs->fault.phase, PROGRAM_FAULT_NONE);
    CHECK(dispatch_seed(&f, prog, out, 0.5f) && run_frame(&f));
    CHECK_NEAR(red_of(&f, out), 0.7f, 2e-3f);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f); /* caught by the scope, not uncaptured */
}

/* The second frame's passes find every bind group cached, so their deferred scopes push nothing
 * until the injected call: the set it pushes then still catches the error and names the pass. */
TEST(a_pass_error_names_program_pass_bindings_and_slots_and_stops_that_dispatch) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t prog = register_scoped(&f);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA16_FLOAT, W, H, NULL, true);
    uint32_t other = make_texture(&f, KILN_FORMAT_RGBA16_FLOAT, W, H, NULL, true);
    CHECK(prog && out && other);
    CHECK(dispatch_seed(&f, prog, out, 0.1f) && dispatch_seed(&f, prog, other, 0.1f) && run_frame(&f));
    CHECK_NEAR(red_of(&f, out), 0.3f, 2e-3f);
    CHECK_NEAR(red_of(&f, other), 0.3f, 2e-3f);

    f.programs->fault = (program_fault){.phase = PROGRAM_FAULT_PASS, .program_id = prog, .pass = 1};
    CHECK(dispatch_seed(&f, prog, out, 0.5f) && dispatch_seed(&f, prog, other, 0.2f));
    kiln_error err = {0};
    CHECK(!kiln_programs_frame(f.programs, &err));
    CHECK_EQ_INT(err.code, KILN_ERR_GPU);
    const char *dawn = after(err.message, "program 1 \"scoped\": pass 1 (fs_step): validation error in its bind "
                                          "groups and commands (1 iteration): ");
    CHECK_MSG(dawn && *dawn, "message: %s", err.message);
    CHECK_STR_CONTAINS(dawn, "exceeds the texture's mip level count");
    char tail[128];
    snprintf(tail, sizeof tail, "; bindings [%u]; output transient 1, inputs [transient 0]", out);
    size_t n = strlen(err.message), t = strlen(tail);
    CHECK_MSG(n > t && strcmp(err.message + n - t, tail) == 0, "message: %s", err.message);
    CHECK_STR_CONTAINS(last_log(&f), "program 1 \"scoped\": pass 1 (fs_step): validation error");

    /* Pass 2 never ran for the failed dispatch; the one after it recorded whole. */
    CHECK_NEAR(red_of(&f, out), 0.3f, 2e-3f);
    CHECK_NEAR(red_of(&f, other), 0.4f, 2e-3f);
    CHECK(kiln_programs_write_failure(f.programs, out) && !kiln_programs_write_failure(f.programs, other));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* A fault naming a pass the dispatch never reaches, or another program, fires nothing. */
TEST(a_fault_for_another_program_or_pass_fires_nothing) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t prog = register_scoped(&f);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA16_FLOAT, W, H, NULL, true);
    CHECK(prog && out);
    f.programs->fault = (program_fault){.phase = PROGRAM_FAULT_PASS, .program_id = prog + 1, .pass = 1};
    CHECK(dispatch_seed(&f, prog, out, 0.1f) && run_frame(&f));
    f.programs->fault = (program_fault){.phase = PROGRAM_FAULT_PASS, .program_id = prog, .pass = 3};
    CHECK(dispatch_seed(&f, prog, out, 0.2f) && run_frame(&f));
    CHECK_NEAR(red_of(&f, out), 0.4f, 2e-3f);
    CHECK_EQ_INT(f.programs->fault.phase, PROGRAM_FAULT_PASS); /* still armed: never reached */
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

TEST_MAIN(T(a_setup_error_is_attributed_and_drops_the_pass_recording),
          T(a_pass_error_names_program_pass_bindings_and_slots_and_stops_that_dispatch),
          T(a_fault_for_another_program_or_pass_fires_nothing))
