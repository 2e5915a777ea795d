/* A renderer on a fresh device with one render target of its output format: the set-up the
 * renderer's image tests share. renderer_fixture_close reports every Dawn error and every object
 * the renderer left behind, so a test asserts a clean frame by checking it is 0. */
#ifndef KILN_TESTS_RENDERER_FIXTURE_H
#define KILN_TESTS_RENDERER_FIXTURE_H

#include <kiln/render.h>

#include "gfx_fixture.h"

typedef struct renderer_fixture {
    gfx_fixture f;
    kiln_renderer *r;
    kiln_texture target;
    kiln_texture_view view;
} renderer_fixture;

/* settings may be NULL (the defaults). The target is width x height of `format`, readable. */
static inline bool renderer_fixture_open(renderer_fixture *h, const kiln_render_settings *settings,
                                         WGPUTextureFormat format, uint32_t width, uint32_t height, kiln_error *err) {
    *h = (renderer_fixture){0};
    if (!fixture_open(&h->f)) return false;
    if (!(h->r = kiln_renderer_create(h->f.gfx, h->f.res, settings, format, err))) return false;
    h->target = kiln_resources_create_texture(h->f.res, &(kiln_texture_desc){.width = width, .height = height,
        .format = format, .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc}, err);
    return h->target.id && (h->view = kiln_resources_create_texture_view(h->f.res, h->target, NULL, err)).id;
}

static inline kiln_render_target renderer_fixture_target(const renderer_fixture *h) {
    return (kiln_render_target){.texture = kiln_resources_texture_raw(h->f.res, h->target, NULL), .view = kiln_resources_texture_view_raw(h->f.res, h->view, NULL)};
}

/* Renders one frame into the target and, when out is not NULL, reads it back. */
static inline bool renderer_fixture_render(renderer_fixture *h, const kiln_render_scene *scene, kiln_image *out,
                                           kiln_error *err) {
    if (!kiln_renderer_render(h->r, scene, renderer_fixture_target(h), err)) return false;
    return !out || kiln_resources_read_texture(h->f.res, kiln_resources_texture_raw(h->f.res, h->target, NULL), out, err);
}

/* A kiln_mesh_plane (half_extent, one segment) or kiln_mesh_cube (half_extent) added to the
 * renderer as `label`: its mesh index, or KILN_INVALID_INDEX with err. */
static inline uint32_t renderer_fixture_add_plane(renderer_fixture *h, const char *label, float half_extent,
                                                  kiln_error *err) {
    kiln_mesh_data md = {0};
    uint32_t mesh = kiln_mesh_plane(&md, half_extent, 1, err) ? kiln_renderer_add_mesh(h->r, label, &md, false, err)
                                                               : KILN_INVALID_INDEX;
    kiln_mesh_data_free(&md);
    return mesh;
}

static inline uint32_t renderer_fixture_add_cube(renderer_fixture *h, const char *label, float half_extent,
                                                 kiln_error *err) {
    kiln_mesh_data md = {0};
    uint32_t mesh = kiln_mesh_cube(&md, half_extent, err) ? kiln_renderer_add_mesh(h->r, label, &md, false, err)
                                                          : KILN_INVALID_INDEX;
    kiln_mesh_data_free(&md);
    return mesh;
}

/* Settings that keep a test frame quick on lavapipe: small cascade maps, no bloom. */
static inline kiln_render_settings renderer_fixture_quick_settings(void) {
    kiln_render_settings s = {0};
    s.cascade_resolution = 256;
    s.disable_bloom = true;
    return s;
}

/* Uncaptured Dawn errors plus objects the renderer left behind. */
static inline uint64_t renderer_fixture_close(renderer_fixture *h) {
    kiln_renderer_destroy(h->r);
    if (h->view.id) kiln_resources_destroy_texture_view(h->f.res, h->view, NULL);
    if (h->target.id) kiln_resources_destroy_texture(h->f.res, h->target, NULL);
    kiln_live_counts left = kiln_resources_live_counts(h->f.res);
    return fixture_close(&h->f) + kiln_live_counts_total(&left);
}

#endif
