/* Instance buffers, draw sets and draw-sets passes in rasterised pixels (Programs II): an
 * instanced draw of 10,000 records, each landing on its own texel; two sets sharing a geometry; a
 * geometry destroyed under its set still drawing; a TestOnly pass; back- and front-face culling;
 * an empty list; patching (overwrite, extend, truncate) and updating records; every create and
 * patch class; the draw-set dispatch classes; a set destroyed under its dispatch; device
 * replacement bringing buffers and sets back. Every test closes with zero Dawn errors. */
#include "program_test_util.h"

/* A record: an offset in clip space and a colour (Float32x2 + Unorm8x4, 12 bytes). */
typedef struct record {
    float x, y;
    uint8_t rgba[4];
} record;
_Static_assert(sizeof(record) == 12, "a record packs with no padding");

static const kiln_geometry_layout POSITION = {.attribute_count = 1, .attributes = {{0, KILN_VERTEX_FLOAT32X3}}};
static const kiln_geometry_layout PLACEMENT = {
    .attribute_count = 2, .attributes = {{4, KILN_VERTEX_FLOAT32X2}, {5, KILN_VERTEX_UNORM8X4}}};

static const char *const SETS_WGSL =
    "struct Placed { @builtin(position) position: vec4<f32>, @location(0) colour: vec4<f32> }\n"
    "@vertex fn vs_placed(@location(0) corner: vec3<f32>, @location(4) offset: vec2<f32>,\n"
    "                     @location(5) colour: vec4<f32>) -> Placed {\n"
    "    return Placed(vec4<f32>(corner.xy + offset, corner.z, 1.0), colour);\n"
    "}\n"
    "@fragment fn fs_main(v: Placed) -> @location(0) vec4<f32> { return v.colour; }\n";

static const uint8_t RED[4] = {255, 0, 0, 255}, GREEN[4] = {0, 255, 0, 255}, BLUE[4] = {0, 0, 255, 255},
                     CLEAR[4] = {0, 0, 0, 0};

static uint32_t make_geometry(program_fixture *f, const float *xyz, size_t vertices, const uint32_t *indices,
                              size_t index_count) {
    kiln_geometry_desc d = {.layout = POSITION, .vertices = xyz, .vertices_size = vertices * 12, .indices = indices,
                            .indices_size = index_count * 4};
    kiln_geometry_error err;
    uint32_t id = kiln_programs_create_geometry(f->programs, &d, &err);
    if (!id) fprintf(stderr, "create_geometry: %s\n", err.message);
    return id;
}

/* A rectangle from (x0, y0) to (x1, y1) at depth z, counter-clockwise. */
static uint32_t make_rect(program_fixture *f, float x0, float y0, float x1, float y1, float z) {
    const float v[12] = {x0, y0, z, x1, y0, z, x1, y1, z, x0, y1, z};
    static const uint32_t i[6] = {0, 1, 2, 0, 2, 3};
    return make_geometry(f, v, 4, i, 6);
}

static uint32_t make_records(program_fixture *f, const record *r, uint32_t count, uint32_t capacity) {
    kiln_instances_desc d = {.layout = PLACEMENT, .capacity = capacity, .records = r,
                             .records_size = (size_t)count * sizeof *r};
    kiln_instances_error err;
    uint32_t id = kiln_programs_create_instances(f->programs, &d, &err);
    if (!id) fprintf(stderr, "create_instances: %s\n", err.message);
    return id;
}

static uint32_t one_record(program_fixture *f, float x, float y, const uint8_t rgba[4]) {
    record r = {x, y, {rgba[0], rgba[1], rgba[2], rgba[3]}};
    return make_records(f, &r, 1, 1);
}

static kiln_draw whole(uint32_t geometry, uint32_t index_count, uint32_t instances, uint32_t records) {
    return (kiln_draw){.geometry_id = geometry, .index_count = index_count, .instances_id = instances,
                       .instance_count = records};
}

static uint32_t make_set(program_fixture *f, const kiln_draw *draws, uint32_t count) {
    kiln_draw_set_error err;
    uint32_t id = kiln_programs_create_draw_set(f->programs, &POSITION, &PLACEMENT, draws, count, &err);
    if (!id) fprintf(stderr, "create_draw_set: %s: %s\n", kiln_draw_set_class_name(err.cls), err.message);
    return id;
}

static kiln_pass_spec sets_pass(uint32_t list, kiln_pass_load load) {
    return (kiln_pass_spec){
        .stage = KILN_STAGE_DRAW_SETS, .entry_point = "fs_main", .output = {KILN_OUTPUT_BINDING, 0},
        .blend = KILN_PROGRAM_BLEND_REPLACE,
        .draw_sets = {.vertex_entry_point = "vs_placed", .vertex_layout = POSITION, .instance_layout = PLACEMENT,
                      .list = list, .load = load}};
}

static uint32_t register_passes(program_fixture *f, kiln_pass_spec *passes, uint32_t count, uint32_t depth_slots) {
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8)};
    kiln_depth_spec depths[2] = {{.samples = KILN_SAMPLES_ONE}, {.samples = KILN_SAMPLES_ONE}};
    kiln_program_desc desc = {.wgsl = SETS_WGSL, .binding_count = 1, .bindings = bindings, .pass_count = count,
                              .passes = passes, .depth_transient_count = depth_slots, .depth_transients = depths};
    kiln_program_error err;
    uint32_t id = kiln_programs_register(f->programs, &desc, &err);
    if (!id) fprintf(stderr, "register: %s: %s\n", kiln_program_class_name(err.cls), err.message);
    return id;
}

/* A dispatch with its lists given as (length, ids...) runs. */
static kiln_dispatch_class dispatch_lists(program_fixture *f, uint32_t program, uint32_t out, uint32_t list_count,
                                          const uint32_t *lengths, const uint32_t *ids) {
    kiln_dispatch_desc d = {.program_id = program, .texture_ids = &out, .texture_count = 1,
                            .draw_set_list_count = list_count, .draw_set_list_lengths = lengths, .draw_set_ids = ids};
    return kiln_programs_dispatch_with(f->programs, &d);
}

static kiln_dispatch_class dispatch_one_list(program_fixture *f, uint32_t program, uint32_t out, const uint32_t *ids,
                                             uint32_t count) {
    return dispatch_lists(f, program, out, 1, &count, ids);
}

static bool texel_is(const float *t, uint32_t w, uint32_t x, uint32_t y, const uint8_t want[4]) {
    uint8_t got[4];
    for (int c = 0; c < 4; c++) got[c] = (uint8_t)(t[(y * w + x) * 4 + c] * 255.0f + 0.5f);
    if (memcmp(got, want, 4) == 0) return true;
    fprintf(stderr, "texel (%u, %u) is %u %u %u %u, expected %u %u %u %u\n", x, y, got[0], got[1], got[2], got[3],
            want[0], want[1], want[2], want[3]);
    return false;
}

/* Every texel of a w x h read-back: `left` where x < split, `right` elsewhere. */
static int wrong_halves(const float *t, uint32_t w, uint32_t h, uint32_t split, const uint8_t left[4],
                        const uint8_t right[4]) {
    int wrong = 0;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) wrong += !texel_is(t, w, x, y, x < split ? left : right);
    return wrong;
}

/* ---- 10,000 instances ------------------------------------------------------------------------------ */

/* A 100 x 100 target, a quad of one texel, 10,000 records each placing it on its own texel with a
 * colour that names the record: every texel reads its record back. */
TEST(an_instanced_draw_of_ten_thousand_records_places_each_one) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    enum { SIDE = 100, COUNT = SIDE * SIDE };
    const float texel = 2.0f / SIDE;
    uint32_t quad = make_rect(&f, -1, 1 - texel, -1 + texel, 1, 0);
    record *records = malloc(COUNT * sizeof *records);
    CHECK(records);
    for (uint32_t i = 0; i < COUNT; i++)
        records[i] = (record){(float)(i % SIDE) * texel, -(float)(i / SIDE) * texel,
                              {(uint8_t)(i % 256), (uint8_t)(i / 256), 7, 255}};
    uint32_t instances = make_records(&f, records, COUNT, COUNT);
    free(records);
    kiln_draw draw = whole(quad, 6, instances, COUNT);
    uint32_t set = make_set(&f, &draw, 1);
    kiln_pass_spec passes[] = {sets_pass(0, KILN_LOAD_CLEAR)};
    uint32_t prog = register_passes(&f, passes, 1, 0);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, SIDE, SIDE, NULL, true);
    float *t = malloc(COUNT * 4 * sizeof *t);
    CHECK(t && prog && set);
    CHECK_EQ_INT(dispatch_one_list(&f, prog, out, &set, 1), KILN_DISPATCH_OK);
    CHECK(run_frame(&f) && read_texels(&f, out, t));
    kiln_pass_timing row;
    CHECK_EQ_INT(kiln_programs_timings(f.programs, prog, &row, 1), 1);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    int wrong = 0;
    for (uint32_t i = 0; i < COUNT && wrong < 5; i++) {
        const uint8_t want[4] = {(uint8_t)(i % 256), (uint8_t)(i / 256), 7, 255};
        wrong += !texel_is(t, SIDE, i % SIDE, i / SIDE, want);
    }
    free(t);
    CHECK_EQ_INT(wrong, 0);
    CHECK(row.stage == KILN_STAGE_DRAW_SETS && row.width == SIDE && row.height == SIDE);
}

/* ---- sets, geometries and holding ------------------------------------------------------------------ */

TEST(two_sets_sharing_a_geometry_both_draw) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t left_half = make_rect(&f, -1, -1, 0, 1, 0); /* moved right by its record */
    uint32_t red = one_record(&f, 0, 0, RED), green = one_record(&f, 1, 0, GREEN);
    kiln_draw a = whole(left_half, 6, red, 1), b = whole(left_half, 6, green, 1);
    uint32_t sets[2] = {make_set(&f, &a, 1), make_set(&f, &b, 1)};
    kiln_pass_spec passes[] = {sets_pass(0, KILN_LOAD_CLEAR)};
    uint32_t prog = register_passes(&f, passes, 1, 0);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, 8, 4, NULL, true);
    float t[8 * 4 * 4], only_red[8 * 4 * 4];
    CHECK_EQ_INT(dispatch_one_list(&f, prog, out, sets, 2), KILN_DISPATCH_OK);
    CHECK(run_frame(&f) && read_texels(&f, out, t));
    /* Hiding a set costs nothing but the list. */
    CHECK_EQ_INT(dispatch_one_list(&f, prog, out, sets, 1), KILN_DISPATCH_OK);
    CHECK(run_frame(&f) && read_texels(&f, out, only_red));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    CHECK_EQ_INT(wrong_halves(t, 8, 4, 4, RED, GREEN), 0);
    CHECK_EQ_INT(wrong_halves(only_red, 8, 4, 4, RED, CLEAR), 0);
}

TEST(a_geometry_and_records_destroyed_under_their_set_still_draw) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t full = make_rect(&f, -1, -1, 1, 1, 0), blue = one_record(&f, 0, 0, BLUE);
    kiln_draw draw = whole(full, 6, blue, 1);
    uint32_t set = make_set(&f, &draw, 1);
    kiln_pass_spec passes[] = {sets_pass(0, KILN_LOAD_CLEAR)};
    uint32_t prog = register_passes(&f, passes, 1, 0);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, 4, 4, NULL, true);
    float t[64];
    CHECK(kiln_programs_destroy_geometry(f.programs, full));
    CHECK(kiln_programs_destroy_instances(f.programs, blue));
    /* Retired: nothing can name them again, not a new draw, not an update, not a second destroy. */
    kiln_draw_set_error derr;
    bool refused_draw = kiln_programs_create_draw_set(f.programs, &POSITION, &PLACEMENT, &draw, 1, &derr) == 0;
    bool refused_again = !kiln_programs_destroy_geometry(f.programs, full);
    kiln_geometry_stats held = kiln_programs_geometry_stats(f.programs);
    CHECK_EQ_INT(dispatch_one_list(&f, prog, out, &set, 1), KILN_DISPATCH_OK);
    CHECK(run_frame(&f) && read_texels(&f, out, t));
    CHECK(kiln_programs_destroy_draw_set(f.programs, set)); /* lets the last hold go: both released now */
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    CHECK(refused_draw && derr.cls == KILN_DRAW_SET_UNKNOWN_GEOMETRY);
    CHECK(strcmp(derr.message, "draw 0: geometry 1 is not live") == 0);
    CHECK(refused_again);
    CHECK_EQ_INT(held.live, 0);
    CHECK_EQ_INT(wrong_halves(t, 4, 4, 4, BLUE, BLUE), 0);
}

TEST(a_held_geometry_takes_new_vertex_contents_only) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t left = make_rect(&f, -1, -1, 0, 1, 0), red = one_record(&f, 0, 0, RED);
    kiln_draw draw = whole(left, 6, red, 1);
    uint32_t set = make_set(&f, &draw, 1);
    kiln_pass_spec passes[] = {sets_pass(0, KILN_LOAD_CLEAR)};
    uint32_t prog = register_passes(&f, passes, 1, 0);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, 8, 4, NULL, true);
    float t[8 * 4 * 4];
    /* The same four vertices moved to the right half, the same indices: accepted. */
    const float right[12] = {0, -1, 0, 1, -1, 0, 1, 1, 0, 0, 1, 0};
    static const uint32_t indices[6] = {0, 1, 2, 0, 2, 3}, three[3] = {0, 1, 2};
    kiln_geometry_desc moved = {.vertices = right, .vertices_size = sizeof right, .indices = indices,
                                .indices_size = sizeof indices};
    kiln_geometry_error gerr;
    CHECK(kiln_programs_update_geometry(f.programs, left, &moved, &gerr));
    kiln_geometry_desc fewer = {.vertices = right, .vertices_size = sizeof right, .indices = three,
                                .indices_size = sizeof three};
    bool refused = !kiln_programs_update_geometry(f.programs, left, &fewer, &gerr);
    CHECK_EQ_INT(dispatch_one_list(&f, prog, out, &set, 1), KILN_DISPATCH_OK);
    CHECK(run_frame(&f) && read_texels(&f, out, t));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    CHECK(refused && gerr.cls == KILN_GEOMETRY_HELD);
    CHECK(strcmp(gerr.message, "geometry 1 is held by 1 draw set: an update may change its vertex contents only "
                               "(same vertex count, the same indices)") == 0);
    CHECK_EQ_INT(wrong_halves(t, 8, 4, 4, CLEAR, RED), 0);
}

/* ---- depth and culling ------------------------------------------------------------------------------ */

/* Pass 0 writes a near red left half; pass 1 (TestOnly) draws green everywhere at mid depth and
 * shows only on the right; pass 2 (Write) draws blue everywhere behind the green: it wins on the
 * right, which it could not had pass 1 written its depth. */
TEST(a_test_only_pass_tests_and_leaves_the_slot_as_it_was) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t near_left = make_rect(&f, -1, -1, 0, 1, 0.25f), mid = make_rect(&f, -1, -1, 1, 1, 0.5f),
             far = make_rect(&f, -1, -1, 1, 1, 0.75f);
    uint32_t red = one_record(&f, 0, 0, RED), green = one_record(&f, 0, 0, GREEN), blue = one_record(&f, 0, 0, BLUE);
    kiln_draw d0 = whole(near_left, 6, red, 1), d1 = whole(mid, 6, green, 1), d2 = whole(far, 6, blue, 1);
    uint32_t sets[3] = {make_set(&f, &d0, 1), make_set(&f, &d1, 1), make_set(&f, &d2, 1)};
    kiln_pass_spec passes[3] = {sets_pass(0, KILN_LOAD_CLEAR), sets_pass(1, KILN_LOAD_LOAD), sets_pass(2, KILN_LOAD_LOAD)};
    for (int i = 0; i < 3; i++) {
        passes[i].draw_sets.depth = true;
        passes[i].draw_sets.depth_write = i == 1 ? KILN_DEPTH_TEST_ONLY : KILN_DEPTH_WRITE;
    }
    uint32_t prog = register_passes(&f, passes, 3, 1);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, 8, 4, NULL, true), second = make_texture(&f, KILN_FORMAT_RGBA8, 8, 4, NULL, true);
    float t[8 * 4 * 4], t_only[8 * 4 * 4];
    static const uint32_t lengths[3] = {1, 1, 1};
    CHECK(prog);
    CHECK_EQ_INT(dispatch_lists(&f, prog, out, 3, lengths, sets), KILN_DISPATCH_OK);
    /* A TestOnly pass first to name its slot tests against the far plane: everything passes. */
    static const uint32_t only_green[3] = {0, 1, 0};
    CHECK_EQ_INT(dispatch_lists(&f, prog, second, 3, only_green, sets + 1), KILN_DISPATCH_OK);
    CHECK(run_frame(&f) && read_texels(&f, out, t) && read_texels(&f, second, t_only));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    CHECK_EQ_INT(wrong_halves(t, 8, 4, 4, RED, BLUE), 0);
    CHECK_EQ_INT(wrong_halves(t_only, 8, 4, 4, GREEN, GREEN), 0);
}

/* One counter-clockwise triangle on the left, one clockwise on the right. */
TEST(back_and_front_culling_discard_their_windings) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    const float v[18] = {-1, -1, 0, 0, -1, 0, -1, 1, 0, /* CCW */ 0, -1, 0, 0, 1, 0, 1, -1, 0 /* CW */};
    static const uint32_t i[6] = {0, 1, 2, 3, 4, 5};
    uint32_t tris = make_geometry(&f, v, 6, i, 6), red = one_record(&f, 0, 0, RED);
    kiln_draw draw = whole(tris, 6, red, 1);
    uint32_t set = make_set(&f, &draw, 1);
    uint32_t progs[3], outs[3];
    for (int c = 0; c < 3; c++) {
        kiln_pass_spec passes[] = {sets_pass(0, KILN_LOAD_CLEAR)};
        passes[0].draw_sets.cull = (kiln_cull)c;
        progs[c] = register_passes(&f, passes, 1, 0);
        outs[c] = make_texture(&f, KILN_FORMAT_RGBA8, 8, 8, NULL, true);
        CHECK_EQ_INT(dispatch_one_list(&f, progs[c], outs[c], &set, 1), KILN_DISPATCH_OK);
    }
    float t[3][8 * 8 * 4];
    CHECK(run_frame(&f));
    for (int c = 0; c < 3; c++) CHECK(read_texels(&f, outs[c], t[c]));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    /* Texel (1, 6) lies inside the left triangle, (6, 6) inside the right one. */
    CHECK(texel_is(t[KILN_CULL_NONE], 8, 1, 6, RED) && texel_is(t[KILN_CULL_NONE], 8, 6, 6, RED));
    CHECK(texel_is(t[KILN_CULL_BACK], 8, 1, 6, RED) && texel_is(t[KILN_CULL_BACK], 8, 6, 6, CLEAR));
    CHECK(texel_is(t[KILN_CULL_FRONT], 8, 1, 6, CLEAR) && texel_is(t[KILN_CULL_FRONT], 8, 6, 6, RED));
}

TEST(an_empty_list_clears_and_draws_nothing) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    kiln_pass_spec passes[] = {sets_pass(0, KILN_LOAD_CLEAR)};
    uint32_t prog = register_passes(&f, passes, 1, 0);
    uint8_t grey[4 * 4 * 4];
    memset(grey, 90, sizeof grey);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, 4, 4, grey, true);
    float t[64];
    CHECK_EQ_INT(dispatch_one_list(&f, prog, out, NULL, 0), KILN_DISPATCH_OK);
    CHECK(run_frame(&f) && read_texels(&f, out, t));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    CHECK_EQ_INT(wrong_halves(t, 4, 4, 4, CLEAR, CLEAR), 0);
}

/* ---- patches and updates ------------------------------------------------------------------------------ */

/* Four quarter-width columns, one draw each; patches overwrite, extend and truncate in place. */
TEST(patches_overwrite_extend_and_truncate_and_a_refused_one_changes_nothing) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t column = make_rect(&f, -1, -1, -0.5f, 1, 0);
    record r[4] = {{0, 0, {255, 0, 0, 255}}, {0.5f, 0, {0, 255, 0, 255}}, {1, 0, {0, 0, 255, 255}},
                   {1.5f, 0, {255, 255, 255, 255}}};
    uint32_t columns = make_records(&f, r, 4, 4);
    kiln_draw draws[4];
    for (uint32_t i = 0; i < 4; i++)
        draws[i] = (kiln_draw){column, 0, 6, columns, i, 1};
    uint32_t set = make_set(&f, draws, 2); /* columns 0 and 1 */
    kiln_pass_spec passes[] = {sets_pass(0, KILN_LOAD_CLEAR)};
    uint32_t prog = register_passes(&f, passes, 1, 0);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, 8, 2, NULL, true);
    float t[4][8 * 2 * 4];
    kiln_draw_set_error err;
    /* Extend: append columns 2 and 3 at the set's length. */
    CHECK(kiln_programs_update_draw_set(f.programs, set, 2, draws + 2, 2, &err));
    CHECK_EQ_INT(kiln_programs_draw_set_length(f.programs, set), 4);
    CHECK_EQ_INT(dispatch_one_list(&f, prog, out, &set, 1), KILN_DISPATCH_OK);
    CHECK(run_frame(&f) && read_texels(&f, out, t[0]));
    /* Overwrite entry 1 with a blank draw (count 0): column 1 disappears, the others stay put. */
    kiln_draw blank = {column, 0, 0, columns, 1, 1};
    CHECK(kiln_programs_update_draw_set(f.programs, set, 1, &blank, 1, &err));
    CHECK_EQ_INT(dispatch_one_list(&f, prog, out, &set, 1), KILN_DISPATCH_OK);
    CHECK(run_frame(&f) && read_texels(&f, out, t[1]));
    /* A patch past the end and a patch with one bad draw are refused whole. */
    bool past = !kiln_programs_update_draw_set(f.programs, set, 5, draws, 1, &err) && err.cls == KILN_DRAW_SET_BAD_FIRST;
    char past_message[256];
    snprintf(past_message, sizeof past_message, "%s", err.message);
    kiln_draw bad[2] = {draws[0], {column, 3, 6, columns, 0, 1}};
    bool ranged = !kiln_programs_update_draw_set(f.programs, set, 0, bad, 2, &err) && err.cls == KILN_DRAW_SET_INDEX_RANGE;
    char range_message[256];
    snprintf(range_message, sizeof range_message, "%s", err.message);
    CHECK_EQ_INT(dispatch_one_list(&f, prog, out, &set, 1), KILN_DISPATCH_OK);
    CHECK(run_frame(&f) && read_texels(&f, out, t[2]));
    /* Truncate to one entry. */
    CHECK(kiln_programs_update_draw_set(f.programs, set, 1, NULL, 0, &err));
    CHECK_EQ_INT(kiln_programs_draw_set_length(f.programs, set), 1);
    CHECK_EQ_INT(dispatch_one_list(&f, prog, out, &set, 1), KILN_DISPATCH_OK);
    CHECK(run_frame(&f) && read_texels(&f, out, t[3]));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    static const uint8_t W[4] = {255, 255, 255, 255};
    const uint8_t *full[4] = {RED, GREEN, BLUE, W}, *blanked[4] = {RED, CLEAR, BLUE, W}, *one[4] = {RED, CLEAR, CLEAR, CLEAR};
    int wrong = 0;
    for (uint32_t x = 0; x < 8; x++) {
        wrong += !texel_is(t[0], 8, x, 0, full[x / 2]);
        wrong += !texel_is(t[1], 8, x, 0, blanked[x / 2]);
        wrong += !texel_is(t[2], 8, x, 0, blanked[x / 2]);
        wrong += !texel_is(t[3], 8, x, 0, one[x / 2]);
    }
    CHECK_EQ_INT(wrong, 0);
    CHECK(past && strcmp(past_message, "first: 5 is past the set's 4 draws (append at 4)") == 0);
    CHECK(ranged && strcmp(range_message, "draw 1: indices 3..9 pass geometry 1's 6 indices") == 0);
}

/* update_instances writes a run in place and the next draw uploads it; a refused run changes no
 * record. */
TEST(update_instances_moves_what_it_writes_and_a_refused_run_nothing) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t column = make_rect(&f, -1, -1, -0.5f, 1, 0);
    record r[2] = {{0, 0, {255, 0, 0, 255}}, {0.5f, 0, {0, 255, 0, 255}}};
    uint32_t buffer = make_records(&f, r, 2, 4); /* records 2 and 3 start zeroed */
    kiln_draw draw = {column, 0, 6, buffer, 0, 2};
    uint32_t set = make_set(&f, &draw, 1);
    kiln_pass_spec passes[] = {sets_pass(0, KILN_LOAD_CLEAR)};
    uint32_t prog = register_passes(&f, passes, 1, 0);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, 8, 2, NULL, true);
    float before[64], after[64];
    CHECK_EQ_INT(dispatch_one_list(&f, prog, out, &set, 1), KILN_DISPATCH_OK);
    CHECK(run_frame(&f) && read_texels(&f, out, before));
    record moved = {1.5f, 0, {0, 0, 255, 255}};
    kiln_instances_error err;
    CHECK(kiln_programs_update_instances(f.programs, buffer, 1, &moved, sizeof moved, &err));
    record three[3] = {moved, moved, moved};
    bool refused = !kiln_programs_update_instances(f.programs, buffer, 2, three, sizeof three, &err) &&
                   err.cls == KILN_INSTANCES_PAST_CAPACITY;
    char message[256];
    snprintf(message, sizeof message, "%s", err.message);
    CHECK(kiln_programs_update_instances(f.programs, buffer, 4, NULL, 0, &err)); /* empty: writes nothing */
    CHECK_EQ_INT(dispatch_one_list(&f, prog, out, &set, 1), KILN_DISPATCH_OK);
    CHECK(run_frame(&f) && read_texels(&f, out, after));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    const uint8_t *was[4] = {RED, GREEN, CLEAR, CLEAR}, *now[4] = {RED, CLEAR, CLEAR, BLUE};
    int wrong = 0;
    for (uint32_t x = 0; x < 8; x++) wrong += !texel_is(before, 8, x, 0, was[x / 2]) + !texel_is(after, 8, x, 0, now[x / 2]);
    CHECK_EQ_INT(wrong, 0);
    CHECK(refused);
    CHECK(strcmp(message, "records: 3 records from record 2 end at 5, past the capacity of 4") == 0);
}

/* ---- classes ------------------------------------------------------------------------------------------ */

TEST(create_instances_and_create_draw_set_refuse_each_class_before_taking_an_id) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t quad = make_rect(&f, -1, -1, 1, 1, 0);
    record r[2] = {{0}};
    struct {
        kiln_instances_desc desc;
        kiln_instances_class cls;
        const char *message;
    } instance_rows[] = {
        {{.layout = {0}, .capacity = 1}, KILN_INSTANCES_BAD_LAYOUT, "layout: declares no attribute (empty_layout)"},
        {{.layout = PLACEMENT, .capacity = 0}, KILN_INSTANCES_ZERO_CAPACITY, "capacity: 0 records; a buffer holds at least 1"},
        {{.layout = PLACEMENT, .capacity = 30000000}, KILN_INSTANCES_TOO_LARGE,
         "capacity: 30000000 records of 12 bytes is 360000000 bytes; a buffer holds at most 268435456"},
        {{.layout = PLACEMENT, .capacity = 4, .records = r, .records_size = 13}, KILN_INSTANCES_RECORD_BYTES,
         "records: 13 bytes is not a whole number of 12-byte records"},
        {{.layout = PLACEMENT, .capacity = 1, .records = r, .records_size = 24}, KILN_INSTANCES_PAST_CAPACITY,
         "records: 2 records from record 0 end at 2, past the capacity of 1"},
    };
    int wrong = 0;
    for (size_t i = 0; i < sizeof instance_rows / sizeof instance_rows[0]; i++) {
        kiln_instances_error err;
        uint32_t id = kiln_programs_create_instances(f.programs, &instance_rows[i].desc, &err);
        if (id == 0 && err.cls == instance_rows[i].cls && strcmp(err.message, instance_rows[i].message) == 0) continue;
        fprintf(stderr, "instances row %zu: id %u, %s \"%s\"\n", i, id, kiln_instances_class_name(err.cls), err.message);
        wrong++;
    }
    uint32_t buffer = make_records(&f, r, 2, 2);
    kiln_instances_desc other = {.layout = {1, {{4, KILN_VERTEX_FLOAT32X4}}}, .capacity = 1};
    uint32_t other_buffer = kiln_programs_create_instances(f.programs, &other, NULL);
    const kiln_geometry_layout shared = {1, {{0, KILN_VERTEX_FLOAT32X2}}};
    const kiln_geometry_layout positions2 = {1, {{0, KILN_VERTEX_FLOAT32X2}}};
    struct {
        const kiln_geometry_layout *vertex, *instance;
        kiln_draw draw;
        kiln_draw_set_class cls;
        const char *message;
    } set_rows[] = {
        {&POSITION, &shared, whole(quad, 6, buffer, 1), KILN_DRAW_SET_BAD_LAYOUT,
         "instance_layout[0]: location 0 is vertex_layout[0]'s; the two layouts share no location"},
        {&POSITION, &PLACEMENT, whole(9, 6, buffer, 1), KILN_DRAW_SET_UNKNOWN_GEOMETRY, "draw 0: geometry 9 is not live"},
        {&positions2, &PLACEMENT, whole(quad, 6, buffer, 1), KILN_DRAW_SET_GEOMETRY_LAYOUT,
         "draw 0: geometry 1 has layout [0 Float32x3]; the vertex layout is [0 Float32x2]"},
        {&POSITION, &PLACEMENT, whole(quad, 7, buffer, 1), KILN_DRAW_SET_INDEX_RANGE,
         "draw 0: indices 0..7 pass geometry 1's 6 indices"},
        {&POSITION, &PLACEMENT, whole(quad, 6, 9, 1), KILN_DRAW_SET_UNKNOWN_INSTANCES,
         "draw 0: instance buffer 9 is not live"},
        {&POSITION, &PLACEMENT, whole(quad, 6, other_buffer, 1), KILN_DRAW_SET_INSTANCES_LAYOUT,
         "draw 0: instance buffer 2 has layout [4 Float32x4]; the instance layout is [4 Float32x2, 5 Unorm8x4]"},
        {&POSITION, &PLACEMENT, {quad, 0, 6, buffer, 1, UINT32_MAX}, KILN_DRAW_SET_INSTANCE_RANGE,
         "draw 0: records 1..4294967296 pass instance buffer 1's capacity of 2"},
    };
    for (size_t i = 0; i < sizeof set_rows / sizeof set_rows[0]; i++) {
        kiln_draw_set_error err;
        uint32_t id = kiln_programs_create_draw_set(f.programs, set_rows[i].vertex, set_rows[i].instance,
                                                    &set_rows[i].draw, 1, &err);
        if (id == 0 && err.cls == set_rows[i].cls && strcmp(err.message, set_rows[i].message) == 0) continue;
        fprintf(stderr, "set row %zu: id %u, %s \"%s\"\n", i, id, kiln_draw_set_class_name(err.cls), err.message);
        wrong++;
    }
    kiln_draw good = whole(quad, 6, buffer, 2);
    uint32_t first_set = make_set(&f, &good, 1);
    bool unknown = !kiln_programs_update_draw_set(f.programs, 5, 0, &good, 1, NULL);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    CHECK_EQ_INT(wrong, 0);
    CHECK(buffer == 1 && other_buffer == 2 && first_set == 1); /* no refused create took an id */
    CHECK(unknown);
}

/* The draw-set dispatch classes, in order, each naming what is wrong; a set destroyed after its
 * dispatch drops that dispatch whole at the record. */
TEST(draw_set_dispatch_classes_and_a_set_destroyed_under_its_dispatch) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t quad = make_rect(&f, -1, -1, 1, 1, 0), red = one_record(&f, 0, 0, RED);
    kiln_draw draw = whole(quad, 6, red, 1);
    uint32_t set = make_set(&f, &draw, 1);
    const kiln_geometry_layout colour_only = {1, {{5, KILN_VERTEX_UNORM8X4}}};
    kiln_instances_desc plain = {.layout = colour_only, .capacity = 1};
    uint32_t plain_records = kiln_programs_create_instances(f.programs, &plain, NULL);
    kiln_draw other_draw = whole(quad, 6, plain_records, 1);
    uint32_t other = kiln_programs_create_draw_set(f.programs, &POSITION, &colour_only, &other_draw, 1, NULL);
    kiln_pass_spec passes[] = {sets_pass(0, KILN_LOAD_CLEAR)};
    uint32_t prog = register_passes(&f, passes, 1, 0);
    uint8_t grey[64];
    memset(grey, 33, sizeof grey);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, 4, 4, grey, true);
    char logs[3][400];
    kiln_dispatch_class count = dispatch_lists(&f, prog, out, 0, NULL, NULL);
    snprintf(logs[0], sizeof logs[0], "%s", last_log(&f));
    uint32_t missing = 77;
    kiln_dispatch_class unknown = dispatch_one_list(&f, prog, out, &missing, 1);
    snprintf(logs[1], sizeof logs[1], "%s", last_log(&f));
    kiln_dispatch_class layout = dispatch_one_list(&f, prog, out, &other, 1);
    snprintf(logs[2], sizeof logs[2], "%s", last_log(&f));
    CHECK_EQ_INT(dispatch_one_list(&f, prog, out, &set, 1), KILN_DISPATCH_OK);
    CHECK(kiln_programs_destroy_draw_set(f.programs, set));
    bool recorded = kiln_programs_frame(f.programs, NULL);
    char dropped[400];
    snprintf(dropped, sizeof dropped, "%s", last_log(&f));
    float t[64];
    CHECK(read_texels(&f, out, t));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
    CHECK_EQ_INT(count, KILN_DISPATCH_DRAW_SET_COUNT);
    CHECK_MSG(strcmp(logs[0], "dropped dispatch of program 1 (draw_set_count): the dispatch names 0 draw-set lists; "
                              "the program's draw-sets passes draw 1") == 0, "%s", logs[0]);
    CHECK_EQ_INT(unknown, KILN_DISPATCH_UNKNOWN_DRAW_SET);
    CHECK_MSG(strcmp(logs[1], "dropped dispatch of program 1 (unknown_draw_set): draw-set list 0, entry 0: names no "
                              "live draw set") == 0, "%s", logs[1]);
    CHECK_EQ_INT(layout, KILN_DISPATCH_DRAW_SET_LAYOUT);
    CHECK_MSG(strcmp(logs[2], "dropped dispatch of program 1 (draw_set_layout_mismatch): pass 0 (fs_main), draw-set "
                              "list 0: draw set 2 has the instance layout [5 Unorm8x4]; the pass declares [4 "
                              "Float32x2, 5 Unorm8x4]") == 0, "%s", logs[2]);
    CHECK(!recorded);
    CHECK_STR_CONTAINS(dropped, "(unknown_draw_set): draw-set list 0: draw set 1 was destroyed after the dispatch was "
                                "accepted; the dispatch records nothing");
    int changed = 0;
    for (int i = 0; i < 64; i++) changed += fabsf(t[i] - 33.0f / 255.0f) > 1e-6f;
    CHECK_EQ_INT(changed, 0);
}

/* ---- device replacement -------------------------------------------------------------------------------- */

TEST(instances_and_sets_come_back_under_their_ids_after_a_device_loss) {
    program_fixture lost, fresh;
    PROGRAM_FIXTURE_OPEN(lost);
    PROGRAM_FIXTURE_OPEN(fresh);
    uint32_t left = make_rect(&lost, -1, -1, 0, 1, 0);
    record r = {1, 0, {0, 0, 255, 255}};
    uint32_t buffer = make_records(&lost, &r, 1, 1);
    kiln_draw draw = whole(left, 6, buffer, 1);
    uint32_t set = make_set(&lost, &draw, 1);
    CHECK(kiln_programs_destroy_geometry(lost.programs, left)); /* held: it must come back too */
    kiln_pass_spec passes[] = {sets_pass(0, KILN_LOAD_CLEAR)};
    uint32_t prog = register_passes(&lost, passes, 1, 0);
    uint32_t out = make_texture(&lost, KILN_FORMAT_RGBA8, 8, 4, NULL, true);
    float before[128], after[128];
    CHECK_EQ_INT(dispatch_one_list(&lost, prog, out, &set, 1), KILN_DISPATCH_OK);
    CHECK(run_frame(&lost) && read_texels(&lost, out, before));
    wgpuDeviceForceLoss(lost.gfx.gfx->device, WGPUDeviceLostReason_Unknown, (WGPUStringView){"test loss", WGPU_STRLEN});
    kiln_gfx_pump(lost.gfx.gfx, true);
    kiln_programs_destroy(fresh.programs);
    kiln_texture_registry_destroy(fresh.reg);
    kiln_texture_registry_move_to(lost.reg, fresh.gfx.res);
    kiln_error err = {0};
    fresh.programs = kiln_programs_recreate(lost.programs, fresh.gfx.gfx, fresh.gfx.res, lost.reg, &err);
    fresh.reg = lost.reg;
    lost.programs = NULL;
    lost.reg = NULL;
    CHECK_MSG(fresh.programs, "%s", err.message);
    uint32_t length = kiln_programs_draw_set_length(fresh.programs, set);
    CHECK_EQ_INT(dispatch_one_list(&fresh, prog, out, &set, 1), KILN_DISPATCH_OK);
    bool painted = run_frame(&fresh) && read_texels(&fresh, out, after);
    uint32_t next = one_record(&fresh, 0, 0, RED);
    uint64_t lost_errors = program_fixture_close(&lost);
    PROGRAM_FIXTURE_CLOSE_CLEAN(fresh);
    CHECK_EQ_INT(length, 1);
    CHECK(painted && memcmp(before, after, sizeof before) == 0);
    CHECK_EQ_INT(wrong_halves(after, 8, 4, 4, CLEAR, BLUE), 0);
    CHECK_EQ_INT(next, 2);
    CHECK_EQ_INT(lost_errors, 0);
}

TEST_MAIN(T(an_instanced_draw_of_ten_thousand_records_places_each_one), T(two_sets_sharing_a_geometry_both_draw),
          T(a_geometry_and_records_destroyed_under_their_set_still_draw),
          T(a_held_geometry_takes_new_vertex_contents_only), T(a_test_only_pass_tests_and_leaves_the_slot_as_it_was),
          T(back_and_front_culling_discard_their_windings), T(an_empty_list_clears_and_draws_nothing),
          T(patches_overwrite_extend_and_truncate_and_a_refused_one_changes_nothing),
          T(update_instances_moves_what_it_writes_and_a_refused_run_nothing),
          T(create_instances_and_create_draw_set_refuse_each_class_before_taking_an_id),
          T(draw_set_dispatch_classes_and_a_set_destroyed_under_its_dispatch),
          T(instances_and_sets_come_back_under_their_ids_after_a_device_loss))
