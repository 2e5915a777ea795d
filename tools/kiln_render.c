/* kiln-render: headless rendering from the command line.
 *
 *   kiln-render --demo -o out/demo.png [--size WxH]
 *
 * Until the renderer lands (issue "Renderer I"), --demo draws the gfx layer's own test image:
 * a lit-looking triangle over a clear colour with a debug-line grid and axes, offscreen, read
 * back and written as PNG. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kiln/gfx.h>

static const char *TRIANGLE_WGSL =
    "struct VsOut { @builtin(position) pos: vec4f, @location(0) color: vec3f };\n"
    "@vertex fn vs_main(@builtin(vertex_index) i: u32) -> VsOut {\n"
    "    var p = array<vec2f, 3>(vec2f(-0.6, -0.5), vec2f(0.6, -0.5), vec2f(0.0, 0.6));\n"
    "    var c = array<vec3f, 3>(vec3f(1.0, 0.2, 0.1), vec3f(0.1, 0.9, 0.3), vec3f(0.2, 0.3, 1.0));\n"
    "    var out: VsOut;\n"
    "    out.pos = vec4f(p[i], 0.5, 1.0);\n"
    "    out.color = c[i];\n"
    "    return out;\n"
    "}\n"
    "@fragment fn fs_main(in: VsOut) -> @location(0) vec4f { return vec4f(in.color, 1.0); }\n";

static int usage(void) {
    fprintf(stderr, "usage: kiln-render --demo -o OUT.png [--size WxH]\n");
    return 2;
}

static bool render_demo(kiln_gfx *gfx, kiln_resources *res, uint32_t w, uint32_t h, kiln_image *out, kiln_error *err) {
    kiln_shaders *sh = kiln_shaders_create(gfx, res, err);
    if (!sh) return false;
    bool ok = false;
    kiln_debug_draw *dd = NULL;
    WGPUShaderModule m = kiln_shaders_compile(sh, "kiln-render/triangle.wgsl", TRIANGLE_WGSL, NULL, err);
    kiln_shader shader = m ? kiln_gfx_adopt_shader(res, m, "triangle", err) : (kiln_shader){0};
    kiln_render_pipeline pipeline = {0};
    if (shader.id)
        pipeline = kiln_gfx_create_render_pipeline(res, &(kiln_render_pipeline_desc){
            .label = "demo triangle", .shader = shader, .target_count = 1,
            .targets = {{.format = WGPUTextureFormat_RGBA8UnormSrgb}},
            .depth = kiln_depth_reverse_z(WGPUTextureFormat_Depth32Float, true)}, err);
    kiln_texture color = {0}, depth = {0};
    kiln_texture_view color_view = {0}, depth_view = {0};
    if (pipeline.id) {
        color = kiln_gfx_create_texture(res, &(kiln_texture_desc){.label = "demo color", .width = w, .height = h,
            .format = WGPUTextureFormat_RGBA8UnormSrgb, .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc}, err);
        depth = kiln_gfx_create_texture(res, &(kiln_texture_desc){.label = "demo depth", .width = w, .height = h,
            .format = WGPUTextureFormat_Depth32Float, .usage = WGPUTextureUsage_RenderAttachment}, err);
    }
    if (color.id && depth.id) {
        color_view = kiln_gfx_create_texture_view(res, color, NULL, err);
        depth_view = kiln_gfx_create_texture_view(res, depth, NULL, err);
        dd = kiln_debug_draw_create(res, sh, WGPUTextureFormat_RGBA8UnormSrgb, WGPUTextureFormat_Depth32Float, err);
    }
    if (dd && color_view.id && depth_view.id) {
        kiln_debug_draw_grid(dd, 10, 0.5f, (kiln_color8){90, 90, 100, 255});
        kiln_debug_draw_axes(dd, (kiln_vec3){0, 0.01f, 0}, 1.5f);
        kiln_mat4 view = kiln_mat4_look_at((kiln_vec3){4, 3, 6}, (kiln_vec3){0, 0, 0}, (kiln_vec3){0, 1, 0});
        kiln_mat4 proj = kiln_mat4_perspective_reverse_z_infinite(0.9f, (float)w / (float)h, 0.1f);
        kiln_encoder enc;
        kiln_render_pass pass;
        kiln_color_attachment c = kiln_color_cleared(kiln_gfx_texture_view_raw(res, color_view, NULL), 0.02, 0.025, 0.04, 1);
        kiln_depth_attachment d = kiln_depth_cleared_reverse_z(kiln_gfx_texture_view_raw(res, depth_view, NULL));
        ok = kiln_debug_draw_upload(dd, kiln_mat4_mul(proj, view), err) && kiln_encoder_begin(&enc, res, "demo", err);
        if (ok && !kiln_encoder_begin_render_pass(&enc, "demo", &c, 1, &d, &pass, err)) {
            kiln_encoder_discard(&enc);
            ok = false;
        }
        if (ok) {
            ok = kiln_render_pass_set_pipeline(&pass, pipeline, err);
            if (ok) kiln_render_pass_draw(&pass, 3, 1, 0, 0);
            ok = ok && kiln_debug_draw_flush(dd, &pass, err);
            kiln_render_pass_end(&pass);
            ok = ok ? kiln_encoder_finish_and_submit(&enc, err) : (kiln_encoder_discard(&enc), false);
        }
        ok = ok && kiln_gfx_read_texture(res, kiln_gfx_texture_raw(res, color, NULL), out, err);
    }
    kiln_debug_draw_destroy(dd);
    if (color_view.id) kiln_gfx_destroy_texture_view(res, color_view, NULL);
    if (depth_view.id) kiln_gfx_destroy_texture_view(res, depth_view, NULL);
    if (color.id) kiln_gfx_destroy_texture(res, color, NULL);
    if (depth.id) kiln_gfx_destroy_texture(res, depth, NULL);
    if (pipeline.id) kiln_gfx_destroy_render_pipeline(res, pipeline, NULL);
    if (shader.id) kiln_gfx_destroy_shader(res, shader, NULL);
    kiln_shaders_destroy(sh);
    return ok;
}

int main(int argc, char **argv) {
    const char *out_path = NULL;
    bool demo = false;
    uint32_t w = 1280, h = 720;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--demo")) demo = true;
        else if (!strcmp(argv[i], "-o") && i + 1 < argc) out_path = argv[++i];
        else if (!strcmp(argv[i], "--size") && i + 1 < argc) {
            if (sscanf(argv[++i], "%ux%u", &w, &h) != 2 || !w || !h || w > 8192 || h > 8192) {
                fprintf(stderr, "kiln-render: --size wants WxH (1..8192), got '%s'\n", argv[i]);
                return 2;
            }
        } else {
            fprintf(stderr, "kiln-render: unknown argument '%s'\n", argv[i]);
            return usage();
        }
    }
    if (!demo || !out_path) return usage();

    kiln_error err = {0};
    kiln_gfx *gfx = kiln_gfx_create(&(kiln_gfx_desc){.label = "kiln-render"}, &err);
    if (!gfx) {
        fprintf(stderr, "kiln-render: %s\n", err.message);
        return 1;
    }
    kiln_resources *res = kiln_resources_create(gfx, 0, &err);
    kiln_image img = {0};
    bool ok = res && render_demo(gfx, res, w, h, &img, &err) && kiln_image_write_png(&img, out_path, &err);
    kiln_gfx_pump(gfx, true);
    if (ok && gfx->error_count) {
        ok = false;
        snprintf(err.message, sizeof err.message, "%llu validation error(s) from Dawn", (unsigned long long)gfx->error_count);
    }
    for (uint32_t i = 0; i < kiln_log_count(&gfx->diagnostics); i++) {
        const kiln_log_record *r = kiln_log_at(&gfx->diagnostics, i);
        if (r->level >= KILN_LOG_WARN) fprintf(stderr, "kiln-render: [%s] %s\n", r->category, r->message);
    }
    if (ok) printf("kiln-render: wrote %s (%ux%u) on %s\n", out_path, w, h, gfx->adapter_name);
    else fprintf(stderr, "kiln-render: %s\n", err.message);
    kiln_image_free(&img);
    kiln_resources_destroy(res);
    kiln_gfx_destroy(gfx);
    return ok ? 0 : 1;
}
