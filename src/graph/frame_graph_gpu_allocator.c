/* The frame graph's allocator over kiln_resources: what the renderer and the program runtime use.
 * Textures and views are made inside an error scope, so a description Dawn refuses fails compile
 * here with Dawn's message instead of as an uncaptured error at the next submit. */
#include <kiln/graph.h>

#include <string.h>

static bool failed_scope(kiln_gfx *gfx, bool created, kiln_error *inner, kiln_error *err) {
    kiln_gfx_scope_result scope;
    bool popped = kiln_gfx_pop_scope(gfx, &scope, created ? inner : NULL);
    if (created && popped && !scope.failed) return false;
    if (scope.failed) kiln_error_set(err, KILN_ERR_GPU, "%s", scope.message);
    else kiln_error_set(err, inner->code ? inner->code : KILN_ERR_GPU, "%s", inner->message);
    return true;
}

static bool create_texture(void *user, const char *name, const kiln_fg_texture_desc *desc, kiln_fg_texture *out,
                           kiln_error *err) {
    kiln_resources *res = user;
    kiln_gfx *gfx = kiln_resources_gfx(res);
    kiln_texture_desc td = {
        .label = name, .width = desc->width, .height = desc->height, .depth_or_layers = desc->layers,
        .mip_levels = desc->mip_levels, .sample_count = desc->sample_count, .format = desc->format,
        .usage = desc->usage,
    };
    kiln_error inner = {0};
    kiln_gfx_push_scope(gfx);
    kiln_fg_texture t = {.texture = kiln_resources_create_texture(res, &td, &inner)};
    if (t.texture.id) {
        /* A layered texture's default view is its whole array, sampled as texture_2d_array. */
        kiln_texture_view_desc vd = {.label = name,
                                     .dimension = desc->layers > 1 ? WGPUTextureViewDimension_2DArray
                                                                   : WGPUTextureViewDimension_Undefined};
        t.view = kiln_resources_create_texture_view(res, t.texture, &vd, &inner);
    }
    if (failed_scope(gfx, t.texture.id && t.view.id, &inner, err)) {
        if (t.view.id) kiln_resources_destroy_texture_view(res, t.view, NULL);
        if (t.texture.id) kiln_resources_destroy_texture(res, t.texture, NULL);
        return false;
    }
    t.raw_texture = kiln_resources_texture_raw(res, t.texture, NULL);
    t.raw_view = kiln_resources_texture_view_raw(res, t.view, NULL);
    *out = t;
    return true;
}

static bool create_view(void *user, const kiln_fg_texture *texture, uint32_t mip, uint32_t layer, kiln_fg_view *out,
                        kiln_error *err) {
    kiln_resources *res = user;
    kiln_gfx *gfx = kiln_resources_gfx(res);
    kiln_texture_view_desc vd = {.dimension = WGPUTextureViewDimension_2D, .base_mip = mip, .mip_count = 1,
                                 .base_layer = layer, .layer_count = 1};
    kiln_error inner = {0};
    kiln_gfx_push_scope(gfx);
    kiln_fg_view v = {.view = kiln_resources_create_texture_view(res, texture->texture, &vd, &inner)};
    if (failed_scope(gfx, v.view.id != 0, &inner, err)) {
        if (v.view.id) kiln_resources_destroy_texture_view(res, v.view, NULL);
        return false;
    }
    v.raw_view = kiln_resources_texture_view_raw(res, v.view, NULL);
    *out = v;
    return true;
}

static void destroy_view(void *user, kiln_fg_view *view) {
    kiln_resources_destroy_texture_view(user, view->view, NULL);
    *view = (kiln_fg_view){0};
}

static void destroy_texture(void *user, kiln_fg_texture *texture) {
    kiln_resources_destroy_texture_view(user, texture->view, NULL);
    kiln_resources_destroy_texture(user, texture->texture, NULL);
    *texture = (kiln_fg_texture){0};
}

kiln_fg_allocator kiln_fg_gpu_allocator(kiln_resources *res) {
    return (kiln_fg_allocator){.user = res, .create_texture = create_texture, .create_view = create_view,
                               .destroy_view = destroy_view, .destroy_texture = destroy_texture};
}
