/* Texture arrays and volumes read by programs, in rasterised pixels read back: an array layer and a
 * volume sampled at fractional coordinates (the volume between two slices, and wrapping on its
 * third axis under Repeat), layers never written reading zero, every written layer uploaded in the
 * frame of the dispatch that binds the array, R32Float arrays and volumes bound and read nearest,
 * a mip chain's level sizes and a Chain binding reading past the base level where a Base one does
 * not, the kind checks in both directions, and both coming back after a forced device loss. */
#include "program_test_util.h"

/* Each output pixel i samples at the coordinate p.c[i] (xy, then the layer or w in z). */
#define COORDS_BLOCK "struct P { c: array<vec4<f32>, 4> }\n@group(0) @binding(0) var<uniform> p: P;\n"

static const char *const ARRAY_WGSL =
    COORDS_BLOCK
    "@group(1) @binding(0) var layers: texture_2d_array<f32>;\n"
    "@group(1) @binding(1) var layers_sampler: sampler;\n"
    "@fragment fn fs_array(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {\n"
    "    let c = p.c[u32(pos.x)];\n"
    "    return textureSampleLevel(layers, layers_sampler, c.xy, i32(c.z), 0.0);\n"
    "}\n";

static const char *const VOLUME_WGSL =
    COORDS_BLOCK
    "@group(1) @binding(0) var volume: texture_3d<f32>;\n"
    "@group(1) @binding(1) var volume_sampler: sampler;\n"
    "@fragment fn fs_volume(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {\n"
    "    let c = p.c[u32(pos.x)];\n"
    "    return vec4<f32>(textureSampleLevel(volume, volume_sampler, c.xyz, 0.0).r, 0.0, 0.0, 1.0);\n"
    "}\n";

static const kiln_slot_sampling CLAMP_BASE = {false, KILN_WRAP_CLAMP, KILN_MIPS_BASE};
static const kiln_slot_sampling REPEAT_BASE = {false, KILN_WRAP_REPEAT, KILN_MIPS_BASE};

static kiln_slot_spec shaped_slot(kiln_texture_format format, kiln_slot_shape_kind shape, kiln_slot_sampling sampling) {
    return (kiln_slot_spec){.format = format, .shape = {.kind = shape}, .sampling = sampling};
}

/* bindings: 0 the output (Target(Full), `out_format`), 1 `input`; one pass of `entry` reads 1 into 0
 * with a 64-byte window of coordinates. */
static uint32_t register_reader(program_fixture *f, const char *wgsl, const char *entry, kiln_texture_format out_format,
                                kiln_slot_spec input) {
    kiln_slot_spec bindings[] = {target_slot(out_format), input};
    kiln_pass_spec passes[] = {
        with_input(with_window(fragment_pass(entry, to_binding(0), KILN_PROGRAM_BLEND_REPLACE), 0, 64), from_binding(1)),
    };
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(wgsl, bindings, passes);
    kiln_program_error err;
    uint32_t id = kiln_programs_register(f->programs, &desc, &err);
    if (!id) fprintf(stderr, "register: %s\n", err.message);
    return id;
}

static uint32_t make_array(program_fixture *f, kiln_texture_format format, uint32_t side, uint32_t layers, bool mips) {
    kiln_error err = {0};
    kiln_texture_array_desc d = {.format = format, .side = side, .layers = layers, .mips = mips};
    uint32_t id = kiln_texture_registry_add_array(f->reg, &d, &err);
    if (!id) fprintf(stderr, "make_array: %s\n", err.message);
    return id;
}

static uint32_t make_volume(program_fixture *f, kiln_texture_format format, uint32_t w, uint32_t h, uint32_t d,
                            const void *pixels) {
    kiln_error err = {0};
    kiln_texture_volume_desc desc = {.format = format, .width = w, .height = h, .depth = d, .pixels = pixels,
                                     .pixels_size = (size_t)w * h * d * kiln_texture_format_bytes(format)};
    uint32_t id = kiln_texture_registry_add_volume(f->reg, &desc, &err);
    if (!id) fprintf(stderr, "make_volume: %s\n", err.message);
    return id;
}

static bool write_layer(program_fixture *f, uint32_t id, uint32_t layer, const void *pixels, size_t size) {
    kiln_error err = {0};
    bool ok = kiln_texture_registry_write_layer(f->reg, id, layer, pixels, size, &err);
    if (!ok) fprintf(stderr, "write_layer: %s\n", err.message);
    return ok;
}

/* Dispatches `prog` over {output, input} with the coordinate table and records the frame. */
static bool dispatch_and_run(program_fixture *f, uint32_t prog, uint32_t output, uint32_t input, const float coords[16]) {
    uint32_t ids[] = {output, input};
    kiln_dispatch_class cls = kiln_programs_dispatch(f->programs, prog, ids, 2, coords, 16 * sizeof(float));
    if (cls != KILN_DISPATCH_OK) fprintf(stderr, "dispatch: %s\n", last_log(f));
    return cls == KILN_DISPATCH_OK && run_frame(f);
}

static bool near_all(const float *got, const float *want, size_t n, float eps) {
    bool ok = true;
    for (size_t i = 0; i < n; i++)
        if (fabsf(got[i] - want[i]) > eps) {
            fprintf(stderr, "  value %zu: got %g, want %g\n", i, got[i], want[i]);
            ok = false;
        }
    return ok;
}

static void rgba8(uint8_t *texel, uint8_t r, uint8_t g, uint8_t b, uint8_t a) {
    texel[0] = r, texel[1] = g, texel[2] = b, texel[3] = a;
}

/* Layer 1 of a 2x2 Rgba8 array: red 0 in column 0 and 255 in column 1, green likewise by row,
 * blue 64; layer 0 is opaque red and layer 2 is never written. Read at texel centres, halfway and
 * a quarter of the way between them, and on the unwritten layer. */
TEST(an_array_layer_read_at_fractional_coordinates_blends_its_texels) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t prog = register_reader(&f, ARRAY_WGSL, "fs_array", KILN_FORMAT_RGBA16_FLOAT,
                                    shaped_slot(KILN_FORMAT_RGBA8, KILN_SHAPE_TEXTURE_ARRAY, CLAMP_BASE));
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA16_FLOAT, 4, 1, NULL, true);
    uint32_t array = make_array(&f, KILN_FORMAT_RGBA8, 2, 3, false);
    uint8_t red[16], ramp[16];
    for (int t = 0; t < 4; t++) {
        rgba8(red + 4 * t, 255, 0, 0, 255);
        rgba8(ramp + 4 * t, t % 2 ? 255 : 0, t / 2 ? 255 : 0, 64, 255);
    }
    CHECK(prog && array && write_layer(&f, array, 0, red, 16) && write_layer(&f, array, 1, ramp, 16));
    static const float coords[16] = {0.5f, 0.25f, 1, 0, 0.375f, 0.5f, 1, 0, 0.5f, 0.5f, 0, 0, 0.5f, 0.5f, 2, 0};
    float got[16];
    CHECK(dispatch_and_run(&f, prog, out, array, coords) && read_texels(&f, out, got));
    const float quarter = 64.0f / 255.0f;
    const float want[16] = {
        0.5f, 0.0f, quarter, 1.0f,  /* layer 1, halfway between the columns, on row 0's centre */
        0.25f, 0.5f, quarter, 1.0f, /* a quarter of the way from column 0, halfway between the rows */
        1.0f, 0.0f, 0.0f, 1.0f,     /* layer 0 */
        0.0f, 0.0f, 0.0f, 0.0f,     /* layer 2, never written: zero in every channel */
    };
    CHECK(near_all(got, want, 16, 2e-3f));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* A 2x1x3 R16Float volume: column 0 holds 0, 0.25 and 1 in slices 0, 1 and 2, column 1 holds 0.5,
 * 0.75 and 0.5. Slice k is centred at w = (k + 0.5) / 3. */
TEST(a_volume_read_between_two_slices_gives_their_blend_and_repeat_wraps_the_third_axis) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t prog = register_reader(&f, VOLUME_WGSL, "fs_volume", KILN_FORMAT_R32_FLOAT,
                                    shaped_slot(KILN_FORMAT_R16_FLOAT, KILN_SHAPE_TEXTURE_VOLUME, REPEAT_BASE));
    uint32_t clamped = register_reader(&f, VOLUME_WGSL, "fs_volume", KILN_FORMAT_R32_FLOAT,
                                       shaped_slot(KILN_FORMAT_R16_FLOAT, KILN_SHAPE_TEXTURE_VOLUME, CLAMP_BASE));
    static const float values[6] = {0.0f, 0.5f, 0.25f, 0.75f, 1.0f, 0.5f}; /* slice 0, 1, 2; two texels each */
    uint16_t halves[6];
    for (int i = 0; i < 6; i++) halves[i] = kiln_float_to_half(values[i]);
    uint32_t volume = make_volume(&f, KILN_FORMAT_R16_FLOAT, 2, 1, 3, halves);
    uint32_t out = make_texture(&f, KILN_FORMAT_R32_FLOAT, 4, 1, NULL, true);
    const float third = 1.0f / 3.0f, sixth = 1.0f / 6.0f;
    const float coords[16] = {
        0.25f, 0.5f, sixth, 0, /* column 0, slice 0's centre */
        0.25f, 0.5f, third, 0, /* column 0, halfway between slice 0's and slice 1's centres */
        0.5f, 0.5f, third, 0,  /* halfway between the columns too */
        0.25f, 0.5f, 0.0f, 0,  /* half a slice before slice 0's centre */
    };
    float repeat[4], clamp[4];
    CHECK(prog && clamped && volume && out);
    CHECK(dispatch_and_run(&f, prog, out, volume, coords) && read_texels(&f, out, repeat));
    CHECK(dispatch_and_run(&f, clamped, out, volume, coords) && read_texels(&f, out, clamp));
    const float want[4] = {0.0f, 0.125f, 0.375f, 0.5f}; /* the last: the even blend of slices 2 and 0 */
    CHECK(near_all(repeat, want, 4, 2e-3f));
    CHECK_NEAR(clamp[3], 0.0f, 2e-3f); /* Clamp holds slice 0 there */
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* R32Float cannot be filtered: an array and a volume of it bind (unfilterable 2D-array and 3D
 * layouts, a non-filtering sampler) and read the nearest texel, where linear would blend. */
TEST(r32float_arrays_and_volumes_bind_and_read_nearest) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t array_prog = register_reader(&f, ARRAY_WGSL, "fs_array", KILN_FORMAT_RGBA16_FLOAT,
                                          shaped_slot(KILN_FORMAT_R32_FLOAT, KILN_SHAPE_TEXTURE_ARRAY, CLAMP_BASE));
    uint32_t volume_prog = register_reader(&f, VOLUME_WGSL, "fs_volume", KILN_FORMAT_R32_FLOAT,
                                           shaped_slot(KILN_FORMAT_R32_FLOAT, KILN_SHAPE_TEXTURE_VOLUME, CLAMP_BASE));
    static const float table[4] = {1, 2, 3, 4}, slices[2] = {3, 7};
    uint32_t array = make_array(&f, KILN_FORMAT_R32_FLOAT, 2, 1, false);
    uint32_t volume = make_volume(&f, KILN_FORMAT_R32_FLOAT, 1, 1, 2, slices);
    uint32_t array_out = make_texture(&f, KILN_FORMAT_RGBA16_FLOAT, 4, 1, NULL, true);
    uint32_t volume_out = make_texture(&f, KILN_FORMAT_R32_FLOAT, 4, 1, NULL, true);
    CHECK(array_prog && volume_prog && array && volume && write_layer(&f, array, 0, table, sizeof table));
    static const float array_coords[16] = {0.4f, 0.25f, 0, 0, 0.6f, 0.25f, 0, 0, 0.4f, 0.75f, 0, 0, 0.6f, 0.8f, 0, 0};
    static const float volume_coords[16] = {0.5f, 0.5f, 0.1f, 0, 0.5f, 0.5f, 0.4f, 0, 0.5f, 0.5f, 0.6f, 0,
                                            0.5f, 0.5f, 0.9f, 0};
    float array_got[16], volume_got[4];
    CHECK(dispatch_and_run(&f, array_prog, array_out, array, array_coords) && read_texels(&f, array_out, array_got));
    CHECK(dispatch_and_run(&f, volume_prog, volume_out, volume, volume_coords) &&
          read_texels(&f, volume_out, volume_got));
    const float array_want[4] = {1, 2, 3, 4}, volume_want[4] = {3, 3, 7, 7};
    for (int i = 0; i < 4; i++) CHECK_NEAR(array_got[4 * i], array_want[i], 1e-3f);
    CHECK(near_all(volume_got, volume_want, 4, 0.0f));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* Before the upload queue is done, the dispatch that binds an array uploads every written layer in
 * its frame: the sync takes KILN_TEXTURE_LAYERS_PER_SYNC of them and the dispatch the rest, while
 * the layer never written, not yet cleared by the queue, still reads zero. */
TEST(a_dispatch_reads_every_written_layer_in_the_frame_the_array_was_filled) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    const uint32_t layers = KILN_TEXTURE_LAYERS_PER_SYNC + 3, last_written = layers - 2;
    uint32_t prog = register_reader(&f, ARRAY_WGSL, "fs_array", KILN_FORMAT_RGBA16_FLOAT,
                                    shaped_slot(KILN_FORMAT_RGBA8, KILN_SHAPE_TEXTURE_ARRAY, CLAMP_BASE));
    uint32_t array = make_array(&f, KILN_FORMAT_RGBA8, 1, layers, false);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA16_FLOAT, 4, 1, NULL, true);
    for (uint32_t l = 0; l <= last_written; l++) {
        uint8_t texel[4] = {(uint8_t)(20 * (l + 1)), 0, 0, 255};
        CHECK(write_layer(&f, array, l, texel, 4));
    }
    const float coords[16] = {0.5f, 0.5f, 0, 0, 0.5f, 0.5f, (float)(last_written - 1), 0,
                              0.5f, 0.5f, (float)last_written, 0, 0.5f, 0.5f, (float)(layers - 1), 0};
    float got[16];
    CHECK(prog && array && dispatch_and_run(&f, prog, out, array, coords) && read_texels(&f, out, got));
    kiln_texture_registry_stats stats = kiln_texture_registry_get_stats(f.reg);
    CHECK_EQ_INT(stats.layer_uploads, last_written + 1);
    CHECK_EQ_INT(stats.layer_clears, 0);
    const float want[4] = {20.0f / 255, 20.0f * last_written / 255, 20.0f * (last_written + 1) / 255, 0.0f};
    for (int i = 0; i < 4; i++) CHECK_NEAR(got[4 * i], want[i], 2e-3f);
    CHECK_NEAR(got[15], 0.0f, 1e-6f);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

static const char *const LEVELS_WGSL =
    "@group(1) @binding(0) var chain: texture_2d_array<f32>;\n"
    "@fragment fn fs_levels() -> @location(0) vec4<f32> {\n"
    "    return vec4<f32>(f32(textureDimensions(chain, 0).x), f32(textureDimensions(chain, 1).y),\n"
    "                     f32(textureDimensions(chain, 2).x), f32(textureNumLevels(chain)));\n"
    "}\n";

TEST(a_chain_array_of_side_5_binds_levels_of_side_5_2_and_1) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA16_FLOAT),
                                 shaped_slot(KILN_FORMAT_RGBA8, KILN_SHAPE_TEXTURE_ARRAY, (kiln_slot_sampling){.texel = true})};
    kiln_pass_spec passes[] = {with_input(fragment_pass("fs_levels", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), from_binding(1))};
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(LEVELS_WGSL, bindings, passes);
    kiln_program_error perr;
    uint32_t prog = kiln_programs_register(f.programs, &desc, &perr);
    CHECK_MSG(prog, "%s", perr.message);
    uint32_t array = make_array(&f, KILN_FORMAT_RGBA8, 5, 2, true);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA16_FLOAT, 1, 1, NULL, true);
    uint32_t ids[] = {out, array};
    float got[4];
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, ids, 2, NULL, 0), KILN_DISPATCH_OK);
    CHECK(run_frame(&f) && read_texels(&f, out, got));
    const float want[4] = {5, 2, 1, 3};
    CHECK(near_all(got, want, 4, 0.0f));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

static const char *const MIPS_WGSL =
    "@group(1) @binding(0) var chained: texture_2d_array<f32>;\n"
    "@group(1) @binding(1) var chained_sampler: sampler;\n"
    "@group(1) @binding(2) var based: texture_2d_array<f32>;\n"
    "@group(1) @binding(3) var based_sampler: sampler;\n"
    "@fragment fn fs_mips(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {\n"
    "    let i = u32(pos.x);\n"
    "    let lod = select(1.0, 2.0, i == 2u);\n"
    "    let chain = textureSampleLevel(chained, chained_sampler, vec2<f32>(0.5), 1, lod);\n"
    "    let base = textureSampleLevel(based, based_sampler, vec2<f32>(0.5), 1, lod);\n"
    "    return select(chain, base, i == 1u);\n"
    "}\n";

/* Layer 1 of a side-5 chain array: level 0 red, level 1 green, level 2 blue. The same array bound
 * Filtered { Chain } reads levels 1 and 2; bound Filtered { Base } it reads level 0 at any lod. */
TEST(a_chain_binding_reads_past_the_base_level_and_a_base_binding_does_not) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    const kiln_slot_sampling chain = {false, KILN_WRAP_CLAMP, KILN_MIPS_CHAIN};
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA16_FLOAT),
                                 shaped_slot(KILN_FORMAT_RGBA8, KILN_SHAPE_TEXTURE_ARRAY, chain),
                                 shaped_slot(KILN_FORMAT_RGBA8, KILN_SHAPE_TEXTURE_ARRAY, CLAMP_BASE)};
    kiln_pass_spec passes[] = {with_input(with_input(fragment_pass("fs_mips", to_binding(0), KILN_PROGRAM_BLEND_REPLACE),
                                                     from_binding(1)), from_binding(2))};
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(MIPS_WGSL, bindings, passes);
    kiln_program_error perr;
    uint32_t prog = kiln_programs_register(f.programs, &desc, &perr);
    CHECK_MSG(prog, "%s", perr.message);
    uint32_t array = make_array(&f, KILN_FORMAT_RGBA8, 5, 2, true);
    uint8_t layer[(25 + 4 + 1) * 4];
    for (int t = 0; t < 30; t++) rgba8(layer + 4 * t, t < 25 ? 255 : 0, t >= 25 && t < 29 ? 255 : 0, t == 29 ? 255 : 0, 255);
    CHECK(array && write_layer(&f, array, 1, layer, sizeof layer));
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA16_FLOAT, 3, 1, NULL, true);
    uint32_t ids[] = {out, array, array};
    float got[12];
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, ids, 3, NULL, 0), KILN_DISPATCH_OK);
    CHECK(run_frame(&f) && read_texels(&f, out, got));
    const float want[12] = {0, 1, 0, 1, /* Chain at lod 1: level 1 */
                            1, 0, 0, 1, /* Base at lod 1: level 0 */
                            0, 0, 1, 1}; /* Chain at lod 2: level 2 */
    CHECK(near_all(got, want, 12, 1e-3f));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* The kind has to match both ways: only an array binds at TextureArray, only a volume at
 * TextureVolume, and neither at a Texture or a Target binding. */
TEST(a_binding_of_the_wrong_kind_is_dropped_in_every_direction) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    static const uint8_t voxels[4 * 4 * 2 * 4] = {0};
    uint32_t array_prog = register_reader(&f, ARRAY_WGSL, "fs_array", KILN_FORMAT_RGBA8,
                                          shaped_slot(KILN_FORMAT_RGBA8, KILN_SHAPE_TEXTURE_ARRAY, CLAMP_BASE));
    uint32_t volume_prog = register_reader(&f, VOLUME_WGSL, "fs_volume", KILN_FORMAT_RGBA8,
                                           shaped_slot(KILN_FORMAT_RGBA8, KILN_SHAPE_TEXTURE_VOLUME, CLAMP_BASE));
    uint32_t texture_prog = register_reader(
        &f, "@group(1) @binding(0) var t: texture_2d<f32>;\n"
            "@fragment fn fs_plain() -> @location(0) vec4<f32> { return textureLoad(t, vec2<i32>(0), 0); }\n",
        "fs_plain", KILN_FORMAT_RGBA8, shaped_slot(KILN_FORMAT_RGBA8, KILN_SHAPE_TEXTURE, (kiln_slot_sampling){.texel = true}));
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, 4, 4, NULL, true);
    uint32_t array = make_array(&f, KILN_FORMAT_RGBA8, 4, 2, false);
    uint32_t volume = make_volume(&f, KILN_FORMAT_RGBA8, 4, 4, 2, voxels);
    CHECK(array_prog && volume_prog && texture_prog && out == 1 && array == 2 && volume == 3);
    const struct {
        uint32_t prog, output, input;
        const char *expected;
    } rows[] = {
        {array_prog, out, volume, "binding 1: texture 3 is a volume texture; the binding takes a texture array"},
        {volume_prog, out, array, "binding 1: texture 2 is a texture array; the binding takes a volume texture"},
        {volume_prog, out, out, "binding 1: texture 1 is a plain texture; the binding takes a volume texture"},
        {texture_prog, out, array, "binding 1: texture 2 is a texture array; the binding takes a plain texture"},
        {texture_prog, out, volume, "binding 1: texture 3 is a volume texture; the binding takes a plain texture"},
        {texture_prog, array, out, "binding 0: texture 2 is a texture array; the binding takes a plain texture"},
    };
    float coords[16] = {0};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        uint32_t ids[] = {rows[i].output, rows[i].input};
        CHECK_EQ_INT(kiln_programs_dispatch(f.programs, rows[i].prog, ids, 2, coords, sizeof coords),
                     KILN_DISPATCH_WRONG_KIND);
        CHECK_MSG(strstr(last_log(&f), "(wrong_texture_kind)") && strstr(last_log(&f), rows[i].expected), "row %zu: %s",
                  i, last_log(&f));
    }
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* bindings: 0 the Rgba16Float output (2x1), 1 an Rgba8 array, 2 an R16Float volume: pixel 0 reads
 * layer 1 halfway between its columns, pixel 1 the volume halfway between its slices. */
static const char *const BOTH_WGSL =
    "@group(1) @binding(0) var layers: texture_2d_array<f32>;\n"
    "@group(1) @binding(1) var layers_sampler: sampler;\n"
    "@group(1) @binding(2) var volume: texture_3d<f32>;\n"
    "@group(1) @binding(3) var volume_sampler: sampler;\n"
    "@fragment fn fs_both(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {\n"
    "    let a = textureSampleLevel(layers, layers_sampler, vec2<f32>(0.5, 0.5), 1, 0.0);\n"
    "    let v = textureSampleLevel(volume, volume_sampler, vec3<f32>(0.5, 0.5, 0.5), 0.0);\n"
    "    return select(a, vec4<f32>(v.r, 0.0, 0.0, 1.0), pos.x > 1.0);\n"
    "}\n";

static uint32_t register_both(program_fixture *f) {
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA16_FLOAT),
                                 shaped_slot(KILN_FORMAT_RGBA8, KILN_SHAPE_TEXTURE_ARRAY, CLAMP_BASE),
                                 shaped_slot(KILN_FORMAT_R16_FLOAT, KILN_SHAPE_TEXTURE_VOLUME, CLAMP_BASE)};
    kiln_pass_spec passes[] = {with_input(with_input(fragment_pass("fs_both", to_binding(0), KILN_PROGRAM_BLEND_REPLACE),
                                                     from_binding(1)), from_binding(2))};
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(BOTH_WGSL, bindings, passes);
    kiln_program_error err;
    uint32_t id = kiln_programs_register(f->programs, &desc, &err);
    if (!id) fprintf(stderr, "register: %s\n", err.message);
    return id;
}

TEST(arrays_and_volumes_come_back_under_their_ids_after_a_device_loss) {
    program_fixture lost, fresh;
    PROGRAM_FIXTURE_OPEN(lost);
    PROGRAM_FIXTURE_OPEN(fresh);
    uint32_t prog = register_both(&lost);
    uint32_t out = make_texture(&lost, KILN_FORMAT_RGBA16_FLOAT, 2, 1, NULL, true);
    uint32_t array = make_array(&lost, KILN_FORMAT_RGBA8, 2, 3, false);
    uint16_t slices[2] = {kiln_float_to_half(0.25f), kiln_float_to_half(0.75f)};
    uint32_t volume = make_volume(&lost, KILN_FORMAT_R16_FLOAT, 1, 1, 2, slices);
    uint8_t layer0[16], layer1[16];
    for (int t = 0; t < 4; t++) {
        rgba8(layer0 + 4 * t, 9, 9, 9, 9);
        rgba8(layer1 + 4 * t, t % 2 ? 200 : 100, 50, 0, 255);
    }
    CHECK(prog && write_layer(&lost, array, 0, layer0, 16) && write_layer(&lost, array, 1, layer1, 16));
    uint32_t ids[] = {out, array, volume};
    float before[8], after[8];
    CHECK_EQ_INT(kiln_programs_dispatch(lost.programs, prog, ids, 3, NULL, 0), KILN_DISPATCH_OK);
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
    const kiln_texture_info *array_info = kiln_texture_registry_info(fresh.reg, array);
    const kiln_texture_info *volume_info = kiln_texture_registry_info(fresh.reg, volume);
    bool same_kinds = array_info && array_info->kind == KILN_TEXTURE_ARRAY && array_info->layers == 3 && volume_info &&
                      volume_info->kind == KILN_TEXTURE_VOLUME && volume_info->layers == 2;
    kiln_dispatch_class again = kiln_programs_dispatch(fresh.programs, prog, ids, 3, NULL, 0);
    bool painted = run_frame(&fresh) && read_texels(&fresh, out, after);
    uint64_t lost_errors = program_fixture_close(&lost);
    PROGRAM_FIXTURE_CLOSE_CLEAN(fresh);
    CHECK(was_lost);
    const float want[8] = {150.0f / 255, 50.0f / 255, 0, 1, 0.5f, 0, 0, 1};
    CHECK(near_all(before, want, 8, 2e-3f));
    CHECK(same_kinds);
    CHECK_EQ_INT(again, KILN_DISPATCH_OK);
    CHECK(painted && memcmp(before, after, sizeof before) == 0);
    CHECK_EQ_INT(lost_errors, 0);
}

TEST_MAIN(T(an_array_layer_read_at_fractional_coordinates_blends_its_texels),
          T(a_volume_read_between_two_slices_gives_their_blend_and_repeat_wraps_the_third_axis),
          T(r32float_arrays_and_volumes_bind_and_read_nearest),
          T(a_dispatch_reads_every_written_layer_in_the_frame_the_array_was_filled),
          T(a_chain_array_of_side_5_binds_levels_of_side_5_2_and_1),
          T(a_chain_binding_reads_past_the_base_level_and_a_base_binding_does_not),
          T(a_binding_of_the_wrong_kind_is_dropped_in_every_direction),
          T(arrays_and_volumes_come_back_under_their_ids_after_a_device_loss))
