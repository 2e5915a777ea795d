/* Register: ids are dense from 1 and never reused; a rejected register (WGSL Dawn or the scanner
 * refuses, a pipeline Dawn refuses, a class the validator finds, a stage this build does not run)
 * consumes no id and leaves no GPU object alive; destroying a program releases its objects. */
#include "program_test_util.h"
#include <kiln/shader/library.h>

/* A fill pass: one colour from the uniform block. */
static const char *const FILL_WGSL =
    "struct Fill { color: vec4<f32> }\n"
    "@group(0) @binding(0) var<uniform> fill: Fill;\n"
    "@fragment fn fs_fill() -> @location(0) vec4<f32> {\n"
    "    return fill.color;\n"
    "}\n";

static kiln_slot_spec fill_bindings[] = {{.format = KILN_FORMAT_RGBA8, .shape = {.kind = KILN_SHAPE_TARGET}}};

static uint32_t register_fill(program_fixture *f, kiln_program_error *err) {
    kiln_pass_spec passes[] = {with_window(fragment_pass("fs_fill", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), 0, 16)};
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(FILL_WGSL, fill_bindings, passes);
    return kiln_programs_register(f->programs, &desc, err);
}

/* The error is on line 4, column 12, inside a function body: Dawn finds it, not the scanner. */
static const char *const UNRESOLVED_WGSL =
    "struct Fill { color: vec4<f32> }\n"
    "@group(0) @binding(0) var<uniform> fill: Fill;\n"
    "@fragment fn fs_fill() -> @location(0) vec4<f32> {\n"
    "    return undefined_thing;\n"
    "}\n";

/* uv arrives flat while kiln's vertex stage interpolates it: the scanner and the validator accept
 * the module, Dawn refuses the pipeline. */
static const char *const FLAT_UV_WGSL =
    "@fragment fn fs_flat(@location(0) @interpolate(flat) uv: vec2<f32>) -> @location(0) vec4<f32> {\n"
    "    return vec4<f32>(uv, 0.0, 1.0);\n"
    "}\n";

TEST(ids_are_dense_from_one) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    kiln_program_error err;
    CHECK_EQ_INT(register_fill(&f, &err), 1);
    CHECK_EQ_INT(register_fill(&f, &err), 2);
    CHECK_EQ_INT(register_fill(&f, &err), 3);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

TEST(invalid_wgsl_is_refused_with_its_position_and_consumes_no_id) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    kiln_program_error err;
    CHECK_EQ_INT(register_fill(&f, &err), 1);
    kiln_pass_spec passes[] = {with_window(fragment_pass("fs_fill", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), 0, 16)};
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(UNRESOLVED_WGSL, fill_bindings, passes);
    CHECK_EQ_INT(kiln_programs_register(f.programs, &desc, &err), 0);
    CHECK_EQ_INT(err.cls, KILN_PROGRAM_INVALID_WGSL);
    CHECK_STR_CONTAINS(err.message, "program.wgsl:4:12");
    CHECK_STR_CONTAINS(err.message, "undefined_thing");
    CHECK_EQ_INT(register_fill(&f, &err), 2);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

TEST(wgsl_the_scanner_refuses_is_invalid_wgsl) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    kiln_program_error err;
    kiln_pass_spec passes[] = {fragment_pass("fs_fill", to_binding(0), KILN_PROGRAM_BLEND_REPLACE)};
    kiln_program_desc desc = PROGRAM_DESC_PLAIN("struct Broken {\n  a: f32,\n  b: \n}\n", fill_bindings, passes);
    CHECK_EQ_INT(kiln_programs_register(f.programs, &desc, &err), 0);
    CHECK_EQ_INT(err.cls, KILN_PROGRAM_INVALID_WGSL);
    CHECK_STR_CONTAINS(err.message, "program.wgsl:4:");
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* #12 class 3: a source past the WGSL size limit is refused before it is scanned (a 50 MB one took
 * 39 s and 3.2 GB), and takes no id. The limit itself is accepted as far as size goes. */
TEST(wgsl_past_the_source_limit_is_refused_before_it_is_scanned) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    size_t head = strlen(FILL_WGSL);
    char *big = malloc(KILN_WGSL_MAX_FILE_BYTES + 2);
    CHECK(big);
    memcpy(big, FILL_WGSL, head);
    memset(big + head, ' ', KILN_WGSL_MAX_FILE_BYTES + 1 - head); /* one byte over, all blank */
    big[KILN_WGSL_MAX_FILE_BYTES + 1] = '\0';
    kiln_pass_spec passes[] = {with_window(fragment_pass("fs_fill", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), 0, 16)};
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(big, fill_bindings, passes);
    kiln_program_error err;
    uint32_t refused = kiln_programs_register(f.programs, &desc, &err);
    kiln_program_error refused_err = err;
    big[KILN_WGSL_MAX_FILE_BYTES] = '\0'; /* exactly at the limit */
    uint32_t at_limit = kiln_programs_register(f.programs, &desc, &err);
    free(big);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    CHECK_EQ_INT(refused, 0);
    CHECK_EQ_INT(refused_err.cls, KILN_PROGRAM_INVALID_WGSL);
    CHECK_STR_CONTAINS(refused_err.message, "the WGSL source is over the 4194304-byte limit for a WGSL source");
    CHECK_MSG(at_limit == 1, "%s", err.message);
}

/* A pass whose uniform block is `vec4s` vec4s (16 bytes each). */
static char *block_wgsl(uint32_t vec4s) {
    char *wgsl = malloc(512);
    if (wgsl)
        snprintf(wgsl, 512,
                 "struct Big { v: array<vec4<f32>, %u> }\n"
                 "@group(0) @binding(0) var<uniform> big: Big;\n"
                 "@fragment fn fs_big() -> @location(0) vec4<f32> { return big.v[0]; }\n", vec4s);
    return wgsl;
}

/* #12 class 1: what the device cannot bind is refused at register as device_limit, naming the
 * limit (a 64 KiB + 16 block used to register and then fail every frame), and the runtime goes on
 * as if nothing happened: the next register takes id 1 and draws. */
TEST(a_program_past_a_device_limit_is_refused_as_device_limit) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t limit = (uint32_t)f.gfx.gfx->limits.maxUniformBufferBindingSize;
    char *over = block_wgsl(limit / 16 + 1), *at = block_wgsl(limit / 16);
    CHECK(over && at);
    kiln_program_error block_err, ring_err, err;
    kiln_pass_spec one[] = {with_window(fragment_pass("fs_big", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), 0, limit + 16)};
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(over, fill_bindings, one);
    uint32_t refused_block = kiln_programs_register(f.programs, &desc, &block_err);
    /* Four passes of a 64 KiB block, each repeated 4096 times: 1 GiB of uniforms per dispatch, a
     * ring of five of them past a 4 GiB maxBufferSize (lavapipe's; the check reads the device's). */
    kiln_pass_spec pass = with_repeat(with_window(fragment_pass("fs_big", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), 0, limit), 4096, 0);
    kiln_pass_spec four[] = {pass, pass, pass, pass};
    desc = PROGRAM_DESC_PLAIN(at, fill_bindings, four);
    uint64_t ring = 4ull * 4096 * limit * 5, max_buffer = f.gfx.gfx->limits.maxBufferSize;
    uint32_t refused_ring = ring > max_buffer ? kiln_programs_register(f.programs, &desc, &ring_err) : 0;
    uint32_t good = register_fill(&f, &err);
    free(over);
    free(at);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    CHECK_EQ_INT(refused_block, 0);
    CHECK_EQ_INT(block_err.cls, KILN_PROGRAM_DEVICE_LIMIT);
    CHECK_STR_CONTAINS(kiln_program_class_name(block_err.cls), "device_limit");
    char want[256];
    snprintf(want, sizeof want, "pass 0 (fs_big): its uniform block of %u bytes is past the device's "
             "maxUniformBufferBindingSize (%u)", limit + 16, limit);
    CHECK_STR_CONTAINS(block_err.message, want);
    CHECK_MSG(ring > max_buffer, "this device's maxBufferSize holds the ring: the case needs more passes");
    CHECK_EQ_INT(refused_ring, 0);
    CHECK_EQ_INT(ring_err.cls, KILN_PROGRAM_DEVICE_LIMIT);
    CHECK_STR_CONTAINS(ring_err.message, "one dispatch stages 1073741824 uniform bytes, and the ring of 5 dispatches' worth");
    CHECK_MSG(good == 1, "%s", err.message);
}

TEST(pipeline_dawn_refuses_is_pipeline_failed_naming_the_pass_and_consumes_no_id) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    kiln_program_error err;
    CHECK_EQ_INT(register_fill(&f, &err), 1);
    kiln_pass_spec passes[] = {fragment_pass("fs_flat", to_binding(0), KILN_PROGRAM_BLEND_REPLACE)};
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(FLAT_UV_WGSL, fill_bindings, passes);
    CHECK_EQ_INT(kiln_programs_register(f.programs, &desc, &err), 0);
    CHECK_EQ_INT(err.cls, KILN_PROGRAM_PIPELINE_FAILED);
    CHECK_MSG(strncmp(err.message, "pass 0 (fs_flat): ", 18) == 0, "%s", err.message);
    CHECK_STR_CONTAINS(err.message, "nterpolation"); /* Dawn's own words follow */
    CHECK_EQ_INT(register_fill(&f, &err), 2);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

TEST(rejected_registers_leave_no_gpu_object_alive) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    kiln_live_counts before = kiln_resources_live_counts(f.gfx.res);
    kiln_program_error err;
    kiln_pass_spec fill[] = {with_window(fragment_pass("fs_fill", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), 0, 16)};
    kiln_pass_spec flat[] = {fragment_pass("fs_flat", to_binding(0), KILN_PROGRAM_BLEND_REPLACE)};
    kiln_pass_spec short_window[] = {with_window(fragment_pass("fs_fill", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), 0, 8)};
    kiln_program_desc descs[] = {
        PROGRAM_DESC_PLAIN(UNRESOLVED_WGSL, fill_bindings, fill),
        PROGRAM_DESC_PLAIN(FLAT_UV_WGSL, fill_bindings, flat),
        PROGRAM_DESC_PLAIN(FILL_WGSL, fill_bindings, short_window),
    };
    for (uint32_t i = 0; i < COUNT_OF(descs); i++) CHECK_EQ_INT(kiln_programs_register(f.programs, &descs[i], &err), 0);
    CHECK_EQ_INT(err.cls, KILN_PROGRAM_UNIFORM_WINDOW_SHORT);
    kiln_live_counts after = kiln_resources_live_counts(f.gfx.res);
    CHECK_EQ_INT(kiln_live_counts_total(&after), kiln_live_counts_total(&before));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

TEST(destroy_program_releases_its_gpu_objects) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    kiln_live_counts before = kiln_resources_live_counts(f.gfx.res);
    kiln_program_error err;
    uint32_t id = register_fill(&f, &err);
    CHECK_MSG(id, "%s", err.message);
    kiln_live_counts registered = kiln_resources_live_counts(f.gfx.res);
    CHECK_EQ_INT(registered.render_pipelines, before.render_pipelines + 1);
    CHECK(kiln_programs_destroy_program(f.programs, id));
    kiln_live_counts after = kiln_resources_live_counts(f.gfx.res);
    CHECK_EQ_INT(kiln_live_counts_total(&after), kiln_live_counts_total(&before));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

TEST(a_destroyed_program_id_is_never_reused) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    kiln_program_error err;
    CHECK_EQ_INT(register_fill(&f, &err), 1);
    CHECK(kiln_programs_destroy_program(f.programs, 1));
    CHECK_EQ_INT(register_fill(&f, &err), 2);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, 4, 4, NULL, true);
    float blob[4] = {1, 0, 0, 1};
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, 1, &out, 1, blob, sizeof blob), KILN_DISPATCH_UNKNOWN_PROGRAM);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

TEST(destroying_an_unknown_program_warns) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    CHECK(!kiln_programs_destroy_program(f.programs, 7));
    kiln_log *log = kiln_programs_log(f.programs);
    CHECK_EQ_INT(kiln_log_count(log), 1);
    CHECK_EQ_INT(kiln_log_at(log, 0)->level, KILN_LOG_WARN);
    CHECK_STR_CONTAINS(kiln_log_at(log, 0)->category, "program");
    CHECK_STR_CONTAINS(last_log(&f), "unknown program id 7");
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

TEST(a_stage_outside_its_enum_is_refused_as_unsupported_stage) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    kiln_program_error err;
    kiln_pass_spec passes[] = {with_window(fragment_pass("fs_fill", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), 0, 16)};
    passes[0].stage = (kiln_pass_stage)7;
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(FILL_WGSL, fill_bindings, passes);
    CHECK_EQ_INT(kiln_programs_register(f.programs, &desc, &err), 0);
    CHECK_EQ_INT(err.cls, KILN_PROGRAM_UNSUPPORTED_STAGE);
    CHECK_STR_CONTAINS(err.message, "pass 0: stage 7 is not a kiln_pass_stage");
    CHECK_EQ_INT(register_fill(&f, &err), 1);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

TEST(a_geometry_slot_without_a_layout_is_refused) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    kiln_program_error err;
    kiln_pass_spec passes[] = {with_window(fragment_pass("fs_fill", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), 0, 16)};
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(FILL_WGSL, fill_bindings, passes);
    kiln_geometry_layout empty = {0};
    desc.geometry_count = 1;
    desc.geometries = &empty;
    CHECK_EQ_INT(kiln_programs_register(f.programs, &desc, &err), 0);
    CHECK_EQ_INT(err.cls, KILN_PROGRAM_BAD_GEOMETRY_SLOT);
    CHECK_STR_CONTAINS(err.message, "geometry slot 0: layout: declares no attribute");
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* One validator class through register (the validator's own tests cover every class). */
TEST(a_validator_class_surfaces_through_register) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    kiln_program_error err;
    static const char *const COPY_WGSL =
        "@group(1) @binding(0) var src: texture_2d<f32>;\n"
        "@group(1) @binding(1) var src_sampler: sampler;\n"
        "@fragment fn fs_copy(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {\n"
        "    return textureSample(src, src_sampler, uv);\n"
        "}\n";
    kiln_transient_spec transients[] = {full_transient(KILN_FORMAT_RGBA8, KILN_SAMPLES_ONE)};
    kiln_pass_spec passes[] = {
        with_input(fragment_pass("fs_copy", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), from_transient(0)),
    };
    kiln_program_desc desc = PROGRAM_DESC(COPY_WGSL, fill_bindings, transients, passes);
    CHECK_EQ_INT(kiln_programs_register(f.programs, &desc, &err), 0);
    CHECK_EQ_INT(err.cls, KILN_PROGRAM_READ_BEFORE_WRITE);
    CHECK_STR_CONTAINS(err.message, "pass 0");
    CHECK_STR_CONTAINS(kiln_program_class_name(err.cls), "read_before_write");
    CHECK_EQ_INT(register_fill(&f, &err), 1);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

TEST(register_copies_the_descriptor) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    kiln_program_error err;
    char source[512], entry[16];
    snprintf(source, sizeof source, "%s", FILL_WGSL);
    snprintf(entry, sizeof entry, "fs_fill");
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8)};
    kiln_pass_spec passes[] = {with_window(fragment_pass(entry, to_binding(0), KILN_PROGRAM_BLEND_REPLACE), 0, 16)};
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(source, bindings, passes);
    uint32_t id = kiln_programs_register(f.programs, &desc, &err);
    CHECK_MSG(id, "%s", err.message);
    /* Scribble over everything the descriptor pointed at; the program still runs as registered. */
    memset(source, 'x', sizeof source - 1);
    memset(entry, 'x', sizeof entry - 1);
    memset(bindings, 0xff, sizeof bindings);
    memset(passes, 0xff, sizeof passes);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, 4, 4, NULL, true);
    float blob[4] = {0, 1, 0, 1};
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, id, &out, 1, blob, sizeof blob), KILN_DISPATCH_OK);
    CHECK(run_frame(&f));
    float texels[4 * 4 * 4];
    CHECK(read_texels(&f, out, texels));
    CHECK_NEAR(texels[1], 1.0, 1e-6);
    CHECK_NEAR(texels[0], 0.0, 1e-6);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

TEST_MAIN(T(ids_are_dense_from_one), T(invalid_wgsl_is_refused_with_its_position_and_consumes_no_id),
          T(wgsl_past_the_source_limit_is_refused_before_it_is_scanned),
          T(a_program_past_a_device_limit_is_refused_as_device_limit),
          T(wgsl_the_scanner_refuses_is_invalid_wgsl),
          T(pipeline_dawn_refuses_is_pipeline_failed_naming_the_pass_and_consumes_no_id),
          T(rejected_registers_leave_no_gpu_object_alive), T(destroy_program_releases_its_gpu_objects),
          T(a_destroyed_program_id_is_never_reused), T(destroying_an_unknown_program_warns),
          T(a_stage_outside_its_enum_is_refused_as_unsupported_stage), T(a_geometry_slot_without_a_layout_is_refused),
          T(a_validator_class_surfaces_through_register), T(register_copies_the_descriptor))
