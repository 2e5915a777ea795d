/* The 1x1 fallback textures (kiln/textures/default_textures.h). */
#include <kiln/textures/default_textures.h>

static bool one_texel(kiln_resources *res, const char *label, const uint8_t rgba[4], kiln_texture *tex,
                      kiln_texture_view *view, kiln_error *err) {
    kiln_texture_desc td = {.label = label, .width = 1, .height = 1, .format = WGPUTextureFormat_RGBA8Unorm,
                            .usage = WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst};
    *tex = kiln_resources_create_texture(res, &td, err);
    if (!tex->id || !kiln_resources_write_texture(res, *tex, 0, 0, rgba, 4, 4, 1, 1, err)) return false;
    *view = kiln_resources_create_texture_view(res, *tex, NULL, err);
    return view->id != 0;
}

bool kiln_default_textures_create(kiln_resources *res, kiln_default_textures *d, kiln_error *err) {
    *d = (kiln_default_textures){0};
    static const uint8_t white[4] = {255, 255, 255, 255}, normal[4] = {128, 128, 255, 255};
    bool ok = one_texel(res, "default white", white, &d->white, &d->white_view, err) &&
              one_texel(res, "default flat normal", normal, &d->flat_normal, &d->flat_normal_view, err);
    if (!ok) kiln_default_textures_destroy(d, res);
    return ok;
}

void kiln_default_textures_destroy(kiln_default_textures *d, kiln_resources *res) {
    kiln_texture_view views[2] = {d->white_view, d->flat_normal_view};
    kiln_texture textures[2] = {d->white, d->flat_normal};
    for (int i = 0; i < 2; i++) {
        if (views[i].id) kiln_resources_destroy_texture_view(res, views[i], NULL);
        if (textures[i].id) kiln_resources_destroy_texture(res, textures[i], NULL);
    }
    *d = (kiln_default_textures){0};
}
