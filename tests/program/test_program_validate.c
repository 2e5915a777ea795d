/* Register-time validation of authored programs (src/program/program_validate.c): a valid
 * ping-pong program passes; every failure class is reported with its exact message; classes are
 * checked in program.h's order over the whole program, so the earlier class wins whatever pass
 * holds it. The cases are numbered rows (a change to one valid fixture, the exact class and
 * message) run by one loop that names the failing row. Pure CPU: shaders are read by the WGSL
 * scanner, never compiled. */
#include <kiln/program.h>
#include <kiln/shader/wgsl_reflect.h>

#include "program/program_validate.h"
#include "test.h"

/* fs_copy samples input 0; fs_blur also reads a 16-byte uniform block. */
static const char *const BASE_WGSL =
    "struct Params { strength: f32, radius: f32, offset: vec2<f32> }\n"
    "@group(0) @binding(0) var<uniform> params: Params;\n"
    "@group(1) @binding(0) var src_texture: texture_2d<f32>;\n"
    "@group(1) @binding(1) var src_sampler: sampler;\n"
    "@fragment fn fs_copy(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {\n"
    "    return textureSample(src_texture, src_sampler, uv);\n"
    "}\n"
    "@fragment fn fs_blur(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {\n"
    "    return textureSample(src_texture, src_sampler, uv + params.offset) * params.strength;\n"
    "}\n"
    "@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {\n"
    "    return vec4<f32>(f32(i), 0.0, 0.0, 1.0);\n"
    "}\n";

typedef struct fixture {
    const char *wgsl;
    bool float32_blendable;
    kiln_slot_spec bindings[4];
    kiln_transient_spec transients[4];
    kiln_geometry_layout geometries[2];
    kiln_depth_spec depths[3];
    kiln_pass_spec passes[6];
    kiln_program_desc desc;
} fixture;

static kiln_input_slot input(kiln_input_kind kind, uint32_t index) {
    return (kiln_input_slot){.kind = kind, .index = index};
}

static kiln_output_slot output(kiln_output_kind kind, uint32_t index) {
    return (kiln_output_slot){.kind = kind, .index = index};
}

static kiln_pass_spec pass(const char *entry, kiln_input_slot in, kiln_output_slot out) {
    return (kiln_pass_spec){.stage = KILN_STAGE_FRAGMENT, .entry_point = entry, .input_count = 1, .inputs = {in},
                            .output = out, .blend = KILN_PROGRAM_BLEND_REPLACE};
}

/* A valid four-pass program: copy the source into transient 0, blur it back and forth between the
 * two half-size transients (pass 2 repeated), and composite the result onto the output binding.
 *   bindings:   0 Target(Full) Rgba8 (the output), 1 Texture Rgba8 (the source)
 *   transients: 0 and 1, Rgba16Float, Divided 2, One */
static void ping_pong(fixture *f) {
    memset(f, 0, sizeof *f);
    f->wgsl = BASE_WGSL;
    f->float32_blendable = false;
    f->bindings[0] = (kiln_slot_spec){.format = KILN_FORMAT_RGBA8, .shape = {.kind = KILN_SHAPE_TARGET}};
    f->bindings[1] = (kiln_slot_spec){.format = KILN_FORMAT_RGBA8, .shape = {.kind = KILN_SHAPE_TEXTURE}};
    for (int t = 0; t < 2; t++)
        f->transients[t] = (kiln_transient_spec){.format = KILN_FORMAT_RGBA16_FLOAT, .extent = {true, 2}};
    f->passes[0] = pass("fs_copy", input(KILN_INPUT_BINDING, 1), output(KILN_OUTPUT_TRANSIENT, 0));
    f->passes[1] = pass("fs_blur", input(KILN_INPUT_PASS_OUTPUT, 0), output(KILN_OUTPUT_TRANSIENT, 1));
    f->passes[1].uniform_length = 16;
    f->passes[2] = pass("fs_blur", input(KILN_INPUT_PASS_OUTPUT, 1), output(KILN_OUTPUT_TRANSIENT, 0));
    f->passes[2].uniform_offset = 16;
    f->passes[2].uniform_length = 32; /* longer than the block: fine */
    f->passes[2].repeat_count = 3;
    f->passes[3] = pass("fs_copy", input(KILN_INPUT_TRANSIENT, 0), output(KILN_OUTPUT_BINDING, 0));
    f->passes[3].blend = KILN_PROGRAM_BLEND_ALPHA;
    f->desc = (kiln_program_desc){.wgsl = BASE_WGSL, .binding_count = 2, .bindings = f->bindings,
                                  .transient_count = 2, .transients = f->transients,
                                  .pass_count = 4, .passes = f->passes};
}

/* Scans the fixture's shader and validates; the module is freed before the caller checks. */
static kiln_program_class validate(fixture *f, kiln_program_error *err) {
    kiln_error scan_err;
    f->desc.wgsl = f->wgsl;
    kiln_wgsl_module *m = kiln_wgsl_reflect(f->wgsl, strlen(f->wgsl), "t.wgsl", &scan_err);
    if (!m) {
        err->cls = KILN_PROGRAM_INVALID_WGSL;
        snprintf(err->message, sizeof err->message, "fixture shader refused: %s", scan_err.message);
        return err->cls;
    }
    memset(err, 0x5a, sizeof *err);
    kiln_program_caps caps = {.float32_blendable = f->float32_blendable, .max_texture_dimension_2d = 8192};
    bool ok = kiln_program_validate(&f->desc, m, &caps, err);
    kiln_wgsl_module_free(m);
    if (ok != (err->cls == KILN_PROGRAM_OK)) {
        fprintf(stderr, "returned %d but class is %s\n", ok, kiln_program_class_name(err->cls));
        return KILN_PROGRAM_CLASS_COUNT;
    }
    return err->cls;
}

/* ---- the rows' changes to the ping-pong fixture --------------------------------------------- */

/* ---- valid programs ------------------------------------------------------------------------------ */

static void a_ping_pong_program_is_valid(fixture *f) {
    (void)f;
}

static void a_shader_may_ignore_a_declared_input(fixture *f) {
    /* fs_copy declares nothing at @binding(2) or (3): input 1 is bound but unread. */
    f->passes[3].input_count = 2;
    f->passes[3].inputs[1] = input(KILN_INPUT_BINDING, 1);
}

static void a_texel_binding_read_by_texture_load_is_valid(fixture *f) {
    f->wgsl = "@group(1) @binding(0) var table: texture_2d<f32>;\n"
              "@group(1) @binding(2) var tint_texture: texture_2d<f32>;\n"
              "@group(1) @binding(3) var tint_sampler: sampler;\n"
              "@fragment fn fs_copy(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {\n"
              "    return textureLoad(table, vec2<i32>(0, 0), 0) * textureSample(tint_texture, tint_sampler, uv);\n"
              "}\n"
              "@fragment fn fs_blur() -> @location(0) vec4f { return vec4f(1.0); }\n";
    f->bindings[1].sampling.texel = true;
    f->bindings[2] = (kiln_slot_spec){.format = KILN_FORMAT_R8, .shape = {.kind = KILN_SHAPE_TEXTURE}};
    f->desc.binding_count = 3;
    f->passes[0].input_count = 2;
    f->passes[0].inputs[1] = input(KILN_INPUT_BINDING, 2);
    f->passes[3].entry_point = "fs_blur"; /* fs_copy's group 1 is for pass 0's two inputs */
}

static void array_and_volume_bindings_read_as_their_texture_types(fixture *f) {
    f->wgsl = "@group(1) @binding(0) var layers: texture_2d_array<f32>;\n"
              "@group(1) @binding(1) var s0: sampler;\n"
              "@group(1) @binding(2) var volume: texture_3d<f32>;\n"
              "@group(1) @binding(3) var s1: sampler;\n"
              "@fragment fn fs_copy(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {\n"
              "    return textureSample(layers, s0, uv, 0) + textureSample(volume, s1, vec3f(uv, 0.5));\n"
              "}\n"
              "@fragment fn fs_blur() -> @location(0) vec4f { return vec4f(1.0); }\n";
    f->bindings[2] = (kiln_slot_spec){.format = KILN_FORMAT_RGBA8, .shape = {.kind = KILN_SHAPE_TEXTURE_ARRAY}};
    f->bindings[3] = (kiln_slot_spec){.format = KILN_FORMAT_R32_FLOAT, .shape = {.kind = KILN_SHAPE_TEXTURE_VOLUME}};
    f->desc.binding_count = 4;
    f->passes[0].input_count = 2;
    f->passes[0].inputs[0] = input(KILN_INPUT_BINDING, 2);
    f->passes[0].inputs[1] = input(KILN_INPUT_BINDING, 3);
    f->passes[3].entry_point = "fs_blur"; /* fs_copy's group 1 is for pass 0's two inputs */
}

static void a_texture_binding_ignores_its_extent(fixture *f) {
    f->bindings[1].shape.extent = (kiln_slot_extent){true, 0}; /* extent is read for Target only */
}

static void a_repeat_of_4096_is_valid(fixture *f) {
    f->passes[2].repeat_count = KILN_PROGRAM_MAX_REPEAT;
}

static void alpha_blending_onto_r32float_is_valid_where_the_device_blends_it(fixture *f) {
    f->transients[1].format = KILN_FORMAT_R32_FLOAT;
    f->passes[1].blend = KILN_PROGRAM_BLEND_ALPHA;
    f->float32_blendable = true;
}

static void replacing_an_r32float_output_is_valid_without_float32_blending(fixture *f) {
    f->transients[1].format = KILN_FORMAT_R32_FLOAT;
}

/* ---- empty_graph ----------------------------------------------------------------------------- */

static void a_program_without_passes_is_an_empty_graph(fixture *f) {
    f->desc.pass_count = 0;
}

static void a_null_pass_list_is_an_empty_graph(fixture *f) {
    f->desc.passes = NULL;
}

/* ---- unsupported_stage ----------------------------------------------------------------------- */

static void a_null_buffer_list_is_an_unsupported_stage(fixture *f) {
    f->desc.buffer_count = 1;
}

static void a_null_geometry_list_is_an_unsupported_stage(fixture *f) {
    f->desc.geometry_count = 2;
}

static void a_null_depth_list_is_an_unsupported_stage(fixture *f) {
    f->desc.depth_transient_count = 1;
}

static void a_value_outside_its_enum_is_an_unsupported_stage(fixture *f) {
    f->bindings[1].format = (kiln_texture_format)99;
}

/* A value outside each C enum the descriptor holds, named by the enum's C type. */
static void a_stage_outside_its_enum(fixture *f) {
    f->passes[2].stage = (kiln_pass_stage)9;
}

static void an_input_kind_outside_its_enum(fixture *f) {
    f->passes[1].inputs[0].kind = (kiln_input_kind)-1;
}

static void an_output_kind_outside_its_enum(fixture *f) {
    f->passes[0].output.kind = (kiln_output_kind)3;
}

static void a_blend_outside_its_enum(fixture *f) {
    f->passes[3].blend = (kiln_program_blend)3;
}

static void a_shape_outside_its_enum(fixture *f) {
    f->bindings[0].shape.kind = (kiln_slot_shape_kind)4;
}

static void a_wrap_outside_its_enum(fixture *f) {
    f->bindings[1].sampling.wrap = (kiln_wrap)2;
}

static void mips_outside_its_enum(fixture *f) {
    f->bindings[0].sampling.mips = (kiln_mips)7;
}

static void a_texel_binding_s_wrap_and_mips_are_not_read(fixture *f) {
    f->bindings[1].sampling = (kiln_slot_sampling){.texel = true, .wrap = (kiln_wrap)5, .mips = (kiln_mips)5};
    f->wgsl = "@group(1) @binding(0) var t: texture_2d<f32>;\n"
              "@fragment fn fs_copy() -> @location(0) vec4f { return textureLoad(t, vec2i(0), 0); }\n"
              "@fragment fn fs_blur() -> @location(0) vec4f { return vec4f(1.0); }\n";
    f->passes[3].entry_point = "fs_blur"; /* fs_copy declares no sampler for pass 3's transient */
}

static void samples_outside_their_enum(fixture *f) {
    f->transients[0].samples = (kiln_samples)2;
}

static void a_transient_format_outside_its_enum(fixture *f) {
    f->transients[1].format = KILN_FORMAT_COUNT;
}

static void a_null_binding_list_is_an_unsupported_stage(fixture *f) {
    f->desc.bindings = NULL;
}

/* ---- zero_divisor ---------------------------------------------------------------------------- */

static void a_target_binding_divided_by_zero_is_refused(fixture *f) {
    f->bindings[2] = (kiln_slot_spec){.format = KILN_FORMAT_R8,
                                     .shape = {.kind = KILN_SHAPE_TARGET, .extent = {true, 0}}};
    f->desc.binding_count = 3;
}

static void a_transient_divided_by_zero_is_refused(fixture *f) {
    f->transients[1].extent.divisor = 0;
}

/* ---- unresolvable_samples -------------------------------------------------------------------- */

static void an_unread_four_sample_r32float_transient_is_refused(fixture *f) {
    f->transients[2] = (kiln_transient_spec){.format = KILN_FORMAT_R32_FLOAT, .samples = KILN_SAMPLES_FOUR};
    f->desc.transient_count = 3;
}

/* ---- bad_output ------------------------------------------------------------------------------ */

static void writing_a_texture_binding_is_a_bad_output(fixture *f) {
    f->passes[0].output = output(KILN_OUTPUT_BINDING, 1);
}

static void an_output_transient_out_of_range_is_a_bad_output(fixture *f) {
    f->passes[1].output = output(KILN_OUTPUT_TRANSIENT, 5);
}

static void an_output_binding_out_of_range_is_a_bad_output(fixture *f) {
    f->passes[3].output = output(KILN_OUTPUT_BINDING, 2);
}

/* ---- missing_output -------------------------------------------------------------------------- */

static void a_fragment_pass_without_output_is_refused(fixture *f) {
    f->passes[2].output = output(KILN_OUTPUT_NONE, 0);
}

/* ---- bad_input ------------------------------------------------------------------------------- */

static void an_input_binding_out_of_range_is_a_bad_input(fixture *f) {
    f->passes[1].inputs[0] = input(KILN_INPUT_BINDING, 7);
}

static void an_input_transient_out_of_range_is_a_bad_input(fixture *f) {
    f->passes[3].inputs[0] = input(KILN_INPUT_TRANSIENT, 2);
}

static void a_pass_output_input_past_the_last_pass_is_a_bad_input(fixture *f) {
    f->passes[3].inputs[0] = input(KILN_INPUT_PASS_OUTPUT, 4);
}

static void more_inputs_than_the_cap_is_a_bad_input(fixture *f) {
    f->passes[0].input_count = KILN_PROGRAM_MAX_INPUTS + 1;
}

/* ---- read_before_write ----------------------------------------------------------------------- */

static void reading_a_transient_no_earlier_pass_wrote_is_refused(fixture *f) {
    f->passes[0].input_count = 2;
    f->passes[0].inputs[1] = input(KILN_INPUT_TRANSIENT, 1); /* pass 1 writes it, after pass 0 */
}

static void a_transient_the_pass_itself_writes_is_not_written_before_it(fixture *f) {
    f->passes[1].inputs[0] = input(KILN_INPUT_TRANSIENT, 1); /* pass 1 is the first writer of transient 1 */
}

static void reading_the_output_of_a_later_pass_is_refused(fixture *f) {
    f->passes[1].inputs[0] = input(KILN_INPUT_PASS_OUTPUT, 2);
}

static void reading_the_output_of_the_same_pass_is_refused(fixture *f) {
    f->passes[2].inputs[0] = input(KILN_INPUT_PASS_OUTPUT, 2);
}

/* ---- reads_own_output ------------------------------------------------------------------------ */

static void reading_the_transient_the_pass_writes_is_refused(fixture *f) {
    f->passes[2].inputs[0] = input(KILN_INPUT_TRANSIENT, 0); /* written by pass 0, and by pass 2 itself */
}

static void a_pass_output_resolving_to_the_pass_s_own_slot_is_refused(fixture *f) {
    f->passes[2].inputs[0] = input(KILN_INPUT_PASS_OUTPUT, 0); /* pass 0 wrote transient 0, pass 2 writes it */
}

static void reading_the_binding_the_pass_writes_is_refused(fixture *f) {
    f->passes[3].inputs[0] = input(KILN_INPUT_BINDING, 0);
}

/* ---- final_pass_not_binding ------------------------------------------------------------------ */

static void a_final_pass_writing_a_transient_is_refused(fixture *f) {
    f->passes[3].output = output(KILN_OUTPUT_TRANSIENT, 1);
}

/* ---- reference_not_full ---------------------------------------------------------------------- */

static void a_divided_output_binding_is_refused(fixture *f) {
    f->bindings[0].shape.extent = (kiln_slot_extent){true, 2};
}

/* ---- bad_repeat ------------------------------------------------------------------------------ */

static void a_repeat_over_4096_is_refused(fixture *f) {
    f->passes[2].repeat_count = KILN_PROGRAM_MAX_REPEAT + 1;
}

/* ---- missing_entry_point --------------------------------------------------------------------- */

static void an_entry_point_the_module_lacks_is_refused(fixture *f) {
    f->passes[1].entry_point = "fs_missing";
}

static void a_vertex_entry_point_is_refused(fixture *f) {
    f->passes[0].entry_point = "vs_main";
}

static void a_pass_naming_no_entry_point_is_refused(fixture *f) {
    f->passes[2].entry_point = "";
}

/* ---- uniform_window_short -------------------------------------------------------------------- */

static void a_window_shorter_than_the_block_is_refused(fixture *f) {
    f->passes[1].uniform_length = 8;
}

static void a_zero_window_under_a_block_is_refused(fixture *f) {
    f->passes[2].uniform_length = 0;
}

static void a_texture_where_the_window_binds_is_refused(fixture *f) {
    f->wgsl = "@group(0) @binding(0) var lut: texture_2d<f32>;\n"
              "@fragment fn fs_copy() -> @location(0) vec4f { return textureLoad(lut, vec2i(0), 0); }\n"
              "@fragment fn fs_blur() -> @location(0) vec4f { return vec4f(1.0); }\n";
}

/* ---- input_mismatch -------------------------------------------------------------------------- */

static void an_array_binding_read_as_texture_2d_is_refused(fixture *f) {
    f->bindings[1].shape.kind = KILN_SHAPE_TEXTURE_ARRAY;
}

static void an_integer_texture_is_refused(fixture *f) {
    f->wgsl = "@group(1) @binding(0) var ids: texture_2d<u32>;\n"
              "@fragment fn fs_copy() -> @location(0) vec4f { return vec4f(textureLoad(ids, vec2i(0), 0)); }\n"
              "@fragment fn fs_blur() -> @location(0) vec4f { return vec4f(1.0); }\n";
}

static void a_sampler_on_a_texel_binding_is_refused(fixture *f) {
    f->bindings[1].sampling.texel = true;
}

static void a_comparison_sampler_on_a_transient_is_refused(fixture *f) {
    f->wgsl = "@group(1) @binding(0) var t: texture_2d<f32>;\n"
              "@group(1) @binding(1) var s: sampler_comparison;\n"
              "@fragment fn fs_copy(@location(0) uv: vec2f) -> @location(0) vec4f {\n"
              "    _ = s; return textureSample(t, s, uv);\n"
              "}\n"
              "@fragment fn fs_blur() -> @location(0) vec4f { return vec4f(1.0); }\n";
    f->passes[0].entry_point = "fs_blur"; /* leaves pass 3 the first to read through fs_copy */
}

static void a_group_1_binding_no_input_explains_is_refused(fixture *f) {
    f->wgsl = "@group(1) @binding(0) var a: texture_2d<f32>;\n"
              "@group(1) @binding(2) var extra: texture_2d<f32>;\n"
              "@fragment fn fs_copy() -> @location(0) vec4f {\n"
              "    return textureLoad(a, vec2i(0), 0) + textureLoad(extra, vec2i(0), 0);\n"
              "}\n"
              "@fragment fn fs_blur() -> @location(0) vec4f { return vec4f(1.0); }\n";
}

static void a_three_component_colour_is_refused(fixture *f) {
    f->wgsl = "@fragment fn fs_copy() -> @location(0) vec3<f32> { return vec3<f32>(1.0); }\n"
              "@fragment fn fs_blur() -> @location(0) vec4f { return vec4f(1.0); }\n";
}

static void an_entry_point_returning_no_colour_is_refused(fixture *f) {
    f->wgsl = "@fragment fn fs_copy() -> @location(0) vec4f { return vec4f(1.0); }\n"
              "@fragment fn fs_blur() { }\n";
}

/* ---- pipeline_creation_failed ---------------------------------------------------------------- */

static void alpha_blending_onto_r32float_without_the_feature_is_refused(fixture *f) {
    f->transients[1].format = KILN_FORMAT_R32_FLOAT;
    f->passes[1].blend = KILN_PROGRAM_BLEND_ALPHA;
}

static void additive_blending_onto_an_r32float_binding_without_the_feature_is_refused(fixture *f) {
    f->bindings[0].format = KILN_FORMAT_R32_FLOAT;
    f->passes[3].blend = KILN_PROGRAM_BLEND_ADDITIVE;
}

/* ---- check order ----------------------------------------------------------------------------- */

static void the_earlier_class_wins_whatever_pass_holds_it(fixture *f) {
    f->passes[0].entry_point = "fs_missing";          /* missing_entry_point, pass 0 */
    f->passes[3].repeat_count = 5000;                 /* bad_repeat, pass 3: an earlier class */
}

static void slot_declarations_are_checked_before_passes(fixture *f) {
    f->passes[0].output = output(KILN_OUTPUT_NONE, 0);  /* missing_output */
    f->transients[1].extent.divisor = 0;                /* zero_divisor */
}

static void within_a_class_the_first_pass_is_reported(fixture *f) {
    f->passes[2].repeat_count = 4097;
    f->passes[1].repeat_count = 4098;
}

/* ---- the rows -------------------------------------------------------------------------------- */

/* One row: a change to the ping-pong fixture and the exact class and message validation reports
 * for it (KILN_PROGRAM_OK and "" for a program that passes). Ids: "validate-C.n" is the n-th row of
 * class C, program.h's number (0: valid programs); "order-n" pins the check order. */
/* ---- draw passes ---------------------------------------------------------------------------------
 * A second valid fixture, a shadow program: pass 0 draws geometry slot 0 depth-only into a Fixed
 * 256 shadow map (depth slot 0) through the light's matrix; pass 1 draws it again into the output
 * with the scene depth (slot 1, Output Full), comparing against the shadow map (a Compare input). */
static const char *const DRAW_WGSL =
    "struct Light { view_proj: mat4x4<f32> }\n"
    "@group(0) @binding(0) var<uniform> light: Light;\n"
    "@group(1) @binding(0) var shadow_map: texture_depth_2d;\n"
    "@group(1) @binding(1) var shadow_compare: sampler_comparison;\n"
    "struct Lit { @builtin(position) position: vec4<f32>, @location(0) light_pos: vec3<f32>,\n"
    "             @location(1) tint: vec4<f32> }\n"
    "@vertex fn vs_light(@location(0) position: vec3<f32>) -> @builtin(position) vec4<f32> {\n"
    "    return light.view_proj * vec4<f32>(position, 1.0);\n"
    "}\n"
    "@vertex fn vs_lit(@location(0) position: vec3<f32>, @location(1) tint: vec4<f32>) -> Lit {\n"
    "    let p = light.view_proj * vec4<f32>(position, 1.0);\n"
    "    return Lit(vec4<f32>(position, 1.0), p.xyz, tint);\n"
    "}\n"
    "@fragment fn fs_depth() {}\n"
    "@fragment fn fs_flat() -> @location(0) vec4<f32> { return vec4<f32>(1.0); }\n"
    "@fragment fn fs_lit(v: Lit) -> @location(0) vec4<f32> {\n"
    "    return v.tint * textureSampleCompare(shadow_map, shadow_compare, v.light_pos.xy, v.light_pos.z);\n"
    "}\n";

static kiln_pass_spec draw_pass(const char *vertex, const char *fragment, uint32_t depth_slot, kiln_output_slot out) {
    return (kiln_pass_spec){.stage = KILN_STAGE_DRAW, .entry_point = fragment, .output = out,
                            .blend = KILN_PROGRAM_BLEND_REPLACE, .uniform_length = 64,
                            .draw = {.vertex_entry_point = vertex, .geometry = 0, .depth = true,
                                     .depth_slot = depth_slot, .load = KILN_LOAD_LOAD}};
}

static void shadow_program(fixture *f) {
    memset(f, 0, sizeof *f);
    f->wgsl = DRAW_WGSL;
    f->bindings[0] = (kiln_slot_spec){.format = KILN_FORMAT_RGBA8, .shape = {.kind = KILN_SHAPE_TARGET}};
    f->geometries[0] = (kiln_geometry_layout){
        .attribute_count = 2, .attributes = {{0, KILN_VERTEX_FLOAT32X3}, {1, KILN_VERTEX_UNORM8X4}}};
    f->depths[0] = (kiln_depth_spec){.extent = {.fixed = true, .side = 256}};
    f->depths[1] = (kiln_depth_spec){.extent = {.fixed = false}};
    f->passes[0] = draw_pass("vs_light", "fs_depth", 0, output(KILN_OUTPUT_NONE, 0));
    f->passes[1] = draw_pass("vs_lit", "fs_lit", 1, output(KILN_OUTPUT_BINDING, 0));
    f->passes[1].draw.load = KILN_LOAD_CLEAR;
    f->passes[1].input_count = 1;
    f->passes[1].inputs[0] = (kiln_input_slot){.kind = KILN_INPUT_DEPTH, .index = 0, .depth_read = KILN_DEPTH_READ_COMPARE};
    f->desc = (kiln_program_desc){.wgsl = DRAW_WGSL, .binding_count = 1, .bindings = f->bindings,
                                  .geometry_count = 1, .geometries = f->geometries,
                                  .depth_transient_count = 2, .depth_transients = f->depths,
                                  .pass_count = 2, .passes = f->passes};
}

static void a_shadow_program_is_valid(fixture *f) {
    shadow_program(f);
}

/* A Four transient drawn with a Four depth slot, then resolved into the output by a fragment pass. */
static void a_draw_pass_into_a_four_transient_with_a_four_slot_is_valid(fixture *f) {
    shadow_program(f);
    f->wgsl = "@group(1) @binding(0) var src: texture_2d<f32>;\n"
              "@group(1) @binding(1) var s: sampler;\n"
              "@vertex fn vs_light(@location(0) p: vec3<f32>) -> @builtin(position) vec4<f32> { return vec4f(p, 1.0); }\n"
              "@fragment fn fs_depth() {}\n"
              "@fragment fn fs_flat() -> @location(0) vec4f { return vec4f(1.0); }\n"
              "@fragment fn fs_copy(@location(0) uv: vec2f) -> @location(0) vec4<f32> { return textureSample(src, s, uv); }\n";
    f->transients[0] = (kiln_transient_spec){.format = KILN_FORMAT_RGBA8, .samples = KILN_SAMPLES_FOUR};
    f->depths[2] = (kiln_depth_spec){.samples = KILN_SAMPLES_FOUR};
    f->desc.transient_count = 1;
    f->desc.transients = f->transients;
    f->desc.depth_transient_count = 3;
    f->passes[0].uniform_length = 0;
    f->passes[1] = draw_pass("vs_light", "fs_flat", 2, output(KILN_OUTPUT_TRANSIENT, 0));
    f->passes[1].uniform_length = 0;
    f->passes[2] = pass("fs_copy", input(KILN_INPUT_TRANSIENT, 0), output(KILN_OUTPUT_BINDING, 0));
    f->desc.pass_count = 3;
}

static void a_depth_only_pass_may_write_frag_depth(fixture *f) {
    shadow_program(f);
    f->wgsl = "struct Light { view_proj: mat4x4<f32> }\n"
              "@group(0) @binding(0) var<uniform> light: Light;\n"
              "@group(1) @binding(0) var shadow_map: texture_depth_2d;\n"
              "@group(1) @binding(1) var shadow_compare: sampler_comparison;\n"
              "@vertex fn vs_light(@location(0) position: vec3<f32>) -> @builtin(position) vec4<f32> {\n"
              "    return light.view_proj * vec4<f32>(position, 1.0);\n"
              "}\n"
              "@vertex fn vs_lit(@location(0) position: vec3<f32>) -> @builtin(position) vec4<f32> {\n"
              "    return light.view_proj * vec4<f32>(position, 1.0);\n"
              "}\n"
              "@fragment fn fs_depth() -> @builtin(frag_depth) f32 { return 0.5; }\n"
              "@fragment fn fs_lit(@builtin(position) p: vec4f) -> @location(0) vec4<f32> {\n"
              "    return vec4f(textureSampleCompare(shadow_map, shadow_compare, p.xy, p.z));\n"
              "}\n";
}

static void a_draw_pass_without_geometry_slot_is_refused(fixture *f) {
    shadow_program(f);
    f->passes[1].draw.geometry = 3;
}

static void an_empty_geometry_slot_layout_is_refused(fixture *f) {
    shadow_program(f);
    f->geometries[0].attribute_count = 0;
}

static void a_geometry_slot_declaring_a_location_twice_is_refused(fixture *f) {
    shadow_program(f);
    f->geometries[0].attributes[1].location = 0;
}

static void a_fixed_depth_side_of_zero_is_refused(fixture *f) {
    shadow_program(f);
    f->depths[0].extent.side = 0;
}

static void a_fixed_depth_side_past_the_device_is_refused(fixture *f) {
    shadow_program(f);
    f->depths[0].extent.side = 8193;
}

static void a_depth_output_divided_by_zero_is_refused(fixture *f) {
    shadow_program(f);
    f->depths[1].extent.output = (kiln_slot_extent){true, 0};
}

static void a_depth_slot_out_of_range_is_refused(fixture *f) {
    shadow_program(f);
    f->passes[1].draw.depth_slot = 5;
}

static void a_fixed_slot_beside_a_colour_output_is_refused(fixture *f) {
    shadow_program(f);
    f->passes[1].draw.depth_slot = 0;
    f->passes[1].input_count = 0;
}

static void a_depth_slot_of_another_extent_is_refused(fixture *f) {
    shadow_program(f);
    f->depths[1].extent.output = (kiln_slot_extent){true, 2};
}

static void a_divided_by_one_depth_slot_matches_a_full_output(fixture *f) {
    shadow_program(f);
    f->depths[1].extent.output = (kiln_slot_extent){true, 1};
}

static void a_four_depth_slot_beside_a_binding_is_refused(fixture *f) {
    shadow_program(f);
    f->depths[1].samples = KILN_SAMPLES_FOUR;
}

static void a_depth_only_pass_naming_no_slot_is_refused(fixture *f) {
    shadow_program(f);
    f->passes[0].draw.depth = false;
}

static void a_depth_only_pass_blending_is_refused(fixture *f) {
    shadow_program(f);
    f->passes[0].blend = KILN_PROGRAM_BLEND_ALPHA;
}

static void a_depth_only_pass_clearing_is_refused(fixture *f) {
    shadow_program(f);
    f->passes[0].draw.load = KILN_LOAD_CLEAR;
}

static void a_depth_input_out_of_range_is_a_bad_input(fixture *f) {
    shadow_program(f);
    f->passes[1].inputs[0].index = 4;
}

static void reading_a_four_depth_slot_is_refused(fixture *f) {
    shadow_program(f);
    f->depths[0].samples = KILN_SAMPLES_FOUR;
}

static void reading_a_depth_slot_no_earlier_pass_attaches_is_refused(fixture *f) {
    shadow_program(f);
    f->passes[1].inputs[0].index = 1;
}

static void reading_the_depth_slot_the_pass_attaches_is_refused(fixture *f) {
    shadow_program(f);
    f->passes[2] = f->passes[0];
    f->passes[2].input_count = 1;
    f->passes[2].inputs[0] = (kiln_input_slot){.kind = KILN_INPUT_DEPTH, .index = 0};
    f->desc.pass_count = 3;
}

static void reading_the_output_of_a_depth_only_pass_is_refused(fixture *f) {
    shadow_program(f);
    f->passes[1].inputs[0] = input(KILN_INPUT_PASS_OUTPUT, 0);
}

static void a_vertex_entry_point_the_module_lacks_is_refused(fixture *f) {
    shadow_program(f);
    f->passes[0].draw.vertex_entry_point = "vs_missing";
}

static void a_fragment_function_as_vertex_entry_point_is_refused(fixture *f) {
    shadow_program(f);
    f->passes[1].draw.vertex_entry_point = "fs_lit";
}

static void a_draw_pass_naming_no_vertex_entry_point_is_refused(fixture *f) {
    shadow_program(f);
    f->passes[0].draw.vertex_entry_point = NULL;
}

static void a_location_the_layout_lacks_is_refused(fixture *f) {
    shadow_program(f);
    f->geometries[0].attributes[1].location = 2;
}

static void a_location_read_as_another_type_is_refused(fixture *f) {
    shadow_program(f);
    f->geometries[0].attributes[1].format = KILN_VERTEX_UINT8X4;
}

static void a_window_short_of_the_vertex_block_is_refused(fixture *f) {
    shadow_program(f);
    f->passes[0].uniform_length = 32;
}

static void a_depth_input_read_as_texture_2d_is_refused(fixture *f) {
    shadow_program(f);
    f->wgsl = "@group(1) @binding(0) var shadow_map: texture_2d<f32>;\n"
              "@vertex fn vs_light(@location(0) p: vec3<f32>) -> @builtin(position) vec4<f32> { return vec4f(p, 1.0); }\n"
              "@vertex fn vs_lit(@location(0) p: vec3<f32>) -> @builtin(position) vec4<f32> { return vec4f(p, 1.0); }\n"
              "@fragment fn fs_depth() {}\n"
              "@fragment fn fs_lit() -> @location(0) vec4<f32> { return textureLoad(shadow_map, vec2i(0), 0); }\n";
}

static void a_plain_sampler_on_a_compare_input_is_refused(fixture *f) {
    shadow_program(f);
    f->wgsl = "@group(1) @binding(0) var shadow_map: texture_depth_2d;\n"
              "@group(1) @binding(1) var s: sampler;\n"
              "@vertex fn vs_light(@location(0) p: vec3<f32>) -> @builtin(position) vec4<f32> { return vec4f(p, 1.0); }\n"
              "@vertex fn vs_lit(@location(0) p: vec3<f32>) -> @builtin(position) vec4<f32> { return vec4f(p, 1.0); }\n"
              "@fragment fn fs_depth() {}\n"
              "@fragment fn fs_lit() -> @location(0) vec4<f32> { return vec4f(textureSample(shadow_map, s, vec2f(0.5))); }\n";
}

static void a_sampler_on_a_texel_depth_read_is_refused(fixture *f) {
    shadow_program(f);
    f->passes[1].inputs[0].depth_read = KILN_DEPTH_READ_TEXEL;
}

static void the_vertex_stage_s_group_1_is_checked_too(fixture *f) {
    shadow_program(f);
    f->wgsl = "@group(1) @binding(0) var table: texture_2d<f32>;\n"
              "@vertex fn vs_light(@location(0) p: vec3<f32>) -> @builtin(position) vec4<f32> { return vec4f(p, 1.0); }\n"
              "@vertex fn vs_lit(@location(0) p: vec3<f32>) -> @builtin(position) vec4<f32> {\n"
              "    return vec4f(p, 1.0) + textureLoad(table, vec2i(0), 0);\n"
              "}\n"
              "@fragment fn fs_depth() {}\n"
              "@fragment fn fs_lit() -> @location(0) vec4<f32> { return vec4f(1.0); }\n";
}

static void a_depth_only_pass_returning_a_colour_is_refused(fixture *f) {
    shadow_program(f);
    f->passes[0].entry_point = "fs_flat";
}

static void frag_depth_without_a_depth_slot_is_refused(fixture *f) {
    f->wgsl = "struct Out { @location(0) colour: vec4f, @builtin(frag_depth) depth: f32 }\n"
              "@fragment fn fs_copy() -> Out { return Out(vec4f(1.0), 0.5); }\n"
              "@fragment fn fs_blur() -> @location(0) vec4f { return vec4f(1.0); }\n";
    for (int i = 0; i < 4; i++) f->passes[i].input_count = 0;
    f->passes[1].uniform_length = f->passes[2].uniform_length = 0;
    f->passes[0].entry_point = "fs_blur";
    f->passes[2].entry_point = "fs_blur";
    f->passes[3].entry_point = "fs_copy";
}


/* A valid draw-sets program: a depth-only pass and a colour pass draw list 0, sharing depth slot 1. */
static const char *const SETS_WGSL =
    "struct Placed { @builtin(position) position: vec4<f32>, @location(0) colour: vec4<f32> }\n"
    "@vertex fn vs_placed(@location(0) corner: vec3<f32>, @location(4) offset: vec2<f32>,\n"
    "                     @location(5) colour: vec4<f32>) -> Placed {\n"
    "    return Placed(vec4<f32>(corner.xy + offset, corner.z, 1.0), colour);\n"
    "}\n"
    "@fragment fn fs_depth() {}\n"
    "@fragment fn fs_flat(v: Placed) -> @location(0) vec4<f32> { return v.colour; }\n";

static kiln_pass_spec sets_pass(const char *fragment, uint32_t list, kiln_output_slot out) {
    return (kiln_pass_spec){
        .stage = KILN_STAGE_DRAW_SETS, .entry_point = fragment, .output = out, .blend = KILN_PROGRAM_BLEND_REPLACE,
        .draw_sets = {.vertex_entry_point = "vs_placed",
                      .vertex_layout = {1, {{0, KILN_VERTEX_FLOAT32X3}}},
                      .instance_layout = {2, {{4, KILN_VERTEX_FLOAT32X2}, {5, KILN_VERTEX_UNORM8X4}}},
                      .list = list, .cull = KILN_CULL_BACK, .depth = true, .depth_slot = 1,
                      .depth_write = KILN_DEPTH_WRITE, .load = KILN_LOAD_LOAD}};
}

static void sets_program(fixture *f) {
    shadow_program(f);
    f->wgsl = SETS_WGSL;
    f->passes[0] = sets_pass("fs_depth", 0, output(KILN_OUTPUT_NONE, 0));
    f->passes[1] = sets_pass("fs_flat", 0, output(KILN_OUTPUT_BINDING, 0));
    f->passes[1].draw_sets.depth_write = KILN_DEPTH_TEST_ONLY;
    f->passes[1].draw_sets.load = KILN_LOAD_CLEAR;
}

static void a_draw_sets_program_is_valid(fixture *f) {
    sets_program(f);
}

static void two_lists_named_densely_are_valid(fixture *f) {
    sets_program(f);
    f->passes[1].draw_sets.list = 1;
}

static void a_gap_in_the_lists_is_refused(fixture *f) {
    sets_program(f);
    f->passes[1].draw_sets.list = 2;
}

static void a_huge_list_index_is_refused_without_walking_it(fixture *f) {
    sets_program(f);
    f->passes[1].draw_sets.list = UINT32_MAX;
}

static void layouts_sharing_a_location_are_refused(fixture *f) {
    sets_program(f);
    f->passes[1].draw_sets.instance_layout.attributes[0].location = 0;
}

static void an_empty_instance_layout_is_refused(fixture *f) {
    sets_program(f);
    f->passes[0].draw_sets.instance_layout.attribute_count = 0;
}

static void a_depth_only_test_only_pass_is_refused(fixture *f) {
    sets_program(f);
    f->passes[0].draw_sets.depth_write = KILN_DEPTH_TEST_ONLY;
}

static void a_location_neither_layout_declares_is_refused(fixture *f) {
    sets_program(f);
    f->passes[1].draw_sets.instance_layout.attributes[1].location = 6;
}

static void an_instance_attribute_read_as_another_type_is_refused(fixture *f) {
    sets_program(f);
    f->passes[1].draw_sets.instance_layout.attributes[0].format = KILN_VERTEX_FLOAT32X3;
}

static void a_cull_outside_its_enum_is_an_unsupported_stage(fixture *f) {
    sets_program(f);
    f->passes[1].draw_sets.cull = (kiln_cull)3;
}

static void a_draw_sets_pass_without_its_depth_slot_is_refused(fixture *f) {
    sets_program(f);
    f->passes[1].draw_sets.depth_slot = 4;
}


/* A valid compute-culled indirect draw: pass 0 (compute) writes the draw's arguments (buffer 0) and
 * the visible placements (buffer 1); pass 1 draws the geometry indirectly, reading buffer 1 by
 * instance index. */
static const char *const CULL_WGSL =
    "struct Args { index_count: u32, instance_count: atomic<u32>, first_index: u32, base_vertex: i32,\n"
    "              first_instance: u32 }\n"
    "@group(2) @binding(0) var<storage, read_write> args: Args;\n"
    "@group(2) @binding(1) var<storage, read_write> visible: array<vec4<f32>>;\n"
    "@group(2) @binding(0) var<storage, read> placed: array<vec4<f32>>;\n"
    "@compute @workgroup_size(64) fn cs_cull(@builtin(global_invocation_id) id: vec3<u32>) {\n"
    "    let slot = atomicAdd(&args.instance_count, 1u);\n"
    "    visible[slot] = vec4<f32>(f32(id.x));\n"
    "}\n"
    "@compute @workgroup_size(8, 8) fn cs_cover(@builtin(global_invocation_id) id: vec3<u32>) {\n"
    "    visible[id.x] = vec4<f32>(0.0);\n"
    "}\n"
    "@vertex fn vs_placed(@location(0) p: vec3<f32>, @builtin(instance_index) i: u32) -> @builtin(position) vec4<f32> {\n"
    "    return vec4<f32>(p + placed[i].xyz, 1.0);\n"
    "}\n"
    "@fragment fn fs_flat() -> @location(0) vec4<f32> { return vec4<f32>(1.0); }\n";

static void cull_program(fixture *f) {
    shadow_program(f);
    f->wgsl = CULL_WGSL;
    static const kiln_buffer_spec buffers[2] = {{20}, {1600}};
    f->desc.buffer_count = 2;
    f->desc.buffers = buffers;
    f->desc.depth_transient_count = 0;
    f->geometries[0] = (kiln_geometry_layout){1, {{0, KILN_VERTEX_FLOAT32X3}}};
    f->passes[0] = (kiln_pass_spec){.stage = KILN_STAGE_COMPUTE, .entry_point = "cs_cull",
                                    .output = output(KILN_OUTPUT_NONE, 0), .blend = KILN_PROGRAM_BLEND_REPLACE,
                                    .compute = {.x = 2, .y = 1, .z = 1}, .buffer_count = 2,
                                    .buffers = {{0, true}, {1, true}}};
    f->passes[1] = (kiln_pass_spec){.stage = KILN_STAGE_DRAW_INDEXED_INDIRECT, .entry_point = "fs_flat",
                                    .output = output(KILN_OUTPUT_BINDING, 0), .blend = KILN_PROGRAM_BLEND_REPLACE,
                                    .draw = {.vertex_entry_point = "vs_placed", .geometry = 0, .args_buffer = 0},
                                    .buffer_count = 1, .buffers = {{1, false}}};
}

static void a_compute_culled_indirect_draw_is_valid(fixture *f) {
    cull_program(f);
}

static void workgroups_from_the_output_are_valid_under_a_constant_size(fixture *f) {
    cull_program(f);
    f->passes[0].entry_point = "cs_cover";
    f->passes[0].compute = (kiln_compute_spec){.from_output = true};
}

static void a_buffer_of_zero_bytes_is_refused(fixture *f) {
    cull_program(f);
    static const kiln_buffer_spec bad[2] = {{20}, {0}};
    f->desc.buffers = bad;
}

static void a_buffer_off_four_bytes_is_refused(fixture *f) {
    cull_program(f);
    static const kiln_buffer_spec bad[2] = {{22}, {1600}};
    f->desc.buffers = bad;
}

static void a_render_pass_writing_a_buffer_is_refused(fixture *f) {
    cull_program(f);
    f->passes[1].buffers[0].write = true;
}

static void a_buffer_use_out_of_range_is_refused(fixture *f) {
    cull_program(f);
    f->passes[1].buffers[0].index = 2;
}

static void a_buffer_bound_twice_is_refused(fixture *f) {
    cull_program(f);
    f->passes[0].buffers[1].index = 0;
}

static void a_compute_pass_with_a_colour_output_is_refused(fixture *f) {
    cull_program(f);
    f->passes[0].output = output(KILN_OUTPUT_BINDING, 0);
}

static void a_compute_pass_blending_is_refused(fixture *f) {
    cull_program(f);
    f->passes[0].blend = KILN_PROGRAM_BLEND_ADDITIVE;
}

static void zero_workgroups_are_refused(fixture *f) {
    cull_program(f);
    f->passes[0].compute.y = 0;
}

static void indirect_arguments_past_the_buffer_are_refused(fixture *f) {
    cull_program(f);
    f->passes[1].draw.args_offset = 4;
}

static void indirect_arguments_in_a_missing_buffer_are_refused(fixture *f) {
    cull_program(f);
    f->passes[1].draw.args_buffer = 5;
}

static void a_compute_pass_naming_a_fragment_function_is_refused(fixture *f) {
    cull_program(f);
    f->passes[0].entry_point = "fs_flat";
}

static void a_written_buffer_declared_read_only_is_refused(fixture *f) {
    cull_program(f);
    f->passes[0].buffers[1].write = false;
}

static void a_buffer_no_use_explains_is_refused(fixture *f) {
    cull_program(f);
    f->passes[0].buffer_count = 1;
}

typedef struct validate_row {
    const char *id;
    void (*change)(fixture *f);
    kiln_program_class cls;
    const char *message;
} validate_row;

static const validate_row ROWS[] = {
    {"validate-0.1", a_ping_pong_program_is_valid, KILN_PROGRAM_OK, ""},
    {"validate-0.2", a_shader_may_ignore_a_declared_input, KILN_PROGRAM_OK, ""},
    {"validate-0.3", a_texel_binding_read_by_texture_load_is_valid, KILN_PROGRAM_OK, ""},
    {"validate-0.4", array_and_volume_bindings_read_as_their_texture_types, KILN_PROGRAM_OK, ""},
    {"validate-0.5", a_texture_binding_ignores_its_extent, KILN_PROGRAM_OK, ""},
    {"validate-0.6", a_repeat_of_4096_is_valid, KILN_PROGRAM_OK, ""},
    {"validate-0.7", alpha_blending_onto_r32float_is_valid_where_the_device_blends_it, KILN_PROGRAM_OK, ""},
    {"validate-0.8", replacing_an_r32float_output_is_valid_without_float32_blending, KILN_PROGRAM_OK, ""},
    {"validate-0.9", a_texel_binding_s_wrap_and_mips_are_not_read, KILN_PROGRAM_OK, ""},
    {"validate-2.1", a_program_without_passes_is_an_empty_graph, KILN_PROGRAM_EMPTY_GRAPH,
     "the program declares no passes"},
    {"validate-2.2", a_null_pass_list_is_an_empty_graph, KILN_PROGRAM_EMPTY_GRAPH,
     "passes: 4 declared but the list is NULL"},
    {"validate-3.1", a_null_buffer_list_is_an_unsupported_stage, KILN_PROGRAM_UNSUPPORTED_STAGE,
     "buffers: 1 declared but the list is NULL"},
    {"validate-3.3", a_null_geometry_list_is_an_unsupported_stage, KILN_PROGRAM_UNSUPPORTED_STAGE,
     "geometries: 2 declared but the list is NULL"},
    {"validate-3.4", a_null_depth_list_is_an_unsupported_stage, KILN_PROGRAM_UNSUPPORTED_STAGE,
     "depth_transients: 1 declared but the list is NULL"},
    {"validate-3.5", a_value_outside_its_enum_is_an_unsupported_stage, KILN_PROGRAM_UNSUPPORTED_STAGE,
     "binding 1: format 99 is not a kiln_texture_format"},
    {"validate-3.6", a_null_binding_list_is_an_unsupported_stage, KILN_PROGRAM_UNSUPPORTED_STAGE,
     "bindings: 2 declared but the list is NULL"},
    {"validate-3.7", a_stage_outside_its_enum, KILN_PROGRAM_UNSUPPORTED_STAGE,
     "pass 2: stage 9 is not a kiln_pass_stage"},
    {"validate-3.8", an_input_kind_outside_its_enum, KILN_PROGRAM_UNSUPPORTED_STAGE,
     "pass 1: input 0 kind -1 is not a kiln_input_kind"},
    {"validate-3.9", an_output_kind_outside_its_enum, KILN_PROGRAM_UNSUPPORTED_STAGE,
     "pass 0: output kind 3 is not a kiln_output_kind"},
    {"validate-3.10", a_blend_outside_its_enum, KILN_PROGRAM_UNSUPPORTED_STAGE,
     "pass 3: blend 3 is not a kiln_program_blend"},
    {"validate-3.11", a_shape_outside_its_enum, KILN_PROGRAM_UNSUPPORTED_STAGE,
     "binding 0: shape 4 is not a kiln_slot_shape_kind"},
    {"validate-3.12", a_wrap_outside_its_enum, KILN_PROGRAM_UNSUPPORTED_STAGE,
     "binding 1: wrap 2 is not a kiln_wrap"},
    {"validate-3.13", mips_outside_its_enum, KILN_PROGRAM_UNSUPPORTED_STAGE, "binding 0: mips 7 is not a kiln_mips"},
    {"validate-3.14", samples_outside_their_enum, KILN_PROGRAM_UNSUPPORTED_STAGE,
     "transient 0: samples 2 is not a kiln_samples"},
    {"validate-3.15", a_transient_format_outside_its_enum, KILN_PROGRAM_UNSUPPORTED_STAGE,
     "transient 1: format 6 is not a kiln_texture_format"},
    {"validate-4.1", a_target_binding_divided_by_zero_is_refused, KILN_PROGRAM_ZERO_DIVISOR,
     "binding 2: Divided extent with divisor 0"},
    {"validate-4.2", a_transient_divided_by_zero_is_refused, KILN_PROGRAM_ZERO_DIVISOR,
     "transient 1: Divided extent with divisor 0"},
    {"validate-5.1", an_unread_four_sample_r32float_transient_is_refused, KILN_PROGRAM_UNRESOLVABLE_SAMPLES,
     "transient 2: a Four transient of R32Float cannot be resolved"},
    {"validate-6.1", writing_a_texture_binding_is_a_bad_output, KILN_PROGRAM_BAD_OUTPUT,
     "pass 0: output binding 1 is a Texture; a pass writes only Target bindings"},
    {"validate-6.2", an_output_transient_out_of_range_is_a_bad_output, KILN_PROGRAM_BAD_OUTPUT,
     "pass 1: output transient 5 is out of range (the program declares 2 transients)"},
    {"validate-6.3", an_output_binding_out_of_range_is_a_bad_output, KILN_PROGRAM_BAD_OUTPUT,
     "pass 3: output binding 2 is out of range (the program declares 2 bindings)"},
    {"validate-7.1", a_fragment_pass_without_output_is_refused, KILN_PROGRAM_MISSING_OUTPUT,
     "pass 2: a fragment pass must declare a texture output"},
    {"validate-8.1", an_input_binding_out_of_range_is_a_bad_input, KILN_PROGRAM_BAD_INPUT,
     "pass 1: input 0 reads binding 7, which is out of range (the program declares 2 bindings)"},
    {"validate-8.2", an_input_transient_out_of_range_is_a_bad_input, KILN_PROGRAM_BAD_INPUT,
     "pass 3: input 0 reads transient 2, which is out of range (the program declares 2 transients)"},
    {"validate-8.3", a_pass_output_input_past_the_last_pass_is_a_bad_input, KILN_PROGRAM_BAD_INPUT,
     "pass 3: input 0 reads the output of pass 4, which is out of range (the program declares 4 passes)"},
    {"validate-8.4", more_inputs_than_the_cap_is_a_bad_input, KILN_PROGRAM_BAD_INPUT,
     "pass 0: 9 inputs declared; a pass reads at most 8"},
    {"validate-9.1", reading_a_transient_no_earlier_pass_wrote_is_refused, KILN_PROGRAM_READ_BEFORE_WRITE,
     "pass 0: input 1 reads transient 1 before any pass writes it"},
    {"validate-9.2", a_transient_the_pass_itself_writes_is_not_written_before_it, KILN_PROGRAM_READ_BEFORE_WRITE,
     "pass 1: input 0 reads transient 1 before any pass writes it"},
    {"validate-9.3", reading_the_output_of_a_later_pass_is_refused, KILN_PROGRAM_READ_BEFORE_WRITE,
     "pass 1: input 0 reads the output of pass 2; a pass reads only the output of an earlier pass"},
    {"validate-9.4", reading_the_output_of_the_same_pass_is_refused, KILN_PROGRAM_READ_BEFORE_WRITE,
     "pass 2: input 0 reads the output of pass 2; a pass reads only the output of an earlier pass"},
    {"validate-10.1", reading_the_transient_the_pass_writes_is_refused, KILN_PROGRAM_READS_OWN_OUTPUT,
     "pass 2: input 0 reads transient 0, the slot this pass writes"},
    {"validate-10.2", a_pass_output_resolving_to_the_pass_s_own_slot_is_refused, KILN_PROGRAM_READS_OWN_OUTPUT,
     "pass 2: input 0 reads the output of pass 0 (transient 0), the slot this pass writes"},
    {"validate-10.3", reading_the_binding_the_pass_writes_is_refused, KILN_PROGRAM_READS_OWN_OUTPUT,
     "pass 3: input 0 reads binding 0, the slot this pass writes"},
    {"validate-11.1", a_final_pass_writing_a_transient_is_refused, KILN_PROGRAM_FINAL_PASS_NOT_BINDING,
     "pass 3: the final pass writes transient 1; the final pass must write a binding"},
    {"validate-12.1", a_divided_output_binding_is_refused, KILN_PROGRAM_REFERENCE_NOT_FULL,
     "pass 3: output binding 0 is Target(Divided 2); the final pass's output sets the reference size and must "
     "be Target(Full)"},
    {"validate-13.1", a_repeat_over_4096_is_refused, KILN_PROGRAM_BAD_REPEAT,
     "pass 2: repeat count 4097 is outside 1..4096"},
    {"validate-14.1", an_entry_point_the_module_lacks_is_refused, KILN_PROGRAM_MISSING_ENTRY_POINT,
     "pass 1: entry point 'fs_missing' is not a @fragment function in the module"},
    {"validate-14.2", a_vertex_entry_point_is_refused, KILN_PROGRAM_MISSING_ENTRY_POINT,
     "pass 0: entry point 'vs_main' is not a @fragment function in the module (it is @vertex)"},
    {"validate-14.3", a_pass_naming_no_entry_point_is_refused, KILN_PROGRAM_MISSING_ENTRY_POINT,
     "pass 2: names no entry point"},
    {"validate-15.1", a_window_shorter_than_the_block_is_refused, KILN_PROGRAM_UNIFORM_WINDOW_SHORT,
     "pass 1: uniform window of 8 bytes does not cover the 16-byte block fs_blur declares at @group(0) "
     "@binding(0)"},
    {"validate-15.2", a_zero_window_under_a_block_is_refused, KILN_PROGRAM_UNIFORM_WINDOW_SHORT,
     "pass 2: uniform window of 0 bytes does not cover the 16-byte block fs_blur declares at @group(0) "
     "@binding(0)"},
    {"validate-15.3", a_texture_where_the_window_binds_is_refused, KILN_PROGRAM_UNIFORM_WINDOW_SHORT,
     "pass 0: fs_copy declares a texture_2d<f32> at @group(0) @binding(0), where the uniform window binds a "
     "var<uniform>"},
    {"validate-16.1", an_array_binding_read_as_texture_2d_is_refused, KILN_PROGRAM_INPUT_MISMATCH,
     "pass 0: input 0 (binding 1, a TextureArray slot) is declared texture_2d<f32> at @group(1) @binding(0); it "
     "must be texture_2d_array<f32>"},
    {"validate-16.2", an_integer_texture_is_refused, KILN_PROGRAM_INPUT_MISMATCH,
     "pass 0: input 0 (binding 1, a Texture slot) is declared texture_2d<u32> at @group(1) @binding(0); it must "
     "be texture_2d<f32>"},
    {"validate-16.3", a_sampler_on_a_texel_binding_is_refused, KILN_PROGRAM_INPUT_MISMATCH,
     "pass 0: input 0 (binding 1, a Texel slot) has a sampler declared at @group(1) @binding(1)"},
    {"validate-16.4", a_comparison_sampler_on_a_transient_is_refused, KILN_PROGRAM_INPUT_MISMATCH,
     "pass 3: input 0 (transient 0) has a sampler_comparison declared at @group(1) @binding(1); only a Depth "
     "Compare input binds one"},
    {"validate-16.5", a_group_1_binding_no_input_explains_is_refused, KILN_PROGRAM_INPUT_MISMATCH,
     "pass 0: fs_copy declares a texture_2d<f32> at @group(1) @binding(2), which no input explains (the pass "
     "declares 1 input)"},
    {"validate-16.6", a_three_component_colour_is_refused, KILN_PROGRAM_INPUT_MISMATCH,
     "pass 0: fs_copy returns vec3<f32> at @location(0); a pass returns its colour as vec4<f32>"},
    {"validate-16.7", an_entry_point_returning_no_colour_is_refused, KILN_PROGRAM_INPUT_MISMATCH,
     "pass 1: fs_blur returns nothing at @location(0); a pass returns its colour there as vec4<f32>"},
    {"validate-17.1", alpha_blending_onto_r32float_without_the_feature_is_refused, KILN_PROGRAM_PIPELINE_FAILED,
     "pass 1: Alpha blending onto an R32Float output needs the float32-blendable feature, which this device "
     "lacks"},
    {"validate-17.2", additive_blending_onto_an_r32float_binding_without_the_feature_is_refused,
     KILN_PROGRAM_PIPELINE_FAILED,
     "pass 3: Additive blending onto an R32Float output needs the float32-blendable feature, which this device "
     "lacks"},
    {"draw-0.1", a_shadow_program_is_valid, KILN_PROGRAM_OK, ""},
    {"draw-0.2", a_draw_pass_into_a_four_transient_with_a_four_slot_is_valid, KILN_PROGRAM_OK, ""},
    {"draw-0.3", a_depth_only_pass_may_write_frag_depth, KILN_PROGRAM_OK, ""},
    {"draw-0.4", a_divided_by_one_depth_slot_matches_a_full_output, KILN_PROGRAM_OK, ""},
    {"draw-1.1", an_empty_geometry_slot_layout_is_refused, KILN_PROGRAM_BAD_GEOMETRY_SLOT,
     "geometry slot 0: layout: declares no attribute (empty_layout)"},
    {"draw-1.2", a_geometry_slot_declaring_a_location_twice_is_refused, KILN_PROGRAM_BAD_GEOMETRY_SLOT,
     "geometry slot 0: layout[1]: location 0 is declared already by layout[0] (duplicate_location)"},
    {"draw-2.1", a_depth_output_divided_by_zero_is_refused, KILN_PROGRAM_ZERO_DIVISOR,
     "depth transient 1: Output(Divided) extent with divisor 0"},
    {"draw-3.1", a_fixed_depth_side_of_zero_is_refused, KILN_PROGRAM_BAD_DEPTH_SIDE,
     "depth transient 0: Fixed side 0 is outside 1..8192 (the device's maxTextureDimension2D)"},
    {"draw-3.2", a_fixed_depth_side_past_the_device_is_refused, KILN_PROGRAM_BAD_DEPTH_SIDE,
     "depth transient 0: Fixed side 8193 is outside 1..8192 (the device's maxTextureDimension2D)"},
    {"draw-4.1", a_draw_pass_without_geometry_slot_is_refused, KILN_PROGRAM_BAD_GEOMETRY,
     "pass 1: geometry slot 3 is out of range (the program declares 1 geometry slot)"},
    {"draw-5.1", a_depth_slot_out_of_range_is_refused, KILN_PROGRAM_BAD_DEPTH,
     "pass 1: depth slot 5 is out of range (the program declares 2 depth transients)"},
    {"draw-6.1", a_fixed_slot_beside_a_colour_output_is_refused, KILN_PROGRAM_FIXED_DEPTH,
     "pass 1: depth slot 0 is Fixed (side 256) beside a colour output; a Fixed slot attaches only under a "
     "depth-only pass"},
    {"draw-7.1", a_depth_slot_of_another_extent_is_refused, KILN_PROGRAM_DEPTH_EXTENT,
     "pass 1: depth slot 1 is Output(Divided 2) beside binding 0, which is Full; a depth slot beside a colour "
     "output declares Output of that output's extent"},
    {"draw-8.1", a_four_depth_slot_beside_a_binding_is_refused, KILN_PROGRAM_DEPTH_SAMPLES,
     "pass 1: depth slot 1 has samples Four beside binding 0, which has One; the attachments of one pass share "
     "one sample count"},
    {"draw-9.1", a_depth_only_pass_naming_no_slot_is_refused, KILN_PROGRAM_BAD_DEPTH_ONLY,
     "pass 0: a depth-only pass (output None) must name a depth slot to write"},
    {"draw-9.2", a_depth_only_pass_blending_is_refused, KILN_PROGRAM_BAD_DEPTH_ONLY,
     "pass 0: a depth-only pass declares blend Replace, not Alpha (it has no colour output)"},
    {"draw-9.3", a_depth_only_pass_clearing_is_refused, KILN_PROGRAM_BAD_DEPTH_ONLY,
     "pass 0: a depth-only pass declares load Load, not Clear (it has no colour output to clear)"},
    {"draw-10.1", a_depth_input_out_of_range_is_a_bad_input, KILN_PROGRAM_BAD_INPUT,
     "pass 1: input 0 reads depth slot 4, which is out of range (the program declares 2 depth transients)"},
    {"draw-11.1", reading_a_four_depth_slot_is_refused, KILN_PROGRAM_BAD_DEPTH_INPUT,
     "pass 1: input 0 reads depth slot 0, which has samples Four; only a One depth slot is read (draw the "
     "geometry again depth-only onto a One slot)"},
    {"draw-11.2", reading_a_depth_slot_no_earlier_pass_attaches_is_refused, KILN_PROGRAM_BAD_DEPTH_INPUT,
     "pass 1: input 0 reads depth slot 1, which no earlier pass attaches"},
    {"draw-11.3", reading_the_depth_slot_the_pass_attaches_is_refused, KILN_PROGRAM_BAD_DEPTH_INPUT,
     "pass 2: input 0 reads depth slot 0, which this pass attaches"},
    {"draw-12.1", reading_the_output_of_a_depth_only_pass_is_refused, KILN_PROGRAM_READ_BEFORE_WRITE,
     "pass 1: input 0 reads the output of pass 0, which writes no colour output"},
    {"draw-13.1", a_vertex_entry_point_the_module_lacks_is_refused, KILN_PROGRAM_MISSING_VERTEX_ENTRY,
     "pass 0: vertex entry point 'vs_missing' is not a @vertex function in the module"},
    {"draw-13.2", a_fragment_function_as_vertex_entry_point_is_refused, KILN_PROGRAM_MISSING_VERTEX_ENTRY,
     "pass 1: vertex entry point 'fs_lit' is not a @vertex function in the module (it is @fragment)"},
    {"draw-13.3", a_draw_pass_naming_no_vertex_entry_point_is_refused, KILN_PROGRAM_MISSING_VERTEX_ENTRY,
     "pass 0: a draw pass names no vertex entry point"},
    {"draw-14.1", a_location_the_layout_lacks_is_refused, KILN_PROGRAM_VERTEX_LAYOUT_MISMATCH,
     "pass 1: vs_lit reads @location(1), which geometry slot 0 does not declare (its layout is [0 Float32x3, 2 "
     "Unorm8x4])"},
    {"draw-14.2", a_location_read_as_another_type_is_refused, KILN_PROGRAM_VERTEX_LAYOUT_MISMATCH,
     "pass 1: vs_lit reads @location(1) as vec4<f32>; geometry slot 0 declares it Uint8x4, read as vec4<u32>"},
    {"draw-15.1", a_window_short_of_the_vertex_block_is_refused, KILN_PROGRAM_UNIFORM_WINDOW_SHORT,
     "pass 0: uniform window of 32 bytes does not cover the 64-byte block vs_light declares at @group(0) "
     "@binding(0)"},
    {"draw-16.1", a_depth_input_read_as_texture_2d_is_refused, KILN_PROGRAM_INPUT_MISMATCH,
     "pass 1: input 0 (depth slot 0, read Compare) is declared texture_2d<f32> at @group(1) @binding(0) in fs_lit; "
     "it must be texture_depth_2d"},
    {"draw-16.2", a_plain_sampler_on_a_compare_input_is_refused, KILN_PROGRAM_INPUT_MISMATCH,
     "pass 1: input 0 (depth slot 0, read Compare) has a sampler declared at @group(1) @binding(1), where its "
     "sampler_comparison binds"},
    {"draw-16.3", a_sampler_on_a_texel_depth_read_is_refused, KILN_PROGRAM_INPUT_MISMATCH,
     "pass 1: input 0 (depth slot 0, read Texel) has a sampler_comparison declared at @group(1) @binding(1); a "
     "Texel depth read binds no sampler"},
    {"draw-16.4", the_vertex_stage_s_group_1_is_checked_too, KILN_PROGRAM_INPUT_MISMATCH,
     "pass 1: input 0 (depth slot 0, read Compare) is declared texture_2d<f32> at @group(1) @binding(0) in vs_lit; "
     "it must be texture_depth_2d"},
    {"draw-17.1", a_depth_only_pass_returning_a_colour_is_refused, KILN_PROGRAM_DEPTH_ONLY_COLOR,
     "pass 0: fs_flat returns a colour at @location(0), and the pass is depth-only (output None); it returns "
     "nothing or @builtin(frag_depth) alone"},
    {"draw-18.1", frag_depth_without_a_depth_slot_is_refused, KILN_PROGRAM_UNDECLARED_DEPTH,
     "pass 3: fs_copy writes @builtin(frag_depth), and the pass attaches no depth slot to write it into"},
    {"sets-0.1", a_draw_sets_program_is_valid, KILN_PROGRAM_OK, ""},
    {"sets-0.2", two_lists_named_densely_are_valid, KILN_PROGRAM_OK, ""},
    {"sets-1.1", a_cull_outside_its_enum_is_an_unsupported_stage, KILN_PROGRAM_UNSUPPORTED_STAGE,
     "pass 1: cull 3 is not a kiln_cull"},
    {"sets-2.1", layouts_sharing_a_location_are_refused, KILN_PROGRAM_BAD_DRAW_SETS_LAYOUT,
     "pass 1: instance_layout[0]: location 0 is the vertex layout's too; the two layouts share no location"},
    {"sets-2.2", an_empty_instance_layout_is_refused, KILN_PROGRAM_BAD_DRAW_SETS_LAYOUT,
     "pass 0: instance_layout: layout: declares no attribute (empty_layout)"},
    {"sets-3.1", a_draw_sets_pass_without_its_depth_slot_is_refused, KILN_PROGRAM_BAD_DEPTH,
     "pass 1: depth slot 4 is out of range (the program declares 2 depth transients)"},
    {"sets-4.1", a_depth_only_test_only_pass_is_refused, KILN_PROGRAM_BAD_DEPTH_ONLY,
     "pass 0: a depth-only pass declares depth write Write, not TestOnly (it would write nothing)"},
    {"sets-5.1", a_gap_in_the_lists_is_refused, KILN_PROGRAM_BAD_LIST,
     "draw-set list 1 is named by no pass, and a pass names list 2: lists are numbered densely from 0"},
    {"sets-5.2", a_huge_list_index_is_refused_without_walking_it, KILN_PROGRAM_BAD_LIST,
     "draw-set list 1 is named by no pass, and a pass names list 4294967295: lists are numbered densely from 0"},
    {"sets-6.1", a_location_neither_layout_declares_is_refused, KILN_PROGRAM_VERTEX_LAYOUT_MISMATCH,
     "pass 1: vs_placed reads @location(5), which neither of the pass's layouts declares (vertex [0 Float32x3], "
     "instance [4 Float32x2, 6 Unorm8x4])"},
    {"sets-6.2", an_instance_attribute_read_as_another_type_is_refused, KILN_PROGRAM_VERTEX_LAYOUT_MISMATCH,
     "pass 1: vs_placed reads @location(4) as vec2<f32>; the pass's instance layout declares it Float32x3, read as "
     "vec3<f32>"},
    {"compute-0.1", a_compute_culled_indirect_draw_is_valid, KILN_PROGRAM_OK, ""},
    {"compute-0.2", workgroups_from_the_output_are_valid_under_a_constant_size, KILN_PROGRAM_OK, ""},
    {"compute-1.1", a_buffer_of_zero_bytes_is_refused, KILN_PROGRAM_BAD_BUFFER,
     "buffer 1: 0 bytes; a program buffer is a non-zero multiple of 4 bytes, at most 134217728 (the device's "
     "maxStorageBufferBindingSize)"},
    {"compute-1.2", a_buffer_off_four_bytes_is_refused, KILN_PROGRAM_BAD_BUFFER,
     "buffer 0: 22 bytes; a program buffer is a non-zero multiple of 4 bytes, at most 134217728 (the device's "
     "maxStorageBufferBindingSize)"},
    {"compute-2.1", a_render_pass_writing_a_buffer_is_refused, KILN_PROGRAM_BAD_BUFFER_USE,
     "pass 1: buffer use 0 writes buffer 1; only a compute pass writes a program buffer"},
    {"compute-2.2", a_buffer_use_out_of_range_is_refused, KILN_PROGRAM_BAD_BUFFER_USE,
     "pass 1: buffer use 0 names buffer 2, which is out of range (the program declares 2 buffers)"},
    {"compute-2.3", a_buffer_bound_twice_is_refused, KILN_PROGRAM_BAD_BUFFER_USE,
     "pass 0: buffer use 1 binds buffer 0, which use 0 binds already"},
    {"compute-3.1", a_compute_pass_with_a_colour_output_is_refused, KILN_PROGRAM_COMPUTE_OUTPUT,
     "pass 0: a compute pass must declare OutputSlot::None"},
    {"compute-3.2", a_compute_pass_blending_is_refused, KILN_PROGRAM_COMPUTE_OUTPUT,
     "pass 0: a compute pass declares blend Replace, not Additive (it has no colour output)"},
    {"compute-4.1", zero_workgroups_are_refused, KILN_PROGRAM_BAD_WORKGROUPS,
     "pass 0: workgroup counts 2 x 0 x 1; each is 1..65535 (the device's maxComputeWorkgroupsPerDimension)"},
    {"compute-5.1", indirect_arguments_past_the_buffer_are_refused, KILN_PROGRAM_BAD_INDIRECT,
     "pass 1: arguments at offset 4 of buffer 0 (20 bytes) are not 20 bytes at a multiple of 4"},
    {"compute-5.2", indirect_arguments_in_a_missing_buffer_are_refused, KILN_PROGRAM_BAD_INDIRECT,
     "pass 1: argument buffer 5 is out of range (the program declares 2 buffers)"},
    {"compute-6.1", a_compute_pass_naming_a_fragment_function_is_refused, KILN_PROGRAM_MISSING_ENTRY_POINT,
     "pass 0: entry point 'fs_flat' is not a @compute function in the module (it is @fragment)"},
    {"compute-7.1", a_written_buffer_declared_read_only_is_refused, KILN_PROGRAM_BUFFER_MISMATCH,
     "pass 0: cs_cull declares visible at @group(2) @binding(1); buffer use 1 (buffer 1) binds there as "
     "var<storage, read>"},
    {"compute-7.2", a_buffer_no_use_explains_is_refused, KILN_PROGRAM_BUFFER_MISMATCH,
     "pass 0: cs_cull declares a array<vec4<f32>> at @group(2) @binding(1), which no buffer use explains (the pass "
     "binds 1 buffer)"},
    {"order-1", the_earlier_class_wins_whatever_pass_holds_it, KILN_PROGRAM_BAD_REPEAT,
     "pass 3: repeat count 5000 is outside 1..4096"},
    {"order-2", slot_declarations_are_checked_before_passes, KILN_PROGRAM_ZERO_DIVISOR,
     "transient 1: Divided extent with divisor 0"},
    {"order-3", within_a_class_the_first_pass_is_reported, KILN_PROGRAM_BAD_REPEAT,
     "pass 1: repeat count 4098 is outside 1..4096"},
};

TEST(every_row_reports_its_class_and_message) {
    int failures = 0;
    for (size_t i = 0; i < sizeof ROWS / sizeof ROWS[0]; i++) {
        const validate_row *r = &ROWS[i];
        fixture f;
        ping_pong(&f);
        r->change(&f);
        kiln_program_error err;
        kiln_program_class got = validate(&f, &err);
        const char *message = got < KILN_PROGRAM_CLASS_COUNT ? err.message : "";
        if (got == r->cls && strcmp(message, r->message) == 0) continue;
        fprintf(stderr, "%s: %s \"%s\"\n  expected %s \"%s\"\n", r->id, kiln_program_class_name(got), message,
                kiln_program_class_name(r->cls), r->message);
        failures++;
    }
    CHECK_MSG(failures == 0, "%d of %zu rows failed", failures, sizeof ROWS / sizeof ROWS[0]);
}

TEST(a_null_descriptor_is_an_empty_graph) {
    kiln_program_error err;
    CHECK(!kiln_program_validate(NULL, NULL, NULL, &err));
    CHECK_EQ_INT(err.cls, KILN_PROGRAM_EMPTY_GRAPH);
    CHECK(strcmp(err.message, "no program descriptor") == 0);
    CHECK(!kiln_program_validate(NULL, NULL, NULL, NULL)); /* the error is optional */
}

TEST(no_module_means_no_entry_point) {
    fixture f;
    ping_pong(&f);
    kiln_program_error err;
    CHECK(!kiln_program_validate(&f.desc, NULL, NULL, &err));
    CHECK_EQ_INT(err.cls, KILN_PROGRAM_MISSING_ENTRY_POINT);
    CHECK(strcmp(err.message, "pass 0: entry point 'fs_copy' is not a @fragment function in the module") == 0);
}

/* ---- class names ------------------------------------------------------------------------------ */

TEST(every_class_has_its_stable_identifier) {
    CHECK(strcmp(kiln_program_class_name(KILN_PROGRAM_INVALID_WGSL), "invalid_wgsl") == 0);
    CHECK(strcmp(kiln_program_class_name(KILN_PROGRAM_READ_BEFORE_WRITE), "read_before_write") == 0);
    CHECK(strcmp(kiln_program_class_name(KILN_PROGRAM_PIPELINE_FAILED), "pipeline_creation_failed") == 0);
    CHECK(strcmp(kiln_dispatch_class_name(KILN_DISPATCH_UNKNOWN_PROGRAM), "unknown_program") == 0);
    CHECK(strcmp(kiln_dispatch_class_name(KILN_DISPATCH_TARGET_SIZE), "target_size_mismatch") == 0);
    CHECK(strcmp(kiln_dispatch_class_name(KILN_DISPATCH_INPUT_IS_OUTPUT), "input_is_output") == 0);
    /* Every class has a distinct, non-empty name. */
    for (int a = 0; a < KILN_PROGRAM_CLASS_COUNT; a++) {
        CHECK(kiln_program_class_name((kiln_program_class)a)[0] != '\0');
        for (int b = 0; b < a; b++)
            CHECK(strcmp(kiln_program_class_name((kiln_program_class)a),
                         kiln_program_class_name((kiln_program_class)b)) != 0);
    }
    for (int a = 0; a < KILN_DISPATCH_CLASS_COUNT; a++) {
        CHECK(kiln_dispatch_class_name((kiln_dispatch_class)a)[0] != '\0');
        for (int b = 0; b < a; b++)
            CHECK(strcmp(kiln_dispatch_class_name((kiln_dispatch_class)a),
                         kiln_dispatch_class_name((kiln_dispatch_class)b)) != 0);
    }
}

TEST(a_value_outside_the_class_enums_still_has_a_name) {
    CHECK(strcmp(kiln_program_class_name(KILN_PROGRAM_CLASS_COUNT), "invalid_class") == 0);
    CHECK(strcmp(kiln_dispatch_class_name((kiln_dispatch_class)-1), "invalid_class") == 0);
}

TEST_MAIN(T(every_row_reports_its_class_and_message), T(a_null_descriptor_is_an_empty_graph),
          T(no_module_means_no_entry_point), T(every_class_has_its_stable_identifier),
          T(a_value_outside_the_class_enums_still_has_a_name))
