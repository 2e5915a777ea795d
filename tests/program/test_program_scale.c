/* Scale: programs of thousands of passes and many programs at once. Identical bind group layouts,
 * pipeline layouts and pipelines are shared across passes and programs (the runtime's object
 * cache), and the resource pools grow, so neither the pass count nor the number of live programs
 * meets a fixed cap. Also the label every register and dispatch message names.
 *
 * The counting program: pass 0 writes 1 into a float transient, every later pass loads the pass
 * before it and adds 1, alternating between two transients, and the last writes the output, so
 * the pixel read back is the number of passes that ran. Outputs are 1x1 to keep 4,096 render
 * passes fast on a software rasteriser. */
#include <stdlib.h>

#include "program_test_util.h"

static const char *const COUNT_WGSL =
    "@group(1) @binding(0) var previous: texture_2d<f32>;\n"
    "@fragment fn fs_one() -> @location(0) vec4<f32> { return vec4<f32>(1.0, 0.0, 0.0, 1.0); }\n"
    "@fragment fn fs_inc(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {\n"
    "    return textureLoad(previous, vec2<i32>(position.xy), 0) + vec4<f32>(1.0, 0.0, 0.0, 0.0);\n"
    "}\n";

/* The counting program of `count` passes (at least 2); passes freed by the caller. */
static kiln_program_desc counting_desc(uint32_t count, kiln_slot_spec *binding, kiln_transient_spec *transients,
                                       kiln_pass_spec **passes) {
    *binding = target_slot(KILN_FORMAT_R32_FLOAT);
    transients[0] = transients[1] = full_transient(KILN_FORMAT_R32_FLOAT, KILN_SAMPLES_ONE);
    kiln_pass_spec *p = calloc(count, sizeof *p);
    p[0] = fragment_pass("fs_one", to_transient(0), KILN_PROGRAM_BLEND_REPLACE);
    for (uint32_t i = 1; i < count; i++) {
        kiln_output_slot out = i + 1 == count ? to_binding(0) : to_transient(i % 2);
        p[i] = with_input(fragment_pass("fs_inc", out, KILN_PROGRAM_BLEND_REPLACE), from_pass(i - 1));
    }
    *passes = p;
    return (kiln_program_desc){.wgsl = COUNT_WGSL, .binding_count = 1, .bindings = binding, .transient_count = 2,
                               .transients = transients, .pass_count = count, .passes = p};
}

static uint32_t register_counting(program_fixture *f, uint32_t count) {
    kiln_slot_spec binding;
    kiln_transient_spec transients[2];
    kiln_pass_spec *passes;
    kiln_program_desc desc = counting_desc(count, &binding, transients, &passes);
    kiln_program_error err;
    uint32_t id = kiln_programs_register(f->programs, &desc, &err);
    if (!id) fprintf(stderr, "register: %s: %s\n", kiln_program_class_name(err.cls), err.message);
    free(passes);
    return id;
}

/* Dispatches the program onto a fresh 1x1 output, runs the frame and returns the pixel (-1 on a
 * failure); the output is destroyed after. */
static float dispatch_and_read(program_fixture *f, uint32_t prog) {
    uint32_t out = make_texture(f, KILN_FORMAT_R32_FLOAT, 1, 1, NULL, true);
    float got = -1;
    if (out && kiln_programs_dispatch(f->programs, prog, &out, 1, NULL, 0) == KILN_DISPATCH_OK && run_frame(f) &&
        !read_texels(f, out, &got))
        got = -1;
    kiln_texture_registry_remove(f->reg, out, NULL);
    return got;
}

TEST(a_4096_pass_program_registers_and_every_pass_runs) {
    program_fixture f;
    CHECK_MSG(program_fixture_open_growing(&f), "no GPU device");
    uint32_t prog = register_counting(&f, 4096);
    CHECK(prog);
    CHECK_NEAR(dispatch_and_read(&f, prog), 4096.0, 0.0);
    /* Two shapes of pass (a source and an incrementer), so two of each shared object. */
    kiln_live_counts live = kiln_resources_live_counts(f.gfx.res);
    CHECK_EQ_INT(live.render_pipelines, 2);
    CHECK_EQ_INT(live.pipeline_layouts, 2);
    CHECK_EQ_INT(live.bind_group_layouts, 2);
    CHECK(kiln_programs_destroy_program(f.programs, prog));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* Ten programs of 1,000 passes: all registered before any dispatches, each dispatched and read,
 * then all destroyed, leaving no layout, pipeline or bind group of theirs alive. */
TEST(ten_1000_pass_programs_coexist) {
    program_fixture f;
    CHECK_MSG(program_fixture_open_growing(&f), "no GPU device");
    kiln_live_counts before = kiln_resources_live_counts(f.gfx.res);
    uint32_t ids[10];
    for (int i = 0; i < 10; i++) {
        ids[i] = register_counting(&f, 1000);
        CHECK(ids[i]);
    }
    for (int i = 0; i < 10; i++) CHECK_NEAR(dispatch_and_read(&f, ids[i]), 1000.0, 0.0);
    for (int i = 0; i < 10; i++) CHECK(kiln_programs_destroy_program(f.programs, ids[i]));
    kiln_live_counts after = kiln_resources_live_counts(f.gfx.res);
    CHECK_EQ_INT(after.bind_group_layouts, before.bind_group_layouts);
    CHECK_EQ_INT(after.pipeline_layouts, before.pipeline_layouts);
    CHECK_EQ_INT(after.render_pipelines, before.render_pipelines);
    CHECK_EQ_INT(after.bind_groups, before.bind_groups);
    CHECK_EQ_INT(after.shaders, before.shaders);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* Two passes of the same shape hold one bind group layout per group, not one each. */
TEST(two_passes_with_the_same_layout_share_it) {
    program_fixture f;
    CHECK_MSG(program_fixture_open_growing(&f), "no GPU device");
    kiln_live_counts before = kiln_resources_live_counts(f.gfx.res);
    uint32_t three = register_counting(&f, 3); /* fs_one, then fs_inc twice */
    CHECK(three);
    kiln_live_counts live = kiln_resources_live_counts(f.gfx.res);
    /* fs_one's uniforms layout is fs_inc's too; fs_inc adds its inputs layout, once for both. */
    CHECK_EQ_INT(live.bind_group_layouts - before.bind_group_layouts, 2);
    CHECK_EQ_INT(live.pipeline_layouts - before.pipeline_layouts, 2);
    CHECK_EQ_INT(live.render_pipelines - before.render_pipelines, 2);
    CHECK(kiln_programs_destroy_program(f.programs, three));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* Layouts are shared across programs: destroying one program leaves the layouts the other still
 * holds, which it dispatches with; destroying the second frees them. */
TEST(destroying_a_program_leaves_a_shared_layout_another_holds) {
    program_fixture f;
    CHECK_MSG(program_fixture_open_growing(&f), "no GPU device");
    kiln_live_counts before = kiln_resources_live_counts(f.gfx.res);
    uint32_t a = register_counting(&f, 4), b = register_counting(&f, 6);
    CHECK(a && b);
    kiln_live_counts both = kiln_resources_live_counts(f.gfx.res);
    CHECK_EQ_INT(both.bind_group_layouts - before.bind_group_layouts, 2);
    CHECK_EQ_INT(both.pipeline_layouts - before.pipeline_layouts, 2);
    CHECK(kiln_programs_destroy_program(f.programs, a));
    kiln_live_counts one = kiln_resources_live_counts(f.gfx.res);
    CHECK_EQ_INT(one.bind_group_layouts, both.bind_group_layouts);
    CHECK_EQ_INT(one.pipeline_layouts, both.pipeline_layouts);
    CHECK_NEAR(dispatch_and_read(&f, b), 6.0, 0.0);
    CHECK(kiln_programs_destroy_program(f.programs, b));
    kiln_live_counts none = kiln_resources_live_counts(f.gfx.res);
    CHECK_EQ_INT(none.bind_group_layouts, before.bind_group_layouts);
    CHECK_EQ_INT(none.pipeline_layouts, before.pipeline_layouts);
    CHECK_EQ_INT(none.render_pipelines, before.render_pipelines);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* A labelled program's register refusal and dispatch drop both name it. */
TEST(register_and_dispatch_messages_name_the_label) {
    program_fixture f;
    CHECK_MSG(program_fixture_open_growing(&f), "no GPU device");
    kiln_slot_spec binding;
    kiln_transient_spec transients[2];
    kiln_pass_spec *passes;
    kiln_program_desc desc = counting_desc(2, &binding, transients, &passes);
    desc.label = "blur";
    passes[1].entry_point = "fs_missing";
    kiln_program_error err;
    CHECK_EQ_INT(kiln_programs_register(f.programs, &desc, &err), 0);
    CHECK_EQ_INT(err.cls, KILN_PROGRAM_MISSING_ENTRY_POINT);
    CHECK_STR_CONTAINS(err.message, "program \"blur\": pass 1: entry point 'fs_missing' is not");

    passes[1].entry_point = "fs_inc";
    uint32_t prog = kiln_programs_register(f.programs, &desc, &err);
    free(passes);
    CHECK(prog);
    uint32_t two[2] = {0, 0};
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, two, 2, NULL, 0), KILN_DISPATCH_BINDING_COUNT);
    char want[128];
    snprintf(want, sizeof want, "dropped dispatch of program %u \"blur\" (binding_count): ", prog);
    CHECK_STR_CONTAINS(last_log(&f), want);
    CHECK(kiln_programs_destroy_program(f.programs, prog));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

TEST_MAIN(T(a_4096_pass_program_registers_and_every_pass_runs), T(ten_1000_pass_programs_coexist),
          T(two_passes_with_the_same_layout_share_it), T(destroying_a_program_leaves_a_shared_layout_another_holds),
          T(register_and_dispatch_messages_name_the_label))
