/* Execution against CPU oracles (thresholded where filtering or 8-bit rounding makes the GPU differ
 * in the last bits): a separable Gaussian blur through a float transient, a threshold, a composite
 * of two inputs, additive accumulation on a float transient, Replace erasing, repeats under Alpha
 * and Replace, a Divided transient read back up, determinism, several dispatches per frame, the uv
 * origin, the submit every 1024 passes, and the timings rows. Images are 32x24. */
#include <math.h>

#include "program_test_util.h"

#define W 32
#define H 24

/* fs_fill returns its uniform colour; fs_uv its uv; fs_copy loads input 0 at the pixel. */
static const char *const BASIC_WGSL =
    "struct Fill { color: vec4<f32> }\n"
    "@group(0) @binding(0) var<uniform> fill: Fill;\n"
    "@group(1) @binding(0) var src: texture_2d<f32>;\n"
    "@fragment fn fs_fill() -> @location(0) vec4<f32> { return fill.color; }\n"
    "@fragment fn fs_uv(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {\n"
    "    return vec4<f32>(uv, 0.0, 1.0);\n"
    "}\n"
    "@fragment fn fs_copy(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {\n"
    "    return textureLoad(src, vec2<i32>(position.xy), 0);\n"
    "}\n";

static uint32_t register_desc(program_fixture *f, const kiln_program_desc *desc) {
    kiln_program_error err;
    uint32_t id = kiln_programs_register(f->programs, desc, &err);
    if (!id) fprintf(stderr, "register: %s: %s\n", kiln_program_class_name(err.cls), err.message);
    return id;
}

static double max_abs_diff(const float *a, const float *b, size_t n) {
    double worst = 0;
    for (size_t i = 0; i < n; i++) worst = fmax(worst, fabs((double)a[i] - b[i]));
    return worst;
}

static float unorm8(float v) {
    v = v < 0 ? 0 : v > 1 ? 1 : v;
    return roundf(v * 255.0f) / 255.0f;
}

/* An Rgba8 test image with structure at several scales: a diagonal ramp, 4-texel checkers, a
 * horizontal ramp and a vertical ramp. */
static void make_pattern(uint8_t *rgba, uint32_t w, uint32_t h) {
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint8_t *p = rgba + 4 * (y * w + x);
            p[0] = (uint8_t)((x * 37 + y * 11) % 256);
            p[1] = ((x / 4 + y / 4) % 2) ? 255 : 0;
            p[2] = (uint8_t)(x * 255 / (w - 1));
            p[3] = (uint8_t)(y * 255 / (h - 1));
        }
}

/* ---- separable Gaussian blur -------------------------------------------------------------------- */

/* The 9-tap binomial kernel (1 8 28 56 70 56 28 8 1) / 256 read as a centre tap and two filtered
 * pairs a side: taps 1 and 2 at one fractional offset weighted by their sum, likewise 3 and 4. */
static const char *const BLUR_WGSL =
    "struct Blur { step: vec2<f32>, unused: vec2<f32> }\n"
    "@group(0) @binding(0) var<uniform> blur: Blur;\n"
    "@group(1) @binding(0) var src: texture_2d<f32>;\n"
    "@group(1) @binding(1) var src_sampler: sampler;\n"
    "@fragment fn fs_blur(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {\n"
    "    let near_offset = (56.0 + 2.0 * 28.0) / 84.0;\n"
    "    let far_offset = (3.0 * 8.0 + 4.0 * 1.0) / 9.0;\n"
    "    var sum = textureSample(src, src_sampler, uv) * (70.0 / 256.0);\n"
    "    sum += (textureSample(src, src_sampler, uv + blur.step * near_offset) +\n"
    "            textureSample(src, src_sampler, uv - blur.step * near_offset)) * (84.0 / 256.0);\n"
    "    sum += (textureSample(src, src_sampler, uv + blur.step * far_offset) +\n"
    "            textureSample(src, src_sampler, uv - blur.step * far_offset)) * (9.0 / 256.0);\n"
    "    return sum;\n"
    "}\n";

static const float KERNEL[9] = {1 / 256.0f, 8 / 256.0f, 28 / 256.0f, 56 / 256.0f, 70 / 256.0f,
                                56 / 256.0f, 28 / 256.0f, 8 / 256.0f, 1 / 256.0f};

/* One direction of the blur on 4-channel floats, clamping at the edges. */
static void blur_cpu(const float *src, float *dst, int dx, int dy) {
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            for (int c = 0; c < 4; c++) {
                float sum = 0;
                for (int k = -4; k <= 4; k++) {
                    int sx = x + k * dx, sy = y + k * dy;
                    sx = sx < 0 ? 0 : sx >= W ? W - 1 : sx;
                    sy = sy < 0 ? 0 : sy >= H ? H - 1 : sy;
                    sum += KERNEL[k + 4] * src[4 * (sy * W + sx) + c];
                }
                dst[4 * (y * W + x) + c] = sum;
            }
}

typedef struct blur_setup {
    uint32_t program, output, source;
    float blob[8];
} blur_setup;

static bool setup_blur(program_fixture *f, blur_setup *b) {
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8), texture_slot(KILN_FORMAT_RGBA8)};
    kiln_transient_spec transients[] = {full_transient(KILN_FORMAT_RGBA16_FLOAT, KILN_SAMPLES_ONE)};
    kiln_pass_spec passes[] = {
        with_input(with_window(fragment_pass("fs_blur", to_transient(0), KILN_PROGRAM_BLEND_REPLACE), 0, 16),
                   from_binding(1)),
        with_input(with_window(fragment_pass("fs_blur", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), 16, 16),
                   from_pass(0)),
    };
    kiln_program_desc desc = PROGRAM_DESC(BLUR_WGSL, bindings, transients, passes);
    uint8_t pattern[W * H * 4];
    make_pattern(pattern, W, H);
    b->program = register_desc(f, &desc);
    b->output = make_texture(f, KILN_FORMAT_RGBA8, W, H, NULL, true);
    b->source = make_texture(f, KILN_FORMAT_RGBA8, W, H, pattern, false);
    const float blob[8] = {1.0f / W, 0, 0, 0, 0, 1.0f / H, 0, 0};
    memcpy(b->blob, blob, sizeof blob);
    return b->program && b->output && b->source;
}

TEST(a_separable_gaussian_blur_matches_the_cpu) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    blur_setup b;
    CHECK(setup_blur(&f, &b));
    uint32_t ids[] = {b.output, b.source};
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, b.program, ids, 2, b.blob, sizeof b.blob), KILN_DISPATCH_OK);
    CHECK(run_frame(&f));

    static float source[W * H * 4], across[W * H * 4], expected[W * H * 4], got[W * H * 4];
    CHECK(read_texels(&f, b.source, source));
    blur_cpu(source, across, 1, 0);
    for (size_t i = 0; i < W * H * 4; i++) across[i] = kiln_half_to_float(kiln_float_to_half(across[i]));
    blur_cpu(across, expected, 0, 1);
    for (size_t i = 0; i < W * H * 4; i++) expected[i] = unorm8(expected[i]);
    CHECK(read_texels(&f, b.output, got));
    /* Filtered taps weight their pair at the sampler's sub-texel precision; two 8-bit steps cover it. */
    CHECK_NEAR(max_abs_diff(got, expected, W * H * 4), 0.0, 2.0 / 255.0 + 1e-6);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

TEST(dispatching_the_same_blob_twice_is_bit_identical) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    blur_setup b;
    CHECK(setup_blur(&f, &b));
    uint32_t ids[] = {b.output, b.source};
    void *first = NULL, *second = NULL;
    size_t first_size = 0, second_size = 0;
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, b.program, ids, 2, b.blob, sizeof b.blob), KILN_DISPATCH_OK);
    CHECK(run_frame(&f));
    CHECK(kiln_texture_registry_read(f.reg, b.output, &first, &first_size, NULL));
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, b.program, ids, 2, b.blob, sizeof b.blob), KILN_DISPATCH_OK);
    CHECK(run_frame(&f));
    CHECK(kiln_texture_registry_read(f.reg, b.output, &second, &second_size, NULL));
    bool same = first_size == second_size && memcmp(first, second, first_size) == 0;
    free(first);
    free(second);
    CHECK(same);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* ---- threshold and composite ------------------------------------------------------------------------ */

TEST(a_threshold_of_an_r32float_plane_matches_the_cpu) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    static const char *const THRESHOLD_WGSL =
        "struct Threshold { level: f32 }\n"
        "@group(0) @binding(0) var<uniform> threshold: Threshold;\n"
        "@group(1) @binding(0) var plane: texture_2d<f32>;\n"
        "@fragment fn fs_threshold(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {\n"
        "    let v = textureLoad(plane, vec2<i32>(position.xy), 0).r;\n"
        "    return vec4<f32>(select(0.0, 1.0, v >= threshold.level), 0.0, 0.0, 1.0);\n"
        "}\n";
    kiln_slot_spec texel = texture_slot(KILN_FORMAT_R32_FLOAT);
    texel.sampling.texel = true;
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_R32_FLOAT), texel};
    kiln_pass_spec passes[] = {
        with_input(with_window(fragment_pass("fs_threshold", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), 0, 4),
                   from_binding(1)),
    };
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(THRESHOLD_WGSL, bindings, passes);
    uint32_t prog = register_desc(&f, &desc);
    CHECK(prog);
    static float plane[W * H], got[W * H];
    for (int i = 0; i < W * H; i++) plane[i] = (float)((i % W * 7 + i / W * 13) % 32) / 31.0f;
    uint32_t ids[] = {make_texture(&f, KILN_FORMAT_R32_FLOAT, W, H, NULL, true),
                      make_texture(&f, KILN_FORMAT_R32_FLOAT, W, H, plane, false)};
    const float level = 16.0f / 31.0f;
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, ids, 2, &level, sizeof level), KILN_DISPATCH_OK);
    CHECK(run_frame(&f));
    CHECK(read_texels(&f, ids[0], got));
    for (int i = 0; i < W * H; i++) CHECK_EQ_INT(got[i], plane[i] >= level ? 1 : 0);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* Input a is linear and the output's size; input b is half the size and Nearest, so each of its
 * texels covers a 2x2 block of the output. */
TEST(a_composite_of_two_inputs_matches_the_cpu) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    static const char *const MIX_WGSL =
        "struct Mix { t: f32 }\n"
        "@group(0) @binding(0) var<uniform> amount: Mix;\n"
        "@group(1) @binding(0) var a: texture_2d<f32>;\n"
        "@group(1) @binding(1) var a_sampler: sampler;\n"
        "@group(1) @binding(2) var b: texture_2d<f32>;\n"
        "@group(1) @binding(3) var b_sampler: sampler;\n"
        "@fragment fn fs_mix(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {\n"
        "    return mix(textureSample(a, a_sampler, uv), textureSample(b, b_sampler, uv), amount.t);\n"
        "}\n";
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8), texture_slot(KILN_FORMAT_RGBA8),
                                 texture_slot(KILN_FORMAT_RGBA8)};
    kiln_pass_spec passes[] = {
        with_input(with_input(with_window(fragment_pass("fs_mix", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), 0, 4),
                              from_binding(1)),
                   from_binding(2)),
    };
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(MIX_WGSL, bindings, passes);
    uint32_t prog = register_desc(&f, &desc);
    CHECK(prog);
    static uint8_t a[W * H * 4], b[W / 2 * H / 2 * 4];
    make_pattern(a, W, H);
    for (size_t i = 0; i < sizeof b; i++) b[i] = (uint8_t)(i * 29 % 256);
    kiln_texture_create_desc nearest = {.format = KILN_FORMAT_RGBA8, .width = W / 2, .height = H / 2, .pixels = b,
                                        .pixels_size = sizeof b, .sampling = KILN_SAMPLING_NEAREST};
    uint32_t ids[] = {make_texture(&f, KILN_FORMAT_RGBA8, W, H, NULL, true),
                      make_texture(&f, KILN_FORMAT_RGBA8, W, H, a, false), kiln_texture_registry_add(f.reg, &nearest, NULL)};
    const float t = 0.25f;
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, ids, 3, &t, sizeof t), KILN_DISPATCH_OK);
    CHECK(run_frame(&f));
    static float got[W * H * 4], expected[W * H * 4];
    CHECK(read_texels(&f, ids[0], got));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            for (int c = 0; c < 4; c++) {
                float va = a[4 * (y * W + x) + c] / 255.0f, vb = b[4 * (y / 2 * (W / 2) + x / 2) + c] / 255.0f;
                expected[4 * (y * W + x) + c] = unorm8(va * (1 - t) + vb * t);
            }
    CHECK_NEAR(max_abs_diff(got, expected, W * H * 4), 0.0, 1.0 / 255.0 + 1e-6);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* ---- blend -------------------------------------------------------------------------------------------- */

/* Four Additive iterations into an Rgba16Float transient, copied to the output: the sums pass 1,
 * so nothing clamps on a float target. */
TEST(additive_iterations_accumulate_on_a_float_transient) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA16_FLOAT)};
    kiln_transient_spec transients[] = {full_transient(KILN_FORMAT_RGBA16_FLOAT, KILN_SAMPLES_ONE)};
    kiln_pass_spec passes[] = {
        with_repeat(with_window(fragment_pass("fs_fill", to_transient(0), KILN_PROGRAM_BLEND_ADDITIVE), 0, 16), 4, 16),
        with_input(fragment_pass("fs_copy", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), from_pass(0)),
    };
    kiln_program_desc desc = PROGRAM_DESC(BASIC_WGSL, bindings, transients, passes);
    uint32_t prog = register_desc(&f, &desc);
    CHECK(prog);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA16_FLOAT, W, H, NULL, true);
    const float blob[16] = {0.25f, 1, 0, 0.5f, 0.5f, 1, 0, 0.5f, 1, 1, 0, 0.5f, 2, 1, 0, 0.5f};
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, &out, 1, blob, sizeof blob), KILN_DISPATCH_OK);
    CHECK(run_frame(&f));
    static float got[W * H * 4];
    CHECK(read_texels(&f, out, got));
    for (int i = 0; i < W * H; i++) {
        CHECK_NEAR(got[4 * i + 0], 3.75, 1e-6);
        CHECK_NEAR(got[4 * i + 1], 4.0, 1e-6);
        CHECK_NEAR(got[4 * i + 2], 0.0, 1e-6);
        CHECK_NEAR(got[4 * i + 3], 2.0, 1e-6);
    }
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* Pass 0 paints opaque red; pass 1 writes vec4(0) onto the same output under `blend`. */
static bool paint_then_zero(program_fixture *f, kiln_program_blend blend, float *got) {
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8)};
    kiln_pass_spec passes[] = {
        with_window(fragment_pass("fs_fill", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), 0, 16),
        with_window(fragment_pass("fs_fill", to_binding(0), blend), 16, 16),
    };
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(BASIC_WGSL, bindings, passes);
    uint32_t prog = register_desc(f, &desc);
    uint32_t out = make_texture(f, KILN_FORMAT_RGBA8, W, H, NULL, true);
    const float blob[8] = {1, 0, 0, 1, 0, 0, 0, 0};
    return prog && kiln_programs_dispatch(f->programs, prog, &out, 1, blob, sizeof blob) == KILN_DISPATCH_OK &&
           run_frame(f) && read_texels(f, out, got);
}

TEST(a_replace_pass_of_alpha_zero_erases_the_output) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    static float got[W * H * 4];
    CHECK(paint_then_zero(&f, KILN_PROGRAM_BLEND_REPLACE, got));
    for (int i = 0; i < W * H * 4; i++) CHECK_EQ_INT(got[i], 0);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

TEST(an_alpha_pass_of_alpha_zero_leaves_the_output) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    static float got[W * H * 4];
    CHECK(paint_then_zero(&f, KILN_PROGRAM_BLEND_ALPHA, got));
    for (int i = 0; i < W * H; i++) {
        CHECK_NEAR(got[4 * i + 0], 1.0, 1e-6);
        CHECK_NEAR(got[4 * i + 3], 1.0, 1e-6);
    }
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* Three iterations, each window a half-transparent primary (red, green, blue) picked by the stride. */
static const float PRIMARIES[12] = {1, 0, 0, 0.5f, 0, 1, 0, 0.5f, 0, 0, 1, 0.5f};

static bool repeat_primaries(program_fixture *f, kiln_program_blend blend, float *got) {
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8)};
    kiln_pass_spec passes[] = {with_repeat(with_window(fragment_pass("fs_fill", to_binding(0), blend), 0, 16), 3, 16)};
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(BASIC_WGSL, bindings, passes);
    uint32_t prog = register_desc(f, &desc);
    uint32_t out = make_texture(f, KILN_FORMAT_RGBA8, W, H, NULL, true);
    return prog && kiln_programs_dispatch(f->programs, prog, &out, 1, PRIMARIES, sizeof PRIMARIES) == KILN_DISPATCH_OK &&
           run_frame(f) && read_texels(f, out, got);
}

TEST(a_repeated_alpha_pass_accumulates_its_iterations) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    static float got[W * H * 4];
    CHECK(repeat_primaries(&f, KILN_PROGRAM_BLEND_ALPHA, got));
    /* Straight alpha over, from transparent black, rounding to 8 bits after every iteration. */
    float dst[4] = {0, 0, 0, 0};
    for (int it = 0; it < 3; it++) {
        const float *src = PRIMARIES + 4 * it;
        for (int c = 0; c < 3; c++) dst[c] = unorm8(src[c] * src[3] + dst[c] * (1 - src[3]));
        dst[3] = unorm8(src[3] + dst[3] * (1 - src[3]));
    }
    for (int i = 0; i < W * H; i++)
        for (int c = 0; c < 4; c++) CHECK_NEAR(got[4 * i + c], dst[c], 1.0 / 255.0 + 1e-6);
    CHECK_NEAR(dst[0], 0.125, 0.01); /* the oracle itself: every iteration left its mark */
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

TEST(a_repeated_replace_pass_keeps_only_its_last_iteration) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    static float got[W * H * 4];
    CHECK(repeat_primaries(&f, KILN_PROGRAM_BLEND_REPLACE, got));
    for (int i = 0; i < W * H; i++) {
        CHECK_NEAR(got[4 * i + 0], 0.0, 1e-6);
        CHECK_NEAR(got[4 * i + 1], 0.0, 1e-6);
        CHECK_NEAR(got[4 * i + 2], 1.0, 1e-6);
        /* 0.5 is exactly between two 8-bit steps: lavapipe stores 128, NVIDIA 127. */
        CHECK_NEAR(got[4 * i + 3], unorm8(0.5f), 1.0 / 255.0 + 1e-6);
    }
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* ---- extents ------------------------------------------------------------------------------------------ */

/* Pass 0 writes a 16x12 Divided(2) transient from its texel coordinates; pass 1 reads it back up
 * to 32x24 through its linear, clamped sampler. */
static const char *const UPSAMPLE_WGSL =
    "@group(1) @binding(0) var half_res: texture_2d<f32>;\n"
    "@group(1) @binding(1) var half_sampler: sampler;\n"
    "@fragment fn fs_pattern(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {\n"
    "    let texel = floor(position.xy);\n"
    "    return vec4<f32>(texel.x * 16.0 / 255.0, texel.y * 20.0 / 255.0, 0.5, 1.0);\n"
    "}\n"
    "@fragment fn fs_up(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {\n"
    "    return textureSample(half_res, half_sampler, uv);\n"
    "}\n";

static uint32_t register_upsample(program_fixture *f) {
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8)};
    kiln_transient_spec transients[] = {{.format = KILN_FORMAT_RGBA8, .extent = {true, 2}}};
    kiln_pass_spec passes[] = {
        fragment_pass("fs_pattern", to_transient(0), KILN_PROGRAM_BLEND_REPLACE),
        with_input(fragment_pass("fs_up", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), from_transient(0)),
    };
    kiln_program_desc desc = PROGRAM_DESC(UPSAMPLE_WGSL, bindings, transients, passes);
    return register_desc(f, &desc);
}

/* Linear interpolation of a clamped row or column of the half-size pattern. */
static float half_texel(int x, int y, int c) {
    x = x < 0 ? 0 : x >= W / 2 ? W / 2 - 1 : x;
    y = y < 0 ? 0 : y >= H / 2 ? H / 2 - 1 : y;
    return c == 0 ? x * 16 / 255.0f : c == 1 ? y * 20 / 255.0f : c == 2 ? unorm8(0.5f) : 1.0f;
}

TEST(a_divided_transient_reads_back_up_to_the_output) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t prog = register_upsample(&f);
    CHECK(prog);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, W, H, NULL, true);
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, &out, 1, NULL, 0), KILN_DISPATCH_OK);
    CHECK(run_frame(&f));
    static float got[W * H * 4];
    CHECK(read_texels(&f, out, got));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            /* Output pixel centre (x + 0.5) / W lands at half-size texel coordinate x / 2 - 0.25. */
            float tx = x / 2.0f - 0.25f, ty = y / 2.0f - 0.25f;
            int x0 = (int)floorf(tx), y0 = (int)floorf(ty);
            float fx = tx - x0, fy = ty - y0;
            for (int c = 0; c < 4; c++) {
                float top = half_texel(x0, y0, c) * (1 - fx) + half_texel(x0 + 1, y0, c) * fx;
                float bottom = half_texel(x0, y0 + 1, c) * (1 - fx) + half_texel(x0 + 1, y0 + 1, c) * fx;
                float want = unorm8(top * (1 - fy) + bottom * fy);
                CHECK_MSG(fabsf(got[4 * (y * W + x) + c] - want) <= 2.0f / 255.0f + 1e-6f, "(%d, %d) channel %d: %g vs %g",
                          x, y, c, got[4 * (y * W + x) + c], want);
            }
        }
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

TEST(timings_report_the_last_accepted_dispatch) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t prog = register_upsample(&f);
    CHECK(prog);
    kiln_pass_timing rows[4];
    CHECK_EQ_INT(kiln_programs_timings(f.programs, prog, rows, 4), 2);
    CHECK_EQ_INT(rows[0].width, 0);
    CHECK_EQ_INT(rows[0].height, 0);
    CHECK_EQ_INT(rows[0].divisor, 0);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, W, H, NULL, true);
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, &out, 1, NULL, 0), KILN_DISPATCH_OK);
    CHECK(run_frame(&f));
    CHECK_EQ_INT(kiln_programs_timings(f.programs, prog, rows, 4), 2);
    CHECK_EQ_INT(rows[0].stage, KILN_STAGE_FRAGMENT);
    CHECK_EQ_INT(rows[0].width, W / 2);
    CHECK_EQ_INT(rows[0].height, H / 2);
    CHECK_EQ_INT(rows[0].divisor, 2);
    CHECK_EQ_INT(rows[1].width, W);
    CHECK_EQ_INT(rows[1].height, H);
    CHECK_EQ_INT(rows[1].divisor, 1);
    CHECK(rows[0].cpu_record_ns > 0 && rows[1].cpu_record_ns > 0);
    CHECK_EQ_INT(kiln_programs_timings(f.programs, prog, rows, 1), 1);
    CHECK_EQ_INT(kiln_programs_timings(f.programs, prog + 1, rows, 4), 0);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* Waits for the GPU and pumps until every pass reports a GPU time, or gives up (bounded); returns
 * whether every row of the program has one. */
static bool pump_until_timed(program_fixture *f, uint32_t prog, kiln_pass_timing *rows, uint32_t max) {
    for (int tries = 0; tries < 50; tries++) {
        if (!kiln_gfx_wait_for_queue(f->gfx.gfx, NULL)) return false;
        kiln_gfx_pump(f->gfx.gfx, true);
        uint32_t n = kiln_programs_timings(f->programs, prog, rows, max), timed = 0;
        for (uint32_t i = 0; i < n; i++) timed += rows[i].gpu_ns >= 0;
        if (n && timed == n) return true;
    }
    return false;
}

/* Under lavapipe the adapter offers timestamp queries; elsewhere without them every row stays -1. */
TEST(every_pass_reports_gpu_time_once_the_frame_came_back) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    uint32_t prog = register_upsample(&f);
    CHECK(prog);
    kiln_pass_timing rows[2];
    CHECK_EQ_INT(kiln_programs_timings(f.programs, prog, rows, 2), 2);
    CHECK(rows[0].gpu_ns < 0 && rows[1].gpu_ns < 0);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, W, H, NULL, true);
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, &out, 1, NULL, 0), KILN_DISPATCH_OK);
    CHECK(run_frame(&f));
    if (f.gfx.gfx->features.timestamp_query) {
        CHECK(pump_until_timed(&f, prog, rows, 2));
    } else {
        CHECK(kiln_gfx_wait_for_queue(f.gfx.gfx, NULL));
        kiln_gfx_pump(f.gfx.gfx, true);
        CHECK_EQ_INT(kiln_programs_timings(f.programs, prog, rows, 2), 2);
        CHECK(rows[0].gpu_ns < 0 && rows[1].gpu_ns < 0);
    }
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* Two record calls into one encoder, then one submit: both calls' readbacks wait for that submit
 * (mapping earlier would make it fail), and the program's pass is timed. */
TEST(two_record_calls_into_one_encoder_are_both_timed) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    if (!f.gfx.gfx->features.timestamp_query) {
        program_fixture_close(&f);
        SKIP("the adapter offers no timestamp queries");
    }
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8)};
    kiln_pass_spec passes[] = {with_window(fragment_pass("fs_fill", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), 0, 16)};
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(BASIC_WGSL, bindings, passes);
    uint32_t progs[2] = {register_desc(&f, &desc), register_desc(&f, &desc)};
    CHECK(progs[0] && progs[1]);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, 4, 4, NULL, true);
    const float red[4] = {1, 0, 0, 1};
    kiln_encoder enc;
    kiln_error err = {0};
    CHECK(kiln_encoder_begin(&enc, f.gfx.res, "frame", &err));
    for (int d = 0; d < 2; d++) {
        CHECK_EQ_INT(kiln_programs_dispatch(f.programs, progs[d], &out, 1, red, sizeof red), KILN_DISPATCH_OK);
        CHECK_MSG(kiln_programs_record(f.programs, &enc, &err), "%s", err.message);
    }
    kiln_gfx_pump(f.gfx.gfx, true);
    kiln_pass_timing row;
    CHECK_EQ_INT(kiln_programs_timings(f.programs, progs[0], &row, 1), 1);
    CHECK(row.gpu_ns < 0); /* nothing was submitted yet */
    CHECK(kiln_encoder_finish_and_submit(&enc, &err));
    CHECK(pump_until_timed(&f, progs[0], &row, 1));
    CHECK(pump_until_timed(&f, progs[1], &row, 1));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* ---- frames --------------------------------------------------------------------------------------------- */

TEST(several_dispatches_in_a_frame_each_read_their_own_uniforms) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8)};
    kiln_pass_spec passes[] = {with_window(fragment_pass("fs_fill", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), 4, 16)};
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(BASIC_WGSL, bindings, passes);
    uint32_t prog = register_desc(&f, &desc);
    CHECK(prog);
    uint32_t outs[3];
    for (int d = 0; d < 3; d++) {
        outs[d] = make_texture(&f, KILN_FORMAT_RGBA8, W, H, NULL, true);
        /* An unaligned window (offset 4) in a blob of its own. */
        float blob[5] = {-1, d == 0, d == 1, d == 2, 1};
        CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, &outs[d], 1, blob, sizeof blob), KILN_DISPATCH_OK);
    }
    CHECK(run_frame(&f));
    static float got[W * H * 4];
    for (int d = 0; d < 3; d++) {
        CHECK(read_texels(&f, outs[d], got));
        for (int c = 0; c < 3; c++) CHECK_NEAR(got[4 * (W * H / 2) + c], c == d ? 1.0 : 0.0, 1e-6);
    }
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

TEST(uv_zero_is_the_top_left_corner) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8)};
    kiln_pass_spec passes[] = {fragment_pass("fs_uv", to_binding(0), KILN_PROGRAM_BLEND_REPLACE)};
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(BASIC_WGSL, bindings, passes);
    uint32_t prog = register_desc(&f, &desc);
    CHECK(prog);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, W, H, NULL, true);
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, &out, 1, NULL, 0), KILN_DISPATCH_OK);
    CHECK(run_frame(&f));
    static float got[W * H * 4];
    CHECK(read_texels(&f, out, got));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            CHECK_NEAR(got[4 * (y * W + x) + 0], unorm8((x + 0.5f) / W), 1.0 / 255.0 + 1e-6);
            CHECK_NEAR(got[4 * (y * W + x) + 1], unorm8((y + 0.5f) / H), 1.0 / 255.0 + 1e-6);
        }
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* 1100 Additive iterations of 1.0 into a float transient, then a copy to the output. A clear the
 * caller recorded into the encoder beforehand has reached the GPU by the time record returns (the
 * encoder was submitted after 1024 passes and recording went on in a fresh one), and the copy,
 * recorded after the split, sees every iteration. */
TEST(a_frame_over_1024_passes_submits_and_continues_in_order) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA16_FLOAT)};
    kiln_transient_spec transients[] = {full_transient(KILN_FORMAT_RGBA16_FLOAT, KILN_SAMPLES_ONE)};
    kiln_pass_spec passes[] = {
        with_repeat(with_window(fragment_pass("fs_fill", to_transient(0), KILN_PROGRAM_BLEND_ADDITIVE), 0, 16), 1100, 0),
        with_input(fragment_pass("fs_copy", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), from_pass(0)),
    };
    kiln_program_desc desc = PROGRAM_DESC(BASIC_WGSL, bindings, transients, passes);
    uint32_t prog = register_desc(&f, &desc);
    CHECK(prog);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA16_FLOAT, 4, 4, NULL, true);
    uint32_t marker = make_texture(&f, KILN_FORMAT_RGBA8, 4, 4, NULL, true);
    const float one[4] = {1, 0, 0, 0};
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, &out, 1, one, sizeof one), KILN_DISPATCH_OK);

    kiln_encoder enc;
    kiln_error err = {0};
    CHECK(kiln_encoder_begin(&enc, f.gfx.res, "frame", &err));
    kiln_color_attachment white = kiln_color_cleared(kiln_texture_registry_gpu_view(f.reg, marker, NULL), 1, 1, 1, 1);
    kiln_render_pass rp;
    CHECK(kiln_encoder_begin_render_pass(&enc, "marker", &white, 1, NULL, &rp, &err));
    kiln_render_pass_end(&rp);
    CHECK_MSG(kiln_programs_record(f.programs, &enc, &err), "%s", err.message);
    float marked[4 * 4 * 4];
    CHECK(read_texels(&f, marker, marked));
    CHECK_NEAR(marked[0], 1.0, 1e-6);
    CHECK(enc.raw != NULL);
    CHECK(kiln_encoder_finish_and_submit(&enc, &err));
    float got[4 * 4 * 4];
    CHECK(read_texels(&f, out, got));
    CHECK_NEAR(got[0], 1100.0, 1e-6);
    /* The repeated pass, cut in two by the split, is timed from both pieces. */
    kiln_pass_timing rows[2];
    if (f.gfx.gfx->features.timestamp_query) CHECK(pump_until_timed(&f, prog, rows, 2));
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* Below 1024 passes nothing is submitted early: the caller's clear waits for its own submit. */
TEST(a_frame_under_1024_passes_is_not_submitted_early) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8)};
    kiln_pass_spec passes[] = {
        with_repeat(with_window(fragment_pass("fs_fill", to_binding(0), KILN_PROGRAM_BLEND_ALPHA), 0, 16), 8, 0)};
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(BASIC_WGSL, bindings, passes);
    uint32_t prog = register_desc(&f, &desc);
    CHECK(prog);
    uint32_t out = make_texture(&f, KILN_FORMAT_RGBA8, 4, 4, NULL, true);
    uint32_t marker = make_texture(&f, KILN_FORMAT_RGBA8, 4, 4, NULL, true);
    const float red[4] = {1, 0, 0, 1};
    CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, &out, 1, red, sizeof red), KILN_DISPATCH_OK);
    kiln_encoder enc;
    kiln_error err = {0};
    CHECK(kiln_encoder_begin(&enc, f.gfx.res, "frame", &err));
    kiln_color_attachment white = kiln_color_cleared(kiln_texture_registry_gpu_view(f.reg, marker, NULL), 1, 1, 1, 1);
    kiln_render_pass rp;
    CHECK(kiln_encoder_begin_render_pass(&enc, "marker", &white, 1, NULL, &rp, &err));
    kiln_render_pass_end(&rp);
    CHECK_MSG(kiln_programs_record(f.programs, &enc, &err), "%s", err.message);
    float marked[4 * 4 * 4];
    CHECK(read_texels(&f, marker, marked));
    CHECK_NEAR(marked[0], 0.0, 1e-6);
    CHECK(kiln_encoder_finish_and_submit(&enc, &err));
    CHECK(read_texels(&f, marker, marked));
    CHECK_NEAR(marked[0], 1.0, 1e-6);
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

/* Two record calls into one encoder before its submit: each dispatch keeps its own uniforms. */
TEST(two_record_calls_into_one_encoder_keep_their_uniforms) {
    program_fixture f;
    PROGRAM_FIXTURE_OPEN(f);
    kiln_slot_spec bindings[] = {target_slot(KILN_FORMAT_RGBA8)};
    kiln_pass_spec passes[] = {with_window(fragment_pass("fs_fill", to_binding(0), KILN_PROGRAM_BLEND_REPLACE), 0, 16)};
    kiln_program_desc desc = PROGRAM_DESC_PLAIN(BASIC_WGSL, bindings, passes);
    uint32_t prog = register_desc(&f, &desc);
    CHECK(prog);
    uint32_t outs[2] = {make_texture(&f, KILN_FORMAT_RGBA8, 4, 4, NULL, true),
                        make_texture(&f, KILN_FORMAT_RGBA8, 4, 4, NULL, true)};
    const float colors[2][4] = {{1, 0, 0, 1}, {0, 0, 1, 1}};
    kiln_encoder enc;
    kiln_error err = {0};
    CHECK(kiln_encoder_begin(&enc, f.gfx.res, "frame", &err));
    for (int d = 0; d < 2; d++) {
        CHECK_EQ_INT(kiln_programs_dispatch(f.programs, prog, &outs[d], 1, colors[d], sizeof colors[d]), KILN_DISPATCH_OK);
        CHECK_MSG(kiln_programs_record(f.programs, &enc, &err), "%s", err.message);
    }
    CHECK(kiln_encoder_finish_and_submit(&enc, &err));
    float got[4 * 4 * 4];
    for (int d = 0; d < 2; d++) {
        CHECK(read_texels(&f, outs[d], got));
        for (int c = 0; c < 4; c++) CHECK_NEAR(got[c], colors[d][c], 1e-6);
    }
    PROGRAM_FIXTURE_CLOSE_CLEAN(f);
}

TEST_MAIN(T(a_separable_gaussian_blur_matches_the_cpu), T(dispatching_the_same_blob_twice_is_bit_identical),
          T(a_threshold_of_an_r32float_plane_matches_the_cpu), T(a_composite_of_two_inputs_matches_the_cpu),
          T(additive_iterations_accumulate_on_a_float_transient), T(a_replace_pass_of_alpha_zero_erases_the_output),
          T(an_alpha_pass_of_alpha_zero_leaves_the_output), T(a_repeated_alpha_pass_accumulates_its_iterations),
          T(a_repeated_replace_pass_keeps_only_its_last_iteration), T(a_divided_transient_reads_back_up_to_the_output),
          T(timings_report_the_last_accepted_dispatch),
          T(every_pass_reports_gpu_time_once_the_frame_came_back), T(two_record_calls_into_one_encoder_are_both_timed),
          T(several_dispatches_in_a_frame_each_read_their_own_uniforms),
          T(uv_zero_is_the_top_left_corner), T(a_frame_over_1024_passes_submits_and_continues_in_order),
          T(a_frame_under_1024_passes_is_not_submitted_early), T(two_record_calls_into_one_encoder_keep_their_uniforms))
