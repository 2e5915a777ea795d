/* Draw passes in rasterised pixels (Programs II: geometry, draw passes, depth slots, depth-only
 * passes, depth inputs): a triangle drawn and read back; two passes sharing a depth slot hide each
 * other; a colour pass comparing against a shadow map a depth-only pass drew, and a fragment pass
 * loading a depth slot texel by texel; Clear and Load with repeats; a half-covered texel of a Four
 * transient; the geometry lifecycle (create, update, destroy) and the dispatch drop classes it adds;
 * geometry brought back after a device loss. Every test closes with zero Dawn errors. */
#include "program_test_util.h"

/* A vertex: a clip-space position and an 8-bit colour (Float32x3 + Unorm8x4, 16 bytes). */
typedef struct vertex {
    float x, y, z;
    uint8_t rgba[4];
} vertex;
_Static_assert(sizeof(vertex) == 16, "vertex packs with no padding");

static const kiln_geometry_layout POS_COLOUR = {
    .attribute_count = 2, .attributes = {{0, KILN_VERTEX_FLOAT32X3}, {1, KILN_VERTEX_UNORM8X4}}};

static const char *const DRAW_WGSL =
    "struct Varyings { @builtin(position) position: vec4<f32>, @location(0) colour: vec4<f32> }\n"
    "@vertex fn vs_main(@location(0) position: vec3<f32>, @location(1) colour: vec4<f32>) -> Varyings {\n"
    "    return Varyings(vec4<f32>(position, 1.0), colour);\n"
    "}\n"
    "@fragment fn fs_main(v: Varyings) -> @location(0) vec4<f32> { return v.colour; }\n"
    "@vertex fn vs_position(@location(0) position: vec3<f32>) -> @builtin(position) vec4<f32> {\n"
    "    return vec4<f32>(position, 1.0);\n"
    "}\n"
    "@fragment fn fs_depth() {}\n";

static uint32_t make_geometry(program_fixture *f, const vertex *v, size_t vertex_count, const uint32_t *indices,
                              size_t index_count) {
    kiln_geometry_desc d = {.layout = POS_COLOUR, .vertices = v, .vertices_size = vertex_count * sizeof *v,
                            .indices = indices, .indices_size = index_count * sizeof *indices};
    kiln_geometry_error err;
    uint32_t id = kiln_programs_create_geometry(f->programs, &d, &err);
    if (!id) fprintf(stderr, "create_geometry: %s: %s\n", kiln_geometry_class_name(err.cls), err.message);
    return id;
}

/* A rectangle in clip space (y up) at depth z, in one colour. */
static void quad_vertices(vertex v[4], float x0, float y0, float x1, float y1, float z, const uint8_t rgba[4]) {
    const float xs[4] = {x0, x1, x1, x0}, ys[4] = {y0, y0, y1, y1};
    for (int i = 0; i < 4; i++) v[i] = (vertex){xs[i], ys[i], z, {rgba[0], rgba[1], rgba[2], rgba[3]}};
}

static const uint32_t QUAD_INDICES[6] = {0, 1, 2, 0, 2, 3};

static uint32_t make_quad(program_fixture *f, float x0, float y0, float x1, float y1, float z, const uint8_t rgba[4]) {
    vertex v[4];
    quad_vertices(v, x0, y0, x1, y1, z, rgba);
    return make_geometry(f, v, 4, QUAD_INDICES, 6);
}

static const uint8_t RED[4] = {255, 0, 0, 255}, GREEN[4] = {0, 255, 0, 255}, BLUE[4] = {0, 0, 255, 255};

static kiln_pass_spec draw_pass(const char *vertex_entry, const char *fragment_entry, uint32_t geometry,
                                kiln_output_slot out, kiln_pass_load load) {
    return (kiln_pass_spec){.stage = KILN_STAGE_DRAW, .entry_point = fragment_entry, .output = out,
                            .blend = KILN_PROGRAM_BLEND_REPLACE,
                            .draw = {.vertex_entry_point = vertex_entry, .geometry = geometry, .load = load}};
}

static kiln_pass_spec with_depth(kiln_pass_spec pass, uint32_t slot) {
    pass.draw.depth = true;
    pass.draw.depth_slot = slot;
    return pass;
}

static uint32_t register_desc(program_fixture *f, const kiln_program_desc *desc) {
    kiln_program_error err;
    uint32_t id = kiln_programs_register(f->programs, desc, &err);
    if (!id) fprintf(stderr, "register: %s: %s\n", kiln_program_class_name(err.cls), err.message);
    return id;
}

static kiln_dispatch_class dispatch(program_fixture *f, uint32_t program, uint32_t texture, const uint32_t *geometries,
                                    uint32_t geometry_count) {
    kiln_dispatch_desc d = {.program_id = program, .texture_ids = &texture, .texture_count = 1,
                            .geometry_ids = geometries, .geometry_count = geometry_count};
    return kiln_programs_dispatch_with(f->programs, &d);
}

/* The RGBA8 texel at (x, y) of a w-wide texture read by read_texels, as bytes. */
static void texel_bytes(const float *t, uint32_t w, uint32_t x, uint32_t y, uint8_t out[4]) {
    for (int c = 0; c < 4; c++) out[c] = (uint8_t)(t[(y * w + x) * 4 + c] * 255.0f + 0.5f);
}

static bool texel_is(const float *t, uint32_t w, uint32_t x, uint32_t y, const uint8_t want[4]) {
    uint8_t got[4];
    texel_bytes(t, w, x, y, got);
    if (memcmp(got, want, 4) == 0) return true;
    fprintf(stderr, "texel (%u, %u) is %u %u %u %u, expected %u %u %u %u\n", x, y, got[0], got[1], got[2], got[3],
            want[0], want[1], want[2], want[3]);
    return false;
}

static const uint8_t CLEAR[4] = {0, 0, 0, 0};

/* ---- a triangle ------------------------------------------------------------------------------------ */

TEST(a_triangle_drawn_by_a_draw_pass_reads_back) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    /* The lower-left half of the target: bottom-left, bottom-right, top-left (counter-clockwise). */
    vertex v[3] = {{-1, -1, 0, {0, 0, 255, 255}}, {1, -1, 0, {0, 0, 255, 255}}, {-1, 1, 0, {0, 0, 255, 255}}};
    uint32_t indices[3] = {0, 1, 2};
    uint32_t tri = make_geometry(&f, v, 3, indices, 3);
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8)};
    kiln_pass_spec passes[] = {draw_pass("vs_main", "fs_main", 0, to_binding(0), KILN_LOAD_CLEAR)};
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(DRAW_WGSL, bindings, passes);
    desc.geometry_count = 1;
    desc.geometries = &POS_COLOUR;
    uint32_t prog = register_desc(&f, &desc);
    static const uint8_t grey[4] = {9, 9, 9, 9};
    uint8_t before[8 * 8 * 4];
    for (size_t i = 0; i < sizeof before; i++) before[i] = grey[i % 4];
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, 8, 8, before, true);
    float t[8 * 8 * 4];
    CHECK(tri == 1 && prog == 1);
    CHECK_EQ_INT(dispatch(&f, prog, out, &tri, 1), KILN_DISPATCH_OK);
    CHECK(run_frame(&f) && read_texels(&f, out, t));
    kiln_geometry_stats stats = kiln_programs_geometry_stats(f.programs);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    /* Texels whose centre lies below the diagonal are drawn, the others cleared (Clear). */
    int wrong = 0;
    for (uint32_t y = 0; y < 8; y++)
        for (uint32_t x = 0; x < 8; x++) {
            float cx = (x + 0.5f) / 4.0f - 1.0f, cy = 1.0f - (y + 0.5f) / 4.0f;
            if (cx + cy > -0.01f && cx + cy < 0.01f) continue; /* on the edge: either is right */
            wrong += !texel_is(t, 8, x, y, cx + cy < 0 ? BLUE : CLEAR);
        }
    CHECK_EQ_INT(wrong, 0);
    CHECK(stats.live == 1 && stats.on_gpu == 1);
}

/* ---- depth ---------------------------------------------------------------------------------------- */

/* A near green quad over the left half, then a far red quad over everything. */
static uint32_t two_quads_program(program_fixture *f, bool depth, bool separate_slots) {
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8)};
    kiln_geometry_layout geometries[] = {POS_COLOUR, POS_COLOUR};
    kiln_depth_spec depths[] = {{.samples = KILN_SAMPLES_ONE}, {.samples = KILN_SAMPLES_ONE}};
    kiln_pass_spec passes[] = {draw_pass("vs_main", "fs_main", 0, to_binding(0), KILN_LOAD_CLEAR),
                               draw_pass("vs_main", "fs_main", 1, to_binding(0), KILN_LOAD_LOAD)};
    if (depth) {
        passes[0] = with_depth(passes[0], 0);
        passes[1] = with_depth(passes[1], separate_slots ? 1 : 0);
    }
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(DRAW_WGSL, bindings, passes);
    desc.geometry_count = 2;
    desc.geometries = geometries;
    desc.depth_transient_count = 2;
    desc.depth_transients = depths;
    return register_desc(f, &desc);
}

TEST(two_passes_sharing_a_depth_slot_hide_each_other) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t quads[2] = {make_quad(&f, -1, -1, 0, 1, 0.25f, GREEN), make_quad(&f, -1, -1, 1, 1, 0.75f, RED)};
    uint32_t shared = two_quads_program(&f, true, false), none = two_quads_program(&f, false, false),
             separate = two_quads_program(&f, true, true);
    uint32_t out[3] = {make_texture(&f, KILN_FORMAT_RGBA8, 8, 4, NULL, true),
                       make_texture(&f, KILN_FORMAT_RGBA8, 8, 4, NULL, true),
                       make_texture(&f, KILN_FORMAT_RGBA8, 8, 4, NULL, true)};
    float t[3][8 * 4 * 4];
    CHECK(shared && none && separate);
    CHECK_EQ_INT(dispatch(&f, shared, out[0], quads, 2), KILN_DISPATCH_OK);
    CHECK_EQ_INT(dispatch(&f, none, out[1], quads, 2), KILN_DISPATCH_OK);
    CHECK_EQ_INT(dispatch(&f, separate, out[2], quads, 2), KILN_DISPATCH_OK);
    CHECK(run_frame(&f));
    for (int i = 0; i < 3; i++) CHECK(read_texels(&f, out[i], t[i]));
    kiln_pool_stats pool = kiln_programs_pool_stats(f.programs);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    int wrong = 0;
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 8; x++) {
            /* Shared: the far red quad fails the depth test where the near green one was drawn. */
            wrong += !texel_is(t[0], 8, x, y, x < 4 ? GREEN : RED);
            /* No depth slot: draw order; two slots: two independent depth buffers, so red wins. */
            wrong += !texel_is(t[1], 8, x, y, RED);
            wrong += !texel_is(t[2], 8, x, y, RED);
        }
    CHECK_EQ_INT(wrong, 0);
    /* Depth slots are never merged: the two-slot dispatch held two depth textures. */
    CHECK(pool.textures >= 2);
}

/* A Fixed 16 shadow map a depth-only pass draws (the centre quad at depth 0.5), compared by a full
 * screen colour pass at reference depth 0.6: where the map holds 0.5 the comparison fails (0),
 * where it holds the far plane it passes (1). */
static const char *const SHADOW_WGSL =
    "@group(1) @binding(0) var shadow_map: texture_depth_2d;\n"
    "@group(1) @binding(1) var shadow_compare: sampler_comparison;\n"
    "@vertex fn vs_position(@location(0) position: vec3<f32>) -> @builtin(position) vec4<f32> {\n"
    "    return vec4<f32>(position, 1.0);\n"
    "}\n"
    "@fragment fn fs_depth() {}\n"
    "@fragment fn fs_lit(@builtin(position) p: vec4<f32>) -> @location(0) vec4<f32> {\n"
    "    let lit = textureSampleCompare(shadow_map, shadow_compare, p.xy / 8.0, 0.6);\n"
    "    return vec4<f32>(lit, lit, lit, 1.0);\n"
    "}\n";

TEST(a_colour_pass_compares_against_a_shadow_map_a_depth_only_pass_drew) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t centre = make_quad(&f, -0.5f, -0.5f, 0.5f, 0.5f, 0.5f, RED);
    uint32_t screen = make_quad(&f, -1, -1, 1, 1, 0.0f, RED);
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8)};
    kiln_geometry_layout geometries[] = {POS_COLOUR, POS_COLOUR};
    kiln_depth_spec depths[] = {{.extent = {.fixed = true, .side = 16}}};
    kiln_pass_spec passes[] = {
        with_depth(draw_pass("vs_position", "fs_depth", 0, (kiln_output_slot){KILN_OUTPUT_NONE, 0}, KILN_LOAD_LOAD), 0),
        with_input(draw_pass("vs_position", "fs_lit", 1, to_binding(0), KILN_LOAD_CLEAR),
                   (kiln_input_slot){.kind = KILN_INPUT_DEPTH, .index = 0, .depth_read = KILN_DEPTH_READ_COMPARE}),
    };
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(SHADOW_WGSL, bindings, passes);
    desc.geometry_count = 2;
    desc.geometries = geometries;
    desc.depth_transient_count = 1;
    desc.depth_transients = depths;
    uint32_t prog = register_desc(&f, &desc);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, 8, 8, NULL, true);
    uint32_t geometry_ids[2] = {centre, screen};
    float t[8 * 8 * 4];
    CHECK(prog);
    CHECK_EQ_INT(dispatch(&f, prog, out, geometry_ids, 2), KILN_DISPATCH_OK);
    CHECK(run_frame(&f) && read_texels(&f, out, t));
    kiln_pass_timing rows[2];
    uint32_t row_count = kiln_programs_timings(f.programs, prog, rows, 2);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    static const uint8_t dark[4] = {0, 0, 0, 255}, lit[4] = {255, 255, 255, 255};
    int wrong = 0;
    /* The quad covers the map's texels 4..11, which are output texels 2..5; the linear comparison
     * blends at its edges (texels 2 and 5), so only the rows and columns clear of them are asserted. */
    for (uint32_t y = 0; y < 8; y++)
        for (uint32_t x = 0; x < 8; x++) {
            bool inside = x >= 3 && x <= 4 && y >= 3 && y <= 4, outside = x < 2 || x > 5 || y < 2 || y > 5;
            if (inside) wrong += !texel_is(t, 8, x, y, dark);
            if (outside) wrong += !texel_is(t, 8, x, y, lit);
        }
    CHECK_EQ_INT(wrong, 0);
    /* A depth-only pass's row: stage Draw, its slot's size, divisor 1 for a Fixed slot. */
    CHECK_EQ_INT(row_count, 2);
    CHECK(rows[0].stage == KILN_STAGE_DRAW && rows[0].width == 16 && rows[0].height == 16 && rows[0].divisor == 1);
    CHECK(rows[1].stage == KILN_STAGE_DRAW && rows[1].width == 8 && rows[1].height == 8);
}

static const char *const DEPTH_LOAD_WGSL =
    "@group(1) @binding(0) var scene_depth: texture_depth_2d;\n"
    "@vertex fn vs_position(@location(0) position: vec3<f32>) -> @builtin(position) vec4<f32> {\n"
    "    return vec4<f32>(position, 1.0);\n"
    "}\n"
    "@fragment fn fs_depth() {}\n"
    "@fragment fn fs_load(@builtin(position) p: vec4<f32>) -> @location(0) vec4<f32> {\n"
    "    return vec4<f32>(textureLoad(scene_depth, vec2<i32>(p.xy), 0), 0.0, 0.0, 1.0);\n"
    "}\n";

TEST(a_fragment_pass_loads_a_depth_slot_texel_by_texel) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t centre = make_quad(&f, -0.5f, -0.5f, 0.5f, 0.5f, 0.375f, RED);
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_R32_FLOAT)};
    kiln_depth_spec depths[] = {{.samples = KILN_SAMPLES_ONE}};
    kiln_pass_spec passes[] = {
        with_depth(draw_pass("vs_position", "fs_depth", 0, (kiln_output_slot){KILN_OUTPUT_NONE, 0}, KILN_LOAD_LOAD), 0),
        with_input(fragment_pass("fs_load", to_binding(0), KILN_PROGRAM_BLEND_REPLACE),
                   (kiln_input_slot){.kind = KILN_INPUT_DEPTH, .index = 0, .depth_read = KILN_DEPTH_READ_TEXEL}),
    };
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(DEPTH_LOAD_WGSL, bindings, passes);
    desc.geometry_count = 1;
    desc.geometries = &POS_COLOUR;
    desc.depth_transient_count = 1;
    desc.depth_transients = depths;
    uint32_t prog = register_desc(&f, &desc);
    uint32_t out = make_texture(&f, KILN_FORMAT_R32_FLOAT, 8, 8, NULL, true);
    float t[8 * 8];
    CHECK(prog);
    CHECK_EQ_INT(dispatch(&f, prog, out, &centre, 1), KILN_DISPATCH_OK);
    CHECK(run_frame(&f) && read_texels(&f, out, t));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    int wrong = 0;
    for (uint32_t y = 0; y < 8; y++)
        for (uint32_t x = 0; x < 8; x++) {
            float want = x >= 2 && x <= 5 && y >= 2 && y <= 5 ? 0.375f : 1.0f; /* the far plane elsewhere */
            if (t[y * 8 + x] != want) {
                fprintf(stderr, "depth (%u, %u) is %g, expected %g\n", x, y, t[y * 8 + x], want);
                wrong++;
            }
        }
    CHECK_EQ_INT(wrong, 0);
}

/* ---- colour load ---------------------------------------------------------------------------------- */

static const char *const ADD_WGSL =
    "@vertex fn vs_position(@location(0) position: vec3<f32>) -> @builtin(position) vec4<f32> {\n"
    "    return vec4<f32>(position, 1.0);\n"
    "}\n"
    "@fragment fn fs_quarter() -> @location(0) vec4<f32> { return vec4<f32>(0.25); }\n";

/* A repeated additive draw of 0.25: Clear clears on its first iteration and loads on the others
 * (3 x 0.25), Load keeps the retained 0.25 and adds all three (1.0). */
TEST(clear_and_load_state_the_colour_load_with_repeats) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t screen = make_quad(&f, -1, -1, 1, 1, 0, RED);
    uint32_t prog[2];
    for (int load = 0; load < 2; load++) {
        kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8)};
        kiln_pass_spec passes[] = {with_repeat(draw_pass("vs_position", "fs_quarter", 0, to_binding(0),
                                                         load ? KILN_LOAD_LOAD : KILN_LOAD_CLEAR), 3, 0)};
        passes[0].blend = KILN_PROGRAM_BLEND_ADDITIVE;
        kiln_program_desc desc = PROGRAM_DESC_PLAIN(ADD_WGSL, bindings, passes);
        desc.geometry_count = 1;
        desc.geometries = &POS_COLOUR;
        prog[load] = register_desc(&f, &desc);
    }
    uint8_t quarter[4 * 4 * 4];
    memset(quarter, 64, sizeof quarter);
    uint32_t out[2] = {make_texture(&f, KILN_FORMAT_RGBA8, 4, 4, quarter, true),
                       make_texture(&f, KILN_FORMAT_RGBA8, 4, 4, quarter, true)};
    float t[2][4 * 4 * 4];
    CHECK(prog[0] && prog[1]);
    for (int load = 0; load < 2; load++) CHECK_EQ_INT(dispatch(&f, prog[load], out[load], &screen, 1), KILN_DISPATCH_OK);
    CHECK(run_frame(&f) && read_texels(&f, out[0], t[0]) && read_texels(&f, out[1], t[1]));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    int wrong = 0;
    for (int i = 0; i < 64; i++) {
        wrong += fabsf(t[0][i] - 0.75f) > 2.0f / 255.0f;
        wrong += fabsf(t[1][i] - (64.0f / 255.0f + 0.75f > 1.0f ? 1.0f : 64.0f / 255.0f + 0.75f)) > 2.0f / 255.0f;
    }
    CHECK_EQ_INT(wrong, 0);
}

/* ---- samples ------------------------------------------------------------------------------------- */

static const char *const MSAA_WGSL =
    "@group(1) @binding(0) var src: texture_2d<f32>;\n"
    "@group(1) @binding(1) var src_sampler: sampler;\n"
    "@vertex fn vs_position(@location(0) position: vec3<f32>) -> @builtin(position) vec4<f32> {\n"
    "    return vec4<f32>(position, 1.0);\n"
    "}\n"
    "@fragment fn fs_white() -> @location(0) vec4<f32> { return vec4<f32>(1.0); }\n"
    "@fragment fn fs_copy(@builtin(position) p: vec4<f32>) -> @location(0) vec4<f32> {\n"
    "    return textureLoad(src, vec2<i32>(p.xy), 0);\n"
    "}\n";

/* A vertical edge through the middle of texel column 2 of a 4-wide Four transient covers two of
 * its four standard sample positions (x 0.375 and 0.125 of 0.125, 0.375, 0.625, 0.875), so the
 * resolved texel reads the average: half white. */
TEST(a_half_covered_texel_of_a_four_transient_reads_the_average) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t left = make_quad(&f, -1, -1, 0.25f, 1, 0, RED); /* x 0.25 in clip space is texel x 2.5 */
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8)};
    kiln_transient_spec transients[] = {full_transient(KILN_FORMAT_RGBA8, KILN_SAMPLES_FOUR)};
    kiln_pass_spec passes[] = {
        draw_pass("vs_position", "fs_white", 0, to_transient(0), KILN_LOAD_CLEAR),
        with_input(fragment_pass("fs_copy", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), from_transient(0)),
    };
    kiln_program_desc desc = PROGRAM_DESC(MSAA_WGSL, bindings, transients, passes);
    desc.geometry_count = 1;
    desc.geometries = &POS_COLOUR;
    uint32_t prog = register_desc(&f, &desc);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, 4, 2, NULL, true);
    float t[4 * 2 * 4];
    CHECK(prog);
    CHECK_EQ_INT(dispatch(&f, prog, out, &left, 1), KILN_DISPATCH_OK);
    CHECK(run_frame(&f) && read_texels(&f, out, t));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    for (uint32_t y = 0; y < 2; y++) {
        CHECK(fabsf(t[(y * 4 + 1) * 4] - 1.0f) < 1e-3f); /* covered */
        CHECK(fabsf(t[(y * 4 + 2) * 4] - 0.5f) < 2.0f / 255.0f); /* half covered: two samples of four */
        CHECK(fabsf(t[(y * 4 + 2) * 4 + 3] - 0.5f) < 2.0f / 255.0f);
        CHECK(t[(y * 4 + 3) * 4] == 0.0f); /* uncovered */
    }
}

/* ---- register ------------------------------------------------------------------------------------ */

TEST(an_integer_varying_without_flat_is_invalid_wgsl) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    static const char *const wgsl =
        "struct V { @builtin(position) p: vec4<f32>, @location(0) cell: u32 }\n"
        "@vertex fn vs_cell(@location(0) position: vec3<f32>) -> V { return V(vec4<f32>(position, 1.0), 3u); }\n"
        "@fragment fn fs_cell(v: V) -> @location(0) vec4<f32> { return vec4<f32>(f32(v.cell)); }\n";
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8)};
    kiln_pass_spec passes[] = {draw_pass("vs_cell", "fs_cell", 0, to_binding(0), KILN_LOAD_CLEAR)};
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(wgsl, bindings, passes);
    desc.geometry_count = 1;
    desc.geometries = &POS_COLOUR;
    kiln_program_error err;
    CHECK_EQ_INT(kiln_programs_register(f.programs, &desc, &err), 0);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    CHECK_EQ_INT(err.cls, KILN_PROGRAM_INVALID_WGSL);
    CHECK_STR_CONTAINS(err.message, "program.wgsl:1:58: error: vs_cell's output @location(0) is u32, an integer "
                                    "varying, and must be declared @interpolate(flat)");
}

/* ---- geometry resources and the dispatch classes they add ---------------------------------------- */

static uint32_t one_slot_program(program_fixture *f) {
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8)};
    kiln_pass_spec passes[] = {draw_pass("vs_main", "fs_main", 0, to_binding(0), KILN_LOAD_CLEAR)};
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(DRAW_WGSL, bindings, passes);
    desc.geometry_count = 1;
    desc.geometries = &POS_COLOUR;
    return register_desc(f, &desc);
}

TEST(geometry_dispatch_classes_drop_the_dispatch_naming_the_slot) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t prog = one_slot_program(&f);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, 4, 4, NULL, true);
    uint32_t quad = make_quad(&f, -1, -1, 1, 1, 0, RED);
    float positions[9] = {-1, -1, 0, 1, -1, 0, -1, 1, 0};
    uint32_t indices[3] = {0, 1, 2};
    kiln_geometry_desc bare = {.layout = {1, {{0, KILN_VERTEX_FLOAT32X3}}}, .vertices = positions,
                               .vertices_size = sizeof positions, .indices = indices, .indices_size = sizeof indices};
    uint32_t positions_only = kiln_programs_create_geometry(f.programs, &bare, NULL);
    uint32_t two[2] = {quad, quad}, unknown = 99;
    kiln_dispatch_class count = dispatch(&f, prog, out, two, 2);
    char count_log[400];
    snprintf(count_log, sizeof count_log, "%s", last_log(&f));
    kiln_dispatch_class missing = dispatch(&f, prog, out, &unknown, 1);
    char missing_log[400];
    snprintf(missing_log, sizeof missing_log, "%s", last_log(&f));
    kiln_dispatch_class layout = dispatch(&f, prog, out, &positions_only, 1);
    char layout_log[400];
    snprintf(layout_log, sizeof layout_log, "%s", last_log(&f));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    CHECK_EQ_INT(count, KILN_DISPATCH_GEOMETRY_COUNT);
    CHECK(strcmp(count_log, "dropped dispatch of program 1 (geometry_count): the dispatch names 2 geometries; the "
                            "program declares 1 geometry slot") == 0);
    CHECK_EQ_INT(missing, KILN_DISPATCH_UNKNOWN_GEOMETRY);
    CHECK(strcmp(missing_log, "dropped dispatch of program 1 (unknown_geometry): pass 0 (fs_main), geometry slot 0: "
                              "unknown geometry id 99") == 0);
    CHECK_EQ_INT(layout, KILN_DISPATCH_GEOMETRY_LAYOUT);
    CHECK(strcmp(layout_log, "dropped dispatch of program 1 (geometry_layout_mismatch): pass 0 (fs_main), geometry "
                             "slot 0: geometry 2 was created with layout [0 Float32x3]; the slot declares [0 "
                             "Float32x3, 1 Unorm8x4]") == 0);
}

TEST(a_geometry_destroyed_after_its_dispatch_drops_the_dispatch_whole) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t prog = one_slot_program(&f);
    uint8_t grey[4 * 4 * 4];
    memset(grey, 77, sizeof grey);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, 4, 4, grey, true);
    uint32_t quad = make_quad(&f, -1, -1, 1, 1, 0, RED);
    float t[4 * 4 * 4];
    CHECK_EQ_INT(dispatch(&f, prog, out, &quad, 1), KILN_DISPATCH_OK);
    CHECK(kiln_programs_destroy_geometry(f.programs, quad));
    kiln_error err = {0};
    bool recorded = kiln_programs_frame(f.programs, &err);
    CHECK(read_texels(&f, out, t));
    char logged[400];
    snprintf(logged, sizeof logged, "%s", last_log(&f));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    CHECK(!recorded);
    CHECK_STR_CONTAINS(logged, "dropped dispatch of program 1 (unknown_geometry): geometry slot 0: geometry 1 was "
                               "destroyed after the dispatch was accepted; the dispatch records nothing");
    int changed = 0;
    for (int i = 0; i < 64; i++) changed += fabsf(t[i] - 77.0f / 255.0f) > 1e-6f;
    CHECK_EQ_INT(changed, 0); /* the output keeps its prior content */
}

TEST(update_replaces_a_geometry_wholesale_and_a_refused_one_keeps_the_old) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t prog = one_slot_program(&f);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, 4, 4, NULL, true);
    uint32_t quad = make_quad(&f, -1, -1, 1, 1, 0, RED);
    float first[64], second[64], third[64];
    CHECK_EQ_INT(dispatch(&f, prog, out, &quad, 1), KILN_DISPATCH_OK);
    CHECK(run_frame(&f) && read_texels(&f, out, first));
    /* Grown from one quad to two triangles of another colour, over the left half only. */
    vertex v[6];
    quad_vertices(v, -1, -1, 0, 1, 0, GREEN);
    v[4] = v[0];
    v[5] = v[2];
    uint32_t indices[6] = {0, 1, 2, 4, 5, 3};
    kiln_geometry_desc update = {.vertices = v, .vertices_size = sizeof v, .indices = indices,
                                 .indices_size = sizeof indices};
    kiln_geometry_error gerr;
    CHECK(kiln_programs_update_geometry(f.programs, quad, &update, &gerr));
    CHECK_EQ_INT(dispatch(&f, prog, out, &quad, 1), KILN_DISPATCH_OK);
    CHECK(run_frame(&f) && read_texels(&f, out, second));
    /* An index past the new vertex count: warn-dropped, the two-triangle content stays. */
    indices[5] = 6;
    bool refused = !kiln_programs_update_geometry(f.programs, quad, &update, &gerr);
    char logged[400];
    snprintf(logged, sizeof logged, "%s", last_log(&f));
    CHECK_EQ_INT(dispatch(&f, prog, out, &quad, 1), KILN_DISPATCH_OK);
    CHECK(run_frame(&f) && read_texels(&f, out, third));
    /* Destroyed for good: the id stays unknown and the next create takes a new one. */
    CHECK(kiln_programs_destroy_geometry(f.programs, quad));
    CHECK(!kiln_programs_destroy_geometry(f.programs, quad));
    CHECK(!kiln_programs_update_geometry(f.programs, quad, &update, NULL));
    uint32_t next = make_quad(&f, -1, -1, 1, 1, 0, RED);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    int wrong = 0;
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 4; x++) {
            wrong += !texel_is(first, 4, x, y, RED);
            wrong += !texel_is(second, 4, x, y, x < 2 ? GREEN : CLEAR);
            wrong += !texel_is(third, 4, x, y, x < 2 ? GREEN : CLEAR);
        }
    CHECK_EQ_INT(wrong, 0);
    CHECK(refused && gerr.cls == KILN_GEOMETRY_INDEX_RANGE);
    CHECK(strcmp(logged, "dropped update_geometry of geometry 1 (index_out_of_range): indices[5]: 6 is past the last "
                         "vertex (6 vertices); it keeps its previous content") == 0);
    CHECK_EQ_INT(next, 2);
}

/* Each create_geometry failure class, with the value it names. */
TEST(create_geometry_refuses_each_class_before_taking_an_id) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    vertex v[3] = {{0}};
    uint32_t ok_indices[3] = {0, 1, 2}, bad_indices[3] = {0, 1, 3};
    struct {
        kiln_geometry_desc desc;
        kiln_geometry_class cls;
        const char *message;
    } rows[] = {
        {{.layout = {0}, .vertices = v, .vertices_size = sizeof v, .indices = ok_indices, .indices_size = 12},
         KILN_GEOMETRY_EMPTY_LAYOUT, "layout: declares no attribute"},
        {{.layout = {9}, .vertices = v, .vertices_size = sizeof v, .indices = ok_indices, .indices_size = 12},
         KILN_GEOMETRY_LAYOUT_TOO_LONG, "layout: 9 attributes; a layout declares at most 8"},
        {{.layout = {1, {{0, (kiln_vertex_format)40}}}, .vertices = v, .vertices_size = sizeof v,
          .indices = ok_indices, .indices_size = 12},
         KILN_GEOMETRY_UNKNOWN_FORMAT, "layout[0]: format 40 is not a kiln_vertex_format"},
        {{.layout = {1, {{16, KILN_VERTEX_FLOAT32X4}}}, .vertices = v, .vertices_size = sizeof v,
          .indices = ok_indices, .indices_size = 12},
         KILN_GEOMETRY_BAD_LOCATION, "layout[0]: location 16 is past the last location (15)"},
        {{.layout = {2, {{3, KILN_VERTEX_FLOAT32X3}, {3, KILN_VERTEX_UNORM8X4}}}, .vertices = v,
          .vertices_size = sizeof v, .indices = ok_indices, .indices_size = 12},
         KILN_GEOMETRY_DUPLICATE_LOCATION, "layout[1]: location 3 is declared already by layout[0]"},
        {{.layout = POS_COLOUR, .vertices = v, .vertices_size = (size_t)KILN_GEOMETRY_MAX_BYTES + 16,
          .indices = ok_indices, .indices_size = 12},
         KILN_GEOMETRY_TOO_LARGE, "vertices: 268435472 bytes; a geometry holds at most 268435456"},
        {{.layout = POS_COLOUR, .vertices = v, .vertices_size = 40, .indices = ok_indices, .indices_size = 12},
         KILN_GEOMETRY_VERTEX_BYTES, "vertices: 40 bytes is not a whole, non-zero number of 16-byte vertices"},
        {{.layout = POS_COLOUR, .vertices = NULL, .vertices_size = 48, .indices = ok_indices, .indices_size = 12},
         KILN_GEOMETRY_VERTEX_BYTES, "vertices: 0 bytes is not a whole, non-zero number of 16-byte vertices"},
        {{.layout = POS_COLOUR, .vertices = v, .vertices_size = sizeof v, .indices = ok_indices, .indices_size = 10},
         KILN_GEOMETRY_INDEX_BYTES, "indices: 10 bytes is not a whole number of u32 indices"},
        {{.layout = POS_COLOUR, .vertices = v, .vertices_size = sizeof v, .indices = ok_indices, .indices_size = 8},
         KILN_GEOMETRY_INDEX_COUNT, "indices: 2 indices is not a whole, non-zero number of triangles (3 per triangle)"},
        {{.layout = POS_COLOUR, .vertices = v, .vertices_size = sizeof v, .indices = bad_indices, .indices_size = 12},
         KILN_GEOMETRY_INDEX_RANGE, "indices[2]: 3 is past the last vertex (3 vertices)"},
    };
    int wrong = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        kiln_geometry_error err;
        uint32_t id = kiln_programs_create_geometry(f.programs, &rows[i].desc, &err);
        if (id == 0 && err.cls == rows[i].cls && strcmp(err.message, rows[i].message) == 0) continue;
        fprintf(stderr, "row %zu: id %u, %s \"%s\"\n", i, id, kiln_geometry_class_name(err.cls), err.message);
        wrong++;
    }
    kiln_geometry_desc good = {.layout = POS_COLOUR, .vertices = v, .vertices_size = sizeof v, .indices = ok_indices,
                               .indices_size = 12};
    uint32_t first = kiln_programs_create_geometry(f.programs, &good, NULL);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    CHECK_EQ_INT(wrong, 0);
    CHECK_EQ_INT(first, 1); /* no refused create took an id */
}

/* The upload queue realizes geometries at record calls, a few per call, before any dispatch
 * draws them. */
TEST(the_upload_queue_realizes_geometries_a_few_per_record) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    for (int i = 0; i < 6; i++) make_quad(&f, -1, -1, 1, 1, 0, RED);
    kiln_geometry_stats before = kiln_programs_geometry_stats(f.programs);
    CHECK(run_frame(&f));
    kiln_geometry_stats one = kiln_programs_geometry_stats(f.programs);
    CHECK(run_frame(&f));
    kiln_geometry_stats two = kiln_programs_geometry_stats(f.programs);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    CHECK(before.live == 6 && before.on_gpu == 0);
    CHECK_EQ_INT(one.on_gpu, 4);
    CHECK_EQ_INT(two.on_gpu, 6);
}

/* ---- device replacement ---------------------------------------------------------------------------- */

TEST(geometry_comes_back_under_its_id_after_a_device_loss) {
    program_fixture lost, fresh;
    PROGRAM_FIXTURE_OPEN(lost);
    PROGRAM_FIXTURE_OPEN(fresh);
    uint32_t prog = one_slot_program(&lost);
    uint32_t gone = make_quad(&lost, -1, -1, 1, 1, 0, RED), quad = make_quad(&lost, -1, -1, 0, 1, 0, BLUE);
    CHECK(kiln_programs_destroy_geometry(lost.programs, gone));
    uint32_t out = make_texture(&lost, KILN_FORMAT_RGBA8, 4, 4, NULL, true);
    float before[64], after[64];
    CHECK_EQ_INT(dispatch(&lost, prog, out, &quad, 1), KILN_DISPATCH_OK);
    CHECK(run_frame(&lost) && read_texels(&lost, out, before));

    wgpuDeviceForceLoss(lost.gfx.gfx->device, WGPUDeviceLostReason_Unknown, (WGPUStringView){"test loss", WGPU_STRLEN});
    kiln_gfx_pump(lost.gfx.gfx, true);
    bool was_lost = lost.gfx.gfx->lost;
    kiln_programs_destroy(fresh.programs);
    kiln_texture_registry_destroy(fresh.reg);
    kiln_texture_registry_move_to(lost.reg, fresh.gfx.res);
    kiln_error err = {0};
    fresh.programs = kiln_programs_recreate(lost.programs, fresh.gfx.gfx, fresh.gfx.res, lost.reg, &err);
    fresh.reg = lost.reg;
    lost.programs = NULL;
    lost.reg = NULL;
    CHECK_MSG(fresh.programs, "%s", err.message);
    kiln_geometry_stats moved = kiln_programs_geometry_stats(fresh.programs);
    const kiln_geometry_layout *layout = kiln_programs_geometry_layout(fresh.programs, quad);
    bool layout_kept = layout && kiln_geometry_layout_equal(layout, &POS_COLOUR);
    kiln_dispatch_class again = dispatch(&fresh, prog, out, &quad, 1);
    kiln_dispatch_class destroyed = dispatch(&fresh, prog, out, &gone, 1);
    bool painted = run_frame(&fresh) && read_texels(&fresh, out, after);
    uint32_t next = make_quad(&fresh, -1, -1, 1, 1, 0, RED);
    uint64_t lost_errors = program_fixture_close(&lost);
    PROGRAM_FIXTURE_CLOSE_CLEAN(fresh);
    CHECK(was_lost);
    CHECK(moved.live == 1 && moved.on_gpu == 0); /* the copy came across; the buffers are made anew */
    CHECK(layout_kept);
    CHECK_EQ_INT(again, KILN_DISPATCH_OK);
    CHECK_EQ_INT(destroyed, KILN_DISPATCH_UNKNOWN_GEOMETRY);
    CHECK(painted && memcmp(before, after, sizeof before) == 0);
    CHECK(texel_is(after, 4, 0, 0, BLUE) && texel_is(after, 4, 3, 0, CLEAR));
    CHECK_EQ_INT(next, 3); /* ids go on from where they were */
    CHECK_EQ_INT(lost_errors, 0);
}

TEST_MAIN(T(a_triangle_drawn_by_a_draw_pass_reads_back), T(two_passes_sharing_a_depth_slot_hide_each_other),
          T(a_colour_pass_compares_against_a_shadow_map_a_depth_only_pass_drew),
          T(a_fragment_pass_loads_a_depth_slot_texel_by_texel), T(clear_and_load_state_the_colour_load_with_repeats),
          T(a_half_covered_texel_of_a_four_transient_reads_the_average),
          T(an_integer_varying_without_flat_is_invalid_wgsl),
          T(geometry_dispatch_classes_drop_the_dispatch_naming_the_slot),
          T(a_geometry_destroyed_after_its_dispatch_drops_the_dispatch_whole),
          T(update_replaces_a_geometry_wholesale_and_a_refused_one_keeps_the_old),
          T(create_geometry_refuses_each_class_before_taking_an_id),
          T(the_upload_queue_realizes_geometries_a_few_per_record),
          T(geometry_comes_back_under_its_id_after_a_device_loss))
