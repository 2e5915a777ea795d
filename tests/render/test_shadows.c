/* The sun's cascaded shadows on the GPU (lavapipe), read back from the image: a box held over a
 * plane shadows the plane exactly where the sun's geometry puts the shadow; disable_shadows, an
 * instance's disable_shadow_casting and the sun's each take the shadow away, the first with every
 * shadow pass; the cascades view tints by the cascade the view depth selects. Every frame
 * validation clean.
 *
 * The scene: a camera 6 m above the origin looking straight down, a 1 m box centred 1.5 m above
 * an 8 m plane, and a sun travelling along (1, -2, 0): a point at height y casts onto the plane
 * y / 2 further along +x, so the box's shadow covers x in [-0.5 + 0.5, 0.5 + 1.0] = [0, 1.5] and
 * z in [-0.5, 0.5]. Seen from above the box hides x < 0.625 of it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <kiln/render.h>

#include "render/cascades.h"
#include "renderer_fixture.h"

#define W 96
#define H 96

typedef struct shadow_scene {
    renderer_fixture h;
    kiln_render_instance instances[2]; /* the plane, the box */
    kiln_light sun;
    kiln_render_scene scene;
} shadow_scene;

static bool shadow_scene_open(shadow_scene *s, const kiln_render_settings *settings, kiln_error *err) {
    *s = (shadow_scene){0};
    kiln_render_settings rs = *settings;
    rs.tonemapper = KILN_TONEMAP_NONE;
    rs.cascade_resolution = 512; /* lavapipe: small maps keep the test fast */
    if (!renderer_fixture_open(&s->h, &rs, WGPUTextureFormat_RGBA8Unorm, W, H, err)) return false;
    uint32_t plane = renderer_fixture_add_plane(&s->h, "plane", 4.0f, err);
    uint32_t box = renderer_fixture_add_cube(&s->h, "box", 0.5f, err);
    kiln_material grey = kiln_material_default("grey");
    grey.base_color = (kiln_vec4){0.6f, 0.6f, 0.6f, 1};
    grey.metallic = 0.0f;
    grey.roughness = 1.0f;
    uint32_t material = kiln_renderer_add_material(s->h.r, &grey, err);
    if (plane == KILN_INVALID_INDEX || box == KILN_INVALID_INDEX || material == KILN_INVALID_INDEX) return false;
    s->instances[0] = (kiln_render_instance){.mesh = plane, .material = material, .transform = kiln_mat4_identity()};
    s->instances[1] = (kiln_render_instance){.mesh = box, .material = material,
                                             .transform = kiln_mat4_translation((kiln_vec3){0, 1.5f, 0})};
    s->sun = kiln_light_sun((kiln_vec3){1, -2, 0}, (kiln_vec3){1, 1, 1}, 3.0f);
    s->scene = (kiln_render_scene){
        .camera = kiln_camera_look_at((kiln_vec3){0, 6, 0}, (kiln_vec3){0, 0, 0}, (kiln_vec3){0, 0, -1}, 1.0f, 1.0f, 0.1f),
        .lights = &s->sun, .light_count = 1, .instances = s->instances, .instance_count = 2,
        .environment = {.zenith = {0.05f, 0.05f, 0.05f}, .ground = {0.05f, 0.05f, 0.05f}}};
    return true;
}

static bool shadow_scene_render(shadow_scene *s, kiln_image *out, kiln_error *err) {
    return renderer_fixture_render(&s->h, &s->scene, out, err);
}

static uint64_t shadow_scene_close(shadow_scene *s) { return renderer_fixture_close(&s->h); }

/* The pixel a world point projects to. */
static const uint8_t *pixel_of(const shadow_scene *s, const kiln_image *img, kiln_vec3 p) {
    kiln_camera c = s->scene.camera;
    kiln_camera_set_viewport(&c, W, H);
    kiln_vec4 clip = kiln_mat4_mul_vec4(kiln_camera_view_projection(&c), (kiln_vec4){p.x, p.y, p.z, 1});
    int x = (int)((clip.x / clip.w * 0.5f + 0.5f) * W), y = (int)((0.5f - clip.y / clip.w * 0.5f) * H);
    x = x < 0 ? 0 : x >= W ? W - 1 : x;
    y = y < 0 ? 0 : y >= H ? H - 1 : y;
    return (const uint8_t *)img->pixels + ((size_t)y * W + x) * 4;
}

/* The plane at (x, 0, z) gets less than half the light of the plane where nothing shadows it. */
static bool shadowed(const shadow_scene *s, const kiln_image *img, float x, float z) {
    int lit = pixel_of(s, img, (kiln_vec3){-2.0f, 0, 0})[0];
    return pixel_of(s, img, (kiln_vec3){x, 0, z})[0] * 2 < lit;
}

/* Renders one frame of the scene under `settings`, `edit` applied first; false when it failed. */
static bool render_with(const kiln_render_settings *settings, void (*edit)(shadow_scene *), shadow_scene *s,
                        kiln_image *img) {
    kiln_error err = {0};
    bool ok = shadow_scene_open(s, settings, &err);
    if (ok && edit) edit(s);
    ok = ok && shadow_scene_render(s, img, &err);
    if (!ok) fprintf(stderr, "shadow scene: %s\n", err.message);
    return ok;
}

TEST(a_box_over_a_plane_shadows_it_where_the_sun_geometry_says) {
    shadow_scene s;
    kiln_image img = {0};
    bool rendered = render_with(&(kiln_render_settings){0}, NULL, &s, &img);
    kiln_frame_stats stats = *kiln_renderer_stats(s.h.r);
    /* Along z = 0 the shadow runs from under the box to x = 1.5: find its far edge. */
    float edge = 0.0f;
    for (float x = 0.7f; x < 2.5f; x += 0.02f)
        if (rendered && shadowed(&s, &img, x, 0.0f)) edge = x;
    /* Across it, at x = 1.1, it ends at z = +-0.5. */
    float side = 0.0f;
    for (float z = 0.0f; z < 1.2f; z += 0.02f)
        if (rendered && shadowed(&s, &img, 1.1f, z)) side = z;
    bool lit_elsewhere = rendered && !shadowed(&s, &img, -1.1f, 0.0f) && !shadowed(&s, &img, 1.1f, 0.9f) &&
                         !shadowed(&s, &img, 2.0f, 0.0f);
    kiln_image_free(&img);
    CHECK_EQ_INT(shadow_scene_close(&s), 0);
    CHECK(rendered);
    CHECK_MSG(fabsf(edge - 1.5f) < 0.1f, "the shadow ends at x = %g, the sun says 1.5", (double)edge);
    CHECK_MSG(fabsf(side - 0.5f) < 0.1f, "the shadow ends at z = %g, the sun says 0.5", (double)side);
    CHECK(lit_elsewhere);
    CHECK_EQ_INT(stats.shadow_views, KILN_CASCADE_COUNT);
    CHECK(stats.shadow_draw_calls >= 2); /* the box and the plane, in at least one cascade */
}

TEST(disable_shadows_records_no_shadow_pass_and_the_plane_is_lit) {
    shadow_scene on, off;
    kiln_image img_on = {0}, img_off = {0};
    static char dot_on[16384], dot_off[16384];
    bool rendered = render_with(&(kiln_render_settings){0}, NULL, &on, &img_on);
    kiln_frame_stats stats_on = *kiln_renderer_stats(on.h.r);
    kiln_renderer_graph_dot(on.h.r, dot_on, sizeof dot_on);
    rendered = render_with(&(kiln_render_settings){.disable_shadows = true}, NULL, &off, &img_off) && rendered;
    kiln_frame_stats stats_off = *kiln_renderer_stats(off.h.r);
    kiln_renderer_graph_dot(off.h.r, dot_off, sizeof dot_off);
    bool dark_on = rendered && shadowed(&on, &img_on, 1.1f, 0.0f), dark_off = rendered && shadowed(&off, &img_off, 1.1f, 0.0f);
    kiln_image_free(&img_on);
    kiln_image_free(&img_off);
    CHECK_EQ_INT(shadow_scene_close(&on), 0);
    CHECK_EQ_INT(shadow_scene_close(&off), 0);
    CHECK(rendered);
    CHECK(dark_on && !dark_off);
    for (int i = 0; i < KILN_CASCADE_COUNT; i++) {
        char name[32];
        snprintf(name, sizeof name, "cascade shadow %d", i);
        CHECK_STR_CONTAINS(dot_on, name);
    }
    CHECK_STR_CONTAINS(dot_on, "cascade maps");
    CHECK(!strstr(dot_off, "cascade"));
    CHECK_EQ_INT(stats_on.passes - stats_off.passes, KILN_CASCADE_COUNT);
    CHECK_EQ_INT(stats_off.shadow_views, 0);
    CHECK_EQ_INT(stats_off.shadow_draw_calls, 0);
}

static void box_casts_nothing(shadow_scene *s) { s->instances[1].disable_shadow_casting = true; }
static void sun_casts_nothing(shadow_scene *s) { s->sun.disable_shadow_casting = true; }

TEST(an_instance_that_casts_no_shadow_is_left_out_of_the_maps) {
    shadow_scene s;
    kiln_image img = {0};
    bool rendered = render_with(&(kiln_render_settings){0}, box_casts_nothing, &s, &img);
    kiln_frame_stats stats = *kiln_renderer_stats(s.h.r);
    bool dark = rendered && shadowed(&s, &img, 1.1f, 0.0f);
    kiln_image_free(&img);
    CHECK_EQ_INT(shadow_scene_close(&s), 0);
    CHECK(rendered && !dark);
    CHECK_EQ_INT(stats.shadow_views, KILN_CASCADE_COUNT);
    CHECK(stats.shadow_draw_calls <= KILN_CASCADE_COUNT); /* the plane alone, at most once per cascade */
}

TEST(a_sun_that_casts_no_shadow_fits_no_cascade) {
    shadow_scene s;
    kiln_image img = {0};
    bool rendered = render_with(&(kiln_render_settings){0}, sun_casts_nothing, &s, &img);
    kiln_frame_stats stats = *kiln_renderer_stats(s.h.r);
    bool dark = rendered && shadowed(&s, &img, 1.1f, 0.0f);
    kiln_image_free(&img);
    CHECK_EQ_INT(shadow_scene_close(&s), 0);
    CHECK(rendered && !dark);
    CHECK_EQ_INT(stats.shadow_views, 0);
}

/* The channel a cascade's tint is strongest in: red, green, blue for 0..2. */
static int strongest(const uint8_t *p) { return p[0] >= p[1] && p[0] >= p[2] ? 0 : p[1] >= p[2] ? 1 : 2; }

TEST(the_cascades_view_tints_by_the_cascade_of_the_view_depth) {
    shadow_scene s;
    kiln_image img = {0};
    bool rendered = render_with(&(kiln_render_settings){.debug = KILN_DEBUG_CASCADES}, NULL, &s, &img);
    float splits[KILN_CASCADE_COUNT];
    kiln_cascade_splits_into(splits, 0.1f, 60.0f);
    /* The plane lies 6 m from the camera, the box's top 4 m. */
    int ground = 0, top = 0;
    while (ground < KILN_CASCADE_COUNT && 6.0f >= splits[ground]) ground++;
    while (top < KILN_CASCADE_COUNT && 4.0f >= splits[top]) top++;
    int ground_channel = -1, top_channel = -1, lit = 0, dark = 0;
    if (rendered) {
        ground_channel = strongest(pixel_of(&s, &img, (kiln_vec3){-2.0f, 0, 0}));
        top_channel = strongest(pixel_of(&s, &img, (kiln_vec3){0, 2.0f, 0}));
        lit = pixel_of(&s, &img, (kiln_vec3){-2.0f, 0, 0})[ground];
        dark = pixel_of(&s, &img, (kiln_vec3){1.1f, 0, 0})[ground];
    }
    kiln_image_free(&img);
    CHECK_EQ_INT(shadow_scene_close(&s), 0);
    CHECK(rendered);
    CHECK_EQ_INT(ground, 1);
    CHECK_EQ_INT(top, 0);
    CHECK_EQ_INT(ground_channel, ground);
    CHECK_EQ_INT(top_channel, top);
    /* 0.3 of the tint in shadow, sRGB-encoded: 149 of 255. */
    CHECK_MSG(dark + 60 < lit, "shadowed %d, lit %d", dark, lit);
}

TEST_MAIN(T(a_box_over_a_plane_shadows_it_where_the_sun_geometry_says),
          T(disable_shadows_records_no_shadow_pass_and_the_plane_is_lit),
          T(an_instance_that_casts_no_shadow_is_left_out_of_the_maps),
          T(a_sun_that_casts_no_shadow_fits_no_cascade),
          T(the_cascades_view_tints_by_the_cascade_of_the_view_depth))
