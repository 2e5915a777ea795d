/* kiln-view's program view (kiln_view_blit.h). */
#include "kiln_view_blit.h"

#include <math.h>
#include <string.h>

#include <kiln/core.h>
#include <kiln/shader/library.h>

/* The shared fullscreen triangle (the shader layer's fullscreen.wgsl); each fragment loads the
 * texel under its centre. */
static const char blit_wgsl[] =
    "#include \"fullscreen.wgsl\"\n"
    "#include \"srgb.wgsl\"\n"
    "\n"
    "struct Blit {\n"
    "    origin: vec2<f32>,   // the texture's top-left corner, in target pixels\n"
    "    size: vec2<f32>,     // the texture's size, in texels\n"
    "    scale: f32,          // target pixels per texel\n"
    "    mode: u32,           // 1: one channel, grey; 2: texels are linear (Rgba8Srgb); 4: the target encodes sRGB\n"
    "    background: vec3<f32>, // round the texture, a display value\n"
    "};\n"
    "@group(0) @binding(0) var<uniform> blit: Blit;\n"
    "@group(0) @binding(1) var shown: texture_2d<f32>;\n"
    "\n"
    "@fragment\n"
    "fn fs_main(in: FullscreenOut) -> @location(0) vec4<f32> {\n"
    "    let texel = (in.clip.xy - blit.origin) / blit.scale;\n"
    "    var display = blit.background;\n"
    "    if (all(texel >= vec2<f32>(0.0)) && all(texel < blit.size)) {\n"
    "        let c = textureLoad(shown, vec2<i32>(floor(texel)), 0);\n"
    "        display = clamp(select(c.rgb, c.rrr, (blit.mode & 1u) != 0u), vec3<f32>(0.0), vec3<f32>(1.0));\n"
    "        if ((blit.mode & 2u) != 0u) {\n"
    "            display = srgb_encode(display);\n"
    "        }\n"
    "    }\n"
    "    if ((blit.mode & 4u) != 0u) {\n"
    "        display = srgb_decode(display);\n"
    "    }\n"
    "    return vec4<f32>(display, 1.0);\n"
    "}\n";

enum { MODE_GREY = 1, MODE_LINEAR_TEXELS = 2, MODE_SRGB_TARGET = 4 };

#define UNIFORM_BYTES 48

/* Round the texture (and the whole window before a program has run): a dark slate, as display
 * values. */
static const float background[3] = {0.11f, 0.115f, 0.13f};

bool view_blit_create(view_blit *b, kiln_resources *res, WGPUTextureFormat format, kiln_error *err) {
    *b = (view_blit){.res = res, .format = format};
    static const kiln_wgsl_embedded_file file = {"kiln-view/blit.wgsl", blit_wgsl};
    kiln_wgsl_source source = {.files = &file, .file_count = 1};
    WGPUShaderModule module = kiln_wgsl_compile(kiln_resources_gfx(res), &source, file.name, err);
    if (!module || !(b->shader = kiln_resources_adopt_shader(res, module, "kiln-view blit", err)).id) return false;
    kiln_layout_entry entries[2] = {
        {.binding = 0, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_UNIFORM_BUFFER},
        {.binding = 1, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_UNFILTERABLE_TEXTURE_2D},
    };
    if (!(b->group_layout = kiln_resources_create_bind_group_layout(res, "kiln-view blit", entries, 2, err)).id) return false;
    if (!(b->layout = kiln_resources_create_pipeline_layout(res, "kiln-view blit", &b->group_layout, 1, err)).id) return false;
    kiln_render_pipeline_desc pd = {.label = "kiln-view blit", .layout = b->layout, .shader = b->shader,
                                    .vertex_entry = "vs_fullscreen", .target_count = 1};
    pd.targets[0].format = format;
    if (!(b->pipeline = kiln_resources_create_render_pipeline(res, &pd, err)).id) return false;
    kiln_buffer_desc bd = {.label = "kiln-view blit", .size = UNIFORM_BYTES,
                           .usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst};
    return (b->uniforms = kiln_resources_create_buffer(res, &bd, err)).id != 0;
}

void view_blit_release(view_blit *b) {
    kiln_resources *res = b->res;
    if (!res) return;
    if (b->group.id) kiln_resources_destroy_bind_group(res, b->group, NULL);
    if (b->uniforms.id) kiln_resources_destroy_buffer(res, b->uniforms, NULL);
    if (b->pipeline.id) kiln_resources_destroy_render_pipeline(res, b->pipeline, NULL);
    if (b->layout.id) kiln_resources_destroy_pipeline_layout(res, b->layout, NULL);
    if (b->group_layout.id) kiln_resources_destroy_bind_group_layout(res, b->group_layout, NULL);
    if (b->shader.id) kiln_resources_destroy_shader(res, b->shader, NULL);
    *b = (view_blit){0};
}

/* The bind group of `view`, made when the view shown is another than last frame's (a new run's
 * registry, a new device). */
static bool bind(view_blit *b, kiln_texture_view view, kiln_error *err) {
    if (b->group.id && b->bound.id == view.id) return true;
    if (b->group.id) kiln_resources_destroy_bind_group(b->res, b->group, NULL);
    kiln_binding_resource r[2] = {{.binding = 0, .buffer = b->uniforms, .size = UNIFORM_BYTES},
                                  {.binding = 1, .view = view}};
    b->group = kiln_resources_create_bind_group(b->res, "kiln-view blit", b->group_layout, r, 2, err);
    b->bound = view;
    return b->group.id != 0;
}

/* The background alone, as the shader draws it round the texture. */
static bool clear_only(view_blit *b, kiln_encoder *enc, WGPUTextureView target, kiln_error *err) {
    double c[3];
    for (int i = 0; i < 3; i++) c[i] = kiln_gfx_format_is_srgb(b->format) ? kiln_srgb_to_linear(background[i]) : background[i];
    kiln_color_attachment color = kiln_color_cleared(target, c[0], c[1], c[2], 1);
    kiln_render_pass pass;
    if (!kiln_encoder_begin_render_pass(enc, "kiln-view blit", &color, 1, NULL, &pass, err)) return false;
    kiln_render_pass_end(&pass);
    return true;
}

bool view_blit_draw(view_blit *b, kiln_encoder *enc, kiln_texture_view view, const kiln_texture_info *info,
                    WGPUTextureView target, uint32_t width, uint32_t height, kiln_error *err) {
    if (!info) return clear_only(b, enc, target, err);
    if (!bind(b, view, err)) return false;
    /* Fitted, aspect kept, centred on whole pixels: a window of the texture's size maps each
     * pixel onto its own texel. */
    float scale = fminf((float)width / (float)info->width, (float)height / (float)info->height);
    float origin_x = floorf(((float)width - (float)info->width * scale) * 0.5f);
    float origin_y = floorf(((float)height - (float)info->height * scale) * 0.5f);
    bool grey = info->format == KILN_FORMAT_R8 || info->format == KILN_FORMAT_R16_FLOAT || info->format == KILN_FORMAT_R32_FLOAT;
    bool linear_texels = kiln_gfx_format_is_srgb(kiln_texture_format_wgpu(info->format));
    uint32_t mode = (grey ? MODE_GREY : 0) | (linear_texels ? MODE_LINEAR_TEXELS : 0) |
                    (kiln_gfx_format_is_srgb(b->format) ? MODE_SRGB_TARGET : 0);
    uint8_t uniforms[UNIFORM_BYTES] = {0};
    float floats[5] = {origin_x, origin_y, (float)info->width, (float)info->height, scale};
    memcpy(uniforms, floats, sizeof floats);
    memcpy(uniforms + sizeof floats, &mode, sizeof mode);
    memcpy(uniforms + 32, background, sizeof background);
    if (!kiln_resources_write_buffer(b->res, b->uniforms, 0, uniforms, sizeof uniforms, err)) return false;
    kiln_color_attachment color = kiln_color_cleared(target, 0, 0, 0, 1);
    kiln_render_pass pass;
    if (!kiln_encoder_begin_render_pass(enc, "kiln-view blit", &color, 1, NULL, &pass, err)) return false;
    bool ok = kiln_render_pass_set_pipeline(&pass, b->pipeline, err) &&
              kiln_render_pass_set_bind_group(&pass, 0, b->group, NULL, 0, err);
    if (ok) kiln_render_pass_draw(&pass, 3, 1, 0, 0);
    kiln_render_pass_end(&pass);
    return ok;
}
