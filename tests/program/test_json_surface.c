/* The JSON surface: every enum form decodes, every refusal names its field path, malformed text
 * gives line and column, both blob spellings agree, describe_kinds lists every kind and every
 * required field it lists is enforced, and end to end the spec's example forms register, dispatch
 * and read back a program's output. The decoding tests need no GPU; the runtime tests open one. */
#include <jansson.h>

#include <kiln/program_json.h>

#include "gfx_fixture.h"

/* ---- helpers ---------------------------------------------------------------------------------- */

/* Parses a message and runs the decoder its kind has (pure: no runtime). */
static bool decode_text(const char *text, kiln_json_error *err) {
    json_t *msg;
    const char *kind;
    if (!kiln_json_parse_message(text, strlen(text), &msg, &kind, err)) return false;
    bool ok = true;
    if (strcmp(kind, "program.register") == 0) {
        kiln_json_program p;
        ok = kiln_json_decode_program(msg, &p, err);
        kiln_json_program_free(&p);
    } else if (strcmp(kind, "program.dispatch") == 0) {
        kiln_json_dispatch d;
        ok = kiln_json_decode_dispatch(msg, &d, err);
        kiln_json_dispatch_free(&d);
    } else if (strcmp(kind, "create_texture") == 0) {
        kiln_json_texture t;
        ok = kiln_json_decode_create_texture(msg, &t, err);
        kiln_json_texture_free(&t);
    }
    json_decref(msg);
    return ok;
}

static json_t *parse(const char *text) {
    return json_loads(text, 0, NULL);
}

#define SHAPES_AND_SAMPLINGS                                                                                   \
    "[{\"format\": \"Rgba8\", \"shape\": {\"Target\": \"Full\"}, \"sampling\": {\"Filtered\": {\"wrap\": "     \
    "\"Clamp\", \"mips\": \"Base\"}}},"                                                                        \
    " {\"format\": \"R8\", \"shape\": {\"Target\": {\"Divided\": {\"divisor\": 2}}}, \"sampling\": "           \
    "{\"Filtered\": {\"wrap\": \"Repeat\", \"mips\": \"Chain\"}}},"                                            \
    " {\"format\": \"R32Float\", \"shape\": \"Texture\", \"sampling\": \"Texel\"},"                            \
    " {\"format\": \"R16Float\", \"shape\": \"TextureArray\", \"sampling\": \"Texel\"},"                       \
    " {\"format\": \"Rgba16Float\", \"shape\": \"TextureVolume\", \"sampling\": \"Texel\"}]"

static const char EVERY_FORM[] =
    "{\"kind\": \"program.register\", \"wgsl\": \"// none\", \"bindings\": " SHAPES_AND_SAMPLINGS ","
    " \"transients\": [{\"format\": \"R16Float\", \"extent\": \"Full\", \"samples\": \"One\"},"
    "  {\"format\": \"Rgba8\", \"extent\": {\"Divided\": {\"divisor\": 3}}, \"samples\": \"Four\"}],"
    " \"geometries\": [{\"layout\": [{\"location\": 0, \"format\": \"Float32x3\"}, {\"location\": 3, \"format\": "
    "\"Uint8x4\"}]}],"
    " \"depth_transients\": [{\"extent\": {\"Output\": {\"Divided\": {\"divisor\": 2}}}, \"samples\": \"Four\"},"
    "  {\"extent\": {\"Fixed\": {\"side\": 512}}, \"samples\": \"One\"}],"
    " \"passes\": ["
    "  {\"stage\": \"Fragment\", \"entry_point\": \"a\", \"inputs\": [{\"Binding\": {\"index\": 2}}],"
    "   \"output\": {\"Transient\": {\"index\": 1}}, \"blend\": \"Alpha\", \"uniform_offset\": 4,"
    "   \"uniform_length\": 8, \"repeat\": null},"
    "  {\"stage\": {\"Draw\": {\"vertex_entry_point\": \"vs\", \"geometry\": 0, \"depth\": 1, \"load\": "
    "\"Load\"}}, \"entry_point\": \"b\", \"inputs\": [{\"Transient\": {\"index\": 1}}, {\"PassOutput\": "
    "{\"pass\": 0}}, {\"Depth\": {\"index\": 1, \"read\": \"Compare\"}}, {\"Depth\": {\"index\": 0, \"read\": "
    "\"Texel\"}}], \"output\": {\"Binding\": {\"index\": 0}}, \"blend\": \"Replace\", \"uniform_offset\": 0,"
    "   \"uniform_length\": 0, \"repeat\": {\"count\": 4, \"uniform_stride\": 16}},"
    "  {\"stage\": {\"DrawIndexedIndirect\": {\"vertex_entry_point\": \"vs\", \"geometry\": 0, \"depth\": null, "
    "\"load\": \"Load\", \"args\": {\"buffer\": 0, \"offset\": 4}}}, \"entry_point\": \"c\", \"inputs\": [], \"output\": \"None\","
    "   \"blend\": \"Additive\", \"uniform_offset\": 0, \"uniform_length\": 0},"
    "  {\"stage\": {\"DrawSets\": {\"vertex_entry_point\": \"vs_placed\", \"vertex_layout\": [{\"location\": 0, "
    "\"format\": \"Float32x3\"}], \"instance_layout\": [{\"location\": 4, \"format\": \"Float32x3\"}, {\"location\": "
    "5, \"format\": \"Unorm8x4\"}], \"draw_sets\": 0, \"cull\": \"Back\", \"depth\": {\"slot\": 0, \"write\": "
    "\"Write\"}, \"load\": \"Clear\"}}, \"entry_point\": \"d\", \"inputs\": [], \"output\": "
    "\"None\", \"blend\": \"Replace\", \"uniform_offset\": 0, \"uniform_length\": 0, \"repeat\": null},"
    "  {\"stage\": {\"Compute\": {\"workgroups\": [2, 3, 1]}}, \"buffers\": [{\"index\": 0, \"write\": true}], "
    "\"entry_point\": \"e\", \"inputs\": [], \"output\": \"None\", \"blend\": "
    "\"Replace\", \"uniform_offset\": 0, \"uniform_length\": 0, \"repeat\": null}]}";

/* ---- decoding --------------------------------------------------------------------------------- */

TEST(every_slot_shape_sampling_and_extent_form_decodes) {
    json_t *msg = parse(EVERY_FORM);
    CHECK(msg);
    kiln_json_program p;
    kiln_json_error err = {0};
    bool ok = kiln_json_decode_program(msg, &p, &err);
    CHECK_MSG(ok, "%s: %s", err.cls, err.message);
    const kiln_program_desc *d = &p.desc;
    bool shapes = d->binding_count == 5 && d->bindings[0].format == KILN_FORMAT_RGBA8 &&
                  d->bindings[0].shape.kind == KILN_SHAPE_TARGET && !d->bindings[0].shape.extent.divided &&
                  !d->bindings[0].sampling.texel && d->bindings[0].sampling.wrap == KILN_WRAP_CLAMP &&
                  d->bindings[0].sampling.mips == KILN_MIPS_BASE && d->bindings[1].format == KILN_FORMAT_R8 &&
                  d->bindings[1].shape.kind == KILN_SHAPE_TARGET && d->bindings[1].shape.extent.divided &&
                  d->bindings[1].shape.extent.divisor == 2 && d->bindings[1].sampling.wrap == KILN_WRAP_REPEAT &&
                  d->bindings[1].sampling.mips == KILN_MIPS_CHAIN && d->bindings[2].format == KILN_FORMAT_R32_FLOAT &&
                  d->bindings[2].shape.kind == KILN_SHAPE_TEXTURE && d->bindings[2].sampling.texel &&
                  d->bindings[3].format == KILN_FORMAT_R16_FLOAT &&
                  d->bindings[3].shape.kind == KILN_SHAPE_TEXTURE_ARRAY &&
                  d->bindings[4].format == KILN_FORMAT_RGBA16_FLOAT &&
                  d->bindings[4].shape.kind == KILN_SHAPE_TEXTURE_VOLUME;
    bool transients = d->transient_count == 2 && d->transients[0].format == KILN_FORMAT_R16_FLOAT &&
                      !d->transients[0].extent.divided && d->transients[0].samples == KILN_SAMPLES_ONE &&
                      d->transients[1].extent.divided && d->transients[1].extent.divisor == 3 &&
                      d->transients[1].samples == KILN_SAMPLES_FOUR;
    /* Strings point into the message, which lives until here. */
    bool lists = d->geometry_count == 1 && d->depth_transient_count == 2 && strcmp(d->wgsl, "// none") == 0 &&
                 d->geometries[0].attribute_count == 2 && d->geometries[0].attributes[0].location == 0 &&
                 d->geometries[0].attributes[0].format == KILN_VERTEX_FLOAT32X3 &&
                 d->geometries[0].attributes[1].location == 3 &&
                 d->geometries[0].attributes[1].format == KILN_VERTEX_UINT8X4 &&
                 !d->depth_transients[0].extent.fixed && d->depth_transients[0].extent.output.divided &&
                 d->depth_transients[0].extent.output.divisor == 2 &&
                 d->depth_transients[0].samples == KILN_SAMPLES_FOUR && d->depth_transients[1].extent.fixed &&
                 d->depth_transients[1].extent.side == 512 && d->depth_transients[1].samples == KILN_SAMPLES_ONE;
    kiln_json_program_free(&p);
    json_decref(msg);
    CHECK(shapes);
    CHECK(transients);
    CHECK(lists);
}

TEST(every_pass_stage_input_output_blend_and_repeat_form_decodes) {
    json_t *msg = parse(EVERY_FORM);
    kiln_json_program p;
    kiln_json_error err = {0};
    bool ok = kiln_json_decode_program(msg, &p, &err);
    CHECK_MSG(ok, "%s: %s", err.cls, err.message);
    const kiln_pass_spec *s = p.passes;
    bool stages = p.desc.pass_count == 5 && s[0].stage == KILN_STAGE_FRAGMENT && s[1].stage == KILN_STAGE_DRAW &&
                  s[2].stage == KILN_STAGE_DRAW_INDEXED_INDIRECT && s[3].stage == KILN_STAGE_DRAW_SETS &&
                  s[4].stage == KILN_STAGE_COMPUTE;
    bool inputs = s[0].input_count == 1 && s[0].inputs[0].kind == KILN_INPUT_BINDING && s[0].inputs[0].index == 2 &&
                  s[1].input_count == 4 && s[1].inputs[0].kind == KILN_INPUT_TRANSIENT && s[1].inputs[0].index == 1 &&
                  s[1].inputs[1].kind == KILN_INPUT_PASS_OUTPUT && s[1].inputs[1].index == 0 &&
                  s[1].inputs[2].kind == KILN_INPUT_DEPTH && s[1].inputs[2].index == 1 &&
                  s[1].inputs[2].depth_read == KILN_DEPTH_READ_COMPARE && s[1].inputs[3].kind == KILN_INPUT_DEPTH &&
                  s[1].inputs[3].depth_read == KILN_DEPTH_READ_TEXEL && s[2].input_count == 0;
    bool outputs = s[0].output.kind == KILN_OUTPUT_TRANSIENT && s[0].output.index == 1 &&
                   s[1].output.kind == KILN_OUTPUT_BINDING && s[1].output.index == 0 &&
                   s[2].output.kind == KILN_OUTPUT_NONE;
    bool blends = s[0].blend == KILN_PROGRAM_BLEND_ALPHA && s[1].blend == KILN_PROGRAM_BLEND_REPLACE &&
                  s[2].blend == KILN_PROGRAM_BLEND_ADDITIVE;
    const kiln_draw_sets_spec *ds = &s[3].draw_sets;
    bool compute = !s[4].compute.from_output && s[4].compute.x == 2 && s[4].compute.y == 3 && s[4].compute.z == 1 &&
                   s[4].buffer_count == 1 && s[4].buffers[0].write && s[2].draw.args_buffer == 0 &&
                   s[2].draw.args_offset == 4;
    bool sets = strcmp(ds->vertex_entry_point, "vs_placed") == 0 && ds->vertex_layout.attribute_count == 1 &&
                ds->instance_layout.attribute_count == 2 && ds->instance_layout.attributes[1].location == 5 &&
                ds->instance_layout.attributes[1].format == KILN_VERTEX_UNORM8X4 && ds->list == 0 &&
                ds->cull == KILN_CULL_BACK && ds->depth && ds->depth_slot == 0 && ds->depth_write == KILN_DEPTH_WRITE &&
                ds->load == KILN_LOAD_CLEAR;
    bool draw = strcmp(s[1].draw.vertex_entry_point, "vs") == 0 && s[1].draw.geometry == 0 && s[1].draw.depth &&
                s[1].draw.depth_slot == 1 && s[1].draw.load == KILN_LOAD_LOAD;
    bool windows = s[0].uniform_offset == 4 && s[0].uniform_length == 8 && strcmp(s[0].entry_point, "a") == 0;
    bool repeats = s[0].repeat_count == 0 && s[1].repeat_count == 4 && s[1].repeat_uniform_stride == 16 &&
                   s[2].repeat_count == 0;
    kiln_json_program_free(&p);
    json_decref(msg);
    CHECK(stages);
    CHECK(draw);
    CHECK(sets);
    CHECK(compute);
    CHECK(inputs);
    CHECK(outputs);
    CHECK(blends);
    CHECK(windows);
    CHECK(repeats);
}

TEST(every_texture_format_usage_and_sampling_form_decodes) {
    for (int f = 0; f < KILN_FORMAT_COUNT; f++) {
        char text[256];
        snprintf(text, sizeof text,
                 "{\"kind\": \"create_texture\", \"format\": \"%s\", \"width\": 3, \"height\": 2, \"usage\": \"%s\","
                 " \"sampling\": \"%s\"}",
                 kiln_texture_format_name((kiln_texture_format)f), f % 2 ? "Sampled" : "Writable",
                 f % 2 ? "Nearest" : "Linear");
        json_t *msg = parse(text);
        kiln_json_texture t;
        kiln_json_error err = {0};
        bool ok = kiln_json_decode_create_texture(msg, &t, &err);
        json_decref(msg);
        CHECK_MSG(ok, "%s", err.message);
        CHECK_EQ_INT(t.desc.format, f);
        CHECK(t.desc.width == 3 && t.desc.height == 2 && t.desc.pixels == NULL);
        CHECK_EQ_INT(t.desc.usage, f % 2 ? KILN_USAGE_SAMPLED : KILN_USAGE_WRITABLE);
        CHECK_EQ_INT(t.desc.sampling, f % 2 ? KILN_SAMPLING_NEAREST : KILN_SAMPLING_LINEAR);
        kiln_json_texture_free(&t);
    }
}

/* The spec's example message, exactly as written (it decodes; register judges its graph). */
static const char SPEC_REGISTER[] =
    "{\"kind\": \"program.register\", \"wgsl\": \"...\", \"bindings\": [{\"format\": \"Rgba8\", \"shape\": "
    "{\"Target\": \"Full\"}, \"sampling\": {\"Filtered\": {\"wrap\": \"Clamp\", \"mips\": \"Base\"}}}], "
    "\"transients\": [{\"format\": \"R16Float\", \"extent\": \"Full\", \"samples\": \"One\"}], \"geometries\": [], "
    "\"depth_transients\": [], \"passes\": [{\"stage\": \"Fragment\", \"entry_point\": \"fs_main\", \"inputs\": "
    "[{\"Binding\": {\"index\": 0}}, {\"Transient\": {\"index\": 0}}, {\"PassOutput\": {\"pass\": 0}}], "
    "\"output\": {\"Binding\": {\"index\": 1}}, \"blend\": \"Replace\", \"uniform_offset\": 0, "
    "\"uniform_length\": 16, \"repeat\": null}]}";

TEST(spec_example_register_message_decodes) {
    kiln_json_error err = {0};
    CHECK_MSG(decode_text(SPEC_REGISTER, &err), "%s", err.message);
}

/* One row: a message, and the exact class and error decoding it refuses it with. Ids: "decode-N". */
typedef struct refusal_case {
    const char *id;
    const char *message;
    const char *cls;
    const char *error;
} refusal_case;

#define PASS(stage, inputs, output)                                                                              \
    "{\"stage\": " stage ", \"entry_point\": \"f\", \"inputs\": " inputs ", \"output\": " output                  \
    ", \"blend\": \"Replace\", \"uniform_offset\": 0, \"uniform_length\": 0}"
#define OK_PASS PASS("\"Fragment\"", "[]", "{\"Binding\": {\"index\": 0}}")
#define REGISTER(passes) "{\"kind\": \"program.register\", \"wgsl\": \"\", \"bindings\": [], \"transients\": [], "  \
    "\"geometries\": [], \"depth_transients\": [], \"passes\": " passes "}"
#define REGISTER_BINDING(binding) "{\"kind\": \"program.register\", \"wgsl\": \"\", \"bindings\": [" binding "], " \
    "\"transients\": [], \"geometries\": [], \"depth_transients\": [], \"passes\": []}"
#define DISPATCH(tail) "{\"kind\": \"program.dispatch\", \"program_id\": 1, \"bindings\": [1], " tail "}"

static const refusal_case REFUSALS[] = {
    {"decode-1", REGISTER("[" OK_PASS "," OK_PASS "," PASS("\"Fragment\"", "[{\"Bindng\": {\"index\": 0}}]",
                                               "{\"Binding\": {\"index\": 0}}") "]"),
     "bad_message", "passes[2].inputs[0]: unknown input form \"Bindng\""},
    {"decode-2",
     "{\"kind\": \"program.register\", \"wgsl\": \"\", \"bindings\": [], \"transients\": [], \"depth_transients\": "
     "[], \"passes\": []}",
     "bad_message", "geometries: missing required field"},
    {"decode-3",
     "{\"kind\": \"program.register\", \"wgsl\": \"\", \"bindings\": [], \"transients\": [], \"geometries\": [], "
     "\"passes\": []}",
     "bad_message", "depth_transients: missing required field"},
    {"decode-4", DISPATCH("\"geometries\": [], \"uniforms\": []"), "bad_message", "draw_sets: missing required field"},
    {"decode-5", DISPATCH("\"draw_sets\": [], \"uniforms\": []"), "bad_message", "geometries: missing required field"},
    {"decode-6", DISPATCH("\"geometries\": [], \"draw_sets\": []"), "bad_message", "uniforms: missing required field"},
    {"decode-7", DISPATCH("\"geometries\": [], \"draw_sets\": [7], \"uniforms\": []"), "bad_message",
     "draw_sets[0]: expected an array, got an integer"},
    {"decode-8", DISPATCH("\"geometries\": [\"3\"], \"draw_sets\": [], \"uniforms\": []"), "bad_message",
     "geometries[0]: expected an unsigned 32-bit integer, got a string"},
    {"decode-9",
     "{\"kind\": \"program.dispatch\", \"program_id\": -1, \"bindings\": [], \"geometries\": [], \"draw_sets\": [],"
     " \"uniforms\": []}",
     "bad_message", "program_id: expected an unsigned 32-bit integer, got -1"},
    {"decode-10", DISPATCH("\"geometries\": [], \"draw_sets\": [], \"uniforms\": [1, 2, 256]"), "bad_message",
     "uniforms[2]: expected a byte 0..255, got 256"},
    {"decode-11", DISPATCH("\"geometries\": [], \"draw_sets\": [], \"uniforms\": [1, 2.5]"), "bad_message",
     "uniforms[1]: expected a byte 0..255, got a real number"},
    {"decode-12", DISPATCH("\"geometries\": [], \"draw_sets\": [], \"uniforms\": {\"bytes\": []}"), "bad_message",
     "uniforms: expected a blob (an array of bytes 0..255 or a base64 string), got an object"},
    {"decode-13", DISPATCH("\"geometries\": [], \"draw_sets\": [], \"uniforms\": \"AAA!\""), "bad_message",
     "uniforms: invalid base64 character '!' at offset 3"},
    {"decode-14", DISPATCH("\"geometries\": [], \"draw_sets\": [], \"uniforms\": \"AAAAA\""), "bad_message",
     "uniforms: base64 text of 5 characters is not a whole number of bytes"},
    {"decode-15", "{\"kind\": \"create_texture\", \"format\": \"Rgba8\", \"width\": \"64\", \"height\": 64, \"usage\": "
     "\"Writable\", \"sampling\": \"Linear\"}",
     "bad_message", "width: expected an unsigned 32-bit integer, got a string"},
    {"decode-16",
     "{\"kind\": \"create_texture\", \"format\": \"Rgb8\", \"width\": 64, \"height\": 64, \"usage\": \"Writable\", "
     "\"sampling\": \"Linear\"}",
     "bad_message", "format: unknown format \"Rgb8\""},
    {"decode-17",
     "{\"kind\": \"create_texture\", \"format\": \"Rgba8\", \"width\": 64, \"height\": 64, \"usage\": \"Written\", "
     "\"sampling\": \"Linear\"}",
     "bad_message", "usage: unknown usage form \"Written\""},
    {"decode-18",
     "{\"kind\": \"create_texture\", \"format\": \"Rgba8\", \"width\": 64, \"height\": 64, \"usage\": \"Writable\", "
     "\"sampling\": \"Linear\", \"pixels\": true}",
     "bad_message", "pixels: expected a blob (an array of bytes 0..255 or a base64 string), got a boolean"},
    {"decode-19",
     REGISTER_BINDING("{\"format\": \"Rgba8\", \"shape\": {\"Tarjet\": \"Full\"}, \"sampling\": \"Texel\"}"),
     "bad_message", "bindings[0].shape: unknown shape form \"Tarjet\""},
    {"decode-20",
     REGISTER_BINDING("{\"format\": \"Rgba8\", \"shape\": \"Target\", \"sampling\": \"Texel\"}"), "bad_message",
     "bindings[0].shape: the shape form \"Target\" takes a payload: {\"Target\": ...}"},
    {"decode-21", REGISTER_BINDING("{\"format\": \"Rgba8\", \"shape\": {\"Texture\": {}}, \"sampling\": \"Texel\"}"),
     "bad_message", "bindings[0].shape: the shape form \"Texture\" is written as the string \"Texture\""},
    {"decode-22",
     REGISTER_BINDING("{\"format\": \"Rgba8\", \"shape\": {\"Target\": {\"Divided\": {}}}, \"sampling\": \"Texel\"}"),
     "bad_message", "bindings[0].shape.Target.Divided.divisor: missing required field"},
    {"decode-23",
     REGISTER_BINDING("{\"format\": \"Rgba8\", \"shape\": {\"Target\": \"Half\"}, \"sampling\": \"Texel\"}"),
     "bad_message", "bindings[0].shape.Target: unknown extent form \"Half\""},
    {"decode-24",
     REGISTER_BINDING("{\"format\": \"Rgba8\", \"shape\": \"Texture\", \"sampling\": {\"Filtered\": {\"wrap\": "
                      "\"Mirror\", \"mips\": \"Base\"}}}"),
     "bad_message", "bindings[0].sampling.Filtered.wrap: unknown wrap form \"Mirror\""},
    {"decode-25",
     REGISTER_BINDING("{\"format\": \"Rgba8\", \"shape\": \"Texture\", \"sampling\": {\"Filtered\": {\"wrap\": "
                      "\"Clamp\"}}}"),
     "bad_message", "bindings[0].sampling.Filtered.mips: missing required field"},
    {"decode-26",
     REGISTER_BINDING("{\"format\": \"Rgba8\", \"shape\": \"Texture\", \"sampling\": {\"Texel\": 1, \"Filtered\": "
                      "2}}"),
     "bad_message", "bindings[0].sampling: sampling form is an object of exactly one key, got 2 keys"},
    {"decode-27", REGISTER_BINDING("{\"format\": \"Rgba8\", \"shape\": \"Texture\", \"sampling\": 3}"), "bad_message",
     "bindings[0].sampling: expected sampling form (a string or an object of one key), got an integer"},
    {"decode-28", REGISTER_BINDING("{\"format\": \"Rgba8\", \"shape\": \"Texture\"}"), "bad_message",
     "bindings[0].sampling: missing required field"},
    {"decode-29", REGISTER_BINDING("7"), "bad_message", "bindings[0]: expected an object, got an integer"},
    {"decode-30",
     "{\"kind\": \"program.register\", \"wgsl\": \"\", \"bindings\": [], \"transients\": [{\"format\": \"R8\", "
     "\"extent\": \"Full\", \"samples\": \"Two\"}], \"geometries\": [], \"depth_transients\": [], \"passes\": []}",
     "bad_message", "transients[0].samples: unknown samples form \"Two\""},
    {"decode-31", REGISTER("[" PASS("\"Vertex\"", "[]", "\"None\"") "]"), "bad_message",
     "passes[0].stage: unknown stage form \"Vertex\""},
    {"decode-32", REGISTER("[" PASS("{\"Draw\": 1}", "[]", "\"None\"") "]"), "bad_message",
     "passes[0].stage.Draw: expected an object, got an integer"},
    {"decode-33", REGISTER("[" PASS("\"Fragment\"", "[]", "{\"Output\": {\"index\": 0}}") "]"), "bad_message",
     "passes[0].output: unknown output form \"Output\""},
    {"decode-34", REGISTER("[" PASS("\"Fragment\"", "[]", "{\"Binding\": {}}") "]"), "bad_message",
     "passes[0].output.Binding.index: missing required field"},
    {"decode-35",
     REGISTER("[" PASS("\"Fragment\"", "[{\"PassOutput\": {\"index\": 0}}]", "\"None\"") "]"), "bad_message",
     "passes[0].inputs[0].PassOutput.pass: missing required field"},
    {"decode-36",
     REGISTER("[" PASS("\"Fragment\"", "[{\"Depth\": {\"index\": 0, \"read\": \"Linear\"}}]", "\"None\"") "]"),
     "bad_message", "passes[0].inputs[0].Depth.read: unknown depth read form \"Linear\""},
    {"decode-37", REGISTER("[" PASS("\"Fragment\"", "[\"Binding\"]", "\"None\"") "]"), "bad_message",
     "passes[0].inputs[0]: the input form \"Binding\" takes a payload: {\"Binding\": ...}"},
    {"decode-38", REGISTER("[" PASS("\"Fragment\"",
                       "[{\"Binding\": {\"index\": 0}}, {\"Binding\": {\"index\": 0}}, {\"Binding\": {\"index\": 0}}, "
                       "{\"Binding\": {\"index\": 0}}, {\"Binding\": {\"index\": 0}}, {\"Binding\": {\"index\": 0}}, "
                       "{\"Binding\": {\"index\": 0}}, {\"Binding\": {\"index\": 0}}, {\"Binding\": {\"index\": 0}}]",
                       "\"None\"") "]"),
     "bad_message", "passes[0].inputs: at most 8 inputs, got 9"},
    {"decode-39",
     REGISTER("[{\"stage\": \"Fragment\", \"entry_point\": \"f\", \"inputs\": [], \"output\": \"None\", \"blend\": "
              "\"Over\", \"uniform_offset\": 0, \"uniform_length\": 0}]"),
     "bad_message", "passes[0].blend: unknown blend form \"Over\""},
    {"decode-40",
     REGISTER("[{\"stage\": \"Fragment\", \"entry_point\": 5, \"inputs\": [], \"output\": \"None\", \"blend\": "
              "\"Replace\", \"uniform_offset\": 0, \"uniform_length\": 0}]"),
     "bad_message", "passes[0].entry_point: expected a string, got an integer"},
    {"decode-41",
     REGISTER("[{\"stage\": \"Fragment\", \"entry_point\": \"f\", \"inputs\": [], \"output\": \"None\", \"blend\": "
              "\"Replace\", \"uniform_offset\": 0}]"),
     "bad_message", "passes[0].uniform_length: missing required field"},
    {"decode-42",
     REGISTER("[{\"stage\": \"Fragment\", \"entry_point\": \"f\", \"inputs\": [], \"output\": \"None\", \"blend\": "
              "\"Replace\", \"uniform_offset\": 0, \"uniform_length\": 0, \"repeat\": {\"count\": 2}}]"),
     "bad_message", "passes[0].repeat.uniform_stride: missing required field"},
    {"decode-43",
     REGISTER("[" OK_PASS ", {\"stage\": \"Fragment\", \"entry_point\": \"f\", \"inputs\": [], \"output\": \"None\","
              " \"blend\": \"Replace\", \"uniform_offset\": 0, \"uniform_length\": 0, \"repeat\": {\"count\": 0, "
              "\"uniform_stride\": 16}}]"),
     "bad_repeat", "pass 1: repeat count 0 is outside 1..4096"},
    {"decode-44", "{\"kind\": \"program.regster\"}", "bad_message", "kind: unknown kind \"program.regster\""},
    {"decode-45", "{\"program_id\": 1}", "bad_message", "kind: missing required field"},
    {"decode-46", "{\"kind\": 4}", "bad_message", "kind: expected a string, got an integer"},
    {"decode-47", "[{\"kind\": \"frame\"}]", "bad_message", "message: expected an object, got an array"},
    {"decode-48", "{\"kind\": \"frame\",\n  \"texture_id\": }", "malformed_json",
     "line 2, column 17: unexpected token near '}'"},
};

/* Runs every row, printing each one that differs by its id. */
typedef bool (*refuser)(void *ctx, const char *message, kiln_json_error *err);

static int failed_refusals(const refusal_case *rows, size_t count, refuser refuse, void *ctx) {
    int failures = 0;
    for (size_t i = 0; i < count; i++) {
        const refusal_case *r = &rows[i];
        kiln_json_error err = {0};
        bool refused = refuse(ctx, r->message, &err);
        if (refused && strcmp(err.cls, r->cls) == 0 && strcmp(err.message, r->error) == 0) continue;
        fprintf(stderr, "%s: %s %s \"%s\"\n  expected %s \"%s\"\n", r->id, refused ? "refused" : "accepted", err.cls,
                err.message, r->cls, r->error);
        failures++;
    }
    return failures;
}

static bool decode_refuses(void *ctx, const char *message, kiln_json_error *err) {
    (void)ctx;
    return !decode_text(message, err);
}

TEST(each_refusal_names_its_field_path) {
    int failures = failed_refusals(REFUSALS, sizeof REFUSALS / sizeof REFUSALS[0], decode_refuses, NULL);
    CHECK_MSG(failures == 0, "%d of %zu rows failed", failures, sizeof REFUSALS / sizeof REFUSALS[0]);
}

/* #12 class 8: API misuse is a reply, never a NULL dereference. */
TEST(handle_without_a_runtime_or_message_replies_bad_message) {
    static const struct {
        const char *message;
        size_t length;
        const char *reply;
    } cases[] = {
        {"{\"kind\": \"frame\"}", 17,
         "{\"Err\":{\"class\":\"bad_message\",\"error\":\"no runtime: kiln_json_runtime_handle was given NULL\"}}"},
        {NULL, 0, "{\"Err\":{\"class\":\"bad_message\",\"error\":\"no runtime: kiln_json_runtime_handle was given NULL\"}}"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *reply = kiln_json_runtime_handle(NULL, cases[i].message, cases[i].length);
        CHECK_MSG(reply && strcmp(reply, cases[i].reply) == 0, "case %zu: %s", i, reply ? reply : "(NULL)");
        free(reply);
    }
}

TEST(malformed_json_gives_line_and_column) {
    /* Exact line and column: row decode-48 of the refusals. */
    kiln_json_error err = {0};
    CHECK(!decode_text("", &err));
    CHECK_EQ_INT(strcmp(err.cls, "malformed_json"), 0);
    CHECK_MSG(strncmp(err.message, "line 1, column 0: ", 18) == 0, "%s", err.message);
}

TEST(duplicate_keys_are_malformed_json) {
    kiln_json_error err = {0};
    CHECK(!decode_text("{\"kind\": \"frame\", \"kind\": \"logs\"}", &err));
    CHECK_EQ_INT(strcmp(err.cls, "malformed_json"), 0);
    CHECK_STR_CONTAINS(err.message, "duplicate object key");
}

static bool blob_of(const char *json_text, kiln_json_blob *out, kiln_json_error *err) {
    json_t *v = json_loads(json_text, JSON_DECODE_ANY, NULL);
    bool ok = v && kiln_json_decode_blob(v, "b", out, err);
    json_decref(v);
    return ok;
}

TEST(base64_and_byte_array_blobs_agree) {
    uint8_t bytes[7] = {0, 255, 16, 128, 7, 200, 63};
    for (size_t n = 0; n <= sizeof bytes; n++) {
        char *b64 = kiln_json_base64_encode(bytes, n);
        CHECK(b64);
        char padded[64], unpadded[64], array[128] = "[";
        snprintf(padded, sizeof padded, "\"%s\"", b64);
        snprintf(unpadded, sizeof unpadded, "\"%.*s\"", (int)strcspn(b64, "="), b64);
        free(b64);
        for (size_t i = 0; i < n; i++)
            snprintf(array + strlen(array), sizeof array - strlen(array), "%s%u", i ? "," : "", bytes[i]);
        strcat(array, "]");
        const char *forms[] = {padded, unpadded, array};
        for (int f = 0; f < 3; f++) {
            kiln_json_blob blob;
            kiln_json_error err = {0};
            CHECK_MSG(blob_of(forms[f], &blob, &err), "%s: %s", forms[f], err.message);
            bool same = blob.size == n && (n == 0 || memcmp(blob.bytes, bytes, n) == 0);
            kiln_json_blob_free(&blob);
            CHECK_MSG(same, "%s decoded to other bytes", forms[f]);
        }
    }
}

TEST(base64_decodes_the_standard_alphabet) {
    kiln_json_blob blob;
    kiln_json_error err = {0};
    CHECK(blob_of("\"aGVsbG/7774=\"", &blob, &err));
    bool same = blob.size == 8 && memcmp(blob.bytes, "hello\xfb\xef\xbe", 8) == 0;
    kiln_json_blob_free(&blob);
    CHECK(same);
    char *text = kiln_json_base64_encode("hello", 5);
    CHECK(text);
    bool encoded = strcmp(text, "aGVsbG8=") == 0;
    free(text);
    CHECK(encoded);
}

TEST(describe_kinds_lists_every_kind_with_its_fields) {
    static const char *const expected[] = {"create_texture", "update_texture", "destroy_texture", "read_texture",
                                           "create_texture_array", "write_texture_layer", "create_texture_volume",
                                           "create_geometry", "update_geometry", "destroy_geometry",
                                           "create_instances", "update_instances", "destroy_instances",
                                           "create_draw_set", "update_draw_set", "destroy_draw_set",
                                           "program.register", "program.dispatch", "program.destroy",
                                           "program.timings", "logs", "describe_kinds", "frame"};
    size_t n = sizeof expected / sizeof expected[0];
    CHECK_EQ_INT(kiln_json_kind_count(), n);
    json_t *schema = kiln_json_describe_kinds(NULL);
    CHECK(schema);
    json_t *kinds = json_object_get(schema, "kinds");
    bool listed = json_array_size(kinds) == n;
    for (size_t i = 0; listed && i < n; i++) {
        json_t *k = json_array_get(kinds, i);
        listed = strcmp(json_string_value(json_object_get(k, "kind")), expected[i]) == 0 &&
                 json_is_array(json_object_get(k, "fields")) && json_is_string(json_object_get(k, "reply"));
    }
    /* The dispatch's draw-pass lists are required; a register's repeat is optional. */
    size_t dispatch_at = 0;
    while (dispatch_at < n && strcmp(expected[dispatch_at], "program.dispatch") != 0) dispatch_at++;
    json_t *dispatch = json_object_get(json_array_get(kinds, dispatch_at), "fields");
    json_t *draw_sets = json_array_get(dispatch, 3);
    bool required = strcmp(json_string_value(json_object_get(draw_sets, "name")), "draw_sets") == 0 &&
                    json_is_true(json_object_get(draw_sets, "required"));
    json_decref(schema);
    CHECK(listed);
    CHECK(required);
}

TEST(describe_kinds_lists_every_enum_form) {
    json_t *schema = kiln_json_describe_kinds("program.");
    CHECK(schema);
    json_t *types = json_object_get(schema, "types");
    char forms[512] = "";
    static const char *const listed[] = {"InputSlot", "TextureFormat", "PassStage"};
    for (size_t t = 0; t < 3; t++) {
        json_t *form;
        size_t i;
        json_array_foreach(json_object_get(json_object_get(types, listed[t]), "forms"), i, form) {
            const char *name = json_string_value(json_object_get(form, "name"));
            snprintf(forms + strlen(forms), sizeof forms - strlen(forms), "%s ", name);
        }
    }
    size_t program_kinds = json_array_size(json_object_get(schema, "kinds"));
    json_decref(schema);
    CHECK_MSG(strcmp(forms, "Binding Transient PassOutput Depth Rgba8 R8 R32Float R16Float Rgba16Float Rgba8Srgb Fragment Draw "
                            "DrawIndexedIndirect DrawSets Compute ") == 0,
              "%s", forms);
    CHECK_EQ_INT(program_kinds, 4);
}

/* Every prefix of the example messages, and each with any one character replaced by JSON
 * punctuation or a digit, either decodes or is refused with a class and a message (under the
 * sanitizer build this is the parser's fuzz pass). */
TEST(mutated_messages_decode_or_are_refused_with_a_reason) {
    static const char *const messages[] = {
        EVERY_FORM, SPEC_REGISTER,
        DISPATCH("\"geometries\": [2], \"draw_sets\": [[1, 2], []], \"uniforms\": \"AAECAw==\""),
        "{\"kind\": \"create_texture\", \"format\": \"R8\", \"width\": 1, \"height\": 2, \"usage\": \"Sampled\", "
        "\"sampling\": \"Linear\", \"pixels\": [1, 2]}"};
    static const char replacements[] = "\"{}[],:0-x =";
    static char text[4096];
    for (size_t m = 0; m < sizeof messages / sizeof messages[0]; m++) {
        size_t length = strlen(messages[m]);
        CHECK(length < sizeof text);
        for (size_t i = 0; i <= length; i++) {
            for (size_t r = 0; r <= sizeof replacements - 1; r++) {
                memcpy(text, messages[m], length + 1);
                if (r == sizeof replacements - 1) text[i] = '\0';   /* the prefix of i characters */
                else if (i < length) text[i] = replacements[r];
                else continue;
                kiln_json_error err = {0};
                bool ok = decode_text(text, &err);
                CHECK_MSG(ok || (err.cls[0] && err.message[0]), "message %zu, char %zu -> '%c'", m, i, text[i]);
            }
        }
    }
}

/* ---- the runtime ------------------------------------------------------------------------------ */

typedef struct surface_env {
    gfx_fixture f;
    kiln_json_runtime *rt;
} surface_env;

#define ENV_OPEN(e)                                                                     \
    do {                                                                                \
        FIXTURE_OPEN((e).f);                                                            \
        kiln_error _err = {0};                                                          \
        (e).rt = kiln_json_runtime_create((e).f.gfx, (e).f.res, &_err);                 \
        CHECK_MSG((e).rt != NULL, "%s", _err.message);                                  \
    } while (0)

#define ENV_CLOSE_CLEAN(e)                                                              \
    do {                                                                                \
        kiln_json_runtime_destroy((e).rt);                                              \
        FIXTURE_CLOSE_CLEAN((e).f);                                                     \
    } while (0)

/* Sends a message and returns its parsed reply (a new reference). */
static json_t *send(kiln_json_runtime *rt, const char *message) {
    char *text = kiln_json_runtime_handle(rt, message, strlen(message));
    json_t *reply = text ? json_loads(text, 0, NULL) : NULL;
    free(text);
    return reply;
}

static const char *err_class(const json_t *reply) {
    return json_string_value(json_object_get(json_object_get(reply, "Err"), "class"));
}

static const char *err_text(const json_t *reply) {
    return json_string_value(json_object_get(json_object_get(reply, "Err"), "error"));
}

static json_int_t ok_int(const json_t *reply, const char *key) {
    return json_integer_value(json_object_get(json_object_get(reply, "Ok"), key));
}

/* Sends a message expecting Ok; returns the reply's id field (or 1 when it has none). */
static json_int_t send_ok(kiln_json_runtime *rt, const char *message, const char *id_key) {
    json_t *reply = send(rt, message);
    json_int_t id = json_object_get(reply, "Ok") ? (id_key ? ok_int(reply, id_key) : 1) : 0;
    if (!id) fprintf(stderr, "  reply: %s: %s\n", err_class(reply), err_text(reply));
    json_decref(reply);
    return id;
}

/* One example message per kind, every required field present. */
static const struct {
    const char *kind;
    const char *message;
} EXAMPLES[] = {
    {"create_texture", "{\"kind\": \"create_texture\", \"format\": \"Rgba8\", \"width\": 2, \"height\": 2, \"usage\": "
                       "\"Writable\", \"sampling\": \"Linear\"}"},
    {"update_texture", "{\"kind\": \"update_texture\", \"texture_id\": 1, \"pixels\": []}"},
    {"destroy_texture", "{\"kind\": \"destroy_texture\", \"texture_id\": 1}"},
    {"read_texture", "{\"kind\": \"read_texture\", \"texture_id\": 1}"},
    {"create_texture_array", "{\"kind\": \"create_texture_array\", \"format\": \"Rgba8\", \"side\": 2, \"layers\": 2, "
                             "\"mips\": \"Base\"}"},
    {"write_texture_layer", "{\"kind\": \"write_texture_layer\", \"texture_id\": 1, \"layer\": 0, \"pixels\": []}"},
    {"create_texture_volume", "{\"kind\": \"create_texture_volume\", \"format\": \"R8\", \"width\": 1, \"height\": 1, "
                              "\"depth\": 1, \"pixels\": [0]}"},
    {"create_geometry", "{\"kind\": \"create_geometry\", \"layout\": [{\"location\": 0, \"format\": "
                        "\"Float32\"}], \"vertices\": [0, 0, 0, 0], \"indices\": [0,0,0,0, 0,0,0,0, 0,0,0,0]}"},
    {"update_geometry", "{\"kind\": \"update_geometry\", \"geometry_id\": 1, \"vertices\": [0, 0, 0, 0], "
                        "\"indices\": [0,0,0,0, 0,0,0,0, 0,0,0,0]}"},
    {"destroy_geometry", "{\"kind\": \"destroy_geometry\", \"geometry_id\": 1}"},
    {"create_instances", "{\"kind\": \"create_instances\", \"layout\": [{\"location\": 4, \"format\": \"Float32\"}], "
                         "\"capacity\": 2, \"records\": []}"},
    {"update_instances", "{\"kind\": \"update_instances\", \"instances_id\": 1, \"first\": 0, \"records\": []}"},
    {"destroy_instances", "{\"kind\": \"destroy_instances\", \"instances_id\": 1}"},
    {"create_draw_set", "{\"kind\": \"create_draw_set\", \"vertex_layout\": [{\"location\": 0, \"format\": "
                        "\"Float32\"}], \"instance_layout\": [{\"location\": 4, \"format\": \"Float32\"}], \"draws\": []}"},
    {"update_draw_set", "{\"kind\": \"update_draw_set\", \"draw_set_id\": 1, \"first\": 0, \"draws\": []}"},
    {"destroy_draw_set", "{\"kind\": \"destroy_draw_set\", \"draw_set_id\": 1}"},
    {"program.register", REGISTER("[]")},
    {"program.dispatch", DISPATCH("\"geometries\": [], \"draw_sets\": [], \"uniforms\": []")},
    {"program.destroy", "{\"kind\": \"program.destroy\", \"program_id\": 1}"},
    {"program.timings", "{\"kind\": \"program.timings\", \"program_id\": 1}"},
    {"logs", "{\"kind\": \"logs\"}"},
    {"describe_kinds", "{\"kind\": \"describe_kinds\"}"},
    {"frame", "{\"kind\": \"frame\"}"},
};

/* Walks describe_kinds: every kind has an example here, and the example without any one required
 * field is refused naming that field, so the schema and the decoders cannot drift apart. */
TEST(every_required_field_describe_kinds_lists_is_enforced) {
    surface_env e;
    ENV_OPEN(e);
    json_t *schema = kiln_json_describe_kinds(NULL);
    json_t *kind;
    size_t k;
    json_array_foreach(json_object_get(schema, "kinds"), k, kind) {
        const char *name = json_string_value(json_object_get(kind, "kind"));
        const char *example = NULL;
        for (size_t i = 0; i < sizeof EXAMPLES / sizeof EXAMPLES[0]; i++)
            if (strcmp(EXAMPLES[i].kind, name) == 0) example = EXAMPLES[i].message;
        CHECK_MSG(example, "no example for kind %s", name);
        json_t *field;
        size_t f;
        json_array_foreach(json_object_get(kind, "fields"), f, field) {
            if (!json_is_true(json_object_get(field, "required"))) continue;
            const char *field_name = json_string_value(json_object_get(field, "name"));
            json_t *msg = json_loads(example, 0, NULL);
            json_object_del(msg, field_name);
            char *text = json_dumps(msg, JSON_COMPACT);
            json_decref(msg);
            json_t *reply = send(e.rt, text);
            free(text);
            char expected[128];
            snprintf(expected, sizeof expected, "%s: missing required field", field_name);
            bool refused = err_class(reply) && strcmp(err_class(reply), "bad_message") == 0 &&
                           strcmp(err_text(reply), expected) == 0;
            json_decref(reply);
            CHECK_MSG(refused, "%s without %s", name, field_name);
        }
    }
    json_decref(schema);
    ENV_CLOSE_CLEAN(e);
}

TEST(every_described_kind_reaches_a_handler) {
    surface_env e;
    ENV_OPEN(e);
    for (uint32_t i = 0; i < kiln_json_kind_count(); i++) {
        char message[128];
        snprintf(message, sizeof message, "{\"kind\": \"%s\"}", kiln_json_kind_name(i));
        json_t *reply = send(e.rt, message);
        const char *text = err_text(reply);
        bool handled = reply && (!text || (!strstr(text, "unknown kind") && !strstr(text, "no handler")));
        json_decref(reply);
        CHECK_MSG(handled, "%s", kiln_json_kind_name(i));
    }
    ENV_CLOSE_CLEAN(e);
}

/* The end-to-end shader: pass 0 copies the input's red into an R16Float transient; pass 1 is the
 * spec's example pass (Binding 0, Transient 0, PassOutput 0 -> Binding 1, a 16-byte window). */
static const char E2E_WGSL[] =
    "struct Params { color: vec4<f32> }\\n"
    "@group(0) @binding(0) var<uniform> params: Params;\\n"
    "@group(1) @binding(0) var a: texture_2d<f32>;\\n"
    "@group(1) @binding(1) var a_s: sampler;\\n"
    "@group(1) @binding(2) var b: texture_2d<f32>;\\n"
    "@group(1) @binding(3) var b_s: sampler;\\n"
    "@group(1) @binding(4) var c: texture_2d<f32>;\\n"
    "@group(1) @binding(5) var c_s: sampler;\\n"
    "@fragment fn fs_red(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {\\n"
    "  return vec4<f32>(textureSample(a, a_s, uv).r, 0.0, 0.0, 1.0);\\n"
    "}\\n"
    "@fragment fn fs_main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {\\n"
    "  let src = textureSample(a, a_s, uv);\\n"
    "  let t = textureSample(b, b_s, uv).r;\\n"
    "  let p = textureSample(c, c_s, uv).r;\\n"
    "  return vec4<f32>(t, p * 0.5, params.color.b, src.a);\\n"
    "}\\n";

static const char E2E_REGISTER_HEAD[] =
    "{\"kind\": \"program.register\", \"wgsl\": \"%s\", \"bindings\": [{\"format\": \"Rgba8\", \"shape\": "
    "{\"Target\": \"Full\"}, \"sampling\": {\"Filtered\": {\"wrap\": \"Clamp\", \"mips\": \"Base\"}}}, "
    "{\"format\": \"Rgba8\", \"shape\": {\"Target\": \"Full\"}, \"sampling\": {\"Filtered\": {\"wrap\": "
    "\"Clamp\", \"mips\": \"Base\"}}}], \"transients\": [{\"format\": \"R16Float\", \"extent\": \"Full\", "
    "\"samples\": \"One\"}], \"geometries\": [], \"depth_transients\": [], \"passes\": ["
    "{\"stage\": \"Fragment\", \"entry_point\": \"fs_red\", \"inputs\": [{\"Binding\": {\"index\": 0}}], "
    "\"output\": {\"Transient\": {\"index\": 0}}, \"blend\": \"Replace\", \"uniform_offset\": 0, "
    "\"uniform_length\": 0, \"repeat\": null}, "
    "{\"stage\": \"Fragment\", \"entry_point\": \"fs_main\", \"inputs\": [{\"Binding\": {\"index\": 0}}, "
    "{\"Transient\": {\"index\": 0}}, {\"PassOutput\": {\"pass\": 0}}], \"output\": {\"Binding\": {\"index\": 1}}, "
    "\"blend\": \"Replace\", \"uniform_offset\": 0, \"uniform_length\": 16, \"repeat\": null}]}";

static json_int_t register_e2e(kiln_json_runtime *rt) {
    char message[8192];
    snprintf(message, sizeof message, E2E_REGISTER_HEAD, E2E_WGSL);
    return send_ok(rt, message, "program_id");
}

/* A 4x4 Rgba8 input of (200, 100, 50, 255) as base64, and a Writable output. */
static bool create_e2e_textures(kiln_json_runtime *rt, json_int_t *input, json_int_t *output) {
    uint8_t pixels[64];
    for (int i = 0; i < 16; i++) memcpy(pixels + 4 * i, (uint8_t[]){200, 100, 50, 255}, 4);
    char *b64 = kiln_json_base64_encode(pixels, sizeof pixels);
    char message[512];
    snprintf(message, sizeof message,
             "{\"kind\": \"create_texture\", \"format\": \"Rgba8\", \"width\": 4, \"height\": 4, \"usage\": "
             "\"Sampled\", \"sampling\": \"Linear\", \"pixels\": \"%s\"}",
             b64);
    free(b64);
    *input = send_ok(rt, message, "texture_id");
    *output = send_ok(rt,
                      "{\"kind\": \"create_texture\", \"format\": \"Rgba8\", \"width\": 4, \"height\": 4, \"usage\": "
                      "\"Writable\", \"sampling\": \"Linear\"}",
                      "texture_id");
    return *input && *output;
}

/* Reads a texture through read_texture; the pixels decoded into *out (malloc'd). */
static json_t *read_back(kiln_json_runtime *rt, json_int_t id, kiln_json_blob *out) {
    char message[128];
    snprintf(message, sizeof message, "{\"kind\": \"read_texture\", \"texture_id\": %lld}", (long long)id);
    json_t *reply = send(rt, message);
    json_t *pixels = json_object_get(json_object_get(reply, "Ok"), "pixels");
    *out = (kiln_json_blob){0};
    if (!pixels || !kiln_json_decode_blob(pixels, "pixels", out, NULL)) {
        fprintf(stderr, "  read_texture: %s\n", err_text(reply));
        json_decref(reply);
        return NULL;
    }
    return reply;
}

TEST(spec_forms_register_dispatch_and_read_back_a_program) {
    surface_env e;
    ENV_OPEN(e);
    json_int_t input, output;
    CHECK(create_e2e_textures(e.rt, &input, &output));
    CHECK_EQ_INT(input, 1);
    CHECK_EQ_INT(output, 2);
    CHECK_EQ_INT(register_e2e(e.rt), 1);
    /* uniforms: vec4(0, 0, 0.2, 0) as a byte array; 0.2f is 0x3e4ccccd. */
    CHECK(send_ok(e.rt,
                  "{\"kind\": \"program.dispatch\", \"program_id\": 1, \"bindings\": [1, 2], \"geometries\": [], "
                  "\"draw_sets\": [], \"uniforms\": [0,0,0,0, 0,0,0,0, 205,204,76,62, 0,0,0,0]}",
                  NULL));
    CHECK(send_ok(e.rt, "{\"kind\": \"frame\"}", NULL));
    kiln_json_blob px;
    json_t *reply = read_back(e.rt, output, &px);
    CHECK(reply);
    json_t *ok = json_object_get(reply, "Ok");
    bool header = ok_int(reply, "texture_id") == 2 && ok_int(reply, "width") == 4 && ok_int(reply, "height") == 4 &&
                  strcmp(json_string_value(json_object_get(ok, "format")), "Rgba8") == 0;
    json_decref(reply);
    bool near = px.size == 64;
    for (size_t i = 0; near && i < 16; i++)
        near = abs(px.bytes[4 * i] - 200) <= 1 && abs(px.bytes[4 * i + 1] - 100) <= 1 &&
               abs(px.bytes[4 * i + 2] - 51) <= 1 && px.bytes[4 * i + 3] == 255;
    if (!near && px.size >= 4)
        fprintf(stderr, "  texel 0: %u %u %u %u\n", px.bytes[0], px.bytes[1], px.bytes[2], px.bytes[3]);
    kiln_json_blob_free(&px);
    CHECK(header);
    CHECK(near);
    ENV_CLOSE_CLEAN(e);
}

TEST(read_texture_records_queued_dispatches_first) {
    surface_env e;
    ENV_OPEN(e);
    json_int_t input, output;
    CHECK(create_e2e_textures(e.rt, &input, &output));
    CHECK(register_e2e(e.rt));
    CHECK(send_ok(e.rt,
                  "{\"kind\": \"program.dispatch\", \"program_id\": 1, \"bindings\": [1, 2], \"geometries\": [], "
                  "\"draw_sets\": [], \"uniforms\": \"AAAAAAAAAAAAAIA/AAAAAA\"}",
                  NULL));
    kiln_json_blob px;
    json_t *reply = read_back(e.rt, output, &px);
    CHECK(reply);
    json_decref(reply);
    bool written = px.size == 64 && abs(px.bytes[0] - 200) <= 1 && px.bytes[2] == 255;
    kiln_json_blob_free(&px);
    CHECK(written);
    ENV_CLOSE_CLEAN(e);
}

/* #12 class 6: messages act in arrival order. A dispatch queued before an update_texture of its
 * input sees the input as it was when the dispatch arrived. */
TEST(a_dispatch_sees_its_input_as_it_was_when_the_dispatch_arrived) {
    surface_env e;
    ENV_OPEN(e);
    json_int_t input, output;
    CHECK(create_e2e_textures(e.rt, &input, &output));
    CHECK(register_e2e(e.rt));
    CHECK(send_ok(e.rt,
                  "{\"kind\": \"program.dispatch\", \"program_id\": 1, \"bindings\": [1, 2], \"geometries\": [], "
                  "\"draw_sets\": [], \"uniforms\": \"AAAAAAAAAAAAAIA/AAAAAA\"}",
                  NULL));
    /* The input turns red 10 after the dispatch: the output must still carry red 200. */
    uint8_t later[64];
    for (int i = 0; i < 16; i++) memcpy(later + 4 * i, (uint8_t[]){10, 10, 10, 255}, 4);
    char *b64 = kiln_json_base64_encode(later, sizeof later);
    char message[512];
    snprintf(message, sizeof message, "{\"kind\": \"update_texture\", \"texture_id\": 1, \"pixels\": \"%s\"}", b64);
    free(b64);
    CHECK(send_ok(e.rt, message, NULL));
    kiln_json_blob px;
    json_t *reply = read_back(e.rt, output, &px);
    CHECK(reply);
    json_decref(reply);
    int red = px.size == 64 ? px.bytes[0] : -1;
    kiln_json_blob_free(&px);
    ENV_CLOSE_CLEAN(e);
    CHECK_MSG(abs(red - 200) <= 1, "the dispatch saw the later update: red %d", red);
}

/* #12 class 6: a failure belongs to the dispatch that failed. A dispatch whose input vanished
 * under it (removed from the registry directly, past the JSON surface's ordering) fails the reads
 * of what it writes, not the read of a texture a successful dispatch wrote. */
TEST(a_failed_dispatch_fails_only_the_reads_of_what_it_writes) {
    surface_env e;
    ENV_OPEN(e);
    json_int_t input, output, other_input, other_output;
    CHECK(create_e2e_textures(e.rt, &input, &output));
    CHECK(create_e2e_textures(e.rt, &other_input, &other_output));
    CHECK(register_e2e(e.rt));
    char message[512];
    const json_int_t pairs[2][2] = {{input, output}, {other_input, other_output}};
    for (int i = 0; i < 2; i++) {
        snprintf(message, sizeof message,
                 "{\"kind\": \"program.dispatch\", \"program_id\": 1, \"bindings\": [%lld, %lld], \"geometries\": [], "
                 "\"draw_sets\": [], \"uniforms\": \"AAAAAAAAAAAAAIA/AAAAAA\"}",
                 (long long)pairs[i][0], (long long)pairs[i][1]);
        CHECK(send_ok(e.rt, message, NULL));
    }
    kiln_error err = {0};
    CHECK_MSG(kiln_texture_registry_remove(kiln_json_runtime_textures(e.rt), (uint32_t)other_input, &err), "%s", err.message);
    kiln_json_blob px;
    json_t *good = read_back(e.rt, output, &px);
    int red = good && px.size == 64 ? px.bytes[0] : -1;
    kiln_json_blob_free(&px);
    json_decref(good);
    snprintf(message, sizeof message, "{\"kind\": \"read_texture\", \"texture_id\": %lld}", (long long)other_output);
    json_t *bad = send(e.rt, message);
    char cls[64], text[512];
    snprintf(cls, sizeof cls, "%s", err_class(bad) ? err_class(bad) : "(none)");
    snprintf(text, sizeof text, "%s", err_text(bad) ? err_text(bad) : "");
    json_decref(bad);
    ENV_CLOSE_CLEAN(e);
    CHECK_MSG(abs(red - 200) <= 1, "the good output: red %d", red);
    CHECK_MSG(strcmp(cls, "frame_failed") == 0, "class %s", cls);
    CHECK_MSG(text[0] != '\0', "no reason given");
}

/* Device replacement through the JSON surface: the runtime recreated on a second device after the
 * first is lost keeps its program and texture ids, and the same dispatch paints the same pixels. */
TEST(the_json_runtime_recreated_after_device_loss_keeps_its_ids) {
    surface_env e, next;
    ENV_OPEN(e);
    FIXTURE_OPEN(next.f);
    json_int_t input, output;
    CHECK(create_e2e_textures(e.rt, &input, &output));
    CHECK(register_e2e(e.rt));
    static const char dispatch[] = "{\"kind\": \"program.dispatch\", \"program_id\": 1, \"bindings\": [1, 2], "
                                   "\"geometries\": [], \"draw_sets\": [], \"uniforms\": \"AAAAAAAAAAAAAIA/AAAAAA\"}";
    CHECK(send_ok(e.rt, dispatch, NULL));
    kiln_json_blob before = {0}, after = {0};
    json_t *reply = read_back(e.rt, output, &before);
    CHECK(reply);
    json_decref(reply);
    wgpuDeviceForceLoss(e.f.gfx->device, WGPUDeviceLostReason_Unknown, (WGPUStringView){"test loss", WGPU_STRLEN});
    kiln_gfx_pump(e.f.gfx, true);
    kiln_error err = {0};
    bool recreated = kiln_json_runtime_recreate(e.rt, next.f.gfx, next.f.res, &err);
    next.rt = e.rt;
    e.rt = NULL;
    bool dispatched = recreated && send_ok(next.rt, dispatch, NULL);
    reply = dispatched ? read_back(next.rt, output, &after) : NULL;
    bool same = reply && after.size == before.size && memcmp(after.bytes, before.bytes, before.size) == 0;
    json_decref(reply);
    kiln_json_blob_free(&before);
    kiln_json_blob_free(&after);
    fixture_close(&e.f);
    ENV_CLOSE_CLEAN(next);
    CHECK_MSG(recreated, "%s", err.message);
    CHECK(dispatched);
    CHECK(same);
}

/* Messages a fresh runtime refuses after decoding them, with the exact class and error of the Err
 * reply. Ids: "runtime-N". */
static const refusal_case RUNTIME_REFUSALS[] = {
    {"runtime-1", REGISTER("[]"), "empty_graph", "the program declares no passes"},
    {"runtime-2", REGISTER("[" PASS("{\"Compute\": {\"workgroups\": [1, 1, 1]}}", "[]", "{\"Binding\": {\"index\": 0}}") "]"),
     "compute_output", "pass 0: a compute pass must declare OutputSlot::None"},
    {"runtime-3", DISPATCH("\"geometries\": [], \"draw_sets\": [], \"uniforms\": []"), "unknown_program",
     "dropped dispatch of program 1 (unknown_program): program_id: program 1 is not registered"},
    {"runtime-4", "{\"kind\": \"program.destroy\", \"program_id\": 9}", "unknown_program",
     "program_id: unknown program 9"},
    {"runtime-5", "{\"kind\": \"program.timings\", \"program_id\": 7}", "unknown_program",
     "program_id: unknown program 7"},
    {"runtime-6", "{\"kind\": \"destroy_texture\", \"texture_id\": 9}", "unknown_texture", "texture_id: unknown texture 9"},
    {"runtime-7", "{\"kind\": \"update_texture\", \"texture_id\": 1, \"pixels\": []}", "unknown_texture",
     "texture_id: unknown texture 1"},
    {"runtime-8", "{\"kind\": \"read_texture\", \"texture_id\": 1}", "unknown_texture",
     "texture_id: unknown texture 1"},
    {"runtime-9", "{\"kind\": \"create_texture\", \"format\": \"Rgba8\", \"width\": 2, \"height\": 2, \"usage\": "
     "\"Writable\", \"sampling\": \"Linear\", \"pixels\": [1, 2, 3]}", "invalid_texture",
     "create_texture: pixels hold 3 bytes, expected 16 (2x2 Rgba8)"},
    {"runtime-10", "{\"kind\": \"create_texture\", \"format\": \"Rgba8\", \"width\": 2, \"height\": 2, \"usage\": "
     "\"Writable\", \"sampling\": \"Linear\", \"pixels\": [1, 2, 300]}", "bad_message",
     "pixels[2]: expected a byte 0..255, got 300"},
    {"runtime-11", "{\"kind\": \"describe_kinds\", \"prefix\": 5}", "bad_message", "prefix: expected a string"},
};

/* Sends the message; true when the reply is an Err, with its class and error in err. */
static bool runtime_refuses(void *rt, const char *message, kiln_json_error *err) {
    json_t *reply = send(rt, message);
    bool refused = err_class(reply) != NULL;
    if (refused) {
        snprintf(err->cls, sizeof err->cls, "%s", err_class(reply));
        snprintf(err->message, sizeof err->message, "%s", err_text(reply));
    }
    json_decref(reply);
    return refused;
}

/* The reply's compact text (the reply released), as kiln_json_runtime_handle writes it. */
static char *dumped(json_t *reply) {
    char *text = reply ? json_dumps(reply, JSON_COMPACT) : NULL;
    json_decref(reply);
    return text;
}

/* A host holding a parsed message (kiln-run) hands the value over and gets the reply its text
 * would get: every runtime refusal row, then an accepted create, byte for byte. */
TEST(a_parsed_message_gets_the_reply_its_text_gets) {
    surface_env e;
    ENV_OPEN(e);
    for (size_t i = 0; i < sizeof RUNTIME_REFUSALS / sizeof RUNTIME_REFUSALS[0]; i++) {
        const char *message = RUNTIME_REFUSALS[i].message;
        json_t *value = parse(message);
        char *from_value = dumped(kiln_json_runtime_handle_value(e.rt, value));
        char *from_text = kiln_json_runtime_handle(e.rt, message, strlen(message));
        CHECK_MSG(from_value && from_text && strcmp(from_value, from_text) == 0, "%s: %s vs %s",
                  RUNTIME_REFUSALS[i].id, from_value, from_text);
        free(from_value);
        free(from_text);
        json_decref(value);
    }
    json_t *create = parse(EXAMPLES[0].message);
    char *reply = dumped(kiln_json_runtime_handle_value(e.rt, create));
    CHECK_MSG(reply && strcmp(reply, "{\"Ok\":{\"texture_id\":1}}") == 0, "%s", reply);
    free(reply);
    json_decref(create);
    ENV_CLOSE_CLEAN(e);
}

TEST(a_parsed_message_without_a_runtime_object_or_kind_is_bad_message) {
    surface_env e;
    ENV_OPEN(e);
    json_t *frame = parse("{\"kind\": \"frame\"}"), *list = parse("[1]"), *unknown = parse("{\"kind\": \"paint\"}");
    static const char *const expected[] = {
        "{\"Err\":{\"class\":\"bad_message\",\"error\":\"no runtime: kiln_json_runtime_handle_value was given NULL\"}}",
        "{\"Err\":{\"class\":\"bad_message\",\"error\":\"message: expected an object, got nothing\"}}",
        "{\"Err\":{\"class\":\"bad_message\",\"error\":\"message: expected an object, got an array\"}}",
        "{\"Err\":{\"class\":\"bad_message\",\"error\":\"kind: unknown kind \\\"paint\\\"\"}}",
    };
    char *replies[] = {
        dumped(kiln_json_runtime_handle_value(NULL, frame)),
        dumped(kiln_json_runtime_handle_value(e.rt, NULL)),
        dumped(kiln_json_runtime_handle_value(e.rt, list)),
        dumped(kiln_json_runtime_handle_value(e.rt, unknown)),
    };
    for (size_t i = 0; i < sizeof replies / sizeof replies[0]; i++) {
        CHECK_MSG(replies[i] && strcmp(replies[i], expected[i]) == 0, "case %zu: %s", i, replies[i]);
        free(replies[i]);
    }
    json_decref(frame);
    json_decref(list);
    json_decref(unknown);
    ENV_CLOSE_CLEAN(e);
}

/* ...and none of the refusals consumed a texture or program id. */
TEST(runtime_refusals_reply_their_class_and_error) {
    surface_env e;
    ENV_OPEN(e);
    int failures =
        failed_refusals(RUNTIME_REFUSALS, sizeof RUNTIME_REFUSALS / sizeof RUNTIME_REFUSALS[0], runtime_refuses, e.rt);
    CHECK_MSG(failures == 0, "%d of %zu rows failed", failures, sizeof RUNTIME_REFUSALS / sizeof RUNTIME_REFUSALS[0]);
    CHECK_EQ_INT(kiln_texture_registry_next_id(kiln_json_runtime_textures(e.rt)), 1);
    CHECK_EQ_INT(register_e2e(e.rt), 1);
    ENV_CLOSE_CLEAN(e);
}

/* #12 class 4: a refusal quoting a long multi-byte name is cut at the message limit; the cut must
 * not split a character, or jansson refuses the reply and it turns into out_of_memory. */
TEST(error_text_cut_mid_character_still_replies_its_class) {
    surface_env e;
    ENV_OPEN(e);
    char message[2048] = "{\"kind\": \"";
    for (int i = 0; i < 600; i++) strcat(message, "\xC3\xA9"); /* 1200 bytes of e-acute */
    strcat(message, "\"}");
    json_t *reply = send(e.rt, message);
    char cls[64];
    snprintf(cls, sizeof cls, "%s", err_class(reply) ? err_class(reply) : "(no reply)");
    const char *text = err_text(reply);
    bool utf8 = text && kiln_utf8_check(text, strlen(text), NULL);
    /* "kind: unknown kind \"" is 20 bytes, so a cut at 511 would fall inside a character. */
    size_t length = text ? strlen(text) : 0;
    bool prefixed = text && strncmp(text, "kind: unknown kind \"\xC3\xA9\xC3\xA9", 24) == 0;
    json_decref(reply);
    ENV_CLOSE_CLEAN(e);
    CHECK_MSG(strcmp(cls, "bad_message") == 0, "class %s", cls);
    CHECK(utf8);
    CHECK(prefixed);
    CHECK_EQ_INT(length, 510);
}

TEST(dropped_dispatch_replies_its_class_and_the_logged_warning) {
    surface_env e;
    ENV_OPEN(e);
    json_t *reply = send(e.rt, DISPATCH("\"geometries\": [], \"draw_sets\": [], \"uniforms\": []"));
    CHECK(err_class(reply) && strcmp(err_class(reply), "unknown_program") == 0);
    char warning[600];
    snprintf(warning, sizeof warning, "%s", err_text(reply));
    json_decref(reply);
    reply = send(e.rt, "{\"kind\": \"logs\"}");
    json_t *records = json_object_get(json_object_get(reply, "Ok"), "records");
    json_t *last = json_array_get(records, json_array_size(records) - 1);
    bool logged = last && strcmp(json_string_value(json_object_get(last, "message")), warning) == 0 &&
                  strcmp(json_string_value(json_object_get(last, "level")), "warn") == 0;
    json_decref(reply);
    CHECK_MSG(logged, "warning \"%s\" not the last log record", warning);
    /* logs drains. */
    reply = send(e.rt, "{\"kind\": \"logs\"}");
    size_t left = json_array_size(json_object_get(json_object_get(reply, "Ok"), "records"));
    json_decref(reply);
    CHECK_EQ_INT(left, 0);
    ENV_CLOSE_CLEAN(e);
}

TEST(dispatch_naming_geometries_drops_with_geometry_count) {
    surface_env e;
    ENV_OPEN(e);
    json_int_t input, output;
    CHECK(create_e2e_textures(e.rt, &input, &output));
    CHECK(register_e2e(e.rt));
    json_t *reply = send(e.rt, "{\"kind\": \"program.dispatch\", \"program_id\": 1, \"bindings\": [1, 2], "
                               "\"geometries\": [5], \"draw_sets\": [], \"uniforms\": \"AAAAAAAAAAAAAAAAAAAAAA\"}");
    bool dropped = err_class(reply) && strcmp(err_class(reply), "geometry_count") == 0;
    json_decref(reply);
    /* The binding count is checked first (the spec's order), geometries or not. */
    reply = send(e.rt, "{\"kind\": \"program.dispatch\", \"program_id\": 1, \"bindings\": [1], "
                       "\"geometries\": [5], \"draw_sets\": [], \"uniforms\": \"AAAAAAAAAAAAAAAAAAAAAA\"}");
    bool binding_first = err_class(reply) && strcmp(err_class(reply), "binding_count") == 0;
    json_decref(reply);
    CHECK(dropped);
    CHECK(binding_first);
    ENV_CLOSE_CLEAN(e);
}

TEST(update_then_read_returns_the_exact_float_pixels) {
    surface_env e;
    ENV_OPEN(e);
    CHECK_EQ_INT(send_ok(e.rt, "{\"kind\": \"create_texture\", \"format\": \"R32Float\", \"width\": 2, \"height\": 1, "
                               "\"usage\": \"Sampled\", \"sampling\": \"Nearest\"}",
                         "texture_id"),
                 1);
    float values[2] = {-1.5f, 1e-7f};
    char *b64 = kiln_json_base64_encode(values, sizeof values);
    char message[256];
    snprintf(message, sizeof message, "{\"kind\": \"update_texture\", \"texture_id\": 1, \"pixels\": \"%s\"}", b64);
    free(b64);
    CHECK(send_ok(e.rt, message, NULL));
    kiln_json_blob px;
    json_t *reply = read_back(e.rt, 1, &px);
    CHECK(reply);
    json_decref(reply);
    bool exact = px.size == sizeof values && memcmp(px.bytes, values, sizeof values) == 0;
    kiln_json_blob_free(&px);
    CHECK(exact);
    ENV_CLOSE_CLEAN(e);
}

TEST(timings_have_one_row_per_pass) {
    surface_env e;
    ENV_OPEN(e);
    json_int_t input, output;
    CHECK(create_e2e_textures(e.rt, &input, &output));
    CHECK(register_e2e(e.rt));
    CHECK(send_ok(e.rt,
                  "{\"kind\": \"program.dispatch\", \"program_id\": 1, \"bindings\": [1, 2], \"geometries\": [], "
                  "\"draw_sets\": [], \"uniforms\": \"AAAAAAAAAAAAAAAAAAAAAA==\"}",
                  NULL));
    CHECK(send_ok(e.rt, "{\"kind\": \"frame\"}", NULL));
    json_t *reply = send(e.rt, "{\"kind\": \"program.timings\", \"program_id\": 1}");
    json_t *rows = json_object_get(json_object_get(reply, "Ok"), "rows");
    json_t *row = json_array_get(rows, 1);
    bool shaped = json_array_size(rows) == 2 &&
                  strcmp(json_string_value(json_object_get(row, "stage")), "Fragment") == 0 &&
                  json_integer_value(json_object_get(row, "width")) == 4 &&
                  json_integer_value(json_object_get(row, "height")) == 4 &&
                  json_is_number(json_object_get(row, "cpu_record_ns"));
    /* With timestamp queries the frame's GPU time comes back and is reported (it was always null
     * on this path: nothing folded the readbacks); without them gpu_ns is null. */
    json_t *gpu = json_object_get(row, "gpu_ns");
    bool timed = e.f.gfx->features.timestamp_query ? json_is_number(gpu) && json_number_value(gpu) >= 0.0 : json_is_null(gpu);
    json_decref(reply);
    CHECK(shaped);
    CHECK_MSG(timed, "gpu_ns with timestamp queries %s", e.f.gfx->features.timestamp_query ? "on" : "off");
    ENV_CLOSE_CLEAN(e);
}

/* A register message's "label" names the program in a register refusal and in a dispatch drop. */
TEST(the_label_names_the_program_in_register_and_dispatch_replies) {
    surface_env e;
    ENV_OPEN(e);
    char message[8192], labelled[8300];
    snprintf(message, sizeof message, E2E_REGISTER_HEAD, E2E_WGSL);
    const char *head = "{\"kind\": \"program.register\", ";
    CHECK(strncmp(message, head, strlen(head)) == 0);
    snprintf(labelled, sizeof labelled, "%s\"label\": \"blur\", %s", head, message + strlen(head));
    char *entry = strstr(labelled, "\"fs_red\"");
    CHECK(entry != NULL);
    memcpy(entry + 1, "fs_rod", 6); /* no such entry point */
    json_t *reply = send(e.rt, labelled);
    CHECK_STR_CONTAINS(err_class(reply), "missing_entry_point");
    CHECK_STR_CONTAINS(err_text(reply), "program \"blur\": pass 0: entry point 'fs_rod'");
    json_decref(reply);
    memcpy(entry + 1, "fs_red", 6);
    json_int_t id = send_ok(e.rt, labelled, "program_id");
    CHECK(id);
    snprintf(message, sizeof message, "{\"kind\": \"program.dispatch\", \"program_id\": %lld, \"bindings\": [1], "
             "\"geometries\": [], \"draw_sets\": [], \"uniforms\": []}", (long long)id);
    reply = send(e.rt, message);
    CHECK_STR_CONTAINS(err_class(reply), "binding_count");
    char want[96];
    snprintf(want, sizeof want, "dropped dispatch of program %lld \"blur\" (binding_count): ", (long long)id);
    CHECK_STR_CONTAINS(err_text(reply), want);
    json_decref(reply);
    ENV_CLOSE_CLEAN(e);
}


/* ---- geometry and draw passes over JSON ------------------------------------------------------- */

/* create_geometry with a Float32x3 layout: a quad over the left half at depth `z`, base64 blobs. */
static json_int_t create_half_quad(kiln_json_runtime *rt, float z, uint32_t bad_index) {
    const float v[12] = {-1, -1, z, 0, -1, z, 0, 1, z, -1, 1, z};
    const uint32_t i[6] = {0, 1, 2, 0, 2, bad_index};
    char *vb = kiln_json_base64_encode(v, sizeof v), *ib = kiln_json_base64_encode(i, sizeof i);
    char message[512];
    snprintf(message, sizeof message,
             "{\"kind\": \"create_geometry\", \"layout\": [{\"location\": 0, \"format\": \"Float32x3\"}], "
             "\"vertices\": \"%s\", \"indices\": \"%s\"}", vb, ib);
    free(vb);
    free(ib);
    json_t *reply = send(rt, message);
    json_int_t id = ok_int(reply, "geometry_id");
    if (!id) fprintf(stderr, "  create_geometry: %s: %s\n", err_class(reply), err_text(reply));
    json_decref(reply);
    return id;
}

/* The forms exactly: geometries with a layout, an Output Full depth transient, a Draw stage
 * naming it; a dispatch naming the geometry; then a destroy_geometry after the dispatch, which
 * records the queue first so the dispatch still draws. */
TEST(a_draw_program_runs_through_the_json_forms) {
    surface_env e;
    ENV_OPEN(e);
    json_int_t output = send_ok(e.rt,
                                "{\"kind\": \"create_texture\", \"format\": \"Rgba8\", \"width\": 4, \"height\": 4, "
                                "\"usage\": \"Writable\", \"sampling\": \"Linear\"}", "texture_id");
    json_int_t quad = create_half_quad(e.rt, 0.5f, 3);
    json_t *refused = send(e.rt, "{\"kind\": \"create_geometry\", \"layout\": [{\"location\": 0, \"format\": "
                                 "\"Float32x3\"}], \"vertices\": [0,0,0,0, 0,0,0,0, 0,0,0,0], \"indices\": "
                                 "[0,0,0,0, 0,0,0,0, 1,0,0,0]}");
    json_t *unknown_format = send(e.rt, "{\"kind\": \"create_geometry\", \"layout\": [{\"location\": 0, \"format\": "
                                        "\"Float64\"}], \"vertices\": [], \"indices\": []}");
    json_int_t program = send_ok(
        e.rt,
        "{\"kind\": \"program.register\", \"wgsl\": \"@vertex fn vs_main(@location(0) p: vec3<f32>) -> "
        "@builtin(position) vec4<f32> { return vec4<f32>(p, 1.0); }\\n@fragment fn fs_main() -> @location(0) "
        "vec4<f32> { return vec4<f32>(0.0, 1.0, 0.0, 1.0); }\", \"bindings\": [{\"format\": \"Rgba8\", \"shape\": "
        "{\"Target\": \"Full\"}, \"sampling\": \"Texel\"}], \"transients\": [], \"geometries\": [{\"layout\": "
        "[{\"location\": 0, \"format\": \"Float32x3\"}]}], \"depth_transients\": [{\"extent\": {\"Output\": "
        "\"Full\"}, \"samples\": \"One\"}], \"passes\": [{\"stage\": {\"Draw\": {\"vertex_entry_point\": "
        "\"vs_main\", \"geometry\": 0, \"depth\": 0, \"load\": \"Clear\"}}, \"entry_point\": \"fs_main\", "
        "\"inputs\": [], \"output\": {\"Binding\": {\"index\": 0}}, \"blend\": \"Replace\", \"uniform_offset\": 0, "
        "\"uniform_length\": 0, \"repeat\": null}]}",
        "program_id");
    json_t *unknown = send(e.rt, "{\"kind\": \"program.dispatch\", \"program_id\": 1, \"bindings\": [1], "
                                 "\"geometries\": [7], \"draw_sets\": [], \"uniforms\": []}");
    bool dispatched = send_ok(e.rt, "{\"kind\": \"program.dispatch\", \"program_id\": 1, \"bindings\": [1], "
                                    "\"geometries\": [1], \"draw_sets\": [], \"uniforms\": []}", NULL);
    bool destroyed = send_ok(e.rt, "{\"kind\": \"destroy_geometry\", \"geometry_id\": 1}", NULL);
    json_t *again = send(e.rt, "{\"kind\": \"destroy_geometry\", \"geometry_id\": 1}");
    kiln_json_blob px;
    json_t *reply = read_back(e.rt, output, &px);
    bool drawn = reply && px.size == 64;
    for (uint32_t t = 0; drawn && t < 16; t++) {
        static const uint8_t green[4] = {0, 255, 0, 255}, clear[4] = {0, 0, 0, 0};
        drawn = memcmp(px.bytes + 4 * t, t % 4 < 2 ? green : clear, 4) == 0;
    }
    char classes[256];
    snprintf(classes, sizeof classes, "%s %s %s %s", err_class(refused), err_class(unknown_format),
             err_class(unknown), err_class(again));
    char messages[768];
    snprintf(messages, sizeof messages, "%s | %s | %s", err_text(refused), err_text(unknown_format),
             err_text(unknown));
    json_decref(refused);
    json_decref(unknown_format);
    json_decref(unknown);
    json_decref(again);
    json_decref(reply);
    kiln_json_blob_free(&px);
    ENV_CLOSE_CLEAN(e);
    CHECK(output == 1 && quad == 1 && program == 1);
    CHECK(dispatched && destroyed && drawn);
    CHECK_MSG(strcmp(classes, "index_out_of_range bad_message unknown_geometry unknown_geometry") == 0, "%s", classes);
    CHECK_MSG(strcmp(messages, "indices[2]: 1 is past the last vertex (1 vertices) | layout[0].format: unknown vertex "
                               "format \"Float64\" | dropped dispatch of program 1 (unknown_geometry): pass 0 "
                               "(fs_main), geometry slot 0: unknown geometry id 7") == 0, "%s", messages);
}


/* The draw-set forms exactly as the issue writes them: create_instances, update_instances,
 * create_draw_set, update_draw_set, the spec's DrawSets stage, and a dispatch's "draw_sets". Two
 * instances of a half-width quad, one moved by update_instances, then a patch blanking one draw. */
TEST(a_draw_sets_program_runs_through_the_json_forms) {
    surface_env e;
    ENV_OPEN(e);
    json_int_t output = send_ok(e.rt,
                                "{\"kind\": \"create_texture\", \"format\": \"Rgba8\", \"width\": 4, \"height\": 2, "
                                "\"usage\": \"Writable\", \"sampling\": \"Linear\"}", "texture_id");
    json_int_t quad = create_half_quad(e.rt, 0.5f, 3);
    /* Two records of Float32x3 offset + Unorm8x4 colour: red at 0, green moved right later. */
    const float red_offset[3] = {0, 0, 0}, green_offset[3] = {0, 0, 0}, moved[3] = {1, 0, 0};
    uint8_t records[32], update[16];
    memcpy(records, red_offset, 12);
    memcpy(records + 12, (uint8_t[4]){255, 0, 0, 255}, 4);
    memcpy(records + 16, green_offset, 12);
    memcpy(records + 28, (uint8_t[4]){0, 255, 0, 255}, 4);
    memcpy(update, moved, 12);
    memcpy(update + 12, (uint8_t[4]){0, 255, 0, 255}, 4);
    char *rb = kiln_json_base64_encode(records, sizeof records), *ub = kiln_json_base64_encode(update, sizeof update);
    char message[1024];
    snprintf(message, sizeof message, "{\"kind\": \"create_instances\", \"layout\": [{\"location\": 4, \"format\": "
             "\"Float32x3\"}, {\"location\": 5, \"format\": \"Unorm8x4\"}], \"capacity\": 2, \"records\": \"%s\"}", rb);
    json_int_t instances = send_ok(e.rt, message, "instances_id");
    json_int_t set = send_ok(e.rt,
                             "{\"kind\": \"create_draw_set\", \"vertex_layout\": [{\"location\": 0, \"format\": "
                             "\"Float32x3\"}], \"instance_layout\": [{\"location\": 4, \"format\": \"Float32x3\"}, "
                             "{\"location\": 5, \"format\": \"Unorm8x4\"}], \"draws\": [{\"geometry_id\": 1, "
                             "\"indices\": {\"first\": 0, \"count\": 6}, \"instances_id\": 1, \"instances\": "
                             "{\"first\": 0, \"count\": 2}}]}", "draw_set_id");
    snprintf(message, sizeof message, "{\"kind\": \"update_instances\", \"instances_id\": 1, \"first\": 1, "
             "\"records\": \"%s\"}", ub);
    bool updated = send_ok(e.rt, message, NULL);
    free(rb);
    free(ub);
    json_int_t program = send_ok(
        e.rt,
        "{\"kind\": \"program.register\", \"wgsl\": \"struct P { @builtin(position) p: vec4<f32>, @location(0) c: "
        "vec4<f32> }\\n@vertex fn vs_placed(@location(0) corner: vec3<f32>, @location(4) offset: vec3<f32>, "
        "@location(5) color: vec4<f32>) -> P { return P(vec4<f32>(corner + offset, 1.0), color); }\\n@fragment fn "
        "fs_main(v: P) -> @location(0) vec4<f32> { return v.c; }\", \"bindings\": [{\"format\": \"Rgba8\", \"shape\": "
        "{\"Target\": \"Full\"}, \"sampling\": \"Texel\"}], \"transients\": [], \"geometries\": [], "
        "\"depth_transients\": [{\"extent\": {\"Output\": \"Full\"}, \"samples\": \"One\"}], \"passes\": [{\"stage\": "
        "{ \"DrawSets\": { \"vertex_entry_point\": \"vs_placed\", \"vertex_layout\": [{ \"location\": 0, \"format\": "
        "\"Float32x3\" }], \"instance_layout\": [{ \"location\": 4, \"format\": \"Float32x3\" }, { \"location\": 5, "
        "\"format\": \"Unorm8x4\" }], \"draw_sets\": 0, \"cull\": \"Back\", \"depth\": { \"slot\": 0, \"write\": "
        "\"Write\" }, \"load\": \"Clear\" } }, \"entry_point\": \"fs_main\", \"inputs\": [], \"output\": {\"Binding\": "
        "{\"index\": 0}}, \"blend\": \"Replace\", \"uniform_offset\": 0, \"uniform_length\": 0, \"repeat\": null}]}",
        "program_id");
    static const char dispatch[] = "{\"kind\": \"program.dispatch\", \"program_id\": 1, \"bindings\": [1], "
                                   "\"geometries\": [], \"draw_sets\": [[1]], \"uniforms\": []}";
    bool dispatched = send_ok(e.rt, dispatch, NULL);
    kiln_json_blob first, second;
    json_t *r1 = read_back(e.rt, output, &first);
    /* Blank the one draw (count 0) and draw again: nothing but the clear. */
    bool patched = send_ok(e.rt,
                           "{\"kind\": \"update_draw_set\", \"draw_set_id\": 1, \"first\": 0, \"draws\": "
                           "[{\"geometry_id\": 1, \"indices\": {\"first\": 0, \"count\": 0}, \"instances_id\": 1, "
                           "\"instances\": {\"first\": 0, \"count\": 2}}]}", NULL);
    bool again = send_ok(e.rt, dispatch, NULL);
    json_t *r2 = read_back(e.rt, output, &second);
    json_t *unknown = send(e.rt, "{\"kind\": \"program.dispatch\", \"program_id\": 1, \"bindings\": [1], "
                                 "\"geometries\": [], \"draw_sets\": [[9]], \"uniforms\": []}");
    json_t *past = send(e.rt, "{\"kind\": \"update_draw_set\", \"draw_set_id\": 1, \"first\": 3, \"draws\": []}");
    char classes[128];
    snprintf(classes, sizeof classes, "%s %s", err_class(unknown), err_class(past));
    static const uint8_t red[4] = {255, 0, 0, 255}, green[4] = {0, 255, 0, 255}, clear[4] = {0};
    bool drawn = first.size == 32, blank = second.size == 32;
    for (uint32_t t = 0; drawn && blank && t < 8; t++) {
        drawn = memcmp(first.bytes + 4 * t, t % 4 < 2 ? red : green, 4) == 0;
        blank = memcmp(second.bytes + 4 * t, clear, 4) == 0;
    }
    json_decref(r1);
    json_decref(r2);
    json_decref(unknown);
    json_decref(past);
    kiln_json_blob_free(&first);
    kiln_json_blob_free(&second);
    ENV_CLOSE_CLEAN(e);
    CHECK(output == 1 && quad == 1 && instances == 1 && set == 1 && program == 1);
    CHECK(updated && dispatched && patched && again);
    CHECK(drawn);
    CHECK(blank);
    CHECK_MSG(strcmp(classes, "unknown_draw_set patch_past_end") == 0, "%s", classes);
}

TEST_MAIN(T(every_slot_shape_sampling_and_extent_form_decodes), T(a_draw_program_runs_through_the_json_forms), T(a_draw_sets_program_runs_through_the_json_forms),
          T(every_pass_stage_input_output_blend_and_repeat_form_decodes),
          T(every_texture_format_usage_and_sampling_form_decodes), T(spec_example_register_message_decodes),
          T(each_refusal_names_its_field_path), T(handle_without_a_runtime_or_message_replies_bad_message), T(malformed_json_gives_line_and_column),
          T(duplicate_keys_are_malformed_json), T(base64_and_byte_array_blobs_agree),
          T(base64_decodes_the_standard_alphabet), T(describe_kinds_lists_every_kind_with_its_fields),
          T(describe_kinds_lists_every_enum_form), T(mutated_messages_decode_or_are_refused_with_a_reason),
          T(every_required_field_describe_kinds_lists_is_enforced),
          T(every_described_kind_reaches_a_handler), T(spec_forms_register_dispatch_and_read_back_a_program),
          T(read_texture_records_queued_dispatches_first),
          T(the_json_runtime_recreated_after_device_loss_keeps_its_ids),
          T(a_dispatch_sees_its_input_as_it_was_when_the_dispatch_arrived), T(a_failed_dispatch_fails_only_the_reads_of_what_it_writes), T(runtime_refusals_reply_their_class_and_error),
          T(a_parsed_message_gets_the_reply_its_text_gets),
          T(a_parsed_message_without_a_runtime_object_or_kind_is_bad_message), T(error_text_cut_mid_character_still_replies_its_class),
          T(dropped_dispatch_replies_its_class_and_the_logged_warning),
          T(dispatch_naming_geometries_drops_with_geometry_count), T(update_then_read_returns_the_exact_float_pixels),
          T(timings_have_one_row_per_pass), T(the_label_names_the_program_in_register_and_dispatch_replies))
