/* The import tests' shared set-up: the sample model files under $KILN_ASSETS/gltf, a device
 * with a renderer drawing into a SIZE x SIZE target, one imported model, and pixel comparison. */
#ifndef KILN_TEST_IMPORT_HARNESS_H
#define KILN_TEST_IMPORT_HARNESS_H

#include <dirent.h>
#include <sys/stat.h>

#include <kiln/import.h>

#include "gfx_fixture.h"

#define SIZE 128u

/* The model file of $KILN_ASSETS/gltf/<name>/: <name>.glb or <name>.gltf. NULL: none. */
static inline const char *model_path(const char *name, char *out, size_t size) {
    const char *assets = getenv("KILN_ASSETS");
    struct stat st;
    if (!assets) return NULL;
    snprintf(out, size, "%s/gltf/%s/%s.glb", assets, name, name);
    if (stat(out, &st) == 0) return out;
    snprintf(out, size, "%s/gltf/%s/%s.gltf", assets, name, name);
    return stat(out, &st) == 0 ? out : NULL;
}

static inline bool assets_present(void) {
    const char *assets = getenv("KILN_ASSETS");
    char dir[1024];
    struct stat st;
    snprintf(dir, sizeof dir, "%s/gltf", assets ? assets : "");
    return assets && stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A device, a renderer drawing into a SIZE x SIZE target, and one imported model. */
typedef struct harness {
    gfx_fixture f;
    kiln_renderer *r;
    kiln_texture target;
    kiln_texture_view view;
    kiln_imported_scene scene;
} harness;

static inline bool harness_open(harness *h) {
    kiln_error err = {0};
    *h = (harness){0};
    if (!fixture_open(&h->f)) return false;
    h->r = kiln_renderer_create(h->f.gfx, h->f.res, NULL, WGPUTextureFormat_RGBA8UnormSrgb, &err);
    h->target = kiln_resources_create_texture(h->f.res, &(kiln_texture_desc){.width = SIZE, .height = SIZE,
        .format = WGPUTextureFormat_RGBA8UnormSrgb, .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc}, &err);
    if (h->r && h->target.id) h->view = kiln_resources_create_texture_view(h->f.res, h->target, NULL, &err);
    if (!h->view.id) fprintf(stderr, "harness: %s\n", err.message);
    return h->view.id != 0;
}

/* Loads and imports the sample `name` (options may be NULL); false with the reason printed. */
static inline bool harness_import(harness *h, const char *name, const kiln_gltf_import_options *options) {
    char path[1024];
    kiln_error err = {0};
    if (!model_path(name, path, sizeof path)) return fprintf(stderr, "%s: no model file\n", name), false;
    kiln_gltf *doc = kiln_gltf_load(path, NULL, &err);
    bool ok = doc && kiln_gltf_import(doc, h->r, options, &h->scene, &err);
    if (!ok) fprintf(stderr, "%s: %s\n", name, err.message);
    kiln_gltf_free(doc);
    return ok;
}

static inline bool harness_render(harness *h, const kiln_render_scene *scene, kiln_image *out) {
    kiln_error err = {0};
    kiln_render_target t = {.texture = kiln_resources_texture_raw(h->f.res, h->target, NULL), .view = kiln_resources_texture_view_raw(h->f.res, h->view, NULL)};
    bool ok = kiln_renderer_render(h->r, scene, t, &err) &&
              kiln_resources_read_texture(h->f.res, kiln_resources_texture_raw(h->f.res, h->target, NULL), out, &err);
    if (!ok) fprintf(stderr, "render: %s\n", err.message);
    return ok;
}

static inline uint64_t harness_close(harness *h) {
    kiln_imported_scene_free(&h->scene);
    if (h->view.id) kiln_resources_destroy_texture_view(h->f.res, h->view, NULL);
    if (h->target.id) kiln_resources_destroy_texture(h->f.res, h->target, NULL);
    kiln_renderer_destroy(h->r);
    return fixture_close(&h->f);
}

/* Pixels (of two same-sized RGBA8 images) differing in any channel. */
static inline uint32_t pixels_differing(const kiln_image *a, const kiln_image *b) {
    const uint8_t *pa = a->pixels, *pb = b->pixels;
    uint32_t n = 0;
    for (uint32_t i = 0; i < a->width * a->height; i++) n += memcmp(pa + 4 * i, pb + 4 * i, 4) != 0;
    return n;
}

#endif
