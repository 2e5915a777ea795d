/* Colour grading: white balance in linear light before the tone map, as Filament's colour
 * grading does it (a chromatic adaptation from a white of the given temperature and tint to the
 * reference white, in the LMS space of the Bradford transform), then, on the display image after
 * the tone map, contrast about mid grey, saturation about the Rec. 709 luma, lift / gamma / gain
 * per channel, and a 3D lookup table from an Adobe / Resolve .cube file
 * (shaders/color_grading.wgsl). settings.exposure stays where it is, before the tone map.
 *
 * Two fullscreen passes, each declared only when it changes something: `white balance` when the
 * temperature or the tint is set, which reads "hdr resolved" and puts its output in its place, so
 * bloom and the tone map see the balanced image; and `colour grade` when a display control or a
 * table is set, a filter of the display image (features/fxaa.c has the protocol): it takes
 * "display" as its destination and puts its input, an `ungraded` transient of the output's
 * format, in its place. Listed after FXAA, it runs before it, so FXAA smooths the graded image.
 * With every control neutral and no table the feature declares nothing and costs nothing.
 *
 * The table is a volume of the renderer's texture registry (kiln_import_color_lut makes one
 * from a kiln_color_lut), named by settings.color_lut: N x N x N RGBA16Float texels, red along
 * x, green along y, blue along the slices, sampled trilinearly at its texel centres, so a table
 * of the identity leaves every value as it was (tests/render/test_color_grading.c). The feature
 * owns its settings rows, its block (ColorGrade), its pipelines and its passes. */
#include <math.h>
#include <string.h>

#include "features.h"

/* ---- settings ------------------------------------------------------------------------------ */

#define FIELD(f) offsetof(kiln_render_settings, f), sizeof(((kiln_render_settings *)0)->f)
#define SIGNED(k, f, d)                                                                                     \
    {.key = #k, .flag = "--" #k, .type = KILN_SETTING_FLOAT, FIELD(f), .min = -1.0, .max = 1.0,             \
     .slider_min = -1.0, .slider_max = 1.0, .placeholder = "F", .doc = d}
#define TRIPLE(k, f, lo, hi, exclusive, def, shi, d)                                                         \
    {.key = #k, .flag = "--" #k, .type = KILN_SETTING_VEC3, FIELD(f), .min = lo, .max = hi,                 \
     .min_exclusive = exclusive, .default_value = def, .slider_min = lo, .slider_max = shi, .placeholder = "R,G,B", \
     .doc = d}

static const kiln_render_setting SETTINGS[] = {
    {.key = "white_balance_temperature", .flag = "--white-balance-temperature", .type = KILN_SETTING_FLOAT,
     FIELD(white_balance_temperature), .min = -1.0, .max = 1.0, .slider_min = -1.0, .slider_max = 1.0,
     .placeholder = "F", .doc = "cooler (-1) to warmer (1): a white balance in linear light before the tone map"},
    {.key = "white_balance_tint", .flag = "--white-balance-tint", .type = KILN_SETTING_FLOAT, FIELD(white_balance_tint),
     .min = -1.0, .max = 1.0, .slider_min = -1.0, .slider_max = 1.0, .placeholder = "F",
     .doc = "greener (-1) to more magenta (1), with the temperature"},
    SIGNED(contrast, contrast, "after the tone map: -1 flat grey, 0 none, 1 twice the slope about mid grey"),
    SIGNED(saturation, saturation, "after the tone map: -1 grey, 0 none, 1 twice the colour about the luma"),
    TRIPLE(lift, lift, -1.0, 1.0, false, 0.0, 1.0, "after the tone map: raises (or lowers) the blacks, per channel"),
    TRIPLE(gamma, gamma, 0.0, 4.0, true, 1.0, 2.0, "after the tone map: the midtones' exponent per channel, 1 none"),
    TRIPLE(gain, gain, 0.0, 4.0, true, 1.0, 2.0, "after the tone map: scales the whites per channel, 1 none"),
};

/* ---- the block ----------------------------------------------------------------------------- */

#define GRADE_BLOCK_SIZE 128
enum {
    GRADE_BALANCE, GRADE_LIFT, GRADE_CONTRAST, GRADE_INVERSE_GAMMA, GRADE_SATURATION, GRADE_GAIN,
    GRADE_PREMULTIPLIED_IN, GRADE_LUT_SCALE, GRADE_PREMULTIPLIED_OUT, GRADE_LUT_OFFSET, GRADE_HAS_LUT, GRADE_MEMBER_COUNT
};
static const block_member GRADE_MEMBERS[GRADE_MEMBER_COUNT] = {
    [GRADE_BALANCE] = {"balance", 0, 48},          [GRADE_LIFT] = {"lift", 48, 12},
    [GRADE_CONTRAST] = {"contrast", 60, 4},         [GRADE_INVERSE_GAMMA] = {"inverse_gamma", 64, 12},
    [GRADE_SATURATION] = {"saturation", 76, 4},     [GRADE_GAIN] = {"gain", 80, 12},
    [GRADE_PREMULTIPLIED_IN] = {"premultiplied_in", 92, 4}, [GRADE_LUT_SCALE] = {"lut_scale", 96, 12},
    [GRADE_PREMULTIPLIED_OUT] = {"premultiplied_out", 108, 4}, [GRADE_LUT_OFFSET] = {"lut_offset", 112, 12},
    [GRADE_HAS_LUT] = {"has_lut", 124, 4},
};
static const block_layout GRADE_BLOCK = {"ColorGrade", GRADE_BLOCK_SIZE, GRADE_MEMBERS, GRADE_MEMBER_COUNT,
                                         "src/render/features/color_grading.c"};
static const render_block_use BLOCKS[] = {{"color_grading.wgsl", &GRADE_BLOCK}};

/* ---- white balance ------------------------------------------------------------------------- */

typedef struct mat3d {
    double m[3][3]; /* row-major */
} mat3d;

static mat3d mat3d_mul(mat3d a, mat3d b) {
    mat3d c = {{{0}}};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 3; k++) c.m[i][j] += a.m[i][k] * b.m[k][j];
    return c;
}

static void mat3d_apply(mat3d a, const double v[3], double out[3]) {
    for (int i = 0; i < 3; i++) out[i] = a.m[i][0] * v[0] + a.m[i][1] * v[1] + a.m[i][2] * v[2];
}

/* Linear sRGB (Rec. 709 primaries, D65) to CIE XYZ, and back; XYZ to the Bradford LMS, and back. */
static const mat3d RGB_TO_XYZ = {{{0.4124564, 0.3575761, 0.1804375},
                                  {0.2126729, 0.7151522, 0.0721750},
                                  {0.0193339, 0.1191920, 0.9503041}}};
static const mat3d XYZ_TO_RGB = {{{3.2404542, -1.5371385, -0.4985314},
                                  {-0.9692660, 1.8760108, 0.0415560},
                                  {0.0556434, -0.2040259, 1.0572252}}};
static const mat3d XYZ_TO_LMS = {{{0.8951, 0.2664, -0.1614}, {-0.7502, 1.7135, 0.0367}, {0.0389, -0.0685, 1.0296}}};
static const mat3d LMS_TO_XYZ = {{{0.9869929, -0.1470543, 0.1599627},
                                  {0.4323053, 0.5183603, 0.0492912},
                                  {-0.0085287, 0.0400428, 0.9684867}}};

/* The LMS response to the white of `temperature` and `tint` (each -1..1), as Filament places
 * it: x moves along the CIE daylight locus from D65's x (less x is a bluer white, and adapting
 * from it to D65 warms the image), y sits on the locus and the tint moves it across. */
static void white_lms(float temperature, float tint, double lms[3]) {
    double x = 0.31271 - temperature * (temperature < 0.0f ? 0.0214 : 0.066);
    double y = 2.87 * x - 3.0 * x * x - 0.275 + tint * 0.066;
    double xyz[3] = {x / y, 1.0, (1.0 - x - y) / y};
    mat3d_apply(XYZ_TO_LMS, xyz, lms);
}

/* The linear-RGB matrix that adapts the white of (temperature, tint) to the neutral one's:
 * exactly the identity at (0, 0), as the reference white is the same construction's. */
static mat3d white_balance(float temperature, float tint) {
    double from[3], to[3];
    white_lms(temperature, tint, from);
    white_lms(0.0f, 0.0f, to);
    mat3d scale = {{{to[0] / from[0], 0, 0}, {0, to[1] / from[1], 0}, {0, 0, to[2] / from[2]}}};
    return mat3d_mul(XYZ_TO_RGB, mat3d_mul(LMS_TO_XYZ, mat3d_mul(scale, mat3d_mul(XYZ_TO_LMS, RGB_TO_XYZ))));
}

/* ---- state --------------------------------------------------------------------------------- */

enum { PASS_BALANCE, PASS_GRADE, PASSES };

typedef struct color_grading_state {
    kiln_renderer *r;
    kiln_shader program;
    kiln_buffer uniform;                   /* the ColorGrade block both passes read */
    kiln_sampler sampler;                  /* linear, clamp to edge: the table */
    kiln_texture no_lut;                   /* 1x1x1 stand-in for the table when none is set */
    kiln_texture_view no_lut_view;
    kiln_bind_group_layout group_layout;
    kiln_pipeline_layout layout;
    kiln_render_pipeline pipelines[PASSES];
    kiln_bind_group_cache *groups;         /* by input and table views: two a frame */
    /* This frame's. */
    kiln_texture_view lut;                 /* the table's view, or no_lut_view */
    uint32_t lut_size;                     /* 0 with no table */
    bool balance, grade;                   /* which passes run */
    bool premultiplied_in, premultiplied_out;
    kiln_fg_resource inputs[PASSES];
} color_grading_state;

static bool create_color_grading(kiln_renderer *r, void *state, kiln_error *err) {
    color_grading_state *s = state;
    s->r = r;
    if (!(s->program = kiln_shader_library_load(r->library, "color_grading.wgsl", err)).id) return false;
    if (!(s->groups = kiln_bind_group_cache_create(r->res, 4, err))) return false;
    kiln_buffer_desc uniform = {.label = "colour grade uniform", .size = GRADE_BLOCK_SIZE,
                                .usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst};
    if (!(s->uniform = kiln_resources_create_buffer(r->res, &uniform, err)).id) return false;
    kiln_sampler_desc sampler = {.label = "colour table", .linear = true};
    if (!(s->sampler = kiln_resources_create_sampler(r->res, &sampler, err)).id) return false;
    kiln_texture_desc no_lut = {.label = "no colour table", .width = 1, .height = 1, .depth_or_layers = 1,
                                .dimension = WGPUTextureDimension_3D, .format = WGPUTextureFormat_RGBA16Float,
                                .usage = WGPUTextureUsage_TextureBinding};
    if (!(s->no_lut = kiln_resources_create_texture(r->res, &no_lut, err)).id) return false;
    if (!(s->no_lut_view = kiln_resources_create_texture_view(r->res, s->no_lut, NULL, err)).id) return false;
    kiln_layout_entry entries[4] = {
        {.binding = 0, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_TEXTURE_2D},
        {.binding = 1, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_UNIFORM_BUFFER,
         .min_binding_size = GRADE_BLOCK_SIZE},
        {.binding = 2, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_TEXTURE_3D},
        {.binding = 3, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_FILTERING_SAMPLER},
    };
    if (!(s->group_layout = kiln_resources_create_bind_group_layout(r->res, "colour grading", entries, 4, err)).id)
        return false;
    return (s->layout = kiln_resources_create_pipeline_layout(r->res, "colour grading", &s->group_layout, 1, err)).id;
}

static void destroy_color_grading(kiln_renderer *r, void *state) {
    color_grading_state *s = state;
    kiln_bind_group_cache_destroy(s->groups); /* before what its groups bind */
    for (int i = 0; i < PASSES; i++) kiln_shader_library_destroy_watched_render_pipeline(r->library, s->pipelines[i]);
    if (s->layout.id) kiln_resources_destroy_pipeline_layout(r->res, s->layout, NULL);
    if (s->group_layout.id) kiln_resources_destroy_bind_group_layout(r->res, s->group_layout, NULL);
    if (s->no_lut_view.id) kiln_resources_destroy_texture_view(r->res, s->no_lut_view, NULL);
    if (s->no_lut.id) kiln_resources_destroy_texture(r->res, s->no_lut, NULL);
    if (s->sampler.id) kiln_resources_destroy_sampler(r->res, s->sampler, NULL);
    if (s->uniform.id) kiln_resources_destroy_buffer(r->res, s->uniform, NULL);
}

/* A pass's pipeline, built the first frame it runs: the balance into HDR colour, the grade into
 * the output's format, reading encoded or linear values as the output holds them. */
static kiln_render_pipeline grading_pipeline(color_grading_state *s, int pass, kiln_error *err) {
    kiln_render_pipeline *p = &s->pipelines[pass];
    if (p->id) return *p;
    bool balance = pass == PASS_BALANCE;
    kiln_render_pipeline_desc d = {
        .label = balance ? "white balance" : "colour grade", .layout = s->layout, .shader = s->program,
        .vertex_entry = "vs_fullscreen",
        .fragment_entry = balance ? "fs_white_balance" : s->r->output_srgb_encode ? "fs_grade" : "fs_grade_linear",
        .target_count = 1, .targets = {{.format = balance ? RENDER_HDR_FORMAT : s->r->output_format}},
    };
    return *p = kiln_shader_library_create_watched_render_pipeline(s->r->library, &d, err);
}

/* ---- the frame ----------------------------------------------------------------------------- */

static bool vec3_is(kiln_vec3 v, float x) { return v.x == x && v.y == x && v.z == x; }

/* The table named by settings.color_lut: a cube volume of RGBA16Float texels in the renderer's
 * registry. Fails naming the setting; nothing of the frame is recorded yet. */
static bool resolve_lut(color_grading_state *s, uint32_t id, kiln_error *err) {
    s->lut = s->no_lut_view;
    s->lut_size = 0;
    if (!id) return true;
    const kiln_texture_info *info = kiln_texture_registry_info(s->r->texture_registry, id);
    if (!info || info->kind != KILN_TEXTURE_VOLUME || info->format != KILN_FORMAT_RGBA16_FLOAT ||
        info->width != info->height || info->height != info->layers || info->width < 2)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "renderer: settings.color_lut %u is not a colour table of the renderer's texture registry "
                              "(an N x N x N RGBA16Float volume, kiln_import_color_lut)", id);
    kiln_texture_view view = kiln_texture_registry_view_handle(s->r->texture_registry, id, err);
    if (!view.id) return false;
    s->lut = view;
    s->lut_size = info->width;
    return true;
}

static bool write_block(color_grading_state *s, kiln_error *err) {
    const kiln_render_settings *st = &s->r->settings;
    mat3d m = white_balance(st->white_balance_temperature, st->white_balance_tint);
    float balance[12] = {0}; /* three columns of a mat3x3, each padded to four floats */
    for (int c = 0; c < 3; c++)
        for (int row = 0; row < 3; row++) balance[c * 4 + row] = (float)m.m[row][c];
    float contrast = 1.0f + st->contrast, saturation = 1.0f + st->saturation;
    float inverse_gamma[3] = {1.0f / st->gamma.x, 1.0f / st->gamma.y, 1.0f / st->gamma.z};
    float n = (float)(s->lut_size ? s->lut_size : 1);
    float scale[3] = {(n - 1.0f) / n, (n - 1.0f) / n, (n - 1.0f) / n}, offset[3] = {0.5f / n, 0.5f / n, 0.5f / n};
    uint32_t in = s->premultiplied_in, out = s->premultiplied_out, has_lut = s->lut_size != 0;
    uint8_t block[GRADE_BLOCK_SIZE] = {0};
    const block_layout *b = &GRADE_BLOCK;
    block_put(block, b, GRADE_BALANCE, balance);
    block_put(block, b, GRADE_LIFT, &st->lift);
    block_put(block, b, GRADE_CONTRAST, &contrast);
    block_put(block, b, GRADE_INVERSE_GAMMA, inverse_gamma);
    block_put(block, b, GRADE_SATURATION, &saturation);
    block_put(block, b, GRADE_GAIN, &st->gain);
    block_put(block, b, GRADE_PREMULTIPLIED_IN, &in);
    block_put(block, b, GRADE_LUT_SCALE, scale);
    block_put(block, b, GRADE_PREMULTIPLIED_OUT, &out);
    block_put(block, b, GRADE_LUT_OFFSET, offset);
    block_put(block, b, GRADE_HAS_LUT, &has_lut);
    return kiln_resources_write_buffer(s->r->res, s->uniform, 0, block, sizeof block, err);
}

/* Which passes this frame needs, and the table; debug views show their colour untouched. */
static bool prepare_color_grading(kiln_renderer *r, void *state, const kiln_render_scene *scene, kiln_error *err) {
    (void)scene;
    color_grading_state *s = state;
    const kiln_render_settings *st = &r->settings;
    bool debug = st->debug != KILN_DEBUG_NONE;
    if (!resolve_lut(s, st->color_lut, err)) return false;
    s->balance = !debug && (st->white_balance_temperature != 0.0f || st->white_balance_tint != 0.0f);
    s->grade = !debug && (st->contrast != 0.0f || st->saturation != 0.0f || !vec3_is(st->lift, 0.0f) ||
                          !vec3_is(st->gamma, 1.0f) || !vec3_is(st->gain, 1.0f) || s->lut_size);
    return true;
}

static void record_pass(kiln_fg_context *ctx, color_grading_state *s, int pass) {
    kiln_render_pipeline pipeline = grading_pipeline(s, pass, &ctx->error);
    kiln_texture_view input = kiln_fg_context_view_handle(ctx, s->inputs[pass]);
    if (!pipeline.id || !input.id) return;
    kiln_binding_resource entries[4] = {
        {.binding = 0, .view = input},
        {.binding = 1, .buffer = s->uniform, .size = GRADE_BLOCK_SIZE},
        {.binding = 2, .view = s->lut},
        {.binding = 3, .sampler = s->sampler},
    };
    kiln_bind_group group =
        kiln_bind_group_cache_get(s->groups, "colour grading", s->group_layout, entries, 4, &ctx->error);
    if (!group.id) return;
    kiln_render_pass_set_pipeline(ctx->render, pipeline, NULL);
    kiln_render_pass_set_bind_group(ctx->render, 0, group, NULL, 0, NULL);
    kiln_render_pass_draw(ctx->render, 3, 1, 0, 0);
}

/* The block goes up with the first pass that runs; both read it. */
static void record_balance(kiln_fg_context *ctx, void *user) {
    color_grading_state *s = user;
    if (write_block(s, &ctx->error)) record_pass(ctx, s, PASS_BALANCE);
}

static void record_grade(kiln_fg_context *ctx, void *user) {
    color_grading_state *s = user;
    if (s->balance || write_block(s, &ctx->error)) record_pass(ctx, s, PASS_GRADE);
}

static void declare_color_grading(kiln_renderer *r, void *state, render_frame *f) {
    color_grading_state *s = state;
    if (s->balance) {
        kiln_fg_texture_desc hdr = {.width = f->width, .height = f->height, .format = RENDER_HDR_FORMAT,
                                    .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_TextureBinding};
        kiln_fg_resource balanced = kiln_frame_graph_create_transient(r->graph, "hdr balanced", &hdr);
        s->inputs[PASS_BALANCE] = render_blackboard_need(&f->board, "hdr resolved");
        uint32_t pass = kiln_frame_graph_add_pass(r->graph, "white balance", record_balance, s);
        kiln_frame_graph_read(r->graph, pass, s->inputs[PASS_BALANCE]);
        kiln_frame_graph_color(r->graph, pass, balanced, (WGPUColor){0, 0, 0, 0});
        render_blackboard_replace(&f->board, "hdr resolved", balanced);
    }
    if (!s->grade) return;
    kiln_fg_resource destination = render_blackboard_need(&f->board, "display");
    /* The protocol of the display image: over a transparent background what a filter reads is
     * colour times coverage, and only what writes the target divides it out. */
    bool transparent = r->settings.background == KILN_BACKGROUND_TRANSPARENT;
    s->premultiplied_in = transparent;
    s->premultiplied_out = transparent && destination.index != render_blackboard_find(&f->board, "target").index;
    kiln_fg_texture_desc ldr = {.width = f->width, .height = f->height, .format = r->output_format,
                                .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_TextureBinding};
    s->inputs[PASS_GRADE] = kiln_frame_graph_create_transient(r->graph, "ungraded", &ldr);
    uint32_t pass = kiln_frame_graph_add_pass(r->graph, "colour grade", record_grade, s);
    kiln_frame_graph_read(r->graph, pass, s->inputs[PASS_GRADE]);
    kiln_frame_graph_color(r->graph, pass, destination, (WGPUColor){0, 0, 0, 1});
    render_blackboard_replace(&f->board, "display", s->inputs[PASS_GRADE]);
}

const render_feature render_feature_color_grading = {
    .name = "color_grading", .state_size = sizeof(color_grading_state),
    .blocks = BLOCKS, .block_count = KILN_ARRAY_COUNT(BLOCKS), .settings = SETTINGS, .setting_count = KILN_ARRAY_COUNT(SETTINGS),
    .create = create_color_grading, .destroy = destroy_color_grading, .prepare = prepare_color_grading,
    .declare = declare_color_grading,
};
