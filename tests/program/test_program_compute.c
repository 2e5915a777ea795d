/* Compute passes, program buffers and indirect draws (docs/adr/0009) in pixels read back: a
 * compute pass culls sixteen candidate placements, writing the survivors and the draw's arguments
 * (an atomic instance count) into program buffers, and an indirect draw places one texel-wide quad
 * per survivor. Two dispatches of the program in one frame, and the same one in the next frame,
 * each start from zeroed buffers of their own. Every test closes with zero Dawn errors. */
#include "program_test_util.h"

enum { COLUMNS = 16 };

static const char *const CULL_WGSL =
    "struct Candidates { at: array<vec4<f32>, 16> }\n"
    "@group(0) @binding(0) var<uniform> candidates: Candidates;\n"
    "struct Args { index_count: u32, instance_count: atomic<u32>, first_index: u32, base_vertex: i32,\n"
    "              first_instance: u32 }\n"
    "@group(2) @binding(0) var<storage, read_write> args: Args;\n"
    "@group(2) @binding(1) var<storage, read_write> visible: array<vec4<f32>>;\n"
    "@group(2) @binding(0) var<storage, read> placed: array<vec4<f32>>;\n"
    "// A candidate survives when its w is above one half; the survivors go out packed, in any order.\n"
    "@compute @workgroup_size(16) fn cs_cull(@builtin(global_invocation_id) id: vec3<u32>) {\n"
    "    if (id.x == 0u) { args.index_count = 6u; }\n"
    "    let c = candidates.at[id.x];\n"
    "    if (c.w > 0.5) {\n"
    "        let slot = atomicAdd(&args.instance_count, 1u);\n"
    "        visible[slot] = c;\n"
    "    }\n"
    "}\n"
    "@vertex fn vs_placed(@location(0) p: vec3<f32>, @builtin(instance_index) i: u32) -> @builtin(position) vec4<f32> {\n"
    "    return vec4<f32>(p.xy + placed[i].xy, p.z, 1.0);\n"
    "}\n"
    "@fragment fn fs_white() -> @location(0) vec4<f32> { return vec4<f32>(1.0); }\n";

static const kiln_geometry_layout POSITION = {.attribute_count = 1, .attributes = {{0, KILN_VERTEX_FLOAT32X3}}};

static uint32_t register_cull(program_fixture *f) {
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8)};
    kiln_buffer_spec buffers[] = {{20}, {COLUMNS * 16}};
    kiln_pass_spec passes[] = {
        {.stage = KILN_STAGE_COMPUTE, .entry_point = "cs_cull", .output = {KILN_OUTPUT_NONE, 0},
         .blend = KILN_PROGRAM_BLEND_REPLACE, .uniform_length = COLUMNS * 16, .compute = {.x = 1, .y = 1, .z = 1},
         .buffer_count = 2, .buffers = {{0, true}, {1, true}}},
        {.stage = KILN_STAGE_DRAW_INDEXED_INDIRECT, .entry_point = "fs_white", .output = {KILN_OUTPUT_BINDING, 0},
         .blend = KILN_PROGRAM_BLEND_REPLACE,
         .draw = {.vertex_entry_point = "vs_placed", .geometry = 0, .load = KILN_LOAD_CLEAR, .args_buffer = 0},
         .buffer_count = 1, .buffers = {{1, false}}},
    };
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(CULL_WGSL, bindings, passes);
    desc.geometry_count = 1;
    desc.geometries = &POSITION;
    desc.buffer_count = 2;
    desc.buffers = buffers;
    kiln_program_error err;
    uint32_t id = kiln_programs_register(f->programs, &desc, &err);
    if (!id) fprintf(stderr, "register: %s: %s\n", kiln_program_class_name(err.cls), err.message);
    return id;
}

/* The quad over texel column 0, full height; a candidate's x moves it to column (x * 8). */
static uint32_t column_quad(program_fixture *f) {
    const float w = 2.0f / COLUMNS;
    const float v[12] = {-1, -1, 0, -1 + w, -1, 0, -1 + w, 1, 0, -1, 1, 0};
    static const uint32_t i[6] = {0, 1, 2, 0, 2, 3};
    kiln_geometry_desc d = {.layout = POSITION, .vertices = v, .vertices_size = sizeof v, .indices = i,
                            .indices_size = sizeof i};
    return kiln_programs_create_geometry(f->programs, &d, NULL);
}

/* Candidates for every column; column c survives when keep(c). */
static void candidates(float out[COLUMNS][4], bool (*keep)(uint32_t)) {
    for (uint32_t c = 0; c < COLUMNS; c++) {
        out[c][0] = (float)c * 2.0f / COLUMNS;
        out[c][1] = out[c][2] = 0;
        out[c][3] = keep(c) ? 1.0f : 0.0f;
    }
}

static bool even(uint32_t c) { return c % 2 == 0; }
static bool low(uint32_t c) { return c < 5; }
static bool thirds(uint32_t c) { return c % 3 == 0; }

static int wrong_columns(const float *t, bool (*keep)(uint32_t)) {
    int wrong = 0;
    for (uint32_t y = 0; y < 2; y++)
        for (uint32_t x = 0; x < COLUMNS; x++) {
            float want = keep(x) ? 1.0f : 0.0f, got = t[(y * COLUMNS + x) * 4];
            if (fabsf(got - want) > 1e-3f) {
                fprintf(stderr, "texel (%u, %u) reads %g, expected %g\n", x, y, got, want);
                wrong++;
            }
        }
    return wrong;
}

static kiln_dispatch_class dispatch(program_fixture *f, uint32_t prog, uint32_t out, uint32_t quad,
                                    const float blob[COLUMNS][4]) {
    kiln_dispatch_desc d = {.program_id = prog, .texture_ids = &out, .texture_count = 1, .geometry_ids = &quad,
                            .geometry_count = 1, .uniforms = blob, .uniforms_size = COLUMNS * 16};
    return kiln_programs_dispatch_with(f->programs, &d);
}

TEST(a_compute_culled_indirect_draw_places_only_the_survivors) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t prog = register_cull(&f), quad = column_quad(&f);
    uint32_t a = make_texture(&f, KILN_FORMAT_RGBA8, COLUMNS, 2, NULL, true);
    uint32_t b = make_texture(&f, KILN_FORMAT_RGBA8, COLUMNS, 2, NULL, true);
    float evens[COLUMNS][4], lows[COLUMNS][4], third[COLUMNS][4];
    candidates(evens, even);
    candidates(lows, low);
    candidates(third, thirds);
    float ta[COLUMNS * 2 * 4], tb[COLUMNS * 2 * 4], tc[COLUMNS * 2 * 4];
    CHECK(prog && quad);
    /* Two dispatches in one frame: each its own zeroed counter, so neither adds to the other. */
    CHECK_EQ_INT(dispatch(&f, prog, a, quad, evens), KILN_DISPATCH_OK);
    CHECK_EQ_INT(dispatch(&f, prog, b, quad, lows), KILN_DISPATCH_OK);
    CHECK(run_frame(&f) && read_texels(&f, a, ta) && read_texels(&f, b, tb));
    /* The next frame starts from zeros again. */
    CHECK_EQ_INT(dispatch(&f, prog, a, quad, third), KILN_DISPATCH_OK);
    CHECK(run_frame(&f) && read_texels(&f, a, tc));
    kiln_pass_timing rows[2];
    CHECK_EQ_INT(kiln_programs_timings(f.programs, prog, rows, 2), 2);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    CHECK_EQ_INT(wrong_columns(ta, even), 0);
    CHECK_EQ_INT(wrong_columns(tb, low), 0);
    CHECK_EQ_INT(wrong_columns(tc, thirds), 0);
    CHECK(rows[0].stage == KILN_STAGE_COMPUTE && rows[0].width == COLUMNS && rows[0].height == 2);
    CHECK(rows[1].stage == KILN_STAGE_DRAW_INDEXED_INDIRECT);
}

/* No survivor: the instance count stays at the zero the buffer starts from, so the indirect draw
 * places nothing and the output holds only its clear. */
TEST(no_survivor_draws_nothing) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t prog = register_cull(&f), quad = column_quad(&f);
    uint8_t grey[COLUMNS * 2 * 4];
    memset(grey, 50, sizeof grey);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, COLUMNS, 2, grey, true);
    float none[COLUMNS][4] = {{0}};
    float t[COLUMNS * 2 * 4];
    CHECK_EQ_INT(dispatch(&f, prog, out, quad, none), KILN_DISPATCH_OK);
    CHECK(run_frame(&f) && read_texels(&f, out, t));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    int wrong = 0;
    for (int i = 0; i < COLUMNS * 2 * 4; i++) wrong += t[i] != 0.0f; /* cleared (load Clear), nothing drawn */
    CHECK_EQ_INT(wrong, 0);
}

TEST_MAIN(T(a_compute_culled_indirect_draw_places_only_the_survivors), T(no_survivor_draws_nothing))
