/* What the skinning and morph target tests share: a renderer with one unlit red material seen
 * through the albedo view (every covered pixel is exactly that red, the rest the dark sky), meshes
 * of flat quads built by hand, and the pixel a world point projects to. */
#ifndef KILN_TESTS_DEFORM_SCENE_H
#define KILN_TESTS_DEFORM_SCENE_H

#include <math.h>

#include <kiln/render.h>

#include "renderer_fixture.h"

typedef struct deform_scene {
    renderer_fixture h;
    uint32_t width, height;
    uint32_t red;                 /* the material: base colour (1, 0, 0) */
    kiln_render_scene scene;      /* camera and environment set; instances, joints and lights the test's */
} deform_scene;

/* A renderer of `settings` (debug albedo unless the test says otherwise; the slow passes off unless
 * asked for) and a camera at `eye` looking at `target`. */
static inline bool deform_scene_open(deform_scene *s, kiln_render_settings settings, uint32_t width, uint32_t height,
                                     kiln_vec3 eye, kiln_vec3 target, kiln_error *err) {
    *s = (deform_scene){.width = width, .height = height};
    settings.tonemapper = KILN_TONEMAP_NONE;
    if (!renderer_fixture_open(&s->h, &settings, WGPUTextureFormat_RGBA8Unorm, width, height, err)) return false;
    kiln_material red = kiln_material_default("red");
    red.base_color = (kiln_vec4){1, 0, 0, 1};
    red.metallic = 0.0f;
    red.roughness = 1.0f;
    red.double_sided = true;
    s->red = kiln_renderer_add_material(s->h.r, &red, err);
    /* Looking straight down, -Z is up on the screen. */
    kiln_vec3 up = fabsf(eye.x - target.x) + fabsf(eye.z - target.z) < 1e-3f ? (kiln_vec3){0, 0, -1} : (kiln_vec3){0, 1, 0};
    s->scene = (kiln_render_scene){
        .camera = kiln_camera_look_at(eye, target, up, 0.8f, (float)width / (float)height, 0.1f),
        .environment = {.zenith = {0.02f, 0.02f, 0.02f}, .ground = {0.02f, 0.02f, 0.02f}}};
    return s->red != KILN_INVALID_INDEX;
}

/* Quads of four consecutive vertices each (counter-clockwise seen from `normal`), `joints[v]`
 * the one joint vertex v follows with weight 1 when `joints` is given (a skinned mesh), else
 * unskinned. `md` is initialised; the caller adds morph targets and frees it. */
static inline bool deform_quads(kiln_mesh_data *md, const kiln_vec3 *positions, uint32_t quad_count, kiln_vec3 normal,
                                const uint16_t *joints, kiln_error *err) {
    uint32_t n = quad_count * 4;
    if (!kiln_mesh_data_init(md, n, quad_count * 6, joints ? KILN_MESH_SKIN : 0, err)) return false;
    /* Each quad spans the texture once: uv0 all zero would leave the sampler no footprint (lavapipe
     * then draws the surface black). */
    static const kiln_vec2 corner_uv[4] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
    for (uint32_t v = 0; v < n; v++) {
        md->positions[v] = positions[v];
        md->normals[v] = normal;
        md->uv0[v] = corner_uv[v % 4];
        if (joints) {
            md->joints[v] = (kiln_joints4){{joints[v], 0, 0, 0}};
            md->weights[v] = (kiln_vec4){1, 0, 0, 0};
        }
    }
    static const uint32_t corners[6] = {0, 1, 2, 0, 2, 3};
    for (uint32_t q = 0; q < quad_count; q++)
        for (uint32_t i = 0; i < 6; i++) md->indices[q * 6 + i] = q * 4 + corners[i];
    return true;
}

/* Adds `md` as a mesh and frees it: its index, or KILN_INVALID_INDEX. */
static inline uint32_t deform_scene_add(deform_scene *s, const char *label, kiln_mesh_data *md, bool built,
                                        kiln_error *err) {
    uint32_t mesh = built ? kiln_renderer_add_mesh(s->h.r, label, md, false, err) : KILN_INVALID_INDEX;
    kiln_mesh_data_free(md);
    return mesh;
}

/* The pixel world point p projects to (clamped into the frame). */
static inline const uint8_t *deform_pixel(const deform_scene *s, const kiln_image *img, kiln_vec3 p) {
    kiln_camera c = s->scene.camera;
    kiln_camera_set_viewport(&c, s->width, s->height);
    kiln_vec4 clip = kiln_mat4_mul_vec4(kiln_camera_view_projection(&c), (kiln_vec4){p.x, p.y, p.z, 1});
    int x = (int)((clip.x / clip.w * 0.5f + 0.5f) * (float)s->width);
    int y = (int)((0.5f - clip.y / clip.w * 0.5f) * (float)s->height);
    x = x < 0 ? 0 : x >= (int)s->width ? (int)s->width - 1 : x;
    y = y < 0 ? 0 : y >= (int)s->height ? (int)s->height - 1 : y;
    return (const uint8_t *)img->pixels + ((size_t)y * s->width + (size_t)x) * 4;
}

/* Whether the surface covers world point p: the albedo view's red. */
static inline bool deform_covered(const deform_scene *s, const kiln_image *img, kiln_vec3 p) {
    const uint8_t *px = deform_pixel(s, img, p);
    return px[0] > 200 && px[1] < 40 && px[2] < 40;
}

#endif
