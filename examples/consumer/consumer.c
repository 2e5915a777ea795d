/* A program built against an installed kiln: renders the demo scene offscreen and writes a PNG.
 *
 *   consumer OUT.png WIDTH HEIGHT
 *
 * It sees kiln only as a user does, through the installed headers and library (found with
 * find_package or pkg-config), and compiles the demo scene (examples/demo/demo_scene.c, public API
 * only) itself; with the default settings its PNG is the one `kiln-render --demo --size WxH` writes. */
#include <stdio.h>
#include <stdlib.h>

#include <kiln/render.h>
#include "demo_scene.h"

/* The demo scene into a new texture of the given size, read back into img. */
static bool render(kiln_gfx *gfx, kiln_resources *res, uint32_t width, uint32_t height, kiln_image *img,
                   kiln_error *err) {
    WGPUTextureFormat format = WGPUTextureFormat_RGBA8UnormSrgb;
    kiln_renderer *r = kiln_renderer_create(gfx, res, &(kiln_render_settings){0}, format, err);
    if (!r) return false;
    demo_scene demo;
    bool ok = demo_scene_build(r, (float)width / (float)height, &demo, err);
    kiln_texture target = {0};
    kiln_texture_view view = {0};
    if (ok) {
        target = kiln_resources_create_texture(res, &(kiln_texture_desc){.label = "consumer target", .width = width,
            .height = height, .format = format, .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc}, err);
        ok = target.id && (view = kiln_resources_create_texture_view(res, target, NULL, err)).id;
    }
    WGPUTexture raw = ok ? kiln_resources_texture_raw(res, target, NULL) : NULL;
    ok = ok && kiln_renderer_render(r, &demo.scene, (kiln_render_target){.texture = raw, .view = kiln_resources_texture_view_raw(res, view, NULL)}, err);
    ok = ok && kiln_resources_read_texture(res, raw, img, err);
    if (view.id) kiln_resources_destroy_texture_view(res, view, NULL);
    if (target.id) kiln_resources_destroy_texture(res, target, NULL);
    demo_scene_free(&demo);
    kiln_renderer_destroy(r);
    return ok;
}

int main(int argc, char **argv) {
    if (argc != 4 || atoi(argv[2]) <= 0 || atoi(argv[3]) <= 0) {
        fprintf(stderr, "usage: consumer OUT.png WIDTH HEIGHT\n");
        return 2;
    }
    printf("consumer: compiled against kiln %s, running with kiln %s\n", KILN_VERSION_STRING, kiln_version());
    kiln_error err = {0};
    kiln_gfx *gfx = kiln_gfx_create(&(kiln_gfx_desc){.label = "consumer"}, &err);
    kiln_resources *res = gfx ? kiln_resources_create(gfx, 0, &err) : NULL;
    kiln_image img = {0};
    bool ok = res && render(gfx, res, (uint32_t)atoi(argv[2]), (uint32_t)atoi(argv[3]), &img, &err) &&
              kiln_image_write_png(&img, argv[1], &err);
    if (gfx) kiln_gfx_pump(gfx, true);
    if (ok && gfx->error_count) {
        ok = false;
        snprintf(err.message, sizeof err.message, "%llu validation error(s) from Dawn", (unsigned long long)gfx->error_count);
    }
    if (!ok) fprintf(stderr, "consumer: %s\n", err.message);
    kiln_image_free(&img);
    kiln_resources_destroy(res);
    kiln_gfx_destroy(gfx);
    return ok ? 0 : 1;
}
