/* Levels of detail through the renderer, on the GPU (lavapipe): add_mesh's lods switch and
 * kiln_renderer_mesh_lod_count, the lod debug view colouring four spheres at four distances in
 * the level their projected size picks (pixels read back), a batch per level, and shadow views
 * drawing each instance at the camera's level. Every frame validation clean.
 *
 * The scene: a camera at the origin looking down -Z (60 degree field of view), and four copies of
 * a dense sphere of radius 0.5 (3968 triangles, four levels) at distances where each covers
 * 0.4, 0.18, 0.09 and 0.04 of the frame height: levels 0, 1, 2, 3 (lod_select.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <kiln/render.h>

#include "render/lod_select.h"
#include "render/renderer_internal.h"
#include "renderer_fixture.h"

#define W 256
#define H 128
#define SPHERES 4
#define RADIUS 0.5f
#define FOV_Y (KILN_PI / 3.0f)

static const float FRACTIONS[SPHERES] = {0.4f, 0.18f, 0.09f, 0.04f};
static const float ANGLES[SPHERES] = {-0.55f, -0.2f, 0.1f, 0.35f}; /* radians from -Z towards +X */

typedef struct lod_scene {
    renderer_fixture h;
    uint32_t sphere;
    kiln_render_instance instances[SPHERES];
    kiln_light sun;
    kiln_render_scene scene;
} lod_scene;

static kiln_vec3 sphere_center(int k) {
    float d = RADIUS / (tanf(FOV_Y / 2.0f) * FRACTIONS[k]);
    return (kiln_vec3){sinf(ANGLES[k]) * d, 0.0f, -cosf(ANGLES[k]) * d};
}

static uint32_t add_sphere(renderer_fixture *h, bool lods, kiln_error *err) {
    kiln_mesh_data md = {0};
    uint32_t mesh = kiln_mesh_uv_sphere(&md, RADIUS, 32, 64, err) ? kiln_renderer_add_mesh(h->r, "sphere", &md, lods, err)
                                                                  : KILN_INVALID_INDEX;
    kiln_mesh_data_free(&md);
    return mesh;
}

static bool lod_scene_open(lod_scene *s, const kiln_render_settings *settings, kiln_error *err) {
    *s = (lod_scene){0};
    kiln_render_settings rs = *settings;
    rs.cascade_resolution = 256; /* lavapipe: small maps keep the test fast */
    if (!renderer_fixture_open(&s->h, &rs, WGPUTextureFormat_RGBA8Unorm, W, H, err)) return false;
    s->sphere = add_sphere(&s->h, true, err);
    kiln_material m = kiln_material_default("white");
    uint32_t material = kiln_renderer_add_material(s->h.r, &m, err);
    if (s->sphere == KILN_INVALID_INDEX || material == KILN_INVALID_INDEX) return false;
    for (int k = 0; k < SPHERES; k++)
        s->instances[k] = (kiln_render_instance){.mesh = s->sphere, .material = material,
                                                 .transform = kiln_mat4_translation(sphere_center(k))};
    s->sun = kiln_light_sun((kiln_vec3){0.3f, -1, -0.2f}, (kiln_vec3){1, 1, 1}, 3.0f);
    s->scene = (kiln_render_scene){
        .camera = kiln_camera_look_at((kiln_vec3){0, 0, 0}, (kiln_vec3){0, 0, -1}, (kiln_vec3){0, 1, 0}, FOV_Y, 2.0f, 0.1f),
        .instances = s->instances, .instance_count = SPHERES,
        .environment = {.zenith = {0.05f, 0.05f, 0.05f}, .ground = {0.05f, 0.05f, 0.05f}}};
    return true;
}

/* The pixel a world point projects to. */
static const uint8_t *pixel_of(const lod_scene *s, const kiln_image *img, kiln_vec3 p) {
    kiln_camera c = s->scene.camera;
    kiln_camera_set_viewport(&c, W, H);
    kiln_vec4 clip = kiln_mat4_mul_vec4(kiln_camera_view_projection(&c), (kiln_vec4){p.x, p.y, p.z, 1});
    int x = (int)((clip.x / clip.w * 0.5f + 0.5f) * W), y = (int)((0.5f - clip.y / clip.w * 0.5f) * H);
    x = x < 0 ? 0 : x >= W ? W - 1 : x;
    y = y < 0 ? 0 : y >= H ? H - 1 : y;
    return (const uint8_t *)img->pixels + ((size_t)y * W + x) * 4;
}

/* The level a lod-view pixel shows, by the palette of docs/guides/render.md (green, blue, yellow,
 * red), or -1 for none of them. */
static int level_of(const uint8_t *p) {
    int r = p[0], g = p[1], b = p[2];
    if (g > 2 * r && g > 2 * b) return 0;
    if (b > 2 * r && b > g) return 1;
    if (r > 150 && g > 150 && b < r / 2) return 2;
    if (r > 2 * g && r > 2 * b) return 3;
    return -1;
}

TEST(the_lod_view_colours_each_sphere_by_the_level_its_size_picks) {
    lod_scene s;
    kiln_error err = {0};
    kiln_image img = {0};
    bool ok = lod_scene_open(&s, &(kiln_render_settings){.debug = KILN_DEBUG_LOD}, &err) &&
              renderer_fixture_render(&s.h, &s.scene, &img, &err);
    int levels[SPHERES] = {-1, -1, -1, -1};
    uint8_t centre[SPHERES][3] = {{0}};
    for (int k = 0; ok && k < SPHERES; k++) {
        const uint8_t *p = pixel_of(&s, &img, sphere_center(k));
        levels[k] = level_of(p);
        memcpy(centre[k], p, 3);
    }
    uint32_t lod_count = kiln_renderer_mesh_lod_count(s.h.r, s.sphere);
    kiln_frame_stats stats = *kiln_renderer_stats(s.h.r);
    kiln_image_free(&img);
    CHECK_EQ_INT(renderer_fixture_close(&s.h), 0);
    CHECK_MSG(ok, "%s", err.message);
    CHECK_EQ_INT(lod_count, KILN_MESH_MAX_LODS);
    for (int k = 0; k < SPHERES; k++)
        CHECK_MSG(levels[k] == k, "sphere %d: (%d, %d, %d) reads as level %d", k, centre[k][0], centre[k][1],
                  centre[k][2], levels[k]);
    /* One mesh and one material, but four levels: four batches. */
    CHECK_EQ_INT(stats.draw_calls, SPHERES);
}

TEST(without_lods_every_sphere_draws_full_detail_in_one_batch) {
    lod_scene s;
    kiln_error err = {0};
    kiln_image img = {0};
    bool ok = lod_scene_open(&s, &(kiln_render_settings){.debug = KILN_DEBUG_LOD}, &err);
    uint32_t plain = ok ? add_sphere(&s.h, false, &err) : KILN_INVALID_INDEX;
    for (int k = 0; k < SPHERES; k++) s.instances[k].mesh = plain;
    ok = ok && plain != KILN_INVALID_INDEX && renderer_fixture_render(&s.h, &s.scene, &img, &err);
    int levels[SPHERES] = {-1, -1, -1, -1};
    for (int k = 0; ok && k < SPHERES; k++) levels[k] = level_of(pixel_of(&s, &img, sphere_center(k)));
    uint32_t lod_count = kiln_renderer_mesh_lod_count(s.h.r, plain);
    kiln_frame_stats stats = *kiln_renderer_stats(s.h.r);
    kiln_image_free(&img);
    CHECK_EQ_INT(renderer_fixture_close(&s.h), 0);
    CHECK_MSG(ok, "%s", err.message);
    CHECK_EQ_INT(lod_count, 1);
    for (int k = 0; k < SPHERES; k++) CHECK_MSG(levels[k] == 0, "sphere %d reads as level %d", k, levels[k]);
    CHECK_EQ_INT(stats.draw_calls, 1);
}

TEST(mesh_lod_count_is_zero_for_unknown_and_removed_meshes) {
    renderer_fixture h;
    kiln_error err = {0};
    CHECK_MSG(renderer_fixture_open(&h, NULL, WGPUTextureFormat_RGBA8Unorm, 8, 8, &err), "%s", err.message);
    uint32_t sphere = add_sphere(&h, true, &err);
    uint32_t cube = renderer_fixture_add_cube(&h, "cube", 0.5f, &err);
    uint32_t counts[4] = {kiln_renderer_mesh_lod_count(h.r, sphere), kiln_renderer_mesh_lod_count(h.r, cube),
                          kiln_renderer_mesh_lod_count(h.r, 7), kiln_renderer_mesh_lod_count(h.r, KILN_INVALID_INDEX)};
    bool removed = kiln_renderer_remove_mesh(h.r, sphere, &err);
    uint32_t after_remove = kiln_renderer_mesh_lod_count(h.r, sphere);
    CHECK_EQ_INT(renderer_fixture_close(&h), 0);
    CHECK_MSG(removed, "%s", err.message);
    CHECK_EQ_INT(counts[0], KILN_MESH_MAX_LODS);
    CHECK_EQ_INT(counts[1], 1);
    CHECK_EQ_INT(counts[2], 0);
    CHECK_EQ_INT(counts[3], 0);
    CHECK_EQ_INT(after_remove, 0);
}

/* The sphere an instance record's model matrix puts at its translation, or -1. */
static int sphere_of_record(const uint8_t *record) {
    float t[3];
    memcpy(t, record + 48, sizeof t); /* the model's fourth column */
    for (int k = 0; k < SPHERES; k++) {
        kiln_vec3 c = sphere_center(k);
        if (fabsf(t[0] - c.x) < 1e-4f && fabsf(t[2] - c.z) < 1e-4f) return k;
    }
    return -1;
}

TEST(shadow_views_draw_each_instance_at_the_cameras_level) {
    lod_scene s;
    kiln_error err = {0};
    bool ok = lod_scene_open(&s, &(kiln_render_settings){0}, &err);
    s.scene.lights = &s.sun;
    s.scene.light_count = 1;
    ok = ok && renderer_fixture_render(&s.h, &s.scene, NULL, &err);
    const kiln_renderer *r = s.h.r;
    uint32_t shadow_records = 0, wrong = 0, first_wrong = UINT32_MAX;
    /* Each shadow batch draws one level for the instances it names (through the record index
     * list); sphere k's is level k, the camera's choice. */
    const uint32_t *record_indices = r->views.record_indices.data;
    for (uint32_t v = 0; ok && v < r->views.count; v++) {
        const render_view *view = &r->views.list[v];
        if (!view->shadow) continue;
        for (uint32_t b = 0; b < view->batch_count; b++) {
            const render_batch *batch = (const render_batch *)r->views.batches.data + view->first_batch + b;
            for (uint32_t i = 0; i < batch->instance_count; i++) {
                uint32_t index = record_indices[batch->first_instance + i];
                const uint8_t *record = (const uint8_t *)r->instances.records.data + (size_t)index * KILN_INSTANCE_RECORD_SIZE;
                int k = sphere_of_record(record);
                shadow_records++;
                if (k < 0 || batch->lod != (uint32_t)k) {
                    wrong++;
                    if (first_wrong == UINT32_MAX) first_wrong = (uint32_t)k;
                }
            }
        }
    }
    uint32_t shadow_views = kiln_renderer_stats(r)->shadow_views;
    CHECK_EQ_INT(renderer_fixture_close(&s.h), 0);
    CHECK_MSG(ok, "%s", err.message);
    CHECK_EQ_INT(shadow_views, 4);
    CHECK(shadow_records >= SPHERES); /* each sphere lies in at least one cascade */
    CHECK_MSG(wrong == 0, "%u of %u shadow records draw another level (first: sphere %d)", wrong, shadow_records,
              (int)first_wrong);
}

TEST_MAIN(T(the_lod_view_colours_each_sphere_by_the_level_its_size_picks),
          T(without_lods_every_sphere_draws_full_detail_in_one_batch),
          T(mesh_lod_count_is_zero_for_unknown_and_removed_meshes), T(shadow_views_draw_each_instance_at_the_cameras_level))
